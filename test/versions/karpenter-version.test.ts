import { isNewerThanKnownPatch, resolveKarpenterVersion } from "../../lib/versions/karpenter-version";

describe("resolveKarpenterVersion", () => {
  test("a MAJOR.MINOR input suggests the newest known patch of that minor", () => {
    expect(() => resolveKarpenterVersion("k", "1.14")).toThrow(
      /version = "1\.14" is invalid: .*; did you mean "1\.14\.4" \(the newest 1\.14 patch this library knows\)\? \[KARPENTER_VERSION_UNKNOWN\]$/,
    );
    expect(() => resolveKarpenterVersion("k", "v1.1")).toThrow(/did you mean "1\.1\.10"/);
    expect(() => resolveKarpenterVersion("k", "0.37")).not.toThrow(/did you mean/);
    expect(() => resolveKarpenterVersion("k", "0.37")).toThrow(/version = "0\.37" is invalid/);
  });

  test("a number (YAML's 1.15) is a type mistake, named as such, with the patches it may mean", () => {
    expect(() => resolveKarpenterVersion("k", 1.15 as any)).toThrow(
      /version = 1\.15 is invalid: .*, as a string; got a number: did you mean "1\.15\.3"\? \[KARPENTER_VERSION_NOT_A_STRING\]$/,
    );
    // 1.10 arrives as 1.1: both minors are offered
    expect(() => resolveKarpenterVersion("k", 1.1 as any)).toThrow(
      /did you mean "1\.1\.10" or "1\.10\.2"\? \[KARPENTER_VERSION_NOT_A_STRING\]$/,
    );
    expect(() => resolveKarpenterVersion("k", 2 as any)).toThrow(
      /as a string; got a number \[KARPENTER_VERSION_NOT_A_STRING\]$/,
    );
    expect(() => resolveKarpenterVersion("k", 1.15 as any)).not.toThrow(/token/);
    expect(() => resolveKarpenterVersion("k", "${var.v}")).toThrow(/known at synth, not a token/);
  });

  test("isNewerThanKnownPatch: only a patch above the newest known one of its minor", () => {
    expect(isNewerThanKnownPatch(resolveKarpenterVersion("k", "1.14.9"))).toBe(true);
    expect(isNewerThanKnownPatch(resolveKarpenterVersion("k", "1.14.5"))).toBe(true);
    // patches without artefact changes (patch-history.ts) are known
    expect(isNewerThanKnownPatch(resolveKarpenterVersion("k", "1.14.3"))).toBe(false);
    expect(isNewerThanKnownPatch(resolveKarpenterVersion("k", "1.14.2"))).toBe(false);
    expect(isNewerThanKnownPatch(resolveKarpenterVersion("k", "1.15.2"))).toBe(false);
    expect(isNewerThanKnownPatch(resolveKarpenterVersion("k", "1.15.3"))).toBe(false);
    expect(isNewerThanKnownPatch(resolveKarpenterVersion("k", "1.14.4"))).toBe(false);
    expect(isNewerThanKnownPatch(resolveKarpenterVersion("k", "1.9.4"))).toBe(false);
    expect(isNewerThanKnownPatch(resolveKarpenterVersion("k", "1.9.5"))).toBe(true);
    expect(isNewerThanKnownPatch(resolveKarpenterVersion("k", "1.15.4"))).toBe(true);
    expect(isNewerThanKnownPatch(resolveKarpenterVersion("k", "1.14.1"))).toBe(false);
    expect(isNewerThanKnownPatch(resolveKarpenterVersion("k", "1.14.0"))).toBe(false);
    expect(isNewerThanKnownPatch(resolveKarpenterVersion("k", "1.0.15"))).toBe(true);
  });
});
