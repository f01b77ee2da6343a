"""Settings of the example app, from environment variables with defaults (examples/eks-karpenter/config.ts)."""
import json
import ipaddress
import os
import re
from dataclasses import dataclass, field
from typing import List, Mapping, Optional

from cdktf_eks_karpenter import KarpenterVersions


@dataclass(frozen=True)
class ExampleConfig:
    cluster_name: str
    """CLUSTER_NAME: the EKS cluster name."""
    region: str
    """AWS_REGION: where everything is created."""
    kubernetes_version: str
    """KUBERNETES_VERSION: the EKS control plane version; 1.36, or the newest the chosen Karpenter version runs on when that is older."""
    karpenter_version: str
    """KARPENTER_VERSION: the Karpenter chart and controller version."""
    allow_unverified_version: bool
    """KARPENTER_UNVERIFIED_VERSION=true: allow a KARPENTER_VERSION newer than every release the library knows."""
    public_access_cidrs: List[str]
    """PUBLIC_ACCESS_CIDRS: comma-separated CIDRs allowed to reach the public API endpoint."""
    inflate_replicas: int
    """INFLATE_REPLICAS: replicas of the inflate test Deployment (0 = no pods, no nodes)."""
    spot_service_linked_role: bool
    """SPOT_SERVICE_LINKED_ROLE=true: create the account's EC2 Spot service-linked role."""
    state_region: str
    """STATE_REGION: the state bucket's region (default AWS_REGION)."""
    state_key_prefix: str
    """STATE_KEY_PREFIX: prefix of the state keys (default karpenter/<CLUSTER_NAME>)."""
    state_bucket: Optional[str] = field(default=None)
    """STATE_BUCKET: when set, state goes to this S3 bucket (one key per stack) instead of local files."""


DEFAULTS = {
    "cluster_name": "karpenter-demo",
    "region": "us-east-1",
    "kubernetes_version": "1.36",
    "karpenter_version": KarpenterVersions.DEFAULT,
    "public_access_cidrs": "0.0.0.0/0",
    "inflate_replicas": "0",
}


def read_config(env: Mapping[str, str] = os.environ) -> ExampleConfig:
    """Reads the example's settings; raises ValueError naming the variable for a value that cannot be right."""

    def get(k: str, d: str) -> str:
        v = (env.get(k) or "").strip()
        return v if v else d

    cluster_name = get("CLUSTER_NAME", DEFAULTS["cluster_name"])
    region = get("AWS_REGION", DEFAULTS["region"])
    cidrs = _public_access_cidrs(env)
    for cidr in cidrs:
        octets = cidr.split("/")[0].split(".")
        # Go's net.ParseCIDR, which the aws provider uses, refuses octets with leading zeros (Go 1.17)
        if not re.fullmatch(r"(\d{1,3})(\.\d{1,3}){3}/(\d|[12]\d|3[0-2])", cidr) or any(int(o) > 255 or (len(o) > 1 and o.startswith("0")) for o in octets):
            raise ValueError(f'PUBLIC_ACCESS_CIDRS: "{cidr}" is not an IPv4 CIDR such as 203.0.113.0/24')
        network = ipaddress.ip_network(cidr, strict=False)
        if str(network) != cidr:
            # the aws provider refuses host bits at plan (terraform-provider-aws internal/service/eks/cluster.go,
            # public_access_cidrs: verify.ValidCIDRNetworkAddress)
            raise ValueError(
                f'PUBLIC_ACCESS_CIDRS: "{cidr}" has host bits set; did you mean {network}? The aws provider refuses it at plan ("is not a valid CIDR block"; terraform-provider-aws internal/service/eks/cluster.go, public_access_cidrs: verify.ValidCIDRNetworkAddress)'
            )
    inflate = get("INFLATE_REPLICAS", DEFAULTS["inflate_replicas"])
    # a Deployment's replicas is an int32 (k8s.io/api apps/v1 types.go DeploymentSpec.Replicas)
    if not re.fullmatch(r"\d+", inflate) or int(inflate) > 2147483647:
        raise ValueError(f'INFLATE_REPLICAS: "{inflate}" is not a whole number of replicas from 0 to 2147483647 (a Deployment\'s replicas is an int32)')
    karpenter_version = get("KARPENTER_VERSION", DEFAULTS["karpenter_version"])
    kubernetes_version = get("KUBERNETES_VERSION", _default_kubernetes_version(karpenter_version))
    if not re.fullmatch(r"1\.\d+", kubernetes_version):
        raise ValueError(f'KUBERNETES_VERSION: "{kubernetes_version}" is not an EKS version such as 1.34')
    if not re.fullmatch(r"[0-9A-Za-z][A-Za-z0-9\-_]{0,39}", cluster_name):
        raise ValueError(f'CLUSTER_NAME: "{cluster_name}" is not an EKS cluster name of at most 40 characters')
    state_bucket = (env.get("STATE_BUCKET") or "").strip() or None
    # Amazon S3 User Guide, "General purpose bucket naming rules": the reserved prefixes and suffixes too
    if state_bucket is not None and not (
        re.fullmatch(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]", state_bucket)
        and not re.search(r"\.\.|^\d+\.\d+\.\d+\.\d+$", state_bucket)
        and not re.match(r"(xn--|sthree-|amzn-s3-demo-)", state_bucket)
        and not re.search(r"(-s3alias|--ol-s3|\.mrap|--x-s3|--table-s3)$", state_bucket)
    ):
        raise ValueError(f'STATE_BUCKET: "{state_bucket}" is not an S3 bucket name')
    allow_unverified = _read_bool(env, "KARPENTER_UNVERIFIED_VERSION")
    newest = KarpenterVersions.KNOWN_RELEASES[-1]
    if not allow_unverified and _newer_minor(karpenter_version, newest):
        raise ValueError(
            f'KARPENTER_VERSION: "{karpenter_version}" is newer than {newest}, the newest Karpenter release this library knows: '
            "set KARPENTER_UNVERIFIED_VERSION=true to install it anyway, or set a known release (docs/versions.md)"
        )
    return ExampleConfig(
        cluster_name=cluster_name,
        region=region,
        kubernetes_version=kubernetes_version,
        karpenter_version=karpenter_version,
        allow_unverified_version=allow_unverified,
        public_access_cidrs=cidrs,
        inflate_replicas=int(inflate),
        spot_service_linked_role=_read_bool(env, "SPOT_SERVICE_LINKED_ROLE"),
        state_bucket=state_bucket,
        state_region=get("STATE_REGION", region),
        state_key_prefix=get("STATE_KEY_PREFIX", f"karpenter/{cluster_name}"),
    )


def _public_access_cidrs(env: Mapping[str, str]) -> List[str]:
    """PUBLIC_ACCESS_CIDRS as a list: unset, the documented default 0.0.0.0/0; set but naming no CIDR, refused
    (EKS takes an empty list as 0.0.0.0/0). The message is config.ts's, byte for byte."""
    raw = env.get("PUBLIC_ACCESS_CIDRS")
    cidrs = [c.strip() for c in (DEFAULTS["public_access_cidrs"] if raw is None else raw).split(",") if c.strip()]
    if not cidrs:
        raise ValueError(
            f"PUBLIC_ACCESS_CIDRS: {json.dumps(raw, ensure_ascii=False)} names no CIDR, and an empty list opens the API endpoint to 0.0.0.0/0 (EKS's default): "
            "set the CIDRs allowed to reach it, such as 203.0.113.0/24 or your own address with /32, "
            "or unset PUBLIC_ACCESS_CIDRS for the documented default 0.0.0.0/0"
        )
    return cidrs


def _default_kubernetes_version(karpenter_version: str) -> str:
    """1.36, or the newest Kubernetes the Karpenter version runs on when that is older."""
    try:
        newest = KarpenterVersions.supported_kubernetes_versions(karpenter_version).newest
    except Exception:  # a bad KARPENTER_VERSION is reported by the Karpenter construct, with its field
        return DEFAULTS["kubernetes_version"]
    ours = DEFAULTS["kubernetes_version"]
    return newest if int(newest.split(".")[1]) < int(ours.split(".")[1]) else ours


def _newer_minor(version: str, newest: str) -> bool:
    a, b = (re.fullmatch(r"v?(\d+)\.(\d+)\.\d+", v.strip()) for v in (version, newest))
    return a is not None and b is not None and a[1] == b[1] and int(a[2]) > int(b[2])


def _read_bool(env: Mapping[str, str], name: str) -> bool:
    v = (env.get(name) or "").strip().lower()
    if v in ("", "false", "0"):
        return False
    if v in ("true", "1"):
        return True
    raise ValueError(f'{name}: "{env.get(name)}" is not true or false')
