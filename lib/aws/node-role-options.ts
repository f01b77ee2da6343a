import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../core/errors";
import { isPlainMap } from "../core/deep-merge";
import { checkExistingRole, checkOptionKeys, checkPolicyArns } from "../aws-api/input-checks";
import { Problems } from "../core/problems";
import { EXISTING_NODE_ROLE } from "../core/prop-keys";
import { nodeRolePolicyNames } from "./node-role-policies";
import type { KarpenterVersion } from "../versions/karpenter-version";

/**
 * What the check reads of KarpenterNodeRoleProps and of KarpenterNodeRoleOptions, by shape: both
 * of those files import this one, and an option type lives with the construct it configures.
 */
interface NodeRoleChoice {
  readonly roleName?: string;
  readonly existingRole?: { readonly roleName?: string; readonly roleArn?: string };
  readonly additionalPolicyArns?: string[];
}

/**
 * The node role options KarpenterNodeRole and Karpenter (`nodeRole`) share, every problem at once:
 * `existingRole` (its keys and ARN) excludes `roleName` and `additionalPolicyArns`, which are for a
 * created role; the policy ARNs must be IAM managed policy ARNs, each once, and none of the
 * AWS-managed policies the node role of `version` gets anyway.
 * @param field the prop holding the options ("" for KarpenterNodeRole's own props, "nodeRole" for Karpenter)
 * @throws KarpenterValidationError naming `<field>.<key>`
 */
export function checkNodeRoleOptions(
  scope: IConstruct,
  field: string,
  options: NodeRoleChoice,
  version?: KarpenterVersion,
): void {
  const at = (key: string) => (field ? `${field}.${key}` : key);
  const problems = new Problems();
  if (options.existingRole !== undefined) {
    for (const key of ["roleName", "additionalPolicyArns"] as const) {
      if (options[key] !== undefined) {
        problems.add(
          new KarpenterValidationError(
            "NODE_ROLE_OPTION_WITH_EXISTING_ROLE",
            scope,
            at(key),
            options[key],
            "not allowed with existingRole: only the access entry is created for a role you bring (name it and attach policies where you define it)",
          ),
        );
      }
    }
    // an unknown key does not hide the other problems of the role
    problems.check(() => checkOptionKeys(scope, at("existingRole"), options.existingRole, EXISTING_NODE_ROLE));
    if (isPlainMap(options.existingRole))
      problems.check(() => checkExistingRole(scope, at("existingRole"), options.existingRole));
  } else {
    const attached = version && {
      names: nodeRolePolicyNames(version),
      by: `the node role of Karpenter ${version.full}`,
    };
    problems.check(() => checkPolicyArns(scope, at("additionalPolicyArns"), options.additionalPolicyArns, attached));
  }
  problems.throwIfAny(scope);
}
