import { SystemNodeGroup } from "../lib/system-node-group";
import { KarpenterValidationError } from "../lib/errors";
import { onlyResource, resources, synthJson, testCluster, testStack, thrown } from "./helpers";

describe("SystemNodeGroup", () => {
  test("defaults: 2 fixed t3.medium AL2023 on-demand nodes labelled node-role=system", () => {
    const { stack } = testStack();
    const ng = new SystemNodeGroup(stack, "system", { cluster: testCluster(stack, "demo"), subnetIds: ["subnet-1", "subnet-2"] });
    expect(ng.size).toBe(2);
    const json = synthJson(stack);
    const group = onlyResource(json, "aws_eks_node_group");
    expect(group.scaling_config).toEqual({ min_size: 2, desired_size: 2, max_size: 2 });
    expect(group.instance_types).toEqual(["t3.medium"]);
    expect(group.ami_type).toBe("AL2023_x86_64_STANDARD");
    expect(group.capacity_type).toBe("ON_DEMAND");
    expect(group.labels).toEqual({ "node-role": "system" });
    expect(group.cluster_name).toBe("${aws_eks_cluster.cluster.name}");
    expect(group.node_group_name).toBe("${aws_eks_cluster.cluster.name}-system");
    expect(group.node_role_arn).toBe(`\${aws_iam_role.${Object.keys(resources(json, "aws_iam_role"))[0]}.arn}`);
  });

  test("the node role is trusted by EC2 and has the worker, CNI and ECR pull-only policies (partition-aware)", () => {
    const { stack } = testStack();
    new SystemNodeGroup(stack, "system", { cluster: testCluster(stack), subnetIds: ["subnet-1"] });
    const json = synthJson(stack);
    const role = onlyResource(json, "aws_iam_role");
    const trust = JSON.parse(role.assume_role_policy);
    expect(trust.Statement[0].Principal.Service).toMatch(/^ec2\.\$\{data\.aws_partition\..*\.dns_suffix\}$/);
    const arns = Object.values(resources(json, "aws_iam_role_policy_attachment")).map((a: any) => a.policy_arn.replace(/\$\{data\.aws_partition\.[^}]+\}/, "{p}")).sort();
    expect(arns).toEqual([
      "arn:{p}:iam::aws:policy/AmazonEC2ContainerRegistryPullOnly",
      "arn:{p}:iam::aws:policy/AmazonEKSWorkerNodePolicy",
      "arn:{p}:iam::aws:policy/AmazonEKS_CNI_Policy",
    ]);
    // the node group waits for every attachment
    const group = onlyResource(json, "aws_eks_node_group");
    for (const name of Object.keys(resources(json, "aws_iam_role_policy_attachment"))) {
      expect(group.depends_on).toContain(`aws_iam_role_policy_attachment.${name}`);
    }
  });

  test("custom size, types, labels, taints and extra dependencies", () => {
    const { stack } = testStack();
    const ng = new SystemNodeGroup(stack, "system", {
      cluster: testCluster(stack),
      subnetIds: ["subnet-1"],
      size: 3,
      instanceTypes: ["m7i.large"],
      labels: { team: "platform", "node-role": "ignored" },
      taints: [{ key: "CriticalAddonsOnly", value: "true", effect: "NO_SCHEDULE" }],
      dependsOn: [testCluster(stack, "other", "other-cluster").resource],
    });
    expect(ng.labels).toEqual({ team: "platform", "node-role": "system" });
    const group = onlyResource(synthJson(stack), "aws_eks_node_group");
    expect(group.scaling_config).toEqual({ min_size: 3, desired_size: 3, max_size: 3 });
    expect(group.taint).toEqual([{ key: "CriticalAddonsOnly", value: "true", effect: "NO_SCHEDULE" }]);
    expect(group.depends_on).toContain("aws_eks_cluster.other-cluster");
  });

  test("names fall back when a long literal cluster name would overflow the limits", () => {
    const { stack } = testStack();
    new SystemNodeGroup(stack, "system", { cluster: testCluster(stack, "c".repeat(60)), subnetIds: ["subnet-1"] });
    const json = synthJson(stack);
    expect(onlyResource(json, "aws_iam_role").name).toBe("KarpenterSystemNode");
    expect(onlyResource(json, "aws_eks_node_group").node_group_name).toBe("karpenter-system");
  });

  test.each([
    ["size", { size: 0 }, /size = 0 is invalid: an integer from 1 to 100/],
    ["size", { size: 1.5 }, /size = 1.5 is invalid/],
    ["instanceTypes", { instanceTypes: [] }, /instanceTypes = \[\] is invalid: at least one EC2 instance type/],
    ["amiType", { amiType: "al2023" }, /amiType = "al2023" is invalid: one of AL2_x86_64/],
    ["subnetIds", { subnetIds: [] }, /subnetIds = \[\] is invalid: at least one subnet ID/],
    ["roleName", { roleName: "r".repeat(65) }, /roleName = "r+" is invalid: 1 to 64 characters \(got 65\)/],
    ["nodeGroupName", { nodeGroupName: "bad name" }, /nodeGroupName = "bad name" is invalid: letters, digits/],
    ["diskSize", { diskSize: -1 }, /diskSize = -1 is invalid/],
  ])("rejects a bad %s", (_field, bad, message) => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    const make = () => new SystemNodeGroup(stack, "system", { cluster, subnetIds: ["subnet-1"], ...(bad as object) });
    const error = thrown(make);
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toMatch(message);
  });
});
