import { isMap, parseAllDocuments, Tags } from "yaml";
import { qualifiedNameProblem } from "../kubernetes/value-rules";

/*
 * The controller's SCHEDULER_CONFIG (new in 1.15, env-only: the chart has no setting for it), read as
 * sigs.k8s.io/karpenter v1.15.0 reads it: pkg/operator/options/options.go:238 takes the env var,
 * `Parse` (:265-268) fails the controller at start on any error of `ParseSchedulerConfiguration`
 * (:358-370: `yaml.UnmarshalStrict`, sigs.k8s.io/yaml v1.6.0, then `Validate`, :374-420). v1.14.1's
 * options.go has no such variable.
 *
 * The YAML is read with the `yaml` package as YAML 1.1 (go-yaml v2, which sigs.k8s.io/yaml uses,
 * resolves `yes`/`on`/`y` as booleans, `0x10`, `0b1`, `010`, `1_0` as integers), without the 1.1
 * timestamp and base-60 types go-yaml v2 does not resolve. Checked against the upstream function run on
 * 50 documents (unknown and case-variant keys, number forms, duplicates, several documents). Known
 * differences: a JSON field name matches case-insensitively here by lower case, in Go by Unicode
 * simple folding (`ſ` for `s`, the Kelvin sign for `k`); a number written into a string field is
 * formatted by JavaScript, not Go's `FormatFloat('g', 32)` (only a float topologyKey is affected); the
 * documents after the first are ignored in both, but a syntax error after the first may differ.
 */

/** The first release that reads SCHEDULER_CONFIG (v1.14.1 options.go has none). */
export const SCHEDULER_CONFIG_SINCE = "1.15.0";

/** YAML 1.1 as go-yaml v2 resolves it: no timestamps, no base-60 numbers. */
const GO_YAML_V2_TAGS = (tags: Tags): Tags =>
  tags.filter((t) =>
    typeof t === "string"
      ? !["timestamp", "intTime", "floatTime"].includes(t)
      : t.tag !== "tag:yaml.org,2002:timestamp" && t.format !== "TIME",
  );

type Shape = "string" | "int32" | "strings" | "any";

/** corev1.TopologySpreadConstraint (k8s.io/api core/v1 types.go): each JSON field and how it decodes. */
const CONSTRAINT_FIELDS: Readonly<Record<string, Shape>> = {
  maxSkew: "int32",
  topologyKey: "string",
  whenUnsatisfiable: "string",
  labelSelector: "any",
  minDomains: "int32",
  nodeAffinityPolicy: "string",
  nodeTaintsPolicy: "string",
  matchLabelKeys: "strings",
};

const INT32_MAX = 2 ** 31 - 1;
/** Nodes the aliases of one document may expand to (the yaml library's maxAliasCount); far above any real config. */
const MAX_ALIAS_EXPANSION = 10_000;

const isMapValue = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The fields of `map` under their Go names: encoding/json matches a JSON key to a field case-insensitively, and
 * of two spellings of one field the last it reads wins. It reads the keys in the order sigs.k8s.io/yaml's JSON
 * has them, sorted (YAMLToJSON marshals a Go map: encoding/json sorts map keys), so `maxSkew` (lower case sorts
 * later) beats `MaxSkew` wherever each is written. A key of no field is an error under UnmarshalStrict (options.go:363).
 */
function fields(
  map: Record<string, unknown>,
  known: readonly string[],
  path: string,
  problems: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // byte order, as Go sorts strings (the keys here are ASCII field names or unknown ones)
  const sorted = Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [k, v] of sorted) {
    const field = known.find((f) => f === k) ?? known.find((f) => f.toLowerCase() === k.toLowerCase());
    if (field === undefined) problems.push(`${path} has an unknown field "${k}" (known: ${known.join(", ")})`);
    else out[field] = v;
  }
  return out;
}

/** A scalar as sigs.k8s.io/yaml writes it into a string field (numbers and booleans become their text). */
function asString(v: unknown, path: string, problems: string[]): string | undefined {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  problems.push(`${path} is not a string`);
  return undefined;
}

/** An int32 field: a YAML integer (or a float with no fraction) within int32; null is 0. */
function asInt32(v: unknown, path: string, problems: string[]): number | undefined {
  if (v === null || v === undefined) return 0;
  if (typeof v === "number" && Number.isInteger(v) && v >= -INT32_MAX - 1 && v <= INT32_MAX) return v;
  problems.push(`${path} is not a 32-bit whole number (${JSON.stringify(v) ?? String(v)})`);
  return undefined;
}

/**
 * What the 1.15 controller refuses in a SCHEDULER_CONFIG document, each as a sentence naming the part
 * (`podTopologySpread.defaultConstraints[0].maxSkew …`); empty when the controller takes it. Upstream
 * stops at the first; here every one is named.
 */
export function schedulerConfigProblems(raw: string): string[] {
  // options.go:359: empty is "no overrides"
  if (raw === "") return [];
  const problems: string[] = [];
  const docs = parseAllDocuments(raw, { version: "1.1", customTags: GO_YAML_V2_TAGS, uniqueKeys: true });
  const doc = Array.isArray(docs) ? docs[0] : undefined;
  if (doc === undefined) return [];
  if (doc.errors.length > 0) return [`it is not valid YAML: ${doc.errors[0].message.split("\n")[0]}`];
  let root: unknown;
  try {
    // go-yaml v2 resolves aliases and refuses only "excessive aliasing" (a ratio of aliases to decoded nodes); the
    // yaml library's count is of expanded nodes: a cap that lets reused anchors through and stops an alias bomb
    root = doc.contents === null ? null : doc.toJS({ maxAliasCount: MAX_ALIAS_EXPANSION });
  } catch (e) {
    // an alias of no anchor, or an expansion past the cap: go-yaml v2 refuses both ("unknown anchor",
    // "document contains excessive aliasing"), so the controller stops at start
    return [`it is not valid YAML: ${(e as Error).message.split("\n")[0]}`];
  }
  if (root === null || root === undefined) return [];
  if (!isMapValue(root) || !isMap(doc.contents))
    return ["the document is not a map (a YAML map with podTopologySpread)"];
  const top = fields(root, ["podTopologySpread"], "the document", problems);
  const pts = top.podTopologySpread;
  if (pts === null || pts === undefined) return problems;
  if (!isMapValue(pts)) return [...problems, "podTopologySpread is not a map"];
  const spread = fields(pts, ["defaultConstraints"], "podTopologySpread", problems);
  const list = spread.defaultConstraints;
  if (list === null || list === undefined) return problems;
  if (!Array.isArray(list)) return [...problems, "podTopologySpread.defaultConstraints is not a list"];
  const seen: { key: string; when: string; i: number }[] = [];
  list.forEach((item: unknown, i: number) => {
    const at = `podTopologySpread.defaultConstraints[${i}]`;
    if (item !== null && !isMapValue(item)) {
      problems.push(`${at} is not a map`);
      return;
    }
    const c = fields(item ?? {}, Object.keys(CONSTRAINT_FIELDS), at, problems);
    const decoded: Record<string, unknown> = {};
    let decodes = true;
    for (const [f, shape] of Object.entries(CONSTRAINT_FIELDS)) {
      const v = c[f];
      const before = problems.length;
      if (shape === "int32") decoded[f] = asInt32(v, `${at}.${f}`, problems);
      else if (shape === "string") decoded[f] = asString(v, `${at}.${f}`, problems);
      else if (shape === "strings") {
        if (v !== null && v !== undefined && !Array.isArray(v)) problems.push(`${at}.${f} is not a list`);
        else decoded[f] = (v ?? []).map((s: unknown, j: number) => asString(s, `${at}.${f}[${j}]`, problems));
      } else decoded[f] = v;
      if (problems.length > before) decodes = false;
    }
    // options.go:396-420 (validateDefaultConstraint), on what decoded
    if (!decodes && (decoded.maxSkew === undefined || decoded.topologyKey === undefined)) return;
    const { maxSkew, topologyKey, whenUnsatisfiable, labelSelector, matchLabelKeys } = decoded as {
      maxSkew?: number;
      topologyKey?: string;
      whenUnsatisfiable?: string;
      labelSelector?: unknown;
      matchLabelKeys?: unknown[];
    };
    if (maxSkew !== undefined && maxSkew <= 0) problems.push(`${at}.maxSkew must be greater than 0 (it is ${maxSkew})`);
    if (topologyKey === "") problems.push(`${at}.topologyKey must be set`);
    else if (topologyKey !== undefined) {
      const bad = qualifiedNameProblem(topologyKey);
      if (bad) problems.push(`${at}.topologyKey ${JSON.stringify(topologyKey)} is not a valid label name: ${bad}`);
    }
    if (
      whenUnsatisfiable !== undefined &&
      whenUnsatisfiable !== "DoNotSchedule" &&
      whenUnsatisfiable !== "ScheduleAnyway"
    )
      problems.push(
        `${at}.whenUnsatisfiable ${JSON.stringify(whenUnsatisfiable)} must be "DoNotSchedule" or "ScheduleAnyway"`,
      );
    if (labelSelector !== null && labelSelector !== undefined)
      problems.push(`${at}.labelSelector must not be set: the selector is deduced for each pod`);
    if (matchLabelKeys !== undefined && matchLabelKeys.length > 0)
      problems.push(`${at}.matchLabelKeys must not be set: it has no effect on default constraints`);
    // options.go:384-389: same topologyKey and whenUnsatisfiable as an earlier constraint
    if (topologyKey !== undefined && whenUnsatisfiable !== undefined) {
      const twin = seen.find((s) => s.key === topologyKey && s.when === whenUnsatisfiable);
      if (twin)
        problems.push(
          `${at} is a duplicate of [${twin.i}] (topologyKey ${JSON.stringify(topologyKey)}, whenUnsatisfiable ${JSON.stringify(whenUnsatisfiable)})`,
        );
      else seen.push({ key: topologyKey, when: whenUnsatisfiable, i });
    }
  });
  return problems;
}
