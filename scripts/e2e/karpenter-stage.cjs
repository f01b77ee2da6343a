"use strict";
// `npm run e2e -- --stage karpenter`: the real Karpenter controller against what the main example emits.
//
//   1. the example synthesized (CLUSTER_NAME, AWS_REGION, KARPENTER_VERSION, KUBERNETES_VERSION,
//      INFLATE_REPLICAS honoured; INFLATE_REPLICAS defaults to 2 here, the example's 0 would launch nothing).
//      A release whose controller versions.txt records as blocked runs as the built patch of its minor
//      (selectRelease): app, charts and controller all at that patch, said in the first line and the report,
//      with a check that the app at both releases differs in nothing but the release string;
//   2. moto (scripts/e2e/moto-launcher.py: what moto lacks) on loopback, recording every request; a local
//      kube-apiserver + etcd (scripts/e2e/local-cluster.cjs);
//   3. `tofu apply` of the whole `eks` stack into moto and the local server (the Helm releases from the
//      reference charts of the version), then of the `karpenter-nodes` stack (EC2NodeClass, NodePool,
//      inflate). The override file beside each copied stack is the only change: endpoints, credentials,
//      local charts, and `wait = false` / `wait_for_rollout = false` (no kubelet ever makes a pod ready);
//   4. the controller built from its Go module, started as a process with the environment of the applied
//      Deployment (read from the API server) and, laid over it, only what a pod would get from its node and
//      Pod Identity: KUBECONFIG, the endpoints (moto), the credentials of the synthesized controller role
//      (moto STS AssumeRole), free metrics/health ports and the leader-election namespace;
//   5. the checks, each with its own time limit (see CHECKS); a loop stands in for what a cluster has and
//      this one lacks: kubelets (a Node per launched NodeClaim, made Ready), the scheduler (pending pods
//      bound to a Node with room, PodScheduled=False/Unschedulable otherwise), the ReplicaSet controller
//      (inflate's pods kept at its replicas) and the garbage collector (objects whose owner is gone);
//   6. every AWS request of the controller judged against the applied controller policies (iam-judge.cjs),
//      with a negative control.
// Nodes are Node objects the stage creates, not kwok: with no kube-controller-manager nothing marks a Node
// NotReady, so a Ready status written once holds, and kwok would be one more build and process for nothing.
const fs = require("fs");
const path = require("path");
const { spawn, spawnSync } = require("child_process");
const judgeLib = require("./iam-judge.cjs");
const { referenceRelease } = require("./reference-release.cjs");

const ACCOUNT = "123456789012";
const repo = path.resolve(__dirname, "../..");
const reference = path.resolve(repo, "..", "shared", "reference", "karpenter");

/** Deliberately broken inputs (`--break <name>`): each must make the named check fail. */
const BREAKS = {
  "queue-target": {
    check: "interruption",
    what: "the spot interruption rule targets another queue than the controller reads",
  },
  "node-role": { check: "nodeclass-ready", what: "the EC2NodeClass names a role that is not the node role" },
};

const LIMITS = {
  "nodeclass-ready": 120,
  launch: 180,
  register: 90,
  interruption: 120,
  consolidation: 240,
  destroy: 600,
};

// ------------------------------------------------------------------------------------------ pure parts

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Kubernetes quantity → number (cores for cpu, bytes for memory). */
function quantity(q) {
  const m = String(q).match(/^([0-9.]+)([a-zA-Z]*)$/);
  if (!m) return NaN;
  const mult = {
    "": 1,
    m: 1e-3,
    k: 1e3,
    K: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
  }[m[2]];
  return Number(m[1]) * (mult === undefined ? NaN : mult);
}

/**
 * The controller container's environment as the kubelet would give it: `value`s, `fieldRef`
 * metadata.namespace, `resourceFieldRef` with its divisor; `overlay` laid over it.
 */
function controllerEnv(deployment, overlay = {}) {
  const pod = deployment.spec.template.spec;
  const c = pod.containers.find((x) => x.name === "controller") || pod.containers[0];
  const env = {};
  const fromDeployment = [];
  for (const e of c.env || []) {
    let v;
    if ("value" in e) v = e.value;
    else if (e.valueFrom && e.valueFrom.fieldRef) {
      const f = e.valueFrom.fieldRef.fieldPath;
      v =
        f === "metadata.namespace"
          ? deployment.metadata.namespace || "default"
          : f === "spec.nodeName"
            ? "e2e-host"
            : f === "metadata.name"
              ? `${deployment.metadata.name || "karpenter"}-e2e`
              : undefined;
    } else if (e.valueFrom && e.valueFrom.resourceFieldRef) {
      const r = e.valueFrom.resourceFieldRef;
      const [kind, res] = r.resource.split(".");
      const container = pod.containers.find((x) => x.name === (r.containerName || c.name)) || c;
      const val = ((container.resources || {})[kind] || {})[res];
      const divisor = !r.divisor || r.divisor === "0" ? 1 : quantity(r.divisor);
      if (val !== undefined) v = String(Math.ceil(quantity(val) / divisor));
    }
    if (v !== undefined) {
      env[e.name] = String(v);
      fromDeployment.push(e.name);
    }
  }
  return { env: { ...env, ...overlay }, fromDeployment };
}

/** Where a NodeClaim's requirements fall outside its NodePool's: [] when they satisfy it. */
function claimSatisfiesPool(claim, pool) {
  const problems = [];
  const want = ((pool.spec.template || {}).spec || {}).requirements || [];
  const have = new Map((claim.spec.requirements || []).map((r) => [r.key, r]));
  for (const w of want) {
    const h = have.get(w.key);
    if (!h) {
      problems.push(`${w.key}: missing from the NodeClaim`);
      continue;
    }
    const values = h.operator === "In" ? h.values : [];
    for (const v of values) {
      if (w.operator === "In" && !w.values.includes(v)) problems.push(`${w.key}: ${v} not In [${w.values.join(", ")}]`);
      if (w.operator === "NotIn" && w.values.includes(v))
        problems.push(`${w.key}: ${v} NotIn [${w.values.join(", ")}]`);
      if (w.operator === "Gt" && !(Number(v) > Number(w.values[0])))
        problems.push(`${w.key}: ${v} not Gt ${w.values[0]}`);
      if (w.operator === "Lt" && !(Number(v) < Number(w.values[0])))
        problems.push(`${w.key}: ${v} not Lt ${w.values[0]}`);
    }
    if (h.operator !== "In" && w.operator === "In")
      problems.push(`${w.key}: NodeClaim operator ${h.operator}, NodePool In`);
  }
  return problems;
}

/** Whether a NodePool budget with a schedule forbids voluntary disruption now (UTC). Handles the m h * * dow form. */
function budgetBlocksNow(pool, now = new Date()) {
  for (const b of (pool.spec.disruption || {}).budgets || []) {
    if (String(b.nodes) !== "0" || !b.schedule) continue;
    const [min, hour, , , dow] = b.schedule.split(/\s+/);
    const days = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
    const dayOk = (d) =>
      dow === "*" ||
      dow.split(",").some((part) => {
        const [a, z] = part.split("-").map((x) => (x in days ? days[x] : Number(x)));
        return z === undefined ? d === a : d >= a && d <= z;
      });
    const dur = String(b.duration || "0h").match(/(\d+)h/);
    const hours = dur ? Number(dur[1]) : 0;
    for (let back = 0; back <= 1; back++) {
      const start = new Date(
        Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - back, Number(hour), Number(min)),
      );
      if (dayOk(start.getUTCDay()) && now >= start && now < new Date(start.getTime() + hours * 3600e3))
        return `${b.schedule} for ${b.duration}`;
    }
  }
  return undefined;
}

/**
 * The negative control: the policies with the statement that allowed the most of the run's requests
 * removed; every request it alone allowed must now be denied, and no other verdict may change.
 */
async function negativeControl(calls, policies, opts) {
  const full = await judgeLib.judge(calls, policies, opts);
  const count = new Map();
  for (const d of full.distinct) for (const s of d.allowedBy || []) count.set(s, (count.get(s) || 0) + 1);
  // a statement of one policy, named by its Sid (iam-simulate names it by Sid)
  const sids = policies.flatMap((p) => (p.document.Statement || []).map((s) => s.Sid)).filter(Boolean);
  const pick = [...count.entries()]
    .filter(([s]) => sids.includes(s))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  if (!pick) return { sid: undefined, denied: 0, expected: 0, unexpected: ["no statement allowed anything"] };
  const sid = pick[0];
  const cut = await judgeLib.judge(calls, judgeLib.withoutStatement(policies, sid), opts);
  const after = new Map(cut.distinct.map((d) => [d.key, d]));
  const unexpected = [];
  let denied = 0;
  let expected = 0;
  for (const d of full.distinct) {
    const only = d.result === "Allowed" && (d.allowedBy || []).length === 1 && d.allowedBy[0] === sid;
    const a = after.get(d.key);
    if (only) {
      expected++;
      if (a && a.result !== "Allowed") denied++;
      else unexpected.push(`${d.action} ${d.resource}: still allowed`);
    } else if (a && a.result !== d.result) unexpected.push(`${d.action} ${d.resource}: ${d.result} → ${a.result}`);
  }
  return {
    sid,
    denied,
    expected,
    unexpected,
    actions: [...new Set(full.distinct.filter((d) => (d.allowedBy || []).includes(sid)).map((d) => d.action))].sort(),
  };
}

// --------------------------------------------------------------------------------------- the emulator

const PY_AWS = String.raw`
import boto3, botocore.exceptions, json, sys, base64
url, region, op = sys.argv[1], sys.argv[2], sys.argv[3]
arg = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
kw = dict(endpoint_url=url, region_name=region, aws_access_key_id="e2e-inspector", aws_secret_access_key="e2e")
def tags(l): return {t["Key"]: t["Value"] for t in (l or [])}
out = None
if op == "assume-role":
    sts = boto3.client("sts", **kw)
    c = sts.assume_role(RoleArn=arg["role"], RoleSessionName="karpenter-e2e")["Credentials"]
    out = {"AccessKeyId": c["AccessKeyId"], "SecretAccessKey": c["SecretAccessKey"], "SessionToken": c["SessionToken"]}
elif op == "inventory":
    ec2 = boto3.client("ec2", **kw); iam = boto3.client("iam", **kw)
    inst = {}
    for r in ec2.describe_instances()["Reservations"]:
        for i in r["Instances"]:
            inst[i["InstanceId"]] = {"state": i["State"]["Name"], "tags": tags(i.get("Tags")), "type": i["InstanceType"],
                                     "zone": i["Placement"]["AvailabilityZone"], "subnet": i.get("SubnetId"), "lifecycle": i.get("InstanceLifecycle", "on-demand")}
    lts = {}
    for lt in ec2.describe_launch_templates()["LaunchTemplates"]:
        # the controller deletes launch templates while we list them: one gone between the two calls is not inventory
        try: v = ec2.describe_launch_template_versions(LaunchTemplateId=lt["LaunchTemplateId"])["LaunchTemplateVersions"][-1]["LaunchTemplateData"]
        except botocore.exceptions.ClientError as e:
            if e.response["Error"]["Code"] in ("InvalidLaunchTemplateId.NotFound", "InvalidLaunchTemplateName.NotFoundException"): continue
            raise
        ud = v.get("UserData")
        try: ud = base64.b64decode(ud).decode() if ud else ""
        except Exception: pass
        lts[lt["LaunchTemplateName"]] = {"id": lt["LaunchTemplateId"], "tags": tags(lt.get("Tags")), "profile": (v.get("IamInstanceProfile") or {}).get("Name") or (v.get("IamInstanceProfile") or {}).get("Arn"),
                                          "securityGroups": v.get("SecurityGroupIds") or [g for n in v.get("NetworkInterfaces", []) for g in n.get("Groups", [])], "image": v.get("ImageId"), "userData": ud}
    profiles = {}
    for p in iam.list_instance_profiles()["InstanceProfiles"]:
        t = p.get("Tags") or []  # moto has no ListInstanceProfileTags
        profiles[p["InstanceProfileName"]] = {"path": p["Path"], "roles": [r["RoleName"] for r in p["Roles"]], "tags": tags(t)}
    sgs = {g["GroupId"]: tags(g.get("Tags")) for g in ec2.describe_security_groups()["SecurityGroups"]}
    out = {"instances": inst, "launchTemplates": lts, "instanceProfiles": profiles, "securityGroups": sgs}
elif op == "policies":
    iam = boto3.client("iam", **kw)
    docs = []
    for a in iam.list_attached_role_policies(RoleName=arg["role"])["AttachedPolicies"]:
        p = iam.get_policy(PolicyArn=a["PolicyArn"])["Policy"]
        v = iam.get_policy_version(PolicyArn=a["PolicyArn"], VersionId=p["DefaultVersionId"])["PolicyVersion"]["Document"]
        docs.append({"name": a["PolicyName"], "document": json.loads(v) if isinstance(v, str) else v})
    out = docs
elif op == "put-events":
    ev = boto3.client("events", **kw)
    out = ev.put_events(Entries=arg["entries"])
elif op == "queue":
    sqs = boto3.client("sqs", **kw)
    q = sqs.get_queue_url(QueueName=arg["name"])["QueueUrl"]
    out = {"url": q, "attrs": sqs.get_queue_attributes(QueueUrl=q, AttributeNames=["All"])["Attributes"]}
elif op == "role":
    iam = boto3.client("iam", **kw)
    r = iam.get_role(RoleName=arg["name"])["Role"]
    d = r["AssumeRolePolicyDocument"]
    out = {"arn": r["Arn"], "trust": json.loads(d) if isinstance(d, str) else d}
elif op == "rules":
    ev = boto3.client("events", **kw)
    out = [r["Arn"] for r in ev.list_rules()["Rules"] if any(t["Arn"] == arg["queueArn"] for t in ev.list_targets_by_rule(Rule=r["Name"])["Targets"])]
elif op == "create-queue":
    sqs = boto3.client("sqs", **kw)
    out = sqs.create_queue(QueueName=arg["name"])["QueueUrl"]
print(json.dumps(out, default=str))
`;

function aws(py, url, region, op, arg) {
  const r = spawnSync(py, ["-c", PY_AWS, url, region, op, JSON.stringify(arg || {})], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`aws ${op}: ${(r.stderr || "").trim().split("\n").slice(-3).join(" ")}`);
  return JSON.parse(r.stdout);
}

async function startLauncher(tools, work, region) {
  const net = require("net");
  const port = await new Promise((res, rej) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => res(p));
    });
    s.on("error", rej);
  });
  const py = path.join(path.dirname(tools.moto.bin), "python");
  const recording = path.join(work, "moto-recording.jsonl");
  const log = fs.openSync(path.join(work, "moto.log"), "w");
  const proc = spawn(py, [path.join(__dirname, "moto-launcher.py"), "-p", String(port), "--region", region], {
    stdio: ["ignore", log, log],
    env: {
      ...process.env,
      MOTO_IAM_LOAD_MANAGED_POLICIES: "true",
      MOTO_ENABLE_RECORDING: "true",
      MOTO_RECORDER_FILEPATH: recording,
    },
  });
  fs.closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    const ok = await new Promise((r) =>
      require("http")
        .get(`${url}/moto-api/`, (res) => {
          res.resume();
          r(res.statusCode === 200);
        })
        .on("error", () => r(false)),
    );
    if (ok) return { proc, url, py, recording };
    if (proc.exitCode !== null) break;
    await sleep(500);
  }
  proc.kill();
  throw new Error(`moto launcher did not start on ${url}; see ${path.join(work, "moto.log")}`);
}

// ---------------------------------------------------------------------------------------------- tofu

function runAsync(cmd, args, opts) {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d) => {
      stdout += d;
    });
    p.stderr.on("data", (d) => {
      stderr += d;
    });
    p.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * The broken input of `--break` as override resources laid over the cluster stage's override (endpoints,
 * credentials, local charts and server): the spot rule's target another queue, or the EC2NodeClass's role
 * another role.
 */
function breakOverride(stackName, config, brk, spareQueueArn) {
  if (brk === "queue-target" && stackName === "eks") {
    const targets = (config.resource || {}).aws_cloudwatch_event_target || {};
    const spot = Object.keys(targets).find((n) => /SpotInterruption/.test(n));
    return { aws_cloudwatch_event_target: { [spot]: { arn: spareQueueArn } } };
  }
  if (brk === "node-role" && stackName === "karpenter-nodes") {
    const manifests = (config.resource || {}).kubernetes_manifest || {};
    const nc = Object.keys(manifests).find((n) => manifests[n].manifest.kind === "EC2NodeClass");
    const m = JSON.parse(JSON.stringify(manifests[nc].manifest));
    m.spec.role = "e2e-not-the-node-role";
    return { kubernetes_manifest: { [nc]: { manifest: m } } };
  }
  return {};
}

// ------------------------------------------------------------------------------------------ the stage

async function runKarpenterStage(api) {
  const { tools, cliConfig, check, equal, skip } = api;
  const t0 = Date.now();
  const env = process.env;
  const requested = env.KARPENTER_VERSION || defaultKarpenterVersion();
  const region = env.AWS_REGION || "us-east-1";
  const clusterName = env.CLUSTER_NAME || "karpenter-demo";
  const replicas = Number(env.INFLATE_REPLICAS === undefined || env.INFLATE_REPLICAS === "" ? 2 : env.INFLATE_REPLICAS);
  const brk = api.break;
  if (brk && !BREAKS[brk]) throw new Error(`--break ${brk}: one of ${Object.keys(BREAKS).join(", ")}`);
  // the self-test judges only the check its broken input names (and the IAM judge, which costs seconds):
  // consolidation and the destroy (tofu's SQS deletion waiter alone holds it for over two minutes) are
  // what the full run proves, and the work folder with the stacks' state goes with the run
  const notJudged = brk && `not run under --break ${brk}: the self-test judges only the ${BREAKS[brk].check} check`;
  const sel = selectRelease(requested, tools, fs.readFileSync(path.join(repo, "scripts/tools/versions.txt"), "utf8"));
  // with a substitute, everything from here on (app, charts, controller) is that release
  const version = sel.run || requested;
  const report = {
    requested,
    version,
    substitution: sel.substitute ? `requested ${requested}, ran ${version}: ${sel.why}` : null,
    region,
    clusterName,
    replicas,
    break: brk || null,
    nodeClaimsLaunched: [],
    instancesCreated: [],
    instancesTerminated: [],
    iam: null,
    leftovers: null,
    timings: {},
  };
  api.stageReport.karpenter = report;
  const ctlName = sel.tool;
  const all = [
    "nodeclass-ready",
    "launch",
    "register",
    "interruption",
    "consolidation",
    "destroy",
    "pod identity",
    "iam",
  ];
  const which = sel.substitute ? `${version} (requested ${requested}, ran ${version}: ${sel.why})` : version;
  console.log(
    `\n== karpenter stage: Karpenter ${which}, cluster ${clusterName}, ${region}, ${replicas} inflate replicas${brk ? `, broken input: ${brk} (${BREAKS[brk].what})` : ""}`,
  );
  if (!sel.run) {
    for (const c of all) skip(`karpenter: ${c}`, `no controller build for Karpenter ${requested}: ${sel.why}`);
    return;
  }
  const needed = api.seed ? ["moto", "kube-apiserver", "etcd", "helm", ctlName] : toolsFor(version);
  const missing = needed.filter((n) => !tools[n] || !fs.existsSync(tools[n].bin));
  if (missing.length) {
    const what = missing
      .map((n) => (tools[n] ? `${n} ${tools[n].module}@${tools[n].version}` : `${n} (no versions.txt row)`))
      .join(", ");
    if (process.env.E2E_NOT_BUILT === "skip") {
      for (const c of all) skip(`karpenter: ${c}`, `not built yet: ${what}`);
      return;
    }
    check("karpenter: tools built", false, `not built: ${what} (bash scripts/tools/build.sh ${missing.join(" ")})`);
    return;
  }
  // the same choice of charts as the helm-template and cluster stages: a patch without artefacts of its own uses its minor's earlier patch's
  const refRelease = referenceRelease(reference, version);
  if (!refRelease) {
    for (const c of all)
      skip(
        `karpenter: ${c}`,
        `no reference charts for ${version} (nor for an earlier ${version.split(".").slice(0, 2).join(".")} patch) in ${reference}`,
      );
    return;
  }

  const work = path.join(api.work, "karpenter");
  fs.mkdirSync(work, { recursive: true });
  const charts = chartsFor(refRelease.version);
  const chartsDir = charts.dir;
  report.crds = charts.crds;
  report.charts = refRelease.exact ? `v${version}` : refRelease.note;
  console.log(`       charts: ${chartsDir} (CRDs: ${charts.crds})${refRelease.exact ? "" : `; ${refRelease.note}`}`);
  const out = api.synth("examples/eks-karpenter/main.ts", path.join(work, "out"), {
    CLUSTER_NAME: clusterName,
    AWS_REGION: region,
    KARPENTER_VERSION: version,
    ...(env.KUBERNETES_VERSION ? { KUBERNETES_VERSION: env.KUBERNETES_VERSION } : {}),
    INFLATE_REPLICAS: String(replicas),
  });
  if (sel.substitute) {
    // the substitute stands for the requested release only if the library emits the same app for both
    // but for the release string (the chart versions)
    const outReq = api.synth("examples/eks-karpenter/main.ts", path.join(work, "out-requested"), {
      CLUSTER_NAME: clusterName,
      AWS_REGION: region,
      KARPENTER_VERSION: requested,
      ...(env.KUBERNETES_VERSION ? { KUBERNETES_VERSION: env.KUBERNETES_VERSION } : {}),
      INFLATE_REPLICAS: String(replicas),
    });
    const stacksIn = (o) =>
      Object.fromEntries(
        fs
          .readdirSync(path.join(o, "stacks"))
          .map((n) => [n, JSON.parse(fs.readFileSync(path.join(o, "stacks", n, "cdk.tf.json"), "utf8"))]),
      );
    const { diffs, count } = releaseDiff(stacksIn(outReq), stacksIn(out), requested, version);
    report.substitutionDiff = { releaseStrings: count, otherDifferences: diffs };
    check(
      `karpenter: substitution: the example synthesized at ${requested} and at ${version} differ only in the release string (${count} occurrence(s): chart versions, outputs)`,
      count > 0 && diffs.length === 0,
      diffs.slice(0, 12).join("\n       "),
    );
  }
  report.timings.synth = secs(t0);

  const { startLocalCluster } = require("./local-cluster.cjs");
  const moto = await startLauncher(tools, work, region);
  let cluster;
  let controller;
  const peak = { rss: 0 };
  const stopAll = async () => {
    if (controller && controller.exitCode === null) {
      controller.kill("SIGTERM");
      await Promise.race([new Promise((r) => controller.once("exit", r)), sleep(5000)]);
    }
    if (cluster) await cluster.stop();
    if (moto.proc.exitCode === null) moto.proc.kill("SIGTERM");
  };
  const memTimer = setInterval(() => {
    peak.rss = Math.max(peak.rss, treeRss([process.pid, moto.proc.pid, controller && controller.pid].filter(Boolean)));
  }, 2000);
  try {
    cluster = await startLocalCluster({
      workDir: path.join(work, "cluster"),
      kubernetesVersion: env.KUBERNETES_VERSION || undefined,
      log: (l) => console.log(`       ${l}`),
    });
    const k = (m, p, b, o) => cluster.request(m, p, b, o);
    report.timings.started = secs(t0);

    // ---- the AWS stack, then the nodes stack
    const run = path.join(work, "run", "stacks");
    const spareQueueArn =
      brk === "queue-target"
        ? `arn:aws:sqs:${region}:${ACCOUNT}:${aws(moto.py, moto.url, region, "create-queue", { name: "e2e-not-the-interruption-queue" }).split("/").pop()}`
        : undefined;
    const stacks = {};
    const statePath = (n) => path.join(work, "state", `${n}.tfstate`);
    fs.mkdirSync(path.join(work, "state"), { recursive: true });
    const tenv = api.tofuEnv(cliConfig, { AWS_EC2_METADATA_DISABLED: "true" });
    let controllerRoleArn;
    let nodeRoleName;
    let queueName;
    if (api.seed) {
      // a development aid (no tofu, no aws provider): the caller seeds moto and the cluster itself
      ({ controllerRoleArn, nodeRoleName, queueName } = await api.seed({
        moto,
        cluster,
        k,
        aws: (op, arg) => aws(moto.py, moto.url, region, op, arg),
        out,
        chartsDir,
        region,
        clusterName,
      }));
    } else {
      for (const name of ["eks", "karpenter-nodes"]) {
        const cfg = JSON.parse(fs.readFileSync(path.join(out, "stacks", name, "cdk.tf.json"), "utf8"));
        stacks[name] = prepareLocalStack(api, {
          out,
          name,
          dir: path.join(run, name),
          statePath,
          moto,
          cluster,
          version,
          chartsDir,
          extra: breakOverride(name, cfg, brk, spareQueueArn),
        });
      }
      for (const name of ["eks", "karpenter-nodes"]) {
        const s = stacks[name];
        const init = await runAsync(tools.tofu.bin, ["init", "-input=false", "-no-color"], { cwd: s.dir, env: tenv });
        if (!api.must(`karpenter: tofu init ${name}`, init)) throw new Error(`tofu init ${name} failed`);
        const t = Date.now();
        const apply = await runAsync(tools.tofu.bin, ["apply", "-input=false", "-no-color", "-auto-approve"], {
          cwd: s.dir,
          env: tenv,
        });
        if (
          !api.must(
            `karpenter: tofu apply of the whole ${name} stack (${api.countResources(s.config)} resources) into moto and the local API server`,
            apply,
          )
        )
          throw new Error(`tofu apply ${name} failed`);
        check(
          `karpenter: tofu apply of the whole ${name} stack (${api.countResources(s.config)} resources) into moto and the local API server`,
          true,
        );
        report.timings[`apply-${name}`] = secs(t);
      }
      const outputs = JSON.parse(
        spawnSync(tools.tofu.bin, ["output", "-json"], { cwd: stacks.eks.dir, env: tenv, encoding: "utf8" }).stdout,
      );
      controllerRoleArn = outputs.karpenter_controller_role_arn.value;
      nodeRoleName = outputs.karpenter_node_role_name.value;
      queueName = outputs.interruption_queue_name.value;
    }
    // the controller policies as applied (tokens resolved), read now: destroy removes them
    const policies = aws(moto.py, moto.url, region, "policies", { role: controllerRoleArn.split("/").pop() }).filter(
      (p) => p.document,
    );

    // ---- the controller, with the applied Deployment's environment
    const dep = await k("GET", "/apis/apps/v1/namespaces/kube-system/deployments/karpenter");
    if (
      !check(
        "karpenter: the applied chart's Deployment is in the API server",
        dep.status === 200,
        `GET deployment: ${dep.status}`,
      )
    )
      throw new Error("no Deployment");
    const creds = aws(moto.py, moto.url, region, "assume-role", { role: controllerRoleArn });
    // moto's AssumeRole stands in for Pod Identity and reads no trust policy: the applied one, judged as
    // Pod Identity presents itself, for the service account the Deployment runs as
    {
      const role = aws(moto.py, moto.url, region, "role", { name: controllerRoleArn.split("/").pop() });
      const sa = dep.body.spec.template.spec.serviceAccountName;
      const ns = dep.body.metadata.namespace;
      const clusterArn = `arn:aws:eks:${region}:${ACCOUNT}:cluster/${clusterName}`;
      const trust = await judgeLib.judgeTrustPolicy(role.trust, controllerRoleArn, {
        account: ACCOUNT,
        clusterArn,
        namespace: ns,
        serviceAccount: sa,
      });
      report.trustPolicy = trust;
      check(
        `karpenter: pod identity: the applied controller role trusts pods.eks.amazonaws.com for ${ns}/${sa} of ${clusterName} (sts:AssumeRole, sts:TagSession with Pod Identity's session tags) and nothing else tried (iam-simulate)`,
        trust.every((c) => c.result === c.want),
        JSON.stringify(trust),
      );
    }
    const started = await startController(api, {
      bin: tools[ctlName].bin,
      dep: dep.body,
      cluster,
      moto,
      region,
      creds,
      work,
    });
    controller = started.proc;
    const { env: cenv, fromDeployment, overlay, log: clog } = started;
    report.controllerEnv = {
      fromDeployment,
      overlay: Object.keys(overlay)
        .filter((x) => !/SECRET|SESSION|ACCESS_KEY/.test(x))
        .concat([
          "AWS_ACCESS_KEY_ID",
          "AWS_SECRET_ACCESS_KEY",
          "AWS_SESSION_TOKEN (moto STS AssumeRole of the controller role)",
        ]),
    };
    equal("karpenter: the Deployment's CLUSTER_NAME is the cluster", cenv.CLUSTER_NAME, clusterName);
    equal("karpenter: the Deployment's INTERRUPTION_QUEUE is the applied queue", cenv.INTERRUPTION_QUEUE, queueName);
    const tc = Date.now();
    console.log(
      `       controller ${version} started (pid ${controller.pid}, log ${clog}); environment: ${fromDeployment.length} variables from the Deployment, overlay ${Object.keys(overlay).join(", ")}`,
    );

    // ---- the loop that stands in for kubelets, the scheduler, the ReplicaSet controller and the GC
    const world = new World(k, { replicas, clusterName });
    world.start();

    // check 1: EC2NodeClass Ready
    const nc = await until(
      LIMITS["nodeclass-ready"],
      async () => {
        const r = await k("GET", "/apis/karpenter.k8s.aws/v1/ec2nodeclasses/default");
        const ready = ((r.body && r.body.status && r.body.status.conditions) || []).find((c) => c.type === "Ready");
        return ready && ready.status === "True" ? r.body : undefined;
      },
      () => controller.exitCode !== null && `controller exited ${controller.exitCode}: ${tailOf(clog)}`,
    );
    report.timings["nodeclass-ready"] = secs(tc);
    const last = await k("GET", "/apis/karpenter.k8s.aws/v1/ec2nodeclasses/default");
    const ncStatus = (last.body && last.body.status) || {};
    const inv0 = aws(moto.py, moto.url, region, "inventory");
    const clusterSg = Object.entries(inv0.securityGroups).find(([, t]) => t["karpenter.sh/discovery"] === clusterName);
    check(
      `karpenter: nodeclass-ready: EC2NodeClass default Ready in ${LIMITS["nodeclass-ready"]} s (subnets, security groups, AMI from the discovery tags and the alias; instance profile of the node role)`,
      !!nc &&
        (ncStatus.subnets || []).length >= 1 &&
        (ncStatus.securityGroups || []).length === 1 &&
        (ncStatus.amis || []).length >= 1 &&
        !!ncStatus.instanceProfile &&
        clusterSg &&
        ncStatus.securityGroups[0].id === clusterSg[0] &&
        ((inv0.instanceProfiles[ncStatus.instanceProfile] || {}).roles || []).includes(nodeRoleName),
      `conditions ${JSON.stringify((ncStatus.conditions || []).map((c) => `${c.type}=${c.status}${c.status !== "True" ? ` (${c.message})` : ""}`))}; subnets ${JSON.stringify(ncStatus.subnets)}; securityGroups ${JSON.stringify(ncStatus.securityGroups)} (tagged: ${clusterSg && clusterSg[0]}); amis ${(ncStatus.amis || []).length}; instanceProfile ${ncStatus.instanceProfile} roles ${JSON.stringify((inv0.instanceProfiles[ncStatus.instanceProfile] || {}).roles)}`,
    );
    report.nodeClass = {
      subnets: (ncStatus.subnets || []).map((s) => s.id),
      securityGroups: (ncStatus.securityGroups || []).map((s) => s.id),
      amis: (ncStatus.amis || []).map((a) => a.id),
      instanceProfile: ncStatus.instanceProfile,
    };

    const pool = (await k("GET", "/apis/karpenter.sh/v1/nodepools/default")).body;
    let launched = [];
    if (!nc) {
      for (const c of ["launch", "register", "interruption", "consolidation"])
        skip(`karpenter: ${c}`, "the EC2NodeClass never became Ready");
    } else if (replicas === 0) {
      for (const c of ["launch", "register", "interruption", "consolidation"])
        skip(`karpenter: ${c}`, "INFLATE_REPLICAS=0: no pod asks for a node");
    } else {
      // check 2: pending pods → NodeClaim, instance, launch template; a Node → Registered, Initialized
      const tl = Date.now();
      await world.ensurePods();
      // every NodeClaim of the first batch: launched, and no new one for 5 s
      let seen = 0;
      let stableSince = 0;
      launched = await until(LIMITS.launch, async () => {
        const claims = await world.claims();
        const ok = claims.filter((c) => c.status && c.status.providerID && cond(c, "Launched"));
        if (!ok.length || ok.length !== claims.length) return undefined;
        if (ok.length !== seen) {
          seen = ok.length;
          stableSince = Date.now();
          return undefined;
        }
        return Date.now() - stableSince >= 5000 ? ok : undefined;
      });
      report.timings.launch = secs(tl);
      const inv = aws(moto.py, moto.url, region, "inventory");
      const launchProblems = [];
      for (const c of launched || []) {
        const id = c.status.providerID.split("/").pop();
        const i = inv.instances[id];
        report.nodeClaimsLaunched.push({
          name: c.metadata.name,
          instance: id,
          type: i && i.type,
          zone: i && i.zone,
          capacityType: c.metadata.labels && c.metadata.labels["karpenter.sh/capacity-type"],
        });
        report.instancesCreated.push(id);
        launchProblems.push(...claimSatisfiesPool(c, pool).map((p) => `${c.metadata.name}: ${p}`));
        if (!i) {
          launchProblems.push(`${c.metadata.name}: instance ${id} not in moto`);
          continue;
        }
        for (const [tk, tv] of [
          ["karpenter.sh/nodepool", "default"],
          ["karpenter.k8s.aws/ec2nodeclass", "default"],
          [`kubernetes.io/cluster/${clusterName}`, "owned"],
        ]) {
          if (i.tags[tk] !== tv) launchProblems.push(`${id}: tag ${tk}=${i.tags[tk]} (want ${tv})`);
        }
      }
      const lts = Object.entries(inv.launchTemplates).filter(
        ([, lt]) => lt.tags["karpenter.k8s.aws/ec2nodeclass"] === "default",
      );
      if (!lts.length) launchProblems.push("no launch template tagged karpenter.k8s.aws/ec2nodeclass=default");
      for (const [name, lt] of lts) {
        if (lt.profile !== ncStatus.instanceProfile)
          launchProblems.push(`${name}: instance profile ${lt.profile} (want ${ncStatus.instanceProfile})`);
        if (!clusterSg || JSON.stringify(lt.securityGroups) !== JSON.stringify([clusterSg[0]]))
          launchProblems.push(
            `${name}: security groups ${JSON.stringify(lt.securityGroups)} (want the discovered ${clusterSg && clusterSg[0]})`,
          );
        if (!/node\.eks\.aws/.test(lt.userData) || !new RegExp(`name: ['"]?${clusterName}['"]?`).test(lt.userData))
          launchProblems.push(
            `${name}: user data is not AL2023 NodeConfig naming ${clusterName}: ${String(lt.userData).slice(0, 300)}`,
          );
      }
      report.launchTemplates = lts.map(([n, lt]) => ({
        name: n,
        profile: lt.profile,
        securityGroups: lt.securityGroups,
        image: lt.image,
      }));
      check(
        `karpenter: launch: ${replicas} pending pod(s) → ${(launched || []).length} NodeClaim(s) satisfying the NodePool, instance(s) tagged in moto, launch template with the instance profile, the discovered security group and AL2023 user data naming ${clusterName} (${LIMITS.launch} s)`,
        !!launched && launchProblems.length === 0,
        launched
          ? launchProblems.join("\n       ")
          : `no NodeClaim launched in ${LIMITS.launch} s: ${await world.describeClaims()}; ${tailOf(clog, /ERROR|error/)}`,
      );

      const tr = Date.now();
      const registered =
        launched &&
        (await until(LIMITS.register, async () => {
          const claims = await world.claims();
          const mine = claims.filter((c) => launched.some((l) => l.metadata.name === c.metadata.name));
          return mine.length && mine.every((c) => cond(c, "Registered") && cond(c, "Initialized")) ? mine : undefined;
        }));
      report.timings.register = secs(tr);
      check(
        `karpenter: register: with a Node for each (its providerID), the NodeClaim(s) turn Registered and Initialized (${LIMITS.register} s)`,
        !!registered,
        launched ? await world.describeClaims() : "nothing launched",
      );

      // check 3: a spot interruption warning through EventBridge → NodeClaim deleted, instance terminated
      if (registered) {
        const victim = registered[0];
        const id = victim.status.providerID.split("/").pop();
        const ti = Date.now();
        const put = aws(moto.py, moto.url, region, "put-events", {
          entries: [
            {
              Source: "aws.ec2",
              DetailType: "EC2 Spot Instance Interruption Warning",
              Resources: [`arn:aws:ec2:${region}:${ACCOUNT}:instance/${id}`],
              Detail: JSON.stringify({ "instance-id": id, "instance-action": "terminate" }),
            },
          ],
        });
        const gone = await until(LIMITS.interruption, async () => {
          const r = await k("GET", `/apis/karpenter.sh/v1/nodeclaims/${victim.metadata.name}`);
          const i = aws(moto.py, moto.url, region, "inventory").instances[id];
          return r.status === 404 && i && i.state === "terminated" ? true : undefined;
        });
        report.timings.interruption = secs(ti);
        if (gone) report.instancesTerminated.push(id);
        const inv2 = aws(moto.py, moto.url, region, "inventory");
        check(
          `karpenter: interruption: a spot interruption warning sent with EventBridge PutEvents (the synthesized rule → the queue) → NodeClaim ${victim.metadata.name} deleted and instance ${id} terminated (${LIMITS.interruption} s)`,
          !!gone && put.FailedEntryCount === 0,
          `PutEvents ${JSON.stringify(put)}; NodeClaim ${(await k("GET", `/apis/karpenter.sh/v1/nodeclaims/${victim.metadata.name}`)).status}; instance ${(inv2.instances[id] || {}).state}; queue ${JSON.stringify(aws(moto.py, moto.url, region, "queue", { name: queueName }).attrs.ApproximateNumberOfMessages)} message(s) waiting; ${tailOf(clog, /interrupt|queue|sqs/i)}`,
        );
      } else skip("karpenter: interruption", "no registered NodeClaim to interrupt");
      // moto delivers to SQS targets without reading the queue policy: the applied policy, judged
      const q = aws(moto.py, moto.url, region, "queue", { name: queueName });
      const rules = aws(moto.py, moto.url, region, "rules", { queueArn: q.attrs.QueueArn });
      const qp = await judgeLib.judgeQueuePolicy(JSON.parse(q.attrs.Policy || "{}"), q.attrs.QueueArn, rules, ACCOUNT);
      report.queuePolicy = qp;
      check(
        `karpenter: interruption: the applied queue policy lets EventBridge deliver from the ${rules.length} rule(s) targeting the queue, denies plain HTTP and other accounts (iam-simulate)`,
        rules.length > 0 && qp.every((c) => c.result === c.want),
        JSON.stringify(qp),
      );

      // check 4: replicas → 0: the nodes are empty and consolidation removes them
      const blocked = budgetBlocksNow(pool);
      if (brk) skip("karpenter: consolidation", notJudged);
      else if (blocked)
        skip(
          "karpenter: consolidation",
          `the NodePool's disruption budget allows 0 nodes now (${blocked}, UTC): consolidation is forbidden by the example's own schedule`,
        );
      else if (!registered) skip("karpenter: consolidation", "no registered NodeClaim");
      else {
        // a replacement for the interrupted node: wait until the pods have a node again, so consolidation has one to remove
        await until(LIMITS.launch, async () =>
          (await world.claims()).some((c) => cond(c, "Initialized")) ? true : undefined,
        );
        const before = (await world.claims()).map((c) => ({
          name: c.metadata.name,
          id: ((c.status || {}).providerID || "").split("/").pop(),
        }));
        for (const b of before)
          if (b.id && !report.nodeClaimsLaunched.some((x) => x.instance === b.id)) {
            report.nodeClaimsLaunched.push({ name: b.name, instance: b.id, replacement: true });
            report.instancesCreated.push(b.id);
          }
        const tcon = Date.now();
        await world.scale(0);
        const done = await until(LIMITS.consolidation, async () =>
          (await world.claims()).length === 0 ? true : undefined,
        );
        report.timings.consolidation = secs(tcon);
        const inv3 = aws(moto.py, moto.url, region, "inventory");
        for (const b of before)
          if (b.id && (inv3.instances[b.id] || {}).state === "terminated" && !report.instancesTerminated.includes(b.id))
            report.instancesTerminated.push(b.id);
        check(
          `karpenter: consolidation: inflate scaled to 0 → consolidation removes ${before.map((b) => b.name).join(", ")} and terminates ${before.map((b) => b.id).join(", ")} (consolidateAfter 1m; ${LIMITS.consolidation} s)`,
          !!done && before.every((b) => (inv3.instances[b.id] || {}).state === "terminated"),
          `${await world.describeClaims()}; instances ${JSON.stringify(before.map((b) => [b.id, (inv3.instances[b.id] || {}).state]))}; ${tailOf(clog, /disrupt|consolidat/i)}`,
        );
        // one node again for destroy to remove (the EC2NodeClass finalizer then has a NodeClaim to wait for)
        await world.scale(replicas);
        await until(LIMITS.launch, async () =>
          (await world.claims()).some((c) => cond(c, "Initialized")) ? true : undefined,
        );
      }
    }

    // check 5: destroy the nodes stack, then the AWS stack; nothing left behind
    const td = Date.now();
    if (api.seed || brk) {
      skip("karpenter: destroy", brk ? notJudged : "seeded run: no stacks to destroy");
      world.stop();
      await judgeRun(api, {
        moto,
        creds,
        region,
        policies,
        report,
        inv: aws(moto.py, moto.url, region, "inventory"),
        controllerRoleArn,
      });
      return;
    }
    const heldClaims = (await world.claims())
      .map((c) => ({ name: c.metadata.name, id: ((c.status || {}).providerID || "").split("/").pop() }))
      .filter((c) => c.id);
    for (const b of heldClaims)
      if (!report.instancesCreated.includes(b.id)) {
        report.instancesCreated.push(b.id);
        report.nodeClaimsLaunched.push({ name: b.name, instance: b.id, replacement: true });
      }
    world.watchDestroy();
    const d1 = await runAsync(tools.tofu.bin, ["destroy", "-input=false", "-no-color", "-auto-approve"], {
      cwd: stacks["karpenter-nodes"].dir,
      env: tenv,
    });
    const ok1 = api.must("karpenter: destroy: tofu destroy of the karpenter-nodes stack", d1);
    const order = destroyOrder(d1.stdout);
    const events = world.destroyEvents;
    // the controller runs as long as its Deployment does: when the release takes it away, the process goes too
    world.onDeploymentGone = async () => {
      if (controller.exitCode === null) {
        controller.kill("SIGTERM");
        world.destroyEvents.controllerStoppedAt = Date.now();
      }
    };
    const d2 = ok1
      ? await runAsync(tools.tofu.bin, ["destroy", "-input=false", "-no-color", "-auto-approve"], {
          cwd: stacks.eks.dir,
          env: tenv,
        })
      : { status: 1, stdout: "", stderr: "not run: the nodes stack did not destroy" };
    // the controller's Deployment is gone with the release: the process it stands for goes too
    if (controller.exitCode === null) {
      controller.kill("SIGTERM");
      await Promise.race([new Promise((r) => controller.once("exit", r)), sleep(5000)]);
    }
    const ok2 = api.must("karpenter: destroy: tofu destroy of the eks stack", d2);
    report.timings.destroy = secs(td);
    const inv4 = aws(moto.py, moto.url, region, "inventory");
    for (const [id, i] of Object.entries(inv4.instances))
      if (i.state === "terminated" && report.instancesCreated.includes(id) && !report.instancesTerminated.includes(id))
        report.instancesTerminated.push(id);
    const running = Object.entries(inv4.instances)
      .filter(([, i]) => i.state !== "terminated")
      .map(([id, i]) => `${id} (${i.state}, ${i.tags["karpenter.sh/nodepool"] ? "Karpenter's" : "not Karpenter's"})`);
    const crd = await k("GET", "/apis/karpenter.sh/v1/nodeclaims");
    const claimsLeft = crd.status === 200 ? crd.body.items.map((c) => c.metadata.name) : [];
    const profilesLeft = Object.entries(inv4.instanceProfiles)
      .filter(([, p]) => p.tags["karpenter.k8s.aws/ec2nodeclass"] || p.tags[`kubernetes.io/cluster/${clusterName}`])
      .map(([n]) => n);
    const ltsLeft = Object.entries(inv4.launchTemplates)
      .filter(
        ([, lt]) =>
          lt.tags["karpenter.k8s.aws/ec2nodeclass"] ||
          lt.tags["karpenter.sh/nodepool"] ||
          /^karpenter\.k8s\.aws\//.test(lt.name || ""),
      )
      .map(([n]) => n);
    report.leftovers = {
      runningInstances: running,
      nodeClaims: claimsLeft,
      instanceProfiles: profilesLeft,
      launchTemplates: ltsLeft,
    };
    const orderOk = order.indexOf("NodePool") >= 0 && order.indexOf("NodePool") < order.indexOf("EC2NodeClass");
    const held =
      heldClaims.length === 0 ||
      (events.nodeClassHeld &&
        events.claimsGoneAt &&
        events.nodeClassGoneAt &&
        events.claimsGoneAt <= events.nodeClassGoneAt);
    // the controller went with its Deployment, after the EC2NodeClass
    const controllerLast =
      !!events.controllerStoppedAt && !!events.nodeClassGoneAt && events.controllerStoppedAt >= events.nodeClassGoneAt;
    check(
      `karpenter: destroy: nodes stack then AWS stack: NodePool, then the EC2NodeClass (held by its finalizer until ${heldClaims.length} NodeClaim(s) were gone), then the controller; afterwards no running instance, no NodeClaim, no Karpenter instance profile, no leftover launch template (${LIMITS.destroy} s)`,
      ok1 &&
        ok2 &&
        orderOk &&
        held &&
        controllerLast &&
        running.length === 0 &&
        claimsLeft.length === 0 &&
        profilesLeft.length === 0 &&
        ltsLeft.length === 0,
      `destroy order ${JSON.stringify(order)}; finalizer held ${JSON.stringify(events)}; leftovers ${JSON.stringify(report.leftovers)}`,
    );
    world.stop();

    // ---- IAM: every request the controller made, judged
    const tj = Date.now();
    await judgeRun(api, { moto, creds, region, policies, report, inv: inv4, controllerRoleArn });
    report.timings.iam = secs(tj);
  } catch (e) {
    check(`karpenter: stage ran to its end`, false, e.stack || e.message);
  } finally {
    clearInterval(memTimer);
    await stopAll();
    report.timings.total = secs(t0);
    report.peakRssMiB = Math.round(peak.rss / 1048576);
    if (api.timings) api.timings.karpenter = { ...(api.timings.karpenter || {}), phases: report.timings };
    console.log(
      `       karpenter stage: ${report.timings.total} s wall, peak memory ${report.peakRssMiB} MiB (this process, moto, the controller, the API server and etcd)`,
    );
  }
}

/**
 * Stack `name` of synthesized output `out` copied to `dir` with the cluster stage's override
 * (scripts/e2e/cluster-stage.cjs stackOverride): the endpoints (moto), fake credentials, the local API server for
 * the helm and kubernetes providers, the reference charts (`chartsDir` for `version`, an other release's own),
 * `wait = false`; its state and the remote states it reads at `statePath(<stack>)`; `extra` resources laid over
 * the override. Returns `{ dir, config, ... }` of api.prepareStack.
 */
function prepareLocalStack(api, { out, name, dir, statePath, moto, cluster, version, chartsDir, extra = {} }) {
  const src = path.join(out, "stacks", name);
  const cfg = JSON.parse(fs.readFileSync(path.join(src, "cdk.tf.json"), "utf8"));
  const remoteStates = {};
  for (const [data, body] of Object.entries((cfg.data || {}).terraform_remote_state || {})) {
    const m = String((body.config || {}).path || "").match(/terraform\.([^/]+)\.tfstate$/);
    if (m) remoteStates[data] = statePath(m[1]);
  }
  const ov = api.stackOverride(cfg, {
    statePath: statePath(name),
    remoteStates,
    motoUrl: moto.url,
    leftOut: [],
    clusterFor: () => ({
      server: cluster.server,
      caPem: fs.readFileSync(cluster.caFile, "utf8"),
      token: cluster.token,
    }),
    chartDir: (chart, v) =>
      path.join(
        v === version
          ? chartsDir
          : path.join((referenceRelease(reference, v) || { dir: path.join(reference, `v${v}`) }).dir, "charts"),
        chart,
      ),
  });
  for (const [type, byName] of Object.entries(extra)) {
    ov.resource = ov.resource || {};
    ov.resource[type] = { ...(ov.resource[type] || {}) };
    for (const [n, body] of Object.entries(byName)) ov.resource[type][n] = { ...(ov.resource[type][n] || {}), ...body };
  }
  return { dir, ...api.prepareStack(src, dir, api.tools, ov) };
}

/**
 * The controller binary `bin` started as a process with the environment of Deployment `dep` (as read from the API
 * server) and, laid over it, only what a pod gets from its node and from Pod Identity: KUBECONFIG, the endpoints
 * (moto), `creds` (moto STS AssumeRole of the controller role), free metrics and health ports and the
 * leader-election namespace. Its output goes to `<work>/<logName>`.
 */
async function startController(
  api,
  { bin, dep, cluster, moto, region, creds, work, logName = "controller.log", env: extraEnv = {} },
) {
  const [metricsPort, healthPort] = [await api.freePort(), await api.freePort()];
  const overlay = {
    KUBECONFIG: cluster.kubeconfig,
    AWS_REGION: region,
    AWS_ENDPOINT_URL: moto.url,
    AWS_EC2_METADATA_DISABLED: "true",
    AWS_ACCESS_KEY_ID: creds.AccessKeyId,
    AWS_SECRET_ACCESS_KEY: creds.SecretAccessKey,
    AWS_SESSION_TOKEN: creds.SessionToken,
    METRICS_PORT: String(metricsPort),
    HEALTH_PROBE_PORT: String(healthPort),
    // in a pod controller-runtime reads the leader-election namespace from the service account mount
    LEADER_ELECTION_NAMESPACE: dep.metadata.namespace,
    HOME: work,
    PATH: process.env.PATH,
    ...extraEnv,
  };
  const { env, fromDeployment } = controllerEnv(dep, overlay);
  const log = path.join(work, logName);
  const logFd = fs.openSync(log, "w");
  const proc = spawn(bin, [], { env, stdio: ["ignore", logFd, logFd] });
  fs.closeSync(logFd);
  return { proc, log, env, fromDeployment, overlay };
}

async function judgeRun(api, { moto, creds, region, policies, report, inv, controllerRoleArn }) {
  const { check } = api;
  const text = fs.readFileSync(moto.recording, "utf8");
  const calls = judgeLib.parseRecording(text, creds.AccessKeyId);
  const principal = `arn:aws:sts::${ACCOUNT}:assumed-role/${controllerRoleArn.split("/").pop()}/karpenter-e2e`;
  const inventory = {
    instances: Object.fromEntries(Object.entries(inv.instances).map(([id, i]) => [id, i.tags])),
    launchTemplates: {},
  };
  // the launcher notes the id of each launch template created (deleted ones are gone from the inventory)
  const idsFile = `${moto.recording}.ids.jsonl`;
  if (fs.existsSync(idsFile))
    for (const l of fs.readFileSync(idsFile, "utf8").split("\n").filter(Boolean)) {
      const x = JSON.parse(l);
      const e = inventory.launchTemplates[x.launchTemplate] || { ids: [] };
      e.ids.push(x.id);
      inventory.launchTemplates[x.launchTemplate] = e;
    }
  const opts = { account: ACCOUNT, region, principal, inventory };
  const res = await judgeLib.judge(calls, policies, opts);
  const s = res.summary;
  report.iam = {
    apiCalls: s.apiCalls,
    operations: s.operations,
    distinct: s.distinct,
    allowed: s.allowed,
    denied: s.denied,
    policies: policies.map((p) => p.name),
    verdicts: res.distinct.map((d) => ({
      action: d.action,
      resource: d.resource,
      result: d.result,
      allowedBy: d.allowedBy,
      dryRun: !!d.dryRun,
    })),
  };
  console.log(`       IAM: ${s.apiCalls} requests of the controller recorded (${s.operations.join(", ")})`);
  console.log(`       IAM: ${s.distinct} distinct calls, ${s.allowed} allowed`);
  check(
    `karpenter: iam: every AWS request the controller made is allowed by the synthesized controller policies (${s.distinct} distinct calls, ${s.allowed} allowed; evaluator @cloud-copilot/iam-simulate)`,
    s.distinct > 0 && s.allowed === s.distinct && policies.length > 0,
    s.denied
      .slice(0, 12)
      .map((d) => `${d.result}: ${d.action} ${d.resource} ${JSON.stringify(d.context)}${d.error ? ` ${d.error}` : ""}`)
      .join("\n       ") || `${policies.length} policies read`,
  );
  const nc = await negativeControl(calls, policies, opts);
  report.iam.negativeControl = nc;
  check(
    `karpenter: iam: negative control: without statement ${nc.sid} the ${nc.expected} request(s) only it allowed (${(nc.actions || []).join(", ")}) are denied (${nc.denied}), no other verdict changes`,
    nc.expected > 0 && nc.denied === nc.expected && nc.unexpected.length === 0,
    nc.unexpected.join("\n       "),
  );
}

/** The node-object kinds in the order `tofu destroy` completed them. */
function destroyOrder(stdout) {
  const order = [];
  for (const line of String(stdout).split("\n")) {
    const m = line.match(/^(kubernetes_[a-z_0-9]+)\.([^:]+): Destruction complete/);
    if (!m) continue;
    order.push(
      /node-pool/.test(m[2])
        ? "NodePool"
        : /node-class/.test(m[2])
          ? "EC2NodeClass"
          : m[1] === "kubernetes_deployment_v1"
            ? "Deployment"
            : m[2],
    );
  }
  return order;
}

const cond = (o, type) => (((o.status || {}).conditions || []).find((c) => c.type === type) || {}).status === "True";
const secs = (t) => Math.round((Date.now() - t) / 100) / 10;

async function until(seconds, fn, fatal) {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const v = await fn();
    if (v) return v;
    const f = fatal && fatal();
    if (f) throw new Error(f);
    await sleep(1000);
  }
  return undefined;
}

function tailOf(file, re) {
  try {
    const lines = fs.readFileSync(file, "utf8").trim().split("\n");
    const pick = re ? lines.filter((l) => re.test(l)) : lines;
    return pick
      .slice(-6)
      .map((l) => l.slice(0, 400))
      .join("\n       ");
  } catch {
    return "";
  }
}

function treeRss(pids) {
  // the processes named and all their descendants (the API server and etcd are the cluster's children)
  const r = spawnSync("ps", ["-e", "-o", "pid=,ppid=,rss="], { encoding: "utf8" });
  const rows = r.stdout
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number));
  const kids = new Map();
  for (const [pid, ppid] of rows) {
    if (!kids.has(ppid)) kids.set(ppid, []);
    kids.get(ppid).push(pid);
  }
  const rss = new Map(rows.map(([pid, , k]) => [pid, k * 1024]));
  const seen = new Set();
  const walk = (p) => {
    if (seen.has(p)) return;
    seen.add(p);
    for (const c of kids.get(p) || []) walk(c);
  };
  pids.forEach(walk);
  let sum = 0;
  for (const p of seen) sum += rss.get(p) || 0;
  return sum;
}

/**
 * The charts the stage installs for `version`: the reference copy (released charts and CRDs for every
 * reference folder, shared/reference/karpenter/v<version>/SOURCES.md).
 */
function chartsFor(version) {
  return { dir: path.join(reference, `v${version}`, "charts"), crds: `reference v${version}/charts` };
}

/**
 * The blocked note versions.txt gives `version` (its "- <version> ... blocked" item, continuation lines
 * joined), or undefined when it records no block for it.
 */
function blockedNote(version, versionsText) {
  const lines = versionsText.split("\n");
  const i = lines.findIndex(
    (l) =>
      /^#\s*-\s/.test(l) &&
      new RegExp(`(^|[^0-9.])${version.replace(/\./g, "\\.")}([^0-9]|$)`).test(l) &&
      /blocked/.test(l),
  );
  if (i < 0) return undefined;
  const item = [lines[i]];
  for (let j = i + 1; j < lines.length && /^#\s{3}/.test(lines[j]); j++) item.push(lines[j]);
  return item.map((l) => l.replace(/^#\s*-?\s*/, "").trim()).join(" ");
}

/**
 * The release the stage runs when `requested` is asked for, from the `karpenter-<minor>` row of versions.txt
 * (`tools`: its rows by name, versions with a leading v):
 * - that row builds `requested`: it runs;
 * - versions.txt records `requested` as blocked (its controller cannot be built here) and the row builds
 *   another patch of the same minor: that patch runs end to end in its place (`substitute`: the app is
 *   synthesized at it too, so chart, policy and controller are one release) and `why` is the blocked note;
 * - otherwise nothing runs (`run` undefined) and `why` says what is missing.
 */
function selectRelease(requested, tools, versionsText) {
  const minor = requested.split(".").slice(0, 2).join(".");
  const name = `karpenter-${minor}`;
  const row = tools[name];
  const built = row && String(row.version).replace(/^v/, "");
  if (built === requested) return { requested, run: requested, substitute: false, tool: name };
  const blocked = blockedNote(requested, versionsText);
  if (!row)
    return {
      requested,
      run: undefined,
      substitute: false,
      tool: name,
      why: blocked || `scripts/tools/versions.txt has no ${name} row`,
    };
  if (blocked) return { requested, run: built, substitute: true, tool: name, why: blocked };
  return {
    requested,
    run: undefined,
    substitute: false,
    tool: name,
    why: `scripts/tools/versions.txt's ${name} row builds v${built}, not v${requested}, and records no block for ${requested} (a row at v${requested} would build it)`,
  };
}

/**
 * Where two synthesized outputs (stack name → cdk.tf.json object) differ once every `from` release string
 * of `a` reads `to`: [] when the releases change nothing but the version the app names. `count` is how many
 * strings named `from`.
 */
function releaseDiff(a, b, from, to) {
  const re = new RegExp(from.replace(/\./g, "\\."), "g");
  let count = 0;
  const norm = (v) => {
    if (typeof v === "string")
      return v.replace(re, () => {
        count++;
        return to;
      });
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)]));
    return v;
  };
  const diffs = [];
  const walk = (x, y, at) => {
    if (JSON.stringify(x) === JSON.stringify(y)) return;
    if (x && y && typeof x === "object" && typeof y === "object" && Array.isArray(x) === Array.isArray(y)) {
      for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) walk(x[k], y[k], `${at}.${k}`);
      return;
    }
    diffs.push(
      `${at}: ${JSON.stringify(x === undefined ? null : x).slice(0, 160)} vs ${JSON.stringify(y === undefined ? null : y).slice(0, 160)}`,
    );
  };
  for (const stack of new Set([...Object.keys(a), ...Object.keys(b)])) walk(norm(a[stack]), b[stack], stack);
  return { diffs, count };
}

// ------------------------------------------------------------------------------ what the cluster lacks

/**
 * kubelets, the scheduler, the ReplicaSet controller and the garbage collector, each reduced to what the
 * checks need, every 2 s: a Ready Node per launched NodeClaim (labels and taints of the claim, its
 * capacity); inflate's pods kept at the Deployment's replicas; a pending pod bound to a schedulable Node
 * with room for its CPU, else marked Unschedulable; NodeClaims whose NodePool is gone and pods whose
 * Deployment is gone deleted.
 */
class World {
  constructor(k, { replicas, clusterName }) {
    this.k = k;
    this.replicas = replicas;
    this.clusterName = clusterName;
    this.timer = undefined;
    this.busy = false;
    this.destroyEvents = {};
    this.watching = false;
    this.lastPending = 0;
    /** NodeClaims this stand-in garbage collector deleted: their NodePool was gone (404) or replaced (new uid). */
    this.collected = [];
    /** Owner lookups the API server did not answer with the NodePool or a NotFound naming it, by status code. */
    this.unanswered = {};
  }
  start() {
    this.timer = setInterval(
      () =>
        this.tick().catch((e) => {
          this.error = e.message;
        }),
      2000,
    );
  }
  stop() {
    clearInterval(this.timer);
  }
  async claims() {
    const r = await this.k("GET", "/apis/karpenter.sh/v1/nodeclaims");
    return r.status === 200 ? r.body.items : [];
  }
  async describeClaims() {
    const cs = await this.claims();
    return cs.length
      ? cs
          .map(
            (c) =>
              `${c.metadata.name}: ${((c.status || {}).conditions || []).map((x) => `${x.type}=${x.status}${x.status !== "True" && x.message ? `(${x.message.slice(0, 120)})` : ""}`).join(" ")}`,
          )
          .join("; ")
      : "no NodeClaim";
  }
  pendingUnplaced() {
    return this.lastPending;
  }
  async scale(n) {
    this.replicas = n;
    await this.k(
      "PATCH",
      "/apis/apps/v1/namespaces/default/deployments/inflate/scale",
      { spec: { replicas: n } },
      { contentType: "application/merge-patch+json" },
    );
    await this.tick();
  }
  async ensurePods() {
    const sa = await this.k("GET", "/api/v1/namespaces/default/serviceaccounts/default");
    if (sa.status === 404)
      await this.k("POST", "/api/v1/namespaces/default/serviceaccounts", { metadata: { name: "default" } });
    await this.tick();
  }
  watchDestroy() {
    this.watching = true;
  }
  async tick() {
    if (this.busy) return;
    this.busy = true;
    try {
      await this.reconcile();
    } finally {
      this.busy = false;
    }
  }
  async reconcile() {
    const k = this.k;
    const claims = await this.claims();
    const nodes = (await k("GET", "/api/v1/nodes")).body.items || [];
    // garbage collector: NodeClaims whose owning NodePool is gone. Like kube-controller-manager's, it acts only on
    // an owner confirmed absent (404, or a new uid under its name): while Helm updates the CRDs the API server
    // answers the NodePool list with an error for a moment, and an empty answer must not read as "every pool gone"
    for (const c of claims) {
      const owner = (c.metadata.ownerReferences || []).find((o) => o.kind === "NodePool");
      if (!owner || c.metadata.deletionTimestamp) continue;
      const pool = await k("GET", `/apis/karpenter.sh/v1/nodepools/${owner.name}`);
      // a 404 names the object only when the resource type itself is served (not while its CRD is re-read)
      const named = pool.status === 404 && ((pool.body || {}).details || {}).name === owner.name;
      const gone = named || (pool.status === 200 && pool.body.metadata.uid !== owner.uid);
      if (pool.status !== 200 && !named) this.unanswered[pool.status] = (this.unanswered[pool.status] || 0) + 1;
      if (!gone) continue;
      await k("DELETE", `/apis/karpenter.sh/v1/nodeclaims/${c.metadata.name}`);
      this.collected.push({
        claim: c.metadata.name,
        pool: owner.name,
        status: pool.status,
        at: new Date().toISOString(),
      });
    }
    if (
      this.onDeploymentGone &&
      (await k("GET", "/apis/apps/v1/namespaces/kube-system/deployments/karpenter")).status === 404
    ) {
      const f = this.onDeploymentGone;
      this.onDeploymentGone = undefined;
      await f();
    }
    if (this.watching) {
      const nc = await k("GET", "/apis/karpenter.k8s.aws/v1/ec2nodeclasses/default");
      const live = claims.filter((c) => c.status && c.status.providerID);
      if (nc.status === 200 && nc.body.metadata.deletionTimestamp && live.length)
        this.destroyEvents.nodeClassHeld = { claims: live.map((c) => c.metadata.name), at: new Date().toISOString() };
      if (!live.length && !this.destroyEvents.claimsGoneAt && this.destroyEvents.nodeClassHeld)
        this.destroyEvents.claimsGoneAt = Date.now();
      if (nc.status === 404 && !this.destroyEvents.nodeClassGoneAt) this.destroyEvents.nodeClassGoneAt = Date.now();
    }
    // the TaintNodesByCondition admission adds node.kubernetes.io/not-ready to a new Node; the node lifecycle
    // controller (kube-controller-manager) lifts it once the Node is Ready: lifted here (the resourceVersion
    // makes the write fail rather than undo a taint change of Karpenter's in between)
    for (const n of nodes) {
      const taints = n.spec.taints || [];
      if (!taints.some((t) => t.key === "node.kubernetes.io/not-ready") || !cond(n, "Ready")) continue;
      await k(
        "PATCH",
        `/api/v1/nodes/${n.metadata.name}`,
        {
          metadata: { resourceVersion: n.metadata.resourceVersion },
          spec: { taints: taints.filter((t) => t.key !== "node.kubernetes.io/not-ready") },
        },
        { contentType: "application/merge-patch+json" },
      );
    }
    // kubelets: a Node per launched NodeClaim
    for (const c of claims) {
      const pid = c.status && c.status.providerID;
      if (!pid || c.metadata.deletionTimestamp || nodes.some((n) => n.spec.providerID === pid)) continue;
      const name = `ip-e2e-${pid.split("/").pop()}`;
      const labels = { ...(c.metadata.labels || {}), "kubernetes.io/hostname": name, "kubernetes.io/os": "linux" };
      const taints = [{ key: "karpenter.sh/unregistered", effect: "NoExecute" }, ...(c.spec.taints || [])];
      const created = await k("POST", "/api/v1/nodes", {
        metadata: { name, labels },
        spec: { providerID: pid, taints },
      });
      if (created.status >= 300) continue;
      const now = new Date().toISOString();
      await k(
        "PATCH",
        `/api/v1/nodes/${name}/status`,
        {
          status: {
            capacity: c.status.capacity,
            allocatable: c.status.allocatable,
            conditions: [
              {
                type: "Ready",
                status: "True",
                reason: "KubeletReady",
                message: "e2e: a Node object stands in for the kubelet",
                lastHeartbeatTime: now,
                lastTransitionTime: now,
              },
            ],
            nodeInfo: {
              kubeletVersion: "v1.36.3",
              architecture: labels["kubernetes.io/arch"] || "amd64",
              operatingSystem: "linux",
            },
          },
        },
        { contentType: "application/merge-patch+json" },
      );
    }
    // ReplicaSet controller + garbage collector for inflate's pods
    const depR = await k("GET", "/apis/apps/v1/namespaces/default/deployments/inflate");
    const listed = (await k("GET", "/api/v1/namespaces/default/pods?labelSelector=app%3Dinflate")).body.items || [];
    // kubelets: a pod being deleted on a node (evicted by a drain) is gone once its containers stop
    for (const p of listed.filter((x) => x.metadata.deletionTimestamp && x.spec.nodeName))
      await k("DELETE", `/api/v1/namespaces/default/pods/${p.metadata.name}`, { gracePeriodSeconds: 0 });
    let pods = listed.filter((p) => !p.metadata.deletionTimestamp);
    // as above: only a Deployment confirmed gone takes its pods; any other error answer waits for the next tick
    if (depR.status !== 200 && depR.status !== 404) return;
    if (depR.status === 404) {
      for (const p of pods)
        await k("DELETE", `/api/v1/namespaces/default/pods/${p.metadata.name}`, { gracePeriodSeconds: 0 });
      this.lastPending = 0;
      return;
    }
    const dep = depR.body;
    const want = dep.spec.replicas;
    for (let i = pods.length; i < want; i++) {
      const tpl = dep.spec.template;
      await k("POST", "/api/v1/namespaces/default/pods", {
        metadata: {
          generateName: "inflate-",
          labels: tpl.metadata.labels,
          ownerReferences: [
            { apiVersion: "apps/v1", kind: "Deployment", name: dep.metadata.name, uid: dep.metadata.uid },
          ],
        },
        spec: tpl.spec,
      });
    }
    for (const p of pods.slice(want))
      await k("DELETE", `/api/v1/namespaces/default/pods/${p.metadata.name}`, { gracePeriodSeconds: 0 });
    pods = ((await k("GET", "/api/v1/namespaces/default/pods?labelSelector=app%3Dinflate")).body.items || []).filter(
      (p) => !p.metadata.deletionTimestamp,
    );
    // scheduler: bind to a schedulable, initialized Node with room, else Unschedulable
    const fresh = (await k("GET", "/api/v1/nodes")).body.items || [];
    const cpu = (p) =>
      p.spec.containers.reduce((s, c) => s + quantity(((c.resources || {}).requests || {}).cpu || "0"), 0);
    const used = new Map();
    for (const p of pods) if (p.spec.nodeName) used.set(p.spec.nodeName, (used.get(p.spec.nodeName) || 0) + cpu(p));
    let pending = 0;
    for (const p of pods.filter((x) => !x.spec.nodeName)) {
      const node = fresh.find(
        (n) =>
          !n.metadata.deletionTimestamp &&
          !n.spec.unschedulable &&
          !(n.spec.taints || []).some((t) => t.effect === "NoSchedule" || t.effect === "NoExecute") &&
          (n.metadata.labels || {})["karpenter.sh/initialized"] === "true" &&
          quantity((n.status.allocatable || {}).cpu || "0") - (used.get(n.metadata.name) || 0) >= cpu(p),
      );
      if (node) {
        const b = await k("POST", `/api/v1/namespaces/default/pods/${p.metadata.name}/binding`, {
          apiVersion: "v1",
          kind: "Binding",
          metadata: { name: p.metadata.name },
          target: { apiVersion: "v1", kind: "Node", name: node.metadata.name },
        });
        if (b.status < 300) {
          used.set(node.metadata.name, (used.get(node.metadata.name) || 0) + cpu(p));
          continue;
        }
      }
      pending++;
      const sched = ((p.status || {}).conditions || []).find((c) => c.type === "PodScheduled");
      if (!sched || sched.status !== "False") {
        await k(
          "PATCH",
          `/api/v1/namespaces/default/pods/${p.metadata.name}/status`,
          {
            status: {
              phase: "Pending",
              conditions: [
                {
                  type: "PodScheduled",
                  status: "False",
                  reason: "Unschedulable",
                  message: "0/0 nodes are available (e2e: no scheduler; the stage stands in for it)",
                  lastTransitionTime: new Date().toISOString(),
                },
              ],
            },
          },
          { contentType: "application/merge-patch+json" },
        );
      }
    }
    this.lastPending = pending;
  }
}

let defaultVersion;
/** The library's default Karpenter release (what the example installs without KARPENTER_VERSION). */
function defaultKarpenterVersion() {
  if (!defaultVersion) {
    const r = spawnSync(
      "npx",
      ["tsx", "-e", "import { DEFAULT_KARPENTER_VERSION } from './lib'; console.log(DEFAULT_KARPENTER_VERSION)"],
      { cwd: repo, encoding: "utf8" },
    );
    defaultVersion = (r.stdout || "").trim().split("\n").pop();
    if (!/^\d+\.\d+\.\d+$/.test(defaultVersion || ""))
      throw new Error(`cannot read the library's DEFAULT_KARPENTER_VERSION: ${r.stderr}`);
  }
  return defaultVersion;
}

/** The versions.txt names the stage needs for a Karpenter version. */
function toolsFor(version) {
  const v = version || defaultKarpenterVersion();
  return [
    "tofu",
    "aws-provider",
    "helm-provider",
    "kubernetes-provider",
    "moto",
    "kube-apiserver",
    "etcd",
    `karpenter-${v.split(".").slice(0, 2).join(".")}`,
  ];
}

module.exports = {
  runKarpenterStage,
  // the machinery the day-2 stage (day2-stage.cjs) runs on
  startLauncher,
  startController,
  prepareLocalStack,
  aws,
  runAsync,
  until,
  tailOf,
  treeRss,
  chartsFor,
  defaultKarpenterVersion,
  World,
  judgeRun,
  cond,
  secs,
  toolsFor,
  selectRelease,
  blockedNote,
  releaseDiff,
  controllerEnv,
  claimSatisfiesPool,
  budgetBlocksNow,
  negativeControl,
  destroyOrder,
  quantity,
  BREAKS,
  LIMITS,
  breakOverride,
};
