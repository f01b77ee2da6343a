import { IConstruct } from "constructs";
import { Token } from "cdktf";
import { KarpenterValidationError } from "../core/errors";
import { isUnresolved } from "../core/tokens";
import { isPlainMap } from "../core/deep-merge";
import { isDns1123Subdomain } from "../kubernetes/value-rules";

/** Helm's longest release name (helm chartutil.ValidateReleaseName: a DNS-1123 subdomain of at most 53 characters). */
const HELM_RELEASE_NAME_MAX = 53;

/** @throws KarpenterValidationError when a literal release name breaks Helm's rule */
export function checkReleaseName(scope: IConstruct, field: string, name: string): void {
  if (isUnresolved(name)) return;
  if (!isDns1123Subdomain(name) || name.length > HELM_RELEASE_NAME_MAX) {
    throw new KarpenterValidationError(
      "HELM_RELEASE_NAME",
      scope,
      field,
      name,
      "a Helm release name: at most 53 lower-case letters, digits, '-' and '.', starting and ending with a letter or digit",
    );
  }
}

/** @throws KarpenterValidationError when a literal repository is not an oci:// or http(s):// URL */
export function checkRepository(scope: IConstruct, field: string, repository: string): void {
  if (isUnresolved(repository)) return;
  if (typeof repository !== "string" || !/^(oci|https?):\/\/\S+$/.test(repository)) {
    throw new KarpenterValidationError(
      "HELM_REPOSITORY",
      scope,
      field,
      repository,
      'a chart repository URL (oci://… or https://…), e.g. "oci://public.ecr.aws/karpenter"',
    );
  }
}

/**
 * Renders Helm values as one document, byte-identical for equal input. Helm reads values as YAML
 * (sigs.k8s.io/yaml in the helm provider and `helm template`), and JSON is YAML, so the document is
 * JSON, indented, with map keys sorted (the order in which values were assembled or merged does not
 * matter). JSON also sidesteps YAML 1.1's readings of plain scalars (`on`, `y`, `no` as booleans):
 * every string and key is quoted, so a cdktf token inside a string stays in one piece for cdktf to
 * replace with a Terraform reference and the value Terraform puts there is read back as a string.
 *
 * A number token, or a {@link plainScalar} (a boolean token), must reach Helm unquoted so that it is
 * read by its type, and `${…}` cannot stand unquoted in JSON: only then the values are written with
 * the `yaml` library, as block YAML 1.1 with double-quoted strings and those tokens plain.
 * @throws ValuesRenderError (with the key path) when a value other than a string or number is a token
 * (Terraform cannot put a list or map into a string template); callers validate first and wrap it
 * with the prop the path came from.
 */
export function renderValues(values: Record<string, unknown>): string {
  const prepared = prepare(values, "");
  if (!containsPlain(prepared)) return `${JSON.stringify(prepared, null, 2)}\n`;
  // loaded only for these values: most synths have no typed token in their values
  const YAML = require("yaml") as typeof import("yaml");
  const toYaml = (v: unknown): unknown => {
    if (v instanceof PlainScalar) {
      const scalar = new YAML.Scalar(v.text);
      scalar.type = "PLAIN";
      return scalar;
    }
    if (Array.isArray(v)) return v.map(toYaml);
    if (isPlainMap(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toYaml(x)]));
    return v;
  };
  return YAML.stringify(toYaml(prepared), {
    version: "1.1",
    defaultStringType: "QUOTE_DOUBLE",
    defaultKeyType: "PLAIN",
    lineWidth: 0,
  });
}

/** Why a values document cannot be rendered, and where in it (`settings.isolatedVPC`). */
export class ValuesRenderError extends Error {
  constructor(
    /** The key path of the value, e.g. `settings.isolatedVPC` (`values` for the document itself). */
    public readonly path: string,
    message: string,
    /** The value that cannot be rendered, as the error shows it (a token as `(a token)`). */
    public readonly value: unknown = "(a token)",
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

function containsPlain(v: unknown): boolean {
  if (v instanceof PlainScalar) return true;
  if (Array.isArray(v)) return v.some(containsPlain);
  return isPlainMap(v) && Object.values(v).some(containsPlain);
}

function prepare(value: unknown, path: string): unknown {
  if (typeof value === "string" || typeof value === "boolean" || value === null || value === undefined) return value;
  if (value instanceof PlainScalar) return value;
  if (typeof value === "number") {
    if (Token.isUnresolved(value)) return plainScalar(value);
    if (!Number.isFinite(value))
      throw new ValuesRenderError(
        path || "values",
        `${path || "values"} is ${value}; Helm values take finite numbers only`,
        value,
      );
    return value;
  }
  if (Array.isArray(value)) return value.map((v, i) => prepare(v, `${path}[${i}]`));
  if (isPlainMap(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = prepare(v, path ? `${path}.${k}` : k);
    }
    return out;
  }
  const token = Token.isUnresolved(value);
  const what = token ? "a token that is not a string or number" : "a non-JSON object";
  throw new ValuesRenderError(
    path || "values",
    `${path || "values"} is ${what}; Helm values must be known at synth except for strings, numbers and the typed boolean settings`,
    token ? "(a token)" : "(a non-JSON object)",
  );
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
