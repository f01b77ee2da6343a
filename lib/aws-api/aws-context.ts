import { Construct, IConstruct } from "constructs";
import { TerraformProvider, TerraformStack } from "cdktf";
import { DataAwsPartition } from "@cdktf/provider-aws/lib/data-aws-partition";
import { DataAwsRegion } from "@cdktf/provider-aws/lib/data-aws-region";
import { DataAwsCallerIdentity } from "@cdktf/provider-aws/lib/data-aws-caller-identity";
import type { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { stackIndex } from "../core/app-index";
import { isUnresolved } from "../core/tokens";

/** Partition, DNS suffix, region and account of the stack's AWS provider, as references. */
export interface AwsContext {
  /** `aws`, `aws-cn` or `aws-us-gov`. */
  readonly partition: string;
  /** `amazonaws.com` or `amazonaws.com.cn`: service principals are `<service>.<dnsSuffix>`. */
  readonly dnsSuffix: string;
  /** The provider's region, e.g. `us-east-1`. */
  readonly region: string;
  /** The 12-digit account ID. */
  readonly accountId: string;
}

const ID = "karpenter-aws-context";

/**
 * The partition / region / caller-identity data sources of one AWS provider, created once per
 * provider and stack (through that provider) so that ARNs are right in every partition (aws-cn,
 * aws-us-gov) without hard-coding `aws`, and regions and accounts are those of the provider.
 * @param provider the AWS provider; undefined (or the unaliased one): the stack's default
 */
export function awsContext(scope: IConstruct, provider?: TerraformProvider): AwsContext {
  const stack = TerraformStack.of(scope);
  const id = provider?.alias ? `${ID}-${provider.alias}` : ID;
  const existing = stack.node.tryFindChild(id) as AwsContextConstruct | undefined;
  return existing ?? new AwsContextConstruct(stack, id, provider?.alias ? provider : undefined);
}

class AwsContextConstruct extends Construct implements AwsContext {
  public readonly partition: string;
  public readonly dnsSuffix: string;
  public readonly region: string;
  public readonly accountId: string;

  constructor(scope: IConstruct, id: string, provider: TerraformProvider | undefined) {
    super(scope, id);
    const partition = new DataAwsPartition(this, "partition", { provider });
    const region = new DataAwsRegion(this, "region", { provider });
    const identity = new DataAwsCallerIdentity(this, "caller", { provider });
    this.partition = partition.partition;
    this.dnsSuffix = partition.dnsSuffix;
    this.region = region.region;
    this.accountId = identity.accountId;
  }
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
  if (!TerraformProvider.isTerraformProvider(provider) || provider.terraformResourceType !== "aws") return {};
  const literal = (v: string | undefined) => (typeof v === "string" && !isUnresolved(v) ? v : undefined);
  const allowed = provider.allowedAccountIds;
  const pinned = Array.isArray(allowed) && allowed.length === 1 ? literal(allowed[0]) : undefined;
  const assumed = provider.assumeRole;
  const roleArn = literal(Array.isArray(assumed) ? assumed[0]?.roleArn : undefined);
  return { region: literal(provider.region), account: pinned ?? (roleArn ? /^arn:[^:]+:iam::(\d{12}):/.exec(roleArn)?.[1] : undefined) };
}
