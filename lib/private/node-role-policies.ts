// types only: upgrade-plan reads the swaps, and the command line runs without the cdktf peers
import type { Construct, Node } from "constructs";
import type { IamRolePolicyAttachment } from "@cdktf/provider-aws/lib/iam-role-policy-attachment";
import { versionData } from "../versions";
import { KarpenterVersion } from "./version";

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
const SWAPPED_NODE_POLICIES: readonly (readonly [string, string])[] = [["AmazonEC2ContainerRegistryReadOnly", "AmazonEC2ContainerRegistryPullOnly"]];

/** The policy `name` was swapped with (`AmazonEC2ContainerRegistryReadOnly` ↔ `…PullOnly`), else undefined. */
export function swappedNodePolicy(name: string): string | undefined {
  const pair = SWAPPED_NODE_POLICIES.find((p) => p.includes(name));
  return pair && (pair[0] === name ? pair[1] : pair[0]);
}

/**
 * Makes a change of Karpenter version across a policy swap attach the new policy before it detaches
 * the old one. Without this the old attachment (an address no longer in the configuration) and the
 * new one (another address) are destroyed and created in parallel, and nodes launched in between
 * cannot pull images. With it, a `moved` block carries the old attachment's state to the new
 * address, where the other `policy_arn` forces a replacement that `create_before_destroy` orders
 * attach-then-detach. A new install has no old attachment: Terraform ignores the `moved` block.
 *
 * `attachments` are the role's attachments, each with id `<idPrefix><policy name>` under `scope`.
 */
export function attachBeforeDetachOnSwap(scope: Construct, attachments: readonly IamRolePolicyAttachment[], idPrefix: string): void {
  const byPolicy = new Map(attachments.map((a) => [a.node.id.slice(idPrefix.length), a]));
  for (const pair of SWAPPED_NODE_POLICIES) {
    for (const [from, to] of [pair, [pair[1], pair[0]]]) {
      const attachment = byPolicy.get(to);
      if (!attachment || byPolicy.has(from)) continue;
      attachment.moveFromId(`${attachment.terraformResourceType}.${siblingLogicalId(attachment, scope, `${idPrefix}${from}`)}`);
      attachment.lifecycle = { ...attachment.lifecycle, createBeforeDestroy: true };
    }
  }
}

/** The logical ID cdktf would give a construct with id `id` under `scope` (the scope of `sibling`), without creating it. */
function siblingLogicalId(sibling: IamRolePolicyAttachment, scope: Construct, id: string): string {
  // allocateLogicalId reads only `scopes` and each scope's `node.id` from a Node it is given
  const scopes = [...scope.node.scopes, { node: { id } }];
  return sibling.cdktfStack.getLogicalId({ scopes } as unknown as Node);
}
