import {
  BUDGET_DURATION,
  DURATION,
  DURATION_OR_NEVER,
  durationNanos,
  GO_DURATION,
  isDns1123Label,
  isDns1123Subdomain,
  isLabelValue,
  isQualifiedName,
  isSet,
  maxDurationText,
  qualifiedNameProblem,
} from "../../lib/kubernetes/value-rules";

// Cases after k8s.io/apimachinery/pkg/util/validation (IsDNS1123Label, IsDNS1123Subdomain, IsQualifiedName, IsValidLabelValue).

describe("name predicates", () => {
  test("DNS-1123 label: lowercase alphanumerics and '-', 1 to 63 characters, alphanumeric at both ends", () => {
    for (const ok of ["a", "karpenter", "kube-system", "0abc", "a".repeat(63)]) expect(isDns1123Label(ok)).toBe(true);
    for (const bad of ["", "Karpenter", "a.b", "-a", "a-", "a_b", "a".repeat(64), 5, undefined])
      expect(isDns1123Label(bad)).toBe(false);
  });

  test("DNS-1123 subdomain: dot-separated labels, up to 253 characters", () => {
    for (const ok of ["default", "karpenter.sh", "a.b-c.d", `${"a".repeat(63)}.${"b".repeat(63)}`, "a".repeat(253)])
      expect(isDns1123Subdomain(ok)).toBe(true);
    for (const bad of ["", "Default", "a..b", ".a", "a.", "a_b", "a".repeat(254), null])
      expect(isDns1123Subdomain(bad)).toBe(false);
  });

  test("qualified name: an optional DNS-1123 subdomain prefix and '/', then 1 to 63 characters", () => {
    for (const ok of [
      "team",
      "example.com/team",
      "node.kubernetes.io/instance-type",
      "a_b.c-D",
      "CriticalAddonsOnly",
      `p/${"a".repeat(63)}`,
    ])
      expect(isQualifiedName(ok)).toBe(true);
    for (const bad of ["", "/team", "Example.com/team", "a/b/c", "team!", "-team", "a".repeat(64), 1])
      expect(isQualifiedName(bad)).toBe(false);
    expect(qualifiedNameProblem("Example.com/team")).toMatch(/^the prefix must be a DNS-1123 subdomain/);
    expect(qualifiedNameProblem("a/")).toMatch(/^the name must be 1 to 63 characters/);
    expect(qualifiedNameProblem("")).toBe("it must not be empty");
    expect(qualifiedNameProblem("example.com/team")).toBeUndefined();
  });

  test("label value: empty, or up to 63 characters, alphanumeric at both ends", () => {
    for (const ok of ["", "on-demand", "a_b.c", "A1", "a".repeat(63)]) expect(isLabelValue(ok)).toBe(true);
    for (const bad of ["-a", "a-", "a b", "a/b", "a".repeat(64), true]) expect(isLabelValue(bad)).toBe(false);
  });
});

test("isSet: null counts as unset, falsy values do not", () => {
  expect([undefined, null].map(isSet)).toEqual([false, false]);
  expect([0, "", false, []].map(isSet)).toEqual([true, true, true, true]);
});

test("durationNanos: Go durations in nanoseconds, fractions cut, undefined for anything else", () => {
  expect(durationNanos("1h30m")).toBe(5_400_000_000_000n);
  expect(durationNanos("1.5h")).toBe(5_400_000_000_000n);
  expect(durationNanos("1.0000000001s")).toBe(1_000_000_000n);
  expect(durationNanos("0")).toBe(0n);
  expect(durationNanos("2562047h47m16.854775807s")).toBe(2n ** 63n - 1n);
  expect(durationNanos("1d")).toBeUndefined();
  expect(durationNanos("")).toBeUndefined();
});

test("maxDurationText: the longest duration each pattern accepts", () => {
  expect(maxDurationText(GO_DURATION)).toBe("2562047h47m16.854775807s");
  expect(maxDurationText(DURATION)).toBe("2562047h47m16s");
  expect(maxDurationText(DURATION_OR_NEVER)).toBe("2562047h47m16s");
  expect(maxDurationText(BUDGET_DURATION)).toBe("2562047h47m");
  // each is matched by its own pattern and fits a time.Duration, one more unit does not
  for (const [re, next] of [
    [GO_DURATION, "2562047h47m16.854775808s"],
    [DURATION, "2562047h47m17s"],
    [BUDGET_DURATION, "2562047h48m"],
  ] as const) {
    const max = maxDurationText(re);
    expect(re.test(max)).toBe(true);
    expect(durationNanos(max)! <= 2n ** 63n - 1n).toBe(true);
    expect(durationNanos(next)! > 2n ** 63n - 1n).toBe(true);
  }
});
