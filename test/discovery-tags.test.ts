import { Subnet } from "@cdktf/provider-aws/lib/subnet";
import { DiscoveryTags, DISCOVERY_TAG_KEY } from "../lib/discovery-tags";
import { resolvedReference } from "../lib/private/tokens";
import { KarpenterValidationError } from "../lib/errors";
import { Fn, TerraformVariable } from "cdktf";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { resources, synthJson, testCluster, testStack, thrown } from "./helpers";

describe("DiscoveryTags", () => {
  test("tags each given subnet and the cluster security group, once each", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack, "demo");
    new DiscoveryTags(stack, "discovery", { cluster, subnets: ["subnet-aaa", "subnet-bbb"] });
    const tags = Object.values(resources(synthJson(stack), "aws_ec2_tag"));
    expect(tags).toHaveLength(3);
    for (const t of tags) {
      expect(t.key).toBe("karpenter.sh/discovery");
      expect(t.value).toBe("${aws_eks_cluster.cluster.name}");
    }
    expect(tags.map((t) => t.resource_id).sort()).toEqual(["${aws_eks_cluster.cluster.vpc_config[0].cluster_security_group_id}", "subnet-aaa", "subnet-bbb"]);
  });

  test("without subnets only the one security group is tagged; a custom group and value are used", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack, "demo");
    new DiscoveryTags(stack, "discovery", { cluster, securityGroupId: "sg-123", tagValue: "team-a" });
    const tags = Object.values(resources(synthJson(stack), "aws_ec2_tag"));
    expect(tags).toEqual([{ key: "karpenter.sh/discovery", resource_id: "sg-123", value: "team-a" }]);
  });

  test("subnetTags gives the map for subnets the user creates", () => {
    expect(DiscoveryTags.subnetTags("demo")).toEqual({ "karpenter.sh/discovery": "demo" });
    const { stack } = testStack();
    const tags = DiscoveryTags.subnetTags(testCluster(stack, "demo"));
    expect(Object.keys(tags)).toEqual(["karpenter.sh/discovery"]);
    expect(resolvedReference(stack, tags["karpenter.sh/discovery"])).toBe("${aws_eks_cluster.cluster.name}");
    expect(DISCOVERY_TAG_KEY).toBe("karpenter.sh/discovery");
  });

  test("a Subnet of the app is tagged through a reference to its id", () => {
    const { stack } = testStack();
    const subnet = new Subnet(stack, "private", { vpcId: "vpc-1", cidrBlock: "10.0.0.0/24" });
    new DiscoveryTags(stack, "discovery", { cluster: testCluster(stack), subnets: [subnet] });
    const ids = Object.values(resources(synthJson(stack), "aws_ec2_tag")).map((t: any) => t.resource_id);
    expect(ids).toContain("${aws_subnet.private.id}");
  });

  test.each([
    ["mapPublicIpOnLaunch", { mapPublicIpOnLaunch: true }],
    ["the elb role tag", { tags: { "kubernetes.io/role/elb": "1" } }],
  ])("rejects a public subnet (%s)", (_why, extra) => {
    const { stack } = testStack();
    const subnet = new Subnet(stack, "public", { vpcId: "vpc-1", cidrBlock: "10.0.0.0/24", ...extra });
    const cluster = testCluster(stack);
    const make = () => new DiscoveryTags(stack, "discovery", { cluster, subnets: ["subnet-ok", subnet] });
    const error = thrown(make);
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toMatch(/test\/discovery: subnets\[1\] = "test\/public" is invalid: a private subnet/);
  });
  describe("subnets that are a list token", () => {
    const listTokenText = /^test\/discovery: subnets = "\(a list token, known only at apply\)" is invalid: an array of subnet IDs known at synth .*a list token cannot be split into one aws_ec2_tag per subnet; pass the subnets one by one or tag them in their own `tags` with DiscoveryTags\.subnetTags\(\)/;

    test("the cluster's subnet list is rejected with our error, not cdktf's", () => {
      const { stack } = testStack();
      const cluster = testCluster(stack);
      const eks = cluster.resource as EksCluster;
      const error = thrown(() => new DiscoveryTags(stack, "discovery", { cluster, subnets: eks.vpcConfig.subnetIds }));
      expect(error).toBeInstanceOf(KarpenterValidationError);
      expect(error.message).toMatch(listTokenText);
    });

    test("a list token spread into an array is rejected too", () => {
      const { stack } = testStack();
      const cluster = testCluster(stack);
      const eks = cluster.resource as EksCluster;
      expect(thrown(() => new DiscoveryTags(stack, "discovery", { cluster, subnets: ["subnet-a", ...eks.vpcConfig.subnetIds] })).message).toMatch(listTokenText);
    });

    test("single references (string tokens) are fine", () => {
      const { stack } = testStack();
      const cluster = testCluster(stack);
      const eks = cluster.resource as EksCluster;
      const one = new TerraformVariable(stack, "subnet", { type: "string" }).stringValue;
      new DiscoveryTags(stack, "discovery", { cluster, subnets: [one, "subnet-a", Fn.element(eks.vpcConfig.subnetIds, 0)] });
      const ids = Object.values(resources(synthJson(stack), "aws_ec2_tag")).map((t: any) => t.resource_id);
      expect(ids).toEqual(expect.arrayContaining(["${var.subnet}", "subnet-a", "${element(tolist(aws_eks_cluster.cluster.vpc_config[0].subnet_ids), 0)}"]));
    });
  });

  test("a missing cluster is a validation error, not a TypeError", () => {
    const { stack } = testStack();
    const error = thrown(() => new DiscoveryTags(stack, "discovery", {} as any));
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toBe("test/discovery: cluster = undefined is invalid: cluster is required: an IKarpenterCluster from KarpenterCluster.fromEksCluster(...) or .fromClusterName(...)");
    expect(thrown(() => new DiscoveryTags(stack, "discovery2", undefined as any))).toBeInstanceOf(KarpenterValidationError);
  });

  test("a tag value longer than 256 characters is rejected", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    expect(() => new DiscoveryTags(stack, "discovery", { cluster, tagValue: "v".repeat(257) })).toThrow(/^test\/discovery: tagValue = .* is invalid: a tag value of at most 256 characters/);
  });
});
