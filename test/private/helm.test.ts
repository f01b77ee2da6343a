import { Fn, Token } from "cdktf";
import * as YAML from "yaml";
import { chartFullName, parseQuantity, plainScalar, renderValues } from "../../lib/private/helm";

/** What the `yaml` package writes for the same values with the options the renderer stands in for. */
const yamlPackage = (values: unknown) =>
  YAML.stringify(values, { version: "1.1", defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN", lineWidth: 0, sortMapEntries: true });

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

  test("renderValues writes what the yaml package writes, byte for byte, for chart-shaped values", () => {
    const values = {
      replicas: 2,
      controller: { resources: { requests: { cpu: "500m", memory: "1Gi" }, limits: {} }, env: [] },
      tolerations: [{ key: "CriticalAddonsOnly", operator: "Exists" }, { key: "k", operator: "Equal", value: "true", effect: "NoSchedule" }],
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: "karpenter.sh/nodepool", operator: "DoesNotExist" }] }] } } },
      nested: [[1, 2], [], [{ a: [3] }], {}],
      nodeSelector: { "kubernetes.io/os": "linux", "node-role": "system" },
      settings: { clusterName: "prod", isolatedVPC: false, featureGates: { nodeRepair: true }, batchMaxDuration: "10s", vmMemoryOverheadPercent: 0.075 },
      quoting: { "1": 1, Y: "y", NO: "no", On: "on", "null": null, off: "a\nb\t\"c\\ é", _y: 1e21, big: 123456789012 },
      podAnnotations: { "x.io/y": "" },
    };
    expect(renderValues(values)).toBe(yamlPackage(values));
    expect(renderValues({})).toBe(yamlPackage({}));
  });

  test("renderValues output reads back as the values, also for keys and strings the yaml package writes differently", () => {
    const values = { "-x": -1, "a b": 1, "x:y": 2, "#c": "# not a comment", "": "empty key", s: "\u0007 bell, ünïcode, 'single', \"double\", {flow}, [seq], *alias, &anchor, !tag", list: ["- dash", ": colon", "? q"] };
    expect(YAML.parse(renderValues(values), { version: "1.1" })).toEqual(values);
  });

  test("renderValues writes boolean and number tokens plain, so Terraform's text is read by its YAML type", () => {
    const iso = plainScalar(Fn.tobool("${var.iso}"));
    const replicas = Token.asNumber("${var.n}");
    const out = renderValues({ settings: { isolatedVPC: iso }, replicas });
    expect(out).toMatch(/^replicas: \$\{TfToken\[TOKEN\.\d+\]\}\nsettings:\n  isolatedVPC: \$\{TfToken\[TOKEN\.\d+\]\}\n$/);
    const resolved = out.replace(iso.text, "true").replace(/\$\{TfToken\[TOKEN\.\d+\]\}/, "3");
    expect(YAML.parse(resolved)).toEqual({ settings: { isolatedVPC: true }, replicas: 3 });
  });

  test("chartFullName mirrors the chart's helper", () => {
    expect(chartFullName("karpenter")).toBe("karpenter");
    expect(chartFullName("my-karpenter")).toBe("my-karpenter");
    expect(chartFullName("autoscaler")).toBe("autoscaler-karpenter");
    expect(chartFullName("x", { nameOverride: "kp" })).toBe("x-kp");
    expect(chartFullName("x", { fullnameOverride: "a".repeat(70) })).toBe("a".repeat(63));
  });
});
