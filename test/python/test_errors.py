"""The Python package raises the library's errors with their whole message, and reports synth-time
problems as structs: run by scripts/python-example.sh in the venv that has the built wheel
(python -m unittest discover -s test/python)."""
import os
import re
import unittest

from cdktf import App, TerraformStack
from cdktf_eks_karpenter import AppValidation, KarpenterVersions, NodeClassRef, NodePool

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def doc_block(page: str, first_line_start: str) -> str:
    """The fenced block of a docs page whose first line starts with first_line_start."""
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        text = f.read()
    for block in re.findall(r"\n```\n(.*?)\n```\n", text, re.S):
        if block.startswith(first_line_start):
            return block
    raise AssertionError(f"{page} has no block starting with {first_line_start!r}")


class InvalidProps(unittest.TestCase):
    def test_every_problem_of_a_node_pool_in_one_runtime_error(self):
        # the example of docs/node-objects.md, in Python: three problems of one NodePool at once
        stack = TerraformStack(App(), "nodes")
        with self.assertRaises(RuntimeError) as caught:
            NodePool(
                stack,
                "gpu-pool",
                node_class=NodeClassRef.named("gpu"),
                expire_after="720",
                limits={"cpu": "lots"},
                disruption={"budgets": [{"nodes": "10%"}, {"nodes": "0", "schedule": "@daily"}]},
            )
        message = str(caught.exception)
        # the whole message, as TypeScript users get it (test/nodes/node-validation.test.ts holds the page to it)
        self.assertEqual(message, doc_block("docs/node-objects.md", "nodes/gpu-pool: 3 problems:"))
        self.assertIn('nodes/gpu-pool: expireAfter = "720" is invalid: a duration', message)
        # each problem's line ends with its stable code (docs/error-codes.md)
        self.assertIn('or "Never" [NODEPOOL_FORMAT]', message)

    def test_a_bad_version_names_its_field(self):
        with self.assertRaises(RuntimeError) as caught:
            KarpenterVersions.supported_kubernetes_versions("0.37.0")
        # a static method's error reaches Python prefixed with the error's name
        self.assertRegex(str(caught.exception), r"^(KarpenterValidationError: )?supportedKubernetesVersions: karpenterVersion = \"0\.37\.0\" is invalid: a Karpenter release")


class AppValidationReport(unittest.TestCase):
    def test_synth_time_problems_are_structs_with_path_field_and_value(self):
        app = App()
        stack = TerraformStack(app, "nodes")
        for id in ("a", "b"):
            NodePool(stack, id, name="same", node_class=NodeClassRef.named("default"))
        report = AppValidation.validate(app)
        self.assertGreaterEqual(len(report.errors), 1)
        names = [e for e in report.errors if e.field == "name"]
        self.assertTrue(names, [e.message for e in report.errors])
        self.assertEqual(names[0].value, "same")
        self.assertEqual(names[0].code, "KUBERNETES_DUPLICATE_NAME")
        self.assertTrue(names[0].path.startswith("nodes/"))
        self.assertIn("is invalid:", names[0].message)
        # a struct as the last parameter is keyword arguments in Python (jsii's convention)
        text = AppValidation.format_report(errors=report.errors, other_errors=report.other_errors, warnings=report.warnings)
        self.assertIn(f"error: {names[0].message}", text)


if __name__ == "__main__":
    unittest.main()
