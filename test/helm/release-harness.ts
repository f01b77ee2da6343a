import { TerraformStack } from "cdktf";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterRelease, KarpenterReleaseProps } from "../../lib/helm/karpenter-release";
import { rejected, synthJson, testCluster, testStack } from "../helpers";

/* A KarpenterRelease on cluster `demo` as the controller-env and controller-options tests build it. */

export type Env = Record<string, unknown>[];

/** values with `controller.env` set to `env` (beside `rest`). */
export const withEnv = (env: Env, rest: Record<string, unknown> = {}) => ({ ...rest, controller: { env } });

/** The synth warnings of every construct of `stack`, without the "sets no Kubernetes version" one every test cluster gets. */
export const warningsOf = (stack: TerraformStack) =>
  stack.node
    .findAll()
    .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)))
    .filter((w) => !/sets no Kubernetes version/.test(w));

/** A KarpenterRelease for cluster `demo`; its warnings. */
export function release(props: Partial<KarpenterReleaseProps>): string[] {
  const { stack } = testStack();
  new KarpenterRelease(stack, "rel", { cluster: testCluster(stack, "demo"), ...props });
  return warningsOf(stack);
}

/** The KarpenterValidationError a KarpenterRelease for cluster `demo` throws (fails the test when none). */
export const refused = (props: Partial<KarpenterReleaseProps>) =>
  rejected(() => {
    const { stack } = testStack();
    new KarpenterRelease(stack, "rel", { cluster: testCluster(stack, "demo"), ...props });
  });

/** The synthesized stack of a Karpenter on cluster `demo` with these `values` (throws what the construct throws). */
export function synthKarpenter(values: Record<string, unknown>) {
  const { stack } = testStack();
  new HelmProvider(stack, "helm", {});
  const cluster = testCluster(stack, "demo");
  new Karpenter(stack, "karpenter", { cluster, values });
  return synthJson(stack);
}

/** The synthesized stack of a KarpenterRelease on cluster `demo` (throws what the construct throws). */
export function synthRelease(props: Partial<KarpenterReleaseProps>) {
  const { stack } = testStack();
  const cluster = testCluster(stack, "demo");
  new KarpenterRelease(stack, "karpenter", { cluster, ...props } as KarpenterReleaseProps);
  return synthJson(stack);
}

/** The code and field of every problem `fn` throws. */
export const found = (fn: () => unknown) => rejected(fn).problems.map((p) => ({ code: p.code, field: p.field }));
