import { lookupTable } from "../core/lookup";
import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../core/errors";
import { SystemNodeGroup, SystemNodeTaint, SYSTEM_NODE_LABEL } from "../cluster/system-node-group";
import {
  ControllerResources,
  KarpenterDnsPolicy,
  KarpenterSettings,
  KubernetesToleration,
} from "../helm/karpenter-settings";
import { checkAdditionalStatements, checkIdentity, controllerPolicyOutline } from "../aws/controller-role-checks";
import { isPlainMap, mergeHelmValues } from "../core/deep-merge";
import { checkValuePaths } from "../helm/chart-values";
import { checkRepository } from "../helm/helm";
import { readControllerEnv } from "../helm/controller-env";
import { checkOptionKeys, checkPolicyArns, checkTagKey, checkTags } from "../aws-api/input-checks";
import { checkQueueKmsKey, createsQueueKey } from "../aws/interruption-queue-kms-key";
import { createdQueueOptions, queueDisabled } from "./existing-queue";
import type { TagReceiver } from "../aws-api/tag-rules";
import {
  CONTROLLER_ROLE_TAG_RECEIVERS,
  nodeRoleTagReceivers,
  queueTagReceivers,
  SPOT_ROLE_TAG_RECEIVERS,
} from "../aws/tag-receivers";
import { IKarpenterCluster } from "../cluster/karpenter-cluster";
import type { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import type {
  InterruptionQueueConfig,
  KarpenterControllerRoleOptions,
  KarpenterNodeRoleOptions,
} from "../aws/karpenter-options";
import type { ControllerIdentity } from "../aws/controller-role-spec";
import type { KarpenterAdoption } from "../adopt/karpenter-adoption";
import { checkNamespace, checkServiceAccountName } from "../kubernetes/names";
import { checkKubernetesCompatibility, literalKubernetesVersion } from "../cluster/kubernetes-compatibility";
import { checkNotAutoMode } from "../cluster/auto-mode";
import { checkNodeRoleOptions } from "../aws/node-role-options";
import { Problems } from "../core/problems";
import { CHART_AWS_FEATURE_GATES, CHART_FEATURE_GATES, CHART_SETTINGS } from "../helm/chart-settings";
import {
  CONTROLLER_RESOURCES,
  CONTROLLER_ROLE_OPTIONS,
  CREATED_QUEUE_OPTIONS,
  EXISTING_NODE_ROLE,
  EXISTING_QUEUE_OPTIONS,
  IRSA_IDENTITY,
  KARPENTER_PROPS,
  NODE_ROLE_OPTIONS,
} from "../core/prop-keys";
import {
  checkDnsConfig,
  checkDnsPolicy,
  checkEscapeHatch,
  checkMap,
  checkReplicas,
  checkSettingCombinations,
  controllerResources,
  hasPath,
  nonFiniteNumbers,
  settingsValues,
} from "../helm/release-values";
import { isUnresolved } from "../core/tokens";
import { allowUnverifiedVersions, KarpenterVersion, resolveKarpenterVersion } from "../versions/karpenter-version";
import { TypedValue, typedValues } from "../helm/values-overlap";
import { requireCluster } from "../cluster/require-cluster";

/*
 * Karpenter's own props, checked as a whole before any building block exists: every problem is
 * recorded in one Problems, each on the Karpenter construct and the prop the user set
 * (`namespace`, `nodeRole.roleName`, `values.tolerations`…), not on a building block's path.
 * The building blocks it then builds skip these checks (`checkedByOwner`), so each runs and warns once, and
 * report only what they check beyond them (the values Karpenter wires) under Karpenter's props (`buildAsPart`).
 */

/** Props of {@link Karpenter}. */
export interface KarpenterProps {
  /**
   * The EKS cluster (required): `KarpenterCluster.fromEksCluster(cluster)` or
   * `KarpenterCluster.fromClusterName(scope, id, name)`. One `Karpenter` per cluster in the app.
   * @throws KarpenterValidationError for an `aws_eks_cluster` of the app with EKS Auto Mode
   * (`computeConfig.enabled` literally true: Auto Mode runs its own Karpenter); a token there warns
   */
  readonly cluster: IKarpenterCluster;
  /**
   * The Karpenter version, `"1.15.3"`: any patch of the minors 1.0–1.15 (a patch newer than the
   * newest known one warns: the chart must exist). It selects the controller policy, node policies,
   * event rules, chart settings, chart value paths and CRD fields. It must support the cluster's
   * Kubernetes version when that is a literal (e.g. Kubernetes 1.34 needs 1.6.6+, except 1.7.0–1.7.3;
   * Karpenter compatibility matrix).
   * @default DEFAULT_KARPENTER_VERSION ("1.15.3")
   * @throws KarpenterValidationError for a release newer than every release this library knows
   * (e.g. 1.16.0 while the newest known release is 1.15.3), unless `allowUnverifiedVersion` is true
   */
  readonly version?: string;
  /**
   * Opt-in to install a Karpenter `version` newer than every release this library knows (a new
   * minor, e.g. 1.16.0). Both Helm releases then install that version, but every fact the library
   * derives from the version — controller IAM policy, node role policies, interruption event rules,
   * chart settings and value paths, CRD fields and rules, Kubernetes compatibility — is taken from
   * the newest known release, unverified: synth warns naming both versions, and settings or values
   * the newest known chart lacks pass with a warning instead of an error. The opt-in holds for the
   * whole app (node objects and other constructs naming that version). Prefer adding the release
   * with `npm run add-version` (docs/versions.md). Patches newer than the newest known patch of a
   * known minor (e.g. 1.14.5) need no opt-in.
   * @default false
   */
  readonly allowUnverifiedVersion?: boolean;
  /** Namespace of both releases (and of the pod identity association). @default "kube-system" */
  readonly namespace?: string;
  /** The controller's ServiceAccount, shared by the chart and the pod identity association / IRSA trust. @default "karpenter" */
  readonly serviceAccountName?: string;
  /**
   * How the controller gets its IAM role: EKS Pod Identity (`{ type: "podIdentity" }`, needs the
   * `eks-pod-identity-agent` add-on) or IRSA (`{ type: "irsa", oidcProviderArn? }`, needs the
   * cluster's IAM OIDC provider).
   * @default { type: "podIdentity" }
   */
  readonly identity?: ControllerIdentity;
  /**
   * The interruption queue. {@link InterruptionQueueConfig.create} (the default) creates a queue and
   * its EventBridge rules, shaped by `{ queueName?, ruleNamePrefix?, kmsKey? }`;
   * {@link InterruptionQueueConfig.existing} uses a queue you already have, `{ existingQueueName,
   * existingQueueArn, kmsKeyArn? }` (nothing created, the controller policy names it,
   * `settings.interruptionQueue` is its name); {@link InterruptionQueueConfig.disabled} turns
   * interruption handling off (no queue, no rules, no queue statement in the controller policy, no
   * `settings.interruptionQueue`). The controller looks the queue up by name in its own region and
   * account, so an existing queue must be in the cluster's: synth warns when its ARN names another
   * region or account than the cluster's AWS provider (literal `region`; account from
   * `allowedAccountIds` or the assumed role).
   * @default InterruptionQueueConfig.create()
   * @throws KarpenterValidationError for anything but an InterruptionQueueConfig (the 0.x shapes `true`,
   * `false` and plain objects get what to write instead), a key outside the chosen shape, an existing
   * queue whose literal ARN is not an SQS ARN, whose name is not an SQS name, or whose name is not the
   * ARN's last segment
   */
  readonly interruptionQueue?: InterruptionQueueConfig;
  /**
   * Controller replicas. With `systemNodeGroup`, at most its size (the chart's anti-affinity needs
   * one node per replica): checked at synth.
   * @default 2
   */
  readonly replicas?: number;
  /** Controller container resources. @default requests 500m CPU / 512Mi, limits 512Mi memory */
  readonly controllerResources?: ControllerResources;
  /** The controller pod's DNS policy (see `KarpenterReleaseProps.dnsPolicy`). @default "Default" */
  readonly dnsPolicy?: KarpenterDnsPolicy;
  /** Typed chart settings and feature gates, checked against the version. @default the chart's */
  readonly settings?: KarpenterSettings;
  /**
   * Raw chart values deep-merged last (see `KarpenterReleaseProps.values`): the merged document is
   * checked against the version's chart values.yaml, and requests against limits. The ServiceAccount
   * name and the `eks.amazonaws.com/role-arn` annotation are wired and cannot be set here. With
   * Karpenter 1.0.x, `fullnameOverride`, `webhook.enabled` and `webhook.port` are mirrored into the
   * karpenter-crd release, whose CRDs call the controller's conversion webhook.
   *
   * `values` wins over a typed prop that sets the same chart value (`replicas`, `dnsPolicy`,
   * `controllerResources`, `settings`, and the node selector and tolerations wired from
   * `systemNodeGroup`): the `values` one is deployed and synth warns naming both. A `values.tolerations`
   * that still tolerates every taint of the system node group (Kubernetes toleration matching; an empty
   * key with `Exists` tolerates all) only adds tolerations: there is no tolerations prop, so it is not
   * warned about. Checks run on the
   * merged value and name `values.<path>` when it came from here: `values.replicas` above the system
   * node group's size, `values.tolerations` that do not tolerate a NoSchedule / NoExecute taint of
   * the system node group, or a `values.nodeSelector["node-role"]` other than `system` are errors.
   * @default none
   */
  readonly values?: Record<string, unknown>;
  /** The node role: created by default, or your own. @default a `KarpenterNodeRole-<cluster>` role */
  readonly nodeRole?: KarpenterNodeRoleOptions;
  /** Options of the controller role. @default upstream names, no extra statements */
  readonly controllerRole?: KarpenterControllerRoleOptions;
  /**
   * Create the `spot.amazonaws.com` service-linked role. It exists once per account, so creating it
   * fails where it already exists (any earlier spot launch); turn on only for fresh accounts, and on
   * one install per account (two installs of the app asking for it fail at synth).
   * @default false
   */
  readonly spotServiceLinkedRole?: boolean;
  /**
   * The fixed-size node group the controller runs on: the controller gets its labels as node
   * selector, tolerations for its taints, and waits for it; replicas are checked against its size.
   * @default none (the chart's scheduling: any node not launched by Karpenter)
   */
  readonly systemNodeGroup?: SystemNodeGroup;
  /** Chart repository of both charts, for a mirror; pulled anonymously. @default "oci://public.ecr.aws/karpenter" */
  readonly repository?: string;
  /**
   * Tags for the AWS resources Terraform creates for the install (roles, policies, queue, rules, access
   * entry). Not for the nodes: what Karpenter launches (instances, volumes, network interfaces, launch
   * templates) takes the EC2NodeClass's `tags` (docs/node-objects.md, "Tags").
   * @default none
   */
  readonly tags?: Record<string, string>;
  /**
   * The Helm provider connected to this cluster, for both releases. (The AWS resources use the
   * cluster's AWS provider: the `provider` of its `EksCluster`, or `fromClusterName`'s `provider`.)
   * @default the stack's default Helm provider, when it is the stack's only Helm provider and this is
   * the stack's only install relying on it; synth fails naming this prop otherwise
   */
  readonly helmProvider?: HelmProvider;
  /**
   * The tag key of the cluster's subnets and security group (value: the cluster name), for the
   * default selector terms of this install's EC2NodeClasses. Give a per-cluster key when subnets are
   * shared by several clusters (the same key as the cluster's `DiscoveryTags.tagKey`).
   * @default "karpenter.sh/discovery"
   */
  readonly discoveryTagKey?: string;
  /**
   * What an earlier install of Karpenter on this cluster left running: those resources are imported
   * (Terraform `import` blocks; Terraform ≥ 1.6) under their existing names instead of created, a
   * legacy controller policy is detached only after the new ones are attached, and the Helm releases
   * are adopted in place (`upgrade_install`; the old chart's CRDs move into `karpenter-crd` with
   * `take_ownership`). Presets: `gettingStartedAdoption(...)`, `terraformAwsEksModuleAdoption(...)`.
   * Keep it until the first apply has succeeded (an import block of a resource already in state is a
   * no-op). See docs/adopting.md.
   * @default nothing exists: everything is created
   * @throws KarpenterValidationError for a malformed adoption or one that contradicts `nodeRole`,
   * `controllerRole`, `identity` or `interruptionQueue`
   */
  readonly adopt?: KarpenterAdoption;
}

/**
 * The keys of Karpenter's option objects, for the hint on an unknown prop that belongs in one of
 * them (`roleName` → `nodeRole.roleName or controllerRole.roleName`). Settings and feature gates are
 * the typed keys of the newest chart (those the construct wires itself are not settings a user sets).
 */
const KARPENTER_NESTED_KEYS: Readonly<Record<string, readonly string[]>> = lookupTable({
  nodeRole: NODE_ROLE_OPTIONS,
  controllerRole: CONTROLLER_ROLE_OPTIONS,
  interruptionQueue: [...CREATED_QUEUE_OPTIONS, ...EXISTING_QUEUE_OPTIONS],
  identity: IRSA_IDENTITY,
  controllerResources: CONTROLLER_RESOURCES,
  settings: [...CHART_SETTINGS.filter((f) => !f.wired).map((f) => f.key), "featureGates", "awsFeatureGates"],
  "settings.featureGates": CHART_FEATURE_GATES.map((f) => f.key),
  "settings.awsFeatureGates": CHART_AWS_FEATURE_GATES.map((f) => f.key),
});

/**
 * Records every problem of `props` in `problems`.
 * @returns the Karpenter version and the cluster, each when it passed its checks
 */
export function checkKarpenterProps(
  scope: IConstruct,
  props: KarpenterProps,
  problems: Problems,
): { version?: KarpenterVersion; cluster?: IKarpenterCluster } {
  problems.check(() => checkOptionKeys(scope, "", props, KARPENTER_PROPS, KARPENTER_NESTED_KEYS));
  const cluster = problems.check(() => requireCluster(scope, props));
  if (props === undefined || props === null || typeof props !== "object") return {};
  let version: KarpenterVersion | undefined;
  if (props.allowUnverifiedVersion !== undefined && typeof props.allowUnverifiedVersion !== "boolean") {
    problems.add(
      new KarpenterValidationError(
        "INSTALL_NOT_A_BOOLEAN",
        scope,
        "allowUnverifiedVersion",
        props.allowUnverifiedVersion,
        "true or false",
      ),
    );
  } else {
    if (props.allowUnverifiedVersion === true) allowUnverifiedVersions(scope);
    version = problems.check(() => resolveKarpenterVersion(scope, props.version));
  }
  if (version && cluster) problems.check(() => checkKubernetesCompatibility(scope, "version", version!, cluster));
  if (cluster) problems.check(() => checkNotAutoMode(scope, "cluster", cluster));
  if (props.namespace !== undefined) problems.check(() => checkNamespace(scope, "namespace", props.namespace!));
  if (props.serviceAccountName !== undefined)
    problems.check(() => checkServiceAccountName(scope, "serviceAccountName", props.serviceAccountName!));
  if (props.replicas !== undefined) problems.check(() => checkReplicas(scope, "replicas", props.replicas));
  if (props.dnsPolicy !== undefined) problems.check(() => checkDnsPolicy(scope, "dnsPolicy", props.dnsPolicy));
  if (props.repository !== undefined) problems.check(() => checkRepository(scope, "repository", props.repository!));
  problems.check(() => controllerResources(scope, props.controllerResources));
  // before anything reads values: a cycle or a nesting too deep for the recursive walks below is an error here
  const values = problems.check(() => checkMap(scope, "values", props.values));
  // the settings that passed their checks: the combinations are judged on them even when another setting is bad
  let readable: Record<string, unknown> | undefined;
  // the entries of values.controller.env, read once for the checks below (helm/controller-env.ts)
  const env = readControllerEnv(values);
  const typedSettings = version
    ? (problems.check(() => settingsValues(scope, version!, props.settings, (r) => (readable = r), values, env)) ??
      readable)
    : undefined;
  if (typedSettings) {
    // what the release gets: values.settings merged over the typed settings
    const escapeSettings = values && isPlainMap(values.settings) ? values.settings : undefined;
    const merged = escapeSettings
      ? mergeHelmValues({ settings: typedSettings }, { settings: escapeSettings }).settings
      : typedSettings;
    const fromValues = (parts: readonly string[]) =>
      escapeSettings !== undefined && hasPath({ settings: escapeSettings }, ["settings", ...parts]);
    problems.check(() =>
      checkSettingCombinations(
        scope,
        merged,
        (parts) => (fromValues(parts) ? "values." : "") + ["settings", ...parts].join("."),
        false,
      ),
    );
  }
  problems.check(() => checkTags(scope, props.tags, installTagReceivers(props)));
  problems.check(() => checkTagKey(scope, "discoveryTagKey", props.discoveryTagKey));
  for (const [field, value] of [["spotServiceLinkedRole", props.spotServiceLinkedRole]] as const) {
    if (value !== undefined && typeof value !== "boolean")
      problems.add(new KarpenterValidationError("INSTALL_NOT_A_BOOLEAN", scope, field, value, "true or false"));
  }
  if (props.systemNodeGroup !== undefined && !(props.systemNodeGroup instanceof SystemNodeGroup)) {
    problems.add(
      new KarpenterValidationError(
        "INSTALL_SYSTEM_NODE_GROUP",
        scope,
        "systemNodeGroup",
        "(not a SystemNodeGroup)",
        "a SystemNodeGroup construct of this app",
      ),
    );
  }

  // an unknown key of an option object does not hide the other problems of that object
  problems.check(() =>
    checkOptionKeys(scope, "nodeRole", props.nodeRole, NODE_ROLE_OPTIONS, { existingRole: EXISTING_NODE_ROLE }),
  );
  if (isPlainMap(props.nodeRole))
    problems.check(() => checkNodeRoleOptions(scope, "nodeRole", props.nodeRole!, version));
  problems.check(() => checkOptionKeys(scope, "controllerRole", props.controllerRole, CONTROLLER_ROLE_OPTIONS));
  const controllerRole = isPlainMap(props.controllerRole)
    ? (props.controllerRole as KarpenterControllerRoleOptions)
    : undefined;
  if (controllerRole) {
    problems.check(() =>
      checkPolicyArns(scope, "controllerRole.additionalPolicyArns", controllerRole.additionalPolicyArns),
    );
    // the Sids the statements must not reuse are the version's (the queue statement only with a queue)
    const officialSids = version
      ? controllerPolicyOutline(version, { queue: !queueDisabled(props.interruptionQueue), kmsKey: false }).sids
      : [];
    problems.check(() =>
      checkAdditionalStatements(
        scope,
        "controllerRole.additionalStatements",
        controllerRole.additionalStatements,
        officialSids,
      ),
    );
  }
  const identity = problems.check(() => checkIdentity(scope, "identity", props.identity));

  // here too, not only in KarpenterRelease: that is built only once every prop here passed; before checkValuePaths,
  // whose typed-subtree check does not repeat what this one reports
  if (values || props.values === undefined) problems.check(() => checkDnsConfig(scope, props.dnsPolicy, values));
  if (values) {
    if (version) {
      problems.check(() =>
        checkEscapeHatch(
          scope,
          version!,
          values,
          identity?.type === "irsa",
          cluster?.clusterNameLiteral,
          props.settings,
          env,
          undefined,
          cluster ? literalKubernetesVersion(cluster) : undefined,
        ),
      );
      // the typed props write only paths the chart has: an unknown path can only come from values
      problems.check(() =>
        checkValuePaths(scope, version!.full, values, (parts) => `values.${parts.join(".")}`, problems.all),
      );
    }
    if (values.replicas !== undefined) problems.check(() => checkReplicas(scope, "values.replicas", values.replicas));
    if (values.dnsPolicy !== undefined && values.dnsPolicy !== null)
      problems.check(() => checkDnsPolicy(scope, "values.dnsPolicy", values.dnsPolicy));
    if (props.systemNodeGroup instanceof SystemNodeGroup)
      problems.check(() => checkSystemScheduling(scope, props.systemNodeGroup!, values));
    // after the checks above, so that a value one of them refused (values.replicas = NaN) is named once
    for (const p of nonFiniteNumbers(scope, values, (_keys, path) => `values.${path}`, problems.all)) problems.add(p);
  }
  const created = createdQueueOptions(props.interruptionQueue);
  if (isPlainMap(created)) problems.check(() => checkQueueKmsKey(scope, "interruptionQueue.kmsKey", created.kmsKey));
  return { version, cluster };
}

/** The effects of the EKS taint spelling, in Kubernetes spelling. */
const EFFECT = { NO_SCHEDULE: "NoSchedule", NO_EXECUTE: "NoExecute", PREFER_NO_SCHEDULE: "PreferNoSchedule" } as const;

/**
 * `values` is merged last, over the node selector and tolerations wired from the system node group:
 * a `values.tolerations` list replaces the wired one (Helm replaces lists) and must still tolerate
 * every NoSchedule / NoExecute taint of the group, and `values.nodeSelector` must not point the
 * controller away from the group's `node-role=system` label — else the controller pods never schedule.
 * @throws KarpenterValidationError naming `values.tolerations` or `values.nodeSelector["node-role"]`
 */
function checkSystemScheduling(scope: IConstruct, system: SystemNodeGroup, values: Record<string, unknown>): void {
  const problems = new Problems();
  const tolerations = values.tolerations;
  const untolerated = untoleratedTaints(system, tolerations)?.filter((t) => t.effect !== "PREFER_NO_SCHEDULE");
  if (tolerations !== undefined && untolerated !== undefined) {
    if (untolerated.length > 0) {
      const shown = untolerated.map(showTaint).join(", ");
      problems.add(
        new KarpenterValidationError(
          "INSTALL_SYSTEM_NODE_GROUP_TOLERATIONS",
          scope,
          "values.tolerations",
          tolerations,
          `tolerations of every taint of the system node group ${system.node.path} (${shown} not tolerated): values.tolerations replaces the tolerations wired from the group (Helm replaces lists), so the controller pods could never be scheduled on it. Add a toleration for each taint, or drop values.tolerations`,
        ),
      );
    }
  }
  const selector = values.nodeSelector;
  if (isPlainMap(selector)) {
    const role = selector[SYSTEM_NODE_LABEL.key];
    if (role !== undefined && !isUnresolved(role) && role !== SYSTEM_NODE_LABEL.value) {
      problems.add(
        new KarpenterValidationError(
          "INSTALL_SYSTEM_NODE_GROUP_SELECTOR",
          scope,
          `values.nodeSelector["${SYSTEM_NODE_LABEL.key}"]`,
          role,
          `"${SYSTEM_NODE_LABEL.value}" or unset: with systemNodeGroup the controller runs on the group's nodes, labelled ${SYSTEM_NODE_LABEL.key}=${SYSTEM_NODE_LABEL.value}; another value leaves it without nodes`,
        ),
      );
    }
  }
  problems.throwIfAny(scope);
}

/** A taint as kubectl shows it, in Kubernetes spelling: `key=value:NoSchedule`. */
function showTaint(t: SystemNodeTaint): string {
  return `${t.key}${t.value ? `=${t.value}` : ""}:${EFFECT[t.effect]}`;
}

/**
 * The taints of the system node group that no toleration of `tolerations` (a `values.tolerations`,
 * `null` and a non-list tolerating nothing) tolerates; undefined when the list or the taints are
 * only known at apply.
 */
function untoleratedTaints(system: SystemNodeGroup, tolerations: unknown): SystemNodeTaint[] | undefined {
  if (isUnresolved(tolerations) || !Array.isArray(system.taints) || isUnresolved(system.taints)) return undefined;
  const list = Array.isArray(tolerations) ? (tolerations as KubernetesToleration[]) : [];
  return system.taints.filter((taint) => !list.some((t) => tolerates(t, taint.key, taint.value, EFFECT[taint.effect])));
}

/**
 * What the system node group wires into the controller's values, for the overlap warnings of
 * `values`: the node selector from its labels, and `wiredTolerations` for its taints. Each warning's
 * advice names what the user can set (the group's `labels`, or `values.tolerations` itself: there is
 * no tolerations prop). A `values.tolerations` that still tolerates every taint of the group only adds
 * tolerations: no warning (one that drops a NoSchedule / NoExecute toleration is an error, see
 * checkSystemScheduling; one that drops a PreferNoSchedule one, or is only known at apply, warns).
 */
export function systemNodeGroupValues(
  system: SystemNodeGroup,
  wiredTolerations: KubernetesToleration[] | undefined,
  values: unknown,
): TypedValue[] {
  const selector = typedValues(["nodeSelector"], "systemNodeGroup (its labels, as nodeSelector)", system.labels).map(
    (t) => ({
      ...t,
      advice: `Set it in one place only (prefer the labels of the SystemNodeGroup ${system.node.path}, which its nodes carry and the controller's node selector is wired from)`,
    }),
  );
  if (wiredTolerations === undefined || !isPlainMap(values) || values.tolerations === undefined) return selector;
  const untolerated = untoleratedTaints(system, values.tolerations);
  if (untolerated !== undefined && untolerated.length === 0) return selector;
  const replaces = "values.tolerations replaces the wired list (Helm replaces lists)";
  const advice =
    untolerated === undefined
      ? `${replaces} and is known only at apply: make sure it tolerates every taint of the system node group ${system.node.path}, or drop values.tolerations`
      : `${replaces} and does not tolerate ${untolerated.map(showTaint).join(", ")} of the system node group ${system.node.path}, so the scheduler prefers other nodes for the controller: add a toleration for each taint of the group to values.tolerations, or drop values.tolerations`;
  return [
    ...selector,
    ...typedValues(["tolerations"], "systemNodeGroup (its taints, as tolerations)", wiredTolerations).map((t) => ({
      ...t,
      advice,
    })),
  ];
}

/** Whether one toleration tolerates a taint (Kubernetes core/v1 `Toleration.ToleratesTaint`). */
function tolerates(t: KubernetesToleration, key: string, value: string | undefined, effect: string): boolean {
  if (t === null || typeof t !== "object") return false;
  if (t.effect !== undefined && (t.effect as string) !== "" && t.effect !== effect) return false;
  if (t.operator === "Exists") return t.key === undefined || t.key === "" || t.key === key;
  return t.key === key && (t.value ?? "") === (value ?? "");
}

/** What gets an install's `tags`: each resource of its building blocks that the props create. */
function installTagReceivers(props: KarpenterProps): TagReceiver[] {
  const queue = createdQueueOptions(props.interruptionQueue);
  return [
    ...nodeRoleTagReceivers(isPlainMap(props.nodeRole) && props.nodeRole.existingRole !== undefined),
    ...CONTROLLER_ROLE_TAG_RECEIVERS,
    ...(queue !== undefined ? queueTagReceivers(createsQueueKey(queue.kmsKey)) : []),
    ...(props.spotServiceLinkedRole === true ? SPOT_ROLE_TAG_RECEIVERS : []),
  ];
}
