/*
 * Hand-written: the changes upstream made in a patch release rather than a minor's `.0`. The
 * generated data describes each minor's newest patch only; these facts place the earlier patches.
 * Each was read at the upstream tags of aws/karpenter-provider-aws (the reference keeps only the
 * newest patch of each minor, so `add-version` cannot see them).
 */

/**
 * Chart `settings:` keys and feature gates that first appeared in a patch: `disableDryRun` (1.6.2).
 * `add-version` writes this as the key's `since` instead of the minor's `.0`.
 */
export const SETTING_SINCE_PATCH: Readonly<Record<string, string>> = {
  "settings.disableDryRun": "1.6.2",
};

/**
 * Kubernetes ranges of the early patches of a minor, before support for a newer Kubernetes minor
 * was added in a patch (constants `MinK8sVersion` / `MaxK8sVersion` of
 * pkg/providers/version/version.go at the tags): 1.0.0–1.0.4 stop at 1.30, 1.6.0–1.6.5 and
 * 1.7.0–1.7.3 at 1.33. From `until` on, the minor's generated range applies.
 */
export const KUBERNETES_EARLY_PATCHES: readonly {
  readonly minor: string;
  readonly until: string;
  readonly min: string;
  readonly max: string;
}[] = [
  { minor: "1.0", until: "1.0.5", min: "1.25", max: "1.30" },
  { minor: "1.6", until: "1.6.6", min: "1.26", max: "1.33" },
  { minor: "1.7", until: "1.7.4", min: "1.26", max: "1.33" },
];

/**
 * Chart value paths a patch added or removed (charts/karpenter/values.yaml at the tags). The
 * generated paths of a minor are its newest patch's; a release before `patch` lacks the `added`
 * paths and still has the `removed` ones.
 */
export const VALUE_PATHS_PATCH_CHANGES: readonly {
  readonly patch: string;
  readonly added?: readonly string[];
  readonly removed?: readonly string[];
}[] = [
  // erratum log-output-paths-ignored: 1.0.0–1.0.3 values.yaml offers them, but no template reads
  // them (upstream PR #6994, back-port of #6875): they take effect from 1.0.4, so they count from there
  { patch: "1.0.4", added: ["logOutputPaths[]", "logErrorOutputPaths[]"] },
  {
    patch: "1.0.1",
    removed: ["postInstallHook.image.repository", "postInstallHook.image.tag", "postInstallHook.image.digest"],
  },
  { patch: "1.1.1", added: ["schedulerName", "controller.containerName"] },
  { patch: "1.5.3", removed: ["podSecurityContext.runAsNonRoot"] },
];

/**
 * Patch releases newer than the patch a minor's data was read from, known to exist (GitHub releases of
 * aws/karpenter-provider-aws, and their Go module versions on the module proxy) and documented with no
 * change to any artefact the data holds: the getting-started CloudFormation (IAM, queue, rules), the chart's
 * values.yaml (settings, gates, value paths) and the CRDs. They install without the "newer than the
 * newest known patch" warning, on their minor's facts. A patch whose release notes change one of those
 * artefacts needs its reference folder and `npm run add-version` instead (docs/versions.md).
 */
export const PATCHES_WITHOUT_ARTEFACT_CHANGES: Readonly<Record<string, readonly string[]>> = {
  "1.14": ["1.14.2", "1.14.3"],
  "1.15": ["1.15.1", "1.15.2"],
};
