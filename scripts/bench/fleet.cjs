// Fleet rows of `npm run bench`: the synth of scripts/bench/fleet-app.ts (N clusters, each with
// Karpenter and a nodes stack of an EC2NodeClass and 3 NodePools) with and without the construct
// validations, at each N of BENCH_FLEET (default "50,200"). Target: validated ≤ 1.2 × unvalidated,
// i.e. the cross-construct checks stay linear in the fleet size. Measured as the synth process's own
// CPU time (user + system), best of BENCH_FLEET_RUNS (default 3) interleaved runs each: wall time on a shared machine moves
// with the other processes' load by more than the difference measured. The target is checked on the
// validated run itself too (its CPU time over the same minus its validations' CPU time), which the
// load moves far less than the ratio of two runs.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");

const RATIO_TARGET = 1.2;

/** @param run the bench's `run(cmd, args, env)` → { ms } */
module.exports = function fleetRows(run) {
  const sizes = (process.env.BENCH_FLEET || "50,200")
    .split(",")
    .map(Number)
    .filter((n) => n > 0);
  const once = (n, validate) => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "bench-fleet-"));
    try {
      const hook =
        "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write(`\\ncpu_us=${u.user + u.system}\\n`); })";
      const r = run(
        process.execPath,
        [
          "--import",
          `data:text/javascript,${encodeURIComponent(hook)}`,
          "--import",
          "tsx",
          "scripts/bench/fleet-app.ts",
        ],
        { CDKTF_OUTDIR: out, FLEET_CLUSTERS: String(n), FLEET_VALIDATE: validate ? "1" : "0" },
      );
      const spent = /validation_cpu_us=(\d+)/.exec(r.stderr);
      return {
        ms: Number(/\ncpu_us=(\d+)/.exec(r.stderr)[1]) / 1000,
        validationMs: spent ? Number(spent[1]) / 1000 : 0,
      };
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  };
  const rows = [];
  for (const n of sizes) {
    const plain = [];
    const checked = [];
    for (let i = 0; i < Math.max(1, Number(process.env.BENCH_FLEET_RUNS || 3)); i++) {
      plain.push(once(n, false));
      checked.push(once(n, true));
    }
    const p = Math.min(...plain.map((x) => x.ms));
    const best = checked.reduce((a, b) => (b.ms < a.ms ? b : a));
    const c = best.ms;
    const own = c / (c - best.validationMs);
    rows.push([`fleet N=${n} synth CPU, unvalidated`, `${p.toFixed(0)} ms`, "-", true]);
    rows.push([
      `fleet N=${n} synth CPU, validated`,
      `${c.toFixed(0)} ms`,
      `${(p * RATIO_TARGET).toFixed(0)} ms`,
      c <= p * RATIO_TARGET,
    ]);
    rows.push([
      `fleet N=${n} validated/unvalid.`,
      `${(c / p).toFixed(2)}x`,
      `${RATIO_TARGET.toFixed(2)}x`,
      c / p <= RATIO_TARGET,
    ]);
    rows.push([
      `fleet N=${n} validations ${best.validationMs.toFixed(0)} ms`,
      `${own.toFixed(2)}x`,
      `${RATIO_TARGET.toFixed(2)}x`,
      own <= RATIO_TARGET,
    ]);
  }
  return rows;
};
