import {
  Checker,
  entry,
  isDns1123Label,
  isDns1123Subdomain,
  isNegativeQuantity,
  isSet,
} from "../kubernetes/value-rules";
import { checkCrdValue } from "../kubernetes/crd-checks";
import type { ObjectCrdData } from "../versions";
import type { CapacityBufferOptions } from "./capacity-buffer-spec";
import { AWS_EXTENDED_RESOURCES } from "./extended-resources";
import { misspeltExtendedResources, unknownLimitResources } from "./node-pool-rules";

/*
 * The autoscaling.x-k8s.io/v1beta1 CapacityBuffer spec (kubernetes/autoscaler's buffers API, CRD
 * autoscaling.x-k8s.io_capacitybuffers.yaml of the karpenter-crd chart, from v1.14.0) and its rules. The OpenAPI
 * rules (fields, types, bounds, required fields) are read from the generated field table
 * (lib/kubernetes/crd-checks.ts); the CEL rules are written here, one check per rule, quoting it.
 */

/** The strategy of the CRD's default, the one Karpenter provisions for (the CRD takes any string). */
export const ACTIVE_CAPACITY = "buffer.x-k8s.io/active-capacity";

/** The CapacityBuffer CRD rules of the release (`crd`: its generated table) on the props, each field a guarded check. */
export function checkCapacityBuffer(
  c: Checker,
  crd: ObjectCrdData,
  p: CapacityBufferOptions,
  name: string,
  namespace: string,
): void {
  c.guard(() => c.dnsName("name", name));
  c.guard(() => {
    if (c.known(namespace) && !isDns1123Label(namespace))
      c.fail(
        "CAPACITYBUFFER_NAMESPACE",
        "namespace",
        namespace,
        "a namespace name: a DNS-1123 label (lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters)",
      );
  });
  const { name: _n, namespace: _ns, ...spec } = p;
  checkCrdValue(c, "capacityBuffer", crd, "spec", "", spec, "CapacityBufferProps");
  // CEL on spec: !(has(self.podTemplateRef) && has(self.scalableRef))
  c.guard(() => {
    if (isSet(p.podTemplateRef) && isSet(p.scalableRef))
      c.fail(
        "CAPACITYBUFFER_REF_CONFLICT",
        "scalableRef",
        p.scalableRef,
        `unset when podTemplateRef is set: a buffer's chunks take their shape from one of them (CapacityBuffer CRD: "You must define either PodTemplateRef or ScalableRef, but not both")`,
      );
  });
  // CEL on spec: !has(self.podTemplateRef) || has(self.replicas) || has(self.limits)
  c.guard(() => {
    if (isSet(p.podTemplateRef) && !isSet(p.replicas) && !isSet(p.limits))
      c.fail(
        "CAPACITYBUFFER_REPLICAS_REQUIRED",
        "replicas",
        p.replicas,
        `a number of chunks (or limits): with podTemplateRef nothing else says how many chunks to keep (CapacityBuffer CRD: "If podTemplateRef is set, replicas or limits must also be set")`,
      );
  });
}

/**
 * The rules beyond the CRD: a buffer names what its chunks look like (the CRD's description says "Exactly one of
 * `podTemplateRef`, `scalableRef` should be specified", but its rule refuses only both), and `limits` are not
 * negative.
 */
export function checkCapacityBufferSemantics(s: Checker, p: CapacityBufferOptions): void {
  checkScalableRefGroup(s, p.scalableRef);
  s.guard(() => {
    const ref = p.podTemplateRef;
    if (!isSet(ref) || s.token(ref) || typeof ref !== "object") return;
    const name: unknown = ref.name;
    if (typeof name !== "string" || name === "" || !s.known(name) || isDns1123Subdomain(name)) return;
    s.fail(
      s.code("NOT_A_DNS_NAME"),
      "podTemplateRef.name",
      name,
      `a PodTemplate's name, a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters: no PodTemplate can have the name "${name}", so the reference never resolves and the buffer keeps no capacity (the CRD takes any string)`,
    );
  });
  s.guard(() => {
    if (!isSet(p.podTemplateRef) && !isSet(p.scalableRef))
      s.fail(
        "CAPACITYBUFFER_REF_REQUIRED",
        "podTemplateRef",
        undefined,
        'a PodTemplate reference { name }, or a scalableRef { apiGroup, kind, name }: exactly one of the two says what a chunk of the buffer looks like, and a buffer with neither provisions nothing (CapacityBuffer CRD: "Exactly one of `podTemplateRef`, `scalableRef` should be specified")',
      );
  });
  if (isSet(p.limits) && !s.token(p.limits) && typeof p.limits === "object")
    for (const [key, q] of Object.entries(p.limits))
      s.guard(() => {
        if (typeof q === "string" && s.known(q) && isNegativeQuantity(q))
          s.fail(
            "CAPACITYBUFFER_NEGATIVE_LIMIT",
            s.entry("limits", key),
            q,
            "a non-negative quantity: a negative limit leaves room for no chunk",
          );
      });
}

/** Warnings for settings Karpenter reads but ignores here: `percentage` without `scalableRef`, another strategy. */
export function capacityBufferWarnings(c: Checker, name: string, p: CapacityBufferOptions): string[] {
  const out: string[] = [];
  if (isSet(p.percentage) && !isSet(p.scalableRef))
    out.push(
      `CapacityBuffer ${name}: percentage is a share of the scalableRef workload's replicas, and this buffer has no scalableRef, so percentage is ignored (CapacityBuffer CRD: "This is only applicable if scalableRef is set"). Set replicas or limits instead.`,
    );
  out.push(...bufferLimitsWarnings(c, name, p.limits));
  if (isSet(p.provisioningStrategy) && c.known(p.provisioningStrategy) && p.provisioningStrategy !== ACTIVE_CAPACITY)
    out.push(
      `CapacityBuffer ${name}: provisioningStrategy ${JSON.stringify(p.provisioningStrategy)} is not ${ACTIVE_CAPACITY}, the one strategy Karpenter provisions for (the CRD takes any string): the buffer keeps no capacity.`,
    );
  return out;
}

/**
 * The workloads Karpenter resolves a `scalableRef` to (kubernetes-sigs/karpenter pkg/utils/apps/resolve.go,
 * ResolveScalableRef): an empty `apiGroup` is read as "apps", any other group fails with "unsupported scalableRef
 * API group", and only the kinds Deployment, StatefulSet and ReplicaSet are read ("unsupported kind"). The buffer
 * then gets ReadyForProvisioning=False (ResolutionFailed) and keeps no capacity; the CRD takes any group and kind
 * (a ReplicationController, a custom resource with a scale subresource, "apps/v1").
 */
const SCALABLE_GROUP = "apps";
const SCALABLE_KINDS = ["Deployment", "StatefulSet", "ReplicaSet"];
const RESOLVE_SOURCE =
  "Karpenter's buffer controller, kubernetes-sigs/karpenter pkg/utils/apps/resolve.go ResolveScalableRef";

/** `scalableRef.apiGroup` and `scalableRef.kind` against what Karpenter resolves (see {@link SCALABLE_KINDS}). */
function checkScalableRefGroup(s: Checker, ref: CapacityBufferOptions["scalableRef"]): void {
  if (!isSet(ref) || s.token(ref) || typeof ref !== "object") return;
  s.guard(() => {
    const group: unknown = ref.apiGroup;
    if (!isSet(group) || !s.known(group) || typeof group !== "string" || group === "" || group === SCALABLE_GROUP)
      return;
    const versioned = group.includes("/")
      ? ` (an API group names no version: "${group.split("/")[0]}", not "${group}")`
      : "";
    s.fail(
      "CAPACITYBUFFER_SCALABLE_REF_GROUP",
      "scalableRef.apiGroup",
      group,
      `"${SCALABLE_GROUP}" (or unset, which Karpenter reads as "${SCALABLE_GROUP}")${versioned}: Karpenter resolves a scalableRef only to a Deployment, StatefulSet or ReplicaSet of the apps group and fails any other group with "unsupported scalableRef API group", so the buffer is never ready and keeps no capacity (${RESOLVE_SOURCE})`,
    );
  });
  s.guard(() => {
    const kind: unknown = ref.kind;
    if (!s.known(kind) || typeof kind !== "string" || kind === "" || SCALABLE_KINDS.includes(kind)) return;
    const meant = SCALABLE_KINDS.find((k) => k.toLowerCase() === kind.toLowerCase().replace(/s$/, ""));
    s.fail(
      "CAPACITYBUFFER_SCALABLE_REF_KIND",
      "scalableRef.kind",
      kind,
      `one of ${SCALABLE_KINDS.join(", ")}${meant ? ` (did you mean ${meant}? Kinds are case-sensitive and singular)` : ""}: Karpenter resolves a scalableRef only to these kinds and fails any other with "unsupported kind", so the buffer is never ready and keeps no capacity (${RESOLVE_SOURCE}). For another workload, give its pod shape as a PodTemplate in podTemplateRef`,
    );
  });
}

/**
 * The resources a buffer's `limits` count: the resources its chunks (pods) request, so `pods` and `nodes` (which
 * a NodePool limit counts) are not among them (CapacityBuffer CRD: "resource constraints that limit the number of
 * chunks created for this buffer based on total resource requests (e.g., CPU, memory)").
 */
const BUFFER_LIMIT_RESOURCES = ["cpu", "memory", "ephemeral-storage"];

/**
 * Warnings for `limits` keys that name no resource a pod requests (`cpus`, `memroy`), with the NodePool's
 * did-you-mean (node-pool-rules.ts unknownLimitResources), and extended resources no AWS instance type advertises
 * (`nvidia.com/gpus`: misspeltExtendedResources): no chunk requests such a resource, so the limit never
 * counts anything. A warning, as for the NodePool: the CRD takes any key.
 */
function bufferLimitsWarnings(c: Checker, name: string, limits: CapacityBufferOptions["limits"]): string[] {
  if (!isSet(limits) || typeof limits !== "object" || Array.isArray(limits) || c.token(limits)) return [];
  const keys = Object.keys(limits).filter((k) => k !== "" && c.known(k));
  const unknown = unknownLimitResources(keys, BUFFER_LIMIT_RESOURCES).map(
    ({ key, meant }) =>
      `CapacityBuffer ${name}: ${entry("limits", key)} names no resource a pod requests${meant ? ` (${meant})` : ""}: the buffer counts its chunks' resource requests against its limits, and no chunk requests this one, so this limit never limits the buffer. Limits count ${BUFFER_LIMIT_RESOURCES.join(", ")}, hugepages-<size> and extended resources with a "/" such as nvidia.com/gpu (CapacityBuffer CRD: limits "based on total resource requests (e.g., CPU, memory)").`,
  );
  const extended = misspeltExtendedResources(keys).map(
    ({ key, meant }) =>
      `CapacityBuffer ${name}: ${entry("limits", key)} names no resource Karpenter's AWS instance types advertise (${meant}): a chunk whose pods request it could run on no node Karpenter launches, so no chunk of a working buffer requests it and this limit never limits the buffer. The extended resources they advertise are ${AWS_EXTENDED_RESOURCES.map((r) => r.name).join(", ")} (aws/karpenter-provider-aws pkg/providers/instancetype/types.go).`,
  );
  return [...unknown, ...extended];
}
