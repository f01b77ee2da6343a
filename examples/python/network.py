"""A VPC over two availability zones: public subnets (load balancers, NAT) and private subnets (nodes, pods) (network.ts)."""
from typing import List, Optional

from constructs import Construct
from cdktf import Fn, TerraformDataSource, TerraformResource
from cdktf_cdktf_provider_aws.data_aws_availability_zones import DataAwsAvailabilityZones, DataAwsAvailabilityZonesFilter
from cdktf_cdktf_provider_aws.eip import Eip
from cdktf_cdktf_provider_aws.internet_gateway import InternetGateway
from cdktf_cdktf_provider_aws.nat_gateway import NatGateway
from cdktf_cdktf_provider_aws.provider import AwsProvider
from cdktf_cdktf_provider_aws.route import Route
from cdktf_cdktf_provider_aws.route_table import RouteTable
from cdktf_cdktf_provider_aws.route_table_association import RouteTableAssociation
from cdktf_cdktf_provider_aws.subnet import Subnet
from cdktf_cdktf_provider_aws.vpc import Vpc
from cdktf_eks_karpenter import DiscoveryTags


class Network(Construct):
    """One NAT gateway keeps the example cheap; use one per AZ in production."""

    def __init__(self, scope: Construct, id: str, *, cluster_name: str, cidr: str = "10.0.0.0/16", az_count: int = 2, provider: Optional[AwsProvider] = None) -> None:
        super().__init__(scope, id)
        azs = DataAwsAvailabilityZones(
            self,
            "azs",
            state="available",
            # local zones and wavelength zones cannot host EKS nodes of every type
            filter=[DataAwsAvailabilityZonesFilter(name="opt-in-status", values=["opt-in-not-required"])],
        )
        self.vpc = Vpc(self, "vpc", cidr_block=cidr, enable_dns_hostnames=True, enable_dns_support=True, tags={"Name": cluster_name})
        igw = InternetGateway(self, "igw", vpc_id=self.vpc.id, tags={"Name": cluster_name})

        def az(i: int) -> str:
            return Fn.element(azs.names, i)

        self.public_subnets: List[Subnet] = []
        self.private_subnets: List[Subnet] = []
        for i in range(az_count):
            self.public_subnets.append(
                Subnet(
                    self,
                    f"public-{i}",
                    vpc_id=self.vpc.id,
                    availability_zone=az(i),
                    cidr_block=Fn.cidrsubnet(cidr, 8, 100 + i),
                    map_public_ip_on_launch=True,
                    tags={"Name": f"{cluster_name}-public-{i}", "kubernetes.io/role/elb": "1"},
                )
            )
            self.private_subnets.append(
                Subnet(
                    self,
                    f"private-{i}",
                    vpc_id=self.vpc.id,
                    availability_zone=az(i),
                    cidr_block=Fn.cidrsubnet(cidr, 3, i),
                    tags={
                        "Name": f"{cluster_name}-private-{i}",
                        "kubernetes.io/role/internal-elb": "1",
                        **DiscoveryTags.subnet_tags(cluster_name),
                    },
                )
            )

        public_routes = RouteTable(self, "public-routes", vpc_id=self.vpc.id, tags={"Name": f"{cluster_name}-public"})
        eip = Eip(self, "nat-ip", domain="vpc", tags={"Name": f"{cluster_name}-nat"}, depends_on=[igw])
        nat = NatGateway(self, "nat", allocation_id=eip.id, subnet_id=self.public_subnets[0].id, tags={"Name": cluster_name}, depends_on=[igw])
        private_routes = RouteTable(self, "private-routes", vpc_id=self.vpc.id, tags={"Name": f"{cluster_name}-private"})
        # separate aws_route resources: inline routes in JSON must spell out every route attribute
        Route(self, "public-default-route", route_table_id=public_routes.id, destination_cidr_block="0.0.0.0/0", gateway_id=igw.id)
        Route(self, "private-default-route", route_table_id=private_routes.id, destination_cidr_block="0.0.0.0/0", nat_gateway_id=nat.id)
        for i, s in enumerate(self.public_subnets):
            RouteTableAssociation(self, f"public-{i}-routes", subnet_id=s.id, route_table_id=public_routes.id)
        for i, s in enumerate(self.private_subnets):
            RouteTableAssociation(self, f"private-{i}-routes", subnet_id=s.id, route_table_id=private_routes.id)
        if provider is not None:
            for c in self.node.find_all():
                if isinstance(c, (TerraformResource, TerraformDataSource)):
                    c.provider = provider
