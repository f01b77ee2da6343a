import { Budget, Disruption, NodeClassReference, NodePoolOptions, NodeSelectorRequirement, Taint } from "../node-pool-spec";
import { KarpenterVersion } from "./version";
import { Checker, cronProblem, labelDomain, BUDGET_DURATION, DURATION, DURATION_OR_NEVER, DURATION_TEXT } from "./k8s-rules";
import { AWS_LABEL_KEYS_SINCE, CAPACITY_TYPES_SINCE, ENUM_VALUES_SINCE, K8S_DOMAIN_ALLOWED_KEYS, K8S_DOMAIN_RESTRICTED_UNTIL, NODEPOOL_FIELDS_SINCE } from "./crd-history";

/*
 * Every rule of the karpenter.sh/v1 NodePool CRD (v1.0 … v1.14) that needs no cluster state:
 * OpenAPI types, enums, patterns, lengths and item counts, and each x-kubernetes-validations CEL
 * rule except the transition rules (those comparing with oldSelf). Where a CRD rule is looser
 * than what Karpenter or the API server accepts later (label keys and values copied into a
 * NodeClaim's metadata, cron schedules, values of Exists), the stricter rule is checked and says so.
 */

/** The label key that decides spot / on-demand / reserved capacity. */
export const CAPACITY_TYPE = "karpenter.sh/capacity-type";

const OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte"] as const;
const NUMERIC_OPERATORS = ["Gt", "Lt", "Gte", "Lte"];
const EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"] as const;
const POLICIES = ["WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced"] as const;
const REASONS = ["Underutilized", "Empty", "Drifted"] as const;
/** The taint key / value pattern of the CRD (a qualified name). */
const TAINT_PART = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\/))?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
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
  if (key === "karpenter.sh/nodepool") return 'label "karpenter.sh/nodepool" is restricted (Karpenter sets it)';
  if (key === "kubernetes.io/hostname") return 'label "kubernetes.io/hostname" is restricted';
  if (domain.endsWith("karpenter.sh") && key !== CAPACITY_TYPE) return `label domain "karpenter.sh" is restricted: of its keys only ${CAPACITY_TYPE} may be used`;
  if (domain.endsWith("karpenter.k8s.aws")) {
    const since = AWS_LABEL_KEYS_SINCE[key];
    if (since === undefined) return `label domain "karpenter.k8s.aws" is restricted to the well-known keys Karpenter defines (e.g. karpenter.k8s.aws/instance-category, instance-family, instance-generation, instance-size, instance-cpu, instance-memory)`;
    if (!v.atLeast(since)) return `label "${key}" is restricted before Karpenter ${since} (this object targets ${v.full})`;
  }
  if (!v.atLeast(K8S_DOMAIN_RESTRICTED_UNTIL)) {
    const k8sOpen = K8S_DOMAIN_ALLOWED_KEYS.includes(key) || domain.endsWith("node.kubernetes.io") || domain.endsWith("node-restriction.kubernetes.io");
    if (domain.endsWith("kubernetes.io") && !k8sOpen) return `label domain "kubernetes.io" is restricted before Karpenter ${K8S_DOMAIN_RESTRICTED_UNTIL} (allowed: ${K8S_DOMAIN_ALLOWED_KEYS.join(", ")}, *.node.kubernetes.io, *.node-restriction.kubernetes.io; this object targets ${v.full})`;
    if (domain.endsWith("k8s.io") && !domain.endsWith("kops.k8s.io")) return `label domain "k8s.io" is restricted before Karpenter ${K8S_DOMAIN_RESTRICTED_UNTIL} (except kops.k8s.io; this object targets ${v.full})`;
  }
  return undefined;
}

/** The nodeClassRef the NodePool emits (group and kind filled in). */
export type NodeClassRefValue = Required<NodeClassReference>;

/**
 * Checks NodePool props (with `requirements` already including the capacity-type default) for
 * Karpenter version `v`. Throws a KarpenterValidationError on the first problem.
 * @param nodeClassField the prop path of the node class (for errors)
 */
export function checkNodePool(c: Checker, v: KarpenterVersion, p: NodePoolOptions, name: string, ref: NodeClassRefValue, nodeClassField = "nodeClass"): void {
  c.dnsName("name", name);
  if (ref.name === undefined || ref.name === null) c.fail(`${nodeClassField}.name`, ref.name, "the name of the EC2NodeClass (required)");
  c.str(`${nodeClassField}.name`, ref.name, { nonEmpty: true });
  c.dnsName(`${nodeClassField}.name`, ref.name);
  c.str(`${nodeClassField}.group`, ref.group, { nonEmpty: true });
  c.pattern(`${nodeClassField}.group`, ref.group, /^[^/]*$/, "an API group without '/' (e.g. karpenter.k8s.aws)");
  c.str(`${nodeClassField}.kind`, ref.kind, { nonEmpty: true });

  checkRequirements(c, v, p.requirements);
  checkLabels(c, v, p.labels);
  checkAnnotations(c, p.annotations);
  checkTaints(c, "taints", p.taints);
  checkTaints(c, "startupTaints", p.startupTaints);
  c.pattern("expireAfter", p.expireAfter, DURATION_OR_NEVER, DURATION_TEXT);
  c.pattern("terminationGracePeriod", p.terminationGracePeriod, DURATION, 'a duration of hours, minutes and seconds such as "30s", "48h" or "1h30m" ("Never" is not allowed: leave it unset to wait indefinitely)');
  for (const [res, q] of p.limits && !c.token(p.limits) ? Object.entries(p.limits) : []) {
    if (res.length === 0) c.fail("limits", p.limits, "resource names must not be empty");
    c.quantity(`limits[${JSON.stringify(res)}]`, q);
  }
  checkDisruption(c, p.disruption);
  c.int("weight", p.weight, 1, 100);

  c.since("replicas", p.replicas, NODEPOOL_FIELDS_SINCE["spec.replicas"], "replicas (static NodePools)");
  c.int("replicas", p.replicas, 0, Number.MAX_SAFE_INTEGER);
  if (p.replicas !== undefined) {
    if (p.weight !== undefined) c.fail("weight", p.weight, "'weight' is not supported on static NodePools (replicas is set)");
    const keys = p.limits && !c.token(p.limits) ? Object.keys(p.limits) : [];
    if (keys.some((k) => c.known(k) && k !== "nodes")) c.fail("limits", p.limits, "only 'limits.nodes' is supported on static NodePools (replicas is set)");
  }
}

function checkRequirements(c: Checker, v: KarpenterVersion, reqs: NodeSelectorRequirement[] | undefined): void {
  const list = c.list("requirements", reqs, 0, 100);
  list?.forEach((r, i) => checkRequirement(c, v, `requirements[${i}]`, r));
}

function checkRequirement(c: Checker, v: KarpenterVersion, at: string, r: NodeSelectorRequirement): void {
  if (r === undefined || r === null || c.token(r)) return;
  if (typeof r !== "object") c.fail(at, r, "a requirement { key, operator, values?, minValues? }");
  c.fields(at, r, ["key", "operator", "values", "minValues"], "a requirement");
  if (r.key === undefined) c.fail(`${at}.key`, r.key, "a label key (required)");
  if (r.operator === undefined) c.fail(`${at}.operator`, r.operator, `one of ${OPERATORS.join(", ")} (required)`);
  c.str(`${at}.key`, r.key, { maxLength: 316 });
  c.qualifiedName(`${at}.key`, r.key, "label key");
  if (c.known(r.key)) {
    const problem = restrictedLabelProblem(r.key, v);
    if (problem) c.fail(`${at}.key`, r.key, problem);
  }
  c.oneOf(`${at}.operator`, r.operator, OPERATORS);
  if (c.known(r.operator)) {
    const since = ENUM_VALUES_SINCE[`spec.template.spec.requirements[].operator=${r.operator}`];
    if (since) c.since(`${at}.operator`, r.operator, since, `operator ${r.operator}`);
  }
  c.int(`${at}.minValues`, r.minValues, 1, 50);
  const values = c.list(`${at}.values`, r.values, 0, Number.MAX_SAFE_INTEGER);
  const op = c.known(r.operator) ? r.operator : undefined;
  if (values && op && NUMERIC_OPERATORS.includes(op)) {
    if (values.length !== 1) c.fail(`${at}.values`, values, "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value");
    if (c.known(values[0]) && !/^[0-9]{1,18}$/.test(values[0])) c.fail(`${at}.values[0]`, values[0], "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value, written as a string of digits (e.g. \"5\")");
  }
  values?.forEach((x, j) => c.labelValue(`${at}.values[${j}]`, x));
  if (!values || !op) return;
  if (op === "In" && values.length === 0) c.fail(`${at}.values`, values, "requirements with operator 'In' must have a value defined");
  if ((op === "Exists" || op === "DoesNotExist") && values.length > 0) c.fail(`${at}.values`, values, `operator '${op}' takes no values (NodePool CRD: "If the operator is Exists or DoesNotExist, the values array must be empty")`);
  if (op === "In" && c.known(r.minValues) && values.length < r.minValues) {
    c.fail(`${at}.minValues`, r.minValues, `requirements with 'minValues' must have at least that many values specified in the 'values' field (${values.length} given)`);
  }
  if (r.key === CAPACITY_TYPE && (op === "In" || op === "NotIn")) {
    values.forEach((x, j) => {
      if (!c.known(x)) return;
      const since = CAPACITY_TYPES_SINCE[x];
      if (since === undefined) c.fail(`${at}.values[${j}]`, x, `a capacity type: ${Object.keys(CAPACITY_TYPES_SINCE).map((t) => JSON.stringify(t)).join(", ")} (any other value matches no capacity)`);
      c.since(`${at}.values[${j}]`, x, since, `capacity type "${x}"`);
    });
  }
}

function checkLabels(c: Checker, v: KarpenterVersion, labels: { [k: string]: string } | undefined): void {
  for (const [k, val] of c.map("labels", labels, 100)) {
    const field = `labels[${JSON.stringify(k)}]`;
    c.qualifiedName(field, k, "label key");
    const problem = c.known(k) ? restrictedLabelProblem(k, v) : undefined;
    if (problem) c.fail(field, k, problem);
    c.labelValue(field, val);
    if (k === CAPACITY_TYPE && c.known(val) && CAPACITY_TYPES_SINCE[val] === undefined) c.fail(field, val, `a capacity type: ${Object.keys(CAPACITY_TYPES_SINCE).join(", ")}`);
  }
}

function checkAnnotations(c: Checker, annotations: { [k: string]: string } | undefined): void {
  let bytes = 0;
  for (const [k, val] of c.map("annotations", annotations)) {
    c.qualifiedName(`annotations[${JSON.stringify(k)}]`, k, "annotation key");
    bytes += Buffer.byteLength(k) + (typeof val === "string" ? Buffer.byteLength(val) : 0);
  }
  if (bytes > ANNOTATIONS_MAX_BYTES) c.fail("annotations", `${bytes} bytes`, `at most ${ANNOTATIONS_MAX_BYTES} bytes of keys and values in total (Kubernetes object metadata limit)`);
}

function checkTaints(c: Checker, field: string, taints: Taint[] | undefined): void {
  const list = c.list(field, taints, 0, Number.MAX_SAFE_INTEGER);
  list?.forEach((t, i) => {
    const at = `${field}[${i}]`;
    if (t === undefined || t === null || c.token(t)) return;
    c.fields(at, t, ["key", "value", "effect", "timeAdded"], "a taint");
    if (t.key === undefined) c.fail(`${at}.key`, t.key, "a taint key (required)");
    if (t.effect === undefined) c.fail(`${at}.effect`, t.effect, `one of ${EFFECTS.join(", ")} (required)`);
    c.str(`${at}.key`, t.key, { nonEmpty: true });
    c.pattern(`${at}.key`, t.key, TAINT_PART, "a taint key: a qualified name [prefix/]name, letters, digits, '-', '_', '.', starting and ending with a letter or digit");
    c.qualifiedName(`${at}.key`, t.key, "taint key");
    c.pattern(`${at}.value`, t.value, TAINT_PART, "a taint value matching the CRD pattern: letters, digits, '-', '_', '.', starting and ending with a letter or digit (leave it unset for no value)");
    c.oneOf(`${at}.effect`, t.effect, EFFECTS);
    c.pattern(`${at}.timeAdded`, t.timeAdded, DATE_TIME, "an RFC 3339 date-time such as 2025-01-01T00:00:00Z");
  });
}

function checkDisruption(c: Checker, d: Disruption | undefined): void {
  if (d === undefined || d === null || c.token(d)) return;
  c.fields("disruption", d, ["consolidationPolicy", "consolidateAfter", "budgets"], "disruption");
  c.oneOf("disruption.consolidationPolicy", d.consolidationPolicy, POLICIES);
  if (c.known(d.consolidationPolicy)) {
    const since = ENUM_VALUES_SINCE[`spec.disruption.consolidationPolicy=${d.consolidationPolicy}`];
    if (since) c.since("disruption.consolidationPolicy", d.consolidationPolicy, since, `consolidationPolicy ${d.consolidationPolicy}`);
  }
  c.pattern("disruption.consolidateAfter", d.consolidateAfter, DURATION_OR_NEVER, DURATION_TEXT);
  const budgets = c.list("disruption.budgets", d.budgets, 0, 50);
  budgets?.forEach((b, i) => checkBudget(c, `disruption.budgets[${i}]`, b));
}

function checkBudget(c: Checker, at: string, b: Budget): void {
  if (b === undefined || b === null || c.token(b)) return;
  c.fields(at, b, ["nodes", "schedule", "duration", "reasons"], "a budget");
  c.pattern(`${at}.nodes`, b.nodes, BUDGET_NODES, 'a node count ("5") or a percentage from "0%" to "100%", as a string');
  if (c.known(b.schedule)) {
    const problem = cronProblem(b.schedule);
    if (problem) c.fail(`${at}.schedule`, b.schedule, `a cron schedule in UTC ("0 9 * * mon-fri") or a macro (@daily, @weekly, …): ${problem}`);
  }
  c.pattern(`${at}.duration`, b.duration, BUDGET_DURATION, 'hours and/or minutes such as "8h", "30m" or "1h30m" (no seconds: cron has minute resolution)');
  if ((b.schedule === undefined) !== (b.duration === undefined)) {
    const missing = b.schedule === undefined ? "schedule" : "duration";
    c.fail(`${at}.${missing}`, undefined, "'schedule' must be set with 'duration' (a budget with one of them needs both)");
  }
  const reasons = c.list(`${at}.reasons`, b.reasons, 0, 50);
  reasons?.forEach((r, j) => {
    c.oneOf(`${at}.reasons[${j}]`, r, REASONS);
    if (c.known(r) && reasons.indexOf(r) !== j) c.fail(`${at}.reasons[${j}]`, r, "each reason at most once (the list is a set)");
  });
}
