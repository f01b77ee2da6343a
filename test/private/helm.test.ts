import { Token } from "cdktf";
import { chartFullName, parseQuantity, renderValues } from "../../lib/private/helm";

describe("helm helpers", () => {
  test("quantities", () => {
    expect(parseQuantity("500m")).toBe(0.5);
    expect(parseQuantity("512Mi")).toBe(512 * 2 ** 20);
    expect(parseQuantity("1G")).toBe(1e9);
    expect(parseQuantity("1e3")).toBe(1000);
    expect(parseQuantity("1.5")).toBe(1.5);
    for (const bad of ["", "1 Gi", "-1", "1KB", "Mi", "1gi"]) expect(parseQuantity(bad)).toBeUndefined();
  });

  test("renderValues: sorted keys, quoted strings, no folding of long strings, tokens whole, YAML 1.1 booleans quoted as keys", () => {
    const long = "x".repeat(150);
    const token = Token.asString("${aws_sqs_queue.q.name}");
    const yaml = renderValues({ z: 1, a: { long, t: token, on: true, n: null } });
    expect(yaml).toBe(`a:\n  long: "${long}"\n  "n": null\n  "on": true\n  t: "${token}"\nz: 1\n`);
  });

  test("chartFullName mirrors the chart's helper", () => {
    expect(chartFullName("karpenter")).toBe("karpenter");
    expect(chartFullName("my-karpenter")).toBe("my-karpenter");
    expect(chartFullName("autoscaler")).toBe("autoscaler-karpenter");
    expect(chartFullName("x", { nameOverride: "kp" })).toBe("x-kp");
    expect(chartFullName("x", { fullnameOverride: "a".repeat(70) })).toBe("a".repeat(63));
  });
});
