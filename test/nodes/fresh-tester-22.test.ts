import { Fn } from "cdktf";
import { build, rejection, req } from "./node-props";

/*
 * Issue 31, fresh tester 22: a requirement that repeats values below its minValues (S-1: Karpenter keeps a set, a
 * warning since minValuesPolicy decides), an alias whose family is literal beside a token version (S-2), and the
 * message of a domain that merely ends in karpenter.sh (CF-2).
 */

const warningsOf = (props: Record<string, unknown>, version = "1.15.0") =>
  build("NodePool", props as never, version)
    .node.findAll()
    .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)));

describe("minValues above the distinct values of a requirement (S-1)", () => {
  test("repeated values leave fewer distinct values than minValues: a warning naming both policies", () => {
    const w = warningsOf({ requirements: [req("karpenter.k8s.aws/instance-family", "In", ["m5", "m5"], 2)] });
    const one = w.find((x) => x.includes("requirements[0].minValues = 2 with 1 distinct value"));
    expect(one).toContain("pkg/scheduling/requirement.go:69-73");
    expect(one).toContain("under BestEffort Karpenter relaxes it");
  });
  test("look-alikes: two distinct values, or minValues 1, give no such warning", () => {
    for (const r of [
      req("karpenter.k8s.aws/instance-family", "In", ["m5", "c5"], 2),
      req("karpenter.k8s.aws/instance-family", "In", ["m5", "m5"], 1),
    ])
      expect(warningsOf({ requirements: [r] }).join("\n")).not.toContain("distinct value");
  });
});

describe("an alias with a literal family and a token version (S-2)", () => {
  test("an unknown family is refused, the version left to apply", () => {
    const e = rejection(
      "EC2NodeClass",
      { amiSelectorTerms: [{ alias: "al2024@" + Fn.join("", ["latest"]) }] } as never,
      "1.15.0",
    );
    const p = (e.problems ?? [e]).find((x) => x.field === "amiSelectorTerms[0].alias");
    expect(p?.code).toBe("EC2NODECLASS_AMI_ALIAS");
    expect(p?.message).toContain("an alias whose family is one of");
  });
  test("look-alike: a known family with a token version passes", () => {
    expect(() =>
      build("EC2NodeClass", { amiSelectorTerms: [{ alias: "al2023@" + Fn.join("", ["latest"]) }] } as never, "1.15.0"),
    ).not.toThrow();
  });
});

describe("a label domain that only ends in karpenter.sh (CF-2)", () => {
  test.each([
    ["fookarpenter.sh/x", 'label domain "fookarpenter.sh", which ends in "karpenter.sh"'],
    ["fookarpenter.k8s.aws/x", 'label domain "fookarpenter.k8s.aws", which ends in "karpenter.k8s.aws"'],
    ["karpenter.sh/foo", 'label domain "karpenter.sh" is restricted'],
  ])("%s names the domain as written", (key, text) => {
    const e = rejection("NodePool", { requirements: [req(key, "Exists")] } as never, "1.15.0");
    expect((e.problems ?? [e]).map((p) => p.message).join("\n")).toContain(text);
  });
});
