import { IConstruct } from "constructs";
import { Token } from "cdktf";
import { KarpenterValidationError } from "../errors";
import { isUnresolved } from "./tokens";
import { isPlainMap } from "./deep-merge";
import { isDns1123Subdomain } from "./k8s-rules";

/** Helm's longest release name (helm chartutil.ValidateReleaseName: a DNS-1123 subdomain of at most 53 characters). */
const HELM_RELEASE_NAME_MAX = 53;

/** @throws KarpenterValidationError when a literal release name breaks Helm's rule */
export function checkReleaseName(scope: IConstruct, field: string, name: string): void {
  if (isUnresolved(name)) return;
  if (!isDns1123Subdomain(name) || name.length > HELM_RELEASE_NAME_MAX) {
    throw new KarpenterValidationError(scope, field, name, "a Helm release name: at most 53 lower-case letters, digits, '-' and '.', starting and ending with a letter or digit");
  }
}

/** @throws KarpenterValidationError when a literal repository is not an oci:// or http(s):// URL */
export function checkRepository(scope: IConstruct, field: string, repository: string): void {
  if (isUnresolved(repository)) return;
  if (typeof repository !== "string" || !/^(oci|https?):\/\/\S+$/.test(repository)) {
    throw new KarpenterValidationError(scope, field, repository, 'a chart repository URL (oci://… or https://…), e.g. "oci://public.ecr.aws/karpenter"');
  }
}

/**
 * Renders Helm values as one YAML document, byte-identical for equal input:
 * - map keys sorted, so the order in which values were assembled or merged does not matter;
 * - every string double-quoted and never folded, so a cdktf token inside a string
 *   (`${TfToken[…]}`) stays in one piece for cdktf to replace with a Terraform reference, and the
 *   value Terraform puts there (a name, an ARN, `"123"`) is always read back as a string;
 * - a number token written plain, so it interpolates as a number;
 * - YAML 1.1 rules for what needs quotes: Helm reads values with go-yaml, for which a plain
 *   `on`, `y` or `no` key is a boolean; a key is plain only when it is a letter-led word that no
 *   YAML version reads as anything but a string, else it is quoted.
 * - a {@link plainScalar} (a boolean token) written plain too.
 *
 * Written here rather than with a YAML library because every synth renders values and the values
 * need only this subset (block maps and lists of JSON scalars): loading a YAML library cost a
 * quarter of the library's share of a synth. Strings are quoted by `JSON.stringify`: a JSON string
 * is a YAML double-quoted scalar. The output equals the `yaml` package's
 * `stringify(values, { version: "1.1", defaultStringType: "QUOTE_DOUBLE", lineWidth: 0, sortMapEntries: true })`
 * for ordinary values (test/private/helm.test.ts holds it to that).
 * @throws ValuesRenderError (with the key path) when a value other than a string or number is a token
 * (Terraform cannot put a list or map into a string template); callers validate first and wrap it
 * with the prop the path came from.
 */
export function renderValues(values: Record<string, unknown>): string {
  const prepared = prepare(values, "");
  const inline = scalarText(prepared);
  return `${inline ?? blockLines(prepared, "").join("\n")}\n`;
}

/** Why a values document cannot be rendered, and where in it (`settings.isolatedVPC`). */
export class ValuesRenderError extends Error {
  constructor(
    /** The key path of the value, e.g. `settings.isolatedVPC` (`values` for the document itself). */
    public readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = "ValuesRenderError";
  }
}

/** Text written into the values YAML as it is, without quotes (see {@link plainScalar}). */
export class PlainScalar {
  constructor(public readonly text: string) {}
}

/**
 * A token written into the values YAML without quotes, so that the text Terraform puts there is read
 * by its YAML type: `${tobool(var.x)}` becomes `true` / `false`, a YAML boolean.
 */
export function plainScalar(token: unknown): PlainScalar {
  return new PlainScalar(Token.asString(token));
}

/** Keys that YAML 1.1 reads as a boolean or null when plain. */
const YAML11_SPECIAL_KEY = /^(y|yes|n|no|true|false|on|off|null)$/i;
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_./-]*$/;

function keyText(key: string): string {
  return PLAIN_KEY.test(key) && !YAML11_SPECIAL_KEY.test(key) ? key : JSON.stringify(key);
}

/** The one-line text of a scalar or an empty collection; undefined for a non-empty list or map. */
function scalarText(value: unknown): string | undefined {
  if (value === null || value === undefined) return "null";
  if (value instanceof PlainScalar) return value.text;
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") {
    if (Number.isFinite(value)) return String(value);
    return Number.isNaN(value) ? ".nan" : value > 0 ? ".inf" : "-.inf";
  }
  if (Array.isArray(value)) return value.length ? undefined : "[]";
  return Object.keys(value as object).length ? undefined : "{}";
}

/** Block-style lines of a non-empty list or map, each starting with `indent`. */
function blockLines(value: unknown, indent: string): string[] {
  const lines: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      const inline = scalarText(item);
      if (inline !== undefined) {
        lines.push(`${indent}- ${inline}`);
      } else {
        // the item's first line goes after the dash; the rest keep the item's indentation
        const [first, ...rest] = blockLines(item, `${indent}  `);
        lines.push(`${indent}- ${first.slice(indent.length + 2)}`, ...rest);
      }
    }
    return lines;
  }
  const keys = Object.keys(value as Record<string, unknown>).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) {
    const item = (value as Record<string, unknown>)[key];
    const inline = scalarText(item);
    if (inline !== undefined) lines.push(`${indent}${keyText(key)}: ${inline}`);
    else lines.push(`${indent}${keyText(key)}:`, ...blockLines(item, `${indent}  `));
  }
  return lines;
}

function prepare(value: unknown, path: string): unknown {
  if (typeof value === "string" || typeof value === "boolean" || value === null || value === undefined) return value;
  if (value instanceof PlainScalar) return value;
  if (typeof value === "number") {
    return Token.isUnresolved(value) ? plainScalar(value) : value;
  }
  if (Array.isArray(value)) return value.map((v, i) => prepare(v, `${path}[${i}]`));
  if (isPlainMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = prepare(v, path ? `${path}.${k}` : k);
    return out;
  }
  const what = Token.isUnresolved(value) ? "a token that is not a string or number" : "a non-JSON object";
  throw new ValuesRenderError(path || "values", `${path || "values"} is ${what}; Helm values must be known at synth except for strings, numbers and the typed boolean settings`);
}

/** Binary (Ki…Ei) and decimal (n…E) suffixes of a Kubernetes quantity. */
const QUANTITY_SUFFIX: Record<string, number> = {
  "": 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};
const QUANTITY = /^\+?(\d+(?:\.\d*)?|\.\d+)(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$/;

/**
 * The value of a Kubernetes resource quantity (`"500m"` → 0.5, `"512Mi"` → 536870912), or
 * undefined when the string is not a non-negative quantity (k8s.io/apimachinery resource.Quantity).
 */
export function parseQuantity(quantity: string): number | undefined {
  const m = QUANTITY.exec(quantity);
  if (!m) return undefined;
  const base = Number(m[1]);
  if (m[2]) return base * 10 ** Number(m[2].slice(1));
  return base * QUANTITY_SUFFIX[m[3] ?? ""];
}

/**
 * The chart's `karpenter.fullname` helper (the controller's Deployment and Service name):
 * `fullnameOverride`, else the release name when it contains the chart name (`nameOverride` or
 * `karpenter`), else `<release>-<name>`; cut to 63 characters without a trailing `-`.
 */
export function chartFullName(releaseName: string, values: Record<string, unknown> = {}): string {
  const trim = (s: string) => s.slice(0, 63).replace(/-+$/, "");
  if (typeof values.fullnameOverride === "string" && values.fullnameOverride) return trim(values.fullnameOverride);
  const name = typeof values.nameOverride === "string" && values.nameOverride ? values.nameOverride : "karpenter";
  return releaseName.includes(name) ? trim(releaseName) : trim(`${releaseName}-${name}`);
}
