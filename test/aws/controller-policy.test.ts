import { controllerPolicyGroups, ControllerPolicyGroup } from "../../lib/aws/controller-policy";
import { IamStatementJson } from "../../lib/aws-api/iam";
import { KNOWN_RELEASES, resolveKarpenterVersion } from "../../lib/versions/karpenter-version";
import { errataCorrections, loadReference, referenceVersions, SYMBOLS } from "../cfn-reference";
import { describeWithReference } from "../reference";

const groupsOf = (version: string, symbols = SYMBOLS) =>
  controllerPolicyGroups(resolveKarpenterVersion("test", version), symbols);
const statements = (groups: ControllerPolicyGroup[]) => groups.flatMap((g) => g.statements);
const sid = (groups: ControllerPolicyGroup[], name: string): IamStatementJson => {
  const s = statements(groups).find((x) => x.Sid === name);
  if (!s) throw new Error(`no statement ${name}`);
  return s;
};

// The harness's worst case: 100-character cluster name, aws-us-gov, longest region, maximal queue and role ARNs.
const WORST: Record<string, string> = {
  "{cluster}": "c".repeat(100),
  "{region}": "ap-southeast-3",
  "{partition}": "aws-us-gov",
  "{account}": "123456789012",
  "{queue_arn}": "arn:aws-us-gov:sqs:us-gov-west-1:123456789012:" + "q".repeat(80),
  "{node_role_arn}": "arn:aws-us-gov:iam::123456789012:role/" + "r".repeat(64),
  "{kms_key_arn}": "arn:aws-us-gov:kms:us-gov-west-1:123456789012:key/" + "k".repeat(36),
};
const worstSize = (st: IamStatementJson[]) =>
  JSON.stringify({ Version: "2012-10-17", Statement: st })
    .replace(/\{[a-z_]+\}/g, (k) => WORST[k])
    .replace(/\s/g, "").length;

const referenceVersionList = referenceVersions();
const withReference = describeWithReference(referenceVersionList);

/** The template's statements with the errata (ERRATA.json) corrections in place of the shipped ones. */
const corrected = (version: string, st: any[]) => {
  const fix = errataCorrections(version);
  return st.map((s) => fix[s.Sid] ?? s);
};

withReference(
  "controller policy table = upstream CloudFormation with the errata corrected, every reference version",
  () => {
    test.each(referenceVersionList)("%s: same statements by Sid, exactly", (version) => {
      const ref = loadReference(version);
      const official = Object.fromEntries(
        corrected(
          version,
          ref.policies.flatMap((p) => p.statements),
        ).map((s) => [s.Sid, s]),
      );
      const ours = Object.fromEntries(statements(groupsOf(version)).map((s) => [s.Sid, s]));
      expect(ours).toEqual(official);
    });

    test.each(referenceVersionList)(
      "%s: upstream layout (one policy before 1.9, our grouping = upstream's from 1.9)",
      (version) => {
        const ref = loadReference(version);
        const ours = groupsOf(version);
        if (resolveKarpenterVersion("test", version).atLeast("1.9")) {
          expect(ours.map((g) => `KarpenterController${g.key}Policy-{cluster}`).sort()).toEqual(
            ref.policies.map((p) => p.name).sort(),
          );
          for (const p of ref.policies) {
            const g = ours.find((x) => `KarpenterController${x.key}Policy-{cluster}` === p.name)!;
            expect(g.statements).toEqual(corrected(version, p.statements)); // same statements, same order
          }
        } else {
          expect(ref.policies.map((p) => p.name)).toEqual(["KarpenterControllerPolicy-{cluster}"]);
        }
      },
    );
  },
);

describe("controller policy table, spot checks read from the templates", () => {
  test("1.0: 16 Sids, DescribeAvailabilityZones; PassedToService with the China service name (erratum passrole-china-partition)", () => {
    const g = groupsOf("1.0.14");
    expect(statements(g)).toHaveLength(16);
    expect(sid(g, "AllowRegionalReadActions").Action).toContain("ec2:DescribeAvailabilityZones");
    // upstream's 1.0 template has only "ec2.amazonaws.com", which denies PassRole in aws-cn (fixed in 1.1, PR #6839)
    expect(sid(g, "AllowPassingInstanceRole").Condition).toEqual({
      StringEquals: { "iam:PassedToService": ["ec2.amazonaws.com", "ec2.amazonaws.com.cn"] },
    });
    expect(sid(groupsOf("1.0.0"), "AllowPassingInstanceRole").Condition).toEqual(
      sid(g, "AllowPassingInstanceRole").Condition,
    );
    expect(statements(g).map((s) => s.Sid)).not.toContain("AllowUnscopedInstanceProfileListAction");
  });

  test("1.1: DescribeAvailabilityZones gone, PassedToService lists the China service name", () => {
    const g = groupsOf("1.1.10");
    expect(sid(g, "AllowRegionalReadActions").Action).not.toContain("ec2:DescribeAvailabilityZones");
    expect(sid(g, "AllowPassingInstanceRole").Condition).toEqual({
      StringEquals: { "iam:PassedToService": ["ec2.amazonaws.com", "ec2.amazonaws.com.cn"] },
    });
  });

  test("1.3 to 1.8: capacity reservations in two statements; 1.9 keeps only the first", () => {
    const cr = "arn:{partition}:ec2:{region}:*:capacity-reservation/*";
    for (const v of ["1.3.8", "1.8.8"]) {
      expect(sid(groupsOf(v), "AllowScopedEC2InstanceAccessActions").Resource).toContain(cr);
      expect(sid(groupsOf(v), "AllowScopedEC2InstanceActionsWithTags").Resource).toContain(cr);
      expect(sid(groupsOf(v), "AllowRegionalReadActions").Action).toContain("ec2:DescribeCapacityReservations");
    }
    expect(sid(groupsOf("1.2.8"), "AllowScopedEC2InstanceAccessActions").Resource).not.toContain(cr);
    expect(sid(groupsOf("1.9.2"), "AllowScopedEC2InstanceAccessActions").Resource).toContain(cr);
    expect(sid(groupsOf("1.9.2"), "AllowScopedEC2InstanceActionsWithTags").Resource).not.toContain(cr);
  });

  test("1.7: iam:ListInstanceProfiles on * without condition (17 Sids)", () => {
    const g = groupsOf("1.7.6");
    expect(sid(g, "AllowUnscopedInstanceProfileListAction")).toEqual({
      Sid: "AllowUnscopedInstanceProfileListAction",
      Effect: "Allow",
      Resource: "*",
      Action: "iam:ListInstanceProfiles",
    });
    expect(statements(g)).toHaveLength(17);
  });

  test("1.11: placement groups", () => {
    const g = groupsOf("1.11.3");
    expect(sid(g, "AllowScopedEC2InstanceAccessActions").Resource).toContain(
      "arn:{partition}:ec2:{region}:*:placement-group/*",
    );
    expect(sid(g, "AllowRegionalReadActions").Action).toContain("ec2:DescribePlacementGroups");
    expect(sid(groupsOf("1.10.2"), "AllowRegionalReadActions").Action).not.toContain("ec2:DescribePlacementGroups");
  });

  test("1.12: ZonalShift policy scoped by condition (erratum zonal-shift-resource-scope), DescribeInstanceStatus on its own (19 Sids)", () => {
    const g = groupsOf("1.12.2");
    expect(g.map((x) => x.key)).toEqual([
      "NodeLifecycle",
      "IAMIntegration",
      "EKSIntegration",
      "Interruption",
      "ZonalShift",
      "ResourceDiscovery",
    ]);
    // upstream's 1.12 template scopes Resource to the cluster ARN, which GetManagedResource does not support (fixed in 1.13, PR #9123)
    for (const v of ["1.12.0", "1.12.2"]) {
      expect(sid(groupsOf(v), "AllowZonalShiftStatusReadOnly")).toEqual({
        Sid: "AllowZonalShiftStatusReadOnly",
        Effect: "Allow",
        Resource: "*",
        Action: ["arc-zonal-shift:GetManagedResource"],
        Condition: {
          StringEquals: {
            "arc-zonal-shift:ResourceIdentifier": "arn:{partition}:eks:{region}:{account}:cluster/{cluster}",
          },
        },
      });
    }
    expect(sid(g, "AllowUnscopedEC2DescribeInstanceStatus")).toEqual({
      Sid: "AllowUnscopedEC2DescribeInstanceStatus",
      Effect: "Allow",
      Resource: "*",
      Action: "ec2:DescribeInstanceStatus",
    });
    expect(statements(g)).toHaveLength(19);
  });

  test("1.13 and 1.14: ZonalShift scoped by condition, DescribeInstanceStatus under the region condition (18 Sids)", () => {
    for (const v of ["1.13.1", "1.14.1"]) {
      const g = groupsOf(v);
      expect(sid(g, "AllowZonalShiftStatusReadOnly")).toEqual({
        Sid: "AllowZonalShiftStatusReadOnly",
        Effect: "Allow",
        Resource: "*",
        Action: ["arc-zonal-shift:GetManagedResource"],
        Condition: {
          StringEquals: {
            "arc-zonal-shift:ResourceIdentifier": "arn:{partition}:eks:{region}:{account}:cluster/{cluster}",
          },
        },
      });
      expect(sid(g, "AllowRegionalReadActions")).toEqual({
        Sid: "AllowRegionalReadActions",
        Effect: "Allow",
        Resource: "*",
        Action: [
          "ec2:DescribeCapacityReservations",
          "ec2:DescribeImages",
          "ec2:DescribeInstances",
          "ec2:DescribeInstanceStatus",
          "ec2:DescribeInstanceTypeOfferings",
          "ec2:DescribeInstanceTypes",
          "ec2:DescribeLaunchTemplates",
          "ec2:DescribePlacementGroups",
          "ec2:DescribeSecurityGroups",
          "ec2:DescribeSpotPriceHistory",
          "ec2:DescribeSubnets",
        ],
        Condition: { StringEquals: { "aws:RequestedRegion": "{region}" } },
      });
      expect(statements(g)).toHaveLength(18);
    }
  });

  test("the cluster name reaches condition keys and values", () => {
    expect(sid(groupsOf("1.14.1"), "AllowScopedResourceTagging").Condition).toEqual({
      StringEquals: { "aws:ResourceTag/kubernetes.io/cluster/{cluster}": "owned" },
      StringLike: { "aws:ResourceTag/karpenter.sh/nodepool": "*" },
      StringEqualsIfExists: { "aws:RequestTag/eks:eks-cluster-name": "{cluster}" },
      "ForAllValues:StringEquals": { "aws:TagKeys": ["eks:eks-cluster-name", "karpenter.sh/nodeclaim", "Name"] },
    });
  });

  test("no queue: no Interruption group; a KMS key adds kms:Decrypt in its own Sid", () => {
    const noQueue = groupsOf("1.14.1", { ...SYMBOLS, queueArn: undefined } as any);
    expect(noQueue.map((g) => g.key)).not.toContain("Interruption");
    const kms = groupsOf("1.14.1", { ...SYMBOLS, kmsKeyArn: "{kms_key_arn}" } as any);
    expect(kms.find((g) => g.key === "Interruption")!.statements).toEqual([
      {
        Sid: "AllowInterruptionQueueActions",
        Effect: "Allow",
        Resource: "{queue_arn}",
        Action: ["sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage"],
      },
      { Sid: "AllowInterruptionQueueDecryption", Effect: "Allow", Resource: "{kms_key_arn}", Action: "kms:Decrypt" },
    ]);
  });
});

describe("controller policy size: 100-character cluster name in aws-us-gov", () => {
  test.each([...KNOWN_RELEASES])("%s: every managed policy is at most 6,144 characters", (version) => {
    for (const g of groupsOf(version, { ...SYMBOLS, kmsKeyArn: "{kms_key_arn}" } as any))
      expect(worstSize(g.statements)).toBeLessThanOrEqual(6144);
  });

  test("the upstream single pre-1.9 policy would not fit, which is why every version is split", () => {
    expect(worstSize(statements(groupsOf("1.0.14")))).toBeGreaterThan(6144);
    expect(worstSize(statements(groupsOf("1.8.8")))).toBeGreaterThan(6144);
  });
});
