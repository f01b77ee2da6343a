import { IConstruct } from "constructs";
import { Annotations, TerraformResource, Token } from "cdktf";
// what the resource constructors do with `dependsOn`: the bare address, not an interpolation
import { dependable } from "cdktf/lib/tfExpression";
import { ValidateTerraformVersion } from "cdktf/lib/validations/validate-terraform-version";
import { IamRolePolicyAttachment } from "@cdktf/provider-aws/lib/iam-role-policy-attachment";
import type { IamPolicy } from "@cdktf/provider-aws/lib/iam-policy";
import type { Release } from "@cdktf/provider-helm/lib/release";
import { KarpenterValidationError } from "../core/errors";
import type { IKarpenterCluster } from "../cluster/karpenter-cluster";
import type { KarpenterNodeRole } from "../aws/karpenter-node-role";
import type { KarpenterControllerRole } from "../aws/karpenter-controller-role";
import type { InterruptionQueue } from "../aws/interruption-queue";
import type {
  KarpenterControllerRoleOptions,
  KarpenterExistingInterruptionQueue,
  KarpenterInterruptionQueueOptions,
  KarpenterNodeRoleOptions,
} from "../aws/karpenter-options";
import { awsContext } from "../aws-api/aws-context";
import { isPlainMap } from "../core/deep-merge";
import { countLegacyReplacement } from "../aws-api/iam-quotas";
import { checkName } from "../aws-api/names";
import { checkNamespace } from "../kubernetes/names";
import { NAME_RULES, nameRuleText } from "../aws-api/resource-names";
import { isUnresolved } from "../core/tokens";
import {
  AdoptedControllerRole,
  AdoptedInterruptionQueue,
  AdoptedNodeRole,
  InterruptionEventKey,
  KarpenterAdoption,
} from "./karpenter-adoption";
import { ADOPTION } from "../core/prop-keys";
import { knownMinors, versionData } from "../versions";
import type { ControllerIdentity } from "../aws/controller-role-spec";

/*
 * How `KarpenterProps.adopt` changes an install: before the building blocks are made, the existing
 * names replace the defaults (a role or queue is imported under the name it has, never renamed:
 * those names force replacement); after, every resource that exists gets an `import` block, and the
 * Helm releases adopt what runs. Import ID formats: hashicorp/aws provider docs, "Import" section of
 * each resource (role: name; policy: ARN; attachment: `<role>/<policy ARN>`; access entry:
 * `<cluster>:<principal ARN>`; pod identity association: `<cluster>,<association ID>`; queue and
 * queue policy: queue URL; rule on the default bus: name; target: `<rule>/<target ID>`).
 */

const ADOPT_KEYS: readonly string[] = ADOPTION;
/**
 * The interruption events of `minor`'s rules, generated from its getting-started template; without a minor (or for one
 * newer than every known one) the newest known minor's, which has a rule for every event any release has.
 */
function ruleEvents(minor?: string): string[] {
  const known = knownMinors();
  return versionData(
    minor !== undefined && known.includes(minor) ? minor : known[known.length - 1],
  ).interruptionRules.map((r) => r.key);
}
/** The target ID of CloudFormation's and terraform-aws-eks's rules, and of this library's. */
const DEFAULT_TARGET_ID = "KarpenterInterruptionQueueTarget";

/** The options of the building blocks a Karpenter install is about to create. */
export interface InstallOptions {
  readonly nodeRole?: KarpenterNodeRoleOptions;
  readonly controllerRole?: KarpenterControllerRoleOptions;
  readonly interruptionQueue?: KarpenterInterruptionQueueOptions | KarpenterExistingInterruptionQueue;
  readonly identity?: ControllerIdentity;
  /** The install's cluster name, when known at synth. */
  readonly clusterNameLiteral?: string;
  /** The install's namespace. */
  readonly namespace?: string;
  /** The install's Karpenter version, `"1.14.1"`. */
  readonly version?: string;
}

/** The pieces of a built install that adoption imports into. */
export interface AdoptionTargets {
  readonly cluster: IKarpenterCluster;
  readonly nodeRole: KarpenterNodeRole;
  readonly controllerRole: KarpenterControllerRole;
  readonly interruptionQueue?: InterruptionQueue;
  readonly crdRelease: Release;
  readonly release: Release;
  /** `controllerRole.policyNameSuffix`, for the policy names when the cluster name is a reference. */
  readonly policyNameSuffix?: string;
}

/**
 * Checks `adopt` against the install's options and returns the options with the existing names:
 * `nodeRole.roleName`, `controllerRole.roleName`, `interruptionQueue.queueName`.
 * @throws KarpenterValidationError (field `adopt.…`) for a malformed adoption, or one that contradicts
 * the install's own options (another role or queue name, a role of your own, IRSA with an association,
 * no queue or an existing one with an adopted queue, a rule for an event the version has no rule for)
 */
export function adoptedOptions(
  scope: IConstruct,
  given: KarpenterAdoption | undefined,
  options: InstallOptions,
  minor: number,
): InstallOptions {
  if (given === undefined) return options;
  const adopt: KarpenterAdoption = given;
  if (!isPlainMap(given))
    throw new KarpenterValidationError(
      "ADOPT_NOT_AN_OBJECT",
      scope,
      "adopt",
      adopt,
      "an object { nodeRole?, controllerRole?, interruptionQueue?, helm? }, e.g. gettingStartedAdoption({ clusterName, version, podIdentityAssociationId })",
    );
  const extra = Object.keys(adopt).find(
    (k) => !ADOPT_KEYS.includes(k) && (adopt as Record<string, unknown>)[k] !== undefined,
  );
  if (extra !== undefined)
    throw new KarpenterValidationError(
      "ADOPT_UNKNOWN_KEY",
      scope,
      `adopt.${extra}`,
      (adopt as Record<string, unknown>)[extra],
      `not a key of adopt (it would be ignored): the keys are { ${ADOPT_KEYS.map((k) => `${k}?`).join(", ")} }`,
    );
  if (adopt.helm !== undefined && typeof adopt.helm !== "boolean")
    throw new KarpenterValidationError(
      "ADOPT_HELM_NOT_A_BOOLEAN",
      scope,
      "adopt.helm",
      adopt.helm,
      "true (adopt the running releases) or false",
    );
  const cluster = options.clusterNameLiteral;
  if (
    adopt.clusterName !== undefined &&
    cluster !== undefined &&
    !isUnresolved(adopt.clusterName) &&
    adopt.clusterName !== cluster
  ) {
    throw new KarpenterValidationError(
      "ADOPT_CLUSTER_MISMATCH",
      scope,
      "adopt.clusterName",
      adopt.clusterName,
      `the name of this install's cluster, "${cluster}": the adopted resources belong to another cluster's install`,
    );
  }
  if (
    adopt.version !== undefined &&
    options.version !== undefined &&
    !isUnresolved(adopt.version) &&
    adopt.version !== options.version
  ) {
    Annotations.of(scope).addWarning(
      `adopt.version: the existing install runs Karpenter ${adopt.version} and this install's version is ${options.version}: the takeover deploy also moves the CRDs and the controller to ${options.version}. Set version: "${adopt.version}" for the takeover and change it in a later deploy (docs/adopting.md)`,
    );
  }
  // a hand-written adopt's namespace is named itself, not blamed on the install's valid one below
  if (typeof adopt.namespace === "string") checkNamespace(scope, "adopt.namespace", adopt.namespace);
  if (
    adopt.namespace !== undefined &&
    options.namespace !== undefined &&
    !isUnresolved(adopt.namespace) &&
    !isUnresolved(options.namespace) &&
    adopt.namespace !== options.namespace
  ) {
    throw new KarpenterValidationError(
      "ADOPT_NAMESPACE_MISMATCH",
      scope,
      "namespace",
      options.namespace,
      `the namespace of the adopted install, "${adopt.namespace}" (adopt.namespace): the running karpenter release and its Pod Identity association are there, and a release in another namespace would be a second controller`,
    );
  }

  let { nodeRole, controllerRole, interruptionQueue } = options;
  if (adopt.nodeRole !== undefined) {
    const a = checkRole(scope, "nodeRole", adopt.nodeRole, ["roleName", "attachedPolicies", "accessEntry"]);
    // a string "false" would be truthy: an import of an access entry that does not exist fails the plan
    if (a.accessEntry !== undefined && typeof a.accessEntry !== "boolean")
      throw new KarpenterValidationError(
        "ADOPT_ACCESS_ENTRY_NOT_A_BOOLEAN",
        scope,
        "adopt.nodeRole.accessEntry",
        a.accessEntry,
        "true (the role has an EKS access entry: it is imported) or false (aws-auth mapping only: an entry is created)",
      );
    if (nodeRole?.existingRole)
      throw new KarpenterValidationError(
        "ADOPT_NODE_ROLE_CONFLICT",
        scope,
        "nodeRole.existingRole",
        nodeRole.existingRole,
        "not with adopt.nodeRole: an adopted role is imported and managed by this install; a role of your own is left alone (drop one of them)",
      );
    nodeRole = { ...nodeRole, roleName: sameName(scope, "nodeRole.roleName", nodeRole?.roleName, a.roleName) };
  }
  if (adopt.controllerRole !== undefined) {
    const a = checkRole<AdoptedControllerRole>(scope, "controllerRole", adopt.controllerRole, [
      "roleName",
      "attachedPolicies",
      "podIdentityAssociationId",
    ]);
    if (a.podIdentityAssociationId !== undefined && options.identity?.type === "irsa") {
      throw new KarpenterValidationError(
        "ADOPT_POD_IDENTITY_WITH_IRSA",
        scope,
        "adopt.controllerRole.podIdentityAssociationId",
        a.podIdentityAssociationId,
        'not with identity { type: "irsa" }: an IRSA install has no Pod Identity association (delete the association after the move, or keep Pod Identity)',
      );
    }
    if (
      a.podIdentityAssociationId !== undefined &&
      !isUnresolved(a.podIdentityAssociationId) &&
      !/^a-[0-9a-z]{17}$/.test(a.podIdentityAssociationId)
    ) {
      throw new KarpenterValidationError(
        "ADOPT_POD_IDENTITY_ASSOCIATION_ID",
        scope,
        "adopt.controllerRole.podIdentityAssociationId",
        a.podIdentityAssociationId,
        "an EKS Pod Identity association ID: a- and 17 lower-case letters or digits (aws eks list-pod-identity-associations)",
      );
    }
    controllerRole = {
      ...controllerRole,
      roleName: sameName(scope, "controllerRole.roleName", controllerRole?.roleName, a.roleName),
    };
  }
  if (adopt.interruptionQueue !== undefined) {
    const a = checkQueue(scope, adopt.interruptionQueue, minor);
    if (interruptionQueue === undefined || "existingQueueName" in interruptionQueue) {
      throw new KarpenterValidationError(
        "ADOPT_QUEUE_NOT_CREATED",
        scope,
        "adopt.interruptionQueue",
        a.queueName,
        "only with a queue this install creates (InterruptionQueueConfig.create(), the default): with InterruptionQueueConfig.disabled() or .existing() nothing is created, so nothing is imported",
      );
    }
    interruptionQueue = {
      ...interruptionQueue,
      queueName: sameName(scope, "interruptionQueue.queueName", interruptionQueue.queueName, a.queueName),
    };
  }
  return { ...options, nodeRole, controllerRole, interruptionQueue };
}

/**
 * Adds the `import` blocks and the Helm adoption flags to a built install, and warns where the
 * outcome depends on steps outside the app.
 * @throws KarpenterValidationError for more legacy controller policies than the install attaches policies
 */
export function adoptExisting(scope: IConstruct, adopt: KarpenterAdoption, t: AdoptionTargets): void {
  // the account and region of the install's AWS provider (its resources all use the one of the access entry)
  const ctx = awsContext(scope, t.nodeRole.accessEntry.provider);
  const policyArn = (nameOrArn: string) =>
    nameOrArn.startsWith("arn:") ? nameOrArn : `arn:${ctx.partition}:iam::${ctx.accountId}:policy/${nameOrArn}`;
  const clusterName = t.cluster.clusterName;

  if (adopt.nodeRole) {
    const a = adopt.nodeRole;
    const role = t.nodeRole.role!;
    importInto(role, a.roleName);
    // by name, or by the AWS-managed policy's ARN (arn:<partition>:iam::aws:policy/<name>)
    const attached = new Set(
      (a.attachedPolicies ?? []).map((p) => /^arn:[^:]+:iam::aws:policy\/(.+)$/.exec(p)?.[1] ?? p),
    );
    // the attachments of the version's AWS-managed policies: their ARNs end in the literal policy name
    for (const att of t.nodeRole.policyAttachments) {
      const name = /:iam::aws:policy\/(.+)$/.exec(String(att.policyArnInput))?.[1];
      if (name !== undefined && attached.has(name)) importInto(att, `${a.roleName}/${att.policyArnInput}`);
    }
    // the ID is known at plan: built from the name, not read from the role being imported
    if (a.accessEntry)
      importInto(
        t.nodeRole.accessEntry,
        `${clusterName}:arn:${ctx.partition}:iam::${ctx.accountId}:role/${a.roleName}`,
      );
  }

  if (adopt.controllerRole) {
    const suffix = t.policyNameSuffix ?? t.cluster.clusterNameLiteral;
    // the policy names as created: a reference to the cluster name is only resolved at apply
    const literalName = (policy: IamPolicy) => {
      const name = policy.nameInput;
      if (name !== undefined && !isUnresolved(name)) return name;
      return suffix !== undefined && !isUnresolved(suffix)
        ? `KarpenterController${policy.node.id.replace(/^policy-/, "")}Policy-${suffix}`
        : undefined;
    };
    adoptControllerRole(scope, adopt.controllerRole, t.controllerRole, clusterName, policyArn, literalName);
  }

  if (adopt.interruptionQueue && t.interruptionQueue) {
    const a = adopt.interruptionQueue;
    const q = t.interruptionQueue;
    // SQS identifies a queue by its URL: https://sqs.<region>.<DNS suffix>/<account>/<name>
    const url = `https://sqs.${ctx.region}.${ctx.dnsSuffix}/${ctx.accountId}/${a.queueName}`;
    importInto(q.queue, url);
    importInto(q.queuePolicy, url);
    const targetId = a.targetId ?? DEFAULT_TARGET_ID;
    const created: string[] = [];
    q.rules.forEach((rule, i) => {
      const key = rule.node.id.replace(/^rule-/, "") as InterruptionEventKey;
      const name = a.ruleNames?.[key];
      if (name === undefined) {
        // the capacity-reservation rule exists from Karpenter 1.10: an older install has none to duplicate
        if (!(
          key === "CapacityReservation" &&
          adoptedMinor(adopt.version) !== undefined &&
          adoptedMinor(adopt.version)! < 10
        ))
          created.push(key);
        return;
      }
      // a rule's name forces replacement: the install takes the existing one
      rule.name = name;
      importInto(rule, name);
      const target = q.targets[i];
      target.targetId = targetId;
      importInto(target, `${name}/${targetId}`);
    });
    if (created.length > 0) {
      Annotations.of(scope).addWarning(
        `adopt.interruptionQueue: no existing rule adopted for ${created.join(", ")}: ${created.length === 1 ? "a new rule is" : "new rules are"} created next to the old ones, which keep sending to queue ${a.queueName} (each event arrives twice, which Karpenter tolerates) until their owner deletes them: delete the CloudFormation stack without retaining its rules, or remove the old Terraform module's rules (docs/adopting.md). Or name them in adopt.interruptionQueue.ruleNames to import them`,
      );
    }
  }

  if (importsAdded(t)) {
    scope.node.addValidation(
      new ValidateTerraformVersion(
        ">=1.6",
        "adopt: the import IDs are expressions over data sources and variables, which Terraform accepts in import blocks from 1.6.",
      ),
    );
  }

  if (adopt.helm !== false) {
    // an existing `karpenter` release is upgraded in place instead of failing "cannot re-use a name"
    t.release.upgradeInstall = true;
    // CRDs from the old chart's crds/ carry no Helm ownership: take_ownership skips that check on install
    t.crdRelease.takeOwnership = true;
    t.crdRelease.upgradeInstall = true;
    // the plan cannot show it (the release is new to the state), and the e2e day-2 stage saw it: the guide's
    // 1 CPU / 1Gi and settings.enableZonalShift=true were gone after the takeover
    Annotations.of(scope).addWarning(
      `adopt.helm: the running karpenter release is upgraded in place with this app's values only, not the values it was installed with (Helm replaces them; tofu plan cannot show the difference, the release being new to the state). Compare \`helm get values karpenter -n <namespace>\` with this Karpenter's props (settings, controllerResources, replicas, dnsPolicy, values) before applying (docs/adopting.md)`,
    );
  }
}

/**
 * The controller role, its policies and attachments, and the association. A legacy policy (one the
 * install does not create) is detached only after every new policy is attached: its attachment is
 * imported into a new attachment that Terraform must replace (another `policy_arn`), with
 * create_before_destroy, after every other new attachment (depends_on) — Terraform destroys the
 * deposed object (the old attachment) only after the replacement and its dependents are applied.
 */
function adoptControllerRole(
  scope: IConstruct,
  a: AdoptedControllerRole,
  role: KarpenterControllerRole,
  clusterName: string,
  policyArn: (n: string) => string,
  literalName: (p: IamPolicy) => string | undefined,
): void {
  importInto(role.role, a.roleName);
  const byGroup = new Map(
    role.node.children
      .filter((c): c is IamRolePolicyAttachment => c instanceof IamRolePolicyAttachment)
      .map((c) => [c.node.id.replace(/^attachment-/, ""), c]),
  );
  const attached = a.attachedPolicies ?? [];
  const ours = new Set<string>();
  const imported = new Set<IamRolePolicyAttachment>();
  for (const policy of role.policies) {
    const name = literalName(policy);
    // given by name, or by the ARN of a policy at path "/" (where the install creates its policies)
    const given = name === undefined ? undefined : attached.find((p) => p === name || policyNameOfArn(p) === name);
    if (name === undefined || given === undefined) continue;
    ours.add(given);
    importInto(policy, policyArn(given));
    // upstream's policies have no description, and a description forces a policy's replacement
    policy.resetDescription();
    const attachment = byGroup.get(policy.node.id.replace(/^policy-/, ""));
    if (attachment) {
      importInto(attachment, `${a.roleName}/${policyArn(given)}`);
      imported.add(attachment);
    }
  }
  const legacy = attached.filter((p) => !ours.has(p));
  const free = role.policies
    .map((p) => byGroup.get(p.node.id.replace(/^policy-/, "")))
    .filter((x): x is IamRolePolicyAttachment => x !== undefined && !imported.has(x));
  if (legacy.length > free.length) {
    throw new KarpenterValidationError(
      "ADOPT_TOO_MANY_POLICIES",
      scope,
      "adopt.controllerRole.attachedPolicies",
      attached,
      `at most ${free.length} polic${free.length === 1 ? "y" : "ies"} this install does not create (${legacy.join(", ")} are ${legacy.length}): each legacy policy is detached by replacing one new attachment; detach the others by hand`,
    );
  }
  const hosts = free.slice(free.length - legacy.length).reverse();
  const others = [...byGroup.values()].filter((x) => !hosts.includes(x));
  hosts.forEach((host, i) => {
    importInto(host, `${a.roleName}/${policyArn(legacy[i])}`);
    host.lifecycle = { ...host.lifecycle, createBeforeDestroy: true };
    countLegacyReplacement(host);
    host.dependsOn = [...(host.dependsOn ?? []), ...[...others, ...hosts.slice(0, i)].map((d) => dependable(d))];
  });
  if (a.podIdentityAssociationId !== undefined && role.podIdentityAssociation) {
    importInto(role.podIdentityAssociation, `${clusterName},${a.podIdentityAssociationId}`);
  }
}

/** The minor of a literal `"1.M.P"` version, else undefined. */
function adoptedMinor(version: string | undefined): number | undefined {
  const m = typeof version === "string" ? /^1\.(\d+)\.\d+$/.exec(version) : null;
  return m ? Number(m[1]) : undefined;
}

/** The name of a customer-managed policy ARN at path "/" (`arn:<partition>:iam::<account>:policy/<name>`), else undefined. */
function policyNameOfArn(arn: string): string | undefined {
  return /^arn:[^:]+:iam::[^:]*:policy\/([^/]+)$/.exec(arn)?.[1];
}

/** Whether any resource of the install got an import block. */
function importsAdded(t: AdoptionTargets): boolean {
  const parts: IConstruct[] = [t.nodeRole, t.controllerRole, ...(t.interruptionQueue ? [t.interruptionQueue] : [])];
  return parts.some((p) =>
    p.node.findAll().some((c) => c instanceof TerraformResource && c.toMetadata().imports !== undefined),
  );
}

/** An `import` block for `resource`, through the provider the resource uses. */
function importInto(resource: TerraformResource, id: string): void {
  resource.importFrom(id, resource.provider);
}

function checkRole<T extends AdoptedNodeRole | AdoptedControllerRole>(
  scope: IConstruct,
  field: string,
  a: T,
  keys: string[],
): T {
  const path = `adopt.${field}`;
  if (!isPlainMap(a))
    throw new KarpenterValidationError(
      "ADOPT_NOT_AN_OBJECT",
      scope,
      path,
      a,
      `an object { ${keys.map((k, i) => (i === 0 ? k : `${k}?`)).join(", ")} }`,
    );
  const extra = Object.keys(a).find((k) => !keys.includes(k) && (a as Record<string, unknown>)[k] !== undefined);
  if (extra !== undefined)
    throw new KarpenterValidationError(
      "ADOPT_UNKNOWN_KEY",
      scope,
      `${path}.${extra}`,
      (a as Record<string, unknown>)[extra],
      `not a key of ${path}: the keys are ${keys.join(", ")}`,
    );
  if (typeof a.roleName !== "string")
    throw new KarpenterValidationError(
      "ADOPT_ROLE_NAME_MISSING",
      scope,
      `${path}.roleName`,
      a.roleName,
      "the existing role's name",
    );
  checkName(
    scope,
    `${path}.roleName`,
    a.roleName,
    NAME_RULES.iamRole.max,
    NAME_RULES.iamRole.pattern,
    nameRuleText("iamRole"),
  );
  const policies = a.attachedPolicies;
  if (policies !== undefined && Array.isArray(policies) && policies.length === 1 && Token.isUnresolved(policies)) {
    // a list token: how many attachments are imported, and which are replaced, is decided at synth
    throw new KarpenterValidationError(
      "ADOPT_POLICIES_NOT_KNOWN",
      scope,
      `${path}.attachedPolicies`,
      policies,
      "a list written out in the app (each element may be a reference): which attachments are imported and which legacy policies are detached is decided at synth",
    );
  }
  if (policies !== undefined && (!Array.isArray(policies) || policies.some((p) => typeof p !== "string" || p === ""))) {
    throw new KarpenterValidationError(
      "ADOPT_POLICIES_NOT_A_LIST",
      scope,
      `${path}.attachedPolicies`,
      policies,
      "a list of policy names (or ARNs) attached to the role now",
    );
  }
  checkPolicyReferences(scope, `${path}.attachedPolicies`, policies);
  // one policy twice (also as name and ARN) would import one attachment into two resources
  const key = (p: string) => (isUnresolved(p) ? p : (policyNameOfArn(p) ?? p));
  const twice = policies?.find((p, i) => policies.findIndex((q) => key(q) === key(p)) !== i);
  if (twice !== undefined)
    throw new KarpenterValidationError(
      "ADOPT_POLICY_TWICE",
      scope,
      `${path}.attachedPolicies`,
      policies,
      `each attached policy once: ${twice} is listed twice (by name or ARN)`,
    );
  return a;
}

/**
 * Each literal entry of `attachedPolicies` is an IAM policy name or an IAM policy ARN
 * (`arn:<partition>:iam::<account>|aws:policy/<path/>name`): an attachment is imported by the role name and the
 * policy ARN (`<role>/<policy ARN>`), so another ARN (a role's, an S3 bucket's) or a name with characters IAM
 * refuses names no attachment, and the import fails the plan. IAM User Guide, "IAM identifiers" (ARNs) and
 * "IAM object quotas" / CreatePolicy: PolicyName `[\w+=,.@-]+`, 1–128 characters. References are left to the plan.
 */
function checkPolicyReferences(scope: IConstruct, field: string, policies: readonly string[] | undefined): void {
  for (const p of policies ?? []) {
    if (isUnresolved(p)) continue;
    const ok = p.startsWith("arn:") ? IAM_POLICY_ARN.test(p) : IAM_POLICY_NAME.test(p);
    if (ok) continue;
    throw new KarpenterValidationError(
      "ADOPT_POLICY_REFERENCE",
      scope,
      field,
      p,
      p.startsWith("arn:")
        ? `an IAM policy ARN, arn:<partition>:iam::<account ID or aws>:policy/<name> (e.g. arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy), or a policy name: this ARN names no IAM policy${/:role\//.test(p) ? " (it is a role's)" : ""}, so no attachment can be imported`
        : "an IAM policy name (1–128 letters, digits and + = , . @ _ -, e.g. AmazonEKSWorkerNodePolicy) or a policy ARN: IAM has no policy of this name, so no attachment can be imported",
    );
  }
}
const IAM_POLICY_NAME = /^[\w+=,.@-]{1,128}$/;
const IAM_POLICY_ARN = /^arn:aws[a-z-]*:iam::(\d{12}|aws):policy\/([\w+=,.@-]+\/)*[\w+=,.@-]{1,128}$/;

function checkQueue(scope: IConstruct, a: AdoptedInterruptionQueue, minor: number): AdoptedInterruptionQueue {
  const path = "adopt.interruptionQueue";
  if (!isPlainMap(a) || typeof a.queueName !== "string")
    throw new KarpenterValidationError(
      "ADOPT_NOT_AN_OBJECT",
      scope,
      path,
      a,
      "an object { queueName, ruleNames?, targetId? }",
    );
  checkName(
    scope,
    `${path}.queueName`,
    a.queueName,
    NAME_RULES.sqsQueue.max,
    NAME_RULES.sqsQueue.pattern,
    nameRuleText("sqsQueue", a.queueName),
  );
  if (a.ruleNames !== undefined) {
    if (!isPlainMap(a.ruleNames))
      throw new KarpenterValidationError(
        "ADOPT_RULE_NAMES_NOT_A_MAP",
        scope,
        `${path}.ruleNames`,
        a.ruleNames,
        `an object from event (${ruleEvents().join(", ")}) to the existing rule's name`,
      );
    for (const [key, name] of Object.entries(a.ruleNames)) {
      if (name === undefined) continue;
      if (!ruleEvents().includes(key))
        throw new KarpenterValidationError(
          "ADOPT_RULE_NAMES_UNKNOWN_EVENT",
          scope,
          `${path}.ruleNames.${key}`,
          name,
          `an event of ${ruleEvents().join(", ")}`,
        );
      if (!ruleEvents(`1.${minor}`).includes(key)) {
        const since = knownMinors().find((m) => ruleEvents(m).includes(key));
        throw new KarpenterValidationError(
          "ADOPT_RULE_NOT_INSTALLED",
          scope,
          `${path}.ruleNames.${key}`,
          name,
          `a rule this version installs: the ${key} rule exists from Karpenter ${since} (delete the old rule, or install ${since} or newer)`,
        );
      }
      checkName(
        scope,
        `${path}.ruleNames.${key}`,
        name,
        NAME_RULES.eventRule.max,
        NAME_RULES.eventRule.pattern,
        nameRuleText("eventRule"),
      );
    }
  }
  if (a.targetId !== undefined && (typeof a.targetId !== "string" || !/^[\w.-]{1,64}$/.test(a.targetId))) {
    throw new KarpenterValidationError(
      "ADOPT_TARGET_ID",
      scope,
      `${path}.targetId`,
      a.targetId,
      "an EventBridge target ID: 1 to 64 letters, digits, '.', '-' and '_'",
    );
  }
  return a;
}

/** The adopted name, unless the install's options name another one. */
function sameName(scope: IConstruct, field: string, given: string | undefined, adopted: string): string {
  // a token on either side is compared by Terraform: a name that differs at plan shows as a replacement there
  if (given !== undefined && (isUnresolved(given) || isUnresolved(adopted))) return given;
  if (given !== undefined && given !== adopted) {
    throw new KarpenterValidationError(
      "ADOPT_NAME_MISMATCH",
      scope,
      field,
      given,
      `the adopted name "${adopted}" (adopt.${field}) or unset: an existing ${field.startsWith("interruption") ? "queue" : "role"} is imported under its own name (a new name would replace it)`,
    );
  }
  return adopted;
}
