import { isIP } from "net";
import { editDistance } from "../core/problems";
import {
  durationNanos,
  isLabelValue,
  isNegativeQuantity,
  isQualifiedName,
  parseQuantity,
} from "../kubernetes/value-rules";
import { kubeletGate, kubeletGateMinors } from "../versions/kubelet-feature-gates";
import { KubeletFlag, kubeletFlags } from "../versions/kubelet-flags";
import { nodeIpOutcome } from "./kubelet-node-ip";
import { startupParseProblems } from "./kubelet-runtime-rules";

/*
 * The kubelet's parse of the flags a NodeConfig's `spec.kubelet.flags` puts on its command line. nodeadm joins its own
 * `--name=value` flags and then the user's items with spaces into NODEADM_KUBELET_ARGS (amazon-eks-ami nodeadm
 * internal/kubelet/environment.go:22-29), which the kubelet unit expands unquoted (amazon-eks-ami
 * templates/al2023/runtime/rootfs/etc/systemd/system/kubelet.service: ExecStart=/usr/bin/kubelet $NODEADM_KUBELET_ARGS), so the words are the items split at
 * whitespace: `--max-pods 110` in one item and a flag split over two items both work. The kubelet parses them with
 * pflag (k8s.io/kubernetes v1.36.3 cmd/kubelet/app/server.go:144-191, NewKubeletCommand: cobra's parsing disabled,
 * cleanFlagSet.Parse(args); github.com/spf13/pflag v1.0.9 flag.go parseArgs, parseLongArg, parseSingleShortArg) and
 * exits on the first error ("failed to parse kubelet flag: unknown flag: --foo"), so the node never joins. The flags,
 * their value kinds and sources: lib/versions/data/kubelet-flags.json (scripts/kubelet-flags.ts). Judged here:
 * - `--name=value`; `--name value` (a flag with no default for a bare flag takes the next word); `--name` alone for a
 *   bool flag; `-x`, `-x=value`, `-xvalue`, `-x value` for a one-letter shorthand (`-v`, `-h`); names normalized by
 *   cliflag.WordSepNormalizeFunc (`_` reads as `-`);
 * - an unknown flag or shorthand, a flag missing its value, a word that is no flag (the kubelet refuses it with
 *   "unknown command"), a value its flag's Set refuses (Go strconv / time.ParseDuration / the value types' Set);
 * - `--help` / `-h` and `--version`, on which the kubelet prints and exits without starting.
 * - a `--node-ip` the kubelet exits on, or ignores in part or in full (kubelet-node-ip.ts).
 * Items holding a quote or a backslash are not judged (systemd's unquoting applies to them).
 */

/** A refused item: its index in `spec.kubelet.flags`, what is wrong, and where the kubelet registers the flag. */
export interface KubeletFlagProblem {
  readonly index: number;
  readonly problem: string;
}

/**
 * A configuration flag's value as the kubelet sets it over its configuration field (flags take precedence over the
 * configuration file and its drop-ins: k8s.io/kubernetes v1.36.3 cmd/kubelet/app/server.go kubeletConfigFlagPrecedence).
 */
export interface KubeletFlagValue {
  /** The KubeletConfiguration field (`registryBurst`). */
  readonly field: string;
  /** The value in the field's JSON form (a number, a bool, a string, a list of strings). */
  readonly value: unknown;
  /** The item of `spec.kubelet.flags` it is in. */
  readonly index: number;
  /** The flag as written (`--registry-burst`). */
  readonly flag: string;
}

/** What the kubelet makes of `spec.kubelet.flags` ({@link kubeletFlagProblems}). */
export interface KubeletFlagParse {
  /** The first problem the kubelet stops at. */
  readonly refused?: KubeletFlagProblem;
  /** The deprecated flags used. */
  readonly deprecated: readonly { readonly index: number; readonly name: string; readonly at: string }[];
  /** The values the configuration flags set over the configuration's fields. */
  readonly values: readonly KubeletFlagValue[];
  /**
   * Every flag's last value as written, by its long name (`cloud-provider`, `_` read as `-`), with its item: the value a
   * scalar flag ends up with. Empty when a flag is refused or the items are not judged.
   */
  readonly flags: ReadonlyMap<string, { readonly value: string; readonly index: number }>;
  /** Values the kubelet accepts but ignores in part or in full, with a log line at most (`--node-ip`). */
  readonly ignored: readonly KubeletFlagProblem[];
}

/**
 * The problems of `spec.kubelet.flags` (`refused`: the first one the kubelet stops at), the deprecated flags used, and
 * the values the configuration flags set (scalars and lists; the map flags are judged here), when none is refused.
 */
export function kubeletFlagProblems(flags: unknown): KubeletFlagParse {
  const deprecated: { index: number; name: string; at: string }[] = [];
  const values: KubeletFlagValue[] = [];
  const last = new Map<string, { readonly value: string; readonly index: number }>();
  const ignored: KubeletFlagProblem[] = [];
  const parsed = () => ({ deprecated, values, flags: last, ignored });
  if (!Array.isArray(flags) || !flags.every((f) => typeof f === "string") || flags.some((f) => /["'\\]/.test(f)))
    return parsed();
  const table = kubeletFlags();
  const words: { word: string; index: number }[] = [];
  flags.forEach((item: string, index) => {
    for (const word of item.split(/\s+/)) if (word !== "") words.push({ word, index });
  });
  const refuse = (index: number, problem: string) => ({
    refused: { index, problem },
    deprecated,
    values: [],
    flags: new Map(),
    ignored: [],
  });
  let bareBool: string | undefined;
  const semantic: { name: string; value: string; index: number; at: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    const { word, index } = words[i];
    if (word === "--")
      return words.length > i + 1
        ? refuse(
            index,
            `"--" ends the flags, so ${JSON.stringify(words[i + 1].word)} after it is no flag: the kubelet refuses it with "unknown command ${words[i + 1].word}" (cmd/kubelet/app/server.go:188-192)`,
          )
        : parsed();
    if (!word.startsWith("-") || word === "-")
      return refuse(
        index,
        `${JSON.stringify(word)} is no flag (it does not start with "-", and no flag before it takes a value${bareBool ? `: ${bareBool} is a bool flag, which takes its value only as ${bareBool}=${word}` : ""}), and the kubelet refuses it with "unknown command ${word}" (${table.kubelet} cmd/kubelet/app/server.go:188-192)${!bareBool && /^[\w.-]+=/.test(word) ? `; did you mean --${word}?` : ""}`,
      );
    bareBool = undefined;
    let name: string;
    let flag: KubeletFlag | undefined;
    let value: string | undefined;
    let shown: string;
    if (word.startsWith("--")) {
      const body = word.slice(2);
      if (body.startsWith("-") || body.startsWith("="))
        return refuse(
          index,
          `${JSON.stringify(word)} is bad flag syntax: the kubelet refuses it ("bad flag syntax: ${word}", github.com/spf13/pflag parseLongArg)`,
        );
      const eq = body.indexOf("=");
      name = (eq >= 0 ? body.slice(0, eq) : body).replace(/_/g, "-");
      if (eq >= 0) value = body.slice(eq + 1);
      shown = `--${name}`;
      flag = table.flags[name];
      if (!flag) {
        const near = nearestFlag(name, Object.keys(table.flags));
        return refuse(
          index,
          `${shown} is no flag of the kubelet${near ? ` (did you mean --${near}?)` : ""}: it refuses to start with "failed to parse kubelet flag: unknown flag: --${eq >= 0 ? body.slice(0, eq) : body}" (its flags: ${table.kubelet} cmd/kubelet/app/options/options.go and the global flags, lib/versions/data/kubelet-flags.json)`,
        );
      }
    } else {
      // one-letter shorthands: -v=2, -v2, -v 2, -h
      const c = word[1];
      const entry = Object.entries(table.flags).find(([, f]) => f.shorthand === c);
      if (!entry) {
        const long = word.slice(1).split("=")[0].replace(/_/g, "-");
        const hint = long in table.flags ? ` (did you mean --${word.slice(1)}? A long flag takes two dashes)` : "";
        return refuse(
          index,
          `${JSON.stringify(word)} starts with one dash, so the kubelet reads "${c}" as a one-letter flag, and it has none but -v and -h: it refuses to start with "unknown shorthand flag: '${c}' in ${word}"${hint} (github.com/spf13/pflag parseSingleShortArg)`,
        );
      }
      [name, flag] = entry;
      shown = `-${c} (--${name})`;
      const rest = word.slice(2);
      if (rest.startsWith("=") && rest.length > 1) value = rest.slice(1);
      else if (flag.noOptDefVal === undefined && rest !== "") value = rest;
      else if (rest !== "" && flag.noOptDefVal !== undefined)
        return refuse(
          index,
          `${JSON.stringify(word)} sets -${c} and goes on reading "${rest}" as more one-letter flags, which the kubelet does not have, and it refuses to start (github.com/spf13/pflag parseSingleShortArg)`,
        );
    }
    if (value === undefined) {
      if (flag.noOptDefVal !== undefined) {
        value = flag.noOptDefVal;
        if (flag.kind === "bool") bareBool = word;
      } else if (i + 1 < words.length) value = words[++i].word;
      else
        return refuse(
          index,
          `${shown} needs a value and none follows: the kubelet refuses to start with "flag needs an argument: ${word}" (${flag.at})`,
        );
    }
    const bad = valueProblem(flag.kind, value);
    if (bad !== undefined)
      return refuse(
        words[i].index,
        `${shown}=${JSON.stringify(value)}: ${bad}, so the kubelet refuses to start (failed to parse kubelet flag: invalid argument ${JSON.stringify(value)} for "--${name}" flag; the flag: ${flag.at})`,
      );
    if ((name === "help" || name === "version") && /^(1|t|T|TRUE|true|True|raw)$/.test(value))
      return refuse(
        index,
        `${shown} makes the kubelet print its ${name === "help" ? "usage" : "version"} and exit instead of starting (${flag.at}), so the node never joins`,
      );
    if (flag.deprecated) deprecated.push({ index, name, at: flag.at });
    last.set(name, { value, index: words[i].index });
    if (SEMANTIC_FLAGS.includes(name)) semantic.push({ name, value, index: words[i].index, at: flag.at });
    const set = flag.field === undefined ? undefined : fieldValue(flag.kind, value);
    if (flag.field !== undefined && set !== undefined) {
      // a repeated list flag appends (pflag stringSlice Set after the first), a repeated map flag adds its keys (the
      // first Set clears the configuration's map: component-base cli/flag map_string_string.go:69-73), a scalar replaces
      const before = values.findIndex((v) => v.field === flag!.field);
      const prior = before >= 0 ? values[before].value : undefined;
      const merged =
        Array.isArray(prior) && Array.isArray(set)
          ? [...(prior as unknown[]), ...set]
          : isMap(prior) && isMap(set)
            ? { ...prior, ...set }
            : set;
      if (before >= 0) values.splice(before, 1);
      values.push({ field: flag.field, value: merged, index: words[i].index, flag: shown });
    }
  }
  const meaning = flagMeaningProblem(semantic);
  if (meaning) return refuse(meaning.index, meaning.problem);
  const nodeIp = last.get("node-ip");
  if (nodeIp) {
    // nodeadm's --cloud-provider=external (amazon-eks-ami nodeadm internal/kubelet/config.go:256-258) unless replaced
    const outcome = nodeIpOutcome(nodeIp.value, last.get("cloud-provider")?.value ?? "external");
    if (outcome.refused) return refuse(nodeIp.index, outcome.refused);
    if (outcome.ignored) ignored.push({ index: nodeIp.index, problem: outcome.ignored });
  }
  return parsed();
}

/**
 * A parsed flag value in its configuration field's JSON form, for the scalar and list kinds (undefined for the map
 * kinds, judged by {@link flagMeaningProblem}, and the others): integers as Go reads them (base 0), bools as
 * strconv.ParseBool, a stringSlice as its CSV record.
 */
function fieldValue(kind: string, value: string): unknown {
  const bits = INT_BITS[kind];
  if (bits) {
    const n = goInteger(value, bits.signed);
    return n === undefined ? undefined : Number(n);
  }
  switch (kind) {
    case "bool":
      return ["1", "t", "T", "TRUE", "true", "True"].includes(value);
    case "float64":
      return Number.isFinite(Number(value)) ? Number(value) : undefined;
    case "string":
    case "duration":
    case "ip":
      return value;
    case "stringSlice":
      return value.includes('"') ? undefined : value === "" ? [] : value.split(",");
    // the map flags' Set (component-base cli/flag): "k=v,…" (mapStringString), "k<v,…" (eviction-hard / -soft),
    // "k=bool,…" (feature-gates: strconv.ParseBool); its parse was judged already (valueProblem)
    // mapStringStringNoSplit (cpu-manager-policy-options): one "k=v" per Set, the value may hold commas
    case "mapStringStringNoSplit": {
      const at = value.indexOf("=");
      return at < 0 ? undefined : { [value.slice(0, at).trim()]: value.slice(at + 1).trim() };
    }
    case "mapStringString":
    case "langleSeparatedMapStringString":
    case "mapStringBool": {
      const sep = kind === "langleSeparatedMapStringString" ? "<" : "=";
      const out: Record<string, unknown> = {};
      for (const pair of value.split(",")) {
        if (pair === "") continue;
        const at = pair.indexOf(sep);
        if (at < 0) return undefined;
        const v = pair.slice(at + 1).trim();
        out[pair.slice(0, at).trim()] =
          kind === "mapStringBool" ? ["1", "t", "T", "TRUE", "true", "True"].includes(v) : v;
      }
      return out;
    }
    default:
      return undefined;
  }
}

const isMap = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** Flags whose values the kubelet also judges by meaning when it starts (fresh tester 24 S-2, S-5, S-6). */
const SEMANTIC_FLAGS = [
  "feature-gates",
  "eviction-hard",
  "eviction-soft",
  "eviction-minimum-reclaim",
  "kube-reserved",
  "system-reserved",
];
const FLAG_FIELDS: { readonly [flag: string]: string } = {
  "eviction-hard": "evictionHard",
  "eviction-soft": "evictionSoft",
  "eviction-minimum-reclaim": "evictionMinimumReclaim",
  "kube-reserved": "kubeReserved",
  "system-reserved": "systemReserved",
};

/**
 * What the kubelet refuses in the meaning of the map flags it parsed: an unknown feature gate (at every Kubernetes
 * minor the gate table holds; the kubelet's SetFromMap, component-base featuregate/feature_gate.go:421), an eviction
 * signal or threshold, or a reservation it cannot parse (kubelet-runtime-rules.ts startupParseProblems: the same rules as
 * in a NodeConfig's kubelet config). A soft threshold's grace period may come from the config: not judged here.
 */
function flagMeaningProblem(
  flags: readonly { readonly name: string; readonly value: string; readonly index: number; readonly at: string }[],
): KubeletFlagProblem | undefined {
  for (const f of flags) {
    const pairs = f.value
      .split(",")
      .filter((p) => p.trim() !== "")
      .map((p) => {
        const cut = f.name.startsWith("eviction-hard") || f.name === "eviction-soft" ? p.indexOf("<") : p.indexOf("=");
        return cut < 0 ? [p.trim(), ""] : [p.slice(0, cut).trim(), p.slice(cut + 1).trim()];
      });
    if (f.name === "feature-gates") {
      const minors = kubeletGateMinors();
      const unknown = pairs.find(([g]) => minors.every((m) => kubeletGate(m, g) === undefined));
      if (unknown)
        return {
          index: f.index,
          problem: `--feature-gates=${f.value}: the kubelet knows no gate ${JSON.stringify(unknown[0])} at any Kubernetes minor ${minors[0]}-${minors[minors.length - 1]} (the generated kubelet-feature-gates.json), and refuses to start ("unrecognized feature gate: ${unknown[0]}", k8s.io/component-base v0.36.3 featuregate/feature_gate.go:421; the flag: ${f.at})`,
        };
      continue;
    }
    const field = FLAG_FIELDS[f.name];
    const found = startupParseProblems({ [field]: Object.fromEntries(pairs) }).find(
      (p) => !p.rule.startsWith("a soft eviction threshold without a grace period"),
    );
    if (found)
      return {
        index: f.index,
        problem: `--${f.name}=${f.value}: ${found.field.replace(/^kubelet\./, "")} takes ${found.allowed}, and the kubelet refuses ${found.rule} when it starts (${found.source}; the flag: ${f.at})`,
      };
  }
  return undefined;
}

/** The nearest flag name to a misspelt one (at most two edits, or a prefix / suffix match). */
function nearestFlag(name: string, names: readonly string[]): string | undefined {
  let best: { n: string; d: number } | undefined;
  for (const n of names) {
    const d = editDistance(n, name.toLowerCase());
    if (d <= Math.max(1, Math.min(3, Math.floor(name.length / 4))) && (!best || d < best.d)) best = { n, d };
  }
  return best?.n;
}

const BOOLS = ["1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false", "False"];
const INT_BITS: Record<string, { bits: number; signed: boolean }> = {
  int: { bits: 64, signed: true },
  int32: { bits: 32, signed: true },
  int64: { bits: 64, signed: true },
  uint: { bits: 64, signed: false },
  uint64: { bits: 64, signed: false },
};
const TAINT_EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"];
const MAX_NANOS = 2n ** 63n - 1n;

/** What a flag value's Set refuses, or undefined when it parses. */
export function valueProblem(kind: string, value: string): string | undefined {
  const pairs = (sep: string, what: string, each?: (k: string, v: string) => string | undefined) => {
    for (const s of value.split(",")) {
      if (s === "") continue;
      const at = s.indexOf(sep);
      if (at < 0) return `${JSON.stringify(s)} is no ${what} pair ("malformed pair, expect ${what}")`;
      const bad = each?.(s.slice(0, at).trim(), s.slice(at + 1).trim());
      if (bad) return bad;
    }
    return undefined;
  };
  switch (kind) {
    case "bool":
      return BOOLS.includes(value)
        ? undefined
        : `a bool flag takes true or false (Go strconv.ParseBool: 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False)`;
    case "int":
    case "int32":
    case "int64":
    case "uint":
    case "uint64": {
      const { bits, signed } = INT_BITS[kind];
      const n = goInteger(value, signed);
      if (n === undefined)
        return `an ${kind} flag takes a whole number (Go strconv.Parse${signed ? "Int" : "Uint"}, base 0)`;
      const lo = signed ? -(2n ** BigInt(bits - 1)) : 0n;
      const hi = signed ? 2n ** BigInt(bits - 1) - 1n : 2n ** BigInt(bits) - 1n;
      return n < lo || n > hi ? `out of range for an ${kind} flag (${lo} to ${hi})` : undefined;
    }
    case "duration": {
      const n = durationNanos(value);
      if (n === undefined || value === "")
        return `a duration flag takes a Go duration such as 10s, 5m or 1h30m (time.ParseDuration; units ns, us, ms, s, m, h)`;
      return n > MAX_NANOS ? `longer than a Go duration holds (about 2562047h)` : undefined;
    }
    case "stringSlice":
      return csvProblem(value);
    case "ip":
      return value === "" ||
        isIP(value) ||
        (/^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.test(value) && value.split(".").every((o) => Number(o) <= 255))
        ? undefined
        : `not an IP address ("${value}" is not a valid IP address, pkg/util/flag/flags.go IPVar)`;
    case "mapStringBool":
      return pairs("=", "string=bool", (k, v) =>
        BOOLS.includes(v) ? undefined : `${k}=${v}: the value is no bool (strconv.ParseBool)`,
      );
    case "mapStringString":
      return pairs("=", "string=string");
    case "mapStringStringNoSplit":
      return value.includes("=") ? undefined : `no key=value pair ("malformed pair, expect string=string")`;
    case "langleSeparatedMapStringString":
      return pairs("<", "string<string");
    case "colonSeparatedMultimapStringString":
      return pairs(":", "string:string");
    case "verbosity":
      return /^\d+$/.test(value) && BigInt(value) < 2n ** 31n
        ? undefined
        : `a log verbosity takes a whole number from 0 (strconv.ParseUint(value, 10, 31), component-base logs/api/v1/pflags.go)`;
    case "vmodule":
      for (const pat of value.split(",")) {
        if (pat === "") continue;
        const pl = pat.split("=");
        if (pl.length !== 2 || pl[0] === "" || pl[1] === "")
          return `${JSON.stringify(pat)} does not have the pattern=N format`;
        if (!/^\d+$/.test(pl[1]) || BigInt(pl[1]) >= 2n ** 31n)
          return `${JSON.stringify(pat)}: the verbosity is no whole number from 0`;
      }
      return undefined;
    case "quantity":
      return parseQuantity(value) !== undefined || isNegativeQuantity(value)
        ? undefined
        : `not a resource quantity such as 512, 1K or 2Ki (resource.ParseQuantity)`;
    case "taints":
      return taintsProblem(value);
    case "reservedMemory":
      if (value === "") return undefined;
      for (const r of value.split(";")) {
        const parts = r.split(":");
        if (parts.length !== 2) return `${JSON.stringify(r)}: expected numaNodeID:type=quantity[,type=quantity...]`;
        if (!/^[+-]?\d+$/.test(parts[0])) return `the NUMA node ID ${JSON.stringify(parts[0])} is no integer`;
        for (const l of parts[1].split(",")) {
          const kv = l.split("=");
          if (kv.length !== 2) return `${JSON.stringify(l)}: expected type=quantity`;
          if (kv[0] !== "memory" && !kv[0].startsWith("hugepages-"))
            return `unknown memory type ${JSON.stringify(kv[0])}`;
          if (parseQuantity(kv[1]) === undefined && !isNegativeQuantity(kv[1]))
            return `${JSON.stringify(kv[1])} is no quantity`;
        }
      }
      return undefined;
    case "version":
      return value === "raw" || BOOLS.includes(value) || value.startsWith("v")
        ? undefined
        : `--version takes true, false, raw or a version vX.Y.Z (component-base version/verflag/verflag.go)`;
    default:
      // string, configurationMap (never refuses)
      return undefined;
  }
}

/** A Go integer literal as strconv.ParseInt / ParseUint read it with base 0, or undefined. */
function goInteger(text: string, signed: boolean): bigint | undefined {
  const m = /^([+-]?)(.*)$/.exec(text)!;
  if (m[1] && !signed) return undefined;
  let body = m[2];
  let prefix = "";
  let digits = /^[0-9]$/;
  const p = /^0([xXbBoO])/.exec(body);
  if (p) {
    prefix = `0${p[1].toLowerCase()}`;
    body = body.slice(2);
    digits = p[1].toLowerCase() === "x" ? /^[0-9a-fA-F]$/ : p[1].toLowerCase() === "b" ? /^[01]$/ : /^[0-7]$/;
  } else if (/^0[0-9_]/.test(body)) {
    prefix = "0o";
    body = body.slice(1);
    digits = /^[0-7]$/;
  }
  // underscores only between digits or after a prefix (Go's underscoreOK)
  if (body === "" && prefix !== "0o") return undefined;
  if (/__|_$/.test(body) || (body.startsWith("_") && prefix === "")) return undefined;
  const clean = body.replace(/_/g, "");
  if (clean === "" ? prefix !== "0o" : ![...clean].every((c) => digits.test(c))) return undefined;
  const n = BigInt(prefix ? `${prefix}${clean || "0"}` : clean);
  return m[1] === "-" ? -n : n;
}

/** What encoding/csv refuses in a stringSlice value (pflag readAsCSV: one record, no lazy quotes). */
function csvProblem(value: string): string | undefined {
  let i = 0;
  while (i <= value.length) {
    if (value[i] === '"') {
      let j = i + 1;
      for (;;) {
        const q = value.indexOf('"', j);
        if (q < 0) return `an opening quote is never closed (encoding/csv: extraneous or missing " in quoted-field)`;
        if (value[q + 1] === '"') {
          j = q + 2;
          continue;
        }
        if (q + 1 < value.length && value[q + 1] !== ",")
          return `extraneous or missing " in quoted-field (encoding/csv)`;
        i = q + 2;
        break;
      }
    } else {
      const comma = value.indexOf(",", i);
      const field = value.slice(i, comma < 0 ? value.length : comma);
      if (field.includes('"')) return `bare " in non-quoted-field (encoding/csv, as pflag reads a list)`;
      if (comma < 0) return undefined;
      i = comma + 1;
    }
  }
  return undefined;
}

/** What utiltaints.ParseTaints refuses in a `--register-with-taints` value (k8s.io/kubernetes pkg/util/taints/taints.go). */
function taintsProblem(value: string): string | undefined {
  if (value === "") return undefined;
  const seen = new Set<string>();
  for (const spec of value.split(",")) {
    const remove = spec.endsWith("-");
    const st = remove ? spec.slice(0, -1) : spec;
    const parts = st.split(":");
    if (parts.length > 2) return `invalid taint spec: ${spec}`;
    const kv = parts[0].split("=");
    if (parts.length === 2) {
      if (!TAINT_EFFECTS.includes(parts[1])) return `invalid taint effect: ${parts[1]} (${TAINT_EFFECTS.join(", ")})`;
      if (kv.length > 2) return `invalid taint spec: ${spec}`;
      if (kv.length === 2 && !isLabelValue(kv[1])) return `invalid taint spec: ${spec} (the value is no label value)`;
    } else if (!remove)
      return `invalid taint spec: ${spec} (key=value:effect, with NoSchedule, PreferNoSchedule or NoExecute)`;
    const key = parts.length === 2 ? kv[0] : parts[0];
    if (!isQualifiedName(key)) return `invalid taint spec: ${spec} (the key is no qualified name)`;
    if (!remove) {
      const id = `${key}:${parts[1]}`;
      if (seen.has(id)) return `duplicated taints with the same key and effect: ${spec}`;
      seen.add(id);
    }
  }
  return undefined;
}
