import { Fn } from "cdktf";
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
