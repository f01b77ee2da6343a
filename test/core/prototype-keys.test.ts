import { KarpenterValidationError } from "../../lib/core/errors";
import { lookupTable, ownValue } from "../../lib/core/lookup";
import { build, req } from "../nodes/node-props";

/*
 * A label key, resource name, tag key or requirement value may be any string, `constructor` and `toString`
 * too. Looking such a string up in a table must find nothing, not a method of Object (fresh tester 3, C14:
 * `labels: { constructor: "a" }` threw a TypeError naming no construct).
 */

const NAMES = [
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "__proto__",
  "__defineGetter__",
  "isPrototypeOf",
];

/** The props built, or the KarpenterValidationError they gave; anything else thrown fails the test. */
function outcome(kind: "NodePool" | "EC2NodeClass", props: object, version = "1.15.0"): string {
  try {
    build(kind, props, version);
    return "built";
  } catch (e) {
    if (!KarpenterValidationError.isError(e)) throw e;
    return "refused";
  }
}

describe("keys named like Object's own properties are plain strings", () => {
  test("a lookup table has no prototype, and ownValue reads only own keys", () => {
    const t = lookupTable({ a: 1 });
    expect(t.constructor).toBeUndefined();
    expect(ownValue({ a: 1 } as { [k: string]: number }, "toString")).toBeUndefined();
    expect(ownValue({ a: 1 } as { [k: string]: number }, "a")).toBe(1);
  });

  test.each(NAMES)("NodePool labels, requirements and limits with %s", (name) => {
    const labelled = JSON.parse(`{"${name}": "a"}`);
    // a qualified name starts with a letter or digit: "__proto__" is refused as a key, the others are keys
    const asKey = name.startsWith("_") ? "refused" : "built";
    expect(outcome("NodePool", { labels: labelled })).toBe(asKey);
    expect(outcome("NodePool", { annotations: labelled })).toBe(asKey);
    expect(outcome("NodePool", { requirements: [req(name, "In", ["a"])] })).toBe(asKey);
    expect(outcome("NodePool", { requirements: [req("kubernetes.io/arch", "In", [name])] })).toBe("refused");
    expect(outcome("NodePool", { requirements: [req("karpenter.sh/capacity-type", "In", [name])] })).toBe("refused");
    expect(outcome("NodePool", { requirements: [req("topology.k8s.aws/zone-id", "In", [name])] })).toBe("refused");
    expect(outcome("NodePool", { labels: { "karpenter.sh/capacity-type": name } })).toBe("refused");
    // a resource no node has: a warning, not a crash; an own "__proto__" key would be dropped from the Terraform JSON,
    // so it is refused (NODE_VALUE_PROTO_KEY, fresh tester 31 H01)
    expect(outcome("NodePool", { limits: JSON.parse(`{"${name}": "1"}`) })).toBe(
      name === "__proto__" ? "refused" : "built",
    );
    expect(outcome("NodePool", { taints: [{ key: name, value: name, effect: "NoSchedule" }] })).toBe(asKey);
    expect(["built", "refused"]).toContain(outcome("NodePool", JSON.parse(`{"${name}": 1}`)));
  });

  test.each(NAMES)("EC2NodeClass tags, kubelet, aliases and volumes with %s", (name) => {
    expect(outcome("EC2NodeClass", { tags: JSON.parse(`{"${name}": "a"}`) })).toBe(
      name === "__proto__" ? "refused" : "built",
    );
    expect(outcome("EC2NodeClass", { amiSelectorTerms: [{ alias: `${name}@latest` }] })).toBe("refused");
    expect(outcome("EC2NodeClass", { amiSelectorTerms: [{ alias: `al2023@${name}` }] })).toBe("refused");
    for (const field of ["kubeReserved", "systemReserved", "evictionHard", "evictionSoft"])
      expect(outcome("EC2NodeClass", { kubelet: { [field]: JSON.parse(`{"${name}": "1"}`) } })).toBe("refused");
    expect(outcome("EC2NodeClass", { kubelet: { kubeReserved: { memory: `1${name}` } } })).toBe("refused");
    expect(
      outcome("EC2NodeClass", {
        blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: "20Gi", volumeType: name } }],
      }),
    ).toBe("refused");
    expect(outcome("EC2NodeClass", { amiFamily: name } as object)).toBe("refused");
  });
});
