import { Construct } from "constructs";
import { Fn, TerraformDataSource, TerraformResource } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { DataAwsAvailabilityZones } from "@cdktf/provider-aws/lib/data-aws-availability-zones";
import { Vpc } from "@cdktf/provider-aws/lib/vpc";
import { Subnet } from "@cdktf/provider-aws/lib/subnet";
import { InternetGateway } from "@cdktf/provider-aws/lib/internet-gateway";
import { Eip } from "@cdktf/provider-aws/lib/eip";
import { NatGateway } from "@cdktf/provider-aws/lib/nat-gateway";
import { Route } from "@cdktf/provider-aws/lib/route";
import { RouteTable } from "@cdktf/provider-aws/lib/route-table";
import { RouteTableAssociation } from "@cdktf/provider-aws/lib/route-table-association";
import { DiscoveryTags } from "../../lib";

export interface NetworkProps {
  /** The cluster name: subnet tags for the load balancer controller and Karpenter discovery. */
  readonly clusterName: string;
  /** @default "10.0.0.0/16" */
  readonly cidr?: string;
  /** @default 2 */
  readonly azCount?: number;
  /** The AWS provider of the region the network is in. @default the stack's default */
  readonly provider?: AwsProvider;
}

/**
 * A VPC over two availability zones: small public subnets (load balancers, the NAT gateway) and
 * large private subnets (nodes and pods: the VPC CNI gives every pod a VPC address). One NAT
 * gateway keeps the example cheap; use one per AZ in production.
 */
export class Network extends Construct {
  public readonly vpc: Vpc;
  public readonly publicSubnets: Subnet[];
  public readonly privateSubnets: Subnet[];

  constructor(scope: Construct, id: string, props: NetworkProps) {
    super(scope, id);
    const cidr = props.cidr ?? "10.0.0.0/16";
    const azCount = props.azCount ?? 2;
    const azs = new DataAwsAvailabilityZones(this, "azs", {
      state: "available",
      // local zones and wavelength zones cannot host EKS nodes of every type
      filter: [{ name: "opt-in-status", values: ["opt-in-not-required"] }],
    });
    this.vpc = new Vpc(this, "vpc", {
      cidrBlock: cidr,
      enableDnsHostnames: true,
      enableDnsSupport: true,
      tags: { Name: props.clusterName },
    });
    const igw = new InternetGateway(this, "igw", { vpcId: this.vpc.id, tags: { Name: props.clusterName } });
    const az = (i: number) => Fn.element(azs.names, i);

    this.publicSubnets = [];
    this.privateSubnets = [];
    for (let i = 0; i < azCount; i++) {
      this.publicSubnets.push(
        new Subnet(this, `public-${i}`, {
          vpcId: this.vpc.id,
          availabilityZone: az(i),
          cidrBlock: Fn.cidrsubnet(cidr, 8, 100 + i),
          mapPublicIpOnLaunch: true,
          tags: { Name: `${props.clusterName}-public-${i}`, "kubernetes.io/role/elb": "1" },
        }),
      );
      this.privateSubnets.push(
        new Subnet(this, `private-${i}`, {
          vpcId: this.vpc.id,
          availabilityZone: az(i),
          cidrBlock: Fn.cidrsubnet(cidr, 3, i),
          tags: {
            Name: `${props.clusterName}-private-${i}`,
            "kubernetes.io/role/internal-elb": "1",
            ...DiscoveryTags.subnetTags(props.clusterName),
          },
        }),
      );
    }

    const publicRoutes = new RouteTable(this, "public-routes", {
      vpcId: this.vpc.id,
      tags: { Name: `${props.clusterName}-public` },
    });
    const eip = new Eip(this, "nat-ip", {
      domain: "vpc",
      tags: { Name: `${props.clusterName}-nat` },
      dependsOn: [igw],
    });
    const nat = new NatGateway(this, "nat", {
      allocationId: eip.id,
      subnetId: this.publicSubnets[0].id,
      tags: { Name: props.clusterName },
      dependsOn: [igw],
    });
    const privateRoutes = new RouteTable(this, "private-routes", {
      vpcId: this.vpc.id,
      tags: { Name: `${props.clusterName}-private` },
    });
    // separate aws_route resources: inline routes in JSON must spell out every route attribute
    new Route(this, "public-default-route", {
      routeTableId: publicRoutes.id,
      destinationCidrBlock: "0.0.0.0/0",
      gatewayId: igw.id,
    });
    new Route(this, "private-default-route", {
      routeTableId: privateRoutes.id,
      destinationCidrBlock: "0.0.0.0/0",
      natGatewayId: nat.id,
    });
    this.publicSubnets.forEach(
      (s, i) =>
        new RouteTableAssociation(this, `public-${i}-routes`, { subnetId: s.id, routeTableId: publicRoutes.id }),
    );
    this.privateSubnets.forEach(
      (s, i) =>
        new RouteTableAssociation(this, `private-${i}-routes`, { subnetId: s.id, routeTableId: privateRoutes.id }),
    );
    const provider = props.provider;
    if (provider)
      for (const c of this.node.findAll())
        if (c instanceof TerraformResource || c instanceof TerraformDataSource) c.provider = provider;
  }
}
