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

/**
 * The test that a committed table is what its script generates from a git snapshot of an upstream repository
 * (scripts/eks-ami-facts.ts, scripts/service-monitor-fields.ts). CI has no snapshot (it is fetched by hand; no git host
 * is reachable there), and a skip fails CI: without one, `consistent` holds the committed table to what the generator
 * guarantees, and the test's title says the regeneration did not run and what it needs.
 */
export function snapshotTableTest(
  script: {
    readonly TABLE_FILE: string;
    readonly REPOSITORY: string;
    readonly COMMIT: string;
    gitDir(): string;
    generate(): unknown;
    render(table: any): string;
  },
  name: string,
  consistent: (table: any) => void,
): void {
  let why: string | undefined;
  try {
    script.generate();
  } catch (e) {
    why = (e as Error).message.split("\n")[0];
  }
  if (why === undefined)
    test(`is what ${name} generates`, () => {
      expect(fs.readFileSync(script.TABLE_FILE, "utf8")).toBe(script.render(script.generate()));
    }, 120_000);
  else
    test(`is consistent with itself (not regenerated: needs a git snapshot of ${script.REPOSITORY} holding ${script.COMMIT}, not found at ${script.gitDir()} (${why}))`, () => {
      consistent(JSON.parse(fs.readFileSync(script.TABLE_FILE, "utf8")));
    });
}
