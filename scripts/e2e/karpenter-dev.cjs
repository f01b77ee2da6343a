// A development aid, not the stage: the karpenter stage's controller checks without OpenTofu and the aws
// provider (an hour's build on 2 cores). moto is seeded with boto3 from the synthesized eks stack (VPC,
// tagged subnets, cluster, node and controller roles with the synthesized policies, queue, queue policy,
// rules; scripts/e2e/karpenter-seed.py), the two charts are installed with the helm CLI and the node objects
// posted to the API server; then the same controller, checks and IAM judgement as the stage (destroy is
// skipped). `node scripts/e2e/karpenter-dev.cjs` (env as the stage: CLUSTER_NAME, KARPENTER_VERSION, ...).
const fs = require("fs"),
  path = require("path"),
  os = require("os"),
  { spawnSync } = require("child_process");
const stage = require("./karpenter-stage.cjs");
let passes = 0,
  fails = 0,
  skips = 0;
const check = (w, ok, d) => {
  ok = !!ok;
  if (ok) passes++;
  else fails++;
  console.log(`  ${ok ? "ok  " : "FAIL"} ${w}${ok || !d ? "" : "\n       " + d}`);
  return ok;
};
const tools = {};
for (const line of fs.readFileSync(path.join(__dirname, "../tools/versions.txt"), "utf8").split("\n")) {
  if (!line.trim() || line.startsWith("#")) continue;
  const [name, module, version, , binary, release] = line.trim().split(/\s+/);
  const dir =
    process.env.CDKTF_EKS_KARPENTER_TOOLS ||
    path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "cdktf-eks-karpenter", "tools");
  tools[name] = { module, version, release, bin: path.join(dir, `${name}-${version}`, binary) };
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), "cdktf-eks-karpenter-dev-"));
const R = (s, name, region) =>
  s
    .replace(/\$\{aws_eks_cluster\.cluster\.name\}/g, name)
    .replace(/\$\{aws_eks_cluster\.cluster\.arn\}/g, `arn:aws:eks:${region}:123456789012:cluster/${name}`)
    .replace(/\$\{data\.aws_partition\.[^}]+\.partition\}/g, "aws")
    .replace(/\$\{data\.aws_region\.[^}]+\.region\}/g, region)
    .replace(/\$\{data\.aws_caller_identity\.[^}]+\.account_id\}/g, "123456789012")
    .replace(
      /\$\{aws_iam_role\.karpenter_node-role[^}]*\.arn\}/g,
      `arn:aws:iam::123456789012:role/KarpenterNodeRole-${name}`,
    )
    .replace(/\$\{aws_iam_role\.karpenter_node-role[^}]*\.name\}/g, `KarpenterNodeRole-${name}`)
    .replace(/\$\{aws_sqs_queue\.[^}]+\.arn\}/g, `arn:aws:sqs:${region}:123456789012:${name}`)
    .replace(/\$\{aws_sqs_queue\.[^}]+\.name\}/g, name)
    .replace(/\$\{data\.terraform_remote_state\.[^}]*clustername\}/g, name)
    .replace(/\$\{data\.terraform_remote_state\.[^}]*node-role[^}]*name\}/g, `KarpenterNodeRole-${name}`);
const seed = async ({ moto, cluster, k, out, chartsDir, region, clusterName: name }) => {
  const eks = JSON.parse(fs.readFileSync(path.join(out, "stacks/eks/cdk.tf.json"), "utf8"));
  const nodes = JSON.parse(fs.readFileSync(path.join(out, "stacks/karpenter-nodes/cdk.tf.json"), "utf8"));
  const spec = {
    policies: Object.values(eks.resource.aws_iam_policy).map((p) => ({
      name: R(p.name, name, region),
      document: JSON.parse(R(p.policy, name, region)),
    })),
    queuePolicy: JSON.parse(R(Object.values(eks.resource.aws_sqs_queue_policy)[0].policy, name, region)),
    rules: Object.values(eks.resource.aws_cloudwatch_event_rule).map((r) => r.event_pattern),
    // BREAK=queue-target: the spot interruption rule targets another queue (as --break queue-target)
    breakSpotTarget: process.env.BREAK === "queue-target",
    controllerTrust: JSON.parse(
      R(
        Object.values(eks.resource.aws_iam_role).find((r) =>
          String(r.assume_role_policy).includes("pods.eks.amazonaws.com"),
        ).assume_role_policy,
        name,
        region,
      ),
    ),
  };
  fs.writeFileSync(path.join(work, "spec.json"), JSON.stringify(spec));
  const r = spawnSync(
    moto.py,
    [path.join(__dirname, "karpenter-seed.py"), moto.url, region, name, path.join(work, "spec.json")],
    { encoding: "utf8" },
  );
  if (r.status) throw new Error(r.stderr);
  const res = JSON.parse(r.stdout);
  const henv = {
    ...process.env,
    KUBECONFIG: cluster.kubeconfig,
    HELM_CACHE_HOME: work + "/h",
    HELM_CONFIG_HOME: work + "/h",
    HELM_DATA_HOME: work + "/h",
  };
  for (const rel of Object.values(eks.resource.helm_release).sort((a) => (a.chart === "karpenter-crd" ? -1 : 1))) {
    const vf = path.join(work, rel.chart + ".yaml");
    fs.writeFileSync(vf, R((rel.values || ["{}"]).join("\n"), name, region));
    const h = spawnSync(
      tools.helm.bin,
      [
        "install",
        rel.name,
        path.join(chartsDir, rel.chart),
        "-n",
        rel.namespace,
        "-f",
        vf,
        ...(rel.skip_crds ? ["--skip-crds"] : []),
      ],
      { env: henv, encoding: "utf8" },
    );
    if (h.status) throw new Error(`helm ${rel.chart}: ${h.stderr}`);
  }
  for (const m of Object.values(nodes.resource.kubernetes_manifest).map((x) =>
    JSON.parse(R(JSON.stringify(x.manifest), name, region)),
  )) {
    const p =
      m.kind === "EC2NodeClass" ? "/apis/karpenter.k8s.aws/v1/ec2nodeclasses" : "/apis/karpenter.sh/v1/nodepools";
    if (m.kind === "EC2NodeClass" && process.env.BREAK === "node-role") m.spec.role = "e2e-not-the-node-role";
    const c = await k("POST", p, m);
    if (c.status >= 300) throw new Error(JSON.stringify(c.body));
  }
  const d = Object.values(nodes.resource.kubernetes_deployment_v1)[0];
  const c = await k("POST", "/apis/apps/v1/namespaces/default/deployments", {
    metadata: { name: "inflate", namespace: "default" },
    spec: {
      replicas: Number(d.spec.replicas),
      selector: { matchLabels: { app: "inflate" } },
      template: {
        metadata: { labels: { app: "inflate" } },
        spec: {
          terminationGracePeriodSeconds: 0,
          containers: [{ name: "inflate", image: "pause", resources: { requests: { cpu: "1" } } }],
        },
      },
    },
  });
  if (c.status >= 300) throw new Error(JSON.stringify(c.body));
  return res;
};
const synth = (app, out, env) => {
  const r = spawnSync("npx", ["cdktf", "synth", "--app", `npx tsx ${app}`, "--output", out], {
    cwd: path.join(__dirname, "../.."),
    env: { ...process.env, CHECKPOINT_DISABLE: "1", CI: "true", ...env },
    encoding: "utf8",
  });
  if (r.status) throw new Error(r.stderr);
  return out;
};
(async () => {
  await stage.runKarpenterStage({
    tools,
    work,
    cliConfig: "",
    check,
    equal: (w, a, e) =>
      check(w, JSON.stringify(a) === JSON.stringify(e), `got ${JSON.stringify(a)} want ${JSON.stringify(e)}`),
    skip: (w, y) => {
      skips++;
      console.log(`  SKIP ${w}: ${y}`);
    },
    must: (w, r) => r.status === 0 || check(w, false, r.stderr),
    synth,
    prepareStack: null,
    tofuEnv: () => process.env,
    freePort: () =>
      new Promise((res) => {
        const s = require("net").createServer();
        s.listen(0, "127.0.0.1", () => {
          const p = s.address().port;
          s.close(() => res(p));
        });
      }),
    countResources: () => 0,
    break: process.env.BREAK,
    stageReport: {},
    seed,
  });
  console.log(`${passes} passed, ${fails} failed, ${skips} skipped; work ${work}`);
})();
