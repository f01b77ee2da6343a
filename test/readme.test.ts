// The README's code, as a user would write it (the package name maps to lib/ here).
import { TerraformStack, Testing } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { SqsQueue } from "@cdktf/provider-aws/lib/sqs-queue";
import { DiscoveryTags, Karpenter, KarpenterCluster, SystemNodeGroup } from "cdktf-eks-karpenter";

function clusterStack() {
  const app = Testing.app();
  const stack = new TerraformStack(app, "test");
  new AwsProvider(stack, "aws", { region: "eu-west-1" });
  const eks = new EksCluster(stack, "cluster", { name: "prod", roleArn: "arn:aws:iam::123456789012:role/eks", vpcConfig: { subnetIds: ["subnet-1"] } });
  return { app, stack, eks };
}

test("Testing your stacks: Karpenter gets an encrypted interruption queue", () => {
  const { stack, eks } = clusterStack();
  new Karpenter(stack, "karpenter", { cluster: KarpenterCluster.fromEksCluster(eks) });

  const synthesized = Testing.synth(stack);
  expect(synthesized).toHaveResourceWithProperties(SqsQueue, { message_retention_seconds: 300, sqs_managed_sse_enabled: true });
});

test("API tour: one construct, then a node class and a pool", () => {
  const { stack, eks } = clusterStack();
  const privateSubnetIds = ["subnet-a", "subnet-b"];
  const cluster = KarpenterCluster.fromEksCluster(eks);
  const systemNodeGroup = new SystemNodeGroup(stack, "system", { cluster, subnetIds: privateSubnetIds });
  new DiscoveryTags(stack, "discovery", { cluster });
  const karpenter = new Karpenter(stack, "karpenter", { cluster, systemNodeGroup });

  const nodeClass = karpenter.addEc2NodeClass("default", {});
  karpenter.addNodePool("default", {
    nodeClass,
    requirements: [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["spot", "on-demand"] }],
    limits: { cpu: 100 },
    disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m" },
  });

  const json = JSON.parse(Testing.synth(stack));
  const manifests = Object.values(json.resource.kubernetes_manifest) as any[];
  expect(manifests.map((m) => m.manifest.kind).sort()).toEqual(["EC2NodeClass", "NodePool"]);
  const pool = manifests.find((m) => m.manifest.kind === "NodePool");
  expect(pool.manifest.spec.template.spec.nodeClassRef).toEqual({ group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: nodeClass.name });
});
