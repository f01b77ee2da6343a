/*
 * Writes lib/versions/data/containerd-config-fields.json: the TOML keys of containerd's configuration (its Config
 * struct and the structs it holds, from the file that decodes it) with the kind each key's Go type decodes from, per
 * containerd release read. nodeadm merges a NodeConfig's `spec.containerd.config` over the configuration it writes,
 * values as written (lib/nodes/containerd-config-rules.ts NODEADM_CONTAINERD_MERGE), and containerd decodes the file
 * into that struct when it starts and exits on an error: go-toml v1.9.5 in containerd 1.7
 * (services/server/config/config.go loadConfigFile), go-toml/v2 in containerd 2 (cmd/containerd/server/config/config.go
 * loadConfigFile, unknown keys logged and ignored). Both refuse a value of another TOML type than the field's
 * ("Can't convert", "cannot decode TOML … into … of type").
 *
 * The releases read: containerd 1.7.30 (the last 1.7, which AL2023 EKS AMIs shipped into 2025) and 2.2.3 (the AL2023
 * package of 2026). A Go type the script does not know stops it, so an upstream change is looked at.
 *
 * The CRI plugins' tables too (`plugins`): containerd decodes `plugins."<type>.<id>"` into the Config the plugin
 * registers when it loads the plugin and exits on an error (1.7: services/server/server.go:254-258, Config.Decode with
 * go-toml v1 Tree.Unmarshal; 2: cmd/containerd/server/server.go:306-311, Config.Decode with go-toml/v2, unknown keys
 * logged and ignored). containerd 1.7 registers one CRI plugin, io.containerd.grpc.v1.cri (pkg/cri/cri.go); containerd 2
 * splits it into io.containerd.cri.v1.images, io.containerd.cri.v1.runtime and io.containerd.grpc.v1.cri (the server's
 * streaming keys), and moves a configuration of version 2 from the old key to the new ones before decoding it (each
 * plugin's ConfigMigration): `migrations`, read from those functions. An embedded struct with a toml tag is a table of
 * that name in both go-toml versions (v1 marshal.go valueFromTree, v2 unmarshaler.go forEachField); go-toml v1 also
 * decodes the enclosing table into it when the table lacks that key (marshal.go:874-884), not written down here.
 *
 *   npx tsx scripts/containerd-config-fields.ts           write the table
 *   npx tsx scripts/containerd-config-fields.ts --check   exit 1 when the committed table differs
 */
import * as fs from "fs";
import * as path from "path";
import type {
  ContainerdConfigFields,
  ContainerdField,
  ContainerdMigration,
  ContainerdMove,
  ContainerdPlugin,
  ContainerdRuncOptions,
} from "../lib/versions/containerd-config";
import { moduleDir, required, writeOrCheck } from "./go-module-table";

export const TABLE_FILE = path.resolve(__dirname, "../lib/versions/data/containerd-config-fields.json");

/** The releases read: module, version, the file with the Config struct, and the TOML library that decodes it. */
export const RELEASES = [
  {
    module: "github.com/containerd/containerd",
    version: "v1.7.30",
    file: "services/server/config/config.go",
    toml: "github.com/pelletier/go-toml",
    /** Where the plugin types are declared, and the files that register the CRI plugins. */
    pluginTypes: "plugin/plugin.go",
    plugins: ["pkg/cri/cri.go"],
    /** Whether the release migrates an older configuration's CRI plugin tables (containerd 2's ConfigMigration). */
    migrates: false,
    /**
     * Where a runtime's options are decoded per pod sandbox (the function, the file with getRuntimeOptionsType) and the
     * file that calls it when it starts a sandbox; `match`: how go-toml names a field without a toml tag.
     */
    runtimeOptions: {
      file: "pkg/cri/server/helpers.go",
      func: "generateRuntimeOptions",
      sandbox: "pkg/cri/server/sandbox_run.go",
    },
  },
  {
    module: "github.com/containerd/containerd/v2",
    version: "v2.2.3",
    file: "cmd/containerd/server/config/config.go",
    toml: "github.com/pelletier/go-toml/v2",
    pluginTypes: "plugins/types.go",
    plugins: ["plugins/cri/images/plugin.go", "plugins/cri/runtime/plugin.go", "plugins/cri/cri.go"],
    migrates: true,
    runtimeOptions: {
      file: "internal/cri/config/config.go",
      func: "GenerateRuntimeOptions",
      sandbox: "internal/cri/server/sandbox_run.go",
    },
  },
] as const;

/** One field of a Go struct: its Go type, its TOML key ("" for an exported field without a toml tag), its line. */
type GoField = { name: string; type: string; key: string; line: number };

/** The structs of a Go file: name -> its fields (Go type, TOML key, line). */
export function parseStructs(text: string): Record<string, GoField[]> {
  const out: Record<string, GoField[]> = {};
  for (const m of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
    const start = text.slice(0, m.index).split("\n").length + 1;
    out[m[1]] = [];
    m[2].split("\n").forEach((line, i) => {
      // `Name Type `toml:"key"`` or an embedded struct with a tag, `Type `toml:"key"``: a table of that key in both
      // go-toml versions
      const f = /^\t(\w+)(?:[ \t]+([^\s`]+))?[ \t]+`toml:"([\w-]+)(?:,[^"]*)?"/.exec(line);
      if (f) {
        if (f[3] !== "-") out[m[1]].push({ name: f[1], type: f[2] ?? f[1], key: f[3], line: start + i });
        return;
      }
      // an exported field without a toml tag: go-toml names it by its Go name (or flattens an embedded struct),
      // which the script does not model, so walking it stops the script
      const untagged = /^\t([A-Z]\w*)(?:[ \t]+([^\s`/]+))?[ \t]*(?:`[^`]*`)?[ \t]*(?:\/\/.*)?$/.exec(line);
      if (untagged) out[m[1]].push({ name: untagged[1], type: untagged[2] ?? untagged[1], key: "", line: start + i });
    });
  }
  return out;
}

/** The named scalar types of a Go file (`type SandboxControllerMode string`): name -> the Go type. */
export function parseNamedTypes(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/^type (\w+) (string|int|bool)$/gm)].map((m) => [m[1], m[2]]));
}

/** The kind of a Go type, with the fields of a struct (or of a map's struct values) of the same file. */
export function fieldOf(
  type: string,
  structs: Record<string, GoField[]>,
  file: string,
  named: Record<string, string> = {},
): ContainerdField {
  const scalar: Record<string, ContainerdField["kind"]> = {
    int: "integer",
    string: "string",
    bool: "boolean",
    // both go-toml versions refuse a negative or too large integer (v1.9.5 marshal.go:1108-1120, v2.2.4
    // unmarshaler.go:986-989)
    uint32: "uint32",
  };
  if (type in scalar) return { kind: scalar[type] };
  if (type in named) return fieldOf(named[type], structs, file, named);
  // a pointer decodes as what it points to (go-toml v1 unwrapPointer, v2 handleValue)
  if (type.startsWith("*")) return fieldOf(type.slice(1), structs, file, named);
  if (type === "[]string") return { kind: "string list" };
  if (type === "map[string]string") return { kind: "string map" };
  if (type === "map[string][]string") return { kind: "string list map" };
  // plugin configuration: decoded by each plugin later (toml.Tree in 1.7, interface{} in 2); a runtime's options
  if (["toml.Tree", "map[string]toml.Tree", "map[string]interface{}", "interface{}", "any"].includes(type))
    return { kind: "any" };
  const map = /^map\[string\](\w+)$/.exec(type);
  if (map && map[1] in structs) return { kind: "table map", fields: fieldsOf(map[1], structs, file, named) };
  if (type in structs) return { kind: "table", fields: fieldsOf(type, structs, file, named) };
  throw new Error(`${file}: the Go type ${type} is not one the script knows: add how TOML decodes into it`);
}

function fieldsOf(
  name: string,
  structs: Record<string, GoField[]>,
  file: string,
  named: Record<string, string>,
): Record<string, ContainerdField> {
  const out: Record<string, ContainerdField> = {};
  for (const f of structs[name]) {
    if (f.key === "")
      throw new Error(`${file}:${f.line}: ${name} has a field without a toml tag: add how go-toml names it`);
    out[f.key] = { ...fieldOf(f.type, structs, file, named), line: f.line };
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), "utf8");
const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length;

/** `what` matched in `text`, or the script stops naming `file`: an upstream change is looked at. */
function must(re: RegExp, text: string, file: string, what: string): RegExpExecArray {
  const m = re.exec(text);
  if (!m) throw new Error(`${file}: no ${what} (${re}): look at how the release changed`);
  return m;
}

/** The value of a plugin type constant (`GRPCPlugin` -> `io.containerd.grpc.v1`) in the release's types file. */
function pluginType(dir: string, typesFile: string, name: string): string {
  const re = new RegExp(`^\\t${name}\\s+(?:plugin\\.)?Type = "([\\w.]+)"`, "m");
  return must(re, read(dir, typesFile), typesFile, `plugin type ${name}`)[1];
}

/** A plugin registration file's plugin: its key, the Config struct it decodes its table into, and that struct's keys. */
export function pluginOf(dir: string, typesFile: string, file: string): [string, ContainerdPlugin] {
  const text = read(dir, file);
  const reg = must(
    /^\t(?:plugin|registry)\.Register\(&plugin\.Registration\{\n([\s\S]*?)^\t\}\)/m,
    text,
    file,
    "plugin registration",
  );
  const type = must(/^\t\tType:\s+plugins?\.(\w+),/m, reg[1], file, "registration Type")[1];
  const id = must(/^\t\tID:\s+"([\w.-]+)",/m, reg[1], file, "registration ID")[1];
  const config = must(/^\t\tConfig:\s+&(\w+),/m, reg[1], file, "registration Config")[1];
  const made = must(new RegExp(`^\\t${config} := criconfig\\.(Default\\w+)\\(\\)$`, "m"), text, file, "default config");
  const pkg = must(
    /^\tcriconfig "github\.com\/containerd\/containerd(?:\/v2)?\/([\w/]+)"$/m,
    text,
    file,
    "criconfig",
  )[1];
  // the struct the default config function returns (the same in every platform's file), and the file declaring it
  const goFiles = fs
    .readdirSync(path.join(dir, pkg))
    .filter((f) => f.endsWith(".go") && !f.endsWith("_test.go"))
    .sort()
    .map((f) => `${pkg}/${f}`);
  const returns = goFiles
    .map((f) => new RegExp(`^func ${made[1]}\\(\\) (\\w+) \\{`, "m").exec(read(dir, f)))
    .find((m) => m);
  if (!returns) throw new Error(`${pkg}: no func ${made[1]}`);
  const struct = returns[1];
  const declared = goFiles.find((f) => new RegExp(`^type ${struct} struct \\{`, "m").test(read(dir, f)));
  if (!declared) throw new Error(`${pkg}: no type ${struct} struct`);
  const source = read(dir, declared);
  const start = lineAt(text, reg.index);
  const end = start + reg[0].split("\n").length - 1;
  return [
    `${pluginType(dir, typesFile, type)}.${id}`,
    {
      file: declared,
      struct,
      registered: `${file}:${start}-${end}`,
      fields: fieldsOf(struct, parseStructs(source), declared, parseNamedTypes(source)),
    },
  ];
}

/** The function `name` of a Go file, from its `func` line to its closing brace, and its first line. */
function goFunc(text: string, file: string, name: string): { body: string; line: number } {
  const m = must(new RegExp(`^func ${name}\\([^\\n]*\\{\\n[\\s\\S]*?^\\}`, "m"), text, file, `func ${name}`);
  return { body: m[0], line: lineAt(text, m.index) };
}

/** A Go string list literal's strings: `[]string{\n"a",\n"b",\n}`. */
const goStrings = (list: string) => [...list.matchAll(/"([\w.-]+)"/g)].map((m) => m[1]);

/**
 * containerd 2's migrations of the CRI plugins' configuration (plugins/cri/…: configMigration, migrateConfig), for a
 * configuration whose version is below `below`: what moves from the 1.7 plugin key, io.containerd.grpc.v1.cri, to which
 * plugin and key. Read from the functions: images takes sandbox_image as pinned_images.sandbox, a list of top-level keys
 * and a list of `containerd` keys; the server (cri.go) keeps a list of top-level keys under the old key; runtime takes
 * everything else, skipping exactly those lists (checked), with a runtime's sandbox_mode as its sandboxer. runtime's
 * `cni.bin_dir` becomes `cni.bin_dirs = [bin_dir]` (a string, or the migration panics) and is judged as runtime's own
 * `cni.bin_dir`, a string; images' runtime_platform from a runtime's `snapshot` is a key neither 1.7 nor 2 decodes
 * (ImageConfig's is runtime_platforms), so it is left out.
 */
export function migrationsOf(dir: string, typesFile: string): Record<string, ContainerdMigration> {
  const grpc = pluginType(dir, typesFile, "GRPCPlugin");
  const cri = pluginType(dir, typesFile, "CRIServicePlugin");
  const below = Number(
    must(/^const ConfigVersion = (\d+)$/m, read(dir, "version/version.go"), "version/version.go", "ConfigVersion")[1],
  );
  const from = `${grpc}.cri`;
  const moves: ContainerdMove[] = [];
  const at = (f: { body: string; line: number }, file: string) =>
    `${file}:${f.line}-${f.line + f.body.split("\n").length - 1}`;
  const checkVersion = (body: string, file: string) =>
    must(/if configVersion >= version\.ConfigVersion \{\n\s*return nil/, body, file, "the version check");

  const imagesFile = "plugins/cri/images/plugin.go";
  const images = read(dir, imagesFile);
  const ic = goFunc(images, imagesFile, "configMigration");
  checkVersion(ic.body, imagesFile);
  // images takes the old key's value as a table without checking (another value panics)
  must(/src := original\.\(map\[string\]interface\{\}\)/, ic.body, imagesFile, "the unchecked table");
  must(/pluginConfigs\[string\(plugins\.CRIServicePlugin\)\+"\.images"\] = dst/, images, imagesFile, "images key");
  const im = goFunc(images, imagesFile, "migrateConfig");
  const pinned = must(
    /if (\w+), ok := src\["(\w+)"\]; ok \{\n\s*pinnedImages\["(\w+)"\] = \1\n[\s\S]*?dst\["(\w+)"\] = pinnedImages/,
    im.body,
    imagesFile,
    "the sandbox image move",
  );
  moves.push({ from: [pinned[2]], plugin: `${cri}.images`, to: [pinned[4], pinned[3]], at: at(im, imagesFile) });
  const lists = [
    ...im.body.matchAll(
      /for _, key := range \[\]string\{([^}]*)\}\s*\{\s*if val, ok := (\w+)\[key\]; ok \{\s*dst\[key\] = val/g,
    ),
  ];
  if (lists.length !== 2 || lists[0][2] !== "src" || lists[1][2] !== "containerdConfMap")
    throw new Error(`${imagesFile}: migrateConfig's key lists changed: look at how`);
  must(/containerdConf, ok := src\["containerd"\]/, im.body, imagesFile, "the containerd table");
  const imageKeys = goStrings(lists[0][1]);
  const imageContainerdKeys = goStrings(lists[1][1]);
  for (const k of imageKeys) moves.push({ from: [k], plugin: `${cri}.images`, to: [k], at: at(im, imagesFile) });
  for (const k of imageContainerdKeys)
    moves.push({ from: ["containerd", k], plugin: `${cri}.images`, to: [k], at: at(im, imagesFile) });

  const serverFile = "plugins/cri/cri.go";
  const sm = goFunc(read(dir, serverFile), serverFile, "configMigration");
  checkVersion(sm.body, serverFile);
  must(/const pluginName = string\(plugins\.GRPCPlugin\) \+ "\.cri"/, sm.body, serverFile, "the server key");
  const serverList = must(
    /for _, k := range \[\]string\{([^}]*)\}\s*\{\s*if val, ok := src\[k\]; ok \{\s*dst\[k\] = val/,
    sm.body,
    serverFile,
    "the server's key list",
  );
  const serverKeys = goStrings(serverList[1]);
  for (const k of serverKeys) moves.push({ from: [k], plugin: from, to: [k], at: at(sm, serverFile) });

  const runtimeFile = "plugins/cri/runtime/plugin.go";
  const runtime = read(dir, runtimeFile);
  checkVersion(goFunc(runtime, runtimeFile, "configMigration").body, runtimeFile);
  const rm = goFunc(runtime, runtimeFile, "migrateConfig");
  // runtime takes what the others do not: its skipped keys must be theirs, or the moves above overlap
  const skipped = [...rm.body.matchAll(/case\s*((?:"[\w.-]+",?\s*)+):\s*\/\/ skip/g)].map((m) => goStrings(m[1]));
  const same = (a: string[], b: string[]) => [...a].sort().join() === [...b].sort().join();
  if (
    skipped.length !== 5 ||
    !same(skipped[2], [pinned[2], ...imageKeys]) ||
    !same(skipped[3], serverKeys) ||
    !same(skipped[4], imageContainerdKeys)
  )
    throw new Error(`${runtimeFile}: migrateConfig's skipped keys are not images' and the server's: look at how`);
  const sandbox = must(
    /if (\w+), ok := runtimeConf\["(\w+)"\]; ok \{\n\s*if _, ok := runtimeConf\["(\w+)"\]; !ok \{\n\s*runtimeConf\["\3"\] = \1/,
    rm.body,
    runtimeFile,
    "the sandbox mode move",
  );
  moves.push({
    from: ["containerd", "runtimes", "*", sandbox[2]],
    plugin: `${cri}.runtime`,
    to: ["containerd", "runtimes", "*", sandbox[3]],
    at: at(rm, runtimeFile),
  });
  moves.push({ from: [], plugin: `${cri}.runtime`, to: [], at: at(rm, runtimeFile) });
  return { [from]: { below, table: at(ic, imagesFile), moves } };
}

/** The runtime options path under a CRI plugin's key: a runtime's `options`, decoded later by its runtime type. */
const OPTIONS_PATH = ["containerd", "runtimes", "*", "options"];

/**
 * How the release decodes a runtime's `options` table when the runtime type is runc's: into the runc shim's Options
 * struct (github.com/containerd/containerd/api types/runc/options/oci.pb.go, at the version the release's go.mod
 * requires), re-encoding the table first (1.7: go-toml v1 TreeFromMap and Tree.Unmarshal; 2: go-toml/v2 Marshal and
 * Unmarshal). The struct is protobuf's, without toml tags, so go-toml names each field by its Go name: v1 tries the
 * name, its lower case, upper case and first letter lowered (marshal.go keysToTry), v2 any case (unmarshaler.go
 * structFieldPath); both checked in the library's source. Unknown keys are ignored by both.
 */
export function runcOptionsOf(
  r: (typeof RELEASES)[number],
  dir: string,
  goMod: string,
  tomlDir: string,
  plugins: Record<string, ContainerdPlugin>,
): ContainerdRuncOptions {
  const o = r.runtimeOptions;
  const text = read(dir, o.file);
  const decode = goFunc(text, o.file, o.func);
  const pick = goFunc(text, o.file, "getRuntimeOptionsType");
  must(/options := getRuntimeOptionsType\(r\.Type\)/, decode.body, o.file, "the options type by runtime type");
  // the case labels that reach `return &runcoptions.Options{}`, through fallthrough
  const cases = [...pick.body.matchAll(/^\tcase ([\w.]+):\n([\s\S]*?)(?=^\tcase |^\tdefault:)/gm)];
  const types: string[] = [];
  for (const c of cases) {
    if (/^\s*fallthrough\s*$/.test(c[2])) types.push(c[1]);
    else if (/^\s*return &runcoptions\.Options\{\}\s*$/.test(c[2])) {
      types.push(c[1]);
      break;
    } else types.length = 0;
  }
  if (types.length === 0) throw new Error(`${o.file}: getRuntimeOptionsType returns no runcoptions.Options`);
  const runtimeTypes = types.map((t) => {
    const name = t.replace(/^\w+\./, "");
    return must(new RegExp(`^\\t${name}\\s*= "([\\w.]+)"`, "m"), read(dir, r.pluginTypes), r.pluginTypes, name)[1];
  });
  must(
    /^\truncoptions "github\.com\/containerd\/containerd\/api\/types\/runc\/options"$/m,
    text,
    o.file,
    "runcoptions",
  );
  const sandboxText = read(dir, o.sandbox);
  const call = must(new RegExp(`^\\t\\w+, err := (?:criconfig\\.)?${o.func}\\(`, "m"), sandboxText, o.sandbox, o.func);
  // the plugin whose runtimes' options these are
  const holders = Object.entries(plugins).filter(([, p]) => {
    const rt = p.fields.containerd?.fields?.runtimes;
    return rt?.kind === "table map" && rt.fields?.options?.kind === "any";
  });
  if (holders.length !== 1) throw new Error(`${r.module}@${r.version}: not one CRI plugin with runtimes' options`);
  const api = "github.com/containerd/containerd/api";
  const apiVersion = required(goMod, api);
  const file = "types/runc/options/oci.pb.go";
  const structs = parseStructs(read(moduleDir(api, apiVersion), file));
  if (!structs.Options) throw new Error(`${api}@${apiVersion} ${file}: no Options struct`);
  const fields: Record<string, ContainerdField> = {};
  for (const f of structs.Options) {
    if (f.key !== "") throw new Error(`${file}:${f.line}: Options.${f.name} has a toml tag: add how go-toml names it`);
    fields[f.name] = { ...fieldOf(f.type, {}, file), line: f.line };
  }
  const toml = read(tomlDir, r.toml.endsWith("/v2") ? "unmarshaler.go" : "marshal.go");
  const match = r.toml.endsWith("/v2")
    ? (must(/fieldPaths\[strings\.ToLower\(name\)\] = path/, toml, "unmarshaler.go", "the case-insensitive match"),
      "any case" as const)
    : (must(
        /keysToTry := \[\]string\{\n\s*baseKey,\n\s*strings\.ToLower\(baseKey\),\n\s*strings\.ToTitle\(baseKey\),\n\s*strings\.ToLower\(string\(baseKey\[0\]\)\) \+ baseKey\[1:\],\n\s*\}/,
        toml,
        "marshal.go",
        "keysToTry",
      ),
      "name, lower, upper, first lower" as const);
  return {
    runtimeTypes,
    plugin: holders[0][0],
    path: OPTIONS_PATH,
    decodedAt: `${o.file}:${decode.line}-${decode.line + decode.body.split("\n").length - 1}`,
    sandboxAt: `${o.sandbox}:${lineAt(sandboxText, call.index)}`,
    module: `${api}@${apiVersion}`,
    file,
    struct: "Options",
    match,
    fields: Object.fromEntries(Object.entries(fields).sort(([a], [b]) => a.localeCompare(b))),
  };
}

export function generate(): ContainerdConfigFields {
  const releases = RELEASES.map((r) => {
    const dir = moduleDir(r.module, r.version);
    const text = fs.readFileSync(path.join(dir, r.file), "utf8");
    const structs = parseStructs(text);
    if (!structs.Config) throw new Error(`${r.module}@${r.version} ${r.file}: no Config struct`);
    const goMod = fs.readFileSync(path.join(dir, "go.mod"), "utf8");
    const toml = new RegExp(`^\\s*${r.toml.replace(/[./]/g, "\\$&")} (v\\S+)`, "m").exec(goMod);
    if (!toml) throw new Error(`${r.module}@${r.version} go.mod: no ${r.toml}`);
    const plugins = Object.fromEntries(r.plugins.map((f) => pluginOf(dir, r.pluginTypes, f)));
    return {
      containerd: `${r.module}@${r.version}`,
      file: r.file,
      decodedBy: `${r.toml}@${toml[1]}`,
      fields: fieldsOf("Config", structs, r.file, {}),
      plugins,
      ...(r.migrates ? { migrations: migrationsOf(dir, r.pluginTypes) } : {}),
      runcOptions: runcOptionsOf(r, dir, goMod, moduleDir(r.toml, toml[1]), plugins),
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
