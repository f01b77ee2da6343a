/*
 * npx tsx scripts/regenerate-versions.ts [--data <dir>]
 *
 * Regenerates lib/versions/data from every reference release folder (../shared/reference/karpenter/v*), oldest
 * first, each minor's Kubernetes range kept as committed (it is add-version's command-line input): what the test
 * "add-version regenerates the committed data" compares against, written out. For a change of the generator.
 */
import * as fs from "fs";
import * as path from "path";
import { dataFileName, generateVersionData, renderDataFile, renderDataIndex } from "./version-data";
import { KUBERNETES, RELEASES } from "../lib/versions/data";
import { VersionData } from "../lib/versions/types";

const args = process.argv.slice(2);
const dataDir = path.resolve(args[0] === "--data" && args[1] ? args[1] : path.join(__dirname, "../lib/versions/data"));
const root = path.resolve(process.env.KARPENTER_REFERENCE ?? path.join(__dirname, "../../shared/reference/karpenter"));
let previous: VersionData | undefined;
const all: VersionData[] = [];
for (const version of RELEASES) {
  const minor = version.split(".").slice(0, 2).join(".");
  const range = KUBERNETES[minor];
  const { data } = generateVersionData(path.join(root, `v${version}`), {
    kubernetes: `${range.min}-${range.max}`,
    previous,
  });
  fs.writeFileSync(path.join(dataDir, dataFileName(minor)), renderDataFile(data));
  previous = data;
  all.push(data);
}
fs.writeFileSync(path.join(dataDir, "index.ts"), renderDataIndex(all));
process.stdout.write(`regenerated ${all.length} minors and the index in ${path.relative(process.cwd(), dataDir)}\n`);
