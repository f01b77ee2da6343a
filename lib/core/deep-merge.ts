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

/**
 * An object written as `{ … }` in any realm (its prototype is null or a realm's Object.prototype): not a list,
 * not a Map, Set, Date or other class instance. Unlike {@link isPlainMap}, an object of another realm (a vm
 * context's, or structuredClone's under a test runner) counts.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** A JSON-like object (not a list, not null, not a class instance such as a token). */
export function isPlainMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Where a value cannot be walked: a cycle (`path` is the object `target` itself) or nesting deeper than allowed. */
export type UnwalkablePlace =
  | { kind: "cycle"; path: string; target: string }
  | { kind: "deep"; path: string }
  | { kind: "unreadable"; path: string; reason: string };

/**
 * The first place where `value` contains one of its own ancestors (plain maps and lists alike), as
 * `{ path, target }` paths built from `field` (`values.a.b`, `values.list[0]`); undefined when there is
 * none. The same object twice side by side is no cycle. Iterative, so a deep value cannot overflow the stack.
 */
export function findCycle(value: unknown, field: string): { path: string; target: string } | undefined {
  const found = findUnwalkable(value, field);
  return found?.kind === "cycle" ? { path: found.path, target: found.target } : undefined;
}

/**
 * The first place of `value` that a recursive walk (the checks, the JSON of a manifest) could not finish: a plain
 * map or list inside itself (`kind: "cycle"`), or one nested deeper than `maxDepth` maps and lists (`kind: "deep"`,
 * `path` the first too deep). Only plain maps and lists are entered: a token, a construct or another class
 * instance is not walked. Iterative, so neither can overflow the stack here.
 * @param field the path of `value`, the start of every path returned
 * @param maxDepth how many maps and lists may nest (`value` itself is the first); unlimited by default
 * @param key the path of a map's entry (default `<path>.<key>`)
 */
export function findUnwalkable(
  value: unknown,
  field: string,
  maxDepth = Infinity,
  key: (path: string, key: string) => string = (path, k) => `${path}.${k}`,
): UnwalkablePlace | undefined {
  const ancestors = new Map<unknown, string>();
  // each frame: the object, its path, and the children still to visit
  const stack: { node: object; path: string; children: [string, unknown][] }[] = [];
  const push = (node: unknown, path: string): UnwalkablePlace | undefined => {
    // plain maps and lists only: a token or construct object (a TerraformVariable) is not walked
    let walked: boolean;
    try {
      walked = Array.isArray(node) || isPlainMap(node);
    } catch (e) {
      // a revoked Proxy throws on any look at it
      return { kind: "unreadable", path, reason: e instanceof Error ? e.message : String(e) };
    }
    if (!walked) return undefined;
    const seen = ancestors.get(node);
    if (seen !== undefined) return { kind: "cycle", path, target: seen };
    if (stack.length >= maxDepth) return { kind: "deep", path };
    ancestors.set(node, path);
    let children: [string, unknown][];
    try {
      children = Array.isArray(node)
        ? node.map((v, i) => [`${path}[${i}]`, v])
        : Object.entries(node as object).map(([k, v]) => [key(path, k), v]);
    } catch (e) {
      // a getter that throws
      return { kind: "unreadable", path, reason: e instanceof Error ? e.message : String(e) };
    }
    stack.push({ node: node as object, path, children: children.reverse() });
    return undefined;
  };
  let found = push(value, field);
  while (!found && stack.length > 0) {
    const top = stack[stack.length - 1];
    const next = top.children.pop();
    if (next === undefined) {
      ancestors.delete(top.node);
      stack.pop();
    } else {
      found = push(next[1], next[0]);
    }
  }
  return found;
}
