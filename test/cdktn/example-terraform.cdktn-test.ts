import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { App } from "cdktf";
import { buildApp } from "../../examples/eks-karpenter/main";

// `npm run test:cdktn` only (jest.cdktn.config.cjs matches *.cdktn-test.ts): there "cdktf" is CDK Terrain.
// The example app synthesizes here on cdktn and, in a child process, on cdktf (tsx resolves the real
// cdktf and @cdktf providers from node_modules); every stack's Terraform JSON must be equal once the
// differences named in differences.cjs are mapped: the "//" framework metadata and the providers' versions.
const { requiredProvidersToCdktf } = require("./differences.cjs") as {
  requiredProvidersToCdktf: (stack: Record<string, unknown>) => Record<string, unknown>;
};

const ROOT = path.join(__dirname, "..", "..");
const ENV = { CLUSTER_NAME: "demo", AWS_REGION: "us-east-1" };

/** Each stack's Terraform JSON under `outdir`, by stack name, as cdktf's manifest.json lists them. */
function stacks(outdir: string): Record<string, Record<string, unknown>> {
  const manifest = JSON.parse(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8"));
  return Object.fromEntries(
    Object.entries<{ synthesizedStackPath: string }>(manifest.stacks).map(([name, s]) => [
      name,
      JSON.parse(fs.readFileSync(path.join(outdir, s.synthesizedStackPath), "utf8")),
    ]),
  );
}

describe("the example app on CDK Terrain", () => {
  test("runs on cdktn here (the module mapping is in force)", () => {
    expect((require("cdktf/package.json") as { name: string }).name).toBe("cdktn");
    expect((require("@cdktf/provider-aws/package.json") as { name: string }).name).toBe("@cdktn/provider-aws");
  });

  test("writes cdktf's Terraform, framework metadata and provider versions aside", () => {
    // an App as the example's own (Testing.app() would stub the framework version in the metadata)
    const app = buildApp(
      new App({ stackTraces: false, outdir: fs.mkdtempSync(path.join(os.tmpdir(), "example-cdktn-")) }),
      ENV,
    );
    app.synth();
    const onCdktn = stacks(app.outdir);

    const out = fs.mkdtempSync(path.join(os.tmpdir(), "example-cdktf-"));
    try {
      execFileSync(path.join(ROOT, "node_modules", ".bin", "tsx"), ["examples/eks-karpenter/main.ts"], {
        cwd: ROOT,
        env: { ...process.env, ...ENV, CDKTF_OUTDIR: out, CHECKPOINT_DISABLE: "1" },
        stdio: ["ignore", "ignore", "pipe"],
      });
      const onCdktf = stacks(out);
      expect(Object.keys(onCdktn).sort()).toEqual(Object.keys(onCdktf).sort());
      for (const [name, stack] of Object.entries(onCdktn)) {
        // the "//" block is the framework's (its version, the stack name, the backend, the outputs'
        // construct paths): equal but for the framework's version
        const meta = stack["//"] as { metadata: { version: string } };
        const cdktfMeta = onCdktf[name]["//"] as { metadata: { version: string } };
        expect(meta.metadata.version).toBe((require("cdktf/package.json") as { version: string }).version);
        expect({ ...meta, metadata: { ...meta.metadata, version: cdktfMeta.metadata.version } }).toEqual(cdktfMeta);
        const { "//": _n, ...terraform } = requiredProvidersToCdktf(stack);
        const { "//": _f, ...cdktfTerraform } = onCdktf[name];
        expect(terraform).toEqual(cdktfTerraform);
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
      fs.rmSync(app.outdir, { recursive: true, force: true });
    }
  });
});
