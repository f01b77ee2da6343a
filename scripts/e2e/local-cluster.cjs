// A local Kubernetes API server for e2e: etcd + kube-apiserver (built by scripts/tools/build.sh from the
// Go module proxy) on 127.0.0.1, free ports, certificates and a token made for this run, a scratch data
// directory; stopped and removed afterwards, also when the process dies of an error or a signal.
//
// There is no controller-manager, scheduler or kubelet: objects are stored and validated (schemas, CEL,
// admission), nothing reconciles them. That is what the e2e needs: does the server accept what we emit.
//
//   const { startLocalCluster } = require("./local-cluster.cjs");
//   const c = await startLocalCluster({ kubernetesVersion: "1.36" });
//   await c.applyCrds("/path/to/crds");            // a folder of YAML, YAML text, or CRD objects
//   const r = await c.request("POST", "/apis/karpenter.sh/v1/nodepools", obj, { query: { dryRun: "All" } });
//   await c.stop();
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const net = require("net");
const https = require("https");
const nodeCrypto = require("crypto");
const { spawn, spawnSync } = require("child_process");
const YAML = require("yaml");

const repo = path.resolve(__dirname, "../..");
const toolsDir = () =>
  process.env.CDKTF_EKS_KARPENTER_TOOLS ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "cdktf-eks-karpenter", "tools");

/** The tools of versions.txt: name -> { module, version, release, bin }. */
function readTools() {
  const tools = {};
  for (const line of fs.readFileSync(path.join(repo, "scripts/tools/versions.txt"), "utf8").split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const [name, module, version, , binary, release] = line.trim().split(/\s+/);
    tools[name] = { module, version, release, bin: path.join(toolsDir(), `${name}-${version}`, binary) };
  }
  return tools;
}

/** Paths of the built kube-apiserver and etcd; throws naming each one that is not built. */
function toolBinaries() {
  const tools = readTools();
  const missing = ["kube-apiserver", "etcd"].filter((n) => !tools[n] || !fs.existsSync(tools[n].bin));
  if (missing.length) {
    throw new Error(
      `local cluster needs ${missing.map((n) => (tools[n] ? `${n} ${tools[n].module}@${tools[n].version}` : n)).join(" and ")}, not built (bash scripts/tools/build.sh ${missing.join(" ")})`,
    );
  }
  return {
    kubeApiserver: tools["kube-apiserver"].bin,
    etcd: tools.etcd.bin,
    versions: { kubeApiserver: tools["kube-apiserver"].release, etcd: tools.etcd.release },
  };
}

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
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function openssl(args, cwd) {
  const r = spawnSync("openssl", args, { cwd, encoding: "utf8" });
  if (r.error)
    throw new Error(`openssl: ${r.error.message} (the local cluster makes its certificates with the openssl command)`);
  if (r.status !== 0) throw new Error(`openssl ${args.join(" ")}: ${r.stderr}`);
}

/**
 * A CA and a serving certificate for 127.0.0.1 (and the in-cluster names, which nothing here dials but
 * clients built for a cluster may check), plus the service-account signing key pair. EC P-256: key
 * generation takes milliseconds, where RSA 2048 takes a visible fraction of a second each.
 */
function makePki(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const ext = path.join(dir, "server.ext");
  fs.writeFileSync(
    ext,
    [
      "basicConstraints=CA:FALSE",
      "keyUsage=digitalSignature,keyEncipherment",
      "extendedKeyUsage=serverAuth",
      "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local",
      "",
    ].join("\n"),
  );
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(
    [
      "req",
      "-x509",
      ...ec,
      "-keyout",
      "ca.key",
      "-out",
      "ca.crt",
      "-days",
      "2",
      "-subj",
      "/CN=cdktf-eks-karpenter-e2e-ca",
    ],
    dir,
  );
  openssl(["req", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=kube-apiserver"], dir);
  openssl(
    [
      "x509",
      "-req",
      "-in",
      "server.csr",
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      "server.crt",
      "-days",
      "2",
      "-extfile",
      "server.ext",
    ],
    dir,
  );
  const { privateKey, publicKey } = nodeCrypto.generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  fs.writeFileSync(path.join(dir, "sa.key"), privateKey.export({ type: "pkcs8", format: "pem" }));
  fs.writeFileSync(path.join(dir, "sa.pub"), publicKey.export({ type: "spki", format: "pem" }));
  return {
    ca: path.join(dir, "ca.crt"),
    cert: path.join(dir, "server.crt"),
    key: path.join(dir, "server.key"),
    saKey: path.join(dir, "sa.key"),
    saPub: path.join(dir, "sa.pub"),
  };
}

/** Clusters still running in this process; stopped on exit and on the signals that end an e2e run. */
const running = new Set();
let hooked = false;
function hookExit() {
  if (hooked) return;
  hooked = true;
  // synchronous: an 'exit' handler cannot wait, so kill and remove without awaiting
  process.on("exit", () => {
    for (const c of running) c.stopSync();
  });
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.once(sig, () => {
      for (const c of running) c.stopSync();
      process.exit(128 + (sig === "SIGINT" ? 2 : sig === "SIGTERM" ? 15 : 1));
    });
  }
}

function killTree(proc) {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  // each server runs in its own process group (detached), so its children go with it
  try {
    process.kill(-proc.pid, "SIGKILL");
  } catch {
    try {
      proc.kill("SIGKILL");
    } catch {
      /* gone */
    }
  }
}

/**
 * Starts etcd and kube-apiserver; resolves when /readyz answers ok.
 * @param {{workDir?: string, kubernetesVersion?: string, log?: (line: string) => void, keep?: boolean}} opts
 */
async function startLocalCluster(opts = {}) {
  const { kubernetesVersion = "1.36", log = () => {} } = opts;
  const bins = toolBinaries();
  const built = bins.versions.kubeApiserver.split(".").slice(0, 2).join(".");
  if (built !== kubernetesVersion) {
    // one server build serves every Karpenter version: the CRDs are what differs. A caller asking for
    // another minor learns that the answers come from this one.
    log(
      `local cluster: kube-apiserver ${bins.versions.kubeApiserver} serves the request for Kubernetes ${kubernetesVersion}`,
    );
  }
  const workDir = opts.workDir || fs.mkdtempSync(path.join(os.tmpdir(), "cdktf-eks-karpenter-cluster-"));
  const ownsWorkDir = !opts.workDir;
  fs.mkdirSync(workDir, { recursive: true });
  const started = Date.now();
  const pki = makePki(path.join(workDir, "pki"));
  const token = nodeCrypto.randomBytes(24).toString("hex");
  const tokenFile = path.join(workDir, "tokens.csv");
  // token,user,uid,"groups": system:masters is what cluster-admin is bound to on a real cluster
  fs.writeFileSync(tokenFile, `${token},e2e-admin,e2e-admin,"system:masters"\n`, { mode: 0o600 });
  const [etcdClient, etcdPeer, securePort] = await Promise.all([freePort(), freePort(), freePort()]);

  const procs = [];
  const logs = {};
  let stopped = false;
  const cluster = {
    server: `https://127.0.0.1:${securePort}`,
    caFile: pki.ca,
    caData: Buffer.from(fs.readFileSync(pki.ca)).toString("base64"),
    token,
    kubeconfig: path.join(workDir, "kubeconfig"),
    workDir,
    kubernetesVersion: bins.versions.kubeApiserver,
    logs,
    stopSync() {
      if (stopped) return;
      stopped = true;
      running.delete(cluster);
      for (const p of procs.reverse()) killTree(p);
      if (ownsWorkDir && !opts.keep) fs.rmSync(workDir, { recursive: true, force: true });
    },
    async stop() {
      if (stopped) return;
      const exited = procs.map((p) =>
        p.exitCode !== null || p.signalCode !== null ? Promise.resolve() : new Promise((r) => p.once("exit", r)),
      );
      cluster.stopSync();
      await Promise.race([Promise.all(exited), sleep(5000)]);
    },
  };
  cluster.request = requestImpl;
  cluster.applyCrds = (input) => applyCrdsImpl(cluster, input);
  running.add(cluster);
  hookExit();

  const launch = (name, bin, args) => {
    logs[name] = path.join(workDir, `${name}.log`);
    const out = fs.openSync(logs[name], "w");
    const p = spawn(bin, args, { stdio: ["ignore", out, out], detached: true });
    fs.closeSync(out);
    procs.push(p);
    return p;
  };
  const tail = (name) => {
    try {
      return fs.readFileSync(logs[name], "utf8").trim().split("\n").slice(-15).join("\n");
    } catch {
      return "";
    }
  };

  try {
    const etcd = launch("etcd", bins.etcd, [
      "--name",
      "e2e",
      "--data-dir",
      path.join(workDir, "etcd"),
      "--listen-client-urls",
      `http://127.0.0.1:${etcdClient}`,
      "--advertise-client-urls",
      `http://127.0.0.1:${etcdClient}`,
      "--listen-peer-urls",
      `http://127.0.0.1:${etcdPeer}`,
      "--initial-advertise-peer-urls",
      `http://127.0.0.1:${etcdPeer}`,
      "--initial-cluster",
      `e2e=http://127.0.0.1:${etcdPeer}`,
      // a throw-away store: durability buys nothing and fsync costs seconds per apply
      "--unsafe-no-fsync",
      "--log-level",
      "warn",
    ]);
    const ready = await waitFor(async () => {
      if (etcd.exitCode !== null) throw new Error(`etcd exited with ${etcd.exitCode}:\n${tail("etcd")}`);
      return (await plainGet(`http://127.0.0.1:${etcdClient}/health`)) === 200;
    }, 30000);
    if (!ready) throw new Error(`etcd did not become healthy on 127.0.0.1:${etcdClient} in 30 s:\n${tail("etcd")}`);

    const api = launch("kube-apiserver", bins.kubeApiserver, [
      `--etcd-servers=http://127.0.0.1:${etcdClient}`,
      "--bind-address=127.0.0.1",
      `--secure-port=${securePort}`,
      "--advertise-address=127.0.0.1",
      `--cert-dir=${path.join(workDir, "certs")}`,
      `--tls-cert-file=${pki.cert}`,
      `--tls-private-key-file=${pki.key}`,
      `--client-ca-file=${pki.ca}`,
      `--token-auth-file=${tokenFile}`,
      // AlwaysAllow: the e2e asks whether objects are valid, not who may write them, and the one
      // identity is system:masters anyway (which RBAC lets do everything); RBAC objects the charts
      // create are still stored and validated. The server listens on loopback only.
      "--authorization-mode=AlwaysAllow",
      `--service-account-key-file=${pki.saPub}`,
      `--service-account-signing-key-file=${pki.saKey}`,
      "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
      // an address range the server allocates Service IPs from; nothing listens there
      "--service-cluster-ip-range=10.96.0.0/16",
      // no Endpoints for the `kubernetes` Service: it would point at 127.0.0.1, which the server rejects noisily
      "--endpoint-reconciler-type=none",
      "--shutdown-delay-duration=0s",
      "--profiling=false",
      "--allow-privileged=true",
      "--v=0",
    ]);
    const up = await waitFor(async () => {
      if (api.exitCode !== null)
        throw new Error(`kube-apiserver exited with ${api.exitCode}:\n${tail("kube-apiserver")}`);
      try {
        return (await cluster.request("GET", "/readyz")).status === 200;
      } catch {
        return false;
      }
    }, 90000);
    if (!up) throw new Error(`kube-apiserver not ready on ${cluster.server} in 90 s:\n${tail("kube-apiserver")}`);
    // the bootstrap controllers create the default namespaces right after /readyz; Helm's kube-system install needs it
    await waitFor(async () => (await cluster.request("GET", "/api/v1/namespaces/kube-system")).status === 200, 30000);
  } catch (e) {
    await cluster.stop();
    throw e;
  }

  fs.writeFileSync(
    cluster.kubeconfig,
    YAML.stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "e2e", cluster: { server: cluster.server, "certificate-authority": cluster.caFile } }],
      users: [{ name: "e2e-admin", user: { token } }],
      contexts: [{ name: "e2e", context: { cluster: "e2e", user: "e2e-admin" } }],
      "current-context": "e2e",
    }),
    { mode: 0o600 },
  );
  log(
    `local cluster: kube-apiserver ${bins.versions.kubeApiserver} + etcd ${bins.versions.etcd} at ${cluster.server} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  return cluster;

  // ---- the JSON client and CRD helper, closed over this cluster
  /**
   * A connection the server dropped (seen under heavy CPU load: "socket hang up") is tried again, twice;
   * an HTTP answer, whatever its status, is returned as it is.
   */
  async function requestImpl(method, p, body, opts = {}) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await requestOnce(method, p, body, opts);
      } catch (e) {
        if (attempt >= 3 || stopped)
          throw new Error(`${method} ${p}: ${e.message} (after ${attempt} attempts)`, { cause: e });
        await sleep(1000 * attempt);
      }
    }
  }
  function requestOnce(method, p, body, { query, contentType } = {}) {
    const qs = query ? `?${new URLSearchParams(query)}` : "";
    const data = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = https.request(
        `${cluster.server}${p}${qs}`,
        {
          method,
          ca: fs.readFileSync(pki.ca),
          // a fresh connection each time: no kept-alive socket the server may have closed meanwhile
          agent: false,
          headers: {
            Authorization: `Bearer ${token}`,
            Accept: "application/json",
            ...(data !== undefined
              ? { "Content-Type": contentType || "application/json", "Content-Length": Buffer.byteLength(data) }
              : {}),
          },
          timeout: 60000,
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (c) => {
            text += c;
          });
          res.on("end", () => {
            let parsed = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              /* not JSON: /readyz says "ok" */
            }
            resolve({ status: res.statusCode, body: parsed });
          });
        },
      );
      req.on("timeout", () => req.destroy(new Error(`${method} ${p}: no answer in 60 s`)));
      req.on("error", reject);
      if (data !== undefined) req.write(data);
      req.end();
    });
  }
}

/** Polls `fn` until it returns true or `ms` pass; an exception from `fn` ends the wait with it. */
async function waitFor(fn, ms, every = 200) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return true;
    await sleep(every);
  }
  return false;
}

function plainGet(url) {
  return new Promise((resolve) => {
    require("http")
      .get(url, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
      .on("error", () => resolve(0));
  });
}

/** CRD objects from a folder of YAML files, one YAML text, one object, or an array of those. */
function crdObjects(input) {
  if (Array.isArray(input)) return input.flatMap(crdObjects);
  if (input && typeof input === "object") return [input];
  if (typeof input !== "string") throw new Error("applyCrds: expected a folder, YAML text or CRD objects");
  if (!input.includes("\n") && fs.existsSync(input)) {
    const st = fs.statSync(input);
    const files = st.isDirectory()
      ? fs
          .readdirSync(input)
          .filter((f) => /\.ya?ml$/.test(f))
          .sort()
          .map((f) => path.join(input, f))
      : [input];
    return files.flatMap((f) => crdObjects(fs.readFileSync(f, "utf8")));
  }
  return YAML.parseAllDocuments(input)
    .map((d) => d.toJS())
    .filter((o) => o && o.kind === "CustomResourceDefinition");
}

/** Creates or replaces each CRD, then waits until every one is Established and its resource is served. */
async function applyCrdsImpl(cluster, input) {
  const crds = crdObjects(input);
  if (!crds.length) throw new Error("applyCrds: no CustomResourceDefinition found");
  const base = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  for (const crd of crds) {
    const name = crd.metadata.name;
    const body = { ...crd, metadata: { ...crd.metadata } };
    delete body.status;
    const got = await cluster.request("GET", `${base}/${name}`);
    let r;
    if (got.status === 200) {
      body.metadata.resourceVersion = got.body.metadata.resourceVersion;
      r = await cluster.request("PUT", `${base}/${name}`, body);
    } else {
      r = await cluster.request("POST", base, body);
    }
    if (r.status >= 300)
      throw new Error(`CRD ${name}: ${r.status} ${(r.body && r.body.message) || JSON.stringify(r.body)}`);
  }
  for (const crd of crds) {
    const name = crd.metadata.name;
    const ok = await waitFor(async () => {
      const r = await cluster.request("GET", `${base}/${name}`);
      const conds = (r.body && r.body.status && r.body.status.conditions) || [];
      if (!conds.some((c) => c.type === "Established" && c.status === "True")) return false;
      // Established can precede the storage version's handler by a moment; a list answering 200 is the proof
      const v = (crd.spec.versions.find((x) => x.storage) || crd.spec.versions[0]).name;
      return (
        (await cluster.request("GET", `/apis/${crd.spec.group}/${v}/${crd.spec.names.plural}?limit=1`)).status === 200
      );
    }, 30000);
    if (!ok) throw new Error(`CRD ${name} not Established in 30 s`);
  }
}

module.exports = { startLocalCluster, toolBinaries, readTools, crdObjects, waitFor };
