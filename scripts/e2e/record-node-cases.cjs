// Jest setup file (jest.config.js setupFilesAfterEnv): with E2E_RECORD_NODE_CASES=<file.jsonl>, every
// NodePool, Ec2NodeClass, NodeOverlay and CapacityBuffer construction the test suite attempts is appended to that file as one JSON
// line: the object it would emit, the Karpenter version, and the library's verdict with each problem
// and whether the CRD rules or the semantic rules (lib's node-semantic-rules) raised it. The
// `--stage agreement` e2e step submits each case to a local API server holding that version's CRDs.
// Without the variable this file does nothing: the suite runs as always.
//
// How the cases get out without touching the tests (which are being moved): the two classes are
// replaced (the four classes), for the test run only, by subclasses of themselves (jest.mock of the module that defines
// them, found by content so that moving files does not break it). The subclass calls the real
// constructor and records what it built or why it threw. Problems are attributed by the Checker that
// collected them: the first collecting Checker of a construction holds the CRD rules, a later one the
// semantic rules (checkCrdThenSemantics), none at all a construct-level error (provider, version,
// missing node class) that no manifest corresponds to.
//
// A rejected construction emits nothing, so its manifest is rebuilt here from the props with the same
// defaults the constructors add (capacity-type requirement, consolidateAfter, default AMI alias,
// discovery terms, node role) and lib's own props-to-manifest mapping (nodePoolSpecObject; nodeClassSpecObject: the
// kubelet's maxPodsExpression is the manifest's kubelet.maxPods; a NodeOverlay's or CapacityBuffer's spec is
// the props named as its CRD's spec fields in the generated table, objectCrd). For every accepted construction
// the rebuild is compared with the real manifest, and the record says whether they matched: that is
// the evidence the rebuild is right.
"use strict";
const fs = require("fs");
const path = require("path");
const { libFinder, startRecorder } = require("./recorder.cjs");

startRecorder("E2E_RECORD_NODE_CASES", install);

function install(file) {
  const find = libFinder("record-node-cases");
  const files = {
    nodePool: find(/^export class NodePool extends/m),
    nodeClass: find(/^export class Ec2NodeClass extends/m),
    checker: find(/^export class Checker\b/m),
    manifests: find(/^export function specObject\b/m),
    aliases: find(/^export function aliasFamilyOf\b/m),
    nodeOverlay: find(/^export class NodeOverlay extends/m),
    capacityBuffer: find(/^export class CapacityBuffer extends/m),
    versions: find(/^export function objectCrd\b/m),
  };
  const { Checker, nameFromId } = jest.requireActual(files.checker);
  const { specObject, nodeClassSpecObject, nodePoolSpecObject } = jest.requireActual(files.manifests);
  for (const [name, f] of Object.entries({ nodeClassSpecObject, nodePoolSpecObject }))
    if (typeof f !== "function")
      throw new Error(
        `record-node-cases: ${path.relative(path.resolve(__dirname, "../../lib"), files.manifests)} exports no ${name}`,
      );
  const { aliasFamilyOf } = jest.requireActual(files.aliases);
  const { objectCrd } = jest.requireActual(files.versions);
  const { Token } = jest.requireActual("cdktf");

  /** Attempts under way (a construction may construct others). */
  const stack = [];
  const TAG = Symbol("e2e checker");
  const guard = Checker.prototype.guard;
  Checker.prototype.guard = function (check) {
    const top = stack[stack.length - 1];
    if (top && this.collecting && !top.checkers.includes(this)) top.checkers.push(this);
    return guard.call(this, () => {
      try {
        check();
      } catch (e) {
        if (e && typeof e === "object" && !e[TAG]) e[TAG] = this;
        throw e;
      }
    });
  };
  const fields = Checker.prototype.fields;
  Checker.prototype.fields = function (field, obj, allowed, what) {
    const top = stack[stack.length - 1];
    if (top && field === "" && /Props$/.test(what) && top.options === undefined) {
      top.options = obj;
      top.version = this.version.full;
    }
    return fields.call(this, field, obj, allowed, what);
  };

  const write = (rec) => fs.appendFileSync(file, `${JSON.stringify(rec)}\n`);
  const testInfo = () => {
    try {
      const s = expect.getState();
      return { test: s.currentTestName, file: path.relative(path.resolve(__dirname, "../.."), s.testPath || "") };
    } catch {
      return {};
    }
  };
  const hasToken = (v) => {
    if (typeof v === "string" || typeof v === "number") return Token.isUnresolved(v);
    if (Array.isArray(v)) return Token.isUnresolved(v) || v.some(hasToken);
    if (v && typeof v === "object")
      return (
        Token.isUnresolved(v) || Object.keys(v).some((k) => Token.isUnresolved(k)) || Object.values(v).some(hasToken)
      );
    return false;
  };
  // tokens the constructor itself put in (the installation's node role name, the cluster name in the
  // discovery terms) stand for literals known at apply: each becomes "e2e-token", a value every field
  // they land in accepts, so the rest of the object can still be judged. Tokens in the props are the
  // user's: the library does not judge them, and such a case is not compared (optionTokens).
  const untoken = (v) => {
    if (typeof v === "string")
      return Token.isUnresolved(v) ? v.replace(/\$\{TfToken\[[^\]]+\]\}|#\{TfToken\[[^\]]+\]\}/g, "e2e-token") : v;
    if (typeof v === "number") return Token.isUnresolved(v) ? 1 : v;
    if (Array.isArray(v)) return v.map(untoken);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [untoken(k), untoken(x)]));
    return v;
  };
  const plain = (v) =>
    JSON.parse(
      JSON.stringify(v === undefined ? null : v, (_k, x) =>
        typeof x === "number" && !Number.isFinite(x) ? `non-finite ${x}` : x,
      ),
    );

  function record(kind, attempt, scope, id, props, built, error) {
    const rec = {
      kind,
      version: attempt.version,
      where: scope && scope.node ? (scope.node.path ? `${scope.node.path}/${id}` : id) : String(id),
      ...testInfo(),
    };
    let rebuilt;
    try {
      rebuilt = attempt.options !== undefined ? rebuild(kind, id, attempt.options, props, attempt.version) : undefined;
    } catch (e) {
      rec.rebuildError = e.message;
    }
    rec.optionTokens = attempt.options !== undefined && hasToken(attempt.options);
    if (built) {
      rec.verdict = "accepted";
      const m = built.manifest && built.manifest._manifest;
      rec.tokens = hasToken(m);
      rec.manifest = plain(untoken(m));
      if (rebuilt && !rec.optionTokens)
        rec.rebuildMatches = JSON.stringify(plain(untoken(rebuilt))) === JSON.stringify(rec.manifest);
    } else {
      rec.verdict = "rejected";
      const problems = (error && error.problems) || [error];
      const crd = attempt.checkers[0];
      rec.problems = problems.map((p) => ({
        field: p && p.field,
        message: p && p.message,
        rule: !p || !p[TAG] ? "construct" : p[TAG] === crd ? "crd" : "semantic",
      }));
      if (!(error && error.problems)) rec.problems[0].message = String(error && error.message);
      if (rebuilt && !rec.optionTokens) {
        rec.tokens = hasToken(rebuilt);
        rec.manifest = plain(untoken(rebuilt));
      }
    }
    if (!rec.version)
      rec.version =
        props && typeof props === "object" ? props.version || (props.karpenter && props.karpenter.version) : undefined;
    write(rec);
  }

  // ---- the manifests the constructors would emit (see the file comment)
  const CAPACITY = "karpenter.sh/capacity-type";
  /** The CRDs read from the generated table: the data key, apiVersion and whether namespaced. */
  const TABLE_KINDS = {
    NodeOverlay: { key: "nodeOverlay", apiVersion: "karpenter.sh/v1alpha1" },
    CapacityBuffer: { key: "capacityBuffer", apiVersion: "autoscaling.x-k8s.io/v1beta1", namespaced: true },
  };
  function rebuild(kind, id, options, props, version) {
    const name = options.name !== undefined ? options.name : nameFromId(id);
    if (TABLE_KINDS[kind]) {
      const t = TABLE_KINDS[kind];
      const minor = String(version).split(".").slice(0, 2).join(".");
      const crd = objectCrd(minor, t.key);
      const fields = crd.fields.filter((f) => /^spec\.[^.[]+$/.test(f)).map((f) => f.slice("spec.".length));
      const spec = Object.fromEntries(fields.map((f) => [f, options[f]]));
      const metadata = t.namespaced ? { name, namespace: options.namespace ?? "default" } : { name };
      return { apiVersion: t.apiVersion, kind, metadata, spec: specObject(spec) };
    }
    if (kind === "NodePool") {
      const nc = props.nodeClass;
      const own = nc && nc.constructor && nc.manifest !== undefined && nc.spec !== undefined;
      const ref = own
        ? { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: nc.name }
        : { group: nc.group ?? "karpenter.k8s.aws", kind: nc.kind ?? "EC2NodeClass", name: nc.name };
      let requirements = options.requirements ?? [];
      if (Array.isArray(requirements)) {
        const named =
          requirements.some((r) => r && r.key === CAPACITY) ||
          (options.labels &&
            typeof options.labels === "object" &&
            options.labels[CAPACITY] !== undefined &&
            options.labels[CAPACITY] !== null);
        if (!named) requirements = [...requirements, { key: CAPACITY, operator: "In", values: ["on-demand"] }];
      }
      const d = options.disruption;
      const disruption =
        d &&
        typeof d === "object" &&
        !Array.isArray(d) &&
        (d.consolidateAfter === undefined || d.consolidateAfter === null)
          ? { ...d, consolidateAfter: "0s" }
          : d;
      return {
        apiVersion: "karpenter.sh/v1",
        kind: "NodePool",
        metadata: { name },
        spec: nodePoolSpecObject(options, ref, requirements, disruption),
      };
    }
    const karpenter = props.karpenter;
    const cluster = props.cluster ?? (karpenter && karpenter.cluster);
    const tagKey = props.discoveryTagKey ?? (karpenter && karpenter.discoveryTagKey) ?? "karpenter.sh/discovery";
    const discovery = cluster ? [{ tags: { [tagKey]: cluster.clusterName } }] : undefined;
    let ami = options.amiSelectorTerms;
    if (ami === undefined) {
      const f = options.amiFamily;
      ami =
        f === undefined
          ? [{ alias: "al2023@latest" }]
          : f === "Custom"
            ? undefined
            : aliasFamilyOf(f) === undefined
              ? undefined
              : [{ alias: `${aliasFamilyOf(f)}@latest` }];
    }
    const { name: _n, ...rest } = options;
    return {
      apiVersion: "karpenter.k8s.aws/v1",
      kind: "EC2NodeClass",
      metadata: { name },
      spec: nodeClassSpecObject({
        ...rest,
        role: options.role ?? (options.instanceProfile === undefined ? karpenter && karpenter.nodeRoleName : undefined),
        amiSelectorTerms: ami,
        subnetSelectorTerms: options.subnetSelectorTerms ?? discovery,
        securityGroupSelectorTerms: options.securityGroupSelectorTerms ?? discovery,
      }),
    };
  }

  const wrap = (kind, Real) => {
    // same name, so messages and snapshots that print constructor names do not change
    const W = {
      [Real.name]: class extends Real {
        constructor(scope, id, props) {
          const attempt = { checkers: [] };
          stack.push(attempt);
          try {
            super(scope, id, props);
          } catch (e) {
            stack.pop();
            try {
              record(kind, attempt, scope, id, props, undefined, e);
            } catch (r) {
              write({ kind, recordError: String(r && r.stack) });
            }
            throw e;
          }
          stack.pop();
          try {
            record(kind, attempt, scope, id, props, this);
          } catch (r) {
            write({ kind, recordError: String(r && r.stack) });
          }
        }
      },
    }[Real.name];
    return W;
  };
  jest.mock(files.nodePool, () => {
    const real = jest.requireActual(files.nodePool);
    return { __esModule: true, ...real, NodePool: wrap("NodePool", real.NodePool) };
  });
  jest.mock(files.nodeClass, () => {
    const real = jest.requireActual(files.nodeClass);
    return { __esModule: true, ...real, Ec2NodeClass: wrap("EC2NodeClass", real.Ec2NodeClass) };
  });
  jest.mock(files.nodeOverlay, () => {
    const real = jest.requireActual(files.nodeOverlay);
    return { __esModule: true, ...real, NodeOverlay: wrap("NodeOverlay", real.NodeOverlay) };
  });
  jest.mock(files.capacityBuffer, () => {
    const real = jest.requireActual(files.capacityBuffer);
    return { __esModule: true, ...real, CapacityBuffer: wrap("CapacityBuffer", real.CapacityBuffer) };
  });
}
