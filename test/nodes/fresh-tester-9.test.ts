import type { Ec2NodeClassProps } from "../../lib/nodes/ec2-node-class";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodePool, NodePoolProps } from "../../lib/nodes/node-pool";
import { NodeOverlay } from "../../lib/nodes/node-overlay";
import { KarpenterValidationError } from "../../lib/core/errors";
import { convertLegacyManifests } from "../../lib/convert";
import { FakeInstallation, testStack } from "../helpers";
import { poolOnClass, req } from "./node-props";

/*
 * The ninth fresh tester's findings (fresh9-report.md D, E, L9/L10): bounds on the capacity-reservation labels
 * (and every other well-known label that is no number), the Windows build against the class's AMI family, and
 * values Karpenter does not know beside values it does (it drops them and goes on). Each invalid input has a
 * valid look-alike; each runtime refusal its agreement entry.
 */

const ag = require("../../scripts/e2e/agreement.cjs");

const CAPACITY_TYPE = "karpenter.sh/capacity-type";
const ID = "karpenter.k8s.aws/capacity-reservation-id";
const BUILD = "node.kubernetes.io/windows-build";
const TENANCY = "karpenter.k8s.aws/instance-tenancy";
const byTags = { capacityReservationSelectorTerms: [{ tags: { a: "b" } }] };
const reserved = req(CAPACITY_TYPE, "In", ["reserved"]);

/** A pool on a class of the app: its error, or its warnings when it builds. */
function poolResult(
  props: Partial<NodePoolProps>,
  cls: Partial<Ec2NodeClassProps> = {},
): { error?: KarpenterValidationError; warnings: string[] } {
  const { stack } = testStack();
  const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
  const nodeClass = new Ec2NodeClass(stack, "nc", { karpenter, name: "cls", ...cls });
  try {
    const pool = new NodePool(stack, "np", { karpenter, nodeClass, ...props } as NodePoolProps);
    return { warnings: pool.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)) };
  } catch (e) {
    if (e instanceof KarpenterValidationError) return { error: e, warnings: [] };
    throw e;
  }
}
const warningsOf = (props: Partial<NodePoolProps>, cls: Partial<Ec2NodeClassProps> = {}) => {
  const r = poolResult(props, cls);
  if (r.error) throw r.error;
  return r.warnings;
};

describe("D: a bound on a label whose values are no numbers", () => {
  test("capacity-reservation-id Gt on a reserved-only pool is refused twice over: not numeric, and no reserved offering left", () => {
    const e = poolOnClass({ requirements: [reserved, { key: ID, operator: "Gt", values: ["5"] }] }, byTags);
    expect(e?.problems.map((p) => [p.code, p.field])).toEqual([
      ["NODE_REQUIREMENT_NOT_NUMERIC", "requirements[1].operator"],
      ["NODEPOOL_RESERVATION_EXCLUDED", "requirements[1]"],
    ]);
    expect(e?.problems[0].message).toContain('its values are not numbers (a capacity reservation id such as "cr-');
    expect(e?.problems[0].message).toContain("withinBounds");
    expect(e?.problems[1].message).toContain("none of them a number, so no bound matches");
    expect(e?.problems.map((p) => ag.semanticRuleOf(p, "1.15.0")?.id)).toEqual([
      "numeric-operator-on-text-label",
      "reservation-excluded",
    ]);
  });
  test.each([
    ["karpenter.k8s.aws/capacity-reservation-type", "Lt"],
    ["karpenter.k8s.aws/capacity-reservation-interruptible", "Gte"],
  ])("%s %s on a reserved-only pool is refused the same way", (key, operator) => {
    const e = poolOnClass({ requirements: [reserved, { key, operator: operator as any, values: ["1"] }] }, byTags);
    expect(e?.problems.map((p) => p.code)).toEqual(["NODE_REQUIREMENT_NOT_NUMERIC", "NODEPOOL_RESERVATION_EXCLUDED"]);
  });
  test.each([
    ["topology.kubernetes.io/region", "a region"],
    ["topology.k8s.aws/zone-id", "a zone ID"],
    ["karpenter.k8s.aws/placement-group-id", "a placement group id"],
    [BUILD, '"10.0.17763" (Windows Server 2019)'],
  ])("%s Gt is refused: its values are not numbers", (key, text) => {
    const e = poolOnClass({ requirements: [{ key, operator: "Gt", values: ["1"] }] });
    expect(e?.code).toBe("NODE_REQUIREMENT_NOT_NUMERIC");
    expect(e?.field).toBe("requirements[0].operator");
    expect(e?.message).toContain(`its values are not numbers (${text}`);
  });
  test("look-alikes pass: a reservation id In on the reserved-only pool, a numeric label's bound", () => {
    expect(poolOnClass({ requirements: [reserved, req(ID, "In", ["cr-0123456789abcdef0"])] }, byTags)).toBeUndefined();
    expect(
      poolOnClass({ requirements: [{ key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["5"] }] }),
    ).toBeUndefined();
  });
  test("a NodeOverlay's bound on a reservation label is refused too", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
    expect(
      () =>
        new NodeOverlay(stack, "o", {
          karpenter,
          price: "1",
          requirements: [{ key: ID, operator: "Gt", values: ["5"] }],
        }),
    ).toThrow(/NODE_REQUIREMENT_NOT_NUMERIC/);
  });
});

describe("E: node.kubernetes.io/windows-build against the class's AMI family", () => {
  const al2023 = { amiSelectorTerms: [{ alias: "al2023@latest" }] };
  const win2022 = { amiSelectorTerms: [{ alias: "windows2022@latest" }] };
  test("In a build on an AL2023 class warns, as os In [windows] does", () => {
    expect(warningsOf({ requirements: [req(BUILD, "In", ["10.0.20348"])] }, al2023)).toContainEqual(
      expect.stringMatching(
        /^NodePool np requires node\.kubernetes\.io\/windows-build In \["10\.0\.20348"\], but its EC2NodeClass cls \(test\/nc\) uses al2023 AMIs, which are linux, whose nodes carry no node\.kubernetes\.io\/windows-build label .*launches nothing/,
      ),
    );
    expect(warningsOf({ labels: { [BUILD]: "10.0.20348" } }, al2023)).toContainEqual(
      expect.stringContaining("has the template label node.kubernetes.io/windows-build"),
    );
    expect(warningsOf({ requirements: [{ key: BUILD, operator: "Exists" }] }, al2023)).toContainEqual(
      expect.stringContaining("requires node.kubernetes.io/windows-build Exists"),
    );
  });
  test("another build than the Windows family's own warns", () => {
    expect(
      warningsOf(
        { requirements: [req(BUILD, "In", ["10.0.20348"])] },
        { amiSelectorTerms: [{ alias: "windows2019@latest" }] },
      ),
    ).toContainEqual(expect.stringContaining('uses windows2019 AMIs, which are of Windows build "10.0.17763" only'));
    expect(warningsOf({ requirements: [{ key: BUILD, operator: "DoesNotExist" }] }, win2022)).toContainEqual(
      expect.stringContaining("uses windows2022 AMIs"),
    );
  });
  test("look-alikes do not warn: the family's build, DoesNotExist or NotIn on AL2023, NotIn another build", () => {
    const about = (w: string[]) => w.filter((x) => x.includes("windows-build"));
    expect(about(warningsOf({ requirements: [req(BUILD, "In", ["10.0.20348"])] }, win2022))).toEqual([]);
    expect(about(warningsOf({ requirements: [{ key: BUILD, operator: "DoesNotExist" }] }, al2023))).toEqual([]);
    expect(about(warningsOf({ requirements: [req(BUILD, "NotIn", ["10.0.20348"])] }, al2023))).toEqual([]);
    expect(about(warningsOf({ requirements: [req(BUILD, "NotIn", ["10.0.17763"])] }, win2022))).toEqual([]);
  });
  test('a value that is no build ("2022") is refused with the build to write', () => {
    const e = poolOnClass({ requirements: [req(BUILD, "In", ["2022"])] });
    expect(e?.code).toBe("NODE_REQUIREMENT_VALUE_UNKNOWN");
    expect(e?.message).toContain('write "10.0.20348"');
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("well-known-label-value");
  });
});

describe("L9 / L10: values Karpenter does not know beside values it knows", () => {
  test('capacity-type In ["on-demand", "ondemand"] builds with a warning naming "ondemand" (Karpenter drops it)', () => {
    const w = warningsOf({ requirements: [req(CAPACITY_TYPE, "In", ["on-demand", "ondemand"])] });
    expect(w).toContainEqual(
      expect.stringMatching(
        /^NodePool np: requirements\[0\]\.values\[1\] = "ondemand" is a value no instance carries \(.*write "on-demand"\)\. The requirement's other values \("on-demand"\) still apply, so Karpenter drops it .*proceeding with valid values/,
      ),
    );
  });
  test('capacity-type In ["ondemand"] alone is still refused (no known value: Karpenter refuses the pool)', () => {
    const e = poolOnClass({ requirements: [req(CAPACITY_TYPE, "In", ["ondemand"])] });
    expect(e?.code).toBe("NODEPOOL_CAPACITY_TYPE");
    expect(e?.message).toContain('"no valid values found"');
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("capacity-type-value");
  });
  test("fewer known capacity types than minValues is refused on minValues, naming it (L10)", () => {
    const e = poolOnClass({ requirements: [req(CAPACITY_TYPE, "In", ["on-demand", "spot", "Spot"], 3)] });
    expect(e?.problems.map((p) => [p.code, p.field, p.value])).toEqual([
      ["NODEPOOL_MIN_VALUES_KNOWN", "requirements[0].minValues", 3],
    ]);
    expect(e?.message).toContain('(2: "on-demand", "spot"): minValues 3 asks for more');
    expect(e?.message).toContain('("Spot")');
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("known-values-min-values");
    // look-alike: minValues 2 is met by the known ones; "Spot" only warns
    expect(
      warningsOf({ requirements: [req(CAPACITY_TYPE, "In", ["on-demand", "spot", "Spot"], 2)] }).filter((w) =>
        w.includes('"Spot"'),
      ),
    ).toHaveLength(1);
  });
  test("instance-tenancy, the other label Karpenter knows the values of, the same", () => {
    expect(warningsOf({ requirements: [req(TENANCY, "In", ["default", "shared"])] })).toContainEqual(
      expect.stringContaining('"shared" is a value no instance carries'),
    );
    const e = poolOnClass({ requirements: [req(TENANCY, "In", ["default", "shared"], 2)] });
    expect(e?.code).toBe("NODEPOOL_MIN_VALUES_KNOWN");
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("known-values-min-values");
  });
  test("other well-known labels: a value no instance carries beside one that is carried warns; alone it is refused", () => {
    expect(warningsOf({ requirements: [req("kubernetes.io/arch", "In", ["amd64", "x86_64"])] })).toContainEqual(
      expect.stringContaining('"x86_64" is a value no instance carries'),
    );
    expect(warningsOf({ requirements: [req("kubernetes.io/arch", "NotIn", ["arm64", "aarch64"])] })).toContainEqual(
      expect.stringContaining("so it excludes nothing"),
    );
    expect(poolOnClass({ requirements: [req("kubernetes.io/arch", "In", ["x86_64"])] })?.code).toBe(
      "NODE_REQUIREMENT_VALUE_UNKNOWN",
    );
    // minValues beyond the carried values: still refused per value (scheduling cannot meet it, unless the
    // controller's minValuesPolicy relaxes it)
    expect(poolOnClass({ requirements: [req("kubernetes.io/arch", "In", ["amd64", "x86_64"], 2)] })?.field).toBe(
      "requirements[0].values[1]",
    );
  });
  test("a NodeOverlay the same: a capacity type beside a known one warns", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
    const o = new NodeOverlay(stack, "o", {
      karpenter,
      price: "1",
      requirements: [{ key: CAPACITY_TYPE, operator: "In", values: ["spot", "Spot"] }],
    });
    expect(o.node.metadata.map((m) => String(m.data))).toContainEqual(
      expect.stringContaining('NodeOverlay o: requirements[0].values[1] = "Spot" is a value no instance carries'),
    );
  });
  test("convert: the warning is an action note, not a refusal", () => {
    const r = convertLegacyManifests(`apiVersion: karpenter.sh/v1
kind: NodePool
metadata: { name: p }
spec:
  template:
    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: nc }
      requirements: [{ key: karpenter.sh/capacity-type, operator: In, values: [on-demand, ondemand] }]
`);
    const notes = r.nodePools[0].notes;
    expect(notes.filter((n) => n.invalid)).toEqual([]);
    expect(notes).toContainEqual(
      expect.objectContaining({
        level: "action",
        field: "spec.template.spec.requirements",
        message: expect.stringContaining('"ondemand" is a value no instance carries'),
      }),
    );
  });
});
