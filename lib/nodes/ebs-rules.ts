import type { Checker } from "../kubernetes/value-rules";
import { isSet } from "../kubernetes/value-rules";

/*
 * EC2's fixed numbers for an EBS volume's IOPS and throughput, for the literal values of an
 * EC2NodeClass block device mapping: Karpenter copies them into the launch template unchanged, so a
 * value outside them fails every launch with the class (the API server and the CRD take any integer).
 *
 * Upstream: Amazon EC2 API Reference, EbsBlockDevice (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_EbsBlockDevice.html):
 * Iops "gp3: 3,000 - 16,000 IOPS; io1: 100 - 64,000 IOPS; io2: 100 - 256,000 IOPS … This parameter is
 * required for io1 and io2 volumes"; Throughput "valid only for gp3 volumes … 125 - 1,000 MiB/s"
 * (the same text in the SDKs' EbsBlockDevice / ModifyVolume documentation).
 *
 * Only floors and the io1 / io2 ceilings are checked. Ceilings are what a newer generation of a volume
 * type raises: gp3's were raised in 2025 (80,000 IOPS, 2,000 MiB/s), so gp3's are left to EC2; io2 reached
 * 256,000 with Block Express. The IOPS-per-GiB and throughput-per-IOPS ratios are not checked here.
 */

/** The IOPS EC2 accepts per volume type (EbsBlockDevice, Iops); `max` only where checked (see above). */
const IOPS: { readonly [type: string]: { readonly min: number; readonly max?: number; readonly required: boolean } } = {
  gp3: { min: 3000, required: false },
  io1: { min: 100, max: 64000, required: true },
  io2: { min: 100, max: 256000, required: true },
};

/** gp3's throughput floor in MiB/s (EbsBlockDevice, Throughput; its ceiling rose from 1,000 to 2,000 in 2025). */
const GP3_MIN_THROUGHPUT = 125;

const SOURCE = "Amazon EC2 API Reference, EbsBlockDevice";

/** A whole number the other rules let through (a bad type or a negative number is theirs to report). */
const count = (c: Checker, v: unknown): v is number =>
  c.known(v) && typeof v === "number" && Number.isInteger(v) && v >= 0;

/**
 * The IOPS and throughput of one literal EBS volume against EC2's fixed numbers.
 * @param at the field of the `ebs` object, e.g. `blockDeviceMappings[0].ebs`
 * @param type the volume type when known and valid
 */
export function checkEbsLimits(
  c: Checker,
  at: string,
  ebs: { readonly iops?: number; readonly throughput?: number },
  type: string | undefined,
): void {
  const rule = type !== undefined ? IOPS[type] : undefined;
  if (!rule) return;
  c.guard(() => {
    if (rule.required && !isSet(ebs.iops)) {
      c.fail(
        `${at}.iops`,
        ebs.iops,
        `the volume's provisioned IOPS, ${rule.min}–${rule.max}: EC2's limits for volumeType "${type}" require iops (${SOURCE}: Iops "is required for io1 and io2 volumes"), so every launch with this class fails without it`,
      );
    }
    if (!count(c, ebs.iops)) return;
    if (ebs.iops < rule.min || (rule.max !== undefined && ebs.iops > rule.max)) {
      const range = rule.max !== undefined ? `${rule.min}–${rule.max}` : `at least ${rule.min}`;
      c.fail(
        `${at}.iops`,
        ebs.iops,
        `${range} IOPS: EC2's limits for volumeType "${type}" (${SOURCE}: Iops), so every launch with this class fails${type === "gp3" ? " (gp3 gives 3,000 IOPS without iops: leave it unset for the baseline)" : ""}`,
      );
    }
  });
  c.guard(() => {
    if (type === "gp3" && count(c, ebs.throughput) && ebs.throughput < GP3_MIN_THROUGHPUT) {
      c.fail(
        `${at}.throughput`,
        ebs.throughput,
        `at least ${GP3_MIN_THROUGHPUT} MiB/s: EC2's limits for volumeType "gp3" (${SOURCE}: Throughput), so every launch with this class fails (gp3 gives 125 MiB/s without throughput: leave it unset for the baseline)`,
      );
    }
  });
}
