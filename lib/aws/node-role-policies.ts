// no cdktf import: upgrade-plan reads the swaps, and the command line runs without the cdktf peers
import { versionData } from "../versions";
import { KarpenterVersion } from "../versions/karpenter-version";

/*
 * The AWS-managed policies of the Karpenter node role per minor: `KarpenterNodeRole.ManagedPolicyArns`
 * of the getting-started CloudFormation template (aws/karpenter-provider-aws, each release tag), as
 * `npm run add-version` put them into lib/versions/data/ (ECR ReadOnly became PullOnly in 1.4).
 */

/** The names of the AWS-managed policies (`arn:<partition>:iam::aws:policy/<name>`) the node role of version `v` gets. */
export function nodeRolePolicyNames(v: KarpenterVersion): string[] {
  return [...versionData(v.factsMinor).nodeRolePolicies];
}

/**
 * Node policies one minor swapped for another with the same job, as pairs: 1.4 replaced
 * `AmazonEC2ContainerRegistryReadOnly` with `AmazonEC2ContainerRegistryPullOnly` (shared/reference/
 * karpenter/POLICY-CHANGES.md, v1.4 row). Nodes pull images with whichever is attached, so a change
 * of version must never leave the role with neither.
 */
const SWAPPED_NODE_POLICIES: readonly (readonly [string, string])[] = [
  ["AmazonEC2ContainerRegistryReadOnly", "AmazonEC2ContainerRegistryPullOnly"],
];

/** The policy `name` was swapped with (`AmazonEC2ContainerRegistryReadOnly` ↔ `…PullOnly`), else undefined. */
export function swappedNodePolicy(name: string): string | undefined {
  const pair = SWAPPED_NODE_POLICIES.find((p) => p.includes(name));
  return pair && (pair[0] === name ? pair[1] : pair[0]);
}

/**
 * The key of the node role's attachment of the AWS-managed policy `name` (its construct id is
 * `attachment-<key>`): the policy name, except that both ECR policies share `ecr-pull`. One address
 * for the ECR attachment makes a version change across 1.4 a replacement of that attachment (another
 * `policy_arn` forces it), which `create_before_destroy` orders attach-then-detach; two addresses
 * would be destroyed and created in parallel, leaving nodes launched meanwhile unable to pull images.
 */
export function nodePolicyAttachmentKey(name: string): string {
  return swappedNodePolicy(name) === undefined ? name : "ecr-pull";
}

/** Whether the attachment of policy `name` is replaced create-before-destroy (its policy changes with the version). */
export function replacedOnVersionChange(name: string): boolean {
  return swappedNodePolicy(name) !== undefined;
}
