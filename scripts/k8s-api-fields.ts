/*
 * Writes lib/versions/data/k8s-api-fields.json: the JSON fields of every Kubernetes API struct reachable from the
 * types the `karpenter` chart renders a `values` subtree into whole with `toYaml` (lib/helm/k8s-typed-values.ts:
 * apps/v1 DeploymentStrategy, core/v1 PodSecurityContext, Affinity, Container, Volume …), each field with its JSON
 * kind. The chart's Deployment is decoded by the API server (k8s.io/apimachinery pkg/runtime/serializer/json/json.go
 * :268-273, sigs.k8s.io/json UnmarshalCaseSensitivePreserveInts: field names match case-sensitively) into these
 * types; a value of the wrong JSON kind fails the decoding, so the release fails.
 *
 * Which k8s.io/api is read: the one github.com/aws/karpenter-provider-aws@v1.15.0's go.mod requires, and the
 * k8s.io/apimachinery that go.mod requires (meta/v1: LabelSelector, ObjectMeta). Both come from the Go module cache
 * (`go mod download` fetches them when absent). The types.go files are read with a small parser (struct fields and
 * their `json` tags); a type of another package it does not know stops it (QUALIFIED), so a new one is looked at.
 *
 *   npx tsx scripts/k8s-api-fields.ts           write the table
 *   npx tsx scripts/k8s-api-fields.ts --check   exit 1 when the committed table differs
 */
import * as fs from "fs";
import * as path from "path";
import type { K8sApiFields } from "../lib/versions/k8s-api-fields";
import { moduleDir, renderTable, required, writeOrCheck } from "./go-module-table";

export const TABLE_FILE = path.resolve(__dirname, "../lib/versions/data/k8s-api-fields.json");

const PROVIDER_MODULE = "github.com/aws/karpenter-provider-aws";
const PROVIDER_VERSION = "v1.15.0";
const API_MODULE = "k8s.io/api";
const MACHINERY_MODULE = "k8s.io/apimachinery";

/** The types the chart renders values into whole (lib/helm/k8s-typed-values.ts names them; its test holds the two together). */
export const ROOTS = [
  "apps/v1.DeploymentStrategy",
  "core/v1.PodSecurityContext",
  "core/v1.Affinity",
  "core/v1.TopologySpreadConstraint",
  "core/v1.LocalObjectReference",
  "core/v1.PodDNSConfig",
  "core/v1.Toleration",
  "core/v1.EnvVar",
  "core/v1.EnvFromSource",
  "core/v1.Container",
  "core/v1.VolumeMount",
  "core/v1.Volume",
  "core/v1.ResourceRequirements",
  "core/v1.AppArmorProfile",
  "core/v1.SELinuxOptions",
  "core/v1.SeccompProfile",
];

/** Go packages read: name → module and file; `imports` maps the file's import names to a package or a QUALIFIED prefix. */
export type GoPackages = Record<string, { module: string; file: string; imports: Record<string, string> }>;

/**
 * What the parser knows of one generator: its packages, and the JSON kinds of types it does not read (QUALIFIED).
 * scripts/nodeadm-config-fields.ts passes its own.
 */
export interface GoTypeContext {
  readonly packages: GoPackages;
  readonly qualified: Readonly<Record<string, string>>;
  /**
   * Go's `int` and `uint` as `int64` / `uint64`, for types read for 64-bit machines only (the AMIs' x86_64 and arm64);
   * without it a platform-sized integer stops the script.
   */
  readonly int64Words?: boolean;
}

/** The packages read. */
const PACKAGES: GoPackages = {
  "core/v1": {
    module: API_MODULE,
    file: "core/v1/types.go",
    imports: { metav1: "meta/v1", resource: "resource", types: "types", intstr: "intstr" },
  },
  "apps/v1": {
    module: API_MODULE,
    file: "apps/v1/types.go",
    imports: { v1: "core/v1", metav1: "meta/v1", intstr: "intstr" },
  },
  "meta/v1": { module: MACHINERY_MODULE, file: "pkg/apis/meta/v1/types.go", imports: { types: "types" } },
};

/**
 * Types whose JSON is not their Go struct (a custom UnmarshalJSON) or that live in a package not read, by what their
 * JSON is: resource.Quantity a quantity string or a number (apimachinery pkg/api/resource/quantity.go UnmarshalJSON);
 * intstr.IntOrString an integer or a string (pkg/util/intstr/intstr.go UnmarshalJSON); metav1.Time / MicroTime an
 * RFC 3339 string (meta/v1 time.go, micro_time.go); metav1.Duration a Go duration string (duration.go); metav1.FieldsV1
 * any JSON (fieldsv1_*.go); types.UID a string (pkg/types/uid.go `type UID string`). Anything else qualified stops the script.
 */
const QUALIFIED: Record<string, string> = {
  "resource.Quantity": "quantity",
  "intstr.IntOrString": "intOrString",
  "types.UID": "string",
  "meta/v1.Time": "time",
  "meta/v1.MicroTime": "time",
  "meta/v1.Duration": "duration",
  "meta/v1.FieldsV1": "raw",
};

const K8S: GoTypeContext = { packages: PACKAGES, qualified: QUALIFIED };

const SCALARS: Record<string, string> = {
  string: "string",
  bool: "boolean",
  float32: "number",
  float64: "number",
  ...Object.fromEntries(
    ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"].map((t) => [t, t] as const),
  ),
};

/** One struct field of a types.go: Go name (undefined when embedded), Go type expression, JSON tag (or undefined). */
interface GoField {
  name?: string;
  goType: string;
  tag?: string;
}

/** The declarations of one types.go text: structs with their fields, other named types with their underlying type. */
export function parseTypes(text: string): { structs: Record<string, GoField[]>; named: Record<string, string> } {
  const structs: Record<string, GoField[]> = {};
  const named: Record<string, string> = {};
  for (const m of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
    const fields: GoField[] = [];
    // block comments (`/* … */`, e.g. DaemonEndpoint's) hold no field
    for (const raw of m[2].replace(/\/\*[\s\S]*?\*\//g, "").split("\n")) {
      const line = raw.replace(/^\s*\/\/.*$/, "").trim();
      if (line === "") continue;
      const f = /^(?:([A-Za-z_]\w*)\s+)?([\w.[\]*{}]+)(?:\s+`([^`]*)`)?\s*(?:\/\/.*)?$/.exec(line);
      if (!f) throw new Error(`${m[1]}: cannot read the field line ${JSON.stringify(raw)}`);
      const json = f[3] === undefined ? undefined : /(?:^|\s)json:"([^"]*)"/.exec(f[3])?.[1];
      fields.push({ name: f[1], goType: f[2], tag: json });
    }
    structs[m[1]] = fields;
  }
  for (const m of text.matchAll(/^type (\w+) ([\w.[\]*]+)\s*$/gm)) named[m[1]] = m[2];
  return { structs, named };
}

/** The parsed packages, by package name. */
export type Parsed = Record<string, ReturnType<typeof parseTypes>>;

/**
 * The JSON kind of a Go type expression of package `pkg`: `string`, `boolean`, `int32` (Go's integer type names:
 * bit size and signedness), `number`, `bytes` (base64 string), a QUALIFIED kind, `object:<pkg.Type>`, `list:<kind>`,
 * `map:<kind>`. `need` receives each struct it names.
 */
export function kindOf(
  goType: string,
  pkg: string,
  parsed: Parsed,
  need: (type: string) => void,
  ctx: GoTypeContext = K8S,
): string {
  const t = goType.replace(/^\*/, "");
  if (t in SCALARS) return SCALARS[t];
  if (t === "int" || t === "uint") {
    if (ctx.int64Words) return `${t}64`;
    throw new Error(`${pkg}: platform-sized ${t}: say its bit size`);
  }
  if (t === "[]byte") return "bytes";
  if (t === "interface{}") return "raw";
  const list = /^\[\](.+)$/.exec(t);
  if (list) return `list:${kindOf(list[1], pkg, parsed, need, ctx)}`;
  const map = /^map\[([\w.]+)\](.+)$/.exec(t);
  if (map) {
    if (kindOf(map[1], pkg, parsed, need, ctx) !== "string")
      throw new Error(`${pkg}: map key ${map[1]} is not a string`);
    return `map:${kindOf(map[2], pkg, parsed, need, ctx)}`;
  }
  let owner = pkg;
  let name = t;
  const q = /^(\w+)\.(\w+)$/.exec(t);
  if (q) {
    const target = ctx.packages[pkg].imports[q[1]];
    if (target === undefined) throw new Error(`${pkg}: unknown package ${q[1]} of ${t}`);
    owner = target;
    name = q[2];
  }
  const full = `${owner}.${name}`;
  if (full in ctx.qualified) return ctx.qualified[full];
  if (!(owner in ctx.packages)) throw new Error(`unknown type ${t}: add what its JSON is to QUALIFIED`);
  const decls = parsed[owner];
  if (name in decls.structs) {
    need(full);
    return `object:${full}`;
  }
  if (name in decls.named) return kindOf(decls.named[name], owner, parsed, need, ctx);
  throw new Error(`unknown type ${full}`);
}

/** The JSON fields of struct `full` (`core/v1.Volume`), inline embedded structs flattened into it. */
function structFields(
  full: string,
  parsed: Parsed,
  need: (type: string) => void,
  inlined: string[],
  ctx: GoTypeContext,
): Record<string, string> {
  const dot = full.lastIndexOf(".");
  const pkg = full.slice(0, dot);
  const fields = parsed[pkg]?.structs[full.slice(dot + 1)];
  if (!fields) throw new Error(`unknown struct ${full}`);
  const out: Record<string, string> = {};
  for (const f of fields) {
    const jsonName = f.tag?.split(",")[0];
    if (jsonName === "-") continue;
    if (f.name === undefined && !jsonName) {
      // an embedded struct without a JSON name is promoted (encoding/json, and sigs.k8s.io/json alike): `json:",inline"`
      const kind = kindOf(f.goType, pkg, parsed, () => undefined, ctx);
      if (!kind.startsWith("object:")) throw new Error(`${full}: embedded ${f.goType} is not a struct`);
      const embedded = kind.slice("object:".length);
      inlined.push(embedded);
      Object.assign(out, structFields(embedded, parsed, need, inlined, ctx));
      continue;
    }
    if (f.tag === undefined) throw new Error(`${full}: field ${f.name ?? f.goType} has no json tag`);
    out[jsonName || f.name!] = kindOf(f.goType, pkg, parsed, need, ctx);
  }
  return out;
}

/** The fields of every struct reachable from ROOTS, sorted by type and field. */
export function reachable(
  parsed: Parsed,
  roots: readonly string[] = ROOTS,
  ctx: GoTypeContext = K8S,
): K8sApiFields["types"] {
  const types: Record<string, Record<string, string>> = {};
  const inline: Record<string, string[]> = {};
  const queue = [...roots];
  while (queue.length > 0) {
    const full = queue.shift()!;
    if (full in types) continue;
    const inlined: string[] = [];
    types[full] = structFields(full, parsed, (t) => queue.push(t), inlined, ctx);
    if (inlined.length) inline[full] = inlined;
  }
  return Object.fromEntries(
    Object.keys(types)
      .sort()
      .map((t) => [
        t,
        {
          ...(inline[t] ? { inlined: inline[t] } : {}),
          fields: Object.fromEntries(Object.entries(types[t]).sort(([a], [b]) => a.localeCompare(b))),
        },
      ]),
  );
}

/** The whole table, from the module cache. */
export function generate(): Record<string, K8sApiFields> {
  const provider = moduleDir(PROVIDER_MODULE, PROVIDER_VERSION);
  const goMod = fs.readFileSync(path.join(provider, "go.mod"), "utf8");
  const versions: Record<string, string> = {
    [API_MODULE]: required(goMod, API_MODULE),
    [MACHINERY_MODULE]: required(goMod, MACHINERY_MODULE),
  };
  const parsed: Parsed = {};
  for (const [pkg, { module, file }] of Object.entries(PACKAGES))
    parsed[pkg] = parseTypes(fs.readFileSync(path.join(moduleDir(module, versions[module]), file), "utf8"));
  const minor = PROVIDER_VERSION.slice(1).split(".").slice(0, 2).join(".");
  return {
    [minor]: {
      provider: `${PROVIDER_MODULE}@${PROVIDER_VERSION}`,
      modules: [`${API_MODULE}@${versions[API_MODULE]}`, `${MACHINERY_MODULE}@${versions[MACHINERY_MODULE]}`],
      files: Object.values(PACKAGES).map((p) => `${p.module}/${p.file}`),
      decodedBy:
        "k8s.io/apimachinery pkg/runtime/serializer/json/json.go:268-273 (sigs.k8s.io/json UnmarshalCaseSensitivePreserveInts)",
      assumption: `the modules ${PROVIDER_MODULE}@${PROVIDER_VERSION}'s go.mod requires stand for the API server of every chart release: a field newer than the cluster's Kubernetes passes here and is dropped there`,
      types: reachable(parsed),
    },
  };
}

/** The table as the committed file's text. */
export function render(table: Record<string, K8sApiFields>): string {
  return renderTable("k8s-api-fields", "scripts/k8s-api-fields.ts", table);
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
