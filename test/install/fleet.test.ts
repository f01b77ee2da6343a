import * as YAML from "yaml";
import { App, TerraformDataSource, TerraformResource, TerraformStack, Testing } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { Subnet } from "@cdktf/provider-aws/lib/subnet";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { KarpenterNodeRole } from "../../lib/aws/karpenter-node-role";
import { KarpenterRelease } from "../../lib/helm/karpenter-release";
import { KarpenterCrdRelease } from "../../lib/helm/karpenter-crd-release";
import { SpotServiceLinkedRole } from "../../lib/aws/spot-service-linked-role";
import { DiscoveryTags } from "../../lib/cluster/discovery-tags";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodePool } from "../../lib/nodes/node-pool";
import { KarpenterValidationError } from "../../lib/core/errors";
import { validateApp } from "../../lib/install/validate-app";
import { synthJson, thrown } from "../helpers";
import { InterruptionQueueKmsKey } from "../../lib/aws/interruption-queue-kms-key";
import { InterruptionQueueConfig } from "../../lib/aws/karpenter-options";

/** An EksCluster named `name` on `provider` (the stack's default when undefined). */
function eksCluster(stack: TerraformStack, id: string, name: string, provider?: AwsProvider) {
  return new EksCluster(stack, id, {
    provider,
    name,
    roleArn: "arn:aws:iam::123456789012:role/eks",
    vpcConfig: { subnetIds: ["subnet-00000001"] },
  });
}

/** Every resource and data source of a synthesized stack, as [address, body]. */
function everything(json: any): [string, any][] {
  const out: [string, any][] = [];
  for (const kind of ["resource", "data"])
    for (const [type, byName] of Object.entries<any>(json[kind] ?? {}))
      for (const [name, body] of Object.entries<any>(byName))
        out.push([`${kind === "data" ? "data." : ""}${type}.${name}`, body]);
  return out;
}

/** One stack, two regions: AWS providers `aws.us` and `aws.eu`, Helm providers `helm.us` and `helm.eu`, a cluster on each. */
function twoRegionStack() {
  const app = Testing.app();
  const stack = new TerraformStack(app, "fleet");
  const aws = {
    us: new AwsProvider(stack, "aws-us", { alias: "us", region: "us-east-1" }),
    eu: new AwsProvider(stack, "aws-eu", { alias: "eu", region: "eu-west-1" }),
  };
  const helm = {
    us: new HelmProvider(stack, "helm-us", { alias: "us", kubernetes: { configPath: "us" } }),
    eu: new HelmProvider(stack, "helm-eu", { alias: "eu", kubernetes: { configPath: "eu" } }),
  };
  const clusters = {
    us: KarpenterCluster.fromEksCluster(eksCluster(stack, "us", "blue", aws.us)),
    eu: KarpenterCluster.fromEksCluster(eksCluster(stack, "eu", "green", aws.eu)),
  };
  return { app, stack, aws, helm, clusters };
}

describe("fleets: each install on its own cluster's providers", () => {
  test("AWS: every resource and data source of an install uses the cluster's provider; one partition/region/account set per provider; the policy's region is that provider's", () => {
    const { stack, helm, clusters } = twoRegionStack();
    const us = new Karpenter(stack, "karpenter-us", { cluster: clusters.us, helmProvider: helm.us });
    const eu = new Karpenter(stack, "karpenter-eu", {
      cluster: clusters.eu,
      helmProvider: helm.eu,
      spotServiceLinkedRole: true,
      interruptionQueue: InterruptionQueueConfig.create({ kmsKey: InterruptionQueueKmsKey.create() }),
    });
    const json = synthJson(stack);
    const body = (c: TerraformResource | TerraformDataSource) =>
      json[c instanceof TerraformDataSource ? "data" : "resource"][c.terraformResourceType][c.friendlyUniqueId];
    const elements = (k: Karpenter) =>
      k.node
        .findAll()
        .filter(
          (c): c is TerraformResource | TerraformDataSource =>
            c instanceof TerraformResource || c instanceof TerraformDataSource,
        );
    for (const [k, alias] of [
      [us, "us"],
      [eu, "eu"],
    ] as const) {
      const aws = elements(k).filter((c) => c.terraformResourceType.startsWith("aws_"));
      expect(aws.length).toBeGreaterThan(15);
      for (const c of aws) expect([c.node.path, body(c).provider]).toEqual([c.node.path, `aws.${alias}`]);
      const releases = elements(k).filter((c) => c.terraformResourceType === "helm_release");
      expect(releases.map((c) => body(c).provider)).toEqual([`helm.${alias}`, `helm.${alias}`]);
    }
    // the context data sources: one set per provider, not per install or stack
    for (const type of ["aws_partition", "aws_region", "aws_caller_identity"]) {
      expect(
        Object.values<any>(json.data[type])
          .map((d) => d.provider)
          .sort(),
      ).toEqual(["aws.eu", "aws.us"]);
    }
    const regionOf = (alias: string) =>
      Object.keys(json.data.aws_region).find((n) => json.data.aws_region[n].provider === `aws.${alias}`);
    for (const [k, alias, other] of [
      [us, "us", "eu"],
      [eu, "eu", "us"],
    ] as const) {
      const policies = JSON.stringify(k.controllerRole.policies.map((p) => JSON.parse(body(p).policy)));
      expect(policies).toContain(`"aws:RequestedRegion":"\${data.aws_region.${regionOf(alias)}.region}"`);
      expect(policies).not.toContain(`data.aws_region.${regionOf(other)}.region`);
    }
  });

  test("AWS: fromClusterName({ provider }) reads the cluster through that provider, and the install follows it", () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, "existing");
    new AwsProvider(stack, "aws", { region: "us-east-1" });
    const eu = new AwsProvider(stack, "aws-eu", { alias: "eu", region: "eu-west-1" });
    new HelmProvider(stack, "helm", {});
    const cluster = KarpenterCluster.fromClusterName(stack, "prod", "prod", { provider: eu });
    new Karpenter(stack, "karpenter", { cluster });
    const json = synthJson(stack);
    expect(json.data.aws_eks_cluster.prod.provider).toBe("aws.eu");
    const aws = everything(json).filter(([a]) => /^(data\.)?aws_/.test(a));
    expect(aws.filter(([, b]) => b.provider !== "aws.eu").map(([a]) => a)).toEqual([]);
    expect(() => Testing.synth(stack, true)).not.toThrow();
  });

  test("the only provider of a kind in the stack is used without a prop (no provider argument), as before", () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, "one");
    new AwsProvider(stack, "aws", { region: "us-east-1" });
    new HelmProvider(stack, "helm", {});
    new KubernetesProvider(stack, "kubernetes", {});
    const karpenter = new Karpenter(stack, "karpenter", {
      cluster: KarpenterCluster.fromEksCluster(eksCluster(stack, "cluster", "demo")),
    });
    const nodeClass = karpenter.addEc2NodeClass("default");
    karpenter.addNodePool("default", { nodeClass });
    expect(() => Testing.synth(stack, true)).not.toThrow();
    expect(everything(synthJson(stack)).filter(([, b]) => b.provider !== undefined)).toEqual([]);
  });

  test("Kubernetes: node objects take kubernetesProvider; a pool takes its class's; addEc2NodeClass / addNodePool pass it through", () => {
    const { stack, helm, clusters } = twoRegionStack();
    const k8s = {
      us: new KubernetesProvider(stack, "k8s-us", { alias: "us" }),
      eu: new KubernetesProvider(stack, "k8s-eu", { alias: "eu" }),
    };
    const us = new Karpenter(stack, "karpenter-us", { cluster: clusters.us, helmProvider: helm.us });
    const eu = new Karpenter(stack, "karpenter-eu", { cluster: clusters.eu, helmProvider: helm.eu });
    const usClass = new Ec2NodeClass(stack, "us-class", { name: "default", karpenter: us, kubernetesProvider: k8s.us });
    const usPool = new NodePool(stack, "us-pool", { name: "default", nodeClass: usClass });
    const euClass = eu.addEc2NodeClass("default", { kubernetesProvider: k8s.eu });
    const euPool = eu.addNodePool("default", { nodeClass: euClass, kubernetesProvider: k8s.eu });
    expect([usClass, usPool, euClass, euPool].map((o) => o.kubernetesProvider)).toEqual([
      k8s.us,
      k8s.us,
      k8s.eu,
      k8s.eu,
    ]);
    const manifests = Object.values<any>(synthJson(stack).resource.kubernetes_manifest).map((m) => [
      m.manifest.kind,
      m.provider,
    ]);
    expect(manifests.sort()).toEqual([
      ["EC2NodeClass", "kubernetes.eu"],
      ["EC2NodeClass", "kubernetes.us"],
      ["NodePool", "kubernetes.eu"],
      ["NodePool", "kubernetes.us"],
    ]);
    // the same names on two providers are two clusters: no duplicate-name error
    expect(() => Testing.synth(stack, true)).not.toThrow();
  });

  test("a NodePool on another Kubernetes provider than its Ec2NodeClass of the same stack is refused at construction", () => {
    const { stack, helm, clusters } = twoRegionStack();
    const k8s = {
      us: new KubernetesProvider(stack, "k8s-us", { alias: "us" }),
      eu: new KubernetesProvider(stack, "k8s-eu", { alias: "eu" }),
    };
    const us = new Karpenter(stack, "karpenter-us", { cluster: clusters.us, helmProvider: helm.us });
    const nodeClass = new Ec2NodeClass(stack, "us-class", {
      name: "default",
      karpenter: us,
      kubernetesProvider: k8s.us,
    });
    expect(() => new NodePool(stack, "pool", { name: "default", nodeClass, kubernetesProvider: k8s.eu })).toThrow(
      "fleet/pool: kubernetesProvider = \"fleet/k8s-eu\" is invalid: the Kubernetes provider of its EC2NodeClass's cluster: fleet/us-class is on fleet/k8s-us (kubernetes.us), and a NodePool on another provider would refer to an EC2NodeClass its cluster does not have; leave kubernetesProvider unset to take the class's [NODEPOOL_PROVIDER_MISMATCH]",
    );
    expect(stack.node.tryFindChild("pool")).toBeUndefined();
    expect(
      new NodePool(stack, "same", { name: "default", nodeClass, kubernetesProvider: k8s.us }).kubernetesProvider,
    ).toBe(k8s.us);
  });

  test("node objects of two installs on one Kubernetes provider are on one cluster: the same name is an error", () => {
    const { stack, helm, clusters } = twoRegionStack();
    const k8s = new KubernetesProvider(stack, "k8s", { alias: "one" });
    const us = new Karpenter(stack, "karpenter-us", { cluster: clusters.us, helmProvider: helm.us });
    const eu = new Karpenter(stack, "karpenter-eu", { cluster: clusters.eu, helmProvider: helm.eu });
    new Ec2NodeClass(stack, "us-class", { name: "default", karpenter: us, kubernetesProvider: k8s });
    new Ec2NodeClass(stack, "eu-class", { name: "default", karpenter: eu, kubernetesProvider: k8s });
    expect(() => Testing.synth(stack, true)).toThrow(
      /fleet\/eu-class: name = "default" is invalid: a name no other EC2NodeClass on the same cluster has: fleet\/us-class is EC2NodeClass "default" too \(both use the Kubernetes provider fleet\/k8s\)/,
    );
  });

  test("building blocks take `provider` / `helmProvider`", () => {
    const { stack, aws, helm, clusters } = twoRegionStack();
    new KarpenterNodeRole(stack, "role", { cluster: clusters.us, provider: aws.eu, roleName: "x" });
    new SpotServiceLinkedRole(stack, "spot", { provider: aws.us });
    new KarpenterCrdRelease(stack, "crds", { helmProvider: helm.eu });
    new KarpenterRelease(stack, "controller", { cluster: clusters.eu, helmProvider: helm.eu });
    const json = synthJson(stack);
    expect(json.resource.aws_iam_role.role_E4B5C3A1 ?? Object.values<any>(json.resource.aws_iam_role)[0]).toMatchObject(
      { provider: "aws.eu", name: "x" },
    );
    expect(Object.values<any>(json.resource.aws_iam_service_linked_role)[0].provider).toBe("aws.us");
    expect(Object.values<any>(json.resource.helm_release).map((r) => r.provider)).toEqual(["helm.eu", "helm.eu"]);
  });

  describe("ambiguous: a synth error naming the construct path and the prop to set", () => {
    test("several Helm providers in the stack and no helmProvider", () => {
      const { stack, helm, clusters } = twoRegionStack();
      new Karpenter(stack, "karpenter-us", { cluster: clusters.us, helmProvider: helm.us });
      new Karpenter(stack, "karpenter-eu", { cluster: clusters.eu });
      const error = thrown(() => Testing.synth(stack, true));
      expect(error.message).toContain(
        "fleet/karpenter-eu: helmProvider = undefined is invalid: a HelmProvider: stack fleet holds 2 helm providers (helm.us, helm.eu), and without helmProvider the resources would silently use the default one; set helmProvider to the HelmProvider of this cluster [PROVIDER_AMBIGUOUS]",
      );
      expect(error.message).not.toContain("fleet/karpenter-us:");
    });

    test("one Helm provider and two installs relying on it", () => {
      const app = Testing.app();
      const stack = new TerraformStack(app, "fleet");
      new AwsProvider(stack, "aws", { region: "us-east-1" });
      new HelmProvider(stack, "helm", {});
      new Karpenter(stack, "blue", { cluster: KarpenterCluster.fromEksCluster(eksCluster(stack, "b", "blue")) });
      new Karpenter(stack, "green", { cluster: KarpenterCluster.fromEksCluster(eksCluster(stack, "g", "green")) });
      const error = thrown(() => Testing.synth(stack, true));
      expect(error.message).toContain(
        "fleet/blue: helmProvider = undefined is invalid: a HelmProvider of its own cluster: stack fleet holds several installs relying on the default helm provider (fleet/green too), which reaches one cluster only",
      );
      expect(error.message).toContain("fleet/green: helmProvider = undefined is invalid:");
    });

    test("one Helm provider given to the installs of two clusters: an error on each naming helmProvider", () => {
      const { stack, helm, clusters } = twoRegionStack();
      new Karpenter(stack, "karpenter-us", { cluster: clusters.us, helmProvider: helm.us });
      new Karpenter(stack, "karpenter-eu", { cluster: clusters.eu, helmProvider: helm.us });
      const error = thrown(() => Testing.synth(stack, true));
      expect(error.message).toContain(
        'fleet/karpenter-eu: helmProvider = "fleet/helm-us" is invalid: a HelmProvider of its own cluster: fleet/karpenter-us is for another cluster and uses helm.us too, which reaches one cluster only, so both installs would land there; set helmProvider to the HelmProvider of this cluster (one provider per cluster) [PROVIDER_HELM_OTHER_CLUSTER]',
      );
      expect(error.message).toContain('fleet/karpenter-us: helmProvider = "fleet/helm-us" is invalid');
    });

    test("the stack's only Helm provider is aliased", () => {
      const app = Testing.app();
      const stack = new TerraformStack(app, "s");
      new AwsProvider(stack, "aws", { region: "us-east-1" });
      new HelmProvider(stack, "helm", { alias: "blue" });
      new Karpenter(stack, "karpenter", { cluster: KarpenterCluster.fromEksCluster(eksCluster(stack, "c", "blue")) });
      expect(() => Testing.synth(stack, true)).toThrow(
        /s\/karpenter: helmProvider = undefined is invalid: a HelmProvider: the only helm provider of stack s is aliased \(helm\.blue\)/,
      );
    });

    test("several Kubernetes providers and a node object without kubernetesProvider; objects of two installs on one default", () => {
      const { stack, helm, clusters } = twoRegionStack();
      const us = new Karpenter(stack, "karpenter-us", { cluster: clusters.us, helmProvider: helm.us });
      const eu = new Karpenter(stack, "karpenter-eu", { cluster: clusters.eu, helmProvider: helm.eu });
      new KubernetesProvider(stack, "k8s-us", { alias: "us" });
      new KubernetesProvider(stack, "k8s-eu", { alias: "eu" });
      new Ec2NodeClass(stack, "us-class", { name: "us", karpenter: us });
      eu.addEc2NodeClass("eu");
      const error = thrown(() => Testing.synth(stack, true));
      expect(error.message).toMatch(
        /fleet\/us-class: kubernetesProvider = undefined is invalid: a KubernetesProvider: stack fleet holds 2 kubernetes providers \(kubernetes\.us, kubernetes\.eu\)/,
      );
      expect(error.message).toMatch(/fleet\/karpenter-eu\/node-class-eu: kubernetesProvider = undefined is invalid/);

      const app2 = new App({ outdir: Testing.app().outdir });
      const nodes = new TerraformStack(app2, "nodes");
      new KubernetesProvider(nodes, "kubernetes", {});
      const s2 = new TerraformStack(app2, "fleet");
      new AwsProvider(s2, "aws", { region: "us-east-1" });
      new HelmProvider(s2, "helm-b", { alias: "b" });
      new HelmProvider(s2, "helm-g", { alias: "g" });
      const kb = new Karpenter(s2, "blue", {
        cluster: KarpenterCluster.fromEksCluster(eksCluster(s2, "b", "blue")),
        helmProvider: s2.node.findChild("helm-b") as HelmProvider,
      });
      const kg = new Karpenter(s2, "green", {
        cluster: KarpenterCluster.fromEksCluster(eksCluster(s2, "g", "green")),
        helmProvider: s2.node.findChild("helm-g") as HelmProvider,
      });
      new Ec2NodeClass(nodes, "blue-class", { name: "blue", karpenter: kb });
      new Ec2NodeClass(nodes, "green-class", { name: "green", karpenter: kg });
      expect(() => Testing.synth(nodes, true)).toThrow(
        /nodes\/green-class: kubernetesProvider = undefined is invalid: a KubernetesProvider of its own cluster: stack nodes holds several installs relying on the default kubernetes provider \(nodes\/blue-class too\)/,
      );
    });

    test("fromClusterName without provider in a stack with several AWS providers; a building block whose cluster is in another stack", () => {
      const app = Testing.app();
      const stack = new TerraformStack(app, "s");
      new AwsProvider(stack, "aws", { region: "us-east-1" });
      new AwsProvider(stack, "aws-eu", { alias: "eu", region: "eu-west-1" });
      KarpenterCluster.fromClusterName(stack, "prod", "prod");
      expect(() => Testing.synth(stack, true)).toThrow(
        /s\/prod: provider = undefined is invalid: an AwsProvider: stack s holds 2 aws providers \(aws, aws\.eu\), and without provider the resources would silently use the default one/,
      );

      const other = new TerraformStack(app, "cluster");
      new AwsProvider(other, "aws", { region: "us-east-1" });
      const cluster = KarpenterCluster.fromEksCluster(eksCluster(other, "c", "demo"));
      new KarpenterNodeRole(stack, "role", { cluster });
      expect(() => Testing.synth(stack, true)).toThrow(/s\/role: provider = undefined is invalid/);
    });

    test("a cluster of another stack in another region than the stack's only AWS provider: an error naming cluster; the same region is fine", () => {
      const build = (region: string) => {
        const app = Testing.app();
        const a = new TerraformStack(app, "a");
        new AwsProvider(a, "aws", { region: "us-east-1" });
        const cluster = KarpenterCluster.fromEksCluster(
          eksCluster(a, "eks", "blue", new AwsProvider(a, "aws-eu", { alias: "eu", region: "eu-west-1" })),
        );
        const b = new TerraformStack(app, "b");
        new AwsProvider(b, "aws", { region });
        new HelmProvider(b, "helm", {});
        new Karpenter(b, "karpenter", { cluster });
        new KarpenterNodeRole(b, "role", { cluster, roleName: "extra" });
        return app;
      };
      const error = thrown(() => build("us-east-1").synth());
      expect(error.message).toContain(
        "b/karpenter: cluster = \"a/eks\" is invalid: a cluster in the region of this stack's AWS provider: a/eks is in eu-west-1 (aws.eu of stack a), and this construct's AWS resources would use the default aws provider of stack b, in us-east-1; read the cluster in this stack with KarpenterCluster.fromClusterName(this stack, id, name, { provider }) naming an AwsProvider of eu-west-1 [CLUSTER_REGION_MISMATCH]",
      );
      expect(error.message).toContain(
        'b/role: provider = "a/eks" is invalid: a cluster in the region of this stack\'s AWS provider',
      );
      expect(() => build("eu-west-1").synth()).not.toThrow();
    });

    test("a provider of another stack, or of another kind, is refused at construction", () => {
      const { stack, aws, clusters } = twoRegionStack();
      const other = new TerraformStack(Testing.app(), "other");
      const foreign = new HelmProvider(other, "helm", {});
      expect(() => new Karpenter(stack, "k", { cluster: clusters.us, helmProvider: foreign })).toThrow(
        KarpenterValidationError,
      );
      expect(() => new Karpenter(stack, "k2", { cluster: clusters.us, helmProvider: foreign })).toThrow(
        'fleet/k2: helmProvider = "other/helm" is invalid: a HelmProvider of stack fleet, where the resources are: Terraform configures providers per stack, and other/helm is in stack other [PROVIDER_OTHER_STACK]',
      );
      expect(
        () =>
          new Ec2NodeClass(stack, "c", {
            karpenter: undefined,
            role: "r",
            subnetSelectorTerms: [{ id: "subnet-00000001" }],
            securityGroupSelectorTerms: [{ id: "sg-00000001" }],
            kubernetesProvider: aws.us as any,
          }),
      ).toThrow(/fleet\/c: kubernetesProvider = "fleet\/aws-us" is invalid: a KubernetesProvider/);
      expect(stack.node.tryFindChild("k")).toBeUndefined();
    });
  });
});

describe("fleets: discovery tags", () => {
  function twoClusters() {
    const app = Testing.app();
    const stack = new TerraformStack(app, "s");
    new AwsProvider(stack, "aws", { region: "us-east-1" });
    return {
      stack,
      blue: KarpenterCluster.fromEksCluster(eksCluster(stack, "b", "blue")),
      green: KarpenterCluster.fromEksCluster(eksCluster(stack, "g", "green")),
    };
  }

  test("one subnet tagged for two clusters is a synth error naming both clusters and the ID", () => {
    const { stack, blue, green } = twoClusters();
    new DiscoveryTags(stack, "blue-tags", { cluster: blue, subnets: ["subnet-0000000a", "subnet-05ea7ed0"] });
    new DiscoveryTags(stack, "green-tags", { cluster: green, subnets: ["subnet-05ea7ed0", "subnet-0000000c"] });
    const error = thrown(() => Testing.synth(stack, true));
    expect(error.message).toContain(
      's/green-tags: subnets[0] = "subnet-05ea7ed0" is invalid: a subnet no other cluster\'s discovery tag claims: s/blue-tags tags subnet subnet-05ea7ed0 with karpenter.sh/discovery for cluster blue, and this construct tags it for cluster green.',
    );
    expect(error.message).toContain("DiscoveryTags.clusterTagKey(<cluster name>)");
    expect(error.message).not.toMatch(/subnet-0000000a|subnet-0000000c/);
    expect(error.message).not.toContain("s/blue-tags:");
  });

  test("a Subnet of the app passed as subnet.id is compared by the Subnet (named by its path), in its stack or another", () => {
    const { stack, blue, green } = twoClusters();
    const shared = new Subnet(stack, "shared", { vpcId: "vpc-1", cidrBlock: "10.0.0.0/24" });
    const own = new Subnet(stack, "own", { vpcId: "vpc-1", cidrBlock: "10.0.1.0/24" });
    new DiscoveryTags(stack, "blue-tags", { cluster: blue, subnets: [shared.id] });
    new DiscoveryTags(stack, "green-tags", { cluster: green, subnets: [own.id, shared.id] });
    const error = thrown(() => Testing.synth(stack, true));
    expect(error.message).toContain(
      's/green-tags: subnets[1] = "s/shared" is invalid: a subnet no other cluster\'s discovery tag claims: s/blue-tags tags subnet s/shared with karpenter.sh/discovery for cluster blue',
    );
    expect(error.message).not.toContain("subnets[0]");

    const app = Testing.app();
    const network = new TerraformStack(app, "network");
    new AwsProvider(network, "aws", { region: "us-east-1" });
    const subnet = new Subnet(network, "subnet", { vpcId: "vpc-1", cidrBlock: "10.0.0.0/24" });
    for (const name of ["blue", "green"]) {
      const s = new TerraformStack(app, name);
      new AwsProvider(s, "aws", { region: "us-east-1" });
      new DiscoveryTags(s, "tags", {
        cluster: KarpenterCluster.fromEksCluster(eksCluster(s, "c", name)),
        subnets: [subnet.id],
      });
    }
    expect(() => app.synth()).toThrow(
      /green\/tags: subnets\[0\] = "network\/subnet" is invalid: .*blue\/tags tags subnet network\/subnet with karpenter.sh\/discovery for cluster blue/,
    );
  });

  test("one security group tagged for two clusters is a synth error too; for the same cluster twice, two owners of one tag", () => {
    const { stack, blue, green } = twoClusters();
    new DiscoveryTags(stack, "blue-tags", { cluster: blue, securityGroupId: "sg-00000001" });
    new DiscoveryTags(stack, "green-tags", { cluster: green, securityGroupId: "sg-00000001" });
    expect(() => Testing.synth(stack, true)).toThrow(
      /s\/green-tags: securityGroupId = "sg-00000001" is invalid: a security group no other cluster's discovery tag claims: s\/blue-tags tags security group sg-00000001 with karpenter\.sh\/discovery for cluster blue/,
    );

    // the same value twice does not overwrite, but two aws_ec2_tag own one tag: destroying either removes it
    const again = twoClusters();
    new DiscoveryTags(again.stack, "tags-1", { cluster: again.blue, subnets: ["subnet-00000001"] });
    new DiscoveryTags(again.stack, "tags-2", { cluster: again.blue, subnets: ["subnet-00000001"] });
    expect(
      (thrown(() => Testing.synth(again.stack, true)) as KarpenterValidationError).problems.map((p) => p.message),
    ).toEqual([
      's/tags-2: subnets[0] = "subnet-00000001" is invalid: a subnet no other DiscoveryTags tags with karpenter.sh/discovery: s/tags-1 already tags subnet-00000001 for cluster blue, so two aws_ec2_tag resources would own one tag, and destroying either (or its stack) removes it while the other still counts on it; list the subnet in one DiscoveryTags only [DISCOVERY_TAGS_CLAIMED]',
      's/tags-2: securityGroupId = "the cluster security group" is invalid: a security group no other DiscoveryTags tags with karpenter.sh/discovery: s/tags-1 already tags the cluster security group for cluster blue, so two aws_ec2_tag resources would own one tag, and destroying either (or its stack) removes it while the other still counts on it, and the default EC2NodeClass then finds no security group; give the cluster one DiscoveryTags (pass its subnets to that one), or set securityGroupId here to another group [DISCOVERY_TAGS_CLAIMED]',
    ]);
    // two clusters' own security groups are two groups
    const own = twoClusters();
    new DiscoveryTags(own.stack, "blue-tags", { cluster: own.blue });
    new DiscoveryTags(own.stack, "green-tags", { cluster: own.green });
    expect(() => Testing.synth(own.stack, true)).not.toThrow();
  });

  test("shared VPC: a per-cluster tag key on the subnets, the install and its EC2NodeClass default selector terms", () => {
    const { stack, blue, green } = twoClusters();
    new HelmProvider(stack, "helm-b", { alias: "b" });
    new HelmProvider(stack, "helm-g", { alias: "g" });
    new KubernetesProvider(stack, "k8s-b", { alias: "b" });
    new KubernetesProvider(stack, "k8s-g", { alias: "g" });
    const installs = [blue, green].map((cluster, i) => {
      const name = i === 0 ? "blue" : "green";
      const tagKey = DiscoveryTags.clusterTagKey(name);
      new DiscoveryTags(stack, `${name}-tags`, { cluster, subnets: ["subnet-05ea7eda", "subnet-05ea7edb"], tagKey });
      const karpenter = new Karpenter(stack, name, {
        cluster,
        discoveryTagKey: tagKey,
        helmProvider: stack.node.findChild(`helm-${name[0]}`) as HelmProvider,
      });
      return new Ec2NodeClass(stack, `${name}-class`, {
        name: "default",
        karpenter,
        kubernetesProvider: stack.node.findChild(`k8s-${name[0]}`) as KubernetesProvider,
      });
    });
    expect(() => Testing.synth(stack, true)).not.toThrow();
    const json = synthJson(stack);
    const tags = Object.values<any>(json.resource.aws_ec2_tag)
      .filter((t) => /^subnet-05ea7ed[ab]$/.test(t.resource_id))
      .map((t) => [t.resource_id, t.key]);
    expect(tags.sort()).toEqual([
      ["subnet-05ea7eda", "karpenter.sh/discovery/blue"],
      ["subnet-05ea7eda", "karpenter.sh/discovery/green"],
      ["subnet-05ea7edb", "karpenter.sh/discovery/blue"],
      ["subnet-05ea7edb", "karpenter.sh/discovery/green"],
    ]);
    const [blueClass, greenClass] = installs.map(
      (c) => json.resource.kubernetes_manifest[c.manifest.friendlyUniqueId].manifest.spec,
    );
    expect(blueClass.subnetSelectorTerms).toEqual([
      { tags: { "karpenter.sh/discovery/blue": "${aws_eks_cluster.b.name}" } },
    ]);
    expect(blueClass.securityGroupSelectorTerms).toEqual([
      { tags: { "karpenter.sh/discovery/blue": "${aws_eks_cluster.b.name}" } },
    ]);
    expect(greenClass.subnetSelectorTerms).toEqual([
      { tags: { "karpenter.sh/discovery/green": "${aws_eks_cluster.g.name}" } },
    ]);
    // the security group carries the cluster's key too
    expect(
      Object.values<any>(json.resource.aws_ec2_tag)
        .filter((t) => /cluster_security_group_id/.test(t.resource_id))
        .map((t) => t.key)
        .sort(),
    ).toEqual(["karpenter.sh/discovery/blue", "karpenter.sh/discovery/green"]);
    expect(DiscoveryTags.subnetTags("blue", DiscoveryTags.clusterTagKey("blue"))).toEqual({
      "karpenter.sh/discovery/blue": "blue",
    });
  });

  test("shared VPC half done: DiscoveryTags with the per-cluster key but an install on the default key is a warning naming both keys and the props", () => {
    const { stack, blue } = twoClusters();
    new HelmProvider(stack, "helm", {});
    new KubernetesProvider(stack, "k8s", {});
    new DiscoveryTags(stack, "blue-tags", {
      cluster: blue,
      subnets: ["subnet-05ea7eda"],
      tagKey: DiscoveryTags.clusterTagKey("blue"),
    });
    const karpenter = new Karpenter(stack, "blue", { cluster: blue });
    karpenter.addEc2NodeClass("default");
    const warnings = validateApp(stack.node.root).warnings.filter((w) => /selects subnets/.test(w.message));
    expect(warnings).toEqual([
      {
        path: "s/blue/node-class-default",
        message: expect.stringContaining(
          "EC2NodeClass default selects subnets and security groups by the tag karpenter.sh/discovery (the default terms), but nothing in this app tags anything with it, and this app creates cluster blue: " +
            "unless subnets and a security group outside the app carry the tag, Karpenter finds none and launches no node. The app's discovery tags use karpenter.sh/discovery/blue: give the install (Karpenter discoveryTagKey) or this EC2NodeClass (discoveryTagKey)",
        ),
      },
    ]);
    // the same key on the EC2NodeClass: no warning
    new Ec2NodeClass(stack, "keyed", {
      name: "keyed",
      karpenter,
      discoveryTagKey: DiscoveryTags.clusterTagKey("blue"),
    });
    expect(
      validateApp(stack.node.root)
        .warnings.filter((w) => /selects subnets/.test(w.message))
        .map((w) => w.path),
    ).toEqual(["s/blue/node-class-default"]);
  });

  test("a tag key AWS refuses is an error at construction", () => {
    const { stack, blue } = twoClusters();
    expect(() => new DiscoveryTags(stack, "t", { cluster: blue, tagKey: "aws:karpenter" })).toThrow(
      's/t: tagKey = "aws:karpenter" is invalid: a tag key of 1 to 128 characters, not starting with "aws:" [AWS_TAG_KEY_LENGTH]',
    );
  });
});

test("values of two installs stay apart", () => {
  const { stack, helm, clusters } = twoRegionStack();
  new Karpenter(stack, "karpenter-us", { cluster: clusters.us, helmProvider: helm.us });
  new Karpenter(stack, "karpenter-eu", { cluster: clusters.eu, helmProvider: helm.eu });
  const releases = Object.values<any>(synthJson(stack).resource.helm_release).filter((r) => r.chart === "karpenter");
  expect(releases.map((r) => [r.provider, YAML.parse(r.values[0]).settings.clusterName]).sort()).toEqual([
    ["helm.eu", "${aws_eks_cluster.eu.name}"],
    ["helm.us", "${aws_eks_cluster.us.name}"],
  ]);
});

describe("fleets: the spot service-linked role is judged per account", () => {
  /** Two clusters in two regions of `accounts` (one each), an install on each, the second creating the role, and a spot pool on the first. */
  function spotFleet(accounts: [string, string] | undefined) {
    const app = Testing.app();
    const stack = new TerraformStack(app, "fleet");
    const pinned = (i: number) => (accounts ? { allowedAccountIds: [accounts[i]] } : {});
    const aws = [
      new AwsProvider(stack, "aws-us", { alias: "us", region: "us-east-1", ...pinned(0) }),
      new AwsProvider(stack, "aws-eu", { alias: "eu", region: "eu-west-1", ...pinned(1) }),
    ];
    const helm = [
      new HelmProvider(stack, "helm-us", { alias: "us" }),
      new HelmProvider(stack, "helm-eu", { alias: "eu" }),
    ];
    const k8s = new KubernetesProvider(stack, "k8s", {});
    const us = new Karpenter(stack, "karpenter-us", {
      cluster: KarpenterCluster.fromEksCluster(eksCluster(stack, "us", "blue", aws[0])),
      helmProvider: helm[0],
    });
    new Karpenter(stack, "karpenter-eu", {
      cluster: KarpenterCluster.fromEksCluster(eksCluster(stack, "eu", "green", aws[1])),
      helmProvider: helm[1],
      spotServiceLinkedRole: true,
    });
    const pool = new NodePool(stack, "spot", {
      karpenter: us,
      nodeClass: { name: "default" },
      kubernetesProvider: k8s,
      requirements: [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["spot"] }],
    });
    return validateApp(app)
      .warnings.filter((w) => w.path === pool.node.path)
      .map((w) => w.message);
  }

  test("one account (or accounts not known to differ): the other install's role serves this pool, no warning", () => {
    expect(spotFleet(["111111111111", "111111111111"])).toEqual([]);
    expect(spotFleet(undefined)).toEqual([]);
  });

  test("another account: the warning stays", () => {
    expect(spotFleet(["111111111111", "222222222222"])).toEqual([
      expect.stringMatching(
        /^NodePool spot allows spot capacity, but the Karpenter installation does not create the EC2 Spot service-linked role/,
      ),
    ]);
  });
});

test("addEc2NodeClass / addNodePool in a stack without a Kubernetes provider: our error naming kubernetesProvider, not cdktf's", () => {
  const app = Testing.app();
  const stack = new TerraformStack(app, "s");
  new AwsProvider(stack, "aws", {});
  new HelmProvider(stack, "helm", {});
  const karpenter = new Karpenter(stack, "karpenter", {
    cluster: KarpenterCluster.fromClusterName(stack, "c", "demo"),
  });
  karpenter.addNodePool("pool", { nodeClass: karpenter.addEc2NodeClass("default", {}) });
  const text = (path: string) =>
    `${path}: kubernetesProvider = undefined is invalid: a KubernetesProvider: stack s has no kubernetes provider, and its resources need one; add a KubernetesProvider for the cluster to stack s and pass it as kubernetesProvider (or leave it the stack's only, unaliased kubernetes provider) [PROVIDER_MISSING]`;
  expect((thrown(() => app.synth()) as KarpenterValidationError).problems.map((p) => p.message)).toEqual([
    text("s/karpenter/node-class-default"),
    text("s/karpenter/node-pool-pool"),
  ]);
});
