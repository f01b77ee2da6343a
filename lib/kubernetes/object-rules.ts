import { isPlainMap } from "../core/deep-merge";
import { holdsToken, isDns1123Label, isDns1123Subdomain, isLabelValue, qualifiedNameProblem } from "./value-rules";

/*
 * The Kubernetes API server's VALUE rules for the parts of a Deployment, PodDisruptionBudget and ClusterRole that
 * the Karpenter chart renders from its values (`strategy`, `revisionHistoryLimit`, `affinity`,
 * `topologySpreadConstraints`, `podSecurityContext`, `controller.securityContext`, `podDisruptionBudget`,
 * `additionalClusterRoleRules`). Pure functions: each takes a value and the field it came from, returns every
 * problem, and throws nothing. Sources are k8s.io/kubernetes@v1.34.2 (`core`: pkg/apis/core/validation/validation.go,
 * `apps`: pkg/apis/apps/validation/validation.go, `policy`: pkg/apis/policy/validation/validation.go, `rbac`:
 * pkg/apis/rbac/validation/validation.go) and its k8s.io/apimachinery@v0.34.2 (`meta`:
 * pkg/apis/meta/v1/validation/validation.go, `util`: pkg/util/validation/validation.go, `generic`:
 * pkg/api/validation/generic.go), file:line.
 *
 * Only values of the right JSON type are judged (a number where Go has an int, a string where it has a string, a
 * list, a map): a value of another type fails the decoding, which the values' type checks report. A value that
 * is or holds a cdktf token is left for apply; so is a rule whose inputs include one.
 */

/** One value the API server refuses. */
export interface ObjectValueProblem {
  /** The field, e.g. `values.strategy.rollingUpdate.maxUnavailable`. */
  readonly field: string;
  /** The value as given (undefined when the field is missing). */
  readonly value: unknown;
  /** What is accepted, as a sentence. */
  readonly allowed: string;
}

type Out = ObjectValueProblem[];

const PERCENT = /^[0-9]+%$/; // util validation.go:371-374 (percentFmt)
const INT32_MAX = 2147483647;

/** A literal string (not a token). */
function str(v: unknown): v is string {
  return typeof v === "string" && !holdsToken(v);
}

/** A literal whole number (not a token); a fraction is the decoder's business. */
function int(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && !holdsToken(v);
}

/** A literal map. */
function map(v: unknown): v is Record<string, unknown> {
  return isPlainMap(v) && !holdsToken(v);
}

/** A literal list. */
function list(v: unknown): v is unknown[] {
  return Array.isArray(v) && !holdsToken(v);
}

/** Go's len() of a decoded list: null and a missing field are empty; a token or another type is undefined (not judged). */
function length(v: unknown): number | undefined {
  if (v === undefined || v === null) return 0;
  return list(v) ? v.length : undefined;
}

/** True when `v` is set (neither missing nor null: Helm drops a null key, and it decodes as unset). */
function set(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** `field[i]`, or `field["key"]` for a map key. */
const at = (field: string, i: number) => `${field}[${i}]`;
const key = (field: string, k: string) => `${field}[${JSON.stringify(k)}]`;

function enumText(values: readonly string[]): string {
  return `one of ${values.map((v) => JSON.stringify(v)).join(", ")} (case-sensitive)`;
}

/** A qualified name (label key, topology key): meta validation.go:104-110 (ValidateLabelName → IsQualifiedName, util validation.go:41). */
function checkQualifiedName(out: Out, field: string, value: unknown, what: string): void {
  if (!str(value)) return;
  const why = qualifiedNameProblem(value);
  if (why) out.push({ field, value, allowed: `${what}, a qualified name ([prefix/]name): ${why}` });
}

/** A label value: util validation.go:165 (IsValidLabelValue). */
function checkLabelValue(out: Out, field: string, value: unknown): void {
  if (str(value) && !isLabelValue(value))
    out.push({
      field,
      value,
      allowed:
        "a label value: at most 63 characters, letters, digits, '-', '_' and '.', starting and ending with a letter or digit (or empty)",
    });
}

/** generic.go:82-88 (ValidateNonnegativeField): an int field that must not be negative. */
function checkNonNegative(out: Out, field: string, value: unknown, what: string): void {
  if (int(value) && value < 0) out.push({ field, value, allowed: `${what}: a whole number, 0 or more` });
}

/** core validation.go:357-363 (ValidatePositiveField); a missing int32 is 0 after decoding, so it fails too. */
function checkPositive(out: Out, field: string, value: unknown, what: string): void {
  if ((int(value) && value <= 0) || !set(value))
    out.push({ field, value, allowed: `${what}: a whole number, 1 or more (required)` });
}

/** How a value the chart writes unquoted (`key: {{ value }}`) reads back: a string of digits becomes that number. */
function unquoted(value: unknown): unknown {
  return str(value) && /^[-+]?[0-9]+$/.test(value) ? Number(value) : value;
}

/**
 * An IntOrString of apps validation.go:547-559 (ValidatePositiveIntOrPercent): a whole number, 0 or more, or a
 * percent string (util validation.go:371-381, IsValidPercent: `^[0-9]+%$`); with `max100` also
 * apps validation.go:583-591 (IsNotMoreThan100Percent).
 */
function checkIntOrPercent(out: Out, field: string, value: unknown, max100: boolean): void {
  const allowed = `a whole number, 0 or more, or a percent string: digits then '%', e.g. "25%"${max100 ? ", at most 100%" : ""}`;
  if (int(value)) {
    if (value < 0) out.push({ field, value, allowed });
  } else if (str(value)) {
    if (!PERCENT.test(value)) out.push({ field, value, allowed });
    else if (max100 && Number(value.slice(0, -1)) > 100) out.push({ field, value, allowed });
  }
}

/** apps validation.go:573-580 (getIntOrPercentValue): a percent's number, an int, or strconv.Atoi of other text (0 when it fails). */
function intOrPercentValue(value: unknown): number | undefined {
  if (int(value)) return value;
  if (!str(value)) return undefined;
  if (PERCENT.test(value)) return Number(value.slice(0, -1));
  return /^[-+]?[0-9]+$/.test(value) ? Number(value) : 0;
}

/** Deployment `spec.revisionHistoryLimit` (written unquoted): apps validation.go:661-663, ValidateNonnegativeField. */
export function revisionHistoryLimitProblems(value: unknown, field: string): ObjectValueProblem[] {
  const out: Out = [];
  checkNonNegative(out, field, unquoted(value), "the number of old ReplicaSets to keep");
  return out;
}

const STRATEGY_TYPES = ["Recreate", "RollingUpdate"];

/**
 * Deployment `spec.strategy` as the API server sees it: pass the chart's default merged with the user's values
 * (Helm merges maps; a null drops the key). apps/v1 defaulting first (pkg/apis/apps/v1/defaults.go:44-64: type ""
 * is RollingUpdate; a missing maxUnavailable or maxSurge is "25%"), then apps validation.go:608-630
 * (ValidateDeploymentStrategy) and :594-605 (ValidateRollingUpdateDeployment).
 */
export function deploymentStrategyProblems(strategy: unknown, field: string): ObjectValueProblem[] {
  const out: Out = [];
  if (!map(strategy)) return out;
  const type = set(strategy.type) ? strategy.type : "";
  if (!str(type)) return out;
  const effective = type === "" ? "RollingUpdate" : type;
  const ru = strategy.rollingUpdate;
  if (!STRATEGY_TYPES.includes(effective)) {
    // apps validation.go:622-624: NotSupported
    out.push({ field: `${field}.type`, value: type, allowed: enumText(STRATEGY_TYPES) });
    return out;
  }
  if (effective === "Recreate") {
    // apps validation.go:612-615: rollingUpdate forbidden with Recreate
    if (set(ru))
      out.push({
        field: `${field}.rollingUpdate`,
        value: ru,
        allowed:
          'no rollingUpdate with type "Recreate" (the chart\'s values.yaml sets strategy.rollingUpdate.maxUnavailable: 1: with Recreate, set rollingUpdate: null to drop it)',
      });
    return out;
  }
  if (set(ru) && !map(ru)) return out;
  const given = (k: string) => (map(ru) && set(ru[k]) ? ru[k] : "25%");
  const maxUnavailable = given("maxUnavailable");
  const maxSurge = given("maxSurge");
  const rf = `${field}.rollingUpdate`;
  checkIntOrPercent(out, `${rf}.maxUnavailable`, maxUnavailable, true); // :596, :603
  checkIntOrPercent(out, `${rf}.maxSurge`, maxSurge, false); // :597
  // :598-601: both zero would never move a pod
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0)
    out.push({
      field: `${rf}.maxUnavailable`,
      value: maxUnavailable,
      allowed: "not 0 when maxSurge is 0 as well (the rollout could never replace a pod)",
    });
  return out;
}

/**
 * PodDisruptionBudget `spec.maxUnavailable` / `spec.minAvailable` (the chart writes maxUnavailable unquoted, so a
 * string of digits is that number): policy validation.go:57-65 (ValidatePositiveIntOrPercent, IsNotMoreThan100Percent).
 */
export function disruptionBudgetProblems(value: unknown, field: string): ObjectValueProblem[] {
  const out: Out = [];
  const v = unquoted(value);
  // other unquoted text YAML reads as another type (a fraction, a boolean, null) is the decoder's business
  if (
    str(v) &&
    /^([-+]?(\.[0-9]+|[0-9]+\.?[0-9]*)([eE][-+]?[0-9]+)?|\.(inf|nan)|~|null|true|false|yes|no|on|off|y|n)$/i.test(v)
  )
    return out;
  checkIntOrPercent(out, field, v, true);
  return out;
}

const SELECTOR_OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"];

/** A metav1.LabelSelector: meta validation.go:62-72 (ValidateLabelSelector), :76-101 (requirements), :113-122 (matchLabels). */
export function labelSelectorProblems(selector: unknown, field: string): ObjectValueProblem[] {
  const out: Out = [];
  if (!map(selector)) return out;
  const labels = selector.matchLabels;
  if (map(labels))
    for (const [k, v] of Object.entries(labels)) {
      if (holdsToken(k)) continue;
      checkQualifiedName(out, key(`${field}.matchLabels`, k), k, "a label key");
      checkLabelValue(out, key(`${field}.matchLabels`, k), v);
    }
  const exprs = selector.matchExpressions;
  if (list(exprs))
    exprs.forEach((e, i) => {
      if (!map(e)) return;
      const f = at(`${field}.matchExpressions`, i);
      requirementProblems(out, f, e, SELECTOR_OPERATORS, false);
    });
  return out;
}

/**
 * One selector requirement (label selector: meta validation.go:76-101; node selector: core validation.go:4834-4862):
 * the operator, the number of values it takes, a qualified-name key, label-value values (unless `anyValue`: core
 * validation.go:5022-5024 allows any value in preferred node affinity).
 */
function requirementProblems(
  out: Out,
  f: string,
  e: Record<string, unknown>,
  operators: string[],
  anyValue: boolean,
): void {
  const op = set(e.operator) ? e.operator : "";
  const n = length(e.values);
  if (str(op)) {
    if (!operators.includes(op)) out.push({ field: `${f}.operator`, value: e.operator, allowed: enumText(operators) });
    else if ((op === "In" || op === "NotIn") && n === 0)
      out.push({ field: `${f}.values`, value: e.values, allowed: `at least one value with operator "${op}"` });
    else if ((op === "Exists" || op === "DoesNotExist") && n !== undefined && n > 0)
      out.push({ field: `${f}.values`, value: e.values, allowed: `no values with operator "${op}"` });
    else if ((op === "Gt" || op === "Lt") && n !== undefined && n !== 1)
      out.push({ field: `${f}.values`, value: e.values, allowed: `exactly one value with operator "${op}"` });
  }
  if (!set(e.key)) out.push({ field: `${f}.key`, value: e.key, allowed: "a label key (required)" });
  else checkQualifiedName(out, `${f}.key`, e.key, "a label key");
  if (!anyValue && list(e.values)) e.values.forEach((v, j) => checkLabelValue(out, at(`${f}.values`, j), v));
}

const NODE_OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"];

/** A NodeSelectorTerm: core validation.go:4897-4909 (matchExpressions :4834-4862, matchFields :4870-4894). */
function nodeSelectorTermProblems(out: Out, f: string, term: unknown, anyValue: boolean): void {
  if (!map(term)) return;
  if (list(term.matchExpressions))
    term.matchExpressions.forEach((e, i) => {
      if (map(e)) requirementProblems(out, at(`${f}.matchExpressions`, i), e, NODE_OPERATORS, anyValue);
    });
  if (list(term.matchFields))
    term.matchFields.forEach((e, i) => {
      if (!map(e)) return;
      const g = at(`${f}.matchFields`, i);
      const op = set(e.operator) ? e.operator : "";
      if (str(op) && op !== "In" && op !== "NotIn")
        out.push({ field: `${g}.operator`, value: e.operator, allowed: enumText(["In", "NotIn"]) });
      else if (str(op) && length(e.values) !== undefined && length(e.values) !== 1)
        out.push({
          field: `${g}.values`,
          value: e.values,
          allowed: `exactly one value (a node name) with operator "${op}"`,
        });
      // :4883-4884: metadata.name is the only node field selector key (nodeFieldSelectorValidators :4865-4867)
      if (str(e.key ?? "") && e.key !== "metadata.name")
        out.push({
          field: `${g}.key`,
          value: e.key,
          allowed: '"metadata.name", the only node field a matchFields term can select',
        });
      else if (list(e.values))
        e.values.forEach((v, j) => {
          // ValidateNodeName = NameIsDNSSubdomain (core validation.go:275)
          if (str(v) && !isDns1123Subdomain(v))
            out.push({ field: at(`${g}.values`, j), value: v, allowed: "a node name, a DNS-1123 subdomain" });
        });
    });
}

/** A weight of a preferred term: core validation.go:5018-5020 (node), :5059-5061 (pod); a missing weight is 0. */
function checkWeight(out: Out, field: string, weight: unknown): void {
  if (!set(weight) || (int(weight) && (weight < 1 || weight > 100)))
    out.push({ field, value: weight, allowed: "a whole number from 1 to 100 (required)" });
}

/** A PodAffinityTerm: core validation.go:5030-5044 (the chart adds a labelSelector where none is set, _helpers.tpl patchPodAffinity). */
function podAffinityTermProblems(out: Out, f: string, term: unknown): void {
  if (!map(term)) return;
  // :8957-8962 (ValidatePodAffinityTermSelector)
  out.push(...labelSelectorProblems(term.labelSelector, `${f}.labelSelector`));
  out.push(...labelSelectorProblems(term.namespaceSelector, `${f}.namespaceSelector`));
  // :5034-5038: each namespace a namespace name (ValidateNamespaceName, :280: a DNS-1123 label)
  if (list(term.namespaces))
    term.namespaces.forEach((ns, i) => {
      if (str(ns) && !isDns1123Label(ns))
        out.push({ field: at(`${f}.namespaces`, i), value: ns, allowed: "a namespace name, a DNS-1123 label" });
    });
  // :5039 → :8559-8564, :8639-8653 (validateLabelKeys) and :8596-8602: label keys, none in both lists
  const mismatch = list(term.mismatchLabelKeys) ? term.mismatchLabelKeys : [];
  for (const name of ["matchLabelKeys", "mismatchLabelKeys"]) {
    const keys = term[name];
    if (!list(keys)) continue;
    keys.forEach((k, i) => {
      checkQualifiedName(out, at(`${f}.${name}`, i), k, "a label key");
      if (name === "matchLabelKeys" && str(k) && mismatch.includes(k))
        out.push({ field: at(`${f}.${name}`, i), value: k, allowed: "a key not also in mismatchLabelKeys" });
    });
  }
  // :5040-5043: topologyKey required and a qualified name
  if (!set(term.topologyKey) || term.topologyKey === "")
    out.push({
      field: `${f}.topologyKey`,
      value: term.topologyKey,
      allowed: 'a node label key (required), e.g. "kubernetes.io/hostname"',
    });
  else checkQualifiedName(out, `${f}.topologyKey`, term.topologyKey, "a node label key");
}

/** Pod (anti-)affinity: core validation.go:5068-5085 and :5103-5119 (required terms, weighted preferred terms :5056-5065). */
function podAffinityProblems(out: Out, f: string, pa: unknown): void {
  if (!map(pa)) return;
  const req = pa.requiredDuringSchedulingIgnoredDuringExecution;
  if (list(req))
    req.forEach((t, i) =>
      podAffinityTermProblems(out, at(`${f}.requiredDuringSchedulingIgnoredDuringExecution`, i), t),
    );
  const pref = pa.preferredDuringSchedulingIgnoredDuringExecution;
  if (list(pref))
    pref.forEach((w, i) => {
      if (!map(w)) return;
      const g = at(`${f}.preferredDuringSchedulingIgnoredDuringExecution`, i);
      checkWeight(out, `${g}.weight`, w.weight);
      podAffinityTermProblems(out, `${g}.podAffinityTerm`, w.podAffinityTerm ?? {});
    });
}

/**
 * The pod's `affinity` (core validation.go:4169 validateAffinity): node affinity (:5087-5101: required node selector
 * :4912-4925, preferred terms :5014-5027), pod affinity and anti-affinity. Pass the values as given: the chart's
 * default affinity is valid, and a list given replaces the default's.
 */
export function affinityProblems(affinity: unknown, field: string): ObjectValueProblem[] {
  const out: Out = [];
  if (!map(affinity)) return out;
  const na = affinity.nodeAffinity;
  if (map(na)) {
    const f = `${field}.nodeAffinity`;
    const req = na.requiredDuringSchedulingIgnoredDuringExecution;
    if (map(req)) {
      const terms = req.nodeSelectorTerms;
      const rf = `${f}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
      // :4915-4918: at least one term. A missing key keeps the chart's default terms (Helm merges maps); an
      // empty list or null (which drops the default) leaves none.
      if (terms === null || (list(terms) && terms.length === 0))
        out.push({ field: rf, value: terms, allowed: "at least one node selector term" });
      if (list(terms)) terms.forEach((t, i) => nodeSelectorTermProblems(out, at(rf, i), t, false));
    }
    const pref = na.preferredDuringSchedulingIgnoredDuringExecution;
    if (list(pref))
      pref.forEach((p, i) => {
        if (!map(p)) return;
        const g = at(`${f}.preferredDuringSchedulingIgnoredDuringExecution`, i);
        checkWeight(out, `${g}.weight`, p.weight);
        nodeSelectorTermProblems(out, `${g}.preference`, p.preference, true);
      });
  }
  podAffinityProblems(out, `${field}.podAffinity`, affinity.podAffinity);
  podAffinityProblems(out, `${field}.podAntiAffinity`, affinity.podAntiAffinity);
  return out;
}

const WHEN_UNSATISFIABLE = ["DoNotSchedule", "ScheduleAnyway"]; // core validation.go:8433 (supportedScheduleActions)
const NODE_INCLUSION_POLICIES = ["Honor", "Ignore"]; // core validation.go:8540-8541

/**
 * The pod's `topologySpreadConstraints`: core validation.go:8437-8495 (validateTopologySpreadConstraints). The
 * chart adds a labelSelector of the pod's selector labels to a constraint without one (_helpers.tpl
 * patchTopologySpreadConstraints), so only a given selector is judged.
 */
export function topologySpreadProblems(constraints: unknown, field: string): ObjectValueProblem[] {
  const out: Out = [];
  if (!list(constraints)) return out;
  constraints.forEach((c, i) => {
    if (!map(c)) return;
    const f = at(field, i);
    checkPositive(out, `${f}.maxSkew`, c.maxSkew, "the largest allowed skew"); // :8442-8444
    // :8445-8447, :8512-8517 (ValidateTopologyKey: required; the API server checks nothing more)
    if (!set(c.topologyKey) || c.topologyKey === "")
      out.push({
        field: `${f}.topologyKey`,
        value: c.topologyKey,
        allowed: 'a node label key (required), e.g. "topology.kubernetes.io/zone"',
      });
    // :8448-8450, :8520-8525: required and one of two (a missing value is "", not defaulted)
    const when = set(c.whenUnsatisfiable) ? c.whenUnsatisfiable : "";
    if (str(when) && !WHEN_UNSATISFIABLE.includes(when))
      out.push({
        field: `${f}.whenUnsatisfiable`,
        value: c.whenUnsatisfiable,
        allowed: `${enumText(WHEN_UNSATISFIABLE)} (required)`,
      });
    // :8452-8454, :8529-8537: one constraint per {topologyKey, whenUnsatisfiable}
    const dup = constraints
      .slice(i + 1)
      .some(
        (o) =>
          map(o) &&
          str(c.topologyKey) &&
          o.topologyKey === c.topologyKey &&
          str(when) &&
          (o.whenUnsatisfiable ?? "") === when,
      );
    if (dup)
      out.push({
        field: f,
        value: `{${String(c.topologyKey)}, ${when}}`,
        allowed: "one constraint per topologyKey and whenUnsatisfiable (a later constraint repeats this pair)",
      });
    // :8455, :8498-8513 (validateMinDomains): positive, only with DoNotSchedule
    if (set(c.minDomains)) {
      if (int(c.minDomains) && c.minDomains <= 0)
        out.push({ field: `${f}.minDomains`, value: c.minDomains, allowed: "a whole number, 1 or more" });
      if (str(when) && when !== "DoNotSchedule" && WHEN_UNSATISFIABLE.includes(when))
        out.push({
          field: `${f}.minDomains`,
          value: c.minDomains,
          allowed: `only with whenUnsatisfiable "DoNotSchedule", not "${when}"`,
        });
    }
    // :8456-8461, :8544-8554 (validateNodeInclusionPolicy)
    for (const name of ["nodeAffinityPolicy", "nodeTaintsPolicy"]) {
      const p = c[name];
      if (str(p) && !NODE_INCLUSION_POLICIES.includes(p))
        out.push({ field: `${f}.${name}`, value: p, allowed: enumText(NODE_INCLUSION_POLICIES) });
    }
    // :8462-8488: every branch checks each matchLabelKeys entry is a label key (ValidateLabelName)
    if (list(c.matchLabelKeys))
      c.matchLabelKeys.forEach((k, j) => checkQualifiedName(out, at(`${f}.matchLabelKeys`, j), k, "a label key"));
    out.push(...labelSelectorProblems(c.labelSelector, `${f}.labelSelector`)); // :8489-8491
  });
  return out;
}

const PROFILE_TYPES = ["Localhost", "RuntimeDefault", "Unconfined"];

/** seccompProfile: core validation.go:5121-5143 (validateSeccompProfileField), :5174-5183 (type), :1358-1382 (a relative path without ".."). */
function seccompProblems(out: Out, f: string, sp: unknown): void {
  if (!map(sp)) return;
  const type = set(sp.type) ? sp.type : "";
  if (!str(type)) return;
  if (type === "")
    out.push({
      field: `${f}.type`,
      value: sp.type,
      allowed: `${enumText(PROFILE_TYPES)} (required when seccompProfile is set)`,
    });
  else if (!PROFILE_TYPES.includes(type))
    out.push({ field: `${f}.type`, value: type, allowed: enumText(PROFILE_TYPES) });
  const profile = sp.localhostProfile;
  if (type === "Localhost") {
    if (!set(profile))
      out.push({
        field: `${f}.localhostProfile`,
        value: profile,
        allowed: 'a profile path (required with type "Localhost")',
      });
    else if (str(profile) && (profile.startsWith("/") || profile.split("/").includes("..")))
      out.push({
        field: `${f}.localhostProfile`,
        value: profile,
        allowed: "a relative path without '..' (under the kubelet's seccomp directory)",
      });
  } else if (set(profile) && PROFILE_TYPES.includes(type))
    out.push({
      field: `${f}.localhostProfile`,
      value: profile,
      allowed: `only with type "Localhost"; the type is "${type}" (a type the values do not set is the chart's default)`,
    });
}

/** appArmorProfile: core validation.go:5185-5224 (ValidateAppArmorProfileField). */
function appArmorProblems(out: Out, f: string, ap: unknown): void {
  if (!map(ap)) return;
  const type = set(ap.type) ? ap.type : "";
  if (!str(type)) return;
  const profile = ap.localhostProfile;
  if (type === "")
    out.push({
      field: `${f}.type`,
      value: ap.type,
      allowed: `${enumText(PROFILE_TYPES)} (required when appArmorProfile is set)`,
    });
  else if (!PROFILE_TYPES.includes(type))
    out.push({ field: `${f}.type`, value: type, allowed: enumText(PROFILE_TYPES) });
  else if (type === "Localhost") {
    if (!set(profile) || profile === "")
      out.push({
        field: `${f}.localhostProfile`,
        value: profile,
        allowed: 'a profile name (required with type "Localhost")',
      });
    else if (str(profile) && profile.trim() !== profile)
      out.push({
        field: `${f}.localhostProfile`,
        value: profile,
        allowed: "a profile name without surrounding whitespace",
      });
    else if (str(profile) && Buffer.byteLength(profile) > 4095)
      out.push({ field: `${f}.localhostProfile`, value: profile, allowed: "at most 4095 bytes" });
  } else if (set(profile))
    out.push({ field: `${f}.localhostProfile`, value: profile, allowed: `only with type "Localhost", not "${type}"` });
}

/** A user or group ID: util validation.go:316-339 (IsValidUserID / IsValidGroupID: 0 to MaxInt32). */
function checkId(out: Out, field: string, value: unknown, what: string): void {
  if (int(value) && (value < 0 || value > INT32_MAX))
    out.push({ field, value, allowed: `a ${what} from 0 to ${INT32_MAX}` });
}

const FS_GROUP_CHANGE_POLICIES = ["Always", "OnRootMismatch"]; // core validation.go:4021
const SUPPLEMENTAL_GROUPS_POLICIES = ["Merge", "Strict"]; // core validation.go:9077
const SYSCTL_NAME = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/; // core validation.go:5322-5331

/**
 * The pod's `securityContext` (core validation.go:5405-5451, validatePodSpecSecurityContext). Pass the chart's
 * default merged with the user's values: a seccompProfile.localhostProfile given alone meets the chart's default
 * type (RuntimeDefault since chart 1.5).
 */
export function podSecurityContextProblems(sc: unknown, field: string): ObjectValueProblem[] {
  const out: Out = [];
  if (!map(sc)) return out;
  checkId(out, `${field}.fsGroup`, sc.fsGroup, "group ID"); // :5409-5413
  checkId(out, `${field}.runAsUser`, sc.runAsUser, "user ID"); // :5414-5418
  checkId(out, `${field}.runAsGroup`, sc.runAsGroup, "group ID"); // :5419-5423
  if (list(sc.supplementalGroups))
    sc.supplementalGroups.forEach((g, i) => checkId(out, at(`${field}.supplementalGroups`, i), g, "group ID")); // :5424-5428
  // :5433-5435 → :5346-5364 (validateSysctls): a name, of sysctl form, not repeated
  if (list(sc.sysctls)) {
    const seen = new Set<string>();
    sc.sysctls.forEach((s, i) => {
      if (!map(s)) return;
      const f = `${at(`${field}.sysctls`, i)}.name`;
      if (!set(s.name) || s.name === "") out.push({ field: f, value: s.name, allowed: "a sysctl name (required)" });
      else if (str(s.name) && (s.name.length > 253 || !SYSCTL_NAME.test(s.name)))
        out.push({
          field: f,
          value: s.name,
          allowed:
            'a sysctl name: dot- or slash-separated lowercase segments, e.g. "net.core.somaxconn", at most 253 characters',
        });
      else if (str(s.name) && seen.has(s.name))
        out.push({ field: f, value: s.name, allowed: "a sysctl not already set" });
      if (str(s.name)) seen.add(s.name);
    });
  }
  // :5437-5439 → :4023-4029
  if (str(sc.fsGroupChangePolicy) && !FS_GROUP_CHANGE_POLICIES.includes(sc.fsGroupChangePolicy))
    out.push({
      field: `${field}.fsGroupChangePolicy`,
      value: sc.fsGroupChangePolicy,
      allowed: enumText(FS_GROUP_CHANGE_POLICIES),
    });
  seccompProblems(out, `${field}.seccompProfile`, sc.seccompProfile); // :5441
  appArmorProblems(out, `${field}.appArmorProfile`, sc.appArmorProfile); // :5443
  // :5445-5447 → :9079-9085
  if (str(sc.supplementalGroupsPolicy) && !SUPPLEMENTAL_GROUPS_POLICIES.includes(sc.supplementalGroupsPolicy))
    out.push({
      field: `${field}.supplementalGroupsPolicy`,
      value: sc.supplementalGroupsPolicy,
      allowed: enumText(SUPPLEMENTAL_GROUPS_POLICIES),
    });
  return out;
}

/**
 * The controller container's `securityContext` parts the chart renders from `controller.securityContext`
 * (appArmorProfile, seccompProfile; an empty map is not rendered): core validation.go:8087 and :8103
 * (ValidateSecurityContext).
 */
export function containerSecurityContextProblems(sc: unknown, field: string): ObjectValueProblem[] {
  const out: Out = [];
  if (!map(sc)) return out;
  if (map(sc.seccompProfile) && Object.keys(sc.seccompProfile).length > 0)
    seccompProblems(out, `${field}.seccompProfile`, sc.seccompProfile);
  if (map(sc.appArmorProfile) && Object.keys(sc.appArmorProfile).length > 0)
    appArmorProblems(out, `${field}.appArmorProfile`, sc.appArmorProfile);
  return out;
}

/**
 * ClusterRole rules (the chart appends `additionalClusterRoleRules` to its ClusterRole's): rbac
 * validation.go:103-124 (ValidatePolicyRule, isNamespaced false for a ClusterRole, :67).
 */
export function policyRuleProblems(rules: unknown, field: string): ObjectValueProblem[] {
  const out: Out = [];
  if (!list(rules)) return out;
  rules.forEach((r, i) => {
    if (!map(r)) return;
    const f = at(field, i);
    const n = (k: string) => length(r[k]);
    // :105-107
    if (n("verbs") === 0)
      out.push({ field: `${f}.verbs`, value: r.verbs, allowed: 'at least one verb, e.g. ["get", "list", "watch"]' });
    const urls = n("nonResourceURLs");
    if (urls === undefined) return;
    if (urls > 0) {
      // :109-116: either resources or non-resource URLs
      if ((n("apiGroups") ?? 0) > 0 || (n("resources") ?? 0) > 0 || (n("resourceNames") ?? 0) > 0)
        out.push({
          field: `${f}.nonResourceURLs`,
          value: r.nonResourceURLs,
          allowed:
            "non-resource URLs in a rule without apiGroups, resources and resourceNames (a rule covers resources or URLs, not both)",
        });
      return;
    }
    // :118-123
    if (n("apiGroups") === 0)
      out.push({
        field: `${f}.apiGroups`,
        value: r.apiGroups,
        allowed: 'at least one API group ("" is the core group)',
      });
    if (n("resources") === 0)
      out.push({
        field: `${f}.resources`,
        value: r.resources,
        allowed: 'at least one resource, e.g. ["pods"] ("*" for all)',
      });
  });
  return out;
}
