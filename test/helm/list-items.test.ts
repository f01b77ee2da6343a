import { rejected } from "../helpers";
import { found, synthKarpenter, synthRelease } from "./release-harness";

/*
 * fresh tester 15, C-2, C-3 and S-A: a null, undefined or hole item of any list in `values` reached the chart's
 * templates, which render `- null` (the API server refuses the object or Helm's render fails on hasKey), or stopped
 * a list's own check with a TypeError. Now every such item is refused with HELM_VALUES_LIST_ITEM_MISSING on its
 * path, all at once; the same lists without the missing item pass.
 */

const CODE = "HELM_VALUES_LIST_ITEM_MISSING";
const vol = { name: "cache", emptyDir: {} };
const tsc = { maxSkew: 1, topologyKey: "topology.kubernetes.io/zone", whenUnsatisfiable: "ScheduleAnyway" };
const rule = { apiGroups: [""], resources: ["configmaps"], verbs: ["get"] };
const paaTerm = { topologyKey: "kubernetes.io/hostname", labelSelector: { matchLabels: { app: "x" } } };
const init = { name: "i", image: "busybox" };
const sidecar = { name: "s", image: "busybox" };

// eslint-disable-next-line no-sparse-arrays
const hole = <T>(item: T): T[] => [, item] as T[];

/** [name, values with the missing item, the field it is refused on, the same values written right] */
const ROWS: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
  [
    "5.18 controller.env hole",
    { controller: { env: hole({ name: "LOG_LEVEL", value: "debug" }) } },
    "values.controller.env[0]",
    { controller: { env: [{ name: "LOG_LEVEL", value: "debug" }] } },
  ],
  [
    "7.01 controller.env null",
    { controller: { env: [null] } },
    "values.controller.env[0]",
    { controller: { env: [] } },
  ],
  ["7.20 controller.envFrom null", { controller: { envFrom: [null] } }, "values.controller.envFrom[0]", {}],
  ["7.15 extraVolumes null", { extraVolumes: [null] }, "values.extraVolumes[0]", { extraVolumes: [vol] }],
  ["7.39 extraVolumes undefined", { extraVolumes: [undefined] }, "values.extraVolumes[0]", { extraVolumes: [vol] }],
  ["7.17 extraVolumes hole", { extraVolumes: hole(vol) }, "values.extraVolumes[0]", { extraVolumes: [vol] }],
  [
    "7.02 tolerations null",
    { tolerations: [null] },
    "values.tolerations[0]",
    { tolerations: [{ operator: "Exists" }] },
  ],
  [
    "C-3 (7.38) tolerations undefined",
    { tolerations: [undefined] },
    "values.tolerations[0]",
    { tolerations: [{ operator: "Exists" }] },
  ],
  [
    "7.18 tolerations hole",
    { tolerations: hole({ operator: "Exists" }) },
    "values.tolerations[0]",
    { tolerations: [{ operator: "Exists" }] },
  ],
  [
    "7.19 topologySpreadConstraints null",
    { topologySpreadConstraints: [null] },
    "values.topologySpreadConstraints[0]",
    { topologySpreadConstraints: [tsc] },
  ],
  [
    "5.37 topologySpreadConstraints undefined",
    { topologySpreadConstraints: [undefined] },
    "values.topologySpreadConstraints[0]",
    { topologySpreadConstraints: [tsc] },
  ],
  [
    "7.32 topologySpreadConstraints hole",
    { topologySpreadConstraints: hole(tsc) },
    "values.topologySpreadConstraints[0]",
    { topologySpreadConstraints: [tsc] },
  ],
  [
    "7.21 controller.extraVolumeMounts null",
    { extraVolumes: [vol], controller: { extraVolumeMounts: [null] } },
    "values.controller.extraVolumeMounts[0]",
    { extraVolumes: [vol], controller: { extraVolumeMounts: [{ name: "cache", mountPath: "/cache" }] } },
  ],
  [
    "5.41 controller.extraVolumeMounts undefined",
    { controller: { extraVolumeMounts: [undefined] } },
    "values.controller.extraVolumeMounts[0]",
    {},
  ],
  ["7.22 initContainers null", { initContainers: [null] }, "values.initContainers[0]", { initContainers: [init] }],
  [
    "5.36 initContainers undefined",
    { initContainers: [undefined] },
    "values.initContainers[0]",
    { initContainers: [init] },
  ],
  [
    "C-2 (7.30) initContainers hole",
    { initContainers: hole(init) },
    "values.initContainers[0]",
    { initContainers: [init] },
  ],
  [
    "7.23 additionalClusterRoleRules null",
    { additionalClusterRoleRules: [null] },
    "values.additionalClusterRoleRules[0]",
    { additionalClusterRoleRules: [rule] },
  ],
  [
    "5.38 additionalClusterRoleRules undefined",
    { additionalClusterRoleRules: [undefined] },
    "values.additionalClusterRoleRules[0]",
    { additionalClusterRoleRules: [rule] },
  ],
  [
    "7.31 additionalClusterRoleRules hole",
    { additionalClusterRoleRules: hole(rule) },
    "values.additionalClusterRoleRules[0]",
    { additionalClusterRoleRules: [rule] },
  ],
  [
    "7.27 podSecurityContext.sysctls hole",
    { podSecurityContext: { sysctls: hole({ name: "net.ipv4.ip_local_port_range", value: "1024 65535" }) } },
    "values.podSecurityContext.sysctls[0]",
    { podSecurityContext: { sysctls: [{ name: "net.ipv4.ip_local_port_range", value: "1024 65535" }] } },
  ],
  [
    "5.46 podSecurityContext.sysctls undefined",
    { podSecurityContext: { sysctls: [undefined] } },
    "values.podSecurityContext.sysctls[0]",
    {},
  ],
  [
    "7.33 controller.sidecarContainer null",
    { controller: { sidecarContainer: [null] } },
    "values.controller.sidecarContainer[0]",
    { controller: { sidecarContainer: [sidecar] } },
  ],
  [
    "5.43 controller.sidecarContainer undefined",
    { controller: { sidecarContainer: [undefined] } },
    "values.controller.sidecarContainer[0]",
    { controller: { sidecarContainer: [sidecar] } },
  ],
  [
    "5.42 affinity podAntiAffinity term undefined",
    { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [undefined] } } },
    "values.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]",
    { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [paaTerm] } } },
  ],
  [
    "7.36 dnsConfig.nameservers hole",
    { dnsConfig: { nameservers: hole("1.1.1.1") } },
    "values.dnsConfig.nameservers[0]",
    { dnsConfig: { nameservers: ["1.1.1.1"] } },
  ],
  [
    "7.24 dnsConfig.options null",
    { dnsConfig: { options: [null] } },
    "values.dnsConfig.options[0]",
    { dnsConfig: { options: [{ name: "ndots", value: "2" }] } },
  ],
];

describe("a null, undefined or hole item of a values list is refused, on its path (fresh tester 15 S-A, C-2, C-3)", () => {
  test.each(ROWS)("%s: Karpenter and KarpenterRelease", (_name, values, field) => {
    for (const synth of [() => synthKarpenter(values), () => synthRelease({ values })])
      expect(found(synth)).toEqual([{ code: CODE, field }]);
  });
  test.each(ROWS)("%s: the valid look-alike passes", (_name, _values, _field, valid) => {
    expect(() => synthKarpenter(valid)).not.toThrow();
    expect(() => synthRelease({ values: valid })).not.toThrow();
  });
  test("the message says what the hole is and what to write", () => {
    expect(rejected(() => synthKarpenter({ extraVolumes: hole(vol) })).message).toContain(
      "a hole of a sparse array ([, x]) is written as null",
    );
    expect(rejected(() => synthKarpenter({ extraVolumes: [null] })).message).toContain("null is not an item");
  });
  test("6.11: env hole, extraVolumes [null] and topologySpreadConstraints [null], three problems in one error", () => {
    const values = {
      controller: { env: hole({ name: "LOG_LEVEL", value: "debug" }) },
      extraVolumes: [null],
      topologySpreadConstraints: [null],
    };
    for (const synth of [() => synthKarpenter(values), () => synthRelease({ values })])
      expect(found(synth)).toEqual([
        { code: CODE, field: "values.controller.env[0]" },
        { code: CODE, field: "values.extraVolumes[0]" },
        { code: CODE, field: "values.topologySpreadConstraints[0]" },
      ]);
  });
  test("reported beside the other problems of the values, all at once", () => {
    const values = { extraVolumes: [null, { name: "Bad_Name", emptyDir: {} }], tolerations: [undefined] };
    expect(found(() => synthRelease({ values }))).toEqual(
      expect.arrayContaining([
        { code: CODE, field: "values.extraVolumes[0]" },
        { code: CODE, field: "values.tolerations[0]" },
        { code: "HELM_VALUES_K8S_VALUE", field: "values.extraVolumes[1].name" },
      ]),
    );
  });
  test("a null value of a map is no list item: it still removes the chart's default", () => {
    expect(() =>
      synthKarpenter({ podAnnotations: null, controller: { env: [{ name: "A", value: "b" }] } }),
    ).not.toThrow();
  });
});
