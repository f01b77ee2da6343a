import { Ec2NodeClass, Karpenter, NodePool } from "../../lib";
import { convertLegacyManifests, ConvertLegacyManifestsOptions } from "../../lib/convert";
import { resources, synthJson, testCluster, testStack } from "../helpers";
import { SEED_MANIFESTS } from "./seed-manifests";

/** Converts the seed and synthesizes it through Ec2NodeClass / NodePool with a Karpenter 1.14.1 install. */
function synthSeed(options?: (k: Karpenter) => ConvertLegacyManifestsOptions) {
  const { stack } = testStack();
  const karpenter = new Karpenter(stack, "karpenter", { cluster: testCluster(stack, "demo"), version: "1.14.1" });
  const result = convertLegacyManifests(SEED_MANIFESTS, options?.(karpenter));
  const [c] = result.ec2NodeClasses;
  const [p] = result.nodePools;
  const nodeClass = new Ec2NodeClass(stack, "default-node-class", { ...c.props, karpenter });
  const nodePool = new NodePool(stack, "default-node-pool", { ...p.props, nodeClass });
  const json = synthJson(stack);
  const manifests = resources(json, "kubernetes_manifest");
  const byKind = (kind: string) => Object.values(manifests).find((m: any) => m.manifest.kind === kind) as any;
  return { result, karpenter, nodeClass, nodePool, json, pool: byKind("NodePool"), cls: byKind("EC2NodeClass") };
}

describe("the seed deployment's Provisioner and AWSNodeTemplate, converted", () => {
  test("NodePool default: the seed's requirements, labels, limit and empty TTL, plus the v1alpha5 webhook defaults", () => {
    const { pool } = synthSeed();
    expect(pool.manifest).toEqual({
      apiVersion: "karpenter.sh/v1",
      kind: "NodePool",
      metadata: { name: "default" },
      spec: {
        // ttlSecondsAfterEmpty: 30
        disruption: { consolidateAfter: "30s", consolidationPolicy: "WhenEmpty" },
        limits: { cpu: "100" },
        template: {
          metadata: { labels: { environment: "demo", team: "platform" } },
          spec: {
            nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" },
            requirements: [
              {
                key: "node.kubernetes.io/instance-type",
                operator: "In",
                values: ["t3.small", "t3.medium", "t3.large"],
              },
              { key: "topology.kubernetes.io/zone", operator: "In", values: ["us-east-1a", "us-east-1b"] },
              { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
              // the v0.31 webhook added these to the seed's Provisioner; v1 does not
              { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
              { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
            ],
          },
        },
      },
    });
  });

  test("EC2NodeClass default: discovery-tag selectors, the instance profile, and the AL2 alias (v1alpha1's default family)", () => {
    const { cls } = synthSeed();
    expect(cls.manifest).toEqual({
      apiVersion: "karpenter.k8s.aws/v1",
      kind: "EC2NodeClass",
      metadata: { name: "default" },
      spec: {
        amiSelectorTerms: [{ alias: "al2@latest" }],
        instanceProfile: "KarpenterNodeInstanceProfile-demo",
        securityGroupSelectorTerms: [{ tags: { "karpenter.sh/discovery": "demo" } }],
        subnetSelectorTerms: [{ tags: { "karpenter.sh/discovery": "demo" } }],
      },
    });
  });

  test("ordering: the pool after its class, the class after the controller release", () => {
    const { pool, cls, nodeClass, karpenter } = synthSeed();
    expect(pool.depends_on).toEqual([`kubernetes_manifest.${nodeClass.manifest.friendlyUniqueId}`]);
    expect(cls.depends_on).toEqual([`helm_release.${karpenter.release.friendlyUniqueId}`]);
  });

  test("the notes: the expiry change is the one action", () => {
    const { result } = synthSeed();
    expect(result.notes).toEqual([]);
    const actions = result.objects.flatMap((o) =>
      o.notes.filter((n) => n.level === "action").map((n) => `${o.kind} ${n.field}`),
    );
    expect(actions).toEqual(["NodePool spec.ttlSecondsUntilExpired"]);
  });

  test("with the role option set to the installation's node role, the class uses the role instead of the instance profile", () => {
    const { cls, karpenter } = synthSeed((k) => ({ role: k.nodeRoleName }));
    // the conformance harness wants an EC2NodeClass role to be the Karpenter node role
    expect(cls.manifest.spec.role).toBe(`\${aws_iam_role.${karpenter.nodeRole.role!.friendlyUniqueId}.name}`);
    expect(cls.manifest.spec.instanceProfile).toBeUndefined();
  });
});
