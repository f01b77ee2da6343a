import { build, Props, rejection, req } from "./node-props";

/*
 * The fourth fresh tester's findings (fresh4-report.md): template labels under deprecated keys, a deprecated and
 * a stable key that intersect to nothing, instance-capability-flex values, a capacity type label older than its
 * release, the HDD and io1 size ceilings, the alias suggestion for "alias/", "-0" as a quantity, values that
 * throw when read, and a value that writes itself as a string. Each invalid input has a valid look-alike.
 * (test/nodes/node-props builds in us-east-1.)
 */

const ag = require("../../scripts/e2e/agreement.cjs");

describe("template labels and requirements on deprecated keys, as Karpenter reads them (NormalizedLabels)", () => {
  test("a label failure-domain.beta.kubernetes.io/zone of another region is refused as a zone", () => {
    const e = rejection("NodePool", { labels: { "failure-domain.beta.kubernetes.io/zone": "eu-west-1a" } });
    expect(e.code).toBe("NODE_ZONE");
    expect(e.field).toBe('labels["failure-domain.beta.kubernetes.io/zone"]');
  });
  test("a label beta.kubernetes.io/arch x86_64 gets the arch rule", () => {
    const e = rejection("NodePool", { labels: { "beta.kubernetes.io/arch": "x86_64" } });
    expect(e.code).toBe("NODE_REQUIREMENT_VALUE_UNKNOWN");
  });
  test("beta and stable instance-type requirements that intersect to nothing", () => {
    const e = rejection("NodePool", {
      requirements: [
        req("beta.kubernetes.io/instance-type", "In", ["m5.large"]),
        req("node.kubernetes.io/instance-type", "In", ["c5.large"]),
      ],
    });
    expect(e.code).toBe("NODE_REQUIREMENT_UNSATISFIABLE");
    expect(e.field).toBe("requirements[1]");
  });
  test("look-alikes: a zone of the region, amd64, beta and stable keys that agree", () => {
    expect(() =>
      build("NodePool", {
        labels: { "failure-domain.beta.kubernetes.io/zone": "us-east-1a", "beta.kubernetes.io/arch": "amd64" },
        requirements: [
          req("beta.kubernetes.io/instance-type", "In", ["m5.large", "c5.large"]),
          req("node.kubernetes.io/instance-type", "In", ["c5.large"]),
        ],
      }),
    ).not.toThrow();
  });
});

describe("instance-capability-flex and capacity-type labels", () => {
  test("instance-capability-flex In yes: write true", () => {
    const e = rejection("NodePool", {
      requirements: [req("karpenter.k8s.aws/instance-capability-flex", "In", ["yes"])],
    });
    expect(e.code).toBe("NODE_REQUIREMENT_VALUE_UNKNOWN");
    expect(e.message).toContain('write "true"');
  });
  test("a capacity-type label reserved before 1.3", () => {
    const e = rejection("NodePool", { labels: { "karpenter.sh/capacity-type": "reserved" } }, "1.2.8");
    expect(e.code).toBe("NODEPOOL_NEEDS_NEWER_KARPENTER");
  });
  test("look-alikes: flex true, reserved on 1.3", () => {
    expect(() =>
      build("NodePool", { requirements: [req("karpenter.k8s.aws/instance-capability-flex", "In", ["false"])] }),
    ).not.toThrow();
    expect(() => build("NodePool", { labels: { "karpenter.sh/capacity-type": "reserved" } }, "1.3.0")).not.toThrow();
  });
});

describe("EBS: the io1, st1 and sc1 size ceilings; the alias suggestion", () => {
  const ebs = (volumeType: string, volumeSize: string, more: object = {}) =>
    ({ blockDeviceMappings: [{ deviceName: "/dev/xvdb", ebs: { volumeType, volumeSize, ...more } }] }) as Props;
  test.each([
    ["io1", "16385Gi", { iops: 1000 }],
    ["st1", "17Ti", {}],
    ["sc1", "17Ti", {}],
  ])("%s %s is refused", (type, size, more) => {
    const e = rejection("EC2NodeClass", ebs(type, size, more));
    expect(e.code).toBe("EC2NODECLASS_EBS_VOLUME_SIZE");
    expect(e.message).toContain("at most 16,384 GiB");
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("ebs-limits");
  });
  test("look-alikes at the ceiling", () => {
    expect(() => build("EC2NodeClass", ebs("io1", "16384Gi", { iops: 1000 }))).not.toThrow();
    expect(() => build("EC2NodeClass", ebs("sc1", "16Ti"))).not.toThrow();
  });
  test('kmsKeyID "alias/" suggests no "alias/alias/"', () => {
    const e = rejection("EC2NodeClass", {
      blockDeviceMappings: [
        { deviceName: "/dev/xvdb", ebs: { volumeSize: "20Gi", encrypted: true, kmsKeyID: "alias/" } },
      ],
    } as Props);
    expect(e.code).toBe("EC2NODECLASS_EBS_KMS_KEY_ID");
    expect(e.message).not.toContain("alias/alias/");
  });
});

describe("values", () => {
  test('"-0" is zero, not negative', () => {
    expect(() => build("NodePool", { limits: { "nvidia.com/gpu": "-0" } })).not.toThrow();
    expect(rejection("NodePool", { limits: { "nvidia.com/gpu": "-1" } }).code).toBe("NODEPOOL_NEGATIVE_QUANTITY");
  });
  test("a revoked Proxy or a throwing getter is a value that cannot be read", () => {
    const r = Proxy.revocable({}, {});
    r.revoke();
    const getter = {
      get team(): string {
        throw new Error("boom");
      },
    };
    // the revoked Proxy is named at the prop, the getter at its own key (core/readable-props.ts findUnreadable)
    for (const [labels, field] of [
      [r.proxy, "labels"],
      [getter, "labels.team"],
    ] as const) {
      const e = rejection("NodePool", { labels: labels as { [k: string]: string } });
      expect(e.code).toBe("NODE_VALUE_UNREADABLE");
      expect(e.field).toBe(field);
    }
  });
  test("a value that writes itself as a string is shown as an object", () => {
    const e = rejection("NodePool", { labels: { team: { toJSON: () => "x" } as unknown as string } });
    expect(e.code).toBe("NODEPOOL_NOT_A_STRING");
    expect(e.message).toContain('(an object whose toJSON gives "x")');
  });
});
