import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { TerraformStack, Testing } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { IamRolePolicyAttachment } from "@cdktf/provider-aws/lib/iam-role-policy-attachment";
import { KarpenterValidationError } from "../../lib/core/errors";
import { rejected } from "../helpers";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { KarpenterNodeRole } from "../../lib/aws/karpenter-node-role";
import { NodePool } from "../../lib/nodes/node-pool";
import { SystemNodeGroup } from "../../lib/cluster/system-node-group";
import { formatValidationReport, validateApp } from "../../lib/install/validate-app";
import { MANAGED_POLICIES_PER_ROLE } from "../../lib/aws-api/iam-quotas";
import { KarpenterProps } from "../../lib/install/karpenter-props";
import { InterruptionQueueConfig } from "../../lib/aws/karpenter-options";

function clusterStack(name = "prod", region = "eu-west-1") {
  const app = Testing.app();
  const stack = new TerraformStack(app, "eks");
  new AwsProvider(stack, "aws", { region });
  new KubernetesProvider(stack, "kubernetes", {});
  const eks = new EksCluster(stack, "cluster", {
    name,
    roleArn: "arn:aws:iam::123456789012:role/eks",
    vpcConfig: { subnetIds: ["subnet-00000001"] },
  });
  return { app, stack, cluster: KarpenterCluster.fromEksCluster(eks) };
}

describe("name lengths: every problem of an install at once, on the prop the user sets", () => {
  test("a 100-character cluster name is ONE error listing every derived name to set", () => {
    const { stack, cluster } = clusterStack("c".repeat(100), "us-gov-west-1");
    const e = rejected(() => new Karpenter(stack, "k1", { cluster }));
    expect(e.message.split("\n")[0]).toBe(
      `eks/k1: cluster name "${"c".repeat(100)}" (100 characters) is too long for 4 names this install derives from it; set each of these props of Karpenter to a shorter name:`,
    );
    expect(e.problems.map((p) => [p.field, p.path, (p.value as string).length])).toEqual([
      ["nodeRole.roleName", "eks/k1", 118],
      ["controllerRole.roleName", "eks/k1", 124],
      ["controllerRole.policyNameSuffix", "eks/k1", 143],
      ["interruptionQueue.queueName", "eks/k1", 100],
    ]);
    expect(e.problems[2].message).toContain(
      "at most 128 characters for the IAM policy name (the longest, KarpenterControllerResourceDiscoveryPolicy-<suffix>)",
    );
    // nothing half-built
    expect(stack.node.tryFindChild("k1")).toBeUndefined();
    // setting them all is enough
    const ok = new Karpenter(stack, "k2", {
      cluster,
      nodeRole: { roleName: "gov-karpenter-node" },
      controllerRole: { roleName: "gov-karpenter-controller", policyNameSuffix: "gov" },
      interruptionQueue: InterruptionQueueConfig.create({ queueName: "gov-karpenter" }),
    });
    expect(ok.interruptionQueueName).toBeDefined();
  });

  test("a given name that breaks the AWS rule is named by Karpenter's prop, with the others of the install", () => {
    const { stack, cluster } = clusterStack();
    const e = rejected(
      () =>
        new Karpenter(stack, "karpenter", {
          cluster,
          nodeRole: { roleName: "r".repeat(65) },
          interruptionQueue: InterruptionQueueConfig.create({ queueName: "karpenter.fifo" }),
        }),
    );
    expect(e.problems.map((p) => p.field)).toEqual(["nodeRole.roleName", "interruptionQueue.queueName"]);
    expect(e.message).toContain(
      'eks/karpenter: nodeRole.roleName = "' +
        "r".repeat(65) +
        '" is invalid: at most 64 characters (got 65): choose a shorter name',
    );
    expect(e.message).not.toContain("node-role: roleName");
  });

  test("a single problem is a plain KarpenterValidationError on its prop", () => {
    const { stack, cluster } = clusterStack("c".repeat(85));
    const e = rejected(
      () =>
        new Karpenter(stack, "karpenter", { cluster, nodeRole: { roleName: "n" }, controllerRole: { roleName: "c" } }),
    );
    expect(e.field).toBe("interruptionQueue.queueName");
    expect(e.problems).toEqual([e]);
  });
});

describe("synth-time problems are KarpenterValidationErrors with a field", () => {
  test("all problems of a stack in one error; each has path, field and value", () => {
    const { stack, cluster } = clusterStack();
    const system = new SystemNodeGroup(stack, "system", { cluster, subnetIds: ["subnet-00000001"] });
    const karpenter = new Karpenter(stack, "karpenter", { cluster, systemNodeGroup: system, replicas: 3 });
    karpenter.addNodePool("a", { name: "same", nodeClass: { name: "default" } });
    karpenter.addNodePool("b", { name: "same", nodeClass: { name: "default" } });
    const e = rejected(() => Testing.synth(stack, true));
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect(e.message.split("\n")[0]).toBe("2 problems found at synth in stack eks:");
    expect(e.problems.map((p) => [p.path, p.field, p.value])).toEqual([
      ["eks/karpenter", "replicas", 3],
      ["eks/karpenter/node-pool-b", "name", "same"],
    ]);
  });

  test("validateApp returns the same problems and the warnings without throwing", () => {
    const { app, stack, cluster } = clusterStack();
    new Karpenter(stack, "karpenter", { cluster, replicas: 1 });
    new NodePool(stack, "pool", {
      nodeClass: { name: "default" },
      requirements: [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["spot"] }],
    });
    const report = validateApp(app);
    expect(report.errors).toEqual([]);
    expect(report.otherErrors).toEqual([
      expect.objectContaining({ path: "eks", message: expect.stringContaining("helm") }),
    ]);
    const warnings = report.warnings.map((w) => w.path);
    expect(warnings).toEqual(expect.arrayContaining(["eks/karpenter", "eks/pool"]));
    expect(report.warnings.find((w) => w.path === "eks/karpenter")!.message).toContain("eks-pod-identity-agent");
    const text = formatValidationReport(report);
    expect(text).toContain("warning: [eks/karpenter] the controller uses EKS Pod Identity");
    expect(text.split("\n")[0]).toMatch(/^error: \[eks\] /);
    // a second run reports the same warnings, not twice as many
    expect(validateApp(app).warnings).toHaveLength(report.warnings.length);
  });
});

describe("managed policies per role (IAM quota: 10 by default, 20 at most)", () => {
  const arns = (n: number) => Array.from({ length: n }, (_, i) => `arn:aws:iam::123456789012:policy/extra-${i}`);

  function install(props: Partial<KarpenterProps>) {
    const { app, stack, cluster } = clusterStack();
    const karpenter = new Karpenter(stack, "karpenter", { cluster, ...props });
    return { app, stack, karpenter };
  }

  test("the node role at 10 passes; at 11 a warning names the role and the quota", () => {
    expect(MANAGED_POLICIES_PER_ROLE).toEqual({ default: 10, max: 20 });
    // 1.14 attaches 4 AWS-managed policies to the node role
    const ten = install({ nodeRole: { additionalPolicyArns: arns(6) } });
    expect(validateApp(ten.app).warnings.filter((w) => w.message.includes("managed policies"))).toEqual([]);
    const eleven = install({ nodeRole: { additionalPolicyArns: arns(7) } });
    const warnings = validateApp(eleven.app).warnings.filter((w) => w.message.includes("managed policies"));
    expect(warnings).toEqual([
      {
        path: "eks/karpenter",
        message: expect.stringContaining(
          "nodeRole.additionalPolicyArns: role eks/karpenter/node-role/role (its name is known at apply) gets 11 managed policies",
        ),
      },
    ]);
    expect(warnings[0].message).toContain("gets 11 managed policies, more than IAM's default quota of 10 per role");
    expect(validateApp(eleven.app).errors).toEqual([]);
  });

  test("over 20 on the controller role (ours plus the app's own attachments) is an error at synth", () => {
    const { stack, karpenter } = install({ controllerRole: { additionalPolicyArns: arns(10) } });
    // 6 controller policies + 10 = 16; the app attaches 5 more to the same role
    arns(5).forEach(
      (arn, i) =>
        new IamRolePolicyAttachment(stack, `mine-${i}`, { role: karpenter.controllerRole.roleName, policyArn: arn }),
    );
    const e = rejected(() => Testing.synth(stack, true));
    expect(e.field).toBe("controllerRole.additionalPolicyArns");
    expect(e.path).toBe("eks/karpenter");
    expect(e.message).toContain("21 managed policies on role");
    expect(e.message).toContain("at most 20 managed policies per IAM role");
  });

  test("a building block used alone reports on its own prop", () => {
    const { app, stack, cluster } = clusterStack();
    new KarpenterNodeRole(stack, "node-role", { cluster, roleName: "nodes", additionalPolicyArns: arns(17) });
    const [e] = validateApp(app).errors;
    expect([e.path, e.field, e.value]).toEqual([
      "eks/node-role",
      "additionalPolicyArns",
      '21 managed policies on role "nodes"',
    ]);
  });
});
