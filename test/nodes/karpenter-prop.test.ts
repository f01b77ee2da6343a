import { Construct } from "constructs";
import { KarpenterValidationError } from "../../lib/core/errors";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodeClassRef, NodePool } from "../../lib/nodes/node-pool";
import { NodeOverlay } from "../../lib/nodes/node-overlay";
import { CapacityBuffer } from "../../lib/nodes/capacity-buffer";
import { FakeInstallation, testStack, thrown } from "../helpers";

const REQ = { key: "node.kubernetes.io/instance-type", operator: "In" as const, values: ["m5.large"] };

/** An install with both alpha gates on, so that NodeOverlay and CapacityBuffer accept it. */
class GatedInstallation extends FakeInstallation {
  public readonly nodeOverlayGate = true;
  public readonly capacityBufferGate = true;
  constructor(scope: Construct, id: string) {
    super(scope, id, "1.15.0");
  }
}

const OBJECTS: [string, (scope: Construct, karpenter: unknown) => Construct][] = [
  ["Ec2NodeClass", (s, karpenter) => new Ec2NodeClass(s, "x", { karpenter: karpenter as never })],
  [
    "NodePool",
    (s, karpenter) =>
      new NodePool(s, "x", { karpenter: karpenter as never, nodeClass: { name: "default" }, version: "1.15.0" }),
  ],
  ["NodeOverlay", (s, karpenter) => new NodeOverlay(s, "x", { karpenter: karpenter as never, requirements: [REQ] })],
  [
    "CapacityBuffer",
    (s, karpenter) =>
      new CapacityBuffer(s, "x", {
        karpenter: karpenter as never,
        scalableRef: { apiGroup: "apps", kind: "Deployment", name: "web" },
      }),
  ],
];

describe("a node object's karpenter is an installation of this app, named itself when it is not", () => {
  test.each(
    OBJECTS.flatMap(([kind, make]) =>
      [[kind, "{}", {}, "{}"] as const, [kind, "a path", "k/karpenter", '"k/karpenter"'] as const].map(
        (r) => [...r, make] as const,
      ),
    ),
  )("%s with karpenter = %s", (_kind, _what, value, shown, make) => {
    const { stack } = testStack();
    const e = thrown(() => make(stack, value)) as KarpenterValidationError;
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect([e.code, e.field, e.problems.length]).toEqual(["NODE_KARPENTER_NOT_AN_INSTALL", "karpenter", 1]);
    expect(e.message).toContain(`test/x: karpenter = ${shown} is invalid: a Karpenter construct of this app`);
    expect(e.message).not.toContain("SelectorTerms");
  });

  test.each(OBJECTS)(
    "%s: an installation of this app passes; one of another App is refused, naming karpenter",
    (_kind, make) => {
      const { stack } = testStack();
      expect(() => make(stack, new GatedInstallation(stack, "karpenter"))).not.toThrow();
      const other = testStack("elsewhere");
      const e = thrown(() =>
        make(testStack().stack, new GatedInstallation(other.stack, "karpenter")),
      ) as KarpenterValidationError;
      expect([e.code, e.field]).toEqual(["NODE_OTHER_APP", "karpenter"]);
      expect(e.message).toContain(
        'karpenter = "elsewhere/karpenter" is invalid: a construct of this object\'s cdktf App',
      );
    },
  );

  test("a NodePool's nodeClass of another App (both with a stack of one name) is refused naming nodeClass, not the provider", () => {
    const theirs = testStack("nodes");
    const nodeClass = new Ec2NodeClass(theirs.stack, "nc", {
      karpenter: new FakeInstallation(theirs.stack, "karpenter"),
    });
    const mine = testStack("nodes");
    const e = thrown(() => new NodePool(mine.stack, "p", { nodeClass })) as KarpenterValidationError;
    expect([e.code, e.field]).toEqual(["NODE_OTHER_APP", "nodeClass"]);
    expect(e.message).toContain(
      'nodes/p: nodeClass = "nodes/nc" is invalid: a construct of this object\'s cdktf App: nodes/nc was created in another App',
    );
    // the look-alike: the same class in the pool's own App
    expect(() => new NodePool(theirs.stack, "p", { nodeClass })).not.toThrow();
  });

  test("null is unset, as before", () => {
    const { stack } = testStack();
    expect(
      () => new NodePool(stack, "p", { karpenter: null as never, nodeClass: { name: "d" }, version: "1.15.0" }),
    ).not.toThrow();
  });
});

// fresh9 C5: a construct where another kind belongs is named as what it is, once, with a stable code (not each of
// its properties as an unknown field of a reference, nor a TypeError on what it lacks)
describe("a construct given where another kind of construct or data belongs is named as what it is", () => {
  const REF = { apiGroup: "apps", kind: "Deployment", name: "web" };
  function objects() {
    const { app, stack } = testStack();
    const karpenter = new GatedInstallation(stack, "k");
    const nodeClass = new Ec2NodeClass(stack, "nc", { karpenter });
    const pool = new NodePool(stack, "np", { nodeClass });
    const overlay = new NodeOverlay(stack, "ov", { karpenter, requirements: [REQ] });
    const buffer = new CapacityBuffer(stack, "cb", { karpenter, scalableRef: REF });
    return { app, stack, karpenter, nodeClass, pool, overlay, buffer };
  }

  test.each([
    ["NodeOverlay", "ov"],
    ["NodePool", "np"],
    ["CapacityBuffer", "cb"],
    ["GatedInstallation", "k"],
    ["Construct", "plain"],
  ])("a NodePool's nodeClass = a %s: one problem, NODEPOOL_NODE_CLASS_NOT_A_CLASS", (kind, id) => {
    const o = objects();
    const given = id === "plain" ? new Construct(o.stack, "plain") : o.stack.node.findChild(id);
    const e = thrown(() => new NodePool(o.stack, "p", { nodeClass: given as never })) as KarpenterValidationError;
    expect([e.code, e.field, e.problems.length]).toEqual(["NODEPOOL_NODE_CLASS_NOT_A_CLASS", "nodeClass", 1]);
    expect(e.message).toContain(`test/p: nodeClass = the ${kind} test/${id} is invalid: an Ec2NodeClass of this app`);
    expect(e.message).not.toContain("UNKNOWN_FIELD");
  });

  test("the nodeClass problem comes with the pool's other problems; an Ec2NodeClass, { name } and NodeClassRef.named pass", () => {
    const o = objects();
    const e = thrown(
      () => new NodePool(o.stack, "p", { nodeClass: o.overlay as never, weight: 0 }),
    ) as KarpenterValidationError;
    expect(e.problems.map((p) => p.code).sort()).toEqual(["NODEPOOL_INTEGER_RANGE", "NODEPOOL_NODE_CLASS_NOT_A_CLASS"]);
    expect(() => new NodePool(o.stack, "a", { nodeClass: o.nodeClass })).not.toThrow();
    expect(() => new NodePool(o.stack, "b", { nodeClass: { name: "default" }, karpenter: o.karpenter })).not.toThrow();
    expect(
      () => new NodePool(o.stack, "c", { nodeClass: NodeClassRef.named("default"), karpenter: o.karpenter }),
    ).not.toThrow();
  });

  test.each([
    ["Ec2NodeClass", "nc"],
    ["NodePool", "np"],
  ])("karpenter = a %s: NODE_KARPENTER_NOT_AN_INSTALL naming it (an Ec2NodeClass was a TypeError)", (kind, id) => {
    const o = objects();
    const given = o.stack.node.findChild(id);
    for (const make of [
      () => new Ec2NodeClass(o.stack, "x", { karpenter: given as never }),
      () => new NodePool(o.stack, "x", { karpenter: given as never, nodeClass: { name: "d" } }),
    ]) {
      const e = thrown(make) as KarpenterValidationError;
      expect([e.code, e.field, e.problems.length]).toEqual(["NODE_KARPENTER_NOT_AN_INSTALL", "karpenter", 1]);
      expect(e.message).toContain(`test/x: karpenter = the ${kind} test/${id} is invalid: a Karpenter construct`);
    }
  });

  test("an Ec2NodeClass's cluster = the install, the EksCluster or a NodePool: CLUSTER_REQUIRED with what to pass (was a TypeError); an IKarpenterCluster passes", () => {
    const o = objects();
    const cases: [unknown, string, string][] = [
      [o.karpenter, "the GatedInstallation test/k", "pass it as karpenter"],
      [
        o.stack.node.findChild("k-cluster"),
        "the EksCluster test/k-cluster",
        "KarpenterCluster.fromEksCluster(cluster)",
      ],
      [o.pool, "the NodePool test/np", "not another construct"],
    ];
    for (const [cluster, shown, advice] of cases) {
      const e = thrown(() => new Ec2NodeClass(o.stack, "x", { cluster: cluster as never, role: "r" }));
      expect(e).toBeInstanceOf(KarpenterValidationError);
      expect([(e as KarpenterValidationError).code, (e as KarpenterValidationError).field]).toEqual([
        "CLUSTER_REQUIRED",
        "cluster",
      ]);
      expect(e.message).toContain(`test/x: cluster = ${shown} is invalid: unset, or an IKarpenterCluster`);
      expect(e.message).toContain(advice);
    }
    expect(() => new Ec2NodeClass(o.stack, "y", { cluster: o.karpenter.cluster, role: "r" })).not.toThrow();
  });

  test("a spec prop given a construct: one NODE_VALUE_CONSTRUCT naming it; the data look-alike passes", () => {
    const o = objects();
    const cases: [string, () => unknown][] = [
      ["scalableRef", () => new CapacityBuffer(o.stack, "x", { karpenter: o.karpenter, scalableRef: o.pool as never })],
      ["kubelet", () => new Ec2NodeClass(o.stack, "x", { karpenter: o.karpenter, kubelet: o.overlay as never })],
      ["labels", () => new NodePool(o.stack, "x", { nodeClass: o.nodeClass, labels: o.buffer as never })],
    ];
    for (const [field, make] of cases) {
      const e = thrown(make) as KarpenterValidationError;
      expect([e.code, e.field, e.problems.length]).toEqual(["NODE_VALUE_CONSTRUCT", field, 1]);
      expect(e.message).toMatch(
        new RegExp(`test/x: ${field} = the (NodePool|NodeOverlay|CapacityBuffer) test/\\w+ is invalid: data`),
      );
    }
    expect(() => new CapacityBuffer(o.stack, "y", { karpenter: o.karpenter, scalableRef: REF })).not.toThrow();
  });

  test("dependsOn holding a node object names it and points at its manifest; its manifest passes", () => {
    const o = objects();
    const e = thrown(
      () => new NodePool(o.stack, "x", { nodeClass: o.nodeClass, dependsOn: [o.overlay as never] }),
    ) as KarpenterValidationError;
    expect([e.code, e.field]).toEqual(["NODE_DEPENDS_ON", "dependsOn"]);
    expect(e.message).toContain('dependsOn = ["the NodeOverlay test/ov"] is invalid');
    expect(e.message).toContain("give its .manifest");
    expect(e.message).not.toContain("contains itself");
    expect(() => new NodePool(o.stack, "y", { nodeClass: o.nodeClass, dependsOn: [o.overlay.manifest] })).not.toThrow();
  });

  test("kubernetesProvider = a NodePool names it", () => {
    const o = objects();
    const e = thrown(
      () => new NodePool(o.stack, "x", { nodeClass: o.nodeClass, kubernetesProvider: o.pool as never }),
    ) as KarpenterValidationError;
    expect([e.code, e.field]).toEqual(["PROVIDER_WRONG_CLASS", "kubernetesProvider"]);
    expect(e.message).toContain("kubernetesProvider = the NodePool test/np is invalid: a KubernetesProvider");
  });
});
