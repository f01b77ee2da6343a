import { ExistingNodeRole } from "./karpenter-node-role";
import { InterruptionQueueKmsKey } from "./interruption-queue-kms-key";
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
   * A customer-managed KMS key: {@link InterruptionQueueKmsKey.create} (created with the queue) or
   * {@link InterruptionQueueKmsKey.fromKeyArn} (yours); the controller gets `kms:Decrypt` on it either way.
   * @default unset: SQS-managed SSE (as upstream)
   */
  readonly kmsKey?: InterruptionQueueKmsKey;
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

/** What an {@link InterruptionQueueConfig} holds. */
export enum InterruptionQueueMode {
  /** A queue the install creates: {@link InterruptionQueueConfig.create}. */
  CREATE = "create",
  /** A queue you already have: {@link InterruptionQueueConfig.existing}. */
  EXISTING = "existing",
  /** No queue, no interruption handling: {@link InterruptionQueueConfig.disabled}. */
  DISABLED = "disabled",
}

/**
 * The interruption queue of a {@link Karpenter} install, for `KarpenterProps.interruptionQueue`: one the
 * install creates ({@link InterruptionQueueConfig.create}, the default), one you already have
 * ({@link InterruptionQueueConfig.existing}), or none ({@link InterruptionQueueConfig.disabled}).
 *
 * A class with factories rather than `boolean | options | existing queue`, so that Java, C# and Go get a
 * type (jsii passes unions to them untyped). The factories only record the choice: the Karpenter
 * construct checks the options with its other props, so that its error names the construct path and
 * every problem at once.
 */
export class InterruptionQueueConfig {
  /**
   * An SQS queue with its EventBridge rules, created by the install (as upstream's getting-started
   * CloudFormation): the controller policy names it, `settings.interruptionQueue` is its name.
   * @param options its name, rule name prefix and KMS key (see `InterruptionQueueProps`); all optional
   */
  public static create(options: KarpenterInterruptionQueueOptions = {}): InterruptionQueueConfig {
    return new InterruptionQueueConfig(InterruptionQueueMode.CREATE, options, undefined);
  }

  /**
   * A queue you already have (shared, or made by another tool): nothing is created; the controller
   * policy's queue statement names it and `settings.interruptionQueue` is its name. It must already
   * receive the interruption events.
   * @param queue its name, ARN and KMS key
   */
  public static existing(queue: KarpenterExistingInterruptionQueue): InterruptionQueueConfig {
    return new InterruptionQueueConfig(InterruptionQueueMode.EXISTING, undefined, queue);
  }

  /**
   * No interruption handling: no queue, no rules, no queue statement in the controller policy, no
   * `settings.interruptionQueue`. Karpenter then learns of a spot interruption only when the node goes.
   */
  public static disabled(): InterruptionQueueConfig {
    return new InterruptionQueueConfig(InterruptionQueueMode.DISABLED, undefined, undefined);
  }

  /** Which of the three this is. */
  public readonly mode: InterruptionQueueMode;
  /** The options of a created queue (`create()`); undefined otherwise. */
  public readonly createOptions?: KarpenterInterruptionQueueOptions;
  /** The queue you have (`existing()`); undefined otherwise. */
  public readonly existingQueue?: KarpenterExistingInterruptionQueue;

  private constructor(
    mode: InterruptionQueueMode,
    createOptions: KarpenterInterruptionQueueOptions | undefined,
    existingQueue: KarpenterExistingInterruptionQueue | undefined,
  ) {
    this.mode = mode;
    this.createOptions = createOptions;
    this.existingQueue = existingQueue;
  }
}
