/*
 * Where upgrade plans get their per-version facts. The types are those of the version-facts
 * contract (lib/versions, VersionFacts); this file is the only place lib/upgrade touches the data
 * source, so swapping it is a one-file change.
 */

/** One controller IAM statement, normalised for comparison. */
export interface PolicyStatementFact {
  sid: string;
  effect: "Allow" | "Deny";
  /** Sorted. */
  actions: string[];
  /** Sorted, with symbols instead of interpolations: {partition} {region} {account} {cluster} {queue_arn} {node_role_arn} {dns_suffix}. */
  resources: string[];
  condition?: Record<string, Record<string, string | string[]>>;
  /** The managed-policy group it belongs to (1.9+ layout), if known. */
  policy?: string;
}

/** A chart `settings:` key or feature gate. */
export interface SettingFact {
  key: string;
  kind: string;
  default?: string | number | boolean;
  /** First release that has it, e.g. `"1.6.2"`. */
  since: string;
}

/** What is known about one Karpenter release (its minor's newest patch, adjusted to the patch where known). */
export interface VersionFacts {
  version: string;
  minor: string;
  kubernetes: { min: string; max: string };
  controllerPolicy: PolicyStatementFact[];
  errata: string[];
  nodeRolePolicies: string[];
  interruptionRules: { key: string; source: string[]; detailType: string[] }[];
  chart: { settings: SettingFact[]; featureGates: SettingFact[]; valuePaths: string[] };
  crds: {
    nodePool: { fields: string[]; enums: Record<string, string[]> };
    ec2NodeClass: { fields: string[]; enums: Record<string, string[]> };
  };
}
