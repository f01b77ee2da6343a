import { TerraformStack, Testing } from "cdktf";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { Karpenter } from "../../lib/install/karpenter";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodePool } from "../../lib/nodes/node-pool";
import { KarpenterRelease } from "../../lib/helm/karpenter-release";
import { MAX_VALUES_DEPTH } from "../../lib/helm/release-values";
import { providedStack, rejected, testCluster, testStack } from "../helpers";

function twoStacks() {
  const { app, stack } = testStack("infra");
  new HelmProvider(stack, "helm", {});
  new KubernetesProvider(stack, "kubernetes", {});
  const cluster = testCluster(stack, "demo");
  const karpenter = new Karpenter(stack, "karpenter", { cluster });
  const nodes = new TerraformStack(app, "nodes");
  new AwsProvider(nodes, "aws", { region: "us-east-1" });
  new KubernetesProvider(nodes, "kubernetes", {});
  const nodeClass = new Ec2NodeClass(nodes, "default", { karpenter });
  return { app, stack, nodes, karpenter, nodeClass };
}

function cyclic(): Record<string, unknown> {
  const inner: Record<string, unknown> = { level: "debug" };
  const values: Record<string, unknown> = { logConfig: inner };
  inner.again = values;
  return values;
}

describe("crashes that named nothing", () => {
  test("karpenter.addNodePool with an EC2NodeClass of a stack that depends on the install's: an error naming the pool, nodeClass and what to do, not cdktf's circular dependency", () => {
    const { karpenter, nodeClass, stack } = twoStacks();
    const e = rejected(() => karpenter.addNodePool("default", { nodeClass }));
    expect(e.problems).toHaveLength(1);
    expect(e.field).toBe("nodeClass");
    expect([e.code, e.problems[0].code]).toEqual(["STACK_DEPENDENCY_CYCLE", "STACK_DEPENDENCY_CYCLE"]);
    expect(e.message).toMatch(
      /^infra\/karpenter\/node-pool-default: nodeClass = "nodes\/default" is invalid: an object of this stack \(infra\) or of a stack that does not depend on it: nodes\/default is in stack nodes, which depends on this one \(nodes → infra\)/,
    );
    expect(e.message).toContain(
      "Create this object in stack nodes instead (e.g. new NodePool(<that stack>, id, { nodeClass, karpenter })",
    );
    // nothing half-built: the pool left the tree and the install's stack gained no dependency
    expect(karpenter.node.tryFindChild("node-pool-default")).toBeUndefined();
    expect(stack.dependencies).toEqual([]);
  });
  test("look-alike: the same pool in the class's stack passes, ordered after the class", () => {
    const { nodes, karpenter, nodeClass } = twoStacks();
    const pool = new NodePool(nodes, "pool", { nodeClass, karpenter });
    expect(pool.manifest.dependsOn).toHaveLength(1);
    expect(nodes.dependencies.map((s) => s.node.id)).toEqual(["infra"]);
    expect(pool.nodeClassRef.name).toBe(nodeClass.name);
  });
  test("an EC2NodeClass in a stack the install's stack depends on is refused on karpenter", () => {
    const { app, stack } = testStack("infra");
    new HelmProvider(stack, "helm", {});
    const cluster = testCluster(stack, "demo");
    const base = new TerraformStack(app, "base");
    new AwsProvider(base, "aws", { region: "us-east-1" });
    new KubernetesProvider(base, "kubernetes", {});
    stack.addDependency(base);
    const karpenter = new Karpenter(stack, "karpenter", { cluster });
    const e = rejected(() => new Ec2NodeClass(base, "default", { karpenter }));
    expect(e.field).toBe("karpenter");
    expect(e.message).toContain("which depends on this one (infra → base)");
  });
  test("values holding a cycle: an error naming the path, not a stack overflow", () => {
    const { stack } = testStack();
    new HelmProvider(stack, "helm", {});
    const cluster = testCluster(stack, "demo");
    const e = rejected(() => new Karpenter(stack, "karpenter", { cluster, values: cyclic(), replicas: 0 }));
    expect(e.problems.map((p) => p.field).sort()).toEqual(["replicas", "values.logConfig.again"]);
    const cycle = e.problems.find((p) => p.field === "values.logConfig.again")!;
    expect(cycle.message).toContain("is the object values itself");
  });
  test.each([
    [
      "under settings",
      () => {
        const settings: Record<string, unknown> = { batchMaxDuration: "10s" };
        settings.self = settings;
        return { values: { settings }, field: "values.settings.self", target: "values.settings" };
      },
    ],
    [
      "in a list",
      () => {
        const toleration: Record<string, unknown> = { key: "a", operator: "Exists" };
        const tolerations = [toleration];
        toleration.more = tolerations;
        return { values: { tolerations }, field: "values.tolerations[0].more", target: "values.tolerations" };
      },
    ],
  ])("a cycle %s is named by its path, on Karpenter and on KarpenterRelease", (_what, make) => {
    const { values, field, target } = make();
    const { stack } = testStack();
    new HelmProvider(stack, "helm", {});
    const cluster = testCluster(stack, "demo");
    for (const build of [
      () => new Karpenter(stack, "karpenter", { cluster, values }),
      () => new KarpenterRelease(stack, "release", { cluster, values }),
    ]) {
      const e = rejected(build);
      expect(e.problems.map((p) => p.field)).toEqual([field]);
      expect(e.message).toContain(`${field} is the object ${target} itself`);
    }
  });
  /**
   * values whose `serviceMonitor.endpointConfig` (free-form in values.yaml; initContainers, used before, is a
   * Container list the chart renders whole, now judged by its type) nest `levels` maps below values itself (values is level 1).
   */
  const nested = (levels: number): Record<string, unknown> => {
    const top: Record<string, unknown> = {};
    let p = top;
    for (let i = 2; i < levels; i++) p = p.a = {} as Record<string, unknown>;
    return { serviceMonitor: { endpointConfig: top.a } };
  };
  test.each([
    ["Karpenter", 3000],
    ["KarpenterRelease", 3000],
    ["Karpenter", 20000],
  ])(
    "values nested too deep on %s (%d levels): an error naming the first too-deep path, not a stack overflow (fresh9 C3)",
    (kind, levels) => {
      const { stack } = testStack();
      new HelmProvider(stack, "helm", {});
      const cluster = testCluster(stack, "demo");
      const values = nested(levels);
      const e = rejected(() =>
        kind === "Karpenter"
          ? new Karpenter(stack, "karpenter", { cluster, values, replicas: 0 })
          : new KarpenterRelease(stack, "release", { cluster, values, replicas: 0 }),
      );
      const deep = e.problems.find((p) => p.code === "HELM_VALUES_TOO_DEEP")!;
      // level 1 is values, 2 serviceMonitor, 3 endpointConfig: the first too deep is level MAX_VALUES_DEPTH + 1
      expect(deep.field).toBe(`values.serviceMonitor.endpointConfig${".a".repeat(MAX_VALUES_DEPTH - 2)}`);
      expect(deep.message).toContain(`at most ${MAX_VALUES_DEPTH} maps and lists inside one another in values`);
      // the other problems of the props are still named
      expect(e.problems.map((p) => p.code).sort()).toEqual(["HELM_VALUES_REPLICAS", "HELM_VALUES_TOO_DEEP"]);
    },
  );
  test(`the limit itself (${MAX_VALUES_DEPTH} levels) synthesizes; one more is refused`, () => {
    const { app } = testStack();
    const stack = providedStack(app, "s");
    const cluster = testCluster(stack, "demo");
    const k = new Karpenter(stack, "karpenter", { cluster, values: nested(MAX_VALUES_DEPTH) });
    expect(k.release).toBeDefined();
    expect(() => Testing.synth(stack)).not.toThrow();
    const { stack: other } = testStack();
    new HelmProvider(other, "helm", {});
    const e = rejected(
      () =>
        new Karpenter(other, "karpenter", {
          cluster: testCluster(other, "demo"),
          values: nested(MAX_VALUES_DEPTH + 1),
        }),
    );
    expect(e.problems.map((p) => p.code)).toEqual(["HELM_VALUES_TOO_DEEP"]);
  });
  test("look-alike: the same object twice side by side is no cycle and passes", () => {
    const { stack } = testStack();
    new HelmProvider(stack, "helm", {});
    const cluster = testCluster(stack, "demo");
    const shared = { key: "dedicated", operator: "Exists" };
    expect(
      () =>
        new Karpenter(stack, "karpenter", {
          cluster,
          values: { tolerations: [shared, shared], podAnnotations: { a: "x" } },
        }),
    ).not.toThrow();
  });
});
