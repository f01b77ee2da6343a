"""The interruption queue's choices are classes with factories in Python too (issue 22): what was a
union (`True`, options, an existing queue) is InterruptionQueueConfig, and the queue's KMS key is
InterruptionQueueKmsKey. A struct that is a factory's last parameter is written as keyword arguments
(jsii's Python convention). Run by scripts/python-example.sh in the venv that has the built wheel."""
import unittest

from cdktf import App, TerraformStack
from cdktf_eks_karpenter import (
    InterruptionQueueConfig,
    InterruptionQueueKmsKey,
    InterruptionQueueMode,
    Karpenter,
    KarpenterCluster,
)

ARN = "arn:aws:sqs:us-east-1:123456789012:shared-interruptions"


def karpenter(interruption_queue):
    stack = TerraformStack(App(), "eks")
    cluster = KarpenterCluster.from_cluster_name(stack, "cluster", "demo")
    return Karpenter(stack, "karpenter", cluster=cluster, interruption_queue=interruption_queue)


class InterruptionQueueChoices(unittest.TestCase):
    def test_the_factories_say_which_choice(self):
        self.assertEqual(InterruptionQueueConfig.disabled().mode, InterruptionQueueMode.DISABLED)
        created = InterruptionQueueConfig.create(queue_name="q", kms_key=InterruptionQueueKmsKey.create())
        self.assertEqual(created.mode, InterruptionQueueMode.CREATE)
        self.assertTrue(created.create_options.kms_key.creates_key)

    def test_an_existing_queue_is_named_in_the_settings_and_nothing_is_created(self):
        k = karpenter(InterruptionQueueConfig.existing(existing_queue_name="shared-interruptions", existing_queue_arn=ARN))
        self.assertIsNone(k.interruption_queue)
        self.assertEqual(k.interruption_queue_name, "shared-interruptions")

    def test_disabled_creates_no_queue(self):
        k = karpenter(InterruptionQueueConfig.disabled())
        self.assertIsNone(k.interruption_queue)
        self.assertIsNone(k.interruption_queue_name)

    def test_an_alias_for_a_key_is_refused_with_the_construct_path_and_field(self):
        with self.assertRaises(RuntimeError) as caught:
            karpenter(InterruptionQueueConfig.create(kms_key=InterruptionQueueKmsKey.from_key_arn("alias/mine")))
        self.assertIn('eks/karpenter: interruptionQueue.kmsKey = "alias/mine" is invalid: a KMS key ARN', str(caught.exception))


if __name__ == "__main__":
    unittest.main()
