// A fourth app for `npm run e2e` only: an install on an existing cluster at KARPENTER_VERSION, synthesized
// at 1.3.8 and then 1.4.4 against one state, so the node role's ECR policy swap is applied for real (the
// new policy must be attached before the old one is detached). Not an example for users.
import { App, TerraformStack } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { Karpenter, KarpenterCluster } from "../../lib";

const version = process.env.KARPENTER_VERSION;
if (!version) throw new Error("KARPENTER_VERSION must name the version to synthesize (e.g. 1.3.8)");
const app = new App({ stackTraces: false });
const stack = new TerraformStack(app, "upgrade");
new AwsProvider(stack, "aws", { region: "us-east-1" });
new HelmProvider(stack, "helm", {});
const cluster = KarpenterCluster.fromClusterName(stack, "cluster", "e2e-upgrade");
new Karpenter(stack, "karpenter", { cluster, version });
app.synth();
