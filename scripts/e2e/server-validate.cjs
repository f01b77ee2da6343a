// Objects judged by a real API server: server-side dry run (`?dryRun=All`) against a local cluster
// (local-cluster.cjs) holding one Karpenter release's CRDs.
//
// `fieldValidation=Strict`: a field the CRD does not know is an error, not silently pruned. The library
// refuses such fields too (a misspelt or too-new field would vanish at apply), so the two verdicts are
// comparable; a server without it would "accept" objects whose fields it then drops.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawnSync } = require("child_process");
const YAML = require("yaml");
const { referenceRelease } = require("./reference-release.cjs");

const repo = path.resolve(__dirname, "../..");
const reference = path.resolve(repo, "..", "shared", "reference", "karpenter");
const KARPENTER_MODULE = "github.com/aws/karpenter-provider-aws";

/**
 * The folder holding a release's CRD YAML files.
 * - `reference`: ../shared/reference/karpenter/v<version>/charts/karpenter/crds (what the charts install); for a
 *   patch without artefact changes, the folder of the earlier patch that stands for it (reference-release.cjs)
 * - `module`: pkg/apis/crds of the Go module github.com/aws/karpenter-provider-aws@v<version>, fetched
 *   with `go mod download` (no build). When the go command refuses to extract the module (its go.mod
 *   asks for a newer Go than the one here: v1.15.0 says go >= 1.26.9), the zip it has already fetched
 *   and checked against go.sum's database (the .ziphash beside it) is read instead.
 * @returns {{dir: string, source: string, note?: string}}
 */
function crdSource(version, source = "reference", scratch = os.tmpdir()) {
  if (source === "reference") {
    // a patch without artefact changes (the default, 1.15.3) has no folder: the earlier patch that stands for it, as every stage maps it
    const ref = referenceRelease(reference, version);
    const dir = ref && path.join(ref.dir, "charts", "karpenter", "crds");
    if (!dir || !fs.existsSync(dir))
      throw new Error(
        `no reference CRDs for Karpenter ${version}: ${path.join(reference, `v${version}`, "charts", "karpenter", "crds")} is missing, and no earlier ${version.split(".").slice(0, 2).join(".")} patch has a folder (known: ${knownReferenceVersions().join(", ")})`,
      );
    return ref.exact
      ? { dir, source: `reference v${version}/charts/karpenter/crds` }
      : { dir, source: `reference v${ref.version}/charts/karpenter/crds (${ref.note})`, note: ref.note };
  }
  if (source !== "module") throw new Error(`--crds ${source}: expected reference or module`);
  const at = `${KARPENTER_MODULE}@v${version}`;
  const r = spawnSync("go", ["mod", "download", "-json", at], {
    encoding: "utf8",
    env: { ...process.env, GOFLAGS: "" },
  });
  if (r.error) throw new Error(`--crds module needs the go command: ${r.error.message}`);
  let info;
  try {
    info = JSON.parse(r.stdout);
  } catch {
    throw new Error(`go mod download ${at}: ${r.stderr || r.stdout}`);
  }
  if (info.Dir && fs.existsSync(path.join(info.Dir, "pkg/apis/crds")))
    return { dir: path.join(info.Dir, "pkg/apis/crds"), source: `Go module ${at}` };
  if (info.Zip && fs.existsSync(info.Zip) && fs.existsSync(info.Zip.replace(/\.zip$/, ".ziphash"))) {
    const dest = path.join(scratch, `karpenter-module-crds-${version}`);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.mkdirSync(dest, { recursive: true });
    const u = spawnSync("unzip", ["-q", "-j", "-o", info.Zip, `${at}/pkg/apis/crds/*.yaml`, "-d", dest], {
      encoding: "utf8",
    });
    if (u.status !== 0) throw new Error(`unzip of ${info.Zip}: ${u.stderr}`);
    return {
      dir: dest,
      source: `Go module ${at} (read from its verified zip: go mod download said "${info.Error}")`,
      note: info.Error,
    };
  }
  throw new Error(`go mod download ${at}: ${info.Error || r.stderr}`);
}

function knownReferenceVersions() {
  if (!fs.existsSync(reference)) return [];
  return fs
    .readdirSync(reference)
    .filter((d) => /^v\d+\.\d+\.\d+$/.test(d))
    .map((d) => d.slice(1))
    .sort((a, b) =>
      a
        .split(".")
        .map(Number)
        .reduce((x, n, i) => x || n - b.split(".").map(Number)[i], 0),
    );
}

/** Resource paths per apiVersion, from the server's discovery (built-ins and CRDs alike). */
class Resources {
  constructor(cluster) {
    this.cluster = cluster;
    this.byGv = new Map();
  }
  /** Forget discovery answers: after CRDs changed. */
  reset() {
    this.byGv.clear();
  }
  async lookup(apiVersion, kind) {
    if (!this.byGv.has(apiVersion)) {
      const p = apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
      const r = await this.cluster.request("GET", p);
      this.byGv.set(apiVersion, r.status === 200 ? r.body.resources : []);
    }
    const res = this.byGv.get(apiVersion).find((x) => x.kind === kind && !x.name.includes("/"));
    if (!res) return undefined;
    const base = apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    return { base, plural: res.name, namespaced: res.namespaced };
  }
}

/**
 * Submits one object with `dryRun=All`: nothing is stored. Namespaced objects without a namespace go
 * to `default`, as kubectl would send them.
 * @returns {Promise<{accepted: boolean, message?: string, status: number}>}
 */
async function dryRun(cluster, resources, obj) {
  const kind = obj && obj.kind;
  if (!obj || typeof obj !== "object" || !obj.apiVersion || !kind)
    return { accepted: false, status: 0, message: "not a Kubernetes object (apiVersion and kind are required)" };
  const res = await resources.lookup(obj.apiVersion, kind);
  if (!res)
    return {
      accepted: false,
      status: 404,
      message: `the server has no resource for ${obj.apiVersion} ${kind} (are the CRDs of this release installed?)`,
    };
  const ns = res.namespaced ? (obj.metadata && obj.metadata.namespace) || "default" : undefined;
  if (ns) await ensureNamespace(cluster, ns);
  const p = `${res.base}${ns ? `/namespaces/${encodeURIComponent(ns)}` : ""}/${res.plural}`;
  const r = await cluster.request("POST", p, obj, { query: { dryRun: "All", fieldValidation: "Strict" } });
  if (r.status >= 200 && r.status < 300) return { accepted: true, status: r.status };
  const message = (r.body && r.body.message) || (typeof r.body === "string" ? r.body : JSON.stringify(r.body));
  // the fields the server names: its causes, and strict decoding's `unknown field "spec.x"` (which has none)
  const causes = ((r.body && r.body.details && r.body.details.causes) || []).map((c) => c.field).filter(Boolean);
  for (const m of String(message).matchAll(/unknown field "([^"]+)"/g)) causes.push(m[1]);
  return { accepted: false, status: r.status, message, fields: causes };
}

/** Namespaces created on a cluster for the objects judged there (a set per cluster object). */
const createdNamespaces = new WeakMap();

/**
 * Creates namespace `ns` when it is a valid name the server lacks: the library checks a namespaced object's
 * namespace name, not whether the namespace exists (the app may create it, or it exists already in the real
 * cluster), while the server's NamespaceLifecycle admission refuses objects in a missing namespace even in a dry
 * run. An invalid name is left for the server to refuse.
 */
async function ensureNamespace(cluster, ns) {
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(ns) || ns.length > 63) return;
  const done = createdNamespaces.get(cluster) || new Set(["default", "kube-system", "kube-public"]);
  createdNamespaces.set(cluster, done);
  if (done.has(ns)) return;
  const got = await cluster.request("GET", `/api/v1/namespaces/${ns}`);
  if (got.status === 404)
    await cluster.request("POST", "/api/v1/namespaces", {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: ns },
    });
  done.add(ns);
}

/** `accepted <Kind>/<name>` or `rejected <Kind>/<name>: <message>`: the line --server-validate prints. */
function verdictLine(obj, result) {
  const id = `${(obj && obj.kind) || "?"}/${(obj && obj.metadata && obj.metadata.name) || "?"}`;
  return result.accepted
    ? `accepted ${id}`
    : `rejected ${id}: ${String(result.message || "").replace(/\s*\n\s*/g, " ")}`;
}

/** The objects of a YAML file (multi-document; empty documents and `List` wrappers are unfolded). */
function objectsOfYaml(text) {
  const out = [];
  for (const doc of YAML.parseAllDocuments(text)) {
    if (doc.errors && doc.errors.length) throw new Error(`YAML: ${doc.errors[0].message}`);
    const o = doc.toJS();
    if (o === null || o === undefined) continue;
    if (o.kind && /List$/.test(o.kind) && Array.isArray(o.items)) out.push(...o.items);
    else out.push(o);
  }
  return out;
}

module.exports = {
  crdSource,
  knownReferenceVersions,
  Resources,
  dryRun,
  ensureNamespace,
  verdictLine,
  objectsOfYaml,
  KARPENTER_MODULE,
};
