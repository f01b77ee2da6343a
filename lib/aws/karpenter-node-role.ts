import { Construct } from "constructs";
import type { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { useProvider } from "../core/provider-choice";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicyAttachment } from "@cdktf/provider-aws/lib/iam-role-policy-attachment";
import { EksAccessEntry } from "@cdktf/provider-aws/lib/eks-access-entry";
import { IKarpenterCluster } from "../cluster/karpenter-cluster";
import { awsContext } from "../aws-api/aws-context";
import { checkOptionKeys, checkTags } from "../aws-api/input-checks";
import { checkNodeRoleOptions } from "./node-role-options";
import { Problems } from "../core/problems";
import { checkedByOwner } from "../core/owner-context";
import { undoOnError } from "../core/undo-on-error";
import { asPartProblems } from "../core/owner-context";
import { NODE_ROLE_PROPS } from "../core/prop-keys";
import { attachPolicies, awsManagedPolicyArn, trustPolicyJson } from "../aws-api/iam";
import { nodePolicyAttachmentKey, nodeRolePolicyNames, replacedOnVersionChange } from "./node-role-policies";
import { recordAccountNames } from "../aws-api/account-names";
import { literalNameFromCluster, nameFromCluster } from "../aws-api/resource-names";
import { resolveKarpenterVersion } from "../versions/karpenter-version";
import { awsProviderFor } from "../cluster/aws-provider";
import { requireCluster } from "../cluster/require-cluster";
import { nodeRoleTagReceivers } from "./tag-receivers";
import { checkPropsReadable, settledProps } from "../core/readable-props";

/** An IAM role that exists outside this construct, for {@link KarpenterNodeRoleProps.existingRole}. */
export interface ExistingNodeRole {
  /** The role name (EC2NodeClass `spec.role`): 1–64 characters, letters, digits and `+=,.@_-`. */
  readonly roleName: string;
  /**
   * The role ARN, `arn:<partition>:iam::<account>:role/<optional path/><name>` (the access entry's
   * principal, and what the controller may `iam:PassRole`). Its last path segment must be `roleName`.
   * An instance profile ARN is not a role ARN: EKS access entries for nodes take the role.
   */
  readonly roleArn: string;
}

/** Props of {@link KarpenterNodeRole}. */
export interface KarpenterNodeRoleProps {
  /** The cluster the nodes join. */
  readonly cluster: IKarpenterCluster;
  /**
   * The Karpenter version, `"1.14.1"`: it selects the managed policies (ECR ReadOnly before 1.4,
   * PullOnly from 1.4; Karpenter getting-started CloudFormation of that version).
   * @default DEFAULT_KARPENTER_VERSION ("1.15.3")
   */
  readonly version?: string;
  /**
   * The IAM role name (1–64 characters: letters, digits, `+=,.@_-`).
   * @default `KarpenterNodeRole-<cluster name>` (as upstream); set it when the cluster name is longer than 46 characters
   */
  readonly roleName?: string;
  /**
   * Bring your own node role: no role and no policy attachments are created, only the access
   * entry. The role must be trusted by `ec2.<partition DNS suffix>` and carry the node policies
   * (AmazonEKS_CNI_Policy, AmazonEKSWorkerNodePolicy, AmazonEC2ContainerRegistryPullOnly — ReadOnly
   * before 1.4 — and AmazonSSMManagedInstanceCore). Cannot be combined with `roleName` or `additionalPolicyArns`.
   * @default a role is created
   */
  readonly existingRole?: ExistingNodeRole;
  /**
   * More policies to attach to the created role (e.g. `AmazonEBSCSIDriverPolicy`), as managed policy
   * ARNs: `arn:<partition>:iam::aws:policy/<path/><name>` or `arn:<partition>:iam::<account>:policy/<path/><name>`.
   * Each policy once, and none of the AWS-managed node policies the role gets anyway: two
   * attachments of one policy would each manage it.
   * @default none
   */
  readonly additionalPolicyArns?: string[];
  /**
   * The AWS provider of the cluster's region and account, for every resource and data source of
   * this construct.
   * @default the cluster's (the `provider` of its `EksCluster` or `DataAwsEksCluster`, the stack's default when it
   * names none) when the cluster is in this stack; else the stack's default AWS provider, which must
   * then be its only one (synth fails naming this prop otherwise)
   */
  readonly provider?: AwsProvider;
  /**
   * Tags for the role and the access entry: at most 50, keys of 1–128 characters not starting
   * with `aws:`, values of at most 256 characters (AWS tag rules).
   * @default none
   */
  readonly tags?: Record<string, string>;
}

/**
 * The IAM role Karpenter gives the nodes it launches, and the EKS access entry (type `EC2_LINUX`)
 * that lets them join the cluster — without it nodes launch but never become Ready.
 *
 * Creates `aws_iam_role` `KarpenterNodeRole-<cluster>` trusted by `ec2.<partition DNS suffix>`
 * (`sts:AssumeRole`), one `aws_iam_role_policy_attachment` per AWS-managed policy of the version
 * (partition-aware ARNs) and per additional ARN, and `aws_eks_access_entry`. With `existingRole`
 * only the access entry. The ECR attachment (ReadOnly before 1.4, PullOnly from 1.4) has one address,
 * `attachment-ecr-pull`, for both and `create_before_destroy`, so a version change across 1.4 attaches
 * the new policy before it detaches the old one (nodes launching meanwhile still pull images). Source: Karpenter getting-started CloudFormation (`KarpenterNodeRole`), v1.0–v1.14.
 *
 * @throws KarpenterValidationError (every problem of the props in one error, thrown before anything is
 * created: a caller that catches it finds neither this construct nor the shared data sources in the tree) for a prop outside the props interface (with a "did you mean" when one is close), a missing `cluster`, an unknown version, a literal role name that breaks the IAM
 * rules (including a default one that gets too long), `existingRole` combined with `roleName` / `additionalPolicyArns`,
 * an `existingRole` whose literal name or ARN is malformed or whose ARN names another role, a literal
 * additional ARN that is not a managed policy ARN (each one named), an ARN given twice or one of the
 * version's node policies, or tags that break the AWS tag rules; at synth, when
 * another construct of the app creates the same role name in the same (or an unknown) AWS account —
 * IAM names are account-wide, so the same cluster name in two regions needs `roleName` on one of them
 */
export class KarpenterNodeRole extends Construct {
  /** The role name, for EC2NodeClass `spec.role`. */
  public readonly roleName: string;
  /** The role ARN (the access entry's principal; the controller may pass it to EC2). */
  public readonly roleArn: string;
  /** The created role; undefined with `existingRole`. */
  public readonly role?: IamRole;
  /** The `aws_eks_access_entry` of type `EC2_LINUX` for the role. */
  public readonly accessEntry: EksAccessEntry;
  /** The policy attachments of the created role (version's managed policies, then additional ones); empty with `existingRole`. */
  public readonly policyAttachments: IamRolePolicyAttachment[];
  /** The Karpenter version the policies were chosen for, e.g. `"1.14.1"`. */
  public readonly version: string;

  constructor(scope: Construct, id: string, props: KarpenterNodeRoleProps) {
    super(scope, id);
    const undo = undoOnError(this);
    try {
      // every problem of the props at once, before the first resource (or shared data source)
      const problems = new Problems();
      // built by a Karpenter, which checked its tags and nodeRole options (checkKarpenterProps): they run there only
      const own = !checkedByOwner(this);
      // a place that throws when read is refused first, alone: every check below would crash on it (a Karpenter
      // refused unreadable props before passing them on)
      if (own) {
        checkPropsReadable(this, props, NODE_ROLE_PROPS);
        // read once: what is checked is what is written (a Karpenter passes its settled props down)
        props = settledProps(props, NODE_ROLE_PROPS);
      }
      problems.check(() => checkOptionKeys(this, "", props, NODE_ROLE_PROPS));
      const cluster = problems.check(() => requireCluster(this, props));
      const version = problems.check(() => resolveKarpenterVersion(this, props?.version));
      if (own) problems.check(() => checkTags(this, props?.tags, nodeRoleTagReceivers(!!props?.existingRole)));
      if (own) problems.check(() => checkNodeRoleOptions(this, "", props ?? {}, version));
      const name =
        cluster && !props.existingRole
          ? problems.check(() =>
              nameFromCluster(this, "iamRole", "roleName", props.roleName, cluster, "KarpenterNodeRole-"),
            )
          : undefined;
      const provider = cluster && problems.check(() => awsProviderFor(scope, this, cluster, props.provider));
      problems.throwIfAny(this); // the catch below undoes the construct
      if (!cluster || !version) throw new Error("unreachable: a failed check is thrown above");
      this.version = version.full;

      if (props.existingRole) {
        this.roleName = props.existingRole.roleName;
        this.roleArn = props.existingRole.roleArn;
        this.policyAttachments = [];
      } else {
        const ctx = awsContext(this, provider);
        const role = new IamRole(this, "role", {
          name: name!,
          description: "Karpenter node role: EC2 instances launched by Karpenter",
          assumeRolePolicy: trustPolicyJson({ Service: `ec2.${ctx.dnsSuffix}` }, ["sts:AssumeRole"]),
          tags: props.tags,
        });
        const names = nodeRolePolicyNames(version);
        const managed = names.map((p) => ({
          key: nodePolicyAttachmentKey(p),
          arn: awsManagedPolicyArn(ctx.partition, p),
        }));
        const additional = (props.additionalPolicyArns ?? []).map((arn, i) => ({ key: `additional-${i}`, arn }));
        this.policyAttachments = attachPolicies(this, role.name, [...managed, ...additional]);
        names.forEach((p, i) => {
          if (replacedOnVersionChange(p)) this.policyAttachments[i].lifecycle = { createBeforeDestroy: true };
        });
        this.role = role;
        this.roleName = role.name;
        this.roleArn = role.arn;
        recordAccountNames(this, [
          {
            kind: "IAM role",
            literal: literalNameFromCluster(props.roleName, cluster, "KarpenterNodeRole-"),
            field: "roleName",
            resource: role,
          },
        ]);
      }

      this.accessEntry = new EksAccessEntry(this, "access-entry", {
        clusterName: cluster.clusterName,
        principalArn: this.roleArn,
        type: "EC2_LINUX",
        tags: props.tags,
      });
      useProvider(this, "aws", provider);
    } catch (e) {
      // a caller that catches the error must find nothing half-built, nor the shared data sources made for it
      undo();
      // built by a composite (Karpenter): told on it, under its prop
      throw asPartProblems(this, e);
    }
  }
}
