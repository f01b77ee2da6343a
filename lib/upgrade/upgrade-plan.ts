import { KarpenterValidationError } from "../core/errors";
import {
  behaviourChangesBetween,
  compareVersions as compare,
  knownMinors,
  newestPatchOf,
  OBJECT_CRD_KINDS,
  ObjectCrdFacts,
  ObjectCrdKind,
  PolicyStatementFact,
  SettingFact,
  VersionFacts,
  versionFacts,
} from "./facts";
import { UPGRADE_HAZARDS } from "./hazards";
import { OUTSIDE_KUBERNETES_RANGE } from "../versions/patch-history";
import { swappedNodePolicy } from "../aws/node-role-policies";

/*
 * What changes between two Karpenter releases, as an install of this library sees it: per minor
 * crossed, the differences of the version facts (controller policy by Sid, node role policies,
 * interruption rules, chart settings and feature gates, CRD fields and enum values); the known
 * hazards on the way; and the order `cdktf deploy` applies the change in (CRD release, IAM and
 * interruption rules, controller release, node objects: the controller release's depends_on).
 */

/** Added and removed members of a list. */
export interface ListChange<T = string> {
  /** Members of the newer side only, in its order. */
  readonly added: T[];
  /** Members of the older side only, in its order. */
  readonly removed: T[];
}

/** One condition value of an IAM statement: `StringEquals` `iam:PassedToService` = `ec2.amazonaws.com`. */
export interface ConditionEntry {
  /** The condition operator, e.g. `StringEquals`, `ForAllValues:StringEquals`. */
  readonly operator: string;
  /** The condition key, e.g. `iam:PassedToService`, `aws:RequestTag/kubernetes.io/cluster/{cluster}`. */
  readonly key: string;
  /** One value of the key (a list of values gives one entry each). */
  readonly value: string;
}

/** How one controller policy statement (by Sid) changes. */
export interface StatementChange {
  /** The statement's Sid, e.g. `AllowRegionalReadActions`. */
  readonly sid: string;
  /** `added` / `removed`: the whole statement; `changed`: see the lists. */
  readonly change: "added" | "removed" | "changed";
  /** The managed policy (1.9+ group, e.g. `NodeLifecycle`) of the newer side, when known. */
  readonly policy?: string;
  /** IAM actions added and removed (all of them for an added or removed statement). */
  readonly actions: ListChange;
  /** Resources added and removed, with symbols for the install's values: {partition} {region} {account} {cluster} {queue_arn} {node_role_arn}. */
  readonly resources: ListChange;
  /** Condition values added and removed, one entry per operator, key and value. */
  readonly conditions: ListChange<ConditionEntry>;
  /** Set when the effect changes. */
  readonly effect?: { readonly from: string; readonly to: string };
  /** Set when the statement moves to another managed policy (both sides in the 1.9+ layout). */
  readonly movedPolicy?: { readonly from: string; readonly to: string };
}

/** How one chart setting or feature gate changes. */
export interface SettingChange {
  /** The key under `settings` (or `settings.featureGates`, `settings.awsFeatureGates`), e.g. `batchMaxDuration`. */
  readonly key: string;
  /** What happens to the key. */
  readonly change: "added" | "removed" | "default changed";
  /** The chart default before (absent for `added`, or when the chart has none; `null`: left to the controller). */
  readonly from?: string | number | boolean | null;
  /** The chart default after (absent for `removed`, or when the chart has none; `null`: left to the controller). */
  readonly to?: string | number | boolean | null;
}

/** An EventBridge rule of the interruption queue. */
export interface InterruptionRuleFact {
  /** The library's short key of the rule (rule names are `<prefix>-<key>`), e.g. `CapacityReservation`. */
  readonly key: string;
  /** The event pattern's `source`, e.g. `["aws.ec2"]`. */
  readonly source: string[];
  /** The event pattern's `detail-type`, e.g. `["EC2 Spot Instance Interruption Warning"]`. */
  readonly detailType: string[];
}

/** How one CRD changes: spec fields (dotted, arrays as `[]`) and enum values per field. */
export interface CrdChange {
  /**
   * Spec fields added and removed, e.g. `spec.placementGroupSelector`, `spec.template.spec.requirements[].minValues`.
   * Fields below an object that became free-form are not removed (they are still accepted): see `freeForm`.
   */
  readonly fields: ListChange;
  /** Objects that became free-form (`added`: the API server stops judging their fields, e.g. 1.15's `spec.kubelet`) or typed again (`removed`). */
  readonly freeForm: ListChange;
  /** Per field with an enum (a new field's values count as added): the values added and removed. */
  readonly enumValues: { readonly path: string; readonly added: string[]; readonly removed: string[] }[];
}

/**
 * How the CRD of an object beyond NodePool and EC2NodeClass (NodeOverlay, CapacityBuffer) changes: as a
 * {@link CrdChange}, plus whether the karpenter-crd chart ships it on each side and the API version it serves.
 * A CRD that appears counts every field and enum value as added; one that goes, every one as removed.
 */
export interface ObjectCrdChange extends CrdChange {
  /** The object's kind, e.g. `NodeOverlay`. */
  readonly kind: string;
  /**
   * `added`: only the newer side's karpenter-crd chart ships the CRD (NodeOverlay from 1.7, CapacityBuffer from
   * 1.14); `removed`: only the older side's (the chart's upgrade deletes the CRD, and Kubernetes every object of
   * it); `kept`: both; `absent`: neither (nothing else of the change is set then).
   */
  readonly crd: "added" | "removed" | "kept" | "absent";
  /**
   * The API version (`<group>/<version>`, e.g. `karpenter.sh/v1alpha1`) each side serves the kind as; a side
   * without the CRD has none. Both set and different: the API version changes, and manifests must be rewritten
   * to the new one.
   */
  readonly apiVersion: { readonly from?: string; readonly to?: string };
  /**
   * The feature gate (`settings.featureGates.<key>`) the newer side's chart has for the kind, e.g. `nodeOverlay`:
   * its controller reads the objects only with the gate on. Unset when its chart has none (or lacks the CRD).
   * @default unset
   */
  readonly featureGate?: string;
}

/** What changes from one release to another (one minor crossed, or the whole way). */
export interface UpgradeStep {
  /** The release upgraded from, e.g. `"1.2.8"`. */
  readonly from: string;
  /** The release upgraded to. */
  readonly to: string;
  /** The Kubernetes ranges of both releases. */
  readonly kubernetes: { readonly from: KubernetesRange; readonly to: KubernetesRange };
  /** Controller policy statements that change, by Sid, in the newer side's order. */
  readonly controllerPolicy: StatementChange[];
  /**
   * Controller managed policies (1.9+ groups, e.g. `ZonalShift`) created or deleted. Groups of a
   * pre-1.9 side are taken from the other side's layout (this library uses the 1.9+ grouping for every version).
   */
  readonly controllerPolicies: ListChange;
  /** Set when upstream's policy layout changes (1.8 → 1.9 splits one policy into several). */
  readonly policyLayout?: string;
  /** AWS-managed policies of the node role. */
  readonly nodeRolePolicies: ListChange;
  /** EventBridge rules to the interruption queue. */
  readonly interruptionRules: ListChange<InterruptionRuleFact>;
  /**
   * The `karpenter` chart: `settings` keys, feature gates and AWS feature gates (added, removed, default changed),
   * and the other value paths (notation of the chart-values table: `podLabels{}` a map, `tolerations[]` a list,
   * `serviceMonitor.sampleLimit~` a key whose default is null; the Markdown spells these out).
   */
  readonly chart: {
    readonly settings: SettingChange[];
    readonly featureGates: SettingChange[];
    readonly awsFeatureGates: SettingChange[];
    readonly valuePaths: ListChange;
  };
  /** The NodePool and EC2NodeClass CRDs, and those of NodeOverlay and CapacityBuffer ({@link ObjectCrdChange}). */
  readonly crds: {
    readonly nodePool: CrdChange;
    readonly ec2NodeClass: CrdChange;
    readonly nodeOverlay: ObjectCrdChange;
    readonly capacityBuffer: ObjectCrdChange;
  };
  /** Ids of the errata whose corrections the facts carry: on the older side, on the newer side. */
  readonly errata: { readonly from: string[]; readonly to: string[] };
}

/** The Kubernetes minors a release runs on, e.g. `{ min: "1.26", max: "1.34" }`. */
export interface KubernetesRange {
  /** The oldest Kubernetes minor, e.g. `"1.26"`. */
  readonly min: string;
  /** The newest Kubernetes minor, e.g. `"1.34"`. */
  readonly max: string;
}

/** A known hazard that matters for this upgrade. */
export interface UpgradeHazard {
  /** Stable id: an erratum's id (`static-capacity-gate-casing`), or `kubernetes-early-patches-1.7.0`, `downgrade`, …. */
  readonly id: string;
  /** `erratum` (upstream artefact bug), `patch` (a patch to avoid), `change` (behaviour met by crossing into a minor, or into a patch that changed it: 1.15.3's empty selector terms), `kubernetes` (version ranges), `downgrade`, `unverified` (a patch newer than the facts). */
  readonly kind: "erratum" | "patch" | "change" | "kubernetes" | "downgrade" | "unverified";
  /** The affected releases, e.g. `"1.8.0"` or `"1.7.0–1.7.3"`. */
  readonly versions: string;
  /**
   * `from` / `to`: the release upgraded from / to is affected (a `change` is met on the way to `to`). The plan is
   * one deploy from `from` to `to`, which installs no release in between, so errata and patches of releases
   * in between are not listed (`on the way` is not produced).
   */
  readonly where: "from" | "to" | "from and to" | "on the way";
  /** What goes wrong. */
  readonly problem: string;
  /** What an install of this library gets, when it differs from upstream's artefact. */
  readonly library?: string;
  /** What to do. */
  readonly advice: string;
  /** Upstream fix or source, when known. */
  readonly source?: string;
}

/** One phase of `cdktf deploy`, in the order Terraform applies them. */
export interface DeployPhase {
  /** 1-based position. */
  readonly order: number;
  /** The phase's name. */
  readonly phase: "CRD release" | "IAM policies and interruption rules" | "controller release" | "node objects";
  /** The resources of the phase, by Terraform type and construct. */
  readonly resources: string;
  /** Why it comes at this point. */
  readonly why: string;
  /** What changes in it for this upgrade (empty: only the version). */
  readonly changes: string[];
}

/** The plan for moving an install of this library from one Karpenter release to another. */
export interface UpgradePlan {
  /** The release upgraded from (a minor given alone is its newest known patch). */
  readonly from: string;
  /** The release upgraded to. */
  readonly to: string;
  /**
   * How a minor given alone was read, one sentence per side, e.g. `from "1.14" is taken as 1.14.4, the
   * newest known 1.14 patch`; empty when both sides were given as releases.
   */
  readonly assumed: string[];
  /**
   * `none` when both are the same release: nothing to upgrade, so `steps` and `deployOrder` are
   * empty (`net` is a step without changes); `hazards` still lists the known hazards of that release.
   */
  readonly direction: "upgrade" | "downgrade" | "none";
  /**
   * Kubernetes ranges of both releases and the versions both run on (`both` absent: none, the
   * cluster must be upgraded between Karpenter upgrades); `cluster` / `clusterSupported` when a
   * Kubernetes version was given.
   */
  readonly kubernetes: {
    readonly from: KubernetesRange;
    readonly to: KubernetesRange;
    readonly both?: KubernetesRange;
    readonly cluster?: string;
    readonly clusterSupported?: boolean;
  };
  /**
   * One step per minor crossed, each from the previous minor's newest known patch (the first from
   * `from`, the last to `to`); empty for the same release. They explain the change minor by minor;
   * they are not deploys: one `cdktf deploy` goes from `from` to `to` ({@link net}, {@link deployOrder}).
   */
  readonly steps: UpgradeStep[];
  /** The change `cdktf deploy` makes at once: `from` straight to `to`. */
  readonly net: UpgradeStep;
  /** The known hazards of both releases, and the changes of behaviour met on the way. */
  readonly hazards: UpgradeHazard[];
  /** What `cdktf deploy` does, in order; empty for the same release (it changes nothing). */
  readonly deployOrder: DeployPhase[];
}

/** Options of {@link upgradePlan}. */
export interface UpgradePlanOptions {
  /**
   * The Kubernetes minor the cluster runs, e.g. `"1.31"`: the plan says whether both releases run
   * on it (a hazard when not).
   * @default unset: only the ranges are reported
   */
  readonly kubernetesVersion?: string;
}

/** Where a plan gets its facts: {@link versionFacts}-like lookup and the known minors. */
export interface FactsSource {
  /** The facts of a release `"1.x.y"` or of a minor `"1.x"` (its newest known patch); throws KarpenterValidationError for an unknown one. */
  facts(version: string): VersionFacts;
  /** The known minors, oldest first. */
  knownMinors(): string[];
  /** The newest patch of a minor known to exist, when newer than its facts' release (a patch without artefact changes). @default the facts' release */
  newestPatch?(minor: string): string | undefined;
}

const minorOf = (v: string) => v.split(".").slice(0, 2).join(".");
const patchOf = (v: string) => Number(v.split(".")[2] ?? 0);

/**
 * The plan for an install of this library moving from Karpenter `from` to `to`, from the facts of
 * `source`. Exported for tests with fixture facts; use {@link upgradePlan}.
 * @throws KarpenterValidationError naming `from`, `to` or `options.kubernetesVersion` for a
 * malformed or unknown version
 */
export function planUpgrade(
  given: FactsSource,
  from: string,
  to: string,
  options: UpgradePlanOptions = {},
): UpgradePlan {
  const where = "upgradePlan";
  // the hazards look at every patch of the minors crossed: read each release's facts once
  const memo = new Map<string, VersionFacts>();
  const source: FactsSource = {
    knownMinors: () => given.knownMinors(),
    newestPatch: given.newestPatch ? (m) => given.newestPatch!(m) : undefined,
    facts: (v) => {
      if (!memo.has(v)) memo.set(v, given.facts(v));
      return memo.get(v)!;
    },
  };
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw new KarpenterValidationError(
      "OPTIONS_NOT_AN_OBJECT",
      where,
      "options",
      options,
      "an object { kubernetesVersion } (or nothing)",
    );
  for (const [key, value] of Object.entries(options)) {
    // a misspelt key (`kubernetes`) would silently drop the cluster check
    if (key !== "kubernetesVersion")
      throw new KarpenterValidationError(
        "OPTIONS_UNKNOWN_KEY",
        where,
        `options.${key}`,
        value,
        "not an option of upgradePlan (options: kubernetesVersion)",
      );
  }
  const a = resolve(source, where, "from", from);
  const b = resolve(source, where, "to", to);
  const k8s = options.kubernetesVersion;
  if (k8s !== undefined && (typeof k8s !== "string" || !/^1\.\d+$/.test(k8s.trim().replace(/^v/, "")))) {
    throw new KarpenterValidationError(
      "UPGRADE_PLAN_KUBERNETES_VERSION",
      where,
      "options.kubernetesVersion",
      k8s,
      'a Kubernetes minor such as "1.31"',
    );
  }
  const cluster = k8s?.trim().replace(/^v/, "");
  const direction =
    compare(a.version, b.version) < 0 ? "upgrade" : compare(a.version, b.version) > 0 ? "downgrade" : "none";

  // the releases passed through: from, the newest patch of each minor in between, to
  const minors = source.knownMinors();
  const [lo, hi] = direction === "downgrade" ? [b, a] : [a, b];
  const between = minors
    .filter((m) => compare(m, minorOf(lo.version)) > 0 && compare(m, minorOf(hi.version)) < 0)
    .map((m): Resolved => {
      const facts = source.facts(m);
      return { version: facts.version, facts };
    });
  if (direction === "downgrade") between.reverse();
  const path = direction === "none" ? [a] : [a, ...between, b];
  const steps = path
    .slice(1)
    .map((next, i) => compareVersionFacts(path[i].facts, next.facts, path[i].version, next.version));
  const net = compareVersionFacts(a.facts, b.facts, a.version, b.version);

  const both = intersect(a.facts.kubernetes, b.facts.kubernetes);
  const clusterSupported =
    cluster === undefined ? undefined : inRange(cluster, a.facts.kubernetes) && inRange(cluster, b.facts.kubernetes);
  const plan = {
    from: a.version,
    to: b.version,
    assumed: [a, b].flatMap((r, i) =>
      r.minorGiven
        ? [
            `${i === 0 ? "from" : "to"} "${r.minorGiven}" is taken as ${r.version}, the newest known ${r.minorGiven} patch`,
          ]
        : [],
    ),
    direction,
    kubernetes: {
      from: { ...a.facts.kubernetes },
      to: { ...b.facts.kubernetes },
      ...(both ? { both } : {}),
      ...(cluster !== undefined ? { cluster, clusterSupported } : {}),
    },
    steps,
    net,
  } as const;
  return {
    ...plan,
    hazards: hazards(source, a, b, lo.version, hi.version, direction, minors, cluster),
    deployOrder: direction === "none" ? [] : deployOrder(net, a.version, b.version),
  };
}

interface Resolved {
  readonly version: string;
  readonly facts: VersionFacts;
  /** The minor, when the release was given as one (`"1.14"`). */
  readonly minorGiven?: string;
}

/** A release given as `1.x.y`, `v1.x.y` or `1.x` (its newest known patch), with its facts. */
function resolve(source: FactsSource, where: string, field: string, given: string): Resolved {
  const allowed = `a Karpenter release "1.x.y" or a minor "1.x" (its newest known patch) of a known minor: ${source.knownMinors().join(", ")}`;
  const v = typeof given === "string" ? given.trim().replace(/^v/, "") : "";
  // no leading zeros: "1.8.08" is no chart version (semver, and the Karpenter construct, refuse it)
  if (!/^(0|[1-9]\d*)\.(0|[1-9]\d*)(\.(0|[1-9]\d*))?$/.test(v))
    throw new KarpenterValidationError("UPGRADE_PLAN_VERSION", where, field, given, allowed);
  const minors = source.knownMinors();
  if (!minors.includes(minorOf(v))) {
    const newest = minors[minors.length - 1];
    const newer = compare(minorOf(v), newest) > 0;
    throw new KarpenterValidationError(
      "UPGRADE_PLAN_VERSION",
      where,
      field,
      given,
      newer
        ? `${allowed}. ${v} is newer than every release this library knows (the newest is ${source.newestPatch?.(newest) ?? source.facts(newest).version}): its IAM policy, chart and CRDs are unknown, so no plan can be made; a newer release of cdktf-eks-karpenter that knows it may make one`
        : Number(v.split(".")[0]) === 0
          ? `${allowed}. Karpenter before 1.0 (v1alpha5 / v1beta1 APIs) is not covered: move to 1.0 with upstream's v1 migration guide first (\`cdktf-eks-karpenter convert\` turns the old NodePools and Provisioners into v1)`
          : allowed,
    );
  }
  let facts: VersionFacts;
  try {
    facts = source.facts(v);
  } catch (e) {
    if (e instanceof KarpenterValidationError)
      throw new KarpenterValidationError("UPGRADE_PLAN_VERSION", where, field, given, allowed);
    throw e;
  }
  if (!/^\d+\.\d+$/.test(v)) return { version: v, facts };
  // a minor alone means the newest patch known to exist, one without artefact changes included (1.14 → 1.14.4)
  const newest = source.newestPatch?.(v) ?? facts.version;
  return { version: newest, facts: newest === facts.version ? facts : source.facts(newest), minorGiven: v };
}

/**
 * The differences between the facts of two releases: what an install of this library changes
 * when its `version` moves from `a` to `b`.
 * @param fromVersion the release `a` describes (default `a.version`, its minor's newest patch)
 * @param toVersion the release `b` describes (default `b.version`)
 */
export function compareVersionFacts(
  a: VersionFacts,
  b: VersionFacts,
  fromVersion = a.version,
  toVersion = b.version,
): UpgradeStep {
  const layoutA = a.controllerPolicy.some((s) => s.policy);
  const layoutB = b.controllerPolicy.some((s) => s.policy);
  // a side in the pre-1.9 layout is grouped as the other side groups the same Sids
  const groups = (f: VersionFacts, other: VersionFacts) => {
    const own = f.controllerPolicy.some((s) => s.policy);
    const group = new Map(other.controllerPolicy.map((s) => [s.sid, s.policy]));
    return [
      ...new Set(
        f.controllerPolicy.map((s) => (own ? s.policy : group.get(s.sid))).filter((g): g is string => g !== undefined),
      ),
    ];
  };
  const policyLayout =
    layoutA === layoutB
      ? undefined
      : layoutB
        ? `upstream splits the single controller policy into ${groups(b, a).length} managed policies (${groups(b, a).join(", ")}); this library uses that layout for every version, so its installs only see the statement changes`
        : `upstream's older layout has one controller policy instead of ${groups(a, b).length} (${groups(a, b).join(", ")}); this library keeps the split layout for every version, so its installs only see the statement changes`;
  return {
    from: fromVersion,
    to: toVersion,
    kubernetes: { from: { ...a.kubernetes }, to: { ...b.kubernetes } },
    controllerPolicy: statementChanges(a.controllerPolicy, b.controllerPolicy),
    controllerPolicies: listChange(groups(a, b), groups(b, a)),
    ...(policyLayout ? { policyLayout } : {}),
    nodeRolePolicies: listChange(a.nodeRolePolicies, b.nodeRolePolicies),
    interruptionRules: keyedChange(a.interruptionRules, b.interruptionRules, (r) =>
      JSON.stringify([r.key, [...r.source].sort(), [...r.detailType].sort()]),
    ),
    chart: {
      settings: settingChanges(a.chart.settings, b.chart.settings),
      featureGates: settingChanges(a.chart.featureGates, b.chart.featureGates),
      awsFeatureGates: settingChanges(a.chart.awsFeatureGates, b.chart.awsFeatureGates),
      valuePaths: listChange(a.chart.valuePaths, b.chart.valuePaths),
    },
    crds: {
      nodePool: crdChange(a.crds.nodePool, b.crds.nodePool),
      ec2NodeClass: crdChange(a.crds.ec2NodeClass, b.crds.ec2NodeClass),
      nodeOverlay: objectCrdChange("nodeOverlay", a, b),
      capacityBuffer: objectCrdChange("capacityBuffer", a, b),
    },
    errata: { from: [...a.errata], to: [...b.errata] },
  };
}

function listChange(a: readonly string[], b: readonly string[]): ListChange {
  const sa = new Set(a);
  const sb = new Set(b);
  return { added: b.filter((x) => !sa.has(x)), removed: a.filter((x) => !sb.has(x)) };
}

function keyedChange<T>(a: readonly T[], b: readonly T[], key: (x: T) => string): ListChange<T> {
  const ka = new Set(a.map(key));
  const kb = new Set(b.map(key));
  return { added: b.filter((x) => !ka.has(key(x))), removed: a.filter((x) => !kb.has(key(x))) };
}

function conditionEntries(s: PolicyStatementFact | undefined): ConditionEntry[] {
  const out: ConditionEntry[] = [];
  for (const [operator, keys] of Object.entries(s?.condition ?? {})) {
    for (const [key, values] of Object.entries(keys))
      for (const value of Array.isArray(values) ? values : [values]) out.push({ operator, key, value });
  }
  return out;
}

function statementChanges(a: readonly PolicyStatementFact[], b: readonly PolicyStatementFact[]): StatementChange[] {
  const byA = new Map(a.map((s) => [s.sid, s]));
  const byB = new Map(b.map((s) => [s.sid, s]));
  const order = [...b.map((s) => s.sid), ...a.map((s) => s.sid).filter((sid) => !byB.has(sid))];
  const out: StatementChange[] = [];
  for (const sid of order) {
    const before = byA.get(sid);
    const after = byB.get(sid);
    const conditions = keyedChange(
      conditionEntries(before),
      conditionEntries(after),
      (c) => `${c.operator}\u0000${c.key}\u0000${c.value}`,
    );
    const change: StatementChange = {
      sid,
      change: !before ? "added" : !after ? "removed" : "changed",
      ...((after ?? before)?.policy ? { policy: (after ?? before)!.policy } : {}),
      actions: listChange(before?.actions ?? [], after?.actions ?? []),
      resources: listChange(before?.resources ?? [], after?.resources ?? []),
      conditions,
      ...(before && after && before.effect !== after.effect
        ? { effect: { from: before.effect, to: after.effect } }
        : {}),
      ...(before?.policy && after?.policy && before.policy !== after.policy
        ? { movedPolicy: { from: before.policy, to: after.policy } }
        : {}),
    };
    const empty = [change.actions, change.resources, change.conditions].every(
      (l) => l.added.length === 0 && l.removed.length === 0,
    );
    if (change.change !== "changed" || !empty || change.effect || change.movedPolicy) out.push(change);
  }
  return out;
}

function settingChanges(a: readonly SettingFact[], b: readonly SettingFact[]): SettingChange[] {
  const byA = new Map(a.map((s) => [s.key, s]));
  const byB = new Map(b.map((s) => [s.key, s]));
  const out: SettingChange[] = [];
  const withDefault = (
    change: SettingChange["change"],
    key: string,
    from?: SettingFact,
    to?: SettingFact,
  ): SettingChange => ({
    key,
    change,
    ...(from?.default !== undefined ? { from: from.default } : {}),
    ...(to?.default !== undefined ? { to: to.default } : {}),
  });
  for (const s of b) {
    const before = byA.get(s.key);
    if (!before) out.push(withDefault("added", s.key, undefined, s));
    else if (JSON.stringify(before.default) !== JSON.stringify(s.default))
      out.push(withDefault("default changed", s.key, before, s));
  }
  for (const s of a) if (!byB.has(s.key)) out.push(withDefault("removed", s.key, s, undefined));
  return out;
}

function crdChange(a: VersionFacts["crds"]["nodePool"], b: VersionFacts["crds"]["nodePool"]): CrdChange {
  const paths = [...new Set([...Object.keys(a.enums), ...Object.keys(b.enums)])].sort();
  const enumValues = paths
    .map((path) => ({ path, ...listChange(a.enums[path] ?? [], b.enums[path] ?? []) }))
    .filter((e) => e.added.length > 0 || e.removed.length > 0);
  const under = (f: string, objects: readonly string[]) =>
    objects.some((o) => f.startsWith(`${o}.`) || f.startsWith(`${o}[]`));
  const fields = listChange(a.fields, b.fields);
  // a typed field below an object that became free-form is still accepted, only no longer judged by the schema
  return {
    fields: {
      added: fields.added.filter((f) => !under(f, a.freeForm)),
      removed: fields.removed.filter((f) => !under(f, b.freeForm)),
    },
    freeForm: listChange(a.freeForm, b.freeForm),
    enumValues,
  };
}

const NO_CRD: ObjectCrdFacts = { fields: [], enums: {}, freeForm: [], apiVersion: "", scope: "" };

/** {@link ObjectCrdChange} of `kind` between the facts of two releases (a side without the CRD counts as empty). */
function objectCrdChange(kind: ObjectCrdKind, a: VersionFacts, b: VersionFacts): ObjectCrdChange {
  const [x, y] = [a.crds[kind], b.crds[kind]];
  const gate = y ? b.chart.featureGates.find((g) => g.key === kind)?.key : undefined;
  return {
    kind: OBJECT_CRD_KINDS[kind],
    crd: x && y ? "kept" : y ? "added" : x ? "removed" : "absent",
    apiVersion: { ...(x ? { from: x.apiVersion } : {}), ...(y ? { to: y.apiVersion } : {}) },
    ...(gate ? { featureGate: gate } : {}),
    ...crdChange(x ?? NO_CRD, y ?? NO_CRD),
  };
}

/** The object CRDs of a step, in {@link OBJECT_CRD_KINDS} order. */
export function objectCrdChanges(step: UpgradeStep): ObjectCrdChange[] {
  return (Object.keys(OBJECT_CRD_KINDS) as ObjectCrdKind[]).map((k) => step.crds[k]);
}

function intersect(a: KubernetesRange, b: KubernetesRange): KubernetesRange | undefined {
  const min = compare(a.min, b.min) >= 0 ? a.min : b.min;
  const max = compare(a.max, b.max) <= 0 ? a.max : b.max;
  return compare(min, max) <= 0 ? { min, max } : undefined;
}

/** Whether Kubernetes minor `k8s` (`"1.30"`) lies within `r`. */
export function inRange(k8s: string, r: KubernetesRange): boolean {
  return compare(k8s, r.min) >= 0 && compare(k8s, r.max) <= 0;
}

const showRange = (r: KubernetesRange) => `${r.min}–${r.max}`;
const showVersions = (from: string, to: string) => (from === to ? from : `${from}–${to}`);

/** The hazards whose releases lie between `lo` and `hi` (inclusive), and those of the Kubernetes ranges and direction. */
function hazards(
  source: FactsSource,
  a: Resolved,
  b: Resolved,
  lo: string,
  hi: string,
  direction: UpgradePlan["direction"],
  minors: string[],
  cluster: string | undefined,
): UpgradeHazard[] {
  const out: UpgradeHazard[] = [];
  const placeOf = (from: string, to: string): UpgradeHazard["where"] | undefined => {
    if (compare(to, lo) < 0 || compare(from, hi) > 0) return undefined;
    const inA = compare(a.version, from) >= 0 && compare(a.version, to) <= 0;
    const inB = compare(b.version, from) >= 0 && compare(b.version, to) <= 0;
    return inA && inB ? "from and to" : inA ? "from" : inB ? "to" : "on the way";
  };

  const same = a.version === b.version;
  for (const side of same ? [b] : [a, b]) {
    const newest = source.newestPatch?.(side.facts.minor) ?? side.facts.version;
    if (compare(side.version, newest) > 0) {
      out.push({
        id: `unverified-${side.version}`,
        kind: "unverified",
        versions: side.version,
        where: same ? "from and to" : side === a ? "from" : "to",
        problem: `${side.version} is newer than the newest ${side.facts.minor} patch this library knows (${newest})`,
        advice: `its facts are assumed equal to ${newest}'s${newest === side.facts.version ? "" : ` (the ${side.facts.minor} artefacts of ${side.facts.version} and the known changes of the patches since)`}: check the release notes of ${side.version} for IAM, chart or CRD changes`,
      });
    }
  }

  for (const h of UPGRADE_HAZARDS) {
    if (h.kind === "change") {
      // a change of behaviour met by crossing into the release, whatever patch is installed
      const crossed = direction !== "none" && compare(lo, h.versions.from) < 0 && compare(hi, h.versions.from) >= 0;
      if (!crossed) continue;
      out.push({
        id: h.id,
        kind: h.kind,
        versions: h.versions.from,
        where: direction === "upgrade" ? "to" : "from",
        problem: h.problem,
        ...(h.library ? { library: h.library.text } : {}),
        advice: h.advice,
        source: h.source,
      });
      continue;
    }
    const place = placeOf(h.versions.from, h.versions.to);
    // one deploy goes from `from` to `to`: a release in between is never installed, so its bugs do not matter
    if (!place || place === "on the way") continue;
    // a correction in the data shows in the errata list of the affected minor's facts
    const corrected = h.library && (h.library.by === "code" || source.facts(h.versions.from).errata.includes(h.id));
    out.push({
      id: h.id,
      kind: h.kind,
      versions: showVersions(h.versions.from, h.versions.to),
      where: place,
      problem: h.problem,
      ...(corrected ? { library: h.library!.text } : {}),
      advice: h.advice,
      source: h.source,
    });
  }

  // changes of behaviour shipped in a patch (patch-history.ts): met whenever one side has it and the other not,
  // within one minor too (1.15.2 → 1.15.3); a downgrade back across it brings the old behaviour back
  // a minor given alone (`--from 1.14`) stands for any of its patches: a change its newest patch has and an earlier
  // one lacks is met by users still on that earlier patch, so it is shown too
  const fromAny = a.minorGiven !== undefined ? `${a.minorGiven}.0` : a.version;
  for (const { change, gained } of behaviourChangesBetween(fromAny, b.version)) {
    const first =
      change.patches.find((p) => minorOf(p) === minorOf((gained ? b : a).version)) ??
      change.patches[change.patches.length - 1];
    out.push({
      id: change.id,
      kind: "change",
      versions: change.patches.join(", "),
      where: gained ? "to" : "from",
      problem: gained
        ? `from ${first}${fromAny !== a.version && compare(first, a.version) <= 0 ? ` (met when the ${a.minorGiven} patch you run is older than ${first})` : ""}: ${change.change}`
        : `${a.version} has it, ${b.version} not (it came in ${change.patches.join(", ")}): ${change.change}`,
      library: change.library,
      advice: change.advice,
      source: change.source,
    });
  }

  // early patches of a minor that run on fewer Kubernetes versions than its newest patch
  for (const minor of minors.filter((m) => compare(m, minorOf(lo)) >= 0 && compare(m, minorOf(hi)) <= 0)) {
    const newest = source.facts(minor);
    const runs: { start: number; end: number; range: KubernetesRange }[] = [];
    for (let p = 0; p < patchOf(newest.version); p++) {
      const r = source.facts(`${minor}.${p}`).kubernetes;
      if (r.min === newest.kubernetes.min && r.max === newest.kubernetes.max) continue;
      const last = runs[runs.length - 1];
      if (last && last.end === p - 1 && last.range.min === r.min && last.range.max === r.max) last.end = p;
      else runs.push({ start: p, end: p, range: r });
    }
    for (const run of runs) {
      const [start, end] = [`${minor}.${run.start}`, `${minor}.${run.end}`];
      const place = placeOf(start, end);
      if (!place || place === "on the way") continue;
      out.push({
        id: `kubernetes-early-patches-${start}`,
        kind: "patch",
        versions: showVersions(start, end),
        where: place,
        problem: `${showVersions(start, end)} run on Kubernetes ${showRange(run.range)} only, later ${minor} patches on ${showRange(newest.kubernetes)}: outside its range Karpenter runs unsupported`,
        advice: `on a cluster outside ${showRange(run.range)}, do not install ${showVersions(start, end)}: use ${minor}.${run.end + 1} or later`,
      });
    }
  }

  const both = intersect(a.facts.kubernetes, b.facts.kubernetes);
  if (!both) {
    out.push({
      id: "kubernetes-no-common-version",
      kind: "kubernetes",
      versions: `${a.version}, ${b.version}`,
      where: "from and to",
      problem: `no Kubernetes version runs both ${a.version} (${showRange(a.facts.kubernetes)}) and ${b.version} (${showRange(b.facts.kubernetes)})`,
      advice:
        "upgrade in steps: Karpenter to a release that runs on both the cluster's current and its next Kubernetes version, then the cluster, then Karpenter again",
    });
  }
  if (cluster !== undefined) {
    for (const side of same ? [b] : [a, b]) {
      if (inRange(cluster, side.facts.kubernetes)) continue;
      out.push({
        id: `kubernetes-${cluster}-outside-${side.version}`,
        kind: "kubernetes",
        versions: side.version,
        where: same ? "from and to" : side === a ? "from" : "to",
        problem: `Karpenter ${side.version} runs on Kubernetes ${showRange(side.facts.kubernetes)}, not on the cluster's ${cluster}, ${OUTSIDE_KUBERNETES_RANGE}`,
        // the same release is the running one: there is no target to pick
        advice: kubernetesAdvice(cluster, side.facts.kubernetes, !same && side === b, a.version, both),
      });
    }
  }
  // a CRD the target's karpenter-crd chart lacks is deleted by the chart's upgrade (a template, without
  // helm.sh/resource-policy: keep), and with it every object of the kind
  for (const kind of Object.keys(OBJECT_CRD_KINDS) as ObjectCrdKind[]) {
    if (!a.facts.crds[kind] || b.facts.crds[kind]) continue;
    const name = OBJECT_CRD_KINDS[kind];
    out.push({
      id: `${name.toLowerCase()}-crd-removed`,
      kind: "downgrade",
      versions: `${a.version} → ${b.version}`,
      where: "to",
      problem: `the karpenter-crd chart of ${b.version} has no ${name} CRD (${a.facts.crds[kind]!.apiVersion}): deploying it deletes the CRD, and Kubernetes deletes every ${name} object with it`,
      advice: `remove every ${name} from your stacks before deploying (the ${name} construct refuses ${b.version}); keep a copy (kubectl get ${name.toLowerCase()}s${a.facts.crds[kind]!.scope === "Namespaced" ? " -A" : ""} -o yaml) to apply again after upgrading back`,
    });
  }
  if (direction === "downgrade") {
    out.push({
      id: "downgrade",
      kind: "downgrade",
      versions: `${a.version} → ${b.version}`,
      where: "from and to",
      problem:
        "a downgrade installs older CRDs: fields they lack are dropped from NodePools / EC2NodeClasses on the next write, and values outside their enums are rejected; IAM permissions the newer controller needed are removed",
      advice:
        "remove the fields and enum values listed as removed below from your node objects before deploying, and check upstream's release notes for downgrade limits",
    });
  }
  return out;
}

/**
 * What to do when the cluster's Kubernetes is outside a release's range. Kubernetes cannot be
 * downgraded: a cluster newer than the range needs another Karpenter release.
 */
function kubernetesAdvice(
  cluster: string,
  range: KubernetesRange,
  target: boolean,
  running: string,
  both: KubernetesRange | undefined,
): string {
  if (compare(cluster, range.max) > 0) {
    return target
      ? `Kubernetes cannot be downgraded: pick a target that runs on ${cluster}`
      : `the cluster is already newer than ${running} supports (Kubernetes cannot be downgraded), so the controller runs unsupported; upgrade Karpenter to a release that runs on ${cluster}`;
  }
  if (!target) return `the cluster is older than ${running} supports: upgrade the cluster into ${showRange(range)}`;
  const during =
    both && (both.min !== range.min || both.max !== range.max)
      ? ` (to ${showRange(both)} while ${running} still runs)`
      : "";
  return `upgrade the cluster into ${showRange(range)}${during} before upgrading Karpenter, or pick another target`;
}

/** What `cdktf deploy` changes, phase by phase, in the order the construct graph makes Terraform apply it. */
function deployOrder(net: UpgradeStep, from: string, to: string): DeployPhase[] {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const crd = (name: string, c: CrdChange) => {
    const parts = [
      c.fields.added.length ? `${count(c.fields.added.length, "field")} added` : "",
      c.fields.removed.length ? `${count(c.fields.removed.length, "field")} removed` : "",
      c.enumValues.length ? `enum values of ${count(c.enumValues.length, "field")} changed` : "",
      ...c.freeForm.added.map((o) => `${o} becomes free-form (the controller, not the API server, judges its fields)`),
    ].filter(Boolean);
    return parts.length ? [`${name}: ${parts.join(", ")}`] : [];
  };
  const newGroups = new Set(net.controllerPolicies.added);
  const inPlace = net.controllerPolicy
    .filter((s) => !s.policy || !newGroups.has(s.policy))
    .map((s) => `${s.sid} (${s.change})`);
  const iam = [
    ...(inPlace.length ? [`controller policies updated in place (same names): ${inPlace.join(", ")}`] : []),
    ...net.controllerPolicies.added.map((g) => {
      const sids = net.controllerPolicy.filter((s) => s.policy === g).map((s) => s.sid);
      return `new managed policy KarpenterController${g}Policy-<cluster>${sids.length ? ` (${sids.join(", ")})` : ""}, attached to the controller role`;
    }),
    ...net.controllerPolicies.removed.map(
      (g) => `managed policy KarpenterController${g}Policy-<cluster> detached and deleted`,
    ),
    ...net.nodeRolePolicies.added.map((p) => `node role: ${p} attached`),
    ...net.nodeRolePolicies.removed.map((p) => {
      const successor = swappedNodePolicy(p);
      return successor !== undefined && net.nodeRolePolicies.added.includes(successor)
        ? `node role: ${p} detached only after ${successor} is attached (one attachment, replaced create_before_destroy)`
        : `node role: ${p} detached`;
    }),
    ...net.interruptionRules.added.map(
      (r) => `new EventBridge rule ${r.key} (${r.detailType.join(", ")}) to the interruption queue`,
    ),
    ...net.interruptionRules.removed.map((r) => `EventBridge rule ${r.key} deleted`),
  ];
  const settings = [
    ...net.chart.settings.map((s) => `settings.${s.key} ${describeSetting(s)}`),
    ...net.chart.featureGates.map((s) => `settings.featureGates.${s.key} ${describeSetting(s)}`),
    ...net.chart.awsFeatureGates.map((s) => `settings.awsFeatureGates.${s.key} ${describeSetting(s)}`),
  ];
  const objects = objectCrdChanges(net);
  // a CRD that goes takes its objects with it: that is said once, not field by field
  const kept: [string, CrdChange][] = [
    ["NodePool", net.crds.nodePool],
    ["EC2NodeClass", net.crds.ec2NodeClass],
    ...objects.filter((o) => o.crd === "kept").map((o): [string, CrdChange] => [o.kind, o]),
  ];
  const removedFields = kept.flatMap(([name, c]) => c.fields.removed.map((f) => `${name} ${f}`));
  const removedValues = kept.flatMap(([name, c]) =>
    c.enumValues.filter((e) => e.removed.length).map((e) => `${name} ${e.path}: ${e.removed.join(", ")}`),
  );
  const objectCrdLines = objects.flatMap((o): string[] => {
    if (o.crd === "added")
      return [
        `${o.kind} CRD added (${o.apiVersion.to}, ${count(o.fields.added.length, "spec field")}): ${o.kind} objects can be created from now on${o.featureGate ? `; Karpenter reads them only with settings.featureGates.${o.featureGate}: true` : ""}`,
      ];
    if (o.crd === "removed")
      return [
        `${o.kind} CRD removed: the karpenter-crd chart of ${to} does not have it, so Helm deletes the CRD, and Kubernetes every ${o.kind} object with it`,
      ];
    if (o.crd === "absent") return [];
    return [
      ...(o.apiVersion.from !== o.apiVersion.to
        ? [
            `${o.kind} served as ${o.apiVersion.to} instead of ${o.apiVersion.from}: manifests of the old API version are refused`,
          ]
        : []),
      ...crd(o.kind, o),
    ];
  });
  const goneKinds = objects.filter((o) => o.crd === "removed");
  return [
    {
      order: 1,
      phase: "CRD release",
      resources: "helm_release of the karpenter-crd chart (Karpenter.crdRelease)",
      why: "the karpenter chart installs CRDs only on first install and never upgrades them; the controller release depends on this release, so the new schemas exist before the new controller starts",
      changes: [
        `chart version ${from} → ${to}; the CRDs are updated in place, existing NodePools and EC2NodeClasses are kept`,
        ...crd("NodePool", net.crds.nodePool),
        ...crd("EC2NodeClass", net.crds.ec2NodeClass),
        ...objectCrdLines,
      ],
    },
    {
      order: 2,
      phase: "IAM policies and interruption rules",
      resources:
        "aws_iam_policy and aws_iam_role_policy_attachment of the controller role, node role policy attachments, aws_cloudwatch_event_rule / _target of the interruption queue",
      why: "the controller release depends on the controller role's policy attachments (so on its policies) and on the interruption queue's policy and rule targets, so the new controller never runs without the permissions and events it needs (the node role's attachments have no order against it); the roles, queue, access entry and pod identity association keep their names and are not replaced",
      changes: iam,
    },
    {
      order: 3,
      phase: "controller release",
      resources: "helm_release of the karpenter chart (Karpenter.release)",
      why: "after the CRDs and the IAM changes it depends on",
      changes: [`chart version ${from} → ${to}`, ...settings],
    },
    {
      order: 4,
      phase: "node objects",
      resources:
        "kubernetes_manifest of NodePools, EC2NodeClasses, NodeOverlays and CapacityBuffers (NodePool, Ec2NodeClass, NodeOverlay, CapacityBuffer)",
      why: "they depend on the controller release (same stack) or their stack depends on its stack; they change only if you change them, and are checked against the new version's rules at synth",
      changes: [
        ...goneKinds.map(
          (o) =>
            `${o.kind} objects: ${to} has no ${o.kind} CRD (the constructs refuse that version): remove every ${o.kind} from your stacks first`,
        ),
        ...(removedFields.length
          ? [`fields the new CRDs do not have (remove them from your node objects first): ${removedFields.join(", ")}`]
          : []),
        ...(removedValues.length ? [`enum values the new CRDs do not accept: ${removedValues.join("; ")}`] : []),
      ],
    },
  ];
}

/** `added (default false)`, `removed`, `default 10s → 20s`. */
export function describeSetting(s: SettingChange): string {
  // null is values.yaml's "unset": the chart renders no value and the controller's own default applies
  const show = (v: unknown) =>
    v === undefined ? "none" : v === null ? "unset: the controller's default" : JSON.stringify(v);
  if (s.change === "added") return `added (default ${show(s.to)})`;
  if (s.change === "removed") return `removed (default was ${show(s.from)})`;
  return `default ${show(s.from)} → ${show(s.to)}`;
}

/**
 * The plan for moving an install of this library from Karpenter `from` to `to`: per minor crossed,
 * the controller policy changes by Sid (actions, resources, conditions), node role managed
 * policies, interruption rules, chart settings and feature gates (added, removed, default
 * changed), NodePool / EC2NodeClass fields and enum values; the Kubernetes range of both
 * releases; the known hazards on the way (upstream errata, patches to avoid); and the order
 * `cdktf deploy` applies it in. Render it with {@link upgradePlanMarkdown}, or serialise it as
 * JSON for CI. Facts: lib/versions (generated from each release's upstream CloudFormation
 * template, charts and CRDs) and the errata of shared/reference/karpenter/ERRATA.md.
 * @param from the running release, `"1.2.8"` (a minor `"1.2"` means its newest known patch)
 * @param to the target release, same forms
 * @throws KarpenterValidationError naming `from`, `to` or `options.kubernetesVersion` for a
 * malformed version or one of an unknown minor, or `options.<key>` for an unknown option
 */
export function upgradePlan(from: string, to: string, options: UpgradePlanOptions = {}): UpgradePlan {
  return planUpgrade({ facts: versionFacts, knownMinors, newestPatch: newestPatchOf }, from, to, options);
}
