// npm run bench's Python rows: cold synths of examples/python/ in the virtualenv of `npm run test:python`
// (scripts/bench/python_synth.py times each phase), against the TypeScript example's compiled synth.
// Without that virtualenv (or its wheel) the rows say so and name the commands that make it.
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const root = path.join(__dirname, "..", "..");
const venv = path.join(
  process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"),
  "cdktf-eks-karpenter",
  "python-venv",
);

/** One cold synth: wall ms of the whole process and the phases the script reports. */
function pythonSynth(python) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "bench-python-"));
  const t0 = process.hrtime.bigint();
  const r = spawnSync(python, [path.join(__dirname, "python_synth.py")], {
    cwd: root,
    env: {
      ...process.env,
      CHECKPOINT_DISABLE: "1",
      CDKTF_OUTDIR: out,
      JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: "20",
    },
    encoding: "utf8",
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  fs.rmSync(out, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`python_synth.py exited ${r.status}:\n${r.stdout}${r.stderr}`);
  return { wall: ms, ...JSON.parse(r.stdout.trim().split("\n").pop()) };
}

/**
 * The Python rows: [name, value, target, ok] like bench.cjs's.
 * @param runs cold synths to take the median of
 * @param tsCompiledMs the median wall ms of the TypeScript example's compiled synth (same app, same resources)
 */
module.exports = function pythonRows(runs, tsCompiledMs) {
  const python = path.join(venv, "bin", "python");
  const installed =
    fs.existsSync(python) && spawnSync(python, ["-c", "import cdktf_eks_karpenter"], { encoding: "utf8" }).status === 0;
  if (!installed)
    return [
      ["python: not measured", "—", "—", undefined],
      [`  (no ${venv} with the wheel: npm run build && npm run package && npm run test:python)`, "", "", undefined],
    ];
  const xs = Array.from({ length: runs }, () => pythonSynth(python));
  const med = (k) => [...xs.map((x) => x[k])].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const own = med("library") + med("constructs");
  return [
    ["python: app synth (median wall)", `${med("wall").toFixed(0)} ms`, "—", undefined],
    ["python: / TypeScript compiled (wall)", `${(med("wall") / tsCompiledMs).toFixed(1)}×`, "—", undefined],
    ["python: jsii runtime + cdktf import", `${med("runtime")} ms`, "—", undefined],
    ["python: provider imports (cdktf's)", `${med("providers")} ms`, "—", undefined],
    ["python: this library: import", `${med("library")} ms`, "—", undefined],
    ["python: this library: its calls", `${med("constructs")} ms`, "—", undefined],
    ["python: this library's share (wall)", `${((100 * own) / med("wall")).toFixed(1)} %`, "—", undefined],
    ["python: app.synth()", `${med("synth")} ms`, "—", undefined],
  ];
};
