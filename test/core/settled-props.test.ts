import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { Lazy } from "cdktf";
import { settledProps } from "../../lib/core/readable-props";
import { Karpenter } from "../../lib/install/karpenter";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodePool } from "../../lib/nodes/node-pool";
import { FakeInstallation, resources, synthJson, testCluster, testStack } from "../helpers";

/*
 * fresh18 S-3: a getter that answers differently on each read passed the checks with one value and was written with
 * another. Props are now read once (core/readable-props.ts settledProps) before any check: what is written is what
 * was checked, and nothing is read after the constructor.
 */

/** A map whose `key` answers "<base+1>", "<base+2>", … on successive reads; `reads()` counts them. */
function counting(key: string, base: number, rest: Record<string, unknown> = {}) {
  let n = 0;
  const obj = { ...rest };
  Object.defineProperty(obj, key, { enumerable: true, get: () => String(base + ++n) });
  return { obj, reads: () => n };
}

describe("props are read once (fresh tester 18, S-3)", () => {
  test("a NodePool's limits: the value written is the one read before the checks, and none is read after", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
    const nodeClass = new Ec2NodeClass(stack, "nc", { karpenter, name: "cls" });
    const { obj: limits, reads } = counting("cpu", 99);
    new NodePool(stack, "np", { karpenter, nodeClass, name: "pool", limits: limits as Record<string, string> });
    const during = reads();
    const pool = Object.values(resources(synthJson(stack), "kubernetes_manifest")).find(
      (m: any) => m.manifest.kind === "NodePool",
    ) as any;
    expect(reads()).toBe(during);
    expect(pool.manifest.spec.limits.cpu).toBe(String(99 + during));
  });

  test("Karpenter's values: the same (a getter in values.replicas)", () => {
    const { stack } = testStack();
    new HelmProvider(stack, "helm", {});
    let n = 0;
    const values = {};
    Object.defineProperty(values, "replicas", { enumerable: true, get: () => ++n });
    new Karpenter(stack, "karpenter", { cluster: testCluster(stack, "demo"), values });
    const during = n;
    const release = Object.values(resources(synthJson(stack), "helm_release")).find(
      (r: any) => r.chart === "karpenter",
    ) as any;
    expect(n).toBe(during);
    expect(JSON.parse(release.values[0]).replicas).toBe(during);
  });

  test("settledProps keeps constructs and tokens (class instances), shares what was shared, keeps holes", () => {
    const { stack } = testStack();
    const token = Lazy.anyValue({ produce: () => 1 });
    const shared = { a: 1 };
    // eslint-disable-next-line no-sparse-arrays
    const props = { stack, token, x: shared, y: shared, list: [1, , 3] };
    const out = settledProps(props);
    expect(out).not.toBe(props);
    expect(out.stack).toBe(stack);
    expect(out.token).toBe(token);
    expect(out.x).not.toBe(shared);
    expect(out.x).toBe(out.y);
    expect(1 in out.list).toBe(false);
    expect(out.list).toHaveLength(3);
  });
});
