"use strict";
// `npm run e2e -- --stage day2` (issue 29): an operator's day 2, with the real controllers. A cluster runs
// Karpenter installed the getting-started way (upstream's CloudFormation template, eksctl's role and Pod
// Identity association, `helm upgrade --install karpenter` with the chart's CRDs, the guide's NodePool and
// EC2NodeClass), nodes serving pods; then
//   1. that install, made without the library, and the running release's controller launching nodes;
//   2. the takeover with examples/adopt-existing (imports only, no resource destroyed or replaced);
//   3. the upgrade to the default release, upgrade-plan's prediction against `tofu plan -json`;
//   4. the nodes replaced by drift within the NodePool's budget;
//   5. the rollback; 6. destroy; 7. every AWS request judged against the policy in force.
// Each step is a set of checks; a step whose tools are not built (or whose predecessor failed) says SKIP and
// why. The machinery is the karpenter stage's (scripts/e2e/karpenter-stage.cjs): moto with its launcher, the
// local API server, the stand-in kubelet/scheduler loop, the controller started with its Deployment's
// environment, the IAM judge. Not part of the default `npm run e2e` run yet: `--stage day2` selects it.
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const repo = path.resolve(__dirname, "../..");
const reference = path.resolve(repo, "..", "shared", "reference", "karpenter");

// ------------------------------------------------------------------------------------------ pure parts

/** The stage's checks in order, each with the built tools it needs beyond the previous step's. */
const STEPS = [
  // the Kubernetes half of step 1 runs without moto; its AWS side (and so every later step) needs it
  { id: "getting-started", tools: ["kube-apiserver", "etcd", "helm"] },
  { id: "launch", tools: ["moto", "karpenter-1.14"] },
  { id: "takeover", tools: ["tofu", "aws-provider", "helm-provider", "kubernetes-provider"] },
  { id: "upgrade", tools: ["karpenter-1.15"] },
  { id: "drift", tools: [] },
  { id: "rollback", tools: ["karpenter-1.14"] },
  { id: "destroy", tools: [] },
  { id: "iam", tools: [] },
];

/**
 * The tools a step needs that are not built: its own and every earlier step's (each step runs on what the
 * previous ones left). `built(name)` says whether versions.txt's tool `name` is in the tool cache.
 */
function missingTools(stepId, built) {
  const i = STEPS.findIndex((s) => s.id === stepId);
  if (i < 0) throw new Error(`unknown day-2 step ${stepId}`);
  const need = [...new Set(STEPS.slice(0, i + 1).flatMap((s) => s.tools))];
  return need.filter((t) => !built(t));
}

/**
 * One entry per resource of `tofu show -json <plan>`'s resource_changes (data sources left out), with what
 * the plan does to it: `import` (imported, nothing else changes), `import+update`, `import+replace`, `create`,
 * `update`, `replace` (delete and create, either order), `delete`, `no-op`.
 */
function planChanges(planJson) {
  const out = [];
  for (const rc of planJson.resource_changes || []) {
    if (rc.mode === "data") continue;
    const actions = (rc.change && rc.change.actions) || [];
    const importing = !!(rc.change && rc.change.importing);
    const replace = actions.includes("delete") && actions.includes("create");
    let kind = replace
      ? "replace"
      : actions.includes("create")
        ? "create"
        : actions.includes("delete")
          ? "delete"
          : actions.includes("update")
            ? "update"
            : "no-op";
    if (importing) kind = kind === "no-op" ? "import" : `import+${kind}`;
    out.push({ address: rc.address, type: rc.type, kind, actions });
  }
  return out;
}

/** What a takeover plan does, by kind: the addresses imported, updated, created, destroyed and replaced. */
function takeoverSummary(changes) {
  const of = (...kinds) => changes.filter((c) => kinds.includes(c.kind)).map((c) => c.address);
  return {
    imported: of("import", "import+update", "import+replace", "import+delete"),
    importedAndUpdated: of("import+update"),
    created: of("create"),
    updated: of("update", "import+update"),
    // a resource of the running install gone or made anew: what a takeover must never do
    destroyed: of("delete", "import+delete"),
    replaced: of("replace", "import+replace"),
  };
}

/**
 * A synthesized stack's resources as `{ address, path, body }`; `path` is the construct path as cdktf writes it
 * into the logical ID (`karpenter_controller-role_policy-NodeLifecycle`, the hash after the last `_` left off),
 * which the plan's addresses carry too.
 */
function stackResources(config) {
  const out = [];
  for (const [type, byName] of Object.entries(config.resource || {})) {
    for (const [name, body] of Object.entries(byName))
      out.push({ address: `${type}.${name}`, path: name.replace(/_[0-9A-F]{8}$/, ""), body });
  }
  return out;
}

/**
 * The resource changes an upgrade-plan (`upgradePlan(from, to)`, its JSON) predicts for an install synthesized
 * as `before` (at `from`) and `after` (at `to`), by address: what `tofu plan` should show for the version change.
 * From the plan's `net` step and its deploy order:
 * - both Helm releases (`CRD release`, `controller release`) `update` (the chart version);
 * - each controller policy whose statements change (`controllerPolicy[].policy`, the 1.9+ group) `update`, each
 *   policy group added or removed `create` / `delete` with its attachment;
 * - the node role's AWS-managed policies: a policy swapped at one attachment address (ECR ReadOnly ↔ PullOnly
 *   across 1.4) `replace`, one added or removed alone `create` / `delete`;
 * - each interruption rule added or removed `create` / `delete` with its target;
 * - node objects nothing (they change only when the app changes them).
 * Resources are found by construct path (`…_controller-role_policy-<Group>`, `…_interruption-queue_rule-<Key>`),
 * so the addresses are the stacks' own. Returns `{ address: kind }`.
 */
function predictedChanges(plan, before, after) {
  const predicted = {};
  if (plan.direction === "none") return predicted;
  const rb = stackResources(before);
  const ra = stackResources(after);
  const byPath = (rs, re) => rs.filter((r) => re.test(r.path));
  const put = (rs, kind) => {
    for (const r of rs) predicted[r.address] = kind;
  };
  const phases = new Set((plan.deployOrder || []).map((p) => p.phase));
  if (phases.has("CRD release")) put(byPath(ra, /(^|_)crds_release$/), "update");
  if (phases.has("controller release")) put(byPath(ra, /(^|_)controller_release$/), "update");
  const net = plan.net;
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (const g of new Set(net.controllerPolicy.filter((s) => s.policy).map((s) => s.policy)))
    put(byPath(ra, new RegExp(`(^|_)controller-role_policy-${esc(g)}$`)), "update");
  for (const g of net.controllerPolicies.added)
    put(byPath(ra, new RegExp(`(^|_)controller-role_(policy|attachment)-${esc(g)}$`)), "create");
  for (const g of net.controllerPolicies.removed)
    put(byPath(rb, new RegExp(`(^|_)controller-role_(policy|attachment)-${esc(g)}$`)), "delete");
  // node role attachments: the same address in both with another policy ARN is a swap
  const arnOf = (r) => String(r.body.policy_arn || "");
  const attachments = (rs) => byPath(rs, /(^|_)node-role_attachment-.+$/);
  const names = (list) => list.map((p) => p.replace(/^.*:policy\//, ""));
  const added = names(net.nodeRolePolicies.added);
  const removed = names(net.nodeRolePolicies.removed);
  for (const a of attachments(ra)) {
    const name = arnOf(a).replace(/^.*:policy\//, "");
    if (!added.includes(name)) continue;
    const b = attachments(rb).find((x) => x.address === a.address);
    predicted[a.address] = b && arnOf(b) !== arnOf(a) ? "replace" : "create";
  }
  for (const b of attachments(rb)) {
    const name = arnOf(b).replace(/^.*:policy\//, "");
    if (removed.includes(name) && !attachments(ra).some((x) => x.address === b.address))
      predicted[b.address] = "delete";
  }
  for (const r of net.interruptionRules.added)
    put(byPath(ra, new RegExp(`(^|_)interruption-queue_(rule|target)-${esc(r.key)}$`)), "create");
  for (const r of net.interruptionRules.removed)
    put(byPath(rb, new RegExp(`(^|_)interruption-queue_(rule|target)-${esc(r.key)}$`)), "delete");
  return predicted;
}

/**
 * The planner's prediction against the real plan: `predictedOnly` (predicted, but the plan does not do it, or
 * does something else) and `plannedOnly` (the plan changes it, unpredicted), each as `<address> (<kind>)`.
 * Resources the plan leaves alone (`no-op`, a plain `import`) are not changes.
 */
function comparePrediction(predicted, changes) {
  const planned = Object.fromEntries(
    changes
      .filter((c) => c.kind !== "no-op" && c.kind !== "import")
      .map((c) => [c.address, c.kind.replace(/^import\+/, "")]),
  );
  const predictedOnly = Object.entries(predicted)
    .filter(([a, k]) => planned[a] !== k)
    .map(([a, k]) => `${a} (${k}${planned[a] ? `; the plan: ${planned[a]}` : ""})`);
  const plannedOnly = Object.entries(planned)
    .filter(([a, k]) => predicted[a] !== k)
    .map(([a, k]) => `${a} (${k})`);
  return { predictedOnly, plannedOnly };
}

/**
 * Pods that the step moved: present before (by uid, with their node) and either gone afterwards or on another
 * node. `before` / `after`: `[{ uid, name, node }]`.
 */
function podsRescheduled(before, after) {
  const now = new Map(after.map((p) => [p.uid, p]));
  return before
    .filter((p) => !now.has(p.uid) || now.get(p.uid).node !== p.node)
    .map((p) => `${p.name} (${p.node}${now.has(p.uid) ? ` → ${now.get(p.uid).node}` : ", gone"})`);
}

/** A controller log's text, or "" when it cannot be read (the checks then explain no disruption by it). */
function readLog(file) {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/**
 * The controller's own disruption decisions in its log (kubernetes-sigs/karpenter
 * pkg/controllers/disruption/queue.go: `disrupting node(s)`, whose `command` starts with the reason, e.g.
 * `Underutilized/<id>: replace: …`): `[{ reason, decision, claims, nodes }]`. An unreadable log gives none.
 */
function disruptionCommands(logText) {
  const out = [];
  for (const line of String(logText || "").split("\n")) {
    if (!line.includes('"disrupting node(s)"')) continue;
    let j;
    try {
      j = JSON.parse(line);
    } catch {
      continue;
    }
    const nodes = Array.isArray(j["disrupted-nodes"]) ? j["disrupted-nodes"] : [];
    out.push({
      reason: String(j.command || "").split("/")[0],
      decision: j.decision,
      claims: nodes.map((n) => (n.NodeClaim || {}).name).filter(Boolean),
      nodes: nodes.map((n) => (n.Node || {}).name).filter(Boolean),
    });
  }
  return out;
}

/**
 * The NodeClaims the controller garbage-collected, by its debug log (kubernetes-sigs/karpenter
 * pkg/controllers/nodeclaim/garbagecollection/controller.go: a registered NodeClaim whose instance the cloud
 * provider's List does not return, and whose Node is missing or not Ready). Names; none from an unreadable log.
 */
function garbageCollected(logText) {
  const out = [];
  for (const line of String(logText || "").split("\n")) {
    if (!line.includes("garbage collecting nodeclaim")) continue;
    try {
      const name = (JSON.parse(line).NodeClaim || {}).name;
      if (name) out.push(name);
    } catch {
      continue;
    }
  }
  return out;
}

/**
 * Whether a step that restarts the controller (takeover, upgrade, rollback) kept the running nodes. Consolidation
 * may replace a node at any time under the guide's NodePool (`WhenEmptyOrUnderutilized` after 1m), for instance
 * when the new release's price table ranks the running instance type above a replacement: the controller logs
 * that decision with its reason. A NodeClaim that went, or a pod that moved, is explained only by such a
 * consolidation (`Underutilized`, `Empty`); anything else (a `Drifted` replacement, a deletion the controller
 * logs no decision for) is what a step must not cause. `claimsBefore`/`claimsAfter`: NodeClaim names;
 * `podsBefore`/`podsAfter`: podPlacement's lists; `collected`: the stand-in garbage collector's deletions
 * (`[{ claim, pool, status }]`, World.collected), named in `said` but still not a kept node.
 * Returns `{ ok, kept, consolidated, unexplained, moved, said }`.
 */
function nodesKept({ claimsBefore, claimsAfter, podsBefore, podsAfter, logText, collected = [] }) {
  const cmds = disruptionCommands(logText);
  const consolidation = cmds.filter((c) => c.reason === "Underutilized" || c.reason === "Empty");
  const consolidatedClaims = new Set(consolidation.flatMap((c) => c.claims));
  const consolidatedNodes = new Set(consolidation.flatMap((c) => c.nodes));
  const byController = garbageCollected(logText);
  const gone = claimsBefore.filter((n) => !claimsAfter.includes(n));
  const kept = claimsBefore.filter((n) => claimsAfter.includes(n));
  const consolidated = gone.filter((n) => consolidatedClaims.has(n));
  const unexplained = gone.filter((n) => !consolidatedClaims.has(n));
  const moved = podsRescheduled(
    podsBefore.filter((p) => !consolidatedNodes.has(p.node)),
    podsAfter,
  );
  const decisions = cmds
    .filter((c) => c.claims.some((n) => claimsBefore.includes(n)))
    .map((c) => `${c.reason} ${c.decision} of ${c.claims.join(", ")}`);
  const said =
    `${kept.length} of ${claimsBefore.length} NodeClaim(s) kept` +
    (consolidated.length ? `, ${consolidated.join(", ")} consolidated by the controller` : "") +
    (unexplained.length
      ? `, ${unexplained
          .map((n) => {
            const gc = collected.find((x) => x.claim === n);
            if (gc) return `${n} deleted by the stand-in garbage collector (NodePool ${gc.pool}: ${gc.status})`;
            return byController.includes(n) ? `${n} garbage-collected by the controller (no instance listed)` : n;
          })
          .join(", ")} gone without a consolidation`
      : "") +
    (decisions.length ? ` (its decisions: ${decisions.join("; ")})` : "");
  return { ok: unexplained.length === 0 && moved.length === 0, kept, consolidated, unexplained, moved, said };
}

/**
 * How a drift rollout went, from samples of the NodeClaims taken while it ran (`[{ claims: [{ name, deleting,
 * terminating, initialized }] }]`) and the NodeClaims that were drifted (`old`): how many old ones were being disrupted
 * at once at most (deleting and not yet InstanceTerminating: Karpenter's budget no longer counts a NodeClaim drained
 * and whose instance's delete succeeded, though its finalizer keeps it until the instance is gone), which were replaced, and the samples where an old NodeClaim was being deleted while no new
 * one was initialized to take its pods (the replacement must come first).
 */
function driftRollout(samples, old) {
  const oldSet = new Set(old);
  let maxConcurrent = 0;
  const beforeReplacement = [];
  for (const [i, s] of samples.entries()) {
    const deleting = s.claims.filter((c) => oldSet.has(c.name) && c.deleting).map((c) => c.name);
    // as Karpenter counts disruptions in flight: a NodeClaim whose instance is terminating is done with (see below)
    const disrupting = s.claims.filter((c) => oldSet.has(c.name) && c.deleting && !c.terminating);
    maxConcurrent = Math.max(maxConcurrent, disrupting.length);
    const fresh = s.claims.filter((c) => !oldSet.has(c.name) && c.initialized);
    if (deleting.length && !fresh.length)
      beforeReplacement.push(`sample ${i}: ${deleting.join(", ")} deleting, no new NodeClaim initialized`);
  }
  const last = samples.length ? samples[samples.length - 1].claims : [];
  const replaced = old.filter((n) => !last.some((c) => c.name === n));
  return { maxConcurrent, replaced, remaining: old.filter((n) => !replaced.includes(n)), beforeReplacement };
}

/**
 * How many of a NodePool's `n` nodes its disruption budgets let Karpenter disrupt at once for `reason` (`Drifted`,
 * `Underutilized`, `Empty`): the smallest budget that applies (no `reasons`, or `reason` among them), a percentage
 * rounded up as Karpenter does (intstr scaled with roundUp); no budgets: the CRD's default, 10%. A budget with a
 * `schedule` is active only in its window, which this does not evaluate: it is left out.
 */
function budgetAllowance(budgets, n, reason) {
  const list = budgets === undefined ? [{ nodes: "10%" }] : budgets;
  let allowed = Infinity;
  for (const b of list) {
    if (b.schedule) continue;
    if (b.reasons && !b.reasons.includes(reason)) continue;
    const v = String(b.nodes);
    const m = v.match(/^(\d+)%$/);
    allowed = Math.min(allowed, m ? Math.ceil((Number(m[1]) * n) / 100) : Number(v));
  }
  return allowed === Infinity ? n : allowed;
}

/**
 * The controller policies in force at line `line` of moto's recording. `phases`: `[{ id, start, end, policies }]`
 * in order, each an apply that ran from line `start` to line `end` (the first: `end` 0, the policies before any
 * apply). After a phase's `end`, its policies; during its apply (`start` ≤ line < `end`) the policy update may or
 * may not have landed, so either set: the previous phase's and its own. Returns `{ id, policies }`.
 */
function policiesInForce(phases, line) {
  let i = 0;
  for (let j = 1; j < phases.length; j++) if (phases[j].start <= line) i = j;
  const p = phases[i];
  if (i > 0 && line < p.end)
    return {
      id: `${phases[i - 1].id}/${p.id}`,
      policies: [
        ...phases[i - 1].policies.map((x) => ({ ...x, name: `${x.name} (${phases[i - 1].id})` })),
        ...p.policies.map((x) => ({ ...x, name: `${x.name} (${p.id})` })),
      ],
    };
  return { id: p.id, policies: p.policies };
}

/** The `day2` object of the report, every figure the issue asks for present from the start (null: not measured). */
function emptyDay2Report() {
  return {
    adopt: {
      imported: null,
      destroyed: null,
      replaced: null,
      instancesBefore: null,
      instancesAfter: null,
      podsRescheduled: null,
    },
    upgrade: {
      from: null,
      to: null,
      predictedOnly: null,
      plannedOnly: null,
      podsRescheduled: null,
      consolidated: null,
    },
    drift: { replaced: null, maxConcurrent: null, budget: null },
    rollback: { from: null, to: null, ok: null },
    destroy: { leftovers: null },
    iam: { calls: null, allowed: null },
  };
}
// ------------------------------------------------------------------------------------------ the stage

/** The running release of step 1 (the issue's: the getting-started install the operator has). */
const FROM = "1.14.1";
/** The guide's pinned AMI alias version at step 1, and the newer one step 4 moves to (moto-launcher.py serves both). */
const ALIAS_VERSIONS = { running: "v20261101", newer: "v20261201" };
// seconds; generous for a loaded 2-core machine (a controller took 86 s to start at load 13)
const LIMITS = { launch: 300, reconcile: 180, drift: 480 };

/** Check names, in order: a step that cannot run skips every one of its checks by these names. */
const CHECKS = {
  "getting-started": [
    "getting-started: the AWS side",
    "getting-started: helm install",
    "getting-started: node objects",
  ],
  launch: ["launch: nodes for the inflate pods"],
  takeover: ["takeover: plan", "takeover: apply"],
  upgrade: ["upgrade: upgrade-plan against tofu plan", "upgrade: apply"],
  drift: ["drift: nodes replaced by drift within the budget"],
  rollback: ["rollback: back to the running release"],
  destroy: ["destroy: nothing left"],
  iam: ["iam: every request allowed by the policy in force"],
};

async function runDay2Stage(api) {
  const { tools, check, skip } = api;
  const k8 = require("./karpenter-stage.cjs");
  const t0 = Date.now();
  const env = process.env;
  const region = env.AWS_REGION || "us-east-1";
  const clusterName = env.CLUSTER_NAME || "karpenter-demo";
  const replicas = Number(env.INFLATE_REPLICAS === undefined || env.INFLATE_REPLICAS === "" ? 2 : env.INFLATE_REPLICAS);
  const versionsText = fs.readFileSync(path.join(repo, "scripts/tools/versions.txt"), "utf8");
  const target = k8.selectRelease(k8.defaultKarpenterVersion(), tools, versionsText);
  const to = target.run || target.requested;
  const day2 = emptyDay2Report();
  day2.upgrade.from = FROM;
  day2.upgrade.to = to;
  day2.rollback.from = to;
  day2.rollback.to = FROM;
  const figures = {
    region,
    clusterName,
    replicas,
    requestedTo: target.requested,
    substitution: target.substitute ? target.why : null,
    timings: {},
    gettingStarted: null,
    launched: null,
  };
  api.setDay2({ ...day2, run: figures });
  const publish = () => api.setDay2({ ...day2, run: figures });
  console.log(
    `\n== day2 stage: Karpenter ${FROM} (getting-started) → ${to}${target.substitute ? ` (requested ${target.requested}: ${target.why})` : ""} → ${FROM}, cluster ${clusterName}, ${region}, ${replicas} inflate replicas`,
  );

  const built = (n) => !!tools[n] && fs.existsSync(tools[n].bin);
  const what = (n) => (tools[n] ? `${n} (${tools[n].module}@${tools[n].version})` : `${n} (no versions.txt row)`);
  const passed = {};
  /** Whether `step` can run: its tools built and the step before it passed; otherwise its checks SKIP, saying why. */
  const gate = (step, after) => {
    const miss = missingTools(step, built);
    const why = miss.length ? missingText(miss) : after && !passed[after] ? `step ${after} did not pass` : undefined;
    if (why) for (const c of CHECKS[step]) skip(`day2: ${c}`, why);
    return !why;
  };
  const missingText = (miss) =>
    `needs ${miss.map(what).join(", ")}, not built yet (bash scripts/tools/build.sh ${miss.join(" ")})`;
  /** The checks of `steps` that cannot run: SKIP naming the tools not built, else `why`. */
  const skipRest = (steps, why) => {
    for (const s of steps) {
      const miss = missingTools(s, built);
      for (const c of CHECKS[s]) skip(`day2: ${c}`, miss.length ? missingText(miss) : why);
    }
  };
  const later = ["takeover", "upgrade", "drift", "rollback", "destroy", "iam"];

  if (!gate("getting-started")) {
    skipRest(["launch", ...later], "step getting-started did not run");
    return;
  }
  const work = path.join(api.work, "day2");
  fs.mkdirSync(work, { recursive: true });
  const { startLocalCluster } = require("./local-cluster.cjs");
  const moto = built("moto") ? await k8.startLauncher(tools, work, region) : undefined;
  let cluster;
  let controller;
  let world;
  let judgeAtEnd;
  try {
    cluster = await startLocalCluster({ workDir: path.join(work, "cluster"), log: (l) => console.log(`       ${l}`) });
    const k = (m, p, b, o) => cluster.request(m, p, b, o);
    figures.timings.started = k8.secs(t0);

    // ---- step 1: the getting-started install, made without the library
    const t1 = Date.now();
    let gs;
    let awsSide = false;
    if (!moto) skip(`day2: ${CHECKS["getting-started"][0]}`, missingText(["moto"]));
    else {
      const seed = spawnSync(
        moto.py,
        [
          path.join(__dirname, "karpenter-seed.py"),
          moto.url,
          region,
          clusterName,
          writeJson(work, "network.json", { networkOnly: true }),
        ],
        { encoding: "utf8" },
      );
      const gsr =
        seed.status === 0 &&
        spawnSync(
          moto.py,
          [
            path.join(__dirname, "day2-getting-started.py"),
            moto.url,
            region,
            clusterName,
            path.join(reference, `v${FROM}`, "cloudformation.yaml"),
          ],
          { encoding: "utf8" },
        );
      gs = gsr && gsr.status === 0 ? JSON.parse(gsr.stdout) : undefined;
      figures.gettingStarted = gs || null;
      const cfnTypes = gs ? [...new Set(gs.resources.map((r) => r.type).filter(Boolean))].sort() : [];
      awsSide = check(
        `day2: getting-started: the AWS side: CloudFormation stack Karpenter-${clusterName} from the v${FROM} reference cloudformation.yaml (moto's CloudFormation: ${gs ? gs.resources.length : 0} resources, ${cfnTypes.join(", ")}), eksctl's controller role ${clusterName}-karpenter with the stack's policies and Pod Identity association kube-system/karpenter`,
        !!gs &&
          gs.status === "CREATE_COMPLETE" &&
          gs.controllerPolicies.length >= 5 &&
          /^a-/.test(gs.associationId || ""),
        gs
          ? `stack ${gs.status}; queue policy by ${gs.queuePolicyBy}; node role policies by ${gs.nodeRolePoliciesBy}; controller policies ${gs.controllerPolicies.join(", ")}; association ${gs.associationId}`
          : `${(seed.stderr || "").trim().split("\n").slice(-3).join(" ")} ${gsr ? (gsr.stderr || "").trim().split("\n").slice(-3).join(" ") : ""}`,
      );
      if (gs)
        console.log(
          `       the AWS side: queue policy by ${gs.queuePolicyBy}; node role policies by ${gs.nodeRolePoliciesBy}`,
        );
    }

    // eksctl's iamIdentityMappings (step02-create-cluster.sh): the node role in the aws-auth ConfigMap, no access entry
    await k(
      "POST",
      "/api/v1/namespaces/kube-system/configmaps",
      guideAwsAuth(`arn:aws:iam::123456789012:role/KarpenterNodeRole-${clusterName}`),
    );

    // the guide's `helm upgrade --install karpenter` (step08-apply-helm-chart.sh) of the running release, with its CRDs
    const helmHome = path.join(work, "helm-home");
    const helmEnv = {
      ...process.env,
      KUBECONFIG: cluster.kubeconfig,
      HELM_CACHE_HOME: helmHome,
      HELM_CONFIG_HOME: helmHome,
      HELM_DATA_HOME: helmHome,
    };
    const chart = path.join(k8.chartsFor(FROM).dir, "karpenter");
    const hi = spawnSync(
      tools.helm.bin,
      [
        "upgrade",
        "--install",
        "karpenter",
        chart,
        "--namespace",
        "kube-system",
        "--create-namespace",
        ...guideHelmValues(clusterName).flatMap((v) => ["--set", v]),
      ],
      { env: helmEnv, encoding: "utf8" },
    );
    const crds = await k("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions");
    const karpenterCrds = (crds.body.items || []).filter((c) => /karpenter/.test(c.spec.group));
    const owners = karpenterCrds.map((c) => `${c.metadata.name}: ${crdOwner(c) || "no Helm owner"}`);
    const releases = helmReleases(tools, helmEnv);
    figures.helmBefore = releases;
    const helmSide = check(
      `day2: getting-started: helm install: release karpenter ${FROM} (revision 1) with the chart's ${karpenterCrds.length} CRDs from its crds/ folder, no Helm owner on them, no karpenter-crd release (as the guide installs it)`,
      hi.status === 0 &&
        karpenterCrds.length >= 3 &&
        karpenterCrds.every((c) => !crdOwner(c)) &&
        releases.some((r) => r.name === "karpenter" && r.revision === "1" && r.chart === `karpenter-${FROM}`) &&
        !releases.some((r) => r.name === "karpenter-crd"),
      `${(hi.stderr || "").trim().split("\n").slice(-3).join(" ")}; CRDs ${owners.join("; ")}; releases ${JSON.stringify(releases)}`,
    );

    // the guide's EC2NodeClass and NodePool (step12-add-nodepool.sh) and inflate (step13) through the API
    const objects = guideNodeObjects(clusterName, ALIAS_VERSIONS.running);
    const posted = [];
    for (const [p, o] of objects) posted.push(`${o.kind}/${o.metadata.name} ${(await k("POST", p, o)).status}`);
    await k("POST", "/apis/apps/v1/namespaces/default/deployments", guideInflate(replicas));
    const nodeObjects = check(
      `day2: getting-started: node objects: the guide's EC2NodeClass default (al2023@${ALIAS_VERSIONS.running}) and NodePool default accepted by the ${FROM} CRDs, inflate (${replicas} replicas) created`,
      posted.every((x) => / 201$/.test(x)),
      posted.join(", "),
    );
    figures.timings["getting-started"] = k8.secs(t1);
    passed["getting-started"] = awsSide && helmSide && nodeObjects;

    // ---- the 1.14.1 controller, as the guide's Deployment runs it, launches nodes for inflate
    if (!gate("launch", "getting-started")) {
      skipRest(later, "step launch did not run");
      return;
    }
    const tl = Date.now();
    // the credentials of the role Pod Identity would hand the controller (moto STS AssumeRole)
    const creds = k8.aws(moto.py, moto.url, region, "assume-role", { role: gs.controllerRoleArn });
    const controllerRole = gs.controllerRoleArn.split("/").pop();
    // step 7's phases: the controller's policies in force from a line of moto's recording on (the getting-started
    // ones first); an apply that changes them is a window in which either set may be in force
    const recordingLines = () =>
      fs.existsSync(moto.recording) ? fs.readFileSync(moto.recording, "utf8").split("\n").length - 1 : 0;
    const phases = [
      {
        id: "getting-started",
        start: 0,
        end: 0,
        policies: k8.aws(moto.py, moto.url, region, "policies", { role: controllerRole }),
      },
    ];
    let currentLog;
    const controllerLog = () => currentLog;
    let judged = false;
    judgeAtEnd = () => judgePhases();
    let inventoryAtEnd;
    /** Step 7: every request the controller made, judged against the policies in force when it made it. */
    const judgePhases = async () => {
      if (judged) return;
      judged = true;
      const tj = Date.now();
      const judgeLib = require("./iam-judge.cjs");
      const lines = fs.readFileSync(moto.recording, "utf8").split("\n");
      const calls = [];
      lines.forEach((l, line) => {
        if (!l.trim()) return;
        let e;
        try {
          e = JSON.parse(l);
        } catch {
          return;
        }
        const c = judgeLib.parseEntry(e);
        if (c && c.accessKey === creds.AccessKeyId) calls.push({ ...c, line });
      });
      const inv = inventoryAtEnd || k8.aws(moto.py, moto.url, region, "inventory");
      const inventory = {
        instances: Object.fromEntries(Object.entries(inv.instances).map(([id, i]) => [id, i.tags])),
        launchTemplates: {},
      };
      const idsFile = `${moto.recording}.ids.jsonl`;
      if (fs.existsSync(idsFile))
        for (const l of fs.readFileSync(idsFile, "utf8").split("\n").filter(Boolean)) {
          const x = JSON.parse(l);
          const e = inventory.launchTemplates[x.launchTemplate] || { ids: [] };
          e.ids.push(x.id);
          inventory.launchTemplates[x.launchTemplate] = e;
        }
      const res = await judgeLib.judge(calls, [], {
        account: "123456789012",
        region,
        principal: `arn:aws:sts::123456789012:assumed-role/${controllerRole}/karpenter-e2e`,
        inventory,
        policiesOf: (call) => policiesInForce(phases, call.line),
      });
      const allowedCalls = res.calls.filter((c) => c.allowed).length;
      day2.iam.calls = res.summary.apiCalls;
      day2.iam.allowed = allowedCalls;
      figures.iam = {
        phases: phases.map((p) => ({ id: p.id, fromLine: p.end, policies: p.policies.map((x) => x.name) })),
        operations: res.summary.operations,
        distinct: res.summary.distinct,
        distinctAllowed: res.summary.allowed,
        denied: res.summary.denied,
      };
      figures.timings.iam = k8.secs(tj);
      check(
        `day2: iam: every request allowed by the policy in force: ${res.summary.apiCalls} requests of the controllers in steps 1-6 (${res.summary.operations.length} operations), each judged against the controller role's policies at that moment (${phases.map((p) => p.id).join(" → ")}; during an apply either set): ${allowedCalls} allowed, ${res.summary.distinct} distinct requests of which ${res.summary.allowed} allowed (evaluator @cloud-copilot/iam-simulate)`,
        res.summary.apiCalls > 0 &&
          allowedCalls === res.summary.apiCalls &&
          res.summary.allowed === res.summary.distinct,
        res.summary.denied
          .slice(0, 12)
          .map(
            (d) =>
              `${d.phase}: ${d.result}: ${d.action} ${d.resource} ${JSON.stringify(d.context)}${d.error ? ` ${d.error}` : ""}`,
          )
          .join("\n       "),
      );
    };
    /**
     * The controller (re)started as a rollout would: the running process stopped, tool `tool`'s binary started
     * with the environment of the Deployment now in the API server.
     */
    const rollout = async (tool, logName) => {
      if (controller && controller.exitCode === null) {
        controller.kill("SIGTERM");
        await k8.until(10, async () => (controller.exitCode !== null ? true : undefined));
      }
      const dep = (await k("GET", "/apis/apps/v1/namespaces/kube-system/deployments/karpenter")).body;
      const run = await k8.startController(api, {
        bin: tools[tool].bin,
        dep,
        cluster,
        moto,
        region,
        creds,
        work,
        logName,
        // what the controller deletes without a disruption decision (NodeClaim garbage collection) it logs only at
        // debug (V(1)); a NodeClaim gone in a step must be explained by the log
        env: { LOG_LEVEL: "debug" },
      });
      controller = run.proc;
      currentLog = run.log;
      return run;
    };
    /** inflate's pods once all `n` run on a node, within `seconds`; undefined otherwise. */
    const allPlaced = (n, seconds, fatal) =>
      k8.until(
        seconds,
        async () => {
          const pods = await podPlacement(k);
          return pods.length === n && pods.every((p) => p.node) ? pods : undefined;
        },
        fatal,
      );
    const started = await rollout("karpenter-1.14", `controller-${FROM}.log`);
    world = new k8.World(k, { replicas, clusterName });
    world.start();
    await world.ensurePods();
    const launched = await allPlaced(
      replicas,
      LIMITS.launch,
      () => controller.exitCode !== null && `controller exited ${controller.exitCode}: ${k8.tailOf(started.log)}`,
    );
    const claims = (await world.claims()).map((c) => ({
      name: c.metadata.name,
      instance: ((c.status || {}).providerID || "").split("/").pop(),
    }));
    figures.launched = { claims, pods: launched || (await podPlacement(k)) };
    figures.timings.launch = k8.secs(tl);
    check(
      `day2: launch: nodes for the inflate pods: the ${FROM} controller launched ${claims.length} NodeClaim(s) (${claims.map((c) => `${c.name} → ${c.instance}`).join(", ")}) and every one of the ${replicas} pod(s) runs on one (${LIMITS.launch} s)`,
      !!launched && claims.length > 0,
      `${await world.describeClaims()}; ${k8.tailOf(started.log, /ERROR|error/)}`,
    );
    passed.launch = !!launched;

    // ---- step 2: the takeover with examples/adopt-existing at the running release
    if (!gate("takeover", "launch")) {
      skipRest(later.slice(1, -1), "step takeover did not run");
      return;
    }
    const t2 = Date.now();
    fs.mkdirSync(path.join(work, "state"), { recursive: true });
    const statePath = (n) => path.join(work, "state", `${n}.tfstate`);
    const tenv = api.tofuEnv(api.cliConfig, {
      AWS_EC2_METADATA_DISABLED: "true",
      TF_VAR_karpenter_pod_identity_association_id: gs.associationId,
    });
    // options before the positional argument (a plan file): tofu refuses them after it
    const tofu = (dir, [command, ...args]) =>
      k8.runAsync(tools.tofu.bin, [command, "-input=false", "-no-color", ...args], { cwd: dir, env: tenv });
    /** The example synthesized at `version` with the alias `alias`, its two stacks ready in the same folders each time. */
    const stacksAt = (version, alias) => {
      const out = api.synth("examples/adopt-existing/main.ts", path.join(work, `out-${version}-${alias}`), {
        CLUSTER_NAME: clusterName,
        AWS_REGION: region,
        KARPENTER_VERSION: version,
        ALIAS_VERSION: alias,
        // cdktf asks the Terraform binary whether it reads import blocks
        TERRAFORM_BINARY_NAME: tools.tofu.bin,
      });
      const chartsDir = k8.chartsFor(version).dir;
      const prep = (name) =>
        k8.prepareLocalStack(api, {
          out,
          name,
          dir: path.join(work, "run", name),
          statePath,
          moto,
          cluster,
          version,
          chartsDir,
        });
      return { karpenter: prep("karpenter"), nodes: prep("nodes") };
    };
    /** `tofu init` + `tofu plan -out`, the plan's resource changes (planChanges) and the plan file. */
    const planOf = async (s, label) => {
      const init = await tofu(s.dir, ["init"]);
      if (!api.must(`day2: ${label}: tofu init`, init)) throw new Error(`tofu init failed (${label})`);
      const plan = await tofu(s.dir, ["plan", "-out=day2.tfplan"]);
      if (!api.must(`day2: ${label}: tofu plan`, plan)) throw new Error(`tofu plan failed (${label})`);
      // what the plan printed: its summary line
      const said = (plan.stdout.match(/^(Plan: .*|No changes\..*)$/m) || [])[0] || "";
      figures.plans = { ...(figures.plans || {}), [label]: said };
      console.log(`       ${label}: ${said}`);
      const show = await k8.runAsync(tools.tofu.bin, ["show", "-json", "day2.tfplan"], { cwd: s.dir, env: tenv });
      return planChanges(JSON.parse(show.stdout));
    };
    const applyPlan = async (s, label) => {
      const apply = await tofu(s.dir, ["apply", "day2.tfplan"]);
      if (!api.must(`day2: ${label}: tofu apply`, apply)) throw new Error(`tofu apply failed (${label})`);
    };
    /** The karpenter stack's apply, which changes the controller's policies: a new phase for step 7. */
    const applyPhase = async (s, id) => {
      const start = recordingLines();
      await applyPlan(s, `${id} (karpenter stack)`);
      phases.push({
        id,
        start,
        end: recordingLines(),
        policies: k8.aws(moto.py, moto.url, region, "policies", { role: controllerRole }),
      });
    };
    const podsBefore = await podPlacement(k);
    const claimsBefore = claims;
    /**
     * nodesKept now against NodeClaim names and pod placement taken before a step, explained by the logs of the
     * controllers that ran during it (`runs`: rollout results); `claimsAfter` added.
     */
    const keptSince = async (claimsBefore, podsBefore, ...runs) => {
      const claimsAfter = (await world.claims()).map((c) => c.metadata.name);
      const logText = runs.map((r) => readLog(r.log)).join("");
      const podsAfter = await podPlacement(k);
      figures.ownerLookupsUnanswered = { ...world.unanswered };
      const collected = world.collected;
      return { ...nodesKept({ claimsBefore, claimsAfter, podsBefore, podsAfter, logText, collected }), claimsAfter };
    };
    const takeover = stacksAt(FROM, ALIAS_VERSIONS.running);
    // docs/adopting.md step 2: the CloudFormation stack keeps what the app takes over (DeletionPolicy Retain)
    const cfnStep = (mode) => {
      const r = spawnSync(
        moto.py,
        [
          path.join(__dirname, "day2-getting-started.py"),
          moto.url,
          region,
          clusterName,
          path.join(reference, `v${FROM}`, "cloudformation.yaml"),
          mode,
        ],
        { encoding: "utf8" },
      );
      if (r.status !== 0)
        throw new Error(`CloudFormation ${mode}: ${(r.stderr || "").trim().split("\n").slice(-3).join(" ")}`);
      return JSON.parse(r.stdout);
    };
    figures.cfnRetain = cfnStep("retain");
    // the nodes stack reads the controller stack's outputs (remote state): planned after that one is applied
    const plan1 = await planOf(takeover.karpenter, "takeover (karpenter stack)");
    const sum1 = takeoverSummary(plan1);
    if (sum1.destroyed.length === 0 && sum1.replaced.length === 0) await applyPhase(takeover.karpenter, "takeover");
    const plan2 =
      sum1.destroyed.length || sum1.replaced.length ? [] : await planOf(takeover.nodes, "takeover (nodes stack)");
    const sum2 = takeoverSummary(plan2);
    const sum = Object.fromEntries(Object.keys(sum1).map((key) => [key, [...sum1[key], ...sum2[key]]]));
    day2.adopt.imported = sum.imported;
    day2.adopt.destroyed = sum.destroyed;
    day2.adopt.replaced = sum.replaced;
    figures.takeoverPlan = sum;
    console.log(
      `       takeover plan: ${sum.imported.length} imported (${sum.importedAndUpdated.length} of them updated in place), ${sum.created.length} created, ${sum.updated.length} updated, ${sum.destroyed.length} destroyed, ${sum.replaced.length} replaced`,
    );
    check(
      `day2: takeover: plan: examples/adopt-existing at ${FROM} imports ${sum.imported.length} resource(s) of the running install and destroys or replaces none (${sum.created.length} created, ${sum.updated.length} updated in place)`,
      sum.destroyed.length === 0 && sum.replaced.length === 0 && sum.imported.length > 0,
      `destroyed: ${sum.destroyed.join(", ") || "none"}; replaced: ${sum.replaced.join(", ") || "none"}`,
    );
    if (sum.destroyed.length || sum.replaced.length) {
      for (const c of CHECKS.takeover.slice(1)) skip(`day2: ${c}`, "the plan would destroy or replace: not applied");
      skipRest(later.slice(1, -1), "step takeover did not pass");
      return;
    }
    await applyPlan(takeover.nodes, "takeover (nodes stack)");
    // docs/adopting.md step 5: the stack deleted; only its old rules go (the app's new ones deliver already)
    const cfnDeleted = cfnStep("delete");
    figures.cfnDelete = cfnDeleted;
    console.log(
      `       docs/adopting.md steps 2 and 5: stack ${figures.cfnRetain.stack} ${figures.cfnRetain.status} with DeletionPolicy Retain on ${figures.cfnRetain.retained.length} resources, then deleted: ${cfnDeleted.rulesDeleted.length} old rule(s) deleted, kept ${JSON.stringify(cfnDeleted.kept)}`,
    );
    // the Deployment the karpenter release now renders: a rollout would restart the controller with it
    const restarted = await rollout("karpenter-1.14", `controller-${FROM}-takeover.log`);
    const crds2 = ((await k("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions")).body.items || []).filter(
      (c) => /karpenter/.test(c.spec.group),
    );
    const releases2 = helmReleases(tools, helmEnv);
    figures.helmAfterTakeover = releases2;
    const claimsAfter = (await world.claims()).map((c) => ({
      name: c.metadata.name,
      instance: ((c.status || {}).providerID || "").split("/").pop(),
    }));
    const podsAfter = await podPlacement(k);
    const kept2 = nodesKept({
      claimsBefore: claimsBefore.map((c) => c.name),
      claimsAfter: claimsAfter.map((c) => c.name),
      podsBefore,
      podsAfter,
      logText: readLog(started.log) + readLog(restarted.log),
    });
    const moved = kept2.moved;
    day2.adopt.instancesBefore = claimsBefore.map((c) => c.instance);
    day2.adopt.instancesAfter = claimsAfter.map((c) => c.instance);
    day2.adopt.podsRescheduled = moved;
    // still reconciling: one more pod, placed on a node (an existing one with room, or a new NodeClaim)
    await world.scale(replicas + 1);
    const placed = await allPlaced(replicas + 1, LIMITS.reconcile);
    // a kept NodeClaim has its instance still (one the controller consolidated away is explained by kept2)
    const same =
      kept2.ok &&
      kept2.kept.every(
        (n) =>
          (claimsBefore.find((c) => c.name === n) || {}).instance ===
          (claimsAfter.find((c) => c.name === n) || {}).instance,
      );
    const owned = crds2.length > 0 && crds2.every((c) => crdOwner(c) === "kube-system/karpenter-crd");
    const rel = releases2.find((r) => r.name === "karpenter");
    const crdRel = releases2.find((r) => r.name === "karpenter-crd");
    figures.timings.takeover = k8.secs(t2);
    passed.takeover = check(
      `day2: takeover: apply: the running NodeClaim(s) and instance(s) kept (${kept2.said}), no pod rescheduled but by consolidation, the ${crds2.length} CRDs owned by kube-system/karpenter-crd (Helm's ownership metadata), release karpenter upgraded in place (revision ${rel && rel.revision}), the controller restarted on the new Deployment still places a new pod (${LIMITS.reconcile} s)`,
      same &&
        moved.length === 0 &&
        cfnDeleted.stacksLeft.length === 0 &&
        cfnDeleted.kept.nodeRole &&
        cfnDeleted.kept.queue &&
        owned &&
        rel &&
        rel.revision === "2" &&
        rel.status === "deployed" &&
        crdRel &&
        crdRel.status === "deployed" &&
        !!placed,
      `NodeClaims before ${JSON.stringify(claimsBefore)} after ${JSON.stringify(claimsAfter)} (${kept2.said}); rescheduled ${moved.join(", ") || "none"}; CRDs ${crds2.map((c) => `${c.metadata.name}: ${crdOwner(c) || "no Helm owner"}`).join("; ")}; releases ${JSON.stringify(releases2)}; CloudFormation ${JSON.stringify(cfnDeleted)}; placed ${!!placed}; ${k8.tailOf(restarted.log, /ERROR|error|disrupting|garbage collecting/)}`,
    );

    // ---- step 3: the upgrade, upgrade-plan's prediction against the real plan first
    if (!gate("upgrade", "takeover")) {
      skipRest(later.slice(2, -1), "step upgrade did not run");
      return;
    }
    const t3 = Date.now();
    // the CLI an operator runs (lib/cli.ts is what dist/cli.js, the package's bin, is built from)
    const up = spawnSync("npx", ["tsx", "lib/cli.ts", "upgrade-plan", "--from", FROM, "--to", to, "--json"], {
      cwd: repo,
      encoding: "utf8",
    });
    if (up.status !== 0) throw new Error(`upgrade-plan --from ${FROM} --to ${to}: ${up.stderr}`);
    const upgraded = stacksAt(to, ALIAS_VERSIONS.running);
    const podsBeforeUpgrade = await podPlacement(k);
    const claimsBeforeUpgrade = (await world.claims()).map((c) => c.metadata.name).sort();
    const predicted = predictedChanges(JSON.parse(up.stdout), takeover.karpenter.config, upgraded.karpenter.config);
    const planned = [
      ...(await planOf(upgraded.karpenter, "upgrade (karpenter stack)")),
      ...(await planOf(upgraded.nodes, "upgrade (nodes stack)")),
    ];
    const { predictedOnly, plannedOnly } = comparePrediction(predicted, planned);
    day2.upgrade.predictedOnly = predictedOnly;
    day2.upgrade.plannedOnly = plannedOnly;
    figures.upgradePredicted = predicted;
    check(
      `day2: upgrade: upgrade-plan against tofu plan: upgrade-plan --from ${FROM} --to ${to} predicts every resource change tofu plans (${Object.keys(predicted).length}: ${Object.entries(
        predicted,
      )
        .map(([a, kind]) => `${a} ${kind}`)
        .join(", ")}), and tofu plans every one it predicts`,
      predictedOnly.length === 0 && plannedOnly.length === 0,
      `predicted, not planned: ${predictedOnly.join(", ") || "none"}; planned, not predicted: ${plannedOnly.join(", ") || "none"}`,
    );
    // CRDs first (their release: the controller release depends on it), then the controller's release, then the nodes stack
    await applyPhase(upgraded.karpenter, "upgrade");
    await applyPlan(upgraded.nodes, "upgrade (nodes stack)");
    const onTo = await rollout(target.tool, `controller-${to}.log`);
    await world.scale(replicas + 2);
    const placed3 = await allPlaced(replicas + 2, LIMITS.launch);
    const kept3 = await keptSince(claimsBeforeUpgrade, podsBeforeUpgrade, restarted, onTo);
    const claimsAfterUpgrade = kept3.claimsAfter;
    // while Helm updates the CRDs the API server may answer a NodePool read with an error for a moment
    console.log(`       upgrade: NodePool owner lookups not answered, by status: ${JSON.stringify(world.unanswered)}`);
    const moved3 = kept3.moved;
    day2.upgrade.podsRescheduled = moved3;
    day2.upgrade.consolidated = kept3.consolidated;
    figures.timings.upgrade = k8.secs(t3);
    passed.upgrade = check(
      `day2: upgrade: apply: the ${to} releases applied (CRDs first), the controller restarted on the ${to} binary adopts the running nodes, none replaced by the upgrade (${kept3.said}), no pod rescheduled but by consolidation, and a new pod gets a node (${LIMITS.launch} s)`,
      kept3.ok && !!placed3,
      `NodeClaims before ${claimsBeforeUpgrade.join(", ")} after ${claimsAfterUpgrade.join(", ")}; rescheduled ${moved3.join(", ") || "none"}; placed ${!!placed3}; ${k8.tailOf(onTo.log, /ERROR|error|disrupting|garbage collecting/)}`,
    );
    // ---- step 4: the nodes replaced by drift (a newer AMI release pinned in the EC2NodeClass)
    if (!gate("drift", "upgrade")) {
      skipRest(later.slice(3, -1), "step drift did not run");
      return;
    }
    const t4 = Date.now();
    const drifted = stacksAt(to, ALIAS_VERSIONS.newer);
    const oldClaims = (await world.claims()).filter((c) => !c.metadata.deletionTimestamp);
    const oldNames = oldClaims.map((c) => c.metadata.name).sort();
    const oldNodes = oldClaims.map((c) => (c.status || {}).nodeName).filter(Boolean);
    const planD = (await planOf(drifted.nodes, "drift (nodes stack)")).filter((c) => c.kind !== "no-op");
    figures.driftPlan = planD.map((c) => `${c.address} ${c.kind}`);
    await applyPlan(drifted.nodes, "drift (nodes stack)");
    const pool = (await k("GET", "/apis/karpenter.sh/v1/nodepools/default")).body;
    const budgets = ((pool.spec || {}).disruption || {}).budgets || [];
    const allowed = budgetAllowance(budgets, oldNames.length, "Drifted");
    day2.drift.budget = `${budgets.map((b) => b.nodes).join(", ") || "none"} of ${oldNames.length} node(s) = ${allowed}`;
    const samples = [];
    const driftDone = await k8.until(LIMITS.drift, async () => {
      const cs = await world.claims();
      samples.push({
        claims: cs.map((c) => ({
          name: c.metadata.name,
          deleting: !!c.metadata.deletionTimestamp,
          // drained and its instance's delete accepted: no longer counted against the budget (sigs.k8s.io/karpenter
          // v1.15.0 pkg/controllers/disruption/helpers.go:386-391 NodePoolStatsFromNodes; v1.14.1 :281)
          terminating: k8.cond(c, "InstanceTerminating"),
          initialized: k8.cond(c, "Initialized"),
          drifted: k8.cond(c, "Drifted"),
        })),
      });
      if (oldNames.some((n) => cs.some((c) => c.metadata.name === n))) return undefined;
      const pods = await podPlacement(k);
      return pods.length === world.replicas && pods.every((p) => p.node && !oldNodes.includes(p.node))
        ? pods
        : undefined;
    });
    const roll = driftRollout(samples, oldNames);
    const everDrifted = oldNames.filter((n) => samples.some((s) => s.claims.some((c) => c.name === n && c.drifted)));
    day2.drift.replaced = roll.replaced;
    day2.drift.maxConcurrent = roll.maxConcurrent;
    figures.timings.drift = k8.secs(t4);
    figures.driftSamples = samples.length;
    passed.drift = check(
      `day2: drift: nodes replaced by drift within the budget: al2023@${ALIAS_VERSIONS.running} → al2023@${ALIAS_VERSIONS.newer} (plan: ${figures.driftPlan.join(", ") || "no change"}); ${everDrifted.length} of ${oldNames.length} NodeClaim(s) marked Drifted, ${roll.replaced.length} replaced, at most ${roll.maxConcurrent} disrupted at once (budget ${day2.drift.budget}), each replacement initialized before an old node was drained, every pod on a new node (${LIMITS.drift} s)`,
      !!driftDone &&
        roll.replaced.length === oldNames.length &&
        roll.maxConcurrent <= allowed &&
        roll.beforeReplacement.length === 0 &&
        planD.length > 0 &&
        planD.every((c) => c.kind === "update"),
      `plan ${figures.driftPlan.join(", ")}; remaining ${roll.remaining.join(", ") || "none"}; ${roll.beforeReplacement.slice(0, 5).join("; ") || "replacements first"}; ${await world.describeClaims()}; ${k8.tailOf(controllerLog(), /ERROR|error/)}`,
    );

    // ---- step 5: the rollback to the running release: CRD release first, as upgrades (docs/upgrading.md "Rolling back")
    if (!gate("rollback", "drift")) {
      skipRest(later.slice(4, -1), "step rollback did not run");
      return;
    }
    const t5 = Date.now();
    const back = stacksAt(FROM, ALIAS_VERSIONS.newer);
    const podsBeforeBack = await podPlacement(k);
    const claimsBeforeBack = (await world.claims()).map((c) => c.metadata.name).sort();
    const planB = [
      ...(await planOf(back.karpenter, "rollback (karpenter stack)")),
      ...(await planOf(back.nodes, "rollback (nodes stack)")),
    ];
    const sumB = takeoverSummary(planB);
    figures.rollbackPlan = planB.filter((c) => c.kind !== "no-op").map((c) => `${c.address} ${c.kind}`);
    const upB = spawnSync("npx", ["tsx", "lib/cli.ts", "upgrade-plan", "--from", to, "--to", FROM, "--json"], {
      cwd: repo,
      encoding: "utf8",
    });
    const predictedB =
      upB.status === 0
        ? predictedChanges(JSON.parse(upB.stdout), upgraded.karpenter.config, back.karpenter.config)
        : {};
    const cmpB = comparePrediction(predictedB, planB);
    figures.rollbackPrediction = cmpB;
    await applyPhase(back.karpenter, "rollback");
    await applyPlan(back.nodes, "rollback (nodes stack)");
    const onFrom = await rollout("karpenter-1.14", `controller-${FROM}-rollback.log`);
    await world.scale(world.replicas + 1);
    const placed5 = await allPlaced(world.replicas, LIMITS.launch);
    const kept5 = await keptSince(claimsBeforeBack, podsBeforeBack, onTo, onFrom);
    const claimsAfterBack = kept5.claimsAfter;
    const moved5 = kept5.moved;
    const rels5 = helmReleases(tools, helmEnv);
    const rel5 = (n) => rels5.find((r) => r.name === n) || {};
    const rollbackOk =
      sumB.destroyed.length === 0 &&
      sumB.replaced.length === 0 &&
      cmpB.predictedOnly.length === 0 &&
      cmpB.plannedOnly.length === 0 &&
      kept5.ok &&
      !!placed5 &&
      rel5("karpenter").chart === `karpenter-${FROM}` &&
      rel5("karpenter-crd").chart === `karpenter-crd-${FROM}`;
    day2.rollback.ok = rollbackOk;
    figures.timings.rollback = k8.secs(t5);
    passed.rollback = check(
      `day2: rollback: back to the running release: ${to} → ${FROM}, the CRD release first (plan: ${figures.rollbackPlan.join(", ") || "no change"}; upgrade-plan --from ${to} --to ${FROM} predicted it: ${cmpB.predictedOnly.length + cmpB.plannedOnly.length === 0 ? "yes" : "no"}), nothing destroyed or replaced, the controller restarted on the ${FROM} binary keeps the running nodes (${kept5.said}), no pod rescheduled but by consolidation, a new pod gets a node (${LIMITS.launch} s)`,
      rollbackOk,
      `destroyed ${sumB.destroyed.join(", ") || "none"}; replaced ${sumB.replaced.join(", ") || "none"}; predicted, not planned: ${cmpB.predictedOnly.join(", ") || "none"}; planned, not predicted: ${cmpB.plannedOnly.join(", ") || "none"}; NodeClaims before ${claimsBeforeBack.join(", ")} after ${claimsAfterBack.join(", ")}; rescheduled ${moved5.join(", ") || "none"}; releases ${JSON.stringify(rels5)}; ${k8.tailOf(onFrom.log, /ERROR|error|disrupting|garbage collecting/)}`,
    );

    // ---- step 6: destroy, nodes stack first; the controller runs until its release takes its Deployment away
    if (!gate("destroy", "rollback")) {
      skipRest(later.slice(5, -1), "step destroy did not run");
      return;
    }
    const t6 = Date.now();
    // the operator's own workload goes first (the guide: kubectl delete deployment inflate)
    await k("DELETE", "/apis/apps/v1/namespaces/default/deployments/inflate");
    world.watchDestroy();
    const dn = await tofu(back.nodes.dir, ["destroy", "-auto-approve"]);
    api.must("day2: destroy (nodes stack): tofu destroy", dn);
    world.onDeploymentGone = async () => {
      if (controller && controller.exitCode === null) controller.kill("SIGTERM");
    };
    const dk = await tofu(back.karpenter.dir, ["destroy", "-auto-approve"]);
    api.must("day2: destroy (karpenter stack): tofu destroy", dk);
    if (controller && controller.exitCode === null) {
      controller.kill("SIGTERM");
      await k8.until(10, async () => (controller.exitCode !== null ? true : undefined));
    }
    const inv = k8.aws(moto.py, moto.url, region, "inventory");
    const leftovers = await day2Leftovers(k, moto, region, inv);
    day2.destroy.leftovers = leftovers;
    figures.timings.destroy = k8.secs(t6);
    passed.destroy = check(
      `day2: destroy: nothing left: tofu destroy of the nodes stack then the karpenter stack; no running instance, launch template, instance profile, queue, rule, role or Karpenter CRD left (${Object.keys(leftovers).join(", ")} checked)`,
      dn.status === 0 && dk.status === 0 && Object.values(leftovers).every((l) => l.length === 0),
      `${JSON.stringify(leftovers)}; ${(dn.status ? dn.stderr : dk.stderr || "").trim().split("\n").slice(-4).join(" ")}`,
    );
    inventoryAtEnd = inv;
  } catch (e) {
    check("day2: stage ran to its end", false, e.stack || e.message);
  } finally {
    if (world) world.stop();
    if (controller && controller.exitCode === null) {
      controller.kill("SIGTERM");
      await k8.until(10, async () => (controller.exitCode !== null ? true : undefined));
    }
    // step 7 judges whatever the controllers did, however far the stage got
    if (judgeAtEnd) await judgeAtEnd().catch((e) => check(`day2: ${CHECKS.iam[0]}`, false, e.stack || e.message));
    if (cluster) await cluster.stop();
    if (moto && moto.proc.exitCode === null) moto.proc.kill("SIGTERM");
    figures.timings.total = k8.secs(t0);
    publish();
    console.log(`       day2 stage: ${figures.timings.total} s wall`);
  }
}

function writeJson(dir, name, obj) {
  const f = path.join(dir, name);
  fs.writeFileSync(f, JSON.stringify(obj));
  return f;
}

const PY_LEFTOVERS = String.raw`
import boto3, json, sys
url, region = sys.argv[1], sys.argv[2]
kw = dict(endpoint_url=url, region_name=region, aws_access_key_id="e2e-inspector", aws_secret_access_key="e2e")
iam = boto3.client("iam", **kw); ev = boto3.client("events", **kw); sqs = boto3.client("sqs", **kw); cfn = boto3.client("cloudformation", **kw)
print(json.dumps({
    "queues": sqs.list_queues().get("QueueUrls", []),
    "rules": [r["Name"] for r in ev.list_rules()["Rules"]],
    "roles": [r["RoleName"] for r in iam.list_roles()["Roles"]],
    "policies": [p["PolicyName"] for p in iam.list_policies(Scope="Local")["Policies"]],
    "stacks": [s["StackName"] for s in cfn.list_stacks()["StackSummaries"] if s["StackStatus"] != "DELETE_COMPLETE"],
}))
`;

/** What is left in moto and the API server after the destroy: every list should be empty. */
async function day2Leftovers(k, moto, region, inv) {
  const r = spawnSync(moto.py, ["-c", PY_LEFTOVERS, moto.url, region], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`leftovers: ${(r.stderr || "").trim().split("\n").slice(-3).join(" ")}`);
  const aws = JSON.parse(r.stdout);
  const crds = ((await k("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions")).body.items || [])
    .filter((c) => /karpenter/.test(c.spec.group))
    .map((c) => c.metadata.name);
  return {
    instances: Object.entries(inv.instances)
      .filter(([, i]) => i.state !== "terminated")
      .map(([id, i]) => `${id} (${i.state})`),
    launchTemplates: Object.keys(inv.launchTemplates),
    instanceProfiles: Object.keys(inv.instanceProfiles),
    queues: aws.queues,
    rules: aws.rules,
    roles: aws.roles,
    policies: aws.policies,
    stacks: aws.stacks,
    crds,
  };
}

/** The release that owns a CRD by Helm's ownership metadata (`meta.helm.sh/release-name`, managed-by Helm), or undefined. */
function crdOwner(crd) {
  const a = crd.metadata.annotations || {};
  const l = crd.metadata.labels || {};
  return l["app.kubernetes.io/managed-by"] === "Helm" && a["meta.helm.sh/release-name"]
    ? `${a["meta.helm.sh/release-namespace"]}/${a["meta.helm.sh/release-name"]}`
    : undefined;
}

function helmReleases(tools, helmEnv) {
  const r = spawnSync(tools.helm.bin, ["list", "--all-namespaces", "--all", "-o", "json"], {
    env: helmEnv,
    encoding: "utf8",
  });
  return r.status === 0
    ? JSON.parse(r.stdout || "[]").map((x) => ({
        name: x.name,
        namespace: x.namespace,
        revision: String(x.revision),
        chart: x.chart,
        status: x.status,
      }))
    : [];
}

/** inflate's pods with their node: `[{ uid, name, node }]`. */
async function podPlacement(k) {
  const r = await k("GET", "/api/v1/namespaces/default/pods?labelSelector=app%3Dinflate");
  return (r.body.items || [])
    .filter((p) => !p.metadata.deletionTimestamp)
    .map((p) => ({ uid: p.metadata.uid, name: p.metadata.name, node: p.spec.nodeName || null }));
}

/**
 * The `--set` values of the getting-started guide's `helm upgrade --install karpenter` (v1.14 step08-apply-helm-chart.sh):
 * cluster name, interruption queue (named after the cluster), zonal shift on (step01-config.sh's default), 1 CPU / 1Gi.
 */
function guideHelmValues(clusterName) {
  return [
    `settings.clusterName=${clusterName}`,
    `settings.interruptionQueue=${clusterName}`,
    "settings.enableZonalShift=true",
    "controller.resources.requests.cpu=1",
    "controller.resources.requests.memory=1Gi",
    "controller.resources.limits.cpu=1",
    "controller.resources.limits.memory=1Gi",
  ];
}

/** The guide's NodePool and EC2NodeClass `default` (v1.14 step12-add-nodepool.sh), as [API path, object]. */
function guideNodeObjects(clusterName, aliasVersion) {
  const discovery = [{ tags: { "karpenter.sh/discovery": clusterName } }];
  return [
    [
      "/apis/karpenter.k8s.aws/v1/ec2nodeclasses",
      {
        apiVersion: "karpenter.k8s.aws/v1",
        kind: "EC2NodeClass",
        metadata: { name: "default" },
        spec: {
          role: `KarpenterNodeRole-${clusterName}`,
          amiSelectorTerms: [{ alias: `al2023@${aliasVersion}` }],
          subnetSelectorTerms: discovery,
          securityGroupSelectorTerms: discovery,
        },
      },
    ],
    [
      "/apis/karpenter.sh/v1/nodepools",
      {
        apiVersion: "karpenter.sh/v1",
        kind: "NodePool",
        metadata: { name: "default" },
        spec: {
          template: {
            spec: {
              requirements: [
                ["kubernetes.io/arch", "In", "amd64"],
                ["kubernetes.io/os", "In", "linux"],
                ["karpenter.sh/capacity-type", "In", "on-demand"],
                ["karpenter.k8s.aws/instance-category", "In", "c", "m", "r"],
                ["karpenter.k8s.aws/instance-generation", "Gt", "2"],
              ].map(([key, operator, ...values]) => ({ key, operator, values })),
              nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" },
              expireAfter: "720h",
            },
          },
          limits: { cpu: 1000 },
          disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m" },
        },
      },
    ],
  ];
}

/** The aws-auth ConfigMap eksctl writes for the guide's iamIdentityMappings: the node role as system:node:<DNS name>. */
function guideAwsAuth(nodeRoleArn) {
  const mapRoles = `- rolearn: ${nodeRoleArn}\n  username: system:node:{{EC2PrivateDNSName}}\n  groups:\n  - system:bootstrappers\n  - system:nodes\n`;
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "aws-auth", namespace: "kube-system" },
    data: { mapRoles },
  };
}

/** The guide's inflate Deployment (v1.14 step13-automatic-node-provisioning.sh): pause pods asking for 1 CPU each. */
function guideInflate(replicas) {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "inflate", namespace: "default" },
    spec: {
      replicas,
      selector: { matchLabels: { app: "inflate" } },
      template: {
        metadata: { labels: { app: "inflate" } },
        spec: {
          terminationGracePeriodSeconds: 0,
          securityContext: { runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000 },
          containers: [
            {
              name: "inflate",
              image: "public.ecr.aws/eks-distro/kubernetes/pause:3.7",
              resources: { requests: { cpu: "1" } },
              securityContext: { allowPrivilegeEscalation: false },
            },
          ],
        },
      },
    },
  };
}

module.exports = {
  runDay2Stage,
  STEPS,
  CHECKS,
  FROM,
  ALIAS_VERSIONS,
  missingTools,
  planChanges,
  takeoverSummary,
  stackResources,
  predictedChanges,
  comparePrediction,
  podsRescheduled,
  disruptionCommands,
  garbageCollected,
  nodesKept,
  driftRollout,
  budgetAllowance,
  policiesInForce,
  emptyDay2Report,
  guideHelmValues,
  guideNodeObjects,
  guideInflate,
  guideAwsAuth,
  crdOwner,
};
