import { lookupTable } from "../core/lookup";
import {
  Budget,
  Disruption,
  NodeClassReference,
  NodePoolOptions,
  NodeSelectorRequirement,
  Taint,
} from "./node-pool-spec";
import { isPlainObject } from "../core/deep-merge";
import { typeName } from "../core/errors";
import { KarpenterVersion } from "../versions/karpenter-version";
import {
  Checker,
  cronProblem,
  entry,
  impossibleDate,
  isLabelValue,
  isSet,
  labelDomain,
  parseQuantity,
  qualifiedNameProblem,
  suggestion,
  BUDGET_DURATION,
  DURATION,
  DURATION_OR_NEVER,
  DURATION_TEXT,
  INT64_MAX,
} from "../kubernetes/value-rules";
import { AWS_EXTENDED_RESOURCES, describeExtendedResources, meantExtendedResources } from "./extended-resources";
import { CAPACITY_TYPES_SINCE, KNOWN_VALUES_SOURCE, minValuesKnownProblem } from "./runtime-label-rules";
import { celLists, crdEnumValues, crdEnumValueSince, crdFieldSince, crdKnown } from "../versions";
import { crdChildren } from "../kubernetes/crd-checks";

/*
 * Every rule of the karpenter.sh/v1 NodePool CRD (v1.0 … v1.14) that needs no cluster state:
 * OpenAPI types, enums, patterns, lengths and item counts, and each x-kubernetes-validations CEL
 * rule except the transition rules (those comparing with oldSelf). Where a CRD rule is looser
 * than what Karpenter or the API server accepts later (label keys and values copied into a
 * NodeClaim's metadata, cron schedules, values of Exists), the stricter rule is checked and says so.
 */

/** The label key that decides spot / on-demand / reserved capacity. */
export const CAPACITY_TYPE = "karpenter.sh/capacity-type";

/*
 * Enum values and the keys of each object: every known release's NodePool CRD together (generated, lib/versions/data
 * CRD_KNOWN), in the CRD's order; a value or field newer than the object's release is refused by its `since` check.
 */
const OPERATORS = crdEnumValues("nodePool", "spec.template.spec.requirements[].operator");
const NUMERIC_OPERATORS = ["Gt", "Lt", "Gte", "Lte"];
const EFFECTS = crdEnumValues("nodePool", "spec.template.spec.taints[].effect");
const POLICIES = crdEnumValues("nodePool", "spec.disruption.consolidationPolicy");
const REASONS = crdEnumValues("nodePool", "spec.disruption.budgets[].reasons[]");
const fieldsOf = (crdPath: string): readonly string[] => crdChildren(crdKnown("nodePool"), crdPath);
const REQUIREMENT_FIELDS = fieldsOf("spec.template.spec.requirements[]");
const TAINT_FIELDS = fieldsOf("spec.template.spec.taints[]");
const DISRUPTION_FIELDS = fieldsOf("spec.disruption");
const BUDGET_FIELDS = fieldsOf("spec.disruption.budgets[]");
/**
 * Where each prop of NodePoolOptions goes in a NodePool (its path; spec paths as the CRD's): the props flatten
 * `spec.template.spec` and `spec.template.metadata` into one level beside `spec`'s own fields. Wiring, not a fact:
 * the known props are its keys, in this order, and test/nodes/spec-fields.test.ts holds its CRD paths to every known
 * release's CRD (the construct's `nodeClass` prop is `spec.template.spec.nodeClassRef`).
 */
export const NODE_POOL_PROP_PATHS: { readonly [prop: string]: string } = lookupTable({
  name: "metadata.name",
  requirements: "spec.template.spec.requirements",
  labels: "spec.template.metadata.labels",
  annotations: "spec.template.metadata.annotations",
  taints: "spec.template.spec.taints",
  startupTaints: "spec.template.spec.startupTaints",
  expireAfter: "spec.template.spec.expireAfter",
  terminationGracePeriod: "spec.template.spec.terminationGracePeriod",
  limits: "spec.limits",
  disruption: "spec.disruption",
  weight: "spec.weight",
  replicas: "spec.replicas",
});
/** The fields of a nodeClassRef (the NodePool's `nodeClass` prop, when it is a reference). */
export const NODE_CLASS_REF_FIELDS = fieldsOf("spec.template.spec.nodeClassRef");
/** The taint key / value pattern of the CRD (a qualified name). */
const TAINT_PART =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\/))?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
/** RFC 3339 date-time (OpenAPI `format: date-time`). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const BUDGET_NODES = /^((100|[0-9]{1,2})%|[0-9]+)$/;
/** The API server's limit on the total size of an object's annotations (k8s ObjectMeta). */
const ANNOTATIONS_MAX_BYTES = 256 * 1024;

/**
 * Why a label key may not be used in NodePool labels or requirements for version `v` (the
 * CRD's "label domain … is restricted" rules), or undefined when it may.
 */
export function restrictedLabelProblem(key: string, v: KarpenterVersion): string | undefined {
  const domain = labelDomain(key);
  if (key === "karpenter.sh/nodepool")
    return "label \"karpenter.sh/nodepool\" is restricted: Karpenter sets it on every node to the NodePool's name (NodePool CRD). To select this pool's nodes, use a nodeSelector karpenter.sh/nodepool: <name> on the pods";
  if (key === "kubernetes.io/hostname") {
    return 'label "kubernetes.io/hostname" is restricted: each node gets its own name there, so a NodePool cannot choose it (NodePool CRD). To spread pods over nodes, give the workloads topologySpreadConstraints or pod anti-affinity with topologyKey kubernetes.io/hostname; to place a pod on one node, use a nodeSelector on the pod';
  }
  // the CRD's rules test endsWith: a domain that merely ends in those letters (fookarpenter.sh) is refused too, so the
  // message names the user's domain (fresh tester 22 CF-2)
  const endsIn = (restricted: string) =>
    domain === restricted
      ? `label domain "${restricted}"`
      : `label domain "${domain}", which ends in "${restricted}" (the CRD's rule tests endsWith("${restricted}"), so every domain ending in those letters counts),`;
  if (domain.endsWith("karpenter.sh") && key !== CAPACITY_TYPE)
    return `${endsIn("karpenter.sh")} is restricted: of its keys only ${CAPACITY_TYPE} may be used`;
  if (domain.endsWith("karpenter.k8s.aws")) {
    const since = celLists().awsLabelKeys[key];
    if (since === undefined)
      return `${endsIn("karpenter.k8s.aws")} is restricted to the well-known keys Karpenter defines (e.g. karpenter.k8s.aws/instance-category, instance-family, instance-generation, instance-size, instance-cpu, instance-memory)`;
    if (!v.atLeast(since))
      return `label "${key}" is restricted before Karpenter ${since} (this object targets ${v.full})`;
  }
  const { allowedKeys, restrictedUntil } = celLists().k8sDomain;
  if (!v.atLeast(restrictedUntil)) {
    const k8sOpen =
      allowedKeys.includes(key) ||
      domain.endsWith("node.kubernetes.io") ||
      domain.endsWith("node-restriction.kubernetes.io");
    if (domain.endsWith("kubernetes.io") && !k8sOpen)
      return `label domain "kubernetes.io" is restricted before Karpenter ${restrictedUntil} (allowed: ${allowedKeys.join(", ")}, *.node.kubernetes.io, *.node-restriction.kubernetes.io; this object targets ${v.full})`;
    if (domain.endsWith("k8s.io") && !domain.endsWith("kops.k8s.io"))
      return `label domain "k8s.io" is restricted before Karpenter ${restrictedUntil} (except kops.k8s.io; this object targets ${v.full})`;
  }
  return undefined;
}

/** The one node class Karpenter's AWS provider offers (its cloud provider's GetSupportedNodeClasses). */
const NODE_CLASS_GROUP = "karpenter.k8s.aws";
const NODE_CLASS_KIND = "EC2NodeClass";
/**
 * Why a nodeClassRef must name EC2NodeClass. The NodePool CRD only requires group and kind to be
 * non-empty, but Karpenter manages a NodePool only when the group and kind of its nodeClassRef are
 * those of a node class its cloud provider supports (kubernetes-sigs/karpenter
 * pkg/utils/nodepool/nodepool.go, IsManaged); any other pool is ignored and launches no node.
 */
const ONLY_EC2_NODE_CLASS = `Karpenter on AWS provides one node class, ${NODE_CLASS_GROUP} ${NODE_CLASS_KIND}, and ignores a NodePool whose nodeClassRef names another group or kind (kubernetes-sigs/karpenter pkg/utils/nodepool, IsManaged: the NodePool CRD accepts any non-empty value, but such a pool never launches a node)`;

/** `; group and kind are case-sensitive` when `value` is `wanted` in another case. */
function caseHint(value: unknown, wanted: string): string {
  return typeof value === "string" && value !== wanted && value.toLowerCase() === wanted.toLowerCase()
    ? ` (group and kind are case-sensitive: write "${wanted}")`
    : "";
}

/** The nodeClassRef the NodePool emits (group and kind filled in). */
export type NodeClassRefValue = Required<NodeClassReference>;

/**
 * Checks NodePool props (with `requirements` already including the capacity-type default) for
 * Karpenter version `v`. A throwing checker stops at the first problem; a collecting one
 * records one problem per independent field, list item and map entry.
 * @param nodeClassField the prop path of the node class (for errors)
 */
export function checkNodePool(
  c: Checker,
  v: KarpenterVersion,
  p: NodePoolOptions,
  name: string,
  ref: NodeClassRefValue,
  nodeClassField = "nodeClass",
): void {
  c.guard(() => c.dnsName("name", name));
  c.guard(() => {
    if (!isSet(ref.name))
      c.fail("NODEPOOL_NODE_CLASS_REF", `${nodeClassField}.name`, ref.name, "the name of the EC2NodeClass (required)");
    c.str(`${nodeClassField}.name`, ref.name, { nonEmpty: true });
    c.dnsName(`${nodeClassField}.name`, ref.name);
  });
  c.guard(() => {
    c.str(`${nodeClassField}.group`, ref.group, { nonEmpty: true });
    c.pattern(`${nodeClassField}.group`, ref.group, /^[^/]*$/, "an API group without '/' (e.g. karpenter.k8s.aws)");
    if (c.known(ref.group) && ref.group !== NODE_CLASS_GROUP)
      c.fail(
        "NODEPOOL_NODE_CLASS_REF",
        `${nodeClassField}.group`,
        ref.group,
        `"${NODE_CLASS_GROUP}" (or unset)${caseHint(ref.group, NODE_CLASS_GROUP)}: ${ONLY_EC2_NODE_CLASS}`,
      );
  });
  c.guard(() => {
    c.str(`${nodeClassField}.kind`, ref.kind, { nonEmpty: true });
    if (c.known(ref.kind) && ref.kind !== NODE_CLASS_KIND)
      c.fail(
        "NODEPOOL_NODE_CLASS_REF",
        `${nodeClassField}.kind`,
        ref.kind,
        `"${NODE_CLASS_KIND}" (or unset)${caseHint(ref.kind, NODE_CLASS_KIND)}: ${ONLY_EC2_NODE_CLASS}`,
      );
  });

  checkRequirements(c, v, p.requirements);
  checkLabels(c, v, p.labels);
  checkAnnotations(c, p.annotations);
  checkTaints(c, p.taints, p.startupTaints);
  c.guard(() => c.duration("expireAfter", p.expireAfter, DURATION_OR_NEVER, DURATION_TEXT));
  c.guard(() =>
    c.duration(
      "terminationGracePeriod",
      p.terminationGracePeriod,
      DURATION,
      'a duration of hours, minutes and seconds such as "30s", "48h" or "1h30m" ("Never" is not allowed: leave it unset to wait indefinitely)',
    ),
  );
  checkLimits(c, p.limits);
  checkDisruption(c, p.disruption);
  c.guard(() => c.int("weight", p.weight, 1, 100));

  const replicasValid = c.guard(() => {
    c.since("replicas", p.replicas, crdFieldSince("nodePool", "spec.replicas")!, "replicas (static NodePools)");
    c.int("replicas", p.replicas, 0, Infinity);
  });
  if (!replicasValid || !isSet(p.replicas)) return;
  c.guard(() => {
    if (isSet(p.weight))
      c.fail(
        "NODEPOOL_STATIC",
        "weight",
        p.weight,
        `unset on a static NodePool (replicas is set): weight ranks NodePools for provisioning, and a static one keeps a fixed number of nodes (NodePool CRD: "'weight' is not supported on static NodePools")`,
      );
  });
  c.guard(() => {
    const keys = p.limits && !c.token(p.limits) && typeof p.limits === "object" ? Object.keys(p.limits) : [];
    const other = keys.find((k) => c.known(k) && k !== "nodes");
    if (other !== undefined)
      c.fail(
        "NODEPOOL_STATIC",
        entry("limits", other),
        p.limits![other],
        `unset on a static NodePool (replicas is set): its only limit is limits["nodes"] (NodePool CRD: "only 'limits.nodes' is supported on static NodePools")`,
      );
  });
}

function checkRequirements(c: Checker, v: KarpenterVersion, reqs: NodeSelectorRequirement[] | undefined): void {
  let list: NodeSelectorRequirement[] | undefined;
  c.guard(() => {
    list = c.list("requirements", reqs, 0, 100);
  });
  list?.forEach((r, i) => checkRequirement(c, v, `requirements[${i}]`, r));
}

/** Operators whose CRD rule reads `values` (`x.values.size()`): the API server fails on a requirement without it. */
const OPERATORS_NEEDING_VALUES = ["In", ...NUMERIC_OPERATORS];

/** One requirement: its key, operator, minValues and values are checked apart; value rules that read the operator run once it is valid. */
function checkRequirement(c: Checker, v: KarpenterVersion, at: string, r: NodeSelectorRequirement): void {
  if (c.token(r)) return;
  if (
    !c.guard(() => c.fields(at, r, REQUIREMENT_FIELDS, "a requirement")) &&
    (typeof r !== "object" || Array.isArray(r))
  )
    return;
  c.guard(() => {
    if (!isSet(r.key)) c.fail("NODEPOOL_REQUIREMENT_KEY", `${at}.key`, r.key, "a label key (required)");
    c.str(`${at}.key`, r.key, { maxLength: 316 });
    c.qualifiedName(`${at}.key`, r.key, "label key");
    if (c.known(r.key)) {
      const problem = restrictedLabelProblem(r.key, v);
      if (problem) c.fail("NODEPOOL_REQUIREMENT_KEY", `${at}.key`, r.key, problem);
    }
  });
  const operatorValid = c.guard(() => {
    if (!isSet(r.operator))
      c.fail(
        "NODEPOOL_REQUIREMENT_OPERATOR",
        `${at}.operator`,
        r.operator,
        `one of ${OPERATORS.join(", ")} (required)`,
      );
    c.oneOf(`${at}.operator`, r.operator, OPERATORS);
    if (c.known(r.operator)) {
      const since = crdEnumValueSince("nodePool", "spec.template.spec.requirements[].operator", r.operator);
      if (since) c.since(`${at}.operator`, r.operator, since, `operator ${r.operator}`);
    }
  });
  const minValuesValid = c.guard(() => c.int(`${at}.minValues`, r.minValues, 1, 50));
  let values: string[] | undefined;
  const valuesListed = c.guard(() => {
    values = c.list(`${at}.values`, r.values, 0, Infinity);
  });
  if (!valuesListed) return;
  const op = operatorValid && c.known(r.operator) ? r.operator : undefined;
  // a numeric operator's value has its own rule below (digits are a label value): "-1" is told it is no integer.
  // "+3" passes the CRD's int() but not Karpenter's runtime label-value check: that one is told it is no label value
  values?.forEach((x, j) => {
    if (!op || !NUMERIC_OPERATORS.includes(op) || (typeof x === "string" && /^\+\d+$/.test(x)))
      c.guard(() => c.labelValue(`${at}.values[${j}]`, x));
  });
  if (!op) return;
  c.guard(() => {
    if (OPERATORS_NEEDING_VALUES.includes(op) && !isSet(r.values)) {
      const need =
        op === "In" ? "at least one value" : 'exactly one value, a non-negative integer as a string (e.g. ["5"])';
      c.fail(
        "NODEPOOL_REQUIREMENT_VALUES",
        `${at}.values`,
        r.values,
        `${need}: operator '${op}' needs values (the NodePool CRD rules read them, and the API server fails on a requirement without)`,
      );
    }
    if (!values) return;
    if (NUMERIC_OPERATORS.includes(op)) {
      const rule = `exactly one value, a non-negative integer, for operator '${op}' (NodePool CRD: "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value")`;
      if (values.length !== 1)
        c.fail("NODEPOOL_REQUIREMENT_VALUES", `${at}.values`, values, `${rule}; ${values.length} given`);
      if (c.known(values[0]) && !isInt64(values[0]))
        c.fail(
          "NODEPOOL_REQUIREMENT_VALUES",
          `${at}.values[0]`,
          values[0],
          `${rule}, written as a string of digits (e.g. "5") no larger than ${INT64_MAX} (the CRD's int())`,
        );
    }
    if (op === "In" && values.length === 0)
      c.fail(
        "NODEPOOL_REQUIREMENT_VALUES",
        `${at}.values`,
        values,
        `at least one value: operator 'In' with no values matches nothing (NodePool CRD: "requirements with operator 'In' must have a value defined")`,
      );
    if ((op === "Exists" || op === "DoesNotExist") && values.length > 0)
      c.fail(
        "NODEPOOL_REQUIREMENT_VALUES",
        `${at}.values`,
        values,
        `no values: operator '${op}' takes none (NodePool CRD: "If the operator is Exists or DoesNotExist, the values array must be empty")`,
      );
  });
  const list = values;
  if (!list) return;
  c.guard(() => {
    if (minValuesValid && op === "In" && c.known(r.minValues) && list.length < r.minValues) {
      c.fail(
        "NODEPOOL_MIN_VALUES",
        `${at}.minValues`,
        r.minValues,
        `at most the number of values (${list.length} given): minValues ${r.minValues} asks for more distinct values than the requirement lists (NodePool CRD: "requirements with 'minValues' must have at least that many values specified in the 'values' field")`,
      );
    }
  });
  if (r.key === CAPACITY_TYPE && (op === "In" || op === "NotIn")) {
    // Karpenter drops the values it does not know and goes on with the others (KNOWN_VALUES_SOURCE): an unknown value is
    // an error only when no value of the requirement is known (In matches no capacity, and Karpenter refuses the pool;
    // NotIn excludes nothing); beside a known one it is a synth warning (requirementValueWarnings)
    const isUnknown = (x: unknown) => c.known(x) && typeof x === "string" && CAPACITY_TYPES_SINCE[x] === undefined;
    const noneKnown = list.every(isUnknown);
    list.forEach((x, j) =>
      c.guard(() => {
        if (!c.known(x)) return;
        const since = CAPACITY_TYPES_SINCE[x];
        if (since === undefined) {
          if (noneKnown)
            c.fail(
              "NODEPOOL_CAPACITY_TYPE",
              `${at}.values[${j}]`,
              x,
              `a capacity type: ${Object.keys(CAPACITY_TYPES_SINCE)
                .map((t) => JSON.stringify(t))
                .join(", ")} (any other value matches no capacity${
                op === "In"
                  ? `, and no value of this requirement is one, so Karpenter refuses the NodePool: "no valid values found", ${KNOWN_VALUES_SOURCE}`
                  : ", and no value of this requirement is one, so it excludes nothing"
              })`,
            );
          return;
        }
        c.since(
          `${at}.values[${j}]`,
          x,
          since,
          `capacity type "${x}"`,
          `first in Karpenter ${since}.0, which added capacity reservations`,
        );
      }),
    );
    const min = r.minValues;
    if (
      op === "In" &&
      !noneKnown &&
      minValuesValid &&
      c.known(min) &&
      list.length >= min &&
      list.every((x) => c.known(x))
    ) {
      const known = [...new Set(list.filter((x) => !isUnknown(x)))];
      if (known.length < min)
        c.guard(() =>
          c.fail(
            "NODEPOOL_MIN_VALUES_KNOWN",
            `${at}.minValues`,
            min,
            minValuesKnownProblem(CAPACITY_TYPE, min, known, list.filter(isUnknown)),
          ),
        );
    }
  }
}

/** A non-negative integer string that fits in int64 (what the CRD's `int(x.values[0]) >= 0` accepts, in label-value spelling). */
function isInt64(x: string): boolean {
  return typeof x === "string" && /^[0-9]+$/.test(x) && BigInt(x) <= INT64_MAX;
}

function checkLabels(c: Checker, v: KarpenterVersion, labels: { [k: string]: string } | undefined): void {
  let entries: [string, string][] = [];
  c.guard(() => {
    entries = c.map("labels", labels, 100);
  });
  for (const [k, val] of entries) {
    const field = entry("labels", k);
    // a key that is wrong is the entry's problem; its value is judged once the key is good
    c.guard(() => {
      const malformed = c.known(k) ? qualifiedNameProblem(k) : undefined;
      if (malformed)
        c.failKey(
          "NODEPOOL_LABEL_KEY",
          "labels",
          k,
          val,
          `is not a Kubernetes qualified label key "[prefix/]name": ${malformed}`,
        );
      const problem = c.known(k) ? restrictedLabelProblem(k, v) : undefined;
      if (problem) c.failKey("NODEPOOL_LABEL_KEY", "labels", k, val, `may not be used in NodePool labels: ${problem}`);
      c.labelValue(field, val);
      if (k === CAPACITY_TYPE && c.known(val) && CAPACITY_TYPES_SINCE[val] === undefined)
        c.fail(
          "NODEPOOL_CAPACITY_TYPE",
          field,
          val,
          `a capacity type: ${Object.keys(CAPACITY_TYPES_SINCE).join(", ")}`,
        );
      else if (k === CAPACITY_TYPE && typeof val === "string" && c.known(val))
        c.since(
          field,
          val,
          CAPACITY_TYPES_SINCE[val],
          `capacity type "${val}"`,
          `first in Karpenter ${CAPACITY_TYPES_SINCE[val]}.0, which added capacity reservations`,
        );
    });
  }
}

function checkAnnotations(c: Checker, annotations: { [k: string]: string } | undefined): void {
  let entries: [string, string][] = [];
  c.guard(() => {
    entries = c.map("annotations", annotations);
  });
  let bytes = 0;
  for (const [k, val] of entries) {
    c.guard(() => {
      const malformed = c.known(k) ? qualifiedNameProblem(k) : undefined;
      if (malformed)
        c.failKey(
          "NODEPOOL_ANNOTATION_KEY",
          "annotations",
          k,
          val,
          `is not a Kubernetes qualified annotation key "[prefix/]name": ${malformed}`,
        );
    });
    bytes += Buffer.byteLength(k) + (typeof val === "string" ? Buffer.byteLength(val) : 0);
  }
  c.guard(() => {
    if (bytes > ANNOTATIONS_MAX_BYTES)
      c.fail(
        "NODEPOOL_ANNOTATIONS_SIZE",
        "annotations",
        `${bytes} bytes`,
        `at most ${ANNOTATIONS_MAX_BYTES} bytes of keys and values in total (Kubernetes object metadata limit)`,
      );
  });
}

/** `taints` and `startupTaints`; a key/effect pair may appear once across both (Karpenter's NodePool runtime validation). */
function checkTaints(c: Checker, taints: Taint[] | undefined, startupTaints: Taint[] | undefined): void {
  const seen = new Map<string, string>();
  for (const [field, value] of [
    ["taints", taints],
    ["startupTaints", startupTaints],
  ] as const) {
    let list: Taint[] | undefined;
    c.guard(() => {
      list = c.list(field, value, 0, Infinity);
    });
    list?.forEach((t, i) => checkTaint(c, `${field}[${i}]`, t, seen));
  }
}

/**
 * The taints Karpenter sets and removes itself (sigs.k8s.io/karpenter v1.15.0 pkg/apis/v1/taints.go:27-29), with what
 * it does to a node that carries one (fresh tester 23 S-2).
 */
const KARPENTER_TAINTS: { readonly [key: string]: string } = {
  "karpenter.sh/disrupted":
    "Karpenter puts it on the nodes it disrupts, removes it from every node not in its disruption queue (pkg/controllers/disruption/controller.go:156-163) and takes a node carrying it for one being disrupted (pkg/controllers/provisioning/controller.go:111-123)",
  "karpenter.sh/unregistered":
    "Karpenter registers every node with it and removes it once the node registers (pkg/controllers/nodeclaim/lifecycle/registration.go:97-102)",
  "karpenter.sh/rebooting":
    "Karpenter puts it on a node while it reboots the node and fences scheduling by it (pkg/controllers/nodeclaim/reboot/controller.go:396-400, pkg/controllers/state/statenode.go:426)",
};

/** One taint: key, value, effect and timeAdded apart; the duplicate check once key and effect are valid. */
function checkTaint(c: Checker, at: string, t: Taint, seen: Map<string, string>): void {
  if (c.token(t)) return;
  if (!c.guard(() => c.fields(at, t, TAINT_FIELDS, "a taint")) && (typeof t !== "object" || Array.isArray(t))) return;
  const keyValid = c.guard(() => {
    if (!isSet(t.key)) c.fail("NODEPOOL_TAINT", `${at}.key`, t.key, "a taint key (required)");
    c.str(`${at}.key`, t.key, { nonEmpty: true });
    c.pattern(
      `${at}.key`,
      t.key,
      TAINT_PART,
      "a taint key: a qualified name [prefix/]name, letters, digits, '-', '_', '.', starting and ending with a letter or digit",
    );
    c.qualifiedName(`${at}.key`, t.key, "taint key");
    // own keys only: a key named like Object's properties ("constructor") is a plain string
    const owned =
      typeof t.key === "string" && Object.prototype.hasOwnProperty.call(KARPENTER_TAINTS, t.key)
        ? KARPENTER_TAINTS[t.key]
        : undefined;
    if (owned !== undefined)
      c.fail(
        "NODEPOOL_TAINT",
        `${at}.key`,
        t.key,
        `a taint key of your own: ${t.key} is Karpenter's own taint (sigs.k8s.io/karpenter v1.15.0 pkg/apis/v1/taints.go:27-29): ${owned}, so the NodePool's taint does not stay on its nodes`,
      );
  });
  c.guard(() =>
    c.pattern(
      `${at}.value`,
      t.value,
      TAINT_PART,
      "a taint value matching the CRD pattern: letters, digits, '-', '_', '.', starting and ending with a letter or digit (leave it unset for no value)",
    ),
  );
  c.guard(() => checkTaintValueAsLabelValue(c, `${at}.value`, t.value));
  const effectValid = c.guard(() => {
    if (!isSet(t.effect)) c.fail("NODEPOOL_TAINT", `${at}.effect`, t.effect, `one of ${EFFECTS.join(", ")} (required)`);
    c.oneOf(`${at}.effect`, t.effect, EFFECTS);
  });
  c.guard(() => {
    c.pattern(`${at}.timeAdded`, t.timeAdded, DATE_TIME, "an RFC 3339 date-time such as 2025-01-01T00:00:00Z");
    const wrong = typeof t.timeAdded === "string" && c.known(t.timeAdded) ? impossibleDateTime(t.timeAdded) : undefined;
    if (wrong)
      c.fail(
        "NODEPOOL_FORMAT",
        `${at}.timeAdded`,
        t.timeAdded,
        `an RFC 3339 date-time such as 2025-01-01T00:00:00Z that exists: ${wrong} (the CRD's format: date-time, which the API server parses as a time)`,
      );
  });
  if (!keyValid || !effectValid || !c.known(t.key) || !c.known(t.effect)) return;
  c.guard(() => {
    const pair = `${t.key}:${t.effect}`;
    const first = seen.get(pair);
    if (first !== undefined)
      c.fail(
        "NODEPOOL_TAINT",
        at,
        t,
        `a taint whose key and effect no other taint or startup taint has: ${first} is ${t.key}:${t.effect} too (Karpenter rejects the NodePool: "duplicate taint Key/Effect pair")`,
      );
    seen.set(pair, at);
  });
}

/**
 * What makes a date-time of {@link DATE_TIME}'s shape no real time (month 13, February 30, hour 24, minute
 * 60, second 60), or undefined. The API server validates `format: date-time` by parsing it (kube-openapi
 * strfmt ParseDateTime, Go time.Parse with RFC 3339 layouts), which refuses each of these.
 */
function impossibleDateTime(text: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})/.exec(text);
  if (!m) return undefined;
  const date = impossibleDate(`${m[1]}${m[2]}${m[3]}`);
  if (date) return date;
  if (Number(m[4]) > 23) return `hour ${m[4]}, and hours run from 00 to 23`;
  if (Number(m[5]) > 59) return `minute ${m[5]}, and minutes run from 00 to 59`;
  if (Number(m[6]) > 59) return `second ${m[6]}, and seconds run from 00 to 59`;
  return undefined;
}

/**
 * A taint value the CRD pattern takes but a Node cannot carry. The NodePool CRD's pattern has no length
 * and allows a `prefix/` part; Kubernetes validates a Node's taint value as a label value (k8s.io/kubernetes
 * pkg/apis/core/validation validateNodeTaints: `validation.IsValidLabelValue(currTaint.Value)`, at most 63
 * characters of letters, digits, '-', '_', '.', no '/'), so Karpenter's NodeClaim never becomes a Node
 * with the taint. A value the pattern refuses is the pattern check's to report.
 */
function checkTaintValueAsLabelValue(c: Checker, field: string, value: unknown): void {
  if (!c.known(value) || typeof value !== "string" || !TAINT_PART.test(value) || isLabelValue(value)) return;
  const why = [...value].length > 63 ? `it is ${[...value].length} characters long` : "it holds a '/'";
  c.fail(
    "NODEPOOL_TAINT_VALUE",
    field,
    value,
    `a taint value of at most 63 characters, letters, digits, '-', '_' and '.', starting and ending with a letter or digit: the Node API validates a taint value as a label value (Kubernetes core validation of Node taints, IsValidLabelValue) and ${why}, so no node can carry this taint though the NodePool CRD's pattern takes it`,
  );
}

/**
 * `limits`: resource name → a non-negative quantity written as a string. A number (from JavaScript,
 * or code written when the prop took numbers) is refused with the string to write, so the prop has
 * one shape in every language and the manifest carries what was written.
 */
function checkLimits(c: Checker, limits: { [resource: string]: string } | undefined): void {
  if (!isSet(limits) || c.token(limits)) return;
  if (typeof limits !== "object" || Array.isArray(limits) || !isPlainObject(limits)) {
    // a Map (or another class instance) has no own entries: its JSON is `{}`, so the limits would be dropped
    const got = typeof limits === "object" && !Array.isArray(limits) ? `, got ${typeName(limits)}` : "";
    c.guard(() =>
      c.fail(
        "NODEPOOL_LIMITS",
        "limits",
        limits,
        `a ${got ? "plain object" : "map"} of resource names to quantities as strings, e.g. { cpu: "100", memory: "400Gi" }${got}`,
      ),
    );
    return;
  }
  for (const [res, q] of Object.entries(limits).filter(([, x]) => isSet(x))) {
    c.guard(() => {
      const at = entry("limits", res);
      if (res.length === 0)
        c.failKey("NODEPOOL_LIMITS", "limits", res, q, "is empty: the keys of limits are resource names");
      const value: unknown = q;
      if (typeof value === "number" && c.known(value)) {
        const shapes = 'limits values are strings such as "100", "1000Gi", "500m"';
        if (!Number.isFinite(value) || value < 0)
          c.fail(
            "NODEPOOL_LIMITS",
            at,
            value,
            `a non-negative Kubernetes quantity as a string, got the number ${value} (${shapes})`,
          );
        c.fail(
          "NODEPOOL_LIMITS",
          at,
          value,
          `a Kubernetes quantity as a string, got a number: write ${JSON.stringify(String(value))}, not ${value} (${shapes})`,
        );
      }
      c.quantity(at, q);
    });
  }
}

/**
 * The resource names a NodePool limit can count: the node resources Karpenter sums over the pool's
 * nodes (cpu, memory, ephemeral-storage, pods), `nodes` (the node count: static NodePools), huge
 * pages (`hugepages-<size>`) and extended resources (a name with a `/`, e.g. `nvidia.com/gpu`).
 */
const LIMIT_RESOURCES = ["cpu", "memory", "ephemeral-storage", "pods", "nodes"];

/**
 * A huge-page resource as the kubelet names it: `hugepages-<page size>`, the size a binary quantity
 * (`hugepages-2Mi`, `hugepages-1Gi`; Kubernetes docs, "Manage HugePages"). `hugepages-2mi` or
 * `hugepages-2M` is a resource no node has.
 */
const HUGE_PAGES = /^hugepages-[1-9]\d*(Ki|Mi|Gi)$/;
const HUGE_PAGES_MEANT =
  "did you mean hugepages-2Mi or hugepages-1Gi? Huge-page resources are hugepages-<page size>, the size a binary quantity: 2Mi and 1Gi on x86_64, also 64Ki and 32Mi on arm64 (Kubernetes docs, Manage HugePages)";

/**
 * A resource name in the `kubernetes.io/` namespace: Kubernetes reads it as a native resource, never an extended
 * one (kubernetes pkg/apis/core/v1/helper IsNativeResource / IsPrefixedNativeResource: a name containing
 * "kubernetes.io/"; IsExtendedResourceName is false for it), and the native resources a node has carry no
 * prefix (cpu, memory, ephemeral-storage, pods, hugepages-<size>), so no node has `kubernetes.io/batteries`.
 */
const nativePrefixed = (k: string): boolean => k.includes("kubernetes.io/");
const NATIVE_PREFIX_TEXT =
  "a name in the kubernetes.io/ namespace is no extended resource (Kubernetes reserves it for its own resources, IsExtendedResourceName), and the node resources Kubernetes names carry no prefix";

/**
 * Warnings for `limits` keys that name no resource a node has (e.g. `cpus`): Karpenter compares each
 * limit with the sum of that resource over the pool's nodes, and a resource no node has sums to
 * zero, so the limit is never reached and limits nothing (Karpenter docs, NodePools "spec.limits").
 * A warning, not an error: the CRD accepts any key. With a "did you mean" when one is close.
 */
export function limitsWarnings(
  c: Checker,
  name: string,
  limits: { readonly [resource: string]: string } | undefined,
): string[] {
  if (!isSet(limits) || typeof limits !== "object" || Array.isArray(limits) || c.token(limits)) return [];
  const keys = Object.keys(limits).filter((k) => k !== "" && isSet(limits[k]) && c.known(k));
  const unknownResources = unknownLimitResources(keys, LIMIT_RESOURCES).map(
    ({ key: k, meant: s }) =>
      `NodePool ${name}: ${entry("limits", k)} names no resource a node has${s ? ` (${s})` : ""}: Karpenter compares each limit with the sum of that resource over the pool's nodes, and a resource no node has sums to 0, so this limit is never reached and limits nothing. Limits count ${LIMIT_RESOURCES.join(", ")}, hugepages-<size> and extended resources with a "/" such as nvidia.com/gpu (Karpenter docs, NodePools "spec.limits").`,
  );
  return [...unknownResources, ...extendedResourceWarnings(name, keys), ...belowOneInstance(c, name, limits)];
}

/**
 * The keys of a `limits` map that are none of `resources`, no huge-page resource and no extended resource (no
 * "/"), each with a did-you-mean when one is close (`cpus`: cpu; `gpu`: the extended resources it may mean; a
 * misspelt huge-page name: the two page sizes). Shared by the NodePool's and the CapacityBuffer's limits.
 */
export function unknownLimitResources(
  keys: readonly string[],
  resources: readonly string[],
): { readonly key: string; readonly meant?: string }[] {
  return keys
    .filter((k) => !resources.includes(k) && (!k.includes("/") || nativePrefixed(k)) && !HUGE_PAGES.test(k))
    .map((k) => {
      if (nativePrefixed(k)) {
        const base = k.slice(k.lastIndexOf("/") + 1);
        const near = resources.includes(base) ? `did you mean ${base}? ` : "";
        return { key: k, meant: `${near}${NATIVE_PREFIX_TEXT}` };
      }
      // `gpu` is one edit from `cpu`, but an extended resource is what it means
      const meant = meantExtendedResources(k);
      const s =
        meant.length > 0
          ? `did you mean ${describeExtendedResources(meant)}?`
          : /^huge[-_]?pages?/i.test(k)
            ? HUGE_PAGES_MEANT
            : suggestion(k, resources);
      return { key: k, meant: s };
    });
}

/**
 * Warnings for `limits` keys with a "/" that look like an extended resource of Karpenter's AWS
 * instance types but are not (`nvidia.com/gpus`, `nvidia/gpu`): see extended-resources.ts.
 */
function extendedResourceWarnings(name: string, keys: readonly string[]): string[] {
  return misspeltExtendedResources(keys).map(
    ({ key: k, meant }) =>
      `NodePool ${name}: ${entry("limits", k)} names no resource Karpenter's AWS instance types advertise (${meant}): Karpenter compares each limit with the sum of that resource over the pool's instance types, and one no instance type has sums to 0, so this limit never stops the pool. The extended resources they advertise are ${AWS_EXTENDED_RESOURCES.map((r) => r.name).join(", ")} (aws/karpenter-provider-aws pkg/providers/instancetype/types.go).`,
  );
}

/**
 * The keys of a `limits` map with a "/" that look like an extended resource of Karpenter's AWS instance types but
 * are not (`nvidia.com/gpus`, `aws.amazon.com/neuroncores`), each with its did-you-mean: see extended-resources.ts.
 * Shared by the NodePool's and the CapacityBuffer's limits.
 */
export function misspeltExtendedResources(keys: readonly string[]): { readonly key: string; readonly meant: string }[] {
  return keys
    .filter((k) => k.includes("/") && !nativePrefixed(k))
    .flatMap((k) => {
      const meant = meantExtendedResources(k);
      return meant.length === 0 ? [] : [{ key: k, meant: `did you mean ${describeExtendedResources(meant)}?` }];
    });
}

/**
 * The smallest CPU and memory an EC2 instance type has (1 vCPU: t2.micro, a1.medium; 0.5 GiB: t3.nano,
 * t4g.nano; Amazon EC2 instance types). Karpenter launches only instance types that keep the pool within its
 * limits, so a limit above 0 but below these launches nothing, which is rarely what was meant: a bare
 * number of memory counts bytes, and "m" means thousandths. A limit of 0 stops a pool on purpose.
 */
const SMALLEST_INSTANCE: { readonly [resource: string]: { readonly value: number; readonly shown: string } } =
  lookupTable({
    cpu: { value: 1, shown: "1 vCPU" },
    memory: { value: 512 * 2 ** 20, shown: "0.5 GiB" },
  });

/**
 * Warnings for `cpu` / `memory` limits above 0 that no single instance fits under, and for a limit between 0 and 1 on
 * an extended resource of Karpenter's AWS instance types (`nvidia.com/gpu: "0.5"`): every instance type that has it
 * has whole devices, so none of them fits under the limit (Karpenter drops an instance type whose capacity of a
 * limited resource exceeds what remains: sigs.k8s.io/karpenter v1.15.0
 * pkg/controllers/provisioning/scheduling/scheduler.go:1098-1114, filterByRemainingResources).
 */
function belowOneInstance(c: Checker, name: string, limits: { readonly [resource: string]: string }): string[] {
  const devices = AWS_EXTENDED_RESOURCES.flatMap(({ name: resource, what }) => {
    const q = Object.prototype.hasOwnProperty.call(limits, resource) ? limits[resource] : undefined;
    if (!isSet(q) || !c.known(q)) return [];
    const n = typeof q === "string" ? parseQuantity(q) : undefined;
    if (n === undefined || !(n > 0) || n >= 1) return [];
    return [
      `NodePool ${name}: ${entry("limits", resource)} = ${JSON.stringify(q)} is ${n}, less than one of the ${what} an instance type has: Karpenter launches only instance types whose capacity keeps the pool within its limits (sigs.k8s.io/karpenter v1.15.0 pkg/controllers/provisioning/scheduling/scheduler.go:1098-1114), and each type with ${resource} has at least 1, so this pool launches only instance types without it. Did you mean "1"? A limit of 0 keeps them out on purpose (Karpenter docs, NodePools "spec.limits").`,
    ];
  });
  return [...devices, ...cpuMemoryBelowOneInstance(c, name, limits)];
}

/** {@link belowOneInstance} for `cpu` and `memory`: below the smallest EC2 instance's (SMALLEST_INSTANCE). */
function cpuMemoryBelowOneInstance(
  c: Checker,
  name: string,
  limits: { readonly [resource: string]: string },
): string[] {
  return Object.entries(SMALLEST_INSTANCE).flatMap(([resource, smallest]) => {
    const q = limits[resource];
    if (!isSet(q) || !c.known(q)) return [];
    const n = typeof q === "string" ? parseQuantity(q) : undefined;
    if (n === undefined || !(n > 0) || n >= smallest.value) return [];
    // the number read in a larger unit ("1Ki" → "1Gi", "500m" → "500"); when that is the value itself (a
    // fraction of a CPU without a suffix) or still below one instance, the smallest instance's amount
    const rewritten = resource === "memory" ? `${String(q).replace(/[a-zA-Z]+$/, "")}Gi` : String(q).replace(/m$/, "");
    const fits = rewritten !== q && (parseQuantity(rewritten) ?? 0) >= smallest.value;
    const meant = JSON.stringify(fits ? rewritten : resource === "memory" ? "1Gi" : "1");
    const reading =
      resource === "memory"
        ? `${n} bytes${/^[0-9.]+$/.test(String(q)) ? " (a quantity without a suffix counts bytes)" : ""}`
        : `${n} of a CPU${/m$/.test(String(q)) ? ' ("m" means thousandths)' : ""}`;
    return [
      `NodePool ${name}: ${entry("limits", resource)} = ${JSON.stringify(q)} is ${reading}, less than any instance type has (the smallest have ${smallest.shown}): Karpenter launches only instance types that keep the pool within its limits, so this pool launches no node. Did you mean ${meant}? A limit of 0 stops a pool on purpose (Karpenter docs, NodePools "spec.limits").`,
    ];
  });
}

function checkDisruption(c: Checker, d: Disruption | undefined): void {
  if (!isSet(d) || c.token(d)) return;
  c.guard(() => c.fields("disruption", d, DISRUPTION_FIELDS, "disruption"));
  if (typeof d !== "object") return;
  c.guard(() => {
    c.oneOf("disruption.consolidationPolicy", d.consolidationPolicy, POLICIES);
    if (c.known(d.consolidationPolicy)) {
      const since = crdEnumValueSince("nodePool", "spec.disruption.consolidationPolicy", d.consolidationPolicy);
      if (since)
        c.since(
          "disruption.consolidationPolicy",
          d.consolidationPolicy,
          since,
          `consolidationPolicy ${d.consolidationPolicy}`,
        );
    }
  });
  c.guard(() => c.duration("disruption.consolidateAfter", d.consolidateAfter, DURATION_OR_NEVER, DURATION_TEXT));
  let budgets: Budget[] | undefined;
  c.guard(() => {
    budgets = c.list("disruption.budgets", d.budgets, 0, 50);
    // the CRD's default (one budget of nodes: "10%") is applied only when the field is absent; an empty
    // list is kept, and Karpenter takes the least of no budgets, math.MaxInt32 (sigs.k8s.io/karpenter
    // NodePool.GetAllowedDisruptionsByReason): every node of the pool may be disrupted at once
    if (budgets?.length === 0) {
      c.fail(
        "NODEPOOL_BUDGETS_EMPTY",
        "disruption.budgets",
        budgets,
        'at least one budget, or leave budgets unset for Karpenter\'s default of one budget of nodes: "10%" (the NodePool CRD applies it only when the field is absent): an empty list limits nothing, so Karpenter may disrupt every node of the pool at once. To allow that on purpose, say so: [{ nodes: "100%" }]',
      );
    }
  });
  budgets?.forEach((b, i) => checkBudget(c, `disruption.budgets[${i}]`, b));
}

/** One budget: nodes, schedule, duration, their pairing and reasons apart. */
function checkBudget(c: Checker, at: string, b: Budget): void {
  if (c.token(b)) return;
  if (!c.guard(() => c.fields(at, b, BUDGET_FIELDS, "a budget")) && (typeof b !== "object" || Array.isArray(b))) return;
  c.guard(() =>
    c.pattern(
      `${at}.nodes`,
      b.nodes,
      BUDGET_NODES,
      'a node count ("5") or a percentage from "0%" to "100%", as a string',
    ),
  );
  c.guard(() => {
    if (!c.known(b.schedule)) return;
    const problem = cronProblem(b.schedule);
    if (problem)
      c.fail(
        "NODEPOOL_BUDGET_SCHEDULE",
        `${at}.schedule`,
        b.schedule,
        `a cron schedule in UTC ("0 9 * * mon-fri") or a macro (@daily, @weekly, …): ${problem}`,
      );
  });
  c.guard(() =>
    c.duration(
      `${at}.duration`,
      b.duration,
      BUDGET_DURATION,
      'hours and/or minutes such as "8h", "30m" or "1h30m" (no seconds: cron has minute resolution)',
    ),
  );
  c.guard(() => {
    if (isSet(b.schedule) !== isSet(b.duration)) {
      const [missing, given] = isSet(b.schedule) ? ["duration", "schedule"] : ["schedule", "duration"];
      c.fail(
        "NODEPOOL_BUDGET_SCHEDULE_DURATION",
        `${at}.${missing}`,
        undefined,
        `set together with ${given}: a budget with a schedule needs a duration (how long it applies from each start) and the other way round (NodePool CRD: "'schedule' must be set with 'duration'")`,
      );
    }
  });
  c.guard(() => {
    const reasons = c.list(`${at}.reasons`, b.reasons, 0, 50);
    reasons?.forEach((r, j) => {
      c.oneOf(`${at}.reasons[${j}]`, r, REASONS);
      const since = crdEnumValueSince("nodePool", "spec.disruption.budgets[].reasons[]", r);
      if (c.known(r) && since) c.since(`${at}.reasons[${j}]`, r, since, `disruption reason ${r}`);
      if (c.known(r) && reasons.indexOf(r) !== j)
        c.fail(
          "NODEPOOL_BUDGET_REASON_TWICE",
          `${at}.reasons[${j}]`,
          r,
          "each reason at most once (the list is a set)",
        );
    });
  });
}
