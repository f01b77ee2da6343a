import * as YAML from "yaml";
import { Testing } from "cdktf";
import { buildApp } from "../../examples/existing-cluster/main";
import { synthApp } from "./synth";

function synth(): { stacks: Record<string, any>; warnings: string[] } {
  const app = buildApp(Testing.app(), { CLUSTER_NAME: "prod", AWS_REGION: "us-east-1" });
  const stacks = synthApp(app);
  const warnings = app.node
    .findAll()
    .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => `${c.node.path}: ${m.data}`));
  return { stacks: Object.fromEntries(Object.entries(stacks).map(([k, v]) => [k, JSON.parse(v)])), warnings };
}

describe("example: Karpenter on an existing cluster, legacy manifests migrated", () => {
  const printed: string[] = [];
  const spy = jest.spyOn(console, "error").mockImplementation((m: string) => void printed.push(m));
  const {
    stacks: { karpenter, nodes },
    warnings,
  } = synth();
  spy.mockRestore();

  test("the conversion notes that need a decision are synth warnings on the converted object, nothing on stderr", () => {
    expect(warnings.filter((w) => w.includes("converted"))).toEqual([
      expect.stringMatching(
        /^nodes\/pool-default: converted NodePool\/default: spec\.ttlSecondsUntilExpired: .*expireAfter "Never"/,
      ),
    ]);
    expect(printed).toEqual([]);
  });

  test("reads the cluster with a data source and creates none", () => {
    expect(karpenter.data.aws_eks_cluster.cluster.name).toBe("prod");
    expect(karpenter.resource.aws_eks_cluster).toBeUndefined();
    const release = Object.values(karpenter.resource.helm_release).find((r: any) => r.chart === "karpenter") as any;
    expect(YAML.parse(release.values[0]).settings.clusterName).toBe("prod");
    expect(Object.values(karpenter.resource.aws_eks_access_entry)).toEqual([
      expect.objectContaining({ cluster_name: "prod", type: "EC2_LINUX" }),
    ]);
  });

  test("the seed Provisioner and AWSNodeTemplate become a v1 NodePool and EC2NodeClass using the Karpenter node role", () => {
    const manifests = Object.values(nodes.resource.kubernetes_manifest).map((m: any) => m.manifest);
    const pool = manifests.find((m) => m.kind === "NodePool");
    const nodeClass = manifests.find((m) => m.kind === "EC2NodeClass");
    expect(pool.spec.disruption).toMatchObject({ consolidationPolicy: "WhenEmpty", consolidateAfter: "30s" });
    expect(pool.spec.template.metadata.labels).toEqual({ environment: "demo", team: "platform" });
    expect(pool.spec.limits).toEqual({ cpu: "100" });
    expect(pool.spec.template.spec.requirements).toContainEqual({
      key: "node.kubernetes.io/instance-type",
      operator: "In",
      values: ["t3.small", "t3.medium", "t3.large"],
    });
    expect(nodeClass.spec.instanceProfile).toBeUndefined();
    expect(nodeClass.spec.role).toMatch(/^\$\{data\.terraform_remote_state\..*\}$/);
    expect(nodeClass.spec.subnetSelectorTerms).toEqual([{ tags: { "karpenter.sh/discovery": "demo" } }]);
  });
});
