import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../errors";
import { KarpenterExistingInterruptionQueue, KarpenterInterruptionQueueOptions } from "../karpenter-options";
import { isPlainMap } from "./deep-merge";
import { checkKmsKeyArn } from "./input-checks";
import { isUnresolved } from "./tokens";
import { CREATED_QUEUE_OPTIONS, EXISTING_QUEUE_OPTIONS } from "./prop-keys";

/*
 * The `interruptionQueue` prop of Karpenter: on, off, options of the queue it creates, or a queue
 * you already have. Checked key by key, because a key of the other shape (`kmsKeyArn` with a created
 * queue) would otherwise be silently ignored.
 */

const CREATED_KEYS: readonly string[] = CREATED_QUEUE_OPTIONS;
const EXISTING_KEYS: readonly string[] = EXISTING_QUEUE_OPTIONS;
const SHAPES = "true, false, options of the created queue { queueName?, ruleNamePrefix?, kmsKey? }, or a queue of your own { existingQueueName, existingQueueArn, kmsKeyArn? }";
/** An SQS standard queue name (SQS CreateQueue API). */
const SQS_NAME = /^[A-Za-z0-9_-]{1,80}$/;
/** An SQS queue ARN; group 1 is the queue name. */
const SQS_ARN = /^arn:aws[a-z-]*:sqs:[a-z0-9-]+:\d{12}:([A-Za-z0-9_-]{1,80})$/;

/**
 * What `interruptionQueue` asks for: `{}` (a created queue with default options) for `true` or
 * unset, undefined for `false`, else the checked options or existing queue.
 * @throws KarpenterValidationError for another type, an unknown key, or a bad existing queue
 */
export function queueOptionsOf(
  scope: IConstruct,
  option: boolean | KarpenterInterruptionQueueOptions | KarpenterExistingInterruptionQueue | undefined,
): KarpenterInterruptionQueueOptions | KarpenterExistingInterruptionQueue | undefined {
  if (option === undefined || option === true) return {};
  if (option === false) return undefined;
  if (!isPlainMap(option)) throw new KarpenterValidationError(scope, "interruptionQueue", option, SHAPES);
  if (!("existingQueueName" in option) && !("existingQueueArn" in option)) return checkCreatedQueue(scope, option);
  return checkExistingQueue(scope, option);
}

function checkCreatedQueue(scope: IConstruct, q: Record<string, unknown>): KarpenterInterruptionQueueOptions {
  const extra = Object.keys(q).find((k) => !CREATED_KEYS.includes(k) && q[k] !== undefined);
  if (extra !== undefined) {
    const hint = extra === "kmsKeyArn" ? " (your own key of a created queue is kmsKey: { keyArn })" : "";
    throw new KarpenterValidationError(scope, `interruptionQueue.${extra}`, q[extra], `not a key of the created queue's options${hint}: the allowed keys are { queueName?, ruleNamePrefix?, kmsKey? }, or { existingQueueName, existingQueueArn, kmsKeyArn? } for a queue you already have`);
  }
  return q as KarpenterInterruptionQueueOptions;
}

function checkExistingQueue(scope: IConstruct, q: Record<string, unknown>): KarpenterExistingInterruptionQueue {
  const extra = Object.keys(q).find((k) => !EXISTING_KEYS.includes(k) && q[k] !== undefined);
  if (extra !== undefined) {
    throw new KarpenterValidationError(scope, `interruptionQueue.${extra}`, q[extra], "not with an existing queue: { existingQueueName, existingQueueArn, kmsKeyArn? } only (nothing is created, so there is nothing to name or encrypt)");
  }
  const { existingQueueName: name, existingQueueArn: arn, kmsKeyArn } = q;
  if (typeof name !== "string") throw new KarpenterValidationError(scope, "interruptionQueue.existingQueueName", name, "the existing queue's name (required with existingQueueArn)");
  if (typeof arn !== "string") throw new KarpenterValidationError(scope, "interruptionQueue.existingQueueArn", arn, "the existing queue's ARN, arn:<partition>:sqs:<region>:<account>:<name> (required with existingQueueName)");
  if (!isUnresolved(name) && !SQS_NAME.test(name)) {
    throw new KarpenterValidationError(scope, "interruptionQueue.existingQueueName", name, "an SQS standard queue name: 1 to 80 letters, digits, '-' and '_'");
  }
  const arnName = isUnresolved(arn) ? undefined : SQS_ARN.exec(arn)?.[1];
  if (!isUnresolved(arn) && arnName === undefined) {
    throw new KarpenterValidationError(scope, "interruptionQueue.existingQueueArn", arn, "an SQS queue ARN, arn:<partition>:sqs:<region>:<12-digit account>:<queue name> (not the queue URL)");
  }
  if (arnName !== undefined && !isUnresolved(name) && arnName !== name) {
    throw new KarpenterValidationError(scope, "interruptionQueue.existingQueueName", name, `the name in existingQueueArn ("${arnName}"): the controller reads the queue by name and is allowed on it by ARN, so both must be the same queue`);
  }
  if (kmsKeyArn !== undefined) checkKmsKeyArn(scope, "interruptionQueue.kmsKeyArn", kmsKeyArn);
  return { existingQueueName: name, existingQueueArn: arn, kmsKeyArn: kmsKeyArn as string | undefined };
}
