import { API_SERVER_MAX_BODY_BYTES, jsonBytesAtLeast, mib } from "./object-size";
import { lookupTable } from "../core/lookup";
import type { IConstruct } from "constructs";
import { isPlainObject } from "../core/deep-merge";
import { constructName } from "../core/construct-name";
import { KarpenterValidationError, typeName } from "../core/errors";
import type { CheckerSubject, ErrorCode, GenericRule } from "../core/error-codes";
import type * as TokenHelpers from "../core/tokens";
import { KarpenterVersion } from "../versions/karpenter-version";
import { nearestKey, Problems } from "../core/problems";

/*
 * Kubernetes value rules shared by the NodePool and EC2NodeClass checks: object names, label
 * keys and values, quantities, durations, cron schedules. Patterns are those of the Karpenter
 * v1 CRDs (aws/karpenter-provider-aws pkg/apis/crds) and of k8s.io/apimachinery validation.
 */

/** DNS-1123 label (namespaces, service names): lowercase alphanumerics and `-`, ≤ 63 characters. */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** DNS-1123 subdomain (object names): lowercase alphanumerics, `-` and `.`, ≤ 253 characters. */
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** The name part of a qualified name, and a label value (which may also be empty). */
const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
/** Kubernetes resource quantity (the CRDs' `limits` / `kubeReserved` pattern). */
export const QUANTITY =
  /^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/;
/** `expireAfter` / `consolidateAfter`: `<n>h<n>m<n>s` in any combination, or `Never`. */
export const DURATION_OR_NEVER = /^(([0-9]+(s|m|h))+|Never)$/;
/** `terminationGracePeriod`: like {@link DURATION_OR_NEVER} without `Never`. */
export const DURATION = /^([0-9]+(s|m|h))+$/;
/** Budget `duration`: hours and/or minutes (`8h`, `30m`, `1h30m`), optionally followed by `0s`. */
export const BUDGET_DURATION = /^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$/;
/** Go `time.ParseDuration` (Terraform timeouts, kubelet durations): `20m`, `1h30m`, `1.5h`, `0`. */
export const GO_DURATION = /^[-+]?(0|((\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h))+)$/;

/** Go's `time.Duration` maximum, 2^63−1 ns: Karpenter and the providers parse durations with `time.ParseDuration`, which fails above it. */
export const MAX_DURATION_NS = 2n ** 63n - 1n;
/** {@link MAX_DURATION_NS} written as a duration (about 292 years): the bound where fractions of a second are allowed (Go durations). */
export const MAX_DURATION_TEXT = "2562047h47m16.854775807s";
/** The longest whole-second duration (`expireAfter`, `consolidateAfter`, `terminationGracePeriod`: their CRD patterns have no fractions). */
export const MAX_WHOLE_SECONDS_TEXT = "2562047h47m16s";
/** The longest whole-minute duration (budget `duration`: its CRD pattern takes hours and minutes only). */
export const MAX_WHOLE_MINUTES_TEXT = "2562047h47m";
/** The largest int64 (`int()` of the CRDs' CEL rules, Go's `strconv.Atoi` on 64-bit). */
export const INT64_MAX = 2n ** 63n - 1n;

const UNIT_NS: { readonly [unit: string]: bigint } = lookupTable({
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
});

/**
 * The length in nanoseconds of a Go duration (`"1h30m"`, `"1.5h"`, `"0"`; sign ignored), or
 * undefined when the text is not one. Fractions are cut to whole nanoseconds, as Go does.
 */
export function durationNanos(text: string): bigint | undefined {
  const body = text.replace(/^[-+]/, "");
  if (body === "0") return 0n;
  if (!/^((\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/.test(body)) return undefined;
  let total = 0n;
  for (const [, whole, fraction, unit] of body.matchAll(/(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/g)) {
    const ns = UNIT_NS[unit];
    total += BigInt(whole || "0") * ns;
    if (fraction) total += (BigInt(fraction) * ns) / 10n ** BigInt(fraction.length);
  }
  return total;
}

/**
 * The longest duration a pattern accepts that Go's `time.Duration` holds, as text. A pattern
 * with fractions (Go durations) reaches {@link MAX_DURATION_TEXT}; the CRD patterns of
 * `expireAfter` and friends stop at whole seconds, the budget `duration` at whole minutes, so
 * naming the fractional bound there would name a value the field rejects.
 */
export function maxDurationText(re: RegExp): string {
  if (re.test("1.5s")) return MAX_DURATION_TEXT;
  if (re.test("1s")) return MAX_WHOLE_SECONDS_TEXT;
  return MAX_WHOLE_MINUTES_TEXT;
}

/*
 * cdktf is loaded on first use, not at import: the manifest converter and its command line run
 * these rules on YAML (which never holds tokens) and must work where the cdktf peer dependency
 * is not installed. Without cdktf nothing can be a token.
 */
let tokenHelpers: { isToken(value: unknown): boolean; isUnresolved(value: unknown): boolean } | undefined;
function tokens(): NonNullable<typeof tokenHelpers> {
  if (!tokenHelpers) {
    try {
      const { Token } = require("cdktf") as typeof import("cdktf");
      const { isUnresolved } = require("../core/tokens") as typeof TokenHelpers;
      tokenHelpers = { isToken: (v) => Token.isUnresolved(v), isUnresolved };
    } catch (e) {
      if ((e as { code?: string }).code !== "MODULE_NOT_FOUND") throw e;
      tokenHelpers = { isToken: () => false, isUnresolved: () => false };
    }
  }
  return tokenHelpers;
}

/** True when `value` itself is a cdktf token (a string, number, list or map token); what it holds is not inspected. */
export function isToken(value: unknown): boolean {
  return value !== undefined && value !== null && tokens().isToken(value);
}

/**
 * An object of fields written as `{ … }` (not an array, not a Map, Set, Date or other class instance, whose JSON is
 * `{}` and would lose its content: fresh tester 20 C-1), and not itself a token; tokens among its fields are the
 * fields' business.
 */
export const isPlainFields = (x: unknown): x is Record<string, unknown> => isPlainObject(x) && !isToken(x);

/** True when `value` is or holds a cdktf token (never where cdktf is not installed). */
export function holdsToken(value: unknown): boolean {
  return value !== undefined && value !== null && tokens().isUnresolved(value);
}

export const DURATION_TEXT =
  'a duration of hours, minutes and seconds such as "30s", "5m", "720h" or "1h30m", or "Never"';
const QUANTITY_TEXT = 'a Kubernetes quantity such as "100", "500m" (millicores), "8Gi" or "1.5"';
const DNS1123_SUBDOMAIN_TEXT =
  "a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters";
const LABEL_VALUE_TEXT =
  "a label value: at most 63 characters, letters, digits, '-', '_' and '.', starting and ending with a letter or digit (or empty)";

/** How many missing items of one list {@link Checker.listItems} names one by one; the rest are counted in one more. */
const MAX_NAMED_MISSING = 10;

/**
 * Validation context of one construct: every failure becomes a KarpenterValidationError naming
 * the construct path, the field (a dot path into the props), the value and the rule.
 * Unresolved tokens are never judged.
 *
 * By default the first failure throws. A collecting checker (`{ collect: true }`, used by the
 * NodePool and Ec2NodeClass constructs and the manifest converter to report every problem of an
 * object) records the failure of each {@link guard}ed check and goes on with the next one; a
 * failure outside any guard still throws. A guard holds one independent check, or a check
 * together with the checks that depend on it (a rule over a parsed duration stops when the
 * duration does not parse).
 */
export class Checker {
  /** A collecting checker's store; its errors are kept whole (see {@link collected}). */
  private readonly problems?: Problems;

  /**
   * @param subject what the object is: the first part of the codes of the generic checks ({@link code})
   * @param where the construct path the errors name
   * @param version the Karpenter version the object is checked for
   * @param options `collect`: record failures per guarded check instead of throwing the first
   */
  constructor(
    public readonly subject: CheckerSubject,
    public readonly where: IConstruct | string,
    public readonly version: KarpenterVersion,
    options: { collect?: boolean } = {},
  ) {
    if (options.collect) this.problems = new Problems();
  }

  /** The code of a generic rule for this checker's subject, e.g. `NODEPOOL_NOT_IN_ENUM`. */
  public code(rule: GenericRule): ErrorCode {
    return `${this.subject}_${rule}`;
  }

  /**
   * Runs one check that does not depend on the others. Throwing checker: just runs it.
   * Collecting checker: a failure inside is recorded and the caller goes on.
   * @returns true when the check passed (a caller skips the checks that depend on it otherwise)
   */
  public guard(check: () => void): boolean {
    if (!this.problems) {
      check();
      return true;
    }
    return this.problems.passes(check);
  }

  /** True for a collecting checker (`{ collect: true }`). */
  public get collecting(): boolean {
    return this.problems !== undefined;
  }

  /**
   * The failures a collecting checker recorded, in check order (empty for a throwing checker), each
   * error whole: the callers keep one problem per field ({@link checkCrdThenSemantics}) or one note
   * per error (the converter), so an error gathering several problems is not split here.
   */
  public get collected(): readonly KarpenterValidationError[] {
    return this.problems?.recorded ?? [];
  }

  /**
   * Fails when `value` is set but needs Karpenter `minor` (e.g. "1.11") and the targeted version is older.
   * `source` says where that fact is from: the CRDs by default; a value the CRDs do not list (a
   * capacity type is a label value, not a CRD enum) names its own.
   */
  public since(
    field: string,
    value: unknown,
    minor: string | undefined,
    what: string,
    source = `first in the v${minor}.0 CRDs`,
  ): void {
    if (!isSet(value) || minor === undefined || this.version.atLeast(minor)) return;
    this.fail(
      this.code("NEEDS_NEWER_KARPENTER"),
      field,
      value,
      `${what} needs Karpenter ${minor} or later (${source}); this object targets Karpenter ${this.version.full}: upgrade Karpenter or remove it`,
    );
  }

  /**
   * Fails when `obj` is not an object (e.g. a string where `{ … }` belongs) or has a set key
   * outside `allowed` (the API server would silently prune it), with a "did you mean" when an
   * allowed key is a likely typo of it (see {@link suggestion}). A collecting checker reports every
   * such key, a throwing one the first. Tokens are not inspected.
   */
  public fields(field: string, obj: unknown, allowed: readonly string[], what: string): void {
    if (this.token(obj)) return;
    if (obj === null || typeof obj !== "object" || Array.isArray(obj))
      this.fail(this.code("NOT_AN_OBJECT"), field || "props", obj, `${what}: an object { ${allowed.join(", ")} }`);
    // a construct (a NodePool where a reference belongs) is named once as what it is, not each of its
    // properties as an unknown field
    if (constructName(obj) !== undefined)
      this.fail(
        this.code("NOT_AN_OBJECT"),
        field || "props",
        obj,
        `${what}: a plain object { ${allowed.join(", ")} }, not a construct`,
      );
    // a Map, Set or Date has no own fields: its JSON is `{}` (or a string), so what it holds would be dropped
    if (obj instanceof Map || obj instanceof Set || obj instanceof Date)
      this.fail(
        this.code("NOT_AN_OBJECT"),
        field || "props",
        obj,
        `${what}: a plain object { ${allowed.join(", ")} }, got ${typeName(obj)}`,
      );
    const unknown = Object.entries(obj)
      .filter(([k, x]) => isSet(x) && !allowed.includes(k))
      .map(
        ([k, x]) =>
          new KarpenterValidationError(
            this.code("UNKNOWN_FIELD"),
            this.where,
            field ? `${field}.${k}` : k,
            x,
            withSuggestion(
              `not a field of ${what} (an unknown field would be silently dropped)`,
              k,
              allowed,
              `known fields are ${allowed.join(", ")}`,
            ),
          ),
      );
    if (unknown.length === 0) return;
    // every unknown field at once (Karpenter's API server names them all): a collecting checker
    // records all but the last, which fails this check like any other failure
    if (this.problems) for (const e of unknown.slice(0, -1)) this.problems.add(e);
    throw unknown[this.problems ? unknown.length - 1 : 0];
  }

  /**
   * Fails for a map entry whose KEY is the problem: the error names the entry (`labels["k"]`) and
   * shows the entry's value, and `why` says what is wrong with the key, e.g. `is restricted: …`.
   */
  public failKey(code: ErrorCode, field: string, key: string, value: unknown, why: string): never {
    this.fail(code, entry(field, key), value, keyText(key, why));
  }

  /**
   * Throws a KarpenterValidationError naming this checker's construct path. Typed `never`, so a
   * check reads as a guard clause and TypeScript narrows the value after it.
   */
  public fail(code: ErrorCode, field: string, value: unknown, allowed: string): never {
    throw new KarpenterValidationError(code, this.where, field, value, allowed);
  }

  /** True when `value` itself is a token (a list, map or object token); its parts are not inspected. */
  public token(value: unknown): boolean {
    return isToken(value);
  }

  /** True when `value` is set and known at synth (no token anywhere inside). */
  public known<T>(value: T | undefined): value is T {
    return value !== undefined && value !== null && !tokens().isUnresolved(value);
  }

  /** A known string matching `re`. */
  public pattern(field: string, value: string | undefined, re: RegExp, allowed: string): void {
    if (!this.known(value)) return;
    if (typeof value !== "string" || !re.test(value)) this.fail(this.code("FORMAT"), field, value, allowed);
  }

  /**
   * A known duration matching `re` (`"Never"` passes when `re` allows it) that Go's
   * `time.ParseDuration` can represent. The maximum named is the longest value `re` itself
   * accepts (see {@link maxDurationText}).
   */
  public duration(field: string, value: string | undefined, re: RegExp, allowed: string): void {
    this.pattern(field, value, re, allowed);
    if (!this.known(value)) return;
    const ns = durationNanos(value);
    if (ns !== undefined && ns > MAX_DURATION_NS) {
      const never = re.test("Never") ? '; use "Never" for no limit' : "";
      this.fail(
        this.code("DURATION_TOO_LONG"),
        field,
        value,
        `${allowed}, at most ${maxDurationText(re)} (about 292 years): Karpenter parses durations with Go's time.ParseDuration, which fails on longer ones${never}`,
      );
    }
  }

  /** A known value from a fixed list. */
  public oneOf<T>(field: string, value: T | undefined, allowed: readonly T[]): void {
    if (!this.known(value)) return;
    if (!allowed.includes(value))
      this.fail(this.code("NOT_IN_ENUM"), field, value, `one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}`);
  }

  /**
   * A known whole number within [min, max]. The bounds default to int32's range: most integer
   * fields of the CRDs are `format: int32`, and the API server rejects larger values. A `max` of
   * `Infinity` (or at least `Number.MAX_SAFE_INTEGER`) means no upper bound (see {@link wholeNumberText}).
   */
  public int(field: string, value: number | undefined, min?: number, max?: number): void {
    if (!this.known(value)) return;
    const lo = min ?? INT32_MIN;
    const hi = Math.min(max ?? INT32_MAX, Number.MAX_SAFE_INTEGER);
    // a number in quotes (YAML, an environment variable) is a type mistake, not a range one
    if (typeof value !== "number")
      this.fail(
        this.code("NOT_A_NUMBER"),
        field,
        value,
        `a number, got ${typeName(value)}: ${wholeNumberText(lo, max ?? INT32_MAX)}${typeof value === "string" && /^-?\d+$/.test(value) ? ` (write ${value}, not "${value}")` : ""}`,
      );
    if (!Number.isInteger(value) || value < lo || value > hi) {
      this.fail(this.code("INTEGER_RANGE"), field, value, wholeNumberText(lo, max ?? INT32_MAX, value));
    }
  }

  /** A known boolean; the string `"true"` (as YAML or an environment variable gives it) is rejected, not coerced. */
  public bool(field: string, value: boolean | undefined): void {
    if (this.known(value) && typeof value !== "boolean")
      this.fail(this.code("NOT_A_BOOLEAN"), field, value, `true or false, got ${typeName(value)}`);
  }

  /** A known string (any content), optionally non-empty and at most `maxLength` characters. */
  public str(field: string, value: string | undefined, opts: { nonEmpty?: boolean; maxLength?: number } = {}): void {
    if (!this.known(value)) return;
    if (typeof value !== "string")
      this.fail(this.code("NOT_A_STRING"), field, value, `a string, got ${typeName(value)}`);
    if (opts.nonEmpty && value.length === 0) this.fail(this.code("STRING_LENGTH"), field, value, "a non-empty string");
    if (opts.maxLength !== undefined && value.length > opts.maxLength)
      this.fail(this.code("STRING_LENGTH"), field, value, `at most ${opts.maxLength} characters (got ${value.length})`);
  }

  /**
   * A known array with a length in [min, max] and no null / undefined items (they would be
   * emitted as null, which no list of the CRDs takes); returns the known array (or undefined).
   */
  public list<T>(field: string, value: T[] | undefined, min: number, max: number): T[] | undefined {
    if (value === undefined || value === null || this.token(value)) return undefined;
    if (typeof value === "string")
      this.fail(
        this.code("NOT_A_LIST"),
        field,
        value,
        `a list, got a string: pass the items as an array (["a", "b"], not "a,b"), or Fn.split(",", <string>) for a string known only at apply`,
      );
    if (!Array.isArray(value)) this.fail(this.code("NOT_A_LIST"), field, value, `a list, got ${typeName(value)}`);
    if (value.length < min || value.length > max)
      this.fail(
        this.code("LIST_LENGTH"),
        field,
        value,
        min === max
          ? `exactly ${min} item(s)`
          : max === Infinity
            ? `at least ${min} item(s) (got ${value.length})`
            : `${min} to ${max} items (got ${value.length})`,
      );
    // by index, not forEach: forEach skips the hole of a sparse array ([, "10.100.0.10"]), which the manifest's JSON
    // then writes as null or drops, silently changing the list the user wrote (fresh15 C-1, CF-1)
    for (let i = 0; i < value.length; i++) {
      const x: unknown = value[i];
      if (x === undefined || x === null)
        this.fail(
          this.code("LIST_ITEM_MISSING"),
          `${field}[${i}]`,
          x,
          i in value
            ? "a list item (null and undefined items are not allowed: leave the item out)"
            : "a list item, not a hole of a sparse array ([, x]; holes are not allowed: leave the item out)",
        );
    }
    return value;
  }

  /**
   * Fails for every item of every list inside `props` (the props of a node object; the keys in `skip`, which hold
   * constructs, left out) that is undefined or a hole of a sparse array, each at its path (`kubelet.clusterDNS[0]`,
   * `taints[1]`), code `<SUBJECT>_LIST_ITEM_MISSING`: the manifest's JSON would write it as null or drop it, a
   * silent change of what the user wrote (fresh15 C-1, CF-1: several lists dropped a hole quietly, others read it
   * and stopped). A null item the user wrote is the list's own check's (Checker.list refuses it, same code). Like {@link fields}, a collecting
   * checker records all but the last, which fails this check. Only plain maps and lists are entered (no token, no
   * construct); the props passed checkPropsWalkable (nodes/manifests.ts: no cycle, nesting bounded) already.
   */
  public listItems(props: unknown, skip: readonly string[] = []): void {
    const missing: KarpenterValidationError[] = [];
    const stack: { value: unknown; path: string }[] = [{ value: props, path: "" }];
    const seen = new Set<object>();
    while (stack.length > 0) {
      const { value, path } = stack.pop()!;
      if (this.token(value) || (!Array.isArray(value) && !isPlainObject(value)) || seen.has(value as object)) continue;
      seen.add(value as object);
      const children: { value: unknown; path: string }[] = [];
      if (Array.isArray(value)) {
        // by index: forEach and map skip a hole
        let named = 0;
        const missingAt = (i: number, allowed: string) =>
          new KarpenterValidationError(this.code("LIST_ITEM_MISSING"), this.where, `${path}[${i}]`, undefined, allowed);
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          // an explicit null is left to the list's own check (Checker.list refuses it in a list the CRD types; a
          // free-form kubelet list decodes it as Go's zero value): only what JSON would silently change is refused here
          if (item === null) continue;
          if (item === undefined && ++named > MAX_NAMED_MISSING) {
            // the rest of a long sparse list counted, not named: an error each would be thousands of lines (and memory)
            let more = 1;
            for (let j = i + 1; j < value.length; j++) if (value[j] === undefined) more++;
            missing.push(
              missingAt(
                i,
                `a list item: ${more} more missing items (undefined or holes of a sparse array) from ${path}[${i}] on, after the ${MAX_NAMED_MISSING} named above (leave them out)`,
              ),
            );
            break;
          }
          if (item === undefined)
            missing.push(
              missingAt(
                i,
                i in value
                  ? "a list item (null and undefined items are not allowed: leave the item out)"
                  : "a list item, not a hole of a sparse array ([, x]; holes are not allowed: leave the item out)",
              ),
            );
          else children.push({ value: item, path: `${path}[${i}]` });
        }
      } else
        for (const [k, v] of Object.entries(value as object))
          if (path !== "" || !skip.includes(k))
            children.push({
              value: v,
              path: path === "" ? k : /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`,
            });
      // reversed, so that the items are reported in the order of the props
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
    if (missing.length === 0) return;
    if (this.problems) for (const e of missing.slice(0, -1)) this.problems.add(e);
    throw missing[this.problems ? missing.length - 1 : 0];
  }

  /**
   * A string map of at most `maxKeys` entries (unless it is a token); returns its set entries
   * (keys or values may be tokens; null values count as unset). Problems of an entry, its key or
   * its value, are reported on `field["key"]` ({@link entry}) showing the entry's value; when the
   * key is the problem the message says so ({@link failKey}).
   */
  public map(field: string, value: { [k: string]: string } | undefined, maxKeys = Infinity): [string, string][] {
    if (value === undefined || value === null || this.token(value)) return [];
    if (typeof value !== "object" || Array.isArray(value))
      this.fail(this.code("NOT_A_MAP"), field, value, "a map of string keys to string values");
    // a Map (or another class instance) has no own entries: its JSON is `{}`, so what it holds would be dropped
    if (!isPlainObject(value))
      this.fail(
        this.code("NOT_A_MAP"),
        field,
        value,
        `a plain object of string keys to string values ({ key: "value" }), got ${typeName(value)}${(value as unknown) instanceof Map ? ": write Object.fromEntries(map)" : ""}`,
      );
    const entries = Object.entries(value).filter(([, v]) => isSet(v));
    if (entries.length > maxKeys)
      this.fail(this.code("MAP_SIZE"), field, value, `at most ${maxKeys} entries (got ${entries.length})`);
    for (const [k, v] of entries)
      if (this.known(v) && typeof v !== "string") this.fail(this.code("NOT_A_STRING"), entry(field, k), v, "a string");
    return entries;
  }

  /** The field name of a map entry: `labels["team"]`. */
  public entry(field: string, key: string): string {
    return entry(field, key);
  }

  /** A known object name (DNS-1123 subdomain). */
  public dnsName(field: string, value: string | undefined): void {
    if (!this.known(value)) return;
    if (!isDns1123Subdomain(value)) this.fail(this.code("NOT_A_DNS_NAME"), field, value, DNS1123_SUBDOMAIN_TEXT);
  }

  /** A known Kubernetes qualified name (`[prefix/]name`): label, annotation, taint and requirement keys. */
  public qualifiedName(field: string, value: string | undefined, what = "key"): void {
    if (!this.known(value)) return;
    const problem = qualifiedNameProblem(value);
    if (problem)
      this.fail(
        this.code("NOT_A_QUALIFIED_NAME"),
        field,
        value,
        `a Kubernetes qualified ${what} "[prefix/]name": ${problem}`,
      );
  }

  /** A known label value: empty, or ≤ 63 alphanumerics, `-`, `_`, `.`, starting and ending alphanumeric. */
  public labelValue(field: string, value: string | undefined): void {
    if (!this.known(value)) return;
    if (typeof value !== "string")
      this.fail(
        this.code("NOT_A_LABEL_VALUE"),
        field,
        value,
        `a string, got ${typeName(value)}${typeof value === "number" ? ` (write "${value}")` : ""}: ${LABEL_VALUE_TEXT}`,
      );
    if (!isLabelValue(value)) this.fail(this.code("NOT_A_LABEL_VALUE"), field, value, LABEL_VALUE_TEXT);
  }

  /** A known non-negative Kubernetes quantity written as a string (`"100"`, `"500m"`, `"8Gi"`). */
  public quantity(field: string, value: string | undefined): void {
    if (!this.known(value)) return;
    if (typeof value !== "string")
      this.fail(this.code("NOT_A_QUANTITY"), field, value, `${QUANTITY_TEXT}, as a string (got ${typeName(value)})`);
    if (!QUANTITY.test(value)) this.fail(this.code("NOT_A_QUANTITY"), field, value, QUANTITY_TEXT);
    if (isNegativeQuantity(value)) this.fail(this.code("NEGATIVE_QUANTITY"), field, value, "a non-negative quantity");
  }
}

/** Whether a quantity the pattern accepts is below zero: a "-" before a number that is not zero ("-0" is 0). */
export function isNegativeQuantity(value: string): boolean {
  return quantitySign(value) === -1;
}

/**
 * The sign of a quantity string by its number part (`-1`, `0`, `1`): `"0Gi"`, `"0.0"`, `"-0"` and `"0e3"` are 0,
 * `"-1Mi"` is -1. Read from the leading sign and digits only (what precedes a suffix or exponent), so it also serves a
 * string {@link QUANTITY} does not take; undefined when no digit leads it.
 */
export function quantitySign(value: string): -1 | 0 | 1 | undefined {
  const m = /^([+-]?)([0-9]*\.?[0-9]*)/.exec(value)!;
  if (!/[0-9]/.test(m[2])) return undefined;
  if (!/[1-9]/.test(m[2])) return 0;
  return m[1] === "-" ? -1 : 1;
}

/**
 * Runs an object's CRD rules (`crd`, on the collecting checker `c`: every guarded check runs, and
 * only checks that depend on a field an earlier check rejected are skipped) and then every
 * semantic rule (`semantic`, each collected too), and throws every problem found in one
 * KarpenterValidationError, so a user fixes them in one round. One problem per field is kept (the
 * first: a field a check rejected is not judged again by a later one), a semantic problem on a
 * field the CRD rules already rejected (or on an item with a rejected field inside) is left out, and so is a semantic rule that stumbles over
 * input the CRD rules rejected.
 * @param c a collecting checker (`{ collect: true }`) of the object
 * @param props the object's props as the user wrote them: every undefined or hole list item in them is
 *   reported first ({@link Checker.listItems})
 * @param skip the props that hold constructs (`karpenter`, `nodeClass`, `dependsOn`, …), not walked
 * @throws KarpenterValidationError with each problem in `problems`
 */
export function checkCrdThenSemantics(
  c: Checker,
  crd: () => void,
  semantic: (c: Checker) => void,
  props?: object,
  skip: readonly string[] = [],
): void {
  if (!c.collecting) throw new Error("checkCrdThenSemantics needs a collecting Checker");
  // first: a missing list item is named as such (every one, in any list of the props), before the list's own checks
  // (whose problem at the same field onePerField then drops)
  if (props !== undefined) c.guard(() => c.listItems(props, skip));
  // the lists holding such an item: a rule over the whole list counted or read the missing item ("has 2 terms",
  // `[null,"10.100.0.10"]` is more than one address), so its problem is left out until the item is
  const holders = new Set(
    c.collected.filter((e) => e.code === c.code("LIST_ITEM_MISSING")).map((e) => e.field.replace(/\[\d+\]$/, "")),
  );
  const onItems = (e: KarpenterValidationError) => !holders.has(e.field);
  c.guard(crd);
  const problems = onePerField(c.collected).filter(onItems);
  const s = new Checker(c.subject, c.where, c.version, { collect: true });
  try {
    semantic(s);
  } catch (e) {
    if (problems.length === 0) throw e;
  }
  const rejected = problems.map((p) => p.field);
  // a semantic rule over a whole item (`requirements[0]`) is left out too when a field inside it was rejected
  const judged = (field: string) =>
    rejected.some((r) => r === field || r.startsWith(`${field}.`) || r.startsWith(`${field}[`));
  problems.push(...onePerField(s.collected).filter((p) => !judged(p.field) && onItems(p)));
  if (props !== undefined) {
    // the manifest's JSON is about the props' (the spec fields and a few bytes): counted without the props already
    // refused (a 4 MB userData is EC2's 16 KB limit's problem), what is left the API server must still take
    const refused = new Set(problems.map((p) => p.field.split(/[.[]/)[0]));
    const rest = Object.fromEntries(Object.entries(props).filter(([k]) => !skip.includes(k) && !refused.has(k)));
    if (jsonBytesAtLeast(rest, API_SERVER_MAX_BODY_BYTES) > API_SERVER_MAX_BODY_BYTES)
      problems.push(
        new KarpenterValidationError(
          "NODE_MANIFEST_TOO_LARGE",
          c.where,
          "props",
          `(more than ${mib(API_SERVER_MAX_BODY_BYTES)} of JSON)`,
          `props whose manifest the API server can take: it accepts at most ${mib(API_SERVER_MAX_BODY_BYTES)} of JSON in one request (MaxRequestBodyBytes), and these props are more, so every apply would fail ("the request is too large"). Split the object into several, or shorten its longest lists and strings`,
        ),
      );
  }
  if (problems.length === 0) return;
  const path = typeof c.where === "string" ? c.where : c.where.node.path;
  throw KarpenterValidationError.combine(
    problems,
    problems.length > 1 ? `${path}: ${problems.length} problems` : undefined,
  );
}

/** The first problem of each field, in order. */
function onePerField(problems: readonly KarpenterValidationError[]): KarpenterValidationError[] {
  const seen = new Set<string>();
  const first: KarpenterValidationError[] = [];
  for (const p of problems) {
    if (seen.has(p.field)) continue;
    seen.add(p.field);
    first.push(p);
  }
  return first;
}

/** The field name of a map entry, `field["key"]` (e.g. `labels["karpenter.sh/foo"]`): every map entry is named so. */
export function entry(field: string, key: string): string {
  return `${field}[${JSON.stringify(key)}]`;
}

/** What is wrong with a map key, for an error on its entry: `the key "karpenter.sh/nodepool" is restricted: …`. */
export function keyText(key: string, why: string): string {
  return `the key ${JSON.stringify(key)} ${why}`;
}

/**
 * `did you mean X?` when one of `known` is a likely typo of `key` (see {@link nearestKey}), with a
 * note when the two differ only in case (Kubernetes and Karpenter field names are case-sensitive);
 * else undefined.
 */
export function suggestion(key: string, known: readonly string[]): string | undefined {
  const near = nearestKey(key, known);
  if (near === undefined) return undefined;
  return near.toLowerCase() === key.toLowerCase()
    ? `did you mean ${near} (names are case-sensitive)?`
    : `did you mean ${near}?`;
}

/**
 * `<what>` followed by the list of what is known: `; did you mean X? The <list>` when a typo is
 * likely, else `: the <list>`. E.g. `not a field of kubelet (…); did you mean maxPods? The known fields are …`.
 */
export function withSuggestion(what: string, key: string, known: readonly string[], list: string): string {
  const s = suggestion(key, known);
  return s ? `${what}; ${s} The ${list}` : `${what}: the ${list}`;
}

/** The bounds of a Kubernetes `int32` field (OpenAPI format int32; Go's int32). */
export const INT32_MIN = -2147483648;
/** The upper bound of a Kubernetes `int32` field. */
export const INT32_MAX = 2147483647;

/**
 * What a whole-number field takes: `a whole number from 1 to 100`, or `a whole number, 0 or more`
 * when there is no upper bound (`hi` Infinity or beyond `Number.MAX_SAFE_INTEGER`: the int64 fields
 * of the CRDs). A `value` beyond `Number.MAX_SAFE_INTEGER` is told that limit: JavaScript holds no
 * larger whole number exactly.
 */
export function wholeNumberText(lo: number, hi: number, value?: unknown): string {
  if (hi < Number.MAX_SAFE_INTEGER) return `a whole number from ${lo} to ${hi}`;
  const text = `a whole number, ${lo} or more`;
  return typeof value === "number" && value > Number.MAX_SAFE_INTEGER
    ? `${text}, and at most ${Number.MAX_SAFE_INTEGER}: a larger number is not exact in JavaScript`
    : text;
}

/** True when a prop is set: neither undefined nor null (null counts as unset, as in Kubernetes). */
export function isSet<T>(value: T): value is NonNullable<T> {
  return value !== undefined && value !== null;
}

/*
 * The name rules of k8s.io/apimachinery/pkg/util/validation, as predicates on plain strings
 * (tokens are the caller's business: these never see one from a Checker).
 */

/** A DNS-1123 label (`IsDNS1123Label`: namespaces, Helm release names): 1–63 lowercase letters, digits and `-`, starting and ending with a letter or digit. */
export function isDns1123Label(value: unknown): value is string {
  return typeof value === "string" && value.length <= 63 && DNS1123_LABEL.test(value);
}

/** A DNS-1123 subdomain (`IsDNS1123Subdomain`: most object names): dot-separated DNS-1123 labels, at most 253 characters. */
export function isDns1123Subdomain(value: unknown): value is string {
  return typeof value === "string" && value.length <= 253 && DNS1123_SUBDOMAIN.test(value);
}

/** A qualified name (`IsQualifiedName`: label, annotation and taint keys), `[prefix/]name`; {@link qualifiedNameProblem} says what is wrong. */
export function isQualifiedName(value: unknown): value is string {
  return typeof value === "string" && qualifiedNameProblem(value) === undefined;
}

/** Why `key` is not a qualified name (`[DNS-1123 subdomain/]name`), or undefined when it is one. */
export function qualifiedNameProblem(key: string): string | undefined {
  if (typeof key !== "string" || key.length === 0) return "it must not be empty";
  const slash = key.indexOf("/");
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && !isDns1123Subdomain(prefix)) {
    return "the prefix must be a DNS-1123 subdomain (lowercase letters, digits, '-', '.', at most 253 characters)";
  }
  if (name.length === 0 || name.length > 63 || !NAME_PART.test(name)) {
    return "the name must be 1 to 63 characters, letters, digits, '-', '_' and '.', starting and ending with a letter or digit";
  }
  return undefined;
}

/** A label value (`IsValidLabelValue`): empty, or at most 63 letters, digits, `-`, `_` and `.`, starting and ending with a letter or digit. */
export function isLabelValue(value: unknown): value is string {
  return typeof value === "string" && (value === "" || (value.length <= 63 && NAME_PART.test(value)));
}

/** The DNS domain part of a label key (before the first `/`; the whole key when it has none), as the CRDs' `find("^([^/]+)")`. */
export function labelDomain(key: string): string {
  const m = /^([^/]+)/.exec(key);
  return m ? m[1] : "";
}

/**
 * `metadata.name` derived from a construct id: lowercased, every run of characters outside
 * `[a-z0-9.-]` replaced by `-`, leading/trailing `-` and `.` trimmed, cut to 253 characters.
 */
export function nameFromId(id: string): string {
  return id
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 253)
    .replace(/[-.]+$/g, "");
}

const CRON_FIELDS: readonly { name: string; min: number; max: number; names?: readonly string[] }[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  {
    name: "month",
    min: 1,
    max: 12,
    names: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
  },
  { name: "day of week", min: 0, max: 6, names: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] },
];
const CRON_MACROS = ["@annually", "@yearly", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"];

/**
 * Why `expr` is not a budget schedule, or undefined when it is one. Budget schedules are parsed
 * by Karpenter with the standard 5-field cron parser (robfig/cron `ParseStandard`) and the CRD
 * allows the `@` macros; time zones (`CRON_TZ=`, `TZ=`) are not supported.
 */
export function cronProblem(expr: string): string | undefined {
  if (typeof expr !== "string") return "it must be a string";
  // Karpenter parses "TZ=UTC <schedule>" (kubernetes-sigs/karpenter pkg/apis/v1/nodepool.go Budget.IsActive), and
  // robfig/cron v3 trims the spaces after the time zone (parser.go Parse): "@daily " is @daily
  if (expr.trim().startsWith("@"))
    return CRON_MACROS.includes(expr.trim())
      ? undefined
      : `the only macros are ${CRON_MACROS.join(", ")}, written alone`;
  if (/^\s*(CRON_)?TZ=/.test(expr)) return "time zones are not supported (schedules are UTC)";
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5)
    return `it needs 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`;
  for (let i = 0; i < 5; i++) {
    const spec = CRON_FIELDS[i];
    for (const part of fields[i].split(",")) {
      const bad = cronPartProblem(part, spec);
      if (bad) return `${spec.name} field "${fields[i]}": ${bad}`;
    }
  }
  return undefined;
}

function cronPartProblem(
  part: string,
  spec: { min: number; max: number; names?: readonly string[] },
): string | undefined {
  const [range, step, ...rest] = part.split("/");
  if (rest.length > 0) return "more than one '/'";
  if (step !== undefined && !/^[0-9]+$/.test(step)) return `step "${step}" is not a number`;
  if (step !== undefined && Number(step) === 0) return "step 0";
  if (range === "*" || range === "?") return undefined;
  const bounds = range.split("-");
  if (bounds.length > 2) return `"${range}" is not a value or a range a-b`;
  const nums: number[] = [];
  for (const b of bounds) {
    const n = /^[0-9]+$/.test(b) ? Number(b) : spec.names ? spec.names.indexOf(b.toLowerCase()) + spec.min : NaN;
    if (!Number.isInteger(n) || n < spec.min || n > spec.max)
      return `"${b}" is outside ${spec.min}-${spec.max}${spec.names ? ` (or ${spec.names[0]}-${spec.names[spec.names.length - 1]})` : ""}`;
    nums.push(n);
  }
  if (nums.length === 2 && nums[0] > nums[1]) return `range "${range}" ends before it starts`;
  return undefined;
}

/** Binary (Ki…Ei) and decimal (n…E) suffixes of a Kubernetes quantity. */
const QUANTITY_SUFFIX: Record<string, number> = lookupTable({
  "": 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
});
const NON_NEGATIVE_QUANTITY = /^\+?(\d+(?:\.\d*)?|\.\d+)(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$/;

/**
 * The value of a Kubernetes resource quantity (`"500m"` → 0.5, `"512Mi"` → 536870912), or
 * undefined when the string is not a non-negative quantity (k8s.io/apimachinery resource.Quantity).
 */
export function parseQuantity(quantity: string): number | undefined {
  const m = NON_NEGATIVE_QUANTITY.exec(quantity);
  if (!m) return undefined;
  const base = Number(m[1]);
  if (m[2]) return base * 10 ** Number(m[2].slice(1));
  return base * QUANTITY_SUFFIX[m[3] ?? ""];
}

/**
 * What makes `YYYYMMDD` no calendar date (month 13, day 99, February 30 or 29 outside a leap year), or
 * undefined when it is one (Gregorian calendar).
 */
export function impossibleDate(yyyymmdd: string): string | undefined {
  const year = Number(yyyymmdd.slice(0, 4));
  const month = Number(yyyymmdd.slice(4, 6));
  const day = Number(yyyymmdd.slice(6, 8));
  if (month < 1 || month > 12) return `month ${yyyymmdd.slice(4, 6)}, and months run from 01 to 12`;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (day < 1 || day > days)
    return `day ${yyyymmdd.slice(6, 8)} of month ${yyyymmdd.slice(4, 6)}, which has days 01 to ${days}${month === 2 ? ` in ${year}` : ""}`;
  return undefined;
}
