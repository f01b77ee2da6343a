import { KarpenterValidationError } from "../../lib/core/errors";
import { convertLegacyManifests, formatNotes, LegacyManifestError, toV1Manifest, toV1Yaml } from "../../lib/convert";
import { runCli } from "../../lib/cli";
import { noteAbout } from "./util";

// NodeOverlay and CapacityBuffer in the converter's input: read as the target release's CRD has them.

const OVERLAY = `apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata: { name: spot-discount }
spec:
  requirements:
    - { key: karpenter.sh/capacity-type, operator: In, values: [spot] }
    - { key: karpenter.k8s.aws/instance-gpu-count, operator: Gte, values: ["1"] }
  priceAdjustment: "-10%"
  capacity: { smarter-devices/fuse: 1 }
  weight: 10
`;

const BUFFER = `apiVersion: autoscaling.x-k8s.io/v1beta1
kind: CapacityBuffer
metadata: { name: web-headroom, namespace: apps }
spec:
  scalableRef: { apiGroup: apps, kind: Deployment, name: web }
  percentage: 20
  limits: { cpu: 8, memory: 32Gi }
  provisioningStrategy: buffer.x-k8s.io/active-capacity
`;

const OVERLAY_GATE =
  "the install must enable the NodeOverlay feature gate: Karpenter reads NodeOverlays only with settings.featureGates.nodeOverlay: true (alpha, off by default), otherwise the object is applied and then ignored. Set settings: { featureGates: { nodeOverlay: true } } on the Karpenter construct (the chart value settings.featureGates.nodeOverlay), and pass it as the NodeOverlay's karpenter";

describe("NodeOverlay", () => {
  test("read field for field into the NodeOverlay props, with the feature gate the install needs", () => {
    const r = convertLegacyManifests(OVERLAY);
    expect(r.objects).toHaveLength(1);
    expect(r.nodeOverlays).toEqual(r.objects);
    const o = r.nodeOverlays[0];
    expect(o.kind).toBe("NodeOverlay");
    expect(o.name).toBe("spot-discount");
    expect(o.apiVersion).toBe("karpenter.sh/v1alpha1");
    expect(o.props).toEqual({
      name: "spot-discount",
      requirements: [
        { key: "karpenter.sh/capacity-type", operator: "In", values: ["spot"] },
        { key: "karpenter.k8s.aws/instance-gpu-count", operator: "Gte", values: ["1"] },
      ],
      priceAdjustment: "-10%",
      // a YAML number is the same quantity as its text, as the props take it
      capacity: { "smarter-devices/fuse": "1" },
      weight: 10,
    });
    expect(o.notes).toEqual([
      {
        level: "info",
        field: "apiVersion",
        message:
          "already karpenter.sh/v1alpha1: carried over field for field (the spec fields of the NodeOverlay CRD of Karpenter 1.15.3)",
      },
      { level: "action", field: "kind", message: OVERLAY_GATE },
    ]);
    expect(o.source).toEqual({
      document: 1,
      apiVersion: "karpenter.sh/v1alpha1",
      kind: "NodeOverlay",
      name: "spot-discount",
    });
    expect(toV1Manifest(o)).toEqual({
      apiVersion: "karpenter.sh/v1alpha1",
      kind: "NodeOverlay",
      metadata: { name: "spot-discount" },
      spec: {
        capacity: { "smarter-devices/fuse": "1" },
        priceAdjustment: "-10%",
        requirements: o.props.requirements,
        weight: 10,
      },
    });
  });

  test("a target release without the NodeOverlay CRD (before 1.7): invalid, read as the first release that ships it", () => {
    const o = convertLegacyManifests(OVERLAY.replace(/ +- \{ key: karpenter.k8s.aws\/instance-gpu-count.*\n/, ""), {
      version: "1.6.8",
    }).nodeOverlays[0];
    expect(noteAbout(o.notes, "apiVersion")).toEqual({
      level: "action",
      field: "apiVersion",
      invalid: true,
      message:
        "Karpenter 1.6.8 has no NodeOverlay CRD: the karpenter-crd chart ships it from 1.7.0 on, so the API server of a cluster running 1.6.8 refuses the object (and the NodeOverlay construct refuses that version). Convert with --karpenter-version 1.7.6 (or another 1.7+ release) and install that release, or leave the NodeOverlay out; its fields were read as the NodeOverlay CRD of Karpenter 1.7.6 has them",
    });
    expect(o.props.weight).toBe(10);
    // the gate note still says what the install needs
    expect(noteAbout(o.notes, "kind").message).toBe(OVERLAY_GATE);
    // the only invalid note: the object is not checked against a release that has no such CRD
    expect(o.notes.filter((n) => n.invalid)).toHaveLength(1);
  });

  test("an operator of a later release (Gte, 1.9) is invalid for a 1.8 target, naming the release", () => {
    const o = convertLegacyManifests(OVERLAY, { version: "1.8.8" }).nodeOverlays[0];
    const n = noteAbout(o.notes, "spec.requirements[1].operator");
    expect(n.invalid).toBe(true);
    expect(n.message).toBe(
      'the converted NodeOverlay is invalid in Karpenter 1.8.8 (the NodeOverlay construct rejects it: the API server refuses it, or Karpenter or EC2 fails on it): spec.requirements[1].operator = "Gte": requirements[].operator Gte needs Karpenter 1.9 or later (first in the v1.9.0 CRDs); this object targets Karpenter 1.8.8: upgrade Karpenter or remove it',
    );
    expect(convertLegacyManifests(OVERLAY, { version: "1.9.2" }).nodeOverlays[0].notes.some((x) => x.invalid)).toBe(
      false,
    );
  });

  test("every problem the NodeOverlay rules find is its own invalid note (CRD rules, CEL rules, rules beyond the CRD)", () => {
    const o = convertLegacyManifests(`apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata: { name: Bad_Name }
spec:
  requirements:
    - { key: kubernetes.io/hostname, operator: In, values: [a] }
    - { key: karpenter.sh/capacity-type, operator: Exists, values: [spot] }
  price: "0.5"
  priceAdjustment: "+1"
  capacity: { cpu: 2, example.com/dev: "-1" }
  weight: 20000
`).nodeOverlays[0];
    const invalid = o.notes.filter((n) => n.invalid).map((n) => n.field);
    expect(invalid).toEqual([
      "metadata.name",
      "spec.weight",
      "spec.priceAdjustment",
      'spec.capacity["cpu"]',
      "spec.requirements[0].key",
      "spec.requirements[1].values",
      'spec.capacity["example.com/dev"]',
    ]);
    expect(noteAbout(o.notes, "spec.priceAdjustment").message).toContain(
      `NodeOverlay CRD: "cannot set both 'price' and 'priceAdjustment'"`,
    );
    // the rules beyond the CRD say that the API server takes the object
    expect(noteAbout(o.notes, 'spec.capacity["example.com/dev"]').message).toContain(
      "the API server accepts it, and Karpenter, EC2 or the kubelet then fails on it",
    );
  });

  test("an overlay that changes nothing gets the construct's synth warning as an action note", () => {
    const o = convertLegacyManifests(`apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata: { name: idle }
spec: { requirements: [] }
`).nodeOverlays[0];
    expect(noteAbout(o.notes, "spec")).toEqual({
      level: "action",
      field: "spec",
      message:
        "the NodeOverlay construct warns at synth: NodeOverlay idle sets none of price, priceAdjustment and capacity, so it changes nothing for the instance types it matches",
    });
  });

  test("a spec key the CRD lacks is noted and left out; a missing spec is an invalid object (requirements required)", () => {
    const o = convertLegacyManifests(`apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata: { name: typo, namespace: ignored }
spec: { requirements: [], pricce: "1" }
`).nodeOverlays[0];
    expect(o.props).toEqual({ name: "typo", requirements: [] });
    expect(noteAbout(o.notes, "spec.pricce")).toMatchObject({ level: "action" });
    expect(noteAbout(o.notes, "spec.pricce").message).toContain(
      "not a field of NodeOverlay karpenter.sh/v1alpha1, so Karpenter never applied it",
    );
    // a cluster-scoped object has no namespace: noted as set by the cluster
    expect(noteAbout(o.notes, "metadata").message).toContain("metadata.namespace");
    const none = convertLegacyManifests("apiVersion: karpenter.sh/v1alpha1\nkind: NodeOverlay\nmetadata: { name: x }\n")
      .nodeOverlays[0];
    expect(noteAbout(none.notes, "spec.requirements")).toMatchObject({ invalid: true });
  });

  test("two NodeOverlays of one name: the converter's duplicate error", () => {
    const e = (() => {
      try {
        convertLegacyManifests(`${OVERLAY}---\n${OVERLAY}`);
      } catch (x) {
        return x;
      }
      return undefined;
    })();
    expect(e).toBeInstanceOf(LegacyManifestError);
    expect((e as LegacyManifestError).code).toBe("CONVERT_DUPLICATE_NAME");
    expect((e as LegacyManifestError).message).toContain(
      "document 1 (NodeOverlay) also converts to NodeOverlay spot-discount",
    );
  });

  test("a capacity that is no quantity: the converter's type error", () => {
    expect(() =>
      convertLegacyManifests(
        "apiVersion: karpenter.sh/v1alpha1\nkind: NodeOverlay\nmetadata: { name: x }\nspec:\n  requirements: []\n  capacity: { a/b: [1] }\n",
      ),
    ).toThrow(/^document 1 \(line 6\): spec\.capacity\["a\/b"\] = \[1\] is invalid: .*\[CONVERT_QUANTITY\]$/);
  });
});

describe("CapacityBuffer", () => {
  test("read field for field into the CapacityBuffer props, namespace included", () => {
    const r = convertLegacyManifests(BUFFER);
    const b = r.capacityBuffers[0];
    expect(r.objects).toEqual([b]);
    expect(b).toMatchObject({
      kind: "CapacityBuffer",
      name: "web-headroom",
      namespace: "apps",
      apiVersion: "autoscaling.x-k8s.io/v1beta1",
    });
    expect(b.props).toEqual({
      name: "web-headroom",
      namespace: "apps",
      scalableRef: { apiGroup: "apps", kind: "Deployment", name: "web" },
      percentage: 20,
      limits: { cpu: "8", memory: "32Gi" },
      provisioningStrategy: "buffer.x-k8s.io/active-capacity",
    });
    expect(b.notes.map((n) => [n.level, n.field])).toEqual([
      ["info", "apiVersion"],
      ["action", "kind"],
    ]);
    expect(noteAbout(b.notes, "kind").message).toContain(
      "Karpenter reads CapacityBuffers only with settings.featureGates.capacityBuffer: true (alpha, off by default)",
    );
    expect(toV1Manifest(b)).toEqual({
      apiVersion: "autoscaling.x-k8s.io/v1beta1",
      kind: "CapacityBuffer",
      metadata: { name: "web-headroom", namespace: "apps" },
      spec: {
        limits: { cpu: "8", memory: "32Gi" },
        percentage: 20,
        provisioningStrategy: "buffer.x-k8s.io/active-capacity",
        scalableRef: { apiGroup: "apps", kind: "Deployment", name: "web" },
      },
    });
  });

  test("without a namespace: the construct's default namespace, written out, with a note", () => {
    const b = convertLegacyManifests(BUFFER.replace(", namespace: apps", "")).capacityBuffers[0];
    expect(b.namespace).toBe("default");
    expect(b.props.namespace).toBeUndefined();
    expect(toV1Manifest(b).metadata).toEqual({ name: "web-headroom", namespace: "default" });
    expect(noteAbout(b.notes, "metadata.namespace").level).toBe("info");
  });

  test.each(["1.13.1", "1.0.14"])("a %s target (before 1.14, no CapacityBuffer CRD): invalid", (version) => {
    const b = convertLegacyManifests(BUFFER, { version }).capacityBuffers[0];
    const n = noteAbout(b.notes, "apiVersion");
    expect(n.invalid).toBe(true);
    expect(n.message).toBe(
      `Karpenter ${version} has no CapacityBuffer CRD: the karpenter-crd chart ships it from 1.14.0 on, so the API server of a cluster running ${version} refuses the object (and the CapacityBuffer construct refuses that version). Convert with --karpenter-version 1.14.4 (or another 1.14+ release) and install that release, or leave the CapacityBuffer out; its fields were read as the CapacityBuffer CRD of Karpenter 1.14.4 has them`,
    );
    expect(b.props.percentage).toBe(20);
  });

  test("the CapacityBuffer rules: CEL rules and rules beyond the CRD as invalid notes, the construct's warnings as action notes", () => {
    const b = convertLegacyManifests(`apiVersion: autoscaling.x-k8s.io/v1beta1
kind: CapacityBuffer
metadata: { name: buf, namespace: Apps }
spec:
  podTemplateRef: { name: tmpl }
  scalableRef: { apiGroup: apps/v1, kind: deployments, name: web }
  replicas: -1
  limits: { cpus: "4" }
  provisioningStrategy: other
`).capacityBuffers[0];
    expect(b.notes.filter((n) => n.invalid).map((n) => n.field)).toEqual([
      "metadata.namespace",
      "spec.replicas",
      "spec.scalableRef",
      "spec.scalableRef.apiGroup",
      "spec.scalableRef.kind",
    ]);
    expect(noteAbout(b.notes, "spec.scalableRef").message).toContain(
      'CapacityBuffer CRD: "You must define either PodTemplateRef or ScalableRef, but not both"',
    );
    const warnings = b.notes.filter((n) => n.message.startsWith("the CapacityBuffer construct warns at synth"));
    expect(warnings.map((n) => [n.level, n.field])).toEqual([
      ["action", "spec.limits"],
      ["action", "spec.provisioningStrategy"],
    ]);
  });

  test("one name per namespace: the same name in two namespaces is fine, twice in the default namespace is not", () => {
    const noNs = BUFFER.replace(", namespace: apps", "");
    expect(convertLegacyManifests(`${BUFFER}---\n${noNs}`).capacityBuffers.map((b) => b.namespace)).toEqual([
      "apps",
      "default",
    ]);
    expect(() =>
      convertLegacyManifests(`${noNs}---\n${BUFFER.replace("namespace: apps", "namespace: default")}`),
    ).toThrow(
      /^document 2 \(line 12\): metadata\.name = "web-headroom" is invalid: a name no other CapacityBuffer of the input has in its namespace: document 1 \(CapacityBuffer\) also converts to CapacityBuffer default\/web-headroom \[CONVERT_DUPLICATE_NAME\]$/,
    );
  });
});

describe("with other objects", () => {
  test("API versions no release serves are skipped with a note that names the served one", () => {
    const r = convertLegacyManifests(
      "apiVersion: autoscaling.x-k8s.io/v1alpha1\nkind: CapacityBuffer\nmetadata: { name: old }\nspec: {}\n---\napiVersion: karpenter.sh/v1beta1\nkind: NodeOverlay\nmetadata: { name: o }\n---\napiVersion: example.com/v1\nkind: NodeOverlay\nmetadata: { name: mine }\n",
    );
    expect(r.objects).toEqual([]);
    expect(r.notes).toEqual([
      {
        level: "action",
        field: "document 1",
        message:
          "skipped autoscaling.x-k8s.io/v1alpha1 CapacityBuffer old: Karpenter's CapacityBuffer CRD serves autoscaling.x-k8s.io/v1beta1 only (no release this library knows serves autoscaling.x-k8s.io/v1alpha1): rewrite it to autoscaling.x-k8s.io/v1beta1 (its fields are named in the CapacityBuffer reference) and convert it again",
      },
      {
        level: "action",
        field: "document 2",
        message:
          "skipped karpenter.sh/v1beta1 NodeOverlay o: Karpenter's NodeOverlay CRD serves karpenter.sh/v1alpha1 only (no release this library knows serves karpenter.sh/v1beta1): rewrite it to karpenter.sh/v1alpha1 (its fields are named in the NodeOverlay reference) and convert it again",
      },
      // a kind of that name in another group is not Karpenter's
      {
        level: "info",
        field: "document 3",
        message: "skipped example.com/v1 NodeOverlay mine: not a Karpenter NodePool or node class",
      },
    ]);
  });

  test("in input order beside converted NodePools, from a kind: List too; YAML and notes as for the others", () => {
    const list = `apiVersion: v1
kind: List
items:
  - apiVersion: karpenter.sh/v1beta1
    kind: NodePool
    metadata: { name: beta }
    spec:
      template:
        spec:
          nodeClassRef: { name: default }
          requirements: [{ key: karpenter.sh/capacity-type, operator: In, values: [on-demand] }]
      disruption: { consolidationPolicy: WhenEmpty, consolidateAfter: 30s, expireAfter: 720h }
  - apiVersion: karpenter.sh/v1alpha1
    kind: NodeOverlay
    metadata: { name: fuse }
    spec:
      requirements: []
      capacity: { smarter-devices/fuse: "1" }
`;
    const r = convertLegacyManifests(`${list}---\n${BUFFER}`);
    expect(r.objects.map((o) => `${o.kind}/${o.name}`)).toEqual([
      "NodePool/beta",
      "NodeOverlay/fuse",
      "CapacityBuffer/web-headroom",
    ]);
    expect(r.nodeOverlays[0].source).toEqual({
      document: 1,
      item: 1,
      apiVersion: "karpenter.sh/v1alpha1",
      kind: "NodeOverlay",
      name: "fuse",
    });
    const yaml = toV1Yaml(r);
    expect(yaml).toContain(
      '---\napiVersion: karpenter.sh/v1alpha1\nkind: NodeOverlay\nmetadata:\n  name: fuse\nspec:\n  capacity:\n    smarter-devices/fuse: "1"\n  requirements: []\n---\napiVersion: autoscaling.x-k8s.io/v1beta1\nkind: CapacityBuffer\nmetadata:\n  name: web-headroom\n  namespace: apps\n',
    );
    expect(formatNotes(r)).toContain(
      `document 1 items[1] NodeOverlay/fuse → NodeOverlay/fuse: [action] kind: ${OVERLAY_GATE}`,
    );
  });

  test("bad options are refused before any object is read", () => {
    expect(() => convertLegacyManifests(OVERLAY, { version: "0.37.0" })).toThrow(KarpenterValidationError);
  });
});

describe("the convert command", () => {
  function io() {
    const out = { out: "", err: "" };
    return {
      out,
      io: {
        stdout: (t: string) => (out.out += t),
        stderr: (t: string) => (out.err += t),
        readFile: (p: string) => ({ "o.yaml": OVERLAY, "b.yaml": BUFFER })[p]!,
        readStdin: async () => "",
      },
    };
  }

  test("prints the objects and exits 0; the feature gate notes are on stderr", async () => {
    const { out, io: x } = io();
    expect(await runCli(["convert", "o.yaml"], x)).toBe(0);
    expect(out.out).toMatch(/^apiVersion: karpenter\.sh\/v1alpha1\nkind: NodeOverlay\n/);
    expect(out.err).toContain("[action] kind: the install must enable the NodeOverlay feature gate");
  });

  test("a --karpenter-version without the CRD: printed, and exit 1 naming the object", async () => {
    const { out, io: x } = io();
    expect(await runCli(["convert", "--karpenter-version", "1.13.1", "b.yaml"], x)).toBe(1);
    expect(out.out).toContain("kind: CapacityBuffer");
    expect(out.err).toContain(
      "error: 1 converted object is invalid for Karpenter 1.13.1 as printed: CapacityBuffer/web-headroom (apiVersion)",
    );
  });
});
