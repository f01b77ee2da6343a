import { Construct } from "constructs";
import { convertLegacyManifests } from "../../lib/convert";
import { build, Props, rejection } from "./node-props";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { FakeInstallation, testStack } from "../helpers";

/*
 * The sixth fresh tester's findings (fresh6-report.md, A and K5/K24): from 1.15 Karpenter strict-decodes the free-form
 * spec.kubelet into k8s.io/kubelet's KubeletConfiguration (karpenter-provider-aws v1.15.0
 * pkg/apis/v1/kubeletconfiguration_validation.go) and fails the class on an unknown field, a wrong JSON type, a
 * malformed duration, registerWithTaints, a bad evictionMinimumReclaim and a negative evictionMaxPodGracePeriod.
 * Each invalid input has a valid look-alike; each rule has its agreement entry (scripts/e2e/agreement.cjs).
 */

const ag = require("../../scripts/e2e/agreement.cjs");
const V = "1.15.0";
const kubelet = (k: { [f: string]: unknown }) => ({ kubelet: k }) as Props;
const warningsOf = (c: Construct): string[] =>
  c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));

describe.each([
  // [what, kubelet, code, field, message part, agreement rule]
  [
    "K23 an unknown field",
    { fooBar: 1 },
    "EC2NODECLASS_KUBELET_NOT_A_FIELD",
    "kubelet.fooBar",
    '"fooBar" is none',
    "kubelet-upstream-decode",
  ],
  [
    "K5 a wrongly cased field",
    { MaxPods: 50 },
    "EC2NODECLASS_KUBELET_NOT_A_FIELD",
    "kubelet.MaxPods",
    "Did you mean maxPods (names are case-sensitive)?",
    "kubelet-upstream-decode",
  ],
  [
    "K11 a spec field under kubelet",
    { enclaveOptions: {} },
    "EC2NODECLASS_KUBELET_NOT_A_FIELD",
    "kubelet.enclaveOptions",
    "a field of the EC2NodeClass spec, not of kubelet",
    "kubelet-upstream-decode",
  ],
  [
    "K4 a wrong JSON type",
    { featureGates: "x" },
    "EC2NODECLASS_KUBELET_FIELD_TYPE",
    "kubelet.featureGates",
    "a map of booleans (true or false) (Go map[string]bool), got a string",
    "kubelet-upstream-decode",
  ],
  [
    "a fraction in an int32",
    { registryPullQPS: 1.5 },
    "EC2NODECLASS_KUBELET_FIELD_TYPE",
    "kubelet.registryPullQPS",
    "from -2147483648 to 2147483647 (Go *int32), got 1.5",
    "kubelet-upstream-decode",
  ],
  [
    "K30 a number in a duration",
    { evictionPressureTransitionPeriod: 5 },
    "EC2NODECLASS_KUBELET_FIELD_TYPE",
    "kubelet.evictionPressureTransitionPeriod",
    "(Go metav1.Duration), got a number",
    "kubelet-upstream-decode",
  ],
  [
    "K2 an invalid duration",
    { shutdownGracePeriod: "30x" },
    "EC2NODECLASS_KUBELET_DURATION",
    "kubelet.shutdownGracePeriod",
    "metav1.Duration, which decodes only what time.ParseDuration reads",
    "kubelet-upstream-decode",
  ],
  [
    "K19 an invalid duration",
    { imageMaximumGCAge: "1x" },
    "EC2NODECLASS_KUBELET_DURATION",
    "kubelet.imageMaximumGCAge",
    "validateAgainstUpstreamType",
    "kubelet-upstream-decode",
  ],
  [
    "K27 registerWithTaints",
    { registerWithTaints: [{ key: "a", effect: "NoSchedule" }] },
    "EC2NODECLASS_KUBELET_KARPENTER_OWNED",
    "kubelet.registerWithTaints",
    "karpenterOwnedFields",
    "kubelet-karpenter-owned",
  ],
  [
    "K28 a negative reclaim",
    { evictionMinimumReclaim: { "memory.available": "-1Gi" } },
    "EC2NODECLASS_KUBELET_EVICTION",
    'kubelet.evictionMinimumReclaim["memory.available"]',
    "validateEvictionThreshold",
    "kubelet-eviction-threshold",
  ],
  [
    "K29 a reclaim key that is no signal",
    { evictionMinimumReclaim: { "cpu.available": "1" } },
    "EC2NODECLASS_KUBELET_EVICTION",
    'kubelet.evictionMinimumReclaim["cpu.available"]',
    "isn't a valid eviction signal",
    "kubelet-eviction-threshold",
  ],
  [
    "a reclaim percentage above 100",
    { evictionMinimumReclaim: { "memory.available": "101%" } },
    "EC2NODECLASS_KUBELET_EVICTION",
    'kubelet.evictionMinimumReclaim["memory.available"]',
    "a percentage outside 0 to 100",
    "kubelet-eviction-threshold",
  ],
  [
    "a negative hard threshold",
    { evictionHard: { "memory.available": "-1Gi" } },
    "EC2NODECLASS_KUBELET_EVICTION",
    'kubelet.evictionHard["memory.available"]',
    "a negative quantity",
    "kubelet-eviction-threshold",
  ],
  [
    "a negative evictionMaxPodGracePeriod",
    { evictionMaxPodGracePeriod: -1 },
    "EC2NODECLASS_KUBELET_NEGATIVE",
    "kubelet.evictionMaxPodGracePeriod",
    "validateKubeletSemantics",
    "kubelet-negative",
  ],
])("%s", (_what, k, code, field, part, rule) => {
  test("is refused on 1.15, naming the upstream source, and the agreement stage knows the rule", () => {
    const e = rejection("EC2NodeClass", kubelet(k), V);
    expect(e.code).toBe(code);
    expect(e.field).toBe(field);
    expect(e.message).toContain(part);
    expect(e.message).toContain("karpenter-provider-aws@v1.15.0 pkg/apis/v1/kubeletconfiguration_validation.go");
    expect(ag.semanticRuleOf(e, V)?.id).toBe(rule);
  });
});

describe("look-alikes pass on 1.15", () => {
  test.each([
    { imageMaximumGCAge: "1h" },
    { featureGates: { RotateKubeletServerCertificate: true } },
    { shutdownGracePeriod: "30s", shutdownGracePeriodCriticalPods: "10s" },
    { evictionPressureTransitionPeriod: "5m" },
    { registryPullQPS: 5, memoryThrottlingFactor: 0.9 },
    { maxPods: 50 },
    { evictionMinimumReclaim: { "memory.available": "10%", "nodefs.available": "500Mi" } },
    { evictionHard: { "memory.available": "100Mi" } },
    { evictionMaxPodGracePeriod: 0 },
    { tlsCipherSuites: ["TLS_AES_128_GCM_SHA256"], allowedUnsafeSysctls: ["net.core.somaxconn"] },
    { shutdownGracePeriodByPodPriority: [{ priority: 0, shutdownGracePeriodSeconds: 30 }] },
    { cpuManagerPolicy: "static", cpuManagerPolicyOptions: { "full-pcpus-only": "true" } },
  ])("%j", (k) => {
    expect(() => build("EC2NodeClass", kubelet(k), V)).not.toThrow();
  });

  test("an unresolved token is never judged", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", V);
    const { Fn } = require("cdktf");
    const token = Fn.lookup({ a: "b" }, "a", "c");
    expect(
      () =>
        new Ec2NodeClass(stack, "nc", {
          karpenter,
          kubelet: { featureGates: token, shutdownGracePeriod: token, evictionMinimumReclaim: token } as any,
        }),
    ).not.toThrow();
  });

  test("a percentage with more than two decimals: Karpenter 1.15's rule (any number from 0 to 100), the CRD's pattern before", () => {
    // karpenter-provider-aws v1.15.0 validateEvictionThreshold: strconv.ParseFloat, 0 <= v <= 100
    expect(() => build("EC2NodeClass", kubelet({ evictionHard: { "memory.available": "5.555%" } }), V)).not.toThrow();
    expect(rejection("EC2NodeClass", kubelet({ evictionHard: { "memory.available": "100.5%" } }), V).code).toBe(
      "EC2NODECLASS_KUBELET_EVICTION",
    );
    // the v1.14.1 CRD's pattern: at most two decimals
    expect(rejection("EC2NodeClass", kubelet({ evictionHard: { "memory.available": "5.555%" } }), "1.14.1").code).toBe(
      "EC2NODECLASS_FORMAT",
    );
  });

  test("before 1.15 the typed CRD refuses the field as before (no upstream table)", () => {
    const e = rejection("EC2NodeClass", kubelet({ fooBar: 1 }), "1.14.1");
    expect(e.code).toBe("EC2NODECLASS_UNKNOWN_FIELD");
    expect(() => build("EC2NodeClass", kubelet({ evictionMaxPodGracePeriod: -1 }), "1.14.1")).not.toThrow();
  });
});

test("every problem of a class at once", () => {
  const e = rejection(
    "EC2NodeClass",
    kubelet({
      fooBar: 1,
      featureGates: "x",
      shutdownGracePeriod: "30x",
      registerWithTaints: [],
      evictionMaxPodGracePeriod: -1,
    }),
    V,
  );
  expect(e.problems.map((p) => p.code).sort()).toEqual([
    "EC2NODECLASS_KUBELET_DURATION",
    "EC2NODECLASS_KUBELET_FIELD_TYPE",
    "EC2NODECLASS_KUBELET_KARPENTER_OWNED",
    "EC2NODECLASS_KUBELET_NEGATIVE",
    "EC2NODECLASS_KUBELET_NOT_A_FIELD",
  ]);
});

test("Bottlerocket keeps its 12-field rule; registerWithTaints is refused as Karpenter's own there too", () => {
  const e = rejection(
    "EC2NodeClass",
    { amiSelectorTerms: [{ alias: "bottlerocket@latest" }], kubelet: { fooBar: 1, registerWithTaints: [] } } as Props,
    V,
  );
  expect(e.problems.map((p) => `${p.field} ${p.code}`).sort()).toEqual([
    "kubelet.fooBar EC2NODECLASS_KUBELET_UNKNOWN_FIELD",
    "kubelet.registerWithTaints EC2NODECLASS_KUBELET_KARPENTER_OWNED",
  ]);
});

test("K24: no 'passed as written' warning for a key that is no KubeletConfiguration field", () => {
  const { stack } = testStack();
  const karpenter = new FakeInstallation(stack, "karpenter", V);
  // a real field that looks like a typed one still gets the typo warning; MaxPods is an error, not a warning
  const nc = new Ec2NodeClass(stack, "nc", { karpenter, kubelet: { maxPods: 50, podPidsLimit: 100 } as any });
  expect(warningsOf(nc).filter((w) => w.includes("passed to the kubelet as written"))).toEqual([]);
  expect(() => new Ec2NodeClass(stack, "nc2", { karpenter, kubelet: { maxPods: 50, MaxPods: 50 } as any })).toThrow(
    /EC2NODECLASS_KUBELET_NOT_A_FIELD/,
  );
});

test("CL18: convert notes a v1 EC2NodeClass whose kubelet Karpenter 1.15 refuses as invalid", () => {
  const yaml = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: { name: default }
spec:
  role: KarpenterNodeRole-demo
  amiSelectorTerms: [{ alias: al2023@latest }]
  subnetSelectorTerms: [{ tags: { karpenter.sh/discovery: demo } }]
  securityGroupSelectorTerms: [{ tags: { karpenter.sh/discovery: demo } }]
  kubelet: { featureGates: "x", fooBar: 1, registryPullQPS: 5 }
`;
  const r = convertLegacyManifests(yaml, { version: "1.15.0" });
  const invalid = r.ec2NodeClasses[0].notes.filter((n) => n.invalid).map((n) => n.field);
  expect(invalid.sort()).toEqual(["spec.kubelet.featureGates", "spec.kubelet.fooBar"]);
});

describe("fresh6 B: kubelet CEL expressions the literal text decides (nodeClassCEL on)", () => {
  class CelInstallation extends FakeInstallation {
    public readonly nodeClassCel = true;
  }
  const make = (k: { [f: string]: unknown }) => {
    const { stack } = testStack();
    const karpenter = new CelInstallation(stack, "karpenter", V);
    return () => new Ec2NodeClass(stack, "nc", { karpenter, kubelet: k as any });
  };
  test.each([
    [
      "K7 a string",
      { maxPodsExpression: "'110'" },
      "kubelet.maxPodsExpression",
      "expression must return int or double",
    ],
    [
      "K6 integer division by zero",
      { maxPodsExpression: "vcpus / 0" },
      "kubelet.maxPodsExpression",
      "CEL integer division by zero",
    ],
    [
      "K18 a negative constant reservation",
      { kubeReserved: { memory: "0 - 100" } },
      'kubelet.kubeReserved["memory"]',
      "evaluated to a negative value",
    ],
  ])("%s is refused", (_what, k, field, part) => {
    let e: any;
    try {
      make(k)();
    } catch (x) {
      e = x;
    }
    expect(e?.code).toBe("EC2NODECLASS_KUBELET_EXPRESSION");
    expect(e.field).toBe(field);
    expect(e.message).toContain(part);
    expect(e.message).toContain("karpenter-provider-aws@v1.15.0 pkg/");
    expect(ag.semanticRuleOf(e, V)?.id).toBe("kubelet-cel-expression");
  });
  test.each([
    { maxPodsExpression: "vcpus / 2" },
    { maxPodsExpression: "instance_type == 'm5.large' ? 10 : 20" },
    { maxPodsExpression: "vcpus > 0 ? 100 / vcpus : 0" },
    { kubeReserved: { memory: "100 - 0" } },
    { systemReserved: { cpu: "max(60, vcpus * 30)" } },
  ])("look-alike %j passes", (k) => {
    expect(make(k)).not.toThrow();
  });
});
