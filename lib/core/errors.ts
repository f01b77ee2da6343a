import { IConstruct } from "constructs";
import { constructName } from "./construct-name";
import type { ErrorCode } from "./error-codes";

/**
 * One problem with the input, as every language sees it: {@link KarpenterValidationError} in
 * TypeScript is one, and {@link AppValidationReport.errors} lists them. Python, Java, .NET and Go
 * receive a constructor's error as their runtime's exception (Python `RuntimeError`) whose message
 * is {@link message} (every problem of the construct, one per line); `validateApp` returns the
 * synth-time problems as these.
 */
export interface ValidationProblem {
  /**
   * The stable code of the rule the input broke, e.g. `NODEPOOL_INTEGER_RANGE`: match it rather than
   * the message, whose wording may change. docs/error-codes.md lists every code with its meaning.
   */
  readonly code: string;
  /** The construct path (or the name of the function) that rejected the input, e.g. `eks/karpenter`. */
  readonly path: string;
  /** The field that holds the bad value, as a dot path into the props (e.g. `settings.featureGates.nodeRepair`). */
  readonly field: string;
  /**
   * The value that was rejected, as given.
   * @default undefined: the field was missing
   */
  readonly value?: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- any JSON value the user gave; jsii maps it to each language's Object
  /** What would have been accepted, as a sentence. */
  readonly allowed: string;
  /** The whole message: `<path>: <field> = <value> is invalid: <allowed> [<code>]`, or a heading and one line per problem. */
  readonly message: string;
}

/** The brand every KarpenterValidationError carries, shared by every copy of the library in a process (`Symbol.for`). */
const BRAND = Symbol.for("cdktf-eks-karpenter.KarpenterValidationError");

/**
 * The error every construct of this library throws for bad input.
 *
 * Its message names where the problem is (the construct path), which field, the value given and
 * what is allowed, and ends with the stable {@link code} of the rule, e.g.
 * `eks/karpenter/default-pool: disruption.consolidateAfter = "5 minutes" is invalid: a duration such as "30s", "1m", "1h30m", or "Never" [NODEPOOL_FORMAT]`.
 * Match {@link code} (docs/error-codes.md lists them all) rather than the prose.
 *
 * Prop errors are thrown from constructors. Checks that need the whole app (other constructs) run
 * when a stack synthesizes (`app.synth()`, `Testing.synth(stack, true)`): every problem of the stack
 * comes in ONE KarpenterValidationError whose {@link problems} lists them (its own `path`, `field`
 * and `value` are those of the first). `validateApp(app)` returns the same problems, and the
 * warnings, without throwing.
 *
 * TypeScript only (a jsii class cannot extend `Error`): in Python, Java, .NET and Go the error
 * arrives as the runtime's exception carrying the same message (see {@link ValidationProblem}).
 * @jsii ignore
 */
export class KarpenterValidationError extends Error implements ValidationProblem {
  /**
   * True when `x` is a KarpenterValidationError of any copy of this library: an app may load two copies (a
   * dependency of its own and one of another construct library's), and `instanceof` sees only its own copy's class.
   */
  public static isError(x: unknown): x is KarpenterValidationError {
    return x !== null && typeof x === "object" && (x as Record<symbol, unknown>)[BRAND] === true;
  }

  /** The stable code of the rule the input broke (docs/error-codes.md); a combined error has its first problem's. */
  public readonly code: string;
  /** The construct path (or the name of the function) that rejected the input. */
  public readonly path: string;
  /** The field that holds the bad value, as a dot path into the props (e.g. `settings.featureGates.nodeRepair`). */
  public readonly field: string;
  /** The value that was rejected. */
  public readonly value: unknown;
  /** What would have been accepted. */
  public readonly allowed: string;
  /**
   * Every problem this error reports: itself alone, or (for an error that gathers several, see
   * {@link KarpenterValidationError.combine}) each problem with its own path, field and value.
   */
  public readonly problems: readonly KarpenterValidationError[];

  /**
   * @param code the stable code of the rule (see lib/core/error-codes.ts)
   * @param where the construct that rejects the input (its path is used), or a plain location string
   * @param field the dot path of the field inside the props
   * @param value the rejected value
   * @param allowed a human sentence saying what is allowed
   */
  constructor(code: ErrorCode, where: IConstruct | string, field: string, value: unknown, allowed: string) {
    const path = typeof where === "string" ? where : where.node.path || "<root>";
    super(`${path}: ${field} = ${show(value)} is invalid: ${allowed} [${code}]`);
    this.name = "KarpenterValidationError";
    Object.defineProperty(this, BRAND, { value: true });
    this.code = code;
    this.path = path;
    this.field = field;
    this.value = value;
    this.allowed = allowed;
    this.problems = [this];
  }

  /**
   * One error for several problems, so that a user fixes them in one round: the single problem
   * itself, or an error whose message lists every problem (each with its construct path) under
   * `heading`, whose `code`, `path`, `field`, `value` and `allowed` are those of the first problem, and
   * whose {@link KarpenterValidationError.problems} holds them all.
   * @param problems at least one problem
   * @param heading what the problems have in common, e.g. "3 problems found at synth"
   */
  public static combine(problems: readonly KarpenterValidationError[], heading?: string): KarpenterValidationError {
    const all = problems.flatMap((p) => p.problems);
    if (all.length === 0) throw new Error("KarpenterValidationError.combine needs at least one problem");
    if (all.length === 1 && heading === undefined) return all[0];
    const first = all[0];
    const combined = new KarpenterValidationError(
      first.code as ErrorCode,
      first.path,
      first.field,
      first.value,
      first.allowed,
    );
    combined.message = `${heading ?? `${all.length} problems`}:\n${all.map((p) => `  - ${p.message}`).join("\n")}`;
    (combined as { problems: readonly KarpenterValidationError[] }).problems = all;
    return combined;
  }
}

/** Marks a number JSON cannot hold (NaN, ±Infinity, which JSON.stringify writes as `null`), to show it by name. */
const NON_FINITE = "\u0000non-finite\u0000";

function show(value: unknown): string {
  if (value === undefined) return "undefined";
  const construct = constructName(value);
  if (construct !== undefined) return construct;
  // a Date, Map, Set or other class instance: its JSON (an ISO string, `{}`) would hide what it is
  const instance = instanceName(value);
  const v = value as { node?: unknown; resolve?: unknown };
  if (instance !== undefined && v.node === undefined && typeof v.resolve !== "function") return `(${instance})`;
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  if (typeof value === "function" || typeof value === "symbol") return `(a ${typeof value})`;
  if (typeof value === "bigint") return `${value}n`;
  try {
    const s = JSON.stringify(value, (_key, v: unknown) =>
      // a construct in a list or map: its name, not its tree (a cycle through its scope)
      typeof v === "object" && v !== null && constructName(v) !== undefined
        ? constructName(v)
        : typeof v === "number" && !Number.isFinite(v)
          ? `${NON_FINITE}${String(v)}`
          : typeof v === "bigint"
            ? Number(v)
            : v,
    ).replace(/"\\u0000non-finite\\u0000(NaN|-?Infinity)"/g, "$1");
    const shown = s.length > 200 ? `${s.slice(0, 200)}…` : s;
    // a plain object that writes itself as something else: say so, or "x" would read as the string given
    const writesItself = typeof (value as { toJSON?: unknown } | null)?.toJSON === "function";
    return writesItself && typeof value === "object" ? `(an object whose toJSON gives ${shown})` : shown;
  } catch (e) {
    // an object holding itself, or a toJSON / getter that throws
    const what = Array.isArray(value) ? "a list" : "an object";
    const cyclic = e instanceof TypeError && /circular|cyclic/i.test(e.message);
    return cyclic ? `(${what} that contains itself)` : `(${what} that cannot be written as JSON: ${errorText(e)})`;
  }
}

/** The JavaScript type of a value as a message names it: "a number", "an array", "null". */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const instance = instanceName(value);
  if (instance !== undefined) return instance;
  const t = typeof value;
  return t === "object" ? "an object" : t === "undefined" ? "undefined" : `a ${t}`;
}

/**
 * "a Map", "a Date", "an instance of a class" for an object that is neither a plain object (`{ … }`, whose
 * prototype is Object.prototype or null) nor a list; undefined for anything else.
 */
function instanceName(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  // a plain object of any realm (Object.prototype's own prototype is null)
  if (proto === null || Object.getPrototypeOf(proto) === null) return undefined;
  const ctor = (proto as { constructor?: { name?: unknown } }).constructor;
  const name = typeof ctor?.name === "string" && ctor.name !== "" && ctor.name !== "Object" ? ctor.name : undefined;
  if (name === undefined) {
    // Object.create({ team: "a" }): a plain object whose prototype is another plain object; its inherited
    // properties are not its own, so Object.entries and JSON drop them (it is no class instance)
    const inherited: string[] = [];
    for (let p: unknown = proto; p !== null && Object.getPrototypeOf(p) !== null; p = Object.getPrototypeOf(p))
      inherited.push(...Object.keys(p as object));
    if (inherited.length > 0)
      return `an object with inherited (prototype) properties (${inherited.slice(0, 5).join(", ")}${inherited.length > 5 ? ", …" : ""}), not own ones`;
    return "an instance of a class";
  }
  // a boxed primitive (new String("WhenEmpty")): says what it holds and what to pass instead (fresh tester 23 CF-1)
  const boxed = boxedPrimitive(value);
  if (boxed !== undefined)
    return `a ${name} object holding ${JSON.stringify(boxed)} (pass the plain ${typeof boxed} ${JSON.stringify(boxed)}, not new ${name}(…))`;
  return `${/^[AEIOU]/.test(name) ? "an" : "a"} ${name}`;
}

/** The primitive inside a String, Number or Boolean object, or undefined for anything else. */
function boxedPrimitive(value: object): string | number | boolean | undefined {
  const tag = Object.prototype.toString.call(value);
  try {
    if (tag === "[object String]") return String.prototype.valueOf.call(value);
    if (tag === "[object Number]") return Number.prototype.valueOf.call(value);
    if (tag === "[object Boolean]") return Boolean.prototype.valueOf.call(value);
  } catch {
    // a Symbol.toStringTag that lies: not a boxed primitive
  }
  return undefined;
}

/** The message of what a failed JSON.stringify threw, short. */
function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
