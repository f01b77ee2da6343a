import { App } from "cdktf";
import { readConfig } from "./config";
import { EksStack } from "./eks-stack";

/**
 * The seed deployment as a cdktf app: stack `eks` (network, cluster, system nodes, Karpenter) and
 * stack `karpenter-nodes` (EC2NodeClass, NodePool, the `inflate` test Deployment). The second
 * stack is separate because `kubernetes_manifest` needs the cluster and the CRDs at plan time.
 */
export function buildApp(app: App = new App(), env: NodeJS.ProcessEnv = process.env): App {
  const config = readConfig(env);
  new EksStack(app, "eks", config);
  return app;
}

if (require.main === module) buildApp().synth();
