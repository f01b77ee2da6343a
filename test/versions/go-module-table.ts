import { spawnSync } from "child_process";
import * as fs from "fs";
import { testIf } from "../reference";

/**
 * The test that a committed table (lib/versions/data/…) is what its script generates from the Go module cache
 * (scripts/go-module-table.ts). Without Go or the modules (no proxy), it says SKIP and names `modules`.
 */
export function generatedTableTest(opts: {
  file: string;
  script: string;
  modules: string;
  generate: () => unknown;
  render: (table: any) => string;
}): void {
  const cache = spawnSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" });
  let need = { what: `${opts.modules} (go mod download)`, at: "go (not on PATH)", present: false };
  if (!cache.error && cache.status === 0) {
    try {
      opts.generate();
      need = { ...need, at: cache.stdout.trim(), present: true };
    } catch (e) {
      need = { ...need, at: `${cache.stdout.trim()} (${(e as Error).message.split("\n")[0]})` };
    }
  }
  testIf(need)(
    `is what ${opts.script} generates`,
    () => {
      expect(fs.readFileSync(opts.file, "utf8")).toBe(opts.render(opts.generate()));
    },
    300_000,
  );
}
