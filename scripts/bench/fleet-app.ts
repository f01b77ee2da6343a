// A fleet for `npm run bench`: FLEET_CLUSTERS clusters (default 50), each in a stack of its own with
// its AWS and Helm providers, system node group, discovery tags, Pod Identity agent and Karpenter,
// and a nodes stack with an EC2NodeClass and 3 NodePools on the cluster's Kubernetes provider.
// FLEET_VALIDATE=0 synthesizes without the construct validations (the baseline the checks are held to).
// With validation, the CPU time spent in the stacks' validations is printed at exit (validation_cpu_us=).
import { App, Fn, TerraformStack } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { DiscoveryTags, Ec2NodeClass, Karpenter, KarpenterCluster, NodePool, SystemNodeGroup } from "../../lib";

/** Two subnet IDs of cluster `i`, of EC2's shape (8 hex digits). */
const subnets = (i: number) => [
  `subnet-${i.toString(16).padStart(7, "0")}a`,
  `subnet-${i.toString(16).padStart(7, "0")}b`,
];

const REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1"];

export function buildFleet(n: number, validate: boolean): App {
  const app = new App({ stackTraces: false, skipValidation: !validate });
  for (let i = 0; i < n; i++) {
    const name = `fleet-${i}`;
    const region = REGIONS[i % REGIONS.length];
    const stack = new TerraformStack(app, name);
    new AwsProvider(stack, "aws", { region });
    const eks = new EksCluster(stack, "cluster", {
      name,
      version: "1.34",
      roleArn: "arn:aws:iam::123456789012:role/eks",
      vpcConfig: { subnetIds: subnets(i) },
    });
    const cluster = KarpenterCluster.fromEksCluster(eks);
    new EksAddon(stack, "pod-identity-agent", { clusterName: eks.name, addonName: "eks-pod-identity-agent" });
    const exec = {
      apiVersion: "client.authentication.k8s.io/v1beta1",
      command: "aws",
      args: ["eks", "get-token", "--cluster-name", eks.name, "--region", region],
    };
    new HelmProvider(stack, "helm", {
      kubernetes: { host: eks.endpoint, clusterCaCertificate: Fn.base64decode(cluster.certificateAuthorityData), exec },
    });
    const systemNodeGroup = new SystemNodeGroup(stack, "system", { cluster, subnetIds: subnets(i) });
    new DiscoveryTags(stack, "discovery", { cluster, subnets: subnets(i) });
    const karpenter = new Karpenter(stack, "karpenter", { cluster, systemNodeGroup });

    const nodes = new TerraformStack(app, `${name}-nodes`);
    new KubernetesProvider(nodes, "kubernetes", {
      host: cluster.endpoint,
      clusterCaCertificate: Fn.base64decode(cluster.certificateAuthorityData),
      exec: [exec],
    });
    const nodeClass = new Ec2NodeClass(nodes, "default", { karpenter });
    for (const pool of ["general", "spot", "gpu"]) {
      new NodePool(nodes, pool, {
        nodeClass,
        requirements: [
          { key: "karpenter.sh/capacity-type", operator: "In", values: pool === "spot" ? ["spot"] : ["on-demand"] },
        ],
        limits: { cpu: "100" },
      });
    }
  }
  return app;
}

/** Adds up the CPU time of every stack's validations (cdktf runs them in `runAllValidations`). */
function measureValidations(): () => number {
  let us = 0;
  const original = TerraformStack.prototype.runAllValidations;
  TerraformStack.prototype.runAllValidations = function (this: TerraformStack) {
    const start = process.cpuUsage();
    try {
      return original.call(this);
    } finally {
      const d = process.cpuUsage(start);
      us += d.user + d.system;
    }
  };
  return () => us;
}

if (require.main === module) {
  const validate = process.env.FLEET_VALIDATE !== "0";
  const spent = validate ? measureValidations() : undefined;
  buildFleet(Number(process.env.FLEET_CLUSTERS ?? 50), validate).synth();
  if (spent) process.stderr.write(`\nvalidation_cpu_us=${spent()}\n`);
}
