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
import { dataFileName, generateVersionData, renderDataFile, renderDataIndex } from "./version-data";
import { VersionData } from "../lib/versions/types";

function main(argv: string[]): number {
  const folder = argv.find((a, i) => !a.startsWith("--") && argv[i - 1] !== "--kubernetes" && argv[i - 1] !== "--data");
  const k = argv.indexOf("--kubernetes");
  let kubernetes = k >= 0 ? argv[k + 1] : undefined;
  // --data <dir>: another data folder (the tests add a release to a copy)
  const d = argv.indexOf("--data");
  const DATA_DIR = d >= 0 ? path.resolve(argv[d + 1]) : path.resolve(__dirname, "../lib/versions/data");
  if (!folder) {
    console.error("usage: npm run add-version -- <folder v<version>> --kubernetes <oldest>-<newest>   e.g. ../shared/reference/karpenter/v1.15.0 --kubernetes 1.30-1.36");
    return 2;
  }
  const version = path.basename(path.resolve(folder)).replace(/^v/, "");
  const minor = version.split(".").slice(0, 2).join(".");
  const index = fs.existsSync(path.join(DATA_DIR, "index.ts")) ? require(path.join(DATA_DIR, "index.ts")) : { RELEASES: [], LOADERS: {}, KUBERNETES: {} };
  const releases: string[] = [...index.RELEASES];
  const existing = releases.find((r) => r.startsWith(`${minor}.`));
  if (existing && existing.localeCompare(version, undefined, { numeric: true }) > 0) {
    console.error(`the data already holds ${existing}, newer than ${version}: the data describes the newest patch of each minor`);
    return 1;
  }
  const rangeOf = (m: string): { min: string; max: string } => index.KUBERNETES?.[m] ?? (index.LOADERS[m]() as VersionData).kubernetes;
  if (!kubernetes && existing) kubernetes = `${rangeOf(minor).min}-${rangeOf(minor).max}`;
  const previousMinor = releases
    .map((r) => r.split(".").slice(0, 2).join("."))
    .filter((m) => m.localeCompare(minor, undefined, { numeric: true }) < 0)
    .pop();
  const previous: VersionData | undefined = previousMinor ? index.LOADERS[previousMinor]() : undefined;
  const { data, checklist } = generateVersionData(folder, { kubernetes: kubernetes ?? "", previous });
  fs.writeFileSync(path.join(DATA_DIR, dataFileName(minor)), renderDataFile(data));
  const others = releases.filter((r) => r !== existing).map((r) => ({ version: r, kubernetes: rangeOf(r.split(".").slice(0, 2).join(".")) }));
  fs.writeFileSync(path.join(DATA_DIR, "index.ts"), renderDataIndex([...others, { version, kubernetes: data.kubernetes }]));
  console.log(`wrote ${path.relative(process.cwd(), path.join(DATA_DIR, dataFileName(minor)))} (Karpenter ${version}, Kubernetes ${data.kubernetes.min}–${data.kubernetes.max}${data.errata.length ? `, errata ${data.errata.join(", ")}` : ""})`);
  console.log(checklist.length ? `\nReview before committing (add-version cannot derive these):\n${checklist.map((c) => `  [ ] ${c}`).join("\n")}` : "\nNothing to review beyond the diff.");
  console.log("\nThen: npm run build && npm test; conformance: KARPENTER_REFERENCE=<root of the folder> node ../shared/conformance/check.cjs cdktf.out");
  return 0;
}

process.exitCode = main(process.argv.slice(2));
