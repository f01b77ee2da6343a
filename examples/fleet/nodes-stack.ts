import { Construct } from "constructs";
import { Fn, LocalBackend, TerraformStack } from "cdktf";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { Ec2NodeClass, NodePool } from "../../lib";
import { RegionCluster } from "./region-cluster";

/**
 * Stack `fleet-nodes`: the EC2NodeClass and NodePool of every cluster, each cluster's objects on a
 * Kubernetes provider of its own (aliased by cluster name). A stack of its own because
 * `kubernetes_manifest` needs the clusters and the CRDs at plan time; it depends on `fleet`.
 */
export class FleetNodesStack extends TerraformStack {
  /** Per cluster (same order as the clusters): its Kubernetes provider, EC2NodeClass and NodePool. */
  public readonly perCluster: { kubernetes: KubernetesProvider; nodeClass: Ec2NodeClass; nodePool: NodePool }[];

  constructor(scope: Construct, id: string, clusters: RegionCluster[]) {
    super(scope, id);
    new LocalBackend(this, { path: `../../../terraform.${id}.tfstate` });
    this.perCluster = clusters.map((c) => {
      const { cluster, karpenter } = c;
      const kubernetes = new KubernetesProvider(this, `kubernetes-${c.node.id}`, {
        alias: c.node.id.replace(/-/g, "_"),
        host: cluster.endpoint,
        clusterCaCertificate: Fn.base64decode(cluster.certificateAuthorityData),
        exec: [
          {
            apiVersion: "client.authentication.k8s.io/v1beta1",
            command: "aws",
            args: ["eks", "get-token", "--cluster-name", cluster.clusterName, "--region", c.region],
          },
        ],
      });
      const nodeClass = new Ec2NodeClass(this, `${c.node.id}-node-class`, {
        name: "default",
        karpenter,
        kubernetesProvider: kubernetes,
      });
      // the pool takes its class's Kubernetes provider
      const nodePool = new NodePool(this, `${c.node.id}-node-pool`, {
        name: "default",
        nodeClass,
        requirements: [
          { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
          { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
          { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
        ],
        limits: { cpu: "100" },
        disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m" },
      });
      return { kubernetes, nodeClass, nodePool };
    });
  }
}
