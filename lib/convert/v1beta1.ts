import { AmiSelectorTerm, SecurityGroupSelectorTerm, SubnetSelectorTerm } from "../nodes/ec2-node-class-spec";
import { Budget, ConsolidationPolicy, Disruption } from "../nodes/node-pool-spec";
import { ubuntuRootVolume } from "./aws-node-template";
import { Converted, ConvertInput } from "./drafts";
import { Fields, noteValue, ObjectContext } from "./fields";
import {
  amiChoice,
  defined,
  noteHopLimitDefault,
  noteMissingClassFields,
  noteUserData,
  readBlockDevices,
  readKubelet,
  readMetadataOptions,
  readTerms,
} from "./node-class-parts";
import { readNodeClassRef, readPoolTemplate, stateCapacityType } from "./node-pool-parts";

/*
 * karpenter.sh/v1beta1 NodePool and karpenter.k8s.aws/v1beta1 EC2NodeClass (Karpenter
 * 0.32–0.37) → v1, after the v1 upgrade guide (karpenter.sh v1.0 "v1 Migration": changelog,
 * "Kubelet Configuration Migration", "NodeClassRef Requirements") and the upstream conversion
 * webhooks (pkg/apis/v1/*_conversion.go of Karpenter v1.0).
 */

/**
 * v1beta1 → v1 NodePool: `disruption.expireAfter` moves into the template, `kubelet` is set aside
 * for its EC2NodeClass (see moveKubelet), `resources` is dropped with a note, and
 * WhenUnderutilized / an unset consolidateAfter become what the v1 conversion webhook writes.
 */
export function convertV1beta1NodePool(input: ConvertInput): Converted {
  const { ctx, spec } = input;
  const { pool, t } = readPoolTemplate(input);
  const p = pool.props;
  pool.nodeClassRef = readNodeClassRef(ctx, t, "nodeClassRef", false);
  if (!pool.nodeClassRef)
    ctx.invalid(
      "spec.template.spec.nodeClassRef",
      "no nodeClassRef: a v1 NodePool needs one; give the NodePool an EC2NodeClass (the NodePool construct's nodeClass)",
    );
  const kubelet = readKubelet(ctx, t, "kubelet", input.version);
  if (kubelet) pool.kubelet = { value: kubelet, field: "spec.template.spec.kubelet" };
  if (t.has("resources")) {
    ctx.note(
      "info",
      "spec.template.spec.resources",
      `resources ${noteValue(t.raw("resources"))} is not a v1 field (Karpenter computes NodeClaim resources itself): not converted`,
    );
  }
  stateCapacityType(ctx, pool, "spec.template.spec.requirements", true);

  const d = spec.obj("disruption", "disruption { consolidationPolicy, consolidateAfter, expireAfter, budgets }");
  if (d) {
    const expireAfter = d.str("expireAfter");
    if (expireAfter !== undefined) {
      p.expireAfter = expireAfter;
      ctx.note(
        "info",
        "spec.disruption.expireAfter",
        "moved to spec.template.spec.expireAfter in v1 (a drift-able template field; expiry now drains the node without waiting for replacement capacity)",
      );
    }
    p.disruption = disruption(ctx, d);
  }
  p.limits = spec.quantityMap("limits");
  p.weight = spec.int("weight");
  return { pool };
}

/** `spec.disruption` without `expireAfter`, renamed for v1. */
function disruption(ctx: ObjectContext, d: Fields): Disruption | undefined {
  const policy = d.str("consolidationPolicy");
  let after = d.str("consolidateAfter");
  const budgets = d
    .objects("budgets", "a disruption budget { nodes, schedule, duration }")
    ?.map((b) => defined<Budget>({ nodes: b.str("nodes"), schedule: b.str("schedule"), duration: b.str("duration") }));
  const underutilized = policy === undefined || policy === "WhenUnderutilized";
  if (policy === "WhenUnderutilized")
    ctx.note(
      "info",
      "spec.disruption.consolidationPolicy",
      "WhenUnderutilized is renamed WhenEmptyOrUnderutilized in v1",
    );
  if (underutilized && after !== undefined) {
    ctx.note(
      "action",
      "spec.disruption.consolidateAfter",
      `v1beta1 did not allow consolidateAfter with WhenUnderutilized (Karpenter waited 15s); carried over as "${after}": check it is what you want`,
    );
  }
  if (policy === undefined && after === undefined && budgets === undefined) return undefined;
  if (after === undefined) {
    after = "0s";
    ctx.note(
      "info",
      "spec.disruption.consolidateAfter",
      'v1 requires consolidateAfter: set to "0s", as the v1 conversion webhook does',
    );
  }
  return defined({
    consolidationPolicy: (policy === "WhenUnderutilized" ? "WhenEmptyOrUnderutilized" : policy) as
      ConsolidationPolicy | undefined,
    consolidateAfter: after,
    budgets,
  });
}

/** Converts a v1beta1 EC2NodeClass. */
export function convertV1beta1Ec2NodeClass(input: ConvertInput): Converted {
  const { ctx, spec: f, source } = input;
  const at = (key: string) => f.at(key);
  let family = f.str("amiFamily");
  if (family === undefined) {
    ctx.note(
      "action",
      at("amiFamily"),
      "not set (v1beta1 requires it): converted as Custom, as the v1 conversion webhook does; set the AMI family your AMIs belong to",
    );
    family = "Custom";
  }
  const terms = readTerms<AmiSelectorTerm>(f, "amiSelectorTerms", ["id", "name", "owner"]);
  const ami = amiChoice(ctx, family, terms && terms.length > 0 ? terms : undefined, at("amiFamily"));
  const metadataOptions = readMetadataOptions(f, "metadataOptions");
  noteHopLimitDefault(ctx, metadataOptions, at("metadataOptions"));
  const userData = f.str("userData");
  noteUserData(ctx, userData, family, at("userData"));
  const props = defined({
    name: source.name,
    role: f.str("role"),
    instanceProfile: f.str("instanceProfile"),
    ...ami,
    subnetSelectorTerms: readTerms<SubnetSelectorTerm>(f, "subnetSelectorTerms", ["id"]),
    securityGroupSelectorTerms: readTerms<SecurityGroupSelectorTerm>(f, "securityGroupSelectorTerms", ["id", "name"]),
    associatePublicIPAddress: f.bool("associatePublicIPAddress"),
    blockDeviceMappings: ubuntuRootVolume(
      ctx,
      family,
      readBlockDevices(ctx, f, "blockDeviceMappings", "v1beta1"),
      at("blockDeviceMappings"),
    ),
    context: f.str("context"),
    detailedMonitoring: f.bool("detailedMonitoring"),
    instanceStorePolicy: f.str("instanceStorePolicy") as "RAID0" | undefined,
    metadataOptions,
    tags: f.strMap("tags"),
    userData,
  });
  noteMissingClassFields(ctx, props, false);
  return { nodeClass: { ctx, source, props } };
}
