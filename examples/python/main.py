#!/usr/bin/env python3
"""The example app in Python: the same two stacks as examples/eks-karpenter (TypeScript), `eks` and
`karpenter-nodes`, built with the cdktf-eks-karpenter Python package. Its Terraform JSON is the
TypeScript example's byte for byte (scripts/python-example.sh compares them)."""
import os
import sys

from cdktf import App

from config import read_config
from eks_stack import EksStack
from nodes_stack import KarpenterNodesStack


def build_app(app: App, env=os.environ) -> App:
    config = read_config(env)
    eks = EksStack(app, "eks", config)
    KarpenterNodesStack(app, "karpenter-nodes", karpenter=eks.karpenter, config=config)
    return app


if __name__ == "__main__":
    try:
        # stack traces stay out of cdktf.out so that every synth of the same settings is byte-identical
        build_app(App(stack_traces=False)).synth()
    except (RuntimeError, ValueError) as e:
        # the library's errors reach Python as RuntimeError with its whole message
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
