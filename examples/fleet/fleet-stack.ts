import { Construct } from "constructs";
import { LocalBackend, TerraformOutput, TerraformStack } from "cdktf";
import { FleetConfig } from "./config";
import { RegionCluster } from "./region-cluster";

/**
 * Stack `fleet`: every cluster of the fleet in one stack, each on its own named providers (one
 * aliased AWS provider per region, one aliased Helm provider per cluster).
 */
export class FleetStack extends TerraformStack {
  /** The clusters, in the order of `FLEET_REGIONS`. */
  public readonly clusters: RegionCluster[];

  constructor(scope: Construct, id: string, config: FleetConfig) {
    super(scope, id);
    // relative path: the same JSON in every checkout (see examples/eks-karpenter/backend.ts)
    new LocalBackend(this, { path: `../../../terraform.${id}.tfstate` });
    this.clusters = config.clusters.map(
      (c) =>
        new RegionCluster(this, c.name, {
          clusterName: c.name,
          region: c.region,
          kubernetesVersion: config.kubernetesVersion,
          karpenterVersion: config.karpenterVersion,
          publicAccessCidrs: config.publicAccessCidrs,
        }),
    );
    for (const c of this.clusters) {
      new TerraformOutput(this, `${c.node.id}_kubeconfig_command`, {
        value: `aws eks update-kubeconfig --region ${c.region} --name ${c.cluster.clusterName}`,
      });
    }
  }
}
