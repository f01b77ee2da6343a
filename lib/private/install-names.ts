import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../errors";
import { IKarpenterCluster } from "../karpenter-cluster";
import { KarpenterControllerRoleOptions, KarpenterInterruptionQueueOptions, KarpenterNodeRoleOptions } from "../karpenter-options";
import { controllerPolicyGroups } from "./controller-policy";
import { MAX_EVENT_KEY_LENGTH } from "./interruption-events";
import { NAME_RULES, NameKind } from "./resource-names";
import { isUnresolved } from "./tokens";
import { KarpenterVersion } from "./version";

/*
 * Every AWS name one Karpenter install creates, checked together before the first resource, so that
 * a long cluster name is one error listing every prop to set, not one fix-and-retry round per name;
 * and each problem is named by the prop of Karpenter the user sets (`nodeRole.roleName`), not by the
 * prop of the child construct that would have failed (`<path>/node-role: roleName`).
 * The children check their own names again (they are also used alone).
 */

/** What the install creates, as Karpenter's props say it. */
export interface InstallNameProps {
  readonly cluster: IKarpenterCluster;
  readonly version: KarpenterVersion;
  readonly nodeRole: KarpenterNodeRoleOptions;
  readonly controllerRole: KarpenterControllerRoleOptions;
  /** The options of the queue the install creates; undefined when it creates none. */
  readonly queue?: KarpenterInterruptionQueueOptions;
}

interface Name {
  /** The Karpenter prop that sets the name. */
  readonly field: string;
  readonly kind: NameKind;
  /** What the name is called in messages. */
  readonly what: string;
  /** The name as given; undefined when derived from the cluster name. */
  readonly given?: string;
  /** The name derived from the cluster name: `${prefix}<cluster>`. */
  readonly prefix: string;
  /** Characters added after the name (rule names get `-<event>`). */
  readonly reserve?: number;
}

/**
 * @throws KarpenterValidationError with every name problem of the install: given names that break
 * the AWS rule (each on its Karpenter prop), and names derived from a literal cluster name that get
 * too long (one error naming the cluster name and each prop to set)
 */
export function checkInstallNames(scope: IConstruct, p: InstallNameProps): void {
  const names: Name[] = [];
  if (p.nodeRole.existingRole === undefined) names.push({ field: "nodeRole.roleName", kind: "iamRole", what: "IAM role name", given: p.nodeRole.roleName, prefix: "KarpenterNodeRole-" });
  names.push({ field: "controllerRole.roleName", kind: "iamRole", what: "IAM role name", given: p.controllerRole.roleName, prefix: "KarpenterControllerRole-" });
  const suffix = p.controllerRole.policyNameSuffix;
  const longest = longestPolicyPrefix(p.version, (p.controllerRole.additionalStatements ?? []).length > 0);
  names.push({ field: "controllerRole.policyNameSuffix", kind: "iamPolicy", what: `IAM policy name (the longest, ${longest}<suffix>)`, given: suffix === undefined ? undefined : `${longest}${suffix}`, prefix: longest });
  if (p.queue) {
    names.push({ field: "interruptionQueue.queueName", kind: "sqsQueue", what: "SQS queue name", given: p.queue.queueName, prefix: "" });
    // the default rule prefix is shortened with a hash, so only a given one can be too long
    if (p.queue.ruleNamePrefix !== undefined) names.push({ field: "interruptionQueue.ruleNamePrefix", kind: "eventRule", what: "EventBridge rule name prefix", given: p.queue.ruleNamePrefix, prefix: "", reserve: MAX_EVENT_KEY_LENGTH + 1 });
  }

  const givenProblems: KarpenterValidationError[] = [];
  const derivedTooLong: { name: Name; value: string; max: number }[] = [];
  const cluster = p.cluster.clusterNameLiteral;
  for (const n of names) {
    const rule = NAME_RULES[n.kind];
    const max = rule.max - (n.reserve ?? 0);
    if (n.given !== undefined) {
      if (typeof n.given !== "string" || isUnresolved(n.given)) continue;
      const value = n.field === "controllerRole.policyNameSuffix" ? suffix : n.given;
      const reserved = n.reserve ? ` (names add up to ${n.reserve} characters: "-<event>")` : "";
      if (n.given.length === 0 || n.given.length > max) givenProblems.push(new KarpenterValidationError(scope, n.field, value, `1 to ${max} characters for the ${n.what}${reserved}, got ${n.given.length}: choose a shorter name`));
      else if (!rule.pattern.test(n.given)) givenProblems.push(new KarpenterValidationError(scope, n.field, value, `${rule.text} (${n.what})`));
    } else if (cluster !== undefined) {
      const value = `${n.prefix}${cluster}`;
      if (value.length > max) derivedTooLong.push({ name: n, value, max });
    }
  }

  const problems = [...givenProblems];
  if (derivedTooLong.length > 0) {
    const each = derivedTooLong.map(
      (d) => new KarpenterValidationError(scope, d.name.field, d.value, `at most ${d.max} characters for the ${d.name.what}, but the default derived from the cluster name has ${d.value.length}: set ${d.name.field}`),
    );
    const heading =
      `cluster name "${cluster}" (${cluster!.length} characters) is too long for ${derivedTooLong.length === 1 ? "a name" : `${derivedTooLong.length} names`} this install derives from it; set each of these props of Karpenter to a shorter name`;
    problems.push(derivedTooLong.length === 1 ? each[0] : KarpenterValidationError.combine(each, `${scope.node.path}: ${heading}`));
  }
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) throw KarpenterValidationError.combine(problems, `${scope.node.path}: ${problems.length} name problems`);
}

/** `KarpenterController<Group>Policy-` of the version's longest group name (the policy names the suffix must fit). */
function longestPolicyPrefix(version: KarpenterVersion, additional: boolean): string {
  const x = "x";
  const keys = controllerPolicyGroups(version, { partition: x, region: x, account: x, clusterName: x, clusterArn: x, nodeRoleArn: x, queueArn: x, kmsKeyArn: undefined }).map((g) => g.key as string);
  if (additional) keys.push("Additional");
  const longest = keys.reduce((a, b) => (b.length > a.length ? b : a));
  return `KarpenterController${longest}Policy-`;
}
