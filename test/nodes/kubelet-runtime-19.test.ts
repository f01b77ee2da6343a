import { Fn } from "cdktf";
import { KarpenterValidationError } from "../../lib/core/errors";
import { cpusetProblem, goCleanPath, kubeletRuntimeProblems } from "../../lib/nodes/kubelet-runtime-rules";
import { build, Props, rejection } from "./node-props";

/*
 * The fresh tester's kubelet finding (round 19): on Karpenter 1.15 a free-form spec.kubelet field passes to the node as
 * written (karpenter-provider-aws v1.15.0 nodeadm.go:103-116), and the kubelet's own ValidateKubeletConfiguration
 * (k8s.io/kubernetes@v1.36.3 pkg/kubelet/apis/config/validation/validation.go) refuses these values when it starts:
 * the node never joins. Each is refused with EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET; each rule has a valid
 * look-alike that passes.
 */

const ag = require("../../scripts/e2e/agreement.cjs");
const V = "1.15.0";
const CODE = "EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET";
const al2023 = (k: { [f: string]: unknown }, alias = "al2023@latest") =>
  ({ amiSelectorTerms: [{ alias }], kubelet: k }) as Props;
const problemsOf = (e: KarpenterValidationError) => e.problems ?? [e];

describe("the kubelet's own validation of a 1.15 free-form kubelet (AL2023)", () => {
  test.each([
    // [kubelet, field, line]
    [{ imageMinimumGCAge: "2h", imageMaximumGCAge: "2h" }, "imageMaximumGCAge", "validation.go:105"],
    [{ imageMinimumGCAge: "2h", imageMaximumGCAge: "1h" }, "imageMaximumGCAge", "validation.go:105"],
    [{ imageMaximumGCAge: "1m" }, "imageMaximumGCAge", "validation.go:105"],
    [{ imageMinimumGCAge: "-1m" }, "imageMinimumGCAge", "validation.go:99"],
    [{ imageMaximumGCAge: "-1m" }, "imageMaximumGCAge", "validation.go:102"],
    [{ topologyManagerPolicy: "foo" }, "topologyManagerPolicy", "validation.go:174"],
    [{ topologyManagerScope: "node" }, "topologyManagerScope", "validation.go:181"],
    [{ shutdownGracePeriod: "30s", shutdownGracePeriodCriticalPods: "60s" }, "shutdownGracePeriodCriticalPods", ":186"],
    [{ shutdownGracePeriod: "500ms" }, "shutdownGracePeriod", "validation.go:189"],
    [{ shutdownGracePeriodCriticalPods: "-1s", shutdownGracePeriod: "30s" }, "shutdownGracePeriodCriticalPods", ":192"],
    [{ containerLogMaxFiles: 1 }, "containerLogMaxFiles", "validation.go:385"],
    [{ memoryThrottlingFactor: 2 }, "memoryThrottlingFactor", "validation.go:350"],
    [{ memoryThrottlingFactor: 0 }, "memoryThrottlingFactor", "validation.go:350"],
    [{ registryPullQPS: -1 }, "registryPullQPS", "validation.go:144"],
    [{ eventRecordQPS: -1 }, "eventRecordQPS", "validation.go:75"],
    [{ healthzPort: 70000 }, "healthzPort", "validation.go:78"],
    [{ readOnlyPort: 70000 }, "readOnlyPort", "validation.go:138"],
    [{ oomScoreAdj: -2000 }, "oomScoreAdj", "validation.go:129"],
    [{ enforceNodeAllocatable: ["none", "pods"] }, "enforceNodeAllocatable", ":272"],
    [{ enforceNodeAllocatable: ["pods", "pods"] }, "enforceNodeAllocatable", ":255"],
    [{ enforceNodeAllocatable: ["pods", "nodes"] }, "enforceNodeAllocatable", ":278"],
    [{ enforceNodeAllocatable: ["kube-reserved", "kube-reserved-compressible"] }, "enforceNodeAllocatable", ":249"],
    [{ enforceNodeAllocatable: ["pods"], cgroupsPerQOS: false }, "enforceNodeAllocatable", ":284"],
    [{ cgroupsPerQOS: false }, "cgroupsPerQOS", "validation.go:284"],
    [{ hairpinMode: "foo" }, "hairpinMode", "validation.go:292"],
    [{ cpuCFSQuotaPeriod: "2s" }, "cpuCFSQuotaPeriod", "validation.go:81, :84"],
    [{ cpuCFSQuotaPeriod: "500us" }, "cpuCFSQuotaPeriod", "validation.go:81, :84"],
    [
      {
        shutdownGracePeriod: "30s",
        shutdownGracePeriodByPodPriority: [{ priority: 0, shutdownGracePeriodSeconds: 30 }],
      },
      "shutdownGracePeriodByPodPriority",
      "validation.go:200",
    ],
    [{ reservedSystemCPUs: "0-x" }, "reservedSystemCPUs", "validation.go:327"],
    [{ reservedSystemCPUs: "3-1" }, "reservedSystemCPUs", "validation.go:327"],
    [{ reservedSystemCPUs: "0-1", systemReservedCgroup: "/system" }, "reservedSystemCPUs", "validation.go:323"],
    [{ containerLogMonitorInterval: "1s" }, "containerLogMonitorInterval", "validation.go:381"],
    [{ memorySwap: { swapBehavior: "foo" } }, "memorySwap.swapBehavior", "validation.go:214"],
    [{ nodeStatusMaxImages: -2 }, "nodeStatusMaxImages", "validation.go:120"],
    [{ containerLogMaxWorkers: 0 }, "containerLogMaxWorkers", "validation.go:377"],
    [{ podLogsDir: "var/log/pods" }, "podLogsDir", "validation.go:393"],
    [{ podLogsDir: "/var/log/pods/" }, "podLogsDir", "validation.go:397"],
    [{ podLogsDir: "/var/log/pöds" }, "podLogsDir", "validation.go:403"],
    [{ logging: { format: "foo" } }, "logging.format", "logs/api/v1/options.go:156"],
    [{ containerLogMaxSize: "abc" }, "containerLogMaxSize", "container_log_manager.go:118"],
    [{ iptablesDropBit: 32 }, "iptablesDropBit", "validation.go:108"],
    [{ port: 70000 }, "port", "validation.go:135"],
    [{ kubeAPIQPS: -1 }, "kubeAPIQPS", "validation.go:117"],
    [{ maxParallelImagePulls: 0 }, "maxParallelImagePulls", "validation.go:147"],
    [{ maxParallelImagePulls: 5, serializeImagePulls: true }, "maxParallelImagePulls", "validation.go:150"],
    [{ runOnce: true }, "runOnce", "validation.go:156"],
    [{ nodeLeaseDurationSeconds: -1 }, "nodeLeaseDurationSeconds", "validation.go:66"],
    [{ enableSystemLogQuery: true, enableSystemLogHandler: false }, "enableSystemLogQuery", "validation.go:372"],
  ])("%j is refused on kubelet.%s", (k, field, line) => {
    const e = rejection("EC2NodeClass", al2023(k), V);
    expect(problemsOf(e)).toHaveLength(1);
    expect(e.code).toBe(CODE);
    expect(e.field).toBe(`kubelet.${field}`);
    expect(e.message).toContain(line);
    expect(e.message).toContain("the kubelet does not start, so the node never joins the cluster");
    expect(e.message).toContain("k8s.io/kubernetes@v1.36.3");
    expect(ag.semanticRuleOf(e, V)?.id).toBe("kubelet-runtime-validation");
  });

  test("every problem of the class at once, one per field", () => {
    const e = rejection(
      "EC2NodeClass",
      al2023({
        imageMinimumGCAge: "2h",
        imageMaximumGCAge: "2h",
        topologyManagerPolicy: "foo",
        containerLogMaxFiles: 1,
        memoryThrottlingFactor: 2,
        hairpinMode: "foo",
        podLogsDir: "var/log/pods",
        logging: { format: "foo" },
      }),
      V,
    );
    const ps = problemsOf(e);
    expect(ps.map((p) => p.code)).toEqual(Array(7).fill(CODE));
    expect(ps.map((p) => p.field).sort()).toEqual(
      [
        "kubelet.imageMaximumGCAge",
        "kubelet.topologyManagerPolicy",
        "kubelet.containerLogMaxFiles",
        "kubelet.memoryThrottlingFactor",
        "kubelet.hairpinMode",
        "kubelet.podLogsDir",
        "kubelet.logging.format",
      ].sort(),
    );
    expect(new Set(ps.map((p) => p.field)).size).toBe(ps.length);
  });

  test.each([
    { imageMinimumGCAge: "2h", imageMaximumGCAge: "3h" },
    { imageMaximumGCAge: "3m" },
    { imageMaximumGCAge: "0s" },
    { imageMinimumGCAge: "0s" },
    { topologyManagerPolicy: "single-numa-node", topologyManagerScope: "pod" },
    { shutdownGracePeriod: "60s", shutdownGracePeriodCriticalPods: "30s" },
    { shutdownGracePeriod: "1s" },
    { shutdownGracePeriod: "0s", shutdownGracePeriodByPodPriority: [{ priority: 0, shutdownGracePeriodSeconds: 30 }] },
    { containerLogMaxFiles: 2 },
    { memoryThrottlingFactor: 1 },
    { registryPullQPS: 0, eventRecordQPS: 0 },
    { healthzPort: 0, readOnlyPort: 10255, port: 0 },
    { oomScoreAdj: -1000 },
    { enforceNodeAllocatable: ["pods"] },
    { enforceNodeAllocatable: ["none"], cgroupsPerQOS: false },
    // nodeadm sets systemReservedCgroup "/system" and cgroupRoot "/": not judged
    { enforceNodeAllocatable: ["pods", "system-reserved"] },
    { systemCgroups: "/system" },
    { hairpinMode: "promiscuous-bridge" },
    { cpuCFSQuotaPeriod: "100ms" },
    { cpuCFSQuotaPeriod: "1s" },
    { reservedSystemCPUs: "0-1,3" },
    { containerLogMonitorInterval: "3s" },
    { memorySwap: { swapBehavior: "LimitedSwap" } },
    { nodeStatusMaxImages: -1 },
    { containerLogMaxWorkers: 1 },
    { podLogsDir: "/var/log/pods" },
    { logging: { format: "json" } },
    { containerLogMaxSize: "50Mi" },
    { maxParallelImagePulls: 5 },
    { enableSystemLogQuery: true, enableSystemLogHandler: true },
  ])("%j passes", (k) => {
    expect(() => build("EC2NodeClass", al2023(k), V)).not.toThrow();
  });

  test("values holding a token are not judged", () => {
    expect(() =>
      build(
        "EC2NodeClass",
        al2023({
          topologyManagerPolicy: Fn.lower("FOO"),
          podLogsDir: Fn.lower("X"),
          memorySwap: { swapBehavior: Fn.lower("FOO") },
        }),
        V,
      ),
    ).not.toThrow();
  });

  test("only on AL2023: Custom (whose userData the user writes) is not judged", () => {
    expect(() =>
      build(
        "EC2NodeClass",
        {
          amiFamily: "Custom",
          amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }],
          kubelet: { hairpinMode: "foo" },
        } as Props,
        V,
      ),
    ).not.toThrow();
  });

  test("a wrong JSON type is reported once, by the decode rule", () => {
    const e = rejection("EC2NodeClass", al2023({ containerLogMaxFiles: "1" }), V);
    expect(problemsOf(e).map((p) => p.code)).toEqual(["EC2NODECLASS_KUBELET_FIELD_TYPE"]);
  });
});

describe("what depends on the AMI's nodeadm or a kubelet default is warned, not refused", () => {
  const warningsOf = (k: { [f: string]: unknown }) => {
    const stack = build("EC2NodeClass", al2023(k), V);
    return stack.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)))
      .filter((w) => w.includes("the kubelet refuses"));
  };
  test("reservedSystemCPUs beside nodeadm's reserved cgroups", () => {
    const w = warningsOf({ reservedSystemCPUs: "0-1" });
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("validation.go:321-325");
    expect(w[0]).toContain("withDefaultReservedResources");
  });
  test("shutdownGracePeriodCriticalPods without shutdownGracePeriod (default 0)", () => {
    const w = warningsOf({ shutdownGracePeriodCriticalPods: "10s" });
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("validation.go:186");
  });
  test("no warning with both set, or on another family", () => {
    expect(warningsOf({ shutdownGracePeriod: "30s", shutdownGracePeriodCriticalPods: "10s" })).toEqual([]);
    expect(warningsOf({ reservedSystemCPUs: "0-1", systemReservedCgroup: "", kubeReservedCgroup: "" })).toEqual([]);
  });
});

describe("the helpers", () => {
  test("cpuset.Parse", () => {
    for (const ok of ["", "0", "0-3", "0-1,4,6-7", "+1", "1-1"]) expect(cpusetProblem(ok)).toBeUndefined();
    for (const bad of ["0-x", "-1", "0,", "a", "3-1", "0 - 1", " 0"]) expect(cpusetProblem(bad)).toBeDefined();
  });
  test("path.Clean", () => {
    expect(goCleanPath("/var/log/pods")).toBe("/var/log/pods");
    expect(goCleanPath("/var//log/./pods/../pods/")).toBe("/var/log/pods");
    expect(goCleanPath("/..")).toBe("/");
  });
  test("pure: a list of problems, nothing thrown", () => {
    expect(kubeletRuntimeProblems({})).toEqual([]);
    expect(kubeletRuntimeProblems({ containerLogMaxFiles: 1 }).map((p) => p.field)).toEqual([
      "kubelet.containerLogMaxFiles",
    ]);
  });
});
