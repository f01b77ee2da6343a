import { found, release as warningsRelease, synthKarpenter, synthRelease } from "./release-harness";

/*
 * fresh tester 12, S-8..S-12, S-15, S-16: chart values the API server refuses in the rendered Deployment,
 * PodDisruptionBudget or ClusterRole (rules: lib/kubernetes/object-rules.ts, unit-tested in
 * test/kubernetes/object-rules.test.ts). One input per rule family through the Karpenter construct, and valid
 * look-alikes that pass.
 */

const karpenter = synthKarpenter;
const release = synthRelease;

describe("values the API server refuses (fresh tester 12)", () => {
  test.each<[string, Record<string, unknown>, string]>([
    ["S-8 revisionHistoryLimit -1", { revisionHistoryLimit: -1 }, "values.revisionHistoryLimit"],
    [
      "S-9 maxUnavailable 150%",
      { strategy: { rollingUpdate: { maxUnavailable: "150%" } } },
      "values.strategy.rollingUpdate.maxUnavailable",
    ],
    [
      "S-9 maxUnavailable and maxSurge both 0",
      { strategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } },
      "values.strategy.rollingUpdate.maxUnavailable",
    ],
    [
      "S-9 type Recreate meets the chart's rollingUpdate",
      { strategy: { type: "Recreate" } },
      "values.strategy.rollingUpdate",
    ],
    ["S-10 PDB 150%", { podDisruptionBudget: { maxUnavailable: "150%" } }, "values.podDisruptionBudget.maxUnavailable"],
    ["S-10 PDB abc", { podDisruptionBudget: { maxUnavailable: "abc" } }, "values.podDisruptionBudget.maxUnavailable"],
    [
      "S-11 maxSkew 0",
      {
        topologySpreadConstraints: [
          { maxSkew: 0, topologyKey: "topology.kubernetes.io/zone", whenUnsatisfiable: "DoNotSchedule" },
        ],
      },
      "values.topologySpreadConstraints[0].maxSkew",
    ],
    [
      "S-12 node selector operator Equals",
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: "a", operator: "Equals", values: ["b"] }] }],
            },
          },
        },
      },
      "values.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator",
    ],
    [
      "S-12 pod anti-affinity term without topologyKey",
      { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{}] } } },
      "values.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey",
    ],
    [
      "S-15 seccompProfile.type Bogus",
      { podSecurityContext: { seccompProfile: { type: "Bogus" } } },
      "values.podSecurityContext.seccompProfile.type",
    ],
    [
      "S-15 localhostProfile meets the chart's RuntimeDefault",
      { podSecurityContext: { seccompProfile: { localhostProfile: "p.json" } } },
      "values.podSecurityContext.seccompProfile.localhostProfile",
    ],
    [
      "S-15 controller appArmorProfile Localhost without a profile",
      { controller: { securityContext: { appArmorProfile: { type: "Localhost" } } } },
      "values.controller.securityContext.appArmorProfile.localhostProfile",
    ],
    [
      "S-16 a ClusterRole rule without verbs",
      { additionalClusterRoleRules: [{ apiGroups: [""], resources: ["pods"] }] },
      "values.additionalClusterRoleRules[0].verbs",
    ],
  ])("%s is refused", (_what, values, field) => {
    expect(found(() => karpenter(values))).toContainEqual({ code: "HELM_VALUES_K8S_VALUE", field });
  });

  test("every problem at once", () => {
    const fields = found(() =>
      release({
        values: {
          revisionHistoryLimit: -1,
          podDisruptionBudget: { maxUnavailable: "abc" },
          additionalClusterRoleRules: [{ apiGroups: [""], resources: ["pods"] }],
        },
      }),
    )
      .filter((p) => p.code === "HELM_VALUES_K8S_VALUE")
      .map((p) => p.field);
    expect(fields).toEqual([
      "values.revisionHistoryLimit",
      "values.podDisruptionBudget.maxUnavailable",
      "values.additionalClusterRoleRules[0].verbs",
    ]);
  });

  test("S-D (fresh tester 15): every required node selector term empty is refused; beside a real term, a warning", () => {
    const required = (nodeSelectorTerms: unknown[]) => ({
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } },
    });
    const field = "values.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
    expect(found(() => karpenter(required([{}])))).toContainEqual({ code: "HELM_VALUES_K8S_VALUE", field });
    expect(found(() => release({ affinity: required([{}]).affinity }))).toContainEqual({
      code: "HELM_VALUES_K8S_VALUE",
      field: field.replace(/^values\./, ""),
    });
    const real = { matchExpressions: [{ key: "kubernetes.io/os", operator: "In", values: ["linux"] }] };
    expect(() => karpenter(required([real]))).not.toThrow();
    expect(warningsRelease({ values: required([real, {}]) })).toContainEqual(
      expect.stringContaining(`${field}[1] is an empty term`),
    );
  });

  test("the typed affinity prop gets the same rules", () => {
    expect(
      found(() =>
        release({
          affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: "" }] } },
        }),
      ),
    ).toContainEqual({
      code: "HELM_VALUES_K8S_VALUE",
      field: "affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey",
    });
  });

  test("valid look-alikes pass", () => {
    expect(() =>
      karpenter({
        revisionHistoryLimit: 0,
        strategy: { rollingUpdate: { maxUnavailable: "100%" } },
        podDisruptionBudget: { maxUnavailable: "100%" },
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey: "topology.kubernetes.io/zone", whenUnsatisfiable: "DoNotSchedule" },
        ],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: "karpenter.sh/nodepool", operator: "Exists" }] }],
            },
          },
        },
        podSecurityContext: { fsGroup: 0, seccompProfile: { type: "Unconfined" } },
        controller: { securityContext: { seccompProfile: { type: "RuntimeDefault" } } },
        additionalClusterRoleRules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }],
      }),
    ).not.toThrow();
    expect(() => release({ values: { podDisruptionBudget: { maxUnavailable: 0 } } })).not.toThrow();
  });
});
