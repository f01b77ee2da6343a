"""Structs inside lists reach the library whole when written as the struct classes; a dict keeps only
the TypeScript (camelCase) field names, which the README's Python section warns about. Run by
scripts/python-example.sh in the venv that has the built wheel."""
import unittest

from cdktf import App, TerraformStack
from cdktf_eks_karpenter import BlockDevice, BlockDeviceMapping, Ec2NodeClass, KarpenterCluster

KEY = "arn:aws:kms:us-east-1:123456789012:key/0123abcd-0000-0000-0000-000000000000"


def node_class(block_device_mappings):
    stack = TerraformStack(App(), "nodes")
    cluster = KarpenterCluster.from_cluster_name(stack, "cluster", "demo")
    return Ec2NodeClass(stack, "nc", name="d", cluster=cluster, role="KarpenterNodeRole-demo",
                        block_device_mappings=block_device_mappings)


class StructsInLists(unittest.TestCase):
    def test_struct_classes_keep_every_field(self):
        nc = node_class([BlockDeviceMapping(device_name="/dev/xvda", root_volume=True,
                                            ebs=BlockDevice(volume_size="100Gi", encrypted=True, kms_key_id=KEY,
                                                            delete_on_termination=False))])
        ebs = nc.spec.block_device_mappings[0].ebs
        self.assertEqual(ebs.kms_key_id, KEY)
        self.assertEqual(ebs.delete_on_termination, False)

    def test_a_dict_keeps_the_camel_case_keys_only(self):
        # the jsii runtime drops a key the struct does not declare before the library sees it: what the
        # README's Python section says, held here so that a runtime that starts refusing it is noticed
        nc = node_class([{"deviceName": "/dev/xvda", "ebs": {"volumeSize": "100Gi", "encrypted": True, "kmsKeyID": KEY, "delete_on_termination": False}}])
        ebs = nc.spec.block_device_mappings[0].ebs
        self.assertEqual(ebs.kms_key_id, KEY)
        self.assertIsNone(ebs.delete_on_termination)


if __name__ == "__main__":
    unittest.main()
