import { build, messages, rejection } from "./node-props";

/*
 * EC2's fixed numbers for EBS IOPS and throughput (lib/nodes/ebs-rules.ts, Amazon EC2 API Reference,
 * EbsBlockDevice), on literal values. Each invalid volume has a valid look-alike that passes.
 */

const ebs = (e: object) => ({ blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: "100Gi", ...e } }] });

describe("io1 and io2 need iops", () => {
  test.each(["io1", "io2"])("%s without iops is refused, naming the field and the range", (volumeType) => {
    const e = rejection("EC2NodeClass", ebs({ volumeType }));
    expect(e.field).toBe("blockDeviceMappings[0].ebs.iops");
    expect(e.message).toContain(
      `EC2's limits for volumeType "${volumeType}" require iops (Amazon EC2 API Reference, EbsBlockDevice: Iops "is required for io1 and io2 volumes")`,
    );
  });
  test("look-alikes: io1 / io2 with iops, and gp3 without", () => {
    expect(() => build("EC2NodeClass", ebs({ volumeType: "io1", iops: 5000 }))).not.toThrow();
    expect(() => build("EC2NodeClass", ebs({ volumeType: "io2", iops: 100 }))).not.toThrow();
    expect(() => build("EC2NodeClass", ebs({ volumeType: "gp3" }))).not.toThrow();
  });
});

describe("IOPS and throughput outside EC2's numbers", () => {
  test.each([
    ["gp3", 2999, "at least 3000 IOPS"],
    ["gp3", 100, "at least 3000 IOPS"],
    ["io1", 99, "100–64000 IOPS"],
    ["io1", 64001, "100–64000 IOPS"],
    ["io2", 50, "100–256000 IOPS"],
    ["io2", 256001, "100–256000 IOPS"],
  ] as const)("%s with iops %d is refused: %s", (volumeType, iops, range) => {
    expect(messages("EC2NodeClass", ebs({ volumeType, iops }))).toEqual([
      `test/obj: blockDeviceMappings[0].ebs.iops = ${iops} is invalid: ${range}: EC2's limits for volumeType "${volumeType}" (Amazon EC2 API Reference, EbsBlockDevice: Iops), so every launch with this class fails${volumeType === "gp3" ? " (gp3 gives 3,000 IOPS without iops: leave it unset for the baseline)" : ""}`,
    ]);
  });
  test("gp3 throughput under 125 MiB/s is refused", () => {
    const e = rejection("EC2NodeClass", ebs({ volumeType: "gp3", throughput: 100 }));
    expect(e.field).toBe("blockDeviceMappings[0].ebs.throughput");
    expect(e.message).toContain('at least 125 MiB/s: EC2\'s limits for volumeType "gp3"');
  });
  test("look-alikes at the bounds pass; gp3 ceilings (raised in 2025) are left to EC2", () => {
    for (const e of [
      { volumeType: "gp3", iops: 3000, throughput: 125 },
      { volumeType: "gp3", iops: 80000, throughput: 2000 },
      { volumeType: "io1", iops: 100 },
      { volumeType: "io1", iops: 64000 },
      { volumeType: "io2", iops: 256000 },
    ])
      expect(() => build("EC2NodeClass", ebs(e))).not.toThrow();
  });
  test("every volume of a class is judged, with the other problems of the class", () => {
    const e = rejection("EC2NodeClass", {
      blockDeviceMappings: [
        { deviceName: "/dev/xvda", ebs: { volumeSize: "20Gi", volumeType: "io2" } },
        { deviceName: "/dev/xvdb", ebs: { volumeSize: "20Gi", volumeType: "gp3", iops: 1000, throughput: 50 } },
      ],
      metadataOptions: { httpTokens: "maybe" as any },
    });
    expect(e.problems.map((p) => p.field)).toEqual([
      "blockDeviceMappings[0].ebs.iops",
      "blockDeviceMappings[1].ebs.iops",
      "blockDeviceMappings[1].ebs.throughput",
      "metadataOptions.httpTokens",
    ]);
  });
  test("a value another rule refuses is reported once (a negative or fractional iops)", () => {
    expect(rejection("EC2NodeClass", ebs({ volumeType: "io1", iops: -5 })).problems).toHaveLength(1);
    expect(rejection("EC2NodeClass", ebs({ volumeType: "gp3", throughput: 1.5 })).problems).toHaveLength(1);
  });
  test("a negative iops or throughput is EC2's refusal, not the CRD's (the CRD sets no minimum)", () => {
    for (const [field, e] of [
      ["iops", { volumeType: "io1", iops: -5 }],
      ["throughput", { throughput: -1 }],
    ] as const) {
      const p = rejection("EC2NodeClass", ebs(e));
      expect(p.field).toBe(`blockDeviceMappings[0].ebs.${field}`);
      expect(p.message).toContain("a whole number, 0 or more: EC2 takes no negative");
    }
    expect(() => build("EC2NodeClass", ebs({ volumeType: "gp3", iops: 3000, throughput: 0 }))).toThrow(/125 MiB/);
  });
});
