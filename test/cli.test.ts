import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { PassThrough } from "stream";
import { CliIo, decodeUtf8, runCli, stopOnClosedPipe, USAGE } from "../lib/cli";
import { convertLegacyManifests, toV1Yaml } from "../lib/convert";
import { upgradePlan, upgradePlanMarkdown } from "../lib/upgrade";
import { SEED_MANIFESTS } from "./convert/seed-manifests";

/** An in-memory CliIo: files by name, stdin text, captured output. */
function fakeIo(files: { [name: string]: string } = {}, stdin = ""): CliIo & { out: string; err: string } {
  const io = {
    out: "",
    err: "",
    stdout: (t: string) => {
      io.out += t;
    },
    stderr: (t: string) => {
      io.err += t;
    },
    readFile: (p: string) => {
      if (!(p in files)) throw new Error(`ENOENT: no such file or directory, open '${p}'`);
      return files[p];
    },
    readStdin: async () => stdin,
  };
  return io;
}

const BROKEN = SEED_MANIFESTS.replace("  ttlSecondsAfterEmpty: 30", "  ttlSecondsAfterEmpty: thirty");
/** Converts, but to a NodePool Karpenter rejects: weight is 1 to 100. */
const HEAVY = SEED_MANIFESTS.replace("  ttlSecondsAfterEmpty: 30", "  ttlSecondsAfterEmpty: 30\n  weight: 500");
/** The line under every usage error. */
const HELP_HINT = 'Run "cdktf-eks-karpenter --help" for the commands and their options.\n';

describe("cdktf-eks-karpenter convert", () => {
  test("a file: v1 YAML on stdout, one '# note:' line per note on stderr, exit 0", async () => {
    const io = fakeIo({ "seed.yaml": SEED_MANIFESTS });
    expect(await runCli(["convert", "seed.yaml"], io)).toBe(0);
    const result = convertLegacyManifests(SEED_MANIFESTS);
    expect(io.out).toBe(toV1Yaml(result));
    expect(io.out).toContain("apiVersion: karpenter.sh/v1\nkind: NodePool\n");
    expect(io.out).toContain("---\napiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n");
    const lines = io.err.trimEnd().split("\n");
    expect(lines).toHaveLength(result.objects.flatMap((o) => o.notes).length);
    expect(lines.every((l) => l.startsWith("# note: document "))).toBe(true);
    expect(io.err).toContain(
      "# note: document 1 Provisioner/default → NodePool/default: [action] spec.ttlSecondsUntilExpired: ",
    );
  });

  test("- reads standard input", async () => {
    const io = fakeIo({}, SEED_MANIFESTS);
    expect(await runCli(["convert", "-"], io)).toBe(0);
    expect(io.out).toBe(toV1Yaml(convertLegacyManifests(SEED_MANIFESTS)));
  });

  test("options reach the converter: --role, --no-legacy-defaults, --karpenter-version", async () => {
    const io = fakeIo({ "seed.yaml": SEED_MANIFESTS });
    expect(
      await runCli(
        [
          "convert",
          "--role",
          "KarpenterNodeRole-demo",
          "--no-legacy-defaults",
          "--karpenter-version=1.10.2",
          "seed.yaml",
        ],
        io,
      ),
    ).toBe(0);
    expect(io.out).toBe(
      toV1Yaml(
        convertLegacyManifests(SEED_MANIFESTS, {
          role: "KarpenterNodeRole-demo",
          legacyDefaults: false,
          version: "1.10.2",
        }),
      ),
    );
    expect(io.out).toContain("role: KarpenterNodeRole-demo");
    expect(io.out).not.toContain("kubernetes.io/arch");
  });

  test("invalid input: the error with its document index on stderr, nothing on stdout, exit 1", async () => {
    const io = fakeIo({ "broken.yaml": BROKEN });
    expect(await runCli(["convert", "broken.yaml"], io)).toBe(1);
    expect(io.out).toBe("");
    expect(io.err).toBe(
      'error: document 1 (line 24): spec.ttlSecondsAfterEmpty = "thirty" is invalid: a whole number of seconds (≥ 0) [CONVERT_WRONG_TYPE]\n',
    );
  });

  test("a YAML syntax error in a later document: nothing printed on stdout", async () => {
    const io = fakeIo({ "x.yaml": `${SEED_MANIFESTS}---\nkind: [\n` });
    expect(await runCli(["convert", "x.yaml"], io)).toBe(1);
    expect(io.out).toBe("");
    expect(io.err).toMatch(/^error: document 3 \(line \d+, column \d+\): YAML syntax error: /);
  });

  test("an unreadable file: exit 1", async () => {
    const io = fakeIo();
    expect(await runCli(["convert", "missing.yaml"], io)).toBe(1);
    expect(io.err).toBe(
      "error: cannot read missing.yaml: ENOENT: no such file or directory, open 'missing.yaml' [CONVERT_READ]\n",
    );
    expect(io.out).toBe("");
  });

  test("input without Karpenter objects: empty stdout, a note, exit 0", async () => {
    const io = fakeIo({ "cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n" });
    expect(await runCli(["convert", "cm.yaml"], io)).toBe(0);
    expect(io.out).toBe("");
    expect(io.err).toBe(
      "# note: [info] document 1: skipped v1 ConfigMap x: not a Karpenter NodePool or node class\n# note: no Karpenter NodePool, node class, NodeOverlay or CapacityBuffer found in the input: nothing converted\n",
    );
  });

  test.each([[["--help"]], [["-h"]], [["convert", "--help"]], [["convert", "a.yaml", "-h"]]])(
    "%j prints the usage on stdout, exit 0",
    async (argv) => {
      const io = fakeIo();
      expect(await runCli(argv, io)).toBe(0);
      expect(io.out).toBe(USAGE);
      expect(io.err).toBe("");
    },
  );

  test("no arguments: the usage on stderr, exit 2", async () => {
    const io = fakeIo();
    expect(await runCli([], io)).toBe(2);
    expect(io.err).toBe(USAGE);
    expect(io.out).toBe("");
  });

  test.each([
    [["migrate", "a.yaml"], 'unknown command "migrate" (commands: convert, upgrade-plan)'],
    [["conver", "a.yaml"], 'unknown command "conver" (did you mean "convert"?)'],
    [["convert"], "no input file given (use - for standard input)"],
    [["convert", "a.yaml", "b.yaml"], "one input file expected, got 2: a.yaml b.yaml"],
    [
      ["convert", "--frobnicate", "a.yaml"],
      'unknown option "--frobnicate" for convert (options: --role, --no-legacy-defaults, --karpenter-version, --allow-invalid)',
    ],
    [
      ["convert", "--rol", "KarpenterNodeRole-demo", "a.yaml"],
      'unknown option "--rol" for convert (did you mean "--role"?)',
    ],
    [
      ["convert", "--karpenter-verison=1.9.2", "a.yaml"],
      'unknown option "--karpenter-verison" for convert (did you mean "--karpenter-version"?)',
    ],
    [
      ["convert", "--no-legacy", "a.yaml"],
      'unknown option "--no-legacy" for convert (did you mean "--no-legacy-defaults"?)',
    ],
    [["convert", "--from", "1.2", "a.yaml"], 'unknown option "--from" for convert: it is an option of upgrade-plan'],
    [["convert", "a.yaml", "--role"], "--role needs a value"],
    [
      ["convert", "--role", "bad role!", "a.yaml"],
      '--role "bad role!" is invalid: an IAM role name: letters, digits and + = , . @ _ -',
    ],
    [
      ["convert", "--role", "r".repeat(65), "a.yaml"],
      `--role "${"r".repeat(65)}" is invalid: at most 64 characters (got 65): choose a shorter name`,
    ],
    [["convert", "--allow-invalid=false", "a.yaml"], "--allow-invalid takes no value"],
    [["convert", "--no-legacy-defaults=true", "a.yaml"], "--no-legacy-defaults takes no value"],
  ])("%j is a usage error: the problem and a pointer to --help on stderr, exit 2", async (argv, problem) => {
    const io = fakeIo({ "a.yaml": SEED_MANIFESTS });
    expect(await runCli(argv, io)).toBe(2);
    expect(io.err).toBe(`error: ${problem}\n${HELP_HINT}`);
    expect(io.out).toBe("");
  });

  test.each([["0.31.0"], ["abc"]])(
    "--karpenter-version %s is a usage error naming the flag: exit 2",
    async (version) => {
      const io = fakeIo({ "a.yaml": SEED_MANIFESTS });
      expect(await runCli(["convert", "--karpenter-version", version, "a.yaml"], io)).toBe(2);
      expect(io.err).toMatch(
        new RegExp(
          `^error: --karpenter-version "${version}" is invalid: a Karpenter release "MAJOR.MINOR.PATCH" of a supported minor: 1.0, [^\n]*\n${HELP_HINT.replace(/[.()]/g, "\\$&")}$`,
        ),
      );
      expect(io.err).not.toContain("convertLegacyManifests");
      expect(io.out).toBe("");
    },
  );

  test("a release newer than the library knows: what a user of the package can do (a known release, or a newer package), no construct prop, no repository script", async () => {
    const io = fakeIo({ "a.yaml": SEED_MANIFESTS });
    expect(await runCli(["convert", "--karpenter-version", "1.99.0", "a.yaml"], io)).toBe(2);
    expect(io.err.split("\n")[0]).toMatch(
      /^error: --karpenter-version "1\.99\.0" is invalid: a Karpenter release "MAJOR\.MINOR\.PATCH" of a supported minor: 1\.0, .*, 1\.15 \(default 1\.15\.3\)\. 1\.99\.0 is newer than 1\.15\.3, the newest release this library knows: its IAM policy, chart settings and CRD rules are unknown here; use a known release, or a newer release of cdktf-eks-karpenter that knows it$/,
    );
    const major = fakeIo({ "a.yaml": SEED_MANIFESTS });
    expect(await runCli(["convert", "--karpenter-version", "2.0.0", "a.yaml"], major)).toBe(2);
    expect(major.err).toContain(
      "2.0.0 is a new major release: a major may change the APIs, IAM and chart this library builds\n",
    );
    const plan = fakeIo({});
    expect(await runCli(["upgrade-plan", "--from", "1.13.1", "--to", "1.99.0"], plan)).toBe(2);
    for (const err of [io.err, major.err, plan.err]) expect(err).not.toMatch(/allowUnverifiedVersion|on Karpenter/);
  });

  describe("converted objects invalid for Karpenter, or refused by the library", () => {
    const REJECTED =
      "1 converted object is invalid for Karpenter 1.15.3 as printed: NodePool/default (spec.weight); see the [action] notes about those fields";

    test("the YAML is printed, the notes say why, the last line names them: exit 1", async () => {
      const io = fakeIo({ "heavy.yaml": HEAVY });
      expect(await runCli(["convert", "heavy.yaml"], io)).toBe(1);
      expect(io.out).toBe(toV1Yaml(convertLegacyManifests(HEAVY)));
      expect(io.out).toContain("weight: 500");
      const lines = io.err.trimEnd().split("\n");
      expect(lines).toContain(
        "# note: document 1 Provisioner/default → NodePool/default: [action] spec.weight: the converted NodePool is invalid in Karpenter 1.15.3 (the NodePool construct rejects it: the API server refuses it, or Karpenter or EC2 fails on it): spec.weight = 500: a whole number from 1 to 100",
      );
      expect(lines[lines.length - 1]).toBe(
        `error: ${REJECTED} (the YAML is printed for editing; --allow-invalid exits 0)`,
      );
    });

    test("--allow-invalid: the same output, the last line a note, exit 0", async () => {
      const io = fakeIo({ "heavy.yaml": HEAVY });
      expect(await runCli(["convert", "--allow-invalid", "heavy.yaml"], io)).toBe(0);
      expect(io.out).toBe(toV1Yaml(convertLegacyManifests(HEAVY)));
      expect(io.err.trimEnd().split("\n").pop()).toBe(`# note: ${REJECTED} (--allow-invalid: exit status 0)`);
    });

    test("a rule beyond the CRDs (x86_64) and a missing required field count too; the version named is the one checked", async () => {
      const pool =
        "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: { name: p }\nspec:\n  template:\n    spec:\n      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: nc }\n      requirements: [{ key: kubernetes.io/arch, operator: In, values: [x86_64] }]\n";
      const cls =
        "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: { name: nc }\nspec:\n  role: r\n  amiSelectorTerms: [{ alias: al2023@latest }]\n  subnetSelectorTerms: [{ id: subnet-00000001 }]\n";
      const io = fakeIo({ "v1.yaml": `${pool}---\n${cls}` });
      expect(await runCli(["convert", "--karpenter-version", "1.9.2", "v1.yaml"], io)).toBe(1);
      expect(io.err.trimEnd().split("\n").pop()).toBe(
        "error: 2 converted objects are invalid for Karpenter 1.9.2 as printed: NodePool/p (spec.template.spec.requirements[0].values[0]), EC2NodeClass/nc (spec.securityGroupSelectorTerms); see the [action] notes about those fields (the YAML is printed for editing; --allow-invalid exits 0)",
      );
    });

    test("a control character in a rejected object's name is escaped on the last line as in the notes", async () => {
      const nul = HEAVY.replace("metadata:\n  name: default\n", 'metadata:\n  name: "a\\0b"\n');
      expect(nul).not.toBe(HEAVY);
      const io = fakeIo({ "nul.yaml": nul });
      expect(await runCli(["convert", "nul.yaml"], io)).toBe(1);
      expect(io.err).not.toContain("\u0000");
      expect(io.err).toContain("Provisioner/a\\u0000b → NodePool/a\\u0000b");
      expect(io.err.trimEnd().split("\n").pop()).toMatch(
        /^error: 1 converted object is invalid for Karpenter 1\.15\.3 as printed: NodePool\/a\\u0000b \(/,
      );
      // the look-alike: a plain name is written as it is (the REJECTED line above)
    });

    test("a refusal that is the library's policy, not Karpenter's, is named apart; both kinds on one line", async () => {
      // capacity-type NotIn [ondemand]: Karpenter takes it (nodeclaim_validation.go checks In only), it excludes nothing
      const pool = (name: string, req: string) =>
        `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: { name: ${name} }\nspec:\n  template:\n    spec:\n      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: nc }\n      requirements: [${req}]\n`;
      const notIn = pool("lib", "{ key: karpenter.sh/capacity-type, operator: NotIn, values: [ondemand] }");
      const io = fakeIo({ "p.yaml": notIn });
      expect(await runCli(["convert", "p.yaml"], io)).toBe(1);
      expect(io.err.trimEnd().split("\n").pop()).toBe(
        "error: 1 converted object is refused by the library (Karpenter 1.15.3 accepts it; the constructs refuse it deliberately): NodePool/lib (spec.template.spec.requirements[0].values[0]); see the [action] notes about those fields (the YAML is printed for editing; --allow-invalid exits 0)",
      );
      expect(io.err).toContain(
        "[action] spec.template.spec.requirements[0].values[0]: the converted NodePool is refused by this library",
      );
      // the look-alike: In [ondemand] matches no capacity, and Karpenter refuses the NodePool ("no valid values found")
      const both = fakeIo({
        "p.yaml": `${notIn}---\n${pool("k", "{ key: karpenter.sh/capacity-type, operator: In, values: [ondemand] }")}`,
      });
      expect(await runCli(["convert", "p.yaml"], both)).toBe(1);
      expect(both.err.trimEnd().split("\n").pop()).toBe(
        "error: 1 converted object is invalid for Karpenter 1.15.3 as printed: NodePool/k (spec.template.spec.requirements[0].values[0]); 1 converted object is refused by the library (Karpenter 1.15.3 accepts it; the constructs refuse it deliberately): NodePool/lib (spec.template.spec.requirements[0].values[0]); see the [action] notes about those fields (the YAML is printed for editing; --allow-invalid exits 0)",
      );
    });

    test("action notes that leave a valid object (the seed's expiry, labels not carried over) exit 0", async () => {
      const io = fakeIo({ "seed.yaml": SEED_MANIFESTS });
      expect(await runCli(["convert", "seed.yaml"], io)).toBe(0);
      expect(io.err).toContain("[action]");
      expect(io.err).not.toMatch(/^error:/m);
    });
  });

  test("-- ends the options: a file named like an option is read", async () => {
    const io = fakeIo({ "--role": SEED_MANIFESTS, "-": "" });
    expect(await runCli(["convert", "--no-legacy-defaults", "--", "--role"], io)).toBe(0);
    expect(io.out).toBe(toV1Yaml(convertLegacyManifests(SEED_MANIFESTS, { legacyDefaults: false })));
    const two = fakeIo({ a: SEED_MANIFESTS });
    expect(await runCli(["convert", "--", "a", "-x"], two)).toBe(2);
    expect(two.err).toMatch(/^error: one input file expected, got 2: a -x\n/);
  });

  test("--version prints the version of package.json", async () => {
    const io = fakeIo();
    expect(await runCli(["--version"], io)).toBe(0);
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8"));
    expect(io.out).toBe(`${pkg.version}\n`);
    expect(io.out).toMatch(/^\d+\.\d+\.\d+/);
    expect(io.err).toBe("");
  });

  test("convert --version is a usage error that points to --karpenter-version", async () => {
    const io = fakeIo({ "a.yaml": SEED_MANIFESTS });
    expect(await runCli(["convert", "--version", "1.14.1", "a.yaml"], io)).toBe(2);
    expect(io.err).toContain("--karpenter-version");
    expect(io.out).toBe("");
  });
});

describe("closed pipes", () => {
  test("EPIPE on a stream exits 0; other stream errors are rethrown", () => {
    const stream = new PassThrough();
    const exits: number[] = [];
    stopOnClosedPipe(stream, (code) => exits.push(code));
    stream.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    expect(exits).toEqual([0]);
    expect(() => stream.emit("error", Object.assign(new Error("write EIO"), { code: "EIO" }))).toThrow("write EIO");
  });
});

describe("cdktf-eks-karpenter upgrade-plan", () => {
  test("Markdown on stdout by default, exit 0", async () => {
    const io = fakeIo();
    expect(await runCli(["upgrade-plan", "--from", "1.2", "--to", "1.11"], io)).toBe(0);
    expect(io.out).toBe(upgradePlanMarkdown(upgradePlan("1.2", "1.11")));
    expect(io.out).toMatch(/^# Karpenter 1\.2\.8 → 1\.11\.3\n/);
    expect(io.err).toBe("");
  });

  test("a bare minor is its newest known patch, one without artefact changes included (1.14 → 1.14.4), and the plan says so", async () => {
    const io = fakeIo();
    expect(await runCli(["upgrade-plan", "--from", "1.14", "--to", "1.15"], io)).toBe(0);
    expect(io.out).toMatch(
      /^# Karpenter 1\.14\.4 → 1\.15\.3\n\nFrom "1\.14" is taken as 1\.14\.4, the newest known 1\.14 patch; to "1\.15" is taken as 1\.15\.3, the newest known 1\.15 patch\.\n/,
    );
    const json = fakeIo();
    expect(await runCli(["upgrade-plan", "--from", "1.14", "--to", "1.15.0", "--json"], json)).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({
      from: "1.14.4",
      to: "1.15.0",
      assumed: ['from "1.14" is taken as 1.14.4, the newest known 1.14 patch'],
    });
    // no "newer than the newest known patch" hazard: 1.14.4 is known
    expect(JSON.parse(json.out).hazards.map((h: { kind: string }) => h.kind)).not.toContain("unverified");
  });

  test("--json prints the plan object (for CI); --flag=value and --kubernetes work", async () => {
    const io = fakeIo();
    // 1.9.2 does not run on 1.25: the plan is printed, and the exit status stops CI
    expect(await runCli(["upgrade-plan", "--json", "--from=1.8.0", "--to=1.9.2", "--kubernetes", "1.25"], io)).toBe(3);
    expect(io.err).toBe(
      "error: Karpenter 1.9.2 does not run on Kubernetes 1.25 (it supports 1.26 to 1.35): upgrade the cluster within the range of both releases first, or choose another target (the plan is printed above)\n",
    );
    const plan = JSON.parse(io.out);
    expect(plan).toEqual(JSON.parse(JSON.stringify(upgradePlan("1.8.0", "1.9.2", { kubernetesVersion: "1.25" }))));
    expect(plan.kubernetes).toMatchObject({ cluster: "1.25", clusterSupported: false });
    expect(plan.hazards.map((h: { id: string }) => h.id)).toEqual(
      expect.arrayContaining(["static-capacity-gate-casing", "kubernetes-1.25-outside-1.8.0"]),
    );
  });

  test("--kubernetes: exit 3 only when the target does not run on the cluster; a --from outside its range is the hazard the upgrade fixes", async () => {
    const too_old = fakeIo();
    expect(await runCli(["upgrade-plan", "--from", "1.14.1", "--to", "1.15.2", "--kubernetes", "1.30"], too_old)).toBe(
      3,
    );
    expect(too_old.out).toContain("# Karpenter 1.14.1 → 1.15.2");
    expect(too_old.err).toMatch(
      /^error: Karpenter 1\.15\.2 does not run on Kubernetes 1\.30 \(it supports 1\.31 to 1\.37\)/,
    );
    const fixes = fakeIo();
    expect(
      await runCli(["upgrade-plan", "--from", "1.8.0", "--to", "1.15.2", "--kubernetes", "1.36", "--json"], fixes),
    ).toBe(0);
    expect(JSON.parse(fixes.out).kubernetes).toMatchObject({ cluster: "1.36", clusterSupported: false });
    expect(fixes.err).toBe("");
    const fine = fakeIo();
    expect(await runCli(["upgrade-plan", "--from", "1.14.1", "--to", "1.15.2", "--kubernetes", "1.33"], fine)).toBe(0);
  });

  test("the same release: only the short message, exit 0; in JSON direction none, no steps, no deploy order", async () => {
    const io = fakeIo();
    expect(await runCli(["upgrade-plan", "--from", "1.4.4", "--to", "1.4.4"], io)).toBe(0);
    expect(io.out).toBe("# Karpenter 1.4.4 → 1.4.4\n\nSame release: nothing to upgrade.\n");
    expect(io.err).toBe("");
    const json = fakeIo();
    expect(await runCli(["upgrade-plan", "--from", "1.4.4", "--to", "1.4", "--json"], json)).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({
      from: "1.4.4",
      to: "1.4.4",
      direction: "none",
      steps: [],
      deployOrder: [],
      hazards: [],
      assumed: ['to "1.4" is taken as 1.4.4, the newest known 1.4 patch'],
    });
  });

  test.each([
    [["upgrade-plan", "--from", "1.2"], "upgrade-plan needs --to"],
    [["upgrade-plan"], "upgrade-plan needs --from and --to"],
    [["upgrade-plan", "--from", "1.2", "--to"], "--to needs a value"],
    [["upgrade-plan", "--from", "--to", "1.3"], "--from needs a value"],
    [["upgrade-plan", "--from", "1.2", "--from", "1.3", "--to", "1.4"], "--from given twice"],
    [
      ["upgrade-plan", "--from", "1.2", "--to", "1.4", "--yaml"],
      'unknown option "--yaml" for upgrade-plan (options: --from, --to, --json, --kubernetes)',
    ],
    [
      ["upgrade-plan", "--form", "1.2", "--to", "1.4"],
      'unknown option "--form" for upgrade-plan (did you mean "--from"?)',
    ],
    [
      ["upgrade-plan", "--from", "1.2", "--to", "1.4", "--kubernets=1.30"],
      'unknown option "--kubernets" for upgrade-plan (did you mean "--kubernetes"?)',
    ],
    [
      ["upgrade-plan", "--from", "1.2", "--to", "1.4", "--kube", "1.30"],
      'unknown option "--kube" for upgrade-plan (did you mean "--kubernetes"?)',
    ],
    [
      ["upgrade-plan", "--from", "1.2", "--to", "1.4", "--role", "r"],
      'unknown option "--role" for upgrade-plan: it is an option of convert',
    ],
    [["upgrade-plan", "--from", "1.2", "--to", "1.4", "--json=true"], "--json takes no value"],
    [["upgrade", "--from", "1.2", "--to", "1.4"], 'unknown command "upgrade" (did you mean "upgrade-plan"?)'],
    [["upgrade-plan", "1.2", "1.4"], 'unexpected argument "1.2" for upgrade-plan'],
    [
      ["upgrade-plan", "--from", "0.37.0", "--to", "1.4"],
      '--from "0.37.0" is invalid: a Karpenter release "1.x.y" or a minor "1.x" (its newest known patch) of a known minor: 1.0, ',
    ],
    [
      ["upgrade-plan", "--from", "1.2", "--to", "1.4", "--kubernetes", "latest"],
      '--kubernetes "latest" is invalid: a Kubernetes minor such as "1.31"',
    ],
    [["upgrade-plan", "--from", "1.8.08", "--to", "1.9"], '--from "1.8.08" is invalid: a Karpenter release "1.x.y"'],
    [
      ["upgrade-plan", "--from", "1.14", "--to", "1.16.0"],
      '--to "1.16.0" is invalid: a Karpenter release "1.x.y" or a minor "1.x" (its newest known patch) of a known minor: 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 1.10, 1.11, 1.12, 1.13, 1.14, 1.15. 1.16.0 is newer than every release this library knows (the newest is 1.15.3)',
    ],
  ])("%j is a usage error: exit 2", async (argv, problem) => {
    const io = fakeIo();
    expect(await runCli(argv, io)).toBe(2);
    // the version errors go on with the known minors and advice, on the same line
    expect(io.err.startsWith(`error: ${problem}`)).toBe(true);
    expect(io.err.split("\n")).toHaveLength(3);
    expect(io.err.endsWith(`\n${HELP_HINT}`)).toBe(true);
    expect(io.out).toBe("");
  });

  test("--help prints the usage, which documents the command", async () => {
    const io = fakeIo();
    expect(await runCli(["upgrade-plan", "--help"], io)).toBe(0);
    expect(io.out).toBe(USAGE);
    expect(USAGE).toContain(
      "cdktf-eks-karpenter upgrade-plan --from <version> --to <version> [--json] [--kubernetes <1.x>]",
    );
  });
});

describe("without the cdktf peer dependency", () => {
  afterAll(() => {
    jest.dontMock("cdktf");
    jest.dontMock("constructs");
  });

  test("the converter and the command line load and convert (nothing in the YAML can be a token)", async () => {
    await jest.isolateModulesAsync(async () => {
      jest.doMock("cdktf", () => {
        throw Object.assign(new Error("Cannot find module 'cdktf'"), { code: "MODULE_NOT_FOUND" });
      });
      // nor constructs, the other peer dependency the CLI's description promises to do without
      jest.doMock("constructs", () => {
        throw Object.assign(new Error("Cannot find module 'constructs'"), { code: "MODULE_NOT_FOUND" });
      });
      expect(() => require("cdktf")).toThrow("Cannot find module 'cdktf'");
      const cli = require("../lib/cli") as typeof import("../lib/cli");
      const io = fakeIo({
        "seed.yaml": SEED_MANIFESTS,
        "bad.yaml": SEED_MANIFESTS.replace("ttlSecondsAfterEmpty: 30", "ttlSecondsAfterEmpty: 30\n  weight: 0"),
      });
      expect(await cli.runCli(["convert", "seed.yaml"], io)).toBe(0);
      expect(io.out).toBe(toV1Yaml(convertLegacyManifests(SEED_MANIFESTS)));
      // the rules still run: weight 0 is noted, and the status says the output is rejected
      expect(await cli.runCli(["convert", "bad.yaml"], io)).toBe(1);
      expect(io.err).toContain("spec.weight = 0: a whole number from 1 to 100");
      // so does the did-you-mean of a misspelt option
      const typo = fakeIo();
      expect(await cli.runCli(["upgrade-plan", "--form", "1.2", "--to", "1.3"], typo)).toBe(2);
      expect(typo.err).toBe(`error: unknown option "--form" for upgrade-plan (did you mean "--from"?)\n${HELP_HINT}`);
      // upgrade-plan needs only the version data
      const plan = fakeIo();
      expect(await cli.runCli(["upgrade-plan", "--from", "1.2", "--to", "1.3", "--json"], plan)).toBe(0);
      expect(JSON.parse(plan.out).to).toBe("1.3.8");
    });
  });
});

describe("input that is not UTF-8 (issue 31): an error naming the byte, not silent U+FFFD", () => {
  const yaml = (value: Buffer) =>
    Buffer.concat([
      Buffer.from("apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata:\n  name: p\n  labels: { team: "),
      value,
      Buffer.from(" }\n"),
    ]);
  test.each([
    ["Latin-1 é", Buffer.from([0xe9]), "0xE9", 5],
    ["a lone continuation byte", Buffer.from([0x80]), "0x80", 5],
    ["a truncated 3-byte sequence", Buffer.from([0xe2, 0x82]), "0xE2", 5],
    ["an overlong encoding of /", Buffer.from([0xc0, 0xaf]), "0xC0", 5],
    ["a UTF-16 surrogate in UTF-8", Buffer.from([0xed, 0xa0, 0x80]), "0xED", 5],
  ])("%s is refused with its byte, offset and line", (_what, bad, byte, line) => {
    const input = yaml(bad);
    const offset = input.indexOf(bad);
    expect(() => decodeUtf8(input)).toThrow(
      `the input is not UTF-8: byte ${byte} at offset ${offset} (line ${line}) is not valid UTF-8, and decoding it would replace characters silently. Save the input as UTF-8`,
    );
  });
  test("UTF-16 (PowerShell's >) is named as such", () => {
    const input = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("kind: NodePool\n", "utf16le")]);
    expect(() => decodeUtf8(input)).toThrow(
      /^the input is not UTF-8: it starts with the UTF-16 byte order mark FF FE \(UTF-16LE/,
    );
  });
  test("look-alikes: valid UTF-8 (2-, 3- and 4-byte characters, a UTF-8 byte order mark) decodes as written", () => {
    expect(decodeUtf8(yaml(Buffer.from("é€😀")))).toContain("team: é€😀 }");
    expect(decodeUtf8(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("kind: NodePool\n")]))).toBe(
      "kind: NodePool\n",
    );
    expect(decodeUtf8(Buffer.alloc(0))).toBe("");
  });
});

describe("lib/cli.ts as a program", () => {
  const repo = path.resolve(__dirname, "..");
  // tsx resolves the bare import "cdktf" to ./cdktf.json when run from the repository root, so
  // the program runs from another directory, as it would in a user's project
  const run = (args: string[], input: string) =>
    spawnSync(path.join(repo, "node_modules", ".bin", "tsx"), [path.join(repo, "lib", "cli.ts"), ...args], {
      cwd: os.tmpdir(),
      input,
      encoding: "utf8",
    });

  test("reads stdin, prints v1 YAML, exits 0", () => {
    const r = run(["convert", "-"], SEED_MANIFESTS);
    expect(r.stderr).toContain("# note: document 1 Provisioner/default → NodePool/default:");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(toV1Yaml(convertLegacyManifests(SEED_MANIFESTS)));
  }, 60_000);

  test("an unrendered Helm template exits 1 pointing to helm template, with no warning of the yaml library on stderr", () => {
    const r = run(
      ["convert", "-"],
      "apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\nmetadata:\n  name: {{ .Values.name }}\nspec:\n  providerRef: { name: default }\n",
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      'error: document 1 (line 4): metadata.name = {"{ .Values.name }":null} is invalid: a string; the input looks like an unrendered Helm (Go) template ({{ .Values.name }} on line 4): run `helm template` first and convert its output [CONVERT_WRONG_TYPE]\n',
    );
  }, 60_000);

  test("a file that is not UTF-8 exits 1 saying so, with nothing on stdout", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-latin1-"));
    const file = path.join(dir, "in.yaml");
    fs.writeFileSync(file, Buffer.from(`# \u00e9quipe plateforme\n${SEED_MANIFESTS}`, "latin1"));
    try {
      const r = run(["convert", file], "");
      expect(r.status).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("byte 0xE9 at offset 2 (line 1) is not valid UTF-8");
      expect(r.stderr.trimEnd()).toMatch(/\[CONVERT_READ\]$/);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error: cannot read ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: the input is not UTF-8: byte 0xE9 at offset \\d+ \\(line \\d+\\)`,
        ),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test("invalid input exits 1 with nothing on stdout", () => {
    const r = run(["convert", "-"], BROKEN);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("error: document 1 (line 24): spec.ttlSecondsAfterEmpty");
  }, 60_000);

  test("converted objects invalid for Karpenter: YAML on stdout, exit 1", () => {
    const r = run(["convert", "-"], HEAVY);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(toV1Yaml(convertLegacyManifests(HEAVY)));
    expect(r.stderr).toMatch(
      /\nerror: 1 converted object is invalid for Karpenter 1\.15\.3 as printed: NodePool\/default \(spec\.weight\)/,
    );
  }, 60_000);

  test("a reader that stops early (| head -c 10): exit 0, no EPIPE trace", () => {
    // 300 Provisioners: about 250 KB of v1 YAML, several pipe buffers, so the program writes after head has gone
    const input = Array.from(
      { length: 300 },
      (_, i) =>
        `apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\nmetadata: { name: p${i} }\nspec:\n  providerRef: { name: x }\n  ttlSecondsAfterEmpty: 30\n  ttlSecondsUntilExpired: 600\n`,
    ).join("---\n");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-epipe-"));
    const file = path.join(dir, "in.yaml");
    fs.writeFileSync(file, input);
    try {
      const tsx = path.join(repo, "node_modules", ".bin", "tsx");
      const script = `"${tsx}" "${path.join(repo, "lib", "cli.ts")}" convert "${file}" 2>"${dir}/err" | head -c 10 >/dev/null; echo "status=\${PIPESTATUS[0]}"; grep -c EPIPE "${dir}/err" || true`;
      const r = spawnSync("bash", ["-c", script], { cwd: os.tmpdir(), encoding: "utf8" });
      expect(r.stdout).toBe("status=0\n0\n");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
