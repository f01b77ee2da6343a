import * as YAML from "yaml";
import { Testing } from "cdktf";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterSettings } from "../../lib/helm/karpenter-settings";
import { NodePool } from "../../lib/nodes/node-pool";
import { KarpenterValidationError } from "../../lib/core/errors";
import { DEFAULT_KARPENTER_VERSION } from "../../lib/versions/karpenter-version";
import { providedStack, resources, testCluster } from "../helpers";
import { KarpenterProps } from "../../lib/install/karpenter-props";

/** A Karpenter install (its own app), the synthesized stack and the warnings of the app. */
function install(props: Partial<KarpenterProps>) {
  const app = Testing.app();
  const stack = providedStack(app, "test");
  const karpenter = new Karpenter(stack, "karpenter", { cluster: testCluster(stack), ...props });
  const json = JSON.parse(Testing.synth(stack, true));
  const warnings = stack.node
    .findAll()
    .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)));
  return { app, stack, karpenter, json, warnings };
}

const releases = (json: any) => Object.values(resources(json, "helm_release")) as any[];
const policies = (json: any) => Object.values(resources(json, "aws_iam_policy")).map((p: any) => JSON.parse(p.policy));

describe("a Karpenter release newer than every known one", () => {
  test("is refused without the opt-in, naming the newest known release and the opt-in", () => {
    let err: unknown;
    try {
      install({ version: "1.16.0" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(KarpenterValidationError);
    expect((err as Error).message).toMatch(
      /^test\/karpenter: version = "1\.16\.0" is invalid: .*1\.16\.0 is newer than 1\.15\.3, the newest release this library knows: to install it anyway, set allowUnverifiedVersion: true on Karpenter/,
    );
    expect(DEFAULT_KARPENTER_VERSION).toBe("1.15.3");
  });

  test("with allowUnverifiedVersion: both releases install it, facts from the newest known release, and synth warns naming both", () => {
    const { json, warnings } = install({ version: "1.16.0", allowUnverifiedVersion: true });
    expect(
      releases(json)
        .map((r) => [r.chart, r.version])
        .sort(),
    ).toEqual([
      ["karpenter", "1.16.0"],
      ["karpenter-crd", "1.16.0"],
    ]);
    const known = install({ version: "1.15.0" });
    expect(policies(json)).toEqual(policies(known.json));
    expect(Object.keys(resources(json, "aws_cloudwatch_event_rule")).sort()).toEqual(
      Object.keys(resources(known.json, "aws_cloudwatch_event_rule")).sort(),
    );
    const warning = warnings.filter((w) => w.includes("allowUnverifiedVersion") && w.startsWith("Karpenter 1.16.0"));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toMatch(
      /Karpenter 1\.16\.0 is newer than 1\.15\.3, the newest release.*IAM policy, interruption event rules, chart settings and CRD rules are assumed to equal 1\.15\.3's and are unverified/,
    );
  });

  test("with the opt-in, settings and values the newest known chart lacks pass with a warning; known ones are still checked", () => {
    const { json, warnings } = install({
      version: "1.16.0",
      allowUnverifiedVersion: true,
      settings: { brandNewSetting: "x", featureGates: { brandNewGate: true } } as KarpenterSettings,
      values: { brandNewValue: { a: 1 } },
    });
    const values = releases(json).find((r) => r.chart === "karpenter").values[0];
    expect(YAML.parse(values)).toMatchObject({
      settings: { brandNewSetting: "x", featureGates: { brandNewGate: true } },
      brandNewValue: { a: 1 },
    });
    expect(
      warnings.some((w) =>
        /^settings\.brandNewSetting is not a key of the Karpenter 1\.15 chart.*passed to the 1\.16\.0 chart unchecked/.test(
          w,
        ),
      ),
    ).toBe(true);
    expect(warnings.some((w) => /^settings\.featureGates\.brandNewGate is not a key/.test(w))).toBe(true);
    expect(
      warnings.some((w) => /^values\.brandNewValue\.a is not a value path of the Karpenter 1\.15\.0 chart/.test(w)),
    ).toBe(true);
    expect(() =>
      install({ version: "1.16.0", allowUnverifiedVersion: true, settings: { batchMaxDuration: "soon" } }),
    ).toThrow(/settings\.batchMaxDuration = "soon" is invalid/);
    expect(() =>
      install({ version: "1.16.0", allowUnverifiedVersion: true, values: { settings: { clusterName: "x" } } }),
    ).toThrow(/wired/);
  });

  test("without the opt-in an unknown setting stays an error", () => {
    expect(() => install({ settings: { brandNewSetting: "x" } as KarpenterSettings })).toThrow(
      /settings\.brandNewSetting = "x" is invalid: a setting of the Karpenter 1\.15\.3 chart/,
    );
  });

  test("node objects of the opted-in app use the asked version too", () => {
    const { app, karpenter } = install({ version: "1.16.0", allowUnverifiedVersion: true });
    const stack = providedStack(app, "nodes");
    const pool = new NodePool(stack, "pool", { karpenter, nodeClass: { name: "default" } });
    expect(pool.node.path).toBe("nodes/pool");
    // an app without the opt-in refuses the same version on a node object
    const other = providedStack(Testing.app(), "nodes");
    expect(() => new NodePool(other, "pool", { version: "1.16.0", nodeClass: { name: "default" } })).toThrow(
      /nodes\/pool: version = "1\.16\.0" is invalid: .*allowUnverifiedVersion/,
    );
  });

  test("the Kubernetes range assumed for it is named as such", () => {
    const app = Testing.app();
    const stack = providedStack(app, "test");
    const cluster = testCluster(stack);
    cluster.eksCluster!.version = "1.25";
    expect(
      () => new Karpenter(stack, "karpenter", { cluster, version: "1.16.0", allowUnverifiedVersion: true }),
    ).toThrow(
      /version = "1\.16\.0" is invalid: Karpenter 1\.16\.0 \(unverified: assumed to run where 1\.15\.3 runs\) supports Kubernetes 1\.31 to 1\.37, and .* runs Kubernetes 1\.25/,
    );
  });

  test("a new major is refused even with the opt-in; a newer patch of a known minor needs none", () => {
    expect(() => install({ version: "2.0.0", allowUnverifiedVersion: true })).toThrow(
      /version = "2\.0\.0" is invalid: a Karpenter release "MAJOR\.MINOR\.PATCH" of a supported minor/,
    );
    // the message says why the opt-in does not help, with or without it
    for (const allowUnverifiedVersion of [true, false]) {
      expect(() => install({ version: "2.0.0", allowUnverifiedVersion })).toThrow(
        /2\.0\.0 is a new major release: .*allowUnverifiedVersion does not cover it \(it covers newer 1\.x releases only\)/,
      );
    }
    const { json } = install({ version: "1.14.7" });
    expect(releases(json).map((r) => r.version)).toEqual(["1.14.7", "1.14.7"]);
    expect(() => install({ version: "1.16.0", allowUnverifiedVersion: "yes" as unknown as boolean })).toThrow(
      /allowUnverifiedVersion = "yes" is invalid: true or false/,
    );
  });
});
