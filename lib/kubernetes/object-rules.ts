import { isPlainMap } from "../core/deep-merge";
import {
  holdsToken,
  isDns1123Label,
  isDns1123Subdomain,
  isLabelValue,
  parseQuantity,
  qualifiedNameProblem,
} from "./value-rules";

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

/**
 * What the matchLabelKeys rules read beyond the value: at pod creation the API server merges `key In (the pod's
 * value)` into the selector for each matchLabelKeys key the pod carries as a label, then validates the pod, so a
 * key the selector already names is refused only on pods that carry it.
 */
export interface PodLabelContext {
  /** Every label key of the chart's pods: the selector labels, `values.podLabels`, and `pod-template-hash` (set by the Deployment controller). */
  readonly podLabelKeys: readonly string[];
  /** The cluster's Kubernetes minor (34 for 1.34) when known at synth; undefined when not. */
  readonly kubernetesMinor?: number;
  /** Receives a warning where the outcome depends on a Kubernetes version synth does not know. */
  readonly warnings?: string[];
}

/** The chart's labelSelector for a term or constraint without the key (_helpers.tpl:100-105 of 1.15.0, patchLabelSelector). */
export const CHART_SELECTOR_KEYS: readonly string[] = ["app.kubernetes.io/name", "app.kubernetes.io/instance"]; // selectorLabels, :51-54

/** The keys a literal label selector names (matchLabels keys, matchExpressions keys); undefined for a token. */
function selectorKeys(selector: unknown): string[] | undefined {
  if (!map(selector)) return undefined;
  const keys = map(selector.matchLabels) ? Object.keys(selector.matchLabels) : [];
  if (list(selector.matchExpressions))
    for (const e of selector.matchExpressions) if (map(e) && str(e.key)) keys.push(e.key);
  return keys;
}

/**
 * matchLabelKeys against the selector the API server sees, as the chart renders it: a term or constraint without
 * a `labelSelector` key gets the chart's (patchLabelSelector, `hasKey`: an explicit null stays null). Sources:
 * k8s.io/kubernetes@v1.36.3 pkg/apis/core/validation/validation.go (same code at v1.34.2 :8437-8495, :8559-8654).
 * - A null selector: refused on every version, by the legacy check (:9036-9039, ValidateMatchLabelKeysInTopologySpread)
 *   and by the preferred one (:9057-9060, validateLabelKeys) alike.
 * - A key also in the selector, the pod carrying it as a label: refused on every version. Where the legacy check
 *   runs it refuses the Deployment (:9040-9046); where the preferred one runs the Deployment passes, but pod
 *   creation merges `key In (value)` (pkg/registry/core/pod/strategy.go:860-870, :908-924 topology spread, :876-905
 *   affinity), and the preferred check then finds the key twice (:8993-9006): the ReplicaSet creates no pod.
 * - A key also in the selector the pod does not carry: only the legacy check refuses it. Topology spread runs the
 *   legacy check unless MatchLabelKeysInPodTopologySpreadSelectorMerge is on (:8880-8898), which is on by default
 *   from Kubernetes 1.34 (pkg/features/kube_features.go:1668-1670 of v1.36.3, :1470-1472 of v1.34.2): refused up to
 *   1.33, a warning when the version is unknown. Pod affinity always runs the preferred check (:5167), so nothing.
 * Pod affinity merges only with MatchLabelKeysInPodAffinity, on by default from 1.31 (kube_features.go:1657-1661).
 */
function matchLabelKeysProblems(
  out: Out,
  f: string,
  item: Record<string, unknown>,
  ctx: PodLabelContext | undefined,
  kind: "spread" | "affinity",
): void {
  const keys = item.matchLabelKeys;
  if (!list(keys) || keys.length === 0) return;
  const given = "labelSelector" in item;
  if (given && item.labelSelector === null) {
    out.push({
      field: `${f}.matchLabelKeys`,
      value: keys,
      allowed:
        "no matchLabelKeys where labelSelector is null: the chart adds its own selector only where the labelSelector key is absent, and the API server refuses matchLabelKeys without a selector (must not be specified when labelSelector is not set)",
    });
    return;
  }
  const inSelector = given ? selectorKeys(item.labelSelector) : CHART_SELECTOR_KEYS;
  if (inSelector === undefined || ctx === undefined) return;
  const whose = given
    ? "the labelSelector"
    : `the labelSelector the chart adds where none is given (matchLabels ${CHART_SELECTOR_KEYS.join(", ")})`;
  const minor = ctx.kubernetesMinor;
  keys.forEach((k, i) => {
    if (!str(k) || !inSelector.includes(k)) return;
    const field = at(`${f}.matchLabelKeys`, i);
    const mergeSince = kind === "spread" ? 34 : 31;
    if (ctx.podLabelKeys.includes(k)) {
      if (kind === "affinity" && minor !== undefined && minor < mergeSince) return;
      const how =
        kind === "spread"
          ? `up to Kubernetes 1.33 the API server refuses the Deployment (exists in both matchLabelKeys and labelSelector); from 1.34 it merges "${k} In (the pod's value)" into the selector at pod creation and refuses every pod, since the chart's pods carry the label ${k}`
          : `from Kubernetes 1.31 the API server merges "${k} In (the pod's value)" into the selector at pod creation and refuses every pod (exists in both matchLabelKeys and labelSelector), since the chart's pods carry the label ${k}`;
      if (kind === "affinity" && minor === undefined) {
        ctx.warnings?.push(
          `${field} = ${JSON.stringify(k)} is also a key of ${whose}: ${how}. The cluster's Kubernetes version is not known at synth; drop the key from one of them`,
        );
        return;
      }
      out.push({ field, value: k, allowed: `a key not also in ${whose}: ${how}` });
      return;
    }
    if (kind === "affinity") return;
    const legacy = `up to Kubernetes 1.33 the API server refuses the Deployment (exists in both matchLabelKeys and labelSelector); from 1.34 (MatchLabelKeysInPodTopologySpreadSelectorMerge) it is accepted and, the pods not carrying the label ${k}, does nothing`;
    if (minor === undefined)
      ctx.warnings?.push(
        `${field} = ${JSON.stringify(k)} is also a key of ${whose}: ${legacy}. The cluster's Kubernetes version is not known at synth; drop the key from matchLabelKeys`,
      );
    else if (minor < mergeSince)
      out.push({ field, value: k, allowed: `a key not also in ${whose} on Kubernetes 1.${minor}: ${legacy}` });
  });
}

/** A PodAffinityTerm: core validation.go:5030-5044 (the chart adds a labelSelector where none is set, _helpers.tpl patchPodAffinity). */
function podAffinityTermProblems(out: Out, f: string, term: unknown, ctx?: PodLabelContext): void {
  if (!map(term)) return;
  matchLabelKeysProblems(out, f, term, ctx, "affinity");
  // :5167 → :9057-9060 (validateLabelKeys): mismatchLabelKeys need a selector too; null stays null (patchLabelSelector's hasKey)
  if (term.labelSelector === null && list(term.mismatchLabelKeys) && term.mismatchLabelKeys.length > 0)
    out.push({
      field: `${f}.mismatchLabelKeys`,
      value: term.mismatchLabelKeys,
      allowed:
        "no mismatchLabelKeys where labelSelector is null: the chart adds its own selector only where the labelSelector key is absent, and the API server refuses mismatchLabelKeys without a selector (must not be specified when labelSelector is not set)",
    });
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
function podAffinityProblems(out: Out, f: string, pa: unknown, ctx?: PodLabelContext): void {
  if (!map(pa)) return;
  const req = pa.requiredDuringSchedulingIgnoredDuringExecution;
  if (list(req))
    req.forEach((t, i) =>
      podAffinityTermProblems(out, at(`${f}.requiredDuringSchedulingIgnoredDuringExecution`, i), t, ctx),
    );
  const pref = pa.preferredDuringSchedulingIgnoredDuringExecution;
  if (list(pref))
    pref.forEach((w, i) => {
      if (!map(w)) return;
      const g = at(`${f}.preferredDuringSchedulingIgnoredDuringExecution`, i);
      checkWeight(out, `${g}.weight`, w.weight);
      podAffinityTermProblems(out, `${g}.podAffinityTerm`, w.podAffinityTerm ?? {}, ctx);
    });
}

/**
 * Required node selector terms with no requirement: `{}`, or only empty (or null) matchExpressions and matchFields.
 * The API server accepts them (validation.go:4912-4925 asks for a term, not for a requirement in it), but "a null or
 * empty node selector term matches no objects" (k8s.io/api@v0.36.3 core/v1/types.go:3781), and the scheduler leaves
 * such a term out (k8s.io/component-helpers@v0.36.3 scheduling/corev1/nodeaffinity/nodeaffinity.go:60-64 and 152-154,
 * isEmptyNodeSelectorTerm). The terms are ORed (types.go:3776): when every term is empty no node matches and the
 * controller pods stay Pending, so it is refused; an empty term beside a real one changes nothing, so a warning. A
 * term holding a token, and a null item (another rule's), are not judged.
 */
function emptyNodeSelectorTerms(out: Out, rf: string, terms: unknown[], ctx?: PodLabelContext): void {
  const empty = terms
    .map((t, i) => (map(t) && length(t.matchExpressions) === 0 && length(t.matchFields) === 0 ? i : -1))
    .filter((i) => i >= 0);
  if (empty.length === 0) return;
  const why =
    'an empty node selector term (no matchExpressions or matchFields requirement) matches no node: "A null or empty node selector term matches no objects" (k8s.io/api@v0.36.3 core/v1/types.go:3781; the scheduler skips it, k8s.io/component-helpers@v0.36.3 scheduling/corev1/nodeaffinity/nodeaffinity.go:60-64)';
  if (empty.length === terms.length)
    out.push({
      field: rf,
      value: terms,
      allowed: `at least one node selector term with a requirement: ${why}, and every required term here is empty, so no node matches and the controller pods never schedule (the API server accepts it)`,
    });
  else
    for (const i of empty)
      ctx?.warnings?.push(
        `${at(rf, i)} is an empty term: ${why}. The terms are ORed, so the other terms alone decide where the controller runs; remove the empty one`,
      );
}

/**
 * The pod's `affinity` (core validation.go:4169 validateAffinity): node affinity (:5087-5101: required node selector
 * :4912-4925, preferred terms :5014-5027), pod affinity and anti-affinity. Pass the values as given: the chart's
 * default affinity is valid, and a list given replaces the default's.
 * @param ctx the pod's labels and the cluster's Kubernetes version, for matchLabelKeys (see PodLabelContext)
 */
export function affinityProblems(affinity: unknown, field: string, ctx?: PodLabelContext): ObjectValueProblem[] {
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
      if (list(terms)) emptyNodeSelectorTerms(out, rf, terms, ctx);
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
  podAffinityProblems(out, `${field}.podAffinity`, affinity.podAffinity, ctx);
  podAffinityProblems(out, `${field}.podAntiAffinity`, affinity.podAntiAffinity, ctx);
  return out;
}

const WHEN_UNSATISFIABLE = ["DoNotSchedule", "ScheduleAnyway"]; // core validation.go:8433 (supportedScheduleActions)
const NODE_INCLUSION_POLICIES = ["Honor", "Ignore"]; // core validation.go:8540-8541

/**
 * The pod's `topologySpreadConstraints`: core validation.go:8437-8495 (validateTopologySpreadConstraints). The
 * chart adds a labelSelector of the pod's selector labels to a constraint without one (_helpers.tpl
 * patchTopologySpreadConstraints), so only a given selector is judged.
 * @param ctx the pod's labels and the cluster's Kubernetes version, for matchLabelKeys (see PodLabelContext)
 */
export function topologySpreadProblems(
  constraints: unknown,
  field: string,
  ctx?: PodLabelContext,
): ObjectValueProblem[] {
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
    matchLabelKeysProblems(out, f, c, ctx, "spread");
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
 * A pod-level `windowsOptions.hostProcess: true` makes every container a HostProcess container, and then the pod must
 * use the host's network: core36 :8637-8691 (validateWindowsHostProcessPod, the message at :8689). The chart writes `hostNetwork: true`
 * only when values.hostNetwork is truthy (templates/deployment.yaml:58-59 of 1.15.0).
 */
export function hostProcessProblems(podSc: unknown, hostNetwork: unknown, field: string): ObjectValueProblem[] {
  if (!map(podSc) || !map(podSc.windowsOptions) || podSc.windowsOptions.hostProcess !== true) return [];
  if (
    hostNetwork !== undefined &&
    hostNetwork !== null &&
    hostNetwork !== false &&
    hostNetwork !== "" &&
    hostNetwork !== 0
  )
    return [];
  return [
    {
      field: `${field}.windowsOptions.hostProcess`,
      value: true,
      allowed:
        "unset or false unless values.hostNetwork is true (a pod of HostProcess containers uses the host's network)",
    },
  ];
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

/*
 * The pod's volumes, containers and env references the chart renders from `extraVolumes`, `initContainers`,
 * `controller.sidecarContainer`, `controller.extraVolumeMounts` / `sidecarVolumeMounts`, `controller.env` / `envFrom`.
 * Sources: k8s.io/kubernetes@v1.36.3 pkg/apis/core/validation/validation.go (`core36`), its core/v1 defaulting
 * pkg/apis/core/v1/defaults.go (`defaults36`), and k8s.io/apimachinery@v0.36.3 pkg/util/validation/validation.go
 * (`util36`), file:line.
 */

const LABEL_TEXT =
  "a DNS-1123 label: 1 to 63 lower-case letters, digits and '-', starting and ending with a letter or digit";
const SUBDOMAIN_TEXT =
  "a DNS-1123 subdomain: 1 to 253 lower-case letters, digits, '-' and '.', starting and ending with a letter or digit";

/** The sources of a core/v1 VolumeSource, in the order core36 :545-805 counts them (the second one set is reported). */
const VOLUME_SOURCES = [
  "emptyDir",
  "hostPath",
  "gitRepo",
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "secret",
  "nfs",
  "iscsi",
  "glusterfs",
  "flocker",
  "persistentVolumeClaim",
  "rbd",
  "cinder",
  "cephfs",
  "quobyte",
  "downwardAPI",
  "fc",
  "flexVolume",
  "configMap",
  "azureFile",
  "vsphereVolume",
  "photonPersistentDisk",
  "portworxVolume",
  "azureDisk",
  "storageos",
  "projected",
  "scaleIO",
  "csi",
  "ephemeral",
  "image",
];

// core36 :1375-1383 (supportedHostPathTypes; "" is HostPathUnset)
const HOST_PATH_TYPES = [
  "",
  "DirectoryOrCreate",
  "Directory",
  "FileOrCreate",
  "File",
  "Socket",
  "CharDevice",
  "BlockDevice",
];

/** A file mode: core36 :81 (fileModeErrorMsg), :971-973, :990-992, :1012-1013, :1131-1132, :1141-1143, :1366-1368. */
function checkMode(out: Out, field: string, value: unknown): void {
  if (int(value) && (value < 0 || value > 0o777))
    out.push({
      field,
      value,
      allowed: "a file mode from 0 to 0777 octal (511 decimal; YAML 0644 is octal, JSON takes decimal 420)",
    });
}

/** The items' modes of a configMap / secret / downwardAPI source (core36 :1003-1016 validateKeyToPath, :1114-1135). */
function checkItemModes(out: Out, f: string, src: Record<string, unknown>): void {
  if (list(src.items)) src.items.forEach((it, i) => map(it) && checkMode(out, `${at(`${f}.items`, i)}.mode`, it.mode));
}

/**
 * `extraVolumes`, the pod's only volumes (no chart release renders a volume of its own: templates/deployment.yaml
 * `volumes:` holds `toYaml .Values.extraVolumes` alone, 1.15.0 :286-291). core36 :446-480 (ValidateVolumes): a name,
 * a DNS-1123 label, not repeated; at most one source (:545-805; none is defaulted to emptyDir, defaults36 :66-71);
 * hostPath.type one of the supported types (:809-819, :1385-1392); modes within 0..0777.
 */
export function volumeProblems(volumes: unknown, field: string): ObjectValueProblem[] {
  const out: Out = [];
  if (!list(volumes)) return out;
  const seen = new Set<string>();
  volumes.forEach((v, i) => {
    if (!map(v)) return;
    const f = at(field, i);
    if (!set(v.name) || v.name === "")
      out.push({ field: `${f}.name`, value: v.name, allowed: `a volume name (required), ${LABEL_TEXT}` });
    else if (str(v.name)) {
      if (!isDns1123Label(v.name))
        out.push({ field: `${f}.name`, value: v.name, allowed: `a volume name, ${LABEL_TEXT}` });
      else if (seen.has(v.name))
        out.push({
          field: `${f}.name`,
          value: v.name,
          allowed: "a volume name not already used by another volume of the pod",
        });
      seen.add(v.name);
    }
    const sources = VOLUME_SOURCES.filter((s) => set(v[s]));
    // only the first source set is validated (core36 :545-805: each later one is refused as a second source)
    if (sources.length > 0 && map(v[sources[0]]))
      sourceProblems(out, `${f}.${sources[0]}`, sources[0], v[sources[0]] as Record<string, unknown>);
    if (sources.length > 1)
      out.push({
        field: `${f}.${sources[1]}`,
        value: sources.join(", "),
        allowed: `one volume source per volume; this one sets ${sources.join(" and ")}`,
      });
    // core36 :549-552: a negative emptyDir sizeLimit (a quantity the chart writes as given)
    if (
      map(v.emptyDir) &&
      str(v.emptyDir.sizeLimit) &&
      /^\s*-/.test(v.emptyDir.sizeLimit) &&
      !/^-0*(\.0*)?[a-zA-Z]*$/.test(v.emptyDir.sizeLimit.trim())
    )
      out.push({
        field: `${f}.emptyDir.sizeLimit`,
        value: v.emptyDir.sizeLimit,
        allowed: 'a size of 0 or more, e.g. "1Gi"',
      });
    if (map(v.emptyDir) && int(v.emptyDir.sizeLimit) && v.emptyDir.sizeLimit < 0)
      out.push({
        field: `${f}.emptyDir.sizeLimit`,
        value: v.emptyDir.sizeLimit,
        allowed: 'a size of 0 or more, e.g. "1Gi"',
      });
    // the medium the API server does not judge (no rule in core36) but the kubelet refuses at mount: k8s.io/kubernetes
    // v1.36.3 pkg/volume/emptydir/empty_dir.go:267-276 ("unknown storage medium"), a HugePages-<size> medium's size
    // parsed as a quantity (:390-402, pkg/apis/core/v1/helper/helpers.go:117-126)
    if (map(v.emptyDir) && str(v.emptyDir.medium) && emptyDirMediumProblem(v.emptyDir.medium))
      out.push({
        field: `${f}.emptyDir.medium`,
        value: v.emptyDir.medium,
        allowed: `"" (the node's disk), "Memory", "HugePages" or "HugePages-<page size>" such as "HugePages-2Mi" (case-sensitive): the API server accepts ${JSON.stringify(v.emptyDir.medium)}, but the kubelet refuses to mount the volume (${emptyDirMediumProblem(v.emptyDir.medium)}), so the controller pod never starts`,
      });
    const hp = v.hostPath;
    if (map(hp) && str(hp.type) && !HOST_PATH_TYPES.includes(hp.type))
      out.push({ field: `${f}.hostPath.type`, value: hp.type, allowed: enumText(HOST_PATH_TYPES) });
    for (const s of ["configMap", "secret", "downwardAPI", "projected"]) {
      const src = v[s];
      if (!map(src)) continue;
      checkMode(out, `${f}.${s}.defaultMode`, src.defaultMode);
      checkItemModes(out, `${f}.${s}`, src);
    }
    // projected sources: core36 :1152-1361 (each source's items as validateKeyToPath / downward API files)
    if (map(v.projected) && list(v.projected.sources))
      v.projected.sources.forEach((ps, j) => {
        if (!map(ps)) return;
        const sat = ps.serviceAccountToken;
        // core36 :1211-1216: expirationSeconds (defaulted to 3600, defaults36) from 600 to 2^32
        if (map(sat) && int(sat.expirationSeconds) && (sat.expirationSeconds < 600 || sat.expirationSeconds > 2 ** 32))
          out.push({
            field: `${at(`${f}.projected.sources`, j)}.serviceAccountToken.expirationSeconds`,
            value: sat.expirationSeconds,
            allowed: "a token lifetime from 600 seconds (10 minutes) to 4294967296 (2^32), or unset for 3600",
          });
        for (const s of ["configMap", "secret", "downwardAPI"])
          if (map(ps[s]))
            checkItemModes(out, `${at(`${f}.projected.sources`, j)}.${s}`, ps[s] as Record<string, unknown>);
      });
  });
  return out;
}

/**
 * The huge page sizes an emptyDir HugePages medium needs from the pod's containers: the kubelet mounts the volume with
 * the page size the containers request (k8s.io/kubernetes v1.36.3 pkg/volume/emptydir/empty_dir.go:390-445,
 * getPageSizeMountOption; a Pod's requests default to its limits, pkg/apis/core/v1/defaults.go SetDefaults_Pod), and
 * refuses to mount it when none requests huge pages of that size, or, for "HugePages", when they request several sizes.
 * The API server has no rule for it. Not judged when a container's resources are not known at synth.
 * @param resources every container's `resources` as rendered (the chart's own, the sidecars', the init containers')
 */
export function hugePageMediumProblems(
  volumes: unknown,
  field: string,
  resources: readonly unknown[],
): ObjectValueProblem[] {
  const out: Out = [];
  if (!list(volumes)) return out;
  const sizes = new Set<number>();
  for (const r of resources) {
    if (!set(r)) continue;
    if (!map(r)) return out;
    for (const side of ["requests", "limits"]) {
      const q = r[side];
      if (!set(q)) continue;
      if (!map(q)) return out;
      for (const [name, value] of Object.entries(q)) {
        if (holdsToken(name)) return out;
        if (!name.startsWith("hugepages-") || !set(value)) continue;
        const size = parseQuantity(name.slice("hugepages-".length));
        if (size !== undefined) sizes.add(size);
      }
    }
  }
  volumes.forEach((v, i) => {
    if (!map(v) || !map(v.emptyDir) || !str(v.emptyDir.medium)) return;
    const medium = v.emptyDir.medium;
    if (!medium.startsWith("HugePages") || emptyDirMediumProblem(medium)) return;
    const size = medium === "HugePages" ? undefined : parseQuantity(medium.slice("HugePages-".length));
    const why =
      medium === "HugePages"
        ? sizes.size === 0
          ? "no container of the pod requests huge pages"
          : sizes.size > 1
            ? "the containers request several huge page sizes, so the medium must name one (HugePages-<size>)"
            : undefined
        : size !== undefined && !sizes.has(size)
          ? `no container of the pod requests huge pages of ${medium.slice("HugePages-".length)} (hugepages-${medium.slice("HugePages-".length)})`
          : undefined;
    if (why)
      out.push({
        field: `${at(field, i)}.emptyDir.medium`,
        value: medium,
        allowed: `a medium whose huge pages a container of the pod requests (resources hugepages-<size>, e.g. with "HugePages-2Mi" a request or limit hugepages-2Mi), or "" or "Memory": the API server accepts ${JSON.stringify(medium)}, but the kubelet refuses to mount the volume (${why}), so the controller pod never starts`,
      });
  });
  return out;
}

/** What the kubelet says of an emptyDir medium it cannot mount (empty_dir.go:267-276, :395-401), or undefined. */
function emptyDirMediumProblem(medium: string): string | undefined {
  if (medium === "" || medium === "Memory" || medium === "HugePages") return undefined;
  if (!medium.startsWith("HugePages-")) return `unknown storage medium ${JSON.stringify(medium)}`;
  const size = medium.slice("HugePages-".length);
  return parseQuantity(size) === undefined ? `the page size ${JSON.stringify(size)} is not a quantity` : undefined;
}

// core36 :1107-1112 (validVolumeDownwardAPIFieldPathExpressions): the fields a downwardAPI volume file may hold
const VOLUME_FIELD_PATHS = [
  "metadata.name",
  "metadata.namespace",
  "metadata.labels",
  "metadata.annotations",
  "metadata.uid",
];

/** A required string field: missing, null or "" (Go's len() == 0 after decoding). */
function missing(v: unknown): boolean {
  return !set(v) || v === "";
}

/**
 * A file path inside a volume (an item's `path`, a projected token's `path`): core36 :1487-1495
 * (ValidateLocalNonReservedPath) → :1398-1408 (validateLocalDescendingPath) and :1413-1424 (validatePathNoBacksteps):
 * relative, no ".." element, not starting with "..".
 */
function localPathProblem(p: string): string | undefined {
  if (p.startsWith("/")) return "a relative path inside the volume (not starting with '/')";
  if (p.split("/").includes("..")) return "a path inside the volume without a '..' element";
  if (p.startsWith(".."))
    return "a path inside the volume not starting with '..' (kept for the kubelet's own ..data links)";
  return undefined;
}

/** A required item path (configMap / secret items, downwardAPI files, a projected token): required, then local. */
function checkItemPath(out: Out, field: string, value: unknown, what: string): void {
  if (missing(value)) out.push({ field, value, allowed: `${what} (required), a relative path such as "config.yaml"` });
  else if (str(value)) {
    const why = localPathProblem(value);
    if (why) out.push({ field, value, allowed: why });
  }
}

/** configMap / secret items: core36 :1003-1017 (validateKeyToPath): a key and a path, both required. */
function keyToPathProblems(out: Out, f: string, items: unknown, paths?: Map<string, string>): void {
  if (!list(items)) return;
  items.forEach((it, i) => {
    if (!map(it)) return;
    const g = at(`${f}.items`, i);
    if (missing(it.key)) out.push({ field: `${g}.key`, value: it.key, allowed: "the key to project (required)" });
    checkItemPath(out, `${g}.path`, it.path, "the file's path in the volume");
    if (paths && str(it.path)) notePath(out, paths, `${g}.path`, it.path);
  });
}

/** A projected volume's file paths must not repeat across its sources (core36 :1168-1174, :1186-1192, :1199-1205). */
function notePath(out: Out, paths: Map<string, string>, field: string, p: string): void {
  if (p === "") return;
  const first = paths.get(p);
  if (first !== undefined)
    out.push({
      field,
      value: p,
      allowed: `a path not already written by another source of the projected volume (${first}): "conflicting duplicate paths"`,
    });
  else paths.set(p, field);
}

/** downwardAPI files: core36 :1114-1136 (validateDownwardAPIVolumeFile): a path, exactly one of fieldRef and resourceFieldRef. */
function downwardFileProblems(out: Out, f: string, items: unknown, paths?: Map<string, string>): void {
  if (!list(items)) return;
  items.forEach((it, i) => {
    if (!map(it)) return;
    const g = at(`${f}.items`, i);
    checkItemPath(out, `${g}.path`, it.path, "the file's path in the volume");
    if (paths && str(it.path)) notePath(out, paths, `${g}.path`, it.path);
    const byField = set(it.fieldRef);
    const byResource = set(it.resourceFieldRef);
    if (byField && byResource)
      out.push({
        field: `${g}.resourceFieldRef`,
        value: it.resourceFieldRef,
        allowed: "either fieldRef or resourceFieldRef, not both",
      });
    else if (!byField && !byResource)
      out.push({
        field: `${g}.fieldRef`,
        value: it.fieldRef,
        allowed: "one of fieldRef and resourceFieldRef (required)",
      });
    if (map(it.fieldRef)) fieldRefProblems(out, `${g}.fieldRef`, it.fieldRef, VOLUME_FIELD_PATHS);
    // core36 :2887-2908 (validateContainerResourceFieldSelector with volume=true): a volume names its container
    const rf = it.resourceFieldRef;
    if (!byField && map(rf)) {
      if (missing(rf.containerName))
        out.push({
          field: `${g}.resourceFieldRef.containerName`,
          value: rf.containerName,
          allowed: "the container whose resource to write (required in a volume, unlike an env var)",
        });
      else resourceFieldProblems(out, `${g}.resourceFieldRef`, rf);
    }
  });
}

/**
 * The rules of the volume's (first) source: core36 :809-819 hostPath (a path, no ".." element), :965-982 secret
 * (secretName), :984-1001 configMap (name), :1003-1017 their items, :1019-1025 persistentVolumeClaim (claimName),
 * :1027-1040 nfs (server, an absolute path), :1114-1150 downwardAPI, :1152-1361 projected (each source's name and
 * items, the token's path, no path written twice), :1810-1838 and :1864-1879 csi (the driver: at most 63
 * characters, a DNS-1123 subdomain in lower case), :1881-1890 ephemeral (volumeClaimTemplate), :9653-9660 image
 * (reference).
 */
function sourceProblems(out: Out, f: string, source: string, src: Record<string, unknown>): void {
  /** A field the source requires: missing, null or "" is refused with `what (required)`. */
  const need = (key: string, what: string, why = "") => {
    if (missing(src[key]))
      out.push({ field: `${f}.${key}`, value: src[key], allowed: `${what} (required)${why && `: ${why}`}` });
  };
  // a Secret, ConfigMap or PersistentVolumeClaim name no such object can have (a DNS-1123 subdomain: core36
  // ValidateSecretName / ValidateConfigMapName NameIsDNSSubdomain): the API server takes the pod, but the volume never
  // mounts and the pod stays ContainerCreating, unless the source is optional
  const named = (key: string, kind: string) => {
    const v = src[key];
    if (str(v) && v !== "" && !isDns1123Subdomain(v) && src.optional !== true)
      out.push({
        field: `${f}.${key}`,
        value: v,
        allowed: `a ${kind} name, ${SUBDOMAIN_TEXT}: no ${kind} can be named ${JSON.stringify(v)} (k8s.io/kubernetes v1.36.3 pkg/apis/core/validation/validation.go, Validate${kind}Name: NameIsDNSSubdomain), so the volume never mounts and the pod stays ContainerCreating`,
      });
  };
  switch (source) {
    case "hostPath":
      need("path", 'the path on the node, e.g. "/var/log"');
      if (str(src.path) && src.path.split("/").includes(".."))
        out.push({ field: `${f}.path`, value: src.path, allowed: "a path on the node without a '..' element" });
      return;
    case "secret":
      need("secretName", "the Secret's name");
      named("secretName", "Secret");
      keyToPathProblems(out, f, src.items);
      return;
    case "configMap":
      need("name", "the ConfigMap's name");
      named("name", "ConfigMap");
      keyToPathProblems(out, f, src.items);
      return;
    case "persistentVolumeClaim":
      need("claimName", "the PersistentVolumeClaim's name");
      return;
    case "nfs":
      need("server", "the NFS server's host name or IP address");
      need("path", 'the exported path, absolute, e.g. "/exports/logs"');
      if (str(src.path) && src.path !== "" && !src.path.startsWith("/"))
        out.push({ field: `${f}.path`, value: src.path, allowed: 'an absolute exported path, e.g. "/exports/logs"' });
      return;
    case "downwardAPI":
      downwardFileProblems(out, f, src.items);
      return;
    case "projected": {
      if (!list(src.sources)) return;
      const paths = new Map<string, string>();
      src.sources.forEach((ps, j) => {
        if (!map(ps)) return;
        const g = at(`${f}.sources`, j);
        for (const kind of ["secret", "configMap"]) {
          const one = ps[kind];
          if (!map(one)) continue;
          if (missing(one.name))
            out.push({
              field: `${g}.${kind}.name`,
              value: one.name,
              allowed: `the ${kind === "secret" ? "Secret" : "ConfigMap"}'s name (required)`,
            });
          keyToPathProblems(out, `${g}.${kind}`, one.items, paths);
        }
        if (map(ps.downwardAPI)) downwardFileProblems(out, `${g}.downwardAPI`, ps.downwardAPI.items, paths);
        if (map(ps.serviceAccountToken))
          checkItemPath(
            out,
            `${g}.serviceAccountToken.path`,
            ps.serviceAccountToken.path,
            "the token's path in the volume",
          );
        const kinds = [
          "secret",
          "configMap",
          "downwardAPI",
          "serviceAccountToken",
          "clusterTrustBundle",
          "podCertificate",
        ].filter((k) => set(ps[k]));
        if (kinds.length > 1)
          out.push({
            field: `${g}.${kinds[1]}`,
            value: kinds.join(", "),
            allowed: `one source per item of projected.sources; this one sets ${kinds.join(" and ")}`,
          }); // :1356-1358
      });
      return;
    }
    case "csi":
      need("driver", 'the CSI driver\'s name, e.g. "efs.csi.aws.com"');
      if (
        str(src.driver) &&
        src.driver !== "" &&
        (src.driver.length > 63 || !isDns1123Subdomain(src.driver.toLowerCase()))
      )
        out.push({
          field: `${f}.driver`,
          value: src.driver,
          allowed:
            "a CSI driver name: at most 63 characters, a DNS-1123 subdomain (letters, digits, '-' and '.', starting and ending with a letter or digit; case is ignored)",
        });
      return;
    case "ephemeral":
      if (!set(src.volumeClaimTemplate))
        out.push({
          field: `${f}.volumeClaimTemplate`,
          value: src.volumeClaimTemplate,
          allowed: "the PersistentVolumeClaim template (required)",
        });
      else if (map(src.volumeClaimTemplate))
        claimTemplateProblems(out, `${f}.volumeClaimTemplate`, src.volumeClaimTemplate);
      return;
    case "image":
      need(
        "reference",
        'the image (or artifact) reference, e.g. "public.ecr.aws/org/data:1.0"',
        "the API server accepts the Deployment without it but refuses each Pod the Deployment's ReplicaSet creates (core36 :9655, ResourceIsPod), so no controller pod ever starts",
      );
      // core36 :9657 → :3605-3618 (validatePullPolicy), for the Deployment too; "" is defaulted from the reference's
      // tag (defaults36 :72-80, ImageVolume on by default from 1.35, pkg/features/kube_features.go:1518-1521)
      if (str(src.pullPolicy) && src.pullPolicy !== "" && !PULL_POLICIES.includes(src.pullPolicy))
        out.push({
          field: `${f}.pullPolicy`,
          value: src.pullPolicy,
          allowed: `${enumText(PULL_POLICIES)}, or unset (then "Always" for a :latest tag, else "IfNotPresent")`,
        });
      return;
  }
}

// core36 :1929-1933 (supportedAccessModes), :1940 (supportedVolumeModes)
const ACCESS_MODES = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];
const VOLUME_MODES = ["Block", "Filesystem"];
// the metadata fields of a claim template other than labels and annotations (metav1.ObjectMeta's JSON names)
const TEMPLATE_META_FORBIDDEN = [
  "name",
  "generateName",
  "namespace",
  "selfLink",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "ownerReferences",
  "finalizers",
  "managedFields",
];

/**
 * A value Go's reflect.DeepEqual finds different from its field's zero value after decoding (core36 :3792-3793): null,
 * "" and 0 decode to the zero value; an empty list or map decodes to an empty, non-nil one, which is not.
 */
function nonZero(v: unknown): boolean {
  if (!set(v) || holdsToken(v)) return false;
  return v !== "" && v !== 0 && v !== false;
}

/** A quantity as a number (negative allowed), undefined when not a literal quantity (the values' type checks report that). */
function quantityValue(v: unknown): number | undefined {
  if (typeof v === "number") return holdsToken(v) || !Number.isFinite(v) ? undefined : v;
  if (!str(v)) return undefined;
  const t = v.trim();
  if (t.startsWith("-")) {
    const n = parseQuantity(t.slice(1));
    return n === undefined ? undefined : -n;
  }
  return parseQuantity(t);
}

/** A TypedLocalObjectReference / TypedObjectReference of a claim: core36 :2397-2421 (validateDataSource), :2423-2452 (validateDataSourceRef). */
function dataSourceProblems(out: Out, f: string, ref: Record<string, unknown>, withNamespace: boolean): void {
  if (missing(ref.name))
    out.push({ field: `${f}.name`, value: ref.name, allowed: "the data source's name (required)" });
  if (missing(ref.kind))
    out.push({
      field: `${f}.kind`,
      value: ref.kind,
      allowed: 'the data source\'s kind (required), e.g. "VolumeSnapshot"',
    });
  const group = set(ref.apiGroup) ? ref.apiGroup : "";
  if (group === "" && str(ref.kind) && ref.kind !== "" && ref.kind !== "PersistentVolumeClaim")
    out.push({
      field: `${f}.kind`,
      value: ref.kind,
      allowed:
        '"PersistentVolumeClaim" when apiGroup is empty (the core group), or an apiGroup for another kind, e.g. "snapshot.storage.k8s.io" for a VolumeSnapshot',
    });
  if (str(group) && group !== "" && !isDns1123Subdomain(group))
    out.push({ field: `${f}.apiGroup`, value: group, allowed: `an API group, ${SUBDOMAIN_TEXT}` });
  if (withNamespace && str(ref.namespace) && ref.namespace !== "" && !isDns1123Label(ref.namespace))
    out.push({ field: `${f}.namespace`, value: ref.namespace, allowed: `a namespace name, ${LABEL_TEXT}` });
}

/**
 * An ephemeral volume's claim template: core36 :1894-1898 (ValidatePersistentVolumeClaimTemplate): its metadata only
 * labels and annotations (:1900-1915 ValidateTemplateObjectMeta, every other field "cannot be set"), label keys and
 * values, annotation keys (meta36 ValidateLabels, apimachinery ValidateAnnotations); its spec by :2455-2525
 * (ValidatePersistentVolumeClaimSpec): at least one access mode, each supported and ReadWriteOncePod alone, a storage
 * request above zero, a storageClassName and volumeAttributesClassName that are DNS-1123 subdomains (ValidateClassName,
 * VolumeAttributesClass GA in 1.34), volumeMode Block or Filesystem, the selector and data sources. A missing spec is
 * an empty one, so it is refused on accessModes and the storage request.
 */
function claimTemplateProblems(out: Out, f: string, t: Record<string, unknown>): void {
  const meta = t.metadata;
  if (map(meta)) {
    for (const k of TEMPLATE_META_FORBIDDEN)
      if (nonZero(meta[k]))
        out.push({
          field: `${f}.metadata.${k}`,
          value: meta[k],
          allowed:
            "unset: a claim template's metadata may hold only labels and annotations (the claim is named <pod>-<volume> in the pod's namespace)",
        });
    if (map(meta.labels))
      for (const [k, v] of Object.entries(meta.labels)) {
        if (holdsToken(k)) continue;
        checkQualifiedName(out, key(`${f}.metadata.labels`, k), k, "a label key");
        checkLabelValue(out, key(`${f}.metadata.labels`, k), v);
      }
    if (map(meta.annotations))
      for (const k of Object.keys(meta.annotations))
        if (!holdsToken(k))
          checkQualifiedName(out, key(`${f}.metadata.annotations`, k), k.toLowerCase(), "an annotation key");
  }
  const spec = set(t.spec) ? t.spec : {};
  if (!map(spec)) return;
  const s = `${f}.spec`;
  const modes = spec.accessModes;
  const count = length(modes);
  if (count === 0)
    out.push({
      field: `${s}.accessModes`,
      value: modes,
      allowed: 'at least one access mode (required), e.g. ["ReadWriteOnce"]',
    });
  if (list(modes)) {
    modes.forEach((m, i) => {
      if (str(m) && !ACCESS_MODES.includes(m))
        out.push({ field: at(`${s}.accessModes`, i), value: m, allowed: enumText(ACCESS_MODES) });
    });
    if (
      modes.includes("ReadWriteOncePod") &&
      modes.some((m) => str(m) && m !== "ReadWriteOncePod" && ACCESS_MODES.includes(m))
    )
      out.push({
        field: `${s}.accessModes`,
        value: modes,
        allowed: "ReadWriteOncePod alone: it may not be combined with other access modes",
      });
  }
  const resources = spec.resources;
  const requests = map(resources) ? resources.requests : undefined;
  const storage = map(requests) ? requests.storage : undefined;
  if (holdsToken(resources) || holdsToken(requests)) {
    // left for apply
  } else if (!set(storage))
    out.push({
      field: `${s}.resources.requests.storage`,
      value: storage,
      allowed: 'the size of the volume to claim (required), e.g. "1Gi"',
    });
  else {
    const n = quantityValue(storage);
    if (n !== undefined && n <= 0)
      out.push({
        field: `${s}.resources.requests.storage`,
        value: storage,
        allowed: 'a size above zero, e.g. "1Gi"',
      });
  }
  for (const k of ["storageClassName", "volumeAttributesClassName"]) {
    const v = spec[k];
    if (str(v) && v !== "" && !isDns1123Subdomain(v))
      out.push({ field: `${s}.${k}`, value: v, allowed: `a class name, ${SUBDOMAIN_TEXT}` });
  }
  if (str(spec.volumeMode) && !VOLUME_MODES.includes(spec.volumeMode))
    out.push({ field: `${s}.volumeMode`, value: spec.volumeMode, allowed: `${enumText(VOLUME_MODES)}, or unset` });
  out.push(...labelSelectorProblems(spec.selector, `${s}.selector`));
  if (map(spec.dataSource)) dataSourceProblems(out, `${s}.dataSource`, spec.dataSource, false);
  if (map(spec.dataSourceRef)) dataSourceProblems(out, `${s}.dataSourceRef`, spec.dataSourceRef, true);
  // core36 :2507-2517: with a namespaced dataSourceRef no dataSource; else, both given, the two name the same object
  // (:2527-2529 isDataSourceEqualDataSourceRef: apiGroup is a pointer there, so "" differs from unset)
  const ds = spec.dataSource;
  const ref = spec.dataSourceRef;
  if (map(ds) && map(ref)) {
    const text = (v: unknown, k: string) => (set(v) ? v : k === "apiGroup" ? undefined : "");
    if (str(ref.namespace) && ref.namespace !== "")
      out.push({
        field: `${s}.dataSource`,
        value: ds,
        allowed:
          "unset when dataSourceRef names a namespace (a cross-namespace source is given by dataSourceRef alone)",
      });
    else if (
      ["apiGroup", "kind", "name"].every((k) => !holdsToken(ds[k]) && !holdsToken(ref[k])) &&
      ["apiGroup", "kind", "name"].some((k) => text(ds[k], k) !== text(ref[k], k))
    )
      out.push({
        field: `${s}.dataSource`,
        value: ds,
        allowed: "the same apiGroup, kind and name as dataSourceRef when both are given (or only one of them)",
      });
  }
}

/** The volume names of the pod, or undefined when one is not known at synth (a token, a non-string): then no mount is judged. */
export function volumeNames(volumes: unknown): Set<string> | undefined {
  if (volumes === undefined || volumes === null) return new Set();
  if (!list(volumes)) return undefined;
  const names = new Set<string>();
  for (const v of volumes) {
    if (!map(v) || (set(v.name) && !str(v.name))) return undefined;
    if (str(v.name)) names.add(v.name);
  }
  return names;
}

/** One mount as rendered into a container, with the values field it came from. */
export interface RenderedMount {
  readonly mount: unknown;
  readonly field: string;
}

/**
 * One container's `volumeMounts` as rendered (several values lists can meet in one container): core36 :3098-3144
 * (ValidateVolumeMounts): the name a volume of the pod (:3105-3107), mountPath required (:3108-3110) and unique within
 * the container (:3111-3114), subPath / subPathExpr relative without ".." and not both (:3126-3136, :1398-1423),
 * mountPropagation one of the three and Bidirectional only in a privileged container (:3138-3140, :1430-1455),
 * recursiveReadOnly one of the three, Enabled / IfPossible only with readOnly and no propagation (:3141, :1457-1480).
 * A repeated mountPath is reported once, at the later mount.
 * @param privileged whether the container runs privileged (the chart's controller container never does)
 */
export function volumeMountProblems(
  mounts: readonly RenderedMount[],
  volumes: Set<string> | undefined,
  container: string,
  privileged = false,
): ObjectValueProblem[] {
  const out: Out = [];
  const paths = new Set<string>();
  for (const { mount: m, field: f } of mounts) {
    if (!map(m)) continue;
    if (volumes && str(m.name ?? "") && !volumes.has((m.name ?? "") as string))
      out.push({
        field: `${f}.name`,
        value: m.name,
        allowed: `the name of a volume of the pod (values.extraVolumes${volumes.size ? `: ${[...volumes].map((n) => JSON.stringify(n)).join(", ")}` : " has none"})`,
      });
    const path = set(m.mountPath) ? m.mountPath : "";
    if (path === "")
      out.push({ field: `${f}.mountPath`, value: m.mountPath, allowed: 'a mount path (required), e.g. "/cache"' });
    else if (str(path)) {
      if (paths.has(path))
        out.push({
          field: `${f}.mountPath`,
          value: path,
          allowed: `a mount path not already used in the ${container} container`,
        });
      paths.add(path);
    }
    mountFieldProblems(out, f, m, privileged);
  }
  return out;
}

const MOUNT_PROPAGATIONS = ["Bidirectional", "HostToContainer", "None"]; // core36 :1436-1439
const RECURSIVE_READ_ONLY = ["Disabled", "Enabled", "IfPossible"]; // core36 :1477-1480

/** A relative path inside the volume (validateLocalDescendingPath, core36 :1398-1423; ToSlash leaves '\\' alone on Linux). */
function descendingPathProblem(p: string): boolean {
  return p.startsWith("/") || p.split("/").includes("..");
}

/** One mount's own fields (see {@link volumeMountProblems}). */
function mountFieldProblems(out: Out, f: string, m: Record<string, unknown>, privileged: boolean): void {
  for (const key of ["subPath", "subPathExpr"])
    if (str(m[key]) && m[key] !== "" && descendingPathProblem(m[key] as string))
      out.push({
        field: `${f}.${key}`,
        value: m[key],
        allowed: 'a relative path inside the volume, without ".." elements',
      });
  if (str(m.subPath) && m.subPath !== "" && str(m.subPathExpr) && m.subPathExpr !== "")
    out.push({ field: `${f}.subPathExpr`, value: m.subPathExpr, allowed: "subPath or subPathExpr, not both" });
  const propagation = m.mountPropagation;
  if (str(propagation)) {
    if (!MOUNT_PROPAGATIONS.includes(propagation))
      out.push({ field: `${f}.mountPropagation`, value: propagation, allowed: enumText(MOUNT_PROPAGATIONS) });
    else if (propagation === "Bidirectional" && !privileged)
      out.push({
        field: `${f}.mountPropagation`,
        value: propagation,
        allowed:
          '"HostToContainer" or "None": Bidirectional mount propagation is available only to privileged containers, and this one is not',
      });
  }
  const rro = m.recursiveReadOnly;
  if (str(rro)) {
    if (!RECURSIVE_READ_ONLY.includes(rro))
      out.push({ field: `${f}.recursiveReadOnly`, value: rro, allowed: enumText(RECURSIVE_READ_ONLY) });
    else if (rro !== "Disabled" && m.readOnly !== true)
      out.push({
        field: `${f}.recursiveReadOnly`,
        value: rro,
        allowed: `"Disabled" or unset, unless readOnly is true: ${rro} may only be specified when readOnly is true`,
      });
    else if (rro !== "Disabled" && str(propagation) && propagation !== "None")
      out.push({
        field: `${f}.recursiveReadOnly`,
        value: rro,
        allowed: `"Disabled" or unset with mountPropagation ${propagation}: ${rro} may only be specified when mountPropagation is None or unset`,
      });
  }
}

// core36 :2777-2787 (validEnvDownwardAPIFieldPathExpressions); "spec.host" is converted to spec.nodeName
// (pkg/apis/core/pods/helpers.go:98-100 of v1.36.3), so it passes too
const ENV_FIELD_PATHS = [
  "metadata.name",
  "metadata.namespace",
  "metadata.uid",
  "spec.nodeName",
  "spec.serviceAccountName",
  "status.hostIP",
  "status.hostIPs",
  "status.podIP",
  "status.podIPs",
];
// core36 :2789-2796 (validContainerResourceFieldPathExpressions) and :2798-2801 (the hugepages prefixes)
const RESOURCE_FIELDS = [
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
  "requests.cpu",
  "requests.memory",
  "requests.ephemeral-storage",
];
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/; // util36 :405-420 (IsConfigMapKey)

/** A config-map / secret key: util36 :411-421 (at most 253 characters, the key charset, not "." / ".." nor starting with ".."). */
function configKeyProblem(k: string): boolean {
  return k.length > 253 || !CONFIG_KEY.test(k) || k === "." || k === ".." || k.startsWith("..");
}

/** resourceFieldRef's resource: core36 :2887-2908 (a supported resource, or a hugepages one; required). */
function resourceFieldProblems(out: Out, f: string, ref: Record<string, unknown>): void {
  const r = set(ref.resource) ? ref.resource : "";
  if (str(r) && !RESOURCE_FIELDS.includes(r) && !/^(requests|limits)\.hugepages-/.test(r))
    out.push({
      field: `${f}.resource`,
      value: ref.resource,
      allowed: `${enumText(RESOURCE_FIELDS)}, or requests./limits.hugepages-<size>${r === "" ? " (required)" : ""}`,
    });
}

/** fieldRef: core36 :2852-2885 (validateObjectFieldSelector; apiVersion defaulted to "v1", defaults36 :355-359). */
function fieldRefProblems(
  out: Out,
  f: string,
  ref: Record<string, unknown>,
  paths: readonly string[] = ENV_FIELD_PATHS,
): void {
  const apiVersion = set(ref.apiVersion) ? ref.apiVersion : "v1";
  if (str(apiVersion) && apiVersion !== "v1" && apiVersion !== "")
    out.push({ field: `${f}.apiVersion`, value: apiVersion, allowed: '"v1" (or unset), the only pod version' }); // pods/helpers.go:62-64
  const path = set(ref.fieldPath) ? ref.fieldPath : "";
  if (!str(path)) return;
  const allowed = `a pod field: ${paths.map((p) => JSON.stringify(p)).join(", ")}, or metadata.labels['<key>'] / metadata.annotations['<key>']`;
  if (path === "") {
    out.push({ field: `${f}.fieldPath`, value: ref.fieldPath, allowed: `${allowed} (required)` });
    return;
  }
  // fieldpath.SplitMaybeSubscriptedPath (pkg/fieldpath/fieldpath.go:107-120): `path['subscript']`
  const sub = path.endsWith("']") ? path.slice(0, -2).split("['") : undefined;
  if (sub && sub.length >= 2 && sub[0] !== "") {
    const base = sub[0];
    const k = sub.slice(1).join("['");
    if (base !== "metadata.labels" && base !== "metadata.annotations")
      out.push({ field: `${f}.fieldPath`, value: path, allowed });
    else if (qualifiedNameProblem(base === "metadata.annotations" ? k.toLowerCase() : k))
      out.push({ field: `${f}.fieldPath`, value: path, allowed: `${allowed}, the key a qualified name` }); // :2866-2871
    return;
  }
  // "spec.host" is converted to spec.nodeName first (pods/helpers.go:98-100), which only env vars may read
  if (!paths.includes(path) && !(path === "spec.host" && paths.includes("spec.nodeName")))
    out.push({ field: `${f}.fieldPath`, value: path, allowed });
}

/** configMapKeyRef / secretKeyRef: core36 :3013-3047 (the name a DNS subdomain when set, the key required and a config key). */
function keyRefProblems(out: Out, f: string, ref: Record<string, unknown>, what: string): void {
  if (str(ref.name) && ref.name !== "" && !isDns1123Subdomain(ref.name))
    out.push({ field: `${f}.name`, value: ref.name, allowed: `a ${what} name, ${SUBDOMAIN_TEXT}` });
  const k = set(ref.key) ? ref.key : "";
  if (k === "")
    out.push({
      field: `${f}.key`,
      value: ref.key,
      allowed: `the key in the ${what} (required): letters, digits, '-', '_' and '.'`,
    });
  else if (str(k) && configKeyProblem(k))
    out.push({
      field: `${f}.key`,
      value: k,
      allowed: `a ${what} key: at most 253 letters, digits, '-', '_' and '.', not "." or ".." nor starting with ".."`,
    });
}

/**
 * A container's `env` entries' `valueFrom` (the names and value-beside-valueFrom are controller-env.ts's): core36
 * :2803-2850 (validateEnvVarValueFrom): exactly one source, fieldRef a supported pod field, resourceFieldRef a
 * supported resource (:2887-2910), the key references as above.
 */
export function envValueFromProblems(env: unknown, field: string): ObjectValueProblem[] {
  const out: Out = [];
  if (!list(env)) return out;
  env.forEach((e, i) => {
    if (!map(e) || !map(e.valueFrom)) return;
    const vf = e.valueFrom;
    const f = `${at(field, i)}.valueFrom`;
    const sources = ["fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef", "fileKeyRef"].filter((s) =>
      set(vf[s]),
    );
    if (sources.length === 0)
      out.push({
        field: f,
        value: vf,
        allowed: "one source: fieldRef, resourceFieldRef, configMapKeyRef or secretKeyRef",
      });
    else if (sources.length > 1 && !(str(e.value) && e.value !== ""))
      out.push({ field: f, value: sources.join(", "), allowed: "exactly one source per env entry" });
    if (map(vf.fieldRef)) fieldRefProblems(out, `${f}.fieldRef`, vf.fieldRef);
    if (map(vf.resourceFieldRef)) resourceFieldProblems(out, `${f}.resourceFieldRef`, vf.resourceFieldRef);
    if (map(vf.configMapKeyRef)) keyRefProblems(out, `${f}.configMapKeyRef`, vf.configMapKeyRef, "ConfigMap");
    if (map(vf.secretKeyRef)) keyRefProblems(out, `${f}.secretKeyRef`, vf.secretKeyRef, "Secret");
  });
  return out;
}

/**
 * A container's `envFrom`: core36 :2913-2966 (ValidateEnvFrom): exactly one of configMapRef / secretRef, its name
 * required and a DNS subdomain (ValidateConfigMapName / ValidateSecretName, :317, :7864); a prefix an env var name
 * (the relaxed rule, printable ASCII other than '=', util36 :388-403, as controller-env.ts judges env names).
 */
export function envFromProblems(envFrom: unknown, field: string): ObjectValueProblem[] {
  const out: Out = [];
  if (!list(envFrom)) return out;
  envFrom.forEach((e, i) => {
    if (!map(e)) return;
    const f = at(field, i);
    if (str(e.prefix) && [...e.prefix].some((c) => c === "=" || c < " " || c > "~"))
      out.push({
        field: `${f}.prefix`,
        value: e.prefix,
        allowed: "an env var name prefix of printable ASCII characters other than '='",
      });
    const sources = ["configMapRef", "secretRef"].filter((s) => set(e[s]));
    if (sources.length !== 1) out.push({ field: f, value: e, allowed: "exactly one of configMapRef and secretRef" });
    for (const [s, what] of [
      ["configMapRef", "ConfigMap"],
      ["secretRef", "Secret"],
    ]) {
      const ref = e[s];
      if (!map(ref)) continue;
      const name = set(ref.name) ? ref.name : "";
      if (name === "") out.push({ field: `${f}.${s}.name`, value: ref.name, allowed: `the ${what}'s name (required)` });
      else if (str(name) && !isDns1123Subdomain(name))
        out.push({ field: `${f}.${s}.name`, value: name, allowed: `a ${what} name, ${SUBDOMAIN_TEXT}` });
    }
  });
  return out;
}

/** util36 IsValidPortName: at most 15 lower-case letters, digits and '-', with a letter, no '-' at an end nor "--". */
function portNameProblem(n: string): boolean {
  return n.length > 15 || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(n) || !/[a-z]/.test(n) || n.includes("--");
}
const PORT_NAME_TEXT =
  "an IANA service name: at most 15 lower-case letters, digits and '-', with at least one letter, no '-' at either end nor \"--\"";

/** A handler's port (httpGet / tcpSocket / grpc): core36 :3474-3488 (ValidatePortNumOrName; util36 IsValidPortNum 1-65535). */
function checkPortNumOrName(out: Out, field: string, port: unknown): void {
  if (int(port) && (port < 1 || port > 65535))
    out.push({ field, value: port, allowed: "a port number from 1 to 65535, or a port name" });
  else if (str(port) && !/^[0-9]+$/.test(port) && portNameProblem(port))
    out.push({ field, value: port, allowed: `a port number from 1 to 65535, or ${PORT_NAME_TEXT}` });
}

const HANDLERS = ["exec", "httpGet", "tcpSocket", "grpc", "sleep"];

/**
 * A probe or lifecycle handler: core36 :3496-3541 (validateHandler: exactly one handler type; only the first one set is
 * judged further), exec's command required (:3447-3453), httpGet's port, scheme HTTP or HTTPS ("" is defaulted to
 * HTTP, defaults36 :316-322) and header names (:3455-3488; util36 IsHTTPHeaderName `^[-A-Za-z0-9]+$`), the ports,
 * sleep (:3369-3386, 0 allowed: PodLifecycleSleepActionAllowZero is GA).
 */
function handlerProblems(out: Out, f: string, h: Record<string, unknown>): void {
  const kinds = HANDLERS.filter((k) => set(h[k]));
  if (kinds.length === 0)
    out.push({ field: f, value: h, allowed: "exactly one handler: exec, httpGet, tcpSocket, grpc or sleep" });
  else if (kinds.length > 1)
    out.push({
      field: `${f}.${kinds[1]}`,
      value: kinds.join(", "),
      allowed: "one handler type (exec, httpGet, tcpSocket, grpc or sleep), not more",
    });
  const first = kinds[0];
  const exec = h.exec;
  if (first === "exec" && map(exec) && length(exec.command) === 0)
    out.push({
      field: `${f}.exec.command`,
      value: exec.command,
      allowed: 'the command to run (required, a non-empty list), e.g. ["cat", "/tmp/healthy"]',
    });
  const http = h.httpGet;
  if (first === "httpGet" && map(http)) {
    checkPortNumOrName(out, `${f}.httpGet.port`, http.port ?? 0);
    if (str(http.scheme) && http.scheme !== "" && !HTTP_SCHEMES.includes(http.scheme))
      out.push({ field: `${f}.httpGet.scheme`, value: http.scheme, allowed: `${enumText(HTTP_SCHEMES)}, or unset` });
    if (list(http.httpHeaders))
      http.httpHeaders.forEach((hd, i) => {
        if (map(hd) && str(hd.name ?? "") && !/^[-A-Za-z0-9]+$/.test((hd.name ?? "") as string))
          out.push({
            field: `${at(`${f}.httpGet.httpHeaders`, i)}.name`,
            value: hd.name,
            allowed: "an HTTP header name: letters, digits and '-' (at least one), e.g. \"X-Probe\"",
          });
      });
  }
  if (first === "tcpSocket" && map(h.tcpSocket)) checkPortNumOrName(out, `${f}.tcpSocket.port`, h.tcpSocket.port ?? 0);
  if (first === "grpc" && map(h.grpc) && int(h.grpc.port ?? 0))
    checkPortNumOrName(out, `${f}.grpc.port`, h.grpc.port ?? 0);
  if (first === "sleep" && map(h.sleep) && int(h.sleep.seconds) && h.sleep.seconds < 0)
    out.push({
      field: `${f}.sleep.seconds`,
      value: h.sleep.seconds,
      allowed: "0 or more seconds, less than the pod's terminationGracePeriodSeconds",
    });
}

const HTTP_SCHEMES = ["HTTP", "HTTPS"]; // core36 :3455 (supportedHTTPSchemes)

/**
 * A container's probe: core36 :3291-3307 (validateProbe: exactly one handler, initialDelaySeconds, timeoutSeconds,
 * periodSeconds, successThreshold and failureThreshold not negative — 0 and unset are defaulted to 1, 10, 1 and 3,
 * defaults36 :233-246 — and terminationGracePeriodSeconds above 0 when set), :3252-3263 and :3278-3289 (a liveness or
 * startup probe's successThreshold is 1), :3265-3276 (a readiness probe has no terminationGracePeriodSeconds).
 */
function probeProblems(out: Out, f: string, kind: string, pr: Record<string, unknown>): void {
  handlerProblems(out, f, pr);
  for (const k of ["initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"])
    checkNonNegative(out, `${f}.${k}`, pr[k], `${k} (0 or unset takes the default)`);
  if (kind !== "readinessProbe" && int(pr.successThreshold) && pr.successThreshold !== 0 && pr.successThreshold !== 1)
    out.push({
      field: `${f}.successThreshold`,
      value: pr.successThreshold,
      allowed: "1 (or unset): a liveness or startup probe succeeds once",
    });
  const grace = pr.terminationGracePeriodSeconds;
  if (kind === "readinessProbe" && set(grace) && !holdsToken(grace))
    out.push({
      field: `${f}.terminationGracePeriodSeconds`,
      value: grace,
      allowed: "unset on a readiness probe (only a liveness or startup probe has its own grace period)",
    });
  else if (int(grace) && grace <= 0)
    out.push({
      field: `${f}.terminationGracePeriodSeconds`,
      value: grace,
      allowed: "a whole number of seconds, 1 or more, or unset",
    });
}

// core36 :169-173 of pkg/apis/core/helper/helpers.go (standardContainerResources), with hugepages-<size>
const CONTAINER_RESOURCES = ["cpu", "memory", "ephemeral-storage"];

/** helper IsNativeResource (:201-204): no "/" or in the kubernetes.io/ namespace; overcommit is allowed for them but hugepages (:208-211). */
function overcommitAllowed(name: string): boolean {
  return (!name.includes("/") || name.includes("kubernetes.io/")) && !name.startsWith("hugepages-");
}

/**
 * What is wrong with a container's CPU request written with a byte suffix of Mi or more ("1Gi"): over a million
 * cores, more than any node has, so the scheduler's fit check never passes and the pod stays Pending (k8s.io/kubernetes
 * v1.36.3 pkg/scheduler/framework/plugins/noderesources/fit.go:699-700). Undefined for any other value.
 */
export function cpuBeyondAnyNode(cpu: unknown): string | undefined {
  if (typeof cpu !== "string" || !/^[0-9.]+[MGTPE]i$/.test(cpu.trim())) return undefined;
  return `a CPU quantity such as "500m" (millicores) or "1" (cores): ${JSON.stringify(cpu)} uses a byte suffix and means over a million cores, more than any node has, so the scheduler never places the pod (k8s.io/kubernetes v1.36.3 pkg/scheduler/framework/plugins/noderesources/fit.go:699-700) and it stays Pending`;
}

/**
 * A container's `resources`, the same rules for every container of the pod (core36 :7930-7997,
 * validateResourceRequirements): a resource name without "/" a standard container resource (cpu, memory,
 * ephemeral-storage, hugepages-<size>; :7548-7561), every quantity not negative (:8222-8231), a request at most its
 * limit, equal to it for a resource that cannot be overcommitted (hugepages, extended resources), which also needs a
 * limit, and hugepages only with a cpu or memory request or limit. The quantities' syntax is the values' type checks'.
 * @param opts.quantitiesJudgedElsewhere for the chart's own container, whose negative quantities and requests above
 * their limits karpenter-release.ts already refuses (release-values.ts checkMergedResources, HELM_VALUES_RESOURCES /
 * HELM_VALUES_REQUEST_ABOVE_LIMIT): only the other rules then
 */
export function resourceRequirementsProblems(
  resources: unknown,
  field: string,
  opts: { quantitiesJudgedElsewhere?: boolean } = {},
): ObjectValueProblem[] {
  const out: Out = [];
  // `resources.requests.cpu`, or `resources.requests["nvidia.com/gpu"]` for a name that is no plain key
  const named = (side: string, name: string) =>
    /^[A-Za-z0-9_-]+$/.test(name) ? `${field}.${side}.${name}` : key(`${field}.${side}`, name);
  if (!map(resources)) return out;
  const sides: Record<string, Record<string, unknown>> = {};
  for (const side of ["limits", "requests"]) {
    const q = resources[side];
    if (!map(q)) continue;
    sides[side] = q;
    for (const [name, value] of Object.entries(q)) {
      if (holdsToken(name)) continue;
      const g = named(side, name);
      if (!name.includes("/") && !CONTAINER_RESOURCES.includes(name) && !name.startsWith("hugepages-"))
        out.push({
          field: g,
          value,
          allowed: `a container resource name ("cpu", "memory", "ephemeral-storage", "hugepages-<size>", or an extended resource with a domain, e.g. "nvidia.com/gpu"), not ${JSON.stringify(name)}`,
        });
      const n = quantityValue(value);
      if (n !== undefined && n < 0 && !opts.quantitiesJudgedElsewhere)
        out.push({ field: g, value, allowed: "a quantity of 0 or more" });
      // :8225-8228 (IsIntegerResourceName: an extended resource, helper :186-199) counts whole devices
      else if (n !== undefined && !overcommitAllowed(name) && !name.startsWith("hugepages-") && !Number.isInteger(n))
        out.push({
          field: g,
          value,
          allowed: `a whole number: ${name} is an extended resource, counted in whole units`,
        });
    }
  }
  const limits = sides.limits ?? {};
  // a CPU request of a million cores or more (a limit alone is the request too)
  const cpuSide =
    sides.requests && set(sides.requests.cpu)
      ? "requests"
      : sides.limits && set(sides.limits.cpu)
        ? "limits"
        : undefined;
  const cpuWhy = cpuSide ? cpuBeyondAnyNode(sides[cpuSide].cpu) : undefined;
  if (cpuSide && cpuWhy)
    out.push({
      field: named(cpuSide, "cpu"),
      value: sides[cpuSide].cpu,
      allowed: `${cpuWhy}${cpuSide === "limits" ? " (the limit is the request when no request is set)" : ""}`,
    });
  for (const [name, value] of Object.entries(sides.requests ?? {})) {
    if (holdsToken(name) || !set(value)) continue;
    const req = quantityValue(value);
    const lim = set(limits[name]) ? quantityValue(limits[name]) : undefined;
    const g = named("requests", name);
    if (!overcommitAllowed(name)) {
      if (!set(limits[name]))
        out.push({
          field: named("limits", name),
          value: limits[name],
          allowed: `a limit equal to the request (${String(value)}): ${name} cannot be overcommitted, so its limit must be set`,
        });
      else if (req !== undefined && lim !== undefined && req !== lim)
        out.push({
          field: g,
          value,
          allowed: `equal to its limit (${String(limits[name])}): ${name} cannot be overcommitted`,
        });
    } else if (req !== undefined && lim !== undefined && req > lim && !opts.quantitiesJudgedElsewhere)
      out.push({ field: g, value, allowed: `at most its limit (${String(limits[name])})` });
  }
  // a null entry is removed by Helm's merge, so it neither needs nor gives cpu or memory
  const names = [...Object.entries(sides.requests ?? {}), ...Object.entries(limits)].flatMap(([n, v]) =>
    set(v) ? [n] : [],
  );
  if (names.some((n) => n.startsWith("hugepages-")) && !names.some((n) => n === "cpu" || n === "memory"))
    out.push({
      field,
      value: resources,
      allowed: "hugepages together with a cpu or memory request or limit",
    });
  return out;
}

const PULL_POLICIES = ["Always", "IfNotPresent", "Never"]; // core36 :3600-3617
const TERMINATION_MESSAGE_POLICIES = ["File", "FallbackToLogsOnError"]; // core36 :3895-3905
const RESIZE_RESOURCES = ["cpu", "memory"]; // core36 :3620
const RESIZE_POLICIES = ["NotRequired", "RestartContainer"]; // core36 :3621
const CONTAINER_RESTART_POLICIES = ["Always", "Never", "OnFailure"]; // core36 :3656-3660
const PROTOCOLS = ["TCP", "UDP", "SCTP"]; // core36 :2710-2713 (supportedPortProtocols)

/**
 * The value rules of one container given whole in values (core36 :3878-3930 validateContainerCommon, :3835-3860 init
 * containers, :4050-4065 regular ones): ports (:2715-2750), env names (:2754-2770, the relaxed rule GA in 1.36),
 * imagePullPolicy, terminationMessagePolicy (:3895-3905), resizePolicy (:3623-3650), subPath (:3127, :1398-1423), the
 * securityContext's privileged vs allowPrivilegeEscalation (:8502-8505), probes (:3250-3290) and lifecycle handlers,
 * which an init container without restartPolicy Always may not have (:3845-3857).
 */
function containerFieldProblems(out: Out, f: string, c: Record<string, unknown>, init: boolean): void {
  if (list(c.ports)) {
    const portNames = new Set<string>();
    c.ports.forEach((p, i) => {
      if (!map(p)) return;
      const pf = at(`${f}.ports`, i);
      if (str(p.name) && p.name !== "") {
        if (portNameProblem(p.name)) out.push({ field: `${pf}.name`, value: p.name, allowed: PORT_NAME_TEXT });
        else if (portNames.has(p.name))
          out.push({ field: `${pf}.name`, value: p.name, allowed: "a port name not already used in the container" });
        portNames.add(p.name);
      }
      const cp = p.containerPort ?? 0;
      if (int(cp) && (cp < 1 || cp > 65535))
        out.push({
          field: `${pf}.containerPort`,
          value: p.containerPort,
          allowed: "a port number from 1 to 65535 (required)",
        });
      if (int(p.hostPort) && p.hostPort !== 0 && (p.hostPort < 1 || p.hostPort > 65535))
        out.push({
          field: `${pf}.hostPort`,
          value: p.hostPort,
          allowed: "a port number from 1 to 65535, or 0 for none",
        });
      if (str(p.protocol) && !PROTOCOLS.includes(p.protocol))
        out.push({ field: `${pf}.protocol`, value: p.protocol, allowed: enumText(PROTOCOLS) });
    });
  }
  if (list(c.env))
    c.env.forEach((e, i) => {
      if (map(e) && str(e.name) && e.name !== "" && [...e.name].some((ch) => ch === "=" || ch < " " || ch > "~"))
        out.push({
          field: `${at(`${f}.env`, i)}.name`,
          value: e.name,
          allowed: "an env var name of printable ASCII characters other than '='",
        });
    });
  if (str(c.imagePullPolicy) && !PULL_POLICIES.includes(c.imagePullPolicy))
    out.push({
      field: `${f}.imagePullPolicy`,
      value: c.imagePullPolicy,
      allowed: `${enumText(PULL_POLICIES)}, or unset`,
    });
  if (str(c.terminationMessagePolicy) && !TERMINATION_MESSAGE_POLICIES.includes(c.terminationMessagePolicy))
    out.push({
      field: `${f}.terminationMessagePolicy`,
      value: c.terminationMessagePolicy,
      allowed: `${enumText(TERMINATION_MESSAGE_POLICIES)}, or unset`,
    });
  if (list(c.resizePolicy))
    c.resizePolicy.forEach((r, i) => {
      if (!map(r)) return;
      const rf = at(`${f}.resizePolicy`, i);
      if (str(r.resourceName) && !RESIZE_RESOURCES.includes(r.resourceName))
        out.push({ field: `${rf}.resourceName`, value: r.resourceName, allowed: enumText(RESIZE_RESOURCES) });
      if (str(r.restartPolicy) && !RESIZE_POLICIES.includes(r.restartPolicy))
        out.push({ field: `${rf}.restartPolicy`, value: r.restartPolicy, allowed: enumText(RESIZE_POLICIES) });
    });
  out.push(...resourceRequirementsProblems(c.resources, `${f}.resources`));
  const sc = c.securityContext;
  if (map(sc) && sc.privileged === true && sc.allowPrivilegeEscalation === false)
    out.push({
      field: `${f}.securityContext.allowPrivilegeEscalation`,
      value: false,
      allowed: "true or unset when privileged is true (a privileged container always may escalate)",
    });
  // core36 :3677-3688 (validateContainerRestartPolicy; ContainerRestartRules is beta and on in 1.36, so a sidecar may
  // set Always, Never or OnFailure, pkg/features/kube_features.go:1335-1338), and rules need a policy (:3680-3685)
  if (str(c.restartPolicy) && !CONTAINER_RESTART_POLICIES.includes(c.restartPolicy))
    out.push({
      field: `${f}.restartPolicy`,
      value: c.restartPolicy,
      allowed: `${enumText(CONTAINER_RESTART_POLICIES)}, or unset`,
    });
  else if (!set(c.restartPolicy) && list(c.restartPolicyRules) && c.restartPolicyRules.length > 0)
    out.push({
      field: `${f}.restartPolicy`,
      value: c.restartPolicy,
      allowed: "a restartPolicy (required with restartPolicyRules)",
    });
  const probes = ["livenessProbe", "readinessProbe", "startupProbe"];
  if (init && c.restartPolicy !== "Always") {
    for (const k of ["lifecycle", ...probes])
      if (set(c[k]))
        out.push({
          field: `${f}.${k}`,
          value: c[k],
          allowed: 'unset on an init container, unless it is a sidecar (restartPolicy: "Always")',
        });
    return;
  }
  for (const k of probes) if (map(c[k])) probeProblems(out, `${f}.${k}`, k, c[k] as Record<string, unknown>);
  if (map(c.lifecycle))
    for (const k of ["postStart", "preStop"])
      if (map(c.lifecycle[k])) handlerProblems(out, `${f}.lifecycle.${k}`, c.lifecycle[k] as Record<string, unknown>);
}

/** One container of the pod as rendered, with the values field it came from (`field` names the item). */
export interface RenderedContainer {
  readonly container: unknown;
  readonly field: string;
  /** Mounts the chart renders into it from other values (the sidecars' extraVolumeMounts / sidecarVolumeMounts). */
  readonly mounts?: readonly RenderedMount[];
}

/**
 * Containers given whole in values (init containers, sidecars), with the names already taken in their name space
 * (`taken`: the regular containers' names for init containers, core36 :3807-3810 and :3825-3830; the chart's own
 * container for sidecars, :4034-4042): core36 :3878-3893 (validateContainerCommon: the name a DNS-1123 label, an
 * image), then env, envFrom and volume mounts (:3909-3912).
 */
export function containerProblems(
  containers: readonly RenderedContainer[],
  taken: ReadonlySet<string>,
  volumes: Set<string> | undefined,
  init = false,
): ObjectValueProblem[] {
  const out: Out = [];
  const names = new Set(taken);
  for (const { container: c, field: f, mounts } of containers) {
    if (!map(c)) continue;
    const name = set(c.name) ? c.name : "";
    if (name === "")
      out.push({ field: `${f}.name`, value: c.name, allowed: `a container name (required), ${LABEL_TEXT}` });
    else if (str(name)) {
      if (!isDns1123Label(name))
        out.push({ field: `${f}.name`, value: name, allowed: `a container name, ${LABEL_TEXT}` });
      else if (names.has(name))
        out.push({
          field: `${f}.name`,
          value: name,
          allowed: `a container name not already used in the pod (taken: ${[...names].map((n) => JSON.stringify(n)).join(", ")}; init and regular containers share one name space)`,
        });
      names.add(name);
    }
    const image = set(c.image) ? c.image : "";
    if (image === "")
      out.push({ field: `${f}.image`, value: c.image, allowed: 'a container image (required), e.g. "busybox:1.36"' });
    containerFieldProblems(out, f, c, init);
    out.push(...envValueFromProblems(c.env, `${f}.env`));
    out.push(...envFromProblems(c.envFrom, `${f}.envFrom`));
    const own: RenderedMount[] = list(c.volumeMounts)
      ? c.volumeMounts.map((m, i) => ({ mount: m, field: at(`${f}.volumeMounts`, i) }))
      : [];
    // the chart's mounts are a second `volumeMounts:` key of the same map when the item has its own: not judged then
    const rendered = mounts && mounts.length > 0 ? (own.length > 0 ? [] : mounts) : own;
    const privileged = map(c.securityContext) && c.securityContext.privileged === true;
    out.push(...volumeMountProblems(rendered, volumes, str(name) ? `"${name}"` : "same", privileged));
  }
  return out;
}

/** An int32 field the chart writes unquoted: a fraction or a number beyond int32 fails the decoding (json: cannot unmarshal number … of type int32). */
export function int32Problems(value: unknown, field: string, what: string): ObjectValueProblem[] {
  const v =
    str(value) && /^[-+]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][-+]?[0-9]+)?$/.test(value) ? Number(value) : value;
  if (typeof v !== "number" || holdsToken(v) || !Number.isFinite(v)) return [];
  if (Number.isInteger(v) && v >= -INT32_MAX - 1 && v <= INT32_MAX) return [];
  return [
    {
      field,
      value,
      allowed: `${what}: a whole number (a 32-bit integer); the chart writes it unquoted, and a fraction fails the decoding`,
    },
  ];
}

/**
 * The chart's resource names (`karpenter.fullname`, _helpers.tpl:13-24 of 1.15.0) and its name label
 * (`karpenter.name`, :4-6, written as `app.kubernetes.io/name`, :52): the Service (templates/service.yaml:4) takes
 * fullname as its name, a DNS-1035 label (core36 :291 ValidateServiceName: lower-case letters, digits and '-',
 * starting with a letter, at most 63), which is the strictest of the chart's objects (the Deployment's is a DNS
 * subdomain); the name label a label value (util36 IsValidLabelValue). `fullName`/`name` are as the chart computes
 * them (helm.ts chartFullName); `field` the value that made them.
 */
export function chartNameProblems(fullName: string, name: string, field: string, value: unknown): ObjectValueProblem[] {
  const out: Out = [];
  if (holdsToken(fullName) || holdsToken(name)) return out;
  if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(fullName) || fullName.length > 63)
    out.push({
      field,
      value,
      allowed: `a value that makes the chart's resource name ("${fullName}") a DNS-1035 label, as the chart's Service needs: lower-case letters, digits and '-', starting with a letter and ending with a letter or digit`,
    });
  if (!isLabelValue(name))
    out.push({
      field,
      value,
      allowed: `a value that makes the chart's name label app.kubernetes.io/name ("${name}") a label value: letters, digits, '-', '_' and '.', starting and ending with a letter or digit`,
    });
  return out;
}
