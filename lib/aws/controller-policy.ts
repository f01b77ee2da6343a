import { knownMinors, versionData } from "../versions";
import { IamStatementJson } from "../aws-api/iam";
import { KarpenterVersion } from "../versions/karpenter-version";

/*
 * The Karpenter controller's IAM permissions per minor: the statements (same Sids, actions,
 * resources and conditions, in upstream order) of the getting-started CloudFormation template of
 * aws/karpenter-provider-aws at each release tag
 * (website/content/en/<v>/getting-started/getting-started-with-karpenter/cloudformation.yaml), as
 * `npm run add-version` put them into lib/versions/data/, with the errata corrections applied
 * (docs/versions.md#errata).
 *
 * Layout: upstream ships one managed policy before 1.9 and five (six from 1.12) from 1.9. The
 * pre-1.9 single policy exceeds the 6,144-character managed-policy limit for long cluster names in
 * aws-us-gov, so every version uses the 1.9+ grouping here (a statement of a pre-1.9 release goes to
 * the group its Sid has in the newest known release); only the statements follow the version.
 */

/** The values the statements are written in terms of (usually Terraform references). */
export interface ControllerPolicySymbols {
  /** `aws`, `aws-cn` or `aws-us-gov`. */
  readonly partition: string;
  /** The region the cluster runs in. */
  readonly region: string;
  /** The 12-digit account ID. */
  readonly account: string;
  /** The EKS cluster name. */
  readonly clusterName: string;
  /** The EKS cluster ARN. */
  readonly clusterArn: string;
  /** The ARN of the role Karpenter nodes get (the controller passes it to EC2). */
  readonly nodeRoleArn: string;
  /** The interruption queue ARN; absent = no interruption handling, so no queue statement. */
  readonly queueArn?: string;
  /** The customer-managed KMS key of the queue, if any: the controller needs `kms:Decrypt` on it to receive. */
  readonly kmsKeyArn?: string;
}

/** One managed policy: `NodeLifecycle` → upstream `KarpenterControllerNodeLifecyclePolicy-<cluster>`. */
export type ControllerPolicyGroupKey = string;

/** The statements of one managed policy. */
export interface ControllerPolicyGroup {
  readonly key: ControllerPolicyGroupKey;
  readonly statements: IamStatementJson[];
}

/** Our own Sid for `kms:Decrypt` on a customer-managed queue key (upstream has no KMS option). */
export const QUEUE_KEY_DECRYPT_SID = "AllowInterruptionQueueDecryption";

/** The group of the interruption queue statement, where the KMS statement goes too. */
const INTERRUPTION_GROUP = "Interruption";

/** Sid → group of the newest known release that has the Sid grouped (the 1.9+ layout). */
function groupOfSid(sid: string, newestFirst: readonly string[]): string | undefined {
  for (const minor of newestFirst) {
    const p = versionData(minor).controllerPolicies.find((x) => x.name && x.statements.some((st) => st.Sid === sid));
    if (p) return p.name;
  }
  return undefined;
}

/**
 * The controller policy of Karpenter version `v`, grouped into managed policies in upstream order
 * (empty groups are left out: ZonalShift before 1.12, Interruption without a queue).
 */
export function controllerPolicyGroups(v: KarpenterVersion, s: ControllerPolicySymbols): ControllerPolicyGroup[] {
  const data = versionData(v.factsMinor);
  const newestFirst = knownMinors().reverse();
  const groups = new Map<string, IamStatementJson[]>();
  // group order: the newest known layout's, so pre-1.9 releases get the same policies
  const layout = versionData(newestFirst[0])
    .controllerPolicies.map((p) => p.name!)
    .filter(Boolean);
  for (const g of layout) groups.set(g, []);
  for (const policy of data.controllerPolicies) {
    for (const raw of policy.statements) {
      if (s.queueArn === undefined && JSON.stringify(raw).includes("{queue_arn}")) continue;
      const key = policy.name ?? groupOfSid(raw.Sid, newestFirst) ?? "ResourceDiscovery";
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key)!.push(substitute(raw, s) as IamStatementJson);
    }
  }
  // receiving from a queue encrypted with a customer-managed key needs kms:Decrypt on that key
  if (s.queueArn !== undefined && s.kmsKeyArn) {
    if (!groups.has(INTERRUPTION_GROUP)) groups.set(INTERRUPTION_GROUP, []);
    groups
      .get(INTERRUPTION_GROUP)!
      .push({ Sid: QUEUE_KEY_DECRYPT_SID, Effect: "Allow", Resource: s.kmsKeyArn, Action: "kms:Decrypt" });
  }
  return [...groups].filter(([, st]) => st.length > 0).map(([key, statements]) => ({ key, statements }));
}

const CLUSTER_ARN = "arn:{partition}:eks:{region}:{account}:cluster/{cluster}";

/** The data's symbols replaced by the values (usually Terraform references) of `s`. */
function substitute(v: unknown, s: ControllerPolicySymbols): unknown {
  if (Array.isArray(v)) return v.map((x) => substitute(x, s));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [substitute(k, s), substitute(x, s)]));
  if (typeof v !== "string") return v;
  if (v === CLUSTER_ARN) return s.clusterArn;
  const values: Record<string, string | undefined> = {
    partition: s.partition,
    region: s.region,
    account: s.account,
    cluster: s.clusterName,
    node_role_arn: s.nodeRoleArn,
    queue_arn: s.queueArn,
  };
  return v.replace(/\{([a-z_]+)\}/g, (_m, k: string) => {
    const value = values[k];
    if (value === undefined) throw new Error(`controller policy data uses {${k}}, which has no value here`);
    return value;
  });
}
