import { App, TerraformStack, Testing } from "cdktf";
import { Construct, IConstruct } from "constructs";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { Release } from "@cdktf/provider-helm/lib/release";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { IKarpenterCluster, KarpenterCluster } from "../lib/cluster/karpenter-cluster";
import { IKarpenterInstallation } from "../lib/cluster/karpenter-installation";
import { KarpenterValidationError } from "../lib/core/errors";

/** A stack with an AWS provider, for constructs under test. */
export function testStack(id = "test"): { app: App; stack: TerraformStack } {
  const app = Testing.app();
  const stack = new TerraformStack(app, id);
  new AwsProvider(stack, "aws", { region: "us-east-1" });
  return { app, stack };
}

/**
 * A stack of `app` with the AWS, Helm and Kubernetes providers, so that `app.synth()` validates
 * only what a test is about (a stack without the provider of its resources fails synth).
 */
export function providedStack(app: App, id: string): TerraformStack {
  const stack = new TerraformStack(app, id);
  new AwsProvider(stack, "aws", { region: "us-east-1" });
  new HelmProvider(stack, "helm", {});
  new KubernetesProvider(stack, "kubernetes", {});
  return stack;
}

/**
 * An install as the node constructs see it, without the AWS side: a cluster named `demo`
 * (an `aws_eks_cluster` with id `<id>-cluster`, beside the install), the node role name
 * `KarpenterNodeRole-demo` as a literal, and a controller `helm_release`.
 */
export class FakeInstallation extends Construct implements IKarpenterInstallation {
  public readonly cluster: IKarpenterCluster;
  public readonly namespace = "kube-system";
  public readonly nodeRoleName = "KarpenterNodeRole-demo";
  public readonly release: Release;
  constructor(
    scope: Construct,
    id: string,
    public readonly version = "1.14.1",
    public readonly createsSpotServiceLinkedRole = false,
  ) {
    super(scope, id);
    this.cluster = testCluster(scope, "demo", `${id}-cluster`);
    this.release = new Release(this, "release", {
      name: "karpenter",
      chart: "karpenter",
      repository: "oci://public.ecr.aws/karpenter",
      version,
    });
  }
}

/** A minimal `aws_eks_cluster` named `name` (construct id `id`), wrapped as an IKarpenterCluster. */
export function testCluster(scope: Construct, name = "demo", id = "cluster"): IKarpenterCluster {
  const cluster = new EksCluster(scope, id, {
    name,
    roleArn: "arn:aws:iam::123456789012:role/cluster",
    vpcConfig: { subnetIds: ["subnet-00000001", "subnet-00000002"] },
  });
  return KarpenterCluster.fromEksCluster(cluster);
}

/** The synthesized Terraform JSON of a stack, parsed. */
export function synthJson(stack: TerraformStack): any {
  return JSON.parse(Testing.synth(stack));
}

/** The resources of one type in a synthesized stack: { name: body }. */
export function resources(json: any, type: string): Record<string, any> {
  return (json.resource && json.resource[type]) || {};
}

/** The only resource of a type; fails when there is not exactly one. */
export function onlyResource(json: any, type: string): any {
  const all = Object.values(resources(json, type));
  if (all.length !== 1) throw new Error(`expected one ${type}, found ${all.length}`);
  return all[0];
}

/** Runs `fn` once and returns what it threw (fails the test when it throws nothing). */
export function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error, none was thrown");
}

/** Runs `fn` once and returns the KarpenterValidationError it threw (fails the test on anything else). */
export function rejected(fn: () => unknown): KarpenterValidationError {
  const e = thrown(fn);
  if (!(e instanceof KarpenterValidationError)) throw e;
  return e;
}

/** The synth warnings (`@cdktf/warn` metadata) of `scope` and every construct under it, in tree order. */
export function synthWarnings(scope: IConstruct): string[] {
  return scope.node
    .findAll()
    .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)));
}
