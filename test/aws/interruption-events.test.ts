import {
  eventPattern,
  interruptionEvents,
  MAX_EVENT_KEY_LENGTH,
  QUEUE_POLICY_ID,
  QUEUE_RETENTION_SECONDS,
  queuePolicyStatements,
} from "../../lib/aws/interruption-events";
import { resolveKarpenterVersion } from "../../lib/versions/karpenter-version";
import { loadReference, referenceVersions, SYMBOLS } from "../cfn-reference";
import { describeWithReference } from "../reference";

const events = (version: string) => interruptionEvents(resolveKarpenterVersion("test", version));
const referenceVersionList = referenceVersions();
const withReference = describeWithReference(referenceVersionList);

withReference("interruption table = upstream CloudFormation, every reference version", () => {
  test.each(referenceVersionList)("%s: rules, queue and queue policy", (version) => {
    const ref = loadReference(version);
    expect(events(version).map((e) => ({ logicalId: e.logicalId, pattern: eventPattern(e) }))).toEqual(
      ref.rules.map((r) => ({ logicalId: r.logicalId, pattern: r.pattern })),
    );
    for (const r of ref.rules)
      expect(r.targets).toEqual([{ Id: "KarpenterInterruptionQueueTarget", Arn: SYMBOLS.queueArn }]);
    expect(ref.queue).toEqual({
      QueueName: "{cluster}",
      MessageRetentionPeriod: QUEUE_RETENTION_SECONDS,
      SqsManagedSseEnabled: true,
    });
    // upstream writes the Bool condition as a YAML boolean; IAM reads "false"
    const official = JSON.parse(JSON.stringify(ref.queuePolicy.Statement).replace(/:false\b/g, ':"false"'));
    expect(queuePolicyStatements(SYMBOLS.queueArn)).toEqual(official);
    expect(ref.queuePolicy.Id).toBe(QUEUE_POLICY_ID);
  });
});

describe("interruption table, spot checks", () => {
  test("4 event types before 1.10", () => {
    expect(events("1.9.2").map((e) => [e.source, e.detailType])).toEqual([
      ["aws.health", "AWS Health Event"],
      ["aws.ec2", "EC2 Spot Instance Interruption Warning"],
      ["aws.ec2", "EC2 Instance Rebalance Recommendation"],
      ["aws.ec2", "EC2 Instance State-change Notification"],
    ]);
  });

  test("capacity reservation interruptions from 1.10", () => {
    const all = events("1.10.0");
    expect(all).toHaveLength(5);
    expect(eventPattern(all[4])).toEqual({
      source: ["aws.ec2"],
      "detail-type": ["EC2 Capacity Reservation Instance Interruption Warning"],
    });
  });

  test("keys are unique and fit the room rule names leave for them", () => {
    const keys = events("1.14.1").map((e) => e.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(Math.max(...keys.map((k) => k.length))).toBe(MAX_EVENT_KEY_LENGTH);
  });
});
