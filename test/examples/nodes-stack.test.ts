import * as fs from "fs";
import * as path from "path";
import { App, TerraformStack, Testing } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KarpenterNodesStack, INFLATE_IMAGE } from "../../examples/eks-karpenter/nodes-stack";
import { readConfig } from "../../examples/eks-karpenter/config";
import { FakeInstallation } from "../helpers";

/** Synthesizes an app of a fake `eks` stack and the nodes stack; returns the nodes stack JSON and the manifest. */
function synthApp(env: Record<string, string> = {}) {
  const app: App = Testing.app();
  const eks = new TerraformStack(app, "eks");
  new AwsProvider(eks, "aws", { region: "eu-west-1" });
  new HelmProvider(eks, "helm", {});
  const karpenter = new FakeInstallation(eks, "karpenter");
  const nodes = new KarpenterNodesStack(app, "karpenter-nodes", {
    karpenter,
    config: readConfig({ AWS_REGION: "eu-west-1", ...env }),
  });
  app.synth();
  const manifest = JSON.parse(fs.readFileSync(path.join(app.outdir, "manifest.json"), "utf8"));
  const json = JSON.parse(
    fs.readFileSync(path.join(app.outdir, manifest.stacks["karpenter-nodes"].synthesizedStackPath), "utf8"),
  );
  return { nodes, json, manifest };
}

const manifestsByKind = (json: any): Record<string, { addr: string; body: any }> =>
  Object.fromEntries(
    Object.entries(json.resource.kubernetes_manifest).map(([n, b]: [string, any]) => [
      b.manifest.kind,
      { addr: `kubernetes_manifest.${n}`, body: b },
    ]),
  );

describe("example stack karpenter-nodes", () => {
  const { nodes, json, manifest } = synthApp();
  const objs = manifestsByKind(json);

  test("depends on the eks stack (deploy after it, destroy before it)", () => {
    expect(manifest.stacks["karpenter-nodes"].dependencies).toEqual(["eks"]);
  });

  test("the kubernetes provider uses the cluster's endpoint and CA and aws eks get-token, no static secret", () => {
    const k = json.provider.kubernetes[0];
    expect(Object.keys(k).sort()).toEqual(["cluster_ca_certificate", "exec", "host"]);
    expect(k.host).toMatch(/^\$\{data\.terraform_remote_state\.cross-stack-reference-input-eks\.outputs\.[^}]+\}$/);
    expect(k.cluster_ca_certificate).toMatch(
      /^\$\{base64decode\(data\.terraform_remote_state\.cross-stack-reference-input-eks\.outputs\.[^}]+\)\}$/,
    );
    expect(k.exec).toHaveLength(1);
    expect(k.exec[0].api_version).toBe("client.authentication.k8s.io/v1beta1");
    expect(k.exec[0].command).toBe("aws");
    expect(k.exec[0].args.slice(0, 3)).toEqual(["eks", "get-token", "--cluster-name"]);
    expect(k.exec[0].args[3]).toMatch(/^\$\{data\.terraform_remote_state\.cross-stack-reference-input-eks\.outputs\./);
    expect(k.exec[0].args.slice(4)).toEqual(["--region", "eu-west-1"]);
  });

  test("EC2NodeClass default: the installation's defaults and a 20m delete timeout", () => {
    const nc = objs.EC2NodeClass.body;
    expect(nc.manifest.metadata).toEqual({ name: "default" });
    expect(nc.manifest.spec.role).toBe("KarpenterNodeRole-demo");
    expect(nc.manifest.spec.amiSelectorTerms).toEqual([{ alias: "al2023@latest" }]);
    expect(Object.keys(nc.manifest.spec.subnetSelectorTerms[0].tags)).toEqual(["karpenter.sh/discovery"]);
    expect(nc.timeouts).toEqual({ delete: "20m" });
  });

  test("NodePool default: the seed's requirements, limits, expiry and disruption", () => {
    const np = objs.NodePool.body.manifest;
    expect(np.metadata).toEqual({ name: "default" });
    const reqs = Object.fromEntries(
      np.spec.template.spec.requirements.map((r: any) => [r.key, [r.operator, r.values]]),
    );
    expect(reqs).toEqual({
      "karpenter.sh/capacity-type": ["In", ["spot", "on-demand"]],
      "kubernetes.io/arch": ["In", ["amd64"]],
      "karpenter.k8s.aws/instance-category": ["In", ["c", "m", "r"]],
      "karpenter.k8s.aws/instance-generation": ["Gt", ["5"]],
    });
    expect(np.spec.template.spec.nodeClassRef).toEqual({
      group: "karpenter.k8s.aws",
      kind: "EC2NodeClass",
      name: "default",
    });
    expect(np.spec.template.spec.expireAfter).toBe("720h");
    expect(np.spec.limits).toEqual({ cpu: "100" });
    expect(np.spec.disruption).toEqual({
      consolidationPolicy: "WhenEmptyOrUnderutilized",
      consolidateAfter: "1m",
      budgets: [{ nodes: "10%" }, { nodes: "0", schedule: "0 9 * * mon-fri", duration: "8h" }],
    });
  });

  test("destroy order: inflate, then the NodePool, then the EC2NodeClass", () => {
    expect(objs.NodePool.body.depends_on).toEqual([objs.EC2NodeClass.addr]);
    const inflate = json.resource.kubernetes_deployment_v1.inflate;
    expect(inflate.depends_on).toEqual([objs.NodePool.addr]);
  });

  test("inflate: pause image, 1 CPU request, namespace default, 0 replicas by default", () => {
    const d = json.resource.kubernetes_deployment_v1.inflate;
    expect(d.metadata).toEqual({ name: "inflate", namespace: "default" });
    expect(d.spec.replicas).toBe("0");
    const c = d.spec.template.spec.container[0];
    expect(c.image).toBe("public.ecr.aws/eks-distro/kubernetes/pause:3.7");
    expect(INFLATE_IMAGE).toBe(c.image);
    expect(c.resources.requests).toEqual({ cpu: "1" });
    expect(d.spec.selector.match_labels).toEqual(d.spec.template.metadata.labels);
  });

  test("INFLATE_REPLICAS sets the replicas", () => {
    expect(synthApp({ INFLATE_REPLICAS: "5" }).json.resource.kubernetes_deployment_v1.inflate.spec.replicas).toBe("5");
  });

  test("the pool allows spot, so it warns while the installation creates no spot service-linked role", () => {
    expect(nodes.nodePool.allowsSpot).toBe(true);
    const w = nodes.nodePool.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));
    expect(w.some((x) => x.includes("ServiceLinkedRoleCreationNotPermitted"))).toBe(true);
  });
});
