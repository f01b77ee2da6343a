import type { Ec2NodeClassProps } from "../../lib/nodes/ec2-node-class";
import type { NodePoolProps } from "../../lib/nodes/node-pool";
import { build, poolOnClass, rejection, req } from "./node-props";

/*
 * The eighth fresh tester's findings (fresh8-report.md, A, B and D3): a 1.15 reserved value starting with "-" that is
 * a quantity ("-0"); requirements no reserved offering meets on a reserved-only pool; a budget macro with a trailing
 * space. Each invalid input has a valid look-alike; each rule its agreement entry.
 */

const ag = require("../../scripts/e2e/agreement.cjs");

const CAPACITY_TYPE = "karpenter.sh/capacity-type";
const ID = "karpenter.k8s.aws/capacity-reservation-id";
const TYPE = "karpenter.k8s.aws/capacity-reservation-type";
const INTERRUPTIBLE = "karpenter.k8s.aws/capacity-reservation-interruptible";
const CR = "cr-0123456789abcdef0";
const terms = { capacityReservationSelectorTerms: [{ id: CR }] };
const reserved = req(CAPACITY_TYPE, "In", ["reserved"]);

const pool = (props: Partial<NodePoolProps>, cls: Partial<Ec2NodeClassProps> = terms) => poolOnClass(props, cls);

describe("A: a 1.15 kubeReserved / systemReserved quantity starting with '-'", () => {
  test.each(["-0", "-0Mi", "-.5"])(
    "kubeReserved memory %s is refused, as Karpenter refuses every value starting with '-'",
    (v) => {
      const e = rejection("EC2NodeClass", { kubelet: { kubeReserved: { memory: v } } } as any, "1.15.0");
      expect(e.code).toBe("EC2NODECLASS_KUBELET_RESERVED");
      expect(e.message).toContain('refuses any kubeReserved value starting with "-"');
      expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("kubelet-negative");
    },
  );
  test("look-alike: 0 on 1.15; before 1.15 the CRD's textual rule refuses -0 too (!self[x].startsWith('-'))", () => {
    expect(() => build("EC2NodeClass", { kubelet: { kubeReserved: { memory: "0" } } } as any, "1.15.0")).not.toThrow();
    const e = rejection("EC2NodeClass", { kubelet: { kubeReserved: { memory: "-0" } } } as any, "1.14.1");
    expect(e.code).toBe("EC2NODECLASS_KUBELET_RESERVED");
    expect(e.message).toContain("startsWith('-')");
  });
});

describe("B: a reserved-only pool with a requirement no reserved offering meets", () => {
  test.each([
    ["an id DoesNotExist", req(ID, "DoesNotExist", [])],
    ["interruptible DoesNotExist", req(INTERRUPTIBLE, "DoesNotExist", [])],
    ["type NotIn both types", req(TYPE, "NotIn", ["default", "capacity-block"])],
    ["interruptible NotIn true and false", req(INTERRUPTIBLE, "NotIn", ["true", "false"])],
  ])("%s: refused", (_, r) => {
    const e = pool({ requirements: [reserved, r] });
    expect(e?.code).toBe("NODEPOOL_RESERVATION_EXCLUDED");
    expect(e?.field).toBe("requirements[1]");
    expect(e?.message).toContain("rules out every reserved offering");
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("reservation-excluded");
  });
  test("an id NotIn every id the class selects: refused", () => {
    const e = pool({ requirements: [reserved, req(ID, "NotIn", [CR])] });
    expect(e?.code).toBe("NODEPOOL_RESERVATION_NOT_SELECTED");
    expect(e?.message).toContain("excludes every one of them");
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("reservation-not-selected");
  });
  test("look-alikes: on-demand allowed too; one type excluded; an id NotIn another id; a class by tags", () => {
    expect(
      pool({ requirements: [req(CAPACITY_TYPE, "In", ["reserved", "on-demand"]), req(ID, "DoesNotExist", [])] }),
    ).toBeUndefined();
    expect(pool({ requirements: [reserved, req(TYPE, "NotIn", ["capacity-block"])] })).toBeUndefined();
    expect(pool({ requirements: [reserved, req(ID, "NotIn", ["cr-0aaaaaaaaaaaaaaaa"])] })).toBeUndefined();
    expect(
      pool(
        { requirements: [reserved, req(ID, "NotIn", [CR])] },
        { capacityReservationSelectorTerms: [{ tags: { a: "b" } }] },
      ),
    ).toBeUndefined();
  });
});

describe("D3: a budget schedule macro with spaces around it", () => {
  const budget = (schedule: string) => ({
    disruption: { budgets: [{ nodes: "0", schedule, duration: "8h" }] },
    requirements: [req(CAPACITY_TYPE, "In", ["on-demand"])],
  });
  test('"@daily " is accepted: Karpenter parses "TZ=UTC @daily " and robfig/cron trims the space', () => {
    expect(() => build("NodePool", budget("@daily ") as any, "1.15.0")).not.toThrow();
  });
  test('"@daily x" is refused: a macro is written alone', () => {
    expect(rejection("NodePool", budget("@daily x") as any, "1.15.0").message).toContain("written alone");
  });
});
