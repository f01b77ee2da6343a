// A third app for `npm run e2e` only: Karpenter on an existing cluster with IRSA instead of Pod Identity,
// so the rendered chart can be checked for the service account's role annotation and the stack validated
// with the federated trust. Not an example for users: the examples stay the two under examples/.
import { App, Fn, TerraformStack } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { Karpenter, KarpenterCluster } from "../../lib";

const app = new App({ stackTraces: false });
const stack = new TerraformStack(app, "irsa");
new AwsProvider(stack, "aws", { region: "us-east-1" });
const cluster = KarpenterCluster.fromClusterName(stack, "cluster", "e2e-irsa");
new HelmProvider(stack, "helm", {
  kubernetes: { host: cluster.endpoint, clusterCaCertificate: Fn.base64decode(cluster.certificateAuthorityData) },
});
new Karpenter(stack, "karpenter", {
  cluster,
  identity: {
    type: "irsa",
    oidcProviderArn:
      "arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/EXAMPLED539D4633E53DE1B71EXAMPLE",
  },
  replicas: 1,
  controllerResources: { requests: { cpu: "250m", memory: "384Mi" }, limits: { memory: "384Mi" } },
});
app.synth();
