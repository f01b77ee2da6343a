import { convertLegacyManifests } from "../../lib/convert";
import { humanDuration } from "../../lib/convert/node-pool-parts";
import { DURATION, durationNanos } from "../../lib/kubernetes/value-rules";
import { awsNodeTemplate, noteAbout, notesAbout, onlyPool, provisioner } from "./util";

// Rules: karpenter.sh v0.32 "v1beta1 Migration" (Provisioner -> NodePool), v1.0 "v1 Migration",
// and the v0.31 Provisioner defaulting webhook (aws/karpenter pkg/apis/v1alpha5 SetDefaults).

const TEMPLATE = awsNodeTemplate(
  "default",
  `
  subnetSelector: { karpenter.sh/discovery: demo }
  securityGroupSelector: { karpenter.sh/discovery: demo }
  instanceProfile: KarpenterNodeInstanceProfile-demo
`,
);

describe("Provisioner → NodePool", () => {
  test("the v1beta1 migration guide's Provisioner example", () => {
    const yaml = provisioner(
      "default",
      `
      providerRef:
        name: default
      annotations:
        custom-annotation: custom-value
      labels:
        team: team-a
        custom-label: custom-value
      requirements:
      - key: karpenter.k8s.aws/instance-generation
        operator: Gt
        values: ["3"]
      - key: karpenter.k8s.aws/instance-category
        operator: In
        values: ["c", "m", "r"]
      - key: karpenter.sh/capacity-type
        operator: In
        values: ["spot"]
      taints:
      - key: example.com/special-taint
        value: "true"
        effect: NoSchedule
      startupTaints:
      - key: example.com/another-taint
        value: "true"
        effect: NoSchedule
      limits:
        resources:
          cpu: 1000
          memory: 1000Gi
      weight: 50
      ttlSecondsUntilExpired: 2592000
      ttlSecondsAfterEmpty: 120
    `,
    );
    const pool = onlyPool(yaml, { legacyDefaults: false });
    expect(pool.kind).toBe("NodePool");
    expect(pool.name).toBe("default");
    expect(pool.props).toEqual({
      name: "default",
      annotations: { "custom-annotation": "custom-value" },
      labels: { team: "team-a", "custom-label": "custom-value" },
      requirements: [
        { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["3"] },
        { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
        { key: "karpenter.sh/capacity-type", operator: "In", values: ["spot"] },
      ],
      taints: [{ key: "example.com/special-taint", value: "true", effect: "NoSchedule" }],
      startupTaints: [{ key: "example.com/another-taint", value: "true", effect: "NoSchedule" }],
      limits: { cpu: "1000", memory: "1000Gi" },
      weight: 50,
      // 2592000 s = 30 days, written as people write it (the guide's 720h), not 2592000s
      expireAfter: "720h",
      disruption: { consolidationPolicy: "WhenEmpty", consolidateAfter: "2m" },
    });
    expect(pool.nodeClassRef).toEqual({ group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" });
    expect(pool.source).toEqual({
      document: 1,
      apiVersion: "karpenter.sh/v1alpha5",
      kind: "Provisioner",
      name: "default",
    });
    expect(noteAbout(pool.notes, "spec.ttlSecondsAfterEmpty").message).toContain(
      'consolidationPolicy WhenEmpty, consolidateAfter "2m"',
    );
    expect(noteAbout(pool.notes, "spec.ttlSecondsUntilExpired").message).toContain('expireAfter "720h"');
    expect(pool.notes.every((n) => n.level === "info")).toBe(true);
  });

  test.each([
    [0, "0s"],
    [45, "45s"],
    [60, "1m"],
    [90, "1m30s"],
    [3600, "1h"],
    [3601, "1h1s"],
    [5400, "1h30m"],
    [86400, "24h"],
    [2592000, "720h"],
    [9223372036, "2562047h47m16s"],
  ])(
    "%i seconds are written %s: hours, minutes, seconds without zero parts, in the CRD's duration pattern",
    (seconds, text) => {
      expect(humanDuration(seconds)).toBe(text);
      expect(DURATION.test(text)).toBe(true);
      expect(durationNanos(text)).toBe(BigInt(seconds) * 1_000_000_000n);
    },
  );

  test("TTLs come out as people write durations", () => {
    const pool = onlyPool(
      provisioner("p", "providerRef: { name: default }\nttlSecondsUntilExpired: 604800\nttlSecondsAfterEmpty: 90"),
    );
    expect(pool.props.expireAfter).toBe("168h");
    expect(pool.props.disruption).toEqual({ consolidationPolicy: "WhenEmpty", consolidateAfter: "1m30s" });
  });

  test("ttlSecondsAfterEmpty 0 is consolidateAfter 0s", () => {
    const pool = onlyPool(provisioner("p", "providerRef: { name: default }\nttlSecondsAfterEmpty: 0"));
    expect(pool.props.disruption).toEqual({ consolidationPolicy: "WhenEmpty", consolidateAfter: "0s" });
  });

  test("TTLs longer than Go's time.Duration (about 292 years) become Never, with an action note", () => {
    const pool = onlyPool(
      provisioner(
        "p",
        "providerRef: { name: default }\nttlSecondsUntilExpired: 315360000000\nttlSecondsAfterEmpty: 9223372037",
      ),
    );
    expect(pool.props.expireAfter).toBe("Never");
    expect(pool.props.disruption).toEqual({ consolidationPolicy: "WhenEmpty", consolidateAfter: "Never" });
    const expiry = noteAbout(pool.notes, "spec.ttlSecondsUntilExpired");
    expect(expiry.level).toBe("action");
    expect(expiry.message).toBe(
      '315360000000 seconds is longer than the longest duration Karpenter v1 can parse (2562047h47m16s, about 292 years: Go\'s time.ParseDuration fails above it): written as spec.template.spec.expireAfter "Never"; set a duration of at most 2562047h47m16s if that is not what you meant',
    );
    expect(noteAbout(pool.notes, "spec.ttlSecondsAfterEmpty").message).toContain(
      'written as disruption consolidateAfter "Never"',
    );
    // nothing left for the validation pass to reject
    expect(pool.notes.filter((n) => n.message.startsWith("the converted NodePool is invalid"))).toEqual([]);
  });

  test("a TTL beyond 2^53 (1e23 in YAML) is a whole number too: Never, with the action note", () => {
    const pool = onlyPool(
      provisioner("p", "providerRef: { name: default }\nttlSecondsUntilExpired: 99999999999999999999999"),
    );
    expect(pool.props.expireAfter).toBe("Never");
    expect(noteAbout(pool.notes, "spec.ttlSecondsUntilExpired").message).toMatch(
      /^1e\+23 seconds is longer than the longest duration Karpenter v1 can parse/,
    );
  });

  test("a TTL of exactly the largest whole number of seconds is kept", () => {
    const pool = onlyPool(provisioner("p", "providerRef: { name: default }\nttlSecondsUntilExpired: 9223372036"));
    expect(pool.props.expireAfter).toBe("2562047h47m16s");
    expect(noteAbout(pool.notes, "spec.ttlSecondsUntilExpired").level).toBe("info");
  });

  test("consolidation.enabled: true → WhenEmptyOrUnderutilized after 0s", () => {
    const pool = onlyPool(provisioner("p", "providerRef: { name: default }\nconsolidation: { enabled: true }"));
    expect(pool.props.disruption).toEqual({ consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "0s" });
    expect(noteAbout(pool.notes, "spec.consolidation.enabled").level).toBe("info");
  });

  test("consolidation with ttlSecondsAfterEmpty (invalid in v1alpha5): consolidation wins, the TTL is noted", () => {
    const pool = onlyPool(
      provisioner("p", "providerRef: { name: default }\nconsolidation: { enabled: true }\nttlSecondsAfterEmpty: 30"),
    );
    expect(pool.props.disruption).toEqual({ consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "0s" });
    const note = noteAbout(pool.notes, "spec.ttlSecondsAfterEmpty");
    expect(note).toMatchObject({ level: "action" });
    expect(note.message).toContain("ignored");
  });

  test.each([
    ["no disruption fields", ""],
    ["consolidation disabled", "consolidation: { enabled: false }"],
  ])("%s: no disruption, and a note says v1 consolidates by default", (_, extra) => {
    const pool = onlyPool(provisioner("p", `providerRef: { name: default }\n${extra}`));
    expect(pool.props.disruption).toBeUndefined();
    const note = noteAbout(pool.notes, "spec.ttlSecondsAfterEmpty");
    expect(note.level).toBe("action");
    expect(note.message).toContain('consolidateAfter: "Never"');
  });

  test("no ttlSecondsUntilExpired: no expireAfter, and a note about the 720h default", () => {
    const pool = onlyPool(provisioner("p", "providerRef: { name: default }"));
    expect(pool.props.expireAfter).toBeUndefined();
    const note = noteAbout(pool.notes, "spec.ttlSecondsUntilExpired");
    expect(note.level).toBe("action");
    expect(note.message).toContain("720h");
    expect(note.message).toContain('"Never"');
  });

  test("the v1alpha5 webhook defaults are added for the keys the Provisioner does not name", () => {
    const pool = onlyPool(provisioner("p", "providerRef: { name: default }"));
    expect(pool.props.requirements).toEqual([
      { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
      { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
      { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
      { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["2"] },
    ]);
    expect(notesAbout(pool.notes, "spec.requirements")).toHaveLength(5);
  });

  test("only the optional webhook defaults say legacyDefaults: false leaves them out; the capacity type is always stated", () => {
    const notes = notesAbout(onlyPool(provisioner("p", "providerRef: { name: default }")).notes, "spec.requirements");
    const optOut = "(legacyDefaults: false / --no-legacy-defaults leaves it out)";
    const capacity = notes.filter((n) => n.message.startsWith("added karpenter.sh/capacity-type"));
    expect(capacity).toHaveLength(1);
    expect(capacity[0].message).toBe(
      "added karpenter.sh/capacity-type In [on-demand]: the v1alpha5 webhook defaulted it and v1 does not",
    );
    const others = notes.filter((n) => !n.message.startsWith("added karpenter.sh/capacity-type"));
    expect(others).toHaveLength(4);
    for (const n of others) expect(n.message).toContain(optOut);
  });

  test("an instance family requirement suppresses the category / generation defaults; named keys are kept", () => {
    const pool = onlyPool(
      provisioner(
        "p",
        `
        providerRef: { name: default }
        requirements:
        - { key: karpenter.k8s.aws/instance-family, operator: In, values: [m5] }
        - { key: kubernetes.io/arch, operator: In, values: [arm64] }
      `,
      ),
    );
    expect(pool.props.requirements).toEqual([
      { key: "karpenter.k8s.aws/instance-family", operator: "In", values: ["m5"] },
      { key: "kubernetes.io/arch", operator: "In", values: ["arm64"] },
      { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
    ]);
  });

  test("a key fixed by a label gets no default requirement", () => {
    const pool = onlyPool(
      provisioner(
        "p",
        "providerRef: { name: default }\nlabels: { karpenter.sh/capacity-type: spot, kubernetes.io/arch: arm64 }",
      ),
    );
    expect(pool.props.requirements!.map((r) => r.key)).toEqual([
      "kubernetes.io/os",
      "karpenter.k8s.aws/instance-category",
      "karpenter.k8s.aws/instance-generation",
    ]);
  });

  test("legacyDefaults: false adds only the capacity type, which a v1 NodePool (and the NodePool construct) states", () => {
    const pool = onlyPool(provisioner("p", "providerRef: { name: default }"), { legacyDefaults: false });
    expect(pool.props.requirements).toEqual([
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
    ]);
    const note = noteAbout(pool.notes, "spec.requirements");
    expect(note.level).toBe("info");
    expect(note.message).toContain("a v1 NodePool requires requirements");
    expect(note.message).toContain("ServiceLinkedRoleCreationNotPermitted");
  });

  test("legacyDefaults: false with a capacity-type label: an empty requirements list, nothing added", () => {
    const pool = onlyPool(
      provisioner("p", "providerRef: { name: default }\nlabels: { karpenter.sh/capacity-type: spot }"),
      { legacyDefaults: false },
    );
    expect(pool.props.requirements).toEqual([]);
    expect(notesAbout(pool.notes, "spec.requirements")).toEqual([]);
  });

  test("do-not-evict / do-not-consolidate node annotations become karpenter.sh/do-not-disrupt", () => {
    const pool = onlyPool(
      provisioner(
        "p",
        `
      providerRef: { name: default }
      annotations:
        karpenter.sh/do-not-consolidate: "true"
        example.com/owner: team-a
    `,
      ),
    );
    expect(pool.props.annotations).toEqual({ "karpenter.sh/do-not-disrupt": "true", "example.com/owner": "team-a" });
    expect(noteAbout(pool.notes, 'spec.annotations["karpenter.sh/do-not-consolidate"]').message).toContain(
      "karpenter.sh/do-not-disrupt",
    );
  });

  test("a providerRef to another kind is converted to an EC2NodeClass reference and noted", () => {
    const pool = onlyPool(
      provisioner("p", "providerRef: { name: gpu, kind: SomethingElse, apiVersion: example.com/v1 }"),
    );
    expect(pool.nodeClassRef).toEqual({ group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "gpu" });
    expect(noteAbout(pool.notes, "spec.providerRef").level).toBe("action");
  });

  test("no providerRef and no provider: no nodeClassRef, and a note", () => {
    const pool = onlyPool(provisioner("p", "weight: 10"));
    expect(pool.nodeClassRef).toBeUndefined();
    expect(noteAbout(pool.notes, "spec.providerRef").level).toBe("action");
  });

  test("an inline provider becomes an EC2NodeClass named after the Provisioner (as karpenter-convert does)", () => {
    const r = convertLegacyManifests(
      provisioner(
        "team-a",
        `
        provider:
          apiVersion: extensions.karpenter.sh/v1alpha1
          kind: AWS
          amiFamily: Bottlerocket
          instanceProfile: KarpenterNodeInstanceProfile-demo
          subnetSelector: { karpenter.sh/discovery: demo }
          securityGroupSelector: { karpenter.sh/discovery: demo }
          tags:
            test-tag: test-value
          userData: "not a field of the inline provider"
      `,
      ),
    );
    expect(r.objects.map((o) => `${o.kind}/${o.name}`)).toEqual(["NodePool/team-a", "EC2NodeClass/team-a"]);
    expect(r.nodePools[0].nodeClassRef).toEqual({ group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "team-a" });
    const cls = r.ec2NodeClasses[0];
    expect(cls.source).toMatchObject({ document: 1, kind: "Provisioner", name: "team-a" });
    expect(cls.props).toEqual({
      name: "team-a",
      instanceProfile: "KarpenterNodeInstanceProfile-demo",
      amiSelectorTerms: [{ alias: "bottlerocket@latest" }],
      subnetSelectorTerms: [{ tags: { "karpenter.sh/discovery": "demo" } }],
      securityGroupSelectorTerms: [{ tags: { "karpenter.sh/discovery": "demo" } }],
      tags: { "test-tag": "test-value" },
    });
    // userData is an AWSNodeTemplate field, not an inline provider field: noted, not dropped silently
    expect(noteAbout(cls.notes, "spec.provider.userData").level).toBe("action");
    expect(noteAbout(r.nodePools[0].notes, "spec.provider").level).toBe("info");
  });

  test("kubeletConfiguration moves to the EC2NodeClass converted from the referenced AWSNodeTemplate", () => {
    const r = convertLegacyManifests(
      provisioner(
        "default",
        `
        providerRef: { name: default }
        kubeletConfiguration:
          containerRuntime: dockerd
          maxPods: 20
          systemReserved: { cpu: 100m, memory: 100Mi, ephemeral-storage: 1Gi }
          evictionHard: { memory.available: 5% }
      `,
      ) +
        "---\n" +
        TEMPLATE,
    );
    const [pool, cls] = [r.nodePools[0], r.ec2NodeClasses[0]];
    expect(cls.props.kubelet).toEqual({
      maxPods: 20,
      systemReserved: { cpu: "100m", memory: "100Mi", "ephemeral-storage": "1Gi" },
      evictionHard: { "memory.available": "5%" },
    });
    expect(noteAbout(pool.notes, "spec.kubeletConfiguration").message).toContain("moved to EC2NodeClass default");
    expect(noteAbout(cls.notes, "spec.kubelet").message).toContain("NodePool default");
    // containerRuntime has no v1 field (dropped in v1beta1)
    expect(noteAbout(pool.notes, "spec.kubeletConfiguration.containerRuntime").level).toBe("action");
  });

  test("kubeletConfiguration whose node class is not in the input is carried by a note", () => {
    const pool = onlyPool(
      provisioner("default", "providerRef: { name: default }\nkubeletConfiguration: { maxPods: 20 }"),
    );
    const note = noteAbout(pool.notes, "spec.kubeletConfiguration");
    expect(note.level).toBe("action");
    expect(note.message).toContain('{"maxPods":20}');
    // valid: no other note on the kubelet
    expect(pool.notes.filter((n) => n.field.startsWith("spec.kubeletConfiguration."))).toEqual([]);
  });

  test("a kubelet carried by a note is judged as its class would judge it (fresh tester 19, C-2)", () => {
    const pool = onlyPool(
      provisioner(
        "p7",
        "providerRef: { name: t1 }\nkubeletConfiguration: { imageGCHighThresholdPercent: 50, imageGCLowThresholdPercent: 60, maxPods: -1 }",
      ),
    );
    expect(noteAbout(pool.notes, "spec.kubeletConfiguration").level).toBe("action");
    const bad = pool.notes.filter((n) => n.field.startsWith("spec.kubeletConfiguration."));
    expect(bad.map((n) => n.field).sort()).toEqual([
      "spec.kubeletConfiguration.imageGCHighThresholdPercent",
      "spec.kubeletConfiguration.maxPods",
    ]);
    for (const n of bad) {
      // an action that makes the conversion unusable as it is: counted in the CLI's invalid summary (exit 1)
      expect(n).toMatchObject({ level: "action", invalid: true });
      expect(n.message).toContain("fix it before adding it");
    }
  });

  test("a legacy label key is carried over and noted; v1 validation rejects it in a note", () => {
    const pool = onlyPool(
      provisioner(
        "p",
        `
      providerRef: { name: default }
      requirements:
      - { key: karpenter.sh/provisioner-name, operator: DoesNotExist }
    `,
      ),
    );
    expect(pool.props.requirements![0]).toEqual({ key: "karpenter.sh/provisioner-name", operator: "DoesNotExist" });
    expect(noteAbout(pool.notes, "spec.requirements[0].key").message).toContain("karpenter.sh/nodepool");
    const invalid = noteAbout(pool.notes, "spec.template.spec.requirements[0].key");
    expect(invalid.level).toBe("action");
    expect(invalid.message).toContain("invalid in Karpenter 1.15.3");
  });

  test("unknown spec fields are noted, never dropped silently", () => {
    const pool = onlyPool(provisioner("p", "providerRef: { name: default }\nsomethingNew: 3"));
    const note = noteAbout(pool.notes, "spec.somethingNew");
    expect(note.level).toBe("action");
    expect(note.message).toContain("not converted");
  });

  test("provider and providerRef together are an error", () => {
    expect(() =>
      convertLegacyManifests(provisioner("p", "providerRef: { name: default }\nprovider: { amiFamily: AL2 }")),
    ).toThrow(
      /^document 1 \(line \d+\): spec\.provider = \{"amiFamily":"AL2"\} is invalid: unset when providerRef is set/,
    );
  });
});
