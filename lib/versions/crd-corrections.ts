/*
 * Hand-written: where a reference folder's CRDs are reconstructed (shared/reference/karpenter/v1.15.0/
 * SOURCES.md: upstream main of 2026-08-21, not the release) and the CRDs of the released Go module
 * github.com/aws/karpenter-provider-aws differ, the released schema wins. `npm run add-version` applies
 * these to the facts it reads, so the regeneration test still derives the data from the folder alone.
 * The differences were found by `npm run e2e -- --stage agreement --crds module` (docs/e2e.md, "CRD
 * sources"), which reads pkg/apis/crds/*.yaml of the module at the release.
 */

/** One correction of the CRD facts of a release. */
export interface CrdCorrection {
  /** The release whose reference folder is corrected, e.g. `"1.15.0"`. */
  readonly release: string;
  /** The CRD corrected. */
  readonly kind: "NodePool" | "EC2NodeClass";
  /** Enum values the released CRD has and the folder lacks: CRD path → values. */
  readonly enumValuesAdded: Readonly<Record<string, readonly string[]>>;
  /** Where the released schema says so. */
  readonly source: string;
}

/** Every correction, oldest release first. */
export const CRD_CORRECTIONS: readonly CrdCorrection[] = [
  {
    release: "1.15.0",
    kind: "NodePool",
    // node repair became a disruption method in 1.15: budgets may name it
    enumValuesAdded: { "spec.disruption.budgets[].reasons[]": ["Unhealthy"] },
    source: "pkg/apis/crds/karpenter.sh_nodepools.yaml of github.com/aws/karpenter-provider-aws@v1.15.0",
  },
];

/**
 * `enums` (CRD path → values, as read from a reference folder's CRD of `kind`) with the corrections of
 * `release` applied: each path's values merged with those the released CRD adds, sorted. The one place
 * corrections are applied, for `npm run add-version` and the tests that read the folder themselves.
 */
export function withCorrectedEnums(
  enums: Readonly<Record<string, readonly string[]>>,
  kind: CrdCorrection["kind"],
  release: string,
): Record<string, string[]> {
  const out: Record<string, string[]> = Object.fromEntries(Object.entries(enums).map(([p, v]) => [p, [...v]]));
  for (const c of CRD_CORRECTIONS.filter((x) => x.release === release && x.kind === kind)) {
    for (const [p, values] of Object.entries(c.enumValuesAdded)) out[p] = [...new Set([...(out[p] ?? []), ...values])].sort();
  }
  return out;
}
