import { convertLegacyManifests, LegacyManifestError, toV1Yaml } from "../../lib/convert";

/*
 * The twelfth fresh tester's confusing messages (fresh12-report.md C-3, C-4): each right outcome now says what is
 * really wrong, and each has a valid look-alike that still passes.
 */

describe("C-3, C-4 convert never rounds a whole number beyond 2^53 - 1 silently", () => {
  const pool = (extra: string) =>
    `apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata:\n  name: default\nspec:\n  template:\n    spec:\n      nodeClassRef:\n        name: default\n${extra}`;
  test.each([
    ["  limits:\n    memory: 9007199254740993\n", "spec.limits.memory", "9007199254740993", "9007199254740992", 11],
    ["  limits:\n    cpu: 99999999999999999999999\n", "spec.limits.cpu", "99999999999999999999999", "1e+23", 11],
    ["  weight: 9007199254740993\n", "spec.weight", "9007199254740993", "9007199254740992", 10],
  ])("%j is refused, naming the exact text and what it would become", (extra, field, text, rounded, line) => {
    let e: LegacyManifestError | undefined;
    try {
      convertLegacyManifests(pool(extra));
    } catch (x) {
      e = x as LegacyManifestError;
    }
    expect(e).toBeInstanceOf(LegacyManifestError);
    expect(e!.code).toBe("CONVERT_WRONG_TYPE");
    expect(e!.field).toBe(field);
    expect(e!.line).toBe(line);
    expect(e!.message).toContain(`(${text} would be read as ${rounded})`);
    expect(e!.message).toContain(`Quote it ("${text}")`);
  });
  test("look-alikes: the largest exact number and a quoted quantity convert unchanged", () => {
    const out = toV1Yaml(
      convertLegacyManifests(
        pool("  weight: 10\n  limits:\n    memory: 9007199254740991\n    cpu: '99999999999999999999999'\n"),
      ),
    );
    expect(out).toContain('memory: "9007199254740991"');
    expect(out).toContain('cpu: "99999999999999999999999"');
    expect(out).toContain("weight: 10");
    // another kind in the stream is skipped with a note, unchanged: its numbers are not judged
    const mixed = convertLegacyManifests(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  n: 9007199254740993\n---\n${pool("  weight: 10\n")}`,
    );
    expect(mixed.objects).toHaveLength(1);
  });
});
