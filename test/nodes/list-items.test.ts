import { Construct } from "constructs";
import { NodeOverlay } from "../../lib/nodes/node-overlay";
import { FakeInstallation, rejected, testStack } from "../helpers";
import { build, rejection } from "./node-props";

/*
 * fresh tester 15, C-1 and CF-1: a hole of a sparse array (`[, x]`) in a node object's list stopped a check with a
 * TypeError (kubelet.clusterDNS), was counted as an item (amiSelectorTerms: "has 2 terms") or was dropped from the
 * manifest without a word (taints, blockDeviceMappings, subnetSelectorTerms). Every undefined or hole item of any
 * list in the props is now refused as `<KIND>_LIST_ITEM_MISSING` on its path, all at once (a null item as before by
 * the list's own check, same code); the same lists without it pass.
 */

// eslint-disable-next-line no-sparse-arrays
const hole = <T>(item: T): T[] => [, item] as T[];
const al2023 = [{ alias: "al2023@v20250103" }];
const codesAndFields = (e: { problems: readonly { code: string; field: string }[] }) =>
  e.problems.map((p) => ({ code: p.code, field: p.field }));

describe("EC2NodeClass: a missing list item is refused on its path (fresh15 C-1, CF-1)", () => {
  test.each<[string, Record<string, unknown>, string, Record<string, unknown>]>([
    [
      "C-1 (5.23) kubelet.clusterDNS hole, AL2023",
      { amiSelectorTerms: al2023, kubelet: { clusterDNS: hole("10.100.0.10") } },
      "kubelet.clusterDNS[0]",
      { amiSelectorTerms: al2023, kubelet: { clusterDNS: ["10.100.0.10"] } },
    ],
    [
      "C-1 (5.35) kubelet.clusterDNS hole, Bottlerocket",
      { amiSelectorTerms: [{ alias: "bottlerocket@latest" }], kubelet: { clusterDNS: hole("10.100.0.10") } },
      "kubelet.clusterDNS[0]",
      { amiSelectorTerms: [{ alias: "bottlerocket@latest" }], kubelet: { clusterDNS: ["10.100.0.10"] } },
    ],
    [
      "5.29 kubelet.clusterDNS null",
      { amiSelectorTerms: al2023, kubelet: { clusterDNS: [null] } },
      "kubelet.clusterDNS[0]",
      { amiSelectorTerms: al2023, kubelet: { clusterDNS: ["10.100.0.10"] } },
    ],
    [
      "C-1 a free-form 1.15 kubelet list: allowedUnsafeSysctls hole",
      { amiSelectorTerms: al2023, kubelet: { allowedUnsafeSysctls: hole("net.core.somaxconn") } },
      "kubelet.allowedUnsafeSysctls[0]",
      { amiSelectorTerms: al2023, kubelet: { allowedUnsafeSysctls: ["net.core.somaxconn"] } },
    ],
    [
      "CF-1 (5.24) amiSelectorTerms hole before the alias",
      { amiSelectorTerms: hole({ alias: "al2023@v20250103" }) },
      "amiSelectorTerms[0]",
      { amiSelectorTerms: al2023 },
    ],
    [
      "subnetSelectorTerms hole",
      { amiSelectorTerms: al2023, subnetSelectorTerms: hole({ tags: { team: "a" } }) },
      "subnetSelectorTerms[0]",
      { amiSelectorTerms: al2023, subnetSelectorTerms: [{ tags: { team: "a" } }] },
    ],
    [
      "blockDeviceMappings undefined",
      { amiSelectorTerms: al2023, blockDeviceMappings: [undefined] },
      "blockDeviceMappings[0]",
      { amiSelectorTerms: al2023, blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: "20Gi" } }] },
    ],
  ])("%s", (_name, props, field, valid) => {
    const e = rejection("EC2NodeClass", props as any, "1.15.0");
    expect(codesAndFields(e)).toEqual([{ code: "EC2NODECLASS_LIST_ITEM_MISSING", field }]);
    expect(e.message).not.toContain("has 2 terms");
    expect(() => build("EC2NodeClass", valid as any, "1.15.0")).not.toThrow();
  });
  test("a hole says it is one", () => {
    const e = rejection("EC2NodeClass", { amiSelectorTerms: hole({ alias: "al2023@v20250103" }) } as any, "1.15.0");
    expect(e.message).toContain("not a hole of a sparse array");
  });
  test("every missing item at once, beside the other problems", () => {
    const e = rejection(
      "EC2NodeClass",
      {
        amiSelectorTerms: al2023,
        kubelet: { clusterDNS: hole("10.100.0.10"), maxPods: -1 },
        subnetSelectorTerms: [{ tags: { team: "a" } }, null],
      } as any,
      "1.15.0",
    );
    expect(codesAndFields(e)).toEqual(
      expect.arrayContaining([
        { code: "EC2NODECLASS_LIST_ITEM_MISSING", field: "kubelet.clusterDNS[0]" },
        { code: "EC2NODECLASS_LIST_ITEM_MISSING", field: "subnetSelectorTerms[1]" },
        expect.objectContaining({ field: "kubelet.maxPods" }),
      ]),
    );
  });
});

describe("NodePool and NodeOverlay: a missing list item is refused on its path", () => {
  test("NodePool taints hole, and a requirement's values with an undefined item, at once", () => {
    const e = rejection("NodePool", {
      taints: hole({ key: "a", effect: "NoSchedule" }),
      requirements: [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["spot", undefined] }],
    } as any);
    expect(codesAndFields(e)).toEqual(
      expect.arrayContaining([
        { code: "NODEPOOL_LIST_ITEM_MISSING", field: "taints[0]" },
        { code: "NODEPOOL_LIST_ITEM_MISSING", field: "requirements[0].values[1]" },
      ]),
    );
    expect(() =>
      build("NodePool", {
        taints: [{ key: "a", effect: "NoSchedule" }],
        requirements: [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["spot"] }],
      } as any),
    ).not.toThrow();
  });
  // fresh tester 42: a sparse list of 700,000 holes was an error each (hundreds of thousands of lines, and the memory)
  test("a long sparse list names its first ten holes, then counts the rest in one problem", () => {
    const values = new Array(700_000);
    values[5] = "spot";
    const e = rejection("NodePool", {
      requirements: [{ key: "karpenter.sh/capacity-type", operator: "In", values }],
    } as any);
    const missing = e.problems.filter((p) => p.code === "NODEPOOL_LIST_ITEM_MISSING");
    expect(missing.map((p) => p.field)).toEqual([
      ...[0, 1, 2, 3, 4, 6, 7, 8, 9, 10].map((i) => `requirements[0].values[${i}]`),
      "requirements[0].values[11]",
    ]);
    expect(missing[10].message).toContain(
      "699989 more missing items (undefined or holes of a sparse array) from requirements[0].values[11] on, after the 10 named above",
    );
  });
  test("NodeOverlay requirements hole", () => {
    class Gated extends FakeInstallation {
      public readonly nodeOverlayGate = true;
      constructor(scope: Construct, id: string) {
        super(scope, id, "1.15.0");
      }
    }
    const req = { key: "node.kubernetes.io/instance-type", operator: "In" as const, values: ["m5.large"] };
    const overlay = (requirements: unknown[]) => {
      const { stack } = testStack();
      new NodeOverlay(stack, "o", { karpenter: new Gated(stack, "k"), requirements: requirements as any, price: "1" });
    };
    expect(codesAndFields(rejected(() => overlay(hole(req))))).toEqual([
      { code: "NODEOVERLAY_LIST_ITEM_MISSING", field: "requirements[0]" },
    ]);
    expect(() => overlay([req])).not.toThrow();
  });
});
