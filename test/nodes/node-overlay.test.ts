import { Lazy, TerraformStack, Token } from "cdktf";
import { Construct } from "constructs";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { runStackChecks } from "../../lib/core/synth-checks";
import { validateApp } from "../../lib/install/validate-app";
import { Karpenter } from "../../lib/install/karpenter";
import { NodeOverlay, NodeOverlayProps } from "../../lib/nodes/node-overlay";
import { CapacityBuffer } from "../../lib/nodes/capacity-buffer";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { evaluateKeyRule, keyRuleTerms } from "../../lib/kubernetes/crd-checks";
import { knownMinors, objectCrd } from "../../lib/versions";
import { FakeInstallation, rejected, resources, synthJson, testCluster, testStack } from "../helpers";

/** An install as the node objects see it, with the NodeOverlay gate as given (undefined: not known). */
class GatedInstallation extends FakeInstallation {
  constructor(
    scope: Construct,
    id: string,
    version: string,
    public readonly nodeOverlayGate?: boolean,
  ) {
    super(scope, id, version);
  }
}

const REQ = { key: "node.kubernetes.io/instance-type", operator: "In" as const, values: ["m5.large"] };

function setup(props: Partial<NodeOverlayProps> = {}, version = "1.15.0", gate: boolean | "unknown" = true) {
  const { app, stack } = testStack();
  const karpenter = new GatedInstallation(stack, "karpenter", version, gate === "unknown" ? undefined : gate);
  const overlay = new NodeOverlay(stack, "discount", { karpenter, requirements: [REQ], ...props });
  return { app, stack, karpenter, overlay };
}

function manifests(stack: TerraformStack): any[] {
  return Object.values(resources(synthJson(stack), "kubernetes_manifest"));
}

function warnings(c: Construct): string[] {
  runStackChecks(TerraformStack.of(c));
  return c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));
}

describe("NodeOverlay: the object", () => {
  test("emits a cluster-scoped karpenter.sh/v1alpha1 NodeOverlay with the spec fields as given, ordered after the controller release", () => {
    const { stack, overlay, karpenter } = setup({
      priceAdjustment: "-10%",
      weight: 10,
      capacity: { "example.com/fuse": "1" },
    });
    const [m] = manifests(stack);
    expect(m.manifest).toEqual({
      apiVersion: "karpenter.sh/v1alpha1",
      kind: "NodeOverlay",
      metadata: { name: "discount" },
      spec: {
        capacity: { "example.com/fuse": "1" },
        priceAdjustment: "-10%",
        requirements: [REQ],
        weight: 10,
      },
    });
    expect(m.depends_on).toEqual([`helm_release.${karpenter.release.friendlyUniqueId}`]);
    expect([overlay.name, overlay.version]).toEqual(["discount", "1.15.0"]);
    expect(NodeOverlay.API_VERSION).toBe("karpenter.sh/v1alpha1");
  });

  test("Karpenter.addNodeOverlay: a child of the install, its gate read from settings, ordered after its release", () => {
    const { stack } = testStack();
    new HelmProvider(stack, "helm", {});
    new KubernetesProvider(stack, "k8s", {});
    const karpenter = new Karpenter(stack, "karpenter", {
      cluster: testCluster(stack),
      settings: { featureGates: { nodeOverlay: true } },
    });
    expect(karpenter.nodeOverlayGate).toBe(true);
    const overlay = karpenter.addNodeOverlay("cheap-spot", {
      requirements: [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["spot"] }],
      price: "0.01",
    });
    expect([overlay.node.id, overlay.name, overlay.karpenter]).toEqual([
      "node-overlay-cheap-spot",
      "cheap-spot",
      karpenter,
    ]);
    const json = synthJson(stack);
    const [m] = Object.values(resources(json, "kubernetes_manifest")) as any[];
    const release = Object.entries(resources(json, "helm_release")).find(
      ([, r]: [string, any]) => r.chart === "karpenter",
    )!;
    expect(m.depends_on).toEqual([`helm_release.${release[0]}`]);
    expect(m.manifest.spec).toEqual({
      price: "0.01",
      requirements: [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["spot"] }],
    });
    // an object of the install in the install's own stack: the first plan fails, and the install says so, naming it
    expect(warnings(karpenter).join("\n")).toContain(
      "test/karpenter/node-overlay-cheap-spot is in stack test together with the Karpenter CRD release",
    );
  });

  test("an install that leaves the nodeOverlay gate off: an error on karpenter that says how to turn it on", () => {
    const { stack } = testStack();
    new HelmProvider(stack, "helm", {});
    const karpenter = new Karpenter(stack, "karpenter", { cluster: testCluster(stack) });
    expect(karpenter.nodeOverlayGate).toBe(false);
    const e = rejected(() => karpenter.addNodeOverlay("x", { requirements: [], price: "1" }));
    expect(e.field).toBe("karpenter");
    expect(e.message).toContain("settings: { featureGates: { nodeOverlay: true } }");
    expect(e.message).toMatch(/^test\/karpenter\/node-overlay-x: karpenter = "test\/karpenter" is invalid/);
  });

  test("a gate not known at synth (a hand-composed install, or no karpenter): a warning, not an error", () => {
    const { overlay } = setup({ price: "1" }, "1.15.0", "unknown");
    expect(warnings(overlay)).toEqual([
      expect.stringContaining(
        "NodeOverlay discount: Karpenter reads NodeOverlays only with the NodeOverlay feature gate",
      ),
    ]);
    const { stack } = testStack();
    const alone = new NodeOverlay(stack, "alone", { requirements: [], price: "1" });
    expect(warnings(alone)).toEqual([expect.stringContaining("has no `karpenter`")]);
    expect(manifests(stack)[0].depends_on).toBeUndefined();
  });

  test("an overlay that changes nothing warns", () => {
    const { overlay } = setup();
    expect(warnings(overlay)).toEqual([expect.stringContaining("sets none of price, priceAdjustment and capacity")]);
  });

  test("a release before 1.7 is refused with the release that added the CRD", () => {
    const e = rejected(() => setup({ price: "1" }, "1.6.8"));
    expect(e.field).toBe("karpenter.version");
    expect(e.message).toContain(
      "Karpenter 1.7 or later: the NodeOverlay CRD ships with the karpenter-crd chart from v1.7.0 on",
    );
    const { stack } = testStack();
    expect(rejected(() => new NodeOverlay(stack, "o", { requirements: [], version: "1.5.8" })).field).toBe("version");
  });

  test("two NodeOverlays with one name on one install fail synth", () => {
    const { app, stack, karpenter } = setup({ price: "1" });
    new NodeOverlay(stack, "again", { karpenter, name: "discount", requirements: [], price: "2" });
    const problems = validateApp(app).errors.map((p) => `${p.path}: ${p.field}`);
    expect(problems).toContain("test/again: name");
  });
});

describe("NodeOverlay: validated against the release's CRD, every problem at once", () => {
  test("each field names what the CRD allows", () => {
    const e = rejected(() =>
      setup({
        name: "Bad_Name",
        price: "cheap",
        priceAdjustment: "+10%",
        weight: 0,
        capacity: { cpu: "1", "example.com/gpu": "lots" },
        requirements: [
          { key: "karpenter.sh/other", operator: "In", values: ["a"] },
          { key: "kubernetes.io/hostname", operator: "Exists" },
          { key: "karpenter.k8s.aws/instance-cpu", operator: "Gt", values: ["-1"] },
          { key: "topology.kubernetes.io/zone", operator: "NotIn" },
          { key: "x", operator: "Like" as never, values: [] },
        ],
      }),
    );
    expect(e.problems.map((p) => p.field)).toEqual([
      "name",
      'capacity["example.com/gpu"]',
      "price",
      "requirements[4].operator",
      "weight",
      "priceAdjustment",
      'capacity["cpu"]',
      "requirements[0].key",
      "requirements[1].key",
      "requirements[2].values[0]",
      "requirements[3].values",
    ]);
    const msg = (f: string) => e.problems.find((p) => p.field === f)!.message;
    expect(msg("price")).toContain("a string matching the CRD's pattern ^\\d+(\\.\\d+)?$");
    expect(msg("weight")).toContain("a whole number from 1 to 10000");
    expect(msg("priceAdjustment")).toContain(`cannot set both 'price' and 'priceAdjustment'`);
    expect(msg('capacity["cpu"]')).toContain("invalid resource restricted");
    expect(msg("requirements[0].key")).toContain(
      'label domain "karpenter.sh" is restricted: of its keys only karpenter.sh/capacity-type, karpenter.sh/nodepool may be used',
    );
    expect(msg("requirements[1].key")).toContain('label "kubernetes.io/hostname" is restricted');
    expect(msg("requirements[2].values[0]")).toContain("a non-negative integer");
    expect(msg("requirements[3].values")).toContain("requirements with operator 'NotIn' must have a value defined");
    expect(msg("requirements[4].operator")).toContain(
      'one of "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte"',
    );
    expect(e.message).toMatch(/^test\/discount: 11 problems/);
  });

  test("requirements is required, and unknown props are named with a did-you-mean", () => {
    const { stack } = testStack();
    const e = rejected(
      () => new NodeOverlay(stack, "o", { prices: "1", requirements: undefined } as unknown as NodeOverlayProps),
    );
    expect(e.problems.map((p) => [p.field, p.message])).toEqual([
      ["prices", expect.stringContaining("did you mean price?")],
      ["requirements", expect.stringContaining("required")],
    ]);
  });

  test("an operator newer than the release: Gte from 1.9", () => {
    const props = {
      price: "1",
      requirements: [{ key: "karpenter.k8s.aws/instance-cpu", operator: "Gte" as const, values: ["4"] }],
    };
    const e = rejected(() => setup(props, "1.8.8"));
    expect(e.field).toBe("requirements[0].operator");
    expect(e.message).toContain("needs Karpenter 1.9 or later");
    expect(() => setup(props, "1.9.2")).not.toThrow();
  });

  test("the key restrictions are the release's own CEL rules: kubernetes.io keys are restricted before 1.9", () => {
    const props = { price: "1", requirements: [{ key: "kubernetes.io/custom", operator: "Exists" as const }] };
    const e = rejected(() => setup(props, "1.8.8"));
    expect(e.message).toContain('label domain "kubernetes.io" is restricted');
    expect(() => setup(props, "1.9.2")).not.toThrow();
    // karpenter.sh/nodepool may be matched by an overlay (unlike a NodePool's requirement)
    expect(() =>
      setup({ price: "1", requirements: [{ key: "karpenter.sh/nodepool", operator: "In", values: ["gpu"] }] }),
    ).not.toThrow();
  });

  test("every requirement-key rule of every release that ships the CRD is of the shape the library reads", () => {
    for (const minor of knownMinors()) {
      const crd = objectCrd(minor, "nodeOverlay");
      if (!crd) continue;
      const keyRules = crd.cel.filter((r) => r.startsWith("spec.requirements[].key: "));
      expect(keyRules.length).toBeGreaterThan(0);
      for (const r of keyRules)
        expect([minor, r, keyRuleTerms(r.slice("spec.requirements[].key: ".length)) !== undefined]).toEqual([
          minor,
          r,
          true,
        ]);
    }
    expect(evaluateKeyRule('self != "kubernetes.io/hostname"', "kubernetes.io/hostname")).toBe(false);
  });

  test("beyond the CRD: values are label values, Exists takes none, capacity is not negative", () => {
    const e = rejected(() =>
      setup({
        capacity: { "example.com/fuse": "-1" },
        requirements: [
          { key: "team", operator: "In", values: ["not a label value"] },
          { key: "gpu", operator: "Exists", values: ["x"] },
        ],
      }),
    );
    expect(e.problems.map((p) => p.field)).toEqual([
      "requirements[0].values[0]",
      "requirements[1].values",
      'capacity["example.com/fuse"]',
    ]);
  });

  test("tokens are not judged", () => {
    expect(() =>
      setup({
        price: Lazy.stringValue({ produce: () => "1" }),
        weight: Lazy.numberValue({ produce: () => 1 }),
        capacity: Token.asAny({}) as never,
        requirements: Token.asAny([]) as never,
      }),
    ).not.toThrow();
  });
});

describe("NodeOverlay: requirements that match no instance type (the NodePool's rules, node-semantic-rules.ts)", () => {
  test("a well-known label value no instance has, a zone of another region and In/NotIn one value: all at once", () => {
    const e = rejected(() =>
      setup({
        price: "1",
        requirements: [
          { key: "kubernetes.io/arch", operator: "In", values: ["x86_64"] },
          { key: "topology.kubernetes.io/zone", operator: "In", values: ["eu-west-1a"] },
          { key: "node.kubernetes.io/instance-type", operator: "In", values: ["m5.large"] },
          { key: "node.kubernetes.io/instance-type", operator: "NotIn", values: ["m5.large"] },
        ],
      }),
    );
    expect(e.problems.map((p) => p.field)).toEqual([
      "requirements[0].values[0]",
      "requirements[1].values[0]",
      "requirements[3]",
    ]);
    const [arch, zone, conflict] = e.problems.map((p) => p.message);
    expect(arch).toContain('no instance carries "x86_64", so this value matches no instance type; write "amd64"');
    expect(zone).toContain("a zone of the cluster's region us-east-1");
    expect(conflict).toContain(
      'a requirement that some node can satisfy together with requirements[2] (node.kubernetes.io/instance-type In ["m5.large"])',
    );
    expect(conflict).toContain("so the NodeOverlay matches no instance type and changes nothing");
  });
  test("look-alikes pass: amd64, a zone of the region, In and NotIn different values, and a zone of any region when no install says the region", () => {
    expect(() =>
      setup({
        price: "1",
        requirements: [
          { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
          { key: "topology.kubernetes.io/zone", operator: "In", values: ["us-east-1a"] },
          { key: "node.kubernetes.io/instance-type", operator: "In", values: ["m5.large", "m5.xlarge"] },
          { key: "node.kubernetes.io/instance-type", operator: "NotIn", values: ["m5.large"] },
        ],
      }),
    ).not.toThrow();
    const { stack } = testStack();
    new NodeOverlay(stack, "o", {
      version: "1.15.0",
      price: "1",
      requirements: [{ key: "topology.kubernetes.io/zone", operator: "In", values: ["eu-west-1a"] }],
    }); // no install: the region is not known
  });
  test("the refusals are ones the agreement stage excuses", () => {
    const ag = require("../../scripts/e2e/agreement.cjs");
    const e = rejected(() =>
      setup({
        price: "1",
        requirements: [
          { key: "kubernetes.io/arch", operator: "In", values: ["x86_64"] },
          { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
          { key: "kubernetes.io/os", operator: "DoesNotExist" },
        ],
      }),
    );
    expect(e.problems.map((p) => ag.semanticRuleOf(p, "1.15.0")?.id)).toEqual([
      "well-known-label-value",
      "unsatisfiable-requirements",
    ]);
  });
});

describe("NodeOverlay: capacity types and regions no offering has (fresh tester 1.29, 1.37)", () => {
  test('karpenter.sh/capacity-type In ["Spot"] is refused, as for a NodePool, with the value to write', () => {
    const e = rejected(() =>
      setup({
        price: "1",
        requirements: [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["Spot"] }],
      }),
    );
    expect(e.code).toBe("NODE_REQUIREMENT_VALUE_UNKNOWN");
    expect(e.field).toBe("requirements[0].values[0]");
    expect(e.message).toContain('a capacity type: "on-demand", "spot", "reserved" for karpenter.sh/capacity-type');
    expect(e.message).toContain('no instance carries "Spot", so this value matches no instance type');
    expect(e.message).toContain('write "spot"');
    const ag = require("../../scripts/e2e/agreement.cjs");
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("well-known-label-value");
  });
  test("a region other than the cluster's is refused", () => {
    const e = rejected(() =>
      setup({
        price: "1",
        requirements: [{ key: "topology.kubernetes.io/region", operator: "In", values: ["eu-west-1"] }],
      }),
    );
    expect(e.code).toBe("NODE_REGION");
    expect(e.field).toBe("requirements[0].values[0]");
    expect(e.message).toContain("the cluster's region us-east-1 for topology.kubernetes.io/region");
    const ag = require("../../scripts/e2e/agreement.cjs");
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("cluster-region");
  });
  test("look-alikes pass: lower-case capacity types, NotIn one of them, the cluster's region, NotIn another region", () => {
    expect(() =>
      setup({
        price: "1",
        requirements: [
          { key: "karpenter.sh/capacity-type", operator: "In", values: ["spot", "on-demand", "reserved"] },
          { key: "topology.kubernetes.io/region", operator: "In", values: ["us-east-1"] },
          { key: "topology.kubernetes.io/region", operator: "NotIn", values: ["eu-west-1"] },
        ],
      }),
    ).not.toThrow();
  });
});

describe("docs/node-objects.md, NodeOverlay and CapacityBuffer, as written", () => {
  function docStacks() {
    const { app, stack } = testStack("infra");
    new HelmProvider(stack, "helm", {});
    const cluster = testCluster(stack);
    const nodes = new TerraformStack(app, "nodes");
    new AwsProvider(nodes, "aws", { region: "us-east-1" });
    new KubernetesProvider(nodes, "kubernetes", {});
    return { stack, cluster, nodes };
  }

  test("the example synthesizes both objects in the node stack, after the controller", () => {
    const { stack, cluster, nodes } = docStacks();
    const self = stack;
    // --- as written, `this` = the infra stack
    const karpenter = new Karpenter(self, "karpenter", {
      cluster,
      settings: { featureGates: { nodeOverlay: true, capacityBuffer: true } },
    });
    // in the node stack, like the node classes and pools
    new NodeOverlay(nodes, "savings-plan", {
      karpenter,
      requirements: [{ key: "karpenter.k8s.aws/instance-family", operator: "In", values: ["m7g", "c7g"] }],
      priceAdjustment: "-20%",
      weight: 10,
    });
    new CapacityBuffer(nodes, "web-headroom", {
      karpenter,
      namespace: "web",
      scalableRef: { apiGroup: "apps", kind: "Deployment", name: "web" },
      percentage: 20,
    });
    // ---
    expect(manifests(nodes).map((m) => m.manifest.kind)).toEqual(["NodeOverlay", "CapacityBuffer"]);
    expect(nodes.dependencies).toContain(stack);
  });

  test("the error shown, line for line", () => {
    const { stack, nodes } = docStacks();
    const karpenter = new Karpenter(stack, "karpenter", {
      cluster: testCluster(stack, "demo", "c2"),
      settings: { featureGates: { nodeOverlay: true } },
    });
    const e = rejected(
      () =>
        new NodeOverlay(nodes, "savings-plan", {
          karpenter,
          requirements: [{ key: "karpenter.sh/other", operator: "In", values: ["a"] }],
          price: "cheap",
          priceAdjustment: "-20%",
        }),
    );
    expect(e.problems.map((p) => p.code)).toEqual([
      "NODEOVERLAY_FORMAT",
      "NODEOVERLAY_PRICE_CONFLICT",
      "NODEOVERLAY_REQUIREMENT",
    ]);
    const doc = require("fs").readFileSync(require("path").join(__dirname, "../../docs/node-objects.md"), "utf8");
    for (const line of e.message.split("\n")) expect(doc).toContain(line);
  });
});
