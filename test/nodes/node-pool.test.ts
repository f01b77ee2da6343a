import { Fn, TerraformStack, Testing, Token } from "cdktf";
import { Construct } from "constructs";
import { Release } from "@cdktf/provider-helm/lib/release";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { KarpenterValidationError } from "../../lib/core/errors";
import { runStackChecks } from "../../lib/core/synth-checks";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodePool, NodePoolProps } from "../../lib/nodes/node-pool";
import { FakeInstallation, providedStack, resources, synthJson, testCluster, testStack, thrown } from "../helpers";

const ON_DEMAND = { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] };
const SPOT_AND_ON_DEMAND = {
  key: "karpenter.sh/capacity-type",
  operator: "In" as const,
  values: ["spot", "on-demand"],
};

/** Address (`type.name`) and body of every kubernetes_manifest of a stack, by kind. */
function byKind(stack: TerraformStack): Record<string, { addr: string; body: any }> {
  const out: Record<string, { addr: string; body: any }> = {};
  for (const [name, body] of Object.entries(resources(synthJson(stack), "kubernetes_manifest")))
    out[body.manifest.kind] = { addr: `kubernetes_manifest.${name}`, body };
  return out;
}

/** The warnings of `c`, those judged at synth included (the spot warning looks at the whole app). */
function warnings(c: Construct): string[] {
  runStackChecks(TerraformStack.of(c));
  return c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));
}

/** A stack with an installation, an EC2NodeClass `default` and a NodePool `pool` built from `props`. */
function setup(props: Partial<NodePoolProps> = {}, spotRole = false) {
  const { stack } = testStack();
  const karpenter = new FakeInstallation(stack, "karpenter", "1.14.1", spotRole);
  const nodeClass = new Ec2NodeClass(stack, "default", { karpenter });
  const pool = new NodePool(stack, "pool", { nodeClass, ...props });
  return { stack, karpenter, nodeClass, pool, objs: byKind(stack) };
}

describe("NodePool basics", () => {
  const { pool, objs } = setup();
  const m = objs.NodePool.body.manifest;

  test("emits a cluster-scoped karpenter.sh/v1 NodePool referring to its EC2NodeClass", () => {
    expect(m.apiVersion).toBe("karpenter.sh/v1");
    expect(m.kind).toBe("NodePool");
    expect(m.metadata).toEqual({ name: "pool" });
    expect(m.spec.template.spec.nodeClassRef).toEqual({
      group: "karpenter.k8s.aws",
      kind: "EC2NodeClass",
      name: "default",
    });
  });

  test("states capacity-type on-demand when nothing asks for it, and emits nothing else", () => {
    expect(m.spec).toEqual({
      template: {
        spec: {
          nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" },
          requirements: [ON_DEMAND],
        },
      },
    });
    expect(pool.allowsSpot).toBe(false);
    expect(warnings(pool)).toEqual([]);
  });

  test("is ordered after its EC2NodeClass (same stack: depends_on), which is ordered after the release", () => {
    expect(objs.NodePool.body.depends_on).toEqual([objs.EC2NodeClass.addr]);
    expect(objs.EC2NodeClass.body.depends_on).toEqual([expect.stringMatching(/^helm_release\./)]);
  });

  test("keeps the provider's default delete timeout (no finalizer on NodePools)", () => {
    expect(objs.NodePool.body.timeouts).toBeUndefined();
  });
});

describe("capacity type and the spot warning", () => {
  test("requirements that name the capacity type are kept as they are", () => {
    const { objs, pool } = setup({ requirements: [SPOT_AND_ON_DEMAND] });
    expect(objs.NodePool.body.manifest.spec.template.spec.requirements).toEqual([SPOT_AND_ON_DEMAND]);
    expect(pool.allowsSpot).toBe(true);
  });

  test("the default is appended after the user's requirements", () => {
    const arch = { key: "kubernetes.io/arch", operator: "In" as const, values: ["arm64"] };
    const { objs } = setup({ requirements: [arch] });
    expect(objs.NodePool.body.manifest.spec.template.spec.requirements).toEqual([arch, ON_DEMAND]);
  });

  test("allowing spot without the spot service-linked role warns about ServiceLinkedRoleCreationNotPermitted", () => {
    const { pool } = setup({ requirements: [SPOT_AND_ON_DEMAND] });
    const w = warnings(pool);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("ServiceLinkedRoleCreationNotPermitted");
    expect(w[0]).toContain("spot.amazonaws.com");
    expect(w[0]).toContain("does not create");
    // names the prop that creates the role, as the user writes it
    expect(w[0]).toContain(
      "Create it once per account (`spotServiceLinkedRole: true` on one Karpenter of the account, a SpotServiceLinkedRole, or `aws iam create-service-linked-role --aws-service-name spot.amazonaws.com`)",
    );
  });

  test("no warning when the installation creates the spot service-linked role", () => {
    const { pool } = setup({ requirements: [SPOT_AND_ON_DEMAND] }, true);
    expect(pool.allowsSpot).toBe(true);
    expect(warnings(pool)).toEqual([]);
  });

  test("NotIn [on-demand] allows spot; NotIn [spot] does not", () => {
    expect(
      setup({ requirements: [{ key: "karpenter.sh/capacity-type", operator: "NotIn", values: ["on-demand"] }] }).pool
        .allowsSpot,
    ).toBe(true);
    const noSpot = setup({
      requirements: [{ key: "karpenter.sh/capacity-type", operator: "NotIn", values: ["spot"] }],
    });
    expect(noSpot.pool.allowsSpot).toBe(false);
    expect(warnings(noSpot.pool)).toEqual([]);
  });

  test("requirements are ANDed: a second requirement can exclude spot again", () => {
    const { pool } = setup({
      requirements: [SPOT_AND_ON_DEMAND, { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] }],
    });
    expect(pool.allowsSpot).toBe(false);
  });

  test("a capacity-type template label counts as naming it (no requirement added)", () => {
    const { objs, pool } = setup({ labels: { "karpenter.sh/capacity-type": "spot" } });
    expect(objs.NodePool.body.manifest.spec.template.spec.requirements).toEqual([]);
    expect(pool.allowsSpot).toBe(true);
    expect(warnings(pool)).toHaveLength(1);
  });

  test("without any installation the warning says so", () => {
    const { stack } = testStack();
    const pool = new NodePool(stack, "pool", { nodeClass: { name: "default" }, requirements: [SPOT_AND_ON_DEMAND] });
    expect(warnings(pool)[0]).toContain("no Karpenter installation is given");
  });

  test("requirements given as a token are passed through, with a warning that the capacity type is unchecked", () => {
    const { stack } = testStack();
    const reqs = Token.asAny(Fn.jsondecode(Fn.rawString('[{"key":"a","operator":"Exists"}]'))) as any;
    const pool = new NodePool(stack, "pool", { nodeClass: { name: "default" }, requirements: reqs });
    expect(warnings(pool)[0]).toContain("requirements is a token");
    const m = (Object.values(resources(synthJson(stack), "kubernetes_manifest"))[0] as any).manifest;
    expect(m.spec.template.spec.requirements).toMatch(/^\$\{jsondecode\(.*\)\}$/);
  });
});

describe("capacity type hidden by tokens: nothing added, a warning", () => {
  const known = { key: "kubernetes.io/arch", operator: "In" as const, values: ["arm64"] };
  test.each([
    [
      "a requirement key",
      {
        requirements: [
          known,
          { key: Fn.lower("KARPENTER.SH/CAPACITY-TYPE"), operator: "In" as const, values: ["spot"] },
        ],
      },
      "a requirement's key is a token",
    ],
    [
      "a whole requirement",
      { requirements: [known, Token.asAny(Fn.jsondecode(Fn.rawString('{"key":"a","operator":"Exists"}'))) as any] },
      "a requirement is a token",
    ],
    [
      "the labels map",
      {
        requirements: [known],
        labels: Token.asAny(Fn.jsondecode(Fn.rawString('{"karpenter.sh/capacity-type":"spot"}'))) as any,
      },
      "labels is a token",
    ],
    [
      "a label key",
      { requirements: [known], labels: { [Fn.lower("KARPENTER.SH/CAPACITY-TYPE")]: "spot" } },
      "a label key is a token",
    ],
  ])("%s", (_what, props, why) => {
    const { stack } = testStack();
    const pool = new NodePool(stack, "pool", { nodeClass: { name: "default" }, ...props });
    const m = (Object.values(resources(synthJson(stack), "kubernetes_manifest"))[0] as any).manifest;
    const reqs = m.spec.template.spec.requirements;
    expect(reqs).toHaveLength(2 - (props.requirements.length === 1 ? 1 : 0));
    expect(JSON.stringify(reqs)).not.toContain('"on-demand"');
    expect(pool.allowsSpot).toBe(false);
    const w = warnings(pool);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain(
      `NodePool pool: ${why}, so whether the pool states karpenter.sh/capacity-type cannot be checked at synth, and the default karpenter.sh/capacity-type In [on-demand] was not added`,
    );
    expect(w[0]).toContain("ServiceLinkedRoleCreationNotPermitted");
  });

  test("a token label value under a known capacity-type key needs no default and no warning", () => {
    const { stack } = testStack();
    const pool = new NodePool(stack, "pool", {
      nodeClass: { name: "default" },
      labels: { "karpenter.sh/capacity-type": Fn.lower("ON-DEMAND") },
    });
    expect(pool.requirements).toEqual([]);
    expect(warnings(pool)).toEqual([]);
  });
});

describe("NodePool spec mapping", () => {
  test("template fields go under spec.template, the rest under spec", () => {
    const { objs } = setup({
      name: "general",
      labels: { team: "data" },
      annotations: { "example.com/owner": "data-team" },
      taints: [{ key: "dedicated", value: "data", effect: "NoSchedule" }],
      startupTaints: [{ key: "example.com/agent-not-ready", effect: "NoExecute" }],
      expireAfter: "720h",
      terminationGracePeriod: "48h",
      limits: { cpu: "100", memory: "400Gi" },
      disruption: {
        consolidationPolicy: "WhenEmpty",
        consolidateAfter: "5m",
        budgets: [{ nodes: "20%", reasons: ["Empty"] }],
      },
      weight: 50,
    });
    const spec = objs.NodePool.body.manifest.spec;
    expect(objs.NodePool.body.manifest.metadata).toEqual({ name: "general" });
    expect(spec.template.metadata).toEqual({
      annotations: { "example.com/owner": "data-team" },
      labels: { team: "data" },
    });
    expect(spec.template.spec.taints).toEqual([{ key: "dedicated", value: "data", effect: "NoSchedule" }]);
    expect(spec.template.spec.startupTaints).toEqual([{ key: "example.com/agent-not-ready", effect: "NoExecute" }]);
    expect(spec.template.spec.expireAfter).toBe("720h");
    expect(spec.template.spec.terminationGracePeriod).toBe("48h");
    expect(spec.limits).toEqual({ cpu: "100", memory: "400Gi" });
    expect(spec.disruption).toEqual({
      consolidationPolicy: "WhenEmpty",
      consolidateAfter: "5m",
      budgets: [{ nodes: "20%", reasons: ["Empty"] }],
    });
    expect(spec.weight).toBe(50);
    expect(Object.keys(spec)).toEqual(["disruption", "limits", "template", "weight"]);
  });

  test("disruption without consolidateAfter gets 0s (the CRD requires it inside disruption)", () => {
    const { objs } = setup({ disruption: { consolidationPolicy: "WhenEmpty" } });
    expect(objs.NodePool.body.manifest.spec.disruption).toEqual({
      consolidateAfter: "0s",
      consolidationPolicy: "WhenEmpty",
    });
  });

  test("a static NodePool emits replicas and a node limit", () => {
    const { objs } = setup({ replicas: 3, limits: { nodes: "3" } });
    expect(objs.NodePool.body.manifest.spec.replicas).toBe(3);
    expect(objs.NodePool.body.manifest.spec.limits).toEqual({ nodes: "3" });
  });

  test("limits are emitted as the strings written (the CRD's limits are int-or-string)", () => {
    const { stack, objs } = setup({ limits: { cpu: "1000", memory: "1000Gi", "nvidia.com/gpu": "4", pods: "500m" } });
    expect(objs.NodePool.body.manifest.spec.limits).toEqual({
      cpu: "1000",
      memory: "1000Gi",
      "nvidia.com/gpu": "4",
      pods: "500m",
    });
    expect(Testing.synth(stack)).toContain('"cpu": "1000"');
  });

  test("a number in limits (a JavaScript caller, code from before 0.x) is refused with the string to write", () => {
    const { stack } = testStack("nodes");
    const e = thrown(
      () =>
        new NodePool(stack, "pool", { nodeClass: { name: "default" }, limits: { cpu: 100, memory: "400Gi" } as any }),
    ) as KarpenterValidationError;
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect([e.path, e.field, e.value]).toEqual(["nodes/pool", 'limits["cpu"]', 100]);
    expect(e.message).toBe(
      'nodes/pool: limits["cpu"] = 100 is invalid: a Kubernetes quantity as a string, got a number: write "100", not 100 (limits values are strings such as "100", "1000Gi", "500m") [NODEPOOL_LIMITS]',
    );
    expect(
      thrown(() => new NodePool(stack, "fraction", { nodeClass: { name: "default" }, limits: { cpu: 1.5 } as any }))
        .message,
    ).toContain('write "1.5", not 1.5');
    expect(
      thrown(() => new NodePool(stack, "negative", { nodeClass: { name: "default" }, limits: { memory: -1 } as any }))
        .message,
    ).toBe(
      'nodes/negative: limits["memory"] = -1 is invalid: a non-negative Kubernetes quantity as a string, got the number -1 (limits values are strings such as "100", "1000Gi", "500m") [NODEPOOL_LIMITS]',
    );
    // nothing half-built stays in the tree
    expect(stack.node.children.filter((c) => c instanceof NodePool)).toEqual([]);
  });

  test("two synths of the same app are byte-identical", () => {
    const a = setup({ labels: { b: "2", a: "1" }, requirements: [SPOT_AND_ON_DEMAND] });
    const b = setup({ labels: { b: "2", a: "1" }, requirements: [SPOT_AND_ON_DEMAND] });
    expect(Testing.synth(a.stack)).toBe(Testing.synth(b.stack));
  });
});

describe("node class references and versions", () => {
  test("a plain reference defaults group and kind, and orders after the installation's release when given", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    new NodePool(stack, "pool", { karpenter, nodeClass: { name: "managed-elsewhere" } });
    const objs = byKind(stack);
    expect(objs.NodePool.body.manifest.spec.template.spec.nodeClassRef).toEqual({
      group: "karpenter.k8s.aws",
      kind: "EC2NodeClass",
      name: "managed-elsewhere",
    });
    expect(objs.NodePool.body.depends_on).toEqual([expect.stringMatching(/^helm_release\./)]);
  });

  test("a plain reference without an installation has no ordering unless dependsOn is given", () => {
    const { stack } = testStack();
    const other = new Release(stack, "other", { name: "x", chart: "x" });
    new NodePool(stack, "a", { nodeClass: { name: "x" } });
    new NodePool(stack, "b", { nodeClass: { name: "x" }, dependsOn: [other] });
    const all = resources(synthJson(stack), "kubernetes_manifest");
    const [a, b] = ["a", "b"].map((n) => Object.values(all).find((r: any) => r.manifest.metadata.name === n) as any);
    expect(a.depends_on).toBeUndefined();
    expect(b.depends_on).toEqual(["helm_release.other"]);
  });

  test("karpenter: the pool's installation, given or taken from its Ec2NodeClass; undefined in building-block mode", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const nodeClass = new Ec2NodeClass(stack, "default", { karpenter });
    expect(new NodePool(stack, "from-class", { nodeClass }).karpenter).toBe(karpenter);
    expect(new NodePool(stack, "given", { karpenter, nodeClass: { name: "elsewhere" } }).karpenter).toBe(karpenter);
    expect(new NodePool(stack, "both", { karpenter, nodeClass }).karpenter).toBe(karpenter);
    const loose = new Ec2NodeClass(stack, "loose", { cluster: karpenter.cluster, role: "r" });
    expect(new NodePool(stack, "loose-pool", { nodeClass: loose }).karpenter).toBeUndefined();
    expect(new NodePool(stack, "ref-pool", { nodeClass: { name: "x" } }).karpenter).toBeUndefined();
  });

  test("the version comes from the node class when no installation is given to the pool", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.8.8");
    const nodeClass = new Ec2NodeClass(stack, "default", { karpenter });
    expect(new NodePool(stack, "pool", { nodeClass }).version).toBe("1.8.8");
    expect(() => new NodePool(stack, "pool2", { nodeClass, disruption: { consolidationPolicy: "Balanced" } })).toThrow(
      /needs Karpenter 1.14 or later.*targets Karpenter 1.8.8/,
    );
  });

  test("a pool version that differs from its installation's or node class's is an error", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.14.1");
    const fromInstall = new Ec2NodeClass(stack, "default", { karpenter });
    const standalone = new Ec2NodeClass(stack, "standalone", {
      cluster: karpenter.cluster,
      role: "r",
      version: "1.14.1",
    });
    const failure = (f: () => unknown) => thrown(f) as KarpenterValidationError;
    const e1 = failure(() => new NodePool(stack, "pool", { nodeClass: fromInstall, version: "1.13.1" }));
    expect(e1).toBeInstanceOf(KarpenterValidationError);
    expect(e1.field).toBe("version");
    expect(e1.message).toContain("karpenter.version (1.14.1)");
    const e2 = failure(() => new NodePool(stack, "pool2", { nodeClass: standalone, version: "1.13.1" }));
    expect(e2.field).toBe("version");
    expect(e2.message).toContain("nodeClass.version (1.14.1)");
  });

  test("plain-JS callers: a version that is not a string is a validation error naming it", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const nodeClass = new Ec2NodeClass(stack, "default", { karpenter });
    const e = thrown(
      () => new NodePool(stack, "pool", { nodeClass, version: 1.14 as any }),
    ) as KarpenterValidationError;
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect(e.field).toBe("version");
    expect(e.value).toBe(1.14);
    expect(e.message).toMatch(/^test\/pool: version = 1\.14 is invalid: a Karpenter release "MAJOR\.MINOR\.PATCH"/);
  });

  test("a pool in another stack than its node class depends on that stack", () => {
    const app = Testing.app();
    const eks = new TerraformStack(app, "eks");
    const nodes = new TerraformStack(app, "nodes");
    const pools = new TerraformStack(app, "pools");
    const karpenter = new FakeInstallation(eks, "karpenter");
    const nodeClass = new Ec2NodeClass(nodes, "default", { karpenter });
    new NodePool(pools, "pool", { nodeClass });
    expect(nodes.dependencies).toEqual([eks]);
    expect(pools.dependencies).toEqual([nodes]);
    expect(Object.values(resources(synthJson(pools), "kubernetes_manifest"))[0]).not.toHaveProperty("depends_on");
  });
});

describe("a plain reference to a class this app defines", () => {
  test("warns that the pool is not ordered after it", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    new Ec2NodeClass(stack, "gpu", { karpenter });
    const pool = new NodePool(stack, "pool", { karpenter, nodeClass: { name: "gpu" } });
    const w = warnings(pool);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("test/gpu defines it in this app");
  });
});

describe("the node class must belong to the pool's installation", () => {
  test("an Ec2NodeClass of another installation is rejected", () => {
    const app = Testing.app();
    const a = new TerraformStack(app, "a");
    const b = new TerraformStack(app, "b");
    const ka = new FakeInstallation(a, "karpenter");
    const kb = new FakeInstallation(b, "karpenter");
    const nodeClass = new Ec2NodeClass(a, "default", { karpenter: ka });
    expect(() => new NodePool(b, "pool", { nodeClass, karpenter: kb })).toThrow(
      /^b\/pool: nodeClass = "a\/default" is invalid: an Ec2NodeClass of the same Karpenter installation as the pool \(b\/karpenter\): a\/default belongs to the Karpenter installation a\/karpenter/,
    );
    expect(b.node.tryFindChild("pool")).toBeUndefined();
    // its own installation, given or not, is fine
    expect(() => new NodePool(a, "pool", { nodeClass, karpenter: ka })).not.toThrow();
  });

  test("a building-block Ec2NodeClass for a cluster with another literal name is rejected", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const other = testCluster(stack, "other", "other-cluster");
    const nodeClass = new Ec2NodeClass(stack, "default", { cluster: other, role: "r" });
    expect(() => new NodePool(stack, "pool", { nodeClass, karpenter })).toThrow(
      /nodeClass = "test\/default" is invalid: .*belongs to cluster other/,
    );
    const same = new Ec2NodeClass(stack, "same", {
      cluster: karpenter.cluster,
      role: "KarpenterNodeRole-demo",
      version: karpenter.version,
    });
    expect(() => new NodePool(stack, "pool2", { nodeClass: same, karpenter })).not.toThrow();
  });
});

describe("NodePool names are unique per cluster (checked at synth)", () => {
  test("two pools named default of one installation fail synth, naming both paths", () => {
    const { stack } = testStack();
    new KubernetesProvider(stack, "kubernetes", {});
    const karpenter = new FakeInstallation(stack, "karpenter");
    const nodeClass = new Ec2NodeClass(stack, "nc", { karpenter });
    new NodePool(stack, "first", { nodeClass, name: "default" });
    new NodePool(stack, "second", { nodeClass, name: "default" });
    expect(() => Testing.synth(stack, true)).toThrow(
      /^test\/second: name = "default" is invalid: a name no other NodePool on the same cluster has: test\/first is NodePool "default" too \(both belong to the Karpenter installation test\/karpenter\)/,
    );
  });

  test("across stacks, for the same installation", () => {
    const app = Testing.app();
    const eks = providedStack(app, "eks");
    const nodes = providedStack(app, "nodes");
    const karpenter = new FakeInstallation(eks, "karpenter");
    new NodePool(eks, "pool", { karpenter, nodeClass: { name: "x" } });
    new NodePool(nodes, "pool", { karpenter, nodeClass: { name: "x" } });
    expect(() => app.synth()).toThrow(/nodes\/pool: name = "pool" is invalid: .*eks\/pool is NodePool "pool" too/);
  });

  test("pools without an installation: same stack clashes, other stacks do not", () => {
    const same = testStack();
    new NodePool(same.stack, "a", { nodeClass: { name: "x" }, name: "default" });
    new NodePool(same.stack, "b", { nodeClass: { name: "x" }, name: "default" });
    expect(() => Testing.synth(same.stack, true)).toThrow(
      /test\/a is NodePool "default" too \(same stack, and at least one of them names no cluster or installation\)/,
    );

    const app = Testing.app();
    const s1 = providedStack(app, "one");
    const s2 = providedStack(app, "two");
    new NodePool(s1, "pool", { nodeClass: { name: "x" } });
    new NodePool(s2, "pool", { nodeClass: { name: "x" } });
    expect(() => app.synth()).not.toThrow();
  });

  test("installations on different clusters, and a pool and a class sharing a name, are fine", () => {
    const app = Testing.app();
    const a = providedStack(app, "a");
    const b = providedStack(app, "b");
    const ka = new FakeInstallation(a, "karpenter");
    const kb = new FakeInstallation(b, "karpenter");
    new NodePool(a, "pool", { name: "default", nodeClass: new Ec2NodeClass(a, "default", { karpenter: ka }) });
    new NodePool(b, "pool", { name: "default", nodeClass: new Ec2NodeClass(b, "default", { karpenter: kb }) });
    expect(() => app.synth()).not.toThrow();
  });
});

describe("adoptExisting: a NodePool and EC2NodeClass already in the cluster", () => {
  test("imported by name, the field manager forcing conflicts so a later change is not refused", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.14.1");
    const nodeClass = new Ec2NodeClass(stack, "default", { karpenter });
    const pool = new NodePool(stack, "pool", { nodeClass });
    nodeClass.adoptExisting();
    pool.adoptExisting();
    const json = synthJson(stack);
    const objs = byKind(stack);
    expect(json.import.map((i: any) => [i.to, i.id]).sort()).toEqual(
      [
        [objs.EC2NodeClass.addr, "apiVersion=karpenter.k8s.aws/v1,kind=EC2NodeClass,name=default"],
        [objs.NodePool.addr, "apiVersion=karpenter.sh/v1,kind=NodePool,name=pool"],
      ].sort(),
    );
    expect(objs.EC2NodeClass.body.field_manager).toEqual({ force_conflicts: true });
    expect(objs.NodePool.body.field_manager).toEqual({ force_conflicts: true });
    // not adopted: the provider's default field manager (conflicts refused)
    expect(setup().objs.NodePool.body.field_manager).toBeUndefined();
  });
});
