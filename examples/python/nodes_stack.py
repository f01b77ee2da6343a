"""Stack `karpenter-nodes`: EC2NodeClass `default`, NodePool `default` and the `inflate` test Deployment (nodes-stack.ts)."""
from constructs import Construct
from cdktf import Fn, TerraformStack
from cdktf_cdktf_provider_kubernetes.deployment_v1 import DeploymentV1, DeploymentV1SpecTemplateSpecContainer
from cdktf_cdktf_provider_kubernetes.provider import KubernetesProvider, KubernetesProviderExec
from cdktf_eks_karpenter import Ec2NodeClass, IKarpenterInstallation, NodePool

from backend import configure_backend
from config import ExampleConfig

INFLATE_IMAGE = "public.ecr.aws/eks-distro/kubernetes/pause:3.7"
"""The image of the `inflate` Deployment: a pause container that only holds its CPU request."""


class KarpenterNodesStack(TerraformStack):
    """A stack of its own because `kubernetes_manifest` reads the cluster's API (and the Karpenter CRDs) at plan time."""

    def __init__(self, scope: Construct, id: str, *, karpenter: IKarpenterInstallation, config: ExampleConfig) -> None:
        super().__init__(scope, id)
        configure_backend(self, id, config)
        cluster = karpenter.cluster
        # short-lived tokens from the caller's AWS credentials: no secret in the state or the code
        KubernetesProvider(
            self,
            "kubernetes",
            host=cluster.endpoint,
            cluster_ca_certificate=Fn.base64decode(cluster.certificate_authority_data),
            # a list that may also be a token: its elements are struct objects (a plain dict would pass unconverted)
            exec=[
                KubernetesProviderExec(
                    api_version="client.authentication.k8s.io/v1beta1",
                    command="aws",
                    args=["eks", "get-token", "--cluster-name", cluster.cluster_name, "--region", config.region],
                )
            ],
        )

        self.node_class = Ec2NodeClass(self, "default-node-class", name="default", karpenter=karpenter)

        self.node_pool = NodePool(
            self,
            "default-node-pool",
            name="default",
            node_class=self.node_class,
            requirements=[
                {"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64"]},
                {"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["spot", "on-demand"]},
                {"key": "karpenter.k8s.aws/instance-category", "operator": "In", "values": ["c", "m", "r"]},
                {"key": "karpenter.k8s.aws/instance-generation", "operator": "Gt", "values": ["5"]},
            ],
            expire_after="720h",
            limits={"cpu": "100"},
            disruption={
                "consolidation_policy": "WhenEmptyOrUnderutilized",
                "consolidate_after": "1m",
                # no voluntary disruption during weekday working hours (UTC), 10% at a time otherwise
                "budgets": [{"nodes": "10%"}, {"nodes": "0", "schedule": "0 9 * * mon-fri", "duration": "8h"}],
            },
        )

        if config.inflate_replicas < 0 or config.inflate_replicas > 2147483647:
            raise ValueError(f"inflate_replicas (INFLATE_REPLICAS): {config.inflate_replicas} is not a whole number of replicas from 0 to 2147483647 (a Deployment's replicas is an int32)")
        self.inflate = DeploymentV1(
            self,
            "inflate",
            metadata={"name": "inflate", "namespace": "default"},
            spec={
                "replicas": str(config.inflate_replicas),
                "selector": {"match_labels": {"app": "inflate"}},
                "template": {
                    "metadata": {"labels": {"app": "inflate"}},
                    "spec": {
                        "termination_grace_period_seconds": 0,
                        "container": [
                            DeploymentV1SpecTemplateSpecContainer(
                                name="inflate",
                                image=INFLATE_IMAGE,
                                resources={"requests": {"cpu": "1"}},
                                security_context={"allow_privilege_escalation": False},
                            )
                        ],
                    },
                },
            },
            # destroyed before the NodePool, so its pods are gone before Karpenter drains the nodes
            depends_on=[self.node_pool.manifest],
        )
