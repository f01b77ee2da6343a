import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

// scripts/jsii-types.cjs, run by `npm run build` on the main assembly and by scripts/cdktn/build.cjs on the
// CDK Terrain flavour's (issue 32): no union in either, and the cdktn flavour offers the main API.
const { unions, apiDifferences } = require("../scripts/jsii-types.cjs") as {
  unions: (a: unknown) => string[];
  apiDifferences: (a: unknown, b: unknown) => string[];
};

const str = { primitive: "string" };
const union = { union: { types: [str, { primitive: "number" }] } };
function assembly(name: string, props: Record<string, unknown>, extraType = false) {
  return {
    name,
    types: {
      [`${name}.NodePoolOptions`]: {
        properties: Object.entries(props).map(([n, type]) => ({ name: n, type })),
      },
      [`${name}.Karpenter`]: {
        initializer: { parameters: [{ name: "scope" }, { name: "id" }, { name: "props" }] },
        methods: [{ name: "addNodePool", parameters: [{ name: "id", type: str }] }],
      },
      ...(extraType ? { [`${name}.Extra`]: {} } : {}),
    },
  };
}

describe("jsii-types", () => {
  test("names every union of properties, parameters and returns", () => {
    expect(unions(assembly("a", { limits: str }))).toEqual([]);
    expect(unions(assembly("a", { limits: union }))).toEqual(["a.NodePoolOptions.limits"]);
  });

  test("holds the cdktn flavour's API to the main one's, type by type, whatever the assembly names", () => {
    const main = assembly("cdktf-eks-karpenter", { limits: str });
    expect(apiDifferences(main, assembly("cdktn-eks-karpenter", { limits: str }))).toEqual([]);
    expect(apiDifferences(main, assembly("cdktn-eks-karpenter", { limits: str, weight: str }))).toEqual([
      "NodePoolOptions: cdktf-eks-karpenter has [limits], cdktn-eks-karpenter [limits, weight]",
    ]);
    expect(apiDifferences(main, assembly("cdktn-eks-karpenter", { limits: str }, true))).toEqual([
      "Extra: in cdktn-eks-karpenter, not in cdktf-eks-karpenter",
    ]);
  });

  test("exits 1 naming the union, for any assembly named on the command line", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "jsii-types-"));
    try {
      const bad = path.join(dir, "bad.jsii");
      fs.writeFileSync(bad, JSON.stringify(assembly("cdktn-eks-karpenter", { limits: union })));
      let status = 0;
      let stderr = "";
      try {
        execFileSync(process.execPath, [path.join(__dirname, "..", "scripts", "jsii-types.cjs"), bad], {
          stdio: "pipe",
          encoding: "utf8",
        });
      } catch (e) {
        status = (e as { status: number }).status;
        stderr = (e as { stderr: string }).stderr;
      }
      expect(status).toBe(1);
      expect(stderr).toContain("cdktn-eks-karpenter.NodePoolOptions.limits");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
