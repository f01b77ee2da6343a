import { TerraformStack, TerraformVariable } from "cdktf";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { Karpenter } from "../../lib/install/karpenter";
import { SystemNodeGroup } from "../../lib/cluster/system-node-group";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { KarpenterValidationError } from "../../lib/core/errors";
import {
  gettingStartedAdoption,
  KarpenterAdoption,
  terraformAwsEksModuleAdoption,
} from "../../lib/adopt/karpenter-adoption";
import { resources, synthJson, testCluster, testStack, thrown } from "../helpers";
import { validateApp } from "../../lib/install/validate-app";
import { KarpenterProps } from "../../lib/install/karpenter-props";
import { InterruptionQueueKmsKey } from "../../lib/aws/interruption-queue-kms-key";
import { InterruptionQueueConfig } from "../../lib/aws/karpenter-options";

const ASSOCIATION = "a-0123456789abcdefg";

function install(
  props: Partial<KarpenterProps>,
  clusterOf: (stack: TerraformStack) => KarpenterProps["cluster"] = (s) => testCluster(s, "demo"),
  late: () => Partial<KarpenterProps> = () => ({}),
) {
  const { stack } = testStack();
  new HelmProvider(stack, "helm", { kubernetes: { configPath: "~/.kube/config" } });
  const cluster = clusterOf(stack);
  const karpenter = new Karpenter(stack, "karpenter", { cluster, ...props, ...late() });
  const json = synthJson(stack);
  /** import id by resource address `type.name` */
  const imports = new Map<string, string>((json.import ?? []).map((i: any) => [i.to, i.id]));
  // resource names are the construct path joined with "_" and a hash
  const nameOf = (type: string, pathEnd: string): string => {
    const name = Object.keys(resources(json, type)).find((n) =>
      n.replace(/_[0-9A-F]{8}$/, "").endsWith(pathEnd.replace(/\//g, "_")),
    );
    if (name === undefined) throw new Error(`no ${type} at …${pathEnd}`);
    return name;
  };
  const importOf = (type: string, pathEnd: string): string | undefined =>
    imports.get(`${type}.${nameOf(type, pathEnd)}`);
  const body = (type: string, pathEnd: string): any => resources(json, type)[nameOf(type, pathEnd)];
  return { stack, karpenter, json, imports, importOf, body };
}

describe("adopt: a getting-started install", () => {
  test("1.9+: node role, its policies, controller role, every upstream policy and attachment, queue, queue policy and association are imported under their names", () => {
    const { importOf, imports, body, json } = install({
      version: "1.12.2",
      adopt: gettingStartedAdoption({ clusterName: "demo", version: "1.12.2", podIdentityAssociationId: ASSOCIATION }),
    });
    expect(importOf("aws_iam_role", "node-role")).toBe("KarpenterNodeRole-demo");
    expect(importOf("aws_iam_role_policy_attachment", "node-role/attachment-ecr-pull")).toMatch(
      /^KarpenterNodeRole-demo\/arn:\$\{data\.aws_partition\.[^}]+\.partition\}:iam::aws:policy\/AmazonEC2ContainerRegistryPullOnly$/,
    );
    expect(importOf("aws_iam_role", "controller-role")).toBe("demo-karpenter");
    expect(body("aws_iam_role", "controller-role").name).toBe("demo-karpenter");
    for (const group of [
      "NodeLifecycle",
      "IAMIntegration",
      "EKSIntegration",
      "Interruption",
      "ZonalShift",
      "ResourceDiscovery",
    ]) {
      expect(importOf("aws_iam_policy", `policy-${group}`)).toMatch(
        new RegExp(`:policy/KarpenterController${group}Policy-demo$`),
      );
      expect(importOf("aws_iam_role_policy_attachment", `attachment-${group}`)).toMatch(
        new RegExp(`^demo-karpenter/arn:.*:policy/KarpenterController${group}Policy-demo$`),
      );
      // upstream's policies have no description, and a description would force their replacement
      expect(body("aws_iam_policy", `policy-${group}`).description).toBeUndefined();
    }
    expect(importOf("aws_sqs_queue", "interruption-queue")).toMatch(
      /^https:\/\/sqs\.\$\{data\.aws_region\.[^}]+\.region\}\.\$\{data\.aws_partition\.[^}]+\.dns_suffix\}\/\$\{data\.aws_caller_identity\.[^}]+\.account_id\}\/demo$/,
    );
    expect(importOf("aws_sqs_queue_policy", "interruption-queue/policy")).toBe(
      importOf("aws_sqs_queue", "interruption-queue"),
    );
    expect(importOf("aws_eks_pod_identity_association", "pod-identity")).toMatch(
      new RegExp(`^\\$\\{aws_eks_cluster\\.[^}]+\\.name\\},${ASSOCIATION}$`),
    );
    // eksctl maps the node role in aws-auth: no access entry exists, one is created
    expect(importOf("aws_eks_access_entry", "access-entry")).toBeUndefined();
    // no legacy policy: create-before-destroy only on the node role's ECR attachment (its guard for a 1.3 ↔ 1.4 swap)
    expect(
      Object.values(resources(json, "aws_iam_role_policy_attachment"))
        .filter((b: any) => b.lifecycle)
        .map((b: any) => b.policy_arn),
    ).toEqual([expect.stringMatching(/:policy\/AmazonEC2ContainerRegistryPullOnly$/)]);
    // every import block names a resource of the stack
    for (const to of imports.keys()) expect(resources(json, to.split(".")[0])[to.split(".")[1]]).toBeDefined();
  });

  test("before 1.9: the single KarpenterControllerPolicy is detached only after the new policies are attached", () => {
    const { importOf, body, json } = install({
      version: "1.8.8",
      adopt: gettingStartedAdoption({ clusterName: "demo", version: "1.8.8", podIdentityAssociationId: ASSOCIATION }),
    });
    for (const group of ["NodeLifecycle", "IAMIntegration", "EKSIntegration", "Interruption", "ResourceDiscovery"])
      expect(importOf("aws_iam_policy", `policy-${group}`)).toBeUndefined();
    // the old attachment is imported into the last new attachment, which Terraform must replace (another policy_arn)
    expect(importOf("aws_iam_role_policy_attachment", "attachment-ResourceDiscovery")).toMatch(
      /^demo-karpenter\/arn:.*:policy\/KarpenterControllerPolicy-demo$/,
    );
    const host = body("aws_iam_role_policy_attachment", "attachment-ResourceDiscovery");
    expect(host.lifecycle).toEqual({ create_before_destroy: true });
    const others = Object.keys(resources(json, "aws_iam_role_policy_attachment"))
      .filter((name) =>
        /controller-role_attachment-(NodeLifecycle|IAMIntegration|EKSIntegration|Interruption)_/.test(name),
      )
      .map((name) => `aws_iam_role_policy_attachment.${name}`);
    expect(others).toHaveLength(4);
    expect([...host.depends_on].sort()).toEqual([...others].sort());
    for (const group of ["NodeLifecycle", "IAMIntegration", "EKSIntegration", "Interruption"]) {
      expect(importOf("aws_iam_role_policy_attachment", `attachment-${group}`)).toBeUndefined();
      expect(body("aws_iam_role_policy_attachment", `attachment-${group}`).lifecycle).toBeUndefined();
    }
    // the 1.8 node role policies (ECR PullOnly since 1.4) are imported
    expect(importOf("aws_iam_role_policy_attachment", "node-role/attachment-AmazonSSMManagedInstanceCore")).toMatch(
      /AmazonSSMManagedInstanceCore$/,
    );
  });

  test("the releases adopt in place: karpenter upgraded, karpenter-crd takes over the old chart's CRDs", () => {
    const { body } = install({
      version: "1.8.8",
      adopt: gettingStartedAdoption({ clusterName: "demo", version: "1.8.8", podIdentityAssociationId: ASSOCIATION }),
    });
    const controller = body("helm_release", "controller/release");
    const crds = body("helm_release", "crds/release");
    expect(controller.upgrade_install).toBe(true);
    expect(controller.take_ownership).toBeUndefined();
    expect(crds).toMatchObject({ upgrade_install: true, take_ownership: true });
    expect(controller.name).toBe("karpenter");
  });

  test("rule names given: the rules keep them and are imported with their targets; no rule left to the stack means no warning", () => {
    const ruleNames = {
      ScheduledChange: "Karpenter-demo-ScheduledChangeRule-AAA",
      SpotInterruption: "Karpenter-demo-SpotInterruptionRule-BBB",
      Rebalance: "Karpenter-demo-RebalanceRule-CCC",
      InstanceStateChange: "Karpenter-demo-InstanceStateChangeRule-DDD",
    };
    const { importOf, body, karpenter } = install({
      version: "1.8.8",
      adopt: gettingStartedAdoption({
        clusterName: "demo",
        version: "1.8.8",
        podIdentityAssociationId: ASSOCIATION,
        ruleNames,
      }),
    });
    for (const [key, name] of Object.entries(ruleNames)) {
      expect(body("aws_cloudwatch_event_rule", `rule-${key}`).name).toBe(name);
      expect(importOf("aws_cloudwatch_event_rule", `rule-${key}`)).toBe(name);
      expect(importOf("aws_cloudwatch_event_target", `target-${key}`)).toBe(`${name}/KarpenterInterruptionQueueTarget`);
    }
    expect(warnings(karpenter)).toEqual([]);
  });

  test("a customer-managed key lets EventBridge use it from the adopted rules, under their own names", () => {
    const ruleNames = { SpotInterruption: "Karpenter-demo-SpotInterruptionRule-BBB" };
    const { body } = install({
      version: "1.9.0",
      interruptionQueue: InterruptionQueueConfig.create({ kmsKey: InterruptionQueueKmsKey.create() }),
      adopt: gettingStartedAdoption({
        clusterName: "demo",
        version: "1.9.0",
        podIdentityAssociationId: ASSOCIATION,
        ruleNames,
      }),
    });
    const statement = JSON.parse(body("aws_kms_key", "interruption-queue/key").policy).Statement.find(
      (s: any) => s.Sid === "AllowEventBridgeToEncrypt",
    );
    const ruleOf = (arn: string) => arn.replace(/^.*:rule\//, "");
    // without the adopted name EventBridge could not encrypt spot interruption events for the queue
    expect(statement.Condition.ArnEquals["aws:SourceArn"].map(ruleOf).sort()).toEqual([
      "Karpenter-demo-InstanceStateChange",
      "Karpenter-demo-Rebalance",
      "Karpenter-demo-ScheduledChange",
      "Karpenter-demo-SpotInterruptionRule-BBB",
    ]);
    expect(body("aws_cloudwatch_event_rule", "rule-SpotInterruption").name).toBe(
      "Karpenter-demo-SpotInterruptionRule-BBB",
    );
  });

  test("rules not named: new rules are created and synth warns that the old ones send too until deleted", () => {
    const { importOf, karpenter } = install({
      version: "1.10.2",
      adopt: gettingStartedAdoption({
        clusterName: "demo",
        version: "1.10.2",
        podIdentityAssociationId: ASSOCIATION,
        ruleNames: { Rebalance: "r" },
      }),
    });
    expect(importOf("aws_cloudwatch_event_rule", "rule-SpotInterruption")).toBeUndefined();
    expect(warnings(karpenter)).toEqual([
      expect.stringContaining(
        "no existing rule adopted for ScheduledChange, SpotInterruption, InstanceStateChange, CapacityReservation",
      ),
    ]);
  });

  test("a cluster read by name: the same imports, the association ID may be a reference known at plan", () => {
    let association = "";
    const { importOf } = install(
      { version: "1.14.1" },
      (s) => {
        association = new TerraformVariable(s, "association", { type: "string" }).stringValue;
        return KarpenterCluster.fromClusterName(s, "cluster", "prod");
      },
      () => ({
        adopt: gettingStartedAdoption({
          clusterName: "prod",
          version: "1.14.1",
          podIdentityAssociationId: association,
        }),
      }),
    );
    expect(importOf("aws_eks_pod_identity_association", "pod-identity")).toBe("prod,${var.association}");
    expect(importOf("aws_iam_policy", "policy-NodeLifecycle")).toMatch(/KarpenterControllerNodeLifecyclePolicy-prod$/);
  });

  test("the preset needs the association ID and a supported version", () => {
    expect(
      thrown(() => gettingStartedAdoption({ clusterName: "demo", version: "1.8.8", podIdentityAssociationId: "" }))
        .message,
    ).toMatch(/podIdentityAssociationId = "" is invalid: the ID of eksctl's Pod Identity association/);
    expect(
      thrown(() =>
        gettingStartedAdoption({ clusterName: "demo", version: "0.37.0", podIdentityAssociationId: ASSOCIATION }),
      ),
    ).toBeInstanceOf(KarpenterValidationError);
  });
});

describe("adopt: terraform-aws-eks modules/karpenter", () => {
  test("v20 defaults: access entry and node policies imported, the module's single policy detached after the new ones", () => {
    const adopt = terraformAwsEksModuleAdoption({
      major: 20,
      clusterName: "demo",
      nodeRoleName: "Karpenter-demo-2024010100000000000001",
      controllerRoleName: "KarpenterController-2024010100000000000002",
      controllerPolicyName: "KarpenterController-2024010100000000000003",
    });
    const { importOf, body } = install({ version: "1.14.1", adopt });
    expect(body("aws_iam_role", "node-role").name).toBe("Karpenter-demo-2024010100000000000001");
    expect(importOf("aws_eks_access_entry", "access-entry")).toMatch(
      /^\$\{aws_eks_cluster\.[^}]+\.name\}:arn:.*:role\/Karpenter-demo-2024010100000000000001$/,
    );
    expect(importOf("aws_iam_role_policy_attachment", "node-role/attachment-AmazonEKSWorkerNodePolicy")).toBeDefined();
    // v20 attached ECR ReadOnly; 1.14 attaches PullOnly: created, ReadOnly stays (unmanaged)
    expect(importOf("aws_iam_role_policy_attachment", "node-role/attachment-ecr-pull")).toBeUndefined();
    // no SSM policy in the module: created
    expect(
      importOf("aws_iam_role_policy_attachment", "node-role/attachment-AmazonSSMManagedInstanceCore"),
    ).toBeUndefined();
    expect(importOf("aws_iam_role_policy_attachment", "attachment-ResourceDiscovery")).toMatch(
      /:policy\/KarpenterController-2024010100000000000003$/,
    );
    expect(body("aws_iam_role_policy_attachment", "attachment-ResourceDiscovery").lifecycle).toEqual({
      create_before_destroy: true,
    });
    expect(importOf("aws_sqs_queue", "interruption-queue")).toMatch(/\/Karpenter-demo$/);
    expect(body("aws_sqs_queue", "interruption-queue").name).toBe("Karpenter-demo");
    // v20 makes no association by default
    expect(importOf("aws_eks_pod_identity_association", "pod-identity")).toBeUndefined();
  });

  test("v19 (IRSA, aws-auth): no access entry imported; an association ID with IRSA is refused", () => {
    const adopt = terraformAwsEksModuleAdoption({
      major: 19,
      clusterName: "demo",
      nodeRoleName: "Karpenter-demo-1",
      controllerRoleName: "KarpenterIRSA-demo-2",
      controllerPolicyName: "KarpenterIRSA-demo-3",
    });
    const { importOf } = install({
      version: "1.14.1",
      identity: { type: "irsa", oidcProviderArn: "arn:aws:iam::123456789012:oidc-provider/x" },
      adopt,
    });
    expect(importOf("aws_eks_access_entry", "access-entry")).toBeUndefined();
    expect(importOf("aws_iam_role", "controller-role")).toBe("KarpenterIRSA-demo-2");
    const withAssociation = {
      ...adopt,
      controllerRole: { ...adopt.controllerRole!, podIdentityAssociationId: ASSOCIATION },
    };
    const e = thrown(() =>
      install({
        identity: { type: "irsa", oidcProviderArn: "arn:aws:iam::123456789012:oidc-provider/x" },
        adopt: withAssociation,
      }),
    );
    expect(e.message).toMatch(
      /adopt\.controllerRole\.podIdentityAssociationId = "a-0123456789abcdefg" is invalid: not with identity \{ type: "irsa" \}/,
    );
  });

  test("another major version is refused", () => {
    expect(
      thrown(() =>
        terraformAwsEksModuleAdoption({
          major: 18 as 20,
          clusterName: "d",
          nodeRoleName: "n",
          controllerRoleName: "c",
        }),
      ).message,
    ).toMatch(/major = 18 is invalid: 19, 20 or 21/);
  });
});

describe("adopt: explicit names and checks", () => {
  test("helm alone: only the releases adopt, everything else is created", () => {
    const { json, body } = install({ adopt: { helm: true } });
    expect(json.import).toBeUndefined();
    expect(body("helm_release", "crds/release")).toMatchObject({ upgrade_install: true, take_ownership: true });
  });

  test("helm: false leaves the releases as a fresh install has them", () => {
    const { body } = install({ adopt: { helm: false, nodeRole: { roleName: "KarpenterNodeRole-demo" } } });
    expect(body("helm_release", "crds/release").take_ownership).toBeUndefined();
    expect(body("helm_release", "controller/release").upgrade_install).toBeUndefined();
  });

  test.each<[string, Partial<KarpenterProps>, RegExp]>([
    [
      "another cluster's install",
      {
        adopt: gettingStartedAdoption({
          clusterName: "prod",
          version: "1.14.1",
          podIdentityAssociationId: ASSOCIATION,
        }),
      },
      /adopt\.clusterName = "prod" is invalid: the name of this install's cluster, "demo"/,
    ],
    [
      "another namespace than the running release's",
      {
        namespace: "karpenter",
        adopt: gettingStartedAdoption({
          clusterName: "demo",
          version: "1.14.1",
          podIdentityAssociationId: ASSOCIATION,
        }),
      },
      /test\/karpenter: namespace = "karpenter" is invalid: the namespace of the adopted install, "kube-system"/,
    ],
    [
      "a hand-written adopt.namespace that is no namespace name (named itself, not the install's valid one)",
      { adopt: { namespace: "Bad_NS" } },
      /test\/karpenter: adopt\.namespace = "Bad_NS" is invalid: a Kubernetes namespace name, a DNS-1123 label.*\[KUBERNETES_NAMESPACE\]/,
    ],
    [
      "a node role name other than the adopted",
      { nodeRole: { roleName: "other" }, adopt: { nodeRole: { roleName: "KarpenterNodeRole-demo" } } },
      /nodeRole\.roleName = "other" is invalid: the adopted name "KarpenterNodeRole-demo"/,
    ],
    [
      "a role of your own beside an adopted one",
      {
        nodeRole: { existingRole: { roleName: "r", roleArn: "arn:aws:iam::123456789012:role/r" } },
        adopt: { nodeRole: { roleName: "r" } },
      },
      /nodeRole\.existingRole = .* is invalid: not with adopt\.nodeRole/,
    ],
    [
      "an adopted queue without a created one",
      { interruptionQueue: InterruptionQueueConfig.disabled(), adopt: { interruptionQueue: { queueName: "demo" } } },
      /adopt\.interruptionQueue = "demo" is invalid: only with a queue this install creates/,
    ],
    [
      "a queue name other than the adopted",
      {
        interruptionQueue: InterruptionQueueConfig.create({ queueName: "q" }),
        adopt: { interruptionQueue: { queueName: "demo" } },
      },
      /interruptionQueue\.queueName = "q" is invalid: the adopted name "demo"/,
    ],
    [
      'an access entry flag that is not a boolean ("false" would import an entry)',
      { adopt: { nodeRole: { roleName: "KarpenterNodeRole-demo", accessEntry: "false" as unknown as boolean } } },
      /adopt\.nodeRole\.accessEntry = "false" is invalid: true \(the role has an EKS access entry/,
    ],
    [
      "an unknown key",
      { adopt: { nodeRoles: {} } as unknown as KarpenterAdoption },
      /adopt\.nodeRoles = \{\} is invalid: not a key of adopt/,
    ],
    [
      "an unknown event",
      { adopt: { interruptionQueue: { queueName: "demo", ruleNames: { Spot: "x" } as never } } },
      /adopt\.interruptionQueue\.ruleNames\.Spot = "x" is invalid: an event of ScheduledChange/,
    ],
    [
      "a capacity-reservation rule before 1.10",
      {
        version: "1.9.2",
        adopt: { interruptionQueue: { queueName: "demo", ruleNames: { CapacityReservation: "x" } } },
      },
      /ruleNames\.CapacityReservation = "x" is invalid: a rule this version installs: the CapacityReservation rule exists from Karpenter 1\.10/,
    ],
    [
      "a malformed association ID",
      { adopt: { controllerRole: { roleName: "c", podIdentityAssociationId: "assoc-1" } } },
      /podIdentityAssociationId = "assoc-1" is invalid: an EKS Pod Identity association ID/,
    ],
    [
      "a role name IAM refuses",
      { adopt: { controllerRole: { roleName: "bad name" } } },
      /adopt\.controllerRole\.roleName = "bad name" is invalid/,
    ],
    [
      "one policy listed twice (name and ARN)",
      {
        adopt: { controllerRole: { roleName: "c", attachedPolicies: ["old", "arn:aws:iam::123456789012:policy/old"] } },
      },
      /adopt\.controllerRole\.attachedPolicies = .* is invalid: each attached policy once: arn:aws:iam::123456789012:policy\/old is listed twice/,
    ],
    [
      "an attached policy given as a role's ARN",
      {
        adopt: {
          nodeRole: { roleName: "n", attachedPolicies: ["arn:aws:iam::123456789012:role/KarpenterNodeRole-demo"] },
        },
      },
      /adopt\.nodeRole\.attachedPolicies = "arn:aws:iam::123456789012:role\/KarpenterNodeRole-demo" is invalid: an IAM policy ARN, .* this ARN names no IAM policy \(it is a role's\)/,
    ],
    [
      "an attached policy given as an S3 ARN",
      { adopt: { controllerRole: { roleName: "c", attachedPolicies: ["arn:aws:s3:::my-bucket"] } } },
      /adopt\.controllerRole\.attachedPolicies = "arn:aws:s3:::my-bucket" is invalid: an IAM policy ARN/,
    ],
    [
      "an attached policy name IAM refuses",
      { adopt: { controllerRole: { roleName: "c", attachedPolicies: ["Karpenter Controller Policy"] } } },
      /adopt\.controllerRole\.attachedPolicies = "Karpenter Controller Policy" is invalid: an IAM policy name \(1–128 letters/,
    ],
    [
      "more legacy policies than new attachments",
      { adopt: { controllerRole: { roleName: "c", attachedPolicies: ["a", "b", "c", "d", "e", "f", "g"] } } },
      /adopt\.controllerRole\.attachedPolicies = .* is invalid: at most 6 policies this install does not create/,
    ],
  ])("%s is refused at construction", (_, props, message) => {
    const e = thrown(() => install(props));
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect(e.message).toMatch(message);
  });

  test("look-alikes: a policy name with IAM's punctuation, an AWS-managed and a GovCloud ARN, a path", () => {
    expect(() =>
      install({
        adopt: {
          nodeRole: {
            roleName: "n",
            attachedPolicies: ["AmazonEKS_CNI_Policy", "arn:aws-us-gov:iam::aws:policy/AmazonEKSWorkerNodePolicy"],
          },
          controllerRole: {
            roleName: "c",
            attachedPolicies: ["team+ops=old,karpenter.v1@x-y", "arn:aws:iam::123456789012:policy/team/old"],
          },
        },
      }),
    ).not.toThrow();
  });

  test("a legacy policy given by ARN is detached the same way", () => {
    const arn = "arn:aws:iam::123456789012:policy/team/old-karpenter";
    const { importOf } = install({ adopt: { controllerRole: { roleName: "c", attachedPolicies: [arn] } } });
    expect(importOf("aws_iam_role_policy_attachment", "attachment-ResourceDiscovery")).toBe(`c/${arn}`);
  });
});

describe("adopt: policies by ARN and references", () => {
  test("the install's own policies given by ARN are imported with their attachments, not detached as legacy", () => {
    const groups = ["NodeLifecycle", "IAMIntegration", "EKSIntegration", "Interruption", "ResourceDiscovery"];
    const arnOf = (g: string) => `arn:aws:iam::123456789012:policy/KarpenterController${g}Policy-demo`;
    const { importOf, json } = install({
      version: "1.9.0",
      adopt: { controllerRole: { roleName: "demo-karpenter", attachedPolicies: groups.map(arnOf) } },
    });
    for (const g of groups) {
      expect(importOf("aws_iam_policy", `policy-${g}`)).toBe(arnOf(g));
      expect(importOf("aws_iam_role_policy_attachment", `attachment-${g}`)).toBe(`demo-karpenter/${arnOf(g)}`);
    }
    // no attachment hosts a legacy policy: create-before-destroy only on the node role's ECR attachment (its swap guard)
    expect(
      Object.values(resources(json, "aws_iam_role_policy_attachment"))
        .filter((b: any) => b.lifecycle)
        .map((b: any) => b.policy_arn),
    ).toEqual([expect.stringMatching(/:policy\/AmazonEC2ContainerRegistryPullOnly$/)]);
  });

  test("the node role's AWS-managed policies given by ARN are imported like names", () => {
    const { importOf } = install({
      adopt: {
        nodeRole: {
          roleName: "KarpenterNodeRole-demo",
          attachedPolicies: ["arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy"],
        },
      },
    });
    expect(importOf("aws_iam_role_policy_attachment", "node-role/attachment-AmazonEKS_CNI_Policy")).toMatch(
      /^KarpenterNodeRole-demo\/arn:.*:iam::aws:policy\/AmazonEKS_CNI_Policy$/,
    );
  });

  test("a policy with the install's name under another path is another policy: detached as legacy", () => {
    const arn = "arn:aws:iam::123456789012:policy/team/KarpenterControllerNodeLifecyclePolicy-demo";
    const { importOf } = install({
      version: "1.9.0",
      adopt: { controllerRole: { roleName: "demo-karpenter", attachedPolicies: [arn] } },
    });
    expect(importOf("aws_iam_policy", "policy-NodeLifecycle")).toBeUndefined();
    expect(importOf("aws_iam_role_policy_attachment", "attachment-ResourceDiscovery")).toBe(`demo-karpenter/${arn}`);
  });

  test("a reference for the namespace or an adopted role name is left to Terraform, not refused", () => {
    const adopt = gettingStartedAdoption({
      clusterName: "demo",
      version: "1.9.0",
      podIdentityAssociationId: ASSOCIATION,
    });
    const recording = (s: TerraformStack) => {
      stackOfLate = s;
      return testCluster(s, "demo");
    };
    const variable = (name: string) => new TerraformVariable(stackOfLate!, name, { type: "string" }).stringValue;
    const { body } = install({ version: "1.9.0", adopt }, recording, () => ({ namespace: variable("namespace") }));
    expect(body("helm_release", "controller/release").namespace).toBe("${var.namespace}");
    const { importOf } = install({ nodeRole: { roleName: "KarpenterNodeRole-demo" } }, recording, () => ({
      adopt: { nodeRole: { roleName: variable("node_role") } },
    }));
    expect(importOf("aws_iam_role", "node-role")).toBe("${var.node_role}");
  });

  test("a list reference for attachedPolicies is refused: what is imported and detached is decided at synth", () => {
    const e = thrown(() =>
      install(
        {},
        (s) => {
          stackOfLate = s;
          return testCluster(s, "demo");
        },
        () => ({
          adopt: {
            controllerRole: {
              roleName: "c",
              attachedPolicies: new TerraformVariable(stackOfLate!, "policies", { type: "list(string)" }).listValue,
            },
          },
        }),
      ),
    );
    expect(e.message).toMatch(/adopt\.controllerRole\.attachedPolicies = .* is invalid: a list written out in the app/);
  });
});

let stackOfLate: TerraformStack | undefined;

describe("adopt: the running version", () => {
  const gs = (version: string) =>
    gettingStartedAdoption({
      clusterName: "demo",
      version,
      podIdentityAssociationId: ASSOCIATION,
      ruleNames: { ScheduledChange: "a", SpotInterruption: "b", Rebalance: "c", InstanceStateChange: "d" },
    });

  test("adopting a 1.8.8 install with the default version warns that the takeover also upgrades", () => {
    const { karpenter } = install({ adopt: gs("1.8.8") });
    expect(warnings(karpenter).filter((w) => w.startsWith("adopt.version"))).toEqual([
      expect.stringMatching(
        /^adopt\.version: the existing install runs Karpenter 1\.8\.8 and this install's version is 1\.15\.3: .*Set version: "1\.8\.8" for the takeover/,
      ),
    ]);
  });

  test("a 1.8 install had no capacity-reservation rule: the new one duplicates nothing, so no rule warning", () => {
    const { karpenter } = install({ adopt: gs("1.8.8") });
    expect(warnings(karpenter).filter((w) => w.startsWith("adopt.interruptionQueue"))).toEqual([]);
    // a 1.10 install had one: not named, it is duplicated
    const at110 = install({ version: "1.10.2", adopt: gs("1.10.2") }).karpenter;
    expect(warnings(at110)).toEqual([expect.stringContaining("no existing rule adopted for CapacityReservation")]);
  });

  test("the same version: no warning", () => {
    expect(warnings(install({ version: "1.8.8", adopt: gs("1.8.8") }).karpenter)).toEqual([]);
  });
});

describe("adopt: the managed-policy quota during the apply", () => {
  const extra = (n: number) => Array.from({ length: n }, (_, i) => `arn:aws:iam::123456789012:policy/extra-${i}`);
  const quotaWarnings = (stack: TerraformStack) =>
    validateApp(stack).warnings.filter((w) => w.message.includes("managed policies"));

  test("a legacy policy counts while it stays attached: 5 new + 5 additional + 1 legacy is over the default 10", () => {
    const { stack } = install({
      version: "1.8.8",
      controllerRole: { additionalPolicyArns: extra(5) },
      adopt: gettingStartedAdoption({ clusterName: "demo", version: "1.8.8", podIdentityAssociationId: ASSOCIATION }),
    });
    expect(quotaWarnings(stack).map((w) => w.message)).toEqual([
      expect.stringContaining(
        'controllerRole.additionalPolicyArns: role "demo-karpenter" gets 11 managed policies (during the apply: 1 adopted legacy policy stays attached until the new policies are), more than IAM\'s default quota of 10',
      ),
    ]);
  });

  test("look-alikes pass: the same role without adoption (10), or adopting at 1.9 where nothing is legacy", () => {
    expect(
      quotaWarnings(install({ version: "1.8.8", controllerRole: { additionalPolicyArns: extra(5) } }).stack),
    ).toEqual([]);
    const adopted = install({
      version: "1.9.0",
      controllerRole: { additionalPolicyArns: extra(5) },
      adopt: gettingStartedAdoption({ clusterName: "demo", version: "1.9.0", podIdentityAssociationId: ASSOCIATION }),
    });
    expect(quotaWarnings(adopted.stack)).toEqual([]);
  });
});

/** The adoption's warnings about rules and versions (the Helm values warning of every Helm adoption apart: helmWarnings). */
function warnings(karpenter: Karpenter): string[] {
  return allAdoptWarnings(karpenter).filter((w) => !w.startsWith("adopt.helm:"));
}

function allAdoptWarnings(karpenter: Karpenter): string[] {
  return karpenter.node.metadata
    .filter((m) => m.type === "@cdktf/warn" && String(m.data).startsWith("adopt."))
    .map((m) => String(m.data));
}

describe("adopt.helm: the release keeps only this app's values", () => {
  const adoptGettingStarted = (extra: { helm?: boolean } = {}) =>
    install({
      version: "1.12.2",
      adopt: {
        ...gettingStartedAdoption({ clusterName: "demo", version: "1.12.2", podIdentityAssociationId: ASSOCIATION }),
        ...extra,
      },
    });
  test("a Helm adoption warns that the running release's values are replaced, and how to compare", () => {
    const { karpenter } = adoptGettingStarted();
    expect(allAdoptWarnings(karpenter).filter((w) => w.startsWith("adopt.helm:"))).toEqual([
      expect.stringContaining(
        "the running karpenter release is upgraded in place with this app's values only, not the values it was installed with",
      ),
    ]);
    expect(allAdoptWarnings(karpenter).find((w) => w.startsWith("adopt.helm:"))).toContain(
      "`helm get values karpenter -n <namespace>`",
    );
  });
  test("adopt.helm false: no Helm adoption, no warning", () => {
    const { karpenter } = adoptGettingStarted({ helm: false });
    expect(allAdoptWarnings(karpenter).filter((w) => w.startsWith("adopt.helm:"))).toEqual([]);
  });
});

test("an adoption refused after the install is built leaves nothing behind: no construct, no stack dependency", () => {
  const { app, stack } = testStack();
  new HelmProvider(stack, "helm", { kubernetes: { configPath: "~/.kube/config" } });
  const cluster = testCluster(stack, "demo");
  const system = new TerraformStack(app, "system");
  const group = new SystemNodeGroup(system, "system", { cluster, subnetIds: ["subnet-00000001"] });
  const tooMany = ["a", "b", "c", "d", "e", "f", "g"];
  expect(
    () =>
      new Karpenter(stack, "karpenter", {
        cluster,
        systemNodeGroup: group,
        adopt: { controllerRole: { roleName: "c", attachedPolicies: tooMany } },
      }),
  ).toThrow(/at most 6 policies this install does not create/);
  expect(stack.node.tryFindChild("karpenter")).toBeUndefined();
  const e = thrown(
    () =>
      new Karpenter(stack, "karpenter", {
        cluster,
        systemNodeGroup: group,
        adopt: { controllerRole: { roleName: "c", attachedPolicies: tooMany } },
      }),
  ) as KarpenterValidationError;
  expect([e.code, e.problems[0].code]).toEqual(["ADOPT_TOO_MANY_POLICIES", "ADOPT_TOO_MANY_POLICIES"]);
  expect(stack.dependencies).toEqual([]);
});
