import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import type { Ec2NodeClassProps } from "../../lib/nodes/ec2-node-class";
import { schedulerConfigProblems } from "../../lib/helm/scheduler-config";
import { FakeInstallation, testStack } from "../helpers";
import { build, rejection } from "./node-props";

/*
 * The eleventh fresh tester's node findings. F-1 / F-2: the EC2NodeClass CRD's rules on subnet, security group and
 * capacity reservation terms are `!self.all(x, has(x.id) && (…))` (every release 1.0–1.15): the list is refused only
 * when every term combines id (or name) with other fields; a term Karpenter then reads in part warns (v1.15.0
 * securitygroup.go / subnet.go getFilterSets, capacityreservation/types.go QueriesFromSelectorTerms). C-1: the CRD's
 * volumeSize pattern takes 1–17, 20–27 … Ti only. C-2: a Bottlerocket integer out of range says so. C-5: a quoted
 * maxSkew in SCHEDULER_CONFIG is a string to encoding/json. Each invalid input has a valid look-alike.
 */

const SG = "sg-0123456789abcdef0";
const SUBNET = "subnet-0123456789abcdef0";
const CR = "cr-0123456789abcdef0";

function warningsOf(props: Partial<Ec2NodeClassProps>, version = "1.15.0"): string[] {
  const { stack } = testStack();
  const karpenter = new FakeInstallation(stack, "karpenter", version);
  const c = new Ec2NodeClass(stack, "nc", { karpenter, name: "cls", ...props });
  return c.node.metadata
    .filter((m) => m.type === "@cdktf/warn")
    .map((m) => String(m.data))
    .filter((w) => w.includes("SelectorTerms["));
}

describe("F-1 / F-2: id (or name) beside other fields is refused only when every term does so (!self.all)", () => {
  test.each([
    [
      "capacity reservations, one term",
      { capacityReservationSelectorTerms: [{ id: CR, tags: { a: "b" } }] },
      "capacityReservationSelectorTerms[0].id",
    ],
    [
      "capacity reservations, every term",
      {
        capacityReservationSelectorTerms: [
          { id: CR, tags: { a: "b" } },
          { id: "cr-0123456789abcdef1", ownerID: "123456789012" },
        ],
      },
      "capacityReservationSelectorTerms",
    ],
    [
      "security groups, every term",
      {
        securityGroupSelectorTerms: [
          { id: SG, tags: { a: "b" } },
          { id: "sg-0123456789abcdef1", name: "x" },
        ],
      },
      "securityGroupSelectorTerms",
    ],
    [
      "security group name and tags, one term",
      { securityGroupSelectorTerms: [{ name: "nodes", tags: { a: "b" } }] },
      "securityGroupSelectorTerms[0].name",
    ],
    ["subnets, one term", { subnetSelectorTerms: [{ id: SUBNET, tags: { a: "b" } }] }, "subnetSelectorTerms[0].id"],
  ] as [string, Partial<Ec2NodeClassProps>, string][])("%s: refused, citing the CRD rule", (_what, props, field) => {
    const e = rejection("EC2NodeClass", props, "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_SELECTOR_TERM");
    expect(e.field).toBe(field);
    expect(e.message).toContain("!self.all(x, has(x.");
  });

  test("the message quotes the rule of the class's release: instanceMatchCriteria from 1.8 only", () => {
    const props: Partial<Ec2NodeClassProps> = { capacityReservationSelectorTerms: [{ id: CR, tags: { a: "b" } }] };
    expect(rejection("EC2NodeClass", props, "1.15.0").message).toContain(
      "!self.all(x, has(x.id) && (has(x.tags) || has(x.ownerID) || has(x.instanceMatchCriteria)))",
    );
    expect(rejection("EC2NodeClass", props, "1.5.8").message).toContain(
      "!self.all(x, has(x.id) && (has(x.tags) || has(x.ownerID)))",
    );
  });

  test("the fresh tester's capacity reservation list is accepted without a warning (Karpenter queries id and tags)", () => {
    const props: Partial<Ec2NodeClassProps> = {
      capacityReservationSelectorTerms: [{ id: CR, tags: { a: "b" } }, { tags: { team: "x" } }],
    };
    for (const v of ["1.3.8", "1.8.8", "1.15.0"]) expect(() => build("EC2NodeClass", props, v)).not.toThrow();
    expect(warningsOf(props)).toEqual([]);
  });

  test("the fresh tester's security group list is accepted, and the ignored tags warn, citing getFilterSets", () => {
    const props: Partial<Ec2NodeClassProps> = {
      securityGroupSelectorTerms: [{ id: SG, tags: { a: "b" } }, { tags: { "karpenter.sh/discovery": "prod" } }],
    };
    for (const v of ["1.0.14", "1.14.1", "1.15.0"]) expect(() => build("EC2NodeClass", props, v)).not.toThrow();
    const w = warningsOf(props);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain(
      "securityGroupSelectorTerms[0] sets id and tags: Karpenter selects by id alone and ignores tags",
    );
    expect(w[0]).toContain("pkg/providers/securitygroup/securitygroup.go:101-135");
  });

  test("the other terms Karpenter reads in part warn: a security group name with tags, a subnet id with tags, a reservation id with only an ownerID", () => {
    expect(
      warningsOf({ securityGroupSelectorTerms: [{ name: "nodes", tags: { a: "b" } }, { tags: { a: "b" } }] }),
    ).toEqual([
      expect.stringContaining("securityGroupSelectorTerms[0] sets name and tags: Karpenter selects by name alone"),
    ]);
    expect(warningsOf({ subnetSelectorTerms: [{ tags: { a: "b" } }, { id: SUBNET, tags: { a: "b" } }] })).toEqual([
      expect.stringContaining("subnetSelectorTerms[1] sets id and tags"),
    ]);
    expect(
      warningsOf({ capacityReservationSelectorTerms: [{ id: CR, ownerID: "123456789012" }, { tags: { a: "b" } }] }),
    ).toEqual([expect.stringContaining("capacityReservationSelectorTerms[0] sets id and ownerID")]);
  });

  test("look-alikes: terms of one kind each pass without a warning", () => {
    const props: Partial<Ec2NodeClassProps> = {
      securityGroupSelectorTerms: [{ id: SG }, { name: "nodes" }, { tags: { a: "b" } }],
      subnetSelectorTerms: [{ id: SUBNET }, { tags: { a: "b" } }],
      capacityReservationSelectorTerms: [{ id: CR }, { tags: { a: "b" }, ownerID: "123456789012" }],
    };
    expect(() => build("EC2NodeClass", props, "1.15.0")).not.toThrow();
    expect(warningsOf(props)).toEqual([]);
  });

  test("AMI terms keep their per-term rule (!self.exists): one term with id and name is refused beside a plain one", () => {
    const e = rejection(
      "EC2NodeClass",
      { amiFamily: "AL2023", amiSelectorTerms: [{ id: "ami-0123456789abcdef0", name: "x" }, { name: "y" }] },
      "1.15.0",
    );
    expect(e.field).toBe("amiSelectorTerms[0].id");
  });
});

describe("C-1: volumeSize in Ti: the message says which sizes the CRD pattern takes", () => {
  const ebs = (volumeSize: string) => ({
    blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeType: "io2" as const, volumeSize, iops: 1000 } }],
  });
  test.each(["18Ti", "19Ti", "28Ti"])("%s is refused, naming the Ti ranges and the Gi to write", (size) => {
    const e = rejection("EC2NodeClass", ebs(size), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_FORMAT");
    expect(e.field).toBe("blockDeviceMappings[0].ebs.volumeSize");
    expect(e.message).toContain("in Ti only 1–17, 20–27, 30–37, 40–47 or 50–58");
    expect(e.message).not.toContain("1–58Ti");
    expect(e.message).toContain(`write "${parseInt(size, 10) * 1024}Gi" for ${size}`);
  });
  test("look-alikes pass: 17Ti, 58Ti, 18432Gi, 18T", () => {
    for (const size of ["17Ti", "58Ti", "18432Gi", "18T"])
      expect(() => build("EC2NodeClass", ebs(size), "1.15.0")).not.toThrow();
  });
});

describe("C-2: a Bottlerocket integer out of range says so", () => {
  const br = (userData: string) => ({ amiSelectorTerms: [{ alias: "bottlerocket@latest" }], userData });
  test("max-pods = 99999999999999999999 names the int64 range, not 'an integer, got an integer'", () => {
    const e = rejection("EC2NodeClass", br("[settings.kubernetes]\nmax-pods = 99999999999999999999\n"), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain(
      "settings.kubernetes.max-pods as an integer from -9223372036854775808 to 9223372036854775807, got 99999999999999999999, which is out of range",
    );
    expect(e.message).not.toContain("got an integer");
  });
  test("look-alike passes: max-pods = 110", () => {
    expect(() => build("EC2NodeClass", br("[settings.kubernetes]\nmax-pods = 110\n"), "1.15.0")).not.toThrow();
  });
});

describe("C-5: SCHEDULER_CONFIG maxSkew quoted is a string to encoding/json", () => {
  const doc = (maxSkew: string) =>
    `podTopologySpread:\n  defaultConstraints:\n  - maxSkew: ${maxSkew}\n    topologyKey: topology.kubernetes.io/zone\n    whenUnsatisfiable: ScheduleAnyway\n`;
  test('maxSkew: "1" says it is a string', () => {
    expect(schedulerConfigProblems(doc('"1"'))).toEqual([
      'podTopologySpread.defaultConstraints[0].maxSkew is a string ("1"), not a 32-bit whole number: write 1 unquoted (encoding/json cannot unmarshal a string into an int32)',
    ]);
  });
  test("maxSkew: 2147483648 says it is out of range", () => {
    expect(schedulerConfigProblems(doc("2147483648"))).toEqual([
      "podTopologySpread.defaultConstraints[0].maxSkew is out of range (2147483648): a 32-bit whole number is -2147483648 to 2147483647",
    ]);
  });
  test("look-alike passes: maxSkew: 1", () => {
    expect(schedulerConfigProblems(doc("1"))).toEqual([]);
  });
});
