import { build, rejection } from "./nodes/node-props";

/*
 * The twelfth fresh tester's confusing messages (fresh12-report.md C-1..C-7; C-1 is in test/helm/scheduler-config.test.ts):
 * each right outcome now says what is really wrong, and each has a valid look-alike that still passes.
 */

describe("C-2 kubelet.podPidsLimit beyond 2^53: the limit is JavaScript's exact integers, not Go's int64", () => {
  test("the message names whose limit it is", () => {
    const e = rejection(
      "EC2NodeClass",
      { amiSelectorTerms: [{ alias: "al2023@latest" }], kubelet: { podPidsLimit: 9007199254740993 } } as any,
      "1.15.0",
    );
    expect(e.code).toBe("EC2NODECLASS_KUBELET_FIELD_TYPE");
    expect(e.field).toBe("kubelet.podPidsLimit");
    expect(e.message).toContain(
      "(Go *int64, which holds more: the limit is JavaScript's, which cannot hold a number beyond 2^53 - 1 exactly",
    );
  });
  test("look-alikes: the largest exact number passes; a fraction is told the range without the note", () => {
    const al2023 = (podPidsLimit: number) =>
      ({ amiSelectorTerms: [{ alias: "al2023@latest" }], kubelet: { podPidsLimit } }) as any;
    expect(() => build("EC2NodeClass", al2023(9007199254740991), "1.15.0")).not.toThrow();
    const e = rejection("EC2NodeClass", al2023(1.5), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_KUBELET_FIELD_TYPE");
    expect(e.message).not.toContain("JavaScript");
  });
});
