import { Ec2NodeClassOptions } from "../nodes/ec2-node-class-spec";
import { NodeClassReference, NodePoolOptions } from "../nodes/node-pool-spec";
import { NodeOverlayOptions } from "../nodes/node-overlay-spec";
import { CapacityBufferOptions } from "../nodes/capacity-buffer-spec";

/**
 * Options of {@link convertLegacyManifests}.
 */
export interface ConvertLegacyManifestsOptions {
  /**
   * The IAM role name of the nodes (EC2NodeClass `spec.role`, e.g. `"KarpenterNodeRole-demo"`)
   * for node classes converted from v1alpha1 (AWSNodeTemplate, or a Provisioner's inline
   * `provider`). It replaces their `instanceProfile` — Karpenter then creates and manages the
   * instance profile itself (v1beta1 migration guide, "InstanceProfile") — and fills in the role
   * of those that named none (they relied on the dropped `defaultInstanceProfile` setting).
   * v1beta1 and v1 EC2NodeClasses keep their own `role` / `instanceProfile`: the API server
   * rejects switching an existing EC2NodeClass from `instanceProfile` to `role`.
   * @default unset: `instanceProfile` is kept
   */
  readonly role?: string;
  /**
   * Add the requirements the v1alpha5 defaulting webhook added to every Provisioner and that
   * v1beta1 dropped (v1beta1 migration guide, "spec.template.spec.requirements Defaults
   * Dropped"): `kubernetes.io/os In [linux]`, `kubernetes.io/arch In [amd64]`,
   * `karpenter.sh/capacity-type In [on-demand]`, and — without any instance type, family,
   * category or generation requirement — `karpenter.k8s.aws/instance-category In [c, m, r]`
   * and `karpenter.k8s.aws/instance-generation Gt 2`, each only when the Provisioner does not
   * name that key. Each added requirement gets a note. Same as upstream `karpenter-convert`
   * without `--ignore-defaults`. With `false`, `karpenter.sh/capacity-type In [on-demand]` is
   * still added when nothing names the capacity type: every converted NodePool states it, as the
   * NodePool construct does (a v1 NodePool requires `requirements`).
   * @default true
   */
  readonly legacyDefaults?: boolean;
  /**
   * The Karpenter version the converted objects are checked against, e.g. `"1.14.1"`: a
   * converted object that this version's NodePool / EC2NodeClass / NodeOverlay / CapacityBuffer
   * rules reject gets a note (the same rules the {@link NodePool}, {@link Ec2NodeClass},
   * {@link NodeOverlay} and {@link CapacityBuffer} constructs enforce). NodeOverlays and
   * CapacityBuffers carry the spec fields of this version's CRD; a version without the CRD
   * (NodeOverlay before 1.7, CapacityBuffer before 1.14) makes them invalid.
   * @default DEFAULT_KARPENTER_VERSION ("1.15.3")
   */
  readonly version?: string;
}

/**
 * How much a {@link ConversionNote} matters:
 * - `info`: carried over with an equivalent v1 spelling, or a v1 behaviour to know about;
 * - `action`: something was not carried over exactly, or the v1 object needs an edit before use.
 */
export type ConversionNoteLevel = "info" | "action";

/**
 * A remark about one field that could not be carried over exactly, or whose meaning changed.
 * Every field of the input that is not in the v1 result is named by a note.
 */
export interface ConversionNote {
  /** See {@link ConversionNoteLevel}. */
  readonly level: ConversionNoteLevel;
  /**
   * The dot path the note is about: in the input document (e.g. `spec.ttlSecondsUntilExpired`,
   * `metadata.annotations`), or for notes on the result in the v1 object (e.g.
   * `spec.template.spec.requirements[0].key`).
   */
  readonly field: string;
  /** What happened and, for `action` notes, what to do. */
  readonly message: string;
  /**
   * `true` when the v1 object as converted would be rejected — by the API server with Karpenter's
   * v1 CRDs (a required field such as `nodeClassRef`, `role` / `instanceProfile` or the selector
   * terms is missing; a NodeOverlay or CapacityBuffer for a release without its CRD) or by the rules
   * of the targeted Karpenter version that the NodePool / Ec2NodeClass / NodeOverlay /
   * CapacityBuffer constructs enforce (`weight: 500`, `kubernetes.io/arch In [x86_64]`): the object
   * needs this edit before it can be applied. Always with level `action`. The `convert` command
   * exits 1 when any note has it (the YAML is printed all the same).
   * @default unset: the object is accepted as converted
   */
  readonly invalid?: boolean;
  /**
   * `true` on an `invalid` note when it is this library's policy, not Karpenter, that refuses the field: Karpenter
   * accepts the object as converted, and the constructs refuse it deliberately (a `NotIn` requirement none of whose
   * values any instance carries, such as `karpenter.sh/capacity-type NotIn [ondemand]`, excludes nothing:
   * kubernetes-sigs/karpenter v1.15.0 pkg/apis/v1/nodeclaim_validation.go:167-171 checks only `In`).
   * @default unset: Karpenter's rules (the API server with its CRDs, or the controller) refuse it
   */
  readonly refusedByLibrary?: boolean;
}

/** Where a converted object came from. */
export interface ConversionSource {
  /** 1-based index of the YAML document in the input. */
  readonly document: number;
  /** 0-based index in the `items` of a `kind: List` document. @default unset: the document itself */
  readonly item?: number;
  /** `apiVersion` of the input object, e.g. `"karpenter.sh/v1alpha5"`. */
  readonly apiVersion: string;
  /** `kind` of the input object, e.g. `"Provisioner"`. */
  readonly kind: string;
  /** `metadata.name` of the input object. */
  readonly name: string;
}

/**
 * A NodePool converted to `karpenter.sh/v1`. `props` are {@link NodePoolOptions}: give them to
 * `new NodePool(scope, id, { ...props, nodeClass })`, with `nodeClass` the {@link Ec2NodeClass}
 * named `nodeClassRef.name` or `nodeClassRef` itself.
 */
export interface ConvertedNodePool {
  /** Always `"NodePool"`. */
  readonly kind: "NodePool";
  /** `metadata.name` (same as the input's). */
  readonly name: string;
  /** The v1 spec as NodePool props (`name` included). */
  readonly props: NodePoolOptions;
  /**
   * The node class the pool launches with (`spec.template.spec.nodeClassRef`), group and kind
   * filled in (`karpenter.k8s.aws` / `EC2NodeClass`).
   * @default unset when the input named none (a note says so; the NodePool needs one)
   */
  readonly nodeClassRef?: NodeClassReference;
  /** The input object. */
  readonly source: ConversionSource;
  /** What could not be carried over exactly, in input order. */
  readonly notes: ConversionNote[];
}

/**
 * An EC2NodeClass converted to `karpenter.k8s.aws/v1`. `props` are {@link Ec2NodeClassOptions}:
 * give them to `new Ec2NodeClass(scope, id, { ...props, karpenter })`.
 */
export interface ConvertedEc2NodeClass {
  /** Always `"EC2NodeClass"`. */
  readonly kind: "EC2NodeClass";
  /**
   * `metadata.name` (the input's; for a Provisioner's inline `provider`, the Provisioner's; for a
   * copy made for a NodePool whose kubelet differs from the other NodePools of the class,
   * `<class>-<pool>`, cut to 63 characters with a hash when longer).
   */
  readonly name: string;
  /** The v1 spec as EC2NodeClass props (`name` included). */
  readonly props: Ec2NodeClassOptions;
  /** The input object (for an inline `provider`, the Provisioner; for a copy, the class it copies). */
  readonly source: ConversionSource;
  /** What could not be carried over exactly, in input order. */
  readonly notes: ConversionNote[];
}

/**
 * A NodeOverlay, read as the target release's CRD has it (`karpenter.sh/v1alpha1`; no older API version exists).
 * `props` are {@link NodeOverlayOptions}, every spec field as written: give them to
 * `new NodeOverlay(scope, id, { ...props, karpenter })`, with `karpenter` an install that enables the
 * `nodeOverlay` feature gate (a note says so).
 */
export interface ConvertedNodeOverlay {
  /** Always `"NodeOverlay"`. */
  readonly kind: "NodeOverlay";
  /** `metadata.name` (same as the input's). */
  readonly name: string;
  /** The API version of the output, the one the target release serves, e.g. `"karpenter.sh/v1alpha1"`. */
  readonly apiVersion: string;
  /** The spec as NodeOverlay props (`name` included). */
  readonly props: NodeOverlayOptions;
  /** The input object. */
  readonly source: ConversionSource;
  /** What could not be carried over exactly, what the install needs, and what the target release rejects. */
  readonly notes: ConversionNote[];
}

/**
 * A CapacityBuffer, read as the target release's CRD has it (`autoscaling.x-k8s.io/v1beta1`). `props` are
 * {@link CapacityBufferOptions}, every spec field as written plus `namespace` when the input named one: give them
 * to `new CapacityBuffer(scope, id, { ...props, karpenter })`, with `karpenter` an install that enables the
 * `capacityBuffer` feature gate (a note says so).
 */
export interface ConvertedCapacityBuffer {
  /** Always `"CapacityBuffer"`. */
  readonly kind: "CapacityBuffer";
  /** `metadata.name` (same as the input's). */
  readonly name: string;
  /** `metadata.namespace`: the input's, else `"default"` (the construct's default). */
  readonly namespace: string;
  /** The API version of the output, the one the target release serves, e.g. `"autoscaling.x-k8s.io/v1beta1"`. */
  readonly apiVersion: string;
  /** The spec as CapacityBuffer props (`name` included; `namespace` when the input named one). */
  readonly props: CapacityBufferOptions;
  /** The input object. */
  readonly source: ConversionSource;
  /** What could not be carried over exactly, what the install needs, and what the target release rejects. */
  readonly notes: ConversionNote[];
}

/** One converted object. */
export type ConvertedObject =
  ConvertedNodePool | ConvertedEc2NodeClass | ConvertedNodeOverlay | ConvertedCapacityBuffer;

/** The result of {@link convertLegacyManifests}. */
export interface LegacyConversionResult {
  /**
   * Every converted object, in input order (an inline provider's node class right after its
   * NodePool; a copy of an EC2NodeClass made for a NodePool with other kubelet settings right
   * after the class it copies).
   */
  readonly objects: ConvertedObject[];
  /** The NodePools of `objects`. */
  readonly nodePools: ConvertedNodePool[];
  /** The EC2NodeClasses of `objects`. */
  readonly ec2NodeClasses: ConvertedEc2NodeClass[];
  /** The NodeOverlays of `objects`. */
  readonly nodeOverlays: ConvertedNodeOverlay[];
  /** The CapacityBuffers of `objects`. */
  readonly capacityBuffers: ConvertedCapacityBuffer[];
  /**
   * Notes about the input as a whole: documents skipped because they are not Karpenter
   * NodePools, node classes, NodeOverlays or CapacityBuffers (their `field` is `document <n>`).
   */
  readonly notes: ConversionNote[];
}
