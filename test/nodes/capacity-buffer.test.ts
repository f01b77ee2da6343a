import { Lazy, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { runStackChecks } from "../../lib/core/synth-checks";
import { validateApp } from "../../lib/install/validate-app";
import { Karpenter } from "../../lib/install/karpenter";
import { CapacityBuffer, CapacityBufferProps } from "../../lib/nodes/capacity-buffer";
import { FakeInstallation, rejected, resources, synthJson, testCluster, testStack } from "../helpers";

/** An install as the node objects see it, with the CapacityBuffer gate as given (undefined: not known). */
class GatedInstallation extends FakeInstallation {
  constructor(
    scope: Construct,
    id: string,
    version: string,
    public readonly capacityBufferGate?: boolean,
  ) {
    super(scope, id, version);
  }
}

function setup(props: Partial<CapacityBufferProps> = {}, version = "1.15.0", gate: boolean | "unknown" = true) {
  const { app, stack } = testStack();
  const karpenter = new GatedInstallation(stack, "karpenter", version, gate === "unknown" ? undefined : gate);
  const buffer = new CapacityBuffer(stack, "spare", {
    karpenter,
    ...(props.podTemplateRef || props.scalableRef || "podTemplateRef" in props
      ? {}
      : { scalableRef: { apiGroup: "apps", kind: "Deployment", name: "web" } }),
    ...props,
  });
  return { app, stack, karpenter, buffer };
}

function manifests(stack: TerraformStack): any[] {
  return Object.values(resources(synthJson(stack), "kubernetes_manifest"));
}

function warnings(c: Construct): string[] {
  runStackChecks(TerraformStack.of(c));
  return c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));
}

describe("CapacityBuffer: the object", () => {
  test("emits a namespaced autoscaling.x-k8s.io/v1beta1 CapacityBuffer (namespace default), ordered after the controller release", () => {
    const { stack, karpenter, buffer } = setup({ percentage: 20, limits: { cpu: "8" } });
    const [m] = manifests(stack);
    expect(m.manifest).toEqual({
      apiVersion: "autoscaling.x-k8s.io/v1beta1",
      kind: "CapacityBuffer",
      metadata: { name: "spare", namespace: "default" },
      spec: {
        limits: { cpu: "8" },
        percentage: 20,
        scalableRef: { apiGroup: "apps", kind: "Deployment", name: "web" },
      },
    });
    expect(m.depends_on).toEqual([`helm_release.${karpenter.release.friendlyUniqueId}`]);
    expect([buffer.name, buffer.namespace, buffer.version]).toEqual(["spare", "default", "1.15.0"]);
    expect(warnings(buffer)).toEqual([]);
  });

  test("Karpenter.addCapacityBuffer: a child of the install, its gate read from settings (values merged last)", () => {
    const { stack } = testStack();
    new HelmProvider(stack, "helm", {});
    new KubernetesProvider(stack, "k8s", {});
    const karpenter = new Karpenter(stack, "karpenter", {
      cluster: testCluster(stack),
      version: "1.14.1",
      values: { settings: { featureGates: { capacityBuffer: true } } },
    });
    expect(karpenter.capacityBufferGate).toBe(true);
    const buffer = karpenter.addCapacityBuffer("ci-runners", {
      namespace: "ci",
      podTemplateRef: { name: "runner" },
      replicas: 3,
    });
    expect([buffer.node.id, buffer.name, buffer.karpenter]).toEqual([
      "capacity-buffer-ci-runners",
      "ci-runners",
      karpenter,
    ]);
    const json = synthJson(stack);
    const [m] = Object.values(resources(json, "kubernetes_manifest")) as any[];
    const [release] = Object.entries(resources(json, "helm_release")).find(
      ([, r]: [string, any]) => r.chart === "karpenter",
    )!;
    expect(m.depends_on).toEqual([`helm_release.${release}`]);
    expect(m.manifest.metadata).toEqual({ name: "ci-runners", namespace: "ci" });
    expect(m.manifest.spec).toEqual({ podTemplateRef: { name: "runner" }, replicas: 3 });
  });

  test("an install that leaves the capacityBuffer gate off: an error on karpenter", () => {
    const e = rejected(() => setup({}, "1.15.0", false));
    expect(e.field).toBe("karpenter");
    expect(e.message).toContain("Set settings: { featureGates: { capacityBuffer: true } } on that Karpenter");
  });

  test("a gate not known at synth: a warning", () => {
    const { buffer } = setup({ replicas: 1 }, "1.15.0", "unknown");
    expect(warnings(buffer)).toEqual([
      expect.stringContaining("Karpenter reads CapacityBuffers only with the CapacityBuffer feature gate"),
    ]);
  });

  test("a release before 1.14 is refused with the release that added the CRD", () => {
    const e = rejected(() => setup({ replicas: 1 }, "1.13.1"));
    expect(e.field).toBe("karpenter.version");
    expect(e.message).toContain(
      "Karpenter 1.14 or later: the CapacityBuffer CRD ships with the karpenter-crd chart from v1.14.0 on",
    );
  });

  test("warnings: percentage without scalableRef, a strategy Karpenter does not provision", () => {
    const { buffer } = setup({
      podTemplateRef: { name: "t" },
      replicas: 1,
      percentage: 10,
      provisioningStrategy: "example.com/other",
    });
    expect(warnings(buffer)).toEqual([
      expect.stringContaining("percentage is ignored"),
      expect.stringContaining('provisioningStrategy "example.com/other" is not buffer.x-k8s.io/active-capacity'),
    ]);
  });

  test("two buffers with one name share a cluster only in one namespace", () => {
    const { app, stack, karpenter } = setup({ replicas: 1 });
    new KubernetesProvider(stack, "k8s", {});
    new CapacityBuffer(stack, "other-ns", {
      karpenter,
      name: "spare",
      namespace: "ci",
      podTemplateRef: { name: "t" },
      replicas: 1,
    });
    expect(validateApp(app).errors).toEqual([]);
    new CapacityBuffer(stack, "same-ns", { karpenter, name: "spare", podTemplateRef: { name: "t" }, replicas: 1 });
    expect(validateApp(app).errors.map((p) => `${p.path}: ${p.field}`)).toEqual(["test/same-ns: name"]);
  });
});

describe("CapacityBuffer: validated against the release's CRD, every problem at once", () => {
  test("both references, bounds, required and non-empty fields, the namespace", () => {
    const e = rejected(() =>
      setup({
        name: "Spare",
        namespace: "CI",
        podTemplateRef: { name: "" },
        scalableRef: { kind: "", name: "web" },
        replicas: -1,
        percentage: 1.5,
        limits: { cpu: "lots" },
      }),
    );
    expect(e.problems.map((p) => p.field)).toEqual([
      "name",
      "namespace",
      'limits["cpu"]',
      "percentage",
      "podTemplateRef.name",
      "replicas",
      "scalableRef.kind",
      "scalableRef",
    ]);
    const both = rejected(() =>
      setup({ podTemplateRef: { name: "t" }, scalableRef: { kind: "Deployment", name: "web" }, replicas: 1 }),
    );
    expect(both.problems.map((p) => [p.field, p.message])).toEqual([
      ["scalableRef", expect.stringContaining("You must define either PodTemplateRef or ScalableRef, but not both")],
    ]);
    expect([both.code, both.problems[0].code]).toEqual(["CAPACITYBUFFER_REF_CONFLICT", "CAPACITYBUFFER_REF_CONFLICT"]);
  });

  test("podTemplateRef needs replicas or limits; a buffer needs one of the two references", () => {
    const e = rejected(() => setup({ podTemplateRef: { name: "t" } }));
    expect(e.problems.map((p) => [p.field, p.message])).toEqual([
      ["replicas", expect.stringContaining("If podTemplateRef is set, replicas or limits must also be set")],
    ]);
    expect(() => setup({ podTemplateRef: { name: "t" }, limits: { cpu: "4" } })).not.toThrow();
    const neither = rejected(() => setup({ podTemplateRef: undefined, replicas: 2 }));
    expect(neither.problems.map((p) => p.field)).toEqual(["podTemplateRef"]);
    expect(neither.code).toBe("CAPACITYBUFFER_REF_REQUIRED");
    expect(neither.message).toContain("Exactly one of `podTemplateRef`, `scalableRef` should be specified");
  });

  test("required reference fields and unknown ones are named", () => {
    const e = rejected(() =>
      setup({ scalableRef: { name: "web", kinds: "Deployment" } as never, replica: 2 } as Partial<CapacityBufferProps>),
    );
    expect(e.problems.map((p) => [p.field, p.message])).toEqual([
      ["replica", expect.stringContaining("did you mean replicas?")],
      ["scalableRef.kinds", expect.stringContaining("did you mean kind?")],
      ["scalableRef.kind", expect.stringContaining("required")],
    ]);
  });

  test("tokens are not judged", () => {
    expect(() =>
      setup({
        replicas: Lazy.numberValue({ produce: () => -1 }),
        namespace: Lazy.stringValue({ produce: () => "ci" }),
        limits: Lazy.anyValue({ produce: () => ({}) }) as never,
      }),
    ).not.toThrow();
  });
});

describe("CapacityBuffer: what Karpenter's buffer controller resolves and counts", () => {
  test("a scalableRef group other than apps and a kind Karpenter does not resolve: both at once", () => {
    const e = rejected(() => setup({ scalableRef: { apiGroup: "apps/v1", kind: "deployments", name: "web" } }));
    expect(e.problems.map((p) => p.field)).toEqual(["scalableRef.apiGroup", "scalableRef.kind"]);
    const [group, kind] = e.problems.map((p) => p.message);
    expect(group).toContain(
      '"apps" (or unset, which Karpenter reads as "apps") (an API group names no version: "apps", not "apps/v1")',
    );
    expect(group).toContain('fails any other group with "unsupported scalableRef API group"');
    expect(kind).toContain(
      "one of Deployment, StatefulSet, ReplicaSet (did you mean Deployment? Kinds are case-sensitive and singular)",
    );
    expect(
      rejected(() => setup({ scalableRef: { apiGroup: "", kind: "ReplicationController", name: "rc" } })).field,
    ).toBe("scalableRef.kind");
    expect(rejected(() => setup({ scalableRef: { apiGroup: "batch", kind: "Deployment", name: "w" } })).field).toBe(
      "scalableRef.apiGroup",
    );
  });
  test("look-alikes: apps, an empty or unset group (read as apps), each kind Karpenter resolves, a token group", () => {
    for (const scalableRef of [
      { apiGroup: "apps", kind: "Deployment", name: "web" },
      { apiGroup: "", kind: "Deployment", name: "web" },
      { kind: "StatefulSet", name: "db" },
      { apiGroup: "apps", kind: "ReplicaSet", name: "rs" },
      { apiGroup: Lazy.stringValue({ produce: () => "apps" }), kind: "Deployment", name: "web" },
    ])
      expect(() => setup({ scalableRef })).not.toThrow();
  });
  test("the refusals are ones the agreement stage excuses", () => {
    const ag = require("../../scripts/e2e/agreement.cjs");
    const e = rejected(() => setup({ scalableRef: { apiGroup: "apps/v1", kind: "Job", name: "web" } }));
    expect(e.problems.map((p) => ag.semanticRuleOf(p, "1.15.0")?.id)).toEqual([
      "capacity-buffer-scalable-ref",
      "capacity-buffer-scalable-ref",
    ]);
  });
  test("limits keys no pod requests warn with the NodePool's did-you-mean; real resources do not", () => {
    const { buffer } = setup({
      podTemplateRef: { name: "t" },
      limits: { cpus: "10", memroy: "10Gi", cpu: "4", "nvidia.com/gpu": "1", "hugepages-2Mi": "1Gi" },
    });
    const w = warnings(buffer);
    expect(w).toHaveLength(2);
    expect(w[0]).toContain('CapacityBuffer spare: limits["cpus"] names no resource a pod requests (did you mean cpu?)');
    expect(w[1]).toContain('limits["memroy"] names no resource a pod requests (did you mean memory?)');
    expect(w[1]).toContain("so this limit never limits the buffer");
  });
  test("a podTemplateRef.name that is no DNS-1123 subdomain is refused; a valid name passes (fresh tester 7.10)", () => {
    const e = rejected(() => setup({ podTemplateRef: { name: "Bad Name" }, replicas: 1 }));
    expect(e.code).toBe("CAPACITYBUFFER_NOT_A_DNS_NAME");
    expect(e.field).toBe("podTemplateRef.name");
    expect(e.message).toContain('no PodTemplate can have the name "Bad Name", so the reference never resolves');
    const ag = require("../../scripts/e2e/agreement.cjs");
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("capacity-buffer-pod-template-name");
    expect(() => setup({ podTemplateRef: { name: "web-chunk.v2" }, replicas: 1 })).not.toThrow();
  });
  test("limits keys that look like an AWS extended resource but are none warn with the NodePool's did-you-mean", () => {
    const { buffer } = setup({
      podTemplateRef: { name: "t" },
      limits: {
        "nvidia.com/gpus": "1",
        "aws.amazon.com/neuroncores": "1",
        "nvidia.com/gpu": "1",
        "example.com/x": "1",
      },
    });
    const w = warnings(buffer);
    expect(w).toHaveLength(2);
    expect(w[0]).toContain(
      'CapacityBuffer spare: limits["nvidia.com/gpus"] names no resource Karpenter\'s AWS instance types advertise (did you mean nvidia.com/gpu',
    );
    expect(w[1]).toContain('limits["aws.amazon.com/neuroncores"] names no resource');
    expect(w[1]).toContain("did you mean aws.amazon.com/neuroncore");
    expect(w[1]).toContain("this limit never limits the buffer");
  });
});
