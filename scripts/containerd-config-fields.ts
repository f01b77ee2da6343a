/*
 * Writes lib/versions/data/containerd-config-fields.json: the TOML keys of containerd's configuration (its Config
 * struct and the structs it holds, from the file that decodes it) with the kind each key's Go type decodes from, per
 * containerd release read. nodeadm writes a NodeConfig's `spec.containerd.config` as an import of containerd's
 * configuration (amazon-eks-ami nodeadm internal/containerd/config.go:42-45), and containerd decodes every imported
 * file into that struct when it starts and exits on an error: go-toml v1.9.5 in containerd 1.7
 * (services/server/config/config.go loadConfigFile), go-toml/v2 in containerd 2 (cmd/containerd/server/config/config.go
 * loadConfigFile, unknown keys logged and ignored). Both refuse a value of another TOML type than the field's
 * ("Can't convert", "cannot decode TOML … into … of type").
 *
 * The releases read: containerd 1.7.30 (the last 1.7, which AL2023 EKS AMIs shipped into 2025) and 2.2.3 (the AL2023
 * package of 2026). A Go type the script does not know stops it, so an upstream change is looked at.
 *
 *   npx tsx scripts/containerd-config-fields.ts           write the table
 *   npx tsx scripts/containerd-config-fields.ts --check   exit 1 when the committed table differs
 */
import * as fs from "fs";
import * as path from "path";
import type { ContainerdField, ContainerdConfigFields } from "../lib/versions/containerd-config";
import { moduleDir, writeOrCheck } from "./go-module-table";

export const TABLE_FILE = path.resolve(__dirname, "../lib/versions/data/containerd-config-fields.json");

/** The releases read: module, version, the file with the Config struct, and the TOML library that decodes it. */
export const RELEASES = [
  {
    module: "github.com/containerd/containerd",
    version: "v1.7.30",
    file: "services/server/config/config.go",
    toml: "github.com/pelletier/go-toml",
  },
  {
    module: "github.com/containerd/containerd/v2",
    version: "v2.2.3",
    file: "cmd/containerd/server/config/config.go",
    toml: "github.com/pelletier/go-toml/v2",
  },
] as const;

/** The structs of a Go file: name -> its fields (Go name, Go type, TOML key, line). */
export function parseStructs(text: string): Record<string, { type: string; key: string; line: number }[]> {
  const out: Record<string, { type: string; key: string; line: number }[]> = {};
  for (const m of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
    const start = text.slice(0, m.index).split("\n").length + 1;
    out[m[1]] = [];
    m[2].split("\n").forEach((line, i) => {
      const f = /^\t\w+\s+(\S+)\s+`toml:"([\w-]+)(?:,[^"]*)?"/.exec(line);
      if (f) out[m[1]].push({ type: f[1], key: f[2], line: start + i });
    });
  }
  return out;
}

/** The kind of a Go type, with the fields of a struct (or of a map's struct values) of the same file. */
export function fieldOf(
  type: string,
  structs: Record<string, { type: string; key: string; line: number }[]>,
  file: string,
): ContainerdField {
  const scalar: Record<string, ContainerdField["kind"]> = { int: "integer", string: "string", bool: "boolean" };
  if (type in scalar) return { kind: scalar[type] };
  if (type === "[]string") return { kind: "string list" };
  if (type === "map[string]string") return { kind: "string map" };
  // plugin configuration: decoded by each plugin later (toml.Tree in 1.7, interface{} in 2)
  if (["toml.Tree", "map[string]toml.Tree", "map[string]interface{}", "interface{}", "any"].includes(type))
    return { kind: "any" };
  const map = /^map\[string\](\w+)$/.exec(type);
  if (map && map[1] in structs) return { kind: "table map", fields: fieldsOf(map[1], structs, file) };
  if (type in structs) return { kind: "table", fields: fieldsOf(type, structs, file) };
  throw new Error(`${file}: the Go type ${type} is not one the script knows: add how TOML decodes into it`);
}

function fieldsOf(
  name: string,
  structs: Record<string, { type: string; key: string; line: number }[]>,
  file: string,
): Record<string, ContainerdField> {
  const out: Record<string, ContainerdField> = {};
  for (const f of structs[name]) out[f.key] = { ...fieldOf(f.type, structs, file), line: f.line };
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

export function generate(): ContainerdConfigFields {
  const releases = RELEASES.map((r) => {
    const text = fs.readFileSync(path.join(moduleDir(r.module, r.version), r.file), "utf8");
    const structs = parseStructs(text);
    if (!structs.Config) throw new Error(`${r.module}@${r.version} ${r.file}: no Config struct`);
    const goMod = fs.readFileSync(path.join(moduleDir(r.module, r.version), "go.mod"), "utf8");
    const toml = new RegExp(`^\\s*${r.toml.replace(/[./]/g, "\\$&")} (v\\S+)`, "m").exec(goMod);
    if (!toml) throw new Error(`${r.module}@${r.version} go.mod: no ${r.toml}`);
    return {
      containerd: `${r.module}@${r.version}`,
      file: r.file,
      decodedBy: `${r.toml}@${toml[1]}`,
      fields: fieldsOf("Config", structs, r.file),
    };
  });
  return { releases };
}

export function render(table: ContainerdConfigFields): string {
  const note =
    "Generated by `npm run containerd-fields` (scripts/containerd-config-fields.ts) from the Go module cache. Do not edit.";
  return JSON.stringify({ _: note, ...table }, null, 2) + "\n";
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
