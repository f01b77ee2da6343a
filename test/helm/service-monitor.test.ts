import { Token } from "cdktf";
import { Karpenter } from "../../lib/install/karpenter";
import { PROMETHEUS_DURATION, prometheusDurationMs } from "../../lib/helm/service-monitor";
import { testCluster, testStack } from "../helpers";
import { refused, release, warningsOf } from "./release-harness";

/*
 * values.serviceMonitor.endpointConfig, which the chart writes with toYaml into the ServiceMonitor's endpoint: judged by
 * the prometheus-operator ServiceMonitor CRD and by what the template already writes. Warnings only (the CRD is the
 * cluster's Prometheus Operator's, and the chart renders the object only where the cluster serves it).
 */

const monitored = (endpointConfig: unknown, rest: Record<string, unknown> = {}) => ({
  values: { serviceMonitor: { enabled: true, endpointConfig, ...rest } },
});
const about = (warnings: string[]) => warnings.filter((w) => /serviceMonitor\.endpointConfig/.test(w));

describe("interval and scrapeTimeout: the CRD's Duration pattern", () => {
  test.each([
    ["interval", "30 seconds"],
    ["interval", "1.5m"],
    ["interval", "30S"],
    ["interval", "30s1m"],
    ["scrapeTimeout", "10 s"],
    ["scrapeTimeout", "-1s"],
  ])("%s %p is warned about, naming the field, the pattern and the source", (key, value) => {
    const warnings = about(release(monitored({ [key]: value })));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`rel: values.serviceMonitor.endpointConfig.${key} = ${JSON.stringify(value)}`);
    expect(warnings[0]).toMatch(/types\.go:53 Duration, in the ServiceMonitor CRD since v0\.56\.0/);
    expect(warnings[0]).toMatch(/the Helm release fails/);
  });
  test("a number (toYaml writes it unquoted, the CRD wants a string) is warned about", () => {
    expect(about(release(monitored({ interval: 30 })))).toEqual([expect.stringMatching(/interval = 30: a string/)]);
  });
  test.each(["30s", "1m30s", "0", "1h20m15s", "15d", "500ms", "1y2w"])("%p passes", (value) => {
    expect(release(monitored({ interval: value, scrapeTimeout: "0" }))).toEqual([]);
  });
  test("a scrapeTimeout longer than the interval is warned about (the operator rejects the ServiceMonitor)", () => {
    expect(about(release(monitored({ interval: "30s", scrapeTimeout: "1m" })))).toEqual([
      expect.stringMatching(/scrapeTimeout = "1m": a scrapeTimeout no longer than the interval .*resource_selector/),
    ]);
    expect(release(monitored({ interval: "1m", scrapeTimeout: "60s" }))).toEqual([]);
    expect(release(monitored({ scrapeTimeout: "5m" }))).toEqual([]);
  });
  test("the pattern and the sum follow Prometheus' units", () => {
    expect(PROMETHEUS_DURATION.test("")).toBe(true);
    expect(prometheusDurationMs("1m30s")).toBe(90_000);
    expect(prometheusDurationMs("1w")).toBe(7 * 24 * 3600_000);
    expect(prometheusDurationMs("2s500ms")).toBe(2500);
  });
});

describe("scheme and the boolean fields", () => {
  test.each([["ftp"], [""], [true]])("scheme %p is warned about", (scheme) => {
    expect(about(release(monitored({ scheme })))).toEqual([
      expect.stringMatching(/endpointConfig\.scheme = .*one of "http", "https"/),
    ]);
  });
  test.each(["http", "https", "HTTP"])("scheme %p passes", (scheme) => {
    expect(release(monitored({ scheme }))).toEqual([]);
  });
  test('honorLabels "true" is warned about; true passes', () => {
    expect(about(release(monitored({ honorLabels: "true" })))).toEqual([
      expect.stringMatching(/honorLabels = "true": true or false/),
    ]);
    expect(release(monitored({ honorLabels: true }))).toEqual([]);
  });
});

describe("every Endpoint field's type, enum and pattern, from the generated CRD table", () => {
  test.each([
    [
      "followRedirects",
      "yes",
      /followRedirects = "yes": true or false is allowed \(the CRD's type: boolean, prometheus-operator@6adcebc5/,
    ],
    ["enableHttp2", 1, /enableHttp2 = 1: true or false/],
    [
      "proxyUrl",
      "proxy:3128",
      /proxyUrl = "proxy:3128": a value matching \^\(http\|https\|socks5\):\/\/\.\+\$ is allowed/,
    ],
    ["params", "a=b", /params = "a=b": a map is allowed/],
    ["relabelings", { action: "drop" }, /relabelings = .*a list is allowed/],
    ["targetPort", true, /targetPort = true: a port number or name is allowed/],
  ])("%s %p is warned about, naming the CRD it comes from", (key, value, message) => {
    expect(about(release(monitored({ [key]: value })))).toEqual(
      expect.arrayContaining([expect.stringMatching(message)]),
    );
  });
  test.each([
    ["followRedirects", true],
    ["enableHttp2", false],
    ["proxyUrl", "http://proxy:3128"],
    ["params", { a: ["b"] }],
  ])("%s %p passes", (key, value) => {
    expect(release(monitored({ [key]: value }))).toEqual([]);
  });
});

describe("keys the template writes itself: Helm keeps the last duplicate, endpointConfig's", () => {
  test('port "x" (no such Service port) and path "/m" are warned about', () => {
    const warnings = about(release(monitored({ port: "x", path: "/m" })));
    expect(warnings).toEqual([
      expect.stringMatching(/endpointConfig\.port = "x": only "http-metrics".*Helm keeps the last of a duplicate key/),
      expect.stringMatching(/endpointConfig\.path = "\/m": only "\/metrics"/),
    ]);
  });
  test("the chart's own port and path, repeated, pass", () => {
    expect(release(monitored({ port: "http-metrics", path: "/metrics" }))).toEqual([]);
  });
  test("targetPort is warned about as having no effect", () => {
    expect(about(release(monitored({ targetPort: 8080 })))).toEqual([
      expect.stringMatching(/targetPort = 8080: has no effect/),
    ]);
  });
  const rule = [{ action: "drop", sourceLabels: ["__name__"], regex: "go_.*" }];
  test("relabelings in endpointConfig beside serviceMonitor.relabelings: the chart's list is dropped", () => {
    expect(about(release(monitored({ metricRelabelings: rule }, { metricRelabelings: rule })))).toEqual([
      expect.stringMatching(/metricRelabelings = .*values\.serviceMonitor\.metricRelabelings is dropped/),
    ]);
  });
  test("relabelings only in endpointConfig pass, beside an empty serviceMonitor.relabelings too (the chart writes none)", () => {
    expect(release(monitored({ relabelings: rule }))).toEqual([]);
    expect(release(monitored({ relabelings: rule }, { relabelings: [] }))).toEqual([]);
  });
});

describe("an endpointConfig that is not a map: the rendered manifest does not parse", () => {
  test.each([["interval: 30s"], [[{ interval: "30s" }]], [5], [true]])(
    "%p before chart 1.3.0 (rendered whenever enabled) is refused",
    (endpointConfig) => {
      const { problems } = refused({ version: "1.2.8", ...monitored(endpointConfig) });
      expect(problems.map((p) => ({ code: p.code, field: p.field }))).toEqual([
        { code: "HELM_VALUES_NOT_A_MAP", field: "values.serviceMonitor.endpointConfig" },
      ]);
      expect(problems[0].message).toMatch(
        /YAML parse error on karpenter\/templates\/servicemonitor\.yaml.*manifest_sorter\.go:151/,
      );
    },
  );
  test("from chart 1.3.0 (rendered only where the cluster serves monitoring.coreos.com/v1) it is warned about", () => {
    expect(about(release(monitored("interval: 30s")))).toEqual([
      expect.stringMatching(
        /endpointConfig = "interval: 30s": a map .*only on a cluster that serves monitoring\.coreos\.com\/v1/,
      ),
    ]);
  });
  test('what `with` skips passes in every version: "", [], false, and enabled false', () => {
    for (const endpointConfig of ["", [], false])
      expect(release({ version: "1.2.8", ...monitored(endpointConfig) })).toEqual([]);
    expect(release({ version: "1.2.8", values: { serviceMonitor: { enabled: false, endpointConfig: "x" } } })).toEqual(
      [],
    );
  });
});

describe("when the ServiceMonitor is not rendered, or nothing is literal", () => {
  test("serviceMonitor.enabled false or unset: nothing is said", () => {
    expect(
      release({ values: { serviceMonitor: { enabled: false, endpointConfig: { interval: "30 seconds" } } } }),
    ).toEqual([]);
    expect(release({ values: { serviceMonitor: { endpointConfig: { interval: "30 seconds" } } } })).toEqual([]);
  });
  test("no endpointConfig, an empty one, honorLabels: true and a token interval pass", () => {
    expect(release({ values: { serviceMonitor: { enabled: true } } })).toEqual([]);
    expect(release(monitored({}))).toEqual([]);
    expect(release(monitored({ honorLabels: true }))).toEqual([]);
    expect(release(monitored({ interval: Token.asString({ Ref: "x" }) }))).toEqual([]);
  });
  test("a Karpenter warns once, on its own path", () => {
    const { stack } = testStack();
    new Karpenter(stack, "karpenter", {
      cluster: testCluster(stack, "demo"),
      ...monitored({ interval: "30 seconds" }),
    });
    const warnings = about(warningsOf(stack));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/karpenter: values\.serviceMonitor\.endpointConfig\.interval = "30 seconds"/);
  });
});

describe("a key no Endpoint has (fresh tester 30 F13): the API server prunes it", () => {
  test("a typo is warned about with a did-you-mean", () => {
    const w = about(release(monitored({ intervall: "30s" })));
    expect(w).toHaveLength(1);
    expect(w[0]).toContain(
      'values.serviceMonitor.endpointConfig.intervall = "30s": is no field of a ServiceMonitor Endpoint (did you mean interval?)',
    );
    expect(w[0]).toContain("prunes the key");
  });
  test("Endpoint's own fields pass without a word", () => {
    expect(
      release(
        monitored({
          interval: "30s",
          honorLabels: true,
          tlsConfig: { insecureSkipVerify: true },
          params: { a: ["b"] },
          enableHttp2: true,
          followRedirects: false,
        }),
      ),
    ).toEqual([]);
  });
});
