import { KarpenterRelease, KarpenterReleaseProps } from "../../lib/helm/karpenter-release";
import { rejected, synthJson, testCluster, testStack } from "../helpers";

/*
 * fresh tester 11, S-1..S-12 and C-3: values the chart passes into the controller pod that the API server (or the
 * chart render) refuses, and truthful consequences in the env-setting messages. Each rule: the bad input and a
 * valid look-alike.
 */

function release(values: Record<string, unknown>) {
  const { stack } = testStack();
  const cluster = testCluster(stack, "demo");
  new KarpenterRelease(stack, "karpenter", { cluster, values } as KarpenterReleaseProps);
  return synthJson(stack);
}

function problems(values: Record<string, unknown>) {
  return rejected(() => release(values)).problems.map((p) => ({ code: p.code, field: p.field, message: p.message }));
}

describe("values.controller.env / envFrom shape (S-1..S-6, S-12)", () => {
  test.each([
    ["S-1 no name", [{ value: "x" }], "values.controller.env[0].name"],
    ["S-2 name with =", [{ name: "FOO=BAR", value: "x" }], "values.controller.env[0].name"],
    ["S-2 non-ASCII name", [{ name: "FÖO", value: "x" }], "values.controller.env[0].name"],
    ["S-3 number value", [{ name: "RESERVED_ENIS", value: 5 }], "values.controller.env[0].value"],
    ["S-4 boolean value", [{ name: "ISOLATED_VPC", value: true }], "values.controller.env[0].value"],
    ["S-5 a map", { LOG_LEVEL: "debug" }, "values.controller.env"],
    ["S-6 a string entry", ["LOG_LEVEL=debug"], "values.controller.env[0]"],
    ["valueFrom not a map", [{ name: "X", valueFrom: "secret" }], "values.controller.env[0].valueFrom"],
  ])("%s is refused", (_what, env, field) => {
    const found = problems({ controller: { env } });
    expect(found).toContainEqual(expect.objectContaining({ code: "HELM_VALUES_ENV", field }));
  });

  test("S-12 envFrom a map, and a non-map entry", () => {
    expect(problems({ controller: { envFrom: { configMapRef: { name: "x" } } } })).toContainEqual(
      expect.objectContaining({ code: "HELM_VALUES_ENV", field: "values.controller.envFrom" }),
    );
    expect(problems({ controller: { envFrom: ["x"] } })).toContainEqual(
      expect.objectContaining({ code: "HELM_VALUES_ENV", field: "values.controller.envFrom[0]" }),
    );
  });

  test("every problem at once", () => {
    const found = problems({ controller: { env: [{ value: "x" }, { name: "A", value: 1 }], envFrom: {} } });
    expect(found.filter((p) => p.code === "HELM_VALUES_ENV").map((p) => p.field)).toEqual([
      "values.controller.env[0].name",
      "values.controller.env[1].value",
      "values.controller.envFrom",
    ]);
  });

  test("valid look-alikes pass", () => {
    expect(() =>
      release({
        controller: {
          env: [
            { name: "RESERVED_ENIS", value: "5" },
            { name: "MY.ENV-name_1", value: "" },
            { name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } },
            { name: "EMPTY" },
          ],
          envFrom: [{ configMapRef: { name: "x" } }],
        },
      }),
    ).not.toThrow();
    expect(() => release({ controller: { env: null, envFrom: [] } })).not.toThrow();
  });
});

describe("pod values (S-7..S-11)", () => {
  test.each([
    [
      "S-7 annotation number",
      { podAnnotations: { "prometheus.io/port": 8080 } },
      "HELM_VALUES_POD_SPEC",
      'values.podAnnotations["prometheus.io/port"]',
    ],
    [
      "S-7 annotation key",
      { podAnnotations: { "bad key": "x" } },
      "HELM_VALUES_POD_SPEC",
      'values.podAnnotations["bad key"]',
    ],
    [
      "additionalAnnotations number",
      { additionalAnnotations: { "example.com/n": 1 } },
      "HELM_VALUES_POD_SPEC",
      'values.additionalAnnotations["example.com/n"]',
    ],
    [
      "annotation value a map",
      { podAnnotations: { "example.com/m": { a: "b" } } },
      "HELM_VALUES_POD_SPEC",
      'values.podAnnotations["example.com/m"]',
    ],
    [
      "additionalLabels key",
      { additionalLabels: { "bad key": "x" } },
      "HELM_VALUES_LABEL_KEY",
      'values.additionalLabels["bad key"]',
    ],
    ["S-8 label key", { podLabels: { "bad key": "x" } }, "HELM_VALUES_LABEL_KEY", 'values.podLabels["bad key"]'],
    ["S-8 label value", { podLabels: { team: "a b" } }, "HELM_VALUES_LABEL_VALUE", 'values.podLabels["team"]'],
    ["S-9 priorityClassName", { priorityClassName: "Bad_Name" }, "HELM_VALUES_POD_SPEC", "values.priorityClassName"],
    [
      "S-10 toleration effect",
      { tolerations: [{ key: "a", operator: "Exists", effect: "NoScheduleX" }] },
      "HELM_VALUES_TOLERATION",
      "values.tolerations[0].effect",
    ],
    [
      "S-11 grace text",
      { terminationGracePeriodSeconds: "30s" },
      "HELM_VALUES_POD_SPEC",
      "values.terminationGracePeriodSeconds",
    ],
    [
      "S-11 grace fraction",
      { terminationGracePeriodSeconds: 1.5 },
      "HELM_VALUES_POD_SPEC",
      "values.terminationGracePeriodSeconds",
    ],
    [
      "S-11 grace negative",
      { terminationGracePeriodSeconds: -1 },
      "HELM_VALUES_POD_SPEC",
      "values.terminationGracePeriodSeconds",
    ],
  ])("%s is refused", (_what, values, code, field) => {
    expect(problems(values)).toContainEqual(expect.objectContaining({ code, field }));
  });

  test("a map as an env value is not told to quote [object Object]; a number is told to quote it", () => {
    const [map] = problems({ controller: { env: [{ name: "X", value: { a: 1 } }] } });
    expect(map.message).toContain("cannot decode a map there");
    expect(map.message).not.toContain("[object Object]");
    const [num] = problems({ controller: { env: [{ name: "X", value: 5 }] } });
    expect(num.message).toContain('quote it, e.g. "5"');
  });

  test("a map as an annotation value is not told to quote [object Object]", () => {
    const [p] = problems({ podAnnotations: { "example.com/m": { a: "b" } } });
    expect(p.message).toContain("cannot decode a map there");
    expect(p.message).not.toContain("[object Object]");
  });

  test("valid look-alikes pass", () => {
    expect(() =>
      release({
        podAnnotations: { "prometheus.io/port": "8080", "example.com/x": null },
        podLabels: { "example.com/team": "a-b", empty: "" },
        additionalLabels: { "example.com/owner": "platform" },
        additionalAnnotations: { "example.com/note": "kept" },
        priorityClassName: "system-cluster-critical",
        tolerations: [{ key: "a", operator: "Exists", effect: "NoSchedule" }],
        terminationGracePeriodSeconds: 30,
      }),
    ).not.toThrow();
    expect(() => release({ terminationGracePeriodSeconds: "45", priorityClassName: "" })).not.toThrow();
  });
});

describe("C-3: env setting messages say what the controller does", () => {
  const msg = (name: string, value: string) =>
    problems({ controller: { env: [{ name, value }] } }).find((p) => p.field === "values.controller.env[0].value")!
      .message;

  test("unparseable or out of range: silently the default, not 'fails at start'", () => {
    expect(msg("VM_MEMORY_OVERHEAD_PERCENT", "-1e400")).toMatch(/silently use its default 0\.075/);
    expect(msg("VM_MEMORY_OVERHEAD_PERCENT", "-1e400")).not.toMatch(/fails at start/);
    expect(msg("AMI_REFRESH_INTERVAL", "abc")).toMatch(/silently use its default 1m/);
    expect(msg("BATCH_MAX_DURATION", "10x")).toMatch(/silently use its default 10s/);
    expect(msg("RESERVED_ENIS", "five")).toMatch(/silently use its default 0/);
  });

  test("parsed but refused by the controller: fails at start", () => {
    expect(msg("VM_MEMORY_OVERHEAD_PERCENT", "-0.5")).toMatch(/fails at start/);
    expect(msg("AMI_REFRESH_INTERVAL", "30s")).toMatch(/fails at start/);
    expect(msg("RESERVED_ENIS", "-1")).toMatch(/fails at start/);
  });

  test("valid look-alikes pass", () => {
    expect(() =>
      release({
        controller: {
          env: [
            { name: "VM_MEMORY_OVERHEAD_PERCENT", value: "1e-400" },
            { name: "AMI_REFRESH_INTERVAL", value: "2m" },
            { name: "BATCH_MAX_DURATION", value: "10s" },
            { name: "RESERVED_ENIS", value: "+1" },
          ],
        },
      }),
    ).not.toThrow();
  });
});
