import { IConstruct } from "constructs";
import { TerraformProvider, TerraformStack } from "cdktf";
import type { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { KarpenterValidationError } from "../core/errors";
import { stackIndex, attached } from "../core/app-index";
import { addSynthCheck } from "../core/synth-checks";
import { isUnresolved } from "../core/tokens";
import { chooseProvider, chosenAbove, providerName } from "../core/provider-choice";
import type { IKarpenterCluster } from "./karpenter-cluster";
import { clusterProvider } from "./cluster-resource";

/*
 * The AWS provider of a building block on a cluster: the cluster's own when it is in the same stack
 * (see core/provider-choice.ts for the default-provider rules this falls back to).
 */

/**
 * The AWS provider for a building block of `cluster` created under `scope`: `given`, else the
 * provider of the cluster's own resource or data source when that is in the same stack (the
 * stack's default when it names none: where the cluster is), else the stack's default, checked.
 */
export function awsProviderFor(
  scope: IConstruct,
  construct: IConstruct,
  cluster: IKarpenterCluster | undefined,
  given: AwsProvider | undefined,
  prop = "provider",
): AwsProvider | undefined {
  if (given !== undefined && given !== null) return chooseProvider(scope, construct, "aws", prop, given);
  if (cluster && TerraformStack.of(cluster.resource) === TerraformStack.of(scope))
    return clusterProvider(cluster) as AwsProvider | undefined;
  if (cluster && !chosenAbove(scope, "aws")) addSynthCheck(construct, () => regionProblems(construct, prop, cluster));
  return chooseProvider<AwsProvider>(scope, construct, "aws", prop, undefined);
}

/** The literal region of an AWS provider, or undefined when unset or a token. */
function literalRegion(p: TerraformProvider | undefined): string | undefined {
  const region = (p as AwsProvider | undefined)?.region;
  return typeof region === "string" && !isUnresolved(region) ? region : undefined;
}

/**
 * A cluster of another stack whose AWS provider names a region, and the stack's only (default) AWS
 * provider naming another: the install's roles, queue, rules and access entry would be created in
 * the wrong region, and the controller policy's `aws:RequestedRegion` would name it. Providers
 * without a literal region (environment, tokens) are not compared.
 */
function regionProblems(construct: IConstruct, prop: string, cluster: IKarpenterCluster): KarpenterValidationError[] {
  if (!attached(construct)) return [];
  const mine = stackIndex(TerraformStack.of(construct)).providers.get("aws") ?? [];
  // several providers or only an aliased one: the default-provider check reports it
  if (mine.length !== 1 || mine[0].alias) return [];
  const clusterStack = TerraformStack.of(cluster.resource);
  const theirs =
    clusterProvider(cluster) ?? (stackIndex(clusterStack).providers.get("aws") ?? []).find((p) => !p.alias);
  const [here, there] = [literalRegion(mine[0]), literalRegion(theirs)];
  if (here === undefined || there === undefined || here === there) return [];
  return [
    new KarpenterValidationError(
      "CLUSTER_REGION_MISMATCH",
      construct,
      prop,
      cluster.resource.node.path,
      `a cluster in the region of this stack's AWS provider: ${cluster.resource.node.path} is in ${there} (${providerName(theirs!)} of stack ${clusterStack.node.id}), ` +
        `and this construct's AWS resources would use the default aws provider of stack ${TerraformStack.of(construct).node.id}, in ${here}; ` +
        `read the cluster in this stack with KarpenterCluster.fromClusterName(this stack, id, name, { provider }) naming an AwsProvider of ${there}`,
    ),
  ];
}
