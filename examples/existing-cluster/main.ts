import * as fs from "fs";
import * as path from "path";
import { Annotations, App, Fn, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { Ec2NodeClass, IKarpenterCluster, Karpenter, KarpenterCluster, NodePool } from "../../lib";
import { convertLegacyManifests } from "../../lib/cli-api";

/**
 * Karpenter on a cluster this app does not create (`KarpenterCluster.fromClusterName`), with the
 * cluster's pre-v1 Provisioner and AWSNodeTemplate converted to a v1 NodePool and EC2NodeClass.
 *
 *   CLUSTER_NAME=prod AWS_REGION=us-east-1 npx cdktf synth --app "npx tsx examples/existing-cluster/main.ts" --output cdktf.out.existing-cluster
 *
 * The cluster must already have its private subnets and one security group tagged
 * `karpenter.sh/discovery=<cluster>` and the eks-pod-identity-agent add-on.
 */
export function buildApp(app: App = new App({ stackTraces: false }), env: NodeJS.ProcessEnv = process.env): App {
  const clusterName = env.CLUSTER_NAME || "demo";
  const region = env.AWS_REGION || "us-east-1";

  const install = new TerraformStack(app, "karpenter");
  new AwsProvider(install, "aws", { region });
  const cluster = KarpenterCluster.fromClusterName(install, "cluster", clusterName);
  const access = kubernetesAccess(cluster, region);
  new HelmProvider(install, "helm", { kubernetes: access });
  const karpenter = new Karpenter(install, "karpenter", {
    cluster,
    version: env.KARPENTER_VERSION || undefined,
    allowUnverifiedVersion: env.KARPENTER_UNVERIFIED_VERSION === "true",
  });

  const nodes = new TerraformStack(app, "nodes");
  const { exec, ...endpoint } = kubernetesAccess(karpenter.cluster, region);
  new KubernetesProvider(nodes, "kubernetes", { ...endpoint, exec: [exec] });
  migrate(nodes, karpenter, fs.readFileSync(path.join(__dirname, "legacy-manifests.yaml"), "utf8"));
  return app;
}

/**
 * Builds the converted objects. Each note that asks for an action becomes a synth warning on the
 * object's construct (cdktf prints it as `WARN [nodes/pool-default]: …`), so that nothing changes
 * unnoticed; the program's stderr is left for errors (the cdktf CLI shows it as `[ERROR]`).
 */
function migrate(scope: Construct, karpenter: Karpenter, yamlText: string): void {
  // role: v1 nodes use the Karpenter node role (Karpenter manages the instance profile) instead of the old instanceProfile
  const result = convertLegacyManifests(yamlText, { role: karpenter.nodeRoleName, version: karpenter.version });
  const built = new Map<string, Construct>();
  const classes = new Map(
    result.ec2NodeClasses.map((c) => [c.name, new Ec2NodeClass(scope, `class-${c.name}`, { ...c.props, karpenter })]),
  );
  for (const [name, c] of classes) built.set(`EC2NodeClass/${name}`, c);
  for (const p of result.nodePools) {
    // a pool whose input named no node class is left out; its action note says what to add
    if (!p.nodeClassRef) continue;
    built.set(
      `NodePool/${p.name}`,
      new NodePool(scope, `pool-${p.name}`, {
        ...p.props,
        nodeClass: classes.get(p.nodeClassRef.name) ?? p.nodeClassRef,
        karpenter,
      }),
    );
  }
  for (const o of result.objects) {
    const on = built.get(`${o.kind}/${o.name}`) ?? scope;
    for (const n of o.notes)
      if (n.level === "action")
        Annotations.of(on).addWarning(`converted ${o.kind}/${o.name}: ${n.field}: ${n.message}`);
  }
}

/** The API server and short-lived `aws eks get-token` credentials: no secret in code or state. */
function kubernetesAccess(cluster: IKarpenterCluster, region: string) {
  return {
    host: cluster.endpoint,
    clusterCaCertificate: Fn.base64decode(cluster.certificateAuthorityData),
    exec: {
      apiVersion: "client.authentication.k8s.io/v1beta1",
      command: "aws",
      args: ["eks", "get-token", "--cluster-name", cluster.clusterName, "--region", region],
    },
  };
}

if (require.main === module) {
  try {
    buildApp().synth();
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    process.exit(1);
  }
}
