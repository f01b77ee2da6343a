import { Construct } from "constructs";
import { Annotations, ITerraformDependable, Token } from "cdktf";
import { Release } from "@cdktf/provider-helm/lib/release";
import { KarpenterValidationError } from "./errors";
import { IKarpenterCluster } from "./karpenter-cluster";
import { DEFAULT_KARPENTER_NAMESPACE, KARPENTER_CHART_REPOSITORY } from "./karpenter-crd-release";
import { CHART_FEATURE_GATES, CHART_SETTINGS, ChartKeyFact, checkChartValue, hasKey } from "./private/chart-settings";
import { checkValuePaths } from "./private/chart-values";
import { isPlainMap, mergeHelmValues } from "./private/deep-merge";
import { chartFullName, checkNamespace, checkReleaseName, checkRepository, DNS_SUBDOMAIN, parseQuantity, renderValues } from "./private/helm";
import { isUnresolved } from "./private/tokens";
import { requireCluster } from "./private/input-checks";
import { checkKubernetesCompatibility } from "./private/kubernetes-compatibility";
import { DEFAULT_KARPENTER_VERSION, isNewerThanKnownPatch, KarpenterVersion, newestKnownPatch, resolveKarpenterVersion } from "./private/version";

/**
 * Karpenter feature gates (`settings.featureGates` of the chart). A gate the chosen version's chart
 * lacks is an error naming the version that introduced it: the chart would ignore it silently.
 * Source: `charts/karpenter/values.yaml` of each release; Karpenter "Settings" reference, "Feature Gates".
 */
export interface KarpenterFeatureGates {
  /** Spot-to-spot replacement consolidation (alpha). Since 1.0.0. @default false (chart) */
  readonly spotToSpotConsolidation?: boolean;
  /** Node repair: replace nodes with unhealthy conditions (alpha). Since 1.1.0. @default false (chart) */
  readonly nodeRepair?: boolean;
  /** On-demand capacity reservations. Since 1.3.0. @default false in 1.3–1.5, true from 1.6.0 (chart) */
  readonly reservedCapacity?: boolean;
  /** NodeOverlay objects influence scheduling (alpha). Since 1.7.0. @default false (chart) */
  readonly nodeOverlay?: boolean;
  /**
   * Static capacity provisioning (alpha). Since 1.8.0 (the 1.8.0 values.yaml spells it
   * `StaticCapacity`, which its template does not read; this construct always writes `staticCapacity`
   * for 1.8.0 so the controller gets a value). @default false (chart)
   */
  readonly staticCapacity?: boolean;
  /** CapacityBuffer objects for pre-provisioned spare capacity (alpha). Since 1.14.0. @default false (chart) */
  readonly capacityBuffer?: boolean;
}

/**
 * The chart's `settings:` (global controller settings), typed. Every key any supported chart
 * (1.0–1.14) carries is here except `clusterName` and `interruptionQueue`, which are wired from the
 * cluster and the interruption queue. A key the chosen version lacks is an error naming the version
 * that introduced it. Unset keys are not written: the chart default applies.
 * Source: `charts/karpenter/values.yaml` of each release; Karpenter "Settings" reference.
 */
export interface KarpenterSettings {
  /** The maximum length of a provisioning batch window, a Go duration. Since 1.0.0. @default "10s" (chart) */
  readonly batchMaxDuration?: string;
  /** Idle time without new pending pods that ends a batch window, a Go duration. Since 1.0.0. @default "1s" (chart) */
  readonly batchIdleDuration?: string;
  /** How the scheduler treats preferences: `"Respect"` or `"Ignore"`. Since 1.4.0. @default "Respect" (chart) */
  readonly preferencePolicy?: "Respect" | "Ignore";
  /** NodePool minValues: `"Strict"` or `"BestEffort"` (relaxed when they cannot be met). Since 1.6.0. @default "Strict" (chart) */
  readonly minValuesPolicy?: "Strict" | "BestEffort";
  /** CA bundle (base64 PEM) nodes use for the API server. Since 1.0.0. @default taken from the controller's TLS configuration */
  readonly clusterCABundle?: string;
  /** API server endpoint new nodes connect to (`https://…`). Since 1.0.0. @default discovered with DescribeCluster */
  readonly clusterEndpoint?: string;
  /** Assume AWS services without a VPC endpoint are unreachable (no pricing API). Since 1.0.0. @default false (chart) */
  readonly isolatedVPC?: boolean;
  /** Discover cluster details from the EKS DescribeCluster API. Since 1.1.0. @default false (chart) */
  readonly eksControlPlane?: boolean;
  /**
   * VM memory overhead subtracted from each instance type's memory, as a fraction from 0 to below 1
   * (`0.075` = 7.5 %). Since 1.0.0. @default 0.075 (chart)
   */
  readonly vmMemoryOverheadPercent?: number;
  /** Respect ARC zonal shifts when launching nodes. Since 1.12.0. @default false (chart) */
  readonly enableZonalShift?: boolean;
  /** ENIs left out of max-pods / kube-reserved (VPC CNI custom networking), a whole number. Since 1.0.0. @default 0 (chart) */
  readonly reservedENIs?: number;
  /** Ignore pods' DRA requests in scheduling simulations. Since 1.8.0. @default true (chart) */
  readonly ignoreDRARequests?: boolean;
  /** Disable cluster state metrics and events. Since 1.8.0. @default false (chart) */
  readonly disableClusterStateObservability?: boolean;
  /** Disable dry-run validation of EC2NodeClasses. Since 1.6.2 (a patch release). @default false (chart) */
  readonly disableDryRun?: boolean;
  /** How often AMI data is refreshed, a Go duration of at least `"1m"`. Since 1.13.0. @default "1m" (chart) */
  readonly amiRefreshInterval?: string;
  /** How often subnet data is refreshed, a Go duration of at least `"1m"`. Since 1.13.0. @default "1m" (chart) */
  readonly subnetRefreshInterval?: string;
  /** Feature gates. @default the chart's */
  readonly featureGates?: KarpenterFeatureGates;
}

/** CPU and memory of one side (requests or limits) of the controller container, as Kubernetes quantities. */
export interface ResourceQuantities {
  /** CPU, e.g. `"500m"` (half a core) or `"1"`. */
  readonly cpu?: string;
  /** Memory, e.g. `"512Mi"` or `"1Gi"`. */
  readonly memory?: string;
}

/**
 * Resources of the controller container (`controller.resources`). Each of the four fields defaults
 * separately, so `{ limits: { memory: "1Gi" } }` keeps the default requests.
 */
export interface ControllerResources {
  /** @default { cpu: "500m", memory: "512Mi" } */
  readonly requests?: ResourceQuantities;
  /**
   * A memory limit equal to the request is what the Karpenter docs recommend (the controller sets its
   * Go memory limit from it); a CPU limit is left off so the controller is not throttled.
   * @default { memory: "512Mi" }
   */
  readonly limits?: ResourceQuantities;
}

/** The controller resources used when none are given: requests 500m CPU / 512Mi, limit 512Mi memory. */
export const DEFAULT_CONTROLLER_RESOURCES = { requests: { cpu: "500m", memory: "512Mi" }, limits: { memory: "512Mi" } } as const;

/** A Kubernetes pod toleration. */
export interface KubernetesToleration {
  /** Taint key; empty with `Exists` tolerates every taint. @default none */
  readonly key?: string;
  /** `"Equal"` (key and value match) or `"Exists"` (key matches, no value). @default "Equal" */
  readonly operator?: "Equal" | "Exists";
  /** Taint value, with `Equal` only. @default none */
  readonly value?: string;
  /** `"NoSchedule"`, `"PreferNoSchedule"` or `"NoExecute"`; empty matches all. @default all effects */
  readonly effect?: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
  /** Seconds a `NoExecute` taint is tolerated. @default forever */
  readonly tolerationSeconds?: number;
}

/** The controller pod's DNS policy. */
export type KarpenterDnsPolicy = "Default" | "ClusterFirst" | "ClusterFirstWithHostNet" | "None";

/** Props of {@link KarpenterRelease}. */
export interface KarpenterReleaseProps {
  /**
   * The cluster (required): its name becomes `settings.clusterName`; its Kubernetes version, when
   * known at synth, is checked against what the Karpenter version supports.
   */
  readonly cluster: IKarpenterCluster;
  /**
   * The Karpenter version (chart and controller image), e.g. `"1.14.1"`. It decides which `settings`
   * keys and feature gates exist.
   * @default DEFAULT_KARPENTER_VERSION ("1.14.1")
   */
  readonly version?: string;
  /** The release namespace; the CRD release must use the same. @default "kube-system" */
  readonly namespace?: string;
  /** The Helm release name (≤ 53 characters, lower-case). @default "karpenter" */
  readonly releaseName?: string;
  /**
   * The chart repository; override it for a mirror. Pulled anonymously (no credentials): a stale
   * `docker login public.ecr.aws` makes public ECR answer 403, `helm registry logout public.ecr.aws` fixes it.
   * @default "oci://public.ecr.aws/karpenter"
   */
  readonly repository?: string;
  /**
   * The controller's ServiceAccount (`serviceAccount.name`): must be the one the pod identity
   * association or the IRSA trust names.
   * @default "karpenter"
   */
  readonly serviceAccountName?: string;
  /**
   * IRSA only: the controller role ARN, written as the ServiceAccount annotation
   * `eks.amazonaws.com/role-arn`. Leave unset with EKS Pod Identity (the association binds the role).
   * @default no annotation
   */
  readonly irsaRoleArn?: string;
  /**
   * The interruption queue: its name becomes `settings.interruptionQueue` (a reference, so the release
   * also waits for the queue). Unset: no interruption handling.
   * @default none
   */
  readonly interruptionQueue?: { readonly queueName: string };
  /**
   * Controller replicas. The chart's pod anti-affinity puts each on its own node, so the nodes it may
   * run on must number at least this.
   * @default 2
   */
  readonly replicas?: number;
  /** Controller container resources. @default requests 500m CPU / 512Mi memory, limits 512Mi memory */
  readonly controllerResources?: ControllerResources;
  /**
   * The controller pod's DNS policy. `"Default"` resolves through the node (the VPC resolver), so the
   * controller does not depend on CoreDNS pods, which may themselves wait for capacity only Karpenter
   * can launch (Karpenter getting-started guide and troubleshooting, "dnsPolicy"; upstream issues
   * #2186, #4947). Use `"ClusterFirst"` (the chart's default) on IPv6 clusters or when the controller
   * must resolve in-cluster Services (e.g. a service mesh or an in-cluster proxy) — the reasons upstream
   * went back to ClusterFirst in v0.33. `"None"` needs `values.dnsConfig`.
   * @default "Default"
   */
  readonly dnsPolicy?: KarpenterDnsPolicy;
  /**
   * Extra node labels the controller pods require (`nodeSelector`), e.g. the system node group's
   * `{ "node-role": "system" }`. Helm merges maps, so the chart's `kubernetes.io/os: linux` stays.
   * @default none (chart: kubernetes.io/os=linux)
   */
  readonly nodeSelector?: Record<string, string>;
  /**
   * Tolerations of the controller pods. They REPLACE the chart's list (Helm replaces lists), whose
   * only entry is `CriticalAddonsOnly` `Exists`: repeat it if you need it.
   * @default the chart's (CriticalAddonsOnly Exists)
   */
  readonly tolerations?: KubernetesToleration[];
  /**
   * Affinity of the controller pods, merged by Helm into the chart's (node affinity
   * `karpenter.sh/nodepool DoesNotExist`, pod anti-affinity on `kubernetes.io/hostname`); a list
   * given here replaces the chart's list at the same path.
   * @default the chart's
   */
  readonly affinity?: Record<string, unknown>;
  /** Typed chart settings and feature gates, checked against the version. @default the chart's */
  readonly settings?: KarpenterSettings;
  /**
   * Escape hatch: raw chart values deep-merged LAST, over everything above (maps merge, lists and
   * scalars replace, `null` removes a chart default — Helm's rules). The merged document is checked
   * like the typed props: every path must exist in the version's chart values.yaml (maps that are
   * empty there — annotations, labels, `controller.resources`, `dnsConfig` — and `nodeSelector` take
   * any key; lists are replaced whole; maps values.yaml fills, such as `affinity`, take only its
   * keys), `controller.resources` requests must not exceed their limits, and keys under `settings`
   * are checked against the version. `settings.clusterName`, `settings.interruptionQueue` and
   * `serviceAccount.name` cannot be overridden here: they are wired (use `cluster`,
   * `interruptionQueue`, `serviceAccountName`).
   * @default none
   */
  readonly values?: Record<string, unknown>;
  /** Resources the release waits for (CRD release, controller identity, access entry, queue…). @default none */
  readonly dependsOn?: ITerraformDependable[];
  /** Seconds Helm waits for the release's pods to become ready. @default 300 (provider default) */
  readonly timeout?: number;
}

/**
 * The `karpenter` Helm chart (the controller) from `oci://public.ecr.aws/karpenter`, with
 * `skip_crds = true` (the CRDs come from {@link KarpenterCrdRelease}, which must be installed first:
 * pass it in `dependsOn`). Its values are one YAML document built from the typed props — keys sorted,
 * strings quoted, Terraform references kept as `${…}` — and every path written exists in the chosen
 * version's chart values.yaml.
 *
 * Source: Karpenter getting-started guide (Helm install: `settings.clusterName`,
 * `settings.interruptionQueue`, controller resources) and `charts/karpenter/values.yaml` per release.
 *
 * Warns (once per app and version) when the version's patch is newer than the newest one this library
 * knows: the chart may not exist, and the newest known patch's facts are assumed.
 *
 * @throws KarpenterValidationError for a missing `cluster`; an unsupported version, or one that does not
 * support the cluster's literal Kubernetes version (Karpenter compatibility matrix); a setting or
 * feature gate the version lacks (naming the version that introduced it); a value path the version's
 * values.yaml lacks (naming the version that has it, if any); a bad setting value, quantity, replica
 * count, toleration, name or namespace; a request above its limit (after `values` is merged); or
 * `values` that override wired keys
 */
export class KarpenterRelease extends Construct {
  /** The `helm_release` resource. */
  public readonly release: Release;
  /** The chart version, e.g. `"1.14.1"`. */
  public readonly version: string;
  /** The release namespace. */
  public readonly namespace: string;
  /** The controller's ServiceAccount name. */
  public readonly serviceAccountName: string;
  /** The Helm release name. */
  public readonly releaseName: string;
  /** The chart's full name for this release (its Deployment and Service name), e.g. `"karpenter"`. */
  public readonly fullName: string;
  /** Controller replicas written to the values, after `values` (a token when given as one). */
  public readonly replicas: number;
  /** The values document written to the release (one YAML string). */
  public readonly valuesYaml: string;

  constructor(scope: Construct, id: string, props: KarpenterReleaseProps) {
    super(scope, id);
    requireCluster(this, props);
    const version = resolveKarpenterVersion(this, props.version ?? DEFAULT_KARPENTER_VERSION);
    checkKubernetesCompatibility(this, "version", version, props.cluster);
    warnUnknownPatch(this, version);
    this.version = version.full;
    this.namespace = props.namespace ?? DEFAULT_KARPENTER_NAMESPACE;
    checkNamespace(this, "namespace", this.namespace);
    this.releaseName = props.releaseName ?? "karpenter";
    checkReleaseName(this, "releaseName", this.releaseName);
    const repository = props.repository ?? KARPENTER_CHART_REPOSITORY;
    checkRepository(this, "repository", repository);
    this.serviceAccountName = props.serviceAccountName ?? "karpenter";
    if (!isUnresolved(this.serviceAccountName) && !DNS_SUBDOMAIN.test(this.serviceAccountName)) {
      throw new KarpenterValidationError(this, "serviceAccountName", this.serviceAccountName, "a Kubernetes ServiceAccount name: lower-case letters, digits, '-' and '.', at most 253 characters");
    }
    const replicas = props.replicas ?? 2;
    checkReplicas(this, "replicas", replicas);
    const dnsPolicy = props.dnsPolicy ?? "Default";
    if (!["Default", "ClusterFirst", "ClusterFirstWithHostNet", "None"].includes(dnsPolicy)) {
      throw new KarpenterValidationError(this, "dnsPolicy", dnsPolicy, '"Default", "ClusterFirst", "ClusterFirstWithHostNet" or "None" (with values.dnsConfig)');
    }

    const generated: Record<string, unknown> = {
      replicas,
      dnsPolicy,
      serviceAccount: {
        name: this.serviceAccountName,
        annotations: props.irsaRoleArn !== undefined ? { "eks.amazonaws.com/role-arn": props.irsaRoleArn } : undefined,
      },
      controller: { resources: controllerResources(this, props.controllerResources) },
      settings: {
        ...settingsValues(this, version, props.settings),
        clusterName: props.cluster.clusterName,
        interruptionQueue: props.interruptionQueue?.queueName,
      },
      nodeSelector: checkNodeSelector(this, props.nodeSelector),
      tolerations: checkTolerations(this, props.tolerations),
      affinity: checkMap(this, "affinity", props.affinity),
    };
    const escape = checkMap(this, "values", props.values);
    if (escape) checkEscapeHatch(this, version, escape);
    const values = escape ? mergeHelmValues(generated, escape) : generated;
    // what Helm gets is the merged document: check it as a whole, naming the prop each part came from
    checkValuePaths(this, this.version, values, (parts) => (escape && hasPath(escape, parts) ? "values." : "") + parts.join("."));
    checkMergedResources(this, values, escape);
    if (escape?.replicas !== undefined) checkReplicas(this, "values.replicas", escape.replicas);
    this.replicas = values.replicas as number;
    if (values.dnsPolicy === "None" && !(isPlainMap(values.dnsConfig) && Object.keys(values.dnsConfig).length > 0)) {
      throw new KarpenterValidationError(this, "dnsPolicy", "None", 'a dnsConfig in values (Kubernetes requires one with dnsPolicy "None"), or another policy');
    }
    this.fullName = chartFullName(this.releaseName, values);
    try {
      this.valuesYaml = renderValues(values);
    } catch (e) {
      throw new KarpenterValidationError(this, "values", props.values, (e as Error).message);
    }

    this.release = new Release(this, "release", {
      name: this.releaseName,
      chart: "karpenter",
      repository,
      version: this.version,
      namespace: this.namespace,
      // the CRDs belong to the karpenter-crd release, which Helm upgrades; the chart's crds/ folder it would not
      skipCrds: true,
      values: [this.valuesYaml],
      timeout: props.timeout,
      dependsOn: props.dependsOn,
    });
  }
}

function checkReplicas(scope: Construct, field: string, replicas: unknown): void {
  if (Token.isUnresolved(replicas)) return;
  if (typeof replicas !== "number" || !Number.isInteger(replicas) || replicas < 1) {
    throw new KarpenterValidationError(scope, field, replicas, "a whole number of controller pods, at least 1 (2 for high availability)");
  }
}

function settingsValues(scope: Construct, version: KarpenterVersion, settings: KarpenterSettings | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const given = checkMap(scope, "settings", settings as Record<string, unknown> | undefined) ?? {};
  const { featureGates, ...rest } = given;
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    const fact = CHART_SETTINGS.find((f) => f.key === key && !f.wired);
    if (!fact) throw unknownKey(scope, `settings.${key}`, value, CHART_SETTINGS.filter((f) => !f.wired), "setting", version);
    checkFact(scope, `settings.${key}`, fact, value, version, "setting");
    out[key] = fact.kind === "integer-string" && typeof value === "number" && !Token.isUnresolved(value) ? String(value) : value;
  }
  const gates: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(checkMap(scope, "settings.featureGates", featureGates as Record<string, unknown> | undefined) ?? {})) {
    if (value === undefined) continue;
    const fact = CHART_FEATURE_GATES.find((f) => f.key === key);
    if (!fact) throw unknownKey(scope, `settings.featureGates.${key}`, value, CHART_FEATURE_GATES, "feature gate", version);
    checkFact(scope, `settings.featureGates.${key}`, fact, value, version, "feature gate");
    gates[key] = value;
  }
  // the 1.8.0 chart's values.yaml has `StaticCapacity`, its template reads `staticCapacity`: without
  // an explicit value FEATURE_GATES gets `StaticCapacity=` (empty), so always write it for that release
  for (const fact of CHART_FEATURE_GATES) {
    if (fact.misspelledIn?.versions.includes(version.full) && gates[fact.key] === undefined) gates[fact.key] = fact.defaults[0].value;
  }
  if (Object.keys(gates).length) out.featureGates = gates;
  return out;
}

function checkFact(scope: Construct, field: string, fact: ChartKeyFact, value: unknown, version: KarpenterVersion, what: string): void {
  if (!hasKey(fact, version.full)) {
    throw new KarpenterValidationError(scope, field, value, `Karpenter ${version.full} has no ${what} ${fact.key}: it was introduced in ${fact.since}; use version ${fact.since} or later, or leave it unset`);
  }
  if (isUnresolved(value)) return;
  const problem = checkChartValue(fact, value);
  if (problem) throw new KarpenterValidationError(scope, field, value, problem);
}

function unknownKey(scope: Construct, field: string, value: unknown, facts: readonly ChartKeyFact[], what: string, version: KarpenterVersion): KarpenterValidationError {
  const wired = CHART_SETTINGS.find((f) => f.wired && `settings.${f.key}` === field);
  if (wired) return new KarpenterValidationError(scope, field, value, `${wired.key} is wired from the graph: set the ${wired.key === "clusterName" ? "cluster" : "interruptionQueue"} prop instead`);
  const known = facts.filter((f) => hasKey(f, version.full)).map((f) => f.key);
  return new KarpenterValidationError(scope, field, value, `a ${what} of the Karpenter ${version.full} chart: ${known.join(", ")}`);
}

/** Checks `values.settings` like typed settings (the chart ignores unknown keys silently) and refuses overrides of wired keys. */
function checkEscapeHatch(scope: Construct, version: KarpenterVersion, values: Record<string, unknown>): void {
  const sa = values.serviceAccount;
  if (isPlainMap(sa) && sa.name !== undefined) {
    throw new KarpenterValidationError(scope, "values.serviceAccount.name", sa.name, "not settable here: it must match the pod identity association / IRSA trust; use serviceAccountName");
  }
  const settings = values.settings;
  if (settings === undefined) return;
  if (!isPlainMap(settings)) throw new KarpenterValidationError(scope, "values.settings", settings, "a map of chart settings");
  for (const [key, value] of Object.entries(settings)) {
    if (key === "featureGates") {
      if (value === null) continue;
      if (!isPlainMap(value)) throw new KarpenterValidationError(scope, "values.settings.featureGates", value, "a map of feature gates");
      for (const [gate, v] of Object.entries(value)) {
        const fact = CHART_FEATURE_GATES.find((f) => f.key === gate);
        if (!fact) throw unknownKey(scope, `values.settings.featureGates.${gate}`, v, CHART_FEATURE_GATES, "feature gate", version);
        if (v !== null) checkFact(scope, `values.settings.featureGates.${gate}`, fact, v, version, "feature gate");
      }
      continue;
    }
    const fact = CHART_SETTINGS.find((f) => f.key === key);
    if (fact?.wired) {
      const use = key === "clusterName" ? "the cluster" : "the interruption queue (KarpenterRelease: `interruptionQueue: { queueName }`; Karpenter: `interruptionQueue: { existingQueueName, existingQueueArn }` for a queue of your own)";
      throw new KarpenterValidationError(scope, `values.settings.${key}`, value, `not settable here: ${key} is wired from ${use}`);
    }
    if (!fact) throw unknownKey(scope, `values.settings.${key}`, value, CHART_SETTINGS.filter((f) => !f.wired), "setting", version);
    if (value !== null) checkFact(scope, `values.settings.${key}`, fact, value, version, "setting");
  }
}

function controllerResources(scope: Construct, given: ControllerResources | undefined): Record<string, unknown> {
  const d = DEFAULT_CONTROLLER_RESOURCES;
  const requests = { cpu: given?.requests?.cpu ?? d.requests.cpu, memory: given?.requests?.memory ?? d.requests.memory };
  const limits = { cpu: given?.limits?.cpu, memory: given?.limits?.memory ?? d.limits.memory };
  const parsed: Record<string, number | undefined> = {};
  for (const [side, q] of [["requests", requests], ["limits", limits]] as const) {
    for (const [res, value] of Object.entries(q)) {
      if (value === undefined || isUnresolved(value)) continue;
      const n = typeof value === "string" ? parseQuantity(value) : undefined;
      if (n === undefined || n <= 0) {
        throw new KarpenterValidationError(scope, `controllerResources.${side}.${res}`, value, res === "cpu" ? 'a Kubernetes CPU quantity above zero, e.g. "500m" or "1"' : 'a Kubernetes memory quantity above zero, e.g. "512Mi" or "1Gi"');
      }
      parsed[`${side}.${res}`] = n;
    }
  }
  for (const res of ["cpu", "memory"]) {
    const req = parsed[`requests.${res}`];
    const lim = parsed[`limits.${res}`];
    if (req !== undefined && lim !== undefined && req > lim) {
      throw new KarpenterValidationError(scope, `controllerResources.requests.${res}`, (requests as Record<string, string>)[res], `at most the limit (${(limits as Record<string, string | undefined>)[res]}): Kubernetes rejects a request above its limit; raise controllerResources.limits.${res} too`);
    }
  }
  return { requests, limits };
}

function checkNodeSelector(scope: Construct, selector: Record<string, string> | undefined): Record<string, string> | undefined {
  const map = checkMap(scope, "nodeSelector", selector);
  if (!map) return undefined;
  for (const [k, v] of Object.entries(map)) {
    if (typeof v !== "string" && !isUnresolved(v)) throw new KarpenterValidationError(scope, `nodeSelector.${k}`, v, "a label value (string)");
  }
  return map as Record<string, string>;
}

function checkTolerations(scope: Construct, tolerations: KubernetesToleration[] | undefined): KubernetesToleration[] | undefined {
  if (tolerations === undefined) return undefined;
  if (!Array.isArray(tolerations)) throw new KarpenterValidationError(scope, "tolerations", tolerations, "a list of tolerations");
  tolerations.forEach((t, i) => {
    const field = `tolerations[${i}]`;
    if (t.operator !== undefined && t.operator !== "Equal" && t.operator !== "Exists") throw new KarpenterValidationError(scope, `${field}.operator`, t.operator, '"Equal" or "Exists"');
    if (t.operator === "Exists" && t.value) throw new KarpenterValidationError(scope, `${field}.value`, t.value, 'no value with operator "Exists"');
    if ((t.operator ?? "Equal") === "Equal" && !t.key) throw new KarpenterValidationError(scope, `${field}.key`, t.key, 'a taint key (an empty key is allowed only with operator "Exists")');
    if (t.effect !== undefined && !["NoSchedule", "PreferNoSchedule", "NoExecute"].includes(t.effect)) {
      throw new KarpenterValidationError(scope, `${field}.effect`, t.effect, '"NoSchedule", "PreferNoSchedule" or "NoExecute" (the Kubernetes spelling, not the EKS API\'s NO_SCHEDULE)');
    }
    if (t.tolerationSeconds !== undefined && t.effect !== "NoExecute") throw new KarpenterValidationError(scope, `${field}.tolerationSeconds`, t.tolerationSeconds, 'only with effect "NoExecute"');
  });
  // written as plain objects in a fixed key order (keys are sorted when rendered anyway)
  return tolerations.map((t) => ({ key: t.key, operator: t.operator, value: t.value, effect: t.effect, tolerationSeconds: t.tolerationSeconds }));
}

function checkMap(scope: Construct, field: string, value: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (!isPlainMap(value)) throw new KarpenterValidationError(scope, field, value, "a plain map (object) known at synth");
  return value;
}

const patchWarnings = new WeakMap<object, Set<string>>();

/** A patch newer than the newest one known may not exist yet: say so once per app and version. */
function warnUnknownPatch(scope: Construct, version: KarpenterVersion): void {
  if (!isNewerThanKnownPatch(version)) return;
  const seen = patchWarnings.get(scope.node.root) ?? new Set<string>();
  patchWarnings.set(scope.node.root, seen);
  if (seen.has(version.full)) return;
  seen.add(version.full);
  const known = newestKnownPatch(version);
  Annotations.of(scope).addWarning(
    `Karpenter ${version.full} is newer than the newest 1.${version.minor} patch this library knows (${known}): make sure the chart exists; its IAM policy and settings are assumed to equal ${known}'s`,
  );
}

/** True when the key path leads to a defined value in `values`. */
function hasPath(values: Record<string, unknown>, parts: readonly string[]): boolean {
  let cur: unknown = values;
  for (const part of parts) {
    if (!isPlainMap(cur) || cur[part] === undefined) return false;
    cur = cur[part];
  }
  return true;
}

/**
 * Requests at most their limits in the merged `controller.resources` (typed props, then `values`):
 * Kubernetes rejects the pod otherwise, and Helm waits for it until the release times out.
 */
function checkMergedResources(scope: Construct, values: Record<string, unknown>, escape: Record<string, unknown> | undefined): void {
  const resources = isPlainMap(values.controller) ? values.controller.resources : undefined;
  if (!isPlainMap(resources)) return;
  const field = (side: string, res: string) => (escape && hasPath(escape, ["controller", "resources", side, res]) ? `values.controller.resources.${side}.${res}` : `controllerResources.${side}.${res}`);
  const given: Record<string, Record<string, { value: unknown; n: number }>> = { requests: {}, limits: {} };
  for (const side of ["requests", "limits"]) {
    const q = resources[side];
    if (q === undefined || q === null) continue;
    if (!isPlainMap(q)) throw new KarpenterValidationError(scope, `values.controller.resources.${side}`, q, "a map of resource quantities, e.g. { cpu: \"500m\", memory: \"512Mi\" }");
    for (const [res, value] of Object.entries(q)) {
      if (value === undefined || value === null || isUnresolved(value)) continue;
      const n = typeof value === "string" ? parseQuantity(value) : typeof value === "number" && value >= 0 ? value : undefined;
      if (n === undefined) throw new KarpenterValidationError(scope, field(side, res), value, res === "cpu" ? 'a Kubernetes CPU quantity, e.g. "500m" or "1"' : 'a Kubernetes quantity, e.g. "512Mi" or "1Gi"');
      given[side][res] = { value, n };
    }
  }
  for (const [res, req] of Object.entries(given.requests)) {
    const lim = given.limits[res];
    if (!lim || req.n <= lim.n) continue;
    const requestField = field("requests", res);
    const limitField = field("limits", res);
    if (requestField.startsWith("values.") || !limitField.startsWith("values.")) {
      throw new KarpenterValidationError(scope, requestField, req.value, `at most the limit (${String(lim.value)}, ${limitField}): Kubernetes rejects a request above its limit; raise ${limitField} too`);
    }
    throw new KarpenterValidationError(scope, limitField, lim.value, `at least the request (${String(req.value)}, ${requestField}): Kubernetes rejects a request above its limit; lower ${requestField} too`);
  }
}
