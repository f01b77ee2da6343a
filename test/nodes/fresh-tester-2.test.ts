import { TerraformStack, Testing } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { rejected } from "../helpers";
import { Ec2NodeClass, Ec2NodeClassProps } from "../../lib/nodes/ec2-node-class";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { NodePool, NodePoolProps } from "../../lib/nodes/node-pool";
import { impossibleDate } from "../../lib/kubernetes/value-rules";
import { quantityLookalike } from "../../lib/nodes/kubelet-expressions";
import { build, rejection, req } from "./node-props";
import { FakeInstallation, testStack } from "../helpers";

/*
 * The second fresh tester's findings (fresh2-report.md, SILENT and CONFUSING): taint values that are no
 * label values, alias dates that are no calendar dates, more tags than EC2 takes beside Karpenter's own, a
 * zone ID of another region, tenancy values, kubelet quantities written with units, and the did-you-mean
 * of a limit below one instance. Each invalid input has a valid look-alike that passes.
 */

const ag = require("../../scripts/e2e/agreement.cjs");

describe("taint values are label values (Kubernetes Node validation, IsValidLabelValue)", () => {
  test.each([
    ["taints", "v".repeat(64), "64 characters long"],
    ["startupTaints", "v".repeat(100), "100 characters long"],
    ["taints", "example.com/v", "holds a '/'"],
  ])("%s value %s is refused", (field, value, why) => {
    const e = rejection("NodePool", { [field]: [{ key: "team", value, effect: "NoSchedule" }] });
    expect(e.code).toBe("NODEPOOL_TAINT_VALUE");
    expect(e.field).toBe(`${field}[0].value`);
    expect(e.message).toContain(why);
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("taint-value-as-label-value");
  });
  test("look-alikes: 63 characters, dots and dashes, no value", () => {
    expect(() =>
      build("NodePool", {
        taints: [
          { key: "a", value: "v".repeat(63), effect: "NoSchedule" },
          { key: "b", value: "gpu.v-1_x", effect: "NoSchedule" },
        ],
        startupTaints: [{ key: "c", effect: "NoExecute" }],
      }),
    ).not.toThrow();
  });
  test("a value the CRD pattern refuses is the pattern's alone", () => {
    const e = rejection("NodePool", { taints: [{ key: "a", value: "a b", effect: "NoSchedule" }] });
    expect(e.code).toBe("NODEPOOL_FORMAT");
  });
});

describe("taint timeAdded is a time that exists (the CRD's format: date-time)", () => {
  test.each([
    ["2025-13-01T00:00:00Z", "month 13"],
    ["2025-02-30T00:00:00Z", "day 30 of month 02"],
    ["2025-01-01T24:00:00Z", "hour 24"],
    ["2025-01-01T00:60:00Z", "minute 60"],
  ])("%s is refused", (timeAdded, why) => {
    const e = rejection("NodePool", { taints: [{ key: "a", effect: "NoSchedule", timeAdded }] });
    expect(e.code).toBe("NODEPOOL_FORMAT");
    expect(e.field).toBe("taints[0].timeAdded");
    expect(e.message).toContain(why);
  });
  test("look-alikes: a leap day, the last second of a day, an offset", () => {
    for (const timeAdded of ["2024-02-29T00:00:00Z", "2025-12-31T23:59:59Z", "2025-06-01T12:00:00+02:00"])
      expect(() => build("NodePool", { taints: [{ key: "a", effect: "NoSchedule", timeAdded }] })).not.toThrow();
  });
});

describe("al2 / al2023 alias dates", () => {
  test.each(["al2023@v20251399", "al2023@v20250230", "al2@v20230229", "al2023@v20250001"])(
    "%s is no calendar date and refused",
    (alias) => {
      const e = rejection("EC2NodeClass", { amiSelectorTerms: [{ alias }] });
      expect(e.code).toBe("EC2NODECLASS_AMI_ALIAS_DATE");
      expect(e.field).toBe("amiSelectorTerms[0].alias");
      expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("alias-version-date");
    },
  );
  test.each([
    ["al2023@v2025-05-05", ' (did you mean "al2023@v20250505"?)'],
    ["al2023@20250505", ' (did you mean "al2023@v20250505"?)'],
    ["al2@vlatest", ""],
    ["bottlerocket@v1.46", ""],
  ])(
    "%s is no release version of its family: its own code, not the Kubernetes one (fresh tester 35)",
    (alias, meant) => {
      const e = rejection("EC2NodeClass", { amiSelectorTerms: [{ alias }] });
      expect(e.problems).toHaveLength(1);
      expect(e.code).toBe("EC2NODECLASS_AMI_ALIAS_VERSION");
      expect(e.field).toBe("amiSelectorTerms[0].alias");
      expect(e.message).toContain(
        `@<version>" with ${alias.startsWith("bottle") ? "a Bottlerocket" : "an EKS AMI"} release`,
      );
      expect(e.message).toContain(`${meant}: Karpenter resolves the alias to an SSM parameter`);
      expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("alias-version");
    },
  );
  test("look-alikes: real dates, a leap day, latest", () => {
    for (const alias of ["al2023@v20251231", "al2023@v20240229", "al2@v20240817", "al2023@latest"])
      expect(() => build("EC2NodeClass", { amiSelectorTerms: [{ alias }] })).not.toThrow();
  });
  test("impossibleDate names the part", () => {
    expect(impossibleDate("20251399")).toContain("month 13");
    expect(impossibleDate("20250230")).toContain("days 01 to 28 in 2025");
    expect(impossibleDate("20000229")).toBeUndefined();
    expect(impossibleDate("19000229")).toContain("days 01 to 28 in 1900");
  });
});

describe("tags beside Karpenter's own fit EC2's 50 per resource", () => {
  const tags = (n: number, extra: { [k: string]: string } = {}) => ({
    ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`team-${i}`, "x"])),
    ...extra,
  });
  test("45 tags are refused: Karpenter adds 6, naming the count and the budget", () => {
    const e = rejection("EC2NodeClass", { tags: tags(45) });
    expect(e.code).toBe("EC2NODECLASS_TAGS_COUNT");
    expect(e.field).toBe("tags");
    expect(e.message).toContain("at most 44 tags (got 45)");
    expect(e.message).toContain("45 + 6 = 51");
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("tag-count");
    expect(rejection("EC2NodeClass", { tags: tags(51) }).code).toBe("EC2NODECLASS_TAGS_COUNT");
  });
  test("look-alikes: 44 tags; 45 when one is the Name Karpenter would add", () => {
    expect(() => build("EC2NodeClass", { tags: tags(44) })).not.toThrow();
    expect(() => build("EC2NodeClass", { tags: tags(44, { Name: "worker" }) })).not.toThrow();
    expect(rejection("EC2NodeClass", { tags: tags(45, { Name: "worker" }) }).message).toContain(
      "at most 45 tags (got 46)",
    );
  });
});

/** A NodePool of a cluster in `region` (a literal on the AWS provider). */
function poolIn(region: string, props: Partial<NodePoolProps>): NodePool {
  const app = Testing.app();
  const stack = new TerraformStack(app, "nodes");
  new AwsProvider(stack, "aws", { region });
  const eks = new EksCluster(stack, "eks", {
    name: "prod",
    version: "1.33",
    roleArn: "arn:aws:iam::123456789012:role/eks",
    vpcConfig: { subnetIds: ["subnet-00000001"] },
  });
  const cluster = KarpenterCluster.fromEksCluster(eks);
  const nodeClass = new Ec2NodeClass(stack, "class", {
    cluster,
    role: "KarpenterNodeRole-prod",
    subnetSelectorTerms: [{ id: "subnet-00000001" }],
    securityGroupSelectorTerms: [{ id: "sg-00000001" }],
  } as Ec2NodeClassProps);
  return new NodePool(stack, "pool", { nodeClass, ...props });
}

describe("zone IDs of another region (topology.k8s.aws/zone-id)", () => {
  const zoneIds = (operator: string, values: string[]) => ({
    requirements: [req("topology.k8s.aws/zone-id", operator, values)],
  });
  test("use1-az1 on eu-west-1 is refused, naming us-east-1", () => {
    const e = rejected(() => poolIn("eu-west-1", zoneIds("In", ["use1-az1"])));
    expect(e.code).toBe("NODE_ZONE_ID");
    expect(e.field).toBe("requirements[0].values[0]");
    expect(e.message).toContain('"euw1-az<n>"');
    expect(e.message).toContain('"use1-az1" is a zone of us-east-1');
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("cluster-region-zone-id");
  });
  test("a zone name under the zone-id key points to the zone key", () => {
    const e = rejected(() => poolIn("eu-west-1", zoneIds("In", ["eu-west-1a"])));
    expect(e.code).toBe("NODE_ZONE_ID");
    expect(e.message).toContain("use the key topology.kubernetes.io/zone");
  });
  test("look-alikes: the region's own IDs (Local Zones too), NotIn, and a region not in the table", () => {
    expect(() => poolIn("eu-west-1", zoneIds("In", ["euw1-az1", "euw1-az3"]))).not.toThrow();
    expect(() => poolIn("us-east-1", zoneIds("In", ["use1-az4", "use1-bos1-az1"]))).not.toThrow();
    expect(() => poolIn("ap-northeast-1", zoneIds("In", ["apne1-az1"]))).not.toThrow();
    expect(() => poolIn("eu-west-1", zoneIds("NotIn", ["use1-az1"]))).not.toThrow();
    expect(() => poolIn("xx-west-9", zoneIds("In", ["use1-az1"]))).not.toThrow();
  });
});

describe("karpenter.k8s.aws/instance-tenancy values (Karpenter: default, dedicated)", () => {
  test('"shared" is refused with the fix "default"', () => {
    const e = rejection("NodePool", {
      requirements: [req("karpenter.k8s.aws/instance-tenancy", "In", ["shared"])],
    });
    expect(e.code).toBe("NODE_REQUIREMENT_VALUE_UNKNOWN");
    expect(e.field).toBe("requirements[0].values[0]");
    expect(e.message).toContain('write "default"');
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("well-known-label-value");
    expect(
      rejection("NodePool", { requirements: [req("karpenter.k8s.aws/instance-tenancy", "In", ["host"])] }).code,
    ).toBe("NODE_REQUIREMENT_VALUE_UNKNOWN");
  });
  test("look-alikes: default and dedicated", () => {
    expect(() =>
      build("NodePool", { requirements: [req("karpenter.k8s.aws/instance-tenancy", "In", ["default", "dedicated"])] }),
    ).not.toThrow();
  });
});

describe("kubelet reserved values written as a number and a unit (1.15)", () => {
  test.each([
    ["kubeReserved", "memory", "1GB", '"1G" or "1Gi"'],
    ["kubeReserved", "memory", "1Gb", '"1G" or "1Gi"'],
    ["kubeReserved", "memory", "512MB", '"512M" or "512Mi"'],
    ["systemReserved", "cpu", "1 core", 'write "1"'],
    ["systemReserved", "cpu", "250 millicores", 'write "250m"'],
    ["kubeReserved", "memory", "2 lots", 'write a quantity such as "1Gi"'],
  ])("%s.%s = %s says it is no quantity and what to write", (field, key, value, write) => {
    const e = rejection("EC2NodeClass", { kubelet: { [field]: { [key]: value } } }, "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_KUBELET_NOT_A_QUANTITY");
    expect(e.field).toBe(`kubelet.${field}["${key}"]`);
    expect(e.message).toContain(`"${value}" is not one (quantities are`);
    expect(e.message).toContain(write);
    expect(e.message).toContain("may also be a CEL expression");
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("kubelet-reserved-not-a-quantity");
  });
  test("look-alikes: quantities, and an expression stays an expression", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
    expect(
      () =>
        new Ec2NodeClass(stack, "ok", {
          karpenter,
          kubelet: { kubeReserved: { memory: "1Gi", cpu: "100m" }, systemReserved: { memory: "1G", cpu: "1" } },
        }),
    ).not.toThrow();
    const e = rejection("EC2NodeClass", { kubelet: { kubeReserved: { memory: "11 * maxpods + 255" } } }, "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_KUBELET_EXPRESSION");
    expect(quantityLookalike("11 * max_pods + 255")).toBeUndefined();
    expect(quantityLookalike("2 Gi")).toEqual(["2Gi"]);
  });
});

describe("limits below one instance: the did-you-mean never repeats the input", () => {
  const warnings = (limits: { [k: string]: string }) => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.14.1");
    const pool = new NodePool(stack, "p", { karpenter, nodeClass: { name: "default" }, limits });
    return pool.node.metadata
      .filter((m) => m.type === "@cdktf/warn")
      .map((m) => String(m.data))
      .join("\n");
  };
  test.each([
    ["cpu", "0.0001", '"1"'],
    ["cpu", "0.5", '"1"'],
    ["cpu", "1m", '"1"'],
    ["cpu", "500m", '"500"'],
    ["memory", "1Ki", '"1Gi"'],
    ["memory", "0.0001Gi", '"1Gi"'],
  ])("%s = %s suggests %s", (resource, q, meant) => {
    const w = warnings({ [resource]: q });
    expect(w).toContain(`Did you mean ${meant}?`);
    expect(w).not.toContain(`Did you mean "${q}"?`);
  });
  test.each([
    ["nvidia.com/gpu", "0.5"],
    ["aws.amazon.com/neuron", "500m"],
  ])("%s = %s: no instance type with whole devices fits, so a warning (fresh tester 36: C2-08)", (resource, q) => {
    const w = warnings({ [resource]: q });
    expect(w).toContain(`limits["${resource}"] = "${q}" is 0.5, less than one of the`);
    expect(w).toContain("scheduler.go:1098-1114");
    expect(w).toContain('Did you mean "1"?');
  });
  test("look-alikes: a whole number of GPUs, 0 (on purpose), and a vendor resource not of the AWS list", () => {
    expect(warnings({ "nvidia.com/gpu": "1", "amd.com/gpu": "0" })).not.toContain("less than one");
    expect(warnings({ "example.com/widget": "0.5" })).not.toContain("less than one");
  });
});
