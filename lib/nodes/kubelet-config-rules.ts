import { typeName } from "../core/errors";
import {
  Checker,
  durationNanos,
  GO_DURATION,
  holdsToken,
  INT32_MAX,
  INT32_MIN,
  isNegativeQuantity,
  isPlainFields,
  isSet,
  isToken,
  MAX_DURATION_NS,
  QUANTITY,
  quantitySign,
  suggestion,
} from "../kubernetes/value-rules";
import { KubeletConfigFields, KubeletField, KubeletFieldKind } from "../versions";

/*
 * What Karpenter 1.15 (karpenter-provider-aws v1.15.0, pkg/apis/v1/kubeletconfiguration_validation.go) refuses in a
 * free-form `spec.kubelet` beyond the 12 fields it maps itself: ValidateKubeletConfig runs on every AMI family and,
 * on any error, the class gets ValidationSucceeded=False (InvalidKubeletConfiguration, pkg/controllers/nodeclass/
 * validation.go) and launches no node.
 * - validateAgainstUpstreamType: sigs.k8s.io/json UnmarshalStrict into k8s.io/kubelet's KubeletConfiguration (the
 *   generated table of lib/versions/data/kubelet-config-fields.json): an unknown field (case-sensitive) and a value
 *   of another JSON type fail; a metav1.Duration takes only a Go duration string (time.ParseDuration).
 * - validateKubeletSemantics: registerWithTaints is Karpenter's (karpenterOwnedFields); evictionMinimumReclaim is keyed
 *   by eviction signals and holds percentages or non-negative quantities (validateEvictionThreshold);
 *   evictionMaxPodGracePeriod is not negative.
 * The typed 12 keep their own rules (ec2-node-class-rules.ts). A value holding a token is never judged here.
 */

/** Where a rule of Karpenter's kubelet validation is, for messages: `karpenter-provider-aws@v1.15.0 <file> (<function>)`. */
export function kubeletValidationSource(t: KubeletConfigFields, fn: string): string {
  return `${t.provider.replace(/^github\.com\/aws\//, "")} pkg/apis/v1/kubeletconfiguration_validation.go, ${fn}`;
}

/** What a JSON kind takes, as a message says it. */
const KIND_TEXT: { readonly [kind in KubeletFieldKind]: string } = {
  string: "a string",
  duration: 'a Go duration string such as "30s", "5m" or "1h30m"',
  integer: "a whole number",
  number: "a number",
  boolean: "true or false",
  "string list": "a list of strings",
  "integer list": "a list of whole numbers",
  "object list": "a list of objects",
  "string map": "a map of strings",
  "bool map": "a map of booleans (true or false)",
  "string list map": "a map of lists of strings",
  object: "an object",
  quantity: 'a quantity such as "64Ki" or "1M" (a string), or a number',
  "quantity map": 'a map of quantities such as "1Gi"',
  "duration or integer": 'a Go duration string such as "5s", or a whole number of nanoseconds',
};

/** The range of a Go integer type (JSON numbers beyond it fail to decode), as far as JavaScript holds it exactly. */
function integerRange(goType: string, int?: string): [number, number] {
  const t = int ?? goType.replace(/^\*|^\[\]/, "");
  if (t === "int32") return [INT32_MIN, INT32_MAX];
  if (t === "uint32") return [0, 2 ** 32 - 1];
  if (t === "uint16") return [0, 2 ** 16 - 1];
  if (t === "int16") return [-(2 ** 15), 2 ** 15 - 1];
  if (t === "uint8") return [0, 255];
  if (t === "int8") return [-128, 127];
  if (t.startsWith("uint")) return [0, Number.MAX_SAFE_INTEGER];
  return [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
}

/**
 * A number beyond JavaScript's exact integers: the range above is JavaScript's there, not the Go type's (int64 holds
 * more), so the message says whose limit it is.
 */
const beyondExact = (x: unknown): boolean => typeof x === "number" && Math.abs(x) > Number.MAX_SAFE_INTEGER;

/** What a field of `kind` takes, with the range of an integer type. */
function kindText(kind: KubeletFieldKind, goType: string, int?: string): string {
  if (kind !== "integer" && kind !== "integer list") return KIND_TEXT[kind];
  const [lo, hi] = integerRange(goType, int);
  return `${KIND_TEXT[kind]} from ${lo} to ${hi}`;
}

/**
 * What is wrong with `x` as a value of `kind` (its Go type `goType`), or undefined when it decodes (or holds a
 * token where it matters). JSON null decodes into anything (Go leaves the field as it was).
 */
export function kindProblem(x: unknown, kind: KubeletFieldKind, goType: string, int?: string): string | undefined {
  if (x === null || x === undefined || isToken(x)) return undefined;
  const bad = `got ${typeName(x)}`;
  const each = (items: unknown[], ok: (v: unknown) => boolean, what: string): string | undefined => {
    const i = items.findIndex((v) => v !== null && !isToken(v) && !ok(v));
    return i < 0 ? undefined : `${what} ${JSON.stringify(i)} is ${typeName(items[i])}`;
  };
  const isInt = (v: unknown) => {
    const [lo, hi] = integerRange(goType, int);
    return typeof v === "number" && Number.isInteger(v) && v >= lo && v <= hi;
  };
  switch (kind) {
    case "string":
      return typeof x === "string" ? undefined : bad;
    case "duration":
      return typeof x === "string" ? undefined : bad;
    case "integer": {
      return isInt(x) ? undefined : typeof x === "number" ? `got ${x}` : bad;
    }
    case "number":
      return typeof x === "number" && Number.isFinite(x) ? undefined : bad;
    case "boolean":
      return typeof x === "boolean" ? undefined : bad;
    case "string list":
    case "integer list":
    case "object list": {
      if (!Array.isArray(x)) return bad;
      const ok =
        kind === "string list"
          ? (v: unknown) => typeof v === "string"
          : kind === "integer list"
            ? isInt
            : (v: unknown) => isPlainFields(v);
      return each(x, ok, "item");
    }
    case "string map":
    case "bool map":
    case "string list map": {
      if (!isPlainFields(x)) return bad;
      const ok =
        kind === "string map"
          ? (v: unknown) => typeof v === "string"
          : kind === "bool map"
            ? (v: unknown) => typeof v === "boolean"
            : (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === "string" || s === null || isToken(s));
      const keys = Object.keys(x);
      const key = keys.find((k) => x[k] !== null && x[k] !== undefined && !isToken(x[k]) && !ok(x[k]));
      return key === undefined ? undefined : `the value of ${JSON.stringify(key)} is ${typeName(x[key])}`;
    }
    case "object":
      return isPlainFields(x) ? undefined : bad;
    case "quantity":
      return typeof x === "number" ? (Number.isFinite(x) ? undefined : bad) : quantityProblem(x);
    case "quantity map": {
      if (!isPlainFields(x)) return bad;
      const key = Object.keys(x).find(
        (k) => x[k] !== null && x[k] !== undefined && quantityProblem(x[k]) !== undefined,
      );
      return key === undefined ? undefined : `the value of ${JSON.stringify(key)} is ${typeName(x[key])}`;
    }
    case "duration or integer":
      // TimeOrMetaDuration.UnmarshalJSON: a string is a metav1.Duration (checked below), else an int64 of nanoseconds
      return typeof x === "string" ? undefined : isInt(x) ? undefined : typeof x === "number" ? `got ${x}` : bad;
  }
}

/**
 * Why resource.Quantity's UnmarshalJSON refuses `x` (a string it cannot parse, or another JSON type), or undefined;
 * a JSON number is parsed as its text (k8s.io/apimachinery pkg/api/resource quantity.go, UnmarshalJSON).
 */
function quantityProblem(x: unknown): string | undefined {
  if (x === null || x === undefined || isToken(x) || holdsToken(x)) return undefined;
  if (typeof x === "number") return Number.isFinite(x) ? undefined : `got ${typeName(x)}`;
  if (typeof x !== "string") return `got ${typeName(x)}`;
  return QUANTITY.test(x.trim()) ? undefined : `${JSON.stringify(x)} is no quantity`;
}

/** A problem the strict decode finds below a field: `path` is relative to spec.kubelet (`logging.vmodule[0].verbosity`). */
export interface KubeletDecodeProblem {
  readonly path: string;
  readonly value: unknown;
  /** `unknown`: no field of that name (strict decode: an error; lenient: dropped); `type`: a value that does not decode. */
  readonly kind: "unknown" | "type";
  /** What is allowed (a field name: the struct's fields with a suggestion). */
  readonly allowed: string;
}

/**
 * What the strict decode refuses in `x` as the value of `field` at `path`, the field itself and every field of a
 * nested struct (or list of structs) alike, all at once. Tokens are not judged.
 */
export function kubeletDecodeProblems(x: unknown, field: KubeletField, path: string): KubeletDecodeProblem[] {
  if (x === null || x === undefined || isToken(x)) return [];
  const problem = kindProblem(x, field.kind, field.goType, field.int);
  if (problem !== undefined)
    return [
      {
        path,
        value: x,
        kind: "type",
        allowed: `${kindText(field.kind, field.goType, field.int)} (Go ${field.goType}${beyondExact(x) ? `, which holds more: the limit is JavaScript's, which cannot hold a number beyond 2^53 - 1 exactly (${x} is what it holds of the number written)` : ""}), ${problem}`,
      },
    ];
  if ((field.kind === "duration" || field.kind === "duration or integer") && typeof x === "string" && !holdsToken(x)) {
    const ns = GO_DURATION.test(x) ? durationNanos(x) : undefined;
    if (ns === undefined || ns > MAX_DURATION_NS)
      return [
        {
          path,
          value: x,
          kind: "type",
          allowed: `${KIND_TEXT[field.kind]} (numbers with the units ns, us, ms, s, m or h, up to about 292 years): a ${field.goType.replace(/^\*/, "")} decodes only what time.ParseDuration reads`,
        },
      ];
  }
  const sub = field.fields;
  if (sub === undefined) return [];
  if (field.kind === "object list" && Array.isArray(x))
    return x.flatMap((item, i) =>
      kubeletDecodeProblems(
        item,
        { kind: "object", goType: field.goType.replace(/^\[\]/, ""), fields: sub },
        `${path}[${i}]`,
      ),
    );
  if (field.kind !== "object" || !isPlainFields(x)) return [];
  const names = Object.keys(sub);
  return Object.entries(x).flatMap(([key, value]): KubeletDecodeProblem[] => {
    if (value === undefined) return [];
    const f = sub[key];
    if (f !== undefined) return kubeletDecodeProblems(value, f, `${path}.${key}`);
    const near = holdsToken(key) ? undefined : suggestion(key, names);
    return [
      {
        path: `${path}.${key}`,
        value,
        kind: "unknown",
        allowed: holdsToken(key)
          ? `field names written literally: a key that is a cdktf token is not resolved (a map key is written as it is), so the kubelet gets the token's placeholder text as a field name`
          : `a field of ${field.goType.replace(/^\*|^\[\]/, "")}: ${names.map((n) => JSON.stringify(n)).join(", ")} (JSON field names are case-sensitive)${near ? `; ${near}` : ""}`,
      },
    ];
  });
}

/**
 * Karpenter's eviction threshold rule (validateEvictionThreshold): a percentage in [0, 100] or a non-negative
 * quantity; undefined when `value` is one.
 */
/** Go's decimal digits with optional `_` between digits (the Go syntax for number literals). */
const DEC = "\\d(?:_?\\d)*";
const HEX = "[0-9a-fA-F](?:_?[0-9a-fA-F])*";
const GO_DECIMAL = new RegExp(`^(${DEC})?(?:\\.(${DEC})?)?(?:[eE]([+-]?${DEC}))?$`);
const GO_HEX = new RegExp(`^0[xX]_?(${HEX})?(?:\\.(${HEX})?)?[pP]([+-]?${DEC})$`);

/**
 * The number Go's `strconv.ParseFloat(s, 64)` reads from `s`, or undefined where it fails: decimal and hexadecimal
 * floating-point literals (`"10"`, `"1.5e1"`, `"0x1p4"`), `_` between digits, and `inf`, `infinity`, `nan` in any
 * case, each with an optional sign (Go strconv/atof.go readFloat, special). Karpenter 1.15 reads eviction percentages
 * with it (validateEvictionThreshold).
 */
export function goParseFloat(s: string): number | undefined {
  const sign = s.startsWith("-") ? -1 : 1;
  const body = s.startsWith("-") || s.startsWith("+") ? s.slice(1) : s;
  const special = body.toLowerCase();
  if (special === "inf" || special === "infinity") return sign * Infinity;
  if (special === "nan") return NaN;
  const strip = (x: string | undefined) => (x ?? "").replace(/_/g, "");
  const hex = GO_HEX.exec(body);
  if (hex) {
    if (!hex[1] && !hex[2]) return undefined;
    const digits = strip(hex[1]) + strip(hex[2]);
    const mantissa = digits ? parseInt(digits, 16) / 16 ** strip(hex[2]).length : 0;
    return sign * mantissa * 2 ** Number(strip(hex[3]));
  }
  const dec = GO_DECIMAL.exec(body);
  if (!dec || (!dec[1] && !dec[2])) return undefined;
  return sign * Number(`${strip(dec[1]) || "0"}.${strip(dec[2]) || "0"}e${strip(dec[3]) || "0"}`);
}

/**
 * What is wrong with an eviction threshold, and who refuses it: `karpenter` (validateEvictionThreshold: no number
 * before the %, a percentage outside 0 to 100, neither a percentage nor a quantity, a negative quantity), or only
 * `library`: a NaN percentage passes Karpenter's `v < 0 || v > 100` and the kubelet's parse, but no comparison with
 * NaN is true, so the signal never fires.
 */
export interface EvictionThresholdVerdict {
  readonly problem: string;
  readonly refusedBy: "karpenter" | "library";
}

/** Karpenter 1.15's rule on an eviction threshold `value` (and NaN, see {@link EvictionThresholdVerdict}); undefined when it is one. */
export function evictionThresholdProblem(value: string): EvictionThresholdVerdict | undefined {
  const karpenter = (problem: string): EvictionThresholdVerdict => ({ problem, refusedBy: "karpenter" });
  if (value.endsWith("%")) {
    const n = goParseFloat(value.slice(0, -1));
    if (n === undefined) return karpenter("no number before the %");
    if (Number.isNaN(n)) return { problem: "not a number before the %", refusedBy: "library" };
    return n < 0 || n > 100 ? karpenter("a percentage outside 0 to 100") : undefined;
  }
  if (!QUANTITY.test(value)) return karpenter("neither a percentage nor a quantity");
  return isNegativeQuantity(value) ? karpenter("a negative quantity") : undefined;
}

/** Where the kubelet parses its eviction thresholds when it starts (NewMainKubelet → eviction.ParseThresholdConfig). */
export const KUBELET_EVICTION_SOURCE = "k8s.io/kubernetes v1.36.3 pkg/kubelet/eviction/helpers.go";

/**
 * How the kubelet itself refuses an eviction threshold (or, `reclaim`, a minimum reclaim) when it starts, so it does
 * not start and the node never joins: `kind` (what is wrong), `error` (the kubelet's words, for `signal`) and `lines`
 * (of {@link KUBELET_EVICTION_SOURCE}).
 */
export interface KubeletEvictionRefusal {
  readonly kind:
    | "not-a-number"
    | "percentage-below-0"
    | "percentage-above-100"
    | "reclaim-not-positive"
    | "not-a-quantity"
    | "zero-quantity"
    | "negative-quantity";
  readonly error: string;
  readonly lines: string;
}

/** float32's largest finite value: strconv.ParseFloat(s, 32) fails ("value out of range") beyond it. */
const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * The kubelet's parse of one eviction threshold (parseThresholdStatement :381-420, parsePercentage :423-430) or minimum
 * reclaim (parseMinimumReclaims :459-490); undefined when the kubelet takes it. The signal itself is not judged here
 * (the callers hold their own lists). A threshold of "0%" or "100%" is ignored by the kubelet (:387-389); a NaN
 * percentage passes (see {@link evictionThresholdProblem}).
 */
export function kubeletEvictionRefusal(
  signal: string,
  value: string,
  reclaim: boolean,
): KubeletEvictionRefusal | undefined {
  if (value.endsWith("%")) {
    if (!reclaim && (value === "0%" || value === "100%")) return undefined;
    const text = value.replace(/%+$/, "");
    const n = goParseFloat(text);
    if (n === undefined || (Number.isFinite(n) && Math.abs(n) > FLOAT32_MAX))
      return {
        kind: "not-a-number",
        error: `strconv.ParseFloat: parsing ${JSON.stringify(text)}: ${n === undefined ? "invalid syntax" : "value out of range"}`,
        lines: "423-430",
      };
    const fraction = Math.fround(Math.fround(n) / 100);
    if (reclaim)
      return fraction <= 0
        ? {
            kind: "reclaim-not-positive",
            error: `eviction percentage minimum reclaim ${signal} must be positive: ${value}`,
            lines: "474-475",
          }
        : undefined;
    if (fraction < 0)
      return {
        kind: "percentage-below-0",
        error: `eviction percentage threshold ${signal} must be >= 0%: ${value}`,
        lines: "395-396",
      };
    if (fraction > 1)
      return {
        kind: "percentage-above-100",
        error: `eviction percentage threshold ${signal} must be <= 100%: ${value}`,
        lines: "399-400",
      };
    return undefined;
  }
  if (!QUANTITY.test(value))
    return {
      kind: "not-a-quantity",
      error: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      lines: reclaim ? "482-485" : "410-413",
    };
  if (!reclaim && quantitySign(value) === 0)
    return {
      kind: "zero-quantity",
      error: `eviction threshold ${signal} must be positive: ${value}`,
      lines: "414-415",
    };
  if (isNegativeQuantity(value))
    return reclaim
      ? {
          kind: "negative-quantity",
          error: `negative eviction minimum reclaim specified for ${signal}`,
          lines: "486-487",
        }
      : {
          kind: "negative-quantity",
          error: `eviction threshold ${signal} must be positive: ${value}`,
          lines: "414-415",
        };
  return undefined;
}

/**
 * The rules of {@link KubeletConfigFields} for the fields beyond the typed 12 (`typed`), and the semantic rules of
 * Karpenter 1.15 on them. `skip` holds the fields already reported (by the per-AMI-family rule): one problem per field.
 */
export function checkUpstreamKubelet(
  c: Checker,
  k: Record<string, unknown>,
  t: KubeletConfigFields,
  typed: readonly string[],
  skip: (field: string) => boolean,
  specFields: readonly string[],
): void {
  const decode = kubeletValidationSource(t, "validateAgainstUpstreamType");
  const strict = `Karpenter ${c.version.full} strict-decodes spec.kubelet into the upstream KubeletConfiguration (${t.module} ${t.file}; sigs.k8s.io/json UnmarshalStrict) and sets ValidationSucceeded=False (InvalidKubeletConfiguration) when it fails, so no node launches (${decode})`;
  const names = Object.keys(t.fields);
  for (const [f, x] of Object.entries(k)) {
    if (typed.includes(f) || !isSet(x) || skip(f)) continue;
    c.guard(() => {
      const field = t.fields[f];
      // a key that is a cdktf token (Fn.lower(…)): Terraform writes map keys as they are, so it is never resolved
      // and the name is the token's placeholder text (fresh tester 20 CF-4)
      if (field === undefined && holdsToken(f))
        c.fail(
          "EC2NODECLASS_KUBELET_NOT_A_FIELD",
          "kubelet",
          f,
          `KubeletConfiguration field names written literally: a key that is a cdktf token is not resolved (a map key is written as it is), so the kubelet gets the token's placeholder text as a field name; ${strict}`,
        );
      if (field === undefined) {
        const near = suggestion(f, [...names, ...typed]);
        const spec = specFields.includes(f) ? ` ${f} is a field of the EC2NodeClass spec, not of kubelet.` : "";
        c.fail(
          "EC2NODECLASS_KUBELET_NOT_A_FIELD",
          `kubelet.${f}`,
          x,
          `a field of KubeletConfiguration: ${JSON.stringify(f)} is none (JSON field names are case-sensitive), and ${strict}.${spec}${near ? ` ${near.charAt(0).toUpperCase()}${near.slice(1)}` : ""}`,
        );
      }
      if (f === "registerWithTaints")
        c.fail(
          "EC2NODECLASS_KUBELET_KARPENTER_OWNED",
          `kubelet.${f}`,
          x,
          `unset: Karpenter sets registerWithTaints itself, from the NodeClaim's taints, so that the node registers unschedulable until it is ready; Karpenter ${c.version.full} refuses a value ("can't be set", ValidationSucceeded=False, InvalidKubeletConfiguration; ${kubeletValidationSource(t, "karpenterOwnedFields")}). Put taints on the NodePool (taints, startupTaints)`,
        );
      const problem = kindProblem(x, field.kind, field.goType);
      if (problem !== undefined)
        c.fail(
          "EC2NODECLASS_KUBELET_FIELD_TYPE",
          `kubelet.${f}`,
          x,
          `${kindText(field.kind, field.goType)} (Go ${field.goType}${beyondExact(x) ? `, which holds more: the limit is JavaScript's, which cannot hold a number beyond 2^53 - 1 exactly (${x} is what it holds of the number written)` : ""}), ${problem}: ${strict}`,
        );
      // a struct's own fields (logging, tracing, authentication, crashLoopBackOff, …): the same strict decode
      if (problem === undefined && field.fields !== undefined)
        for (const p of kubeletDecodeProblems(x, field, f))
          c.guard(() =>
            c.fail(
              p.kind === "unknown" ? "EC2NODECLASS_KUBELET_NOT_A_FIELD" : "EC2NODECLASS_KUBELET_FIELD_TYPE",
              `kubelet.${p.path}`,
              p.value,
              `${p.allowed}: ${strict}`,
            ),
          );
      if (field.kind === "duration" && typeof x === "string" && !holdsToken(x)) {
        const ns = GO_DURATION.test(x) ? durationNanos(x) : undefined;
        if (ns === undefined || ns > MAX_DURATION_NS)
          c.fail(
            "EC2NODECLASS_KUBELET_DURATION",
            `kubelet.${f}`,
            x,
            `${KIND_TEXT.duration} (numbers with the units ns, us, ms, s, m or h, up to about 292 years): ${f} is a metav1.Duration, which decodes only what time.ParseDuration reads, and ${strict}`,
          );
      }
    });
  }
}

/**
 * What is wrong with `x` as the value of an upstream KubeletConfiguration field, as the kubelet's JSON decode sees it:
 * a value of another JSON type, an integer out of its Go type's range, a metav1.Duration that time.ParseDuration does
 * not read (the same tests {@link checkUpstreamKubelet} applies to `spec.kubelet`). Undefined when it decodes.
 */
export function kubeletValueProblem(x: unknown, field: KubeletField): string | undefined {
  const problem = kindProblem(x, field.kind, field.goType, field.int);
  if (problem !== undefined) return `${kindText(field.kind, field.goType, field.int)} (Go ${field.goType}), ${problem}`;
  if (field.kind !== "duration" || typeof x !== "string" || holdsToken(x)) {
    // a nested struct's value of the wrong type fails the lenient decode too (an unknown nested field is dropped)
    const nested = field.fields ? kubeletDecodeProblems(x, field, "").find((p) => p.kind === "type") : undefined;
    return nested === undefined
      ? undefined
      : `${KIND_TEXT[field.kind]} (Go ${field.goType}) whose ${nested.path.replace(/^\./, "")} takes ${nested.allowed}`;
  }
  const ns = GO_DURATION.test(x) ? durationNanos(x) : undefined;
  return ns === undefined || ns > MAX_DURATION_NS
    ? `${KIND_TEXT.duration} (a metav1.Duration, which decodes only what time.ParseDuration reads: numbers with the units ns, us, ms, s, m or h, up to about 292 years)`
    : undefined;
}
