import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../core/errors";
import { IKarpenterCluster } from "../cluster/karpenter-cluster";
import {
  KarpenterControllerRoleOptions,
  KarpenterInterruptionQueueOptions,
  KarpenterNodeRoleOptions,
} from "../aws/karpenter-options";
import { checkPolicyNameSuffix, policyKeys, policyNamePrefix } from "../aws/controller-role-checks";
import { MAX_EVENT_KEY_LENGTH, RULE_PREFIX } from "../aws/interruption-events";
import { nameProblem } from "../aws-api/names";
import { NAME_RULES, NameKind, nameRuleText } from "../aws-api/resource-names";
import { KarpenterVersion } from "../versions/karpenter-version";

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
  if (p.nodeRole.existingRole === undefined)
    names.push({
      field: "nodeRole.roleName",
      kind: "iamRole",
      what: "IAM role name",
      given: p.nodeRole.roleName,
      prefix: "KarpenterNodeRole-",
    });
  names.push({
    field: "controllerRole.roleName",
    kind: "iamRole",
    what: "IAM role name",
    given: p.controllerRole.roleName,
    prefix: "KarpenterControllerRole-",
  });
  const suffix = p.controllerRole.policyNameSuffix;
  const keys = policyKeys(p.version, { queue: true, kmsKey: false }, p.controllerRole.additionalStatements);
  const longest = keys.map(policyNamePrefix).reduce((a, b) => (b.length > a.length ? b : a));
  // a given suffix is checked on its own (below): only the derived names are compared here
  if (suffix === undefined)
    names.push({
      field: "controllerRole.policyNameSuffix",
      kind: "iamPolicy",
      what: `IAM policy name (the longest, ${longest}<suffix>)`,
      prefix: longest,
    });
  if (p.queue) {
    names.push({
      field: "interruptionQueue.queueName",
      kind: "sqsQueue",
      what: "SQS queue name",
      given: p.queue.queueName,
      prefix: "",
    });
    // the default rule prefix is shortened with a hash, so only a given one can be too long
    if (p.queue.ruleNamePrefix !== undefined)
      names.push({
        field: "interruptionQueue.ruleNamePrefix",
        kind: "eventRule",
        what: "EventBridge rule name prefix",
        given: p.queue.ruleNamePrefix,
        prefix: "",
        reserve: MAX_EVENT_KEY_LENGTH + 1,
      });
  }

  const givenProblems: KarpenterValidationError[] = [];
  const derivedTooLong: { name: Name; value: string; max: number }[] = [];
  const cluster = p.cluster.clusterNameLiteral;
  for (const n of names) {
    const rule = NAME_RULES[n.kind];
    const max = rule.max - (n.reserve ?? 0);
    if (n.given !== undefined) {
      const problem = n.reserve
        ? nameProblem(n.given, RULE_PREFIX.max, rule.pattern, RULE_PREFIX.text, RULE_PREFIX.limit)
        : nameProblem(n.given, max, rule.pattern, nameRuleText(n.kind, n.given));
      if (problem !== undefined)
        givenProblems.push(new KarpenterValidationError("INSTALL_NAME", scope, n.field, n.given, problem));
    } else if (cluster !== undefined) {
      const value = `${n.prefix}${cluster}`;
      if (value.length > max) derivedTooLong.push({ name: n, value, max });
    }
  }
  if (suffix !== undefined) {
    try {
      checkPolicyNameSuffix(scope, "controllerRole.policyNameSuffix", suffix, keys);
    } catch (e) {
      if (!(e instanceof KarpenterValidationError)) throw e;
      givenProblems.push(e);
    }
  }

  const problems = [...givenProblems];
  if (derivedTooLong.length > 0) {
    const each = derivedTooLong.map(
      (d) =>
        new KarpenterValidationError(
          "AWS_DERIVED_NAME_TOO_LONG",
          scope,
          d.name.field,
          d.value,
          `at most ${d.max} characters for the ${d.name.what}, but the default derived from the cluster name has ${d.value.length}: set ${d.name.field}`,
        ),
    );
    const heading = `cluster name "${cluster}" (${cluster!.length} characters) is too long for ${derivedTooLong.length === 1 ? "a name" : `${derivedTooLong.length} names`} this install derives from it; set each of these props of Karpenter to a shorter name`;
    problems.push(
      derivedTooLong.length === 1 ? each[0] : KarpenterValidationError.combine(each, `${scope.node.path}: ${heading}`),
    );
  }
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1)
    throw KarpenterValidationError.combine(problems, `${scope.node.path}: ${problems.length} name problems`);
}
