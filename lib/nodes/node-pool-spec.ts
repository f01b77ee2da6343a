/**
 * Types of the `karpenter.sh/v1` NodePool spec, named and shaped as in the CRD
 * (`pkg/apis/crds/karpenter.sh_nodepools.yaml` of aws/karpenter-provider-aws, v1.0 to v1.14).
 *
 * Every field keeps its CRD name and meaning, so a NodePool written in YAML maps field for field.
 * The one deliberate change is in {@link NodePoolOptions}: the fields of `spec.template` are
 * top-level props (see the mapping table there).
 */

/**
 * Operator of a {@link NodeSelectorRequirement}.
 * `Gte` and `Lte` need Karpenter 1.9 or later (CRD v1.9.0).
 */
export type NodeSelectorOperator = "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt" | "Gte" | "Lte";

/**
 * One scheduling requirement of the nodes a NodePool may launch
 * (`spec.template.spec.requirements[]`), e.g.
 * `{ key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] }`.
 *
 * Source: NodePool CRD, `NodeSelectorRequirementWithMinValues`.
 */
export interface NodeSelectorRequirement {
  /**
   * The label key, a Kubernetes qualified name (`[prefix/]name`, ≤ 316 characters), e.g.
   * `kubernetes.io/arch`, `karpenter.sh/capacity-type`, `karpenter.k8s.aws/instance-family`.
   * Restricted: `karpenter.sh/nodepool`, `kubernetes.io/hostname`, other keys of the
   * `karpenter.sh` domain, and `karpenter.k8s.aws` keys that Karpenter does not define (before
   * Karpenter 1.9 also most `kubernetes.io` / `k8s.io` keys).
   */
  readonly key: string;
  /** How `values` are matched; see {@link NodeSelectorOperator}. */
  readonly operator: NodeSelectorOperator;
  /**
   * Label values (each ≤ 63 characters, alphanumerics, `-`, `_`, `.`).
   * `In` needs at least one; `Exists` / `DoesNotExist` take none; `Gt`, `Lt`, `Gte`, `Lte` take
   * exactly one non-negative integer written as a string (e.g. `["5"]`, at most
   * 9223372036854775807); `NotIn` may omit them. Omitting `values` with `In`, `Gt`, `Lt`, `Gte`
   * or `Lte` is an error (the CRD's rules read them).
   * @default none
   */
  readonly values?: string[];
  /**
   * The minimum number of distinct values of this key the launched capacity must span
   * (1 to 50; with `In`, at most the number of `values`), e.g. `minValues: 2` on
   * `instance-family` to keep spot flexibility.
   * @default no minimum
   */
  readonly minValues?: number;
}

/** Effect of a {@link Taint} on pods that do not tolerate it. */
export type TaintEffect = "NoSchedule" | "PreferNoSchedule" | "NoExecute";

/**
 * A taint put on the nodes of a NodePool (`spec.template.spec.taints[]` / `startupTaints[]`),
 * e.g. `{ key: "nvidia.com/gpu", effect: "NoSchedule" }`.
 *
 * Source: NodePool CRD (core/v1 Taint).
 */
export interface Taint {
  /** The taint key, a qualified name (`[prefix/]name`), e.g. `dedicated` or `example.com/team`. */
  readonly key: string;
  /**
   * The taint value (same character rules as the key's name part).
   * @default no value
   */
  readonly value?: string;
  /** What the taint does: `NoSchedule`, `PreferNoSchedule` or `NoExecute`. */
  readonly effect: TaintEffect;
  /**
   * RFC 3339 time the taint was added (normally set by controllers, not by users).
   * @default unset
   */
  readonly timeAdded?: string;
}

/** A disruption method a {@link Budget} can be limited to (`Unhealthy`, node repair, from Karpenter 1.15). */
export type DisruptionReason = "Underutilized" | "Empty" | "Drifted" | "Unhealthy";

/**
 * A disruption budget (`spec.disruption.budgets[]`): how many of the NodePool's nodes Karpenter
 * may disrupt at once, optionally only during a cron window, e.g.
 * `{ nodes: "0", schedule: "0 9 * * mon-fri", duration: "8h" }` (no voluntary disruption on
 * weekday working hours, UTC).
 *
 * Source: NodePool CRD, `Budget`.
 */
export interface Budget {
  /**
   * A node count (`"5"`) or a percentage of the pool's nodes (`"0%"` to `"100%"`), as a string.
   * @default "10%" (CRD default)
   */
  readonly nodes?: string;
  /**
   * When the budget starts to apply: a 5-field cron expression in UTC (`"0 9 * * mon-fri"`) or a
   * macro (`@daily`, `@weekly`, `@monthly`, `@yearly`, `@annually`, `@midnight`, `@hourly`).
   * Time zones are not supported. Must be set together with `duration`.
   * @default always active
   */
  readonly schedule?: string;
  /**
   * How long the budget applies after each `schedule` hit: hours and/or minutes (`"8h"`,
   * `"30m"`, `"1h30m"`; no seconds; at most `"2562047h47m"`, about 292 years). Must be set together with `schedule`.
   * @default always active
   */
  readonly duration?: string;
  /**
   * The disruption methods this budget limits (`Underutilized`, `Empty`, `Drifted`; `Unhealthy` from 1.15;
   * no duplicates). Source: NodePool CRD `spec.disruption.budgets[].reasons` (v1.15.0 of the Go module).
   * @default all methods
   */
  readonly reasons?: DisruptionReason[];
}

/** How a NodePool consolidates. `Balanced` needs Karpenter 1.14 or later. */
export type ConsolidationPolicy = "WhenEmpty" | "WhenEmptyOrUnderutilized" | "Balanced";

/**
 * Disruption settings (`spec.disruption`).
 *
 * Source: NodePool CRD, `Disruption`.
 */
export interface Disruption {
  /**
   * Which nodes consolidation may remove: only empty ones, or empty and underutilized ones.
   * @default "WhenEmptyOrUnderutilized" (CRD default)
   */
  readonly consolidationPolicy?: ConsolidationPolicy;
  /**
   * How long a node must be consolidatable before Karpenter acts: a duration of hours, minutes
   * and seconds (`"30s"`, `"1m"`, `"1h30m"`; at most `"2562047h47m16s"`, about 292 years) or `"Never"`.
   * The CRD requires it whenever `disruption` is given.
   * @default "0s" (Karpenter's own default for a NodePool without `disruption`)
   */
  readonly consolidateAfter?: string;
  /**
   * Disruption budgets (1 to 50); the most restrictive active budget wins. An empty list is refused:
   * the CRD's default applies only when the field is absent, and Karpenter limits nothing with no
   * budget (sigs.k8s.io/karpenter `NodePool.GetAllowedDisruptionsByReason`); write `[{ nodes: "100%" }]` for no limit.
   * @default one budget `{ nodes: "10%" }` (NodePool CRD default)
   */
  readonly budgets?: Budget[];
}

/**
 * The node class a NodePool launches with (`spec.template.spec.nodeClassRef`): an {@link Ec2NodeClass}
 * of this app (which implements this interface), or a reference by name from
 * {@link NodeClassRef.named} to an EC2NodeClass managed elsewhere. In TypeScript a plain object
 * `{ name, group?, kind? }` ({@link NodeClassReference}) is one too.
 */
export interface INodeClassRef {
  /** The node class's `metadata.name` (a DNS-1123 subdomain). */
  readonly name: string;
  /**
   * The API group of the node class; any other than `karpenter.k8s.aws` is an error.
   * @default "karpenter.k8s.aws"
   */
  readonly group?: string;
  /**
   * The kind of the node class; any other than `EC2NodeClass` is an error.
   * @default "EC2NodeClass"
   */
  readonly kind?: string;
}

/**
 * A reference to a node class that is not an {@link Ec2NodeClass} of this app
 * (`spec.template.spec.nodeClassRef`), e.g. `{ name: "default" }` for an EC2NodeClass applied
 * with kubectl or another stack's tooling. Ordering against it is then the user's job.
 */
export interface NodeClassReference {
  /** The node class's `metadata.name` (a DNS-1123 subdomain). */
  readonly name: string;
  /**
   * The API group of the node class: `karpenter.k8s.aws`, the only one Karpenter on AWS provides.
   * Karpenter ignores a NodePool whose nodeClassRef names another group or kind
   * (kubernetes-sigs/karpenter pkg/utils/nodepool, IsManaged), so any other value is an error.
   * @default "karpenter.k8s.aws"
   */
  readonly group?: string;
  /**
   * The kind of the node class: `EC2NodeClass` (case-sensitive), the only one Karpenter on AWS
   * provides; any other value is an error.
   * @default "EC2NodeClass"
   */
  readonly kind?: string;
}

/**
 * The NodePool spec as props, with `spec.template` flattened:
 *
 * | prop | NodePool field |
 * |---|---|
 * | `name` | `metadata.name` |
 * | `labels`, `annotations` | `spec.template.metadata.labels` / `.annotations` |
 * | `requirements`, `taints`, `startupTaints`, `expireAfter`, `terminationGracePeriod` | `spec.template.spec.<same name>` |
 * | `nodeClass` ({@link NodePoolProps}) | `spec.template.spec.nodeClassRef` |
 * | `limits`, `disruption`, `weight`, `replicas` | `spec.<same name>` |
 *
 * Source: NodePool CRD v1.14.1 (`karpenter.sh_nodepools.yaml`); fields added after v1.0 say so.
 */
export interface NodePoolOptions {
  /**
   * `metadata.name` of the NodePool: a DNS-1123 subdomain (lowercase alphanumerics, `-`, `.`,
   * ≤ 253 characters). Unique per cluster: two NodePools of one app with the same name on the
   * same cluster (same installation, same cluster, or — for pools that name none — same stack)
   * fail synth.
   * @default derived from the construct id (lowercased, other characters replaced by `-`)
   */
  readonly name?: string;
  /**
   * Requirements on the nodes (≤ 100). `karpenter.sh/capacity-type` is always stated: when no
   * requirement (and no template label) names it, `In ["on-demand"]` is added — state
   * `["spot", "on-demand"]` yourself to allow spot. When a token hides whether it is named (the
   * whole list or `labels` is a token, or a requirement or label key is), nothing is added and
   * synth warns. Requirements and template labels on one key are ANDed (kubernetes-sigs/karpenter
   * `Requirements.Add` intersects them): ones that leave no value (`arch In [amd64]` with
   * `arch In [arm64]`, `NotIn` every capacity type) are an error.
   * @default `[{ key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] }]`
   */
  readonly requirements?: NodeSelectorRequirement[];
  /**
   * Labels of the launched nodes (≤ 100; keys are qualified names outside the restricted
   * Karpenter domains; values ≤ 63 characters).
   * @default none
   */
  readonly labels?: { [key: string]: string };
  /**
   * Annotations of the launched nodes (keys are qualified names).
   * @default none
   */
  readonly annotations?: { [key: string]: string };
  /**
   * Taints of the launched nodes. A key/effect pair may appear once across `taints` and
   * `startupTaints` (Karpenter rejects duplicates).
   * @default none
   */
  readonly taints?: Taint[];
  /**
   * Taints present at node start that a DaemonSet is expected to remove (pods need not tolerate them).
   * @default none
   */
  readonly startupTaints?: Taint[];
  /**
   * How long a node lives before Karpenter replaces it: `"720h"`, `"1h30m"`, or `"Never"`; at
   * most `"2562047h47m16s"`, about 292 years (Go's time.Duration; the CRD takes whole seconds).
   * @default "720h" (CRD default)
   */
  readonly expireAfter?: string;
  /**
   * How long a draining node may wait for its pods before Karpenter deletes them anyway
   * (`"48h"`, `"1h30m"`, at most `"2562047h47m16s"`, about 292 years; `Never` is not allowed — leave it unset to
   * wait indefinitely).
   * @default unset (wait indefinitely)
   */
  readonly terminationGracePeriod?: string;
  /**
   * Upper bounds on the total resources of the pool's nodes (`spec.limits`): resource name → a
   * non-negative Kubernetes quantity written as a string, e.g.
   * `{ cpu: "100", memory: "400Gi", nodes: "10" }`. CPU counts cores (`"100"`) or millicores
   * (`"500m"`); memory and storage count bytes, so give a suffix (`"1000Gi"`; a bare `"1024"` is
   * 1024 bytes and warns); `pods`, `nodes` and extended resources count items (`"4"`). Resource
   * names: `cpu`, `memory`, `ephemeral-storage`, `pods`, `nodes`, `hugepages-<size>` and extended
   * resources such as `nvidia.com/gpu`; any other key (e.g. `cpus`) counts a resource no node has,
   * is never reached, and gets a synth warning, as does a `cpu` or `memory` limit above 0 that no
   * instance type fits under. The manifest carries the strings as written (the CRD's limits are
   * int-or-string).
   *
   * Throws KarpenterValidationError for a value that is no non-negative quantity (`"lots"`,
   * `"-1"`), and for a number (`100`, from JavaScript or from code compiled against the old
   * `string | number` type: write `"100"`).
   * @default no limits
   */
  readonly limits?: { [resource: string]: string };
  /**
   * Consolidation and disruption budgets.
   * @default CRD defaults: WhenEmptyOrUnderutilized after 0s, budget 10%
   */
  readonly disruption?: Disruption;
  /**
   * Priority among NodePools (1 to 100; higher first). Not allowed with `replicas`.
   * @default unset (treated as 0)
   */
  readonly weight?: number;
  /**
   * A fixed node count (static NodePool; alpha, Karpenter 1.8 or later). Only `limits.nodes` is
   * allowed with it, and no `weight`.
   * @default unset (dynamic provisioning)
   */
  readonly replicas?: number;
}
