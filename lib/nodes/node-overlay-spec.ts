import type { NodeSelectorOperator } from "./node-pool-spec";

/*
 * Types of the NodeOverlay spec, named and shaped as in the CRD (see node-overlay-rules.ts for the source and the rules).
 */

/**
 * One requirement of a {@link NodeOverlay}: which instance types (and NodePools) the overlay applies to during
 * scheduling simulations, e.g. `{ key: "node.kubernetes.io/instance-type", operator: "In", values: ["m5.large"] }`.
 *
 * Source: NodeOverlay CRD `spec.requirements[]`.
 */
export interface NodeOverlayRequirement {
  /**
   * The label key: a well-known label (`node.kubernetes.io/instance-type`, `karpenter.k8s.aws/instance-family`,
   * `karpenter.sh/capacity-type`, `karpenter.sh/nodepool`) or a label of a NodePool's template. Keys of the
   * `karpenter.sh` and `karpenter.k8s.aws` domains are restricted to the ones the release's CRD lists, and
   * `kubernetes.io/hostname` is restricted (NodeOverlay CRD rules).
   */
  readonly key: string;
  /**
   * How `values` are matched: `In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`, `Lt`; `Gte` and `Lte` from
   * Karpenter 1.9.
   */
  readonly operator: NodeSelectorOperator;
  /**
   * Label values (each ≤ 63 characters). `In` and `NotIn` need at least one; `Gt`, `Lt`, `Gte`, `Lte` exactly
   * one non-negative integer as a string (`["4"]`); `Exists` and `DoesNotExist` none.
   * @default none
   */
  readonly values?: string[];
}

/**
 * The NodeOverlay spec as props, named as the CRD's `spec` fields (plus `name`, the object's `metadata.name`).
 *
 * Source: NodeOverlay CRD v1.15.0 (`karpenter.sh_nodeoverlays.yaml`, `karpenter.sh/v1alpha1`).
 */
export interface NodeOverlayOptions {
  /**
   * `metadata.name` of the NodeOverlay: a DNS-1123 subdomain. When several overlays of one weight match an
   * instance type, Karpenter merges them in alphabetical order of their names.
   * @default derived from the construct id (lowercased, other characters replaced by `-`)
   */
  readonly name?: string;
  /**
   * When the overlay applies (`spec.requirements`, required by the CRD; at most 100): the instance types and
   * NodePools whose labels satisfy every requirement. An empty list applies it to every instance type.
   */
  readonly requirements: NodeOverlayRequirement[];
  /**
   * The price Karpenter uses for the matching instance types instead of their on-demand or spot price, in US
   * dollars per hour as a decimal string (`"0.25"`; CRD pattern `^\d+(\.\d+)?$`). Not together with
   * `priceAdjustment` (NodeOverlay CRD: "cannot set both 'price' and 'priceAdjustment'").
   * @default the instance type's own price
   */
  readonly price?: string;
  /**
   * A change of the matching instance types' price: a signed amount in US dollars per hour (`"+0.5"`, `"-0.1"`)
   * or a percentage (`"+10%"`, `"-15%"`, down to `"-100%"`). Not together with `price`.
   * @default no change
   */
  readonly priceAdjustment?: string;
  /**
   * Extended resources the matching instance types are taken to have, added to their capacity (resource name →
   * quantity as a string, e.g. `{ "smarter-devices/fuse": "1" }`). `cpu`, `memory`, `ephemeral-storage` and
   * `pods` cannot be overridden (NodeOverlay CRD: "invalid resource restricted").
   * @default none
   */
  readonly capacity?: { [resource: string]: string };
  /**
   * Priority among overlays matching the same instance type (1 to 10,000; higher wins).
   * @default unset (treated as 0)
   */
  readonly weight?: number;
}
