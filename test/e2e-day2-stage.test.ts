// The pure parts of the day-2 e2e stage (scripts/e2e/day2-stage.cjs), which need no built tool: what a
// takeover plan does, the planner's prediction of an upgrade's resource changes against `tofu plan -json`'s
// resource_changes, pods moved by a step, a drift rollout's concurrency, and the report's shape.
import { Testing } from "cdktf";
import { buildApp } from "../examples/adopt-existing/main";
import { upgradePlan } from "../lib/cli-api";
import { synthApp } from "./examples/synth";
import { fakeTerraform } from "./adopt/fake-terraform";
const stage = require("../scripts/e2e/day2-stage.cjs");

/** The adopt-existing example's `karpenter` stack (cluster demo) at `version`. */
function karpenterStack(version: string): any {
  const restore = fakeTerraform("1.6.0");
  try {
    return JSON.parse(
      synthApp(buildApp(Testing.app(), { CLUSTER_NAME: "demo", AWS_REGION: "us-east-1", KARPENTER_VERSION: version }))
        .karpenter,
    );
  } finally {
    restore();
  }
}

/** The address of the stack's one resource whose logical ID (hash left off) ends in `suffix`. */
function addressOf(stack: any, type: string, suffix: string): string {
  const names = Object.keys(stack.resource[type]).filter((n) => n.replace(/_[0-9A-F]{8}$/, "").endsWith(suffix));
  expect(names).toHaveLength(1);
  return `${type}.${names[0]}`;
}

/** A `tofu show -json` plan holding these resource changes. */
const planOf = (changes: [string, string[], boolean?][]) => ({
  resource_changes: changes.map(([address, actions, importing]) => ({
    address,
    mode: address.startsWith("data.") ? "data" : "managed",
    type: address.replace(/^data\./, "").split(".")[0],
    change: { actions, ...(importing ? { importing: { id: "x" } } : {}) },
  })),
});

describe("day2 stage: what a plan does", () => {
  const plan = planOf([
    ["aws_iam_role.node", ["no-op"], true],
    ["aws_iam_role.controller", ["update"], true],
    ["aws_iam_policy.p", ["create"]],
    ["helm_release.r", ["update"]],
    ["aws_iam_role_policy_attachment.a", ["create", "delete"], true],
    ["aws_iam_role_policy_attachment.b", ["delete", "create"]],
    ["aws_sqs_queue.q", ["delete"]],
    ["aws_eks_cluster.c", ["no-op"]],
    ["data.aws_partition.p", ["read"]],
  ]);

  test("each resource's kind; data sources left out", () => {
    expect(stage.planChanges(plan).map((c: any) => [c.address, c.kind])).toEqual([
      ["aws_iam_role.node", "import"],
      ["aws_iam_role.controller", "import+update"],
      ["aws_iam_policy.p", "create"],
      ["helm_release.r", "update"],
      ["aws_iam_role_policy_attachment.a", "import+replace"],
      ["aws_iam_role_policy_attachment.b", "replace"],
      ["aws_sqs_queue.q", "delete"],
      ["aws_eks_cluster.c", "no-op"],
    ]);
  });

  test("a takeover's summary names what is destroyed and replaced", () => {
    const s = stage.takeoverSummary(stage.planChanges(plan));
    expect(s.imported).toEqual(["aws_iam_role.node", "aws_iam_role.controller", "aws_iam_role_policy_attachment.a"]);
    expect(s.created).toEqual(["aws_iam_policy.p"]);
    expect(s.updated).toEqual(["aws_iam_role.controller", "helm_release.r"]);
    expect(s.destroyed).toEqual(["aws_sqs_queue.q"]);
    expect(s.replaced).toEqual(["aws_iam_role_policy_attachment.a", "aws_iam_role_policy_attachment.b"]);
    expect(stage.takeoverSummary(stage.planChanges(planOf([["aws_iam_role.node", ["no-op"], true]])))).toMatchObject({
      destroyed: [],
      replaced: [],
    });
  });
});

describe("day2 stage: upgrade-plan's prediction against the plan", () => {
  const s1141 = karpenterStack("1.14.1");
  const s1150 = karpenterStack("1.15.0");
  const crds = addressOf(s1150, "helm_release", "crds_release");
  const release = addressOf(s1150, "helm_release", "controller_release");

  test("1.14.1 → 1.15.0: both Helm releases and the NodeLifecycle policy (ec2:RebootInstances) are updated, nothing else", () => {
    expect(stage.predictedChanges(upgradePlan("1.14.1", "1.15.0"), s1141, s1150)).toEqual({
      [crds]: "update",
      [release]: "update",
      [addressOf(s1150, "aws_iam_policy", "controller-role_policy-NodeLifecycle")]: "update",
    });
  });

  test("the same release predicts nothing", () => {
    expect(stage.predictedChanges(upgradePlan("1.14.1", "1.14.1"), s1141, s1141)).toEqual({});
  });

  test("across 1.4 the ECR attachment is replaced at its address", () => {
    const a = karpenterStack("1.3.8");
    const b = karpenterStack("1.4.4");
    const predicted = stage.predictedChanges(upgradePlan("1.3.8", "1.4.4"), a, b);
    expect(predicted[addressOf(b, "aws_iam_role_policy_attachment", "node-role_attachment-ecr-pull")]).toBe("replace");
  });

  test("across 1.10 the capacity-reservation rule and its target are created", () => {
    const a = karpenterStack("1.9.2");
    const b = karpenterStack("1.10.2");
    const predicted = stage.predictedChanges(upgradePlan("1.9.2", "1.10.2"), a, b);
    expect(predicted[addressOf(b, "aws_cloudwatch_event_rule", "interruption-queue_rule-CapacityReservation")]).toBe(
      "create",
    );
    expect(
      predicted[addressOf(b, "aws_cloudwatch_event_target", "interruption-queue_target-CapacityReservation")],
    ).toBe("create");
  });

  test("differences name the addresses on each side", () => {
    const predicted = { "helm_release.a": "update", "aws_iam_policy.p": "update", "aws_iam_policy.q": "create" };
    const changes = stage.planChanges(
      planOf([
        ["helm_release.a", ["update"]],
        ["aws_iam_policy.p", ["no-op"]],
        ["aws_iam_policy.q", ["update"]],
        ["kubernetes_manifest.pool", ["update"]],
        ["aws_iam_role.r", ["no-op"], true],
      ]),
    );
    expect(stage.comparePrediction(predicted, changes)).toEqual({
      predictedOnly: ["aws_iam_policy.p (update)", "aws_iam_policy.q (create; the plan: update)"],
      plannedOnly: ["aws_iam_policy.q (update)", "kubernetes_manifest.pool (update)"],
    });
    expect(
      stage.comparePrediction(
        { "helm_release.a": "update" },
        stage.planChanges(planOf([["helm_release.a", ["update"]]])),
      ),
    ).toEqual({ predictedOnly: [], plannedOnly: [] });
  });
});

describe("day2 stage: pods, drift, tools, report", () => {
  test("a pod gone or on another node was rescheduled", () => {
    const before = [
      { uid: "1", name: "a", node: "n1" },
      { uid: "2", name: "b", node: "n1" },
      { uid: "3", name: "c", node: "n2" },
    ];
    expect(stage.podsRescheduled(before, [before[0], { ...before[1], node: "n3" }])).toEqual([
      "b (n1 → n3)",
      "c (n2, gone)",
    ]);
    expect(stage.podsRescheduled(before, before)).toEqual([]);
  });

  describe("nodes kept across a controller restart: only the controller's consolidation explains a replacement", () => {
    // the shape of kubernetes-sigs/karpenter's `disrupting node(s)` line (pkg/controllers/disruption/queue.go)
    const line = (reason: string, claim: string, node: string) =>
      JSON.stringify({
        level: "INFO",
        message: "disrupting node(s)",
        command: `${reason}/0eae355d: replace: nodepools=[default]: [${node}] -> [1 replacement] (savings: $0.01)`,
        decision: "replace",
        "disrupted-nodes": [{ Node: { name: node }, NodeClaim: { name: claim }, "instance-type": "c6a.xlarge" }],
      });
    const podsBefore = [
      { uid: "1", name: "a", node: "n-old" },
      { uid: "2", name: "b", node: "n-keep" },
    ];
    const podsAfter = [
      { uid: "1", name: "a", node: "n-new" },
      { uid: "2", name: "b", node: "n-keep" },
    ];
    const base = { claimsBefore: ["old", "keep"], claimsAfter: ["keep", "new"], podsBefore, podsAfter };

    test("the decisions read from the log, noise and broken lines ignored", () => {
      const log = ['{"message":"launched nodeclaim"}', "not json disrupting node(s)", line("Drifted", "c1", "n1")].join(
        "\n",
      );
      expect(stage.disruptionCommands(log)).toEqual([
        { reason: "Drifted", decision: "replace", claims: ["c1"], nodes: ["n1"] },
      ]);
      expect(stage.disruptionCommands("")).toEqual([]);
    });

    test("a consolidation the controller logged explains the NodeClaim gone and the pods it moved", () => {
      const r = stage.nodesKept({ ...base, logText: line("Underutilized", "old", "n-old") });
      expect(r).toMatchObject({ ok: true, kept: ["keep"], consolidated: ["old"], unexplained: [], moved: [] });
      expect(r.said).toBe(
        "1 of 2 NodeClaim(s) kept, old consolidated by the controller (its decisions: Underutilized replace of old)",
      );
      expect(stage.nodesKept({ ...base, logText: line("Empty", "old", "n-old") }).ok).toBe(true);
    });

    test("a drift replacement, or a NodeClaim gone with no decision logged, is not kept", () => {
      const drifted = stage.nodesKept({ ...base, logText: line("Drifted", "old", "n-old") });
      expect(drifted).toMatchObject({
        ok: false,
        consolidated: [],
        unexplained: ["old"],
        moved: ["a (n-old → n-new)"],
      });
      expect(drifted.said).toContain("old gone without a consolidation (its decisions: Drifted replace of old)");
      expect(stage.nodesKept({ ...base, logText: "" })).toMatchObject({ ok: false, unexplained: ["old"] });
    });

    test("a NodeClaim the stand-in garbage collector deleted is named, and still not kept", () => {
      const r = stage.nodesKept({
        ...base,
        logText: "",
        collected: [{ claim: "old", pool: "default", status: 404 }],
      });
      expect(r).toMatchObject({ ok: false, unexplained: ["old"] });
      expect(r.said).toContain(
        "old deleted by the stand-in garbage collector (NodePool default: 404) gone without a consolidation",
      );
    });

    test("a NodeClaim the controller garbage-collected (its debug line) is named, and still not kept", () => {
      const gc = JSON.stringify({
        level: "DEBUG",
        message: "garbage collecting nodeclaim with no cloudprovider representation",
        NodeClaim: { name: "old" },
        "provider-id": "aws:///us-west-2a/i-0abc",
      });
      expect(stage.garbageCollected(`not json garbage collecting nodeclaim\n${gc}`)).toEqual(["old"]);
      const r = stage.nodesKept({ ...base, logText: gc });
      expect(r).toMatchObject({ ok: false, unexplained: ["old"] });
      expect(r.said).toContain("old garbage-collected by the controller (no instance listed) gone without");
    });

    test("a pod moved off a node no consolidation names is not kept, even with every NodeClaim there", () => {
      const r = stage.nodesKept({
        claimsBefore: ["keep"],
        claimsAfter: ["keep"],
        podsBefore: [{ uid: "2", name: "b", node: "n-keep" }],
        podsAfter: [{ uid: "2", name: "b", node: "n-other" }],
        logText: line("Underutilized", "old", "n-old"),
      });
      expect(r).toMatchObject({ ok: false, kept: ["keep"], moved: ["b (n-keep → n-other)"] });
      expect(
        stage.nodesKept({ ...base, claimsAfter: ["old", "keep"], podsAfter: podsBefore, logText: "" }),
      ).toMatchObject({
        ok: true,
        said: "2 of 2 NodeClaim(s) kept",
      });
    });
  });

  test("a drift rollout: at most one old NodeClaim at once, each after a new one is ready", () => {
    const c = (name: string, deleting = false, initialized = true) => ({ name, deleting, initialized });
    const good = [
      { claims: [c("o1"), c("o2")] },
      { claims: [c("o1", true), c("o2"), c("n1")] },
      { claims: [c("o2", true), c("n1"), c("n2")] },
      { claims: [c("n1"), c("n2")] },
    ];
    expect(stage.driftRollout(good, ["o1", "o2"])).toEqual({
      maxConcurrent: 1,
      replaced: ["o1", "o2"],
      remaining: [],
      beforeReplacement: [],
    });
    const bad = [
      { claims: [c("o1", true), c("o2", true), c("n1", false, false)] },
      { claims: [c("o2", true), c("n1")] },
    ];
    expect(stage.driftRollout(bad, ["o1", "o2"])).toEqual({
      maxConcurrent: 2,
      replaced: ["o1"],
      remaining: ["o2"],
      beforeReplacement: ["sample 0: o1, o2 deleting, no new NodeClaim initialized"],
    });
    // an old NodeClaim whose instance is terminating (drained, delete accepted) no longer counts, as in Karpenter's
    // budget: the next one may start while its finalizer waits for the instance to go
    const t = (name: string) => ({ name, deleting: true, terminating: true, initialized: true });
    const overlapping = [
      { claims: [c("o1", true), c("o2"), c("n1")] },
      { claims: [t("o1"), c("o2", true), c("n1"), c("n2")] },
      { claims: [c("n1"), c("n2")] },
    ];
    expect(stage.driftRollout(overlapping, ["o1", "o2"]).maxConcurrent).toBe(1);
    const both = [{ claims: [c("o1", true), c("o2", true), c("n1"), c("n2")] }];
    expect(stage.driftRollout(both, ["o1", "o2"]).maxConcurrent).toBe(2);
  });

  test("a disruption budget's allowance: the smallest that applies, percentages rounded up, 10% by default", () => {
    expect(stage.budgetAllowance(undefined, 3, "Drifted")).toBe(1);
    expect(stage.budgetAllowance(undefined, 25, "Drifted")).toBe(3);
    expect(stage.budgetAllowance([{ nodes: "1" }], 5, "Drifted")).toBe(1);
    expect(stage.budgetAllowance([{ nodes: "50%" }, { nodes: "2" }], 5, "Drifted")).toBe(2);
    // a budget for other reasons, or one with a schedule (not evaluated), does not limit drift
    expect(stage.budgetAllowance([{ nodes: "0", reasons: ["Underutilized"] }, { nodes: "3" }], 5, "Drifted")).toBe(3);
    expect(stage.budgetAllowance([{ nodes: "0", schedule: "@daily", duration: "10m" }], 4, "Drifted")).toBe(4);
    expect(stage.budgetAllowance([], 4, "Drifted")).toBe(4);
  });

  test("the policies in force at a line of the recording: each apply a window where either set may be", () => {
    const P = (n: string) => [{ name: n, document: {} }];
    const phases = [
      { id: "getting-started", start: 0, end: 0, policies: P("gs") },
      { id: "takeover", start: 10, end: 20, policies: P("ours") },
      { id: "upgrade", start: 30, end: 35, policies: P("new") },
    ];
    expect(stage.policiesInForce(phases, 5)).toEqual({ id: "getting-started", policies: P("gs") });
    expect(stage.policiesInForce(phases, 12)).toEqual({
      id: "getting-started/takeover",
      policies: [
        { name: "gs (getting-started)", document: {} },
        { name: "ours (takeover)", document: {} },
      ],
    });
    expect(stage.policiesInForce(phases, 20).id).toBe("takeover");
    expect(stage.policiesInForce(phases, 29).id).toBe("takeover");
    expect(stage.policiesInForce(phases, 34).id).toBe("takeover/upgrade");
    expect(stage.policiesInForce(phases, 99)).toEqual({ id: "upgrade", policies: P("new") });
  });

  test("a step needs its own tools and every earlier step's", () => {
    const built = (n: string) => ["moto", "kube-apiserver", "etcd", "helm", "tofu"].includes(n);
    expect(stage.missingTools("getting-started", built)).toEqual([]);
    expect(stage.missingTools("launch", built)).toEqual(["karpenter-1.14"]);
    expect(stage.missingTools("upgrade", built)).toEqual([
      "karpenter-1.14",
      "aws-provider",
      "helm-provider",
      "kubernetes-provider",
      "karpenter-1.15",
    ]);
    expect(() => stage.missingTools("nope", built)).toThrow(/unknown day-2 step nope/);
  });

  test("the report's day2 object holds every figure the issue names", () => {
    const r = stage.emptyDay2Report();
    expect(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Object.keys(v as object)]))).toEqual({
      adopt: ["imported", "destroyed", "replaced", "instancesBefore", "instancesAfter", "podsRescheduled"],
      upgrade: ["from", "to", "predictedOnly", "plannedOnly", "podsRescheduled", "consolidated"],
      drift: ["replaced", "maxConcurrent", "budget"],
      rollback: ["from", "to", "ok"],
      destroy: ["leftovers"],
      iam: ["calls", "allowed"],
    });
  });
});

describe("day2 stage: selected by --stage only", () => {
  const { parseArgs, Report } = require("../scripts/e2e/report.cjs");

  test("--stage day2 selects it; the default run leaves it out", () => {
    expect(parseArgs(["--stage", "day2"])).toMatchObject({ mode: "stages", stages: ["day2"] });
    expect(parseArgs([]).stages).not.toContain("day2");
    expect(() => parseArgs(["--stage", "day3"])).toThrow(/unknown stage \(stages: .*day2(, values-agreement)?\)/);
  });

  test("--report writes the day2 object when the stage ran", () => {
    const r = new Report(() => undefined);
    expect(r.toJSON()).not.toHaveProperty("day2");
    r.day2 = stage.emptyDay2Report();
    expect(r.toJSON().day2.adopt).toHaveProperty("podsRescheduled", null);
  });
});

describe("karpenter stage machinery the day-2 stage shares: prepareLocalStack", () => {
  const fs = require("fs");
  const os = require("os");
  const path = require("path");
  const karpenter = require("../scripts/e2e/karpenter-stage.cjs");
  const runner = require("../scripts/e2e/e2e.cjs");
  const { stackOverride } = require("../scripts/e2e/cluster-stage.cjs");

  test("a stack copied with the endpoints, the local server, the reference chart, its state and the remote state it reads", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "day2-prep-"));
    try {
      const src = path.join(tmp, "out", "stacks", "nodes");
      fs.mkdirSync(src, { recursive: true });
      fs.writeFileSync(path.join(tmp, "ca.pem"), "CA");
      const config = {
        terraform: { required_providers: { aws: { source: "aws" }, helm: { source: "helm" } } },
        provider: { aws: [{ region: "us-east-1" }], helm: [{ kubernetes: {} }] },
        data: {
          terraform_remote_state: {
            cross: { backend: "local", config: { path: "../../terraform.karpenter.tfstate" } },
          },
        },
        resource: {
          helm_release: {
            crds: { chart: "karpenter-crd", version: "1.14.1", repository: "oci://public.ecr.aws/karpenter" },
          },
        },
      };
      fs.writeFileSync(path.join(src, "cdk.tf.json"), JSON.stringify(config));
      // prepareStack pins the providers the tool cache holds: stand-in files for them
      const tools = runner.readTools();
      for (const t of ["aws-provider", "helm-provider"]) {
        tools[t] = { ...tools[t], bin: path.join(tmp, t) };
        fs.writeFileSync(tools[t].bin, "");
      }
      const api = { stackOverride, prepareStack: runner.prepareStack, tools };
      const s = karpenter.prepareLocalStack(api, {
        out: path.join(tmp, "out"),
        name: "nodes",
        dir: path.join(tmp, "run", "nodes"),
        statePath: (n: string) => path.join(tmp, "state", `${n}.tfstate`),
        moto: { url: "http://127.0.0.1:5000" },
        cluster: { server: "https://127.0.0.1:6443", caFile: path.join(tmp, "ca.pem"), token: "t" },
        version: "1.14.1",
        chartsDir: "/charts-1.14.1",
        extra: { helm_release: { crds: { atomic: true } } },
      });
      expect(s.dir).toBe(path.join(tmp, "run", "nodes"));
      const ov = JSON.parse(fs.readFileSync(path.join(s.dir, "e2e_override.tf.json"), "utf8"));
      expect(ov.terraform.backend.local.path).toBe(path.join(tmp, "state", "nodes.tfstate"));
      expect(ov.data.terraform_remote_state.cross.config.path).toBe(path.join(tmp, "state", "karpenter.tfstate"));
      expect(ov.provider.aws[0].endpoints[0].ec2).toBe("http://127.0.0.1:5000");
      expect(ov.provider.helm[0].kubernetes).toEqual({
        host: "https://127.0.0.1:6443",
        cluster_ca_certificate: "CA",
        token: "t",
      });
      expect(ov.resource.helm_release.crds).toEqual({
        chart: "/charts-1.14.1/karpenter-crd",
        repository: null,
        wait: false,
        atomic: true,
      });
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
