/*
 * The controller role's value types: its identity and the extra IAM statements. They are shared by
 * KarpenterControllerRole, Karpenter (controllerRole) and their checks (controller-role-checks.ts),
 * so they live apart from the construct that imports those checks (as nodes/*-spec.ts do).
 */

/** Pod Identity: the EKS Pod Identity agent hands the role to the controller's service account. */
export interface PodIdentityControllerIdentity {
  /** Selects Pod Identity (trust `pods.eks.amazonaws.com` + `aws_eks_pod_identity_association`). */
  readonly type: "podIdentity";
}

/** IRSA: the service account's projected token is exchanged through the cluster's IAM OIDC provider. */
export interface IrsaControllerIdentity {
  /** Selects IRSA (IAM roles for service accounts: federated trust, no association). */
  readonly type: "irsa";
  /**
   * The ARN of the cluster's IAM OIDC provider, `arn:<partition>:iam::<account>:oidc-provider/<issuer host and path>`.
   *
   * When not given, the app is searched at synth (so the provider may be declared before or after
   * this construct) for an `IamOpenidConnectProvider` whose `url` is the cluster's OIDC issuer URL
   * (the same reference, e.g. `eks.identity.get(0).oidc.get(0).issuer`): the trust then names its
   * `arn`, which also orders the role after the provider. Without one, the ARN is derived from the
   * issuer in this stack's account and partition, so the provider must exist; when the cluster is
   * an `EksCluster` of this app, synth warns that nothing creates it. Create it with
   * `new IamOpenidConnectProvider(scope, "oidc", { url: <issuer URL>, clientIdList: ["sts.amazonaws.com"] })`
   * (EKS user guide, "Create an IAM OIDC provider for your cluster").
   * @default the app's `IamOpenidConnectProvider` for the cluster's issuer, else derived from the issuer URL
   */
  readonly oidcProviderArn?: string;
}

/**
 * How the controller gets its role: `{ type: "podIdentity" }` ({@link PodIdentityControllerIdentity})
 * or `{ type: "irsa", oidcProviderArn? }` ({@link IrsaControllerIdentity}). One struct for both, so that
 * every jsii language has a typed prop (a union of structs reaches Java, .NET and Go as an untyped
 * object); `oidcProviderArn` with `type: "podIdentity"` is refused, naming the field.
 */
export interface ControllerIdentity {
  /** `"podIdentity"` (EKS Pod Identity: trust `pods.eks.amazonaws.com` + `aws_eks_pod_identity_association`) or `"irsa"` (IAM roles for service accounts: federated trust, no association). */
  readonly type: "podIdentity" | "irsa";
  /**
   * With `type: "irsa"` only: the ARN of the cluster's IAM OIDC provider; see {@link IrsaControllerIdentity.oidcProviderArn}.
   * @default the app's `IamOpenidConnectProvider` for the cluster's issuer, else derived from the issuer URL
   */
  readonly oidcProviderArn?: string;
}

/** One extra IAM statement for {@link KarpenterControllerRoleProps.additionalStatements}. */
export interface IamPolicyStatement {
  /**
   * The statement id (letters and digits); it must not be one of the official Sids.
   * @default `Additional<index>`
   */
  readonly sid?: string;
  /**
   * Allow or deny.
   * @default "Allow"
   */
  readonly effect?: "Allow" | "Deny";
  /** IAM actions, at least one: `"*"` or `"<service>:<action>"` with optional wildcards, e.g. `["ec2:DescribeVpcs", "ec2:Describe*"]`. */
  readonly actions: string[];
  /** Resource ARNs (`arn:…`, wildcards allowed) or `"*"`; at least one. */
  readonly resources: string[];
  /**
   * Conditions, as in `aws_iam_policy_document`: `{ test: "StringEquals", variable: "aws:RequestedRegion", values: ["eu-west-1"] }`.
   * Conditions with the same `test` are merged into one operator block.
   * @default none
   */
  readonly conditions?: IamPolicyCondition[];
}

/**
 * One condition of an {@link IamPolicyStatement}: the statement applies only when `variable`
 * compares true to one of `values` under `test` (IAM User Guide, "IAM JSON policy elements: Condition").
 */
export interface IamPolicyCondition {
  /**
   * The condition operator, one of IAM's: `String…`, `Numeric…`, `Date…`, `Bool`, `BinaryEquals`,
   * `IpAddress` / `NotIpAddress`, `Arn…` or `Null`, e.g. `"StringEquals"`, `"ArnLike"`; each but `Null`
   * may end in `IfExists` (`"StringLikeIfExists"`), and a set qualifier may precede it
   * (`"ForAllValues:StringEquals"`, `"ForAnyValue:StringLike"`). Source: IAM User Guide, "IAM JSON
   * policy elements: Condition operators".
   */
  readonly test: string;
  /** The condition key compared (not empty), e.g. `"aws:RequestedRegion"` or `"aws:ResourceTag/team"`. */
  readonly variable: string;
  /** The values the key is compared with, at least one; the condition holds when any one matches, e.g. `["eu-west-1"]`. */
  readonly values: string[];
}
