import { Construct } from "constructs";
import { ITerraformDependable, Lazy, TerraformProvider } from "cdktf";
import { SqsQueue } from "@cdktf/provider-aws/lib/sqs-queue";
import { SqsQueuePolicy } from "@cdktf/provider-aws/lib/sqs-queue-policy";
import { CloudwatchEventRule } from "@cdktf/provider-aws/lib/cloudwatch-event-rule";
import { CloudwatchEventTarget } from "@cdktf/provider-aws/lib/cloudwatch-event-target";
import type { KmsKey } from "@cdktf/provider-aws/lib/kms-key";
import type { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { IKarpenterCluster } from "../cluster/karpenter-cluster";
import { awsContext } from "../aws-api/aws-context";
import { useProvider } from "../core/provider-choice";
import { policyJson } from "../aws-api/iam";
import {
  eventPattern,
  interruptionEvents,
  QUEUE_POLICY_ID,
  QUEUE_RETENTION_SECONDS,
  queuePolicyStatements,
  RULE_PREFIX,
} from "./interruption-events";
import { checkOptionKeys, checkTags } from "../aws-api/input-checks";
import { checkQueueKmsKey, createsQueueKey, InterruptionQueueKmsKey } from "./interruption-queue-kms-key";
import { Problems } from "../core/problems";
import { checkedByOwner } from "../core/owner-context";
import { undoOnError } from "../core/undo-on-error";
import { asPartProblems } from "../core/owner-context";
import { INTERRUPTION_QUEUE_PROPS } from "../core/prop-keys";
import { checkName } from "../aws-api/names";
import { clusterNameWithin, NAME_RULES, nameFromCluster } from "../aws-api/resource-names";
import { resolveKarpenterVersion } from "../versions/karpenter-version";
import { awsProviderFor } from "../cluster/aws-provider";
import { requireCluster } from "../cluster/require-cluster";
import { queueTagReceivers } from "./tag-receivers";
import { checkPropsReadable, settledProps } from "../core/readable-props";

/** Props of {@link InterruptionQueue}. */
export interface InterruptionQueueProps {
  /** The cluster whose nodes' interruption events the queue receives. */
  readonly cluster: IKarpenterCluster;
  /**
   * The Karpenter version, `"1.14.1"`: it selects the event rules (4 before 1.10, 5 from 1.10;
   * Karpenter getting-started CloudFormation of that version).
   * @default DEFAULT_KARPENTER_VERSION ("1.15.3")
   */
  readonly version?: string;
  /**
   * The SQS queue name (1–80 characters: letters, digits, `-`, `_`; no `.fifo`, which only FIFO
   * queues have: this is a standard queue, SQS CreateQueue `QueueName`). It is the chart's
   * `settings.interruptionQueue`.
   * @default the cluster name (as upstream); set it when the cluster name is longer than 80 characters
   */
  readonly queueName?: string;
  /**
   * The start of every EventBridge rule name: rules are named `<prefix>-<event>` (event keys up to
   * 19 characters, e.g. `SpotInterruption`), so the prefix has 1–44 characters: letters, digits, `.`, `-`, `_`.
   * @default `Karpenter-<cluster name>`, the cluster name shortened with a hash suffix when longer than 34 characters
   */
  readonly ruleNamePrefix?: string;
  /**
   * Encryption at rest with a customer-managed KMS key: {@link InterruptionQueueKmsKey.create} (a key
   * created with the queue) or {@link InterruptionQueueKmsKey.fromKeyArn} (your key; see there what its
   * policy needs). Either way {@link InterruptionQueue.kmsKeyArn} is set, and `KarpenterControllerRole`
   * then grants the controller `kms:Decrypt` on it.
   * @default unset: SQS-managed SSE (as upstream)
   */
  readonly kmsKey?: InterruptionQueueKmsKey;
  /**
   * Tags for the queue, the rules and a created key: at most 50, keys of 1–128 characters not
   * starting with `aws:`, values of at most 256 characters (AWS tag rules).
   * @default none
   */
  readonly tags?: Record<string, string>;
  /**
   * The AWS provider of the cluster's region and account, for every resource and data source of
   * this construct.
   * @default the cluster's (the `provider` of its `EksCluster` or `DataAwsEksCluster`, the stack's default when it
   * names none) when the cluster is in this stack; else the stack's default AWS provider, which must
   * then be its only one (synth fails naming this prop otherwise)
   */
  readonly provider?: AwsProvider;
}

/**
 * Karpenter's interruption queue: an SQS queue that EventBridge fills with the events that warn
 * of node loss (spot interruption, rebalance recommendation, scheduled health events, instance
 * state changes, and from 1.10 capacity-reservation interruptions), so that the controller
 * cordons and drains ahead of time.
 *
 * Creates `aws_sqs_queue` (300 s retention, SQS-managed SSE or a KMS key), `aws_sqs_queue_policy`
 * (`sqs:SendMessage` from `events.amazonaws.com` and `sqs.amazonaws.com`, `DenyHTTP` without TLS),
 * and one `aws_cloudwatch_event_rule` + `aws_cloudwatch_event_target` per event type of the version.
 * Source: Karpenter getting-started CloudFormation, v1.0–v1.14.
 *
 * @throws KarpenterValidationError (every problem of the props in one error, thrown before anything is
 * created: a caller that catches it finds neither this construct nor the shared data sources in the tree) for a prop outside the props interface (with a "did you mean" when one is close), a missing `cluster`, an unknown version, a literal queue name or rule prefix that
 * breaks the AWS rules (including a default queue name that gets too long), a malformed key ARN, or
 * tags that break the AWS tag rules
 */
export class InterruptionQueue extends Construct {
  /** The `aws_sqs_queue`. */
  public readonly queue: SqsQueue;
  /** The queue name (a reference): the chart's `settings.interruptionQueue`. */
  public readonly queueName: string;
  /**
   * The queue's ARN, `arn:<partition>:sqs:<region>:<account>:<queue name>` (a reference): what IAM
   * statements and EventBridge targets name.
   */
  public readonly queueArn: string;
  /**
   * The queue's URL, `https://sqs.<region>.<DNS suffix>/<account>/<queue name>` (a reference): what
   * the SQS API and `aws_sqs_queue_policy` take.
   */
  public readonly queueUrl: string;
  /** The `aws_sqs_queue_policy`. */
  public readonly queuePolicy: SqsQueuePolicy;
  /** One EventBridge rule per event type of the version, in upstream order. */
  public readonly rules: CloudwatchEventRule[];
  /** The target of each rule (same order): the queue. */
  public readonly targets: CloudwatchEventTarget[];
  /** The customer-managed KMS key ARN, when `kmsKey` is set. */
  public readonly kmsKeyArn?: string;
  /** The created KMS key, with `kmsKey: InterruptionQueueKmsKey.create()`. */
  public readonly kmsKey?: KmsKey;
  /** What the controller must wait for: the queue policy and the event targets. */
  public readonly dependables: ITerraformDependable[];
  /** The Karpenter version the rules were chosen for, e.g. `"1.14.1"`. */
  public readonly version: string;

  constructor(scope: Construct, id: string, props: InterruptionQueueProps) {
    super(scope, id);
    const undo = undoOnError(this);
    try {
      // every problem of the props at once, before the first resource
      const problems = new Problems();
      // built by a Karpenter, which checked its tags and the queue's kmsKey (checkKarpenterProps): they run there only
      const own = !checkedByOwner(this);
      // a place that throws when read is refused first, alone: every check below would crash on it (a Karpenter
      // refused unreadable props before passing them on)
      if (own) {
        checkPropsReadable(this, props, INTERRUPTION_QUEUE_PROPS);
        // read once: what is checked is what is written (a Karpenter passes its settled props down)
        props = settledProps(props, INTERRUPTION_QUEUE_PROPS);
      }
      problems.check(() => checkOptionKeys(this, "", props, INTERRUPTION_QUEUE_PROPS));
      const cluster = problems.check(() => requireCluster(this, props));
      const version = problems.check(() => resolveKarpenterVersion(this, props?.version));
      if (own) problems.check(() => checkTags(this, props?.tags, queueTagReceivers(createsQueueKey(props?.kmsKey))));
      if (own) problems.check(() => checkQueueKmsKey(this, "kmsKey", props?.kmsKey));
      const name =
        cluster && problems.check(() => nameFromCluster(this, "sqsQueue", "queueName", props.queueName, cluster, ""));
      const rulePrefix = cluster && problems.check(() => this.rulePrefix(props.ruleNamePrefix, cluster));
      const provider = cluster && problems.check(() => awsProviderFor(scope, this, cluster, props.provider));
      problems.throwIfAny(this); // the catch below undoes the construct
      if (!cluster || !version || name === undefined || rulePrefix === undefined)
        throw new Error("unreachable: a failed check is thrown above");
      this.version = version.full;

      const events = interruptionEvents(version);
      if (createsQueueKey(props.kmsKey)) {
        // the rules' names as synthesized: adoption (or an escape hatch) may rename a rule after this
        this.kmsKey = this.createKey(provider, () => this.rules.map((r) => r.nameInput ?? r.name), props.tags);
        this.kmsKeyArn = this.kmsKey.arn;
      } else if (props.kmsKey?.keyArn !== undefined) {
        this.kmsKeyArn = props.kmsKey.keyArn;
      }

      this.queue = new SqsQueue(this, "queue", {
        name,
        messageRetentionSeconds: QUEUE_RETENTION_SECONDS,
        ...(this.kmsKeyArn ? { kmsMasterKeyId: this.kmsKeyArn } : { sqsManagedSseEnabled: true }),
        tags: props.tags,
      });
      this.queueName = this.queue.name;
      this.queueArn = this.queue.arn;
      this.queueUrl = this.queue.url;

      this.queuePolicy = new SqsQueuePolicy(this, "policy", {
        queueUrl: this.queue.url,
        policy: policyJson(queuePolicyStatements(this.queue.arn), QUEUE_POLICY_ID),
      });

      this.rules = [];
      this.targets = [];
      for (const event of events) {
        const rule = new CloudwatchEventRule(this, `rule-${event.key}`, {
          name: `${rulePrefix}-${event.key}`,
          description: `Karpenter interruption handling: sends "${event.detailType}" events to the interruption queue`,
          eventPattern: JSON.stringify(eventPattern(event)),
          tags: props.tags,
        });
        this.rules.push(rule);
        this.targets.push(
          new CloudwatchEventTarget(this, `target-${event.key}`, {
            rule: rule.name,
            arn: this.queue.arn,
            targetId: "KarpenterInterruptionQueueTarget",
          }),
        );
      }
      this.dependables = [this.queuePolicy, ...this.targets];
      useProvider(this, "aws", provider);
    } catch (e) {
      // a caller that catches the error must find nothing half-built, nor the shared data sources made for it
      undo();
      // built by a composite (Karpenter): told on it, under its prop
      throw asPartProblems(this, e);
    }
  }

  private rulePrefix(given: string | undefined, cluster: IKarpenterCluster): string {
    const rule = NAME_RULES.eventRule;
    if (given !== undefined) {
      checkName(this, "ruleNamePrefix", given, RULE_PREFIX.max, rule.pattern, RULE_PREFIX.text, RULE_PREFIX.limit);
      return given;
    }
    const head = "Karpenter-";
    return `${head}${clusterNameWithin(cluster, RULE_PREFIX.max - head.length)}`;
  }

  /**
   * The queue's key. Key policy: the account administers the key through IAM (the default key
   * policy statement, which also lets the controller role's `kms:Decrypt` grant work), and
   * EventBridge may `kms:GenerateDataKey` and `kms:Decrypt` — which it needs to send to a queue
   * encrypted with a customer-managed key (Amazon SQS Developer Guide, "Amazon SQS key management")
   * — only for this account's rules of this install (`aws:SourceAccount`, `aws:SourceArn`: the
   * confused-deputy protection the EventBridge User Guide recommends, "Authorizing EventBridge to
   * use a customer managed key").
   * The ARNs are built from the names (known at plan, no dependency of the key on the rules), read
   * at synth so that a rule renamed after construction (an adopted rule keeps its own name) is the
   * one allowed.
   * @param provider the AWS provider of the queue (its account and region are the key's)
   * @param ruleNames the names of the install's EventBridge rules, read at synth
   */
  private createKey(
    provider: TerraformProvider | undefined,
    ruleNames: () => string[],
    tags?: Record<string, string>,
  ): KmsKey {
    // loaded only here: a large module that installs with SQS-managed encryption (the default) never need
    const { KmsKey } = require("@cdktf/provider-aws/lib/kms-key") as typeof import("@cdktf/provider-aws/lib/kms-key");
    const ctx = awsContext(this, provider);
    const ruleArns = () =>
      ruleNames().map((n) => `arn:${ctx.partition}:events:${ctx.region}:${ctx.accountId}:rule/${n}`);
    return new KmsKey(this, "key", {
      description: "Karpenter interruption queue encryption",
      enableKeyRotation: true,
      policy: Lazy.stringValue({
        produce: () =>
          policyJson([
            {
              Sid: "AllowAccountAdministration",
              Effect: "Allow",
              Principal: { AWS: `arn:${ctx.partition}:iam::${ctx.accountId}:root` },
              Action: "kms:*",
              Resource: "*",
            },
            {
              Sid: "AllowEventBridgeToEncrypt",
              Effect: "Allow",
              Principal: { Service: "events.amazonaws.com" },
              Action: ["kms:GenerateDataKey", "kms:Decrypt"],
              Resource: "*",
              Condition: {
                StringEquals: { "aws:SourceAccount": ctx.accountId },
                ArnEquals: { "aws:SourceArn": ruleArns() },
              },
            },
          ]),
      }),
      tags,
    });
  }
}
