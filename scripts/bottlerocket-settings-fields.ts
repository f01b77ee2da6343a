/*
 * Writes lib/versions/data/bottlerocket-settings-fields.json: for each Karpenter minor whose provider module is read
 * (1.14 on), the typed Bottlerocket settings Karpenter decodes a Bottlerocket class's `userData` into, key by key.
 *
 * Karpenter (pkg/providers/amifamily/bootstrap/bottlerocketsettings.go, UnmarshalTOML) decodes the TOML twice with
 * pelletier/go-toml/v2: `settings` into an untyped map, then `settings` into the typed BottlerocketSettings struct
 * (kubernetes, bootstrap-commands and the structs they hold). A value of another TOML type fails the decode, and
 * bottlerocket.go returns "invalid UserData": every launch with the class fails. The structs are read from the
 * provider module's bottlerocketsettings.go; go-toml's version from its go.mod. Both come from the Go module cache
 * (`go mod download` fetches them when absent). Minors before 1.14 are not read (RELEASES pins patches whose modules
 * are not fetched here): the checker applies the oldest table read to them (lib/versions/bottlerocket-settings.ts).
 *
 *   npx tsx scripts/bottlerocket-settings-fields.ts           write the table
 *   npx tsx scripts/bottlerocket-settings-fields.ts --check   exit 1 when the committed table differs
 */
import * as fs from "fs";
import * as path from "path";
import { RELEASES } from "../lib/versions/data";
import type { BottlerocketSettingsFields } from "../lib/versions/bottlerocket-settings";
import { moduleDir, renderTable, required, writeOrCheck } from "./go-module-table";

export const TABLE_FILE = path.resolve(__dirname, "../lib/versions/data/bottlerocket-settings-fields.json");

const PROVIDER_MODULE = "github.com/aws/karpenter-provider-aws";
const TOML_MODULE = "github.com/pelletier/go-toml/v2";
const SETTINGS_FILE = "pkg/providers/amifamily/bootstrap/bottlerocketsettings.go";
/** The struct `settings` is decoded into (UnmarshalTOML's `s.Settings`). */
const ROOT = "BottlerocketSettings";
/** The first minor read. */
const FIRST_MINOR = [1, 14];

const SCALARS = [
  "string",
  "bool",
  "int",
  "int8",
  "int16",
  "int32",
  "int64",
  "uint",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
];

/**
 * A Go type expression with pointers dropped and named non-struct types replaced by what they are
 * (`*BootstrapCommandMode` → `string`): `string`, `bool`, an integer type, `[]T`, `map[string]T` or a struct's name.
 */
function normalize(goType: string, named: Record<string, string>): string {
  const t = goType.replace(/^\*/, "");
  if (SCALARS.includes(t)) return t;
  const list = /^\[\](.+)$/.exec(t);
  if (list) return `[]${normalize(list[1], named)}`;
  const map = /^map\[string\](.+)$/.exec(t);
  if (map) return `map[string]${normalize(map[1], named)}`;
  if (t in named) return named[t] === "struct" ? t : normalize(named[t], named);
  throw new Error(`unknown type ${goType}: teach the checker (lib/nodes/user-data-rules.ts) what TOML it decodes`);
}

/** The structs of a bottlerocketsettings.go text reachable from {@link ROOT}: struct → TOML key → type. */
export function parseBottlerocketSettings(text: string): BottlerocketSettingsFields["structs"] {
  const named: Record<string, string> = {};
  for (const m of text.matchAll(/^type (\w+) (struct \{|[\w.[\]*]+)/gm))
    named[m[1]] = m[2].startsWith("struct") ? "struct" : m[2];
  const structs: Record<string, Record<string, string>> = {};
  const read = (name: string) => {
    if (structs[name]) return;
    const body = new RegExp(`^type ${name} struct \\{\\n([\\s\\S]*?)^\\}`, "m").exec(text);
    if (!body) throw new Error(`no ${name} struct`);
    const fields: Record<string, string> = {};
    structs[name] = fields;
    for (const raw of body[1].split("\n")) {
      const line = raw.replace(/\/\/.*$/, "").trim();
      if (line === "") continue;
      const m = /^(\w+)\s+([\w.[\]*]+)\s+`toml:"([^"]*)"`$/.exec(line);
      if (!m) throw new Error(`cannot read the field line ${JSON.stringify(raw)}`);
      const key = m[3].split(",")[0];
      if (key === "-" || key === "") throw new Error(`${name}.${m[1]}: a field without a TOML key`);
      fields[key] = normalize(m[2], named);
    }
    for (const t of Object.values(fields)) {
      const inner = t.replace(/^(?:\[\]|map\[string\])+/, "");
      if (named[inner] === "struct") read(inner);
    }
  };
  read(ROOT);
  return Object.fromEntries(
    Object.entries(structs)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([n, f]) => [n, Object.fromEntries(Object.entries(f).sort(([a], [b]) => a.localeCompare(b)))]),
  );
}

/** The minors read, each with the patch RELEASES pins (the one whose module is read). */
export function readMinors(): { minor: string; patch: string }[] {
  return RELEASES.map((patch) => ({ minor: patch.split(".").slice(0, 2).join("."), patch })).filter(({ minor }) => {
    const [maj, min] = minor.split(".").map(Number);
    return maj > FIRST_MINOR[0] || (maj === FIRST_MINOR[0] && min >= FIRST_MINOR[1]);
  });
}

/** The whole table, from the module cache. */
export function generate(): Record<string, BottlerocketSettingsFields> {
  const out: Record<string, BottlerocketSettingsFields> = {};
  for (const { minor, patch } of readMinors()) {
    const dir = moduleDir(PROVIDER_MODULE, `v${patch}`);
    const toml = required(fs.readFileSync(path.join(dir, "go.mod"), "utf8"), TOML_MODULE);
    out[minor] = {
      provider: `${PROVIDER_MODULE}@v${patch}`,
      file: SETTINGS_FILE,
      decodedBy: `UnmarshalTOML: toml.Unmarshal of the user data into { Settings ${ROOT} \`toml:"settings"\` }, ${TOML_MODULE}@${toml}`,
      assumption: `every other ${minor} patch is assumed to have v${patch}'s structs (only v${patch}'s module was read)`,
      root: ROOT,
      structs: parseBottlerocketSettings(fs.readFileSync(path.join(dir, SETTINGS_FILE), "utf8")),
    };
  }
  return out;
}

/** The table as the committed file's text. */
export function render(table: Record<string, BottlerocketSettingsFields>): string {
  return renderTable("bottlerocket-fields", "scripts/bottlerocket-settings-fields.ts", table);
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
