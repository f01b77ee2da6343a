/*
 * The typed chart inputs of KarpenterRelease (and Karpenter): settings and feature gates,
 * controller resources, tolerations, DNS policy.
 */

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
   * Static capacity provisioning (alpha): NodePools with `replicas` keep a fixed node count only with
   * this gate on (`Karpenter` warns at synth about a NodePool with `replicas` without it). Since 1.8.0 (the 1.8.0 values.yaml spells it
   * `StaticCapacity`, which its template does not read; this construct always writes `staticCapacity`
   * for 1.8.0 so the controller gets a value). @default false (chart)
   */
  readonly staticCapacity?: boolean;
  /** CapacityBuffer objects for pre-provisioned spare capacity (alpha). Since 1.14.0. @default false (chart) */
  readonly capacityBuffer?: boolean;
  /** Drift may terminate a node before its replacement launches, on a capacity-constrained NodePool (alpha). Since 1.15.0. @default false (chart) */
  readonly terminateFirstDrift?: boolean;
  /**
   * Repair may terminate an unhealthy node before its replacement launches, on a capacity-constrained
   * NodePool (alpha). Not with `settings.legacyNodeRepair: true` (a synth error: the legacy repair
   * controller does not support it). Since 1.15.0. @default false (chart)
   */
  readonly terminateFirstRepair?: boolean;
  /**
   * Karpenter manages the `controller.kubernetes.io/pod-deletion-cost` annotation of ReplicaSet pods on its
   * nodes, so a ReplicaSet scale-down removes pods from nodes it wants to consolidate first (alpha).
   * Since 1.15.0. @default false (chart)
   */
  readonly podDeletionCostManagement?: boolean;
}

/**
 * AWS-specific feature gates (`settings.awsFeatureGates` of the chart, passed to the controller as
 * `AWS_FEATURE_GATES`). Since 1.15.0: the block is refused for earlier releases, naming 1.15.0.
 * Source: `charts/karpenter/values.yaml` of 1.15.0; Karpenter v1.15 "Settings" reference.
 */
export interface KarpenterAwsFeatureGates {
  /**
   * CEL expressions in EC2NodeClass `kubelet.maxPods` (the prop `maxPodsExpression`), `kubeReserved` and `systemReserved` (alpha); the
   * node objects of an install without it may not use expressions (a synth error naming this gate).
   * @default false (chart)
   */
  readonly nodeClassCEL?: boolean;
  /**
   * Account for the DRA devices the NVIDIA GPU driver publishes (`gpu.nvidia.com` claims) when sizing
   * nodes (alpha). Not with `settings.enableDRA` (a synth error). @default false (controller; unset in the chart)
   */
  readonly draNVIDIAGPU?: boolean;
  /**
   * Account for the DRA devices the dranet driver publishes for EFA interfaces (`dra.net` claims) when
   * sizing nodes (alpha). Not with `settings.enableDRA` (a synth error). @default false (controller; unset in the chart)
   */
  readonly draEFA?: boolean;
  /**
   * Node repair reboots a node in place for reboot-clearable GPU faults instead of replacing it
   * (alpha). Needs `featureGates.nodeRepair` (a synth warning without it) and `ec2:RebootInstances`,
   * which the 1.15 controller policy grants (Sid `AllowScopedDeletion`). @default false (chart)
   */
  readonly rebootForRepair?: boolean;
}

/**
 * The chart's `settings:` (global controller settings), typed. Every key any supported chart
 * (1.0–1.15) carries is here except `clusterName` and `interruptionQueue`, which are wired from the
 * cluster and the interruption queue. A key the chosen version lacks is an error naming the version
 * that introduced it. Unset keys are not written: the chart default applies. A boolean setting or
 * feature gate may be a token (e.g. `boolVariable.value` of a `bool` TerraformVariable): it is written unquoted as
 * `${tobool(…)}`, so the chart reads a YAML boolean at apply and a non-boolean fails the plan.
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
  /**
   * Turn on every AWS DRA driver gate (`awsFeatureGates.draNVIDIAGPU`, `draEFA`) and set `ignoreDRARequests`
   * to false (alpha). Not with any of those three set (a synth error: the chart says it "can't be combined").
   * Since 1.15.0. @default false (chart)
   */
  readonly enableDRA?: boolean;
  /**
   * Ignore pods' DRA requests in scheduling simulations. Since 1.8.0. Either AWS DRA gate overrides it to
   * false (a synth warning when set true with one); not with `enableDRA` (a synth error).
   * @default true (chart in 1.8–1.14; from 1.15 unset in the chart and true in the controller)
   */
  readonly ignoreDRARequests?: boolean;
  /**
   * Run the legacy node repair controller instead of node repair as a disruption method (planned for
   * deprecation upstream). Takes effect only with `featureGates.nodeRepair` (a synth warning without it);
   * not with `featureGates.terminateFirstRepair` (a synth error). Since 1.15.0. @default false (chart)
   */
  readonly legacyNodeRepair?: boolean;
  /** Disable cluster state metrics and events. Since 1.8.0. @default false (chart) */
  readonly disableClusterStateObservability?: boolean;
  /** Disable dry-run validation of EC2NodeClasses. Since 1.6.2 (a patch release). @default false (chart) */
  readonly disableDryRun?: boolean;
  /** How often AMI data is refreshed, a Go duration of at least `"1m"`. Since 1.13.0. @default "1m" (chart) */
  readonly amiRefreshInterval?: string;
  /** How often subnet data is refreshed, a Go duration of at least `"1m"`. Since 1.13.0. @default "1m" (chart) */
  readonly subnetRefreshInterval?: string;
  /** How often security group data is refreshed, a Go duration of at least `"1m"`. Since 1.15.0. @default "1m" (chart) */
  readonly securityGroupRefreshInterval?: string;
  /** Feature gates. @default the chart's */
  readonly featureGates?: KarpenterFeatureGates;
  /** AWS-specific feature gates. Since 1.15.0. @default the chart's */
  readonly awsFeatureGates?: KarpenterAwsFeatureGates;
}

/**
 * CPU and memory of one side (requests or limits) of the controller container, as Kubernetes
 * quantities. A field left out keeps its default (see {@link ControllerResources}).
 */
export interface ResourceQuantities {
  /**
   * CPU, e.g. `"500m"` (half a core) or `"1"`.
   * @default requests: "500m"; limits: none (the controller is not throttled)
   */
  readonly cpu?: string;
  /**
   * Memory, e.g. `"512Mi"` or `"1Gi"`.
   * @default "512Mi" (requests and limits)
   */
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
   * The memory limit matters beyond the pod: the chart passes it to the controller as `MEMORY_LIMIT`,
   * and the controller sets its Go GC soft memory limit to 90 % of it (Karpenter "Settings"
   * reference, `MEMORY_LIMIT`). The Karpenter getting-started guide installs the chart with limits
   * equal to requests (step "Install Karpenter"); this construct does the same for memory and leaves
   * the CPU limit off so the controller is not throttled.
   * @default { memory: "512Mi" }
   */
  readonly limits?: ResourceQuantities;
}

/** The controller resources used when none are given: requests 500m CPU / 512Mi, limit 512Mi memory. */
export const DEFAULT_CONTROLLER_RESOURCES = {
  requests: { cpu: "500m", memory: "512Mi" },
  limits: { memory: "512Mi" },
} as const;

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
