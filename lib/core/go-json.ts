import { formatGoFloat32, type GoYamlValue } from "./go-yaml";

/*
 * encoding/json (Go 1.26, the v1 decoder: src/encoding/json/decode.go) decoding the JSON sigs.k8s.io/yaml v1.6.0
 * made of a YAML document into a Go type, as `yaml.Unmarshal` / `yaml.UnmarshalStrict` do (yaml.go:55-97), for the
 * few Go types configuration structs are made of. What it keeps of Go:
 *
 * - The JSON object's keys come sorted (json.Marshal sorts a map's keys by their bytes), and each is decoded in
 *   turn into the field it names: the field of that exact name, else the first whose name folds equal
 *   (decode.go:699-702; fold.go: Unicode simple folding, so `ſ` is `s` and the Kelvin sign `k`). Two spellings of
 *   one field are both decoded, the later into what the earlier left: a struct (behind a pointer too) and a map
 *   are filled in, not replaced (decode.go:604-800); a slice's elements are decoded into the elements already
 *   there, even those past its length (decode.go:541-570: SetLen keeps the backing array); a scalar is replaced.
 * - `null` sets a pointer, slice or map to nil and leaves a string or number as it was (decode.go literalStore).
 * - A value of the wrong JSON type is an error, and decoding goes on (decode.go saveError); with
 *   DisallowUnknownFields (UnmarshalStrict), so is a key of no field. Any error fails the whole decode.
 * - sigs.k8s.io/yaml (yaml.go:238-275) writes a number or boolean bound for a string field as its text first, a
 *   float as strconv.FormatFloat(f, 'g', -1, 32).
 */

/** A Go type a YAML document decodes into. */
export type GoType =
  | { readonly kind: "string" }
  | { readonly kind: "int32" }
  | { readonly kind: "ptr"; readonly elem: GoType }
  | { readonly kind: "slice"; readonly elem: GoType }
  | { readonly kind: "map"; readonly elem: GoType }
  | { readonly kind: "struct"; readonly fields: Readonly<Record<string, GoType>> };

export const GO_STRING: GoType = { kind: "string" };
export const GO_INT32: GoType = { kind: "int32" };
export const goPtr = (elem: GoType): GoType => ({ kind: "ptr", elem });
export const goSlice = (elem: GoType): GoType => ({ kind: "slice", elem });
/** map[string]T. */
export const goMap = (elem: GoType): GoType => ({ kind: "map", elem });
/** A struct by its fields' JSON names, in the order Go declares them (a folded name matches the first). */
export const goStruct = (fields: Record<string, GoType>): GoType => ({ kind: "struct", fields });

/**
 * A decoded Go value: a string, an int32 (a number), a struct (a record of every field), a slice (an array), a
 * map (a Map); a nil pointer, slice or map is null, a non-nil pointer its target.
 */
export type GoValue = null | string | number | GoValue[] | Map<string, GoValue> | { readonly [field: string]: GoValue };

/** One decoding error: where (the keys as written, and the Go fields and indices it reached), and what. */
export interface GoJsonProblem {
  /** The path as written: keys as the document spells them (`podTopologySpread.defaultConstraints[0].MaxSkew`). */
  readonly path: string;
  /** The same path by Go's JSON field names and list indices. */
  readonly trail: readonly (string | number)[];
  /** What is wrong, a sentence fragment after the path. */
  readonly problem: string;
}

/** A slice as Go holds it: the backing array (elements past the length survive a shorter decode) and a length. */
class Slice {
  constructor(
    readonly backing: Value[],
    public len: number,
  ) {}
}
type Struct = { [field: string]: Value };
type Value = null | string | number | Slice | Map<string, Value> | Struct;

/** Whether `key` names the (ASCII) field `name` as encoding/json's folding matches (fold.go foldName). */
export function goFieldNameMatches(key: string, name: string): boolean {
  // Unicode simple case folding per code point, as a regular expression with the `i` and `u` flags matches
  // (ECMAScript Canonicalize: CaseFolding.txt C and S), which is Go's unicode.SimpleFold orbit
  return key === name || new RegExp(`^${name.replace(/[^A-Za-z0-9]/g, (c) => `\\${c}`)}$`, "iu").test(key);
}

const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

const show = (v: GoYamlValue): string =>
  typeof v === "bigint"
    ? v.toString()
    : typeof v === "number"
      ? Number.isFinite(v)
        ? String(v)
        : formatGoFloat32(v)
      : v instanceof Map
        ? "a map"
        : Array.isArray(v)
          ? "a list"
          : JSON.stringify(v);

class JsonDecoder {
  readonly problems: GoJsonProblem[] = [];

  constructor(
    private readonly root: string,
    private readonly strict: boolean,
  ) {}

  private report(path: string, trail: readonly (string | number)[], problem: string) {
    this.problems.push({ path: path === "" ? this.root : path, trail, problem });
  }

  zero(t: GoType): Value {
    if (t.kind === "string") return "";
    if (t.kind === "int32") return 0;
    if (t.kind === "struct") return Object.fromEntries(Object.entries(t.fields).map(([f, ft]) => [f, this.zero(ft)]));
    return null;
  }

  decode(t: GoType, cur: Value, v: GoYamlValue, path: string, trail: readonly (string | number)[]): Value {
    if (v === null) return t.kind === "ptr" || t.kind === "slice" || t.kind === "map" ? null : cur;
    switch (t.kind) {
      case "string":
        if (typeof v === "string") return v;
        if (typeof v === "bigint" || typeof v === "boolean") return String(v);
        if (typeof v === "number") return formatGoFloat32(v);
        this.report(path, trail, `is not a string (it is ${show(v)})`);
        return cur;
      case "int32":
        if (typeof v === "bigint" && v >= -(2n ** 31n) && v < 2n ** 31n) return Number(v);
        // a float marshals as its shortest text ('e' from 1e21): ParseInt takes it when it is whole and in range
        if (typeof v === "number" && Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31) return v;
        // a quoted number reads as a string, and encoding/json refuses it before looking at its digits
        // (decode.go literalStore: "json: cannot unmarshal string into Go struct field … of type int32")
        if (typeof v === "string")
          this.report(
            path,
            trail,
            `is a string (${show(v)}), not a 32-bit whole number${/^-?[0-9]+$/.test(v) ? `: write ${v} unquoted` : ""} (encoding/json cannot unmarshal a string into an int32)`,
          );
        else if (typeof v === "bigint")
          this.report(path, trail, `is out of range (${show(v)}): a 32-bit whole number is -2147483648 to 2147483647`);
        else this.report(path, trail, `is not a 32-bit whole number (${show(v)})`);
        return cur;
      case "ptr":
        // decode.go indirect: a nil pointer gets a new target first, even when the value then fails
        return this.decode(t.elem, cur ?? this.zero(t.elem), v, path, trail);
      case "struct": {
        const s = cur as Struct;
        if (!(v instanceof Map)) {
          this.report(path, trail, `is not a map (it is ${show(v)})`);
          return s;
        }
        const names = Object.keys(t.fields);
        for (const k of [...v.keys()].sort(utf8Order)) {
          const at = path === "" ? k : `${path}.${k}`;
          const field = names.find((f) => f === k) ?? names.find((f) => goFieldNameMatches(k, f));
          if (field === undefined) {
            // decode.go:739-741: only DisallowUnknownFields refuses it; otherwise the value is skipped
            if (this.strict) this.report(path, trail, `has an unknown field "${k}" (known: ${names.join(", ")})`);
          } else s[field] = this.decode(t.fields[field], s[field], v.get(k)!, at, [...trail, field]);
        }
        return s;
      }
      case "map": {
        if (!(v instanceof Map)) {
          this.report(path, trail, `is not a map (it is ${show(v)})`);
          return cur;
        }
        const m = (cur as Map<string, Value> | null) ?? new Map<string, Value>();
        for (const k of [...v.keys()].sort(utf8Order))
          m.set(k, this.decode(t.elem, this.zero(t.elem), v.get(k)!, `${path}[${JSON.stringify(k)}]`, [...trail, k]));
        return m;
      }
      case "slice": {
        if (!Array.isArray(v)) {
          this.report(path, trail, `is not a list (it is ${show(v)})`);
          return cur;
        }
        const s = (cur as Slice | null) ?? new Slice([], 0);
        v.forEach((item, i) => {
          if (i >= s.len) s.len = i + 1;
          if (i >= s.backing.length) s.backing.push(this.zero(t.elem));
          s.backing[i] = this.decode(t.elem, s.backing[i], item, `${path}[${i}]`, [...trail, i]);
        });
        if (v.length < s.len) s.len = v.length;
        return s;
      }
    }
  }
}

function plain(v: Value): GoValue {
  if (v instanceof Slice) return v.backing.slice(0, v.len).map(plain);
  if (v instanceof Map) return new Map([...v].map(([k, e]) => [k, plain(e)]));
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, plain(e)]));
  return v;
}

/**
 * `value` (from {@link decodeGoYaml}) decoded by encoding/json into a zero value of `type`, with
 * DisallowUnknownFields when `strict` is set (sigs.k8s.io/yaml UnmarshalStrict) or without (Unmarshal, which drops
 * unknown keys). Every problem is named, where Go stops at the end with the first. `root` names the document in a
 * problem at its top (`the document has an unknown field …`).
 */
export function decodeGoJson(
  type: GoType,
  value: GoYamlValue,
  options: { readonly strict: boolean; readonly root: string },
): { readonly value: GoValue; readonly problems: readonly GoJsonProblem[] } {
  const d = new JsonDecoder(options.root, options.strict);
  const decoded = d.decode(type, d.zero(type), value, "", []);
  return { value: plain(decoded), problems: d.problems };
}
