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
