import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";

/*
 * The upstream reference copies (outside the repo) that tests hold our tables against: per release
 * v<version>/cloudformation.yaml and charts/<chart>/values.yaml. Without them those tests are
 * skipped under a name that says why, never passed, and CI (CI=true) fails (test/skip-reporter.cjs).
 */

/**
 * The folder beside the checkout that holds the reference and the conformance harness:
 * $CDKTF_EKS_KARPENTER_SHARED, else `<repo>/../shared`. Pointing the variable at a missing folder
 * runs the suite as a checkout without it does (`CDKTF_EKS_KARPENTER_SHARED=/nonexistent npx jest`).
 */
export function sharedRoot(): string {
  return process.env.CDKTF_EKS_KARPENTER_SHARED ?? path.resolve(__dirname, "../../shared");
}

/** Where the reference lives: $KARPENTER_REFERENCE (which the conformance harness reads too), else `<shared>/reference/karpenter`. */
export function referenceRoot(): string {
  return process.env.KARPENTER_REFERENCE ?? path.join(sharedRoot(), "reference/karpenter");
}

/** The conformance harness, `<shared>/conformance/check.cjs`. */
export function conformanceHarness(): string {
  return path.join(sharedRoot(), "conformance/check.cjs");
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

/**
 * What a group of tests needs from outside the repo: `what` names it as a person would look for it,
 * `at` is where it was looked for. test/skip-reporter.cjs finds `skipTitle`'s marker in the names of
 * skipped tests, prints the reason at the end of the run, and fails the run under CI=true.
 */
export interface Requirement {
  readonly what: string;
  readonly at: string;
  readonly present: boolean;
}

/** The marker the skip reporter reads; keep the two in step. */
export function skipTitle(name: string, need: Requirement): string {
  return `${name} [SKIPPED: needs ${need.what}, not found at ${need.at}]`;
}

/** `describe` when the requirement is met, else `describe.skip` under a name that says what is missing and where it was looked for. */
export function describeIf(need: Requirement): (name: string, fn: () => void) => void {
  return need.present ? describe : (name, fn) => describe.skip(skipTitle(name, need), fn);
}

/** `test` when the requirement is met, else `test.skip` under a name that says what is missing. */
export function testIf(need: Requirement): (name: string, fn: jest.ProvidesCallback, timeout?: number) => void {
  return need.present ? test : (name, fn, timeout) => test.skip(skipTitle(name, need), fn, timeout);
}

/** The reference as a requirement: present when it has a version folder (with `file`, when given) for each of `versions`, or for any version when none are named. */
export function referenceRequirement(versions: readonly string[] = [], file = "cloudformation.yaml"): Requirement {
  const have = referenceVersionsWith(file);
  const present = versions.length > 0 ? versions.every((v) => have.includes(v)) : have.length > 0;
  const folders = versions.length > 0 ? ` with ${versions.map((v) => `v${v}/${file}`).join(" and ")}` : "";
  return { what: `../shared/reference/karpenter${folders}`, at: referenceRoot(), present };
}

/** A file of the reference root (ERRATA.json) as a requirement. */
export function referenceFileRequirement(file: string): Requirement {
  const at = path.join(referenceRoot(), file);
  return { what: `../shared/reference/karpenter/${file}`, at, present: fs.existsSync(at) };
}

/** The conformance harness, which also reads the reference (so both are needed). */
export function harnessRequirement(): Requirement {
  const harness = conformanceHarness();
  if (!fs.existsSync(harness))
    return { what: "the conformance harness ../shared/conformance/check.cjs", at: harness, present: false };
  return referenceRequirement();
}

/**
 * `describe` when there are reference versions (the folders whose file the caller listed), else a
 * skip that names the reference and where it was looked for.
 */
export function describeWithReference(versions: readonly string[]): (name: string, fn: () => void) => void {
  return describeIf({ ...referenceRequirement(), present: versions.length > 0 });
}

/** The parsed `charts/karpenter/values.yaml` of a reference version. */
export function referenceChartValues(version: string): any {
  return YAML.parse(fs.readFileSync(path.join(referenceRoot(), `v${version}`, "charts/karpenter/values.yaml"), "utf8"));
}
