import { Construct } from "constructs";
import { Fn, ITerraformDependable, Token } from "cdktf";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import type { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { EksNodeGroup, EksNodeGroupTaint } from "@cdktf/provider-aws/lib/eks-node-group";
import { IKarpenterCluster } from "./karpenter-cluster";
import { KarpenterValidationError } from "../core/errors";
import { awsContext } from "../aws-api/aws-context";
import { useProvider } from "../core/provider-choice";
import { checkOptionKeys, checkTags, isListToken } from "../aws-api/input-checks";
import { TAG_APIS } from "../aws-api/tag-rules";
import { Problems } from "../core/problems";
import { SYSTEM_NODE_GROUP_PROPS, SYSTEM_NODE_TAINT } from "../core/prop-keys";
import { attachPolicies, awsManagedPolicyArn, trustPolicyJson } from "../aws-api/iam";
import { isLabelValue, labelKeyProblem } from "../kubernetes/names";
import { recordAccountNames } from "../aws-api/account-names";
import { literalNameFromCluster, nameFromCluster } from "../aws-api/resource-names";
import { isUnresolved } from "../core/tokens";
import { isPlainMap } from "../core/deep-merge";
import { awsProviderFor } from "./aws-provider";
import { requireCluster } from "./require-cluster";

/** The label every system node carries; the Karpenter controller's node selector matches it. */
export const SYSTEM_NODE_LABEL = { key: "node-role", value: "system" } as const;

/**
 * AWS-managed policies of a managed node group's role (EKS user guide, "Amazon EKS node IAM role"):
 * worker node, VPC CNI, and ECR pull-only (the least-privilege replacement of ECR ReadOnly).
 */
const SYSTEM_NODE_POLICIES = [
  "AmazonEKSWorkerNodePolicy",
  "AmazonEKS_CNI_Policy",
  "AmazonEC2ContainerRegistryPullOnly",
];

/** AMI types accepted by `aws_eks_node_group` (hashicorp/aws 6.25 validator). */
const AMI_TYPES = [
  "AL2_x86_64",
  "AL2_x86_64_GPU",
  "AL2_ARM_64",
  "CUSTOM",
  "BOTTLEROCKET_ARM_64",
  "BOTTLEROCKET_x86_64",
  "BOTTLEROCKET_ARM_64_FIPS",
  "BOTTLEROCKET_x86_64_FIPS",
  "BOTTLEROCKET_ARM_64_NVIDIA",
  "BOTTLEROCKET_x86_64_NVIDIA",
  "WINDOWS_CORE_2019_x86_64",
  "WINDOWS_FULL_2019_x86_64",
  "WINDOWS_CORE_2022_x86_64",
  "WINDOWS_FULL_2022_x86_64",
  "AL2023_x86_64_STANDARD",
  "AL2023_ARM_64_STANDARD",
  "AL2023_x86_64_NEURON",
  "AL2023_x86_64_NVIDIA",
  "AL2023_ARM_64_NVIDIA",
];

/** A Kubernetes taint on every system node. */
export interface SystemNodeTaint {
  /**
   * Taint key, e.g. `CriticalAddonsOnly`: a Kubernetes qualified name (optional DNS-subdomain
   * prefix and `/`, then 1–63 letters, digits, `-`, `_`, `.`, starting and ending with a letter or
   * digit), at most 63 characters in all (hashicorp/aws `taint.key`).
   */
  readonly key: string;
  /** Taint value: at most 63 letters, digits, `-`, `_`, `.`, starting and ending with a letter or digit. @default no value */
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
   * t3.medium (2 vCPU, 4 GiB) also fits CoreDNS and the node agents. Each literal must be an EC2
   * instance type name, `<family>.<size>` in lower case (e.g. `"m7i-flex.large"`); a list token
   * (a `list(string)` variable, `Fn.split(…)`) is left to Terraform.
   * @default ["t3.medium"]
   * @throws KarpenterValidationError for an empty list or a literal that is not an instance type name
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
  /**
   * Extra Kubernetes labels; `node-role=system` is always set. Keys are Kubernetes qualified names
   * (optional DNS-subdomain prefix and `/`, then a name of 1–63 letters, digits, `-`, `_`, `.`,
   * starting and ending with a letter or digit) of at most 63 characters in all; values have 1–63
   * characters of the same set (EKS API `labels`: keys and values 1–63 characters).
   * @default {}
   */
  readonly labels?: Record<string, string>;
  /**
   * Taints on the system nodes (at most 50), e.g. `CriticalAddonsOnly=true:NoSchedule` to keep
   * workloads off them. `Karpenter` with `systemNodeGroup` adds a toleration per taint to its
   * controller; pods of your own that must run here need their own tolerations (the EKS add-ons
   * CoreDNS and the node agents tolerate `CriticalAddonsOnly`).
   * @default none
   */
  readonly taints?: SystemNodeTaint[];
  /**
   * The node group name (1–63 characters: letters, digits, `-`, `_`, starting with a letter or digit).
   * @default "<cluster name>-system"; set it when the cluster name is longer than 56 characters
   */
  readonly nodeGroupName?: string;
  /**
   * The IAM role name (1–64 characters: letters, digits and `+=,.@_-`). IAM names are account-wide:
   * set it when a cluster of the same name has a system node group in another region of the account.
   * @default "<cluster name>-system-node"; set it when the cluster name is longer than 52 characters
   */
  readonly roleName?: string;
  /**
   * Tags on the role and the node group: at most 50, keys of 1–128 characters not starting with
   * `aws:`, values of at most 256 characters (AWS tag rules).
   * @default {}
   */
  readonly tags?: Record<string, string>;
  /**
   * The AWS provider of the cluster's region and account, for every resource and data source of
   * this construct.
   * @default the cluster's (the `provider` of its `EksCluster` or `DataAwsEksCluster`, the stack's default when it
   * names none) when the cluster is in this stack; else the stack's default AWS provider, which must
   * then be its only one (synth fails naming this prop otherwise)
   */
  readonly provider?: AwsProvider;
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
 * No access entry is created for the group's role: EKS creates it for a managed node group (EKS
 * user guide, "Create access entries": an access entry for a managed node group's role is unnecessary).
 *
 * @throws KarpenterValidationError (every problem of the props in one error) for a prop outside the props interface (with a "did you mean" when one is close), a missing `cluster`, a bad size, instance types, AMI type,
 * subnets or disk size, literal names that break the AWS rules (including a default derived from a
 * long cluster name), labels or taints that are not valid Kubernetes keys and values, or tags that
 * break the AWS tag rules; at synth, when another construct of the app creates the same IAM role name
 * in the same (or an unknown) AWS account — IAM names are account-wide, so the same cluster name in
 * two regions needs `roleName` on one of them
 */
export class SystemNodeGroup extends Construct {
  /** The key of the label every system node carries (`node-role`); {@link SYSTEM_NODE_LABEL} in TypeScript. */
  public static readonly NODE_LABEL_KEY: string = SYSTEM_NODE_LABEL.key;
  /** The value of that label (`system`); the Karpenter controller's node selector matches it. */
  public static readonly NODE_LABEL_VALUE: string = SYSTEM_NODE_LABEL.value;
  /**
   * The nodes' IAM role, trusted by `ec2.<partition DNS suffix>`, with the worker node, VPC CNI and
   * ECR pull-only policies; its name is `roleName` or `<cluster name>-system-node`.
   */
  public readonly role: IamRole;
  /** The `aws_eks_node_group`. */
  public readonly nodeGroup: EksNodeGroup;
  /** Nodes the group guarantees (min = desired = max). */
  public readonly size: number;
  /**
   * Labels on every node, including `node-role=system`: the controller's node selector. When
   * `labels` is a map token, only `node-role=system` (Terraform merges the rest into the node group).
   */
  public readonly labels: Record<string, string>;
  /** Taints on every node (`Karpenter` with `systemNodeGroup` gives its controller tolerations for them). */
  public readonly taints: SystemNodeTaint[];

  constructor(scope: Construct, id: string, props: SystemNodeGroupProps) {
    super(scope, id);
    // every problem of the props at once, before the first resource: nothing half-built on error
    const problems = new Problems();
    problems.check(() => checkOptionKeys(this, "", props, SYSTEM_NODE_GROUP_PROPS));
    const cluster = problems.check(() => requireCluster(this, props));
    this.size = props?.size ?? 2;
    if (!Token.isUnresolved(this.size) && (!Number.isInteger(this.size) || this.size < 1 || this.size > 100)) {
      problems.add(
        new KarpenterValidationError(
          "SYSTEM_NODE_GROUP_SIZE",
          this,
          "size",
          props.size,
          "a whole number from 1 to 100 (min = desired = max)",
        ),
      );
    }
    const instanceTypes = props?.instanceTypes ?? ["t3.medium"];
    problems.check(() => checkInstanceTypes(this, instanceTypes));
    const amiType = props?.amiType ?? "AL2023_x86_64_STANDARD";
    if (!isUnresolved(amiType) && !AMI_TYPES.includes(amiType)) {
      problems.add(
        new KarpenterValidationError(
          "SYSTEM_NODE_GROUP_AMI_TYPE",
          this,
          "amiType",
          amiType,
          `one of ${AMI_TYPES.join(", ")}`,
        ),
      );
    }
    if (typeof props?.subnetIds === "string" && !isUnresolved(props.subnetIds)) {
      problems.add(
        new KarpenterValidationError(
          "SYSTEM_NODE_GROUP_SUBNETS",
          this,
          "subnetIds",
          props.subnetIds,
          `a list of subnet IDs, got a string: pass an array (["subnet-0123abcd", "subnet-4567cdef"], not "subnet-0123abcd,subnet-4567cdef"), or Fn.split(",", <string>) for a string known only at apply`,
        ),
      );
    } else if (!isUnresolved(props?.subnetIds) && (!Array.isArray(props?.subnetIds) || props.subnetIds.length === 0)) {
      problems.add(
        new KarpenterValidationError(
          "SYSTEM_NODE_GROUP_SUBNETS",
          this,
          "subnetIds",
          props?.subnetIds,
          "at least one subnet ID (use private subnets)",
        ),
      );
    }
    if (
      props?.diskSize !== undefined &&
      !Token.isUnresolved(props.diskSize) &&
      (!Number.isInteger(props.diskSize) || props.diskSize < 1)
    ) {
      problems.add(
        new KarpenterValidationError(
          "SYSTEM_NODE_GROUP_DISK_SIZE",
          this,
          "diskSize",
          props.diskSize,
          "a whole number of GiB, at least 1",
        ),
      );
    }
    problems.check(() => checkLabels(this, props?.labels));
    const givenRole =
      props?.labels && !Token.isUnresolved(props.labels) && isPlainMap(props.labels)
        ? props.labels[SYSTEM_NODE_LABEL.key]
        : undefined;
    if (givenRole !== undefined && givenRole !== SYSTEM_NODE_LABEL.value) {
      // the controller's node selector is node-role=system: another value would leave it without nodes
      problems.add(
        new KarpenterValidationError(
          "SYSTEM_NODE_GROUP_ROLE_LABEL",
          this,
          `labels["${SYSTEM_NODE_LABEL.key}"]`,
          givenRole,
          `"${SYSTEM_NODE_LABEL.value}" or unset: the Karpenter controller selects the system nodes by ${SYSTEM_NODE_LABEL.key}=${SYSTEM_NODE_LABEL.value}`,
        ),
      );
    }
    problems.check(() => checkTaints(this, props?.taints));
    problems.check(() =>
      checkTags(this, props?.tags, [
        { api: TAG_APIS.IAM, resource: "the node group role" },
        { api: TAG_APIS.EKS, resource: "the node group" },
      ]),
    );
    // per-cluster names, like the other constructs: a shared fallback would collide between clusters of one account
    const roleName =
      cluster &&
      problems.check(() => nameFromCluster(this, "iamRole", "roleName", props.roleName, cluster, "", "-system-node"));
    const nodeGroupName =
      cluster &&
      problems.check(() =>
        nameFromCluster(this, "eksNodeGroup", "nodeGroupName", props.nodeGroupName, cluster, "", "-system"),
      );
    problems.throwIfAny(this, { remove: true });
    if (!cluster || roleName === undefined || nodeGroupName === undefined)
      throw new Error("unreachable: a failed check is thrown above");
    const systemLabel = { [SYSTEM_NODE_LABEL.key]: SYSTEM_NODE_LABEL.value };
    const labelsToken = Token.isUnresolved(props.labels);
    this.labels = labelsToken ? systemLabel : { ...(props.labels ?? {}), ...systemLabel };
    this.taints = props.taints ?? [];

    const provider = awsProviderFor(scope, this, cluster, props.provider);
    const aws = awsContext(this, provider);
    this.role = new IamRole(this, "role", {
      name: roleName,
      assumeRolePolicy: trustPolicyJson({ Service: `ec2.${aws.dnsSuffix}` }, "sts:AssumeRole"),
      tags: props.tags,
    });
    recordAccountNames(this, [
      {
        kind: "IAM role",
        literal: literalNameFromCluster(props.roleName, cluster, "", "-system-node"),
        field: "roleName",
        resource: this.role,
      },
    ]);
    // construct ids are the bare policy names (no prefix), as this construct has always named them
    const attachments = attachPolicies(
      this,
      this.role.name,
      SYSTEM_NODE_POLICIES.map((p) => ({ key: p, arn: awsManagedPolicyArn(aws.partition, p) })),
      "",
      "role",
    );
    this.nodeGroup = new EksNodeGroup(this, "node-group", {
      clusterName: cluster.clusterName,
      nodeGroupName,
      nodeRoleArn: this.role.arn,
      subnetIds: props.subnetIds,
      amiType,
      capacityType: "ON_DEMAND",
      instanceTypes,
      diskSize: props.diskSize,
      scalingConfig: { minSize: this.size, desiredSize: this.size, maxSize: this.size },
      updateConfig: { maxUnavailable: 1 },
      // a map token cannot be spread: Terraform merges it, the system label winning as for literal labels
      labels: labelsToken ? Fn.merge([props.labels, systemLabel]) : this.labels,
      taint: this.taints.length
        ? this.taints.map((t): EksNodeGroupTaint => ({ key: t.key, value: t.value, effect: t.effect }))
        : undefined,
      tags: props.tags,
      // nodes must not start before the role can pull images and set up pod networking
      dependsOn: [...attachments, ...(props.dependsOn ?? [])],
    });
    useProvider(this, "aws", provider);
  }
}

/** Longest label key / value, and taint key / value, the EKS API and hashicorp/aws accept. */
const EKS_KEY_MAX = 63;
const TAINT_EFFECTS = ["NO_SCHEDULE", "NO_EXECUTE", "PREFER_NO_SCHEDULE"];
const MAX_TAINTS = 50;

const KEY_TEXT =
  `a Kubernetes qualified name: an optional DNS-subdomain prefix (lower-case, ≤ 253 characters) and '/', then a name of 1 to 63 letters, digits, '-', '_' and '.', ` +
  `starting and ending with a letter or digit; at most ${EKS_KEY_MAX} characters in all (EKS limit)`;
const VALUE_TEXT = `at most ${EKS_KEY_MAX} letters, digits, '-', '_' and '.', starting and ending with a letter or digit`;

/** True when a literal key is not a qualified name within the EKS limit. */
const badKey = (key: string) => labelKeyProblem(key, EKS_KEY_MAX) !== undefined;

/** Node labels: qualified-name keys and non-empty label values (the EKS API rejects empty ones). */
function checkLabels(scope: Construct, labels: Record<string, string> | undefined): void {
  if (labels === undefined || Token.isUnresolved(labels)) return;
  if (labels === null || typeof labels !== "object" || Array.isArray(labels))
    throw new KarpenterValidationError(
      "SYSTEM_NODE_GROUP_LABELS",
      scope,
      "labels",
      labels,
      "a map of Kubernetes label keys to values",
    );
  const problems = new Problems();
  for (const [key, value] of Object.entries(labels)) {
    const field = `labels[${JSON.stringify(key)}]`;
    if (!Token.isUnresolved(key) && badKey(key))
      problems.add(
        new KarpenterValidationError("SYSTEM_NODE_GROUP_LABEL_KEY", scope, field, key, `a label key: ${KEY_TEXT}`),
      );
    else if (!isUnresolved(value) && !isLabelValue(value, false)) {
      problems.add(
        new KarpenterValidationError(
          "SYSTEM_NODE_GROUP_LABEL_VALUE",
          scope,
          field,
          value,
          `a label value of 1 to 63 characters (EKS rejects empty ones): ${VALUE_TEXT}`,
        ),
      );
    }
  }
  problems.throwIfAny(scope);
}

/** Node taints: qualified-name keys, label-syntax values (may be empty), the EKS effect spellings. */
function checkTaints(scope: Construct, taints: SystemNodeTaint[] | undefined): void {
  if (taints === undefined || Token.isUnresolved(taints)) return;
  if (!Array.isArray(taints))
    throw new KarpenterValidationError(
      "SYSTEM_NODE_GROUP_TAINTS",
      scope,
      "taints",
      taints,
      "an array of { key, value?, effect }",
    );
  if (taints.length > MAX_TAINTS)
    throw new KarpenterValidationError(
      "SYSTEM_NODE_GROUP_TAINTS",
      scope,
      "taints",
      `${taints.length} taints`,
      `at most ${MAX_TAINTS} taints (EKS limit)`,
    );
  const problems = new Problems();
  taints.forEach((t, i) => {
    if (t === null || typeof t !== "object" || Array.isArray(t))
      return problems.add(
        new KarpenterValidationError("SYSTEM_NODE_GROUP_TAINTS", scope, `taints[${i}]`, t, "{ key, value?, effect }"),
      );
    problems.check(() => checkOptionKeys(scope, `taints[${i}]`, t, SYSTEM_NODE_TAINT));
    if (!isUnresolved(t.key) && !(typeof t.key === "string" && !badKey(t.key)))
      problems.add(
        new KarpenterValidationError(
          "SYSTEM_NODE_GROUP_TAINT_KEY",
          scope,
          `taints[${i}].key`,
          t.key,
          `a taint key: ${KEY_TEXT}`,
        ),
      );
    if (t.value !== undefined && !isUnresolved(t.value) && !isLabelValue(t.value, true)) {
      problems.add(
        new KarpenterValidationError(
          "SYSTEM_NODE_GROUP_TAINT_VALUE",
          scope,
          `taints[${i}].value`,
          t.value,
          `a taint value: empty or ${VALUE_TEXT}`,
        ),
      );
    }
    if (!isUnresolved(t.effect) && !TAINT_EFFECTS.includes(t.effect)) {
      problems.add(
        new KarpenterValidationError(
          "SYSTEM_NODE_GROUP_TAINT_EFFECT",
          scope,
          `taints[${i}].effect`,
          t.effect,
          `one of ${TAINT_EFFECTS.join(", ")} (the EKS API spelling; not the Kubernetes NoSchedule / NoExecute / PreferNoSchedule)`,
        ),
      );
    }
  });
  problems.throwIfAny(scope);
}

/**
 * An EC2 instance type name: `<family>.<size>`, lower-case letters, digits and '-' on each side
 * (e.g. "t3.medium", "m7i-flex.large", "u-6tb1.metal"; EC2 DescribeInstanceTypes).
 */
const INSTANCE_TYPE = /^[a-z0-9][a-z0-9-]*\.[a-z0-9][a-z0-9-]*$/;

/** A non-empty list of instance type names; a list token (e.g. a list variable, `Fn.split`) or an item token is left to the API. */
function checkInstanceTypes(scope: Construct, instanceTypes: string[]): void {
  // a list token is an array of one encoded element, which no string check recognises
  if (Token.isUnresolved(instanceTypes)) return;
  if (!Array.isArray(instanceTypes) || instanceTypes.length === 0) {
    throw new KarpenterValidationError(
      "SYSTEM_NODE_GROUP_INSTANCE_TYPES",
      scope,
      "instanceTypes",
      instanceTypes,
      'at least one EC2 instance type, e.g. ["t3.medium"]',
    );
  }
  const problems = new Problems();
  instanceTypes.forEach((t, i) => {
    if (isListToken(t)) {
      // a list token spread into a literal array: cdktf fails at synth with a raw token error
      return problems.add(
        new KarpenterValidationError(
          "SYSTEM_NODE_GROUP_INSTANCE_TYPES",
          scope,
          `instanceTypes[${i}]`,
          "(a list token spread into the array)",
          "a single instance type: to add a list known only at apply, pass Fn.concat([[...literal types], list]) or the list itself",
        ),
      );
    }
    if (isUnresolved(t)) return;
    if (typeof t !== "string" || !INSTANCE_TYPE.test(t))
      problems.add(
        new KarpenterValidationError(
          "SYSTEM_NODE_GROUP_INSTANCE_TYPE",
          scope,
          `instanceTypes[${i}]`,
          t,
          'an EC2 instance type name, <family>.<size> in lower case, e.g. "t3.medium" or "m7i-flex.large"',
        ),
      );
  });
  problems.throwIfAny(scope);
}
