import { readFileSync } from "fs";
import { join } from "path";
import * as ts from "typescript";
import { TerraformStack, Testing } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import * as lib from "../../lib";
import { DiscoveryTags, Karpenter, KarpenterCluster, validateApp } from "../../lib";

/*
 * docs/node-objects.md "GPU and Neuron nodes": its code block is the test's code. The block is read
 * from the page, transpiled and run in a stack with a real installation (`karpenter`), then the app is
 * validated as `cdktf synth` does and the node objects are checked field by field.
 */

const DOC = readFileSync(join(__dirname, "..", "..", "docs", "node-objects.md"), "utf8");

/** The first ```ts block under `heading`. */
function codeUnder(heading: string): string {
  const section = DOC.slice(DOC.indexOf(`\n## ${heading}\n`));
  const m = /\n```ts\n([\s\S]*?)\n```\n/.exec(section);
  if (!m) throw new Error(`no ts block under "## ${heading}"`);
  return m[1];
}

function runDocBlock(code: string) {
  const app = Testing.app();
  // the README's layout: the cluster and the install in one stack, node objects in a second
  const eksStack = new TerraformStack(app, "eks");
  new AwsProvider(eksStack, "aws", { region: "eu-west-1" });
  new HelmProvider(eksStack, "helm", {});
  const eks = new EksCluster(eksStack, "cluster", {
    name: "prod",
    version: "1.34",
    roleArn: "arn:aws:iam::123456789012:role/eks",
    vpcConfig: { subnetIds: ["subnet-0000000a"] },
  });
  new EksAddon(eksStack, "pod-identity-agent", { clusterName: eks.name, addonName: "eks-pod-identity-agent" });
  const cluster = KarpenterCluster.fromEksCluster(eks);
  new DiscoveryTags(eksStack, "discovery", { cluster, subnets: ["subnet-0000000a"] });
  const karpenter = new Karpenter(eksStack, "karpenter", { cluster });
  const stack = new TerraformStack(app, "nodes");
  new KubernetesProvider(stack, "kubernetes", {});
  // the page imports from the package; here the names come from lib
  const js = ts.transpileModule(code.replace(/^import .*$/gm, ""), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.None },
  }).outputText;
  new Function("lib", "karpenter", `const { Ec2NodeClass, NodePool } = lib;\n${js}`).call(stack, lib, karpenter);
  return { app, stack };
}

describe('docs/node-objects.md "GPU and Neuron nodes": the GPU pool example', () => {
  const { app, stack } = runDocBlock(codeUnder("GPU and Neuron nodes"));
  const manifests = Object.values(JSON.parse(Testing.synth(stack, true)).resource.kubernetes_manifest).map(
    (m: any) => m.manifest,
  );
  const nodeClass = manifests.find((m) => m.kind === "EC2NodeClass");
  const pool = manifests.find((m) => m.kind === "NodePool");

  test("validates as cdktf synth does: no error, no warning", () => {
    const report = validateApp(app);
    expect(report.errors).toEqual([]);
    expect(report.otherErrors).toEqual([]);
    expect(report.warnings).toEqual([]);
  });

  test("the class: the Bottlerocket alias, both Bottlerocket volumes, the node tags", () => {
    expect(nodeClass.metadata.name).toBe("gpu");
    expect(nodeClass.spec.amiSelectorTerms).toEqual([{ alias: "bottlerocket@latest" }]);
    expect(nodeClass.spec.blockDeviceMappings.map((b: any) => [b.deviceName, b.ebs.volumeSize])).toEqual([
      ["/dev/xvda", "6Gi"],
      ["/dev/xvdb", "200Gi"],
    ]);
    expect(nodeClass.spec.tags).toEqual({ team: "ml" });
  });

  test("the pool: NVIDIA instance types, a GPU taint and a GPU limit, on the class", () => {
    expect(pool.metadata.name).toBe("gpu");
    expect(pool.spec.template.spec.nodeClassRef).toEqual({
      group: "karpenter.k8s.aws",
      kind: "EC2NodeClass",
      name: "gpu",
    });
    expect(pool.spec.template.spec.requirements).toContainEqual({
      key: "karpenter.k8s.aws/instance-gpu-manufacturer",
      operator: "In",
      values: ["nvidia"],
    });
    expect(pool.spec.template.spec.taints).toEqual([{ key: "nvidia.com/gpu", value: "true", effect: "NoSchedule" }]);
    expect(pool.spec.limits).toEqual({ cpu: "192", "nvidia.com/gpu": "8" });
  });

  test("the page's volume facts are Karpenter's defaults it names (6Gi and 20Gi on Bottlerocket, 20Gi on AL2023)", () => {
    const flat = DOC.replace(/\s+/g, " ");
    expect(flat).toContain("`/dev/xvda` is the OS (default 6Gi from Karpenter 1.15, 4Gi before;");
    expect(flat).toContain("and `/dev/xvdb` the data volume");
    expect(flat).toContain("AL2023 has one volume, `/dev/xvda` (Karpenter's default: 20Gi gp3)");
  });
});

describe('docs/node-objects.md "Tags"', () => {
  test("the install's tags reach the Terraform resources, not the node class; the class's tags are its own", () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, "t");
    new AwsProvider(stack, "aws", { region: "eu-west-1" });
    new HelmProvider(stack, "helm", {});
    new KubernetesProvider(stack, "kubernetes", {});
    const eks = new EksCluster(stack, "cluster", {
      name: "prod",
      roleArn: "arn:aws:iam::123456789012:role/eks",
      vpcConfig: { subnetIds: ["subnet-00000001"] },
    });
    const karpenter = new Karpenter(stack, "karpenter", {
      cluster: KarpenterCluster.fromEksCluster(eks),
      tags: { "cost-center": "1234" },
    });
    const plain = karpenter.addEc2NodeClass("plain");
    const tagged = karpenter.addEc2NodeClass("tagged", { tags: { "cost-center": "1234" } });
    const json = JSON.parse(Testing.synth(stack));
    const roles = Object.values<any>(json.resource.aws_iam_role);
    expect(roles.length).toBeGreaterThan(0);
    for (const r of roles) expect(r.tags).toMatchObject({ "cost-center": "1234" });
    expect(plain.spec.tags).toBeUndefined();
    expect(tagged.spec.tags).toEqual({ "cost-center": "1234" });
    expect(DOC).toContain("| `Karpenter` `tags` | the AWS resources Terraform creates for the install");
  });
});
