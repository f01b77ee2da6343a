import * as semver from "../versions/semver";
import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../core/errors";
import { isPlainMap } from "../core/deep-merge";
import { isUnresolved } from "../core/tokens";
import { nearestKey, Problems } from "../core/problems";
import { Annotations } from "cdktf";
import { factsRelease, valuePathsAt } from "../versions";
import { VALUE_PATHS_PATCH_CHANGES } from "../versions/patch-history";
import { KNOWN_RELEASES } from "../versions/karpenter-version";
import { typedValuesAt } from "./k8s-typed-values";
import { typedValueProblems } from "./k8s-field-check";

/*
 * The value paths of the `karpenter` chart's values.yaml, per release: lib/versions/data/ (generated
 * by `npm run add-version` from `charts/karpenter/values.yaml` of each minor's newest patch) and the
 * patches that moved a path (lib/versions/patch-history.ts: 1.0.1, 1.1.1, 1.5.3, read at their
 * tags). `settings` is not here: its keys and feature gates are modelled, with their types, in
 * chart-settings.ts.
 *
 * Notation: `a.b` is a value; `a.b[]` a list (Helm replaces it whole, so it is a leaf); `a.b{}` a
 * map that takes any key (empty in values.yaml — annotations, labels, resources — or `nodeSelector`,
 * whose one default label a user adds to); `a.b~` a key whose default is null (any value).
 * A map that values.yaml fills (`serviceMonitor`…) is closed: only its listed paths exist — the rule the
 * conformance harness applies. A subtree the chart renders whole into a Kubernetes object with `toYaml`
 * (`strategy`, `podSecurityContext`, `affinity`, the containers …: k8s-typed-values.ts) is not judged by
 * values.yaml's example keys but by its Kubernetes type's fields and JSON types (k8s-field-check.ts).
 */

/** What a path of the table is: a value, a list, or a map / null default that takes anything below it. */
type ValuePathKind = "value" | "list" | "open";

/** A tree of the chart's values at one version: maps of keys down to their kind. */
type ChartValueTree = { [key: string]: ChartValueTree | ValuePathKind };

function parsePath(entry: string): { parts: string[]; kind: ValuePathKind } {
  const m = /^(.*?)(\[\]|\{\}|~)?$/.exec(entry)!;
  return { parts: m[1].split("."), kind: m[2] === "[]" ? "list" : m[2] ? "open" : "value" };
}

/**
 * The table at `version` as flat entries `{ path, kind, entry }` (`entry` in the table's notation;
 * `settings` excluded), in table order. The tests hold it against each release's values.yaml.
 */
export function chartValuePaths(version: string): { path: string; kind: ValuePathKind; entry: string }[] {
  return valuePathsAt(factsRelease(version)).map((entry) => {
    const { parts, kind } = parsePath(entry);
    return { path: parts.join("."), kind, entry };
  });
}

/** The table at `version` as a tree (with `settings` as one open entry). */
function chartValueTree(version: string): ChartValueTree {
  const root: ChartValueTree = {};
  for (const { path, kind } of chartValuePaths(version)) {
    const parts = path.split(".");
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as ChartValueTree;
    node[parts[parts.length - 1]] = kind;
  }
  // settings are judged key by key with their types (chart-settings.ts); here they only need to exist
  root.settings = "open";
  return root;
}

/**
 * Whether the chart of `version` has the value at `parts` (one leaf of a values document: lists,
 * scalars, null and empty maps are leaves). A path ending on a map of the chart (e.g. setting
 * `affinity: null`) exists; one below a value (`replicas.x`) does not. `settings` is not judged here.
 * Returns the depth of the first unknown key, or -1 when the path exists.
 */
function unknownDepth(tree: ChartValueTree, parts: readonly string[]): number {
  let node: ChartValueTree | ValuePathKind = tree;
  for (let i = 0; i < parts.length; i++) {
    if (node === "open" || node === "list") return -1;
    if (node === "value" || !(parts[i] in node)) return i;
    node = node[parts[i]];
  }
  return -1;
}

/** The value at `parts` of a values document, or undefined. */
function lookup(values: unknown, parts: readonly string[]): unknown {
  let node = values;
  for (const part of parts) {
    if (!isPlainMap(node) || !Object.prototype.hasOwnProperty.call(node, part)) return undefined;
    node = node[part];
  }
  return node;
}

/** Every leaf of a values document as its key path, the way Helm and the conformance harness see it. */
export function leafPaths(values: unknown, prefix: readonly string[] = []): { parts: string[]; value: unknown }[] {
  if (isPlainMap(values) && Object.keys(values).length > 0) {
    return Object.entries(values).flatMap(([k, v]) => (v === undefined ? [] : leafPaths(v, [...prefix, k])));
  }
  return [{ parts: [...prefix], value: values }];
}

/** Every known release plus the patches that moved a path and the releases just before them: the versions worth asking "does it have the path?". */
function probeVersions(): string[] {
  // the data holds each minor's newest patch; a path of it is taken to exist from the minor's .0 on
  const all = new Set<string>(KNOWN_RELEASES.flatMap((r) => [r, r.replace(/\.\d+$/, ".0")]));
  for (const c of VALUE_PATHS_PATCH_CHANGES) {
    all.add(c.patch);
    const [major, minor, patch] = c.patch.split(".").map(Number);
    all.add(patch > 0 ? `${major}.${minor}.${patch - 1}` : c.patch);
  }
  return [...all].sort(semver.compare);
}

/**
 * Refuses a path the chart's values.yaml of `version` does not have: Helm would render nothing for it
 * and the chart ignore it silently. `settings` paths are left to the typed settings checks.
 * @param fieldOf the prop path of a value's key path, e.g. `values.replicaz` or `affinity.podAffinity`
 * @param reported problems other checks of the same values found: a typed-subtree problem at or around one of their fields is not repeated
 * @throws KarpenterValidationError naming the path, the version, and the version that has it when one does
 */
export function checkValuePaths(
  scope: IConstruct | string,
  version: string,
  values: Record<string, unknown>,
  fieldOf: (parts: readonly string[]) => string,
  reported: readonly KarpenterValidationError[] = [],
): void {
  const tree = chartValueTree(version);
  const stand = factsRelease(version);
  // every unknown path at once
  const problems = new Problems();
  // the subtrees the chart renders whole: judged by their Kubernetes type, not values.yaml's example keys; a
  // problem a stricter rule already reported (tolerations, env, dnsConfig, resources) at or around the same
  // field is not said twice
  const typed = typedValuesAt(stand);
  const under = (a: string, b: string) => a.startsWith(`${b}.`) || a.startsWith(`${b}[`);
  const near = (a: string, b: string) => a === b || under(a, b) || under(b, a);
  for (const { parts, entry, lines } of typed) {
    const value = lookup(values, parts);
    for (const p of typedValueProblems(scope, value, entry.type, entry.list, fieldOf(parts), parts.join("."), lines))
      if (!reported.some((r) => near(r.field, p.field))) problems.add(p);
  }
  const nullBreaks = mapsTemplatesRead(stand);
  for (const { parts, value } of leafPaths(values)) {
    if (parts[0] === "settings") continue;
    if (value === null && nullBreaks.includes(parts.join("."))) {
      problems.add(
        new KarpenterValidationError(
          "HELM_VALUES_NULL_MAP",
          scope,
          fieldOf(parts),
          null,
          `a map (set its keys, or leave it unset): null makes Helm remove the chart's ${parts.join(".")} map, and the templates of the Karpenter ${stand} chart read keys of it (.Values.${parts.join(".")}.…), so helm stops with "nil pointer evaluating interface {}"`,
        ),
      );
      continue;
    }
    if (typed.some((t) => t.parts.every((k, i) => parts[i] === k))) continue;
    const depth = unknownDepth(tree, parts);
    if (depth < 0) continue;
    if (stand !== version && typeof scope !== "string") {
      // a release newer than every known one (allowUnverifiedVersion): the path may be new in it
      Annotations.of(scope).addWarning(
        `${fieldOf(parts)} is not a value path of the Karpenter ${stand} chart, the newest this library knows; passed to the ${version} chart unchecked (allowUnverifiedVersion). Check it in the ${version} chart's values.yaml`,
      );
      continue;
    }
    // the path is wrong whatever the value; a token's text would mean nothing to the reader
    problems.add(
      new KarpenterValidationError(
        "HELM_VALUES_UNKNOWN_KEY",
        scope,
        fieldOf(parts),
        isUnresolved(value) ? "(known at apply)" : value,
        explainUnknown(tree, version, parts, depth),
      ),
    );
  }
  problems.throwIfAny(scope);
}

function explainUnknown(tree: ChartValueTree, version: string, parts: readonly string[], depth: number): string {
  const path = parts.join(".");
  const having = probeVersions().filter((v) => unknownDepth(chartValueTree(v), parts) < 0);
  const newer = having.find((v) => semver.gt(v, version));
  if (newer)
    return `Karpenter ${version}'s chart values.yaml has no ${path}: it was introduced in ${newer}; use version ${newer} or later, or leave it unset`;
  if (having.length > 0) {
    const last = having[having.length - 1];
    return `Karpenter ${version}'s chart values.yaml has no ${path}: the chart had it up to ${last} and dropped it; leave it unset`;
  }
  let node: ChartValueTree | ValuePathKind = tree;
  for (const part of parts.slice(0, depth)) node = (node as ChartValueTree)[part];
  const where = depth === 0 ? "at the top level" : `under ${parts.slice(0, depth).join(".")}`;
  if (typeof node === "string")
    return `Karpenter ${version}'s chart values.yaml has no ${path}: ${parts.slice(0, depth).join(".")} is a single value, not a map`;
  const keys = Object.keys(node);
  const near = nearestKey(parts[depth], keys);
  return `a value path of the Karpenter ${version} chart's values.yaml, which has no ${path}${near ? `; did you mean ${[...parts.slice(0, depth), near].join(".")}?` : ""} (keys ${where}: ${keys.join(", ")})`;
}

/**
 * The maps of the chart's values that its templates read keys of without a `with` / `if` guard on the map itself
 * (`.Values.controller.metrics.port`, `if .Values.serviceMonitor.enabled`), per release. A user value of `null`
 * makes Helm delete the key (chartutil coalesce: a null value removes the chart's default), and Go's template engine
 * then stops on the next key: "nil pointer evaluating interface {}.port". Read from each release's
 * charts/karpenter/templates (shared/reference); test/helm/chart-values-null.test.ts holds this list against them,
 * so it cannot drift. `settings` and its gate maps are not here: the settings checks judge them.
 */
const MAPS_TEMPLATES_READ: readonly { path: string; since?: string; before?: string }[] = [
  { path: "controller" },
  { path: "controller.healthProbe" },
  { path: "controller.image" },
  { path: "controller.metrics" },
  { path: "podDisruptionBudget" },
  { path: "serviceAccount" },
  { path: "serviceMonitor" },
  // 1.0's chart holds the conversion webhook (templates/service.yaml, deployment.yaml); 1.1 moved it out
  { path: "webhook", before: "1.1.0" },
  { path: "webhook.metrics", before: "1.1.0" },
  // 1.1 on: templates/service.yaml reads .Values.service.annotations
  { path: "service", since: "1.1.0" },
];

/** The value paths (dotted) of {@link MAPS_TEMPLATES_READ} at `version`. */
export function mapsTemplatesRead(version: string): string[] {
  return MAPS_TEMPLATES_READ.filter(
    (m) => (!m.since || semver.gte(version, m.since)) && (!m.before || semver.lt(version, m.before)),
  ).map((m) => m.path);
}

/**
 * `values` without the nulls Helm would hand to the templates as null: a null replaces the chart's default only
 * where values.yaml has one at that path (chartutil coalesce deletes the key); below a map values.yaml leaves empty
 * (`controller.resources{}`, `podAnnotations{}`), or below a value of the user's own, Helm keeps the null and the
 * template renders it (`limits: {memory: null}` reaches the API server as a zero limit). There, null can only mean
 * "remove what this library or the values around it put there", so the key is removed from the document instead.
 * `settings` keep their nulls (the settings checks read them), and so does `nodeSelector`, whose default label a
 * null removes.
 */
export function withoutDanglingNulls(values: Record<string, unknown>, version: string): Record<string, unknown> {
  const tree = chartValueTree(factsRelease(version));
  const walk = (value: Record<string, unknown>, node: ChartValueTree | ValuePathKind | undefined) => {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (node === tree && key === "settings") {
        out[key] = v;
        continue;
      }
      const below = node !== undefined && typeof node !== "string" ? node[key] : undefined;
      // nodeSelector is the one open map values.yaml fills (kubernetes.io/os: linux): a null there removes that default
      if (v === null && below === undefined && !(node === tree.nodeSelector)) continue;
      out[key] = isPlainMap(v) ? walk(v, below) : v;
    }
    return out;
  };
  return walk(values, tree);
}
