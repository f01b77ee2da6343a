import { Construct } from "constructs";
import { ITerraformDependable, Token } from "cdktf";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicyAttachment } from "@cdktf/provider-aws/lib/iam-role-policy-attachment";
import { EksNodeGroup, EksNodeGroupTaint } from "@cdktf/provider-aws/lib/eks-node-group";
import { IKarpenterCluster } from "./karpenter-cluster";
import { KarpenterValidationError } from "./errors";
import { awsContext } from "./private/aws-context";
import { AWS_NAME_LIMITS, checkName } from "./private/names";
import { isUnresolved } from "./private/tokens";

/** The label every system node carries; the Karpenter controller's node selector matches it. */
export const SYSTEM_NODE_LABEL = { key: "node-role", value: "system" } as const;

/**
 * AWS-managed policies of a managed node group's role (EKS user guide, "Amazon EKS node IAM role"):
 * worker node, VPC CNI, and ECR pull-only (the least-privilege replacement of ECR ReadOnly).
 */
const SYSTEM_NODE_POLICIES = ["AmazonEKSWorkerNodePolicy", "AmazonEKS_CNI_Policy", "AmazonEC2ContainerRegistryPullOnly"];

/** AMI types accepted by `aws_eks_node_group` (hashicorp/aws 6.25 validator). */
const AMI_TYPES = [
  "AL2_x86_64", "AL2_x86_64_GPU", "AL2_ARM_64", "CUSTOM", "BOTTLEROCKET_ARM_64", "BOTTLEROCKET_x86_64",
  "BOTTLEROCKET_ARM_64_FIPS", "BOTTLEROCKET_x86_64_FIPS", "BOTTLEROCKET_ARM_64_NVIDIA", "BOTTLEROCKET_x86_64_NVIDIA",
  "WINDOWS_CORE_2019_x86_64", "WINDOWS_FULL_2019_x86_64", "WINDOWS_CORE_2022_x86_64", "WINDOWS_FULL_2022_x86_64",
  "AL2023_x86_64_STANDARD", "AL2023_ARM_64_STANDARD", "AL2023_x86_64_NEURON", "AL2023_x86_64_NVIDIA", "AL2023_ARM_64_NVIDIA",
];

/** A Kubernetes taint on every system node. */
export interface SystemNodeTaint {
  /** Taint key, e.g. `CriticalAddonsOnly`. */
  readonly key: string;
  /** Taint value. @default no value */
  readonly value?: string;
  /** `NO_SCHEDULE`, `NO_EXECUTE` or `PREFER_NO_SCHEDULE` (the EKS API spelling). */
  readonly effect: "NO_SCHEDULE" | "NO_EXECUTE" | "PREFER_NO_SCHEDULE";
}

/** Props of {@link SystemNodeGroup}. */
export interface SystemNodeGroupProps {
  /** The cluster the node group joins. */
  readonly cluster: IKarpenterCluster;
  /** Subnets of the node group: use the private subnets. At least one. */
  readonly subnetIds: string[];
  /**
   * Number of nodes: min = desired = max. The Karpenter chart's anti-affinity puts each controller
   * replica on its own node, so this must be at least the controller's replicas (default 2).
   * @default 2
   */
  readonly size?: number;
  /**
   * Instance types, e.g. `["t3.medium"]`. The controller requests 500m CPU / 512Mi per replica; a
   * t3.medium (2 vCPU, 4 GiB) also fits CoreDNS and the node agents.
   * @default ["t3.medium"]
   */
  readonly instanceTypes?: string[];
  /**
   * The EKS AMI type.
   * @default "AL2023_x86_64_STANDARD"
   */
  readonly amiType?: string;
  /**
   * Root volume size in GiB.
   * @default the AMI's default (20 GiB)
   */
  readonly diskSize?: number;
  /** Extra Kubernetes labels; `node-role=system` is always set. @default {} */
  readonly labels?: Record<string, string>;
  /** Taints on the system nodes. Tolerations for them must be given to the Karpenter release. @default none */
  readonly taints?: SystemNodeTaint[];
  /**
   * The node group name (≤ 63 characters).
   * @default "<cluster name>-system" when that fits, else "karpenter-system"
   */
  readonly nodeGroupName?: string;
  /**
   * The IAM role name (≤ 64 characters).
   * @default "<cluster name>-system-node" when that fits, else "KarpenterSystemNode"
   */
  readonly roleName?: string;
  /** Tags on the role and the node group. @default {} */
  readonly tags?: Record<string, string>;
  /**
   * What must exist before nodes start, besides the role's policies: typically the `vpc-cni`,
   * `kube-proxy` and `eks-pod-identity-agent` add-ons, without which nodes never become Ready.
   * @default []
   */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * A fixed-size EKS managed node group (default 2 × t3.medium, AL2023) for the Karpenter controller
 * and other cluster-critical pods, with its own IAM role. The controller must never run on nodes
 * it manages: if it consolidated its own node away, nothing would be left to launch a new one.
 *
 * EKS creates the access entry of a managed node group's role itself.
 */
export class SystemNodeGroup extends Construct {
  /** The node IAM role. */
  public readonly role: IamRole;
  /** The `aws_eks_node_group`. */
  public readonly nodeGroup: EksNodeGroup;
  /** Nodes the group guarantees (min = desired = max). */
  public readonly size: number;
  /** Labels on every node, including `node-role=system`: the controller's node selector. */
  public readonly labels: Record<string, string>;
  /** Taints on every node (the controller needs tolerations for them). */
  public readonly taints: SystemNodeTaint[];

  constructor(scope: Construct, id: string, props: SystemNodeGroupProps) {
    super(scope, id);
    this.size = props.size ?? 2;
    if (!Number.isInteger(this.size) || this.size < 1 || this.size > 100) {
      throw new KarpenterValidationError(this, "size", props.size, "an integer from 1 to 100 (min = desired = max)");
    }
    const instanceTypes = props.instanceTypes ?? ["t3.medium"];
    if (!isUnresolved(instanceTypes) && instanceTypes.length === 0) {
      throw new KarpenterValidationError(this, "instanceTypes", instanceTypes, "at least one EC2 instance type, e.g. [\"t3.medium\"]");
    }
    const amiType = props.amiType ?? "AL2023_x86_64_STANDARD";
    if (!isUnresolved(amiType) && !AMI_TYPES.includes(amiType)) {
      throw new KarpenterValidationError(this, "amiType", amiType, `one of ${AMI_TYPES.join(", ")}`);
    }
    if (!isUnresolved(props.subnetIds) && (!Array.isArray(props.subnetIds) || props.subnetIds.length === 0)) {
      throw new KarpenterValidationError(this, "subnetIds", props.subnetIds, "at least one subnet ID (use private subnets)");
    }
    if (props.diskSize !== undefined && !Token.isUnresolved(props.diskSize) && (!Number.isInteger(props.diskSize) || props.diskSize < 1)) {
      throw new KarpenterValidationError(this, "diskSize", props.diskSize, "a whole number of GiB, at least 1");
    }
    this.labels = { ...(props.labels ?? {}), [SYSTEM_NODE_LABEL.key]: SYSTEM_NODE_LABEL.value };
    this.taints = props.taints ?? [];

    const literal = props.cluster.clusterNameLiteral;
    const roleName = props.roleName ?? fitOr(literal, `${props.cluster.clusterName}-system-node`, "-system-node", AWS_NAME_LIMITS.iamRole, "KarpenterSystemNode");
    checkName(this, "roleName", roleName, AWS_NAME_LIMITS.iamRole, /^[\w+=,.@-]+$/, "letters, digits and +=,.@_- only");
    const nodeGroupName = props.nodeGroupName ?? fitOr(literal, `${props.cluster.clusterName}-system`, "-system", AWS_NAME_LIMITS.eksNodeGroup, "karpenter-system");
    checkName(this, "nodeGroupName", nodeGroupName, AWS_NAME_LIMITS.eksNodeGroup, /^[0-9A-Za-z][A-Za-z0-9\-_]*$/, "letters, digits, '-' and '_', starting with a letter or digit");

    const aws = awsContext(this);
    this.role = new IamRole(this, "role", {
      name: roleName,
      assumeRolePolicy: JSON.stringify({
        Version: "2012-10-17",
        Statement: [{ Effect: "Allow", Principal: { Service: `ec2.${aws.dnsSuffix}` }, Action: "sts:AssumeRole" }],
      }),
      tags: props.tags,
    });
    const attachments = SYSTEM_NODE_POLICIES.map(
      (policy) => new IamRolePolicyAttachment(this, policy, { role: this.role.name, policyArn: `arn:${aws.partition}:iam::aws:policy/${policy}` }),
    );
    this.nodeGroup = new EksNodeGroup(this, "node-group", {
      clusterName: props.cluster.clusterName,
      nodeGroupName,
      nodeRoleArn: this.role.arn,
      subnetIds: props.subnetIds,
      amiType,
      capacityType: "ON_DEMAND",
      instanceTypes,
      diskSize: props.diskSize,
      scalingConfig: { minSize: this.size, desiredSize: this.size, maxSize: this.size },
      updateConfig: { maxUnavailable: 1 },
      labels: this.labels,
      taint: this.taints.length ? this.taints.map((t): EksNodeGroupTaint => ({ key: t.key, value: t.value, effect: t.effect })) : undefined,
      tags: props.tags,
      // nodes must not start before the role can pull images and set up pod networking
      dependsOn: [...attachments, ...(props.dependsOn ?? [])],
    });
  }
}

/** The derived name when the literal cluster name lets it fit (or the name is a token), else the fallback. */
function fitOr(literal: string | undefined, derived: string, suffix: string, max: number, fallback: string): string {
  if (literal !== undefined && literal.length + suffix.length > max) return fallback;
  return derived;
}
