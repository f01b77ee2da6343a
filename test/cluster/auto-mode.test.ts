import { TerraformVariable } from "cdktf";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { KarpenterValidationError } from "../../lib/core/errors";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterRelease } from "../../lib/helm/karpenter-release";
import { testStack, thrown } from "../helpers";

/*
 * EKS Auto Mode runs AWS's own Karpenter (it serves nodepools.karpenter.sh and nodeclaims.karpenter.sh):
 * installing Karpenter on such a cluster is refused, naming computeConfig; a token there warns.
 */

function autoModeCluster(enabled: unknown) {
  const { stack } = testStack();
  const eks = new EksCluster(stack, "cluster", {
    name: "demo",
    version: "1.36",
    roleArn: "arn:aws:iam::123456789012:role/cluster",
    vpcConfig: { subnetIds: ["subnet-00000001", "subnet-00000002"] },
    ...(enabled === "unset" ? {} : { computeConfig: { enabled: enabled as boolean } }),
  });
  return { stack, cluster: KarpenterCluster.fromEksCluster(eks) };
}

const warnings = (c: { node: { findAll(): { node: { metadata: { type: string; data: unknown }[] } }[] } }) =>
  c.node.findAll().flatMap((x) => x.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)));

describe("EKS Auto Mode", () => {
  test("Karpenter on a cluster with computeConfig.enabled = true is an error naming computeConfig and why", () => {
    const { stack, cluster } = autoModeCluster(true);
    const e = thrown(() => new Karpenter(stack, "karpenter", { cluster }));
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect(e.message).toBe(
      'test/karpenter: cluster = "test/cluster with computeConfig.enabled = true" is invalid: a cluster without EKS Auto Mode: EKS Auto Mode runs AWS\'s own Karpenter, which serves nodepools.karpenter.sh and nodeclaims.karpenter.sh itself; the karpenter-crd chart installs the same CRDs and a second controller acts on the same NodePools and NodeClaims, so the two fight over them. Instead, use Auto Mode\'s own NodePools (no Karpenter install; docs/installing.md, "EKS Auto Mode"), or a cluster without Auto Mode (computeConfig.enabled false or unset) [CLUSTER_AUTO_MODE]',
    );
    // nothing of the failed install is left in the tree
    expect(stack.node.tryFindChild("karpenter")).toBeUndefined();
  });

  test("KarpenterRelease alone is refused the same way", () => {
    const { stack, cluster } = autoModeCluster(true);
    expect(() => new KarpenterRelease(stack, "rel", { cluster })).toThrow(
      /^test\/rel: cluster = .* is invalid: a cluster without EKS Auto Mode: .*computeConfig\.enabled false or unset/,
    );
  });

  test("a token in computeConfig.enabled warns once, naming computeConfig; the install goes on", () => {
    const { stack } = testStack();
    const flag = new TerraformVariable(stack, "auto", { type: "bool" });
    const eks = new EksCluster(stack, "cluster", {
      name: "demo",
      version: "1.36",
      roleArn: "arn:aws:iam::123456789012:role/cluster",
      vpcConfig: { subnetIds: ["subnet-00000001"] },
      computeConfig: { enabled: flag.booleanValue },
    });
    new Karpenter(stack, "karpenter", { cluster: KarpenterCluster.fromEksCluster(eks) });
    const auto = warnings(stack).filter((w) => w.includes("computeConfig"));
    expect(auto).toEqual([
      "test/cluster sets computeConfig.enabled to a value known only at apply: if it enables EKS Auto Mode, do not install Karpenter on it (EKS Auto Mode runs AWS's own Karpenter, which serves nodepools.karpenter.sh and nodeclaims.karpenter.sh itself; the karpenter-crd chart installs the same CRDs and a second controller acts on the same NodePools and NodeClaims, so the two fight over them); use Auto Mode's own NodePools (no Karpenter install; docs/installing.md, \"EKS Auto Mode\"), or a cluster without Auto Mode (computeConfig.enabled false or unset)",
    ]);
  });

  test.each([
    ["false", false],
    ["unset", "unset"],
  ])("computeConfig.enabled %s installs without a word about it", (_, enabled) => {
    const { stack, cluster } = autoModeCluster(enabled);
    new Karpenter(stack, "karpenter", { cluster });
    expect(warnings(stack).filter((w) => /computeConfig|Auto Mode/.test(w))).toEqual([]);
  });
});
