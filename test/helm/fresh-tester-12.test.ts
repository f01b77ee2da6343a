import { KarpenterRelease, KarpenterReleaseProps } from "../../lib/helm/karpenter-release";
import { rejected, synthJson, testCluster, testStack } from "../helpers";

/*
 * The twelfth fresh tester's confusing messages (fresh12-report.md C-5; C-1 is in scheduler-config.test.ts): each right outcome now says what is
 * really wrong, and each has a valid look-alike that still passes.
 */

describe("C-5 a Date in values.tolerations is named as a Date, not as a toleration with key = undefined", () => {
  const release = (values: Record<string, unknown>) => {
    const { stack } = testStack();
    const cluster = testCluster(stack, "demo");
    new KarpenterRelease(stack, "karpenter", { cluster, values } as KarpenterReleaseProps);
    return synthJson(stack);
  };
  test("refused on the item, saying what it is", () => {
    const found = rejected(() => release({ tolerations: [new Date(0)] })).problems;
    expect(found).toContainEqual(
      expect.objectContaining({
        code: "HELM_VALUES_TOLERATION",
        field: "values.tolerations[0]",
        message: expect.stringContaining(
          "a toleration map { key?, operator?, value?, effect?, tolerationSeconds? }, got a Date",
        ),
      }),
    );
    expect(found.map((p) => p.message).join("\n")).not.toContain("undefined");
  });
  test("look-alike: a toleration map passes", () => {
    expect(() =>
      release({ tolerations: [{ key: "dedicated", operator: "Exists", effect: "NoSchedule" }] }),
    ).not.toThrow();
  });
});
