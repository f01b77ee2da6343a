import { convertLegacyManifests, toV1Manifest, toV1Yaml } from "../../lib/convert";
import { noteAbout, onlyClass, onlyPool } from "./util";

const V1_POOL = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: default
spec:
  template:
    metadata:
      labels: { team: a }
    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }
      requirements:
        - { key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand] }
      expireAfter: 720h
      terminationGracePeriod: 48h
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 1m
    budgets: [{ nodes: "0", schedule: "0 9 * * mon-fri", duration: 8h, reasons: [Drifted] }]
  limits: { cpu: 100 }
  weight: 5
`;

const V1_CLASS = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  role: KarpenterNodeRole-demo
  amiSelectorTerms: [{ alias: al2023@v20250103 }]
  subnetSelectorTerms: [{ tags: { karpenter.sh/discovery: demo } }]
  securityGroupSelectorTerms: [{ tags: { karpenter.sh/discovery: demo } }]
  kubelet: { maxPods: 50 }
  metadataOptions: { httpTokens: required }
  capacityReservationSelectorTerms: [{ id: cr-0123 }]
`;

describe("v1 objects pass through", () => {
  test("a v1 NodePool is read field for field, noted as already v1", () => {
    const pool = onlyPool(V1_POOL);
    expect(pool.props).toEqual({
      name: "default",
      labels: { team: "a" },
      requirements: [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["spot", "on-demand"] }],
      expireAfter: "720h",
      terminationGracePeriod: "48h",
      disruption: {
        consolidationPolicy: "WhenEmptyOrUnderutilized",
        consolidateAfter: "1m",
        budgets: [{ nodes: "0", schedule: "0 9 * * mon-fri", duration: "8h", reasons: ["Drifted"] }],
      },
      limits: { cpu: "100" },
      weight: 5,
    });
    expect(pool.nodeClassRef).toEqual({ group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" });
    expect(pool.notes).toEqual([
      { level: "info", field: "apiVersion", message: "already v1: carried over field for field" },
    ]);
  });

  test("a v1 EC2NodeClass is read field for field (its kubelet included)", () => {
    const cls = onlyClass(V1_CLASS);
    expect(cls.props).toEqual({
      name: "default",
      role: "KarpenterNodeRole-demo",
      amiSelectorTerms: [{ alias: "al2023@v20250103" }],
      subnetSelectorTerms: [{ tags: { "karpenter.sh/discovery": "demo" } }],
      securityGroupSelectorTerms: [{ tags: { "karpenter.sh/discovery": "demo" } }],
      kubelet: { maxPods: 50 },
      metadataOptions: { httpTokens: "required" },
      capacityReservationSelectorTerms: [{ id: "cr-0123" }],
    });
    expect(cls.notes).toEqual([
      { level: "info", field: "apiVersion", message: "already v1: carried over field for field" },
    ]);
  });

  test("a v1 NodePool without requirements (invalid v1) gets the capacity type the construct would add", () => {
    const yaml =
      "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: { name: p }\nspec:\n  template:\n    spec:\n      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }\n";
    const pool = onlyPool(yaml);
    expect(pool.props.requirements).toEqual([
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
    ]);
    expect(noteAbout(pool.notes, "spec.template.spec.requirements").message).toMatch(
      /^added karpenter.sh\/capacity-type In \[on-demand\], as the NodePool construct does/,
    );
  });

  test("a field the v1 CRD does not have is noted", () => {
    const pool = onlyPool(V1_POOL.replace("  weight: 5", "  weight: 5\n  priority: 3"));
    expect(noteAbout(pool.notes, "spec.priority").level).toBe("action");
  });

  test("a v1 EC2NodeClass missing required fields gets notes", () => {
    const cls = onlyClass("apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: { name: bare }\nspec: {}\n");
    expect(
      ["spec.role", "spec.amiSelectorTerms", "spec.subnetSelectorTerms", "spec.securityGroupSelectorTerms"].map(
        (f) => noteAbout(cls.notes, f).level,
      ),
    ).toEqual(["action", "action", "action", "action"]);
  });

  test("the v1.0 webhook's kubelet compatibility annotation is moved to the EC2NodeClass", () => {
    const pool = V1_POOL.replace(
      "  name: default\n",
      "  name: default\n  annotations:\n    compatibility.karpenter.sh/v1beta1-kubelet-conversion: '{\"maxPods\":10}'\n",
    );
    const r = convertLegacyManifests(pool + "---\n" + V1_CLASS.replace("  kubelet: { maxPods: 50 }\n", ""));
    expect(r.ec2NodeClasses[0].props.kubelet).toEqual({ maxPods: 10 });
    expect(
      noteAbout(r.nodePools[0].notes, 'metadata.annotations["compatibility.karpenter.sh/v1beta1-kubelet-conversion"]')
        .message,
    ).toContain("moved to EC2NodeClass default");
  });
});

describe("limits and maxPods in the props' shape", () => {
  test("a limit written as a YAML number becomes its string (the constructs take strings); the v1 YAML quotes it", () => {
    const r = convertLegacyManifests(
      V1_POOL.replace("  limits: { cpu: 100 }", "  limits: { cpu: 100, memory: 1000Gi, pods: 1.5 }"),
    );
    expect(r.nodePools[0].props.limits).toEqual({ cpu: "100", memory: "1000Gi", pods: "1.5" });
    expect(toV1Yaml(r)).toContain('  limits:\n    cpu: "100"\n    memory: 1000Gi\n    pods: "1.5"\n');
  });

  test("a CEL expression in a 1.15 EC2NodeClass's kubelet.maxPods becomes maxPodsExpression, and the v1 manifest writes it back to maxPods", () => {
    const r = convertLegacyManifests(
      V1_CLASS.replace("  kubelet: { maxPods: 50 }", '  kubelet: { maxPods: "min(110, max_pods)" }'),
    );
    const cls = r.ec2NodeClasses[0];
    expect(cls.props.kubelet).toEqual({ maxPodsExpression: "min(110, max_pods)" });
    expect(noteAbout(cls.notes, "spec.kubelet.maxPods")).toEqual({
      level: "info",
      field: "spec.kubelet.maxPods",
      message:
        'the CEL expression "min(110, max_pods)" is the prop kubelet.maxPodsExpression (emitted as kubelet.maxPods; Karpenter 1.15+ with settings.awsFeatureGates.nodeClassCEL)',
    });
    expect((toV1Manifest(cls).spec as any).kubelet).toEqual({ maxPods: "min(110, max_pods)" });
  });

  test("a number in quotes in kubelet.maxPods stays an error, as before", () => {
    expect(() =>
      convertLegacyManifests(V1_CLASS.replace("  kubelet: { maxPods: 50 }", '  kubelet: { maxPods: "110" }')),
    ).toThrow('document 1 (line 10): spec.kubelet.maxPods = "110" is invalid: a whole number');
  });
});

describe("other kinds", () => {
  test("are skipped with a result-level note; Karpenter kinds this converter does not read are action notes", () => {
    const r = convertLegacyManifests(
      [
        "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings }\n",
        "apiVersion: karpenter.sh/v1alpha5\nkind: Machine\nmetadata: { name: m-1 }\n",
        "apiVersion: karpenter.sh/v1alpha4\nkind: Provisioner\nmetadata: { name: old }\n",
      ].join("---\n"),
    );
    expect(r.objects).toEqual([]);
    expect(r.notes).toEqual([
      {
        level: "info",
        field: "document 1",
        message: "skipped v1 ConfigMap settings: not a Karpenter NodePool or node class",
      },
      {
        level: "action",
        field: "document 2",
        message: expect.stringContaining(
          "skipped karpenter.sh/v1alpha5 Machine m-1: Machines are created and deleted by Karpenter",
        ),
      },
      {
        level: "action",
        field: "document 3",
        message: expect.stringContaining(
          "skipped karpenter.sh/v1alpha4 Provisioner old: not a kind and version this converter reads",
        ),
      },
    ]);
  });
});

describe("v1 fields the target version's CRD has are kept (read from the generated CRD fields)", () => {
  const withEnclave = (enabled: string) =>
    V1_CLASS.replace(
      "  capacityReservationSelectorTerms",
      `  enclaveOptions: { enabled: ${enabled} }\n  capacityReservationSelectorTerms`,
    );

  test("1.15's enclaveOptions is carried over as written, with a note", () => {
    const cls = onlyClass(withEnclave("true"), { version: "1.15.2" });
    expect(cls.props).toMatchObject({ enclaveOptions: { enabled: true } });
    expect(noteAbout(cls.notes, "spec.enclaveOptions")).toMatchObject({
      level: "info",
      message: expect.stringContaining("carried over as written: a field of the EC2NodeClass CRD of Karpenter 1.15.2"),
    });
    expect(toV1Yaml(convertLegacyManifests(withEnclave("true"), { version: "1.15.2" }))).toContain(
      "enclaveOptions:\n    enabled: true",
    );
  });

  test("a version whose CRD lacks it drops it with a note naming the release that added it", () => {
    const cls = onlyClass(withEnclave("true"), { version: "1.14.1" });
    expect(cls.props).not.toHaveProperty("enclaveOptions");
    expect(noteAbout(cls.notes, "spec.enclaveOptions")).toMatchObject({
      level: "action",
      message: expect.stringContaining(
        "not converted: a field of the EC2NodeClass CRD from Karpenter 1.15; this conversion targets Karpenter 1.14.1, which lacks it",
      ),
    });
    // a field no release has is still "not a field"
    const bogus = onlyClass(V1_CLASS.replace("  kubelet:", "  bogusField: 1\n  kubelet:"), { version: "1.14.1" });
    expect(noteAbout(bogus.notes, "spec.bogusField")).toMatchObject({
      level: "action",
      message: expect.stringContaining("not a field of EC2NodeClass"),
    });
  });

  test("a carried-over field is validated by the construct's rules", () => {
    const cls = onlyClass(withEnclave('"yes"'), { version: "1.15.2" });
    expect(noteAbout(cls.notes, "spec.enclaveOptions.enabled")).toMatchObject({
      level: "action",
      message: expect.stringContaining('spec.enclaveOptions.enabled = "yes": true or false'),
    });
  });
});

describe("free-form kubelet fields (EC2NodeClass CRD from 1.15, AL2023 and Custom)", () => {
  const withKubelet = (extra: string) =>
    V1_CLASS.replace("  kubelet: { maxPods: 50 }", `  kubelet: { maxPods: 50, ${extra} }`);

  test("on 1.15 a KubeletConfiguration field beyond the typed twelve is carried over as written", () => {
    const cls = onlyClass(withKubelet("shutdownGracePeriod: 30s, containerLogMaxSize: 20Mi"), { version: "1.15.3" });
    expect(cls.props.kubelet).toEqual({ maxPods: 50, shutdownGracePeriod: "30s", containerLogMaxSize: "20Mi" });
    expect(noteAbout(cls.notes, "spec.kubelet.shutdownGracePeriod")).toMatchObject({
      level: "info",
      message: expect.stringContaining("carried over as written: a free-form KubeletConfiguration field"),
    });
    expect(toV1Yaml(convertLegacyManifests(withKubelet("shutdownGracePeriod: 30s"), { version: "1.15.3" }))).toContain(
      "shutdownGracePeriod: 30s",
    );
  });

  test("before 1.15 it is dropped with a note naming the release that takes it", () => {
    const cls = onlyClass(withKubelet("shutdownGracePeriod: 30s"), { version: "1.14.1" });
    expect(cls.props.kubelet).toEqual({ maxPods: 50 });
    expect(noteAbout(cls.notes, "spec.kubelet.shutdownGracePeriod")).toMatchObject({
      level: "action",
      message: expect.stringContaining("needs Karpenter 1.15 or later"),
    });
    expect(cls.notes.filter((n) => n.field === "spec.kubelet.shutdownGracePeriod")).toHaveLength(1);
  });

  test("on a Bottlerocket class the carried field is judged by the construct's rules", () => {
    const br = withKubelet("shutdownGracePeriod: 30s").replace("al2023@v20250103", "bottlerocket@v1.40.0");
    const cls = onlyClass(br, { version: "1.15.3" });
    expect(cls.notes.some((n) => n.invalid && n.field.startsWith("spec.kubelet"))).toBe(true);
  });
});

describe("the construct's synth warnings are notes", () => {
  test("a limit on nvidia.com/gpus gets the NodePool construct's did-you-mean", () => {
    const pool = onlyPool(V1_POOL.replace("limits: { cpu: 100 }", 'limits: { cpu: 100, nvidia.com/gpus: "4" }'));
    expect(noteAbout(pool.notes, "spec.limits")).toMatchObject({
      level: "action",
      message: expect.stringContaining("did you mean nvidia.com/gpu (NVIDIA GPUs)?"),
    });
  });
  test("a limit on nvidia.com/gpu gets none", () => {
    const pool = onlyPool(V1_POOL.replace("limits: { cpu: 100 }", 'limits: { cpu: 100, nvidia.com/gpu: "4" }'));
    expect(pool.notes.filter((n) => n.field === "spec.limits")).toEqual([]);
  });
});

describe("invalid notes say who refuses", () => {
  test("the construct's rules; a rule beyond the CRD says the server accepts and Karpenter, EC2 or the kubelet fails", () => {
    const cls = onlyClass(
      V1_CLASS.replace(
        "  kubelet: { maxPods: 50 }",
        "  kubelet: { maxPods: 50 }\n  metadataOptions: { httpTokens: maybe }\n  blockDeviceMappings: [{ deviceName: /dev/xvda, ebs: { volumeSize: 100Gi, volumeType: gp3, iops: 1000 } }]",
      ).replace("  metadataOptions: { httpTokens: required }\n", ""),
      { version: "1.15.3" },
    );
    expect(noteAbout(cls.notes, "spec.metadataOptions.httpTokens")!.message).toContain(
      "(the Ec2NodeClass construct rejects it: the API server refuses it, or Karpenter or EC2 fails on it)",
    );
    expect(noteAbout(cls.notes, "spec.blockDeviceMappings[0].ebs.iops")!.message).not.toContain("API server reject");
    const al2 = onlyClass(
      V1_CLASS.replace("al2023@v20250103", "al2@v20250103").replace(
        "kubelet: { maxPods: 50 }",
        "kubelet: { maxPods: 50, clusterDNS: [not-an-ip] }",
      ),
      { version: "1.15.3" },
    );
    expect(noteAbout(al2.notes, "spec.kubelet.clusterDNS[0]")!.message).toContain(
      "(the Ec2NodeClass construct rejects it; the API server accepts it, and Karpenter, EC2 or the kubelet then fails on it)",
    );
  });
});
