import { KarpenterValidationError } from "../../lib/core/errors";
import { upgradePlanMarkdown } from "../../lib/upgrade";
import { compareVersionFacts, FactsSource, planUpgrade, upgradePlan } from "../../lib/upgrade/upgrade-plan";
import { VersionFacts } from "../../lib/upgrade/facts";

/*
 * The diff logic over small fixture facts: every category, direction, Kubernetes ranges and
 * hazards. The real data is tested in upgrade-plan-reference.test.ts.
 */

function facts(minor: string, patch: number, over: Partial<VersionFacts> = {}): VersionFacts {
  return {
    version: `${minor}.${patch}`,
    minor,
    kubernetes: { min: "1.26", max: "1.33" },
    controllerPolicy: [],
    errata: [],
    nodeRolePolicies: ["AmazonEKSWorkerNodePolicy"],
    interruptionRules: [
      { key: "SpotInterruption", source: ["aws.ec2"], detailType: ["EC2 Spot Instance Interruption Warning"] },
    ],
    chart: { settings: [], featureGates: [], awsFeatureGates: [], valuePaths: ["replicas"] },
    crds: {
      nodePool: { fields: ["spec.weight"], enums: {}, freeForm: [] },
      ec2NodeClass: { fields: ["spec.role"], enums: {}, freeForm: [] },
    },
    ...over,
  };
}

const PASS_ROLE_10 = {
  sid: "AllowPassingInstanceRole",
  effect: "Allow" as const,
  actions: ["iam:PassRole"],
  resources: ["{node_role_arn}"],
  condition: { StringEquals: { "iam:PassedToService": "ec2.amazonaws.com" } },
};
const PASS_ROLE_11 = {
  ...PASS_ROLE_10,
  condition: { StringEquals: { "iam:PassedToService": ["ec2.amazonaws.com", "ec2.amazonaws.com.cn"] } },
};
const READ = {
  sid: "AllowRegionalReadActions",
  effect: "Allow" as const,
  actions: ["ec2:DescribeImages"],
  resources: ["*"],
};

describe("compareVersionFacts", () => {
  test("controller policy by Sid: actions, resources and condition values added and removed; unchanged statements left out", () => {
    const a = facts("1.0", 14, {
      controllerPolicy: [PASS_ROLE_10, READ, { sid: "Gone", effect: "Allow", actions: ["x:Y"], resources: ["*"] }],
    });
    const b = facts("1.1", 10, {
      controllerPolicy: [
        PASS_ROLE_11,
        {
          ...READ,
          actions: ["ec2:DescribeImages", "ec2:DescribePlacementGroups"],
          resources: ["arn:{partition}:ec2:{region}:*:placement-group/*"],
        },
        { sid: "New", effect: "Allow", actions: ["iam:ListInstanceProfiles"], resources: ["*"] },
      ],
    });
    const step = compareVersionFacts(a, b);
    expect(step.from).toBe("1.0.14");
    expect(step.to).toBe("1.1.10");
    expect(step.controllerPolicy).toEqual([
      {
        sid: "AllowPassingInstanceRole",
        change: "changed",
        actions: { added: [], removed: [] },
        resources: { added: [], removed: [] },
        conditions: {
          added: [{ operator: "StringEquals", key: "iam:PassedToService", value: "ec2.amazonaws.com.cn" }],
          removed: [],
        },
      },
      {
        sid: "AllowRegionalReadActions",
        change: "changed",
        actions: { added: ["ec2:DescribePlacementGroups"], removed: [] },
        resources: { added: ["arn:{partition}:ec2:{region}:*:placement-group/*"], removed: ["*"] },
        conditions: { added: [], removed: [] },
      },
      {
        sid: "New",
        change: "added",
        actions: { added: ["iam:ListInstanceProfiles"], removed: [] },
        resources: { added: ["*"], removed: [] },
        conditions: { added: [], removed: [] },
      },
      {
        sid: "Gone",
        change: "removed",
        actions: { added: [], removed: ["x:Y"] },
        resources: { added: [], removed: ["*"] },
        conditions: { added: [], removed: [] },
      },
    ]);
    // the same facts: nothing
    expect(compareVersionFacts(b, b).controllerPolicy).toEqual([]);
  });

  test("effect and managed-policy moves are changes; the 1.9 layout split is a note, and policies of the other layout are grouped by Sid", () => {
    const a = facts("1.8", 8, { controllerPolicy: [PASS_ROLE_11, READ] });
    const b = facts("1.9", 2, {
      controllerPolicy: [
        { ...PASS_ROLE_11, policy: "IAMIntegration" },
        { ...READ, policy: "ResourceDiscovery" },
      ],
    });
    const split = compareVersionFacts(a, b);
    expect(split.controllerPolicy).toEqual([]);
    expect(split.policyLayout).toMatch(
      /^upstream splits the single controller policy into 2 managed policies \(IAMIntegration, ResourceDiscovery\)/,
    );
    expect(split.controllerPolicies).toEqual({ added: [], removed: [] });

    const c = facts("1.12", 2, {
      controllerPolicy: [
        { ...PASS_ROLE_11, policy: "NodeLifecycle", effect: "Deny" },
        { ...READ, policy: "ResourceDiscovery" },
        {
          sid: "AllowZonalShiftStatusReadOnly",
          effect: "Allow",
          actions: ["arc-zonal-shift:GetManagedResource"],
          resources: ["*"],
          policy: "ZonalShift",
        },
      ],
    });
    const step = compareVersionFacts(b, c);
    expect(step.policyLayout).toBeUndefined();
    expect(step.controllerPolicies).toEqual({ added: ["NodeLifecycle", "ZonalShift"], removed: ["IAMIntegration"] });
    expect(step.controllerPolicy[0]).toMatchObject({
      sid: "AllowPassingInstanceRole",
      change: "changed",
      policy: "NodeLifecycle",
      effect: { from: "Allow", to: "Deny" },
      movedPolicy: { from: "IAMIntegration", to: "NodeLifecycle" },
    });
    expect(step.controllerPolicy[1]).toMatchObject({
      sid: "AllowZonalShiftStatusReadOnly",
      change: "added",
      policy: "ZonalShift",
    });
  });

  test("node role policies, interruption rules, settings and gates (added, removed, default changed), value paths, CRD fields and enum values", () => {
    const a = facts("1.5", 8, {
      nodeRolePolicies: ["AmazonEKSWorkerNodePolicy", "AmazonEC2ContainerRegistryReadOnly"],
      chart: {
        settings: [
          { key: "batchMaxDuration", kind: "duration", default: "10s", since: "1.0.0" },
          { key: "old", kind: "boolean", default: false, since: "1.0.0" },
        ],
        featureGates: [{ key: "reservedCapacity", kind: "boolean", default: false, since: "1.3.0" }],
        awsFeatureGates: [],
        valuePaths: ["replicas", "webhook.enabled"],
      },
      crds: {
        nodePool: {
          fields: ["spec.weight"],
          enums: { "spec.disruption.consolidationPolicy": ["WhenEmpty", "WhenEmptyOrUnderutilized"] },
          freeForm: [],
        },
        ec2NodeClass: {
          fields: ["spec.role", "spec.old"],
          enums: { "spec.amiFamily": ["AL2", "Windows2019"] },
          freeForm: [],
        },
      },
    });
    const b = facts("1.6", 8, {
      nodeRolePolicies: ["AmazonEKSWorkerNodePolicy", "AmazonEC2ContainerRegistryPullOnly"],
      interruptionRules: [
        ...a.interruptionRules,
        {
          key: "CapacityReservation",
          source: ["aws.ec2"],
          detailType: ["EC2 Capacity Reservation Instance Interruption Warning"],
        },
      ],
      chart: {
        settings: [
          { key: "batchMaxDuration", kind: "duration", default: "20s", since: "1.0.0" },
          { key: "disableDryRun", kind: "boolean", default: false, since: "1.6.2" },
        ],
        featureGates: [
          { key: "reservedCapacity", kind: "boolean", default: true, since: "1.3.0" },
          { key: "staticCapacity", kind: "boolean", default: false, since: "1.8.1" },
        ],
        awsFeatureGates: [],
        valuePaths: ["replicas", "initContainers{}"],
      },
      crds: {
        nodePool: {
          fields: ["spec.weight", "spec.replicas"],
          enums: { "spec.disruption.consolidationPolicy": ["Balanced", "WhenEmpty", "WhenEmptyOrUnderutilized"] },
          freeForm: [],
        },
        ec2NodeClass: {
          fields: ["spec.role", "spec.placementGroupSelector"],
          enums: { "spec.amiFamily": ["AL2"], "spec.placementGroupSelector.strategy": ["cluster"] },
          freeForm: [],
        },
      },
    });
    const s = compareVersionFacts(a, b);
    expect(s.nodeRolePolicies).toEqual({
      added: ["AmazonEC2ContainerRegistryPullOnly"],
      removed: ["AmazonEC2ContainerRegistryReadOnly"],
    });
    expect(s.interruptionRules).toEqual({
      added: [
        {
          key: "CapacityReservation",
          source: ["aws.ec2"],
          detailType: ["EC2 Capacity Reservation Instance Interruption Warning"],
        },
      ],
      removed: [],
    });
    expect(s.chart.settings).toEqual([
      { key: "batchMaxDuration", change: "default changed", from: "10s", to: "20s" },
      { key: "disableDryRun", change: "added", to: false },
      { key: "old", change: "removed", from: false },
    ]);
    expect(s.chart.featureGates).toEqual([
      { key: "reservedCapacity", change: "default changed", from: false, to: true },
      { key: "staticCapacity", change: "added", to: false },
    ]);
    expect(s.chart.valuePaths).toEqual({ added: ["initContainers{}"], removed: ["webhook.enabled"] });
    expect(s.crds.nodePool).toEqual({
      fields: { added: ["spec.replicas"], removed: [] },
      freeForm: { added: [], removed: [] },
      enumValues: [{ path: "spec.disruption.consolidationPolicy", added: ["Balanced"], removed: [] }],
    });
    expect(s.crds.ec2NodeClass).toEqual({
      fields: { added: ["spec.placementGroupSelector"], removed: ["spec.old"] },
      freeForm: { added: [], removed: [] },
      enumValues: [
        { path: "spec.amiFamily", added: [], removed: ["Windows2019"] },
        { path: "spec.placementGroupSelector.strategy", added: ["cluster"], removed: [] },
      ],
    });
  });
});

/** A fixture source: minors 1.6–1.9, 1.7.0–1.7.3 on a narrower Kubernetes range, an erratum on 1.8. */
function source(): FactsSource {
  const newest: Record<string, VersionFacts> = {
    "1.6": facts("1.6", 8, { kubernetes: { min: "1.26", max: "1.34" } }),
    "1.7": facts("1.7", 6, {
      kubernetes: { min: "1.26", max: "1.34" },
      controllerPolicy: [
        {
          sid: "AllowUnscopedInstanceProfileListAction",
          effect: "Allow",
          actions: ["iam:ListInstanceProfiles"],
          resources: ["*"],
        },
      ],
    }),
    "1.8": facts("1.8", 8, { kubernetes: { min: "1.26", max: "1.34" }, errata: [] }),
    "1.9": facts("1.9", 2, { kubernetes: { min: "1.28", max: "1.35" } }),
  };
  return {
    knownMinors: () => Object.keys(newest),
    facts: (v: string) => {
      const [maj, min, patch] = v.split(".");
      const f = newest[`${maj}.${min}`];
      if (!f)
        throw new KarpenterValidationError("KARPENTER_VERSION_UNKNOWN", "versionFacts", "version", v, "a known minor");
      if (patch !== undefined && v.startsWith("1.7.") && Number(patch) < 4)
        return { ...f, kubernetes: { min: "1.26", max: "1.33" } };
      return f;
    },
  };
}

describe("planUpgrade over fixture facts", () => {
  test("one step per minor crossed, from the given patch to the given patch; net is the direct diff", () => {
    const plan = planUpgrade(source(), "1.6.1", "1.9");
    expect(plan).toMatchObject({ from: "1.6.1", to: "1.9.2", direction: "upgrade" });
    expect(plan.steps.map((s) => `${s.from}→${s.to}`)).toEqual(["1.6.1→1.7.6", "1.7.6→1.8.8", "1.8.8→1.9.2"]);
    expect(plan.steps[0].controllerPolicy.map((c) => `${c.sid} ${c.change}`)).toEqual([
      "AllowUnscopedInstanceProfileListAction added",
    ]);
    // the 1.7 fixture adds a statement that the 1.8 one drops again: the steps show both, the net change neither
    expect(plan.steps[1].controllerPolicy.map((c) => `${c.sid} ${c.change}`)).toEqual([
      "AllowUnscopedInstanceProfileListAction removed",
    ]);
    expect(plan.net.controllerPolicy).toEqual([]);
    expect(plan.kubernetes).toEqual({
      from: { min: "1.26", max: "1.34" },
      to: { min: "1.28", max: "1.35" },
      both: { min: "1.28", max: "1.34" },
    });
  });

  test("patches to avoid come from the facts (1.7.0–1.7.3 run on fewer Kubernetes versions); only the releases the deploy installs count", () => {
    // one deploy from 1.6 to 1.9 installs neither 1.7.x nor 1.8.0: their hazards do not apply
    expect(planUpgrade(source(), "1.6", "1.9").hazards).toEqual([]);
    const to = planUpgrade(source(), "1.6", "1.8.0");
    expect(to.hazards.map((h) => `${h.id} ${h.kind} ${h.versions} ${h.where}`)).toEqual([
      "static-capacity-gate-casing erratum 1.8.0 to",
    ]);
    expect(to.hazards[0].library).toBe(
      "always writes settings.featureGates.staticCapacity for 1.8.0, so the controller starts",
    );
    const plan = planUpgrade(source(), "1.6", "1.7.1");
    expect(plan.hazards.map((h) => `${h.id} ${h.kind} ${h.versions} ${h.where}`)).toEqual([
      "kubernetes-early-patches-1.7.0 patch 1.7.0–1.7.3 to",
    ]);
    expect(plan.hazards[0].advice).toBe(
      "on a cluster outside 1.26–1.33, do not install 1.7.0–1.7.3: use 1.7.4 or later",
    );
    expect(plan.hazards.find((h) => h.id === "kubernetes-early-patches-1.7.0")?.problem).toBe(
      "1.7.0–1.7.3 run on Kubernetes 1.26–1.33 only, later 1.7 patches on 1.26–1.34: outside its range Karpenter runs unsupported",
    );
    // a plan that ends before 1.7 does not name it; one that starts at 1.7.2 names it as "from"
    expect(planUpgrade(source(), "1.6.1", "1.6.8").hazards).toEqual([]);
    expect(planUpgrade(source(), "1.7.2", "1.7.6").hazards.map((h) => `${h.id} ${h.where}`)).toEqual([
      "kubernetes-early-patches-1.7.0 from",
    ]);
  });

  test("a given cluster version outside either range is a hazard; ranges without overlap are one too", () => {
    const plan = planUpgrade(source(), "1.6", "1.9", { kubernetesVersion: "1.27" });
    expect(plan.kubernetes).toMatchObject({ cluster: "1.27", clusterSupported: false });
    const h = plan.hazards.find((x) => x.id === "kubernetes-1.27-outside-1.9.2");
    expect(h).toMatchObject({
      kind: "kubernetes",
      where: "to",
      advice:
        "upgrade the cluster into 1.28–1.35 (to 1.28–1.34 while 1.6.8 still runs) before upgrading Karpenter, or pick another target",
    });
    // a cluster newer than the target: Kubernetes cannot go back
    expect(
      planUpgrade(source(), "1.9", "1.8", { kubernetesVersion: "1.35" }).hazards.find(
        (x) => x.id === "kubernetes-1.35-outside-1.8.8",
      ),
    ).toMatchObject({ where: "to", advice: "Kubernetes cannot be downgraded: pick a target that runs on 1.35" });
    // the running release itself outside: older cluster
    expect(
      planUpgrade(source(), "1.9", "1.9", { kubernetesVersion: "1.27" }).hazards.map((x) => `${x.id} ${x.where}`),
    ).toEqual(["kubernetes-1.27-outside-1.9.2 from and to"]);
    expect(planUpgrade(source(), "1.6", "1.9", { kubernetesVersion: "1.30" }).kubernetes.clusterSupported).toBe(true);

    const apart = source();
    const old = apart.facts;
    apart.facts = (v) => (v.startsWith("1.6") ? { ...old(v), kubernetes: { min: "1.20", max: "1.24" } } : old(v));
    const p = planUpgrade(apart, "1.6", "1.9");
    expect(p.kubernetes.both).toBeUndefined();
    expect(p.hazards.map((x) => x.id)).toContain("kubernetes-no-common-version");
  });

  test("a downgrade walks the minors backwards and warns", () => {
    const down = planUpgrade(source(), "1.9", "1.6.8");
    expect(down.direction).toBe("downgrade");
    expect(down.steps.map((s) => `${s.from}→${s.to}`)).toEqual(["1.9.2→1.8.8", "1.8.8→1.7.6", "1.7.6→1.6.8"]);
    expect(down.hazards.map((h) => h.id)).toContain("downgrade");
  });

  test("the same release: no step, no deploy order, only the short message (and the release's own hazards)", () => {
    const same = planUpgrade(source(), "1.8.8", "1.8");
    expect(same.direction).toBe("none");
    expect(same.steps).toEqual([]);
    expect(same.deployOrder).toEqual([]);
    expect(same.hazards).toEqual([]);
    expect(same.assumed).toEqual(['to "1.8" is taken as 1.8.8, the newest known 1.8 patch']);
    expect(upgradePlanMarkdown(same)).toBe(
      '# Karpenter 1.8.8 → 1.8.8\n\nTo "1.8" is taken as 1.8.8, the newest known 1.8 patch.\n\nSame release: nothing to upgrade.\n',
    );

    // a hazard of the running release is still worth knowing: listed under the message
    const outside = planUpgrade(source(), "1.8.8", "1.8.8", { kubernetesVersion: "1.40" });
    expect(outside.deployOrder).toEqual([]);
    expect(outside.hazards.map((h) => `${h.id} ${h.where}`)).toEqual(["kubernetes-1.40-outside-1.8.8 from and to"]);
    expect(upgradePlanMarkdown(outside)).toBe(
      [
        "# Karpenter 1.8.8 → 1.8.8",
        "",
        "Same release: nothing to upgrade.",
        "",
        "## Known hazards of 1.8.8",
        "",
        `- **kubernetes-1.40-outside-1.8.8** (kubernetes, 1.8.8, from and to): Karpenter 1.8.8 runs on Kubernetes ${outside.kubernetes.from.min}–${outside.kubernetes.from.max}, not on the cluster's 1.40, a combination upstream neither tests nor supports: nothing stops the controller (where its own version check, MinK8sVersion / MaxK8sVersion, refuses the version too, it only logs an error when it discovers the version, at most once a day), and it launches and disrupts nodes on behaviour nobody verified.`,
        // the running release, not a target: the advice is to upgrade Karpenter
        "  Advice: the cluster is already newer than 1.8.8 supports (Kubernetes cannot be downgraded), so the controller runs unsupported; upgrade Karpenter to a release that runs on 1.40.",
        "",
      ].join("\n"),
    );
  });

  test("a patch newer than the facts know is planned with its minor's facts and a hazard", () => {
    const plan = planUpgrade(source(), "1.8.8", "1.9.7");
    expect(plan.to).toBe("1.9.7");
    expect(plan.hazards).toContainEqual(
      expect.objectContaining({ id: "unverified-1.9.7", kind: "unverified", where: "to" }),
    );
  });

  test.each([
    ["from", "latest", "1.9"],
    ["to", "1.6", "1.9.x"],
    ["from", "1.8.08", "1.9"], // no chart has a leading zero: the Karpenter construct refuses it too
    ["to", "1.6", "01.9"],
    ["to", "1.6", "1.5"],
  ])("an unknown or malformed %s is a KarpenterValidationError naming the field", (field, from, to) => {
    const run = () => planUpgrade(source(), from, to);
    expect(run).toThrow(KarpenterValidationError);
    expect(run).toThrow(
      new RegExp(
        `^upgradePlan: ${field} = "${field === "from" ? from : to}" is invalid: a Karpenter release "1.x.y" or a minor "1.x" \\(its newest known patch\\) of a known minor: 1.6, 1.7, 1.8, 1.9 \\[UPGRADE_PLAN_VERSION\\]$`,
      ),
    );
  });

  test("a release newer than every known one says so and names the newest known release", () => {
    for (const to of ["1.10.0", "2.0"]) {
      expect(() => planUpgrade(source(), "1.6", to)).toThrow(
        new RegExp(
          `^upgradePlan: to = "${to}" is invalid: .* of a known minor: 1.6, 1.7, 1.8, 1.9\\. ${to.replace(/\./g, "\\.")} is newer than every release this library knows \\(the newest is 1\\.9\\.2\\): .*a newer release of cdktf-eks-karpenter that knows it may make one \\[UPGRADE_PLAN_VERSION\\]$`,
        ),
      );
    }
  });

  test("a pre-1.0 release points to the v1 migration and convert", () => {
    expect(() => planUpgrade(source(), "0.37.0", "1.9")).toThrow(
      /^upgradePlan: from = "0\.37\.0" is invalid: .*\. Karpenter before 1\.0 \(v1alpha5 \/ v1beta1 APIs\) is not covered: move to 1\.0 with upstream's v1 migration guide first \(`cdktf-eks-karpenter convert`/,
    );
  });

  test("an unknown option is refused rather than dropped", () => {
    expect(() => planUpgrade(source(), "1.6", "1.9", { kubernetes: "1.31" } as never)).toThrow(
      /^upgradePlan: options\.kubernetes = "1\.31" is invalid: not an option of upgradePlan \(options: kubernetesVersion\) \[OPTIONS_UNKNOWN_KEY\]$/,
    );
    expect(() => planUpgrade(source(), "1.6", "1.9", null as never)).toThrow(/^upgradePlan: options = null is invalid/);
  });

  test("a malformed Kubernetes version names the option", () => {
    expect(() => planUpgrade(source(), "1.6", "1.9", { kubernetesVersion: "latest" })).toThrow(
      /^upgradePlan: options.kubernetesVersion = "latest" is invalid: a Kubernetes minor such as "1.31" \[UPGRADE_PLAN_KUBERNETES_VERSION\]$/,
    );
  });

  test("the deploy order is CRD release, IAM, controller release, node objects, with this plan's changes", () => {
    const plan = planUpgrade(source(), "1.6", "1.7");
    expect(plan.deployOrder.map((p) => p.phase)).toEqual([
      "CRD release",
      "IAM policies and interruption rules",
      "controller release",
      "node objects",
    ]);
    expect(plan.deployOrder[1].changes).toEqual([
      "controller policies updated in place (same names): AllowUnscopedInstanceProfileListAction (added)",
    ]);
    expect(plan.deployOrder[2].changes).toEqual(["chart version 1.6.8 → 1.7.6"]);
  });
});

describe("upgradePlanMarkdown of chart value paths", () => {
  test("the chart-values notation is spelled out for people; the JSON keeps it", () => {
    const plan = upgradePlan("1.8", "1.9");
    expect(plan.net.chart.valuePaths.added).toEqual(["serviceMonitor.sampleLimit~"]);
    const md = upgradePlanMarkdown(plan);
    expect(md).toContain("- chart value added: `serviceMonitor.sampleLimit` (any value, no default)");
    expect(md).not.toMatch(/~`/);
    const older = upgradePlanMarkdown(upgradePlan("1.0", "1.1"));
    expect(older).toContain("- chart value added: `service.annotations` (a map)");
    expect(older).toContain("- chart value removed: `webhook.port`");
    const all = upgradePlanMarkdown(upgradePlan("1.0", "1.14"));
    expect(all).toContain("- chart value added: `serviceMonitor.relabelings` (a list)");
    expect(all).not.toMatch(/(\[\]|\{\}|~)`/);
  });
});

describe("a change of behaviour shipped in a patch (patch-history.ts, PATCH_BEHAVIOUR_CHANGES)", () => {
  const ids = (from: string, to: string) =>
    upgradePlan(from, to).hazards.filter((h) => h.id === "empty-selector-terms-ignored");

  test("within one minor: 1.15.2 → 1.15.3 names the Action-Required change, where it is met and what to do", () => {
    const [h] = ids("1.15.2", "1.15.3");
    expect(h).toMatchObject({ kind: "change", where: "to", versions: "1.9.4, 1.14.4, 1.15.3" });
    expect(h.problem).toMatch(
      /^from 1\.15\.3: Karpenter ignores EC2NodeClass selector terms with an empty tags map, an empty name or an empty ssmParameter\. An EC2NodeClass whose terms are all empty becomes NotReady/,
    );
    expect(h.problem).toContain(
      'An AMI term with an owner and nothing else selects nothing (name: "*" with the owner selects all of its images)',
    );
    expect(h.advice).toMatch(/^before deploying, find empty selector values in every EC2NodeClass/);
    expect(h.source).toContain("https://github.com/aws/karpenter-provider-aws/releases/tag/v1.14.4");
    const md = upgradePlanMarkdown(upgradePlan("1.15.2", "1.15.3"));
    expect(md).toContain(
      "**empty-selector-terms-ignored** (change, 1.9.4, 1.14.4, 1.15.3, to): from 1.15.3: Karpenter ignores EC2NodeClass selector terms",
    );
  });

  test("on the LTS lines and across minors; a downgrade back across it says the old behaviour returns; no crossing, no entry", () => {
    expect(ids("1.9.3", "1.9.4")[0]).toMatchObject({ where: "to", problem: expect.stringMatching(/^from 1\.9\.4: /) });
    expect(ids("1.14.3", "1.14.4")[0]).toMatchObject({
      where: "to",
      problem: expect.stringMatching(/^from 1\.14\.4: /),
    });
    expect(ids("1.13.1", "1.15.3")[0]).toMatchObject({ where: "to" });
    expect(ids("1.14.4", "1.15.2")[0]).toMatchObject({
      where: "from",
      problem: expect.stringMatching(/^1\.14\.4 has it, 1\.15\.2 not/),
    });
    expect(ids("1.15.3", "1.15.2")[0]).toMatchObject({ where: "from" });
    expect(ids("1.14.3", "1.15.2")).toEqual([]);
    expect(ids("1.14.4", "1.15.3")).toEqual([]);
    expect(ids("1.15.0", "1.15.2")).toEqual([]);
  });

  test("a minor given alone as --from stands for any of its patches: a change its earlier patches lack is shown", () => {
    expect(ids("1.15", "1.15.3")[0]).toMatchObject({
      where: "to",
      problem: expect.stringMatching(/^from 1\.15\.3 \(met when the 1\.15 patch you run is older than 1\.15\.3\): /),
    });
    expect(ids("1.14", "1.15.3")[0]).toMatchObject({ where: "to" });
    // the patch given in full has the change already: nothing to meet
    expect(ids("1.14.4", "1.15.3")).toEqual([]);
  });
});

test("docs/versions.md names every change of behaviour shipped in a patch, with its patches", () => {
  const { patchBehaviourChanges } = require("../../lib/versions");
  const doc = require("fs").readFileSync(require("path").join(__dirname, "..", "..", "docs", "versions.md"), "utf8");
  const changes = patchBehaviourChanges();
  expect(changes.length).toBeGreaterThan(0);
  for (const c of changes) {
    const row = doc.split("\n").find((l: string) => l.startsWith(`| \`${c.id}\``));
    expect(row).toBeDefined();
    for (const p of c.patches) expect(row).toContain(p);
  }
});
