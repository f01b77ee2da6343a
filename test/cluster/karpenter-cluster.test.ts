import { TerraformStack } from "cdktf";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { KarpenterValidationError } from "../../lib/core/errors";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { DataAwsEksCluster } from "@cdktf/provider-aws/lib/data-aws-eks-cluster";
import { InterruptionQueue } from "../../lib/aws/interruption-queue";
import { synthJson, testCluster, testStack, thrown } from "../helpers";
import { TerraformElement, TerraformOutput } from "cdktf";

describe("KarpenterCluster", () => {
  test("fromEksCluster references the cluster resource and keeps the literal name", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack, "demo");
    expect(cluster.clusterNameLiteral).toBe("demo");
    new TerraformOutput(stack, "name", { value: cluster.clusterName });
    new TerraformOutput(stack, "sg", { value: cluster.clusterSecurityGroupId });
    new TerraformOutput(stack, "issuer", { value: cluster.oidcIssuerUrl });
    const json = synthJson(stack);
    expect(json.output.name.value).toBe("${aws_eks_cluster.cluster.name}");
    expect(json.output.sg.value).toBe("${aws_eks_cluster.cluster.vpc_config[0].cluster_security_group_id}");
    expect(json.output.issuer.value).toBe("${aws_eks_cluster.cluster.identity[0].oidc[0].issuer}");
  });

  test("fromClusterName reads an existing cluster with a data source", () => {
    const { stack } = testStack();
    const cluster = KarpenterCluster.fromClusterName(stack, "existing", "prod-eu");
    new TerraformOutput(stack, "endpoint", { value: cluster.endpoint });
    new TerraformOutput(stack, "name", { value: cluster.clusterName });
    const json = synthJson(stack);
    expect(json.data.aws_eks_cluster.existing.name).toBe("prod-eu");
    expect(json.output.endpoint.value).toBe("${data.aws_eks_cluster.existing.endpoint}");
    expect(json.output.name.value).toBe("prod-eu");
    expect(cluster.clusterNameLiteral).toBe("prod-eu");
  });

  test.each(["", "-starts-with-dash", "has space", "x".repeat(101)])("fromClusterName rejects %j", (name) => {
    const { stack } = testStack();
    expect(() => KarpenterCluster.fromClusterName(stack as TerraformStack, "existing", name)).toThrow(
      KarpenterValidationError,
    );
    expect(() => KarpenterCluster.fromClusterName(stack as TerraformStack, "existing2", name)).toThrow(
      /test\/existing2: clusterName = .* is invalid: an EKS cluster name/,
    );
  });
  test.each(["_x", "-x", "my.cluster", "", "x".repeat(101)])(
    "fromEksCluster rejects the literal name %j at the EksCluster's path",
    (name) => {
      const { stack } = testStack();
      const eks = new EksCluster(stack, "eks", {
        name,
        roleArn: "arn:aws:iam::123456789012:role/cluster",
        vpcConfig: { subnetIds: ["subnet-00000001"] },
      });
      const error = thrown(() => KarpenterCluster.fromEksCluster(eks)) as KarpenterValidationError;
      expect(error).toBeInstanceOf(KarpenterValidationError);
      expect(error.path).toBe("test/eks");
      expect(error.field).toBe("name");
      expect(error.message).toBe(
        `test/eks: name = ${JSON.stringify(name)} is invalid: an EKS cluster name: 1 to 100 characters, letters, digits, '-' and '_', starting with a letter or digit [AWS_CLUSTER_NAME]`,
      );
    },
  );

  test("fromEksCluster accepts a 100-character name and a token name", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack, "a".repeat(100));
    expect(cluster.clusterNameLiteral).toBe("a".repeat(100));
    // the queue (≤ 80) then asks for its own name: the message is about queueName, the cluster name itself was fine
    expect(() => new InterruptionQueue(stack, "queue", { cluster })).toThrow(
      /queueName = "a{100}" is invalid: at most 80 characters/,
    );
    const seed = KarpenterCluster.fromClusterName(stack, "seed", "seed");
    const eks = new EksCluster(stack, "eks", {
      name: seed.eksClusterData!.name,
      roleArn: "arn:aws:iam::123456789012:role/cluster",
      vpcConfig: { subnetIds: ["subnet-00000001"] },
    });
    expect(KarpenterCluster.fromEksCluster(eks).clusterNameLiteral).toBeUndefined();
  });
});

describe("KarpenterCluster.resource and its typed accessors", () => {
  test("fromEksCluster: resource is the EksCluster, eksCluster gives it typed, eksClusterData is unset", () => {
    const { stack } = testStack();
    const eks = new EksCluster(stack, "eks", {
      name: "demo",
      roleArn: "arn:aws:iam::123456789012:role/cluster",
      vpcConfig: { subnetIds: ["subnet-00000001"] },
    });
    const cluster = KarpenterCluster.fromEksCluster(eks);
    expect(cluster.resource).toBe(eks);
    expect(cluster.resource).toBeInstanceOf(TerraformElement);
    expect(cluster.eksCluster).toBe(eks);
    expect(cluster.eksClusterData).toBeUndefined();
    // typed: the resource's own attributes, no cast
    expect(cluster.eksCluster?.nameInput).toBe("demo");
  });

  test("fromClusterName: resource is the data source, eksClusterData gives it typed, eksCluster is unset", () => {
    const { stack } = testStack();
    const cluster = KarpenterCluster.fromClusterName(stack, "existing", "prod");
    expect(cluster.resource).toBeInstanceOf(DataAwsEksCluster);
    expect(cluster.eksClusterData).toBe(cluster.resource);
    expect(cluster.eksCluster).toBeUndefined();
    expect(cluster.eksClusterData?.nameInput).toBe("prod");
    expect(cluster.resource.node.path).toBe("test/existing");
  });

  test("resource, eksCluster and eksClusterData order a resource after the cluster in dependsOn", () => {
    const { stack } = testStack();
    const created = testCluster(stack, "demo");
    const read = KarpenterCluster.fromClusterName(stack, "existing", "prod");
    // TerraformElement has the fqn ITerraformDependable asks for: TypeScript takes it as it is
    new TerraformOutput(stack, "a", { value: "a", dependsOn: [created.resource, read.resource] });
    new TerraformOutput(stack, "b", { value: "b", dependsOn: [created.eksCluster!, read.eksClusterData!] });
    const json = synthJson(stack);
    expect(json.output.a.depends_on).toEqual(["${aws_eks_cluster.cluster}", "${data.aws_eks_cluster.existing}"]);
    expect(json.output.b.depends_on).toEqual(json.output.a.depends_on);
  });
});

describe("KarpenterCluster.fromEksCluster input", () => {
  const expected =
    "an EksCluster resource (@cdktf/provider-aws/lib/eks-cluster) defined in this app, or KarpenterCluster.fromClusterName(scope, id, name) for a cluster the app does not create";

  test.each([
    ["undefined", undefined, "undefined"],
    ["a plain object", { name: "x" }, '"(not an EksCluster)"'],
  ])("%s is a validation error naming what is expected, not a TypeError", (_what, given, shown) => {
    const error = thrown(() => KarpenterCluster.fromEksCluster(given as never));
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toBe(
      `KarpenterCluster.fromEksCluster: cluster = ${shown} is invalid: ${expected} [CLUSTER_NOT_KARPENTER_CLUSTER]`,
    );
  });

  test("a data source points to fromClusterName", () => {
    const { stack } = testStack();
    const data = new DataAwsEksCluster(stack, "existing", { name: "prod" });
    expect(thrown(() => KarpenterCluster.fromEksCluster(data as never)).message).toBe(
      'KarpenterCluster.fromEksCluster: cluster = "test/existing" is invalid: an EksCluster resource (@cdktf/provider-aws/lib/eks-cluster) defined in this app; this is a data source: for a cluster the app does not create use KarpenterCluster.fromClusterName(scope, id, name) [CLUSTER_NOT_KARPENTER_CLUSTER]',
    );
  });
});
