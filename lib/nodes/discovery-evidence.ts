import { IConstruct } from "constructs";
import { Ec2Tag } from "@cdktf/provider-aws/lib/ec2-tag";
import { DISCOVERY_TAG_KEY } from "../cluster/discovery-tags";
import { IKarpenterCluster } from "../cluster/karpenter-cluster";
import { addSynthWarning } from "../core/synth-checks";
import { appIndex } from "../core/app-index";
import { isUnresolved } from "../core/tokens";
import { eksClusterOf } from "../cluster/cluster-resource";

/**
 * A synth-time warning for an EC2NodeClass whose subnet or security group terms are the default
 * discovery tag term (`tagKey`: `karpenter.sh/discovery`, or a per-cluster key such as
 * `karpenter.sh/discovery/blue`), on a cluster this app creates, when nothing in the app puts
 * that key anywhere (no `DiscoveryTags`, no `aws_ec2_tag` with the key, no resource with it in its
 * `tags`): a `DiscoveryTags` with another key (a shared VPC's per-cluster key given to the tags but
 * not to the install) is no evidence. Karpenter then finds no subnet or security group and launches no node (the EC2NodeClass
 * stays not Ready: Karpenter docs, EC2NodeClass "subnetSelectorTerms"). A warning, not an error:
 * subnets made outside the app may carry the tag. A cluster the app only reads is not checked.
 */
export function warnWithoutDiscoveryTags(
  nodeClass: IConstruct,
  name: string,
  cluster: IKarpenterCluster,
  tagKey: string = DISCOVERY_TAG_KEY,
): void {
  if (!eksClusterOf(cluster)) return;
  addSynthWarning(nodeClass, () => {
    // one walk of the app for all its stacks' validation passes (a fleet has a nodes stack per cluster)
    if (isUnresolved(tagKey)) return undefined;
    const evidence = appIndex(nodeClass, "discovery-tag-evidence", () => discoveryTagKeys(nodeClass.node.root));
    if (evidence === "any" || evidence.has(tagKey)) return undefined;
    const which =
      cluster.clusterNameLiteral !== undefined
        ? `cluster ${cluster.clusterNameLiteral}`
        : `the cluster ${cluster.resource.node.path}`;
    return {
      on: nodeClass,
      message:
        `EC2NodeClass ${name} selects subnets and security groups by the tag ${tagKey} (the default terms), but nothing in this app tags anything with it, and this app creates ${which}: unless subnets and a security group outside the app carry the tag, Karpenter finds none and launches no node. ` +
        (evidence.size > 0
          ? `The app's discovery tags use ${[...evidence].sort().join(", ")}: give the install (Karpenter discoveryTagKey) or this EC2NodeClass (discoveryTagKey) the key its cluster's DiscoveryTags use, or the DiscoveryTags this key (tagKey).`
          : `Add new DiscoveryTags(scope, "discovery", { cluster, subnets }) (it also tags the cluster security group), put DiscoveryTags.subnetTags(clusterName) in your subnets' tags, or give subnetSelectorTerms and securityGroupSelectorTerms.`),
    };
  });
}

/**
 * The `karpenter.sh/discovery…` tag keys constructs of the app put on something, or `"any"` when a
 * tag key or a `tags` map is unknown at synth (it may be any key).
 */
function discoveryTagKeys(root: IConstruct): Set<string> | "any" {
  const keys = new Set<string>();
  const add = (key: unknown): boolean => {
    if (typeof key !== "string") return false;
    if (isUnresolved(key)) return true;
    if (key.startsWith(DISCOVERY_TAG_KEY)) keys.add(key);
    return false;
  };
  for (const c of root.node.findAll()) {
    if (c instanceof Ec2Tag) {
      if (add(c.keyInput)) return "any";
      continue;
    }
    const tags = (c as { tagsInput?: unknown }).tagsInput;
    if (tags === undefined || tags === null) continue;
    if (isUnresolved(tags)) return "any";
    if (typeof tags === "object" && Object.keys(tags).some(add)) return "any";
  }
  return keys;
}
