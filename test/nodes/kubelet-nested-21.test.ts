import { synthWarnings } from "../helpers";
import { build, rejection } from "./node-props";

/*
 * fresh tester 20: Karpenter 1.15 strict-decodes a free-form spec.kubelet into the upstream KubeletConfiguration
 * (karpenter-provider-aws v1.15.0 pkg/apis/v1/kubeletconfiguration_validation.go, validateAgainstUpstreamType), and
 * sigs.k8s.io/json's strict decode refuses an unknown field or a value of the wrong type at every depth, not only at
 * the top: logging, tracing, authentication, crashLoopBackOff, memorySwap, userNamespaces, reservedMemory and the
 * lists of structs (the nested tables of lib/versions/data/kubelet-config-fields.json).
 */

const al = (kubelet: Record<string, unknown>) => ({ amiSelectorTerms: [{ alias: "al2023@latest" }], kubelet });

describe("nested KubeletConfiguration structs are strict-decoded (1.15)", () => {
  test.each<[string, Record<string, unknown>, string, string]>([
    [
      "an unknown logging field",
      { logging: { verbose: 2 } },
      "kubelet.logging.verbose",
      "EC2NODECLASS_KUBELET_NOT_A_FIELD",
    ],
    [
      "a miscased logging field",
      { logging: { Format: "json" } },
      "kubelet.logging.Format",
      "EC2NODECLASS_KUBELET_NOT_A_FIELD",
    ],
    [
      "a negative verbosity (uint32)",
      { logging: { verbosity: -1 } },
      "kubelet.logging.verbosity",
      "EC2NODECLASS_KUBELET_FIELD_TYPE",
    ],
    [
      "a verbosity beyond uint32",
      { logging: { verbosity: 2 ** 32 } },
      "kubelet.logging.verbosity",
      "EC2NODECLASS_KUBELET_FIELD_TYPE",
    ],
    [
      "a string verbosity",
      { logging: { verbosity: "4" } },
      "kubelet.logging.verbosity",
      "EC2NODECLASS_KUBELET_FIELD_TYPE",
    ],
    [
      "a flushFrequency that is no duration",
      { logging: { flushFrequency: "5 seconds" } },
      "kubelet.logging.flushFrequency",
      "EC2NODECLASS_KUBELET_FIELD_TYPE",
    ],
    [
      "a fractional flushFrequency in nanoseconds",
      { logging: { flushFrequency: 1.5 } },
      "kubelet.logging.flushFrequency",
      "EC2NODECLASS_KUBELET_FIELD_TYPE",
    ],
    [
      "an unknown vmodule item field",
      { logging: { vmodule: [{ file: "x.go", verbosity: 2 }] } },
      "kubelet.logging.vmodule[0].file",
      "EC2NODECLASS_KUBELET_NOT_A_FIELD",
    ],
    [
      "a vmodule that is a string",
      { logging: { vmodule: "x=2" } },
      "kubelet.logging.vmodule",
      "EC2NODECLASS_KUBELET_FIELD_TYPE",
    ],
    [
      "an infoBufferSize that is no quantity",
      { logging: { options: { json: { infoBufferSize: "lots" } } } },
      "kubelet.logging.options.json.infoBufferSize",
      "EC2NODECLASS_KUBELET_FIELD_TYPE",
    ],
    [
      "an unknown logging option",
      { logging: { options: { yaml: {} } } },
      "kubelet.logging.options.yaml",
      "EC2NODECLASS_KUBELET_NOT_A_FIELD",
    ],
    [
      "an unknown tracing field",
      { tracing: { samplingRate: 10 } },
      "kubelet.tracing.samplingRate",
      "EC2NODECLASS_KUBELET_NOT_A_FIELD",
    ],
    [
      "a string sampling rate",
      { tracing: { samplingRatePerMillion: "10" } },
      "kubelet.tracing.samplingRatePerMillion",
      "EC2NODECLASS_KUBELET_FIELD_TYPE",
    ],
    [
      "an unknown memorySwap field",
      { memorySwap: { behavior: "NoSwap" } },
      "kubelet.memorySwap.behavior",
      "EC2NODECLASS_KUBELET_NOT_A_FIELD",
    ],
    [
      "an unknown crashLoopBackOff field",
      { crashLoopBackOff: { maxRestartPeriod: "1m" } },
      "kubelet.crashLoopBackOff.maxRestartPeriod",
      "EC2NODECLASS_KUBELET_NOT_A_FIELD",
    ],
    [
      "a crashLoopBackOff period that is no duration",
      { crashLoopBackOff: { maxContainerRestartPeriod: 60 } },
      "kubelet.crashLoopBackOff.maxContainerRestartPeriod",
      "EC2NODECLASS_KUBELET_FIELD_TYPE",
    ],
    [
      "an idsPerPod that is a string",
      { userNamespaces: { idsPerPod: "65536" } },
      "kubelet.userNamespaces.idsPerPod",
      "EC2NODECLASS_KUBELET_FIELD_TYPE",
    ],
    [
      "an unknown authentication field",
      { authentication: { anonymous: { enable: false } } },
      "kubelet.authentication.anonymous.enable",
      "EC2NODECLASS_KUBELET_NOT_A_FIELD",
    ],
    [
      "a cacheTTL that is no duration",
      { authentication: { webhook: { cacheTTL: "2 minutes" } } },
      "kubelet.authentication.webhook.cacheTTL",
      "EC2NODECLASS_KUBELET_FIELD_TYPE",
    ],
    [
      "an unknown shutdown-by-priority field",
      { shutdownGracePeriodByPodPriority: [{ priority: 1, seconds: 10 }] },
      "kubelet.shutdownGracePeriodByPodPriority[0].seconds",
      "EC2NODECLASS_KUBELET_NOT_A_FIELD",
    ],
    [
      "a reservedMemory limit that is no quantity",
      { reservedMemory: [{ numaNode: 0, limits: { memory: "1 GiB" } }] },
      "kubelet.reservedMemory[0].limits",
      "EC2NODECLASS_KUBELET_FIELD_TYPE",
    ],
  ])("%s is refused, naming the nested field", (_what, kubelet, field, code) => {
    const e = rejection("EC2NodeClass", al(kubelet), "1.15.0");
    const p = e.problems.find((x) => x.field === field);
    expect(p?.code).toBe(code);
    expect(p?.message).toContain("strict-decodes spec.kubelet");
  });

  test("a miscased nested field gets a suggestion naming the right one", () => {
    const e = rejection("EC2NodeClass", al({ logging: { Format: "json" } }), "1.15.0");
    expect(e.problems.find((x) => x.field === "kubelet.logging.Format")?.message).toContain("did you mean format");
  });

  test("every nested problem of one class is reported at once", () => {
    const e = rejection(
      "EC2NodeClass",
      al({ logging: { verbose: 2, verbosity: -1 }, tracing: { rate: 1 }, memorySwap: { behavior: "x" } }),
      "1.15.0",
    );
    expect(e.problems.map((p) => p.field)).toEqual(
      expect.arrayContaining([
        "kubelet.logging.verbose",
        "kubelet.logging.verbosity",
        "kubelet.tracing.rate",
        "kubelet.memorySwap.behavior",
      ]),
    );
  });

  test("look-alikes: the right fields and types pass", () => {
    expect(() =>
      build(
        "EC2NodeClass",
        al({
          logging: {
            format: "json",
            verbosity: 4,
            flushFrequency: "5s",
            options: { json: { infoBufferSize: "64Ki" } },
          },
          featureGates: { LoggingAlphaOptions: true },
          tracing: { endpoint: "localhost:4317", samplingRatePerMillion: 100 },
          memorySwap: { swapBehavior: "NoSwap" },
          authentication: { anonymous: { enabled: false }, webhook: { enabled: true, cacheTTL: "2m" } },
          shutdownGracePeriodByPodPriority: [{ priority: 100000, shutdownGracePeriodSeconds: 30 }],
          reservedMemory: [{ numaNode: 0, limits: { memory: "1Gi" } }],
        }),
        "1.15.0",
      ),
    ).not.toThrow();
    // flushFrequency also takes whole nanoseconds (TimeOrMetaDuration.UnmarshalJSON)
    expect(() => build("EC2NodeClass", al({ logging: { flushFrequency: 5000000000 } }), "1.15.0")).not.toThrow();
  });
});

/*
 * The kubelet's own validation of the nested structs (k8s.io/kubernetes v1.36.3 validation.go:334-343 into
 * component-base logs/api/v1 Validate, tracing/api/v1 ValidateTracingConfiguration, metrics/api/v1
 * validateShowHiddenMetricsVersion and validation_linux.go's userNamespaces): refused as the kubelet refuses them at
 * start (the node never joins), EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET.
 */
describe("nested values the kubelet refuses at start (1.15, AL2023)", () => {
  test.each<[string, Record<string, unknown>, string]>([
    ["a negative flushFrequency", { logging: { flushFrequency: "-1s" } }, "kubelet.logging.flushFrequency"],
    ["a negative flushFrequency in nanoseconds", { logging: { flushFrequency: -5 } }, "kubelet.logging.flushFrequency"],
    ["a verbosity above int32", { logging: { verbosity: 2 ** 31 } }, "kubelet.logging.verbosity"],
    [
      "vmodule with the json format",
      { logging: { format: "json", vmodule: [{ filePattern: "x", verbosity: 2 }] } },
      "kubelet.logging.vmodule",
    ],
    [
      "an empty vmodule file pattern",
      { logging: { vmodule: [{ filePattern: "", verbosity: 2 }] } },
      "kubelet.logging.vmodule[0].filePattern",
    ],
    [
      "a vmodule file pattern with =",
      { logging: { vmodule: [{ filePattern: "a=b", verbosity: 2 }] } },
      "kubelet.logging.vmodule[0].filePattern",
    ],
    [
      "the json format with LoggingBetaOptions off",
      { logging: { format: "json" }, featureGates: { LoggingBetaOptions: false } },
      "kubelet.logging.format",
    ],
    [
      "splitStream without LoggingAlphaOptions",
      { logging: { options: { json: { splitStream: true } } } },
      "kubelet.logging.options.json.splitStream",
    ],
    [
      "infoBufferSize without LoggingAlphaOptions",
      { logging: { options: { text: { infoBufferSize: "64Ki" } } } },
      "kubelet.logging.options.text.infoBufferSize",
    ],
    [
      "a sampling rate above a million",
      { tracing: { samplingRatePerMillion: 1000001 } },
      "kubelet.tracing.samplingRatePerMillion",
    ],
    ["a negative sampling rate", { tracing: { samplingRatePerMillion: -1 } }, "kubelet.tracing.samplingRatePerMillion"],
    ["an http tracing endpoint", { tracing: { endpoint: "http://otel-collector:4317" } }, "kubelet.tracing.endpoint"],
    [
      "a tracing endpoint with // but no scheme",
      { tracing: { endpoint: "//collector:4317" } },
      "kubelet.tracing.endpoint",
    ],
    ["idsPerPod below 65536", { userNamespaces: { idsPerPod: 1024 } }, "kubelet.userNamespaces.idsPerPod"],
    ["idsPerPod no multiple of 65536", { userNamespaces: { idsPerPod: 100000 } }, "kubelet.userNamespaces.idsPerPod"],
    ["idsPerPod above 2^32 - 1", { userNamespaces: { idsPerPod: 65536 * 65536 } }, "kubelet.userNamespaces.idsPerPod"],
    [
      "showHiddenMetricsForVersion that is no minor",
      { showHiddenMetricsForVersion: "v1.33" },
      "kubelet.showHiddenMetricsForVersion",
    ],
    [
      "showHiddenMetricsForVersion with a patch",
      { showHiddenMetricsForVersion: "1.33.0" },
      "kubelet.showHiddenMetricsForVersion",
    ],
  ])("%s is refused", (_what, kubelet, field) => {
    const e = rejection("EC2NodeClass", al(kubelet), "1.15.0");
    const p = e.problems.find((x) => x.field === field);
    expect(p?.code).toBe("EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET");
    expect(p?.message).toContain("the node never joins the cluster");
  });

  test.each<[string, Record<string, unknown>]>([
    ["a zero flushFrequency (defaulted to 5s)", { logging: { flushFrequency: "0s" } }],
    [
      "vmodule with the text format",
      { logging: { format: "text", vmodule: [{ filePattern: "controller*", verbosity: 4 }] } },
    ],
    [
      "splitStream with LoggingAlphaOptions on",
      {
        logging: { options: { json: { splitStream: true, infoBufferSize: "64Ki" } } },
        featureGates: { LoggingAlphaOptions: true },
      },
    ],
    ["a zero infoBufferSize", { logging: { options: { text: { infoBufferSize: "0" } } } }],
    [
      "a dns tracing endpoint",
      { tracing: { endpoint: "otel-collector.monitoring:4317", samplingRatePerMillion: 1000000 } },
    ],
    ["a unix tracing endpoint", { tracing: { endpoint: "unix:///run/otel.sock" } }],
    ["idsPerPod 131072", { userNamespaces: { idsPerPod: 131072 } }],
    ["showHiddenMetricsForVersion 1.33", { showHiddenMetricsForVersion: "1.33" }],
  ])("look-alike: %s passes", (_what, kubelet) => {
    expect(() => build("EC2NodeClass", al(kubelet), "1.15.0")).not.toThrow();
  });
});

/*
 * fresh tester 20: the same kubelet rules for an AL2023 NodeConfig's spec.kubelet.config. nodeadm merges it with
 * Karpenter's own part and writes it as the kubelet's configuration, which the kubelet validates at start; on every
 * Karpenter version (nodeadm passes it on whatever Karpenter validated).
 */
describe("an AL2023 NodeConfig's kubelet config the kubelet refuses at start", () => {
  const nodeConfig = (config: string) =>
    `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n${config}`;
  const cls = (userData: string, kubelet?: Record<string, unknown>) => ({
    amiSelectorTerms: [{ alias: "al2023@latest" }],
    userData,
    ...(kubelet ? { kubelet } : {}),
  });
  test.each<[string, string, string]>([
    [
      "a zero nodeStatusMaxImages below -1",
      "      nodeStatusMaxImages: -2\n",
      "spec.kubelet.config.nodeStatusMaxImages",
    ],
    [
      "an http tracing endpoint",
      "      tracing:\n        endpoint: http://otel:4317\n",
      "spec.kubelet.config.tracing.endpoint",
    ],
    [
      "an idsPerPod below 65536",
      "      userNamespaces:\n        idsPerPod: 1000\n",
      "spec.kubelet.config.userNamespaces.idsPerPod",
    ],
  ])("%s is refused on userData, naming the line and the field (1.14 and 1.15)", (_what, config, field) => {
    for (const version of ["1.14.1", "1.15.0"]) {
      const e = rejection("EC2NodeClass", cls(nodeConfig(config)), version);
      const p = e.problems.find((x) => x.field === "userData");
      expect(p?.code).toBe("EC2NODECLASS_USER_DATA");
      expect(p?.message).toContain(field);
      expect(p?.message).toContain("the node never joins the cluster");
      expect(p?.value).toMatch(/^line \d+:/);
    }
  });
  test("a value Karpenter's part replaces is not judged (the class's kubelet wins)", () => {
    // the class's imageGCHighThresholdPercent replaces the NodeConfig's 101 before the kubelet reads it
    expect(() =>
      build(
        "EC2NodeClass",
        cls(nodeConfig("      imageGCHighThresholdPercent: 101\n"), { imageGCHighThresholdPercent: 85 }),
        "1.15.0",
      ),
    ).not.toThrow();
  });
  test("look-alike: values the kubelet takes pass", () => {
    expect(() =>
      build(
        "EC2NodeClass",
        cls(
          nodeConfig(
            "      tracing:\n        endpoint: otel.monitoring:4317\n      userNamespaces:\n        idsPerPod: 65536\n      nodeStatusMaxImages: 50\n",
          ),
        ),
        "1.15.0",
      ),
    ).not.toThrow();
  });
});

/*
 * fresh tester 20: defaults the kubelet applies after merging its configuration (cmd/kubelet/app/server.go:386-392;
 * v1beta1/defaults.go): a zero imageMinimumGCAge is 2m, and one image GC threshold alone is judged against the
 * other's default (high 85, low 80; validation.go:93).
 */
describe("kubelet defaults applied before the kubelet's validation", () => {
  test('imageMaximumGCAge "1m" beside imageMinimumGCAge "0s" (defaulted to 2m) is refused (1.15, AL2023)', () => {
    const e = rejection("EC2NodeClass", al({ imageMinimumGCAge: "0s", imageMaximumGCAge: "1m" }), "1.15.0");
    const p = e.problems.find((x) => x.field === "kubelet.imageMaximumGCAge");
    expect(p?.code).toBe("EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET");
    expect(p?.message).toContain('which the kubelet defaults to "2m"');
  });
  test.each<[string, Record<string, unknown>, string]>([
    ["low 90 alone (default high 85)", { imageGCLowThresholdPercent: 90 }, "kubelet.imageGCLowThresholdPercent"],
    ["low 85 alone", { imageGCLowThresholdPercent: 85 }, "kubelet.imageGCLowThresholdPercent"],
    ["high 75 alone (default low 80)", { imageGCHighThresholdPercent: 75 }, "kubelet.imageGCHighThresholdPercent"],
    ["high 80 alone", { imageGCHighThresholdPercent: 80 }, "kubelet.imageGCHighThresholdPercent"],
  ])("one image GC threshold alone on AL2023: %s is refused on every version", (_what, kubelet, field) => {
    for (const version of ["1.0.0", "1.12.0", "1.15.0"]) {
      const e = rejection("EC2NodeClass", al(kubelet), version);
      const p = e.problems.find((x) => x.field === field);
      expect(p?.code).toBe("EC2NODECLASS_KUBELET_IMAGE_GC");
      expect(p?.message).toMatch(/the kubelet defaults it to (85|80)/);
    }
  });
  test.each<[string, Record<string, unknown>]>([
    ['imageMaximumGCAge "3m" beside "0s"', { imageMinimumGCAge: "0s", imageMaximumGCAge: "3m" }],
    ["low 70 alone", { imageGCLowThresholdPercent: 70 }],
    ["high 90 alone", { imageGCHighThresholdPercent: 90 }],
    ["both set, 95 over 90", { imageGCHighThresholdPercent: 95, imageGCLowThresholdPercent: 90 }],
  ])("look-alike: %s passes", (_what, kubelet) => {
    expect(() => build("EC2NodeClass", al(kubelet), "1.15.0")).not.toThrow();
  });
  test("on Bottlerocket one threshold alone warns (the AMI's own configuration may set the other)", () => {
    const stack = build(
      "EC2NodeClass",
      { amiSelectorTerms: [{ alias: "bottlerocket@latest" }], kubelet: { imageGCLowThresholdPercent: 90 } },
      "1.15.0",
    );
    const warnings = synthWarnings(stack);
    expect(warnings.join("\n")).toContain("kubelet.imageGCLowThresholdPercent = 90 without the other threshold");
  });
});

/*
 * fresh tester 20: start-up refusals outside validation.go: the container manager creates the topology, CPU and
 * memory managers when the kubelet starts (k8s.io/kubernetes v1.36.3 pkg/kubelet/cm/container_manager_linux.go:298-358)
 * and stops on an error in their configuration.
 */
describe("the kubelet's resource managers refuse their configuration at start (1.15, AL2023)", () => {
  test.each<[string, Record<string, unknown>, string]>([
    ["memoryManagerPolicy in lower case", { memoryManagerPolicy: "static" }, "kubelet.memoryManagerPolicy"],
    [
      "memoryManagerPolicy BestEffort (Windows only)",
      { memoryManagerPolicy: "BestEffort" },
      "kubelet.memoryManagerPolicy",
    ],
    ["cpuManagerPolicy in upper case", { cpuManagerPolicy: "Static" }, "kubelet.cpuManagerPolicy"],
    [
      "CPU manager options with the none policy",
      { cpuManagerPolicyOptions: { "full-pcpus-only": "true" } },
      "kubelet.cpuManagerPolicyOptions",
    ],
    [
      "an unknown CPU manager option",
      { cpuManagerPolicy: "static", cpuManagerPolicyOptions: { "full-cpus-only": "true" } },
      'kubelet.cpuManagerPolicyOptions["full-cpus-only"]',
    ],
    [
      "an alpha CPU manager option without its gate",
      { cpuManagerPolicy: "static", cpuManagerPolicyOptions: { "align-by-socket": "true" } },
      'kubelet.cpuManagerPolicyOptions["align-by-socket"]',
    ],
    [
      "a beta CPU manager option with its gate off",
      {
        cpuManagerPolicy: "static",
        cpuManagerPolicyOptions: { "distribute-cpus-across-numa": "true" },
        featureGates: { CPUManagerPolicyBetaOptions: false },
      },
      'kubelet.cpuManagerPolicyOptions["distribute-cpus-across-numa"]',
    ],
    [
      "a CPU manager option that is no boolean",
      { cpuManagerPolicy: "static", cpuManagerPolicyOptions: { "full-pcpus-only": "yes" } },
      'kubelet.cpuManagerPolicyOptions["full-pcpus-only"]',
    ],
    [
      "two CPU manager options that exclude each other",
      {
        cpuManagerPolicy: "static",
        cpuManagerPolicyOptions: { "full-pcpus-only": "true", "distribute-cpus-across-cores": "true" },
        featureGates: { CPUManagerPolicyAlphaOptions: true },
      },
      'kubelet.cpuManagerPolicyOptions["distribute-cpus-across-cores"]',
    ],
    [
      "an unknown topology manager option",
      { topologyManagerPolicy: "best-effort", topologyManagerPolicyOptions: { "prefer-closest-numa": "true" } },
      'kubelet.topologyManagerPolicyOptions["prefer-closest-numa"]',
    ],
    [
      "max-allowable-numa-nodes below 8",
      { topologyManagerPolicy: "restricted", topologyManagerPolicyOptions: { "max-allowable-numa-nodes": "4" } },
      'kubelet.topologyManagerPolicyOptions["max-allowable-numa-nodes"]',
    ],
    [
      "max-allowable-numa-nodes that is no number",
      { topologyManagerPolicy: "restricted", topologyManagerPolicyOptions: { "max-allowable-numa-nodes": "eight" } },
      'kubelet.topologyManagerPolicyOptions["max-allowable-numa-nodes"]',
    ],
  ])("%s is refused", (_what, kubelet, field) => {
    const e = rejection("EC2NodeClass", al(kubelet), "1.15.0");
    const p = e.problems.find((x) => x.field === field);
    expect(p?.code).toBe("EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET");
    expect(p?.message).toContain("pkg/kubelet/cm/");
  });
  test.each<[string, Record<string, unknown>]>([
    [
      "memoryManagerPolicy Static with reservedMemory",
      { memoryManagerPolicy: "Static", reservedMemory: [{ numaNode: 0, limits: { memory: "1Gi" } }] },
    ],
    [
      "static with stable options",
      {
        cpuManagerPolicy: "static",
        cpuManagerPolicyOptions: { "full-pcpus-only": "true", "strict-cpu-reservation": "T" },
      },
    ],
    [
      "an alpha option with its gate on",
      {
        cpuManagerPolicy: "static",
        cpuManagerPolicyOptions: { "align-by-socket": "true" },
        featureGates: { CPUManagerPolicyAlphaOptions: true },
      },
    ],
    ["the none policy without options", { cpuManagerPolicy: "none", cpuManagerPolicyOptions: {} }],
    [
      "topology options with the none policy (not read)",
      { topologyManagerPolicy: "none", topologyManagerPolicyOptions: { whatever: "x" } },
    ],
    [
      "max-allowable-numa-nodes 16",
      {
        topologyManagerPolicy: "single-numa-node",
        topologyManagerPolicyOptions: { "max-allowable-numa-nodes": "16", "prefer-closest-numa-nodes": "true" },
      },
    ],
  ])("look-alike: %s passes", (_what, kubelet) => {
    expect(() => build("EC2NodeClass", al(kubelet), "1.15.0")).not.toThrow();
  });
});

/*
 * fresh tester 21: more of what the kubelet refuses when it starts: reservedMemory entries (validation.go:332 ->
 * validation_reserved_memory.go), the Static memory manager without reservedMemory (memory_manager.go:419-471),
 * showHiddenMetricsForVersion against a known cluster minor, the authorization mode (auth.go:122-143) and TLS names
 * (server.go:1168-1187, generated kubelet-tls-names.json).
 */
describe("fresh tester 21: kubelet values refused at start", () => {
  test.each<[string, Record<string, unknown>, string]>([
    [
      "a reservedMemory cpu limit",
      { reservedMemory: [{ numaNode: 0, limits: { cpu: "1" } }] },
      'kubelet.reservedMemory[0].limits["cpu"]',
    ],
    [
      "a zero reservedMemory limit",
      { reservedMemory: [{ numaNode: 0, limits: { memory: "0" } }] },
      'kubelet.reservedMemory[0].limits["memory"]',
    ],
    [
      "a zero hugepages limit in Gi",
      { reservedMemory: [{ numaNode: 1, limits: { "hugepages-2Mi": "0Gi" } }] },
      'kubelet.reservedMemory[0].limits["hugepages-2Mi"]',
    ],
    [
      "a repeated NUMA node and resource",
      {
        reservedMemory: [
          { numaNode: 0, limits: { memory: "1Gi" } },
          { numaNode: 0, limits: { memory: "1Gi" } },
        ],
      },
      'kubelet.reservedMemory[1].limits["memory"]',
    ],
    [
      "the Static memory manager without reservedMemory",
      { memoryManagerPolicy: "Static" },
      "kubelet.memoryManagerPolicy",
    ],
    [
      "the Static memory manager with an empty reservedMemory",
      { memoryManagerPolicy: "Static", reservedMemory: [] },
      "kubelet.memoryManagerPolicy",
    ],
    [
      "an authorization mode the kubelet does not know",
      { authorization: { mode: "RBAC" } },
      "kubelet.authorization.mode",
    ],
    ["a TLS version name the kubelet does not know", { tlsMinVersion: "TLS1.2" }, "kubelet.tlsMinVersion"],
    [
      "a cipher suite the kubelet does not know",
      { tlsCipherSuites: ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_FOO"] },
      "kubelet.tlsCipherSuites[1]",
    ],
  ])("%s is refused", (_what, kubelet, field) => {
    const e = rejection("EC2NodeClass", al(kubelet), "1.15.0");
    const p = e.problems.find((x) => x.field === field);
    expect(p?.code).toBe("EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET");
    expect(p?.message).toContain("the node never joins the cluster");
  });

  test.each<[string, Record<string, unknown>]>([
    [
      "reservedMemory memory and hugepages per NUMA node",
      {
        memoryManagerPolicy: "Static",
        reservedMemory: [
          { numaNode: 0, limits: { memory: "1100Mi", "hugepages-1Gi": "1Gi" } },
          { numaNode: 1, limits: { memory: "1Gi" } },
        ],
      },
    ],
    ["the authorization modes", { authorization: { mode: "Webhook" } }],
    [
      "TLS names the kubelet knows",
      {
        tlsMinVersion: "VersionTLS12",
        tlsCipherSuites: ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305"],
      },
    ],
    ["an insecure cipher suite (taken, with a log line)", { tlsCipherSuites: ["TLS_RSA_WITH_AES_128_GCM_SHA256"] }],
  ])("look-alike: %s passes", (_what, kubelet) => {
    expect(() => build("EC2NodeClass", al(kubelet), "1.15.0")).not.toThrow();
  });
});
