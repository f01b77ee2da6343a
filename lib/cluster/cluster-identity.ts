import { IConstruct } from "constructs";
import { TerraformProvider, TerraformStack } from "cdktf";
import type { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { IKarpenterCluster } from "./karpenter-cluster";
import { stackIndex } from "../core/app-index";
import { isUnresolved } from "../core/tokens";

/*
 * Whether two installs name the same EKS cluster (one install per cluster), and where an AWS
 * resource is: clusters are compared by resource, or by literal name within one AWS region and account.
 */

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
  // by provider type: importing the class only for this check would load it on every synth
  if (!(provider instanceof TerraformProvider) || provider.terraformResourceType !== "aws") return {};
  const literal = (v: string | undefined) => (typeof v === "string" && !isUnresolved(v) ? v : undefined);
  const allowed = provider.allowedAccountIds;
  const pinned = Array.isArray(allowed) && allowed.length === 1 ? literal(allowed[0]) : undefined;
  const assumed = provider.assumeRole;
  const roleArn = literal(Array.isArray(assumed) ? assumed[0]?.roleArn : undefined);
  return { region: literal(provider.region), account: pinned ?? (roleArn ? /^arn:[^:]+:iam::(\d{12}):/.exec(roleArn)?.[1] : undefined) };
}

