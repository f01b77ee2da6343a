// Issue 31 (fresh tester 20): a kubelet expression that gives a usable value for the six first sample instance types
// but fails for an extreme one of the recorded DescribeInstanceTypes data (karpenter-provider-aws@v1.15.0
// pkg/fake/zz_generated.describe_instance_types.go) now warns, naming the type: Karpenter 1.15.0 evaluates the
// expression against every instance type of the region and refuses the whole class on the first failure
// (pkg/controllers/nodeclass/validation.go:264-279, pkg/providers/instancetype/instancetype.go:318-347).
import { judgeKubeletExpression } from "../../lib/nodes/kubelet-expressions";
import { celSampleInstanceTypes } from "../../lib/versions";
import { expressionWarnings } from "./node-props";

const SIX = ["t3.nano", "t4g.small", "c6g.large", "m5.large", "t3.large", "p5.48xlarge"];

const warnings = expressionWarnings;

/** One sample instance type of the generated table, by name. */
const sample = (name: string) => celSampleInstanceTypes().instanceTypes.find((t) => t.instanceType === name)!;

describe("sample instance types: the extremes of the recorded data (issue 31)", () => {
  test("the six first samples stay, the extremes are added, each with why", () => {
    const types = celSampleInstanceTypes().instanceTypes;
    expect(types.map((t) => t.instanceType)).toEqual(expect.arrayContaining(SIX));
    expect(types.length).toBeLessThanOrEqual(36);
    expect(new Set(types.map((t) => t.instanceType)).size).toBe(types.length);
    for (const t of types) expect(t.why.length).toBeGreaterThan(0);
    // g5.12xlarge: 15 interfaces on its default card, 737 ENI-limited pods (the most of the recorded types)
    expect(sample("g5.12xlarge")).toMatchObject({ defaultENIs: 15, ipsPerENI: 50, maxPods: 737 });
    expect(sample("g5.12xlarge").why).toEqual(
      expect.arrayContaining([expect.stringContaining("the most max_pods of the recorded types (737")]),
    );
    expect(sample("t3.nano").why).toEqual(expect.arrayContaining(["the least memory_mib of the recorded types (512)"]));
    expect(sample("p5.48xlarge").why).toEqual(expect.arrayContaining(["the most vcpus of the recorded types (192)"]));
  });

  test.each<[string, boolean, string]>([
    // the six first samples have at most 100 ENI-limited pods (p5.48xlarge); g5.12xlarge has 737
    ["400 - max_pods", true, "it is -337, and Karpenter fails a negative reserved value"],
    // at most 3 interfaces among the six first samples; g5.12xlarge has 15: 3,000,000,000 is beyond maxPods' range
    ["default_enis * 200000000", false, "it is 3000000000, outside maxPods' range 0 to 2147483647"],
    // a divisor that is zero only for the type with 15 interfaces
    ["max_pods / (15 - default_enis)", false, "evaluating it fails"],
  ])(
    "%s (reserved %s) passes the six first samples but fails g5.12xlarge: a warning naming it",
    (text, reserved, why) => {
      const verdict = judgeKubeletExpression(text, reserved);
      expect(verdict.problem).toBeUndefined();
      expect(verdict.warning).toContain("it fails for the sample instance type g5.12xlarge (of t3.nano");
      expect(verdict.warning).toContain(`for g5.12xlarge ${why}`);
      const field = reserved ? 'kubelet.kubeReserved["pid"]' : "kubelet.maxPodsExpression";
      const found = warnings(text, reserved);
      expect(found).toEqual([
        expect.stringContaining(
          `${field} = ${JSON.stringify(text)}: it fails for the sample instance type g5.12xlarge`,
        ),
      ]);
      expect(found[0]).toContain(
        "refuses the whole class for good (ValidationSucceeded=False, KubeletExpressionEvalFailed",
      );
      // none of the six first samples is named as failing
      const failing = /it fails for the sample instance types? ([^(]*) \(of/.exec(found[0])![1];
      for (const name of SIX) expect(failing.split(", ")).not.toContain(name);
    },
  );

  test.each<[string, boolean]>([
    // valid look-alikes, bounded as the warning suggests: a usable value for every sample
    ["max(400 - max_pods, 0)", true],
    ["800 - max_pods", true],
    ["min(default_enis * 200000000, 110)", false],
    ["max_pods / (default_enis + 16)", false],
  ])("%s (reserved %s) passes every sample: no warning", (text, reserved) => {
    expect(judgeKubeletExpression(text, reserved)).toEqual({});
    expect(warnings(text, reserved)).toEqual([]);
  });
});

/*
 * fresh tester 21 S-9 / CF-1: a division or modulo by (<variable> - n) outside a condition is zero for an instance type
 * whose variable is n, which the samples may not hold: a warning naming the variable and n; and the advice for a
 * division by zero is a guard, since min / max evaluate their arguments first.
 */
describe("a divisor that is zero beyond the samples (fresh tester 21, S-9)", () => {
  test.each<[string, boolean, string]>([
    ["110 / (vcpus - 4) + 200", false, "vcpus = 4"],
    ["max(0, 110 / (vcpus - 4))", false, "vcpus = 4"],
    ["110 + vcpus % (vcpus - 8)", false, "vcpus = 8"],
    ["100 + 1000 / (vcpus - 16)", true, "vcpus = 16"],
    ["1000 / (14 - default_enis) + 2000", false, "default_enis = 14"],
    ["max_pods / (16 - default_enis)", false, "default_enis = 16"],
  ])("%s (reserved %s) warns, naming %s", (text, reserved, where) => {
    const v = judgeKubeletExpression(text, reserved);
    expect(v.problem).toBeUndefined();
    expect(v.beyondSamples).toBe(true);
    expect(v.warning).toContain(where);
    expect(v.warning).toContain("Guard the divisor with a condition");
    expect(expressionWarnings(text, reserved).join("\n")).toContain(where);
  });
  test.each<[string, boolean]>([
    ["vcpus == 4 ? 110 : 110 / (vcpus - 4) + 200", false],
    ["memory_mib / vcpus", true],
    ["110 / (vcpus + 4)", false],
  ])("look-alike %s (reserved %s): no warning", (text, reserved) => {
    expect(judgeKubeletExpression(text, reserved).warning).toBeUndefined();
  });
  test("a division by zero on a sample advises a guard, not min / max", () => {
    const w = judgeKubeletExpression("110 / (vcpus - 2)", false).warning!;
    expect(w).toContain("t3.nano");
    expect(w).toContain("Guard the divisor with a condition");
    expect(w).not.toContain("Bound the expression");
  });
});
