import { KarpenterValidationError } from "../../lib/core/errors";
import { Ec2NodeClass, Ec2NodeClassProps } from "../../lib/nodes/ec2-node-class";
import type { NodePoolProps } from "../../lib/nodes/node-pool";
import { FakeInstallation, testStack } from "../helpers";
import { poolOnClass, req } from "./node-props";

/*
 * The seventh fresh tester's findings (fresh7-report.md, A): only reserved offerings carry the capacity-reservation
 * labels (id, type, interruptible: on-demand and spot have them DoesNotExist), and reserved offerings exist only for
 * the reservations the EC2NodeClass selects (aws/karpenter-provider-aws v1.15.0 offering/base_resolver.go,
 * reserved_capacity_resolver.go). Each invalid input has a valid look-alike; each rule its agreement entry.
 */

const ag = require("../../scripts/e2e/agreement.cjs");

const CAPACITY_TYPE = "karpenter.sh/capacity-type";
const ID = "karpenter.k8s.aws/capacity-reservation-id";
const TYPE = "karpenter.k8s.aws/capacity-reservation-type";
const INTERRUPTIBLE = "karpenter.k8s.aws/capacity-reservation-interruptible";
const CR = "cr-0123456789abcdef0";
const OTHER = "cr-0aaaaaaaaaaaaaaaa";
const terms = { capacityReservationSelectorTerms: [{ id: CR }] };

/** The error of a NodePool on a class of the app (or by name, with `byName`), at 1.15.0. */
const pool = (props: Partial<NodePoolProps>, cls: Partial<Ec2NodeClassProps> = {}, byName = false) =>
  poolOnClass(props, cls, "1.15.0", byName);

describe("a reservation label with capacity types that leave out reserved", () => {
  test("C18 / C21: no capacity type stated, so the library's default on-demand: refused, saying to state reserved", () => {
    for (const props of [{ requirements: [req(ID, "In", [CR])] }, { labels: { [ID]: CR } }]) {
      const e = pool(props, terms);
      expect(e?.code).toBe("NODEPOOL_RESERVATION_CAPACITY_TYPE");
      expect(e?.field).toBe(props.labels ? `labels["${ID}"]` : "requirements[0]");
      expect(e?.message).toContain('the library adds its default karpenter.sh/capacity-type In ["on-demand"]');
      expect(e?.message).toContain('values: ["reserved"]');
      expect(e?.message).toContain("base_resolver.go");
      expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("reservation-capacity-type");
    }
  });
  test("C22: on-demand stated with capacity-reservation-interruptible In [false]: refused, whatever the class", () => {
    for (const byName of [false, true]) {
      const e = pool(
        { requirements: [req(CAPACITY_TYPE, "In", ["on-demand"]), req(INTERRUPTIBLE, "In", ["false"])] },
        terms,
        byName,
      );
      expect(e?.code).toBe("NODEPOOL_RESERVATION_CAPACITY_TYPE");
      expect(e?.field).toBe("requirements[1]");
      expect(e?.message).toContain("the pool's capacity types (on-demand) leave out reserved");
    }
  });
  test("look-alikes: reserved stated; NotIn or DoesNotExist on a reservation label (on-demand nodes meet it)", () => {
    expect(
      pool({ requirements: [req(CAPACITY_TYPE, "In", ["reserved"]), req(ID, "In", [CR])] }, terms),
    ).toBeUndefined();
    expect(pool({ labels: { [CAPACITY_TYPE]: "reserved", [ID]: CR } }, terms)).toBeUndefined();
    expect(pool({ requirements: [req(ID, "NotIn", [CR])] }, terms)).toBeUndefined();
    expect(pool({ requirements: [req(TYPE, "DoesNotExist", [])] })).toBeUndefined();
    expect(
      pool({ requirements: [req(CAPACITY_TYPE, "In", ["on-demand"]), req(INTERRUPTIBLE, "NotIn", ["true"])] }),
    ).toBeUndefined();
  });
});

describe("a reservation label on a class that selects no reservation, or not that one", () => {
  test("C16 / C17: the label leaves only reserved capacity, and the class has no capacityReservationSelectorTerms", () => {
    const c16 = pool({ requirements: [req(CAPACITY_TYPE, "In", ["reserved"]), req(ID, "In", [CR])] });
    expect(c16?.code).toBe("NODEPOOL_RESERVED_WITHOUT_RESERVATIONS");
    expect(c16?.field).toBe("requirements[0]");
    const c17 = pool({
      requirements: [req(CAPACITY_TYPE, "In", ["reserved", "on-demand"]), req(TYPE, "In", ["capacity-block"])],
    });
    expect(c17?.code).toBe("NODEPOOL_RESERVED_WITHOUT_RESERVATIONS");
    expect(c17?.field).toBe("requirements[1]");
    // a reservation label: allowing on-demand too would not help, so the message does not offer it
    expect(c17?.message).not.toContain('In ["reserved", "on-demand"]');
    expect(ag.semanticRuleOf(c17, "1.15.0")?.id).toBe("reserved-without-reservations");
  });
  test("C23: the pool's reservation id is none of the ids the class selects", () => {
    const e = pool({ requirements: [req(CAPACITY_TYPE, "In", ["reserved"]), req(ID, "In", [OTHER])] }, terms);
    expect(e?.code).toBe("NODEPOOL_RESERVATION_NOT_SELECTED");
    expect(e?.field).toBe("requirements[1]");
    expect(e?.message).toContain(`a capacity reservation its EC2NodeClass selects ("${CR}")`);
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("reservation-not-selected");
    const label = pool({ labels: { [CAPACITY_TYPE]: "reserved", [ID]: OTHER } }, terms);
    expect(label?.code).toBe("NODEPOOL_RESERVATION_NOT_SELECTED");
  });
  test("look-alikes: one of the ids selected; a class selecting by tags; a class by name", () => {
    expect(
      pool({ requirements: [req(CAPACITY_TYPE, "In", ["reserved"]), req(ID, "In", [OTHER, CR])] }, terms),
    ).toBeUndefined();
    expect(
      pool(
        { requirements: [req(CAPACITY_TYPE, "In", ["reserved"]), req(ID, "In", [OTHER])] },
        { capacityReservationSelectorTerms: [{ tags: { team: "a" } }] },
      ),
    ).toBeUndefined();
    expect(pool({ requirements: [req(CAPACITY_TYPE, "In", ["reserved"]), req(ID, "In", [OTHER])] }, {}, true)).toBe(
      undefined,
    );
  });
});

describe("K22: a kubeReserved or systemReserved value starting with '-' (nodeClassCEL on)", () => {
  class CelInstallation extends FakeInstallation {
    public readonly nodeClassCel = true;
  }
  const make = (k: { [f: string]: unknown }, version = "1.15.0") => {
    const { stack } = testStack();
    const karpenter = new CelInstallation(stack, "karpenter", version);
    return () => new Ec2NodeClass(stack, "nc", { karpenter, kubelet: k as any });
  };
  const rejected = (k: { [f: string]: unknown }) => {
    try {
      make(k)();
    } catch (e) {
      if (e instanceof KarpenterValidationError) return e;
      throw e;
    }
    return undefined;
  };
  test.each([
    [{ kubeReserved: { memory: "-memory_mib" } }, 'kubelet.kubeReserved["memory"]'],
    [{ systemReserved: { cpu: "-(vcpus * 10)" } }, 'kubelet.systemReserved["cpu"]'],
  ])("%j is refused before evaluation, as Karpenter 1.15 does", (k, field) => {
    const e = rejected(k);
    expect(e?.code).toBe("EC2NODECLASS_KUBELET_RESERVED");
    expect(e?.field).toBe(field);
    expect(e?.message).toContain('value starting with "-" before it evaluates an expression');
    expect(e?.message).toContain("validateKubeletSemantics");
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("kubelet-negative");
  });
  test("look-alikes: an expression without a leading minus, a quantity", () => {
    expect(make({ kubeReserved: { memory: "memory_mib * 0 + 100" } })).not.toThrow();
    expect(make({ kubeReserved: { memory: "100Mi" }, systemReserved: { cpu: "vcpus * 10" } })).not.toThrow();
  });
});

describe("K13 / K14: eviction percentages as Go's strconv.ParseFloat reads them (Karpenter 1.15 validateEvictionThreshold)", () => {
  const { goParseFloat } = require("../../lib/nodes/kubelet-config-rules");
  const nodeClass = (value: string) => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
    return () => new Ec2NodeClass(stack, "nc", { karpenter, kubelet: { evictionHard: { "memory.available": value } } });
  };
  test("Go's float syntax: hexadecimal, underscores between digits, inf and nan", () => {
    expect(goParseFloat("0x1p4")).toBe(16);
    expect(goParseFloat("1_0")).toBe(10);
    expect(goParseFloat("1.5e1")).toBe(15);
    expect(goParseFloat("0X1.8P1")).toBe(3);
    expect(goParseFloat("-Inf")).toBe(-Infinity);
    for (const bad of ["_1", "1_", "1__0", "0x1", "1e", ".", "", "abc"]) expect(goParseFloat(bad)).toBeUndefined();
  });
  test.each(["0x1p4%", "1_0%", "5.555%", "+5%"])("%s is accepted, as Karpenter accepts it", (value) => {
    expect(nodeClass(value)).not.toThrow();
  });
  test.each([
    ["101%", "a percentage outside 0 to 100"],
    ["0x1p7%", "a percentage outside 0 to 100"],
    ["abc%", "no number before the %"],
    // Karpenter and the kubelet take NaN (strconv.ParseFloat); refused by this library, saying why (fresh tester 20 CF-2)
    ["nan%", "is NaN, which Karpenter"],
  ])("%s is refused: %s", (value, problem) => {
    expect(nodeClass(value)).toThrow(problem);
  });
});

describe("CL9: convert of a pool that names a capacity reservation but no capacity type", () => {
  const { onlyPool, noteAbout } = require("../convert/util");
  const v1Pool = (requirements: string) => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: res
spec:
  template:
    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }
      requirements:
${requirements}
`;
  test("adds In [reserved], the only capacity type it could launch, with an action note", () => {
    const pool = onlyPool(v1Pool(`        - { key: ${ID}, operator: In, values: [${CR}] }`));
    expect(pool.props.requirements).toContainEqual({ key: CAPACITY_TYPE, operator: "In", values: ["reserved"] });
    const note = noteAbout(pool.notes, "spec.template.spec.requirements");
    expect(note.level).toBe("action");
    expect(note.message).toContain(`added ${CAPACITY_TYPE} In [reserved]: the pool names ${ID}`);
  });
  test("look-alike: a reservation label the pool excludes (NotIn) keeps the on-demand default", () => {
    const pool = onlyPool(v1Pool(`        - { key: ${ID}, operator: NotIn, values: [${CR}] }`));
    expect(pool.props.requirements).toContainEqual({ key: CAPACITY_TYPE, operator: "In", values: ["on-demand"] });
  });
});
