import * as script from "../../scripts/instance-type-facts";
import { COMMIT, families, pageTypes } from "../../scripts/instance-type-facts";
import { catalogueInstanceTypes } from "../../lib/versions/instance-type-facts";
import { snapshotTableTest } from "./go-module-table";

/*
 * The committed instance types (lib/versions/data/instance-type-facts.json) are what scripts/instance-type-facts.ts
 * reads from Karpenter's website page of instance types in a git snapshot of aws/karpenter-provider-aws at its COMMIT.
 * Without the snapshot (CI has none), the committed table is held to what the generator guarantees, and the title
 * says so.
 */

describe("instance-type-facts.json", () => {
  snapshotTableTest(script, "scripts/instance-type-facts.ts (npm run instance-type-facts)", (t) => {
    expect(t.commit).toBe(COMMIT);
    const names = Object.keys(t.families);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(["m5", "c5", "m7g", "g5", "inf2"]));
    for (const f of Object.values(t.families) as { sizes: string[]; [k: string]: unknown }[]) {
      expect(f.sizes.length).toBeGreaterThan(0);
      for (const [k, v] of Object.entries(f))
        if (k !== "sizes" && Array.isArray(v)) expect(v).toHaveLength(f.sizes.length);
    }
  });

  test("every type has an arch; g5 and m7g as EC2 describes them", () => {
    const all = catalogueInstanceTypes();
    expect(all.every((t) => ["amd64", "arm64"].includes(t["kubernetes.io/arch"]))).toBe(true);
    const byName = (n: string) => all.find((t) => t["node.kubernetes.io/instance-type"] === n);
    expect(byName("m7g.large")?.["kubernetes.io/arch"]).toBe("arm64");
    expect(byName("g5.12xlarge")).toMatchObject({
      "kubernetes.io/arch": "amd64",
      "karpenter.k8s.aws/instance-gpu-name": "a10g",
      "karpenter.k8s.aws/instance-gpu-count": "4",
      "karpenter.k8s.aws/instance-category": "g",
    });
    expect(byName("m5.large")?.["karpenter.k8s.aws/instance-gpu-name"]).toBeUndefined();
  });

  const page = (rows: string) =>
    [
      "## m5 Family",
      "### `m5.large`",
      "#### Labels",
      " | Label | Value |",
      " |--|--|",
      rows,
      "#### Resources",
      " |cpu|1|",
    ].join("\n");
  test("reads a type's label table; a label set on some sizes only is one value per size", () => {
    const rows = (type: string, gpu?: string) =>
      [
        ` |karpenter.k8s.aws/instance-category|g|`,
        ` |karpenter.k8s.aws/instance-family|g5|`,
        ` |karpenter.k8s.aws/instance-generation|5|`,
        ` |karpenter.k8s.aws/instance-size|${type.split(".")[1]}|`,
        ...(gpu ? [` |karpenter.k8s.aws/instance-gpu-count|${gpu}|`] : []),
        ` |kubernetes.io/arch|amd64|`,
        ` |node.kubernetes.io/instance-type|${type}|`,
      ].join("\n");
    const text = [
      page(rows("g5.xlarge", "1")).replace("m5.large", "g5.xlarge"),
      page(rows("g5.metal")).replace("m5.large", "g5.metal"),
    ].join("\n");
    expect(families(pageTypes(text))).toEqual({
      g5: { sizes: ["xlarge", "metal"], arch: "amd64", "gpu-count": ["1", null] },
    });
  });
  test("a page whose labels disagree with the name is an error, not a table", () => {
    const rows = [
      " |karpenter.k8s.aws/instance-category|c|",
      " |karpenter.k8s.aws/instance-family|m5|",
      " |karpenter.k8s.aws/instance-generation|5|",
      " |karpenter.k8s.aws/instance-size|large|",
      " |node.kubernetes.io/instance-type|m5.large|",
    ].join("\n");
    expect(() => families(pageTypes(page(rows)))).toThrow(/instance-category=c, its name gives m/);
  });
});
