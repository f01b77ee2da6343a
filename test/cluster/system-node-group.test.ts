import { Fn, TerraformStack, TerraformVariable, Testing } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { SystemNodeGroup } from "../../lib/cluster/system-node-group";
import { KarpenterValidationError } from "../../lib/core/errors";
import { onlyResource, resources, synthJson, testCluster, testStack, thrown } from "../helpers";

describe("SystemNodeGroup", () => {
  test("defaults: 2 fixed t3.medium AL2023 on-demand nodes labelled node-role=system", () => {
    const { stack } = testStack();
    const ng = new SystemNodeGroup(stack, "system", {
      cluster: testCluster(stack, "demo"),
      subnetIds: ["subnet-00000001", "subnet-00000002"],
    });
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
    new SystemNodeGroup(stack, "system", { cluster: testCluster(stack), subnetIds: ["subnet-00000001"] });
    const json = synthJson(stack);
    const role = onlyResource(json, "aws_iam_role");
    const trust = JSON.parse(role.assume_role_policy);
    expect(trust.Statement[0].Principal.Service).toMatch(/^ec2\.\$\{data\.aws_partition\..*\.dns_suffix\}$/);
    const arns = Object.values(resources(json, "aws_iam_role_policy_attachment"))
      .map((a: any) => a.policy_arn.replace(/\$\{data\.aws_partition\.[^}]+\}/, "{p}"))
      .sort();
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
      subnetIds: ["subnet-00000001"],
      size: 3,
      instanceTypes: ["m7i.large"],
      labels: { team: "platform", "node-role": "system" },
      taints: [{ key: "CriticalAddonsOnly", value: "true", effect: "NO_SCHEDULE" }],
      dependsOn: [testCluster(stack, "other", "other-cluster").resource],
    });
    expect(ng.labels).toEqual({ team: "platform", "node-role": "system" });
    const group = onlyResource(synthJson(stack), "aws_eks_node_group");
    expect(group.scaling_config).toEqual({ min_size: 3, desired_size: 3, max_size: 3 });
    expect(group.taint).toEqual([{ key: "CriticalAddonsOnly", value: "true", effect: "NO_SCHEDULE" }]);
    expect(group.depends_on).toContain("aws_eks_cluster.other-cluster");
  });

  test("names are per cluster: a default that gets too long asks for roleName / nodeGroupName (no shared fallback)", () => {
    const make = (extra: object = {}) => {
      const { stack } = testStack();
      return new SystemNodeGroup(stack, "system", {
        cluster: testCluster(stack, "c".repeat(57)),
        subnetIds: ["subnet-00000001"],
        ...extra,
      });
    };
    // 57 + "-system-node" = 69 > 64
    const role = thrown(() => make());
    expect(role).toBeInstanceOf(KarpenterValidationError);
    // both defaults are too long: one error lists both
    expect(role.message).toMatch(
      /^2 problems in the props of test\/system:\n {2}- test\/system: roleName = "c{57}-system-node" is invalid: at most 64 characters, .* has 69: set roleName.*\n {2}- test\/system: nodeGroupName = "c{57}-system" is invalid/,
    );
    // 57 + "-system" = 64 > 63
    expect(thrown(() => make({ roleName: "sys" })).message).toMatch(
      /^test\/system: nodeGroupName = "c{57}-system" is invalid: at most 63 characters, .* has 64: set nodeGroupName/,
    );
    const { stack } = testStack();
    new SystemNodeGroup(stack, "system", {
      cluster: testCluster(stack, "c".repeat(57)),
      subnetIds: ["subnet-00000001"],
      roleName: "sys-node",
      nodeGroupName: "sys",
    });
    const json = synthJson(stack);
    expect(onlyResource(json, "aws_iam_role").name).toBe("sys-node");
    expect(onlyResource(json, "aws_eks_node_group").node_group_name).toBe("sys");
  });

  test("a cluster name that fits keeps the derived names, checked against the literal", () => {
    const { stack } = testStack();
    new SystemNodeGroup(stack, "system", {
      cluster: testCluster(stack, "c".repeat(52)),
      subnetIds: ["subnet-00000001"],
    });
    const json = synthJson(stack);
    expect(onlyResource(json, "aws_iam_role").name).toBe("${aws_eks_cluster.cluster.name}-system-node");
    expect(onlyResource(json, "aws_eks_node_group").node_group_name).toBe("${aws_eks_cluster.cluster.name}-system");
  });

  test("a missing cluster is a validation error, not a TypeError", () => {
    const { stack } = testStack();
    const error = thrown(() => new SystemNodeGroup(stack, "system", { subnetIds: ["subnet-00000001"] } as any));
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toBe(
      "test/system: cluster = undefined is invalid: cluster is required: an IKarpenterCluster from KarpenterCluster.fromEksCluster(...) or .fromClusterName(...) [CLUSTER_REQUIRED]",
    );
    const missingSubnets = thrown(() => new SystemNodeGroup(stack, "system2", { cluster: testCluster(stack) } as any));
    expect(missingSubnets.message).toMatch(/^test\/system2: subnetIds = undefined is invalid: at least one subnet ID/);
  });

  test("valid labels and taints pass: prefixed keys, empty taint value", () => {
    const { stack } = testStack();
    new SystemNodeGroup(stack, "system", {
      cluster: testCluster(stack),
      subnetIds: ["subnet-00000001"],
      labels: { "example.com/tier": "system_1.0", "app.kubernetes.io/part-of": "platform" },
      taints: [
        { key: "example.com/critical", value: "", effect: "NO_EXECUTE" },
        { key: "CriticalAddonsOnly", effect: "PREFER_NO_SCHEDULE" },
      ],
    });
    const group = onlyResource(synthJson(stack), "aws_eks_node_group");
    expect(group.labels).toEqual({
      "example.com/tier": "system_1.0",
      "app.kubernetes.io/part-of": "platform",
      "node-role": "system",
    });
    expect(group.taint).toEqual([
      { key: "example.com/critical", value: "", effect: "NO_EXECUTE" },
      { key: "CriticalAddonsOnly", effect: "PREFER_NO_SCHEDULE" },
    ]);
  });

  test.each([
    [
      { labels: { "bad key": "x" } },
      /labels\["bad key"\] = "bad key" is invalid: a label key: a Kubernetes qualified name/,
    ],
    [{ labels: { "-team": "x" } }, /labels\["-team"\] = "-team" is invalid: a label key/],
    [{ labels: { "Example.COM/team": "x" } }, /labels\["Example.COM\/team"\] = .* is invalid: a label key/],
    [{ labels: { "a/b/c": "x" } }, /labels\["a\/b\/c"\] = .* is invalid: a label key/],
    [{ labels: { [`${"k".repeat(64)}`]: "x" } }, /labels\["k{64}"\] = .* is invalid: a label key/],
    [
      { labels: { [`example.com/${"k".repeat(52)}`]: "x" } },
      /labels\[".*"\] = .* is invalid: a label key: .*at most 63 characters in all/,
    ],
    [{ labels: { team: "a b" } }, /labels\["team"\] = "a b" is invalid: a label value of 1 to 63 characters/],
    [{ labels: { team: "x".repeat(64) } }, /labels\["team"\] = "x{64}" is invalid: a label value/],
    [
      { labels: { team: "" } },
      /labels\["team"\] = "" is invalid: a label value of 1 to 63 characters \(EKS rejects empty ones\)/,
    ],
    [{ taints: [{ key: "bad key", effect: "NO_SCHEDULE" }] }, /taints\[0\]\.key = "bad key" is invalid: a taint key/],
    [
      { taints: [{ key: "ok", value: "not ok!", effect: "NO_SCHEDULE" }] },
      /taints\[0\]\.value = "not ok!" is invalid: a taint value: empty or at most 63/,
    ],
    [
      { taints: [{ key: "ok", effect: "NoSchedule" }] },
      /taints\[0\]\.effect = "NoSchedule" is invalid: one of NO_SCHEDULE, NO_EXECUTE, PREFER_NO_SCHEDULE/,
    ],
    [
      { taints: Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, effect: "NO_SCHEDULE" })) },
      /taints = "51 taints" is invalid: at most 50 taints/,
    ],
    [
      { tags: { "aws:team": "x" } },
      /tags\["aws:team"\] = "x" is invalid: the key "aws:team" is reserved: tag keys starting with "aws:"/,
    ],
  ])("rejects labels, taints and tags that EKS or Kubernetes would refuse: %j", (bad, message) => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    const error = thrown(
      () => new SystemNodeGroup(stack, "system", { cluster, subnetIds: ["subnet-00000001"], ...(bad as object) }),
    );
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toMatch(new RegExp(`^test/system: ${message.source}`));
  });

  test("a labels map token is merged with the system label by Terraform", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    const labels = new TerraformVariable(stack, "labels", { type: "map(string)" }).value as Record<string, string>;
    const ng = new SystemNodeGroup(stack, "system", { cluster, subnetIds: ["subnet-00000001"], labels });
    expect(ng.labels).toEqual({ "node-role": "system" });
    expect(onlyResource(synthJson(stack), "aws_eks_node_group").labels).toBe(
      '${merge(var.labels, {"node-role" = "system"})}',
    );
  });

  test("instanceTypes as a list token (a list variable, Fn.split) is left to Terraform; literal items beside a spread token are still checked", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    const types = new TerraformVariable(stack, "types", { type: "list(string)" });
    new SystemNodeGroup(stack, "from-variable", {
      cluster,
      subnetIds: ["subnet-00000001"],
      instanceTypes: types.listValue,
    });
    new SystemNodeGroup(stack, "from-split", {
      cluster,
      subnetIds: ["subnet-00000001"],
      instanceTypes: Fn.split(",", "m5.large,m6i.large"),
    });
    new SystemNodeGroup(stack, "item-token", {
      cluster,
      subnetIds: ["subnet-00000001"],
      instanceTypes: ["m5.large", Fn.lower("M6I.LARGE")],
    });
    const groups = Object.values(resources(synthJson(stack), "aws_eks_node_group")) as any[];
    expect(groups.map((g) => g.instance_types)).toEqual(
      expect.arrayContaining([
        "${var.types}",
        '${split(",", "m5.large,m6i.large")}',
        ["m5.large", '${lower("M6I.LARGE")}'],
      ]),
    );
    expect(groups).toHaveLength(3);
    // a list token spread among literals (cdktf cannot synthesize it) is named; the literals are still checked
    const error = thrown(
      () =>
        new SystemNodeGroup(stack, "bad", {
          cluster,
          subnetIds: ["subnet-00000001"],
          instanceTypes: ["M5.Large", ...types.listValue, "t3"],
        }),
    );
    expect(error.message).toContain('instanceTypes[0] = "M5.Large" is invalid: an EC2 instance type name');
    expect(error.message).toContain(
      'instanceTypes[1] = "(a list token spread into the array)" is invalid: a single instance type: to add a list known only at apply, pass Fn.concat(',
    );
    expect(error.message).toContain('instanceTypes[2] = "t3" is invalid: an EC2 instance type name');
    expect(error.message).not.toContain("TfToken");
  });

  test.each([
    [
      "labels",
      { labels: { "node-role": "workers" } },
      /labels\["node-role"\] = "workers" is invalid: "system" or unset/,
    ],
    ["size", { size: 0 }, /size = 0 is invalid: a whole number from 1 to 100/],
    ["size", { size: 1.5 }, /size = 1.5 is invalid/],
    ["instanceTypes", { instanceTypes: [] }, /instanceTypes = \[\] is invalid: at least one EC2 instance type/],
    ["amiType", { amiType: "al2023" }, /amiType = "al2023" is invalid: one of AL2_x86_64/],
    ["subnetIds", { subnetIds: [] }, /subnetIds = \[\] is invalid: at least one subnet ID/],
    [
      "roleName",
      { roleName: "r".repeat(65) },
      /^test\/system: roleName = "r{65}" is invalid: at most 64 characters \(got 65\): choose a shorter name \[AWS_NAME\]$/,
    ],
    [
      "nodeGroupName",
      { nodeGroupName: "bad name" },
      /^test\/system: nodeGroupName = "bad name" is invalid: an EKS node group name: letters, digits, '-' and '_', starting with a letter or digit \[AWS_NAME\]$/,
    ],
    ["diskSize", { diskSize: -1 }, /diskSize = -1 is invalid/],
  ])("rejects a bad %s", (_field, bad, message) => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    const make = () =>
      new SystemNodeGroup(stack, "system", { cluster, subnetIds: ["subnet-00000001"], ...(bad as object) });
    const error = thrown(make);
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toMatch(message);
  });

  describe("the role name is account-wide", () => {
    /** Two stacks in two regions, each with a system node group of a cluster named prod; returns the second stack. */
    function twoRegions(roleB?: string, roleArns?: [string, string]) {
      const app = Testing.app();
      const stacks = (["us-east-1", "eu-west-1"] as const).map((region, i) => {
        const stack = new TerraformStack(app, region);
        new AwsProvider(stack, "aws", { region, assumeRole: roleArns ? [{ roleArn: roleArns[i] }] : undefined });
        new SystemNodeGroup(stack, "system", {
          cluster: testCluster(stack, "prod"),
          subnetIds: ["subnet-00000001"],
          roleName: i === 1 ? roleB : undefined,
        });
        return stack;
      });
      return stacks[1];
    }

    test("the same cluster name in two regions of one account clashes on <cluster>-system-node: an error naming both and roleName", () => {
      expect(() => Testing.synth(twoRegions(), true)).toThrow(
        'eu-west-1/system: roleName = "prod-system-node" is invalid: an IAM name no other construct of this app creates in the same AWS account: us-east-1/system (roleName) also creates IAM role "prod-system-node". IAM names are account-wide (the same in every region), so the second create fails at apply with EntityAlreadyExists; set roleName (or the other\'s) to a name unique in the account.',
      );
    });

    test("no clash with another roleName, or when the providers assume roles of different accounts", () => {
      expect(() => Testing.synth(twoRegions("prod-eu-system-node"), true)).not.toThrow();
      expect(() =>
        Testing.synth(
          twoRegions(undefined, ["arn:aws:iam::111111111111:role/deploy", "arn:aws:iam::222222222222:role/deploy"]),
          true,
        ),
      ).not.toThrow();
      expect(() =>
        Testing.synth(
          twoRegions(undefined, ["arn:aws:iam::111111111111:role/deploy", "arn:aws:iam::111111111111:role/other"]),
          true,
        ),
      ).toThrow(/roleName = "prod-system-node" is invalid/);
    });
  });
});
