import { KarpenterVersion } from "./version";

/**
 * One entry of a per-version fact table: it applies from Karpenter minor `since` (inclusive)
 * up to, but not including, `until` (both `"1.N"`; absent = unbounded).
 */
export interface Versioned<T> {
  readonly value: T;
  readonly since?: string;
  readonly until?: string;
}

/** True when `v` lies in [since, until). */
export function inRange(v: KarpenterVersion, since?: string, until?: string): boolean {
  return (since === undefined || v.atLeast(since)) && (until === undefined || !v.atLeast(until));
}

/** The values of a table that apply to `v`, in table order (the upstream order). */
export function forVersion<T>(v: KarpenterVersion, table: readonly Versioned<T>[]): T[] {
  return table.filter((e) => inRange(v, e.since, e.until)).map((e) => e.value);
}

/** Table-entry shorthands: `always(x)`, `since("1.3", x)`, `until("1.1", x)`, `between("1.3", "1.9", x)`. */
export const always = <T>(value: T): Versioned<T> => ({ value });
export const since = <T>(from: string, value: T): Versioned<T> => ({ value, since: from });
export const until = <T>(to: string, value: T): Versioned<T> => ({ value, until: to });
export const between = <T>(from: string, to: string, value: T): Versioned<T> => ({ value, since: from, until: to });
