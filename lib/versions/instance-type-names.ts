/*
 * The labels Karpenter derives from an instance type's name alone (aws/karpenter-provider-aws v1.15.0
 * pkg/providers/instancetype/types.go:52, :407-416): the facts the instance-type list (instance-type-facts.ts) and the
 * NodePool rules (nodes/instance-name-rules.ts) both read.
 */

export const INSTANCE_TYPE_KEY = "node.kubernetes.io/instance-type";
export const FAMILY_KEY = "karpenter.k8s.aws/instance-family";
export const CATEGORY_KEY = "karpenter.k8s.aws/instance-category";
export const GENERATION_KEY = "karpenter.k8s.aws/instance-generation";
export const SIZE_KEY = "karpenter.k8s.aws/instance-size";

/** The labels Karpenter derives from an instance type's name (see the file comment). */
export const NAME_KEYS: readonly string[] = [INSTANCE_TYPE_KEY, FAMILY_KEY, CATEGORY_KEY, GENERATION_KEY, SIZE_KEY];

/** aws/karpenter-provider-aws v1.15.0 pkg/providers/instancetype/types.go:52. */
const INSTANCE_TYPE_SCHEME = /^([a-z]+)(-[0-9]+tb)?([0-9]+).*\./;

export const NAME_SOURCE =
  'Karpenter derives instance-family and instance-size from the instance type\'s name split at "." and instance-category and instance-generation from its leading letters and the digits after them (aws/karpenter-provider-aws v1.15.0 pkg/providers/instancetype/types.go:52 instanceTypeScheme, :407-416)';

/** The labels an instance type's name gives it (absent labels left out). */
export function labelsOfName(type: string): { [key: string]: string } {
  const out: { [key: string]: string } = { [INSTANCE_TYPE_KEY]: type };
  const scheme = INSTANCE_TYPE_SCHEME.exec(type);
  if (scheme) {
    out[CATEGORY_KEY] = scheme[1];
    out[GENERATION_KEY] = scheme[3];
  }
  const parts = type.split(".");
  if (parts.length === 2) {
    out[FAMILY_KEY] = parts[0];
    out[SIZE_KEY] = parts[1];
  }
  return out;
}
