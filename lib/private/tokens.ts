import { Token } from "cdktf";

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
