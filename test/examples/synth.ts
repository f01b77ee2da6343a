import * as fs from "fs";
import * as path from "path";
import { App } from "cdktf";

/**
 * Synthesizes a whole app as `cdktf synth` does (validations, cross-stack references through
 * remote state) and returns each stack's Terraform JSON text, without cdktf's "//" metadata.
 */
export function synthApp(app: App): Record<string, string> {
  app.synth();
  const manifest = JSON.parse(fs.readFileSync(path.join(app.outdir, "manifest.json"), "utf8"));
  const out: Record<string, string> = {};
  for (const [name, s] of Object.entries<any>(manifest.stacks)) {
    const json = JSON.parse(fs.readFileSync(path.join(app.outdir, s.synthesizedStackPath), "utf8"));
    out[name] = JSON.stringify(json, (k, v) => (k === "//" ? undefined : v), 2);
  }
  fs.rmSync(app.outdir, { recursive: true, force: true });
  return out;
}
