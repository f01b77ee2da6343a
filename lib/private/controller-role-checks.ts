import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../errors";
import type { ControllerIdentity, IamPolicyStatement } from "../karpenter-controller-role";
import { checkOidcProviderArn, checkOptionKeys, checkStringList, IAM_ACTIONS, IAM_RESOURCES } from "./input-checks";
import { Problems } from "./problems";
import { IAM_CONDITION, IAM_STATEMENT, IRSA_IDENTITY, POD_IDENTITY } from "./prop-keys";
import { isUnresolved } from "./tokens";

/*
 * Checks of the controller role's options that KarpenterControllerRole and Karpenter share, each
 * naming the prop the user set (`identity`, or Karpenter's `controllerRole.additionalStatements`).
 */

/**
 * The controller identity: `{ type: "podIdentity" }` or `{ type: "irsa", oidcProviderArn? }`, no
 * other key (shared by Karpenter, which names its own `identity` prop).
 * @returns the identity, `{ type: "podIdentity" }` when unset
 * @throws KarpenterValidationError naming `<field>`, `<field>.type`, `<field>.<unknown key>` or `<field>.oidcProviderArn`
 */
export function checkIdentity(scope: IConstruct, field: string, identity: ControllerIdentity | undefined): ControllerIdentity {
  if (identity === undefined) return { type: "podIdentity" };
  if (identity === null || typeof identity !== "object" || Array.isArray(identity)) {
    throw new KarpenterValidationError(scope, field, identity, '{ type: "podIdentity" } or { type: "irsa", oidcProviderArn? }');
  }
  if (identity.type !== "podIdentity" && identity.type !== "irsa") {
    throw new KarpenterValidationError(scope, `${field}.type`, (identity as { type: unknown }).type, `"podIdentity" or "irsa"`);
  }
  const problems = new Problems();
  problems.check(() => checkOptionKeys(scope, field, identity, identity.type === "irsa" ? IRSA_IDENTITY : POD_IDENTITY));
  if (identity.type === "irsa") problems.check(() => checkOidcProviderArn(scope, `${field}.oidcProviderArn`, identity.oidcProviderArn));
  problems.throwIfAny(scope);
  return identity;
}

/**
 * The shape of additional IAM statements, every problem at once: a list of `{ sid?, effect?,
 * actions, resources, conditions? }` with IAM actions and resources, conditions `{ test, variable,
 * values }`. (Sids are checked against the controller policy's when the policy is built.)
 * @throws KarpenterValidationError naming `<field>[<i>]…`
 */
export function checkStatementShapes(scope: IConstruct, field: string, statements: IamPolicyStatement[] | undefined): void {
  if (statements === undefined) return;
  if (!Array.isArray(statements)) throw new KarpenterValidationError(scope, field, statements, "a list of IAM statements { sid?, effect?, actions, resources, conditions? }");
  const problems = new Problems();
  statements.forEach((s, i) => {
    const at = `${field}[${i}]`;
    if (s === null || typeof s !== "object" || Array.isArray(s)) return problems.add(new KarpenterValidationError(scope, at, s, "an IAM statement { sid?, effect?, actions, resources, conditions? }"));
    problems.check(() => checkOptionKeys(scope, at, s, IAM_STATEMENT));
    if (s.effect !== undefined && s.effect !== "Allow" && s.effect !== "Deny" && !isUnresolved(s.effect)) problems.add(new KarpenterValidationError(scope, `${at}.effect`, s.effect, '"Allow" or "Deny"'));
    problems.check(() => checkStringList(scope, `${at}.actions`, s.actions, IAM_ACTIONS));
    problems.check(() => checkStringList(scope, `${at}.resources`, s.resources, IAM_RESOURCES));
    if (Array.isArray(s.conditions)) s.conditions.forEach((c, k) => c !== null && typeof c === "object" && problems.check(() => checkOptionKeys(scope, `${at}.conditions[${k}]`, c, IAM_CONDITION)));
  });
  problems.throwIfAny(scope);
}
