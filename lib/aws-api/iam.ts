import { Construct } from "constructs";
import { IamRolePolicyAttachment } from "@cdktf/provider-aws/lib/iam-role-policy-attachment";
import { checkManagedPolicyQuota } from "./iam-quotas";

/** A string or a list of strings, as IAM policy JSON allows for Action, Resource and condition values. */
export type StringOrList = string | string[];

/** One statement of an IAM policy document, in the JSON shape IAM reads (keys as IAM spells them). */
export interface IamStatementJson {
  Sid?: string;
  Effect: "Allow" | "Deny";
  Principal?: "*" | { [kind: string]: StringOrList };
  Resource?: StringOrList;
  Action?: StringOrList;
  /** `{ operator: { conditionKey: value(s) } }`, e.g. `{ StringEquals: { "aws:RequestedRegion": "us-east-1" } }`. */
  Condition?: { [operator: string]: { [key: string]: StringOrList } };
}

/**
 * A policy document as a JSON string. Strings inside may hold cdktf tokens: cdktf resolves them
 * into Terraform interpolations inside the string (never `jsonencode`, so the document stays readable JSON).
 */
export function policyJson(statements: IamStatementJson[], id?: string): string {
  return JSON.stringify({ Version: "2012-10-17", ...(id ? { Id: id } : {}), Statement: statements });
}

/** A trust policy letting one principal assume the role with `actions`, optionally under conditions. */
export function trustPolicyJson(
  principal: { [kind: string]: string },
  actions: StringOrList,
  condition?: IamStatementJson["Condition"],
): string {
  return policyJson([
    { Effect: "Allow", Principal: principal, Action: actions, ...(condition ? { Condition: condition } : {}) },
  ]);
}

/**
 * `arn:<partition>:iam::aws:policy/<name>`. The partition is a parameter (usually the
 * `aws_partition` data source's reference) because AWS-managed policies exist once per partition:
 * a hard-coded `arn:aws:` fails in aws-cn and aws-us-gov.
 */
export function awsManagedPolicyArn(partition: string, name: string): string {
  return `arn:${partition}:iam::aws:policy/${name}`;
}

/**
 * Attaches policy ARNs to a role, one `aws_iam_role_policy_attachment` each, with construct ids
 * `<idPrefix><key>` (keys must be stable so that a plan does not churn when a list grows; the
 * prefix keeps the addresses a construct already deployed, e.g. none for SystemNodeGroup). The role
 * gets the managed-policy quota check (see iam-quotas), reported on `quotaField`.
 */
export function attachPolicies(
  scope: Construct,
  roleName: string,
  policies: { key: string; arn: string }[],
  idPrefix = "attachment-",
  quotaField = "additionalPolicyArns",
): IamRolePolicyAttachment[] {
  checkManagedPolicyQuota(scope, roleName, quotaField);
  return policies.map(
    (p) => new IamRolePolicyAttachment(scope, `${idPrefix}${p.key}`, { role: roleName, policyArn: p.arn }),
  );
}

/** Policy size as IAM counts it (whitespace excluded), for a document whose strings are literal. */
export function policySize(json: string): number {
  return json.replace(/\s/g, "").length;
}
