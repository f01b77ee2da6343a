import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../core/errors";
import { isUnresolved } from "../core/tokens";
import { IAM_ROLE_NAME_RULE, literalNameProblem } from "./name-rules";

/** AWS name limits checked at synth when a name is a literal (a token is left to the API). */
export const AWS_NAME_LIMITS = {
  /** IAM role name: 64 characters. */
  iamRole: IAM_ROLE_NAME_RULE.max,
  /** IAM managed policy name: 128 characters. */
  iamPolicy: 128,
  /** EventBridge rule name: 64 characters. */
  eventRule: 64,
  /** SQS queue name: 80 characters. */
  sqsQueue: 80,
  /** EKS managed node group name: 63 characters. */
  eksNodeGroup: 63,
} as const;

/**
 * What is wrong with a literal name, or undefined when it is fine (a token is left to the API).
 * Too short and too long get their own advice: an empty name needs characters, a long one fewer.
 * @param max the most characters allowed
 * @param patternText what the name may hold, e.g. `an IAM role name: letters, digits and + = , . @ _ -`
 * @param limitNote why the limit is `max`, after "at most <max> characters", e.g. `(rule names add "-<event>")`
 */
export function nameProblem(
  name: unknown,
  max: number,
  pattern: RegExp,
  patternText: string,
  limitNote?: string,
): string | undefined {
  if (isUnresolved(name)) return undefined;
  return literalNameProblem(name, max, pattern, patternText, limitNote);
}

/**
 * Checks a name against a length limit and a character set when it is known at synth (see {@link nameProblem}).
 * A name that contains a token is accepted: only its literal parts could be checked, and the
 * cloud API will reject what is wrong at apply.
 * @throws KarpenterValidationError naming the field, the value and what is allowed
 */
export function checkName(
  scope: IConstruct,
  field: string,
  name: string,
  max: number,
  pattern: RegExp,
  patternText: string,
  limitNote?: string,
): void {
  const problem = nameProblem(name, max, pattern, patternText, limitNote);
  if (problem !== undefined) throw new KarpenterValidationError("AWS_NAME", scope, field, name, problem);
}
