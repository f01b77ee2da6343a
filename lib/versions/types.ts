/*
 * The shape of the per-version data in lib/versions/data/, which `npm run add-version` generates from
 * a Karpenter release's upstream artefacts (scripts/add-version.ts). Statements and strings are
 * written with symbols instead of CloudFormation interpolations: {partition} {region} {account}
 * {cluster} {queue_arn} {node_role_arn} {dns_suffix}.
 */

/** An IAM statement as the getting-started CloudFormation template writes it (after errata corrections). */
export interface RawStatement {
  readonly Sid: string;
  readonly Effect: "Allow" | "Deny";
  readonly Action: string | string[];
  readonly Resource: string | string[];
  readonly Condition?: Record<string, Record<string, string | string[]>>;
}

/** One chart `settings:` key or feature gate as values.yaml carries it. */
export interface SettingData {
  /** The key as the chart's templates read it, e.g. `batchMaxDuration`. */
  readonly key: string;
  /** Inferred from the default: `boolean`, `number`, `duration` (a Go duration string) or `string`; for a null default, helm-docs' `(bool)` annotation. */
  readonly kind: string;
  /** The default in values.yaml of this minor's newest patch; `null` where values.yaml leaves it to the controller (1.15's `ignoreDRARequests`). */
  readonly default?: string | number | boolean | null;
  /** The first release whose values.yaml carries the key, e.g. `"1.6.2"`. */
  readonly since: string;
}

/** A CRD field's OpenAPI type (`int-or-string` for `x-kubernetes-int-or-string`; `any` where the schema gives none). */
export type CrdFieldType = "string" | "integer" | "number" | "boolean" | "object" | "array" | "int-or-string" | "any";

/** What the data holds of one CRD's spec. */
export interface CrdData {
  /** Spec fields, sorted, dotted, arrays as `[]`. */
  readonly fields: readonly string[];
  /** Each field's type (the keys are `fields`). */
  readonly types: Readonly<Record<string, CrdFieldType>>;
  /** Enum values per field. */
  readonly enums: Readonly<Record<string, readonly string[]>>;
  /** Objects whose fields the API server keeps unjudged (`x-kubernetes-preserve-unknown-fields`), e.g. 1.15's `spec.kubelet`; absent when none. */
  readonly freeForm?: readonly string[];
}

/**
 * The CRDs besides NodePool and EC2NodeClass that the library has typed constructs for, by data key: the objects
 * users write (NodeClaims are Karpenter's own). A release that does not ship one has no entry for it.
 */
export const OBJECT_CRD_KINDS = { nodeOverlay: "NodeOverlay", capacityBuffer: "CapacityBuffer" } as const;

/** The OpenAPI keywords of one field (or a map's values, `<field>{}`; a list's items, `<field>[]`) that the generic CRD checker reads. */
export interface CrdFieldSchema {
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly default?: unknown;
  /** The object's required fields (names, sorted). */
  readonly required?: readonly string[];
  /** A map value's type (`<field>{}` entries): `int-or-string`, `string`, … */
  readonly type?: CrdFieldType;
}

/** A CRD checked by the generic checker (NodeOverlay, CapacityBuffer): its fields as {@link CrdData}, its API, and each field's schema keywords. */
export interface ObjectCrdData extends CrdData {
  /** The served storage version: group, version (`v1alpha1`), kind, and scope (`Cluster` or `Namespaced`). */
  readonly api: { readonly group: string; readonly version: string; readonly kind: string; readonly scope: string };
  /** Schema keywords by path (`spec`, `spec.weight`, `spec.capacity{}`, `spec.requirements[].key`), sorted. */
  readonly schema: Readonly<Record<string, CrdFieldSchema>>;
}

/** Everything generated for one Karpenter minor, read from its newest known patch. */
export interface VersionData {
  /** The release the data was read from, e.g. `"1.14.1"` (the newest known patch of the minor). */
  readonly version: string;
  /** The minor, e.g. `"1.14"`. */
  readonly minor: string;
  /** The Kubernetes minors the release runs on (given to add-version with `--kubernetes`). */
  readonly kubernetes: { readonly min: string; readonly max: string };
  /** Ids of the errata (ERRATA.json of the reference root) whose corrections the statements carry. */
  readonly errata: readonly string[];
  /** The controller's managed policies in template order; `name` is the 1.9+ group (`NodeLifecycle`), absent for the single pre-1.9 policy. */
  readonly controllerPolicies: readonly { readonly name?: string; readonly statements: readonly RawStatement[] }[];
  /** `KarpenterNodeRole.ManagedPolicyArns`: AWS-managed policy names, template order. */
  readonly nodeRolePolicies: readonly string[];
  /** The EventBridge rules to the interruption queue, template order; `key` ≤ 19 characters. */
  readonly interruptionRules: readonly {
    readonly key: string;
    readonly logicalId: string;
    readonly source: readonly string[];
    readonly detailType: readonly string[];
  }[];
  /**
   * The `karpenter` chart: settings, feature gates and (from 1.15) the AWS feature gates of
   * `settings.awsFeatureGates` (values.yaml order), value paths (sorted; notation of lib/helm/chart-values.ts).
   */
  readonly chart: {
    readonly settings: readonly SettingData[];
    readonly featureGates: readonly SettingData[];
    readonly awsFeatureGates?: readonly SettingData[];
    readonly valuePaths: readonly string[];
  };
  /** CRD spec fields (sorted, dotted, arrays as `[]`) and enum values per field. */
  readonly crds: {
    readonly nodePool: CrdData;
    readonly ec2NodeClass: CrdData;
    /** NodeOverlay (`karpenter.sh/v1alpha1`), in the releases that ship it (1.7 on). */
    readonly nodeOverlay?: ObjectCrdData;
    /** CapacityBuffer (`autoscaling.x-k8s.io/v1beta1`), in the releases that ship it (1.14 on). */
    readonly capacityBuffer?: ObjectCrdData;
  };
  /** Every CEL rule (`x-kubernetes-validations`) of the NodePool, EC2NodeClass, NodeOverlay and CapacityBuffer CRDs: `<kind> <path>: <rule>`, sorted; add-version lists new ones for review. */
  readonly celRules: readonly string[];
}

/**
 * When NodePool and EC2NodeClass spec fields and enum values first appeared, generated into the data index from every
 * known minor's CRDs: field (CRD path) → first minor, `<CRD path>=<value>` → first minor; only what the oldest known
 * minor lacks.
 */
export interface CrdSince {
  readonly nodePool: CrdKindSince;
  readonly ec2NodeClass: CrdKindSince;
  /** Dated against the first minor that ships NodeOverlay. */
  readonly nodeOverlay: CrdKindSince;
  /** Dated against the first minor that ships CapacityBuffer. */
  readonly capacityBuffer: CrdKindSince;
  /** The first known minor that ships each CRD the oldest known minor lacks (`nodeOverlay` → `"1.7"`). */
  readonly kinds: Readonly<Record<string, string>>;
}

/** {@link CrdSince} of one CRD. */
export interface CrdKindSince {
  /** Spec field (CRD path) → first minor. */
  readonly fields: Readonly<Record<string, string>>;
  /** `<CRD path>=<value>` → first minor. */
  readonly enumValues: Readonly<Record<string, string>>;
  /** Object kept free-form (CRD path) → first minor. */
  readonly freeForm: Readonly<Record<string, string>>;
}

/** Every field and enum value of one CRD across the known minors (CRD_KNOWN of the data index). */
export interface CrdKindKnown {
  /** Spec fields (CRD paths), sorted. */
  readonly fields: readonly string[];
  /** Enum values per field, in the CRD's order (the newest minor's, then values only older minors had). */
  readonly enums: Readonly<Record<string, readonly string[]>>;
}

/** {@link CrdKindKnown} of NodePool and EC2NodeClass. */
export interface CrdKnown {
  readonly nodePool: CrdKindKnown;
  readonly ec2NodeClass: CrdKindKnown;
}

/**
 * Values the CRDs list in CEL rules rather than enums (CEL_LISTS of the data index), each → the first known minor that
 * lists it.
 */
export interface CelLists {
  /** EC2NodeClass `amiSelectorTerms[].alias` families (`self.split('@')[0] in [...]`). */
  readonly aliasFamilies: Readonly<Record<string, string>>;
  /** The alias families that take only `@latest` (`... in [...] ? self.split('@')[1] == 'latest' : true`). */
  readonly latestOnlyAliasFamilies: Readonly<Record<string, string>>;
  /** The `karpenter.k8s.aws` keys NodePool requirements (and labels) may use; every other key of that domain is restricted. */
  readonly awsLabelKeys: Readonly<Record<string, string>>;
  /**
   * The `kubernetes.io` keys NodePool requirements could use while the CRD restricted that domain (besides
   * `*.node.kubernetes.io` and `*.node-restriction.kubernetes.io`), and the first minor that no longer restricts it.
   */
  readonly k8sDomain: { readonly allowedKeys: readonly string[]; readonly restrictedUntil: string };
}
