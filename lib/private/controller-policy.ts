import { IamStatementJson } from "./iam";
import { KarpenterVersion } from "./version";
import { always, between, forVersion, inRange, since, until } from "./versioned";

/*
 * The Karpenter controller's IAM permissions per minor, 1.0 to 1.14: the statements (same Sids,
 * actions, resources and conditions, in upstream order) of the getting-started CloudFormation
 * template of aws/karpenter-provider-aws at each release tag
 * (website/content/en/<v>/getting-started/getting-started-with-karpenter/cloudformation.yaml).
 * Version-dependent parts are written with since / until / between, naming the minor that changed them.
 *
 * Layout: upstream ships one managed policy before 1.9 and five (six from 1.12) from 1.9. The
 * pre-1.9 single policy exceeds the 6,144-character managed-policy limit for long cluster names in
 * aws-us-gov, so every version uses the 1.9+ grouping here; only the statements follow the version.
 */

/** The values the statements are written in terms of (usually Terraform references). */
export interface ControllerPolicySymbols {
  /** `aws`, `aws-cn` or `aws-us-gov`. */
  readonly partition: string;
  /** The region the cluster runs in. */
  readonly region: string;
  /** The 12-digit account ID. */
  readonly account: string;
  /** The EKS cluster name. */
  readonly clusterName: string;
  /** The EKS cluster ARN. */
  readonly clusterArn: string;
  /** The ARN of the role Karpenter nodes get (the controller passes it to EC2). */
  readonly nodeRoleArn: string;
  /** The interruption queue ARN; absent = no interruption handling, so no queue statement. */
  readonly queueArn?: string;
  /** The customer-managed KMS key of the queue, if any: the controller needs `kms:Decrypt` on it to receive. */
  readonly kmsKeyArn?: string;
}

/** The managed policies the statements are grouped into, in upstream order (1.12+ template). */
const CONTROLLER_POLICY_GROUPS = ["NodeLifecycle", "IAMIntegration", "EKSIntegration", "Interruption", "ZonalShift", "ResourceDiscovery"] as const;

/** One managed policy: `NodeLifecycle` → upstream `KarpenterControllerNodeLifecyclePolicy-<cluster>`. */
export type ControllerPolicyGroupKey = (typeof CONTROLLER_POLICY_GROUPS)[number];

/** The statements of one managed policy. */
export interface ControllerPolicyGroup {
  readonly key: ControllerPolicyGroupKey;
  readonly statements: IamStatementJson[];
}

/** Our own Sid for `kms:Decrypt` on a customer-managed queue key (upstream has no KMS option). */
export const QUEUE_KEY_DECRYPT_SID = "AllowInterruptionQueueDecryption";

/**
 * The controller policy of Karpenter version `v`, grouped into managed policies (empty groups are
 * left out: ZonalShift before 1.12, Interruption without a queue).
 */
export function controllerPolicyGroups(v: KarpenterVersion, s: ControllerPolicySymbols): ControllerPolicyGroup[] {
  const statements: Record<ControllerPolicyGroupKey, IamStatementJson[]> = {
    NodeLifecycle: nodeLifecycle(v, s),
    IAMIntegration: iamIntegration(v, s),
    EKSIntegration: [{ Sid: "AllowAPIServerEndpointDiscovery", Effect: "Allow", Resource: s.clusterArn, Action: "eks:DescribeCluster" }],
    Interruption: interruption(s),
    ZonalShift: zonalShift(v, s),
    ResourceDiscovery: resourceDiscovery(v, s),
  };
  return CONTROLLER_POLICY_GROUPS.map((key) => ({ key, statements: statements[key] })).filter((g) => g.statements.length > 0);
}

const ec2Arn = (s: ControllerPolicySymbols, type: string, account = "*") => `arn:${s.partition}:ec2:${s.region}:${account}:${type}/*`;
const instanceProfileArn = (s: ControllerPolicySymbols) => `arn:${s.partition}:iam::${s.account}:instance-profile/*`;
const NODEPOOL_TAG = "karpenter.sh/nodepool";
const NODECLASS_TAG = "karpenter.k8s.aws/ec2nodeclass";
const REGION_TAG = "topology.kubernetes.io/region";

function nodeLifecycle(v: KarpenterVersion, s: ControllerPolicySymbols): IamStatementJson[] {
  const owned = `kubernetes.io/cluster/${s.clusterName}`;
  const launchable = ["fleet", "instance", "volume", "network-interface", "launch-template", "spot-instances-request"].map((t) => ec2Arn(s, t));
  const requestTagsOfCluster = { [`aws:RequestTag/${owned}`]: "owned", "aws:RequestTag/eks:eks-cluster-name": s.clusterName };
  const ownedByCluster = { StringEquals: { [`aws:ResourceTag/${owned}`]: "owned" }, StringLike: { [`aws:ResourceTag/${NODEPOOL_TAG}`]: "*" } };
  return [
    {
      Sid: "AllowScopedEC2InstanceAccessActions",
      Effect: "Allow",
      Resource: forVersion(v, [
        always(ec2Arn(s, "image", "")),
        always(ec2Arn(s, "snapshot", "")),
        always(ec2Arn(s, "security-group")),
        always(ec2Arn(s, "subnet")),
        since("1.3", ec2Arn(s, "capacity-reservation")),
        since("1.11", ec2Arn(s, "placement-group")),
      ]),
      Action: ["ec2:RunInstances", "ec2:CreateFleet"],
    },
    {
      Sid: "AllowScopedEC2LaunchTemplateAccessActions",
      Effect: "Allow",
      Resource: ec2Arn(s, "launch-template"),
      Action: ["ec2:RunInstances", "ec2:CreateFleet"],
      Condition: ownedByCluster,
    },
    {
      Sid: "AllowScopedEC2InstanceActionsWithTags",
      Effect: "Allow",
      // upstream added capacity-reservation here in 1.3 and dropped it again with the 1.9 split
      Resource: [...launchable, ...forVersion(v, [between("1.3", "1.9", ec2Arn(s, "capacity-reservation"))])],
      Action: ["ec2:RunInstances", "ec2:CreateFleet", "ec2:CreateLaunchTemplate"],
      Condition: { StringEquals: requestTagsOfCluster, StringLike: { [`aws:RequestTag/${NODEPOOL_TAG}`]: "*" } },
    },
    {
      Sid: "AllowScopedResourceCreationTagging",
      Effect: "Allow",
      Resource: launchable,
      Action: "ec2:CreateTags",
      Condition: {
        StringEquals: { ...requestTagsOfCluster, "ec2:CreateAction": ["RunInstances", "CreateFleet", "CreateLaunchTemplate"] },
        StringLike: { [`aws:RequestTag/${NODEPOOL_TAG}`]: "*" },
      },
    },
    {
      Sid: "AllowScopedResourceTagging",
      Effect: "Allow",
      Resource: ec2Arn(s, "instance"),
      Action: "ec2:CreateTags",
      Condition: {
        ...ownedByCluster,
        StringEqualsIfExists: { "aws:RequestTag/eks:eks-cluster-name": s.clusterName },
        "ForAllValues:StringEquals": { "aws:TagKeys": ["eks:eks-cluster-name", "karpenter.sh/nodeclaim", "Name"] },
      },
    },
    {
      Sid: "AllowScopedDeletion",
      Effect: "Allow",
      Resource: [ec2Arn(s, "instance"), ec2Arn(s, "launch-template")],
      Action: ["ec2:TerminateInstances", "ec2:DeleteLaunchTemplate"],
      Condition: ownedByCluster,
    },
  ];
}

function iamIntegration(v: KarpenterVersion, s: ControllerPolicySymbols): IamStatementJson[] {
  const owned = `kubernetes.io/cluster/${s.clusterName}`;
  const resourceOfCluster = { [`aws:ResourceTag/${owned}`]: "owned", [`aws:ResourceTag/${REGION_TAG}`]: s.region };
  const requestOfCluster = { [`aws:RequestTag/${owned}`]: "owned", "aws:RequestTag/eks:eks-cluster-name": s.clusterName, [`aws:RequestTag/${REGION_TAG}`]: s.region };
  const profiles = instanceProfileArn(s);
  return [
    {
      Sid: "AllowPassingInstanceRole",
      Effect: "Allow",
      Resource: s.nodeRoleArn,
      Action: "iam:PassRole",
      // 1.1 added the China-partition service name (and made the value a list)
      Condition: { StringEquals: { "iam:PassedToService": inRange(v, "1.1") ? ["ec2.amazonaws.com", "ec2.amazonaws.com.cn"] : "ec2.amazonaws.com" } },
    },
    {
      Sid: "AllowScopedInstanceProfileCreationActions",
      Effect: "Allow",
      Resource: profiles,
      Action: ["iam:CreateInstanceProfile"],
      Condition: { StringEquals: requestOfCluster, StringLike: { [`aws:RequestTag/${NODECLASS_TAG}`]: "*" } },
    },
    {
      Sid: "AllowScopedInstanceProfileTagActions",
      Effect: "Allow",
      Resource: profiles,
      Action: ["iam:TagInstanceProfile"],
      Condition: {
        StringEquals: { ...resourceOfCluster, ...requestOfCluster },
        StringLike: { [`aws:ResourceTag/${NODECLASS_TAG}`]: "*", [`aws:RequestTag/${NODECLASS_TAG}`]: "*" },
      },
    },
    {
      Sid: "AllowScopedInstanceProfileActions",
      Effect: "Allow",
      Resource: profiles,
      Action: ["iam:AddRoleToInstanceProfile", "iam:RemoveRoleFromInstanceProfile", "iam:DeleteInstanceProfile"],
      Condition: { StringEquals: resourceOfCluster, StringLike: { [`aws:ResourceTag/${NODECLASS_TAG}`]: "*" } },
    },
  ];
}

function interruption(s: ControllerPolicySymbols): IamStatementJson[] {
  if (s.queueArn === undefined) return [];
  const queue: IamStatementJson = {
    Sid: "AllowInterruptionQueueActions",
    Effect: "Allow",
    Resource: s.queueArn,
    Action: ["sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage"],
  };
  // receiving from a queue encrypted with a customer-managed key needs kms:Decrypt on that key
  const key: IamStatementJson[] = s.kmsKeyArn ? [{ Sid: QUEUE_KEY_DECRYPT_SID, Effect: "Allow", Resource: s.kmsKeyArn, Action: "kms:Decrypt" }] : [];
  return [queue, ...key];
}

function zonalShift(v: KarpenterVersion, s: ControllerPolicySymbols): IamStatementJson[] {
  if (!inRange(v, "1.12")) return [];
  const Sid = "AllowZonalShiftStatusReadOnly";
  const Action = ["arc-zonal-shift:GetManagedResource"];
  // 1.12 scoped it by resource; 1.13 moved the cluster ARN into a condition
  if (!inRange(v, "1.13")) return [{ Sid, Effect: "Allow", Resource: s.clusterArn, Action }];
  return [{ Sid, Effect: "Allow", Resource: "*", Action, Condition: { StringEquals: { "arc-zonal-shift:ResourceIdentifier": s.clusterArn } } }];
}

const REGIONAL_READ_ACTIONS = [
  until("1.1", "ec2:DescribeAvailabilityZones"),
  since("1.3", "ec2:DescribeCapacityReservations"),
  always("ec2:DescribeImages"),
  always("ec2:DescribeInstances"),
  since("1.13", "ec2:DescribeInstanceStatus"),
  always("ec2:DescribeInstanceTypeOfferings"),
  always("ec2:DescribeInstanceTypes"),
  always("ec2:DescribeLaunchTemplates"),
  since("1.11", "ec2:DescribePlacementGroups"),
  always("ec2:DescribeSecurityGroups"),
  always("ec2:DescribeSpotPriceHistory"),
  always("ec2:DescribeSubnets"),
];

function resourceDiscovery(v: KarpenterVersion, s: ControllerPolicySymbols): IamStatementJson[] {
  return forVersion<IamStatementJson>(v, [
    always({
      Sid: "AllowRegionalReadActions",
      Effect: "Allow",
      Resource: "*",
      Action: forVersion(v, REGIONAL_READ_ACTIONS),
      Condition: { StringEquals: { "aws:RequestedRegion": s.region } },
    }),
    always({ Sid: "AllowSSMReadActions", Effect: "Allow", Resource: `arn:${s.partition}:ssm:${s.region}::parameter/aws/service/*`, Action: "ssm:GetParameter" }),
    always({ Sid: "AllowPricingReadActions", Effect: "Allow", Resource: "*", Action: "pricing:GetProducts" }),
    since("1.7", { Sid: "AllowUnscopedInstanceProfileListAction", Effect: "Allow", Resource: "*", Action: "iam:ListInstanceProfiles" }),
    always({ Sid: "AllowInstanceProfileReadActions", Effect: "Allow", Resource: instanceProfileArn(s), Action: "iam:GetInstanceProfile" }),
    // only 1.12 has it as its own unconditioned statement; 1.13 folded it into AllowRegionalReadActions
    between("1.12", "1.13", { Sid: "AllowUnscopedEC2DescribeInstanceStatus", Effect: "Allow", Resource: "*", Action: "ec2:DescribeInstanceStatus" }),
  ]);
}
