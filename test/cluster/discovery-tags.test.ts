import { Subnet } from "@cdktf/provider-aws/lib/subnet";
import { DiscoveryTags, DISCOVERY_TAG_KEY } from "../../lib/cluster/discovery-tags";
import { SystemNodeGroup } from "../../lib/cluster/system-node-group";
import { resolvedReference } from "../../lib/core/tokens";
import { KarpenterValidationError } from "../../lib/core/errors";
import { Fn, TerraformVariable } from "cdktf";
import { Testing, TerraformStack } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { providedStack, rejected, resources, synthJson, testCluster, testStack, thrown } from "../helpers";

describe("DiscoveryTags", () => {
  test("tags each given subnet and the cluster security group, once each", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack, "demo");
    new DiscoveryTags(stack, "discovery", { cluster, subnets: ["subnet-00000aaa", "subnet-00000bbb"] });
    const tags = Object.values(resources(synthJson(stack), "aws_ec2_tag"));
    expect(tags).toHaveLength(3);
    for (const t of tags) {
      expect(t.key).toBe("karpenter.sh/discovery");
      expect(t.value).toBe("${aws_eks_cluster.cluster.name}");
    }
    expect(tags.map((t) => t.resource_id).sort()).toEqual([
      "${aws_eks_cluster.cluster.vpc_config[0].cluster_security_group_id}",
      "subnet-00000aaa",
      "subnet-00000bbb",
    ]);
  });

  test("without subnets only the one security group is tagged; a custom group and value are used", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack, "demo");
    new DiscoveryTags(stack, "discovery", { cluster, securityGroupId: "sg-00000123", tagValue: "team-a" });
    const tags = Object.values(resources(synthJson(stack), "aws_ec2_tag"));
    expect(tags).toEqual([{ key: "karpenter.sh/discovery", resource_id: "sg-00000123", value: "team-a" }]);
  });

  test("subnetTags gives the map for subnets the user creates, from a literal name or the cluster's name reference", () => {
    expect(DiscoveryTags.subnetTags("demo")).toEqual({ "karpenter.sh/discovery": "demo" });
    const { stack } = testStack();
    const cluster = testCluster(stack, "demo");
    const tags = DiscoveryTags.subnetTags(cluster.clusterName);
    expect(Object.keys(tags)).toEqual(["karpenter.sh/discovery"]);
    expect(resolvedReference(stack, tags["karpenter.sh/discovery"])).toBe("${aws_eks_cluster.cluster.name}");
    // in a Subnet's own tags, the reference is written as such
    new Subnet(stack, "private", {
      vpcId: "vpc-1",
      cidrBlock: "10.0.0.0/24",
      tags: DiscoveryTags.subnetTags(cluster.clusterName, DiscoveryTags.clusterTagKey("demo")),
    });
    expect(resources(synthJson(stack), "aws_subnet").private.tags).toEqual({
      "karpenter.sh/discovery/demo": "${aws_eks_cluster.cluster.name}",
    });
    expect(DISCOVERY_TAG_KEY).toBe("karpenter.sh/discovery");
  });

  test("subnetTags refuses the cluster object (or an EksCluster), pointing to cluster.clusterName", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack, "demo");
    const e = rejected(() => DiscoveryTags.subnetTags(cluster as any));
    expect(e.field).toBe("clusterName");
    expect(e.message).toBe(
      'DiscoveryTags.subnetTags: clusterName = "(an IKarpenterCluster)" is invalid: a cluster name (a literal or a reference), not the cluster object: pass cluster.clusterName [DISCOVERY_TAGS_CLUSTER_NAME]',
    );
    expect(rejected(() => DiscoveryTags.subnetTags(cluster.eksCluster as any)).message).toBe(
      'DiscoveryTags.subnetTags: clusterName = "test/cluster" is invalid: a cluster name (a literal or a reference), not the EksCluster: pass its name (eks.name), or cluster.clusterName of KarpenterCluster.fromEksCluster(eks) [DISCOVERY_TAGS_CLUSTER_NAME]',
    );
  });

  test("a Subnet of the app is tagged through a reference to its id; the tags keep their ids subnet-0, subnet-1", () => {
    const { stack } = testStack();
    const subnet = new Subnet(stack, "private", { vpcId: "vpc-1", cidrBlock: "10.0.0.0/24" });
    const tags = new DiscoveryTags(stack, "discovery", {
      cluster: testCluster(stack),
      subnets: ["subnet-0123abcd", subnet.id],
    });
    expect(tags.subnetTagResources.map((t) => t.node.id)).toEqual(["subnet-0", "subnet-1"]);
    const ids = Object.values(resources(synthJson(stack), "aws_ec2_tag")).map((t: any) => t.resource_id);
    expect(ids).toEqual(expect.arrayContaining(["subnet-0123abcd", "${aws_subnet.private.id}"]));
  });

  test("a Subnet object (TypeScript before the jsii types, JavaScript) is refused at its index, pointing to subnet.id", () => {
    const { stack } = testStack();
    const subnet = new Subnet(stack, "private", { vpcId: "vpc-1", cidrBlock: "10.0.0.0/24" });
    const e = rejected(
      () =>
        new DiscoveryTags(stack, "discovery", {
          cluster: testCluster(stack),
          subnets: ["subnet-0123abcd", subnet as any],
        }),
    );
    expect(e.field).toBe("subnets[1]");
    expect(e.message).toBe(
      "test/discovery: subnets[1] = \"test/private\" is invalid: a subnet ID: 'subnet-' and 8 or 17 lower-case hex digits, such as subnet-0123abcd, or a reference to one: this is the Subnet object itself; pass subnet.id (a reference to a Subnet of this app is checked against the Subnet: private, its tags not managed by the app) [DISCOVERY_TAGS_SUBNET_ID]",
    );
    expect(stack.node.tryFindChild("discovery")).toBeUndefined();
  });

  test.each([
    ["mapPublicIpOnLaunch", { mapPublicIpOnLaunch: true }],
    ["the elb role tag", { tags: { "kubernetes.io/role/elb": "1" } }],
  ])("rejects a public subnet (%s)", (_why, extra) => {
    const { stack } = testStack();
    const subnet = new Subnet(stack, "public", { vpcId: "vpc-1", cidrBlock: "10.0.0.0/24", ...extra });
    const cluster = testCluster(stack);
    const make = () => new DiscoveryTags(stack, "discovery", { cluster, subnets: ["subnet-0000000c", subnet.id] });
    const error = thrown(make);
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toBe(
      'test/discovery: subnets[1] = "test/public" is invalid: a private subnet: this one maps public IPs on launch or carries kubernetes.io/role/elb; Karpenter nodes must not launch into public subnets [DISCOVERY_TAGS_SUBNET_PUBLIC]',
    );
  });
  describe("subnets that are a list token", () => {
    const listTokenText =
      /^test\/discovery: subnets = "\(a list token, known only at apply\)" is invalid: an array of subnet IDs known at synth .*a list token cannot be split into one aws_ec2_tag per subnet; pass the subnets one by one or tag them in their own `tags` with DiscoveryTags\.subnetTags\(\)/;

    test("the cluster's subnet list is rejected with our error, not cdktf's", () => {
      const { stack } = testStack();
      const cluster = testCluster(stack);
      const eks = cluster.eksCluster!;
      const error = thrown(() => new DiscoveryTags(stack, "discovery", { cluster, subnets: eks.vpcConfig.subnetIds }));
      expect(error).toBeInstanceOf(KarpenterValidationError);
      expect(error.message).toMatch(listTokenText);
    });

    test("a list token spread into an array is rejected too", () => {
      const { stack } = testStack();
      const cluster = testCluster(stack);
      const eks = cluster.eksCluster!;
      expect(
        thrown(
          () =>
            new DiscoveryTags(stack, "discovery", {
              cluster,
              subnets: ["subnet-0000000a", ...eks.vpcConfig.subnetIds],
            }),
        ).message,
      ).toMatch(listTokenText);
    });

    test("single references (string tokens) are fine", () => {
      const { stack } = testStack();
      const cluster = testCluster(stack);
      const eks = cluster.eksCluster!;
      const one = new TerraformVariable(stack, "subnet", { type: "string" }).stringValue;
      new DiscoveryTags(stack, "discovery", {
        cluster,
        subnets: [one, "subnet-0000000a", Fn.element(eks.vpcConfig.subnetIds, 0)],
      });
      const ids = Object.values(resources(synthJson(stack), "aws_ec2_tag")).map((t: any) => t.resource_id);
      expect(ids).toEqual(
        expect.arrayContaining([
          "${var.subnet}",
          "subnet-0000000a",
          "${element(tolist(aws_eks_cluster.cluster.vpc_config[0].subnet_ids), 0)}",
        ]),
      );
    });
  });

  test("a missing cluster is a validation error, not a TypeError", () => {
    const { stack } = testStack();
    const error = thrown(() => new DiscoveryTags(stack, "discovery", {} as any));
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toBe(
      "test/discovery: cluster = undefined is invalid: cluster is required: an IKarpenterCluster from KarpenterCluster.fromEksCluster(...) or .fromClusterName(...) [CLUSTER_REQUIRED]",
    );
    expect(thrown(() => new DiscoveryTags(stack, "discovery2", undefined as any))).toBeInstanceOf(
      KarpenterValidationError,
    );
  });

  test("a tag value longer than 256 characters is rejected", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    expect(() => new DiscoveryTags(stack, "discovery", { cluster, tagValue: "v".repeat(257) })).toThrow(
      /^test\/discovery: tagValue = .* is invalid: a tag value of at most 256 characters/,
    );
  });

  test("an empty tag value is refused: no EC2NodeClass can select it", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    expect(
      rejected(() => new DiscoveryTags(stack, "discovery", { cluster, subnets: ["subnet-00000001"], tagValue: "" }))
        .message,
    ).toBe(
      'test/discovery: tagValue = "" is invalid: a non-empty tag value: an EC2NodeClass cannot select an empty one (EC2NodeClass CRD: "empty tag keys or values aren\'t supported"), so Karpenter would never find what these tags mark; leave tagValue unset for the cluster name [DISCOVERY_TAGS_VALUE_EMPTY]',
    );
  });

  test("a subnet listed twice is refused (two aws_ec2_tag for one subnet and key), whether an ID or a Subnet reference (named by the Subnet's path)", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    const subnet = new Subnet(stack, "private", { vpcId: "vpc-1", cidrBlock: "10.0.0.0/24" });
    // each subnet.id is a new token for the same attribute
    const e = rejected(
      () =>
        new DiscoveryTags(stack, "discovery", {
          cluster,
          subnets: ["subnet-00000001", "subnet-00000002", "subnet-00000001", subnet.id, subnet.id],
        }),
    );
    expect(e.problems.map((p) => p.message)).toEqual([
      'test/discovery: subnets[2] = "subnet-00000001" is invalid: a subnet not listed before: subnets[0] is the same subnet, and two aws_ec2_tag resources for one subnet and key would both own the tag (destroying either removes it); list each subnet once [DISCOVERY_TAGS_SUBNET_TWICE]',
      'test/discovery: subnets[4] = "test/private" is invalid: a subnet not listed before: subnets[3] is the same subnet, and two aws_ec2_tag resources for one subnet and key would both own the tag (destroying either removes it); list each subnet once [DISCOVERY_TAGS_SUBNET_TWICE]',
    ]);
  });

  test("a Subnet of another stack is found through its reference: its checks apply, and its path is named", () => {
    const app = Testing.app();
    const network = new TerraformStack(app, "network");
    new AwsProvider(network, "aws", { region: "us-east-1" });
    const open = new Subnet(network, "open", { vpcId: "vpc-1", cidrBlock: "10.0.0.0/24", mapPublicIpOnLaunch: true });
    const named = new Subnet(network, "named", { vpcId: "vpc-1", cidrBlock: "10.0.1.0/24", tags: { Name: "x" } });
    const fine = new Subnet(network, "fine", { vpcId: "vpc-1", cidrBlock: "10.0.2.0/24" });
    const stack = providedStack(app, "eks");
    const cluster = testCluster(stack, "demo");
    const e = rejected(() => new DiscoveryTags(stack, "discovery", { cluster, subnets: [open.id, named.id, fine.id] }));
    expect(e.problems.map((p) => `${p.field} = ${String(p.value)}`)).toEqual([
      "subnets[0] = network/open",
      "subnets[1] = network/named",
    ]);
    expect(e.problems[1].message).toMatch(
      /^eks\/discovery: subnets\[1\] = "network\/named" is invalid: a subnet whose tags this app does not manage: this one has tags of its own \(Name\)/,
    );
    expect(() => new DiscoveryTags(stack, "ok", { cluster, subnets: [fine.id] })).not.toThrow();
  });

  test("a reference to a Subnet whose logical id is overridden is still found", () => {
    const { stack } = testStack();
    const subnet = new Subnet(stack, "private", {
      vpcId: "vpc-1",
      cidrBlock: "10.0.0.0/24",
      mapPublicIpOnLaunch: true,
    });
    subnet.overrideLogicalId("private_a");
    expect(
      rejected(() => new DiscoveryTags(stack, "discovery", { cluster: testCluster(stack), subnets: [subnet.id] }))
        .message,
    ).toMatch(/^test\/discovery: subnets\[0\] = "test\/private" is invalid: a private subnet/);
  });

  describe("static helpers refuse what makes no valid tag", () => {
    test("subnetTags: a cluster name that is none, a tag key AWS refuses", () => {
      expect(rejected(() => DiscoveryTags.subnetTags("")).message).toBe(
        "DiscoveryTags.subnetTags: clusterName = \"\" is invalid: an EKS cluster name: 1 to 100 characters, letters, digits, '-' and '_', starting with a letter or digit [AWS_CLUSTER_NAME]",
      );
      expect(rejected(() => DiscoveryTags.subnetTags("demo", "aws:discovery")).field).toBe("tagKey");
      expect(rejected(() => DiscoveryTags.subnetTags(undefined as any)).message).toBe(
        "DiscoveryTags.subnetTags: clusterName = undefined is invalid: a cluster name (a literal or a reference such as cluster.clusterName) [DISCOVERY_TAGS_CLUSTER_NAME]",
      );
      expect(DiscoveryTags.subnetTags("demo", DiscoveryTags.clusterTagKey("demo"))).toEqual({
        "karpenter.sh/discovery/demo": "demo",
      });
    });

    test("clusterTagKey: a cluster name that is none", () => {
      expect(rejected(() => DiscoveryTags.clusterTagKey("Bad Name!")).message).toBe(
        "DiscoveryTags.clusterTagKey: clusterName = \"Bad Name!\" is invalid: an EKS cluster name: 1 to 100 characters, letters, digits, '-' and '_', starting with a letter or digit [AWS_CLUSTER_NAME]",
      );
      const { stack } = testStack();
      const name = new TerraformVariable(stack, "name", { type: "string" }).stringValue;
      expect(DiscoveryTags.clusterTagKey(name)).toBe(`karpenter.sh/discovery/${name}`);
    });
  });

  describe("a tag value the EC2NodeClasses do not select", () => {
    /** An app with the cluster `demo`, DiscoveryTags with `tagValue`, and optionally an EC2NodeClass of the cluster. */
    function setup(tagValue: string, nodeClass?: { subnetSelectorTerms?: any; securityGroupSelectorTerms?: any }) {
      const app = Testing.app();
      const stack = providedStack(app, "s");
      const cluster = testCluster(stack, "demo");
      const tags = new DiscoveryTags(stack, "discovery", { cluster, subnets: ["subnet-00000001"], tagValue });
      if (nodeClass) new Ec2NodeClass(stack, "nodes", { cluster, role: "KarpenterNodeRole-demo", ...nodeClass });
      return { app, tags };
    }
    const warningsOf = (tags: DiscoveryTags) =>
      tags.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));

    test("with an EC2NodeClass of the same cluster on the default terms: a synth error naming both", () => {
      const { app } = setup("other", {});
      expect(() => app.synth()).toThrow(
        's/discovery: tagValue = "other" is invalid: the cluster\'s name "demo", or unset: s/nodes (EC2NodeClass nodes) selects subnets and security groups by the default term { "karpenter.sh/discovery": "demo" }, and these tags write "other", so Karpenter finds none of them and launches no node (a subnet or security group holds one value per key). Leave tagValue unset, or give the EC2NodeClass subnetSelectorTerms and securityGroupSelectorTerms naming "other" [DISCOVERY_TAGS_VALUE_NOT_CLUSTER]',
      );
    });

    test("with no EC2NodeClass selecting the value: a warning", () => {
      const { app, tags } = setup("other");
      app.synth();
      expect(warningsOf(tags)).toEqual([
        'DiscoveryTags s/discovery tags with karpenter.sh/discovery=other, not the cluster\'s name demo: EC2NodeClasses with the default selector terms select karpenter.sh/discovery=demo, so only an EC2NodeClass whose subnetSelectorTerms and securityGroupSelectorTerms name "other" finds these subnets and the security group, and none in this app does. Leave tagValue unset unless EC2NodeClasses outside this app select "other".',
      ]);
    });

    test("an EC2NodeClass that selects the value, or the cluster's own name, is fine", () => {
      const terms = [{ tags: { "karpenter.sh/discovery": "other" } }];
      const selected = setup("other", { subnetSelectorTerms: terms, securityGroupSelectorTerms: terms });
      expect(() => selected.app.synth()).not.toThrow();
      expect(warningsOf(selected.tags)).toEqual([]);
      const own = setup("demo", {});
      expect(() => own.app.synth()).not.toThrow();
      expect(warningsOf(own.tags)).toEqual([]);
    });
  });
});

describe("a tag key the EC2NodeClasses do not select", () => {
  const warningsOf = (c: { node: { metadata: { type: string; data: unknown }[] } }) =>
    c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));
  const terms = (tags: Record<string, string>) => ({
    subnetSelectorTerms: [{ tags }],
    securityGroupSelectorTerms: [{ tags }],
  });

  test("explicit terms selecting a key nothing in the app carries: a warning naming both paths, the keys and what would match", () => {
    const app = Testing.app();
    const stack = providedStack(app, "s");
    const cluster = testCluster(stack, "demo");
    const tags = new DiscoveryTags(stack, "discovery", {
      cluster,
      subnets: ["subnet-00000001"],
      tagKey: DiscoveryTags.clusterTagKey("demo"),
    });
    new Ec2NodeClass(stack, "nodes", {
      cluster,
      role: "KarpenterNodeRole-demo",
      ...terms({ "karpenter.sh/discovery": "demo" }),
    });
    app.synth();
    expect(warningsOf(tags)).toEqual([
      'DiscoveryTags s/discovery tags subnets and the security group of cluster demo with karpenter.sh/discovery/demo, but EC2NodeClass nodes (s/nodes) selects by karpenter.sh/discovery: nothing in this app carries that key, so unless subnets and a security group outside the app do, Karpenter finds none for it and launches no node. To match, give these DiscoveryTags tagKey: "karpenter.sh/discovery", or the EC2NodeClass subnetSelectorTerms and securityGroupSelectorTerms { tags: { "karpenter.sh/discovery/demo": "demo" } } (or its discoveryTagKey: "karpenter.sh/discovery/demo" with the default terms).',
    ]);
  });

  test("default terms on a cluster the app only reads are judged too", () => {
    const app = Testing.app();
    const stack = providedStack(app, "s");
    const cluster = KarpenterCluster.fromClusterName(stack, "demo", "demo");
    const tags = new DiscoveryTags(stack, "discovery", {
      cluster,
      subnets: ["subnet-00000001"],
      tagKey: "team/discovery",
    });
    new Ec2NodeClass(stack, "nodes", { cluster, role: "KarpenterNodeRole-demo" });
    app.synth();
    expect(warningsOf(tags)).toHaveLength(1);
    expect(warningsOf(tags)[0]).toMatch(
      /^DiscoveryTags s\/discovery tags subnets and the security group of cluster demo with team\/discovery, but EC2NodeClass nodes \(s\/nodes\) selects by karpenter\.sh\/discovery: nothing in this app carries that key/,
    );
  });

  test("no warning when a class selects the key, when another construct carries the selected key, for ID terms, or for a token key", () => {
    const cases: [string, (stack: TerraformStack, cluster: ReturnType<typeof testCluster>) => void][] = [
      [
        "selects the key",
        (stack, cluster) =>
          new Ec2NodeClass(stack, "nodes", { cluster, role: "r", ...terms({ "team/discovery": "demo" }) }),
      ],
      [
        "a Subnet carries the selected key",
        (stack, cluster) => {
          new Subnet(stack, "own", {
            vpcId: "vpc-1",
            cidrBlock: "10.0.0.0/24",
            tags: { "karpenter.sh/discovery": "demo" },
          });
          new Ec2NodeClass(stack, "nodes", { cluster, role: "r", ...terms({ "karpenter.sh/discovery": "demo" }) });
        },
      ],
      [
        "ID terms",
        (stack, cluster) =>
          new Ec2NodeClass(stack, "nodes", {
            cluster,
            role: "r",
            subnetSelectorTerms: [{ id: "subnet-0123abcd" }],
            securityGroupSelectorTerms: [{ id: "sg-0123abcd" }],
          }),
      ],
      [
        "a token key",
        (stack, cluster) =>
          new Ec2NodeClass(stack, "nodes", {
            cluster,
            role: "r",
            ...terms({ [new TerraformVariable(stack, "k", { type: "string" }).stringValue]: "demo" }),
          }),
      ],
    ];
    for (const [, add] of cases) {
      const app = Testing.app();
      const stack = providedStack(app, "s");
      const cluster = testCluster(stack, "demo");
      const tags = new DiscoveryTags(stack, "discovery", {
        cluster,
        subnets: ["subnet-00000001"],
        tagKey: "team/discovery",
      });
      add(stack, cluster);
      app.synth();
      expect(warningsOf(tags)).toEqual([]);
    }
  });

  test("default terms on a cluster the app creates keep their own warning, on the EC2NodeClass, and only it", () => {
    const app = Testing.app();
    const stack = providedStack(app, "s");
    const cluster = testCluster(stack, "demo");
    const tags = new DiscoveryTags(stack, "discovery", {
      cluster,
      subnets: ["subnet-00000001"],
      tagKey: "team/discovery",
    });
    const nodes = new Ec2NodeClass(stack, "nodes", { cluster, role: "r" });
    app.synth();
    expect(warningsOf(tags)).toEqual([]);
    expect(warningsOf(nodes).filter((w) => w.includes("nothing in this app tags anything with it"))).toHaveLength(1);
  });
});

describe("DiscoveryTags: one owner per tag", () => {
  test("the cluster security group tagged by a DiscoveryTags in the cluster's stack and one in a network stack", () => {
    const { app, stack } = testStack("cluster");
    new DiscoveryTags(stack, "discovery", { cluster: testCluster(stack, "demo") });
    const network = new TerraformStack(app, "network");
    new AwsProvider(network, "aws", { region: "us-east-1" });
    new DiscoveryTags(network, "discovery", {
      cluster: KarpenterCluster.fromClusterName(network, "demo", "demo"),
      subnets: ["subnet-0000000a"],
    });
    expect(rejected(() => app.synth()).message).toBe(
      'network/discovery: securityGroupId = "the cluster security group" is invalid: a security group no other DiscoveryTags tags with karpenter.sh/discovery: cluster/discovery already tags the cluster security group for cluster demo, so two aws_ec2_tag resources would own one tag, and destroying either (or its stack) removes it while the other still counts on it, and the default EC2NodeClass then finds no security group; give the cluster one DiscoveryTags (pass its subnets to that one), or set securityGroupId here to another group [DISCOVERY_TAGS_CLAIMED]',
    );
  });

  test("a Subnet that carries the discovery tag in its own tags is not listed too; another key is no clash", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack, "demo");
    const subnet = new Subnet(stack, "private", {
      vpcId: "vpc-1",
      cidrBlock: "10.0.0.0/24",
      tags: { ...DiscoveryTags.subnetTags("demo") },
    });
    expect(rejected(() => new DiscoveryTags(stack, "discovery", { cluster, subnets: [subnet.id] })).message).toBe(
      "test/discovery: subnets[0] = \"test/private\" is invalid: a subnet whose own tags do not hold karpenter.sh/discovery: this one has it in its tags (DiscoveryTags.subnetTags), so the subnet's tags and this construct's aws_ec2_tag would both own the tag, each apply of one undoing the other; leave the subnet out of subnets, it is tagged already [DISCOVERY_TAGS_SUBNET_TAG_CONFLICT]",
    );
  });

  // aws_ec2_tag on a resource whose tags the same configuration manages: the AWS provider documents a perpetual
  // difference (the aws_subnet removes the tag at every apply, the aws_ec2_tag adds it back at the next)
  const MANAGED =
    "so its aws_subnet removes the karpenter.sh/discovery tag this construct's aws_ec2_tag adds at every apply, and the tag comes back at the next (the AWS provider's documented perpetual difference of aws_ec2_tag on a resource of the same configuration): in between Karpenter finds no subnet. Put DiscoveryTags.subnetTags() into the subnet's own tags and leave it out of subnets, or make its provider ignore the key (ignoreTags) or its lifecycle ignore tags (ignoreChanges)";

  test("a Subnet whose aws_subnet manages tags (other own tags, or the provider's default tags) is refused: it would remove the aws_ec2_tag's tag", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack, "demo");
    const named = new Subnet(stack, "named", {
      vpcId: "vpc-1",
      cidrBlock: "10.0.0.0/24",
      tags: { Name: "demo-private", "kubernetes.io/role/internal-elb": "1" },
    });
    expect(
      rejected(() => new DiscoveryTags(stack, "discovery", { cluster, subnets: ["subnet-0123abcd", named.id] }))
        .message,
    ).toBe(
      `test/discovery: subnets[1] = "test/named" is invalid: a subnet whose tags this app does not manage: this one has tags of its own (Name, kubernetes.io/role/internal-elb), ${MANAGED} [DISCOVERY_TAGS_SUBNET_TAGS_MANAGED]`,
    );
    // a per-cluster key is no exception: the subnet's own tags still replace the whole set
    const shared = new Subnet(stack, "shared", {
      vpcId: "vpc-1",
      cidrBlock: "10.0.1.0/24",
      tags: { ...DiscoveryTags.subnetTags("demo") },
    });
    expect(
      rejected(
        () =>
          new DiscoveryTags(stack, "other-key", {
            cluster,
            subnets: [shared.id],
            tagKey: DiscoveryTags.clusterTagKey("demo"),
          }),
      ).problems[0].message,
    ).toMatch(
      /^test\/other-key: subnets\[0\] = "test\/shared" is invalid: a subnet whose tags this app does not manage: this one has tags of its own \(karpenter\.sh\/discovery\), so its aws_subnet removes the karpenter\.sh\/discovery\/demo tag/,
    );

    const app = Testing.app();
    const withDefaults = new TerraformStack(app, "defaults");
    new AwsProvider(withDefaults, "aws", { region: "us-east-1", defaultTags: [{ tags: { team: "platform" } }] });
    const plain = new Subnet(withDefaults, "plain", { vpcId: "vpc-1", cidrBlock: "10.0.0.0/24" });
    expect(
      rejected(
        () =>
          new DiscoveryTags(withDefaults, "discovery", {
            cluster: testCluster(withDefaults, "demo"),
            subnets: [plain.id],
          }),
      ).message,
    ).toBe(
      `defaults/discovery: subnets[0] = "defaults/plain" is invalid: a subnet whose tags this app does not manage: this one has its provider's default tags (defaults/aws), ${MANAGED} [DISCOVERY_TAGS_SUBNET_TAGS_MANAGED]`,
    );
  });

  test("a Subnet is accepted when no tags are managed, or the key is ignored by its provider (ignoreTags) or its lifecycle (ignoreChanges)", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack, "demo");
    const untagged = new Subnet(stack, "untagged", { vpcId: "vpc-1", cidrBlock: "10.0.0.0/24" });
    const lifecycle = new Subnet(stack, "lifecycle", {
      vpcId: "vpc-1",
      cidrBlock: "10.0.1.0/24",
      tags: { Name: "x" },
      lifecycle: { ignoreChanges: ["tags"] },
    });
    expect(
      () => new DiscoveryTags(stack, "discovery", { cluster, subnets: [untagged.id, lifecycle.id] }),
    ).not.toThrow();

    const app = Testing.app();
    const ignoring = new TerraformStack(app, "ignoring");
    new AwsProvider(ignoring, "aws", {
      region: "us-east-1",
      defaultTags: [{ tags: { team: "platform" } }],
      ignoreTags: [{ keyPrefixes: ["karpenter.sh/"] }],
    });
    const named = new Subnet(ignoring, "named", { vpcId: "vpc-1", cidrBlock: "10.0.0.0/24", tags: { Name: "x" } });
    expect(
      () => new DiscoveryTags(ignoring, "discovery", { cluster: testCluster(ignoring, "demo"), subnets: [named.id] }),
    ).not.toThrow();
  });
});

test("DiscoveryTags and SystemNodeGroup: a comma-separated string where a list belongs is called a string", () => {
  const { stack } = testStack();
  const cluster = testCluster(stack, "demo");
  expect(
    rejected(
      () => new DiscoveryTags(stack, "discovery", { cluster, subnets: "subnet-0000000a,subnet-0000000b" as any }),
    ).message,
  ).toBe(
    'test/discovery: subnets = "subnet-0000000a,subnet-0000000b" is invalid: an array of subnet IDs, got a string: pass each subnet as an item (["subnet-0123abcd", "subnet-4567cdef"], not "subnet-0123abcd,subnet-4567cdef"); a list known only at apply (Fn.split) cannot be split into one aws_ec2_tag per subnet [DISCOVERY_TAGS_SUBNETS]',
  );
  expect(
    rejected(
      () => new SystemNodeGroup(stack, "system", { cluster, subnetIds: "subnet-0000000a,subnet-0000000b" as any }),
    ).message,
  ).toBe(
    'test/system: subnetIds = "subnet-0000000a,subnet-0000000b" is invalid: a list of subnet IDs, got a string: pass an array (["subnet-0123abcd", "subnet-4567cdef"], not "subnet-0123abcd,subnet-4567cdef"), or Fn.split(",", <string>) for a string known only at apply [SYSTEM_NODE_GROUP_SUBNETS]',
  );
});
