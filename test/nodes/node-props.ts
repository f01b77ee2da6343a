import { TerraformStack, Testing } from "cdktf";
import { KarpenterValidationError } from "../../lib/core/errors";
import { Ec2NodeClass, Ec2NodeClassProps } from "../../lib/nodes/ec2-node-class";
import { NodePool, NodePoolProps } from "../../lib/nodes/node-pool";
import { FakeInstallation, testStack } from "../helpers";

/* Building one NodePool or EC2NodeClass from loose props, for the rejection and message tests of both kinds. */

export type Kind = "EC2NodeClass" | "NodePool";
export type Props = Partial<Ec2NodeClassProps> | Partial<NodePoolProps>;

/** Builds one object for Karpenter `version` (default 1.14.1) and returns its stack. */
export function build(kind: Kind, props: Props, version = "1.14.1"): TerraformStack {
  const { stack } = testStack();
  const karpenter = new FakeInstallation(stack, "karpenter", version);
  if (kind === "EC2NodeClass") new Ec2NodeClass(stack, "obj", { karpenter, ...(props as Ec2NodeClassProps) });
  else
    new NodePool(stack, "obj", {
      karpenter,
      ...(props as NodePoolProps),
      nodeClass: (props as NodePoolProps).nodeClass ?? { name: "default" },
    });
  return stack;
}

export function rejection(kind: Kind, props: Props, version?: string): KarpenterValidationError {
  try {
    build(kind, props, version);
  } catch (e) {
    if (e instanceof KarpenterValidationError) return e;
    throw e;
  }
  throw new Error(`accepted: ${JSON.stringify(props)}`);
}

export const req = (key: string, operator: string, values?: string[], minValues?: number) =>
  ({ key, operator, values, minValues }) as any;
export const long = (n: number) => "a".repeat(n);

/** The messages of every problem of one rejected object, in order. */
export function messages(kind: Kind, props: Props): string[] {
  return rejection(kind, props).problems.map((p) => p.message);
}

export const DURATION_RULE =
  'a duration of hours, minutes and seconds such as "30s", "5m", "720h" or "1h30m", or "Never"';

/**
 * The error of a NodePool (`props`) on an Ec2NodeClass of the app named "cls" (`cls`), or with `byName` on
 * `nodeClass: { name: "cls" }` (no class construct), for Karpenter `version`; undefined when both build.
 */
export function poolOnClass(
  props: Partial<NodePoolProps>,
  cls: Partial<Ec2NodeClassProps> = {},
  version = "1.15.0",
  byName = false,
): KarpenterValidationError | undefined {
  const { stack } = testStack();
  const karpenter = new FakeInstallation(stack, "karpenter", version);
  const nodeClass = byName ? { name: "cls" } : new Ec2NodeClass(stack, "nc", { karpenter, name: "cls", ...cls });
  try {
    new NodePool(stack, "np", { karpenter, nodeClass, ...props } as NodePoolProps);
  } catch (e) {
    if (e instanceof KarpenterValidationError) return e;
    throw e;
  }
  return undefined;
}

/**
 * The synth warnings of an EC2NodeClass (Karpenter 1.15.2, NodeClassCEL on) with the kubelet expression `text` as
 * maxPods, or as kubeReserved.pid when `reserved`.
 */
export function expressionWarnings(text: string, reserved: boolean): string[] {
  const { stack } = testStack();
  const karpenter = new FakeInstallation(stack, "karpenter", "1.15.2");
  Object.assign(karpenter, { nodeClassCel: true });
  const nc = new Ec2NodeClass(stack, "default", {
    karpenter,
    kubelet: reserved ? { kubeReserved: { pid: text } } : { maxPodsExpression: text },
  });
  Testing.synth(stack);
  return nc.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));
}
