import { chartValuePaths, checkValuePaths } from "../../lib/helm/chart-values";
import { KarpenterValidationError } from "../../lib/core/errors";
import { describeWithReference, referenceChartValues, referenceVersionsWith } from "../reference";
import { valuePaths } from "../../scripts/version-data";

const referenceVersions = referenceVersionsWith("charts/karpenter/values.yaml");

/** values.yaml (without settings) in the notation of the data, read as add-version reads it. */
const referencePaths = (version: string) => valuePaths(referenceChartValues(version));

const asNotation = (version: string) =>
  chartValuePaths(version)
    .map((e) => e.entry)
    .sort();
const check = (version: string, values: Record<string, unknown>) => () =>
  checkValuePaths("k", version, values, (p) => `values.${p.join(".")}`);
/** Whether the chart of `version` takes the dotted path (with a value of 1 at its end). */
const has = (version: string, path: string) => {
  const values = path.split(".").reduceRight<unknown>((inner, key) => ({ [key]: inner }), 1) as Record<string, unknown>;
  try {
    check(version, values)();
    return true;
  } catch (e) {
    if (e instanceof KarpenterValidationError) return false;
    throw e;
  }
};

describeWithReference(referenceVersions)("chart value paths = published values.yaml", () => {
  test.each(referenceVersions)("the table agrees with the %s chart's values.yaml", (version) => {
    expect(asNotation(version)).toEqual(referencePaths(version));
  });
});

describe("chart value paths", () => {
  test("patch-level changes between the reference folders (read at the upstream tags)", () => {
    expect([has("1.0.0", "postInstallHook.image.tag"), has("1.0.1", "postInstallHook.image.tag")]).toEqual([
      true,
      false,
    ]);
    expect([has("1.1.0", "schedulerName"), has("1.1.1", "schedulerName")]).toEqual([false, true]);
    // 1.5.3 dropped values.yaml's runAsNonRoot default, not the field: podSecurityContext is rendered whole into a
    // PodSecurityContext (deployment.yaml), so its fields are judged by that type in every release (fresh12 F-2)
    expect(check("1.5.2", { podSecurityContext: { runAsNonRoot: true } })).not.toThrow();
    expect(check("1.5.3", { podSecurityContext: { runAsNonRoot: true } })).not.toThrow();
    expect([has("1.0.14", "webhook.port"), has("1.1.0", "webhook.port")]).toEqual([true, false]);
  });

  test("the rule: open maps and lists take anything below, filled maps are closed, nothing goes below a value", () => {
    expect(has("1.14.1", "controller.resources.requests.memory")).toBe(true);
    expect(has("1.14.1", "podAnnotations.x")).toBe(true);
    expect(has("1.14.1", "nodeSelector.node-role")).toBe(true);
    // a subtree the chart renders whole (k8s-typed-values.ts) takes its Kubernetes type: 1 is no toleration list
    // nor Affinity (HELM_VALUES_K8S_TYPE), null (drop the chart's default) is fine
    expect(has("1.14.1", "tolerations")).toBe(false);
    expect(has("1.14.1", "affinity")).toBe(false);
    expect(check("1.14.1", { tolerations: null, affinity: null })).not.toThrow();
    expect(has("1.14.1", "settings.anything")).toBe(true); // judged by the typed settings checks
    expect(has("1.14.1", "replicaz")).toBe(false);
    expect(has("1.14.1", "replicas.x")).toBe(false);
    expect(has("1.14.1", "affinity.podAffinity")).toBe(false);
    expect(has("1.14.1", "controller.image.registry")).toBe(false);
  });

  test("keys with dots stay whole; empty maps are leaves", () => {
    expect(
      check("1.14.1", {
        nodeSelector: { "kubernetes.io/os": "linux" },
        podLabels: {},
        serviceAccount: { annotations: { "eks.amazonaws.com/role-arn": "x" } },
      }),
    ).not.toThrow();
    // a dotted key is one key: "controller.image" is not controller → image
    expect(check("1.14.1", { "controller.image": { repository: "x" } })).toThrow(
      /values\.controller\.image\.repository = "x" is invalid: .*has no controller\.image\.repository/,
    );
    expect(check("1.14.1", { controller: { image: {} } })).not.toThrow();
  });

  test("an unknown path names the path, the version, and the version that has it", () => {
    expect(check("1.14.1", { replicaz: 3 })).toThrow(KarpenterValidationError);
    expect(check("1.14.1", { replicaz: 3 })).toThrow(
      /^k: values\.replicaz = 3 is invalid: a value path of the Karpenter 1\.14\.1 chart's values\.yaml, which has no replicaz; did you mean replicas\? \(keys at the top level: additionalAnnotations, additionalClusterRoleRules, /,
    );
    expect(check("1.0.14", { service: { annotations: { a: "b" } } })).toThrow(
      'k: values.service.annotations.a = "b" is invalid: Karpenter 1.0.14\'s chart values.yaml has no service.annotations.a: it was introduced in 1.1.0; use version 1.1.0 or later, or leave it unset',
    );
    expect(check("1.14.1", { webhook: { enabled: true } })).toThrow(
      /has no webhook\.enabled: the chart had it up to 1\.0\.14 and dropped it/,
    );
    expect(check("1.14.1", { replicas: { x: 1 } })).toThrow(
      /has no replicas\.x: replicas is a single value, not a map/,
    );
    // affinity is judged by core/v1 Affinity, not values.yaml's example keys (nodeAffinity, podAntiAffinity)
    expect(check("1.14.1", { affinity: { podAffinity: {} } })).not.toThrow();
    expect(check("1.14.1", { affinity: { podAfinity: {} } })).toThrow(
      /values\.affinity\.podAfinity = \{\} is invalid: a field of Kubernetes core\/v1 Affinity .*which has no "podAfinity"; did you mean podAffinity\?/,
    );
    expect(
      check("1.14.1", {
        replicas: 3,
        podLabels: { a: "b" },
        controller: { resources: { limits: { cpu: "1" } } },
        settings: { batchMaxDuration: "5s" },
      }),
    ).not.toThrow();
  });
});
