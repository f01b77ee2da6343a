import { Fn, Token } from "cdktf";
import * as YAML from "yaml";
import { chartFullName, plainScalar, renderValues } from "../../lib/helm/helm";
import { parseQuantity } from "../../lib/kubernetes/value-rules";

describe("helm helpers", () => {
  test("quantities", () => {
    expect(parseQuantity("500m")).toBe(0.5);
    expect(parseQuantity("512Mi")).toBe(512 * 2 ** 20);
    expect(parseQuantity("1G")).toBe(1e9);
    expect(parseQuantity("1e3")).toBe(1000);
    expect(parseQuantity("1.5")).toBe(1.5);
    for (const bad of ["", "1 Gi", "-1", "1KB", "Mi", "1gi"]) expect(parseQuantity(bad)).toBeUndefined();
  });

  test("renderValues: JSON (which Helm reads as YAML), keys sorted at every level, strings and keys quoted, long strings whole, tokens whole", () => {
    const long = "x".repeat(150);
    const token = Token.asString("${aws_sqs_queue.q.name}");
    const out = renderValues({ z: 1, a: { long, t: token, on: true, n: null, list: [{ b: 1, a: 2 }] } });
    expect(out).toBe(
      `{\n  "a": {\n    "list": [\n      {\n        "a": 2,\n        "b": 1\n      }\n    ],\n    "long": "${long}",\n    "n": null,\n    "on": true,\n    "t": "${token}"\n  },\n  "z": 1\n}\n`,
    );
    // go-yaml 1.1 would read a plain `on` key as a boolean; quoted, it stays the key "on"
    expect(YAML.parse(out, { version: "1.1" }).a.on).toBe(true);
  });

  test("renderValues output reads back as the values as YAML 1.1 (what Helm reads), also for keys and strings YAML treats specially", () => {
    const values = {
      quoting: { "1": 1, Y: "y", NO: "no", On: "on", null: null, off: 'a\nb\t"c\\ é', _y: 1e21, big: 123456789012 },
      "-x": -1,
      "a b": 1,
      "x:y": 2,
      "#c": "# not a comment",
      "": "empty key",
      s: "\u0007 bell, ünïcode, 'single', \"double\", {flow}, [seq], *alias, &anchor, !tag",
      list: ["- dash", ": colon", "? q"],
      nested: [[1, 2], [], [{ a: [3] }], {}],
    };
    expect(YAML.parse(renderValues(values), { version: "1.1" })).toEqual(values);
    expect(renderValues({})).toBe("{}\n");
  });

  test("renderValues refuses numbers Helm values cannot hold", () => {
    expect(() => renderValues({ a: { b: Number.NaN } })).toThrow(/a\.b is NaN; Helm values take finite numbers only/);
    // the error carries the number itself (not a token), for the construct's error to show
    expect(() => renderValues({ a: [Infinity] })).toThrow(expect.objectContaining({ path: "a[0]", value: Infinity }));
    expect(() => renderValues({ a: Token.asAny("${var.m}") })).toThrow(
      expect.objectContaining({ path: "a", value: "(a token)" }),
    );
  });

  test("renderValues writes boolean and number tokens plain, so Terraform's text is read by its YAML type", () => {
    const iso = plainScalar(Fn.tobool("${var.iso}"));
    const replicas = Token.asNumber("${var.n}");
    const out = renderValues({ settings: { isolatedVPC: iso }, replicas });
    // JSON cannot hold `${…}` unquoted: these values are written as YAML, with the tokens plain
    expect(out).toMatch(
      /^replicas: \$\{TfToken\[TOKEN\.\d+\]\}\nsettings:\n {2}isolatedVPC: \$\{TfToken\[TOKEN\.\d+\]\}\n$/,
    );
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
