import { Lazy } from "cdktf";
import {
  affinityProblems,
  chartNameProblems,
  containerProblems,
  containerSecurityContextProblems,
  envFromProblems,
  envValueFromProblems,
  hostProcessProblems,
  int32Problems,
  volumeMountProblems,
  volumeNames,
  volumeProblems,
  deploymentStrategyProblems,
  disruptionBudgetProblems,
  labelSelectorProblems,
  podSecurityContextProblems,
  policyRuleProblems,
  revisionHistoryLimitProblems,
  topologySpreadProblems,
} from "../../lib/kubernetes/object-rules";

/*
 * The API server's value rules for what the Karpenter chart renders into its Deployment, PDB and ClusterRole
 * (k8s.io/kubernetes@v1.34.2, cited in lib/kubernetes/object-rules.ts): each invalid input and a valid look-alike.
 */

const fields = (ps: readonly { field: string }[]) => ps.map((p) => p.field);
const CHART_STRATEGY = { rollingUpdate: { maxUnavailable: 1 } };

describe("revisionHistoryLimit (apps validation.go:661-663)", () => {
  test.each([[-1], ["-1"]])("%p is refused", (v) => {
    expect(fields(revisionHistoryLimitProblems(v, "values.revisionHistoryLimit"))).toEqual([
      "values.revisionHistoryLimit",
    ]);
  });
  test.each([[0], [10], ["3"], [undefined], [1.5], [true]])("%p passes (or is not this rule's type)", (v) => {
    expect(revisionHistoryLimitProblems(v, "f")).toEqual([]);
  });
});

describe("strategy (apps validation.go:594-630)", () => {
  const f = "values.strategy";
  test.each<[string, Record<string, unknown>, string[]]>([
    ["maxUnavailable 150%", { rollingUpdate: { maxUnavailable: "150%" } }, [`${f}.rollingUpdate.maxUnavailable`]],
    ["maxUnavailable -1", { rollingUpdate: { maxUnavailable: -1 } }, [`${f}.rollingUpdate.maxUnavailable`]],
    ["maxSurge abc", { rollingUpdate: { maxUnavailable: 1, maxSurge: "abc" } }, [`${f}.rollingUpdate.maxSurge`]],
    [
      "maxSurge a quoted number",
      { rollingUpdate: { maxUnavailable: 1, maxSurge: "1" } },
      [`${f}.rollingUpdate.maxSurge`],
    ],
    ["both zero", { rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } }, [`${f}.rollingUpdate.maxUnavailable`]],
    ["both 0%", { rollingUpdate: { maxUnavailable: "0%", maxSurge: "0%" } }, [`${f}.rollingUpdate.maxUnavailable`]],
    ["type Bogus", { type: "Bogus" }, [`${f}.type`]],
    ["type rollingupdate (case)", { type: "rollingupdate" }, [`${f}.type`]],
    ["Recreate with rollingUpdate", { type: "Recreate", rollingUpdate: { maxUnavailable: 1 } }, [`${f}.rollingUpdate`]],
  ])("%s is refused", (_what, strategy, expected) => {
    expect(fields(deploymentStrategyProblems(strategy, f))).toEqual(expected);
  });
  test.each<[string, Record<string, unknown>]>([
    ["maxUnavailable 100%", { rollingUpdate: { maxUnavailable: "100%" } }],
    [
      "maxSurge 150% (only maxUnavailable has the 100% cap)",
      { rollingUpdate: { maxUnavailable: 1, maxSurge: "150%" } },
    ],
    ["zero-downtime 0 + 1", { rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } }],
    ["maxUnavailable 0, maxSurge defaulted to 25%", { rollingUpdate: { maxUnavailable: 0 } }],
    ["type RollingUpdate", { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 1 } }],
    ["Recreate with rollingUpdate null", { type: "Recreate", rollingUpdate: null }],
    ["a token", { rollingUpdate: { maxUnavailable: Lazy.stringValue({ produce: () => "1" }), maxSurge: 0 } }],
  ])("%s passes", (_what, strategy) => {
    expect(deploymentStrategyProblems(strategy, f)).toEqual([]);
  });
  test("the chart's default rollingUpdate makes type Recreate alone invalid (Helm merges it in)", () => {
    const merged = { ...CHART_STRATEGY, type: "Recreate" };
    expect(deploymentStrategyProblems(merged, f)[0].allowed).toContain("rollingUpdate: null");
  });
});

describe("podDisruptionBudget.maxUnavailable (policy validation.go:62-65)", () => {
  const f = "values.podDisruptionBudget.maxUnavailable";
  test.each([["150%"], ["abc"], [-1], ["-1"], ["1 %"]])("%p is refused", (v) => {
    expect(fields(disruptionBudgetProblems(v, f))).toEqual([f]);
  });
  test.each([["100%"], ["0%"], [0], [1], ["2"], [undefined], ["1.5"], ["true"]])("%p passes here", (v) => {
    expect(disruptionBudgetProblems(v, f)).toEqual([]);
  });
});

describe("topologySpreadConstraints (core validation.go:8437-8554)", () => {
  const f = "values.topologySpreadConstraints";
  const ok = { maxSkew: 1, topologyKey: "topology.kubernetes.io/zone", whenUnsatisfiable: "DoNotSchedule" };
  test.each<[string, Record<string, unknown>, string]>([
    ["maxSkew 0", { ...ok, maxSkew: 0 }, `${f}[0].maxSkew`],
    ["maxSkew missing", { ...ok, maxSkew: undefined }, `${f}[0].maxSkew`],
    ["topologyKey empty", { ...ok, topologyKey: "" }, `${f}[0].topologyKey`],
    ["whenUnsatisfiable Bogus", { ...ok, whenUnsatisfiable: "Bogus" }, `${f}[0].whenUnsatisfiable`],
    ["whenUnsatisfiable missing", { ...ok, whenUnsatisfiable: undefined }, `${f}[0].whenUnsatisfiable`],
    ["minDomains 0", { ...ok, minDomains: 0 }, `${f}[0].minDomains`],
    [
      "minDomains with ScheduleAnyway",
      { ...ok, whenUnsatisfiable: "ScheduleAnyway", minDomains: 2 },
      `${f}[0].minDomains`,
    ],
    ["nodeAffinityPolicy honor", { ...ok, nodeAffinityPolicy: "honor" }, `${f}[0].nodeAffinityPolicy`],
    ["nodeTaintsPolicy Bogus", { ...ok, nodeTaintsPolicy: "Bogus" }, `${f}[0].nodeTaintsPolicy`],
    ["matchLabelKeys bad key", { ...ok, matchLabelKeys: ["bad key"] }, `${f}[0].matchLabelKeys[0]`],
    [
      "labelSelector operator",
      { ...ok, labelSelector: { matchExpressions: [{ key: "app", operator: "Equals", values: ["a"] }] } },
      `${f}[0].labelSelector.matchExpressions[0].operator`,
    ],
  ])("%s is refused", (_what, c, field) => {
    expect(fields(topologySpreadProblems([c], f))).toEqual([field]);
  });
  test("a repeated {topologyKey, whenUnsatisfiable} pair is refused", () => {
    expect(fields(topologySpreadProblems([ok, { ...ok, maxSkew: 2 }], f))).toEqual([`${f}[0]`]);
  });
  test("valid look-alikes pass", () => {
    expect(
      topologySpreadProblems(
        [
          ok,
          { ...ok, whenUnsatisfiable: "ScheduleAnyway", nodeAffinityPolicy: "Honor", nodeTaintsPolicy: "Ignore" },
          { ...ok, topologyKey: "kubernetes.io/hostname", minDomains: 3, matchLabelKeys: ["pod-template-hash"] },
          { ...ok, topologyKey: "x/y", labelSelector: { matchExpressions: [{ key: "app", operator: "Exists" }] } },
        ],
        f,
      ),
    ).toEqual([]);
  });
});

describe("matchLabelKeys against the selector the API server sees (core validation.go:8851-8898, :8973-9066 of v1.36.3; pod strategy.go:860-924)", () => {
  const f = "values.topologySpreadConstraints";
  const c = { maxSkew: 1, topologyKey: "topology.kubernetes.io/zone", whenUnsatisfiable: "ScheduleAnyway" };
  const instance = "app.kubernetes.io/instance";
  const podLabelKeys = ["app.kubernetes.io/name", instance, "pod-template-hash", "team"];
  const ctx = (kubernetesMinor?: number) => ({ podLabelKeys, kubernetesMinor, warnings: [] as string[] });
  const both = (key: string) => ({ ...c, labelSelector: { matchLabels: { [key]: "x" } }, matchLabelKeys: [key] });

  test("fresh14 S-5: a key in both that the pods carry is refused on every version (Deployment up to 1.33, every pod from 1.34)", () => {
    for (const minor of [undefined, 30, 33, 34, 36]) {
      const x = ctx(minor);
      expect(fields(topologySpreadProblems([both(instance)], f, x))).toEqual([`${f}[0].matchLabelKeys[0]`]);
      expect(x.warnings).toEqual([]);
    }
    // in matchExpressions too, and a podLabels key
    const expr = {
      ...c,
      labelSelector: { matchExpressions: [{ key: "team", operator: "Exists" }] },
      matchLabelKeys: ["team"],
    };
    expect(fields(topologySpreadProblems([expr], f, ctx(35)))).toEqual([`${f}[0].matchLabelKeys[0]`]);
  });
  test("without a labelSelector the chart adds its selector labels: a selector label key in matchLabelKeys is refused, pod-template-hash passes (fresh14 S-6)", () => {
    const none = (key: string) => ({ ...c, matchLabelKeys: [key] });
    const refused = topologySpreadProblems([none(instance)], f, ctx());
    expect(fields(refused)).toEqual([`${f}[0].matchLabelKeys[0]`]);
    expect(refused[0].allowed).toContain("the labelSelector the chart adds");
    const x = ctx();
    expect(topologySpreadProblems([none("pod-template-hash")], f, x)).toEqual([]);
    expect(x.warnings).toEqual([]);
  });
  test("labelSelector: null (kept by the chart's hasKey) with matchLabelKeys is refused on every version; with no matchLabelKeys it passes", () => {
    expect(
      fields(
        topologySpreadProblems([{ ...c, labelSelector: null, matchLabelKeys: ["pod-template-hash"] }], f, ctx(36)),
      ),
    ).toEqual([`${f}[0].matchLabelKeys`]);
    expect(topologySpreadProblems([{ ...c, labelSelector: null }], f, ctx(36))).toEqual([]);
  });
  test("a key in both that the pods do not carry: refused up to 1.33, a warning when the version is unknown, accepted from 1.34", () => {
    expect(fields(topologySpreadProblems([both("zone-group")], f, ctx(33)))).toEqual([`${f}[0].matchLabelKeys[0]`]);
    const unknown = ctx();
    expect(topologySpreadProblems([both("zone-group")], f, unknown)).toEqual([]);
    expect(unknown.warnings).toEqual([
      expect.stringContaining("up to Kubernetes 1.33 the API server refuses the Deployment"),
    ]);
    const v34 = ctx(34);
    expect(topologySpreadProblems([both("zone-group")], f, v34)).toEqual([]);
    expect(v34.warnings).toEqual([]);
  });
  test("the valid look-alike: pod-template-hash in matchLabelKeys beside a selector of other keys", () => {
    const ok = {
      ...c,
      labelSelector: { matchLabels: { [instance]: "karpenter" } },
      matchLabelKeys: ["pod-template-hash"],
    };
    for (const minor of [undefined, 33, 36]) expect(topologySpreadProblems([ok], f, ctx(minor))).toEqual([]);
  });

  const a = "values.affinity.podAntiAffinity";
  const term = (extra: Record<string, unknown>) => ({
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: "kubernetes.io/hostname", ...extra }],
    },
  });
  const t0 = `${a}.requiredDuringSchedulingIgnoredDuringExecution[0]`;
  test("fresh14 U-1: pod anti-affinity with a key in both that the pods carry is refused from 1.31 (every pod), a warning when unknown", () => {
    const bad = term({ labelSelector: { matchLabels: { [instance]: "karpenter" } }, matchLabelKeys: [instance] });
    expect(fields(affinityProblems(bad, "values.affinity", ctx(33)))).toEqual([`${t0}.matchLabelKeys[0]`]);
    const unknown = ctx();
    expect(affinityProblems(bad, "values.affinity", unknown)).toEqual([]);
    expect(unknown.warnings).toEqual([expect.stringContaining("refuses every pod")]);
    // before 1.31 MatchLabelKeysInPodAffinity is off by default: the field is dropped
    expect(affinityProblems(bad, "values.affinity", ctx(30))).toEqual([]);
    // not a pod label: never merged, the preferred check passes (validation.go:5167)
    const other = term({ labelSelector: { matchLabels: { a: "b" } }, matchLabelKeys: ["a"] });
    expect(affinityProblems(other, "values.affinity", ctx(36))).toEqual([]);
    // without a labelSelector the chart's selector labels are the selector
    expect(fields(affinityProblems(term({ matchLabelKeys: [instance] }), "values.affinity", ctx(34)))).toEqual([
      `${t0}.matchLabelKeys[0]`,
    ]);
    expect(affinityProblems(term({ matchLabelKeys: ["pod-template-hash"] }), "values.affinity", ctx(34))).toEqual([]);
    expect(
      fields(affinityProblems(term({ labelSelector: null, mismatchLabelKeys: ["team"] }), "values.affinity", ctx(34))),
    ).toEqual([`${t0}.mismatchLabelKeys`]);
    expect(affinityProblems(term({ mismatchLabelKeys: ["team"] }), "values.affinity", ctx(34))).toEqual([]);
    expect(
      fields(
        affinityProblems(
          term({ labelSelector: null, matchLabelKeys: ["pod-template-hash"] }),
          "values.affinity",
          ctx(34),
        ),
      ),
    ).toEqual([`${t0}.matchLabelKeys`]);
  });
});

describe("label selectors (apimachinery meta validation.go:62-122)", () => {
  const f = "s";
  test.each<[string, Record<string, unknown>, string]>([
    [
      "In without values",
      { matchExpressions: [{ key: "a", operator: "In", values: [] }] },
      "s.matchExpressions[0].values",
    ],
    [
      "Exists with values",
      { matchExpressions: [{ key: "a", operator: "Exists", values: ["b"] }] },
      "s.matchExpressions[0].values",
    ],
    [
      "Gt (node-only operator)",
      { matchExpressions: [{ key: "a", operator: "Gt", values: ["1"] }] },
      "s.matchExpressions[0].operator",
    ],
    ["bad key", { matchExpressions: [{ key: "-a", operator: "Exists" }] }, "s.matchExpressions[0].key"],
    [
      "bad value",
      { matchExpressions: [{ key: "a", operator: "In", values: ["a b"] }] },
      "s.matchExpressions[0].values[0]",
    ],
    ["matchLabels bad key", { matchLabels: { "a b": "c" } }, 's.matchLabels["a b"]'],
    ["matchLabels bad value", { matchLabels: { a: "-c" } }, 's.matchLabels["a"]'],
  ])("%s is refused", (_what, sel, field) => {
    expect(fields(labelSelectorProblems(sel, f))).toEqual([field]);
  });
  test("valid look-alikes pass", () => {
    expect(
      labelSelectorProblems(
        {
          matchLabels: { "app.kubernetes.io/name": "karpenter", empty: "" },
          matchExpressions: [
            { key: "a", operator: "Exists" },
            { key: "b", operator: "NotIn", values: ["x"] },
          ],
        },
        f,
      ),
    ).toEqual([]);
  });
});

describe("affinity (core validation.go:4834-5119)", () => {
  const f = "values.affinity";
  const nodeTerm = (e: Record<string, unknown>) => ({
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [e] }] },
    },
  });
  const req = `${f}.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
  test.each<[string, Record<string, unknown>, string]>([
    [
      "operator Equals",
      nodeTerm({ key: "a", operator: "Equals", values: ["b"] }),
      `${req}[0].matchExpressions[0].operator`,
    ],
    ["In without values", nodeTerm({ key: "a", operator: "In" }), `${req}[0].matchExpressions[0].values`],
    [
      "DoesNotExist with values",
      nodeTerm({ key: "a", operator: "DoesNotExist", values: ["b"] }),
      `${req}[0].matchExpressions[0].values`,
    ],
    [
      "Gt with two values",
      nodeTerm({ key: "a", operator: "Gt", values: ["1", "2"] }),
      `${req}[0].matchExpressions[0].values`,
    ],
    ["bad key", nodeTerm({ key: "a/b/c", operator: "Exists" }), `${req}[0].matchExpressions[0].key`],
    [
      "bad required value",
      nodeTerm({ key: "a", operator: "In", values: ["a b"] }),
      `${req}[0].matchExpressions[0].values[0]`,
    ],
    [
      "no node selector terms",
      { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } },
      req,
    ],
    [
      "matchFields on a label",
      {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: "spec.unschedulable", operator: "In", values: ["x"] }] }],
          },
        },
      },
      `${req}[0].matchFields[0].key`,
    ],
    [
      "preferred weight 0",
      { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: {} }] } },
      `${f}.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight`,
    ],
    [
      "pod anti-affinity weight 101",
      {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 101, podAffinityTerm: { topologyKey: "kubernetes.io/hostname" } },
          ],
        },
      },
      `${f}.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight`,
    ],
    [
      "pod affinity without topologyKey",
      {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { a: "b" } } }],
        },
      },
      `${f}.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey`,
    ],
    [
      "pod anti-affinity topologyKey not a label key",
      {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: "kubernetes.io/host name" }],
        },
      },
      `${f}.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey`,
    ],
    [
      "pod affinity selector operator",
      {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { topologyKey: "x", labelSelector: { matchExpressions: [{ key: "a", operator: "Lt", values: ["1"] }] } },
          ],
        },
      },
      `${f}.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].operator`,
    ],
    [
      "namespace not a label",
      {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: "x", namespaces: ["Kube_System"] }],
        },
      },
      `${f}.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespaces[0]`,
    ],
  ])("%s is refused", (_what, affinity, field) => {
    expect(fields(affinityProblems(affinity, f))).toEqual([field]);
  });
  test("valid look-alikes pass", () => {
    expect(
      affinityProblems(
        {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: "karpenter.sh/nodepool", operator: "DoesNotExist" },
                    { key: "a", operator: "Gt", values: ["3"] },
                  ],
                  matchFields: [{ key: "metadata.name", operator: "NotIn", values: ["ip-10-0-0-1.ec2.internal"] }],
                },
              ],
            },
            // preferred terms take any value (core validation.go:5022-5024)
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 100, preference: { matchExpressions: [{ key: "a", operator: "In", values: ["a b"] }] } },
            ],
          },
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: "kubernetes.io/hostname" }],
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 1, podAffinityTerm: { topologyKey: "topology.kubernetes.io/zone" } },
            ],
          },
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                topologyKey: "x",
                namespaces: ["kube-system"],
                labelSelector: { matchExpressions: [{ key: "a", operator: "Exists" }] },
              },
            ],
          },
        },
        f,
      ),
    ).toEqual([]);
    // a requiredDuring… map without nodeSelectorTerms keeps the chart's (Helm merges maps)
    expect(affinityProblems({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {} } }, f)).toEqual([]);
  });
});

describe("empty required node selector terms match no node (fresh tester 15 S-D; core/v1 types.go:3781)", () => {
  const f = "values.affinity";
  const req = `${f}.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
  const terms = (t: unknown[]) => ({
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: t } },
  });
  const real = { matchExpressions: [{ key: "kubernetes.io/os", operator: "In", values: ["linux"] }] };
  test.each<[string, unknown[]]>([
    ["[{}]", [{}]],
    ["empty lists", [{ matchExpressions: [], matchFields: [] }]],
    ["null lists, two terms", [{ matchExpressions: null }, {}]],
  ])("every term empty (%s): refused, the pods never schedule", (_what, t) => {
    const problems = affinityProblems(terms(t), f);
    expect(problems).toHaveLength(1);
    expect(problems[0].field).toBe(req);
    expect(problems[0].allowed).toContain("matches no node");
    expect(problems[0].allowed).toContain("never schedule");
  });
  test("an empty term beside a real one: no problem, a warning naming the term (the terms are ORed)", () => {
    const warnings: string[] = [];
    expect(affinityProblems(terms([real, {}]), f, { podLabelKeys: [], warnings })).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${req}[1] is an empty term`);
  });
  test("look-alikes: real terms (matchExpressions or matchFields), a null item (another rule's), a token", () => {
    const warnings: string[] = [];
    const ctx = { podLabelKeys: [], warnings };
    expect(affinityProblems(terms([real]), f, ctx)).toEqual([]);
    expect(
      affinityProblems(terms([{ matchFields: [{ key: "metadata.name", operator: "In", values: ["n1"] }] }]), f, ctx),
    ).toEqual([]);
    expect(affinityProblems(terms([null]), f, ctx).map((p) => p.allowed)).not.toContainEqual(
      expect.stringContaining("matches no node"),
    );
    expect(affinityProblems(terms([{ matchExpressions: Lazy.anyValue({ produce: () => [] }) }]), f, ctx)).toEqual([]);
    expect(warnings).toEqual([]);
  });
});

describe("security contexts (core validation.go:5121-5224, 5405-5451)", () => {
  const f = "values.podSecurityContext";
  test.each<[string, Record<string, unknown>, string]>([
    ["seccomp type Bogus", { seccompProfile: { type: "Bogus" } }, `${f}.seccompProfile.type`],
    [
      "seccomp Localhost without profile",
      { seccompProfile: { type: "Localhost" } },
      `${f}.seccompProfile.localhostProfile`,
    ],
    [
      "seccomp profile with RuntimeDefault",
      { seccompProfile: { type: "RuntimeDefault", localhostProfile: "p.json" } },
      `${f}.seccompProfile.localhostProfile`,
    ],
    [
      "seccomp profile absolute",
      { seccompProfile: { type: "Localhost", localhostProfile: "/etc/p.json" } },
      `${f}.seccompProfile.localhostProfile`,
    ],
    ["seccomp missing type", { seccompProfile: {} }, `${f}.seccompProfile.type`],
    ["appArmor type Bogus", { appArmorProfile: { type: "Bogus" } }, `${f}.appArmorProfile.type`],
    [
      "appArmor Localhost without profile",
      { appArmorProfile: { type: "Localhost" } },
      `${f}.appArmorProfile.localhostProfile`,
    ],
    [
      "appArmor profile with Unconfined",
      { appArmorProfile: { type: "Unconfined", localhostProfile: "k" } },
      `${f}.appArmorProfile.localhostProfile`,
    ],
    ["fsGroupChangePolicy", { fsGroupChangePolicy: "Sometimes" }, `${f}.fsGroupChangePolicy`],
    ["runAsUser -1", { runAsUser: -1 }, `${f}.runAsUser`],
    ["runAsGroup 2^31", { runAsGroup: 2147483648 }, `${f}.runAsGroup`],
    ["fsGroup -5", { fsGroup: -5 }, `${f}.fsGroup`],
    ["supplementalGroups -1", { supplementalGroups: [1000, -1] }, `${f}.supplementalGroups[1]`],
    ["sysctl name", { sysctls: [{ name: "Net.Core", value: "1" }] }, `${f}.sysctls[0].name`],
    ["supplementalGroupsPolicy", { supplementalGroupsPolicy: "Loose" }, `${f}.supplementalGroupsPolicy`],
  ])("%s is refused", (_what, sc, field) => {
    expect(fields(podSecurityContextProblems(sc, f))).toEqual([field]);
  });
  test("valid look-alikes pass", () => {
    expect(
      podSecurityContextProblems(
        {
          runAsNonRoot: true,
          runAsUser: 65532,
          runAsGroup: 0,
          fsGroup: 65532,
          supplementalGroups: [1000],
          fsGroupChangePolicy: "OnRootMismatch",
          seccompProfile: { type: "Localhost", localhostProfile: "profiles/karpenter.json" },
          appArmorProfile: { type: "RuntimeDefault" },
          sysctls: [{ name: "net.core.somaxconn", value: "1024" }],
          supplementalGroupsPolicy: "Strict",
        },
        f,
      ),
    ).toEqual([]);
    expect(podSecurityContextProblems({ runAsUser: "1000" }, f)).toEqual([]); // a type problem, not this rule's
  });
  test("controller.securityContext: profiles judged, empty maps not rendered", () => {
    const c = "values.controller.securityContext";
    expect(fields(containerSecurityContextProblems({ seccompProfile: { type: "bogus" } }, c))).toEqual([
      `${c}.seccompProfile.type`,
    ]);
    expect(fields(containerSecurityContextProblems({ appArmorProfile: { localhostProfile: "x" } }, c))).toEqual([
      `${c}.appArmorProfile.type`,
    ]);
    expect(
      containerSecurityContextProblems(
        { seccompProfile: {}, appArmorProfile: { type: "Localhost", localhostProfile: "k8s-karpenter" } },
        c,
      ),
    ).toEqual([]);
  });
});

describe("additionalClusterRoleRules (rbac validation.go:103-124)", () => {
  const f = "values.additionalClusterRoleRules";
  test.each<[string, Record<string, unknown>, string[]]>([
    ["no verbs", { apiGroups: [""], resources: ["pods"] }, [`${f}[0].verbs`]],
    ["empty verbs", { apiGroups: [""], resources: ["pods"], verbs: [] }, [`${f}[0].verbs`]],
    ["no apiGroups", { resources: ["pods"], verbs: ["get"] }, [`${f}[0].apiGroups`]],
    ["no resources", { apiGroups: [""], verbs: ["get"] }, [`${f}[0].resources`]],
    [
      "URLs and resources",
      { nonResourceURLs: ["/metrics"], resources: ["pods"], verbs: ["get"] },
      [`${f}[0].nonResourceURLs`],
    ],
    ["empty rule", {}, [`${f}[0].verbs`, `${f}[0].apiGroups`, `${f}[0].resources`]],
  ])("%s is refused", (_what, rule, expected) => {
    expect(fields(policyRuleProblems([rule], f))).toEqual(expected);
  });
  test("valid look-alikes pass", () => {
    expect(
      policyRuleProblems(
        [
          { apiGroups: [""], resources: ["pods"], verbs: ["get"] },
          { nonResourceURLs: ["/metrics"], verbs: ["get"] },
          { apiGroups: ["*"], resources: ["*"], verbs: ["*"], resourceNames: ["x"] },
        ],
        f,
      ),
    ).toEqual([]);
  });
});

describe("pod parts (core validation.go of v1.36.3)", () => {
  test("projected items' modes", () => {
    const v = [
      { name: "p", projected: { sources: [{ secret: { name: "s", items: [{ key: "k", path: "p", mode: 1000 }] } }] } },
    ];
    expect(fields(volumeProblems(v, "v"))).toEqual(["v[0].projected.sources[0].secret.items[0].mode"]);
    expect(
      volumeProblems([{ name: "p", projected: { sources: [{ secret: { name: "s" } }], defaultMode: 511 } }], "v"),
    ).toEqual([]);
  });
  test("a token volume name: mounts are not judged", () => {
    expect(volumeNames([{ name: Lazy.stringValue({ produce: () => "x" }), emptyDir: {} }])).toBeUndefined();
    expect(volumeMountProblems([{ mount: { name: "x", mountPath: "/x" }, field: "m[0]" }], undefined, "c")).toEqual([]);
  });
  test.each<[string, unknown, string[]]>([
    [
      "annotation subscript a bad key",
      { fieldRef: { fieldPath: "metadata.annotations['a b']" } },
      ["e[0].valueFrom.fieldRef.fieldPath"],
    ],
    [
      "subscript on another field",
      { fieldRef: { fieldPath: "spec.nodeName['x']" } },
      ["e[0].valueFrom.fieldRef.fieldPath"],
    ],
    [
      "fieldRef apiVersion v2",
      { fieldRef: { apiVersion: "v2", fieldPath: "metadata.name" } },
      ["e[0].valueFrom.fieldRef.apiVersion"],
    ],
    [
      "configMapKeyRef name Bad_Name",
      { configMapKeyRef: { name: "Bad_Name", key: "k" } },
      ["e[0].valueFrom.configMapKeyRef.name"],
    ],
    ["configMapKeyRef key ..a", { configMapKeyRef: { name: "c", key: "..a" } }, ["e[0].valueFrom.configMapKeyRef.key"]],
    [
      "two sources",
      { fieldRef: { fieldPath: "metadata.name" }, secretKeyRef: { name: "s", key: "k" } },
      ["e[0].valueFrom"],
    ],
    ["no source", {}, ["e[0].valueFrom"]],
  ])("env valueFrom: %s is refused", (_what, valueFrom, expected) => {
    expect(fields(envValueFromProblems([{ name: "X", valueFrom }], "e"))).toEqual(expected);
  });
  test.each<[string, unknown]>([
    ["spec.host (converted to spec.nodeName)", { fieldRef: { fieldPath: "spec.host" } }],
    ["annotation subscript", { fieldRef: { fieldPath: "metadata.annotations['example.com/a']" } }],
    ["hugepages", { resourceFieldRef: { resource: "limits.hugepages-2Mi" } }],
    ["secretKeyRef", { secretKeyRef: { name: "s", key: "a.b_c-d" } }],
  ])("env valueFrom: %s passes", (_what, valueFrom) => {
    expect(envValueFromProblems([{ name: "X", valueFrom }], "e")).toEqual([]);
  });
  test("envFrom: both refs, none, a prefix with '='", () => {
    expect(
      fields(
        envFromProblems(
          [
            { configMapRef: { name: "a" }, secretRef: { name: "b" } },
            { prefix: "P" },
            { prefix: "A=", secretRef: { name: "s" } },
          ],
          "f",
        ),
      ),
    ).toEqual(["f[0]", "f[1]", "f[2].prefix"]);
    expect(envFromProblems([{ secretRef: { name: "s" }, prefix: "P_" }], "f")).toEqual([]);
  });
  test("int32: a fraction or beyond int32 is refused, a whole number passes", () => {
    expect(fields(int32Problems(1.5, "r", "x"))).toEqual(["r"]);
    expect(fields(int32Problems("1.5", "r", "x"))).toEqual(["r"]);
    expect(fields(int32Problems(2 ** 31, "r", "x"))).toEqual(["r"]);
    expect(int32Problems(10, "r", "x")).toEqual([]);
    expect(int32Problems("10", "r", "x")).toEqual([]);
  });
  test("init containers share the regular containers' names; an empty name is required", () => {
    const cs = [
      { container: { name: "side", image: "i" }, field: "i[0]" },
      { container: { image: "i" }, field: "i[1]" },
    ];
    expect(fields(containerProblems(cs, new Set(["controller", "side"]), new Set()))).toEqual([
      "i[0].name",
      "i[1].name",
    ]);
  });
  test("container value rules (fresh16 S-V): all problems of a sidecar at once; a valid look-alike passes", () => {
    const bad = {
      name: "s",
      image: "i",
      ports: [{ containerPort: 0, name: "a".repeat(16) }],
      imagePullPolicy: "Sometimes",
      terminationMessagePolicy: "Bogus",
      env: [{ name: "A=B" }],
      volumeMounts: [{ name: "v", mountPath: "/v", subPath: "../x" }],
      securityContext: { privileged: true, allowPrivilegeEscalation: false },
      livenessProbe: { exec: { command: ["true"] }, tcpSocket: { port: 70000 }, successThreshold: 2 },
      lifecycle: { preStop: { sleep: { seconds: -1 } } },
      resizePolicy: [{ resourceName: "gpu", restartPolicy: "Bogus" }],
      resources: { requests: { "hugepages-1Gi": "1Gi" } },
    };
    expect(fields(containerProblems([{ container: bad, field: "s" }], new Set(), new Set(["v"])))).toEqual([
      "s.ports[0].name",
      "s.ports[0].containerPort",
      "s.env[0].name",
      "s.imagePullPolicy",
      "s.terminationMessagePolicy",
      "s.resizePolicy[0].resourceName",
      "s.resizePolicy[0].restartPolicy",
      // hugepages cannot be overcommitted: a request needs its limit (issue 31, validation.go:7972-7983)
      "s.resources.limits.hugepages-1Gi",
      "s.resources",
      "s.securityContext.allowPrivilegeEscalation",
      // the second handler is named; only the first one set is judged further (validateHandler, :3496-3541)
      "s.livenessProbe.tcpSocket",
      "s.livenessProbe.successThreshold",
      "s.lifecycle.preStop.sleep.seconds",
      // the mounts' rules run after the container's own fields (volumeMountProblems)
      "s.volumeMounts[0].subPath",
    ]);
    const good = {
      name: "s",
      image: "i",
      ports: [{ containerPort: 9000, name: "web" }],
      imagePullPolicy: "Never",
      env: [{ name: "a.b" }],
      volumeMounts: [{ name: "v", mountPath: "/v", subPath: "x..y/z" }],
      securityContext: { privileged: true, allowPrivilegeEscalation: true },
      livenessProbe: { tcpSocket: { port: "web" }, successThreshold: 1 },
      lifecycle: { preStop: { sleep: { seconds: 0 } } },
      // hugepages with their limit (they cannot be overcommitted: validation.go:7972-7983)
      resources: { requests: { "hugepages-1Gi": "1Gi", cpu: "1" }, limits: { "hugepages-1Gi": "1Gi" } },
    };
    expect(containerProblems([{ container: good, field: "s" }], new Set(), new Set(["v"]))).toEqual([]);
  });
  test("init containers: probes and lifecycle only with restartPolicy Always", () => {
    const c = { name: "i", image: "i", startupProbe: { exec: { command: ["true"] } }, lifecycle: {} };
    expect(fields(containerProblems([{ container: c, field: "i" }], new Set(), new Set(), true))).toEqual([
      "i.lifecycle",
      "i.startupProbe",
    ]);
    expect(
      containerProblems([{ container: { ...c, restartPolicy: "Always" }, field: "i" }], new Set(), new Set(), true),
    ).toEqual([]);
    // the same container as a sidecar (a regular container) may have them
    expect(containerProblems([{ container: c, field: "i" }], new Set(), new Set())).toEqual([]);
  });
  test("volumes: token lifetime from 600 s, emptyDir sizeLimit not negative", () => {
    const token = (s: number) => [
      { name: "t", projected: { sources: [{ serviceAccountToken: { path: "t", expirationSeconds: s } }] } },
    ];
    expect(fields(volumeProblems(token(599), "v"))).toEqual([
      "v[0].projected.sources[0].serviceAccountToken.expirationSeconds",
    ]);
    expect(fields(volumeProblems(token(2 ** 32 + 1), "v"))).toHaveLength(1);
    expect(volumeProblems(token(600), "v")).toEqual([]);
    expect(fields(volumeProblems([{ name: "e", emptyDir: { sizeLimit: "-1Gi" } }], "v"))).toEqual([
      "v[0].emptyDir.sizeLimit",
    ]);
    expect(volumeProblems([{ name: "e", emptyDir: { sizeLimit: "-0" } }], "v")).toEqual([]);
    expect(volumeProblems([{ name: "e", emptyDir: { sizeLimit: "1Gi" } }], "v")).toEqual([]);
  });
  test("hostProcess needs hostNetwork", () => {
    expect(fields(hostProcessProblems({ windowsOptions: { hostProcess: true } }, undefined, "p"))).toEqual([
      "p.windowsOptions.hostProcess",
    ]);
    expect(hostProcessProblems({ windowsOptions: { hostProcess: true } }, true, "p")).toEqual([]);
    expect(hostProcessProblems({ windowsOptions: { hostProcess: false } }, false, "p")).toEqual([]);
  });
  test("chart names: a DNS-1035 Service name, a label-value name", () => {
    expect(fields(chartNameProblems("karpenter-1x", "1x", "f", "1x"))).toEqual([]);
    expect(fields(chartNameProblems("1karpenter", "karpenter", "f", "1karpenter"))).toEqual(["f"]);
    expect(fields(chartNameProblems("karpenter-a", "a.", "f", "a."))).toEqual(["f"]);
  });
});
