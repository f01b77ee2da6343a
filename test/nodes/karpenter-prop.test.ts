import { Construct } from "constructs";
import { KarpenterValidationError } from "../../lib/core/errors";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodePool } from "../../lib/nodes/node-pool";
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
