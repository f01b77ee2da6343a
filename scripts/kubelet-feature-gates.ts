/*
 * Writes lib/versions/data/kubelet-feature-gates.json: for each Kubernetes minor a node may run where Karpenter passes
 * a free-form `spec.kubelet` (the Kubernetes range of every Karpenter minor from CRD_SINCE freeForm "spec.kubelet" on,
 * lib/versions/data KUBERNETES), the feature gates the kubelet of that minor knows, each with its stage and default at
 * that minor and whether it is locked to that default, plus the gate dependencies it checks.
 *
 * The kubelet applies its configuration's `featureGates` with utilfeature.DefaultMutableFeatureGate.SetFromMap
 * (k8s.io/kubernetes cmd/kubelet/app/server.go, and again in pkg/kubelet/apis/config/validation/validation.go:59 on a
 * copy): an unknown name, a locked gate set to the other value, a gate that is PreAlpha at the kubelet's version, or an
 * enabled gate whose dependency is disabled fails (k8s.io/component-base featuregate/feature_gate.go unsafeSetFromMap),
 * and the kubelet exits. The kubelet sets no emulation version: the gates are evaluated at the binary's own minor,
 * with the minimum compatibility version one minor below (featureSpecAtEmulationAndMinCompatVersion).
 *
 * The gates the kubelet binary registers into DefaultMutableFeatureGate come from these sets (each found in the source;
 * the script stops when a registration it expects is not where it looked, so a change is looked at):
 *   - k8s.io/kubernetes pkg/features (kube_features.go, versioned_kube_features.go): its init() adds the Kubernetes
 *     gates (including the generic apiserver, apiextensions and controller-manager gates it relists), and through the
 *     client adapter the k8s.io/client-go features (features/known_features.go) and k8s.io/component-base
 *     zpages/features (1.32 on);
 *   - k8s.io/apiserver pkg/features and k8s.io/apiextensions-apiserver pkg/features: their own init() (imported by
 *     pkg/features) adds their gates;
 *   - k8s.io/component-base logs/api/v1 (kube_features.go): cmd/kubelet/app/server.go init() logsapi.AddFeatureGates;
 *   - k8s.io/component-base metrics/features: pkg/kubelet/server/server.go init() metricsfeatures.AddFeatureGates;
 *   - AllAlpha and AllBeta: k8s.io/component-base featuregate/feature_gate.go NewFeatureGate (every gate instance).
 * A name two sets register has the same spec in both (AddVersioned fails on a different one): the first set read wins.
 *
 * One k8s.io/kubernetes module per minor (the newest patch the Go module proxy served when MODULES was written), the
 * staging modules (k8s.io/apiserver, …) at the matching v0.<minor>.<patch> (k8s.io/kubernetes's go.mod replaces them
 * with its staging directories, which these tags are cut from). All from the Go module cache (`go mod download`
 * fetches them when absent).
 *
 *   npx tsx scripts/kubelet-feature-gates.ts           write the table
 *   npx tsx scripts/kubelet-feature-gates.ts --check   exit 1 when the committed table differs
 */
import * as fs from "fs";
import * as path from "path";
import { CRD_SINCE, KUBERNETES } from "../lib/versions/data";
import type { KubeletFeatureGates } from "../lib/versions/kubelet-feature-gates";
import { moduleDir, renderTable, writeOrCheck } from "./go-module-table";

export const TABLE_FILE = path.resolve(__dirname, "../lib/versions/data/kubelet-feature-gates.json");

/**
 * The k8s.io/kubernetes module read for each minor: the newest patch the proxy served (`go list -m -versions
 * k8s.io/kubernetes`) when this was written. A minor the table needs and this lacks stops the script.
 */
export const MODULES: Readonly<Record<string, string>> = {
  "1.31": "v1.31.14",
  "1.32": "v1.32.13",
  "1.33": "v1.33.13",
  "1.34": "v1.34.4",
  "1.35": "v1.35.4",
  "1.36": "v1.36.3",
  "1.37": "v1.37.2",
};

const num = (v: string) => v.split(".").map(Number);
const cmp = (a: string, b: string) => {
  const [x, y] = [num(a), num(b)];
  return x[0] - y[0] || x[1] - y[1];
};

/** The Kubernetes minors of every Karpenter minor that passes a free-form kubelet, oldest first. */
export function kubeletMinors(): string[] {
  const since = CRD_SINCE.ec2NodeClass.freeForm["spec.kubelet"];
  if (since === undefined) return [];
  const out = new Set<string>();
  for (const [k, range] of Object.entries(KUBERNETES)) {
    if (cmp(k, since) < 0) continue;
    for (let m = num(range.min)[1]; m <= num(range.max)[1]; m++) out.add(`1.${m}`);
  }
  return [...out].sort(cmp);
}

/** A Go source text without comments (none of the files read has `//` or `/*` inside a string). */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");
}

/** The text from `open` (the index of a `{`) to its matching `}`, exclusive of both. */
function balanced(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error("unbalanced braces");
}

/** The top-level `Key: {…}` entries of a map literal's body. */
function entries(body: string): [string, string][] {
  const out: [string, string][] = [];
  const re = /([\w.]+)\s*:\s*\{/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body)) !== null) {
    const open = m.index + m[0].length - 1;
    const inner = balanced(body, open);
    out.push([m[1], inner]);
    re.lastIndex = open + inner.length + 2;
  }
  return out;
}

interface Spec {
  version: string;
  minCompat?: string;
  default: boolean;
  stage: string;
  locked: boolean;
}

/** A Go package's parsed feature facts: name constants, bool constants, spec maps, dependencies, imports. */
interface Pkg {
  consts: Record<string, string>;
  specs: Record<string, Spec[]>;
  deps: Record<string, string[]>;
  imports: Record<string, string>;
}

function versionOf(expr: string): string {
  const p = /MustParse\("(\d+\.\d+)(?:\.\d+)?"\)/.exec(expr);
  if (p) return p[1];
  const mm = /MajorMinor\((\d+),\s*(\d+)\)/.exec(expr);
  if (mm) return `${mm[1]}.${mm[2]}`;
  throw new Error(`cannot read the version ${expr}`);
}

function parseSpec(text: string, bools: Record<string, boolean>): Spec {
  const field = (name: string) => new RegExp(`\\b${name}:\\s*([\\w.]+\\([^)]*\\)|[^,}]+)`).exec(text)?.[1].trim();
  const def = field("Default");
  const stage = field("PreRelease");
  if (def === undefined || stage === undefined) throw new Error(`cannot read the spec {${text}}`);
  const value = def === "true" ? true : def === "false" ? false : bools[def];
  if (value === undefined) throw new Error(`cannot read the default ${def}`);
  const lock = field("LockToDefault");
  const version = field("Version");
  const minCompat = field("MinCompatibilityVersion");
  return {
    version: version === undefined ? "0.0" : versionOf(version),
    ...(minCompat !== undefined ? { minCompat: versionOf(minCompat) } : {}),
    default: value,
    stage: stage.replace(/^\w+\./, ""),
    locked: lock === "true",
  };
}

/** The feature facts of the non-test Go files of `dir`. */
function readPkg(dir: string): Pkg {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".go") && !f.endsWith("_test.go"))
    .sort();
  const text = files.map((f) => stripComments(fs.readFileSync(path.join(dir, f), "utf8"))).join("\n");
  const consts: Record<string, string> = {};
  // `X featuregate.Feature = "X"`, `X = featuregate.Feature("X")` or an untyped `X = "X"` in a const block (any
  // string constant is read: only the map keys are looked up)
  for (const m of text.matchAll(
    /^\s*(?:const\s+)?(\w+)\s*(?:(?:featuregate\.)?Feature\s*)?=\s*(?:(?:featuregate\.)?Feature\()?"([^"]+)"/gm,
  ))
    consts[m[1]] = m[2];
  const bools: Record<string, boolean> = {};
  for (const m of text.matchAll(/^\s*(?:const\s+)?(\w+)\s*=\s*(true|false)\s*$/gm)) bools[m[1]] = m[2] === "true";
  const imports: Record<string, string> = {};
  for (const m of text.matchAll(/^\s*(\w+)\s+"(k8s\.io\/[^"]+)"/gm)) imports[m[1]] = m[2];
  const specs: Record<string, Spec[]> = {};
  for (const m of text.matchAll(/map\[(?:featuregate\.)?Feature\](?:featuregate\.)?(FeatureSpec|VersionedSpecs)\{/g)) {
    const body = balanced(text, m.index! + m[0].length - 1);
    for (const [key, inner] of entries(body)) {
      const list =
        m[1] === "FeatureSpec"
          ? [parseSpec(inner, bools)]
          : [...inner.matchAll(/\{([^{}]*)\}/g)].map((s) => parseSpec(s[1], bools));
      if (!(key in specs)) specs[key] = list;
    }
  }
  const deps: Record<string, string[]> = {};
  for (const m of text.matchAll(/map\[featuregate\.Feature\]\[\]featuregate\.Feature\{/g)) {
    const body = balanced(text, m.index! + m[0].length - 1);
    for (const [key, inner] of entries(body))
      deps[key] = inner
        .split(",")
        .map((s) => s.trim().replace(/^(?:featuregate\.)?Feature\(([\w.]+)\)$/, "$1"))
        .filter((s) => s !== "");
  }
  return { consts, specs, deps, imports };
}

/** The spec in force at `minor` (the kubelet's emulation version; minimum compatibility one minor below). */
export function specAt(list: readonly Spec[], minor: string): Spec {
  const minCompat = `1.${num(minor)[1] - 1}`;
  for (let i = list.length - 1; i >= 0; i--) {
    if (cmp(list[i].version, minor) > 0) continue;
    const mc = list[i].minCompat;
    if (mc !== undefined && cmp(minCompat, mc) < 0) continue;
    return list[i];
  }
  return { version: "0.0", default: false, stage: "PreAlpha", locked: false };
}

/** The line (1-based) of the first line of `file` matching `re`, or a thrown error naming what was expected. */
function lineOf(file: string, re: RegExp, what: string): number {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const i = lines.findIndex((l) => re.test(l));
  if (i < 0) throw new Error(`${file}: no ${what} (${re}): look at how the kubelet registers its gates now`);
  return i + 1;
}

/** One minor's table, from the module cache. */
export function generateMinor(minor: string): KubeletFeatureGates {
  const kv = MODULES[minor];
  if (kv === undefined) throw new Error(`no k8s.io/kubernetes module for Kubernetes ${minor}: add it to MODULES`);
  const staging = kv.replace(/^v1\./, "v0.");
  const kube = moduleDir("k8s.io/kubernetes", kv);
  const stagingDir = (mod: string) => moduleDir(`k8s.io/${mod}`, staging);
  const mod = (m: string) => (m === "kubernetes" ? `k8s.io/kubernetes@${kv}` : `k8s.io/${m}@${staging}`);
  /** An import path's module name and directory. */
  const dirOf = (importPath: string): { module: string; dir: string } => {
    const parts = /^k8s\.io\/([^/]+)\/(.*)$/.exec(importPath);
    if (!parts) throw new Error(`cannot read the import ${importPath}`);
    const [, m, rest] = parts;
    return { module: m, dir: path.join(m === "kubernetes" ? kube : stagingDir(m), rest) };
  };

  const featuresFile = path.join(kube, "pkg/features/kube_features.go");
  const kubeletServer = path.join(kube, "cmd/kubelet/app/server.go");
  const kubeletHttp = path.join(kube, "pkg/kubelet/server/server.go");
  const at = (file: string, re: RegExp, what: string) =>
    `${mod("kubernetes")} ${path.relative(kube, file)}:${lineOf(file, re, what)}`;

  // the sets, each with the package read and where the kubelet binary registers it
  const sets: { set: string; importPath: string; registeredBy: string }[] = [
    {
      set: "Kubernetes",
      importPath: "k8s.io/kubernetes/pkg/features",
      registeredBy: at(featuresFile, /DefaultMutableFeatureGate\.AddVersioned\(defaultVersioned/, "AddVersioned"),
    },
    {
      set: "generic apiserver",
      importPath: "k8s.io/apiserver/pkg/features",
      registeredBy: `${mod("apiserver")} pkg/features/kube_features.go:${lineOf(path.join(stagingDir("apiserver"), "pkg/features/kube_features.go"), /DefaultMutableFeatureGate\.Add/, "init Add")} (init, imported by pkg/features)`,
    },
    {
      set: "apiextensions-apiserver",
      importPath: "k8s.io/apiextensions-apiserver/pkg/features",
      registeredBy: `${mod("apiextensions-apiserver")} pkg/features/kube_features.go:${lineOf(path.join(stagingDir("apiextensions-apiserver"), "pkg/features/kube_features.go"), /DefaultMutableFeatureGate\.Add/, "init Add")} (init, imported by pkg/features)`,
    },
    {
      set: "client-go",
      importPath: "k8s.io/client-go/features",
      registeredBy: at(featuresFile, /clientfeatures\.Add\w*FeaturesToExistingFeatureGates/, "client-go registration"),
    },
    {
      set: "component-base logs",
      importPath: "k8s.io/component-base/logs/api/v1",
      registeredBy: at(kubeletServer, /logsapi\.AddFeatureGates\(utilfeature\.DefaultMutableFeatureGate\)/, "logs"),
    },
    {
      set: "component-base metrics",
      importPath: "k8s.io/component-base/metrics/features",
      registeredBy: at(
        kubeletHttp,
        /metricsfeatures\.AddFeatureGates\(utilfeature\.DefaultMutableFeatureGate\)/,
        "metrics",
      ),
    },
    {
      set: "featuregate AllAlpha/AllBeta",
      importPath: "k8s.io/component-base/featuregate",
      registeredBy: `${mod("component-base")} featuregate/feature_gate.go:${lineOf(path.join(stagingDir("component-base"), "featuregate/feature_gate.go"), /allAlphaGate:\s*\{\{/, "AllAlpha spec")} (NewFeatureGate)`,
    },
  ];
  if (/zpagesfeatures\.AddFeatureGates\(utilfeature/.test(fs.readFileSync(featuresFile, "utf8")))
    sets.splice(4, 0, {
      set: "component-base zpages",
      importPath: "k8s.io/component-base/zpages/features",
      registeredBy: at(featuresFile, /zpagesfeatures\.AddFeatureGates\(utilfeature/, "zpages"),
    });

  const pkgs = new Map<string, Pkg>();
  const pkgOf = (importPath: string) => {
    if (!pkgs.has(importPath)) pkgs.set(importPath, readPkg(dirOf(importPath).dir));
    return pkgs.get(importPath)!;
  };
  /** The gate name of a map key of `p` (`X` or `alias.X`). */
  const nameOf = (p: Pkg, key: string): string => {
    const dot = key.indexOf(".");
    const [consts, ident] =
      dot < 0
        ? [p.consts, key]
        : [pkgOf(p.imports[key.slice(0, dot)] ?? `unknown import ${key}`).consts, key.slice(dot + 1)];
    const name = consts[ident];
    if (name === undefined) throw new Error(`cannot find the feature constant ${key}`);
    return name;
  };

  const gates: Record<string, string> = {};
  const dependencies: Record<string, string[]> = {};
  const sources: KubeletFeatureGates["sources"][number][] = [];
  for (const s of sets) {
    const p = pkgOf(s.importPath);
    const { module: m } = dirOf(s.importPath);
    let count = 0;
    for (const [key, list] of Object.entries(p.specs)) {
      const name = nameOf(p, key);
      if (name in gates) continue;
      const spec = specAt(list, minor);
      gates[name] = `${spec.stage} ${spec.default}${spec.locked ? " locked" : ""}`;
      count++;
    }
    for (const [key, list] of Object.entries(p.deps))
      if (list.length > 0) dependencies[nameOf(p, key)] = list.map((d) => nameOf(p, d)).sort();
    sources.push({
      set: s.set,
      package: `${mod(m)} ${s.importPath.replace(/^k8s\.io\/[^/]+\//, "")}`,
      registeredBy: s.registeredBy,
      gates: count,
    });
  }
  return {
    module: mod("kubernetes"),
    evaluatedAt: `emulation version ${minor}, minimum compatibility version 1.${num(minor)[1] - 1} (the kubelet sets none: its own minor)`,
    assumption: `${kv} is the newest ${minor} patch the Go module proxy served when the table was written; every other ${minor} patch is assumed to know the same gates with the same defaults and locks`,
    sources,
    gates: Object.fromEntries(Object.entries(gates).sort(([a], [b]) => a.localeCompare(b))),
    dependencies: Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** The whole table, from the module cache. */
export function generate(): Record<string, KubeletFeatureGates> {
  return Object.fromEntries(kubeletMinors().map((m) => [m, generateMinor(m)]));
}

/** The table as the committed file's text. */
export function render(table: Record<string, KubeletFeatureGates>): string {
  return renderTable("kubelet-gates", "scripts/kubelet-feature-gates.ts", table);
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
