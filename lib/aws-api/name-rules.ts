// no cdktf import: the manifest converter and its command line check role names where cdktf is not installed

/** The IAM role name rule (IAM API `roleNameType`): 1–64 letters, digits and `+=,.@_-`. */
export const IAM_ROLE_NAME_RULE = {
  max: 64,
  pattern: /^[\w+=,.@-]+$/,
  what: "an IAM role name",
  text: "letters, digits and + = , . @ _ -",
} as const;

/**
 * What is wrong with a literal (token-free) name, or undefined when it is fine. Too short and too
 * long get their own advice: an empty name needs characters, a long one fewer.
 * @param max the most characters allowed
 * @param patternText what the name may hold, e.g. `an IAM role name: letters, digits and + = , . @ _ -`
 * @param limitNote why the limit is `max`, after "at most <max> characters", e.g. `(rule names add "-<event>")`
 */
export function literalNameProblem(
  name: unknown,
  max: number,
  pattern: RegExp,
  patternText: string,
  limitNote?: string,
): string | undefined {
  if (typeof name !== "string") return `a string, 1–${max} characters (${patternText})`;
  if (name.length === 0) return `an empty name is not allowed: give 1–${max} characters (${patternText})`;
  if (name.length > max)
    return `at most ${max} characters${limitNote ? ` ${limitNote}` : ""} (got ${name.length}): choose a shorter name`;
  if (!pattern.test(name)) return patternText;
  return undefined;
}

/**
 * What is wrong with a literal IAM role name (the message KarpenterNodeRole gives for `roleName`),
 * or undefined when it is one.
 */
export function iamRoleNameProblem(name: unknown): string | undefined {
  const rule = IAM_ROLE_NAME_RULE;
  return literalNameProblem(name, rule.max, rule.pattern, `${rule.what}: ${rule.text}`);
}

/**
 * What is wrong with a literal EC2NodeClass `role`, or undefined: it must be an IAM role name (Karpenter
 * adds it to the instance profile it creates, and IAM refuses anything else, so the class never
 * becomes Ready). A role ARN is not judged: a class of an installation is warned about any role but
 * the installation's node role.
 */
export function nodeClassRoleProblem(role: string): string | undefined {
  return role.startsWith("arn:") ? undefined : iamRoleNameProblem(role);
}

/** The IAM instance profile name rule (IAM API `instanceProfileNameType`): 1–128 letters, digits and `+=,.@_-`. */
export const IAM_INSTANCE_PROFILE_NAME_RULE = {
  max: 128,
  pattern: /^[\w+=,.@-]+$/,
  what: "an IAM instance profile name",
  text: "letters, digits and + = , . @ _ -",
} as const;

/**
 * What is wrong with a literal EC2NodeClass `instanceProfile`, or undefined: Karpenter passes it to EC2 as the
 * profile's name (karpenter-provider-aws v1.15.0 pkg/providers/launchtemplate/types.go:113-114,
 * IamInstanceProfile.Name), so an ARN or a path names no profile and the class never becomes Ready (its validation
 * finds no such instance profile).
 */
export function instanceProfileNameProblem(name: string): string | undefined {
  const rule = IAM_INSTANCE_PROFILE_NAME_RULE;
  const base = `${rule.what}: ${rule.text}`;
  if (name.startsWith("arn:"))
    return `${base}; this is an ARN, and Karpenter passes the value to EC2 as the profile's name (IamInstanceProfile.Name), so write the name after "instance-profile/"${/:instance-profile\/(?:.*\/)?([^/]+)$/.test(name) ? ` ("${/:instance-profile\/(?:.*\/)?([^/]+)$/.exec(name)![1]}")` : ""}`;
  if (name.includes("/"))
    return `${base}; a path is no part of the name (IAM keeps it beside the name), so write the name alone${/\/([^/]+)$/.test(name) ? ` ("${/\/([^/]+)$/.exec(name)![1]}")` : ""}`;
  return literalNameProblem(name, rule.max, rule.pattern, base);
}
