import { TerraformStack, Testing } from "cdktf";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { IamOpenidConnectProvider } from "@cdktf/provider-aws/lib/iam-openid-connect-provider";
import { KarpenterControllerRole, KarpenterControllerRoleProps } from "../../lib/aws/karpenter-controller-role";
import { KarpenterNodeRole } from "../../lib/aws/karpenter-node-role";
import { InterruptionQueue } from "../../lib/aws/interruption-queue";
import { InterruptionQueueKmsKey } from "../../lib/aws/interruption-queue-kms-key";
import { IKarpenterCluster, KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { KarpenterValidationError } from "../../lib/core/errors";
import { onlyResource, resources, synthJson, testCluster, testStack, thrown } from "../helpers";

interface Setup {
  stack: TerraformStack;
  cluster: IKarpenterCluster;
  nodeRole: KarpenterNodeRole;
  queue: InterruptionQueue;
}

function setup(clusterName = "demo"): Setup {
  const { stack } = testStack();
  const cluster = testCluster(stack, clusterName);
  const nodeRole = new KarpenterNodeRole(stack, "node-role", { cluster });
  const queue = new InterruptionQueue(stack, "queue", { cluster });
  return { stack, cluster, nodeRole, queue };
}

function controller(props: Partial<KarpenterControllerRoleProps> = {}, s: Setup = setup()) {
  const role = new KarpenterControllerRole(s.stack, "controller", {
    cluster: s.cluster,
    nodeRole: s.nodeRole,
    interruptionQueue: s.queue,
    ...props,
  });
  return { role, json: synthJson(s.stack), ...s };
}

/** The controller's managed policies: { name: parsed document }. */
function policies(json: any): Record<string, any> {
  const out: Record<string, any> = {};
  for (const p of Object.values(resources(json, "aws_iam_policy")) as any[]) out[p.name] = JSON.parse(p.policy);
  return out;
}

const statementsBySid = (json: any) =>
  Object.fromEntries(Object.values(policies(json)).flatMap((d: any) => d.Statement.map((s: any) => [s.Sid, s])));
/** Warnings recorded on the construct tree after running the validations. */
function warnings(stack: TerraformStack): string[] {
  Testing.synth(stack, true);
  return stack.node
    .findAll()
    .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)));
}

const trustOf = (json: any) =>
  JSON.parse(resources(json, "aws_iam_role")[key(json, "aws_iam_role", "controller")].assume_role_policy);
const key = (json: any, type: string, prefix: string) =>
  Object.keys(resources(json, type)).find((k) => k.startsWith(prefix))!;

describe("KarpenterControllerRole", () => {
  test("Pod Identity (default): trust pods.eks.amazonaws.com with AssumeRole + TagSession for this cluster, namespace and service account, and the association", () => {
    const { json, role } = controller();
    const iamRole = resources(json, "aws_iam_role")[key(json, "aws_iam_role", "controller")];
    expect(iamRole.name).toBe("KarpenterControllerRole-${aws_eks_cluster.cluster.name}");
    expect(JSON.parse(iamRole.assume_role_policy).Statement).toEqual([
      {
        Effect: "Allow",
        Principal: { Service: "pods.eks.amazonaws.com" },
        Action: ["sts:AssumeRole", "sts:TagSession"],
        // the session tags EKS Pod Identity adds: no other association may use the role
        Condition: {
          StringEquals: {
            "aws:RequestTag/eks-cluster-arn": "${aws_eks_cluster.cluster.arn}",
            "aws:RequestTag/kubernetes-namespace": "kube-system",
            "aws:RequestTag/kubernetes-service-account": "karpenter",
          },
        },
      },
    ]);
    const assoc = onlyResource(json, "aws_eks_pod_identity_association");
    expect(assoc).toMatchObject({
      cluster_name: "${aws_eks_cluster.cluster.name}",
      namespace: "kube-system",
      service_account: "karpenter",
    });
    expect(assoc.role_arn).toBe(`\${aws_iam_role.${key(json, "aws_iam_role", "controller")}.arn}`);
    expect(role.identityType).toBe("podIdentity");
    expect(role.podIdentityAssociation).toBe(role.node.findChild("pod-identity"));
  });

  test("1.14: six managed policies with upstream names, each attached to the role", () => {
    const { json, role } = controller({ version: "1.14.1" });
    expect(Object.keys(policies(json)).sort()).toEqual(
      ["NodeLifecycle", "IAMIntegration", "EKSIntegration", "Interruption", "ZonalShift", "ResourceDiscovery"]
        .map((g) => `KarpenterController${g}Policy-\${aws_eks_cluster.cluster.name}`)
        .sort(),
    );
    const roleRef = `\${aws_iam_role.${key(json, "aws_iam_role", "controller")}.name}`;
    const attached = (Object.values(resources(json, "aws_iam_role_policy_attachment")) as any[])
      .filter((a) => a.role === roleRef)
      .map((a) => a.policy_arn);
    const policyArns = Object.keys(resources(json, "aws_iam_policy")).map((k) => `\${aws_iam_policy.${k}.arn}`);
    expect(attached.sort()).toEqual(policyArns.sort());
    expect(role.policies).toHaveLength(6);
    expect(Object.keys(statementsBySid(json))).toHaveLength(18);
  });

  test("1.0: same five-policy layout, 16 statements", () => {
    const { json } = controller({ version: "1.0.14" });
    expect(Object.keys(policies(json))).toHaveLength(5);
    expect(Object.keys(statementsBySid(json))).toHaveLength(16);
    expect(statementsBySid(json).AllowRegionalReadActions.Action).toContain("ec2:DescribeAvailabilityZones");
  });

  test("statements take the cluster, node role and queue from the graph and the partition from a data source", () => {
    const { json } = controller();
    const st = statementsBySid(json);
    expect(st.AllowPassingInstanceRole.Resource).toBe(`\${aws_iam_role.${key(json, "aws_iam_role", "node-role")}.arn}`);
    expect(st.AllowInterruptionQueueActions.Resource).toBe(
      `\${aws_sqs_queue.${key(json, "aws_sqs_queue", "queue")}.arn}`,
    );
    expect(st.AllowAPIServerEndpointDiscovery.Resource).toBe("${aws_eks_cluster.cluster.arn}");
    expect(st.AllowScopedEC2LaunchTemplateAccessActions.Condition.StringEquals).toEqual({
      "aws:ResourceTag/kubernetes.io/cluster/${aws_eks_cluster.cluster.name}": "owned",
    });
    expect(st.AllowSSMReadActions.Resource).toMatch(
      /^arn:\$\{data\.aws_partition\.[^.]+\.partition\}:ssm:\$\{data\.aws_region\.[^.]+\.region\}::parameter\/aws\/service\/\*$/,
    );
    // partition-aware: no hard-coded "arn:aws:" anywhere
    for (const p of Object.values(resources(json, "aws_iam_policy")) as any[])
      expect(p.policy).not.toContain('"arn:aws:');
  });

  test("dependables: the association and every policy attachment of the role", () => {
    const { role, json } = controller();
    expect(role.dependables[0]).toBe(role.podIdentityAssociation);
    expect(role.dependables).toHaveLength(1 + role.policies.length);
    const attachments = (Object.values(resources(json, "aws_iam_role_policy_attachment")) as any[]).filter((a) =>
      a.role.includes("controller"),
    );
    expect(attachments).toHaveLength(role.policies.length);
  });

  test("IRSA: federated trust on the cluster's OIDC provider for exactly the service account; no association", () => {
    const { json, role } = controller({
      identity: { type: "irsa" },
      namespace: "karpenter",
      serviceAccountName: "karpenter-controller",
    });
    expect(resources(json, "aws_eks_pod_identity_association")).toEqual({});
    expect(role.identityType).toBe("irsa");
    expect(role.dependables).toHaveLength(role.policies.length);
    const [localName, localValue] = Object.entries(json.locals)[0] as [string, string];
    expect(localValue).toBe('${replace(aws_eks_cluster.cluster.identity[0].oidc[0].issuer, "https://", "")}');
    const host = `\${local.${localName}}`;
    const trust = JSON.parse(
      resources(json, "aws_iam_role")[key(json, "aws_iam_role", "controller")].assume_role_policy,
    );
    expect(trust.Statement).toHaveLength(1);
    const st = trust.Statement[0];
    expect(st.Action).toBe("sts:AssumeRoleWithWebIdentity");
    expect(st.Principal.Federated).toMatch(
      new RegExp(
        `^arn:\\$\\{data\\.aws_partition\\.[^.]+\\.partition\\}:iam::\\$\\{data\\.aws_caller_identity\\.[^.]+\\.account_id\\}:oidc-provider/\\$\\{local\\.${localName}\\}$`,
      ),
    );
    expect(st.Condition).toEqual({
      StringEquals: {
        [`${host}:sub`]: "system:serviceaccount:karpenter:karpenter-controller",
        [`${host}:aud`]: "sts.amazonaws.com",
      },
    });
  });

  test("IRSA with a given OIDC provider ARN", () => {
    const arn = "arn:aws:iam::123456789012:oidc-provider/oidc.eks.eu-west-1.amazonaws.com/id/ABC";
    const { json } = controller({ identity: { type: "irsa", oidcProviderArn: arn } });
    const trust = JSON.parse(
      resources(json, "aws_iam_role")[key(json, "aws_iam_role", "controller")].assume_role_policy,
    );
    expect(trust.Statement[0].Principal).toEqual({ Federated: arn });
    expect(() =>
      controller({ identity: { type: "irsa", oidcProviderArn: "oidc.eks.eu-west-1.amazonaws.com/id/ABC" } }),
    ).toThrow(/identity\.oidcProviderArn = .* is invalid: an IAM OIDC provider ARN/);
  });

  test("an unknown identity type is an error", () => {
    expect(() => controller({ identity: { type: "static-keys" } as any })).toThrow(
      /test\/controller: identity\.type = "static-keys" is invalid: "podIdentity" or "irsa"/,
    );
  });

  test("a KMS-encrypted queue gives the controller kms:Decrypt on the key", () => {
    const s = setup();
    const { json } = controller(
      {
        interruptionQueue: {
          queueArn: s.queue.queueArn,
          kmsKeyArn: "arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
        },
      },
      s,
    );
    expect(statementsBySid(json).AllowInterruptionQueueDecryption).toEqual({
      Sid: "AllowInterruptionQueueDecryption",
      Effect: "Allow",
      Resource: "arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
      Action: "kms:Decrypt",
    });
  });

  test("without a queue there is no Interruption policy", () => {
    const { json } = controller({ interruptionQueue: undefined });
    expect(Object.keys(policies(json)).some((n) => n.includes("Interruption"))).toBe(false);
    expect(statementsBySid(json).AllowInterruptionQueueActions).toBeUndefined();
  });

  test("additional statements get their own policy; additional ARNs are attached", () => {
    const { json, role } = controller({
      additionalStatements: [
        {
          sid: "DescribeVpcs",
          actions: ["ec2:DescribeVpcs"],
          resources: ["*"],
          conditions: [{ test: "StringEquals", variable: "aws:RequestedRegion", values: ["eu-west-1"] }],
        },
      ],
      additionalPolicyArns: ["arn:aws:iam::123456789012:policy/extra"],
    });
    expect(policies(json)["KarpenterControllerAdditionalPolicy-${aws_eks_cluster.cluster.name}"].Statement).toEqual([
      {
        Sid: "DescribeVpcs",
        Effect: "Allow",
        Resource: ["*"],
        Action: ["ec2:DescribeVpcs"],
        Condition: { StringEquals: { "aws:RequestedRegion": ["eu-west-1"] } },
      },
    ]);
    expect(
      (Object.values(resources(json, "aws_iam_role_policy_attachment")) as any[]).map((a) => a.policy_arn),
    ).toContain("arn:aws:iam::123456789012:policy/extra");
    expect(role.policies).toHaveLength(7);
  });

  test("additional statements may not reuse an official Sid or overflow a policy", () => {
    expect(() =>
      controller({ additionalStatements: [{ sid: "AllowScopedDeletion", actions: ["ec2:X"], resources: ["*"] }] }),
    ).toThrow(/additionalStatements\[0\]\.sid = "AllowScopedDeletion" is invalid/);
    const huge = Array.from({ length: 200 }, (_, i) => ({
      actions: [`ec2:Describe${"X".repeat(20)}${i}`],
      resources: ["*"],
    }));
    expect(() => controller({ additionalStatements: huge })).toThrow(
      /additionalStatements = .* is invalid: at most 6144 characters/,
    );
  });

  test("namespace and service account names are Kubernetes names", () => {
    expect(() => controller({ namespace: "Kube_System" })).toThrow(/namespace = "Kube_System" is invalid/);
    expect(() => controller({ serviceAccountName: "-karpenter" })).toThrow(
      /serviceAccountName = "-karpenter" is invalid/,
    );
  });

  test("names: a too-long default asks for roleName / policyNameSuffix", () => {
    const long41 = setup("c".repeat(41));
    expect(() => controller({}, long41)).toThrow(/roleName = .* has 65: set roleName/);
    const { stack } = testStack();
    const cluster = testCluster(stack, "c".repeat(86));
    const nodeRole = new KarpenterNodeRole(stack, "node-role", { cluster, roleName: "nodes" });
    let n = 0;
    const make = (policyNameSuffix?: string) =>
      new KarpenterControllerRole(stack, `controller-${n++}`, {
        cluster,
        nodeRole,
        roleName: "ctrl",
        policyNameSuffix,
      });
    expect(() => make()).toThrow(KarpenterValidationError);
    expect(() => make()).toThrow(
      /policyNameSuffix = "KarpenterControllerResourceDiscoveryPolicy-c{86}" is invalid: .* has 129: set policyNameSuffix/,
    );
    expect(() => make("short")).not.toThrow();
  });

  test("100-character cluster name in aws-us-gov: every managed policy stays within 6,144 characters", () => {
    const { stack } = testStack();
    const cluster = KarpenterCluster.fromClusterName(stack, "existing", "c".repeat(100));
    const nodeRole = new KarpenterNodeRole(stack, "node-role", { cluster, roleName: "nodes", version: "1.8.8" });
    const queue = new InterruptionQueue(stack, "queue", {
      cluster,
      queueName: "interruptions",
      version: "1.8.8",
      kmsKey: InterruptionQueueKmsKey.create(),
    });
    const role = new KarpenterControllerRole(stack, "controller", {
      cluster,
      nodeRole,
      interruptionQueue: queue,
      roleName: "ctrl",
      policyNameSuffix: "long",
      version: "1.8.8",
    });
    expect(role.policies).toHaveLength(5);
    const worst: [RegExp, string][] = [
      [/\$\{data\.aws_partition\.[^}]+\.partition\}/g, "aws-us-gov"],
      [/\$\{data\.aws_region\.[^}]+\.region\}/g, "ap-southeast-3"],
      [/\$\{data\.aws_caller_identity\.[^}]+\.account_id\}/g, "123456789012"],
      [
        /\$\{data\.aws_eks_cluster\.existing\.arn\}/g,
        `arn:aws-us-gov:eks:ap-southeast-3:123456789012:cluster/${"c".repeat(100)}`,
      ],
      [/\$\{aws_sqs_queue\.[^}]+\.arn\}/g, "arn:aws-us-gov:sqs:us-gov-west-1:123456789012:" + "q".repeat(80)],
      [/\$\{aws_iam_role\.[^}]+\.arn\}/g, "arn:aws-us-gov:iam::123456789012:role/" + "r".repeat(64)],
      [/\$\{aws_kms_key\.[^}]+\.arn\}/g, "arn:aws-us-gov:kms:us-gov-west-1:123456789012:key/" + "k".repeat(36)],
    ];
    const json = synthJson(stack);
    for (const p of Object.values(resources(json, "aws_iam_policy")) as any[]) {
      let doc: string = p.policy;
      for (const [re, value] of worst) doc = doc.replace(re, value);
      expect(doc).not.toContain("${"); // every reference was accounted for
      expect(doc.replace(/\s/g, "").length).toBeLessThanOrEqual(6144);
    }
    expect(policies(json)["KarpenterControllerNodeLifecyclePolicy-long"].Statement[1].Condition.StringEquals).toEqual({
      [`aws:ResourceTag/kubernetes.io/cluster/${"c".repeat(100)}`]: "owned",
    });
  });

  test("unknown version is an error listing the supported ones", () => {
    expect(() => controller({ version: "1.16.2" })).toThrow(
      /test\/controller: version = "1\.16\.2" is invalid: .*supported minor: 1\.0, .*1\.15/,
    );
  });
  describe("IRSA and the cluster's IAM OIDC provider", () => {
    const eksOf = (s: Setup) => s.cluster.eksCluster!;
    const oidc = (s: Setup, id = "oidc", url = eksOf(s).identity.get(0).oidc.get(0).issuer) =>
      new IamOpenidConnectProvider(s.stack, id, { url, clientIdList: ["sts.amazonaws.com"] });

    test("a provider for the cluster's issuer declared AFTER the role is found: the trust names its arn", () => {
      const s = setup();
      new KarpenterControllerRole(s.stack, "controller", {
        cluster: s.cluster,
        nodeRole: s.nodeRole,
        identity: { type: "irsa" },
      });
      oidc(s);
      const json = synthJson(s.stack);
      expect(trustOf(json).Statement[0].Principal).toEqual({
        Federated: "${aws_iam_openid_connect_provider.oidc.arn}",
      });
      expect(warnings(s.stack)).toEqual([]);
    });

    test("a provider declared before, with the IKarpenterCluster's issuer string, is found too", () => {
      const s = setup();
      oidc(s, "provider", s.cluster.oidcIssuerUrl);
      const { json } = controller({ identity: { type: "irsa" }, interruptionQueue: undefined }, s);
      expect(trustOf(json).Statement[0].Principal).toEqual({
        Federated: "${aws_iam_openid_connect_provider.provider.arn}",
      });
    });

    test("a provider for another cluster's issuer does not count: derived ARN and a warning naming the fix", () => {
      const s = setup();
      const other = testCluster(s.stack, "other", "other-cluster").eksCluster!;
      oidc(s, "other-oidc", other.identity.get(0).oidc.get(0).issuer);
      new IamOpenidConnectProvider(s.stack, "literal-oidc", {
        url: "https://oidc.eks.us-east-1.amazonaws.com/id/ABC",
        clientIdList: ["sts.amazonaws.com"],
      });
      const { json } = controller({ identity: { type: "irsa" } }, s);
      expect(trustOf(json).Statement[0].Principal.Federated).toMatch(
        /^arn:\$\{data\.aws_partition\.[^}]+\}:iam::\$\{data\.aws_caller_identity\.[^}]+\}:oidc-provider\/\$\{local\.[^}]+\}$/,
      );
      expect(warnings(s.stack)).toEqual([
        expect.stringMatching(
          /^IRSA needs the IAM OIDC provider of cluster demo, and nothing in this app creates it: add an aws_iam_openid_connect_provider .*clientIdList: \["sts\.amazonaws\.com"\].*or pass identity\.oidcProviderArn/,
        ),
      ]);
    });

    test("no warning with a given oidcProviderArn or with Pod Identity", () => {
      expect(
        warnings(
          controller({
            identity: {
              type: "irsa",
              oidcProviderArn: "arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/ABC",
            },
          }).stack,
        ),
      ).toEqual([]);
      expect(warnings(controller().stack)).toEqual([]);
    });

    test("a cluster read with a data source: the warning says the provider must exist (the app cannot tell), once", () => {
      const { stack } = testStack();
      const cluster = KarpenterCluster.fromClusterName(stack, "existing", "prod");
      const nodeRole = new KarpenterNodeRole(stack, "node-role", { cluster });
      new KarpenterControllerRole(stack, "controller", { cluster, nodeRole, identity: { type: "irsa" } });
      Testing.synth(stack, true);
      expect(warnings(stack)).toEqual([
        'IRSA needs the IAM OIDC provider of cluster prod, which is not created by this app (read with a data source), and nothing in this app creates the provider: make sure it exists in the account (EKS user guide, "Create an IAM OIDC provider for your cluster"; e.g. eksctl utils associate-iam-oidc-provider --cluster <name> --approve), or add an IamOpenidConnectProvider for the cluster\'s issuer, or pass identity.oidcProviderArn. The role trusts the provider ARN derived from the issuer; without that provider the controller cannot assume it.',
      ]);
      const given = testStack();
      const existing = KarpenterCluster.fromClusterName(given.stack, "existing", "prod");
      new KarpenterControllerRole(given.stack, "controller", {
        cluster: existing,
        nodeRole: new KarpenterNodeRole(given.stack, "node-role", { cluster: existing }),
        identity: {
          type: "irsa",
          oidcProviderArn: "arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/ABC",
        },
      });
      expect(warnings(given.stack)).toEqual([]);
    });

    test("a token cluster name is not printed as a token in the warning", () => {
      const { stack } = testStack();
      const data = KarpenterCluster.fromClusterName(stack, "seed", "seed");
      const eks = new EksCluster(stack, "eks", {
        name: data.eksClusterData!.name,
        roleArn: "arn:aws:iam::123456789012:role/cluster",
        vpcConfig: { subnetIds: ["subnet-00000001"] },
      });
      const cluster = KarpenterCluster.fromEksCluster(eks);
      const nodeRole = new KarpenterNodeRole(stack, "node-role", { cluster, roleName: "nodes" });
      new KarpenterControllerRole(stack, "controller", {
        cluster,
        nodeRole,
        roleName: "ctrl",
        policyNameSuffix: "x",
        identity: { type: "irsa" },
      });
      const [warning] = warnings(stack);
      expect(warning).toMatch(/^IRSA needs the IAM OIDC provider of the cluster \(test\/eks\)/);
      expect(warning).not.toMatch(/TfToken/);
    });
  });

  describe("required props, ARNs, actions and tags", () => {
    test("a missing cluster or node role is a validation error, not a TypeError", () => {
      const s = setup();
      const noCluster = thrown(() => new KarpenterControllerRole(s.stack, "c1", { nodeRole: s.nodeRole } as any));
      expect(noCluster).toBeInstanceOf(KarpenterValidationError);
      expect(noCluster.message).toBe(
        "test/c1: cluster = undefined is invalid: cluster is required: an IKarpenterCluster from KarpenterCluster.fromEksCluster(...) or .fromClusterName(...) [CLUSTER_REQUIRED]",
      );
      expect(thrown(() => new KarpenterControllerRole(s.stack, "c2", { cluster: s.cluster } as any)).message).toMatch(
        /^test\/c2: nodeRole = undefined is invalid: nodeRole is required/,
      );
      const eks = s.cluster.eksCluster!;
      expect(
        thrown(() => new KarpenterControllerRole(s.stack, "c3", { cluster: eks as any, nodeRole: s.nodeRole })).message,
      ).toMatch(
        /^test\/c3: cluster = "test\/cluster" is invalid: cluster is required: .*pass KarpenterCluster\.fromEksCluster\(cluster\)/,
      );
    });

    test.each([
      [
        "DescribeVpcs",
        /additionalStatements\[0\]\.actions\[1\] = "DescribeVpcs" is invalid: "\*" or "<service>:<action>"/,
      ],
      ["ec2 DescribeVpcs", /additionalStatements\[0\]\.actions\[1\] = "ec2 DescribeVpcs" is invalid/],
      ["ec2:", /additionalStatements\[0\]\.actions\[1\] = "ec2:" is invalid/],
      ["ec2:Describe:Vpcs", /additionalStatements\[0\]\.actions\[1\] = "ec2:Describe:Vpcs" is invalid/],
    ])("additional statement action %j is rejected", (action, message) => {
      const error = thrown(() =>
        controller({ additionalStatements: [{ actions: ["ec2:DescribeVpcs", action], resources: ["*"] }] }),
      );
      expect(error).toBeInstanceOf(KarpenterValidationError);
      expect(error.message).toMatch(new RegExp(`^test/controller: ${message.source}`));
    });

    test("wildcard actions and ARN resources are accepted; empty actions or resources, and non-ARN resources, are not", () => {
      const { json } = controller({
        additionalStatements: [
          { sid: "Reads", actions: ["ec2:Describe*", "s3:Get?bject", "*"], resources: ["arn:aws:s3:::bucket/*", "*"] },
        ],
      });
      expect(
        policies(json)["KarpenterControllerAdditionalPolicy-${aws_eks_cluster.cluster.name}"].Statement[0].Action,
      ).toEqual(["ec2:Describe*", "s3:Get?bject", "*"]);
      expect(() => controller({ additionalStatements: [{ actions: [], resources: ["*"] }] })).toThrow(
        /additionalStatements\[0\]\.actions = \[\] is invalid: at least one IAM action/,
      );
      expect(() => controller({ additionalStatements: [{ actions: ["ec2:X"], resources: [] }] })).toThrow(
        /additionalStatements\[0\]\.resources = \[\] is invalid: at least one resource/,
      );
      expect(() => controller({ additionalStatements: [{ actions: ["ec2:X"], resources: ["my-bucket"] }] })).toThrow(
        /additionalStatements\[0\]\.resources\[0\] = "my-bucket" is invalid: "\*" or an ARN/,
      );
    });

    test("additional statements and conditions that are not lists are validation errors, not TypeErrors (JavaScript callers)", () => {
      const notList = thrown(() =>
        controller({ additionalStatements: { actions: ["ec2:X"], resources: ["*"] } as any }),
      );
      expect(notList).toBeInstanceOf(KarpenterValidationError);
      expect(notList.message).toBe(
        'test/controller: additionalStatements = {"actions":["ec2:X"],"resources":["*"]} is invalid: a list of IAM statements { sid?, effect?, actions, resources, conditions? } [CONTROLLER_ROLE_STATEMENT]',
      );
      const conditions = { test: "StringEquals", variable: "aws:RequestedRegion", values: ["eu-west-1"] };
      const notListConditions = thrown(() =>
        controller({ additionalStatements: [{ actions: ["ec2:X"], resources: ["*"], conditions: conditions as any }] }),
      );
      expect(notListConditions).toBeInstanceOf(KarpenterValidationError);
      expect(notListConditions.message).toMatch(
        /^test\/controller: additionalStatements\[0\]\.conditions = \{"test":"StringEquals",.* is invalid: a list of conditions \{ test, variable, values \} \[CONTROLLER_ROLE_CONDITION\]$/,
      );
      expect(thrown(() => controller({ additionalStatements: [null as any] })).message).toMatch(
        /^test\/controller: additionalStatements\[0\] = null is invalid: an IAM statement/,
      );
      expect(
        thrown(() =>
          controller({
            additionalStatements: [
              { actions: ["ec2:X"], resources: ["*"], conditions: [{ test: "StringEquals" } as any] },
            ],
          }),
        ).message,
      ).toMatch(
        /^test\/controller: additionalStatements\[0\]\.conditions\[0\] = \{"test":"StringEquals"\} is invalid: a condition \{ test, variable, values \}/,
      );
    });

    test("conditions with the same test share one operator block; an empty list adds no Condition", () => {
      const { json } = controller({
        additionalStatements: [
          {
            sid: "Two",
            actions: ["ec2:X"],
            resources: ["*"],
            conditions: [
              { test: "StringEquals", variable: "aws:RequestedRegion", values: ["eu-west-1"] },
              { test: "StringEquals", variable: "aws:PrincipalTag/team", values: ["a", "b"] },
            ],
          },
          { sid: "None", actions: ["ec2:Y"], resources: ["*"], conditions: [] },
        ],
      });
      const [two, none] =
        policies(json)["KarpenterControllerAdditionalPolicy-${aws_eks_cluster.cluster.name}"].Statement;
      expect(two.Condition).toEqual({
        StringEquals: { "aws:RequestedRegion": ["eu-west-1"], "aws:PrincipalTag/team": ["a", "b"] },
      });
      expect(none).toEqual({ Sid: "None", Effect: "Allow", Resource: ["*"], Action: ["ec2:Y"] });
    });

    test("additionalPolicyArns must be managed policy ARNs", () => {
      expect(() => controller({ additionalPolicyArns: ["arn:aws:iam::123456789012:role/extra"] })).toThrow(
        /^test\/controller: additionalPolicyArns\[0\] = .* is invalid: an IAM managed policy ARN/,
      );
      expect(() => controller({ additionalPolicyArns: ["extra"] })).toThrow(KarpenterValidationError);
    });

    test("tags follow the AWS rules", () => {
      expect(() => controller({ tags: { "aws:cloudformation:stack-name": "x" } })).toThrow(
        /^test\/controller: tags\["aws:cloudformation:stack-name"\] = "x" is invalid: the key "aws:cloudformation:stack-name" is reserved: tag keys starting with "aws:"/,
      );
      const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"]));
      expect(() => controller({ tags: many })).toThrow(
        /^test\/controller: tags = "51 tags" is invalid: at most 50 tags/,
      );
    });
  });

  test("two controller roles of one account with the same policy names clash at synth on policyNameSuffix, naming the policies", () => {
    const s = setup();
    new KarpenterControllerRole(s.stack, "first", { cluster: s.cluster, nodeRole: s.nodeRole });
    new KarpenterControllerRole(s.stack, "second", {
      cluster: s.cluster,
      nodeRole: s.nodeRole,
      roleName: "other-controller",
    });
    const error = thrown(() => Testing.synth(s.stack, true));
    expect(error.message).toMatch(
      /test\/second: policyNameSuffix = "demo" is invalid: an IAM name no other construct of this app creates in the same AWS account: test\/first \(policyNameSuffix\) also creates IAM managed policy "KarpenterControllerNodeLifecyclePolicy-demo", .*set policyNameSuffix \(or the other's\) to a name unique in the account/,
    );
    expect(error.message).not.toMatch(/test\/second: roleName/);
    const fixed = setup();
    new KarpenterControllerRole(fixed.stack, "first", { cluster: fixed.cluster, nodeRole: fixed.nodeRole });
    new KarpenterControllerRole(fixed.stack, "second", {
      cluster: fixed.cluster,
      nodeRole: fixed.nodeRole,
      roleName: "other-controller",
      policyNameSuffix: "other",
    });
    expect(() => Testing.synth(fixed.stack, true)).not.toThrow();
  });
});
