import * as script from "../../scripts/eks-ami-facts";
import {
  al2023Containerd,
  al2023Minors,
  COMMIT,
  enumValues,
  firstReleaseOnOrAfter,
  releases,
} from "../../scripts/eks-ami-facts";
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
    // containerd per release and minor: releases of the list, versions x.y.z, the newest release listed
    const byRelease = t.containerd.al2023 as Record<string, Record<string, string>>;
    expect(Object.keys(byRelease).every((r) => t.releases.includes(r))).toBe(true);
    expect(byRelease[t.newestRelease]).toBeDefined();
    for (const minors of Object.values(byRelease))
      for (const [m, v] of Object.entries(minors)) {
        expect(m).toMatch(/^1\.\d+$/);
        expect(v).toMatch(/^\d+\.\d+\.\d+$/);
      }
    expect(dated(t.containerd.v3KeysRefusedOn1.since)).toBe(true);
    // AL2023 minors per release: releases of the list, minors 1.x oldest first, every containerd minor among them
    const minorsBy = t.al2023Minors.byRelease as Record<string, string[]>;
    expect(Object.keys(minorsBy).every((r) => t.releases.includes(r))).toBe(true);
    expect(minorsBy[t.newestRelease]?.length).toBeGreaterThan(0);
    for (const [r, minors] of Object.entries(minorsBy)) {
      expect(minors.every((m) => /^1\.\d+$/.test(m))).toBe(true);
      expect(minors.map((m) => Number(m.split(".")[1]))).toEqual(
        [...new Set(minors.map((m) => Number(m.split(".")[1])))].sort((a, b) => a - b),
      );
      for (const m of Object.keys(byRelease[r] ?? {})) expect(minors).toContain(m);
    }
    expect(Object.keys(byRelease).every((r) => minorsBy[r] !== undefined)).toBe(true);
    const runtimes = Object.values(t.containerd.runtimes as Record<string, { default: boolean }>);
    expect(runtimes.filter((r) => r.default)).toHaveLength(1);
  });

  test("containerd per release and Kubernetes minor is read from the AL2023 package tables only", () => {
    const table = (header: string, version: string) =>
      `  <table>\n    <tr>\n      <th>Package</th>\n${header}    </tr>\n    <tr>\n      <td>containerd</td>\n      ${version}\n    </tr>\n  </table>\n`;
    const al2023 = "      <th>AL2023_x86_64_STANDARD</th>\n      <th>AL2023_ARM_64_STANDARD</th>\n";
    const changelog = [
      "# AMI Release v20251023",
      "<details>\n<summary><b>Kubernetes 1.32</b></summary>",
      table("      <th>AL2_x86_64</th>\n", '<td colspan="1">1.7.27-1.amzn2.0.3</td>'),
      table(al2023, '<td colspan="2">2.1.4-1.eks.amzn2023.0.1</td>'),
      "</details>\n<details>\n<summary><b>Kubernetes 1.31</b></summary>",
      table(al2023, '<td colspan="2">1.7.27-1.eks.amzn2023.0.4</td>'),
      "</details>\n<details>\n<summary><b>Kubernetes 1.30</b></summary>",
      table(al2023, '<td colspan="1">1.7.27-1</td>\n      <td colspan="1">2.1.4-1</td>'),
      "</details>",
      "# AMI Release v20240209",
      "<details>\n<summary><b>Kubernetes 1.29</b></summary>",
      table("      <th>Version</th>\n", "<td>1.7.11-1.amzn2.0.1</td>"),
      "</details>",
    ].join("\n");
    // the AL2 table is skipped, AMI types that disagree leave their minor out, a release without AL2023 tables is absent
    expect(al2023Containerd(changelog)).toEqual({ v20251023: { "1.31": "1.7.27", "1.32": "2.1.4" } });
    // a minor with AL2023 tables is shipped even when its AMI types disagree on containerd
    expect(al2023Minors(changelog)).toEqual({ v20251023: ["1.30", "1.31", "1.32"] });
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
