import { createHash } from "crypto";
import { IConstruct } from "constructs";
import { Fn, Op } from "cdktf";
import { KarpenterValidationError } from "../core/errors";
import { AWS_NAME_LIMITS, checkName } from "./names";
import { IAM_ROLE_NAME_RULE } from "./name-rules";
import { isUnresolved } from "../core/tokens";

/**
 * What a name is derived from: the cluster's name (an IKarpenterCluster has both). Named by shape,
 * not by IKarpenterCluster: the AWS naming rules sit below the cluster domain, which uses them.
 */
export interface NamedCluster {
  readonly clusterName: string;
  readonly clusterNameLiteral?: string;
}

/** The naming rule of each kind of AWS name this library derives from the cluster name. */
export const NAME_RULES = {
  /** IAM API `roleNameType`. */
  iamRole: IAM_ROLE_NAME_RULE,
  /** IAM API `policyNameType`. */
  iamPolicy: {
    max: AWS_NAME_LIMITS.iamPolicy,
    pattern: /^[\w+=,.@-]+$/,
    what: "an IAM policy name",
    text: "letters, digits and + = , . @ _ -",
  },
  /**
   * SQS CreateQueue `QueueName` of a standard queue (the interruption queue is one): `.fifo` ends
   * only FIFO queue names (terraform-provider-aws internal/service/sqs/queue.go, `queueName`).
   */
  sqsQueue: {
    max: AWS_NAME_LIMITS.sqsQueue,
    pattern: /^[A-Za-z0-9_-]+$/,
    what: "an SQS standard queue name",
    text: "letters, digits, '-' and '_'",
  },
  /** EventBridge PutRule `Name`. */
  eventRule: {
    max: AWS_NAME_LIMITS.eventRule,
    pattern: /^[A-Za-z0-9_.-]+$/,
    what: "an EventBridge rule name",
    text: "letters, digits, '.', '-' and '_'",
  },
  /** EKS CreateNodegroup `nodegroupName`. */
  eksNodeGroup: {
    max: AWS_NAME_LIMITS.eksNodeGroup,
    pattern: /^[0-9A-Za-z][A-Za-z0-9_-]*$/,
    what: "an EKS node group name",
    text: "letters, digits, '-' and '_', starting with a letter or digit",
  },
} as const;

/**
 * What a name of `kind` may hold, for messages: `an IAM role name: letters, digits and + = , . @ _ -`;
 * for a queue `name` ending in `.fifo`, why that suffix is refused.
 */
export function nameRuleText(kind: NameKind, name?: unknown): string {
  const fifo =
    kind === "sqsQueue" && typeof name === "string" && name.endsWith(".fifo")
      ? "; '.fifo' ends only FIFO queue names, and the interruption queue is a standard queue"
      : "";
  return `${NAME_RULES[kind].what}: ${NAME_RULES[kind].text}${fifo}`;
}

/** Which naming rule applies. */
export type NameKind = keyof typeof NAME_RULES;

/**
 * A name the user may set through prop `field`, else `<prefix><cluster name><suffix>`.
 * Checked at synth when known: a given name against the AWS rule; a derived one against the
 * cluster's literal name, with an error that says which prop to set when it is too long.
 * A name that is only known at apply (a token) is left to the AWS API.
 * @throws KarpenterValidationError naming `field`, the name and the limit
 */
export function nameFromCluster(
  scope: IConstruct,
  kind: NameKind,
  field: string,
  given: string | undefined,
  cluster: NamedCluster,
  prefix: string,
  suffix = "",
): string {
  const rule = NAME_RULES[kind];
  if (given !== undefined) {
    checkName(scope, field, given, rule.max, rule.pattern, nameRuleText(kind, given));
    return given;
  }
  if (cluster.clusterNameLiteral !== undefined) {
    const literal = `${prefix}${cluster.clusterNameLiteral}${suffix}`;
    if (literal.length > rule.max) {
      throw new KarpenterValidationError(
        "AWS_DERIVED_NAME_TOO_LONG",
        scope,
        field,
        literal,
        `at most ${rule.max} characters, but the default derived from the cluster name has ${literal.length}: set ${field} to a shorter name`,
      );
    }
    checkName(
      scope,
      field,
      literal,
      rule.max,
      rule.pattern,
      `${nameRuleText(kind)}; the default derived from the cluster name is not one: set ${field}`,
    );
  }
  return `${prefix}${cluster.clusterName}${suffix}`;
}

/**
 * The name {@link nameFromCluster} returns, as it will be at apply, when known at synth: `given` when
 * it is a literal, else `<prefix><cluster literal name><suffix>`; undefined when it is only known at apply.
 */
export function literalNameFromCluster(
  given: string | undefined,
  cluster: NamedCluster,
  prefix: string,
  suffix = "",
): string | undefined {
  if (given !== undefined) return isUnresolved(given) ? undefined : given;
  return cluster.clusterNameLiteral !== undefined ? `${prefix}${cluster.clusterNameLiteral}${suffix}` : undefined;
}

/**
 * The cluster name shortened to at most `room` characters, unique per cluster: the name itself
 * when it fits, else its first `room - 9` characters, `-` and the first 8 hex digits of its
 * SHA-256. Computed here for a literal name and by Terraform (same result) for a token.
 */
export function clusterNameWithin(cluster: NamedCluster, room: number): string {
  const keep = room - 9;
  const literal = cluster.clusterNameLiteral;
  if (literal !== undefined) {
    if (literal.length <= room) return literal;
    return `${literal.slice(0, keep)}-${createHash("sha256").update(literal).digest("hex").slice(0, 8)}`;
  }
  const name = cluster.clusterName;
  const shortened = `${Fn.substr(name, 0, keep)}-${Fn.substr(Fn.sha256(name), 0, 8)}`;
  return Fn.conditional(Op.lte(Fn.lengthOf(name), room), name, shortened);
}
