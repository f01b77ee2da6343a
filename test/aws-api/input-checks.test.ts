import { TerraformVariable } from "cdktf";
import { KarpenterValidationError } from "../../lib/core/errors";
import {
  checkExistingRole,
  checkKmsKeyArn,
  checkOptionKeys,
  checkPolicyArns,
  checkStringList,
  checkTags,
  IAM_ACTIONS,
  IAM_RESOURCES,
  isListToken,
} from "../../lib/aws-api/input-checks";
import { TAG_APIS } from "../../lib/aws-api/tag-rules";
import { testCluster, testStack, thrown } from "../helpers";
import { requireCluster } from "../../lib/cluster/require-cluster";

describe("input checks", () => {
  test("requireCluster returns the cluster, or names what is missing", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    expect(requireCluster(stack, { cluster })).toBe(cluster);
    for (const props of [undefined, {}, { cluster: null }, { cluster: "demo" }, { cluster: { name: "demo" } }]) {
      const error = thrown(() => requireCluster(stack, props as any));
      expect(error).toBeInstanceOf(KarpenterValidationError);
      expect(error.message).toMatch(
        /^test: cluster = .* is invalid: cluster is required: an IKarpenterCluster from KarpenterCluster\.fromEksCluster\(\.\.\.\) or \.fromClusterName\(\.\.\.\) \[CLUSTER_REQUIRED\]$/,
      );
    }
  });

  test("tags: tokens are skipped, unicode counts characters, limits are inclusive", () => {
    const { stack } = testStack();
    const v = new TerraformVariable(stack, "v", { type: "string" }).stringValue;
    const map = new TerraformVariable(stack, "m", { type: "map(string)" }).value;
    const iam = [{ api: TAG_APIS.IAM, resource: "the role" }];
    expect(() => checkTags(stack, map, iam)).not.toThrow();
    expect(() => checkTags(stack, { [v]: "x", team: v }, iam)).not.toThrow();
    expect(() => checkTags(stack, { ["é".repeat(128)]: "ü".repeat(256) }, iam)).not.toThrow();
    expect(() =>
      checkTags(stack, Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, ""])), iam),
    ).not.toThrow();
    expect(() => checkTags(stack, { ["é".repeat(129)]: "x" }, iam)).toThrow(/is 129 characters long/);
    expect(() => checkTags(stack, { "Aws:x": "x" }, iam)).toThrow(
      /^test: tags\["Aws:x"\] = "x" is invalid: the key "Aws:x" is reserved: tag keys starting with "aws:"/,
    );
    expect(() => checkTags(stack, { team: 5 as any }, iam)).toThrow(
      'test: tags["team"] = 5 is invalid: a string tag value, got a number [AWS_TAG_VALUE]',
    );
  });

  test("tags: the characters IAM, SQS, EventBridge and KMS allow; EC2 and EKS take any", () => {
    const { stack } = testStack();
    const ok = { "Cost Center": "R+D/ünïcode 日本 @x:y=z_1.2-3", "a\u00a0b": "" };
    const all = [
      { api: TAG_APIS.IAM, resource: "the role" },
      { api: TAG_APIS.SQS, resource: "the queue" },
      { api: TAG_APIS.EventBridge, resource: "the rules" },
      { api: TAG_APIS.KMS, resource: "the key" },
      { api: TAG_APIS.IAM, resource: "its policies" },
    ];
    expect(() => checkTags(stack, ok, all)).not.toThrow();
    const bad = { "team,x": "a&b", owner: "me, you!", "#": "ok" };
    expect(() =>
      checkTags(stack, bad, [
        { api: TAG_APIS.EC2, resource: "the tags" },
        { api: TAG_APIS.EKS, resource: "the node group" },
      ]),
    ).not.toThrow();
    const error = thrown(() => checkTags(stack, bad, all)) as KarpenterValidationError;
    expect(error.problems.map((p) => p.message)).toEqual([
      'test: tags["team,x"] = "a&b" is invalid: the key "team,x" holds "," and the value holds "&", which IAM (the role and its policies), SQS (the queue), EventBridge (the rules) and KMS (the key) refuse in a tag: only letters, digits, spaces and _ . : / = + - @ are allowed there [AWS_TAG_VALUE]',
      'test: tags["owner"] = "me, you!" is invalid: the value holds "," and "!", which IAM (the role and its policies), SQS (the queue), EventBridge (the rules) and KMS (the key) refuse in a tag: only letters, digits, spaces and _ . : / = + - @ are allowed there [AWS_TAG_VALUE]',
      'test: tags["#"] = "ok" is invalid: the key "#" holds "#", which IAM (the role and its policies), SQS (the queue), EventBridge (the rules) and KMS (the key) refuse in a tag: only letters, digits, spaces and _ . : / = + - @ are allowed there [AWS_TAG_VALUE]',
    ]);
    expect(() => checkTags(stack, { t: "tab\there" }, [{ api: TAG_APIS.SQS, resource: "the queue" }])).toThrow(
      'test: tags["t"] = "tab\\there" is invalid: the value holds "\\t", which SQS (the queue) refuses in a tag: only letters, digits, spaces and _ . : / = + - @ are allowed there [AWS_TAG_VALUE]',
    );
  });

  test("IAM role ARNs and names", () => {
    const { stack } = testStack();
    expect(() =>
      checkExistingRole(stack, "r", { roleName: "a+=,.@_-1", roleArn: "arn:aws:iam::123456789012:role/p/a+=,.@_-1" }),
    ).not.toThrow();
    expect(() =>
      checkExistingRole(stack, "r", {
        roleName: "x".repeat(65),
        roleArn: `arn:aws:iam::123456789012:role/${"x".repeat(65)}`,
      }),
    ).toThrow(/r\.roleName = .* is invalid: an IAM role name/);
    expect(() => checkExistingRole(stack, "r", { roleName: "x", roleArn: "arn:aws:iam::123456789012:user/x" })).toThrow(
      /r\.roleArn = .* is invalid: an IAM role ARN/,
    );
    expect(() =>
      checkExistingRole(stack, "r", { roleName: "x", roleArn: "arn:aws:sts::123456789012:assumed-role/x/session" }),
    ).toThrow(/r\.roleArn = .* is invalid: an IAM role ARN/);
    expect(() => checkExistingRole(stack, "r", "x" as any)).toThrow(/^test: r = "x" is invalid/);
  });

  test("policy ARNs: AWS-managed and customer-managed, any partition, references; not a list token", () => {
    const { stack } = testStack();
    const list = new TerraformVariable(stack, "l", { type: "list(string)" }).listValue;
    const one = new TerraformVariable(stack, "s", { type: "string" }).stringValue;
    expect(() =>
      checkPolicyArns(stack, "p", [
        "arn:aws-cn:iam::aws:policy/AmazonEKS_CNI_Policy",
        "arn:aws:iam::123456789012:policy/a/b/c",
        one,
        `arn:${one}:iam::aws:policy/X`,
      ]),
    ).not.toThrow();
    expect(() => checkPolicyArns(stack, "p", list)).toThrow(
      /^test: p = "\(a list token, known only at apply\)" is invalid: an array of IAM policy ARNs known at synth/,
    );
    expect(() => checkPolicyArns(stack, "p", ["arn:aws:iam::aws:policy/X", ...list])).toThrow(/a list token/);
    expect(() => checkPolicyArns(stack, "p", ["arn:aws:iam::aws:policy/"])).toThrow(
      /p\[0\] = .* is invalid: an IAM managed policy ARN/,
    );
    expect(() => checkPolicyArns(stack, "p", "arn:aws:iam::aws:policy/X" as any)).toThrow(
      /p = .* is invalid: an array of IAM policy ARNs/,
    );
  });

  test("IAM actions and resources: string lists, at least one, each item checked; tokens skipped", () => {
    const { stack } = testStack();
    const list = new TerraformVariable(stack, "l", { type: "list(string)" }).listValue;
    expect(() =>
      checkStringList(stack, "a", ["*", "ec2:*", "execute-api:Invoke", "s3:Get*Acl", "iam:PassRole"], IAM_ACTIONS),
    ).not.toThrow();
    for (const bad of [":Describe", "ec2:Describe Vpcs", "ec2:Describe/Vpcs", ""])
      expect(() => checkStringList(stack, "a", [bad], IAM_ACTIONS)).toThrow(
        /a\[0\] = .* is invalid: "\*" or "<service>:<action>"/,
      );
    expect(() => checkStringList(stack, "a", [], IAM_ACTIONS)).toThrow(
      'test: a = [] is invalid: at least one IAM action, e.g. ["ec2:DescribeInstances"] [AWS_LIST_EMPTY]',
    );
    expect(() => checkStringList(stack, "a", "ec2:X" as any, IAM_ACTIONS)).toThrow(
      /^test: a = "ec2:X" is invalid: at least one IAM action/,
    );
    expect(() => checkStringList(stack, "a", list, IAM_ACTIONS)).not.toThrow();
    expect(() => checkStringList(stack, "r", ["*", "arn:aws:s3:::b/*"], IAM_RESOURCES)).not.toThrow();
    expect(() => checkStringList(stack, "r", ["arn:aws:s3:::b", "bucket"], IAM_RESOURCES)).toThrow(
      /^test: r\[1\] = "bucket" is invalid: "\*" or an ARN/,
    );
    expect(() => checkStringList(stack, "r", [], IAM_RESOURCES)).toThrow(
      'test: r = [] is invalid: at least one resource ARN, or ["*"] [AWS_LIST_EMPTY]',
    );
    // every bad item at once
    const both = thrown(() =>
      checkStringList(stack, "a", ["ec2:X", "bad", "ec2:Y", ""], IAM_ACTIONS),
    ) as KarpenterValidationError;
    expect(both.problems.map((p: KarpenterValidationError) => p.field)).toEqual(["a[1]", "a[3]"]);
  });

  test("KMS key ARNs: any partition; an alias or a token-free non-ARN is refused, a token is not judged", () => {
    const { stack } = testStack();
    const one = new TerraformVariable(stack, "s", { type: "string" }).stringValue;
    expect(() =>
      checkKmsKeyArn(
        stack,
        "k",
        "arn:aws-us-gov:kms:us-gov-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
      ),
    ).not.toThrow();
    expect(() => checkKmsKeyArn(stack, "k", one)).not.toThrow();
    expect(() => checkKmsKeyArn(stack, "k", "arn:aws:kms:eu-west-1:123456789012:alias/karpenter")).toThrow(
      /^test: k = "arn:aws:kms:eu-west-1:123456789012:alias\/karpenter" is invalid: a KMS key ARN/,
    );
    expect(() => checkKmsKeyArn(stack, "k", 42)).toThrow(/^test: k = 42 is invalid: a KMS key ARN/);
  });

  test("option objects: unknown keys are named with the allowed ones; undefined values do not count", () => {
    const { stack } = testStack();
    expect(checkOptionKeys(stack, "opts", undefined, ["a", "b"])).toBeUndefined();
    const given = { a: 1, c: undefined };
    expect(checkOptionKeys(stack, "opts", given, ["a", "b"])).toBe(given);
    expect(() => checkOptionKeys(stack, "opts", { a: 1, namespace: "x" }, ["a", "b"])).toThrow(
      'test: opts.namespace = "x" is invalid: not a known key of opts (it would be ignored): the allowed keys are { a?, b? } [OPTIONS_UNKNOWN_KEY]',
    );
    expect(() => checkOptionKeys(stack, "opts", "a" as any, ["a", "b"])).toThrow(
      'test: opts = "a" is invalid: an object { a?, b? } [OPTIONS_NOT_AN_OBJECT]',
    );
    expect(() => checkOptionKeys(stack, "opts", [] as any, ["a"])).toThrow(/^test: opts = \[\] is invalid/);
  });

  test("isListToken tells a list token and its spread from a literal array of string references", () => {
    const { stack } = testStack();
    const list = new TerraformVariable(stack, "l", { type: "list(string)" }).listValue;
    const one = new TerraformVariable(stack, "s", { type: "string" }).stringValue;
    expect(isListToken(list)).toBe(true);
    expect(isListToken(["a", ...list])).toBe(true);
    expect(isListToken([one, "a"])).toBe(false);
    expect(isListToken(["a"])).toBe(false);
  });
});
