import { synthWarnings } from "../helpers";
import { build, rejection } from "./node-props";

/*
 * The YAML limits of an AL2023 NodeConfig (lib/nodes/user-data-rules.ts nodeConfigFinding, lib/core/go-yaml.ts), held
 * to Go's: go.yaml.in/yaml/v2 v2.4.4 (Karpenter's yaml.Unmarshal through sigs.k8s.io/yaml; nodeadm's YAMLToJSON reads
 * the same way) refuses an alias bomb ("document contains excessive aliasing", decode.go:318-358) and nesting past
 * 10,000 levels ("exceeded max depth of 10000", scannerc.go:894-948), and takes anything shallower. Each verdict below
 * was run through go.yaml.in/yaml/v2 v2.4.4's Unmarshal.
 */

const al = (userData: string) => ({ amiSelectorTerms: [{ alias: "al2023@latest" }], userData });
const head = "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\n";
const mime = (body: string) =>
  `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: application/node.eks.aws\n\n${body}\n--B--\n`;
/** `levels` anchors, each a list of `width` aliases of the one before ("billion laughs"), after `pad` plain entries. */
function bomb(levels: number, width: number, pad = 0): string {
  const lines = Array.from({ length: pad }, (_, i) => `p${i}: [1, 2]`);
  lines.push(`a0: &a0 [${Array(width).fill('"lol"').join(", ")}]`);
  for (let i = 1; i < levels; i++)
    lines.push(
      `a${i}: &a${i} [${Array(width)
        .fill(`*a${i - 1}`)
        .join(", ")}]`,
    );
  return lines.join("\n");
}
/** A NodeConfig whose spec.kubelet.config holds `yaml` (one line). */
const inKubelet = (yaml: string) => `${head}spec:\n  kubelet:\n    config:\n      ${yaml}\n`;
const warnings = (userData: string) =>
  synthWarnings(build("EC2NodeClass", al(userData), "1.15.0")).filter((w) => w.includes("userData"));

describe("an alias bomb in a NodeConfig: refused with go-yaml v2's reason, quickly", () => {
  test.each([
    ["at the top of the NodeConfig", `${head}${bomb(9, 9)}\nspec: {}\n`, "line 4: a1: &a1"],
    [
      "in spec.kubelet.config",
      `${head}spec:\n  kubelet:\n    config:\n${bomb(9, 9)
        .split("\n")
        .map((l) => `      ${l}`)
        .join("\n")}\n`,
      "line 7: a1: &a1",
    ],
    // 300 plain entries do not save it: 9^9 aliased nodes pass 99% long before the end
    ["behind 300 plain entries", `${head}${bomb(9, 9, 300)}\nspec: {}\n`, "line 304: a1: &a1"],
  ])("%s", (_what, userData, shown) => {
    const started = Date.now();
    const e = rejection("EC2NodeClass", al(userData), "1.15.0");
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.field).toBe("userData");
    expect(e.value).toContain(shown);
    expect(e.message).toContain('a NodeConfig Go\'s YAML decoder reads ("yaml: document contains excessive aliasing")');
    expect(e.message).toContain("go.yaml.in/yaml/v2 v2.4.4 decode.go:318-358");
    expect(e.message).toContain("passes it on as a shell script part");
  });

  test("in an application/node.eks.aws MIME part: nodeadm's decode refuses it", () => {
    const e = rejection("EC2NodeClass", al(mime(`${head}${bomb(9, 9)}\nspec: {}`)), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain("document contains excessive aliasing");
    expect(e.message).toContain("an application/node.eks.aws part of AL2023 user data is decoded by nodeadm");
    expect(e.message).toContain("nodeadm stops and the node never joins");
  });

  test("look-alikes pass: a few anchors and aliases, and a bomb Go takes (10^4 aliased nodes behind 300 entries)", () => {
    const labels = `${head}spec:\n  kubelet:\n    config:\n      kubeAPIQPS: &n 50\n      kubeAPIBurst: *n\n    flags: &f ["--v=2"]\n`;
    expect(() => build("EC2NodeClass", al(labels), "1.15.0")).not.toThrow();
    expect(warnings(labels)).toEqual([]);
    // Go decodes it (checked); this library does not expand it past 10,000 nodes, so it says it did not check it
    const taken = `${head}${bomb(4, 10, 300)}\nspec: {}\n`;
    expect(() => build("EC2NodeClass", al(taken), "1.15.0")).not.toThrow();
    expect(warnings(taken)).toEqual([
      expect.stringContaining("is a NodeConfig whose aliases expand to more than 10000 nodes"),
    ]);
  });

  test("an alias to a bad value is still judged", () => {
    const e = rejection(
      "EC2NodeClass",
      al(`${head}spec:\n  kubelet:\n    config:\n      maxPods: &v "many"\n      kubeAPIBurst: *v\n`),
      "1.15.0",
    );
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain("maxPods");
  });
});

describe("deep nesting in a NodeConfig: refused only past go-yaml v2's 10,000 levels, never a crash", () => {
  test.each([
    ["a 5,000-deep flow list", inKubelet(`x: ${"[".repeat(5000)}${"]".repeat(5000)}`), 5003],
    ["a 2,000-deep flow map", inKubelet(`x: ${"{a: ".repeat(2000)}1${"}".repeat(2000)}`), 2003],
    [
      "5,000 block sequences on one line",
      `${head}spec:\n  kubelet:\n    config:\n      x:\n        ${"- ".repeat(5000)}1\n`,
      5003,
    ],
  ])("%s is not refused (Go reads it), with a warning that it was not checked", (_what, userData, depth) => {
    expect(() => build("EC2NodeClass", al(userData), "1.15.0")).not.toThrow();
    const w = warnings(userData);
    expect(w).toEqual([expect.stringContaining(`nests about ${depth} levels deep`)]);
    expect(w[0]).toContain(
      "Go's YAML decoder reads up to 10000 levels (go.yaml.in/yaml/v2 v2.4.4 scannerc.go:894-948)",
    );
  });

  test("the same, in an application/node.eks.aws MIME part", () => {
    const userData = mime(inKubelet(`x: ${"[".repeat(5000)}${"]".repeat(5000)}`).trimEnd());
    expect(() => build("EC2NodeClass", al(userData), "1.15.0")).not.toThrow();
    expect(warnings(userData)).toEqual([
      expect.stringContaining("this application/node.eks.aws part of AL2023 user data nests about"),
    ]);
  });

  test("past 10,000 levels (only unclosed brackets fit in 16 KB) Go refuses: exceeded max depth of 10000", () => {
    const e = rejection("EC2NodeClass", al(inKubelet(`x: ${"[".repeat(10_001)}`)), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.value).toMatch(/^line 6: x: \[\[\[/);
    expect(e.message).toContain('("yaml: exceeded max depth of 10000")');
    expect(e.message).toContain("scannerc.go:894-912 and 928-948");
  });

  test("5,000 brackets never closed: no YAML to Go either", () => {
    const e = rejection("EC2NodeClass", al(inKubelet(`x: ${"[".repeat(5000)}`)), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain("5000 flow collections");
  });

  test("look-alike: 100 levels are read and checked like any NodeConfig", () => {
    const w = warnings(inKubelet(`x: ${"[".repeat(100)}${"]".repeat(100)}`));
    expect(w).toEqual([
      expect.stringContaining("spec.kubelet.config.x is no field of the kubelet's KubeletConfiguration"),
    ]);
  });
});

test("user data over EC2's 16 KB is refused for its size alone, without reading its format (a 4 MB NodeConfig)", () => {
  const deep = `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      x: [${"[".repeat(2_000_000)}${"]".repeat(2_000_000)}]\n`;
  const e = rejection("EC2NodeClass", { amiSelectorTerms: [{ alias: "al2023@latest" }], userData: deep }, "1.15.0");
  expect(e.code).toBe("EC2NODECLASS_USER_DATA_SIZE");
  // the nesting past go-yaml's 10,000 levels would be refused too, were the format read
  expect(e.message).not.toContain("EC2NODECLASS_USER_DATA]");
  expect(e.message).not.toContain("max depth");
});
