import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../core/errors";
import type { KarpenterProps } from "./karpenter";
import { SystemNodeGroup, SystemNodeTaint, SYSTEM_NODE_LABEL } from "../cluster/system-node-group";
import { KubernetesToleration } from "../helm/karpenter-settings";
import { checkAdditionalStatements, checkIdentity, controllerPolicyOutline } from "../aws/controller-role-checks";
import { isPlainMap } from "../core/deep-merge";
import { checkValuePaths } from "../helm/chart-values";
import { checkRepository } from "../helm/helm";
import { checkOptionKeys, checkPolicyArns, checkQueueKmsKey, checkTagKey, checkTags } from "../aws-api/input-checks";
import { IKarpenterCluster } from "../cluster/karpenter-cluster";
import type { KarpenterControllerRoleOptions } from "../aws/karpenter-options";
import { checkNamespace, checkServiceAccountName } from "../kubernetes/names";
import { checkKubernetesCompatibility } from "../cluster/kubernetes-compatibility";
import { checkNodeRoleOptions } from "../aws/node-role-options";
import { Problems } from "../core/problems";
import { CHART_FEATURE_GATES, CHART_SETTINGS } from "../helm/chart-settings";
import { CONTROLLER_RESOURCES, CONTROLLER_ROLE_OPTIONS, CREATED_QUEUE_OPTIONS, EXISTING_NODE_ROLE, EXISTING_QUEUE_OPTIONS, IRSA_IDENTITY, KARPENTER_PROPS, NODE_ROLE_OPTIONS } from "../core/prop-keys";
import { checkDnsPolicy, checkEscapeHatch, checkMap, checkReplicas, controllerResources, nonFiniteNumbers, settingsValues } from "../helm/release-values";
import { isUnresolved } from "../core/tokens";
import { allowUnverifiedVersions, KarpenterVersion, resolveKarpenterVersion } from "../versions/karpenter-version";
import { TypedValue, typedValues } from "../helm/values-overlap";
import { requireCluster } from "../cluster/require-cluster";

/*
 * Karpenter's own props, checked as a whole before any building block exists: every problem is
 * recorded in one Problems, each on the Karpenter construct and the prop the user set
 * (`namespace`, `nodeRole.roleName`, `values.tolerations`…), not on a building block's path.
 * The building blocks check the same values again when built; by then they pass.
 */

/**
 * The keys of Karpenter's option objects, for the hint on an unknown prop that belongs in one of
 * them (`roleName` → `nodeRole.roleName or controllerRole.roleName`). Settings and feature gates are
 * the typed keys of the newest chart (those the construct wires itself are not settings a user sets).
 */
const KARPENTER_NESTED_KEYS: Readonly<Record<string, readonly string[]>> = {
  nodeRole: NODE_ROLE_OPTIONS,
  controllerRole: CONTROLLER_ROLE_OPTIONS,
  interruptionQueue: [...CREATED_QUEUE_OPTIONS, ...EXISTING_QUEUE_OPTIONS],
  identity: IRSA_IDENTITY,
  controllerResources: CONTROLLER_RESOURCES,
  settings: [...CHART_SETTINGS.filter((f) => !f.wired).map((f) => f.key), "featureGates"],
  "settings.featureGates": CHART_FEATURE_GATES.map((f) => f.key),
};

/**
 * Records every problem of `props` in `problems`.
 * @returns the Karpenter version and the cluster, each when it passed its checks
 */
export function checkKarpenterProps(scope: IConstruct, props: KarpenterProps, problems: Problems): { version?: KarpenterVersion; cluster?: IKarpenterCluster } {
  problems.check(() => checkOptionKeys(scope, "", props, KARPENTER_PROPS, KARPENTER_NESTED_KEYS));
  const cluster = problems.check(() => requireCluster(scope, props));
  if (props === undefined || props === null || typeof props !== "object") return {};
  let version: KarpenterVersion | undefined;
  if (props.allowUnverifiedVersion !== undefined && typeof props.allowUnverifiedVersion !== "boolean") {
    problems.add(new KarpenterValidationError(scope, "allowUnverifiedVersion", props.allowUnverifiedVersion, "true or false"));
  } else {
    if (props.allowUnverifiedVersion === true) allowUnverifiedVersions(scope);
    version = problems.check(() => resolveKarpenterVersion(scope, props.version));
  }
  if (version && cluster) problems.check(() => checkKubernetesCompatibility(scope, "version", version!, cluster));
  if (props.namespace !== undefined) problems.check(() => checkNamespace(scope, "namespace", props.namespace!));
  if (props.serviceAccountName !== undefined) problems.check(() => checkServiceAccountName(scope, "serviceAccountName", props.serviceAccountName!));
  if (props.replicas !== undefined) problems.check(() => checkReplicas(scope, "replicas", props.replicas));
  if (props.dnsPolicy !== undefined) problems.check(() => checkDnsPolicy(scope, "dnsPolicy", props.dnsPolicy));
  if (props.repository !== undefined) problems.check(() => checkRepository(scope, "repository", props.repository!));
  problems.check(() => controllerResources(scope, props.controllerResources));
  if (version) problems.check(() => settingsValues(scope, version!, props.settings));
  problems.check(() => checkTags(scope, props.tags));
  problems.check(() => checkTagKey(scope, "discoveryTagKey", props.discoveryTagKey));
  for (const [field, value] of [["spotServiceLinkedRole", props.spotServiceLinkedRole]] as const) {
    if (value !== undefined && typeof value !== "boolean") problems.add(new KarpenterValidationError(scope, field, value, "true or false"));
  }
  if (props.systemNodeGroup !== undefined && !(props.systemNodeGroup instanceof SystemNodeGroup)) {
    problems.add(new KarpenterValidationError(scope, "systemNodeGroup", "(not a SystemNodeGroup)", "a SystemNodeGroup construct of this app"));
  }

  // an unknown key of an option object does not hide the other problems of that object
  problems.check(() => checkOptionKeys(scope, "nodeRole", props.nodeRole, NODE_ROLE_OPTIONS, { existingRole: EXISTING_NODE_ROLE }));
  if (isPlainMap(props.nodeRole)) problems.check(() => checkNodeRoleOptions(scope, "nodeRole", props.nodeRole!, version));
  problems.check(() => checkOptionKeys(scope, "controllerRole", props.controllerRole, CONTROLLER_ROLE_OPTIONS));
  const controllerRole = isPlainMap(props.controllerRole) ? (props.controllerRole as KarpenterControllerRoleOptions) : undefined;
  if (controllerRole) {
    problems.check(() => checkPolicyArns(scope, "controllerRole.additionalPolicyArns", controllerRole.additionalPolicyArns));
    // the Sids the statements must not reuse are the version's (the queue statement only with a queue)
    const officialSids = version ? controllerPolicyOutline(version, { queue: props.interruptionQueue !== false, kmsKey: false }).sids : [];
    problems.check(() => checkAdditionalStatements(scope, "controllerRole.additionalStatements", controllerRole.additionalStatements, officialSids));
  }
  const identity = problems.check(() => checkIdentity(scope, "identity", props.identity));

  const values = problems.check(() => checkMap(scope, "values", props.values));
  if (values) {
    if (version) {
      problems.check(() => checkEscapeHatch(scope, version!, values, identity?.type === "irsa"));
      // the typed props write only paths the chart has: an unknown path can only come from values
      problems.check(() => checkValuePaths(scope, version!.full, values, (parts) => `values.${parts.join(".")}`));
    }
    if (values.replicas !== undefined) problems.check(() => checkReplicas(scope, "values.replicas", values.replicas));
    if (values.dnsPolicy !== undefined && values.dnsPolicy !== null) problems.check(() => checkDnsPolicy(scope, "values.dnsPolicy", values.dnsPolicy));
    if (props.systemNodeGroup instanceof SystemNodeGroup) problems.check(() => checkSystemScheduling(scope, props.systemNodeGroup!, values));
    // after the checks above, so that a value one of them refused (values.replicas = NaN) is named once
    for (const p of nonFiniteNumbers(scope, values, (_keys, path) => `values.${path}`, problems.all)) problems.add(p);
  }
  if (isPlainMap(props.interruptionQueue)) problems.check(() => checkQueueKmsKey(scope, "interruptionQueue.kmsKey", (props.interruptionQueue as { kmsKey?: unknown }).kmsKey));
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
export function systemNodeGroupValues(system: SystemNodeGroup, wiredTolerations: KubernetesToleration[] | undefined, values: unknown): TypedValue[] {
  const selector = typedValues(["nodeSelector"], "systemNodeGroup (its labels, as nodeSelector)", system.labels).map((t) => ({
    ...t,
    advice: `Set it in one place only (prefer the labels of the SystemNodeGroup ${system.node.path}, which its nodes carry and the controller's node selector is wired from)`,
  }));
  if (wiredTolerations === undefined || !isPlainMap(values) || values.tolerations === undefined) return selector;
  const untolerated = untoleratedTaints(system, values.tolerations);
  if (untolerated !== undefined && untolerated.length === 0) return selector;
  const replaces = "values.tolerations replaces the wired list (Helm replaces lists)";
  const advice =
    untolerated === undefined
      ? `${replaces} and is known only at apply: make sure it tolerates every taint of the system node group ${system.node.path}, or drop values.tolerations`
      : `${replaces} and does not tolerate ${untolerated.map(showTaint).join(", ")} of the system node group ${system.node.path}, so the scheduler prefers other nodes for the controller: add a toleration for each taint of the group to values.tolerations, or drop values.tolerations`;
  return [...selector, ...typedValues(["tolerations"], "systemNodeGroup (its taints, as tolerations)", wiredTolerations).map((t) => ({ ...t, advice }))];
}

/** Whether one toleration tolerates a taint (Kubernetes core/v1 `Toleration.ToleratesTaint`). */
function tolerates(t: KubernetesToleration, key: string, value: string | undefined, effect: string): boolean {
  if (t === null || typeof t !== "object") return false;
  if (t.effect !== undefined && (t.effect as string) !== "" && t.effect !== effect) return false;
  if (t.operator === "Exists") return t.key === undefined || t.key === "" || t.key === key;
  return t.key === key && (t.value ?? "") === (value ?? "");
}
