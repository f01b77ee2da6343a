import { isIP } from "net";
import { IConstruct } from "constructs";
import { Fn, Token } from "cdktf";
import { KarpenterValidationError, typeName } from "../core/errors";
import {
  ControllerResources,
  DEFAULT_CONTROLLER_RESOURCES,
  KarpenterSettings,
  KubernetesToleration,
} from "./karpenter-settings";
import { Annotations } from "cdktf";
import { chartDefault, chartKeyFacts, ChartKeyFact, checkChartValue, hasKey, SETTING_ENV } from "./chart-settings";
import { findUnwalkable, isPlainMap, mergeHelmValues } from "../core/deep-merge";
import { chartFullName, plainScalar } from "./helm";
import { durationNanos, GO_DURATION, MAX_DURATION_NS, parseQuantity } from "../kubernetes/value-rules";
import { checkOptionKeys } from "../aws-api/input-checks";
import { nearestKey, Problems } from "../core/problems";
import { isDns1123Subdomain, isLabelValue, qualifiedNameProblem, wholeNumberText } from "../kubernetes/value-rules";
import { CONTROLLER_RESOURCES, RESOURCE_QUANTITIES, TOLERATION } from "../core/prop-keys";
import { isUnresolved } from "../core/tokens";
import { KarpenterVersion } from "../versions/karpenter-version";
import { kubernetesMinor } from "../cluster/kubernetes-compatibility";
import { factsRelease, valuePathsAt } from "../versions";
import {
  affinityProblems,
  CHART_SELECTOR_KEYS,
  PodLabelContext,
  chartNameProblems,
  containerProblems,
  containerSecurityContextProblems,
  deploymentStrategyProblems,
  disruptionBudgetProblems,
  envFromProblems,
  resourceRequirementsProblems,
  envValueFromProblems,
  hugePageMediumProblems,
  int32Problems,
  ObjectValueProblem,
  podSecurityContextProblems,
  hostProcessProblems,
  policyRuleProblems,
  RenderedContainer,
  RenderedMount,
  revisionHistoryLimitProblems,
  topologySpreadProblems,
  volumeMountProblems,
  volumeNames,
  volumeProblems,
  cpuBeyondAnyNode,
} from "../kubernetes/object-rules";
import { typedValueLines } from "./k8s-typed-values";
import { SCHEDULER_CONFIG_SINCE, schedulerConfigProblems } from "./scheduler-config";
import {
  AWS_FEATURE_GATES_SINCE,
  checkControllerEnvShape,
  checkControllerPorts,
  checkIfOnlyValues,
  ControllerEnv,
  CONTROLLER_OPTIONS,
  controllerOptionProblem,
  controllerGateName,
  GATE_ENV,
  GateSection,
  GATE_STRING_SOURCED_SINCE,
  GO_FALSE,
  GO_TRUE,
  notAString,
  parseGateString,
  readControllerEnv,
  replacedByEnv,
  settingEnvName,
  warnReplacedChartValues,
} from "./controller-env";
import { checkLogOutputPaths } from "./log-output-paths";
import { checkServiceMonitorEndpoint } from "./service-monitor";

/*
 * Building and checking the values of the `karpenter` chart for KarpenterRelease: typed settings
 * against the version's chart, the `values` escape hatch, controller resources, tolerations and
 * node selector. Every error names the prop a value came from.
 */

/** @throws KarpenterValidationError unless `replicas` is a whole number of at least 1 (a token is left to Helm) */
export function checkReplicas(scope: IConstruct, field: string, replicas: unknown): void {
  if (Token.isUnresolved(replicas)) return;
  if (typeof replicas !== "number" || !Number.isInteger(replicas) || replicas < 1) {
    throw new KarpenterValidationError(
      "HELM_VALUES_REPLICAS",
      scope,
      field,
      replicas,
      "a whole number of controller pods, at least 1 (2 for high availability)",
    );
  }
}

/** The pod DNS policies Kubernetes knows (core/v1 `DNSPolicy`). */
const DNS_POLICIES = ["Default", "ClusterFirst", "ClusterFirstWithHostNet", "None"];

/** @throws KarpenterValidationError unless `policy` is a Kubernetes pod DNS policy (a token is left to Kubernetes) */
export function checkDnsPolicy(scope: IConstruct, field: string, policy: unknown): void {
  if (isUnresolved(policy)) return;
  if (typeof policy !== "string" || !DNS_POLICIES.includes(policy)) {
    throw new KarpenterValidationError(
      "HELM_VALUES_DNS_POLICY",
      scope,
      field,
      policy,
      '"Default", "ClusterFirst", "ClusterFirstWithHostNet" or "None" (with values.dnsConfig)',
    );
  }
}

/**
 * The chart's `settings:` from the typed settings: each key and feature gate checked against the
 * version (the chart ignores unknown keys silently), ENI counts as the strings the chart expects.
 * @param onRead gets the settings that passed their checks (the feature gates among them) before any
 * problem is thrown, so that checks of combinations can still run on them (all problems at once)
 * @param values the `values` prop: a value whose env var one of its `controller.env` entries replaces is not
 * judged, unless the chart cannot render it (controller-env.ts `replacedByEnv`; checkEscapeHatch warns)
 * @param env `values`' env entries when the caller has read them already (read once per construct)
 * @throws KarpenterValidationError for a key the version lacks, a wired key, or a bad value
 */
export function settingsValues(
  scope: IConstruct,
  version: KarpenterVersion,
  settings: KarpenterSettings | undefined,
  onRead?: (readable: Record<string, unknown>) => void,
  values?: unknown,
  env: ControllerEnv = readControllerEnv(values),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const CHART_SETTINGS = chartKeyFacts("settings", version);
  const CHART_FEATURE_GATES = chartKeyFacts("featureGates", version);
  const given = checkMap(scope, "settings", settings as Record<string, unknown> | undefined) ?? {};
  const { featureGates, awsFeatureGates, ...rest } = given;
  // every bad setting at once
  const problems = new Problems();
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    const fact = CHART_SETTINGS.find((f) => f.key === key && !f.wired);
    if (!fact && passUnverified(scope, `settings.${key}`, version, CHART_SETTINGS)) {
      out[key] = value;
      continue;
    }
    if (!fact) {
      problems.add(
        unknownKey(
          scope,
          `settings.${key}`,
          value,
          CHART_SETTINGS.filter((f) => !f.wired),
          "setting",
          version,
        ),
      );
      continue;
    }
    // only what passed: `out` is what onRead gets (the return value needs every key to pass)
    const judged = !replacedByEnv(env, settingEnvName(key), value);
    if (problems.passes(() => checkFact(scope, `settings.${key}`, fact, value, version, "setting", judged)))
      out[key] =
        fact.kind === "integer-string" && typeof value === "number" && !Token.isUnresolved(value)
          ? String(value)
          : value;
  }
  const gates = gateValues(scope, version, "featureGates", featureGates, problems, env);
  const awsGates =
    awsFeatureGates === undefined ? {} : gateValues(scope, version, "awsFeatureGates", awsFeatureGates, problems, env);
  onRead?.({
    ...out,
    ...(Object.keys(gates).length ? { featureGates: gates } : {}),
    ...(Object.keys(awsGates).length ? { awsFeatureGates: awsGates } : {}),
  });
  problems.throwIfAny(scope);
  // the 1.8.0 chart's values.yaml has `StaticCapacity`, its template reads `staticCapacity`: without
  // an explicit value FEATURE_GATES gets `StaticCapacity=` (empty), so always write it for that release
  for (const fact of CHART_FEATURE_GATES) {
    if (fact.misspelledIn?.versions.includes(version.full) && gates[fact.key] === undefined)
      gates[fact.key] = chartDefault("featureGates", fact.key, version.full) ?? false;
  }
  if (Object.keys(gates).length) out.featureGates = gates;
  if (Object.keys(awsGates).length) out.awsFeatureGates = awsGates;
  return out;
}

/** The gates the chart reads with a default (_helpers.tpl:147-170 of 1.15.0, `karpenter.dra`: `| default false`), so null is safe. */
const DEFAULTED_GATES: readonly string[] = ["draNVIDIAGPU", "draEFA"];

const GATE_LABEL: Readonly<Record<"featureGates" | "awsFeatureGates", string>> = {
  featureGates: "feature gate",
  awsFeatureGates: "AWS feature gate",
};

/**
 * The gates of `settings.<section>` checked against the version, each problem recorded in `problems`; a value is
 * not judged when an entry of `env` replaces the block's gate string and the chart renders the value safely.
 */
function gateValues(
  scope: IConstruct,
  version: KarpenterVersion,
  section: "featureGates" | "awsFeatureGates",
  given: unknown,
  problems: Problems,
  env: ControllerEnv,
): Record<string, unknown> {
  const facts = chartKeyFacts(section, version);
  const what = GATE_LABEL[section];
  const gates: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(
    problems.check(() => checkMap(scope, `settings.${section}`, given as Record<string, unknown> | undefined)) ?? {},
  )) {
    if (value === undefined) continue;
    const fact = facts.find((f) => f.key === key);
    if (!fact && passUnverified(scope, `settings.${section}.${key}`, version, facts)) {
      gates[key] = value;
      continue;
    }
    if (!fact) {
      problems.add(unknownKey(scope, `settings.${section}.${key}`, value, facts, what, version));
      continue;
    }
    const judged = !replacedByEnv(env, GATE_ENV[section], value);
    if (problems.passes(() => checkFact(scope, `settings.${section}.${key}`, fact, value, version, what, judged)))
      gates[key] = value;
  }
  return gates;
}

/**
 * The combinations of 1.15 settings the chart documents as invalid (charts/karpenter/values.yaml of
 * 1.15.0: enableDRA "can't be combined with" ignoreDRARequests or an AWS DRA gate; legacyNodeRepair
 * "can't be combined with featureGates.terminateFirstRepair"), judged on what Helm gets: the typed
 * settings with `values.settings` merged over them. Also warns where a setting has no effect: legacyNodeRepair
 * and rebootForRepair without featureGates.nodeRepair, ignoreDRARequests overridden by an AWS DRA gate.
 * @param fieldOf the prop a merged path came from (`values.settings…` or `settings…`)
 * @param warn false where the release built later warns (Karpenter checks its props before building one)
 * @param nodeRepair whether the controller runs with the NodeRepair gate, as controller-env.ts `effectiveGate`
 * reads it (a FEATURE_GATES entry of values.controller.env replaces the chart's gate string); undefined when synth
 * cannot tell (then no "no effect" warning). Without it, the merged `featureGates.nodeRepair`.
 * @throws KarpenterValidationError with every invalid combination
 */
export function checkSettingCombinations(
  scope: IConstruct,
  merged: unknown,
  fieldOf: (path: readonly string[]) => string,
  warn = true,
  nodeRepair?: () => boolean | undefined,
): void {
  if (!isPlainMap(merged)) return;
  const at = (...path: string[]): unknown => {
    let v: unknown = merged;
    for (const p of path) v = isPlainMap(v) ? v[p] : undefined;
    return v;
  };
  const set = (...path: string[]) => at(...path) !== undefined && at(...path) !== null;
  const on = (...path: string[]) => at(...path) === true;
  const show = (path: string[]) => `${fieldOf(path)} = ${JSON.stringify(at(...path))}`;
  const problems = new Problems();
  if (on("enableDRA")) {
    const clashing = [["ignoreDRARequests"], ["awsFeatureGates", "draNVIDIAGPU"], ["awsFeatureGates", "draEFA"]].filter(
      (p) => set(...p),
    );
    if (clashing.length) {
      problems.add(
        new KarpenterValidationError(
          "HELM_VALUES_FEATURE_GATE_CONFLICT",
          scope,
          fieldOf(["enableDRA"]),
          true,
          `false or unset while ${clashing.map(show).join(" and ")} ${clashing.length === 1 ? "is" : "are"} set: the Karpenter chart says enableDRA "can't be combined with" ignoreDRARequests, awsFeatureGates.draNVIDIAGPU or draEFA, even set to what enableDRA sets itself (both DRA gates on, ignoreDRARequests false). Leave those unset with enableDRA, or drop enableDRA and set them one by one`,
        ),
      );
    }
  }
  if (on("legacyNodeRepair") && on("featureGates", "terminateFirstRepair")) {
    problems.add(
      new KarpenterValidationError(
        "HELM_VALUES_FEATURE_GATE_CONFLICT",
        scope,
        fieldOf(["legacyNodeRepair"]),
        true,
        `false or unset while ${show(["featureGates", "terminateFirstRepair"])} is set: the legacy node repair controller does not support terminate-first repair (Karpenter chart, settings.legacyNodeRepair). Drop one of them`,
      ),
    );
  }
  problems.throwIfAny(scope);
  if (!warn) return;
  const repairOn = nodeRepair ? nodeRepair() : on("featureGates", "nodeRepair");
  if (on("legacyNodeRepair") && repairOn === false) {
    Annotations.of(scope).addWarning(
      `${show(["legacyNodeRepair"])} has no effect without settings.featureGates.nodeRepair: true (Karpenter chart, settings.legacyNodeRepair)`,
    );
  }
  if (on("awsFeatureGates", "rebootForRepair") && repairOn === false) {
    Annotations.of(scope).addWarning(
      `${show(["awsFeatureGates", "rebootForRepair"])} has no effect without settings.featureGates.nodeRepair: true (Karpenter chart, awsFeatureGates.rebootForRepair)`,
    );
  }
  const draGate = [
    ["awsFeatureGates", "draNVIDIAGPU"],
    ["awsFeatureGates", "draEFA"],
  ].find((p) => on(...p));
  if (on("ignoreDRARequests") && draGate) {
    Annotations.of(scope).addWarning(
      `${show(["ignoreDRARequests"])} is overridden to false by ${show(draGate)}: either AWS DRA gate makes the controller honour DRA requests (Karpenter chart, settings.ignoreDRARequests)`,
    );
  }
}

/**
 * @param judged false where an env entry replaces the value the chart writes (controller-env.ts): then only
 * whether the version has the key is checked
 */
function checkFact(
  scope: IConstruct,
  field: string,
  fact: ChartKeyFact,
  value: unknown,
  version: KarpenterVersion,
  what: string,
  judged = true,
): void {
  if (!hasKey(fact, version.full)) {
    throw new KarpenterValidationError(
      "HELM_VALUES_NEEDS_NEWER_KARPENTER",
      scope,
      field,
      value,
      `Karpenter ${version.full} has no ${what} ${fact.key}: it was introduced in ${fact.since}; use version ${fact.since} or later, or leave it unset`,
    );
  }
  if (!judged || isUnresolved(value)) return;
  const problem = checkChartValue(fact, value);
  if (problem) throw new KarpenterValidationError("HELM_VALUES_SETTING", scope, field, value, problem);
  // the chart writes every setting inside a YAML double-quoted scalar on one line (`value: "{{ … }}"`,
  // templates/deployment.yaml): a line break there is folded into a space or, with the next line less indented,
  // ends the document (a base64 CA bundle wrapped at 64 columns: found by the e2e values-agreement stage, which
  // renders with the real Helm). Go's base64 decoder would skip the line break in an env entry, not here.
  if (typeof value === "string" && /[\r\n]/.test(value))
    throw new KarpenterValidationError(
      "HELM_VALUES_SETTING",
      scope,
      field,
      value,
      `one line: the chart writes ${what} ${fact.key} inside a double-quoted YAML scalar (value: "{{ … }}" in templates/deployment.yaml), where a line break does not survive${fact.kind === "base64" ? "; remove the line breaks of wrapped base64" : ""}`,
    );
}

/**
 * For a release newer than every known one (allowUnverifiedVersion), a key the newest known chart
 * lacks may be new in that release: it passes, with a warning. Wired keys never pass.
 * @returns true when the key passes
 */
function passUnverified(
  scope: IConstruct,
  field: string,
  version: KarpenterVersion,
  facts: readonly ChartKeyFact[],
): boolean {
  if (!version.unverified || facts.some((f) => f.wired && field.endsWith(`settings.${f.key}`))) return false;
  Annotations.of(scope).addWarning(
    `${field} is not a key of the Karpenter ${version.factsMinor} chart, the newest this library knows; passed to the ${version.full} chart unchecked (allowUnverifiedVersion). Check its name and type in the ${version.full} chart's values.yaml`,
  );
  return true;
}

function unknownKey(
  scope: IConstruct,
  field: string,
  value: unknown,
  facts: readonly ChartKeyFact[],
  what: string,
  version: KarpenterVersion,
): KarpenterValidationError {
  const wired = chartKeyFacts("settings", version).find((f) => f.wired && `settings.${f.key}` === field);
  if (wired)
    return new KarpenterValidationError(
      "HELM_VALUES_WIRED",
      scope,
      field,
      value,
      `${wired.key} is wired from the graph: set the ${wired.key === "clusterName" ? "cluster" : "interruptionQueue"} prop instead`,
    );
  const known = facts.filter((f) => hasKey(f, version.full)).map((f) => f.key);
  const near = nearestKey(field.slice(field.lastIndexOf(".") + 1), known);
  const parent = field.slice(0, field.lastIndexOf("."));
  return new KarpenterValidationError(
    "HELM_VALUES_UNKNOWN_KEY",
    scope,
    field,
    value,
    `a ${what} of the Karpenter ${version.full} chart${near ? `; did you mean ${parent}.${near}? Its ${what}s are` : ":"} ${known.join(", ")}`,
  );
}

/** The ServiceAccount annotation IRSA reads the role from (EKS user guide, "IAM roles for service accounts"). */
export const IRSA_ROLE_ANNOTATION = "eks.amazonaws.com/role-arn";

/**
 * The merged values with every boolean setting and feature gate that is a token (e.g. a `bool`
 * Terraform variable's `value`) written as `${tobool(…)}` without quotes: Terraform puts
 * `true` or `false` there, which the chart reads as a YAML boolean, as it expects — a quoted
 * `"false"` would be a non-empty string, true for Helm's `if` — and a value that is not a boolean
 * fails the plan in `tobool` instead of reaching the controller. Inputs are not modified.
 */
export function booleanTokensPlain(
  values: Record<string, unknown>,
  version: KarpenterVersion,
): Record<string, unknown> {
  const settings = values.settings;
  if (!isPlainMap(settings)) return values;
  const plain = (facts: readonly ChartKeyFact[], map: Record<string, unknown>) => {
    const out: Record<string, unknown> = { ...map };
    for (const [key, value] of Object.entries(map)) {
      if (typeof value !== "boolean" && isUnresolved(value) && facts.some((f) => f.key === key && f.kind === "boolean"))
        out[key] = plainScalar(Fn.tobool(value));
    }
    return out;
  };
  const out = plain(chartKeyFacts("settings", version), settings);
  if (isPlainMap(settings.featureGates))
    out.featureGates = plain(chartKeyFacts("featureGates", version), settings.featureGates);
  if (isPlainMap(settings.awsFeatureGates))
    out.awsFeatureGates = plain(chartKeyFacts("awsFeatureGates", version), settings.awsFeatureGates);
  return { ...values, settings: out };
}

/**
 * Checks `values.settings` like typed settings (the chart ignores unknown keys silently), the label
 * keys and values of `values.nodeSelector`, the level of `values.logLevel`, the `values.controller.env` entries that
 * set a checked controller option (LOG_LEVEL, a setting's env var, CLUSTER_NAME, FEATURE_GATES, SCHEDULER_CONFIG),
 * and refuses overrides of wired keys (`settings.clusterName`, `settings.interruptionQueue`, `serviceAccount.name`,
 * the IRSA role annotation). A chart value (typed or in `values`) whose env var a `values.controller.env` entry
 * replaces warns that it has no effect, and `values.settings` / `values.logLevel` then judge it only for what
 * the chart cannot render (controller-env.ts).
 * @param irsa true when the construct writes the IRSA role annotation (then `serviceAccount.annotations: null` would remove it)
 * @param clusterName the name of the wired cluster when known at synth (a CLUSTER_NAME env entry must match it)
 * @param settings the typed settings, for the warning that an env entry replaces one
 * @param env `values`' env entries when the caller has read them already (read once per construct)
 * @throws KarpenterValidationError naming the `values.…` path
 */
export function checkEscapeHatch(
  scope: IConstruct,
  version: KarpenterVersion,
  values: Record<string, unknown>,
  irsa = false,
  clusterName?: string,
  settings?: KarpenterSettings,
  env: ControllerEnv = readControllerEnv(values),
  releaseName = "karpenter",
  kubernetesVersion?: string,
): void {
  const problems = new Problems();
  // first, so that a missing item is named as such (and every one of them), and the checks of single lists below
  // skip such items instead of reading `undefined.key`
  problems.check(() => checkListItems(scope, values));
  problems.check(() => checkServiceAccountValues(scope, values, irsa));
  problems.check(() => checkValuesSettings(scope, version, values.settings, env));
  if (values.nodeSelector !== null)
    problems.check(() =>
      checkNodeSelector(scope, values.nodeSelector as Record<string, string> | undefined, "values.nodeSelector"),
    );
  // kubernetes.io/os: the kubelet labels its node with Go's runtime.GOOS, "linux" or "windows" (k8s.io/kubernetes v1.36.3
  // pkg/kubelet/kubelet_node_status.go:310, initialNode), and the controller image is Linux only (the chart's default is
  // "linux", values.yaml:90-91): another value leaves the controller pods Pending (fresh tester 24 S-17)
  const os = isPlainMap(values.nodeSelector) ? values.nodeSelector["kubernetes.io/os"] : undefined;
  if (typeof os === "string" && !isUnresolved(os) && os !== "linux")
    problems.add(
      new KarpenterValidationError(
        "HELM_VALUES_POD_SPEC",
        scope,
        'values.nodeSelector["kubernetes.io/os"]',
        os,
        `"linux" (the chart's default): the kubelet labels a node kubernetes.io/os with Go's runtime.GOOS, "linux" or "windows" (k8s.io/kubernetes v1.36.3 pkg/kubelet/kubelet_node_status.go:310), and the controller image runs on Linux only, so ${os === "windows" ? "the controller cannot run on a Windows node" : "no node matches"} and the controller pods stay Pending`,
      ),
    );
  if (!replacedByEnv(env, settingEnvName("logLevel"), values.logLevel))
    problems.check(() => checkLogLevel(scope, version, "values.logLevel", values.logLevel));
  problems.check(() => checkControllerEnv(scope, version, env, clusterName));
  problems.check(() => checkLogOutputPaths(scope, version, values, env));
  problems.check(() => checkControllerEnvShape(scope, values.controller));
  problems.check(() => checkControllerPorts(scope, values, env));
  problems.check(() => checkIfOnlyValues(scope, values));
  problems.check(() => checkPodValues(scope, values));
  problems.check(() => checkObjectValues(scope, version, values, releaseName, kubernetesVersion));
  // values has passed checkMap (no cycle, not too deep) before this function runs
  problems.check(() => checkServiceMonitorEndpoint(scope, version, values));
  warnReplacedChartValues(scope, version, settings, values, env);
  problems.throwIfAny(scope);
}

/**
 * Refuses, in every list anywhere in `values`, an item that is `null`, `undefined` or a hole of a sparse array
 * (`[, { name: "LOG_LEVEL" }]`, which JSON writes as null), all at once, each by its path (`values.extraVolumes[0]`).
 * Helm hands such an item to the templates as nil and `toYaml` renders `- null` (chart v1.15.0
 * templates/deployment.yaml:214-215 env, :262-265 extraVolumes, :276-290 tolerations, topologySpreadConstraints,
 * affinity; _helpers.tpl:100-105, 130-137, 181-185; clusterrole-core.yaml:92-94 additionalClusterRoleRules): the API
 * server then refuses the object (k8s.io/kubernetes@v1.36.3 pkg/apis/core/validation/validation.go:2754-2760 an env
 * entry's name, :4372-4374 a toleration's operator; pkg/apis/rbac/validation/validation.go:103-107 a rule's verbs;
 * a volume, mount or container without its required name), or the render stops (`hasKey` on a nil item of
 * topologySpreadConstraints or an affinity term: "wrong type for value; expected map[string]interface {}"). No list
 * of the chart takes a null item, so none is kept: a hole is a silent change of what the user wrote. Tokens and
 * objects other than plain maps and lists are not entered; each object is walked once (cycles are checkMap's).
 * @throws KarpenterValidationError HELM_VALUES_LIST_ITEM_MISSING naming each such item
 */
export function checkListItems(scope: IConstruct, values: Record<string, unknown>): void {
  const problems = new Problems();
  const seen = new Set<object>();
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: values, path: "values", depth: 1 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (isUnresolved(value) || seen.has(value as object) || depth > MAX_VALUES_DEPTH) continue;
    const children: { value: unknown; path: string; depth: number }[] = [];
    if (Array.isArray(value)) {
      seen.add(value);
      // by index, not forEach / map: those skip a hole
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const at = `${path}[${i}]`;
        if (item === null || item === undefined)
          problems.add(
            new KarpenterValidationError(
              "HELM_VALUES_LIST_ITEM_MISSING",
              scope,
              at,
              item,
              `a list item: ${i in value ? `${item} is` : "a hole of a sparse array ([, x]) is written as null, and null is"} not an item of any list of the chart (Helm renders \`- null\`, which the API server refuses or the template cannot read): leave the item out`,
            ),
          );
        else children.push({ value: item, path: at, depth: depth + 1 });
      }
    } else if (isPlainMap(value)) {
      seen.add(value);
      for (const [k, v] of Object.entries(value))
        children.push({
          value: v,
          path: /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`,
          depth: depth + 1,
        });
    }
    // reversed, so that the items are reported in the order of the values
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  problems.throwIfAny(scope);
}

/**
 * `values.settings`, every problem at once: keys and values as for typed settings, wired keys refused; a value
 * an entry of `env` replaces is judged only for what the chart cannot render.
 */
function checkValuesSettings(
  scope: IConstruct,
  version: KarpenterVersion,
  settings: unknown,
  env: ControllerEnv,
): void {
  if (settings === undefined) return;
  if (!isPlainMap(settings))
    throw new KarpenterValidationError(
      "HELM_VALUES_SETTINGS",
      scope,
      "values.settings",
      settings,
      "a map of chart settings",
    );
  const problems = new Problems();
  const CHART_SETTINGS = chartKeyFacts("settings", version);
  for (const [key, value] of Object.entries(settings)) {
    if (key === "featureGates" || key === "awsFeatureGates") {
      if (value === null) continue;
      const facts = chartKeyFacts(key, version);
      const what = GATE_LABEL[key];
      if (!isPlainMap(value)) {
        problems.add(
          new KarpenterValidationError(
            "HELM_VALUES_SETTINGS",
            scope,
            `values.settings.${key}`,
            value,
            `a map of ${what}s`,
          ),
        );
        continue;
      }
      for (const [gate, v] of Object.entries(value)) {
        const fact = facts.find((f) => f.key === gate);
        if (!fact && passUnverified(scope, `values.settings.${key}.${gate}`, version, facts)) continue;
        if (!fact) problems.add(unknownKey(scope, `values.settings.${key}.${gate}`, v, facts, what, version));
        else if (v === null) {
          // null makes Helm remove the gate's default (chartutil coalesce), and the chart writes the gate unguarded
          // into the gate string (templates/deployment.yaml:130/132 of 1.15.0, `NodeRepair={{ … }}`; Helm renders the
          // missing value as "", helm v3.20.2 pkg/engine/engine.go:188), so the controller gets `NodeRepair=` and
          // fails at start: "invalid value of NodeRepair: , err: strconv.ParseBool" (sigs.k8s.io/karpenter v1.15.0
          // pkg/operator/options/options.go:259-262, 293-299; karpenter-provider-aws v1.15.0
          // pkg/operator/options/options.go:88-91, 108-116), as for "" (fresh17 S-1). The DRA gates are the exception:
          // _helpers.tpl:147-170 of 1.15.0 reads them with `default false`, and values.yaml holds them null. A gate
          // string an env entry replaces is not read, so the null does no harm there.
          if (!DEFAULTED_GATES.includes(gate) && !replacedByEnv(env, GATE_ENV[key], v) && hasKey(fact, version.full))
            problems.add(
              new KarpenterValidationError(
                "HELM_VALUES_SETTING",
                scope,
                `values.settings.${key}.${gate}`,
                v,
                `true or false, or leave it unset: null removes the chart's default of ${what} ${gate}, and the chart then writes ${gate[0].toUpperCase()}${gate.slice(1)}= (empty) into ${GATE_ENV[key]}, which the controller refuses at start (strconv.ParseBool: parsing "": invalid syntax)`,
              ),
            );
        } else {
          const judged = !replacedByEnv(env, GATE_ENV[key], v);
          problems.check(() => checkFact(scope, `values.settings.${key}.${gate}`, fact, v, version, what, judged));
        }
      }
      continue;
    }
    const fact = CHART_SETTINGS.find((f) => f.key === key);
    if (fact?.wired) {
      const use =
        key === "clusterName"
          ? "the cluster"
          : "the interruption queue (KarpenterRelease: `interruptionQueue: { queueName }`; Karpenter: `interruptionQueue: InterruptionQueueConfig.existing({ existingQueueName, existingQueueArn })` for a queue of your own)";
      problems.add(
        new KarpenterValidationError(
          "HELM_VALUES_WIRED",
          scope,
          `values.settings.${key}`,
          value,
          `not settable here: ${key} is wired from ${use}`,
        ),
      );
      continue;
    }
    if (!fact && passUnverified(scope, `values.settings.${key}`, version, CHART_SETTINGS)) continue;
    if (!fact)
      problems.add(
        unknownKey(
          scope,
          `values.settings.${key}`,
          value,
          CHART_SETTINGS.filter((f) => !f.wired),
          "setting",
          version,
        ),
      );
    else if (value !== null) {
      const judged = !replacedByEnv(env, settingEnvName(key), value);
      problems.check(() => checkFact(scope, `values.settings.${key}`, fact, value, version, "setting", judged));
    }
  }
  problems.throwIfAny(scope);
}

/**
 * The controller's ServiceAccount is wired: its name must be the one the pod identity association or
 * the IRSA trust names, and the role annotation must be the controller role. Under Pod Identity a
 * role annotation would make the AWS SDK prefer web identity (its credential chain reads the IRSA
 * variables the EKS webhook injects before the Pod Identity ones), so it is refused there too.
 */
function checkServiceAccountValues(scope: IConstruct, values: Record<string, unknown>, irsa: boolean): void {
  const sa = values.serviceAccount;
  if (sa === null) {
    throw new KarpenterValidationError(
      "HELM_VALUES_WIRED",
      scope,
      "values.serviceAccount",
      null,
      "not removable: its name (and with IRSA its role annotation) is wired; set serviceAccountName, or values.serviceAccount.create / annotations for the rest",
    );
  }
  if (!isPlainMap(sa)) return;
  if (sa.name !== undefined) {
    throw new KarpenterValidationError(
      "HELM_VALUES_WIRED",
      scope,
      "values.serviceAccount.name",
      sa.name,
      "not settable here: it must match the pod identity association / IRSA trust; use serviceAccountName",
    );
  }
  const annotations = sa.annotations;
  if (annotations === null && irsa) {
    throw new KarpenterValidationError(
      "HELM_VALUES_WIRED",
      scope,
      "values.serviceAccount.annotations",
      null,
      `not removable with IRSA: it holds the ${IRSA_ROLE_ANNOTATION} annotation of the controller role; set other annotations as a map instead`,
    );
  }
  if (isPlainMap(annotations) && annotations[IRSA_ROLE_ANNOTATION] !== undefined) {
    const why = irsa
      ? "with IRSA it is wired to the controller role, whose trust and policies are made for this controller"
      : "without IRSA it would make the AWS SDK in the controller prefer web identity over the EKS Pod Identity credentials";
    throw new KarpenterValidationError(
      "HELM_VALUES_WIRED",
      scope,
      `values.serviceAccount.annotations["${IRSA_ROLE_ANNOTATION}"]`,
      annotations[IRSA_ROLE_ANNOTATION],
      `not settable here: ${why}; the annotation is wired from identity: { type: "irsa" } (Karpenter) or irsaRoleArn (KarpenterRelease)`,
    );
  }
}

/**
 * `controller.resources` from the typed prop, each of the four fields defaulted separately. Only
 * the quantities are checked here: requests against limits are compared once `values` is merged
 * ({@link checkMergedResources}), since `values` may raise a limit.
 * @throws KarpenterValidationError for a literal quantity that is not a Kubernetes quantity above zero
 */
export function controllerResources(
  scope: IConstruct,
  given: ControllerResources | undefined,
): Record<string, unknown> {
  const problems = new Problems();
  problems.check(() => checkOptionKeys(scope, "controllerResources", given, CONTROLLER_RESOURCES));
  problems.check(() => checkOptionKeys(scope, "controllerResources.requests", given?.requests, RESOURCE_QUANTITIES));
  problems.check(() => checkOptionKeys(scope, "controllerResources.limits", given?.limits, RESOURCE_QUANTITIES));
  problems.throwIfAny(scope);
  const d = DEFAULT_CONTROLLER_RESOURCES;
  const requests = {
    cpu: given?.requests?.cpu ?? d.requests.cpu,
    memory: given?.requests?.memory ?? d.requests.memory,
  };
  const limits = { cpu: given?.limits?.cpu, memory: given?.limits?.memory ?? d.limits.memory };
  for (const [side, q] of [
    ["requests", requests],
    ["limits", limits],
  ] as const) {
    for (const [res, value] of Object.entries(q)) {
      if (value === undefined || isUnresolved(value)) continue;
      const n = typeof value === "string" ? parseQuantity(value) : undefined;
      const huge =
        res === "cpu" && (side === "requests" || requests.cpu === undefined) ? cpuBeyondAnyNode(value) : undefined;
      const allowed =
        huge ??
        (n === undefined || n <= 0
          ? res === "cpu"
            ? 'a Kubernetes CPU quantity above zero, e.g. "500m" or "1"'
            : 'a Kubernetes memory quantity above zero, e.g. "512Mi" or "1Gi"'
          : undefined);
      if (allowed !== undefined)
        problems.add(
          new KarpenterValidationError(
            "HELM_VALUES_RESOURCES",
            scope,
            `controllerResources.${side}.${res}`,
            value,
            allowed,
          ),
        );
    }
  }
  problems.throwIfAny(scope);
  return { requests, limits };
}

/**
 * Requests at most their limits in the merged `controller.resources` (typed props, then `values`):
 * Kubernetes rejects the pod otherwise, and Helm waits for it until the release times out. The
 * error names the request, unless only the limit came from `values` (then the limit is what to fix).
 * @throws KarpenterValidationError naming `controllerResources.…` or `values.controller.resources.…`
 */
export function checkMergedResources(
  scope: IConstruct,
  values: Record<string, unknown>,
  escape: Record<string, unknown> | undefined,
): void {
  const resources = isPlainMap(values.controller) ? values.controller.resources : undefined;
  if (!isPlainMap(resources)) return;
  const field = (side: string, res: string) =>
    escape && hasPath(escape, ["controller", "resources", side, res])
      ? `values.controller.resources.${side}.${res}`
      : `controllerResources.${side}.${res}`;
  const given: Record<string, Record<string, { value: unknown; n: number }>> = { requests: {}, limits: {} };
  for (const side of ["requests", "limits"]) {
    const q = resources[side];
    if (q === undefined || q === null) continue;
    if (!isPlainMap(q))
      throw new KarpenterValidationError(
        "HELM_VALUES_RESOURCES",
        scope,
        `values.controller.resources.${side}`,
        q,
        'a map of resource quantities, e.g. { cpu: "500m", memory: "512Mi" }',
      );
    for (const [res, value] of Object.entries(q)) {
      if (value === undefined || value === null || isUnresolved(value)) continue;
      const n =
        typeof value === "string" ? parseQuantity(value) : typeof value === "number" && value >= 0 ? value : undefined;
      if (n === undefined)
        throw new KarpenterValidationError(
          "HELM_VALUES_RESOURCES",
          scope,
          field(side, res),
          value,
          res === "cpu"
            ? 'a Kubernetes CPU quantity, e.g. "500m" or "1"'
            : 'a Kubernetes quantity, e.g. "512Mi" or "1Gi"',
        );
      given[side][res] = { value, n };
    }
  }
  for (const [res, req] of Object.entries(given.requests)) {
    const lim = given.limits[res];
    if (!lim || req.n <= lim.n) continue;
    const requestField = field("requests", res);
    const limitField = field("limits", res);
    if (limitField.startsWith("values.") && !requestField.startsWith("values.")) {
      throw new KarpenterValidationError(
        "HELM_VALUES_REQUEST_ABOVE_LIMIT",
        scope,
        limitField,
        lim.value,
        `at least the request (${String(req.value)}, ${requestField}): Kubernetes rejects a request above its limit; lower ${requestField} too`,
      );
    }
    throw new KarpenterValidationError(
      "HELM_VALUES_REQUEST_ABOVE_LIMIT",
      scope,
      requestField,
      req.value,
      `at most the limit (${String(lim.value)}, ${limitField}): Kubernetes rejects a request above its limit; raise ${limitField} too`,
    );
  }
}

/**
 * A node selector (`nodeSelector`, or `values.nodeSelector` with `field`): label keys are qualified
 * names and values label values, by the Kubernetes rules (k8s.io/apimachinery `IsQualifiedName`,
 * `IsValidLabelValue`; an empty value selects nodes whose label is empty). The API server rejects the
 * controller's pods otherwise, and Helm waits for them until the release times out. `null` values
 * (remove a chart default) and tokens pass.
 * @throws KarpenterValidationError naming `<field>["<key>"]`, every bad entry at once
 */
export function checkNodeSelector(
  scope: IConstruct,
  selector: Record<string, string> | undefined,
  field = "nodeSelector",
): Record<string, string> | undefined {
  const map = checkMap(scope, field, selector);
  if (!map) return undefined;
  const problems = new Problems();
  for (const [k, v] of Object.entries(map)) {
    const where = `${field}[${JSON.stringify(k)}]`;
    const keyProblem = isUnresolved(k) ? undefined : qualifiedNameProblem(k);
    if (keyProblem)
      problems.add(
        new KarpenterValidationError(
          "HELM_VALUES_LABEL_KEY",
          scope,
          where,
          k,
          `a Kubernetes label key, [<DNS subdomain prefix>/]<name>: ${keyProblem}`,
        ),
      );
    else if (v !== null && v !== undefined && !isUnresolved(v) && !isLabelValue(v)) {
      problems.add(
        new KarpenterValidationError(
          "HELM_VALUES_LABEL_VALUE",
          scope,
          where,
          v,
          "a Kubernetes label value (a string): empty, or at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit",
        ),
      );
    }
  }
  problems.throwIfAny(scope);
  return map as Record<string, string>;
}

/**
 * The levels the controller accepts in `LOG_LEVEL` (chart value `logLevel`, passed verbatim by the
 * chart's `templates/deployment.yaml`), from 1.14 on: kubernetes-sigs/karpenter
 * `pkg/operator/options/options.go` has `validLogLevels = []string{"", "debug", "info", "error"}` and
 * `Parse` returns `invalid LOG_LEVEL %q` for any other text (v1.14.1 `options.go:48,144`, v1.15.0
 * `options.go:53,248`); `pkg/operator/injection/injection.go` runs `lo.Must0(opt.Parse(…))`, so the
 * controller panics at start and crash-loops. The comparison is case-sensitive: `DEBUG` and zap's
 * `warn` are refused. Read in the only karpenter module versions at hand (v1.14.1 and v1.15.0); the
 * rule is applied to the whole of those minors (1.14.0 taken as 1.14.1) and to an unverified newer
 * version (which uses the newest minor's facts).
 */
const LOG_LEVELS = ["debug", "info", "error"];
/** The first release whose `LOG_LEVEL` list has been read in the source (see {@link LOG_LEVELS}). */
const LOG_LEVELS_SOURCED_SINCE = "1.14.0";
/**
 * Before 1.14 the library has not read the controller's source (no older karpenter module is at hand),
 * so it keeps the check it had: the documented levels (Karpenter docs, "Settings": LOG_LEVEL "Can be one
 * of 'debug', 'info', or 'error'") plus zap's `warn`, `dpanic`, `panic` and `fatal`, in lower or upper
 * case. That the controller of these releases parses LOG_LEVEL with zap is an earlier, unconfirmed reading,
 * not a sourced fact; 1.14 and 1.15 do not (see {@link LOG_LEVELS}).
 */
const UNSOURCED_ZAP_LEVELS = ["warn", "dpanic", "panic", "fatal"];

/**
 * A log level for the controller's `LOG_LEVEL` (`values.logLevel`, or a `LOG_LEVEL` entry of
 * `values.controller.env`): from 1.14 one of `debug`, `info`, `error` exactly (see {@link LOG_LEVELS});
 * before, the levels of {@link UNSOURCED_ZAP_LEVELS} too. `null` or `""` leave the controller's `info`
 * (the chart writes no LOG_LEVEL for an empty value); a token passes.
 * @throws KarpenterValidationError naming `field`
 */
export function checkLogLevel(scope: IConstruct, version: KarpenterVersion, field: string, level: unknown): void {
  if (level === undefined || level === null || level === "" || isUnresolved(level)) return;
  if (version.atLeast(LOG_LEVELS_SOURCED_SINCE)) {
    if (typeof level === "string" && LOG_LEVELS.includes(level)) return;
    const lower = typeof level === "string" ? level.toLowerCase() : undefined;
    const near =
      lower === undefined
        ? undefined
        : LOG_LEVELS.includes(lower)
          ? `did you mean "${lower}"? The controller compares the level case-sensitively. `
          : (() => {
              const k = nearestKey(lower, LOG_LEVELS);
              return k ? `did you mean "${k}"? ` : undefined;
            })();
    throw new KarpenterValidationError(
      "HELM_VALUES_LOG_LEVEL",
      scope,
      field,
      level,
      `${near ?? ""}a log level the Karpenter ${version.full} controller accepts in LOG_LEVEL: "debug", "info" (the chart's default) or "error", lower case (kubernetes-sigs/karpenter pkg/operator/options/options.go validLogLevels); on anything else it panics at start with invalid LOG_LEVEL`,
    );
  }
  const known =
    typeof level === "string" &&
    [...LOG_LEVELS, ...UNSOURCED_ZAP_LEVELS].some((l) => l === level || l.toUpperCase() === level);
  if (!known) {
    throw new KarpenterValidationError(
      "HELM_VALUES_LOG_LEVEL",
      scope,
      field,
      level,
      `a log level: "debug", "info" (the chart's default) or "error" (Karpenter docs, Settings: LOG_LEVEL); for Karpenter ${version.full} the library has not read the controller's source and also takes zap's "warn", "dpanic", "panic" and "fatal"`,
    );
  }
}

/**
 * Entries of `values.controller.env` that set a controller option the library checks elsewhere: the
 * chart appends that list after its own env vars (charts/karpenter/templates/deployment.yaml of 1.15.0:
 * `with .Values.controller.env` after the last setting, :214), and of two entries with one name the
 * container gets the last (kubernetes pkg/kubelet/kubelet_pods.go:965, `tmpEnv[envVar.Name] = runtimeVal`
 * in list order), so only the last entry of a name is judged; an earlier one is shadowed, with a warning
 * as the API server gives (pkg/api/pod/warnings.go:291, "hides previous definition"). The controller
 * reads every option from the environment at start and exits on an error (sigs.k8s.io/karpenter
 * pkg/operator/injection/injection.go:53, `lo.Must0(opt.Parse(...))`):
 * - `LOG_LEVEL`: the `values.logLevel` check (an empty value is valid: options.go validLogLevels has "");
 * - the env var of a setting ({@link SETTING_ENV}): the typed setting's check, on the env string itself for
 *   enums, durations and the endpoint URL (an empty CLUSTER_ENDPOINT means "discover it", aws
 *   options_validation.go:59-61), on the number Go's strconv reads for RESERVED_ENIS and
 *   VM_MEMORY_OVERHEAD_PERCENT (aws options_validation.go:72-84 refuse a negative one);
 * - `CLUSTER_NAME`: an empty one fails the controller ("missing field, cluster-name", aws
 *   options_validation.go:86-89; env.go:57-63 returns "" for a present, empty variable), another name than
 *   the wired cluster's is refused as `values.settings.clusterName` is (a token cluster name: a warning);
 * - `FEATURE_GATES` and `AWS_FEATURE_GATES` (from 1.14 / 1.15): the controller's parsing (before 1.14 a
 *   literal `FEATURE_GATES` warns that it is not checked: the parsing has been read in the source from 1.14.0 only);
 * - `SCHEDULER_CONFIG` (from 1.15): the controller's parsing ({@link schedulerConfigProblems}).
 *
 * - the controller's own options ({@link CONTROLLER_OPTIONS}: ports, client QPS and burst, booleans, memory and
 *   CPU figures, the leader-election Lease's name and namespace), by `controllerOptionProblem`: what panics or
 *   breaks the controller, and what its parse (pkg/utils/env/env.go `WithDefaultInt`, `WithDefaultInt64`,
 *   `WithDefaultBool`) cannot read and silently replaces with its default. The ports together with the chart's
 *   are judged by `checkControllerPorts`.
 *
 * Only a literal string `value` (or none, or `valueFrom: null`: the variable is then "") with
 * a literal `name` is judged (not `valueFrom`, not a token, not another name); controller-env.ts reads the entries.
 * @param clusterName the name of the cluster the install is wired to, when known at synth
 */
function checkControllerEnv(
  scope: IConstruct,
  version: KarpenterVersion,
  env: ControllerEnv,
  clusterName: string | undefined,
): void {
  const settings = chartKeyFacts("settings", version);
  const problems = new Problems();
  for (const e of env.entries) {
    const i = e.index;
    const last = env.winners.get(e.name)!.index;
    if (last !== i) {
      Annotations.of(scope).addWarning(
        `values.controller.env[${i}] (${e.name}) is shadowed by values.controller.env[${last}]: of two env entries with one name the container gets the last (kubelet), and the API server warns that it "hides previous definition"; drop the earlier entry`,
      );
      continue;
    }
    const field = `values.controller.env[${i}].value`;
    const given = e.value;
    if (e.name === "LOG_LEVEL") {
      problems.check(() => checkLogLevel(scope, version, field, given));
      continue;
    }
    if (typeof given !== "string" || isUnresolved(given)) continue;
    const value = given;
    if (e.name === GATE_ENV.featureGates || e.name === GATE_ENV.awsFeatureGates) {
      // AWS_FEATURE_GATES is read from 1.15 (karpenter-provider-aws v1.14.1 options.go has no such env var)
      const since = e.name === GATE_ENV.awsFeatureGates ? AWS_FEATURE_GATES_SINCE : GATE_STRING_SOURCED_SINCE;
      const section = e.name === GATE_ENV.awsFeatureGates ? "awsFeatureGates" : "featureGates";
      if (version.atLeast(since)) problems.check(() => checkGateString(scope, version, section, field, value));
      else if (e.name === GATE_ENV.featureGates) warnUncheckedGateString(scope, version, field, value);
      continue;
    }
    if (e.name === "SCHEDULER_CONFIG") {
      problems.check(() => checkSchedulerConfig(scope, version, field, value));
      continue;
    }
    if (e.name === "CLUSTER_NAME") {
      problems.check(() => checkClusterNameEnv(scope, field, value, clusterName));
      continue;
    }
    if (CONTROLLER_OPTIONS[e.name]) {
      const problem = controllerOptionProblem(version, e.name, value);
      if (problem)
        problems.add(new KarpenterValidationError("HELM_VALUES_CONTROLLER_OPTION", scope, field, value, problem));
      else if (e.name === "LEADER_ELECTION_NAME" && value !== CONTROLLER_OPTIONS[e.name].def)
        Annotations.of(scope).addWarning(
          `${field} = ${JSON.stringify(value)} (LEADER_ELECTION_NAME): the chart's Role lets the controller update and patch only the Lease named "karpenter-leader-election" (charts/karpenter/templates/role.yaml:18-22 of 1.15.0), so with another name it creates its Lease but cannot renew it and loses leadership, unless a rule of your own (values.additionalClusterRoleRules) grants update and patch on leases`,
        );
      continue;
    }
    const fact = settings.find((f) => SETTING_ENV[f.key] === e.name);
    if (!fact || !hasKey(fact, version.full)) continue;
    const problem = envSettingProblem(fact, e.name, value);
    if (problem)
      problems.add(
        new KarpenterValidationError(
          "HELM_VALUES_SETTING",
          scope,
          field,
          value,
          `${problem}: ${e.name} is the env var of settings.${fact.key} (the chart writes it from there; this entry, after the chart's own, wins), and takes what that setting takes`,
        ),
      );
  }
  problems.throwIfAny(scope);
}

/**
 * The controller's default of each duration env var, which it silently uses when time.ParseDuration cannot read
 * the string (sigs.k8s.io/karpenter v1.15.0 pkg/utils/env/env.go:80-90 `WithDefaultDuration`): BATCH_* from
 * sigs.k8s.io/karpenter v1.15.0 pkg/operator/options/options.go:231-232, the refresh intervals from
 * karpenter-provider-aws v1.15.0 pkg/operator/options/options.go:75-77.
 */
const ENV_DURATION_DEFAULT: Readonly<Record<string, string>> = {
  BATCH_MAX_DURATION: "10s",
  BATCH_IDLE_DURATION: "1s",
  AMI_REFRESH_INTERVAL: "1m",
  SUBNET_REFRESH_INTERVAL: "1m",
  SECURITY_GROUP_REFRESH_INTERVAL: "1m",
};

/**
 * The problem of a setting's env string, undefined when the controller takes it or the kind is not judged. A string the controller
 * cannot parse is refused although the controller does not fail on it (it silently uses its default: the
 * library never lets a value fall back silently), and each message says which of the two happens (fresh11 C-3).
 */
function envSettingProblem(fact: ChartKeyFact, envName: string, value: string): string | undefined {
  // aws options_validation.go:59-61: an empty endpoint is "not set", discovered with DescribeCluster; an empty CA
  // bundle is "not set" too, taken from the controller's TLS configuration (aws operator.go:333-338 GetCABundle)
  if ((fact.kind === "url" || fact.kind === "base64") && value === "") return undefined;
  // env.go:67-77 WithDefaultBool: strconv.ParseBool, the default on a parse error (sigs.k8s.io/karpenter
  // options.go:203-204 BoolVarWithEnv; karpenter-provider-aws options.go:68-74 the same)
  if (fact.kind === "boolean")
    return GO_TRUE.includes(value) || GO_FALSE.includes(value)
      ? undefined
      : `"true" or "false" (or what Go's strconv.ParseBool reads: 1, 0, t, f, in lower, upper or title case; strconv.ParseBool cannot read ${JSON.stringify(value)}: the controller would not fail but silently use its default, env.go WithDefaultBool)`;
  if (fact.kind === "duration") {
    const problem = checkChartValue(fact, value);
    if (!problem) return undefined;
    // time.ParseDuration: a sign, then number+unit runs; out of int64 nanoseconds is an error too
    const ns = GO_DURATION.test(value) ? durationNanos(value) : undefined;
    if (ns === undefined || ns > MAX_DURATION_NS)
      return `${problem} (time.ParseDuration cannot read it: the controller would not fail but silently use its default ${ENV_DURATION_DEFAULT[envName] ?? "for the variable"}, env.go WithDefaultDuration)`;
    return fact.minDuration
      ? `${problem} (the controller fails at start: karpenter-provider-aws options_validation.go:38-57 "must be at least ${fact.minDuration}")`
      : `${problem} (the controller takes it without error; the library refuses it as it refuses settings.${fact.key})`;
  }
  if (ENV_JUDGED_KINDS.includes(fact.kind)) return checkChartValue(fact, value);
  if (fact.kind === "integer-string") {
    // env.go:29-39 WithDefaultInt: strconv.Atoi, a sign allowed, 64-bit; the typed rule on what it reads
    const n = /^[+-]?\d+$/.test(value) ? BigInt(value) : undefined;
    if (n === undefined || n > GO_INT_MAX || n < -GO_INT_MAX - 1n)
      return `${checkChartValue(fact, -1)} as a decimal integer (strconv.Atoi cannot read it: the controller would not fail but silently use its default 0)`;
    return n < 0n
      ? `${checkChartValue(fact, -1)} (the controller fails at start: "reserved-enis cannot be negative", karpenter-provider-aws options_validation.go:79-84)`
      : undefined;
  }
  if (fact.kind === "number") {
    const n = goParseFloat(value);
    if (n === undefined)
      return `${checkChartValue(fact, NaN)}, written as a decimal number (strconv.ParseFloat cannot read it, or it is out of float64 range: the controller would not fail but silently use its default 0.075, karpenter-provider-aws pkg/utils/utils.go:88-98 WithDefaultFloat64)`;
    const problem = checkChartValue(fact, n);
    if (!problem) return undefined;
    return n < 0
      ? `${problem} (the controller fails at start: "vm-memory-overhead-percent cannot be negative", karpenter-provider-aws options_validation.go:72-77)`
      : `${problem} (the controller takes it without error; the library refuses it as it refuses settings.vmMemoryOverheadPercent)`;
  }
  return undefined;
}

/** Go's largest `int` on the 64-bit controller image. */
const GO_INT_MAX = 2n ** 63n - 1n;

/**
 * A float as Go's strconv.ParseFloat(s, 64) reads it (a sign, a decimal mantissa with an optional exponent,
 * a hex mantissa with a `p` exponent, inf / infinity / nan in any case); undefined when it fails. `_`
 * between the digits of a hex float (which Go takes) is not read here: that falls to the parse-error message.
 */
function goParseFloat(s: string): number | undefined {
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(s)) return NaN;
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?\d+)$/.exec(s);
  if (hex && hex[2] + hex[3] !== "") {
    const v = parseInt(hex[2] + hex[3], 16) * 2 ** (Number(hex[4]) - 4 * hex[3].length);
    // beyond float64 Go returns ±Inf with ErrRange, an error to WithDefaultFloat64
    return Number.isFinite(v) ? (hex[1] === "-" ? -v : v) : undefined;
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return undefined;
  // "1e400": ErrRange (strconv atof.go: overflow only; an underflow reads as 0 without error)
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * A CLUSTER_NAME entry: it replaces the cluster name the chart writes from the wired cluster
 * (settings.clusterName). Empty fails the controller at start; another name points it at another
 * cluster's subnets, security groups and nodes, so it is refused as `values.settings.clusterName` is.
 */
function checkClusterNameEnv(scope: IConstruct, field: string, value: string, clusterName: string | undefined): void {
  if (value === "")
    throw new KarpenterValidationError(
      "HELM_VALUES_SETTING",
      scope,
      field,
      value,
      'a non-empty cluster name, or no CLUSTER_NAME entry: the controller fails at start with "missing field, cluster-name" (karpenter-provider-aws options_validation.go:86-89; an env var set to "" is read as "", sigs.k8s.io/karpenter env.go:57-63), and this entry, after the chart\'s own, wins',
    );
  if (clusterName === undefined) {
    Annotations.of(scope).addWarning(
      `${field} = ${JSON.stringify(value)} replaces the cluster name wired from the cluster (settings.clusterName; this entry, after the chart's own, wins), which is known only at apply: it must be that cluster's name, or the controller discovers another cluster's subnets, security groups and nodes. Drop the entry: the name is wired`,
    );
    return;
  }
  if (value !== clusterName)
    throw new KarpenterValidationError(
      "HELM_VALUES_WIRED",
      scope,
      field,
      value,
      `${JSON.stringify(clusterName)} (the cluster the install is wired to) or no CLUSTER_NAME entry: the cluster name is wired from the cluster (settings.clusterName), and this entry, after the chart's own, would point the controller at another cluster; set the cluster prop instead`,
    );
}

/**
 * A SCHEDULER_CONFIG entry, from 1.15 (see {@link schedulerConfigProblems}); before 1.15 the controller
 * has no such variable (v1.14.1 options.go), so it is not refused there: a warning says it has no effect.
 */
function checkSchedulerConfig(scope: IConstruct, version: KarpenterVersion, field: string, value: string): void {
  if (!version.atLeast(SCHEDULER_CONFIG_SINCE)) {
    Annotations.of(scope).addWarning(
      `${field}: SCHEDULER_CONFIG has no effect on Karpenter ${version.full}: the controller reads it from ${SCHEDULER_CONFIG_SINCE} on (sigs.k8s.io/karpenter v1.14.1 options.go has no such variable)`,
    );
    return;
  }
  const problems = schedulerConfigProblems(value);
  if (problems.length === 0) return;
  throw new KarpenterValidationError(
    "HELM_VALUES_SCHEDULER_CONFIG",
    scope,
    field,
    value,
    `a scheduler config the Karpenter ${version.full} controller accepts, a YAML/JSON map such as "podTopologySpread:\n  defaultConstraints:\n  - maxSkew: 1\n    topologyKey: topology.kubernetes.io/zone\n    whenUnsatisfiable: ScheduleAnyway", with no unknown field, maxSkew above 0, a valid topologyKey, whenUnsatisfiable DoNotSchedule or ScheduleAnyway, no labelSelector or matchLabelKeys, and no two constraints with the same topologyKey and whenUnsatisfiable (sigs.k8s.io/karpenter pkg/operator/options/options.go ParseSchedulerConfiguration); ${problems.join("; ")}: the controller fails at start parsing scheduler config`,
  );
}

/**
 * The controller pod's own values the chart writes into the pod template (charts/karpenter/templates/deployment.yaml
 * of 1.15.0; the same templates in every release from 1.0), each as the API server takes it:
 * - `podLabels` (:27-29, `toYaml` into the template's labels): label keys and values (apimachinery
 *   `ValidateLabels`), as {@link checkNodeSelector} judges them;
 * - `podAnnotations` (:31-33): string values (ObjectMeta.annotations is map[string]string: a number or boolean
 *   fails the decoding) and qualified-name keys (apimachinery v0.36.3 pkg/api/validation/objectmeta.go:44-56
 *   `ValidateAnnotations`);
 * - `priorityClassName` (:45-46): a DNS-1123 subdomain (k8s.io/kubernetes v1.36.3
 *   pkg/apis/core/validation/validation.go:4704-4708, `ValidatePriorityClassName` = `NameIsDNSSubdomain`);
 * - `terminationGracePeriodSeconds` (:48-49, written unquoted as `{{ . }}`): a whole number of seconds
 *   (PodSpec's is an int64: text fails the decoding), not negative (pkg/api/pod/warnings.go:353-355: "negative
 *   values are invalid and will be treated as 1", a silent change); a string of digits renders as that number;
 * - `tolerations` (:282-284): as the typed prop ({@link checkTolerations});
 * - `additionalLabels` and `additionalAnnotations` (_helpers.tpl:43, deployment.yaml:9 and the other objects): as the pod's.
 * `null`, an empty value the chart's `with` skips, and tokens pass.
 * @throws KarpenterValidationError naming the `values.…` path, every problem at once
 */
function checkPodValues(scope: IConstruct, values: Record<string, unknown>): void {
  const problems = new Problems();
  const labels = values.podLabels;
  if (labels !== null && labels !== undefined)
    problems.check(() => checkNodeSelector(scope, labels as Record<string, string>, "values.podLabels"));
  // the chart writes the selector labels, then podLabels, into the pod template's labels (deployment.yaml:25-29 of
  // 1.15.0, _helpers.tpl:51-54): a podLabels key that is a selector label is written twice (fresh tester 24 S-15)
  if (isPlainMap(labels))
    for (const key of ["app.kubernetes.io/name", "app.kubernetes.io/instance"])
      if (Object.prototype.hasOwnProperty.call(labels, key) && !isUnresolved(key))
        problems.add(
          new KarpenterValidationError(
            "HELM_VALUES_POD_SPEC",
            scope,
            `values.podLabels["${key}"]`,
            labels[key],
            `a label other than the chart's selector labels (app.kubernetes.io/name, app.kubernetes.io/instance): the chart writes them into the pod template before podLabels (deployment.yaml:25-29, _helpers.tpl:51-54), so the template holds ${key} twice; with another value the pod template's labels no longer match the Deployment's selector, which the API server refuses ("\`selector\` does not match template \`labels\`", k8s.io/kubernetes v1.36.3 pkg/apis/apps/validation/validation.go:447-448). Use another label key`,
          ),
        );
  // imagePullPolicy (deployment.yaml:91, written as it is): Always, IfNotPresent or Never (k8s.io/kubernetes v1.36.3
  // pkg/apis/core/validation/validation.go validatePullPolicy); "" and null leave the server's default (fresh tester 24 S-16)
  const pull = values.imagePullPolicy;
  if (
    typeof pull === "string" &&
    pull !== "" &&
    !isUnresolved(pull) &&
    !["Always", "IfNotPresent", "Never"].includes(pull)
  )
    problems.add(
      new KarpenterValidationError(
        "HELM_VALUES_POD_SPEC",
        scope,
        "values.imagePullPolicy",
        pull,
        `one of "Always", "IfNotPresent", "Never" (case-sensitive): the chart writes it as the controller container's imagePullPolicy (deployment.yaml:91), and the API server refuses another value ("supported values: Always, IfNotPresent, Never", k8s.io/kubernetes v1.36.3 pkg/apis/core/validation/validation.go:3605-3620, validatePullPolicy)`,
      ),
    );
  // the chart writes additionalLabels on every object (_helpers.tpl:43) and additionalAnnotations on the
  // Deployment, ServiceAccount, PDB and RBAC objects (deployment.yaml:9 …): the same rules as the pod's
  const extraLabels = values.additionalLabels;
  if (extraLabels !== null && extraLabels !== undefined)
    problems.check(() => checkNodeSelector(scope, extraLabels as Record<string, string>, "values.additionalLabels"));
  checkAnnotationMap(scope, problems, "values.podAnnotations", values.podAnnotations);
  checkAnnotationMap(scope, problems, "values.additionalAnnotations", values.additionalAnnotations);
  const image = isPlainMap(values.controller) ? values.controller.image : undefined;
  for (const p of imageReferenceProblems(image))
    problems.add(
      new KarpenterValidationError(
        "HELM_VALUES_POD_SPEC",
        scope,
        `values.controller.image.${p.part}`,
        p.value,
        p.message,
      ),
    );
  const pcn = values.priorityClassName;
  if (pcn !== null && pcn !== undefined && pcn !== "" && !isUnresolved(pcn) && !isDns1123Subdomain(pcn))
    problems.add(
      new KarpenterValidationError(
        "HELM_VALUES_POD_SPEC",
        scope,
        "values.priorityClassName",
        pcn,
        "the name of a PriorityClass, a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', at most 253 characters), e.g. \"system-cluster-critical\"",
      ),
    );
  const grace = values.terminationGracePeriodSeconds;
  if (grace !== null && grace !== undefined && grace !== "" && !isUnresolved(grace)) {
    const whole =
      (typeof grace === "number" && Number.isSafeInteger(grace) && grace >= 0) ||
      (typeof grace === "string" && /^(0|[1-9]\d{0,14})$/.test(grace));
    if (!whole)
      problems.add(
        new KarpenterValidationError(
          "HELM_VALUES_POD_SPEC",
          scope,
          "values.terminationGracePeriodSeconds",
          grace,
          `${wholeNumberText(0, Number.MAX_SAFE_INTEGER, grace)} of seconds, e.g. 30 (the chart writes it unquoted into the pod spec's int64; text fails the decoding, and a negative number is treated as 1)`,
        ),
      );
  }
  const tolerations = values.tolerations;
  if (tolerations !== null && tolerations !== undefined && !isUnresolved(tolerations))
    problems.check(() => checkTolerations(scope, tolerations as KubernetesToleration[], "values.tolerations"));
  problems.throwIfAny(scope);
}

/**
 * The values the chart writes into the Deployment, PodDisruptionBudget and ClusterRole, judged by the API server's
 * value rules (kubernetes/object-rules.ts, each rule cited there): `revisionHistoryLimit`, `strategy`,
 * `podDisruptionBudget.maxUnavailable`, `affinity`, `topologySpreadConstraints`, `podSecurityContext`,
 * `controller.securityContext`, `additionalClusterRoleRules`. Where a rule joins fields, the chart's defaults the
 * values merge into take part (values.yaml `strategy.rollingUpdate.maxUnavailable: 1`, and since chart 1.5
 * `podSecurityContext.seccompProfile.type: RuntimeDefault`), as Helm merges them.
 * @throws KarpenterValidationError (HELM_VALUES_K8S_VALUE) naming the `values.…` path, every problem at once
 */
function checkObjectValues(
  scope: IConstruct,
  version: KarpenterVersion,
  values: Record<string, unknown>,
  releaseName: string,
  kubernetesVersion?: string,
): void {
  const paths = valuePathsAt(factsRelease(version.full));
  const found: ObjectValueProblem[] = [];
  const labels = podLabelContext(values.podLabels, kubernetesVersion);
  found.push(...revisionHistoryLimitProblems(values.revisionHistoryLimit, "values.revisionHistoryLimit"));
  // deployment.yaml:15 of 1.15.0 (`revisionHistoryLimit: {{ .Values.revisionHistoryLimit }}`, unquoted; int32)
  found.push(
    ...int32Problems(
      values.revisionHistoryLimit,
      "values.revisionHistoryLimit",
      "the number of old ReplicaSets to keep",
    ),
  );
  found.push(...nameOverrideProblems(values, releaseName));
  found.push(...podPartsProblems(version, values));
  if (isPlainMap(values.strategy)) {
    // chart templates/deployment.yaml:15-19 (`with .Values.strategy`, toYaml): an empty map is not written
    const chart = paths.includes("strategy.rollingUpdate.maxUnavailable")
      ? { rollingUpdate: { maxUnavailable: 1 } }
      : {};
    const strategy = mergeHelmValues(chart, values.strategy);
    if (Object.values(strategy).some((v) => v !== null))
      found.push(...deploymentStrategyProblems(strategy, "values.strategy"));
  }
  const pdb = values.podDisruptionBudget;
  if (isPlainMap(pdb))
    found.push(...disruptionBudgetProblems(pdb.maxUnavailable, "values.podDisruptionBudget.maxUnavailable"));
  // templates/poddisruptionbudget.yaml:4 of 1.15.0 (`name: {{ .Values.podDisruptionBudget.name }}`, no guard; the
  // same from 1.0): null or "" renders a PDB without a name, which the API server refuses ("name or generateName is
  // required", k8s.io/apiserver v0.36.3 pkg/registry/rest/create.go:136 → k8s.io/apimachinery v0.36.3
  // pkg/api/validation/objectmeta.go:194/237), and helm's own Get fails first (k8s.io/client-go v0.36.3
  // rest/request.go:336 "resource name may not be empty") (fresh17 S-3)
  if (
    isPlainMap(pdb) &&
    pdb.name !== undefined &&
    !isUnresolved(pdb.name) &&
    (typeof pdb.name !== "string" || pdb.name === "")
  )
    found.push({
      field: "values.podDisruptionBudget.name",
      value: pdb.name,
      allowed:
        'the name of the PodDisruptionBudget, a non-empty string such as "karpenter", or leave it unset (the chart\'s default is "karpenter"): the chart writes it as metadata.name unguarded, and a PodDisruptionBudget needs a name',
    });
  found.push(...affinityProblems(values.affinity, "values.affinity", labels));
  found.push(...topologySpreadProblems(values.topologySpreadConstraints, "values.topologySpreadConstraints", labels));
  for (const w of labels.warnings ?? []) Annotations.of(scope).addWarning(w);
  if (isPlainMap(values.podSecurityContext)) {
    const chart = paths.includes("podSecurityContext.seccompProfile.type")
      ? { seccompProfile: { type: "RuntimeDefault" } }
      : {};
    found.push(
      ...podSecurityContextProblems(mergeHelmValues(chart, values.podSecurityContext), "values.podSecurityContext"),
      ...hostProcessProblems(values.podSecurityContext, values.hostNetwork, "values.podSecurityContext"),
    );
  }
  // the chart renders controller.securityContext's profiles since it lists them (1.5: deployment.yaml:75-88)
  if (isPlainMap(values.controller) && paths.includes("controller.securityContext.seccompProfile{}"))
    found.push(
      ...containerSecurityContextProblems(values.controller.securityContext, "values.controller.securityContext"),
    );
  found.push(...policyRuleProblems(values.additionalClusterRoleRules, "values.additionalClusterRoleRules"));
  throwObjectProblems(scope, found);
}

/**
 * `nameOverride` / `fullnameOverride` as the chart's `karpenter.fullname` and `karpenter.name` use them
 * (_helpers.tpl:4-24 of 1.15.0, the same in every release; helm.ts chartFullName): judged only when the name without
 * them is valid (a release name the Service cannot take is not the override's fault).
 */
function nameOverrideProblems(values: Record<string, unknown>, releaseName: string): ObjectValueProblem[] {
  if (isUnresolved(releaseName)) return [];
  const given = (k: string) => typeof values[k] === "string" && values[k] !== "" && !isUnresolved(values[k]);
  const field = given("fullnameOverride") ? "fullnameOverride" : given("nameOverride") ? "nameOverride" : undefined;
  if (!field) return [];
  const plain = { ...values, nameOverride: undefined, fullnameOverride: undefined };
  if (chartNameProblems(chartFullName(releaseName, plain), "karpenter", "", "").length > 0) return [];
  const name = given("nameOverride") ? (values.nameOverride as string).slice(0, 63).replace(/-+$/, "") : "karpenter";
  const byName = chartNameProblems(chartFullName(releaseName, values), name, `values.${field}`, values[field]);
  // the name label comes from nameOverride alone
  return byName.map((p) =>
    p.allowed.includes("app.kubernetes.io/name")
      ? { ...p, field: "values.nameOverride", value: values.nameOverride }
      : p,
  );
}

/** The values lists the chart renders into the pod, as the API server sees them together (deployment.yaml of 1.15.0 :214-291). */
function podPartsProblems(version: KarpenterVersion, values: Record<string, unknown>): ObjectValueProblem[] {
  const found: ObjectValueProblem[] = [];
  const controller = isPlainMap(values.controller) ? values.controller : {};
  const rendered = (path: string) => typedValueLines(path, version.full) !== undefined;
  const volumes = rendered("extraVolumes") ? values.extraVolumes : undefined;
  found.push(...volumeProblems(volumes, "values.extraVolumes"));
  const names = volumeNames(volumes);
  // Array.from: a hole becomes undefined, so the callbacks below see every index (a hole would otherwise stay a hole
  // in the mapped list, and containerProblems' destructuring stopped on it: fresh15 C-2); checkListItems names it
  const asList = (v: unknown) => (Array.isArray(v) && !isUnresolved(v) ? Array.from(v as unknown[]) : []);
  const mountsOf = (path: string): RenderedMount[] =>
    rendered(path)
      ? asList(controller[path.slice("controller.".length)]).map((m, i) => ({
          mount: m,
          field: `values.${path}[${i}]`,
        }))
      : [];
  const extraMounts = mountsOf("controller.extraVolumeMounts");
  const sidecarMounts = mountsOf("controller.sidecarVolumeMounts");
  // the controller container: extraVolumeMounts (deployment.yaml:244-249), env and envFrom (:214-220)
  found.push(...volumeMountProblems(extraMounts, names, "controller"));
  found.push(...envValueFromProblems(controller.env, "values.controller.env"));
  found.push(...envFromProblems(controller.envFrom, "values.controller.envFrom"));
  // its resources (:240-243) by the rules every container of the pod gets (sidecars and init containers below), as
  // merged over the typed prop's, which always give a cpu and a memory request (controllerResources)
  const controllerRes = isPlainMap(controller.resources)
    ? mergeHelmValues({ requests: { ...DEFAULT_CONTROLLER_RESOURCES.requests } }, controller.resources)
    : controller.resources;
  found.push(
    ...resourceRequirementsProblems(controllerRes, "values.controller.resources", {
      quantitiesJudgedElsewhere: true,
    }),
  );
  // its name: `controller` (1.0: deployment.yaml:60), `controller.containerName` or "controller" from 1.1.1
  // (:63 of 1.1.10, _helpers.tpl:81-83 of 1.15.0)
  const own =
    valuePathsAt(factsRelease(version.full)).includes("controller.containerName") &&
    typeof controller.containerName === "string" &&
    controller.containerName !== ""
      ? controller.containerName
      : "controller";
  // sidecars: from 1.3 each item gets extraVolumeMounts + sidecarVolumeMounts (`range`, :250-261 of 1.15.0); up to
  // 1.2 the list is written whole and the mounts land in its last item (:195-206 of 1.0.14, :186-197 of 1.2.8)
  const sidecars = rendered("controller.sidecarContainer") ? asList(controller.sidecarContainer) : [];
  const each = version.atLeast("1.3");
  const sidecarItems: RenderedContainer[] = sidecars.map((c, i) => ({
    container: c,
    field: `values.controller.sidecarContainer[${i}]`,
    mounts: each || i === sidecars.length - 1 ? [...extraMounts, ...sidecarMounts] : [],
  }));
  found.push(...containerProblems(sidecarItems, new Set([own]), names));
  // init containers share the regular containers' name space (validation.go:3807-3830)
  const regular = new Set([
    own,
    ...sidecars.flatMap((c) => (isPlainMap(c) && typeof c.name === "string" ? [c.name] : [])),
  ]);
  const inits = rendered("initContainers") ? asList(values.initContainers) : [];
  found.push(
    ...containerProblems(
      inits.map((c, i) => ({ container: c, field: `values.initContainers[${i}]` })),
      regular,
      names,
      true,
    ),
  );
  // an emptyDir HugePages medium needs huge pages a container requests (the kubelet's rule)
  found.push(
    ...hugePageMediumProblems(volumes, "values.extraVolumes", [
      controller.resources,
      ...[...sidecars, ...inits].map((c) => (isPlainMap(c) ? c.resources : undefined)),
    ]),
  );
  // the chart's mounts meet every sidecar from 1.3: one problem of theirs is reported once
  return found.filter(
    (p, i) => found.findIndex((q) => q.field === p.field && q.allowed === p.allowed && q.value === p.value) === i,
  );
}

/**
 * The pod labels and Kubernetes version the matchLabelKeys rules read (object-rules.ts PodLabelContext): the
 * chart's pod template labels are its selector labels and `values.podLabels` (deployment.yaml:25-29 of 1.15.0),
 * and the Deployment controller adds `pod-template-hash` to its ReplicaSets' pods (k8s.io/kubernetes@v1.36.3
 * pkg/controller/deployment/sync.go:199, DefaultDeploymentUniqueLabelKey = "pod-template-hash" in k8s.io/api@v0.36.3 apps/v1/types.go:427).
 * @param podLabels `values.podLabels` as given
 * @param kubernetesVersion the cluster's Kubernetes version when literal (cluster/kubernetes-compatibility.ts literalKubernetesVersion)
 */
export function podLabelContext(podLabels: unknown, kubernetesVersion?: string): PodLabelContext {
  return {
    podLabelKeys: [
      ...CHART_SELECTOR_KEYS,
      "pod-template-hash",
      ...(isPlainMap(podLabels) ? Object.keys(podLabels) : []),
    ],
    kubernetesMinor: kubernetesMinor(kubernetesVersion),
    warnings: [],
  };
}

/** Throws the problems of kubernetes/object-rules.ts as HELM_VALUES_K8S_VALUE errors, all at once (nothing when none). */
export function throwObjectProblems(scope: IConstruct, found: readonly ObjectValueProblem[]): void {
  const problems = new Problems();
  for (const p of found)
    problems.add(
      new KarpenterValidationError(
        "HELM_VALUES_K8S_VALUE",
        scope,
        p.field,
        p.value,
        // a rule that says itself what the server does (a Pod-only rule) keeps its own words
        /\bAPI server\b/.test(p.allowed)
          ? p.allowed
          : `${p.allowed} (the Kubernetes API server refuses the rendered object otherwise)`,
      ),
    );
  problems.throwIfAny(scope);
}

/** An annotation map as the API server decodes it (metadata.annotations: map[string]string; keys qualified names). */
function checkAnnotationMap(scope: IConstruct, problems: Problems, field: string, annotations: unknown): void {
  if (annotations === null || annotations === undefined || isUnresolved(annotations)) return;
  if (!isPlainMap(annotations)) {
    problems.add(
      new KarpenterValidationError(
        "HELM_VALUES_POD_SPEC",
        scope,
        field,
        annotations,
        'a map of annotation keys to string values, e.g. { "prometheus.io/scrape": "true" }',
      ),
    );
    return;
  }
  for (const [k, v] of Object.entries(annotations)) {
    const where = `${field}[${JSON.stringify(k)}]`;
    const keyProblem = isUnresolved(k) ? undefined : qualifiedNameProblem(k);
    if (keyProblem)
      problems.add(
        new KarpenterValidationError(
          "HELM_VALUES_POD_SPEC",
          scope,
          where,
          k,
          `a Kubernetes annotation key, [<DNS subdomain prefix>/]<name>: ${keyProblem}`,
        ),
      );
    else if (v !== null && v !== undefined && typeof v !== "string" && !isUnresolved(v))
      problems.add(
        new KarpenterValidationError(
          "HELM_VALUES_POD_SPEC",
          scope,
          where,
          v,
          notAString("annotation values are strings", v),
        ),
      );
  }
}

/** Setting kinds whose env string is the typed value itself (the chart writes `value: "{{ . }}"`). */
const ENV_JUDGED_KINDS: readonly string[] = ["enum", "duration", "url", "base64"];

/**
 * A `FEATURE_GATES` / `AWS_FEATURE_GATES` string as the controller parses it (kubernetes-sigs/karpenter
 * v1.14.1 and v1.15.0 `ParseFeatureGates`, karpenter-provider-aws v1.15.0 options.go: k8s.io/component-base
 * `cli/flag` MapStringBool.Set; controller-env.ts `parseGateString`): comma-separated `Name=bool` pairs, blank
 * pieces skipped, each side trimmed, the bool as `strconv.ParseBool` reads it; anything else fails the
 * controller at start. A name the controller does not know is dropped without a word: ParseFeatureGates reads
 * only its own gates out of the parsed map, by their exact PascalCase names (sigs.k8s.io/karpenter@v1.15.0
 * pkg/operator/options/options.go:293-330 `gateMap[NodeRepairFeatureGate.Name]`…; @v1.14.1 options.go:190-207;
 * karpenter-provider-aws@v1.15.0 pkg/operator/options/options.go:117-128), so `spotToSpotConsolidation=true`
 * leaves SpotToSpotConsolidation at its default. Refused like the other values that silently take the default,
 * with the gate meant when the name is miscased or misspelt. The gates a controller knows are the chart's gate
 * keys of its release (the chart writes each one into the string, deployment.yaml:129-132 of 1.15.0, :128-129 of
 * 1.14.1: the same names ParseFeatureGates reads), named as the template names them (`controllerGateName`).
 */
function checkGateString(
  scope: IConstruct,
  version: KarpenterVersion,
  section: GateSection,
  field: string,
  value: string,
): void {
  const parsed = parseGateString(value);
  if (!("bad" in parsed)) {
    const facts = chartKeyFacts(section, version);
    const known = facts.filter((f) => hasKey(f, version.full)).map((f) => controllerGateName(f.key));
    const unknown = [...parsed.gates.keys()].filter((name) => !known.includes(name));
    if (unknown.length === 0) return;
    const why = unknown.map((name) => {
      const meant = known.find((k) => k.toLowerCase() === name.toLowerCase()) ?? nearestKey(name, known);
      const later = facts.find((f) => controllerGateName(f.key) === name && !hasKey(f, version.full));
      return `${JSON.stringify(name)} is not one${meant ? ` (did you mean ${JSON.stringify(meant)}? names are case-sensitive)` : later ? ` (it is a gate from Karpenter ${later.since})` : ""}`;
    });
    throw new KarpenterValidationError(
      "HELM_VALUES_SETTING",
      scope,
      field,
      value,
      `Gate=bool pairs naming gates the Karpenter ${version.full} controller reads from ${GATE_ENV[section]}, spelt as it spells them: ${known.join(", ")}; ${why.join(", ")}, and the controller ignores a name it does not know without a word, so the gate keeps its default (ParseFeatureGates looks up only its own names). This entry also replaces the whole gate string the chart builds from settings.${section}`,
    );
  }
  const bad = parsed.bad;
  throw new KarpenterValidationError(
    "HELM_VALUES_SETTING",
    scope,
    field,
    value,
    `comma-separated Gate=bool pairs such as "NodeRepair=true,NodeOverlay=false", each bool one Go's strconv.ParseBool reads (true, false, 1, 0, t, f, in lower, upper or title case); ${JSON.stringify(bad)} is not one, and the controller fails at start parsing feature gates (k8s.io/component-base cli/flag MapStringBool). This entry also replaces the whole gate string the chart builds from settings.featureGates`,
  );
}

/**
 * A literal FEATURE_GATES entry before {@link GATE_STRING_SOURCED_SINCE}: not judged, because the library has read
 * how the controller parses the string (ParseFeatureGates through MapStringBool) only in the source of 1.14.0 and
 * later, no older karpenter module being at hand; the warning says so, and what the 1.14+ check would ask.
 */
function warnUncheckedGateString(scope: IConstruct, version: KarpenterVersion, field: string, value: string): void {
  Annotations.of(scope).addWarning(
    `${field} = ${JSON.stringify(value)} (FEATURE_GATES) is not checked for Karpenter ${version.full}: the library has read how the controller parses feature gates (ParseFeatureGates, k8s.io/component-base MapStringBool) only in the source of ${GATE_STRING_SOURCED_SINCE} and later, so for earlier releases it does not know the accepted form. From ${GATE_STRING_SOURCED_SINCE} it must be comma-separated Gate=bool pairs such as "NodeRepair=true,NodeOverlay=false", and a string the controller cannot parse fails it at start. The entry replaces the whole gate string the chart builds from settings.featureGates`,
  );
}

const TOLERATION_EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/**
 * Checks tolerations by the Kubernetes rules (core/v1 validation) and refuses unknown keys: a
 * misspelt `efect` would otherwise be dropped, and the toleration then matches every effect.
 * @param prop the prop the list is (`tolerations`, or `values.tolerations`, which the chart writes as they are into
 *   the pod spec: deployment.yaml:282-284 of 1.15.0, the same `toYaml` in every release from 1.0)
 * @throws KarpenterValidationError naming `<prop>[<index>].<key>`
 */
export function checkTolerations(
  scope: IConstruct,
  tolerations: KubernetesToleration[] | undefined,
  prop = "tolerations",
): KubernetesToleration[] | undefined {
  if (tolerations === undefined) return undefined;
  if (!Array.isArray(tolerations))
    throw new KarpenterValidationError("HELM_VALUES_TOLERATION", scope, prop, tolerations, "a list of tolerations");
  const problems = new Problems();
  // Array.from: a hole becomes undefined, refused below (forEach would skip it, and the copy keep it as null)
  Array.from(tolerations).forEach((t, i) => {
    if (isUnresolved(t)) return;
    // a null or undefined item of values.tolerations is checkListItems' (HELM_VALUES_LIST_ITEM_MISSING), and
    // undefined would pass checkOptionKeys and stop below on `undefined.key` (fresh15 C-3)
    if ((t === undefined || t === null) && prop.startsWith("values.")) return;
    const field = `${prop}[${i}]`;
    // a Date or other class instance has no own keys, so the key checks below would name `key = undefined`: say
    // what the item is instead (null, a string or a list are checkOptionKeys' to name)
    const what = typeName(t);
    if (t !== null && typeof t === "object" && !Array.isArray(t) && what !== "an object")
      return void problems.add(
        new KarpenterValidationError(
          "HELM_VALUES_TOLERATION",
          scope,
          field,
          t,
          `a toleration map { ${TOLERATION.map((k) => `${k}?`).join(", ")} }, got ${what}`,
        ),
      );
    if (!problems.check(() => checkOptionKeys(scope, field, t, TOLERATION))) return;
    if (t === undefined)
      return void problems.add(
        new KarpenterValidationError(
          "OPTIONS_NOT_AN_OBJECT",
          scope,
          field,
          t,
          "a toleration (an undefined item is not allowed: leave the item out)",
        ),
      );
    const fail = (key: string, value: unknown, allowed: string) =>
      problems.add(new KarpenterValidationError("HELM_VALUES_TOLERATION", scope, `${field}.${key}`, value, allowed));
    if (t.operator !== undefined && t.operator !== "Equal" && t.operator !== "Exists")
      fail("operator", t.operator, '"Equal" or "Exists"');
    if (t.operator === "Exists" && t.value) fail("value", t.value, 'no value with operator "Exists"');
    if ((t.operator ?? "Equal") === "Equal" && !t.key)
      fail("key", t.key, 'a taint key (an empty key is allowed only with operator "Exists")');
    if (t.effect !== undefined && !TOLERATION_EFFECTS.includes(t.effect)) {
      fail(
        "effect",
        t.effect,
        '"NoSchedule", "PreferNoSchedule" or "NoExecute" (the Kubernetes spelling, not the EKS API\'s NO_SCHEDULE)',
      );
    }
    if (t.tolerationSeconds !== undefined && t.effect !== "NoExecute")
      fail("tolerationSeconds", t.tolerationSeconds, 'only with effect "NoExecute"');
  });
  problems.throwIfAny(scope);
  // copies, so that later changes to the caller's objects do not reach the rendered values
  // (a missing item of values.tolerations, left to checkListItems above, is kept as it is: no toleration to copy)
  return tolerations.map((t) =>
    t === null || t === undefined
      ? t
      : {
          key: t.key,
          operator: t.operator,
          value: t.value,
          effect: t.effect,
          tolerationSeconds: t.tolerationSeconds,
        },
  );
}

/**
 * Every number of a values document that is NaN or ±Infinity, one problem each: JSON (what the
 * values are written as) has no such number, and a cdktf number token is a finite number, so these
 * are plain mistakes, not values known at apply. Found anywhere, lists included
 * (`tolerations[0].tolerationSeconds`).
 * @param fieldOf the prop path of a value's key path: `keys` are the map keys down to it (up to the
 * first list), `path` its full path as written, e.g. `tolerations[0].tolerationSeconds`
 * @param reported problems already recorded: a field one of them names (`values.replicas = NaN` as
 * a replica count) is not named twice
 */
export function nonFiniteNumbers(
  scope: IConstruct,
  values: unknown,
  fieldOf: (keys: readonly string[], path: string) => string,
  reported: readonly KarpenterValidationError[] = [],
): KarpenterValidationError[] {
  const found: KarpenterValidationError[] = [];
  const walk = (value: unknown, keys: readonly string[], path: string, inList: boolean): void => {
    if (typeof value === "number" && !Number.isFinite(value)) {
      const field = fieldOf(keys, path);
      if (!reported.some((p) => p.field === field)) {
        found.push(
          new KarpenterValidationError(
            "HELM_VALUES_NOT_FINITE",
            scope,
            field,
            value,
            "a finite number: the values are written as JSON, which has no NaN or Infinity",
          ),
        );
      }
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, keys, `${path}[${i}]`, true));
    } else if (isPlainMap(value)) {
      for (const [k, v] of Object.entries(value))
        walk(v, inList ? keys : [...keys, k], path ? `${path}.${k}` : k, inList);
    }
  };
  walk(values, [], "", false);
  return found;
}

/**
 * The controller pod's `dnsPolicy` and `values.dnsConfig` against Kubernetes' PodSpec validation
 * (validatePodDNSConfig, k8s.io/kubernetes pkg/apis/core/validation): a refused pod spec means the controller's
 * pods are never created. `dnsPolicy: "None"` (the typed prop, or `values.dnsPolicy`, which wins) needs a
 * dnsConfig with 1 to 3 nameservers; under any policy a dnsConfig has at most 3 nameservers, each an IP
 * address, at most 32 search domains (2,048 characters in all), each a DNS name, and options with a `name`.
 * Reads the typed prop and `values` apart, so that it runs whatever else is wrong with the props. Tokens are
 * left to the API server.
 * @throws KarpenterValidationError naming `dnsPolicy`, `values.dnsPolicy` or the `values.dnsConfig` field, every problem at once
 */
export function checkDnsConfig(
  scope: IConstruct,
  typedPolicy: unknown,
  values: Record<string, unknown> | undefined,
): void {
  const fromValues = values?.dnsPolicy !== undefined;
  const policy = fromValues ? values!.dnsPolicy : typedPolicy;
  const config = values?.dnsConfig;
  const none = policy === "None";
  if (config === undefined || config === null) {
    if (none)
      throw new KarpenterValidationError(
        "HELM_VALUES_DNS_CONFIG",
        scope,
        fromValues ? "values.dnsPolicy" : "dnsPolicy",
        "None",
        'a dnsConfig in values (Kubernetes requires one with dnsPolicy "None"), or another policy',
      );
    return;
  }
  if (isUnresolved(config) && !isPlainMap(config)) return;
  if (!isPlainMap(config))
    throw new KarpenterValidationError(
      "HELM_VALUES_DNS_CONFIG",
      scope,
      "values.dnsConfig",
      config,
      "a map { nameservers, searches, options } (the pod's PodDNSConfig)",
    );
  if (none && Object.keys(config).length === 0)
    throw new KarpenterValidationError(
      "HELM_VALUES_DNS_CONFIG",
      scope,
      fromValues ? "values.dnsPolicy" : "dnsPolicy",
      "None",
      'a dnsConfig in values (Kubernetes requires one with dnsPolicy "None"), or another policy',
    );
  const problems = new Problems();
  problems.check(() => checkOptionKeys(scope, "values.dnsConfig", config, DNS_CONFIG_KEYS));
  problems.check(() => checkNameservers(scope, config.nameservers, none));
  problems.check(() => checkSearches(scope, config.searches));
  problems.check(() => checkDnsOptions(scope, config.options));
  problems.throwIfAny(scope);
}

const DNS_CONFIG_KEYS = ["nameservers", "searches", "options"];

function checkNameservers(scope: IConstruct, ns: unknown, none: boolean): void {
  if (ns === undefined && !none) return;
  // a list token (Fn.split, a variable) is an array holding one encoded token: left to the API server
  if (Token.isUnresolved(ns) || (!Array.isArray(ns) && isUnresolved(ns))) return;
  const listed = Array.isArray(ns) ? ns : [];
  // a null item (or a hole, which filter skips) is checkListItems' (HELM_VALUES_LIST_ITEM_MISSING)
  const bad = listed.filter(
    (ip) => ip !== null && ip !== undefined && !(typeof ip === "string" && (isUnresolved(ip) || isIP(ip) !== 0)),
  );
  if (Array.isArray(ns) && ns.length >= (none ? 1 : 0) && ns.length <= 3 && bad.length === 0) return;
  throw new KarpenterValidationError(
    "HELM_VALUES_DNS_CONFIG",
    scope,
    "values.dnsConfig.nameservers",
    ns,
    `${none ? "1 to 3" : "at most 3"} IP addresses such as ["10.100.0.10"]: ${none ? 'with dnsPolicy "None" the pod\'s resolv.conf holds only dnsConfig, so Kubernetes requires at least one nameserver and takes at most 3' : "Kubernetes takes at most 3 nameservers, each an IP address"} (PodSpec validation)${bad.length ? `; not an IP address: ${bad.map((b) => JSON.stringify(b)).join(", ")}` : ""}`,
  );
}

/**
 * A search domain as Kubernetes takes it: a DNS-1123 subdomain of at most 253 characters (lowercase labels; the
 * pattern sets no length per label: apimachinery pkg/util/validation IsDNS1123Subdomain, dns1123SubdomainFmt), `_`
 * allowed and `.` alone (RelaxedDNSSearchValidation, on by default from Kubernetes 1.33), an optional trailing dot
 * (k8s.io/kubernetes v1.36.3 pkg/apis/core/validation validatePodDNSConfig). Held against a real API server by the
 * e2e values-agreement stage.
 */
const SEARCH_DOMAIN = /^(\.|[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?)$/;

function checkSearches(scope: IConstruct, searches: unknown): void {
  if (searches === undefined || isUnresolved(searches)) return;
  const allowed =
    'at most 32 search domains, 2,048 characters in all, each a DNS name such as "svc.cluster.local" (PodSpec validation)';
  if (!Array.isArray(searches))
    throw new KarpenterValidationError(
      "HELM_VALUES_DNS_CONFIG",
      scope,
      "values.dnsConfig.searches",
      searches,
      `a list: ${allowed}`,
    );
  const bad = searches.filter((d) => !(typeof d === "string" && d.length <= 253 && SEARCH_DOMAIN.test(d)));
  if (searches.length <= 32 && searches.join(" ").length <= 2048 && bad.length === 0) return;
  throw new KarpenterValidationError(
    "HELM_VALUES_DNS_CONFIG",
    scope,
    "values.dnsConfig.searches",
    searches,
    `${allowed}${bad.length ? `; not a DNS name: ${bad.map((b) => JSON.stringify(b)).join(", ")}` : ""}`,
  );
}

function checkDnsOptions(scope: IConstruct, options: unknown): void {
  if (options === undefined || isUnresolved(options)) return;
  const allowed =
    'a list of { name, value? } such as [{ name: "ndots", value: "2" }]: Kubernetes requires each option\'s name, and a value is a string (PodSpec validation)';
  if (!Array.isArray(options))
    throw new KarpenterValidationError("HELM_VALUES_DNS_CONFIG", scope, "values.dnsConfig.options", options, allowed);
  options.forEach((o, i) => {
    // a null item is checkListItems' (HELM_VALUES_LIST_ITEM_MISSING), reported there once
    if (isUnresolved(o) || o === null || o === undefined) return;
    const valid =
      isPlainMap(o) &&
      typeof o.name === "string" &&
      o.name !== "" &&
      (o.value === undefined || typeof o.value === "string") &&
      Object.keys(o).every((k) => k === "name" || k === "value");
    if (!valid)
      throw new KarpenterValidationError("HELM_VALUES_DNS_CONFIG", scope, `values.dnsConfig.options[${i}]`, o, allowed);
  });
}

/**
 * How many maps and lists may nest in a values part (the part itself is the first). The deepest path of the
 * chart's values is far shallower (`affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]
 * .podAffinityTerm.labelSelector.matchExpressions[0].values` is 9), and the recursive walks that follow (the
 * Helm merge, the chart value paths, cdktf's JSON) overflow the stack only thousands of levels down
 * (fresh9 C3: 3,000).
 */
export const MAX_VALUES_DEPTH = 64;

/**
 * @throws KarpenterValidationError unless `value` is undefined or a plain object known at synth that
 * holds no cycle (an object or list inside itself), naming the path that leads back, and nests at most
 * {@link MAX_VALUES_DEPTH} maps and lists, naming the first too deep. Iterative, so it runs before any
 * recursive walk of the value.
 */
export function checkMap(
  scope: IConstruct,
  field: string,
  value: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (!isPlainMap(value))
    throw new KarpenterValidationError(
      "HELM_VALUES_NOT_A_MAP",
      scope,
      field,
      value,
      "a plain map (object) known at synth",
    );
  const found = findUnwalkable(value, field, MAX_VALUES_DEPTH);
  if (found?.kind === "cycle") {
    throw new KarpenterValidationError(
      "HELM_VALUES_CYCLE",
      scope,
      found.path,
      "(a reference back)",
      `a value, not a reference to an object that contains it: ${found.path} is the object ${found.target} itself, so the document has no end (chart values are YAML, which the release writes out in full). Copy the object instead of referring back to it`,
    );
  }
  if (found?.kind === "deep") {
    throw new KarpenterValidationError(
      "HELM_VALUES_TOO_DEEP",
      scope,
      found.path,
      "(nested deeper)",
      `at most ${MAX_VALUES_DEPTH} maps and lists inside one another in ${field} (${field} itself the first): no value of the Karpenter chart nests more than 9, and ${found.path} is deeper`,
    );
  }
  return value;
}

/**
 * Whether `values` sets the key path (to anything but undefined): a value of the merged document
 * that `values` sets came from the escape hatch, so its error is named `values.…`.
 */
export function hasPath(values: Record<string, unknown>, parts: readonly string[]): boolean {
  let cur: unknown = values;
  for (const part of parts) {
    if (!isPlainMap(cur) || cur[part] === undefined) return false;
    cur = cur[part];
  }
  return true;
}

/** github.com/distribution/reference v0.6.0 regexp.go: a registry host (and port), and the path components. */
const DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const DOMAIN_AND_PORT = new RegExp(
  `^(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[(?:[a-fA-F0-9:]+)\\])(?::[0-9]+)?$`,
);
const PATH_COMPONENT = "[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*";
const REMOTE_NAME = new RegExp(`^${PATH_COMPONENT}(?:/${PATH_COMPONENT})*$`);

/** A problem of the controller image's reference: the part (`repository`, `tag`, `digest`), its value, the message. */
export interface ImageReferenceProblem {
  readonly part: "repository" | "tag" | "digest";
  readonly value: unknown;
  readonly message: string;
}

/**
 * Every problem of the chart's `controller.image` (repository, tag, digest) as the kubelet parses the reference the
 * chart renders from it: `printf "%s:%s@%s" .Values.controller.image.repository …` (_helpers.tpl:70-75 of 1.15.0, the
 * same from 1.0). A null or "" repository renders `%!s(<nil>):1.15.0@sha256:…` or `:1.15.0@sha256:…`; the API server
 * takes the Deployment, but the kubelet cannot parse the image (k8s.io/kubernetes v1.36.3
 * pkg/kubelet/images/image_manager.go:175-180, ErrInvalidImageName) and the pod never starts (fresh17 S-2). The tag and
 * digest the helper reads with `default` and `if`, so null or "" there is safe; another value is held to the grammar
 * (github.com/distribution/reference v0.6.0 regexp.go:68 tag, :81 digestPat; reference.go:219 digest.Parse ->
 * github.com/opencontainers/go-digest v1.0.0 digest.go:103-117, algorithm.go:58-61: sha256 with 64, sha384 with 96,
 * sha512 with 128 lower-case hex digits; fresh21 CF-2). Unresolved tokens are not judged.
 */
export function imageReferenceProblems(image: unknown): ImageReferenceProblem[] {
  if (!isPlainMap(image)) return [];
  const out: ImageReferenceProblem[] = [];
  const repository = image.repository;
  if (repository !== undefined && !isUnresolved(repository)) {
    if (typeof repository !== "string" || repository.trim() === "")
      out.push({
        part: "repository",
        value: repository,
        message:
          'an image repository such as "public.ecr.aws/karpenter/controller", or leave it unset: the chart writes the image as <repository>:<tag>@<digest> (_helpers.tpl:70-75), and with null or "" that is no image reference the kubelet can parse (InvalidImageName), so the controller pod never starts',
      });
    else {
      const why = imageRepositoryProblem(repository);
      if (why !== undefined)
        out.push({
          part: "repository",
          value: repository,
          message: `an image repository such as "public.ecr.aws/karpenter/controller" (a registry host, then lower-case path components): ${why}. The chart writes the image as <repository>:<tag>@<digest> (_helpers.tpl:70-75), and this is no image reference the kubelet can parse (InvalidImageName), as github.com/distribution/reference v0.6.0 reads it (normalize.go:56-80 ParseNormalizedNamed, regexp.go), so the controller pod never starts`,
        });
    }
  }
  const parts: ["tag" | "digest", RegExp, string, string][] = [
    [
      "tag",
      /^[\w][\w.-]{0,127}$/,
      'an image tag such as "1.15.0" (a letter, digit or "_", then up to 127 letters, digits, "_", "." or "-")',
      "regexp.go:68",
    ],
    [
      "digest",
      /^(sha256:[a-f0-9]{64}|sha384:[a-f0-9]{96}|sha512:[a-f0-9]{128})$/,
      'a digest "sha256:" and 64 lower-case hex digits (or sha384 with 96, sha512 with 128)',
      "reference.go:219 -> github.com/opencontainers/go-digest v1.0.0 digest.go:103-117",
    ],
  ];
  for (const [part, re, allowed, source] of parts) {
    const value = image[part];
    if (typeof value === "string" && value !== "" && !isUnresolved(value) && !re.test(value))
      out.push({
        part,
        value,
        message: `${allowed}: the chart writes the image as <repository>:<tag>@<digest> (_helpers.tpl:70-75), and this is no image reference the kubelet can parse (InvalidImageName), as github.com/distribution/reference v0.6.0 reads it (${source}), so the controller pod never starts`,
      });
  }
  return out;
}

/**
 * Why the kubelet's parse of an image reference refuses `repository` as its name, or undefined (github.com/distribution/
 * reference v0.6.0 normalize.go:56-80 ParseNormalizedNamed and :126-160 splitDockerDomain; regexp.go's grammar): the
 * first path element is the registry when it holds "." or ":", is "localhost" or is not lower-case; the rest must be
 * lower-case path components; the whole name at most 255 characters (reference.go:39).
 */
export function imageRepositoryProblem(repository: string): string | undefined {
  const slash = repository.indexOf("/");
  const first = slash < 0 ? "" : repository.slice(0, slash);
  const isDomain =
    slash >= 0 &&
    (first === "localhost" || /[.:]/.test(first) || first.toLowerCase() !== first || first === "index.docker.io");
  const domain = isDomain ? first : "docker.io";
  const remote = isDomain ? repository.slice(slash + 1) : repository;
  if (isDomain && !DOMAIN_AND_PORT.test(domain)) return `${JSON.stringify(domain)} is no registry host (and port)`;
  if (remote.toLowerCase() !== remote) return `the repository path ${JSON.stringify(remote)} must be lower-case`;
  if (!REMOTE_NAME.test(remote))
    return `the repository path ${JSON.stringify(remote)} is not lower-case letters and digits separated by "/", ".", "_", "__" or "-" (a tag belongs in controller.image.tag)`;
  if (`${domain}/${remote}`.length > 255) return "the repository name is longer than 255 characters";
  return undefined;
}
