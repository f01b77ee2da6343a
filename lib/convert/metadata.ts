import { Fields, noteValue, ObjectContext } from "./fields";

/*
 * `metadata` and `status` of an input object. The v1 objects the constructs emit carry only
 * `metadata.name`; everything else is noted: server-set fields (as in `kubectl get -o yaml`
 * output) as ignored, user-set labels and annotations as not carried over.
 */

/** Metadata the API server or controllers set; meaningless in a manifest to apply. */
const SERVER_SET = [
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "managedFields",
  "selfLink",
  "finalizers",
  "ownerReferences",
  "namespace",
  "generateName",
];
/** Annotations kubectl and Karpenter's controllers and conversion webhooks set. */
const CONTROLLER_ANNOTATIONS = [
  /^kubectl\.kubernetes\.io\/last-applied-configuration$/,
  /^karpenter\.sh\/nodepool-hash/,
  /^karpenter\.k8s\.aws\/ec2nodeclass-hash/,
  /^karpenter\.sh\/stored-version-migrated$/,
  /^compatibility\.karpenter\.(sh|k8s\.aws)\//,
];
/** Set by the v1.0 conversion webhook on NodePools that had a v1beta1 kubelet: the kubelet as JSON. */
export const KUBELET_COMPATIBILITY = "compatibility.karpenter.sh/v1beta1-kubelet-conversion";

/**
 * Reads `metadata.name` (required) and notes the rest of `metadata` and `status`; returns the
 * name and the object's annotations (`readsKubeletAnnotation`: the caller converts
 * {@link KUBELET_COMPATIBILITY}, so it is not noted here), and for a namespaced kind (`namespaced`) its
 * `metadata.namespace` when given (for other kinds a namespace is noted as set by the cluster).
 */
export function readMetadata(
  ctx: ObjectContext,
  top: Fields,
  readsKubeletAnnotation: boolean,
  namespaced = false,
): { name: string; namespace?: string; annotations: { [k: string]: string } } {
  const meta =
    top.obj("metadata", "object metadata { name }") ??
    top.fail("CONVERT_REQUIRED", "metadata", undefined, "object metadata with a name (required)");
  const name =
    meta.str("name", { nonEmpty: true }) ??
    meta.fail("CONVERT_REQUIRED", "name", undefined, "the object's name (required)");
  // a namespaced object's namespace is where it lives (and its references point), not a field the cluster set
  const namespace = namespaced ? meta.str("namespace") : undefined;
  const ignored = SERVER_SET.filter((k) => meta.has(k) && !(namespaced && k === "namespace"));
  meta.consume(...ignored);
  const annotations = meta.strMap("annotations") ?? {};
  const controllerSet = (k: string) => k !== KUBELET_COMPATIBILITY && CONTROLLER_ANNOTATIONS.some((re) => re.test(k));
  const userAnnotations = Object.keys(annotations).filter(
    (k) => !controllerSet(k) && !(readsKubeletAnnotation && k === KUBELET_COMPATIBILITY),
  );
  ignored.push(
    ...Object.keys(annotations)
      .filter(controllerSet)
      .map((k) => `annotations["${k}"]`),
  );
  if (top.has("status")) {
    top.consume("status");
    ignored.push("status");
  }
  if (ignored.length > 0)
    ctx.note(
      "info",
      "metadata",
      `ignored fields set by the cluster (not part of the desired state): ${ignored.map((k) => (k === "status" ? k : `metadata.${k}`)).join(", ")}`,
    );
  const labels = meta.strMap("labels");
  if (labels)
    ctx.note(
      "action",
      "metadata.labels",
      `labels of the object itself are not carried over (the constructs set only metadata.name): ${noteValue(labels)}`,
    );
  if (userAnnotations.length > 0) {
    const kept = Object.fromEntries(userAnnotations.map((k) => [k, annotations[k]]));
    ctx.note(
      "action",
      "metadata.annotations",
      `annotations of the object itself are not carried over (the constructs set only metadata.name): ${noteValue(kept)}`,
    );
  }
  return { name, ...(namespace !== undefined ? { namespace } : {}), annotations };
}
