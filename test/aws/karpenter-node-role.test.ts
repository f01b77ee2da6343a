import { KarpenterNodeRole } from "../../lib/aws/karpenter-node-role";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { KarpenterValidationError } from "../../lib/core/errors";
import { resolvedReference } from "../../lib/core/tokens";
import { TerraformVariable, Testing } from "cdktf";
import { onlyResource, rejected, resources, synthJson, testCluster, testStack, thrown } from "../helpers";

const PARTITION = /^\$\{data\.aws_partition\.[^.]+\.partition\}$/;

function synthNodeRole(props: Partial<ConstructorParameters<typeof KarpenterNodeRole>[2]> = {}, clusterName = "demo") {
  const { stack } = testStack();
  const cluster = testCluster(stack, clusterName);
  const nodeRole = new KarpenterNodeRole(stack, "node-role", { cluster, ...props });
  return { nodeRole, json: synthJson(stack), stack };
}

/** The policy ARNs attached to the role, with the partition reference written as {partition}. */
function attachedArns(json: any): string[] {
  return Object.values(resources(json, "aws_iam_role_policy_attachment")).map((a: any) =>
    a.policy_arn.replace(/\$\{data\.aws_partition\.[^.]+\.partition\}/, "{partition}"),
  );
}

describe("KarpenterNodeRole", () => {
  test("creates KarpenterNodeRole-<cluster> trusted by ec2.<partition DNS suffix>", () => {
    const { json } = synthNodeRole();
    const role = onlyResource(json, "aws_iam_role");
    expect(role.name).toBe("KarpenterNodeRole-${aws_eks_cluster.cluster.name}");
    const trust = JSON.parse(role.assume_role_policy);
    expect(trust.Statement).toHaveLength(1);
    expect(trust.Statement[0].Effect).toBe("Allow");
    expect(trust.Statement[0].Action).toEqual(["sts:AssumeRole"]);
    expect(trust.Statement[0].Principal.Service).toMatch(/^ec2\.\$\{data\.aws_partition\.[^.]+\.dns_suffix\}$/);
  });

  test("1.14 attaches the four managed policies with partition-aware ARNs (ECR PullOnly)", () => {
    const { json } = synthNodeRole({ version: "1.14.1" });
    expect(attachedArns(json).sort()).toEqual(
      [
        "arn:{partition}:iam::aws:policy/AmazonEKS_CNI_Policy",
        "arn:{partition}:iam::aws:policy/AmazonEKSWorkerNodePolicy",
        "arn:{partition}:iam::aws:policy/AmazonEC2ContainerRegistryPullOnly",
        "arn:{partition}:iam::aws:policy/AmazonSSMManagedInstanceCore",
      ].sort(),
    );
    const roleKey = Object.keys(resources(json, "aws_iam_role"))[0];
    for (const a of Object.values(resources(json, "aws_iam_role_policy_attachment")) as any[]) {
      expect(a.role).toBe(`\${aws_iam_role.${roleKey}.name}`);
      expect(a.policy_arn.split(":")[1]).toMatch(PARTITION);
    }
  });

  test("1.3 attaches ECR ReadOnly instead", () => {
    const arns = attachedArns(synthNodeRole({ version: "1.3.8" }).json);
    expect(arns).toContain("arn:{partition}:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly");
    expect(arns).not.toContain("arn:{partition}:iam::aws:policy/AmazonEC2ContainerRegistryPullOnly");
  });

  test("a version change across the ECR swap attaches the new policy before detaching the old", () => {
    const [before, after] = ["1.3.8", "1.4.4"].map((version) => synthNodeRole({ version }).json);
    const attachments = (json: any) => resources(json, "aws_iam_role_policy_attachment");
    // one address for ReadOnly (before 1.4) and PullOnly (from 1.4): the other policy_arn replaces that
    // attachment, and create_before_destroy attaches the new policy before the old one is detached
    const ecr = (json: any) => Object.entries(attachments(json)).filter(([k]) => k.includes("attachment-ecr-pull"));
    expect(ecr(before).map(([k]) => k)).toEqual(ecr(after).map(([k]) => k));
    expect(ecr(before).map(([, r]: [string, any]) => [r.policy_arn.split("/").pop(), r.lifecycle])).toEqual([
      ["AmazonEC2ContainerRegistryReadOnly", { create_before_destroy: true }],
    ]);
    expect(ecr(after).map(([, r]: [string, any]) => [r.policy_arn.split("/").pop(), r.lifecycle])).toEqual([
      ["AmazonEC2ContainerRegistryPullOnly", { create_before_destroy: true }],
    ]);
    // the other attachments keep their addresses and Terraform's default order
    expect(Object.keys(attachments(after)).sort()).toEqual(Object.keys(attachments(before)).sort());
    expect(
      Object.entries(attachments(after))
        .filter(([k]) => !k.includes("attachment-ecr-pull"))
        .map(([, r]: [string, any]) => r.lifecycle),
    ).toEqual([undefined, undefined, undefined]);
    // no moved block: cdktf would then demand a Terraform binary at synth
    expect(after.moved).toBeUndefined();
  });

  test("creates an EC2_LINUX access entry for the role on the cluster", () => {
    const { json, nodeRole } = synthNodeRole();
    const entry = onlyResource(json, "aws_eks_access_entry");
    expect(entry.type).toBe("EC2_LINUX");
    expect(entry.cluster_name).toBe("${aws_eks_cluster.cluster.name}");
    expect(entry.principal_arn).toBe(`\${aws_iam_role.${Object.keys(resources(json, "aws_iam_role"))[0]}.arn}`);
    expect(nodeRole.role).toBe(nodeRole.node.findChild("role"));
    expect(nodeRole.accessEntry).toBe(nodeRole.node.findChild("access-entry"));
  });

  test("additional policies and tags", () => {
    const { json } = synthNodeRole({
      additionalPolicyArns: ["arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy"],
      tags: { team: "platform" },
    });
    expect(attachedArns(json)).toContain("arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy");
    expect(attachedArns(json)).toHaveLength(5);
    expect(onlyResource(json, "aws_iam_role").tags).toEqual({ team: "platform" });
    expect(onlyResource(json, "aws_eks_access_entry").tags).toEqual({ team: "platform" });
  });

  test("bring your own role: only the access entry", () => {
    const existingRole = { roleName: "my-nodes", roleArn: "arn:aws:iam::123456789012:role/my-nodes" };
    const { json, nodeRole } = synthNodeRole({ existingRole });
    expect(resources(json, "aws_iam_role")).toEqual({});
    expect(resources(json, "aws_iam_role_policy_attachment")).toEqual({});
    expect(onlyResource(json, "aws_eks_access_entry").principal_arn).toBe(existingRole.roleArn);
    expect(nodeRole.roleName).toBe("my-nodes");
    expect(nodeRole.roleArn).toBe(existingRole.roleArn);
    expect(nodeRole.role).toBeUndefined();
  });

  test.each([
    ["roleName", { roleName: "x" }],
    ["additionalPolicyArns", { additionalPolicyArns: ["arn:aws:iam::aws:policy/X"] }],
  ])("bring your own role rejects %s", (field, extra) => {
    const existingRole = { roleName: "my-nodes", roleArn: "arn:aws:iam::123456789012:role/my-nodes" };
    expect(() => synthNodeRole({ existingRole, ...extra })).toThrow(
      new RegExp(`test/node-role: ${field} = .* is invalid: not allowed with existingRole`),
    );
    expect(rejected(() => synthNodeRole({ existingRole, ...extra })).code).toBe("NODE_ROLE_OPTION_WITH_EXISTING_ROLE");
  });

  test("a default name that gets longer than 64 characters asks for roleName", () => {
    expect(() => synthNodeRole({}, "c".repeat(47))).toThrow(KarpenterValidationError);
    expect(() => synthNodeRole({}, "c".repeat(47))).toThrow(
      /roleName = "KarpenterNodeRole-c{47}" is invalid: at most 64 characters, .* has 65: set roleName/,
    );
    expect(() => synthNodeRole({ roleName: "nodes" }, "c".repeat(47))).not.toThrow();
  });

  test("a literal role name is checked", () => {
    expect(rejected(() => synthNodeRole({ roleName: "r".repeat(65) })).message).toBe(
      `test/node-role: roleName = "${"r".repeat(65)}" is invalid: at most 64 characters (got 65): choose a shorter name [AWS_NAME]`,
    );
    expect(rejected(() => synthNodeRole({ roleName: "bad name" })).message).toBe(
      'test/node-role: roleName = "bad name" is invalid: an IAM role name: letters, digits and + = , . @ _ - [AWS_NAME]',
    );
    expect(rejected(() => synthNodeRole({ roleName: "" })).message).toBe(
      'test/node-role: roleName = "" is invalid: an empty name is not allowed: give 1–64 characters (an IAM role name: letters, digits and + = , . @ _ -) [AWS_NAME]',
    );
  });

  test("a token cluster name is not checked at synth", () => {
    const { stack } = testStack();
    const data = KarpenterCluster.fromClusterName(stack, "existing", "seed");
    const tokenCluster = { ...data, clusterName: data.eksClusterData!.name, clusterNameLiteral: undefined };
    const role = new KarpenterNodeRole(stack, "node-role", { cluster: tokenCluster });
    const json = synthJson(stack);
    expect(onlyResource(json, "aws_iam_role").name).toBe("KarpenterNodeRole-${data.aws_eks_cluster.existing.name}");
    expect(resolvedReference(stack, role.roleName)).toBe(
      `\${aws_iam_role.${Object.keys(resources(json, "aws_iam_role"))[0]}.name}`,
    );
  });

  test.each(["1.16.0", "2.0.0", "latest", "1.14"])(
    "unknown or malformed version %j is an error listing the supported ones",
    (version) => {
      expect(() => synthNodeRole({ version })).toThrow(
        /test\/node-role: version = .* is invalid: .*1\.0, 1\.1, .*1\.14, 1\.15/,
      );
    },
  );
  describe("bring your own role is validated when literal", () => {
    test.each([
      [
        "an ARN that is not one",
        { roleName: "MyRole", roleArn: "not-an-arn" },
        /existingRole\.roleArn = "not-an-arn" is invalid: an IAM role ARN/,
      ],
      [
        "an instance profile ARN",
        { roleName: "MyRole", roleArn: "arn:aws:iam::123456789012:instance-profile/MyRole" },
        /existingRole\.roleArn = .*instance-profile.* is invalid: an IAM role ARN, .*not an instance profile/,
      ],
      [
        "an empty name",
        { roleName: "", roleArn: "" },
        /existingRole\.roleName = "" is invalid: an empty name is not allowed: give 1–64 characters \(an IAM role name/,
      ],
      ["an empty ARN", { roleName: "MyRole", roleArn: "" }, /existingRole\.roleArn = "" is invalid: an IAM role ARN/],
      [
        "a bad name",
        { roleName: "my role", roleArn: "arn:aws:iam::123456789012:role/my role" },
        /existingRole\.roleName = "my role" is invalid: an IAM role name/,
      ],
      [
        "a short account",
        { roleName: "MyRole", roleArn: "arn:aws:iam::1234:role/MyRole" },
        /existingRole\.roleArn = .* is invalid: an IAM role ARN/,
      ],
      [
        "a name/ARN mismatch",
        { roleName: "MyRole", roleArn: "arn:aws:iam::123456789012:role/Other" },
        /existingRole\.roleArn = .* is invalid: the ARN of the role named in existingRole\.roleName \("MyRole"\): its last path segment is "Other"/,
      ],
      [
        "a missing ARN",
        { roleName: "MyRole" },
        /existingRole\.roleArn = undefined is invalid: the role ARN \(required\)/,
      ],
    ])("rejects %s", (_why, existingRole, message) => {
      const error = rejected(() => synthNodeRole({ existingRole: existingRole as any }));
      expect(error.problems.map((p) => p.message)).toContainEqual(
        expect.stringMatching(new RegExp(`^test/node-role: ${message.source}`)),
      );
    });

    test("accepts a role with a path and other partitions; the access entry names the given ARN", () => {
      for (const roleArn of [
        "arn:aws:iam::123456789012:role/nodes/karpenter/MyRole",
        "arn:aws-us-gov:iam::123456789012:role/MyRole",
        "arn:aws-cn:iam::123456789012:role/MyRole",
      ]) {
        const { json } = synthNodeRole({ existingRole: { roleName: "MyRole", roleArn } });
        expect(onlyResource(json, "aws_eks_access_entry").principal_arn).toBe(roleArn);
      }
    });

    test("with tokens in the ARN, a literal last segment is still compared with the name", () => {
      const { stack } = testStack();
      const account = new TerraformVariable(stack, "account", { type: "string" }).stringValue;
      const cluster = testCluster(stack);
      expect(
        () =>
          new KarpenterNodeRole(stack, "ok", {
            cluster,
            existingRole: { roleName: "MyRole", roleArn: `arn:aws:iam::${account}:role/MyRole` },
          }),
      ).not.toThrow();
      expect(
        () =>
          new KarpenterNodeRole(stack, "bad", {
            cluster,
            existingRole: { roleName: "MyRole", roleArn: `arn:aws:iam::${account}:role/Other` },
          }),
      ).toThrow(
        /^test\/bad: existingRole\.roleArn = "arn:aws:iam::<known at apply>:role\/Other" is invalid: .* its last path segment is "Other"/,
      );
      const name = new TerraformVariable(stack, "name", { type: "string" }).stringValue;
      expect(
        () =>
          new KarpenterNodeRole(stack, "token-name", {
            cluster,
            existingRole: { roleName: name, roleArn: "arn:aws:iam::123456789012:role/Anything" },
          }),
      ).not.toThrow();
    });
  });

  test.each([
    ["a policy name", "AmazonEBSCSIDriverPolicy"],
    ["a role ARN", "arn:aws:iam::123456789012:role/MyRole"],
    ["an S3 ARN", "arn:aws:s3:::my-bucket"],
    ["a bad account", "arn:aws:iam::amazon:policy/X"],
  ])("additionalPolicyArns rejects %s", (_why, arn) => {
    const error = thrown(() =>
      synthNodeRole({ additionalPolicyArns: ["arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy", arn] }),
    );
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toMatch(
      /^test\/node-role: additionalPolicyArns\[1\] = .* is invalid: an IAM managed policy ARN/,
    );
  });

  test("additionalPolicyArns: a policy the role of the version gets anyway is refused (it would be attached twice)", () => {
    const error = thrown(() =>
      synthNodeRole({
        version: "1.14.1",
        additionalPolicyArns: [
          "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore",
          "arn:aws-cn:iam::aws:policy/AmazonEKS_CNI_Policy",
        ],
      }),
    ) as KarpenterValidationError;
    expect(error.problems.map((p) => p.message)).toEqual([
      'test/node-role: additionalPolicyArns[0] = "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore" is invalid: a policy the role does not get anyway: the node role of Karpenter 1.14.1 attaches AmazonSSMManagedInstanceCore itself, and two attachments of one policy would each manage it (removing either detaches it); leave it out [AWS_POLICY_ARN_ALREADY_ATTACHED]',
      'test/node-role: additionalPolicyArns[1] = "arn:aws-cn:iam::aws:policy/AmazonEKS_CNI_Policy" is invalid: a policy the role does not get anyway: the node role of Karpenter 1.14.1 attaches AmazonEKS_CNI_Policy itself, and two attachments of one policy would each manage it (removing either detaches it); leave it out [AWS_POLICY_ARN_ALREADY_ATTACHED]',
    ]);
    // the ECR policy of the other side of 1.4 is another policy: ReadOnly beside 1.14's PullOnly is allowed
    const { json } = synthNodeRole({
      version: "1.14.1",
      additionalPolicyArns: ["arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly"],
    });
    expect(attachedArns(json)).toContain("arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly");
    expect(() =>
      synthNodeRole({
        version: "1.0.14",
        additionalPolicyArns: ["arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly"],
      }),
    ).toThrow(/attaches AmazonEC2ContainerRegistryReadOnly itself/);
  });

  test("additionalPolicyArns accepts customer-managed ARNs with a path", () => {
    const { json } = synthNodeRole({ additionalPolicyArns: ["arn:aws:iam::123456789012:policy/team/nodes/extra"] });
    expect(attachedArns(json)).toContain("arn:aws:iam::123456789012:policy/team/nodes/extra");
  });

  test.each([
    [
      { "aws:team": "x" },
      /tags\["aws:team"\] = "x" is invalid: the key "aws:team" is reserved: tag keys starting with "aws:"/,
    ],
    [{ "AWS:Team": "x" }, /tags\["AWS:Team"\] = "x" is invalid: the key "AWS:Team" is reserved/],
    [
      { ["k".repeat(129)]: "x" },
      /tags\["k{129}"\] = "x" is invalid: the key "k{129}" is 129 characters long: a tag key has 1 to 128 characters/,
    ],
    [
      { team: "v".repeat(257) },
      /tags\["team"\] = "v{199}… is invalid: a tag value of at most 256 characters \(got 257\)/,
    ],
  ])("tags are checked against the AWS rules: %j", (tags, message) => {
    const error = thrown(() => synthNodeRole({ tags }));
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toMatch(new RegExp(`^test/node-role: ${message.source}`));
  });

  test("a missing cluster is a validation error, not a TypeError", () => {
    const { stack } = testStack();
    const error = thrown(() => new KarpenterNodeRole(stack, "node-role", {} as any));
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toBe(
      "test/node-role: cluster = undefined is invalid: cluster is required: an IKarpenterCluster from KarpenterCluster.fromEksCluster(...) or .fromClusterName(...) [CLUSTER_REQUIRED]",
    );
  });

  test("two node roles of one cluster name in one account clash at synth; a token name or an existing role is not compared", () => {
    const { stack } = testStack();
    new KarpenterNodeRole(stack, "a", { cluster: testCluster(stack, "demo", "c1") });
    new KarpenterNodeRole(stack, "b", { cluster: testCluster(stack, "demo", "c2") });
    expect(() => Testing.synth(stack, true)).toThrow(
      /test\/b: roleName = "KarpenterNodeRole-demo" is invalid: an IAM name no other construct of this app creates in the same AWS account: test\/a \(roleName\) also creates IAM role "KarpenterNodeRole-demo"/,
    );

    const other = testStack().stack;
    const named = new TerraformVariable(other, "name", { type: "string" });
    new KarpenterNodeRole(other, "a", { cluster: testCluster(other, "demo", "c1") });
    new KarpenterNodeRole(other, "b", { cluster: testCluster(other, "demo", "c2"), roleName: named.stringValue });
    new KarpenterNodeRole(other, "c", {
      cluster: testCluster(other, "demo", "c3"),
      existingRole: {
        roleName: "KarpenterNodeRole-demo",
        roleArn: "arn:aws:iam::123456789012:role/KarpenterNodeRole-demo",
      },
    });
    expect(() => Testing.synth(other, true)).not.toThrow();
  });
});
