// Says at the end of a run which tests were skipped and why, so that a checkout without ../shared
// never looks like a full pass; under CI=true (which has ../shared) any skipped test fails the run.
// The reason is read from the test's name: test/reference.ts's skipTitle() puts
// "[SKIPPED: needs <what>, not found at <path>]" there.
"use strict";
const path = require("path");

const MARKER = /\[SKIPPED: needs (.+?), not found at (.+?)\]/;

class SkipReporter {
  constructor(globalConfig) {
    this.globalConfig = globalConfig;
    this.error = undefined;
  }

  onRunComplete(_contexts, results) {
    const byReason = new Map();
    const unexplained = [];
    for (const file of results.testResults) {
      const rel = path.relative(this.globalConfig.rootDir, file.testFilePath);
      for (const t of file.testResults) {
        if (t.status !== "pending" && t.status !== "todo" && t.status !== "skipped") continue;
        // the innermost reason: a test skipped for the harness may sit in a group skipped for the reference
        const m = [t.title, ...[...t.ancestorTitles].reverse()].map((x) => MARKER.exec(x)).find(Boolean);
        if (!m) {
          unexplained.push(`${rel}: ${t.fullName}`);
          continue;
        }
        const key = `${m[1]}\0${m[2]}`;
        if (!byReason.has(key)) byReason.set(key, { what: m[1], at: m[2], count: 0, files: new Set() });
        const r = byReason.get(key);
        r.count++;
        r.files.add(rel);
      }
    }
    // with -t or a single test focused, jest reports the tests it left out as skipped: those are the user's choice
    const filtered =
      Boolean(this.globalConfig.testNamePattern) ||
      results.testResults.some((f) => f.testResults.some((t) => t.status === "focused"));
    const lines = [];
    for (const r of byReason.values()) {
      lines.push(
        `SKIP: ${r.count} test${r.count === 1 ? " needs" : "s need"} ${r.what} (not found at ${r.at}): ${[...r.files].sort().join(", ")}`,
      );
    }
    if (byReason.size)
      lines.push(
        "  (../shared is the folder beside the checkout; CDKTF_EKS_KARPENTER_SHARED or KARPENTER_REFERENCE point elsewhere)",
      );
    if (unexplained.length && !filtered) {
      lines.push(
        `SKIP: ${unexplained.length} test${unexplained.length === 1 ? "" : "s"} skipped in the code without a reason (use describeIf/testIf of test/reference.ts, which names it):`,
      );
      lines.push(...unexplained.map((u) => `  ${u}`));
    }
    if (!lines.length) return;
    process.stderr.write(`\n${lines.join("\n")}\n`);
    if (isCi()) {
      const n = [...byReason.values()].reduce((a, r) => a + r.count, 0) + (filtered ? 0 : unexplained.length);
      if (n > 0) {
        this.error = new Error(
          `${n} test(s) skipped under CI=true: CI checks out ../shared beside the repo, so nothing may skip there`,
        );
        process.stderr.write(`FAIL: ${this.error.message}\n`);
      }
    } else {
      process.stderr.write("(skipped, not passed: CI=true fails on these)\n");
    }
  }

  // jest exits non-zero when a reporter returns an error here
  getLastError() {
    return this.error;
  }
}

function isCi() {
  const v = (process.env.CI || "").toLowerCase();
  return v !== "" && v !== "false" && v !== "0";
}

module.exports = SkipReporter;
