import * as fs from "fs";
import * as path from "path";
import YAML from "yaml";
import { upgradePlan, UpgradePlan, upgradePlanMarkdown, UPGRADE_HAZARDS } from "../../lib/upgrade";
import { knownMinors, versionFacts } from "../../lib/versions";
import { loadReference as parseReference, Reference } from "../cfn-reference";
import {
  describeWithReference,
  referenceChartValues,
  referenceFileRequirement,
  referenceRoot,
  referenceVersionsWith,
  testIf,
} from "../reference";

/*
 * Upgrade plans held against the upstream artefacts of shared/reference/karpenter/v<version>/: the
 * getting-started CloudFormation template (controller policy, node role policies, interruption
 * rules), the karpenter chart's values.yaml (settings, feature gates) and its CRDs (fields, enum
 * values), read here independently of lib/versions, and ERRATA.json for the corrections.
 */

const VERSIONS = referenceVersionsWith("cloudformation.yaml");

/** Each template is parsed once: most versions are both ends of a pair. */
const templates = new Map<string, Reference>();
function loadReference(version: string): Reference {
  if (!templates.has(version)) templates.set(version, parseReference(version));
  return templates.get(version)!;
}
const describeRef = describeWithReference(VERSIONS);

interface Erratum {
  id: string;
  kind: string;
  versions: { from: string; to: string };
  sid?: string;
  corrected?: any;
}

function errata(): Erratum[] {
  return JSON.parse(fs.readFileSync(path.join(referenceRoot(), "ERRATA.json"), "utf8")).errata;
}

const cmp = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true });
const list = (x: string | string[]) => (Array.isArray(x) ? x : [x]);
const cfnSymbols = (s: string) =>
  s.replace(
    /\$\{([^}]+)\}/g,
    (_, k: string) =>
      ({
        "AWS::Partition": "{partition}",
        "AWS::Region": "{region}",
        "AWS::AccountId": "{account}",
        ClusterName: "{cluster}",
        "KarpenterNodeRole.Arn": "{node_role_arn}",
      })[k] ?? `{${k}}`,
  );

/** The controller statements of a reference template by Sid, with the errata corrections of that version applied. */
function referenceStatements(
  version: string,
): Map<string, { actions: string[]; resources: string[]; conditions: string[] }> {
  const out = new Map<string, { actions: string[]; resources: string[]; conditions: string[] }>();
  const corrections = errata().filter(
    (e) => e.kind === "controller-statement" && cmp(version, e.versions.from) >= 0 && cmp(version, e.versions.to) <= 0,
  );
  for (const p of loadReference(version).policies) {
    for (const shipped of p.statements) {
      const fix = corrections.find((e) => e.sid === shipped.Sid);
      const s = fix ? JSON.parse(cfnSymbols(JSON.stringify(fix.corrected))) : shipped;
      const conditions = Object.entries(
        (s.Condition ?? {}) as Record<string, Record<string, string | string[]>>,
      ).flatMap(([op, keys]) => Object.entries(keys).flatMap(([k, v]) => list(v).map((x) => `${op} ${k} ${x}`)));
      out.set(s.Sid, { actions: list(s.Action), resources: list(s.Resource), conditions });
    }
  }
  return out;
}

/** The spec fields and enum values of a reference CRD (dotted paths, arrays as `[]`). */
const crds = new Map<string, { fields: string[]; enums: Record<string, string[]> }>();
function referenceCrd(version: string, file: string): { fields: string[]; enums: Record<string, string[]> } {
  if (!crds.has(`${version}/${file}`)) crds.set(`${version}/${file}`, readCrd(version, file));
  return crds.get(`${version}/${file}`)!;
}

function readCrd(version: string, file: string): { fields: string[]; enums: Record<string, string[]> } {
  const doc = YAML.parse(
    fs.readFileSync(path.join(referenceRoot(), `v${version}`, "charts/karpenter/crds", file), "utf8"),
  );
  const schema = doc.spec.versions.find((v: any) => v.name === "v1").schema.openAPIV3Schema.properties.spec;
  const fields: string[] = [];
  const enums: Record<string, string[]> = {};
  const visit = (s: any, at: string, isField: boolean) => {
    if (isField) fields.push(at);
    if (s.enum) enums[at] = s.enum.map(String);
    for (const [k, child] of Object.entries(s.properties ?? {})) visit(child, `${at}.${k}`, true);
    if (s.items) visit(s.items, `${at}[]`, false);
  };
  visit(schema, "spec", false);
  return { fields, enums };
}

/** A NodeOverlay / CapacityBuffer CRD of the reference: its served API version, spec fields and enum values. */
function readObjectCrd(file: string): { apiVersion: string; fields: string[]; enums: Record<string, string[]> } {
  const doc = YAML.parse(fs.readFileSync(file, "utf8"));
  const served = doc.spec.versions.filter((v: any) => v.served);
  expect(served).toHaveLength(1);
  const fields: string[] = [];
  const enums: Record<string, string[]> = {};
  const visit = (s: any, at: string, isField: boolean) => {
    if (isField) fields.push(at);
    if (s.enum) enums[at] = s.enum.map(String);
    for (const [k, child] of Object.entries(s.properties ?? {})) visit(child, `${at}.${k}`, true);
    if (s.items) visit(s.items, `${at}[]`, false);
  };
  visit(served[0].schema.openAPIV3Schema.properties.spec, "spec", false);
  return { apiVersion: `${doc.spec.group}/${served[0].name}`, fields, enums };
}

const added = <T>(a: T[], b: T[]) => b.filter((x) => !a.includes(x));

describeRef("upgrade plans against the reference folders", () => {
  const pairs = VERSIONS.slice(1).map((to, i) => [VERSIONS[i], to]);
  const plans = new Map<string, UpgradePlan>();
  const stepOf = (from: string, to: string) => {
    if (!plans.has(`${from} ${to}`)) plans.set(`${from} ${to}`, upgradePlan(from, to));
    return plans.get(`${from} ${to}`)!.steps;
  };

  test.each(pairs)(
    "%s → %s: controller policy by Sid, node role policies, interruption rules as the two templates differ",
    (from, to) => {
      const [step] = stepOf(from, to);
      const a = referenceStatements(from);
      const b = referenceStatements(to);
      const expected = [...new Set([...b.keys(), ...a.keys()])]
        .map((sid) => {
          const [x, y] = [a.get(sid), b.get(sid)];
          const diff = (k: "actions" | "resources" | "conditions") => ({
            added: added(x?.[k] ?? [], y?.[k] ?? []).sort(),
            removed: added(y?.[k] ?? [], x?.[k] ?? []).sort(),
          });
          return {
            sid,
            change: !x ? "added" : !y ? "removed" : "changed",
            actions: diff("actions"),
            resources: diff("resources"),
            conditions: diff("conditions"),
          };
        })
        .filter(
          (c) =>
            c.change !== "changed" ||
            [c.actions, c.resources, c.conditions].some((d) => d.added.length + d.removed.length > 0),
        )
        .sort((p, q) => cmp(p.sid, q.sid));
      const got = step.controllerPolicy
        .map((c) => ({
          sid: c.sid,
          change: c.change,
          actions: { added: [...c.actions.added].sort(), removed: [...c.actions.removed].sort() },
          resources: { added: [...c.resources.added].sort(), removed: [...c.resources.removed].sort() },
          conditions: {
            added: c.conditions.added.map((e) => `${e.operator} ${e.key} ${e.value}`).sort(),
            removed: c.conditions.removed.map((e) => `${e.operator} ${e.key} ${e.value}`).sort(),
          },
        }))
        .sort((p, q) => cmp(p.sid, q.sid));
      expect(got).toEqual(expected);

      const policyNames = (v: string) =>
        loadReference(v).nodeRolePolicyArns.map((arn: string) => arn.split("/").pop()!);
      expect(step.nodeRolePolicies).toEqual({
        added: added(policyNames(from), policyNames(to)),
        removed: added(policyNames(to), policyNames(from)),
      });

      const rules = (v: string) => loadReference(v).rules.map((r) => String(r.pattern["detail-type"]));
      expect(step.interruptionRules.added.map((r) => r.detailType.join())).toEqual(added(rules(from), rules(to)));
      expect(step.interruptionRules.removed.map((r) => r.detailType.join())).toEqual(added(rules(to), rules(from)));
    },
  );

  test.each(pairs)("%s → %s: chart settings and feature gates as the two values.yaml differ", (from, to) => {
    const [step] = stepOf(from, to);
    const settings = (v: string) => {
      const { featureGates, awsFeatureGates, ...rest } = referenceChartValues(v).settings;
      return {
        rest: rest as Record<string, unknown>,
        gates: featureGates as Record<string, unknown>,
        awsGates: (awsFeatureGates ?? {}) as Record<string, unknown>,
      };
    };
    const [a, b] = [settings(from), settings(to)];
    const expected = (x: Record<string, unknown>, y: Record<string, unknown>) =>
      [
        ...Object.keys(y).map((k) =>
          !(k in x) ? `${k} added` : JSON.stringify(x[k]) !== JSON.stringify(y[k]) ? `${k} default changed` : "",
        ),
        ...Object.keys(x).map((k) => (!(k in y) ? `${k} removed` : "")),
      ]
        .filter(Boolean)
        .sort();
    expect(step.chart.settings.map((s) => `${s.key} ${s.change}`).sort()).toEqual(expected(a.rest, b.rest));
    expect(step.chart.featureGates.map((s) => `${s.key} ${s.change}`).sort()).toEqual(expected(a.gates, b.gates));
    expect(step.chart.awsFeatureGates.map((s) => `${s.key} ${s.change}`).sort()).toEqual(
      expected(a.awsGates, b.awsGates),
    );
  });

  test.each(pairs)("%s → %s: NodePool and EC2NodeClass fields and enum values as the two CRDs differ", (from, to) => {
    const [step] = stepOf(from, to);
    for (const [kind, file] of [
      ["nodePool", "karpenter.sh_nodepools.yaml"],
      ["ec2NodeClass", "karpenter.k8s.aws_ec2nodeclasses.yaml"],
    ] as const) {
      const [a, b] = [referenceCrd(from, file), referenceCrd(to, file)];
      // a typed field below an object that became free-form (1.15's spec.kubelet) is still accepted: not removed
      const freed = step.crds[kind].freeForm.added;
      const stillAccepted = (f: string) => freed.some((o) => f.startsWith(`${o}.`));
      expect(step.crds[kind].fields).toEqual({
        added: added(a.fields, b.fields).sort(),
        removed: added(b.fields, a.fields)
          .filter((f) => !stillAccepted(f))
          .sort(),
      });
      if (from === "1.14.1" && to === "1.15.0" && kind === "ec2NodeClass")
        expect(step.crds[kind].freeForm).toEqual({ added: ["spec.kubelet"], removed: [] });
      const paths = [...new Set([...Object.keys(a.enums), ...Object.keys(b.enums)])].sort();
      const enums = paths
        .map((p) => ({
          path: p,
          added: added(a.enums[p] ?? [], b.enums[p] ?? []).sort(),
          removed: added(b.enums[p] ?? [], a.enums[p] ?? []).sort(),
        }))
        .filter((e) => e.added.length + e.removed.length > 0);
      expect(
        step.crds[kind].enumValues.map((e) => ({ ...e, added: [...e.added].sort(), removed: [...e.removed].sort() })),
      ).toEqual(enums);
    }
  });

  test.each(pairs)(
    "%s → %s: NodeOverlay and CapacityBuffer: the CRD appearing or going, its API version, fields and enum values as the two CRDs differ",
    (from, to) => {
      const [step] = stepOf(from, to);
      for (const [kind, file] of [
        ["nodeOverlay", "karpenter.sh_nodeoverlays.yaml"],
        ["capacityBuffer", "autoscaling.x-k8s.io_capacitybuffers.yaml"],
      ] as const) {
        const read = (v: string) => {
          const f = path.join(referenceRoot(), `v${v}`, "charts/karpenter/crds", file);
          return fs.existsSync(f) ? readObjectCrd(f) : undefined;
        };
        const [a, b] = [read(from), read(to)];
        const c = step.crds[kind];
        expect(c.crd).toBe(a && b ? "kept" : b ? "added" : a ? "removed" : "absent");
        expect(c.apiVersion).toEqual({ ...(a ? { from: a.apiVersion } : {}), ...(b ? { to: b.apiVersion } : {}) });
        const none: { fields: string[]; enums: Record<string, string[]> } = { fields: [], enums: {} };
        const [x, y] = [a ?? none, b ?? none];
        expect({ added: [...c.fields.added].sort(), removed: [...c.fields.removed].sort() }).toEqual({
          added: added(x.fields, y.fields).sort(),
          removed: added(y.fields, x.fields).sort(),
        });
        const paths = [...new Set([...Object.keys(x.enums), ...Object.keys(y.enums)])].sort();
        expect(c.enumValues.map((e) => ({ ...e, added: [...e.added].sort(), removed: [...e.removed].sort() }))).toEqual(
          paths
            .map((p) => ({
              path: p,
              added: added(x.enums[p] ?? [], y.enums[p] ?? []).sort(),
              removed: added(y.enums[p] ?? [], x.enums[p] ?? []).sort(),
            }))
            .filter((e) => e.added.length + e.removed.length > 0),
        );
        // the gate the newer chart reads the kind behind
        const gates = b ? Object.keys(referenceChartValues(to).settings.featureGates ?? {}) : [];
        expect(c.featureGate).toBe(gates.includes(kind) ? kind : undefined);
      }
    },
  );

  describe("1.2 → 1.11, the issue's example", () => {
    let plan: UpgradePlan;
    beforeAll(() => {
      plan = upgradePlan("1.2", "1.11");
    });
    const step = (to: string) => plan.steps.find((s) => s.to.startsWith(`${to}.`))!;

    test("one step per minor, newest patches", () => {
      expect([plan.steps[0].from, ...plan.steps.map((s) => s.to)]).toEqual(
        VERSIONS.filter((v) => cmp(v, "1.2.0") >= 0 && cmp(v, "1.12.0") < 0),
      );
      expect(plan.kubernetes).toEqual({
        from: versionFacts("1.2.8").kubernetes,
        to: versionFacts("1.11.3").kubernetes,
        both: { min: "1.26", max: "1.32" },
      });
    });

    test("1.3: capacity reservations (IAM, feature gate, EC2NodeClass field)", () => {
      const s = step("1.3");
      expect(s.controllerPolicy).toContainEqual(
        expect.objectContaining({
          sid: "AllowScopedEC2InstanceAccessActions",
          resources: { added: ["arn:{partition}:ec2:{region}:*:capacity-reservation/*"], removed: [] },
        }),
      );
      expect(s.controllerPolicy).toContainEqual(
        expect.objectContaining({
          sid: "AllowRegionalReadActions",
          actions: { added: ["ec2:DescribeCapacityReservations"], removed: [] },
        }),
      );
      expect(s.chart.featureGates).toEqual([{ key: "reservedCapacity", change: "added", to: false }]);
      expect(s.crds.ec2NodeClass.fields.added).toContain("spec.capacityReservationSelectorTerms");
      expect(step("1.6").chart.featureGates).toContainEqual({
        key: "reservedCapacity",
        change: "default changed",
        from: false,
        to: true,
      });
    });

    test("1.7: iam:ListInstanceProfiles", () => {
      expect(step("1.7").controllerPolicy).toEqual([
        {
          sid: "AllowUnscopedInstanceProfileListAction",
          change: "added",
          actions: { added: ["iam:ListInstanceProfiles"], removed: [] },
          resources: { added: ["*"], removed: [] },
          conditions: { added: [], removed: [] },
        },
      ]);
    });

    test("1.8: the static-capacity gate; the 1.8.0 casing erratum only where 1.8.0 is installed", () => {
      expect(step("1.8").chart.featureGates).toContainEqual({ key: "staticCapacity", change: "added", to: false });
      expect(step("1.8").crds.nodePool.fields.added).toEqual(["spec.replicas"]);
      expect(plan.hazards.map((h) => h.id)).not.toContain("static-capacity-gate-casing");
      expect(upgradePlan("1.2", "1.8.0").hazards).toContainEqual(
        expect.objectContaining({ id: "static-capacity-gate-casing", kind: "erratum", versions: "1.8.0", where: "to" }),
      );
    });

    test("1.10: the capacity-reservation interruption rule", () => {
      expect(step("1.10").interruptionRules).toEqual({
        added: [
          {
            key: expect.any(String),
            source: ["aws.ec2"],
            detailType: ["EC2 Capacity Reservation Instance Interruption Warning"],
          },
        ],
        removed: [],
      });
      expect(plan.deployOrder[1].changes).toContain(
        "new EventBridge rule CapacityReservation (EC2 Capacity Reservation Instance Interruption Warning) to the interruption queue",
      );
    });

    test("1.11: placement groups", () => {
      const s = step("1.11");
      expect(s.controllerPolicy).toContainEqual(
        expect.objectContaining({
          sid: "AllowScopedEC2InstanceAccessActions",
          resources: { added: ["arn:{partition}:ec2:{region}:*:placement-group/*"], removed: [] },
        }),
      );
      expect(s.controllerPolicy).toContainEqual(
        expect.objectContaining({
          sid: "AllowRegionalReadActions",
          actions: { added: ["ec2:DescribePlacementGroups"], removed: [] },
        }),
      );
      expect(s.crds.ec2NodeClass.fields.added).toEqual(
        expect.arrayContaining([
          "spec.placementGroupSelector",
          "spec.placementGroupSelector.id",
          "spec.placementGroupSelector.name",
        ]),
      );
    });

    test("the net change and the deploy order", () => {
      expect(plan.net.controllerPolicy.map((c) => c.sid)).toEqual([
        "AllowScopedEC2InstanceAccessActions",
        "AllowRegionalReadActions",
        "AllowUnscopedInstanceProfileListAction",
      ]);
      // 1.3 added capacity-reservation to AllowScopedEC2InstanceActionsWithTags and the 1.9 split dropped it again
      expect(
        plan.steps.flatMap((s) =>
          s.controllerPolicy
            .filter((c) => c.sid === "AllowScopedEC2InstanceActionsWithTags")
            .map((c) => `${s.to} ${c.resources.added.join()}-${c.resources.removed.join()}`),
        ),
      ).toEqual([
        "1.3.8 arn:{partition}:ec2:{region}:*:capacity-reservation/*-",
        "1.9.2 -arn:{partition}:ec2:{region}:*:capacity-reservation/*",
      ]);
      expect(step("1.9").policyLayout).toMatch(/^upstream splits the single controller policy into 5 managed policies/);
      expect(plan.deployOrder.map((p) => p.phase)).toEqual([
        "CRD release",
        "IAM policies and interruption rules",
        "controller release",
        "node objects",
      ]);
      expect(plan.deployOrder[1].changes).toEqual(
        expect.arrayContaining([
          "node role: AmazonEC2ContainerRegistryPullOnly attached",
          "node role: AmazonEC2ContainerRegistryReadOnly detached only after AmazonEC2ContainerRegistryPullOnly is attached (one attachment, replaced create_before_destroy)",
        ]),
      );
      const md = upgradePlanMarkdown(plan);
      expect(md).toContain("## 1.10.2 → 1.11.3\n");
      expect(md).toContain(
        "- `AllowUnscopedInstanceProfileListAction` added: actions +`iam:ListInstanceProfiles`; resources +`*`",
      );
      expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
    });
  });

  test("1.0 → 1.14: the errata of the installed releases only, every erratum across the releases it names, the 1.0 and 1.12 corrections in the data", () => {
    const plan = upgradePlan("1.0.0", "1.14");
    // one deploy: 1.0.0's errata (from) are listed, those of 1.8.0 and 1.12.x in between are not
    expect(
      plan.hazards
        .filter((h) => h.kind === "erratum")
        .map((h) => h.id)
        .sort(),
    ).toEqual(["log-output-paths-ignored", "passrole-china-partition"]);
    // the errata of each release, when the plan installs it, with what the library does about it
    const installing = (v: string) =>
      upgradePlan("1.0.0", v).hazards.filter((h) => h.kind === "erratum" && h.where === "to");
    const named = [
      ...new Set(
        [...plan.hazards, ...installing("1.8.0"), ...installing("1.12.0")]
          .filter((h) => h.kind === "erratum")
          .map((h) => h.id),
      ),
    ];
    expect(named.sort()).toEqual(
      errata()
        .map((e) => e.id)
        .sort(),
    );
    expect(
      [...plan.hazards, ...installing("1.8.0"), ...installing("1.12.0")]
        .filter((h) => h.kind === "erratum" && h.library)
        .map((h) => h.id)
        .sort(),
    ).toEqual([
      "log-output-paths-ignored",
      "passrole-china-partition",
      "static-capacity-gate-casing",
      "zonal-shift-resource-scope",
    ]);
    expect(plan.hazards.find((h) => h.id === "log-output-paths-ignored")).toMatchObject({
      where: "from",
      versions: "1.0.0–1.0.3",
    });
    // the changes crossed on the way are listed: the capacitybuffers CRD of 1.14
    expect(plan.hazards.filter((h) => h.kind === "change").map((h) => `${h.id} ${h.where}`)).toEqual([
      "capacitybuffer-crd to",
      "empty-selector-terms-ignored to",
    ]);
    expect(plan.net.controllerPolicies.added).toEqual(["ZonalShift"]);
    // 1.12 → 1.13: with the erratum corrected, the zonal-shift statement does not change
    expect(upgradePlan("1.12", "1.13").steps[0].controllerPolicy.map((c) => c.sid)).not.toContain(
      "AllowZonalShiftStatusReadOnly",
    );
  });
});

testIf(referenceFileRequirement("ERRATA.json"))(
  "every erratum of ERRATA.json is known to the hazard data with its versions (the data is baked, not read at run time)",
  () => {
    const byId = (x: { id: string }, y: { id: string }) => cmp(x.id, y.id);
    expect(
      UPGRADE_HAZARDS.filter((h) => h.kind === "erratum")
        .map((h) => ({ id: h.id, versions: h.versions }))
        .sort(byId),
    ).toEqual(
      errata()
        .map((e) => ({ id: e.id, versions: e.versions }))
        .sort(byId),
    );
    // and every erratum id a minor's facts carry is one of them
    for (const minor of knownMinors())
      for (const id of versionFacts(minor).errata) expect(UPGRADE_HAZARDS.map((h) => h.id)).toContain(id);
  },
);

test("every known minor gives a plan to and from the oldest and the newest, and its Markdown", () => {
  const minors = knownMinors();
  const [oldest, newest] = [minors[0], minors[minors.length - 1]];
  for (const m of minors) {
    for (const [a, b] of [
      [oldest, m],
      [m, newest],
      [m, oldest],
    ]) {
      const plan = upgradePlan(a, b);
      // the same minor is the same release (its newest patch): no step
      expect(plan.steps).toHaveLength(Math.abs(minors.indexOf(a) - minors.indexOf(b)));
      expect(upgradePlanMarkdown(plan)).toMatch(/^# Karpenter /);
    }
  }
});
