// The README's code, as a user would write it (the package name maps to lib/ here).
import "cdktf/lib/testing/adapters/jest"; // types of the cdktf matchers
import { Fn, TerraformStack, Testing } from "cdktf";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { synthApp } from "./examples/synth";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { SqsQueue } from "@cdktf/provider-aws/lib/sqs-queue";
import {
  DiscoveryTags,
  formatValidationReport,
  Ec2NodeClass,
  Karpenter,
  KarpenterCluster,
  KarpenterValidationError,
  NodePool,
  SystemNodeGroup,
  validateApp,
} from "cdktf-eks-karpenter";
import { convertLegacyManifests, formatNotes, upgradePlan, upgradePlanMarkdown } from "cdktf-eks-karpenter/cli";
import { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";

function clusterStack() {
  const app = Testing.app();
  const stack = new TerraformStack(app, "test");
  new AwsProvider(stack, "aws", { region: "eu-west-1" });
  const eks = new EksCluster(stack, "cluster", {
    name: "prod",
    roleArn: "arn:aws:iam::123456789012:role/eks",
    vpcConfig: { subnetIds: ["subnet-00000001"] },
  });
  return { app, stack, eks };
}

// --- README "Testing your stacks", as written
function clusterWithAddon() {
  const app = Testing.app();
  const stack = new TerraformStack(app, "test");
  new AwsProvider(stack, "aws", { region: "eu-west-1" });
  new HelmProvider(stack, "helm", {});
  const eks = new EksCluster(stack, "cluster", {
    name: "prod",
    roleArn: "arn:aws:iam::123456789012:role/eks",
    vpcConfig: { subnetIds: ["subnet-00000001"] },
  });
  new EksAddon(stack, "pod-identity-agent", { clusterName: eks.name, addonName: "eks-pod-identity-agent" });
  return { app, stack, cluster: KarpenterCluster.fromEksCluster(eks) };
}

test("Karpenter gets an encrypted interruption queue, and the app passes every check", () => {
  const { app, stack, cluster } = clusterWithAddon();
  new Karpenter(stack, "karpenter", { cluster });

  const report = validateApp(app); // what `cdktf synth` checks, and the warnings it would print
  expect(report.errors).toEqual([]);
  expect(report.otherErrors).toEqual([]);
  expect(report.warnings).toEqual([]);

  const synthesized = Testing.synth(stack, true); // true: run the validations (Testing.synth skips them by default)
  expect(synthesized).toHaveResourceWithProperties(SqsQueue, {
    message_retention_seconds: 300,
    sqs_managed_sse_enabled: true,
  });
});

test("two installs on one cluster fail synth", () => {
  const { stack, cluster } = clusterWithAddon();
  new Karpenter(stack, "karpenter", { cluster });
  new Karpenter(stack, "again", { cluster });

  expect(() => Testing.synth(stack, true)).toThrow(KarpenterValidationError);
  // the same problems as data, without synthesizing: each names the other install
  expect(validateApp(stack).errors.map((e) => [e.path, e.field, e.value])).toEqual([
    ["test/karpenter", "cluster", "prod"],
    ["test/again", "cluster", "prod"],
  ]);
});

test("Testing your stacks: warnings of a plain node run", () => {
  const { app, stack, cluster } = clusterWithAddon();
  new Karpenter(stack, "karpenter", {
    cluster,
    nodeRole: { additionalPolicyArns: Array.from({ length: 7 }, (_, i) => `arn:aws:iam::123456789012:policy/p${i}`) },
  });
  const printed: string[] = [];
  const warn = jest.spyOn(console, "warn").mockImplementation((m: string) => void printed.push(m));
  // --- as in the README
  const report = validateApp(app);
  if (report.warnings.length > 0) console.warn(formatValidationReport(report));
  // ---
  warn.mockRestore();
  expect(printed).toEqual([
    expect.stringMatching(
      /^warning: \[test\/karpenter\] nodeRole.additionalPolicyArns: role .* gets 11 managed policies/,
    ),
  ]);
});

test("API tour: one construct, then node objects in a second stack", () => {
  const { app, stack: eksStack, eks } = clusterStack();
  const region = "eu-west-1";
  const privateSubnetIds = ["subnet-0000000a", "subnet-0000000b"];
  // --- as in the README, `this` = eksStack
  const cluster = KarpenterCluster.fromEksCluster(eks);
  new HelmProvider(eksStack, "helm", {
    kubernetes: {
      host: cluster.endpoint,
      clusterCaCertificate: Fn.base64decode(cluster.certificateAuthorityData),
      exec: {
        apiVersion: "client.authentication.k8s.io/v1beta1",
        command: "aws",
        args: ["eks", "get-token", "--cluster-name", cluster.clusterName, "--region", region],
      },
    },
  });
  const systemNodeGroup = new SystemNodeGroup(eksStack, "system", {
    cluster,
    subnetIds: privateSubnetIds,
    taints: [{ key: "CriticalAddonsOnly", value: "true", effect: "NO_SCHEDULE" }],
  });
  new DiscoveryTags(eksStack, "discovery", { cluster, subnets: privateSubnetIds });
  const karpenter = new Karpenter(eksStack, "karpenter", { cluster, systemNodeGroup });

  const nodes = new TerraformStack(app, "karpenter-nodes");
  new KubernetesProvider(nodes, "kubernetes", {
    host: cluster.endpoint,
    clusterCaCertificate: Fn.base64decode(cluster.certificateAuthorityData),
    exec: [
      {
        apiVersion: "client.authentication.k8s.io/v1beta1",
        command: "aws",
        args: ["eks", "get-token", "--cluster-name", cluster.clusterName, "--region", region],
      },
    ],
  });
  const nodeClass = new Ec2NodeClass(nodes, "default", { karpenter });
  new NodePool(nodes, "default-pool", {
    name: "default",
    nodeClass,
    requirements: [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["spot", "on-demand"] }],
    limits: { cpu: "100" },
    disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m" },
  });
  // ---
  expect(nodes.dependencies).toContain(eksStack);
  const stacks = synthApp(app);
  const manifests = Object.values(JSON.parse(stacks["karpenter-nodes"]).resource.kubernetes_manifest) as any[];
  expect(manifests.map((m) => m.manifest.kind).sort()).toEqual(["EC2NodeClass", "NodePool"]);
  const pool = manifests.find((m) => m.manifest.kind === "NodePool");
  expect(pool.manifest.spec.template.spec.nodeClassRef).toEqual({
    group: "karpenter.k8s.aws",
    kind: "EC2NodeClass",
    name: "default",
  });
  const tags = Object.values(JSON.parse(stacks.test).resource.aws_ec2_tag).map((t: any) => t.resource_id);
  expect(tags).toEqual(expect.arrayContaining(["subnet-0000000a", "subnet-0000000b"]));
});

test("docs/migrating.md: converted manifests through the constructs", () => {
  const { stack, eks } = clusterStack();
  const karpenter = new Karpenter(stack, "karpenter", { cluster: KarpenterCluster.fromEksCluster(eks) });
  const yamlText = [
    "apiVersion: karpenter.sh/v1alpha5",
    "kind: Provisioner",
    "metadata: { name: default }",
    "spec:",
    "  providerRef: { name: default }",
    "  ttlSecondsAfterEmpty: 30",
    "---",
    "apiVersion: karpenter.k8s.aws/v1alpha1",
    "kind: AWSNodeTemplate",
    "metadata: { name: default }",
    "spec:",
    "  subnetSelector: { karpenter.sh/discovery: prod }",
    "  securityGroupSelector: { karpenter.sh/discovery: prod }",
    "  instanceProfile: KarpenterNodeInstanceProfile-prod",
    "---",
    "apiVersion: karpenter.sh/v1alpha5",
    "kind: Provisioner",
    "metadata: { name: orphan }",
    "spec:",
    "  ttlSecondsAfterEmpty: 30",
  ].join("\n");
  const warned: string[] = [];
  // from docs/migrating.md, with `this` = stack and console.warn = warned.push
  const result = convertLegacyManifests(yamlText);
  const classes = new Map(
    result.ec2NodeClasses.map((c) => [c.name, new Ec2NodeClass(stack, `class-${c.name}`, { ...c.props, karpenter })]),
  );
  for (const p of result.nodePools) {
    if (!p.nodeClassRef) {
      // its input named no node class ("needs input" below): create it once you have given it one
      p.notes.forEach((n) => warned.push(`NodePool ${p.name} skipped: [${n.level}] ${n.field}: ${n.message}`));
      continue;
    }
    new NodePool(stack, `pool-${p.name}`, {
      ...p.props,
      nodeClass: classes.get(p.nodeClassRef.name) ?? p.nodeClassRef,
      karpenter,
    });
  }
  formatNotes(result).forEach((line) => warned.push(line)); // every note, one line each

  expect(warned).toContainEqual(
    expect.stringMatching(/^NodePool orphan skipped: \[action\] spec.providerRef: no providerRef/),
  );
  const manifests = Object.values(JSON.parse(Testing.synth(stack)).resource.kubernetes_manifest) as any[];
  expect(manifests.filter((m) => m.manifest.kind === "NodePool").map((m) => m.manifest.metadata.name)).toEqual([
    "default",
  ]);
  const pool = manifests.find((m) => m.manifest.kind === "NodePool").manifest;
  expect(pool.spec.disruption).toMatchObject({ consolidationPolicy: "WhenEmpty", consolidateAfter: "30s" });
  expect(manifests.find((m) => m.manifest.kind === "EC2NodeClass").manifest.spec.instanceProfile).toBe(
    "KarpenterNodeInstanceProfile-prod",
  );
});

test("docs/upgrading.md: a plan in code, rendered, hazards checked", () => {
  // from docs/upgrading.md
  const plan = upgradePlan("1.2.8", "1.11.3", { kubernetesVersion: "1.31" });
  const markdown = upgradePlanMarkdown(plan);
  const failsCi = plan.hazards.some((h) => h.where !== "on the way");
  // ---
  expect(markdown).toContain("## 1.6.8 → 1.7.6");
  expect(plan.kubernetes.clusterSupported).toBe(true);
  expect(failsCi).toBe(false);
  expect(upgradePlan("1.8.0", "1.11.3").hazards.some((h) => h.where !== "on the way")).toBe(true);
});
