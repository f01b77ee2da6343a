import { Construct } from "constructs";
import type { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { useProvider } from "../core/provider-choice";
import {
  Annotations,
  Fn,
  ITerraformDependable,
  Lazy,
  TerraformLocal,
  TerraformProvider,
  TerraformStack,
  Token,
} from "cdktf";
import type { IamOpenidConnectProvider } from "@cdktf/provider-aws/lib/iam-openid-connect-provider";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamPolicy } from "@cdktf/provider-aws/lib/iam-policy";
import { EksPodIdentityAssociation } from "@cdktf/provider-aws/lib/eks-pod-identity-association";
import { KarpenterValidationError } from "../core/errors";
import { IKarpenterCluster } from "../cluster/karpenter-cluster";
import { DEFAULT_KARPENTER_NAMESPACE } from "../helm/karpenter-crd-release";
import { DEFAULT_SERVICE_ACCOUNT_NAME } from "../helm/karpenter-release";
import { awsContext } from "../aws-api/aws-context";
import { stackIndex, stacksOf } from "../core/app-index";
import { controllerPolicyGroups } from "./controller-policy";
import {
  checkKmsKeyArn,
  checkOptionKeys,
  checkPolicyArns,
  checkQueueArn,
  checkRoleArn,
  checkTags,
} from "../aws-api/input-checks";
import { Problems } from "../core/problems";
import { checkedByOwner } from "../core/owner-context";
import { undoOnError } from "../core/undo-on-error";
import { asPartProblems } from "../core/owner-context";
import { CONTROLLER_ROLE_PROPS } from "../core/prop-keys";
import {
  checkAdditionalStatements,
  checkIdentity,
  checkPolicyNameSuffix,
  controllerPolicyOutline,
  policyKeys,
  policyNamePrefix,
  statementsJson,
} from "./controller-role-checks";
import { attachPolicies, policyJson, trustPolicyJson } from "../aws-api/iam";
import { checkNamespace, checkServiceAccountName } from "../kubernetes/names";
import { recordAccountNames } from "../aws-api/account-names";
import { literalNameFromCluster, nameFromCluster } from "../aws-api/resource-names";
import { resolvedReference } from "../core/tokens";
import { resolveKarpenterVersion } from "../versions/karpenter-version";
import { awsProviderFor } from "../cluster/aws-provider";
import type { ControllerIdentity, IamPolicyStatement } from "./controller-role-spec";
import { requireCluster } from "../cluster/require-cluster";
import { CONTROLLER_ROLE_TAG_RECEIVERS } from "./tag-receivers";
import { eksClusterOf } from "../cluster/cluster-resource";
import { checkPropsReadable, settledProps } from "../core/readable-props";

/** The node role the controller may pass to EC2, for {@link KarpenterControllerRoleProps.nodeRole}; a {@link KarpenterNodeRole} is one. */
export interface NodeRoleReference {
  /**
   * The role's ARN, `arn:<partition>:iam::<12-digit account>:role/<optional path/><name>` (usually a
   * reference; a literal one is checked): the resource of the controller's `iam:PassRole` statement
   * (Sid `AllowPassingInstanceRole`).
   */
  readonly roleArn: string;
}

/** The interruption queue the controller reads, for {@link KarpenterControllerRoleProps.interruptionQueue}; an {@link InterruptionQueue} is one. */
export interface InterruptionQueueReference {
  /**
   * The queue's ARN, `arn:<partition>:sqs:<region>:<12-digit account>:<queue name>` (usually a
   * reference; a literal one is checked, so that e.g. an SNS topic ARN is refused): the
   * resource of the controller's `sqs:ReceiveMessage` / `sqs:DeleteMessage` / `sqs:GetQueueUrl`
   * statement (Sid `AllowInterruptionQueueActions`).
   */
  readonly queueArn: string;
  /**
   * The customer-managed KMS key the queue is encrypted with, `arn:<partition>:kms:<region>:<account>:key/<key id>`
   * (not an alias; a literal one is checked): the controller gets `kms:Decrypt` on it (Sid `AllowInterruptionQueueDecryption`).
   * @default none (SQS-managed SSE: no KMS statement)
   */
  readonly kmsKeyArn?: string;
}

/** Props of {@link KarpenterControllerRole}. */
export interface KarpenterControllerRoleProps {
  /** The cluster the controller manages. */
  readonly cluster: IKarpenterCluster;
  /**
   * The Karpenter version, `"1.14.1"`: it selects the policy statements (Karpenter getting-started
   * CloudFormation of that version).
   * @default DEFAULT_KARPENTER_VERSION ("1.15.3")
   */
  readonly version?: string;
  /** The node role the controller passes to EC2 (`iam:PassRole`); a {@link KarpenterNodeRole} fits. */
  readonly nodeRole: NodeRoleReference;
  /**
   * The interruption queue the controller reads; an {@link InterruptionQueue} fits. With a
   * `kmsKeyArn` the controller also gets `kms:Decrypt` on that key (Sid `AllowInterruptionQueueDecryption`).
   * @default no queue: no `AllowInterruptionQueueActions` statement, no Interruption policy
   */
  readonly interruptionQueue?: InterruptionQueueReference;
  /**
   * Pod Identity (`{ type: "podIdentity" }`) or IRSA (`{ type: "irsa", oidcProviderArn? }`).
   * @default { type: "podIdentity" }
   */
  readonly identity?: ControllerIdentity;
  /**
   * The controller's namespace (a DNS label, ≤ 63 characters).
   * @default "kube-system"
   */
  readonly namespace?: string;
  /**
   * The controller's service account name.
   * @default "karpenter"
   */
  readonly serviceAccountName?: string;
  /**
   * The IAM role name (1–64 characters: letters, digits, `+=,.@_-`).
   * @default `KarpenterControllerRole-<cluster name>`; set it when the cluster name is longer than 40 characters
   */
  readonly roleName?: string;
  /**
   * What follows `KarpenterController<Group>Policy-` in the managed policy names: letters, digits and
   * `+=,.@_-`, as long as the longest name stays within IAM's 128 characters (the longest group,
   * ResourceDiscovery, leaves 85).
   * @default the cluster name (as upstream)
   */
  readonly policyNameSuffix?: string;
  /**
   * Extra statements, put in their own managed policy `KarpenterControllerAdditionalPolicy-<suffix>`.
   * @default none
   */
  readonly additionalStatements?: IamPolicyStatement[];
  /**
   * More managed policy ARNs to attach to the role: `arn:<partition>:iam::aws:policy/<path/><name>`
   * or `arn:<partition>:iam::<account>:policy/<path/><name>`.
   * Each policy once: two attachments of one policy would each manage it.
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
   * Tags for the role, its policies and the pod identity association: at most 50, keys of 1–128
   * characters not starting with `aws:`, values of at most 256 characters (AWS tag rules).
   * @default none
   */
  readonly tags?: Record<string, string>;
}

/**
 * The Karpenter controller's IAM role: its identity (Pod Identity by default, or IRSA) and the
 * official controller policy of the version, statement for statement with the official Sids.
 *
 * Creates `aws_iam_role` (trusted by `pods.eks.amazonaws.com` with `sts:AssumeRole` +
 * `sts:TagSession`, or by the cluster's OIDC provider for the service account), one `aws_iam_policy`
 * per group (NodeLifecycle, IAMIntegration, EKSIntegration, Interruption, ZonalShift from 1.12,
 * ResourceDiscovery — the upstream 1.9+ layout, used for every version so that each policy stays
 * under 6,144 characters even for a 100-character cluster name in aws-us-gov; upstream's single
 * pre-1.9 policy does not), `aws_iam_role_policy_attachment`s, and with Pod Identity an
 * `aws_eks_pod_identity_association`. Partition, region and account come from data sources;
 * cluster, node role and queue from the graph. Source: Karpenter getting-started CloudFormation, v1.0–v1.14.
 *
 * With IRSA the trust names the cluster's IAM OIDC provider: the app's `IamOpenidConnectProvider`
 * for the cluster's issuer when there is one, else a derived ARN (see {@link IrsaControllerIdentity.oidcProviderArn}).
 *
 * @throws KarpenterValidationError (every problem of the props in one error, thrown before anything is
 * created: a caller that catches it finds neither this construct nor the shared data sources in the
 * tree) for a prop outside the props interface (with a "did you mean" when one is close), a missing `cluster` or `nodeRole`, an unknown version or
 * identity type, bad literal names (role, policy name suffix, namespace, service account), literal
 * ARNs of the wrong kind (`nodeRole.roleArn` not an IAM role ARN, `interruptionQueue.queueArn` not an
 * SQS queue ARN, its `kmsKeyArn` not a KMS key ARN, an OIDC provider ARN that is not one),
 * additional statements with malformed actions or resources, conditions whose operator is not IAM's,
 * whose key is empty or that have no values, that reuse an official Sid or overflow
 * a managed policy, literal additional ARNs that are not managed policy ARNs, or tags that break the AWS tag rules;
 * at synth, when another construct of the app creates the same role or policy name in the same (or an
 * unknown) AWS account — IAM names are account-wide, so the same cluster name in two regions needs
 * `roleName` and `policyNameSuffix` on one of them
 */
export class KarpenterControllerRole extends Construct {
  /** The `aws_iam_role`. */
  public readonly role: IamRole;
  /**
   * The role's ARN, `arn:<partition>:iam::<account>:role/<name>` (a reference): what the pod identity
   * association binds, or the IRSA ServiceAccount annotation names.
   */
  public readonly roleArn: string;
  /** The role's name (a reference), `roleName` or `KarpenterControllerRole-<cluster name>`. */
  public readonly roleName: string;
  /** The managed policies attached to the role, in upstream order (then the additional one). */
  public readonly policies: IamPolicy[];
  /** The `aws_eks_pod_identity_association`, with Pod Identity. */
  public readonly podIdentityAssociation?: EksPodIdentityAssociation;
  /** Which identity the controller uses. */
  public readonly identityType: "podIdentity" | "irsa";
  /** The controller's namespace. */
  public readonly namespace: string;
  /** The controller's service account name. */
  public readonly serviceAccountName: string;
  /** What the controller's Helm release must wait for: the association (Pod Identity) and the policy attachments. */
  public readonly dependables: ITerraformDependable[];
  /** The Karpenter version the policy was written for, e.g. `"1.14.1"`. */
  public readonly version: string;
  /** The AWS provider of every resource here (undefined: the stack's default). */
  private readonly awsProvider?: TerraformProvider;

  constructor(scope: Construct, id: string, props: KarpenterControllerRoleProps) {
    super(scope, id);
    const undo = undoOnError(this);
    try {
      // every problem of the props at once, before the first resource (or shared data source)
      const problems = new Problems();
      // built by a Karpenter, which checked its tags, policy ARNs, namespace and ServiceAccount (checkKarpenterProps):
      // they run there only
      const own = !checkedByOwner(this);
      // a place that throws when read is refused first, alone: every check below would crash on it (a Karpenter
      // refused unreadable props before passing them on)
      if (own) {
        checkPropsReadable(this, props, CONTROLLER_ROLE_PROPS);
        // read once: what is checked is what is written (a Karpenter passes its settled props down)
        props = settledProps(props, CONTROLLER_ROLE_PROPS);
      }
      problems.check(() => checkOptionKeys(this, "", props, CONTROLLER_ROLE_PROPS));
      const cluster = problems.check(() => requireCluster(this, props));
      if (props?.nodeRole === undefined || props.nodeRole === null || typeof props.nodeRole.roleArn !== "string") {
        const given =
          props?.nodeRole === undefined || props.nodeRole === null
            ? props?.nodeRole
            : "(an object without a roleArn string)";
        problems.add(
          new KarpenterValidationError(
            "CONTROLLER_ROLE_NODE_ROLE_MISSING",
            this,
            "nodeRole",
            given,
            "nodeRole is required: the node role the controller passes to EC2, a KarpenterNodeRole or { roleArn }",
          ),
        );
      } else {
        problems.check(() => checkRoleArn(this, "nodeRole.roleArn", props.nodeRole.roleArn));
      }
      const queue = props?.interruptionQueue;
      if (queue !== undefined && (queue === null || typeof queue !== "object" || typeof queue.queueArn !== "string")) {
        problems.add(
          new KarpenterValidationError(
            "CONTROLLER_ROLE_QUEUE",
            this,
            "interruptionQueue",
            queue === null || typeof queue !== "object" ? queue : "(an object without a queueArn string)",
            "an InterruptionQueue or { queueArn, kmsKeyArn? }",
          ),
        );
      } else if (queue !== undefined) {
        problems.check(() => checkQueueArn(this, "interruptionQueue.queueArn", queue.queueArn));
        if (queue.kmsKeyArn !== undefined)
          problems.check(() => checkKmsKeyArn(this, "interruptionQueue.kmsKeyArn", queue.kmsKeyArn));
      }
      const version = problems.check(() => resolveKarpenterVersion(this, props?.version));
      if (own) problems.check(() => checkTags(this, props?.tags, CONTROLLER_ROLE_TAG_RECEIVERS));
      if (own) problems.check(() => checkPolicyArns(this, "additionalPolicyArns", props?.additionalPolicyArns));
      const identity = problems.check(() => checkIdentity(this, "identity", props?.identity)) ?? {
        type: "podIdentity",
      };
      const shape = { queue: queue !== undefined, kmsKey: !!queue?.kmsKeyArn };
      const outline = version && controllerPolicyOutline(version, shape);
      problems.check(() =>
        checkAdditionalStatements(this, "additionalStatements", props?.additionalStatements, outline?.sids ?? []),
      );
      this.namespace = props?.namespace ?? DEFAULT_KARPENTER_NAMESPACE;
      this.serviceAccountName = props?.serviceAccountName ?? DEFAULT_SERVICE_ACCOUNT_NAME;
      if (own) problems.check(() => checkNamespace(this, "namespace", this.namespace));
      if (own) problems.check(() => checkServiceAccountName(this, "serviceAccountName", this.serviceAccountName));
      const roleName =
        cluster &&
        problems.check(() =>
          nameFromCluster(this, "iamRole", "roleName", props.roleName, cluster, "KarpenterControllerRole-"),
        );
      const policyKeyList = version && policyKeys(version, shape, props?.additionalStatements);
      if (cluster && policyKeyList)
        problems.check(() => this.checkPolicyNames(cluster, policyKeyList, props.policyNameSuffix));
      const provider = cluster && problems.check(() => awsProviderFor(scope, this, cluster, props.provider));
      problems.throwIfAny(this); // the catch below undoes the construct
      if (!cluster || !version || roleName === undefined)
        throw new Error("unreachable: a failed check is thrown above");
      this.version = version.full;
      this.identityType = identity.type;
      this.awsProvider = provider;
      const ctx = awsContext(this, provider);

      const groups = controllerPolicyGroups(version, {
        partition: ctx.partition,
        region: ctx.region,
        account: ctx.accountId,
        clusterName: cluster.clusterName,
        clusterArn: cluster.clusterArn,
        nodeRoleArn: props.nodeRole.roleArn,
        queueArn: queue?.queueArn,
        kmsKeyArn: queue?.kmsKeyArn,
      });
      const extra = statementsJson(props.additionalStatements ?? []);
      const documents = [...groups, ...(extra.length ? [{ key: "Additional", statements: extra }] : [])];
      const policyName = (group: string) =>
        `${policyNamePrefix(group)}${props.policyNameSuffix ?? cluster.clusterName}`;

      this.role = new IamRole(this, "role", {
        name: roleName,
        description: `Karpenter controller (${this.namespace}/${this.serviceAccountName})`,
        assumeRolePolicy:
          identity.type === "irsa" ? this.irsaTrust(cluster, identity.oidcProviderArn) : this.podIdentityTrust(cluster),
        tags: props.tags,
      });
      this.roleArn = this.role.arn;
      this.roleName = this.role.name;
      this.policies = documents.map(
        (g) =>
          new IamPolicy(this, `policy-${g.key}`, {
            name: policyName(g.key),
            path: "/",
            // no version here: a changed description would replace the policy on every upgrade
            description: `Karpenter controller ${g.key} permissions`,
            policy: policyJson(g.statements),
            tags: props.tags,
          }),
      );
      recordAccountNames(this, [
        {
          kind: "IAM role",
          literal: literalNameFromCluster(props.roleName, cluster, "KarpenterControllerRole-"),
          field: "roleName",
          resource: this.role,
        },
        ...this.policies.map((p, i) => ({
          kind: "IAM managed policy" as const,
          literal: this.literalPolicyName(documents[i].key, cluster, props.policyNameSuffix),
          field: "policyNameSuffix",
          resource: p,
          shown: props.policyNameSuffix ?? cluster.clusterNameLiteral,
        })),
      ]);
      const attachments = attachPolicies(this, this.role.name, [
        ...this.policies.map((p, i) => ({ key: documents[i].key, arn: p.arn })),
        ...(props.additionalPolicyArns ?? []).map((arn, i) => ({ key: `additional-${i}`, arn })),
      ]);

      if (identity.type === "podIdentity") {
        this.podIdentityAssociation = new EksPodIdentityAssociation(this, "pod-identity", {
          clusterName: cluster.clusterName,
          namespace: this.namespace,
          serviceAccount: this.serviceAccountName,
          roleArn: this.role.arn,
          tags: props.tags,
        });
      }
      this.dependables = [...(this.podIdentityAssociation ? [this.podIdentityAssociation] : []), ...attachments];
      useProvider(this, "aws", provider);
    } catch (e) {
      // a caller that catches the error must find nothing half-built, nor the shared data sources made for it
      undo();
      // built by a composite (Karpenter): told on it, under its prop
      throw asPartProblems(this, e);
    }
  }

  /**
   * The managed policy names, `KarpenterController<Group>Policy-<suffix or cluster name>`: a given
   * suffix against what the longest name leaves it, else the longest name derived from a literal
   * cluster name against IAM's limit.
   * @throws KarpenterValidationError on `policyNameSuffix`
   */
  private checkPolicyNames(cluster: IKarpenterCluster, keys: readonly string[], suffix: string | undefined): void {
    if (suffix !== undefined) return checkPolicyNameSuffix(this, "policyNameSuffix", suffix, keys);
    const longest = keys.map(policyNamePrefix).reduce((a, b) => (b.length > a.length ? b : a), "");
    nameFromCluster(this, "iamPolicy", "policyNameSuffix", undefined, cluster, longest);
  }

  /**
   * Pod Identity trust for exactly this cluster, namespace and service account: the session tags EKS
   * Pod Identity adds (on unless an association disables them; ours does not) are conditions, so
   * another association in the account cannot use this role even where someone may pass it
   * (Amazon EKS User Guide, "Create IAM role with trust policy required by EKS Pod Identity",
   * "Setting Conditions", and "Grant Pods access to AWS resources based on tags": session tags).
   */
  private podIdentityTrust(cluster: IKarpenterCluster): string {
    return trustPolicyJson({ Service: "pods.eks.amazonaws.com" }, ["sts:AssumeRole", "sts:TagSession"], {
      StringEquals: {
        "aws:RequestTag/eks-cluster-arn": cluster.clusterArn,
        "aws:RequestTag/kubernetes-namespace": this.namespace,
        "aws:RequestTag/kubernetes-service-account": this.serviceAccountName,
      },
    });
  }

  /** A managed policy's name when known at synth. */
  private literalPolicyName(group: string, cluster: IKarpenterCluster, suffix?: string): string | undefined {
    const prefix = policyNamePrefix(group);
    return literalNameFromCluster(suffix === undefined ? undefined : `${prefix}${suffix}`, cluster, prefix);
  }

  /**
   * Federated trust on the cluster's OIDC provider, for exactly this service account. Without a
   * given ARN the provider is looked up when the trust is resolved at synth, so that one declared
   * after this construct is found too.
   */
  private irsaTrust(cluster: IKarpenterCluster, providerArn?: string): string {
    // a local keeps the condition keys plain references: an inline replace("https://", "") would put quotes inside the JSON
    const issuer = new TerraformLocal(this, "oidc-issuer", Fn.replace(cluster.oidcIssuerUrl, "https://", "")).asString;
    const trust = (arn: string) =>
      trustPolicyJson({ Federated: arn }, "sts:AssumeRoleWithWebIdentity", {
        StringEquals: {
          [`${issuer}:sub`]: `system:serviceaccount:${this.namespace}:${this.serviceAccountName}`,
          [`${issuer}:aud`]: "sts.amazonaws.com",
        },
      });
    if (providerArn !== undefined) return trust(providerArn);
    const ctx = awsContext(this, this.awsProvider);
    const derived = `arn:${ctx.partition}:iam::${ctx.accountId}:oidc-provider/${issuer}`;
    let warned = false;
    // a validation, not the lazy value: annotations are collected after validations and before the stack is resolved
    this.node.addValidation({
      validate: () => {
        if (warned || findOidcProvider(this, cluster)) return [];
        const which =
          cluster.clusterNameLiteral !== undefined
            ? `cluster ${cluster.clusterNameLiteral}`
            : `the cluster (${cluster.resource.node.path})`;
        warned = true;
        if (eksClusterOf(cluster)) {
          Annotations.of(this).addWarning(
            `IRSA needs the IAM OIDC provider of ${which}, and nothing in this app creates it: add an aws_iam_openid_connect_provider ` +
              `(new IamOpenidConnectProvider(scope, "oidc", { url: <cluster>.identity.get(0).oidc.get(0).issuer, clientIdList: ["sts.amazonaws.com"] })), ` +
              `or pass identity.oidcProviderArn of one that exists. Until then the role trusts an OIDC provider ARN derived from the issuer, and the controller cannot assume it.`,
          );
        } else {
          // a cluster read with a data source may or may not have its provider: the app cannot tell, so say what it depends on
          Annotations.of(this).addWarning(
            `IRSA needs the IAM OIDC provider of ${which}, which is not created by this app (read with a data source), and nothing in this app creates the provider: ` +
              `make sure it exists in the account (EKS user guide, "Create an IAM OIDC provider for your cluster"; e.g. eksctl utils associate-iam-oidc-provider --cluster <name> --approve), ` +
              `or add an IamOpenidConnectProvider for the cluster's issuer, or pass identity.oidcProviderArn. The role trusts the provider ARN derived from the issuer; without that provider the controller cannot assume it.`,
          );
        }
        return [];
      },
    });
    return Lazy.stringValue({ produce: () => trust(findOidcProvider(this, cluster)?.arn ?? derived) });
  }
}

/**
 * The app's `aws_iam_openid_connect_provider` whose url is the cluster's OIDC issuer URL: the same
 * string, or (both in the cluster's stack) the same reference once resolved — every
 * `identity.get(0).oidc.get(0).issuer` is a new token for the same attribute.
 */
function findOidcProvider(scope: Construct, cluster: IKarpenterCluster): IamOpenidConnectProvider | undefined {
  const issuer = cluster.oidcIssuerUrl;
  const stack = TerraformStack.of(cluster.resource);
  let resolvedIssuer: string | undefined;
  const all = stacksOf(scope).flatMap((s) => stackIndex(s).byType.get("aws_iam_openid_connect_provider") ?? []);
  return all.find((c): c is IamOpenidConnectProvider => {
    // by resource type (the stack index's): importing the class only for this check would load it on every synth
    const url = (c as IamOpenidConnectProvider).urlInput;
    if (url === undefined) return false;
    if (url === issuer) return true;
    if (!Token.isUnresolved(url) || !Token.isUnresolved(issuer) || TerraformStack.of(c) !== stack) return false;
    resolvedIssuer ??= resolvedReference(stack, issuer);
    return resolvedReference(stack, url) === resolvedIssuer;
  });
}
