import { Construct } from "constructs";
import { Fn, TerraformStack } from "cdktf";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { DeploymentV1 } from "@cdktf/provider-kubernetes/lib/deployment-v1";
import { Ec2NodeClass, IKarpenterInstallation, NodePool } from "../../lib";
import { ExampleConfig } from "./config";
import { configureBackend } from "./backend";

/** Props of {@link KarpenterNodesStack}. */
export interface KarpenterNodesStackProps {
  /** The Karpenter installation (in the `eks` stack): cluster, version, node role, controller release. */
  readonly karpenter: IKarpenterInstallation;
  /** The example's settings: `region` (for `aws eks get-token`), `inflateReplicas`, state backend. */
  readonly config: ExampleConfig;
}

/** The image of the `inflate` Deployment: a pause container that only holds its CPU request. */
export const INFLATE_IMAGE = "public.ecr.aws/eks-distro/kubernetes/pause:3.7";

/**
 * Stack `karpenter-nodes`: the seed's EC2NodeClass `default`, NodePool `default` and the
 * `inflate` test Deployment.
 *
 * A stack of its own because `kubernetes_manifest` reads the cluster's API (and the Karpenter
 * CRDs) at plan time: `cdktf deploy` applies the `eks` stack first. The NodeClass is ordered
 * after the controller release through a stack dependency, the NodePool after the NodeClass and
 * `inflate` after the NodePool, so `cdktf destroy` removes `inflate`, the NodePool, the
 * EC2NodeClass (whose finalizer waits until Karpenter has terminated every node) and only then
 * the `eks` stack with the controller.
 */
export class KarpenterNodesStack extends TerraformStack {
  /** EC2NodeClass `default`. */
  public readonly nodeClass: Ec2NodeClass;
  /** NodePool `default`. */
  public readonly nodePool: NodePool;
  /** The `inflate` Deployment (namespace `default`). */
  public readonly inflate: DeploymentV1;

  constructor(scope: Construct, id: string, props: KarpenterNodesStackProps) {
    super(scope, id);
    const { karpenter, config } = props;
    configureBackend(this, id, config);
    const cluster = karpenter.cluster;
    // short-lived tokens from the caller's AWS credentials: no secret in the state or the code
    new KubernetesProvider(this, "kubernetes", {
      host: cluster.endpoint,
      clusterCaCertificate: Fn.base64decode(cluster.certificateAuthorityData),
      exec: [
        {
          apiVersion: "client.authentication.k8s.io/v1beta1",
          command: "aws",
          args: ["eks", "get-token", "--cluster-name", cluster.clusterName, "--region", config.region],
        },
      ],
    });

    this.nodeClass = new Ec2NodeClass(this, "default-node-class", { name: "default", karpenter });

    this.nodePool = new NodePool(this, "default-node-pool", {
      name: "default",
      nodeClass: this.nodeClass,
      requirements: [
        { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
        { key: "karpenter.sh/capacity-type", operator: "In", values: ["spot", "on-demand"] },
        { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
        { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["5"] },
      ],
      expireAfter: "720h",
      limits: { cpu: "100" },
      disruption: {
        consolidationPolicy: "WhenEmptyOrUnderutilized",
        consolidateAfter: "1m",
        // no voluntary disruption during weekday working hours (UTC), 10% at a time otherwise
        budgets: [{ nodes: "10%" }, { nodes: "0", schedule: "0 9 * * mon-fri", duration: "8h" }],
      },
    });

    if (
      !Number.isInteger(config.inflateReplicas) ||
      config.inflateReplicas < 0 ||
      config.inflateReplicas > 2147483647
    ) {
      throw new Error(
        `inflateReplicas (INFLATE_REPLICAS): ${config.inflateReplicas} is not a whole number of replicas from 0 to 2147483647 (a Deployment's replicas is an int32)`,
      );
    }
    this.inflate = new DeploymentV1(this, "inflate", {
      metadata: { name: "inflate", namespace: "default" },
      spec: {
        replicas: String(config.inflateReplicas),
        selector: { matchLabels: { app: "inflate" } },
        template: {
          metadata: { labels: { app: "inflate" } },
          spec: {
            terminationGracePeriodSeconds: 0,
            container: [
              {
                name: "inflate",
                image: INFLATE_IMAGE,
                resources: { requests: { cpu: "1" } },
                securityContext: { allowPrivilegeEscalation: false },
              },
            ],
          },
        },
      },
      // destroyed before the NodePool, so its pods are gone before Karpenter drains the nodes
      dependsOn: [this.nodePool.manifest],
    });
  }
}
