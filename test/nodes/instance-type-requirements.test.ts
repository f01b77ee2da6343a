import { Fn } from "cdktf";
import { NodePool, NodePoolProps } from "../../lib/nodes/node-pool";
import { FakeInstallation, testStack } from "../helpers";
import { convertLegacyManifests } from "../../lib/cli-api";
import { build, rejection, req } from "./node-props";

/*
 * Fresh tester round 33 (8.09, 8.10, 10.19-10.22): NodePool requirements no EC2 instance type can meet. The labels
 * Karpenter derives from an instance type's name (family, category, generation, size) are certain: requirements
 * no name meets are refused (NODE_REQUIREMENT_UNSATISFIABLE). Each refused input has a valid look-alike.
 */

const ag = require("../../scripts/e2e/agreement.cjs");

const TYPE = "node.kubernetes.io/instance-type";
const FAMILY = "karpenter.k8s.aws/instance-family";
const CATEGORY = "karpenter.k8s.aws/instance-category";
const GENERATION = "karpenter.k8s.aws/instance-generation";
const SIZE = "karpenter.k8s.aws/instance-size";
const ARCH = "kubernetes.io/arch";

describe("requirements no instance type name meets are refused", () => {
  test.each([
    ["10.19 family In [m5] with category In [c]", [req(FAMILY, "In", ["m5"]), req(CATEGORY, "In", ["c"])], 1, "m5.*"],
    [
      "10.20 type In [m5.large] with family In [c5]",
      [req(TYPE, "In", ["m5.large"]), req(FAMILY, "In", ["c5"])],
      1,
      'm5.large: instance-family "m5"',
    ],
    [
      "type In [m5.large] with generation Gt 5",
      [req(TYPE, "In", ["m5.large"]), req(GENERATION, "Gt", ["5"])],
      1,
      'instance-generation "5"',
    ],
    [
      "type In [m5.large, c5.xlarge] with size NotIn [large, xlarge]",
      [req(TYPE, "In", ["m5.large", "c5.xlarge"]), req(SIZE, "NotIn", ["large", "xlarge"])],
      1,
      "c5.xlarge",
    ],
    [
      "family In [m5] with category NotIn [m]",
      [req(FAMILY, "In", ["m5"]), req(CATEGORY, "NotIn", ["m"])],
      1,
      'instance-category "m"',
    ],
    ["family In [m5] with size DoesNotExist", [req(FAMILY, "In", ["m5"]), req(SIZE, "DoesNotExist")], 1, "m5.*"],
    [
      "category In [c] first, then family In [m5, r5]",
      [req(CATEGORY, "In", ["c"]), req(ARCH, "In", ["amd64"]), req(FAMILY, "In", ["m5", "r5"])],
      2,
      "r5.*",
    ],
  ])("%s", (_name, requirements, at, shown) => {
    const e = rejection("NodePool", { requirements });
    expect(e.code).toBe("NODE_REQUIREMENT_UNSATISFIABLE");
    expect(e.field).toBe(`requirements[${at}]`);
    expect(e.message).toContain("no instance type name satisfies");
    expect(e.message).toContain("types.go:52");
    expect(e.message).toContain(shown);
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("unsatisfiable-requirements");
  });
  test("a template label acts as In its value: family label m5 with category In [c]", () => {
    const e = rejection("NodePool", { labels: { [FAMILY]: "m5" }, requirements: [req(CATEGORY, "In", ["c"])] });
    expect(e.code).toBe("NODE_REQUIREMENT_UNSATISFIABLE");
    expect(e.field).toBe('labels["karpenter.k8s.aws/instance-family"]');
    expect(e.message).toContain('requirements[0] (karpenter.k8s.aws/instance-category In ["c"])');
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("unsatisfiable-requirements");
  });
  test("the deprecated beta.kubernetes.io/instance-type is the same key", () => {
    const e = rejection("NodePool", {
      requirements: [req("beta.kubernetes.io/instance-type", "In", ["m5.large"]), req(CATEGORY, "In", ["c"])],
    });
    expect(e.code).toBe("NODE_REQUIREMENT_UNSATISFIABLE");
    expect(e.field).toBe("requirements[1]");
  });
});

describe("look-alikes some instance type name meets build", () => {
  test.each([
    ["family In [m5, c5] with category In [c] (c5)", [req(FAMILY, "In", ["m5", "c5"]), req(CATEGORY, "In", ["c"])]],
    ["type In [m5.large] with family In [m5, c5]", [req(TYPE, "In", ["m5.large"]), req(FAMILY, "In", ["m5", "c5"])]],
    ["type In [m5.large] with generation Gt 4", [req(TYPE, "In", ["m5.large"]), req(GENERATION, "Gt", ["4"])]],
    ["family In [m5] with size In [large]", [req(FAMILY, "In", ["m5"]), req(SIZE, "In", ["large"])]],
    ["family In [m5] with type NotIn [m5.large]", [req(FAMILY, "In", ["m5"]), req(TYPE, "NotIn", ["m5.large"])]],
    ["u-6tb1 with category u, generation 1", [req(FAMILY, "In", ["u-6tb1"]), req(CATEGORY, "In", ["u"])]],
    [
      "category In [c] with generation Gt 5 (no type or family In)",
      [req(CATEGORY, "In", ["c"]), req(GENERATION, "Gt", ["5"])],
    ],
    ["type In [m5.large] alone", [req(TYPE, "In", ["m5.large"])]],
  ])("%s", (_name, requirements) => {
    expect(() => build("NodePool", { requirements })).not.toThrow();
  });
  test("a token value is not judged", () => {
    expect(() =>
      build("NodePool", {
        requirements: [req(FAMILY, "In", [Fn.lower("M5")]), req(CATEGORY, "In", ["c"])],
      }),
    ).not.toThrow();
    expect(() =>
      build("NodePool", { requirements: [req(TYPE, "In", ["m5.large"]), req(FAMILY, "In", [Fn.lower("C5")])] }),
    ).not.toThrow();
  });
});

/** The synth warnings of a NodePool of `props` that builds. */
function poolWarnings(props: Partial<NodePoolProps>): string[] {
  const { stack } = testStack();
  const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
  const pool = new NodePool(stack, "pool", { karpenter, nodeClass: { name: "default" }, name: "p", ...props });
  return pool.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));
}
const catalogueWarnings = (props: Partial<NodePoolProps>) =>
  poolWarnings(props).filter((w) => w.includes("Karpenter's list of instance types"));

describe("requirements no instance type of the catalogue meets warn", () => {
  test.each([
    [
      "10.22 type In [m7g.large] with arch In [amd64]",
      [req(TYPE, "In", ["m7g.large"]), req(ARCH, "In", ["amd64"])],
      'requirements[1] (kubernetes.io/arch In ["amd64"]) together with requirements[0]',
      'instance type the others allow (m7g.large) has kubernetes.io/arch "arm64"',
    ],
    [
      "8.10 family In [g5] with arch In [arm64]",
      [req(FAMILY, "In", ["g5"]), req(ARCH, "In", ["arm64"])],
      "requirements[1] (kubernetes.io/arch",
      '"amd64"',
    ],
    [
      "8.09 family In [inf2, trn1] with arch In [arm64]",
      [req(FAMILY, "In", ["inf2", "trn1"]), req(ARCH, "In", ["arm64"])],
      "requirements[1]",
      '"amd64"',
    ],
    [
      "gpu-name In [a10g] with arch arm64",
      [req("karpenter.k8s.aws/instance-gpu-name", "In", ["a10g"]), req(ARCH, "In", ["arm64"])],
      "requirements[1]",
      "instance types the others allow",
    ],
    [
      "g5 with gpu-count Gt 8",
      [req(FAMILY, "In", ["g5"]), req("karpenter.k8s.aws/instance-gpu-count", "Gt", ["8"])],
      "requirements[1]",
      '"1", "4", "8"',
    ],
    ["a family no type of the list has", [req(FAMILY, "In", ["m99"])], "matches no instance type", "requirements[0]"],
  ])("%s", (_name, requirements, where, what) => {
    const warnings = catalogueWarnings({ requirements });
    expect(warnings).toEqual([expect.stringContaining(where)]);
    expect(warnings[0]).toContain(what);
    expect(warnings[0]).toContain("aws/karpenter-provider-aws@1d927085dd81, 2026-08-21");
    expect(warnings[0]).toMatch(/^NodePool p: /);
  });
  test("a template label counts: instance-type label m7g.large with arch In [amd64]", () => {
    expect(catalogueWarnings({ labels: { [TYPE]: "m7g.large" }, requirements: [req(ARCH, "In", ["amd64"])] })).toEqual([
      expect.stringContaining(
        'labels["node.kubernetes.io/instance-type"] (label node.kubernetes.io/instance-type="m7g.large")',
      ),
    ]);
  });
  test('10.21 an instance type the list does not have: "m5.larg", did you mean "m5.large"', () => {
    const warnings = catalogueWarnings({ requirements: [req(TYPE, "In", ["m5.larg"])] });
    expect(warnings).toEqual([expect.stringContaining('requirements[0] names the instance type "m5.larg"')]);
    expect(warnings[0]).toContain('did you mean "m5.large"?');
  });
});

describe("look-alikes the catalogue meets do not warn", () => {
  test.each([
    ["type In [m7g.large] with arch arm64", [req(TYPE, "In", ["m7g.large"]), req(ARCH, "In", ["arm64"])]],
    ["family In [g5] with arch amd64", [req(FAMILY, "In", ["g5"]), req(ARCH, "In", ["amd64"])]],
    ["family In [inf2, trn1] with arch amd64", [req(FAMILY, "In", ["inf2", "trn1"]), req(ARCH, "In", ["amd64"])]],
    ["type In [m5.large]", [req(TYPE, "In", ["m5.large"])]],
    ["g5 with gpu-count Lt 9", [req(FAMILY, "In", ["g5"]), req("karpenter.k8s.aws/instance-gpu-count", "Lt", ["9"])]],
    ["family In [m5, c5] with category In [c]", [req(FAMILY, "In", ["m5", "c5"]), req(CATEGORY, "In", ["c"])]],
    [
      "arch arm64 with category In [c, m, r] and generation Gt 5",
      [req(ARCH, "In", ["arm64"]), req(CATEGORY, "In", ["c", "m", "r"]), req(GENERATION, "Gt", ["5"])],
    ],
    ["type NotIn [m5.larg] (a NotIn excludes nothing it does not name)", [req(TYPE, "NotIn", ["m5.larg"])]],
    ["a token type beside arch amd64", [req(TYPE, "In", [Fn.lower("M7G.LARGE")]), req(ARCH, "In", ["amd64"])]],
  ])("%s", (_name, requirements) => {
    expect(catalogueWarnings({ requirements })).toEqual([]);
  });
});

describe("the manifest converter notes what the construct warns", () => {
  const pool = (requirements: string) =>
    `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: { name: p }\nspec:\n  template:\n    spec:\n      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: nc }\n      requirements: ${requirements}\n`;
  const notes = (requirements: string) =>
    convertLegacyManifests(pool(requirements))
      .nodePools[0].notes.filter((n) => n.message.includes("Karpenter's list of instance types"))
      .map((n) => n.message);
  test("m7g.large with arch amd64 is noted; with arm64 not", () => {
    const t = "{ key: node.kubernetes.io/instance-type, operator: In, values: [m7g.large] }";
    expect(notes(`[${t}, { key: kubernetes.io/arch, operator: In, values: [amd64] }]`)).toEqual([
      expect.stringContaining("the NodePool construct warns at synth: NodePool p: requirements[1]"),
    ]);
    expect(notes(`[${t}, { key: kubernetes.io/arch, operator: In, values: [arm64] }]`)).toEqual([]);
  });
});

describe("a requirement with many names the list lacks (fresh tester 34 5.43)", () => {
  test("gives one warning naming the first ten with their nearest names, and is linear in the names", () => {
    const values = Array.from({ length: 5000 }, (_, i) => `zz${i}.large`);
    const warnings = catalogueWarnings({ requirements: [req(TYPE, "In", values)] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("requirements[0] names 5000 instance types");
    expect(warnings[0]).toContain('"zz9.large"');
    expect(warnings[0]).not.toContain('"zz10.large"');
    expect(warnings[0]).toContain("and 4990 more");
  });
  test("two typos: both named, each with its did-you-mean", () => {
    const warnings = catalogueWarnings({ requirements: [req(TYPE, "In", ["m5.larg", "c5.xlarg", "m5.large"])] });
    expect(warnings).toEqual([expect.stringContaining("names 2 instance types")]);
    expect(warnings[0]).toContain('"m5.larg" (did you mean "m5.large"?)');
    expect(warnings[0]).toContain('"c5.xlarg" (did you mean "c5.xlarge"?)');
  });
});

describe("CPU, memory, CPU manufacturer and hypervisor against the list (fresh tester 35: 1x, 9p, 9q)", () => {
  test.each([
    [
      "instance-cpu In [4] with m5.4xlarge (16 CPUs)",
      [req("karpenter.k8s.aws/instance-cpu", "In", ["4"]), req(TYPE, "In", ["m5.4xlarge"])],
    ],
    [
      "instance-memory Gt 16384 with m5.large (8192 MiB)",
      [req("karpenter.k8s.aws/instance-memory", "Gt", ["16384"]), req(TYPE, "In", ["m5.large"])],
    ],
    [
      "instance-hypervisor In [nitro] with family m4 (xen)",
      [req("karpenter.k8s.aws/instance-hypervisor", "In", ["nitro"]), req(FAMILY, "In", ["m4"])],
    ],
    [
      "instance-cpu-manufacturer In [aws] with arch amd64",
      [req("karpenter.k8s.aws/instance-cpu-manufacturer", "In", ["aws"]), req(ARCH, "In", ["amd64"])],
    ],
  ])("%s is warned about", (_, requirements) => {
    const warnings = catalogueWarnings({ requirements });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("leaves no instance type of");
  });
  test.each([
    [
      "instance-cpu In [16] with m5.4xlarge",
      [req("karpenter.k8s.aws/instance-cpu", "In", ["16"]), req(TYPE, "In", ["m5.4xlarge"])],
    ],
    [
      "instance-memory Gt 4096 with m5.large",
      [req("karpenter.k8s.aws/instance-memory", "Gt", ["4096"]), req(TYPE, "In", ["m5.large"])],
    ],
    [
      "instance-hypervisor In [xen] with family m4",
      [req("karpenter.k8s.aws/instance-hypervisor", "In", ["xen"]), req(FAMILY, "In", ["m4"])],
    ],
    [
      "instance-cpu-manufacturer In [aws] with arch arm64",
      [req("karpenter.k8s.aws/instance-cpu-manufacturer", "In", ["aws"]), req(ARCH, "In", ["arm64"])],
    ],
  ])("look-alike: %s passes without a word", (_, requirements) => {
    expect(catalogueWarnings({ requirements })).toEqual([]);
  });
});

describe("GPU memory, local NVMe, bandwidths, clock speed and encryption in transit against the list (fresh tester 37: 8.10, 8.15, 8.23, 8.24)", () => {
  const K = (label: string) => `karpenter.k8s.aws/instance-${label}`;
  test.each([
    [
      "gpu-memory Gt 80000 with family g4dn (16384 MiB)",
      [req(FAMILY, "In", ["g4dn"]), req(K("gpu-memory"), "Gt", ["80000"])],
    ],
    ["gpu-memory Gt 80000 with g4dn.xlarge", [req(TYPE, "In", ["g4dn.xlarge"]), req(K("gpu-memory"), "Gt", ["80000"])]],
    [
      "ebs-bandwidth Gt 100000 with g5.xlarge (3500)",
      [req(TYPE, "In", ["g5.xlarge"]), req(K("ebs-bandwidth"), "Gt", ["100000"])],
    ],
    ["local-nvme Exists with m5.large (none)", [req(TYPE, "In", ["m5.large"]), req(K("local-nvme"), "Exists", [])]],
    [
      "network-bandwidth Gt 50000 with m5.large",
      [req(TYPE, "In", ["m5.large"]), req(K("network-bandwidth"), "Gt", ["50000"])],
    ],
    [
      "encryption-in-transit-supported In [true] with family m4",
      [req(FAMILY, "In", ["m4"]), req(K("encryption-in-transit-supported"), "In", ["true"])],
    ],
  ])("%s is warned about", (_, requirements) => {
    const warnings = catalogueWarnings({ requirements });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("leaves no instance type of");
    expect(warnings[0]).toContain(`requirements[1] (${requirements[1].key} ${requirements[1].operator}`);
  });
  test.each([
    ["gpu-memory Gt 16000 with family g5", [req(FAMILY, "In", ["g5"]), req(K("gpu-memory"), "Gt", ["16000"])]],
    ["local-nvme Exists with m5d.large", [req(TYPE, "In", ["m5d.large"]), req(K("local-nvme"), "Exists", [])]],
    [
      "local-nvme DoesNotExist with m5.large",
      [req(TYPE, "In", ["m5.large"]), req(K("local-nvme"), "DoesNotExist", [])],
    ],
    ["network-bandwidth Gt 20000 alone", [req(K("network-bandwidth"), "Gt", ["20000"])]],
    [
      "encryption-in-transit-supported In [true] with family m5n",
      [req(FAMILY, "In", ["m5n"]), req(K("encryption-in-transit-supported"), "In", ["true"])],
    ],
  ])("look-alike: %s passes without a word", (_, requirements) => {
    expect(catalogueWarnings({ requirements })).toEqual([]);
  });
});

test("an instance type written as a family is one problem, its value's (fresh tester 35 6a)", () => {
  const e = rejection("NodePool", { requirements: [req(FAMILY, "In", ["m5.large"])] }, "1.15.0");
  expect(e.problems.map((p) => p.code)).toEqual(["NODE_REQUIREMENT_VALUE_UNKNOWN"]);
  expect(e.message).not.toContain("together with :");
});
