import * as fs from "fs";
import * as path from "path";
import { dataFileName, generateVersionData, renderDataFile, renderDataIndex } from "../../scripts/version-data";
import { knownMinors, knownReleases, versionData, versionFacts } from "../../lib/versions";
import { KarpenterValidationError } from "../../lib/core/errors";
import { VersionData } from "../../lib/versions/types";
import {
  celLists,
  crdEnumValues,
  crdEnumValueSince,
  crdFieldSince,
  crdFreeFormSince,
  crdKindSince,
  objectCrd,
} from "../../lib/versions";
import { describeWithReference, referenceRoot, referenceVersionsWith } from "../reference";

const DATA_DIR = path.resolve(__dirname, "../../lib/versions/data");
const referenceVersions = referenceVersionsWith("cloudformation.yaml");

describeWithReference(referenceVersions)(
  "add-version regenerates the committed data from the reference folders",
  () => {
    test("every reference version is a known release, and only those", () => {
      expect([...knownReleases()]).toEqual(referenceVersions);
    });

    test("each minor's data file is identical to what add-version writes (Kubernetes range as committed: it is command-line input)", () => {
      let previous: VersionData | undefined;
      const all: VersionData[] = [];
      for (const version of referenceVersions) {
        const minor = version.split(".").slice(0, 2).join(".");
        const committed = versionData(minor);
        const { data } = generateVersionData(path.join(referenceRoot(), `v${version}`), {
          kubernetes: `${committed.kubernetes.min}-${committed.kubernetes.max}`,
          previous,
        });
        expect(renderDataFile(data)).toEqual(fs.readFileSync(path.join(DATA_DIR, dataFileName(minor)), "utf8"));
        previous = data;
        all.push(data);
      }
      expect(renderDataIndex(all)).toEqual(fs.readFileSync(path.join(DATA_DIR, "index.ts"), "utf8"));
    });
  },
);

describe("versionFacts (contract with upgrade-plan)", () => {
  test("known minors are 1.0 to 1.14, oldest first", () => {
    expect(knownMinors()[0]).toBe("1.0");
    expect(knownMinors()).toContain("1.14");
    expect(knownMinors().length).toBe(knownReleases().length);
  });

  test("a minor or any patch of it gives the newest known patch's facts; settings follow the patch", () => {
    expect(versionFacts("1.6").version).toBe("1.6.8");
    expect(versionFacts("v1.6.8").chart.settings.map((s) => s.key)).toContain("disableDryRun");
    expect(versionFacts("1.6.1").chart.settings.map((s) => s.key)).not.toContain("disableDryRun");
    expect(versionFacts("1.6.1").kubernetes).toEqual({ min: "1.26", max: "1.33" });
    expect(versionFacts("1.6.8").kubernetes).toEqual({ min: "1.26", max: "1.34" });
    expect(versionFacts("1.14.9").version).toBe("1.14.1");
  });

  test("statements are normalised: sorted actions and resources, symbols, policy group from 1.9", () => {
    const f = versionFacts("1.14.1");
    const s = f.controllerPolicy.find((x) => x.sid === "AllowScopedEC2InstanceAccessActions")!;
    expect(s.actions).toEqual(["ec2:CreateFleet", "ec2:RunInstances"]);
    expect(s.resources).toContain("arn:{partition}:ec2:{region}::image/*");
    expect(s.policy).toBe("NodeLifecycle");
    expect(versionFacts("1.8").controllerPolicy.every((x) => x.policy === undefined)).toBe(true);
  });

  test("errata are applied and named", () => {
    const zonal = versionFacts("1.12.0").controllerPolicy.find((x) => x.sid === "AllowZonalShiftStatusReadOnly")!;
    expect(zonal.resources).toEqual(["*"]);
    expect(zonal.condition).toEqual({
      StringEquals: {
        "arc-zonal-shift:ResourceIdentifier": "arn:{partition}:eks:{region}:{account}:cluster/{cluster}",
      },
    });
    expect(versionFacts("1.12").errata).toEqual(["zonal-shift-resource-scope"]);
    const pass = versionFacts("1.0.3").controllerPolicy.find((x) => x.sid === "AllowPassingInstanceRole")!;
    expect(pass.condition).toEqual({
      StringEquals: { "iam:PassedToService": ["ec2.amazonaws.com", "ec2.amazonaws.com.cn"] },
    });
    expect(versionFacts("1.13").errata).toEqual([]);
  });

  test("CRD fields and enums", () => {
    const f = versionFacts("1.14");
    expect(f.crds.nodePool.fields).toContain("spec.template.spec.requirements[].operator");
    expect(f.crds.nodePool.enums["spec.disruption.consolidationPolicy"]).toEqual([
      "WhenEmpty",
      "WhenEmptyOrUnderutilized",
      "Balanced",
    ]);
    expect(f.crds.ec2NodeClass.fields).toContain("spec.cpuOptions");
    expect(versionFacts("1.12").crds.ec2NodeClass.fields).not.toContain("spec.cpuOptions");
  });

  test("unknown minors and malformed versions are refused with the known minors", () => {
    expect(() => versionFacts("1.16.0")).toThrow(KarpenterValidationError);
    expect(() => versionFacts("1.16.0")).toThrow(/known minor: 1\.0, .*1\.14, 1\.15 \[KARPENTER_VERSION_UNKNOWN\]$/);
    expect(() => versionFacts("latest")).toThrow(KarpenterValidationError);
    expect(() => versionFacts("1.8.08")).toThrow(KarpenterValidationError); // no chart version has leading zeros
  });
});

describe("the generated CRD history (CRD_SINCE of the data index)", () => {
  const firstMinorWith = (has: (d: VersionData) => boolean) => knownMinors().find((m) => has(versionData(m)));

  test("dates fields, enum values and free-form objects by the first minor whose CRD has them", () => {
    expect(crdFieldSince("nodePool", "spec.replicas")).toBe("1.8");
    expect(crdFieldSince("ec2NodeClass", "spec.enclaveOptions")).toBe("1.15");
    expect(crdFieldSince("ec2NodeClass", "spec.networkInterfaces[].interfaceType")).toBe("1.11");
    expect(crdFieldSince("ec2NodeClass", "spec.role")).toBeUndefined(); // in the oldest known minor
    expect(crdEnumValueSince("nodePool", "spec.disruption.consolidationPolicy", "Balanced")).toBe("1.14");
    expect(crdEnumValueSince("nodePool", "spec.disruption.budgets[].reasons[]", "Unhealthy")).toBe("1.15");
    expect(crdEnumValueSince("ec2NodeClass", "spec.amiFamily", "Windows2025")).toBe("1.9");
    expect(crdEnumValueSince("ec2NodeClass", "spec.amiFamily", "AL2023")).toBeUndefined();
    expect(crdFreeFormSince("ec2NodeClass", "spec.kubelet")).toBe("1.15");
  });

  test("every field and enum value it dates first appears in that minor's data, and every later one is dated", () => {
    for (const kind of ["nodePool", "ec2NodeClass"] as const) {
      const oldest = versionData(knownMinors()[0]).crds[kind];
      for (const f of versionData(knownMinors().pop()!).crds[kind].fields) {
        const first = firstMinorWith((d) => d.crds[kind].fields.includes(f));
        expect([kind, f, crdFieldSince(kind, f)]).toEqual([kind, f, oldest.fields.includes(f) ? undefined : first]);
      }
    }
  });

  test("dates the CRDs not every release ships (NodeOverlay 1.7, CapacityBuffer 1.14), and their fields from there", () => {
    expect(crdKindSince("nodeOverlay")).toBe("1.7");
    expect(crdKindSince("capacityBuffer")).toBe("1.14");
    expect(crdKindSince("nodePool")).toBeUndefined();
    expect(firstMinorWith((d) => d.crds.nodeOverlay !== undefined)).toBe("1.7");
    expect(firstMinorWith((d) => d.crds.capacityBuffer !== undefined)).toBe("1.14");
    // dated against the releases that ship the kind, not against 1.0 (which has no NodeOverlay)
    expect(crdFieldSince("nodeOverlay", "spec.price")).toBeUndefined();
    expect(crdEnumValueSince("nodeOverlay", "spec.requirements[].operator", "Gte")).toBe("1.9");
    expect(objectCrd("1.15", "capacityBuffer")!.api).toEqual({
      group: "autoscaling.x-k8s.io",
      version: "v1beta1",
      kind: "CapacityBuffer",
      scope: "Namespaced",
    });
    expect(objectCrd("1.7", "nodeOverlay")!.api).toEqual({
      group: "karpenter.sh",
      version: "v1alpha1",
      kind: "NodeOverlay",
      scope: "Cluster",
    });
    expect(objectCrd("1.6", "nodeOverlay")).toBeUndefined();
  });

  test("the values listed in CEL rules (CEL_LISTS) are dated by the first minor whose rules list them", () => {
    const { aliasFamilies, latestOnlyAliasFamilies, awsLabelKeys, k8sDomain } = celLists();
    for (const [family, since] of Object.entries(aliasFamilies))
      expect([family, firstMinorWith((d) => d.celRules.some((r) => r.includes(`'${family}'`)))]).toEqual([
        family,
        since,
      ]);
    expect(aliasFamilies.windows2025).toBe("1.9");
    expect(Object.keys(latestOnlyAliasFamilies)).toEqual(["windows2019", "windows2022", "windows2025"]);
    for (const [key, since] of Object.entries(awsLabelKeys))
      expect([key, firstMinorWith((d) => d.celRules.some((r) => r.includes(`"${key}"`)))]).toEqual([key, since]);
    expect(awsLabelKeys["karpenter.k8s.aws/placement-group-id"]).toBe("1.11");
    // the released v1.15.0 CRDs keep nitro-sandbox restricted
    expect(awsLabelKeys["karpenter.k8s.aws/nitro-sandbox"]).toBeUndefined();
    expect(k8sDomain.restrictedUntil).toBe("1.9");
    expect(k8sDomain.allowedKeys).toContain("node.kubernetes.io/windows-build");
  });

  test("enum values keep the CRD's order, over every known minor", () => {
    expect(crdEnumValues("nodePool", "spec.template.spec.requirements[].operator")).toEqual([
      "In",
      "NotIn",
      "Exists",
      "DoesNotExist",
      "Gt",
      "Lt",
      "Gte",
      "Lte",
    ]);
    expect(crdEnumValues("nodePool", "spec.disruption.budgets[].reasons[]")).toEqual([
      "Underutilized",
      "Empty",
      "Drifted",
      "Unhealthy",
    ]);
    expect(versionData("1.14").crds.nodePool.enums["spec.disruption.budgets[].reasons[]"]).toEqual([
      "Underutilized",
      "Empty",
      "Drifted",
    ]);
  });
});
