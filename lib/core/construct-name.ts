// Kept out of errors.ts, whose exports are the public API (lib/index.ts re-exports it whole).
/**
 * A construct as a message names it, `the NodeOverlay nodes/ov` (its class and construct path), so that one passed
 * where another kind belongs reads as what it is; undefined for a value that is no construct. Duck-typed (a `node`
 * with a string `path`): a construct of another copy of the constructs package fails `instanceof`.
 */
export function constructName(value: unknown): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  try {
    const path = (value as { node?: { path?: unknown } }).node?.path;
    if (typeof path !== "string") return undefined;
    const ctor = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor;
    const kind = typeof ctor?.name === "string" && ctor.name !== "" && ctor.name !== "Object" ? ctor.name : "construct";
    return `the ${kind} ${path || "<root>"}`;
  } catch {
    // a Proxy whose get throws: shown by show()'s JSON branch
    return undefined;
  }
}
