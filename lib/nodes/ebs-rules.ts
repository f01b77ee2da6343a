import { eksAmiFacts } from "../versions/eks-ami";
import { BOTTLEROCKET_OS_SNAPSHOT } from "../versions/bottlerocket-ami";
import { lookupTable } from "../core/lookup";
import type { Checker } from "../kubernetes/value-rules";
import { isSet, isToken } from "../kubernetes/value-rules";

/*
 * EC2's fixed numbers for an EBS volume's size, IOPS and throughput, for the literal values of an
 * EC2NodeClass block device mapping: Karpenter copies them into the launch template unchanged, so a
 * value outside them fails every launch with the class (the API server and the CRD take any integer).
 *
 * Upstream, each number where it is documented:
 * - Amazon EC2 API Reference, EbsBlockDevice (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_EbsBlockDevice.html):
 *   Iops "gp3: 3,000 - 16,000 IOPS; io1: 100 - 64,000 IOPS; io2: 100 - 256,000 IOPS … This parameter is
 *   required for io1 and io2 volumes"; Throughput "valid only for gp3 volumes … 125 - 1,000 MiB/s";
 *   VolumeSize "gp2 and gp3: 1 - 16,384 GiB; io1: 4 - 16,384 GiB; io2: 4 - 65,536 GiB; st1 and sc1:
 *   125 - 16,384 GiB; standard: 1 - 1024 GiB" (the same text in the SDKs' EbsBlockDevice documentation).
 * - Amazon EBS User Guide, Provisioned IOPS SSD volumes (https://docs.aws.amazon.com/ebs/latest/userguide/provisioned-iops.html):
 *   io1 "The maximum ratio of provisioned IOPS to requested volume size (in GiB) is 50:1"; io2 Block
 *   Express "up to 256,000 IOPS, with an IOPS:GiB ratio of 1,000:1", and "As of April 30, 2025, all new
 *   and previously created io2 volumes are io2 Block Express volumes".
 * - Amazon EBS User Guide, General Purpose SSD volumes, gp3 performance
 *   (https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html#gp3-performance): a baseline of
 *   3,000 IOPS and 125 MiB/s at any size; additional IOPS "at a ratio of 500 IOPS per GiB of volume size",
 *   additional throughput "at a ratio of 0.25 MiB/s per provisioned IOPS".
 *
 * What is checked: the floors; the io1 / io2 IOPS ceilings; the IOPS-per-GiB ratios of io1 (50), io2
 * (1,000, Block Express: every io2 volume since April 2025; the 500:1 of the older io2 is not applied,
 * and in the China regions, where the guide says Block Express is not offered, EC2 judges) and gp3 (500,
 * never below its 3,000 IOPS baseline); gp3's 0.25 MiB/s per IOPS (of `iops`, or the 3,000 baseline when
 * unset, never below the 125 MiB/s baseline); the size floors of io1 / io2 (4 GiB) and st1 / sc1
 * (125 GiB); the size ceilings of standard (1,024 GiB), gp2, io1, st1 and sc1 (16,384 GiB), the types whose
 * successors (gp3, io2) get the larger volumes. Not checked, because a newer generation of a volume type raises them:
 * gp3's IOPS and throughput ceilings (80,000 and 2,000 MiB/s since 2025, up from 16,000 and 1,000: warned above them) and the
 * other size ceilings (gp3 and io2 reached 64 TiB while the reference still said 16,384 GiB for gp3; the
 * CRD's pattern caps the size at 64T anyway).
 *
 * The size is the one Karpenter writes into the launch template: the quantity in GiB rounded up
 * (aws/karpenter-provider-aws pkg/providers/launchtemplate/launchtemplate.go, volumeSize:
 * `math.Ceil(quantity.AsApproximateFloat64() / math.Pow(2, 30))`, the same in every v1 release), so
 * "130G" is a 122 GiB volume. A volume given only by `snapshotID` has the snapshot's size, not known
 * here: its ratios and floors are EC2's to judge.
 *
 * A root volume smaller than the AMI's root snapshot is checked for the al2023@ aliases only: amazon-eks-ami builds
 * every AL2023 AMI with the same root snapshot size (lib/versions eks-ami-facts, generated from its build variables).
 * AL2's was lowered once (CHANGELOG #1143), Bottlerocket's variants differ and a custom AMI is anyone's, so those are
 * left to EC2.
 */

/** EC2's IOPS per volume type: floor and ceiling (EbsBlockDevice, Iops), and IOPS per GiB (EBS User Guide). */
const IOPS: {
  readonly [type: string]: {
    readonly min: number;
    readonly max?: number;
    readonly perGiB: number;
    readonly required: boolean;
  };
} = {
  gp3: { min: 3000, perGiB: 500, required: false },
  io1: { min: 100, max: 64000, perGiB: 50, required: true },
  io2: { min: 100, max: 256000, perGiB: 1000, required: true },
};

/** gp3's baseline: the IOPS and MiB/s every gp3 volume has at any size (EBS User Guide, gp3 performance). */
const GP3_BASELINE_IOPS = 3000;
const GP3_BASELINE_THROUGHPUT = 125;
/** gp3's ceilings as EC2 documents them (raised in 2025 from 16,000 and 1,000): warned above, not refused. */
const GP3_MAX_IOPS = 80000;
const GP3_MAX_THROUGHPUT = 2000;
const GP3_CEILING_SOURCE =
  'Amazon EC2 API Reference, EbsBlockDevice: Iops "gp3: 3,000 - 80,000 IOPS", Throughput "a maximum of 2,000 MiB/s"; github.com/aws/aws-sdk-go-v2/service/ec2 v1.336.1 types/types.go:14428, :14449';
/** gp3's provisioned throughput per provisioned IOPS, in MiB/s (EBS User Guide, gp3 performance). */
const GP3_THROUGHPUT_PER_IOPS = 0.25;

/** The smallest volume EC2 creates per volume type, in GiB, where it is above the CRD's 1 (EbsBlockDevice, VolumeSize). */
const MIN_GIB: { readonly [type: string]: number } = lookupTable({ io1: 4, io2: 4, st1: 125, sc1: 125 });

/**
 * The largest volume EC2 creates for the types whose limit does not move (EbsBlockDevice, VolumeSize): magnetic
 * `standard` is a previous generation, and the larger volumes go to gp3 / io2, not gp2, io1 or the HDD types.
 */
const MAX_GIB: { readonly [type: string]: number } = lookupTable({
  standard: 1024,
  gp2: 16384,
  io1: 16384,
  st1: 16384,
  sc1: 16384,
});
/** The VolumeSize text of EbsBlockDevice each ceiling comes from. */
const MAX_GIB_TEXT: { readonly [type: string]: string } = lookupTable({
  standard: "standard: 1 - 1024 GiB",
  gp2: "gp2 and gp3: 1 - 16,384 GiB",
  io1: "io1: 4 - 16,384 GiB",
  st1: "st1 and sc1: 125 - 16,384 GiB",
  sc1: "st1 and sc1: 125 - 16,384 GiB",
});

const SOURCE = "Amazon EC2 API Reference, EbsBlockDevice";
const IO_GUIDE = "Amazon EBS User Guide, Provisioned IOPS SSD volumes";
const GP3_GUIDE = "Amazon EBS User Guide, General Purpose SSD volumes";

/** A whole number the other rules let through (a bad type or a negative number is theirs to report). */
const count = (c: Checker, v: unknown): v is number =>
  c.known(v) && typeof v === "number" && Number.isInteger(v) && v >= 0;

/** 1,000-style digits. */
const n = (x: number) => x.toLocaleString("en-US");

/**
 * The size Karpenter gives EC2 for a literal `volumeSize` (Gi, G, Ti or T), in GiB rounded up
 * (launchtemplate.go volumeSize); undefined for a token or anything the CRD pattern refuses.
 */
export function volumeGiB(volumeSize: unknown): number | undefined {
  if (typeof volumeSize !== "string" || isToken(volumeSize)) return undefined;
  const m = /^([1-9][0-9]*)(Gi|G|Ti|T)$/.exec(volumeSize);
  if (!m) return undefined;
  const bytes = Number(m[1]) * { Gi: 2 ** 30, G: 1e9, Ti: 2 ** 40, T: 1e12 }[m[2] as "Gi" | "G" | "Ti" | "T"];
  return Math.ceil(bytes / 2 ** 30);
}

/** How a size reads in a message: `"130G" (122 GiB as Karpenter rounds it)` or `100 GiB`. */
const sizeText = (volumeSize: string, gib: number) =>
  volumeSize.endsWith("Gi") ? `${n(gib)} GiB` : `"${volumeSize}" (${n(gib)} GiB, as Karpenter rounds it up)`;

/**
 * The size, IOPS and throughput of one literal EBS volume against EC2's fixed numbers.
 * @param at the field of the `ebs` object, e.g. `blockDeviceMappings[0].ebs`
 * @param type the volume type when known and valid
 */
export function checkEbsLimits(
  c: Checker,
  at: string,
  ebs: { readonly iops?: number; readonly throughput?: number; readonly volumeSize?: string },
  type: string | undefined,
): void {
  if (type === undefined) return;
  const gib = volumeGiB(ebs.volumeSize);
  c.guard(() => {
    const min = MIN_GIB[type];
    if (min === undefined || gib === undefined || gib >= min) return;
    c.fail(
      "EC2NODECLASS_EBS_VOLUME_SIZE",
      `${at}.volumeSize`,
      ebs.volumeSize,
      `at least ${n(min)} GiB ("${min}Gi"): EC2's limits for volumeType "${type}" (${SOURCE}: VolumeSize "${type === "st1" || type === "sc1" ? "st1 and sc1: 125" : `${type}: 4`} - …"), and this is ${sizeText(ebs.volumeSize!, gib)}, so every launch with this class fails`,
    );
  });
  c.guard(() => {
    const max = MAX_GIB[type];
    if (max === undefined || gib === undefined || gib <= max) return;
    c.fail(
      "EC2NODECLASS_EBS_VOLUME_SIZE",
      `${at}.volumeSize`,
      ebs.volumeSize,
      `at most ${n(max)} GiB ("${max}Gi"): EC2's limits for volumeType "${type}" (${SOURCE}: VolumeSize "${MAX_GIB_TEXT[type]}"), and this is ${sizeText(ebs.volumeSize!, gib)}, so every launch with this class fails; ${type === "io1" ? "io2 takes larger volumes" : type === "st1" || type === "sc1" ? "use more volumes" : "gp3 takes larger volumes"}`,
    );
  });
  const rule = IOPS[type];
  if (!rule) return;
  let iopsInRange = false;
  c.guard(() => {
    if (rule.required && !isSet(ebs.iops)) {
      c.fail(
        "EC2NODECLASS_EBS_IOPS",
        `${at}.iops`,
        ebs.iops,
        `the volume's provisioned IOPS, ${rule.min}–${rule.max}: EC2's limits for volumeType "${type}" require iops (${SOURCE}: Iops "is required for io1 and io2 volumes"), so every launch with this class fails without it`,
      );
    }
    if (!count(c, ebs.iops)) return;
    if (ebs.iops < rule.min || (rule.max !== undefined && ebs.iops > rule.max)) {
      const range = rule.max !== undefined ? `${rule.min}–${rule.max}` : `at least ${rule.min}`;
      c.fail(
        "EC2NODECLASS_EBS_IOPS",
        `${at}.iops`,
        ebs.iops,
        `${range} IOPS: EC2's limits for volumeType "${type}" (${SOURCE}: Iops), so every launch with this class fails${type === "gp3" ? " (gp3 gives 3,000 IOPS without iops: leave it unset for the baseline)" : ""}`,
      );
    }
    iopsInRange = true;
    if (gib === undefined) return;
    // gp3 keeps its 3,000 IOPS baseline at any size; the ratio limits what is provisioned beyond it
    const max = Math.max(gib * rule.perGiB, type === "gp3" ? GP3_BASELINE_IOPS : 0);
    if (ebs.iops > max)
      c.fail(
        "EC2NODECLASS_EBS_IOPS",
        `${at}.iops`,
        ebs.iops,
        `at most ${n(max)} IOPS on a volume of ${sizeText(ebs.volumeSize!, gib)}: EC2's limits for volumeType "${type}" allow ${n(rule.perGiB)} IOPS per GiB${type === "gp3" ? ` beyond the ${n(GP3_BASELINE_IOPS)} baseline (${GP3_GUIDE})` : ` (${IO_GUIDE}${type === "io2" ? ": io2 Block Express, every io2 volume since April 2025" : ""})`}, so every launch with this class fails. Make volumeSize at least ${Math.ceil(ebs.iops / rule.perGiB)}Gi, or lower iops`,
      );
  });
  c.guard(() => {
    if (type !== "gp3" || !count(c, ebs.throughput)) return;
    if (ebs.throughput < GP3_BASELINE_THROUGHPUT)
      c.fail(
        "EC2NODECLASS_EBS_THROUGHPUT",
        `${at}.throughput`,
        ebs.throughput,
        `at least ${GP3_BASELINE_THROUGHPUT} MiB/s: EC2's limits for volumeType "gp3" (${SOURCE}: Throughput), so every launch with this class fails (gp3 gives 125 MiB/s without throughput: leave it unset for the baseline)`,
      );
    // an iops outside gp3's range is reported on its own; the ratio is judged against a valid one
    if (isSet(ebs.iops) && !iopsInRange) return;
    const iops = isSet(ebs.iops) ? ebs.iops : GP3_BASELINE_IOPS;
    const max = Math.max(iops * GP3_THROUGHPUT_PER_IOPS, GP3_BASELINE_THROUGHPUT);
    if (ebs.throughput > max)
      c.fail(
        "EC2NODECLASS_EBS_THROUGHPUT",
        `${at}.throughput`,
        ebs.throughput,
        `at most ${n(max)} MiB/s with ${n(iops)} IOPS${isSet(ebs.iops) ? "" : " (gp3's baseline: iops is unset)"}: EC2's limits for volumeType "gp3" allow ${GP3_THROUGHPUT_PER_IOPS} MiB/s per provisioned IOPS (${GP3_GUIDE}), so every launch with this class fails. Set iops to at least ${n(Math.ceil(ebs.throughput / GP3_THROUGHPUT_PER_IOPS))}, or lower throughput`,
      );
  });
}

/**
 * The warning for `iops` or `throughput` on a volume without `volumeType`. Karpenter passes no volume
 * type then (launchtemplate.go blockDeviceMappings: `ec2types.VolumeType(aws.ToString(nil))` is empty and
 * left out of the request), so EC2 picks it: the AMI's own mapping for that device name, else EC2's
 * default, gp2 (EC2 API Reference, CreateVolume VolumeType "Default: gp2"), which takes neither (Iops "is
 * not supported for gp2, st1, sc1, or standard volumes"; Throughput "valid only for gp3 volumes"). Which
 * one applies depends on the AMI the class resolves at runtime, so this is a warning, not an error.
 * @returns one line per such volume, empty when none
 */
export function ebsTypeWarnings(name: string, blockDeviceMappings: unknown): string[] {
  if (!Array.isArray(blockDeviceMappings) || isToken(blockDeviceMappings)) return [];
  const out: string[] = [];
  blockDeviceMappings.forEach((m, i) => {
    const ebs = m && typeof m === "object" && !isToken(m) ? (m as { ebs?: unknown }).ebs : undefined;
    if (!ebs || typeof ebs !== "object" || isToken(ebs)) return;
    const e = ebs as { iops?: unknown; throughput?: unknown; volumeType?: unknown };
    // gp3's ceilings as EC2 documents them today: a newer generation may raise them again (see the top of the file)
    if (e.volumeType === "gp3")
      for (const [f, max, unit] of [
        ["iops", GP3_MAX_IOPS, "IOPS"],
        ["throughput", GP3_MAX_THROUGHPUT, "MiB/s"],
      ] as const) {
        const x = e[f];
        if (typeof x === "number" && !isToken(x) && x > max)
          out.push(
            `EC2NodeClass ${name}: blockDeviceMappings[${i}].ebs.${f} = ${x} is above gp3's ${n(max)} ${unit}, the most EC2 documents (${GP3_CEILING_SOURCE}): unless your account and Region allow more, EC2 refuses the volume and every launch with this class fails. Use ${n(max)} or less, or volumeType "io2" for more IOPS`,
          );
      }
    if (isSet(e.volumeType)) return;
    const fields = (["iops", "throughput"] as const).filter((f) => isSet(e[f]));
    if (fields.length === 0) return;
    out.push(
      `EC2NodeClass ${name}: blockDeviceMappings[${i}].ebs sets ${fields.join(" and ")} without volumeType. Karpenter passes no volume type to EC2 then (launchtemplate.go), so EC2 uses the AMI's volume type for that device, or its default gp2 for a device the AMI does not map; gp2 takes no ${fields.join(" or ")} (EC2 API Reference, EbsBlockDevice) and every launch fails. Set volumeType: "gp3" (or "io1" / "io2" for iops) to say which`,
    );
  });
  return out;
}

/**
 * The device each AMI family keeps the kubelet's root directory on, the one Karpenter sizes a node's
 * ephemeral-storage by when no mapping says rootVolume (karpenter-provider-aws v1.15.0 pkg/providers/amifamily:
 * al2.go:115-116, al2023.go:116-117, bottlerocket.go:201-202, windows.go:97-98, EphemeralBlockDevice).
 */
const EPHEMERAL_DEVICE: { readonly [family: string]: string } = lookupTable({
  AL2: "/dev/xvda",
  AL2023: "/dev/xvda",
  Bottlerocket: "/dev/xvdb",
  Windows2019: "/dev/sda1",
  Windows2022: "/dev/sda1",
  Windows2025: "/dev/sda1",
});

/**
 * A Bottlerocket OS volume (/dev/xvda, under a bottlerocket@ alias) below Karpenter's own size: the NVIDIA variants,
 * which the alias selects for NVIDIA GPU instance types, have a 4 GiB OS snapshot, and newer releases may be larger
 * than the 2 GiB the others had (lib/versions/bottlerocket-ami.ts). Which AMI a launch gets is decided outside the app,
 * so a warning; below every variant's size is refused (checkBlockDeviceSemantics).
 */
export function bottlerocketOsVolumeWarnings(
  name: string,
  bottlerocketAlias: boolean,
  blockDeviceMappings: unknown,
): string[] {
  if (!bottlerocketAlias || !Array.isArray(blockDeviceMappings) || isToken(blockDeviceMappings)) return [];
  const os = BOTTLEROCKET_OS_SNAPSHOT;
  const out: string[] = [];
  blockDeviceMappings.forEach((m, i) => {
    if (!m || typeof m !== "object" || isToken(m)) return;
    const { deviceName, ebs } = m as { deviceName?: unknown; ebs?: { volumeSize?: unknown; snapshotID?: unknown } };
    if (deviceName !== BOOT_DEVICE.Bottlerocket || !ebs || typeof ebs !== "object" || isSet(ebs.snapshotID)) return;
    const gib = volumeGiB(ebs.volumeSize);
    if (gib === undefined || gib < os.minimumGiB || gib >= os.karpenterDefaultGiB) return;
    const gpu =
      gib < os.nvidiaGiB
        ? `the NVIDIA variants, which the alias selects for NVIDIA GPU instance types, have a ${os.nvidiaGiB} GiB OS snapshot (${os.nvidiaSource}), so every GPU launch of this class fails (InvalidBlockDeviceMapping: "Volume of size ${gib}GB is smaller than snapshot"); and `
        : "";
    out.push(
      `EC2NodeClass ${name}: blockDeviceMappings[${i}].ebs.volumeSize = ${JSON.stringify(ebs.volumeSize)} for ${BOOT_DEVICE.Bottlerocket}, Bottlerocket's OS volume, is below Karpenter's own ${os.karpenterDefault}: ${gpu}Karpenter sizes it ${os.karpenterDefault} because the root volume must be at least as large as the AMI's root snapshot (${os.karpenterSource}), which newer Bottlerocket releases may have grown; EC2 refuses a launch whose volume is smaller. Use "${os.karpenterDefault}", or leave /dev/xvda out to get Karpenter's`,
    );
  });
  return out;
}

/**
 * A warning for `rootVolume: true` on a device other than the one the family's AMIs keep the kubelet's root directory
 * on: Karpenter takes that mapping's size as every node's ephemeral-storage (karpenter-provider-aws v1.15.0
 * pkg/providers/instancetype/types.go:536-542), but neither Karpenter nor the AMI mounts the volume there (the CRD:
 * "a flag indicating if this device is mounted as kubelet root dir"), so pods are scheduled against storage the
 * kubelet does not have and are evicted under disk pressure. A warning: an AMI or user data of your own may mount it.
 * And a device name written without `/dev/` that is the family's kubelet or root device with it (`xvda`).
 */
export function rootVolumeWarnings(name: string, family: string | undefined, blockDeviceMappings: unknown): string[] {
  const device = family === undefined ? undefined : EPHEMERAL_DEVICE[family];
  if (device === undefined || !Array.isArray(blockDeviceMappings) || isToken(blockDeviceMappings)) return [];
  const out: string[] = [];
  blockDeviceMappings.forEach((m, i) => {
    if (!m || typeof m !== "object" || isToken(m)) return;
    const { rootVolume, deviceName } = m as { rootVolume?: unknown; deviceName?: unknown };
    if (typeof deviceName !== "string" || isToken(deviceName)) return;
    // "xvda" for "/dev/xvda": Karpenter finds the family's devices by the exact name (types.go:550-553), so it sizes
    // ephemeral-storage without this mapping, and the AMI's root device is "/dev/…"
    const meant = `/dev/${deviceName}`;
    if (!deviceName.startsWith("/") && (meant === device || meant === BOOT_DEVICE[family!]))
      out.push(
        `EC2NodeClass ${name}: blockDeviceMappings[${i}].deviceName is ${JSON.stringify(deviceName)}; did you mean ${JSON.stringify(meant)}? ${family} AMIs' ${meant === BOOT_DEVICE[family!] ? "root" : "data"} device is ${meant}${meant === device ? ", by which Karpenter sizes each node's ephemeral-storage, matching the name exactly (karpenter-provider-aws v1.15.0 pkg/providers/instancetype/types.go:547-562), so this mapping's size is not counted" : ""}; whether EC2 applies a mapping named ${JSON.stringify(deviceName)} to the AMI's ${meant} is not documented. Write ${JSON.stringify(meant)}`,
      );
    if (rootVolume !== true || deviceName === device) return;
    out.push(
      `EC2NodeClass ${name}: blockDeviceMappings[${i}] marks ${deviceName} as rootVolume, but ${family} AMIs keep the kubelet's root directory on ${device} and nothing mounts ${deviceName} there: Karpenter takes its size as each node's ephemeral-storage (karpenter-provider-aws v1.15.0 pkg/providers/instancetype/types.go:536-542) while the kubelet has ${device}'s, so pods are scheduled against storage the node does not have. Mark the ${device} mapping as rootVolume (size it there), unless your AMI or user data mounts ${deviceName} as the kubelet's root directory`,
    );
  });
  return out;
}

/**
 * A customer managed KMS key for a volume that is not marked encrypted. Karpenter copies `kmsKeyID` and
 * `encrypted` into the launch template as written (aws/karpenter-provider-aws pkg/providers/launchtemplate,
 * blockDeviceMappings), and EC2 refuses the launch: "InvalidParameterDependency: The parameter KmsKeyId requires
 * the parameter Encrypted to be set" (EC2 API Reference, EbsBlockDevice: KmsKeyId is the key "to use for EBS
 * encryption"; CreateVolume / ModifyEbsDefaultKmsKeyId: "If KmsKeyId is specified, the encrypted state must be
 * true"). Only a literal `encrypted` is judged; a `kmsKeyID` reference counts as set (it names a key, never nothing).
 * @param at the field of the `ebs` object, e.g. `blockDeviceMappings[0].ebs`
 */
export function checkEbsKmsKey(
  c: Checker,
  at: string,
  ebs: { readonly encrypted?: boolean; readonly kmsKeyID?: string },
): void {
  const key = ebs.kmsKeyID;
  if (typeof key !== "string" || (!isToken(key) && key.trim() === "")) return;
  if (ebs.encrypted === true || isToken(ebs.encrypted) || (isSet(ebs.encrypted) && typeof ebs.encrypted !== "boolean"))
    return;
  c.fail(
    "EC2NODECLASS_EBS_KMS_KEY_UNENCRYPTED",
    `${at}.encrypted`,
    ebs.encrypted,
    `true when kmsKeyID is set: EC2 refuses a KMS key for a volume not marked encrypted ("The parameter KmsKeyId requires the parameter Encrypted to be set", EC2 API Reference, EbsBlockDevice / CreateVolume: "If KmsKeyId is specified, the encrypted state must be true"), so every launch with this class fails. Set encrypted: true, or leave kmsKeyID unset to use the account's default EBS key`,
  );
}

/**
 * The device each AMI family's EKS-optimized AMIs boot from (their root device name): AL2, AL2023 and Bottlerocket's
 * OS volume is /dev/xvda (Bottlerocket's data volume /dev/xvdb), Windows' /dev/sda1 (Karpenter's default block
 * device mappings per family, aws/karpenter-provider-aws pkg/providers/amifamily). Custom AMIs: not known.
 */
const BOOT_DEVICE: { readonly [family: string]: string } = lookupTable({
  AL2: "/dev/xvda",
  AL2023: "/dev/xvda",
  Bottlerocket: "/dev/xvda",
  Windows2019: "/dev/sda1",
  Windows2022: "/dev/sda1",
  Windows2025: "/dev/sda1",
});

/** EBS volume types that cannot boot an instance (EBS User Guide, "Throughput Optimized HDD and Cold HDD volumes": Boot volume "Not supported"). */
const HDD_VOLUME_TYPES = ["st1", "sc1"];

/** A well-formed EBS snapshot ID: `snap-` and 8 (older) or 17 lower-case hex digits (EC2 resource IDs). */
const SNAPSHOT_ID = /^snap-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;

/**
 * What EC2 refuses in a class's block device mappings beyond the CRD (each a guarded check of `c`, on literal
 * values): a device name used twice (InvalidBlockDeviceMapping), a malformed `snapshotID`
 * (InvalidSnapshotID.Malformed), and an HDD volume type (st1, sc1) on the device the AMI family boots from (HDD
 * volumes cannot be boot volumes). Every launch with such a class fails; the API server accepts it.
 * @param family the class's AMI family (amiFamily, or its alias's), undefined when unknown or Custom
 */
/** A KMS key ID: a UUID, or a multi-Region key's "mrk-" and 32 hex digits (AWS KMS Developer Guide, "Key identifiers"). */
const KMS_KEY_ID = "(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|mrk-[0-9a-f]{32})";
/** An alias name: "alias/" and letters, digits, "/", "_", "-" (AWS KMS Developer Guide, CreateAlias AliasName). */
const KMS_ALIAS = "alias/[a-zA-Z0-9/_-]+";
const KMS_KEY_FORMS = new RegExp(
  `^(?:${KMS_KEY_ID}|${KMS_ALIAS}|arn:aws[a-z-]*:kms:([a-z0-9-]+):\\d{12}:(?:key/${KMS_KEY_ID}|${KMS_ALIAS}))$`,
);

/**
 * An EBS `kmsKeyID` in one of the four forms EC2 takes, and, as an ARN, of the cluster's region. EC2 API Reference,
 * EbsBlockDevice / LaunchTemplateEbsBlockDeviceRequest KmsKeyId: "Identifier (key ID, key alias, key ARN, or alias
 * ARN)" (the CRD's description says the same); CreateVolume KmsKeyId: "Amazon Web Services authenticates the KMS key
 * asynchronously. Therefore, if you specify an ID, alias, or ARN that is not valid, the action can appear to
 * complete, but eventually fails": the instance launches and is terminated. A KMS key belongs to one Region (its
 * ARN names it), and a volume takes a key of its own Region.
 */
function checkEbsKmsKeyForm(c: Checker, at: string, key: unknown, region: string | undefined): void {
  if (typeof key !== "string" || key === "" || !c.known(key)) return;
  const m = KMS_KEY_FORMS.exec(key);
  if (!m) {
    c.fail(
      "EC2NODECLASS_EBS_KMS_KEY_ID",
      `${at}.kmsKeyID`,
      key,
      `a KMS key as EC2 names one: a key ID ("1234abcd-12ab-34cd-56ef-1234567890ab", "mrk-…"), an alias ("alias/ebs-nodes"), a key ARN or an alias ARN (EC2 API Reference, EbsBlockDevice KmsKeyId); EC2 checks the key only after the launch (CreateVolume: "if you specify an ID, alias, or ARN that is not valid, the action can appear to complete, but eventually fails"), so every node of this class is terminated as it starts${/^[a-zA-Z0-9_-]+$/.test(key) ? `. An alias is written with its prefix: "alias/${key}"` : ""}`,
    );
  }
  const keyRegion = m?.[1];
  if (keyRegion !== undefined && region !== undefined && keyRegion !== region) {
    c.fail(
      "EC2NODECLASS_EBS_KMS_KEY_REGION",
      `${at}.kmsKeyID`,
      key,
      `a KMS key of the cluster's region ${region}: this ARN names a key in ${keyRegion}, and a KMS key belongs to one Region (AWS KMS Developer Guide, "Key identifiers"), so EBS cannot use it for a volume in ${region} and every node of this class is terminated as it starts. Use a key (or a multi-Region replica) in ${region}`,
    );
  }
}

export function checkBlockDeviceSemantics(
  c: Checker,
  family: string | undefined,
  bdms: unknown,
  region?: string,
  aliasFamily?: "AL2023" | "Bottlerocket",
): void {
  if (!Array.isArray(bdms) || isToken(bdms)) return;
  const seen = new Map<string, number>();
  bdms.forEach((m: unknown, i) => {
    if (m === null || typeof m !== "object" || Array.isArray(m) || isToken(m)) return;
    const at = `blockDeviceMappings[${i}]`;
    const { deviceName, ebs } = m as { deviceName?: unknown; ebs?: unknown };
    c.guard(() => {
      if (typeof deviceName !== "string" || !c.known(deviceName)) return;
      const first = seen.get(deviceName);
      if (first === undefined) {
        seen.set(deviceName, i);
        return;
      }
      c.fail(
        "EC2NODECLASS_DEVICE_NAME_TWICE",
        `${at}.deviceName`,
        deviceName,
        `a device name no other mapping uses: blockDeviceMappings[${first}] already maps "${deviceName}", and EC2 refuses a launch template with one device name in two mappings (InvalidBlockDeviceMapping), so every launch with this class fails. Merge the two mappings`,
      );
    });
    if (ebs === null || typeof ebs !== "object" || Array.isArray(ebs) || isToken(ebs)) return;
    const { snapshotID, volumeType, kmsKeyID } = ebs as {
      snapshotID?: unknown;
      volumeType?: unknown;
      kmsKeyID?: unknown;
    };
    c.guard(() => checkEbsKmsKeyForm(c, `${at}.ebs`, kmsKeyID, region));
    c.guard(() => {
      if (typeof snapshotID !== "string" || snapshotID === "" || !c.known(snapshotID) || SNAPSHOT_ID.test(snapshotID))
        return;
      c.fail(
        "EC2NODECLASS_EBS_SNAPSHOT_ID",
        `${at}.ebs.snapshotID`,
        snapshotID,
        `an EBS snapshot ID: "snap-" and 8 or 17 lower-case hexadecimal digits, e.g. "snap-0123456789abcdef0": EC2 refuses any other (InvalidSnapshotID.Malformed), so every launch with this class fails`,
      );
    });
    c.guard(() => {
      // an al2023@ alias resolves to an EKS AL2023 AMI, whose root volume is built from a snapshot of a fixed size
      if (aliasFamily !== "AL2023" || family !== "AL2023" || deviceName !== BOOT_DEVICE.AL2023 || isSet(snapshotID))
        return;
      const size = (ebs as { volumeSize?: unknown }).volumeSize;
      const gib = volumeGiB(size);
      const root = eksAmiFacts().al2023RootVolumeGiB;
      if (gib === undefined || gib >= root.value) return;
      c.fail(
        "EC2NODECLASS_EBS_VOLUME_SIZE",
        `${at}.ebs.volumeSize`,
        size,
        `at least ${root.value} GiB ("${root.value}Gi") for ${BOOT_DEVICE.AL2023}, the root volume of the EKS AL2023 AMIs the al2023@ alias selects: they are built with a ${root.value} GiB root snapshot (${eksAmiFacts().repository.replace("github.com/", "")}@${eksAmiFacts().commit.slice(0, 8)} ${root.file}), and EC2 refuses a volume smaller than its snapshot (InvalidBlockDeviceMapping: "Volume of size ${gib}GB is smaller than snapshot …"), so every launch with this class fails. This is ${sizeText(size as string, gib)}`,
      );
    });
    c.guard(() => {
      // every Bottlerocket AMI's OS volume comes from a snapshot of at least buildsys' default size
      if (aliasFamily !== "Bottlerocket" || family !== "Bottlerocket" || deviceName !== BOOT_DEVICE.Bottlerocket)
        return;
      if (isSet(snapshotID)) return;
      const size = (ebs as { volumeSize?: unknown }).volumeSize;
      const gib = volumeGiB(size);
      const os = BOTTLEROCKET_OS_SNAPSHOT;
      if (gib === undefined || gib >= os.minimumGiB) return;
      c.fail(
        "EC2NODECLASS_EBS_VOLUME_SIZE",
        `${at}.ebs.volumeSize`,
        size,
        `at least ${os.minimumGiB} GiB ("${os.minimumGiB}Gi"; Karpenter's own is ${os.karpenterDefault}, ${os.karpenterSource}) for ${BOOT_DEVICE.Bottlerocket}, the OS volume of the EKS Bottlerocket AMIs the bottlerocket@ alias selects: every one is built with an OS image of at least ${os.minimumGiB} GiB (${os.minimumSource}; the NVIDIA variants ${os.nvidiaGiB} GiB), and EC2 refuses a volume smaller than its snapshot (InvalidBlockDeviceMapping: "Volume of size ${gib}GB is smaller than snapshot …"), so every launch with this class fails. This is ${sizeText(size as string, gib)}`,
      );
    });
    c.guard(() => {
      const boot = family === undefined ? undefined : BOOT_DEVICE[family];
      if (boot === undefined || deviceName !== boot) return;
      if (typeof volumeType !== "string" || !HDD_VOLUME_TYPES.includes(volumeType)) return;
      c.fail(
        "EC2NODECLASS_EBS_HDD_BOOT_VOLUME",
        `${at}.ebs.volumeType`,
        volumeType,
        `an SSD volume type (gp3, gp2, io1, io2) for ${boot}, the device ${family} AMIs boot from: ${volumeType} (HDD) volumes cannot be boot volumes (Amazon EBS User Guide, "Throughput Optimized HDD and Cold HDD volumes": Boot volume "Not supported"), so every launch with this class fails. Put the ${volumeType} volume on another device, e.g. ${boot === "/dev/sda1" ? "xvdf" : "/dev/xvdf"}`,
      );
    });
  });
}
