// Jest setup file (jest.config.js setupFilesAfterEnv): with E2E_RECORD_VALUES_CASES=<file.jsonl>, every
// `Karpenter` and `KarpenterRelease` construction the test suite attempts is appended to that file as one JSON
// line: the Karpenter version, the release's namespace and name, the values document the helm_release gets
// (or would get), and the library's verdict (codes, fields, messages). The `--stage values-agreement` e2e step
// renders the reference chart of that version with those values (`helm template`) and submits every object to
// a local API server (values-agreement.cjs). Without the variable this file does nothing.
//
// Same pattern as record-node-cases.cjs: the two classes are replaced, for the test run only, by subclasses of
// themselves (jest.mock of the modules that define them, found by content), which call the real constructor and
// record what it built or why it threw. A construction inside another (the Karpenter's own KarpenterRelease) is
// part of its outer record, not a record of its own.
//
// Where the document comes from: the construct merges its typed props' document with `values` (mergeHelmValues)
// and hands the merged document to checkValuePaths before any further check. That call (the one whose scope is the
// release; a Karpenter checks its bare `values` with the same function first) is observed (a jest.mock of
// chart-values wrapping checkValuePaths), so the document recorded is the construct's own merge, not a copy of it:
// - an accepted construction: its `valuesYaml` (what the helm_release gets), parsed; the merged document seen by
//   checkValuePaths is compared with it (`docMatches`): the evidence that the observed document is the real one;
// - a refused one whose release got as far as the merge: the merged document seen then;
// - a refused Karpenter, which refuses `values` before it builds its release: rebuilt by building, in the same
//   scope under a scratch id, the KarpenterRelease the Karpenter would have built (the props it forwards, `values`
//   included); the observer throws once it holds the merged document, so the scratch construct undoes itself
//   (its constructor removes it on any error) before anything registers. For every accepted Karpenter the same
//   rebuild runs and is compared with the real document (`rebuildMatches`).
// Tokens (cluster name, queue name, role ARN) become "e2e-token" (a value every field they land in accepts); tokens
// in the user's `values` mark the case (`valuesTokens`), which is not compared.
"use strict";
const fs = require("fs");
const path = require("path");
const { libFinder, startRecorder } = require("./recorder.cjs");

startRecorder("E2E_RECORD_VALUES_CASES", install);

function install(file) {
  const find = libFinder("record-values-cases");
  const files = {
    release: find(/^export class KarpenterRelease extends/m),
    karpenter: find(/^export class Karpenter extends/m),
    chartValues: find(/^export function checkValuePaths\b/m),
    queue: find(/^export function queueDisabled\b/m),
  };
  const { queueDisabled } = jest.requireActual(files.queue);
  const { Token, Lazy } = jest.requireActual("cdktf");
  const YAML = require("yaml");

  /** The top-level attempt under way (a Karpenter, or a KarpenterRelease of its own), and a scratch rebuild. */
  const stack = [];
  const SENTINEL = Symbol("e2e values rebuilt");
  let scratch; // { doc, version } while a rebuild runs

  const write = (rec) => fs.appendFileSync(file, `${JSON.stringify(rec)}\n`);
  const testInfo = () => {
    try {
      const s = expect.getState();
      return { test: s.currentTestName, file: path.relative(path.resolve(__dirname, "../.."), s.testPath || "") };
    } catch {
      return {};
    }
  };
  const TOKEN = /\$\{TfToken\[[^\]]+\]\}|#\{TfToken\[[^\]]+\]\}/g;
  const hasToken = (v) => {
    if (typeof v === "string" || typeof v === "number") return Token.isUnresolved(v);
    if (Array.isArray(v)) return Token.isUnresolved(v) || v.some(hasToken);
    if (v && typeof v === "object")
      return (
        Token.isUnresolved(v) || Object.keys(v).some((k) => Token.isUnresolved(k)) || Object.values(v).some(hasToken)
      );
    return false;
  };
  const untoken = (v) => {
    if (typeof v === "string") return v.replace(TOKEN, "e2e-token");
    if (typeof v === "number") return Token.isUnresolved(v) ? 1 : v;
    if (Array.isArray(v)) return v.map(untoken);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [untoken(k), untoken(x)]));
    return v;
  };
  /**
   * Whether `v` survives JSON unchanged (plain maps, lists, strings, finite numbers, booleans, null): a function, a
   * NaN, undefined in a list, a Map or class instance is written as something else, so the server would judge
   * another document than the one the library judged.
   */
  const jsonData = (v, seen = new Set()) => {
    if (v === null || typeof v === "string" || typeof v === "boolean") return true;
    if (typeof v === "number") return Number.isFinite(v);
    if (typeof v !== "object" || seen.has(v)) return false;
    if (Array.isArray(v)) {
      seen.add(v);
      const ok = v.every((x) => x !== undefined && jsonData(x, seen));
      seen.delete(v);
      return ok;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return false;
    seen.add(v);
    const ok = Object.values(v).every((x) => x === undefined || jsonData(x, seen));
    seen.delete(v);
    return ok;
  };
  const plain = (v) => JSON.parse(JSON.stringify(v === undefined ? null : v));
  const safe = (fn) => {
    try {
      return fn();
    } catch {
      return undefined;
    }
  };

  // observe the merged document each KarpenterRelease hands to checkValuePaths
  jest.mock(files.chartValues, () => {
    const real = jest.requireActual(files.chartValues);
    return {
      __esModule: true,
      ...real,
      checkValuePaths(scope, version, values, ...rest) {
        // the release's check of its merged document (a Karpenter checks the bare `values` with it too, first)
        const merged = scope && scope.constructor && scope.constructor.name === "KarpenterRelease";
        if (!merged) return real.checkValuePaths(scope, version, values, ...rest);
        if (scratch) {
          scratch.doc = values;
          scratch.version = version;
          const e = new Error("e2e values rebuilt");
          e[SENTINEL] = true;
          throw e;
        }
        const top = stack[stack.length - 1];
        if (top && top.doc === undefined) {
          top.doc = values;
          top.version = version;
        }
        return real.checkValuePaths(scope, version, values, ...rest);
      },
    };
  });

  /** The KarpenterRelease a Karpenter builds, built under a scratch id in `scope`; its merged document, or undefined. */
  function rebuildKarpenter(KarpenterRelease, scope, id, props) {
    if (!props || typeof props !== "object" || !scope || !scope.node) return undefined;
    const token = (what) => Lazy.stringValue({ produce: () => `e2e-${what}` });
    const identity = props.identity;
    const queue = props.interruptionQueue;
    // a queue you have keeps its literal name (InterruptionQueueConfig.existing, or its options given plainly)
    const own = queue && typeof queue === "object" ? (queue.existingQueue ?? queue) : undefined;
    const existing = own && typeof own.existingQueueName === "string" ? own.existingQueueName : undefined;
    const forwarded = {
      cluster: props.cluster,
      version: props.version,
      namespace: props.namespace,
      repository: props.repository,
      serviceAccountName: props.serviceAccountName,
      irsaRoleArn: identity && identity.type === "irsa" ? token("role-arn") : undefined,
      interruptionQueue: queueDisabled(queue) ? undefined : { queueName: existing || token("queue") },
      replicas: props.replicas,
      controllerResources: props.controllerResources,
      dnsPolicy: props.dnsPolicy,
      settings: props.settings,
      values: props.values,
    };
    const sid = `e2e-values-rebuild-${id}-${Math.random().toString(36).slice(2)}`;
    scratch = {};
    try {
      new KarpenterRelease(scope, sid, forwarded);
      // cannot happen (the observer throws first): leave nothing behind
      scope.node.tryRemoveChild(sid);
    } catch {
      // the sentinel, or a refusal before the merge (then there is no document)
    } finally {
      safe(() => scope.node.tryRemoveChild(sid));
    }
    const got = scratch;
    scratch = undefined;
    return got.doc ? got : undefined;
  }

  function record(kind, attempt, scope, id, props, built, error, KarpenterRelease) {
    const userValues = props && typeof props === "object" ? safe(() => props.values) : undefined;
    const rec = {
      kind,
      where: scope && scope.node ? (scope.node.path ? `${scope.node.path}/${id}` : id) : String(id),
      ...testInfo(),
      namespace: safe(() => props.namespace) ?? "kube-system",
      releaseName: (kind === "KarpenterRelease" && safe(() => props.releaseName)) || "karpenter",
      valuesSet: userValues !== undefined,
      valuesData: userValues === undefined || safe(() => jsonData(userValues)) === true,
      valuesTokens: userValues !== undefined && !!safe(() => hasToken(userValues)),
    };
    if (typeof rec.namespace !== "string" || typeof rec.releaseName !== "string") rec.oddNames = true;
    let doc = attempt.doc;
    let version = attempt.version;
    rec.docSource = doc ? "construct" : undefined;
    let rebuilt;
    // a refused Karpenter (no release was built), or evidence for the rebuild on an accepted one
    if (kind === "Karpenter") rebuilt = safe(() => rebuildKarpenter(KarpenterRelease, scope, id, props));
    if (!doc && rebuilt) {
      doc = rebuilt.doc;
      version = rebuilt.version;
      rec.docSource = "rebuilt";
    }
    // the system node group's nodeSelector and tolerations are not rebuilt (lib computes them privately)
    if (rebuilt && safe(() => props.systemNodeGroup) !== undefined) rec.rebuildApprox = true;
    // a NaN in a typed prop (replicas) reaches the JSON as null: not the document the library judged
    if (doc) rec.docData = safe(() => allFinite(doc)) === true;
    rec.version =
      version ||
      (built && built.version) ||
      (props && typeof props === "object" ? safe(() => props.version) : undefined);
    if (built) {
      rec.verdict = "accepted";
      const release = kind === "Karpenter" ? built.controllerChart : built;
      const yaml = release && release.valuesYaml;
      const fromYaml = safe(() => plain(untoken(YAML.parse(yaml))));
      // the merged document itself where it is JSON data (a number token stays a number: 1), else the YAML written
      rec.values = (doc && rec.valuesData && safe(() => plain(untoken(doc)))) || fromYaml;
      const same = (d) =>
        safe(() => JSON.stringify(sortKeys(plain(untoken(d)))) === JSON.stringify(sortKeys(fromYaml)));
      if (doc && rec.valuesData) rec.docMatches = same(doc);
      if (process.env.E2E_VALUES_DEBUG && (rec.docMatches === false || rec.rebuildMatches === false))
        rec.debugYaml = fromYaml;
      if (rebuilt && kind === "Karpenter" && attempt.doc && rec.valuesData) rec.rebuildMatches = same(rebuilt.doc);
      if (process.env.E2E_VALUES_DEBUG && rebuilt) rec.debugRebuilt = safe(() => plain(untoken(rebuilt.doc)));
      rec.namespace = release && release.namespace;
      rec.releaseName = release && release.releaseName;
    } else {
      rec.verdict = "rejected";
      const problems = (error && error.problems) || [error];
      rec.problems = problems.map((p) => ({
        code: p && p.code,
        field: p && p.field,
        message: String((p && p.message) || p).slice(0, 600),
      }));
      if (doc && rec.valuesData) rec.values = safe(() => plain(untoken(doc)));
    }
    write(rec);
  }

  const wrap = (kind, Real, getRelease) => {
    const W = {
      [Real.name]: class extends Real {
        constructor(scope, id, props) {
          if (scratch || stack.length) {
            // a rebuild, or the release a Karpenter builds: part of the outer record
            super(scope, id, props);
            return;
          }
          const attempt = {};
          stack.push(attempt);
          try {
            super(scope, id, props);
          } catch (e) {
            stack.pop();
            try {
              record(kind, attempt, scope, id, props, undefined, e, getRelease());
            } catch (r) {
              scratch = undefined;
              write({ kind, recordError: String(r && r.stack) });
            }
            throw e;
          }
          stack.pop();
          try {
            record(kind, attempt, scope, id, props, this, undefined, getRelease());
          } catch (r) {
            scratch = undefined;
            write({ kind, recordError: String(r && r.stack) });
          }
        }
      },
    }[Real.name];
    return W;
  };
  let ReleaseClass;
  jest.mock(files.release, () => {
    const real = jest.requireActual(files.release);
    ReleaseClass = wrap("KarpenterRelease", real.KarpenterRelease, () => ReleaseClass);
    return { __esModule: true, ...real, KarpenterRelease: ReleaseClass };
  });
  jest.mock(files.karpenter, () => {
    const real = jest.requireActual(files.karpenter);
    // the rebuild builds the release through the module the Karpenter imports (the wrapped class: not recorded then)
    const releaseModule = require(files.release);
    return {
      __esModule: true,
      ...real,
      Karpenter: wrap("Karpenter", real.Karpenter, () => releaseModule.KarpenterRelease),
    };
  });
}

/** Whether no number in `v` (plain maps and lists) is NaN or ±Infinity, which JSON writes as null. */
function allFinite(v) {
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(allFinite);
  if (v && typeof v === "object") return Object.values(v).every(allFinite);
  return true;
}

function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  return v;
}
