import { IConstruct } from "constructs";
import { Token } from "cdktf";
import { KarpenterValidationError } from "../core/errors";
import { controllerPolicyGroups, QUEUE_KEY_DECRYPT_SID } from "./controller-policy";
import { IamStatementJson, policyJson, policySize } from "../aws-api/iam";
import {
  checkOidcProviderArn,
  checkOptionKeys,
  checkStringList,
  IAM_ACTIONS,
  IAM_RESOURCES,
} from "../aws-api/input-checks";
import { NAME_RULES } from "../aws-api/resource-names";
import { nearestKey, Problems } from "../core/problems";
import { IAM_CONDITION, IAM_STATEMENT, IRSA_IDENTITY, POD_IDENTITY } from "../core/prop-keys";
import { isUnresolved } from "../core/tokens";
import { KarpenterVersion } from "../versions/karpenter-version";
import type { ControllerIdentity, IamPolicyCondition, IamPolicyStatement } from "./controller-role-spec";

/*
 * Checks of the controller role's options that KarpenterControllerRole and Karpenter share, each
 * naming the prop the user set (`identity`, or Karpenter's `controllerRole.additionalStatements`).
 */

/** Characters of one managed policy, whitespace excluded (IAM quotas). */
export const MANAGED_POLICY_MAX = 6144;

/**
 * The controller identity: `{ type: "podIdentity" }` or `{ type: "irsa", oidcProviderArn? }`, no
 * other key (shared by Karpenter, which names its own `identity` prop).
 * @returns the identity, `{ type: "podIdentity" }` when unset
 * @throws KarpenterValidationError naming `<field>`, `<field>.type`, `<field>.<unknown key>` or `<field>.oidcProviderArn`
 */
export function checkIdentity(
  scope: IConstruct,
  field: string,
  identity: ControllerIdentity | undefined,
): ControllerIdentity {
  if (identity === undefined) return { type: "podIdentity" };
  if (identity === null || typeof identity !== "object" || Array.isArray(identity)) {
    throw new KarpenterValidationError(
      "CONTROLLER_ROLE_IDENTITY",
      scope,
      field,
      identity,
      '{ type: "podIdentity" } or { type: "irsa", oidcProviderArn? }',
    );
  }
  if (identity.type !== "podIdentity" && identity.type !== "irsa") {
    throw new KarpenterValidationError(
      "CONTROLLER_ROLE_IDENTITY",
      scope,
      `${field}.type`,
      (identity as { type: unknown }).type,
      `"podIdentity" or "irsa"`,
    );
  }
  const problems = new Problems();
  problems.check(() =>
    checkOptionKeys(scope, field, identity, identity.type === "irsa" ? IRSA_IDENTITY : POD_IDENTITY),
  );
  if (identity.type === "irsa")
    problems.check(() => checkOidcProviderArn(scope, `${field}.oidcProviderArn`, identity.oidcProviderArn));
  problems.throwIfAny(scope);
  return identity;
}

/** Which statements the controller policy holds: the queue statement only with a queue, the KMS one only with its key. */
export interface ControllerPolicyShape {
  readonly queue: boolean;
  readonly kmsKey: boolean;
}

/** The managed policies (group keys, upstream order) and the Sids of the version's controller policy, without the additional policy. */
export function controllerPolicyOutline(
  version: KarpenterVersion,
  shape: ControllerPolicyShape,
): { keys: string[]; sids: string[] } {
  const x = "x";
  const groups = controllerPolicyGroups(version, {
    partition: x,
    region: x,
    account: x,
    clusterName: x,
    clusterArn: x,
    nodeRoleArn: x,
    queueArn: shape.queue ? x : undefined,
    kmsKeyArn: shape.kmsKey ? x : undefined,
  });
  return { keys: groups.map((g) => g.key), sids: groups.flatMap((g) => g.statements.map((s) => s.Sid!)) };
}

/** `KarpenterController<Group>Policy-`: the start of the name of each controller managed policy (as upstream names them). */
export function policyNamePrefix(group: string): string {
  return `KarpenterController${group}Policy-`;
}

/** The group keys of the managed policies the role gets: the version's groups, then `Additional` with additional statements. */
export function policyKeys(
  version: KarpenterVersion,
  shape: ControllerPolicyShape,
  statements: readonly unknown[] | undefined,
): string[] {
  const keys = controllerPolicyOutline(version, shape).keys;
  return Array.isArray(statements) && statements.length > 0 ? [...keys, "Additional"] : keys;
}

/**
 * Checks a literal `policyNameSuffix`, shown as set: it ends every managed policy name
 * `KarpenterController<Group>Policy-<suffix>`, so the longest group's name decides how long it may be.
 * An empty suffix is allowed (the names then end in `-`).
 * @param keys the group keys of the policies the role gets (see {@link policyKeys})
 * @throws KarpenterValidationError on `field`
 */
export function checkPolicyNameSuffix(
  scope: IConstruct,
  field: string,
  suffix: unknown,
  keys: readonly string[],
): void {
  if (suffix === undefined || isUnresolved(suffix)) return;
  const rule = NAME_RULES.iamPolicy;
  const names = "every IAM policy name of the controller role, KarpenterController<Group>Policy-<suffix>";
  if (typeof suffix !== "string")
    throw new KarpenterValidationError(
      "CONTROLLER_ROLE_NAME_SUFFIX",
      scope,
      field,
      suffix,
      `a string: it ends ${names}`,
    );
  const longest = keys.map(policyNamePrefix).reduce((a, b) => (b.length > a.length ? b : a), "");
  const room = rule.max - longest.length;
  if (suffix.length > room) {
    throw new KarpenterValidationError(
      "CONTROLLER_ROLE_NAME_SUFFIX",
      scope,
      field,
      suffix,
      `at most ${room} characters (got ${suffix.length}): the suffix ends ${names}, which IAM limits to ${rule.max} characters, and the longest, ${longest}<suffix>, leaves ${room}; choose a shorter suffix`,
    );
  }
  if (suffix !== "" && !rule.pattern.test(suffix))
    throw new KarpenterValidationError(
      "CONTROLLER_ROLE_NAME_SUFFIX",
      scope,
      field,
      suffix,
      `${rule.text} only: the suffix ends ${names}`,
    );
}

/**
 * Additional IAM statements, every problem at once: a list of `{ sid?, effect?, actions, resources,
 * conditions? }` with IAM actions and resources, conditions `{ test, variable, values }` with an IAM
 * condition operator, a condition key and at least one value; Sids of letters and digits, unique, not
 * one of `officialSids` (nor our KMS statement's); and all of them within one managed policy.
 * @param officialSids the Sids of the controller policy the statements join (see {@link controllerPolicyOutline})
 * @throws KarpenterValidationError naming `<field>`, `<field>[<i>]…`
 */
export function checkAdditionalStatements(
  scope: IConstruct,
  field: string,
  statements: IamPolicyStatement[] | undefined,
  officialSids: readonly string[],
): void {
  if (statements === undefined) return;
  if (!Array.isArray(statements))
    throw new KarpenterValidationError(
      "CONTROLLER_ROLE_STATEMENT",
      scope,
      field,
      statements,
      "a list of IAM statements { sid?, effect?, actions, resources, conditions? }",
    );
  const problems = new Problems();
  const taken = new Set([...officialSids, QUEUE_KEY_DECRYPT_SID]);
  statements.forEach((s, i) => {
    const at = `${field}[${i}]`;
    if (s === null || typeof s !== "object" || Array.isArray(s))
      return problems.add(
        new KarpenterValidationError(
          "CONTROLLER_ROLE_STATEMENT",
          scope,
          at,
          s,
          "an IAM statement { sid?, effect?, actions, resources, conditions? }",
        ),
      );
    problems.check(() => checkOptionKeys(scope, at, s, IAM_STATEMENT));
    const sid = s.sid ?? `Additional${i}`;
    if (!isUnresolved(sid)) {
      if (typeof sid !== "string" || !/^[A-Za-z0-9]+$/.test(sid) || taken.has(sid)) {
        problems.add(
          new KarpenterValidationError(
            "CONTROLLER_ROLE_STATEMENT_SID",
            scope,
            `${at}.sid`,
            sid,
            `letters and digits only, unique, and not a Sid the controller policy already uses (${[...taken].join(", ")})`,
          ),
        );
      }
      taken.add(sid);
    }
    if (s.effect !== undefined && s.effect !== "Allow" && s.effect !== "Deny" && !isUnresolved(s.effect))
      problems.add(
        new KarpenterValidationError(
          "CONTROLLER_ROLE_STATEMENT_EFFECT",
          scope,
          `${at}.effect`,
          s.effect,
          '"Allow" or "Deny"',
        ),
      );
    problems.check(() => checkStringList(scope, `${at}.actions`, s.actions, IAM_ACTIONS));
    problems.check(() => checkStringList(scope, `${at}.resources`, s.resources, IAM_RESOURCES));
    problems.check(() => checkConditions(scope, `${at}.conditions`, s.conditions));
  });
  problems.throwIfAny(scope);
  // tokens are only known at apply; what is literal already counts toward the limit
  const known = policySize(policyJson(statementsJson(statements)).replace(/\$\{TfToken\[[^\]]*\]\}/g, ""));
  if (known > MANAGED_POLICY_MAX) {
    throw new KarpenterValidationError(
      "CONTROLLER_ROLE_POLICY_SIZE",
      scope,
      field,
      `${statements.length} statements`,
      `at most ${MANAGED_POLICY_MAX} characters in one managed policy (whitespace excluded); these take at least ${known}: attach a policy of your own with additionalPolicyArns`,
    );
  }
}

/** Additional statements (checked by {@link checkAdditionalStatements}) as IAM policy JSON statements. */
export function statementsJson(statements: readonly IamPolicyStatement[]): IamStatementJson[] {
  return statements.map((s, i): IamStatementJson => {
    const conditions = conditionsJson(s.conditions);
    return {
      Sid: s.sid ?? `Additional${i}`,
      Effect: s.effect ?? "Allow",
      Resource: s.resources,
      Action: s.actions,
      ...(conditions ? { Condition: conditions } : {}),
    };
  });
}

/** `{ test: { variable: values } }`: conditions with the same `test` share one operator block; undefined without any. */
function conditionsJson(conditions: readonly IamPolicyCondition[] | undefined): IamStatementJson["Condition"] {
  if (!Array.isArray(conditions) || conditions.length === 0) return undefined;
  const out: NonNullable<IamStatementJson["Condition"]> = {};
  for (const c of conditions) out[c.test] = { ...out[c.test], [c.variable]: c.values };
  return out;
}

/**
 * The condition operators of IAM (IAM User Guide, "IAM JSON policy elements: Condition operators"):
 * string, numeric, date, Boolean, binary, IP address, ARN and the Null check. Each but Null may end
 * in `IfExists`; a set qualifier `ForAllValues:` or `ForAnyValue:` may precede it.
 */
export const IAM_CONDITION_OPERATORS = [
  "StringEquals",
  "StringNotEquals",
  "StringEqualsIgnoreCase",
  "StringNotEqualsIgnoreCase",
  "StringLike",
  "StringNotLike",
  "NumericEquals",
  "NumericNotEquals",
  "NumericLessThan",
  "NumericLessThanEquals",
  "NumericGreaterThan",
  "NumericGreaterThanEquals",
  "DateEquals",
  "DateNotEquals",
  "DateLessThan",
  "DateLessThanEquals",
  "DateGreaterThan",
  "DateGreaterThanEquals",
  "Bool",
  "BinaryEquals",
  "IpAddress",
  "NotIpAddress",
  "ArnEquals",
  "ArnLike",
  "ArnNotEquals",
  "ArnNotLike",
  "Null",
] as const;

const OPERATOR_FORM = /^(ForAllValues:|ForAnyValue:)?(.*?)(IfExists)?$/;

/** Whether `test` is an IAM condition operator, with its optional qualifier and `IfExists`. */
export function isConditionOperator(test: string): boolean {
  const [, , base, ifExists] = OPERATOR_FORM.exec(test)!;
  return (IAM_CONDITION_OPERATORS as readonly string[]).includes(base) && !(base === "Null" && ifExists);
}

/** A likely intended operator for a misspelt one (qualifier and `IfExists` kept), e.g. `StringEqul` → `StringEquals`. */
function nearestOperator(test: string): string | undefined {
  const [, qualifier = "", base, ifExists = ""] = OPERATOR_FORM.exec(test)!;
  // operator names are long and alike: allow more edits than for a prop name
  const op = nearestKey(base, IAM_CONDITION_OPERATORS, (candidate) => Math.max(2, Math.floor(candidate.length / 4)));
  if (op === undefined || (op === "Null" && ifExists)) return undefined;
  return `${qualifier}${op}${ifExists}`;
}

const OPERATORS_TEXT =
  `an IAM condition operator: ${IAM_CONDITION_OPERATORS.join(", ")}; each but Null may end in "IfExists", and "ForAllValues:" or "ForAnyValue:" may precede it ` +
  `(IAM User Guide, "IAM JSON policy elements: Condition operators")`;

/**
 * The conditions of one statement: a list of `{ test, variable, values }`, every problem at once.
 * @throws KarpenterValidationError naming `<field>` or `<field>[<k>].test|variable|values`
 */
function checkConditions(scope: IConstruct, field: string, conditions: IamPolicyCondition[] | undefined): void {
  if (conditions === undefined || Token.isUnresolved(conditions)) return;
  if (!Array.isArray(conditions))
    throw new KarpenterValidationError(
      "CONTROLLER_ROLE_CONDITION",
      scope,
      field,
      conditions,
      "a list of conditions { test, variable, values }",
    );
  const problems = new Problems();
  conditions.forEach((c, k) => {
    const at = `${field}[${k}]`;
    if (
      c === null ||
      typeof c !== "object" ||
      Array.isArray(c) ||
      typeof c.test !== "string" ||
      typeof c.variable !== "string"
    ) {
      return problems.add(
        new KarpenterValidationError(
          "CONTROLLER_ROLE_CONDITION",
          scope,
          at,
          c,
          'a condition { test, variable, values }, e.g. { test: "StringEquals", variable: "aws:RequestedRegion", values: ["eu-west-1"] }',
        ),
      );
    }
    problems.check(() => checkOptionKeys(scope, at, c, IAM_CONDITION));
    if (!isUnresolved(c.test) && !isConditionOperator(c.test)) {
      const near = nearestOperator(c.test);
      problems.add(
        new KarpenterValidationError(
          "CONTROLLER_ROLE_CONDITION_OPERATOR",
          scope,
          `${at}.test`,
          c.test,
          `${near ? `did you mean ${near}? It must be ` : ""}${OPERATORS_TEXT}`,
        ),
      );
    }
    if (!isUnresolved(c.variable) && c.variable.trim() === "") {
      problems.add(
        new KarpenterValidationError(
          "CONTROLLER_ROLE_CONDITION",
          scope,
          `${at}.variable`,
          c.variable,
          'a condition key, e.g. "aws:RequestedRegion" or "aws:ResourceTag/team": an empty key matches nothing in the request',
        ),
      );
    }
    const values = c.values;
    if (!Token.isUnresolved(values)) {
      if (!Array.isArray(values) || values.length === 0) {
        problems.add(
          new KarpenterValidationError(
            "CONTROLLER_ROLE_CONDITION",
            scope,
            `${at}.values`,
            values,
            'at least one value to compare the key with, e.g. ["eu-west-1"] (the condition holds when any one matches; IAM refuses a condition without values)',
          ),
        );
      } else {
        values.forEach((v, j) => {
          if (typeof v !== "string" && !isUnresolved(v))
            problems.add(
              new KarpenterValidationError(
                "CONTROLLER_ROLE_CONDITION",
                scope,
                `${at}.values[${j}]`,
                v,
                'a string, e.g. "eu-west-1" or "true"',
              ),
            );
        });
      }
    }
  });
  problems.throwIfAny(scope);
}
