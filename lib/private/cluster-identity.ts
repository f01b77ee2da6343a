import { IConstruct } from "constructs";
import { TerraformProvider, TerraformStack, Token } from "cdktf";
import { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { IKarpenterCluster } from "../karpenter-cluster";
import { stackIndex, stacksOf } from "./app-index";
import { isUnresolved, resolvedReference } from "./tokens";

/*
 * Whether two things name the same EKS cluster, for the app-wide checks of Karpenter (one install
 * per cluster, the Pod Identity agent add-on). Clusters are compared by resource, by literal name
 * within one AWS region and account, or by the reference their name resolves to.
 */

/** Whether an add-on's cluster_name names the same cluster: equal literals, or the same reference once resolved in one stack. */
export function sameCluster(addon: EksAddon, cluster: IKarpenterCluster): boolean {
  const name = addon.clusterNameInput;
  if (name === undefined) return false;
  if (!Token.isUnresolved(name)) return name === (cluster.clusterNameLiteral ?? cluster.clusterName);
  const stack = TerraformStack.of(addon);
  if (stack !== TerraformStack.of(cluster.resource)) return false;
  // `.name` and `.id` of aws_eks_cluster are both the cluster name: compare the resource they belong to
  const target = (s: string) => {
    const m = /^\$\{((?:data\.)?aws_eks_cluster\.[^.}]+)\.(?:name|id)\}$/.exec(s);
    return m ? m[1] : s;
  };
  return target(resolvedReference(stack, name)) === target(resolvedReference(stack, cluster.clusterName));
}

/**
 * Whether two installs target the same cluster: the same cluster resource, or the same literal name
 * unless their AWS providers are known to point at different regions or accounts (the same name in
 * two regions is two clusters).
 */
export function sameInstallTarget(a: IKarpenterCluster, b: IKarpenterCluster): boolean {
  if (a.resource === b.resource) return true;
  if (a.clusterNameLiteral === undefined || a.clusterNameLiteral !== b.clusterNameLiteral) return false;
  const [pa, pb] = [awsLocation(a.resource), awsLocation(b.resource)];
  const differ = (x: string | undefined, y: string | undefined) => x !== undefined && y !== undefined && x !== y;
  return !(differ(pa.region, pb.region) || differ(pa.account, pb.account));
}

/**
 * The literal region and account of the AWS provider a resource or data source uses (its own
 * `provider`, else the stack's default AwsProvider). The account is known from `allowedAccountIds`
 * with exactly one entry, or else from the ARN of the role the provider assumes; undefined when
 * neither is a literal.
 */
export function awsLocation(resource: IConstruct & { readonly provider?: TerraformProvider }): { region?: string; account?: string } {
  const stack = TerraformStack.of(resource);
  const provider = (resource.provider ?? stackIndex(stack).providers.get("aws")?.find((c) => c.alias === undefined)) as AwsProvider | undefined;
  if (!(provider instanceof AwsProvider)) return {};
  const literal = (v: string | undefined) => (typeof v === "string" && !isUnresolved(v) ? v : undefined);
  const allowed = provider.allowedAccountIds;
  const pinned = Array.isArray(allowed) && allowed.length === 1 ? literal(allowed[0]) : undefined;
  const assumed = provider.assumeRole;
  const roleArn = literal(Array.isArray(assumed) ? assumed[0]?.roleArn : undefined);
  return { region: literal(provider.region), account: pinned ?? (roleArn ? /^arn:[^:]+:iam::(\d{12}):/.exec(roleArn)?.[1] : undefined) };
}

/** Every `aws_eks_addon` of the app (each stack indexed once). */
export function appAddons(scope: IConstruct): EksAddon[] {
  return stacksOf(scope).flatMap((s) => (stackIndex(s).byType.get("aws_eks_addon") ?? []) as EksAddon[]);
}
