import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";
import { Token } from "cdktf";
import { KarpenterValidationError } from "../../lib/core/errors";
import { Ec2NodeClass, Ec2NodeClassProps } from "../../lib/nodes/ec2-node-class";
import { NodePool, NodePoolProps } from "../../lib/nodes/node-pool";
import { CAPACITY_RESERVATION_TYPES } from "../../lib/nodes/node-semantic-rules";
import { FakeInstallation, testStack } from "../helpers";
import { referenceRequirement, referenceRoot, testIf } from "../reference";
import { build, rejection, req } from "./node-props";

/*
 * The sixth fresh tester's findings (fresh6-report.md): capacity-reservation-type values (R12), a pool that allows
 * only reserved capacity on a class that selects no reservation (R11, R17), and AL2023 user data with two NodeConfig
 * documents (U3: refused for the true reason, the second is never read). Each invalid input has a valid look-alike.
 * (CL6, unknown YAML tags in convert: test/convert/unresolved-tags.test.ts.)
 */

const ag = require("../../scripts/e2e/agreement.cjs");

const RESERVATION_TYPE = "karpenter.k8s.aws/capacity-reservation-type";
const CAPACITY_TYPE = "karpenter.sh/capacity-type";

describe("R12: karpenter.k8s.aws/capacity-reservation-type values", () => {
  test.each([
    ["Default", "default"],
    ["Capacity-Block", "capacity-block"],
    ["capacity_block", "capacity-block"],
    ["capacityblock", "capacity-block"],
  ])('In ["%s"] is refused, suggesting "%s"', (value, fix) => {
    const e = rejection(
      "NodePool",
      { requirements: [req(CAPACITY_TYPE, "In", ["reserved"]), req(RESERVATION_TYPE, "In", [value])] },
      "1.15.0",
    );
    expect(e.code).toBe("NODE_REQUIREMENT_VALUE_UNKNOWN");
    expect(e.field).toBe("requirements[1].values[0]");
    expect(e.message).toContain('"default" or "capacity-block"');
    expect(e.message).toContain(`write "${fix}"`);
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("well-known-label-value");
  });
  test('a template label "Default" is refused', () => {
    const e = rejection(
      "NodePool",
      { labels: { [CAPACITY_TYPE]: "reserved", [RESERVATION_TYPE]: "Default" } },
      "1.15.0",
    );
    expect(e.code).toBe("NODE_REQUIREMENT_VALUE_UNKNOWN");
    expect(e.field).toBe(`labels["${RESERVATION_TYPE}"]`);
  });
  test("look-alikes: In [default], In [capacity-block], NotIn both and DoesNotExist (on-demand and spot carry none)", () => {
    for (const r of [
      req(RESERVATION_TYPE, "In", ["default"]),
      req(RESERVATION_TYPE, "In", ["capacity-block"]),
      req(RESERVATION_TYPE, "NotIn", ["default", "capacity-block"]),
      req(RESERVATION_TYPE, "DoesNotExist"),
    ])
      expect(() =>
        build("NodePool", { requirements: [req(CAPACITY_TYPE, "In", ["reserved", "on-demand"]), r] }, "1.15.0"),
      ).not.toThrow();
  });
  const crdFile = "crds/karpenter.k8s.aws_ec2nodeclasses.yaml";
  testIf(referenceRequirement(["1.15.0"], crdFile))(
    "the values are the v1.15.0 EC2NodeClass CRD's status.capacityReservations[].reservationType enum",
    () => {
      const crd = YAML.parse(fs.readFileSync(path.join(referenceRoot(), "v1.15.0", crdFile), "utf8"));
      const status = crd.spec.versions[0].schema.openAPIV3Schema.properties.status;
      expect(status.properties.capacityReservations.items.properties.reservationType.enum).toEqual([
        ...CAPACITY_RESERVATION_TYPES,
      ]);
    },
  );
});

describe("R11 / R17: only reserved capacity on a class that selects no reservation", () => {
  function pool(
    pool: Partial<NodePoolProps>,
    cls: Partial<Ec2NodeClassProps> = {},
    version = "1.15.0",
  ): KarpenterValidationError | undefined {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", version);
    const nodeClass = new Ec2NodeClass(stack, "nc", { karpenter, name: "cls", ...cls });
    try {
      new NodePool(stack, "np", { karpenter, nodeClass, ...pool });
    } catch (e) {
      if (e instanceof KarpenterValidationError) return e;
      throw e;
    }
    return undefined;
  }
  const terms = { capacityReservationSelectorTerms: [{ id: "cr-0123456789abcdef0" }] };

  test.each(["1.14.1", "1.15.0"])('R11: requirement In ["reserved"] is refused on %s', (version) => {
    const e = pool({ requirements: [req(CAPACITY_TYPE, "In", ["reserved"])] }, {}, version);
    expect(e?.code).toBe("NODEPOOL_RESERVED_WITHOUT_RESERVATIONS");
    expect(e?.field).toBe("requirements[0]");
    expect(e?.message).toContain("EC2NodeClass cls (");
    expect(e?.message).toContain("has no capacityReservationSelectorTerms");
    expect(e?.message).toContain("reserved_capacity_resolver.go");
    expect(ag.semanticRuleOf(e, version)?.id).toBe("reserved-without-reservations");
  });
  test('R17: the template label karpenter.sh/capacity-type: "reserved" is refused', () => {
    const e = pool({ labels: { [CAPACITY_TYPE]: "reserved" } });
    expect(e?.code).toBe("NODEPOOL_RESERVED_WITHOUT_RESERVATIONS");
    expect(e?.field).toBe(`labels["${CAPACITY_TYPE}"]`);
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("reserved-without-reservations");
  });
  test('NotIn ["spot", "on-demand"] leaves only reserved: refused', () => {
    const e = pool({ requirements: [req(CAPACITY_TYPE, "NotIn", ["spot", "on-demand"])] });
    expect(e?.code).toBe("NODEPOOL_RESERVED_WITHOUT_RESERVATIONS");
  });
  test("look-alikes: reserved with on-demand, reserved on a class with terms, a class by name, on-demand", () => {
    expect(pool({ requirements: [req(CAPACITY_TYPE, "In", ["reserved", "on-demand"])] })).toBeUndefined();
    expect(pool({ requirements: [req(CAPACITY_TYPE, "In", ["reserved"])] }, terms)).toBeUndefined();
    expect(pool({ labels: { [CAPACITY_TYPE]: "reserved" } }, terms)).toBeUndefined();
    expect(() => build("NodePool", { requirements: [req(CAPACITY_TYPE, "In", ["reserved"])] }, "1.15.0")).not.toThrow();
    expect(pool({ requirements: [req(CAPACITY_TYPE, "In", ["on-demand"])] })).toBeUndefined();
  });
  test("tokens defer: in the pool's capacity-type values, or as the class's terms", () => {
    expect(pool({ requirements: [req(CAPACITY_TYPE, "In", Token.asList("${var.types}"))] })).toBeUndefined();
    expect(
      pool(
        { requirements: [req(CAPACITY_TYPE, "In", ["reserved"])] },
        { capacityReservationSelectorTerms: Token.asAny("${var.terms}") as any },
      ),
    ).toBeUndefined();
  });
  test("the message says what to do", () => {
    const message = pool({ requirements: [req(CAPACITY_TYPE, "In", ["reserved"])] })?.message;
    expect(message).toContain("it launches nothing");
    expect(message).toContain("Select the reservations in the class's capacityReservationSelectorTerms");
    expect(message).toContain('In ["reserved", "on-demand"]');
  });
});

describe("U3: AL2023 user data with two NodeConfig documents", () => {
  const nodeConfig = (maxPods: number) =>
    `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: ${maxPods}\n`;
  const mime = (part: string) =>
    `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: application/node.eks.aws\n\n${part}\n--B--\n`;

  test("refused for the true reason: only the first document is read, the second is silently ignored", () => {
    const e = rejection("EC2NodeClass", { amiFamily: "AL2023", userData: `${nodeConfig(50)}---\n${nodeConfig(60)}` });
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.value).toBe("line 7: ---");
    expect(e.message).toContain("only the first is read");
    expect(e.message).toContain("go.yaml.in/yaml/v2 v2.4.4");
    expect(e.message).toContain("silently ignored");
    expect(e.message).not.toContain("shell script");
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("user-data-format");
  });
  test("a broken second document is not read either: refused as ignored, not as no YAML", () => {
    const e = rejection("EC2NodeClass", { amiFamily: "AL2023", userData: `${nodeConfig(50)}---\n\tbroken: [\n` });
    expect(e.message).toContain("only the first is read");
    expect(e.message).not.toContain("is no YAML");
  });
  test("an empty first document: nodeadm finds no NodeConfig", () => {
    const e = rejection("EC2NodeClass", { amiFamily: "AL2023", userData: `---\n---\n${nodeConfig(50)}` });
    expect(e.message).toContain("the first, empty document is all nodeadm sees");
  });
  test("in an application/node.eks.aws MIME part too", () => {
    const e = rejection("EC2NodeClass", {
      amiFamily: "AL2023",
      userData: mime(`${nodeConfig(50)}---\n${nodeConfig(60)}`),
    });
    expect(e.message).toContain("this application/node.eks.aws part of AL2023 user data holds another document");
    expect(e.message).toContain("nodeadm merges the parts");
  });
  test("look-alikes: one document with a leading and a trailing ---, the NodeConfigs in two parts, a script with ---", () => {
    for (const userData of [
      `---\n${nodeConfig(50)}---\n`,
      `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: application/node.eks.aws\n\n${nodeConfig(50)}\n--B\nContent-Type: application/node.eks.aws\n\n${nodeConfig(60)}\n--B--\n`,
      "#!/bin/bash\necho one\n---\necho two\n",
    ])
      expect(() => build("EC2NodeClass", { amiFamily: "AL2023", userData })).not.toThrow();
  });
});
