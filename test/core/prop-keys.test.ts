import * as path from "path";
import * as ts from "typescript";
import * as keys from "../../lib/core/prop-keys";

/*
 * The allowed-key lists that refuse unknown props at construction must name exactly the members
 * of their TypeScript interfaces: a prop added to an interface but not to its list would be
 * refused, one removed would still pass silently. Read from the sources with the compiler API.
 */

const LIB = path.join(__dirname, "..", "..", "lib");

/** Each list and the interface (file, name) it mirrors. */
const LISTS: [keyof typeof keys, string, string][] = [
  ["KARPENTER_PROPS", "install/karpenter-props.ts", "KarpenterProps"],
  ["NODE_ROLE_OPTIONS", "aws/karpenter-options.ts", "KarpenterNodeRoleOptions"],
  ["CONTROLLER_ROLE_OPTIONS", "aws/karpenter-options.ts", "KarpenterControllerRoleOptions"],
  ["CREATED_QUEUE_OPTIONS", "aws/karpenter-options.ts", "KarpenterInterruptionQueueOptions"],
  ["EXISTING_QUEUE_OPTIONS", "aws/karpenter-options.ts", "KarpenterExistingInterruptionQueue"],
  ["EXISTING_NODE_ROLE", "aws/karpenter-node-role.ts", "ExistingNodeRole"],
  ["POD_IDENTITY", "aws/controller-role-spec.ts", "PodIdentityControllerIdentity"],
  ["IRSA_IDENTITY", "aws/controller-role-spec.ts", "IrsaControllerIdentity"],
  ["IAM_STATEMENT", "aws/controller-role-spec.ts", "IamPolicyStatement"],
  ["IAM_CONDITION", "aws/controller-role-spec.ts", "IamPolicyCondition"],
  ["CONTROLLER_RESOURCES", "helm/karpenter-settings.ts", "ControllerResources"],
  ["RESOURCE_QUANTITIES", "helm/karpenter-settings.ts", "ResourceQuantities"],
  ["TOLERATION", "helm/karpenter-settings.ts", "KubernetesToleration"],
  ["NODE_ROLE_PROPS", "aws/karpenter-node-role.ts", "KarpenterNodeRoleProps"],
  ["CONTROLLER_ROLE_PROPS", "aws/karpenter-controller-role.ts", "KarpenterControllerRoleProps"],
  ["INTERRUPTION_QUEUE_PROPS", "aws/interruption-queue.ts", "InterruptionQueueProps"],
  ["RELEASE_PROPS", "helm/karpenter-release.ts", "KarpenterReleaseProps"],
  ["CRD_RELEASE_PROPS", "helm/karpenter-crd-release.ts", "KarpenterCrdReleaseProps"],
  ["SPOT_ROLE_PROPS", "aws/spot-service-linked-role.ts", "SpotServiceLinkedRoleProps"],
  ["SYSTEM_NODE_GROUP_PROPS", "cluster/system-node-group.ts", "SystemNodeGroupProps"],
  ["SYSTEM_NODE_TAINT", "cluster/system-node-group.ts", "SystemNodeTaint"],
  ["DISCOVERY_TAGS_PROPS", "cluster/discovery-tags.ts", "DiscoveryTagsProps"],
  ["ADOPTION", "adopt/karpenter-adoption.ts", "KarpenterAdoption"],
  ["GETTING_STARTED_ADOPTION_PROPS", "adopt/karpenter-adoption.ts", "GettingStartedAdoptionProps"],
  ["TERRAFORM_AWS_EKS_MODULE_ADOPTION_PROPS", "adopt/karpenter-adoption.ts", "TerraformAwsEksModuleAdoptionProps"],
  ["FROM_CLUSTER_NAME_OPTIONS", "cluster/karpenter-cluster.ts", "FromClusterNameOptions"],
];

/** The property names of an exported interface, read from its source file. */
function interfaceMembers(file: string, name: string): string[] {
  const source = ts.createSourceFile(file, ts.sys.readFile(path.join(LIB, file)) ?? "", ts.ScriptTarget.Latest, true);
  const found = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
  );
  if (!found) throw new Error(`no interface ${name} in lib/${file}`);
  // the lists are flat: an interface that extends another would need its parent's members too
  expect(found.heritageClauses ?? []).toEqual([]);
  return found.members.filter(ts.isPropertySignature).map((m) => m.name.getText(source));
}

describe("allowed-key lists match their interfaces", () => {
  test.each(LISTS)("%s lists the members of %s's %s", (list, file, name) => {
    expect([...keys[list]].sort()).toEqual(interfaceMembers(file, name).sort());
  });

  test("every list of lib/core/prop-keys.ts is compared", () => {
    expect(Object.keys(keys).sort()).toEqual(LISTS.map(([list]) => list).sort());
  });

  test("a list that drifts is caught: a missing member differs", () => {
    expect([...keys.NODE_ROLE_OPTIONS, "extra"].sort()).not.toEqual(
      interfaceMembers("aws/karpenter-options.ts", "KarpenterNodeRoleOptions").sort(),
    );
  });
});
