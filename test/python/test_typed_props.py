"""NodePool limits and the kubelet pod count have one type each (issue 22): limits values are strings,
maxPods a number and the CEL expression maxPodsExpression, which the manifest carries as kubelet.maxPods.
A value of the other kind is refused in Python before the library sees it. Run by
scripts/python-example.sh in the venv that has the built wheel."""
import json
import unittest

from cdktf import App, TerraformStack, Testing
from cdktf_eks_karpenter import Ec2NodeClass, KarpenterCluster, KubeletConfiguration, NodeClassRef, NodePool


def stack_and_cluster():
    stack = TerraformStack(App(), "nodes")
    return stack, KarpenterCluster.from_cluster_name(stack, "cluster", "demo")


def manifest_specs(stack):
    resources = json.loads(Testing.synth(stack))["resource"]["kubernetes_manifest"]
    return {m["manifest"]["kind"]: m["manifest"]["spec"] for m in resources.values()}


class Limits(unittest.TestCase):
    def test_strings_are_emitted_as_written(self):
        stack, _ = stack_and_cluster()
        NodePool(stack, "pool", node_class=NodeClassRef.named("default"), limits={"cpu": "100", "memory": "1000Gi"})
        self.assertEqual(manifest_specs(stack)["NodePool"]["limits"], {"cpu": "100", "memory": "1000Gi"})

    def test_a_number_is_refused_by_the_jsii_runtime_naming_the_key(self):
        stack, _ = stack_and_cluster()
        with self.assertRaises(RuntimeError) as caught:
            NodePool(stack, "pool", node_class=NodeClassRef.named("default"), limits={"cpu": 100})
        message = str(caught.exception)
        self.assertIn("Key 'limits': Unable to deserialize value as map<string>", message)
        self.assertIn("Key 'cpu': Unable to deserialize value as string", message)


class MaxPods(unittest.TestCase):
    def test_the_expression_is_emitted_as_kubelet_max_pods(self):
        stack, cluster = stack_and_cluster()
        nc = Ec2NodeClass(stack, "nc", name="default", cluster=cluster, role="KarpenterNodeRole-demo",
                          kubelet=KubeletConfiguration(max_pods_expression="min(110, max_pods)"))
        self.assertEqual(nc.spec.kubelet.max_pods_expression, "min(110, max_pods)")
        self.assertEqual(manifest_specs(stack)["EC2NodeClass"]["kubelet"], {"maxPods": "min(110, max_pods)"})

    def test_a_number_is_emitted_as_the_number(self):
        stack, cluster = stack_and_cluster()
        Ec2NodeClass(stack, "nc", name="default", cluster=cluster, role="KarpenterNodeRole-demo", kubelet=KubeletConfiguration(max_pods=110))
        self.assertEqual(manifest_specs(stack)["EC2NodeClass"]["kubelet"], {"maxPods": 110})

    def test_a_string_in_max_pods_is_a_type_error(self):
        with self.assertRaises(TypeError) as caught:
            KubeletConfiguration(max_pods="min(110, max_pods)")
        self.assertIn("argument max_pods", str(caught.exception))

    def test_both_are_refused_naming_both(self):
        stack, cluster = stack_and_cluster()
        with self.assertRaises(RuntimeError) as caught:
            Ec2NodeClass(stack, "nc", name="default", cluster=cluster, role="KarpenterNodeRole-demo",
                         kubelet=KubeletConfiguration(max_pods=110, max_pods_expression="min(110, max_pods)"))
        self.assertEqual(
            str(caught.exception),
            'nodes/nc: kubelet.maxPodsExpression = "min(110, max_pods)" is invalid: unset when kubelet.maxPods is set: '
            "both are the manifest's kubelet.maxPods; keep kubelet.maxPods (110) for a fixed count, or "
            "kubelet.maxPodsExpression for a count computed per instance type, not both [EC2NODECLASS_KUBELET_MAX_PODS]",
        )


if __name__ == "__main__":
    unittest.main()
