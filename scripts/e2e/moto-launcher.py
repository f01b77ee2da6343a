#!/usr/bin/env python3
"""moto 5.2.5 on loopback with what the Karpenter e2e stage needs and moto lacks.

Runs inside moto's virtualenv of the tool cache (scripts/tools/build.sh moto):
    <tools>/moto-5.2.5/bin/python scripts/e2e/moto-launcher.py -p PORT [--region us-east-1]

What it adds in front of moto's own WSGI app (everything else is moto's, untouched):
- SSM: the public parameters `/aws/service/eks/optimized-ami/<k8s>/amazon-linux-2023/<arch>/<variant>/
  recommended/image_id` (and `.../amazon-linux-2/...`, `bottlerocket`), preloaded into moto's SSM backend
  (moto's PutParameter refuses names that start with `aws`). They name images moto itself holds: one x86_64
  and moto's one arm64 image, so an `al2023@latest` alias resolves to a real DescribeImages answer. Also two
  pinned AL2023 versions (`al2023@v20261101`, the same images; `al2023@v20261201`, other images) for the day-2
  stage's drift step.
- CloudFormation: an AWS::IAM::ManagedPolicy whose document is a JSON string (the getting-started template's)
  is parsed before moto's IAM gets it (moto would store a quoted string and refuse it).
- EKS: access entries, Pod Identity associations and add-ons (moto 5.2.5 has none of them), kept in memory
  with the shapes of the EKS API, so the whole AWS stack applies with OpenTofu. CreateCluster also gets the
  cluster security group EKS creates (a real moto security group in the cluster's VPC, named
  `eks-cluster-sg-<name>-...`), which moto leaves out of `resourcesVpcConfig`.
- Pricing: GetProducts answers an empty price list (moto has no Pricing API; Karpenter keeps its built-in
  prices), so the controller runs as in a VPC with internet access (ISOLATED_VPC off).
- EC2: DescribeCapacityReservations and DescribePlacementGroups, answered empty (moto lacks them); the
  instances CreateFleet launches get the launch template's security groups and instance profile (moto's
  fleet drops them, and Karpenter would then see every node as drifted, SecurityGroupDrift).
- ARC Zonal Shift: GetManagedResource of an EKS cluster moto holds, no shift in force (moto has no such API;
  the getting-started install the day-2 stage makes runs with settings.enableZonalShift, whose start-up check
  calls it and panics on an error).
- EC2 CreateFleet, on-demand `lowest-price` (Karpenter's): EC2 launches the cheapest override, moto the first
  one. The overrides are put in price order first, by the on-demand prices built into Karpenter
  (`pkg/providers/pricing/zz_generated.pricing_aws.go` of the Go module cache the controllers were built from;
  without it moto's order stays, saying so on stderr). Otherwise the first node is not the cheapest that fits,
  and Karpenter's consolidation soon replaces it ("Underutilized ... replace"), moving pods the day-2 stage
  watches for.
- Recording: MOTO_ENABLE_RECORDING / MOTO_RECORDER_FILEPATH are moto's own; the requests a stub answers are
  written to the same recording the same way, so stubbed calls are judged too.

It listens on 127.0.0.1 only. Prints `ready <url>` on stdout when it serves.
"""
import argparse
import io
import json
import os
import re
import sys
import threading
import time
import uuid
from urllib.parse import unquote, parse_qs

from werkzeug.serving import run_simple
from werkzeug.wrappers import Request, Response

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
from moto.core import DEFAULT_ACCOUNT_ID

from fleet_order import cheapest_first  # beside this script (sys.path[0])

K8S_MINORS = [f"1.{m}" for m in range(23, 41)]
X86_IMAGE = "ami-760aaa0f"  # moto's amzn-ami-hvm-2017.09.1.20171103-x86_64-gp2 (in every region's image set)
ARM_IMAGE = "ami-0e9271c829888680e"  # moto's only arm64 image (al2022 ... arm64)
# one image per variant, as in AWS: Karpenter keys the requirements of an alias's AMIs by image id, so the
# same id for the standard and the GPU variants would leave the standard AMI with the GPU requirements
X86_VARIANT_IMAGES = {"standard": X86_IMAGE, "nvidia": "ami-04681a1dbd79675a5", "neuron": "ami-000c540e28953ace2"}


# AL2023 alias versions (`al2023@v20261101`) for the day-2 stage: the running one names the same images as
# `latest`, the newer one other images, so pinning the newer version drifts every node (Karpenter compares a
# NodeClaim's image with the EC2NodeClass's). Path: pkg/providers/amifamily/al2023.go resolvePath,
# amazon-eks-node-al2023-<arch>-<variant>-<k8s>-<version>.
AL2023_VERSION_IMAGES = {
    "v20261101": X86_VARIANT_IMAGES,
    "v20261201": {"standard": "ami-076f415166b04f5fe", "nvidia": "ami-0b301ce3ce347599c", "neuron": "ami-785db401"},
}


def ssm_parameter_names():
    """The public parameters Karpenter reads for its AMI aliases, each with the image it names."""
    out = {}
    for k in K8S_MINORS:
        base = f"/aws/service/eks/optimized-ami/{k}"
        for variant, image in X86_VARIANT_IMAGES.items():
            out[f"{base}/amazon-linux-2023/x86_64/{variant}/recommended/image_id"] = image
        for version, images in AL2023_VERSION_IMAGES.items():
            for variant, image in images.items():
                out[f"{base}/amazon-linux-2023/x86_64/{variant}/amazon-eks-node-al2023-x86_64-{variant}-{k}-{version}/image_id"] = image
            out[f"{base}/amazon-linux-2023/arm64/standard/amazon-eks-node-al2023-arm64-standard-{k}-{version}/image_id"] = ARM_IMAGE
        # moto has one arm64 image: the standard variant only (the GPU parameters answer ParameterNotFound)
        out[f"{base}/amazon-linux-2023/arm64/standard/recommended/image_id"] = ARM_IMAGE
        out[f"{base}/amazon-linux-2/recommended/image_id"] = X86_IMAGE
        out[f"{base}/amazon-linux-2-gpu/recommended/image_id"] = X86_IMAGE
        out[f"{base}/amazon-linux-2-arm64/recommended/image_id"] = ARM_IMAGE
        out[f"/aws/service/bottlerocket/aws-k8s-{k}/x86_64/latest/image_id"] = X86_IMAGE
        out[f"/aws/service/bottlerocket/aws-k8s-{k}/arm64/latest/image_id"] = ARM_IMAGE
    return out


def preload_ssm(region):
    from moto.ssm.models import ssm_backends, Parameter
    from moto.core.utils import utcnow

    backend = ssm_backends[DEFAULT_ACCOUNT_ID][region]
    for name, value in ssm_parameter_names().items():
        # the dict's own __getitem__ would try moto's lazy loaders; append to the list directly
        super(type(backend._parameters), backend._parameters).__getitem__(name).append(
            Parameter(account_id=DEFAULT_ACCOUNT_ID, name=name, value=value, parameter_type="String", description=None,
                      allowed_pattern=None, keyid=None, last_modified_date=utcnow(), version=1, data_type="aws:ec2:image"))


def patch_cloudformation():
    """
    moto's CloudFormation writes an AWS::IAM::ManagedPolicy's PolicyDocument with json.dumps, so a document given
    as a JSON string (Karpenter's getting-started template: `PolicyDocument: !Sub |` JSON, for its interpolated
    condition keys) becomes a quoted string that IAM refuses ("Syntax errors in policy"): parsed first here.
    """
    from moto.iam.models import ManagedPolicy

    create = ManagedPolicy.create_from_cloudformation_json.__func__

    def create_parsed(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        props = cloudformation_json.get("Properties", {})
        if isinstance(props.get("PolicyDocument"), str):
            props["PolicyDocument"] = json.loads(props["PolicyDocument"])
        return create(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs)

    ManagedPolicy.create_from_cloudformation_json = classmethod(create_parsed)


def _service_of(environ):
    auth = environ.get("HTTP_AUTHORIZATION", "")
    m = re.search(r"Credential=[^/]+/[^/]+/([^/]+)/([^/]+)/aws4_request", auth)
    return (m.group(2), m.group(1)) if m else (None, None)


def _json(status, body):
    return Response(json.dumps(body), status=status, content_type="application/json")


def _not_found(what):
    return Response(json.dumps({"message": f"{what} not found"}), status=404, content_type="application/json",
                    headers={"x-amzn-ErrorType": "ResourceNotFoundException"})


class Stubs:
    """EKS access entries, Pod Identity associations, add-ons; two empty EC2 describes."""

    def __init__(self, region):
        self.region = region
        self.lock = threading.Lock()
        self.access_entries = {}  # (cluster, principalArn) -> entry
        self.associations = {}  # (cluster, id) -> association
        self.addons = {}  # (cluster, name) -> addon

    def arn(self, kind, *parts):
        return f"arn:aws:eks:{self.region}:{DEFAULT_ACCOUNT_ID}:{kind}/" + "/".join(parts)

    def eks(self, req, path):
        body = json.loads(req.get_data() or b"{}") if req.method in ("POST", "PUT") else {}
        now = time.time()
        m = re.fullmatch(r"/clusters/([^/]+)/access-entries(?:/(.+))?", path)
        if m:
            cluster, principal = m.group(1), unquote(m.group(2)) if m.group(2) else None
            with self.lock:
                if req.method == "POST" and principal is None:
                    p = body["principalArn"]
                    if (cluster, p) in self.access_entries:
                        return Response(json.dumps({"message": "The specified access entry resource is already in use on this cluster."}), status=409,
                                        content_type="application/json", headers={"x-amzn-ErrorType": "ResourceInUseException"})
                    e = {"clusterName": cluster, "principalArn": p, "kubernetesGroups": body.get("kubernetesGroups", []),
                         "accessEntryArn": self.arn("access-entry", cluster, "role", DEFAULT_ACCOUNT_ID, p.split("/")[-1], uuid.uuid4().hex[:8]),
                         "createdAt": now, "modifiedAt": now, "tags": body.get("tags", {}),
                         "username": body.get("username") or (f"system:node:{{{{EC2PrivateDNSName}}}}" if body.get("type") == "EC2_LINUX" else p),
                         "type": body.get("type", "STANDARD")}
                    self.access_entries[(cluster, p)] = e
                    return _json(200, {"accessEntry": e})
                if principal is None and req.method == "GET":
                    return _json(200, {"accessEntries": [p for (c, p) in self.access_entries if c == cluster]})
                e = self.access_entries.get((cluster, principal))
                if not e:
                    return _not_found(f"access entry {principal}")
                if req.method == "GET":
                    return _json(200, {"accessEntry": e})
                if req.method == "POST":
                    e.update({k: v for k, v in body.items() if k in ("kubernetesGroups", "username")}, modifiedAt=now)
                    return _json(200, {"accessEntry": e})
                if req.method == "DELETE":
                    del self.access_entries[(cluster, principal)]
                    return _json(200, {})
        m = re.fullmatch(r"/clusters/([^/]+)/pod-identity-associations(?:/([^/]+))?", path)
        if m:
            cluster, aid = m.group(1), m.group(2)
            with self.lock:
                if req.method == "POST" and aid is None:
                    aid = "a-" + uuid.uuid4().hex[:17]
                    a = {"clusterName": cluster, "namespace": body["namespace"], "serviceAccount": body["serviceAccount"],
                         "roleArn": body["roleArn"], "associationArn": self.arn("podidentityassociation", cluster, aid),
                         "associationId": aid, "tags": body.get("tags", {}), "createdAt": now, "modifiedAt": now,
                         "disableSessionTags": body.get("disableSessionTags", False)}
                    if body.get("targetRoleArn"):
                        a["targetRoleArn"] = body["targetRoleArn"]
                    self.associations[(cluster, aid)] = a
                    return _json(200, {"association": a})
                if aid is None and req.method == "GET":
                    return _json(200, {"associations": [{k: a[k] for k in ("clusterName", "namespace", "serviceAccount", "associationArn", "associationId")}
                                                        for (c, _), a in self.associations.items() if c == cluster]})
                a = self.associations.get((cluster, aid))
                if not a:
                    return _not_found(f"pod identity association {aid}")
                if req.method == "GET":
                    return _json(200, {"association": a})
                if req.method == "POST":
                    a.update({k: v for k, v in body.items() if k in ("roleArn", "disableSessionTags", "targetRoleArn")}, modifiedAt=now)
                    return _json(200, {"association": a})
                if req.method == "DELETE":
                    del self.associations[(cluster, aid)]
                    return _json(200, {"association": a})
        m = re.fullmatch(r"/clusters/([^/]+)/addons(?:/([^/]+))?(/update)?", path)
        if m:
            cluster, name = m.group(1), m.group(2)
            with self.lock:
                if req.method == "POST" and name is None:
                    name = body["addonName"]
                    a = {"addonName": name, "clusterName": cluster, "status": "ACTIVE",
                         "addonVersion": body.get("addonVersion") or "v1.0.0-eksbuild.1", "health": {"issues": []},
                         "addonArn": self.arn("addon", cluster, name, uuid.uuid4().hex[:8]), "createdAt": now, "modifiedAt": now,
                         "tags": body.get("tags", {}), "configurationValues": body.get("configurationValues", ""),
                         "podIdentityAssociations": []}
                    if body.get("serviceAccountRoleArn"):
                        a["serviceAccountRoleArn"] = body["serviceAccountRoleArn"]
                    self.addons[(cluster, name)] = a
                    return _json(200, {"addon": a})
                if name is None and req.method == "GET":
                    return _json(200, {"addons": [n for (c, n) in self.addons if c == cluster]})
                a = self.addons.get((cluster, name))
                if not a:
                    return _not_found(f"addon {name}")
                if req.method == "GET":
                    return _json(200, {"addon": a})
                if req.method == "POST":
                    a.update({k: v for k, v in body.items() if k in ("addonVersion", "configurationValues", "serviceAccountRoleArn")}, modifiedAt=now)
                    return _json(200, {"update": {"id": uuid.uuid4().hex, "status": "Successful", "type": "AddonUpdate", "params": [], "createdAt": now, "errors": []}})
                if req.method == "DELETE":
                    del self.addons[(cluster, name)]
                    return _json(200, {"addon": a})
        if path == "/addons/supported-versions":
            return _json(200, {"addons": []})
        return None

    def ec2(self, req):
        params = parse_qs(req.get_data(as_text=True)) if req.method == "POST" else {}
        params.update(parse_qs(req.query_string.decode()))
        action = (params.get("Action") or [""])[0]
        empty = {"DescribeCapacityReservations": "capacityReservationSet", "DescribePlacementGroups": "placementGroupSet"}
        if action in empty:
            xml = (f'<?xml version="1.0" encoding="UTF-8"?><{action}Response xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">'
                   f"<requestId>{uuid.uuid4()}</requestId><{empty[action]}/></{action}Response>")
            return Response(xml, status=200, content_type="text/xml")
        return None


def _security_groups_of(data):
    """The security group ids of launch template data, top-level or per network interface (Karpenter's form)."""
    out = []

    def walk(v, key=None):
        if key in ("SecurityGroupId", "SecurityGroupIds", "Groups"):
            for g in (v if isinstance(v, list) else list(v.values()) if isinstance(v, dict) else [v]):
                if isinstance(g, str) and g not in out:
                    out.append(g)
            return
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, k)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(data)
    return out


def _lt_data(ec2, name):
    lt = ec2.get_launch_template_by_name(name)
    return lt.get_version(lt.latest_version_number).data


def fix_fleet_instances(region, params, before):
    """What EC2 does and moto's CreateFleet does not: the template's security groups and profile on the instance."""
    from moto.ec2.models import ec2_backends

    ec2 = ec2_backends[DEFAULT_ACCOUNT_ID][region]
    configs = {}
    for k, v in params.items():
        m = re.fullmatch(r"LaunchTemplateConfigs\.(\d+)\.LaunchTemplateSpecification\.LaunchTemplateName", k)
        if m:
            configs[m.group(1)] = v[0]
    for inst in ec2.all_instances():
        if inst.id in before:
            continue
        name = None
        for n, lt_name in configs.items():
            types = {params[k][0] for k in params if re.fullmatch(rf"LaunchTemplateConfigs\.{n}\.Overrides\.\d+\.InstanceType", k)}
            if not types or inst.instance_type in types:
                name = lt_name
                break
        if not name:
            continue
        data = _lt_data(ec2, name)
        groups = _security_groups_of(data)
        sgs = [g for g in (ec2.get_security_group_from_id(x) for x in groups) if g]
        if sgs:
            inst.security_groups = sgs
        profile = data.get("IamInstanceProfile") or {}
        if profile.get("Name") or profile.get("Arn"):
            try:
                ec2.associate_iam_instance_profile(instance_id=inst.id, iam_instance_profile_name=profile.get("Name"), iam_instance_profile_arn=profile.get("Arn"))
            except Exception as e:  # noqa: BLE001 - the instance keeps no profile; the launch template still names it
                print(f"moto-launcher: instance profile for {inst.id}: {e}", file=sys.stderr)


def _cluster_sg(region, cluster_name):
    from moto.eks.models import eks_backends

    cluster = eks_backends[DEFAULT_ACCOUNT_ID][region].clusters.get(cluster_name)
    return cluster.resources_vpc_config.get("clusterSecurityGroupId") if cluster else None


def add_cluster_security_group(region, cluster_name):
    """What EKS does on CreateCluster and moto does not: the cluster security group, in the cluster's VPC."""
    from moto.eks.models import eks_backends
    from moto.ec2.models import ec2_backends

    cluster = eks_backends[DEFAULT_ACCOUNT_ID][region].clusters.get(cluster_name)
    if not cluster:
        return
    cfg = cluster.resources_vpc_config
    if cfg.get("clusterSecurityGroupId"):
        return
    ec2 = ec2_backends[DEFAULT_ACCOUNT_ID][region]
    subnets = cfg.get("subnetIds") or []
    vpc_id = ec2.get_subnet(subnets[0]).vpc_id if subnets else None
    if not vpc_id:
        return
    sg = ec2.create_security_group(name=f"eks-cluster-sg-{cluster_name}-{uuid.uuid4().int % 10**10}",
                                   description="EKS created security group applied to ENI that is attached to EKS Control Plane master nodes, as well as any managed workloads.",
                                   vpc_id=vpc_id, tags={"aws:eks:cluster-name": cluster_name, f"kubernetes.io/cluster/{cluster_name}": "owned"})
    cfg["clusterSecurityGroupId"] = sg.id
    cfg.setdefault("vpcId", vpc_id)


class Launcher:
    def __init__(self, app, region):
        self.app = app
        self.region = region
        self.stubs = Stubs(region)
        # the ids moto gave to what was created (the recording holds requests only): launch template name -> id,
        # for judging a later DeleteLaunchTemplate by id against the template's tags
        rec = os.environ.get("MOTO_RECORDER_FILEPATH")
        self.ids_file = f"{rec}.ids.jsonl" if rec else None

    def note_launch_template(self, region, name):
        if not self.ids_file or not name:
            return
        try:
            from moto.ec2.models import ec2_backends
            lt = ec2_backends[DEFAULT_ACCOUNT_ID][region].get_launch_template_by_name(name)
            with open(self.ids_file, "a") as f:
                f.write(json.dumps({"launchTemplate": name, "id": lt.id}) + "\n")
        except Exception as e:  # noqa: BLE001 - a failed create: nothing to note
            print(f"moto-launcher: launch template {name}: {e}", file=sys.stderr)

    def __call__(self, environ, start_response):
        service, region = _service_of(environ)
        path = environ.get("PATH_INFO", "")
        if service == "pricing":
            # moto has no Pricing API: an empty price list (Karpenter keeps its built-in prices), so the
            # controller runs without ISOLATED_VPC (which would also skip its instance-profile cleanup)
            length = int(environ.get("CONTENT_LENGTH") or 0)
            raw = environ["wsgi.input"].read(length) if length else b""
            from moto.moto_api import recorder
            recorder._record_request(_RecordedRequest(environ, raw))
            action = (environ.get("HTTP_X_AMZ_TARGET") or "").split(".")[-1]
            body = {"FormatVersion": "aws_v1", "PriceList": []} if action == "GetProducts" else {"Services": [], "FormatVersion": "aws_v1"}
            return Response(json.dumps(body), status=200, content_type="application/x-amz-json-1.1")(environ, start_response)
        if service == "arc-zonal-shift":
            # moto has no ARC Zonal Shift: GetManagedResource answers for an EKS cluster moto holds, with no shift
            # in force (what Karpenter's start-up check with settings.enableZonalShift and its refresh read)
            from moto.moto_api import recorder
            recorder._record_request(_RecordedRequest(environ, b""))
            m = re.fullmatch(r"/managedresources/(.+)", path)
            arn = unquote(m.group(1)) if m else ""
            c = re.fullmatch(r"arn:aws:eks:([^:]+):\d+:cluster/(.+)", arn)
            if environ["REQUEST_METHOD"] == "GET" and c:
                from moto.eks.models import eks_backends
                if c.group(2) in eks_backends[DEFAULT_ACCOUNT_ID][c.group(1)].clusters:
                    return _json(200, {"arn": arn, "name": c.group(2), "appliedWeights": {}, "zonalShifts": [], "autoshifts": [],
                                       "zonalAutoshiftStatus": "DISABLED"})(environ, start_response)
            return _not_found(f"managed resource {arn}")(environ, start_response)
        if service in ("eks", "ec2"):
            # the request's body is read here and put back for moto (and its recorder) to read again
            length = int(environ.get("CONTENT_LENGTH") or 0)
            raw = environ["wsgi.input"].read(length) if length else b""
            environ["wsgi.input"] = io.BytesIO(raw)
            req = Request(environ, shallow=False)
            req._cached_data = raw
            environ["wsgi.input"] = io.BytesIO(raw)
            resp = self.stubs.eks(req, path) if service == "eks" else self.stubs.ec2(req)
            if resp is not None:
                # moto records the requests it serves; the stubbed ones are recorded here, the same way
                from moto.moto_api import recorder
                recorder._record_request(_RecordedRequest(environ, raw))
                return resp(environ, start_response)
            environ["wsgi.input"] = io.BytesIO(raw)
            if service == "ec2" and environ["REQUEST_METHOD"] == "POST":
                params = parse_qs(raw.decode("utf-8", "replace"))
                if (params.get("Action") or [""])[0] == "CreateLaunchTemplate" and (params.get("DryRun") or ["false"])[0] != "true":
                    out = list(self.app(environ, start_response))
                    self.note_launch_template(region or self.region, (params.get("LaunchTemplateName") or [""])[0])
                    return out
                if (params.get("Action") or [""])[0] == "CreateFleet" and (params.get("DryRun") or ["false"])[0] != "true":
                    from moto.ec2.models import ec2_backends
                    try:
                        raw = cheapest_first(raw)
                    except Exception as e:  # noqa: BLE001 - moto's order stays
                        print(f"moto-launcher: CreateFleet price order: {e}", file=sys.stderr)
                    environ["wsgi.input"] = io.BytesIO(raw)
                    environ["CONTENT_LENGTH"] = str(len(raw))
                    params = parse_qs(raw.decode("utf-8", "replace"))
                    r = region or self.region
                    before = {i.id for i in ec2_backends[DEFAULT_ACCOUNT_ID][r].all_instances()}
                    out = list(self.app(environ, start_response))
                    try:
                        fix_fleet_instances(r, params, before)
                    except Exception as e:  # noqa: BLE001
                        print(f"moto-launcher: CreateFleet fix-up: {e}", file=sys.stderr)
                    return out
            m = re.fullmatch(r"/clusters/([^/]+)", path)
            if service == "eks" and environ["REQUEST_METHOD"] == "DELETE" and m:
                # EKS deletes the cluster security group with the cluster (else the VPC cannot be deleted)
                sg_id = _cluster_sg(region or self.region, unquote(m.group(1)))
                out = list(self.app(environ, start_response))
                if sg_id:
                    try:
                        from moto.ec2.models import ec2_backends
                        ec2_backends[DEFAULT_ACCOUNT_ID][region or self.region].delete_security_group(group_id=sg_id)
                    except Exception as e:  # noqa: BLE001
                        print(f"moto-launcher: deleting cluster security group {sg_id}: {e}", file=sys.stderr)
                return out
            if service == "eks" and environ["REQUEST_METHOD"] == "POST" and path == "/clusters":
                body = json.loads(raw or b"{}")
                name = body.get("name")
                out = list(self.app(environ, start_response))
                try:
                    add_cluster_security_group(region or self.region, name)
                    # moto keeps no accessConfig; EKS answers it (the stack sets authenticationMode API)
                    from moto.eks.models import eks_backends
                    cl = eks_backends[DEFAULT_ACCOUNT_ID][region or self.region].clusters.get(name)
                    if cl is not None:
                        # EKS fills in the service CIDR when the request names none (Karpenter's validation
                        # reads it: "Failed to detect the cluster CIDR"); moto keeps the request's config as is
                        knc = dict(cl.kubernetes_network_config or {})
                        knc.setdefault("ipFamily", "ipv4")
                        if knc.get("ipFamily", "ipv4") == "ipv4":
                            knc.setdefault("serviceIpv4Cidr", "172.20.0.0/16")
                        cl.kubernetes_network_config = knc
                        ac = body.get("accessConfig") or {}
                        cl.access_config = {"authenticationMode": ac.get("authenticationMode", "CONFIG_MAP"),
                                            "bootstrapClusterCreatorAdminPermissions": ac.get("bootstrapClusterCreatorAdminPermissions", True)}
                except Exception as e:  # the stack's aws_ec2_tag then fails, naming the missing group
                    print(f"moto-launcher: cluster security group for {name}: {e}", file=sys.stderr)
                return out
        return self.app(environ, start_response)


class _RecordedRequest:
    """The fields moto's Recorder reads from a request."""

    def __init__(self, environ, raw):
        r = Request(environ)
        self.headers = r.headers
        self.method = r.method
        self.raw_path = r.path
        q = environ.get("QUERY_STRING")
        self.raw_url = f"http://{environ.get('HTTP_HOST', '127.0.0.1')}{environ.get('PATH_INFO', '')}" + (f"?{q}" if q else "")
        self.environ = {"wsgi.input": io.BytesIO(raw)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-H", "--host", default="127.0.0.1")
    ap.add_argument("-p", "--port", type=int, required=True)
    ap.add_argument("--region", default=os.environ.get("AWS_REGION", "us-east-1"))
    args = ap.parse_args()
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("moto-launcher: listens on loopback only")
    os.environ.setdefault("MOTO_PORT", str(args.port))
    preload_ssm(args.region)
    patch_cloudformation()
    moto_app = DomainDispatcherApplication(create_backend_app)
    app = Launcher(moto_app, args.region)
    print(f"ready http://{args.host}:{args.port}", flush=True)
    run_simple(args.host, args.port, app, threaded=True, request_handler=MotoRequestHandler)


if __name__ == "__main__":
    main()
