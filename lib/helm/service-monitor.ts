import { Annotations } from "cdktf";
import { IConstruct } from "constructs";
import { isPlainMap } from "../core/deep-merge";
import { nearestKey } from "../core/problems";
import { isUnresolved } from "../core/tokens";
import { KarpenterValidationError } from "../core/errors";
import { KarpenterVersion } from "../versions/karpenter-version";
import { factsRelease, valuePathsAt } from "../versions";
import { serviceMonitorEndpointFields } from "../versions/service-monitor";

/*
 * `values.serviceMonitor.endpointConfig` as the chart renders it: `toYaml` straight into the ServiceMonitor's
 * `spec.endpoints[0]`, after the `port: http-metrics` and `path: /metrics` the template writes itself and, from chart
 * 1.5.0, the `relabelings` / `metricRelabelings` it writes from their own values (templates/servicemonitor.yaml:26-39 of
 * 1.15.0). The ServiceMonitor is a prometheus-operator CRD (monitoring.coreos.com/v1), which the cluster has only when
 * a Prometheus Operator is installed there, outside this app; the chart renders the object only with
 * `serviceMonitor.enabled` and, from chart 1.3.0, only when the cluster serves monitoring.coreos.com/v1 (line 1;
 * aws/karpenter-provider-aws 344301eeb, "helm - add servicemonitor api condition", first in v1.3.0). So a finding is a
 * warning: the outcome depends on the cluster. The one exception is an endpointConfig that is not a map: its toYaml
 * leaves a bare scalar or a list inside the endpoint's mapping, which no YAML parser reads ("could not find expected
 * ':'"; helm v3.22.0 pkg/releaseutil/manifest_sorter.go:151 "YAML parse error on karpenter/templates/servicemonitor.yaml"),
 * and before 1.3.0 the chart renders the ServiceMonitor whenever it is enabled: the release fails on every cluster.
 *
 * Sources (prometheus-operator/prometheus-operator@6adcebc5076c34f4f55f8f5f7b1e528929373ac7):
 * - pkg/apis/monitoring/v1/types.go:50-54 `Duration` (pattern below), :549-650 `Endpoint`, :955-956 `Scheme` (enum);
 *   the generated CRD example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml:266-272 (interval),
 *   :864-872 (scheme), :873-881 (scrapeTimeout).
 * - The Duration pattern is in the CRD since v0.56.0 (commit 615162d6d, "Add validations for time settings of
 *   prometheus at CRD level", April 2022); the scheme enum since v0.65.0 (28e0383b9), its upper-case HTTP / HTTPS
 *   since v0.87.0 (8116f769c).
 * - pkg/prometheus/resource_selector.go:241 (checkServiceMonitor) and :291-299 with promcfg.go:976-993: the operator rejects (skips, with a Warning
 *   event) a ServiceMonitor whose scrapeTimeout is longer than its interval.
 *
 * A key the template already writes, repeated by endpointConfig, is a duplicate key of one YAML mapping. Helm does not
 * refuse that: helm.sh/helm/v3 v3.22.0 reads the manifest with sigs.k8s.io/yaml v1.6.0 Unmarshal / YAMLToJSON
 * (pkg/releaseutil/manifest_sorter.go:151; pkg/kube/client.go:345-361 → k8s.io/cli-runtime v0.37.0
 * pkg/resource/visitor.go:589-606 → k8s.io/apimachinery v0.37.0 pkg/util/yaml/decoder.go:125-135), the non-strict
 * go.yaml.in/yaml/v2 v2.4.4 decode, which reports "already set in map" only in strict mode (decode.go:685-690) and
 * otherwise keeps the last value; kubectl's NoDoubleKeySchema looks only at metadata.labels / annotations
 * (k8s.io/kubectl v0.37.0 pkg/validation/schema.go:42-55). (A yaml.v3 decode, where "mapping key already defined" is
 * always an error, reads only hook manifests: pkg/action/hooks.go:234.) So endpointConfig's value silently replaces the
 * chart's: a warning where the replacement breaks scraping or drops the chart's own value.
 */

/** The ServiceMonitor Endpoint's fields as the prometheus-operator CRD declares them (generated: lib/versions). */
const ENDPOINT = serviceMonitorEndpointFields();
const ENDPOINT_FIELDS = Object.keys(ENDPOINT.fields);
const CRD_SOURCE = `prometheus-operator@${ENDPOINT.commit.slice(0, 8)} ${ENDPOINT.file}`;

/** The Duration pattern of the ServiceMonitor CRD's interval (Prometheus' model.ParseDuration units, largest first). */
export const PROMETHEUS_DURATION = new RegExp(ENDPOINT.fields.interval.pattern ?? "");

const DURATION_SOURCE =
  "prometheus-operator pkg/apis/monitoring/v1/types.go:53 Duration, in the ServiceMonitor CRD since v0.56.0";

/** The first chart that renders the ServiceMonitor only where the cluster serves monitoring.coreos.com/v1. */
const GATED_SINCE = "1.3.0";

/** The JSON type a value of `type` must have, as the API server's schema validation decides it. */
const TYPE_OK: Readonly<Record<string, (v: unknown) => boolean>> = {
  string: (v) => typeof v === "string",
  boolean: (v) => typeof v === "boolean",
  integer: (v) => Number.isInteger(v),
  array: (v) => Array.isArray(v),
  object: (v) => isPlainMap(v),
  "int-or-string": (v) => typeof v === "string" || Number.isInteger(v),
};
/** What a field of `type` takes, in the words of a warning. */
const TYPE_WANT: Readonly<Record<string, string>> = {
  string: "a string",
  boolean: "true or false",
  integer: "an integer",
  array: "a list",
  object: "a map",
  "int-or-string": "a port number or name",
};

const UNIT_MS: Record<string, number> = {
  y: 365 * 24 * 3600e3,
  w: 7 * 24 * 3600e3,
  d: 24 * 3600e3,
  h: 3600e3,
  m: 60e3,
  s: 1e3,
  ms: 1,
};

/** Milliseconds of a duration matching {@link PROMETHEUS_DURATION} (as Prometheus' model.ParseDuration adds them up). */
export function prometheusDurationMs(text: string): number {
  let total = 0;
  for (const m of text.matchAll(/([0-9]+)(ms|[ywdhms])/g)) total += Number(m[1]) * UNIT_MS[m[2]];
  return total;
}

const where =
  "(the chart writes serviceMonitor.endpointConfig with toYaml into the ServiceMonitor's spec.endpoints[0], templates/servicemonitor.yaml)";
const outcome =
  "the API server refuses the ServiceMonitor, and so the Helm release fails, on every cluster whose Prometheus Operator CRD has this rule; on a cluster without monitoring.coreos.com/v1 the chart (1.3.0 and later) renders no ServiceMonitor and the value has no effect";

/**
 * Judges `values.serviceMonitor.endpointConfig` when the ServiceMonitor may be rendered (`serviceMonitor.enabled` true):
 * warnings, and a refusal only for a non-map before chart 1.3.0 (see the file comment).
 * @throws KarpenterValidationError HELM_VALUES_NOT_A_MAP for that one case
 */
export function checkServiceMonitorEndpoint(
  scope: IConstruct,
  version: KarpenterVersion,
  values: Record<string, unknown>,
): void {
  const sm = values.serviceMonitor;
  if (!isPlainMap(sm)) return;
  // false or unset renders nothing; a non-boolean (a token included) is refused elsewhere (HELM_VALUES_NOT_A_BOOLEAN,
  // HELM_VALUES_RENDER)
  if (sm.enabled !== true) return;
  const config = sm.endpointConfig;
  // `with` skips what Go templates count as empty (nil, false, 0, "", an empty list); a token may be any of these
  const empty = (v: unknown) =>
    v === undefined || v === null || v === false || v === 0 || v === "" || (Array.isArray(v) && v.length === 0);
  if (!isPlainMap(config) && !empty(config) && !isUnresolved(config)) {
    const allowed = `a map of ServiceMonitor Endpoint fields, e.g. { interval: "30s" }: the chart writes it with toYaml inside the endpoint's mapping (templates/servicemonitor.yaml), where ${Array.isArray(config) ? "a list" : "a scalar"} leaves a manifest no YAML parser reads, and Helm stops with "YAML parse error on karpenter/templates/servicemonitor.yaml" (helm.sh/helm/v3 v3.22.0 pkg/releaseutil/manifest_sorter.go:151)`;
    if (!version.atLeast(GATED_SINCE))
      throw new KarpenterValidationError(
        "HELM_VALUES_NOT_A_MAP",
        scope,
        "values.serviceMonitor.endpointConfig",
        config,
        `${allowed}; before chart ${GATED_SINCE} the ServiceMonitor is rendered whenever serviceMonitor.enabled is true, so the release fails on every cluster`,
      );
    Annotations.of(scope).addWarning(
      `${scope.node.path}: values.serviceMonitor.endpointConfig = ${JSON.stringify(config)}: ${allowed}; the chart renders the ServiceMonitor only on a cluster that serves monitoring.coreos.com/v1 (a Prometheus Operator installed), where the release then fails`,
    );
    return;
  }
  if (!isPlainMap(config)) return;
  const warn = (field: string, value: unknown, text: string) =>
    Annotations.of(scope).addWarning(
      `${scope.node.path}: values.serviceMonitor.endpointConfig.${field} = ${JSON.stringify(value)}: ${text}`,
    );
  const known = (v: unknown) => v !== undefined && v !== null && !isUnresolved(v);

  for (const [key, v] of Object.entries(config)) {
    const field = ENDPOINT.fields[key];
    if (!field) {
      const near = nearestKey(key, ENDPOINT_FIELDS);
      warn(
        key,
        v,
        `is no field of a ServiceMonitor Endpoint${near ? ` (did you mean ${near}?)` : ""}: the CRD is structural, so the API server prunes the key without a word and the setting never reaches Prometheus (${CRD_SOURCE}, Endpoint; Kubernetes "Field pruning" of custom resources) ${where}`,
      );
      continue;
    }
    if (!known(v)) continue;
    const duration = key === "interval" || key === "scrapeTimeout";
    if (field.enum && !(typeof v === "string" && field.enum.includes(v)))
      warn(
        key,
        v,
        key === "scheme"
          ? `one of ${field.enum.map((e) => JSON.stringify(e)).join(", ")} is allowed (upper case from Prometheus Operator v0.87.0; the CRD's enum since v0.65.0, prometheus-operator pkg/apis/monitoring/v1/types.go:955 Scheme, ${CRD_SOURCE}); ${outcome} ${where}`
          : `one of ${field.enum.map((e) => JSON.stringify(e)).join(", ")} is allowed (the CRD's enum, ${CRD_SOURCE}, Endpoint.${key}); ${outcome} ${where}`,
      );
    else if (!(TYPE_OK[field.type] ?? (() => true))(v))
      warn(
        key,
        v,
        duration
          ? `a string duration such as "30s" or "1m30s" is allowed (the CRD's type: string; ${DURATION_SOURCE}); ${outcome} ${where}`
          : `${TYPE_WANT[field.type] ?? field.type} is allowed (the CRD's type: ${field.type}, ${CRD_SOURCE}, Endpoint.${key}); ${outcome} ${where}`,
      );
    else if (field.pattern && typeof v === "string" && !new RegExp(field.pattern).test(v))
      warn(
        key,
        v,
        duration
          ? `a Prometheus duration is allowed: "0", or whole numbers with the units y, w, d, h, m, s, ms, largest first and without spaces, e.g. "30s", "1m30s", "1h" (pattern ${field.pattern}, ${DURATION_SOURCE}); ${outcome} ${where}`
          : `a value matching ${field.pattern} is allowed (the CRD's pattern, ${CRD_SOURCE}, Endpoint.${key}); ${outcome} ${where}`,
      );
  }
  const { interval, scrapeTimeout } = config;
  if (
    typeof interval === "string" &&
    typeof scrapeTimeout === "string" &&
    PROMETHEUS_DURATION.test(interval) &&
    PROMETHEUS_DURATION.test(scrapeTimeout) &&
    prometheusDurationMs(scrapeTimeout) > prometheusDurationMs(interval)
  )
    warn(
      "scrapeTimeout",
      scrapeTimeout,
      `a scrapeTimeout no longer than the interval (${JSON.stringify(interval)}) is allowed: the Prometheus Operator rejects the ServiceMonitor otherwise (it is not scraped; a Warning event "was rejected due to invalid configuration"; prometheus-operator pkg/prometheus/resource_selector.go:241, :291-299, promcfg.go:976-993) ${where}`,
    );

  // keys the template writes itself: endpointConfig's copy comes later in the same mapping and replaces the chart's
  const dup =
    "the template already writes this key in the same YAML mapping, and Helm keeps the last of a duplicate key (non-strict go-yaml v2 via sigs.k8s.io/yaml; no error), so this value replaces the chart's";
  const port = config.port;
  if (known(port) && port !== "http-metrics")
    warn(
      "port",
      port,
      `only "http-metrics" (or leave it unset) scrapes the controller: ${dup} \`port: http-metrics\`, and the karpenter Service has no other metrics port (templates/service.yaml), so Prometheus finds no target`,
    );
  const path = config.path;
  if (known(path) && path !== "/metrics")
    warn(
      "path",
      path,
      `only "/metrics" (or leave it unset) scrapes the controller: ${dup} \`path: /metrics\`, where the controller serves its metrics, so every scrape fails`,
    );
  if (known(config.targetPort) && (!known(port) || port === "http-metrics"))
    warn(
      "targetPort",
      config.targetPort,
      `has no effect: the chart always writes \`port: http-metrics\`, and an Endpoint's port takes precedence over targetPort (prometheus-operator pkg/apis/monitoring/v1/types.go:550-555); leave it unset`,
    );
  const paths = valuePathsAt(factsRelease(version.full));
  for (const key of ["relabelings", "metricRelabelings"]) {
    const own = sm[key];
    // the chart writes these from serviceMonitor.<key> only from 1.5.0, and only when the list is not empty (`with`)
    if (!paths.includes(`serviceMonitor.${key}[]`) || !Array.isArray(own) || own.length === 0) continue;
    if (config[key] === undefined || config[key] === null) continue;
    warn(
      key,
      config[key],
      `values.serviceMonitor.${key} is dropped: ${dup} \`${key}:\` from values.serviceMonitor.${key}. Set the rules in one of the two places`,
    );
  }
}
