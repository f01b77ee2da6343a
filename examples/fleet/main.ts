import { App } from "cdktf";
import { readFleetConfig } from "./config";
import { FleetStack } from "./fleet-stack";
import { FleetNodesStack } from "./nodes-stack";

/**
 * A fleet in one app: stack `fleet` holds one cluster per region (default us-east-1 and eu-west-1),
 * each with its own named AWS and Helm providers and its own Karpenter; stack `fleet-nodes` holds
 * every cluster's EC2NodeClass and NodePool, each on the Kubernetes provider of its cluster.
 */
export function buildApp(app: App = new App({ stackTraces: false }), env: NodeJS.ProcessEnv = process.env): App {
  const fleet = new FleetStack(app, "fleet", readFleetConfig(env));
  new FleetNodesStack(app, "fleet-nodes", fleet.clusters);
  return app;
}

if (require.main === module) {
  try {
    buildApp().synth();
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    process.exit(1);
  }
}
