import { IConstruct } from "constructs";
import { Annotations, Token } from "cdktf";
import { leafPaths } from "./chart-values";
import { isPlainMap } from "../core/deep-merge";
import { IRSA_ROLE_ANNOTATION } from "./release-values";

/*
 * `values` is the escape hatch, merged last: where it sets a chart value that a typed prop also set,
 * `values` wins (Helm's merge), which is easy to miss. Such an overlap is not an error (values may
 * deliberately replace a typed default), but synth warns naming both, and the checks that depend on
 * the value (replicas against the system node group, tolerations of its taints) run on the merged
 * value, naming `values.<path>` when it came from there.
 */

/** A chart value a typed prop set explicitly: its path in the chart values and the prop that set it. */
export interface TypedValue {
  /** The key path in the chart values, e.g. `["controller", "resources", "requests", "cpu"]`. */
  readonly parts: readonly string[];
  /** The prop, e.g. `controllerResources.requests.cpu`. */
  readonly field: string;
  /** The value the prop set. */
  readonly value: unknown;
  /**
   * What to do, when setting it in one place is not "prefer the prop" (the value is wired, not a prop).
   * @default "Set it in one place only (prefer <field>, which is checked and documented)"
   */
  readonly advice?: string;
}

/**
 * The typed values of one prop: each leaf of `given` (a map prop is split into its keys), under the
 * chart path `parts` and the prop name `field`. Nothing when `given` is undefined.
 */
export function typedValues(parts: readonly string[], field: string, given: unknown): TypedValue[] {
  if (given === undefined) return [];
  if (!isPlainMap(given)) return [{ parts, field, value: given }];
  return leafPaths(given).map((l) => ({
    parts: [...parts, ...l.parts],
    field: [field, ...l.parts].join("."),
    value: l.value,
  }));
}

/** Whether `a` is a prefix of `b` or `b` of `a`: one of them replaces (part of) the other. */
function overlap(a: readonly string[], b: readonly string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Warns once per typed prop that a path of `values` overrides, naming both and the value that is
 * deployed (the one in `values`).
 */
export function warnValuesOverlaps(
  scope: IConstruct,
  typed: readonly TypedValue[],
  values: Record<string, unknown> | undefined,
): void {
  if (!values) return;
  const given = leafPaths(values).filter((l) => l.parts.length > 0);
  const warned = new Set<string>();
  for (const t of typed) {
    const hit = given.find((g) => overlap(g.parts, t.parts));
    if (!hit || warned.has(t.field)) continue;
    warned.add(t.field);
    const shown = (v: unknown) => (v === null ? "null (removed)" : (JSON.stringify(v) ?? String(v)));
    Annotations.of(scope).addWarning(
      `values.${hit.parts.join(".")} = ${shown(hit.value)} overrides ${t.field} = ${shown(t.value)}: values is merged last, so the values.${hit.parts.join(".")} one is deployed. ${t.advice ?? `Set it in one place only (prefer ${t.field}, which is checked and documented)`}`,
    );
  }
}

/** The controller image value paths of the chart (`controller.image.tag` / `.digest`), which `version` also decides. */
const IMAGE_TAG = ["controller", "image", "tag"];
const IMAGE_DIGEST = ["controller", "image", "digest"];

/** The value at a key path of a values document, undefined when absent. */
function valueAt(values: Record<string, unknown>, parts: readonly string[]): unknown {
  let cur: unknown = values;
  for (const part of parts) {
    if (!isPlainMap(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

/**
 * `values.controller.image.tag` / `.digest` overlap `version`: the chart pins the controller image of
 * its own version (values.yaml `controller.image.tag` and `digest`, the image written as
 * `<repository>:<tag>@<digest>`). Another tag or digest runs another controller, while the IAM
 * policy, the CRDs and the settings checks follow `version`: warn, naming both. A tag alone does not
 * even change the image, since the chart's digest of `version` stays and the image is pulled by it;
 * with the digest removed (`null`, or `""`, which the chart's `if .Values.controller.image.digest`
 * reads as none) the tag is what runs. An empty digest or tag on its own is no override.
 */
export function warnImageOverridesVersion(
  scope: IConstruct,
  version: string,
  values: Record<string, unknown> | undefined,
): void {
  if (!values) return;
  const tag = valueAt(values, IMAGE_TAG);
  const digest = valueAt(values, IMAGE_DIGEST);
  // the chart's template tests `if .Values.controller.image.digest`: "" names no digest, like null (removed)
  const otherTag = tag !== undefined && tag !== null && tag !== "" && String(tag).replace(/^v/, "") !== version;
  const digestRemoved = digest === null || digest === "";
  const otherDigest = digest !== undefined && !digestRemoved;
  if (!otherTag && !otherDigest) return;
  const path = otherDigest ? "controller.image.digest" : "controller.image.tag";
  const given = otherDigest ? digest : tag;
  const effect = otherDigest
    ? "the controller runs the image of that digest"
    : digestRemoved
      ? `with values.controller.image.digest = ${JSON.stringify(digest)} the image has no digest, so the controller runs ${String(tag)}`
      : `it does not even change the image: the chart keeps its controller.image.digest of ${version}, and the image is pulled by that digest (with the digest changed or removed, the controller would run ${String(tag)})`;
  Annotations.of(scope).addWarning(
    `values.${path} = ${JSON.stringify(given) ?? String(given)} overrides the controller image of version = "${version}", while the IAM policy, CRDs and settings follow version (${version}); ${effect}. Set version instead (the chart pins the image of its own version) and leave values.controller.image.tag and digest unset`,
  );
}

/**
 * `values.serviceAccount.create: false` (or `null`, which removes the chart's `true`): the chart
 * creates no ServiceAccount, so the controller's must exist before its pods start (created outside
 * this app), else the API server rejects them; with IRSA it must also carry the role annotation the
 * chart would have written. Warn: it depends on something outside the app.
 * @param account `<namespace>/<name>` of the controller's ServiceAccount
 * @param irsaRoleArn the IRSA role written to the annotation, when the release uses IRSA
 */
export function warnServiceAccountNotCreated(
  scope: IConstruct,
  values: Record<string, unknown> | undefined,
  account: string,
  irsaRoleArn: string | undefined,
): void {
  const sa = values?.serviceAccount;
  if (!isPlainMap(sa) || !("create" in sa) || (sa.create !== false && sa.create !== null)) return;
  const shown = sa.create === null ? "null (removed: the chart's template then skips the ServiceAccount)" : "false";
  const identity =
    irsaRoleArn !== undefined
      ? `with IRSA it must also carry the annotation ${IRSA_ROLE_ANNOTATION} of the controller role${Token.isUnresolved(irsaRoleArn) ? "" : ` (${irsaRoleArn})`}, which the chart now does not write`
      : "the controller's IAM role is bound to that name (EKS Pod Identity association)";
  Annotations.of(scope).addWarning(
    `values.serviceAccount.create = ${shown}: the chart creates no ServiceAccount, so ${account} must exist before the controller pods start (created outside this app), or the API server rejects them and the release times out; ${identity}`,
  );
}
