import { convertLegacyManifests } from "../../lib/convert";
import { build, Props, rejection, req } from "./node-props";

/*
 * The third fresh tester's findings (fresh3-report.md): a deprecated zone key whose value no node of the region
 * carries, EBS sizes above what gp2 and magnetic volumes take, a value whose toJSON throws described as a cycle,
 * and the converter on a label key named like an Object property (the constructs: test/core/prototype-keys).
 * Each invalid input has a valid look-alike that passes.
 */

const ag = require("../../scripts/e2e/agreement.cjs");

describe("a requirement's deprecated key is judged as the stable key Karpenter reads it as (NormalizedLabels)", () => {
  test("failure-domain.beta.kubernetes.io/zone In a zone of another region is refused as topology.kubernetes.io/zone", () => {
    // test/nodes/node-props builds in us-east-1
    const e = rejection("NodePool", {
      requirements: [req("failure-domain.beta.kubernetes.io/zone", "In", ["eu-west-1a"])],
    });
    expect(e.code).toBe("NODE_ZONE");
    expect(e.field).toBe("requirements[0].values[0]");
  });
  test("beta.kubernetes.io/arch In x86 gets the arch rule and its did-you-mean", () => {
    const e = rejection("NodePool", { requirements: [req("beta.kubernetes.io/arch", "In", ["x86"])] });
    expect(e.code).toBe("NODE_REQUIREMENT_VALUE_UNKNOWN");
    expect(e.message).toContain('write "amd64"');
  });
  test("look-alikes: a zone of the region, amd64", () => {
    expect(() =>
      build("NodePool", {
        requirements: [
          req("failure-domain.beta.kubernetes.io/zone", "In", ["us-east-1a"]),
          req("beta.kubernetes.io/arch", "In", ["amd64"]),
        ],
      }),
    ).not.toThrow();
  });
});

describe("EBS size ceilings of standard and gp2 (EC2 API Reference, EbsBlockDevice VolumeSize)", () => {
  const ebs = (volumeType: string, volumeSize: string, more: object = {}) =>
    ({ blockDeviceMappings: [{ deviceName: "/dev/xvdb", ebs: { volumeType, volumeSize, ...more } }] }) as Props;
  test.each([
    ["standard", "2Ti", "at most 1,024 GiB"],
    ["standard", "1025Gi", "at most 1,024 GiB"],
    ["gp2", "16385Gi", "at most 16,384 GiB"],
    ["gp2", "18T", "at most 16,384 GiB"],
  ])("%s %s is refused", (type, size, text) => {
    const e = rejection("EC2NodeClass", ebs(type, size));
    expect(e.code).toBe("EC2NODECLASS_EBS_VOLUME_SIZE");
    expect(e.field).toBe("blockDeviceMappings[0].ebs.volumeSize");
    expect(e.message).toContain(text);
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("ebs-limits");
  });
  test.each([
    ["standard", "1024Gi"],
    ["standard", "1Ti"],
    ["gp2", "16384Gi"],
    ["gp2", "16Ti"],
    ["gp3", "20Ti"],
    ["io2", "50Ti"],
  ])("look-alike %s %s passes (gp3 and io2 take larger volumes)", (type, size) => {
    expect(() => build("EC2NodeClass", ebs(type, size, type === "io2" ? { iops: 3000 } : {}))).not.toThrow();
  });
});

describe("a value JSON cannot write is described as such, not as a cycle", () => {
  test("a toJSON that throws", () => {
    const bad = {
      toJSON() {
        throw new Error("nope");
      },
    };
    const e = rejection("NodePool", { labels: { team: bad as unknown as string } });
    expect(e.code).toBe("NODEPOOL_NOT_A_STRING");
    expect(e.message).toContain("(an object that cannot be written as JSON: nope)");
    expect(e.message).not.toContain("contains itself");
  });
});

describe("the converter on keys named like Object properties (fresh tester 3, CL15 / CL17)", () => {
  test("a v1 NodePool template label 'constructor' and a NodeOverlay requirement key 'toString' convert", () => {
    const r = convertLegacyManifests(`apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: np}
spec:
  template:
    metadata: {labels: {constructor: a}}
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: d}
      requirements: [{key: hasOwnProperty, operator: In, values: [x]}]
---
apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata: {name: o}
spec:
  requirements: [{key: toString, operator: In, values: [a]}]
  priceAdjustment: "-10%"
`);
    expect(r.nodePools[0].props.labels).toEqual({ constructor: "a" });
    expect(r.nodeOverlays[0].props.requirements?.[0].key).toBe("toString");
  });
});

describe("EBS kmsKeyID in one of EC2's four forms, of the cluster's region (EbsBlockDevice KmsKeyId)", () => {
  const kms = (kmsKeyID: string) =>
    ({
      blockDeviceMappings: [{ deviceName: "/dev/xvdb", ebs: { volumeSize: "20Gi", encrypted: true, kmsKeyID } }],
    }) as Props;
  test.each([
    ["my-key", "EC2NODECLASS_EBS_KMS_KEY_ID", 'written with its prefix: "alias/my-key"'],
    ["1234abcd", "EC2NODECLASS_EBS_KMS_KEY_ID", "a key ID"],
    ["arn:aws:kms:us-east-1:123456789012:secret/x", "EC2NODECLASS_EBS_KMS_KEY_ID", "a key ARN"],
    [
      "arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
      "EC2NODECLASS_EBS_KMS_KEY_REGION",
      "names a key in eu-west-1",
    ],
  ])("%s is refused", (key, code, text) => {
    // test/nodes/node-props builds in us-east-1
    const e = rejection("EC2NodeClass", kms(key));
    expect(e.code).toBe(code);
    expect(e.field).toBe("blockDeviceMappings[0].ebs.kmsKeyID");
    expect(e.message).toContain(text);
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("ebs-kms-key-form");
  });
  test.each([
    "1234abcd-12ab-34cd-56ef-1234567890ab",
    "mrk-1234abcd12ab34cd56ef1234567890ab",
    "alias/ebs-nodes",
    "alias/aws/ebs",
    "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
    "arn:aws:kms:us-east-1:123456789012:alias/ebs-nodes",
  ])("look-alike %s passes", (key) => {
    expect(() => build("EC2NodeClass", kms(key))).not.toThrow();
  });
});
