import { IKarpenterCluster } from "../cluster/karpenter-cluster";
import { literalKubernetesVersion } from "../cluster/kubernetes-compatibility";
import { NodeContext } from "./node-semantic-rules";
import { isUnresolved } from "../core/tokens";
import { awsLocation } from "../aws-api/aws-context";
import { clusterElement } from "../cluster/cluster-resource";

/** What node objects of `cluster` can know at synth: its literal Kubernetes version and region. */
export function nodeContextOf(cluster: IKarpenterCluster | undefined): NodeContext {
  if (!cluster) return {};
  // hashicorp/aws 6 lets a resource name its own region, over the provider's
  const own = clusterElement(cluster).regionInput;
  const region = typeof own === "string" && !isUnresolved(own) ? own : awsLocation(clusterElement(cluster)).region;
  return { kubernetesVersion: literalKubernetesVersion(cluster), region };
}
