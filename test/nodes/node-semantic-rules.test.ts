import { TerraformStack, TerraformVariable, Testing } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { Subnet } from "@cdktf/provider-aws/lib/subnet";
import { rejected } from "../helpers";
import { DiscoveryTags } from "../../lib/cluster/discovery-tags";
import { Ec2NodeClass, Ec2NodeClassProps } from "../../lib/nodes/ec2-node-class";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { NodePool, NodePoolProps } from "../../lib/nodes/node-pool";
import { validateApp } from "../../lib/install/validate-app";
import { LAST_KUBERNETES_MINOR_OF_AMI_FAMILY } from "../../lib/nodes/node-semantic-rules";

/*
 * Rules beyond the CRDs (lib/nodes/node-semantic-rules.ts): what the API server accepts but
 * Karpenter, EC2 or the kubelet cannot use. Each invalid input has a valid look-alike that passes.
 */

/** A cluster of this app in `region` on Kubernetes `k8s` (both literals), as node objects see it. */
function clusterIn(region = "eu-west-1", k8s = "1.33") {
  const app = Testing.app();
  const stack = new TerraformStack(app, "nodes");
  new AwsProvider(stack, "aws", { region });
  const eks = new EksCluster(stack, "eks", {
    name: "prod",
    version: k8s,
    roleArn: "arn:aws:iam::123456789012:role/eks",
    vpcConfig: { subnetIds: ["subnet-00000001"] },
  });
  return { app, stack, cluster: KarpenterCluster.fromEksCluster(eks) };
}

function nodeClass(props: Partial<Ec2NodeClassProps>, region?: string, k8s?: string): Ec2NodeClass {
  const { stack, cluster } = clusterIn(region, k8s);
  return new Ec2NodeClass(stack, "class", {
    cluster,
    role: "KarpenterNodeRole-prod",
    subnetSelectorTerms: [{ id: "subnet-00000001" }],
    securityGroupSelectorTerms: [{ id: "sg-00000001" }],
    ...props,
  });
}

function nodePool(props: Partial<NodePoolProps>, region?: string): NodePool {
  const { stack, cluster } = clusterIn(region);
  const cls = new Ec2NodeClass(stack, "class", {
    cluster,
    role: "KarpenterNodeRole-prod",
    subnetSelectorTerms: [{ id: "subnet-00000001" }],
    securityGroupSelectorTerms: [{ id: "sg-00000001" }],
  });
  return new NodePool(stack, "pool", { nodeClass: cls, ...props });
}

const req = (key: string, operator: "In" | "NotIn", values: string[]) => ({ key, operator, values });

describe("NodePool: names that become label values", () => {
  test("a name over 63 characters is rejected (karpenter.sh/nodepool label value); 63 passes", () => {
    const e = rejected(() => nodePool({ name: "p".repeat(64) }));
    expect(e.field).toBe("name");
    expect(e.message).toMatch(
      /^nodes\/pool: name = "p{64}" is invalid: at most 63 characters \(got 64\): Karpenter labels every NodeClaim and node with karpenter.sh\/nodepool=<NodePool name>/,
    );
    expect(nodePool({ name: "p".repeat(63) }).name).toHaveLength(63);
  });
});

test("EC2NodeClass: a name over 63 characters is rejected (karpenter.k8s.aws/ec2nodeclass label value); 63 passes", () => {
  const e = rejected(() => nodeClass({ name: "c".repeat(64) }));
  expect(e.field).toBe("name");
  expect(e.message).toContain(
    "Karpenter labels every NodeClaim and node with karpenter.k8s.aws/ec2nodeclass=<EC2NodeClass name>",
  );
  expect(nodeClass({ name: "c".repeat(63) }).name).toHaveLength(63);
});

describe("NodePool: values of well-known labels", () => {
  test.each([
    ["x86_64", "amd64"],
    ["aarch64", "arm64"],
  ])("kubernetes.io/arch %s is rejected with the fix %s; the fix passes", (wrong, right) => {
    const e = rejected(() => nodePool({ requirements: [req("kubernetes.io/arch", "In", [wrong])] }));
    expect(e.field).toBe("requirements[0].values[0]");
    expect(e.message).toContain(
      `no instance carries "${wrong}", so this value matches no instance type; write "${right}"`,
    );
    expect(nodePool({ requirements: [req("kubernetes.io/arch", "In", [right])] }).requirements[0].values).toEqual([
      right,
    ]);
  });

  test("kubernetes.io/os: Linux is rejected (write linux); linux and windows pass", () => {
    expect(rejected(() => nodePool({ requirements: [req("kubernetes.io/os", "In", ["Linux"])] })).message).toContain(
      'write "linux"',
    );
    expect(() => nodePool({ requirements: [req("kubernetes.io/os", "In", ["linux", "windows"])] })).not.toThrow();
  });

  test("instance family in upper case is rejected with the lower-case fix; lower case passes", () => {
    const e = rejected(() => nodePool({ requirements: [req("karpenter.k8s.aws/instance-family", "In", ["M5"])] }));
    expect(e.field).toBe("requirements[0].values[0]");
    expect(e.message).toContain('write "m5"');
    expect(() =>
      nodePool({ requirements: [req("karpenter.k8s.aws/instance-family", "In", ["m5", "c7g", "u-6tb1"])] }),
    ).not.toThrow();
  });

  test("an instance type in instance-family points to node.kubernetes.io/instance-type", () => {
    const e = rejected(() =>
      nodePool({ requirements: [req("karpenter.k8s.aws/instance-family", "In", ["m5.large"])] }),
    );
    expect(e.message).toContain("use the key node.kubernetes.io/instance-type");
    expect(() =>
      nodePool({ requirements: [req("node.kubernetes.io/instance-type", "In", ["m5.large"])] }),
    ).not.toThrow();
  });

  test("numeric labels take digits: instance-memory 16Gi is rejected, 16384 (MiB) passes", () => {
    const e = rejected(() => nodePool({ requirements: [req("karpenter.k8s.aws/instance-memory", "In", ["16Gi"])] }));
    expect(e.message).toContain("the memory in MiB as a whole number of digits");
    expect(() =>
      nodePool({
        requirements: [
          req("karpenter.k8s.aws/instance-memory", "In", ["16384"]),
          req("karpenter.k8s.aws/instance-cpu", "In", ["4", "8"]),
        ],
      }),
    ).not.toThrow();
  });

  test("Gt/Lt on a label whose values are not numbers is rejected; on a numeric label it passes", () => {
    const e = rejected(() =>
      nodePool({ requirements: [{ key: "karpenter.k8s.aws/instance-family", operator: "Gt", values: ["5"] }] }),
    );
    expect(e.field).toBe("requirements[0].operator");
    expect(e.message).toContain("its values are not numbers");
    expect(() =>
      nodePool({ requirements: [{ key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["5"] }] }),
    ).not.toThrow();
  });

  test("instance-category: C is rejected; c passes", () => {
    expect(
      rejected(() => nodePool({ requirements: [req("karpenter.k8s.aws/instance-category", "In", ["C"])] })).message,
    ).toContain('write "c"');
    expect(() =>
      nodePool({ requirements: [req("karpenter.k8s.aws/instance-category", "In", ["c", "m", "r"])] }),
    ).not.toThrow();
  });

  test("a template label with a value no instance carries is rejected too, saying why a label matters", () => {
    const e = rejected(() => nodePool({ labels: { "kubernetes.io/arch": "x86_64" } as any }));
    expect(e.field).toBe('labels["kubernetes.io/arch"]');
    expect(e.message).toContain(
      'no instance carries "x86_64", and Karpenter turns a template label into a requirement (In that value), so the NodePool matches no instance type; write "amd64"',
    );
    expect(e.message).not.toContain("the requirement");
  });

  test("NotIn a value no instance carries is rejected for what it does: it excludes nothing", () => {
    const e = rejected(() => nodePool({ requirements: [req("kubernetes.io/arch", "NotIn", ["x86_64"])] }));
    expect(e.field).toBe("requirements[0].values[0]");
    expect(e.message).toContain(
      'no instance carries "x86_64", so NotIn it excludes nothing (the value meant is not excluded); write "amd64"',
    );
    expect(e.message).not.toContain("matches no instance type");
    expect(() => nodePool({ requirements: [req("kubernetes.io/arch", "NotIn", ["amd64"])] })).not.toThrow();
  });

  test("zones: another region's zone is rejected when the region is a literal; the cluster's own zones pass", () => {
    const e = rejected(() =>
      nodePool({ requirements: [req("topology.kubernetes.io/zone", "In", ["us-east-1a"])] }, "eu-west-1"),
    );
    expect(e.field).toBe("requirements[0].values[0]");
    expect(e.message).toContain("a zone of the cluster's region eu-west-1");
    expect(() =>
      nodePool(
        { requirements: [req("topology.kubernetes.io/zone", "In", ["eu-west-1a", "eu-west-1b", "eu-west-1-lhr-1a"])] },
        "eu-west-1",
      ),
    ).not.toThrow();
    // NotIn another region's zone excludes nothing, harmlessly
    expect(() =>
      nodePool({ requirements: [req("topology.kubernetes.io/zone", "NotIn", ["us-east-1a"])] }, "eu-west-1"),
    ).not.toThrow();
  });

  test("regions: another region than the cluster's is rejected (NODE_REGION); the cluster's own and NotIn pass", () => {
    const e = rejected(() =>
      nodePool({ requirements: [req("topology.kubernetes.io/region", "In", ["us-east-1"])] }, "eu-west-1"),
    );
    expect(e.code).toBe("NODE_REGION");
    expect(e.field).toBe("requirements[0].values[0]");
    expect(e.message).toContain("the cluster's region eu-west-1 for topology.kubernetes.io/region");
    expect(e.message).toContain('so no node can get region "us-east-1"');
    expect(() =>
      nodePool({ requirements: [req("topology.kubernetes.io/region", "In", ["eu-west-1"])] }, "eu-west-1"),
    ).not.toThrow();
    expect(() =>
      nodePool({ requirements: [req("topology.kubernetes.io/region", "NotIn", ["us-east-1"])] }, "eu-west-1"),
    ).not.toThrow();
  });

  test("a zone ID in the zone label points to topology.k8s.aws/zone-id", () => {
    expect(
      rejected(() => nodePool({ requirements: [req("topology.kubernetes.io/zone", "In", ["euw1-az1"])] })).message,
    ).toContain("use the key topology.k8s.aws/zone-id");
  });

  test("zones are not judged when the region is unknown (a token region)", () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, "nodes");
    new AwsProvider(stack, "aws", { region: new TerraformVariable(stack, "region", { type: "string" }).stringValue });
    const eks = new EksCluster(stack, "eks", {
      name: "prod",
      roleArn: "arn:aws:iam::123456789012:role/eks",
      vpcConfig: { subnetIds: ["subnet-00000001"] },
    });
    const cluster = KarpenterCluster.fromEksCluster(eks);
    expect(
      () =>
        new NodePool(stack, "pool", {
          nodeClass: { name: "default" },
          requirements: [req("topology.kubernetes.io/zone", "In", ["ap-south-1a"])],
        }),
    ).not.toThrow();
    expect(
      () => new Ec2NodeClass(stack, "class", { cluster, role: "r", amiSelectorTerms: [{ alias: "al2@latest" }] }),
    ).not.toThrow(); // no literal Kubernetes version either
  });
});

describe("EC2NodeClass: AMI aliases", () => {
  test.each([
    ["al2023@v2024080", 'an EKS AMI release "vYYYYMMDD"'],
    ["al2023@20240807", 'an EKS AMI release "vYYYYMMDD"'],
    ["bottlerocket@1.20", 'a Bottlerocket release "vX.Y.Z"'],
    ["bottlerocket@v20240817", 'a Bottlerocket release "vX.Y.Z"'],
  ])("%s is rejected", (alias, text) => {
    const e = rejected(() => nodeClass({ amiSelectorTerms: [{ alias }] }));
    expect(e.field).toBe("amiSelectorTerms[0].alias");
    expect(e.message).toContain(text);
  });

  test.each([
    "al2023@latest",
    "al2023@v20260714",
    "bottlerocket@v1.46.0",
    "bottlerocket@1.46.0",
    "bottlerocket@latest",
    "windows2022@latest",
  ])("%s passes", (alias) => {
    expect(() => nodeClass({ amiSelectorTerms: [{ alias }] })).not.toThrow();
  });

  test("al2 on Kubernetes 1.33 (no AL2 AMIs) is rejected; al2 on 1.32 passes", () => {
    expect(LAST_KUBERNETES_MINOR_OF_AMI_FAMILY.AL2).toBe(32);
    const e = rejected(() => nodeClass({ amiSelectorTerms: [{ alias: "al2@latest" }] }, "eu-west-1", "1.33"));
    expect(e.field).toBe("amiSelectorTerms[0].alias");
    expect(e.message).toContain("there are no EKS-optimized AL2 AMIs for Kubernetes 1.33 and later");
    expect(e.message).toContain('Use "al2023@latest"');
    expect(() => nodeClass({ amiSelectorTerms: [{ alias: "al2@v20241225" }] }, "eu-west-1", "1.32")).not.toThrow();
    // amiFamily AL2 defaults to the al2@latest alias: the error names the prop the user set
    const fromFamily = rejected(() => nodeClass({ amiFamily: "AL2" }, "eu-west-1", "1.34"));
    expect([fromFamily.field, fromFamily.value]).toEqual(["amiFamily", "AL2"]);
    expect(fromFamily.message).toContain(
      'no EKS-optimized AL2 AMIs for Kubernetes 1.33 and later (Amazon EKS User Guide, "Amazon Linux 2 AMI deprecation"), so Karpenter finds no AMI and launches no node (amiFamily without amiSelectorTerms selects "al2@latest"). Use "AL2023"',
    );
  });

  test("amiFamily AL2 with your own AMI terms on 1.33 is a warning (your own AMIs may exist)", () => {
    const cls = nodeClass(
      { amiFamily: "AL2", amiSelectorTerms: [{ tags: { "ami-team": "platform" } }] },
      "eu-west-1",
      "1.33",
    );
    const warnings = validateApp(cls.node.root).warnings.map((w) => w.message);
    expect(warnings).toEqual([
      expect.stringContaining(
        "amiFamily AL2 on Kubernetes 1.33: EKS publishes no AL2 AMIs for Kubernetes 1.33 and later",
      ),
    ]);
  });
});

describe("EC2NodeClass: kubelet", () => {
  test("clusterDNS must be IP addresses", () => {
    const e = rejected(() => nodeClass({ kubelet: { clusterDNS: ["10.100.0.10", "10.100.0.10:53"] } }));
    expect(e.field).toBe("kubelet.clusterDNS[1]");
    expect(e.message).toContain("an IPv4 or IPv6 address");
    expect(() => nodeClass({ kubelet: { clusterDNS: ["10.100.0.10", "fd00::a"] } })).not.toThrow();
  });

  test("memory in milli-bytes and CPU with a byte suffix are rejected; the intended quantities pass", () => {
    const m = rejected(() => nodeClass({ kubelet: { kubeReserved: { memory: "100m" } } }));
    expect(m.field).toBe('kubelet.kubeReserved["memory"]');
    expect(m.message).toContain('"100Mi"');
    const cpu = rejected(() => nodeClass({ kubelet: { systemReserved: { cpu: "1Gi" } } }));
    expect(cpu.message).toContain("means millions of cores");
    const ev = rejected(() => nodeClass({ kubelet: { evictionHard: { "memory.available": "500m" } } }));
    expect(ev.field).toBe('kubelet.evictionHard["memory.available"]');
    expect(() =>
      nodeClass({
        kubelet: {
          kubeReserved: { memory: "100Mi", cpu: "100m" },
          systemReserved: { cpu: "1" },
          evictionHard: { "memory.available": "500Mi", "nodefs.available": "10%" },
        },
      }),
    ).not.toThrow();
  });
});

describe("EC2NodeClass: default selector terms and discovery tags", () => {
  // a pinned alias: these tests are about the selector terms, not the once-per-app note on the default alias
  const PINNED = [{ alias: "al2023@v20260714" }];
  const DISCOVERY =
    /selects subnets and security groups by the tag karpenter.sh\/discovery \(the default terms\), but nothing in this app tags anything with it/;

  test("a cluster this app creates, default terms, no discovery tag anywhere: a warning", () => {
    const { app, stack, cluster } = clusterIn();
    new Ec2NodeClass(stack, "class", { cluster, role: "KarpenterNodeRole-prod", amiSelectorTerms: PINNED });
    const report = validateApp(app);
    expect(report.warnings).toEqual([{ path: "nodes/class", message: expect.stringMatching(DISCOVERY) }]);
  });

  test("DiscoveryTags, or a subnet with the tag in its tags, silences it", () => {
    const a = clusterIn();
    new Ec2NodeClass(a.stack, "class", {
      cluster: a.cluster,
      role: "KarpenterNodeRole-prod",
      amiSelectorTerms: PINNED,
    });
    new DiscoveryTags(a.stack, "discovery", { cluster: a.cluster, subnets: ["subnet-00000001"] });
    expect(validateApp(a.app).warnings).toEqual([]);
    const b = clusterIn();
    new Ec2NodeClass(b.stack, "class", {
      cluster: b.cluster,
      role: "KarpenterNodeRole-prod",
      amiSelectorTerms: PINNED,
    });
    new Subnet(b.stack, "subnet", {
      vpcId: "vpc-1",
      cidrBlock: "10.0.0.0/24",
      tags: { ...DiscoveryTags.subnetTags("prod") },
    });
    expect(validateApp(b.app).warnings).toEqual([]);
  });

  test("explicit selector terms are not judged", () => {
    const cls = nodeClass({ amiSelectorTerms: PINNED });
    expect(validateApp(cls.node.root).warnings).toEqual([]);
  });
});

describe("EC2NodeClass: the default AMI alias is noted once per app", () => {
  test("two classes on the default al2023@latest: one warning, on the first, naming both; a class writing @latest itself is not noted", () => {
    const { app, stack, cluster } = clusterIn();
    const terms = {
      subnetSelectorTerms: [{ id: "subnet-00000001" }],
      securityGroupSelectorTerms: [{ id: "sg-00000001" }],
    };
    new Ec2NodeClass(stack, "a", { cluster, role: "KarpenterNodeRole-prod", ...terms });
    new Ec2NodeClass(stack, "b", { cluster, role: "KarpenterNodeRole-prod", amiFamily: "Bottlerocket", ...terms });
    new Ec2NodeClass(stack, "c", {
      cluster,
      role: "KarpenterNodeRole-prod",
      amiSelectorTerms: [{ alias: "al2023@latest" }],
      ...terms,
    });
    validateApp(app);
    expect(validateApp(app).warnings).toEqual([
      {
        path: "nodes/a",
        message:
          'EC2NodeClass a (al2023@latest), b (bottlerocket@latest): the default AMI alias follows the newest EKS-optimized AMI, so Karpenter replaces every node of these classes (drift) whenever AWS publishes one. Fine to start with; in production pin a version, e.g. amiSelectorTerms: [{ alias: "al2023@v20260714" }] (Karpenter docs, "Managing AMIs"). Said once per app; a class that writes "@latest" itself is not warned.',
      },
    ]);
  });
});

describe("every problem of one object at once", () => {
  test("a NodePool with a long name, a misspelt architecture and two foreign zones: one error listing all four", () => {
    const e = rejected(() =>
      nodePool(
        {
          name: "p".repeat(70),
          requirements: [
            req("kubernetes.io/arch", "In", ["x86_64"]),
            req("topology.kubernetes.io/zone", "In", ["us-east-1a", "us-east-1b"]),
          ],
        },
        "eu-west-1",
      ),
    );
    expect(e.problems.map((p) => [p.path, p.field, p.value])).toEqual([
      ["nodes/pool", "name", "p".repeat(70)],
      ["nodes/pool", "requirements[0].values[0]", "x86_64"],
      ["nodes/pool", "requirements[1].values[0]", "us-east-1a"],
      ["nodes/pool", "requirements[1].values[1]", "us-east-1b"],
    ]);
    expect(e.message).toMatch(/^nodes\/pool: 4 problems:\n {2}- nodes\/pool: name = /);
  });

  test("a CRD violation and a semantic problem of a NodePool come together; the CRD's field is not reported twice", () => {
    const e = rejected(() => nodePool({ weight: 1000, labels: { "kubernetes.io/arch": "x86_64" } as any }));
    expect(e.problems.map((p) => p.field)).toEqual(["weight", 'labels["kubernetes.io/arch"]']);
  });

  test("one problem keeps its own message (no list)", () => {
    const e = rejected(() => nodePool({ requirements: [req("kubernetes.io/arch", "In", ["x86_64"])] }));
    expect(e.problems).toHaveLength(1);
    expect(e.message).toMatch(/^nodes\/pool: requirements\[0\]\.values\[0\] = "x86_64" is invalid/);
  });

  test("an EC2NodeClass with a misspelt alias, a clusterDNS with a port and a bad deleteTimeout: one error listing all three", () => {
    const e = rejected(() =>
      nodeClass({
        amiSelectorTerms: [{ alias: "al2023@lastest" }],
        kubelet: { clusterDNS: ["10.100.0.10:53"] },
        deleteTimeout: "forever",
      }),
    );
    expect(e.problems.map((p) => p.field)).toEqual([
      "deleteTimeout",
      "amiSelectorTerms[0].alias",
      "kubelet.clusterDNS[0]",
    ]);
  });

  test("nothing is built when the problems are gathered", () => {
    const { stack, cluster } = clusterIn();
    const cls = new Ec2NodeClass(stack, "class", {
      cluster,
      role: "KarpenterNodeRole-prod",
      subnetSelectorTerms: [{ id: "subnet-00000001" }],
      securityGroupSelectorTerms: [{ id: "sg-00000001" }],
    });
    expect(
      () =>
        new NodePool(stack, "pool", {
          nodeClass: cls,
          name: "p".repeat(70),
          requirements: [req("kubernetes.io/arch", "In", ["x86_64"])],
        }),
    ).toThrow();
    expect(stack.node.tryFindChild("pool")).toBeUndefined();
  });
});

describe("references: what is known is checked, the rest deferred", () => {
  test("a list reference as requirement values is not judged (no false error)", () => {
    const { stack, cluster } = clusterIn();
    const values = new TerraformVariable(stack, "arch", { type: "list(string)" }).listValue;
    const cls = new Ec2NodeClass(stack, "class", {
      cluster,
      role: "KarpenterNodeRole-prod",
      subnetSelectorTerms: [{ id: "subnet-00000001" }],
      securityGroupSelectorTerms: [{ id: "sg-00000001" }],
    });
    expect(
      () =>
        new NodePool(stack, "pool", {
          nodeClass: cls,
          requirements: [{ key: "kubernetes.io/arch", operator: "In", values }],
        }),
    ).not.toThrow();
  });

  test("an alias whose version is a reference: the family is still checked against the Kubernetes version", () => {
    const { stack, cluster } = clusterIn("eu-west-1", "1.33");
    const version = new TerraformVariable(stack, "ami", { type: "string" }).stringValue;
    const terms = (alias: string) => ({
      cluster,
      role: "KarpenterNodeRole-prod",
      subnetSelectorTerms: [{ id: "subnet-00000001" }],
      securityGroupSelectorTerms: [{ id: "sg-00000001" }],
      amiSelectorTerms: [{ alias }],
    });
    const e = rejected(() => new Ec2NodeClass(stack, "al2", terms(`al2@${version}`)));
    expect(e.field).toBe("amiSelectorTerms[0].alias");
    expect(e.message).toContain("no EKS-optimized AL2 AMIs for Kubernetes 1.33 and later");
    // the look-alike: al2023 with a reference version passes (its format is checked at apply by Karpenter)
    expect(() => new Ec2NodeClass(stack, "al2023", terms(`al2023@${version}`))).not.toThrow();
  });
});
