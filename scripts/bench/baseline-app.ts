/**
 * The bench's yardstick: the main example's resources (examples/eks-karpenter, default settings)
 * written by hand with provider classes from their deep paths and no library. `npm run bench` runs
 * it beside the example and reports the example's wall time and peak memory as a multiple of this
 * app's. It mirrors the example's output resource for resource (same types, counts, arguments and
 * references); the names of some resources differ.
 */
import { App, Fn, LocalBackend, TerraformOutput, TerraformStack } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { CloudwatchEventRule } from "@cdktf/provider-aws/lib/cloudwatch-event-rule";
import { CloudwatchEventTarget } from "@cdktf/provider-aws/lib/cloudwatch-event-target";
import { DataAwsAvailabilityZones } from "@cdktf/provider-aws/lib/data-aws-availability-zones";
import { DataAwsCallerIdentity } from "@cdktf/provider-aws/lib/data-aws-caller-identity";
import { DataAwsPartition } from "@cdktf/provider-aws/lib/data-aws-partition";
import { DataAwsRegion } from "@cdktf/provider-aws/lib/data-aws-region";
import { Ec2Tag } from "@cdktf/provider-aws/lib/ec2-tag";
import { Eip } from "@cdktf/provider-aws/lib/eip";
import { EksAccessEntry } from "@cdktf/provider-aws/lib/eks-access-entry";
import { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { EksNodeGroup } from "@cdktf/provider-aws/lib/eks-node-group";
import { EksPodIdentityAssociation } from "@cdktf/provider-aws/lib/eks-pod-identity-association";
import { IamPolicy } from "@cdktf/provider-aws/lib/iam-policy";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicyAttachment } from "@cdktf/provider-aws/lib/iam-role-policy-attachment";
import { InternetGateway } from "@cdktf/provider-aws/lib/internet-gateway";
import { NatGateway } from "@cdktf/provider-aws/lib/nat-gateway";
import { Route } from "@cdktf/provider-aws/lib/route";
import { RouteTable } from "@cdktf/provider-aws/lib/route-table";
import { RouteTableAssociation } from "@cdktf/provider-aws/lib/route-table-association";
import { SqsQueue } from "@cdktf/provider-aws/lib/sqs-queue";
import { SqsQueuePolicy } from "@cdktf/provider-aws/lib/sqs-queue-policy";
import { Subnet } from "@cdktf/provider-aws/lib/subnet";
import { Vpc } from "@cdktf/provider-aws/lib/vpc";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { Release } from "@cdktf/provider-helm/lib/release";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { DeploymentV1 } from "@cdktf/provider-kubernetes/lib/deployment-v1";
import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";

const clusterName = "karpenter-demo";
const region = "us-east-1";
const version = "1.14.1";
const app = new App({ stackTraces: false });

// ---- stack eks ----
const eksStack = new TerraformStack(app, "eks");
new LocalBackend(eksStack, { path: "terraform.eks.tfstate" });
new AwsProvider(eksStack, "aws", {
  region,
  defaultTags: [{ tags: { "karpenter.sh/example": clusterName, "managed-by": "cdktf" } }],
});
const partition = new DataAwsPartition(eksStack, "partition");
const awsRegion = new DataAwsRegion(eksStack, "region");
const caller = new DataAwsCallerIdentity(eksStack, "caller");
const azs = new DataAwsAvailabilityZones(eksStack, "azs", {
  state: "available",
  filter: [{ name: "opt-in-status", values: ["opt-in-not-required"] }],
});

const vpc = new Vpc(eksStack, "vpc", {
  cidrBlock: "10.0.0.0/16",
  enableDnsHostnames: true,
  enableDnsSupport: true,
  tags: { Name: clusterName },
});
const igw = new InternetGateway(eksStack, "igw", { vpcId: vpc.id, tags: { Name: clusterName } });
const subnet = (kind: "public" | "private", i: number) =>
  new Subnet(eksStack, `${kind}-${i}`, {
    vpcId: vpc.id,
    availabilityZone: Fn.element(azs.names, i),
    cidrBlock: kind === "public" ? Fn.cidrsubnet("10.0.0.0/16", 8, 100 + i) : Fn.cidrsubnet("10.0.0.0/16", 3, i),
    mapPublicIpOnLaunch: kind === "public" ? true : undefined,
    tags:
      kind === "public"
        ? { Name: `${clusterName}-public-${i}`, "kubernetes.io/role/elb": "1" }
        : {
            Name: `${clusterName}-private-${i}`,
            "karpenter.sh/discovery": clusterName,
            "kubernetes.io/role/internal-elb": "1",
          },
  });
const publicSubnets = [0, 1].map((i) => subnet("public", i));
const privateSubnets = [0, 1].map((i) => subnet("private", i));
const eip = new Eip(eksStack, "nat-ip", { domain: "vpc", tags: { Name: `${clusterName}-nat` }, dependsOn: [igw] });
const nat = new NatGateway(eksStack, "nat", {
  allocationId: eip.id,
  subnetId: publicSubnets[0].id,
  tags: { Name: clusterName },
  dependsOn: [igw],
});
const publicRoutes = new RouteTable(eksStack, "public-routes", {
  vpcId: vpc.id,
  tags: { Name: `${clusterName}-public` },
});
const privateRoutes = new RouteTable(eksStack, "private-routes", {
  vpcId: vpc.id,
  tags: { Name: `${clusterName}-private` },
});
new Route(eksStack, "public-default-route", {
  routeTableId: publicRoutes.id,
  destinationCidrBlock: "0.0.0.0/0",
  gatewayId: igw.id,
});
new Route(eksStack, "private-default-route", {
  routeTableId: privateRoutes.id,
  destinationCidrBlock: "0.0.0.0/0",
  natGatewayId: nat.id,
});
publicSubnets.forEach(
  (s, i) =>
    new RouteTableAssociation(eksStack, `public-${i}-routes`, { subnetId: s.id, routeTableId: publicRoutes.id }),
);
privateSubnets.forEach(
  (s, i) =>
    new RouteTableAssociation(eksStack, `private-${i}-routes`, { subnetId: s.id, routeTableId: privateRoutes.id }),
);

const trust = (service: string, actions: string[] | string = ["sts:AssumeRole"]) =>
  JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: { Service: service }, Action: actions }],
  });
const awsPolicy = (name: string) => `arn:${partition.partition}:iam::aws:policy/${name}`;

const clusterRole = new IamRole(eksStack, "cluster-role", {
  name: `${clusterName}-cluster`,
  assumeRolePolicy: trust("eks.amazonaws.com", ["sts:AssumeRole", "sts:TagSession"]),
});
const clusterPolicy = new IamRolePolicyAttachment(eksStack, "cluster-policy", {
  role: clusterRole.name,
  policyArn: awsPolicy("AmazonEKSClusterPolicy"),
});
const eks = new EksCluster(eksStack, "cluster", {
  name: clusterName,
  version: "1.34",
  roleArn: clusterRole.arn,
  accessConfig: { authenticationMode: "API", bootstrapClusterCreatorAdminPermissions: true },
  vpcConfig: {
    subnetIds: [...privateSubnets, ...publicSubnets].map((s) => s.id),
    endpointPrivateAccess: true,
    endpointPublicAccess: true,
    publicAccessCidrs: ["0.0.0.0/0"],
  },
  dependsOn: [clusterPolicy],
});
const addon = (name: string, dependsOn?: (EksAddon | EksNodeGroup)[]) =>
  new EksAddon(eksStack, name, {
    clusterName: eks.name,
    addonName: name,
    resolveConflictsOnCreate: "OVERWRITE",
    resolveConflictsOnUpdate: "OVERWRITE",
    dependsOn,
  });
const beforeNodes = ["vpc-cni", "kube-proxy", "eks-pod-identity-agent"].map((n) => addon(n));

// system node group
const systemRole = new IamRole(eksStack, "system-role", {
  name: `${eks.name}-system-node`,
  assumeRolePolicy: trust(`ec2.${partition.dnsSuffix}`, "sts:AssumeRole"),
});
const systemAttachments = [
  "AmazonEKSWorkerNodePolicy",
  "AmazonEKS_CNI_Policy",
  "AmazonEC2ContainerRegistryPullOnly",
].map((p) => new IamRolePolicyAttachment(eksStack, `system-${p}`, { role: systemRole.name, policyArn: awsPolicy(p) }));
const systemNodes = new EksNodeGroup(eksStack, "system-nodes", {
  clusterName: eks.name,
  nodeGroupName: `${eks.name}-system`,
  nodeRoleArn: systemRole.arn,
  subnetIds: privateSubnets.map((s) => s.id),
  amiType: "AL2023_x86_64_STANDARD",
  capacityType: "ON_DEMAND",
  instanceTypes: ["t3.medium"],
  labels: { "node-role": "system" },
  scalingConfig: { desiredSize: 2, minSize: 2, maxSize: 2 },
  updateConfig: { maxUnavailable: 1 },
  taint: [{ key: "CriticalAddonsOnly", value: "true", effect: "NO_SCHEDULE" }],
  dependsOn: [...systemAttachments, ...beforeNodes],
});
addon("coredns", [systemNodes]);
new Ec2Tag(eksStack, "discovery-security-group", {
  resourceId: eks.vpcConfig.clusterSecurityGroupId,
  key: "karpenter.sh/discovery",
  value: eks.name,
});

new HelmProvider(eksStack, "helm", {
  kubernetes: {
    host: eks.endpoint,
    clusterCaCertificate: Fn.base64decode(eks.certificateAuthority.get(0).data),
    exec: {
      apiVersion: "client.authentication.k8s.io/v1beta1",
      command: "aws",
      args: ["eks", "get-token", "--cluster-name", eks.name, "--region", region],
    },
  },
});

// Karpenter: node role and access entry
const nodeRole = new IamRole(eksStack, "karpenter-node-role", {
  name: `KarpenterNodeRole-${eks.name}`,
  description: "Karpenter node role: EC2 instances launched by Karpenter",
  assumeRolePolicy: trust(`ec2.${partition.dnsSuffix}`),
});
const nodeAttachments = [
  "AmazonEKS_CNI_Policy",
  "AmazonEKSWorkerNodePolicy",
  "AmazonEC2ContainerRegistryPullOnly",
  "AmazonSSMManagedInstanceCore",
].map(
  (p) => new IamRolePolicyAttachment(eksStack, `karpenter-node-${p}`, { role: nodeRole.name, policyArn: awsPolicy(p) }),
);
const accessEntry = new EksAccessEntry(eksStack, "karpenter-node-access", {
  clusterName: eks.name,
  principalArn: nodeRole.arn,
  type: "EC2_LINUX",
});
void nodeAttachments;

// interruption queue and rules
const queue = new SqsQueue(eksStack, "karpenter-queue", {
  name: eks.name,
  messageRetentionSeconds: 300,
  sqsManagedSseEnabled: true,
});
const queuePolicy = new SqsQueuePolicy(eksStack, "karpenter-queue-policy", {
  queueUrl: queue.url,
  policy: JSON.stringify({
    Version: "2012-10-17",
    Id: "EC2InterruptionPolicy",
    Statement: [
      {
        Effect: "Allow",
        Principal: { Service: ["events.amazonaws.com", "sqs.amazonaws.com"] },
        Action: "sqs:SendMessage",
        Resource: queue.arn,
      },
      {
        Sid: "DenyHTTP",
        Effect: "Deny",
        Action: "sqs:*",
        Resource: queue.arn,
        Condition: { Bool: { "aws:SecureTransport": "false" } },
        Principal: "*",
      },
    ],
  }),
});
const events: [string, string, string][] = [
  ["ScheduledChange", "aws.health", "AWS Health Event"],
  ["SpotInterruption", "aws.ec2", "EC2 Spot Instance Interruption Warning"],
  ["Rebalance", "aws.ec2", "EC2 Instance Rebalance Recommendation"],
  ["InstanceStateChange", "aws.ec2", "EC2 Instance State-change Notification"],
  ["CapacityReservation", "aws.ec2", "EC2 Capacity Reservation Instance Interruption Warning"],
];
const targets = events.map(([name, source, detailType]) => {
  const rule = new CloudwatchEventRule(eksStack, `rule-${name}`, {
    name: `Karpenter-${clusterName}-${name}`,
    description: `Karpenter interruption handling: sends "${detailType}" events to the interruption queue`,
    eventPattern: JSON.stringify({ source: [source], "detail-type": [detailType] }),
  });
  return new CloudwatchEventTarget(eksStack, `target-${name}`, {
    rule: rule.name,
    arn: queue.arn,
    targetId: "KarpenterInterruptionQueueTarget",
  });
});

// controller role: upstream's managed-policy split
const p = partition.partition;
const r = awsRegion.region;
const ec2 = (resource: string) => `arn:${p}:ec2:${r}:*:${resource}`;
const instanceProfiles = `arn:${p}:iam::${caller.accountId}:instance-profile/*`;
const owned = { [`aws:ResourceTag/kubernetes.io/cluster/${eks.name}`]: "owned" };
const requestOwned = {
  [`aws:RequestTag/kubernetes.io/cluster/${eks.name}`]: "owned",
  "aws:RequestTag/eks:eks-cluster-name": eks.name,
};
const launched = [
  "fleet/*",
  "instance/*",
  "volume/*",
  "network-interface/*",
  "launch-template/*",
  "spot-instances-request/*",
].map(ec2);
const policies: Record<string, object[]> = {
  NodeLifecycle: [
    {
      Sid: "AllowScopedEC2InstanceAccessActions",
      Effect: "Allow",
      Resource: [
        `arn:${p}:ec2:${r}::image/*`,
        `arn:${p}:ec2:${r}::snapshot/*`,
        ...["security-group/*", "subnet/*", "capacity-reservation/*", "placement-group/*"].map(ec2),
      ],
      Action: ["ec2:RunInstances", "ec2:CreateFleet"],
    },
    {
      Sid: "AllowScopedEC2LaunchTemplateAccessActions",
      Effect: "Allow",
      Resource: ec2("launch-template/*"),
      Action: ["ec2:RunInstances", "ec2:CreateFleet"],
      Condition: { StringEquals: owned, StringLike: { "aws:ResourceTag/karpenter.sh/nodepool": "*" } },
    },
    {
      Sid: "AllowScopedEC2InstanceActionsWithTags",
      Effect: "Allow",
      Resource: launched,
      Action: ["ec2:RunInstances", "ec2:CreateFleet", "ec2:CreateLaunchTemplate"],
      Condition: { StringEquals: requestOwned, StringLike: { "aws:RequestTag/karpenter.sh/nodepool": "*" } },
    },
    {
      Sid: "AllowScopedResourceCreationTagging",
      Effect: "Allow",
      Resource: launched,
      Action: "ec2:CreateTags",
      Condition: {
        StringEquals: { ...requestOwned, "ec2:CreateAction": ["RunInstances", "CreateFleet", "CreateLaunchTemplate"] },
        StringLike: { "aws:RequestTag/karpenter.sh/nodepool": "*" },
      },
    },
    {
      Sid: "AllowScopedResourceTagging",
      Effect: "Allow",
      Resource: ec2("instance/*"),
      Action: "ec2:CreateTags",
      Condition: {
        StringEquals: owned,
        StringLike: { "aws:ResourceTag/karpenter.sh/nodepool": "*" },
        StringEqualsIfExists: { "aws:RequestTag/eks:eks-cluster-name": eks.name },
        "ForAllValues:StringEquals": { "aws:TagKeys": ["eks:eks-cluster-name", "karpenter.sh/nodeclaim", "Name"] },
      },
    },
    {
      Sid: "AllowScopedDeletion",
      Effect: "Allow",
      Resource: [ec2("instance/*"), ec2("launch-template/*")],
      Action: ["ec2:TerminateInstances", "ec2:DeleteLaunchTemplate"],
      Condition: { StringEquals: owned, StringLike: { "aws:ResourceTag/karpenter.sh/nodepool": "*" } },
    },
  ],
  IAMIntegration: [
    {
      Sid: "AllowPassingInstanceRole",
      Effect: "Allow",
      Resource: nodeRole.arn,
      Action: "iam:PassRole",
      Condition: { StringEquals: { "iam:PassedToService": ["ec2.amazonaws.com", "ec2.amazonaws.com.cn"] } },
    },
    {
      Sid: "AllowScopedInstanceProfileCreationActions",
      Effect: "Allow",
      Resource: instanceProfiles,
      Action: ["iam:CreateInstanceProfile"],
      Condition: {
        StringEquals: { ...requestOwned, "aws:RequestTag/topology.kubernetes.io/region": r },
        StringLike: { "aws:RequestTag/karpenter.k8s.aws/ec2nodeclass": "*" },
      },
    },
    {
      Sid: "AllowScopedInstanceProfileTagActions",
      Effect: "Allow",
      Resource: instanceProfiles,
      Action: ["iam:TagInstanceProfile"],
      Condition: {
        StringEquals: {
          ...owned,
          "aws:ResourceTag/topology.kubernetes.io/region": r,
          ...requestOwned,
          "aws:RequestTag/topology.kubernetes.io/region": r,
        },
        StringLike: {
          "aws:ResourceTag/karpenter.k8s.aws/ec2nodeclass": "*",
          "aws:RequestTag/karpenter.k8s.aws/ec2nodeclass": "*",
        },
      },
    },
    {
      Sid: "AllowScopedInstanceProfileActions",
      Effect: "Allow",
      Resource: instanceProfiles,
      Action: ["iam:AddRoleToInstanceProfile", "iam:RemoveRoleFromInstanceProfile", "iam:DeleteInstanceProfile"],
      Condition: {
        StringEquals: { ...owned, "aws:ResourceTag/topology.kubernetes.io/region": r },
        StringLike: { "aws:ResourceTag/karpenter.k8s.aws/ec2nodeclass": "*" },
      },
    },
  ],
  EKSIntegration: [
    { Sid: "AllowAPIServerEndpointDiscovery", Effect: "Allow", Resource: eks.arn, Action: "eks:DescribeCluster" },
  ],
  Interruption: [
    {
      Sid: "AllowInterruptionQueueActions",
      Effect: "Allow",
      Resource: queue.arn,
      Action: ["sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage"],
    },
  ],
  ZonalShift: [
    {
      Sid: "AllowZonalShiftStatusReadOnly",
      Effect: "Allow",
      Resource: "*",
      Action: ["arc-zonal-shift:GetManagedResource"],
      Condition: { StringEquals: { "arc-zonal-shift:ResourceIdentifier": eks.arn } },
    },
  ],
  ResourceDiscovery: [
    {
      Sid: "AllowRegionalReadActions",
      Effect: "Allow",
      Resource: "*",
      Action: [
        "ec2:DescribeCapacityReservations",
        "ec2:DescribeImages",
        "ec2:DescribeInstances",
        "ec2:DescribeInstanceStatus",
        "ec2:DescribeInstanceTypeOfferings",
        "ec2:DescribeInstanceTypes",
        "ec2:DescribeLaunchTemplates",
        "ec2:DescribePlacementGroups",
        "ec2:DescribeSecurityGroups",
        "ec2:DescribeSpotPriceHistory",
        "ec2:DescribeSubnets",
      ],
      Condition: { StringEquals: { "aws:RequestedRegion": r } },
    },
    {
      Sid: "AllowSSMReadActions",
      Effect: "Allow",
      Resource: `arn:${p}:ssm:${r}::parameter/aws/service/*`,
      Action: "ssm:GetParameter",
    },
    { Sid: "AllowPricingReadActions", Effect: "Allow", Resource: "*", Action: "pricing:GetProducts" },
    {
      Sid: "AllowUnscopedInstanceProfileListAction",
      Effect: "Allow",
      Resource: "*",
      Action: "iam:ListInstanceProfiles",
    },
    {
      Sid: "AllowInstanceProfileReadActions",
      Effect: "Allow",
      Resource: instanceProfiles,
      Action: "iam:GetInstanceProfile",
    },
  ],
};
const controllerRole = new IamRole(eksStack, "karpenter-controller-role", {
  name: `KarpenterControllerRole-${eks.name}`,
  description: "Karpenter controller (kube-system/karpenter)",
  assumeRolePolicy: trust("pods.eks.amazonaws.com", ["sts:AssumeRole", "sts:TagSession"]),
});
const controllerAttachments = Object.entries(policies).map(([name, statements]) => {
  const policy = new IamPolicy(eksStack, `karpenter-policy-${name}`, {
    name: `KarpenterController${name}Policy-${eks.name}`,
    path: "/",
    description: `Karpenter controller ${name} permissions`,
    policy: JSON.stringify({ Version: "2012-10-17", Statement: statements }),
  });
  return new IamRolePolicyAttachment(eksStack, `karpenter-attachment-${name}`, {
    role: controllerRole.name,
    policyArn: policy.arn,
  });
});
const podIdentity = new EksPodIdentityAssociation(eksStack, "karpenter-pod-identity", {
  clusterName: eks.name,
  namespace: "kube-system",
  serviceAccount: "karpenter",
  roleArn: controllerRole.arn,
});

// the two Helm releases
const crds = new Release(eksStack, "karpenter-crd", {
  name: "karpenter-crd",
  chart: "karpenter-crd",
  repository: "oci://public.ecr.aws/karpenter",
  version,
  namespace: "kube-system",
});
const values = `controller:
  resources:
    limits:
      memory: "512Mi"
    requests:
      cpu: "500m"
      memory: "512Mi"
dnsPolicy: "Default"
nodeSelector:
  node-role: "system"
replicas: 2
serviceAccount:
  name: "karpenter"
settings:
  clusterName: "${eks.name}"
  interruptionQueue: "${queue.name}"
tolerations:
  - key: "CriticalAddonsOnly"
    operator: "Exists"
  - effect: "NoSchedule"
    key: "CriticalAddonsOnly"
    operator: "Equal"
    value: "true"
`;
new Release(eksStack, "karpenter", {
  name: "karpenter",
  chart: "karpenter",
  repository: "oci://public.ecr.aws/karpenter",
  version,
  namespace: "kube-system",
  skipCrds: true,
  values: [values],
  dependsOn: [crds, podIdentity, ...controllerAttachments, accessEntry, queuePolicy, ...targets, systemNodes],
});

new TerraformOutput(eksStack, "karpenter_node_role_name", { value: nodeRole.name });
new TerraformOutput(eksStack, "karpenter_controller_role_arn", { value: controllerRole.arn });
new TerraformOutput(eksStack, "interruption_queue_name", { value: queue.name });
new TerraformOutput(eksStack, "karpenter_chart_version", { value: version });
new TerraformOutput(eksStack, "cluster_name", { value: eks.name });
new TerraformOutput(eksStack, "kubernetes_version", { value: eks.version });
new TerraformOutput(eksStack, "kubeconfig_command", {
  value: `aws eks update-kubeconfig --region ${region} --name ${eks.name}`,
});

// ---- stack karpenter-nodes: cross-stack references to the eks stack ----
const nodes = new TerraformStack(app, "karpenter-nodes");
new LocalBackend(nodes, { path: "terraform.karpenter-nodes.tfstate" });
new KubernetesProvider(nodes, "kubernetes", {
  host: eks.endpoint,
  clusterCaCertificate: Fn.base64decode(eks.certificateAuthority.get(0).data),
  exec: [
    {
      apiVersion: "client.authentication.k8s.io/v1beta1",
      command: "aws",
      args: ["eks", "get-token", "--cluster-name", eks.name, "--region", region],
    },
  ],
});
const discovery = [{ tags: { "karpenter.sh/discovery": eks.name } }];
const nodeClass = new Manifest(nodes, "default-node-class", {
  manifest: {
    apiVersion: "karpenter.k8s.aws/v1",
    kind: "EC2NodeClass",
    metadata: { name: "default" },
    spec: {
      amiSelectorTerms: [{ alias: "al2023@latest" }],
      role: nodeRole.name,
      securityGroupSelectorTerms: discovery,
      subnetSelectorTerms: discovery,
    },
  },
  timeouts: { delete: "20m" },
});
const nodePool = new Manifest(nodes, "default-node-pool", {
  manifest: {
    apiVersion: "karpenter.sh/v1",
    kind: "NodePool",
    metadata: { name: "default" },
    spec: {
      disruption: {
        budgets: [{ nodes: "10%" }, { duration: "8h", nodes: "0", schedule: "0 9 * * mon-fri" }],
        consolidateAfter: "1m",
        consolidationPolicy: "WhenEmptyOrUnderutilized",
      },
      limits: { cpu: "100" },
      template: {
        spec: {
          expireAfter: "720h",
          nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" },
          requirements: [
            { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
            { key: "karpenter.sh/capacity-type", operator: "In", values: ["spot", "on-demand"] },
            { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
            { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["5"] },
          ],
        },
      },
    },
  },
  dependsOn: [nodeClass],
});
new DeploymentV1(nodes, "inflate", {
  metadata: { name: "inflate", namespace: "default" },
  spec: {
    replicas: "0",
    selector: { matchLabels: { app: "inflate" } },
    template: {
      metadata: { labels: { app: "inflate" } },
      spec: {
        terminationGracePeriodSeconds: 0,
        container: [
          {
            name: "inflate",
            image: "public.ecr.aws/eks-distro/kubernetes/pause:3.7",
            resources: { requests: { cpu: "1" } },
            securityContext: { allowPrivilegeEscalation: false },
          },
        ],
      },
    },
  },
  dependsOn: [nodePool],
});

app.synth();
