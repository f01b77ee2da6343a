import type { TerraformElement, TerraformProvider } from "cdktf";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import type { IKarpenterCluster } from "./karpenter-cluster";

/*
 * What the library reads of a cluster's Terraform object. `IKarpenterCluster.resource` is typed as the
 * `TerraformElement` that both an `EksCluster` and a `DataAwsEksCluster` are (one jsii type for every
 * language); the members the two share beyond it (`provider`, `regionInput`) and the resource itself
 * are read here, in one place, rather than by casts at each use.
 */

/** A cluster's resource or data source with the members both classes have beyond `TerraformElement`. */
export type ClusterElement = TerraformElement & {
  /** The provider the resource or data source names; undefined: the stack's default. */
  readonly provider?: TerraformProvider;
  /** hashicorp/aws 6: the region the resource or data source names itself, over its provider's. */
  readonly regionInput?: string;
};

/** The cluster's resource or data source, with the members {@link ClusterElement} lists. */
export function clusterElement(cluster: IKarpenterCluster): ClusterElement {
  return cluster.resource as ClusterElement;
}

/** The `aws_eks_cluster` resource of a cluster defined in this app; undefined for a cluster read by name. */
export function eksClusterOf(cluster: IKarpenterCluster): EksCluster | undefined {
  return cluster.resource instanceof EksCluster ? cluster.resource : undefined;
}

/** The provider the cluster's resource or data source names; undefined when it names none (the stack's default). */
export function clusterProvider(cluster: IKarpenterCluster): TerraformProvider | undefined {
  return clusterElement(cluster).provider;
}
