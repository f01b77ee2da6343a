import * as semver from "./semver";
import { durationNanos, MAX_DURATION_NS } from "./k8s-rules";

/**
 * The `settings:` block of the `karpenter` Helm chart, per version: which key and which feature gate
 * each release's `values.yaml` carries, since when, and its chart default.
 *
 * Source: `charts/karpenter/values.yaml` of aws/karpenter-provider-aws at every release tag
 * v1.0.0 to v1.14.1 (the tests hold the table against the newest patch of each minor). Two keys landed in a patch rather than a `.0` release: `disableDryRun` (1.6.2) and the
 * feature gate `staticCapacity`, which `values.yaml` of 1.8.0 spells `StaticCapacity` while the
 * deployment template already reads `staticCapacity` (fixed in 1.8.1, upstream PR #8590).
 * No key or gate was removed between 1.0 and 1.14.
 */

/** How a value of a setting is checked before it is written into the chart values. */
export type ChartValueKind =
  /** `true` / `false`. */
  | "boolean"
  /** A Go duration such as `"10s"`, `"1m30s"`. */
  | "duration"
  /** A finite number. */
  | "number"
  /** A non-negative integer, written as the string the chart uses (`"0"`). */
  | "integer-string"
  /** One of `allowed`. */
  | "enum"
  /** An `https://` URL. */
  | "url"
  /** Any non-empty string. */
  | "string";

/** One key of `settings:` (or of `settings.featureGates:`) in the chart's values.yaml. */
export interface ChartKeyFact {
  /** The key as the chart's templates read it. */
  readonly key: string;
  /** The first chart release whose values.yaml carries the key, e.g. `"1.6.2"`. */
  readonly since: string;
  /** The chart default, from `since` on; a later entry replaces it from its own `since`. */
  readonly defaults: readonly { readonly since: string; readonly value: string | number | boolean }[];
  /** How a value is validated. */
  readonly kind: ChartValueKind;
  /** Accepted values of an `enum`. */
  readonly allowed?: readonly string[];
  /** Smallest accepted `duration`, e.g. `"1m"` (the controller refuses less). */
  readonly minDuration?: string;
  /** True when the construct sets the key from the graph (cluster, queue) rather than from `settings`. */
  readonly wired?: boolean;
  /** values.yaml spells the key differently in these releases (the template reads `key` regardless). */
  readonly misspelledIn?: { readonly versions: readonly string[]; readonly as: string };
  /** What the setting does (from the chart's comments). */
  readonly description: string;
}

/** Every `settings:` key (except `featureGates`) any supported chart carries, in values.yaml order of v1.14. */
export const CHART_SETTINGS: readonly ChartKeyFact[] = [
  { key: "batchMaxDuration", since: "1.0.0", defaults: [{ since: "1.0.0", value: "10s" }], kind: "duration", description: "The maximum length of a provisioning batch window." },
  { key: "batchIdleDuration", since: "1.0.0", defaults: [{ since: "1.0.0", value: "1s" }], kind: "duration", description: "The idle time without new pending pods that ends a batch window." },
  { key: "preferencePolicy", since: "1.4.0", defaults: [{ since: "1.4.0", value: "Respect" }], kind: "enum", allowed: ["Respect", "Ignore"], description: "How the scheduler treats preferences (preferred affinities, ScheduleAnyway spread)." },
  { key: "minValuesPolicy", since: "1.6.0", defaults: [{ since: "1.6.0", value: "Strict" }], kind: "enum", allowed: ["Strict", "BestEffort"], description: "Whether NodePool minValues are strict or relaxed when they cannot be met." },
  { key: "clusterCABundle", since: "1.0.0", defaults: [{ since: "1.0.0", value: "" }], kind: "string", description: "Cluster CA bundle for the TLS configuration of provisioned nodes." },
  { key: "clusterName", since: "1.0.0", defaults: [{ since: "1.0.0", value: "" }], kind: "string", wired: true, description: "The cluster name (required by the chart)." },
  { key: "clusterEndpoint", since: "1.0.0", defaults: [{ since: "1.0.0", value: "" }], kind: "url", description: "The API server endpoint new nodes connect to; discovered with DescribeCluster when empty." },
  { key: "isolatedVPC", since: "1.0.0", defaults: [{ since: "1.0.0", value: false }], kind: "boolean", description: "Assume AWS services without a VPC endpoint are unreachable (also disables pricing look-ups)." },
  { key: "eksControlPlane", since: "1.1.0", defaults: [{ since: "1.1.0", value: false }], kind: "boolean", description: "Discover cluster details from the EKS DescribeCluster API." },
  { key: "vmMemoryOverheadPercent", since: "1.0.0", defaults: [{ since: "1.0.0", value: 0.075 }], kind: "number", description: "VM memory overhead subtracted from every instance type's memory, as a fraction (0.075 = 7.5%)." },
  { key: "interruptionQueue", since: "1.0.0", defaults: [{ since: "1.0.0", value: "" }], kind: "string", wired: true, description: "Name of the SQS interruption queue; interruption handling is off when empty." },
  { key: "enableZonalShift", since: "1.12.0", defaults: [{ since: "1.12.0", value: false }], kind: "boolean", description: "Respect ARC zonal shifts when launching nodes." },
  { key: "reservedENIs", since: "1.0.0", defaults: [{ since: "1.0.0", value: "0" }], kind: "integer-string", description: "ENIs left out of the max-pods and kube-reserved calculation (VPC CNI custom networking)." },
  { key: "ignoreDRARequests", since: "1.8.0", defaults: [{ since: "1.8.0", value: true }], kind: "boolean", description: "Ignore pods' DRA requests during scheduling simulations." },
  { key: "disableClusterStateObservability", since: "1.8.0", defaults: [{ since: "1.8.0", value: false }], kind: "boolean", description: "Disable cluster state metrics and events." },
  { key: "disableDryRun", since: "1.6.2", defaults: [{ since: "1.6.2", value: false }], kind: "boolean", description: "Disable the dry-run validation of EC2NodeClasses." },
  { key: "amiRefreshInterval", since: "1.13.0", defaults: [{ since: "1.13.0", value: "1m" }], kind: "duration", minDuration: "1m", description: "How often AMI data is refreshed from EC2 (at least 1m)." },
  { key: "subnetRefreshInterval", since: "1.13.0", defaults: [{ since: "1.13.0", value: "1m" }], kind: "duration", minDuration: "1m", description: "How often subnet data is refreshed from EC2 (at least 1m)." },
];

/** Every `settings.featureGates:` key any supported chart carries. */
export const CHART_FEATURE_GATES: readonly ChartKeyFact[] = [
  { key: "spotToSpotConsolidation", since: "1.0.0", defaults: [{ since: "1.0.0", value: false }], kind: "boolean", description: "Spot-to-spot replacement consolidation (alpha)." },
  { key: "nodeRepair", since: "1.1.0", defaults: [{ since: "1.1.0", value: false }], kind: "boolean", description: "Node repair (alpha)." },
  {
    key: "reservedCapacity",
    since: "1.3.0",
    defaults: [
      { since: "1.3.0", value: false },
      { since: "1.6.0", value: true },
    ],
    kind: "boolean",
    description: "On-demand capacity reservations (alpha in 1.3–1.5, beta and on by default from 1.6).",
  },
  { key: "nodeOverlay", since: "1.7.0", defaults: [{ since: "1.7.0", value: false }], kind: "boolean", description: "NodeOverlay objects influence scheduling decisions (alpha)." },
  {
    key: "staticCapacity",
    since: "1.8.0",
    defaults: [{ since: "1.8.0", value: false }],
    kind: "boolean",
    misspelledIn: { versions: ["1.8.0"], as: "StaticCapacity" },
    description: "Static capacity provisioning (alpha).",
  },
  { key: "capacityBuffer", since: "1.14.0", defaults: [{ since: "1.14.0", value: false }], kind: "boolean", description: "CapacityBuffer support for pre-provisioned spare capacity (alpha)." },
];

/** True when `version` (e.g. `"1.6.1"`) has the key. */
export function hasKey(fact: ChartKeyFact, version: string): boolean {
  return semver.gte(version, fact.since);
}

/** The chart default of a key at `version`; undefined when the version lacks the key. */
function chartDefault(fact: ChartKeyFact, version: string): string | number | boolean | undefined {
  if (!hasKey(fact, version)) return undefined;
  let value: string | number | boolean | undefined;
  for (const d of fact.defaults) if (semver.gte(version, d.since)) value = d.value;
  return value;
}

/** The key as the values.yaml of `version` spells it (differs from the template's key only for staticCapacity in 1.8.0). */
function valuesYamlKey(fact: ChartKeyFact, version: string): string {
  return fact.misspelledIn?.versions.includes(version) ? fact.misspelledIn.as : fact.key;
}

/**
 * The `settings:` block of the chart's values.yaml at `version` as this table models it: every key
 * (spelt as that values.yaml spells it) with its default, `featureGates` last. Only the tests use
 * it: they hold it against the published values.yaml of each release, which checks `since`,
 * `defaults` and `misspelledIn` of every entry at once.
 */
export function modelledSettingsBlock(version: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of CHART_SETTINGS) if (hasKey(f, version)) out[valuesYamlKey(f, version)] = chartDefault(f, version);
  const gates: Record<string, unknown> = {};
  for (const f of CHART_FEATURE_GATES) if (hasKey(f, version)) gates[valuesYamlKey(f, version)] = chartDefault(f, version);
  out.featureGates = gates;
  return out;
}

/**
 * Checks one value against its fact. Returns undefined when it is fine, else the sentence of what is
 * allowed (for a KarpenterValidationError). Tokens must be filtered out by the caller.
 */
export function checkChartValue(fact: ChartKeyFact, value: unknown): string | undefined {
  switch (fact.kind) {
    case "boolean":
      return typeof value === "boolean" ? undefined : "true or false";
    case "duration": {
      const allowed = `a Go duration such as "10s", "1m" or "1h30m"${fact.minDuration ? `, at least ${fact.minDuration}` : ", greater than zero"}`;
      // the controller parses it with Go's time.ParseDuration: any unit from ns to h, fractions, no sign here
      if (typeof value !== "string" || value.startsWith("-")) return allowed;
      const ns = durationNanos(value);
      if (ns === undefined || ns > MAX_DURATION_NS) return allowed;
      const min = fact.minDuration ? durationNanos(fact.minDuration)! : 1n;
      return ns >= min ? undefined : allowed;
    }
    case "number":
      return typeof value === "number" && Number.isFinite(value) && value >= 0 && value < 1 ? undefined : "a fraction from 0 (inclusive) to 1 (exclusive), e.g. 0.075 for 7.5%";
    case "integer-string":
      return (typeof value === "number" && Number.isInteger(value) && value >= 0) || (typeof value === "string" && /^\d+$/.test(value)) ? undefined : "a whole number of ENIs, 0 or more";
    case "enum":
      return typeof value === "string" && fact.allowed!.includes(value) ? undefined : `one of ${fact.allowed!.map((a) => JSON.stringify(a)).join(", ")}`;
    case "url":
      return typeof value === "string" && /^https:\/\/[^\s/]+/.test(value) ? undefined : "an https:// URL of the Kubernetes API server";
    case "string":
      return typeof value === "string" && value.length > 0 ? undefined : "a non-empty string";
  }
}
