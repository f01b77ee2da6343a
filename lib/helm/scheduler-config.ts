import { decodeGoJson, GO_INT32, GO_STRING, goMap, goPtr, goSlice, goStruct } from "../core/go-json";
import { decodeGoYaml } from "../core/go-yaml";
import { qualifiedNameProblem } from "../kubernetes/value-rules";

/*
 * The controller's SCHEDULER_CONFIG (new in 1.15, env-only: the chart has no setting for it), read as
 * sigs.k8s.io/karpenter v1.15.0 reads it: pkg/operator/options/options.go:238 takes the env var,
 * `Parse` (:265-268) fails the controller at start on any error of `ParseSchedulerConfiguration`
 * (:358-370: `yaml.UnmarshalStrict`, sigs.k8s.io/yaml v1.6.0, then `Validate`, :374-420). v1.14.1's
 * options.go has no such variable.
 *
 * UnmarshalStrict is go-yaml v2's strict decode (a key set twice is an error, a `<<` merge's key included: the
 * first document only) then encoding/json with DisallowUnknownFields: core/go-yaml.ts and core/go-json.ts port
 * both (number forms such as `0o7`, `08`, `1_`; two spellings of one field decoded in turn, a struct filled in;
 * field names matched by Unicode simple folding; a number in a string field written as Go writes it). Checked
 * against the upstream function run on every document of test/helm/scheduler-config.test.ts. Known differences:
 * of two map keys equal only as strings (`1` and `"1"` in a label map) Go keeps either at random, here the later;
 * a syntax error after the first document may differ; a document nested thousands of levels deep (go-yaml v2 allows
 * 10,000) is refused when it outgrows the stack; the aliases of a document may decode to at most
 * MAX_ALIAS_EXPANSION nodes (core/go-yaml.ts, a policy of this library).
 */

/** The first release that reads SCHEDULER_CONFIG (v1.14.1 options.go has none). */
export const SCHEDULER_CONFIG_SINCE = "1.15.0";

/** metav1.LabelSelector (k8s.io/apimachinery v0.36.1 pkg/apis/meta/v1/types.go:1326-1351). */
const LABEL_SELECTOR = goStruct({
  matchLabels: goMap(GO_STRING),
  matchExpressions: goSlice(goStruct({ key: GO_STRING, operator: GO_STRING, values: goSlice(GO_STRING) })),
});

/** corev1.TopologySpreadConstraint (k8s.io/api v0.36.1 core/v1/types.go:4690-4788), its fields in Go's order. */
const CONSTRAINT = goStruct({
  maxSkew: GO_INT32,
  topologyKey: GO_STRING,
  whenUnsatisfiable: GO_STRING,
  labelSelector: goPtr(LABEL_SELECTOR),
  minDomains: goPtr(GO_INT32),
  nodeAffinityPolicy: goPtr(GO_STRING),
  nodeTaintsPolicy: goPtr(GO_STRING),
  matchLabelKeys: goSlice(GO_STRING),
});

/** options.go:341-354 SchedulerConfiguration. */
const SCHEDULER_CONFIGURATION = goStruct({
  podTopologySpread: goPtr(goStruct({ defaultConstraints: goSlice(CONSTRAINT) })),
});

interface Constraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly whenUnsatisfiable: string;
  readonly labelSelector: unknown;
  readonly matchLabelKeys: readonly string[] | null;
}

/**
 * What the 1.15 controller refuses in a SCHEDULER_CONFIG document, each as a sentence naming the part
 * (`podTopologySpread.defaultConstraints[0].maxSkew …`); empty when the controller takes it. Upstream
 * stops at the first; here every one is named.
 */
export function schedulerConfigProblems(raw: string): string[] {
  // options.go:359: empty is "no overrides"
  if (raw === "") return [];
  const yaml = decodeGoYaml(raw, { strict: true });
  if ("error" in yaml) {
    const why = yaml.error
      .replace(/^yaml: /, "")
      .split("\n")
      .map((l) => l.trim())
      .join(" ");
    // go-yaml v2's strict mode (decode.go:685-691) counts a key a `<<` merge sets
    const merge = / already set in map/.test(why)
      ? " (the controller reads the YAML strictly: a key may be set once, by a `<<` merge too)"
      : "";
    // too deep for this reader (core/go-yaml.ts): not a YAML verdict, so not called invalid YAML
    if (yaml.tooDeep) return [`it cannot be read here: ${why}. Flatten the document`];
    return [`it is not valid YAML: ${why}${merge}`];
  }
  if (yaml.value !== null && !(yaml.value instanceof Map))
    return ["the document is not a map (a YAML map with podTopologySpread)"];
  const decoded = decodeGoJson(SCHEDULER_CONFIGURATION, yaml.value, { strict: true, root: "the document" });
  const problems = decoded.problems.map((p) => `${p.path} ${p.problem}`);
  const config = decoded.value as { podTopologySpread: { defaultConstraints: Constraint[] | null } | null };
  const list = config.podTopologySpread?.defaultConstraints ?? [];
  const seen: { key: string; when: string; i: number }[] = [];
  list.forEach((c, i) => {
    const at = `podTopologySpread.defaultConstraints[${i}]`;
    // upstream validates only what decoded; a constraint with a decoding problem is named by that problem alone
    if (decoded.problems.some((p) => p.trail[0] === "podTopologySpread" && p.trail[2] === i)) return;
    // options.go:396-420 (validateDefaultConstraint)
    const { maxSkew, topologyKey, whenUnsatisfiable, labelSelector, matchLabelKeys } = c;
    if (maxSkew <= 0) problems.push(`${at}.maxSkew must be greater than 0 (it is ${maxSkew})`);
    if (topologyKey === "") problems.push(`${at}.topologyKey must be set`);
    else {
      const bad = qualifiedNameProblem(topologyKey);
      if (bad) problems.push(`${at}.topologyKey ${JSON.stringify(topologyKey)} is not a valid label name: ${bad}`);
    }
    if (whenUnsatisfiable !== "DoNotSchedule" && whenUnsatisfiable !== "ScheduleAnyway")
      problems.push(
        `${at}.whenUnsatisfiable ${JSON.stringify(whenUnsatisfiable)} must be "DoNotSchedule" or "ScheduleAnyway"`,
      );
    if (labelSelector !== null)
      problems.push(`${at}.labelSelector must not be set: the selector is deduced for each pod`);
    if (matchLabelKeys !== null && matchLabelKeys.length > 0)
      problems.push(`${at}.matchLabelKeys must not be set: it has no effect on default constraints`);
    // options.go:384-389: same topologyKey and whenUnsatisfiable as an earlier constraint
    const twin = seen.find((s) => s.key === topologyKey && s.when === whenUnsatisfiable);
    if (twin)
      problems.push(
        `${at} is a duplicate of [${twin.i}] (topologyKey ${JSON.stringify(topologyKey)}, whenUnsatisfiable ${JSON.stringify(whenUnsatisfiable)})`,
      );
    else seen.push({ key: topologyKey, when: whenUnsatisfiable, i });
  });
  return problems;
}
