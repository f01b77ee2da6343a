import { ExistingNodeRole } from "./karpenter-node-role";
import { InterruptionQueueKmsKey } from "./interruption-queue";
import { IamPolicyStatement } from "./controller-role-spec";

/*
 * The option objects of the Karpenter construct's props: how its node role, controller role and
 * interruption queue are shaped. Keys outside these interfaces are rejected at construction (a
 * non-literal object passes the TypeScript check, and a stray key would be silently ignored).
 */

/** The node role of a {@link Karpenter} install: created (default) or your own. */
export interface KarpenterNodeRoleOptions {
  /**
   * Name of the created role (1–64 characters). IAM names are account-wide: set it when the same
   * cluster name is installed in another region of the account.
   * @default `KarpenterNodeRole-<cluster name>` (as upstream)
   */
  readonly roleName?: string;
  /** Bring your own role: only the access entry is created (see `KarpenterNodeRoleProps.existingRole`). @default a role is created */
  readonly existingRole?: ExistingNodeRole;
  /** More policy ARNs for the created role (e.g. AmazonEBSCSIDriverPolicy). @default none */
  readonly additionalPolicyArns?: string[];
}

/** The controller role of a {@link Karpenter} install (see `KarpenterControllerRoleProps`). */
export interface KarpenterControllerRoleOptions {
  /**
   * The role name (1–64 characters). IAM names are account-wide: set it (and `policyNameSuffix`) when
   * the same cluster name is installed in another region of the account.
   * @default `KarpenterControllerRole-<cluster name>` (as upstream); set it for cluster names longer than 40 characters
   */
  readonly roleName?: string;
  /** What follows `KarpenterController<Group>Policy-` in the policy names. @default the cluster name */
  readonly policyNameSuffix?: string;
  /** Extra statements, in a managed policy of their own. @default none */
  readonly additionalStatements?: IamPolicyStatement[];
  /** More policy ARNs to attach. @default none */
  readonly additionalPolicyArns?: string[];
}

/** The interruption queue of a {@link Karpenter} install (see `InterruptionQueueProps`). */
export interface KarpenterInterruptionQueueOptions {
  /** The SQS queue name (1–80 characters: letters, digits, `-`, `_`; a standard queue, so no `.fifo`). @default the cluster name (as upstream) */
  readonly queueName?: string;
  /** The start of every EventBridge rule name (1–44 characters: letters, digits, `.`, `-`, `_`). @default `Karpenter-<cluster name>` */
  readonly ruleNamePrefix?: string;
  /**
   * `true`: a customer-managed KMS key is created; `{ keyArn }`: your key; the controller gets
   * `kms:Decrypt` on it either way.
   * @default SQS-managed SSE
   */
  readonly kmsKey?: boolean | InterruptionQueueKmsKey;
}

/**
 * An interruption queue you already have (e.g. shared, or made by another tool): no queue, policy or
 * EventBridge rules are created; the controller policy's queue statement names this queue and
 * `settings.interruptionQueue` is its name. The queue must already receive the interruption events
 * (spot interruption, rebalance, instance state change, health, and from 1.10 capacity reservation).
 */
export interface KarpenterExistingInterruptionQueue {
  /** The queue's name (1–80 letters, digits, `-`, `_`), the last segment of `existingQueueArn`. */
  readonly existingQueueName: string;
  /** The queue's ARN, `arn:<partition>:sqs:<region>:<account>:<name>`. */
  readonly existingQueueArn: string;
  /**
   * The customer-managed KMS key the queue is encrypted with: the controller gets `kms:Decrypt` on it.
   * @default none (SQS-managed SSE or no encryption)
   */
  readonly kmsKeyArn?: string;
}
