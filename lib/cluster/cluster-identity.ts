import { IKarpenterCluster } from "./karpenter-cluster";
import { awsLocation } from "../aws-api/aws-context";
import { clusterElement } from "./cluster-resource";

/*
 * Whether two installs name the same EKS cluster (one install per cluster): clusters are compared
 * by resource, or by literal name within one AWS region and account.
 */

/**
 * Whether two installs target the same cluster: the same cluster resource, or the same literal name
 * unless their AWS providers are known to point at different regions or accounts (the same name in
 * two regions is two clusters).
 */
export function sameInstallTarget(a: IKarpenterCluster, b: IKarpenterCluster): boolean {
  if (a.resource === b.resource) return true;
  if (a.clusterNameLiteral === undefined || a.clusterNameLiteral !== b.clusterNameLiteral) return false;
  const [pa, pb] = [awsLocation(clusterElement(a)), awsLocation(clusterElement(b))];
  const differ = (x: string | undefined, y: string | undefined) => x !== undefined && y !== undefined && x !== y;
  return !(differ(pa.region, pb.region) || differ(pa.account, pb.account));
}
