import { DefaultTokenResolver, StringConcat, TerraformStack, Token, Tokenization } from "cdktf";
import { IConstruct } from "constructs";

/**
 * True when a value (or anything inside it) is only known at apply time: a cdktf token.
 * Validation skips such values and leaves them to Terraform or the Kubernetes API server.
 */
export function isUnresolved(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Token.isUnresolved(value)) return true;
  if (Array.isArray(value)) return value.some(isUnresolved);
  if (typeof value === "object") return Object.values(value as Record<string, unknown>).some(isUnresolved);
  return false;
}

/**
 * A value resolved in the stack of `scope` to the text Terraform would see: a resource attribute
 * becomes its reference, `${aws_iam_role.node.name}`. Every read of an attribute is a fresh token,
 * so two references to the same attribute are only comparable once resolved this way (and only
 * within one stack: the same text in another stack names another resource).
 */
export function resolvedReference(scope: IConstruct, value: string): string;
export function resolvedReference(scope: IConstruct, value: unknown): unknown;
export function resolvedReference(scope: IConstruct, value: unknown): unknown {
  const resolved = Tokenization.resolve(value, {
    scope: TerraformStack.of(scope),
    preparing: false,
    resolver: new DefaultTokenResolver(new StringConcat()),
  });
  return typeof value === "string" ? String(resolved) : resolved;
}
