import * as fs from "fs";
import * as path from "path";
import { dataFileName, generateVersionData, renderDataFile, renderDataIndex } from "../../scripts/version-data";
import { knownMinors, knownReleases, versionData, versionFacts } from "../../lib/versions";
import { KarpenterValidationError } from "../../lib/core/errors";
import { VersionData } from "../../lib/versions/types";
import { EC2NODECLASS_FIELDS_SINCE, ENUM_VALUES_SINCE, NODEPOOL_FIELDS_SINCE } from "../../lib/nodes/crd-history";
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
      "Balanced",
      "WhenEmpty",
      "WhenEmptyOrUnderutilized",
    ]);
    expect(f.crds.ec2NodeClass.fields).toContain("spec.cpuOptions");
    expect(versionFacts("1.12").crds.ec2NodeClass.fields).not.toContain("spec.cpuOptions");
  });

  test("unknown minors and malformed versions are refused with the known minors", () => {
    expect(() => versionFacts("1.16.0")).toThrow(KarpenterValidationError);
    expect(() => versionFacts("1.16.0")).toThrow(/known minor: 1\.0, .*1\.14, 1\.15$/);
    expect(() => versionFacts("latest")).toThrow(KarpenterValidationError);
    expect(() => versionFacts("1.8.08")).toThrow(KarpenterValidationError); // no chart version has leading zeros
  });
});

describe("hand-written CRD history agrees with the generated CRD fields and enums", () => {
  const firstMinorWith = (has: (d: VersionData) => boolean) => knownMinors().find((m) => has(versionData(m)));

  test("every field the CRD history dates first appears in that minor's CRD", () => {
    for (const [kind, table] of [
      ["nodePool", NODEPOOL_FIELDS_SINCE],
      ["ec2NodeClass", EC2NODECLASS_FIELDS_SINCE],
    ] as const) {
      for (const [field, since] of Object.entries(table))
        expect([field, firstMinorWith((d) => d.crds[kind].fields.includes(field))]).toEqual([field, since]);
    }
  });

  test("every spec field added after 1.0 is dated by the CRD history (itself or a parent)", () => {
    for (const [kind, table] of [
      ["nodePool", NODEPOOL_FIELDS_SINCE],
      ["ec2NodeClass", EC2NODECLASS_FIELDS_SINCE],
    ] as const) {
      const first = versionData("1.0").crds[kind].fields;
      const added = versionData(knownMinors().pop()!).crds[kind].fields.filter((f) => !first.includes(f));
      const undated = added.filter(
        (f) => !Object.keys(table).some((t) => f === t || f.startsWith(`${t}.`) || f.startsWith(`${t}[]`)),
      );
      expect([kind, undated]).toEqual([kind, []]);
    }
  });

  test("every enum value the CRD history dates first appears in that minor's CRD enum", () => {
    for (const [entry, since] of Object.entries(ENUM_VALUES_SINCE)) {
      const [field, value] = entry.split("=");
      const enumOf = (d: VersionData) => d.crds.nodePool.enums[field] ?? d.crds.ec2NodeClass.enums[field];
      if (!enumOf(versionData(knownMinors().pop()!))) continue; // a CEL rule, not an enum (the alias families)
      expect([entry, firstMinorWith((d) => (enumOf(d) ?? []).includes(value))]).toEqual([entry, since]);
    }
  });
});
