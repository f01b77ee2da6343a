/*
 * Writes lib/versions/data/kubelet-config-fields.json: for each known Karpenter minor that validates a free-form
 * `spec.kubelet` (1.15 on, CRD_SINCE freeForm), the JSON fields of the upstream KubeletConfiguration that minor
 * decodes it into, each with its JSON kind, and the fields of every nested struct (authentication, logging, tracing,
 * crashLoopBackOff, …), which the strict decode judges alike.
 *
 * Karpenter 1.15 (pkg/apis/v1/kubeletconfiguration_validation.go, validateAgainstUpstreamType) strict-decodes
 * `spec.kubelet` into k8s.io/kubelet's config/v1beta1 KubeletConfiguration (sigs.k8s.io/json UnmarshalStrict: an
 * unknown or wrongly cased field, or a value of the wrong JSON type, fails the class). Which k8s.io/kubelet a minor
 * uses is read from the provider module's go.mod; the fields from that module's config/v1beta1/types.go, and
 * `logging` / `tracing` from k8s.io/component-base's (the version the same go.mod requires). The modules come from the Go module cache (`go mod download` fetches them when absent).
 *
 *   npx tsx scripts/kubelet-config-fields.ts           write the table
 *   npx tsx scripts/kubelet-config-fields.ts --check   exit 1 when the committed table differs
 */
import * as fs from "fs";
import * as path from "path";
import { CRD_SINCE, RELEASES } from "../lib/versions/data";
import type { KubeletConfigFields, KubeletFieldKind } from "../lib/versions/kubelet-config";
import { moduleDir, renderTable, required, writeOrCheck } from "./go-module-table";

export const TABLE_FILE = path.resolve(__dirname, "../lib/versions/data/kubelet-config-fields.json");

const PROVIDER_MODULE = "github.com/aws/karpenter-provider-aws";
const KUBELET_MODULE = "k8s.io/kubelet";
const TYPES_FILE = "config/v1beta1/types.go";

/**
 * Types of other packages the structs name, by what their JSON is: metav1.Duration is a struct whose JSON is a Go
 * duration string (k8s.io/apimachinery pkg/apis/meta/v1 duration.go, UnmarshalJSON: time.ParseDuration); a
 * resource.QuantityValue embeds resource.Quantity, whose UnmarshalJSON reads a quantity string or a JSON number
 * (k8s.io/apimachinery pkg/api/resource quantity.go), and v1.ResourceList is a map of them; v1.Taint is an object
 * whose fields are not read here (registerWithTaints is Karpenter's own field, refused whatever it holds). A qualified
 * type neither listed here nor in {@link PACKAGES} stops the script, so a new one is looked at.
 */
const QUALIFIED: Record<string, KubeletFieldKind> = {
  "metav1.Duration": "duration",
  "v1.Taint": "object",
  "resource.QuantityValue": "quantity",
  "v1.ResourceList": "quantity map",
};

/**
 * Packages whose structs are read too (their module version: what the provider's go.mod requires): the kubelet's
 * `logging` and `tracing` are structs of k8s.io/component-base, strict-decoded like the rest.
 */
export const PACKAGES: Record<string, { module: string; file: string }> = {
  logsapi: { module: "k8s.io/component-base", file: "logs/api/v1/types.go" },
  tracingapi: { module: "k8s.io/component-base", file: "tracing/api/v1/types.go" },
};

/**
 * Types with their own UnmarshalJSON, by what it reads: logsapi.TimeOrMetaDuration takes a Go duration string or a
 * JSON integer of nanoseconds (component-base logs/api/v1/types.go, TimeOrMetaDuration.UnmarshalJSON). A type of a
 * read file with an UnmarshalJSON not listed here stops the script.
 */
const CUSTOM: Record<string, KubeletFieldKind> = {
  "logsapi.TimeOrMetaDuration": "duration or integer",
};

const INTEGERS = ["int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64"];

/** One Go file's types: `type X <underlying>` (structs as "struct"), and the types with their own UnmarshalJSON. */
interface GoFile {
  readonly text: string;
  readonly named: Record<string, string>;
  readonly custom: Set<string>;
}

function goFile(text: string): GoFile {
  const named: Record<string, string> = {};
  for (const m of text.matchAll(/^type (\w+) (struct \{|[\w.[\]*]+)/gm))
    named[m[1]] = m[2].startsWith("struct") ? "struct" : m[2];
  const custom = new Set([...text.matchAll(/^func \(\w+ \*?(\w+)\) UnmarshalJSON\(/gm)].map((m) => m[1]));
  return { text, named, custom };
}

/** The files read: "" is types.go of k8s.io/kubelet, the others by their package alias in it ({@link PACKAGES}). */
type GoFiles = Record<string, GoFile>;

type Field = KubeletConfigFields["fields"][string];

/** The field of a Go type expression `goType` in package `pkg` (its JSON kind; a struct's own fields, recursively). */
function fieldOf(goType: string, pkg: string, files: GoFiles, depth = 0): Omit<Field, "goType"> {
  if (depth > 8) throw new Error(`${goType}: nested too deep`);
  const t = goType.replace(/^\*/, "");
  if (t === "string") return { kind: "string" };
  if (t === "bool") return { kind: "boolean" };
  if (INTEGERS.includes(t)) return { kind: "integer", int: t };
  if (t === "float32" || t === "float64") return { kind: "number" };
  const list = /^\[\](.+)$/.exec(t);
  if (list) {
    const item = fieldOf(list[1], pkg, files, depth + 1);
    if (item.kind === "string") return { kind: "string list" };
    if (item.kind === "integer") return { kind: "integer list", int: item.int };
    if (item.kind === "object") return { kind: "object list", ...(item.fields ? { fields: item.fields } : {}) };
    throw new Error(`list of ${list[1]}`);
  }
  const map = /^map\[string\](.+)$/.exec(t);
  if (map) {
    const value = fieldOf(map[1], pkg, files, depth + 1).kind;
    if (value === "string") return { kind: "string map" };
    if (value === "boolean") return { kind: "bool map" };
    if (value === "string list") return { kind: "string list map" };
    throw new Error(`map of ${map[1]}`);
  }
  // a type of another package: listed by what its JSON is, or a package whose file is read
  const dot = /^(\w+)\.(\w+)$/.exec(t);
  const [alias, name] = dot ? [dot[1], dot[2]] : [pkg, t];
  const key = alias === "" ? name : `${alias}.${name}`;
  if (key in CUSTOM) return { kind: CUSTOM[key] };
  if (key in QUALIFIED) return { kind: QUALIFIED[key] };
  const file = files[alias];
  if (file === undefined) throw new Error(`unknown type ${t}: add what its JSON is to QUALIFIED`);
  if (file.custom.has(name)) throw new Error(`${key} has its own UnmarshalJSON: add what it reads to CUSTOM`);
  if (!(name in file.named)) throw new Error(`unknown type ${t}`);
  if (file.named[name] === "struct") return { kind: "object", fields: structFields(name, alias, files, depth + 1) };
  const under = fieldOf(file.named[name], alias, files, depth + 1);
  return under;
}

/** The JSON fields of struct `name` of package `pkg` ("" is k8s.io/kubelet's types.go), sorted by name. */
function structFields(name: string, pkg: string, files: GoFiles, depth = 0): Record<string, Field> {
  const file = files[pkg];
  const body = new RegExp(`^type ${name} struct \\{\\n([\\s\\S]*?)^\\}`, "m").exec(file.text);
  if (!body) throw new Error(`no ${name} struct`);
  const fields: Record<string, Field> = {};
  for (const raw of body[1].split("\n")) {
    const line = raw.replace(/\/\/.*$/, "").trim();
    if (line === "" || line.startsWith("/*")) continue;
    const m = /^(?:(\w+)\s+)?([\w.[\]*]+)\s+`json:"([^"]*)"[^`]*`$/.exec(line);
    if (!m) throw new Error(`cannot read the field line ${JSON.stringify(raw)}`);
    const [, fieldName, goType, tag] = m;
    const jsonName = tag.split(",")[0];
    if (fieldName === undefined && jsonName === "") {
      // an embedded struct without a JSON name is inlined (encoding/json): metav1.TypeMeta gives apiVersion and
      // kind, a struct of the same file its own fields
      if (goType === "metav1.TypeMeta") {
        fields.apiVersion = { kind: "string", goType: "string" };
        fields.kind = { kind: "string", goType: "string" };
        continue;
      }
      const inlined = fieldOf(goType, pkg, files, depth + 1);
      if (inlined.kind !== "object" || !inlined.fields) throw new Error(`embedded ${goType}: inline its fields`);
      Object.assign(fields, inlined.fields);
      continue;
    }
    if (fieldName === undefined || jsonName === "")
      throw new Error(`cannot read the field line ${JSON.stringify(raw)}`);
    if (jsonName === "-") continue;
    fields[jsonName] = { ...fieldOf(goType, pkg, files, depth), goType };
  }
  return Object.fromEntries(
    Object.entries(fields)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [
        k,
        { kind: v.kind, goType: v.goType, ...(v.int ? { int: v.int } : {}), ...(v.fields ? { fields: v.fields } : {}) },
      ]),
  );
}

/**
 * The JSON fields of KubeletConfiguration in a types.go text, each nested struct with its own fields; `others`:
 * the texts of the {@link PACKAGES} files by alias (a type of a package not given stops the parser).
 */
export function parseKubeletConfiguration(
  text: string,
  others: Record<string, string> = {},
): KubeletConfigFields["fields"] {
  const files: GoFiles = { "": goFile(text) };
  for (const [alias, t] of Object.entries(others)) files[alias] = goFile(t);
  return structFields("KubeletConfiguration", "", files);
}

/** The minors that validate a free-form kubelet, each with the newest known patch (the one whose module is read). */
export function validatingMinors(): { minor: string; patch: string }[] {
  const since = CRD_SINCE.ec2NodeClass.freeForm["spec.kubelet"];
  if (since === undefined) return [];
  const [sMaj, sMin] = since.split(".").map(Number);
  return RELEASES.map((patch) => ({ minor: patch.split(".").slice(0, 2).join("."), patch })).filter(({ minor }) => {
    const [maj, min] = minor.split(".").map(Number);
    return maj > sMaj || (maj === sMaj && min >= sMin);
  });
}

/** The module versions each validating minor pins (reads the provider go.mod; downloads when absent). */
export function kubeletModules(): { minor: string; patch: string; version: string; others: Record<string, string> }[] {
  return validatingMinors().map(({ minor, patch }) => {
    const goMod = fs.readFileSync(path.join(moduleDir(PROVIDER_MODULE, `v${patch}`), "go.mod"), "utf8");
    const others = Object.fromEntries(Object.values(PACKAGES).map(({ module }) => [module, required(goMod, module)]));
    return { minor, patch, version: required(goMod, KUBELET_MODULE), others };
  });
}

/** The whole table, from the module cache. */
export function generate(): Record<string, KubeletConfigFields> {
  const out: Record<string, KubeletConfigFields> = {};
  for (const { minor, patch, version, others } of kubeletModules()) {
    const dir = moduleDir(KUBELET_MODULE, version);
    const texts = Object.fromEntries(
      Object.entries(PACKAGES).map(([alias, { module, file }]) => [
        alias,
        fs.readFileSync(path.join(moduleDir(module, others[module]), file), "utf8"),
      ]),
    );
    out[minor] = {
      provider: `${PROVIDER_MODULE}@v${patch}`,
      decodedBy: "pkg/apis/v1/kubeletconfiguration_validation.go (validateAgainstUpstreamType)",
      module: `${KUBELET_MODULE}@${version}`,
      file: TYPES_FILE,
      nested: Object.entries(PACKAGES).map(
        ([alias, { module, file }]) => `${alias}: ${module}@${others[module]} ${file}`,
      ),
      assumption: `${KUBELET_MODULE} ${version} is what v${patch}'s go.mod requires; every other ${minor} patch is assumed to pin the same (only v${patch}'s module was read)`,
      fields: parseKubeletConfiguration(fs.readFileSync(path.join(dir, TYPES_FILE), "utf8"), texts),
    };
  }
  return out;
}

/** The table as the committed file's text. */
export function render(table: Record<string, KubeletConfigFields>): string {
  return renderTable("kubelet-fields", "scripts/kubelet-config-fields.ts", table);
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
