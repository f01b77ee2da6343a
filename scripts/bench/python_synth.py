"""One cold synth of examples/python/ with the time of each phase, for `npm run bench` (scripts/bench/python.cjs).

Prints one JSON line: milliseconds of
  runtime     import of jsii, constructs and cdktf (starts the Node process that runs the JavaScript)
  providers   import of the aws, helm and kubernetes provider modules the example uses (loads their assemblies)
  library     import of cdktf_eks_karpenter (loads this library's assembly)
  constructs  the calls into this library while the app is built (its constructors and static methods,
              the checks that run in them included), measured around each call
  build       building the app, the calls above included
  synth       app.synth() (this library's synth-time checks and cdktf's output)
  total       from the start of this script
"""
import json
import os
import sys
import time

t0 = time.perf_counter()
import jsii  # noqa: E402,F401
import constructs  # noqa: E402,F401
import cdktf  # noqa: E402

t1 = time.perf_counter()
import cdktf_cdktf_provider_aws.data_aws_availability_zones  # noqa: E402,F401
import cdktf_cdktf_provider_aws.data_aws_partition  # noqa: E402,F401
import cdktf_cdktf_provider_aws.eip  # noqa: E402,F401
import cdktf_cdktf_provider_aws.eks_addon  # noqa: E402,F401
import cdktf_cdktf_provider_aws.eks_cluster  # noqa: E402,F401
import cdktf_cdktf_provider_aws.iam_role  # noqa: E402,F401
import cdktf_cdktf_provider_aws.iam_role_policy_attachment  # noqa: E402,F401
import cdktf_cdktf_provider_aws.internet_gateway  # noqa: E402,F401
import cdktf_cdktf_provider_aws.nat_gateway  # noqa: E402,F401
import cdktf_cdktf_provider_aws.provider  # noqa: E402,F401
import cdktf_cdktf_provider_aws.route  # noqa: E402,F401
import cdktf_cdktf_provider_aws.route_table  # noqa: E402,F401
import cdktf_cdktf_provider_aws.route_table_association  # noqa: E402,F401
import cdktf_cdktf_provider_aws.subnet  # noqa: E402,F401
import cdktf_cdktf_provider_aws.vpc  # noqa: E402,F401
import cdktf_cdktf_provider_helm.provider  # noqa: E402,F401
import cdktf_cdktf_provider_kubernetes.deployment_v1  # noqa: E402,F401
import cdktf_cdktf_provider_kubernetes.provider  # noqa: E402,F401

t2 = time.perf_counter()
import cdktf_eks_karpenter  # noqa: E402

t3 = time.perf_counter()

spent = [0.0]


class Timed:
    """Stands in for one of this library's classes: times each construction and static call."""

    def __init__(self, cls):
        self._cls = cls

    def __call__(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return self._cls(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - start

    def __getattr__(self, name):
        attr = getattr(self._cls, name)
        if not callable(attr):
            return attr

        def call(*args, **kwargs):
            start = time.perf_counter()
            try:
                return attr(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - start

        return call


for name in ("DiscoveryTags", "Ec2NodeClass", "Karpenter", "KarpenterCluster", "KarpenterVersions", "NodePool", "SystemNodeGroup"):
    setattr(cdktf_eks_karpenter, name, Timed(getattr(cdktf_eks_karpenter, name)))

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python"))
from main import build_app  # noqa: E402

t4 = time.perf_counter()
app = build_app(cdktf.App(stack_traces=False))
t5 = time.perf_counter()
app.synth()
t6 = time.perf_counter()
ms = lambda a, b: round((b - a) * 1000)  # noqa: E731
print(json.dumps({"runtime": ms(t0, t1), "providers": ms(t1, t2), "library": ms(t2, t3), "constructs": round(spent[0] * 1000), "build": ms(t4, t5), "synth": ms(t5, t6), "total": ms(t0, t6)}))
