"""Stack `eks`: the VPC, the EKS cluster with its add-ons, the system node group, the discovery tags and Karpenter (eks-stack.ts)."""
import json
from typing import List, Sequence

from constructs import Construct
from cdktf import Fn, ITerraformDependable, TerraformOutput, TerraformStack
from cdktf_cdktf_provider_aws.data_aws_partition import DataAwsPartition
from cdktf_cdktf_provider_aws.eks_addon import EksAddon
from cdktf_cdktf_provider_aws.eks_cluster import EksCluster
from cdktf_cdktf_provider_aws.iam_role import IamRole
from cdktf_cdktf_provider_aws.iam_role_policy_attachment import IamRolePolicyAttachment
from cdktf_cdktf_provider_aws.provider import AwsProvider, AwsProviderDefaultTags
from cdktf_cdktf_provider_helm.provider import HelmProvider
from cdktf_eks_karpenter import DiscoveryTags, Karpenter, KarpenterCluster, SystemNodeGroup

from backend import configure_backend
from config import ExampleConfig
from network import Network


class EksStack(TerraformStack):
    def __init__(self, scope: Construct, id: str, config: ExampleConfig) -> None:
        super().__init__(scope, id)
        configure_backend(self, id, config)
        AwsProvider(
            self,
            "aws",
            region=config.region,
            default_tags=[AwsProviderDefaultTags(tags={"karpenter.sh/example": config.cluster_name, "managed-by": "cdktf"})],
        )

        self.network = Network(self, "network", cluster_name=config.cluster_name)
        private_subnet_ids = [s.id for s in self.network.private_subnets]

        cluster_role = IamRole(
            self,
            "cluster-role",
            name=f"{config.cluster_name}-cluster"[:64],
            assume_role_policy=json.dumps(
                {
                    "Version": "2012-10-17",
                    "Statement": [{"Effect": "Allow", "Principal": {"Service": "eks.amazonaws.com"}, "Action": ["sts:AssumeRole", "sts:TagSession"]}],
                },
                separators=(",", ":"),
            ),
        )
        cluster_policy = IamRolePolicyAttachment(
            self,
            "cluster-policy",
            role=cluster_role.name,
            policy_arn=f"arn:{DataAwsPartition(self, 'partition').partition}:iam::aws:policy/AmazonEKSClusterPolicy",
        )
        eks = EksCluster(
            self,
            "cluster",
            name=config.cluster_name,
            version=config.kubernetes_version,
            role_arn=cluster_role.arn,
            # access entries only (no aws-auth ConfigMap); whoever runs `cdktf deploy` becomes cluster admin
            access_config={"authentication_mode": "API", "bootstrap_cluster_creator_admin_permissions": True},
            vpc_config={
                "subnet_ids": [*private_subnet_ids, *[s.id for s in self.network.public_subnets]],
                "endpoint_private_access": True,
                "endpoint_public_access": True,
                "public_access_cidrs": config.public_access_cidrs,
            },
            depends_on=[cluster_policy],
        )
        self.cluster = KarpenterCluster.from_eks_cluster(eks)

        # networking and pod identity must be running before any node joins; CoreDNS needs nodes
        def addon(name: str, depends_on: Sequence[ITerraformDependable] = ()) -> EksAddon:
            return EksAddon(
                self,
                name,
                cluster_name=eks.name,
                addon_name=name,
                resolve_conflicts_on_create="OVERWRITE",
                resolve_conflicts_on_update="OVERWRITE",
                depends_on=list(depends_on) or None,
            )

        before_nodes: List[EksAddon] = [addon(n) for n in ["vpc-cni", "kube-proxy", "eks-pod-identity-agent"]]

        self.system_nodes = SystemNodeGroup(
            self,
            "system-nodes",
            cluster=self.cluster,
            subnet_ids=private_subnet_ids,
            # only the controller, CoreDNS and node agents (which tolerate it) run here
            taints=[{"key": "CriticalAddonsOnly", "value": "true", "effect": "NO_SCHEDULE"}],
            depends_on=before_nodes,
        )
        addon("coredns", [self.system_nodes.node_group])

        # private subnets carry the discovery tag in their own tags (network.py); the cluster security group is EKS-made
        DiscoveryTags(self, "discovery", cluster=self.cluster)

        HelmProvider(
            self,
            "helm",
            kubernetes={
                "host": eks.endpoint,
                "cluster_ca_certificate": Fn.base64decode(eks.certificate_authority.get(0).data),
                "exec": {
                    "api_version": "client.authentication.k8s.io/v1beta1",
                    "command": "aws",
                    "args": ["eks", "get-token", "--cluster-name", eks.name, "--region", config.region],
                },
            },
        )

        # ---- Karpenter ----
        # the controller runs on the system nodes (never on nodes it manages) and waits for them
        self.karpenter = Karpenter(
            self,
            "karpenter",
            cluster=self.cluster,
            version=config.karpenter_version,
            allow_unverified_version=config.allow_unverified_version,
            system_node_group=self.system_nodes,
            spot_service_linked_role=config.spot_service_linked_role,
        )
        TerraformOutput(self, "karpenter_node_role_name", value=self.karpenter.node_role_name)
        TerraformOutput(self, "karpenter_controller_role_arn", value=self.karpenter.controller_role.role_arn)
        TerraformOutput(self, "interruption_queue_name", value=self.karpenter.interruption_queue.queue_name)
        TerraformOutput(self, "karpenter_chart_version", value=self.karpenter.version)

        TerraformOutput(self, "cluster_name", value=eks.name)
        TerraformOutput(self, "kubernetes_version", value=eks.version)
        TerraformOutput(self, "kubeconfig_command", value=f"aws eks update-kubeconfig --region {config.region} --name {eks.name}")
