/*
 * Known hazards of Karpenter releases that an upgrade plan warns about: upstream errata (bugs in
 * artefacts upstream shipped and fixed later) and patches to avoid. Written from
 * shared/reference/karpenter/ERRATA.md / ERRATA.json (each entry's upstream PR and commit in
 * aws/karpenter-provider-aws); nothing is read from there at run time.
 */

/** A known problem of a range of Karpenter releases. */
export interface UpgradeHazardFact {
  /** Stable id; for upstream errata the id of ERRATA.json (`static-capacity-gate-casing`). */
  readonly id: string;
  /** `erratum`: an upstream artefact carries a bug fixed later; `patch`: a patch release to avoid. */
  readonly kind: "erratum" | "patch";
  /** First and last affected release, inclusive (`"1.8.0"`–`"1.8.0"`). */
  readonly versions: { readonly from: string; readonly to: string };
  /** What is wrong, in one or two sentences. */
  readonly problem: string;
  /**
   * What an install made with this library gets for these releases. `data`: the version facts
   * carry the correction (the release's `errata` lists the id); `code`: the constructs work around
   * it; absent: nothing is corrected, only the advice helps.
   */
  readonly library?: { readonly by: "data" | "code"; readonly text: string };
  /** What to do: the release that fixes it, or the setting to avoid. */
  readonly advice: string;
  /** The upstream fix: pull request and first release that has it. */
  readonly source: string;
}

/** Every known hazard, oldest release first. */
export const UPGRADE_HAZARDS: readonly UpgradeHazardFact[] = [
  {
    id: "log-output-paths-ignored",
    kind: "erratum",
    versions: { from: "1.0.0", to: "1.0.3" },
    problem:
      "the karpenter chart offers logOutputPaths and logErrorOutputPaths, but only helpers that no template includes read them (karpenter.outputPathsList / karpenter.errorOutputPathsList in _helpers.tpl): setting them has no effect",
    library: { by: "code", text: "refuses values.logOutputPaths / logErrorOutputPaths for 1.0.0–1.0.3 at construction, so they cannot silently do nothing" },
    advice: "do not rely on logOutputPaths / logErrorOutputPaths before 1.0.4; stop at 1.0.4 or later",
    source: "aws/karpenter-provider-aws#6994 (back-port of #6875), first release 1.0.4",
  },
  {
    id: "passrole-china-partition",
    kind: "erratum",
    versions: { from: "1.0.0", to: "1.0.14" },
    problem:
      "the getting-started template's AllowPassingInstanceRole allows iam:PassedToService ec2.amazonaws.com only; in aws-cn EC2 is ec2.amazonaws.com.cn, so passing the node role is denied and no node launches in China regions",
    library: { by: "data", text: "grants both ec2.amazonaws.com and ec2.amazonaws.com.cn (the 1.1.0 form)" },
    advice: "in aws-cn, an install on 1.0 needs the 1.1.0 condition (or 1.1.0 or later)",
    source: "aws/karpenter-provider-aws#6839, first release 1.1.0",
  },
  {
    id: "static-capacity-gate-casing",
    kind: "erratum",
    versions: { from: "1.8.0", to: "1.8.0" },
    problem:
      'the 1.8.0 chart\'s values.yaml defines settings.featureGates.StaticCapacity while its deployment template reads staticCapacity: unless the install sets staticCapacity, FEATURE_GATES gets "StaticCapacity=" and the controller panics at start-up ("parsing feature gates, invalid value of StaticCapacity", issue #8608)',
    library: { by: "code", text: "always writes settings.featureGates.staticCapacity for 1.8.0, so the controller starts" },
    advice: "avoid 1.8.0 (use 1.8.1 or later); any other tool installing 1.8.0 must set settings.featureGates.staticCapacity",
    source: "aws/karpenter-provider-aws#8590, first release 1.8.1",
  },
  {
    id: "zonal-shift-resource-scope",
    kind: "erratum",
    versions: { from: "1.12.0", to: "1.12.2" },
    problem:
      "the getting-started template's AllowZonalShiftStatusReadOnly scopes arc-zonal-shift:GetManagedResource to the cluster ARN, which that action does not support: with settings.enableZonalShift the controller's start-up check is denied and it panics",
    library: { by: "data", text: 'emits the corrected statement (Resource "*", condition arc-zonal-shift:ResourceIdentifier = the cluster ARN, the 1.13.0 form)' },
    advice: "an install on 1.12 needs the 1.13.0 statement before enabling settings.enableZonalShift (or 1.13.0 or later)",
    source: "aws/karpenter-provider-aws#9123 (issue #9118), first release 1.13.0",
  },
];
