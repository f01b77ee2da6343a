import { nodeRolePolicyNames } from "../../lib/aws/node-role-policies";
import { resolveKarpenterVersion } from "../../lib/versions/karpenter-version";
import { loadReference, referenceVersions } from "../cfn-reference";
import { describeWithReference } from "../reference";

const names = (version: string) => nodeRolePolicyNames(resolveKarpenterVersion("test", version));
const referenceVersionList = referenceVersions();
const withReference = describeWithReference(referenceVersionList);

withReference("node role policy table = upstream CloudFormation, every reference version", () => {
  test.each(referenceVersionList)("%s", (version) => {
    const ref = loadReference(version);
    expect(names(version).map((n) => `arn:{partition}:iam::aws:policy/${n}`)).toEqual(ref.nodeRolePolicyArns);
    expect(ref.nodeRoleTrustService).toBe("ec2.{url_suffix}");
  });
});

describe("node role policy table, spot checks", () => {
  test("ECR ReadOnly up to 1.3", () => {
    expect(names("1.3.8")).toEqual([
      "AmazonEKS_CNI_Policy",
      "AmazonEKSWorkerNodePolicy",
      "AmazonEC2ContainerRegistryReadOnly",
      "AmazonSSMManagedInstanceCore",
    ]);
  });

  test("ECR PullOnly from 1.4 (also 1.4.0 and 1.14)", () => {
    for (const v of ["1.4.0", "1.14.1"]) {
      expect(names(v)).toEqual([
        "AmazonEKS_CNI_Policy",
        "AmazonEKSWorkerNodePolicy",
        "AmazonEC2ContainerRegistryPullOnly",
        "AmazonSSMManagedInstanceCore",
      ]);
    }
  });
});
