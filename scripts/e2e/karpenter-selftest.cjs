#!/usr/bin/env node
// The karpenter stage's own test: `npm run e2e -- --stage karpenter --break <name> --report <file>` must fail,
// and exactly the check the broken input names (karpenter-stage.cjs BREAKS) must be among its failures.
// Usage: node scripts/e2e/karpenter-selftest.cjs <break> <report.json> <exit status of the e2e run>
// Prints `N passed, N failed` (1 check: the stage caught the broken input); a stage whose tools are not built
// (its checks SKIP) counts as skipped.
"use strict";
const fs = require("fs");
const { BREAKS } = require("./karpenter-stage.cjs");
const [brk, file, status] = process.argv.slice(2);
const want = BREAKS[brk];
if (!want) {
  console.error(`usage: karpenter-selftest.cjs ${Object.keys(BREAKS).join("|")} <report.json> <status>`);
  process.exit(2);
}
const report = JSON.parse(fs.readFileSync(file, "utf8"));
const mine = report.checks.filter((c) => c.stage === "karpenter");
const named = mine.filter((c) => c.name.startsWith(`karpenter: ${want.check}:`));
let passed = 0,
  failed = 0,
  skipped = 0;
if (named.length && named.every((c) => c.skipped)) {
  skipped++;
  console.log(`  SKIP --break ${brk}: the ${want.check} check was skipped (${named[0].detail})`);
} else if (Number(status) !== 0 && named.some((c) => c.ok === false)) {
  passed++;
  console.log(
    `  ok   --break ${brk} (${want.what}): the ${want.check} check failed, as it must; the run exited ${status}`,
  );
} else {
  failed++;
  console.log(
    `  FAIL --break ${brk} (${want.what}): the ${want.check} check did not fail (exit ${status}; ${JSON.stringify(named.map((c) => [c.name, c.ok]))})`,
  );
}
console.log(`\nkarpenter self-test: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exitCode = failed ? 1 : 0;
