/*
 * The keys of each public props interface and option object, to refuse unknown keys at construction
 * (TypeScript checks excess properties only in object literals: `const common = { verison: … };
 * new Karpenter(s, "k", common)` compiles). test/core/prop-keys.test.ts reads the interfaces
 * with the TypeScript compiler API and fails when a list and its interface differ.
 */

/** `KarpenterProps` (lib/install/karpenter-props.ts). */
export const KARPENTER_PROPS = [
  "cluster",
  "version",
  "allowUnverifiedVersion",
  "namespace",
  "serviceAccountName",
  "identity",
  "interruptionQueue",
  "replicas",
  "controllerResources",
  "dnsPolicy",
  "settings",
  "values",
  "nodeRole",
  "controllerRole",
  "spotServiceLinkedRole",
  "systemNodeGroup",
  "repository",
  "tags",
  "helmProvider",
  "discoveryTagKey",
  "adopt",
] as const;
/** `KarpenterNodeRoleOptions` (lib/aws/karpenter-options.ts). */
export const NODE_ROLE_OPTIONS = ["roleName", "existingRole", "additionalPolicyArns"] as const;
/** `KarpenterControllerRoleOptions` (lib/aws/karpenter-options.ts). */
export const CONTROLLER_ROLE_OPTIONS = [
  "roleName",
  "policyNameSuffix",
  "additionalStatements",
  "additionalPolicyArns",
] as const;
/** `KarpenterInterruptionQueueOptions` (lib/aws/karpenter-options.ts). */
export const CREATED_QUEUE_OPTIONS = ["queueName", "ruleNamePrefix", "kmsKey"] as const;
/** `KarpenterExistingInterruptionQueue` (lib/aws/karpenter-options.ts). */
export const EXISTING_QUEUE_OPTIONS = ["existingQueueName", "existingQueueArn", "kmsKeyArn"] as const;
/** `ExistingNodeRole` (lib/aws/karpenter-node-role.ts). */
export const EXISTING_NODE_ROLE = ["roleName", "roleArn"] as const;
/** `PodIdentityControllerIdentity` (lib/aws/controller-role-spec.ts). */
export const POD_IDENTITY = ["type"] as const;
/** `IrsaControllerIdentity` (lib/aws/controller-role-spec.ts). */
export const IRSA_IDENTITY = ["type", "oidcProviderArn"] as const;
/** `IamPolicyStatement` (lib/aws/controller-role-spec.ts). */
export const IAM_STATEMENT = ["sid", "effect", "actions", "resources", "conditions"] as const;
/** `IamPolicyCondition` (lib/aws/controller-role-spec.ts). */
export const IAM_CONDITION = ["test", "variable", "values"] as const;
/** `InterruptionQueueKmsKey` (lib/aws/interruption-queue.ts). */
/** `ControllerResources` (lib/helm/karpenter-settings.ts). */
export const CONTROLLER_RESOURCES = ["requests", "limits"] as const;
/** `ResourceQuantities` (lib/helm/karpenter-settings.ts). */
export const RESOURCE_QUANTITIES = ["cpu", "memory"] as const;
/** `KubernetesToleration` (lib/helm/karpenter-settings.ts). */
export const TOLERATION = ["key", "operator", "value", "effect", "tolerationSeconds"] as const;
/** `KarpenterNodeRoleProps` (lib/aws/karpenter-node-role.ts). */
export const NODE_ROLE_PROPS = [
  "cluster",
  "version",
  "roleName",
  "existingRole",
  "additionalPolicyArns",
  "provider",
  "tags",
] as const;
/** `KarpenterControllerRoleProps` (lib/aws/karpenter-controller-role.ts). */
export const CONTROLLER_ROLE_PROPS = [
  "cluster",
  "version",
  "nodeRole",
  "interruptionQueue",
  "identity",
  "namespace",
  "serviceAccountName",
  "roleName",
  "policyNameSuffix",
  "additionalStatements",
  "additionalPolicyArns",
  "provider",
  "tags",
] as const;
/** `InterruptionQueueProps` (lib/aws/interruption-queue.ts). */
export const INTERRUPTION_QUEUE_PROPS = [
  "cluster",
  "version",
  "queueName",
  "ruleNamePrefix",
  "kmsKey",
  "tags",
  "provider",
] as const;
/** `KarpenterReleaseProps` (lib/helm/karpenter-release.ts). */
export const RELEASE_PROPS = [
  "cluster",
  "version",
  "namespace",
  "releaseName",
  "repository",
  "serviceAccountName",
  "irsaRoleArn",
  "interruptionQueue",
  "replicas",
  "controllerResources",
  "dnsPolicy",
  "nodeSelector",
  "tolerations",
  "affinity",
  "settings",
  "values",
  "dependsOn",
  "timeout",
  "helmProvider",
] as const;
/** `KarpenterCrdReleaseProps` (lib/helm/karpenter-crd-release.ts). */
export const CRD_RELEASE_PROPS = [
  "version",
  "namespace",
  "createNamespace",
  "releaseName",
  "repository",
  "webhookServiceName",
  "webhookEnabled",
  "webhookPort",
  "dependsOn",
  "helmProvider",
] as const;
/** `SpotServiceLinkedRoleProps` (lib/aws/spot-service-linked-role.ts). */
export const SPOT_ROLE_PROPS = ["tags", "provider"] as const;
/** `SystemNodeGroupProps` (lib/cluster/system-node-group.ts). */
export const SYSTEM_NODE_GROUP_PROPS = [
  "cluster",
  "subnetIds",
  "size",
  "instanceTypes",
  "amiType",
  "diskSize",
  "labels",
  "taints",
  "nodeGroupName",
  "roleName",
  "tags",
  "provider",
  "dependsOn",
] as const;
/** `SystemNodeTaint` (lib/cluster/system-node-group.ts). */
export const SYSTEM_NODE_TAINT = ["key", "value", "effect"] as const;
/** `DiscoveryTagsProps` (lib/cluster/discovery-tags.ts). */
export const DISCOVERY_TAGS_PROPS = [
  "cluster",
  "subnets",
  "securityGroupId",
  "tagValue",
  "tagKey",
  "provider",
] as const;
/** `KarpenterAdoption` (lib/adopt/karpenter-adoption.ts). */
export const ADOPTION = [
  "clusterName",
  "version",
  "namespace",
  "nodeRole",
  "controllerRole",
  "interruptionQueue",
  "helm",
] as const;
/** `GettingStartedAdoptionProps` (lib/adopt/karpenter-adoption.ts). */
export const GETTING_STARTED_ADOPTION_PROPS = [
  "clusterName",
  "version",
  "podIdentityAssociationId",
  "ruleNames",
  "namespace",
  "nodeAccessEntry",
] as const;
/** `TerraformAwsEksModuleAdoptionProps` (lib/adopt/karpenter-adoption.ts). */
export const TERRAFORM_AWS_EKS_MODULE_ADOPTION_PROPS = [
  "major",
  "clusterName",
  "nodeRoleName",
  "controllerRoleName",
  "controllerPolicyName",
  "queueName",
  "ruleNames",
  "podIdentityAssociationId",
  "createdPodIdentityAssociation",
  "cniPolicy",
] as const;
/** `FromClusterNameOptions` (lib/cluster/karpenter-cluster.ts). */
export const FROM_CLUSTER_NAME_OPTIONS = ["provider"] as const;
