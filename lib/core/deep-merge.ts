/**
 * Merges Helm values the way Helm merges a values file over the chart's defaults: maps merge key by
 * key (recursively), while lists, scalars and `null` replace what was there. A `null` is kept, so that
 * Helm then drops the chart's own default for that key too (`helm install --set key=null` behaviour).
 *
 * Own code rather than a library: lodash `merge` merges lists index by index and `deepmerge`
 * concatenates them, neither of which is what Helm does. Inputs are not modified.
 */
export function mergeHelmValues(
  base: Record<string, unknown>,
  override: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    const current = out[key];
    out[key] = isPlainMap(current) && isPlainMap(value) ? mergeHelmValues(current, value) : value;
  }
  return out;
}

/** A JSON-like object (not a list, not null, not a class instance such as a token). */
export function isPlainMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
