import { TerraformStack, TerraformVariable, Testing } from "cdktf";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { SpotServiceLinkedRole } from "../../lib/aws/spot-service-linked-role";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterControllerRole, KarpenterControllerRoleProps } from "../../lib/aws/karpenter-controller-role";
import { KarpenterNodeRole, KarpenterNodeRoleProps } from "../../lib/aws/karpenter-node-role";
import { InterruptionQueue, InterruptionQueueProps } from "../../lib/aws/interruption-queue";
import { InterruptionQueueKmsKey } from "../../lib/aws/interruption-queue-kms-key";
import { InterruptionQueueConfig } from "../../lib/aws/karpenter-options";
import { IKarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { KarpenterRelease } from "../../lib/helm/karpenter-release";
import { isConditionOperator } from "../../lib/aws/controller-role-checks";
import { rejected, synthJson, testCluster, testStack } from "../helpers";
import { KarpenterProps } from "../../lib/install/karpenter-props";

/*
 * The IAM and SQS building blocks (controller role, node role, interruption queue, and the same
 * options given to Karpenter) as a fresh user meets them: a constructor that throws leaves nothing
 * behind, every problem of one object comes at once, literal ARNs and IAM conditions are checked,
 * and name messages say what is wrong (empty, too long, which characters) with the value as set.
 */

const NODE_ROLE = { roleArn: "arn:aws:iam::123456789012:role/n" };

function setup(): { stack: TerraformStack; cluster: IKarpenterCluster } {
  const { stack } = testStack("eks");
  new HelmProvider(stack, "helm", { kubernetes: { configPath: "~/.kube/config" } });
  return { stack, cluster: testCluster(stack, "demo") };
}

/** The construct paths of the stack besides the provider and the cluster. */
function tree(stack: TerraformStack): string[] {
  return stack.node
    .findAll()
    .map((c) => c.node.path)
    .filter((p) => !/^eks(\/(aws|helm|cluster))?$/.test(p));
}

/** Each problem of an error as its message (without the heading of a combined one). */
const messages = (e: { problems: readonly { message: string }[] }) => e.problems.map((p) => p.message);

const controllerRole = (
  stack: TerraformStack,
  cluster: IKarpenterCluster,
  props: Partial<KarpenterControllerRoleProps>,
  id = "cr",
) => new KarpenterControllerRole(stack, id, { cluster, nodeRole: NODE_ROLE, ...props });
const karpenter = (stack: TerraformStack, cluster: IKarpenterCluster, props: Partial<KarpenterProps>) =>
  new Karpenter(stack, "k", { cluster, ...props });

describe("a constructor that throws leaves nothing behind", () => {
  test.each([
    [
      "KarpenterControllerRole, empty roleName",
      (s: TerraformStack, c: IKarpenterCluster) => controllerRole(s, c, { roleName: "" }),
    ],
    [
      "KarpenterControllerRole, too long policyNameSuffix",
      (s: TerraformStack, c: IKarpenterCluster) => controllerRole(s, c, { policyNameSuffix: "x".repeat(200) }),
    ],
    [
      "KarpenterControllerRole, a node role that is no role ARN",
      (s: TerraformStack, c: IKarpenterCluster) => controllerRole(s, c, { nodeRole: { roleArn: "not-arn" } }),
    ],
    [
      "KarpenterNodeRole, empty roleName",
      (s: TerraformStack, c: IKarpenterCluster) => new KarpenterNodeRole(s, "cr", { cluster: c, roleName: "" }),
    ],
    [
      "InterruptionQueue, empty queueName",
      (s: TerraformStack, c: IKarpenterCluster) => new InterruptionQueue(s, "cr", { cluster: c, queueName: "" }),
    ],
    [
      "Karpenter, empty nodeRole.roleName",
      (s: TerraformStack, c: IKarpenterCluster) => new Karpenter(s, "cr", { cluster: c, nodeRole: { roleName: "" } }),
    ],
  ])("%s: no construct, no shared data source; a retry with the same id works", (_why, build) => {
    const { stack, cluster } = setup();
    rejected(() => build(stack, cluster));
    expect(tree(stack)).toEqual([]);
    const json = synthJson(stack);
    expect(json.data).toBeUndefined();
    expect(() => controllerRole(stack, cluster, {})).not.toThrow();
    expect(tree(stack)).toContain("eks/cr/role");
    expect(Object.keys(synthJson(stack).data).sort()).toEqual(["aws_caller_identity", "aws_partition", "aws_region"]);
  });

  test("Karpenter failing while it builds (an adoption judged once the blocks exist) leaves neither its blocks nor the data sources they made", () => {
    const { stack, cluster } = setup();
    const e = rejected(() =>
      karpenter(stack, cluster, {
        adopt: {
          controllerRole: {
            roleName: "KarpenterControllerRole-demo",
            attachedPolicies: ["a", "b", "c", "d", "e", "f", "g"],
          },
        },
      }),
    );
    expect(e.field).toBe("adopt.controllerRole.attachedPolicies");
    expect(tree(stack)).toEqual([]);
    expect(synthJson(stack).data).toBeUndefined();
  });

  test("a provider of another stack is one more problem, found before anything is created", () => {
    const { stack, cluster } = setup();
    const other = new AwsProvider(new TerraformStack(stack.node.root, "other"), "aws", { region: "eu-west-1" });
    const node = rejected(() => new KarpenterNodeRole(stack, "n", { cluster, roleName: "", provider: other }));
    expect(node.problems.map((p) => p.field)).toEqual(["roleName", "provider"]);
    const spot = rejected(() => new SpotServiceLinkedRole(stack, "spot", { tags: { "aws:x": "y" }, provider: other }));
    expect(spot.problems.map((p) => p.field)).toEqual(['tags["aws:x"]', "provider"]);
    expect(tree(stack)).toEqual([]);
  });

  test("each building block names the APIs and resources that refuse a tag", () => {
    const { stack, cluster } = setup();
    const bad = { owner: "a&b" };
    const msg = (path: string, who: string) =>
      `${path}: tags["owner"] = "a&b" is invalid: the value holds "&", which ${who} in a tag: only letters, digits, spaces and _ . : / = + - @ are allowed there [AWS_TAG_VALUE]`;
    expect(
      rejected(
        () => new InterruptionQueue(stack, "q", { cluster, tags: bad, kmsKey: InterruptionQueueKmsKey.create() }),
      ).message,
    ).toBe(
      msg(
        "eks/q",
        "SQS (the interruption queue), EventBridge (the interruption rules) and KMS (the queue's key) refuse",
      ),
    );
    expect(rejected(() => new KarpenterNodeRole(stack, "n", { cluster, tags: bad })).message).toBe(
      msg("eks/n", "IAM (the node role) refuses"),
    );
    expect(rejected(() => new SpotServiceLinkedRole(stack, "s", { tags: bad })).message).toBe(
      msg("eks/s", "IAM (the spot service-linked role) refuses"),
    );
    // an existing role gets no tags from here: only the access entry (EKS) does, which takes any character
    expect(
      () =>
        new KarpenterNodeRole(stack, "existing", {
          cluster,
          tags: bad,
          existingRole: { roleName: "r", roleArn: "arn:aws:iam::123456789012:role/r" },
        }),
    ).not.toThrow();
  });

  test("the shared data sources another construct created stay when a later one fails", () => {
    const { stack, cluster } = setup();
    const nodeRole = new KarpenterNodeRole(stack, "node-role", { cluster });
    rejected(() => controllerRole(stack, cluster, { nodeRole, roleName: "" }));
    expect(tree(stack).filter((p) => p.startsWith("eks/karpenter-aws-context"))).toEqual([
      "eks/karpenter-aws-context",
      "eks/karpenter-aws-context/partition",
      "eks/karpenter-aws-context/region",
      "eks/karpenter-aws-context/caller",
    ]);
    expect(tree(stack).some((p) => p.startsWith("eks/cr"))).toBe(false);
    expect(Object.keys(synthJson(stack).resource).sort()).toEqual([
      "aws_eks_access_entry",
      "aws_eks_cluster",
      "aws_iam_role",
      "aws_iam_role_policy_attachment",
    ]);
  });
});

describe("every problem of one object at once", () => {
  const POLICY_ARN_TEXT =
    "an IAM managed policy ARN, arn:<partition>:iam::aws:policy/<name> (AWS-managed) or arn:<partition>:iam::<12-digit account>:policy/<path/><name>";
  const EBS = "arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy";

  test("additionalPolicyArns: every bad item is named, not only the first", () => {
    const { stack, cluster } = setup();
    const e = rejected(
      () =>
        new KarpenterNodeRole(stack, "x", { cluster, additionalPolicyArns: ["AmazonSSM", "", EBS, "arn:aws:s3:::b"] }),
    );
    expect(messages(e)).toEqual([
      `eks/x: additionalPolicyArns[0] = "AmazonSSM" is invalid: ${POLICY_ARN_TEXT} [AWS_POLICY_ARN]`,
      `eks/x: additionalPolicyArns[1] = "" is invalid: ${POLICY_ARN_TEXT} [AWS_POLICY_ARN]`,
      `eks/x: additionalPolicyArns[3] = "arn:aws:s3:::b" is invalid: ${POLICY_ARN_TEXT} [AWS_POLICY_ARN]`,
    ]);
    expect(tree(stack)).toEqual([]);
  });

  test.each([
    [
      "KarpenterNodeRole",
      "additionalPolicyArns",
      (s: TerraformStack, c: IKarpenterCluster, arns: string[]) =>
        new KarpenterNodeRole(s, "x", { cluster: c, additionalPolicyArns: arns }),
    ],
    [
      "KarpenterControllerRole",
      "additionalPolicyArns",
      (s: TerraformStack, c: IKarpenterCluster, arns: string[]) =>
        controllerRole(s, c, { additionalPolicyArns: arns }, "x"),
    ],
    [
      "Karpenter nodeRole",
      "nodeRole.additionalPolicyArns",
      (s: TerraformStack, c: IKarpenterCluster, arns: string[]) =>
        new Karpenter(s, "x", { cluster: c, nodeRole: { additionalPolicyArns: arns } }),
    ],
    [
      "Karpenter controllerRole",
      "controllerRole.additionalPolicyArns",
      (s: TerraformStack, c: IKarpenterCluster, arns: string[]) =>
        new Karpenter(s, "x", { cluster: c, controllerRole: { additionalPolicyArns: arns } }),
    ],
  ])("%s: the same policy ARN twice is refused (two attachments would manage one policy)", (_what, field, build) => {
    const { stack, cluster } = setup();
    const e = rejected(() => build(stack, cluster, [EBS, "arn:aws:iam::123456789012:policy/extra", EBS]));
    expect(messages(e)).toEqual([
      `eks/x: ${field}[2] = "${EBS}" is invalid: an ARN not given before: ${field}[0] is the same policy, and two attachments of one policy to the role would each manage it (removing either detaches it); give it once [AWS_POLICY_ARN_TWICE]`,
    ]);
    expect(tree(stack)).toEqual([]);
    // the same reference twice is the same policy too; two different references are not judged
    const arn = new TerraformVariable(stack, "arn", { type: "string" }).stringValue;
    const other = new TerraformVariable(stack, "other", { type: "string" }).stringValue;
    expect(messages(rejected(() => build(stack, cluster, [arn, arn])))).toEqual([
      `eks/x: ${field}[1] = "(the same reference as before, known only at apply)" is invalid: an ARN not given before: ${field}[0] is the same policy, and two attachments of one policy to the role would each manage it (removing either detaches it); give it once [AWS_POLICY_ARN_TWICE]`,
    ]);
    expect(() => build(stack, cluster, [arn, other, EBS])).not.toThrow();
  });

  test("Karpenter nodeRole: a policy the node role of the version gets anyway is refused", () => {
    const { stack, cluster } = setup();
    const e = rejected(() =>
      karpenter(stack, cluster, {
        version: "1.14.1",
        nodeRole: { additionalPolicyArns: ["arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy"] },
      }),
    );
    expect(messages(e)).toEqual([
      'eks/k: nodeRole.additionalPolicyArns[0] = "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy" is invalid: a policy the role does not get anyway: the node role of Karpenter 1.14.1 attaches AmazonEKSWorkerNodePolicy itself, and two attachments of one policy would each manage it (removing either detaches it); leave it out [AWS_POLICY_ARN_ALREADY_ATTACHED]',
    ]);
  });

  test("Karpenter nodeRole: an unknown key does not hide a bad policy ARN", () => {
    const { stack, cluster } = setup();
    const e = rejected(() =>
      karpenter(stack, cluster, { nodeRole: { rolName: "x", additionalPolicyArns: ["bad"] } as any }),
    );
    expect(messages(e)).toEqual([
      'eks/k: nodeRole.rolName = "x" is invalid: not a known key of nodeRole (it would be ignored); did you mean roleName? The allowed keys are { roleName?, existingRole?, additionalPolicyArns? } [OPTIONS_UNKNOWN_KEY]',
      'eks/k: nodeRole.additionalPolicyArns[0] = "bad" is invalid: an IAM managed policy ARN, arn:<partition>:iam::aws:policy/<name> (AWS-managed) or arn:<partition>:iam::<12-digit account>:policy/<path/><name> [AWS_POLICY_ARN]',
    ]);
  });

  test("Karpenter interruptionQueue: an unknown key does not hide the names, nor the other props' names", () => {
    const { stack, cluster } = setup();
    const e = rejected(() =>
      karpenter(stack, cluster, {
        interruptionQueue: InterruptionQueueConfig.create({
          extra: 1,
          queueName: "bad name!",
          ruleNamePrefix: "",
        } as any),
        controllerRole: { roleName: "" },
      }),
    );
    expect(messages(e)).toEqual([
      "eks/k: interruptionQueue.extra = 1 is invalid: not a key of the created queue's options: the allowed keys are { queueName?, ruleNamePrefix?, kmsKey? } [INTERRUPTION_QUEUE_UNKNOWN_KEY]",
      'eks/k: controllerRole.roleName = "" is invalid: an empty name is not allowed: give 1–64 characters (an IAM role name: letters, digits and + = , . @ _ -) [INSTALL_NAME]',
      `eks/k: interruptionQueue.queueName = "bad name!" is invalid: an SQS standard queue name: letters, digits, '-' and '_' [INSTALL_NAME]`,
      `eks/k: interruptionQueue.ruleNamePrefix = "" is invalid: an empty name is not allowed: give 1–44 characters (an EventBridge rule name prefix: letters, digits, '.', '-' and '_') [INSTALL_NAME]`,
    ]);
  });

  test("Karpenter interruptionQueue, a queue of your own: every key, the name and the ARN", () => {
    const { stack, cluster } = setup();
    const e = rejected(() =>
      karpenter(stack, cluster, {
        interruptionQueue: InterruptionQueueConfig.existing({
          existingQueueName: "",
          existingQueueArn: "arn:aws:sns:eu-west-1:123456789012:q",
          queueName: "q",
        } as any),
      }),
    );
    expect(messages(e)).toEqual([
      'eks/k: interruptionQueue.queueName = "q" is invalid: not with an existing queue: { existingQueueName, existingQueueArn, kmsKeyArn? } only (nothing is created, so there is nothing to name or encrypt) [INTERRUPTION_QUEUE_UNKNOWN_KEY]',
      `eks/k: interruptionQueue.existingQueueName = "" is invalid: an empty name is not allowed: give 1–80 characters (an SQS standard queue name: letters, digits, '-' and '_') [INTERRUPTION_QUEUE_EXISTING]`,
      'eks/k: interruptionQueue.existingQueueArn = "arn:aws:sns:eu-west-1:123456789012:q" is invalid: an SQS queue ARN, arn:<partition>:sqs:<region>:<12-digit account>:<queue name> (not the queue URL) [INTERRUPTION_QUEUE_EXISTING]',
    ]);
  });

  test("nodeRole.existingRole: the name and the ARN, and an unknown key besides", () => {
    const { stack, cluster } = setup();
    const e = rejected(() =>
      karpenter(stack, cluster, { nodeRole: { existingRole: { roleName: "", roleArn: "x", arn: "y" } as any } }),
    );
    expect(messages(e)).toEqual([
      'eks/k: nodeRole.existingRole.arn = "y" is invalid: not a known key of nodeRole.existingRole (it would be ignored): the allowed keys are { roleName?, roleArn? } [OPTIONS_UNKNOWN_KEY]',
      'eks/k: nodeRole.existingRole.roleName = "" is invalid: an empty name is not allowed: give 1–64 characters (an IAM role name: letters, digits and + = , . @ _ -) [AWS_IAM_NAME]',
      'eks/k: nodeRole.existingRole.roleArn = "x" is invalid: an IAM role ARN, arn:<partition>:iam::<12-digit account>:role/<optional path/><name> (not an instance profile or user ARN) [AWS_ROLE_ARN]',
    ]);
  });

  test("KarpenterControllerRole: the node role ARN, the identity, the names and the suffix together", () => {
    const { stack, cluster } = setup();
    const e = rejected(() =>
      controllerRole(stack, cluster, {
        nodeRole: { roleArn: "x" },
        roleName: "",
        policyNameSuffix: "s".repeat(200),
        identity: { type: "irsa", oidcProviderArn: "bad" },
      }),
    );
    expect(e.message.split("\n")[0]).toBe("4 problems in the props of eks/cr:");
    expect(messages(e)).toEqual([
      'eks/cr: nodeRole.roleArn = "x" is invalid: an IAM role ARN, arn:<partition>:iam::<12-digit account>:role/<optional path/><name> (not an instance profile or user ARN) [AWS_ROLE_ARN]',
      'eks/cr: identity.oidcProviderArn = "bad" is invalid: an IAM OIDC provider ARN, arn:<partition>:iam::<account>:oidc-provider/<issuer host and path> [AWS_OIDC_PROVIDER_ARN]',
      'eks/cr: roleName = "" is invalid: an empty name is not allowed: give 1–64 characters (an IAM role name: letters, digits and + = , . @ _ -) [AWS_NAME]',
      // the value as set (shortened to 200 characters of JSON), not the derived policy name
      `eks/cr: policyNameSuffix = "${"s".repeat(199)}… is invalid: at most 85 characters (got 200): the suffix ends every IAM policy name of the controller role, KarpenterController<Group>Policy-<suffix>, which IAM limits to 128 characters, and the longest, KarpenterControllerResourceDiscoveryPolicy-<suffix>, leaves 85; choose a shorter suffix [CONTROLLER_ROLE_NAME_SUFFIX]`,
    ]);
    expect(rejected(() => controllerRole(stack, cluster, { roleName: "a b" })).message).toBe(
      'eks/cr: roleName = "a b" is invalid: an IAM role name: letters, digits and + = , . @ _ - [AWS_NAME]',
    );
  });

  test("KarpenterControllerRole: an additional statement reusing an official Sid is reported with the other problems", () => {
    const { stack, cluster } = setup();
    const e = rejected(() =>
      controllerRole(stack, cluster, {
        roleName: "a b",
        additionalStatements: [{ sid: "AllowPassingInstanceRole", actions: ["ec2:X"], resources: ["*"] }],
      }),
    );
    expect(e.problems.map((p) => p.field)).toEqual(["additionalStatements[0].sid", "roleName"]);
  });
});

describe("literal ARNs are checked", () => {
  test("the node role the controller passes must be an IAM role ARN (a reference or a path is fine)", () => {
    const { stack, cluster } = setup();
    expect(rejected(() => controllerRole(stack, cluster, { nodeRole: { roleArn: "not-arn" } })).message).toBe(
      'eks/cr: nodeRole.roleArn = "not-arn" is invalid: an IAM role ARN, arn:<partition>:iam::<12-digit account>:role/<optional path/><name> (not an instance profile or user ARN) [AWS_ROLE_ARN]',
    );
    expect(
      rejected(() =>
        controllerRole(stack, cluster, { nodeRole: { roleArn: "arn:aws:iam::123456789012:instance-profile/n" } }),
      ).field,
    ).toBe("nodeRole.roleArn");
    controllerRole(
      stack,
      cluster,
      { nodeRole: { roleArn: "arn:aws-us-gov:iam::123456789012:role/nodes/karpenter" } },
      "path",
    );
    const account = new TerraformVariable(stack, "account", { type: "string" });
    controllerRole(
      stack,
      cluster,
      { nodeRole: { roleArn: `arn:aws:iam::${account.stringValue}:role/n` }, roleName: "r2", policyNameSuffix: "two" },
      "token",
    );
    const passRole = (id: string) =>
      Object.entries(synthJson(stack).resource.aws_iam_policy as Record<string, any>)
        .filter(([key]) => key.startsWith(`${id}_policy-IAMIntegration_`))
        .map(([, p]) => JSON.parse(p.policy).Statement.find((s: any) => s.Sid === "AllowPassingInstanceRole").Resource);
    expect(passRole("path")).toEqual(["arn:aws-us-gov:iam::123456789012:role/nodes/karpenter"]);
    expect(passRole("token")).toEqual(["arn:aws:iam::${var.account}:role/n"]);
  });

  test("KarpenterRelease: the IRSA role ARN of the ServiceAccount annotation must be an IAM role ARN", () => {
    const { stack, cluster } = setup();
    expect(
      rejected(() => new KarpenterRelease(stack, "r", { cluster, irsaRoleArn: "KarpenterControllerRole-demo" }))
        .message,
    ).toBe(
      'eks/r: irsaRoleArn = "KarpenterControllerRole-demo" is invalid: an IAM role ARN, arn:<partition>:iam::<12-digit account>:role/<optional path/><name> (not an instance profile or user ARN) [AWS_ROLE_ARN]',
    );
    expect(
      () =>
        new KarpenterRelease(stack, "r", {
          cluster,
          irsaRoleArn: "arn:aws:iam::123456789012:role/KarpenterControllerRole-demo",
        }),
    ).not.toThrow();
  });

  test("the interruption queue the controller reads must be an SQS queue ARN, its key a KMS key ARN", () => {
    const { stack, cluster } = setup();
    const e = rejected(() =>
      controllerRole(stack, cluster, {
        interruptionQueue: { queueArn: "arn:aws:sns:eu-west-1:123456789012:q", kmsKeyArn: "alias/q" },
      }),
    );
    expect(messages(e)).toEqual([
      `eks/cr: interruptionQueue.queueArn = "arn:aws:sns:eu-west-1:123456789012:q" is invalid: an SQS queue ARN, arn:<partition>:sqs:<region>:<12-digit account>:<queue name> (not a queue URL or another service's ARN) [AWS_QUEUE_ARN]`,
      'eks/cr: interruptionQueue.kmsKeyArn = "alias/q" is invalid: a KMS key ARN, arn:<partition>:kms:<region>:<account>:key/<key id> (not an alias: IAM grants kms:Decrypt on key ARNs) [AWS_KMS_KEY_ARN]',
    ]);
    expect(
      rejected(() =>
        controllerRole(stack, cluster, {
          interruptionQueue: { queueArn: "https://sqs.eu-west-1.amazonaws.com/123456789012/q" },
        }),
      ).field,
    ).toBe("interruptionQueue.queueArn");
    expect(() =>
      controllerRole(
        stack,
        cluster,
        { interruptionQueue: { queueArn: "arn:aws-cn:sqs:cn-north-1:123456789012:karpenter-demo" } },
        "ok",
      ),
    ).not.toThrow();
    expect(() =>
      controllerRole(
        stack,
        cluster,
        {
          interruptionQueue: { queueArn: "arn:aws:sqs:us-gov-west-1:123456789012:q.fifo" },
          roleName: "r2",
          policyNameSuffix: "two",
        },
        "fifo",
      ),
    ).not.toThrow();
  });
});

describe("IAM conditions of additional statements", () => {
  test("an unknown operator, an empty key and no values are refused together", () => {
    const { stack, cluster } = setup();
    const e = rejected(() =>
      controllerRole(stack, cluster, {
        additionalStatements: [
          {
            actions: ["s3:GetObject"],
            resources: ["*"],
            conditions: [{ test: "StringEqul", variable: "", values: [] }],
          },
        ],
      }),
    );
    expect(messages(e)).toEqual([
      'eks/cr: additionalStatements[0].conditions[0].test = "StringEqul" is invalid: did you mean StringEquals? It must be an IAM condition operator: StringEquals, StringNotEquals, StringEqualsIgnoreCase, StringNotEqualsIgnoreCase, StringLike, StringNotLike, NumericEquals, NumericNotEquals, NumericLessThan, NumericLessThanEquals, NumericGreaterThan, NumericGreaterThanEquals, DateEquals, DateNotEquals, DateLessThan, DateLessThanEquals, DateGreaterThan, DateGreaterThanEquals, Bool, BinaryEquals, IpAddress, NotIpAddress, ArnEquals, ArnLike, ArnNotEquals, ArnNotLike, Null; each but Null may end in "IfExists", and "ForAllValues:" or "ForAnyValue:" may precede it (IAM User Guide, "IAM JSON policy elements: Condition operators") [CONTROLLER_ROLE_CONDITION_OPERATOR]',
      'eks/cr: additionalStatements[0].conditions[0].variable = "" is invalid: a condition key, e.g. "aws:RequestedRegion" or "aws:ResourceTag/team": an empty key matches nothing in the request [CONTROLLER_ROLE_CONDITION]',
      'eks/cr: additionalStatements[0].conditions[0].values = [] is invalid: at least one value to compare the key with, e.g. ["eu-west-1"] (the condition holds when any one matches; IAM refuses a condition without values) [CONTROLLER_ROLE_CONDITION]',
    ]);
    expect(tree(stack)).toEqual([]);
  });

  test.each([
    "StringEquals",
    "StringLikeIfExists",
    "ForAllValues:StringEquals",
    "ForAnyValue:ArnLikeIfExists",
    "Null",
    "Bool",
    "NotIpAddress",
    "DateGreaterThanEquals",
    "BinaryEquals",
    "NumericLessThanEqualsIfExists",
  ])("%s is an IAM condition operator", (op) => expect(isConditionOperator(op)).toBe(true));

  test.each([
    "StringEqul",
    "stringequals",
    "NullIfExists",
    "ForAllValue:StringEquals",
    "ForAnyValue:",
    "IfExists",
    "StringEquals IfExists",
    "",
  ])("%j is not", (op) => expect(isConditionOperator(op)).toBe(false));

  test("operators are written as given; a value of another type and a misspelt operator with a qualifier are named", () => {
    const { stack, cluster } = setup();
    const conditions = [
      { test: "ForAnyValue:StringLikeIfExists", variable: "aws:TagKeys", values: ["team*"] },
      { test: "Null", variable: "aws:ResourceTag/team", values: ["false"] },
    ];
    controllerRole(stack, cluster, {
      additionalStatements: [{ sid: "Tagged", actions: ["ec2:CreateTags"], resources: ["*"], conditions }],
    });
    const additional = (Object.values(synthJson(stack).resource.aws_iam_policy) as any[]).find((p) =>
      p.name.startsWith("KarpenterControllerAdditionalPolicy-"),
    );
    expect(JSON.parse(additional.policy).Statement[0].Condition).toEqual({
      "ForAnyValue:StringLikeIfExists": { "aws:TagKeys": ["team*"] },
      Null: { "aws:ResourceTag/team": ["false"] },
    });
    const e = rejected(() =>
      controllerRole(
        stack,
        cluster,
        {
          additionalStatements: [
            {
              actions: ["ec2:X"],
              resources: ["*"],
              conditions: [{ test: "ForAllValues:StringLkeIfExists", variable: "aws:TagKeys", values: [1 as any] }],
            },
          ],
        },
        "bad",
      ),
    );
    expect(e.problems.map((p) => p.field)).toEqual([
      "additionalStatements[0].conditions[0].test",
      "additionalStatements[0].conditions[0].values[0]",
    ]);
    expect(e.problems[0].allowed).toMatch(
      /^did you mean ForAllValues:StringLikeIfExists\? It must be an IAM condition operator: /,
    );
  });

  test("Karpenter's controllerRole.additionalStatements get the same checks, with its other props", () => {
    const { stack, cluster } = setup();
    const e = rejected(() =>
      karpenter(stack, cluster, {
        namespace: "Bad_NS",
        controllerRole: {
          additionalStatements: [
            {
              actions: ["ec2:X"],
              resources: ["*"],
              conditions: [{ test: "Equals", variable: "aws:RequestedRegion", values: ["eu-west-1"] }],
            },
          ],
        },
      }),
    );
    expect(e.problems.map((p) => `${p.path} ${p.field}`)).toEqual([
      "eks/k namespace",
      "eks/k controllerRole.additionalStatements[0].conditions[0].test",
    ]);
  });
});

describe("name messages", () => {
  test("Karpenter: empty names say so, with the rule", () => {
    const { stack, cluster } = setup();
    const e = rejected(() =>
      karpenter(stack, cluster, {
        nodeRole: { roleName: "" },
        controllerRole: { roleName: "" },
        interruptionQueue: InterruptionQueueConfig.create({ queueName: "", ruleNamePrefix: "" }),
      }),
    );
    expect(e.message).toBe(
      [
        "eks/k: 4 name problems:",
        '  - eks/k: nodeRole.roleName = "" is invalid: an empty name is not allowed: give 1–64 characters (an IAM role name: letters, digits and + = , . @ _ -) [INSTALL_NAME]',
        '  - eks/k: controllerRole.roleName = "" is invalid: an empty name is not allowed: give 1–64 characters (an IAM role name: letters, digits and + = , . @ _ -) [INSTALL_NAME]',
        `  - eks/k: interruptionQueue.queueName = "" is invalid: an empty name is not allowed: give 1–80 characters (an SQS standard queue name: letters, digits, '-' and '_') [INSTALL_NAME]`,
        `  - eks/k: interruptionQueue.ruleNamePrefix = "" is invalid: an empty name is not allowed: give 1–44 characters (an EventBridge rule name prefix: letters, digits, '.', '-' and '_') [INSTALL_NAME]`,
      ].join("\n"),
    );
  });

  test("Karpenter: too long and bad characters", () => {
    const { stack, cluster } = setup();
    const e = rejected(() =>
      karpenter(stack, cluster, {
        nodeRole: { roleName: "n".repeat(65) },
        interruptionQueue: InterruptionQueueConfig.create({ queueName: "q.fifo", ruleNamePrefix: "p".repeat(45) }),
      }),
    );
    expect(messages(e)).toEqual([
      `eks/k: nodeRole.roleName = "${"n".repeat(65)}" is invalid: at most 64 characters (got 65): choose a shorter name [INSTALL_NAME]`,
      `eks/k: interruptionQueue.queueName = "q.fifo" is invalid: an SQS standard queue name: letters, digits, '-' and '_'; '.fifo' ends only FIFO queue names, and the interruption queue is a standard queue [INSTALL_NAME]`,
      `eks/k: interruptionQueue.ruleNamePrefix = "${"p".repeat(45)}" is invalid: at most 44 characters (rule names add "-<event>", up to 20 characters, within EventBridge's 64) (got 45): choose a shorter name [INSTALL_NAME]`,
    ]);
  });

  test.each([
    [
      "Karpenter",
      "eks/k: controllerRole.policyNameSuffix",
      (s: TerraformStack, c: IKarpenterCluster, suffix: string) =>
        karpenter(s, c, { controllerRole: { policyNameSuffix: suffix } }),
    ],
    [
      "KarpenterControllerRole",
      "eks/cr: policyNameSuffix",
      (s: TerraformStack, c: IKarpenterCluster, suffix: string) =>
        controllerRole(s, c, {
          policyNameSuffix: suffix,
          interruptionQueue: { queueArn: "arn:aws:sqs:us-east-1:123456789012:q" },
        }),
    ],
  ])("%s: policyNameSuffix is shown as set, with the limit the longest policy name leaves it", (_which, at, build) => {
    const { stack, cluster } = setup();
    expect(rejected(() => build(stack, cluster, "z".repeat(86))).message).toBe(
      `${at} = "${"z".repeat(86)}" is invalid: at most 85 characters (got 86): the suffix ends every IAM policy name of the controller role, KarpenterController<Group>Policy-<suffix>, which IAM limits to 128 characters, and the longest, KarpenterControllerResourceDiscoveryPolicy-<suffix>, leaves 85; choose a shorter suffix [CONTROLLER_ROLE_NAME_SUFFIX]`,
    );
    expect(rejected(() => build(stack, cluster, "has space")).message).toBe(
      `${at} = "has space" is invalid: letters, digits and + = , . @ _ - only: the suffix ends every IAM policy name of the controller role, KarpenterController<Group>Policy-<suffix> [CONTROLLER_ROLE_NAME_SUFFIX]`,
    );
    expect(() => build(stack, cluster, "z".repeat(85))).not.toThrow();
  });

  test("a derived name that gets too long still names the prop to set", () => {
    const { stack } = setup();
    const cluster = testCluster(stack, "c".repeat(41), "long");
    expect(rejected(() => controllerRole(stack, cluster, {})).message).toBe(
      `eks/cr: roleName = "KarpenterControllerRole-${"c".repeat(41)}" is invalid: at most 64 characters, but the default derived from the cluster name has 65: set roleName to a shorter name [AWS_DERIVED_NAME_TOO_LONG]`,
    );
  });

  test("standalone constructs: the same wording", () => {
    const { stack, cluster } = setup();
    const node = (props: Partial<KarpenterNodeRoleProps>) =>
      rejected(() => new KarpenterNodeRole(stack, "n", { cluster, ...props })).message;
    const queue = (props: Partial<InterruptionQueueProps>) =>
      rejected(() => new InterruptionQueue(stack, "q", { cluster, ...props })).message;
    expect(node({ roleName: "" })).toBe(
      'eks/n: roleName = "" is invalid: an empty name is not allowed: give 1–64 characters (an IAM role name: letters, digits and + = , . @ _ -) [AWS_NAME]',
    );
    expect(queue({ ruleNamePrefix: "" })).toBe(
      `eks/q: ruleNamePrefix = "" is invalid: an empty name is not allowed: give 1–44 characters (an EventBridge rule name prefix: letters, digits, '.', '-' and '_') [AWS_NAME]`,
    );
    expect(queue({ queueName: 5 as any })).toBe(
      `eks/q: queueName = 5 is invalid: a string, 1–80 characters (an SQS standard queue name: letters, digits, '-' and '_') [AWS_NAME]`,
    );
    expect(Testing.synth(stack)).not.toContain("aws_iam_role");
  });
});
