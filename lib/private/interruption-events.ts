import { IamStatementJson } from "./iam";
import { KarpenterVersion } from "./version";
import { always, forVersion, since } from "./versioned";

/*
 * Interruption handling per minor, from the getting-started CloudFormation template of
 * aws/karpenter-provider-aws at each release tag: the queue (unchanged 1.0–1.14), its policy,
 * and the EventBridge rules whose events the controller handles (capacity reservation from 1.10).
 */

/** The queue's message retention: Karpenter acts on an interruption within minutes or not at all. */
export const QUEUE_RETENTION_SECONDS = 300;

/** One EventBridge rule of the template. */
export interface InterruptionEvent {
  /** Short stable key, used in rule names and construct ids (≤ 19 characters). */
  readonly key: string;
  /** The rule's logical id in the template, e.g. `SpotInterruptionRule`. */
  readonly logicalId: string;
  /** The event source, e.g. `aws.ec2`. */
  readonly source: string;
  /** The event detail-type, e.g. `EC2 Spot Instance Interruption Warning`. */
  readonly detailType: string;
}

const EVENTS = [
  always({ key: "ScheduledChange", logicalId: "ScheduledChangeRule", source: "aws.health", detailType: "AWS Health Event" }),
  always({ key: "SpotInterruption", logicalId: "SpotInterruptionRule", source: "aws.ec2", detailType: "EC2 Spot Instance Interruption Warning" }),
  always({ key: "Rebalance", logicalId: "RebalanceRule", source: "aws.ec2", detailType: "EC2 Instance Rebalance Recommendation" }),
  always({ key: "InstanceStateChange", logicalId: "InstanceStateChangeRule", source: "aws.ec2", detailType: "EC2 Instance State-change Notification" }),
  since("1.10", { key: "CapacityReservation", logicalId: "CapacityReservationInterruptionRule", source: "aws.ec2", detailType: "EC2 Capacity Reservation Instance Interruption Warning" }),
];

/** The longest {@link InterruptionEvent.key}: rule names leave room for it. */
export const MAX_EVENT_KEY_LENGTH = 19;

/** The events Karpenter version `v` handles, one EventBridge rule each, in template order. */
export function interruptionEvents(v: KarpenterVersion): InterruptionEvent[] {
  return forVersion<InterruptionEvent>(v, EVENTS);
}

/** The rule's event pattern, exactly as the template writes it. */
export function eventPattern(e: InterruptionEvent): { source: string[]; "detail-type": string[] } {
  return { source: [e.source], "detail-type": [e.detailType] };
}

/** The template's queue policy (`Id: EC2InterruptionPolicy`): who may send, and TLS only. */
export const QUEUE_POLICY_ID = "EC2InterruptionPolicy";

/** The statements of the queue policy for the queue `queueArn`. */
export function queuePolicyStatements(queueArn: string): IamStatementJson[] {
  return [
    { Effect: "Allow", Principal: { Service: ["events.amazonaws.com", "sqs.amazonaws.com"] }, Action: "sqs:SendMessage", Resource: queueArn },
    { Sid: "DenyHTTP", Effect: "Deny", Action: "sqs:*", Resource: queueArn, Condition: { Bool: { "aws:SecureTransport": "false" } }, Principal: "*" },
  ];
}
