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
      limits: { cpu: "1000" },
      // expireAfter moves from disruption into the template
      expireAfter: "720h",
      // WhenUnderutilized is renamed; v1 requires consolidateAfter and the webhook sets 0s
      disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "0s" },
    });
    // apiVersion is dropped, group and kind are required
    expect(pool.nodeClassRef).toEqual({ group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" });
    expect(noteAbout(pool.notes, "spec.disruption.expireAfter").message).toContain("spec.template.spec.expireAfter");
    expect(noteAbout(pool.notes, "spec.disruption.consolidationPolicy").message).toContain("WhenEmptyOrUnderutilized");
    expect(noteAbout(pool.notes, "spec.template.spec.nodeClassRef.apiVersion").message).toContain(
      "group karpenter.k8s.aws",
    );
  });

  test("consolidateAfter with WhenUnderutilized (not allowed in v1beta1) is carried over with an action note", () => {
    const pool = onlyPool(
      nodePool(
        "p",
        "      nodeClassRef: { name: default }",
        "  disruption: { consolidationPolicy: WhenUnderutilized, consolidateAfter: 5m }",
      ),
    );
    expect(pool.props.disruption).toEqual({ consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "5m" });
    expect(noteAbout(pool.notes, "spec.disruption.consolidateAfter").level).toBe("action");
  });

  test("WhenEmpty keeps its consolidateAfter; budgets are carried over", () => {
    const pool = onlyPool(
      nodePool(
        "p",
        "      nodeClassRef: { name: default }",
        `  disruption:
    consolidationPolicy: WhenEmpty
    consolidateAfter: 30s
    budgets:
    - nodes: "10%"
    - nodes: "0"
      schedule: "0 9 * * mon-fri"
      duration: 8h`,
      ),
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
    expect(noteAbout(pool.notes, "spec.template.spec.requirements").message).toMatch(
      /^added karpenter.sh\/capacity-type In \[on-demand\].*may launch spot/,
    );
  });

  test("kubelet moves to the EC2NodeClass of the same input", () => {
    const r = convertLegacyManifests(
      nodePool("p", "      nodeClassRef: { name: nc }\n      kubelet: { maxPods: 10 }") +
        "---\n" +
        nodeClass("nc", BETA_CLASS_SPEC),
    );
    expect(r.ec2NodeClasses[0].props.kubelet).toEqual({ maxPods: 10 });
    expect(noteAbout(r.nodePools[0].notes, "spec.template.spec.kubelet").level).toBe("info");
  });

  describe("NodePools of one class with different kubelets: the class is split", () => {
    const ref = "      nodeClassRef: { apiVersion: karpenter.k8s.aws/v1beta1, kind: EC2NodeClass, name: nodeclass }";
    const convert = (...docs: string[]) => convertLegacyManifests(docs.join("---\n"));
    const byName = <T extends { name: string }>(list: T[], name: string): T => {
      const found = list.find((o) => o.name === name);
      if (!found) throw new Error(`no ${name} in ${list.map((o) => o.name).join(", ")}`);
      return found;
    };

    test("the guide's example: the first pool's kubelet goes on the class, the other pool gets a copy", () => {
      const r = convert(
        nodePool("nodepool-a", `      kubelet: { maxPods: 10 }\n${ref}`),
        nodePool("nodepool-b", `      kubelet: { maxPods: 20 }\n${ref}`),
        nodeClass("nodeclass", BETA_CLASS_SPEC),
      );
      expect(r.objects.map((o) => `${o.kind}/${o.name}`)).toEqual([
        "NodePool/nodepool-a",
        "NodePool/nodepool-b",
        "EC2NodeClass/nodeclass",
        "EC2NodeClass/nodeclass-nodepool-b",
      ]);
      const [original, copy] = r.ec2NodeClasses;
      expect(original.props.kubelet).toEqual({ maxPods: 10 });
      // the copy is the class with the other kubelet and its own name, nothing else changed
      expect(copy.props).toEqual({ ...original.props, name: "nodeclass-nodepool-b", kubelet: { maxPods: 20 } });
      expect(copy.source).toEqual(original.source);
      expect(r.nodePools.map((p) => p.nodeClassRef?.name)).toEqual(["nodeclass", "nodeclass-nodepool-b"]);
      // no manual step left: every kubelet note is info
      for (const p of r.nodePools) expect(noteAbout(p.notes, "spec.template.spec.kubelet").level).toBe("info");
      expect(noteAbout(r.nodePools[1].notes, "spec.template.spec.kubelet").message).toMatch(
        /^kubelet moved to EC2NodeClass nodeclass-nodepool-b, a copy of nodeclass with this kubelet/,
      );
      expect(notesAbout(copy.notes, "spec.kubelet")).toEqual([
        expect.objectContaining({
          level: "info",
          message: expect.stringContaining(
            'a copy of EC2NodeClass nodeclass with kubelet {"maxPods":20} for NodePool nodepool-b (document 2)',
          ),
        }),
      ]);
      expect(noteAbout(copy.notes, "spec.kubelet").message).toContain('(NodePool nodepool-a: kubelet {"maxPods":10})');
      expect(
        r.objects.flatMap((o) => o.notes).filter((n) => n.level === "action" && n.field.includes("kubelet")),
      ).toEqual([]);
      const yaml = toV1Yaml(r);
      expect(yaml.split("---\n")).toHaveLength(4);
      expect(yaml).toContain("kind: EC2NodeClass\nmetadata:\n  name: nodeclass-nodepool-b\nspec:\n");
    });

    test("a pool without kubelet keeps the class as it is; the pool with one gets the copy", () => {
      const r = convert(
        nodePool("a", "      kubelet: { maxPods: 10 }\n      nodeClassRef: { name: nc }"),
        nodePool("b", "      nodeClassRef: { name: nc }"),
        nodeClass("nc", BETA_CLASS_SPEC),
      );
      expect(byName(r.ec2NodeClasses, "nc").props.kubelet).toBeUndefined();
      expect(byName(r.ec2NodeClasses, "nc-a").props.kubelet).toEqual({ maxPods: 10 });
      expect(byName(r.nodePools, "a").nodeClassRef).toEqual({
        group: "karpenter.k8s.aws",
        kind: "EC2NodeClass",
        name: "nc-a",
      });
      expect(byName(r.nodePools, "b").nodeClassRef?.name).toBe("nc");
      expect(noteAbout(byName(r.ec2NodeClasses, "nc-a").notes, "spec.kubelet").message).toContain(
        "(NodePool b: no kubelet)",
      );
      expect(notesAbout(byName(r.ec2NodeClasses, "nc").notes, "spec.kubelet")).toEqual([]);
    });

    test("pools asking for the same kubelet share one class; one copy per other kubelet", () => {
      const pool = (name: string, maxPods: number) =>
        nodePool(name, `      kubelet: { maxPods: ${maxPods} }\n      nodeClassRef: { name: nc }`);
      const r = convert(
        pool("a", 10),
        pool("b", 20),
        pool("c", 10),
        pool("d", 20),
        pool("e", 30),
        nodeClass("nc", BETA_CLASS_SPEC),
      );
      expect(r.ec2NodeClasses.map((c) => [c.name, c.props.kubelet])).toEqual([
        ["nc", { maxPods: 10 }],
        ["nc-b", { maxPods: 20 }],
        ["nc-e", { maxPods: 30 }],
      ]);
      expect(r.nodePools.map((p) => p.nodeClassRef?.name)).toEqual(["nc", "nc-b", "nc", "nc-b", "nc-e"]);
      expect(noteAbout(byName(r.ec2NodeClasses, "nc-b").notes, "spec.kubelet").message).toContain(
        "for NodePool b (document 2), NodePool d (document 4)",
      );
    });

    test("the same input gives the same names; a name in use gets a number; long names are cut with a hash", () => {
      const long = "p".repeat(61);
      const docs = [
        nodePool("a", "      kubelet: { maxPods: 10 }\n      nodeClassRef: { name: nc }"),
        nodePool("b", "      kubelet: { maxPods: 20 }\n      nodeClassRef: { name: nc }"),
        nodePool(long, "      kubelet: { maxPods: 30 }\n      nodeClassRef: { name: nc }"),
        nodeClass("nc", BETA_CLASS_SPEC),
        nodeClass("nc-b", BETA_CLASS_SPEC),
      ];
      const names = convert(...docs).ec2NodeClasses.map((c) => c.name);
      expect(convert(...docs).ec2NodeClasses.map((c) => c.name)).toEqual(names);
      expect(names.slice(0, 2)).toEqual(["nc", "nc-b-2"]);
      expect(names[2]).toMatch(/^nc-p{51}-[0-9a-f]{8}$/);
      expect(names[2]).toHaveLength(63);
      expect(names[3]).toBe("nc-b");
    });

    test("a v1 class's own kubelet stays for its pools; a pool with another kubelet (the v1.0 webhook annotation) gets a copy", () => {
      const v1Class = nodeClass("nc", BETA_CLASS_SPEC)
        .replace("karpenter.k8s.aws/v1beta1", "karpenter.k8s.aws/v1")
        .replace(
          "  amiFamily: AL2023\n",
          "  amiSelectorTerms: [{ alias: al2023@latest }]\n  kubelet: { maxPods: 50 }\n",
        );
      const v1Pool = (name: string, annotation: string) =>
        `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: ${name}\n${annotation}spec:\n  template:\n    spec:\n      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: nc }\n      requirements: [{ key: karpenter.sh/capacity-type, operator: In, values: [on-demand] }]\n`;
      const r = convert(
        v1Pool("plain", ""),
        v1Pool(
          "old",
          "  annotations:\n    compatibility.karpenter.sh/v1beta1-kubelet-conversion: '{\"maxPods\":10}'\n",
        ),
        v1Class,
      );
      expect(r.ec2NodeClasses.map((c) => [c.name, c.props.kubelet])).toEqual([
        ["nc", { maxPods: 50 }],
        ["nc-old", { maxPods: 10 }],
      ]);
      expect(r.nodePools.map((p) => p.nodeClassRef?.name)).toEqual(["nc", "nc-old"]);
      expect(noteAbout(byName(r.ec2NodeClasses, "nc-old").notes, "spec.kubelet").message).toContain(
        `(NodePool plain: the class's own kubelet {"maxPods":50})`,
      );
    });

    test("a class's own kubelet is never replaced: every pool asking for another gets a copy", () => {
      const v1Class = nodeClass("nc", BETA_CLASS_SPEC)
        .replace("karpenter.k8s.aws/v1beta1", "karpenter.k8s.aws/v1")
        .replace(
          "  amiFamily: AL2023\n",
          "  amiSelectorTerms: [{ alias: al2023@latest }]\n  kubelet: { maxPods: 50 }\n",
        );
      const r = convert(
        nodePool("a", "      kubelet: { maxPods: 10 }\n      nodeClassRef: { name: nc }"),
        nodePool("b", "      kubelet: { maxPods: 20 }\n      nodeClassRef: { name: nc }"),
        v1Class,
      );
      expect(r.ec2NodeClasses.map((c) => [c.name, c.props.kubelet])).toEqual([
        ["nc", { maxPods: 50 }],
        ["nc-a", { maxPods: 10 }],
        ["nc-b", { maxPods: 20 }],
      ]);
      expect(r.nodePools.map((p) => p.nodeClassRef?.name)).toEqual(["nc-a", "nc-b"]);
      expect(noteAbout(byName(r.ec2NodeClasses, "nc").notes, "spec.kubelet").message).toMatch(
        /^kept: every NodePool of this input that uses nc asks for another kubelet/,
      );
      expect(noteAbout(byName(r.ec2NodeClasses, "nc-a").notes, "spec.kubelet").message).toContain(
        '(NodePool b: kubelet {"maxPods":20}; the class itself: kubelet {"maxPods":50})',
      );
    });

    test("a copy is checked like any converted class", () => {
      const r = convert(
        nodePool("a", "      kubelet: { maxPods: 10 }\n      nodeClassRef: { name: nc }"),
        nodePool(
          "b",
          "      kubelet: { imageGCHighThresholdPercent: 10, imageGCLowThresholdPercent: 50 }\n      nodeClassRef: { name: nc }",
        ),
        nodeClass("nc", BETA_CLASS_SPEC),
      );
      expect(
        notesAbout(byName(r.ec2NodeClasses, "nc-b").notes, "spec.kubelet.imageGCHighThresholdPercent").map(
          (n) => n.level,
        ),
      ).toContain("action");
      expect(byName(r.ec2NodeClasses, "nc").notes.filter((n) => n.level === "action")).toEqual([]);
    });
  });

  test("no requirements: the capacity type is stated, so the v1 object has the requirements v1 requires", () => {
    const pool = onlyPool(nodePool("p", "      nodeClassRef: { name: default }"));
    expect(pool.props.requirements).toEqual([
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
    ]);
    // a v1beta1 pool without a capacity type could launch spot: on-demand changes it, so the user must decide
    expect(noteAbout(pool.notes, "spec.template.spec.requirements")).toMatchObject({
      level: "action",
      message: expect.stringContaining("may have launched spot until now"),
    });
    const yaml = toV1Yaml(convertLegacyManifests(nodePool("p", "      nodeClassRef: { name: default }")));
    expect(yaml).toContain(
      "    spec:\n      nodeClassRef:\n        group: karpenter.k8s.aws\n        kind: EC2NodeClass\n        name: default\n      requirements:\n        - key: karpenter.sh/capacity-type\n",
    );
  });

  test("no requirements but a capacity-type label: an empty requirements list", () => {
    const pool = onlyPool(
      nodePool(
        "p",
        "      nodeClassRef: { name: default }",
        "",
        "    metadata:\n      labels: { karpenter.sh/capacity-type: spot }\n",
      ),
    );
    expect(pool.props.requirements).toEqual([]);
    expect(notesAbout(pool.notes, "spec.template.spec.requirements")).toEqual([]);
  });

  test("a template is required", () => {
    expect(() =>
      convertLegacyManifests(
        "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: { name: p }\nspec: { weight: 1 }\n",
      ),
    ).toThrow(/^document 1 \(line 4\): spec\.template = undefined is invalid/);
  });
});

describe("v1beta1 EC2NodeClass → v1", () => {
  test("amiFamily without amiSelectorTerms → alias, amiFamily dropped; role and the rest kept", () => {
    const cls = onlyClass(
      nodeClass(
        "nc",
        `${BETA_CLASS_SPEC}
  associatePublicIPAddress: false
  instanceStorePolicy: RAID0
  blockDeviceMappings: [{ deviceName: /dev/xvda, rootVolume: true, ebs: { volumeSize: 50Gi } }]
  tags: { team: a }`,
      ),
    );
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
    const cls = onlyClass(
      nodeClass("nc", `${BETA_CLASS_SPEC}\n  amiSelectorTerms: [{ name: "my-ami-*", owner: self }, { id: ami-0abc }]`),
    );
    expect(cls.props.amiFamily).toBe("AL2023");
    expect(cls.props.amiSelectorTerms).toEqual([{ name: "my-ami-*", owner: "self" }, { id: "ami-0abc" }]);
  });

  test("instanceProfile is kept and the role option does not replace it", () => {
    const spec = BETA_CLASS_SPEC.replace(
      "role: KarpenterNodeRole-demo",
      "instanceProfile: KarpenterNodeInstanceProfile-demo",
    );
    const cls = onlyClass(nodeClass("nc", spec), { role: "KarpenterNodeRole-demo" });
    expect(cls.props.instanceProfile).toBe("KarpenterNodeInstanceProfile-demo");
    expect(cls.props.role).toBeUndefined();
  });

  test("Ubuntu → AL2 with the given terms", () => {
    const spec =
      BETA_CLASS_SPEC.replace("amiFamily: AL2023", "amiFamily: Ubuntu") + "\n  amiSelectorTerms: [{ id: ami-0abc }]";
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
