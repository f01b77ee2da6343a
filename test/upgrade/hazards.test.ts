import * as YAML from "yaml";
import { Testing } from "cdktf";
import { Karpenter } from "../../lib/install/karpenter";
import { UPGRADE_HAZARDS } from "../../lib/upgrade";
import { versionFacts } from "../../lib/versions";
import { providedStack, resources, synthJson, testCluster } from "../helpers";

/*
 * What the hazard data says this library does about each erratum holds: a correction in the data
 * shows in the facts' errata of every affected minor; a workaround in the constructs shows in
 * their output.
 */

function install(version: string, values?: Record<string, unknown>): { controllerValues: any } {
  const stack = providedStack(Testing.app(), "eks");
  new Karpenter(stack, "karpenter", { cluster: testCluster(stack, "demo"), version, values });
  const releases = Object.values(resources(synthJson(stack), "helm_release")) as any[];
  return { controllerValues: YAML.parse(releases.find((r) => r.chart === "karpenter").values[0]) };
}

const hazard = (id: string) => UPGRADE_HAZARDS.find((h) => h.id === id)!;

test("errata corrected in the data are listed in the facts of the affected minors", () => {
  for (const h of UPGRADE_HAZARDS.filter((x) => x.library?.by === "data")) {
    expect([h.id, versionFacts(h.versions.from).errata]).toEqual([h.id, expect.arrayContaining([h.id])]);
    expect([h.id, versionFacts(h.versions.to).errata]).toEqual([h.id, expect.arrayContaining([h.id])]);
  }
});

test("static-capacity-gate-casing: 1.8.0 always gets settings.featureGates.staticCapacity", () => {
  expect(hazard("static-capacity-gate-casing").library?.by).toBe("code");
  expect(install("1.8.0").controllerValues.settings.featureGates).toMatchObject({ staticCapacity: false });
});

test("log-output-paths-ignored: 1.0.0–1.0.3 refuse the log path values, 1.0.4 takes them", () => {
  expect(hazard("log-output-paths-ignored").library?.by).toBe("code");
  expect(() => install("1.0.3", { logOutputPaths: ["stdout"] })).toThrow(
    /values\.logOutputPaths = \["stdout"\] is invalid: Karpenter 1\.0\.3's chart values\.yaml has no logOutputPaths/,
  );
  expect(install("1.0.4", { logOutputPaths: ["stdout"] }).controllerValues.logOutputPaths).toEqual(["stdout"]);
});
