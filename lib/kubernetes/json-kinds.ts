import { isPlainMap } from "../core/deep-merge";
import { typeName as valueTypeName } from "../core/errors";
import { parseQuantity } from "./value-rules";

/*
 * The JSON kinds of the generated Go field tables (lib/versions/data/k8s-api-fields.json, nodeadm-config-fields.json:
 * `string`, `int32`, `bytes`, `quantity`, `object:<pkg.Type>`, `list:<kind>` …): what each takes, for a message, and
 * whether a scalar decodes into one. Shared by the chart values walk (helm/k8s-field-check.ts) and the NodeConfig
 * walk of AL2023 user data (nodes/node-config-rules.ts).
 */

const INTEGER = /^(u?)int(8|16|32|64)$/;

/**
 * What a kind takes, for the message: `an integer (int64)`, `a list of Container`, …
 * @param api what the types are, before a struct's name (`Kubernetes core/v1 Container`, `nodeadm v1alpha1 …`)
 */
export function describe(kind: string, api = "Kubernetes"): string {
  const int = INTEGER.exec(kind);
  if (int) return `${int[1] ? "a whole number, not negative" : "a whole number"} (${kind})`;
  if (kind.startsWith("object:")) return `a map (${api} ${typeName(kind.slice(7))})`;
  if (kind.startsWith("list:")) return `a list of ${describe(kind.slice(5), api).replace(/^an? /, "")}`;
  if (kind.startsWith("map:")) return `a map of ${describe(kind.slice(4), api).replace(/^an? /, "")}`;
  return (
    {
      string: "a string",
      boolean: "true or false",
      number: "a number",
      bytes: "a base64 string",
      quantity: 'a Kubernetes quantity, a string such as "500m" or "1Gi" or a number',
      intOrString: 'a whole number or a string such as "25%"',
      time: "an RFC 3339 time string",
      duration: 'a Go duration string such as "30s"',
      raw: "any JSON value",
    }[kind] ?? kind
  );
}

/** `core/v1.PodSecurityContext` → `core/v1 PodSecurityContext`. */
export function typeName(type: string): string {
  const dot = type.lastIndexOf(".");
  return `${type.slice(0, dot)} ${type.slice(dot + 1)}`;
}

export function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (isPlainMap(value)) return "a map";
  // a class instance, a Map, a Date …: no JSON value of its own (core/errors.ts names it)
  if (value !== null && typeof value === "object") return `${valueTypeName(value)} (no plain object)`;
  return `a ${typeof value}`;
}

/** Whether `value` decodes into a scalar `kind`. */
export function scalarFits(kind: string, value: unknown): boolean {
  const int = INTEGER.exec(kind);
  if (int) {
    if (typeof value !== "number" || !Number.isInteger(value)) return false;
    const bits = Number(int[2]);
    // int64 / uint64 beyond 2^53 are not written exactly by a JavaScript number anyway
    if (int[1]) return value >= 0 && (bits >= 53 || value < 2 ** bits);
    return bits >= 53 || (value >= -(2 ** (bits - 1)) && value < 2 ** (bits - 1));
  }
  switch (kind) {
    // encoding/json (and sigs.k8s.io/json, its fork) decodes a []byte from a base64.StdEncoding string: padded,
    // line breaks skipped (Go src/encoding/json/decode.go literalStore; encoding/base64 Decode), else "illegal base64
    // data at input byte N" fails the decode
    case "bytes":
      return (
        typeof value === "string" &&
        /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value.replace(/[\r\n]/g, ""))
      );
    case "string":
    case "time":
    case "duration":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number";
    // apimachinery pkg/api/resource/quantity.go UnmarshalJSON: a number, or a string ParseQuantity takes (a sign
    // decodes; whether a negative amount is allowed is validation, not decoding)
    case "quantity":
      return (
        typeof value === "number" ||
        (typeof value === "string" && parseQuantity(value.trim().replace(/^-/, "")) !== undefined)
      );
    // apimachinery pkg/util/intstr/intstr.go UnmarshalJSON: a quoted string, else an int32
    case "intOrString":
      return typeof value === "string" || (Number.isInteger(value) && Math.abs(value as number) < 2 ** 31);
    case "raw":
      return true;
    default:
      throw new Error(`unknown field kind ${kind}`);
  }
}

/** What {@link walkKinds} asks of its caller at each place of a value. */
export interface KindVisitor<P> {
  /** A value that does not decode into `kind` (a list that is no list, a scalar of another type). */
  bad(value: unknown, kind: string, path: P[], owner: string): void;
  /** A map where a struct `type` (`object:<type>`) belongs: the caller walks its fields (with `walk`). */
  object(
    value: Record<string, unknown>,
    type: string,
    path: P[],
    walk: (value: unknown, kind: string, path: P[], owner: string) => void,
  ): void;
  /** Whether a scalar decodes into `kind`; {@link scalarFits} when not given. */
  scalar?(value: unknown, kind: string): boolean;
}

/**
 * Walks `value` against a kind of a Go field table (`list:…`, `map:…`, `object:<type>`, scalars), as Go's JSON decoder
 * reads it: null decodes to the zero value and passes; lists and maps are entered item by item (their owner "(each
 * item)", "(each value)"); a struct's fields are the caller's (`visit.object`), which knows its table and how names
 * match. The NodeConfig walk (nodes/node-config-rules.ts) and the OCI runtime spec walk (nodes/oci-spec-rules.ts).
 */
export function walkKinds<P extends string | number>(
  value: unknown,
  kind: string,
  path: P[],
  owner: string,
  visit: KindVisitor<P>,
): void {
  const walk = (v: unknown, k: string, p: P[], o: string): void => {
    if (v === null || v === undefined) return;
    if (k.startsWith("list:")) {
      if (!Array.isArray(v)) return visit.bad(v, k, p, o);
      v.forEach((item, i) => walk(item, k.slice(5), [...p, i as P], `${o} (each item)`));
      return;
    }
    if (k.startsWith("map:")) {
      if (!isPlainMap(v)) return visit.bad(v, k, p, o);
      for (const [key, x] of Object.entries(v)) walk(x, k.slice(4), [...p, key as P], `${o} (each value)`);
      return;
    }
    if (k.startsWith("object:")) {
      if (!isPlainMap(v)) return visit.bad(v, k, p, o);
      return visit.object(v, k.slice(7), p, walk);
    }
    if (!(visit.scalar ? visit.scalar(v, k) : scalarFits(k, v))) visit.bad(v, k, p, o);
  };
  walk(value, kind, path, owner);
}
