import * as fs from "fs";
import * as path from "path";
import { Testing } from "cdktf";
import { KarpenterValidationError } from "../../lib";
import { buildApp } from "../../examples/eks-karpenter/main";
import { parse } from "yaml";
import { synthApp } from "./synth";

const ENV = { CLUSTER_NAME: "demo", AWS_REGION: "us-east-1" };

function synthStacks(env: Record<string, string> = ENV): Record<string, string> {
  return synthApp(buildApp(Testing.app({ stackTraces: false }), env));
}

describe("example app", () => {
  const stacks = synthStacks();
  const eks = JSON.parse(stacks.eks);

  test("has the stacks eks and karpenter-nodes; node objects read the eks stack's outputs", () => {
    expect(Object.keys(stacks).sort()).toEqual(["eks", "karpenter-nodes"]);
    const nodes = JSON.parse(stacks["karpenter-nodes"]);
    expect(nodes.data.terraform_remote_state["cross-stack-reference-input-eks"].config).toEqual({
      path: "../../../terraform.eks.tfstate",
    });
    const nodeClass = Object.values(nodes.resource.kubernetes_manifest)
      .map((m: any) => m.manifest)
      .find((m) => m.kind === "EC2NodeClass");
    expect(nodeClass.spec.role).toBe(
      "${data.terraform_remote_state.cross-stack-reference-input-eks.outputs.cross-stack-output-aws_iam_rolekarpenter_node-role_B68B5979name}",
    );
  });

  test("synthesizes, validations included, where there is no Terraform binary", () => {
    // cdktf runs `<terraform> version` at synth for a stack with moved or import blocks: the example has
    // neither, so `npm run synth` works on a machine without Terraform or OpenTofu. cdktf reads the
    // binary's name once, when it loads, so the app is built from a fresh copy of the modules.
    const saved = process.env.TERRAFORM_BINARY_NAME;
    process.env.TERRAFORM_BINARY_NAME = "/nonexistent/terraform";
    try {
      jest.isolateModules(() => {
        const { Testing: FreshTesting } = require("cdktf") as typeof import("cdktf");
        const { buildApp: freshBuildApp } =
          require("../../examples/eks-karpenter/main") as typeof import("../../examples/eks-karpenter/main");
        expect(synthApp(freshBuildApp(FreshTesting.app({ stackTraces: false }), ENV))).toEqual(stacks);
      });
    } finally {
      if (saved === undefined) delete process.env.TERRAFORM_BINARY_NAME;
      else process.env.TERRAFORM_BINARY_NAME = saved;
    }
  });

  test("two synths are byte-identical", () => {
    expect(synthStacks()).toEqual(stacks);
  });

  test.each(Object.keys(synthStacks()))("stack %s matches its reviewed snapshot", (name) => {
    expect(stacks[name]).toMatchSnapshot();
  });

  test("the cluster uses access entries, makes the creator admin and limits the public endpoint", () => {
    const c = eks.resource.aws_eks_cluster.cluster;
    expect(c.access_config).toEqual({ authentication_mode: "API", bootstrap_cluster_creator_admin_permissions: true });
    expect(c.vpc_config.endpoint_public_access).toBe(true);
    expect(c.vpc_config.public_access_cidrs).toEqual(["0.0.0.0/0"]);
    const restricted = JSON.parse(synthStacks({ ...ENV, PUBLIC_ACCESS_CIDRS: "203.0.113.0/24" }).eks);
    expect(restricted.resource.aws_eks_cluster.cluster.vpc_config.public_access_cidrs).toEqual(["203.0.113.0/24"]);
  });

  test("network: two AZs, public and private subnets, one NAT gateway; only private subnets carry the discovery tag", () => {
    const subnets = Object.values(eks.resource.aws_subnet) as any[];
    expect(subnets).toHaveLength(4);
    const priv = subnets.filter((s) => s.tags["karpenter.sh/discovery"] === "demo");
    expect(priv).toHaveLength(2);
    for (const s of priv) expect(s.map_public_ip_on_launch).toBeUndefined();
    expect(Object.keys(eks.resource.aws_nat_gateway)).toHaveLength(1);
  });

  test("add-ons: vpc-cni, kube-proxy and pod identity agent before the system nodes, CoreDNS after", () => {
    const addons = eks.resource.aws_eks_addon;
    expect(
      Object.values(addons)
        .map((a: any) => a.addon_name)
        .sort(),
    ).toEqual(["coredns", "eks-pod-identity-agent", "kube-proxy", "vpc-cni"]);
    const ng = Object.values(eks.resource.aws_eks_node_group)[0] as any;
    for (const n of ["vpc-cni", "kube-proxy", "eks-pod-identity-agent"])
      expect(ng.depends_on).toContain(`aws_eks_addon.${n}`);
    expect(addons.coredns.depends_on).toEqual([expect.stringMatching(/^aws_eks_node_group\./)]);
  });

  test("system nodes are tainted CriticalAddonsOnly and the controller tolerates it and selects them", () => {
    const ng = Object.values(eks.resource.aws_eks_node_group)[0] as any;
    expect(ng.taint).toEqual([{ key: "CriticalAddonsOnly", value: "true", effect: "NO_SCHEDULE" }]);
    const release = Object.values(eks.resource.helm_release).find((r: any) => r.chart === "karpenter") as any;
    const values = parse(release.values[0]);
    expect(values.tolerations).toContainEqual({ key: "CriticalAddonsOnly", operator: "Exists" });
    expect(values.nodeSelector).toEqual({ "node-role": "system" });
  });

  test("the Helm provider authenticates with aws eks get-token, no static secret", () => {
    const helm = eks.provider.helm[0];
    expect(helm.kubernetes.exec).toEqual({
      api_version: "client.authentication.k8s.io/v1beta1",
      command: "aws",
      args: ["eks", "get-token", "--cluster-name", "${aws_eks_cluster.cluster.name}", "--region", "us-east-1"],
    });
    expect(Object.keys(helm.kubernetes).sort()).toEqual(["cluster_ca_certificate", "exec", "host"]);
  });

  test("outputs", () => {
    // cross-stack-output-* are cdktf's own, for the karpenter-nodes stack
    expect(
      Object.keys(eks.output)
        .filter((k) => !k.startsWith("cross-stack-output-"))
        .sort(),
    ).toEqual(
      [
        "cluster_name",
        "interruption_queue_name",
        "karpenter_chart_version",
        "karpenter_controller_role_arn",
        "karpenter_node_role_name",
        "kubeconfig_command",
        "kubernetes_version",
      ].sort(),
    );
    expect(eks.output.kubeconfig_command.value).toBe(
      "aws eks update-kubeconfig --region us-east-1 --name ${aws_eks_cluster.cluster.name}",
    );
  });

  test("local state by default; with STATE_BUCKET an S3 backend per stack with native locking", () => {
    expect(eks.terraform.backend.local).toEqual({ path: "../../../terraform.eks.tfstate" });
    const s3 = synthStacks({ ...ENV, STATE_BUCKET: "tf-state", STATE_KEY_PREFIX: "teams/x" });
    for (const [name, text] of Object.entries(s3)) {
      expect(JSON.parse(text).terraform.backend.s3).toEqual({
        bucket: "tf-state",
        key: `teams/x/${name}.tfstate`,
        region: "us-east-1",
        encrypt: true,
        use_lockfile: true,
      });
    }
  });
});

describe("KUBERNETES_VERSION beyond the compatibility matrix: what README's env table says", () => {
  const row = fs
    .readFileSync(path.join(__dirname, "..", "..", "README.md"), "utf8")
    .split("\n")
    .find((l) => l.startsWith("| `KUBERNETES_VERSION` |"))!;
  const warningsOf = (env: Record<string, string>) =>
    buildApp(Testing.app({ stackTraces: false }), env)
      .node.findAll()
      .flatMap((c) => c.node.metadata)
      .filter((m) => m.type === "@cdktf/warn")
      .map((m) => String(m.data));

  test("newer than the whole matrix (with a Karpenter that runs on its newest): a synth warning, as the row says", () => {
    expect(row).toContain("a version newer than the whole matrix the library knows is a synth warning");
    expect(warningsOf({ ...ENV, KUBERNETES_VERSION: "1.99" })).toContainEqual(
      expect.stringMatching(/runs Kubernetes 1\.99, newer than the Karpenter compatibility matrix this library knows/),
    );
  });
  test("a version the chosen Karpenter does not run on: a synth error, as the row says", () => {
    expect(row).toContain("a version the chosen Karpenter does not run on is a synth error");
    expect(() => warningsOf({ ...ENV, KUBERNETES_VERSION: "1.25" })).toThrow(KarpenterValidationError);
  });
});

describe("run directly (npx tsx, the path for Node 24+ without the CLI), the example prints the synth warnings", () => {
  const run = (env: NodeJS.ProcessEnv) => {
    const cwd = fs.mkdtempSync(path.join(require("os").tmpdir(), "example-direct-"));
    try {
      return require("child_process").spawnSync(
        path.join(__dirname, "..", "..", "node_modules", ".bin", "tsx"),
        [path.join(__dirname, "..", "..", "examples", "eks-karpenter", "main.ts")],
        { cwd, env: { ...process.env, CHECKPOINT_DISABLE: "1", ...env }, encoding: "utf8" },
      );
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  };
  test("without the CLI: one warning line per construct warning, on stderr", () => {
    const env = { ...process.env };
    delete env.CDKTF_OUTDIR;
    const r = run({ ...env, CDKTF_OUTDIR: undefined });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("warning: karpenter-nodes/default-node-class: EC2NodeClass default (al2023@latest)");
  }, 60_000);
  test("under the CLI (CDKTF_OUTDIR set), which prints them itself: none", () => {
    const out = fs.mkdtempSync(path.join(require("os").tmpdir(), "example-cli-"));
    try {
      const r = run({ CDKTF_OUTDIR: out });
      expect(r.status).toBe(0);
      expect(r.stderr).not.toContain("warning: ");
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
