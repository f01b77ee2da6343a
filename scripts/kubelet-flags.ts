/*
 * Writes lib/versions/data/kubelet-flags.json: the command-line flags of the kubelet of k8s.io/kubernetes v1.36.3,
 * each with the kind of its pflag value (what its Set parses), whether it is deprecated (accepted with a warning) and
 * where it is registered (module, file:line).
 *
 * NewKubeletCommand (cmd/kubelet/app/server.go) builds one pflag FlagSet, normalized by cliflag.WordSepNormalizeFunc
 * (`_` reads as `-`), from: KubeletFlags.AddFlags and AddKubeletConfigFlags (cmd/kubelet/app/options/options.go; the
 * latter's flags all deprecated but the `notDeprecated` ones, and logsapi.AddFlags of k8s.io/component-base logs/api/v1
 * registered there too), AddGlobalFlags (options/globalflags.go: cadvisor's Go flags re-registered by
 * globalflags_linux.go, types read from github.com/google/cadvisor at the version k8s.io/kubernetes' go.mod requires;
 * verflag's `--version`; logs.AddFlags, which adds nothing the kubelet has not got already) and `--help` / `-h`.
 * The calls are read from the source; a registration form, value constructor or call the parser does not know stops
 * the script, so an upstream change is looked at.
 *
 *   npx tsx scripts/kubelet-flags.ts           write the table
 *   npx tsx scripts/kubelet-flags.ts --check   exit 1 when the committed table differs
 */
import * as fs from "fs";
import * as path from "path";
import type { KubeletFlag, KubeletFlags } from "../lib/versions/kubelet-flags";
import { moduleDir, required, writeOrCheck } from "./go-module-table";

export const TABLE_FILE = path.resolve(__dirname, "../lib/versions/data/kubelet-flags.json");

export const KUBERNETES = { module: "k8s.io/kubernetes", version: "v1.36.3" };
const COMPONENT_BASE = "k8s.io/component-base";
const CADVISOR = "github.com/google/cadvisor";
const KUBELET = "k8s.io/kubelet";

/** pflag's typed registrations (`fs.<Method>(p, name, value, usage)`) by the kind of their value. */
const TYPED: Record<string, string> = {
  BoolVar: "bool",
  StringVar: "string",
  DurationVar: "duration",
  Int32Var: "int32",
  Int64Var: "int64",
  IntVar: "int",
  UintVar: "uint",
  Float64Var: "float64",
  StringSliceVar: "stringSlice",
};

/**
 * `fs.Var(<value>, name, usage)`: the value expressions, by the kind of their Set (k8s.io/component-base cli/flag,
 * k8s.io/kubernetes pkg/util/flag/flags.go, component-base logs/api/v1/pflags.go). `&c.Options.*.InfoBufferSize` is a
 * resource.QuantityValue (component-base logs/api/v1/types.go), whose Set is resource.ParseQuantity.
 */
const VALUES: [RegExp, string][] = [
  [/^cliflag\.NewMapStringBool\(/, "mapStringBool"],
  [/^cliflag\.NewMapStringString\(/, "mapStringString"],
  [/^cliflag\.NewMapStringStringNoSplit\(/, "mapStringStringNoSplit"],
  [/^cliflag\.NewLangleSeparatedMapStringString\(/, "langleSeparatedMapStringString"],
  [/^cliflag\.NewColonSeparatedMultimapStringString\(/, "colonSeparatedMultimapStringString"],
  [/^cliflag\.ConfigurationMap\(/, "configurationMap"],
  [/^&utilflag\.IPVar\{/, "ip"],
  [/^&utilflag\.ReservedMemoryVar\{/, "reservedMemory"],
  [/^&utilflag\.RegisterWithTaintsVar\{/, "taints"],
  [/^VerbosityLevelPflag\(/, "verbosity"],
  [/^VModuleConfigurationPflag\(/, "vmodule"],
  [/^&c\.Options\.(Text|JSON)\.InfoBufferSize$/, "quantity"],
];

/** Go's flag package (cadvisor's flags): `flag.<Func>("name", …)` by kind (Go flag's Set: strconv / time). */
const GO_FLAG: Record<string, string> = {
  Bool: "bool",
  String: "string",
  Duration: "duration",
  Int: "int",
  Int64: "int64",
  Uint: "uint",
  Uint64: "uint64",
  Float64: "float64",
};

/** Registration calls that register nothing themselves (structure, handled by the caller). */
const STRUCTURAL = new Set(["AddFlagSet", "VisitAll"]);

const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length;

/** The body of `func <signature>` (from `{` to its closing `}` at the start of a line) and its offset. */
function funcBody(text: string, signature: RegExp, file: string): { body: string; start: number } {
  const m = signature.exec(text);
  if (!m) throw new Error(`${file}: no ${signature}`);
  const open = text.indexOf("{", m.index + m[0].length - 1);
  const close = text.indexOf("\n}", open);
  return { body: text.slice(open, close), start: open };
}

/** The argument list of the call whose `(` is at `open`, split at top-level commas; and where it ends. */
export function callArgs(text: string, open: number): { args: string[]; end: number } {
  const args: string[] = [];
  let depth = 0;
  let cur = "";
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "`") {
      const close = ch === "`" ? text.indexOf("`", i + 1) : stringEnd(text, i);
      cur += text.slice(i, close + 1);
      i = close;
      continue;
    }
    if (ch === "(" || ch === "{" || ch === "[") {
      if (depth++ === 0) continue;
    } else if (ch === ")" || ch === "}" || ch === "]") {
      if (--depth === 0) {
        args.push(cur.trim());
        return { args, end: i };
      }
    } else if (ch === "," && depth === 1) {
      args.push(cur.trim());
      cur = "";
      continue;
    }
    cur += ch;
  }
  throw new Error("unclosed call");
}

function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === '"') return j;
  }
  throw new Error("unclosed string");
}

/** A flag name argument: a string literal, or a constant of `consts`. */
function nameOf(arg: string, consts: Record<string, string>, where: string): string {
  const lit = /^"([^"]*)"$/.exec(arg);
  if (lit) return lit[1];
  if (arg in consts) return consts[arg];
  throw new Error(`${where}: flag name ${arg} is neither a literal nor a known constant`);
}

const normalize = (name: string) => name.replace(/_/g, "-");

/**
 * The registrations on `fs` in a function body: each flag with its kind, shorthand and line; MarkDeprecated names.
 * `locals`: `name := <expr>` of the body, for a value given by a variable.
 */
export function parseRegistrations(
  text: string,
  body: { body: string; start: number },
  at: string,
  consts: Record<string, string> = {},
): { flags: Record<string, KubeletFlag>; deprecated: string[]; targets: Record<string, string> } {
  const flags: Record<string, KubeletFlag> = {};
  const deprecated: string[] = [];
  const targets: Record<string, string> = {};
  const locals: Record<string, string> = {};
  for (const m of body.body.matchAll(/^\s*(\w+) := (.+)$/gm)) locals[m[1]] = m[2].trim();
  for (const m of body.body.matchAll(/\bfs\.(\w+)\(/g)) {
    const method = m[1];
    const index = body.start + m.index;
    const line = lineAt(text, index);
    const where = `${at}:${line}`;
    const { args } = callArgs(body.body, m.index + m[0].length - 1);
    if (STRUCTURAL.has(method)) continue;
    if (method === "MarkDeprecated") {
      deprecated.push(nameOf(args[0], consts, where));
      continue;
    }
    let kind: string | undefined;
    let shorthand: string | undefined;
    const name = nameOf(args[1], consts, where);
    if (method in TYPED) {
      kind = TYPED[method];
    } else if (method === "Var" || method === "VarP") {
      const expr = args[0].replace(/^&(\w+)$/, (_, v: string) => (v in locals ? locals[v] : `&${v}`));
      kind = VALUES.find(([re]) => re.test(expr))?.[1];
      if (!kind) throw new Error(`${where}: fs.${method} of ${args[0]}: add what its Set parses to VALUES`);
      if (method === "VarP") shorthand = nameOf(args[2], consts, where);
    } else {
      throw new Error(`${where}: fs.${method}: a registration form the parser does not know`);
    }
    // the configuration field the flag sets: `&c.RegistryBurst`, `&c.SyncFrequency.Duration`, `New…(&c.EvictionHard)`
    // (a field of a nested struct, `&c.Authentication.Anonymous.Enabled`, is recorded as "" : not mapped)
    const target = /&c\.([\w.]+)/.exec(args[0])?.[1].split(".");
    if (target) targets[normalize(name)] = target.length === 1 || target[1] === "Duration" ? target[0] : "";
    flags[normalize(name)] = {
      kind,
      ...(shorthand ? { shorthand } : {}),
      ...(kind === "bool" ? { noOptDefVal: "true" } : {}),
      at: where,
    };
  }
  return { flags, deprecated, targets };
}

/** The BoolP call of `help` in server.go's NewKubeletCommand, after checking it adds nothing else to the flag set. */
function serverFlags(text: string, at: string): Record<string, KubeletFlag> {
  const { body, start } = funcBody(text, /^func NewKubeletCommand\(/m, at);
  const calls = [...body.matchAll(/^\s*(.+)\(cleanFlagSet\b.*$/gm)].map((m) => m[1].trim());
  const known = [
    "cliflag.PrintFlags",
    "kubeletFlags.AddFlags",
    "options.AddKubeletConfigFlags",
    "options.AddGlobalFlags",
  ];
  if (calls.join() !== known.join())
    throw new Error(`${at}: NewKubeletCommand passes its flag set to ${calls.join(", ")}: read the new ones`);
  if (!/cleanFlagSet\.SetNormalizeFunc\(cliflag\.WordSepNormalizeFunc\)/.test(body))
    throw new Error(`${at}: the flag set's normalize func changed`);
  const out: Record<string, KubeletFlag> = {};
  for (const m of body.matchAll(/cleanFlagSet\.(\w+)\(/g)) {
    const method = m[1];
    if (["SetNormalizeFunc", "Parse", "Args", "GetBool", "FlagUsagesWrapped"].includes(method)) continue;
    const { args } = callArgs(body, m.index + m[0].length - 1);
    if (method !== "BoolP") throw new Error(`${at}: cleanFlagSet.${method}: a form the parser does not know`);
    out[nameOf(args[0], {}, at)] = {
      kind: "bool",
      shorthand: nameOf(args[1], {}, at),
      noOptDefVal: "true",
      at: `${at}:${lineAt(text, start + m.index)}`,
    };
  }
  return out;
}

/** The module texts the parse reads, by role. */
export interface Sources {
  readonly kubernetes: string;
  readonly componentBase: string;
  readonly cadvisor: string;
  readonly kubelet: string;
  readonly read: (module: "kubernetes" | "componentBase" | "cadvisor" | "kubelet", file: string) => string;
  readonly files: (module: "cadvisor") => string[];
}

/** The whole flag set, from the sources. */
export function parseFlags(src: Sources): Record<string, KubeletFlag> {
  const k8s = (file: string) => ({ text: src.read("kubernetes", file), at: `${src.kubernetes} ${file}` });
  const flags: Record<string, KubeletFlag> = {};
  const add = (found: Record<string, KubeletFlag>) => {
    for (const [name, f] of Object.entries(found)) {
      if (name in flags) throw new Error(`${f.at}: --${name} registered twice`);
      flags[name] = f;
    }
  };

  // KubeletFlags.AddFlags: its own, addContainerRuntimeFlags and addOSFlags (Linux: osflags_others.go)
  const options = k8s("cmd/kubelet/app/options/options.go");
  const own = funcBody(options.text, /^func \(f \*KubeletFlags\) AddFlags\(/m, options.at);
  for (const call of own.body.matchAll(/^\t(\w+|f\.\w+)\(fs,/gm))
    if (!["addContainerRuntimeFlags", "f.addOSFlags"].includes(call[1]))
      throw new Error(`${options.at}: KubeletFlags.AddFlags calls ${call[1]}: read it`);
  const a = parseRegistrations(options.text, own, options.at);
  const runtime = parseRegistrations(
    options.text,
    funcBody(options.text, /^func addContainerRuntimeFlags\(/m, options.at),
    options.at,
  );
  const os = k8s("cmd/kubelet/app/options/osflags_others.go");
  const osFlags = parseRegistrations(
    os.text,
    funcBody(os.text, /^func \(f \*KubeletFlags\) addOSFlags\(/m, os.at),
    os.at,
  );
  for (const part of [runtime, osFlags, a]) add(part.flags);
  for (const d of a.deprecated) markDeprecated(flags, d, options.at);

  // AddKubeletConfigFlags: all deprecated in its deferred func, except notDeprecated; logsapi.AddFlags inside
  const cfg = funcBody(options.text, /^func AddKubeletConfigFlags\(/m, options.at);
  const keep = /notDeprecated := map\[string\]bool\{([^}]*)\}/.exec(cfg.body);
  if (!keep || !/f\.Deprecated = deprecated/.test(cfg.body))
    throw new Error(`${options.at}: AddKubeletConfigFlags no longer deprecates its flags as read`);
  const notDeprecated = new Set([...keep[1].matchAll(/"([\w-]+)":\s*true/g)].map((m) => m[1]));
  const parsedCfg = parseRegistrations(options.text, cfg, options.at);
  const jsonNames = configJsonNames(src);
  const cfgFlags: Record<string, KubeletFlag> = {};
  for (const [name, f] of Object.entries(parsedCfg.flags)) {
    const goName = parsedCfg.targets[name];
    if (goName === undefined) throw new Error(`${f.at}: --${name} sets no field of the configuration (&c.<Field>)`);
    if (goName === "") {
      cfgFlags[name] = f;
      continue;
    }
    const field = jsonNames[goName];
    if (field === undefined)
      throw new Error(
        `${f.at}: --${name} sets c.${goName}, which k8s.io/kubelet's v1beta1 KubeletConfiguration has not`,
      );
    cfgFlags[name] = { ...f, field };
  }
  const logsFile = "logs/api/v1/options.go";
  const logsText = src.read("componentBase", logsFile);
  const logsAt = `${src.componentBase} ${logsFile}`;
  if (!/^\tlogsapi\.AddFlags\(&c\.Logging, fs\)$/m.test(cfg.body))
    throw new Error(`${options.at}: AddKubeletConfigFlags no longer calls logsapi.AddFlags as read`);
  const consts = Object.fromEntries([...logsText.matchAll(/^\s*(\w+)\s*=\s*"([\w-]+)"$/gm)].map((m) => [m[1], m[2]]));
  const logFlags = parseRegistrations(
    logsText,
    funcBody(logsText, /^func addFlags\(c \*LoggingConfiguration, fs flagSet\)/m, logsAt),
    logsAt,
    consts,
  ).flags;
  for (const [name, f] of Object.entries({ ...cfgFlags, ...logFlags }))
    add({ [name]: notDeprecated.has(name) ? f : { ...f, deprecated: true } });

  // AddGlobalFlags: cadvisor's (Linux), credential provider's (none), verflag's, logs'
  const global = k8s("cmd/kubelet/app/options/globalflags.go");
  const g = funcBody(global.text, /^func AddGlobalFlags\(/m, global.at);
  const globalCalls = [...g.body.matchAll(/^\t(\S+)\(/gm)].map((m) => m[1]);
  const knownGlobal = ["addCadvisorFlags", "addCredentialProviderFlags", "verflag.AddFlags", "logs.AddFlags"];
  if (globalCalls.join() !== knownGlobal.join())
    throw new Error(`${global.at}: AddGlobalFlags calls ${globalCalls.join(", ")}: read the new ones`);
  const cred = funcBody(global.text, /^func addCredentialProviderFlags\(/m, global.at);
  if (/\bregister\w*\(/.test(cred.body)) throw new Error(`${global.at}: addCredentialProviderFlags registers flags`);
  add(cadvisorFlags(src, k8s("cmd/kubelet/app/options/globalflags_linux.go")));
  add(versionFlag(src));
  checkLogsAddFlags(src, flags);

  // server.go: --help / -h
  const server = k8s("cmd/kubelet/app/server.go");
  add(serverFlags(server.text, server.at));
  return Object.fromEntries(Object.entries(flags).sort(([x], [y]) => x.localeCompare(y)));
}

/**
 * The JSON names of the fields of k8s.io/kubelet's v1beta1 KubeletConfiguration (the same release as the kubelet), by
 * Go name: AddKubeletConfigFlags sets the internal configuration's fields, whose Go names are v1beta1's.
 */
function configJsonNames(src: Sources): Record<string, string> {
  const text = src.read("kubelet", "config/v1beta1/types.go");
  const { body } = funcBody(text, /^type KubeletConfiguration struct \{/m, `${src.kubelet} config/v1beta1/types.go`);
  const out: Record<string, string> = {};
  for (const m of body.matchAll(/^\t(\w+) [^`\n]*`json:"(\w+)/gm)) out[m[1]] = m[2];
  if (Object.keys(out).length < 100)
    throw new Error(`${src.kubelet} config/v1beta1/types.go: KubeletConfiguration not read`);
  return out;
}

function markDeprecated(flags: Record<string, KubeletFlag>, name: string, at: string): void {
  if (!(name in flags)) throw new Error(`${at}: MarkDeprecated of --${name}, which is not registered`);
  flags[name] = { ...flags[name], deprecated: true };
}

/** globalflags_linux.go's register / registerDeprecated calls, each flag's type read from cadvisor's flag.X call. */
function cadvisorFlags(src: Sources, file: { text: string; at: string }): Record<string, KubeletFlag> {
  const { body, start } = funcBody(file.text, /^func addCadvisorFlags\(/m, file.at);
  const goFlags: Record<string, { kind: string; at: string }> = {};
  for (const f of src.files("cadvisor")) {
    if (f.endsWith("_test.go")) continue;
    const text = src.read("cadvisor", f);
    for (const m of text.matchAll(/\bflag\.(\w+)\("([\w-]+)",/g)) {
      if (!(m[1] in GO_FLAG)) continue;
      goFlags[m[2]] = { kind: GO_FLAG[m[1]], at: `${src.cadvisor} ${f}:${lineAt(text, m.index)}` };
    }
  }
  const out: Record<string, KubeletFlag> = {};
  for (const m of body.matchAll(/^\t(\w+)\(/gm)) {
    const fn = m[1];
    if (fn === "register" || fn === "registerDeprecated") {
      const { args } = callArgs(body, m.index + m[0].length - 1);
      const name = nameOf(args[2], {}, file.at);
      const go = goFlags[name];
      if (!go) throw new Error(`${file.at}: cadvisor registers no Go flag ${name} (flag.<Type>("${name}", …))`);
      out[normalize(name)] = {
        kind: go.kind,
        ...(go.kind === "bool" ? { noOptDefVal: "true" } : {}),
        ...(fn === "registerDeprecated" ? { deprecated: true } : {}),
        at: `${go.at} (re-registered at ${file.at}:${lineAt(file.text, start + m.index)})`,
      };
    } else if (fn !== "const") {
      throw new Error(`${file.at}: addCadvisorFlags calls ${fn}: a form the parser does not know`);
    }
  }
  return out;
}

/**
 * verflag.AddFlags adds the global `version` flag: a versionValue, IsBoolFlag (so `--version` alone is true), whose
 * Set takes "raw", a version starting with "v", or a bool (component-base version/verflag/verflag.go).
 */
function versionFlag(src: Sources): Record<string, KubeletFlag> {
  const file = "version/verflag/verflag.go";
  const text = src.read("componentBase", file);
  const m = /^\tversionFlag = Version\(versionFlagName,/m.exec(text);
  if (!m || !/const versionFlagName = "version"/.test(text) || !/IsBoolFlag\(\) bool \{\n\treturn true/.test(text))
    throw new Error(`${src.componentBase} ${file}: the version flag is no longer as read`);
  return {
    version: { kind: "version", noOptDefVal: "true", at: `${src.componentBase} ${file}:${lineAt(text, m.index)}` },
  };
}

/**
 * logs.AddFlags(fs, SkipLoggingConfigurationFlags()) adds logs' package flags: klogflags.Init's `v` and `vmodule`
 * and `log-flush-frequency`, all three skipped (logsapi.AddFlags registered them). Stops when that changes.
 */
function checkLogsAddFlags(src: Sources, flags: Record<string, KubeletFlag>): void {
  const logs = src.read("componentBase", "logs/logs.go");
  const klogflags = src.read("componentBase", "logs/klogflags/klogflags.go");
  const init = funcBody(logs, /^func init\(\)/m, "logs/logs.go").body;
  const ok =
    /^\tklogflags\.Init\(packageFlags\)\n\tpackageFlags\.DurationVar\(&logFlushFreq, logsapi\.LogFlushFreqFlagName,/m.test(
      init,
    ) &&
    init.split("\n").filter((l) => /packageFlags\./.test(l)).length === 1 &&
    /case "v", "vmodule":\n\t\t\tfs\.Var\(/.test(klogflags) &&
    /case "v", logsapi\.LogFlushFreqFlagName:/.test(logs);
  if (!ok || !["v", "vmodule", "log-flush-frequency"].every((f) => f in flags))
    throw new Error(`${src.componentBase} logs/logs.go: logs.AddFlags may add flags now: read it`);
}

/** The sources from the Go module cache (downloads when absent). */
export function moduleSources(): Sources {
  const k8sDir = moduleDir(KUBERNETES.module, KUBERNETES.version);
  const goMod = fs.readFileSync(path.join(k8sDir, "go.mod"), "utf8");
  // k8s.io/kubernetes requires component-base v0.0.0 (a staging replace): the published module of the same release
  const cbVersion = KUBERNETES.version.replace(/^v1\./, "v0.");
  const cvVersion = required(goMod, CADVISOR);
  const dirs = {
    kubernetes: k8sDir,
    componentBase: moduleDir(COMPONENT_BASE, cbVersion),
    cadvisor: moduleDir(CADVISOR, cvVersion),
    kubelet: moduleDir(KUBELET, cbVersion),
  };
  const walk = (dir: string, rel = ""): string[] =>
    fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) return e.name === "vendor" || e.name === "testdata" ? [] : walk(dir, r);
      return e.name.endsWith(".go") ? [r] : [];
    });
  return {
    kubernetes: `${KUBERNETES.module}@${KUBERNETES.version}`,
    componentBase: `${COMPONENT_BASE}@${cbVersion}`,
    cadvisor: `${CADVISOR}@${cvVersion}`,
    kubelet: `${KUBELET}@${cbVersion}`,
    read: (m, file) => fs.readFileSync(path.join(dirs[m], file), "utf8"),
    files: (m) => walk(dirs[m]),
  };
}

export function generate(): KubeletFlags {
  const src = moduleSources();
  return {
    kubelet: src.kubernetes,
    parsedBy:
      "cmd/kubelet/app/server.go NewKubeletCommand: cobra's flag parsing disabled, cleanFlagSet.Parse(args) (github.com/spf13/pflag), exits on an error",
    normalize: "cliflag.WordSepNormalizeFunc: _ in a flag name reads as -",
    flags: parseFlags(src),
  };
}

/** The committed file's text. */
export function render(table: KubeletFlags): string {
  const note = "Generated by `npm run kubelet-flags` (scripts/kubelet-flags.ts) from the Go module cache. Do not edit.";
  return JSON.stringify({ _: note, ...table }, null, 2) + "\n";
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
