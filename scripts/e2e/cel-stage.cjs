// `--stage cel-agreement`: the library's verdict on kubelet CEL expressions (lib/nodes/kubelet-expressions.ts
// kubeletExpressionProblem, from the compiled dist/) against Karpenter's own: scripts/e2e/cel-judge, a Go program built
// by scripts/tools/build.sh against karpenter-provider-aws v1.15.0's pkg/cel (cel-go v0.31.0), which compiles each
// expression with NewEnvironment().ValidateExpression and evaluates it for a handful of real instance types
// (EvaluateExpression, then the callers' range checks: maxPods 0 to 2147483647, a reserved value 0 or more).
//
// A case agrees when the library refuses it ⇔ Karpenter does not compile it, or every evaluation fails (an expression
// that fails on some instance types only is Karpenter's per-instance-type business: the library passes it).
// The expressions: scripts/e2e/cel-corpus.json, and with E2E_NODE_CASES (the agreement stage's recording,
// record-node-cases.cjs) every EC2NodeClass case at 1.15 whose kubelet.maxPods is a string, or whose kubeReserved /
// systemReserved holds a value that is no Kubernetes quantity (the judge says so: resource.ParseQuantity, which
// ResolveResourceMap passes through unevaluated).
"use strict";
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const repo = path.resolve(__dirname, "../..");
const CORPUS = path.join(__dirname, "cel-corpus.json");
/** What the recorder writes for a Terraform token (record-node-cases.cjs untoken): no expression to judge. */
const TOKEN = "e2e-token";

/**
 * The kubelet expressions of recorded node cases: EC2NodeClass at 1.15, maxPods a string, reserved values strings
 * (quantities are dropped after the judge has said which are). Distinct by text and field kind.
 * @param {object[]} records the lines of record-node-cases.cjs
 * @returns {{expression: string, reserved: boolean, from: string}[]}
 */
function recordedExpressions(records) {
  const out = new Map();
  for (const r of records) {
    if (r.kind !== "EC2NodeClass" || !/^1\.15\./.test(String(r.version))) continue;
    const k = ((r.manifest || {}).spec || {}).kubelet || {};
    const add = (expression, reserved) => {
      if (typeof expression !== "string" || expression.includes(TOKEN)) return;
      const key = `${reserved}\u0000${expression}`;
      if (!out.has(key)) out.set(key, { expression, reserved, from: `${r.file} "${r.test}"` });
    };
    add(k.maxPods, false);
    for (const field of ["kubeReserved", "systemReserved"])
      for (const v of Object.values(k[field] && typeof k[field] === "object" ? k[field] : {})) add(v, true);
  }
  return [...out.values()];
}

/**
 * Whether the library and Karpenter agree on one expression: what Karpenter does not compile, the library refuses;
 * what compiles but fails for every sample instance type, the library refuses (a constant) or warns about; what fails
 * for some sample types only, the library warns about (Karpenter 1.15.0 refuses the whole class when any instance type
 * of the region fails, and the region is outside the app); what gives a usable value for every sample, the library
 * takes without a word.
 * @param {string|undefined} problem the library's reason for refusing, or undefined
 * @param {{compiles: boolean, error?: string, results: {instanceType: string, value?: number, error?: string}[]}} judged
 * @param {string|undefined} [warning] the library's warning (kubeletExpressionSampleWarning), or undefined
 * @returns {{agree: boolean, karpenterRefuses: boolean, library: string, karpenter: string}}
 */
function compare(problem, judged, warning) {
  const failing = judged.results.filter((r) => r.error !== undefined);
  const everyFails = judged.compiles && judged.results.length > 0 && failing.length === judged.results.length;
  const someFail = judged.compiles && failing.length > 0;
  const karpenterRefuses = !judged.compiles || someFail;
  const karpenter = !judged.compiles
    ? `does not compile: ${firstLine(judged.error)}`
    : everyFails
      ? `every evaluation fails: ${firstLine(failing[0].error)}`
      : someFail
        ? `fails for ${failing.map((r) => r.instanceType).join(", ")}: ${firstLine(failing[0].error)}`
        : `accepted: ${judged.results.map((r) => `${r.instanceType} ${r.value}`).join(", ")}`;
  const agree = !judged.compiles
    ? problem !== undefined
    : everyFails
      ? problem !== undefined || warning !== undefined
      : someFail
        ? problem === undefined && warning !== undefined
        : problem === undefined && warning === undefined;
  return {
    agree,
    karpenterRefuses,
    library: problem !== undefined ? `refused: ${problem}` : warning !== undefined ? `warned: ${warning}` : "accepted",
    karpenter,
  };
}

function firstLine(s) {
  return String(s || "").split("\n")[0];
}

/** The judge's verdicts, one per case, in order (one run of the program for all of them). */
function judge(bin, cases) {
  const input = cases.map((c) => JSON.stringify({ expression: c.expression, reserved: c.reserved })).join("\n");
  // the instance types the library's synth check samples, from their one home (npm run cel-samples)
  const samples = path.join(__dirname, "..", "..", "lib", "versions", "data", "cel-sample-instance-types.json");
  const r = spawnSync(bin, [samples], { input: `${input}\n`, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${bin} exited ${r.status}: ${(r.stderr || "").trim()}`);
  const lines = r.stdout.trim().split("\n").filter(Boolean);
  if (lines.length !== cases.length) throw new Error(`${bin} answered ${lines.length} of ${cases.length} expressions`);
  return lines.map((l) => JSON.parse(l));
}

/** One group of cases judged both ways: a FAIL line per disagreement, then one check line for the group. */
function judgeGroup(report, group, cases, bin, verdictOf, release) {
  const verdicts = judge(bin, cases);
  const counts = { bothAccept: 0, bothRefuse: 0, notCompiled: 0, everyEvaluationFails: 0, someFail: 0, disagree: 0 };
  cases.forEach((c, i) => {
    const { problem, warning } = verdictOf(c.expression, c.reserved);
    const cmp = compare(problem, verdicts[i], warning);
    if (cmp.agree && cmp.karpenterRefuses) {
      counts.bothRefuse++;
      const failing = verdicts[i].results.filter((r) => r.error !== undefined).length;
      if (!verdicts[i].compiles) counts.notCompiled++;
      else if (failing === verdicts[i].results.length) counts.everyEvaluationFails++;
      else counts.someFail++;
    } else if (cmp.agree) counts.bothAccept++;
    else {
      counts.disagree++;
      report.check(
        `cel-agreement: ${group}: ${JSON.stringify(c.expression)} (${c.reserved ? "reserved value" : "maxPods"})`,
        false,
        `library: ${cmp.library}\nKarpenter ${release} pkg/cel: ${cmp.karpenter}${c.from ? `\nfrom ${c.from}` : ""}`,
      );
    }
  });
  report.check(
    `cel-agreement: ${group}: library and Karpenter ${release} pkg/cel agree on ${cases.length} expressions`,
    counts.disagree === 0,
    `both accept ${counts.bothAccept}, both refuse ${counts.bothRefuse} (not compiled ${counts.notCompiled}, every evaluation fails ${counts.everyEvaluationFails}, some sample types fail ${counts.someFail}), disagree ${counts.disagree}`,
  );
  console.log(
    `       ${group}: both accept ${counts.bothAccept}, both refuse ${counts.bothRefuse} (not compiled ${counts.notCompiled}, every evaluation fails ${counts.everyEvaluationFails}, some sample types fail ${counts.someFail}), disagree ${counts.disagree}`,
  );
  return verdicts;
}

async function celAgreementStage(ctx) {
  const report = ctx.report;
  console.log(`\n== cel-agreement: kubelet CEL expressions judged by the library and by Karpenter's own pkg/cel`);
  const tool = ctx.tools["cel-judge"];
  if (!tool || !fs.existsSync(tool.bin)) {
    report.skip(
      "cel-agreement: library and Karpenter verdicts on kubelet expressions",
      `cel-judge ${tool ? `${tool.version} not built (${tool.bin})` : "has no row in scripts/tools/versions.txt"}: scripts/tools/build.sh cel-judge`,
    );
    return;
  }
  const dist = path.join(repo, "dist", "nodes", "kubelet-expressions.js");
  if (
    !report.check("cel-agreement: the compiled library (dist/) is there", fs.existsSync(dist), `${dist}: npm run build`)
  )
    return;
  const { judgeKubeletExpression } = require(dist);
  // a warning about instance types beyond the samples (a divisor zero for some variable value) says nothing of the
  // samples the judge evaluates: compared as no warning
  const verdictOf = (text, reserved) => {
    const v = judgeKubeletExpression(text, reserved);
    return { problem: v.problem, warning: v.beyondSamples ? undefined : v.warning };
  };
  const release = tool.release;

  const corpus = JSON.parse(fs.readFileSync(CORPUS, "utf8")).map((c) => ({ ...c, reserved: !!c.reserved }));
  judgeGroup(report, "corpus (scripts/e2e/cel-corpus.json)", corpus, tool.bin, verdictOf, release);

  if (!process.env.E2E_NODE_CASES) {
    report.skip("cel-agreement: recorded node cases", "E2E_NODE_CASES is not set (a recording of the agreement stage)");
    return;
  }
  const records = fs
    .readFileSync(process.env.E2E_NODE_CASES, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const found = recordedExpressions(records);
  // reserved values that are Kubernetes quantities are passed through by Karpenter, never evaluated
  const verdicts = found.length ? judge(tool.bin, found) : [];
  const cases = found.filter((c, i) => !(c.reserved && verdicts[i].quantity));
  console.log(
    `       E2E_NODE_CASES=${process.env.E2E_NODE_CASES}: ${records.length} recorded, ${found.length} distinct kubelet strings at 1.15, ${found.length - cases.length} of them quantities`,
  );
  if (!cases.length) {
    report.skip(
      "cel-agreement: recorded node cases",
      "no EC2NodeClass case at 1.15 with a kubelet expression recorded",
    );
    return;
  }
  judgeGroup(report, "recorded node cases", cases, tool.bin, verdictOf, release);
}

module.exports = { celAgreementStage, recordedExpressions, compare };
