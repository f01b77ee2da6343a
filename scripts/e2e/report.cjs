// What every e2e run prints and, with --report <file.json>, writes: one entry per check, per stage.
// Also the command line of `npm run e2e`. Pure and in-process: unit-tested in test/e2e-cluster-runner.test.ts.
"use strict";
const fs = require("fs");

const STAGES = ["validate", "helm", "emulator", "upgrade", "cluster", "agreement", "karpenter"];
/** Stages run only when `--stage` names them (not part of `npm run e2e` without it yet): day2 (issue 29). */
// values-agreement (the chart values of every Karpenter the tests build, rendered by helm and judged by the server:
// values-stage.cjs) is opt-in until it agrees on main's tests
// cel-agreement (kubelet CEL expressions judged by the library and by Karpenter's pkg/cel: cel-stage.cjs) needs no
// cluster and takes seconds; opt-in like values-agreement, run by .ci/run's lane A
const OPT_IN_STAGES = ["cel-agreement", "day2", "values-agreement"];

/**
 * `npm run e2e -- [--stage <name>[,<name>]] [--validate [<cdktf.out>]] [--apply <cdktf.out>]
 *   [--server-validate <file.yaml>] [--karpenter-version X.Y.Z] [--crds reference|module]
 *   [--report <file.json>] [--keep]`
 * @returns {{mode: "all"|"stages"|"validate"|"apply"|"server-validate", stages: string[], target?: string,
 *   karpenterVersion?: string, crds: "reference"|"module", report?: string, keep: boolean}}
 * @throws Error with the usage for an unknown flag, a missing value or an unknown stage
 */
function parseArgs(argv) {
  const usage =
    "usage: npm run e2e -- [--stage " +
    [...STAGES, ...OPT_IN_STAGES].join("|") +
    "] [--validate [<cdktf.out>]] [--apply <cdktf.out>] " +
    "[--server-validate <file.yaml> [--karpenter-version X.Y.Z]] [--crds reference|module] [--break queue-target|node-role] [--report <file.json>] [--keep]";
  const out = { mode: "all", stages: [...STAGES], crds: "reference", keep: false };
  const modes = [];
  const value = (i, flag) => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith("--")) throw new Error(`${flag} needs a value\n${usage}`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const take = () => (inline !== undefined ? inline : value(i++, flag));
    switch (flag) {
      case "--stage": {
        const names = take()
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        const bad = names.filter((s) => !STAGES.includes(s) && !OPT_IN_STAGES.includes(s));
        if (bad.length || !names.length)
          throw new Error(
            `--stage ${bad.join(",")}: unknown stage (stages: ${[...STAGES, ...OPT_IN_STAGES].join(", ")})\n${usage}`,
          );
        out.stages = names;
        modes.push("stages");
        break;
      }
      case "--validate":
        // alone (no output folder after it): the validate stage, every example and the main one on cdktn
        if (inline === undefined && (argv[i + 1] === undefined || argv[i + 1].startsWith("--"))) {
          out.stages = ["validate"];
          modes.push("stages");
          break;
        }
        out.target = take();
        modes.push("validate");
        break;
      case "--apply":
        out.target = take();
        modes.push("apply");
        break;
      case "--server-validate":
        out.target = take();
        modes.push("server-validate");
        break;
      case "--karpenter-version": {
        const v = take();
        if (!/^\d+\.\d+\.\d+$/.test(v)) throw new Error(`--karpenter-version ${v}: a release such as 1.14.1\n${usage}`);
        out.karpenterVersion = v;
        break;
      }
      case "--crds": {
        const v = take();
        if (v !== "reference" && v !== "module")
          throw new Error(
            `--crds ${v}: reference (../shared/reference) or module (the Go module github.com/aws/karpenter-provider-aws)\n${usage}`,
          );
        out.crds = v;
        break;
      }
      case "--report":
        out.report = take();
        break;
      // the karpenter stage's self-test: a deliberately broken input (scripts/e2e/karpenter-stage.cjs BREAKS)
      case "--break": {
        const v = take();
        if (!["queue-target", "node-role"].includes(v))
          throw new Error(`--break ${v}: queue-target or node-role\n${usage}`);
        out.break = v;
        break;
      }
      case "--keep":
        out.keep = true;
        break;
      default:
        throw new Error(`unknown argument ${a}\n${usage}`);
    }
  }
  if (modes.length > 1)
    throw new Error(
      `choose one of --stage, --validate, --apply, --server-validate (got ${modes.join(", ")})\n${usage}`,
    );
  if (modes.length) out.mode = modes[0];
  if (out.karpenterVersion && !["server-validate", "stages", "all"].includes(out.mode))
    throw new Error(`--karpenter-version goes with --server-validate or --stage\n${usage}`);
  return out;
}

/** The checks of one run. */
class Report {
  constructor(log = (l) => console.log(l)) {
    this.log = log;
    this.entries = [];
    this.stage = "e2e";
    this.timings = {};
    this.agreement = undefined;
    /** The day-2 stage's figures (day2-stage.cjs emptyDay2Report), written as `day2`. */
    this.day2 = undefined;
    /** What a stage reports beyond its checks (the karpenter stage: NodeClaims, instances, IAM verdicts, ...). */
    this.stages = {};
  }
  setStage(name) {
    this.stage = name;
  }
  check(name, ok, detail) {
    this.entries.push({ stage: this.stage, name, ok: !!ok, detail: detail === undefined ? undefined : String(detail) });
    if (ok) this.log(`  ok   ${name}`);
    else this.log(`  FAIL ${name}${detail ? `\n       ${String(detail).split("\n").join("\n       ")}` : ""}`);
    return !!ok;
  }
  /** A check this machine cannot run: says SKIP and what is missing. */
  skip(name, why) {
    this.entries.push({ stage: this.stage, name, ok: null, skipped: true, detail: why });
    this.log(`  SKIP ${name}: ${why}`);
  }
  counts() {
    return {
      passed: this.entries.filter((e) => e.ok === true).length,
      failed: this.entries.filter((e) => e.ok === false).length,
      skipped: this.entries.filter((e) => e.skipped).length,
    };
  }
  /** `N passed, N failed` (`, N skipped` when something was skipped): the closing line of every run. */
  summaryLine() {
    const c = this.counts();
    return `${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ""}`;
  }
  toJSON() {
    return {
      summary: { ...this.counts(), line: this.summaryLine() },
      checks: this.entries,
      timings: this.timings,
      agreement: this.agreement,
      ...(this.valuesAgreement ? { valuesAgreement: this.valuesAgreement } : {}),
      ...(this.day2 ? { day2: this.day2 } : {}),
      resources: this.resources,
      stages: this.stages,
    };
  }
  write(file) {
    fs.writeFileSync(file, `${JSON.stringify(this.toJSON(), null, 2)}\n`);
  }
}

module.exports = { parseArgs, Report, STAGES, OPT_IN_STAGES };
