// The pure parts of the cel-agreement e2e stage (scripts/e2e/cel-stage.cjs): when the library and Karpenter's pkg/cel
// agree, and which recorded node cases hold a kubelet expression.
const cs = require("../scripts/e2e/cel-stage.cjs");
const { parseArgs } = require("../scripts/e2e/report.cjs");
export {};

const ok = (value: number) => ({ instanceType: "m5.large", value });
const fails = { instanceType: "t3.nano", error: "evaluating expression, division by zero" };

describe("cel-agreement: comparison", () => {
  test("refused ⇔ not compiled or every evaluation fails", () => {
    expect(cs.compare("bad", { compiles: false, error: "no overload", results: [] }).agree).toBe(true);
    expect(cs.compare(undefined, { compiles: false, error: "no overload", results: [] }).agree).toBe(false);
    expect(cs.compare("bad", { compiles: true, results: [fails, fails] }).agree).toBe(true);
    expect(cs.compare(undefined, { compiles: true, results: [fails, fails] }).agree).toBe(false);
    // failing on some instance types only: Karpenter 1.15.0 refuses the class in a region offering one of them, so the
    // library must warn, and must not refuse (the region is outside the app)
    expect(cs.compare(undefined, { compiles: true, results: [fails, ok(3)] })).toMatchObject({
      agree: false,
      karpenterRefuses: true,
      karpenter: "fails for t3.nano: evaluating expression, division by zero",
    });
    expect(cs.compare("bad", { compiles: true, results: [fails, ok(3)] })).toMatchObject({
      agree: false,
      library: "refused: bad",
    });
    expect(cs.compare(undefined, { compiles: true, results: [ok(2), ok(3)] })).toMatchObject({
      agree: true,
      karpenterRefuses: false,
      karpenter: "accepted: m5.large 2, m5.large 3",
    });
  });

  test("a warning agrees where some or every evaluation fails: the library's answer for expressions over the variables", () => {
    expect(cs.compare(undefined, { compiles: true, results: [fails, fails] }, "fails for each").agree).toBe(true);
    expect(cs.compare(undefined, { compiles: true, results: [fails, ok(3)] }, "fails for t3.nano").agree).toBe(true);
    expect(cs.compare(undefined, { compiles: true, results: [ok(2), ok(3)] }, "fails for each")).toMatchObject({
      agree: false,
      library: "warned: fails for each",
    });
    // what does not compile must be refused, not warned about
    expect(cs.compare(undefined, { compiles: false, error: "no overload", results: [] }, "w").agree).toBe(false);
  });

  test("recorded expressions: EC2NodeClass at 1.15, string maxPods and reserved values, no tokens, distinct", () => {
    const nc = (version: string, kubelet: object) => ({
      kind: "EC2NodeClass",
      version,
      file: "f",
      test: "t",
      manifest: { spec: { kubelet } },
    });
    const found = cs.recordedExpressions([
      nc("1.15.2", { maxPods: "max_pods - 2", kubeReserved: { cpu: "vcpus * 10", memory: "1Gi" } }),
      nc("1.15.2", { maxPods: "max_pods - 2", systemReserved: { cpu: "e2e-token" } }),
      nc("1.15.2", { maxPods: 110 }),
      nc("1.14.4", { maxPods: "vcpus" }),
      { kind: "NodePool", version: "1.15.2", manifest: { spec: {} } },
    ]);
    expect(found.map((c: { expression: string; reserved: boolean }) => [c.expression, c.reserved])).toEqual([
      ["max_pods - 2", false],
      ["vcpus * 10", true],
      ["1Gi", true],
    ]);
  });

  test("--stage cel-agreement is opt-in", () => {
    expect(parseArgs(["--stage", "cel-agreement"]).stages).toEqual(["cel-agreement"]);
    expect(parseArgs([]).stages).not.toContain("cel-agreement");
  });
});
