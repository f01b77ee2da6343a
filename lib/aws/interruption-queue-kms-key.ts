import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../core/errors";
import { checkKmsKeyArn } from "../aws-api/input-checks";

/**
 * The customer-managed KMS key of a created interruption queue: one this library creates
 * ({@link InterruptionQueueKmsKey.create}) or one you manage ({@link InterruptionQueueKmsKey.fromKeyArn}).
 * Leave `kmsKey` unset for SQS-managed SSE (as upstream). Either key makes the controller role grant
 * `kms:Decrypt` on it, and sets {@link InterruptionQueue.kmsKeyArn}.
 *
 * A class with factories rather than `true | { keyArn }`, so that Java, C# and Go get a type (jsii
 * passes unions to them untyped). The ARN is checked by the construct that receives the key, where the
 * error can name the construct path and the field.
 */
export class InterruptionQueueKmsKey {
  /**
   * A customer-managed key created with the queue: rotation on; key policy: the account root administers
   * it, and EventBridge may `kms:GenerateDataKey` and `kms:Decrypt` — which it needs to send to a queue
   * encrypted with a customer-managed key (Amazon SQS Developer Guide, "Amazon SQS key management") —
   * only for this install's rules (`aws:SourceAccount` is the account, `aws:SourceArn` one of the rule ARNs).
   */
  public static create(): InterruptionQueueKmsKey {
    return new InterruptionQueueKmsKey(true, undefined);
  }

  /**
   * A key you manage.
   * @param keyArn the key ARN, `arn:<partition>:kms:<region>:<account>:key/<id>` (not an alias: IAM grants
   * `kms:Decrypt` on key ARNs), or a reference to one. Its key policy must let `events.amazonaws.com`
   * call `kms:GenerateDataKey` and `kms:Decrypt` (EventBridge sends to an encrypted queue only with a
   * customer-managed key whose policy allows it: Amazon SQS Developer Guide, "Configure KMS permissions
   * for AWS services"), and must let IAM policies of the account grant access (the default
   * `arn:<partition>:iam::<account>:root` statement), because the controller role gets `kms:Decrypt`
   * through its identity policy. A malformed literal ARN is refused by the construct that receives the key.
   */
  public static fromKeyArn(keyArn: string): InterruptionQueueKmsKey {
    return new InterruptionQueueKmsKey(false, keyArn);
  }

  /** Whether the key is created with the queue (`create()`). */
  public readonly createsKey: boolean;
  /** The ARN of your key (`fromKeyArn()`); undefined for a created key, whose ARN is `InterruptionQueue.kmsKeyArn`. */
  public readonly keyArn?: string;

  private constructor(createsKey: boolean, keyArn: string | undefined) {
    this.createsKey = createsKey;
    this.keyArn = keyArn;
  }
}

/** Whether `kmsKey` asks for a created key. */
export function createsQueueKey(kmsKey: unknown): boolean {
  return kmsKey instanceof InterruptionQueueKmsKey && kmsKey.createsKey;
}

/**
 * The `kmsKey` of a created interruption queue: unset, or an {@link InterruptionQueueKmsKey}. The shapes of
 * 0.x before the jsii change (`true`, `false`, `{ keyArn }`) are refused with what to write instead.
 * @throws KarpenterValidationError naming `<field>`
 */
export function checkQueueKmsKey(scope: IConstruct, field: string, kmsKey: unknown): void {
  if (kmsKey === undefined) return;
  if (kmsKey instanceof InterruptionQueueKmsKey) {
    if (!kmsKey.createsKey) checkKmsKeyArn(scope, field, kmsKey.keyArn);
    return;
  }
  const arn = kmsKey !== null && typeof kmsKey === "object" ? (kmsKey as { keyArn?: unknown }).keyArn : undefined;
  const instead =
    kmsKey === true
      ? ": write InterruptionQueueKmsKey.create() for a created key"
      : kmsKey === false
        ? ": leave kmsKey unset for SQS-managed SSE"
        : typeof arn === "string"
          ? `: write InterruptionQueueKmsKey.fromKeyArn(${JSON.stringify(arn)}) for your own key`
          : "";
  throw new KarpenterValidationError(
    "INTERRUPTION_QUEUE_KMS_KEY",
    scope,
    field,
    kmsKey,
    `InterruptionQueueKmsKey.create() (a key created with the queue) or InterruptionQueueKmsKey.fromKeyArn(arn) (your key), or unset for SQS-managed SSE${instead}`,
  );
}
