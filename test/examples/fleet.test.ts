import * as YAML from "yaml";
import { Testing } from "cdktf";
import { buildApp } from "../../examples/fleet/main";
import { readFleetConfig } from "../../examples/fleet/config";
import { synthApp } from "./synth";

function synth(env: NodeJS.ProcessEnv = {}): Record<string, any> {
  const stacks = synthApp(buildApp(Testing.app(), env));
  return Object.fromEntries(Object.entries(stacks).map(([k, v]) => [k, JSON.parse(v)]));
}

describe("example: a fleet of two clusters in two regions", () => {
  const { fleet, "fleet-nodes": nodes } = synth();
  const ofType = (json: any, type: string, kind = "resource") => Object.entries<any>(json[kind]?.[type] ?? {});

  test("two stacks: the clusters with their named providers, and the node objects", () => {
    expect(Object.values<any>(fleet.provider.aws).map((p) => [p.alias, p.region])).toEqual([
      ["us_east_1", "us-east-1"],
      ["eu_west_1", "eu-west-1"],
    ]);
    expect(Object.values<any>(fleet.provider.helm).map((p) => p.alias)).toEqual([
      "karpenter_fleet_us_east_1",
      "karpenter_fleet_eu_west_1",
    ]);
    expect(nodes.provider.kubernetes.map((p: any) => p.alias)).toEqual(
      ["karpenter-fleet-us-east-1", "karpenter-fleet-eu-west-1"].map((n) => n.replace(/-/g, "_")),
    );
  });

  test("every AWS resource and data source of the fleet stack names the provider of its cluster's region", () => {
    const aws = [
      ...Object.entries<any>(fleet.resource),
      ...Object.entries<any>(fleet.data).map(([t, v]) => [`data.${t}`, v] as [string, any]),
    ]
      .filter(([type]) => /^(data\.)?aws_/.test(type))
      .flatMap(([type, byName]) =>
        Object.entries<any>(byName).map(([name, body]) => [`${type}.${name}`, body.provider]),
      );
    expect(aws.length).toBeGreaterThan(80);
    for (const [address, provider] of aws) {
      const region = /us-east-1/.test(address)
        ? "aws.us_east_1"
        : /eu-west-1/.test(address)
          ? "aws.eu_west_1"
          : /aws-context-(us_east_1|eu_west_1)/.exec(address)?.[1];
      expect([address, provider]).toEqual([address, region?.startsWith("aws.") ? region : `aws.${region}`]);
    }
  });

  test("each install's releases use its cluster's Helm provider, and its settings name its cluster", () => {
    const releases = ofType(fleet, "helm_release").map(([, r]) => [
      r.provider,
      r.chart,
      r.chart === "karpenter" ? YAML.parse(r.values[0]).settings.clusterName.replace(/_[0-9A-F]{8}\./, ".") : "-",
    ]);
    expect(releases.sort()).toEqual([
      ["helm.karpenter_fleet_eu_west_1", "karpenter", "${aws_eks_cluster.karpenter-fleet-eu-west-1_cluster.name}"],
      ["helm.karpenter_fleet_eu_west_1", "karpenter-crd", "-"],
      ["helm.karpenter_fleet_us_east_1", "karpenter", "${aws_eks_cluster.karpenter-fleet-us-east-1_cluster.name}"],
      ["helm.karpenter_fleet_us_east_1", "karpenter-crd", "-"],
    ]);
    // each Helm provider connects to its own cluster
    for (const p of Object.values<any>(fleet.provider.helm)) {
      const region = p.alias.endsWith("us_east_1") ? "us-east-1" : "eu-west-1";
      expect(p.kubernetes.exec.args).toEqual([
        "eks",
        "get-token",
        "--cluster-name",
        expect.stringContaining(`karpenter-fleet-${region}_cluster`),
        "--region",
        region,
      ]);
    }
  });

  test("each cluster's EC2NodeClass and NodePool use its Kubernetes provider; the same names on two clusters", () => {
    const manifests = ofType(nodes, "kubernetes_manifest").map(([name, m]) => [
      name.replace(/_[0-9A-F]{8}$/, ""),
      m.manifest.kind,
      m.manifest.metadata.name,
      m.provider,
    ]);
    expect(manifests.sort()).toEqual([
      [
        "karpenter-fleet-eu-west-1-node-class_manifest",
        "EC2NodeClass",
        "default",
        "kubernetes.karpenter_fleet_eu_west_1",
      ],
      ["karpenter-fleet-eu-west-1-node-pool_manifest", "NodePool", "default", "kubernetes.karpenter_fleet_eu_west_1"],
      [
        "karpenter-fleet-us-east-1-node-class_manifest",
        "EC2NodeClass",
        "default",
        "kubernetes.karpenter_fleet_us_east_1",
      ],
      ["karpenter-fleet-us-east-1-node-pool_manifest", "NodePool", "default", "kubernetes.karpenter_fleet_us_east_1"],
    ]);
  });

  test("IAM names are per cluster: no clash in the account", () => {
    const names = ofType(fleet, "aws_iam_role").map(([, r]) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContainEqual(
      expect.stringMatching(
        /^KarpenterNodeRole-\$\{aws_eks_cluster\.karpenter-fleet-eu-west-1_cluster_[0-9A-F]{8}\.name\}$/,
      ),
    );
  });

  test("FLEET_REGIONS chooses the regions; a repeated region is refused", () => {
    expect(readFleetConfig({ FLEET_REGIONS: "ap-southeast-2" }).clusters).toEqual([
      { name: "karpenter-fleet-ap-southeast-2", region: "ap-southeast-2" },
    ]);
    expect(() => readFleetConfig({ FLEET_REGIONS: "us-east-1,us-east-1" })).toThrow(
      "FLEET_REGIONS: us-east-1,us-east-1 names a region twice (one cluster per region)",
    );
  });

  test("PUBLIC_ACCESS_CIDRS: unset is 0.0.0.0/0, set but empty is refused as in the main example", () => {
    expect(readFleetConfig({}).publicAccessCidrs).toEqual(["0.0.0.0/0"]);
    expect(readFleetConfig({ PUBLIC_ACCESS_CIDRS: "203.0.113.0/24" }).publicAccessCidrs).toEqual(["203.0.113.0/24"]);
    expect(() => readFleetConfig({ PUBLIC_ACCESS_CIDRS: "" })).toThrow(/^PUBLIC_ACCESS_CIDRS: "" names no CIDR/);
    expect(() => readFleetConfig({ PUBLIC_ACCESS_CIDRS: "203.0.113.7/24" })).toThrow("did you mean 203.0.113.0/24?");
    expect(readFleetConfig({ PUBLIC_ACCESS_CIDRS: "198.51.100.7/32, 0.0.0.0/0" }).publicAccessCidrs).toHaveLength(2);
  });
});
