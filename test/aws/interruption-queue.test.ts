import { createHash } from "crypto";
import { InterruptionQueue, InterruptionQueueProps } from "../../lib/aws/interruption-queue";
import { InterruptionQueueKmsKey } from "../../lib/aws/interruption-queue-kms-key";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { KarpenterValidationError } from "../../lib/core/errors";
import { resolvedReference } from "../../lib/core/tokens";
import { onlyResource, rejected, resources, synthJson, testCluster, testStack, thrown } from "../helpers";

function synthQueue(props: Partial<InterruptionQueueProps> = {}, clusterName = "demo") {
  const { stack } = testStack();
  const cluster = testCluster(stack, clusterName);
  const queue = new InterruptionQueue(stack, "queue", { cluster, ...props });
  return { queue, stack, json: synthJson(stack) };
}

const queueRef = (json: any, attr: string) =>
  `\${aws_sqs_queue.${Object.keys(resources(json, "aws_sqs_queue"))[0]}.${attr}}`;
// synthesized JSON is sorted by resource name: put the rules back in upstream (construct) order
const EVENT_ORDER = ["ScheduledChange", "SpotInterruption", "Rebalance", "InstanceStateChange", "CapacityReservation"];
const rules = (json: any) =>
  Object.entries(resources(json, "aws_cloudwatch_event_rule"))
    .sort(
      ([a], [b]) =>
        EVENT_ORDER.findIndex((e) => a.includes(`rule-${e}_`)) - EVENT_ORDER.findIndex((e) => b.includes(`rule-${e}_`)),
    )
    .map(([, r]) => r as any);

describe("InterruptionQueue", () => {
  test("the queue: named after the cluster, 300 s retention, SQS-managed SSE", () => {
    const { json, queue } = synthQueue();
    const q = onlyResource(json, "aws_sqs_queue");
    expect(q.name).toBe("${aws_eks_cluster.cluster.name}");
    expect(q.message_retention_seconds).toBe(300);
    expect(q.sqs_managed_sse_enabled).toBe(true);
    expect(q.kms_master_key_id).toBeUndefined();
    expect(queue.kmsKeyArn).toBeUndefined();
    expect(queue.queueName).toMatch(/^\$\{TfToken/); // a reference, for settings.interruptionQueue
  });

  test("the queue policy: SendMessage from events and sqs, DenyHTTP without TLS (as upstream)", () => {
    const { json } = synthQueue();
    const policy = onlyResource(json, "aws_sqs_queue_policy");
    expect(policy.queue_url).toBe(queueRef(json, "url"));
    const arn = queueRef(json, "arn");
    expect(JSON.parse(policy.policy)).toEqual({
      Version: "2012-10-17",
      Id: "EC2InterruptionPolicy",
      Statement: [
        {
          Effect: "Allow",
          Principal: { Service: ["events.amazonaws.com", "sqs.amazonaws.com"] },
          Action: "sqs:SendMessage",
          Resource: arn,
        },
        {
          Sid: "DenyHTTP",
          Effect: "Deny",
          Action: "sqs:*",
          Resource: arn,
          Condition: { Bool: { "aws:SecureTransport": "false" } },
          Principal: "*",
        },
      ],
    });
  });

  test("1.9: four rules with the upstream patterns, each targeting the queue ARN", () => {
    const { json, queue } = synthQueue({ version: "1.9.2" });
    expect(rules(json).map((r) => JSON.parse(r.event_pattern))).toEqual([
      { source: ["aws.health"], "detail-type": ["AWS Health Event"] },
      { source: ["aws.ec2"], "detail-type": ["EC2 Spot Instance Interruption Warning"] },
      { source: ["aws.ec2"], "detail-type": ["EC2 Instance Rebalance Recommendation"] },
      { source: ["aws.ec2"], "detail-type": ["EC2 Instance State-change Notification"] },
    ]);
    const targets = Object.values(resources(json, "aws_cloudwatch_event_target")) as any[];
    const ruleKeys = Object.keys(resources(json, "aws_cloudwatch_event_rule"));
    expect(targets.map((t) => t.rule).sort()).toEqual(
      ruleKeys.map((k) => `\${aws_cloudwatch_event_rule.${k}.name}`).sort(),
    );
    for (const t of targets) expect(t.arn).toBe(queueRef(json, "arn"));
    expect(queue.dependables).toEqual([queue.queuePolicy, ...queue.targets]);
  });

  test("1.10 adds the capacity reservation rule", () => {
    const { json } = synthQueue({ version: "1.10.0" });
    expect(rules(json)).toHaveLength(5);
    expect(rules(json).map((r) => JSON.parse(r.event_pattern)["detail-type"][0])).toContain(
      "EC2 Capacity Reservation Instance Interruption Warning",
    );
  });

  test("rule names: Karpenter-<cluster>-<event>", () => {
    expect(rules(synthQueue().json).map((r) => r.name)).toEqual([
      "Karpenter-demo-ScheduledChange",
      "Karpenter-demo-SpotInterruption",
      "Karpenter-demo-Rebalance",
      "Karpenter-demo-InstanceStateChange",
      "Karpenter-demo-CapacityReservation",
    ]);
  });

  test("rule names of a long cluster name: shortened with a hash, at most 64 characters, unique per cluster", () => {
    const a = "a".repeat(60) + "-one";
    const b = "a".repeat(60) + "-two";
    const namesOf = (cluster: string) =>
      rules(synthQueue({ queueName: "q" }, cluster).json).map((r) => r.name as string);
    const hash = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 8);
    expect(namesOf(a)[0]).toBe(`Karpenter-${"a".repeat(25)}-${hash(a)}-ScheduledChange`);
    for (const n of [...namesOf(a), ...namesOf(b)]) expect(n.length).toBeLessThanOrEqual(64);
    expect(namesOf(a)[0]).not.toBe(namesOf(b)[0]);
    // 34 characters still fit unshortened
    expect(namesOf("x".repeat(34))[3]).toBe(`Karpenter-${"x".repeat(34)}-InstanceStateChange`);
    expect(`Karpenter-${"x".repeat(34)}-InstanceStateChange`).toHaveLength(64);
  });

  test("rule names of a token cluster name: Terraform shortens them the same way", () => {
    const { stack } = testStack();
    const data = KarpenterCluster.fromClusterName(stack, "existing", "seed");
    const cluster = { ...data, clusterName: data.eksClusterData!.name, clusterNameLiteral: undefined };
    new InterruptionQueue(stack, "queue", { cluster });
    const name = rules(synthJson(stack))[0].name as string;
    expect(name).toBe(
      'Karpenter-${(length(data.aws_eks_cluster.existing.name) <= 34) ? data.aws_eks_cluster.existing.name : "${substr(data.aws_eks_cluster.existing.name, 0, 25)}-${substr(sha256(data.aws_eks_cluster.existing.name), 0, 8)}"}-ScheduledChange',
    );
  });

  test("ruleNamePrefix replaces the default and is checked", () => {
    expect(rules(synthQueue({ ruleNamePrefix: "prod-karpenter" }).json)[1].name).toBe(
      "prod-karpenter-SpotInterruption",
    );
    expect(rejected(() => synthQueue({ ruleNamePrefix: "p".repeat(45) })).message).toBe(
      `test/queue: ruleNamePrefix = "${"p".repeat(45)}" is invalid: at most 44 characters (rule names add "-<event>", up to 20 characters, within EventBridge's 64) (got 45): choose a shorter name [AWS_NAME]`,
    );
    expect(rejected(() => synthQueue({ ruleNamePrefix: "has space" })).message).toBe(
      `test/queue: ruleNamePrefix = "has space" is invalid: an EventBridge rule name prefix: letters, digits, '.', '-' and '_' [AWS_NAME]`,
    );
    expect(rejected(() => synthQueue({ ruleNamePrefix: "" })).message).toBe(
      `test/queue: ruleNamePrefix = "" is invalid: an empty name is not allowed: give 1–44 characters (an EventBridge rule name prefix: letters, digits, '.', '-' and '_') [AWS_NAME]`,
    );
  });

  test("queue name: a default from a cluster name over 80 characters asks for queueName", () => {
    expect(() => synthQueue({}, "c".repeat(81))).toThrow(
      /test\/queue: queueName = "c{81}" is invalid: at most 80 characters, .* has 81: set queueName/,
    );
    expect(
      onlyResource(synthQueue({ queueName: "karpenter-interruptions" }, "c".repeat(81)).json, "aws_sqs_queue").name,
    ).toBe("karpenter-interruptions");
    expect(rejected(() => synthQueue({ queueName: "q".repeat(81) })).message).toBe(
      `test/queue: queueName = "${"q".repeat(81)}" is invalid: at most 80 characters (got 81): choose a shorter name [AWS_NAME]`,
    );
    expect(rejected(() => synthQueue({ queueName: "karpenter.fifo" })).message).toBe(
      `test/queue: queueName = "karpenter.fifo" is invalid: an SQS standard queue name: letters, digits, '-' and '_'; '.fifo' ends only FIFO queue names, and the interruption queue is a standard queue [AWS_NAME]`,
    );
    expect(rejected(() => synthQueue({ queueName: "bad name!" })).message).toBe(
      `test/queue: queueName = "bad name!" is invalid: an SQS standard queue name: letters, digits, '-' and '_' [AWS_NAME]`,
    );
    expect(rejected(() => synthQueue({ queueName: "" })).message).toBe(
      `test/queue: queueName = "" is invalid: an empty name is not allowed: give 1–80 characters (an SQS standard queue name: letters, digits, '-' and '_') [AWS_NAME]`,
    );
  });

  test("kmsKey: InterruptionQueueKmsKey.create() creates a key EventBridge may use and the account administers", () => {
    const { json, queue, stack } = synthQueue({ kmsKey: InterruptionQueueKmsKey.create(), tags: { team: "platform" } });
    const key = onlyResource(json, "aws_kms_key");
    const keyRef = `\${aws_kms_key.${Object.keys(resources(json, "aws_kms_key"))[0]}.arn}`;
    expect(key.enable_key_rotation).toBe(true);
    expect(key.tags).toEqual({ team: "platform" });
    const statements = JSON.parse(key.policy).Statement;
    expect(statements[0].Principal.AWS).toMatch(
      /^arn:\$\{data\.aws_partition\.[^.]+\.partition\}:iam::\$\{data\.aws_caller_identity\.[^.]+\.account_id\}:root$/,
    );
    expect(statements[0].Action).toBe("kms:*");
    const { Condition: condition, ...grant } = statements[1];
    expect(grant).toEqual({
      Sid: "AllowEventBridgeToEncrypt",
      Effect: "Allow",
      Principal: { Service: "events.amazonaws.com" },
      Action: ["kms:GenerateDataKey", "kms:Decrypt"],
      Resource: "*",
    });
    // confused-deputy protection: only this account's rules of this install may use the key
    const account = statements[0].Principal.AWS.match(/iam::(.*):root$/)[1];
    expect(condition.StringEquals).toEqual({ "aws:SourceAccount": account });
    const ruleNames = Object.values(resources(json, "aws_cloudwatch_event_rule")).map(
      (r) => (r as { name: string }).name,
    );
    expect(ruleNames).toHaveLength(5);
    const arns: string[] = condition.ArnEquals["aws:SourceArn"];
    const prefix = `arn:\${data.aws_partition.`;
    for (const arn of arns)
      expect(
        arn.startsWith(prefix) && arn.includes(`:events:\${data.aws_region.`) && arn.includes(`:${account}:rule/`),
      ).toBe(true);
    expect(arns.map((a) => a.split(":rule/")[1]).sort()).toEqual([...ruleNames].sort());
    const q = onlyResource(json, "aws_sqs_queue");
    expect(q.kms_master_key_id).toBe(keyRef);
    expect(q.sqs_managed_sse_enabled).toBeUndefined(); // conflicts with kms_master_key_id
    expect(resolvedReference(stack, queue.kmsKeyArn)).toBe(keyRef);
    expect(queue.kmsKey).toBe(queue.node.findChild("key"));
  });

  test("kmsKey: InterruptionQueueKmsKey.fromKeyArn() uses your key and creates none; an alias is rejected", () => {
    const keyArn = "arn:aws-us-gov:kms:us-gov-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab";
    const { json, queue } = synthQueue({ kmsKey: InterruptionQueueKmsKey.fromKeyArn(keyArn) });
    expect(resources(json, "aws_kms_key")).toEqual({});
    expect(onlyResource(json, "aws_sqs_queue").kms_master_key_id).toBe(keyArn);
    expect(queue.kmsKeyArn).toBe(keyArn);
    expect(() =>
      synthQueue({ kmsKey: InterruptionQueueKmsKey.fromKeyArn("arn:aws:kms:eu-west-1:123456789012:alias/karpenter") }),
    ).toThrow(/test\/queue: kmsKey = .* is invalid: a KMS key ARN/);
  });

  test("unknown version is an error listing the supported ones", () => {
    expect(() => synthQueue({ version: "0.37.0" })).toThrow(
      /test\/queue: version = "0\.37\.0" is invalid: .*1\.0, .*1\.14/,
    );
  });
  test("a missing cluster is a validation error, not a TypeError", () => {
    const { stack } = testStack();
    const error = thrown(() => new InterruptionQueue(stack, "queue", { queueName: "q" } as any));
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toBe(
      "test/queue: cluster = undefined is invalid: cluster is required: an IKarpenterCluster from KarpenterCluster.fromEksCluster(...) or .fromClusterName(...) [CLUSTER_REQUIRED]",
    );
  });

  test("tags follow the AWS rules", () => {
    expect(() => synthQueue({ tags: { "aws:team": "x" } })).toThrow(
      /^test\/queue: tags\["aws:team"\] = "x" is invalid: the key "aws:team" is reserved: tag keys starting with "aws:"/,
    );
    expect(() => synthQueue({ tags: { "": "x" } })).toThrow(
      /^test\/queue: tags\[""\] = "x" is invalid: the key "" is empty: a tag key has 1 to 128 characters/,
    );
    expect(onlyResource(synthQueue({ tags: { "team:aws": "x" } }).json, "aws_sqs_queue").tags).toEqual({
      "team:aws": "x",
    });
  });
});
