import * as script from "../../scripts/eks-ami-facts";
import { COMMIT, enumValues, firstReleaseOnOrAfter, releases } from "../../scripts/eks-ami-facts";
import { snapshotTableTest } from "./go-module-table";

/*
 * The committed facts of the EKS AMI (lib/versions/data/eks-ami-facts.json) are what scripts/eks-ami-facts.ts reads
 * from a git snapshot of awslabs/amazon-eks-ami at its COMMIT. Without the snapshot (EKS_AMI_GIT; the search tool's
 * `fetch github:awslabs/amazon-eks-ami`), the table is held to what the generator guarantees (snapshotTableTest);
 * the parsing is tested on text.
 */

describe("eks-ami-facts.json", () => {
  snapshotTableTest(script, "scripts/eks-ami-facts.ts (npm run eks-ami-facts)", (t) => {
    expect(t.commit).toBe(COMMIT);
    const dated = (r: string) => /^v\d{8}$/.test(r) && r <= t.newestRelease;
    const fields = Object.entries(t.nodeadm.types as Record<string, { fields: Record<string, string> }>).flatMap(
      ([type, { fields }]) => Object.keys(fields).map((f) => `${type}.${f}`),
    );
    expect(Object.keys(t.nodeadm.since).sort()).toEqual(fields.sort());
    expect(Object.values(t.nodeadm.since).every((r) => dated(r as string))).toBe(true);
    for (const values of Object.values(t.nodeadm.enums as Record<string, Record<string, string>>)) {
      expect(Object.keys(values).length).toBeGreaterThan(0);
      expect(Object.values(values).every(dated)).toBe(true);
    }
    expect(t.nodeadm.types[t.nodeadm.root]).toBeDefined();
    expect(Number.isInteger(t.al2023RootVolumeGiB.value)).toBe(true);
  });

  test("enum values are read from the const blocks of their type only", () => {
    const go = [
      "type Feature string",
      "const (",
      '\tInstanceIdNodeName Feature = "InstanceIdNodeName"',
      '\tFastImagePull Feature = "FastImagePull"',
      '\tOther OtherType = "Nope"',
      ")",
    ].join("\n");
    expect(enumValues(go, "Feature")).toEqual(["InstanceIdNodeName", "FastImagePull"]);
  });

  test("releases come from CHANGELOG headings; a field gets the first release dated on or after its commit", () => {
    const list = releases("# AMI Release v20240424\n...\n# AMI Release v20240415\n## notes\n# AMI Release v20240415\n");
    expect(list).toEqual(["v20240415", "v20240424"]);
    expect(firstReleaseOnOrAfter(list, "2024-04-16T02:04:21-07:00")).toBe("v20240424");
    expect(firstReleaseOnOrAfter(list, "2024-04-15T09:00:00-07:00")).toBe("v20240415");
    expect(firstReleaseOnOrAfter(list, "2024-05-01T00:00:00Z")).toBeUndefined();
  });
});
