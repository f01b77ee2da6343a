import * as YAML from "yaml";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { spawnSync } from "child_process";
import { App } from "cdktf";
import { buildApp } from "../../examples/eks-karpenter/main";
import { KarpenterRelease } from "../../lib/helm/karpenter-release";
import { testCluster, testStack } from "../helpers";
import { conformanceHarness, describeIf, harnessRequirement } from "../reference";

/*
 * The errata of shared/reference/karpenter/ERRATA.md: the library emits the corrected form (docs/versions.md#errata).
 */

describe("chart-values errata", () => {
  const release = (version: string, values: Record<string, unknown>) => {
    const { stack } = testStack();
    return new KarpenterRelease(stack, "k", { cluster: testCluster(stack), version, values });
  };

  test("log-output-paths-ignored: logOutputPaths do nothing before 1.0.4, so they are refused there", () => {
    expect(() => release("1.0.3", { logOutputPaths: ["stdout"] })).toThrow(
      /values\.logOutputPaths = \["stdout"\] is invalid: Karpenter 1\.0\.3's chart values\.yaml has no logOutputPaths: it was introduced in 1\.0\.4/,
    );
    expect(() => release("1.0.4", { logOutputPaths: ["stdout"], logErrorOutputPaths: ["stderr"] })).not.toThrow();
  });

  test("static-capacity-gate-casing: 1.8.0 always gets the gate the template reads; the values.yaml spelling is refused", () => {
    expect(YAML.parse(release("1.8.0", {}).valuesYaml).settings.featureGates).toMatchObject({ staticCapacity: false });
    expect(() => release("1.8.0", { settings: { featureGates: { StaticCapacity: true } } })).toThrow(/StaticCapacity/);
  });
});

describeIf(harnessRequirement())("controller-statement errata pass the conformance harness", () => {
  test.each([
    ["1.0.0", "cn-north-1"],
    ["1.12.0", "cn-north-1"],
  ])("the example app with Karpenter %s in %s", (version, region) => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "karpenter-errata-"));
    try {
      buildApp(new App({ outdir: out, stackTraces: false }), {
        KARPENTER_VERSION: version,
        AWS_REGION: region,
      }).synth();
      const policies = JSON.stringify(
        JSON.parse(fs.readFileSync(path.join(out, "stacks/eks/cdk.tf.json"), "utf8")).resource.aws_iam_policy,
      );
      expect(policies).toContain(version === "1.0.0" ? "ec2.amazonaws.com.cn" : "arc-zonal-shift:ResourceIdentifier");
      const run = spawnSync(process.execPath, [conformanceHarness(), out], { encoding: "utf8" });
      expect({ status: run.status, out: run.stdout.slice(-2000) }).toEqual({
        status: 0,
        out: expect.stringMatching(/ok {3}controller-policy/),
      });
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
