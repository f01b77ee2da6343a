import { IConstruct } from "constructs";
import { Annotations } from "cdktf";
import { leafPaths } from "./chart-values";
import { isPlainMap } from "./deep-merge";

/*
 * `values` is the escape hatch, merged last: where it sets a chart value that a typed prop also set,
 * `values` wins (Helm's merge), which is easy to miss. Such an overlap is not an error (values may
 * deliberately replace a typed default), but synth warns naming both, and the checks that depend on
 * the value (replicas against the system node group, tolerations of its taints) run on the merged
 * value, naming `values.<path>` when it came from there.
 */

/** A chart value a typed prop set explicitly: its path in the chart values and the prop that set it. */
export interface TypedValue {
  /** The key path in the chart values, e.g. `["controller", "resources", "requests", "cpu"]`. */
  readonly parts: readonly string[];
  /** The prop, e.g. `controllerResources.requests.cpu`. */
  readonly field: string;
  /** The value the prop set. */
  readonly value: unknown;
}

/**
 * The typed values of one prop: each leaf of `given` (a map prop is split into its keys), under the
 * chart path `parts` and the prop name `field`. Nothing when `given` is undefined.
 */
export function typedValues(parts: readonly string[], field: string, given: unknown): TypedValue[] {
  if (given === undefined) return [];
  if (!isPlainMap(given)) return [{ parts, field, value: given }];
  return leafPaths(given).map((l) => ({ parts: [...parts, ...l.parts], field: [field, ...l.parts].join("."), value: l.value }));
}

/** Whether `a` is a prefix of `b` or `b` of `a`: one of them replaces (part of) the other. */
function overlap(a: readonly string[], b: readonly string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Warns once per typed prop that a path of `values` overrides, naming both and the value that is
 * deployed (the one in `values`).
 */
export function warnValuesOverlaps(scope: IConstruct, typed: readonly TypedValue[], values: Record<string, unknown> | undefined): void {
  if (!values) return;
  const given = leafPaths(values).filter((l) => l.parts.length > 0);
  const warned = new Set<string>();
  for (const t of typed) {
    const hit = given.find((g) => overlap(g.parts, t.parts));
    if (!hit || warned.has(t.field)) continue;
    warned.add(t.field);
    const shown = (v: unknown) => (v === null ? "null (removed)" : JSON.stringify(v) ?? String(v));
    Annotations.of(scope).addWarning(
      `values.${hit.parts.join(".")} = ${shown(hit.value)} overrides ${t.field} = ${shown(t.value)}: values is merged last, so the values.${hit.parts.join(".")} one is deployed. Set it in one place only (prefer ${t.field}, which is checked and documented)`,
    );
  }
}

/** Parents (a Karpenter) that report the overlaps of their KarpenterRelease themselves, on the props the user set. */
const reportedAbove = new WeakSet<IConstruct>();

/** Marks `parent` as reporting the `values` overlaps of the KarpenterRelease it creates. */
export function reportValuesOverlapsHere(parent: IConstruct): void {
  reportedAbove.add(parent);
}

/** True when the parent of `release` reports its `values` overlaps (so the release stays quiet). */
export function overlapsReportedAbove(release: IConstruct): boolean {
  const parent = release.node.scope;
  return parent !== undefined && reportedAbove.has(parent);
}
