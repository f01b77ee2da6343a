import { convertLegacyManifests, toV1Yaml } from "../../lib/convert";
import { noteAbout, notesAbout, onlyClass, onlyPool } from "./util";

// Rules: karpenter.sh v1.0 "v1 Migration" (changelog, Kubelet Configuration Migration,
// NodeClassRef Requirements) and the v1.0 conversion webhooks.

/** The v1beta1 NodePool of the v1 migration guide's "Manifest Migration" example. */
const GUIDE_NODEPOOL = `apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: default
spec:
  template:
    spec:
      requirements:
        - key: kubernetes.io/arch
          operator: In
          values: ["amd64"]
        - key: kubernetes.io/os
          operator: In
          values: ["linux"]
        - key: karpenter.sh/capacity-type
          operator: In
          values: ["on-demand"]
        - key: karpenter.k8s.aws/instance-category
          operator: In
          values: ["c", "m", "r"]
        - key: karpenter.k8s.aws/instance-generation
          operator: Gt
          values: ["2"]
      nodeClassRef:
        apiVersion: karpenter.k8s.aws/v1beta1
        kind: EC2NodeClass
        name: default
  limits:
    cpu: 1000
  disruption:
    consolidationPolicy: WhenUnderutilized
    expireAfter: 720h # 30 * 24h = 720h
`;

function nodePool(name: string, templateSpec: string, rest = "", templateMeta = ""): string {
  return `apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: ${name}
spec:
  template:
${templateMeta}    spec:
${templateSpec}
${rest}`;
}

function nodeClass(name: string, spec: string): string {
  return `apiVersion: karpenter.k8s.aws/v1beta1
kind: EC2NodeClass
metadata:
  name: ${name}
spec:
${spec}
`;
}

const BETA_CLASS_SPEC = `  amiFamily: AL2023
  role: KarpenterNodeRole-demo
  subnetSelectorTerms: [{ tags: { karpenter.sh/discovery: demo } }]
  securityGroupSelectorTerms: [{ tags: { karpenter.sh/discovery: demo } }]`;

describe("v1beta1 NodePool → v1", () => {
  test("the v1 migration guide's example", () => {
    const pool = onlyPool(GUIDE_NODEPOOL);
    expect(pool.props).toEqual({
      name: "default",
      requirements: [
        { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
        { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
        { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
        { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
        { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["2"] },
      ],
      limits: { cpu: 1000 },
      // expireAfter moves from disruption into the template
      expireAfter: "720h",
      // WhenUnderutilized is renamed; v1 requires consolidateAfter and the webhook sets 0s
      disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "0s" },
    });
    // apiVersion is dropped, group and kind are required
    expect(pool.nodeClassRef).toEqual({ group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" });
    expect(noteAbout(pool.notes, "spec.disruption.expireAfter").message).toContain("spec.template.spec.expireAfter");
    expect(noteAbout(pool.notes, "spec.disruption.consolidationPolicy").message).toContain("WhenEmptyOrUnderutilized");
    expect(noteAbout(pool.notes, "spec.template.spec.nodeClassRef.apiVersion").message).toContain("group karpenter.k8s.aws");
  });

  test("consolidateAfter with WhenUnderutilized (not allowed in v1beta1) is carried over with an action note", () => {
    const pool = onlyPool(nodePool("p", "      nodeClassRef: { name: default }", "  disruption: { consolidationPolicy: WhenUnderutilized, consolidateAfter: 5m }"));
    expect(pool.props.disruption).toEqual({ consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "5m" });
    expect(noteAbout(pool.notes, "spec.disruption.consolidateAfter").level).toBe("action");
  });

  test("WhenEmpty keeps its consolidateAfter; budgets are carried over", () => {
    const pool = onlyPool(
      nodePool("p", "      nodeClassRef: { name: default }", `  disruption:
    consolidationPolicy: WhenEmpty
    consolidateAfter: 30s
    budgets:
    - nodes: "10%"
    - nodes: "0"
      schedule: "0 9 * * mon-fri"
      duration: 8h`),
    );
    expect(pool.props.disruption).toEqual({
      consolidationPolicy: "WhenEmpty",
      consolidateAfter: "30s",
      budgets: [{ nodes: "10%" }, { nodes: "0", schedule: "0 9 * * mon-fri", duration: "8h" }],
    });
    expect(pool.props.expireAfter).toBeUndefined();
  });

  test("template labels, annotations (do-not-evict renamed), taints and minValues are carried over", () => {
    const pool = onlyPool(
      nodePool(
        "p",
        `      nodeClassRef: { name: default }
      requirements:
      - { key: karpenter.k8s.aws/instance-family, operator: In, values: [m5, m6i, m7i], minValues: 2 }
      taints: [{ key: dedicated, value: gpu, effect: NoSchedule }]
      startupTaints: [{ key: example.com/init, effect: NoExecute }]
      resources: { requests: { cpu: "1" } }`,
        "  weight: 10",
        `    metadata:
      labels: { team: a }
      annotations: { karpenter.sh/do-not-evict: "true" }
`,
      ),
    );
    expect(pool.props).toMatchObject({
      labels: { team: "a" },
      annotations: { "karpenter.sh/do-not-disrupt": "true" },
      requirements: [
        { key: "karpenter.k8s.aws/instance-family", operator: "In", values: ["m5", "m6i", "m7i"], minValues: 2 },
        { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
      ],
      taints: [{ key: "dedicated", value: "gpu", effect: "NoSchedule" }],
      startupTaints: [{ key: "example.com/init", effect: "NoExecute" }],
      weight: 10,
    });
    expect(noteAbout(pool.notes, "spec.template.spec.resources").message).toContain("not converted");
    // v1beta1 does not default the capacity type: on-demand is stated, as the construct does, and the note says why
    expect(noteAbout(pool.notes, "spec.template.spec.requirements").message).toMatch(/^added karpenter.sh\/capacity-type In \[on-demand\].*may launch spot/);
  });

  test("kubelet moves to the EC2NodeClass of the same input", () => {
    const r = convertLegacyManifests(nodePool("p", "      nodeClassRef: { name: nc }\n      kubelet: { maxPods: 10 }") + "---\n" + nodeClass("nc", BETA_CLASS_SPEC));
    expect(r.ec2NodeClasses[0].props.kubelet).toEqual({ maxPods: 10 });
    expect(noteAbout(r.nodePools[0].notes, "spec.template.spec.kubelet").level).toBe("info");
  });

  test("two NodePools sharing a class with different kubelets: not moved, an action note on each (the guide's example)", () => {
    const r = convertLegacyManifests(
      [
        nodePool("nodepool-a", "      kubelet: { maxPods: 10 }\n      nodeClassRef: { apiVersion: karpenter.k8s.aws/v1beta1, kind: EC2NodeClass, name: nodeclass }"),
        nodePool("nodepool-b", "      kubelet: { maxPods: 20 }\n      nodeClassRef: { apiVersion: karpenter.k8s.aws/v1beta1, kind: EC2NodeClass, name: nodeclass }"),
        nodeClass("nodeclass", BETA_CLASS_SPEC),
      ].join("---\n"),
    );
    expect(r.ec2NodeClasses[0].props.kubelet).toBeUndefined();
    const [a, b] = r.nodePools.map((p) => noteAbout(p.notes, "spec.template.spec.kubelet"));
    expect(a.level).toBe("action");
    expect(a.message).toContain('NodePool nodepool-b ({"maxPods":20})');
    expect(b.message).toContain('NodePool nodepool-a ({"maxPods":10})');
    expect(a.message).toContain("its own EC2NodeClass");
  });

  test("a pool without kubelet sharing the class blocks the move too (it would change that pool's nodes)", () => {
    const r = convertLegacyManifests(
      [nodePool("a", "      kubelet: { maxPods: 10 }\n      nodeClassRef: { name: nc }"), nodePool("b", "      nodeClassRef: { name: nc }"), nodeClass("nc", BETA_CLASS_SPEC)].join("---\n"),
    );
    expect(r.ec2NodeClasses[0].props.kubelet).toBeUndefined();
    expect(noteAbout(r.nodePools[0].notes, "spec.template.spec.kubelet").message).toContain("NodePool b (no kubelet)");
  });

  test("no requirements: the capacity type is stated, so the v1 object has the requirements v1 requires", () => {
    const pool = onlyPool(nodePool("p", "      nodeClassRef: { name: default }"));
    expect(pool.props.requirements).toEqual([{ key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] }]);
    // a v1beta1 pool without a capacity type could launch spot: on-demand changes it, so the user must decide
    expect(noteAbout(pool.notes, "spec.template.spec.requirements")).toMatchObject({ level: "action", message: expect.stringContaining("may have launched spot until now") });
    const yaml = toV1Yaml(convertLegacyManifests(nodePool("p", "      nodeClassRef: { name: default }")));
    expect(yaml).toContain("    spec:\n      nodeClassRef:\n        group: karpenter.k8s.aws\n        kind: EC2NodeClass\n        name: default\n      requirements:\n        - key: karpenter.sh/capacity-type\n");
  });

  test("no requirements but a capacity-type label: an empty requirements list", () => {
    const pool = onlyPool(nodePool("p", "      nodeClassRef: { name: default }", "", "    metadata:\n      labels: { karpenter.sh/capacity-type: spot }\n"));
    expect(pool.props.requirements).toEqual([]);
    expect(notesAbout(pool.notes, "spec.template.spec.requirements")).toEqual([]);
  });

  test("a template is required", () => {
    expect(() => convertLegacyManifests("apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: { name: p }\nspec: { weight: 1 }\n")).toThrow(/^document 1 \(line 4\): spec\.template = undefined is invalid/);
  });
});

describe("v1beta1 EC2NodeClass → v1", () => {
  test("amiFamily without amiSelectorTerms → alias, amiFamily dropped; role and the rest kept", () => {
    const cls = onlyClass(nodeClass("nc", `${BETA_CLASS_SPEC}
  associatePublicIPAddress: false
  instanceStorePolicy: RAID0
  blockDeviceMappings: [{ deviceName: /dev/xvda, rootVolume: true, ebs: { volumeSize: 50Gi } }]
  tags: { team: a }`));
    expect(cls.props).toEqual({
      name: "nc",
      role: "KarpenterNodeRole-demo",
      amiSelectorTerms: [{ alias: "al2023@latest" }],
      subnetSelectorTerms: [{ tags: { "karpenter.sh/discovery": "demo" } }],
      securityGroupSelectorTerms: [{ tags: { "karpenter.sh/discovery": "demo" } }],
      associatePublicIPAddress: false,
      instanceStorePolicy: "RAID0",
      blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "50Gi" } }],
      tags: { team: "a" },
    });
  });

  test("amiSelectorTerms are kept with the amiFamily", () => {
    const cls = onlyClass(nodeClass("nc", `${BETA_CLASS_SPEC}\n  amiSelectorTerms: [{ name: "my-ami-*", owner: self }, { id: ami-0abc }]`));
    expect(cls.props.amiFamily).toBe("AL2023");
    expect(cls.props.amiSelectorTerms).toEqual([{ name: "my-ami-*", owner: "self" }, { id: "ami-0abc" }]);
  });

  test("instanceProfile is kept and the role option does not replace it", () => {
    const spec = BETA_CLASS_SPEC.replace("role: KarpenterNodeRole-demo", "instanceProfile: KarpenterNodeInstanceProfile-demo");
    const cls = onlyClass(nodeClass("nc", spec), { role: "KarpenterNodeRole-demo" });
    expect(cls.props.instanceProfile).toBe("KarpenterNodeInstanceProfile-demo");
    expect(cls.props.role).toBeUndefined();
  });

  test("Ubuntu → AL2 with the given terms", () => {
    const spec = BETA_CLASS_SPEC.replace("amiFamily: AL2023", "amiFamily: Ubuntu") + "\n  amiSelectorTerms: [{ id: ami-0abc }]";
    const cls = onlyClass(nodeClass("nc", spec));
    expect(cls.props).toMatchObject({ amiFamily: "AL2", amiSelectorTerms: [{ id: "ami-0abc" }] });
    expect(cls.props.blockDeviceMappings?.[0]).toMatchObject({ deviceName: "/dev/sda1", rootVolume: true });
  });

  test("no amiFamily (required in v1beta1): Custom, as the v1 webhook does, with an action note", () => {
    const spec = BETA_CLASS_SPEC.replace("amiFamily: AL2023", "amiSelectorTerms: [{ id: ami-0abc }]");
    const cls = onlyClass(nodeClass("nc", spec));
    expect(cls.props.amiFamily).toBe("Custom");
    expect(noteAbout(cls.notes, "spec.amiFamily").level).toBe("action");
  });

  test("no hop limit: the default-change note", () => {
    const cls = onlyClass(nodeClass("nc", BETA_CLASS_SPEC));
    expect(notesAbout(cls.notes, "spec.metadataOptions")).toHaveLength(1);
  });

  test("a field v1 does not have is noted", () => {
    const cls = onlyClass(nodeClass("nc", `${BETA_CLASS_SPEC}\n  launchTemplateName: lt`));
    expect(noteAbout(cls.notes, "spec.launchTemplateName").level).toBe("action");
  });
});
