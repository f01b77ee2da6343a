import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { execFileSync, spawnSync } from "child_process";
import { App, Testing } from "cdktf";
import {
  conformanceHarness,
  describeIf,
  harnessRequirement,
  referenceRequirement,
  referenceRoot,
  testIf,
} from "../reference";

/*
 * A release the library has not seen becomes a supported version with `npm run add-version` alone:
 * a synthetic 1.16.0 (the 1.15.0 artefacts plus one new chart setting) is added to a copy of the
 * data, and the library, loaded against that copy, synthesizes the example app for 1.16.0, passes
 * the conformance harness pointed at the synthetic reference root, and accepts the new setting
 * from 1.16.0 on only.
 */

const REPO = path.resolve(__dirname, "../..");
const DATA_MODULE = path.join(REPO, "lib/versions/data/index.ts");

describeIf(referenceRequirement(["1.15.0"]))("a new release folder through add-version", () => {
  let tmp: string;
  let root: string;
  let data: string;
  let output: string;

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "karpenter-add-version-"));
    root = path.join(tmp, "reference");
    const folder = path.join(root, "v1.16.0");
    fs.cpSync(path.join(referenceRoot(), "v1.15.0"), folder, { recursive: true, dereference: true });
    const errata = path.join(referenceRoot(), "ERRATA.json");
    if (fs.existsSync(errata)) fs.copyFileSync(errata, path.join(root, "ERRATA.json"));
    for (const chart of ["karpenter", "karpenter-crd"]) {
      const f = path.join(folder, "charts", chart, "Chart.yaml");
      fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(/^(version|appVersion): 1\.15\.0$/gm, "$1: 1.16.0"));
    }
    const values = path.join(folder, "charts/karpenter/values.yaml");
    fs.writeFileSync(
      values,
      fs
        .readFileSync(values, "utf8")
        .replace(
          /^settings:\n/m,
          "settings:\n  # -- a setting new in 1.16.0 (synthetic)\n  spotPriceRefreshInterval: 5m\n",
        ),
    );
    data = path.join(tmp, "data");
    fs.cpSync(path.dirname(DATA_MODULE), data, { recursive: true });
    output = execFileSync(
      process.execPath,
      [require.resolve("tsx/cli"), "scripts/add-version.ts", folder, "--kubernetes", "1.32-1.38", "--data", data],
      { cwd: REPO, encoding: "utf8" },
    );
  });

  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** The library (and the example) loaded against the copy of the data that add-version extended. */
  function withNewData<T>(
    use: (lib: typeof import("../../lib"), buildApp: typeof import("../../examples/eks-karpenter/main").buildApp) => T,
  ): T {
    let result: T | undefined;
    jest.isolateModules(() => {
      jest.doMock(DATA_MODULE, () => jest.requireActual(path.join(data, "index.ts")));
      result = use(require("../../lib"), require("../../examples/eks-karpenter/main").buildApp);
    });
    return result as T;
  }

  test("add-version writes the minor's data, lists the new setting for review, and makes it the newest release; the default stays the verified one", () => {
    expect(output).toMatch(/wrote .*v1-16\.json \(Karpenter 1\.16\.0, Kubernetes 1\.32–1\.38\)/);
    expect(output).toMatch(/\[ \] new settings\.spotPriceRefreshInterval \(default "5m", inferred kind duration\)/);
    withNewData((lib) => {
      expect(lib.KNOWN_RELEASES[lib.KNOWN_RELEASES.length - 1]).toBe("1.16.0");
      // moving the default is a decision (lib/versions/index.ts DEFAULT_RELEASE), not a side effect of new data
      expect(lib.DEFAULT_KARPENTER_VERSION).toBe("1.15.3");
      expect(lib.supportedKubernetesVersions("1.16.0")).toEqual({ oldest: "1.32", newest: "1.38" });
    });
  });

  test("its new setting is accepted from 1.16.0 on, with the kind of its chart default, and refused before", () => {
    withNewData((lib) => {
      const install = (version: string, settings: Record<string, unknown>) => {
        const app = Testing.app();
        const stack = new (require("cdktf").TerraformStack)(app, "s");
        const cluster = lib.KarpenterCluster.fromClusterName(stack, "cluster", "demo");
        return new lib.Karpenter(stack, "karpenter", { cluster, version, settings });
      };
      expect(install("1.16.0", { spotPriceRefreshInterval: "10m" }).release).toBeDefined();
      expect(() => install("1.16.0", { spotPriceRefreshInterval: "soon" })).toThrow(
        /settings\.spotPriceRefreshInterval = "soon" is invalid: a Go duration/,
      );
      expect(() => install("1.15.0", { spotPriceRefreshInterval: "10m" })).toThrow(
        /Karpenter 1\.15\.0 has no setting spotPriceRefreshInterval: it was introduced in 1\.16\.0/,
      );
    });
  });

  test("the example app synthesizes for 1.16.0", () => {
    const out = path.join(tmp, "cdktf.out");
    withNewData((_lib, buildApp) =>
      buildApp(new App({ outdir: out, stackTraces: false }), { KARPENTER_VERSION: "1.16.0" }).synth(),
    );
    const eks = JSON.parse(fs.readFileSync(path.join(out, "stacks/eks/cdk.tf.json"), "utf8"));
    expect(Object.values(eks.resource.helm_release).map((r: any) => r.version)).toEqual(["1.16.0", "1.16.0"]);
  });

  // the harness lives outside the repo: without it this is reported as skipped, not passed
  testIf(harnessRequirement())(
    "that synth passes conformance against the new reference root, and not against the kept one",
    () => {
      const out = path.join(tmp, "cdktf.out");
      expect(fs.existsSync(path.join(out, "manifest.json"))).toBe(true); // written by the test before
      const run = spawnSync(process.execPath, [conformanceHarness(), out], {
        env: { ...process.env, KARPENTER_REFERENCE: root },
        encoding: "utf8",
      });
      expect({ status: run.status, out: run.stdout.slice(-3000) + run.stderr.slice(-2000) }).toEqual({
        status: 0,
        out: expect.stringMatching(/1\.16\.0/),
      });
      // the same output against the kept reference, which has no 1.16 artefacts, does not pass
      const without = spawnSync(process.execPath, [conformanceHarness(), out], {
        env: { ...process.env, KARPENTER_REFERENCE: referenceRoot() },
        encoding: "utf8",
      });
      expect(without.status).not.toBe(0);
    },
  );
});
