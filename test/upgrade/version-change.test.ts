import { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import { Testing } from "cdktf";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { Karpenter } from "../../lib/install/karpenter";
import { NodePool } from "../../lib/nodes/node-pool";
import { upgradePlan } from "../../lib/upgrade";
import { providedStack, resources, synthJson, testCluster } from "../helpers";

/*
 * Changing `version` of an app: what `cdktf deploy` then does, read from two synths. The same
 * addresses must carry the same names (Terraform replaces a role, queue, policy or release whose
 * name changes, and with it the state it holds), and the controller release must depend on the CRD
 * release and on the controller's policy attachments, so Terraform applies those first.
 */

/** The synthesized stack of an app at `version`: a cluster, the install, an EC2NodeClass and a NodePool. */
function synthAt(version: string): any {
  const app = Testing.app();
  const stack = providedStack(app, "eks");
  const cluster = testCluster(stack, "demo");
  new EksAddon(stack, "pod-identity-agent", { clusterName: cluster.clusterName, addonName: "eks-pod-identity-agent" });
  const karpenter = new Karpenter(stack, "karpenter", { cluster, version });
  const nodeClass = new Ec2NodeClass(stack, "default-class", { karpenter });
  new NodePool(stack, "default-pool", { nodeClass });
  return synthJson(stack);
}

/** Every resource as `type.name` → body. */
function addresses(json: any): Map<string, any> {
  const out = new Map<string, any>();
  for (const [type, byName] of Object.entries(json.resource as Record<string, Record<string, any>>))
    for (const [name, body] of Object.entries(byName)) out.set(`${type}.${name}`, body);
  return out;
}

/** Per address present in both, the attributes whose value differs. */
function changedAttributes(a: Map<string, any>, b: Map<string, any>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [address, before] of a) {
    const after = b.get(address);
    if (!after) continue;
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
    );
    if (keys.length) out[address] = keys.sort();
  }
  return out;
}

const byChart = (json: any, chart: string) =>
  Object.entries(resources(json, "helm_release")).find(([, r]: [string, any]) => r.chart === chart)!;

describe("changing version from 1.2.8 to 1.11.3", () => {
  const before = synthAt("1.2.8");
  const after = synthAt("1.11.3");
  const [a, b] = [addresses(before), addresses(after)];
  const plan = upgradePlan("1.2.8", "1.11.3");

  test("only what the plan adds is created: the capacity-reservation rule and target; nothing is destroyed", () => {
    const created = [...b.keys()].filter((k) => !a.has(k));
    const destroyed = [...a.keys()].filter((k) => !b.has(k));
    expect(created.map((k) => k.split(".")[0]).sort()).toEqual([
      "aws_cloudwatch_event_rule",
      "aws_cloudwatch_event_target",
    ]);
    expect(destroyed).toEqual([]);
    const newRule = b.get(created.find((k) => k.startsWith("aws_cloudwatch_event_rule."))!);
    expect(JSON.parse(newRule.event_pattern)["detail-type"]).toEqual(
      plan.net.interruptionRules.added.map((r) => r.detailType[0]),
    );
  });

  test("the ECR attachment keeps its address and changes its policy: replaced create-before-destroy, so nodes never lack an ECR policy", () => {
    const [ecr] = [...b.keys()].filter((k) => k.includes("attachment-ecr-pull"));
    expect(a.get(ecr).policy_arn).toContain(plan.net.nodeRolePolicies.removed[0]);
    expect(b.get(ecr).policy_arn).toContain(plan.net.nodeRolePolicies.added[0]);
    expect([a.get(ecr).lifecycle, b.get(ecr).lifecycle]).toEqual([
      { create_before_destroy: true },
      { create_before_destroy: true },
    ]);
  });

  test("nothing that holds state is replaced: every kept address changes only its version, its depends_on, its policy document or (the ECR attachment) its policy", () => {
    const changed = changedAttributes(a, b);
    const [crdAddress] = byChart(after, "karpenter-crd");
    const [controllerAddress] = byChart(after, "karpenter");
    const policies = Object.keys(changed).filter((k) => k.startsWith("aws_iam_policy."));
    const [ecr] = [...b.keys()].filter((k) => k.includes("attachment-ecr-pull"));
    expect(changed).toEqual({
      [`helm_release.${crdAddress}`]: ["version"],
      // the new rule target joins depends_on; no setting's value changes
      [`helm_release.${controllerAddress}`]: ["depends_on", "version"],
      ...Object.fromEntries(policies.map((p) => [p, ["policy"]])),
      [ecr]: ["policy_arn"],
    });
    // the statements that change sit in the NodeLifecycle and ResourceDiscovery policies (AllowScopedEC2InstanceAccessActions, AllowRegionalReadActions, AllowUnscopedInstanceProfileListAction)
    expect(policies.map((p) => b.get(p).name).sort()).toEqual([
      "KarpenterControllerNodeLifecyclePolicy-${aws_eks_cluster.cluster.name}",
      "KarpenterControllerResourceDiscoveryPolicy-${aws_eks_cluster.cluster.name}",
    ]);
    // the plan names the same managed policies
    expect([...new Set(plan.net.controllerPolicy.map((c) => c.policy))].sort()).toEqual([
      "NodeLifecycle",
      "ResourceDiscovery",
    ]);
    // names of what holds state, unchanged
    for (const type of [
      "aws_iam_role",
      "aws_sqs_queue",
      "aws_eks_access_entry",
      "aws_eks_pod_identity_association",
      "aws_iam_policy",
      "aws_cloudwatch_event_rule",
      "helm_release",
      "kubernetes_manifest",
    ]) {
      for (const [address, body] of a) {
        if (!address.startsWith(`${type}.`) || !b.has(address)) continue;
        const after = b.get(address);
        for (const attr of ["name", "name_prefix", "cluster_name", "namespace", "service_account", "principal_arn"])
          expect([address, attr, after[attr]]).toEqual([address, attr, body[attr]]);
        if (type === "kubernetes_manifest") expect(after.manifest.metadata).toEqual(body.manifest.metadata);
      }
    }
  });

  test("the controller release depends on the CRD release and on every controller policy attachment, so both are applied first; the node objects come after it", () => {
    const [crdAddress] = byChart(after, "karpenter-crd");
    const [controllerAddress, controller] = byChart(after, "karpenter") as [string, any];
    expect(controller.depends_on).toContain(`helm_release.${crdAddress}`);
    const changedPolicies = Object.keys(changedAttributes(a, b)).filter((k) => k.startsWith("aws_iam_policy."));
    for (const policy of changedPolicies) {
      const attachments = Object.entries(resources(after, "aws_iam_role_policy_attachment")).filter(
        ([, r]: [string, any]) => r.policy_arn === `\${${policy}.arn}`,
      );
      expect(attachments).toHaveLength(1);
      expect(controller.depends_on).toContain(`aws_iam_role_policy_attachment.${attachments[0][0]}`);
    }
    // the new interruption rule's target is in depends_on too: the controller starts with the rule in place
    const target = Object.keys(resources(after, "aws_cloudwatch_event_target")).find(
      (k) => !a.has(`aws_cloudwatch_event_target.${k}`),
    )!;
    expect(controller.depends_on).toContain(`aws_cloudwatch_event_target.${target}`);
    const manifests = Object.values(resources(after, "kubernetes_manifest")) as any[];
    const nodeClass = manifests.find((m) => m.manifest.kind === "EC2NodeClass");
    expect(nodeClass.depends_on).toContain(`helm_release.${controllerAddress}`);
    // the plan states the same order
    expect(plan.deployOrder.map((p) => p.phase)).toEqual([
      "CRD release",
      "IAM policies and interruption rules",
      "controller release",
      "node objects",
    ]);
  });
});

describe("changing version from 1.11.3 to 1.12.2", () => {
  test("the new ZonalShift policy and its attachment are created, and the controller release waits for the attachment", () => {
    const [a, b] = [addresses(synthAt("1.11.3")), addresses(synthAt("1.12.2"))];
    const created = [...b.keys()].filter((k) => !a.has(k));
    expect(created.map((k) => k.split(".")[0]).sort()).toEqual(["aws_iam_policy", "aws_iam_role_policy_attachment"]);
    const policy = created.find((k) => k.startsWith("aws_iam_policy."))!;
    expect(b.get(policy).name).toBe("KarpenterControllerZonalShiftPolicy-${aws_eks_cluster.cluster.name}");
    expect(upgradePlan("1.11.3", "1.12.2").net.controllerPolicies.added).toEqual(["ZonalShift"]);
    const attachment = created.find((k) => k.startsWith("aws_iam_role_policy_attachment."))!;
    const controller = [...b.values()].find((r) => r.chart === "karpenter");
    expect(controller.depends_on).toContain(attachment);
    expect([...a.keys()].filter((k) => !b.has(k))).toEqual([]);
  });
});
