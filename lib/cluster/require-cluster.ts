import { IConstruct } from "constructs";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { KarpenterValidationError } from "../core/errors";
import type { IKarpenterCluster } from "./karpenter-cluster";

/** What a missing or wrong `cluster` prop is told. */
const CLUSTER_REQUIRED =
  "cluster is required: an IKarpenterCluster from KarpenterCluster.fromEksCluster(...) or .fromClusterName(...)";

/**
 * The `cluster` prop, checked before anything reads it (a missing one would otherwise be a raw
 * TypeError deep inside the construct).
 * @throws KarpenterValidationError when `props` or `props.cluster` is missing, or is not an IKarpenterCluster
 */
export function requireCluster(
  scope: IConstruct | string,
  props: { readonly cluster?: IKarpenterCluster } | undefined,
): IKarpenterCluster {
  const cluster = props?.cluster;
  if (cluster instanceof EksCluster) {
    throw new KarpenterValidationError(
      "CLUSTER_REQUIRED",
      scope,
      "cluster",
      cluster.node.path,
      `${CLUSTER_REQUIRED}; this is the EksCluster itself: pass KarpenterCluster.fromEksCluster(cluster)`,
    );
  }
  if (
    cluster === undefined ||
    cluster === null ||
    typeof cluster !== "object" ||
    typeof cluster.clusterName !== "string"
  ) {
    throw new KarpenterValidationError(
      "CLUSTER_REQUIRED",
      scope,
      "cluster",
      cluster === undefined || cluster === null ? cluster : "(not an IKarpenterCluster)",
      CLUSTER_REQUIRED,
    );
  }
  return cluster;
}
