/*
 * The stable codes of KarpenterValidationError: one per rule (not per field: the field says
 * where), so that tests and users match the code rather than the prose of the message.
 * docs/error-codes.md is generated from these tables (`npm run docs`).
 *
 * A code is `<SUBJECT>_<RULE>`. The generic checks of a Checker (unknown field, enum, integer
 * range, …) derive theirs from the Checker's subject and the generic rule
 * (`NODEPOOL_NOT_IN_ENUM`); every other code is written out at the check that produces it.
 */

/** What each code's first part names: the construct, function or input a rule belongs to. */
export const ERROR_SUBJECTS = {
  ADOPT: "adopt: taking over an existing Karpenter install (Karpenter `adopt` prop)",
  ADOPTION: "KarpenterAdoption: the adoption presets (gettingStartedAdoption, terraformModuleAdoption)",
  AWS: "AWS names, ARNs, tags and quotas",
  CAPACITYBUFFER: "CapacityBuffer",
  CLUSTER: "the cluster an install targets",
  CONTROLLER_ROLE: "KarpenterControllerRole: identity, extra IAM statements, names",
  CONVERT: "convertLegacyManifests: the v1alpha5 / v1beta1 input",
  DISCOVERY_TAGS: "DiscoveryTags",
  EC2NODECLASS: "Ec2NodeClass (EC2NodeClass)",
  HELM: "the Helm releases (names, repository, webhook, timeout, CRD chart)",
  HELM_VALUES: "the controller chart's values and settings",
  INSTALL: "Karpenter (the install construct) and its add… methods",
  INTERRUPTION_QUEUE: "the interruption queue (InterruptionQueueConfig, InterruptionQueueKmsKey)",
  KARPENTER_VERSION: "the Karpenter version",
  KUBERNETES: "Kubernetes object names",
  NODE: "rules shared by NodePool, EC2NodeClass and NodeOverlay that Karpenter applies at runtime",
  NODE_ROLE: "KarpenterNodeRole",
  NODEOVERLAY: "NodeOverlay",
  NODEPOOL: "NodePool",
  OPTIONS: "options objects of functions (convertLegacyManifests, upgradePlan, …)",
  PROPS: "the props of Karpenter and its building blocks (KarpenterRelease, the roles, the queue), read as data",
  PROVIDER: "the Terraform providers (AWS, Helm, Kubernetes) the constructs use",
  STACK: "the order of stacks",
  SYSTEM_NODE_GROUP: "SystemNodeGroup",
  UPGRADE_PLAN: "upgradePlan",
} as const;

/** The subject a {@link Checker} is created with: the Karpenter object kinds it checks. */
export const CHECKER_SUBJECTS = ["NODEPOOL", "EC2NODECLASS", "NODEOVERLAY", "CAPACITYBUFFER"] as const;
/** The subject of a {@link Checker}. */
export type CheckerSubject = (typeof CHECKER_SUBJECTS)[number];

/** The generic checks of a Checker; each subject's code is `<subject>_<rule>`. */
export const GENERIC_RULES = {
  NEEDS_NEWER_KARPENTER:
    "a field or value that needs a newer Karpenter than the object targets (first in that version's CRDs)",
  NOT_AN_OBJECT: "the props (or a part of them) are not an object",
  UNKNOWN_FIELD:
    "a field the object does not have: the API server would silently drop it (a did-you-mean names a likely typo)",
  REQUIRED: "a field the CRD requires is missing",
  FORMAT: "a string that does not match the field's format (the CRD's pattern)",
  DURATION_TOO_LONG: "a duration longer than Go's time.Duration holds (about 292 years)",
  NOT_IN_ENUM: "a value outside the field's fixed list (the CRD's enum)",
  NOT_A_NUMBER: "a number field given another type (a number in quotes included)",
  INTEGER_RANGE: "a number that is not a whole number within the field's range (int32 unless the CRD says otherwise)",
  NOT_A_BOOLEAN: 'a boolean field given another type (the string "true" included)',
  NOT_A_STRING: "a string field (or string map value) given another type",
  NOT_INT_OR_STRING: "an int-or-string field given another type, or a fraction",
  STRING_LENGTH: "a string that is empty, shorter or longer than the field allows",
  NOT_A_LIST: "a list field given another type (a comma-separated string included)",
  LIST_LENGTH: "a list with fewer or more items than the field allows",
  LIST_ITEM_MISSING: "a null or undefined list item",
  NOT_A_MAP: "a map field given another type",
  MAP_SIZE: "a map with more entries than the field allows",
  EMPTY_MAP_KEY: "an empty key in a map of resource names",
  NOT_A_DNS_NAME: "an object name that is not a DNS-1123 subdomain",
  NOT_A_QUALIFIED_NAME:
    "a label, annotation, taint or requirement key that is not a Kubernetes qualified name [prefix/]name",
  NOT_A_LABEL_VALUE: "not a Kubernetes label value (at most 63 letters, digits, '-', '_', '.')",
  NOT_A_QUANTITY: 'not a Kubernetes resource quantity written as a string ("100", "500m", "8Gi")',
  NEGATIVE_QUANTITY: "a negative resource quantity",
} as const;
/** A generic rule of a Checker. */
export type GenericRule = keyof typeof GENERIC_RULES;

/** Every code written out at its check, with its meaning (and the upstream source of the rule where there is one). */
export const ERROR_CODES = {
  ADOPTION_CLUSTER_NAME_MISSING: "the cluster name the getting-started guide was run with is missing",
  ADOPTION_MODULE_MAJOR: "the terraform-aws-modules karpenter module major is not 19, 20 or 21",
  ADOPTION_MODULE_NAME_MISSING: "a name from the module's state is missing",
  ADOPTION_POD_IDENTITY_ASSOCIATION_ID:
    "the ID of the guide's (eksctl's) Pod Identity association is missing or malformed",
  ADOPTION_NOT_A_BOOLEAN: "a preset's boolean prop (cniPolicy, nodeAccessEntry…) is not true or false",
  ADOPTION_NOT_A_STRING: "a preset's optional string prop (namespace, queueName…) is not a string",
  ADOPTION_PROPS_NOT_AN_OBJECT: "a preset's props missing or not an object",
  ADOPTION_UNKNOWN_PROP: "a key the preset's props do not have: it would be ignored",
  ADOPTION_V19_POD_IDENTITY:
    "createdPodIdentityAssociation with major 19 (terraform-aws-modules/eks v19 created IRSA only; Pod Identity came with v20)",
  ADOPT_ACCESS_ENTRY_NOT_A_BOOLEAN: "adopt.nodeRole.accessEntry is not true or false",
  ADOPT_CLUSTER_MISMATCH: "the adopted resources belong to another cluster's install",
  ADOPT_HELM_NOT_A_BOOLEAN: "adopt.helm is not true or false",
  ADOPT_NAMESPACE_MISMATCH: "namespace differs from the namespace of the adopted install",
  ADOPT_NAME_MISMATCH: "a name prop that differs from the adopted resource's name",
  ADOPT_NODE_ROLE_CONFLICT: "nodeRole.existingRole set together with adopt.nodeRole",
  ADOPT_NOT_AN_OBJECT: "adopt is not an object { nodeRole?, controllerRole?, interruptionQueue?, helm? }",
  ADOPT_POD_IDENTITY_ASSOCIATION_ID: "not an EKS Pod Identity association ID (a- and 17 lower-case letters or digits)",
  ADOPT_POD_IDENTITY_WITH_IRSA: "an adopted Pod Identity association on an IRSA install",
  ADOPT_POLICIES_NOT_A_LIST: "adopted attachedPolicies is not a list of policy names or ARNs",
  ADOPT_POLICIES_NOT_KNOWN: "adopted attachedPolicies is not a list written out in the app",
  ADOPT_POLICY_REFERENCE:
    "an attachedPolicies entry that is neither an IAM policy name nor a policy ARN (IAM User Guide, IAM identifiers)",
  ADOPT_POLICY_TWICE: "an attached policy listed twice (by name or ARN)",
  ADOPT_QUEUE_NOT_CREATED: "adopt.interruptionQueue without a queue this install creates",
  ADOPT_ROLE_NAME_MISSING: "an adopted role without its name",
  ADOPT_RULE_NAMES_NOT_A_MAP: "adopted ruleNames is not an object from event to the existing rule's name",
  ADOPT_RULE_NAMES_UNKNOWN_EVENT: "a ruleNames key that is not an interruption event",
  ADOPT_RULE_NOT_INSTALLED: "an adopted rule for an event the targeted Karpenter version does not install",
  ADOPT_TARGET_ID: "not an EventBridge target ID (1 to 64 letters, digits, '.', '-' and '_')",
  ADOPT_TOO_MANY_POLICIES: "the adopted role's extra attached policies would exceed IAM's managed-policy quota",
  ADOPT_UNKNOWN_KEY: "a key that adopt (or one of its parts) does not have: it would be ignored",
  AWS_CLUSTER_NAME: "not an EKS cluster name (1 to 100 letters, digits, '-' and '_')",
  AWS_DERIVED_NAME_TOO_LONG: "a name derived from the cluster name is longer than AWS allows: set it",
  AWS_EXISTING_ROLE: "an existing role that is not { roleName, roleArn }",
  AWS_IAM_NAME: "not a valid IAM role name",
  AWS_IAM_NAME_TAKEN: "an IAM name another construct of the app creates in the same AWS account",
  AWS_IAM_POLICY_QUOTA: "more managed policies on one IAM role than IAM's quota allows",
  AWS_KMS_KEY_ARN: "not a KMS key ARN (an alias is refused)",
  AWS_LIST_EMPTY: "an empty list where at least one item is needed",
  AWS_LIST_ITEM: "a list item of the wrong form (e.g. not an ID or ARN)",
  AWS_NAME: "a name AWS refuses (length or characters)",
  AWS_OIDC_PROVIDER_ARN: "not an IAM OIDC provider ARN",
  AWS_POLICY_ARN: "not an IAM managed policy ARN",
  AWS_POLICY_ARNS_NOT_A_LIST: "policy ARNs that are not an array",
  AWS_POLICY_ARNS_NOT_KNOWN:
    "a list token of policy ARNs: one attachment is created per ARN, so the list must be known at synth",
  AWS_POLICY_ARN_ALREADY_ATTACHED: "a policy the role gets anyway",
  AWS_POLICY_ARN_TWICE: "a policy ARN given twice",
  AWS_QUEUE_ARN: "not an SQS queue ARN",
  AWS_REGION: "the AWS provider's region is not a region name",
  AWS_ROLE_ARN: "not an IAM role ARN",
  AWS_ROLE_ARN_NAME_MISMATCH: "roleArn names another role than roleName",
  AWS_TAGS_NOT_A_MAP: "tags is not a map of tag keys to string values",
  AWS_TAG_CHARACTERS: "a tag key or value with characters AWS tags do not take",
  AWS_TAG_KEY_LENGTH: "a tag key that is empty or longer than AWS allows",
  AWS_TAG_KEY_RESERVED: 'a tag key starting with "aws:"',
  AWS_TAG_VALUE: "a tag value that is not a string or too long",
  AWS_TOO_MANY_TAGS: "more tags than AWS allows on one resource (50)",
  CAPACITYBUFFER_NAMESPACE: "namespace is not a DNS-1123 label",
  CAPACITYBUFFER_NEGATIVE_LIMIT: "a negative limit",
  CAPACITYBUFFER_REF_CONFLICT: "scalableRef and podTemplateRef both set (CapacityBuffer CRD)",
  CAPACITYBUFFER_REF_REQUIRED: "neither podTemplateRef nor scalableRef (CapacityBuffer CRD)",
  CAPACITYBUFFER_REPLICAS_REQUIRED: "podTemplateRef without replicas or limits (CapacityBuffer CRD)",
  CAPACITYBUFFER_SCALABLE_REF_GROUP:
    "a scalableRef apiGroup other than apps (kubernetes-sigs/karpenter pkg/utils/apps/resolve.go)",
  CAPACITYBUFFER_SCALABLE_REF_KIND:
    "a scalableRef kind other than Deployment, StatefulSet or ReplicaSet (kubernetes-sigs/karpenter pkg/utils/apps/resolve.go)",
  CLUSTER_AUTO_MODE: "a cluster with EKS Auto Mode enabled",
  CLUSTER_KUBERNETES_INCOMPATIBLE:
    "the Karpenter version does not run on the cluster's Kubernetes version (Karpenter compatibility matrix)",
  CLUSTER_KUBERNETES_VERSION: "the cluster's version is not a Kubernetes minor EKS takes",
  CLUSTER_NOT_KARPENTER_CLUSTER: "cluster is not a KarpenterCluster",
  CLUSTER_REGION_MISMATCH: "the cluster is in another region than the stack's AWS provider",
  CLUSTER_REQUIRED: "cluster is missing or not an IKarpenterCluster",
  CLUSTER_SECOND_INSTALL: "a second Karpenter install on one cluster",
  CONTROLLER_ROLE_CONDITION: "a malformed IAM condition { test, variable, values }",
  CONTROLLER_ROLE_CONDITION_OPERATOR: "a condition test that is not an IAM condition operator",
  CONTROLLER_ROLE_IDENTITY: 'identity is not { type: "podIdentity" } or { type: "irsa", oidcProviderArn? }',
  CONTROLLER_ROLE_NAME_SUFFIX:
    "a role or policy name suffix that is not a string, too long or has characters IAM refuses",
  CONTROLLER_ROLE_NODE_ROLE_MISSING: "the controller role has no node role to pass to EC2",
  CONTROLLER_ROLE_POLICY_SIZE: "the extra statements make the managed policy exceed IAM's size limit",
  CONTROLLER_ROLE_QUEUE: "interruptionQueue is not an InterruptionQueue or { queueArn, kmsKeyArn? }",
  CONTROLLER_ROLE_STATEMENT:
    "an extra IAM statement that is malformed (not { sid?, effect?, actions, resources, conditions? })",
  CONTROLLER_ROLE_STATEMENT_EFFECT: 'a statement effect other than "Allow" or "Deny"',
  CONTROLLER_ROLE_STATEMENT_SID:
    "a statement Sid that is not alphanumeric, is repeated or is one the controller policy uses",
  CONVERT_DUPLICATE_NAME: "two objects of one kind with the same name",
  CONVERT_INPUT: "convertLegacyManifests was not given YAML text",
  CONVERT_READ: "the convert command cannot read its input: no such file, or bytes that are not UTF-8",
  CONVERT_LIST_ITEMS: "a List's items are missing or not Kubernetes objects",
  CONVERT_OPTION_NOT_A_BOOLEAN: "a converter option is not true or false",
  CONVERT_OPTION_ROLE: "options.role is not an IAM role name",
  CONVERT_PROVIDER_AND_REF: "a v1alpha5 Provisioner with both provider and providerRef",
  CONVERT_QUANTITY: "a legacy resource quantity that is not a quantity",
  CONVERT_REQUIRED: "a field the legacy object must have is missing",
  CONVERT_WRONG_TYPE: "a legacy field of the wrong type",
  CONVERT_YAML: "YAML the parser rejects (syntax, nesting)",
  DISCOVERY_TAGS_CLAIMED: "a subnet or security group another DiscoveryTags tags with the same key",
  DISCOVERY_TAGS_CLUSTER_NAME: "clusterName is not a cluster name",
  DISCOVERY_TAGS_SECURITY_GROUP_ID: "not a security group ID",
  DISCOVERY_TAGS_SUBNETS: "subnets that are not a list of subnet IDs known at synth",
  DISCOVERY_TAGS_SUBNETS_EMPTY: "an empty subnets list",
  DISCOVERY_TAGS_SUBNET_ID: "not a subnet ID or a reference to one",
  DISCOVERY_TAGS_SUBNET_PUBLIC: "a public subnet (maps public IPs on launch or carries kubernetes.io/role/elb)",
  DISCOVERY_TAGS_SUBNET_TAGS_MANAGED: "a subnet whose tags this app manages (its aws_subnet would remove the tag)",
  DISCOVERY_TAGS_SUBNET_TAG_CONFLICT: "a subnet that already carries the discovery tag in its own tags",
  DISCOVERY_TAGS_SUBNET_TWICE: "a subnet listed twice",
  DISCOVERY_TAGS_VALUE: "a discovery tag value that is too long",
  DISCOVERY_TAGS_VALUE_EMPTY: "an empty discovery tag value (an EC2NodeClass cannot select it)",
  DISCOVERY_TAGS_VALUE_NOT_CLUSTER:
    "a tag value other than the cluster's name, which the default EC2NodeClass selector uses",
  EC2NODECLASS_AMI_ALIAS: "an alias that is not family@version of a supported family (EC2NodeClass CRD)",
  EC2NODECLASS_AMI_ALIAS_DATE:
    "an al2 / al2023 alias version vYYYYMMDD that is no calendar date (month 13, day 99, February 30): no EKS AMI release has it",
  EC2NODECLASS_AMI_ALIAS_KUBERNETES: "an AMI alias or family EKS does not publish for the cluster's Kubernetes version",
  EC2NODECLASS_AMI_ALIAS_NOT_ALONE: "an alias term among other AMI selector terms (EC2NodeClass CRD)",
  EC2NODECLASS_AMI_ALIAS_VERSION:
    "an alias version not written as its family's releases are (al2 / al2023 vYYYYMMDD, bottlerocket vX.Y.Z): it names no SSM parameter",
  EC2NODECLASS_AMI_FAMILY: "amiFamily missing or not matching the alias (EC2NodeClass CRD)",
  EC2NODECLASS_AMI_SELECTOR_TERMS: "amiSelectorTerms missing or with more than 30 terms (EC2NodeClass CRD)",
  EC2NODECLASS_CONNECTION_TRACKING: "connectionTracking without any timeout (EC2NodeClass CRD)",
  EC2NODECLASS_DEVICE_NAME_TWICE: "two block device mappings with one deviceName (EC2 InvalidBlockDeviceMapping)",
  EC2NODECLASS_EBS_INITIALIZATION_RATE: "volumeInitializationRate without snapshotID",
  EC2NODECLASS_EBS_IOPS: "iops outside EC2's limits for the volume type and size (EC2 API Reference, EbsBlockDevice)",
  EC2NODECLASS_EBS_HDD_BOOT_VOLUME:
    "st1 / sc1 on the AMI family's boot device (EBS User Guide: HDD volumes cannot be boot volumes)",
  EC2NODECLASS_EBS_KMS_KEY_ID: "a kmsKeyID in none of EC2's four forms (EC2 API Reference, EbsBlockDevice KmsKeyId)",
  EC2NODECLASS_EBS_KMS_KEY_REGION:
    "a kmsKeyID ARN of another region than the cluster's (a KMS key belongs to one Region)",
  EC2NODECLASS_EBS_KMS_KEY_UNENCRYPTED: "kmsKeyID without encrypted: true (EC2 API Reference, EbsBlockDevice)",
  EC2NODECLASS_EBS_NEGATIVE: "a negative EBS number (EC2 API Reference, EbsBlockDevice)",
  EC2NODECLASS_EBS_SIZE_OR_SNAPSHOT: "an EBS volume with neither volumeSize nor snapshotID",
  EC2NODECLASS_EBS_SNAPSHOT_ID: "a snapshotID that is no snap- ID (EC2 InvalidSnapshotID.Malformed)",
  EC2NODECLASS_EBS_THROUGHPUT: "gp3 throughput outside EC2's limits (EC2 API Reference, EbsBlockDevice)",
  EC2NODECLASS_EBS_VOLUME_SIZE:
    "a volume size outside EC2's limits for the volume type (EC2 API Reference, EbsBlockDevice)",
  EC2NODECLASS_ENCLAVE_OPTIONS: "enclaveOptions without enabled",
  EC2NODECLASS_EXPRESSION_NOT_ALLOWED: "a CEL expression where this Karpenter version or field takes a static value",
  EC2NODECLASS_KUBELET: "kubelet is not an object of KubeletConfiguration fields written as data",
  EC2NODECLASS_KUBELET_CLUSTER_DNS: "a clusterDNS entry that is not an IP address",
  EC2NODECLASS_KUBELET_DURATION:
    "a kubelet duration field (metav1.Duration) whose value is no Go duration string (Karpenter 1.15+ strict-decodes spec.kubelet)",
  EC2NODECLASS_KUBELET_EVICTION:
    "an eviction signal or threshold that kubelet does not take, or a soft threshold without grace period",
  EC2NODECLASS_KUBELET_EXPRESSION: "a kubelet CEL expression Karpenter cannot evaluate",
  EC2NODECLASS_KUBELET_FIELD_TYPE:
    "a kubelet field given a JSON type its upstream KubeletConfiguration Go type does not decode (Karpenter 1.15+ strict-decodes spec.kubelet)",
  EC2NODECLASS_KUBELET_FAMILY:
    "a kubelet setting the AMI family does not apply (Bottlerocket podsPerCore, clusterDNS lists)",
  EC2NODECLASS_KUBELET_IMAGE_GC:
    "imageGCHighThresholdPercent not above imageGCLowThresholdPercent (EC2NodeClass CRD), or on AL2023 one set alone against the kubelet's default for the other (high 85, low 80)",
  EC2NODECLASS_KUBELET_KARPENTER_OWNED:
    "a kubelet field Karpenter sets itself and refuses from the user (registerWithTaints, 1.15+)",
  EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET:
    "a 1.15 free-form kubelet value the kubelet's own configuration validation refuses at start (ValidateKubeletConfiguration): the node never joins",
  EC2NODECLASS_KUBELET_MAX_PODS: "maxPods (or its expression) of the wrong form",
  EC2NODECLASS_KUBELET_NEGATIVE: "a kubelet count or grace period below zero, which Karpenter 1.15+ refuses",
  EC2NODECLASS_KUBELET_NOT_A_FIELD:
    "a kubelet key that is no field of the upstream KubeletConfiguration (case-sensitive; Karpenter 1.15+ strict-decodes spec.kubelet)",
  EC2NODECLASS_KUBELET_NOT_A_QUANTITY:
    'a kubeReserved / systemReserved value written as a number and a unit or words no Kubernetes quantity has ("1GB", "1 core")',
  EC2NODECLASS_KUBELET_QUANTITY_SUFFIX: "a kubelet quantity with a misleading suffix (m on bytes, bytes on CPU)",
  EC2NODECLASS_KUBELET_RESERVED: "a reserved resource name or quantity kubelet does not take (EC2NodeClass CRD)",
  EC2NODECLASS_KUBELET_UNKNOWN_FIELD: "a kubelet field Karpenter does not map for the AMI family",
  EC2NODECLASS_NETWORK_INTERFACES:
    "network interfaces missing a field, the primary interface, or with duplicates (EC2NodeClass CRD)",
  EC2NODECLASS_PLACEMENT_GROUP: "placementGroupSelector without exactly one of name and id (EC2NodeClass CRD)",
  EC2NODECLASS_INSTANCE_PROFILE_NAME: "an instanceProfile that is no IAM instance profile name (an ARN, a path)",
  EC2NODECLASS_METADATA_ENDPOINT:
    "the instance metadata endpoint disabled on AL2023, whose nodeadm reads its configuration there",
  EC2NODECLASS_ROLE_AND_INSTANCE_PROFILE: "role and instanceProfile both set (EC2NodeClass CRD)",
  EC2NODECLASS_ROLE_ARN: "role is an ARN, not a role name",
  EC2NODECLASS_ROLE_NAME: "role is not an IAM role name",
  EC2NODECLASS_ROLE_REQUIRED: "neither role nor instanceProfile (EC2NodeClass CRD)",
  EC2NODECLASS_ROOT_VOLUME_TWICE: "two block device mappings marked rootVolume (EC2NodeClass CRD)",
  EC2NODECLASS_SELECTOR_TAGS_EMPTY: "an empty tag key or value in selector tags (EC2NodeClass CRD)",
  EC2NODECLASS_SELECTOR_TERM:
    "a selector term that sets none or a forbidden combination of its fields (EC2NodeClass CRD)",
  EC2NODECLASS_SELECTOR_TERMS:
    "subnet / security group / capacity reservation selector terms missing, empty or more than 30 (EC2NodeClass CRD)",
  EC2NODECLASS_TAGS_COUNT:
    "more tags than fit EC2's 50 per resource beside the tags Karpenter adds to every instance (EC2 tag restrictions)",
  EC2NODECLASS_TAG_KEY: "a tag key that is restricted or too long (EC2NodeClass CRD, EC2 and IAM limits)",
  EC2NODECLASS_TAG_VALUE: "a tag value that is too long or has characters EC2 and IAM refuse",
  EC2NODECLASS_USER_DATA: "userData that is not well-formed MIME multipart (AL2 / AL2023)",
  EC2NODECLASS_USER_DATA_ROOM:
    "userData of exactly 16 KB on an AMI family whose bootstrap Karpenter adds to it (EC2 User Guide, user data)",
  EC2NODECLASS_USER_DATA_SIZE: "userData above EC2's 16 KB limit",
  HELM_CRD_RELEASE_SHARED: "two karpenter-crd releases on one Helm provider (cluster)",
  HELM_CRD_VERSION_MISMATCH: "the controller chart version differs from the CRD chart version on its cluster",
  HELM_CRD_WEBHOOK_ENABLED: "webhookEnabled is not true or false",
  HELM_CRD_WEBHOOK_VERSION: "a conversion webhook setting on a Karpenter version without one (1.1 and later)",
  HELM_RELEASE_NAME: "not a Helm release name",
  HELM_REPOSITORY: "not a chart repository URL",
  HELM_TIMEOUT: "timeout is not a whole number of seconds, at least 1",
  HELM_VALUES_CONTROLLER_OPTION:
    "a values.controller.env entry for a controller option (ports, client QPS and burst, leader election, booleans, memory and CPU figures) that panics or breaks the controller, or that its parse cannot read and silently replaces with its default",
  HELM_VALUES_CYCLE: "values that contain a reference back to themselves",
  HELM_VALUES_DNS_CONFIG: "dnsConfig missing or malformed (Kubernetes PodDNSConfig validation)",
  HELM_VALUES_DNS_POLICY: "dnsPolicy is not a Kubernetes DNS policy",
  HELM_VALUES_ENV:
    "a values.controller.env or envFrom entry of a shape the API server refuses (core/v1 EnvVar: a list of maps, a non-empty name of printable ASCII without '=', a string value, not both a non-empty value and valueFrom)",
  HELM_VALUES_FEATURE_GATE_CONFLICT: "feature gates that cannot be on together",
  HELM_VALUES_K8S_VALUE:
    "a chart value the API server refuses in the rendered Deployment, Service, PodDisruptionBudget or ClusterRole (strategy, revisionHistoryLimit, affinity, topologySpreadConstraints, security contexts, extraVolumes, volume mounts, initContainers, sidecarContainer, env valueFrom / envFrom, nameOverride / fullnameOverride, podDisruptionBudget.name and maxUnavailable, additionalClusterRoleRules)",
  HELM_VALUES_K8S_FIELD:
    "a field the Kubernetes type the chart renders a values subtree into (strategy, podSecurityContext, affinity, a container …) does not have",
  HELM_VALUES_K8S_TYPE:
    "a value of the wrong JSON type for its Kubernetes field (a string where an integer goes, a map where a list goes …): the API server cannot decode the Deployment",
  HELM_VALUES_LABEL_KEY: "not a Kubernetes label key",
  HELM_VALUES_LABEL_VALUE: "not a Kubernetes label value",
  HELM_VALUES_LIST_ITEM_MISSING:
    "a null or undefined item, or a hole of a sparse array ([, x]), in a list anywhere in values: Helm renders `- null`, which the API server refuses (a required name) or a template cannot read (hasKey)",
  HELM_VALUES_LOG_LEVEL:
    "values.logLevel (or a LOG_LEVEL entry of values.controller.env) the controller refuses: from 1.14 only debug, info, error (karpenter options.go validLogLevels)",
  HELM_VALUES_LOG_OUTPUT_PATHS:
    "an element of values.logOutputPaths / logErrorOutputPaths (or a LOG_OUTPUT_PATHS / LOG_ERROR_OUTPUT_PATHS entry of values.controller.env) zap cannot open: empty, a scheme other than file, a file on the read-only root filesystem or in a read-only volume; the controller panics at start (from 1.14); or a list given as a map, or an item that is not a string, which the chart's join writes as Go's text of it",
  HELM_VALUES_NEEDS_NEWER_KARPENTER: "a setting or feature gate the targeted Karpenter version does not have yet",
  HELM_VALUES_NOT_A_BOOLEAN:
    'a chart value the templates test only with if (hostNetwork, serviceAccount.create, serviceMonitor.enabled, webhook.enabled) that is not a boolean: a string such as "false" is true there',
  HELM_VALUES_NOT_A_MAP: "a values part that is not a plain map known at synth",
  HELM_VALUES_NOT_FINITE: "NaN or Infinity in the values (JSON cannot hold them)",
  HELM_VALUES_NULL_MAP:
    "null for a map of the chart whose keys its templates read (controller, controller.metrics, serviceAccount …): Helm removes the map and the template stops on a nil pointer",
  HELM_VALUES_POD_SPEC:
    'a controller pod value the API server refuses (podAnnotations, priorityClassName, terminationGracePeriodSeconds: core/v1 pod validation), or a controller.image.repository (null, "") that renders no image reference the kubelet can parse',
  HELM_VALUES_PORT:
    "values.controller.metrics.port / healthProbe.port not a TCP port (1 to 65535), the two ports the controller binds equal, or a HEALTH_PROBE_PORT entry off the probes' containerPort",
  HELM_VALUES_RENDER: "a value that cannot be rendered into the chart's values YAML",
  HELM_VALUES_REPLICAS: "replicas is not a whole number, at least 1",
  HELM_VALUES_REQUEST_ABOVE_LIMIT: "a controller resource request above its limit",
  HELM_VALUES_RESOURCES: "a controller resource request or limit that is not a quantity above zero",
  HELM_VALUES_SCHEDULER_CONFIG:
    "a SCHEDULER_CONFIG entry of values.controller.env the 1.15 controller refuses at start (karpenter options.go ParseSchedulerConfiguration)",
  HELM_VALUES_SETTING:
    "a chart setting value of the wrong form (in settings, values.settings, or a values.controller.env entry for the setting's env var or FEATURE_GATES)",
  HELM_VALUES_SETTINGS: "values.settings (or a part of it) is not a map",
  HELM_VALUES_TOLERATION: "a malformed toleration (Kubernetes core/v1 validation)",
  HELM_VALUES_TOO_DEEP: "values (or another map prop of the chart) nested deeper than 64 maps and lists",
  HELM_VALUES_UNKNOWN_KEY: "a chart value the targeted Karpenter chart does not have",
  HELM_VALUES_WIRED: "a value this library wires from the construct graph",
  HELM_WEBHOOK_PORT: "a webhook port that is not a TCP port (1 to 65535)",
  INSTALL_FEATURE_GATE_OFF: "an object Karpenter reads only with a feature gate the install leaves off",
  INSTALL_ID_NAME: "an id that gives no Kubernetes name",
  INSTALL_ID_TAKEN: "an id an earlier addNodePool / addEc2NodeClass / … call used",
  INSTALL_NAME: "an install name (namespace, release, role, queue) that is invalid",
  INSTALL_NOT_A_BOOLEAN: "a Karpenter prop that is not true or false",
  INSTALL_REPLICAS_ABOVE_SYSTEM_NODES: "more controller replicas than the system node group has nodes",
  INSTALL_SYSTEM_NODE_GROUP: "systemNodeGroup is not a SystemNodeGroup of this app",
  INSTALL_SYSTEM_NODE_GROUP_SELECTOR: "a nodeSelector that keeps the controller off the system node group",
  INSTALL_SYSTEM_NODE_GROUP_TOLERATIONS: "the controller does not tolerate every taint of the system node group",
  INTERRUPTION_QUEUE_CONFIG: "interruptionQueue is not an InterruptionQueueConfig",
  INTERRUPTION_QUEUE_EXISTING: "an existing queue's name or ARN is missing or malformed",
  INTERRUPTION_QUEUE_KMS_KEY: "kmsKey is not an InterruptionQueueKmsKey",
  INTERRUPTION_QUEUE_NAME_MISMATCH: "existingQueueName differs from the name in existingQueueArn",
  INTERRUPTION_QUEUE_UNKNOWN_KEY: "a key the queue options do not have",
  KARPENTER_VERSION_CRD_MISSING: "a CRD object for a Karpenter version whose chart does not ship that CRD",
  KARPENTER_VERSION_MISMATCH: "objects of one app that target different Karpenter versions",
  KARPENTER_VERSION_NEW_MAJOR: "a new Karpenter major release",
  KARPENTER_VERSION_NOT_A_STRING: "a Karpenter version that is not a string",
  KARPENTER_VERSION_TOKEN: "a Karpenter version that is a token (it must be known at synth)",
  KARPENTER_VERSION_TOO_NEW: "a Karpenter release newer than every release this library knows",
  KARPENTER_VERSION_UNKNOWN: "a Karpenter version that is not a known release",
  KARPENTER_VERSION_UNSUPPORTED: "a Karpenter version outside the supported minors",
  KUBERNETES_DUPLICATE_NAME: "two objects of one kind with the same name on one cluster",
  KUBERNETES_NAMESPACE: "not a Kubernetes namespace name (DNS-1123 label)",
  KUBERNETES_OBJECT_NAME: "an object name that is not a non-empty DNS-1123 subdomain",
  KUBERNETES_SERVICE_ACCOUNT_NAME: "not a Kubernetes ServiceAccount name (DNS-1123 subdomain)",
  KUBERNETES_SERVICE_NAME: "not a Kubernetes Service name (DNS-1123 label)",
  NODEOVERLAY_CAPACITY_RESTRICTED: "capacity overriding cpu, memory, pods or ephemeral-storage (NodeOverlay CRD)",
  NODEOVERLAY_NEGATIVE_CAPACITY: "a negative capacity quantity",
  NODEOVERLAY_PRICE_CONFLICT: "price and priceAdjustment both set (NodeOverlay CRD)",
  NODEOVERLAY_REQUIREMENT: "a malformed requirement (NodeOverlay CRD)",
  NODEPOOL_ANNOTATIONS_SIZE: "annotations above Kubernetes' 256 KiB metadata limit",
  NODEPOOL_ANNOTATION_KEY: "an annotation key that is not a qualified name",
  NODEPOOL_BUDGETS_EMPTY: "an empty disruption.budgets list (NodePool CRD)",
  NODEPOOL_BUDGET_REASON_TWICE: "a budget reason listed twice",
  NODEPOOL_BUDGET_SCHEDULE: "a budget schedule that is not a cron schedule or macro",
  NODEPOOL_BUDGET_SCHEDULE_DURATION: "a budget with a schedule and no duration, or the reverse (NodePool CRD)",
  NODEPOOL_CAPACITY_TYPE: "an unknown capacity type",
  NODEPOOL_LABEL_KEY: "a label key that is malformed or restricted (NodePool CRD)",
  NODEPOOL_LIMITS: "limits is not a map of resource names to quantities as strings",
  NODEPOOL_MIN_VALUES: "minValues above the number of values (NodePool CRD)",
  NODEPOOL_MIN_VALUES_KNOWN:
    "minValues above the number of values Karpenter knows for karpenter.sh/capacity-type or instance-tenancy (it drops the others, then refuses the NodePool)",
  NODEPOOL_NODE_CLASS_NOT_A_CLASS:
    "nodeClass is another construct than an Ec2NodeClass (a NodeOverlay, a NodePool, the Karpenter install…)",
  NODEPOOL_NODE_CLASS_OTHER_INSTALL: "an Ec2NodeClass of another Karpenter install",
  NODEPOOL_NODE_CLASS_REF: "nodeClass reference missing its name, or naming another group or kind than EC2NodeClass",
  NODEPOOL_NODE_CLASS_REQUIRED: "nodeClass is missing",
  NODEPOOL_PROVIDER_MISMATCH: "a NodePool on another Kubernetes provider than its EC2NodeClass",
  NODEPOOL_REQUIREMENTS: "requirements not a list or more than the NodePool CRD allows",
  NODEPOOL_RESERVATION_CAPACITY_TYPE:
    "a requirement or label needs a capacity reservation's label, which only reserved offerings carry, while the capacity types (stated, or the default on-demand) leave out reserved",
  NODEPOOL_RESERVATION_EXCLUDED:
    "a pool left only reserved capacity with a requirement no reserved offering meets (a capacity-reservation label DoesNotExist, or NotIn every type)",
  NODEPOOL_RESERVATION_NOT_SELECTED:
    "a capacity-reservation-id requirement or label names none of the ids the EC2NodeClass selects, or excludes them all on a reserved-only pool",
  NODEPOOL_RESERVED_WITHOUT_RESERVATIONS:
    "requirements or template labels that allow only reserved capacity, with an EC2NodeClass that selects no capacity reservation",
  NODEPOOL_REQUIREMENT_KEY: "a requirement key missing or malformed (NodePool CRD)",
  NODEPOOL_REQUIREMENT_OPERATOR: "a requirement operator missing or unknown",
  NODEPOOL_REQUIREMENT_VALUES: "requirement values that do not fit the operator (NodePool CRD)",
  NODEPOOL_STATIC: "a field a static NodePool (replicas set) does not take (NodePool CRD)",
  NODEPOOL_TAINT: "a taint missing its key or effect, or repeated (NodePool CRD)",
  NODEPOOL_TAINT_VALUE:
    "a taint value the CRD pattern takes but no Node can carry: over 63 characters or with a '/' (Kubernetes validates it as a label value)",
  NODE_DEPENDS_ON: "dependsOn that is not a list of Terraform resources, data sources or modules",
  NODE_KARPENTER_NOT_AN_INSTALL:
    "karpenter is not a Karpenter install (a plain object, a path string, another construct such as an Ec2NodeClass…)",
  NODE_LABEL_KEY_RUNTIME: "a label key Karpenter refuses at runtime",
  NODE_MANIFEST_TOO_LARGE:
    "a node object whose manifest is more JSON than the API server takes in one request (3 MiB): every apply would fail",
  NODE_NAME_TOO_LONG: "a name longer than the label value Karpenter puts it in (63 characters)",
  NODE_OTHER_APP: "karpenter or nodeClass is a construct of another cdktf App",
  NODE_REQUIREMENT_KEY_RUNTIME: "a requirement key Karpenter refuses at runtime",
  NODE_REQUIREMENT_NOT_NUMERIC: "Gt / Lt on a label whose values are not numbers",
  NODE_REQUIREMENT_UNSATISFIABLE: "requirements (or labels) no node can satisfy",
  NODE_REQUIREMENT_VALUE_UNKNOWN: "a well-known label value no instance carries",
  NODE_REGION:
    "a region other than the cluster's for topology.kubernetes.io/region (aws/karpenter-provider-aws: instance types carry only the cluster's region)",
  NODE_ROLE_OPTION_WITH_EXISTING_ROLE:
    "a node role option that only applies to a role this library creates, set with existingRole",
  NODE_VALUE_CONSTRUCT:
    "a spec prop given a construct (a NodePool as scalableRef, a NodeOverlay as kubelet…) where data belongs",
  NODE_VALUE_UNREADABLE: "a props value that throws when read (a revoked Proxy)",
  NODE_VALUE_CYCLE:
    "a props value that contains itself, so its manifest (JSON) has no end (as HELM_VALUES_CYCLE for chart values)",
  NODE_VALUE_TOO_LARGE:
    "props of a node object holding more values (list items and map entries) than any Kubernetes object can carry (1,572,864: the API server's 3 MiB request at 2 bytes a value); refused before any check walks them",
  NODE_VALUE_TOO_DEEP: "a props value nested deeper than 16 maps and lists, far beyond any field of the Karpenter CRDs",
  NODE_VALUE_PROTO_KEY:
    "a props map with a key named __proto__, which JavaScript objects turn into a prototype: the entry would be dropped from the Terraform JSON",
  NODE_ZONE: "a zone ID for the zone key, or a zone outside the cluster's region",
  NODE_ZONE_ID:
    "a zone ID (topology.k8s.aws/zone-id) without the AZ ID prefix of the cluster's region (use1- is us-east-1)",
  OPTIONS_NOT_AN_OBJECT: "options that are not an object",
  OPTIONS_UNKNOWN_KEY: "an options key that does not exist (it would be ignored)",
  PROPS_VALUE_PROTO_KEY:
    "a props map of Karpenter or a building block with a key named __proto__, which JavaScript objects turn into a prototype (the entry would be dropped), as NODE_VALUE_PROTO_KEY for node objects",
  PROPS_VALUE_TOO_LARGE:
    "props of Karpenter or a building block holding more values than any Kubernetes object can carry, as NODE_VALUE_TOO_LARGE for node objects",
  PROPS_VALUE_UNREADABLE:
    "a props value of Karpenter or a building block that throws when read (a revoked Proxy, a throwing getter or ownKeys trap), as NODE_VALUE_UNREADABLE for node objects",
  PROVIDER_AMBIGUOUS: "several providers of a kind and none chosen",
  PROVIDER_HELM_OTHER_CLUSTER: "a Helm provider another install on another cluster uses",
  PROVIDER_MISSING: "no provider of a kind the resources need",
  PROVIDER_ONLY_ALIASED: "the only provider of a kind is aliased",
  PROVIDER_OTHER_STACK: "a provider of another stack",
  PROVIDER_SHARED_DEFAULT: "several installs on different clusters rely on one default provider",
  PROVIDER_WRONG_CLASS: "a provider prop that is not a provider of the right kind",
  STACK_DEPENDENCY_CYCLE: "an object of a stack that depends on this one",
  SYSTEM_NODE_GROUP_AMI_TYPE: "amiType is not an EKS AMI type",
  SYSTEM_NODE_GROUP_DISK_SIZE: "diskSize is not a whole number of GiB, at least 1",
  SYSTEM_NODE_GROUP_INSTANCE_TYPE: "not an EC2 instance type name",
  SYSTEM_NODE_GROUP_INSTANCE_TYPES: "instanceTypes is empty",
  SYSTEM_NODE_GROUP_LABELS: "labels is not a map of Kubernetes label keys to values",
  SYSTEM_NODE_GROUP_LABEL_KEY: "not a Kubernetes label key",
  SYSTEM_NODE_GROUP_LABEL_VALUE: "not a label value EKS takes (1 to 63 characters)",
  SYSTEM_NODE_GROUP_ROLE_LABEL: "the system node label is set to another value than the controller selects",
  SYSTEM_NODE_GROUP_SIZE: "size is not a whole number from 1 to 100",
  SYSTEM_NODE_GROUP_SUBNETS: "subnetIds is not a non-empty list of subnet IDs",
  SYSTEM_NODE_GROUP_TAINTS: "taints is not a list of { key, value?, effect } or has more than EKS allows",
  SYSTEM_NODE_GROUP_TAINT_EFFECT: "not an EKS taint effect (NO_SCHEDULE, NO_EXECUTE, PREFER_NO_SCHEDULE)",
  SYSTEM_NODE_GROUP_TAINT_KEY: "not a taint key",
  SYSTEM_NODE_GROUP_TAINT_VALUE: "not a taint value",
  UPGRADE_PLAN_KUBERNETES_VERSION: "options.kubernetesVersion is not a Kubernetes minor",
  UPGRADE_PLAN_VERSION: "a version that is not a known Karpenter release",
} as const;

/** A stable code of a KarpenterValidationError: one of {@link ERROR_CODES}, or a Checker subject's generic rule. */
export type ErrorCode = keyof typeof ERROR_CODES | `${CheckerSubject}_${GenericRule}`;

/** One code, its subject and its meaning, as docs/error-codes.md lists them. */
export interface ErrorCodeEntry {
  readonly code: string;
  readonly subject: keyof typeof ERROR_SUBJECTS;
  readonly meaning: string;
}

/** The subject of a code: the longest {@link ERROR_SUBJECTS} key it starts with (followed by `_`). */
export function subjectOf(code: string): keyof typeof ERROR_SUBJECTS | undefined {
  const subjects = Object.keys(ERROR_SUBJECTS) as (keyof typeof ERROR_SUBJECTS)[];
  return subjects.filter((s) => code.startsWith(`${s}_`)).sort((a, b) => b.length - a.length)[0];
}

/** Every code, sorted: those written out and each Checker subject's generic ones. */
export function allErrorCodes(): ErrorCodeEntry[] {
  const entries: ErrorCodeEntry[] = Object.entries(ERROR_CODES).map(([code, meaning]) => ({
    code,
    subject: subjectOf(code)!,
    meaning,
  }));
  for (const subject of CHECKER_SUBJECTS)
    for (const [rule, meaning] of Object.entries(GENERIC_RULES))
      entries.push({ code: `${subject}_${rule}`, subject, meaning });
  return entries.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}
