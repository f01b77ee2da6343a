import { KarpenterValidationError } from "../../lib/core/errors";
import { upgradePlan, upgradePlanMarkdown } from "../../lib/upgrade";
import { compareVersionFacts, FactsSource, planUpgrade } from "../../lib/upgrade/upgrade-plan";
import { ObjectCrdFacts, VersionFacts } from "../../lib/upgrade/facts";

/*
 * The NodeOverlay and CapacityBuffer CRDs in upgrade plans: the CRD appearing (with the feature gate the chart
 * reads it behind) or going (its objects deleted with it), its API version, fields and enum values; over fixture
 * facts, then over the real data. upgrade-plan-reference.test.ts holds every pair of releases against the CRDs.
 */

function facts(minor: string, patch: number, over: Partial<VersionFacts> = {}): VersionFacts {
  return {
    version: `${minor}.${patch}`,
    minor,
    kubernetes: { min: "1.26", max: "1.33" },
    controllerPolicy: [],
    errata: [],
    nodeRolePolicies: [],
    interruptionRules: [],
    chart: { settings: [], featureGates: [], awsFeatureGates: [], valuePaths: [] },
    crds: {
      nodePool: { fields: ["spec.weight"], enums: {}, freeForm: [] },
      ec2NodeClass: { fields: ["spec.role"], enums: {}, freeForm: [] },
    },
    ...over,
  };
}

const OVERLAY_A1: ObjectCrdFacts = {
  apiVersion: "karpenter.sh/v1alpha1",
  scope: "Cluster",
  fields: ["spec.price", "spec.requirements", "spec.requirements[].operator"],
  enums: { "spec.requirements[].operator": ["In", "NotIn"] },
  freeForm: [],
};
const OVERLAY_B1: ObjectCrdFacts = {
  apiVersion: "karpenter.sh/v1beta1",
  scope: "Cluster",
  fields: ["spec.capacity", "spec.requirements", "spec.requirements[].operator"],
  enums: { "spec.requirements[].operator": ["Gte", "In"] },
  freeForm: [],
};
const BUFFER: ObjectCrdFacts = {
  apiVersion: "autoscaling.x-k8s.io/v1beta1",
  scope: "Namespaced",
  fields: ["spec.replicas"],
  enums: {},
  freeForm: [],
};
const gate = (key: string) => ({ key, kind: "boolean", default: false, since: "1.7.0" });
const withCrds = (crds: Partial<VersionFacts["crds"]>) => ({ ...facts("1.0", 0).crds, ...crds });

describe("compareVersionFacts of the object CRDs", () => {
  test("a CRD that appears: every field and enum value added, its API version, and the gate of the newer chart", () => {
    const s = compareVersionFacts(
      facts("1.6", 8),
      facts("1.7", 6, {
        crds: withCrds({ nodeOverlay: OVERLAY_A1 }),
        chart: { settings: [], featureGates: [gate("nodeOverlay")], awsFeatureGates: [], valuePaths: [] },
      }),
    );
    expect(s.crds.nodeOverlay).toEqual({
      kind: "NodeOverlay",
      crd: "added",
      apiVersion: { to: "karpenter.sh/v1alpha1" },
      featureGate: "nodeOverlay",
      fields: { added: OVERLAY_A1.fields, removed: [] },
      freeForm: { added: [], removed: [] },
      enumValues: [{ path: "spec.requirements[].operator", added: ["In", "NotIn"], removed: [] }],
    });
    expect(s.crds.capacityBuffer).toEqual({
      kind: "CapacityBuffer",
      crd: "absent",
      apiVersion: {},
      fields: { added: [], removed: [] },
      freeForm: { added: [], removed: [] },
      enumValues: [],
    });
  });

  test("a CRD that goes: every field and enum value removed; no gate", () => {
    const s = compareVersionFacts(facts("1.14", 1, { crds: withCrds({ capacityBuffer: BUFFER }) }), facts("1.13", 1));
    expect(s.crds.capacityBuffer).toEqual({
      kind: "CapacityBuffer",
      crd: "removed",
      apiVersion: { from: "autoscaling.x-k8s.io/v1beta1" },
      fields: { added: [], removed: ["spec.replicas"] },
      freeForm: { added: [], removed: [] },
      enumValues: [],
    });
  });

  test("a CRD on both sides: its API version change, fields and enum values added and removed", () => {
    const s = compareVersionFacts(
      facts("1.8", 0, { crds: withCrds({ nodeOverlay: OVERLAY_A1 }) }),
      facts("1.9", 0, { crds: withCrds({ nodeOverlay: OVERLAY_B1 }) }),
    );
    expect(s.crds.nodeOverlay).toEqual({
      kind: "NodeOverlay",
      crd: "kept",
      apiVersion: { from: "karpenter.sh/v1alpha1", to: "karpenter.sh/v1beta1" },
      fields: { added: ["spec.capacity"], removed: ["spec.price"] },
      freeForm: { added: [], removed: [] },
      enumValues: [{ path: "spec.requirements[].operator", added: ["Gte"], removed: ["NotIn"] }],
    });
    const md = upgradePlanMarkdown(planUpgrade(fixtureSource({ "1.8": OVERLAY_A1, "1.9": OVERLAY_B1 }), "1.8", "1.9"));
    expect(md).toContain(
      "### NodeOverlay\n\n- API version `karpenter.sh/v1alpha1` → `karpenter.sh/v1beta1`\n- field added: `spec.capacity`\n- field removed: `spec.price`\n- `spec.requirements[].operator` values added: `Gte`\n- `spec.requirements[].operator` values removed: `NotIn`\n",
    );
  });
});

/** Minors 1.8 and 1.9 with the given NodeOverlay CRD per minor (none when not given). */
function fixtureSource(overlay: Record<string, ObjectCrdFacts>): FactsSource {
  const newest: Record<string, VersionFacts> = Object.fromEntries(
    ["1.8", "1.9"].map((m) => [
      m,
      facts(m, 1, {
        crds: withCrds(overlay[m] ? { nodeOverlay: overlay[m] } : {}),
        chart: {
          settings: [],
          featureGates: overlay[m] ? [gate("nodeOverlay")] : [],
          awsFeatureGates: [],
          valuePaths: [],
        },
      }),
    ]),
  );
  return {
    knownMinors: () => Object.keys(newest),
    facts: (v) => {
      const f = newest[v.split(".").slice(0, 2).join(".")];
      if (!f)
        throw new KarpenterValidationError("KARPENTER_VERSION_UNKNOWN", "versionFacts", "version", v, "a known minor");
      return f;
    },
  };
}

describe("plans over fixture facts", () => {
  test("the CRD appearing: a line in the CRD release phase, naming the gate", () => {
    const plan = planUpgrade(fixtureSource({ "1.9": OVERLAY_A1 }), "1.8", "1.9");
    expect(plan.deployOrder[0].changes).toContain(
      "NodeOverlay CRD added (karpenter.sh/v1alpha1, 3 spec fields): NodeOverlay objects can be created from now on; Karpenter reads them only with settings.featureGates.nodeOverlay: true",
    );
    // nothing to remove from the node objects
    expect(plan.deployOrder[3].changes).toEqual([]);
    expect(plan.hazards.map((h) => h.id)).not.toContain("nodeoverlay-crd-removed");
    expect(upgradePlanMarkdown(plan)).toContain(
      "### NodeOverlay\n\n- CRD added: `karpenter.sh/v1alpha1` NodeOverlay, read by Karpenter only with the feature gate `settings.featureGates.nodeOverlay` on; spec fields `spec.price`, `spec.requirements`, `spec.requirements[].operator`\n",
    );
  });

  test("the CRD going (a downgrade): its objects are deleted with it: a hazard, the CRD phase and the node objects phase say so", () => {
    const plan = planUpgrade(fixtureSource({ "1.9": OVERLAY_A1 }), "1.9", "1.8");
    expect(plan.hazards.find((h) => h.id === "nodeoverlay-crd-removed")).toEqual({
      id: "nodeoverlay-crd-removed",
      kind: "downgrade",
      versions: "1.9.1 → 1.8.1",
      where: "to",
      problem:
        "the karpenter-crd chart of 1.8.1 has no NodeOverlay CRD (karpenter.sh/v1alpha1): deploying it deletes the CRD, and Kubernetes deletes every NodeOverlay object with it",
      advice:
        "remove every NodeOverlay from your stacks before deploying (the NodeOverlay construct refuses 1.8.1); keep a copy (kubectl get nodeoverlays -o yaml) to apply again after upgrading back",
    });
    expect(plan.deployOrder[0].changes).toContain(
      "NodeOverlay CRD removed: the karpenter-crd chart of 1.8.1 does not have it, so Helm deletes the CRD, and Kubernetes every NodeOverlay object with it",
    );
    expect(plan.deployOrder[3].changes).toEqual([
      "NodeOverlay objects: 1.8.1 has no NodeOverlay CRD (the constructs refuse that version): remove every NodeOverlay from your stacks first",
    ]);
    // said once for the kind, not field by field
    expect(plan.deployOrder[3].changes.join("\n")).not.toContain("spec.price");
  });

  test("a kept CRD's removed fields and enum values join the node objects phase; its API version change the CRD phase", () => {
    const plan = planUpgrade(fixtureSource({ "1.8": OVERLAY_A1, "1.9": OVERLAY_B1 }), "1.8", "1.9");
    expect(plan.deployOrder[0].changes).toEqual([
      "chart version 1.8.1 → 1.9.1; the CRDs are updated in place, existing NodePools and EC2NodeClasses are kept",
      "NodeOverlay served as karpenter.sh/v1beta1 instead of karpenter.sh/v1alpha1: manifests of the old API version are refused",
      "NodeOverlay: 1 field added, 1 field removed, enum values of 1 field changed",
    ]);
    expect(plan.deployOrder[3].changes).toEqual([
      "fields the new CRDs do not have (remove them from your node objects first): NodeOverlay spec.price",
      "enum values the new CRDs do not accept: NodeOverlay spec.requirements[].operator: NotIn",
    ]);
  });
});

describe("plans over the real data", () => {
  test("1.6 → 1.15: both CRDs appear, each with its gate", () => {
    const plan = upgradePlan("1.6", "1.15");
    expect(plan.net.crds.nodeOverlay).toMatchObject({
      crd: "added",
      apiVersion: { to: "karpenter.sh/v1alpha1" },
      featureGate: "nodeOverlay",
    });
    expect(plan.net.crds.capacityBuffer).toMatchObject({
      crd: "added",
      apiVersion: { to: "autoscaling.x-k8s.io/v1beta1" },
      featureGate: "capacityBuffer",
    });
    expect(plan.net.crds.capacityBuffer.fields.added).toContain("spec.scalableRef.kind");
    // the step that crosses each first release carries it
    expect(plan.steps.find((s) => s.crds.nodeOverlay.crd === "added")?.to).toBe("1.7.6");
    expect(plan.steps.find((s) => s.crds.capacityBuffer.crd === "added")?.to).toBe("1.14.1");
  });

  test("1.8 → 1.9: the NodeOverlay operators Gte and Lte", () => {
    expect(upgradePlan("1.8", "1.9").net.crds.nodeOverlay).toMatchObject({
      crd: "kept",
      apiVersion: { from: "karpenter.sh/v1alpha1", to: "karpenter.sh/v1alpha1" },
      fields: { added: [], removed: [] },
      enumValues: [{ path: "spec.requirements[].operator", added: ["Gte", "Lte"], removed: [] }],
    });
  });

  test("1.14 → 1.13: the CapacityBuffer CRD goes, with a hazard; NodeOverlay stays", () => {
    const plan = upgradePlan("1.14", "1.13");
    expect(plan.net.crds.capacityBuffer.crd).toBe("removed");
    expect(plan.net.crds.nodeOverlay.crd).toBe("kept");
    expect(plan.hazards.find((h) => h.id === "capacitybuffer-crd-removed")?.advice).toContain(
      "kubectl get capacitybuffers -A -o yaml",
    );
    expect(plan.hazards.map((h) => h.id)).not.toContain("nodeoverlay-crd-removed");
  });
});
