// Large-input rows of `npm run bench` (issue 31, item 5: linear on huge inputs): a NodePool whose `limits` has N
// keys, each an unknown resource name that draws a did-you-mean warning (the costliest path per key), built,
// checked (validateApp) and synthesized (app.synth) by the compiled library (dist/, `npm run build`), one cold
// process per size. Measured as that work's CPU time (user + system), best of BENCH_LARGE_RUNS (default 3).
// Targets: the largest size within LARGE_MS, and per key at the largest size at most LINEAR_RATIO × per key at the
// smallest (linear gives 1; a scan of every key per key gave 4 at 4× the keys). Sizes: BENCH_LARGE="5000,20000".
// Not measured: cdktf's `Testing.synth`, which sorts each object with a spread per key (quadratic in one map's
// keys: fresh9 C12's 183 s at 20,000 keys), outside this library.
// Alone: `node scripts/bench/large-maps.cjs` (after `npm run build`).
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const root = path.join(__dirname, "..", "..");
const LARGE_MS = 15000;
const LINEAR_RATIO = 1.6;

// the child: the app, with the phases' CPU time on stderr
const APP = `
const { App, TerraformStack } = require("cdktf");
const { KubernetesProvider } = require("@cdktf/provider-kubernetes/lib/provider");
const lib = require(${JSON.stringify(path.join(root, "dist"))});
const n = Number(process.env.LARGE_KEYS);
const app = new App({ outdir: process.env.CDKTF_OUTDIR });
const stack = new TerraformStack(app, "nodes");
new KubernetesProvider(stack, "k8s", {});
const limits = {};
for (let i = 0; i < n; i++) limits["r" + i] = "1";
const t0 = process.cpuUsage();
new lib.NodePool(stack, "pool", { nodeClass: { name: "default" }, limits });
const report = lib.validateApp(app);
if (report.errors.length || report.warnings.length !== n) throw new Error("unexpected report: " + report.errors.length + " errors, " + report.warnings.length + " warnings");
app.synth();
const u = process.cpuUsage(t0);
process.stderr.write("\\nlarge_cpu_us=" + (u.user + u.system) + "\\n");
`;

function once(n) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "bench-large-"));
  try {
    const r = spawnSync(process.execPath, ["-e", APP], {
      cwd: root,
      env: { ...process.env, CHECKPOINT_DISABLE: "1", CDKTF_OUTDIR: out, LARGE_KEYS: String(n) },
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`large-maps app (${n} keys) exited ${r.status}: ${r.stderr.slice(-2000)}`);
    return Number(/large_cpu_us=(\d+)/.exec(r.stderr)[1]) / 1000;
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** The rows: [name, value, target, ok]. */
function largeMapRows() {
  if (!fs.existsSync(path.join(root, "dist", "index.js")))
    throw new Error("no dist/index.js: run `npm run build` first");
  const sizes = (process.env.BENCH_LARGE || "5000,20000")
    .split(",")
    .map(Number)
    .filter((n) => n > 0)
    .sort((a, b) => a - b);
  const runs = Number(process.env.BENCH_LARGE_RUNS || 3);
  const best = new Map(sizes.map((n) => [n, Infinity]));
  // interleaved, so that the machine's load hits every size alike
  for (let i = 0; i < runs; i++) for (const n of sizes) best.set(n, Math.min(best.get(n), once(n)));
  const rows = sizes.map((n) => [`NodePool ${n} limits keys (CPU)`, `${best.get(n).toFixed(0)} ms`, "—", undefined]);
  const small = sizes[0];
  const large = sizes[sizes.length - 1];
  rows[rows.length - 1][2] = `${LARGE_MS} ms`;
  rows[rows.length - 1][3] = best.get(large) <= LARGE_MS;
  if (large > small) {
    const ratio = best.get(large) / large / (best.get(small) / small);
    rows.push([
      `  per key, ${large} / ${small} keys`,
      `${ratio.toFixed(2)}×`,
      `${LINEAR_RATIO}×`,
      ratio <= LINEAR_RATIO,
    ]);
  }
  return rows;
}

module.exports = largeMapRows;

if (require.main === module) {
  const rows = largeMapRows();
  for (const [name, value, target, ok] of rows)
    console.log(
      `${name.padEnd(38)} ${value.padStart(12)} ${target.padStart(12)}  ${ok === undefined ? "" : ok ? "PASS" : "FAIL"}`,
    );
  if (process.argv.includes("--strict") && rows.some((r) => r[3] === false)) process.exit(1);
}
