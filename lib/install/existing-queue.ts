import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../core/errors";
import {
  InterruptionQueueConfig,
  InterruptionQueueMode,
  KarpenterExistingInterruptionQueue,
  KarpenterInterruptionQueueOptions,
} from "../aws/karpenter-options";
import { isPlainMap } from "../core/deep-merge";
import { checkKmsKeyArn } from "../aws-api/input-checks";
import { InterruptionQueueKmsKey } from "../aws/interruption-queue-kms-key";
import { Problems } from "../core/problems";
import { isUnresolved } from "../core/tokens";
import { CREATED_QUEUE_OPTIONS, EXISTING_QUEUE_OPTIONS } from "../core/prop-keys";

/*
 * The `interruptionQueue` prop of Karpenter: an InterruptionQueueConfig (a created queue and its
 * options, a queue you already have, or none). The options are checked key by key, because a key of
 * the other shape (`kmsKeyArn` with a created queue) would otherwise be silently ignored.
 */

const CREATED_KEYS: readonly string[] = CREATED_QUEUE_OPTIONS;
const EXISTING_KEYS: readonly string[] = EXISTING_QUEUE_OPTIONS;
const SHAPES =
  "InterruptionQueueConfig.create({ queueName?, ruleNamePrefix?, kmsKey? }) (the default), InterruptionQueueConfig.existing({ existingQueueName, existingQueueArn, kmsKeyArn? }) or InterruptionQueueConfig.disabled()";
/** An SQS standard queue name (SQS CreateQueue API). */
const SQS_NAME = /^[A-Za-z0-9_-]{1,80}$/;
/** An SQS queue ARN; group 1 is the queue name. */
const SQS_ARN = /^arn:aws[a-z-]*:sqs:[a-z0-9-]+:\d{12}:([A-Za-z0-9_-]{1,80})$/;

/**
 * What `interruptionQueue` asks for: the options of the created queue (`{}` when unset), the queue you
 * already have, or undefined for `disabled()`. Every problem is recorded in `problems` and options are
 * still returned (unknown keys left out; `{}` for a value of another type), so that the checks that
 * follow (the names of the created queue) report theirs too.
 */
export function queueOptionsOf(
  scope: IConstruct,
  option: unknown,
  problems: Problems,
): KarpenterInterruptionQueueOptions | KarpenterExistingInterruptionQueue | undefined {
  if (option === undefined) return {};
  if (!(option instanceof InterruptionQueueConfig)) {
    problems.add(
      new KarpenterValidationError(
        "INTERRUPTION_QUEUE_CONFIG",
        scope,
        "interruptionQueue",
        option,
        SHAPES + formerShape(option),
      ),
    );
    return {};
  }
  if (option.mode === InterruptionQueueMode.DISABLED) return undefined;
  if (option.mode === InterruptionQueueMode.CREATE) {
    const given: unknown = option.createOptions ?? {};
    if (isPlainMap(given)) return checkCreatedQueue(scope, given, problems);
    problems.add(
      new KarpenterValidationError(
        "INTERRUPTION_QUEUE_CONFIG",
        scope,
        "interruptionQueue",
        given,
        "InterruptionQueueConfig.create() with an options object { queueName?, ruleNamePrefix?, kmsKey? }",
      ),
    );
    return {};
  }
  const queue: unknown = option.existingQueue;
  if (!isPlainMap(queue)) {
    problems.add(
      new KarpenterValidationError(
        "INTERRUPTION_QUEUE_CONFIG",
        scope,
        "interruptionQueue",
        queue,
        "InterruptionQueueConfig.existing({ existingQueueName, existingQueueArn, kmsKeyArn? })",
      ),
    );
    return {};
  }
  problems.check(() => checkExistingQueue(scope, queue));
  return queue as unknown as KarpenterExistingInterruptionQueue;
}

/** What to write instead of a shape `interruptionQueue` took before it was a class (0.x). */
function formerShape(option: unknown): string {
  if (option === true) return ": write InterruptionQueueConfig.create() (or leave interruptionQueue unset)";
  if (option === false) return ": write InterruptionQueueConfig.disabled()";
  if (option instanceof InterruptionQueueKmsKey)
    return ": a KMS key goes inside, InterruptionQueueConfig.create({ kmsKey })";
  if (!isPlainMap(option)) return "";
  return "existingQueueArn" in option || "existingQueueName" in option
    ? ": wrap the queue in InterruptionQueueConfig.existing({ … })"
    : ": wrap the options in InterruptionQueueConfig.create({ … })";
}

/** The options of the queue a valid `interruptionQueue` creates, or undefined (none created, or not a config). */
export function createdQueueOptions(option: unknown): KarpenterInterruptionQueueOptions | undefined {
  if (option === undefined) return {};
  return option instanceof InterruptionQueueConfig && option.mode === InterruptionQueueMode.CREATE
    ? (option.createOptions ?? {})
    : undefined;
}

/** Whether `interruptionQueue` turns interruption handling off. */
export function queueDisabled(option: unknown): boolean {
  return option instanceof InterruptionQueueConfig && option.mode === InterruptionQueueMode.DISABLED;
}

function checkCreatedQueue(
  scope: IConstruct,
  q: Record<string, unknown>,
  problems: Problems,
): KarpenterInterruptionQueueOptions {
  const known: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(q)) {
    if (value === undefined) continue;
    if (CREATED_KEYS.includes(key)) {
      known[key] = value;
      continue;
    }
    const hint =
      key === "kmsKeyArn"
        ? " (your own key of a created queue is kmsKey: InterruptionQueueKmsKey.fromKeyArn(arn))"
        : key === "queueArn"
          ? " (a queue you already have is InterruptionQueueConfig.existing({ existingQueueName, existingQueueArn }))"
          : "";
    problems.add(
      new KarpenterValidationError(
        "INTERRUPTION_QUEUE_UNKNOWN_KEY",
        scope,
        `interruptionQueue.${key}`,
        value,
        `not a key of the created queue's options${hint}: the allowed keys are { queueName?, ruleNamePrefix?, kmsKey? }`,
      ),
    );
  }
  return known as KarpenterInterruptionQueueOptions;
}

/** Every problem of a queue you already have at once. */
function checkExistingQueue(scope: IConstruct, q: Record<string, unknown>): void {
  const problems = new Problems();
  for (const [key, value] of Object.entries(q)) {
    if (value === undefined || EXISTING_KEYS.includes(key)) continue;
    problems.add(
      new KarpenterValidationError(
        "INTERRUPTION_QUEUE_UNKNOWN_KEY",
        scope,
        `interruptionQueue.${key}`,
        value,
        "not with an existing queue: { existingQueueName, existingQueueArn, kmsKeyArn? } only (nothing is created, so there is nothing to name or encrypt)",
      ),
    );
  }
  const { existingQueueName: name, existingQueueArn: arn, kmsKeyArn } = q;
  if (typeof name !== "string")
    problems.add(
      new KarpenterValidationError(
        "INTERRUPTION_QUEUE_EXISTING",
        scope,
        "interruptionQueue.existingQueueName",
        name,
        "the existing queue's name (required with existingQueueArn)",
      ),
    );
  if (typeof arn !== "string")
    problems.add(
      new KarpenterValidationError(
        "INTERRUPTION_QUEUE_EXISTING",
        scope,
        "interruptionQueue.existingQueueArn",
        arn,
        "the existing queue's ARN, arn:<partition>:sqs:<region>:<account>:<name> (required with existingQueueName)",
      ),
    );
  const nameOk = typeof name === "string" && (isUnresolved(name) || SQS_NAME.test(name));
  if (typeof name === "string" && !nameOk) {
    problems.add(
      new KarpenterValidationError(
        "INTERRUPTION_QUEUE_EXISTING",
        scope,
        "interruptionQueue.existingQueueName",
        name,
        name === ""
          ? "an empty name is not allowed: give 1–80 characters (an SQS standard queue name: letters, digits, '-' and '_')"
          : "an SQS standard queue name: 1 to 80 letters, digits, '-' and '_'",
      ),
    );
  }
  const arnName = typeof arn !== "string" || isUnresolved(arn) ? undefined : SQS_ARN.exec(arn)?.[1];
  if (typeof arn === "string" && !isUnresolved(arn) && arnName === undefined) {
    problems.add(
      new KarpenterValidationError(
        "INTERRUPTION_QUEUE_EXISTING",
        scope,
        "interruptionQueue.existingQueueArn",
        arn,
        "an SQS queue ARN, arn:<partition>:sqs:<region>:<12-digit account>:<queue name> (not the queue URL)",
      ),
    );
  }
  if (arnName !== undefined && nameOk && !isUnresolved(name) && arnName !== name) {
    problems.add(
      new KarpenterValidationError(
        "INTERRUPTION_QUEUE_NAME_MISMATCH",
        scope,
        "interruptionQueue.existingQueueName",
        name,
        `the name in existingQueueArn ("${arnName}"): the controller reads the queue by name and is allowed on it by ARN, so both must be the same queue`,
      ),
    );
  }
  if (kmsKeyArn !== undefined) problems.check(() => checkKmsKeyArn(scope, "interruptionQueue.kmsKeyArn", kmsKeyArn));
  problems.throwIfAny(scope);
}
