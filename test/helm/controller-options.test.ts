import { KarpenterReleaseProps } from "../../lib/helm/karpenter-release";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterProps } from "../../lib/install/karpenter-props";
import { controllerOptionProblem, effectivePort, goAtoi, readControllerEnv } from "../../lib/helm/controller-env";
import { resolveKarpenterVersion } from "../../lib/versions/karpenter-version";
import { rejected, testCluster, testStack } from "../helpers";
import { refused, release, withEnv } from "./release-harness";

/*
 * Controller options and values the controller accepts at synth but that crash or break it at runtime (fresh
 * tester 12, S-1..S-7): each rule with an invalid input and a valid look-alike that passes.
 */

const problemsOf = (props: Partial<KarpenterReleaseProps>) =>
  refused(props).problems.map((p) => ({ code: p.code, field: p.field }));

function install(props: Partial<KarpenterProps>) {
  const { stack } = testStack();
  return () => new Karpenter(stack, "karpenter", { cluster: testCluster(stack, "demo"), ...props });
}

const v = (version: string) => resolveKarpenterVersion(testStack().stack, version);

describe("S-1: KUBE_CLIENT_BURST and KUBE_CLIENT_QPS as the controller parses them", () => {
  test.each(["-5", "0"])("KUBE_CLIENT_BURST=%s is refused (client-go panics at start)", (value) => {
    expect(problemsOf({ values: withEnv([{ name: "KUBE_CLIENT_BURST", value }]) })).toEqual([
      { code: "HELM_VALUES_CONTROLLER_OPTION", field: "values.controller.env[0].value" },
    ]);
    expect(controllerOptionProblem(v("1.15.0"), "KUBE_CLIENT_BURST", value)).toMatch(/clientset\.go:516/);
  });
  test("before 1.4 the message says every request fails, not a panic", () => {
    expect(controllerOptionProblem(v("1.3.8"), "KUBE_CLIENT_BURST", "0")).toMatch(/refuses every request/);
  });
  test.each(["abc", "50.5", "0", "-1"])("KUBE_CLIENT_QPS=%s is refused", (value) => {
    expect(problemsOf({ values: withEnv([{ name: "KUBE_CLIENT_QPS", value }]) })).toEqual([
      { code: "HELM_VALUES_CONTROLLER_OPTION", field: "values.controller.env[0].value" },
    ]);
  });
  test("an unreadable burst names the silent default", () => {
    expect(controllerOptionProblem(v("1.15.0"), "KUBE_CLIENT_BURST", "1e3")).toMatch(/silently use its default 300/);
  });
  test("look-alikes pass: burst 1, QPS 50, +7 as strconv.Atoi reads it", () => {
    expect(
      release({
        values: withEnv([
          { name: "KUBE_CLIENT_BURST", value: "1" },
          { name: "KUBE_CLIENT_QPS", value: "50" },
        ]),
      }),
    ).toEqual([]);
    expect(controllerOptionProblem(v("1.15.0"), "KUBE_CLIENT_BURST", "+7")).toBeUndefined();
  });
});

describe("S-2 / S-4: the ports are TCP ports", () => {
  test.each([
    ["METRICS_PORT", "99999"],
    ["HEALTH_PROBE_PORT", "65536"],
    ["METRICS_PORT", "0"],
    ["HEALTH_PROBE_PORT", "-1"],
    ["METRICS_PORT", "http"],
  ])("env %s=%s is refused", (name, value) => {
    const codes = problemsOf({ values: withEnv([{ name, value }]) });
    expect(codes).toContainEqual({ code: "HELM_VALUES_CONTROLLER_OPTION", field: "values.controller.env[0].value" });
  });
  test.each([
    ["metrics", 99999],
    ["healthProbe", 0],
    ["metrics", 8080.5],
    ["healthProbe", "http"],
    ["metrics", null],
  ])("values.controller.%s.port = %p is refused", (which, port) => {
    expect(problemsOf({ values: { controller: { [which]: { port } } } })).toEqual([
      { code: "HELM_VALUES_PORT", field: `values.controller.${which}.port` },
    ]);
  });
  test('look-alikes pass: ports 9090 and 9091 in values, "9092" as a string of digits', () => {
    expect(release({ values: { controller: { metrics: { port: 9090 }, healthProbe: { port: 9091 } } } })).toEqual([]);
    expect(release({ values: { controller: { metrics: { port: "9092" } } } })).toEqual([]);
  });
});

describe("S-3: the metrics and health-probe ports differ", () => {
  test("env HEALTH_PROBE_PORT=8080 (the chart's metrics port) is refused", () => {
    expect(problemsOf({ values: withEnv([{ name: "HEALTH_PROBE_PORT", value: "8080" }]) })).toEqual([
      { code: "HELM_VALUES_PORT", field: "values.controller.env[0].value" },
    ]);
  });
  test("values healthProbe.port 8080 beside the default metrics port, and metrics.port 8081, are refused", () => {
    expect(problemsOf({ values: { controller: { healthProbe: { port: 8080 } } } })).toEqual([
      { code: "HELM_VALUES_PORT", field: "values.controller.healthProbe.port" },
    ]);
    expect(problemsOf({ values: { controller: { metrics: { port: 8081 } } } })).toEqual([
      { code: "HELM_VALUES_PORT", field: "values.controller.metrics.port" },
    ]);
  });
  test("an env entry replacing the chart's port counts, not the value it replaces", () => {
    const values = {
      controller: {
        metrics: { port: 8080 },
        healthProbe: { port: 8080 },
        env: [{ name: "METRICS_PORT", value: "9000" }],
      },
    };
    expect(effectivePort("metrics", values, readControllerEnv(values)).bound).toBe(9000);
    // the two containerPorts still clash in the pod spec only as an API warning; the listeners differ
    expect(() => release({ values })).not.toThrow();
  });
  test("look-alike passes: 8080 and 8081", () => {
    expect(release({ values: { controller: { metrics: { port: 8080 }, healthProbe: { port: 8081 } } } })).toEqual([]);
  });
  test("a HEALTH_PROBE_PORT entry off the probes' containerPort is refused; the same port passes", () => {
    expect(problemsOf({ values: withEnv([{ name: "HEALTH_PROBE_PORT", value: "9000" }]) })).toEqual([
      { code: "HELM_VALUES_PORT", field: "values.controller.env[0].value" },
    ]);
    expect(release({ values: withEnv([{ name: "HEALTH_PROBE_PORT", value: "8081" }]) })).toEqual([]);
  });
  test("a METRICS_PORT entry off the containerPort warns", () => {
    expect(release({ values: withEnv([{ name: "METRICS_PORT", value: "9000" }]) })).toEqual([
      expect.stringMatching(/METRICS_PORT.*unscraped/),
    ]);
  });
});

describe("S-7: the leader-election Lease name and namespace", () => {
  test.each(["Bad_Name", "", "a..b"])("LEADER_ELECTION_NAME=%p is refused", (value) => {
    expect(problemsOf({ values: withEnv([{ name: "LEADER_ELECTION_NAME", value }]) })).toEqual([
      { code: "HELM_VALUES_CONTROLLER_OPTION", field: "values.controller.env[0].value" },
    ]);
  });
  test("look-alikes: the default name passes silently, another valid name warns about the chart's Role", () => {
    expect(
      release({ values: withEnv([{ name: "LEADER_ELECTION_NAME", value: "karpenter-leader-election" }]) }),
    ).toEqual([]);
    expect(release({ values: withEnv([{ name: "LEADER_ELECTION_NAME", value: "my-lease" }]) })).toEqual([
      expect.stringMatching(/role\.yaml:18-22/),
    ]);
  });
  test("1.0 reads neither variable: not judged", () => {
    expect(controllerOptionProblem(v("1.0.14"), "LEADER_ELECTION_NAME", "Bad_Name")).toBeUndefined();
  });
  test("LEADER_ELECTION_NAMESPACE: a DNS-1123 label or empty", () => {
    expect(problemsOf({ values: withEnv([{ name: "LEADER_ELECTION_NAMESPACE", value: "Kube.System" }]) })).toEqual([
      { code: "HELM_VALUES_CONTROLLER_OPTION", field: "values.controller.env[0].value" },
    ]);
    for (const value of ["", "kube-system"])
      expect(release({ values: withEnv([{ name: "LEADER_ELECTION_NAMESPACE", value }]) })).toEqual([]);
  });
});

describe("S-5: clusterCABundle is base64 of the PEM", () => {
  const pem = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n-----END CERTIFICATE-----\n";
  const b64 = Buffer.from(pem).toString("base64");
  test.each([
    [
      "typed settings",
      { settings: { clusterCABundle: "not base64!" } },
      "settings.clusterCABundle",
      "HELM_VALUES_SETTING",
    ],
    [
      "values.settings",
      { values: { settings: { clusterCABundle: "not base64!" } } },
      "values.settings.clusterCABundle",
      "HELM_VALUES_SETTING",
    ],
    [
      "an env entry",
      { values: withEnv([{ name: "CLUSTER_CA_BUNDLE", value: "not base64!" }]) },
      "values.controller.env[0].value",
      "HELM_VALUES_SETTING",
    ],
  ])("not base64 via %s is refused", (_via, props, field, code) => {
    expect(problemsOf(props as Partial<KarpenterReleaseProps>)).toEqual([{ code, field }]);
  });
  test("a PEM text is refused, saying to encode it", () => {
    const e = refused({ settings: { clusterCABundle: pem } });
    expect(e.problems[0].message).toMatch(/not the PEM text itself/);
  });
  test.each([
    ["QUI", "no padding"],
    ["QQ=", "short padding"],
    ["Q===", "too much padding"],
    ["QUJD=ERG", "padding inside"],
  ])("%p (%s) is refused as Go's StdEncoding refuses it", (value) => {
    expect(problemsOf({ settings: { clusterCABundle: value } })).toEqual([
      { code: "HELM_VALUES_SETTING", field: "settings.clusterCABundle" },
    ]);
  });
  test("look-alikes pass: base64 of a PEM (also wrapped at 64 columns), an empty env entry (discover it)", () => {
    const wrapped = b64.replace(/(.{64})/g, "$1\n");
    expect(release({ settings: { clusterCABundle: b64 } })).toEqual([]);
    // wrapped base64 is fine in an env entry (toYaml quotes it; Go's decoder skips line breaks) …
    expect(release({ values: withEnv([{ name: "CLUSTER_CA_BUNDLE", value: wrapped }]) })).toEqual([]);
    expect(release({ values: withEnv([{ name: "CLUSTER_CA_BUNDLE", value: "" }]) })).toEqual([]);
  });
  test("… but not as a chart setting: the chart writes it on one line inside a double-quoted scalar", () => {
    const wrapped = b64.replace(/(.{64})/g, "$1\n");
    expect(problemsOf({ values: { settings: { clusterCABundle: wrapped } } })).toEqual([
      { code: "HELM_VALUES_SETTING", field: "values.settings.clusterCABundle" },
    ]);
    expect(refused({ settings: { clusterCABundle: wrapped } }).message).toMatch(/one line: .*remove the line breaks/);
  });
});

describe("S-6: an env entry with both a value and valueFrom", () => {
  const valueFrom = { fieldRef: { fieldPath: "metadata.name" } };
  test("is refused", () => {
    expect(problemsOf({ values: withEnv([{ name: "POD_NAME", value: "debug", valueFrom }]) })).toEqual([
      { code: "HELM_VALUES_ENV", field: "values.controller.env[0].valueFrom" },
    ]);
  });
  test("look-alikes pass: valueFrom alone, valueFrom with an empty value", () => {
    expect(release({ values: withEnv([{ name: "POD_NAME", valueFrom }]) })).toEqual([]);
    expect(release({ values: withEnv([{ name: "POD_NAME", value: "", valueFrom }]) })).toEqual([]);
  });
});

describe("values the chart tests only with if must be booleans", () => {
  test.each([
    [{ hostNetwork: "false" }, "values.hostNetwork"],
    [{ serviceAccount: { create: "false" } }, "values.serviceAccount.create"],
    [{ serviceMonitor: { enabled: 0 } }, "values.serviceMonitor.enabled"],
  ])("%p is refused", (values, field) => {
    expect(problemsOf({ values })).toContainEqual({ code: "HELM_VALUES_NOT_A_BOOLEAN", field });
  });
  test("look-alikes pass: hostNetwork false, serviceMonitor.enabled false", () => {
    expect(release({ values: { hostNetwork: false, serviceMonitor: { enabled: false } } })).toEqual([]);
  });
});

describe("other options the controller parses and silently defaults on a bad value", () => {
  test.each([
    ["DISABLE_LEADER_ELECTION", "yes"],
    ["ENABLE_PROFILING", "on"],
    ["CPU_REQUESTS", "abc"],
    ["MEMORY_LIMIT", "1Gi"],
    ["DISABLE_CONTROLLER_WARMUP", "no"],
    ["ISOLATED_VPC", "yes"],
  ])("%s=%s is refused", (name, value) => {
    expect(problemsOf({ values: withEnv([{ name, value }]) })[0].field).toBe("values.controller.env[0].value");
  });
  test.each([
    ["DISABLE_LEADER_ELECTION", "true"],
    ["ENABLE_PROFILING", "F"],
    ["CPU_REQUESTS", "500"],
    ["MEMORY_LIMIT", "1073741824"],
    ["ISOLATED_VPC", "TRUE"],
  ])("look-alike %s=%s passes", (name, value) => {
    expect(release({ values: withEnv([{ name, value }]) })).toEqual([]);
  });
  test("a variable the version does not read is not judged (CPU_REQUESTS before 1.5)", () => {
    expect(controllerOptionProblem(v("1.4.4"), "CPU_REQUESTS", "abc")).toBeUndefined();
    expect(controllerOptionProblem(v("1.5.8"), "CPU_REQUESTS", "abc")).toMatch(/WithDefaultInt64/);
  });
  test("goAtoi reads as strconv.Atoi: a sign, digits, 64-bit", () => {
    expect(goAtoi("+5")).toBe(5n);
    expect(goAtoi(" 5")).toBeUndefined();
    expect(goAtoi("9223372036854775808")).toBeUndefined();
  });
});

describe("the nodeRepair warnings read the effective gate", () => {
  test("legacyNodeRepair without the gate warns; with NodeRepair=true in FEATURE_GATES it does not", () => {
    const settings = { legacyNodeRepair: true };
    expect(release({ version: "1.15.0", settings })).toContainEqual(expect.stringMatching(/has no effect without/));
    const warnings = release({
      version: "1.15.0",
      settings,
      values: withEnv([{ name: "FEATURE_GATES", value: "NodeRepair=true" }]),
    });
    expect(warnings.filter((w) => /has no effect without/.test(w))).toEqual([]);
  });
  test("the Karpenter construct takes the same props", () => {
    const e = rejected(install({ version: "1.15.0", values: withEnv([{ name: "KUBE_CLIENT_BURST", value: "0" }]) }));
    expect(e.problems.map((p) => p.code)).toContain("HELM_VALUES_CONTROLLER_OPTION");
  });
});
