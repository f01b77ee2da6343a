import { Token } from "cdktf";
import { Construct } from "constructs";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { volumeGiB } from "../../lib/nodes/ebs-rules";
import { FakeInstallation, testStack } from "../helpers";
import { build, messages, rejection } from "./node-props";

/*
 * EC2's fixed numbers for EBS size, IOPS and throughput (lib/nodes/ebs-rules.ts, Amazon EC2 API Reference,
 * EbsBlockDevice, and the EBS User Guide's ratios), on literal values. Each invalid volume has a valid
 * look-alike that passes.
 */

const ebs = (e: object) => ({ blockDeviceMappings: [{ deviceName: "/dev/xvdb", ebs: { volumeSize: "100Gi", ...e } }] });

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
      `test/obj: blockDeviceMappings[0].ebs.iops = ${iops} is invalid: ${range}: EC2's limits for volumeType "${volumeType}" (Amazon EC2 API Reference, EbsBlockDevice: Iops), so every launch with this class fails${volumeType === "gp3" ? " (gp3 gives 3,000 IOPS without iops: leave it unset for the baseline)" : ""} [EC2NODECLASS_EBS_IOPS]`,
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
      { volumeType: "gp3", iops: 80000, throughput: 2000, volumeSize: "160Gi" },
      { volumeType: "io1", iops: 100 },
      { volumeType: "io1", iops: 64000, volumeSize: "1280Gi" },
      { volumeType: "io2", iops: 256000, volumeSize: "256Gi" },
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

describe("IOPS per GiB (io1 50, io2 1,000 Block Express, gp3 500 beyond its 3,000 baseline)", () => {
  test.each([
    ["io1", "100Gi", 5001, 5000, "50", "101Gi"],
    ["io1", "4Gi", 201, 200, "50", "5Gi"],
    ["io2", "100Gi", 100001, 100000, "1,000", "101Gi"],
    ["io2", "10Gi", 10500, 10000, "1,000", "11Gi"],
    ["gp3", "10Gi", 5001, 5000, "500", "11Gi"],
    ["gp3", "100Gi", 60000, 50000, "500", "120Gi"],
  ] as const)("%s of %s with %d IOPS is refused (at most %d)", (volumeType, volumeSize, iops, max, ratio, need) => {
    const e = rejection("EC2NodeClass", ebs({ volumeType, volumeSize, iops }));
    expect(e.problems).toHaveLength(1);
    expect(e.field).toBe("blockDeviceMappings[0].ebs.iops");
    expect(e.message).toContain(`at most ${max.toLocaleString("en-US")} IOPS on a volume of`);
    expect(e.message).toContain(`EC2's limits for volumeType "${volumeType}" allow ${ratio} IOPS per GiB`);
    expect(e.message).toContain(`Make volumeSize at least ${need}, or lower iops`);
  });
  test("io2's message names Block Express; gp3's its baseline", () => {
    expect(rejection("EC2NodeClass", ebs({ volumeType: "io2", volumeSize: "10Gi", iops: 20000 })).message).toContain(
      "io2 Block Express, every io2 volume since April 2025",
    );
    expect(rejection("EC2NodeClass", ebs({ volumeType: "gp3", volumeSize: "8Gi", iops: 5000 })).message).toContain(
      "beyond the 3,000 baseline (Amazon EBS User Guide, General Purpose SSD volumes)",
    );
  });
  test("a size in G or T is the GiB Karpenter rounds it up to", () => {
    expect(volumeGiB("100Gi")).toBe(100);
    expect(volumeGiB("130G")).toBe(122);
    expect(volumeGiB("1T")).toBe(932);
    expect(volumeGiB("2Ti")).toBe(2048);
    expect(volumeGiB({} as any)).toBeUndefined();
    // 107G is 99.65 GiB, rounded up to 100: io1 takes 5,000 IOPS on it, not 5,001
    expect(() => build("EC2NodeClass", ebs({ volumeType: "io1", volumeSize: "107G", iops: 5000 }))).not.toThrow();
    const e = rejection("EC2NodeClass", ebs({ volumeType: "io1", volumeSize: "107G", iops: 5001 }));
    expect(e.message).toContain('on a volume of "107G" (100 GiB, as Karpenter rounds it up)');
  });
  test("look-alikes at the ratio pass, and gp3 keeps 3,000 IOPS on any size", () => {
    for (const e of [
      { volumeType: "io1", volumeSize: "100Gi", iops: 5000 },
      { volumeType: "io1", volumeSize: "4Gi", iops: 200 },
      { volumeType: "io2", volumeSize: "100Gi", iops: 100000 },
      { volumeType: "io2", volumeSize: "10Gi", iops: 9999 },
      { volumeType: "gp3", volumeSize: "10Gi", iops: 5000 },
      { volumeType: "gp3", volumeSize: "1Gi", iops: 3000 },
      { volumeType: "gp3", volumeSize: "1Gi" },
    ])
      expect(() => build("EC2NodeClass", ebs(e))).not.toThrow();
  });
  test("a volume given only by a snapshot has the snapshot's size, which is EC2's to judge", () => {
    expect(() =>
      build("EC2NodeClass", {
        blockDeviceMappings: [
          { deviceName: "/dev/xvdb", ebs: { snapshotID: "snap-0123456789abcdef0", volumeType: "io1", iops: 64000 } },
        ],
      }),
    ).not.toThrow();
  });
  test("a size the CRD pattern refuses is reported once, on volumeSize", () => {
    const e = rejection("EC2NodeClass", ebs({ volumeType: "io1", volumeSize: "70000Gi", iops: 64000 }));
    expect(e.problems.map((p) => p.field)).toEqual(["blockDeviceMappings[0].ebs.volumeSize"]);
  });
});

describe("gp3 throughput per IOPS (0.25 MiB/s)", () => {
  test.each([
    [4000, 1001, 1000, "4,004"],
    [3000, 751, 750, "3,004"],
    [undefined, 1000, 750, "4,000"],
  ] as const)("iops %s with throughput %d is refused (at most %d)", (iops, throughput, max, need) => {
    const e = rejection("EC2NodeClass", ebs({ volumeType: "gp3", iops, throughput }));
    expect(e.problems).toHaveLength(1);
    expect(e.field).toBe("blockDeviceMappings[0].ebs.throughput");
    expect(e.message).toContain(
      `at most ${max.toLocaleString("en-US")} MiB/s with ${(iops ?? 3000).toLocaleString("en-US")} IOPS${iops === undefined ? " (gp3's baseline: iops is unset)" : ""}: EC2's limits for volumeType "gp3" allow 0.25 MiB/s per provisioned IOPS`,
    );
    expect(e.message).toContain(`Set iops to at least ${need}, or lower throughput`);
  });
  test("look-alikes at the ratio pass", () => {
    for (const e of [
      { volumeType: "gp3", iops: 4000, throughput: 1000 },
      { volumeType: "gp3", throughput: 750 },
      { volumeType: "gp3", iops: 8000, throughput: 2000 },
    ])
      expect(() => build("EC2NodeClass", ebs(e))).not.toThrow();
  });
  test("an iops outside gp3's range is reported alone, not as a throughput ratio too", () => {
    const e = rejection("EC2NodeClass", ebs({ volumeType: "gp3", iops: 100, throughput: 500 }));
    expect(e.problems.map((p) => p.field)).toEqual(["blockDeviceMappings[0].ebs.iops"]);
  });
});

describe("size floors: io1 / io2 4 GiB, st1 / sc1 125 GiB", () => {
  test.each([
    ["st1", "100Gi", 125, "100 GiB"],
    ["sc1", "124Gi", 125, "124 GiB"],
    ["st1", "130G", 125, '"130G" (122 GiB, as Karpenter rounds it up)'],
    ["io1", "3Gi", 4, "3 GiB"],
    ["io2", "1Gi", 4, "1 GiB"],
  ] as const)("%s of %s is refused", (volumeType, volumeSize, min, size) => {
    const iops = volumeType.startsWith("io") ? 100 : undefined;
    const e = rejection("EC2NodeClass", ebs({ volumeType, volumeSize, iops }));
    expect(e.field).toBe("blockDeviceMappings[0].ebs.volumeSize");
    expect(e.message).toContain(`at least ${min} GiB ("${min}Gi"): EC2's limits for volumeType "${volumeType}"`);
    expect(e.message).toContain(`and this is ${size}, so every launch with this class fails`);
  });
  test("look-alikes: at the floor, a size in T, and gp2 / gp3 / standard at 1 GiB", () => {
    for (const e of [
      { volumeType: "st1", volumeSize: "125Gi" },
      { volumeType: "sc1", volumeSize: "135G" },
      { volumeType: "st1", volumeSize: "1T" },
      { volumeType: "io1", volumeSize: "4Gi", iops: 100 },
      { volumeType: "gp2", volumeSize: "1Gi" },
      { volumeType: "gp3", volumeSize: "1Gi" },
      { volumeType: "standard", volumeSize: "1Gi" },
    ])
      expect(() => build("EC2NodeClass", ebs(e))).not.toThrow();
  });
});

describe("iops / throughput without volumeType: a warning (EC2 picks the type from the AMI, or gp2)", () => {
  const warnings = (c: Construct) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));
  const build1 = (e: object) => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.14.1");
    return new Ec2NodeClass(stack, "obj", { karpenter, ...(ebs(e) as any) });
  };
  test("names the volume, the fields and what to set", () => {
    const w = warnings(build1({ iops: 6000, throughput: 250 })).filter((x) => x.includes("without volumeType"));
    expect(w).toEqual([
      expect.stringContaining(
        "EC2NodeClass obj: blockDeviceMappings[0].ebs sets iops and throughput without volumeType. Karpenter passes no volume type to EC2 then",
      ),
    ]);
    expect(w[0]).toContain('Set volumeType: "gp3"');
  });
  test("look-alikes: with volumeType, or without iops / throughput, nothing is said", () => {
    expect(warnings(build1({ volumeType: "gp3", iops: 6000 })).filter((x) => x.includes("volumeType"))).toEqual([]);
    expect(warnings(build1({})).filter((x) => x.includes("volumeType"))).toEqual([]);
  });
});

describe("every refusal here is one the agreement stage excuses (the API server takes any integer and size)", () => {
  const ag = require("../../scripts/e2e/agreement.cjs");
  test.each([
    { volumeType: "io1" },
    { volumeType: "gp3", iops: 100 },
    { volumeType: "io2", iops: 300000, volumeSize: "1000Gi" },
    { volumeType: "io1", iops: 5001 },
    { volumeType: "gp3", volumeSize: "10Gi", iops: 6000 },
    { volumeType: "gp3", throughput: 100 },
    { volumeType: "gp3", throughput: 1000 },
    { volumeType: "st1", volumeSize: "100Gi" },
    { volumeType: "io2", volumeSize: "3Gi", iops: 100 },
  ])("%j", (e) => {
    for (const p of rejection("EC2NodeClass", ebs(e)).problems)
      expect(ag.semanticRuleOf(p, "1.14.1")?.id).toBe("ebs-limits");
  });
});

describe("a KMS key needs encrypted: true", () => {
  const KEY = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";
  test.each([
    ["unset", {}],
    ["false", { encrypted: false }],
  ])("kmsKeyID with encrypted %s is refused on encrypted", (_what, e) => {
    const err = rejection("EC2NodeClass", ebs({ kmsKeyID: KEY, ...e }));
    expect(err.problems).toHaveLength(1);
    expect(err.field).toBe("blockDeviceMappings[0].ebs.encrypted");
    expect(err.message).toContain(
      'true when kmsKeyID is set: EC2 refuses a KMS key for a volume not marked encrypted ("The parameter KmsKeyId requires the parameter Encrypted to be set"',
    );
  });
  test("a kmsKeyID reference counts as set", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.14.1");
    expect(() => new Ec2NodeClass(stack, "obj", { karpenter, ...ebs({ kmsKeyID: "${aws_kms_key.k.arn}" }) })).toThrow(
      /blockDeviceMappings\[0\]\.ebs\.encrypted/,
    );
  });
  test("look-alikes: encrypted with the key, encrypted without one, a key with a token encrypted", () => {
    expect(() => build("EC2NodeClass", ebs({ kmsKeyID: KEY, encrypted: true }))).not.toThrow();
    expect(() => build("EC2NodeClass", ebs({ encrypted: true }))).not.toThrow();
    expect(() => build("EC2NodeClass", ebs({ encrypted: false }))).not.toThrow();
    expect(() =>
      build("EC2NodeClass", ebs({ kmsKeyID: KEY, encrypted: Token.asAny("${var.encrypted}") as unknown as boolean })),
    ).not.toThrow();
  });
});

test("kmsKeyID without encrypted: true is a refusal the agreement stage excuses", () => {
  const ag = require("../../scripts/e2e/agreement.cjs");
  const key = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";
  for (const p of rejection("EC2NodeClass", ebs({ kmsKeyID: key })).problems)
    expect(ag.semanticRuleOf(p, "1.14.1")?.id).toBe("ebs-kms-key-unencrypted");
});

describe("block device mappings EC2 refuses beyond the CRD (fresh tester 3.24, 3.30, 3.13)", () => {
  const al2023 = (...blockDeviceMappings: any[]) => ({
    amiSelectorTerms: [{ alias: "al2023@latest" }],
    blockDeviceMappings,
  });
  const ag = require("../../scripts/e2e/agreement.cjs");
  test("one deviceName in two mappings is refused on the second", () => {
    const e = rejection(
      "EC2NodeClass",
      al2023(
        { deviceName: "/dev/xvda", ebs: { volumeSize: "20Gi" } },
        { deviceName: "/dev/xvdb", ebs: { volumeSize: "20Gi" } },
        { deviceName: "/dev/xvda", ebs: { volumeSize: "50Gi" } },
      ),
    );
    expect(e.code).toBe("EC2NODECLASS_DEVICE_NAME_TWICE");
    expect(e.field).toBe("blockDeviceMappings[2].deviceName");
    expect(e.message).toContain('blockDeviceMappings[0] already maps "/dev/xvda"');
    expect(e.message).toContain("InvalidBlockDeviceMapping");
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("ebs-device-name-twice");
  });
  test("a malformed snapshotID is refused", () => {
    const e = rejection("EC2NodeClass", al2023({ deviceName: "/dev/xvdb", ebs: { snapshotID: "snap-xyz" } }));
    expect(e.code).toBe("EC2NODECLASS_EBS_SNAPSHOT_ID");
    expect(e.field).toBe("blockDeviceMappings[0].ebs.snapshotID");
    expect(e.message).toContain("InvalidSnapshotID.Malformed");
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("ebs-snapshot-id");
    expect(
      rejection("EC2NodeClass", al2023({ deviceName: "/dev/xvdb", ebs: { snapshotID: "snap-0123456789ABCDEF0" } }))
        .code,
    ).toBe("EC2NODECLASS_EBS_SNAPSHOT_ID");
  });
  test.each([
    ["st1 on AL2023's /dev/xvda", "al2023@latest", "/dev/xvda", "st1"],
    ["sc1 on Bottlerocket's /dev/xvda", "bottlerocket@latest", "/dev/xvda", "sc1"],
    ["st1 on Windows' /dev/sda1", "windows2022@latest", "/dev/sda1", "st1"],
  ])("%s (the boot device) is refused: HDD volumes cannot boot", (_d, alias, deviceName, volumeType) => {
    const e = rejection("EC2NodeClass", {
      amiSelectorTerms: [{ alias }],
      blockDeviceMappings: [{ deviceName, ebs: { volumeSize: "500Gi", volumeType: volumeType as any } }],
    });
    expect(e.code).toBe("EC2NODECLASS_EBS_HDD_BOOT_VOLUME");
    expect(e.field).toBe("blockDeviceMappings[0].ebs.volumeType");
    expect(e.message).toContain("volumes cannot be boot volumes");
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("ebs-hdd-boot-volume");
  });
  test("all three at once, beside a CRD-pass problem", () => {
    const e = rejection(
      "EC2NodeClass",
      al2023(
        { deviceName: "/dev/xvda", ebs: { volumeSize: "500Gi", volumeType: "st1" } },
        { deviceName: "/dev/xvda", ebs: { volumeSize: "20Gi", snapshotID: "snap-1" } },
        { deviceName: "/dev/xvdc", ebs: { volumeSize: "10Gi", volumeType: "sc1" } },
      ),
    );
    expect(e.problems.map((p) => p.code).sort()).toEqual([
      "EC2NODECLASS_DEVICE_NAME_TWICE",
      "EC2NODECLASS_EBS_HDD_BOOT_VOLUME",
      "EC2NODECLASS_EBS_SNAPSHOT_ID",
      "EC2NODECLASS_EBS_VOLUME_SIZE",
    ]);
  });
  test("look-alikes pass: distinct device names, well-formed snapshot IDs, st1 / sc1 on a data device, gp3 on the boot device, a Custom AMI", () => {
    expect(() =>
      build(
        "EC2NodeClass",
        al2023(
          { deviceName: "/dev/xvda", ebs: { volumeSize: "20Gi", volumeType: "gp3" }, rootVolume: true },
          {
            deviceName: "/dev/xvdb",
            ebs: { volumeSize: "500Gi", volumeType: "st1", snapshotID: "snap-0123456789abcdef0" },
          },
          { deviceName: "/dev/xvdc", ebs: { volumeSize: "500Gi", volumeType: "sc1", snapshotID: "snap-01234567" } },
        ),
      ),
    ).not.toThrow();
    // Bottlerocket's data volume /dev/xvdb is no boot volume
    expect(() =>
      build("EC2NodeClass", {
        amiSelectorTerms: [{ alias: "bottlerocket@latest" }],
        blockDeviceMappings: [
          { deviceName: "/dev/xvdb", ebs: { volumeSize: "500Gi", volumeType: "st1" }, rootVolume: true },
        ],
      }),
    ).not.toThrow();
    // a Custom AMI's boot device is not known
    expect(() =>
      build("EC2NodeClass", {
        amiFamily: "Custom",
        amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }],
        blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: "500Gi", volumeType: "st1" } }],
      }),
    ).not.toThrow();
  });
});
