/**
 * A fixed lookup table that a user's string can index safely: without a prototype, so a key such as
 * `constructor`, `toString` or `__proto__` finds nothing instead of a method of Object (a label key or a
 * resource name may be any of those). Frozen, since a table is a fact, not state.
 */
export function lookupTable<T>(entries: { readonly [key: string]: T }): { readonly [key: string]: T } {
  return Object.freeze(Object.assign(Object.create(null) as { [key: string]: T }, entries));
}

/** `table[key]` when `key` is the table's own key, else undefined (for objects that keep Object's prototype, such as parsed JSON). */
export function ownValue<T>(table: { readonly [key: string]: T } | undefined, key: string): T | undefined {
  return table !== undefined && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

/**
 * A deep copy of parsed data (objects and arrays) whose objects have no prototype, frozen: the generated facts
 * are indexed by field paths and values built from user input, and `constructor` must find nothing there.
 */
export function deepLookup<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map((v) => deepLookup(v))) as unknown as T;
  if (value === null || typeof value !== "object") return value;
  const out = Object.create(null) as { [key: string]: unknown };
  for (const [k, v] of Object.entries(value)) out[k] = deepLookup(v);
  return Object.freeze(out) as T;
}
