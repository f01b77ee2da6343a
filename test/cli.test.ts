import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { PassThrough } from "stream";
import { CliIo, runCli, stopOnClosedPipe, USAGE } from "../lib/cli";
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
    expect(io.err).toContain("# note: document 1 Provisioner/default → NodePool/default: [action] spec.ttlSecondsUntilExpired: ");
  });

  test("- reads standard input", async () => {
    const io = fakeIo({}, SEED_MANIFESTS);
    expect(await runCli(["convert", "-"], io)).toBe(0);
    expect(io.out).toBe(toV1Yaml(convertLegacyManifests(SEED_MANIFESTS)));
  });

  test("options reach the converter: --role, --no-legacy-defaults, --karpenter-version", async () => {
    const io = fakeIo({ "seed.yaml": SEED_MANIFESTS });
    expect(await runCli(["convert", "--role", "KarpenterNodeRole-demo", "--no-legacy-defaults", "--karpenter-version=1.10.2", "seed.yaml"], io)).toBe(0);
    expect(io.out).toBe(toV1Yaml(convertLegacyManifests(SEED_MANIFESTS, { role: "KarpenterNodeRole-demo", legacyDefaults: false, version: "1.10.2" })));
    expect(io.out).toContain("role: KarpenterNodeRole-demo");
    expect(io.out).not.toContain("kubernetes.io/arch");
  });

  test("invalid input: the error with its document index on stderr, nothing on stdout, exit 1", async () => {
    const io = fakeIo({ "broken.yaml": BROKEN });
    expect(await runCli(["convert", "broken.yaml"], io)).toBe(1);
    expect(io.out).toBe("");
    expect(io.err).toBe('error: document 1 (line 24): spec.ttlSecondsAfterEmpty = "thirty" is invalid: a whole number of seconds (≥ 0)\n');
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
    expect(io.err).toBe("error: cannot read missing.yaml: ENOENT: no such file or directory, open 'missing.yaml'\n");
    expect(io.out).toBe("");
  });

  test("input without Karpenter objects: empty stdout, a note, exit 0", async () => {
    const io = fakeIo({ "cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n" });
    expect(await runCli(["convert", "cm.yaml"], io)).toBe(0);
    expect(io.out).toBe("");
    expect(io.err).toBe("# note: [info] document 1: skipped v1 ConfigMap x: not a Karpenter NodePool or node class\n# note: no Karpenter NodePool or node class found in the input: nothing converted\n");
  });

  test.each([[["--help"]], [["-h"]], [["convert", "--help"]], [["convert", "a.yaml", "-h"]]])("%j prints the usage on stdout, exit 0", async (argv) => {
    const io = fakeIo();
    expect(await runCli(argv, io)).toBe(0);
    expect(io.out).toBe(USAGE);
    expect(io.err).toBe("");
  });

  test.each([
    [[], "no command given"],
    [["migrate", "a.yaml"], 'unknown command "migrate"'],
    [["convert"], "no input file given (use - for standard input)"],
    [["convert", "a.yaml", "b.yaml"], "one input file expected, got 2: a.yaml b.yaml"],
    [["convert", "--frobnicate", "a.yaml"], 'unknown option "--frobnicate"'],
    [["convert", "a.yaml", "--role"], "--role needs a value"],
  ])("%j is a usage error: exit 2", async (argv, problem) => {
    const io = fakeIo({ "a.yaml": SEED_MANIFESTS });
    expect(await runCli(argv, io)).toBe(2);
    expect(io.err).toBe(`error: ${problem}\n\n${USAGE}`);
    expect(io.out).toBe("");
  });

  test.each([["0.31.0"], ["abc"]])("--karpenter-version %s is a usage error naming the flag: exit 2", async (version) => {
    const io = fakeIo({ "a.yaml": SEED_MANIFESTS });
    expect(await runCli(["convert", "--karpenter-version", version, "a.yaml"], io)).toBe(2);
    expect(io.err).toMatch(new RegExp(`^error: --karpenter-version "${version}" is invalid: a Karpenter release "MAJOR.MINOR.PATCH" of a supported minor: 1.0, `));
    expect(io.err).not.toContain("convertLegacyManifests");
    expect(io.err.endsWith(USAGE)).toBe(true);
    expect(io.out).toBe("");
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

  test("--json prints the plan object (for CI); --flag=value and --kubernetes work", async () => {
    const io = fakeIo();
    expect(await runCli(["upgrade-plan", "--json", "--from=1.8.0", "--to=1.9.2", "--kubernetes", "1.25"], io)).toBe(0);
    const plan = JSON.parse(io.out);
    expect(plan).toEqual(JSON.parse(JSON.stringify(upgradePlan("1.8.0", "1.9.2", { kubernetesVersion: "1.25" }))));
    expect(plan.kubernetes).toMatchObject({ cluster: "1.25", clusterSupported: false });
    expect(plan.hazards.map((h: { id: string }) => h.id)).toEqual(expect.arrayContaining(["static-capacity-gate-casing", "kubernetes-1.25-outside-1.8.0"]));
  });

  test.each([
    [["upgrade-plan", "--from", "1.2"], "upgrade-plan needs --to"],
    [["upgrade-plan"], "upgrade-plan needs --from and --to"],
    [["upgrade-plan", "--from", "1.2", "--to"], "--to needs a value"],
    [["upgrade-plan", "--from", "--to", "1.3"], "--from needs a value"],
    [["upgrade-plan", "--from", "1.2", "--from", "1.3", "--to", "1.4"], "--from given twice"],
    [["upgrade-plan", "--from", "1.2", "--to", "1.4", "--yaml"], 'unknown option "--yaml" for upgrade-plan'],
    [["upgrade-plan", "1.2", "1.4"], 'unexpected argument "1.2" for upgrade-plan'],
    [["upgrade-plan", "--from", "0.37.0", "--to", "1.4"], '--from "0.37.0" is invalid: a Karpenter release "1.x.y" or a minor "1.x" (its newest known patch) of a known minor: 1.0, '],
    [["upgrade-plan", "--from", "1.2", "--to", "1.4", "--kubernetes", "latest"], '--kubernetes "latest" is invalid: a Kubernetes minor such as "1.31"'],
    [["upgrade-plan", "--from", "1.8.08", "--to", "1.9"], '--from "1.8.08" is invalid: a Karpenter release "1.x.y"'],
    [["upgrade-plan", "--from", "1.14", "--to", "1.15.0"], '--to "1.15.0" is invalid: a Karpenter release "1.x.y" or a minor "1.x" (its newest known patch) of a known minor: 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 1.10, 1.11, 1.12, 1.13, 1.14. 1.15.0 is newer than every release this library knows (the newest is 1.14.1)'],
  ])("%j is a usage error: exit 2", async (argv, problem) => {
    const io = fakeIo();
    expect(await runCli(argv, io)).toBe(2);
    expect(io.err.startsWith(`error: ${problem}`)).toBe(true);
    expect(io.err.endsWith(USAGE)).toBe(true);
    expect(io.out).toBe("");
  });

  test("--help prints the usage, which documents the command", async () => {
    const io = fakeIo();
    expect(await runCli(["upgrade-plan", "--help"], io)).toBe(0);
    expect(io.out).toBe(USAGE);
    expect(USAGE).toContain("cdktf-eks-karpenter upgrade-plan --from <version> --to <version> [--json] [--kubernetes <1.x>]");
  });
});

describe("without the cdktf peer dependency", () => {
  afterAll(() => jest.dontMock("cdktf"));

  test("the converter and the command line load and convert (nothing in the YAML can be a token)", async () => {
    await jest.isolateModulesAsync(async () => {
      jest.doMock("cdktf", () => {
        throw Object.assign(new Error("Cannot find module 'cdktf'"), { code: "MODULE_NOT_FOUND" });
      });
      expect(() => require("cdktf")).toThrow("Cannot find module 'cdktf'");
      const cli = require("../lib/cli") as typeof import("../lib/cli");
      const io = fakeIo({ "seed.yaml": SEED_MANIFESTS, "bad.yaml": SEED_MANIFESTS.replace("ttlSecondsAfterEmpty: 30", "ttlSecondsAfterEmpty: 30\n  weight: 0") });
      expect(await cli.runCli(["convert", "seed.yaml"], io)).toBe(0);
      expect(io.out).toBe(toV1Yaml(convertLegacyManifests(SEED_MANIFESTS)));
      // the rules still run: weight 0 is noted
      expect(await cli.runCli(["convert", "bad.yaml"], io)).toBe(0);
      expect(io.err).toContain("spec.weight = 0: a whole number from 1 to 100");
      // upgrade-plan needs only the version data
      const plan = fakeIo();
      expect(await cli.runCli(["upgrade-plan", "--from", "1.2", "--to", "1.3", "--json"], plan)).toBe(0);
      expect(JSON.parse(plan.out).to).toBe("1.3.8");
    });
  });
});

describe("lib/cli.ts as a program", () => {
  const repo = path.resolve(__dirname, "..");
  // tsx resolves the bare import "cdktf" to ./cdktf.json when run from the repository root, so
  // the program runs from another directory, as it would in a user's project
  const run = (args: string[], input: string) =>
    spawnSync(path.join(repo, "node_modules", ".bin", "tsx"), [path.join(repo, "lib", "cli.ts"), ...args], { cwd: os.tmpdir(), input, encoding: "utf8" });

  test("reads stdin, prints v1 YAML, exits 0", () => {
    const r = run(["convert", "-"], SEED_MANIFESTS);
    expect(r.stderr).toContain("# note: document 1 Provisioner/default → NodePool/default:");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(toV1Yaml(convertLegacyManifests(SEED_MANIFESTS)));
  }, 60_000);

  test("invalid input exits 1 with nothing on stdout", () => {
    const r = run(["convert", "-"], BROKEN);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("error: document 1 (line 24): spec.ttlSecondsAfterEmpty");
  }, 60_000);

  test("a reader that stops early (| head -c 10): exit 0, no EPIPE trace", () => {
    // 300 Provisioners: about 250 KB of v1 YAML, several pipe buffers, so the program writes after head has gone
    const input = Array.from({ length: 300 }, (_, i) => `apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\nmetadata: { name: p${i} }\nspec:\n  providerRef: { name: x }\n  ttlSecondsAfterEmpty: 30\n  ttlSecondsUntilExpired: 600\n`).join("---\n");
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
