import { Annotations, Tokenization } from "cdktf";
import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../core/errors";
import { isUnresolved } from "../core/tokens";
import { eksClusterOf } from "./cluster-resource";
import { IKarpenterCluster } from "./karpenter-cluster";

/*
 * EKS Auto Mode (`compute_config { enabled = true }` on aws_eks_cluster) runs AWS's own Karpenter in the
 * control plane: it serves the CRDs nodepools.karpenter.sh and nodeclaims.karpenter.sh itself and manages
 * nodes through the NodeClass eks.amazonaws.com (Amazon EKS User Guide, "Automate cluster infrastructure
 * with EKS Auto Mode" and "Create a Node Pool for EKS Auto Mode"). The karpenter-crd chart installs the same
 * two CRDs and a second controller watches the same NodePools and NodeClaims: the two fight over them.
 */

const why =
  "EKS Auto Mode runs AWS's own Karpenter, which serves nodepools.karpenter.sh and nodeclaims.karpenter.sh itself; the karpenter-crd chart installs the same CRDs and a second controller acts on the same NodePools and NodeClaims, so the two fight over them";
const instead =
  'use Auto Mode\'s own NodePools (no Karpenter install; docs/installing.md, "EKS Auto Mode"), or a cluster without Auto Mode (computeConfig.enabled false or unset)';

/**
 * Refuses to install Karpenter on an `aws_eks_cluster` of the app whose `computeConfig.enabled` is
 * literally true; warns when it is a token, which only apply knows. A cluster read by
 * name (a data source) is not judged: its Auto Mode is not known at synth.
 * @throws KarpenterValidationError on `field`, naming the cluster's computeConfig and why
 */
export function checkNotAutoMode(scope: IConstruct, field: string, cluster: IKarpenterCluster): void {
  const eks = eksClusterOf(cluster);
  const config: unknown = eks?.computeConfigInput;
  if (eks === undefined || config === undefined || config === null) return;
  // a plain block with `enabled` (itself a literal or a token), or the whole block as a token
  const enabled =
    typeof config === "object" && !Tokenization.isResolvable(config) && "enabled" in config
      ? (config as { enabled?: unknown }).enabled
      : config;
  if (
    enabled !== config &&
    typeof enabled !== "boolean" &&
    enabled !== undefined &&
    enabled !== null &&
    !isUnresolved(enabled)
  )
    return;
  if (enabled === undefined || enabled === null || enabled === false) return;
  if (enabled === true) {
    throw new KarpenterValidationError(
      "CLUSTER_AUTO_MODE",
      scope,
      field,
      `${eks.node.path} with computeConfig.enabled = true`,
      `a cluster without EKS Auto Mode: ${why}. Instead, ${instead}`,
    );
  }
  Annotations.of(scope).addWarning(
    `${eks.node.path} sets computeConfig${enabled === config ? "" : ".enabled"} to a value known only at apply: if it enables EKS Auto Mode, do not install Karpenter on it (${why}); ${instead}`,
  );
}
