import { IConstruct } from "constructs";
import { Token, Tokenization } from "cdktf";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { KarpenterValidationError } from "../errors";
import { IKarpenterCluster } from "../karpenter-cluster";
import { isUnresolved } from "./tokens";

/*
 * Checks of AWS inputs that several constructs share: the required cluster, tags, IAM role and
 * policy ARNs, IAM actions. Like every check of this library they judge only what is known at
 * synth: a token (or a string that contains one) is left to Terraform and the AWS APIs.
 */

/** What a missing or wrong `cluster` prop is told. */
export const CLUSTER_REQUIRED = "cluster is required: an IKarpenterCluster from KarpenterCluster.fromEksCluster(...) or .fromClusterName(...)";

/**
 * The `cluster` prop, checked before anything reads it (a missing one would otherwise be a raw
 * TypeError deep inside the construct).
 * @throws KarpenterValidationError when `props` or `props.cluster` is missing, or is not an IKarpenterCluster
 */
export function requireCluster(scope: IConstruct, props: { readonly cluster?: IKarpenterCluster } | undefined): IKarpenterCluster {
  const cluster = props?.cluster;
  if (cluster instanceof EksCluster) {
    throw new KarpenterValidationError(scope, "cluster", cluster.node.path, `${CLUSTER_REQUIRED}; this is the EksCluster itself: pass KarpenterCluster.fromEksCluster(cluster)`);
  }
  if (cluster === undefined || cluster === null || typeof cluster !== "object" || typeof cluster.clusterName !== "string") {
    throw new KarpenterValidationError(scope, "cluster", cluster === undefined || cluster === null ? cluster : "(not an IKarpenterCluster)", CLUSTER_REQUIRED);
  }
  return cluster;
}

/** AWS tag limits (the same for IAM, EKS, SQS, EventBridge and KMS): AWS "Tagging best practices" and each service's Tag type. */
export const TAG_LIMITS = { maxTags: 50, keyLength: 128, valueLength: 256 } as const;

/**
 * Checks a `tags` map against the AWS tag rules: at most 50 tags, keys of 1–128 characters not
 * starting with `aws:` (any case; reserved for AWS), values of at most 256 characters. Keys and
 * values that are tokens, and a map that is a token, are left to the API.
 * @throws KarpenterValidationError naming `<field>["<key>"]`
 */
export function checkTags(scope: IConstruct, tags: Record<string, string> | undefined, field = "tags"): void {
  if (tags === undefined || Token.isUnresolved(tags)) return;
  if (tags === null || typeof tags !== "object" || Array.isArray(tags)) {
    throw new KarpenterValidationError(scope, field, tags, "a map of tag keys to string values");
  }
  const entries = Object.entries(tags);
  if (entries.length > TAG_LIMITS.maxTags) {
    throw new KarpenterValidationError(scope, field, `${entries.length} tags`, `at most ${TAG_LIMITS.maxTags} tags per resource (AWS limit)`);
  }
  for (const [key, value] of entries) {
    const where = `${field}[${JSON.stringify(key)}]`;
    if (!Token.isUnresolved(key)) {
      const length = [...key].length;
      if (length === 0 || length > TAG_LIMITS.keyLength) {
        throw new KarpenterValidationError(scope, where, key, `a tag key of 1 to ${TAG_LIMITS.keyLength} characters (got ${length})`);
      }
      if (/^aws:/i.test(key)) {
        throw new KarpenterValidationError(scope, where, key, `a tag key that does not start with "aws:": that prefix is reserved for tags AWS sets itself`);
      }
    }
    if (isUnresolved(value)) continue;
    if (typeof value !== "string") throw new KarpenterValidationError(scope, where, value, "a string tag value");
    if ([...value].length > TAG_LIMITS.valueLength) {
      throw new KarpenterValidationError(scope, where, value, `a tag value of at most ${TAG_LIMITS.valueLength} characters (got ${[...value].length})`);
    }
  }
}

/** IAM role names: 1–64 characters, letters, digits and `+=,.@_-` (IAM API `roleNameType`). */
export const IAM_ROLE_NAME = /^[\w+=,.@-]{1,64}$/;
/** An IAM role ARN, `arn:<partition>:iam::<account>:role/<optional path/><name>`; group 1 is the name. */
const IAM_ROLE_ARN = /^arn:aws(?:-[a-z]+)*:iam::\d{12}:role\/(?:[\x21-\x7e]+\/)?([\w+=,.@-]{1,64})$/;
/** A managed policy ARN: AWS-managed (`iam::aws:`) or customer-managed (`iam::<account>:`), optional path. */
const IAM_POLICY_ARN = /^arn:aws(?:-[a-z]+)*:iam::(?:aws|\d{12}):policy\/(?:[\x21-\x7e]+\/)?[\w+=,.@-]{1,128}$/;
/** `*`, or `<service prefix>:<action>` where the action may hold the wildcards `*` and `?`. */
const IAM_ACTION = /^(\*|[A-Za-z0-9-]+:[A-Za-z0-9_*?-]+)$/;

/**
 * Checks a role you bring: a literal name must be a valid IAM role name, a literal ARN an IAM
 * role ARN, and the ARN's last path segment must be the name (else the access entry and
 * `iam:PassRole` would target one role and EC2NodeClass `spec.role` another). When the ARN holds
 * tokens (e.g. the account), a literal last segment is still compared.
 * @throws KarpenterValidationError naming `<field>.roleName` or `<field>.roleArn`
 */
export function checkExistingRole(scope: IConstruct, field: string, role: { readonly roleName?: string; readonly roleArn?: string } | undefined): void {
  if (role === null || typeof role !== "object") {
    throw new KarpenterValidationError(scope, field, role, "{ roleName, roleArn } of an IAM role you manage");
  }
  const { roleName: name, roleArn: arn } = role;
  if (typeof name !== "string") throw new KarpenterValidationError(scope, `${field}.roleName`, name, "the role name (required), e.g. \"KarpenterNodeRole-prod\"");
  if (typeof arn !== "string") throw new KarpenterValidationError(scope, `${field}.roleArn`, arn, "the role ARN (required), arn:<partition>:iam::<account>:role/<path/><name>");
  if (!Token.isUnresolved(name) && !IAM_ROLE_NAME.test(name)) {
    throw new KarpenterValidationError(scope, `${field}.roleName`, name, "an IAM role name: 1 to 64 characters, letters, digits and + = , . @ _ -");
  }
  let lastSegment: string | undefined;
  if (!Token.isUnresolved(arn)) {
    const m = IAM_ROLE_ARN.exec(arn);
    if (!m) throw new KarpenterValidationError(scope, `${field}.roleArn`, arn, "an IAM role ARN, arn:<partition>:iam::<12-digit account>:role/<optional path/><name> (not an instance profile or user ARN)");
    lastSegment = m[1];
  } else if (arn.includes(":role/")) {
    const tail = arn.slice(arn.lastIndexOf("/") + 1);
    if (!Token.isUnresolved(tail)) lastSegment = tail;
  }
  if (lastSegment !== undefined && !Token.isUnresolved(name) && lastSegment !== name) {
    // parts known only at apply are shown as such, not as cdktf's internal token text
    const shown = arn.replace(/\$\{TfToken\[[^\]]*\]\}/g, "<known at apply>");
    throw new KarpenterValidationError(scope, `${field}.roleArn`, shown, `the ARN of the role named in ${field}.roleName (${JSON.stringify(name)}): its last path segment is ${JSON.stringify(lastSegment)}, so the access entry and iam:PassRole would name another role than EC2NodeClass spec.role`);
  }
}

/**
 * Checks managed policy ARNs to attach: each literal one must be
 * `arn:<partition>:iam::aws:policy/<path/><name>` (AWS-managed) or `arn:<partition>:iam::<account>:policy/<path/><name>`.
 * The array itself must be known at synth (not a list token), since each ARN gets its own attachment.
 * @throws KarpenterValidationError naming `<field>[<index>]`, or `<field>` for a list token
 */
export function checkPolicyArns(scope: IConstruct, field: string, arns: string[] | undefined): void {
  if (arns === undefined) return;
  // one aws_iam_role_policy_attachment per ARN: a list only known at apply cannot be split (cdktf would fail with a raw token error)
  if (isListToken(arns)) {
    throw new KarpenterValidationError(scope, field, "(a list token, known only at apply)", "an array of IAM policy ARNs known at synth (each may be a reference): one attachment is created per ARN, so pass them one by one");
  }
  if (!Array.isArray(arns)) throw new KarpenterValidationError(scope, field, arns, "an array of IAM policy ARNs");
  arns.forEach((arn, i) => {
    if (isUnresolved(arn)) return;
    if (typeof arn !== "string" || !IAM_POLICY_ARN.test(arn)) {
      throw new KarpenterValidationError(scope, `${field}[${i}]`, arn, "an IAM managed policy ARN, arn:<partition>:iam::aws:policy/<name> (AWS-managed) or arn:<partition>:iam::<12-digit account>:policy/<path/><name>");
    }
  });
}

/**
 * Checks the actions of a policy statement: at least one, each `*` or `<service>:<action>`
 * (e.g. `ec2:DescribeInstances`, `ec2:Describe*`).
 * @throws KarpenterValidationError naming `<field>` or `<field>[<index>]`
 */
export function checkIamActions(scope: IConstruct, field: string, actions: string[] | undefined): void {
  if (Token.isUnresolved(actions)) return;
  if (!Array.isArray(actions) || actions.length === 0) {
    throw new KarpenterValidationError(scope, field, actions, "at least one IAM action, e.g. [\"ec2:DescribeInstances\"]");
  }
  actions.forEach((action, i) => {
    if (isUnresolved(action)) return;
    if (typeof action !== "string" || !IAM_ACTION.test(action)) {
      throw new KarpenterValidationError(scope, `${field}[${i}]`, action, `"*" or "<service>:<action>", e.g. "ec2:DescribeInstances" or "ec2:Describe*"`);
    }
  });
}

/**
 * Checks the resources of a policy statement: at least one, each `*` or an ARN (`arn:…`, wildcards allowed).
 * @throws KarpenterValidationError naming `<field>` or `<field>[<index>]`
 */
export function checkIamResources(scope: IConstruct, field: string, resources: string[] | undefined): void {
  if (Token.isUnresolved(resources)) return;
  if (!Array.isArray(resources) || resources.length === 0) {
    throw new KarpenterValidationError(scope, field, resources, "at least one resource ARN, or [\"*\"]");
  }
  resources.forEach((resource, i) => {
    if (isUnresolved(resource)) return;
    if (typeof resource !== "string" || !(resource === "*" || resource.startsWith("arn:"))) {
      throw new KarpenterValidationError(scope, `${field}[${i}]`, resource, `"*" or an ARN ("arn:<partition>:<service>:…", wildcards allowed)`);
    }
  });
}

/** True when `value` is a list token, or a string that encodes one (as a list token spread into an array leaves). */
export function isListToken(value: unknown): boolean {
  if (Array.isArray(value)) return Token.isUnresolved(value) || value.some((v) => typeof v === "string" && Tokenization.reverseList([v]) !== undefined);
  return typeof value === "string" && Tokenization.reverseList([value]) !== undefined;
}
