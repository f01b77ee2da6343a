import { Construct } from "constructs";
import { Fn, ITerraformDependable, TerraformOutput, TerraformStack } from "cdktf";
import { DataAwsPartition } from "@cdktf/provider-aws/lib/data-aws-partition";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicyAttachment } from "@cdktf/provider-aws/lib/iam-role-policy-attachment";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { DiscoveryTags, IKarpenterCluster, Karpenter, KarpenterCluster, SystemNodeGroup } from "../../lib";
import { ExampleConfig } from "./config";
import { configureBackend } from "./backend";
import { Network } from "./network";

/**
 * Stack `eks`: the VPC, the EKS cluster with its add-ons, the system node group, the discovery
 * tags, and Karpenter itself (IAM, interruption queue, both Helm releases).
 */
export class EksStack extends TerraformStack {
  /** The cluster, as the library's constructs take it. */
  public readonly cluster: IKarpenterCluster;
  public readonly network: Network;
  public readonly systemNodes: SystemNodeGroup;
  /** Karpenter: IAM, interruption queue, CRD and controller releases; the nodes stack builds on it. */
  public readonly karpenter: Karpenter;

  constructor(scope: Construct, id: string, config: ExampleConfig) {
    super(scope, id);
    configureBackend(this, id, config);
    new AwsProvider(this, "aws", {
      region: config.region,
      defaultTags: [{ tags: { "karpenter.sh/example": config.clusterName, "managed-by": "cdktf" } }],
    });

    this.network = new Network(this, "network", { clusterName: config.clusterName });
    const privateSubnetIds = this.network.privateSubnets.map((s) => s.id);

    const clusterRole = new IamRole(this, "cluster-role", {
      name: `${config.clusterName}-cluster`.slice(0, 64),
      assumeRolePolicy: JSON.stringify({
        Version: "2012-10-17",
        Statement: [
          {
            Effect: "Allow",
            Principal: { Service: "eks.amazonaws.com" },
            Action: ["sts:AssumeRole", "sts:TagSession"],
          },
        ],
      }),
    });
    const clusterPolicy = new IamRolePolicyAttachment(this, "cluster-policy", {
      role: clusterRole.name,
      policyArn: `arn:${new DataAwsPartition(this, "partition").partition}:iam::aws:policy/AmazonEKSClusterPolicy`,
    });
    const eks = new EksCluster(this, "cluster", {
      name: config.clusterName,
      version: config.kubernetesVersion,
      roleArn: clusterRole.arn,
      // access entries only (no aws-auth ConfigMap); whoever runs `cdktf deploy` becomes cluster admin
      accessConfig: { authenticationMode: "API", bootstrapClusterCreatorAdminPermissions: true },
      vpcConfig: {
        subnetIds: [...privateSubnetIds, ...this.network.publicSubnets.map((s) => s.id)],
        endpointPrivateAccess: true,
        endpointPublicAccess: true,
        publicAccessCidrs: config.publicAccessCidrs,
      },
      dependsOn: [clusterPolicy],
    });
    this.cluster = KarpenterCluster.fromEksCluster(eks);

    // networking and pod identity must be running before any node joins; CoreDNS needs nodes
    const addon = (name: string, dependsOn: ITerraformDependable[] = []) =>
      new EksAddon(this, name, {
        clusterName: eks.name,
        addonName: name,
        resolveConflictsOnCreate: "OVERWRITE",
        resolveConflictsOnUpdate: "OVERWRITE",
        dependsOn: dependsOn.length ? dependsOn : undefined,
      });
    const beforeNodes = ["vpc-cni", "kube-proxy", "eks-pod-identity-agent"].map((n) => addon(n));

    this.systemNodes = new SystemNodeGroup(this, "system-nodes", {
      cluster: this.cluster,
      subnetIds: privateSubnetIds,
      // only the controller, CoreDNS and node agents (which tolerate it) run here; workloads go to Karpenter's nodes
      taints: [{ key: "CriticalAddonsOnly", value: "true", effect: "NO_SCHEDULE" }],
      dependsOn: beforeNodes,
    });
    addon("coredns", [this.systemNodes.nodeGroup]);

    // private subnets carry the discovery tag in their own tags (network.ts); the cluster security group is EKS-made
    new DiscoveryTags(this, "discovery", { cluster: this.cluster });

    new HelmProvider(this, "helm", {
      kubernetes: {
        host: eks.endpoint,
        clusterCaCertificate: Fn.base64decode(eks.certificateAuthority.get(0).data),
        exec: {
          apiVersion: "client.authentication.k8s.io/v1beta1",
          command: "aws",
          args: ["eks", "get-token", "--cluster-name", eks.name, "--region", config.region],
        },
      },
    });

    // ---- Karpenter ----
    // the controller runs on the system nodes (never on nodes it manages) and waits for them
    this.karpenter = new Karpenter(this, "karpenter", {
      cluster: this.cluster,
      version: config.karpenterVersion,
      allowUnverifiedVersion: config.allowUnverifiedVersion,
      systemNodeGroup: this.systemNodes,
      spotServiceLinkedRole: config.spotServiceLinkedRole,
    });
    new TerraformOutput(this, "karpenter_node_role_name", { value: this.karpenter.nodeRoleName });
    new TerraformOutput(this, "karpenter_controller_role_arn", { value: this.karpenter.controllerRole.roleArn });
    new TerraformOutput(this, "interruption_queue_name", { value: this.karpenter.interruptionQueue!.queueName });
    new TerraformOutput(this, "karpenter_chart_version", { value: this.karpenter.version });

    new TerraformOutput(this, "cluster_name", { value: eks.name });
    new TerraformOutput(this, "kubernetes_version", { value: eks.version });
    new TerraformOutput(this, "kubeconfig_command", {
      value: `aws eks update-kubeconfig --region ${config.region} --name ${eks.name}`,
    });
  }
}
