import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../core/errors";
import {
  isDns1123Label,
  isDns1123Subdomain,
  isLabelValue as isKubernetesLabelValue,
  qualifiedNameProblem,
} from "./value-rules";
import { isUnresolved } from "../core/tokens";

/*
 * Kubernetes name checks of the install constructs (namespaces, ServiceAccounts, Services, node
 * labels and taints) as KarpenterValidationErrors. The rules themselves are k8s-rules.ts's
 * (k8s.io/apimachinery validation: IsDNS1123Label, IsDNS1123Subdomain, IsQualifiedName, IsValidLabelValue).
 */

const LABEL_TEXT =
  "a DNS-1123 label: 1 to 63 lower-case letters, digits and '-', starting and ending with a letter or digit";
const SUBDOMAIN_TEXT =
  "a DNS-1123 subdomain: 1 to 253 lower-case letters, digits, '-' and '.', starting and ending with a letter or digit";

/** @throws KarpenterValidationError when a literal namespace is not a DNS-1123 label */
export function checkNamespace(scope: IConstruct | string, field: string, namespace: string): void {
  if (isUnresolved(namespace)) return;
  if (!isDns1123Label(namespace)) {
    throw new KarpenterValidationError(
      "KUBERNETES_NAMESPACE",
      scope,
      field,
      namespace,
      `a Kubernetes namespace name, ${LABEL_TEXT}`,
    );
  }
}

/** @throws KarpenterValidationError when a literal ServiceAccount name is not a DNS-1123 subdomain */
export function checkServiceAccountName(scope: IConstruct, field: string, name: string): void {
  if (isUnresolved(name)) return;
  if (!isDns1123Subdomain(name)) {
    throw new KarpenterValidationError(
      "KUBERNETES_SERVICE_ACCOUNT_NAME",
      scope,
      field,
      name,
      `a Kubernetes ServiceAccount name, ${SUBDOMAIN_TEXT}`,
    );
  }
}

/** @throws KarpenterValidationError when a literal Service name is not a DNS-1123 label */
export function checkServiceName(scope: IConstruct, field: string, name: string): void {
  if (isUnresolved(name)) return;
  if (!isDns1123Label(name)) {
    throw new KarpenterValidationError(
      "KUBERNETES_SERVICE_NAME",
      scope,
      field,
      name,
      `a Kubernetes Service name, ${LABEL_TEXT}`,
    );
  }
}

/**
 * Why `key` is not a label or taint key within `maxLength` characters in all (the EKS API allows
 * 63 for node group labels and taints, Kubernetes 253 + 1 + 63), or undefined when it is one.
 */
export function labelKeyProblem(key: string, maxLength: number): string | undefined {
  if (typeof key !== "string") return "it must be a string";
  if (key.length > maxLength) return `it has ${key.length} characters, at most ${maxLength} are allowed`;
  return qualifiedNameProblem(key);
}

/** True when `value` is a label value (empty only when `allowEmpty`: the EKS API rejects empty node label values). */
export function isLabelValue(value: unknown, allowEmpty: boolean): boolean {
  return isKubernetesLabelValue(value) && (allowEmpty || value !== "");
}
