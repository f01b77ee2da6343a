import { Construct } from "constructs";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterRelease } from "../../lib/helm/karpenter-release";
import { rejected, testStack } from "../helpers";
import { warningsOf } from "./release-harness";

/*
 * fresh tester 14, S-5, S-6, U-1: matchLabelKeys of values.topologySpreadConstraints and pod (anti-)affinity terms
 * against the selector the API server sees, per the cluster's Kubernetes version (rules and sources:
 * lib/kubernetes/object-rules.ts matchLabelKeysProblems; unit tests in test/kubernetes/object-rules.test.ts).
 */

/** An aws_eks_cluster "demo" at `version` (none: EKS's default, unknown at synth). */
function cluster(scope: Construct, version?: string) {
  const eks = new EksCluster(scope, "cluster", {
    name: "demo",
    roleArn: "arn:aws:iam::123456789012:role/cluster",
    vpcConfig: { subnetIds: ["subnet-00000001", "subnet-00000002"] },
    ...(version ? { version } : {}),
  });
  return KarpenterCluster.fromEksCluster(eks);
}

const spread = (extra: Record<string, unknown>) => ({
  topologySpreadConstraints: [
    { maxSkew: 1, topologyKey: "topology.kubernetes.io/zone", whenUnsatisfiable: "ScheduleAnyway", ...extra },
  ],
});

/** A Karpenter with these values on a cluster at `version`: its warnings (throws what the construct throws). */
function karpenter(values: Record<string, unknown>, version?: string): string[] {
  const { stack } = testStack();
  new HelmProvider(stack, "helm", {});
  new Karpenter(stack, "karpenter", { cluster: cluster(stack, version), values });
  return warningsOf(stack);
}

const problemsOf = (fn: () => unknown) => rejected(fn).problems.map((p) => [p.code, p.field]);

describe("matchLabelKeys through the constructs (fresh tester 14)", () => {
  test("S-5: the chart's instance label in both the labelSelector and matchLabelKeys is refused, 1.33 and 1.34 alike", () => {
    const values = spread({
      labelSelector: { matchLabels: { "app.kubernetes.io/instance": "karpenter" } },
      matchLabelKeys: ["app.kubernetes.io/instance"],
    });
    for (const version of ["1.33", "1.34", undefined])
      expect(problemsOf(() => karpenter(values, version))).toEqual([
        ["HELM_VALUES_K8S_VALUE", "values.topologySpreadConstraints[0].matchLabelKeys[0]"],
      ]);
  });
  test("S-6: matchLabelKeys without a labelSelector gets the chart's selector: pod-template-hash passes, a podLabels key in both is refused", () => {
    expect(karpenter(spread({ matchLabelKeys: ["pod-template-hash"] }), "1.33")).toEqual([]);
    const team = {
      podLabels: { team: "a" },
      ...spread({ labelSelector: { matchLabels: { team: "a" } }, matchLabelKeys: ["team"] }),
    };
    expect(problemsOf(() => karpenter(team, "1.34"))).toEqual([
      ["HELM_VALUES_K8S_VALUE", "values.topologySpreadConstraints[0].matchLabelKeys[0]"],
    ]);
  });
  test("a key in both the pods do not carry: refused on 1.33, accepted on 1.34, a warning on a cluster without a version", () => {
    const values = spread({ labelSelector: { matchLabels: { "zone-group": "a" } }, matchLabelKeys: ["zone-group"] });
    expect(problemsOf(() => karpenter(values, "1.33"))).toEqual([
      ["HELM_VALUES_K8S_VALUE", "values.topologySpreadConstraints[0].matchLabelKeys[0]"],
    ]);
    expect(karpenter(values, "1.34")).toEqual([]);
    expect(karpenter(values)).toEqual([
      expect.stringContaining(
        'values.topologySpreadConstraints[0].matchLabelKeys[0] = "zone-group" is also a key of the labelSelector',
      ),
    ]);
  });
  test("U-1: the typed affinity prop of KarpenterRelease, anti-affinity on the instance label, is refused on 1.34; pod-template-hash passes", () => {
    const affinity = (key: string) => ({
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          {
            topologyKey: "kubernetes.io/hostname",
            labelSelector: { matchLabels: { "app.kubernetes.io/instance": "karpenter" } },
            matchLabelKeys: [key],
          },
        ],
      },
    });
    const build = (key: string) => {
      const { stack } = testStack();
      new KarpenterRelease(stack, "rel", { cluster: cluster(stack, "1.34"), affinity: affinity(key) });
      return warningsOf(stack);
    };
    expect(problemsOf(() => build("app.kubernetes.io/instance"))).toEqual([
      [
        "HELM_VALUES_K8S_VALUE",
        "affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys[0]",
      ],
    ]);
    expect(build("pod-template-hash")).toEqual([]);
  });
});
