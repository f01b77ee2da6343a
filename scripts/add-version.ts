/*
 * npm run add-version -- <release folder> --kubernetes <oldest>-<newest> [--data <dir>]
 *
 * Reads a Karpenter release's artefacts (a folder v<version>/ laid out like
 * shared/reference/karpenter/v<version>/) and writes lib/versions/data/v<major>-<minor>.json plus the
 * index of known releases. Prints the checklist of what a person must review. Run `npm run build`
 * (or just the tests) afterwards.
 */
import * as fs from "fs";
import * as path from "path";
import { parseArgs } from "util";
import { dataFileName, generateVersionData, renderDataFile, renderDataIndex } from "./version-data";
import { VersionData } from "../lib/versions/types";

const USAGE =
  "usage: npm run add-version -- <folder v<version>> --kubernetes <oldest>-<newest>   e.g. ../shared/reference/karpenter/v1.15.0 --kubernetes 1.30-1.36\n" +
  "  --kubernetes <oldest>-<newest>  the release's range in the Karpenter compatibility matrix (may be left out for a newer patch of a known minor: the minor's range is kept)\n" +
  "  --data <dir>                    the data folder to update (default lib/versions/data)\n";

/** Where add-version writes; tests pass their own. */
export interface AddVersionIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * `add-version <folder> --kubernetes <min>-<max> [--data <dir>]`.
 * @returns the exit status: 0 written, 1 the folder or data cannot be used (nothing written), 2 wrong usage
 */
export function addVersion(
  argv: readonly string[],
  io: AddVersionIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) },
): number {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (e) {
    // parseArgs' own messages name the option ("Option '--kubernetes <value>' argument missing")
    io.stderr(`error: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    io.stderr(
      `error: ${positionals.length === 0 ? "no release folder given" : `one release folder expected, got ${positionals.length}: ${positionals.join(" ")}`}\n${USAGE}`,
    );
    return 2;
  }
  const folder = positionals[0];
  let kubernetes = values.kubernetes;
  const DATA_DIR =
    values.data !== undefined ? path.resolve(values.data) : path.resolve(__dirname, "../lib/versions/data");
  const version = path.basename(path.resolve(folder)).replace(/^v/, "");
  if (!/^\d+\.\d+\.\d+$/.test(version)) {
    io.stderr(
      `error: ${folder}: the release folder must be named v<MAJOR.MINOR.PATCH>, e.g. v1.15.0 (the name is the version)\n`,
    );
    return 1;
  }
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) {
    io.stderr(`error: ${folder}: no such folder\n`);
    return 1;
  }
  if (!fs.existsSync(path.join(DATA_DIR, "index.ts"))) {
    io.stderr(`error: ${DATA_DIR}: no index.ts (--data must be a copy of lib/versions/data)\n`);
    return 1;
  }
  const minor = version.split(".").slice(0, 2).join(".");
  const index = require(path.join(DATA_DIR, "index.ts"));
  const releases: string[] = [...index.RELEASES];
  const existing = releases.find((r) => r.startsWith(`${minor}.`));
  if (existing && existing.localeCompare(version, undefined, { numeric: true }) > 0) {
    io.stderr(
      `error: the data already holds ${existing}, newer than ${version}: the data describes the newest patch of each minor\n`,
    );
    return 1;
  }
  const rangeOf = (m: string): { min: string; max: string } =>
    index.KUBERNETES?.[m] ?? (index.LOADERS[m]() as VersionData).kubernetes;
  if (!kubernetes && existing) kubernetes = `${rangeOf(minor).min}-${rangeOf(minor).max}`;
  if (!kubernetes) {
    io.stderr(
      `error: ${minor} is a new minor: --kubernetes <oldest>-<newest> is needed (its range in the Karpenter compatibility matrix, e.g. 1.30-1.36)\n${USAGE}`,
    );
    return 2;
  }
  const previousMinor = releases
    .map((r) => r.split(".").slice(0, 2).join("."))
    .filter((m) => m.localeCompare(minor, undefined, { numeric: true }) < 0)
    .pop();
  const previous: VersionData | undefined = previousMinor ? index.LOADERS[previousMinor]() : undefined;
  let generated: ReturnType<typeof generateVersionData>;
  try {
    // a newer patch of a known minor is judged against the data of the patch it replaces
    const earlierPatch: VersionData | undefined = existing && existing !== version ? index.LOADERS[minor]() : undefined;
    generated = generateVersionData(folder, { kubernetes, previous, earlierPatch });
  } catch (e) {
    // the generator's errors name the folder or file and what is wrong: nothing is written
    io.stderr(`error: ${(e as Error).message}\n`);
    return 1;
  }
  const { data, checklist } = generated;
  fs.writeFileSync(path.join(DATA_DIR, dataFileName(minor)), renderDataFile(data));
  // the index dates every CRD field and enum value across all minors, so it is written from all of their data
  const others: VersionData[] = releases
    .filter((r) => r !== existing)
    .map((r) => r.split(".").slice(0, 2).join("."))
    .map((m) => ({ ...(index.LOADERS[m]() as VersionData), kubernetes: rangeOf(m) }));
  fs.writeFileSync(path.join(DATA_DIR, "index.ts"), renderDataIndex([...others, data]));
  io.stdout(
    `wrote ${path.relative(process.cwd(), path.join(DATA_DIR, dataFileName(minor)))} (Karpenter ${version}, Kubernetes ${data.kubernetes.min}–${data.kubernetes.max}${data.errata.length ? `, errata ${data.errata.join(", ")}` : ""})\n`,
  );
  io.stdout(
    checklist.length
      ? `\nReview before committing (add-version cannot derive these):\n${checklist.map((c) => `  [ ] ${c}`).join("\n")}\n`
      : "\nNothing to review beyond the diff.\n",
  );
  io.stdout(
    "\nThen: npm run build && npm test; conformance: KARPENTER_REFERENCE=<root of the folder> node ../shared/conformance/check.cjs cdktf.out\n",
  );
  return 0;
}

function parseOptions(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: { kubernetes: { type: "string" }, data: { type: "string" }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
    strict: true,
  });
}

if (require.main === module) process.exitCode = addVersion(process.argv.slice(2));
