// The e2e steps that need a real Kubernetes API server (local-cluster.cjs):
//   - `--stage cluster`: the main and the fleet example synthesized and applied whole with OpenTofu,
//     AWS into moto and Kubernetes (both Helm releases, every kubernetes_manifest, the inflate
//     Deployment) into local API servers through the real helm and kubernetes providers; what each
//     cluster holds checked after every apply and destroy;
//   - `--apply <cdktf.out>`: the same for any synthesized output;
//   - `--server-validate <file.yaml>`: each object judged by the server (dry run) with a release's CRDs;
//   - `--stage agreement`: every NodePool / EC2NodeClass / NodeOverlay / CapacityBuffer case of the test suite judged by the library
//     and by the server, case by case.
//
// What the run changes: nothing in the synthesized JSON. Each stack is copied, and one override file
// beside the copy (OpenTofu merges `*_override.tf.json`) says where things are here:
//   - providers: aws → moto (fake credentials); helm and kubernetes → the local server (its CA, and a
//     token printed by an exec plugin in place of `aws eks get-token`);
//   - helm_release: `chart` → the release's chart in ../shared/reference (the OCI registry is out of
//     reach), `repository` unset, and `wait = false`: no kubelet runs pods here, so Helm's readiness
//     wait for the controller Deployment could only time out. The objects are checked instead;
//   - kubernetes_deployment_v1: `wait_for_rollout = false`, for the same reason;
//   - the resource types moto does not emulate (EKS add-ons, access entries, Pod Identity
//     associations) get `count = 0`, only when nothing but `depends_on` refers to them: they order
//     the install and configure AWS-side identity, which nothing here can exercise (see docs/e2e.md);
//   - state: a scratch local backend per stack, and each terraform_remote_state pointed at it.
// The AWS values the Kubernetes half reads (cluster name, queue name, node role name) come from the
// moto apply, through the stacks' own references and remote state; the cluster endpoint and CA the
// stacks read from aws_eks_cluster are moto's, and the override points the providers at the local server.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const zlib = require("zlib");
const { spawn, spawnSync } = require("child_process");
const YAML = require("yaml");
const { startLocalCluster, toolBinaries, readTools } = require("./local-cluster.cjs");
const sv = require("./server-validate.cjs");
const ag = require("./agreement.cjs");

const repo = path.resolve(__dirname, "../..");
const reference = path.resolve(repo, "..", "shared", "reference", "karpenter");
const { referenceRelease } = require("./reference-release.cjs");

// ------------------------------------------------------------------------------------------ memory

/**
 * Peak memory of this process and everything under it (tofu, providers, etcd, kube-apiserver, moto,
 * jest), sampled from /proc every 250 ms by a child process (the runner's own event loop is blocked
 * while tofu runs). Resident set sizes are summed over the tree.
 */
function startMemorySampler() {
  const file = path.join(os.tmpdir(), `cdktf-eks-karpenter-e2e-mem-${process.pid}.txt`);
  const code = `
const fs = require("fs"); const root = ${process.pid}; const file = ${JSON.stringify(file)};
const page = 4096; let peak = 0; const lines = [];
function tick() {
  const kids = new Map(); const rss = new Map();
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\\d+$/.test(d)) continue;
    try { const s = fs.readFileSync("/proc/" + d + "/stat", "utf8"); const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
      const ppid = Number(f[1]); if (!kids.has(ppid)) kids.set(ppid, []); kids.get(ppid).push(Number(d)); rss.set(Number(d), Number(f[21]) * page); } catch {}
  }
  let sum = 0; const todo = [root]; const seen = new Set();
  while (todo.length) { const p = todo.pop(); if (seen.has(p) || p === process.pid) continue; seen.add(p); sum += rss.get(p) || 0; todo.push(...(kids.get(p) || [])); }
  if (!rss.has(root)) process.exit(0);
  peak = Math.max(peak, sum); lines.push(Date.now() + " " + sum);
  if (lines.length >= 8) { fs.appendFileSync(file, lines.join("\\n") + "\\n"); lines.length = 0; }
}
process.on("SIGTERM", () => { if (lines.length) fs.appendFileSync(file, lines.join("\\n") + "\\n"); process.exit(0); });
setInterval(tick, 250); tick();`;
  fs.writeFileSync(file, "");
  const p = spawn(process.execPath, ["-e", code], { stdio: "ignore" });
  const read = () =>
    fs
      .readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split(" ").map(Number));
  return {
    /** Peak MiB between two instants (ms since epoch). */
    peakBetween(t0, t1) {
      const xs = read()
        .filter(([t]) => t >= t0 && t <= t1)
        .map(([, b]) => b);
      return xs.length ? Math.round(Math.max(...xs) / 1048576) : undefined;
    },
    async stop() {
      await new Promise((r) => {
        p.once("exit", r);
        p.kill("SIGTERM");
        setTimeout(r, 2000);
      });
      const xs = read().map(([, b]) => b);
      fs.rmSync(file, { force: true });
      return xs.length ? Math.round(Math.max(...xs) / 1048576) : undefined;
    },
    file,
  };
}

// ------------------------------------------------------------------------------------------ stacks

/**
 * The stacks of a synthesized output in apply order (dependencies first): cdktf's manifest.json
 * `dependencies` when present, else each terraform_remote_state's local path matched to the stack
 * whose local backend writes it.
 */
function readStacks(out) {
  const root = path.join(out, "stacks");
  if (!fs.existsSync(root)) throw new Error(`${out}: no stacks/ directory (is it a cdktf synth output?)`);
  const stacks = fs
    .readdirSync(root)
    .filter((s) => fs.existsSync(path.join(root, s, "cdk.tf.json")))
    .sort()
    .map((name) => {
      const dir = path.join(root, name);
      const config = JSON.parse(fs.readFileSync(path.join(dir, "cdk.tf.json"), "utf8"));
      const backend = (((config.terraform || {}).backend || {}).local || {}).path;
      return { name, dir, config, statePath: backend ? path.resolve(dir, backend) : undefined, deps: [] };
    });
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8"));
  } catch {
    manifest = undefined;
  }
  for (const s of stacks) {
    const fromManifest = manifest && manifest.stacks && manifest.stacks[s.name] && manifest.stacks[s.name].dependencies;
    const fromState = Object.values((s.config.data || {}).terraform_remote_state || {})
      .map((d) => d.config && d.config.path && path.resolve(s.dir, d.config.path))
      .map((p) => stacks.find((o) => o.statePath && o.statePath === p))
      .filter(Boolean)
      .map((o) => o.name);
    s.deps = [...new Set([...(fromManifest || []), ...fromState])].filter((d) => d !== s.name);
  }
  return topological(stacks);
}

function topological(stacks) {
  const byName = new Map(stacks.map((s) => [s.name, s]));
  const done = new Set();
  const order = [];
  const visit = (s, trail = []) => {
    if (done.has(s.name)) return;
    if (trail.includes(s.name)) throw new Error(`stack dependency cycle: ${[...trail, s.name].join(" → ")}`);
    for (const d of s.deps) if (byName.has(d)) visit(byName.get(d), [...trail, s.name]);
    done.add(s.name);
    order.push(s);
  };
  stacks.forEach((s) => visit(s));
  return order;
}

/**
 * The Kubernetes API a provider configuration talks to, as a key shared across stacks: its host
 * expression, with a remote-state output followed to the expression the producing stack outputs
 * (`${data.terraform_remote_state.x.outputs.cross-stack-output-…endpoint}` in the nodes stack is the
 * `${aws_eks_cluster.cluster.endpoint}` of the eks stack).
 */
function apiKey(host, stack, stacks) {
  if (typeof host !== "string") return `${stack.name}:(no host)`;
  const m = host.match(/^\$\{data\.terraform_remote_state\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)\}$/);
  if (m) {
    const ds = ((stack.config.data || {}).terraform_remote_state || {})[m[1]];
    const p = ds && ds.config && ds.config.path && path.resolve(stack.dir, ds.config.path);
    const producer = stacks.find((s) => s.statePath && s.statePath === p);
    const value = producer && ((producer.config.output || {})[m[2]] || {}).value;
    if (producer && typeof value === "string") return apiKey(value, producer, stacks);
  }
  return host.startsWith("${") ? `${stack.name}:${host}` : host;
}

/** Provider entries of one type, each with its alias ("" for the default). */
function providerEntries(config, type) {
  const p = (config.provider || {})[type];
  return (Array.isArray(p) ? p : p ? [p] : []).map((e) => ({ alias: e.alias || "", body: e }));
}
function hostOf(type, body) {
  if (type === "helm") {
    const k = Array.isArray(body.kubernetes) ? body.kubernetes[0] : body.kubernetes;
    return k && k.host;
  }
  return body.host;
}

/** The local API server each Kubernetes-facing provider of every stack goes to: distinct keys, in order. */
function apiKeys(stacks) {
  const keys = [];
  for (const s of stacks) {
    for (const type of ["helm", "kubernetes"]) {
      for (const e of providerEntries(s.config, type)) {
        const k = apiKey(hostOf(type, e.body), s, stacks);
        if (!keys.includes(k)) keys.push(k);
      }
    }
  }
  return keys;
}

/**
 * What moto cannot hold, with why: the resource types it has no API for, and resources whose input it
 * cannot give (a `when` over the resource's body).
 */
const NOT_EMULATED = [
  { type: "aws_eks_addon", why: "moto has no EKS add-on API" },
  { type: "aws_eks_access_entry", why: "moto has no EKS access entry API" },
  { type: "aws_eks_access_policy_association", why: "moto has no EKS access entry API" },
  { type: "aws_eks_pod_identity_association", why: "moto has no EKS Pod Identity API" },
  {
    type: "aws_ec2_tag",
    when: (b) => /cluster_security_group_id/.test(String(b.resource_id)),
    why: "moto's EKS clusters have no cluster security group (vpc_config.cluster_security_group_id is empty): nothing to tag",
  },
];

/**
 * Resources of `types` that only `depends_on` (never an attribute reference) names, so `count = 0`
 * leaves the rest of the configuration valid; and those that cannot be left out, with who refers.
 */
function leaveOut(config, gaps) {
  const types = [...new Set(gaps.map((g) => (typeof g === "string" ? g : g.type)))];
  const applies = (type, body) =>
    gaps.some((g) => (typeof g === "string" ? g === type : g.type === type && (!g.when || g.when(body))));
  const text = JSON.stringify({
    ...config,
    resource: Object.fromEntries(
      Object.entries(config.resource || {}).map(([t, byName]) => [
        t,
        Object.fromEntries(Object.entries(byName).map(([n, b]) => [n, { ...b, depends_on: undefined }])),
      ]),
    ),
  });
  const out = [];
  const blocked = [];
  for (const type of types) {
    for (const [name, body] of Object.entries((config.resource || {})[type] || {})) {
      if (!applies(type, body)) continue;
      const addr = `${type}.${name}`;
      const ref = new RegExp(`\\$\\{[^}]*\\b${addr.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`);
      if (body.count !== undefined || body.for_each !== undefined || ref.test(text)) blocked.push(addr);
      else out.push(addr);
    }
  }
  return { out, blocked };
}

/** An exec credential plugin that prints the local server's token (in place of `aws eks get-token`). */
function tokenExec(token) {
  const cred = JSON.stringify({
    apiVersion: "client.authentication.k8s.io/v1beta1",
    kind: "ExecCredential",
    status: { token },
  });
  return {
    api_version: "client.authentication.k8s.io/v1beta1",
    command: "/bin/sh",
    args: ["-c", `printf '%s' '${cred}'`],
  };
}

/**
 * The override of one stack copy (see the file comment). Pure: everything it needs is passed in.
 * @param {{statePath: string, remoteStates: {[data: string]: string}, motoUrl?: string,
 *   clusterFor: (type: string, alias: string) => {server: string, caPem: string, token: string},
 *   chartDir: (chart: string, version: string) => string, chartVersion?: (version: string) => string,
 *   leftOut: string[]}} o
 */
function stackOverride(config, o) {
  const ov = { terraform: { backend: { local: { path: o.statePath } } } };
  const provider = {};
  for (const e of providerEntries(config, "aws")) {
    if (!o.motoUrl) continue;
    const services = [
      "ec2",
      "eks",
      "iam",
      "sqs",
      "sts",
      "events",
      "kms",
      "ssm",
      "pricing",
      "autoscaling",
      "cloudwatch",
    ];
    (provider.aws = provider.aws || []).push({
      ...(e.alias ? { alias: e.alias } : {}),
      region: e.body.region || "us-east-1",
      access_key: "e2e-fake-access-key",
      secret_key: "e2e-fake-secret-key",
      skip_credentials_validation: true,
      skip_metadata_api_check: "true",
      skip_region_validation: true,
      skip_requesting_account_id: false,
      endpoints: [Object.fromEntries(services.map((s) => [s, o.motoUrl]))],
    });
  }
  for (const e of providerEntries(config, "helm")) {
    const c = o.clusterFor("helm", e.alias);
    (provider.helm = provider.helm || []).push({
      ...(e.alias ? { alias: e.alias } : {}),
      kubernetes: { host: c.server, cluster_ca_certificate: c.caPem, token: c.token },
    });
  }
  for (const e of providerEntries(config, "kubernetes")) {
    const c = o.clusterFor("kubernetes", e.alias);
    (provider.kubernetes = provider.kubernetes || []).push({
      ...(e.alias ? { alias: e.alias } : {}),
      host: c.server,
      cluster_ca_certificate: c.caPem,
      exec: [tokenExec(c.token)],
    });
  }
  if (Object.keys(provider).length) ov.provider = provider;
  const resource = {};
  const set = (type, name, body) => {
    resource[type] = resource[type] || {};
    resource[type][name] = { ...(resource[type][name] || {}), ...body };
  };
  for (const [name, rel] of Object.entries((config.resource || {}).helm_release || {})) {
    // a patch without a reference folder installs the charts of the one standing for it (reference-release.cjs), at that version
    set("helm_release", name, {
      chart: o.chartDir(rel.chart, rel.version),
      repository: null,
      wait: false,
      ...(o.chartVersion && o.chartVersion(rel.version) !== rel.version
        ? { version: o.chartVersion(rel.version) }
        : {}),
    });
  }
  for (const name of Object.keys((config.resource || {}).kubernetes_deployment_v1 || {}))
    set("kubernetes_deployment_v1", name, { wait_for_rollout: false });
  for (const addr of o.leftOut || []) {
    const [type, name] = addr.split(".");
    set(type, name, { count: 0 });
  }
  if (Object.keys(resource).length) ov.resource = resource;
  const remote = {};
  for (const [name] of Object.entries((config.data || {}).terraform_remote_state || {})) {
    if (o.remoteStates[name]) remote[name] = { config: { path: o.remoteStates[name] } };
  }
  if (Object.keys(remote).length) ov.data = { terraform_remote_state: remote };
  return ov;
}

// -------------------------------------------------------------------------------------- inventory

/** Every object a Helm release installed, from the release record Helm keeps in the cluster (a Secret). */
async function releaseObjects(cluster, name, namespace) {
  const r = await cluster.request("GET", `/api/v1/namespaces/${namespace}/secrets`, undefined, {
    query: { labelSelector: `owner=helm,name=${name}` },
  });
  if (r.status !== 200 || !r.body.items.length) return undefined;
  const latest = r.body.items.sort((a, b) => Number(b.metadata.labels.version) - Number(a.metadata.labels.version))[0];
  // Helm stores base64(gzip(JSON)) in the Secret's data (itself base64)
  const rel = JSON.parse(
    zlib.gunzipSync(Buffer.from(Buffer.from(latest.data.release, "base64").toString(), "base64")).toString(),
  );
  const objs = YAML.parseAllDocuments(rel.manifest || "")
    .map((d) => d.toJS())
    .filter((o) => o && o.kind);
  return {
    status: rel.info && rel.info.status,
    version: rel.chart && rel.chart.metadata && rel.chart.metadata.version,
    objects: objs,
    namespace,
  };
}

async function objectPath(cluster, resources, obj, defaultNs) {
  const res = await resources.lookup(obj.apiVersion, obj.kind);
  if (!res) return undefined;
  const ns = res.namespaced ? obj.metadata.namespace || defaultNs || "default" : undefined;
  return `${res.base}${ns ? `/namespaces/${ns}` : ""}/${res.plural}/${encodeURIComponent(obj.metadata.name)}`;
}

/** A one-line census of what the cluster holds, for the log after every step. */
async function census(cluster) {
  // a CRD's list can answer 404 for a few seconds after the CRD is Established on a loaded machine
  const count = async (p) => {
    for (let i = 0; i < 20; i++) {
      const r = await cluster.request("GET", p);
      if (r.status === 200) return r.body.items.length;
      await new Promise((res) => setTimeout(res, 500));
    }
    return "-";
  };
  const crds = await cluster.request("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions");
  const names = crds.status === 200 ? crds.body.items.map((c) => c.metadata.name) : [];
  const np = names.includes("nodepools.karpenter.sh") ? await count("/apis/karpenter.sh/v1/nodepools") : 0;
  const nc = names.includes("ec2nodeclasses.karpenter.k8s.aws")
    ? await count("/apis/karpenter.k8s.aws/v1/ec2nodeclasses")
    : 0;
  return {
    crds: names.length,
    deployments: await count("/apis/apps/v1/deployments"),
    serviceAccounts: await count("/api/v1/namespaces/kube-system/serviceaccounts"),
    clusterRoles: await count(
      "/apis/rbac.authorization.k8s.io/v1/clusterroles?labelSelector=app.kubernetes.io%2Fmanaged-by%3DHelm",
    ),
    validatingWebhooks: await count("/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations"),
    mutatingWebhooks: await count("/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations"),
    nodePools: np,
    ec2NodeClasses: nc,
    nodes: await count("/api/v1/nodes"),
    helmReleases: await count("/api/v1/secrets?labelSelector=owner%3Dhelm"),
  };
}
const censusText = (c) =>
  Object.entries(c)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");

/** Resources of the stack's state, from `tofu show -json`. */
function stateResources(tofu, dir, env) {
  const r = spawnSync(tofu, ["show", "-json", "-no-color"], { cwd: dir, env, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) return [];
  const j = JSON.parse(r.stdout || "{}");
  const walk = (m) => [...((m && m.resources) || []), ...((m && m.child_modules) || []).flatMap(walk)];
  return walk(j.values && j.values.root_module).filter((x) => x.mode === "managed");
}

/** Whether `want` (a manifest) is contained in `got` (the server's object): every field it sets, equal. */
function contains(got, want) {
  if (want === null || typeof want !== "object") return got === want || String(got) === String(want);
  if (Array.isArray(want))
    return Array.isArray(got) && got.length === want.length && want.every((w, i) => contains(got[i], w));
  return (
    got !== null &&
    typeof got === "object" &&
    Object.entries(want).every(([k, v]) => v === null || v === undefined || contains(got[k], v))
  );
}

// ---------------------------------------------------------------------------------- apply output

/**
 * Applies every stack of a synthesized output (dependencies first), checks what each cluster and the
 * emulator hold, then destroys in reverse order and checks again.
 * @returns {Promise<{seconds: number}>}
 */
async function applyOutput(label, out, ctx) {
  const h = ctx.helpers;
  const { tools, work } = ctx;
  const stacks = readStacks(out);
  console.log(
    `\n== ${label}: ${stacks.map((s) => s.name).join(" → ")} applied with OpenTofu (AWS into moto, Kubernetes into local API servers), then destroyed in reverse`,
  );
  const needs = ["tofu", "kube-apiserver", "etcd"];
  const providers = new Set(
    stacks.flatMap((s) =>
      Object.keys((s.config.terraform || {}).required_providers || {}).map((p) =>
        String((s.config.terraform.required_providers[p] || {}).source || p)
          .split("/")
          .pop(),
      ),
    ),
  );
  if (providers.has("aws")) needs.push("aws-provider", "moto");
  if (providers.has("helm")) needs.push("helm-provider");
  if (providers.has("kubernetes")) needs.push("kubernetes-provider");
  const missing = needs.filter((n) => !tools[n] || !fs.existsSync(tools[n].bin));
  if (missing.length) {
    const why = `needs ${missing.map((n) => `${n} ${tools[n] ? tools[n].version : ""}`.trim()).join(", ")}, not built (bash scripts/tools/build.sh ${missing.join(" ")})`;
    if (process.env.E2E_NOT_BUILT === "skip") {
      ctx.report.skip(`${label}: apply and destroy`, why);
      return;
    }
    h.check(`${label}: apply and destroy`, false, why);
    return;
  }
  const keys = apiKeys(stacks);
  const dir0 = path.join(work, "apply", label.replace(/[^A-Za-z0-9_.-]+/g, "-"));
  fs.mkdirSync(dir0, { recursive: true });
  const clusters = new Map();
  let moto;
  try {
    if (providers.has("aws")) moto = await h.startMoto(tools, dir0);
    for (const k of keys) {
      const c = await startLocalCluster({
        workDir: path.join(dir0, `cluster-${clusters.size}`),
        log: (l) => console.log(`       ${l}`),
      });
      c.caPem = fs.readFileSync(c.caFile, "utf8");
      c.resources = new sv.Resources(c);
      clusters.set(k, c);
      console.log(`       ${k} → ${c.server}`);
    }
    const env = h.tofuEnv(ctx.cliConfig, { AWS_EC2_METADATA_DISABLED: "true" });
    const applied = [];
    const statePaths = new Map(stacks.map((s) => [s.name, path.join(dir0, `${s.name}.tfstate`)]));
    for (const s of stacks) {
      const dir = path.join(dir0, s.name);
      const { out: leftOut, blocked } = leaveOut(s.config, NOT_EMULATED);
      const remoteStates = {};
      for (const [n, d] of Object.entries((s.config.data || {}).terraform_remote_state || {})) {
        const p = d.config && d.config.path && path.resolve(s.dir, d.config.path);
        const producer = stacks.find((o) => o.statePath === p);
        if (producer) remoteStates[n] = statePaths.get(producer.name);
      }
      const override = stackOverride(s.config, {
        statePath: statePaths.get(s.name),
        remoteStates,
        motoUrl: moto && moto.url,
        clusterFor: (type, alias) => {
          const e = providerEntries(s.config, type).find((x) => x.alias === alias);
          return clusters.get(apiKey(hostOf(type, e.body), s, stacks));
        },
        chartDir: (chart, version) =>
          path.join(
            (referenceRelease(reference, version) || { dir: path.join(reference, `v${version}`) }).dir,
            "charts",
            chart,
          ),
        chartVersion: (version) => (referenceRelease(reference, version) || { version }).version,
        leftOut,
      });
      const { config, pins } = h.prepareStack(s.dir, dir, tools, override);
      for (const a of leftOut) {
        const [type] = a.split(".");
        const g = NOT_EMULATED.find(
          (x) => x.type === type && (!x.when || x.when(s.config.resource[type][a.slice(type.length + 1)])),
        );
        console.log(`       left out (count = 0, only depends_on names it): ${a}: ${g ? g.why : "not emulated"}`);
      }
      if (blocked.length)
        h.check(
          `${label}/${s.name}: resources moto cannot hold are referenced only by depends_on`,
          false,
          blocked.join(", "),
        );
      if (!h.initAndValidate(`${label}/${s.name}`, dir, config, pins, ctx.cliConfig, tools.tofu.bin, true)) return;
      const t0 = Date.now();
      const apply = h.run(tools.tofu.bin, ["apply", "-input=false", "-no-color", "-auto-approve"], { cwd: dir, env });
      if (
        !h.must(
          `${label}/${s.name}: tofu apply (${countResources(config)} resources, ${leftOut.length} left out)`,
          apply,
        )
      ) {
        applied.push({ s, dir });
        break;
      }
      h.check(
        `${label}/${s.name}: tofu apply (${countResources(config) - leftOut.length} resources in ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
        true,
      );
      recordResources(ctx, `${label}/${s.name}`, "create", apply.stdout, dir);
      applied.push({ s, dir });
      const state = stateResources(tools.tofu.bin, dir, env);
      const byType = {};
      for (const r of state) byType[r.type] = (byType[r.type] || 0) + 1;
      console.log(
        `       state: ${Object.entries(byType)
          .sort()
          .map(([t, n]) => `${t} ${n}`)
          .join(", ")}`,
      );
      // a check that cannot reach the server fails here, and the destroy below still runs
      try {
        await checkApplied(label, s, state, clusters, stacks, h);
        for (const [k, c] of clusters) console.log(`       cluster ${k}: ${censusText(await census(c))}`);
      } catch (e) {
        h.check(`${label}/${s.name}: checks after apply`, false, e.message);
      }
    }
    for (const { s, dir } of [...applied].reverse()) {
      const state = stateResources(tools.tofu.bin, dir, env);
      const destroy = h.run(tools.tofu.bin, ["destroy", "-input=false", "-no-color", "-auto-approve"], {
        cwd: dir,
        env,
      });
      recordResources(ctx, `${label}/${s.name}`, "destroy", destroy.stdout, dir);
      if (!h.must(`${label}/${s.name}: tofu destroy`, destroy)) continue;
      const left = stateResources(tools.tofu.bin, dir, env);
      h.equal(
        `${label}/${s.name}: state empty after destroy`,
        left.map((r) => r.address),
        [],
      );
      try {
        await checkDestroyed(label, s, state, clusters, stacks, h);
        for (const [k, c] of clusters) console.log(`       cluster ${k}: ${censusText(await census(c))}`);
      } catch (e) {
        h.check(`${label}/${s.name}: checks after destroy`, false, e.message);
      }
    }
    if (moto && applied.length) {
      const regions = [
        ...new Set(stacks.flatMap((s) => providerEntries(s.config, "aws").map((e) => e.body.region || "us-east-1"))),
      ];
      const inv = motoLeftovers(tools, moto.url, regions);
      h.equal(
        `${label}: emulator holds no role, policy, queue, rule, cluster or VPC after destroy (regions ${regions.join(", ")})`,
        inv,
        { roles: [], policies: [], queues: [], rules: [], clusters: [], vpcs: [] },
      );
    }
  } finally {
    for (const c of clusters.values()) await c.stop();
    if (moto) moto.proc.kill();
  }
}

/**
 * Per resource, what tofu did and how long it took ("aws_nat_gateway.x: Creation complete after 1m2s"),
 * into the report (`resources`) and, the slowest first, into the log; tofu's output is kept beside the
 * stack copy (apply.log, destroy.log) for --keep.
 */
function recordResources(ctx, at, action, stdout, dir) {
  fs.writeFileSync(path.join(dir, `${action === "create" ? "apply" : "destroy"}.log`), stdout || "");
  const secs = (t) =>
    (t.match(/(\d+)h/) ? Number(t.match(/(\d+)h/)[1]) * 3600 : 0) +
    (t.match(/(\d+)m/) ? Number(t.match(/(\d+)m/)[1]) * 60 : 0) +
    (t.match(/(\d+)s/) ? Number(t.match(/(\d+)s/)[1]) : 0);
  const rows = [];
  for (const m of String(stdout || "").matchAll(/^([^\s:]+): (Creation|Destruction) complete after ([0-9hms]+)/gm))
    rows.push({ address: m[1], action, seconds: secs(m[3]) });
  ctx.report.resources = ctx.report.resources || {};
  ctx.report.resources[at] = [...(ctx.report.resources[at] || []), ...rows];
  const slow = [...rows]
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 5)
    .filter((r) => r.seconds > 0);
  console.log(
    `       ${action === "create" ? "created" : "destroyed"} ${rows.length} resources${slow.length ? `; slowest: ${slow.map((r) => `${r.address} ${r.seconds} s`).join(", ")}` : ""}`,
  );
}

/** What moto still holds, in every region the stacks use (IAM is global), read with boto3 from moto's virtualenv. */
function motoLeftovers(tools, url, regions) {
  const py = path.join(path.dirname(tools.moto.bin), "python");
  const script = `
import boto3, json, sys
url = sys.argv[1]; out = dict(roles=[], policies=[], queues=[], rules=[], clusters=[], vpcs=[])
kw = lambda r: dict(endpoint_url=url, region_name=r, aws_access_key_id="e2e", aws_secret_access_key="e2e")
iam = boto3.client("iam", **kw("us-east-1"))
out["roles"] = [r["RoleName"] for r in iam.list_roles()["Roles"]]
out["policies"] = [p["PolicyName"] for p in iam.list_policies(Scope="Local")["Policies"]]
for r in sys.argv[2:]:
    out["queues"] += [r + ":" + q for q in boto3.client("sqs", **kw(r)).list_queues().get("QueueUrls", [])]
    out["rules"] += [r + ":" + x["Name"] for x in boto3.client("events", **kw(r)).list_rules()["Rules"]]
    out["clusters"] += [r + ":" + c for c in boto3.client("eks", **kw(r)).list_clusters()["clusters"]]
    out["vpcs"] += [r + ":" + v["VpcId"] for v in boto3.client("ec2", **kw(r)).describe_vpcs()["Vpcs"] if not v.get("IsDefault")]
print(json.dumps(out))
`;
  const r = spawnSync(py, ["-c", script, url, ...regions], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`emulator inventory failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function countResources(config) {
  return Object.values(config.resource || {}).reduce((n, byName) => n + Object.keys(byName).length, 0);
}

/** The local cluster a resource of the state went to: its configuration's `provider` (`helm.<alias>`), else the default one. */
function clusterOfResource(s, r, type, clusters, stacks) {
  const body = ((s.config.resource || {})[r.type] || {})[r.name] || {};
  const alias = String(body.provider || "").split(".")[1] || "";
  const e = providerEntries(s.config, type).find((x) => x.alias === alias);
  return e && clusters.get(apiKey(hostOf(type, e.body), s, stacks));
}

/** After one stack's apply: each release's objects, each manifest, each Deployment, in its cluster. */
async function checkApplied(label, s, state, clusters, stacks, h) {
  const at = `${label}/${s.name}`;
  const clusterOf = (r, type) => clusterOfResource(s, r, type, clusters, stacks);
  for (const r of state.filter((x) => x.type === "helm_release")) {
    const c = clusterOf(r, "helm");
    const v = r.values;
    const rel = await releaseObjects(c, v.name, v.namespace);
    if (
      !h.check(
        `${at}: ${r.address}: Helm release ${v.name} ${v.version} recorded in the cluster (status deployed)`,
        rel && rel.status === "deployed" && rel.version === v.version,
        rel ? `status ${rel.status}, chart ${rel.version}` : "no release Secret",
      )
    )
      continue;
    const missing = [];
    for (const o of rel.objects) {
      const p = await objectPath(c, c.resources, o, v.namespace);
      const g = p && (await c.request("GET", p));
      if (!g || g.status !== 200) missing.push(`${o.kind}/${o.metadata.name}`);
    }
    const kinds = {};
    for (const o of rel.objects) kinds[o.kind] = (kinds[o.kind] || 0) + 1;
    h.check(
      `${at}: every object of ${v.name} is in the cluster (${Object.entries(kinds)
        .map(([k, n]) => `${n} ${k}`)
        .join(", ")})`,
      missing.length === 0,
      `missing: ${missing.join(", ")}`,
    );
    if ((v.chart && String(v.chart).endsWith("karpenter-crd")) || v.name === "karpenter-crd") {
      const crds = rel.objects.filter((o) => o.kind === "CustomResourceDefinition");
      const notEstablished = [];
      for (const crd of crds) {
        const g = await c.request(
          "GET",
          `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
        );
        if (!(
          g.status === 200 &&
          (g.body.status.conditions || []).some((x) => x.type === "Established" && x.status === "True")
        ))
          notEstablished.push(crd.metadata.name);
      }
      h.check(
        `${at}: the ${crds.length} CRDs (${crds.map((x) => x.spec.names.kind).join(", ")}) are Established`,
        crds.length > 0 && notEstablished.length === 0,
        notEstablished.join(", "),
      );
      continue;
    }
    const dep = rel.objects.find((o) => o.kind === "Deployment");
    if (dep) {
      const g = await c.request(
        "GET",
        `/apis/apps/v1/namespaces/${dep.metadata.namespace || v.namespace}/deployments/${dep.metadata.name}`,
      );
      const pod = g.status === 200 ? g.body.spec.template.spec : {};
      const ctr = (pod.containers || []).find((x) => x.name === "controller") || (pod.containers || [])[0] || {};
      const envs = Object.fromEntries((ctr.env || []).filter((e) => "value" in e).map((e) => [e.name, e.value]));
      const values = Object.assign({}, ...(v.values || []).map((t) => YAML.parse(t) || {}));
      const settings = values.settings || {};
      h.equal(
        `${at}: Deployment ${dep.metadata.name}: CLUSTER_NAME is the applied settings.clusterName`,
        envs.CLUSTER_NAME,
        settings.clusterName,
      );
      if (settings.interruptionQueue !== undefined)
        h.equal(
          `${at}: Deployment ${dep.metadata.name}: INTERRUPTION_QUEUE is the applied queue name`,
          envs.INTERRUPTION_QUEUE,
          settings.interruptionQueue,
        );
      const sa = (values.serviceAccount || {}).name;
      if (sa) {
        h.equal(`${at}: Deployment ${dep.metadata.name} runs as ServiceAccount ${sa}`, pod.serviceAccountName, sa);
        const gs = await c.request("GET", `/api/v1/namespaces/${v.namespace}/serviceaccounts/${sa}`);
        h.check(`${at}: ServiceAccount ${v.namespace}/${sa} exists`, gs.status === 200, `GET answered ${gs.status}`);
      }
      if (values.replicas !== undefined)
        h.equal(`${at}: Deployment ${dep.metadata.name} replicas`, g.body.spec.replicas, values.replicas);
      const rbac = rel.objects.filter((o) => /^(Cluster)?Role(Binding)?$/.test(o.kind));
      h.check(`${at}: ${v.name} installs its RBAC (${rbac.length} roles and bindings)`, rbac.length > 0);
    }
  }
  for (const r of state.filter((x) => x.type === "kubernetes_manifest")) {
    const c = clusterOf(r, "kubernetes");
    const m = r.values.manifest;
    const p = await objectPath(c, c.resources, m, "default");
    const g = p ? await c.request("GET", p) : { status: 0 };
    h.check(
      `${at}: ${m.kind}/${m.metadata.name} is in the cluster and holds the synthesized spec`,
      g.status === 200 && contains(g.body.spec, m.spec),
      g.status === 200 ? `server spec ${JSON.stringify(g.body.spec)}` : `GET answered ${g.status}`,
    );
  }
  for (const r of state.filter((x) => x.type === "kubernetes_deployment_v1")) {
    const c = clusterOf(r, "kubernetes");
    const md = r.values.metadata[0];
    const g = await c.request("GET", `/apis/apps/v1/namespaces/${md.namespace}/deployments/${md.name}`);
    h.check(
      `${at}: Deployment ${md.namespace}/${md.name} is in the cluster with ${r.values.spec[0].replicas} replicas`,
      g.status === 200 && String(g.body.spec.replicas) === String(r.values.spec[0].replicas),
      `GET answered ${g.status}`,
    );
  }
}

/** After one stack's destroy: nothing of it is left in its clusters. */
async function checkDestroyed(label, s, state, clusters, stacks, h) {
  const at = `${label}/${s.name}`;
  const clusterOf = (r, type) => clusterOfResource(s, r, type, clusters, stacks);
  for (const r of state.filter((x) => x.type === "helm_release")) {
    const c = clusterOf(r, "helm");
    const rel = await releaseObjects(c, r.values.name, r.values.namespace);
    h.check(`${at}: Helm release ${r.values.name} uninstalled`, !rel, rel && `status ${rel.status}`);
  }
  // CRD deletion finishes asynchronously (the server's finalizer first removes the stored objects; seen
  // taking over a minute on 2 cores busy with a build)
  const { waitFor } = require("./local-cluster.cjs");
  for (const [, c] of clusters) c.resources.reset();
  const crdReleases = state.filter(
    (x) => x.type === "helm_release" && x.values.chart && /karpenter-crd$/.test(x.values.chart),
  );
  for (const r of crdReleases) {
    const c = clusterOf(r, "helm");
    let left = [];
    const gone = await waitFor(
      async () => {
        const g = await c.request("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions");
        left = g.status === 200 ? g.body.items.filter((x) => /karpenter\.(sh|k8s\.aws)$/.test(x.spec.group)) : [];
        return g.status === 200 && left.length === 0;
      },
      120000,
      500,
    );
    h.check(
      `${at}: the Karpenter CRDs are gone after ${r.values.name} is destroyed`,
      gone,
      left
        .map(
          (x) =>
            `${x.metadata.name} (deletionTimestamp ${x.metadata.deletionTimestamp || "none"}, finalizers ${JSON.stringify(x.metadata.finalizers)}, ${(x.status.conditions || []).map((k) => `${k.type}=${k.status}${k.message ? ` ${k.message}` : ""}`).join("; ")})`,
        )
        .join("\n"),
    );
  }
  for (const r of state.filter((x) => x.type === "kubernetes_manifest")) {
    const c = clusterOf(r, "kubernetes");
    const m = r.values.manifest;
    const p = await objectPath(c, c.resources, m, "default");
    const g = p ? await c.request("GET", p) : { status: 404 };
    h.check(`${at}: ${m.kind}/${m.metadata.name} is gone`, g.status === 404, `GET answered ${g.status}`);
  }
  for (const r of state.filter((x) => x.type === "kubernetes_deployment_v1")) {
    const c = clusterOf(r, "kubernetes");
    const md = r.values.metadata[0];
    const g = await c.request("GET", `/apis/apps/v1/namespaces/${md.namespace}/deployments/${md.name}`);
    h.check(`${at}: Deployment ${md.namespace}/${md.name} is gone`, g.status === 404, `GET answered ${g.status}`);
  }
}

// ------------------------------------------------------------------------------------------ stages

/** `--stage cluster`: the main example, then the fleet example, each applied and destroyed whole. */
async function clusterStage(ctx, synthEnv) {
  const h = ctx.helpers;
  const v = process.env.KARPENTER_VERSION || "(default)";
  console.log(
    `\n== cluster stage: KARPENTER_VERSION ${v}, KUBERNETES_VERSION ${process.env.KUBERNETES_VERSION || "(default)"}, CLUSTER_NAME ${process.env.CLUSTER_NAME || "(default)"}`,
  );
  // E2E_CLUSTER_EXAMPLES=eks-karpenter limits a run to some examples (CI's second CRD generation runs the main one)
  const only = (process.env.E2E_CLUSTER_EXAMPLES || "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  for (const [label, app] of [
    ["eks-karpenter", "examples/eks-karpenter/main.ts"],
    ["fleet", "examples/fleet/main.ts"],
  ].filter(([l]) => !only.length || only.includes(l))) {
    const out = h.synth(app, path.join(ctx.work, "cluster-out", label), synthEnv);
    const t = Date.now();
    await applyOutput(label, out, ctx);
    // the sampler writes every 2 s: wait for its last lines before reading this example's peak
    await new Promise((r) => setTimeout(r, 2100));
    ctx.report.timings[`cluster:${label}`] = {
      seconds: Math.round((Date.now() - t) / 100) / 10,
      peakMemoryMiB: ctx.sampler && ctx.sampler.peakBetween(t, Date.now()),
    };
  }
}

/** `--apply <cdktf.out>`. */
async function applyOutputStage(ctx, out) {
  await applyOutput(path.basename(out), out, ctx);
}

/** The Karpenter version the library installs by default (for --server-validate without --karpenter-version). */
function defaultKarpenterVersion() {
  const r = spawnSync("npx", ["tsx", "-e", "process.stdout.write(require('./lib').DEFAULT_KARPENTER_VERSION)"], {
    cwd: repo,
    encoding: "utf8",
  });
  if (r.status === 0 && /^\d+\.\d+\.\d+$/.test(r.stdout.trim())) return r.stdout.trim();
  const known = sv.knownReferenceVersions();
  return known[known.length - 1];
}

/** Starts a local cluster, or reports SKIP/FAIL naming the tools it lacks; undefined then. */
async function clusterOrSkip(ctx, what, opts = {}) {
  try {
    toolBinaries();
  } catch (e) {
    if (process.env.E2E_NOT_BUILT === "skip") ctx.report.skip(what, e.message);
    else ctx.report.check(what, false, e.message);
    return undefined;
  }
  return startLocalCluster({
    workDir: path.join(ctx.work, `cluster-${Date.now()}`),
    log: (l) => console.log(`       ${l}`),
    ...opts,
  });
}

/** `--server-validate <file.yaml> [--karpenter-version X.Y.Z] [--crds reference|module]`. */
async function serverValidateStage(ctx, file) {
  const version = ctx.args.karpenterVersion || defaultKarpenterVersion();
  const objects = sv.objectsOfYaml(fs.readFileSync(file, "utf8"));
  const crds = sv.crdSource(version, ctx.args.crds, ctx.work);
  console.log(
    `\n== ${objects.length} object(s) of ${file} judged by kube-apiserver (server-side dry run) with the CRDs of ${crds.source}`,
  );
  const cluster = await clusterOrSkip(ctx, `server-validate ${path.basename(file)}`);
  if (!cluster) return;
  try {
    await cluster.applyCrds(crds.dir);
    const resources = new sv.Resources(cluster);
    for (const obj of objects) {
      const r = await sv.dryRun(cluster, resources, obj);
      const line = sv.verdictLine(obj, r);
      console.log(line);
      ctx.report.entries.push({ stage: ctx.report.stage, name: line.split(":")[0], ok: r.accepted, detail: r.message });
    }
  } finally {
    await cluster.stop();
  }
}

/**
 * `--stage agreement`: the test suite run once with the recorder on, then each distinct case judged
 * by the server holding its version's CRDs (the reference release of the same minor; `--crds module`:
 * the Go module's).
 */
async function agreementStage(ctx) {
  const cases = path.join(ctx.work, "node-cases.jsonl");
  console.log(
    `\n== agreement: every NodePool / EC2NodeClass / NodeOverlay / CapacityBuffer the test suite builds or rejects, judged by the server too`,
  );
  if (!(await canStart(ctx, "agreement: library and server verdicts"))) return;
  const t0 = Date.now();
  if (process.env.E2E_NODE_CASES) {
    // a recording made by a run of the suite already (.ci/run records during `npm test`), or kept with --keep
    fs.copyFileSync(process.env.E2E_NODE_CASES, cases);
    console.log(`       cases from E2E_NODE_CASES=${process.env.E2E_NODE_CASES} (the test suite is not run)`);
  } else {
    const jest = spawnSync("npx", ["jest", "--silent", "--ci"], {
      cwd: repo,
      encoding: "utf8",
      maxBuffer: 1 << 28,
      env: { ...process.env, E2E_RECORD_NODE_CASES: cases, FORCE_COLOR: "0" },
    });
    const tail = `${jest.stderr || ""}`
      .trim()
      .split("\n")
      .filter((l) => /^Tests:/.test(l))
      .join(" ");
    console.log(
      `       test suite run with the recorder in ${((Date.now() - t0) / 1000).toFixed(0)} s (${tail || `exit ${jest.status}`}; its own failures are npm test's to report)`,
    );
  }
  const records = fs.existsSync(cases)
    ? fs
        .readFileSync(cases, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  if (
    !ctx.report.check(
      `agreement: the test suite recorded node-object cases (${records.length})`,
      records.length > 0,
      "no case recorded: is scripts/e2e/record-node-cases.cjs in jest.config.js setupFilesAfterEnv?",
    )
  )
    return;
  const mism = records.filter((r) => r.rebuildMatches === false);
  ctx.report.check(
    `agreement: the rebuilt manifest equals the emitted one for every accepted case (${records.filter((r) => r.rebuildMatches !== undefined).length})`,
    mism.length === 0,
    mism
      .slice(0, 3)
      .map((r) => `${r.file} "${r.test}"`)
      .join("\n"),
  );
  const unique = ag.uniqueCases(records);
  // both sources by the release of the reference folder for the case's minor (the library's facts are per
  // minor), so that a run with --crds module and one without compare the same release from two sources
  const releases = sv.knownReferenceVersions();
  const results = [];
  const byRelease = new Map();
  for (const rec of unique) {
    const why = ag.exclusion(rec);
    if (why) {
      results.push({ ...rec, excluded: why });
      continue;
    }
    const rel = ag.releaseFor(rec.version, releases) || (ctx.args.crds === "module" ? rec.version : undefined);
    if (!rel) {
      results.push({ ...rec, excluded: `no CRDs for Karpenter ${rec.version}` });
      continue;
    }
    if (!byRelease.has(rel)) byRelease.set(rel, []);
    byRelease.get(rel).push(rec);
  }
  const cluster = await startLocalCluster({
    workDir: path.join(ctx.work, "agreement-cluster"),
    log: (l) => console.log(`       ${l}`),
  });
  try {
    const resources = new sv.Resources(cluster);
    const order = [...byRelease.keys()].sort((a, b) =>
      a
        .split(".")
        .map(Number)
        .reduce((x, n, i) => x || n - b.split(".").map(Number)[i], 0),
    );
    for (const rel of order) {
      let src;
      try {
        src = sv.crdSource(rel, ctx.args.crds, ctx.work);
      } catch (e) {
        if (ctx.args.crds === "module") {
          ctx.report.skip(`agreement: Karpenter ${rel} (${byRelease.get(rel).length} cases)`, e.message);
          continue;
        }
        throw e;
      }
      await cluster.applyCrds(src.dir);
      resources.reset();
      const mine = [];
      for (const rec of byRelease.get(rel)) {
        const server = await sv.dryRun(cluster, resources, rec.manifest);
        const cmp = ag.compareCase(rec, server);
        mine.push({ ...rec, release: rel, server, ...cmp });
      }
      results.push(...mine);
      const bad = mine.filter((r) => r.outcome === "disagree");
      ctx.report.check(
        `agreement: Karpenter ${rel} (${src.source}): ${mine.length - bad.length}/${mine.length} cases agree`,
        bad.length === 0,
        bad
          .slice(0, 12)
          .map((r) => `${r.kind}/${r.manifest.metadata.name} [${r.file}: ${r.test}]: ${r.detail}`)
          .join("\n"),
      );
    }
  } finally {
    await cluster.stop();
  }
  const summary = ag.summarize(results);
  const excludedWhy = {};
  for (const r of results.filter((x) => x.excluded)) {
    const k = r.excluded.replace(/: .*/, "");
    excludedWhy[k] = (excludedWhy[k] || 0) + 1;
  }
  ctx.report.agreement = {
    ...summary,
    crds: ctx.args.crds,
    recorded: records.length,
    unique: unique.length,
    excludedWhy,
    disagreements: results
      .filter((r) => r.outcome === "disagree")
      .map((r) => ({
        kind: r.kind,
        version: r.version,
        name: r.manifest.metadata.name,
        test: r.test,
        file: r.file,
        detail: r.detail,
        manifest: r.manifest,
      })),
    otherField: results
      .filter((r) => r.sameField === false)
      .map((r) => ({
        kind: r.kind,
        version: r.version,
        test: r.test,
        library: (r.problems || []).map((p) => p.field),
        server: r.server.fields,
        message: r.server.message,
      })),
  };
  console.log(
    `       ${records.length} recorded, ${unique.length} distinct; compared ${summary.cases} (both accept ${summary.bothAccept}, both reject ${summary.bothReject} — on the same field ${summary.bothRejectSameField}, the server naming another ${summary.bothRejectOtherField} — rejected by a rule beyond the CRDs ${summary.semanticByDesign}); not compared ${summary.excluded}: ${Object.entries(
      excludedWhy,
    )
      .map(([k, n]) => `${k} ${n}`)
      .join("; ")}`,
  );
  console.log(`       ${summary.line}`);
  ctx.report.check(`agreement: ${summary.line}`, summary.disagree === 0 && summary.cases > 0);
}

async function canStart(ctx, what) {
  try {
    toolBinaries();
    return true;
  } catch (e) {
    if (process.env.E2E_NOT_BUILT === "skip") ctx.report.skip(what, e.message);
    else ctx.report.check(what, false, e.message);
    return false;
  }
}

module.exports = {
  startMemorySampler,
  readStacks,
  apiKey,
  apiKeys,
  leaveOut,
  stackOverride,
  tokenExec,
  contains,
  NOT_EMULATED,
  motoLeftovers,
  clusterStage,
  applyOutputStage,
  serverValidateStage,
  agreementStage,
  applyOutput,
  readTools,
};
