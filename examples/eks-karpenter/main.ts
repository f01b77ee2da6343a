import { App } from "cdktf";
import { readConfig } from "./config";
import { EksStack } from "./eks-stack";
import { KarpenterNodesStack } from "./nodes-stack";

/**
 * The seed deployment as a cdktf app: stack `eks` (network, cluster, system nodes, Karpenter) and
 * stack `karpenter-nodes` (EC2NodeClass, NodePool, the `inflate` test Deployment). The second
 * stack is separate because `kubernetes_manifest` needs the cluster and the CRDs at plan time.
 * Stack traces stay out of cdktf.out so that every synth of the same settings is byte-identical.
 */
export function buildApp(app: App = new App({ stackTraces: false }), env: NodeJS.ProcessEnv = process.env): App {
  const config = readConfig(env);
  const eks = new EksStack(app, "eks", config);
  new KarpenterNodesStack(app, "karpenter-nodes", { karpenter: eks.karpenter, config });
  return app;
}

/**
 * The synth warnings (`Annotations.addWarning`) of every construct, as `warning: <path>: <message>` lines on stderr.
 * `cdktf synth` prints them itself; run directly (`npx tsx examples/eks-karpenter/main.ts`, the path for Node 24+
 * without the CLI) nothing would, so the app does when the CLI did not start it (the CLI sets CDKTF_OUTDIR).
 */
function printWarnings(app: App): void {
  if (process.env.CDKTF_OUTDIR !== undefined) return;
  for (const c of app.node.findAll())
    for (const m of c.node.metadata)
      if (m.type === "@cdktf/warn") console.error(`warning: ${c.node.path}: ${String(m.data)}`);
}

if (require.main === module) {
  try {
    const app = buildApp();
    app.synth();
    printWarnings(app);
  } catch (e) {
    // bad settings and bad props are the user's to fix: the message says what and where, a stack trace adds nothing
    console.error(`error: ${(e as Error).message}`);
    process.exit(1);
  }
}
