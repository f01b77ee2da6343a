import { TerraformStack, Testing } from "cdktf";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { KarpenterValidationError } from "../../lib/core/errors";
import { Karpenter } from "../../lib/install/karpenter";
import { validateApp } from "../../lib/install/validate-app";
import { KarpenterNodeRole } from "../../lib/aws/karpenter-node-role";
import { KarpenterControllerRole } from "../../lib/aws/karpenter-controller-role";
import { InterruptionQueueConfig } from "../../lib/aws/karpenter-options";
import { DiscoveryTags } from "../../lib/cluster/discovery-tags";
import { SystemNodeGroup } from "../../lib/cluster/system-node-group";
import { NodePool } from "../../lib/nodes/node-pool";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { resolveKarpenterVersion } from "../../lib/versions/karpenter-version";
import { upgradePlan } from "../../lib/upgrade/upgrade-plan";
import { convertLegacyManifests } from "../../lib/convert/convert-legacy-manifests";
import { FakeInstallation, rejected, testCluster, testStack } from "../helpers";

/*
 * For each subject of the codes (docs/error-codes.md), a bad input whose error is matched by its
 * code, `e.code` and `e.problems[i].code`, as a user's test would: the wording may change, the code not.
 * The subjects ADOPT, ADOPTION, CAPACITYBUFFER, NODEOVERLAY, NODE_ROLE and STACK are asserted
 * where their tests already build the input (test/adopt, test/nodes, test/aws, test/install/crash-cases).
 */

function install() {
  const { app, stack } = testStack();
  new HelmProvider(stack, "helm", {});
  const cluster = testCluster(stack);
  return { app, stack, cluster };
}

const codes = (e: KarpenterValidationError) => e.problems.map((p) => p.code);

describe("bad input is matched by its code", () => {
  test("Karpenter: several problems of its props, each with its code (HELM_VALUES, KUBERNETES, HELM, INSTALL, INTERRUPTION_QUEUE)", () => {
    const { stack, cluster } = install();
    const e = rejected(
      () =>
        new Karpenter(stack, "karpenter", {
          cluster,
          namespace: "Bad_NS",
          replicas: -1,
          repository: "not a url",
          allowUnverifiedVersion: "yes" as any,
          interruptionQueue: true as any,
        }),
    );
    expect(KarpenterValidationError.isError(e)).toBe(true);
    expect(e.code).toBe(e.problems[0].code);
    expect(codes(e)).toEqual(
      expect.arrayContaining([
        "KUBERNETES_NAMESPACE",
        "HELM_VALUES_REPLICAS",
        "HELM_REPOSITORY",
        "INSTALL_NOT_A_BOOLEAN",
        "INTERRUPTION_QUEUE_CONFIG",
      ]),
    );
    for (const p of e.problems) expect(p.message.endsWith(` [${p.code}]`)).toBe(true);
  });

  test("CLUSTER: no cluster", () => {
    const { stack } = install();
    const e = rejected(() => new Karpenter(stack, "karpenter", { cluster: undefined as any }));
    expect(e.code).toBe("CLUSTER_REQUIRED");
  });

  test("AWS: a role name IAM refuses", () => {
    const { stack, cluster } = install();
    const e = rejected(() => new KarpenterNodeRole(stack, "node-role", { cluster, roleName: "bad name" }));
    expect([e.code, e.problems[0].code]).toEqual(["AWS_NAME", "AWS_NAME"]);
  });

  test("CONTROLLER_ROLE: an identity that is neither podIdentity nor irsa", () => {
    const { stack, cluster } = install();
    const nodeRole = new KarpenterNodeRole(stack, "node-role", { cluster });
    const e = rejected(
      () => new KarpenterControllerRole(stack, "cr", { cluster, nodeRole, identity: { type: "oidc" } as any }),
    );
    expect(e.code).toBe("CONTROLLER_ROLE_IDENTITY");
  });

  test("DISCOVERY_TAGS: a security group ID that is not one", () => {
    const { stack, cluster } = install();
    const e = rejected(() => new DiscoveryTags(stack, "d", { cluster, securityGroupId: "subnet-00000001" }));
    expect(e.problems.map((p) => p.code)).toContain("DISCOVERY_TAGS_SECURITY_GROUP_ID");
  });

  test("SYSTEM_NODE_GROUP: a size outside 1 to 100", () => {
    const { stack, cluster } = install();
    const e = rejected(
      () => new SystemNodeGroup(stack, "system", { cluster, subnetIds: ["subnet-00000001"], size: 0 }),
    );
    expect(codes(e)).toEqual(["SYSTEM_NODE_GROUP_SIZE"]);
  });

  test("NODEPOOL and KUBERNETES: a weight out of range, an id without letters", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const e = rejected(() => new NodePool(stack, "pool", { karpenter, nodeClass: { name: "default" }, weight: 0 }));
    expect([e.code, e.field]).toEqual(["NODEPOOL_INTEGER_RANGE", "weight"]);
    const two = rejected(
      () =>
        new NodePool(stack, "two", {
          karpenter,
          nodeClass: { name: "default" },
          weight: 101,
          expireAfter: "720",
        }),
    );
    expect(codes(two)).toEqual(["NODEPOOL_FORMAT", "NODEPOOL_INTEGER_RANGE"]);
    expect(two.code).toBe("NODEPOOL_FORMAT");
    expect(rejected(() => new NodePool(stack, "__", { karpenter, nodeClass: { name: "default" } })).code).toBe(
      "KUBERNETES_OBJECT_NAME",
    );
  });

  test("EC2NODECLASS and NODE: a role name IAM refuses, a label no node can carry with the requirements", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    expect(rejected(() => new Ec2NodeClass(stack, "bad", { karpenter, role: "bad role!" })).code).toBe(
      "EC2NODECLASS_ROLE_NAME",
    );
    const e = rejected(
      () =>
        new NodePool(stack, "pool", {
          karpenter,
          nodeClass: { name: "default" },
          requirements: [{ key: "kubernetes.io/arch", operator: "In", values: ["amd64"] }],
          labels: { "kubernetes.io/arch": "arm64" },
        }),
    );
    expect(e.problems.map((p) => p.code)).toContain("NODE_REQUIREMENT_UNSATISFIABLE");
  });

  test("PROVIDER: synth-time problems carry their code, thrown and in validateApp", () => {
    const { app, stack } = testStack();
    new HelmProvider(stack, "helm-a", {});
    new HelmProvider(stack, "helm-b", { alias: "b" });
    new KubernetesProvider(stack, "k8s", {});
    new Karpenter(stack, "karpenter", { cluster: testCluster(stack) });
    const thrown = rejected(() => Testing.synth(stack as TerraformStack, true));
    expect(codes(thrown)).toContain("PROVIDER_AMBIGUOUS");
    expect(validateApp(app).errors.map((p) => p.code)).toContain("PROVIDER_AMBIGUOUS");
  });

  test("KARPENTER_VERSION, UPGRADE_PLAN, OPTIONS, CONVERT: the functions' errors", () => {
    expect(rejected(() => resolveKarpenterVersion("k", 1.15 as any)).code).toBe("KARPENTER_VERSION_NOT_A_STRING");
    expect(rejected(() => upgradePlan("1.6", "1.9.x")).code).toBe("UPGRADE_PLAN_VERSION");
    expect(rejected(() => upgradePlan("1.6", "1.9", { kubernetes: "1.31" } as any)).code).toBe("OPTIONS_UNKNOWN_KEY");
    expect(rejected(() => convertLegacyManifests("a: [")).code).toBe("CONVERT_YAML");
    expect(rejected(() => convertLegacyManifests("apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\n")).code).toBe(
      "CONVERT_REQUIRED",
    );
  });

  test("an option InterruptionQueueConfig.create() does not take", () => {
    const { stack, cluster } = install();
    const e = rejected(
      () =>
        new Karpenter(stack, "karpenter", {
          cluster,
          interruptionQueue: InterruptionQueueConfig.create({ existingQueueName: "q" } as any),
        }),
    );
    expect(e.code).toBe("INTERRUPTION_QUEUE_UNKNOWN_KEY");
  });
});
