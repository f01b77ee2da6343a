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

describe("the cdktn rewrite of Python sources", () => {
  const { rewritePython, pythonLeftovers } = require("../../scripts/cdktn/rewrite.cjs") as {
    rewritePython: (s: string) => string;
    pythonLeftovers: (s: string) => string[];
  };
  const { pythonRename } = require("../../scripts/cdktn/flavour.json") as { pythonRename: Record<string, string> };
  const ROOT = path.join(__dirname, "..", "..");
  const pyFiles = ["examples/python", "test/python"].flatMap((d) =>
    fs
      .readdirSync(path.join(ROOT, d))
      .filter((f) => f.endsWith(".py"))
      .map((f) => path.join(ROOT, d, f)),
  );

  test("renames the module of every import statement, and nothing else", () => {
    const source = [
      "from cdktf import App, TerraformStack",
      "from cdktf_cdktf_provider_aws.eks_cluster import EksCluster",
      "import cdktf_eks_karpenter",
      "    from cdktf_cdktf_provider_kubernetes.provider import KubernetesProvider",
      "from cdktf_eks_karpenter import (",
      "# cdktf 0.21's S3Backend; cdktf_eks_karpenter in a comment",
      'OUT = "cdktf.out"',
      "from cdktfx import a",
    ].join("\n");
    expect(rewritePython(source).split("\n")).toEqual([
      "from cdktn import App, TerraformStack",
      "from cdktn_provider_aws.eks_cluster import EksCluster",
      "import cdktn_eks_karpenter",
      "    from cdktn_provider_kubernetes.provider import KubernetesProvider",
      "from cdktn_eks_karpenter import (",
      "# cdktf 0.21's S3Backend; cdktf_eks_karpenter in a comment",
      'OUT = "cdktf.out"',
      "from cdktfx import a",
    ]);
    expect(pythonLeftovers(source)).toHaveLength(5);
  });

  test("leaves no cdktf import in the Python example and tests, and renames every module it names", () => {
    let renamed = 0;
    for (const file of pyFiles) {
      const source = fs.readFileSync(file, "utf8");
      const after = rewritePython(source);
      expect({ file, leftovers: pythonLeftovers(after) }).toEqual({ file, leftovers: [] });
      renamed += pythonLeftovers(source).length;
      // only import lines change
      const changed = source.split("\n").filter((l, i) => l !== after.split("\n")[i]);
      expect(changed.every((l) => /^\s*(from|import)\s/.test(l))).toBe(true);
    }
    expect(renamed).toBeGreaterThan(30);
    // every module name of the rule is a Python module of the cdktn packages (flavour.json pythonRequirements)
    expect(Object.values(pythonRename).sort()).toEqual(
      ["cdktn", "cdktn_eks_karpenter", "cdktn_provider_aws", "cdktn_provider_helm", "cdktn_provider_kubernetes"].sort(),
    );
  });
});

describe("the cdktn module map (scripts/cdktn/module-map.cjs: the require hook of npm run e2e and test:python:cdktn)", () => {
  test("maps the module names as jest.cdktn.config.cjs does, under the cache's node_modules", () => {
    const { mapped } = require("../../scripts/cdktn/module-map.cjs") as {
      mapped: (r: string, nodeModules: string) => string | undefined;
    };
    const nm = path.join(path.sep, "cache", "node_modules");
    expect(mapped("cdktf", nm)).toBe(path.join(nm, "cdktn"));
    expect(mapped("cdktf/package.json", nm)).toBe(path.join(nm, "cdktn", "package.json"));
    expect(mapped("@cdktf/provider-aws/lib/eks-cluster", nm)).toBe(
      path.join(nm, "@cdktn", "provider-aws", "lib", "eks-cluster"),
    );
    expect(mapped("@cdktf/provider-kubernetes", nm)).toBe(path.join(nm, "@cdktn", "provider-kubernetes"));
    expect(mapped("constructs", nm)).toBe(path.join(nm, "constructs"));
    for (const other of ["cdktf-eks-karpenter", "cdktfx", "@cdktf/warn", "semver", "./config"])
      expect(mapped(other, nm)).toBeUndefined();
  });
});
