import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments } from "yaml";
import type { Alias, Document, Node as YamlNode, Scalar } from "yaml";

/*
 * YAML as Go programs built on sigs.k8s.io/yaml v1.6.0 read it: go.yaml.in/yaml/v2 v2.4.4 (the version
 * sigs.k8s.io/karpenter v1.15.0's go.mod pins) decodes the first document into interface{}, then sigs.k8s.io/yaml
 * turns every map key into a string (yaml.go:156-183 yamlToJSONTarget, :186-260 convertToJSONableObject) and
 * encoding/json marshals the result. Each rule below names the Go code it follows; every case the tests name was
 * run through the real functions.
 *
 * The `yaml` package only tokenises here (schema "failsafe": every scalar is its text, with its style and tag),
 * because its YAML 1.1 schema is not go-yaml v2's: go-yaml v2 reads `0o7` and `08` as numbers (strconv.ParseInt
 * base 0, then ParseFloat), `1_` as 1, applies a `<<` merge in the order written (a later key overrides, a merge
 * after a key included), and its strict mode refuses a key a merge has set. The resolution and the decoder are
 * ported from go-yaml v2's resolve.go and decode.go.
 *
 * A policy of this library, not of Go: the values built through aliases are capped at
 * {@link MAX_ALIAS_EXPANSION} nodes a document. go-yaml v2 refuses only a high ratio of aliased to decoded nodes (see
 * `Decoder.count`), which lets up to ~400,000 aliased nodes through; the cap keeps an alias bomb from costing a
 * synth memory, and is far above any real configuration. Past the cap the decoder goes on counting without building
 * values, so Go's own verdict ("document contains excessive aliasing", which it reaches within ~500,000 nodes for text
 * of EC2's 16 KB) is still known: such a document is Go's refusal, one Go takes is `aliasCap` (not checked further).
 */

/**
 * A value as sigs.k8s.io/yaml hands it to encoding/json: go-yaml v2's `int`, `int64` and `uint64` are bigints,
 * `float64` a number (±Infinity and NaN included: json.Marshal refuses them unless a string field takes them),
 * a map's keys are strings (sigs.k8s.io/yaml's conversion), a timestamp is its text.
 */
export type GoYamlValue = null | boolean | string | bigint | number | GoYamlValue[] | GoYamlMap;
/** A YAML map with its keys as sigs.k8s.io/yaml turns them into strings, in the order written. */
export type GoYamlMap = Map<string, GoYamlValue>;

/** The result of {@link decodeGoYaml}: the value, or Go's error (the whole decode fails on it). */
export type GoYamlResult =
  | { readonly value: GoYamlValue }
  | {
      readonly error: string;
      /** the nesting is deeper than the stack */
      readonly tooDeep?: boolean;
      /** Go decodes the document, but its aliases expand past {@link MAX_ALIAS_EXPANSION} nodes (not Go's error) */
      readonly aliasCap?: boolean;
    };

/** The policy cap on nodes decoded through aliases in one document (see the file comment). */
export const MAX_ALIAS_EXPANSION = 10_000;

const STR = "tag:yaml.org,2002:str";
const INT = "tag:yaml.org,2002:int";
const FLOAT = "tag:yaml.org,2002:float";
const BOOL = "tag:yaml.org,2002:bool";
const NULL = "tag:yaml.org,2002:null";
const TIMESTAMP = "tag:yaml.org,2002:timestamp";
const BINARY = "tag:yaml.org,2002:binary";
const MERGE = "tag:yaml.org,2002:merge";
/** resolve.go:77-83 resolvableTag. */
const RESOLVABLE = new Set(["", STR, BOOL, INT, FLOAT, NULL, TIMESTAMP]);
const shortTag = (tag: string) => (tag.startsWith("tag:yaml.org,2002:") ? `!!${tag.slice(18)}` : tag);

/** resolve.go:31-45 resolveMapList: the plain scalars read by table (YAML 1.1 booleans among them). */
const RESOLVE_MAP = new Map<string, { tag: string; value: GoYamlValue }>();
for (const [value, tag, words] of [
  [true, BOOL, "y Y yes Yes YES true True TRUE on On ON"],
  [false, BOOL, "n N no No NO false False FALSE off Off OFF"],
  [null, NULL, "~ null Null NULL"],
  [NaN, FLOAT, ".nan .NaN .NAN"],
  [Infinity, FLOAT, ".inf .Inf .INF +.inf +.Inf +.INF"],
  [-Infinity, FLOAT, "-.inf -.Inf -.INF"],
] as const)
  for (const w of words.split(" ")) RESOLVE_MAP.set(w, { tag, value });
RESOLVE_MAP.set("", { tag: NULL, value: null });

const MAX_U64 = 2n ** 64n - 1n;
const MAX_I64 = 2n ** 63n - 1n;

/** Go's strconv.ParseUint(s, base, 64) (base 0: a `0x`, `0o`, `0b` or `0` prefix picks it); undefined on error. */
function parseUint(s: string, base: number): bigint | undefined {
  if (s === "") return undefined;
  if (base === 0) {
    base = 10;
    if (s[0] === "0") {
      const p = s.length >= 3 ? s[1].toLowerCase() : "";
      base = p === "b" ? 2 : p === "o" ? 8 : p === "x" ? 16 : 8;
      s = s.slice(p === "b" || p === "o" || p === "x" ? 2 : 1);
    }
  }
  let n = 0n;
  for (const c of s.toLowerCase()) {
    const d = c >= "0" && c <= "9" ? c.charCodeAt(0) - 48 : c >= "a" && c <= "z" ? c.charCodeAt(0) - 87 : base;
    if (d >= base) return undefined;
    n = n * BigInt(base) + BigInt(d);
    if (n > MAX_U64) return undefined;
  }
  return n;
}

/** Go's strconv.ParseInt(s, base, 64): a sign, then ParseUint, within int64. */
function parseInt64(s: string, base: number): bigint | undefined {
  const neg = s.startsWith("-");
  const u = parseUint(s.startsWith("+") || neg ? s.slice(1) : s, base);
  if (u === undefined || u > (neg ? MAX_I64 + 1n : MAX_I64)) return undefined;
  return neg ? -u : u;
}

/** strconv's underscoreOK (atoi.go): `_` only between digits (or after a base prefix). */
function underscoreOK(s: string): boolean {
  let saw = "^";
  let i = 0;
  if (s.startsWith("-") || s.startsWith("+")) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === "0" && "bBoOxX".includes(s[1])) {
    i = 2;
    saw = "0";
    hex = s[1] === "x" || s[1] === "X";
  }
  for (; i < s.length; i++) {
    if ((s[i] >= "0" && s[i] <= "9") || (hex && /[a-fA-F]/.test(s[i]))) saw = "0";
    else if (s[i] === "_") {
      if (saw !== "0") return false;
      saw = "_";
    } else if (saw === "_") return false;
    else saw = "!";
  }
  return saw !== "_";
}

/** resolve.go:87 yamlStyleFloat. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/**
 * Go's strconv.ParseFloat(s, 64) for the decimal forms go-yaml v2 hands it (a `.` first, or what yamlStyleFloat
 * matched): out of range (±Inf) is an error, underscores between digits are allowed.
 */
function parseDecimalFloat(s: string): number | undefined {
  if (s.includes("_") && !underscoreOK(s)) return undefined;
  const plain = s.replace(/_/g, "");
  if (!YAML_STYLE_FLOAT.test(plain)) return undefined;
  const f = Number(plain);
  return Number.isFinite(f) ? f : undefined;
}

/** time.Parse of go-yaml v2's timestamp layouts (resolve.go:226-258), by their shape. */
const TIMESTAMP_FORMS =
  /^\d{4}-\d{1,2}-\d{1,2}(?:(?:[Tt]\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))|(?: \d{1,2}:\d{1,2}:\d{1,2}(?:\.\d+)?))?$/;

class GoYamlFailure extends Error {}

/** A scalar's text as written (escapes applied), whatever schema the `yaml` package resolved it with. */
const sourceOf = (n: Scalar): string => n.source ?? String(n.value);
const fail = (msg: string): never => {
  throw new GoYamlFailure(`yaml: ${msg}`);
};

type Resolved = { tag: string; value: GoYamlValue; unsigned?: boolean };

/** resolve.go:89-213 resolve: the value and tag of a scalar with tag `tag` ("" for a plain one) and text `s`. */
function resolve(tag: string, s: string): Resolved {
  if (!RESOLVABLE.has(tag)) return { tag, value: s };
  const r = resolveAny(tag, s);
  if (tag === "" || tag === r.tag || tag === STR) return r;
  // resolve.go:94-113: an int under !!float becomes a float (a uint64 does not)
  if (tag === FLOAT && r.tag === INT && !r.unsigned) return { tag: FLOAT, value: Number(r.value) };
  return fail(`cannot decode ${shortTag(r.tag)} \`${s}\` as a ${shortTag(tag)}`);
}

function resolveAny(tag: string, s: string): Resolved {
  if (tag === STR) return { tag: STR, value: s };
  const c = s[0] ?? "";
  // resolve.go:21-29 resolveTable: the first byte decides what the scalar may be (anything else is a string)
  const hint =
    c === ""
      ? "N"
      : "+-".includes(c)
        ? "S"
        : /[0-9]/.test(c)
          ? "D"
          : "yYnNtTfFoO~".includes(c)
            ? "M"
            : c === "."
              ? "."
              : "";
  if (hint !== "") {
    const known = RESOLVE_MAP.get(s);
    if (known) return { tag: known.tag, value: known.value };
    if (hint === ".") {
      const f = parseDecimalFloat(s);
      if (f !== undefined) return { tag: FLOAT, value: f };
    } else if (hint === "D" || hint === "S") {
      if ((tag === "" || tag === TIMESTAMP) && TIMESTAMP_FORMS.test(s)) return { tag: TIMESTAMP, value: s };
      const plain = s.replace(/_/g, "");
      const i = parseInt64(plain, 0);
      if (i !== undefined) return { tag: INT, value: i };
      const u = parseUint(plain, 0);
      if (u !== undefined) return { tag: INT, value: u, unsigned: true };
      if (YAML_STYLE_FLOAT.test(plain)) {
        const f = Number(plain);
        if (Number.isFinite(f)) return { tag: FLOAT, value: f };
      }
      // resolve.go:176-200: `0b` and `-0b` read again in base 2 (so `0b-1` is -1)
      if (plain.startsWith("0b")) {
        const b = parseInt64(plain.slice(2), 2);
        if (b !== undefined) return { tag: INT, value: b };
        const ub = parseUint(plain.slice(2), 2);
        if (ub !== undefined) return { tag: INT, value: ub, unsigned: true };
      } else if (plain.startsWith("-0b")) {
        const b = parseInt64(`-${plain.slice(3)}`, 2);
        if (b !== undefined) return { tag: INT, value: b };
      }
    }
  }
  return { tag: STR, value: s };
}

/**
 * Whether go-yaml v2 reads `text`, written as a plain (unquoted) scalar, as that text: false for what it resolves
 * to another type (`yes`, `0o7`, `0b-1`, `1_`, `~`, the empty text), which a writer must quote. A timestamp counts as
 * text (decode.go:468-475 keeps its text in an interface{}).
 */
export function goYamlReadsPlainAsText(text: string): boolean {
  const { tag } = resolve("", text);
  return tag === STR || tag === TIMESTAMP;
}

/** The exact decimal digits of a positive finite double: value = 0.<digits> × 10^point. */
function exactDecimal(a: number): { digits: string; point: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const e2 = (biased === 0 ? 1 : biased) - 1075;
  const digits = (e2 >= 0 ? mantissa << BigInt(e2) : mantissa * 5n ** BigInt(-e2)).toString();
  return { digits: digits.replace(/0+$/, ""), point: digits.length + Math.min(e2, 0) };
}

/**
 * The fewest significant digits that read back as the float32 `v` (positive), the closest of them, a tie to
 * the even digit, as strconv's shortest formatting picks them (ftoaryu.go); exp is the power of ten of the first.
 */
function shortestFloat32(v: number): { digits: string; exp: number } {
  const { digits, point } = exactDecimal(v);
  // a power of two (a normal float32 of significand 2^23) has the narrower interval below it, and Dragonbox
  // (internal/strconv/ftoadbox.go:104-130, the shorter-interval case) rounds a tie up there
  const f32 = new DataView(new ArrayBuffer(4));
  f32.setFloat32(0, v);
  const powerOfTwo = (f32.getUint32(0) & 0x7fffff) === 0 && v >= 2 ** -126;
  for (let p = 1; p <= 17; p++) {
    if (digits.length <= p) return { digits, exp: point - 1 };
    const down = BigInt(digits.slice(0, p));
    const rest = digits.slice(p);
    const half = rest[0] === "5" && /^5?$/.test(rest) ? 0 : rest[0] >= "5" ? 1 : -1;
    const preferUp = half > 0 || (half === 0 && (powerOfTwo || down % 2n === 1n));
    const readsBack = (c: bigint) => Math.fround(Number(`${c}e${point - p}`)) === v;
    for (const c of preferUp ? [down + 1n, down] : [down, down + 1n])
      if (readsBack(c)) {
        const text = c.toString();
        return { digits: text.replace(/0+$/, ""), exp: point - p + text.length - 1 };
      }
  }
  return { digits, exp: point - 1 };
}

/** Go's strconv.FormatFloat(f, 'g', -1, 32): what sigs.k8s.io/yaml writes for a float map key or string field. */
export function formatGoFloat32(f: number): string {
  if (Number.isNaN(f)) return "NaN";
  const v = Math.fround(f);
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  const sign = v < 0 ? "-" : "";
  const { digits, exp } = shortestFloat32(Math.abs(v));
  // ftoa.go %g: %e when the exponent is below -4 or at least 6 (the precision Go uses for the shortest form)
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp).toString().padStart(2, "0");
    return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ""}e${exp < 0 ? "-" : "+"}${e}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  const int = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
  const frac = digits.slice(exp + 1);
  return `${sign}${int}${frac ? `.${frac}` : ""}`;
}

/** sigs.k8s.io/yaml yaml.go:200-236: a decoded map key as the string JSON gets. */
function keyString(k: GoYamlValue): string {
  if (typeof k === "string") return k;
  if (typeof k === "bigint") return k.toString();
  if (typeof k === "boolean") return String(k);
  if (typeof k === "number") {
    const s = formatGoFloat32(k);
    return s === "+Inf" ? ".inf" : s === "-Inf" ? "-.inf" : s === "NaN" ? ".nan" : s;
  }
  if (k === null) throw new GoYamlFailure("unsupported map key of type: <nil> (a null key)");
  return fail(`invalid map key: ${Array.isArray(k) ? "a list" : "a map"}`);
}

/** The identity go-yaml v2's strict mode compares keys by (decode.go:685-691: the Go value, before it is a string). */
function keyIdentity(k: GoYamlValue): string | undefined {
  // NaN equals no key, itself included; -0 is 0
  return typeof k === "number" && Number.isNaN(k) ? undefined : `${typeof k}:${String(k)}`;
}

/**
 * go-yaml v2's decoder (decode.go) into interface{}, over the `yaml` package's nodes of one document. Anchors
 * are resolved as its parser does (decode.go:180-189: the latest anchor of the name before the alias, itself
 * included while it is open).
 */
class Decoder {
  private decodeCount = 0;
  private aliasCount = 0;
  private aliasDepth = 0;
  /** Past {@link MAX_ALIAS_EXPANSION} aliased nodes: only counted on, to reach Go's verdict, no value built. */
  private counting = false;
  private readonly open = new Set<YamlNode>();
  private readonly duplicates: string[] = [];

  constructor(
    private readonly text: string,
    private readonly strict: boolean,
    private readonly targets: Map<Alias, YamlNode | string>,
  ) {}

  /** The line (from 1) a node starts on, for Go's messages. */
  private line(n: YamlNode | null): number {
    const at = n?.range?.[0] ?? 0;
    return this.text.slice(0, at).split("\n").length;
  }

  run(root: YamlNode | null): GoYamlResult {
    try {
      this.count(); // the document node
      const value = root === null ? null : this.node(root);
      // decode.go:685-691, yaml.go:148-157: strict mode's duplicate keys, all named, fail the decode at its end
      if (this.duplicates.length > 0) return { error: `yaml: unmarshal errors:\n  ${this.duplicates.join("\n  ")}` };
      if (this.counting)
        return {
          error: `the aliases expand to more than ${MAX_ALIAS_EXPANSION} nodes (a limit of this library against alias bombs; go-yaml v2 decodes this document)`,
          aliasCap: true,
        };
      return { value };
    } catch (e) {
      if (e instanceof GoYamlFailure) return { error: e.message };
      throw e;
    }
  }

  /** decode.go:350-358: every decoded node counts; go-yaml v2 refuses a document mostly made of aliases. */
  private count() {
    this.decodeCount++;
    if (this.aliasDepth > 0) this.aliasCount++;
    const d = this.decodeCount;
    const allowed = d <= 400_000 ? 0.99 : d >= 4_000_000 ? 0.1 : 0.99 - (0.89 * (d - 400_000)) / 3_600_000;
    if (this.aliasCount > 100 && d > 1000 && this.aliasCount / d > allowed)
      fail("document contains excessive aliasing");
    // past the cap: no more values, only Go's count (bounded by its ratio: see the file comment)
    if (this.aliasCount > MAX_ALIAS_EXPANSION) this.counting = true;
  }

  private node(n: YamlNode): GoYamlValue {
    this.count();
    if (isAlias(n)) {
      const target = this.targets.get(n);
      if (typeof target !== "object" || this.open.has(n)) return fail(`anchor '${n.source}' value contains itself`);
      this.open.add(n);
      this.aliasDepth++;
      try {
        return this.node(target);
      } finally {
        this.aliasDepth--;
        this.open.delete(n);
      }
    }
    if (isScalar(n)) return this.scalar(n);
    // a `k: v` in a flow sequence (`[k: v]`) is a map of one pair, which the `yaml` package keeps as a bare pair
    if (isSeq(n)) {
      const items = n.items.map((item) => (isPair(item) ? this.pairMap(item) : this.node(item as YamlNode)));
      return this.counting ? null : items;
    }
    if (isMap(n)) {
      const out: GoYamlMap = new Map();
      this.mapping(n.items, out, new Set());
      return out;
    }
    return fail("unsupported node");
  }

  private pairMap(pair: unknown): GoYamlMap {
    this.count();
    const out: GoYamlMap = new Map();
    this.mapping([pair], out, new Set());
    return out;
  }

  /** decode.go:411-480 scalar, for interface{}: a plain or non-specific (`!`) scalar is resolved, a quoted one is text. */
  private scalar(n: Scalar): GoYamlValue {
    const text = sourceOf(n);
    const tag = n.tag ?? "";
    if (tag === "" && n.type !== "PLAIN") return text;
    const r = resolve(tag, text);
    if (r.tag === BINARY) {
      const b64 = text.replace(/[\r\n]/g, "");
      if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64))
        fail("!!binary value contains invalid base64 data");
      return Buffer.from(b64, "base64").toString("utf8");
    }
    return r.value;
  }

  /**
   * decode.go:623-683 mapping and 786-815 merge: pairs in the order written; a `<<` merge decodes its map (or its
   * list of maps, last first) into this map at that point, so a key after it overrides and a merge after a key
   * overrides that key. In strict mode (decode.go:685-691) a key set twice, by a merge or not, is an error and the
   * first value stays.
   */
  private mapping(items: readonly unknown[], out: GoYamlMap, seen: Set<string>) {
    for (const pair of items) {
      if (!isPair(pair)) continue;
      const key = (pair.key ?? null) as YamlNode | null;
      const value = (pair.value ?? null) as YamlNode | null;
      // decode.go:817-819 isMerge: a `<<` that is plain or tagged !!merge (or the non-specific `!`), not quoted
      if (
        key !== null &&
        isScalar(key) &&
        sourceOf(key) === "<<" &&
        (key.tag === MERGE || key.tag === "!" || (!key.tag && key.type === "PLAIN"))
      ) {
        this.merge(value, out, seen);
        continue;
      }
      const k = key === null ? null : this.node(key);
      if (Array.isArray(k) || k instanceof Map) fail(`invalid map key: ${Array.isArray(k) ? "a list" : "a map"}`);
      const v = value === null ? null : this.node(value);
      const id = keyIdentity(k);
      if (this.strict && id !== undefined && seen.has(id)) {
        this.duplicates.push(`line ${this.line(value ?? key)}: key ${JSON.stringify(String(k))} already set in map`);
        continue;
      }
      if (id !== undefined) seen.add(id);
      // sigs.k8s.io/yaml yaml.go:196-236: the key as a string; keys equal as strings (1 and "1") keep one value
      // (Go's map order picks which; here the later)
      if (!this.counting) out.set(keyString(k), v);
    }
  }

  private merge(n: YamlNode | null, out: GoYamlMap, seen: Set<string>) {
    const mapOf = (m: YamlNode | null) => {
      const target = m !== null && isAlias(m) ? this.targets.get(m) : m;
      return target !== null && typeof target === "object" && isMap(target) ? target : undefined;
    };
    const wantMap = () => fail("map merge requires map or sequence of maps as the value");
    const one = (m: YamlNode) => {
      // a `k: v` in a flow list is a map of one pair (see node)
      if (isPair(m)) {
        this.count();
        this.mapping([m], out, seen);
        return;
      }
      // decode.go:786-797: a map or an alias of one is decoded into `out` (counted as a node, as d.unmarshal does)
      if (mapOf(m) === undefined) wantMap();
      this.count();
      if (isAlias(m)) {
        const target = this.targets.get(m) as YamlNode;
        if (this.open.has(m)) fail(`anchor '${m.source}' value contains itself`);
        this.open.add(m);
        this.aliasDepth++;
        try {
          this.count();
          this.mapping((target as { items: unknown[] }).items, out, seen);
        } finally {
          this.aliasDepth--;
          this.open.delete(m);
        }
      } else this.mapping((m as unknown as { items: unknown[] }).items, out, seen);
    };
    if (n !== null && isSeq(n)) {
      for (let i = n.items.length - 1; i >= 0; i--) one(n.items[i] as YamlNode);
    } else if (n !== null && (isMap(n) || isAlias(n))) one(n);
    else wantMap();
  }
}

/** Each alias of a document with the node of its anchor as go-yaml v2's parser finds it, or the name of a missing one. */
function aliasTargets(root: YamlNode | null): Map<Alias, YamlNode | string> {
  const anchors = new Map<string, YamlNode>();
  const targets = new Map<Alias, YamlNode | string>();
  const walk = (n: unknown): void => {
    if (n === null || typeof n !== "object") return;
    if (isAlias(n)) {
      targets.set(n, anchors.get(n.source) ?? n.source);
      return;
    }
    if (isPair(n)) {
      walk(n.key);
      walk(n.value);
      return;
    }
    const node = n as YamlNode;
    // decode.go:191-201: the anchor is known from its node's start, so an alias inside the node reaches it
    if (node.anchor) anchors.set(node.anchor, node);
    if (isMap(n) || isSeq(n)) n.items.forEach(walk);
  };
  walk(root);
  return targets;
}

/**
 * The aliases of `doc` that go-yaml v2 refuses as "unknown anchor": no anchor of their name comes before them in
 * the document (anchors are per document: one in an earlier document of the stream does not count).
 */
export function aliasesWithoutAnchor(doc: Document): Alias[] {
  return [...aliasTargets((doc.contents ?? null) as YamlNode | null)].flatMap(([a, t]) =>
    typeof t === "string" ? [a] : [],
  );
}

/**
 * The value of a parsed document (any schema: only each scalar's text, style and explicit tag are read) as
 * sigs.k8s.io/yaml v1.6.0 converts it before encoding/json: `Unmarshal` and `YAMLToJSON` (strict: false) or
 * `UnmarshalStrict` and `YAMLToJSONStrict` (strict: true, where a key set twice, by a `<<` merge too, fails). The
 * document's own parse errors are the caller's to check first.
 */
export function goYamlDocumentValue(doc: Document, text: string, options: { strict: boolean }): GoYamlResult {
  const root = (doc.contents ?? null) as YamlNode | null;
  const targets = aliasTargets(root);
  // decode.go:180-189: the parser refuses an alias of no earlier anchor before anything is decoded
  for (const t of targets.values())
    if (typeof t === "string") return { error: `yaml: unknown anchor '${t}' referenced` };
  try {
    return new Decoder(text, options.strict, targets).run(root);
  } catch (e) {
    // nesting deeper than the stack: go-yaml v2 refuses depth past 10,000 (parserc.go max_flow_level and
    // max_indents); here the stack ends first
    if (e instanceof RangeError) return tooDeep(text, undefined);
    throw e;
  }
}

/**
 * The first document of `text` as {@link goYamlDocumentValue} reads it, `{ value: null }` for an empty text. The
 * documents after the first are not read (go-yaml v2 yaml.go:unmarshal decodes one document). A text the `yaml`
 * package cannot parse is an error too (go-yaml v2's parser differs only in rare syntax).
 */
export function decodeGoYaml(text: string, options: { strict: boolean }): GoYamlResult {
  const docs = parseAllDocuments(text, { version: "1.1", schema: "failsafe", uniqueKeys: false, merge: false });
  const doc = Array.isArray(docs) ? docs[0] : undefined;
  if (doc === undefined) return { value: null };
  const err = doc.errors[0];
  if (err === undefined) return goYamlDocumentValue(doc, text, options);
  // the `yaml` package composes nested collections recursively and reports the JavaScript stack overflow
  // (compose-node.js: RangeError "Maximum call stack size exceeded") as a parse error with this code: the document
  // may be valid YAML (go-yaml v2 reads up to 10,000 levels), it is only deeper than this reader follows
  if (err.code === "RESOURCE_EXHAUSTION") return tooDeep(text, err.pos[0]);
  return { error: `yaml: ${err.message.split("\n")[0]}` };
}

/** A document deeper than the JavaScript stack lets the `yaml` package compose: its depth where reading stopped. */
function tooDeep(text: string, offset: number | undefined): GoYamlResult {
  let depth = "";
  if (offset !== undefined) {
    const before = text.slice(0, offset).split("\n");
    depth = ` at least ${yamlNesting(text, offset).at} levels deep (at line ${before.length}, column ${before[before.length - 1].length + 1}),`;
  }
  return {
    error: `yaml: the document nests${depth} deeper than this library's YAML reader can follow (the JavaScript call stack ends first; go-yaml v2 reads up to 10,000 levels), so it cannot be checked: it is not known to be invalid YAML`,
    tooDeep: true,
  };
}

/**
 * How deep YAML text nests: `at`, the collections open at `offset` (the whole text when undefined), and the deepest
 * point before it, `max`, with its 1-based `line` (and the deepest flow and block nesting apart, which go-yaml v2 limits
 * apart: scannerc.go max_flow_level, max_indents) and the flow brackets still `open` there. Counted are unclosed flow brackets (`[`, `{`, outside quotes and
 * comments), the block indentation levels open, and the `- ` entries that open block sequences on one line (`- - - x`).
 * An estimate read iteratively (no stack), for messages and for go-yaml v2's depth limit when no parser here can follow
 * the text; exact for the flow nesting such a document usually has.
 */
export function yamlNesting(
  text: string,
  offset?: number,
): { at: number; max: number; line: number; maxFlow: number; maxBlock: number; open: number } {
  const stop = offset === undefined ? text.length : Math.min(offset, text.length);
  let flow = 0;
  let quote: string | undefined;
  let block = 0;
  const indents: number[] = [];
  let depth = 0;
  let max = 0;
  let maxFlow = 0;
  let maxBlock = 0;
  let line = 1;
  let at = 1;
  for (let i = 0; i < stop; i++) {
    const ch = text[i];
    if ((i === 0 || text[i - 1] === "\n") && flow === 0 && quote === undefined) {
      const end = text.indexOf("\n", i);
      const rest = text.slice(i, end < 0 ? undefined : end);
      const indent = /^ */.exec(rest)![0].length;
      const body = rest.slice(indent);
      if (body.trim() !== "" && !body.startsWith("#")) {
        while (indents.length > 0 && indents[indents.length - 1] >= indent) indents.pop();
        indents.push(indent);
        // `- - - x`: each dash after the first opens a sequence inside the last
        block = /^(?:- +)*/.exec(body)![0].replace(/ +/g, "").length;
      } else block = 0;
    }
    if (quote !== undefined) {
      if (ch === "\\" && quote === '"') i++;
      else if (ch === quote) quote = undefined;
    } else if ((ch === '"' || ch === "'") && /[\s[{,:]/.test(text[i - 1] ?? " ")) quote = ch;
    else if (ch === "#" && /\s/.test(text[i - 1] ?? " ")) {
      const end = text.indexOf("\n", i);
      i = (end < 0 ? text.length : end) - 1;
    } else if (ch === "[" || ch === "{") flow++;
    else if ((ch === "]" || ch === "}") && flow > 0) flow--;
    const blockDepth = Math.max(0, indents.length - 1) + Math.max(0, block - 1);
    depth = flow + blockDepth;
    maxFlow = Math.max(maxFlow, flow);
    maxBlock = Math.max(maxBlock, blockDepth);
    if (depth > max) {
      max = depth;
      line = at;
    }
    if (text[i] === "\n") at++;
  }
  return { at: depth, max, line, maxFlow, maxBlock, open: flow };
}

/**
 * A decoded value as plain JavaScript, what `JSON.parse` of sigs.k8s.io/yaml's JSON gives: maps become objects
 * (in the order written), integers numbers.
 */
export function goYamlToJs(v: GoYamlValue): unknown {
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(goYamlToJs);
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    // defineProperty: a "__proto__" key is a key, not the object's prototype
    for (const [k, e] of v)
      Object.defineProperty(o, k, { value: goYamlToJs(e), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return v;
}
