import { Fn } from "cdktf";
import { build, rejection } from "./node-props";

/*
 * fresh tester 20, C-1: a kubelet (or a free-form kubelet field) given as a Map, Set or Date was written to the
 * manifest as `{}`, its content lost; it is refused as every other prop refuses one.
 */

const al = (kubelet: unknown) => ({ amiSelectorTerms: [{ alias: "al2023@latest" }], kubelet: kubelet as never });

describe("a kubelet that is no plain object (fresh tester 20, C-1)", () => {
  test.each<[string, unknown, string]>([
    ["a Map", new Map([["runOnce", true]]), "kubelet"],
    ["a Set", new Set(["x"]), "kubelet"],
    ["a Date", new Date(0), "kubelet"],
    ["a nested Map (logging)", { logging: new Map([["verbosity", 4]]) }, "kubelet.logging"],
    ["a nested Map (featureGates)", { featureGates: new Map([["X", true]]) }, "kubelet.featureGates"],
  ])("%s is refused on 1.15", (_what, kubelet, field) => {
    const e = rejection("EC2NodeClass", al(kubelet), "1.15.0");
    expect(e.problems.map((p) => p.field)).toContain(field);
  });
  test("look-alike: the same as plain objects passes", () => {
    expect(() => build("EC2NodeClass", al({ logging: { verbosity: 4 }, featureGates: {} }), "1.15.0")).not.toThrow();
  });
});

describe("a kubelet key that is a token (fresh tester 20, CF-4)", () => {
  test("is refused on kubelet, saying a key is not resolved, not as a misspelt field", () => {
    const e = rejection("EC2NodeClass", al({ [Fn.lower("RUNONCE")]: true }), "1.15.0");
    const p = e.problems.find((x) => x.field === "kubelet");
    expect(p?.message).toContain("a key that is a cdktf token is not resolved");
  });
});

describe("eviction values the kubelet refuses at start (fresh tester 20, S-10)", () => {
  const ev = (kubelet: Record<string, unknown>) => ({ amiSelectorTerms: [{ alias: "al2023@latest" }], kubelet });
  test.each<[string, Record<string, unknown>, string, string]>([
    [
      "evictionHard 0",
      { evictionHard: { "memory.available": "0" } },
      'kubelet.evictionHard["memory.available"]',
      "1.15.0",
    ],
    [
      "evictionHard 0Mi on 1.14",
      { evictionHard: { "memory.available": "0Mi" } },
      'kubelet.evictionHard["memory.available"]',
      "1.14.1",
    ],
    [
      "evictionSoft 0Ki",
      { evictionSoft: { "memory.available": "0Ki" }, evictionSoftGracePeriod: { "memory.available": "1m" } },
      'kubelet.evictionSoft["memory.available"]',
      "1.15.0",
    ],
    [
      "evictionMinimumReclaim 0%",
      { evictionMinimumReclaim: { "memory.available": "0%" } },
      'kubelet.evictionMinimumReclaim["memory.available"]',
      "1.15.0",
    ],
  ])("%s is refused", (_what, kubelet, field, version) => {
    const e = rejection("EC2NodeClass", ev(kubelet), version);
    const p = e.problems.find((x) => x.field === field);
    expect(p?.code).toBe("EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET");
    expect(p?.message).toContain("must be positive");
  });
  test.each<[string, Record<string, unknown>]>([
    ["evictionHard 0% (the kubelet ignores it)", { evictionHard: { "memory.available": "0%" } }],
    ["evictionHard 100Mi", { evictionHard: { "memory.available": "100Mi" } }],
    ["evictionMinimumReclaim 0 as a quantity (allowed)", { evictionMinimumReclaim: { "memory.available": "0" } }],
    ["evictionMinimumReclaim 5%", { evictionMinimumReclaim: { "memory.available": "5%" } }],
  ])("look-alike passes: %s", (_what, kubelet) => {
    expect(() => build("EC2NodeClass", ev(kubelet), "1.15.0")).not.toThrow();
  });
});

describe("a kubelet expression's double beyond int64 (fresh tester 20, S-15)", () => {
  const { kubeletExpressionProblem, kubeletExpressionSampleWarning } = jest.requireActual(
    "../../lib/nodes/kubelet-expressions",
  );
  test("over the variables: every sample fails (Go's int64() gives the int64 minimum on amd64), a warning", () => {
    expect(kubeletExpressionProblem("double(vcpus) * 1e19", true)).toBeUndefined();
    expect(kubeletExpressionSampleWarning("double(vcpus) * 1e19", true)).toContain("it fails for each of the sample");
  });
  test("a constant: refused, naming the conversion", () => {
    expect(kubeletExpressionProblem("1e19", true)).toContain("beyond the int64 range");
    expect(kubeletExpressionProblem("1e19", false)).toContain("beyond the int64 range");
  });
  test("look-alikes: an int literal at the int64 maximum, a double within range", () => {
    expect(kubeletExpressionProblem("9223372036854775807", true)).toBeUndefined();
    expect(kubeletExpressionProblem("1e18", true)).toBeUndefined();
    expect(kubeletExpressionSampleWarning("double(vcpus) * 1e15", true)).toBeUndefined();
  });
});
