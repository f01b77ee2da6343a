// `npm run test:cdktn` (issue 32): the same test suite on CDK Terrain. The library, the examples and the
// tests import cdktf and the @cdktf providers; here those names resolve to cdktn and the @cdktn
// providers in the cache that scripts/cdktn/install.cjs fills (npm run test:cdktn runs it first), and
// constructs to the copy cdktn asks for (>= 10.6). No test is copied; what legitimately differs between
// the two frameworks' output is mapped by test/cdktn/differences.cjs (provider versions, framework
// metadata), through the snapshot serializer below and test/cdktn/example-terraform.cdktn-test.ts.
const base = require("./jest.config.js");
const { nodeModules, cached } = require("./scripts/cdktn/install.cjs");
const { rename } = require("./scripts/cdktn/flavour.json");
const escapeRe = (s) => s.replace(/[/.]/g, "\\$&");

if (!cached())
  throw new Error(
    `jest.cdktn.config.cjs: the cdktn packages are not installed in ${nodeModules}: run node scripts/cdktn/install.cjs (npm run test:cdktn does)`,
  );

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  // *.cdktn-test.ts: tests that only mean something on cdktn (the example's Terraform held to cdktf's)
  testMatch: [...base.testMatch, "**/*.cdktn-test.ts"],
  // flavour.json's rename: cdktf → cdktn, @cdktf/provider-X[/lib/…] → @cdktn/provider-X[/lib/…]
  moduleNameMapper: {
    ...base.moduleNameMapper,
    ...Object.fromEntries(
      Object.entries(rename).flatMap(([from, to]) => [
        [`^${escapeRe(from)}$`, `${nodeModules}/${to}`],
        [`^${escapeRe(from)}/(.*)$`, `${nodeModules}/${to}/$1`],
      ]),
    ),
    "^constructs$": `${nodeModules}/constructs`,
  },
  snapshotSerializers: ["<rootDir>/test/cdktn/snapshot-serializer.cjs"],
};
