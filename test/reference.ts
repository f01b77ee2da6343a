import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";

/*
 * The upstream reference copies (outside the repo) that tests hold our tables against: per release
 * v<version>/cloudformation.yaml and charts/<chart>/values.yaml. Without them those tests are
 * reported as skipped, never passed.
 */

/** Where the reference lives: $KARPENTER_REFERENCE, else `<repo>/../shared/reference/karpenter`. */
export function referenceRoot(): string {
  return process.env.KARPENTER_REFERENCE ?? path.resolve(__dirname, "../../shared/reference/karpenter");
}

/** The versions (e.g. `"1.0.14"`) whose `v<version>/<file>` exists in the reference, sorted; none without a reference. */
export function referenceVersionsWith(file: string): string[] {
  const root = referenceRoot();
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .filter((d) => /^v\d+\.\d+\.\d+$/.test(d) && fs.existsSync(path.join(root, d, file)))
    .map((d) => d.slice(1))
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
}

/** `describe` when there are reference versions, else `describe.skip` (the suite is reported as skipped). */
export function describeWithReference(versions: readonly string[]): jest.Describe {
  return versions.length > 0 ? describe : describe.skip;
}

/** The parsed `charts/karpenter/values.yaml` of a reference version. */
export function referenceChartValues(version: string): any {
  return YAML.parse(fs.readFileSync(path.join(referenceRoot(), `v${version}`, "charts/karpenter/values.yaml"), "utf8"));
}
