import { Construct, IConstruct } from "constructs";
import { TerraformStack } from "cdktf";
import { DataAwsPartition } from "@cdktf/provider-aws/lib/data-aws-partition";
import { DataAwsRegion } from "@cdktf/provider-aws/lib/data-aws-region";
import { DataAwsCallerIdentity } from "@cdktf/provider-aws/lib/data-aws-caller-identity";

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
 * The stack's shared partition / region / caller-identity data sources, created once per stack
 * so that ARNs are right in every partition (aws-cn, aws-us-gov) without hard-coding `aws`.
 */
export function awsContext(scope: IConstruct): AwsContext {
  const stack = TerraformStack.of(scope);
  const existing = stack.node.tryFindChild(ID) as AwsContextConstruct | undefined;
  return existing ?? new AwsContextConstruct(stack, ID);
}

class AwsContextConstruct extends Construct implements AwsContext {
  public readonly partition: string;
  public readonly dnsSuffix: string;
  public readonly region: string;
  public readonly accountId: string;

  constructor(scope: IConstruct, id: string) {
    super(scope, id);
    const partition = new DataAwsPartition(this, "partition");
    const region = new DataAwsRegion(this, "region");
    const identity = new DataAwsCallerIdentity(this, "caller");
    this.partition = partition.partition;
    this.dnsSuffix = partition.dnsSuffix;
    this.region = region.region;
    this.accountId = identity.accountId;
  }
}
