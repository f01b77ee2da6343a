/*
 * Hand-written: the changes upstream made in a patch release rather than a minor's `.0`. The
 * generated data describes each minor's newest patch only; these facts place the earlier patches.
 * Each was read at the upstream tags of aws/karpenter-provider-aws (the reference keeps only the
 * newest patch of each minor, so `add-version` cannot see them).
 */
import { lookupTable } from "../core/lookup";

/**
 * Chart `settings:` keys and feature gates that first appeared in a patch: `disableDryRun` (1.6.2).
 * `add-version` writes this as the key's `since` instead of the minor's `.0`.
 */
export const SETTING_SINCE_PATCH: Readonly<Record<string, string>> = lookupTable({
  "settings.disableDryRun": "1.6.2",
});

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
 * What the controller does on a Kubernetes version outside the compatibility matrix's range: nothing stops it. At
 * startup it only reads the version; its version controller checks it against MinK8sVersion / MaxK8sVersion (which can
 * be looser than the matrix: 1.15's matrix starts at 1.31, its check at 1.26) only when the discovered version changes,
 * remembered for 24 hours, and on a refusal returns an error that is logged (karpenter-provider-aws v1.15.0
 * pkg/providers/version/version.go:90-103 and :118-128, from pkg/controllers/providers/version/controller.go:45-51;
 * sigs.k8s.io/karpenter v1.15.0 pkg/utils/pretty/changemonitor.go:27-53). Karpenter keeps launching and disrupting
 * nodes on a combination upstream never tested.
 */
export const OUTSIDE_KUBERNETES_RANGE =
  "a combination upstream neither tests nor supports: nothing stops the controller (where its own version check, MinK8sVersion / MaxK8sVersion, refuses the version too, it only logs an error when it discovers the version, at most once a day), and it launches and disrupts nodes on behaviour nobody verified";

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
export const PATCHES_WITHOUT_ARTEFACT_CHANGES: Readonly<Record<string, readonly string[]>> = lookupTable({
  // 1.9.3 (2026-10-22): chores only (Go 1.26.10, pinned linters); in the module proxy's version list of
  // github.com/aws/karpenter-provider-aws (`go list -m -versions`, 2026-12-02) and its GitHub release
  // "v1.9.3 (LTS)" (https://newreleases.io/project/github/aws/karpenter-provider-aws/release/v1.9.3).
  // 1.9.4: https://github.com/aws/karpenter-provider-aws/releases/tag/v1.9.4 ("No CRD upgrade is needed";
  // a controller fix, #9969): an Action-Required change of behaviour, PATCH_BEHAVIOUR_CHANGES.
  "1.9": ["1.9.3", "1.9.4"],
  // 1.14.4: https://github.com/aws/karpenter-provider-aws/releases/tag/v1.14.4 (controller fix #9968, no CRD change)
  "1.14": ["1.14.2", "1.14.3", "1.14.4"],
  // 1.15.3: https://newreleases.io/project/github/aws/karpenter-provider-aws/release/v1.15.3 (the GitHub
  // release's notes: controller fix #9970, "No CRD upgrade is needed"). 1.9.4, 1.14.4 and 1.15.3 are not on
  // the module proxy yet (`go mod download` answers 403 "This module version is not available", 2026-12-02).
  "1.15": ["1.15.1", "1.15.2", "1.15.3"],
});

/** A patch release that changes how Karpenter behaves with the same objects (release notes marked "Action Required"). */
export interface PatchBehaviourChange {
  /** Stable id, e.g. `empty-selector-terms-ignored`. */
  readonly id: string;
  /** The first patch of each minor that has the change, e.g. `["1.9.4", "1.14.4", "1.15.3"]`; later patches of those minors have it too. */
  readonly patches: readonly string[];
  /** What changes, as the release notes say. */
  readonly change: string;
  /** What to do before deploying the patch. */
  readonly advice: string;
  /** What this library does about it. */
  readonly library: string;
  /** The release notes and pull requests. */
  readonly source: string;
}

/**
 * Changes of behaviour shipped in patches: an upgrade plan that crosses one (also within a minor,
 * 1.15.2 → 1.15.3) lists it (lib/upgrade), and docs/versions.md names it.
 */
export const PATCH_BEHAVIOUR_CHANGES: readonly PatchBehaviourChange[] = [
  {
    id: "empty-selector-terms-ignored",
    patches: ["1.9.4", "1.14.4", "1.15.3"],
    change:
      'Karpenter ignores EC2NodeClass selector terms with an empty tags map, an empty name or an empty ssmParameter. An EC2NodeClass whose terms are all empty becomes NotReady, and the nodes it launched are no longer replaced automatically; one with some empty terms selects fewer subnets, security groups or AMIs, and the nodes outside the new selection are replaced as drifted. An AMI term with an owner and nothing else selects nothing (name: "*" with the owner selects all of its images). No CRD change',
    advice:
      'before deploying, find empty selector values in every EC2NodeClass, including those other tools applied (kubectl get ec2nodeclass -o yaml): an empty tags map, name: "", ssmParameter: "", an AMI term with only an owner. Remove them, or write name: "*" beside an owner to keep selecting all its images; after fixing a class that became NotReady, replace its nodes',
    library:
      'refuses such terms at synth in every version (EC2NodeClass, and `convert` notes them), so classes of this app have none; name: "*" with an owner passes',
    source:
      'release notes of v1.15.3, v1.14.4 and v1.9.4 (https://github.com/aws/karpenter-provider-aws/releases/tag/v1.14.4, …/v1.9.4; https://newreleases.io/project/github/aws/karpenter-provider-aws/release/v1.15.3): "skip EC2NodeClass selector terms without filters", aws/karpenter-provider-aws#9964 (back-ports #9968, #9969, #9970)',
  },
];
