import { BlockDeviceMapping, Ec2NodeClassOptions } from "../nodes/ec2-node-class-spec";
import { Converted, ConvertInput } from "./drafts";
import { Fields, ObjectContext, Path } from "./fields";
import {
  amiChoice,
  defined,
  legacyAmiTerms,
  legacyIdTagTerms,
  noteHopLimitDefault,
  noteUserData,
  readBlockDevices,
  readMetadataOptions,
} from "./node-class-parts";

/*
 * karpenter.k8s.aws/v1alpha1 AWSNodeTemplate (and a v1alpha5 Provisioner's inline `provider`) →
 * karpenter.k8s.aws/v1 EC2NodeClass, after the v1beta1 migration guide ("AWSNodeTemplate ->
 * EC2NodeClass") and the v1 upgrade guide; selector splitting as upstream karpenter-convert.
 */

/**
 * An AWSNodeTemplate becomes the EC2NodeClass of the same name; the mapping is that of a
 * Provisioner's inline provider plus the fields only a template has (amiSelector, userData,
 * detailedMonitoring).
 */
export function convertAwsNodeTemplate(input: ConvertInput): Converted {
  const props = convertAwsProvider(input.ctx, input.spec, input.role, false);
  return { nodeClass: { ctx: input.ctx, source: input.source, props: { name: input.source.name, ...props } } };
}

/**
 * The EC2NodeClass spec of an AWSNodeTemplate spec, or of an inline provider (`inline`: no
 * `userData`, `amiSelector` or `detailedMonitoring` there; its `apiVersion` / `kind` are type
 * metadata only).
 */
export function convertAwsProvider(
  ctx: ObjectContext,
  f: Fields,
  role: string | undefined,
  inline: boolean,
): Ec2NodeClassOptions {
  if (inline) f.consume("apiVersion", "kind");
  const at = (key: string): Path => f.at(key);

  const givenFamily = f.str("amiFamily");
  if (givenFamily === undefined)
    ctx.note("info", at("amiFamily"), "not set: v1alpha1 defaulted it to AL2, so it was converted as AL2");
  const family = givenFamily ?? "AL2";
  const amiSelector = inline ? undefined : f.strMap("amiSelector");
  const amiTerms = amiSelector && legacyAmiTerms(ctx, amiSelector, at("amiSelector"));
  const ami = amiChoice(ctx, family, amiTerms, at("amiFamily"));

  const subnetSelector = f.strMap("subnetSelector");
  const subnetSelectorTerms = subnetSelector && legacyIdTagTerms(ctx, subnetSelector, at("subnetSelector"));
  if (!subnetSelectorTerms)
    ctx.invalid(
      at("subnetSelector"),
      "no subnet selector: v1 requires subnetSelectorTerms (the Ec2NodeClass construct defaults them to the cluster's karpenter.sh/discovery tag)",
    );
  const sgSelector = f.strMap("securityGroupSelector");
  const securityGroupSelectorTerms = sgSelector && legacyIdTagTerms(ctx, sgSelector, at("securityGroupSelector"));
  if (!securityGroupSelectorTerms)
    ctx.invalid(
      at("securityGroupSelector"),
      "no security group selector: v1 requires securityGroupSelectorTerms (the Ec2NodeClass construct defaults them to the cluster's karpenter.sh/discovery tag)",
    );

  const instanceProfile = f.str("instanceProfile", { nonEmpty: true });
  if (role !== undefined && instanceProfile !== undefined) {
    ctx.note(
      "info",
      at("instanceProfile"),
      `replaced by role "${role}" (the role option): Karpenter creates and manages the instance profile for the role; instance profile "${instanceProfile}" is no longer used by the new nodes`,
    );
  } else if (role !== undefined) {
    ctx.note(
      "info",
      at("instanceProfile"),
      `not set (the v1alpha1 object used the global defaultInstanceProfile setting, dropped in v1beta1): role "${role}" from the role option`,
    );
  } else if (instanceProfile === undefined) {
    ctx.invalid(
      at("instanceProfile"),
      "not set: the v1alpha1 object used the global defaultInstanceProfile setting, dropped in v1beta1; a v1 EC2NodeClass needs role or instanceProfile (the role option sets it; the Ec2NodeClass construct defaults role to the installation's node role)",
    );
  }

  if (f.has("launchTemplate")) {
    ctx.note(
      "action",
      at("launchTemplate"),
      `launchTemplate "${f.raw("launchTemplate")}" (an unmanaged launch template) was removed in v1beta1: not converted; move its AMI, user data, block devices and IMDS settings into this EC2NodeClass`,
    );
  }

  const metadataOptions = readMetadataOptions(f, "metadataOptions");
  noteHopLimitDefault(ctx, metadataOptions, at("metadataOptions"));
  const userData = inline ? undefined : f.str("userData");
  noteUserData(ctx, userData, family, at("userData"));

  return defined({
    role,
    instanceProfile: role === undefined ? instanceProfile : undefined,
    ...ami,
    subnetSelectorTerms,
    securityGroupSelectorTerms,
    blockDeviceMappings: ubuntuRootVolume(
      ctx,
      family,
      readBlockDevices(ctx, f, "blockDeviceMappings", "v1alpha1"),
      at("blockDeviceMappings"),
    ),
    context: f.str("context"),
    detailedMonitoring: inline ? undefined : f.bool("detailedMonitoring"),
    metadataOptions,
    tags: f.strMap("tags"),
    userData,
  });
}

/**
 * Ubuntu AMIs boot from /dev/sda1, AL2 from /dev/xvda: converted to AL2, an Ubuntu class without
 * block devices gets Ubuntu's default root volume, as the upstream v1 conversion does.
 */
export function ubuntuRootVolume(
  ctx: ObjectContext,
  family: string,
  bdms: BlockDeviceMapping[] | undefined,
  at: Path,
): BlockDeviceMapping[] | undefined {
  if (family !== "Ubuntu" || bdms !== undefined) return bdms;
  ctx.note(
    "info",
    at,
    "amiFamily Ubuntu: added Ubuntu's default root volume (/dev/sda1, 20Gi gp3, encrypted), which AL2 would not create",
  );
  return [
    { deviceName: "/dev/sda1", rootVolume: true, ebs: { encrypted: true, volumeSize: "20Gi", volumeType: "gp3" } },
  ];
}
