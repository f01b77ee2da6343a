import { Construct } from "constructs";
import { KarpenterValidationError } from "../../lib/core/errors";
import { CapacityBuffer } from "../../lib/nodes/capacity-buffer";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodeOverlay } from "../../lib/nodes/node-overlay";
import { NodePool } from "../../lib/nodes/node-pool";
import { FakeInstallation, rejected, testStack } from "../helpers";

/** An install with the NodeOverlay and CapacityBuffer gates on, at a release that ships both CRDs. */
class GatedInstallation extends FakeInstallation {
  public readonly nodeOverlayGate = true;
  public readonly capacityBufferGate = true;
  constructor(scope: Construct, id: string) {
    super(scope, id, "1.15.0");
  }
}

type Kind = "NodePool" | "Ec2NodeClass" | "NodeOverlay" | "CapacityBuffer";

/** Builds one node object of `kind` from `props` (beside what it needs), in a fresh stack. */
function build(kind: Kind, props: Record<string, unknown>): Construct {
  const { stack } = testStack();
  const karpenter = new GatedInstallation(stack, "karpenter");
  switch (kind) {
    case "NodePool": {
      const nodeClass = new Ec2NodeClass(stack, "default", { karpenter });
      return new NodePool(stack, "pool", { nodeClass, ...props });
    }
    case "Ec2NodeClass":
      return new Ec2NodeClass(stack, "nc", { karpenter, ...props });
    case "NodeOverlay":
      return new NodeOverlay(stack, "overlay", {
        karpenter,
        requirements: [{ key: "node.kubernetes.io/instance-type", operator: "In", values: ["m5.large"] }],
        ...props,
      });
    case "CapacityBuffer":
      return new CapacityBuffer(stack, "buffer", {
        karpenter,
        scalableRef: { apiGroup: "apps", kind: "Deployment", name: "web" },
        ...props,
      });
  }
}

/** A map that contains itself under `self`, beside `entries`. */
function cyclic(entries: Record<string, unknown>): Record<string, unknown> {
  const m: Record<string, unknown> = { ...entries };
  m.self = m;
  return m;
}

/** A label value nested `depth` objects deep. */
function deep(depth: number): unknown {
  let v: unknown = "x";
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

describe("node objects: props holding a cycle or nested too deep", () => {
  const selfList: unknown[] = ["amd64"];
  selfList.push(selfList);
  test.each<[string, Kind, () => Record<string, unknown>, string]>([
    ["NodePool labels", "NodePool", () => ({ labels: cyclic({ team: "a" }) }), "labels.self"],
    ["Ec2NodeClass tags", "Ec2NodeClass", () => ({ tags: cyclic({ team: "a" }) }), "tags.self"],
    [
      "a requirement's values",
      "NodePool",
      () => ({ requirements: [{ key: "kubernetes.io/arch", operator: "In", values: selfList }] }),
      "requirements[0].values[1]",
    ],
    ["NodeOverlay capacity", "NodeOverlay", () => ({ capacity: cyclic({ "example.com/x": "1" }) }), "capacity.self"],
    ["CapacityBuffer limits", "CapacityBuffer", () => ({ limits: cyclic({ cpu: "1" }) }), "limits.self"],
  ])("%s that contains itself is NODE_VALUE_CYCLE, not a stack overflow", (_d, kind, props, field) => {
    const e = rejected(() => build(kind, props()));
    expect(e.code).toBe("NODE_VALUE_CYCLE");
    expect(e.field).toBe(field);
    expect(e.message).toContain("not a reference to an object that contains it");
  });

  test("a key that is no identifier is named as a map entry", () => {
    const labels: Record<string, unknown> = { team: "a" };
    labels["example.com/x"] = labels;
    const e = rejected(() => build("NodePool", { labels }));
    expect(e.field).toBe('labels["example.com/x"]');
  });

  test("a label value nested 10,000 deep is NODE_VALUE_TOO_DEEP, not a stack overflow", () => {
    const e = rejected(() => build("NodePool", { labels: { a: deep(10_000) } }));
    expect(e.code).toBe("NODE_VALUE_TOO_DEEP");
    expect(e.field.startsWith("labels.a.a.a")).toBe(true);
    expect(e.message).toContain("at most 16 maps and lists");
  });

  test("a shallow wrong value is still the type error of its field", () => {
    const e = rejected(() => build("NodePool", { labels: { a: deep(3) } }));
    expect(e.code).toBe("NODEPOOL_NOT_A_STRING");
  });

  test("the same object twice side by side, and the constructs in props, are no cycle", () => {
    const shared = { team: "a" };
    expect(() => build("NodePool", { labels: shared, annotations: shared })).not.toThrow();
    const values = ["amd64"];
    expect(() =>
      build("NodePool", {
        requirements: [
          { key: "kubernetes.io/arch", operator: "In", values },
          { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
          { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
        ],
        labels: { arch: values[0] },
      }),
    ).not.toThrow();
    // the nodeClass and karpenter props are constructs, whose tree (scope ↔ children) is full of cycles
    expect(() => build("Ec2NodeClass", { tags: { team: "a" } })).not.toThrow();
  });

  test("the error is a KarpenterValidationError thrown alone", () => {
    const e = rejected(() => build("NodePool", { labels: cyclic({}), name: "Bad_Name" }));
    expect(KarpenterValidationError.isError(e)).toBe(true);
    expect(e.problems).toHaveLength(1);
  });
});

describe("node objects: a Map, Set, Date or class instance where a map of strings belongs", () => {
  test.each<[string, Kind, Record<string, unknown>, string, string]>([
    ["NodePool labels", "NodePool", { labels: new Map([["team", "a"]]) }, "labels", "NODEPOOL_NOT_A_MAP"],
    ["NodePool annotations", "NodePool", { annotations: new Map([["a", "b"]]) }, "annotations", "NODEPOOL_NOT_A_MAP"],
    ["NodePool limits", "NodePool", { limits: new Map([["cpu", "1"]]) }, "limits", "NODEPOOL_LIMITS"],
    ["Ec2NodeClass tags", "Ec2NodeClass", { tags: new Map([["team", "a"]]) }, "tags", "EC2NODECLASS_NOT_A_MAP"],
    [
      "NodeOverlay capacity",
      "NodeOverlay",
      { capacity: new Map([["example.com/x", "1"]]) },
      "capacity",
      "NODEOVERLAY_NOT_A_MAP",
    ],
    [
      "CapacityBuffer limits",
      "CapacityBuffer",
      { limits: new Map([["cpu", "1"]]) },
      "limits",
      "CAPACITYBUFFER_NOT_A_MAP",
    ],
  ])("%s given as a Map is refused, not dropped", (_d, kind, props, field, code) => {
    const e = rejected(() => build(kind, props));
    const p = e.problems.find((x) => x.field === field);
    expect(p?.code).toBe(code);
    expect(p?.message).toContain("a plain object of");
    expect(p?.message).toContain("got a Map");
    expect(p?.message).toContain(`${field} = (a Map)`);
  });

  test("a Set, a Date and a class instance are named as such", () => {
    class Labels {
      public readonly team = "a";
    }
    for (const [labels, name] of [
      [new Set(["a"]), "a Set"],
      [new Date(0), "a Date"],
      [new Labels(), "a Labels"],
    ] as const) {
      const e = rejected(() => build("NodePool", { labels }));
      expect(e.code).toBe("NODEPOOL_NOT_A_MAP");
      expect(e.message).toContain(`got ${name}`);
    }
  });

  test("a Date as a label value is shown as a Date, not as its ISO string", () => {
    const e = rejected(() => build("NodePool", { labels: { a: new Date(0) } }));
    expect(e.code).toBe("NODEPOOL_NOT_A_STRING");
    expect(e.field).toBe('labels["a"]');
    expect(e.message).toContain('labels["a"] = (a Date) is invalid');
    expect(e.message).not.toContain("1970");
  });

  test("a Map as a struct (disruption) is refused", () => {
    const e = rejected(() => build("NodePool", { disruption: new Map([["consolidateAfter", "1m"]]) }));
    expect(e.field).toBe("disruption");
    expect(e.message).toContain("got a Map");
  });

  test("the same entries as plain objects pass, and a null-prototype object too", () => {
    const bare = Object.assign(Object.create(null) as Record<string, string>, { team: "a" });
    expect(() =>
      build("NodePool", { labels: bare, annotations: { a: "b" }, limits: { cpu: "1" }, disruption: {} }),
    ).not.toThrow();
    expect(() => build("Ec2NodeClass", { tags: { team: "a" } })).not.toThrow();
    expect(() => build("NodeOverlay", { capacity: { "example.com/x": "1" } })).not.toThrow();
    expect(() => build("CapacityBuffer", { limits: { cpu: "1" } })).not.toThrow();
  });
});
