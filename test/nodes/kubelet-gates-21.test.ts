import { Fn } from "cdktf";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { KarpenterValidationError } from "../../lib/core/errors";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import type { Ec2NodeClassProps } from "../../lib/nodes/ec2-node-class";
import {
  judgedKubeletMinors,
  kubeletRuntimeProblems,
  kubeletRuntimeWarnings,
} from "../../lib/nodes/kubelet-runtime-rules";
import { FakeInstallation, testStack } from "../helpers";

/*
 * Issue 31 (fresh tester 20): the kubelet's featureGates and the cluster's Kubernetes version in the kubelet rules of a
 * 1.15 free-form kubelet (AL2023). The kubelet applies featureGates with SetFromMap (k8s.io/component-base
 * featuregate/feature_gate.go) and validates with the gates as set (k8s.io/kubernetes@v1.36.3 validation.go); the gates
 * of each minor come from the generated kubelet-feature-gates.json. With a literal cluster version that minor is
 * judged; without one, what fails at every minor 1.31-1.37 is refused and what fails at some is a warning.
 */

const CODE = "EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET";

/** An AL2023 class with `kubelet` on Karpenter 1.15.0, of a cluster of Kubernetes `k8s` (no literal version when undefined). */
function nodeClass(kubelet: Record<string, unknown>, k8s?: string): Ec2NodeClass {
  const { stack } = testStack();
  const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
  const eks = new EksCluster(stack, "eks", {
    name: "demo",
    ...(k8s !== undefined ? { version: k8s } : {}),
    roleArn: "arn:aws:iam::123456789012:role/eks",
    vpcConfig: { subnetIds: ["subnet-00000001"] },
  });
  return new Ec2NodeClass(stack, "obj", {
    karpenter,
    cluster: KarpenterCluster.fromEksCluster(eks),
    amiSelectorTerms: [{ alias: "al2023@latest" }],
    kubelet,
  } as Ec2NodeClassProps);
}

function rejected(kubelet: Record<string, unknown>, k8s?: string): KarpenterValidationError {
  try {
    nodeClass(kubelet, k8s);
  } catch (e) {
    if (e instanceof KarpenterValidationError) return e;
    throw e;
  }
  throw new Error(`accepted: ${JSON.stringify(kubelet)}`);
}
const problemsOf = (e: KarpenterValidationError) => e.problems ?? [e];
const warningsOf = (kubelet: Record<string, unknown>, k8s?: string) =>
  nodeClass(kubelet, k8s)
    .node.metadata.filter((m) => m.type === "@cdktf/warn")
    .map((m) => String(m.data))
    .filter((w) => w.includes("the kubelet refuses"));

describe("featureGates: what SetFromMap refuses", () => {
  test.each([
    // [kubelet, cluster version, field, value, text]
    [{ featureGates: { NoSuchGate: true } }, undefined, "NoSuchGate", true, "unrecognized feature gate: NoSuchGate"],
    [{ featureGates: { nodeswap: true } }, "1.33", "nodeswap", true, "unrecognized feature gate: nodeswap"],
    [
      { featureGates: { KubeletCrashLoopBackOffMax: true } },
      "1.31",
      "KubeletCrashLoopBackOffMax",
      true,
      "unrecognized feature gate",
    ],
    [
      { featureGates: { NodeSwap: false } },
      "1.34",
      "NodeSwap",
      false,
      "cannot set feature gate NodeSwap to false, feature is locked to true",
    ],
    [
      { featureGates: { AuthorizeWithSelectors: false } },
      "1.35",
      "AuthorizeWithSelectors",
      false,
      "feature is locked to true",
    ],
  ])("%j on Kubernetes %s is refused on kubelet.featureGates.%s", (k, v, gate, value, text) => {
    const e = rejected(k, v);
    expect(problemsOf(e)).toHaveLength(1);
    expect(e.code).toBe(CODE);
    expect(e.field).toBe(`kubelet.featureGates.${gate}`);
    expect(e.value).toBe(value);
    expect(e.message).toContain(text);
    expect(e.message).toContain("k8s.io/component-base@v0.36.3 featuregate/feature_gate.go:4");
  });

  test("a gate name in the wrong case names the gate", () => {
    expect(rejected({ featureGates: { nodeswap: true } }, "1.33").message).toContain('did you mean "NodeSwap"?');
  });

  test("a gate locked at some minors only, the cluster's version unknown: a warning naming the minors", () => {
    expect(() => nodeClass({ featureGates: { NodeSwap: false } })).not.toThrow();
    const w = warningsOf({ featureGates: { NodeSwap: false } });
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("kubelet.featureGates.NodeSwap = false: on Kubernetes 1.34-1.37");
    expect(w[0]).toContain("feature is locked to true");
    expect(w[0]).toContain("passes on Kubernetes 1.31-1.33");
  });

  test("an enabled gate whose dependency the user disables is refused (feature_gate.go:466)", () => {
    const e = rejected({ featureGates: { ClusterTrustBundleProjection: true } }, "1.35");
    expect(problemsOf(e)).toHaveLength(1);
    expect(e.field).toBe("kubelet.featureGates.ClusterTrustBundleProjection");
    expect(e.value).toBe(true);
    expect(e.message).toContain(
      "ClusterTrustBundleProjection is enabled, but depends on features that are disabled: [ClusterTrustBundle]",
    );
    expect(e.message).toContain("feature_gate.go:466");
    // disabling a gate others depend on by default: blamed on the gate the user set
    const g = rejected({ featureGates: { GracefulNodeShutdown: false } }, "1.35");
    expect(g.field).toBe("kubelet.featureGates.GracefulNodeShutdown");
    expect(g.message).toContain("depends on features that are disabled: [GracefulNodeShutdown]");
    // 1.31-1.34 check no dependencies: a warning without the cluster's version
    expect(warningsOf({ featureGates: { ClusterTrustBundleProjection: true } })[0]).toContain(
      "on Kubernetes 1.35-1.36 the kubelet refuses", // ClusterTrustBundle is on by default at 1.37
    );
    expect(() =>
      nodeClass({ featureGates: { ClusterTrustBundleProjection: true, ClusterTrustBundle: true } }, "1.35"),
    ).not.toThrow();
  });

  test("look-alikes pass: a known gate at its default, a locked gate at its locked value, a token", () => {
    expect(() => nodeClass({ featureGates: { NodeSwap: true } })).not.toThrow();
    expect(() => nodeClass({ featureGates: { NodeSwap: true, MemoryQoS: false } }, "1.36")).not.toThrow();
    expect(() => nodeClass({ featureGates: { AuthorizeWithSelectors: true } }, "1.35")).not.toThrow();
    expect(() => nodeClass({ featureGates: { [Fn.lower("X")]: true } })).not.toThrow();
    expect(() => nodeClass({ featureGates: Fn.jsondecode("{}") as unknown as Record<string, boolean> })).not.toThrow();
    expect(warningsOf({ featureGates: { NodeSwap: true } })).toEqual([]);
  });
});

describe("rules behind a gate, at the gate's state (default at the minor, nodeadm's, the user's)", () => {
  test.each([
    // [kubelet, cluster version, field, line]
    [{ cpuCFSQuotaPeriod: "50ms" }, "1.33", "cpuCFSQuotaPeriod", "validation.go:81"],
    [{ cpuCFSQuotaPeriod: "2s" }, "1.36", "cpuCFSQuotaPeriod", "validation.go:84"],
    [{ cpuCFSQuotaPeriod: "2s", featureGates: { CustomCPUCFSQuotaPeriod: true } }, "1.33", "cpuCFSQuotaPeriod", ":84"],
    [
      { crashLoopBackOff: { maxContainerRestartPeriod: "600s" } },
      "1.35",
      "crashLoopBackOff.maxContainerRestartPeriod",
      ":227",
    ],
    [
      { crashLoopBackOff: { maxContainerRestartPeriod: "500ms" } },
      "1.36",
      "crashLoopBackOff.maxContainerRestartPeriod",
      ":227",
    ],
    [
      { crashLoopBackOff: { maxContainerRestartPeriod: "60s" } },
      "1.33",
      "crashLoopBackOff.maxContainerRestartPeriod",
      ":230",
    ],
    [{ imagePullCredentialsVerificationPolicy: "Sometimes" }, "1.35", "imagePullCredentialsVerificationPolicy", ":304"],
    [
      { imagePullCredentialsVerificationPolicy: "AlwaysVerify" },
      "1.33",
      "imagePullCredentialsVerificationPolicy",
      ":315",
    ],
    [
      { preloadedImagesVerificationAllowlist: ["registry.k8s.io/pause"] },
      "1.36",
      "preloadedImagesVerificationAllowlist",
      ":309",
    ],
    [{ memoryReservationPolicy: "TieredReservation" }, "1.36", "memoryReservationPolicy", ":356"],
    [{ memoryReservationPolicy: "Some" }, "1.36", "memoryReservationPolicy", ":362"],
    [{ enableSystemLogQuery: true }, "1.33", "enableSystemLogQuery", ":370"],
    [
      { featureGates: { RotateKubeletServerCertificate: false } },
      "1.33",
      "featureGates.RotateKubeletServerCertificate",
      ":153",
    ],
    [
      { shutdownGracePeriod: "30s", featureGates: { GracefulNodeShutdown: false } },
      "1.33",
      "shutdownGracePeriod",
      ":196",
    ],
    [
      {
        shutdownGracePeriodByPodPriority: [{ priority: 0, shutdownGracePeriodSeconds: 30 }],
        featureGates: { GracefulNodeShutdownBasedOnPodPriority: false },
      },
      "1.33",
      "shutdownGracePeriodByPodPriority",
      ":204",
    ],
    [{ memorySwap: { swapBehavior: "LimitedSwap" }, featureGates: { NodeSwap: false } }, "1.33", "memorySwap", ":218"],
  ])("%j on Kubernetes %s is refused on kubelet.%s", (k, v, field, line) => {
    const e = rejected(k, v);
    expect(problemsOf(e)).toHaveLength(1);
    expect(e.code).toBe(CODE);
    expect(e.field).toBe(`kubelet.${field}`);
    expect(e.message).toContain(line);
    expect(e.message).toContain("k8s.io/kubernetes@v1.36.3 pkg/kubelet/apis/config/validation/validation.go");
    expect(e.message).toContain(`the cluster's Kubernetes ${v}`);
  });

  test("the cluster's version unknown: what fails at some minors is a warning, at every minor refused", () => {
    expect(() => nodeClass({ cpuCFSQuotaPeriod: "50ms" })).not.toThrow();
    const w = warningsOf({ cpuCFSQuotaPeriod: "50ms" });
    expect(w).toHaveLength(1);
    expect(w[0]).toContain('kubelet.cpuCFSQuotaPeriod = "50ms": on Kubernetes 1.31-1.35');
    expect(w[0]).toContain("passes on Kubernetes 1.36-1.37");
    const e = rejected({ cpuCFSQuotaPeriod: "2s" });
    expect(e.field).toBe("kubelet.cpuCFSQuotaPeriod");
    expect(e.message).toContain("validation.go:81, :84");
  });

  test("look-alikes pass", () => {
    for (const [k, v] of [
      [{ cpuCFSQuotaPeriod: "50ms", featureGates: { CustomCPUCFSQuotaPeriod: true } }, "1.33"],
      [{ cpuCFSQuotaPeriod: "50ms" }, "1.36"],
      [{ cpuCFSQuotaPeriod: "100ms" }, "1.31"],
      [{ crashLoopBackOff: { maxContainerRestartPeriod: "300s" } }, "1.35"],
      [
        { crashLoopBackOff: { maxContainerRestartPeriod: "60s" }, featureGates: { KubeletCrashLoopBackOffMax: true } },
        "1.33",
      ],
      [{ imagePullCredentialsVerificationPolicy: "AlwaysVerify" }, "1.35"],
      [
        {
          imagePullCredentialsVerificationPolicy: "NeverVerifyAllowlistedImages",
          preloadedImagesVerificationAllowlist: ["registry.k8s.io/pause"],
        },
        "1.36",
      ],
      [{ memoryReservationPolicy: "TieredReservation", featureGates: { MemoryQoS: true } }, "1.36"],
      [{ enableSystemLogQuery: true, featureGates: { NodeLogQuery: true } }, "1.33"],
      [{ featureGates: { RotateKubeletServerCertificate: false }, serverTLSBootstrap: false }, "1.33"],
      [{ memorySwap: { swapBehavior: "LimitedSwap" } }, "1.33"],
    ] as [Record<string, unknown>, string][]) {
      expect(() => nodeClass(k, v)).not.toThrow();
      expect(warningsOf(k, v)).toEqual([]);
    }
  });

  test("AllAlpha turns on the alpha gates the user does not set", () => {
    expect(
      kubeletRuntimeProblems(
        { memoryReservationPolicy: "TieredReservation", featureGates: { AllAlpha: true } },
        "1.36",
      ),
    ).toEqual([]);
    expect(
      kubeletRuntimeProblems(
        { memoryReservationPolicy: "TieredReservation", featureGates: { AllAlpha: true, MemoryQoS: false } },
        "1.36",
      ).map((p) => p.field),
    ).toEqual(["kubelet.memoryReservationPolicy"]);
  });

  test("the minors judged: the cluster's, or every minor of the table", () => {
    expect(judgedKubeletMinors("1.33")).toEqual({ minors: ["1.33"], known: true });
    expect(judgedKubeletMinors("1.33.4")).toEqual({ minors: ["1.33"], known: true });
    expect(judgedKubeletMinors(undefined).minors).toEqual(["1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37"]);
    expect(judgedKubeletMinors("1.29").known).toBe(false);
    expect(kubeletRuntimeWarnings({ cpuCFSQuotaPeriod: "50ms" }, "1.36")).toEqual([]);
  });
});

describe("showHiddenMetricsForVersion against the cluster's Kubernetes minor (fresh tester 21, S-3)", () => {
  test('"1.30" on a 1.36 cluster is refused, naming "1.35"', () => {
    const p = problemsOf(rejected({ showHiddenMetricsForVersion: "1.30" }, "1.36")).find(
      (x) => x.field === "kubelet.showHiddenMetricsForVersion",
    );
    expect(p?.code).toBe(CODE);
    expect(p?.message).toContain('"1.35"');
    expect(p?.message).toContain("metrics/api/v1/config.go");
  });
  test('look-alikes: "1.35" on 1.36, and any "1.N" without a literal version', () => {
    expect(() => nodeClass({ showHiddenMetricsForVersion: "1.35" }, "1.36")).not.toThrow();
    expect(() => nodeClass({ showHiddenMetricsForVersion: "1.30" })).not.toThrow();
  });
});
