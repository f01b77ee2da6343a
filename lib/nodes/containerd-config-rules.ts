import {
  containerdConfigFields,
  ContainerdField,
  ContainerdMove,
  ContainerdRelease,
  ContainerdRuncOptions,
} from "../versions/containerd-config";
import { kubernetesMinor, minorRanges } from "../versions/kubernetes-minor";
import { eksAmiFacts } from "../versions/eks-ami";
import type { Al2023AmiRelease } from "./node-config-rules";

/*
 * A NodeConfig's `spec.containerd.config` against containerd's configuration types (lib/versions/data/
 * containerd-config-fields.json, generated from containerd 1.7.30 and 2.2.3). nodeadm merges it into the configuration
 * it writes, and containerd decodes that into its Config struct when it starts, and each CRI plugin's table into the
 * plugin's Config when it loads the plugin; both go-toml v1 (containerd 1.7) and go-toml/v2 (containerd 2) refuse a
 * value of another TOML type than the field's, and containerd then exits. Unknown keys are ignored by both (v1 drops
 * them, v2 logs "Ignoring unknown key in TOML").
 *
 * An AL2023 AMI carries containerd 1.7 or 2, and the CRI plugins are not the same in both: 1.7 reads
 * plugins."io.containerd.grpc.v1.cri", 2 reads io.containerd.cri.v1.images and io.containerd.cri.v1.runtime (and the
 * server's streaming keys under io.containerd.grpc.v1.cri), and moves a version-2 configuration's
 * io.containerd.grpc.v1.cri keys to them first (its migrations, in the table). So each value is judged by what each
 * release reads it as; a value every release refuses fails on every AMI and is refused, one that only some refuse fails
 * only where the AMI carries that containerd, a warning.
 *
 * Which release reads a plugin key also depends on what nodeadm writes (amazon-eks-ami nodeadm
 * internal/containerd/config.go:59-157 at 81fec2e8): a configuration whose text names io.containerd.cri.v1.images or
 * io.containerd.cri.v1.runtime gets the version-3 template on containerd 2 and stops nodeadm on containerd 1.7 (an AMI
 * from before amazon-eks-ami bacd4c1c, 2025-08-06, release v20250807: eks-ami-facts `containerd.v3KeysRefusedOn1`,
 * leaves it to containerd 1.7, which ignores those plugins); any
 * other gets the version-2 template, which containerd 2 migrates (nodeadm runs `containerd config migrate`). A
 * `version` the configuration sets replaces the template's (nodeadm merges the user's over its own); plugin tables are
 * only judged at version 2 or 3.
 */

/** What one release makes of a value: the key it reads it as, what it takes there, where that is declared. */
export interface ContainerdReading {
  /** `containerd 1.7`. */
  readonly containerd: string;
  /** undefined: the release does not read the value. */
  readonly want?: string;
  readonly refuses: boolean;
  /** Where the key is declared (and, for a migrated key, how it got there). */
  readonly source?: string;
  /** Why the release does not read it, when that is worth saying. */
  readonly unread?: string;
}

/** A value of the wrong TOML type: its dotted path, what it is, what each release makes of it. */
export interface ContainerdConfigProblem {
  readonly path: string;
  /** What the key takes, as one phrase (`a string`, or each release's). */
  readonly want: string;
  readonly got: string;
  /** Where the key is declared, per release: `github.com/containerd/containerd@v1.7.30 services/…/config.go:37`. */
  readonly source: string;
  /** Whether the key is a CRI plugin's, decoded when containerd loads the plugin. */
  readonly plugin: boolean;
  readonly readings: readonly ContainerdReading[];
}

/** The values every release refuses (`refused`), and those only some refuse (`depends`, on the AMI's containerd). */
export interface ContainerdConfigVerdict {
  readonly refused: readonly ContainerdConfigProblem[];
  readonly depends: readonly ContainerdConfigProblem[];
  /** The keys of a runc runtime's options table the runc shim's Options refuse (when a pod sandbox starts). */
  readonly runcOptions: readonly RuncOptionsProblem[];
  /** Keys a CRI plugin table does not have, which a table near it in the same release does. */
  readonly misplaced: readonly MisplacedKey[];
}

/**
 * A key no release reads where it is written, inside a CRI plugin table some release knows the fields of, which the
 * same release does read in the table's parent, a sibling table or a child table (or, for a runtime, its runc options):
 * containerd ignores it where it is (go-toml v1.9.5 drops unknown keys, containerd 1.7; containerd 2 logs "Ignoring
 * unknown key in TOML for plugin" and drops it: github.com/containerd/containerd/v2@v2.2.3
 * cmd/containerd/server/config/config.go:256-280), so the setting never takes effect.
 */
export interface MisplacedKey {
  /** The key's dotted path as written. */
  readonly path: string;
  readonly key: string;
  /** The tables that have it, as TOML headers (`plugins."io.containerd.grpc.v1.cri"`), each with who reads it there. */
  readonly tables: readonly { readonly table: string; readonly readers: readonly string[]; readonly source: string }[];
}

/** A key of a runc runtime's `options` of the wrong TOML type for the runc shim's Options field it names. */
export interface RuncOptionsProblem {
  /** `plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options.SystemdCgroup`. */
  readonly path: string;
  readonly got: string;
  /** What the field takes, as one phrase (`true or false`, or each release's). */
  readonly want: string;
  /** The runtime_type the options are decoded for, and who set it: the configuration, or nodeadm's template. */
  readonly runtimeType: string;
  /** undefined: the configuration sets the runtime_type; else the instances where nodeadm's runtime has it. */
  readonly onlyOn?: string;
  /** Every release refuses it and the configuration sets the runtime_type: every sandbox of the runtime fails. */
  readonly refused: boolean;
  /** Per release that decodes it: the field, the decoding function, the sandbox start that fails. */
  readonly source: string;
  readonly readings: readonly ContainerdReading[];
}

/** How a NodeConfig's containerd config reaches containerd: merged by nodeadm over its own, values kept as written. */
export const NODEADM_CONTAINERD_MERGE =
  "amazon-eks-ami nodeadm internal/containerd/config.go:59-106 at 81fec2e8, writeContainerdConfig and combineContainerdConfigs: parsed with go-toml/v2, merged over the configuration nodeadm generates (internal/util/merge.go:16-54) and written to /etc/containerd/config.toml";

/** Where a decode error of a plugin's table stops containerd, and where containerd 2's migration decodes it first. */
export const CONTAINERD_PLUGIN_DECODE =
  "github.com/containerd/containerd@v1.7.30 services/server/server.go:254-260 and github.com/containerd/containerd/v2@v2.2.3 cmd/containerd/server/server.go:307-312 return the plugin's Config.Decode error, and containerd exits; on containerd 2 nodeadm first runs `containerd config migrate` on a configuration without io.containerd.cri.v1.* keys (amazon-eks-ami nodeadm internal/containerd/config.go:59-89, 151-157 at 81fec2e8), which decodes every plugin's table the same way and fails (cmd/containerd/command/config.go:36-56), and nodeadm init stops";

/** Where nodeadm picks the template by the configuration's text, and stops on containerd 1.7 at version-3 keys. */
const NODEADM_TEMPLATE =
  "amazon-eks-ami nodeadm internal/containerd/config.go:126-149 at 81fec2e8, getConfigTemplateVersion, Version3configInNodeConfig";

const isTable = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x) && !(x instanceof Date);

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** The TOML type of a parsed value (smol-toml with integers as bigint). */
function tomlType(x: unknown): string {
  if (typeof x === "bigint") return "an integer";
  if (typeof x === "number") return "a float";
  if (typeof x === "string") return "a string";
  if (typeof x === "boolean") return "a boolean";
  if (Array.isArray(x)) return "an array";
  if (x instanceof Date || (typeof x === "object" && x !== null && "isDate" in x)) return "a date-time";
  return "a table";
}

/**
 * Whether `x` decodes into `kind` (undefined when that is not certain). A TOML float never decodes into an integer
 * field: go-toml v1.9.5 marshal.go:1102-1104 ("Can't convert … to int", containerd 1.7) and go-toml/v2 v2.2.4
 * unmarshaler.go:896-914 ("float cannot be assigned to int", containerd 2).
 */
function fits(x: unknown, kind: ContainerdField["kind"]): boolean | undefined {
  switch (kind) {
    case "integer":
      return typeof x === "bigint";
    case "uint32":
      return typeof x === "bigint" && x >= 0n && x <= 4294967295n;
    case "string":
      return typeof x === "string";
    case "boolean":
      return typeof x === "boolean";
    case "string list":
      return Array.isArray(x) && x.every((v) => typeof v === "string");
    case "string map":
      return isTable(x) && Object.values(x).every((v) => typeof v === "string");
    case "string list map":
      return isTable(x) && Object.values(x).every((v) => Array.isArray(v) && v.every((s) => typeof s === "string"));
    case "table":
    case "table map":
      return isTable(x);
    default:
      return true;
  }
}

const WANT: Record<ContainerdField["kind"], string> = {
  integer: "an integer",
  uint32: "an integer from 0 to 4294967295",
  string: "a string",
  boolean: "true or false",
  "string list": "an array of strings",
  "string map": "a table of strings",
  "string list map": "a table of arrays of strings",
  table: "a table",
  "table map": "a table of tables",
  any: "any value",
};

/** A dotted key path as TOML writes it: segments that are no bare keys quoted. */
const dotted = (segs: readonly string[]) =>
  segs.map((s) => (/^[A-Za-z0-9_-]+$/.test(s) ? s : JSON.stringify(s))).join(".");

/** The field at `segs` under `fields`: a map's segment is an entry's name (sandbox_image moves into one). */
function lookup(
  fields: { readonly [key: string]: ContainerdField },
  segs: readonly string[],
): ContainerdField | undefined {
  let field: ContainerdField = { kind: "table", fields };
  for (const s of segs) {
    // an entry of a map: a table of the map's fields, a string, an array of strings
    if (field.kind === "table map") field = { kind: "table", fields: field.fields, line: field.line };
    else if (field.kind === "string map") field = { kind: "string", line: field.line };
    else if (field.kind === "string list map") field = { kind: "string list", line: field.line };
    else if (field.kind === "table" && field.fields && own(field.fields, s)) field = field.fields[s];
    else return undefined;
  }
  return field;
}

/** The move of a migration for a path under the old key: the longest `from` that is a prefix of it (`*` any name). */
function moveFor(moves: readonly ContainerdMove[], rest: readonly string[]): ContainerdMove | undefined {
  const matches = (m: ContainerdMove) =>
    m.from.length <= rest.length && m.from.every((s, i) => s === "*" || s === rest[i]);
  return moves.filter(matches).sort((a, b) => b.from.length - a.from.length)[0];
}

/** How nodeadm and the configuration's own `version` decide which plugin keys a release reads. */
interface Setting {
  /** The configuration's text names a containerd-2-only CRI plugin (nodeadm's check, on the text as written). */
  readonly v3Keys: boolean;
  /** The configuration's `version`, when it sets one as an integer. */
  readonly version?: number;
}

const releaseName = (r: ContainerdRelease) => `containerd ${/@v(\d+\.\d+)/.exec(r.containerd)?.[1] ?? r.containerd}`;

const majorOf = (r: ContainerdRelease) => Number(/@v(\d+)\./.exec(r.containerd)?.[1]);

/** What release `r` makes of the value at `segs`, or why it does not read it. */
function readingOf(
  r: ContainerdRelease,
  segs: readonly string[],
  x: unknown,
  setting: Setting,
): { field?: ContainerdField; reading: ContainerdReading; at?: readonly string[] } {
  const containerd = releaseName(r);
  const read = (field: ContainerdField | undefined, source: string, at?: readonly string[]) =>
    field
      ? {
          field,
          reading: { containerd, want: WANT[field.kind], refuses: fits(x, field.kind) === false, source },
          at,
        }
      : { reading: { containerd, refuses: false } };
  if (segs[0] !== "plugins" || segs.length < 2) {
    const field = lookup(r.fields, segs);
    return read(field, `${r.containerd} ${r.file}${field?.line ? `:${field.line}` : ""} (${r.decodedBy})`);
  }
  // a plugin's table: read at the version nodeadm's template and the configuration's own `version` give
  const major = majorOf(r);
  if (major < 2 && setting.v3Keys)
    return {
      reading: {
        containerd,
        refuses: false,
        unread: `nodeadm stops on an AMI with ${containerd} at a configuration naming io.containerd.cri.v1.images or io.containerd.cri.v1.runtime (${NODEADM_TEMPLATE}; an AMI from before ${eksAmiFacts().containerd.v3KeysRefusedOn1.since} leaves it to ${containerd}, which ignores those plugins)`,
      },
    };
  const version = setting.version ?? (major >= 2 && setting.v3Keys ? 3 : 2);
  if (version !== 2 && version !== 3) return { reading: { containerd, refuses: false } };
  const [, key, ...rest] = segs;
  const migration = r.migrations?.[key];
  if (migration && version < migration.below) {
    const move = moveFor(migration.moves, rest);
    const plugin = move && r.plugins[move.plugin];
    if (!move || !plugin) return { reading: { containerd, refuses: false } };
    // the old key itself: the migration takes it as a table (images' panics on another value)
    if (rest.length === 0)
      return read(
        { kind: "table" },
        `${r.containerd} ${migration.table}, the migration of a version-${version} configuration`,
      );
    const to = [...move.to.map((s, i) => (s === "*" ? rest[i] : s)), ...rest.slice(move.from.length)];
    const field = lookup(plugin.fields, to);
    return read(
      field,
      `as ${dotted(["plugins", move.plugin, ...to])}, where containerd 2 moves it in a version-${version} configuration (${r.containerd} ${move.at}): ${plugin.file}${field?.line ? `:${field.line}` : ""}, ${plugin.struct} (registered at ${plugin.registered}; ${r.decodedBy})`,
      [move.plugin, ...to],
    );
  }
  const plugin = r.plugins[key];
  if (!plugin) return { reading: { containerd, refuses: false } };
  const field =
    rest.length === 0 ? ({ kind: "table", fields: plugin.fields } as ContainerdField) : lookup(plugin.fields, rest);
  return read(
    field,
    `${r.containerd} ${plugin.file}${field?.line ? `:${field.line}` : ""}, ${plugin.struct} (registered at ${plugin.registered}; ${r.decodedBy})`,
    [key, ...rest],
  );
}

/**
 * Every value of `doc` (a parsed containerd configuration; `text` as written, for nodeadm's check of it) that a
 * containerd release read refuses to decode: refused when every release refuses it, depending on the AMI otherwise.
 * `majors`: the containerd majors the AMI certainly carries (a pinned release: {@link al2023ContainerdMajors}); only
 * those releases are read then.
 */
export function containerdConfigVerdict(
  doc: Record<string, unknown>,
  text: string,
  majors?: readonly number[],
): ContainerdConfigVerdict {
  const all = containerdConfigFields().releases;
  // the AMI's containerd major, where it is known: only its release's reading counts
  const mine = majors ? all.filter((r) => majors.includes(majorOf(r))) : [];
  const releases = mine.length > 0 ? mine : all;
  const setting: Setting = {
    v3Keys: text.includes("io.containerd.cri.v1.images") || text.includes("io.containerd.cri.v1.runtime"),
    version: typeof doc.version === "bigint" ? Number(doc.version) : undefined,
  };
  const refused: ContainerdConfigProblem[] = [];
  const depends: ContainerdConfigProblem[] = [];
  const runcOptions: RuncOptionsProblem[] = [];
  const misplaced: MisplacedKey[] = [];
  const walk = (value: Record<string, unknown>, at: readonly string[]) => {
    for (const [key, x] of Object.entries(value)) {
      const segs = [...at, key];
      const each = releases.map((r) => readingOf(r, segs, x, setting));
      if (isTable(x)) runcOptions.push(...runcOptionsProblems(releases, each, segs, value, x));
      const reads = each.filter((e) => e.field);
      if (reads.length === 0) {
        const m = misplacedKey(releases, segs, value, setting);
        if (m) misplaced.push(m);
        continue;
      }
      // a float where an integer goes: not judged (nor anything under it)
      if (reads.some((e) => fits(x, e.field!.kind) === undefined)) continue;
      const refusing = reads.filter((e) => e.reading.refuses);
      if (refusing.length === 0) {
        if (isTable(x)) walk(x, segs);
        continue;
      }
      const wants = [...new Set(refusing.map((e) => e.reading.want))];
      const problem: ContainerdConfigProblem = {
        path: dotted(segs),
        want:
          wants.length === 1
            ? wants[0]!
            : refusing.map((e) => `${e.reading.want} (${e.reading.containerd})`).join(" or "),
        got: tomlType(x),
        source: reads.map((e) => e.reading.source).join("; "),
        plugin: segs[0] === "plugins",
        readings: each.map((e) => e.reading),
      };
      (refusing.length === releases.length ? refused : depends).push(problem);
    }
  };
  walk(doc, []);
  return { refused, depends, runcOptions, misplaced };
}

/** The names of the tables under `segs` some release reads (no map entries), or the CRI plugins under `plugins`. */
function childTables(releases: readonly ContainerdRelease[], segs: readonly string[], setting: Setting): string[] {
  const names = new Set<string>();
  for (const r of releases) {
    if (segs.length === 1 && segs[0] === "plugins") {
      for (const k of [...Object.keys(r.plugins), ...Object.keys(r.migrations ?? {})]) names.add(k);
      continue;
    }
    const field = readingOf(r, segs, {}, setting).field;
    for (const [k, f] of Object.entries(field?.kind === "table" ? (field.fields ?? {}) : {}))
      if (f.kind === "table") names.add(k);
  }
  return [...names];
}

/**
 * A key at `segs` (read by no release) that a release reads in the parent, a sibling or a child of its table, when
 * that release knows the fields of the table it is in ({@link MisplacedKey}); `table` is the table it is in, for the
 * runtime_type of a runtime whose options a runc key belongs in.
 */
function misplacedKey(
  releases: readonly ContainerdRelease[],
  segs: readonly string[],
  table: Record<string, unknown>,
  setting: Setting,
): MisplacedKey | undefined {
  if (segs[0] !== "plugins" || segs.length < 3) return undefined;
  const key = segs[segs.length - 1];
  const parent = segs.slice(0, -1);
  const grand = parent.slice(0, -1);
  const candidates = [
    ...(grand.length >= 2 ? [grand] : []),
    ...childTables(releases, grand, setting)
      .filter((c) => c !== parent[parent.length - 1])
      .map((c) => [...grand, c]),
    ...childTables(releases, parent, setting).map((c) => [...parent, c]),
  ];
  const found = new Map<string, { readers: string[]; sources: string[] }>();
  const add = (at: readonly string[], reader: string, source: string) => {
    const header = dotted(at);
    const f = found.get(header) ?? { readers: [], sources: [] };
    f.readers.push(reader);
    f.sources.push(source);
    found.set(header, f);
  };
  for (const r of releases) {
    const here = readingOf(r, parent, {}, setting).field;
    if (here?.kind !== "table" || !here.fields) continue;
    for (const c of candidates) {
      // a map's entries are named by the user (runtimes.<name>): a key there names an entry, no field
      if (readingOf(r, c, {}, setting).field?.kind !== "table") continue;
      const there = readingOf(r, [...c, key], undefined, setting);
      if (there.field) add(c, releaseName(r), there.reading.source!);
    }
    // a runtime's table: the runc shim's options, when the runtime is a runc one (its own runtime_type, or nodeadm's runc)
    const o = r.runcOptions;
    const at = readingOf(r, [...parent, "options"], {}, setting).at;
    const runtimeType =
      typeof table.runtime_type === "string"
        ? table.runtime_type
        : own(NODEADM_RUNTIMES, parent[parent.length - 1])
          ? NODEADM_RUNTIME_TYPE
          : undefined;
    const isOptions =
      at !== undefined &&
      at.length === o.path.length + 1 &&
      at[0] === o.plugin &&
      o.path.every((p, j) => p === "*" || p === at[j + 1]);
    const runc = isOptions && runtimeType !== undefined && o.runtimeTypes.includes(runtimeType) && runcField(o, key);
    if (runc)
      add(
        [...parent, "options"],
        releaseName(r),
        `${o.module} ${o.file}:${runc[1].line}, ${o.struct}.${runc[0]}, decoded by ${r.containerd} ${o.decodedAt}`,
      );
  }
  if (found.size === 0) return undefined;
  return {
    path: dotted(segs),
    key,
    tables: [...found].map(([t, f]) => ({ table: t, readers: f.readers, source: f.sources.join("; ") })),
  };
}

/**
 * The runtime_type nodeadm's own configuration gives the runtime it defines ({@link NODEADM_RUNTIMES}): amazon-eks-ami
 * nodeadm internal/containerd/config.template.toml:23-24 and config2.template.toml:27-28 at 81fec2e8.
 */
const NODEADM_RUNTIME_TYPE = "io.containerd.runc.v2";
const NODEADM_RUNTIME_TEMPLATE =
  "amazon-eks-ami nodeadm internal/containerd/config.template.toml:23-24, config2.template.toml:27-28 at 81fec2e8";

/** The field of the runc shim's Options a TOML key names, as the release's go-toml matches it (or undefined). */
function runcField(o: ContainerdRuncOptions, key: string): [string, ContainerdField] | undefined {
  return Object.entries(o.fields).find(([name]) =>
    o.match === "any case"
      ? name.toLowerCase() === key.toLowerCase()
      : [name, name.toLowerCase(), name.toUpperCase(), name[0].toLowerCase() + name.slice(1)].includes(key),
  );
}

/**
 * The keys of `x`, a table at `segs` inside `runtime` (its parent), that a release reading it as a runc runtime's
 * options refuses: the release reads `segs` as its runtimes' options path, and the runtime's runtime_type (the
 * configuration's, or for nodeadm's runtime names the one nodeadm's template gives them) is one it decodes into the
 * runc shim's Options. A key no field matches is ignored by both go-toml versions; anything else is not judged.
 */
function runcOptionsProblems(
  releases: readonly ContainerdRelease[],
  each: readonly { reading: ContainerdReading; at?: readonly string[] }[],
  segs: readonly string[],
  runtime: Record<string, unknown>,
  x: Record<string, unknown>,
): RuncOptionsProblem[] {
  const name = segs[segs.length - 2];
  const mine = typeof runtime.runtime_type === "string" ? runtime.runtime_type : undefined;
  const nodeadm = runtime.runtime_type === undefined && name !== undefined && own(NODEADM_RUNTIMES, name);
  const runtimeType = mine ?? (nodeadm ? NODEADM_RUNTIME_TYPE : undefined);
  if (runtimeType === undefined) return [];
  // the releases that decode this table into the runc shim's Options
  const decoding = releases.map((r, i) => {
    const o = r.runcOptions;
    const at = each[i].at;
    const isOptions =
      at !== undefined &&
      at.length === o.path.length + 1 &&
      at[0] === o.plugin &&
      o.path.every((s, j) => s === "*" || s === at[j + 1]);
    return isOptions && o.runtimeTypes.includes(runtimeType) ? o : undefined;
  });
  if (decoding.every((o) => o === undefined)) return [];
  const out: RuncOptionsProblem[] = [];
  for (const [key, v] of Object.entries(x)) {
    const readings = releases.map((r, i): { reading: ContainerdReading; field?: [string, ContainerdField] } => {
      const o = decoding[i];
      const containerd = releaseName(r);
      const field = o && runcField(o, key);
      if (!o || !field) return { reading: { containerd, refuses: false } };
      return {
        field,
        reading: {
          containerd,
          want: WANT[field[1].kind],
          refuses: fits(v, field[1].kind) === false,
          source: `${o.module} ${o.file}:${field[1].line}, ${o.struct}.${field[0]} (no toml tag: ${r.decodedBy} matches the key by the Go name, ${o.match}), decoded by ${r.containerd} ${o.decodedAt} when it starts a pod sandbox (${o.sandboxAt})`,
        },
      };
    });
    const refusing = readings.filter((e) => e.reading.refuses);
    if (refusing.length === 0) continue;
    const wants = [...new Set(refusing.map((e) => e.reading.want))];
    out.push({
      path: dotted([...segs, key]),
      got: tomlType(v),
      want:
        wants.length === 1
          ? wants[0]!
          : refusing.map((e) => `${e.reading.want} (${e.reading.containerd})`).join(" or "),
      runtimeType,
      onlyOn: mine === undefined ? `${NODEADM_RUNTIMES[name]} (${NODEADM_RUNTIME_TEMPLATE})` : undefined,
      refused: mine !== undefined && refusing.length === releases.length,
      source: readings
        .filter((e) => e.field)
        .map((e) => e.reading.source)
        .join("; "),
      readings: readings.map((e) => e.reading),
    });
  }
  return out;
}

/** A problem that only some releases refuse, as a sentence's object: the value, who refuses it, who does not. */
export function dependsText(p: ContainerdConfigProblem): string {
  const each = p.readings.map((r) =>
    r.refuses
      ? `${r.containerd} refuses it (it takes ${r.want}: ${r.source})`
      : r.want
        ? `${r.containerd} accepts it`
        : `${r.containerd} does not read it${r.unread ? ` (${r.unread})` : ""}`,
  );
  return `${p.path} = ${p.got}: ${each.join("; ")}`;
}

/** Where the CRI plugin refuses a default runtime that no runtime table defines, per release. */
export const DEFAULT_RUNTIME_SOURCE =
  'github.com/containerd/containerd@v1.7.30 pkg/cri/config/config.go:454-460 (ValidatePluginConfig, called by pkg/cri/cri.go:69) and github.com/containerd/containerd/v2@v2.2.3 internal/cri/config/config.go:614-620 (ValidateRuntimeConfig, plugins/cri/runtime/plugin.go:64): "no corresponding runtime configured in `containerd.runtimes` for `containerd` `default_runtime_name`", and the CRI plugin does not load';

/**
 * The runtime nodeadm's own containerd configuration defines, and makes the default, by instance: the default (`runc`),
 * or the one of a mixin whose runtime binary exists on the instance (`nvidia`: /usr/bin/nvidia-container-runtime, on
 * the AMIs' NVIDIA variants, i.e. NVIDIA GPU instances); eks-ami-facts.json `containerd.runtimes`, generated from
 * amazon-eks-ami nodeadm internal/containerd/runtime_config*.go (config.template.toml, config2.template.toml:
 * `runtimes.{{.RuntimeName}}` only). Name → the instances where nodeadm defines it.
 */
const NODEADM_RUNTIMES: Readonly<Record<string, string>> = (() => {
  const runtimes = eksAmiFacts().containerd.runtimes;
  const binaries = Object.values(runtimes).flatMap((r) => (r.binary ? [r.binary] : []));
  // the AMI's NVIDIA variants carry the NVIDIA container runtime: named so in a message
  const gpu = (b: string) => (b.includes("nvidia") ? "an NVIDIA GPU" : b);
  const at = (r: { at: string }) => `amazon-eks-ami ${r.at} at ${eksAmiFacts().commit.slice(0, 8)}`;
  return Object.fromEntries(
    Object.entries(runtimes).map(([name, r]) => [
      name,
      r.default
        ? `instances without ${binaries.map(gpu).join(" or ")} (no ${binaries.join(" or ")}; ${at(r)})`
        : `${r.binary?.includes("nvidia") ? "NVIDIA GPU instances" : `instances with ${r.binary}`} (with ${r.binary}; ${at(r)})`,
    ]),
  );
})();

/** nodeadm's runtime names and where each is defined, for a message: `"runc" on instances without …, "nvidia" on …`. */
export function nodeadmRuntimeNames(): string {
  return Object.entries(NODEADM_RUNTIMES)
    .map(([name, on]) => `${JSON.stringify(name)} on ${on}`)
    .join(", ");
}

/** A `default_runtime_name` of a NodeConfig's containerd config, judged against the runtimes the node will have. */
export interface DefaultRuntimeProblem {
  /** `plugins."io.containerd.grpc.v1.cri".containerd.default_runtime_name`. */
  readonly path: string;
  readonly name: string;
  /** undefined: no node has it (refused); else the instances where nodeadm defines it (a warning). */
  readonly onlyOn?: string;
}

/**
 * The `default_runtime_name` values (under the containerd 1.7 plugin or containerd 2's runtime plugin) that name no
 * runtime the node will have: neither a `runtimes` table of the user's, nor the one nodeadm merges the user's
 * configuration over ({@link NODEADM_RUNTIMES}), which depends on the instance.
 */
export function defaultRuntimeProblems(doc: Record<string, unknown>): DefaultRuntimeProblem[] {
  const plugins = isTable(doc.plugins) ? doc.plugins : {};
  const out: DefaultRuntimeProblem[] = [];
  for (const plugin of ["io.containerd.grpc.v1.cri", "io.containerd.cri.v1.runtime"]) {
    const p = plugins[plugin];
    const containerd = isTable(p) && isTable(p.containerd) ? p.containerd : undefined;
    if (!containerd || typeof containerd.default_runtime_name !== "string") continue;
    const name = containerd.default_runtime_name;
    const mine = isTable(containerd.runtimes) && own(containerd.runtimes, name);
    if (mine) continue;
    const path = `plugins."${plugin}".containerd.default_runtime_name`;
    const others = Object.keys(NODEADM_RUNTIMES).filter((n) => n !== name);
    out.push(
      own(NODEADM_RUNTIMES, name)
        ? {
            path,
            name,
            onlyOn: `${NODEADM_RUNTIMES[name]} (${others.map((o) => `on ${NODEADM_RUNTIMES[o]} nodeadm defines only "${o}"`).join("; ")})`,
          }
        : { path, name },
    );
  }
  return out;
}

/*
 * The containerd an AL2023 AMI carries (eks-ami-facts.json `containerd.al2023`, generated from amazon-eks-ami
 * CHANGELOG.md: per AMI release and Kubernetes minor), and the two ways a containerd configuration written for
 * containerd 2 fails on containerd 1.x:
 * - `version = 3`: nodeadm merges the user's configuration over its own version-2 template (NODEADM_CONTAINERD_MERGE),
 *   so the file says version 3, and containerd 1.7 exits ("unsupported config version `3`": github.com/containerd/
 *   containerd@v1.7.30 services/server/config/config.go:98-110 ValidateV2, called by LoadConfig at :239);
 * - io.containerd.cri.v1.images / io.containerd.cri.v1.runtime named anywhere in the text: from the release in
 *   `v3KeysRefusedOn1` on, nodeadm stops on containerd 1.x ("failed to get config template version"; NODEADM_TEMPLATE);
 *   before it, containerd 1.7 loads no such plugin and the tables are ignored.
 */

/** The containerd majors an AL2023 AMI may carry, as far as the class's AMI selection and Kubernetes version say. */
export interface Al2023ContainerdMajors {
  /** 1 and/or 2. */
  readonly majors: readonly number[];
  /** The AMI is one pinned release whose containerd (for the cluster's minor, or for all its minors) is known. */
  readonly certain: boolean;
  /** The pinned release, if any. */
  readonly release?: string;
  /** What the class's AMI carries, for a message: `the AMI release v20250704 (containerd 1.7.27 for Kubernetes 1.27-1.33)`. */
  readonly text: string;
}

const containerdMajor = (version: string) => Number(version.split(".")[0]);

/** `containerd 1.7.27 for Kubernetes 1.28-1.31, 2.1.4 for Kubernetes 1.32-1.34` for one release's minors. */
function shippedText(byMinor: { readonly [minor: string]: string }): string {
  const byVersion = new Map<string, string[]>();
  for (const [m, v] of Object.entries(byMinor)) byVersion.set(v, [...(byVersion.get(v) ?? []), m]);
  return `containerd ${[...byVersion].map(([v, ms]) => `${v} for Kubernetes ${minorRanges(ms)}`).join(", ")}`;
}

/**
 * Per Kubernetes minor, the first AL2023 AMI release from which every release ships containerd 2, or that none does:
 * `containerd 2 from v20250915 for Kubernetes 1.34, …; containerd 1.7 on every release for Kubernetes 1.29 and older`.
 */
export function al2023ContainerdSummary(): string {
  const f = eksAmiFacts();
  const releases = Object.keys(f.containerd.al2023).sort();
  const minors = [...new Set(releases.flatMap((r) => Object.keys(f.containerd.al2023[r])))].sort(
    (a, b) => Number(a.split(".")[1]) - Number(b.split(".")[1]),
  );
  const from: string[] = [];
  const never: string[] = [];
  for (const m of minors) {
    const shipping = releases.filter((r) => f.containerd.al2023[r][m] !== undefined);
    const last1 = shipping.map((r) => containerdMajor(f.containerd.al2023[r][m])).lastIndexOf(1);
    if (last1 === shipping.length - 1) never.push(m);
    else from.push(`${shipping[last1 + 1]} for Kubernetes ${m}`);
  }
  return `AL2023 AMIs ship containerd 2 from ${from.join(", ")}, and containerd 1.7 on every release for Kubernetes ${minorRanges(never)} and on all releases before those (${f.repository} CHANGELOG.md at ${f.commit.slice(0, 8)}, the containerd package of each release and Kubernetes version)`;
}

/**
 * The containerd majors the AMIs of a class may carry: a pinned `al2023@v…` release's (for the cluster's minor when
 * known, else all the release's minors), for `al2023@latest` the newest release's for the minor (certain only that
 * it is no older; without a known minor, the newest release's minors), and both majors for AMIs selected otherwise or
 * releases the CHANGELOG has no AL2023 table for.
 */
export function al2023ContainerdMajors(ami: Al2023AmiRelease, kubernetesVersion?: string): Al2023ContainerdMajors {
  const table = eksAmiFacts().containerd.al2023;
  const minor = kubernetesMinor(kubernetesVersion);
  const majorsOf = (versions: readonly string[]) => [...new Set(versions.map(containerdMajor))].sort();
  if (ami !== undefined && ami !== "latest") {
    const byMinor = table[ami];
    if (!byMinor)
      return {
        majors: [1, 2],
        certain: false,
        release: ami,
        text: `the AMI release ${ami}, whose containerd ${eksAmiFacts().repository} CHANGELOG.md does not list`,
      };
    const judged = minor !== undefined && byMinor[minor] !== undefined ? { [minor]: byMinor[minor] } : byMinor;
    const majors = majorsOf(Object.values(judged));
    return {
      majors,
      certain: majors.length === 1,
      release: ami,
      text: `the AMI release ${ami} (${shippedText(judged)})`,
    };
  }
  if (ami === "latest") {
    const releases = Object.keys(table).sort().reverse();
    const newest = releases[0];
    const release = minor === undefined ? newest : releases.find((r) => table[r][minor] !== undefined);
    // Karpenter resolves the alias for the cluster's minor (its SSM parameter); unknown minor: the newest release's
    // minors, those still released (a minor no longer released is past EKS's extended support)
    if (release) {
      const judged = minor === undefined ? table[release] : { [minor]: table[release][minor] };
      return {
        majors: majorsOf(Object.values(judged)),
        certain: false,
        text: `al2023@latest${minor ? ` for Kubernetes ${minor}` : ""} (today ${release}: ${shippedText(judged)}; a later release may ship another)`,
      };
    }
  }
  return {
    majors: [1, 2],
    certain: false,
    text: "its AMIs by ID, name, tags or SSM parameter, whose containerd is not known at synth",
  };
}

/** A containerd configuration for containerd 2 on an AMI that may carry containerd 1.x. */
export interface ContainerdMajorProblem {
  /** `version = 3`, or the containerd-2-only plugin tables. */
  readonly what: string;
  /** Certain: the pinned release ships containerd 1.x and fails (a refusal); otherwise a warning. */
  readonly refused: boolean;
  /** The outcome on containerd 1.x, with its source. */
  readonly outcome: string;
}

/**
 * `version = 3`, and io.containerd.cri.v1.images / .runtime in the text, judged against the containerd the class's
 * AMIs carry ({@link al2023ContainerdMajors}): refused where the release pinned ships containerd 1.x and fails, a
 * warning where the AMI may carry containerd 1.x. Both pass where it carries containerd 2 only.
 */
export function containerdMajorProblems(
  doc: Record<string, unknown>,
  text: string,
  amis: Al2023ContainerdMajors,
): ContainerdMajorProblem[] {
  if (!amis.majors.includes(1)) return [];
  const out: ContainerdMajorProblem[] = [];
  const pinned1 = amis.certain && amis.majors.length === 1;
  if (typeof doc.version === "bigint" && doc.version > 2n)
    out.push({
      what: `version = ${doc.version}`,
      refused: pinned1,
      outcome: `nodeadm merges the configuration over its own version-2 template (${NODEADM_CONTAINERD_MERGE}), so the file says version ${doc.version}, and containerd 1.7 exits at start ("unsupported config version \`${doc.version}\`": github.com/containerd/containerd@v1.7.30 services/server/config/config.go:98-110, ValidateV2, called by LoadConfig at :239), so the node has no container runtime and never becomes ready`,
    });
  const v3 = ["io.containerd.cri.v1.images", "io.containerd.cri.v1.runtime"].filter((k) => text.includes(k));
  if (v3.length > 0) {
    const since = eksAmiFacts().containerd.v3KeysRefusedOn1;
    const stops = `nodeadm stops on containerd 1.x at a configuration whose text names ${v3.join(" or ")} ("failed to get config template version"; ${NODEADM_TEMPLATE}, ${since.at}; AMIs from ${since.since} on), so nodeadm init fails and the node never joins`;
    const ignored = `containerd 1.7 has no such plugin and ignores the tables, so the settings never reach the node`;
    // before that release, nodeadm lets them through and containerd 1.7 ignores them: dropped, a warning
    const old = amis.release !== undefined && amis.release < since.since;
    out.push({
      what: `${v3.join(" and ")} (containerd 2's CRI plugins)`,
      refused: pinned1 && !old,
      outcome: !pinned1
        ? `${stops}; on an AMI from before ${since.since} nodeadm lets them through, and ${ignored}`
        : old
          ? `nodeadm of this release (before ${since.since}) lets them through, and ${ignored}`
          : stops,
    });
  }
  return out;
}
