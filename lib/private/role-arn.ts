import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../errors";
import { isUnresolved } from "./tokens";

/*
 * IAM role ARNs, shared by the constructs that take one (a role you bring, the IRSA role of a
 * controller release): `arn:<partition>:iam::<12-digit account>:role/<optional path/><name>`
 * (IAM User Guide, "IAM identifiers": ARNs; role names 1–64 characters of letters, digits and `+=,.@_-`).
 */

/** An IAM role ARN, `arn:<partition>:iam::<account>:role/<optional path/><name>`; group 1 is the name. */
export const IAM_ROLE_ARN = /^arn:aws(?:-[a-z]+)*:iam::\d{12}:role\/(?:[\x21-\x7e]+\/)?([\w+=,.@-]{1,64})$/;

/** What a field holding a role ARN accepts. */
export const ROLE_ARN_TEXT = "an IAM role ARN, arn:<partition>:iam::<12-digit account>:role/<optional path/><name> (not an instance profile or user ARN)";

/**
 * Checks a literal IAM role ARN (a token, or a string holding one, is left to the API).
 * @throws KarpenterValidationError on `field` for anything else
 */
export function checkRoleArn(scope: IConstruct | string, field: string, arn: unknown): void {
  if (arn === undefined || isUnresolved(arn)) return;
  if (typeof arn !== "string" || !IAM_ROLE_ARN.test(arn)) throw new KarpenterValidationError(scope, field, arn, ROLE_ARN_TEXT);
}
