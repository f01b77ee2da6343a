import { IConstruct } from "constructs";
import { Token, Tokenization } from "cdktf";
import { KarpenterValidationError, typeName } from "../core/errors";
import { isUnresolved } from "../core/tokens";
import { nearestKey, Problems } from "../core/problems";
import { keyText } from "../kubernetes/value-rules";
import { TAG_LIMITS, tagCharacterProblem, TagReceiver } from "./tag-rules";

/*
 * Checks of inputs that several constructs share: option objects, tags,
 * IAM role, policy and KMS key ARNs, IAM actions and resources. Like every check of this library
 * they judge only what is known at synth: a token (or a string that contains one) is left to
 * Terraform and the AWS APIs.
 */

/**
 * Checks a `tags` map against the tag rules of every API that receives it, every bad tag at once:
 * at most 50 tags, keys of 1–128 characters not starting with `aws:` (any case; reserved for AWS),
 * values of at most 256 characters, and — where a receiver is IAM, SQS, EventBridge or KMS — keys
 * and values of only letters, digits, spaces and `_ . : / = + - @` (see {@link TAG_APIS}): a tag
 * EC2 accepts can still fail the first `terraform apply` on an IAM role. Keys and values that are
 * tokens, and a map that is a token, are left to the API.
 * @param receivers the resources that get the tags and the API of each (the message names those that refuse a tag)
 * @throws KarpenterValidationError naming `tags["<key>"]` and showing the tag's value (the message says when the key is the problem, and which APIs refuse it)
 */
export function checkTags(
  scope: IConstruct,
  tags: Record<string, string> | undefined,
  receivers: readonly TagReceiver[],
  field = "tags",
): void {
  if (tags === undefined || Token.isUnresolved(tags)) return;
  if (tags === null || typeof tags !== "object" || Array.isArray(tags)) {
    throw new KarpenterValidationError("AWS_TAGS_NOT_A_MAP", scope, field, tags, "a map of tag keys to string values");
  }
  const entries = Object.entries(tags);
  if (entries.length > TAG_LIMITS.maxTags) {
    throw new KarpenterValidationError(
      "AWS_TOO_MANY_TAGS",
      scope,
      field,
      `${entries.length} tags`,
      `at most ${TAG_LIMITS.maxTags} tags per resource (AWS limit)`,
    );
  }
  const problems = new Problems();
  for (const [key, value] of entries) {
    const where = `${field}[${JSON.stringify(key)}]`;
    if (!Token.isUnresolved(key)) {
      const length = [...key].length;
      if (length === 0 || length > TAG_LIMITS.keyLength) {
        problems.add(
          new KarpenterValidationError(
            "AWS_TAG_KEY_LENGTH",
            scope,
            where,
            value,
            keyText(
              key,
              `is ${length === 0 ? "empty" : `${length} characters long`}: a tag key has 1 to ${TAG_LIMITS.keyLength} characters`,
            ),
          ),
        );
        continue;
      }
      if (/^aws:/i.test(key)) {
        problems.add(
          new KarpenterValidationError(
            "AWS_TAG_KEY_RESERVED",
            scope,
            where,
            value,
            keyText(key, `is reserved: tag keys starting with "aws:" are for tags AWS sets itself; use another key`),
          ),
        );
        continue;
      }
    }
    if (isUnresolved(value)) {
      const chars = Token.isUnresolved(key) ? undefined : tagCharacterProblem(key, undefined, receivers);
      if (chars) problems.add(new KarpenterValidationError("AWS_TAG_CHARACTERS", scope, where, value, chars));
      continue;
    }
    let why: string | undefined;
    if (typeof value !== "string") why = `a string tag value, got ${typeName(value)}`;
    else if ([...value].length > TAG_LIMITS.valueLength)
      why = `a tag value of at most ${TAG_LIMITS.valueLength} characters (got ${[...value].length})`;
    const chars = tagCharacterProblem(
      Token.isUnresolved(key) ? undefined : key,
      typeof value === "string" && why === undefined ? value : undefined,
      receivers,
    );
    why = [why, chars].filter((w) => w !== undefined).join("; ") || undefined;
    if (why) problems.add(new KarpenterValidationError("AWS_TAG_VALUE", scope, where, value, why));
  }
  problems.throwIfAny(scope);
}

/**
 * Checks one literal tag key (e.g. a discovery tag key): 1–128 characters, not starting with `aws:`.
 * @throws KarpenterValidationError on `field`
 */
export function checkTagKey(scope: IConstruct | string, field: string, key: unknown): void {
  if (key === undefined || isUnresolved(key)) return;
  if (
    typeof key !== "string" ||
    key.length === 0 ||
    [...key].length > TAG_LIMITS.keyLength ||
    key.toLowerCase().startsWith("aws:")
  ) {
    throw new KarpenterValidationError(
      "AWS_TAG_KEY_LENGTH",
      scope,
      field,
      key,
      `a tag key of 1 to ${TAG_LIMITS.keyLength} characters, not starting with "aws:"`,
    );
  }
}

/**
 * The EKS cluster name rule (CreateCluster API; hashicorp/aws `validClusterName`), for a literal name.
 * @throws KarpenterValidationError on `field` for a literal that is no EKS cluster name
 */
export function checkEksClusterName(path: IConstruct | string, field: string, name: string): void {
  if (!isUnresolved(name) && !(typeof name === "string" && /^[0-9A-Za-z][A-Za-z0-9\-_]{0,99}$/.test(name))) {
    throw new KarpenterValidationError(
      "AWS_CLUSTER_NAME",
      path,
      field,
      name,
      "an EKS cluster name: 1 to 100 characters, letters, digits, '-' and '_', starting with a letter or digit",
    );
  }
}

/** IAM role names: 1–64 characters, letters, digits and `+=,.@_-` (IAM API `roleNameType`). */
const IAM_ROLE_NAME = /^[\w+=,.@-]{1,64}$/;
/** An IAM role ARN, `arn:<partition>:iam::<account>:role/<optional path/><name>`; group 1 is the name. */
const IAM_ROLE_ARN = /^arn:aws(?:-[a-z]+)*:iam::\d{12}:role\/(?:[\x21-\x7e]+\/)?([\w+=,.@-]{1,64})$/;
/** A managed policy ARN: AWS-managed (`iam::aws:`) or customer-managed (`iam::<account>:`), optional path. */
const IAM_POLICY_ARN = /^arn:aws(?:-[a-z]+)*:iam::(?:aws|\d{12}):policy\/(?:[\x21-\x7e]+\/)?[\w+=,.@-]{1,128}$/;
/** `*`, or `<service prefix>:<action>` where the action may hold the wildcards `*` and `?`. */
const IAM_ACTION = /^(\*|[A-Za-z0-9-]+:[A-Za-z0-9_*?-]+)$/;
/** A KMS key ARN, `arn:<partition>:kms:<region>:<account>:key/<key id>` (IAM grants on key ARNs, not aliases). */
const KMS_KEY_ARN = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]+$/;

/** What a role ARN must be, for messages. */
const ROLE_ARN_TEXT =
  "an IAM role ARN, arn:<partition>:iam::<12-digit account>:role/<optional path/><name> (not an instance profile or user ARN)";

/**
 * Checks a literal IAM role ARN (a string holding a token is left to the API), e.g. the node role
 * the controller may `iam:PassRole`.
 * @throws KarpenterValidationError on `field` for anything but `arn:<partition>:iam::<account>:role/<optional path/><name>`
 */
export function checkRoleArn(scope: IConstruct, field: string, arn: unknown): void {
  if (isUnresolved(arn)) return;
  if (typeof arn !== "string" || !IAM_ROLE_ARN.test(arn))
    throw new KarpenterValidationError("AWS_ROLE_ARN", scope, field, arn, ROLE_ARN_TEXT);
}

/** An SQS queue ARN, `arn:<partition>:sqs:<region>:<account>:<queue name>` (a standard name, or a FIFO one ending in `.fifo`). */
const SQS_QUEUE_ARN =
  /^arn:aws(?:-[a-z]+)*:sqs:[a-z]{2}(?:-[a-z]+)+-\d:\d{12}:(?:[A-Za-z0-9_-]{1,80}|[A-Za-z0-9_-]{1,75}\.fifo)$/;

/**
 * Checks a literal SQS queue ARN (a string holding a token is left to the API).
 * @throws KarpenterValidationError on `field` for anything but `arn:<partition>:sqs:<region>:<account>:<queue name>` (e.g. an SNS topic ARN or a queue URL)
 */
export function checkQueueArn(scope: IConstruct, field: string, arn: unknown): void {
  if (isUnresolved(arn)) return;
  if (typeof arn !== "string" || !SQS_QUEUE_ARN.test(arn)) {
    throw new KarpenterValidationError(
      "AWS_QUEUE_ARN",
      scope,
      field,
      arn,
      "an SQS queue ARN, arn:<partition>:sqs:<region>:<12-digit account>:<queue name> (not a queue URL or another service's ARN)",
    );
  }
}

/**
 * Checks a role you bring, every problem at once: a literal name must be a valid IAM role name, a
 * literal ARN an IAM role ARN, and the ARN's last path segment must be the name (else the access
 * entry and `iam:PassRole` would target one role and EC2NodeClass `spec.role` another). When the
 * ARN holds tokens (e.g. the account), a literal last segment is still compared.
 * @throws KarpenterValidationError naming `<field>.roleName` and / or `<field>.roleArn`
 */
export function checkExistingRole(
  scope: IConstruct,
  field: string,
  role: { readonly roleName?: string; readonly roleArn?: string } | undefined,
): void {
  if (role === null || typeof role !== "object") {
    throw new KarpenterValidationError(
      "AWS_EXISTING_ROLE",
      scope,
      field,
      role,
      "{ roleName, roleArn } of an IAM role you manage",
    );
  }
  const { roleName: name, roleArn: arn } = role;
  const problems = new Problems();
  const nameOk = typeof name === "string" && (Token.isUnresolved(name) || IAM_ROLE_NAME.test(name));
  if (typeof name !== "string")
    problems.add(
      new KarpenterValidationError(
        "AWS_EXISTING_ROLE",
        scope,
        `${field}.roleName`,
        name,
        'the role name (required), e.g. "KarpenterNodeRole-prod"',
      ),
    );
  else if (!nameOk) {
    const why =
      name.length === 0
        ? "an empty name is not allowed: give 1–64 characters (an IAM role name: letters, digits and + = , . @ _ -)"
        : "an IAM role name: 1 to 64 characters, letters, digits and + = , . @ _ -";
    problems.add(new KarpenterValidationError("AWS_IAM_NAME", scope, `${field}.roleName`, name, why));
  }
  if (typeof arn !== "string") {
    problems.add(
      new KarpenterValidationError(
        "AWS_EXISTING_ROLE",
        scope,
        `${field}.roleArn`,
        arn,
        "the role ARN (required), arn:<partition>:iam::<account>:role/<path/><name>",
      ),
    );
    return problems.throwIfAny(scope);
  }
  let lastSegment: string | undefined;
  if (!Token.isUnresolved(arn)) {
    const m = IAM_ROLE_ARN.exec(arn);
    if (!m) problems.add(new KarpenterValidationError("AWS_ROLE_ARN", scope, `${field}.roleArn`, arn, ROLE_ARN_TEXT));
    lastSegment = m?.[1];
  } else if (arn.includes(":role/")) {
    const tail = arn.slice(arn.lastIndexOf("/") + 1);
    if (!Token.isUnresolved(tail)) lastSegment = tail;
  }
  if (lastSegment !== undefined && nameOk && !Token.isUnresolved(name) && lastSegment !== name) {
    // parts known only at apply are shown as such, not as cdktf's internal token text
    const shown = arn.replace(/\$\{TfToken\[[^\]]*\]\}/g, "<known at apply>");
    problems.add(
      new KarpenterValidationError(
        "AWS_ROLE_ARN_NAME_MISMATCH",
        scope,
        `${field}.roleArn`,
        shown,
        `the ARN of the role named in ${field}.roleName (${JSON.stringify(name)}): its last path segment is ${JSON.stringify(lastSegment)}, so the access entry and iam:PassRole would name another role than EC2NodeClass spec.role`,
      ),
    );
  }
  problems.throwIfAny(scope);
}

/**
 * Checks managed policy ARNs to attach, every bad item at once: each literal one must be
 * `arn:<partition>:iam::aws:policy/<path/><name>` (AWS-managed) or `arn:<partition>:iam::<account>:policy/<path/><name>`,
 * and no ARN may be given twice (two attachments of one policy to one role: destroying either
 * detaches the policy the other still manages). The array itself must be known at synth (not a
 * list token), since each ARN gets its own attachment.
 * @param attached the AWS-managed policies the role gets anyway (`names`, attached by `by`, e.g.
 * "KarpenterNodeRole for Karpenter 1.14.1"): given again, they would be attached twice too
 * @throws KarpenterValidationError naming each bad `<field>[<index>]`, or `<field>` for a list token
 */
export function checkPolicyArns(
  scope: IConstruct,
  field: string,
  arns: string[] | undefined,
  attached?: { readonly names: readonly string[]; readonly by: string },
): void {
  if (arns === undefined) return;
  // one aws_iam_role_policy_attachment per ARN: a list only known at apply cannot be split (cdktf would fail with a raw token error)
  if (isListToken(arns)) {
    throw new KarpenterValidationError(
      "AWS_POLICY_ARNS_NOT_KNOWN",
      scope,
      field,
      "(a list token, known only at apply)",
      "an array of IAM policy ARNs known at synth (each may be a reference): one attachment is created per ARN, so pass them one by one",
    );
  }
  if (!Array.isArray(arns))
    throw new KarpenterValidationError("AWS_POLICY_ARNS_NOT_A_LIST", scope, field, arns, "an array of IAM policy ARNs");
  const problems = new Problems();
  // the same text twice is the same policy; a token's text is stable, so the same reference passed twice is caught too
  const first = new Map<string, number>();
  arns.forEach((arn, i) => {
    if (typeof arn === "string") {
      const earlier = first.get(arn);
      if (earlier !== undefined) {
        const shown = isUnresolved(arn) ? "(the same reference as before, known only at apply)" : arn;
        return problems.add(
          new KarpenterValidationError(
            "AWS_POLICY_ARN_TWICE",
            scope,
            `${field}[${i}]`,
            shown,
            `an ARN not given before: ${field}[${earlier}] is the same policy, and two attachments of one policy to the role would each manage it (removing either detaches it); give it once`,
          ),
        );
      }
      first.set(arn, i);
    }
    if (isUnresolved(arn)) return;
    if (typeof arn !== "string" || !IAM_POLICY_ARN.test(arn)) {
      return problems.add(
        new KarpenterValidationError(
          "AWS_POLICY_ARN",
          scope,
          `${field}[${i}]`,
          arn,
          "an IAM managed policy ARN, arn:<partition>:iam::aws:policy/<name> (AWS-managed) or arn:<partition>:iam::<12-digit account>:policy/<path/><name>",
        ),
      );
    }
    const awsManaged = /^arn:[^:]+:iam::aws:policy\/([^/]+)$/.exec(arn)?.[1];
    if (attached && awsManaged !== undefined && attached.names.includes(awsManaged)) {
      problems.add(
        new KarpenterValidationError(
          "AWS_POLICY_ARN_ALREADY_ATTACHED",
          scope,
          `${field}[${i}]`,
          arn,
          `a policy the role does not get anyway: ${attached.by} attaches ${awsManaged} itself, and two attachments of one policy would each manage it (removing either detaches it); leave it out`,
        ),
      );
    }
  });
  problems.throwIfAny(scope);
}

/** What the items of a string list must be, for {@link checkStringList}. */
export interface StringListRule {
  /** What the list holds, for "at least one …", e.g. `IAM action, e.g. ["ec2:DescribeInstances"]`. */
  readonly what: string;
  /** Whether one literal item is allowed. */
  readonly ok: (item: string) => boolean;
  /** What an item must be, for the error on `<field>[<index>]`. */
  readonly itemText: string;
}

/** The actions of an IAM policy statement: `*` or `<service>:<action>` (e.g. `ec2:DescribeInstances`, `ec2:Describe*`). */
export const IAM_ACTIONS: StringListRule = {
  what: 'IAM action, e.g. ["ec2:DescribeInstances"]',
  ok: (a) => IAM_ACTION.test(a),
  itemText: `"*" or "<service>:<action>", e.g. "ec2:DescribeInstances" or "ec2:Describe*"`,
};

/** The resources of an IAM policy statement: `*` or an ARN (`arn:…`, wildcards allowed). */
export const IAM_RESOURCES: StringListRule = {
  what: 'resource ARN, or ["*"]',
  ok: (r) => r === "*" || r.startsWith("arn:"),
  itemText: `"*" or an ARN ("arn:<partition>:<service>:…", wildcards allowed)`,
};

/**
 * Checks a list of strings that must not be empty, each literal item against `rule` (every bad
 * item at once). A list token or an item token is left to the API.
 * @throws KarpenterValidationError naming `<field>` (not a list, or empty) or each bad `<field>[<index>]`
 */
export function checkStringList(
  scope: IConstruct,
  field: string,
  list: string[] | undefined,
  rule: StringListRule,
): void {
  if (Token.isUnresolved(list)) return;
  if (!Array.isArray(list) || list.length === 0)
    throw new KarpenterValidationError("AWS_LIST_EMPTY", scope, field, list, `at least one ${rule.what}`);
  const problems = new Problems();
  list.forEach((item, i) => {
    if (isUnresolved(item)) return;
    if (typeof item !== "string" || !rule.ok(item))
      problems.add(new KarpenterValidationError("AWS_LIST_ITEM", scope, `${field}[${i}]`, item, rule.itemText));
  });
  problems.throwIfAny(scope);
}

/** An IAM OIDC provider ARN, `arn:<partition>:iam::<account>:oidc-provider/<issuer host and path>`. */
const OIDC_PROVIDER_ARN = /^arn:aws[a-z-]*:iam::\d{12}:oidc-provider\/.+$/;

/**
 * Checks a literal IAM OIDC provider ARN (IRSA's `identity.oidcProviderArn`; a token is left to the API).
 * @throws KarpenterValidationError on `field` for anything but `arn:<partition>:iam::<account>:oidc-provider/<issuer>`
 */
export function checkOidcProviderArn(scope: IConstruct, field: string, arn: unknown): void {
  if (arn === undefined || isUnresolved(arn)) return;
  if (typeof arn !== "string" || !OIDC_PROVIDER_ARN.test(arn)) {
    throw new KarpenterValidationError(
      "AWS_OIDC_PROVIDER_ARN",
      scope,
      field,
      arn,
      "an IAM OIDC provider ARN, arn:<partition>:iam::<account>:oidc-provider/<issuer host and path>",
    );
  }
}

/**
 * Checks a literal KMS key ARN (a token is left to the API).
 * @throws KarpenterValidationError on `field` for anything but `arn:<partition>:kms:<region>:<account>:key/<key id>`, e.g. an alias
 */
export function checkKmsKeyArn(scope: IConstruct, field: string, arn: unknown): void {
  if (isUnresolved(arn)) return;
  if (typeof arn !== "string" || !KMS_KEY_ARN.test(arn)) {
    throw new KarpenterValidationError(
      "AWS_KMS_KEY_ARN",
      scope,
      field,
      arn,
      "a KMS key ARN, arn:<partition>:kms:<region>:<account>:key/<key id> (not an alias: IAM grants kms:Decrypt on key ARNs)",
    );
  }
}

/**
 * An options object of a prop (e.g. `nodeRole`), or with `field` "" the props themselves:
 * undefined stays undefined; anything but a plain object, or a set key outside `allowed`, is an
 * error, so that a misspelt or misplaced key (which TypeScript lets through in a non-literal
 * object) is not silently dropped. Every unknown key is reported, with a "did you mean" when one
 * allowed key is a likely typo of it, or when it is (or is a likely typo of) a key of one of the
 * `nested` option objects: `roleName` on Karpenter's props → `nodeRole.roleName or controllerRole.roleName`.
 * @param nested the keys of the option objects among `allowed`, by the prop that holds them (e.g. `{ nodeRole: NODE_ROLE_OPTIONS }`)
 * @throws KarpenterValidationError naming `<field>` or `<field>.<key>` and the allowed keys
 */
export function checkOptionKeys<T extends object>(
  scope: IConstruct | string,
  field: string,
  options: T | undefined,
  allowed: readonly string[],
  nested: Readonly<Record<string, readonly string[]>> = {},
): T | undefined {
  if (options === undefined) return undefined;
  const keys = `{ ${allowed.map((k) => `${k}?`).join(", ")} }`;
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw new KarpenterValidationError("OPTIONS_NOT_AN_OBJECT", scope, field || "props", options, `an object ${keys}`);
  const problems = new Problems();
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || allowed.includes(key)) continue;
    const near = nestedKeys(key, nested, true) ?? nearestKey(key, allowed) ?? nestedKeys(key, nested, false);
    const of = field ? `a known key of ${field}` : "a known prop";
    problems.add(
      new KarpenterValidationError(
        "OPTIONS_UNKNOWN_KEY",
        scope,
        field ? `${field}.${key}` : key,
        value,
        `not ${of} (it would be ignored)${near ? `; did you mean ${near}? The` : ": the"} allowed keys are ${keys}`,
      ),
    );
  }
  problems.throwIfAny(scope);
  return options;
}

/**
 * `<prop>.<key>` of each option object in `nested` that has `key` (`exact`) or the key `key` is a
 * likely typo of, joined with "or"; undefined when none has.
 */
function nestedKeys(
  key: string,
  nested: Readonly<Record<string, readonly string[]>>,
  exact: boolean,
): string | undefined {
  const all = [...new Set(Object.values(nested).flat())];
  const match = exact ? all.find((k) => k.toLowerCase() === key.toLowerCase()) : nearestKey(key, all);
  if (match === undefined) return undefined;
  const props = Object.keys(nested).filter((prop) => nested[prop].includes(match));
  return props.map((prop) => `${prop}.${match}`).join(" or ");
}

/** True when `value` is a list token, or a string that encodes one (as a list token spread into an array leaves). */
export function isListToken(value: unknown): boolean {
  if (Array.isArray(value))
    return (
      Token.isUnresolved(value) ||
      value.some((v) => typeof v === "string" && Tokenization.reverseList([v]) !== undefined)
    );
  return typeof value === "string" && Tokenization.reverseList([value]) !== undefined;
}
