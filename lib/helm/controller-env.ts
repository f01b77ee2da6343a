import { IConstruct } from "constructs";
import { Annotations } from "cdktf";
import { isPlainMap } from "../core/deep-merge";
import { goTrimSpace } from "../core/go-strings";
import { isUnresolved } from "../core/tokens";
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
 */
export function effectiveSetting(
  key: string,
  settings: KarpenterSettings | undefined,
  values: unknown,
): EffectiveSetting {
  const chart = chartSource(key, settings, values);
  const envName = settingEnvName(key);
  const entry = envName === undefined ? undefined : readControllerEnv(values).winners.get(envName);
  if (!entry) return { value: chart?.value, field: chart?.field };
  return { value: entry.value, field: `values.controller.env[${entry.index}].value`, entry, replaced: chart };
}

/** The texts Go's `strconv.ParseBool` reads as true (Go strconv/atob.go). */
const GO_TRUE = ["1", "t", "T", "TRUE", "true", "True"];
/** The texts Go's `strconv.ParseBool` reads as false. */
const GO_FALSE = ["0", "f", "F", "FALSE", "false", "False"];

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
 */
export function effectiveGate(
  version: KarpenterVersion,
  section: GateSection,
  key: string,
  settings: KarpenterSettings | undefined,
  values: unknown,
): boolean | undefined {
  const controllerDefault = chartDefault(section, key, factsRelease(version.full)) === true;
  const readsEnv = section === "featureGates" || version.atLeast(AWS_FEATURE_GATES_SINCE);
  const env = readControllerEnv(values);
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
): void {
  const env = readControllerEnv(values);
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
    const { entry, replaced } = effectiveSetting(key, settings, values);
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
