import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as YAML from "yaml";
import { App, TerraformStack, Testing } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterRelease } from "../../lib/helm/karpenter-release";
import { IKarpenterCluster, KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { SystemNodeGroup } from "../../lib/cluster/system-node-group";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodePool } from "../../lib/nodes/node-pool";
import { KarpenterValidationError } from "../../lib/core/errors";
import { SqsQueue } from "@cdktf/provider-aws/lib/sqs-queue";
import { onlyResource, rejected, resources, synthJson, testCluster, testStack, thrown } from "../helpers";
import { KarpenterProps } from "../../lib/install/karpenter-props";
import { InterruptionQueueKmsKey } from "../../lib/aws/interruption-queue-kms-key";
import { InterruptionQueueConfig, InterruptionQueueMode } from "../../lib/aws/karpenter-options";

/** A test stack with the Helm provider too (validations require a provider for every resource). */
function helmStack() {
  const { app, stack } = testStack();
  new HelmProvider(stack, "helm", { kubernetes: { configPath: "~/.kube/config" } });
  return { app, stack };
}

function install(
  props: Partial<KarpenterProps> = {},
  setup?: (stack: TerraformStack, cluster: IKarpenterCluster) => Partial<KarpenterProps> | void,
) {
  const { app, stack } = helmStack();
  const cluster = testCluster(stack, "demo");
  const extra = setup?.(stack, cluster) ?? {};
  const karpenter = new Karpenter(stack, "karpenter", { cluster, ...props, ...extra });
  const json = synthJson(stack);
  const releases = Object.values(resources(json, "helm_release")) as any[];
  const controller = releases.find((r) => r.chart === "karpenter");
  const crd = releases.find((r) => r.chart === "karpenter-crd");
  return { app, stack, karpenter, json, controller, crd, values: YAML.parse(controller.values[0]) };
}

const addr = (json: any, type: string, pred: (body: any) => boolean = () => true) =>
  Object.entries(resources(json, type))
    .filter(([, b]) => pred(b))
    .map(([name]) => `${type}.${name}`);

/** Warnings recorded on the construct tree after running the validations. */
function warnings(stack: TerraformStack): string[] {
  Testing.synth(stack, true);
  return stack.node
    .findAll()
    .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)));
}

describe("Karpenter", () => {
  test("one line: node role, controller role, queue, both releases; every name wired from the graph", () => {
    const { json, controller, crd, values, karpenter } = install();
    expect(crd).toMatchObject({
      chart: "karpenter-crd",
      version: "1.15.3",
      namespace: "kube-system",
      repository: "oci://public.ecr.aws/karpenter",
    });
    expect(controller).toMatchObject({
      chart: "karpenter",
      version: "1.15.3",
      namespace: "kube-system",
      skip_crds: true,
    });
    const [queue] = addr(json, "aws_sqs_queue");
    expect(values.settings).toEqual({
      clusterName: "${aws_eks_cluster.cluster.name}",
      interruptionQueue: `\${${queue}.name}`,
    });
    const pia = onlyResource(json, "aws_eks_pod_identity_association");
    expect(pia.namespace).toBe(controller.namespace);
    expect(pia.service_account).toBe(values.serviceAccount.name);
    expect(pia.role_arn).toBe(
      `\${${addr(json, "aws_iam_role", (r) => /pods\.eks\.amazonaws\.com/.test(r.assume_role_policy))[0]}.arn}`,
    );
    expect(karpenter.version).toBe("1.15.3");
    expect(karpenter.namespace).toBe("kube-system");
    expect(karpenter.release).toBe(karpenter.controllerChart.release);
    expect(karpenter.createsSpotServiceLinkedRole).toBe(false);
    expect(resources(json, "aws_iam_service_linked_role")).toEqual({});
  });

  test("the controller release waits for the CRDs, identity, access entry, queue policy, event targets and system nodes", () => {
    const { json, controller } = install({}, (stack, cluster) => ({
      systemNodeGroup: new SystemNodeGroup(stack, "system", { cluster, subnetIds: ["subnet-00000001"] }),
    }));
    const deps: string[] = controller.depends_on;
    const expected = [
      ...addr(json, "helm_release", (r) => r.chart === "karpenter-crd"),
      ...addr(json, "aws_eks_pod_identity_association"),
      ...addr(json, "aws_iam_role_policy_attachment", (a) => /karpenter_controller-role/.test(a.role)),
      ...addr(json, "aws_eks_access_entry"),
      ...addr(json, "aws_sqs_queue_policy"),
      ...addr(json, "aws_cloudwatch_event_target"),
      ...addr(json, "aws_eks_node_group"),
    ];
    expect(addr(json, "aws_cloudwatch_event_target")).toHaveLength(5);
    expect(
      addr(json, "aws_iam_role_policy_attachment", (a) => /karpenter_controller-role/.test(a.role)).length,
    ).toBeGreaterThanOrEqual(6);
    expect(addr(json, "aws_eks_node_group")).toHaveLength(1);
    for (const d of expected) expect(deps).toContain(d);
  });

  test("system node group: its labels select the nodes, its taints are tolerated, the chart's toleration is kept", () => {
    const { values } = install();
    expect(values).not.toHaveProperty("nodeSelector");
    expect(values).not.toHaveProperty("tolerations");
    const { stack } = helmStack();
    const cluster = testCluster(stack);
    const system = new SystemNodeGroup(stack, "system", {
      cluster,
      subnetIds: ["subnet-00000001"],
      labels: { team: "platform" },
      taints: [
        { key: "dedicated", value: "system", effect: "NO_SCHEDULE" },
        { key: "CriticalAddonsOnly", effect: "NO_EXECUTE" },
      ],
    });
    new Karpenter(stack, "karpenter", { cluster, systemNodeGroup: system });
    const v = YAML.parse(
      (Object.values(resources(synthJson(stack), "helm_release")) as any[]).find((r) => r.chart === "karpenter")
        .values[0],
    );
    expect(v.nodeSelector).toEqual({ team: "platform", "node-role": "system" });
    expect(v.tolerations).toEqual([
      { key: "CriticalAddonsOnly", operator: "Exists" },
      { key: "dedicated", operator: "Equal", value: "system", effect: "NoSchedule" },
      { key: "CriticalAddonsOnly", operator: "Exists", effect: "NoExecute" },
    ]);
  });

  test("more replicas than the system node group guarantees fails at synth", () => {
    const { stack } = helmStack();
    const cluster = testCluster(stack);
    const system = new SystemNodeGroup(stack, "system", { cluster, subnetIds: ["subnet-00000001"], size: 2 });
    new Karpenter(stack, "karpenter", { cluster, systemNodeGroup: system, replicas: 3 });
    expect(() => Testing.synth(stack, true)).toThrow(
      /test\/karpenter: replicas = 3 is invalid: at most 2, the nodes the system node group test\/system guarantees/,
    );
    const viaValues = helmStack();
    const c1 = testCluster(viaValues.stack);
    new Karpenter(viaValues.stack, "karpenter", {
      cluster: c1,
      systemNodeGroup: new SystemNodeGroup(viaValues.stack, "system", { cluster: c1, subnetIds: ["subnet-00000001"] }),
      values: { replicas: 3 },
    });
    expect(() => Testing.synth(viaValues.stack, true)).toThrow(/replicas = 3 is invalid: at most 2/);
    const ok = helmStack();
    const c2 = testCluster(ok.stack);
    new Karpenter(ok.stack, "karpenter", {
      cluster: c2,
      systemNodeGroup: new SystemNodeGroup(ok.stack, "system", {
        cluster: c2,
        subnetIds: ["subnet-00000001"],
        size: 3,
      }),
      replicas: 3,
    });
    expect(() => Testing.synth(ok.stack, true)).not.toThrow();
  });

  test("a system node group in another stack orders the stacks instead of depends_on", () => {
    const app = Testing.app();
    const base = new TerraformStack(app, "base");
    new AwsProvider(base, "aws", { region: "us-east-1" });
    const cluster = testCluster(base);
    const system = new SystemNodeGroup(base, "system", { cluster, subnetIds: ["subnet-00000001"] });
    const stack = new TerraformStack(app, "karpenter");
    new AwsProvider(stack, "aws", { region: "us-east-1" });
    new Karpenter(stack, "karpenter", { cluster, systemNodeGroup: system });
    expect(stack.dependencies).toContain(base);
    const controller = (Object.values(resources(synthJson(stack), "helm_release")) as any[]).find(
      (r) => r.chart === "karpenter",
    );
    expect(controller.depends_on.some((d: string) => d.startsWith("aws_eks_node_group."))).toBe(false);
    expect(YAML.parse(controller.values[0]).nodeSelector).toEqual({ "node-role": "system" });
  });

  test("interruptionQueue: InterruptionQueueConfig.disabled() — no queue, no rules, no settings.interruptionQueue, no queue statement", () => {
    const { json, values, karpenter, controller } = install({ interruptionQueue: InterruptionQueueConfig.disabled() });
    expect(karpenter.interruptionQueue).toBeUndefined();
    expect(resources(json, "aws_sqs_queue")).toEqual({});
    expect(resources(json, "aws_cloudwatch_event_rule")).toEqual({});
    expect(values.settings).toEqual({ clusterName: "${aws_eks_cluster.cluster.name}" });
    const policies = Object.values(resources(json, "aws_iam_policy")).map((p: any) => p.policy as string);
    expect(policies.length).toBeGreaterThan(0);
    expect(policies.join("\n")).not.toContain("AllowInterruptionQueueActions");
    expect(controller.depends_on.some((d: string) => /sqs|cloudwatch/.test(d))).toBe(false);
  });

  test("interruption queue options: name and KMS key reach the queue and the controller", () => {
    const { json, values } = install({
      interruptionQueue: InterruptionQueueConfig.create({
        queueName: "demo-interruptions",
        kmsKey: InterruptionQueueKmsKey.create(),
      }),
    });
    const queue = onlyResource(json, "aws_sqs_queue");
    expect(queue.name).toBe("demo-interruptions");
    expect(queue.kms_master_key_id).toMatch(/^\$\{aws_kms_key\./);
    expect(values.settings.interruptionQueue).toMatch(/^\$\{aws_sqs_queue\.[^.]+\.name\}$/);
  });

  test("namespace and service account reach the chart, the association and the CRD release", () => {
    const { json, controller, crd, values } = install({
      namespace: "karpenter",
      serviceAccountName: "karpenter-controller",
    });
    const pia = onlyResource(json, "aws_eks_pod_identity_association");
    expect([pia.namespace, controller.namespace, crd.namespace]).toEqual(["karpenter", "karpenter", "karpenter"]);
    expect(pia.service_account).toBe("karpenter-controller");
    expect(values.serviceAccount.name).toBe("karpenter-controller");
    expect(crd.create_namespace).toBe(true);
    expect(install().crd.create_namespace).toBeUndefined();
  });

  test("IRSA: the ServiceAccount annotation is the controller role ARN, and no pod identity association", () => {
    const { json, values, karpenter } = install({ identity: { type: "irsa" } });
    expect(resources(json, "aws_eks_pod_identity_association")).toEqual({});
    const role = addr(json, "aws_iam_role", (r) => /AssumeRoleWithWebIdentity/.test(r.assume_role_policy));
    expect(role).toHaveLength(1);
    expect(values.serviceAccount.annotations).toEqual({ "eks.amazonaws.com/role-arn": `\${${role[0]}.arn}` });
    expect(karpenter.controllerRole.identityType).toBe("irsa");
  });

  test("IRSA: values cannot replace the wired role ARN annotation, nor remove the annotations", () => {
    expect(() =>
      install({
        identity: { type: "irsa" },
        values: { serviceAccount: { annotations: { "eks.amazonaws.com/role-arn": "arn:x" } } },
      }),
    ).toThrow(
      /^test\/karpenter: values\.serviceAccount\.annotations\["eks\.amazonaws\.com\/role-arn"\] = "arn:x" is invalid: not settable here: with IRSA it is wired to the controller role/,
    );
    expect(() => install({ identity: { type: "irsa" }, values: { serviceAccount: { annotations: null } } })).toThrow(
      /values\.serviceAccount\.annotations = null is invalid: not removable with IRSA/,
    );
    // Pod Identity: the annotation would make the SDK use web identity instead
    expect(() =>
      install({ values: { serviceAccount: { annotations: { "eks.amazonaws.com/role-arn": "arn:x" } } } }),
    ).toThrow(/prefer web identity over the EKS Pod Identity credentials/);
  });

  test("version flows to every piece; settings are checked against it", () => {
    const { controller, crd, json } = install({ version: "1.9.2" });
    expect([controller.version, crd.version]).toEqual(["1.9.2", "1.9.2"]);
    expect(addr(json, "aws_cloudwatch_event_target")).toHaveLength(4);
    expect(() => install({ version: "1.9.2", settings: { featureGates: { capacityBuffer: true } } })).toThrow(
      /test\/karpenter: settings\.featureGates\.capacityBuffer = true is invalid: Karpenter 1\.9\.2 has no feature gate capacityBuffer: it was introduced in 1\.14\.0/,
    );
  });

  test("spot service-linked role on request; the controller waits for it", () => {
    const { json, karpenter, controller } = install({ spotServiceLinkedRole: true });
    expect(onlyResource(json, "aws_iam_service_linked_role").aws_service_name).toBe("spot.amazonaws.com");
    expect(karpenter.createsSpotServiceLinkedRole).toBe(true);
    expect(controller.depends_on).toContain(addr(json, "aws_iam_service_linked_role")[0]);
  });

  test("bring your own node role: only the access entry, and nodeRoleName is that role", () => {
    const { json, karpenter } = install({
      nodeRole: { existingRole: { roleName: "my-nodes", roleArn: "arn:aws:iam::123456789012:role/my-nodes" } },
    });
    expect(karpenter.nodeRoleName).toBe("my-nodes");
    expect(onlyResource(json, "aws_eks_access_entry").principal_arn).toBe("arn:aws:iam::123456789012:role/my-nodes");
    expect(addr(json, "aws_iam_role", (r) => /ec2\./.test(r.assume_role_policy))).toEqual([]);
  });

  test("1.0.x with a renamed chart: the CRD conversion webhook points at the controller's Service", () => {
    const { crd } = install({ version: "1.0.14", values: { fullnameOverride: "kp" } });
    expect(YAML.parse(crd.values[0])).toEqual({ webhook: { serviceName: "kp" } });
    expect(install({ version: "1.0.14" }).crd.values).toBeUndefined();
  });

  test("1.0.x: values.webhook.enabled and .port are mirrored into the CRD chart, whose conversion stanza names the controller's webhook", () => {
    const off = install({ version: "1.0.14", values: { webhook: { enabled: false, port: 9443 } } });
    expect(YAML.parse(off.crd.values[0])).toEqual({ webhook: { enabled: false, port: 9443 } });
    expect(off.values.webhook).toEqual({ enabled: false, port: 9443 });
    expect(
      YAML.parse(
        install({ version: "1.0.14", values: { fullnameOverride: "kp", webhook: { port: 9443 } } }).crd.values[0],
      ),
    ).toEqual({ webhook: { serviceName: "kp", port: 9443 } });
    // null would remove the chart's whole webhook map, which its templates read (.Values.webhook.enabled): helm
    // stops on a nil pointer; enabled: false turns the controller's webhook off
    expect(() => install({ version: "1.0.14", values: { webhook: null } })).toThrow(/HELM_VALUES_NULL_MAP/);
    expect(YAML.parse(install({ version: "1.0.14", values: { webhook: { enabled: false } } }).crd.values[0])).toEqual({
      webhook: { enabled: false },
    });
    expect(() => install({ version: "1.0.14", values: { webhook: { port: "9443" } } })).toThrow(
      /^test\/karpenter: values\.webhook\.port = "9443" is invalid: a TCP port/,
    );
  });

  test("interruptionQueue must be an InterruptionQueueConfig; the 0.x shapes say what to write instead", () => {
    const shapes =
      "InterruptionQueueConfig.create({ queueName?, ruleNamePrefix?, kmsKey? }) (the default), InterruptionQueueConfig.existing({ existingQueueName, existingQueueArn, kmsKeyArn? }) or InterruptionQueueConfig.disabled()";
    const refused = (value: unknown) =>
      rejected(() => install({ interruptionQueue: value as InterruptionQueueConfig })).message;
    expect(refused("yes")).toBe(
      `test/karpenter: interruptionQueue = "yes" is invalid: ${shapes} [INTERRUPTION_QUEUE_CONFIG]`,
    );
    expect(refused(true)).toBe(
      `test/karpenter: interruptionQueue = true is invalid: ${shapes}: write InterruptionQueueConfig.create() (or leave interruptionQueue unset) [INTERRUPTION_QUEUE_CONFIG]`,
    );
    expect(refused(false)).toBe(
      `test/karpenter: interruptionQueue = false is invalid: ${shapes}: write InterruptionQueueConfig.disabled() [INTERRUPTION_QUEUE_CONFIG]`,
    );
    expect(refused(InterruptionQueueKmsKey.create())).toMatch(
      /: a KMS key goes inside, InterruptionQueueConfig\.create\(\{ kmsKey \}\) \[INTERRUPTION_QUEUE_CONFIG\]$/,
    );
    expect(refused({ queueName: "q" })).toMatch(
      /interruptionQueue = \{"queueName":"q"\} is invalid: .*: wrap the options in InterruptionQueueConfig\.create\(\{ … \}\) \[INTERRUPTION_QUEUE_CONFIG\]$/,
    );
    expect(refused({ existingQueueName: "q", existingQueueArn: "arn:aws:sqs:us-east-1:123456789012:q" })).toMatch(
      /: wrap the queue in InterruptionQueueConfig\.existing\(\{ … \}\) \[INTERRUPTION_QUEUE_CONFIG\]$/,
    );
    // the created queue's kmsKey of 0.x: true and { keyArn }
    const key = (kmsKey: unknown) =>
      rejected(() =>
        install({ interruptionQueue: InterruptionQueueConfig.create({ kmsKey: kmsKey as InterruptionQueueKmsKey }) }),
      ).message;
    expect(key(true)).toMatch(
      /^test\/karpenter: interruptionQueue\.kmsKey = true is invalid: .*: write InterruptionQueueKmsKey\.create\(\) for a created key \[INTERRUPTION_QUEUE_KMS_KEY\]$/,
    );
    const arn = "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab";
    expect(key({ keyArn: arn })).toMatch(
      new RegExp(
        `: write InterruptionQueueKmsKey\\.fromKeyArn\\("${arn}"\\) for your own key \\[INTERRUPTION_QUEUE_KMS_KEY\\]$`,
      ),
    );
    expect(key(false)).toMatch(/: leave kmsKey unset for SQS-managed SSE \[INTERRUPTION_QUEUE_KMS_KEY\]$/);
  });

  test("the three InterruptionQueueConfig factories record what they were given", () => {
    expect(InterruptionQueueConfig.create()).toMatchObject({
      mode: InterruptionQueueMode.CREATE,
      createOptions: {},
      existingQueue: undefined,
    });
    expect(
      InterruptionQueueConfig.existing({
        existingQueueName: "q",
        existingQueueArn: "arn:aws:sqs:us-east-1:123456789012:q",
      }).mode,
    ).toBe("existing");
    expect(InterruptionQueueConfig.disabled()).toMatchObject({
      mode: "disabled",
      createOptions: undefined,
      existingQueue: undefined,
    });
    expect(InterruptionQueueKmsKey.fromKeyArn("arn:x")).toMatchObject({ createsKey: false, keyArn: "arn:x" });
    expect(InterruptionQueueKmsKey.create()).toMatchObject({ createsKey: true, keyArn: undefined });
  });

  describe("Pod Identity agent warning", () => {
    test("warns when no eks-pod-identity-agent add-on for the cluster is in the app", () => {
      const { stack } = install();
      expect(warnings(stack)).toEqual([
        'the controller uses EKS Pod Identity but the app has no EksAddon "eks-pod-identity-agent" for this cluster: without the agent the controller gets no AWS credentials; add the add-on or use identity: { type: "irsa" }',
      ]);
    });

    test("no warning with the add-on (referencing the cluster), none with IRSA", () => {
      const { stack } = install({}, (s) => {
        new EksAddon(s, "agent", {
          clusterName: (s.node.findChild("cluster") as EksCluster).name,
          addonName: "eks-pod-identity-agent",
        });
      });
      expect(warnings(stack)).toEqual([]);
      // IRSA has warnings of its own (the OIDC provider), never the Pod Identity agent's
      expect(
        warnings(install({ identity: { type: "irsa" } }).stack).filter((w) => /eks-pod-identity-agent/.test(w)),
      ).toEqual([]);
    });

    test("an add-on for another cluster does not count", () => {
      const { stack } = install({}, (s) => {
        new EksAddon(s, "agent", { clusterName: "other", addonName: "eks-pod-identity-agent" });
      });
      expect(warnings(stack)).toHaveLength(1);
    });
  });

  describe("existing cluster (KarpenterCluster.fromClusterName)", () => {
    function existing(withAgent: boolean) {
      const app = Testing.app();
      const stack = new TerraformStack(app, "test");
      new AwsProvider(stack, "aws", { region: "eu-west-1" });
      new HelmProvider(stack, "helm", { kubernetes: { configPath: "~/.kube/config" } });
      const cluster = KarpenterCluster.fromClusterName(stack, "existing", "prod");
      if (withAgent) new EksAddon(stack, "agent", { clusterName: "prod", addonName: "eks-pod-identity-agent" });
      const karpenter = new Karpenter(stack, "karpenter", { cluster });
      return { app, stack, karpenter, json: synthJson(stack) };
    }

    test("everything is built against the data source; nothing creates a cluster", () => {
      const { json, karpenter } = existing(true);
      expect(resources(json, "aws_eks_cluster")).toEqual({});
      expect(json.data.aws_eks_cluster.existing.name).toBe("prod");
      const controller = (Object.values(resources(json, "helm_release")) as any[]).find((r) => r.chart === "karpenter");
      expect(YAML.parse(controller.values[0]).settings.clusterName).toBe("prod");
      expect(onlyResource(json, "aws_eks_access_entry").cluster_name).toBe("prod");
      expect(onlyResource(json, "aws_eks_pod_identity_association").cluster_name).toBe("prod");
      expect(onlyResource(json, "aws_sqs_queue").name).toBe("prod");
      expect(karpenter.cluster.clusterNameLiteral).toBe("prod");
    });

    test("warns that the cluster is external when the app has no agent add-on; an add-on by name satisfies it", () => {
      expect(warnings(existing(false).stack)).toEqual([
        expect.stringMatching(
          /cluster prod is not created by this app \(read with a data source\): make sure the eks-pod-identity-agent add-on is installed/,
        ),
      ]);
      expect(warnings(existing(true).stack)).toEqual([]);
    });
  });

  test("addEc2NodeClass / addNodePool: node objects of this install, ordered after the controller release", () => {
    const { stack } = helmStack();
    new KubernetesProvider(stack, "k8s", { configPath: "~/.kube/config" });
    const karpenter = new Karpenter(stack, "karpenter", { cluster: testCluster(stack, "demo") });
    const nodeClass = karpenter.addEc2NodeClass("default-class");
    const pool = karpenter.addNodePool("default-pool", { nodeClass });
    expect(nodeClass.karpenter).toBe(karpenter);
    expect(nodeClass.node.scope).toBe(karpenter);
    expect(pool.nodeClassRef.name).toBe(nodeClass.name);
    const json = synthJson(stack);
    const manifests = Object.entries(resources(json, "kubernetes_manifest")) as [string, any][];
    const [classAddr, classBody] = manifests.find(([, m]) => m.manifest.kind === "EC2NodeClass")!;
    const [, poolBody] = manifests.find(([, m]) => m.manifest.kind === "NodePool")!;
    const controller = addr(json, "helm_release", (r) => r.chart === "karpenter")[0];
    expect(classBody.depends_on).toContain(controller);
    const nodeRole = addr(json, "aws_iam_role", (r) => /ec2\./.test(r.assume_role_policy))[0];
    expect(classBody.manifest.spec.role).toBe(`\${${nodeRole}.name}`);
    expect(poolBody.depends_on).toContain(`kubernetes_manifest.${classAddr}`);
  });

  test("addEc2NodeClass / addNodePool: the id is the object name, and a class and a pool may share it", () => {
    const { stack } = helmStack();
    const karpenter = new Karpenter(stack, "karpenter", { cluster: testCluster(stack, "demo") });
    const nodeClass = karpenter.addEc2NodeClass("default");
    const pool = karpenter.addNodePool("default", { nodeClass });
    const named = karpenter.addNodePool("gpu", { nodeClass, name: "gpu-pool" });
    expect([nodeClass.name, pool.name, named.name]).toEqual(["default", "default", "gpu-pool"]);
    expect([nodeClass.node.id, pool.node.id]).toEqual(["node-class-default", "node-pool-default"]);
    expect(() => karpenter.addEc2NodeClass("__")).toThrow(
      /karpenter: id = "__" is invalid: an id that gives a Kubernetes name/,
    );
  });

  test("addNodePool / addEc2NodeClass with an id used before: the library's error names the id given", () => {
    const { stack } = helmStack();
    const karpenter = new Karpenter(stack, "karpenter", { cluster: testCluster(stack, "demo") });
    const nodeClass = karpenter.addEc2NodeClass("default");
    karpenter.addNodePool("default", { nodeClass });
    expect(() => karpenter.addNodePool("default", { nodeClass, name: "other" })).toThrow(
      'karpenter: id = "default" is invalid: an id no earlier addNodePool call of this Karpenter used: each call adds a construct node-pool-default here; give another id',
    );
    expect(() => karpenter.addEc2NodeClass("default")).toThrow(/an id no earlier addEc2NodeClass call/);
    // a pool and a class still share an id
    expect(() => karpenter.addNodePool("gpu", { nodeClass })).not.toThrow();
  });

  test("node objects in the install's own stack: a warning naming them and the two-stack pattern; none from another stack", () => {
    const { stack } = helmStack();
    new KubernetesProvider(stack, "k8s", { configPath: "~/.kube/config" });
    const karpenter = new Karpenter(stack, "karpenter", {
      cluster: testCluster(stack, "demo"),
      identity: { type: "irsa", oidcProviderArn: "arn:aws:iam::123456789012:oidc-provider/x" },
    });
    const nodeClass = new Ec2NodeClass(stack, "default", { karpenter });
    karpenter.addNodePool("default", { nodeClass });
    const found = warnings(stack).filter((w) => /CRD release/.test(w));
    expect(found).toEqual([
      expect.stringMatching(
        /^test\/karpenter\/node-pool-default, test\/default are in stack test together with the Karpenter CRD release: kubernetes_manifest needs the CRDs \(and the cluster\) at plan time, so the first deploy fails at plan\. Put node classes and pools in a stack that depends on this one, as in the example app in this library's repository \(a cluster stack with Karpenter, and a nodes stack for NodePools and EC2NodeClasses\): `new Ec2NodeClass\(nodesStack, "default", \{ karpenter \}\)`/,
      ),
    ]);

    const app = Testing.app();
    const base = new TerraformStack(app, "base");
    new AwsProvider(base, "aws", { region: "us-east-1" });
    new HelmProvider(base, "helm", { kubernetes: { configPath: "~/.kube/config" } });
    const installed = new Karpenter(base, "karpenter", { cluster: testCluster(base, "demo") });
    const nodes = new TerraformStack(app, "nodes");
    new KubernetesProvider(nodes, "k8s", { configPath: "~/.kube/config" });
    const cls = new Ec2NodeClass(nodes, "default", { karpenter: installed });
    new NodePool(nodes, "default-pool", { nodeClass: cls });
    expect(warnings(base).filter((w) => /CRD release/.test(w))).toEqual([]);
  });

  describe("static NodePools (replicas) need the StaticCapacity feature gate", () => {
    /** An install in one stack and a class and pool in a nodes stack; returns the install stack's warnings. */
    function staticPool(props: Partial<KarpenterProps>, replicas: number | undefined) {
      const app = Testing.app();
      const base = new TerraformStack(app, "base");
      new AwsProvider(base, "aws", { region: "us-east-1" });
      new HelmProvider(base, "helm", { kubernetes: { configPath: "~/.kube/config" } });
      const karpenter = new Karpenter(base, "karpenter", {
        cluster: testCluster(base, "demo"),
        identity: { type: "irsa", oidcProviderArn: "arn:aws:iam::123456789012:oidc-provider/x" },
        ...props,
      });
      const nodes = new TerraformStack(app, "nodes");
      new KubernetesProvider(nodes, "k8s", { configPath: "~/.kube/config" });
      const nodeClass = new Ec2NodeClass(nodes, "default", { karpenter });
      new NodePool(nodes, "fixed", { nodeClass, replicas });
      return warnings(base).filter((w) => /StaticCapacity/.test(w));
    }

    test("a pool with replicas of an install without the gate warns, naming the pool and the setting", () => {
      expect(staticPool({}, 3)).toEqual([
        "nodes/fixed (NodePool fixed) sets replicas (a static NodePool), but the StaticCapacity feature gate of this install is off (settings.featureGates.staticCapacity is not true, or a FEATURE_GATES entry of values.controller.env, which replaces the chart's gate string, does not set StaticCapacity=true): Karpenter 1.15.3 provisions static NodePools only with the StaticCapacity feature gate (alpha, off by default), so the pool keeps no nodes. Set settings: { featureGates: { staticCapacity: true } }, or drop replicas",
      ]);
      expect(
        staticPool(
          {
            values: { settings: { featureGates: { staticCapacity: false } } },
            settings: { featureGates: { staticCapacity: true } },
          },
          3,
        ),
      ).toHaveLength(1);
    });

    test("no warning with the gate on (typed or through values), nor for a pool without replicas", () => {
      expect(staticPool({ settings: { featureGates: { staticCapacity: true } } }, 3)).toEqual([]);
      expect(staticPool({ values: { settings: { featureGates: { staticCapacity: true } } } }, 3)).toEqual([]);
      expect(staticPool({}, undefined)).toEqual([]);
    });

    test("a pool of this install in its own stack (added with addNodePool) is found too", () => {
      const { stack } = helmStack();
      new KubernetesProvider(stack, "k8s", { configPath: "~/.kube/config" });
      const karpenter = new Karpenter(stack, "karpenter", { cluster: testCluster(stack, "demo") });
      karpenter.addNodePool("fixed", { nodeClass: karpenter.addEc2NodeClass("default"), replicas: 2 });
      expect(warnings(stack).filter((w) => /StaticCapacity/.test(w))).toEqual([
        expect.stringMatching(/^test\/karpenter\/node-pool-fixed \(NodePool fixed\) sets replicas/),
      ]);
    });
  });

  describe("an existing interruption queue in another region or account", () => {
    function queueWarnings(arn: string, provider: { region?: string; allowedAccountIds?: string[] }) {
      const app = Testing.app();
      const stack = new TerraformStack(app, "test");
      new AwsProvider(stack, "aws", provider);
      new HelmProvider(stack, "helm", { kubernetes: { configPath: "~/.kube/config" } });
      const name = arn.split(":").pop()!;
      new Karpenter(stack, "karpenter", {
        cluster: testCluster(stack, "demo"),
        interruptionQueue: InterruptionQueueConfig.existing({ existingQueueName: name, existingQueueArn: arn }),
      });
      return warnings(stack).filter((w) => /existingQueueArn/.test(w));
    }

    test("warns: the controller looks the queue up by name in its own region and account", () => {
      expect(queueWarnings("arn:aws:sqs:eu-west-1:123456789012:shared", { region: "us-east-1" })).toEqual([
        "interruptionQueue.existingQueueArn arn:aws:sqs:eu-west-1:123456789012:shared is in region eu-west-1, not the cluster's us-east-1 (the AWS provider of the cluster): the controller looks the queue up by name in its own region and account, so it never reads this queue and interruption events are lost. Use a queue in the cluster's region and account (the interruption events come from EventBridge in that region), or let this install create one",
      ]);
      expect(
        queueWarnings("arn:aws:sqs:us-east-1:999999999999:shared", {
          region: "us-east-1",
          allowedAccountIds: ["123456789012"],
        }),
      ).toEqual([expect.stringContaining("is in account 999999999999, not the cluster's 123456789012")]);
    });

    test("no warning in the same region and account, or when the provider's region or account is unknown", () => {
      expect(
        queueWarnings("arn:aws:sqs:us-east-1:123456789012:shared", {
          region: "us-east-1",
          allowedAccountIds: ["123456789012"],
        }),
      ).toEqual([]);
      expect(queueWarnings("arn:aws:sqs:eu-west-1:999999999999:shared", {})).toEqual([]);
    });
  });

  test("an install whose constructor threw is not left in the tree: a later synth neither crashes nor emits its resources", () => {
    const { stack } = helmStack();
    const cluster = testCluster(stack, "demo");
    new Karpenter(stack, "karpenter", { cluster });
    expect(() => new Karpenter(stack, "broken", {} as KarpenterProps)).toThrow(KarpenterValidationError);
    expect(
      () => new Karpenter(stack, "half", { cluster: testCluster(stack, "other", "other-cluster"), replicas: 0 }),
    ).toThrow(/replicas = 0 is invalid/);
    expect(stack.node.tryFindChild("broken")).toBeUndefined();
    expect(stack.node.tryFindChild("half")).toBeUndefined();
    expect(() => Testing.synth(stack, true)).not.toThrow();
    expect(
      Object.values(resources(synthJson(stack), "aws_iam_role"))
        .map((r: any) => r.name)
        .sort(),
    ).toEqual([
      "KarpenterControllerRole-${aws_eks_cluster.cluster.name}",
      "KarpenterNodeRole-${aws_eks_cluster.cluster.name}",
    ]);
  });

  describe("one install per cluster", () => {
    test("two installs on the same cluster resource fail at synth naming both, even in different namespaces", () => {
      const { stack } = helmStack();
      const cluster = testCluster(stack, "demo");
      new Karpenter(stack, "k1", { cluster });
      new Karpenter(stack, "k2", { cluster, namespace: "karpenter" });
      expect(() => Testing.synth(stack, true)).toThrow(
        /test\/k2: cluster = "demo" is invalid: one Karpenter per cluster: test\/k1 also installs Karpenter on cluster demo\. The CRDs are cluster-scoped/,
      );
    });

    /** Two stacks, each reading cluster "prod" and installing Karpenter; returns the second stack. */
    const twoStacks = (regionB: string, b: Partial<KarpenterProps> = {}, accounts?: [string, string]) => {
      const app = Testing.app();
      const stacks = ["a", "b"].map((id, i) => {
        const stack = new TerraformStack(app, id);
        new AwsProvider(stack, "aws", {
          region: i === 0 ? "eu-west-1" : regionB,
          allowedAccountIds: accounts ? [accounts[i]] : undefined,
        });
        new HelmProvider(stack, "helm", { kubernetes: { configPath: "~/.kube/config" } });
        const props = i === 1 ? b : {};
        new Karpenter(stack, "karpenter", {
          cluster: KarpenterCluster.fromClusterName(stack, "existing", "prod"),
          identity: { type: "irsa", oidcProviderArn: "arn:aws:iam::123456789012:oidc-provider/x" },
          ...props,
        });
        return stack;
      });
      return stacks[1];
    };

    test("the same literal cluster name read in two stacks is the same cluster: one error, not one per IAM name", () => {
      const error = thrown(() => Testing.synth(twoStacks("eu-west-1"), true));
      expect(error.message).toMatch(
        /b\/karpenter: cluster = "prod" is invalid: one Karpenter per cluster: a\/karpenter also installs Karpenter on cluster prod/,
      );
      expect(error.message).not.toMatch(/IAM name/);
    });

    test("in two regions it is two clusters, but IAM names are account-wide: each clashing name is an error naming both installs and the prop", () => {
      const error = thrown(() => Testing.synth(twoStacks("us-east-1"), true));
      expect(error.message).not.toMatch(/one Karpenter per cluster/);
      expect(error.message).toContain(
        'b/karpenter: nodeRole.roleName = "KarpenterNodeRole-prod" is invalid: an IAM name no other construct of this app creates in the same AWS account: a/karpenter (nodeRole.roleName) also creates IAM role "KarpenterNodeRole-prod". IAM names are account-wide (the same in every region), so the second create fails at apply with EntityAlreadyExists; set nodeRole.roleName (or the other\'s) to a name unique in the account. The accounts are not known at synth',
      );
      expect(error.message).toContain(
        'b/karpenter: controllerRole.roleName = "KarpenterControllerRole-prod" is invalid',
      );
      expect(error.message).toMatch(
        /b\/karpenter: controllerRole\.policyNameSuffix = "prod" is invalid: .*a\/karpenter \(controllerRole\.policyNameSuffix\) also creates IAM managed policy "KarpenterControllerNodeLifecyclePolicy-prod", .*IAM managed policy "KarpenterControllerResourceDiscoveryPolicy-prod"/,
      );
    });

    test("in two regions with other IAM names, or in accounts known to differ, there is no clash", () => {
      const renamed = {
        nodeRole: { roleName: "KarpenterNodeRole-prod-us" },
        controllerRole: { roleName: "KarpenterControllerRole-prod-us", policyNameSuffix: "prod-us" },
      };
      expect(() => Testing.synth(twoStacks("us-east-1", renamed), true)).not.toThrow();
      expect(() => Testing.synth(twoStacks("us-east-1", {}, ["111111111111", "222222222222"]), true)).not.toThrow();
      // IAM compares names case-insensitively
      const caseOnly = {
        nodeRole: { roleName: "karpenternoderole-PROD" },
        controllerRole: { roleName: "KarpenterControllerRole-prod-us", policyNameSuffix: "prod-us" },
      };
      expect(() => Testing.synth(twoStacks("us-east-1", caseOnly, ["111111111111", "111111111111"]), true)).toThrow(
        /nodeRole\.roleName = "karpenternoderole-PROD" is invalid: .*also creates IAM role "karpenternoderole-PROD"/,
      );
    });

    test("the spot service-linked role exists once per account: two installs asking for it clash", () => {
      // two clusters (names a and b): only the spot role's name is shared
      const both = (spotB: boolean) => {
        const app = Testing.app();
        const stacks = ["a", "b"].map((id) => {
          const stack = new TerraformStack(app, id);
          new AwsProvider(stack, "aws", { region: "us-east-1" });
          new HelmProvider(stack, "helm", { kubernetes: { configPath: "~/.kube/config" } });
          new Karpenter(stack, "karpenter", {
            cluster: testCluster(stack, id),
            spotServiceLinkedRole: id === "a" || spotB,
          });
          return stack;
        });
        return stacks[1];
      };
      expect(() => Testing.synth(both(false), true)).not.toThrow();
      expect(() => Testing.synth(both(true), true)).toThrow(
        'b/karpenter: spotServiceLinkedRole = true is invalid: an IAM name no other construct of this app creates in the same AWS account: a/karpenter (spotServiceLinkedRole) also creates IAM role "AWSServiceRoleForEC2Spot". IAM names are account-wide (the same in every region), so the second create fails at apply with EntityAlreadyExists; set spotServiceLinkedRole: false on all but one install in the account',
      );
    });
  });

  describe("Kubernetes version compatibility", () => {
    function onCluster(k8s: string | undefined, version: string) {
      const { stack } = helmStack();
      const eks = new EksCluster(stack, "cluster", {
        name: "demo",
        version: k8s,
        roleArn: "arn:aws:iam::123456789012:role/c",
        vpcConfig: { subnetIds: ["subnet-00000001"] },
      });
      return () => new Karpenter(stack, "karpenter", { cluster: KarpenterCluster.fromEksCluster(eks), version });
    }

    test("a version that does not support the cluster's Kubernetes version is refused on `version`, naming both and what to use", () => {
      expect(onCluster("1.34", "1.0.14")).toThrow(KarpenterValidationError);
      expect(onCluster("1.34", "1.0.14")).toThrow(
        'test/karpenter: version = "1.0.14" is invalid: Karpenter 1.0.14 supports Kubernetes 1.25 to 1.31, and cluster demo runs Kubernetes 1.34: newer than the newest it supports, a combination upstream neither tests nor supports: nothing stops the controller (where its own version check, MinK8sVersion / MaxK8sVersion, refuses the version too, it only logs an error when it discovers the version, at most once a day), and it launches and disrupts nodes on behaviour nobody verified; Kubernetes 1.34 needs Karpenter 1.6.6–1.6.8 or 1.7.4 and later (Karpenter compatibility matrix) [CLUSTER_KUBERNETES_INCOMPATIBLE]',
      );
      expect(onCluster("1.34", "1.14.1")).not.toThrow();
      expect(onCluster(undefined, "1.0.14")).not.toThrow(); // EKS picks the version: unknown at synth
    });

    test("a cluster without a version gets the EKS default: a warning when this Karpenter stops short of the newest Kubernetes known", () => {
      const karpenter = onCluster(undefined, "1.0.14")();
      expect(warnings(TerraformStack.of(karpenter)).filter((w) => /sets no Kubernetes version/.test(w))).toEqual([
        'cluster demo sets no Kubernetes version, so EKS creates it with its current default version, which may be newer than 1.31, the newest Karpenter 1.0.14 supports (Kubernetes 1.25 to 1.31; the default Karpenter 1.15.3 supports up to 1.37): that would be a combination upstream neither tests nor supports: nothing stops the controller (where its own version check, MinK8sVersion / MaxK8sVersion, refuses the version too, it only logs an error when it discovers the version, at most once a day), and it launches and disrupts nodes on behaviour nobody verified. Set the EksCluster\'s version (e.g. "1.31"), or use a newer Karpenter version',
      ]);
      expect(
        warnings(TerraformStack.of(onCluster(undefined, "1.15.2")())).filter((w) =>
          /sets no Kubernetes version/.test(w),
        ),
      ).toEqual([]);
      expect(
        warnings(TerraformStack.of(onCluster("1.30", "1.0.14")())).filter((w) => /sets no Kubernetes version/.test(w)),
      ).toEqual([]);
    });

    test("Kubernetes newer than the table is a warning, once", () => {
      const build = onCluster("1.38", "1.15.2");
      const karpenter = build();
      const found = warnings(TerraformStack.of(karpenter)).filter((w) => /compatibility matrix/.test(w));
      expect(found).toEqual([
        expect.stringMatching(
          /^cluster demo runs Kubernetes 1\.38, newer than the Karpenter compatibility matrix this library knows/,
        ),
      ]);
    });

    test("Kubernetes 1.37 needs Karpenter 1.15: accepted with 1.15.x, refused with 1.14", () => {
      expect(() => onCluster("1.37", "1.15.0")()).not.toThrow();
      expect(() => onCluster("1.37", "1.15.2")()).not.toThrow();
      expect(() => onCluster("1.37", "1.14.3")()).toThrow(
        /version = "1\.14\.3" is invalid: Karpenter 1\.14\.3 supports Kubernetes 1\.26 to 1\.36, and cluster demo runs Kubernetes 1\.37: .*Kubernetes 1\.37 needs Karpenter 1\.15\.0 and later \(Karpenter compatibility matrix\)/,
      );
      // 1.15 dropped Kubernetes 1.30
      expect(() => onCluster("1.30", "1.15.2")()).toThrow(
        /Karpenter 1\.15\.2 supports Kubernetes 1\.31 to 1\.37, and cluster demo runs Kubernetes 1\.30/,
      );
    });
  });

  test("a missing cluster is a KarpenterValidationError", () => {
    const { stack } = helmStack();
    expect(() => new Karpenter(stack, "karpenter", {} as KarpenterProps)).toThrow(KarpenterValidationError);
    expect(() => new Karpenter(stack, "k2", {} as KarpenterProps)).toThrow(
      "test/k2: cluster = undefined is invalid: cluster is required: an IKarpenterCluster from KarpenterCluster.fromEksCluster(...) or .fromClusterName(...) [CLUSTER_REQUIRED]",
    );
  });

  test('version "1.14" suggests the newest known patch', () => {
    expect(() => install({ version: "1.14" })).toThrow(
      /test\/karpenter: version = "1\.14" is invalid: .*did you mean "1\.14\.4"/,
    );
  });

  describe("option objects: unknown keys are refused, wired values cannot be overridden", () => {
    test("controllerRole: a namespace (a non-literal object passes TypeScript) cannot move the pod identity association", () => {
      const options = { roleName: "ctrl", namespace: "other" };
      expect(() => install({ controllerRole: options })).toThrow(
        'test/karpenter: controllerRole.namespace = "other" is invalid: not a known key of controllerRole (it would be ignored): the allowed keys are { roleName?, policyNameSuffix?, additionalStatements?, additionalPolicyArns? } [OPTIONS_UNKNOWN_KEY]',
      );
      const serviceAccount = { roleName: "ctrl", serviceAccountName: "other" };
      expect(() => install({ controllerRole: serviceAccount })).toThrow(
        /controllerRole\.serviceAccountName = "other" is invalid: not a known key of controllerRole/,
      );
    });

    test("nodeRole: cluster, version and tags are wired; a stray key is named", () => {
      const options = { roleName: "nodes", version: "1.0.14" };
      expect(() => install({ nodeRole: options })).toThrow(
        /^test\/karpenter: nodeRole\.version = "1\.0\.14" is invalid: not a known key of nodeRole .*\{ roleName\?, existingRole\?, additionalPolicyArns\? \}/,
      );
      expect(() => install({ nodeRole: "nodes" as never })).toThrow(
        /^test\/karpenter: nodeRole = "nodes" is invalid: an object \{ roleName\?/,
      );
    });

    test("a top-level key that belongs in an option object points there; a misspelt prop keeps its did-you-mean", () => {
      const hint = (props: object) =>
        (thrown(() => install(props as Partial<KarpenterProps>)) as KarpenterValidationError).problems.map((p) =>
          p.message.replace(/ The allowed keys are .* \[OPTIONS_UNKNOWN_KEY\]$/, ""),
        );
      expect(hint({ roleName: "X" })).toEqual([
        'test/karpenter: roleName = "X" is invalid: not a known prop (it would be ignored); did you mean nodeRole.roleName or controllerRole.roleName?',
      ]);
      expect(
        hint({
          rolName: "X",
          queueName: "q",
          oidcProviderArn: "arn:x",
          requests: {},
          clusterEndpoint: "https://x",
          spotToSpotConsolidation: true,
          verison: "1.14.1",
        }),
      ).toEqual([
        'test/karpenter: rolName = "X" is invalid: not a known prop (it would be ignored); did you mean nodeRole.roleName or controllerRole.roleName?',
        'test/karpenter: queueName = "q" is invalid: not a known prop (it would be ignored); did you mean interruptionQueue.queueName?',
        'test/karpenter: oidcProviderArn = "arn:x" is invalid: not a known prop (it would be ignored); did you mean identity.oidcProviderArn?',
        "test/karpenter: requests = {} is invalid: not a known prop (it would be ignored); did you mean controllerResources.requests?",
        'test/karpenter: clusterEndpoint = "https://x" is invalid: not a known prop (it would be ignored); did you mean settings.clusterEndpoint?',
        "test/karpenter: spotToSpotConsolidation = true is invalid: not a known prop (it would be ignored); did you mean settings.featureGates.spotToSpotConsolidation?",
        'test/karpenter: verison = "1.14.1" is invalid: not a known prop (it would be ignored); did you mean version?',
      ]);
      expect(hint({ nodeRole: { roleArn: "arn:aws:iam::123456789012:role/n" } })).toEqual([
        'test/karpenter: nodeRole.roleArn = "arn:aws:iam::123456789012:role/n" is invalid: not a known key of nodeRole (it would be ignored); did you mean existingRole.roleArn?',
      ]);
      // a key no option object has gets the allowed keys only
      expect(thrown(() => install({ name: "x" } as Partial<KarpenterProps>)).message).toMatch(
        /^test\/karpenter: name = "x" is invalid: not a known prop \(it would be ignored\): the allowed keys are \{ cluster\?/,
      );
    });

    test("allowed options still reach the roles, with the wired namespace and service account", () => {
      const { json, karpenter } = install({
        nodeRole: { roleName: "nodes" },
        controllerRole: { roleName: "ctrl", policyNameSuffix: "demo-x" },
        namespace: "karpenter",
      });
      expect(karpenter.controllerRole.policies).toHaveLength(6);
      for (const p of Object.values(resources(json, "aws_iam_policy")) as any[])
        expect(p.name).toMatch(/^KarpenterController[A-Za-z]+Policy-demo-x$/);
      expect(
        Object.values(resources(json, "aws_iam_role"))
          .map((r: any) => r.name)
          .sort(),
      ).toEqual(["ctrl", "nodes"]);
      expect(onlyResource(json, "aws_eks_pod_identity_association")).toMatchObject({
        namespace: "karpenter",
        service_account: "karpenter",
      });
    });

    test("interruptionQueue: a key of the other shape is not silently ignored", () => {
      const options = {
        queueName: "q",
        kmsKeyArn: "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
      };
      expect(() => install({ interruptionQueue: InterruptionQueueConfig.create(options) })).toThrow(
        'test/karpenter: interruptionQueue.kmsKeyArn = "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab" is invalid: not a key of the created queue\'s options (your own key of a created queue is kmsKey: InterruptionQueueKmsKey.fromKeyArn(arn)): the allowed keys are { queueName?, ruleNamePrefix?, kmsKey? } [INTERRUPTION_QUEUE_UNKNOWN_KEY]',
      );
      const typo = { queueName: "q", queueNmae: "q" };
      expect(() => install({ interruptionQueue: InterruptionQueueConfig.create(typo) })).toThrow(
        /interruptionQueue\.queueNmae = "q" is invalid: not a key of the created queue's options: /,
      );
    });

    test("a bad option is refused before any resource is created", () => {
      const { stack } = helmStack();
      const cluster = testCluster(stack);
      expect(
        () =>
          new Karpenter(stack, "karpenter", {
            cluster,
            interruptionQueue: InterruptionQueueConfig.create({ queueName: "q", kmsKeyArn: "x" } as never),
          }),
      ).toThrow(KarpenterValidationError);
      expect(stack.node.tryFindChild("karpenter")?.node.children.map((c) => c.node.id) ?? []).toEqual([]);
    });
  });

  describe("an existing interruption queue", () => {
    const arn = "arn:aws:sqs:us-east-1:123456789012:shared-interruptions";
    test("nothing is created; the controller policy names its ARN and settings.interruptionQueue its name", () => {
      const { json, values, karpenter } = install({
        interruptionQueue: InterruptionQueueConfig.existing({
          existingQueueName: "shared-interruptions",
          existingQueueArn: arn,
        }),
      });
      expect(karpenter.interruptionQueue).toBeUndefined();
      expect(karpenter.interruptionQueueName).toBe("shared-interruptions");
      expect(resources(json, "aws_sqs_queue")).toEqual({});
      expect(resources(json, "aws_sqs_queue_policy")).toEqual({});
      expect(resources(json, "aws_cloudwatch_event_rule")).toEqual({});
      expect(values.settings.interruptionQueue).toBe("shared-interruptions");
      const statements = Object.values(resources(json, "aws_iam_policy")).flatMap(
        (p: any) => JSON.parse(p.policy).Statement,
      );
      expect(statements.find((st: any) => st.Sid === "AllowInterruptionQueueActions")).toMatchObject({ Resource: arn });
    });

    test("a KMS key gets kms:Decrypt", () => {
      const { json } = install({
        interruptionQueue: InterruptionQueueConfig.existing({
          existingQueueName: "shared-interruptions",
          existingQueueArn: arn,
          kmsKeyArn: "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
        }),
      });
      expect(JSON.stringify(Object.values(resources(json, "aws_iam_policy")).map((p: any) => p.policy))).toContain(
        "key/1234abcd-12ab-34cd-56ef-1234567890ab",
      );
    });

    test("the name and ARN are checked when literal and must name the same queue", () => {
      expect(() =>
        install({
          interruptionQueue: InterruptionQueueConfig.existing({ existingQueueName: "q", existingQueueArn: arn }),
        }),
      ).toThrow(
        /interruptionQueue\.existingQueueName = "q" is invalid: the name in existingQueueArn \("shared-interruptions"\)/,
      );
      expect(() =>
        install({
          interruptionQueue: InterruptionQueueConfig.existing({
            existingQueueName: "q",
            existingQueueArn: "https://sqs.us-east-1.amazonaws.com/123456789012/q",
          }),
        }),
      ).toThrow(/interruptionQueue\.existingQueueArn = .* is invalid: an SQS queue ARN/);
      expect(() =>
        install({
          interruptionQueue: InterruptionQueueConfig.existing({ existingQueueName: "my queue", existingQueueArn: arn }),
        }),
      ).toThrow(/interruptionQueue\.existingQueueName = "my queue" is invalid: an SQS standard queue name/);
      expect(() =>
        install({ interruptionQueue: InterruptionQueueConfig.existing({ existingQueueName: "q" } as never) }),
      ).toThrow(/interruptionQueue\.existingQueueArn = undefined is invalid/);
      expect(() =>
        install({
          interruptionQueue: InterruptionQueueConfig.existing({
            existingQueueName: "shared-interruptions",
            existingQueueArn: arn,
            queueName: "x",
          } as never),
        }),
      ).toThrow(/interruptionQueue\.queueName = "x" is invalid: not with an existing queue/);
    });

    test("a queue ARN known only at apply is passed through", () => {
      const { values, json } = install({}, (stack) => {
        const q = new SqsQueue(stack, "elsewhere", { name: "other" });
        return {
          interruptionQueue: InterruptionQueueConfig.existing({ existingQueueName: "other", existingQueueArn: q.arn }),
        };
      });
      expect(values.settings.interruptionQueue).toBe("other");
      expect(Object.keys(resources(json, "aws_sqs_queue"))).toEqual(["elsewhere"]);
    });
  });

  test("same props, byte-identical output", () => {
    const a = Testing.synth(install({ settings: { batchMaxDuration: "5s" } }).stack);
    const b = Testing.synth(install({ settings: { batchMaxDuration: "5s" } }).stack);
    expect(a).toBe(b);
  });

  test("the app synthesizes as a whole (validations included)", () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "karpenter-test-"));
    const app = new App({ outdir, skipValidation: false });
    const stack = new TerraformStack(app, "s");
    new AwsProvider(stack, "aws", { region: "us-east-1" });
    new HelmProvider(stack, "helm", { kubernetes: { configPath: "~/.kube/config" } });
    new Karpenter(stack, "karpenter", { cluster: testCluster(stack) });
    try {
      expect(() => app.synth()).not.toThrow();
      expect(fs.existsSync(path.join(outdir, "manifest.json"))).toBe(true);
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });
});

describe("Karpenter: values the install depends on", () => {
  /** The warnings on the Karpenter construct only (not the Pod Identity agent's, which every install here gets, nor the support-line warning of an old version, test/versions/support.test.ts). */
  const own = (stack: TerraformStack) =>
    warnings(stack).filter(
      (w) =>
        !/eks-pod-identity-agent/.test(w) && !/sets no Kubernetes version/.test(w) && !/gets no more fixes/.test(w),
    );

  test("values.controller.image.tag other than version warns on the Karpenter: the IAM policy, CRDs and settings follow version", () => {
    const { stack, karpenter } = install({ version: "1.4.4", values: { controller: { image: { tag: "1.14.1" } } } });
    expect(own(stack)).toEqual([
      'values.controller.image.tag = "1.14.1" overrides the controller image of version = "1.4.4", while the IAM policy, CRDs and settings follow version (1.4.4); it does not even change the image: the chart keeps its controller.image.digest of 1.4.4, and the image is pulled by that digest (with the digest changed or removed, the controller would run 1.14.1). Set version instead (the chart pins the image of its own version) and leave values.controller.image.tag and digest unset',
    ]);
    // on the Karpenter itself, where values and version are set
    expect(karpenter.node.metadata.map((m) => String(m.data))).toContain(own(stack)[0]);
  });

  test("a digest of values replaces the image; the tag of version itself, or only a mirror repository, does not warn", () => {
    expect(own(install({ values: { controller: { image: { digest: `sha256:${"a".repeat(64)}` } } } }).stack)).toEqual([
      `values.controller.image.digest = "sha256:${"a".repeat(64)}" overrides the controller image of version = "1.15.3", while the IAM policy, CRDs and settings follow version (1.15.3); the controller runs the image of that digest. Set version instead (the chart pins the image of its own version) and leave values.controller.image.tag and digest unset`,
    ]);
    expect(
      own(
        install({
          values: { controller: { image: { tag: "1.15.3", repository: "mirror.example.com/karpenter/controller" } } },
        }).stack,
      ),
    ).toEqual([]);
  });

  test("an empty digest is none (the chart tests `if .digest`): alone no warning; with another tag, that tag runs", () => {
    expect(own(install({ values: { controller: { image: { digest: "" } } } }).stack)).toEqual([]);
    expect(own(install({ values: { controller: { image: { digest: "", tag: "" } } } }).stack)).toEqual([]);
    expect(own(install({ values: { controller: { image: { digest: "", tag: "1.13.1" } } } }).stack)).toEqual([
      'values.controller.image.tag = "1.13.1" overrides the controller image of version = "1.15.3", while the IAM policy, CRDs and settings follow version (1.15.3); with values.controller.image.digest = "" the image has no digest, so the controller runs 1.13.1. Set version instead (the chart pins the image of its own version) and leave values.controller.image.tag and digest unset',
    ]);
  });

  test("values.serviceAccount.create false: the ServiceAccount must exist outside the app (Pod Identity binds its name; IRSA needs its annotation)", () => {
    expect(own(install({ values: { serviceAccount: { create: false } } }).stack)).toEqual([
      "values.serviceAccount.create = false: the chart creates no ServiceAccount, so kube-system/karpenter must exist before the controller pods start (created outside this app), or the API server rejects them and the release times out; the controller's IAM role is bound to that name (EKS Pod Identity association)",
    ]);
    const irsa = own(
      install({
        identity: { type: "irsa", oidcProviderArn: "arn:aws:iam::123456789012:oidc-provider/x" },
        values: { serviceAccount: { create: false } },
      }).stack,
    );
    expect(irsa).toEqual([
      expect.stringMatching(
        /^values\.serviceAccount\.create = false: .*; with IRSA it must also carry the annotation eks\.amazonaws\.com\/role-arn of the controller role, which the chart now does not write$/,
      ),
    ]);
    expect(own(install({ values: { serviceAccount: { create: true } } }).stack)).toEqual([]);
  });

  test("values.logLevel and values.nodeSelector are checked with the other props, on the Karpenter", () => {
    const error = thrown(() =>
      install({ replicas: 0, values: { logLevel: "verbose", nodeSelector: { "node-role": "-system" } } }),
    ) as KarpenterValidationError;
    expect(error.problems.map((p) => p.message)).toEqual([
      "test/karpenter: replicas = 0 is invalid: a whole number of controller pods, at least 1 (2 for high availability) [HELM_VALUES_REPLICAS]",
      "test/karpenter: values.nodeSelector[\"node-role\"] = \"-system\" is invalid: a Kubernetes label value (a string): empty, or at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit [HELM_VALUES_LABEL_VALUE]",
      'test/karpenter: values.logLevel = "verbose" is invalid: a log level the Karpenter 1.15.3 controller accepts in LOG_LEVEL: "debug", "info" (the chart\'s default) or "error", lower case (kubernetes-sigs/karpenter pkg/operator/options/options.go validLogLevels); on anything else it panics at start with invalid LOG_LEVEL [HELM_VALUES_LOG_LEVEL]',
    ]);
  });

  test("values.logLevel on the Karpenter: DEBUG and warn refused from 1.14 (did you mean debug), debug/info/error/unset pass", () => {
    const upper = thrown(() => install({ values: { logLevel: "DEBUG" } })) as KarpenterValidationError;
    expect([upper.code, upper.field, upper.value]).toEqual(["HELM_VALUES_LOG_LEVEL", "values.logLevel", "DEBUG"]);
    expect(upper.message).toContain('did you mean "debug"?');
    expect((thrown(() => install({ values: { logLevel: "warn" } })) as KarpenterValidationError).code).toBe(
      "HELM_VALUES_LOG_LEVEL",
    );
    const env = thrown(() =>
      install({ values: { controller: { env: [{ name: "LOG_LEVEL", value: "warn" }] } } }),
    ) as KarpenterValidationError;
    expect(env.field).toBe("values.controller.env[0].value");
    for (const level of ["debug", "info", "error"])
      expect(install({ values: { logLevel: level } }).values.logLevel).toBe(level);
    expect(install().values.logLevel).toBeUndefined(); // unset: the chart's own "info"
    // before 1.14 the library has not read the controller's source: the earlier check stays
    expect(install({ version: "1.13.1", values: { logLevel: "warn" } }).values.logLevel).toBe("warn");
  });

  test("a KarpenterRelease of its own on the cluster of a Karpenter is a second install: both fail synth, each naming the other", () => {
    const { stack } = helmStack();
    const cluster = testCluster(stack, "demo");
    new Karpenter(stack, "karpenter", { cluster });
    new KarpenterRelease(stack, "controller", { cluster, releaseName: "second" });
    const error = thrown(() => Testing.synth(stack, true)) as KarpenterValidationError;
    expect(error.problems.map((p) => p.message)).toEqual([
      'test/karpenter: cluster = "demo" is invalid: one Karpenter per cluster: test/controller also installs Karpenter on cluster demo. The CRDs are cluster-scoped (a different namespace does not help), and two controllers would act on the same NodePools and NodeClaims; keep one install [CLUSTER_SECOND_INSTALL]',
      'test/controller: cluster = "demo" is invalid: one Karpenter per cluster: test/karpenter also installs Karpenter on cluster demo. The CRDs are cluster-scoped (a different namespace does not help), and two controllers would act on the same NodePools and NodeClaims; keep one install [CLUSTER_SECOND_INSTALL]',
    ]);
  });
});
