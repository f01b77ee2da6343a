import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";
import { chartValuePaths, chartValueTree, checkValuePaths, leafPaths, unknownDepth } from "../../lib/private/chart-values";
import { KarpenterValidationError } from "../../lib/errors";

const REFERENCE = "/work/shared/reference/karpenter";
const referenceVersions = fs.existsSync(REFERENCE) ? fs.readdirSync(REFERENCE).filter((d) => /^v\d+\.\d+\.\d+$/.test(d)).map((d) => d.slice(1)) : [];

/** values.yaml (without settings) in the table's notation, read independently of the table: `{}` empty map or nodeSelector, `[]` list, `~` null. */
function referencePaths(version: string): string[] {
  const doc = YAML.parse(fs.readFileSync(path.join(REFERENCE, `v${version}`, "charts/karpenter/values.yaml"), "utf8"));
  const out: string[] = [];
  const walk = (v: unknown, p: string) => {
    if (p === "nodeSelector") return void out.push("nodeSelector{}");
    if (v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 0) {
      for (const [k, x] of Object.entries(v)) walk(x, p ? `${p}.${k}` : k);
    } else out.push(`${p}${Array.isArray(v) ? "[]" : v === null ? "~" : typeof v === "object" ? "{}" : ""}`);
  };
  for (const [k, v] of Object.entries(doc)) if (k !== "settings") walk(v, k);
  return out.sort();
}

const asNotation = (version: string) => chartValuePaths(version).map((e) => e.entry).sort();

describe("chart value paths", () => {
  (referenceVersions.length ? test.each(referenceVersions) : test.skip.each(["none"]))("the table agrees with the %s chart's values.yaml", (version) => {
    expect(asNotation(version)).toEqual(referencePaths(version));
  });

  test("patch-level changes between the reference folders (read at the upstream tags)", () => {
    const has = (version: string, p: string) => unknownDepth(chartValueTree(version), p.split(".")) < 0;
    expect([has("1.0.0", "postInstallHook.image.tag"), has("1.0.1", "postInstallHook.image.tag")]).toEqual([true, false]);
    expect([has("1.1.0", "schedulerName"), has("1.1.1", "schedulerName")]).toEqual([false, true]);
    expect([has("1.5.2", "podSecurityContext.runAsNonRoot"), has("1.5.3", "podSecurityContext.runAsNonRoot")]).toEqual([true, false]);
    expect([has("1.0.14", "webhook.port"), has("1.1.0", "webhook.port")]).toEqual([true, false]);
  });

  test("the rule: open maps and lists take anything below, filled maps are closed, nothing goes below a value", () => {
    const tree = chartValueTree("1.14.1");
    const depth = (p: string) => unknownDepth(tree, p.split("."));
    expect(depth("controller.resources.requests.memory")).toBe(-1);
    expect(depth("podAnnotations.x")).toBe(-1);
    expect(depth("nodeSelector.node-role")).toBe(-1);
    expect(depth("tolerations")).toBe(-1);
    expect(depth("affinity")).toBe(-1); // setting a whole map (e.g. to null) is fine
    expect(depth("settings.anything")).toBe(-1); // judged by the typed settings checks
    expect(depth("replicaz")).toBe(0);
    expect(depth("replicas.x")).toBe(1);
    expect(depth("affinity.podAffinity")).toBe(1);
    expect(depth("controller.image.registry")).toBe(2);
  });

  test("leaf paths keep keys with dots whole", () => {
    expect(leafPaths({ a: { "kubernetes.io/os": "linux", b: [] }, c: {}, d: undefined })).toEqual([
      { parts: ["a", "kubernetes.io/os"], value: "linux" },
      { parts: ["a", "b"], value: [] },
      { parts: ["c"], value: {} },
    ]);
  });

  test("an unknown path names the path, the version, and the version that has it", () => {
    const check = (version: string, values: Record<string, unknown>) => () => checkValuePaths("k", version, values, (p) => `values.${p.join(".")}`);
    expect(check("1.14.1", { replicaz: 3 })).toThrow(KarpenterValidationError);
    expect(check("1.14.1", { replicaz: 3 })).toThrow(/^k: values\.replicaz = 3 is invalid: a value path of the Karpenter 1\.14\.1 chart's values\.yaml, which has no replicaz; did you mean replicas\? \(keys at the top level: nameOverride, /);
    expect(check("1.0.14", { service: { annotations: { a: "b" } } })).toThrow('k: values.service.annotations.a = "b" is invalid: Karpenter 1.0.14\'s chart values.yaml has no service.annotations.a: it was introduced in 1.1.0; use version 1.1.0 or later, or leave it unset');
    expect(check("1.14.1", { webhook: { enabled: true } })).toThrow(/has no webhook\.enabled: the chart had it up to 1\.0\.14 and dropped it/);
    expect(check("1.14.1", { replicas: { x: 1 } })).toThrow(/has no replicas\.x: replicas is a single value, not a map/);
    expect(check("1.14.1", { affinity: { podAffinity: {} } })).toThrow(/which has no affinity\.podAffinity \(keys under affinity: nodeAffinity, podAntiAffinity\)/);
    expect(check("1.14.1", { replicas: 3, podLabels: { a: "b" }, controller: { resources: { limits: { cpu: "1" } } }, settings: { batchMaxDuration: "5s" } })).not.toThrow();
  });
});
