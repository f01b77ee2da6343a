import * as fs from "fs";
import * as path from "path";

/*
 * The README's `npm install` lines (Installation, Use it in your own app) ask for what package.json
 * says: every peer dependency at its peerDependencies range, the dev tools at this repository's
 * ranges, the tarball `npm pack` writes. scripts/readme-app.cjs runs one of them against the registry
 * in CI; this keeps both in step with package.json without a network.
 */

const REPO = path.resolve(__dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));
const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");

/** The `npm install` commands of a README section's sh blocks. */
function installs(section: string): string[] {
  const start = readme.indexOf(`\n## ${section}\n`);
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf("\n## ", start + 4);
  const text = readme.slice(start, end < 0 ? undefined : end);
  const sh = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).join("\n");
  return [...sh.matchAll(/npm install ([^\n#]+)/g)].map((m) => m[1].trim());
}

/** name → range of `name@range` arguments (scoped names included). */
function specs(commands: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  // an argument is a word, or a double-quoted string ("constructs@>=10.6.0 <10.8.0")
  for (const [, quoted, word] of commands.join(" ").matchAll(/"([^"]*)"|(\S+)/g)) {
    const m = /^(@?[^@\s"]+)@(.+)$/.exec(quoted ?? word);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

const tarball = `${pkg.name}-${pkg.version}.tgz`;

test.each(["Installation", "Use it in your own app"])(
  "README %s installs the peer dependencies at package.json's ranges, and the packed tarball",
  (section) => {
    const commands = installs(section);
    const asked = specs(commands);
    for (const [name, range] of Object.entries(pkg.peerDependencies as Record<string, string>))
      expect([name, asked[name]]).toEqual([name, range]);
    expect(commands.some((c) => c.includes(`/${tarball}`))).toBe(true);
  },
);

test("README Use it in your own app installs the dev tools at this repository's ranges", () => {
  const asked = specs(installs("Use it in your own app"));
  expect(asked["cdktf-cli"]).toBe(pkg.devDependencies["cdktf-cli"]);
  expect(asked.typescript).toBe(pkg.devDependencies.typescript);
});

test("README CDK Terrain installs the cdktn flavour's peers at scripts/cdktn/flavour.json's ranges, and its packed tarball", () => {
  const flavour = require("../scripts/cdktn/flavour.json") as {
    name: string;
    peerDependencies: Record<string, string>;
  };
  const commands = installs("CDK Terrain");
  const asked = specs(commands);
  for (const [name, range] of Object.entries(flavour.peerDependencies))
    expect([name, asked[name]]).toEqual([name, range]);
  // npm run package: jsii-pacmak's js target names the tarball <name>@<version>.jsii.tgz
  expect(commands.some((c) => c.includes(`/dist/cdktn/packages/js/${flavour.name}@${pkg.version}.jsii.tgz`))).toBe(
    true,
  );
});
