import { Construct } from "constructs";
import { KarpenterValidationError } from "../../lib/core/errors";
import { CapacityBuffer } from "../../lib/nodes/capacity-buffer";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodeOverlay } from "../../lib/nodes/node-overlay";
import { NodePool } from "../../lib/nodes/node-pool";
import { FakeInstallation, rejected, synthWarnings, testStack } from "../helpers";

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

/*
 * fresh tester 42 (CRASH): a sparse list of ten million requirements, or a Proxy list claiming a billion items, ran out
 * of memory in the walks (one error per hole). Props holding more values than any object can carry are refused on
 * their length before any walk; props of more JSON than the API server takes in one request are refused too.
 */
describe("node objects: props larger than any Kubernetes object", () => {
  const billion = () =>
    new Proxy([], {
      get: (t: unknown[], k) => (k === "length" ? 1e9 : (t as unknown as Record<string | symbol, unknown>)[k]),
    });
  test.each<[string, Kind, () => Record<string, unknown>, string, string]>([
    [
      "ten million holes as requirements",
      "NodePool",
      () => ({ requirements: new Array(1e7) }),
      "requirements",
      "a list of 10,000,000 items",
    ],
    [
      "a Proxy list claiming a billion items",
      "NodePool",
      () => ({ requirements: billion() }),
      "requirements",
      "a list of 1,000,000,000 items",
    ],
    [
      "a billion subnet selector terms",
      "Ec2NodeClass",
      () => ({ subnetSelectorTerms: billion() }),
      "subnetSelectorTerms",
      "a list of 1,000,000,000 items",
    ],
    [
      "a billion NodeOverlay requirements",
      "NodeOverlay",
      () => ({ requirements: billion() }),
      "requirements",
      "a list of 1,000,000,000 items",
    ],
  ])("%s is NODE_VALUE_TOO_LARGE on the list, at once", (_d, kind, props, field, got) => {
    const started = Date.now();
    const e = rejected(() => build(kind, props()));
    expect(e.code).toBe("NODE_VALUE_TOO_LARGE");
    expect(e.field).toBe(field);
    expect(e.message).toContain(`at most 1,572,864 values in the props of one construct, got ${got}`);
    expect(e.problems).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5_000); // the length is read, not the items
  });

  test("many lists adding up past the bound are named where the count passed it", () => {
    // two lists (one shared list is walked once)
    const values = () => Array.from({ length: 1_000_000 }, () => "x");
    const e = rejected(() =>
      build("NodePool", {
        requirements: [
          { key: "example.com/a", operator: "In", values: values() },
          { key: "example.com/b", operator: "In", values: values() },
        ],
      }),
    );
    expect(e.code).toBe("NODE_VALUE_TOO_LARGE");
    expect(e.field).toBe("requirements[1].values");
    expect(e.message).toMatch(
      /got 2,000,0\d\d values \(list items and map entries\) counted by requirements\[1\]\.values/,
    );
  });

  test("props of more JSON than the API server takes (3 MiB) are NODE_MANIFEST_TOO_LARGE; 1.5 MiB to 3 MiB warns", () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `m5.large-${i.toString().padStart(8, "0")}`);
    const requirement = (values: string[]) => ({ key: "node.kubernetes.io/instance-type", operator: "In", values });
    const e = rejected(() => build("NodePool", { requirements: [requirement(names(200_000))] }));
    expect(e.code).toBe("NODE_MANIFEST_TOO_LARGE");
    expect(e.field).toBe("props");
    expect(e.message).toContain("at most 3.0 MiB of JSON in one request (MaxRequestBodyBytes)");
    // judged with the other problems, and without the props already refused: a 4 MB user data is EC2's 16 KB limit's
    const both = rejected(() =>
      build("NodePool", { requirements: [requirement(names(200_000))], labels: { "karpenter.sh/x": "a" } }),
    );
    expect(both.problems.map((p) => p.code)).toEqual(expect.arrayContaining(["NODE_MANIFEST_TOO_LARGE"]));
    expect(both.problems.length).toBeGreaterThan(1);
    const userData = rejected(() =>
      build("Ec2NodeClass", {
        amiSelectorTerms: [{ alias: "al2023@latest" }],
        userData: "#!/bin/bash\n" + "x".repeat(4e6),
      }),
    );
    expect(userData.problems.map((p) => p.code)).toEqual(["EC2NODECLASS_USER_DATA_SIZE"]);
    const pool = build("NodePool", { requirements: [requirement(names(80_000))] });
    expect(synthWarnings(pool).filter((w) => w.includes("1.5 MiB"))).toEqual([
      expect.stringMatching(
        /^NodePool pool: its manifest takes more than 1\.5 MiB of JSON, the most etcd stores in one request by default/,
      ),
    ]);
    const small = build("NodePool", { requirements: [requirement(names(1_000))] });
    expect(synthWarnings(small).filter((w) => w.includes("1.5 MiB"))).toEqual([]);
  });
});
