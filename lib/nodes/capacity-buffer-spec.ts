/*
 * Types of the CapacityBuffer spec, named and shaped as in the CRD (see capacity-buffer-rules.ts for the source and the rules).
 */

/**
 * The PodTemplate that gives one chunk of a {@link CapacityBuffer} its shape (`spec.podTemplateRef`): a PodTemplate
 * in the buffer's namespace.
 */
export interface CapacityBufferPodTemplateRef {
  /** The PodTemplate's `metadata.name` (non-empty). */
  readonly name: string;
}

/**
 * A workload with a scale subresource whose pods give a {@link CapacityBuffer}'s chunks their shape
 * (`spec.scalableRef`), e.g. `{ apiGroup: "apps", kind: "Deployment", name: "web" }`, in the buffer's namespace.
 */
export interface CapacityBufferScalableRef {
  /**
   * The API group of the workload: `apps`, the one group Karpenter resolves a scalableRef in (without a version:
   * `apps`, not `apps/v1`); another group is refused.
   * @default "" (the CRD's core group, which Karpenter reads as `apps`)
   */
  readonly apiGroup?: string;
  /**
   * The kind of the workload: `Deployment`, `StatefulSet` or `ReplicaSet`, the kinds Karpenter resolves (another
   * kind is refused: give its pod shape as a PodTemplate in `podTemplateRef` instead).
   */
  readonly kind: string;
  /** The workload's `metadata.name` (non-empty). */
  readonly name: string;
}

/**
 * The CapacityBuffer spec as props, named as the CRD's `spec` fields (plus `name` and `namespace`, the object's
 * metadata).
 *
 * Source: CapacityBuffer CRD v1.14.1 / v1.15.0 of the karpenter-crd chart (`autoscaling.x-k8s.io/v1beta1`).
 */
export interface CapacityBufferOptions {
  /**
   * `metadata.name` of the CapacityBuffer: a DNS-1123 subdomain, unique in its namespace.
   * @default derived from the construct id (lowercased, other characters replaced by `-`)
   */
  readonly name?: string;
  /**
   * `metadata.namespace`: a CapacityBuffer is namespaced, and its `podTemplateRef` or `scalableRef` names an
   * object of the same namespace. A DNS-1123 label.
   * @default "default"
   */
  readonly namespace?: string;
  /**
   * The PodTemplate that declares the shape of one chunk of the buffer. Exactly one of `podTemplateRef` and
   * `scalableRef` (CRD: "You must define either PodTemplateRef or ScalableRef, but not both"); with it, `replicas`
   * or `limits` too (CRD: "If podTemplateRef is set, replicas or limits must also be set").
   * @default none
   */
  readonly podTemplateRef?: CapacityBufferPodTemplateRef;
  /**
   * A workload with a scale subresource (a Deployment, a StatefulSet) whose pods give the chunks their shape;
   * `percentage` reads its replica count. Exactly one of `podTemplateRef` and `scalableRef`.
   * @default none
   */
  readonly scalableRef?: CapacityBufferScalableRef;
  /**
   * The number of chunks (placeholder pods) to keep room for (0 or more). With `percentage` too, the smaller
   * of the two counts.
   * @default unset: as many chunks as `limits` allow
   */
  readonly replicas?: number;
  /**
   * The chunks as a percentage of the `scalableRef` workload's current replicas, rounded up to at least 1
   * (0 or more; `20` with 10 replicas is 2 chunks). Read only with `scalableRef`.
   * @default unset
   */
  readonly percentage?: number;
  /**
   * Upper bounds on the resources all chunks request together (resource name → quantity as a string, e.g.
   * `{ cpu: "8", memory: "32Gi" }`); without `replicas` and `percentage`, as many chunks as fit are created.
   * @default no limits
   */
  readonly limits?: { [resource: string]: string };
  /**
   * How the buffer is provisioned: `buffer.x-k8s.io/active-capacity`, the one strategy Karpenter implements
   * (placeholder pods that scale the cluster up in advance).
   * @default "buffer.x-k8s.io/active-capacity" (CRD default)
   */
  readonly provisioningStrategy?: string;
}
