import { Testing, TerraformStack, TerraformVariable } from "cdktf";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { Karpenter } from "../../lib/install/karpenter";
import { SystemNodeGroup } from "../../lib/cluster/system-node-group";
import { DiscoveryTags } from "../../lib/cluster/discovery-tags";
import { KarpenterNodeRole } from "../../lib/aws/karpenter-node-role";
import { KarpenterControllerRole } from "../../lib/aws/karpenter-controller-role";
import { InterruptionQueue } from "../../lib/aws/interruption-queue";
import { KarpenterRelease } from "../../lib/helm/karpenter-release";
import { KarpenterCrdRelease } from "../../lib/helm/karpenter-crd-release";
import { SpotServiceLinkedRole } from "../../lib/aws/spot-service-linked-role";
import { KarpenterValidationError } from "../../lib/core/errors";
import { IKarpenterCluster, KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { rejected, synthJson, testCluster, testStack } from "../helpers";
import { KarpenterProps } from "../../lib/install/karpenter-props";
import { InterruptionQueueKmsKey } from "../../lib/aws/interruption-queue-kms-key";
import { InterruptionQueueConfig } from "../../lib/aws/karpenter-options";

/*
 * What a fresh user meets first: every problem of one construct's props in one error, each on the
 * construct the user created and the prop the user set; unknown props refused; `values` that
 * overrides a typed prop named as such; NaN and Infinity shown as themselves.
 */

function setup(): { stack: TerraformStack; cluster: IKarpenterCluster } {
  const { stack } = testStack();
  new HelmProvider(stack, "helm", { kubernetes: { configPath: "~/.kube/config" } });
  return { stack, cluster: testCluster(stack, "demo") };
}

/** Each problem of an error as "<construct path> <field>". */
function pathsAndFields(e: KarpenterValidationError): string[] {
  return e.problems.map((p) => `${p.path} ${p.field}`);
}

function warnings(stack: TerraformStack): string[] {
  return stack.node
    .findAll()
    .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)));
}

const KARPENTER_KEYS =
  "{ cluster?, version?, allowUnverifiedVersion?, namespace?, serviceAccountName?, identity?, interruptionQueue?, replicas?, controllerResources?, dnsPolicy?, settings?, values?, nodeRole?, controllerRole?, spotServiceLinkedRole?, systemNodeGroup?, repository?, tags?, helmProvider?, discoveryTagKey?, adopt? }";

describe("every problem of one construct at once, on the construct and prop the user set", () => {
  test("Karpenter: six bad props are one error on the Karpenter path, and nothing is left in the tree", () => {
    const { stack, cluster } = setup();
    const e = rejected(
      () =>
        new Karpenter(stack, "karpenter", {
          cluster,
          replicas: -1,
          namespace: "Bad_NS",
          serviceAccountName: "",
          dnsPolicy: "Nope" as any,
          repository: "not a url",
          controllerResources: { requests: { cpu: "lots" } },
        }),
    );
    expect(e.message).toBe(
      [
        "6 problems in the props of test/karpenter:",
        `  - test/karpenter: namespace = "Bad_NS" is invalid: a Kubernetes namespace name, a DNS-1123 label: 1 to 63 lower-case letters, digits and '-', starting and ending with a letter or digit [KUBERNETES_NAMESPACE]`,
        `  - test/karpenter: serviceAccountName = "" is invalid: a Kubernetes ServiceAccount name, a DNS-1123 subdomain: 1 to 253 lower-case letters, digits, '-' and '.', starting and ending with a letter or digit [KUBERNETES_SERVICE_ACCOUNT_NAME]`,
        "  - test/karpenter: replicas = -1 is invalid: a whole number of controller pods, at least 1 (2 for high availability) [HELM_VALUES_REPLICAS]",
        `  - test/karpenter: dnsPolicy = "Nope" is invalid: "Default", "ClusterFirst", "ClusterFirstWithHostNet" or "None" (with values.dnsConfig) [HELM_VALUES_DNS_POLICY]`,
        `  - test/karpenter: repository = "not a url" is invalid: a chart repository URL (oci://… or https://…), e.g. "oci://public.ecr.aws/karpenter" [HELM_REPOSITORY]`,
        `  - test/karpenter: controllerResources.requests.cpu = "lots" is invalid: a Kubernetes CPU quantity above zero, e.g. "500m" or "1" [HELM_VALUES_RESOURCES]`,
      ].join("\n"),
    );
    expect(e.problems.map((p) => [p.path, p.field])).toEqual([
      ["test/karpenter", "namespace"],
      ["test/karpenter", "serviceAccountName"],
      ["test/karpenter", "replicas"],
      ["test/karpenter", "dnsPolicy"],
      ["test/karpenter", "repository"],
      ["test/karpenter", "controllerResources.requests.cpu"],
    ]);
    expect(stack.node.tryFindChild("karpenter")).toBeUndefined();
  });

  test("Karpenter: five bad settings are one error", () => {
    const { stack, cluster } = setup();
    const settings = {
      batchMaxDuration: "10",
      batchIdleDuration: "-1s",
      vmMemoryOverheadPercent: 5,
      preferencePolicy: "Sometimes" as any,
      reservedENIs: "x" as any,
    };
    expect(rejected(() => new Karpenter(stack, "karpenter", { cluster, settings })).message).toBe(
      [
        "5 problems in the props of test/karpenter:",
        `  - test/karpenter: settings.batchMaxDuration = "10" is invalid: a Go duration such as "10s", "1m" or "1h30m", greater than zero [HELM_VALUES_SETTING]`,
        `  - test/karpenter: settings.batchIdleDuration = "-1s" is invalid: a Go duration such as "10s", "1m" or "1h30m", greater than zero [HELM_VALUES_SETTING]`,
        "  - test/karpenter: settings.vmMemoryOverheadPercent = 5 is invalid: a fraction from 0 (inclusive) to 1 (exclusive), e.g. 0.075 for 7.5% [HELM_VALUES_SETTING]",
        `  - test/karpenter: settings.preferencePolicy = "Sometimes" is invalid: one of "Respect", "Ignore" [HELM_VALUES_SETTING]`,
        `  - test/karpenter: settings.reservedENIs = "x" is invalid: a whole number of ENIs, 0 or more [HELM_VALUES_SETTING]`,
      ].join("\n"),
    );
  });

  test("Karpenter: both bad tag keys", () => {
    const { stack, cluster } = setup();
    expect(
      rejected(() => new Karpenter(stack, "karpenter", { cluster, tags: { "aws:reserved": "x", "": "y" } })).message,
    ).toBe(
      [
        "2 problems in the props of test/karpenter:",
        `  - test/karpenter: tags["aws:reserved"] = "x" is invalid: the key "aws:reserved" is reserved: tag keys starting with "aws:" are for tags AWS sets itself; use another key [AWS_TAG_KEY_RESERVED]`,
        `  - test/karpenter: tags[""] = "y" is invalid: the key "" is empty: a tag key has 1 to 128 characters [AWS_TAG_KEY_LENGTH]`,
      ].join("\n"),
    );
  });

  test("Karpenter: a tag IAM, SQS and EventBridge refuse is named with each API and resource that gets it; EC2 would take it", () => {
    const { stack, cluster } = setup();
    expect(
      rejected(() => new Karpenter(stack, "karpenter", { cluster, tags: { owner: "me, you", "cost&centre": "42" } }))
        .message,
    ).toBe(
      [
        "2 problems in the props of test/karpenter:",
        `  - test/karpenter: tags["owner"] = "me, you" is invalid: the value holds ",", which IAM (the node role, the controller role and its policies), SQS (the interruption queue) and EventBridge (the interruption rules) refuse in a tag: only letters, digits, spaces and _ . : / = + - @ are allowed there [AWS_TAG_VALUE]`,
        `  - test/karpenter: tags["cost&centre"] = "42" is invalid: the key "cost&centre" holds "&", which IAM (the node role, the controller role and its policies), SQS (the interruption queue) and EventBridge (the interruption rules) refuse in a tag: only letters, digits, spaces and _ . : / = + - @ are allowed there [AWS_TAG_VALUE]`,
      ].join("\n"),
    );
    const spotAndKey = rejected(
      () =>
        new Karpenter(stack, "k2", {
          cluster,
          tags: { t: "a;b" },
          interruptionQueue: InterruptionQueueConfig.create({ kmsKey: InterruptionQueueKmsKey.create() }),
          spotServiceLinkedRole: true,
          nodeRole: { existingRole: { roleName: "n", roleArn: "arn:aws:iam::123456789012:role/n" } },
        }),
    );
    expect(spotAndKey.message).toBe(
      'test/k2: tags["t"] = "a;b" is invalid: the value holds ";", which IAM (the controller role, its policies and the spot service-linked role), SQS (the interruption queue), EventBridge (the interruption rules) and KMS (the queue\'s key) refuse in a tag: only letters, digits, spaces and _ . : / = + - @ are allowed there [AWS_TAG_VALUE]',
    );
    expect(
      rejected(
        () =>
          new Karpenter(stack, "k3", {
            cluster,
            tags: { t: "a;b" },
            interruptionQueue: InterruptionQueueConfig.disabled(),
          }),
      ).message,
    ).toBe(
      'test/k3: tags["t"] = "a;b" is invalid: the value holds ";", which IAM (the node role, the controller role and its policies) refuses in a tag: only letters, digits, spaces and _ . : / = + - @ are allowed there [AWS_TAG_VALUE]',
    );
  });

  test("Karpenter: option objects are checked with the rest, each on the Karpenter prop (nodeRole.roleName, not node-role's roleName)", () => {
    const { stack, cluster } = setup();
    const e = rejected(
      () =>
        new Karpenter(stack, "k", {
          cluster,
          namespace: "Bad_NS",
          nodeRole: { roleName: "bad name!" },
          identity: { type: "irsa", oidcProviderArn: "x" },
          interruptionQueue: InterruptionQueueConfig.create({
            kmsKey: InterruptionQueueKmsKey.fromKeyArn("alias/mine"),
          }),
        }),
    );
    expect(pathsAndFields(e)).toEqual([
      "test/k namespace",
      "test/k identity.oidcProviderArn",
      "test/k interruptionQueue.kmsKey",
      "test/k nodeRole.roleName",
    ]);
    expect(e.message).toContain(
      '  - test/k: nodeRole.roleName = "bad name!" is invalid: an IAM role name: letters, digits and + = , . @ _ -',
    );
  });

  test("Karpenter: a check only a building block makes is re-told on the Karpenter prop", () => {
    const { stack, cluster } = setup();
    const controllerRole = {
      additionalStatements: [
        { sid: "Extra", actions: ["s3:GetObject"], resources: ["*"] },
        { sid: "Extra", actions: ["s3:PutObject"], resources: ["*"] },
      ],
    };
    const e = rejected(() => new Karpenter(stack, "k", { cluster, controllerRole }));
    expect(e.path).toBe("test/k");
    expect(e.field).toBe("controllerRole.additionalStatements[1].sid");
    expect(e.message).toMatch(
      /^test\/k: controllerRole\.additionalStatements\[1\]\.sid = "Extra" is invalid: letters and digits only, unique/,
    );
    expect(stack.node.tryFindChild("k")).toBeUndefined();
  });

  test("SystemNodeGroup: size, instance type, disk size and name in one error", () => {
    const { stack, cluster } = setup();
    const e = rejected(
      () =>
        new SystemNodeGroup(stack, "system", {
          cluster,
          subnetIds: ["subnet-00000001"],
          size: 0,
          instanceTypes: ["t3.huge!"],
          diskSize: -5,
          nodeGroupName: "bad name",
        }),
    );
    expect(e.message).toBe(
      [
        "4 problems in the props of test/system:",
        "  - test/system: size = 0 is invalid: a whole number from 1 to 100 (min = desired = max) [SYSTEM_NODE_GROUP_SIZE]",
        `  - test/system: instanceTypes[0] = "t3.huge!" is invalid: an EC2 instance type name, <family>.<size> in lower case, e.g. "t3.medium" or "m7i-flex.large" [SYSTEM_NODE_GROUP_INSTANCE_TYPE]`,
        "  - test/system: diskSize = -5 is invalid: a whole number of GiB, at least 1 [SYSTEM_NODE_GROUP_DISK_SIZE]",
        `  - test/system: nodeGroupName = "bad name" is invalid: an EKS node group name: letters, digits, '-' and '_', starting with a letter or digit [AWS_NAME]`,
      ].join("\n"),
    );
    expect(stack.node.tryFindChild("system")).toBeUndefined();
  });
});

describe("more props reported together", () => {
  test("KarpenterRelease: every bad toleration field, and a timeout that is not a whole number", () => {
    const { stack, cluster } = setup();
    const tolerations = [
      { key: "a", operator: "Sometimes" as any },
      { operator: "Exists" as const, value: "x", effect: "NO_SCHEDULE" as any },
    ];
    expect(rejected(() => new KarpenterRelease(stack, "r", { cluster, tolerations, timeout: NaN })).message).toBe(
      [
        "4 problems in the props of test/r:",
        `  - test/r: tolerations[0].operator = "Sometimes" is invalid: "Equal" or "Exists" [HELM_VALUES_TOLERATION]`,
        `  - test/r: tolerations[1].value = "x" is invalid: no value with operator "Exists" [HELM_VALUES_TOLERATION]`,
        `  - test/r: tolerations[1].effect = "NO_SCHEDULE" is invalid: "NoSchedule", "PreferNoSchedule" or "NoExecute" (the Kubernetes spelling, not the EKS API's NO_SCHEDULE) [HELM_VALUES_TOLERATION]`,
        "  - test/r: timeout = NaN is invalid: a whole number of seconds, at least 1 [HELM_TIMEOUT]",
      ].join("\n"),
    );
  });

  test("Karpenter: unknown value paths and bad values.settings come with the other problems", () => {
    const { stack, cluster } = setup();
    const e = rejected(
      () =>
        new Karpenter(stack, "k", {
          cluster,
          namespace: "Bad_NS",
          values: { replicaz: 3, settings: { clusterName: "x", batchMaxDuration: "soon" } },
        }),
    );
    expect(pathsAndFields(e)).toEqual([
      "test/k namespace",
      "test/k values.settings.clusterName",
      "test/k values.settings.batchMaxDuration",
      "test/k values.replicaz",
    ]);
    expect(e.message).toContain(
      "  - test/k: values.replicaz = 3 is invalid: a value path of the Karpenter 1.15.3 chart's values.yaml, which has no replicaz; did you mean replicas? (keys at the top level: ",
    );
  });

  test("Karpenter: discoveryTagKey follows the tag key rule, like DiscoveryTags' tagKey", () => {
    const { stack, cluster } = setup();
    expect(rejected(() => new Karpenter(stack, "k", { cluster, discoveryTagKey: "aws:discovery" })).message).toBe(
      'test/k: discoveryTagKey = "aws:discovery" is invalid: a tag key of 1 to 128 characters, not starting with "aws:" [AWS_TAG_KEY_LENGTH]',
    );
  });
});

describe("unknown props are refused, with a did-you-mean where one is close", () => {
  test("Karpenter props passed through a variable (no excess-property check) name each unknown key", () => {
    const { stack, cluster } = setup();
    const common = { cluster, verison: "1.13.1", replica: 1 };
    expect(rejected(() => new Karpenter(stack, "k", common)).message).toBe(
      [
        "2 problems in the props of test/k:",
        `  - test/k: verison = "1.13.1" is invalid: not a known prop (it would be ignored); did you mean version? The allowed keys are ${KARPENTER_KEYS} [OPTIONS_UNKNOWN_KEY]`,
        `  - test/k: replica = 1 is invalid: not a known prop (it would be ignored); did you mean replicas? The allowed keys are ${KARPENTER_KEYS} [OPTIONS_UNKNOWN_KEY]`,
      ].join("\n"),
    );
  });

  test("a key far from every prop gets no suggestion", () => {
    const { stack, cluster } = setup();
    const props = { cluster, colour: "blue" };
    expect(rejected(() => new Karpenter(stack, "k", props)).message).toBe(
      `test/k: colour = "blue" is invalid: not a known prop (it would be ignored): the allowed keys are ${KARPENTER_KEYS} [OPTIONS_UNKNOWN_KEY]`,
    );
  });

  test("nested option objects: controllerResources, identity, nodeRole.existingRole, statements, the queue's kmsKey", () => {
    const { stack, cluster } = setup();
    const props = {
      cluster,
      controllerResources: { request: { cpu: "1" } },
      identity: { type: "podIdentity", oidcProviderArn: "arn:aws:iam::123456789012:oidc-provider/x" },
      nodeRole: { existingRole: { roleName: "r", roleArn: "arn:aws:iam::123456789012:role/r", rolename: "r" } },
      controllerRole: {
        additionalStatements: [{ actoins: ["s3:GetObject"], actions: ["s3:GetObject"], resources: ["*"] }],
      },
    } as unknown as KarpenterProps;
    const e = rejected(() => new Karpenter(stack, "k", props));
    expect(e.problems.map((p) => p.message)).toEqual([
      'test/k: controllerResources.request = {"cpu":"1"} is invalid: not a known key of controllerResources (it would be ignored); did you mean requests? The allowed keys are { requests?, limits? } [OPTIONS_UNKNOWN_KEY]',
      'test/k: nodeRole.existingRole.rolename = "r" is invalid: not a known key of nodeRole.existingRole (it would be ignored); did you mean roleName? The allowed keys are { roleName?, roleArn? } [OPTIONS_UNKNOWN_KEY]',
      'test/k: controllerRole.additionalStatements[0].actoins = ["s3:GetObject"] is invalid: not a known key of controllerRole.additionalStatements[0] (it would be ignored); did you mean actions? The allowed keys are { sid?, effect?, actions?, resources?, conditions? } [OPTIONS_UNKNOWN_KEY]',
      'test/k: identity.oidcProviderArn = "arn:aws:iam::123456789012:oidc-provider/x" is invalid: not a known key of identity (it would be ignored): the allowed keys are { type? } [OPTIONS_UNKNOWN_KEY]',
    ]);
  });

  test("SystemNodeGroup and its taints", () => {
    const { stack, cluster } = setup();
    const props = {
      cluster,
      subnetIds: ["subnet-00000001"],
      sizee: 3,
      taints: [{ key: "dedicated", effect: "NO_SCHEDULE", efect: "x" }],
    } as any;
    expect(rejected(() => new SystemNodeGroup(stack, "system", props)).problems.map((p) => p.message)).toEqual([
      expect.stringMatching(
        /^test\/system: sizee = 3 is invalid: not a known prop \(it would be ignored\); did you mean size\? The allowed keys are \{ cluster\?, subnetIds\?, size\?/,
      ),
      expect.stringMatching(
        /^test\/system: taints\[0\]\.efect = "x" is invalid: not a known key of taints\[0\] \(it would be ignored\); did you mean effect\? The allowed keys are \{ key\?, value\?, effect\? \} \[OPTIONS_UNKNOWN_KEY\]$/,
      ),
    ]);
  });

  test("KarpenterCluster.fromClusterName options", () => {
    const { stack } = setup();
    expect(
      rejected(() =>
        KarpenterCluster.fromClusterName(stack, "existing", "demo", { providr: undefined, region: "x" } as any),
      ).message,
    ).toBe(
      'test/existing: options.region = "x" is invalid: not a known key of options (it would be ignored): the allowed keys are { provider? } [OPTIONS_UNKNOWN_KEY]',
    );
  });

  test.each([
    [
      "KarpenterNodeRole",
      (s: TerraformStack, cluster: IKarpenterCluster) =>
        new KarpenterNodeRole(s, "x", { cluster, rolename: "r" } as any),
      "rolename",
      "roleName",
    ],
    [
      "KarpenterControllerRole",
      (s: TerraformStack, cluster: IKarpenterCluster) =>
        new KarpenterControllerRole(s, "x", {
          cluster,
          nodeRole: { roleArn: "arn:aws:iam::123456789012:role/n" },
          namespac: "k",
        } as any),
      "namespac",
      "namespace",
    ],
    [
      "InterruptionQueue",
      (s: TerraformStack, cluster: IKarpenterCluster) =>
        new InterruptionQueue(s, "x", { cluster, queuename: "q" } as any),
      "queuename",
      "queueName",
    ],
    [
      "KarpenterRelease",
      (s: TerraformStack, cluster: IKarpenterCluster) => new KarpenterRelease(s, "x", { cluster, replica: 1 } as any),
      "replica",
      "replicas",
    ],
    [
      "KarpenterCrdRelease",
      (s: TerraformStack) => new KarpenterCrdRelease(s, "x", { verison: "1.13.1" } as any),
      "verison",
      "version",
    ],
    [
      "SpotServiceLinkedRole",
      (s: TerraformStack) => new SpotServiceLinkedRole(s, "x", { tag: { a: "b" } } as any),
      "tag",
      "tags",
    ],
    [
      "DiscoveryTags",
      (s: TerraformStack, cluster: IKarpenterCluster) =>
        new DiscoveryTags(s, "x", { cluster, subnet: ["subnet-00000001"] } as any),
      "subnet",
      "subnets",
    ],
  ])("%s refuses a misspelt prop", (_name, make, key, near) => {
    const { stack, cluster } = setup();
    const e = rejected(() => make(stack, cluster));
    expect(e.path).toBe("test/x");
    expect(e.field).toBe(key);
    expect(e.message).toContain(
      `is invalid: not a known prop (it would be ignored); did you mean ${near}? The allowed keys are {`,
    );
  });
});

describe("values merged over typed props", () => {
  test("a typed prop that values overrides is a warning naming both, and values' value is deployed", () => {
    const { stack, cluster } = setup();
    const k = new Karpenter(stack, "k", { cluster, replicas: 2, values: { replicas: 3 } });
    expect(k.controllerChart.replicas).toBe(3);
    // once, on the prop set on Karpenter (not again by its KarpenterRelease)
    expect(warnings(stack).filter((w) => w.includes(" overrides "))).toHaveLength(1);
    expect(warnings(stack)).toContain(
      "values.replicas = 3 overrides replicas = 2: values is merged last, so the values.replicas one is deployed. Set it in one place only (prefer replicas, which is checked and documented)",
    );
  });

  test("values alone (no typed prop) is not warned about", () => {
    const { stack, cluster } = setup();
    new Karpenter(stack, "k", { cluster, values: { replicas: 3 } });
    expect(warnings(stack).filter((w) => w.includes("overrides"))).toEqual([]);
  });

  test("a KarpenterRelease used alone warns on its own props", () => {
    const { stack, cluster } = setup();
    new KarpenterRelease(stack, "r", {
      cluster,
      controllerResources: { limits: { memory: "1Gi" } },
      values: { controller: { resources: { limits: { memory: "2Gi" } } } },
    });
    expect(warnings(stack)).toContain(
      'values.controller.resources.limits.memory = "2Gi" overrides controllerResources.limits.memory = "1Gi": values is merged last, so the values.controller.resources.limits.memory one is deployed. Set it in one place only (prefer controllerResources.limits.memory, which is checked and documented)',
    );
  });

  test("replicas from values beyond the system node group is named values.replicas", () => {
    const { stack, cluster } = setup();
    const systemNodeGroup = new SystemNodeGroup(stack, "system", { cluster, subnetIds: ["subnet-00000001"], size: 2 });
    new Karpenter(stack, "k", { cluster, systemNodeGroup, values: { replicas: 5 } });
    expect(rejected(() => Testing.synth(stack, true)).message).toBe(
      "test/k: values.replicas = 5 is invalid: at most 2, the nodes the system node group test/system guarantees: the chart's pod anti-affinity puts each replica on its own node; raise the group's size or lower values.replicas [INSTALL_REPLICAS_ABOVE_SYSTEM_NODES]",
    );
  });

  test("values.tolerations that drop the system node group's taint is an error; ones that keep it pass without a warning", () => {
    const { stack, cluster } = setup();
    const systemNodeGroup = new SystemNodeGroup(stack, "system", {
      cluster,
      subnetIds: ["subnet-00000001"],
      taints: [{ key: "CriticalAddonsOnly", effect: "NO_SCHEDULE" }],
    });
    expect(
      rejected(() => new Karpenter(stack, "k", { cluster, systemNodeGroup, values: { tolerations: [] } })).message,
    ).toBe(
      "test/k: values.tolerations = [] is invalid: tolerations of every taint of the system node group test/system (CriticalAddonsOnly:NoSchedule not tolerated): values.tolerations replaces the tolerations wired from the group (Helm replaces lists), so the controller pods could never be scheduled on it. Add a toleration for each taint, or drop values.tolerations [INSTALL_SYSTEM_NODE_GROUP_TOLERATIONS]",
    );
    const tolerations = [
      { key: "CriticalAddonsOnly", operator: "Exists" },
      { key: "team", operator: "Exists" },
    ];
    new Karpenter(stack, "k", { cluster, systemNodeGroup, values: { tolerations } });
    expect(warnings(stack).filter((w) => w.startsWith("values.tolerations"))).toEqual([]);
  });

  const CRITICAL = { key: "CriticalAddonsOnly", value: "true", effect: "NO_SCHEDULE" } as const;
  test.each([
    [
      "an extra toleration next to the group's",
      [CRITICAL],
      [
        { key: "CriticalAddonsOnly", operator: "Exists" },
        { key: "foo", operator: "Exists", effect: "NoSchedule" },
      ],
    ],
    [
      "Equal with the taint's value and effect, Exists without effect",
      [
        CRITICAL,
        { key: "dedicated", value: "system", effect: "NO_EXECUTE" },
        { key: "spread", effect: "PREFER_NO_SCHEDULE" },
      ],
      [
        { key: "dedicated", operator: "Equal", value: "system", effect: "NoExecute" },
        { key: "CriticalAddonsOnly", operator: "Exists", effect: "NoSchedule" },
        { key: "spread", operator: "Exists" },
      ],
    ],
    [
      "an empty key with Exists (tolerates everything)",
      [CRITICAL, { key: "dedicated", value: "system", effect: "NO_EXECUTE" }],
      [{ operator: "Exists" }],
    ],
  ] as const)(
    "values.tolerations that still tolerates every taint of the system node group adds tolerations: no warning (%s)",
    (_name, taints, tolerations) => {
      const { stack, cluster } = setup();
      const systemNodeGroup = new SystemNodeGroup(stack, "system", {
        cluster,
        subnetIds: ["subnet-00000001"],
        taints: [...taints],
      });
      const k = new Karpenter(stack, "k", { cluster, systemNodeGroup, values: { tolerations } });
      expect(warnings(stack).filter((w) => w.includes(" overrides "))).toEqual([]);
      // values' list is what the controller gets
      expect(JSON.parse(k.controllerChart.valuesYaml).tolerations).toEqual(tolerations);
    },
  );

  test("values.tolerations that drops only a PreferNoSchedule taint warns, with advice the user can follow (no tolerations prop exists)", () => {
    const { stack, cluster } = setup();
    const systemNodeGroup = new SystemNodeGroup(stack, "system", {
      cluster,
      subnetIds: ["subnet-00000001"],
      taints: [
        { key: "CriticalAddonsOnly", effect: "NO_SCHEDULE" },
        { key: "spread", value: "x", effect: "PREFER_NO_SCHEDULE" },
      ],
    });
    new Karpenter(stack, "k", {
      cluster,
      systemNodeGroup,
      values: {
        tolerations: [
          { key: "CriticalAddonsOnly", operator: "Exists" },
          { key: "spread", value: "y", effect: "PreferNoSchedule" },
        ],
      },
    });
    expect(warnings(stack).filter((w) => w.includes(" overrides "))).toEqual([
      'values.tolerations = [{"key":"CriticalAddonsOnly","operator":"Exists"},{"key":"spread","value":"y","effect":"PreferNoSchedule"}] overrides systemNodeGroup (its taints, as tolerations) = [{"key":"CriticalAddonsOnly","operator":"Exists"},{"key":"CriticalAddonsOnly","operator":"Exists","effect":"NoSchedule"},{"key":"spread","operator":"Equal","value":"x","effect":"PreferNoSchedule"}]: values is merged last, so the values.tolerations one is deployed. values.tolerations replaces the wired list (Helm replaces lists) and does not tolerate spread=x:PreferNoSchedule of the system node group test/system, so the scheduler prefers other nodes for the controller: add a toleration for each taint of the group to values.tolerations, or drop values.tolerations',
    ]);
  });

  test("values.tolerations known only at apply warns to make sure it tolerates the group's taints", () => {
    const { stack, cluster } = setup();
    const systemNodeGroup = new SystemNodeGroup(stack, "system", {
      cluster,
      subnetIds: ["subnet-00000001"],
      taints: [{ key: "CriticalAddonsOnly", effect: "NO_SCHEDULE" }],
    });
    const list = new TerraformVariable(stack, "tolerations", { type: "list(map(string))" });
    new Karpenter(stack, "k", { cluster, systemNodeGroup, values: { tolerations: list.listValue } });
    const w = warnings(stack).filter((x) => x.startsWith("values.tolerations"));
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(
      /values\.tolerations replaces the wired list \(Helm replaces lists\) and is known only at apply: make sure it tolerates every taint of the system node group test\/system, or drop values\.tolerations$/,
    );
    expect(w[0]).not.toContain("prefer systemNodeGroup");
  });

  test("values.nodeSelector over a label of the system node group: the advice names the group's labels, which the user sets", () => {
    const { stack, cluster } = setup();
    const systemNodeGroup = new SystemNodeGroup(stack, "system", {
      cluster,
      subnetIds: ["subnet-00000001"],
      labels: { team: "platform" },
    });
    new Karpenter(stack, "k", { cluster, systemNodeGroup, values: { nodeSelector: { team: "infra" } } });
    expect(warnings(stack).filter((w) => w.includes(" overrides "))).toEqual([
      'values.nodeSelector.team = "infra" overrides systemNodeGroup (its labels, as nodeSelector).team = "platform": values is merged last, so the values.nodeSelector.team one is deployed. Set it in one place only (prefer the labels of the SystemNodeGroup test/system, which its nodes carry and the controller\'s node selector is wired from)',
    ]);
  });

  test("values.nodeSelector that points away from the system nodes is an error", () => {
    const { stack, cluster } = setup();
    const systemNodeGroup = new SystemNodeGroup(stack, "system", { cluster, subnetIds: ["subnet-00000001"] });
    expect(
      rejected(
        () =>
          new Karpenter(stack, "k", { cluster, systemNodeGroup, values: { nodeSelector: { "node-role": "workers" } } }),
      ).message,
    ).toBe(
      'test/k: values.nodeSelector["node-role"] = "workers" is invalid: "system" or unset: with systemNodeGroup the controller runs on the group\'s nodes, labelled node-role=system; another value leaves it without nodes [INSTALL_SYSTEM_NODE_GROUP_SELECTOR]',
    );
  });
});

describe("NaN and Infinity", () => {
  test("are shown as themselves, also inside objects", () => {
    expect(new KarpenterValidationError("HELM_VALUES_NOT_FINITE", "x", "replicas", NaN, "a number").message).toBe(
      "x: replicas = NaN is invalid: a number [HELM_VALUES_NOT_FINITE]",
    );
    expect(
      new KarpenterValidationError(
        "HELM_VALUES_NOT_FINITE",
        "x",
        "limits",
        { memory: Infinity, cpu: -Infinity },
        "quantities",
      ).message,
    ).toBe('x: limits = {"memory":Infinity,"cpu":-Infinity} is invalid: quantities [HELM_VALUES_NOT_FINITE]');
  });

  test("numeric props reject them", () => {
    const { stack, cluster } = setup();
    expect(rejected(() => new Karpenter(stack, "k", { cluster, replicas: NaN })).message).toBe(
      "test/k: replicas = NaN is invalid: a whole number of controller pods, at least 1 (2 for high availability) [HELM_VALUES_REPLICAS]",
    );
    expect(
      rejected(
        () =>
          new SystemNodeGroup(stack, "s", { cluster, subnetIds: ["subnet-00000001"], size: Infinity, diskSize: NaN }),
      ).problems.map((p) => `${p.field} = ${String(p.value)}`),
    ).toEqual(["size = Infinity", "diskSize = NaN"]);
  });

  test("in values, every one is named by its path and shown as itself, with the other problems", () => {
    const { stack, cluster } = setup();
    const finite = "a finite number: the values are written as JSON, which has no NaN or Infinity";
    expect(
      rejected(
        () =>
          new Karpenter(stack, "k", { cluster, values: { controller: { resources: { limits: { cpu: Infinity } } } } }),
      ).message,
    ).toBe(`test/k: values.controller.resources.limits.cpu = Infinity is invalid: ${finite} [HELM_VALUES_NOT_FINITE]`);
    expect(
      rejected(
        () =>
          new Karpenter(stack, "k", {
            cluster,
            values: { terminationGracePeriodSeconds: Infinity, revisionHistoryLimit: NaN },
          }),
      ).problems.map((p) => [p.field, p.value]),
    ).toEqual([
      ["values.terminationGracePeriodSeconds", Infinity],
      ["values.revisionHistoryLimit", NaN],
    ]);
    const e = rejected(
      () =>
        new Karpenter(stack, "k", {
          cluster,
          namespace: "Bad_NS",
          replicas: 0,
          values: {
            revisionHistoryLimit: NaN,
            logLevel: "verbose",
            tolerations: [{ key: "a", operator: "Exists", effect: "NoExecute", tolerationSeconds: -Infinity }],
          },
        }),
    );
    expect(e.problems.map((p) => p.field)).toEqual([
      "namespace",
      "replicas",
      "values.logLevel",
      "values.revisionHistoryLimit",
      "values.tolerations[0].tolerationSeconds",
    ]);
    expect(e.message).toContain(
      `  - test/k: values.tolerations[0].tolerationSeconds = -Infinity is invalid: ${finite}`,
    );
    // a value another check refuses is named once, by that check
    expect(rejected(() => new Karpenter(stack, "k", { cluster, values: { replicas: NaN } })).message).toBe(
      "test/k: values.replicas = NaN is invalid: a whole number of controller pods, at least 1 (2 for high availability) [HELM_VALUES_REPLICAS]",
    );
  });

  test("a KarpenterRelease names them in values and in its typed map props, also when its version is bad", () => {
    const { stack, cluster } = setup();
    const e = rejected(
      () =>
        new KarpenterRelease(stack, "r", {
          cluster,
          affinity: { nodeAffinity: { weight: NaN } },
          values: { revisionHistoryLimit: -Infinity },
        }),
    );
    expect(e.problems.map((p) => `${p.field} = ${String(p.value)}`)).toEqual([
      "affinity.nodeAffinity.weight = NaN",
      "values.revisionHistoryLimit = -Infinity",
    ]);
    expect(
      rejected(
        () => new KarpenterRelease(stack, "r", { cluster, version: "9", values: { revisionHistoryLimit: NaN } }),
      ).problems.map((p) => p.field),
    ).toEqual(["version", "values.revisionHistoryLimit"]);
  });
});

describe("DiscoveryTags IDs", () => {
  test("literal subnet and security group IDs follow the EC2NodeClass rule; references pass", () => {
    const { stack, cluster } = setup();
    expect(
      rejected(
        () =>
          new DiscoveryTags(stack, "d", {
            cluster,
            subnets: ["sg-00000123", "subnet-00000abc"],
            securityGroupId: "subnet-00000001",
          }),
      ).message,
    ).toBe(
      [
        "2 problems in the props of test/d:",
        "  - test/d: subnets[0] = \"sg-00000123\" is invalid: a subnet ID: 'subnet-' and 8 or 17 lower-case hex digits, such as subnet-0123abcd, or a reference to one (subnet.id of a Subnet of this app) [DISCOVERY_TAGS_SUBNET_ID]",
        "  - test/d: securityGroupId = \"subnet-00000001\" is invalid: a security group ID: 'sg-' and 8 or 17 lower-case hex digits, such as sg-0123abcd [DISCOVERY_TAGS_SECURITY_GROUP_ID]",
      ].join("\n"),
    );
    // EC2's shape: 8 or 17 lower-case hex digits; a name-like or upper-case ID names no resource, whatever its prefix
    expect(
      rejected(
        () =>
          new DiscoveryTags(stack, "shape", {
            cluster,
            subnets: ["subnet-xyz", "subnet-0123ABCD", "subnet-0123abcd0", "subnet-0123456789abcdef0"],
            securityGroupId: "sg-xyz",
          }),
      ).problems.map((p) => `${p.field} = ${String(p.value)}`),
    ).toEqual([
      "subnets[0] = subnet-xyz",
      "subnets[1] = subnet-0123ABCD",
      "subnets[2] = subnet-0123abcd0",
      "securityGroupId = sg-xyz",
    ]);
    const subnet = new TerraformVariable(stack, "subnet", { type: "string" });
    const sg = new TerraformVariable(stack, "sg", { type: "string" });
    new DiscoveryTags(stack, "ok", {
      cluster,
      subnets: ["subnet-00000abc", subnet.stringValue],
      securityGroupId: sg.stringValue,
    });
    expect(Object.keys(synthJson(stack).resource.aws_ec2_tag)).toHaveLength(3);
  });

  test("an empty subnets list is refused: leaving subnets unset says only the security group is tagged", () => {
    const { stack, cluster } = setup();
    expect(rejected(() => new DiscoveryTags(stack, "d", { cluster, subnets: [] })).message).toBe(
      "test/d: subnets = [] is invalid: at least one subnet: an empty list tags no subnet, so nodes of the default EC2NodeClass selector find none here; leave subnets unset when the subnets are tagged elsewhere (e.g. DiscoveryTags.subnetTags in their own tags) [DISCOVERY_TAGS_SUBNETS_EMPTY]",
    );
  });
});
