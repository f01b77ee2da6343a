import { Construct, IConstruct } from "constructs";
import { TerraformProvider, TerraformStack } from "cdktf";
import { DataAwsPartition } from "@cdktf/provider-aws/lib/data-aws-partition";
import { DataAwsRegion } from "@cdktf/provider-aws/lib/data-aws-region";
import { DataAwsCallerIdentity } from "@cdktf/provider-aws/lib/data-aws-caller-identity";
import type { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { stackIndex } from "../core/app-index";
import { isUnresolved } from "../core/tokens";
import { KarpenterValidationError } from "../core/errors";
import { addSynthCheck } from "../core/synth-checks";

/**
 * The shape of an AWS region name: an area (`us`, `eusc`), optionally a partition or country part
 * (`gov`, `iso`, `isob`, `isoe`, `de`), a direction and a number. A shape rather than a list: regions
 * are added every year, and a list in a released library would refuse the newest ones.
 */
export const REGION_NAME = {
  pattern:
    /^[a-z]{2,4}(?:-(?:gov|iso[a-z]?|[a-z]{2}))?-(?:north|south|east|west|central|northeast|northwest|southeast|southwest)-[1-9]\d?$/,
  text: "an AWS region name such as us-east-1, ap-southeast-5, us-gov-west-1, cn-north-1 or eu-isoe-west-1",
} as const;

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
    // at synth: the stack's default provider may be added after the first construct that needs it
    addSynthCheck(this, () => regionProblems(this, provider));
  }
}

/**
 * The literal region and account of the AWS provider a resource or data source uses (its own
 * `provider`, else the stack's default AwsProvider). The account is known from `allowedAccountIds`
 * with exactly one entry, or else from the ARN of the role the provider assumes; undefined when
 * neither is a literal.
 */
export function awsLocation(resource: IConstruct & { readonly provider?: TerraformProvider }): {
  region?: string;
  account?: string;
} {
  const stack = TerraformStack.of(resource);
  const provider = (resource.provider ??
    stackIndex(stack)
      .providers.get("aws")
      ?.find((c) => c.alias === undefined)) as AwsProvider | undefined;
  // by provider type: importing the class only for this check would load it on every synth
  if (!TerraformProvider.isTerraformProvider(provider) || provider.terraformResourceType !== "aws") return {};
  const literal = (v: string | undefined) => (typeof v === "string" && !isUnresolved(v) ? v : undefined);
  const allowed = provider.allowedAccountIds;
  const pinned = Array.isArray(allowed) && allowed.length === 1 ? literal(allowed[0]) : undefined;
  const assumed = provider.assumeRole;
  const roleArn = literal(Array.isArray(assumed) ? assumed[0]?.roleArn : undefined);
  return {
    region: literal(provider.region),
    account: pinned ?? (roleArn ? /^arn:[^:]+:iam::(\d{12}):/.exec(roleArn)?.[1] : undefined),
  };
}

/**
 * The provider's literal region, when it is not of an AWS region's shape. A reference is left to
 * Terraform, and so is a provider with `skipRegionValidation` (a region its owner vouches for).
 */
function regionProblems(scope: IConstruct, given: TerraformProvider | undefined): KarpenterValidationError[] {
  const provider = (given ??
    stackIndex(TerraformStack.of(scope))
      .providers.get("aws")
      ?.find((c) => c.alias === undefined)) as AwsProvider | undefined;
  const region: unknown = provider?.region;
  if (provider === undefined || region === undefined || isUnresolved(region) || provider.skipRegionValidation === true)
    return [];
  if (typeof region === "string" && REGION_NAME.pattern.test(region)) return [];
  return [
    new KarpenterValidationError(
      "AWS_REGION",
      provider,
      "region",
      region,
      `${REGION_NAME.text}: the Karpenter constructs build their ARNs and data sources in it, and the AWS provider refuses a region it does not know at plan (set skipRegionValidation: true on the provider to vouch for a new one)`,
    ),
  ];
}
