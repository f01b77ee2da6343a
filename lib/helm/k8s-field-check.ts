import { IConstruct } from "constructs";
import { Token } from "cdktf";
import { KarpenterValidationError } from "../core/errors";
import { isPlainMap } from "../core/deep-merge";
import { nearestKey } from "../core/problems";
import { k8sApiFields } from "../versions";
import { describe, jsonKind, scalarFits, typeName } from "../kubernetes/json-kinds";
import { TYPED_VALUES_TEMPLATE } from "./k8s-typed-values";

/*
 * A values subtree the chart renders whole into a Kubernetes object (k8s-typed-values.ts), walked against the
 * fields of its type (lib/versions/data/k8s-api-fields.json, k8s.io/api v0.37.0). Two ways it goes wrong:
 * - a field the type does not have: Helm's OpenAPI validation refuses it (helm.sh/helm/v3 v3.20.2
 *   pkg/kube/client.go:345-351, FieldValidationStrict unless disable_openapi_validation) and, with it off, the API
 *   server drops it with a warning: never what was meant. Matching is case-sensitive: the API server decodes with
 *   sigs.k8s.io/json UnmarshalCaseSensitivePreserveInts (k8s.io/apimachinery v0.37.0
 *   pkg/runtime/serializer/json/json.go:268-273; sigs.k8s.io/json json.go:49-55), not encoding/json's
 *   case-insensitive match, so `RunAsUser` is unknown too;
 * - a value of the wrong JSON type (a string where an int64 goes, a string where a list goes): the decoding fails,
 *   the Deployment is refused and the release fails.
 * `null` decodes to the zero value and passes; a token passes where it stands (its value is known at apply), and
 * the fields around it are still judged. Value rules (ranges, enums) are not judged here.
 */

function keyPath(base: string, key: string): string {
  return /^[A-Za-z_][\w-]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/**
 * Every field and JSON-type problem of `value` against `kind`.
 * @param field the prop path of `value` (`values.podSecurityContext`)
 * @param where what renders it, for the message: `values.podSecurityContext (deployment.yaml:41-43)`
 */
function walk(
  scope: IConstruct | string,
  value: unknown,
  kind: string,
  field: string,
  where: string,
  owner: string,
  out: KarpenterValidationError[],
): void {
  if (value === null || value === undefined || Token.isUnresolved(value)) return;
  // NaN and Infinity are refused as such (HELM_VALUES_NOT_FINITE, nonFiniteNumbers), not as a wrong type
  if (typeof value === "number" && !Number.isFinite(value)) return;
  const wrong = (): void => {
    out.push(
      new KarpenterValidationError(
        "HELM_VALUES_K8S_TYPE",
        scope,
        field,
        value,
        value !== null && typeof value === "object" && !Array.isArray(value) && !isPlainMap(value)
          ? `${describe(kind)} (${owner}; the chart renders ${where} with toYaml), written as a plain object: this is ${jsonKind(value)}, and chart values are taken as plain objects and JSON values only (what a class instance, Map or Date turns into on the way to Helm is not what it holds): write its fields as an object literal`
          : `${describe(kind)} (${owner}; the chart renders ${where} with toYaml): the API server cannot decode ${jsonKind(value)} there and the release fails`,
      ),
    );
  };
  if (kind.startsWith("list:")) {
    if (!Array.isArray(value)) return wrong();
    value.forEach((item, i) => walk(scope, item, kind.slice(5), `${field}[${i}]`, where, owner, out));
    return;
  }
  if (kind.startsWith("map:")) {
    if (!isPlainMap(value)) return wrong();
    for (const [k, v] of Object.entries(value)) walk(scope, v, kind.slice(4), keyPath(field, k), where, owner, out);
    return;
  }
  if (kind.startsWith("object:")) {
    if (!isPlainMap(value)) return wrong();
    const type = kind.slice(7);
    const fields = k8sApiFields().types[type]?.fields;
    if (!fields) throw new Error(`no type ${type} in k8s-api-fields.json`);
    const names = Object.keys(fields);
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const sub = keyPath(field, k);
      if (!Object.prototype.hasOwnProperty.call(fields, k)) {
        const cased = names.find((n) => n.toLowerCase() === k.toLowerCase());
        const near = cased ?? nearestKey(k, names);
        out.push(
          new KarpenterValidationError(
            "HELM_VALUES_K8S_FIELD",
            scope,
            sub,
            Token.isUnresolved(v) ? "(known at apply)" : v,
            `a field of Kubernetes ${typeName(type)} (the chart renders ${where} into it with toYaml), which has no ${JSON.stringify(k)}${near ? `; did you mean ${near}?${cased ? " (field names are case-sensitive)" : ""}` : ""}: Helm's OpenAPI validation refuses an unknown field, and without it the API server drops it. Fields: ${names.join(", ")}`,
          ),
        );
        continue;
      }
      walk(scope, v, fields[k], sub, where, `Kubernetes ${typeName(type)}.${k}`, out);
    }
    return;
  }
  if (!scalarFits(kind, value)) wrong();
}

/**
 * The problems of one typed values subtree (k8s-typed-values.ts) against its type; none for a value the chart's
 * `with` skips (null, false, "", 0, an empty map or list).
 * @param field the prop path of the subtree (`values.strategy`)
 * @param path the values path (`strategy`) and lines (`16-18`) that render it, for the message
 */
export function typedValueProblems(
  scope: IConstruct | string,
  value: unknown,
  type: string,
  list: boolean,
  field: string,
  path: string,
  lines: string,
): KarpenterValidationError[] {
  // Go template truthiness (text/template `with`): an empty or zero value renders nothing
  if (!value || (Array.isArray(value) && value.length === 0) || (isPlainMap(value) && Object.keys(value).length === 0))
    return [];
  const out: KarpenterValidationError[] = [];
  const where = `${path} (${TYPED_VALUES_TEMPLATE.split("/").pop()}:${lines})`;
  const owner = `Kubernetes ${typeName(type)}${list ? " list" : ""}`;
  walk(scope, value, `${list ? "list:" : ""}object:${type}`, field, where, owner, out);
  return out;
}
