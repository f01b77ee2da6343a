import { Construct } from "constructs";
import { Subnet } from "@cdktf/provider-aws/lib/subnet";
import { Ec2Tag } from "@cdktf/provider-aws/lib/ec2-tag";
import { IKarpenterCluster } from "./karpenter-cluster";
import { KarpenterValidationError } from "./errors";
import { isListToken, requireCluster, TAG_LIMITS } from "./private/input-checks";
import { isUnresolved } from "./private/tokens";

/** The tag key EC2NodeClass selector terms look for (Karpenter getting-started guide, v1.x). */
export const DISCOVERY_TAG_KEY = "karpenter.sh/discovery";

/** Props of {@link DiscoveryTags}. */
export interface DiscoveryTagsProps {
  /** The cluster; the tag value defaults to its name. */
  readonly cluster: IKarpenterCluster;
  /**
   * The PRIVATE subnets Karpenter may launch nodes into: subnet IDs, or `Subnet` resources of this app.
   * Never pass public subnets: nodes would get public IPs. A `Subnet` with
   * `mapPublicIpOnLaunch: true` or the `kubernetes.io/role/elb` tag is rejected.
   * Each element may be a token (a reference); the list itself must be a literal array so that each
   * subnet gets its own `aws_ec2_tag`: a list token such as `eks.vpcConfig.subnetIds` (or one spread
   * into the array) is rejected — pass the subnets one by one, or tag them with {@link DiscoveryTags.subnetTags}.
   *
   * Only for subnets whose tags this app does not manage: an `aws_ec2_tag` on a subnet that also has
   * `tags` in Terraform is removed again by the subnet's next apply. Tag subnets you create with
   * {@link DiscoveryTags.subnetTags} instead.
   * @default [] (only the security group is tagged)
   * @throws KarpenterValidationError for a list token or a public subnet
   */
  readonly subnets?: ReadonlyArray<string | Subnet>;
  /**
   * The ONE security group Karpenter nodes get: by default the EKS-created cluster security group.
   * Exactly one group carries the tag because every group the selector finds is attached to the
   * nodes, and the EKS-created group already carries `kubernetes.io/cluster/<cluster name>`: a second
   * group with that cluster tag (node security groups made by other tools often have it) makes the
   * AWS Load Balancer Controller fail with "expect exactly one securityGroup tagged with
   * kubernetes.io/cluster/<name>" (kubernetes-sigs/aws-load-balancer-controller, issues #1897, #2948).
   * @default cluster.clusterSecurityGroupId
   */
  readonly securityGroupId?: string;
  /**
   * The tag value (at most 256 characters).
   * @default cluster.clusterName
   */
  readonly tagValue?: string;
}

/**
 * Tags existing subnets and exactly one security group with `karpenter.sh/discovery=<cluster>`
 * (one `aws_ec2_tag` each), so the default EC2NodeClass selector terms find them.
 *
 * For subnets this app creates, put {@link DiscoveryTags.subnetTags} into the subnet's own `tags`
 * instead: Terraform's `tags` argument owns every tag of the resource and would remove an
 * `aws_ec2_tag` added beside it.
 *
 * @throws KarpenterValidationError for a missing `cluster`, subnets that are not a literal array
 * (a list token), a public subnet of the app, or a tag value longer than 256 characters
 */
export class DiscoveryTags extends Construct {
  /**
   * The tag map to merge into the `tags` of private subnets you create yourself.
   * @param cluster the cluster (its name is the tag value), or the cluster name
   * @returns `{ "karpenter.sh/discovery": <cluster name> }`
   */
  public static subnetTags(cluster: IKarpenterCluster | string): Record<string, string> {
    return { [DISCOVERY_TAG_KEY]: typeof cluster === "string" ? cluster : cluster.clusterName };
  }

  /** The tag value written. */
  public readonly tagValue: string;
  /** One `aws_ec2_tag` per subnet, in the order given. */
  public readonly subnetTags: Ec2Tag[];
  /** The `aws_ec2_tag` on the security group. */
  public readonly securityGroupTag: Ec2Tag;

  constructor(scope: Construct, id: string, props: DiscoveryTagsProps) {
    super(scope, id);
    const cluster = requireCluster(this, props);
    const subnets = props.subnets ?? [];
    // checked before cdktf sees it: a list token as a tag's resource_id is a raw "encoded list token in a scalar string context" error
    if (isListToken(subnets)) {
      throw new KarpenterValidationError(this, "subnets", "(a list token, known only at apply)", SUBNETS_TEXT);
    }
    if (!Array.isArray(subnets)) throw new KarpenterValidationError(this, "subnets", subnets, SUBNETS_TEXT);
    subnets.forEach((s, i) => {
      if (s instanceof Subnet && isPublic(s)) {
        throw new KarpenterValidationError(this, `subnets[${i}]`, s.node.path, "a private subnet: this one maps public IPs on launch or carries kubernetes.io/role/elb; Karpenter nodes must not launch into public subnets");
      }
    });
    this.tagValue = props.tagValue ?? cluster.clusterName;
    if (!isUnresolved(this.tagValue) && (typeof this.tagValue !== "string" || [...this.tagValue].length > TAG_LIMITS.valueLength)) {
      throw new KarpenterValidationError(this, "tagValue", this.tagValue, `a tag value of at most ${TAG_LIMITS.valueLength} characters`);
    }
    this.subnetTags = subnets.map(
      (s, i) => new Ec2Tag(this, `subnet-${i}`, { resourceId: s instanceof Subnet ? s.id : s, key: DISCOVERY_TAG_KEY, value: this.tagValue }),
    );
    this.securityGroupTag = new Ec2Tag(this, "security-group", {
      resourceId: props.securityGroupId ?? cluster.clusterSecurityGroupId,
      key: DISCOVERY_TAG_KEY,
      value: this.tagValue,
    });
  }
}

const SUBNETS_TEXT =
  "an array of subnet IDs known at synth (each may be a reference): a list token cannot be split into one aws_ec2_tag per subnet; " +
  "pass the subnets one by one or tag them in their own `tags` with DiscoveryTags.subnetTags()";

function isPublic(subnet: Subnet): boolean {
  const tags = subnet.tagsInput ?? {};
  return subnet.mapPublicIpOnLaunchInput === true || (!isUnresolved(tags) && "kubernetes.io/role/elb" in tags);
}
