import { KarpenterValidationError, typeName } from "../core/errors";
import { resolveKarpenterVersion } from "../versions/karpenter-version";
import { controllerPolicyGroups } from "../aws/controller-policy";
import { nodeRolePolicyNames } from "../aws/node-role-policies";
import { isPlainMap } from "../core/deep-merge";
import { nearestKey, Problems } from "../core/problems";
import { isUnresolved } from "../core/tokens";
import { checkNamespace } from "../kubernetes/names";
import { GETTING_STARTED_ADOPTION_PROPS, TERRAFORM_AWS_EKS_MODULE_ADOPTION_PROPS } from "../core/prop-keys";

/*
 * What already runs on a cluster, for `KarpenterProps.adopt`: the resources of an earlier install
 * that this install would otherwise create again (and collide with: EntityAlreadyExists, an
 * association or access entry that exists, Helm "cannot re-use a name"). Plain data, so an app
 * can also build it from its own inventory; the presets below fill it for installs whose names
 * upstream fixes.
 */

/** The interruption events whose EventBridge rules can be adopted by name (keys of the library's rules). */
export type InterruptionEventKey =
  "ScheduledChange" | "SpotInterruption" | "Rebalance" | "InstanceStateChange" | "CapacityReservation";

/** The node role that exists, for {@link KarpenterAdoption.nodeRole}. */
export interface AdoptedNodeRole {
  /** The role's name (path `/`), e.g. `KarpenterNodeRole-prod`: the install uses this name and imports the role. */
  readonly roleName: string;
  /**
   * The AWS-managed policies attached to the role now, by name (`"AmazonEKS_CNI_Policy"`) or ARN: those the
   * install attaches too are imported; others stay attached and unmanaged (e.g. ECR ReadOnly when the
   * version attaches PullOnly).
   * @default none (every attachment is created; IAM AttachRolePolicy of an attached policy is a no-op)
   */
  readonly attachedPolicies?: string[];
  /**
   * Whether an EKS access entry exists for the role (then it is imported, `<cluster>:<role ARN>`).
   * False for a role mapped in the `aws-auth` ConfigMap only (eksctl `iamIdentityMappings`): the entry is
   * created next to the mapping (EKS prefers the entry; the cluster's authentication mode must
   * include `API`).
   * @default false
   */
  readonly accessEntry?: boolean;
}

/** The controller role that exists, for {@link KarpenterAdoption.controllerRole}. */
export interface AdoptedControllerRole {
  /** The role's name (path `/`), e.g. eksctl's `<cluster>-karpenter`: the install uses this name and imports the role. */
  readonly roleName: string;
  /**
   * The customer-managed policies attached to the role now, by name (`KarpenterControllerPolicy-prod`)
   * or ARN. A policy whose name is one the install creates (`KarpenterController<Group>Policy-<suffix>`)
   * is imported with its attachment. Any other is a legacy policy: the install detaches it, but only
   * after every new policy is attached (its attachment is imported into one of the new attachments,
   * which is replaced create-before-destroy), so the controller never loses a permission; the policy
   * itself is left to its owner (CloudFormation stack, old Terraform state) to delete. At most one
   * legacy policy per policy the install attaches.
   * @default none
   */
  readonly attachedPolicies?: string[];
  /**
   * The ID of the EKS Pod Identity association of the controller's service account,
   * `a-xxxxxxxxxxxxxxxxx` (`aws eks list-pod-identity-associations --cluster-name <cluster>
   * --namespace <ns> --service-account karpenter`); may be a token (e.g. a `TerraformVariable`,
   * known at plan). EKS allows one association per service account, so an existing one must be
   * imported (`<cluster>,<id>`).
   * @default no association exists: it is created
   */
  readonly podIdentityAssociationId?: string;
}

/** The interruption queue that exists, for {@link KarpenterAdoption.interruptionQueue}. */
export interface AdoptedInterruptionQueue {
  /** The SQS queue's name: the install uses it and imports the queue and its policy (by queue URL). */
  readonly queueName: string;
  /**
   * The names of the existing EventBridge rules (default bus) per event, each with the queue as
   * target: they are imported, with their targets (`<rule>/<targetId>`). Events without a name here
   * get new rules; the old ones keep sending to the same queue until their owner deletes them
   * (Karpenter handles a message twice without harm).
   * Keys: an {@link InterruptionEventKey} (`ScheduledChange`, `SpotInterruption`, `Rebalance`, `InstanceStateChange`, `CapacityReservation`); any other key is an error naming it.
   * @default none adopted
   */
  readonly ruleNames?: { [event: string]: string };
  /** The target ID of the queue on each adopted rule. @default "KarpenterInterruptionQueueTarget" (CloudFormation and terraform-aws-eks) */
  readonly targetId?: string;
}

/**
 * What already exists of an earlier Karpenter install: each resource named here is imported
 * (Terraform `import` blocks, Terraform ≥ 1.6: the IDs are expressions over the stack's partition,
 * region and account data sources) instead of created, under the name it has; the Helm releases are
 * adopted in place. See docs/adopting.md. Presets: {@link gettingStartedAdoption},
 * {@link terraformAwsEksModuleAdoption}.
 */
export interface KarpenterAdoption {
  /**
   * The cluster the existing install belongs to: checked against the install's cluster when its name is
   * known at synth, so that another cluster's resources are never imported.
   * @default not checked
   */
  readonly clusterName?: string;
  /**
   * The Karpenter version the existing install runs, e.g. `"1.8.8"`: compared with the install's
   * `version`; when they differ synth warns, since the takeover deploy then also upgrades (or
   * downgrades) the CRDs and the controller — adopt at the running version, upgrade in a later deploy.
   * @default not compared
   */
  readonly version?: string;
  /**
   * The namespace of the running `karpenter` release (and of the controller's Pod Identity association):
   * checked against the install's `namespace`, since `upgrade_install` only finds a release in its own
   * namespace (elsewhere it would install a second controller).
   * @default not checked
   */
  readonly namespace?: string;
  /** The node role (and its attachments and access entry). @default none: created */
  readonly nodeRole?: AdoptedNodeRole;
  /** The controller role (its policies, attachments, Pod Identity association). @default none: created */
  readonly controllerRole?: AdoptedControllerRole;
  /** The interruption queue (its policy, rules and targets). @default none: created */
  readonly interruptionQueue?: AdoptedInterruptionQueue;
  /**
   * Adopt the Helm releases: the `karpenter` release is upgraded in place when it exists (helm provider
   * `upgrade_install`), and the `karpenter-crd` release takes over the CRDs the old chart's `crds/`
   * folder installed (`take_ownership`: Helm skips its release-ownership check and patches them, nothing
   * deleted; `upgrade_install` too, for a karpenter-crd release that exists). Harmless where nothing exists.
   * @default true
   */
  readonly helm?: boolean;
}

/** Props of {@link gettingStartedAdoption}. */
export interface GettingStartedAdoptionProps {
  /** The cluster name the guide was run with (`CLUSTER_NAME`): the names derive from it. */
  readonly clusterName: string;
  /** The Karpenter version the CloudFormation stack `Karpenter-<cluster>` was deployed with, e.g. `"1.8.8"`: it decides which controller policies exist. */
  readonly version: string;
  /**
   * The ID of the Pod Identity association eksctl created (`a-…`; may be a token). Required: EKS
   * allows one association per service account.
   */
  readonly podIdentityAssociationId: string;
  /**
   * The names CloudFormation generated for the stack's rules (`Karpenter-<cluster>-SpotInterruptionRule-<random>`),
   * per event: `aws cloudformation describe-stack-resources --stack-name Karpenter-<cluster>`.
   * Keys: an {@link InterruptionEventKey} (`ScheduledChange`, `SpotInterruption`, `Rebalance`, `InstanceStateChange`, `CapacityReservation`); any other key is an error naming it.
   * @default none: new rules are created, and the stack's are deleted with the stack
   */
  readonly ruleNames?: { [event: string]: string };
  /** The namespace the guide installed into (`KARPENTER_NAMESPACE`). @default "kube-system" (the v1.x guide's) */
  readonly namespace?: string;
  /**
   * Whether the node role has an EKS access entry. The guide maps it in `aws-auth` (eksctl
   * `iamIdentityMappings`), which makes no entry.
   * @default false
   */
  readonly nodeAccessEntry?: boolean;
}

/**
 * The install of the Karpenter getting-started guide (v1.x) on cluster `C` at version `V`:
 * CloudFormation stack `Karpenter-C` (node role `KarpenterNodeRole-C` with the version's managed
 * policies; before 1.9 the managed policy `KarpenterControllerPolicy-C`, from 1.9
 * `KarpenterController{NodeLifecycle,IAMIntegration,EKSIntegration,Interruption,ResourceDiscovery}Policy-C`
 * and from 1.12 `KarpenterControllerZonalShiftPolicy-C`; queue `C` and its policy; four or (1.10+) five
 * rules with generated names); eksctl (`podIdentityAssociations`: role `C-karpenter` with those
 * policies, the association for `kube-system/karpenter`; `iamIdentityMappings`: the node role in
 * `aws-auth`); `helm upgrade --install karpenter` (CRDs from the chart's `crds/`).
 * Sources: getting-started `cloudformation.yaml` and `step02-create-cluster.sh` of aws/karpenter-provider-aws per release.
 *
 * The 1.9+ policies are imported under their names; a pre-1.9 `KarpenterControllerPolicy-C` is
 * detached after the new policies are attached (the library uses the 1.9+ layout for every version).
 * @throws KarpenterValidationError for an unsupported `version` or a missing association ID
 */
export function gettingStartedAdoption(props: GettingStartedAdoptionProps): KarpenterAdoption {
  const where = "gettingStartedAdoption";
  checkPresetProps(where, props, GETTING_STARTED_ADOPTION_PROPS, "{ clusterName, version, podIdentityAssociationId }");
  checkPresetTypes(where, props, { namespace: "string", nodeAccessEntry: "boolean" }, (problems) => {
    if (typeof props.namespace === "string") problems.check(() => checkNamespace(where, "namespace", props.namespace!));
  });
  const c = props.clusterName;
  if (typeof c !== "string" || c === "")
    throw new KarpenterValidationError(
      "ADOPTION_CLUSTER_NAME_MISSING",
      where,
      "clusterName",
      c,
      "the cluster name the guide was run with",
    );
  const version = resolveKarpenterVersion(where, props.version);
  if (typeof props.podIdentityAssociationId !== "string" || props.podIdentityAssociationId === "") {
    throw new KarpenterValidationError(
      "ADOPTION_POD_IDENTITY_ASSOCIATION_ID",
      where,
      "podIdentityAssociationId",
      props.podIdentityAssociationId,
      "the ID of eksctl's Pod Identity association (a-…): aws eks list-pod-identity-associations --cluster-name <cluster> --namespace kube-system --service-account karpenter",
    );
  }
  const policies =
    version.minor < 9
      ? [`KarpenterControllerPolicy-${c}`]
      : upstreamPolicyGroups(version).map((g) => `KarpenterController${g}Policy-${c}`);
  return {
    clusterName: c,
    version: version.full,
    namespace: props.namespace ?? "kube-system",
    nodeRole: {
      roleName: `KarpenterNodeRole-${c}`,
      attachedPolicies: nodeRolePolicyNames(version),
      accessEntry: props.nodeAccessEntry ?? false,
    },
    controllerRole: {
      roleName: `${c}-karpenter`,
      attachedPolicies: policies,
      podIdentityAssociationId: props.podIdentityAssociationId,
    },
    interruptionQueue: { queueName: c, ruleNames: props.ruleNames },
    helm: true,
  };
}

/** Props of {@link terraformAwsEksModuleAdoption}. */
export interface TerraformAwsEksModuleAdoptionProps {
  /** The major version of `terraform-aws-modules/eks/aws//modules/karpenter`: 19, 20 or 21. */
  readonly major: 19 | 20 | 21;
  /** The module's `cluster_name`. */
  readonly clusterName: string;
  /**
   * The node role's name: by default the module adds a random suffix (`node_iam_role_use_name_prefix`,
   * v19 `iam_role_use_name_prefix`): `Karpenter-<cluster>-<suffix>`; read it with
   * `terraform state show 'module.karpenter.aws_iam_role.node[0]'` (v19: `aws_iam_role.this[0]`).
   */
  readonly nodeRoleName: string;
  /** The controller role's name: v20/v21 `KarpenterController-<suffix>`, v19 (IRSA) `KarpenterIRSA-<cluster>-<suffix>`. */
  readonly controllerRoleName: string;
  /** The controller policy's name (one managed policy): v20/v21 `KarpenterController-<suffix>`, v19 `KarpenterIRSA-<cluster>-<suffix>`. @default none (v21 `enable_inline_policy`: nothing to detach) */
  readonly controllerPolicyName?: string;
  /** The queue's name. @default `Karpenter-<cluster>` (the module's `queue_name` default) */
  readonly queueName?: string;
  /**
   * The rules' names (`KarpenterHealthEvent-<suffix>`, `KarpenterSpotInterrupt-…`, `KarpenterInstanceRebalance-…`,
   * `KarpenterInstanceStateChange-…`, v21 `KarpenterCRInterruption-…`), per event.
   * Keys: an {@link InterruptionEventKey} (`ScheduledChange`, `SpotInterruption`, `Rebalance`, `InstanceStateChange`, `CapacityReservation`); any other key is an error naming it.
   * @default none adopted: new rules are created
   */
  readonly ruleNames?: { [event: string]: string };
  /**
   * The module's Pod Identity association ID (`a-…`; may be a token): `aws eks list-pod-identity-associations
   * --cluster-name <cluster> --namespace kube-system --service-account karpenter`. Required when
   * {@link createdPodIdentityAssociation} (EKS allows one association per service account: a second fails at apply).
   * @default none exists
   */
  readonly podIdentityAssociationId?: string;
  /**
   * Whether the module created a Pod Identity association (its `create_pod_identity_association`: `true`
   * by default in v21, `false` in v20; v19 has none).
   * @default true for v21, false for v19 and v20
   */
  readonly createdPodIdentityAssociation?: boolean;
  /** Whether the module attached `AmazonEKS_CNI_Policy` to the node role (`node_iam_role_attach_cni_policy`, IPv4). @default true */
  readonly cniPolicy?: boolean;
}

/**
 * An install by terraform-aws-eks `modules/karpenter` v19, v20 or v21 with its default settings: node
 * role with `AmazonEKSWorkerNodePolicy`, ECR `ReadOnly` (v19, v20) or `PullOnly` (v21) and
 * `AmazonEKS_CNI_Policy`; an `EC2_LINUX` access entry (v20, v21; v19 used `aws-auth`); one controller
 * policy (detached after the new ones are attached); queue `Karpenter-<cluster>`; targets
 * `KarpenterInterruptionQueueTarget`. The module names roles, policy and rules with random suffixes,
 * so they are props. Source: terraform-aws-modules/terraform-aws-eks `modules/karpenter` (v19.21.0, v20.37.2, v21.3.1–v21.19.0).
 * @throws KarpenterValidationError for another major version, a missing name, or a missing association ID
 * when the module created an association (v21's default)
 */
export function terraformAwsEksModuleAdoption(props: TerraformAwsEksModuleAdoptionProps): KarpenterAdoption {
  const where = "terraformAwsEksModuleAdoption";
  checkPresetProps(
    where,
    props,
    TERRAFORM_AWS_EKS_MODULE_ADOPTION_PROPS,
    "{ major, clusterName, nodeRoleName, controllerRoleName }",
  );
  checkPresetTypes(where, props, {
    controllerPolicyName: "string",
    queueName: "string",
    podIdentityAssociationId: "string",
    createdPodIdentityAssociation: "boolean",
    cniPolicy: "boolean",
  });
  checkV19WithoutPodIdentity(where, props);
  if (![19, 20, 21].includes(props.major))
    throw new KarpenterValidationError(
      "ADOPTION_MODULE_MAJOR",
      where,
      "major",
      props.major,
      "19, 20 or 21 (the major version of terraform-aws-modules/eks/aws//modules/karpenter)",
    );
  for (const field of ["clusterName", "nodeRoleName", "controllerRoleName"] as const) {
    if (typeof props[field] !== "string" || props[field] === "")
      throw new KarpenterValidationError(
        "ADOPTION_MODULE_NAME_MISSING",
        where,
        field,
        props[field],
        "the name from the module's state (terraform state show)",
      );
  }
  const association = props.createdPodIdentityAssociation ?? props.major === 21;
  if (association && (typeof props.podIdentityAssociationId !== "string" || props.podIdentityAssociationId === "")) {
    throw new KarpenterValidationError(
      "ADOPTION_POD_IDENTITY_ASSOCIATION_ID",
      where,
      "podIdentityAssociationId",
      props.podIdentityAssociationId,
      `the ID of the module's Pod Identity association (a-…; aws eks list-pod-identity-associations --cluster-name ${props.clusterName} --namespace kube-system --service-account karpenter): ${props.createdPodIdentityAssociation === undefined ? "v21 creates one by default" : "createdPodIdentityAssociation is true"}, and a second association for the service account fails at apply. If the module ran with create_pod_identity_association = false, pass createdPodIdentityAssociation: false`,
    );
  }
  const ecr = props.major === 21 ? "AmazonEC2ContainerRegistryPullOnly" : "AmazonEC2ContainerRegistryReadOnly";
  return {
    clusterName: props.clusterName,
    nodeRole: {
      roleName: props.nodeRoleName,
      attachedPolicies: [
        "AmazonEKSWorkerNodePolicy",
        ecr,
        ...(props.cniPolicy === false ? [] : ["AmazonEKS_CNI_Policy"]),
      ],
      accessEntry: props.major !== 19,
    },
    controllerRole: {
      roleName: props.controllerRoleName,
      attachedPolicies: props.controllerPolicyName !== undefined ? [props.controllerPolicyName] : [],
      podIdentityAssociationId: props.podIdentityAssociationId,
    },
    interruptionQueue: { queueName: props.queueName ?? `Karpenter-${props.clusterName}`, ruleNames: props.ruleNames },
    helm: true,
  };
}

/**
 * A preset's props are an object (a call without them, from JavaScript or another language, gets this error,
 * not a TypeError) with no key the props do not have: a misspelt optional prop (`namespcae`) would otherwise fall
 * back to its default silently, and the adoption import the wrong resources.
 */
function checkPresetProps(where: string, props: unknown, keys: readonly string[], shape: string): void {
  if (!isPlainMap(props))
    throw new KarpenterValidationError("ADOPTION_PROPS_NOT_AN_OBJECT", where, "props", props, `an object ${shape}`);
  const unknown = Object.keys(props).find((k) => !keys.includes(k) && props[k] !== undefined);
  if (unknown === undefined) return;
  const meant = nearestKey(unknown, keys);
  throw new KarpenterValidationError(
    "ADOPTION_UNKNOWN_PROP",
    where,
    unknown,
    props[unknown],
    `not a prop of ${where} (it would be ignored)${meant ? `: did you mean ${meant}?` : ""} The props are ${keys.join(", ")}`,
  );
}

/**
 * The optional string and boolean props of a preset have their type (all of them at once, with `more`'s checks): a
 * string `cniPolicy: "yes"` would otherwise pass for true, and `"false"` too. A token is left to Terraform.
 * (The required props and `major` have their own checks, `ruleNames` is checked where the adoption is used.)
 */
function checkPresetTypes(
  where: string,
  props: object,
  types: Record<string, "string" | "boolean">,
  more?: (problems: Problems) => void,
): void {
  const problems = new Problems();
  for (const [field, type] of Object.entries(types)) {
    const value = (props as Record<string, unknown>)[field];
    if (value === undefined || typeof value === type || isUnresolved(value)) continue;
    problems.add(
      type === "string"
        ? new KarpenterValidationError("ADOPTION_NOT_A_STRING", where, field, value, `a string, got ${typeName(value)}`)
        : new KarpenterValidationError(
            "ADOPTION_NOT_A_BOOLEAN",
            where,
            field,
            value,
            `true or false, got ${typeName(value)}`,
          ),
    );
  }
  more?.(problems);
  problems.throwIfAny(where);
}

/**
 * terraform-aws-eks `modules/karpenter` v19 set up IRSA only (its role `KarpenterIRSA-<cluster>-…` trusts the
 * cluster's OIDC provider); Pod Identity and the `create_pod_identity_association` input arrived in v20 (the
 * module's v20.0.0 release and its UPGRADE-20.0.md). A v19 module that "created" an association is another major.
 */
function checkV19WithoutPodIdentity(where: string, props: TerraformAwsEksModuleAdoptionProps): void {
  if (props.major !== 19 || props.createdPodIdentityAssociation !== true) return;
  throw new KarpenterValidationError(
    "ADOPTION_V19_POD_IDENTITY",
    where,
    "createdPodIdentityAssociation",
    props.createdPodIdentityAssociation,
    "false (or unset) with major 19: v19 of terraform-aws-modules/eks//modules/karpenter creates an IRSA role and no Pod Identity association (create_pod_identity_association came with v20). If the module is v20 or v21, set major to it; an association created outside the module is adopted with podIdentityAssociationId alone",
  );
}

/** The managed policies of the 1.9+ getting-started template of version `v` (the library's groups with a queue). */
function upstreamPolicyGroups(v: ReturnType<typeof resolveKarpenterVersion>): string[] {
  const s = "x";
  return controllerPolicyGroups(v, {
    partition: s,
    region: s,
    account: s,
    clusterName: s,
    clusterArn: s,
    nodeRoleArn: s,
    queueArn: s,
  }).map((g) => g.key);
}

/**
 * The adoption presets for every language: {@link gettingStartedAdoption} and
 * {@link terraformAwsEksModuleAdoption} of the TypeScript API as static methods (jsii bindings carry
 * no module-level function). Give the result to the `Karpenter` construct's `adopt` prop.
 */
export class AdoptionPresets {
  /**
   * The install of the Karpenter getting-started guide (v1.x): see {@link gettingStartedAdoption}.
   * @param props the cluster name, the version the guide installed and what eksctl created
   * @throws an error naming the field for an unsupported `version` or a missing association ID
   */
  public static gettingStarted(props: GettingStartedAdoptionProps): KarpenterAdoption {
    return gettingStartedAdoption(props);
  }

  /**
   * An install by terraform-aws-eks `modules/karpenter` v19, v20 or v21: see {@link terraformAwsEksModuleAdoption}.
   * @param props the module's major version and the names it generated
   * @throws an error naming the field for another major version, a missing name, or a missing association ID
   */
  public static terraformAwsEksModule(props: TerraformAwsEksModuleAdoptionProps): KarpenterAdoption {
    return terraformAwsEksModuleAdoption(props);
  }

  private constructor() {}
}
