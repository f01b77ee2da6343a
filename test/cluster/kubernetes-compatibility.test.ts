import { TerraformStack, TerraformVariable } from "cdktf";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { IKarpenterCluster, KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { checkKubernetesCompatibility, supportedKubernetesVersions } from "../../lib/cluster/kubernetes-compatibility";
import { resolveKarpenterVersion } from "../../lib/versions/karpenter-version";
import { testStack } from "../helpers";

function clusterWith(version?: string | ((stack: TerraformStack) => string)) {
  const { stack } = testStack();
  if (typeof version === "function") version = version(stack);
  const eks = new EksCluster(stack, "cluster", {
    name: "demo",
    version,
    roleArn: "arn:aws:iam::123456789012:role/c",
    vpcConfig: { subnetIds: ["subnet-00000001"] },
  });
  return { stack, cluster: KarpenterCluster.fromEksCluster(eks) };
}

const warningsOf = (stack: ReturnType<typeof testStack>["stack"]) =>
  stack.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));

describe("Kubernetes compatibility", () => {
  // values from pkg/providers/version/version.go (MinK8sVersion / MaxK8sVersion) at these tags
  test.each([
    ["1.0.0", 25, 30],
    ["1.0.4", 25, 30],
    ["1.0.5", 25, 31],
    ["1.1.10", 25, 31],
    ["1.4.4", 25, 32],
    ["1.5.0", 26, 33],
    ["1.6.5", 26, 33],
    ["1.6.6", 26, 34],
    ["1.7.3", 26, 33],
    ["1.7.4", 26, 34],
    ["1.8.8", 26, 34],
    ["1.9.0", 26, 35],
    ["1.12.2", 26, 35],
    ["1.13.0", 26, 36],
    ["1.14.9", 26, 36],
  ])("Karpenter %s runs on Kubernetes 1.%i to 1.%i", (version, min, max) => {
    expect(supportedKubernetesVersions(version)).toEqual({ oldest: `1.${min}`, newest: `1.${max}` });
  });

  test.each([
    ["1.34", "1.0.14", "Kubernetes 1.34 needs Karpenter 1.6.6–1.6.8 or 1.7.4 and later"],
    ["1.31", "1.0.4", "Kubernetes 1.31 needs Karpenter 1.0.5 and later"],
    ["1.25", "1.14.1", "Kubernetes 1.25 needs Karpenter 1.0.0–1.4.4"],
    ["1.36", "1.12.2", "Kubernetes 1.36 needs Karpenter 1.13.0 and later"],
    ["1.24", "1.0.14", "no Karpenter 1.x release supports Kubernetes 1.24: upgrade the cluster to 1.25 or later"],
  ])(
    "Kubernetes %s with Karpenter %s: the error names the releases that support it, patch ranges included",
    (k8s, version, needs) => {
      const { stack, cluster } = clusterWith(k8s);
      expect(() =>
        checkKubernetesCompatibility(stack, "version", resolveKarpenterVersion("t", version), cluster),
      ).toThrow(`; ${needs} (Karpenter compatibility matrix)`);
    },
  );

  test("the cluster's version is known from a literal kubernetesVersion or the EksCluster's version argument, never from a token", () => {
    const old = resolveKarpenterVersion("t", "1.0.14"); // supports 1.25 to 1.31
    const judged = (c: { stack: TerraformStack; cluster: IKarpenterCluster }) => () =>
      checkKubernetesCompatibility(c.stack, "version", old, c.cluster);
    expect(judged(clusterWith("1.34"))).toThrow(/cluster demo runs Kubernetes 1\.34/);
    expect(judged(clusterWith("v1.34.2"))).toThrow(/cluster = "v1\.34\.2" is invalid: .*write "1\.34"/);
    // a literal cluster attribute counts even when the EksCluster has no version argument
    const { stack } = testStack();
    const literal: IKarpenterCluster = {
      ...KarpenterCluster.fromClusterName(stack, "existing", "prod"),
      kubernetesVersion: "1.34",
    };
    expect(judged({ stack, cluster: literal })).toThrow(/cluster prod runs Kubernetes 1\.34/);
    // unknown at synth: EKS picks the version, a token, a data source, or not a version at all
    expect(judged(clusterWith())).not.toThrow();
    expect(judged(clusterWith((s) => new TerraformVariable(s, "k8s", { type: "string" }).stringValue))).not.toThrow();
    expect(judged({ stack, cluster: KarpenterCluster.fromClusterName(stack, "other", "prod") })).not.toThrow();
    expect(judged(clusterWith("latest"))).toThrow(
      /cluster = "latest" is invalid: the version of test\/cluster \(aws_eks_cluster.version\) as EKS takes it/,
    );
  });

  test("outside the range: an error on the field naming the version, both ranges and the releases to use", () => {
    const { stack, cluster } = clusterWith("1.34");
    expect(() =>
      checkKubernetesCompatibility(stack, "version", resolveKarpenterVersion("t", "1.0.14"), cluster),
    ).toThrow(
      'test: version = "1.0.14" is invalid: Karpenter 1.0.14 supports Kubernetes 1.25 to 1.31, and cluster demo runs Kubernetes 1.34: newer than the newest it supports, a combination upstream neither tests nor supports: nothing stops the controller (where its own version check, MinK8sVersion / MaxK8sVersion, refuses the version too, it only logs an error when it discovers the version, at most once a day), and it launches and disrupts nodes on behaviour nobody verified; Kubernetes 1.34 needs Karpenter 1.6.6–1.6.8 or 1.7.4 and later (Karpenter compatibility matrix)',
    );
    expect(() =>
      checkKubernetesCompatibility(stack, "version", resolveKarpenterVersion("t", "1.7.3"), cluster),
    ).toThrow(/Karpenter 1\.7\.3 supports Kubernetes 1\.26 to 1\.33/);
    expect(() =>
      checkKubernetesCompatibility(stack, "version", resolveKarpenterVersion("t", "1.7.4"), cluster),
    ).not.toThrow();
    const old = clusterWith("1.24");
    expect(() =>
      checkKubernetesCompatibility(old.stack, "version", resolveKarpenterVersion("t", "1.14.1"), old.cluster),
    ).toThrow(/no Karpenter 1\.x release supports Kubernetes 1\.24: upgrade the cluster to 1\.26 or later/);
    // below the matrix's oldest: the matrix (1.31) is stricter than the controller's check (MinK8sVersion 1.26), so the
    // message does not claim the controller refuses to start
    const below = clusterWith("1.28");
    const belowCheck = () =>
      checkKubernetesCompatibility(below.stack, "version", resolveKarpenterVersion("t", "1.15.0"), below.cluster);
    expect(belowCheck).toThrow(
      /supports Kubernetes 1\.31 to 1\.37, and cluster demo runs Kubernetes 1\.28: older than the oldest it supports, a combination upstream neither tests nor supports: nothing stops the controller \(where its own version check, MinK8sVersion \/ MaxK8sVersion, refuses the version too/,
    );
    expect(belowCheck).not.toThrow(/refuse to start/);
    expect(warningsOf(stack)).toEqual([]);
  });

  // once per install: a Karpenter checks, and the KarpenterRelease it builds skips the check (test/install/karpenter.test.ts)
  test("Kubernetes newer than the table: a warning when the version supports the newest known minor, else an error", () => {
    const { stack, cluster } = clusterWith("1.38");
    const v = resolveKarpenterVersion("t", "1.15.0");
    checkKubernetesCompatibility(stack, "version", v, cluster);
    expect(warningsOf(stack)).toEqual([
      expect.stringMatching(
        /^cluster demo runs Kubernetes 1\.38, newer than the Karpenter compatibility matrix this library knows \(up to 1\.37\); Karpenter 1\.15\.0 supports Kubernetes 1\.31 to 1\.37 as far as known: check https:\/\/karpenter\.sh/,
      ),
    ]);
    expect(() =>
      checkKubernetesCompatibility(stack, "version", resolveKarpenterVersion("t", "1.14.1"), cluster),
    ).toThrow(/no Karpenter release this library knows supports Kubernetes 1\.38 yet/);
  });

  test("a patch newer than the newest known one may have gained support: a warning, not an error", () => {
    const { stack, cluster } = clusterWith("1.36");
    checkKubernetesCompatibility(stack, "version", resolveKarpenterVersion("t", "1.12.7"), cluster);
    expect(warningsOf(stack)).toEqual([
      expect.stringMatching(
        /runs Kubernetes 1\.36; Karpenter 1\.12\.2, the newest 1\.12 patch this library knows, supports Kubernetes 1\.26 to 1\.35, and 1\.12\.7 is newer/,
      ),
    ]);
    expect(() =>
      checkKubernetesCompatibility(stack, "version", resolveKarpenterVersion("t", "1.12.2"), cluster),
    ).toThrow(/Karpenter 1\.12\.2 supports Kubernetes 1\.26 to 1\.35/);
  });
  test.each([
    ["v1.34", ': write "1.34" (no "v" and no patch; EKS picks the patch)'],
    ["1.33.1", ': write "1.33" (no "v" and no patch; EKS picks the patch)'],
    ["2.0", ""],
  ])(
    "an aws_eks_cluster version %p, which EKS refuses, is an error on cluster naming the EksCluster",
    (given, hint) => {
      const { stack, cluster } = clusterWith(given);
      expect(() =>
        checkKubernetesCompatibility(stack, "version", resolveKarpenterVersion("t", "1.15.2"), cluster),
      ).toThrow(
        `test: cluster = "${given}" is invalid: the version of test/cluster (aws_eks_cluster.version) as EKS takes it, a Kubernetes minor such as "1.34"${hint}; EKS refuses any other shape at apply (InvalidParameterException)`,
      );
    },
  );

  test("a minor, a reference or no version at all is not judged by shape", () => {
    for (const version of [
      "1.34",
      undefined,
      (s: TerraformStack) => new TerraformVariable(s, "k8s", { type: "string" }).stringValue,
    ]) {
      const { stack, cluster } = clusterWith(version);
      expect(() =>
        checkKubernetesCompatibility(stack, "version", resolveKarpenterVersion("t", "1.15.2"), cluster),
      ).not.toThrow();
    }
  });
});
