import { Annotations, App, Fn, TerraformStack, TerraformVariable } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import {
  Ec2NodeClass,
  gettingStartedAdoption,
  IKarpenterCluster,
  Karpenter,
  KarpenterCluster,
  NodePool,
} from "../../lib";

/**
 * Takes over a Karpenter that the official getting-started guide installed on an existing cluster
 * (CloudFormation stack `Karpenter-<cluster>`, eksctl's controller role and Pod Identity association,
 * `helm upgrade --install karpenter`), at the version it runs: every resource that exists is imported,
 * the `karpenter` release is upgraded in place, and the CRDs move into the `karpenter-crd` release.
 *
 *   CLUSTER_NAME=prod AWS_REGION=eu-west-1 KARPENTER_VERSION=1.8.8 \
 *     npx cdktf synth --app "npx tsx examples/adopt-existing/main.ts" --output cdktf.out.adopt-existing
 *
 * `ALIAS_VERSION` (the guide's, e.g. `v20240817`) keeps the imported EC2NodeClass on the AMI it runs;
 * unset, it moves to `al2023@latest` (synth warns: nodes on another AMI are replaced).
 *
 * The association ID is a Terraform variable, known at plan:
 * `TF_VAR_karpenter_pod_identity_association_id=$(aws eks list-pod-identity-associations --cluster-name prod
 * --namespace kube-system --service-account karpenter --query 'associations[0].associationId' --output text)`.
 * Steps before and after the deploy (keep the CloudFormation resources, delete the stack): docs/adopting.md.
 */
export function buildApp(app: App = new App({ stackTraces: false }), env: NodeJS.ProcessEnv = process.env): App {
  const clusterName = env.CLUSTER_NAME || "demo";
  const region = env.AWS_REGION || "us-east-1";
  // the running version: adopting at the same version changes as little as possible; upgrade afterwards
  const version = env.KARPENTER_VERSION || "1.14.1";

  const stack = new TerraformStack(app, "karpenter");
  new AwsProvider(stack, "aws", { region });
  const cluster = KarpenterCluster.fromClusterName(stack, "cluster", clusterName);
  new HelmProvider(stack, "helm", { kubernetes: kubernetesAccess(cluster, region) });
  const association = new TerraformVariable(stack, "karpenter_pod_identity_association_id", {
    type: "string",
    description: "ID (a-…) of the Pod Identity association eksctl made for kube-system/karpenter",
  });
  const karpenter = new Karpenter(stack, "karpenter", {
    cluster,
    version,
    adopt: gettingStartedAdoption({ clusterName, version, podIdentityAssociationId: association.stringValue }),
  });

  // the guide's `default` EC2NodeClass and NodePool (step "Add a NodePool"), imported: kubernetes_manifest
  // needs the CRDs at plan time, so they are in a stack applied after the releases
  const nodes = new TerraformStack(app, "nodes");
  const { exec, ...endpoint } = kubernetesAccess(karpenter.cluster, region);
  new KubernetesProvider(nodes, "kubernetes", { ...endpoint, exec: [exec] });
  // the guide pins the AMI (`al2023@${ALIAS_VERSION}`): another alias drifts every node to other AMIs
  const aliasVersion = env.ALIAS_VERSION;
  const nodeClass = new Ec2NodeClass(nodes, "default-node-class", {
    name: "default",
    karpenter,
    amiSelectorTerms: [{ alias: `al2023@${aliasVersion || "latest"}` }],
  });
  // imported, and the fields the guide's kubectl apply wrote become this app's (without that, changing the
  // alias later fails at apply with a field manager conflict)
  nodeClass.adoptExisting();
  if (!aliasVersion) {
    Annotations.of(nodeClass).addWarning(
      "ALIAS_VERSION is unset: EC2NodeClass default takes al2023@latest instead of the guide's pinned al2023@<ALIAS_VERSION>, and Karpenter replaces every node whose AMI differs (drift). Set ALIAS_VERSION to the running one: kubectl get ec2nodeclass default -o jsonpath='{.spec.amiSelectorTerms[0].alias}'",
    );
  }
  const pool = new NodePool(nodes, "default-node-pool", {
    name: "default",
    nodeClass,
    karpenter,
    requirements: [
      { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
      { key: "kubernetes.io/os", operator: "In", values: ["linux"] },
      { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
      { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
      { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["2"] },
    ],
    expireAfter: "720h",
    limits: { cpu: "1000" },
    disruption: { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "1m" },
  });
  pool.adoptExisting();
  return app;
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

/**
 * cdktf's "Validation failed" message with each distinct problem once, followed by the constructs
 * that reported it. Every imported resource carries cdktf's own Terraform version check
 * (`importFrom`), so without a Terraform binary the same "Could not determine version" comes from
 * each of them (22 here); one line and the list of where says the same.
 */
export function compactValidationMessage(message: string): string {
  const m = /^([^\n]*following errors:)\n([\s\S]*?)\n*(If you wish to ignore[\s\S]*)?$/.exec(message);
  if (!m) return message;
  const byText = new Map<string, string[]>();
  for (const entry of m[2].split(/\n(?= {2}\[)/)) {
    const e = /^ {2}\[([^\]]+)\] ([\s\S]*)$/.exec(entry.replace(/\n+$/, ""));
    if (!e) return message;
    byText.set(e[2], [...(byText.get(e[2]) ?? []), e[1]]);
  }
  const shown = [...byText].map(([text, where]) =>
    where.length === 1
      ? `  [${where[0]}] ${text}`
      : `  ${text}\n    (from ${where.length} constructs: ${where.slice(0, 3).join(", ")}${where.length > 3 ? ", …" : ""})`,
  );
  return [m[1], ...shown, ...(m[3] ? ["", m[3].trim()] : [])].join("\n");
}

if (require.main === module) {
  try {
    buildApp().synth();
  } catch (e) {
    console.error(`error: ${compactValidationMessage((e as Error).message)}`);
    process.exit(1);
  }
}
