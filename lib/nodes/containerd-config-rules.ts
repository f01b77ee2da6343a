import { containerdConfigFields, ContainerdField } from "../versions/containerd-config";

/*
 * A NodeConfig's `spec.containerd.config` against containerd's configuration types (lib/versions/data/
 * containerd-config-fields.json, generated from containerd 1.7.30 and 2.2.3). containerd decodes every imported
 * file into its Config struct when it starts, and both go-toml v1 (containerd 1.7) and go-toml/v2 (containerd 2)
 * refuse a value of another TOML type than the field's; containerd then exits. Only what fails on every release read
 * is refused (a key both have, with the same kind), so the verdict does not depend on the AMI's containerd. Unknown keys
 * are ignored by both (v1 drops them, v2 logs "Ignoring unknown key in TOML"); plugin configuration is not judged.
 */

/** A value of the wrong TOML type: its dotted path, what the key takes, what it is. */
export interface ContainerdConfigProblem {
  readonly path: string;
  readonly want: string;
  readonly got: string;
  /** Where the key is declared, per release: `github.com/containerd/containerd@v1.7.30 services/…/config.go:37`. */
  readonly source: string;
}

const isTable = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x) && !(x instanceof Date);

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

/** Whether `x` decodes into `kind`; undefined when that is not certain (a float into an integer field). */
function fits(x: unknown, kind: ContainerdField["kind"]): boolean | undefined {
  switch (kind) {
    case "integer":
      return typeof x === "bigint" ? true : typeof x === "number" ? undefined : false;
    case "string":
      return typeof x === "string";
    case "boolean":
      return typeof x === "boolean";
    case "string list":
      return Array.isArray(x) && x.every((v) => typeof v === "string");
    case "string map":
      return isTable(x) && Object.values(x).every((v) => typeof v === "string");
    case "table":
    case "table map":
      return isTable(x);
    default:
      return true;
  }
}

const WANT: Record<ContainerdField["kind"], string> = {
  integer: "an integer",
  string: "a string",
  boolean: "true or false",
  "string list": "an array of strings",
  "string map": "a table of strings",
  "string list map": "a table of arrays of strings",
  table: "a table",
  "table map": "a table of tables",
  any: "any value",
};

/** Every value of `doc` (a parsed containerd configuration) that every containerd release read refuses to decode. */
export function containerdConfigProblems(doc: Record<string, unknown>): ContainerdConfigProblem[] {
  const releases = containerdConfigFields().releases;
  const out: ContainerdConfigProblem[] = [];
  const walk = (
    value: Record<string, unknown>,
    fields: readonly (Record<string, ContainerdField> | undefined)[],
    at: string,
  ) => {
    for (const [key, x] of Object.entries(value)) {
      const each = fields.map((f) => (f && Object.prototype.hasOwnProperty.call(f, key) ? f[key] : undefined));
      if (each.some((f) => f === undefined)) continue;
      const kinds = new Set(each.map((f) => f!.kind));
      if (kinds.size !== 1) continue;
      const kind = each[0]!.kind;
      const path = at ? `${at}.${key}` : key;
      const ok = fits(x, kind);
      if (ok === false) {
        out.push({
          path,
          want: WANT[kind],
          got: tomlType(x),
          source: releases
            .map((r, i) => `${r.containerd} ${r.file}${each[i]!.line ? `:${each[i]!.line}` : ""} (${r.decodedBy})`)
            .join("; "),
        });
        continue;
      }
      if (kind === "table" && isTable(x))
        walk(
          x,
          each.map((f) => f!.fields),
          path,
        );
      if (kind === "table map" && isTable(x))
        for (const [name, t] of Object.entries(x))
          if (isTable(t))
            walk(
              t,
              each.map((f) => f!.fields),
              `${path}.${name}`,
            );
          else
            out.push({
              path: `${path}.${name}`,
              want: "a table",
              got: tomlType(t),
              source: releases.map((r) => `${r.containerd} ${r.file}`).join("; "),
            });
    }
  };
  walk(
    doc,
    releases.map((r) => r.fields),
    "",
  );
  return out;
}
