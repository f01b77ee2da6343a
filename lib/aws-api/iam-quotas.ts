import { Construct, IConstruct } from "constructs";
import { Annotations, TerraformStack, Token } from "cdktf";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicyAttachment } from "@cdktf/provider-aws/lib/iam-role-policy-attachment";
import { KarpenterValidationError } from "../core/errors";
import { addSynthCheck, oncePerPass } from "../core/synth-checks";
import { resolvedReference } from "../core/tokens";

/**
 * IAM quota "Managed policies attached to an IAM role": 10 by default, adjustable up to 20 (AWS
 * Identity and Access Management User Guide, "IAM and AWS STS quotas"). Past the account's quota
 * the extra `aws_iam_role_policy_attachment` fails at apply with LimitExceeded.
 */
export const MANAGED_POLICIES_PER_ROLE = { default: 10, max: 20 } as const;

/**
 * Adds the synth-time quota check of a role this library creates: every
 * `aws_iam_role_policy_attachment` of the stack on that role counts (ours and the app's own).
 * More than 20 is an error (no account can hold it); more than 10 a warning (it depends on the
 * account's quota).
 * @param field the prop that adds policies, for the messages (e.g. `additionalPolicyArns`)
 */
export function checkManagedPolicyQuota(scope: Construct, roleName: string, field: string): void {
  let warned = false;
  addSynthCheck(scope, () => {
    // a building block inside Karpenter reports on Karpenter's prop (nodeRole.additionalPolicyArns)
    const owner = owners.get(scope);
    const where = owner?.owner ?? scope;
    const prop = owner ? `${owner.prefix}.${field}` : field;
    const stack = TerraformStack.of(scope);
    const role = resolvedReference(scope, roleName);
    const index = oncePerPass(stack, () => attachmentsByRole(stack));
    const count = index.counts.get(role) ?? 0;
    const legacy = index.transient.get(role) ?? 0;
    const during =
      legacy > 0
        ? ` (during the apply: ${legacy} adopted legacy polic${legacy === 1 ? "y stays" : "ies stay"} attached until the new policies are)`
        : "";
    const { default: quota, max } = MANAGED_POLICIES_PER_ROLE;
    const shown = count > quota ? shownRole(scope, index.all, roleName, role) : "";
    if (count > max) {
      return [
        new KarpenterValidationError(
          "AWS_IAM_POLICY_QUOTA",
          where,
          prop,
          `${count} managed policies on role ${shown}${during}`,
          `at most ${max} managed policies per IAM role: IAM's quota "Managed policies attached to an IAM role" is ${quota} by default and ${max} at most, so the attachments beyond it fail at apply with LimitExceeded. Merge policies into fewer customer-managed ones`,
        ),
      ];
    }
    if (count > quota && !warned) {
      warned = true;
      Annotations.of(where).addWarning(
        `${prop}: role ${shown} gets ${count} managed policies${during}, more than IAM's default quota of ${quota} per role ("Managed policies attached to an IAM role", adjustable up to ${max}): unless this account's quota was raised, the attachments beyond ${quota} fail at apply with LimitExceeded. Request an increase in Service Quotas, or merge policies into fewer customer-managed ones.`,
      );
    }
    return [];
  });
}

const owners = new WeakMap<IConstruct, { owner: IConstruct; prefix: string }>();

/*
 * Attachments into which adoption imported a legacy policy's attachment: replaced create-before-
 * destroy, they keep the old policy attached until the new one is, so both count at that moment.
 */
const replacesAdoptedLegacyPolicy = new WeakSet<IamRolePolicyAttachment>();

/** Counts `attachment` twice in the quota check: it replaces an adopted legacy policy's attachment, attach before detach. */
export function countLegacyReplacement(attachment: IamRolePolicyAttachment): void {
  replacesAdoptedLegacyPolicy.add(attachment);
}

/** Reports the quota problems of `child` (a role construct) on `owner`, with its fields under `prefix` (e.g. `nodeRole`). */
export function attributeQuota(child: IConstruct, owner: IConstruct, prefix: string): void {
  owners.set(child, { owner, prefix });
}

/** The constructs of a stack, and how many policy attachments each role (by resolved reference) has. */
function attachmentsByRole(stack: TerraformStack): {
  all: IConstruct[];
  counts: Map<string, number>;
  transient: Map<string, number>;
} {
  const all = stack.node.findAll();
  const counts = new Map<string, number>();
  const transient = new Map<string, number>();
  for (const c of all) {
    if (!(c instanceof IamRolePolicyAttachment)) continue;
    const role = String(resolvedReference(stack, c.roleInput));
    const replacing = replacesAdoptedLegacyPolicy.has(c) ? 1 : 0;
    counts.set(role, (counts.get(role) ?? 0) + 1 + replacing);
    transient.set(role, (transient.get(role) ?? 0) + replacing);
  }
  return { all, counts, transient };
}

/** The role's literal name, else the construct path of the IamRole the reference names, else the reference. */
function shownRole(scope: Construct, all: IConstruct[], roleName: string, ref: string): string {
  if (!Token.isUnresolved(roleName)) return `"${roleName}"`;
  const role = all.find((c): c is IamRole => c instanceof IamRole && resolvedReference(scope, c.name) === ref);
  const literal = role?.nameInput;
  if (literal !== undefined && !Token.isUnresolved(literal)) return `"${literal}"`;
  return role ? `${role.node.path} (its name is known at apply)` : ref;
}
