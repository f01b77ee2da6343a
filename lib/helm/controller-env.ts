import { IConstruct } from "constructs";
import { Annotations } from "cdktf";
import { isPlainMap } from "../core/deep-merge";
import { KarpenterValidationError } from "../core/errors";
import { goTrimSpace } from "../core/go-strings";
import { Problems } from "../core/problems";
import { isUnresolved } from "../core/tokens";
import { isDns1123Label, isDns1123Subdomain } from "../kubernetes/value-rules";
import { KarpenterVersion } from "../versions/karpenter-version";
import { factsRelease } from "../versions";
import { chartDefault, chartKeyFacts, SETTING_ENV } from "./chart-settings";
import { KarpenterSettings } from "./karpenter-settings";

/*
 * What the controller actually sees for a setting or a feature gate: the chart's deployment template writes
 * the env vars it builds from `logLevel` and `settings.*` first and appends `values.controller.env` after
 * them (charts/karpenter/templates/deployment.yaml of 1.15.0: LOG_LEVEL :97-100, FEATURE_GATES :129-130,
 * AWS_FEATURE_GATES :131-132, the settings :133-213, `with .Values.controller.env` :214-216; the same order in
 * every release from 1.0), and of two env entries with one name the container gets the last (kubernetes
 * pkg/kubelet/kubelet_pods.go:965, `tmpEnv[envVar.Name] = runtimeVal` in list order). So an entry of
 * `values.controller.env` replaces the chart's value of its env var, and only the last entry of a name counts.
 * The one home of that reading: the checks (release-values.ts) and the gate rules (install/) ask here.
 */

/** A chart gate block. */
export type GateSection = "featureGates" | "awsFeatureGates";

/** The env var the chart writes each gate block to, as one `Name=bool,…` string (deployment.yaml:129-132 of 1.15.0). */
export const GATE_ENV: Readonly<Record<GateSection, string>> = {
  featureGates: "FEATURE_GATES",
  awsFeatureGates: "AWS_FEATURE_GATES",
};

/** The first release whose controller reads AWS_FEATURE_GATES (karpenter-provider-aws v1.15.0 options.go:78; not in v1.14.1). */
export const AWS_FEATURE_GATES_SINCE = "1.15.0";

/** The first release whose FEATURE_GATES / AWS_FEATURE_GATES parsing has been read in the source (see {@link parseGateString}). */
export const GATE_STRING_SOURCED_SINCE = "1.14.0";

/** One entry of `values.controller.env` with a literal name. */
export interface ControllerEnvEntry {
  /** Its index in `values.controller.env`. */
  readonly index: number;
  /** The env var it sets. */
  readonly name: string;
  /**
   * What it sets the variable to as far as synth knows: `""` for an entry with neither a value nor a
   * `valueFrom` (`valueFrom: null` counts as none), its `value` otherwise (a token or a non-string stays as
   * written); undefined with a `valueFrom` (known only in the cluster).
   */
  readonly value: unknown;
}

/** The entries of `values.controller.env` as the container gets them. */
export interface ControllerEnv {
  /** Per env var name: the entry the container gets (the last of that name). */
  readonly winners: ReadonlyMap<string, ControllerEnvEntry>;
  /** Every entry with a literal name, in list order (the shadowed ones too). */
  readonly entries: readonly ControllerEnvEntry[];
  /** True when some entry's name (or the list itself) is a token: any variable may be set by it. */
  readonly opaque: boolean;
}

/**
 * The `controller.env` entries of a values document (`values` of KarpenterRelease / Karpenter; anything else
 * has none). Reads the list and each entry's `name`, `value` and `valueFrom` only, so it is safe on values not
 * yet checked for cycles.
 */
export function readControllerEnv(values: unknown): ControllerEnv {
  const controller = isPlainMap(values) ? values.controller : undefined;
  const list = isPlainMap(controller) ? controller.env : undefined;
  if (!Array.isArray(list))
    return { winners: new Map(), entries: [], opaque: list !== undefined && list !== null && isUnresolved(list) };
  const entries: ControllerEnvEntry[] = [];
  let opaque = false;
  list.forEach((e: unknown, index: number) => {
    if (!isPlainMap(e)) {
      opaque ||= isUnresolved(e);
      return;
    }
    if (typeof e.name !== "string" || isUnresolved(e.name)) {
      opaque ||= isUnresolved(e.name);
      return;
    }
    // EnvVar.value is optional and the kubelet starts from it (kubelet_pods.go:849, `runtimeVal := envVar.Value`):
    // with no value and no valueFrom the variable is present and "". A `valueFrom: null` is no source either (the
    // API decodes null into a nil *EnvVarSource), so that entry too sets "".
    const fromSource = e.valueFrom !== undefined && e.valueFrom !== null;
    const value = (e.value === undefined || e.value === null) && !fromSource ? "" : e.value;
    entries.push({ index, name: e.name, value });
  });
  const winners = new Map<string, ControllerEnvEntry>();
  for (const entry of entries) winners.set(entry.name, entry);
  return { winners, entries, opaque };
}

/** The entry's value when it is a string known at synth, else undefined. */
export function literalEnvValue(entry: ControllerEnvEntry): string | undefined {
  return typeof entry.value === "string" && !isUnresolved(entry.value) ? entry.value : undefined;
}

/** The env var the chart writes a `settings` key (or `logLevel`) to; undefined for one it writes to none (enableDRA). */
export function settingEnvName(key: string): string | undefined {
  return key === "logLevel" ? "LOG_LEVEL" : SETTING_ENV[key];
}

/**
 * Whether a chart value would break the chart's rendering of it, so that it still matters when an env entry
 * replaces it: the template writes it inside a YAML double-quoted scalar (`value: "{{ . }}"`,
 * `value: "{{ tpl (toString .) $ }}"`, `"…,NodeRepair={{ … }},…"`; deployment.yaml:97-213 of 1.15.0), where a
 * `"` ends the scalar early and a `\` starts an escape (an unknown one fails the YAML, a known one changes the
 * text), and most settings go through `tpl` (from 1.5), which runs a `{{` as a template action. No valid value
 * of a setting or gate holds any of the three, so the rule is the same for every key. A map or list is
 * rendered by Go's `%v` with its nested strings unquoted: not modelled, counted as breaking (no setting is one).
 */
export function breaksChartRendering(value: unknown): boolean {
  if (typeof value === "string") return /["\\]|\{\{/.test(value);
  return typeof value === "object" && value !== null;
}

/**
 * Whether the chart's value of env var `envName` is replaced by an entry of `env` and renders safely, so that
 * the value itself is not judged (only its rendering matters, see {@link breaksChartRendering}).
 */
export function replacedByEnv(env: ControllerEnv, envName: string | undefined, value: unknown): boolean {
  return envName !== undefined && env.winners.has(envName) && !breaksChartRendering(value);
}

/** Where a chart value comes from and what it is. */
export interface ChartSource {
  /** The prop: `values.settings.<key>` (merged last, so it wins), `settings.<key>`, `values.logLevel`. */
  readonly field: string;
  /** The value Helm gets; undefined when neither sets it (the chart default) or `values` removes it with null. */
  readonly value: unknown;
}

/** What the controller sees for one setting. */
export interface EffectiveSetting {
  /**
   * The value of the env var: the winning env entry's ({@link ControllerEnvEntry.value}) when there is one,
   * else the chart value (undefined: the chart default, or none written).
   */
  readonly value: unknown;
  /** The prop the value comes from (`values.controller.env[2].value`, `values.settings.batchMaxDuration`, …); undefined for the chart default. */
  readonly field?: string;
  /** The entry of `values.controller.env` that replaces the chart's value, when one does. */
  readonly entry?: ControllerEnvEntry;
  /** With {@link entry}: the chart value it replaces, when the props set one. */
  readonly replaced?: ChartSource;
}

/** The chart value of a `settings` key or of `logLevel`: `values` merged over the typed settings. */
function chartSource(key: string, settings: KarpenterSettings | undefined, values: unknown): ChartSource | undefined {
  const escape = isPlainMap(values) ? values : undefined;
  if (key === "logLevel") {
    const level = escape?.logLevel;
    return level === undefined || level === null ? undefined : { field: "values.logLevel", value: level };
  }
  const fromValues = isPlainMap(escape?.settings) ? escape.settings[key] : undefined;
  // null in values removes the key (Helm), and `with` then writes no env var
  if (fromValues === null) return undefined;
  if (fromValues !== undefined) return { field: `values.settings.${key}`, value: fromValues };
  const typed = isPlainMap(settings) ? (settings as Record<string, unknown>)[key] : undefined;
  return typed === undefined || typed === null ? undefined : { field: `settings.${key}`, value: typed };
}

/**
 * What the controller sees for a chart setting: the last `values.controller.env` entry of its env var when
 * there is one (it replaces the chart's entry), else the chart value (`values.settings` over the typed settings).
 * @param key a key of `settings` (e.g. `batchMaxDuration`) or `logLevel`
 * @param env `values`' entries when the caller has read them already (read once per construct)
 */
export function effectiveSetting(
  key: string,
  settings: KarpenterSettings | undefined,
  values: unknown,
  env: ControllerEnv = readControllerEnv(values),
): EffectiveSetting {
  const chart = chartSource(key, settings, values);
  const envName = settingEnvName(key);
  const entry = envName === undefined ? undefined : env.winners.get(envName);
  if (!entry) return { value: chart?.value, field: chart?.field };
  return { value: entry.value, field: `values.controller.env[${entry.index}].value`, entry, replaced: chart };
}

/** The texts Go's `strconv.ParseBool` reads as true (Go strconv/atob.go). */
export const GO_TRUE = ["1", "t", "T", "TRUE", "true", "True"];
/** The texts Go's `strconv.ParseBool` reads as false. */
export const GO_FALSE = ["0", "f", "F", "FALSE", "false", "False"];

/** A gate string read: the gates it names, or the first piece the controller cannot read. */
export type ParsedGates = { readonly gates: ReadonlyMap<string, boolean> } | { readonly bad: string };

/**
 * A `FEATURE_GATES` / `AWS_FEATURE_GATES` string as the controller parses it (kubernetes-sigs/karpenter v1.15.0
 * options.go:293 and karpenter-provider-aws v1.15.0 options.go:108 `ParseFeatureGates`, both through
 * k8s.io/component-base v0.36.1 / v0.37.0 cli/flag/map_string_bool.go:54-79 `MapStringBool.Set`): split on
 * ",", empty pieces skipped, each piece split at its first "=" (none: "malformed pair"), name and value
 * trimmed by Go's `strings.TrimSpace` (so U+0085 is trimmed and a BOM is not), the value read by
 * `strconv.ParseBool`; a later pair of one name wins. Read in the source from {@link GATE_STRING_SOURCED_SINCE}.
 */
export function parseGateString(value: string): ParsedGates {
  const gates = new Map<string, boolean>();
  for (const piece of value.split(",")) {
    if (piece.length === 0) continue;
    const eq = piece.indexOf("=");
    if (eq < 0) return { bad: piece };
    const v = goTrimSpace(piece.slice(eq + 1));
    if (!GO_TRUE.includes(v) && !GO_FALSE.includes(v)) return { bad: piece };
    gates.set(goTrimSpace(piece.slice(0, eq)), GO_TRUE.includes(v));
  }
  return { gates };
}

/**
 * The controller's name of a chart gate key, as the template pairs them (deployment.yaml:130,132 of 1.15.0:
 * `ReservedCapacity={{ .Values.settings.featureGates.reservedCapacity }}`, `NodeClassCEL={{ ….nodeClassCEL }}`,
 * `DRANVIDIAGPU={{ $dra.draNVIDIAGPU }}`): the key with its first letter upper-cased, the `dra` prefix of the
 * DRA gates upper-cased whole.
 */
export function controllerGateName(key: string): string {
  return key.startsWith("dra") ? `DRA${key.slice(3)}` : key.charAt(0).toUpperCase() + key.slice(1);
}

/**
 * Whether a feature gate is on in the controller: with an entry of `values.controller.env` for the block's env
 * var (`FEATURE_GATES`; `AWS_FEATURE_GATES` from 1.15, which earlier controllers do not read), that entry's
 * string alone (it replaces the whole string the chart builds from `settings.<section>`), a gate it does not name
 * taking the controller's default (`ParseFeatureGates` starts from `DefaultFeatureGates()`, options.go:295; the
 * chart's default is the same: false for every gate but reservedCapacity, true from 1.6); without one, the chart
 * value (`values.settings` over the typed settings, else the chart default).
 * @returns undefined when synth cannot tell: a token value, an entry from `valueFrom` or with a token name, a
 * string the controller cannot parse (it then fails at start, which the entry's check reports)
 * @param env `values`' entries when the caller has read them already
 */
export function effectiveGate(
  version: KarpenterVersion,
  section: GateSection,
  key: string,
  settings: KarpenterSettings | undefined,
  values: unknown,
  env: ControllerEnv = readControllerEnv(values),
): boolean | undefined {
  const controllerDefault = chartDefault(section, key, factsRelease(version.full)) === true;
  const readsEnv = section === "featureGates" || version.atLeast(AWS_FEATURE_GATES_SINCE);
  const entry = readsEnv ? env.winners.get(GATE_ENV[section]) : undefined;
  if (entry) {
    const text = literalEnvValue(entry);
    if (text === undefined) return undefined;
    const parsed = parseGateString(text);
    if ("bad" in parsed) return undefined;
    return parsed.gates.get(controllerGateName(key)) ?? controllerDefault;
  }
  // a token-named entry may be this block's env var
  if (readsEnv && env.opaque) return undefined;
  const escape = isPlainMap(values) ? values : undefined;
  const fromValues =
    isPlainMap(escape?.settings) && isPlainMap(escape.settings[section]) ? escape.settings[section][key] : undefined;
  const typed = isPlainMap(settings) ? (settings as Record<string, unknown>)[section] : undefined;
  const gate = fromValues !== undefined ? fromValues : isPlainMap(typed) ? typed[key] : undefined;
  if (gate === undefined) return controllerDefault;
  if (isUnresolved(gate)) return undefined;
  // `null` in values removes the key: the chart writes `Name=`, which the controller cannot parse
  return gate === true;
}

/**
 * Warns for every chart value the props set whose env var an entry of `values.controller.env` replaces: the
 * value has no effect, and it is not checked (unless the chart cannot render it, {@link breaksChartRendering}).
 * A gate block's values are named together: the entry replaces the block's whole string.
 */
export function warnReplacedChartValues(
  scope: IConstruct,
  version: KarpenterVersion,
  settings: KarpenterSettings | undefined,
  values: unknown,
  env: ControllerEnv = readControllerEnv(values),
): void {
  if (env.winners.size === 0) return;
  const why =
    "the chart writes its own entry first and appends values.controller.env, and the container gets the last entry of a name (kubelet), so the library does not check the value (only one the chart cannot render, holding a '\"', a '\\' or '{{', is still checked)";
  const keys = [
    "logLevel",
    ...chartKeyFacts("settings", version)
      .filter((f) => !f.wired)
      .map((f) => f.key),
  ];
  for (const key of keys) {
    const { entry, replaced } = effectiveSetting(key, settings, values, env);
    if (!entry || !replaced) continue;
    Annotations.of(scope).addWarning(
      `${replaced.field} = ${JSON.stringify(replaced.value)} has no effect: values.controller.env[${entry.index}] (${entry.name}) replaces it; ${why}. Drop one of them`,
    );
  }
  for (const section of ["featureGates", "awsFeatureGates"] as const) {
    if (section === "awsFeatureGates" && !version.atLeast(AWS_FEATURE_GATES_SINCE)) continue;
    const entry = env.winners.get(GATE_ENV[section]);
    if (!entry) continue;
    const escape = isPlainMap(values) && isPlainMap(values.settings) ? values.settings[section] : undefined;
    const typed = isPlainMap(settings) ? (settings as Record<string, unknown>)[section] : undefined;
    const set = new Map<string, string>();
    for (const [block, prefix] of [
      [typed, "settings"],
      [escape, "values.settings"],
    ] as const) {
      if (!isPlainMap(block)) continue;
      for (const [k, v] of Object.entries(block))
        if (v !== undefined && v !== null) set.set(k, `${prefix}.${section}.${k} = ${JSON.stringify(v)}`);
    }
    if (set.size === 0) continue;
    Annotations.of(scope).addWarning(
      `${[...set.values()].join(", ")} ${set.size === 1 ? "has" : "have"} no effect: values.controller.env[${entry.index}] (${entry.name}) replaces the whole gate string the chart builds from settings.${section}, and a gate that string does not name takes the controller's default; ${why}. Drop one of them, or name the gates in the entry`,
    );
  }
}

/**
 * What a string-only Kubernetes field takes when given another type: `a string (<why>; the API server cannot decode
 * a number there): quote it, e.g. "5"`; a map or list gets no quoting advice.
 */
export function notAString(why: string, value: unknown): string {
  const kind = Array.isArray(value) ? "a list" : typeof value === "object" ? "a map" : `a ${typeof value}`;
  const scalar = typeof value === "number" || typeof value === "boolean" || typeof value === "bigint";
  return `a string (${why}; the API server cannot decode ${kind} there)${scalar ? `: quote it, e.g. ${JSON.stringify(String(value))}` : ""}`;
}

/**
 * The shape of `values.controller.env` and `values.controller.envFrom`, which the chart writes as they are into the
 * controller container (charts/karpenter/templates/deployment.yaml of 1.15.0 :214-219, `toYaml` after its own env
 * vars; the same in every release from 1.0), so the API server decodes them as core/v1 `[]EnvVar` / `[]EnvFromSource`
 * (k8s.io/api core/v1 types.go: `Name string`, `Value string`, `ValueFrom *EnvVarSource`) and validates them
 * (k8s.io/kubernetes v1.36.3 pkg/apis/core/validation/validation.go:2754-2773 `ValidateEnv`). A map instead of the
 * list breaks the rendered YAML; a string or a non-map entry, a number or boolean `value`, a non-map `valueFrom`
 * fail the decoding; an entry without a name, or a name the API server refuses, fails validation. Either way the
 * Deployment is refused and the release fails. The name rule is the relaxed one (k8s.io/apimachinery v0.36.3
 * pkg/util/validation/validation.go:388-403 `IsRelaxedEnvVarName`: printable ASCII other than `=`), on by default
 * from Kubernetes 1.32 (gate RelaxedEnvironmentVariableValidation); the strict rule (:377-385) is not asked, as the
 * library does not know the API server's gates. Tokens and `null` (remove the chart's empty list) pass.
 * @throws KarpenterValidationError naming `values.controller.env[<i>]…` / `values.controller.envFrom…`, all at once
 */
export function checkControllerEnvShape(scope: IConstruct, controller: unknown): void {
  if (!isPlainMap(controller)) return;
  const problems = new Problems();
  const fail = (field: string, value: unknown, allowed: string) =>
    problems.add(new KarpenterValidationError("HELM_VALUES_ENV", scope, field, value, allowed));
  const env = controller.env;
  if (env !== undefined && env !== null && !isUnresolved(env)) {
    if (!Array.isArray(env))
      fail(
        "values.controller.env",
        env,
        'a list of env entries such as [{ name: "LOG_LEVEL", value: "debug" }]: the chart appends it to the container\'s env list, where a map breaks the rendered YAML',
      );
    else
      env.forEach((e: unknown, i: number) => {
        const field = `values.controller.env[${i}]`;
        // a null item is checkListItems' (release-values.ts, HELM_VALUES_LIST_ITEM_MISSING), reported there once
        if (isUnresolved(e) || e === null || e === undefined) return;
        if (!isPlainMap(e)) {
          fail(field, e, 'an env entry, a map such as { name: "LOG_LEVEL", value: "debug" } (core/v1 EnvVar)');
          return;
        }
        if (!isUnresolved(e.name)) {
          if (typeof e.name !== "string" || e.name === "")
            fail(`${field}.name`, e.name, "the variable's name, a non-empty string (the API server requires it)");
          // validation.go:394-400: any rune above ASCII, not printable, or '='
          else if ([...e.name].some((c) => c === "=" || c < " " || c > "~"))
            fail(
              `${field}.name`,
              e.name,
              "an env var name of printable ASCII characters other than '=' (k8s.io/apimachinery IsRelaxedEnvVarName)",
            );
        }
        if (e.value !== undefined && e.value !== null && typeof e.value !== "string" && !isUnresolved(e.value))
          fail(`${field}.value`, e.value, notAString("core/v1 EnvVar.value is one", e.value));
        if (e.valueFrom !== undefined && e.valueFrom !== null && !isPlainMap(e.valueFrom) && !isUnresolved(e.valueFrom))
          fail(
            `${field}.valueFrom`,
            e.valueFrom,
            "a map (core/v1 EnvVarSource) such as { secretKeyRef: { name, key } } or { fieldRef: { fieldPath } }",
          );
        // validation.go:2843 of k8s.io/kubernetes v1.36.3 (ValidateEnv → validateEnvVarValueFrom): "may not be
        // specified when `value` is not empty"; an empty value with a valueFrom passes. A token value may be "".
        else if (
          e.valueFrom !== undefined &&
          e.valueFrom !== null &&
          typeof e.value === "string" &&
          e.value !== "" &&
          !isUnresolved(e.value)
        )
          fail(
            `${field}.valueFrom`,
            e.valueFrom,
            `no valueFrom beside the non-empty value ${JSON.stringify(e.value)}: an env entry takes one source, and the API server refuses the Deployment ("may not be specified when \`value\` is not empty", k8s.io/kubernetes v1.36.3 pkg/apis/core/validation/validation.go:2843). Drop value or valueFrom`,
          );
      });
  }
  const envFrom = controller.envFrom;
  if (envFrom !== undefined && envFrom !== null && !isUnresolved(envFrom)) {
    if (!Array.isArray(envFrom))
      fail(
        "values.controller.envFrom",
        envFrom,
        'a list of sources such as [{ configMapRef: { name: "my-config" } }] (core/v1 []EnvFromSource)',
      );
    else
      envFrom.forEach((e: unknown, i: number) => {
        // a null item is checkListItems' (HELM_VALUES_LIST_ITEM_MISSING), reported there once
        if (!isPlainMap(e) && !isUnresolved(e) && e !== null && e !== undefined)
          fail(
            `values.controller.envFrom[${i}]`,
            e,
            'a source, a map such as { configMapRef: { name: "my-config" } } or { secretRef: { name } } (core/v1 EnvFromSource)',
          );
      });
  }
  problems.throwIfAny(scope);
}

/*
 * The controller's own options that are no chart setting (sigs.k8s.io/karpenter v1.15.0
 * pkg/operator/options/options.go:215-230, `AddFlags`). Each is read from the environment by
 * pkg/utils/env/env.go, which silently falls back to the default on a parse error (`WithDefaultInt`:
 * strconv.Atoi, :29-39; `WithDefaultInt64`: strconv.ParseInt base 10, :43-53; `WithDefaultBool`:
 * strconv.ParseBool, :67-77): such a value is refused as BATCH_MAX_DURATION=10 is, since the library never lets
 * a value fall back silently. Read in the source of 1.0.0, 1.1.0, 1.3.0, 1.4.0, 1.5.0, 1.8.0, 1.11.0, 1.14.1
 * and 1.15.0 (same parse in each); `since` is the first of those that reads the variable.
 */

/** How the controller reads one of its options from the environment. */
type OptionKind = "port" | "qps" | "burst" | "int64" | "bool" | "leaseName" | "namespace";

interface ControllerOption {
  readonly kind: OptionKind;
  /** The first release read whose controller reads the variable. */
  readonly since: string;
  /** The controller's default (options.go), which it uses when the variable is unset or unreadable. */
  readonly def: string;
}

/** The controller options judged in `values.controller.env`, by env var. */
export const CONTROLLER_OPTIONS: Readonly<Record<string, ControllerOption>> = {
  METRICS_PORT: { kind: "port", since: "1.0.0", def: "8080" },
  HEALTH_PROBE_PORT: { kind: "port", since: "1.0.0", def: "8081" },
  KUBE_CLIENT_QPS: { kind: "qps", since: "1.0.0", def: "200" },
  KUBE_CLIENT_BURST: { kind: "burst", since: "1.0.0", def: "300" },
  ENABLE_PROFILING: { kind: "bool", since: "1.0.0", def: "false" },
  DISABLE_LEADER_ELECTION: { kind: "bool", since: "1.0.0", def: "false" },
  // not in 1.8.0, read in 1.11.0 (1.9 and 1.10 not read: not judged there)
  DISABLE_CONTROLLER_WARMUP: { kind: "bool", since: "1.11.0", def: "true" },
  MEMORY_LIMIT: { kind: "int64", since: "1.0.0", def: "-1" },
  CPU_REQUESTS: { kind: "int64", since: "1.5.0", def: "1000" },
  // 1.0.0 operator.go:155 names the Lease "karpenter-leader-election" itself and reads neither variable
  LEADER_ELECTION_NAME: { kind: "leaseName", since: "1.1.0", def: "karpenter-leader-election" },
  LEADER_ELECTION_NAMESPACE: { kind: "namespace", since: "1.1.0", def: "" },
};

/**
 * From 1.4.0 the controller sets the client's QPS and burst and lets client-go build the rate limiter
 * (operator.go:133-134 of 1.4.0, :173-178 of 1.15.0), which panics on a burst of 0 or less while QPS is above 0
 * (`kubernetes.NewForConfigOrDie`, k8s.io/client-go v0.37.0 kubernetes/clientset.go:514-517); before, it
 * built the token bucket itself (operator.go:126 of 1.1.0 and 1.3.0, :143 of 1.0.0).
 */
export const CLIENT_GO_RATE_LIMITER_SINCE = "1.4.0";

/** The chart's default ports (values.yaml of every release from 1.0: controller.metrics.port, controller.healthProbe.port). */
export const CHART_PORT_DEFAULT = { metrics: 8080, healthProbe: 8081 } as const;

/** The env var of each controller port, which the chart writes from `controller.<which>.port` (deployment.yaml:109-112 of 1.15.0). */
export const PORT_ENV = { metrics: "METRICS_PORT", healthProbe: "HEALTH_PROBE_PORT" } as const;

/** A whole number as Go's strconv.Atoi / ParseInt(s, 10, 64) reads it (a sign, decimal digits, 64-bit), else undefined. */
export function goAtoi(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n > 2n ** 63n - 1n || n < -(2n ** 63n) ? undefined : n;
}

/**
 * The problem of a literal value of a controller option's env var for `version`, undefined when the controller takes
 * it (or does not read the variable).
 */
export function controllerOptionProblem(version: KarpenterVersion, name: string, value: string): string | undefined {
  const option = CONTROLLER_OPTIONS[name];
  if (!option || !version.atLeast(option.since)) return undefined;
  const fallback = (parse: string, fn: string) =>
    `${parse} cannot read ${JSON.stringify(value)}: the controller would not fail but silently use its default ${option.def} (sigs.k8s.io/karpenter pkg/utils/env/env.go ${fn})`;
  switch (option.kind) {
    case "bool":
      return GO_TRUE.includes(value) || GO_FALSE.includes(value)
        ? undefined
        : `"true" or "false" (or what Go's strconv.ParseBool reads: 1, 0, t, f, in lower, upper or title case); ${fallback("strconv.ParseBool", "WithDefaultBool")}`;
    case "int64": {
      const n = goAtoi(value);
      if (n === undefined)
        return `a whole number written in decimal${name === "MEMORY_LIMIT" ? " (bytes, no unit suffix such as Gi)" : " (millicores, no unit suffix such as m)"}; ${fallback("strconv.ParseInt", "WithDefaultInt64")}. The chart already writes it from the container's resources (resourceFieldRef)`;
      // sigs.k8s.io/karpenter v1.15.0 pkg/operator/options/options.go:257-258 (`if o.CPURequests <= 0 { o.CPURequests
      // = 1000 }`; the same in 1.5.0 :131, 1.8.0 :150, 1.11.0 :152, 1.14.1 :153): a parsed value of 0 or less is
      // replaced with the default as silently as an unreadable one (fresh17 S-4)
      if (name === "CPU_REQUESTS" && n <= 0n)
        return `a whole number of millicores above 0: the controller would not fail but silently use its default ${option.def} for ${JSON.stringify(value)} (sigs.k8s.io/karpenter pkg/operator/options/options.go:257-258 of 1.15.0, "if o.CPURequests <= 0"). The chart already writes it from the container's resources (resourceFieldRef)`;
      return undefined;
    }
    case "port":
    case "qps":
    case "burst": {
      const n = goAtoi(value);
      const what =
        option.kind === "port"
          ? "a TCP port from 1 to 65535"
          : option.kind === "qps"
            ? "a whole number of requests per second above 0"
            : "a whole number of requests above 0";
      if (n === undefined) return `${what}, in decimal; ${fallback("strconv.Atoi", "WithDefaultInt")}`;
      if (option.kind === "port" && (n < 1n || n > 65535n))
        return `${what}: the controller binds ":${n}" (operator.go:196-199 of 1.15.0); ${n === 0n ? "0 binds a random port, which the chart's containerPort, the Service and the health probes do not reach" : `Go refuses it ("listen tcp: address ${n}: invalid port") and the controller panics at start (operator.go:237 lo.Must, :282 lo.Must0)`}`;
      if (option.kind === "qps" && n < 1n)
        return version.atLeast(CLIENT_GO_RATE_LIMITER_SINCE)
          ? `${what}: ${n === 0n ? "0 makes client-go fall back to its default of 5 per second" : "a negative QPS turns client-go's rate limiting off"} (k8s.io/client-go rest/config.go:375-383), where the controller's default is 200`
          : `${what}: the controller builds its token bucket from it (operator.go:126 of 1.1.0), which then grants no requests beyond the burst`;
      if (option.kind === "burst" && n < 1n)
        return version.atLeast(CLIENT_GO_RATE_LIMITER_SINCE)
          ? `${what}: with the client QPS above 0 (its default 200) the controller panics at start, "burst is required to be greater than 0 when RateLimiter is not set and QPS is set to greater than 0" (k8s.io/client-go v0.37.0 kubernetes/clientset.go:516, from sigs.k8s.io/karpenter v1.15.0 operator.go:173-178)`
          : `${what}: the controller builds its token bucket with it (operator.go:126 of 1.1.0), and a bucket of 0 refuses every request ("exceeds limiter's burst"), so the controller cannot reach the API server`;
      return undefined;
    }
    case "leaseName":
      return isDns1123Subdomain(value)
        ? undefined
        : `a DNS-1123 subdomain such as "karpenter-leader-election" (lower-case letters, digits, '-' and '.', at most 253 characters): it names the leader-election Lease (operator.go:190 LeaderElectionID), and the API server refuses a Lease with another name (k8s.io/kubernetes v1.36.3 pkg/apis/coordination/validation/validation.go:36, NameIsDNSSubdomain), so no replica ever leads and nothing reconciles`;
    case "namespace":
      return value === "" || isDns1123Label(value)
        ? undefined
        : `"" (the controller's own namespace) or a namespace name, a DNS-1123 label (lower-case letters, digits and '-', at most 63 characters): it is the namespace of the leader-election Lease (operator.go:191), and no namespace has another name, so no replica ever leads`;
  }
}

/** What the controller and the chart do with one of the controller's ports. */
export interface EffectivePort {
  /** The port the controller binds, when known at synth (from the winning env entry, else the chart value). */
  readonly bound?: number;
  /** The prop it comes from (`values.controller.env[3].value`, `values.controller.metrics.port`); undefined for the chart default. */
  readonly field?: string;
  /** The chart's containerPort, when known at synth (`values.controller.<which>.port`, else the default). */
  readonly containerPort?: number;
  /** The prop the containerPort comes from; undefined for the chart default. */
  readonly containerField?: string;
}

/** A chart port value as the chart renders it (a whole number, or a string of digits written unquoted), else undefined. */
function chartPortNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) ? value : undefined;
  return typeof value === "string" && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * The metrics or health-probe port as the controller binds it and as the chart declares it: the chart writes
 * `controller.<which>.port` both as the containerPort and as the env var (deployment.yaml:109-112, 222-226 of
 * 1.15.0; the same from 1.0), and a `values.controller.env` entry of that env var replaces the chart's (see the top).
 */
export function effectivePort(which: "metrics" | "healthProbe", values: unknown, env: ControllerEnv): EffectivePort {
  const controller = isPlainMap(values) && isPlainMap(values.controller) ? values.controller : undefined;
  const block = controller?.[which];
  const given = isPlainMap(block) ? block.port : undefined;
  const containerField = given === undefined ? undefined : `values.controller.${which}.port`;
  const containerPort = given === undefined ? CHART_PORT_DEFAULT[which] : chartPortNumber(given);
  const entry = env.winners.get(PORT_ENV[which]);
  if (!entry) {
    if (env.opaque) return { containerPort, containerField };
    return { bound: containerPort, field: containerField, containerPort, containerField };
  }
  const text = literalEnvValue(entry);
  const n = text === undefined ? undefined : goAtoi(text);
  return {
    bound: n === undefined ? undefined : Number(n),
    field: `values.controller.env[${entry.index}].value`,
    containerPort,
    containerField,
  };
}

/**
 * `values.controller.metrics.port` and `values.controller.healthProbe.port` (a containerPort: a whole number from
 * 1 to 65535, k8s.io/kubernetes v1.36.3 pkg/apis/core/validation/validation.go:2732-2737; the env var then gets
 * the same text), and the two ports the controller binds (from those or from a METRICS_PORT / HEALTH_PROBE_PORT
 * entry): equal, the second listener fails with "address already in use" and the controller panics at start
 * (sigs.k8s.io/karpenter v1.15.0 operator.go:196-200, 282); a HEALTH_PROBE_PORT entry other than the
 * containerPort leaves the liveness and readiness probes (deployment.yaml:227-239, `port: http`) on a port
 * nothing listens on, so the kubelet restarts the controller forever. A METRICS_PORT entry other than the
 * containerPort only warns (the Service and ServiceMonitor scrape the containerPort).
 * @throws KarpenterValidationError HELM_VALUES_PORT, every problem at once
 */
export function checkControllerPorts(scope: IConstruct, values: unknown, env: ControllerEnv): void {
  const controller = isPlainMap(values) && isPlainMap(values.controller) ? values.controller : undefined;
  const problems = new Problems();
  for (const which of ["metrics", "healthProbe"] as const) {
    const block = controller?.[which];
    if (!isPlainMap(block) || !("port" in block) || block.port === undefined || isUnresolved(block.port)) continue;
    const n = chartPortNumber(block.port);
    if (n === undefined || n < 1 || n > 65535)
      problems.add(
        new KarpenterValidationError(
          "HELM_VALUES_PORT",
          scope,
          `values.controller.${which}.port`,
          block.port,
          `a TCP port, a whole number from 1 to 65535 (the chart's default is ${CHART_PORT_DEFAULT[which]}): the chart writes it as the controller's containerPort, which the API server refuses outside that range ("must be between 1 and 65535, inclusive", k8s.io/kubernetes v1.36.3 pkg/apis/core/validation/validation.go:2732-2737), and as ${PORT_ENV[which]}`,
        ),
      );
  }
  const metrics = effectivePort("metrics", values, env);
  const health = effectivePort("healthProbe", values, env);
  const clash = metrics.bound !== undefined && metrics.bound === health.bound;
  if (clash) {
    const named = [metrics, health].filter((p) => p.field !== undefined);
    const at = named[named.length - 1] ?? health;
    // the message names the other port of the pair (fresh tester 22 CF-1: it named the metrics port on the metrics field)
    const [other, otherName] = at === metrics ? [health, "health-probe"] : [metrics, "metrics"];
    problems.add(
      new KarpenterValidationError(
        "HELM_VALUES_PORT",
        scope,
        at.field ?? "values.controller.healthProbe.port",
        health.bound,
        `a port other than the ${otherName} port ${other.bound}${other.field ? ` (${other.field})` : " (the chart's default)"}: the controller binds the metrics and the health-probe server on one port each, and the second fails with "listen tcp :${health.bound}: bind: address already in use", a panic at start (sigs.k8s.io/karpenter v1.15.0 operator.go:196-200, 282). Give values.controller.metrics.port and values.controller.healthProbe.port different ports`,
      ),
    );
  }
  const healthEntry = env.winners.get(PORT_ENV.healthProbe);
  // one problem a field: a clash with the metrics port is the reason already given
  if (
    !clash &&
    healthEntry &&
    health.bound !== undefined &&
    health.bound >= 1 &&
    health.bound <= 65535 &&
    health.containerPort !== undefined &&
    health.bound !== health.containerPort
  )
    problems.add(
      new KarpenterValidationError(
        "HELM_VALUES_PORT",
        scope,
        health.field!,
        literalEnvValue(healthEntry),
        `no HEALTH_PROBE_PORT entry, or ${health.containerPort} (the containerPort "http", ${health.containerField ?? "the chart's default"}): the chart's liveness and readiness probes target that containerPort (deployment.yaml:227-239 of 1.15.0, port: http), so with the controller's probe server on ${health.bound} the kubelet restarts it forever. Set values.controller.healthProbe.port instead: the chart writes it to both`,
      ),
    );
  problems.throwIfAny(scope);
  const metricsEntry = env.winners.get(PORT_ENV.metrics);
  if (
    metricsEntry &&
    metrics.bound !== undefined &&
    metrics.bound >= 1 &&
    metrics.bound <= 65535 &&
    metrics.containerPort !== undefined &&
    metrics.bound !== metrics.containerPort
  )
    Annotations.of(scope).addWarning(
      `${metrics.field} = ${JSON.stringify(literalEnvValue(metricsEntry))} (METRICS_PORT) moves the controller's metrics server off the containerPort "http-metrics" ${metrics.containerPort} (${metrics.containerField ?? "the chart's default"}), which the chart's Service and ServiceMonitor scrape: metrics go unscraped. Set values.controller.metrics.port instead: the chart writes it to both`,
    );
}

/**
 * The chart values the templates test only with `if` (charts/karpenter/templates of 1.15.0: deployment.yaml:58
 * `if .Values.hostNetwork`, serviceaccount.yaml:1 `if .Values.serviceAccount.create`, servicemonitor.yaml:1
 * `if and .Values.serviceMonitor.enabled …`; 1.0.x also `if .Values.webhook.enabled`, 8 times): Go templates
 * take any non-empty string as true, so `"false"` turns the feature on. Only a boolean is taken.
 */
const IF_ONLY_VALUES: readonly (readonly string[])[] = [
  ["hostNetwork"],
  ["serviceAccount", "create"],
  ["serviceMonitor", "enabled"],
  ["webhook", "enabled"],
];

/** @throws KarpenterValidationError HELM_VALUES_NOT_A_BOOLEAN for a value of {@link IF_ONLY_VALUES} that is no boolean (null and tokens pass) */
export function checkIfOnlyValues(scope: IConstruct, values: unknown): void {
  const problems = new Problems();
  for (const path of IF_ONLY_VALUES) {
    let v: unknown = values;
    for (const p of path) v = isPlainMap(v) ? v[p] : undefined;
    if (v === undefined || v === null || typeof v === "boolean" || isUnresolved(v)) continue;
    problems.add(
      new KarpenterValidationError(
        "HELM_VALUES_NOT_A_BOOLEAN",
        scope,
        `values.${path.join(".")}`,
        v,
        `true or false, unquoted: the chart tests it only with {{ if }}, where any non-empty string or non-zero number is true${typeof v === "string" ? ` (so ${JSON.stringify(v)} turns it on)` : ""} (charts/karpenter/templates; text/template truth)`,
      ),
    );
  }
  problems.throwIfAny(scope);
}
