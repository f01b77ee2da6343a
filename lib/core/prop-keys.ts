/*
 * The keys of each public props interface and option object, to refuse unknown keys at construction
 * (TypeScript checks excess properties only in object literals: `const common = { verison: … };
 * new Karpenter(s, "k", common)` compiles). test/private/prop-keys.test.ts reads the interfaces
 * with the TypeScript compiler API and fails when a list and its interface differ.
 */

/** `KarpenterProps` (lib/karpenter.ts). */
export const KARPENTER_PROPS = [
  "cluster", "version", "allowUnverifiedVersion", "namespace", "serviceAccountName", "identity", "interruptionQueue", "replicas", "controllerResources", "dnsPolicy",
  "settings", "values", "nodeRole", "controllerRole", "spotServiceLinkedRole", "systemNodeGroup", "repository", "tags", "helmProvider", "discoveryTagKey", "adopt",
] as const;
/** `KarpenterNodeRoleOptions` (lib/karpenter-options.ts). */
export const NODE_ROLE_OPTIONS = ["roleName", "existingRole", "additionalPolicyArns"] as const;
/** `KarpenterControllerRoleOptions` (lib/karpenter-options.ts). */
export const CONTROLLER_ROLE_OPTIONS = ["roleName", "policyNameSuffix", "additionalStatements", "additionalPolicyArns"] as const;
/** `KarpenterInterruptionQueueOptions` (lib/karpenter-options.ts). */
export const CREATED_QUEUE_OPTIONS = ["queueName", "ruleNamePrefix", "kmsKey"] as const;
/** `KarpenterExistingInterruptionQueue` (lib/karpenter-options.ts). */
export const EXISTING_QUEUE_OPTIONS = ["existingQueueName", "existingQueueArn", "kmsKeyArn"] as const;
/** `ExistingNodeRole` (lib/karpenter-node-role.ts). */
export const EXISTING_NODE_ROLE = ["roleName", "roleArn"] as const;
/** `PodIdentityControllerIdentity` (lib/karpenter-controller-role.ts). */
export const POD_IDENTITY = ["type"] as const;
/** `IrsaControllerIdentity` (lib/karpenter-controller-role.ts). */
export const IRSA_IDENTITY = ["type", "oidcProviderArn"] as const;
/** `IamPolicyStatement` (lib/karpenter-controller-role.ts). */
export const IAM_STATEMENT = ["sid", "effect", "actions", "resources", "conditions"] as const;
/** `IamPolicyCondition` (lib/karpenter-controller-role.ts). */
export const IAM_CONDITION = ["test", "variable", "values"] as const;
/** `InterruptionQueueKmsKey` (lib/interruption-queue.ts). */
export const QUEUE_KMS_KEY = ["keyArn"] as const;
/** `ControllerResources` (lib/karpenter-settings.ts). */
export const CONTROLLER_RESOURCES = ["requests", "limits"] as const;
/** `ResourceQuantities` (lib/karpenter-settings.ts). */
export const RESOURCE_QUANTITIES = ["cpu", "memory"] as const;
/** `KubernetesToleration` (lib/karpenter-settings.ts). */
export const TOLERATION = ["key", "operator", "value", "effect", "tolerationSeconds"] as const;
/** `KarpenterNodeRoleProps` (lib/karpenter-node-role.ts). */
export const NODE_ROLE_PROPS = ["cluster", "version", "roleName", "existingRole", "additionalPolicyArns", "provider", "tags"] as const;
/** `KarpenterControllerRoleProps` (lib/karpenter-controller-role.ts). */
export const CONTROLLER_ROLE_PROPS = [
  "cluster", "version", "nodeRole", "interruptionQueue", "identity", "namespace", "serviceAccountName", "roleName", "policyNameSuffix", "additionalStatements", "additionalPolicyArns", "provider", "tags",
] as const;
/** `InterruptionQueueProps` (lib/interruption-queue.ts). */
export const INTERRUPTION_QUEUE_PROPS = ["cluster", "version", "queueName", "ruleNamePrefix", "kmsKey", "tags", "provider"] as const;
/** `KarpenterReleaseProps` (lib/karpenter-release.ts). */
export const RELEASE_PROPS = [
  "cluster", "version", "namespace", "releaseName", "repository", "serviceAccountName", "irsaRoleArn", "interruptionQueue", "replicas", "controllerResources", "dnsPolicy",
  "nodeSelector", "tolerations", "affinity", "settings", "values", "dependsOn", "timeout", "helmProvider",
] as const;
/** `KarpenterCrdReleaseProps` (lib/karpenter-crd-release.ts). */
export const CRD_RELEASE_PROPS = ["version", "namespace", "createNamespace", "releaseName", "repository", "webhookServiceName", "webhookEnabled", "webhookPort", "dependsOn", "helmProvider"] as const;
/** `SpotServiceLinkedRoleProps` (lib/spot-service-linked-role.ts). */
export const SPOT_ROLE_PROPS = ["tags", "provider"] as const;
/** `SystemNodeGroupProps` (lib/system-node-group.ts). */
export const SYSTEM_NODE_GROUP_PROPS = [
  "cluster", "subnetIds", "size", "instanceTypes", "amiType", "diskSize", "labels", "taints", "nodeGroupName", "roleName", "tags", "provider", "dependsOn",
] as const;
/** `SystemNodeTaint` (lib/system-node-group.ts). */
export const SYSTEM_NODE_TAINT = ["key", "value", "effect"] as const;
/** `DiscoveryTagsProps` (lib/discovery-tags.ts). */
export const DISCOVERY_TAGS_PROPS = ["cluster", "subnets", "securityGroupId", "tagValue", "tagKey", "provider"] as const;
/** `KarpenterAdoption` (lib/adopt/karpenter-adoption.ts). */
export const ADOPTION = ["clusterName", "version", "namespace", "nodeRole", "controllerRole", "interruptionQueue", "helm"] as const;
/** `FromClusterNameOptions` (lib/karpenter-cluster.ts). */
export const FROM_CLUSTER_NAME_OPTIONS = ["provider"] as const;
