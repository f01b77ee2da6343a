// The pure parts of the e2e runner (scripts/e2e/e2e.cjs), which need none of the built tools: which
// resources the emulator apply takes, and how Helm values referring to the stack are resolved.
const e2e = require("../scripts/e2e/e2e.cjs");
export {};

const config = {
  data: { aws_partition: { p: {} } },
  resource: {
    aws_eks_cluster: {
      cluster: {
        name: "demo",
        role_arn: "${aws_iam_role.cluster.arn}",
        vpc_config: [{ subnet_ids: ["${aws_subnet.a.id}"] }],
      },
    },
    aws_subnet: { a: { vpc_id: "${aws_vpc.v.id}" } },
    aws_vpc: { v: { cidr_block: "10.0.0.0/16" } },
    aws_iam_role: {
      cluster: { name: "demo-cluster", assume_role_policy: "{}" },
      node: {
        name: "KarpenterNodeRole-${aws_eks_cluster.cluster.name}",
        path: "/karpenter/",
        assume_role_policy: "{}",
      },
      "after-nodes": { name: "x", assume_role_policy: "{}", depends_on: ["aws_eks_node_group.ng"] },
    },
    aws_eks_node_group: {
      ng: { cluster_name: "${aws_eks_cluster.cluster.name}", node_role_arn: "${aws_iam_role.node.arn}" },
    },
    aws_sqs_queue: { q: { name: "${aws_eks_cluster.cluster.name}", policy: "${data.aws_partition.p.partition}" } },
  },
};

describe("e2e runner: emulator apply targets", () => {
  test("an emulated resource comes with what it depends on, and is left out when that is not emulated", () => {
    const { targets, left } = e2e.emulatedClosure(config, e2e.EMULATED);
    expect(targets.sort()).toEqual([
      "aws_eks_cluster.cluster",
      "aws_iam_role.cluster",
      "aws_iam_role.node",
      "aws_sqs_queue.q",
      "aws_subnet.a",
      "aws_vpc.v",
    ]);
    // depends_on counts like a reference: the node group is not applied, so neither is this role
    expect(left).toEqual(["aws_iam_role.after-nodes"]);
  });

  test("references are read from interpolations and depends_on, data sources included", () => {
    expect([...e2e.referencesOf(config.resource.aws_sqs_queue.q)].sort()).toEqual([
      "aws_eks_cluster.cluster",
      "data.aws_partition.p",
    ]);
    expect([...e2e.referencesOf(config.resource.aws_iam_role["after-nodes"])]).toEqual(["aws_eks_node_group.ng"]);
  });
});

describe("e2e runner: Helm values resolved from the stack", () => {
  test("literals are followed through references; role ARNs are built from the literal name and path", () => {
    expect(e2e.resolveRefs("queue: ${aws_sqs_queue.q.name}", config)).toBe("queue: demo");
    expect(e2e.resolveRefs("${aws_iam_role.node.arn}", config)).toBe(
      "arn:aws:iam::123456789012:role/karpenter/KarpenterNodeRole-demo",
    );
  });

  test("anything not known from the configuration becomes a marker no expectation matches", () => {
    expect(e2e.resolveRefs("${aws_eks_cluster.cluster.endpoint}", config)).toBe(
      "e2e-unresolved-aws_eks_cluster.cluster.endpoint",
    );
    expect(e2e.resolveRefs("${aws_sqs_queue.q.policy}", config)).toBe("e2e-unresolved-aws_sqs_queue.q.policy");
  });
});
