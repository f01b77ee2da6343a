/*
 * The `values` subtrees the `karpenter` chart renders WHOLE into its Deployment with `toYaml`, each with the
 * Kubernetes type it lands in (a chart fact, kept by hand; test/helm/k8s-typed-values.test.ts reads every known
 * release's charts/karpenter/templates/deployment.yaml and holds each line below to a `with` / `range` of the path
 * followed by `toYaml .`, so the list cannot silently rot).
 *
 * Such a subtree takes every field of its type, whatever values.yaml shows as an example (values.yaml's
 * `strategy.rollingUpdate.maxUnavailable` does not make `maxSurge` unknown), and only those: chart-values.ts judges
 * it against the type's fields (lib/versions/data/k8s-api-fields.json, scripts/k8s-api-fields.ts) instead of
 * values.yaml's keys.
 */

/** One typed values path: the Kubernetes type (`core/v1.Affinity`), whether the value is a list of it, and its template lines per minor. */
export interface K8sTypedValue {
  /** The type in lib/versions/data/k8s-api-fields.json. */
  readonly type: string;
  /** The value is a list of `type` (`imagePullSecrets`), not one (`strategy`). */
  readonly list: boolean;
  /**
   * deployment.yaml lines (`with`/`range` of the path to its `toYaml .`) from a minor on, until the next minor
   * listed; `undefined`: the chart does not render it from that minor. Before the first minor listed: not rendered.
   */
  readonly lines: { readonly [fromMinor: string]: string | undefined };
}

/** The chart file every line of {@link K8S_TYPED_VALUES} is in. */
export const TYPED_VALUES_TEMPLATE = "charts/karpenter/templates/deployment.yaml";

/**
 * Values path → type and lines. Notes: `controller.securityContext` is not rendered whole: only its
 * `appArmorProfile`, `seLinuxOptions` and `seccompProfile` are (each `with .x` inside `with
 * .Values.controller.securityContext`, 1.5 on); `controller.sidecarContainer` is the whole list under `containers`
 * up to 1.2 and one `toYaml` per item (`range`) from 1.3, a list of Containers either way; `affinity` and
 * `topologySpreadConstraints` pass `karpenter.patchAffinity` / `patchTopologySpreadConstraints` (_helpers.tpl),
 * which only add a default labelSelector.
 */
export const K8S_TYPED_VALUES: { readonly [path: string]: K8sTypedValue } = {
  strategy: { type: "apps/v1.DeploymentStrategy", list: false, lines: { "1.0": "15-17", "1.15": "16-18" } },
  imagePullSecrets: { type: "core/v1.LocalObjectReference", list: true, lines: { "1.0": "34-36", "1.15": "35-37" } },
  podSecurityContext: {
    type: "core/v1.PodSecurityContext",
    list: false,
    lines: { "1.0": "39-41", "1.3": "40-42", "1.15": "41-43" },
  },
  dnsConfig: { type: "core/v1.PodDNSConfig", list: false, lines: { "1.0": "52-54", "1.3": "53-55", "1.15": "54-56" } },
  "controller.securityContext.appArmorProfile": {
    type: "core/v1.AppArmorProfile",
    list: false,
    lines: { "1.5": "76-78", "1.15": "77-79" },
  },
  "controller.securityContext.seLinuxOptions": {
    type: "core/v1.SELinuxOptions",
    list: false,
    lines: { "1.5": "80-82", "1.15": "81-83" },
  },
  "controller.securityContext.seccompProfile": {
    type: "core/v1.SeccompProfile",
    list: false,
    lines: { "1.5": "84-86", "1.15": "85-87" },
  },
  "controller.env": {
    type: "core/v1.EnvVar",
    list: true,
    lines: {
      "1.0": "151-152",
      "1.1": "150-151",
      "1.3": "151-152",
      "1.4": "155-156",
      "1.5": "166-167",
      "1.6": "174-175",
      "1.7": "180-181",
      "1.8": "188-189",
      "1.12": "192-193",
      "1.13": "200-201",
      "1.15": "214-215",
    },
  },
  "controller.envFrom": {
    type: "core/v1.EnvFromSource",
    list: true,
    lines: {
      "1.0": "154-156",
      "1.1": "153-155",
      "1.3": "154-156",
      "1.4": "158-160",
      "1.5": "169-171",
      "1.6": "177-179",
      "1.7": "183-185",
      "1.8": "191-193",
      "1.12": "195-197",
      "1.13": "203-205",
      "1.15": "217-219",
    },
  },
  "controller.resources": {
    type: "core/v1.ResourceRequirements",
    list: false,
    lines: {
      "1.0": "185-187",
      "1.1": "176-178",
      "1.3": "177-179",
      "1.4": "181-183",
      "1.5": "192-194",
      "1.6": "200-202",
      "1.7": "206-208",
      "1.8": "214-216",
      "1.12": "218-220",
      "1.13": "226-228",
      "1.15": "240-242",
    },
  },
  "controller.extraVolumeMounts": {
    type: "core/v1.VolumeMount",
    list: true,
    lines: {
      "1.0": "191-192",
      "1.1": "182-183",
      "1.3": "183-184",
      "1.4": "187-188",
      "1.5": "198-199",
      "1.6": "206-207",
      "1.7": "212-213",
      "1.8": "220-221",
      "1.12": "224-225",
      "1.13": "232-233",
      "1.15": "246-247",
    },
  },
  "controller.sidecarContainer": {
    type: "core/v1.Container",
    list: true,
    lines: {
      "1.0": "195-196",
      "1.1": "186-187",
      "1.3": "187-188",
      "1.4": "191-192",
      "1.5": "202-203",
      "1.6": "210-211",
      "1.7": "216-217",
      "1.8": "224-225",
      "1.12": "228-229",
      "1.13": "236-237",
      "1.15": "250-251",
    },
  },
  "controller.sidecarVolumeMounts": {
    type: "core/v1.VolumeMount",
    list: true,
    lines: {
      "1.0": "203-204",
      "1.1": "194-195",
      "1.4": "198-199",
      "1.5": "209-210",
      "1.6": "217-218",
      "1.7": "223-224",
      "1.8": "231-232",
      "1.12": "235-236",
      "1.13": "243-244",
      "1.15": "257-258",
    },
  },
  initContainers: {
    type: "core/v1.Container",
    list: true,
    lines: {
      "1.4": "203-205",
      "1.5": "214-216",
      "1.6": "222-224",
      "1.7": "228-230",
      "1.8": "236-238",
      "1.12": "240-242",
      "1.13": "248-250",
      "1.15": "262-264",
    },
  },
  affinity: {
    type: "core/v1.Affinity",
    list: false,
    lines: {
      "1.0": "211-215",
      "1.1": "202-206",
      "1.3": "203-207",
      "1.4": "211-215",
      "1.5": "222-226",
      "1.6": "230-234",
      "1.7": "236-240",
      "1.8": "244-248",
      "1.12": "248-252",
      "1.13": "256-260",
      "1.15": "270-274",
    },
  },
  topologySpreadConstraints: {
    type: "core/v1.TopologySpreadConstraint",
    list: true,
    lines: {
      "1.0": "217-221",
      "1.1": "208-212",
      "1.3": "209-213",
      "1.4": "217-221",
      "1.5": "228-232",
      "1.6": "236-240",
      "1.7": "242-246",
      "1.8": "250-254",
      "1.12": "254-258",
      "1.13": "262-266",
      "1.15": "276-280",
    },
  },
  tolerations: {
    type: "core/v1.Toleration",
    list: true,
    lines: {
      "1.0": "223-225",
      "1.1": "214-216",
      "1.3": "215-217",
      "1.4": "223-225",
      "1.5": "234-236",
      "1.6": "242-244",
      "1.7": "248-250",
      "1.8": "256-258",
      "1.12": "260-262",
      "1.13": "268-270",
      "1.15": "282-284",
    },
  },
  extraVolumes: {
    type: "core/v1.Volume",
    list: true,
    lines: {
      "1.0": "229-230",
      "1.1": "220-221",
      "1.3": "221-222",
      "1.4": "229-230",
      "1.5": "240-241",
      "1.6": "248-249",
      "1.7": "254-255",
      "1.8": "262-263",
      "1.12": "266-267",
      "1.13": "274-275",
      "1.15": "288-289",
    },
  },
};

function minorOf(version: string): number[] {
  return version.split(".").slice(0, 2).map(Number);
}

function minorCompare(a: string, b: string): number {
  const [am, an] = minorOf(a);
  const [bm, bn] = minorOf(b);
  return am - bm || an - bn;
}

/** The deployment.yaml lines of `path` in the chart of `version` (`"1.15.0"`), or undefined when that chart does not render it whole. */
export function typedValueLines(path: string, version: string): string | undefined {
  const entry = Object.prototype.hasOwnProperty.call(K8S_TYPED_VALUES, path) ? K8S_TYPED_VALUES[path] : undefined;
  if (!entry) return undefined;
  let found: string | undefined;
  for (const [from, lines] of Object.entries(entry.lines)) if (minorCompare(from, version) <= 0) found = lines;
  return found;
}

/** The typed paths the chart of `version` renders whole, each split into keys, with its entry and lines. */
export function typedValuesAt(version: string): { parts: string[]; entry: K8sTypedValue; lines: string }[] {
  return Object.entries(K8S_TYPED_VALUES).flatMap(([path, entry]) => {
    const lines = typedValueLines(path, version);
    return lines === undefined ? [] : [{ parts: path.split("."), entry, lines }];
  });
}
