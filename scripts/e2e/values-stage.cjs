// `--stage values-agreement`: every Karpenter / KarpenterRelease values case the test suite recorded
// (record-values-cases.cjs, E2E_RECORD_VALUES_CASES) judged by Helm and the API server too. For each distinct case, the
// reference chart of its version (../shared/reference/karpenter/v<version>/charts/karpenter, the way every stage finds
// shared/) is rendered with the real `helm template` (the built helm; --namespace and --kube-version of the local
// server), and every rendered object is submitted with a server-side dry run and fieldValidation=Strict
// (server-validate.cjs). Library accepted ⇔ Helm and server accepted, except refusals every problem of which is a
// listed semantic rule (values-agreement.cjs SEMANTIC_RULES).
//
// E2E_VALUES_CASES=<file.jsonl> reads a recording already made; without it, the helm and install test files are run
// with the recorder on (not the whole suite: they build every Karpenter the values rules are tested with).
"use strict";
const fs = require("fs");
const path = require("path");
const { spawn, spawnSync } = require("child_process");
const { startLocalCluster, toolBinaries, readTools } = require("./local-cluster.cjs");
const sv = require("./server-validate.cjs");
const va = require("./values-agreement.cjs");
const ag = require("./agreement.cjs");
const { referenceRelease } = require("./reference-release.cjs");

const repo = path.resolve(__dirname, "../..");
const reference = path.resolve(repo, "..", "shared", "reference", "karpenter");
/** The test files run with the recorder when no recording is given. */
const RECORD_FILES = ["test/helm", "test/install"];

/** `helm template` of one case; resolves {ok, text} or {ok: false, error}. */
function helmTemplate(helm, chart, rec, kubeVersion, dir, i) {
  const file = path.join(dir, `values-${i}.json`);
  fs.writeFileSync(file, JSON.stringify(rec.values));
  const args = [
    "template",
    rec.releaseName,
    chart,
    "--namespace",
    rec.namespace,
    "--kube-version",
    kubeVersion,
    "--skip-crds",
    "-f",
    file,
  ];
  return new Promise((resolve) => {
    const p = spawn(helm, args, { env: { ...process.env, HELM_CACHE_HOME: dir, HELM_CONFIG_HOME: dir } });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (c) => (stdout += c));
    p.stderr.on("data", (c) => (stderr += c));
    p.on("close", (code) =>
      resolve(code === 0 ? { ok: true, text: stdout } : { ok: false, error: stderr || `exit ${code}` }),
    );
    p.on("error", (e) => resolve({ ok: false, error: e.message }));
  });
}

/** Runs `fn` over `items` with at most `n` at once, keeping order. */
async function pool(items, n, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

function readRecords(file) {
  return fs.existsSync(file)
    ? fs
        .readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
}

async function valuesAgreementStage(ctx) {
  console.log(
    `\n== values-agreement: every Karpenter / KarpenterRelease values case of the tests, rendered by helm and judged by the server`,
  );
  const tools = readTools();
  try {
    toolBinaries();
    if (!tools.helm || !fs.existsSync(tools.helm.bin))
      throw new Error(`helm ${tools.helm && tools.helm.version} not built (bash scripts/tools/build.sh helm)`);
  } catch (e) {
    if (process.env.E2E_NOT_BUILT === "skip") ctx.report.skip("values-agreement", e.message);
    else ctx.report.check("values-agreement: tools", false, e.message);
    return;
  }
  const t0 = Date.now();
  const cases = path.join(ctx.work, "values-cases.jsonl");
  if (process.env.E2E_VALUES_CASES) {
    fs.copyFileSync(process.env.E2E_VALUES_CASES, cases);
    console.log(`       cases from E2E_VALUES_CASES=${process.env.E2E_VALUES_CASES} (the tests are not run)`);
  } else {
    fs.rmSync(cases, { force: true });
    const jest = spawnSync("npx", ["jest", "--silent", "--ci", ...RECORD_FILES], {
      cwd: repo,
      encoding: "utf8",
      maxBuffer: 1 << 28,
      env: { ...process.env, E2E_RECORD_VALUES_CASES: cases, FORCE_COLOR: "0" },
    });
    const tail = `${jest.stderr || ""}`
      .split("\n")
      .filter((l) => /^Tests:/.test(l))
      .join(" ");
    console.log(
      `       ${RECORD_FILES.join(" ")} run with the recorder in ${((Date.now() - t0) / 1000).toFixed(0)} s (${tail || `exit ${jest.status}`})`,
    );
  }
  const records = readRecords(cases);
  if (
    !ctx.report.check(
      `values-agreement: the tests recorded values cases (${records.length})`,
      records.length > 0,
      "no case recorded: is scripts/e2e/record-values-cases.cjs in jest.config.js setupFilesAfterEnv?",
    )
  )
    return;
  // the evidence the rebuild is right, on the cases it is used for (not tokens in values, which are not compared)
  const rebuildBad = records.filter((r) => r.rebuildMatches === false && !r.rebuildApprox && !r.valuesTokens);
  const unique = va.uniqueCases(records);
  const results = [];
  const todo = [];
  for (const rec of unique) {
    const why = va.exclusion(rec);
    if (why) {
      results.push({ ...rec, excluded: why });
      continue;
    }
    // the reference release standing for the version, else the one of its minor (the library's facts are per minor)
    const ref = referenceRelease(reference, rec.version);
    const release = ref ? ref.version : ag.releaseFor(rec.version, sv.knownReferenceVersions());
    const chart = release && path.join(reference, `v${release}`, "charts", "karpenter");
    if (!chart || !fs.existsSync(chart)) {
      results.push({ ...rec, excluded: `no reference chart for Karpenter ${rec.version}` });
      continue;
    }
    todo.push({ rec, chart, release });
  }
  const cluster = await startLocalCluster({
    workDir: path.join(ctx.work, "values-cluster"),
    log: (l) => console.log(`       ${l}`),
  });
  try {
    const kubeVersion = `v${cluster.kubernetesVersion}`;
    const dir = path.join(ctx.work, "values-render");
    fs.mkdirSync(dir, { recursive: true });
    const t1 = Date.now();
    const renders = await pool(todo, 4, (t, i) => helmTemplate(tools.helm.bin, t.chart, t.rec, kubeVersion, dir, i));
    console.log(`       ${todo.length} helm template runs in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    const resources = new sv.Resources(cluster);
    const seen = new Map(); // the verdict per object (many cases render the same ClusterRole)
    const t2 = Date.now();
    for (let i = 0; i < todo.length; i++) {
      const { rec, release } = todo[i];
      const render = renders[i];
      const objects = [];
      if (render.ok) {
        let parsed;
        try {
          parsed = sv.objectsOfYaml(render.text);
        } catch (e) {
          render.ok = false;
          render.error = `the rendered YAML does not parse: ${e.message}`;
        }
        for (const obj of parsed || []) {
          // Helm puts a namespaced object without a namespace into the release's
          if (obj && obj.metadata && obj.metadata.namespace === undefined) obj.metadata.namespace = rec.namespace;
          const key = JSON.stringify(obj);
          if (!seen.has(key)) seen.set(key, await sv.dryRun(cluster, resources, obj));
          objects.push({
            kind: obj && obj.kind,
            name: obj && obj.metadata && obj.metadata.name,
            result: seen.get(key),
          });
        }
      }
      const server = va.serverVerdict(render, objects);
      results.push({ ...rec, release, server, ...va.compareCase(rec, server) });
    }
    console.log(`       ${seen.size} distinct objects judged in ${((Date.now() - t2) / 1000).toFixed(1)} s`);
  } finally {
    await cluster.stop();
  }
  const summary = va.summarize(results);
  const excludedWhy = {};
  for (const r of results.filter((x) => x.excluded)) {
    const k = r.excluded.replace(/: .*/, "");
    excludedWhy[k] = (excludedWhy[k] || 0) + 1;
  }
  const disagreements = results.filter((r) => r.outcome === "disagree");
  ctx.report.valuesAgreement = {
    ...summary,
    recorded: records.length,
    unique: unique.length,
    excludedWhy,
    disagreements: disagreements.map((r) => ({
      kind: r.kind,
      version: r.version,
      test: r.test,
      file: r.file,
      library: r.verdict === "accepted" ? "accepted" : (r.problems || []).map((p) => `${p.code} ${p.field}`),
      server: r.server.accepted ? "accepted" : r.server.message,
      detail: r.detail,
      values: r.values,
    })),
  };
  fs.writeFileSync(path.join(ctx.work, "values-agreement.json"), JSON.stringify(ctx.report.valuesAgreement, null, 2));
  ctx.report.check(
    `values-agreement: a Karpenter's rebuilt document equals the real one for every accepted Karpenter (${records.filter((r) => r.rebuildMatches !== undefined).length})`,
    rebuildBad.length === 0,
    rebuildBad
      .slice(0, 3)
      .map((r) => `${r.file} "${r.test}"`)
      .join("\n"),
  );
  console.log(
    `       ${records.length} recorded, ${unique.length} distinct; compared ${summary.cases} (both accept ${summary.bothAccept}, both reject ${summary.bothReject}, refused by a rule beyond the server ${summary.semanticByDesign}); not compared ${summary.excluded}: ${Object.entries(
      excludedWhy,
    )
      .map(([k, n]) => `${k} ${n}`)
      .join("; ")}`,
  );
  for (const r of disagreements)
    console.log(`       DISAGREE ${r.kind} ${r.version} [${r.file}: ${r.test}]: ${r.detail}`);
  console.log(
    `       values-agreement: ${summary.line} (${((Date.now() - t0) / 1000).toFixed(0)} s; details in ${path.join(ctx.work, "values-agreement.json")})`,
  );
  ctx.report.check(
    `values-agreement: ${summary.line}`,
    summary.failed === 0 && summary.cases > 0,
    disagreements
      .slice(0, 12)
      .map((r) => `${r.kind} ${r.version} [${r.file}: ${r.test}]: ${r.detail}`)
      .join("\n"),
  );
}

module.exports = { valuesAgreementStage, helmTemplate, RECORD_FILES };
