import * as fs from "fs";
import * as path from "path";
import { moduleSpecifiers } from "../module-specifiers";

// The rule that makes the CDK Terrain flavour from lib/ (scripts/cdktn/rewrite.cjs, used by
// scripts/cdktn/build.cjs), held against TypeScript's own reading of every lib/ file's module specifiers.
const { rewrite, leftovers } = require("../../scripts/cdktn/rewrite.cjs") as {
  rewrite: (s: string) => string;
  leftovers: (s: string) => string[];
};
const { rename } = require("../../scripts/cdktn/flavour.json") as { rename: Record<string, string> };

const LIB = path.join(__dirname, "..", "..", "lib");
const libFiles = (dir = LIB): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? libFiles(full) : e.name.endsWith(".ts") ? [full] : [];
  });

/** What a specifier becomes in the cdktn flavour: the renamed package, the same path inside it. */
function expected(spec: string): string {
  const name = Object.keys(rename).find((n) => spec === n || spec.startsWith(`${n}/`));
  return name ? rename[name] + spec.slice(name.length) : spec;
}

describe("the cdktn rewrite", () => {
  const files = libFiles();

  test("renames exactly the cdktf module specifiers of every lib/ file, as the compiler reads them", () => {
    let renamed = 0;
    for (const file of files) {
      const source = fs.readFileSync(file, "utf8");
      const after = rewrite(source);
      const before = moduleSpecifiers(file, source);
      expect({ file, specifiers: moduleSpecifiers(file, after) }).toEqual({ file, specifiers: before.map(expected) });
      expect({ file, leftovers: leftovers(after) }).toEqual({ file, leftovers: [] });
      renamed += before.filter((s) => expected(s) !== s).length;
    }
    // lib/ imports cdktf and the three providers in many places: a rule that matched none would pass above
    expect(renamed).toBeGreaterThan(100);
  });

  test("renames the provider packages in text, and leaves what cdktn kept from cdktf", () => {
    const source = [
      'import { Token } from "cdktf";',
      'import type { IamRole } from "@cdktf/provider-aws/lib/iam-role";',
      'const { KmsKey } = require("@cdktf/provider-aws/lib/kms-key") as typeof import("@cdktf/provider-aws/lib/kms-key");',
      'import "cdktf/lib/testing/adapters/jest";',
      "// an EksCluster (@cdktf/provider-aws/lib/eks-cluster), a Release of @cdktf/provider-helm",
      'const WARNING = "@cdktf/warn"; const OUT = "cdktf.out"; const PKG = "cdktf-eks-karpenter"; const ENV = "CDKTF_OUTDIR";',
    ].join("\n");
    expect(rewrite(source).split("\n")).toEqual([
      'import { Token } from "cdktn";',
      'import type { IamRole } from "@cdktn/provider-aws/lib/iam-role";',
      'const { KmsKey } = require("@cdktn/provider-aws/lib/kms-key") as typeof import("@cdktn/provider-aws/lib/kms-key");',
      'import "cdktn/lib/testing/adapters/jest";',
      "// an EksCluster (@cdktn/provider-aws/lib/eks-cluster), a Release of @cdktn/provider-helm",
      'const WARNING = "@cdktf/warn"; const OUT = "cdktf.out"; const PKG = "cdktf-eks-karpenter"; const ENV = "CDKTF_OUTDIR";',
    ]);
  });
});
