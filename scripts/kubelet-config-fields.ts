/*
 * Writes lib/versions/data/kubelet-config-fields.json: for each known Karpenter minor that validates a free-form
 * `spec.kubelet` (1.15 on, CRD_SINCE freeForm), the top-level JSON fields of the upstream KubeletConfiguration that
 * minor decodes it into, each with its JSON kind.
 *
 * Karpenter 1.15 (pkg/apis/v1/kubeletconfiguration_validation.go, validateAgainstUpstreamType) strict-decodes
 * `spec.kubelet` into k8s.io/kubelet's config/v1beta1 KubeletConfiguration (sigs.k8s.io/json UnmarshalStrict: an
 * unknown or wrongly cased field, or a value of the wrong JSON type, fails the class). Which k8s.io/kubelet a minor
 * uses is read from the provider module's go.mod; the fields from that module's config/v1beta1/types.go. Both
 * modules come from the Go module cache (`go mod download` fetches them when absent).
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
 * Types of other packages the struct names, by what their JSON is: metav1.Duration is a struct whose JSON is a Go
 * duration string (k8s.io/apimachinery pkg/apis/meta/v1 duration.go, UnmarshalJSON: time.ParseDuration); the others
 * are structs (JSON objects). A qualified type not listed here stops the script, so a new one is looked at.
 */
const QUALIFIED: Record<string, KubeletFieldKind> = {
  "metav1.Duration": "duration",
  "metav1.TypeMeta": "object",
  "v1.Taint": "object",
  "logsapi.LoggingConfiguration": "object",
  "tracingapi.TracingConfiguration": "object",
};

const INTEGERS = ["int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64"];

/** The JSON kind of a Go type expression of types.go (`named`: the file's own `type X <underlying>`). */
function kindOf(goType: string, named: Record<string, string>): KubeletFieldKind {
  const t = goType.replace(/^\*/, "");
  if (t === "string") return "string";
  if (t === "bool") return "boolean";
  if (INTEGERS.includes(t)) return "integer";
  if (t === "float32" || t === "float64") return "number";
  if (t in QUALIFIED) return QUALIFIED[t];
  const list = /^\[\](.+)$/.exec(t);
  if (list) {
    const item = kindOf(list[1], named);
    if (item === "string") return "string list";
    if (item === "integer") return "integer list";
    if (item === "object") return "object list";
    throw new Error(`list of ${list[1]}`);
  }
  const map = /^map\[string\](.+)$/.exec(t);
  if (map) {
    const value = kindOf(map[1], named);
    if (value === "string") return "string map";
    if (value === "boolean") return "bool map";
    if (value === "string list") return "string list map";
    throw new Error(`map of ${map[1]}`);
  }
  if (t.includes(".")) throw new Error(`unknown type ${t}: add what its JSON is to QUALIFIED`);
  if (t in named) return named[t] === "struct" ? "object" : kindOf(named[t], named);
  throw new Error(`unknown type ${t}`);
}

/** The top-level JSON fields of KubeletConfiguration in a types.go text. */
export function parseKubeletConfiguration(text: string): KubeletConfigFields["fields"] {
  const named: Record<string, string> = {};
  for (const m of text.matchAll(/^type (\w+) (struct \{|[\w.[\]*]+)/gm))
    named[m[1]] = m[2].startsWith("struct") ? "struct" : m[2];
  const body = /^type KubeletConfiguration struct \{\n([\s\S]*?)^\}/m.exec(text);
  if (!body) throw new Error("no KubeletConfiguration struct");
  const fields: Record<string, { kind: KubeletFieldKind; goType: string }> = {};
  for (const raw of body[1].split("\n")) {
    const line = raw.replace(/\/\/.*$/, "").trim();
    if (line === "" || line.startsWith("/*")) continue;
    const m = /^(?:(\w+)\s+)?([\w.[\]*]+)\s+`json:"([^"]*)"`$/.exec(line);
    if (!m) throw new Error(`cannot read the field line ${JSON.stringify(raw)}`);
    const [, name, goType, tag] = m;
    const jsonName = tag.split(",")[0];
    if (name === undefined || jsonName === "") {
      // an embedded struct without a JSON name is inlined: metav1.TypeMeta gives apiVersion and kind
      if (goType !== "metav1.TypeMeta") throw new Error(`embedded ${goType}: inline its fields`);
      fields.apiVersion = { kind: "string", goType: "string" };
      fields.kind = { kind: "string", goType: "string" };
      continue;
    }
    if (jsonName === "-") continue;
    fields[jsonName] = { kind: kindOf(goType, named), goType };
  }
  return Object.fromEntries(Object.entries(fields).sort(([a], [b]) => a.localeCompare(b)));
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

/** The kubelet module version each validating minor pins (reads the provider go.mod; downloads when absent). */
export function kubeletModules(): { minor: string; patch: string; version: string }[] {
  return validatingMinors().map(({ minor, patch }) => {
    const provider = moduleDir(PROVIDER_MODULE, `v${patch}`);
    return { minor, patch, version: required(fs.readFileSync(path.join(provider, "go.mod"), "utf8"), KUBELET_MODULE) };
  });
}

/** The whole table, from the module cache. */
export function generate(): Record<string, KubeletConfigFields> {
  const out: Record<string, KubeletConfigFields> = {};
  for (const { minor, patch, version } of kubeletModules()) {
    const dir = moduleDir(KUBELET_MODULE, version);
    out[minor] = {
      provider: `${PROVIDER_MODULE}@v${patch}`,
      decodedBy: "pkg/apis/v1/kubeletconfiguration_validation.go (validateAgainstUpstreamType)",
      module: `${KUBELET_MODULE}@${version}`,
      file: TYPES_FILE,
      assumption: `${KUBELET_MODULE} ${version} is what v${patch}'s go.mod requires; every other ${minor} patch is assumed to pin the same (only v${patch}'s module was read)`,
      fields: parseKubeletConfiguration(fs.readFileSync(path.join(dir, TYPES_FILE), "utf8")),
    };
  }
  return out;
}

/** The table as the committed file's text. */
export function render(table: Record<string, KubeletConfigFields>): string {
  return renderTable("kubelet-fields", "scripts/kubelet-config-fields.ts", table);
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
