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
