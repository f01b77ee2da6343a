import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../errors";
import { isUnresolved } from "./tokens";

/** AWS name limits checked at synth when a name is a literal (a token is left to the API). */
export const AWS_NAME_LIMITS = {
  /** IAM role name: 64 characters. */
  iamRole: 64,
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
 * Checks a name against a length limit and a character set when it is known at synth.
 * A name that contains a token is accepted: only its literal parts could be checked, and the
 * cloud API will reject what is wrong at apply.
 * @throws KarpenterValidationError naming the field, the value and the limit
 */
export function checkName(scope: IConstruct, field: string, name: string, max: number, pattern: RegExp, patternText: string): void {
  if (isUnresolved(name)) return;
  if (name.length === 0 || name.length > max) {
    throw new KarpenterValidationError(scope, field, name, `1 to ${max} characters (got ${name.length}); choose a shorter name or a shorter cluster name`);
  }
  if (!pattern.test(name)) throw new KarpenterValidationError(scope, field, name, patternText);
}
