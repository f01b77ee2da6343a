import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { addVersion } from "../../scripts/add-version";
import { describeIf, referenceRequirement, referenceRoot } from "../reference";

/*
 * The add-version command as a maintainer meets it: wrong usage and unusable folders end with one
 * clear line and nothing written; permission and enum changes in a release reach the checklist.
 */

const DATA = path.resolve(__dirname, "../../lib/versions/data");

describeIf(referenceRequirement(["1.14.1", "1.15.0"]))("add-version command line", () => {
  let tmp: string;
  let data: string;
  let folder: string;

  /** A copy of the artefacts of `base` (1.14.1 for its patches, 1.15.0 for a new minor) named `v<version>` whose charts say `chartVersion`. */
  function release(
    version: string,
    chartVersion = version,
    base = version.startsWith("1.14.") ? "1.14.1" : "1.15.0",
  ): string {
    const dir = path.join(tmp, "reference", `v${version}`);
    fs.cpSync(path.join(referenceRoot(), `v${base}`), dir, { recursive: true, dereference: true });
    for (const chart of ["karpenter", "karpenter-crd"]) {
      const f = path.join(dir, "charts", chart, "Chart.yaml");
      fs.writeFileSync(
        f,
        fs
          .readFileSync(f, "utf8")
          .replace(new RegExp(`^(version|appVersion): ${base.replace(/\./g, "\\.")}$`, "gm"), `$1: ${chartVersion}`),
      );
    }
    return dir;
  }

  function run(...argv: string[]) {
    const out = { stdout: "", stderr: "" };
    const code = addVersion(argv, { stdout: (t) => (out.stdout += t), stderr: (t) => (out.stderr += t) });
    return { code, ...out };
  }

  const written = () => fs.readdirSync(data).sort();

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "karpenter-add-version-cli-"));
    folder = release("1.16.0");
    // a permission more in an existing statement and a new enum value: both need a person
    const cfn = path.join(folder, "cloudformation.yaml");
    fs.writeFileSync(
      cfn,
      fs
        .readFileSync(cfn, "utf8")
        .replace(
          '"ec2:DescribeSpotPriceHistory",',
          '"ec2:DescribeSpotPriceHistory",\n                "ec2:DescribeFastLaunchImages",',
        ),
    );
    const crd = path.join(folder, "charts/karpenter-crd/templates/karpenter.k8s.aws_ec2nodeclasses.yaml");
    fs.writeFileSync(
      crd,
      fs.readFileSync(crd, "utf8").replace(/^( +)- Windows2025$/m, "$1- Windows2025\n$1- Windows2028"),
    );
  });

  beforeEach(() => {
    data = path.join(tmp, `data-${Math.random().toString(36).slice(2)}`);
    fs.cpSync(DATA, data, { recursive: true });
  });

  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test("a new minor without --kubernetes is refused with what to pass, and nothing is written", () => {
    const before = written();
    const r = run(folder, "--data", data);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: 1\.16 is a new minor: --kubernetes <oldest>-<newest> is needed/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(written()).toEqual(before);
  });

  test("an option without its value, an unknown option or a second folder is wrong usage", () => {
    expect(run(folder, "--kubernetes", "--data", data)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: Option '--kubernetes' argument is ambiguous/),
    });
    expect(run(folder, "--kubrnetes", "1.30-1.36", "--data", data)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: Unknown option '--kubrnetes'/),
    });
    expect(run(folder, "extra", "--kubernetes", "1.30-1.36", "--data", data)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: one release folder expected, got 2/),
    });
    expect(run("--data", data)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: no release folder given/),
    });
  });

  test("a missing folder, a reversed range, or charts of another release end with one line, nothing written", () => {
    const before = written();
    expect(run(path.join(tmp, "v1.16.0"), "--kubernetes", "1.30-1.36", "--data", data)).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^error: .*v1\.16\.0: no such folder\n$/),
    });
    expect(run(folder, "--kubernetes", "1.36-1.30", "--data", data)).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^error: --kubernetes must be "<oldest>-<newest>".*got 1\.36-1\.30/),
    });
    const copied = release("1.17.0", "1.15.0"); // renamed without its charts' versions
    expect(run(copied, "--kubernetes", "1.30-1.36", "--data", data)).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /^error: .*v1\.17\.0: charts\/karpenter\/Chart\.yaml has version 1\.15\.0, but the folder is named v1\.17\.0/,
      ),
    });
    expect(written()).toEqual(before);
  });

  test("a newer patch of a known minor is judged against the patch it replaces: what it adds dates from the patch", () => {
    const patch = release("1.14.2");
    const values = path.join(patch, "charts/karpenter/values.yaml");
    fs.writeFileSync(
      values,
      fs.readFileSync(values, "utf8").replace(/^settings:\n/m, "settings:\n  patchRefreshInterval: 3m\n"),
    );
    const r = run(patch, "--data", data); // the minor's Kubernetes range is kept
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/wrote .*v1-14\.json \(Karpenter 1\.14\.2, Kubernetes 1\.26–1\.36\)/);
    const items = r.stdout.split("\n").filter((l) => l.startsWith("  [ ]"));
    // capacityBuffer and Balanced are 1.14's, already known from 1.14.1: not on the list again
    expect(items).toEqual([
      '  [ ] new settings.patchRefreshInterval (default "3m", inferred kind duration): add a validation rule and description to lib/helm/chart-settings.ts if the kind is not enough; it is new in patch 1.14.2 (1.14.1 lacks it): add "settings.patchRefreshInterval": "1.14.2" to SETTING_SINCE_PATCH in lib/versions/patch-history.ts (the regeneration test sees only the newest patch and needs it)',
    ]);
    const settings = JSON.parse(fs.readFileSync(path.join(data, "v1-14.json"), "utf8")).chart.settings as {
      key: string;
      since: string;
    }[];
    expect(settings.find((s) => s.key === "patchRefreshInterval")!.since).toBe("1.14.2");
    expect(settings.find((s) => s.key === "amiRefreshInterval")!.since).toBe("1.13.0");
  });

  test("a patch that moves the Kubernetes range asks for the earlier patches' range", () => {
    const r = run(release("1.14.3"), "--kubernetes", "1.27-1.37", "--data", data);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      '[ ] Kubernetes range 1.26–1.36 of 1.14.1 becomes 1.27–1.37 in patch 1.14.3: add { minor: "1.14", until: "1.14.3", min: "1.26", max: "1.36" } to KUBERNETES_EARLY_PATCHES (lib/versions/patch-history.ts)',
    );
  });

  test("a changed controller statement and new enum values are on the checklist, with where to act; --kubernetes=<range> works", () => {
    const r = run(folder, "--kubernetes=1.31-1.37", "--data", data);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/wrote .*v1-16\.json \(Karpenter 1\.16\.0, Kubernetes 1\.31–1\.37\)/);
    expect(r.stdout).toContain("[ ] controller statement AllowRegionalReadActions changed since 1.15.0: review it");
    expect(r.stdout).toMatch(
      /\[ \] new EC2NodeClass spec\.amiFamily values: Windows2028: until they are added to the typed spec and rules \(lib\/nodes\/ec2-node-class-spec\.ts, lib\/nodes\/ec2-node-class-rules\.ts\)/,
    );
    expect(r.stdout).not.toMatch(/statement AllowScopedEC2InstanceAccessActions/); // unchanged statements stay off the list
    expect(written()).toContain("v1-16.json");
  });
});
