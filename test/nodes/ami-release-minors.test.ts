import { TerraformStack, Testing } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { rejected } from "../helpers";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { validateApp } from "../../lib/install/validate-app";

/*
 * A pinned AMI alias release that shipped no AMI for the cluster's Kubernetes minor (lib/nodes/ami-release-minors.ts):
 * Karpenter's SSM parameter names the minor and the release, so none exists and the class never becomes Ready.
 */

/** An EC2NodeClass with `alias` on a cluster of this app on Kubernetes `k8s` (a literal, or none given). */
function nodeClass(alias: string, k8s?: string): Ec2NodeClass {
  const app = Testing.app();
  const stack = new TerraformStack(app, "nodes");
  new AwsProvider(stack, "aws", { region: "eu-west-1" });
  const eks = new EksCluster(stack, "eks", {
    name: "prod",
    ...(k8s === undefined ? {} : { version: k8s }),
    roleArn: "arn:aws:iam::123456789012:role/eks",
    vpcConfig: { subnetIds: ["subnet-00000001"] },
  });
  return new Ec2NodeClass(stack, "class", {
    cluster: KarpenterCluster.fromEksCluster(eks),
    role: "KarpenterNodeRole-prod",
    subnetSelectorTerms: [{ id: "subnet-00000001" }],
    securityGroupSelectorTerms: [{ id: "sg-00000001" }],
    amiSelectorTerms: [{ alias }],
  });
}

/** The warnings of the app, to see that a passing class is not warned of the release either. */
function warnings(cls: Ec2NodeClass): string[] {
  return validateApp(cls.node.root).warnings.map((w) => w.message);
}

describe("EC2NodeClass: a pinned AMI release without the cluster's Kubernetes minor", () => {
  test.each([
    [
      "al2023@v20250505",
      "1.33",
      [
        "a release that shipped AL2023 AMIs for Kubernetes 1.33",
        '"al2023@v20250519" (the first release that did)',
        "EKS AMI release v20250505 shipped AL2023 AMIs for Kubernetes 1.26–1.32 only",
        "amazon-eks-node-al2023-<arch>-<variant>-1.33-v20250505/image_id, does not exist",
      ],
    ],
    [
      "al2023@v20250505",
      "1.36",
      ['"al2023@v20260610" (the first release that did)', "Kubernetes 1.26–1.32 only", "never becomes Ready"],
    ],
    [
      "bottlerocket@v1.20.3",
      "1.36",
      [
        "a release that shipped Bottlerocket AMIs for Kubernetes 1.36",
        "a release after v1.26.0",
        "Bottlerocket v1.20.3 has the variants aws-k8s-1.23–1.30 only",
        "/aws/service/bottlerocket/aws-k8s-1.36[-nvidia]/<arch>/1.20.3/image_id, do not exist",
      ],
    ],
    // fresh tester 45: 7f, 7m, 7s
    [
      "al2023@v20240117",
      "1.33",
      [
        'a release that shipped AL2023 AMIs, such as "al2023@v20240213" (the first)',
        "EKS AMI release v20240117 shipped AL2 AMIs only",
        "amazon-eks-node-al2023-<arch>-<variant>-1.33-v20240117/image_id, does not exist",
      ],
    ],
    [
      "al2@v20240117",
      "1.31",
      [
        "a release that shipped AL2 AMIs for Kubernetes 1.31",
        "EKS AMI release v20240117 shipped AL2 AMIs for Kubernetes 1.23–1.29 only",
        '"failed to discover any AMIs for alias"',
        "al2.go:43-73",
      ],
    ],
    ["al2@v20240703", "1.32", ["Kubernetes 1.21–1.30 only", "(the first release that did)"]],
    // fresh tester 46: P8, P25 (releases after the last AL2 AMIs), with or without the cluster's version
    [
      "al2@v20260114",
      "1.32",
      [
        'a release that shipped AL2 AMIs, such as "al2@v20251209" (the last)',
        "EKS AMI release v20260114 shipped no AL2 AMIs",
      ],
    ],
    ["al2@v20260714", undefined, ["shipped no AL2 AMIs", "/aws/service/eks/optimized-ami/<k8s>/amazon-linux-2"]],
    ["al2023@v20240117", undefined, ["EKS AMI release v20240117 shipped AL2 AMIs only"]],
    // fresh tester 47: A15, A26 (a minor newer than every release of the table)
    [
      "al2023@v20260714",
      "1.37",
      [
        "such as a release after v20260714 (the first with AL2023 AMIs for 1.37 is newer than every release this library reads)",
        "EKS AMI release v20260714 shipped AL2023 AMIs for Kubernetes 1.30–1.36 only",
      ],
    ],
    ["al2023@v20260625", "1.37", ["a release after v20260714"]],
  ] as [string, string | undefined, string[]][])("%s on %s is refused", (alias, k8s, parts) => {
    const e = rejected(() => nodeClass(alias, k8s));
    expect(e.code).toBe("EC2NODECLASS_AMI_ALIAS_KUBERNETES");
    expect(e.field).toBe("amiSelectorTerms[0].alias");
    expect(e.value).toBe(alias);
    for (const part of parts) expect(e.message).toContain(part);
  });

  test("a date that is no release suggests the nearest releases with AMIs of the alias's family (fresh tester 46: P26)", () => {
    const w = warnings(nodeClass("al2@v20251210")).find((m) => m.includes("names no EKS AMI release"));
    expect(w).toContain("the nearest with AL2 AMIs: v20251209)");
    expect(w).toContain('e.g. "al2@v20251209"');
    expect(w).toContain("pkg/providers/amifamily/al2.go:43-73");
  });

  test("an abandoned release is named as such (fresh tester 47: A12)", () => {
    const w = warnings(nodeClass("al2023@v20260311", "1.35")).find((m) => m.includes("abandoned"));
    expect(w).toContain(
      'names an abandoned EKS AMI release: awslabs/amazon-eks-ami\'s CHANGELOG.md marks v20260311 "[ABANDONED]"',
    );
    expect(w).toContain("so it published no AMIs");
  });

  test("a minor a Bottlerocket release dropped suggests the last release that had it", () => {
    const e = rejected(() => nodeClass("bottlerocket@v1.25.0", "1.23"));
    expect(e.message).toContain('"bottlerocket@v1.24.1" (the last release that did)');
  });

  test.each([
    ["al2023@v20250519", "1.33"],
    ["al2023@v20250505", "1.32"],
    ["al2023@v20250505", undefined],
    ["bottlerocket@v1.20.3", "1.30"],
    ["bottlerocket@1.20.3", "1.30"],
    ["bottlerocket@v1.46.0", "1.36"],
    ["al2023@v20991231", "1.36"],
    ["al2023@latest", "1.36"],
    ["al2023@v20240213", "1.29"],
    ["al2@v20240117", "1.29"],
    ["al2@v20240703", "1.30"],
    ["al2@latest", "1.31"],
  ])("%s on %s passes", (alias, k8s) => {
    const cls = nodeClass(alias, k8s);
    expect(warnings(cls).filter((w) => /shipped|names no EKS AMI release/.test(w))).toEqual([]);
  });
});
