import { build, rejection } from "./node-props";

/*
 * The twelfth fresh tester's confusing messages (fresh12-report.md C-2, C-6; and the review mend of checkPropsWalkable): each right outcome now says what is
 * really wrong, and each has a valid look-alike that still passes.
 */

describe("C-2 kubelet.podPidsLimit beyond 2^53: the limit is JavaScript's exact integers, not Go's int64", () => {
  test("the message names whose limit it is", () => {
    const e = rejection(
      "EC2NodeClass",
      { amiSelectorTerms: [{ alias: "al2023@latest" }], kubelet: { podPidsLimit: 2 ** 53 + 2 } } as any,
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
describe("C-6 labels from Object.create: named as inherited (prototype) properties, not a class instance", () => {
  test("refused, naming the inherited key", () => {
    const e = rejection("NodePool", { labels: Object.create({ team: "a" }) } as any);
    expect(e.field).toBe("labels");
    expect(e.message).toContain("an object with inherited (prototype) properties (team)");
    expect(e.message).not.toContain("instance of a class");
  });
  test("look-alikes: the same labels as own properties pass; a class instance is still called one", () => {
    expect(() => build("NodePool", { labels: { team: "a" } } as any)).not.toThrow();
    class Labels {
      team = "a";
    }
    expect(rejection("NodePool", { labels: new Labels() } as any).message).toContain("a Labels");
  });
});
describe("node objects name every unreadable place of their props at once (review: checkPropsWalkable over core findUnreadable)", () => {
  const throwing = (what: string) =>
    ({
      get team(): string {
        throw new Error(`boom-${what}`);
      },
    }) as unknown as { [k: string]: string };
  test("a throwing getter in labels and a revoked Proxy in a taint: both, as NODE_VALUE_UNREADABLE", () => {
    const r = Proxy.revocable({}, {});
    r.revoke();
    const e = rejection("NodePool", { labels: throwing("labels"), taints: [r.proxy as any] } as any);
    expect(e.problems.map((p) => [p.code, p.field])).toEqual([
      ["NODE_VALUE_UNREADABLE", "labels.team"],
      ["NODE_VALUE_UNREADABLE", "taints[0]"],
    ]);
    expect(e.message).toContain("2 unreadable values in the props of");
    expect(e.message).toContain("boom-labels");
  });
  test("an EC2NodeClass too: two places, one error", () => {
    const e = rejection("EC2NodeClass", { tags: throwing("tags"), metadataOptions: throwing("meta") } as any);
    expect(e.problems.map((p) => p.field).sort()).toEqual(["metadataOptions.team", "tags.team"]);
    expect(new Set(e.problems.map((p) => p.code))).toEqual(new Set(["NODE_VALUE_UNREADABLE"]));
  });
  test("look-alike: getters that return values are read", () => {
    const labels = {
      get team(): string {
        return "a";
      },
    };
    expect(() => build("NodePool", { labels } as any)).not.toThrow();
  });
});
