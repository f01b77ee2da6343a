import { KarpenterVersion } from "./version";
import { always, forVersion, since, until } from "./versioned";

/*
 * The AWS-managed policies of the Karpenter node role per minor: `KarpenterNodeRole.ManagedPolicyArns`
 * of the getting-started CloudFormation template (aws/karpenter-provider-aws, each release tag).
 * The only change from 1.0 to 1.14: ECR ReadOnly became PullOnly in 1.4.
 */
const NODE_ROLE_POLICIES = [
  always("AmazonEKS_CNI_Policy"),
  always("AmazonEKSWorkerNodePolicy"),
  until("1.4", "AmazonEC2ContainerRegistryReadOnly"),
  since("1.4", "AmazonEC2ContainerRegistryPullOnly"),
  always("AmazonSSMManagedInstanceCore"),
];

/** The names of the AWS-managed policies (`arn:<partition>:iam::aws:policy/<name>`) the node role of version `v` gets. */
export function nodeRolePolicyNames(v: KarpenterVersion): string[] {
  return forVersion(v, NODE_ROLE_POLICIES);
}
