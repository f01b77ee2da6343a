"""The cluster's Terraform object and DiscoveryTags' subnets have one type each (issue 22): resource is a
TerraformElement with typed eks_cluster / eks_cluster_data beside it, subnets are strings (a Subnet's id
keeps the Subnet's checks), subnet_tags takes the cluster name. Run by scripts/python-example.sh in the
venv that has the built wheel."""
import json
import unittest

from cdktf import App, TerraformElement, TerraformOutput, TerraformStack, Testing
from cdktf_cdktf_provider_aws.eks_cluster import EksCluster
from cdktf_cdktf_provider_aws.provider import AwsProvider
from cdktf_cdktf_provider_aws.subnet import Subnet
from cdktf_eks_karpenter import DiscoveryTags, KarpenterCluster


def stack_with_cluster():
    stack = TerraformStack(App(), "s")
    AwsProvider(stack, "aws", region="us-east-1")
    eks = EksCluster(stack, "eks", name="demo", role_arn="arn:aws:iam::123456789012:role/cluster",
                     vpc_config={"subnet_ids": ["subnet-00000001"]})
    return stack, eks, KarpenterCluster.from_eks_cluster(eks)


class ClusterResource(unittest.TestCase):
    def test_typed_accessors_and_depends_on(self):
        stack, eks, cluster = stack_with_cluster()
        read = KarpenterCluster.from_cluster_name(stack, "existing", "prod")
        self.assertIsInstance(cluster.resource, TerraformElement)
        self.assertIsInstance(cluster.eks_cluster, EksCluster)
        self.assertIsNone(cluster.eks_cluster_data)
        self.assertIsNone(read.eks_cluster)
        self.assertEqual(read.eks_cluster_data.node.path, "s/existing")
        self.assertEqual(cluster.resource.node.path, "s/eks")
        TerraformOutput(stack, "after", value="x", depends_on=[cluster.eks_cluster, read.eks_cluster_data])
        # the TerraformElement itself is taken too (Python checks no interface here; Java and .NET need the typed ones)
        TerraformOutput(stack, "after_resource", value="x", depends_on=[cluster.resource, read.resource])
        outputs = json.loads(Testing.synth(stack))["output"]
        self.assertEqual(outputs["after"]["depends_on"], ["${aws_eks_cluster.eks}", "${data.aws_eks_cluster.existing}"])
        self.assertEqual(outputs["after_resource"]["depends_on"], outputs["after"]["depends_on"])


class DiscoveryTagsTypes(unittest.TestCase):
    def test_subnet_id_reference_keeps_the_subnet_checks(self):
        stack, _eks, cluster = stack_with_cluster()
        public = Subnet(stack, "public", vpc_id="vpc-1", cidr_block="10.0.0.0/24", map_public_ip_on_launch=True)
        with self.assertRaises(RuntimeError) as caught:
            DiscoveryTags(stack, "discovery", cluster=cluster, subnets=["subnet-0123abcd", public.id])
        self.assertIn('s/discovery: subnets[1] = "s/public" is invalid: a private subnet', str(caught.exception))
        private = Subnet(stack, "private", vpc_id="vpc-1", cidr_block="10.0.1.0/24")
        tags = DiscoveryTags(stack, "ok", cluster=cluster, subnets=["subnet-0123abcd", private.id])
        self.assertEqual([t.node.id for t in tags.subnet_tag_resources], ["subnet-0", "subnet-1"])

    def test_subnet_tags_takes_the_cluster_name(self):
        stack, _eks, cluster = stack_with_cluster()
        self.assertEqual(DiscoveryTags.subnet_tags("demo"), {"karpenter.sh/discovery": "demo"})
        Subnet(stack, "tagged", vpc_id="vpc-1", cidr_block="10.0.2.0/24", tags=DiscoveryTags.subnet_tags(cluster.cluster_name))
        subnet = json.loads(Testing.synth(stack))["resource"]["aws_subnet"]["tagged"]
        self.assertEqual(subnet["tags"], {"karpenter.sh/discovery": "${aws_eks_cluster.eks.name}"})
