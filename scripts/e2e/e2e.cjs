#!/usr/bin/env node
// `npm run e2e`: the synthesized stacks against the real tools (built by scripts/tools/build.sh into
// ~/.cache/cdktf-eks-karpenter/tools, see versions.txt there):
//   1. every stack of every example (and of scripts/e2e/irsa-app.ts): `tofu init` offline from a
//      filesystem mirror of the locally built providers, then `tofu validate`;
//   2. the AWS stack of the main example: `tofu plan` against moto (an AWS API emulator) on 127.0.0.1,
//      resource counts asserted; then `tofu apply` + `tofu destroy` of the IAM, SQS and EventBridge
//      resources and an emulator-side check that nothing is left;
//   3. `helm template` of the reference chart of the installed Karpenter version with the synthesized
//      values: the Deployment (and, with IRSA, the ServiceAccount) carries what the construct wired;
//   4. a version change from 1.3.8 to 1.4.4 of scripts/e2e/upgrade-app.ts applied in moto: the node
//      role's ECR attachment is replaced attach-before-detach.
// `npm run e2e -- --validate <cdktf.out>` runs only step 1 on any synthesized output; `--validate` alone
// (or `--stage validate`) runs step 1 for every example, and for the main example on CDK Terrain too
// (issue 32: synthesized with scripts/cdktn/register.cjs, the cdktn flavour's Terraform validated alike).
//
// Each stack is copied into a scratch directory first: `.terraform`, lock files, plans and state never
// land in the synthesized output, and the synthesized JSON itself is never edited. What the run adds
// beside the copy is one `e2e_override.tf.json` (OpenTofu merges `*_override.tf.json` over the stack):
// the provider versions actually built (the proxy serves no provider release tag, see versions.txt),
// and for the plan the emulator endpoints, fake credentials and a scratch state path.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const net = require("net");
const http = require("http");
const { spawnSync, spawn } = require("child_process");
const YAML = require("yaml");

const repo = path.resolve(__dirname, "../..");
const toolsDir =
  process.env.CDKTF_EKS_KARPENTER_TOOLS ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "cdktf-eks-karpenter", "tools");
const reference = path.resolve(repo, "..", "shared", "reference", "karpenter");
const { referenceRelease } = require("./reference-release.cjs");
const ACCOUNT = "123456789012"; // moto's default account

// ---------------------------------------------------------------------------------------------- tools

/** The tools of versions.txt: name -> { binary path, version, release (the label OpenTofu sees) }. */
function readTools() {
  const tools = {};
  for (const line of fs.readFileSync(path.join(repo, "scripts/tools/versions.txt"), "utf8").split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const [name, module, version, , binary, release] = line.trim().split(/\s+/);
    tools[name] = { module, version, release, bin: path.join(toolsDir, `${name}-${version}`, binary) };
  }
  return tools;
}

const PROVIDERS = { aws: "aws-provider", helm: "helm-provider", kubernetes: "kubernetes-provider" };

// -------------------------------------------------------------------------------------------- checks

const { Report, parseArgs } = require("./report.cjs");
/** The checks of this run (printed as they happen; --report writes them as JSON). */
let report = new Report();
/**
 * With E2E_NOT_BUILT=skip (what .ci/run sets when a cold tool build ran past CI's time budget), a step
 * whose tools are not built is reported as skipped, naming them, instead of failing; the build resumes
 * from Go's cache on the next run. Without it a missing tool fails its steps.
 */
function skippedForTools(what, tools, names) {
  if (process.env.E2E_NOT_BUILT !== "skip") return false;
  const missing = names.filter((n) => !fs.existsSync(tools[n].bin));
  if (!missing.length) return false;
  report.skip(what, `not built yet: ${missing.map((n) => `${n} ${tools[n].version}`).join(", ")}`);
  return true;
}
function check(what, ok, detail) {
  return report.check(what, ok, detail);
}
function equal(what, actual, expected) {
  const a = JSON.stringify(actual),
    e = JSON.stringify(expected);
  return check(what, a === e, `expected ${e}, got ${a}`);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 28, ...opts });
  if (r.error) throw r.error;
  return r;
}
function must(what, r) {
  if (r.status !== 0) {
    const text = require("util")
      .stripVTControlCharacters(`${(r.stderr || "") + (r.stdout || "")}`)
      .trim()
      .split("\n");
    // OpenTofu's errors first (its output ends in warnings), else the tail
    const errorAt = text.findIndex((l) => /^(│ )?Error: /.test(l));
    const shown = errorAt >= 0 ? text.slice(errorAt, errorAt + 40) : text.slice(-40);
    check(what, false, `exit ${r.status}\n${shown.join("\n       ")}`);
    return false;
  }
  return true;
}

// ------------------------------------------------------------------------------------------- opentofu

/** CLI configuration: providers only from the mirror, never from a registry (this machine has none). */
function writeCliConfig(work, tools) {
  const mirror = path.join(work, "mirror");
  for (const [type, name] of Object.entries(PROVIDERS)) {
    const t = tools[name];
    if (!fs.existsSync(t.bin)) continue; // the stacks needing it fail with the build's name below
    // unpacked layout: <host>/<namespace>/<type>/<version>/<os>_<arch>/terraform-provider-<type>_v<version>
    const dir = path.join(mirror, "registry.opentofu.org", "hashicorp", type, t.release, `linux_${goArch()}`);
    fs.mkdirSync(dir, { recursive: true });
    const target = path.join(dir, `terraform-provider-${type}_v${t.release}`);
    if (!fs.existsSync(target)) fs.symlinkSync(t.bin, target);
  }
  const file = path.join(work, "tofurc");
  fs.writeFileSync(
    file,
    `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.opentofu.org/hashicorp/*"]\n  }\n}\n`,
  );
  return file;
}
/** Throws (failing the step that called it) when the tool `name` of versions.txt was not built. */
function needTool(tools, name) {
  const t = tools[name];
  if (!fs.existsSync(t.bin))
    throw new Error(
      `needs ${name} ${t.module}@${t.version}, not built (scripts/tools/build.sh ${name}; log: ${path.join(toolsDir, "logs", `${name}-${t.version}.log`)})`,
    );
  return t.bin;
}
function goArch() {
  return { x64: "amd64", arm64: "arm64" }[process.arch] || process.arch;
}

function tofuEnv(cliConfig, extra = {}) {
  const env = {
    ...process.env,
    TF_CLI_CONFIG_FILE: cliConfig,
    TF_IN_AUTOMATION: "1",
    CHECKPOINT_DISABLE: "1",
    TF_INPUT: "0",
    ...extra,
  };
  for (const k of [
    "TF_PLUGIN_CACHE_DIR",
    "TF_DATA_DIR",
    "AWS_PROFILE",
    "AWS_CONFIG_FILE",
    "AWS_SHARED_CREDENTIALS_FILE",
    "KUBECONFIG",
  ])
    delete env[k];
  return env;
}

/** The stack copied into `dest` with the override naming the built provider versions. */
function prepareStack(stackDir, dest, tools, extraOverride = {}) {
  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(dest, { recursive: true });
  for (const f of fs.readdirSync(stackDir)) {
    if (f === ".terraform" || f.endsWith(".lock.hcl")) continue;
    fs.cpSync(path.join(stackDir, f), path.join(dest, f), { recursive: true });
  }
  const config = JSON.parse(fs.readFileSync(path.join(dest, "cdk.tf.json"), "utf8"));
  const required = (config.terraform && config.terraform.required_providers) || {};
  const pins = {};
  const override = { ...extraOverride, terraform: { ...(extraOverride.terraform || {}), required_providers: {} } };
  for (const [local, req] of Object.entries(required)) {
    const type = String(req.source || local)
      .split("/")
      .pop();
    const t = tools[PROVIDERS[type]];
    if (!t)
      throw new Error(
        `provider ${req.source} has no local build (versions.txt builds ${Object.keys(PROVIDERS).join(", ")})`,
      );
    needTool(tools, PROVIDERS[type]);
    pins[type] = { pinned: req.version, built: t.release };
    override.terraform.required_providers[local] = { source: req.source || local, version: t.release };
  }
  fs.writeFileSync(path.join(dest, "e2e_override.tf.json"), JSON.stringify(override, null, 2));
  return { config, pins };
}

/** `tofu init` offline + `tofu validate` of one copied stack, with the checks on their results. */
function initAndValidate(label, dir, config, pins, cliConfig, tofu, backend = false) {
  const env = tofuEnv(cliConfig);
  const init = run(tofu, ["init", "-input=false", "-no-color", `-backend=${backend}`], { cwd: dir, env });
  if (!must(`${label}: tofu init`, init)) return false;
  const lock = fs.readFileSync(path.join(dir, ".terraform.lock.hcl"), "utf8");
  for (const [type, v] of Object.entries(pins)) {
    const m = lock.match(
      new RegExp(`provider "registry\\.opentofu\\.org/hashicorp/${type}" \\{\\s*version\\s*=\\s*"([^"]+)"`),
    );
    equal(
      `${label}: init installed hashicorp/${type} from the local mirror (the stack pins ${v.pinned})`,
      m && m[1],
      v.built,
    );
  }
  const val = run(tofu, ["validate", "-json", "-no-color"], { cwd: dir, env });
  let out;
  try {
    out = JSON.parse(val.stdout);
  } catch {
    return must(`${label}: tofu validate`, { ...val, status: val.status || 1 });
  }
  const errors = out.diagnostics.filter((d) => d.severity === "error");
  const warnings = out.diagnostics.filter((d) => d.severity === "warning");
  check(
    `${label}: tofu validate reports the configuration valid (${countResources(config)} resources, ${warnings.length} warning(s))`,
    out.valid === true && errors.length === 0,
    errors
      .map((d) => `${d.summary}: ${d.detail || ""} ${d.range ? d.range.filename + ":" + d.range.start.line : ""}`)
      .join("\n       "),
  );
  for (const w of warnings)
    console.log(`       warning: ${w.summary}${w.detail ? ": " + w.detail.split("\n")[0] : ""}`);
  return out.valid === true;
}

function countResources(config) {
  return Object.values(config.resource || {}).reduce((n, byName) => n + Object.keys(byName).length, 0);
}
function resourceCounts(config) {
  const c = {};
  for (const [type, byName] of Object.entries(config.resource || {})) c[type] = Object.keys(byName).length;
  return c;
}

// ----------------------------------------------------------------------------------------- synthesis

function synth(app, out, env = {}) {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const r = run("npx", ["cdktf", "synth", "--app", `npx tsx ${app}`, "--output", out], {
    cwd: repo,
    env: { ...process.env, CHECKPOINT_DISABLE: "1", CI: "true", FORCE_COLOR: "0", ...env },
  });
  if (!must(`synth ${app}`, r)) throw new Error(`synth of ${app} failed`);
  return out;
}
function stacksOf(out) {
  const root = path.join(out, "stacks");
  if (!fs.existsSync(root)) throw new Error(`${out}: no stacks/ directory (is it a cdktf synth output?)`);
  return fs
    .readdirSync(root)
    .filter((s) => fs.existsSync(path.join(root, s, "cdk.tf.json")))
    .map((s) => ({ name: s, dir: path.join(root, s) }));
}

// ------------------------------------------------------------------------------------- CDK Terrain

/**
 * `app` synthesized on CDK Terrain (issue 32) into `out`: run with tsx under scripts/cdktn/register.cjs,
 * which maps cdktf and the @cdktf providers to cdktn and the @cdktn providers of the cache that
 * scripts/cdktn/install.cjs fills (installed here when missing), as `npm run test:cdktn` maps them in Jest.
 * The app runs directly, not through `cdktn synth`: cdktn-cli needs Node >= 22.19, and what it adds
 * (running the app with CDKTF_OUTDIR) is what this does. Returns the output folder, or undefined (reported
 * as SKIP, naming what is missing) when the cdktn packages cannot be installed here.
 */
function synthCdktn(app, out, env = {}) {
  const install = run(process.execPath, [path.join(repo, "scripts", "cdktn", "install.cjs")], { cwd: repo });
  if (install.status !== 0) {
    const why = `${install.stderr || ""}${install.stdout || ""}`.trim().split("\n").slice(-3).join(" / ");
    report.skip(`synth ${app} on cdktn`, `the cdktn packages of scripts/cdktn/flavour.json are not installed: ${why}`);
    return undefined;
  }
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const register = path.join(repo, "scripts", "cdktn", "register.cjs");
  const r = run(path.join(repo, "node_modules", ".bin", "tsx"), [app], {
    cwd: repo,
    env: {
      ...process.env,
      CHECKPOINT_DISABLE: "1",
      FORCE_COLOR: "0",
      ...env,
      CDKTF_OUTDIR: out,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS || ""} --require ${register}`.trim(),
    },
  });
  if (!must(`synth ${app} on cdktn`, r)) throw new Error(`synth of ${app} on cdktn failed`);
  return out;
}

/**
 * The validate of a cdktn output runs on the providers built here (versions.txt), as cdktf's does; the
 * @cdktn provider packages were generated from newer releases (hashicorp/aws 6.66.0 against the 6.48.0-dev
 * built, helm 3.3.0 against 3.2.0, kubernetes 3.4.0 against 3.2.1). A validate against the release a stack
 * pins is reported as SKIP, naming that provider and version, whenever no build of it exists here.
 */
function cdktnPinnedProviders(label, out, tools) {
  const { nodeModules } = require("../cdktn/install.cjs");
  const seen = new Set();
  for (const stack of stacksOf(out)) {
    const config = JSON.parse(fs.readFileSync(path.join(stack.dir, "cdk.tf.json"), "utf8"));
    for (const [local, req] of Object.entries((config.terraform && config.terraform.required_providers) || {})) {
      const type = String(req.source || local)
        .split("/")
        .pop();
      if (seen.has(type) || !PROVIDERS[type]) continue;
      seen.add(type);
      const t = tools[PROVIDERS[type]];
      let from = `@cdktn/provider-${type}`;
      try {
        const p = JSON.parse(fs.readFileSync(path.join(nodeModules, from, "package.json"), "utf8"));
        from = `${p.name} ${p.version} was generated from hashicorp/${type} ${p.cdktf.provider.version}`;
      } catch {
        // the name alone
      }
      const what = `${label}: tofu validate against hashicorp/${type} ${req.version}, the release the stacks pin (${from})`;
      if (t.release === req.version && fs.existsSync(t.bin))
        check(`${what}: built here, the validate above ran on it`, true);
      else
        report.skip(
          what,
          `hashicorp/${type} ${req.version} is not built here: scripts/tools/versions.txt builds ${t.release} (${PROVIDERS[type]} ${t.version}), which the validate above ran on`,
        );
    }
  }
}

// ------------------------------------------------------------------------------------------- emulator

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}
function get(url) {
  return new Promise((resolve) => {
    http
      .get(url, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
      .on("error", () => resolve(0));
  });
}
async function startMoto(tools, work) {
  const port = await freePort();
  const log = fs.openSync(path.join(work, "moto.log"), "w");
  // AWS managed policies (AmazonEKSClusterPolicy, ...) exist in moto only when it is asked to load them
  const proc = spawn(tools.moto.bin, ["-H", "127.0.0.1", "-p", String(port)], {
    stdio: ["ignore", log, log],
    env: { ...process.env, MOTO_IAM_LOAD_MANAGED_POLICIES: "true" },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    if ((await get(`${url}/moto-api/`)) === 200) return { proc, url };
    if (proc.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  proc.kill();
  throw new Error(`moto did not start on ${url}; see ${path.join(work, "moto.log")}`);
}

/** What the emulator holds, read with boto3 (moto's own dependency) from moto's virtualenv. */
function emulatorInventory(tools, url) {
  const py = path.join(path.dirname(tools.moto.bin), "python");
  const script = `
import boto3, json, sys
kw = dict(endpoint_url=sys.argv[1], region_name="us-east-1", aws_access_key_id="e2e", aws_secret_access_key="e2e")
iam = boto3.client("iam", **kw); sqs = boto3.client("sqs", **kw); ev = boto3.client("events", **kw)
roles = [r["RoleName"] for r in iam.list_roles()["Roles"]]
policies = [p["PolicyName"] for p in iam.list_policies(Scope="Local")["Policies"]]
attached = {r: [p["PolicyName"] for p in iam.list_attached_role_policies(RoleName=r)["AttachedPolicies"]] for r in roles}
queues = sqs.list_queues().get("QueueUrls", [])
rules = [r["Name"] for r in ev.list_rules()["Rules"]]
targets = {r: [t["Arn"] for t in ev.list_targets_by_rule(Rule=r)["Targets"]] for r in rules}
print(json.dumps(dict(roles=roles, policies=policies, attached=attached, queues=queues, rules=rules, targets=targets)))
`;
  const r = run(py, ["-c", script, url]);
  if (r.status !== 0) throw new Error(`emulator inventory failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// ------------------------------------------------------------------------------------------ plan/apply

/** References (`type.name` / `data.type.name`) one resource's configuration makes, including depends_on. */
function referencesOf(body) {
  const refs = new Set();
  const walk = (v) => {
    if (typeof v === "string") {
      for (const expr of v.match(/\$\{[^}]*\}/g) || []) {
        for (const m of expr.matchAll(/\b(data\.[a-z0-9_]+\.[A-Za-z0-9_-]+|[a-z][a-z0-9_]*\.[A-Za-z0-9_-]+)/g))
          refs.add(m[1]);
      }
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        if (k === "depends_on") (x || []).forEach((d) => refs.add(d));
        else if (k !== "//") walk(x);
      }
  };
  walk(body);
  return refs;
}

/**
 * The resources the emulator can hold whole: of an emulated type, and everything they depend on (which
 * `-target` would pull in) too. Returns the addresses and, for the report, what was left out and why.
 */
function emulatedClosure(config, emulated) {
  const all = new Map();
  for (const [type, byName] of Object.entries(config.resource || {}))
    for (const [name, body] of Object.entries(byName)) all.set(`${type}.${name}`, body);
  const ok = new Map();
  const visit = (addr, seen = new Set()) => {
    if (ok.has(addr)) return ok.get(addr);
    if (seen.has(addr)) return true;
    seen.add(addr);
    const type = addr.split(".")[0];
    let good = emulated.includes(type);
    if (good)
      for (const ref of referencesOf(all.get(addr))) {
        if (ref.startsWith("data.") || !all.has(ref)) continue; // data sources are read at plan; moto answers those the stack uses
        if (!visit(ref, seen)) {
          good = false;
          break;
        }
      }
    ok.set(addr, good);
    return good;
  };
  for (const addr of all.keys()) visit(addr);
  return {
    targets: [...all.keys()].filter((a) => ok.get(a)),
    left: [...all.keys()].filter((a) => !ok.get(a) && emulated.includes(a.split(".")[0])),
  };
}

/** Resource types applied in the emulator (and destroyed again). */
const EMULATED = [
  "aws_iam_role",
  "aws_iam_policy",
  "aws_iam_role_policy_attachment",
  "aws_sqs_queue",
  "aws_sqs_queue_policy",
  "aws_cloudwatch_event_rule",
  "aws_cloudwatch_event_target",
  "aws_kms_key",
  "aws_kms_alias",
  "aws_eks_cluster",
  "aws_vpc",
  "aws_subnet",
  "aws_internet_gateway",
  "aws_eip",
  "aws_nat_gateway",
  "aws_route_table",
  "aws_route",
  "aws_route_table_association",
];

function awsOverride(url, statePath) {
  const services = ["ec2", "eks", "iam", "sqs", "sts", "events", "kms", "ssm", "pricing", "autoscaling", "cloudwatch"];
  return {
    terraform: { backend: { local: { path: statePath } } },
    provider: {
      aws: [
        {
          region: "us-east-1",
          access_key: "e2e-fake-access-key",
          secret_key: "e2e-fake-secret-key",
          skip_credentials_validation: true,
          skip_metadata_api_check: "true",
          skip_region_validation: true,
          endpoints: [Object.fromEntries(services.map((s) => [s, url]))],
        },
      ],
    },
  };
}

async function planAndApply(example, stack, tools, work, cliConfig) {
  console.log(`\n== tofu plan of ${example}/${stack.name} against the AWS emulator (moto ${tools.moto.version})`);
  const moto = await startMoto(tools, work);
  try {
    const dir = path.join(work, "plan", example, stack.name);
    const statePath = path.join(work, "plan", `${example}-${stack.name}.tfstate`);
    const { config, pins } = prepareStack(stack.dir, dir, tools, awsOverride(moto.url, statePath));
    const env = tofuEnv(cliConfig, { AWS_EC2_METADATA_DISABLED: "true" });
    if (!initAndValidate(`${example}/${stack.name} (emulator)`, dir, config, pins, cliConfig, tools.tofu.bin, true))
      return;

    // helm_release plans need the chart from the OCI registry (public.ecr.aws), which is out of reach here:
    // the plan covers every other resource, and the chart is rendered by `helm template` below instead
    const counts = resourceCounts(config);
    const helmReleases = Object.keys((config.resource || {}).helm_release || {}).map((n) => `helm_release.${n}`);
    const planned = Object.entries(config.resource || {}).flatMap(([t, byName]) =>
      t === "helm_release" ? [] : Object.keys(byName).map((n) => `${t}.${n}`),
    );
    const plan = run(
      tools.tofu.bin,
      ["plan", "-input=false", "-no-color", "-out=e2e.tfplan", ...planned.map((a) => `-target=${a}`)],
      { cwd: dir, env },
    );
    if (!must(`${example}/${stack.name}: tofu plan against the emulator`, plan)) return;
    const show = JSON.parse(run(tools.tofu.bin, ["show", "-json", "e2e.tfplan"], { cwd: dir, env }).stdout);
    const creates = {};
    for (const rc of show.resource_changes || [])
      if (rc.mode === "managed" && rc.change.actions.join() === "create")
        creates[rc.type] = (creates[rc.type] || 0) + 1;
    const expected = { ...counts };
    delete expected.helm_release;
    equal(
      `${example}/${stack.name}: plan creates every non-Helm resource of the stack, by type (${planned.length}; ${helmReleases.length} helm_release left to helm template)`,
      sortKeys(creates),
      sortKeys(expected),
    );
    checkPlannedValues(example, stack.name, show, config);

    // apply + destroy of the IAM, SQS, EventBridge (and KMS) resources; the main example names them after
    // its cluster, so the cluster and the network under it (which moto also emulates: EKS clusters are ACTIVE
    // at once) come along. Node groups, add-ons, access entries and Pod Identity associations stay out.
    const { targets, left } = emulatedClosure(config, EMULATED);
    console.log(
      `\n== tofu apply + destroy of ${targets.length} resources (IAM, SQS, EventBridge and what they depend on) in the emulator`,
    );
    for (const a of left) console.log(`       not applied (depends on a resource the emulator does not hold): ${a}`);
    const tflags = targets.map((a) => `-target=${a}`);
    const apply = run(tools.tofu.bin, ["apply", "-input=false", "-no-color", "-auto-approve", ...tflags], {
      cwd: dir,
      env,
    });
    if (!must(`${example}/${stack.name}: tofu apply of the emulated resources`, apply)) return;
    const state = run(tools.tofu.bin, ["state", "list"], { cwd: dir, env })
      .stdout.split("\n")
      .filter((l) => l && !l.startsWith("data."));
    equal(`${example}/${stack.name}: state holds exactly the applied resources`, state.sort(), [...targets].sort());
    const inv = emulatorInventory(tools, moto.url);
    checkApplied(example, stack.name, config, targets, inv);
    const destroy = run(tools.tofu.bin, ["destroy", "-input=false", "-no-color", "-auto-approve", ...tflags], {
      cwd: dir,
      env,
    });
    if (!must(`${example}/${stack.name}: tofu destroy`, destroy)) return;
    const after = run(tools.tofu.bin, ["state", "list"], { cwd: dir, env })
      .stdout.split("\n")
      .filter((l) => l && !l.startsWith("data."));
    equal(`${example}/${stack.name}: state empty after destroy`, after, []);
    const left2 = emulatorInventory(tools, moto.url);
    equal(
      `${example}/${stack.name}: emulator holds no role, policy, queue or rule after destroy`,
      { roles: left2.roles, policies: left2.policies, queues: left2.queues, rules: left2.rules },
      { roles: [], policies: [], queues: [], rules: [] },
    );
  } finally {
    moto.proc.kill();
  }
}

/**
 * A version change across the node role's ECR policy swap, applied: scripts/e2e/upgrade-app.ts at 1.3.8
 * (ECR ReadOnly), then at 1.4.4 (PullOnly) against the same state. The plan must move the old
 * attachment's state to the new address and replace it create-before-destroy, and the apply must
 * attach PullOnly before it detaches ReadOnly: nodes launching meanwhile still pull images.
 */
async function ecrPolicySwap(tools, work, cliConfig) {
  const [from, to] = ["1.3.8", "1.4.4"];
  console.log(
    `\n== version change ${from} → ${to} in the AWS emulator: the node role's ECR policy is swapped attach-before-detach`,
  );
  const moto = await startMoto(tools, work);
  try {
    const dir = path.join(work, "upgrade", "stack");
    const statePath = path.join(work, "upgrade", "upgrade.tfstate");
    const env = tofuEnv(cliConfig, { AWS_EC2_METADATA_DISABLED: "true" });
    const ecr = (name) => `AmazonEC2ContainerRegistry${name}`;
    const roleName = "KarpenterNodeRole-e2e-upgrade";
    for (const version of [from, to]) {
      const out = synth("scripts/e2e/upgrade-app.ts", path.join(work, "out", `upgrade-${version}`), {
        KARPENTER_VERSION: version,
      });
      const { config, pins } = prepareStack(
        path.join(out, "stacks", "upgrade"),
        dir,
        tools,
        awsOverride(moto.url, statePath),
      );
      if (!initAndValidate(`upgrade at ${version}`, dir, config, pins, cliConfig, tools.tofu.bin, true)) return;
      // the node role and its attachments: the rest of the install needs a cluster and Helm
      const nodeRole = Object.entries(config.resource).flatMap(([t, byName]) =>
        Object.entries(byName)
          .filter(
            ([, b]) =>
              ["aws_iam_role", "aws_iam_role_policy_attachment"].includes(t) &&
              /\/node-role\//.test(b["//"].metadata.path),
          )
          .map(([n]) => `${t}.${n}`),
      );
      const attachment = (policy) => nodeRole.find((a) => a.includes(`attachment-${policy}_`));
      const tflags = nodeRole.map((a) => `-target=${a}`);
      const plan = run(tools.tofu.bin, ["plan", "-input=false", "-no-color", "-out=upgrade.tfplan", ...tflags], {
        cwd: dir,
        env,
      });
      if (!must(`upgrade at ${version}: tofu plan`, plan)) return;
      const show = JSON.parse(run(tools.tofu.bin, ["show", "-json", "upgrade.tfplan"], { cwd: dir, env }).stdout);
      const apply = run(tools.tofu.bin, ["apply", "-input=false", "-no-color", "-auto-approve", "upgrade.tfplan"], {
        cwd: dir,
        env,
      });
      if (!must(`upgrade at ${version}: tofu apply`, apply)) return;
      const attached = (emulatorInventory(tools, moto.url).attached[roleName] || [])
        .filter((p) => p.startsWith(ecr("")))
        .sort();
      if (version === from) {
        equal(`upgrade at ${from}: the node role has ECR ReadOnly`, attached, [ecr("ReadOnly")]);
        continue;
      }
      const pullOnly = attachment("ecr-pull");
      const changes = (show.resource_changes || []).filter(
        (rc) => rc.mode === "managed" && rc.change.actions.join() !== "no-op",
      );
      equal(
        `upgrade to ${to}: the plan changes only the ECR attachment: replaced at its address (ReadOnly → PullOnly), create before destroy`,
        changes.map((rc) => ({
          address: rc.address,
          actions: rc.change.actions,
          policy: String(rc.change.after && rc.change.after.policy_arn)
            .split("/")
            .pop(),
        })),
        [{ address: pullOnly, actions: ["create", "delete"], policy: ecr("PullOnly") }],
      );
      const lines = apply.stdout.split("\n");
      const created = lines.findIndex((l) => l.startsWith(`${pullOnly}: Creation complete`));
      const destroyed = lines.findIndex((l) => l.startsWith(`${pullOnly} (deposed object`) && /Destroying/.test(l));
      check(
        `upgrade to ${to}: apply attaches PullOnly before it detaches ReadOnly`,
        created >= 0 && destroyed > created,
        lines.filter((l) => l.startsWith(pullOnly)).join("\n       "),
      );
      equal(`upgrade to ${to}: the node role has ECR PullOnly only`, attached, [ecr("PullOnly")]);
      const destroy = run(
        tools.tofu.bin,
        ["destroy", "-input=false", "-no-color", "-auto-approve", ...nodeRole.map((a) => `-target=${a}`)],
        { cwd: dir, env },
      );
      if (!must(`upgrade to ${to}: tofu destroy`, destroy)) return;
      equal(
        `upgrade to ${to}: the emulator holds no node role after destroy`,
        emulatorInventory(tools, moto.url).roles.filter((r) => r === roleName),
        [],
      );
    }
  } finally {
    moto.proc.kill();
  }
}

function sortKeys(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

function only(config, type) {
  const byName = (config.resource || {})[type] || {};
  return Object.entries(byName);
}

/** Values the provider computed at plan, held against what the stack configured. */
function checkPlannedValues(example, stackName, show, config) {
  const label = `${example}/${stackName}`;
  const after = new Map((show.resource_changes || []).map((rc) => [rc.address, rc.change.after || {}]));
  for (const [name, q] of only(config, "aws_sqs_queue")) {
    const a = after.get(`aws_sqs_queue.${name}`) || {};
    equal(
      `${label}: planned interruption queue keeps messages ${q.message_retention_seconds} s, SQS-managed SSE ${q.sqs_managed_sse_enabled}`,
      [a.message_retention_seconds, a.sqs_managed_sse_enabled],
      [q.message_retention_seconds, q.sqs_managed_sse_enabled],
    );
  }
  const sources = only(config, "aws_cloudwatch_event_rule")
    .map(([name]) => {
      const a = after.get(`aws_cloudwatch_event_rule.${name}`) || {};
      return JSON.parse(a.event_pattern || "{}").source;
    })
    .flat()
    .sort();
  equal(
    `${label}: planned EventBridge rules match aws.ec2 and aws.health events`,
    [...new Set(sources)],
    sources.length ? ["aws.ec2", "aws.health"] : [],
  );
}

/** The emulator's view after apply: each role, queue and rule the stack named is there and wired. */
function checkApplied(example, stackName, config, targets, inv) {
  const label = `${example}/${stackName}`;
  const want = (type) => only(config, type).filter(([n]) => targets.includes(`${type}.${n}`));
  const roleNames = want("aws_iam_role")
    .map(([, r]) => resolveRefs(r.name, config))
    .filter((n) => typeof n === "string" && !n.includes("e2e-unresolved-"));
  check(
    `${label}: emulator holds the roles ${roleNames.join(", ")}`,
    roleNames.length > 0 && roleNames.every((n) => inv.roles.includes(n)),
    `roles there: ${inv.roles.join(", ")}`,
  );
  equal(
    `${label}: emulator holds ${want("aws_iam_policy").length} customer managed policies`,
    inv.policies.length,
    want("aws_iam_policy").length,
  );
  const attachments = Object.values(inv.attached).flat().length;
  // AWS managed policies are attached by ARN and are not in moto's local scope listing, but they do count as attachments
  equal(
    `${label}: emulator holds ${want("aws_iam_role_policy_attachment").length} role policy attachments`,
    attachments,
    want("aws_iam_role_policy_attachment").length,
  );
  const queueNames = want("aws_sqs_queue").map(([, q]) => resolveRefs(q.name, config));
  check(
    `${label}: emulator holds the interruption queue ${queueNames.join(", ")}`,
    queueNames.length > 0 && queueNames.every((n) => inv.queues.some((u) => u.endsWith(`/${n}`))),
    `queues there: ${inv.queues.join(", ")}`,
  );
  equal(
    `${label}: emulator holds ${want("aws_cloudwatch_event_rule").length} EventBridge rules`,
    inv.rules.length,
    want("aws_cloudwatch_event_rule").length,
  );
  check(
    `${label}: every rule targets the interruption queue`,
    inv.rules.length > 0 &&
      inv.rules.every(
        (r) => (inv.targets[r] || []).length === 1 && queueNames.some((q) => inv.targets[r][0].endsWith(`:${q}`)),
      ),
    JSON.stringify(inv.targets),
  );
}

// --------------------------------------------------------------------------------------------- helm

/**
 * `${type.name.attr}` resolved from the stack's own literal configuration (following references inside
 * it, e.g. a queue named after the cluster); an IAM role's `arn` built from its literal name; anything
 * else replaced by a marker that no expectation matches.
 */
function resolveRefs(text, config, depth = 0) {
  if (typeof text !== "string") return text;
  return text.replace(/\$\{([a-z0-9_]+)\.([A-Za-z0-9_-]+)\.([a-z0-9_]+)\}/g, (whole, type, name, attr) => {
    const body = ((config.resource || {})[type] || {})[name] || ((config.data || {})[type] || {})[name];
    const literal = (v) => {
      const r = depth < 5 ? resolveRefs(v, config, depth + 1) : v;
      return typeof r === "string" && !r.includes("${") && !r.includes("e2e-unresolved-") ? r : undefined;
    };
    if (body && typeof body[attr] === "string" && literal(body[attr]) !== undefined) return literal(body[attr]);
    if (body && type === "aws_iam_role" && attr === "arn" && literal(body.name) !== undefined) {
      return `arn:aws:iam::${ACCOUNT}:role${body.path || "/"}${literal(body.name)}`;
    }
    return `e2e-unresolved-${type}.${name}.${attr}`;
  });
}

function helmTemplate(label, stack, tools, work) {
  const config = JSON.parse(fs.readFileSync(path.join(stack.dir, "cdk.tf.json"), "utf8"));
  const releases = only(config, "helm_release");
  if (releases.length) needTool(tools, "helm");
  for (const [name, rel] of releases) {
    const ref = referenceRelease(reference, rel.version);
    const chartDir = ref && path.join(ref.dir, "charts", rel.chart);
    if (!ref || !fs.existsSync(chartDir)) {
      check(
        `${label}: reference chart ${rel.chart} ${rel.version}`,
        false,
        `${path.join(reference, `v${rel.version}`, "charts", rel.chart)} missing, and no earlier ${rel.version.split(".").slice(0, 2).join(".")} patch has one`,
      );
      continue;
    }
    if (!ref.exact) console.log(`       ${label}: ${rel.chart}: ${ref.note}`);
    const valuesText = resolveRefs((rel.values || []).join("\n---\n"), config);
    const docsIn = (rel.values || []).length ? YAML.parseAllDocuments(valuesText).map((d) => d.toJS()) : [];
    const values = Object.assign({}, ...docsIn);
    const vfile = path.join(work, "helm", `${label.replace(/\W+/g, "-")}-${name}.yaml`);
    fs.mkdirSync(path.dirname(vfile), { recursive: true });
    fs.writeFileSync(vfile, YAML.stringify(values));
    const args = ["template", rel.name, chartDir, "--namespace", rel.namespace || "default", "-f", vfile];
    if (rel.skip_crds) args.push("--skip-crds");
    else args.push("--include-crds");
    const r = run(tools.helm.bin, args, {
      env: {
        ...process.env,
        HELM_CACHE_HOME: path.join(work, "helm-home"),
        HELM_CONFIG_HOME: path.join(work, "helm-home"),
        HELM_DATA_HOME: path.join(work, "helm-home"),
      },
    });
    if (!must(`${label}: helm template ${rel.chart} ${rel.version} with the synthesized values`, r)) continue;
    const objects = YAML.parseAllDocuments(r.stdout)
      .map((d) => d.toJS())
      .filter(Boolean);
    if (rel.chart === "karpenter-crd") {
      // the CRD chart carries the same CRDs as the controller chart's crds/ directory of that release
      const kinds = objects
        .filter((o) => o.kind === "CustomResourceDefinition")
        .map((o) => o.spec.names.kind)
        .sort();
      const upstream = fs
        .readdirSync(path.join(ref.dir, "charts", "karpenter", "crds"))
        .map(
          (f) =>
            YAML.parse(fs.readFileSync(path.join(ref.dir, "charts", "karpenter", "crds", f), "utf8")).spec.names.kind,
        )
        .sort();
      equal(
        `${label}: ${rel.chart} ${rel.version} renders the release's CRDs (${upstream.join(", ")})`,
        kinds,
        upstream,
      );
      check(
        `${label}: ${rel.chart} ${rel.version} renders NodePool, EC2NodeClass and NodeClaim`,
        ["EC2NodeClass", "NodeClaim", "NodePool"].every((k) => kinds.includes(k)),
        kinds.join(", "),
      );
      continue;
    }
    checkDeployment(`${label}: ${rel.chart} ${rel.version}`, objects, values, rel, config);
  }
}

function checkDeployment(label, objects, values, rel, config) {
  const dep = objects.find((o) => o.kind === "Deployment");
  if (!check(`${label}: renders a Deployment`, !!dep)) return;
  check(
    `${label}: Deployment in namespace ${rel.namespace}`,
    dep.metadata.namespace === rel.namespace,
    `got ${dep.metadata.namespace}`,
  );
  const pod = dep.spec.template.spec;
  const c = pod.containers.find((x) => x.name === "controller") || pod.containers[0];
  const env = Object.fromEntries((c.env || []).filter((e) => "value" in e).map((e) => [e.name, e.value]));
  const settings = values.settings || {};
  // the cluster name: a literal of the stack (the aws_eks_cluster's name or the fromClusterName literal)
  const clusterNames = [
    ...only(config, "aws_eks_cluster").map(([, b]) => b.name),
    ...Object.values((config.data || {}).aws_eks_cluster || {}).map((b) => b.name),
  ].map((n) => resolveRefs(n, config));
  // a stack of one cluster: that one; a fleet stack (several): one of them, the one settings.clusterName names
  if (clusterNames.length > 1)
    check(
      `${label}: CLUSTER_NAME is one of the stack's ${clusterNames.length} clusters`,
      clusterNames.includes(env.CLUSTER_NAME),
      `got ${env.CLUSTER_NAME}, clusters ${clusterNames.join(", ")}`,
    );
  else equal(`${label}: CLUSTER_NAME is the stack's cluster`, env.CLUSTER_NAME, clusterNames[0]);
  equal(`${label}: CLUSTER_NAME is settings.clusterName`, env.CLUSTER_NAME, settings.clusterName);
  const queues = only(config, "aws_sqs_queue").map(([, q]) => resolveRefs(q.name, config));
  if (queues.length > 1) {
    check(
      `${label}: INTERRUPTION_QUEUE is one of the stack's ${queues.length} queues`,
      queues.includes(env.INTERRUPTION_QUEUE),
      `got ${env.INTERRUPTION_QUEUE}, queues ${queues.join(", ")}`,
    );
    equal(
      `${label}: INTERRUPTION_QUEUE is settings.interruptionQueue`,
      env.INTERRUPTION_QUEUE,
      settings.interruptionQueue,
    );
  } else if (queues.length)
    equal(`${label}: INTERRUPTION_QUEUE is the stack's queue`, env.INTERRUPTION_QUEUE, queues[0]);
  else
    check(
      `${label}: no INTERRUPTION_QUEUE without a queue`,
      !env.INTERRUPTION_QUEUE || env.INTERRUPTION_QUEUE === settings.interruptionQueue,
    );
  const saName = (values.serviceAccount || {}).name;
  equal(`${label}: pod runs as service account ${saName}`, pod.serviceAccountName, saName);
  const sa = objects.find((o) => o.kind === "ServiceAccount" && o.metadata.name === saName);
  check(`${label}: ServiceAccount ${saName} rendered`, !!sa);
  const roleAnnotation = ((values.serviceAccount || {}).annotations || {})["eks.amazonaws.com/role-arn"];
  const irsa = (rel.values || []).join("\n").includes("eks.amazonaws.com/role-arn");
  if (irsa) {
    const controllerRole = only(config, "aws_iam_role").find(([n]) => n.includes("controller"));
    const expected = controllerRole
      ? `arn:aws:iam::${ACCOUNT}:role${controllerRole[1].path || "/"}${controllerRole[1].name}`
      : "(no controller role)";
    equal(
      `${label}: IRSA: ServiceAccount annotated with the controller role ARN`,
      sa && sa.metadata.annotations && sa.metadata.annotations["eks.amazonaws.com/role-arn"],
      expected,
    );
  } else {
    check(
      `${label}: Pod Identity: no IRSA role annotation`,
      !(sa && sa.metadata.annotations && sa.metadata.annotations["eks.amazonaws.com/role-arn"]) && !roleAnnotation,
    );
  }
  equal(`${label}: replicas`, dep.spec.replicas, values.replicas);
  equal(`${label}: controller resources`, c.resources, (values.controller || {}).resources);
  if (values.nodeSelector)
    for (const [k, v] of Object.entries(values.nodeSelector))
      equal(`${label}: nodeSelector ${k}`, (pod.nodeSelector || {})[k], v);
  if (values.tolerations) equal(`${label}: tolerations`, pod.tolerations, values.tolerations);
  if (values.dnsPolicy) equal(`${label}: dnsPolicy`, pod.dnsPolicy, values.dnsPolicy);
  const limit = ((values.controller || {}).resources || {}).limits || {};
  if (limit.memory)
    check(
      `${label}: MEMORY_LIMIT from the memory limit`,
      (c.env || []).some((e) => e.name === "MEMORY_LIMIT"),
    );
}

// ---------------------------------------------------------------------------------------------- main

function validateOutput(label, out, tools, work, cliConfig) {
  for (const stack of stacksOf(out)) {
    const dir = path.join(work, "validate", label, stack.name);
    try {
      needTool(tools, "tofu");
      const { config, pins } = prepareStack(stack.dir, dir, tools);
      initAndValidate(`${label}/${stack.name}`, dir, config, pins, cliConfig, tools.tofu.bin);
    } catch (e) {
      if (
        !skippedForTools(`${label}/${stack.name}: tofu init + validate`, tools, ["tofu", ...Object.values(PROVIDERS)])
      )
        check(`${label}/${stack.name}: tofu init + validate`, false, e.message);
    }
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const keep = args.keep;
  const runs = (stage) => args.mode === "all" || (args.mode === "stages" && args.stages.includes(stage));
  const started = Date.now();
  const sampler = require("./cluster-stage.cjs").startMemorySampler();

  if (!process.env.E2E_SKIP_BUILD && args.mode !== "server-validate") {
    const b = spawnSync("bash", [path.join(repo, "scripts/tools/build.sh")], { stdio: "inherit" });
    if (b.status !== 0) console.log("e2e: some tools did not build (see above); the steps needing them fail below");
  }
  const tools = readTools();
  const missing = Object.entries(tools)
    .filter(([, t]) => !fs.existsSync(t.bin))
    .map(([n, t]) => `${n} (${t.bin})`);
  // the steps that need a missing tool fail by name; the others still run
  if (missing.length) console.log(`e2e: not built: ${missing.join(", ")}`);
  console.log(
    `tools: ${Object.entries(tools)
      .map(([n, t]) => `${n} ${t.release}`)
      .join(", ")}`,
  );

  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cdktf-eks-karpenter-e2e-"));
  const cliConfig = writeCliConfig(work, tools);
  const cluster = require("./cluster-stage.cjs");
  const ctx = { tools, work, cliConfig, report, args, helpers: module.exports, sampler };
  const timed = async (stage, fn) => {
    report.setStage(stage);
    const t0 = Date.now();
    try {
      await fn();
    } catch (e) {
      check(`${stage}: ${e.message.split("\n")[0]}`, false, e.stack);
    }
    report.timings[stage] = {
      seconds: Math.round((Date.now() - t0) / 100) / 10,
      peakMemoryMiB: sampler.peakBetween(t0, Date.now()),
      ...(report.timings[stage] || {}),
    };
  };
  try {
    if (args.mode === "validate") {
      const target = path.resolve(args.target);
      await timed("validate", async () => {
        console.log(`\n== tofu init + validate of ${target}`);
        validateOutput(path.basename(target), target, tools, work, cliConfig);
      });
    } else if (args.mode === "apply") {
      await timed("apply", () => cluster.applyOutputStage(ctx, path.resolve(args.target)));
    } else if (args.mode === "server-validate") {
      await timed("server-validate", () => cluster.serverValidateStage(ctx, path.resolve(args.target)));
    } else {
      // every example (as .ci/run synthesizes them), and the IRSA variant; cdktf asks the Terraform binary
      // whether it reads import blocks (examples/adopt-existing), so it is pointed at the built OpenTofu
      const synthEnv = fs.existsSync(tools.tofu.bin) ? { TERRAFORM_BINARY_NAME: tools.tofu.bin } : {};
      const needsAll = ["validate", "helm", "emulator", "upgrade"].some(runs);
      let outs = [];
      if (needsAll) {
        const apps = fs
          .readdirSync(path.join(repo, "examples"))
          .filter((e) => fs.existsSync(path.join(repo, "examples", e, "main.ts")))
          .sort((a, b) => (a === "eks-karpenter" ? -1 : b === "eks-karpenter" ? 1 : a.localeCompare(b)))
          .map((e) => [e, `examples/${e}/main.ts`, {}]);
        // adopting a pre-1.9 install: the controller policy before the 1.9 split
        if (apps.some(([e]) => e === "adopt-existing"))
          apps.push(["adopt-existing-1.8", "examples/adopt-existing/main.ts", { KARPENTER_VERSION: "1.8.8" }]);
        apps.push(["irsa", "scripts/e2e/irsa-app.ts", {}]);
        report.setStage("synth");
        outs = apps.map(([label, app, env]) => [
          label,
          synth(app, path.join(work, "out", label), { ...synthEnv, ...env }),
        ]);
      }
      if (runs("validate"))
        await timed("validate", async () => {
          for (const [label, out] of outs) {
            console.log(`\n== tofu init + validate: ${label}`);
            validateOutput(label, out, tools, work, cliConfig);
          }
          // the main example on CDK Terrain (issue 32): the cdktn flavour's Terraform, validated the same way
          const label = "eks-karpenter-cdktn";
          console.log(`\n== tofu init + validate: ${label} (the main example on CDK Terrain)`);
          const t0 = Date.now();
          const out = synthCdktn("examples/eks-karpenter/main.ts", path.join(work, "out", label), synthEnv);
          if (out) {
            validateOutput(label, out, tools, work, cliConfig);
            cdktnPinnedProviders(label, out, tools);
          }
          console.log(`       ${label}: synth on cdktn + validate ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        });
      if (runs("helm"))
        await timed("helm", async () => {
          for (const [label, out] of outs) {
            console.log(`\n== helm template: ${label}`);
            for (const stack of stacksOf(out)) {
              try {
                helmTemplate(`${label}/${stack.name}`, stack, tools, work);
              } catch (e) {
                if (!skippedForTools(`${label}/${stack.name}: helm template`, tools, ["helm"]))
                  check(`${label}/${stack.name}: helm template`, false, e.message);
              }
            }
          }
        });
      if (runs("emulator"))
        await timed("emulator", async () => {
          const main = stacksOf(outs[0][1]).find((s) => s.name === "eks");
          try {
            for (const t of ["tofu", "aws-provider", "moto"]) needTool(tools, t);
            await planAndApply("eks-karpenter", main, tools, work, cliConfig);
          } catch (e) {
            if (
              !skippedForTools("eks-karpenter/eks: tofu plan/apply/destroy against the emulator", tools, [
                "tofu",
                "aws-provider",
                "moto",
              ])
            )
              check("eks-karpenter/eks: tofu plan/apply/destroy against the emulator", false, e.message);
          }
        });
      if (runs("upgrade"))
        await timed("upgrade", async () => {
          try {
            for (const t of ["tofu", "aws-provider", "helm-provider", "moto"]) needTool(tools, t);
            await ecrPolicySwap(tools, work, cliConfig);
          } catch (e) {
            if (
              !skippedForTools("version change across the ECR policy swap in the emulator", tools, [
                "tofu",
                "aws-provider",
                "helm-provider",
                "moto",
              ])
            )
              check("version change across the ECR policy swap in the emulator", false, e.message);
          }
        });
      if (runs("cluster")) await timed("cluster", () => cluster.clusterStage(ctx, synthEnv));
      if (runs("agreement")) await timed("agreement", () => cluster.agreementStage(ctx));
      // what the controller stages (karpenter-stage.cjs, day2-stage.cjs) get of this runner
      const controllerStageApi = () => ({
        tools,
        work,
        cliConfig,
        check,
        equal,
        skip: (what, why) => report.skip(what, why),
        must,
        synth,
        prepareStack,
        tofuEnv,
        freePort,
        countResources,
        stackOverride: cluster.stackOverride,
        timings: report.timings,
      });
      if (runs("karpenter"))
        await timed("karpenter", () =>
          require("./karpenter-stage.cjs").runKarpenterStage({
            ...controllerStageApi(),
            break: args.break,
            stageReport: report.stages,
          }),
        );
      // opt-in (report.cjs OPT_IN_STAGES): only when --stage names it
      if (args.mode === "stages" && args.stages.includes("values-agreement"))
        await timed("values-agreement", () => require("./values-stage.cjs").valuesAgreementStage(ctx));
      if (args.mode === "stages" && args.stages.includes("cel-agreement"))
        await timed("cel-agreement", () => require("./cel-stage.cjs").celAgreementStage(ctx));
      if (args.mode === "stages" && args.stages.includes("day2"))
        await timed("day2", () =>
          require("./day2-stage.cjs").runDay2Stage({
            ...controllerStageApi(),
            setDay2: (d) => {
              report.day2 = d;
            },
          }),
        );
    }
  } finally {
    if (keep) console.log(`scratch kept: ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
    const peak = await sampler.stop();
    report.timings.total = { seconds: Math.round((Date.now() - started) / 100) / 10, peakMemoryMiB: peak };
    const t = Object.entries(report.timings)
      .map(([k, v]) => `${k} ${v.seconds} s${v.peakMemoryMiB !== undefined ? ` (peak ${v.peakMemoryMiB} MiB)` : ""}`)
      .join(", ");
    console.log(`\ntimings: ${t}`);
    if (report.agreement) console.log(`agreement: ${report.agreement.line}`);
    if (report.valuesAgreement) console.log(`values-agreement: ${report.valuesAgreement.line}`);
    if (args.report) {
      report.write(path.resolve(args.report));
      console.log(`report: ${path.resolve(args.report)}`);
    }
  }
  const c = report.counts();
  console.log(`\ne2e: ${report.summaryLine()}`);
  if (c.failed || (!c.passed && !c.skipped)) process.exitCode = 1;
}

module.exports = {
  emulatedClosure,
  referencesOf,
  resolveRefs,
  EMULATED,
  // for cluster-stage.cjs
  readTools,
  writeCliConfig,
  needTool,
  tofuEnv,
  prepareStack,
  initAndValidate,
  synth,
  stacksOf,
  startMoto,
  emulatorInventory,
  awsOverride,
  run,
  must,
  check,
  equal,
  skippedForTools,
  get report() {
    return report;
  },
  set report(r) {
    report = r;
  },
};

if (require.main === module) {
  main().catch((e) => {
    console.error(`e2e: ${e.message}`);
    // the closing line comes even when the run itself failed
    console.log(`\ne2e: ${report.summaryLine()}`);
    process.exitCode = 1;
  });
}
