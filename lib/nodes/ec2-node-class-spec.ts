/**
 * Types of the `karpenter.k8s.aws/v1` EC2NodeClass spec, named and shaped as in the CRD
 * (`pkg/apis/crds/karpenter.k8s.aws_ec2nodeclasses.yaml` of aws/karpenter-provider-aws,
 * v1.0 to v1.14). Every field keeps its CRD name (`kmsKeyID`, `ownerID`,
 * `associatePublicIPAddress`, …) so an EC2NodeClass written in YAML maps field for field.
 */

/**
 * The AMI family: decides the user-data format and default block devices.
 * `Windows2025` needs Karpenter 1.9 or later.
 */
export type AmiFamily = "AL2" | "AL2023" | "Bottlerocket" | "Custom" | "Windows2019" | "Windows2022" | "Windows2025";

/**
 * How to find AMIs (`spec.amiSelectorTerms[]`); terms are ORed, fields of one term ANDed.
 * Use either one term with only `alias`, or terms of `id` alone, or of `tags` / `name` / `owner` /
 * `ssmParameter`.
 *
 * Source: EC2NodeClass CRD, `AMISelectorTerm`.
 */
export interface AmiSelectorTerm {
  /**
   * An EKS-optimized AMI as `family@version` (≤ 30 characters): families `al2`, `al2023`,
   * `bottlerocket`, `windows2019`, `windows2022`, `windows2025` (1.9+); version `latest` or a
   * release such as `v20240625` (`bottlerocket@v1.10.0`). Windows families accept only `latest`.
   * `latest` drifts every node when AWS publishes an AMI: pin a version in production.
   * Must be the only field of the only term.
   * @default unset
   */
  readonly alias?: string;
  /** An AMI ID (`ami-0123456789abcdef0`); excludes every other field of the term. @default unset */
  readonly id?: string;
  /** The AMI name (the EC2 name field, not the Name tag); `*` wildcards allowed. @default unset */
  readonly name?: string;
  /** AMI owner: an account ID, `self`, `amazon` or `aws-marketplace`. @default unset */
  readonly owner?: string;
  /** Name or ARN of an SSM parameter holding the AMI ID (Karpenter 1.4+). @default unset */
  readonly ssmParameter?: string;
  /** Tags the AMI must carry (≤ 20; `*` as value matches any value; no empty keys or values). @default unset */
  readonly tags?: { [key: string]: string };
}

/**
 * How to find subnets (`spec.subnetSelectorTerms[]`): `id` alone, or `tags`.
 *
 * Source: EC2NodeClass CRD, `SubnetSelectorTerm`.
 */
export interface SubnetSelectorTerm {
  /** A subnet ID (`subnet-0123abcd`); excludes `tags`. @default unset */
  readonly id?: string;
  /** Tags the subnet must carry (≤ 20; `*` matches any value), e.g. `{ "karpenter.sh/discovery": "my-cluster" }`. @default unset */
  readonly tags?: { [key: string]: string };
}

/**
 * How to find security groups (`spec.securityGroupSelectorTerms[]`): `id` alone, `name` alone,
 * or `tags`.
 *
 * Source: EC2NodeClass CRD, `SecurityGroupSelectorTerm`.
 */
export interface SecurityGroupSelectorTerm {
  /** A security group ID (`sg-0123abcd`); excludes the other fields. @default unset */
  readonly id?: string;
  /** The security group name (not the Name tag); excludes the other fields. @default unset */
  readonly name?: string;
  /** Tags the security group must carry (≤ 20; `*` matches any value). @default unset */
  readonly tags?: { [key: string]: string };
}

/**
 * How to find On-Demand Capacity Reservations (`spec.capacityReservationSelectorTerms[]`,
 * Karpenter 1.3+): `id` alone, or `tags` / `ownerID` / `instanceMatchCriteria`.
 *
 * Source: EC2NodeClass CRD, `CapacityReservationSelectorTerm`.
 */
export interface CapacityReservationSelectorTerm {
  /** A reservation ID (`cr-0123abcd`); excludes the other fields. @default unset */
  readonly id?: string;
  /** The 12-digit owning account ID. @default unset */
  readonly ownerID?: string;
  /** Tags the reservation must carry (≤ 20). @default unset */
  readonly tags?: { [key: string]: string };
  /** `open` or `targeted` reservations (Karpenter 1.8+). @default unset */
  readonly instanceMatchCriteria?: "open" | "targeted";
}

/** EBS volume type. */
export type VolumeType = "standard" | "io1" | "io2" | "gp2" | "sc1" | "st1" | "gp3";

/**
 * An EBS volume (`spec.blockDeviceMappings[].ebs`). Needs `volumeSize` or `snapshotID`.
 *
 * Source: EC2NodeClass CRD, `BlockDevice`.
 */
export interface BlockDevice {
  /** Delete the volume when the instance terminates. @default EC2 default */
  readonly deleteOnTermination?: boolean;
  /** Encrypt the volume. @default EC2 default (account setting) */
  readonly encrypted?: boolean;
  /** Provisioned IOPS (io1, io2, gp3 only). @default the volume type's baseline */
  readonly iops?: number;
  /** KMS key (ID, alias, key ARN or alias ARN) for encryption. @default the EBS default key */
  readonly kmsKeyID?: string;
  /** Snapshot to create the volume from. @default unset */
  readonly snapshotID?: string;
  /** Throughput in MiB/s (gp3 only). @default the gp3 baseline */
  readonly throughput?: number;
  /** Snapshot download rate in MiB/s, 100 to 300; needs `snapshotID` (Karpenter 1.5+). @default unset */
  readonly volumeInitializationRate?: number;
  /** Size with unit `Gi`, `G`, `Ti` or `T`, e.g. `"100Gi"` (1Gi to 59000Gi / 64000G / 64T; in Ti the CRD's pattern takes only 1–17, 20–27, 30–37, 40–47 and 50–58). @default unset */
  readonly volumeSize?: string;
  /** The volume type, e.g. `gp3`. @default EC2 default */
  readonly volumeType?: VolumeType;
}

/**
 * A block device of the launched instances (`spec.blockDeviceMappings[]`, ≤ 50; at most one
 * `rootVolume`).
 *
 * Source: EC2NodeClass CRD, `BlockDeviceMapping`.
 */
export interface BlockDeviceMapping {
  /** The device name, e.g. `/dev/xvda`. @default unset */
  readonly deviceName?: string;
  /** The EBS volume. @default unset */
  readonly ebs?: BlockDevice;
  /** Mount this device as kubelet's root directory. @default false */
  readonly rootVolume?: boolean;
}

/** A kubelet eviction signal, the only keys of `evictionHard` / `evictionSoft` / `evictionSoftGracePeriod`. */
export type EvictionSignal =
  | "memory.available"
  | "nodefs.available"
  | "nodefs.inodesFree"
  | "imagefs.available"
  | "imagefs.inodesFree"
  | "pid.available";

/** A resource that `kubeReserved` / `systemReserved` can hold back. */
export type ReservedResource = "cpu" | "memory" | "ephemeral-storage" | "pid";

/**
 * Kubelet settings of the launched nodes (`spec.kubelet`).
 *
 * Up to Karpenter 1.14 the CRD types exactly the 12 fields below (`maxPodsExpression` is not one: it is
 * this library's spelling of an expression in `maxPods`, emitted as `maxPods`). From 1.15 `spec.kubelet` is free-form: any
 * other KubeletConfiguration field (e.g. `registryPullQPS: 10`) may be written directly here and passes
 * through as written on the AL2023 family (and Custom, whose userData you write); on AL2, Bottlerocket and
 * Windows it is a synth error naming the family and the 12 fields, since the 1.15 controller rejects the
 * class there (ValidationSucceeded=False). From 1.15 `kubeReserved` and `systemReserved` values may
 * also be CEL expressions evaluated per instance type, and so may the pod count, written in
 * `maxPodsExpression` (`"min(110, max_pods)"`, emitted as `kubelet.maxPods`), only with the install's
 * `settings.awsFeatureGates.nodeClassCEL: true`.
 *
 * Source: EC2NodeClass CRD, `KubeletConfiguration`; Karpenter v1.15 docs, "NodeClasses: spec.kubelet".
 */
export interface KubeletConfiguration {
  /**
   * Any other KubeletConfiguration field (Karpenter 1.15+, AL2023 and Custom only), written as the kubelet reads it.
   * TypeScript only: jsii structs have no index signature, so Python, Java, .NET and Go pass the typed fields.
   * @jsii ignore
   */
  readonly [field: string]: unknown;
  /** Cluster DNS server IPs. @default the AMI's default (kube-dns service IP) */
  readonly clusterDNS?: string[];
  /** Enforce CPU CFS quota for containers with CPU limits. @default kubelet default (true) */
  readonly cpuCFSQuota?: boolean;
  /** Hard eviction thresholds: signal → quantity or percentage (`"100Mi"`, `"10%"`). @default AMI defaults */
  readonly evictionHard?: { [signal: string]: string };
  /** Maximum pod grace period in seconds on soft eviction. @default kubelet default */
  readonly evictionMaxPodGracePeriod?: number;
  /** Soft eviction thresholds: signal → quantity or percentage; each needs an `evictionSoftGracePeriod`. @default none */
  readonly evictionSoft?: { [signal: string]: string };
  /** Grace period per soft-eviction signal, a Go duration (`"1m30s"`, at most about 292 years); each needs an `evictionSoft`. @default none */
  readonly evictionSoftGracePeriod?: { [signal: string]: string };
  /** Disk usage percent (0–100) above which image GC always runs; > `imageGCLowThresholdPercent`. @default kubelet default (85) */
  readonly imageGCHighThresholdPercent?: number;
  /** Disk usage percent (0–100) image GC frees down to; < `imageGCHighThresholdPercent`. @default kubelet default (80) */
  readonly imageGCLowThresholdPercent?: number;
  /**
   * Resources reserved for Kubernetes daemons: `cpu`, `memory`, `ephemeral-storage`, `pid` → non-negative
   * quantity, or (1.15+, with `nodeClassCEL`) a CEL expression whose number takes the key's unit (cpu
   * millicores, memory MiB, ephemeral-storage GiB: `"max(60, vcpus * 30)"`). @default computed by the AMI
   */
  readonly kubeReserved?: { [resource: string]: string };
  /**
   * Maximum pods per node (`spec.kubelet.maxPods`): a whole number from 0 to 2147483647, e.g. `110`.
   * For a count computed per instance type write {@link maxPodsExpression} instead.
   *
   * Throws KarpenterValidationError for a number out of range or not whole, for a string (`"110"`:
   * write `110`; a CEL expression goes in `maxPodsExpression`), and when `maxPodsExpression` is set too.
   * @default from the instance type's ENI limits
   */
  readonly maxPods?: number;
  /**
   * Maximum pods per node as a CEL expression Karpenter evaluates per instance type (Karpenter
   * 1.15+, only with the install's `settings.awsFeatureGates.nodeClassCEL: true`), over the string
   * `instance_type` and the ints `vcpus`, `memory_mib`, `default_enis`, `ips_per_eni` and `max_pods`,
   * with CEL's standard library and `max(a, b)`, `min(a, b)`, e.g. `"min(110, max_pods)"`,
   * `"((default_enis - 1) * (ips_per_eni - 1)) + 2"` or `'instance_type.startsWith("m5") ? 110 : 58'`.
   * CEL does not mix ints and doubles in arithmetic: `int(double(max_pods) * 0.9)`, not `max_pods * 0.9`.
   * Emitted as the manifest's `kubelet.maxPods` (which then holds the string); it counts pods, like `maxPods`.
   *
   * Throws KarpenterValidationError when `maxPods` is set too (both are `kubelet.maxPods`), for a
   * Karpenter version before 1.15, for an install known not to turn on `nodeClassCEL`, for an
   * expression that does not compile in Karpenter's CEL environment (karpenter-provider-aws
   * pkg/cel/environment.go: a syntax or type error, an unknown name, a result that is no int or double),
   * for one every evaluation fails (a division by zero, a constant outside 0–2147483647), and for a
   * plain number in quotes (`"110"`: write `maxPods: 110`). With an install whose gate is not known
   * at synth, a warning.
   * @default unset (`maxPods`, or the instance type's ENI limits)
   */
  readonly maxPodsExpression?: string;
  /** Maximum pods per CPU core (≥ 0; capped by `maxPods`). @default unset */
  readonly podsPerCore?: number;
  /** Resources reserved for OS daemons: `cpu`, `memory`, `ephemeral-storage`, `pid` → non-negative quantity, or (1.15+, with `nodeClassCEL`) a CEL expression as in `kubeReserved`. @default none */
  readonly systemReserved?: { [resource: string]: string };
}

/**
 * Nitro Enclaves on the launched instances (`spec.enclaveOptions`, Karpenter 1.15+).
 *
 * Source: Karpenter v1.15 docs, "NodeClasses: spec.enclaveOptions" (`enabled` required when given).
 */
export interface EnclaveOptions {
  /** Launch the instances with Nitro Enclaves enabled. */
  readonly enabled: boolean;
}

/**
 * Instance metadata service (IMDS) options of the launch template (`spec.metadataOptions`).
 *
 * Source: EC2NodeClass CRD, `MetadataOptions`.
 */
export interface MetadataOptions {
  /** `enabled` or `disabled`. @default "enabled" (CRD default) */
  readonly httpEndpoint?: "enabled" | "disabled";
  /** IMDS IPv6 endpoint: `enabled` or `disabled`. @default "disabled" (CRD default) */
  readonly httpProtocolIPv6?: "enabled" | "disabled";
  /** PUT response hop limit, 1 to 64 (1 keeps pods off the node's IMDS credentials). @default 1 (CRD default) */
  readonly httpPutResponseHopLimit?: number;
  /** `required` (IMDSv2 only) or `optional`. @default "required" (CRD default) */
  readonly httpTokens?: "required" | "optional";
}

/**
 * A network interface of the launched instances (`spec.networkInterfaces[]`, Karpenter 1.11+).
 * The list needs a primary `interface` at device 0 of card 0, no duplicate (card, device)
 * pairs, and at most one `efa-only` per card.
 *
 * Source: EC2NodeClass CRD, `NetworkInterface`.
 */
export interface NetworkInterface {
  /** The device index (≥ 0). */
  readonly deviceIndex: number;
  /** `interface` or `efa-only`. */
  readonly interfaceType: "interface" | "efa-only";
  /** The network card index (≥ 0). */
  readonly networkCardIndex: number;
}

/**
 * The placement group to launch into (`spec.placementGroupSelector`, Karpenter 1.11+):
 * exactly one of `name` and `id`.
 *
 * Source: EC2NodeClass CRD, `PlacementGroupSelector`.
 */
export interface PlacementGroupSelector {
  /** The placement group ID (`pg-0123abcd`). @default unset */
  readonly id?: string;
  /** The placement group name. @default unset */
  readonly name?: string;
}

/**
 * Connection tracking timeouts of the primary ENI (`spec.connectionTracking`, Karpenter 1.13+),
 * in seconds; at least one.
 *
 * Source: EC2NodeClass CRD, `ConnectionTracking`.
 */
export interface ConnectionTracking {
  /** Established TCP idle timeout, 60 to 432000 s. @default EC2 default (432000) */
  readonly tcpEstablishedTimeout?: number;
  /** UDP stream idle timeout, 60 to 180 s. @default EC2 default (180) */
  readonly udpStreamTimeout?: number;
  /** UDP idle timeout, 30 to 60 s. @default EC2 default (30) */
  readonly udpTimeout?: number;
}

/**
 * CPU options (`spec.cpuOptions`, Karpenter 1.13+).
 *
 * Source: EC2NodeClass CRD, `CPUOptions`.
 */
export interface CpuOptions {
  /** `enabled` limits instance types to those supporting nested virtualization. @default unset */
  readonly nestedVirtualization?: "enabled" | "disabled";
}

/**
 * The EC2NodeClass spec as props (field for field the CRD's `spec`, plus `name`). `role`,
 * `subnetSelectorTerms`, `securityGroupSelectorTerms` and `amiSelectorTerms` have defaults in
 * {@link Ec2NodeClassProps}.
 *
 * Source: EC2NodeClass CRD v1.14.1 (`karpenter.k8s.aws_ec2nodeclasses.yaml`); fields added
 * after v1.0 say so.
 */
export interface Ec2NodeClassOptions {
  /**
   * `metadata.name` of the EC2NodeClass: a DNS-1123 subdomain (NodePools refer to it). Unique
   * per cluster: two EC2NodeClasses of one app with the same name on the same cluster (same
   * installation, same cluster, or — for objects that name no cluster — same stack) fail synth.
   * @default derived from the construct id (lowercased, other characters replaced by `-`)
   */
  readonly name?: string;
  /**
   * The IAM role of the nodes (Karpenter creates an instance profile for it). Exactly one of
   * `role` and `instanceProfile`. A literal is an IAM role name (1–64 letters, digits and
   * `+=,.@_-`, the rule of `KarpenterNodeRole.roleName`; IAM refuses others when Karpenter adds
   * the role to the instance profile). With `karpenter`, a role other than the installation's node
   * role gets a synth warning: the controller may pass only that role (iam:PassRole in the
   * controller policy) and only it has an access entry, so nodes with another role fail to
   * launch or to join unless you extend both.
   * @default the installation's node role (`karpenter.nodeRoleName`) unless `instanceProfile` is set
   */
  readonly role?: string;
  /**
   * An existing instance profile for the nodes (its name). Exactly one of `role` and
   * `instanceProfile`. Its role must have an EKS access entry (type EC2_LINUX) and be one the
   * controller may pass (iam:PassRole). With `karpenter`, it gets a synth warning: the
   * installation lets the controller pass only its node role and gives only that role an access
   * entry, so prefer `role` (the default) or make sure of both yourself.
   * @default unset
   */
  readonly instanceProfile?: string;
  /**
   * The AMI family. Optional with an `alias` term (then it may only be the alias's family or
   * `Custom`); required otherwise.
   * @default inferred from the alias
   */
  readonly amiFamily?: AmiFamily;
  /**
   * AMI selector terms (1 to 30).
   * @default `[{ alias: "al2023@latest" }]` — pin a version (`al2023@v20260714`) in production:
   * `latest` replaces every node when a new AMI is published
   */
  readonly amiSelectorTerms?: AmiSelectorTerm[];
  /**
   * Subnet selector terms (1 to 30).
   * @default `[{ tags: { "karpenter.sh/discovery": <cluster name> } }]`
   */
  readonly subnetSelectorTerms?: SubnetSelectorTerm[];
  /**
   * Security group selector terms (1 to 30).
   * @default `[{ tags: { "karpenter.sh/discovery": <cluster name> } }]`
   */
  readonly securityGroupSelectorTerms?: SecurityGroupSelectorTerm[];
  /**
   * Capacity reservation selector terms (1 to 30; Karpenter 1.3+). An empty list is an error
   * (the CRD's rules fail on it): leave the field unset for no reservations.
   * @default none
   */
  readonly capacityReservationSelectorTerms?: CapacityReservationSelectorTerm[];
  /**
   * Assign public IPv4 addresses to the instances.
   * @default the subnet's setting
   */
  readonly associatePublicIPAddress?: boolean;
  /**
   * Block devices (≤ 50).
   * @default the AMI family's defaults (e.g. a 20Gi gp3 root volume for AL2023)
   */
  readonly blockDeviceMappings?: BlockDeviceMapping[];
  /**
   * The EC2 Fleet `Context` (reserved for AWS-provided capacity contexts).
   * @default unset
   */
  readonly context?: string;
  /**
   * Enable detailed (1-minute) CloudWatch monitoring.
   * @default false
   */
  readonly detailedMonitoring?: boolean;
  /**
   * `RAID0` assembles the instance-store disks and uses them for kubelet and container storage.
   * @default unset
   */
  readonly instanceStorePolicy?: "RAID0";
  /**
   * Number of IPv4 prefixes assigned to the primary network interface (≥ 0; Karpenter 1.8+).
   * @default unset
   */
  readonly ipPrefixCount?: number;
  /**
   * Kubelet settings.
   * @default the AMI's defaults
   */
  readonly kubelet?: KubeletConfiguration;
  /**
   * IMDS options.
   * @default CRD default: endpoint enabled, IPv6 disabled, hop limit 1, tokens required
   */
  readonly metadataOptions?: MetadataOptions;
  /**
   * Network interfaces (≤ 150; Karpenter 1.11+).
   * @default one primary interface
   */
  readonly networkInterfaces?: NetworkInterface[];
  /**
   * A placement group (Karpenter 1.11+).
   * @default none
   */
  readonly placementGroupSelector?: PlacementGroupSelector;
  /**
   * Connection tracking timeouts (Karpenter 1.13+).
   * @default EC2 defaults
   */
  readonly connectionTracking?: ConnectionTracking;
  /**
   * CPU options (Karpenter 1.13+).
   * @default none
   */
  readonly cpuOptions?: CpuOptions;
  /**
   * Nitro Enclaves (Karpenter 1.15+): `{ enabled: true }`; refused for earlier releases, naming 1.15.
   * @default none (enclaves off)
   */
  readonly enclaveOptions?: EnclaveOptions;
  /**
   * Tags for the instances, volumes, network interfaces and launch templates. Keys may not be
   * empty, `eks:eks-cluster-name`, start with `kubernetes.io/cluster` or `aws:` (reserved for AWS;
   * EC2 refuses the launch), or be `karpenter.sh/nodepool`, `karpenter.sh/nodeclaim`,
   * `karpenter.k8s.aws/ec2nodeclass`.
   * @default none (Karpenter adds its own tags)
   */
  readonly tags?: { [key: string]: string };
  /**
   * User data, in the format of the AMI family (MIME multi-part / nodeadm for AL2023, TOML for
   * Bottlerocket, PowerShell for Windows); Karpenter merges its bootstrap into it.
   * @default none
   */
  readonly userData?: string;
}
