// The supported Node range is stated three times: package.json `engines` (what npm warns against), the
// README (what people read) and the pins of scripts/node-versions.sh (what CI proves). They drift apart
// one edit at a time, so they are held together here.
import * as fs from "fs";
import * as path from "path";
import * as semver from "semver";

const REPO = path.join(__dirname, "..");
const engines: string = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")).engines.node;
const lockEngines: string = JSON.parse(fs.readFileSync(path.join(REPO, "package-lock.json"), "utf8")).packages[""]
  .engines.node;
const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
const section = readme.split(/^## Node versions\n/m)[1]?.split(/^## /m)[0] ?? "";
const script = fs.readFileSync(path.join(REPO, "scripts", "node-versions.sh"), "utf8");
const pins = [...script.matchAll(/^\s*"(\d+\.\d+\.\d+) sha512-[A-Za-z0-9+/=]+"$/gm)].map((m) => m[1]);

test("README has a Node versions section", () => {
  expect(section).not.toBe("");
});

test("the README states the engines range as package.json has it, and the lockfile agrees", () => {
  expect(semver.validRange(engines)).not.toBeNull();
  expect(section).toContain("`" + engines + "`");
  expect(lockEngines).toBe(engines);
});

test("the README's floor is the range's lowest version", () => {
  const floor = semver.minVersion(engines)!;
  expect(section).toContain(`Node ${floor.major}.${floor.minor}+`);
  // and the summary line at the top says the same
  expect(readme.split("\n## ")[0]).toContain(`${floor.major}.${floor.minor}+`);
});

test("every pinned Node is in the range and named in the README, one pin per major", () => {
  expect(pins.length).toBeGreaterThan(0);
  for (const v of pins) {
    expect(semver.satisfies(v, engines)).toBe(true);
    expect(section).toMatch(new RegExp(`\\b${semver.major(v)}\\b`));
  }
  expect(new Set(pins.map((v) => semver.major(v))).size).toBe(pins.length);
});

test("the README's list of tested Nodes is CI's Node 20 plus the pins", () => {
  const listed = section.match(/on this machine's Node (\d+) and on\s+pinned Node ([\d, and]+?) \(/);
  expect(listed).not.toBeNull();
  const majors = listed![2].split(/,\s*|\s+and\s+/).map(Number);
  expect(majors).toEqual(pins.map((v) => semver.major(v)));
  expect(semver.satisfies(`${listed![1]}.19.0`, engines)).toBe(true);
});

test("odd-numbered releases below the open end are outside the range", () => {
  // they were never LTS and are past their end of life; see README "Node versions"
  for (const v of ["21.7.3", "23.11.1"]) expect(semver.satisfies(v, engines)).toBe(false);
  expect(semver.satisfies("20.15.1", engines)).toBe(false);
});
