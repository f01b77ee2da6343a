import { KarpenterValidationError } from "../core/errors";
import {
  CEL_LISTS as CEL_LISTS_DATA,
  CRD_KNOWN as CRD_KNOWN_DATA,
  CRD_SINCE as CRD_SINCE_DATA,
  KUBERNETES,
  LOADERS,
  RELEASES,
} from "./data";
import { deepLookup } from "../core/lookup";

// Indexed by paths and values from user input: no prototype, so `constructor` finds nothing (core/lookup.ts).
const CEL_LISTS = deepLookup(CEL_LISTS_DATA);
const CRD_KNOWN = deepLookup(CRD_KNOWN_DATA);
const CRD_SINCE = deepLookup(CRD_SINCE_DATA);
import {
  KUBERNETES_EARLY_PATCHES,
  PATCH_BEHAVIOUR_CHANGES,
  PATCHES_WITHOUT_ARTEFACT_CHANGES,
  PatchBehaviourChange,
  VALUE_PATHS_PATCH_CHANGES,
} from "./patch-history";
import { CelLists, CrdKindKnown, OBJECT_CRD_KINDS, ObjectCrdData, RawStatement, VersionData } from "./types";

/*
 * Per-version Karpenter facts: the data `npm run add-version` generated from each release's upstream
 * artefacts (lib/versions/data/), plus the hand-written patch history (patch-history.ts). This is
 * the one place that knows which releases exist and what each one needs.
 */

export type { CelLists, CrdFieldSchema, CrdKindKnown, ObjectCrdData, RawStatement, VersionData } from "./types";
export { OBJECT_CRD_KINDS } from "./types";
export type { PatchBehaviourChange } from "./patch-history";
export { kubeletConfigFields } from "./kubelet-config";
export { kubeletFeatureGates, kubeletGate, kubeletGateMinors } from "./kubelet-feature-gates";
export type { KubeletFeatureGates, KubeletGateSpec } from "./kubelet-feature-gates";
export { celSampleInstanceTypes } from "./cel-samples";
export type { CelSampleInstanceType } from "./cel-samples";
export type { KubeletConfigFields, KubeletField, KubeletFieldKind } from "./kubelet-config";
export { k8sApiFields } from "./k8s-api-fields";
export type { K8sApiFields, K8sFieldKind } from "./k8s-api-fields";
export { kubeletFlags } from "./kubelet-flags";
export type { KubeletFlag, KubeletFlags } from "./kubelet-flags";
export { nodeadmConfigFields } from "./nodeadm-config";
export type { NodeadmConfigFields } from "./nodeadm-config";
export { eksAmiFacts } from "./eks-ami";
export type { EksAmiFacts } from "./eks-ami";
export { bottlerocketSettingsFields } from "./bottlerocket-settings";
export type { BottlerocketSettingsFields } from "./bottlerocket-settings";

/** One controller IAM statement, normalised for comparison (see {@link VersionFacts.controllerPolicy}). */
export interface PolicyStatementFact {
  /** The statement's Sid, e.g. `AllowScopedEC2InstanceAccessActions`. */
  sid: string;
  effect: "Allow" | "Deny";
  /** IAM actions, sorted. */
  actions: string[];
  /** Resources, sorted, with symbols instead of interpolations: {partition} {region} {account} {cluster} {queue_arn} {node_role_arn} {dns_suffix}. */
  resources: string[];
  condition?: Record<string, Record<string, string | string[]>>;
  /** The managed-policy group it belongs to in upstream's 1.9+ layout (`NodeLifecycle` …); absent before 1.9. */
  policy?: string;
}

/** A chart `settings:` key or feature gate. */
export interface SettingFact {
  key: string;
  /** `boolean`, `number`, `duration` or `string` (inferred from the chart default). */
  kind: string;
  /** The chart default; `null` where values.yaml leaves it to the controller (1.15's `ignoreDRARequests`). */
  default?: string | number | boolean | null;
  /** The first release whose chart carries it, e.g. `"1.6.2"`. */
  since: string;
}

/** What this library knows about one Karpenter minor (at a given patch where the patch history says more). */
export interface VersionFacts {
  /** The newest known patch of the minor, e.g. `"1.14.1"`. */
  version: string;
  /** The minor, e.g. `"1.14"`. */
  minor: string;
  /** The Kubernetes minors the release runs on (Karpenter compatibility matrix), e.g. `{ min: "1.26", max: "1.36" }`. */
  kubernetes: { min: string; max: string };
  /** The controller policy, after errata corrections, in template order. */
  controllerPolicy: PolicyStatementFact[];
  /** Ids of the errata (shared/reference/karpenter/ERRATA.json) applied to this version. */
  errata: string[];
  /** AWS-managed policy names of the node role. */
  nodeRolePolicies: string[];
  /** The EventBridge rules to the interruption queue. */
  interruptionRules: { key: string; source: string[]; detailType: string[] }[];
  /** The `karpenter` chart: settings, feature gates, AWS feature gates (`settings.awsFeatureGates`, 1.15+; empty before) and value paths (without settings; notation of lib/helm/chart-values.ts). */
  chart: { settings: SettingFact[]; featureGates: SettingFact[]; awsFeatureGates: SettingFact[]; valuePaths: string[] };
  /** CRD spec fields (dotted, arrays as `[]`, sorted) and enum values per field. */
  crds: {
    nodePool: CrdFacts;
    ec2NodeClass: CrdFacts;
    /** NodeOverlay (`karpenter.sh/v1alpha1`, from 1.7); absent in the releases whose karpenter-crd chart lacks it. */
    nodeOverlay?: ObjectCrdFacts;
    /** CapacityBuffer (`autoscaling.x-k8s.io/v1beta1`, from 1.14); absent in the releases whose karpenter-crd chart lacks it. */
    capacityBuffer?: ObjectCrdFacts;
  };
}

/** What a release's CRD says of one kind's spec. */
export interface CrdFacts {
  /** Spec fields (dotted, arrays as `[]`, sorted). */
  fields: string[];
  /** Enum values per field. */
  enums: Record<string, string[]>;
  /** Objects whose fields the API server does not judge (`x-kubernetes-preserve-unknown-fields`), e.g. 1.15's `spec.kubelet`. */
  freeForm: string[];
}

/** What a release's CRD says of one of the objects beyond NodePool and EC2NodeClass (NodeOverlay, CapacityBuffer). */
export interface ObjectCrdFacts extends CrdFacts {
  /** The API version the CRD serves, `<group>/<version>`, e.g. `karpenter.sh/v1alpha1`. */
  apiVersion: string;
  /** `Cluster` or `Namespaced`. */
  scope: string;
}

const minorOf = (v: string): string => v.split(".").slice(0, 2).join(".");

/** Numeric comparison of dotted versions (`"1.10.0"` > `"1.9.2"`). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The release each known minor's data was read from, oldest first (`"1.0.14"` … `"1.15.0"`). */
export function knownReleases(): readonly string[] {
  return RELEASES;
}

/**
 * The release installed when none is given: the newest release this library knows, 1.15.3 (its GitHub
 * release, patch-history.ts). The 1.15.0 CRDs and charts are the released ones; a real API server agrees
 * with the library on them (e2e `--stage agreement`), and the real 1.15.0 controller runs against the
 * 1.15 policy in e2e (`--stage karpenter`; the 1.15.1–1.15.3 controllers cannot be built there). 1.15.1
 * to 1.15.3 change no artefact (patch-history.ts); 1.15.3 ignores empty selector terms
 * (PATCH_BEHAVIOUR_CHANGES), which the library refuses in every version (docs/versions.md, "The default release").
 */
export const DEFAULT_RELEASE = "1.15.3";

/**
 * The newest patch of `minor` this library knows to exist: the data's release, or a later patch of
 * patch-history.ts that changed no artefact (`"1.14"` → `"1.14.4"`).
 */
export function newestPatchOf(minor: string): string | undefined {
  const data = RELEASES.find((r) => minorOf(r) === minor);
  if (data === undefined) return undefined;
  return [data, ...(PATCHES_WITHOUT_ARTEFACT_CHANGES[minor] ?? [])].reduce((a, b) =>
    compareVersions(b, a) > 0 ? b : a,
  );
}

/** Whether release `version` has the change of behaviour `change` (its minor's first patch with it, or later; minors newer than every listed one have it). */
function hasBehaviourChange(change: PatchBehaviourChange, version: string): boolean {
  const minor = minorOf(version);
  const own = change.patches.find((p) => minorOf(p) === minor);
  if (own !== undefined) return compareVersions(version, own) >= 0;
  return change.patches.every((p) => compareVersions(minor, minorOf(p)) > 0);
}

/**
 * The changes of behaviour shipped in patches (patch-history.ts) that a move from release `from` to
 * release `to` crosses, in either direction: `gained` when `to` has the change and `from` not.
 */
export function behaviourChangesBetween(from: string, to: string): { change: PatchBehaviourChange; gained: boolean }[] {
  return PATCH_BEHAVIOUR_CHANGES.flatMap((change) => {
    const a = hasBehaviourChange(change, from);
    const b = hasBehaviourChange(change, to);
    return a === b ? [] : [{ change, gained: b }];
  });
}

/** The changes of behaviour shipped in patches (patch-history.ts), e.g. 1.15.3's empty selector terms. */
export function patchBehaviourChanges(): readonly PatchBehaviourChange[] {
  return PATCH_BEHAVIOUR_CHANGES;
}

/** A Karpenter CRD whose spec the data describes. */
export type CrdKind = "nodePool" | "ec2NodeClass" | ObjectCrdKind;

/** A CRD the generic checker judges from the data alone (NodeOverlay, CapacityBuffer): its key in the data. */
export type ObjectCrdKind = keyof typeof OBJECT_CRD_KINDS;

/**
 * The first known minor whose karpenter-crd chart ships the CRD of `kind` (`"nodeOverlay"` → `"1.7"`,
 * `"capacityBuffer"` → `"1.14"`), or undefined when every known minor ships it. Generated (CRD_SINCE.kinds).
 */
export function crdKindSince(kind: CrdKind): string | undefined {
  return CRD_SINCE.kinds[kind];
}

/**
 * What the CRD of `kind` says in minor `minor` (`"1.14"`): fields, types, enums, API and schema keywords, and its CEL
 * rules (`<path>: <rule>`, from the data's `celRules`); undefined when that minor does not ship the CRD.
 */
export function objectCrd(minor: string, kind: ObjectCrdKind): (ObjectCrdData & { cel: string[] }) | undefined {
  const d = versionData(minor);
  const crd = d.crds[kind];
  if (!crd) return undefined;
  const prefix = `${OBJECT_CRD_KINDS[kind]} `;
  return { ...crd, cel: d.celRules.filter((r) => r.startsWith(prefix)).map((r) => r.slice(prefix.length)) };
}

/**
 * The first known minor whose `kind` CRD has the spec field `crdPath` (`"spec.replicas"` → `"1.8"`), or undefined when
 * the oldest known minor has it already or no known minor has it. Generated from every minor's CRDs (data index).
 */
export function crdFieldSince(kind: CrdKind, crdPath: string): string | undefined {
  return CRD_SINCE[kind].fields[crdPath];
}

/**
 * The first known minor whose `kind` CRD allows `value` in the enum of `crdPath`
 * (`"spec.disruption.consolidationPolicy"`, `"Balanced"` → `"1.14"`), or undefined as for {@link crdFieldSince}.
 */
export function crdEnumValueSince(kind: CrdKind, crdPath: string, value: string): string | undefined {
  return CRD_SINCE[kind].enumValues[`${crdPath}=${value}`];
}

/**
 * The first known minor whose `kind` CRD keeps the object `crdPath` free-form (`x-kubernetes-preserve-unknown-fields`:
 * the API server stops judging its fields), e.g. EC2NodeClass `spec.kubelet` → `"1.15"`; undefined when none does.
 */
export function crdFreeFormSince(kind: CrdKind, crdPath: string): string | undefined {
  return CRD_SINCE[kind].freeForm[crdPath];
}

/**
 * Every spec field and enum value any known minor's NodePool or EC2NodeClass CRD has (generated, CRD_KNOWN): what the
 * rules know, whatever release an object targets; `crdFieldSince` / `crdEnumValueSince` say from which minor on.
 */
export function crdKnown(kind: "nodePool" | "ec2NodeClass"): CrdKindKnown {
  return CRD_KNOWN[kind];
}

/**
 * The values any known minor's `kind` CRD allows in the enum of `crdPath`, in the CRD's order
 * (`"spec.template.spec.requirements[].operator"` → `["In", "NotIn", "Exists", …]`).
 * @throws Error when no known minor has that enum (a wrong path is the library's mistake)
 */
export function crdEnumValues(kind: "nodePool" | "ec2NodeClass", crdPath: string): readonly string[] {
  const values = CRD_KNOWN[kind].enums[crdPath];
  if (!values) throw new Error(`no known ${kind} CRD has an enum at ${crdPath}`);
  return values;
}

/** Values the CRDs list in CEL rules (alias families, label keys, the pre-1.9 kubernetes.io keys), generated (CEL_LISTS). */
export function celLists(): CelLists {
  return CEL_LISTS;
}

/**
 * The first known minor whose chart has the AWS feature gate `key` (`settings.awsFeatureGates`, e.g. `nodeClassCEL` →
 * `"1.15"`), or undefined when none has it. Read from the newest minor's data.
 */
export function awsFeatureGateSince(key: string): string | undefined {
  const gate = (versionData(minorOf(RELEASES[RELEASES.length - 1])).chart.awsFeatureGates ?? []).find(
    (g) => g.key === key,
  );
  return gate && minorOf(gate.since);
}

/** The known minors, oldest first: `["1.0", …, "1.14"]`. */
export function knownMinors(): string[] {
  return RELEASES.map(minorOf);
}

const cache = new Map<string, VersionData>();

/**
 * The generated data of a known minor (`"1.14"`), loaded on first use.
 * @throws Error for an unknown minor (callers validate first)
 */
export function versionData(minor: string): VersionData {
  let d = cache.get(minor);
  if (!d) {
    const load = LOADERS[minor];
    if (!load) throw new Error(`no version data for Karpenter ${minor}`);
    d = deepLookup(load());
    cache.set(minor, d);
  }
  return d;
}

/**
 * The release whose facts stand for `version`: itself when its minor is known, else (a release newer
 * than every known one, used with allowUnverifiedVersion) the newest known release.
 */
export function factsRelease(version: string): string {
  return minorOf(version) in LOADERS ? version : RELEASES[RELEASES.length - 1];
}

/** The Kubernetes range of a release: its minor's, or the early-patch range of patch-history.ts. */
export function kubernetesRange(version: string): { min: string; max: string } {
  const minor = minorOf(version);
  const early = KUBERNETES_EARLY_PATCHES.find((e) => e.minor === minor && compareVersions(version, e.until) < 0);
  return early ? { min: early.min, max: early.max } : { ...KUBERNETES[minor] };
}

/** The chart value paths of a release: its minor's newest patch's, adjusted by the patch history. */
export function valuePathsAt(version: string): string[] {
  const minor = minorOf(version);
  const paths = new Set(versionData(minor).chart.valuePaths);
  for (const c of VALUE_PATHS_PATCH_CHANGES) {
    if (minorOf(c.patch) !== minor || compareVersions(version, c.patch) >= 0) continue;
    for (const p of c.added ?? []) paths.delete(p);
    for (const p of c.removed ?? []) paths.add(p);
  }
  return [...paths].sort();
}

const asList = (x: string | string[]) => (Array.isArray(x) ? [...x] : [x]);

function statementFact(s: RawStatement, policy: string | undefined): PolicyStatementFact {
  const f: PolicyStatementFact = {
    sid: s.Sid,
    effect: s.Effect,
    actions: asList(s.Action).sort(),
    resources: asList(s.Resource).sort(),
  };
  if (s.Condition) f.condition = s.Condition;
  if (policy) f.policy = policy;
  return f;
}

/**
 * The facts of a Karpenter release: `"1.6.1"` (any patch of a known minor, also one newer than the
 * newest known patch) or a minor `"1.6"` (its newest known patch). Settings, feature gates, value
 * paths and the Kubernetes range are those of the given patch where the patch history knows them
 * (`disableDryRun` from 1.6.2, …); everything else is the minor's.
 * @throws KarpenterValidationError for a malformed version or an unknown minor
 */
export function versionFacts(version: string): VersionFacts {
  const v = String(version).trim().replace(/^v/, "");
  const m = /^(0|[1-9]\d*)\.(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?$/.exec(v);
  const minor = m ? `${m[1]}.${m[2]}` : "";
  if (!m || !(minor in LOADERS)) {
    throw new KarpenterValidationError(
      "KARPENTER_VERSION_UNKNOWN",
      "versionFacts",
      "version",
      version,
      `a Karpenter release "MAJOR.MINOR[.PATCH]" of a known minor: ${knownMinors().join(", ")}`,
    );
  }
  const d = versionData(minor);
  const at = m[3] === undefined ? d.version : v;
  const settingAt = (s: VersionData["chart"]["settings"][number]) => ({ ...s });
  const present = (s: { since: string }) => compareVersions(at, s.since) >= 0;
  return {
    version: d.version,
    minor,
    kubernetes: kubernetesRange(at),
    controllerPolicy: d.controllerPolicies.flatMap((p) => p.statements.map((s) => statementFact(s, p.name))),
    errata: [...d.errata],
    nodeRolePolicies: [...d.nodeRolePolicies],
    interruptionRules: d.interruptionRules.map((r) => ({
      key: r.key,
      source: [...r.source],
      detailType: [...r.detailType],
    })),
    chart: {
      settings: d.chart.settings.filter(present).map(settingAt),
      featureGates: d.chart.featureGates.filter(present).map(settingAt),
      awsFeatureGates: (d.chart.awsFeatureGates ?? []).filter(present).map(settingAt),
      valuePaths: valuePathsAt(at),
    },
    crds: {
      nodePool: {
        fields: [...d.crds.nodePool.fields],
        enums: cloneEnums(d.crds.nodePool.enums),
        freeForm: [...(d.crds.nodePool.freeForm ?? [])],
      },
      ec2NodeClass: {
        fields: [...d.crds.ec2NodeClass.fields],
        enums: cloneEnums(d.crds.ec2NodeClass.enums),
        freeForm: [...(d.crds.ec2NodeClass.freeForm ?? [])],
      },
      ...objectCrdFacts(d, "nodeOverlay"),
      ...objectCrdFacts(d, "capacityBuffer"),
    },
  };
}

/** `{ [kind]: facts }` of an object CRD the release ships, else `{}`. */
function objectCrdFacts(d: VersionData, kind: ObjectCrdKind): { [k in ObjectCrdKind]?: ObjectCrdFacts } {
  const crd = d.crds[kind];
  if (!crd) return {};
  return {
    [kind]: {
      fields: [...crd.fields],
      enums: cloneEnums(crd.enums),
      freeForm: [...(crd.freeForm ?? [])],
      apiVersion: `${crd.api.group}/${crd.api.version}`,
      scope: crd.api.scope,
    },
  };
}

function cloneEnums(e: Readonly<Record<string, readonly string[]>>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(e).map(([k, v]) => [k, [...v]]));
}
