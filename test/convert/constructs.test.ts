import { CapacityBuffer, Ec2NodeClass, NodeOverlay, NodePool } from "../../lib";
import { convertLegacyManifests, LegacyConversionResult, toV1Manifest } from "../../lib/convert";
import { FakeInstallation, resources, synthJson, testStack, thrown } from "../helpers";
import { awsNodeTemplate, provisioner } from "./util";

// Converted objects go through the same synth-time validation as hand-written ones.

/** Builds every converted object with the constructs and returns the emitted manifests by name. */
function build(result: LegacyConversionResult): { [kindAndName: string]: any } {
  const { stack } = testStack();
  const classes = new Map(
    result.ec2NodeClasses.map((c) => [c.name, new Ec2NodeClass(stack, `class-${c.name}`, c.props)]),
  );
  for (const p of result.nodePools)
    new NodePool(stack, `pool-${p.name}`, {
      ...p.props,
      nodeClass: classes.get(p.nodeClassRef!.name) ?? p.nodeClassRef!,
    });
  const manifests = Object.values(resources(synthJson(stack), "kubernetes_manifest")).map((r: any) => r.manifest);
  return Object.fromEntries(manifests.map((m) => [`${m.kind}/${m.metadata.name}`, m]));
}

const SELECTORS =
  "subnetSelector: { karpenter.sh/discovery: demo }\nsecurityGroupSelector: { karpenter.sh/discovery: demo }";

describe("converted objects in the constructs", () => {
  test.each([
    [
      "Provisioner + AWSNodeTemplate with every convertible field",
      provisioner(
        "full",
        `
        providerRef: { name: full }
        labels: { team: a }
        annotations: { karpenter.sh/do-not-evict: "true" }
        taints: [{ key: dedicated, value: a, effect: NoSchedule }]
        startupTaints: [{ key: example.com/init, effect: NoExecute }]
        requirements: [{ key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m] }]
        kubeletConfiguration: { maxPods: 30, systemReserved: { cpu: 100m }, imageGCHighThresholdPercent: 85, imageGCLowThresholdPercent: 80 }
        consolidation: { enabled: true }
        ttlSecondsUntilExpired: 604800
        limits: { resources: { cpu: 100, memory: 400Gi } }
        weight: 10
      `,
      ) +
        "---\n" +
        awsNodeTemplate(
          "full",
          SELECTORS,
          `
          instanceProfile: KarpenterNodeInstanceProfile-demo
          amiFamily: Bottlerocket
          tags: { team: a }
          blockDeviceMappings: [{ deviceName: /dev/xvdb, ebs: { volumeSize: 100Gi, volumeType: gp3, encrypted: true } }]
          metadataOptions: { httpTokens: required, httpPutResponseHopLimit: 2 }
          detailedMonitoring: true
        `,
        ),
    ],
    [
      "v1beta1 NodePool + EC2NodeClass",
      `apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata: { name: beta }
spec:
  template:
    spec:
      nodeClassRef: { apiVersion: karpenter.k8s.aws/v1beta1, kind: EC2NodeClass, name: beta }
      requirements: [{ key: karpenter.sh/capacity-type, operator: In, values: [on-demand] }]
      kubelet: { maxPods: 10 }
  disruption: { consolidationPolicy: WhenUnderutilized, expireAfter: 720h, budgets: [{ nodes: "10%" }] }
---
apiVersion: karpenter.k8s.aws/v1beta1
kind: EC2NodeClass
metadata: { name: beta }
spec:
  amiFamily: AL2023
  role: KarpenterNodeRole-demo
  subnetSelectorTerms: [{ id: subnet-00000abc }]
  securityGroupSelectorTerms: [{ name: eks-cluster-sg }]
`,
    ],
    [
      "two Provisioners of one AWSNodeTemplate with different kubelets (the class is split)",
      provisioner(
        "small",
        "providerRef: { name: shared }\nkubeletConfiguration: { maxPods: 10 }\nttlSecondsAfterEmpty: 30\nttlSecondsUntilExpired: 2592000",
      ) +
        "---\n" +
        provisioner(
          "large",
          "providerRef: { name: shared }\nkubeletConfiguration: { maxPods: 110 }\nttlSecondsAfterEmpty: 30\nttlSecondsUntilExpired: 2592000",
        ) +
        "---\n" +
        awsNodeTemplate("shared", SELECTORS, "instanceProfile: KarpenterNodeInstanceProfile-demo"),
    ],
  ])("%s: accepted, and the constructs emit exactly the converted v1 manifests", (_, yaml) => {
    const result = convertLegacyManifests(yaml);
    const emitted = build(result);
    expect(Object.keys(emitted).sort()).toEqual(result.objects.map((o) => `${o.kind}/${o.name}`).sort());
    for (const o of result.objects) expect(emitted[`${o.kind}/${o.name}`]).toEqual(toV1Manifest(o));
    // no conversion note reports a validation failure
    expect(result.objects.flatMap((o) => o.notes).filter((n) => n.message.includes("is invalid in Karpenter"))).toEqual(
      [],
    );
  });

  test("a split class and human durations reach the emitted manifests", () => {
    const pool = (name: string, maxPods: number) =>
      provisioner(
        name,
        `providerRef: { name: shared }\nkubeletConfiguration: { maxPods: ${maxPods} }\nttlSecondsUntilExpired: 2592000`,
      );
    const emitted = build(
      convertLegacyManifests(
        [pool("small", 10), pool("large", 110), awsNodeTemplate("shared", SELECTORS, "instanceProfile: p")].join(
          "---\n",
        ),
      ),
    );
    expect(emitted["EC2NodeClass/shared"].spec.kubelet).toEqual({ maxPods: 10 });
    expect(emitted["EC2NodeClass/shared-large"].spec.kubelet).toEqual({ maxPods: 110 });
    expect(emitted["NodePool/large"].spec.template.spec).toMatchObject({
      nodeClassRef: { name: "shared-large" },
      expireAfter: "720h",
    });
    expect(emitted["NodePool/small"].spec.template.spec.nodeClassRef.name).toBe("shared");
  });

  test("the role option gives the node class a role", () => {
    const result = convertLegacyManifests(awsNodeTemplate("default", SELECTORS, "instanceProfile: old"), {
      role: "KarpenterNodeRole-demo",
    });
    expect(build(result)["EC2NodeClass/default"].spec).toMatchObject({ role: "KarpenterNodeRole-demo" });
    expect(build(result)["EC2NodeClass/default"].spec.instanceProfile).toBeUndefined();
  });

  test("a kept instanceProfile warns when the class is built with an installation; the role option does not", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const warnings = (c: Ec2NodeClass) =>
      c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));
    const kept = convertLegacyManifests(
      awsNodeTemplate("kept", SELECTORS, "instanceProfile: KarpenterNodeInstanceProfile-demo"),
    ).ec2NodeClasses[0];
    const w = warnings(new Ec2NodeClass(stack, "kept", { karpenter, ...kept.props }));
    expect(w).toHaveLength(1);
    expect(w[0]).toContain(
      'EC2NodeClass kept: instanceProfile "KarpenterNodeInstanceProfile-demo" is used instead of a role',
    );
    const withRole = convertLegacyManifests(
      awsNodeTemplate("role", SELECTORS, "instanceProfile: KarpenterNodeInstanceProfile-demo"),
      { role: "KarpenterNodeRole-demo" },
    ).ec2NodeClasses[0];
    expect(warnings(new Ec2NodeClass(stack, "role", { karpenter, ...withRole.props }))).toEqual([]);
  });

  test("amiFamily Custom without amiSelector: noted by the converter and rejected by Ec2NodeClass", () => {
    const cls = convertLegacyManifests(awsNodeTemplate("custom", SELECTORS, "instanceProfile: p\namiFamily: Custom"))
      .ec2NodeClasses[0];
    expect(cls.notes.some((n) => n.level === "action" && n.field === "spec.amiFamily")).toBe(true);
    const e = thrown(() => new Ec2NodeClass(testStack().stack, "custom", cls.props));
    expect(e.message).toBe(
      "test/custom: amiSelectorTerms = undefined is invalid: AMI selector terms (id, name, tags or ssmParameter): amiFamily Custom has no EKS-optimized alias to default to [EC2NODECLASS_AMI_SELECTOR_TERMS]",
    );
  });

  test("Ubuntu without amiSelector: the empty placeholder is rejected by Ec2NodeClass", () => {
    const cls = convertLegacyManifests(awsNodeTemplate("ubuntu", SELECTORS, "instanceProfile: p\namiFamily: Ubuntu"))
      .ec2NodeClasses[0];
    expect(() => new Ec2NodeClass(testStack().stack, "ubuntu", cls.props)).toThrow(
      /^test\/ubuntu: amiSelectorTerms = \[\] is invalid/,
    );
  });

  test("a requirement on karpenter.sh/provisioner-name: noted by the converter and rejected by NodePool", () => {
    const pool = convertLegacyManifests(
      provisioner(
        "p",
        "providerRef: { name: default }\nrequirements: [{ key: karpenter.sh/provisioner-name, operator: Exists }]",
      ),
    ).nodePools[0];
    expect(pool.notes.find((n) => n.field === "spec.template.spec.requirements[0].key")?.message).toContain(
      'label domain "karpenter.sh" is restricted',
    );
    expect(() => new NodePool(testStack().stack, "p", { ...pool.props, nodeClass: pool.nodeClassRef! })).toThrow(
      /^test\/p: requirements\[0\]\.key = "karpenter\.sh\/provisioner-name" is invalid: label domain "karpenter\.sh" is restricted/,
    );
  });

  test("a volume size v1 does not accept (bytes not a whole GiB) is noted and rejected by Ec2NodeClass", () => {
    const cls = convertLegacyManifests(
      awsNodeTemplate(
        "bd",
        SELECTORS,
        "instanceProfile: p\nblockDeviceMappings: [{ deviceName: /dev/xvda, ebs: { volumeSize: 1000000 } }]",
      ),
    ).ec2NodeClasses[0];
    expect(cls.props.blockDeviceMappings![0].ebs!.volumeSize).toBe("1000000");
    expect(
      cls.notes.some((n) => n.field === "spec.blockDeviceMappings[0].ebs.volumeSize" && n.level === "action"),
    ).toBe(true);
    expect(() => new Ec2NodeClass(testStack().stack, "bd", cls.props)).toThrow(
      /blockDeviceMappings\[0\]\.ebs\.volumeSize = "1000000" is invalid/,
    );
  });
});

describe("converted NodeOverlays and CapacityBuffers in the constructs", () => {
  const YAML = `apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata: { name: spot-discount }
spec:
  requirements: [{ key: karpenter.sh/capacity-type, operator: In, values: [spot] }]
  priceAdjustment: "-10%"
  capacity: { smarter-devices/fuse: 1 }
  weight: 10
---
apiVersion: autoscaling.x-k8s.io/v1beta1
kind: CapacityBuffer
metadata: { name: web, namespace: apps }
spec:
  scalableRef: { kind: Deployment, name: web }
  percentage: 20
  limits: { cpu: 8 }
---
apiVersion: autoscaling.x-k8s.io/v1beta1
kind: CapacityBuffer
metadata: { name: spare }
spec:
  podTemplateRef: { name: spare }
  replicas: 2
`;

  test("accepted, and the constructs emit exactly the converted manifests", () => {
    const result = convertLegacyManifests(YAML, { version: "1.14.1" });
    expect(result.objects.flatMap((o) => o.notes).filter((n) => n.invalid)).toEqual([]);
    const { stack } = testStack();
    // an install that turns both gates on: the constructs warn about nothing
    const karpenter = Object.assign(new FakeInstallation(stack, "karpenter"), {
      nodeOverlayGate: true,
      capacityBufferGate: true,
    });
    const built = [
      ...result.nodeOverlays.map((o) => new NodeOverlay(stack, o.name, { ...o.props, karpenter })),
      ...result.capacityBuffers.map(
        (b) => new CapacityBuffer(stack, `${b.namespace}-${b.name}`, { ...b.props, karpenter }),
      ),
    ];
    for (const c of built) expect(c.node.metadata.filter((m) => m.type === "@cdktf/warn")).toEqual([]);
    const manifests = Object.values(resources(synthJson(stack), "kubernetes_manifest")).map((r: any) => r.manifest);
    expect(manifests).toHaveLength(3);
    const byName = Object.fromEntries(manifests.map((m) => [`${m.kind}/${m.metadata.name}`, m]));
    for (const o of result.objects) expect(byName[`${o.kind}/${o.name}`]).toEqual(toV1Manifest(o));
  });

  test("a target the converter marks invalid (no CRD) is one the construct refuses", () => {
    const result = convertLegacyManifests(YAML, { version: "1.13.1" });
    const buffer = result.capacityBuffers[0];
    expect(buffer.notes.find((n) => n.field === "apiVersion")?.invalid).toBe(true);
    expect(result.nodeOverlays[0].notes.some((n) => n.invalid)).toBe(false);
    const e = thrown(() => new CapacityBuffer(testStack().stack, "b", { ...buffer.props, version: "1.13.1" }));
    expect((e as any).code).toBe("KARPENTER_VERSION_CRD_MISSING");
  });

  test("a problem the converter notes is one the construct rejects", () => {
    const overlay = convertLegacyManifests(
      YAML.replace('priceAdjustment: "-10%"', 'priceAdjustment: "-10%"\n  price: "1"'),
    ).nodeOverlays[0];
    expect(overlay.notes.filter((n) => n.invalid).map((n) => n.field)).toEqual(["spec.priceAdjustment"]);
    expect(() => new NodeOverlay(testStack().stack, "o", overlay.props)).toThrow(/\[NODEOVERLAY_PRICE_CONFLICT\]/);
  });
});
