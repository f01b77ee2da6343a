/*
 * Known hazards of Karpenter releases that an upgrade plan warns about: upstream errata (bugs in
 * artefacts upstream shipped and fixed later), patches to avoid, and changes of behaviour a deploy
 * meets by crossing into a minor (read from the reference charts and CRDs of both sides). Written from
 * shared/reference/karpenter/ERRATA.md / ERRATA.json (each entry's upstream PR and commit in
 * aws/karpenter-provider-aws); nothing is read from there at run time.
 */

/** A known problem of a range of Karpenter releases. */
export interface UpgradeHazardFact {
  /** Stable id; for upstream errata the id of ERRATA.json (`static-capacity-gate-casing`). */
  readonly id: string;
  /**
   * `erratum`: an upstream artefact carries a bug fixed later; `patch`: a patch release to avoid;
   * `change`: what changes for an install that crosses into `versions.from` (listed whenever a plan crosses it).
   */
  readonly kind: "erratum" | "patch" | "change";
  /** First and last affected release, inclusive (`"1.8.0"`–`"1.8.0"`); for a `change`, the `.0` of the minor that brings it, twice. */
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
    library: {
      by: "code",
      text: "refuses values.logOutputPaths / logErrorOutputPaths for 1.0.0–1.0.3 at construction, so they cannot silently do nothing",
    },
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
    library: {
      by: "code",
      text: "always writes settings.featureGates.staticCapacity for 1.8.0, so the controller starts",
    },
    advice:
      "avoid 1.8.0 (use 1.8.1 or later); any other tool installing 1.8.0 must set settings.featureGates.staticCapacity",
    source: "aws/karpenter-provider-aws#8590, first release 1.8.1",
  },
  {
    id: "zonal-shift-resource-scope",
    kind: "erratum",
    versions: { from: "1.12.0", to: "1.12.2" },
    problem:
      "the getting-started template's AllowZonalShiftStatusReadOnly scopes arc-zonal-shift:GetManagedResource to the cluster ARN, which that action does not support: with settings.enableZonalShift the controller's start-up check is denied and it panics",
    library: {
      by: "data",
      text: 'emits the corrected statement (Resource "*", condition arc-zonal-shift:ResourceIdentifier = the cluster ARN, the 1.13.0 form)',
    },
    advice:
      "an install on 1.12 needs the 1.13.0 statement before enabling settings.enableZonalShift (or 1.13.0 or later)",
    source: "aws/karpenter-provider-aws#9123 (issue #9118), first release 1.13.0",
  },
  {
    id: "capacitybuffer-crd",
    kind: "change",
    versions: { from: "1.14.0", to: "1.14.0" },
    problem:
      "the 1.14 karpenter-crd chart adds a fifth CRD, capacitybuffers.autoscaling.x-k8s.io, in the API group autoscaling.x-k8s.io that SIG Autoscaling's cluster-autoscaler project also ships it in; where another tool (a cluster-autoscaler install, another chart) already owns that CRD, Helm refuses the karpenter-crd upgrade because the CRD carries that release's ownership annotations, or the two tools overwrite each other's schema. The 1.14 controller's ClusterRole also gains get/list/watch on capacitybuffers and update/patch on capacitybuffers/status (charts/karpenter/templates/clusterrole-core.yaml)",
    advice:
      "before deploying, run `kubectl get crd capacitybuffers.autoscaling.x-k8s.io -o jsonpath='{.metadata.annotations}'`: absent, nothing to do; owned by another release, decide one owner (remove it from the other tool, or keep Karpenter below 1.14 until they agree on a schema version)",
    source:
      "charts/karpenter-crd/templates/ and charts/karpenter/templates/clusterrole-core.yaml of v1.14.1 against v1.13.1 (shared/reference/karpenter)",
  },
  {
    id: "kubelet-free-form",
    kind: "change",
    versions: { from: "1.15.0", to: "1.15.0" },
    problem:
      "EC2NodeClass spec.kubelet becomes free-form (x-kubernetes-preserve-unknown-fields): the API server accepts any field and the controller judges it, reporting a rejected kubelet configuration (a misspelt field, a field the AMI family cannot apply, a bad expression) as ValidationSucceeded=False on the class, which stays NotReady and launches no node; with 1.14 the same object was refused at apply. Anything that relied on the apply failing (a CI gate, kubectl apply in a script) now passes",
    library: {
      by: "code",
      text: "keeps checking at synth: the 12 typed fields stay typed, other fields are refused on AL2, Bottlerocket and Windows and pass through on AL2023 and Custom (a near-typo of a typed field warns), and kubelet expressions need the install's NodeClassCEL gate",
    },
    advice:
      'after the deploy, check every EC2NodeClass, including those applied by other tools: `kubectl get ec2nodeclass -o jsonpath=\'{range .items[*]}{.metadata.name}{"\\t"}{.status.conditions[?(@.type=="ValidationSucceeded")].status}{"\\n"}{end}\'`',
    source:
      'pkg/apis/crds/karpenter.k8s.aws_ec2nodeclasses.yaml of the v1.15.0 reference; Karpenter v1.15 docs, "NodeClasses: spec.kubelet"',
  },
];
