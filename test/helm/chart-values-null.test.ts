import * as fs from "fs";
import * as path from "path";
import { chartValuePaths, mapsTemplatesRead, withoutDanglingNulls } from "../../lib/helm/chart-values";
import { Karpenter } from "../../lib/install/karpenter";
import { rejected, testCluster, testStack } from "../helpers";
import { describeWithReference, referenceRoot, referenceVersionsWith } from "../reference";

/*
 * null in the chart's values: a null for a map whose keys the templates read stops `helm template` ("nil pointer
 * evaluating interface {}.port"), and a null below a map values.yaml leaves empty reaches the templates as null
 * (a `limits: {memory: null}` became a zero memory limit the API server refused: found by the e2e values-agreement
 * stage, which renders with the real Helm).
 */

const TEMPLATES = "charts/karpenter/templates/deployment.yaml";
const versions = referenceVersionsWith(TEMPLATES);

describeWithReference(versions)("the maps the templates read = each release's templates", () => {
  test.each(versions)("%s: the maps of values.yaml its templates read keys of, unguarded", (version) => {
    const dir = path.join(referenceRoot(), `v${version}`, "charts/karpenter/templates");
    const text = fs
      .readdirSync(dir)
      .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
      .join("\n");
    const maps = new Set<string>();
    for (const { path: p } of chartValuePaths(version)) {
      const parts = p.split(".");
      for (let i = 1; i < parts.length; i++) maps.add(parts.slice(0, i).join("."));
    }
    const read = [...maps].filter((m) => {
      const e = m.replace(/\./g, "\\.");
      // a key read below the map (`.Values.controller.metrics.port`), with no `with` / `if` on the map itself
      return (
        new RegExp(`\\.Values\\.${e}\\.[A-Za-z]`).test(text) &&
        !new RegExp(`(with|if) \\.Values\\.${e} *-?\\}\\}`).test(text)
      );
    });
    expect(mapsTemplatesRead(version).sort()).toEqual(read.sort());
  });
});

function install(values: Record<string, unknown>, version = "1.15.0") {
  const { stack } = testStack();
  return new Karpenter(stack, "karpenter", { cluster: testCluster(stack), version, values });
}

describe("null in values", () => {
  test.each([
    ["controller", { controller: null }, "1.15.0"],
    ["controller.metrics", { controller: { metrics: null } }, "1.15.0"],
    ["serviceMonitor", { serviceMonitor: null }, "1.15.0"],
    ["podDisruptionBudget", { podDisruptionBudget: null }, "1.15.0"],
    ["webhook", { webhook: null }, "1.0.14"],
  ])("null for %s (a map the templates read keys of) is refused", (field, values, version) => {
    const e = rejected(() => install(values, version));
    expect(e.problems.map((p) => [p.code, p.field])).toEqual([["HELM_VALUES_NULL_MAP", `values.${field}`]]);
    expect(e.message).toMatch(/nil pointer evaluating interface/);
  });
  test("null for a map the chart renders under with (affinity, strategy.rollingUpdate) or an empty one (podAnnotations) passes", () => {
    expect(() => install({ affinity: null })).not.toThrow();
    expect(() => install({ strategy: { rollingUpdate: null, type: "Recreate" } })).not.toThrow();
    expect(() => install({ podAnnotations: null, nodeSelector: null })).not.toThrow();
    expect(() => install({ webhook: null }, "1.1.10")).toThrow(/HELM_VALUES_UNKNOWN_KEY/);
  });
  test("a null below a map values.yaml leaves empty is removed from the document, not handed to the templates", () => {
    expect(
      withoutDanglingNulls(
        {
          controller: { resources: { requests: { memory: "4Gi" }, limits: { memory: null, cpu: "1" } } },
          podAnnotations: null,
          affinity: { nodeAffinity: null },
          nodeSelector: { "kubernetes.io/os": null },
          settings: { clusterCABundle: null },
        },
        "1.15.0",
      ),
    ).toEqual({
      controller: { resources: { requests: { memory: "4Gi" }, limits: { cpu: "1" } } },
      podAnnotations: null,
      affinity: { nodeAffinity: null },
      nodeSelector: { "kubernetes.io/os": null },
      settings: { clusterCABundle: null },
    });
  });
});
