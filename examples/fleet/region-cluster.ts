import { Construct } from "constructs";
import { Fn, ITerraformDependable } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { DataAwsPartition } from "@cdktf/provider-aws/lib/data-aws-partition";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicyAttachment } from "@cdktf/provider-aws/lib/iam-role-policy-attachment";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { DiscoveryTags, IKarpenterCluster, Karpenter, KarpenterCluster, SystemNodeGroup } from "../../lib";
import { Network } from "../eks-karpenter/network";

/** Props of {@link RegionCluster}. */
export interface RegionClusterProps {
  /** The cluster name (unique in the account: IAM names derive from it). */
  readonly clusterName: string;
  /** The region, e.g. `eu-west-1`. */
  readonly region: string;
  /** The Kubernetes version of the control plane. */
  readonly kubernetesVersion: string;
  /** The Karpenter version. */
  readonly karpenterVersion: string;
  /** CIDRs allowed to reach the public API endpoint. */
  readonly publicAccessCidrs: string[];
}

/**
 * One cluster of the fleet, inside a stack that holds several: its own AWS provider (aliased by
 * region), network, EKS cluster with add-ons, system nodes, discovery tags, Helm provider and
 * Karpenter. Every AWS resource names the region's provider; the library's constructs take it from
 * the cluster (`KarpenterCluster.fromEksCluster(eks)` → `eks.provider`), and Karpenter's Helm
 * releases use `helmProvider`, so nothing lands on another cluster's providers.
 */
export class RegionCluster extends Construct {
  /** The AWS provider of this region (alias = the region). */
  public readonly aws: AwsProvider;
  /** The Helm provider connected to this cluster (alias = the cluster name). */
  public readonly helm: HelmProvider;
  /** The cluster as the library's constructs take it. */
  public readonly cluster: IKarpenterCluster;
  /** Karpenter on this cluster. */
  public readonly karpenter: Karpenter;
  /** The region. */
  public readonly region: string;

  constructor(scope: Construct, id: string, props: RegionClusterProps) {
    super(scope, id);
    const { clusterName, region } = props;
    this.region = region;
    this.aws = new AwsProvider(this, "aws", {
      alias: region.replace(/-/g, "_"),
      region,
      defaultTags: [{ tags: { "karpenter.sh/example": clusterName, "managed-by": "cdktf" } }],
    });
    const provider = this.aws;

    const network = new Network(this, "network", { clusterName, provider });
    const privateSubnetIds = network.privateSubnets.map((s) => s.id);
    const clusterRole = new IamRole(this, "cluster-role", {
      provider,
      name: `${clusterName}-cluster`.slice(0, 64),
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
      provider,
      role: clusterRole.name,
      policyArn: `arn:${new DataAwsPartition(this, "partition", { provider }).partition}:iam::aws:policy/AmazonEKSClusterPolicy`,
    });
    const eks = new EksCluster(this, "cluster", {
      provider,
      name: clusterName,
      version: props.kubernetesVersion,
      roleArn: clusterRole.arn,
      accessConfig: { authenticationMode: "API", bootstrapClusterCreatorAdminPermissions: true },
      vpcConfig: {
        subnetIds: [...privateSubnetIds, ...network.publicSubnets.map((s) => s.id)],
        endpointPrivateAccess: true,
        endpointPublicAccess: true,
        publicAccessCidrs: props.publicAccessCidrs,
      },
      dependsOn: [clusterPolicy],
    });
    // the AWS provider comes with the cluster: every AWS resource of the install below uses eks.provider
    this.cluster = KarpenterCluster.fromEksCluster(eks);

    const addon = (name: string, dependsOn: ITerraformDependable[] = []) =>
      new EksAddon(this, name, {
        provider,
        clusterName: eks.name,
        addonName: name,
        resolveConflictsOnCreate: "OVERWRITE",
        resolveConflictsOnUpdate: "OVERWRITE",
        dependsOn: dependsOn.length ? dependsOn : undefined,
      });
    const beforeNodes = ["vpc-cni", "kube-proxy", "eks-pod-identity-agent"].map((n) => addon(n));
    const systemNodes = new SystemNodeGroup(this, "system-nodes", {
      cluster: this.cluster,
      subnetIds: privateSubnetIds,
      taints: [{ key: "CriticalAddonsOnly", value: "true", effect: "NO_SCHEDULE" }],
      dependsOn: beforeNodes,
    });
    addon("coredns", [systemNodes.nodeGroup]);
    // each cluster has its own VPC here: the default discovery tag key is enough (a shared VPC needs DiscoveryTags.clusterTagKey)
    new DiscoveryTags(this, "discovery", { cluster: this.cluster });

    this.helm = new HelmProvider(this, "helm", {
      alias: clusterName.replace(/-/g, "_"),
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
    this.karpenter = new Karpenter(this, "karpenter", {
      cluster: this.cluster,
      version: props.karpenterVersion,
      systemNodeGroup: systemNodes,
      helmProvider: this.helm,
    });
  }
}
