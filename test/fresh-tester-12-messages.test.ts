import { build, rejection } from "./nodes/node-props";
import { KarpenterRelease, KarpenterReleaseProps } from "../lib/helm/karpenter-release";
import { rejected, synthJson, testCluster, testStack } from "./helpers";
import { convertLegacyManifests, LegacyManifestError, toV1Yaml } from "../lib/convert";

/*
 * The twelfth fresh tester's confusing messages (fresh12-report.md C-1..C-7; C-1 is in test/helm/scheduler-config.test.ts):
 * each right outcome now says what is really wrong, and each has a valid look-alike that still passes.
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
