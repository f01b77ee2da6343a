import type { ErrorCode } from "../core/error-codes";
import { LegacyManifestError } from "./legacy-manifest-error";
import { ConversionNote, ConversionNoteLevel } from "./types";

/*
 * Typed, tracked access to one parsed manifest object. Every key read is marked as used; at the
 * end the keys nobody read become notes, so no input field can be dropped without a note. Type
 * errors throw a LegacyManifestError naming the document, the line and the field path.
 */

/** A path inside a document: keys and list indexes. */
export type Path = readonly (string | number)[];

/** `["spec", "labels", "a/b", "requirements", 0]` → `spec.labels["a/b"].requirements[0]`. */
/**
 * A value of the input as a note shows it: JSON, cut at 200 characters (a 5 MB label value is not echoed
 * whole; the field names where it is).
 */
export function noteValue(value: unknown): string {
  let s: string | undefined;
  try {
    s = JSON.stringify(value);
  } catch {
    s = undefined;
  }
  if (s === undefined) return String(value);
  return s.length > 200 ? `${s.slice(0, 200)}… (${s.length} characters)` : s;
}

/**
 * Text from the input as a note or an error shows it: control characters (C0, DEL, C1) and the invisible
 * characters that reorder or hide text (bidirectional overrides and isolates, zero-width characters, line and
 * paragraph separators) escaped as `\u0000`, so a NUL or an escape sequence in a value reaches no terminal raw
 * and every character of the input can be seen (Unicode TR #36, "Unicode Security Considerations": bidi and
 * invisible characters). Notes are one line, so a tab or a newline in one came from the input and is escaped too.
 */
export function escapeControls(text: string): string {
  let out = "";
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    const hidden =
      c <= 0x1f ||
      (c >= 0x7f && c <= 0x9f) ||
      (c >= 0x200b && c <= 0x200f) ||
      (c >= 0x2028 && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069) ||
      c === 0xfeff;
    out += hidden ? `\\u${c.toString(16).padStart(4, "0")}` : ch;
  }
  return out;
}

function showPath(path: Path): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(p)) out += out === "" ? p : `.${p}`;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out;
}

/** The document an object lives in: its index, where list items start, and how to find lines. */
export interface DocumentInfo {
  /** 1-based document index. */
  readonly document: number;
  /** The path of the object inside the document (`["items", 2]` for an item of a List). */
  readonly base: Path;
  /** The 1-based line of a path inside the document (or of its nearest parent), when the parser knows it. */
  lineOf(path: Path): number | undefined;
}

/** The notes of one converted object, and the tracked readers of its input. */
export class ObjectContext {
  public readonly notes: ConversionNote[] = [];
  private readonly readers: Fields[] = [];

  constructor(public readonly doc: DocumentInfo) {}

  /**
   * The error names the document, the line of `path` (or of its nearest parent that has one) and
   * the path from the document's root, so an item of a List reads `items[2].spec…`.
   */
  public fail(code: ErrorCode, path: Path, value: unknown, allowed: string): never {
    const full = [...this.doc.base, ...path];
    throw new LegacyManifestError(
      code,
      this.doc.document,
      this.doc.lineOf(full),
      showPath(full) || "(document)",
      value,
      allowed,
    );
  }

  /** Adds a note about `field` (a path or an already formatted field name). */
  public note(level: ConversionNoteLevel, field: Path | string, message: string): void {
    this.notes.push({
      level,
      field: escapeControls(typeof field === "string" ? field : showPath(field)),
      message: escapeControls(message),
    });
  }

  /**
   * Adds an `action` note about a field that makes the v1 object, as converted, invalid ({@link ConversionNote.invalid}):
   * for Karpenter, or, with `byLibrary`, for this library's constructs only ({@link ConversionNote.refusedByLibrary}).
   */
  public invalid(field: Path | string, message: string, byLibrary = false): void {
    this.notes.push({
      level: "action",
      field: escapeControls(typeof field === "string" ? field : showPath(field)),
      message: escapeControls(message),
      invalid: true,
      ...(byLibrary ? { refusedByLibrary: true } : {}),
    });
  }

  /** A reader over `value`, which must be a mapping (else the call throws naming `what`). */
  public fields(path: Path, value: unknown, what: string): Fields {
    if (value === null || typeof value !== "object" || Array.isArray(value))
      this.fail("CONVERT_WRONG_TYPE", path, value, `${what} (a mapping)`);
    const f = new Fields(this, path, value as Record<string, unknown>);
    this.readers.push(f);
    return f;
  }

  /**
   * Notes every key that no reader used, as not converted: what happened (Karpenter never read it, the converted
   * object leaves it out) and what to do.
   * @param v1Field for a key of the input that the v1 object has a field of that name for (a later release's
   * field, such as EC2NodeClass `enclaveOptions` from 1.15), what to say about it; undefined otherwise
   */
  public noteUnused(what: string, v1Field?: (path: Path) => string | undefined): void {
    for (const r of this.readers) {
      for (const key of r.unused()) {
        const at = [...r.path, key];
        const value = noteValue(r.peek(key));
        const v1 = v1Field?.(at);
        this.note(
          "action",
          at,
          `not a field of ${what}, so Karpenter never applied it: not converted, the v1 object leaves it out (value was ${value}). ${v1 ?? `Check its spelling against the fields of ${what}; if it is no typo, delete it from the input`}`,
        );
      }
    }
  }
}

/** Tracked, typed reads of one mapping. */
export class Fields {
  private readonly used = new Set<string>();

  constructor(
    private readonly ctx: ObjectContext,
    public readonly path: Path,
    private readonly value: Record<string, unknown>,
  ) {}

  /** True when `key` is set to something other than null. */
  public has(key: string): boolean {
    return this.value[key] !== undefined && this.value[key] !== null;
  }

  /** The keys that are set (not null), in input order. */
  public keys(): string[] {
    return Object.keys(this.value).filter((k) => this.has(k));
  }

  /** The value without marking it used (for messages). */
  public peek(key: string): unknown {
    return this.value[key];
  }

  /** The raw value, marked used; null reads as undefined (Kubernetes treats null as unset). */
  public raw(key: string): unknown {
    this.used.add(key);
    const v = this.value[key];
    return v === null ? undefined : v;
  }

  /** Marks keys used without reading them (fields that are deliberately ignored and noted by the caller). */
  public consume(...keys: string[]): void {
    keys.forEach((k) => this.used.add(k));
  }

  /** The keys set but never read. */
  public unused(): string[] {
    return this.keys().filter((k) => !this.used.has(k));
  }

  public str(key: string, opts: { nonEmpty?: boolean } = {}): string | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (typeof v !== "string") this.ctx.fail("CONVERT_WRONG_TYPE", [...this.path, key], v, "a string");
    if (opts.nonEmpty && v.length === 0)
      this.ctx.fail("CONVERT_WRONG_TYPE", [...this.path, key], v, "a non-empty string");
    return v;
  }

  public int(key: string, min = -Number.MAX_SAFE_INTEGER, what = "a whole number"): number | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min)
      this.ctx.fail(
        "CONVERT_WRONG_TYPE",
        [...this.path, key],
        v,
        min > -Number.MAX_SAFE_INTEGER ? `${what} (≥ ${min})` : what,
      );
    return v;
  }

  public bool(key: string): boolean | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (typeof v !== "boolean") this.ctx.fail("CONVERT_WRONG_TYPE", [...this.path, key], v, "true or false");
    return v;
  }

  /** A map of string values (labels, annotations, tags, selectors). */
  public strMap(key: string): { [k: string]: string } | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    const at = [...this.path, key];
    if (typeof v !== "object" || Array.isArray(v))
      this.ctx.fail("CONVERT_WRONG_TYPE", at, v, "a mapping of string keys to string values");
    const out: { [k: string]: string } = {};
    for (const [k, x] of Object.entries(v as object)) {
      if (typeof x !== "string")
        this.ctx.fail("CONVERT_WRONG_TYPE", [...at, k], x, 'a string (quote values such as "true" or "1" in YAML)');
      out[k] = x;
    }
    return out;
  }

  /**
   * A map of Kubernetes quantities, each as a string: a YAML number (`cpu: 100`, `cpu: 1.5`) becomes
   * its text (`"100"`, `"1.5"`), which means the same quantity (the CRDs' quantities are int-or-string)
   * and is what the constructs take.
   */
  public quantityMap(key: string): { [k: string]: string } | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    const at = [...this.path, key];
    if (typeof v !== "object" || Array.isArray(v))
      this.ctx.fail("CONVERT_WRONG_TYPE", at, v, "a mapping of resource names to quantities");
    const out: { [k: string]: string } = {};
    for (const [k, x] of Object.entries(v as object)) {
      if (typeof x === "number" && !Number.isFinite(x))
        this.ctx.fail("CONVERT_QUANTITY", [...at, k], x, "a finite quantity");
      if (typeof x !== "string" && typeof x !== "number")
        this.ctx.fail("CONVERT_QUANTITY", [...at, k], x, 'a quantity such as 100, "500m" or "8Gi"');
      out[k] = String(x);
    }
    return out;
  }

  /** A list of strings; an unquoted YAML number or boolean item (`values: [2]`) is an error naming its index, not coerced. */
  public strList(key: string): string[] | undefined {
    const list = this.list(key);
    if (list === undefined) return undefined;
    list.forEach((x, i) => {
      if (typeof x !== "string")
        this.ctx.fail("CONVERT_WRONG_TYPE", [...this.path, key, i], x, 'a string (quote values such as "2" in YAML)');
    });
    return list as string[];
  }

  /** A list (items unchecked). */
  public list(key: string): unknown[] | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) this.ctx.fail("CONVERT_WRONG_TYPE", [...this.path, key], v, "a list");
    return v;
  }

  /** A list of mappings, each as a reader. */
  public objects(key: string, what: string): Fields[] | undefined {
    return this.list(key)?.map((x, i) => this.ctx.fields([...this.path, key, i], x, what));
  }

  /** A nested mapping as a reader. */
  public obj(key: string, what: string): Fields | undefined {
    const v = this.raw(key);
    return v === undefined ? undefined : this.ctx.fields([...this.path, key], v, what);
  }

  /** Typed `never`, so a required key reads `f.str("name") ?? f.fail("name", undefined, "…")`. */
  public fail(code: ErrorCode, key: string, value: unknown, allowed: string): never {
    return this.ctx.fail(code, [...this.path, key], value, allowed);
  }

  /** The path of `key` of this mapping. */
  public at(key: string | number): Path {
    return [...this.path, key];
  }
}
