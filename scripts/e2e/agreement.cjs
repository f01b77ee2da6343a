// The library's verdict on each recorded node-object case (NodePool, EC2NodeClass, NodeOverlay, CapacityBuffer) (record-node-cases.cjs) against the API
// server's: pure functions, unit-tested in test/e2e-cluster-runner.test.ts.
"use strict";

/**
 * The rules the library applies beyond the CRDs on purpose (lib's node-semantic-rules): the API server
 * accepts these objects, and Karpenter, EC2 or the kubelet then cannot use them, so the cluster gets no
 * nodes. A library rejection the server does not share is excused only when every problem of it
 * matches one of these; anything else is a disagreement. Matched on the field and on the library's
 * message, which names the reason.
 */
const SEMANTIC_RULES = [
  // --- lib's node-semantic-rules (the second Checker of checkCrdThenSemantics)
  {
    id: "name-as-label",
    field: /^name$/,
    message: /Karpenter labels every NodeClaim and node with/,
    reason:
      "the name becomes the karpenter.sh/nodepool (karpenter.k8s.aws/ec2nodeclass) label value of every node: over 63 characters no node can be created; the CRD allows longer names",
  },
  {
    id: "cluster-region-zone-id",
    field: /^(requirements\[\d+\]\.values\[\d+\]|labels\[.*\])$/,
    message: /every AZ ID starts with its region's prefix/,
    reason:
      "every AZ ID starts with its region's prefix (use1- is us-east-1, euw1- eu-west-1; AWS \"AZ IDs\"), and Karpenter launches only into subnets of the cluster's region, so topology.k8s.aws/zone-id In another region's zone ID matches no instance type: any string is a valid label value to the server",
  },
  {
    id: "well-known-label-value",
    field: /^(requirements\[\d+\]\.values\[\d+\]|labels\[.*\])$/,
    message: /no instance carries|zone ID|Karpenter launches only into subnets of the cluster's region/,
    reason:
      "a value of a well-known label no instance has (arch, instance family, tenancy, numeric labels, a zone outside the cluster's region) matches no instance type: any string is a valid label value to the server",
  },
  {
    id: "cluster-region",
    field: /^(requirements\[\d+\]\.values\[\d+\]|labels\[.*\])$/,
    message: /Karpenter's instance types carry only the region of the cluster/,
    reason:
      "Karpenter's instance types carry only the region of the cluster it runs in (aws/karpenter-provider-aws: offerings of the controller's region), so topology.kubernetes.io/region In another region matches no instance type: any string is a valid label value to the server",
  },
  {
    id: "runtime-restricted-label",
    field: /^(requirements\[\d+\]\.key|labels\[.*\])$/,
    message: /runtime validation of the NodePool \(IsRestrictedLabel/,
    reason:
      "Karpenter's runtime validation (IsRestrictedLabel, kubernetes-sigs/karpenter pkg/apis/v1/labels.go) refuses keys the CRD allows: before 1.9 the deprecated beta.kubernetes.io / failure-domain.beta.kubernetes.io keys as template labels, and karpenter.k8s.aws/ec2nodeclass at every release; the NodePool gets ValidationSucceeded=False and launches no node",
  },
  {
    id: "reserved-without-reservations",
    field: /^(requirements\[\d+\]|labels\["karpenter\.(sh\/capacity-type|k8s\.aws\/capacity-reservation-[a-z]+)"\])$/,
    message: /leaves only reserved capacity, and EC2NodeClass .* has no capacityReservationSelectorTerms/,
    reason:
      "Karpenter makes reserved offerings only for the capacity reservations the pool's EC2NodeClass selects (aws/karpenter-provider-aws offering/reserved_capacity_resolver.go, nodeClass.CapacityReservations()): a pool that allows only karpenter.sh/capacity-type reserved, on a class without capacityReservationSelectorTerms, launches nothing; the server judges the NodePool alone",
  },
  {
    id: "reservation-capacity-type",
    field: /^(requirements\[\d+\]|labels\["karpenter\.k8s\.aws\/capacity-reservation-[a-z]+"\])$/,
    message: /needs a capacity reservation's label, which only reserved offerings carry/,
    reason:
      "only reserved offerings carry the capacity-reservation labels (aws/karpenter-provider-aws offering/base_resolver.go: on-demand and spot have them DoesNotExist): a requirement or label that needs one, with capacity types (stated, or the library's default on-demand) that leave out reserved, matches no offering; the server judges each requirement alone",
  },
  {
    id: "reservation-excluded",
    field: /^requirements\[\d+\]$/,
    message: /rules out every reserved offering/,
    reason:
      "each reserved offering carries its reservation's id, type and interruptible label (offering/reserved_capacity_resolver.go): on a pool left only reserved capacity, a capacity-reservation label DoesNotExist, or NotIn every value, leaves no offering; the server judges each requirement alone",
  },
  {
    id: "reservation-not-selected",
    field: /^(requirements\[\d+\]|labels\["karpenter\.k8s\.aws\/capacity-reservation-id"\])$/,
    message:
      /(names none of them|excludes every one of them), and EC2NodeClass .* selects its reservations by these ids alone/,
    reason:
      "Karpenter makes reserved offerings only for the reservations the EC2NodeClass selects, each labelled with its id (offering/reserved_capacity_resolver.go): a capacity-reservation-id none of the class's literal ids matches no offering; the server judges the NodePool alone",
  },
  {
    id: "numeric-operator-on-text-label",
    field: /^requirements\[\d+\]\.operator$/,
    message: /its values are not numbers/,
    reason: "Gt/Lt/Gte/Lte compare integers; on a label whose values are not numbers they match no instance type",
  },
  {
    id: "unsatisfiable-requirements",
    field: /^(requirements\[\d+\]|labels\[.*\])$/,
    message: /some node can satisfy/,
    reason:
      "Karpenter ANDs requirements and template labels on one key: an empty intersection leaves the NodePool matching no node; each requirement alone is valid",
  },
  {
    id: "iam-role-name",
    field: /^role$/,
    message: /IAM|role name|at most 64 characters/,
    reason:
      "role must be an IAM role name of at most 64 characters (not an ARN or a path): Karpenter creates the instance profile from it, and IAM refuses anything else; the CRD takes any string",
  },
  {
    id: "alias-version-date",
    field: /^(amiSelectorTerms\[\d+\]\.alias|amiFamily)$/,
    message: /EKS AMI release "vYYYYMMDD" that is a calendar date/,
    reason:
      "an al2 / al2023 alias version is the date of an EKS AMI release: one that is no calendar date (month 13, day 99, February 30) names no SSM parameter, so the class never becomes Ready; the CRD checks only the family@version shape",
  },
  {
    id: "alias-version",
    field: /^(amiSelectorTerms\[\d+\]\.alias|amiFamily)$/,
    message: /names none, so the EC2NodeClass never becomes Ready/,
    reason:
      "the alias version must name an SSM parameter of that family (vYYYYMMDD for AL2/AL2023, X.Y.Z for Bottlerocket): the CRD checks only the family@version shape",
  },
  {
    id: "ami-family-not-published",
    field: /^(amiSelectorTerms\[\d+\]\.alias|amiFamily)$/,
    message:
      /an AMI family EKS publishes for Kubernetes|a release that shipped (AL2023|AL2|Bottlerocket) AMIs( for Kubernetes|, such as)/,
    reason:
      "EKS publishes no AL2 AMIs for Kubernetes 1.33 and later, a pinned AL2023 / AL2 / Bottlerocket release shipped AMIs for some minors only, and AL2023 AMIs began with (AL2 ones ended at) a release: the alias resolves to nothing and no node launches",
  },
  {
    id: "kubelet-cluster-dns-ip",
    field: /^kubelet\.clusterDNS\[\d+\]$/,
    message: /an IPv4 or IPv6 address/,
    reason:
      "the kubelet writes clusterDNS into every pod's resolv.conf and fails to start on a non-IP; the CRD takes any string",
  },
  {
    id: "kubelet-quantity-suffix",
    field: /^kubelet\.(kubeReserved|systemReserved|evictionHard|evictionSoft)\[.*\]$/,
    message: /suffix "m" means thousandths|uses a byte suffix/,
    reason:
      'a byte resource in milli-units ("100m" memory) or CPU with a byte suffix is a valid quantity that no node can honour',
  },
  // --- rules the library runs with the CRD's (the first Checker) that the CRD schema does not hold:
  // Karpenter's own validation at runtime, Go's parsers, the EC2 and Node APIs
  {
    id: "capacity-type-value",
    field: /^(requirements\[\d+\]\.values\[\d+\]|labels\["karpenter\.sh\/capacity-type"\])$/,
    message: /a capacity type:|capacity type "[^"]*" needs Karpenter/,
    reason:
      "Karpenter offers on-demand and spot capacity (and reserved from 1.3): any other value (\"Spot\", or reserved before 1.3) matches no capacity. The CRD takes any string for requirement values; the version fact is Karpenter's (capacity reservations came in 1.3.0), which the library's message names",
  },
  {
    id: "known-values-min-values",
    field: /^requirements\[\d+\]\.minValues$/,
    message:
      /Karpenter drops the values it does not know \(.*\) and then refuses the NodePool \("not enough valid values found/,
    reason:
      'Karpenter\'s requirement validation drops the values it does not know of karpenter.sh/capacity-type and karpenter.k8s.aws/instance-tenancy and refuses a NodePool left with fewer than minValues (kubernetes-sigs/karpenter pkg/apis/v1/nodeclaim_validation.go validateWellKnownValues, v1.14.1 and v1.15.0: "not enough valid values found"); the CRD counts every value',
  },
  {
    id: "requirement-value-as-label-value",
    field: /^requirements\[\d+\]\.values\[\d+\]$/,
    message: /a label value: at most 63 characters/,
    reason:
      "requirement values become node label values: Karpenter's requirement validation rejects a NodePool with a value that is no label value; the CRD has no rule on values",
  },
  {
    id: "exists-without-values",
    field: /^requirements\[\d+\]\.values$/,
    message: /takes none/,
    reason:
      "Exists/DoesNotExist with values: the CRD says so only in its description; Karpenter's requirement validation rejects the NodePool",
  },
  {
    id: "template-metadata-keys",
    field: /^(annotations|labels)\[.*\]$/,
    message: /is not a Kubernetes qualified (annotation|label) key|qualified key/,
    reason:
      "template labels and annotations are copied onto every NodeClaim and Node: the Node API refuses invalid keys, so no node registers; the CRD checks no annotation keys",
  },
  {
    id: "cron-schedule",
    field: /^disruption\.budgets\[\d+\]\.schedule$/,
    message: /a cron schedule/,
    reason:
      "the CRD pattern only counts five fields (or a macro); Karpenter parses the schedule with a cron parser, and an hour 25 or a CRON_TZ prefix makes the budget fail",
  },
  {
    id: "go-duration-range",
    message: /Go's time\.ParseDuration|Go duration: a number with unit|at most 2562047h47m/,
    reason:
      "the CRD patterns allow any number of digits; Karpenter (and the kubelet) parse durations with Go's time.ParseDuration, which fails beyond 2562047h47m16s (about 292 years)",
  },
  {
    id: "kubelet-grace-period-sign",
    field: /^kubelet\.evictionSoftGracePeriod\[.*\]$/,
    message: /the kubelet refuses a negative grace period/,
    reason:
      'the kubelet refuses a negative soft eviction grace period ("invalid eviction grace period specified: …, must be a positive value", kubernetes pkg/kubelet/eviction/helpers.go parseGracePeriods), so it does not start and the node never joins; the CRD takes any string',
  },
  {
    id: "taint-value-as-label-value",
    field: /^(startupTaints|taints)\[\d+\]\.value$/,
    message: /the Node API validates a taint value as a label value/,
    reason:
      "Kubernetes validates a Node's taint value as a label value (core validation of Node taints, IsValidLabelValue: at most 63 characters, no '/'), so no node can carry a longer one; the NodePool CRD's pattern has no length and allows a prefix/",
  },
  {
    id: "duplicate-taints",
    field: /^(startupTaints|taints)\[\d+\]$/,
    message: /a taint whose key and effect no other taint/,
    reason:
      "Karpenter's NodePool validation rejects taints (and startup taints) with the same key and effect; the CRD's list has no uniqueness rule",
  },
  {
    id: "limits-quantities",
    field: /^(limits|capacity)\[.*\]$/,
    message: /a non-negative quantity|the keys of limits are resource names|the keys are resource names/,
    reason:
      "a negative limit (NodePool, CapacityBuffer) or NodeOverlay capacity is below any usage or holding (the pool launches nothing, the buffer keeps no chunk) and an empty key names no resource; the CRD's quantity pattern allows a sign and any key",
  },
  {
    id: "capacity-buffer-reference",
    field: /^podTemplateRef$/,
    message: /a buffer with neither provisions nothing/,
    reason:
      'a CapacityBuffer with neither podTemplateRef nor scalableRef has no chunk shape, so it provisions nothing: the CRD says "Exactly one … should be specified" in its description only, and its rule refuses only both',
  },
  {
    id: "capacity-buffer-pod-template-name",
    field: /^podTemplateRef\.name$/,
    message: /no PodTemplate can have the name/,
    reason:
      "a PodTemplate's name is a DNS-1123 subdomain, so a podTemplateRef.name that is none never resolves and the buffer keeps no capacity; the CRD takes any string",
  },
  {
    id: "capacity-buffer-scalable-ref",
    field: /^scalableRef\.(apiGroup|kind)$/,
    message: /Karpenter resolves a scalableRef only/,
    reason:
      "Karpenter's buffer controller resolves a scalableRef only to a Deployment, StatefulSet or ReplicaSet of the apps group (an empty group read as apps; kubernetes-sigs/karpenter pkg/utils/apps/resolve.go): another group or kind leaves the buffer never ready; the CRD takes any group and kind",
  },
  {
    id: "ec2-id-format",
    field: /\.id$/,
    message: /ID such as|ID: '[a-z]+-' and 8 or 17 lower-case hex digits/,
    reason:
      "EC2 IDs are the prefix and 8 or 17 lower-case hex digits (ami-0123456789abcdef0, subnet-0123abcd): the CRD's patterns (ami-[0-9a-z]+, subnet-[0-9a-z]+, sg-[0-9a-z]+) are not anchored or allow other letters, so the server accepts any string containing one, and EC2 finds no such image, subnet or security group",
  },
  {
    id: "user-data-size",
    field: /^userData$/,
    message: /user data of at most \d+ bytes/,
    reason:
      "EC2 takes at most 16 KB of user data before base64, and Karpenter adds its bootstrap to the class's: a longer userData fails every launch; the CRD takes any string",
  },
  {
    id: "user-data-format",
    field: /^userData$/,
    message: /user data for the (Bottlerocket|AL2023|AL2|Windows\w*) AMI family|part of AL2023 user data/,
    reason:
      "Karpenter merges literal user data with its bootstrap per AMI family: Bottlerocket's must be TOML (no byte-order mark: go-toml fails on it) with the types of Karpenter's BottlerocketSettings structs (bottlerocketsettings.go; else \"invalid UserData\", or tables outside settings dropped), AL2023's a NodeConfig (one YAML document: Karpenter and nodeadm read the first only), shell script or MIME multipart document Go's net/mail reads as written (headers from the first character: nodeadm.go trims before deciding MIME, mime.go does not), whose spec.kubelet.config values the kubelet must decode into its KubeletConfiguration and whose spec.containerd.config containerd must parse as TOML; AL2's MIME user data is read the same way (eksbootstrap.go getMultiPartReader); the CRD takes any string",
  },
  {
    id: "bottlerocket-model",
    field: /^userData$/,
    message: /Bottlerocket itself refuses the settings at boot/,
    reason:
      "Bottlerocket's own settings model (bottlerocket-settings-sdk KubernetesSettingsV1: max-pods u32, log-level u8, the QPS and burst settings i32, eviction-max-pod-grace-period non-negative; modeled-types KubernetesEvictionKey, KubernetesThresholdValue, KubernetesDurationValue for the eviction maps, KubernetesLabelKey, KubernetesLabelValue for node-labels; Identifier names, BootstrapMode off / once / always and ApiclientCommand for bootstrap-commands, IntegerPercent for image-gc-*-threshold-percent, ValidBase64 static-pod manifests, and the BootstrapContainer, HostContainer, kernel, ntp, network, container-registry, dns and updates types of the tables Karpenter passes on as written) refuses values Karpenter's Go types take and pass on: early-boot-config's PATCH fails and preconfigured.target is not reached, so the node never joins; the CRD takes any string",
  },
  {
    id: "bottlerocket-kubelet-settings",
    field: /^userData$/,
    message:
      /Bottlerocket passes it on as the kubelet's \w+.*?, and the kubelet(?: (?:refuses|drops|writes the valid entries)|'s decode of its configuration fails)/,
    reason:
      "Bottlerocket settings it renders into the kubelet's configuration (cpu-manager-policy, topology-manager-policy, kube-reserved, container-log-*, the registry / event / kube-api QPS and bursts, image-gc-*-threshold-percent, allowed-unsafe-sysctls, shutdown grace periods, cluster-dns-ip …) that the kubelet cannot decode or refuses when it starts, or drops; Karpenter keeps them (its Go types take them) and the CRD takes any user data",
  },
  {
    id: "bottlerocket-kubelet-eviction",
    field: /^userData$/,
    message: /Bottlerocket passes it on as the kubelet's eviction\w+, but the kubelet refuses it when it starts/,
    reason:
      "Bottlerocket passes settings.kubernetes.eviction-hard / eviction-soft on to the kubelet, which refuses a zero or negative quantity or one ParseQuantity does not read when it starts (k8s.io/kubernetes pkg/kubelet/eviction/helpers.go parseThresholdStatement), so the node never joins; Karpenter's map[string]string and Bottlerocket's settings model take the value; the CRD takes any string",
  },
  {
    id: "bottlerocket-kubelet-node-labels",
    field: /^userData$/,
    message: /Bottlerocket passes node-labels on to the kubelet's --node-labels, but the kubelet refuses to start/,
    reason:
      "Karpenter keeps Bottlerocket's settings.kubernetes.node-labels (bottlerocket.go merges its own RejectForbiddenLabels-filtered labels over them) and Bottlerocket's settings model takes any syntactic key, but the kubelet refuses to start on a kubernetes.io / k8s.io key it may not set or a prefix that is no DNS-1123 subdomain (k8s.io/kubernetes cmd/kubelet/app/options/options.go ValidateKubeletFlags), so the node never joins; the CRD takes any string",
  },
  {
    id: "ebs-iops-throughput",
    field: /^blockDeviceMappings\[\d+\]\.ebs\.(iops|throughput)$/,
    message: /EC2 takes/,
    reason:
      "EC2 refuses iops for gp2/st1/sc1/standard volumes and throughput for all but gp3, so every launch with the class fails; the CRD does not tie them to volumeType",
  },
  {
    id: "ebs-limits",
    field: /^blockDeviceMappings\[\d+\]\.ebs\.(iops|throughput|volumeSize)$/,
    message: /EC2's limits for volumeType/,
    reason:
      "EC2's fixed numbers for EBS volumes (EbsBlockDevice, EBS User Guide): io1/io2 need iops, gp3 takes at least 3,000 IOPS and 125 MiB/s, io1 100–64,000 and io2 100–256,000 IOPS, at most 50 (io1), 1,000 (io2) and 500 (gp3) IOPS per GiB, gp3 at most 0.25 MiB/s per IOPS, io1/io2 at least 4 GiB and st1/sc1 125 GiB, standard at most 1,024 GiB and gp2, io1, st1, sc1 16,384 GiB; the CRD takes any integer and any size its pattern allows, and every launch with the class fails",
  },
  {
    id: "ebs-kms-key-form",
    field: /^blockDeviceMappings\[\d+\]\.ebs\.kmsKeyID$/,
    message: /a KMS key (as EC2 names one|of the cluster's region)/,
    reason:
      "EC2 takes a kmsKeyID as a key ID, an alias, a key ARN or an alias ARN (EbsBlockDevice KmsKeyId) of the volume's Region and checks it only after the launch, so the node is terminated as it starts; the CRD takes any string",
  },
  {
    id: "ebs-kms-key-unencrypted",
    field: /^blockDeviceMappings\[\d+\]\.ebs\.encrypted$/,
    message: /true when kmsKeyID is set/,
    reason:
      "EC2 refuses a KmsKeyId for a volume without Encrypted true (InvalidParameterDependency), so every launch with the class fails; the CRD does not tie kmsKeyID to encrypted",
  },
  {
    id: "ebs-device-name-twice",
    field: /^blockDeviceMappings\[\d+\]\.deviceName$/,
    message: /a device name no other mapping uses/,
    reason:
      "EC2 refuses a launch template with one device name in two block device mappings (InvalidBlockDeviceMapping), so every launch with the class fails; the CRD limits only rootVolume to one mapping",
  },
  {
    id: "ebs-snapshot-id",
    field: /^blockDeviceMappings\[\d+\]\.ebs\.snapshotID$/,
    message: /an EBS snapshot ID: "snap-"/,
    reason:
      "EC2 refuses a snapshot ID that is not snap- and 8 or 17 hex digits (InvalidSnapshotID.Malformed), so every launch with the class fails; the CRD takes any string",
  },
  {
    id: "ebs-al2023-root-snapshot",
    field: /^blockDeviceMappings\[\d+\]\.ebs\.volumeSize$/,
    message: /the root volume of the EKS AL2023 AMIs the al2023@ alias selects/,
    reason:
      "every EKS AL2023 AMI is built with a 20 GiB root snapshot (amazon-eks-ami templates/al2023/variables-default.json), and EC2 refuses a volume smaller than its snapshot (InvalidBlockDeviceMapping), so a smaller /dev/xvda under an al2023@ alias fails every launch; the CRD takes any size",
  },
  {
    id: "ebs-bottlerocket-os-snapshot",
    field: /^blockDeviceMappings\[\d+\]\.ebs\.volumeSize$/,
    message: /the OS volume of the EKS Bottlerocket AMIs the bottlerocket@ alias selects/,
    reason:
      "every EKS Bottlerocket AMI's OS volume (/dev/xvda) comes from an OS image of at least 2 GiB (Bottlerocket's buildsys default; the NVIDIA variants 4 GiB), and EC2 refuses a volume smaller than its snapshot (InvalidBlockDeviceMapping), so a smaller /dev/xvda under a bottlerocket@ alias fails every launch; the CRD takes any size",
  },
  {
    id: "ebs-hdd-boot-volume",
    field: /^blockDeviceMappings\[\d+\]\.ebs\.volumeType$/,
    message: /HDD\) volumes cannot be boot volumes/,
    reason:
      "st1 and sc1 (HDD) volumes cannot be boot volumes (EBS User Guide), so st1 / sc1 on the device the AMI family boots from (/dev/xvda, Windows /dev/sda1) fails every launch; the CRD allows both volume types on any device",
  },
  {
    id: "reserved-tag-prefix",
    field: /^tags\[.*\]$/,
    message: /"aws:" are for tags AWS sets itself/,
    reason:
      "EC2 refuses tag keys starting with aws: in the launch request; the CRD's tag rules cover only Karpenter's own keys",
  },
  {
    id: "tag-rules-of-receiving-apis",
    field: /^tags\[.*\]$/,
    message: /refuses? in a tag|a tag (key|value) of at most/,
    reason:
      "Karpenter passes spec.tags to EC2 and, with role, to IAM for the instance profile it creates: IAM allows only letters, digits, spaces and _ . : / = + - @, and both cap keys at 128 and values at 256 characters; the CRD's tag rules cover only Karpenter's own keys",
  },
  {
    id: "tag-count",
    field: /^tags$/,
    message: /EC2 allows 50 tags per resource/,
    reason:
      "EC2 allows 50 tags per resource, and Karpenter adds its own to every instance (kubernetes.io/cluster/<cluster>, karpenter.sh/nodepool, eks:eks-cluster-name, karpenter.k8s.aws/ec2nodeclass, karpenter.sh/nodeclaim, Name): more spec.tags than fit beside them fail every launch or its tagging; the CRD sets no maximum",
  },
  {
    id: "empty-selector-term",
    field: /^(subnet|securityGroup|ami|capacityReservation)SelectorTerms\[\d+\]\.(tags|name|ssmParameter)$/,
    message: /selects nothing: Karpenter 1\.9\.4, 1\.14\.4, 1\.15\.3 and later ignore the term/,
    reason:
      'an empty tags map, name or ssmParameter in a selector term: the CRD only asks that a field be present, so the server accepts it; Karpenter 1.9.4, 1.14.4 and 1.15.3 ignore the term (all terms empty: the class is NotReady), earlier releases query EC2 without the filter (aws/karpenter-provider-aws#9964, release notes "Action Required")',
  },
  {
    id: "empty-budgets",
    field: /^disruption\.budgets$/,
    message: /at least one budget/,
    reason:
      "the CRD's default of one 10% budget applies only when budgets is absent: an empty list is kept and limits nothing, so Karpenter may disrupt every node at once",
  },
  // --- from Karpenter 1.15 the EC2NodeClass kubelet is free-form in the CRD (x-kubernetes-preserve-unknown-fields):
  // Karpenter validates it at runtime (ValidationSucceeded=False) and the kubelet refuses bad values
  {
    id: "kubelet-value-not-data",
    field: /^kubelet\./,
    message: /Karpenter writes it into the node's configuration as JSON, and/,
    since: "1.15",
    reason:
      "a free-form kubelet value that is no JSON data (a function, a symbol, a bigint, NaN, a cycle) reaches the server as something else (JSON drops a function, writes NaN as null) or not at all: the library refuses what was written",
  },
  {
    id: "kubelet-list-item-missing",
    field: /^kubelet\.[^[]+\[\d+\]$/,
    message: /is invalid: a list item[ ,(]/,
    since: "1.15",
    reason:
      'the free-form 1.15 kubelet takes a null list item (and JSON writes a hole or undefined of a JavaScript list as null); Karpenter decodes spec.kubelet into KubeletConfiguration, where a null in a []string is "" (clusterDNS "" is no IP the kubelet can use, allowedUnsafeSysctls "" no sysctl): the library refuses the missing item where it was written',
  },
  {
    id: "kubelet-per-ami-family",
    field: /^kubelet\./,
    message: /AMI family: Karpenter [\d.]+ passes|unset with the \w+ AMI family|only AL2023 takes a list/,
    since: "1.15",
    reason:
      "Karpenter maps only some kubelet fields for AL2 and Bottlerocket and sets ValidationSucceeded=False (UnsupportedKubeletConfiguration) for the others: the free-form CRD takes any field",
  },
  {
    id: "kubelet-cel-gate",
    field: /^kubelet\./,
    message: /which Karpenter evaluates only with the AWS feature gate NodeClassCEL/,
    since: "1.15",
    reason:
      "kubelet CEL expressions are evaluated only with the NodeClassCEL gate; without it the class gets ValidationSucceeded=False (KubeletExpressionsDisabled); the CRD takes any string",
  },
  {
    id: "kubelet-reserved-not-a-quantity",
    field: /^kubelet\.(kubeReserved|systemReserved)\[.*\]$/,
    message: /is not one \(quantities are a number with one of the suffixes/,
    since: "1.15",
    reason:
      'from 1.15 the free-form kubelet takes any string (a quantity or a CEL expression): "1GB" or "1 core" is neither, and Karpenter fails the class at runtime; the 1.14 CRD\'s quantity pattern refused it',
  },
  {
    id: "kubelet-cel-expression",
    field: /^kubelet\./,
    message: /a CEL expression of type int or double over instance_type/,
    since: "1.15",
    reason:
      "Karpenter compiles the expression at runtime in its own CEL environment (karpenter-provider-aws pkg/cel/environment.go) and evaluates it per instance type: a syntax or type error, an unknown name, a result that is no number or one every evaluation refuses fails there, not in the CRD",
  },
  {
    id: "kubelet-upstream-decode",
    // nested structs and lists of structs too: kubelet.logging.vmodule[0].filePattern
    field: /^kubelet\./,
    message: /strict-decodes spec\.kubelet into the upstream KubeletConfiguration/,
    since: "1.15",
    reason:
      "the free-form CRD takes any kubelet key and value; Karpenter strict-decodes spec.kubelet into k8s.io/kubelet's KubeletConfiguration (case-sensitive names, Go types, Go durations, at every depth: logging, tracing, authentication, …) and sets ValidationSucceeded=False on an unknown field or a wrong type (karpenter-provider-aws v1.15.0 kubeletconfiguration_validation.go validateAgainstUpstreamType)",
  },
  {
    id: "kubelet-karpenter-owned",
    field: /^kubelet\.registerWithTaints$/,
    message: /Karpenter sets registerWithTaints itself/,
    since: "1.15",
    reason:
      "Karpenter sets registerWithTaints from the NodeClaim's taints and refuses a user value (karpenterOwnedFields, ValidationSucceeded=False); the free-form CRD takes it",
  },
  {
    id: "kubelet-eviction-threshold",
    field: /^kubelet\.(evictionHard|evictionSoft|evictionMinimumReclaim)\[.*\]$/,
    message: /validateEvictionThreshold|isn't a valid eviction signal/,
    since: "1.15",
    reason:
      "Karpenter refuses an eviction threshold that is no eviction signal, no percentage in [0, 100] or a negative quantity, evictionMinimumReclaim included (validateKubeletSemantics, validateEvictionThreshold; ValidationSucceeded=False); the free-form CRD takes any map",
  },
  {
    id: "kubelet-runtime-validation",
    field: /^kubelet\./,
    message: /the kubelet does not start, so the node never joins the cluster/,
    since: "1.15",
    reason:
      "the free-form CRD and Karpenter's strict decode take any value of the right JSON type; the kubelet's own ValidateKubeletConfiguration (k8s.io/kubernetes pkg/kubelet/apis/config/validation/validation.go) refuses it when the kubelet starts on the node, so the node never joins (no API server or controller check)",
  },
  {
    id: "instance-profile-name",
    field: /^instanceProfile$/,
    message: /Karpenter launches with IamInstanceProfile\.Name set to it/,
    reason:
      "Karpenter passes instanceProfile to EC2 as the profile's name (launchtemplate/types.go, IamInstanceProfile.Name): an ARN or a path names no profile, and the class's validation finds none, so it never becomes Ready; the CRD takes any string",
  },
  {
    id: "al2023-metadata-endpoint",
    field: /^metadataOptions\.httpEndpoint$/,
    message: /nodeadm reads the NodeConfig from the instance's user data/,
    reason:
      'the CRD takes httpEndpoint "disabled", but AL2023\'s nodeadm reads its NodeConfig (user data) and the instance identity from the instance metadata service at boot and stops without it, so no node joins',
  },
  {
    id: "kubelet-register-node",
    field: /^kubelet\.registerNode$/,
    message: /the kubelet never registers its Node/,
    since: "1.15",
    reason:
      "the free-form CRD and Karpenter's strict decode take registerNode false, and Karpenter passes it to nodeadm: the kubelet never creates its Node, and Karpenter deletes the NodeClaim after its registration timeout",
  },
  {
    id: "kubelet-provider-id",
    field: /^kubelet\.providerID$/,
    message: /Karpenter finds a NodeClaim's Node only by it/,
    since: "1.15",
    reason:
      "the free-form CRD and Karpenter's strict decode take a providerID, and Karpenter passes it to nodeadm, whose drop-in the kubelet applies over nodeadm's own providerID (aws:///<zone>/<instance-id>): every node gets the same ID, Karpenter never finds a NodeClaim's Node (NodeForNodeClaim matches spec.providerID) and deletes the NodeClaim after its registration timeout",
  },
  {
    id: "karpenter-owned-taint",
    field: /^(taints|startupTaints)\[\d+\]\.key$/,
    message: /is Karpenter's own taint/,
    reason:
      "karpenter.sh/disrupted, /unregistered and /rebooting are the taints Karpenter sets and removes itself (sigs.k8s.io/karpenter pkg/apis/v1/taints.go): the CRD takes them in a NodePool, and Karpenter strips them from the nodes (or treats the nodes as disrupted), so the pool's taint does not stay",
  },
  {
    id: "kubelet-image-gc-default",
    field: /^kubelet\.imageGC(High|Low)ThresholdPercent$/,
    message: /the kubelet defaults it to \d+/,
    reason:
      "one image GC threshold set alone on AL2023: the CRD's rule compares the two only when both are set, and the kubelet defaults the other (high 85, low 80; k8s.io/kubernetes pkg/kubelet/apis/config/v1beta1/defaults.go) and refuses a low threshold not below the high one when it starts (validation.go), so the node never joins; no API server or controller check",
  },
  {
    id: "kubelet-eviction-positive",
    field: /^kubelet\.(evictionHard|evictionSoft|evictionMinimumReclaim)\[/,
    message: /must be positive/,
    reason:
      'a zero eviction threshold quantity (or a minimum reclaim percentage of 0 or less): the CRD\'s pattern and Karpenter take it, and the kubelet refuses it when it starts (k8s.io/kubernetes pkg/kubelet/eviction/helpers.go parseThresholdStatement / parseMinimumReclaims, "must be positive"), so the node never joins; no API server or controller check',
  },
  {
    id: "kubelet-negative",
    field: /^kubelet\.(evictionMaxPodGracePeriod|(kubeReserved|systemReserved)\[.*\])$/,
    message:
      /refuses a negative evictionMaxPodGracePeriod|refuses any (kubeReserved|systemReserved) value starting with "-"/,
    since: "1.15",
    reason:
      'Karpenter refuses a negative evictionMaxPodGracePeriod, and a kubeReserved or systemReserved value starting with "-" (an expression too), before evaluating it (validateKubeletSemantics, ValidationSucceeded=False); the free-form CRD takes any value',
  },
  {
    id: "kubelet-typed-range",
    field: /^kubelet\./,
    message: /a whole number from|a non-negative|a percentage/,
    since: "1.15",
    reason:
      "the library keeps the 1.14 CRD's ranges for the typed kubelet fields; from 1.15 the CRD no longer holds them, and the kubelet refuses its configuration out of range",
  },
  {
    id: "kubelet-resource-keys",
    field: /^kubelet\.(kubeReserved|systemReserved|evictionHard|evictionSoft|evictionSoftGracePeriod)\[.*\]$/,
    message: /is not a resource \w+ takes|is not an eviction signal/,
    since: "1.15",
    reason:
      'from 1.15 the free-form kubelet takes any key; the kubelet reserves only cpu, memory, ephemeral-storage and pid ("cannot reserve … resource") and knows only its eviction signals ("unsupported eviction signal"), so it does not start and the node never joins; the 1.14 CRD\'s key rules refused them',
  },
  {
    id: "node-class-ref-target",
    field: /^nodeClass\.(kind|group|name)$/,
    message: /Karpenter on AWS provides one node class|DNS-1123 subdomain/,
    reason:
      "Karpenter on AWS ignores a NodePool whose nodeClassRef names another group or kind (IsManaged), and no EC2NodeClass can have a name that is no DNS-1123 subdomain: the CRD takes any string there",
  },
];

/**
 * Problems with the shape of the props that the emitted object cannot show, so the server has nothing to
 * judge: a number in `limits` (the prop takes strings; the number a JavaScript caller passes would reach
 * the manifest, whose int-or-string CRD field takes it), a string in `kubelet.maxPods` that is a CEL
 * expression (it belongs in `kubelet.maxPodsExpression`, which the manifest writes to that same field),
 * and `maxPodsExpression` that is no expression or is set beside `maxPods` (both are the one field
 * `kubelet.maxPods`), and a JavaScript Map, Set, Date or class instance where a plain object belongs (JSON
 * writes it as `{}` or a string, so the object the server would see is not the one the caller meant), or an
 * object with its own `toJSON` (JSON writes what it gives). Such cases are not compared.
 */
const PROPS_SHAPE = [
  { field: /./, message: /a plain object\b[^]*, got an? [A-Z][A-Za-z0-9]*\b/ },
  // an object with a toJSON: JSON writes what toJSON gives, not the object the caller passed
  { field: /./, message: /= \(an object whose toJSON gives / },
  // inherited (prototype) properties: JSON writes only own ones, so the server would see another object
  { field: /./, message: /an object with inherited \(prototype\) properties/ },
  { field: /^limits\[.*\]$/, message: /as a string, got (a number|the number)/ },
  { field: /^kubelet\.maxPods$/, message: /got a string: a CEL expression goes in kubelet\.maxPodsExpression/ },
  {
    field: /^kubelet\.maxPodsExpression$/,
    message: /unset when kubelet\.maxPods is set|a CEL expression as a string, got|a CEL expression, not a fixed count/,
  },
];

/** Whether a library problem is one of PROPS_SHAPE. */
function propsShape(problem) {
  return PROPS_SHAPE.some((r) => r.field.test(problem.field || "") && r.message.test(problem.message || ""));
}

/** Fields of the props that are not part of the emitted object: their problems have no manifest counterpart. */
const CONSTRUCT_FIELDS =
  /^(props|deleteTimeout|dependsOn|kubernetesProvider|karpenter|cluster|version|discoveryTagKey|nodeClass)$/;

/** The semantic rule a library problem is, or undefined. */
function semanticRuleOf(problem, version) {
  const atLeast = (v, min) => {
    const [a, b] = String(v || "0.0")
      .split(".")
      .map(Number);
    const [c, d] = min.split(".").map(Number);
    return a > c || (a === c && b >= d);
  };
  return SEMANTIC_RULES.find(
    (r) =>
      (!r.field || r.field.test(problem.field || "")) &&
      r.message.test(problem.message || "") &&
      (!r.since || atLeast(version, r.since)),
  );
}

/**
 * Whether a recorded case is compared, and why not: a construction that failed before its spec was
 * read (construct-level errors: provider, versions, no node class), user tokens (not judged at synth
 * by design), a problem on a prop that is not part of the object, a recorder error.
 */
function exclusion(rec) {
  if (rec.recordError) return `recorder error: ${rec.recordError.split("\n")[0]}`;
  if (rec.optionTokens) return "props hold tokens (the library leaves token values to the server)";
  if (!rec.manifest) return "no object to submit (rejected before its spec was read: construct-level error)";
  const probs = rec.problems || [];
  if (probs.some((p) => p.rule === "construct"))
    return `construct-level problem: ${probs.find((p) => p.rule === "construct").field}`;
  // a prop that is not part of the object (deleteTimeout), or an unknown prop the construct never emits
  // (NodePoolProps, NodeOverlayProps, CapacityBufferProps and node class references are built from known fields only)
  const outside = (p) =>
    CONSTRUCT_FIELDS.test(p.field || "") ||
    /is invalid: not a field of (NodePoolProps|NodeOverlayProps|CapacityBufferProps|a node class reference)/.test(
      p.message || "",
    );
  if (probs.length && probs.every(outside))
    return `problem on a prop outside the object: ${probs.map((p) => p.field).join(", ")}`;
  if (probs.length && probs.every((p) => outside(p) || propsShape(p)))
    return `problem with the props' shape, which the object does not show: ${probs.map((p) => p.field).join(", ")}`;
  if (rec.rebuildMatches === false) return "the rebuilt manifest differs from the emitted one";
  return undefined;
}

/**
 * Library verdict vs server verdict for one case.
 * @param rec a recorded case ({verdict, problems})
 * @param server {accepted, message}
 * @returns {{outcome: "agree" | "agree-semantic" | "disagree", detail: string, rules?: string[]}}
 */
function compareCase(rec, server) {
  const probs = (rec.problems || []).filter((p) => !CONSTRUCT_FIELDS.test(p.field || "") && !propsShape(p));
  if (rec.verdict === "accepted") {
    return server.accepted
      ? { outcome: "agree", detail: "both accept" }
      : { outcome: "disagree", detail: `the library accepts, the server rejects: ${server.message}` };
  }
  if (!server.accepted) {
    // only problems of the semantic rules (which run after every CRD rule passed): the CRD rules missed what the server caught
    if (probs.length && probs.every((p) => p.rule === "semantic"))
      return {
        outcome: "disagree",
        detail: `the server rejects what the library's CRD rules accept (only semantic problems found): ${server.message}`,
      };
    return { outcome: "agree", detail: "both reject", sameField: sameField(rec, server) };
  }
  const rules = probs.map((p) => semanticRuleOf(p, rec.version));
  if (probs.length && rules.every(Boolean))
    return {
      outcome: "agree-semantic",
      detail: `beyond the CRD: ${[...new Set(rules.map((r) => r.id))].join(", ")}`,
      rules: rules.map((r) => r.id),
    };
  const unlisted = probs.filter((p) => !semanticRuleOf(p, rec.version));
  return {
    outcome: "disagree",
    detail: `the library rejects by a rule not listed in SEMANTIC_RULES, the server accepts: ${unlisted.map((p) => `${p.field} [${p.rule}]: ${p.message}`).join(" | ")}`,
  };
}

/**
 * A library problem's field (a prop path: `requirements[0].key`, `labels["k"]`, `nodeClass.name`) as a path
 * into the object the server judged (`spec.template.spec.requirements[0].key`).
 */
function objectPath(kind, field) {
  // the server writes a map entry as a path segment (spec.template.metadata.labels.team)
  // the prop kubelet.maxPodsExpression is the object's kubelet.maxPods
  const f = String(field || "")
    .replace(/\["([^"]*)"\]/g, ".$1")
    .replace(/^kubelet\.maxPodsExpression$/, "kubelet.maxPods");
  const head = f.split(/[.[]/)[0];
  if (head === "name") return "metadata.name";
  if (head === "namespace" && kind === "CapacityBuffer") return "metadata.namespace";
  if (kind !== "NodePool") return `spec.${f}`;
  if (head === "nodeClass") return `spec.template.spec.nodeClassRef${f.slice("nodeClass".length)}`;
  if (["labels", "annotations"].includes(head)) return `spec.template.metadata.${f}`;
  if (["requirements", "taints", "startupTaints", "expireAfter", "terminationGracePeriod"].includes(head))
    return `spec.template.spec.${f}`;
  return `spec.${f}`;
}

/**
 * When both reject: whether the server names a field the library names (one path within the other,
 * the server's at least two segments deep, so that a rule on all of `spec` does not count).
 * Undefined when the server names no field.
 */
function sameField(rec, server) {
  const theirs = (server.fields || []).map((x) => String(x).replace(/^\./, "")).filter((x) => x.split(".").length >= 2);
  if (!theirs.length) return undefined;
  const ours = (rec.problems || []).map((p) => objectPath(rec.kind, p.field));
  return ours.some((o) =>
    theirs.some(
      (t) =>
        o === t || o.startsWith(`${t}.`) || o.startsWith(`${t}[`) || t.startsWith(`${o}.`) || t.startsWith(`${o}[`),
    ),
  );
}

/** One case per (kind, version, object, library verdict): the suite builds many objects more than once. */
function uniqueCases(records) {
  const seen = new Map();
  for (const rec of records) {
    const key = JSON.stringify([
      rec.kind,
      rec.version,
      rec.manifest,
      rec.verdict,
      (rec.problems || []).map((p) => [p.field, p.rule]),
    ]);
    if (!seen.has(key)) seen.set(key, { ...rec, occurrences: 1 });
    else seen.get(key).occurrences++;
  }
  return [...seen.values()];
}

/** The CRD release used for a case's version: the reference release of the same minor (the library's facts are per minor). */
function releaseFor(version, releases) {
  if (releases.includes(version)) return version;
  const minor = String(version).split(".").slice(0, 2).join(".");
  return releases.find((r) => r.split(".").slice(0, 2).join(".") === minor);
}

/** The agreement figures for the report and the `N/N cases agree` line. */
function summarize(results) {
  const compared = results.filter((r) => r.outcome);
  const agree = compared.filter((r) => r.outcome !== "disagree").length;
  const bySemantic = {};
  for (const r of compared) for (const id of r.rules || []) bySemantic[id] = (bySemantic[id] || 0) + 1;
  return {
    cases: compared.length,
    agree,
    disagree: compared.length - agree,
    bothAccept: compared.filter((r) => r.outcome === "agree" && r.verdict === "accepted").length,
    bothReject: compared.filter((r) => r.outcome === "agree" && r.verdict === "rejected").length,
    semanticByDesign: compared.filter((r) => r.outcome === "agree-semantic").length,
    // verdicts agree; this says how often the two also name the same field first (the server may stop at another)
    bothRejectSameField: compared.filter((r) => r.sameField === true).length,
    bothRejectOtherField: compared.filter((r) => r.sameField === false).length,
    semanticRules: bySemantic,
    excluded: results.filter((r) => !r.outcome).length,
    line: `${agree}/${compared.length} cases agree`,
  };
}

module.exports = {
  SEMANTIC_RULES,
  CONSTRUCT_FIELDS,
  PROPS_SHAPE,
  propsShape,
  semanticRuleOf,
  exclusion,
  compareCase,
  uniqueCases,
  releaseFor,
  summarize,
  objectPath,
  sameField,
};
