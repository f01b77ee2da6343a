import { IConstruct } from "constructs";
import { Annotations } from "cdktf";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { Ec2Tag } from "@cdktf/provider-aws/lib/ec2-tag";
import { DISCOVERY_TAG_KEY } from "../discovery-tags";
import { IKarpenterCluster } from "../karpenter-cluster";
import { addSynthCheck, oncePerPass } from "./synth-checks";
import { isUnresolved } from "./tokens";

/**
 * A synth-time warning for an EC2NodeClass whose subnet or security group terms are the default
 * `karpenter.sh/discovery` tag term, on a cluster this app creates, when nothing in the app puts
 * that tag anywhere (no `DiscoveryTags`, no `aws_ec2_tag` with the key, no resource with it in its
 * `tags`). Karpenter then finds no subnet or security group and launches no node (the EC2NodeClass
 * stays not Ready: Karpenter docs, EC2NodeClass "subnetSelectorTerms"). A warning, not an error:
 * subnets made outside the app may carry the tag. A cluster the app only reads is not checked.
 */
export function warnWithoutDiscoveryTags(nodeClass: IConstruct, name: string, cluster: IKarpenterCluster): void {
  if (!(cluster.resource instanceof EksCluster)) return;
  let warned = false;
  addSynthCheck(nodeClass, () => {
    if (warned || oncePerPass(hasDiscoveryTag, () => hasDiscoveryTag(nodeClass.node.root))) return [];
    warned = true;
    const which = cluster.clusterNameLiteral !== undefined ? `cluster ${cluster.clusterNameLiteral}` : `the cluster ${cluster.resource.node.path}`;
    Annotations.of(nodeClass).addWarning(
      `EC2NodeClass ${name} selects subnets and security groups by the tag ${DISCOVERY_TAG_KEY} (the default terms), but nothing in this app tags anything with it, and this app creates ${which}: unless subnets and a security group outside the app carry the tag, Karpenter finds none and launches no node. ` +
        `Add new DiscoveryTags(scope, "discovery", { cluster, subnets }) (it also tags the cluster security group), put DiscoveryTags.subnetTags(clusterName) in your subnets' tags, or give subnetSelectorTerms and securityGroupSelectorTerms.`,
    );
    return [];
  });
}

/** True when a construct of the app puts a `karpenter.sh/discovery…` tag on something, or a tag key is unknown at synth. */
function hasDiscoveryTag(root: IConstruct): boolean {
  const isDiscovery = (key: unknown) => typeof key === "string" && (isUnresolved(key) || key.startsWith(DISCOVERY_TAG_KEY));
  return root.node.findAll().some((c) => {
    if (c instanceof Ec2Tag) return isDiscovery(c.keyInput);
    const tags = (c as { tagsInput?: unknown }).tagsInput;
    if (tags === undefined || tags === null) return false;
    if (isUnresolved(tags)) return true;
    return typeof tags === "object" && Object.keys(tags).some(isDiscovery);
  });
}
