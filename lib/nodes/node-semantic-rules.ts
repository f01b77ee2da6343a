import { lookupTable, ownValue } from "../core/lookup";
import type { AmiSelectorTerm, Ec2NodeClassOptions, KubeletConfiguration } from "./ec2-node-class-spec";
import type { NodePoolOptions, NodeSelectorRequirement } from "./node-pool-spec";
import { Checker, entry, impossibleDate, isDns1123Subdomain, isSet, isToken } from "../kubernetes/value-rules";
import { instanceProfileNameProblem, nodeClassRoleProblem } from "../aws-api/name-rules";
import type { ErrorCode } from "../core/error-codes";
import {
  CAPACITY_TYPES_SINCE,
  KNOWN_VALUE_LABELS,
  KNOWN_VALUES_SOURCE,
  minValuesKnownProblem,
  runtimeRestrictedLabelProblem,
  stableLabelKey,
} from "./runtime-label-rules";
import { restrictedLabelProblem } from "./node-pool-rules";
import { nodeFamily } from "./ec2-node-class-rules";
import { al2023AmiRelease, bottlerocketAlias, bottlerocketAmiRelease } from "./node-config-rules";
import { eksAmiFacts } from "../versions/eks-ami";
import { ALIAS_SOURCE, aliasReleaseMinorProblem, familyReleases } from "./ami-release-minors";
import { checkUserDataFormat, checkUserDataRoom } from "./user-data-rules";
import { checkBlockDeviceSemantics } from "./ebs-rules";
import { BYTE_RESOURCES, isKubeletIp } from "./kubelet-runtime-rules";
import { type NameConstraint, unsatisfiableName } from "./instance-name-rules";
import { NAME_KEYS, NAME_SOURCE } from "../versions/instance-type-names";

/*
 * Rules beyond the CRDs: values the API server accepts but Karpenter, EC2 or the kubelet cannot
 * use, so the object applies and the cluster gets no nodes. Each rule names its upstream source.
 * Version-independent: per-version facts stay in the version tables. Nothing here needs cdktf (the
 * manifest converter runs these rules too).
 */

/** What is known at synth about where the objects run; unknown (token) parts are undefined. */
export interface NodeContext {
  /** The cluster's Kubernetes version, e.g. `"1.33"`, when it is a literal. */
  readonly kubernetesVersion?: string;
  /** The cluster's AWS region, e.g. `"eu-west-1"`, when the provider names it literally. */
  readonly region?: string;
}

/**
 * The last Kubernetes minor for which EKS publishes optimized AMIs of a family (none listed: still
 * published). Amazon EKS stopped publishing EKS-optimized Amazon Linux 2 AMIs with Kubernetes 1.33
 * (Amazon EKS User Guide, "Amazon Linux 2 AMI deprecation": "Kubernetes version 1.32 is the last
 * version for which Amazon EKS will release AL2 AMIs"). The one place this fact lives: the NodeClass
 * rules and the manifest converter read it.
 */
export const LAST_KUBERNETES_MINOR_OF_AMI_FAMILY: { readonly [amiFamily: string]: number } = lookupTable({ AL2: 32 });

/** The label Karpenter puts the NodePool name in (`karpenter.sh/nodepool`), on every NodeClaim and node. */
const NODEPOOL_LABEL = "karpenter.sh/nodepool";
/** The label the AWS provider puts the EC2NodeClass name in (`karpenter.k8s.aws/ec2nodeclass`), on every NodeClaim and node. */
const NODECLASS_LABEL = "karpenter.k8s.aws/ec2nodeclass";
/** Label values are at most 63 characters (k8s.io/apimachinery `IsValidLabelValue`). */
const LABEL_VALUE_MAX = 63;

/**
 * The alias version each family accepts besides `latest` (aws/karpenter-provider-aws
 * pkg/providers/amifamily: al2023.go and al2.go build the SSM parameter
 * `…/amazon-eks-node-[al2023-<arch>-<variant>-]<k8s>-<version>` from the EKS AMI release `vYYYYMMDD`;
 * bottlerocket.go trims a leading `v` and reads `/aws/service/bottlerocket/aws-k8s-<k8s>/<arch>/<X.Y.Z>`;
 * windows families take `latest` only, a CRD rule). Karpenter docs, EC2NodeClass "amiSelectorTerms":
 * `al2023@v20260714`, `bottlerocket@v1.46.0`.
 */
const ALIAS_VERSIONS: { readonly [family: string]: { readonly re: RegExp; readonly text: string } } = lookupTable({
  al2: { re: /^v\d{8}$/, text: 'an EKS AMI release "vYYYYMMDD" such as "v20260714"' },
  al2023: { re: /^v\d{8}$/, text: 'an EKS AMI release "vYYYYMMDD" such as "v20260714"' },
  bottlerocket: { re: /^v?\d+\.\d+\.\d+$/, text: 'a Bottlerocket release "vX.Y.Z" such as "v1.46.0"' },
});

/**
 * A pinned alias of the family that the rules above accept, for suggestions (the converter's "pin a
 * version"): the newest EKS AMI release (`al2023@v20260714`), `bottlerocket@v1.46.0`; undefined for the Windows
 * families, whose alias takes `latest` only (pin those by AMI id). Both ship AMIs for current Kubernetes minors, so
 * the suggestion is no release lacking the cluster's minor (ami-release-minors.ts).
 */
export function pinnedAliasExample(aliasFamily: string): string | undefined {
  // a release with aws-k8s-1.33 (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bottlerocket.go:173,
  // "bottlerocket-aws-k8s-1.33-x86_64-v1.46.0-431fe75a"), newer than the release table of ami-release-minors.ts
  if (aliasFamily === "bottlerocket") return "bottlerocket@v1.46.0";
  // a release that exists: the newest of amazon-eks-ami's CHANGELOG (lib/versions eks-ami-facts)
  if (aliasFamily === "al2023") return `al2023@${eksAmiFacts().newestRelease}`;
  // AL2 AMIs ended before the newest release: the last release that shipped them
  if (aliasFamily === "al2") return `al2@${familyReleases("al2").slice(-1)[0]}`;
  return undefined;
}

/**
 * A warning for an `al2@` / `al2023@` alias pinned to a date that is no EKS AMI release: amazon-eks-ami's CHANGELOG
 * (lib/versions eks-ami-facts, every release up to its newest) names none of that date, so Karpenter finds no SSM
 * parameter for the alias and the class never becomes Ready. A warning, not an error: the list is the CHANGELOG's, and
 * a date after its newest release is not judged.
 */
export function aliasReleaseWarning(p: Ec2NodeClassOptions): string | undefined {
  const terms = Array.isArray(p.amiSelectorTerms) && !isToken(p.amiSelectorTerms) ? p.amiSelectorTerms : [];
  for (const t of terms) {
    const alias = isSet(t) && !isToken(t) ? t.alias : undefined;
    if (typeof alias !== "string" || isToken(alias)) continue;
    const m = /^(al2|al2023)@(v\d{8})$/.exec(alias);
    if (!m || impossibleDate(m[2].slice(1))) continue;
    const { releases, newestRelease, repository } = eksAmiFacts();
    const family = m[1] as "al2" | "al2023";
    // the suggestions: releases that shipped AMIs of this family
    const shipped = familyReleases(family);
    const newestOfFamily = shipped[shipped.length - 1] ?? newestRelease;
    // a date after today (UTC) names a release no one has published yet: the alias resolves to nothing until then
    const today = new Date().toISOString().slice(0, 10).replace(/-/g, "");
    if (m[2].slice(1) > today)
      return `amiSelectorTerms alias "${alias}" names an EKS AMI release dated after today (${today.slice(0, 4)}-${today.slice(4, 6)}-${today.slice(6)}): none has that date yet, so Karpenter finds no SSM parameter for the alias (${ALIAS_SOURCE[family]}, the parameter names the release) and the class is not Ready until one is published on exactly that day. Pin a release that exists (the newest this library knows with ${family === "al2" ? "AL2" : "AL2023"} AMIs: "${m[1]}@${newestOfFamily}"), or use "${m[1]}@latest"`;
    if (eksAmiFacts().abandoned.includes(m[2]))
      return `amiSelectorTerms alias "${alias}" names an abandoned EKS AMI release: ${repository.replace("github.com/", "")}'s CHANGELOG.md marks ${m[2]} "[ABANDONED]", so it published no AMIs and Karpenter finds no SSM parameter for the alias (${ALIAS_SOURCE[family]}, the parameter names the release): the class never becomes Ready. Pin a release that was published, e.g. "${m[1]}@${shipped.find((r) => r > m[2]) ?? [...shipped].reverse().find((r) => r < m[2]) ?? newestRelease}"`;
    if (m[2] > newestRelease || releases.includes(m[2])) continue;
    const pool = shipped.length > 0 ? shipped : releases;
    const before = [...pool].reverse().find((r) => r < m[2]);
    const after = pool.find((r) => r > m[2]);
    return `amiSelectorTerms alias "${alias}" names no EKS AMI release: ${repository.replace("github.com/", "")}'s CHANGELOG.md has none on that date (the nearest with ${family === "al2" ? "AL2" : "AL2023"} AMIs: ${[before, after].filter(Boolean).join(" and ")}), so Karpenter finds no SSM parameter for the alias (${ALIAS_SOURCE[family]}, the parameter names the release) and the class never becomes Ready. Pin a release that exists, e.g. "${m[1]}@${after ?? before}"`;
  }
  return undefined;
}

/**
 * Values of the well-known labels Karpenter's AWS provider sets on nodes (Karpenter docs,
 * "NodePools: Well-Known Labels"; pkg/apis/v1/labels.go of aws/karpenter-provider-aws; Kubernetes
 * "Well-Known Labels, Annotations and Taints"). A requirement `In` a value no instance carries
 * matches nothing; a label with such a value contradicts the instance.
 */
interface LabelRule {
  /** The values allowed (exact), or a pattern. */
  readonly values?: readonly string[];
  readonly re?: RegExp;
  /** What is allowed, for messages. */
  readonly text: string;
  /** Known misspellings and their fix. */
  readonly fixes?: { readonly [wrong: string]: string };
}

/** The label of a reserved node's capacity reservation type (aws/karpenter-provider-aws pkg/apis/v1/labels.go LabelCapacityReservationType). */
const CAPACITY_RESERVATION_TYPE_KEY = "karpenter.k8s.aws/capacity-reservation-type";
/** Its values (aws/karpenter-provider-aws v1.15.0 pkg/apis/v1/ec2nodeclass_status.go, CapacityReservationType.Values). */
export const CAPACITY_RESERVATION_TYPES: readonly string[] = ["default", "capacity-block"];
/** The label of a reserved node's capacity reservation id (aws/karpenter-provider-aws pkg/apis/v1/labels.go LabelCapacityReservationID). */
const RESERVATION_ID_KEY = "karpenter.k8s.aws/capacity-reservation-id";
/** Whether that reservation is interruptible (LabelCapacityReservationInterruptible). */
const RESERVATION_INTERRUPTIBLE_KEY = "karpenter.k8s.aws/capacity-reservation-interruptible";
/** The Windows build of a node (Kubernetes well-known label `LabelWindowsBuild`). */
export const WINDOWS_BUILD_KEY = "node.kubernetes.io/windows-build";

/**
 * The build Karpenter labels the nodes of each Windows AMI family with (`node.kubernetes.io/windows-build`), by the
 * family's lower-case name: aws/karpenter-provider-aws v1.15.0 pkg/apis/v1/labels.go:134-136 (Windows2019Build
 * "10.0.17763", Windows2022Build "10.0.20348", Windows2025Build "10.0.26100"; the same at v1.9.3 and v1.14.1),
 * set by pkg/providers/amifamily/resolver.go:301-305 and inserted into every instance type's requirements by
 * pkg/providers/instancetype/types.go:453-455; every other family's instance types have the label DoesNotExist
 * (types.go:353). Which families a release offers is its CRD's (the amiFamily enum and alias rule of lib/versions).
 */
export const WINDOWS_BUILDS: { readonly [family: string]: string } = lookupTable({
  windows2019: "10.0.17763",
  windows2022: "10.0.20348",
  windows2025: "10.0.26100",
});

const LOWER_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const DIGITS = /^[0-9]+$/;
const numeric = (what: string, example: string): LabelRule => ({
  re: DIGITS,
  text: `${what} as a whole number of digits, e.g. "${example}"`,
});

const WELL_KNOWN: { readonly [key: string]: LabelRule } = lookupTable<LabelRule>({
  "kubernetes.io/arch": {
    values: ["amd64", "arm64"],
    text: 'the Go architecture names Kubernetes uses: "amd64" or "arm64" (the architectures of EC2 instances Karpenter launches)',
    fixes: {
      x86_64: "amd64",
      "x86-64": "amd64",
      x64: "amd64",
      x86: "amd64",
      aarch64: "arm64",
      arm: "arm64",
      AMD64: "amd64",
      ARM64: "arm64",
      graviton: "arm64",
    },
  },
  "kubernetes.io/os": {
    values: ["linux", "windows"],
    text: '"linux" or "windows"',
    fixes: { Linux: "linux", Windows: "windows" },
  },
  "karpenter.k8s.aws/instance-category": {
    re: /^[a-z]+$/,
    text: 'lower-case letters, the letters before the generation in the instance type, e.g. "c", "m", "r", "inf"',
  },
  "karpenter.k8s.aws/instance-family": {
    re: /^[a-z][a-z0-9-]*$/,
    text: 'a lower-case instance family, the instance type before the ".", e.g. "m5", "c7g", "r6id"',
  },
  "karpenter.k8s.aws/instance-size": {
    re: LOWER_NAME,
    text: 'a lower-case instance size, the instance type after the ".", e.g. "large", "2xlarge", "metal"',
  },
  "node.kubernetes.io/instance-type": {
    re: /^[a-z][a-z0-9-]*\.[a-z0-9-]+$/,
    text: 'a lower-case EC2 instance type "<family>.<size>", e.g. "m5.large"',
  },
  "karpenter.k8s.aws/instance-generation": numeric("the generation", "6"),
  "karpenter.k8s.aws/instance-cpu": numeric("the vCPU count", "4"),
  "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz": numeric("the clock speed in MHz", "3100"),
  "karpenter.k8s.aws/instance-memory": numeric("the memory in MiB", "16384"),
  "karpenter.k8s.aws/instance-ebs-bandwidth": numeric("the EBS bandwidth in Mbps", "10000"),
  "karpenter.k8s.aws/instance-network-bandwidth": numeric("the network bandwidth in Mbps", "12500"),
  "karpenter.k8s.aws/instance-gpu-count": numeric("the GPU count", "1"),
  "karpenter.k8s.aws/instance-gpu-memory": numeric("the GPU memory in MiB", "16384"),
  "karpenter.k8s.aws/instance-accelerator-count": numeric("the accelerator count", "1"),
  "karpenter.k8s.aws/instance-local-nvme": numeric("the local NVMe storage in GiB", "100"),
  "karpenter.k8s.aws/instance-cpu-manufacturer": {
    re: LOWER_NAME,
    text: 'a lower-case manufacturer, e.g. "intel", "amd", "aws"',
  },
  "karpenter.k8s.aws/instance-gpu-manufacturer": {
    re: LOWER_NAME,
    text: 'a lower-case manufacturer, e.g. "nvidia", "amd"',
  },
  "karpenter.k8s.aws/instance-gpu-name": { re: LOWER_NAME, text: 'a lower-case GPU name, e.g. "t4", "a100"' },
  "karpenter.k8s.aws/instance-accelerator-manufacturer": {
    re: LOWER_NAME,
    text: 'a lower-case manufacturer, e.g. "aws"',
  },
  "karpenter.k8s.aws/instance-accelerator-name": {
    re: LOWER_NAME,
    text: 'a lower-case accelerator name, e.g. "inferentia"',
  },
  // aws/karpenter-provider-aws pkg/providers/instancetype/types.go computeRequirements: "true" or "false"
  "karpenter.k8s.aws/instance-capability-flex": {
    values: ["true", "false"],
    text: '"true" or "false" (whether the instance type is a Flex instance)',
    fixes: { yes: "true", no: "false", True: "true", False: "false" },
  },
  "karpenter.k8s.aws/instance-hypervisor": { values: ["nitro", "xen", ""], text: '"nitro", "xen", or "" (bare metal)' },
  // every instance type offers both tenancies (aws/karpenter-provider-aws pkg/providers/instancetype/types.go,
  // computeRequirements: LabelInstanceTenancy In ec2types.TenancyDefault, ec2types.TenancyDedicated; the label
  // came in Karpenter 1.9); EC2's "host" (Dedicated Hosts) is not among them
  "karpenter.k8s.aws/instance-tenancy": {
    values: ["default", "dedicated"],
    text: '"default" or "dedicated" (the EC2 tenancies Karpenter offers every instance type in)',
    fixes: { shared: "default", Default: "default", Dedicated: "dedicated" },
  },
  "karpenter.k8s.aws/instance-encryption-in-transit-supported": {
    values: ["true", "false"],
    text: '"true" or "false"',
  },
  // Karpenter 1.6+: the type of the capacity reservation a reserved offering comes from, set on reserved offerings only
  // (aws/karpenter-provider-aws v1.15.0 pkg/providers/instancetype/offering/reserved_capacity_resolver.go ResolveOfferings:
  // In string(reservation.ReservationType); base_resolver.go: DoesNotExist on on-demand and spot offerings). The values
  // are the CapacityReservationType constants of pkg/apis/v1/ec2nodeclass_status.go (CapacityReservationTypeDefault
  // "default", CapacityReservationTypeCapacityBlock "capacity-block"; the same at v1.9.3 and v1.14.1), which the
  // EC2NodeClass CRD's status.capacityReservations[].reservationType enum lists (its status schema, which the generated
  // tables of lib/versions do not hold: test/nodes/fresh-tester-6.test.ts holds this list against the reference CRD)
  [CAPACITY_RESERVATION_TYPE_KEY]: {
    values: CAPACITY_RESERVATION_TYPES,
    text: '"default" or "capacity-block" (the type of the capacity reservation a reserved node comes from: an On-Demand Capacity Reservation or a Capacity Block for ML)',
    fixes: {
      capacityblock: "capacity-block",
      "capacity-blocks": "capacity-block",
      "capacity-block-for-ml": "capacity-block",
      block: "capacity-block",
      odcr: "default",
      targeted: "default",
      open: "default",
    },
  },
  // the interruptible flag of the reservation a reserved offering comes from, fmt.Sprintf("%t") (aws/karpenter-provider-aws
  // v1.15.0 pkg/providers/instancetype/offering/reserved_capacity_resolver.go:97); reserved offerings only
  [RESERVATION_INTERRUPTIBLE_KEY]: {
    values: ["true", "false"],
    text: '"true" or "false" (whether the capacity reservation a reserved node comes from is interruptible)',
    fixes: { yes: "true", no: "false", True: "true", False: "false" },
  },
  // only nodes of a Windows AMI family carry it (WINDOWS_BUILDS)
  [WINDOWS_BUILD_KEY]: {
    values: Object.values(WINDOWS_BUILDS),
    text: '"10.0.17763" (Windows Server 2019), "10.0.20348" (2022) or "10.0.26100" (2025), the build Karpenter labels nodes of a Windows AMI family with',
    fixes: { "2019": "10.0.17763", "2022": "10.0.20348", "2025": "10.0.26100" },
  },
});

/**
 * Well-known labels whose values are never integers, besides those of {@link WELL_KNOWN} that are not digits: a
 * Gt / Lt / Gte / Lte bound on them matches no node, since Karpenter refuses every value that is no integer once a bound
 * is set (kubernetes-sigs/karpenter v1.15.0 pkg/scheduling/requirement.go:404-411 withinBounds, the same in v1.14.1).
 * Zones and regions are EC2 names ("us-east-1a", "us-east-1"), zone IDs "use1-az1" (AZ_ID_PREFIXES); a reserved offering
 * carries its reservation's id "cr-…" (aws/karpenter-provider-aws v1.15.0
 * pkg/providers/instancetype/offering/reserved_capacity_resolver.go:95, reservation.ID); an offering in a placement group
 * its id "pg-…" (offering/offering.go:174, pg.ID). The capacity type, with its three values, is the unsatisfiable rule's
 * (checkSatisfiable); the NodePool name may be digits (a DNS-1123 subdomain), so it is not here.
 */
const NON_NUMERIC_LABELS: { readonly [key: string]: string } = lookupTable({
  "topology.kubernetes.io/zone": 'a zone name such as "us-east-1a"',
  "topology.kubernetes.io/region": 'a region such as "us-east-1"',
  "topology.k8s.aws/zone-id": 'a zone ID such as "use1-az1"',
  [RESERVATION_ID_KEY]: 'a capacity reservation id such as "cr-0123456789abcdef0"',
  "karpenter.k8s.aws/placement-group-id": 'a placement group id such as "pg-0123456789abcdef0"',
});

/** What the values of a well-known label that is no number look like (undefined for numeric and unknown labels): the one place the NOT_NUMERIC and reservation rules read. */
function nonNumericLabel(key: string): string | undefined {
  const rule = WELL_KNOWN[key];
  if (rule) return rule.re === DIGITS ? undefined : rule.text;
  return NON_NUMERIC_LABELS[key];
}

/**
 * The smallest value a numeric well-known label has on any instance type, and why: Gt / Lt / Lte bounds below it
 * (`instance-cpu Lte ["0"]`) and In values under it leave no instance type. aws/karpenter-provider-aws
 * pkg/providers/instancetype/types.go computeRequirements writes each from EC2's DescribeInstanceTypes: the vCPU
 * count (VCpuInfo.DefaultVCpus) and the memory in MiB (MemoryInfo.SizeInMiB) of an instance are at least 1; the
 * generation is the digits of the family in the type's name (instanceTypeScheme: m5 → 5), 1 or more for every EC2
 * family (t1, m1 … m8g); instance-local-nvme is set only on types with NVMe instance storage, to its total size in
 * GB (DoesNotExist on the others), so never 0; the other numbers are counts, sizes and rates, never negative.
 */
const NUMERIC_FLOORS: { readonly [key: string]: { readonly min: number; readonly why: string } } = lookupTable({
  "karpenter.k8s.aws/instance-cpu": { min: 1, why: "every instance type has at least 1 vCPU" },
  "karpenter.k8s.aws/instance-memory": { min: 1, why: "every instance type has memory (at least 512 MiB)" },
  "karpenter.k8s.aws/instance-generation": {
    min: 1,
    why: 'the generation is the number in the instance family ("m5" → 5), 1 or more for every EC2 family',
  },
  "karpenter.k8s.aws/instance-local-nvme": {
    min: 1,
    why: "Karpenter sets it only on instance types with NVMe instance storage, to its size in GB (the others have no such label), so it is never 0",
  },
});

/** The floor of a numeric well-known label (see {@link NUMERIC_FLOORS}; the other numeric labels are never negative). */
function numericFloor(key: string): { readonly min: number; readonly why: string } | undefined {
  const floor = NUMERIC_FLOORS[key];
  if (floor) return floor;
  return WELL_KNOWN[key]?.re === DIGITS
    ? { min: 0, why: "it is a count, size or rate of the instance type, never negative" }
    : undefined;
}

const ZONE_KEY = "topology.kubernetes.io/zone";
const REGION_KEY = "topology.kubernetes.io/region";
const CAPACITY_TYPE_KEY = "karpenter.sh/capacity-type";
/** An EC2 zone ID (`use1-az1`): the label `topology.k8s.aws/zone-id` holds these, not the zone label. */
const ZONE_ID = /^[a-z]{2,4}[0-9]-az[0-9]+$/;
const ZONE_ID_KEY = "topology.k8s.aws/zone-id";

/**
 * The AZ ID prefix of each region: every zone ID of the region starts with it and a "-" (`euw1-az1`;
 * Local and Wavelength Zone IDs too: `use1-bos1-az1`). AWS Regions and Availability Zones guide, "AWS
 * Availability Zones" (the AZ ID / Region tables: "an AZ ID consists of the first three letters of the
 * Region code, followed by the number at the end of the Region code, followed by -az"; the tables show
 * the direction written as its initials, apne1, apse2, cac1, euc1, usgw1) and "AZ IDs"; every prefix below
 * checked against that guide's per-Region AZ ID list (and moto's EC2 zone table). A region not listed here is not
 * judged.
 */
export const AZ_ID_PREFIXES: { readonly [region: string]: string } = lookupTable({
  "us-east-1": "use1",
  "us-east-2": "use2",
  "us-west-1": "usw1",
  "us-west-2": "usw2",
  "af-south-1": "afs1",
  "ap-east-1": "ape1",
  "ap-south-1": "aps1",
  "ap-south-2": "aps2",
  "ap-northeast-1": "apne1",
  "ap-northeast-2": "apne2",
  "ap-northeast-3": "apne3",
  "ap-southeast-1": "apse1",
  "ap-southeast-2": "apse2",
  "ap-southeast-3": "apse3",
  "ap-southeast-4": "apse4",
  "ca-central-1": "cac1",
  "eu-central-1": "euc1",
  "eu-central-2": "euc2",
  "eu-north-1": "eun1",
  "eu-south-1": "eus1",
  "eu-south-2": "eus2",
  "eu-west-1": "euw1",
  "eu-west-2": "euw2",
  "eu-west-3": "euw3",
  "il-central-1": "ilc1",
  "me-central-1": "mec1",
  "me-south-1": "mes1",
  "sa-east-1": "sae1",
  "us-gov-east-1": "usge1",
  "us-gov-west-1": "usgw1",
});

/**
 * The NodePool rules beyond its CRD: the name (a label value on every node) and the values of
 * well-known labels in requirements and template labels.
 */
export function checkNodePoolSemantics(c: Checker, name: string, p: NodePoolOptions, ctx: NodeContext): void {
  c.guard(() => checkNameAsLabel(c, name, NODEPOOL_LABEL, "NodePool"));
  const reqs = isSet(p.requirements) && !c.token(p.requirements) && Array.isArray(p.requirements) ? p.requirements : [];
  reqs.forEach((r, i) => c.guard(() => checkRequirementValues(c, `requirements[${i}]`, r, ctx)));
  const labels = isSet(p.labels) && !c.token(p.labels) && typeof p.labels === "object" ? p.labels : {};
  for (const [key, value] of Object.entries(labels)) {
    c.guard(() => {
      // Karpenter turns template labels into requirements (NewLabelRequirements → NewRequirement), which read a
      // deprecated key as the stable one (NormalizedLabels): the value is judged under that key
      if (c.known(key) && c.known(value))
        checkWellKnownValue(c, entry("labels", key), stableLabelKey(key), value, ctx, "label");
    });
  }
  checkRuntimeLabelKeys(c, reqs, labels);
  checkSatisfiable(c, reqs, labels);
}

/** What a NodeOverlay whose requirements no instance type meets does: nothing. */
const OVERLAY_MATCHES_NONE = "so the NodeOverlay matches no instance type and changes nothing";

/**
 * The NodeOverlay requirement rules the NodePool's share (Karpenter matches an overlay's requirements against each
 * instance type's offerings with the same scheduling requirements, kubernetes-sigs/karpenter pkg/controllers/nodeoverlay):
 * values of well-known labels no instance has (`kubernetes.io/arch In ["x86_64"]`), zones outside the cluster's
 * region, Gt / Lt on labels that are no numbers, and requirements on one key no value satisfies together.
 */
export function checkNodeOverlayRequirements(c: Checker, requirements: unknown, ctx: NodeContext): void {
  const reqs =
    isSet(requirements) && !c.token(requirements) && Array.isArray(requirements)
      ? (requirements as NodeSelectorRequirement[])
      : [];
  reqs.forEach((r, i) =>
    c.guard(() => {
      if (isSet(r) && typeof r === "object") checkRequirementValues(c, `requirements[${i}]`, r, ctx, true);
    }),
  );
  checkSatisfiable(c, reqs, {}, OVERLAY_MATCHES_NONE);
}

/**
 * A `karpenter.sh/capacity-type` value Karpenter offers no capacity of, judged here for an overlay (the NodePool CRD
 * pass refuses it for a pool, NODEPOOL_CAPACITY_TYPE; the NodeOverlay CRD takes any label value): Karpenter matches the
 * overlay against each offering's capacity type, so `"Spot"` matches none.
 */
function capacityTypeProblem(value: string, use: "In" | "NotIn"): ValueProblem | undefined {
  const types = Object.keys(CAPACITY_TYPES_SINCE);
  if (types.includes(value)) return undefined;
  const fix = types.find(
    (t) =>
      t ===
      value
        .toLowerCase()
        .replace(/[_ ]/g, "-")
        .replace(/^ondemand$/, "on-demand"),
  );
  return {
    code: "NODE_REQUIREMENT_VALUE_UNKNOWN",
    message: `a capacity type: ${types.map((t) => JSON.stringify(t)).join(", ")} for ${CAPACITY_TYPE_KEY}: no instance carries "${value}", ${UNCARRIED[use]}${fix ? `; write "${fix}"` : ""}`,
  };
}

/**
 * Template label and requirement keys Karpenter's runtime validation refuses though the CRD allows
 * them (runtime-label-rules.ts). A key the CRD refuses is the CRD rule's to report (the converter runs
 * both rule sets at once).
 */
function checkRuntimeLabelKeys(
  c: Checker,
  reqs: readonly NodeSelectorRequirement[],
  labels: { readonly [k: string]: string },
): void {
  reqs.forEach((r, i) =>
    c.guard(() => {
      if (!isSet(r) || c.token(r) || typeof r.key !== "string" || !c.known(r.key)) return;
      if (restrictedLabelProblem(r.key, c.version)) return;
      const problem = runtimeRestrictedLabelProblem(r.key, c.version, "requirement");
      if (problem)
        c.fail(
          "NODE_REQUIREMENT_KEY_RUNTIME",
          `requirements[${i}].key`,
          r.key,
          `a requirement key Karpenter accepts at runtime: ${problem}`,
        );
    }),
  );
  for (const key of Object.keys(labels)) {
    c.guard(() => {
      if (!c.known(key) || restrictedLabelProblem(key, c.version)) return;
      const problem = runtimeRestrictedLabelProblem(key, c.version, "label");
      if (problem)
        c.failKey(
          "NODE_LABEL_KEY_RUNTIME",
          "labels",
          key,
          labels[key],
          `is refused by Karpenter at runtime: ${problem}`,
        );
    });
  }
}

/** One requirement or template label on a key, as {@link checkSatisfiable} reads it. */
interface Constraint {
  /** The field it is set in: `requirements[1]` or `labels["k"]`. */
  readonly field: string;
  readonly value: unknown;
  /** How messages show it: `kubernetes.io/arch In ["amd64"]`. */
  readonly shown: string;
  readonly operator: string;
  readonly values: readonly string[];
}

/** Well-known labels with a finite set of values that some nodes do not carry at all. */
const NOT_ON_EVERY_NODE = [
  "karpenter.k8s.aws/instance-hypervisor",
  CAPACITY_RESERVATION_TYPE_KEY,
  RESERVATION_INTERRUPTIBLE_KEY,
  WINDOWS_BUILD_KEY,
];

/**
 * The values some well-known labels can take on any node Karpenter launches: `NotIn` all of them
 * leaves no node (every node carries these labels). Capacity types per Karpenter version.
 */
function finiteValues(key: string, c: Checker): readonly string[] | undefined {
  if (key === "karpenter.sh/capacity-type")
    return Object.keys(CAPACITY_TYPES_SINCE).filter((t) => c.version.atLeast(CAPACITY_TYPES_SINCE[t]));
  const rule = WELL_KNOWN[key];
  // not on every node: the reservation labels only on reserved ones (NotIn both types, DoesNotExist: on-demand and
  // spot), the Windows build only on Windows nodes
  return rule?.values && !NOT_ON_EVERY_NODE.includes(key) ? rule.values : undefined;
}

const AND_SOURCE =
  "Karpenter ANDs every requirement and template label on one key: it intersects them (kubernetes-sigs/karpenter pkg/scheduling/requirements.go, Requirements.Add; a template label counts as In its value, NewLabelRequirements)";

/**
 * Requirements and template labels that no node can satisfy together: the values they allow on one
 * key have an empty intersection (`arch In [amd64]` and `arch In [arm64]`; a label `spot` with a
 * requirement In [on-demand]; `DoesNotExist` with `In`; `Gt 8` with `Lt 4`), or `NotIn` excludes every
 * value a well-known label has (capacity-type NotIn every type). The NodePool then matches no node
 * and launches nothing. Reported on the constraint that empties the key, naming the ones before it;
 * a key with a token anywhere is not judged.
 */
function checkSatisfiable(
  c: Checker,
  reqs: readonly NodeSelectorRequirement[],
  labels: { readonly [k: string]: string },
  outcome = "so the NodePool matches no node and launches nothing",
): void {
  const byKey = new Map<string, Constraint[]>();
  const unknown = new Set<string>();
  const ordered: NameConstraint[] = [];
  const add = (written: unknown, constraint: Constraint | undefined) => {
    if (typeof written !== "string" || !c.known(written)) return;
    // a deprecated key and its stable one are one key to Karpenter (NormalizedLabels, for requirements and the
    // requirements it makes of template labels)
    const key = stableLabelKey(written);
    if (!constraint) unknown.add(key);
    else {
      byKey.set(key, [...(byKey.get(key) ?? []), constraint]);
      ordered.push({ key, ...constraint });
    }
  };
  reqs.forEach((r, i) => {
    if (!isSet(r) || c.token(r) || typeof r !== "object") return;
    const values = r.values ?? [];
    const known =
      c.known(r.operator) &&
      typeof r.operator === "string" &&
      Array.isArray(values) &&
      c.known(values) &&
      values.every((v) => typeof v === "string");
    add(
      r.key,
      known
        ? {
            field: `requirements[${i}]`,
            value: r,
            operator: r.operator,
            values,
            shown: `${r.key} ${r.operator}${values.length ? ` ${JSON.stringify(values)}` : ""}`,
          }
        : undefined,
    );
  });
  for (const [key, value] of Object.entries(labels)) {
    add(
      key,
      c.known(value) && typeof value === "string"
        ? {
            field: entry("labels", key),
            value,
            operator: "In",
            values: [value],
            shown: `label ${key}=${JSON.stringify(value)}`,
          }
        : undefined,
    );
  }
  let eachKeyMet = true;
  for (const [key, constraints] of byKey) {
    if (unknown.has(key)) continue;
    const passed = c.guard(() => {
      const floor = numericFloor(key);
      const state = new KeyState(finiteValues(key, c), floor?.min);
      for (let i = 0; i < constraints.length; i++) {
        const k = constraints[i];
        // values the CRD rules reject (a Gt without one integer, an unknown operator) are theirs to report
        if (!state.apply(k)) return;
        if (!state.empty()) continue;
        const before = constraints.slice(0, i).map((b) => `${b.field} (${b.shown})`);
        const isLabel = k.field.startsWith("labels[");
        if (before.length === 0) {
          c.fail(
            "NODE_REQUIREMENT_UNSATISFIABLE",
            k.field,
            k.value,
            `a requirement some node can satisfy: ${k.shown} leaves no value of ${key}${state.domain ? ` (its values are ${state.domain.map((v) => JSON.stringify(v)).join(", ")})` : ""}${floor && state.belowFloor() ? ` (its values are ${floor.min} or more: ${floor.why}; aws/karpenter-provider-aws instancetype/types.go computeRequirements)` : ""}, ${outcome}`,
          );
        }
        c.fail(
          "NODE_REQUIREMENT_UNSATISFIABLE",
          k.field,
          k.value,
          `${isLabel ? "a label value" : "a requirement"} that some node can satisfy together with ${before.join(" and ")}: ${AND_SOURCE}, and no value of ${key} satisfies ${before.length > 1 ? "all of them" : "both"}, ${outcome}. Remove one of them or make them agree`,
        );
      }
    });
    eachKeyMet &&= passed;
  }
  // the labels an instance type's name decides, across keys: judged once each key alone can be met
  if (eachKeyMet && !NAME_KEYS.some((k) => unknown.has(k))) c.guard(() => checkNameLabels(c, ordered, outcome));
}

/**
 * Requirements and template labels on the labels Karpenter derives from the instance type's name (type, family,
 * category, generation, size) that no name meets together: `instance-family In [m5]` with `instance-category In [c]`,
 * `instance-type In [m5.large]` with `instance-family In [c5]` or `instance-generation Gt 5`. Certain whatever EC2
 * offers: see lib/nodes/instance-name-rules.ts (aws/karpenter-provider-aws v1.15.0 instancetype/types.go:52, :407-416).
 */
function checkNameLabels(c: Checker, ordered: readonly NameConstraint[], outcome: string): void {
  const found = unsatisfiableName(ordered);
  if (!found) return;
  const k = ordered[found.at];
  // one constraint alone that no name meets: its value's own problem, when one was reported, says it already
  if (found.before.length === 0 && c.collected.some((p) => p.field === k.field || p.field.startsWith(`${k.field}.`)))
    return;
  const before = found.before.map((b) => `${b.field} (${b.shown})`);
  c.fail(
    "NODE_REQUIREMENT_UNSATISFIABLE",
    k.field,
    k.value,
    before.length === 0
      ? `${k.field.startsWith("labels[") ? "a label value" : "a requirement"} that some instance type name can satisfy: ${NAME_SOURCE}, and no name gives ${k.shown} (the names allowed: ${found.names}), ${outcome}`
      : `${k.field.startsWith("labels[") ? "a label value" : "a requirement"} that some node can satisfy together with ${before.join(" and ")}: ${NAME_SOURCE}, and no instance type name satisfies ${before.length > 1 ? "all of them" : "both"} (the names the In sets allow: ${found.names}; none meets them all), ${outcome}. Remove one of them or make them agree`,
  );
}

/** What the constraints on one key allow so far. */
class KeyState {
  /** The values allowed (In), or undefined for any. */
  private allowed?: Set<string>;
  private readonly excluded = new Set<string>();
  private mustExist = false;
  private mustNotExist = false;
  /** Integer bounds (inclusive) from Gt / Gte / Lt / Lte. */
  private lo = -Infinity;
  private hi = Infinity;

  /** @param floor the smallest value any instance has on a numeric label (NUMERIC_FLOORS) */
  constructor(
    public readonly domain: readonly string[] | undefined,
    private readonly floor?: number,
  ) {}

  /** True when the constraints so far leave values only below the floor of a numeric label. */
  public belowFloor(): boolean {
    if (this.floor === undefined) return false;
    if (this.hi < this.floor) return true;
    return (
      this.allowed !== undefined && [...this.allowed].every((v) => /^-?[0-9]+$/.test(v) && Number(v) < this.floor!)
    );
  }

  /** Adds a constraint; false when it cannot be read (left to the CRD rules). */
  public apply(k: Constraint): boolean {
    const ints = k.values.map((v) => (/^-?[0-9]+$/.test(v) ? Number(v) : NaN));
    switch (k.operator) {
      case "In":
        if (k.values.length === 0) return false;
        this.mustExist = true;
        this.allowed = new Set(k.values.filter((v) => !this.allowed || this.allowed.has(v)));
        return true;
      case "NotIn":
        k.values.forEach((v) => this.excluded.add(v));
        return true;
      case "Exists":
        this.mustExist = true;
        return true;
      case "DoesNotExist":
        this.mustNotExist = true;
        return true;
      case "Gt":
      case "Gte":
      case "Lt":
      case "Lte": {
        if (ints.length !== 1 || Number.isNaN(ints[0])) return false;
        this.mustExist = true;
        const n = ints[0];
        if (k.operator === "Gt") this.lo = Math.max(this.lo, n + 1);
        if (k.operator === "Gte") this.lo = Math.max(this.lo, n);
        if (k.operator === "Lt") this.hi = Math.min(this.hi, n - 1);
        if (k.operator === "Lte") this.hi = Math.min(this.hi, n);
        return true;
      }
      default:
        return false;
    }
  }

  /** True when no node can satisfy the constraints so far. */
  public empty(): boolean {
    // every node carries a finite well-known label (arch, os, capacity type)
    if (this.mustNotExist) return this.mustExist || this.domain !== undefined;
    if (this.lo > this.hi) return true;
    if (this.floor !== undefined && this.hi < this.floor) return true;
    const bounded = this.lo !== -Infinity || this.hi !== Infinity;
    const aboveFloor = (v: string) => this.floor === undefined || !/^-?[0-9]+$/.test(v) || Number(v) >= this.floor;
    const fits = (v: string) =>
      !this.excluded.has(v) &&
      aboveFloor(v) &&
      (!bounded || (/^-?[0-9]+$/.test(v) && Number(v) >= this.lo && Number(v) <= this.hi));
    if (this.allowed) return ![...this.allowed].some(fits);
    // every node carries a finite well-known label: NotIn all its values leaves none
    return this.domain !== undefined && !this.domain.some(fits);
  }
}

/** An object name that Karpenter copies into a label of every node: at most 63 characters. */
function checkNameAsLabel(c: Checker, name: string, label: string, kind: string): void {
  if (c.known(name) && typeof name === "string" && name.length > LABEL_VALUE_MAX) {
    c.fail(
      "NODE_NAME_TOO_LONG",
      "name",
      name,
      `at most ${LABEL_VALUE_MAX} characters (got ${name.length}): Karpenter labels every NodeClaim and node with ${label}=<${kind} name>, and a label value has at most ${LABEL_VALUE_MAX} characters, so no node can be created (Kubernetes label value rules; Karpenter "Well-Known Labels"). Choose a shorter name`,
    );
  }
}

const NUMERIC_OPERATORS = ["Gt", "Lt", "Gte", "Lte"];

/**
 * @param capacityTypes judge `karpenter.sh/capacity-type` values here (an overlay's; a pool's are the CRD pass's)
 */
function checkRequirementValues(
  c: Checker,
  at: string,
  r: NodeSelectorRequirement,
  ctx: NodeContext,
  capacityTypes = false,
): void {
  if (!isSet(r) || c.token(r) || !c.known(r.key)) return;
  // Karpenter reads a requirement's deprecated key as the stable one (kubernetes-sigs/karpenter
  // pkg/scheduling/requirement.go NewRequirementWithFlexibility, NormalizedLabels): its values are judged alike
  const key = typeof r.key === "string" ? stableLabelKey(r.key) : r.key;
  const text = nonNumericLabel(key);
  if (text !== undefined && c.known(r.operator) && NUMERIC_OPERATORS.includes(r.operator)) {
    // Karpenter compares Gt/Lt as integers; a label whose values are not numbers never matches (requirement.go withinBounds)
    c.fail(
      "NODE_REQUIREMENT_NOT_NUMERIC",
      `${at}.operator`,
      r.operator,
      `In, NotIn, Exists or DoesNotExist for ${r.key}: its values are not numbers (${text}), so ${r.operator} matches no instance type (Karpenter refuses every value that is no integer once a bound is set: kubernetes-sigs/karpenter pkg/scheduling/requirement.go withinBounds). Numeric labels: ${Object.keys(
        WELL_KNOWN,
      )
        .filter((k) => WELL_KNOWN[k].re === DIGITS)
        .join(", ")}`,
    );
  }
  const verdict = requirementValueVerdict(c, at, r, ctx, capacityTypes);
  for (const p of verdict?.errors ?? []) c.guard(() => c.fail(p.code, p.field, p.value, p.message));
}

/** A value of a requirement or label no instance carries: the code and message of the rule it breaks. */
interface ValueProblem {
  readonly code: ErrorCode;
  readonly message: string;
}

/** A {@link ValueProblem} where it is. */
interface PlacedProblem extends ValueProblem {
  readonly field: string;
  readonly value: unknown;
}

/**
 * The values of one In / NotIn requirement no instance carries (well-known label values, zones and regions outside the
 * cluster's, an overlay's capacity types), and what to do with them. Karpenter keeps a requirement's values as a set:
 * one no instance carries adds nothing to `In` and excludes nothing with `NotIn`, and for the labels whose values it
 * knows it drops them and goes on with the others ({@link KNOWN_VALUES_SOURCE}). So they are `errors` when no value of
 * the requirement is carried (In matches nothing, and Karpenter refuses such a NodePool of KNOWN_VALUE_LABELS; NotIn
 * excludes nothing of what was meant), or when the carried ones are fewer than `minValues` (on KNOWN_VALUE_LABELS the
 * error is on minValues, as Karpenter's; on other labels each value stays an error, as before: whether scheduling then
 * relaxes minValues is the controller's minValuesPolicy); otherwise `dropped` (a synth warning,
 * {@link requirementValueWarnings}). A token value may be carried: beside one, the others are dropped, not errors.
 */
function requirementValueVerdict(
  c: Checker,
  at: string,
  r: NodeSelectorRequirement,
  ctx: NodeContext,
  capacityTypes: boolean,
): { errors: PlacedProblem[]; dropped: PlacedProblem[]; carried: string[] } | undefined {
  if (!isSet(r) || c.token(r) || typeof r !== "object" || !c.known(r.key) || typeof r.key !== "string")
    return undefined;
  const use = r.operator;
  if (use !== "In" && use !== "NotIn") return undefined;
  // a list token: its values are known at apply only
  if (!Array.isArray(r.values) || c.token(r.values)) return undefined;
  const key = stableLabelKey(r.key);
  const problems: PlacedProblem[] = [];
  const carried: string[] = [];
  let hidden = false;
  r.values.forEach((value, j) => {
    if (!c.known(value) || typeof value !== "string") {
      hidden = true;
      return;
    }
    const p =
      capacityTypes && key === CAPACITY_TYPE_KEY
        ? capacityTypeProblem(value, use)
        : wellKnownValueProblem(key, value, ctx, use);
    if (p) problems.push({ ...p, field: `${at}.values[${j}]`, value });
    else carried.push(value);
  });
  if (problems.length === 0) return { errors: [], dropped: [], carried };
  if (carried.length === 0 && !hidden) return { errors: problems, dropped: [], carried };
  const min = r.minValues;
  if (use === "In" && !hidden && typeof min === "number" && c.known(min) && r.values.length >= min) {
    const known = [...new Set(carried)];
    if (known.length < min) {
      if (!KNOWN_VALUE_LABELS.includes(key)) return { errors: problems, dropped: [], carried };
      const unknown = problems.map((p) => String(p.value));
      const message = minValuesKnownProblem(key, min, known, unknown);
      return {
        errors: [{ code: "NODEPOOL_MIN_VALUES_KNOWN", field: `${at}.minValues`, value: min, message }],
        dropped: [],
        carried,
      };
    }
  }
  return { errors: [], dropped: problems, carried };
}

/**
 * Synth warnings for requirement values no instance carries beside values that are (`kubernetes.io/arch In ["amd64",
 * "x86_64"]`, `karpenter.sh/capacity-type In ["on-demand", "ondemand"]`): Karpenter goes on with the others, so the
 * object works, but the value does nothing (see requirementValueVerdict). `owner` starts each warning
 * (`NodePool default`); the NodePool's, the NodeOverlay's and the converter's notes.
 */
export function requirementValueWarnings(c: Checker, owner: string, requirements: unknown, ctx: NodeContext): string[] {
  if (!isSet(requirements) || c.token(requirements) || !Array.isArray(requirements)) return [];
  const out: string[] = [];
  requirements.forEach((r: NodeSelectorRequirement, i) => {
    const repeated = repeatedValuesWarning(c, `requirements[${i}]`, r);
    if (repeated) out.push(`${owner}: ${repeated}`);
    const verdict = requirementValueVerdict(c, `requirements[${i}]`, r, ctx, true);
    if (!verdict || verdict.dropped.length === 0) return;
    const key = stableLabelKey(r.key);
    const others = verdict.carried.length ? verdict.carried.map((v) => JSON.stringify(v)).join(", ") : "a token";
    const how = KNOWN_VALUE_LABELS.includes(key)
      ? `Karpenter drops it and goes on with the values it knows (it logs "please correct found invalid values, proceeding with valid values": ${KNOWN_VALUES_SOURCE})`
      : r.operator === "In"
        ? "it adds no instance type to the requirement"
        : "it excludes nothing";
    for (const p of verdict.dropped)
      out.push(
        `${owner}: ${p.field} = ${JSON.stringify(p.value)} is a value no instance carries (${p.message}). The requirement's other values (${others}) still apply, so ${how}; remove ${JSON.stringify(p.value)}.`,
      );
  });
  return out;
}

/**
 * An `In` requirement whose list repeats values so that fewer distinct values remain than its minValues: the CRD
 * counts the list's items and takes it, but Karpenter keeps the values as a set (sigs.k8s.io/karpenter v1.15.0
 * pkg/scheduling/requirement.go:69-73, NewRequirementWithFlexibility) and its minValues check (pkg/cloudprovider/
 * types.go:459, SatisfiesMinValues) can never be met: under minValuesPolicy Strict (the default) the pool launches no
 * node, under BestEffort Karpenter relaxes minValues. The policy is the install's: a warning (fresh tester 22 S-1).
 */
function repeatedValuesWarning(c: Checker, at: string, r: NodeSelectorRequirement): string | undefined {
  if (!isSet(r) || c.token(r) || typeof r !== "object" || r.operator !== "In") return undefined;
  const min = r.minValues;
  const values = r.values;
  if (typeof min !== "number" || !c.known(min) || !Array.isArray(values) || c.token(values)) return undefined;
  if (!values.every((v) => typeof v === "string" && c.known(v)) || values.length < min) return undefined;
  const distinct = [...new Set(values as string[])];
  if (distinct.length >= min) return undefined;
  return `${at}.minValues = ${min} with ${distinct.length} distinct value${distinct.length === 1 ? "" : "s"} (${distinct.map((v) => JSON.stringify(v)).join(", ")}; the list repeats some): Karpenter keeps a requirement's values as a set (sigs.k8s.io/karpenter v1.15.0 pkg/scheduling/requirement.go:69-73), so minValues can never be met (pkg/cloudprovider/types.go:459, SatisfiesMinValues): under minValuesPolicy Strict, the default, the pool launches no node; under BestEffort Karpenter relaxes it. List ${min} different values, or lower minValues.`;
}

/** What the value is: one of a requirement's values, or a template label (which Karpenter turns into an `In` requirement). */
type ValueUse = "In" | "NotIn" | "label";

/** Why a value no instance carries matters, per use: it selects nothing, excludes nothing, or the label matches no instance. */
const UNCARRIED: { readonly [use in ValueUse]: string } = {
  In: "so this value matches no instance type",
  NotIn: "so NotIn it excludes nothing (the value meant is not excluded)",
  label:
    "and Karpenter turns a template label into a requirement (In that value), so the NodePool matches no instance type",
};

/**
 * @param use `In` and `label` decide where nodes go; a zone outside the region matters only then
 * (`NotIn` one excludes nothing)
 */
function checkWellKnownValue(
  c: Checker,
  field: string,
  key: string,
  value: string,
  ctx: NodeContext,
  use: ValueUse,
): void {
  const p = wellKnownValueProblem(key, value, ctx, use);
  if (p) c.fail(p.code, field, value, p.message);
}

/** The first rule a value of a well-known label breaks, or undefined (see {@link checkWellKnownValue}). */
function wellKnownValueProblem(key: string, value: string, ctx: NodeContext, use: ValueUse): ValueProblem | undefined {
  const rule = WELL_KNOWN[key];
  if (rule) {
    const ok = rule.values ? rule.values.includes(value) : rule.re!.test(value);
    if (!ok) {
      const fix =
        ownValue(rule.fixes, value) ??
        ownValue(rule.fixes, value.toLowerCase()) ??
        (rule.re && rule.re.test(value.toLowerCase()) ? value.toLowerCase() : undefined) ??
        rule.values?.find((v) => v === value.toLowerCase().replace(/[_ ]/g, "-"));
      const instanceType =
        /^[a-zA-Z][a-zA-Z0-9-]*\.[a-zA-Z0-9-]+$/.test(value) && key.startsWith("karpenter.k8s.aws/instance-")
          ? ` ("${value}" is an instance type: use the key node.kubernetes.io/instance-type for it)`
          : "";
      return {
        code: "NODE_REQUIREMENT_VALUE_UNKNOWN",
        message: `${rule.text} for ${key}: no instance carries "${value}", ${UNCARRIED[use]}${fix ? `; write "${fix}"` : ""}${instanceType}`,
      };
    }
  }
  // kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/nodeclaimtemplate.go: every NodeClaim (and its
  // node) gets karpenter.sh/nodepool = nodePool.Name, an object name, so a DNS-1123 subdomain (IsDNS1123Subdomain)
  const lower = String(value).toLowerCase();
  if (key === NODEPOOL_LABEL && use !== "NotIn" && typeof value === "string" && !isDns1123Subdomain(value)) {
    return {
      code: "NODE_REQUIREMENT_VALUE_UNKNOWN",
      message: `a NodePool name for ${key}, a DNS-1123 subdomain (lower-case letters, digits, '-' and '.'): Karpenter sets this label to the name of the NodePool that launched the node (nodeclaimtemplate.go), and no NodePool can be named "${value}", so no instance carries "${value}", ${UNCARRIED[use]}${isDns1123Subdomain(lower) ? `; write "${lower}"` : ""}`,
    };
  }
  if (key === REGION_KEY && use !== "NotIn" && ctx.region !== undefined && value !== ctx.region)
    return {
      code: "NODE_REGION",
      message: `the cluster's region ${ctx.region} for ${REGION_KEY}: Karpenter's instance types carry only the region of the cluster it runs in (it launches into that region's subnets), so no node can get region "${value}"`,
    };
  const prefix = ctx.region !== undefined ? AZ_ID_PREFIXES[ctx.region] : undefined;
  if (key === ZONE_ID_KEY && use !== "NotIn" && prefix !== undefined && !value.startsWith(`${prefix}-`)) {
    const other = Object.keys(AZ_ID_PREFIXES).find((r) => value.startsWith(`${AZ_ID_PREFIXES[r]}-`));
    const zoneName = /^[a-z]{2}(-[a-z]+)+-\d+[a-z]$/.test(value)
      ? ` ("${value}" is a zone name: use the key ${ZONE_KEY} for zone names)`
      : "";
    return {
      code: "NODE_ZONE_ID",
      message: `a zone ID of the cluster's region ${ctx.region}, "${prefix}-az<n>" (e.g. "${prefix}-az1") for ${ZONE_ID_KEY}: every AZ ID starts with its region's prefix (AWS Regions and Availability Zones guide, "AZ IDs"), ${other ? `"${value}" is a zone of ${other}, ` : ""}and Karpenter launches only into subnets of the cluster's region, so no node can get zone ID "${value}"${zoneName}`,
    };
  }
  if (key === ZONE_KEY) {
    if (ZONE_ID.test(value))
      return {
        code: "NODE_ZONE",
        message: `a zone name such as "us-east-1a" for ${ZONE_KEY}: "${value}" is a zone ID; use the key topology.k8s.aws/zone-id for zone IDs`,
      };
    if (
      use !== "NotIn" &&
      ctx.region !== undefined &&
      !value.startsWith(`${ctx.region}-`) &&
      !new RegExp(`^${ctx.region}[a-z]$`).test(value)
    ) {
      return {
        code: "NODE_ZONE",
        message: `a zone of the cluster's region ${ctx.region} (e.g. "${ctx.region}a"): Karpenter launches only into subnets of the cluster's region, so no node can get zone "${value}"`,
      };
    }
  }
  return undefined;
}

/**
 * The EC2NodeClass rules beyond its CRD: the name (a label value on every node), alias versions per family, AMI families EKS no longer
 * publishes for the cluster's Kubernetes version, kubelet `clusterDNS` IPs and reserved quantities.
 * @param termsFromAmiFamily the AMI terms are the default alias derived from `amiFamily` (problems then name `amiFamily`)
 */
export function checkEc2NodeClassSemantics(
  c: Checker,
  name: string,
  p: Ec2NodeClassOptions,
  ctx: NodeContext,
  termsFromAmiFamily = false,
): void {
  c.guard(() => checkNameAsLabel(c, name, NODECLASS_LABEL, "EC2NodeClass"));
  c.guard(() => checkRoleName(c, p.role));
  c.guard(() => {
    const profile = p.instanceProfile;
    if (!isSet(profile) || c.token(profile) || typeof profile !== "string" || profile === "") return;
    const problem = instanceProfileNameProblem(profile);
    if (problem !== undefined)
      c.fail(
        "EC2NODECLASS_INSTANCE_PROFILE_NAME",
        "instanceProfile",
        profile,
        `${problem}. Karpenter launches with IamInstanceProfile.Name set to it (karpenter-provider-aws v1.15.0 pkg/providers/launchtemplate/types.go:113-114) and its validation finds no such profile, so the class never becomes Ready and no node launches`,
      );
  });
  c.guard(() => {
    // AL2023's nodeadm reads the NodeConfig from the instance's user data and the instance's identity from IMDS
    const m = p.metadataOptions;
    if (nodeFamily(p) !== "AL2023" || !isSet(m) || c.token(m) || typeof m !== "object") return;
    if (m.httpEndpoint === "disabled")
      c.fail(
        "EC2NODECLASS_METADATA_ENDPOINT",
        "metadataOptions.httpEndpoint",
        m.httpEndpoint,
        `"enabled" (the default) on AL2023: nodeadm reads the NodeConfig from the instance's user data and the instance's identity through the instance metadata service when the node boots (amazon-eks-ami nodeadm internal/configprovider/userdata.go:33-43, cmd/nodeadm/init/init.go:196-198, internal/api/status.go:18-21, at 81fec2e8) and stops without it, so no node joins (EC2NodeClass CRD: with "disabled", "instance metadata will not be accessible on the node")`,
      );
  });
  const terms =
    isSet(p.amiSelectorTerms) && !c.token(p.amiSelectorTerms) && Array.isArray(p.amiSelectorTerms)
      ? p.amiSelectorTerms
      : [];
  // a default alias derived from amiFamily is reported on amiFamily, the prop the user set
  const at = (i: number) =>
    termsFromAmiFamily ? { field: "amiFamily", value: p.amiFamily } : { field: `amiSelectorTerms[${i}].alias` };
  terms.forEach((t, i) => c.guard(() => checkAliasSemantics(c, at(i), t, ctx)));
  checkKubeletSemantics(c, p.kubelet);
  checkBlockDeviceSemantics(
    c,
    nodeFamily(p),
    p.blockDeviceMappings,
    ctx.region,
    al2023AmiRelease(p.amiSelectorTerms) !== undefined
      ? "AL2023"
      : bottlerocketAlias(p.amiSelectorTerms)
        ? "Bottlerocket"
        : undefined,
  );
  c.guard(() =>
    checkUserDataFormat(
      c,
      nodeFamily(p),
      p.userData,
      p.kubelet,
      ctx.kubernetesVersion,
      al2023AmiRelease(p.amiSelectorTerms),
      bottlerocketAmiRelease(p.amiSelectorTerms),
    ),
  );
  c.guard(() => checkUserDataRoom(c, nodeFamily(p), p.userData));
}

/** A literal `role` must be an IAM role name, the rule KarpenterNodeRole applies to `roleName` (see nodeClassRoleProblem). */
function checkRoleName(c: Checker, role: string | undefined): void {
  if (!isSet(role) || c.token(role) || typeof role !== "string") return;
  const problem = nodeClassRoleProblem(role);
  if (problem !== undefined) c.fail("EC2NODECLASS_ROLE_NAME", "role", role, problem);
}

function checkAliasSemantics(
  c: Checker,
  target: { field: string; value?: unknown },
  term: AmiSelectorTerm,
  ctx: NodeContext,
): void {
  const field = target.field;
  // a malformed alias is the CRD rule's to report
  if (!isSet(term) || c.token(term) || typeof term.alias !== "string") return;
  // the family may be known while the version is a reference (`al2@${var.ami}`): what is known is checked
  const sep = term.alias.indexOf("@");
  const family = term.alias.slice(0, sep);
  const version = term.alias.slice(sep + 1);
  if (sep <= 0 || version === "" || !c.known(family) || !/^[a-zA-Z0-9]+$/.test(family)) return;
  const rule = ALIAS_VERSIONS[family];
  if (rule && c.known(version) && version !== "latest" && !rule.re.test(version)) {
    // "20250505", "v2025-05-05": the date the user meant, written as the release tag
    const digits = version.replace(/\D/g, "");
    const meant =
      DATED_ALIAS_FAMILIES.includes(family) && digits.length === 8 ? ` (did you mean "${family}@v${digits}"?)` : "";
    c.fail(
      "EC2NODECLASS_AMI_ALIAS_VERSION",
      field,
      term.alias,
      `"${family}@latest" or "${family}@<version>" with ${rule.text}${meant}: Karpenter resolves the alias to an SSM parameter, and "${version}" names none, so the EC2NodeClass never becomes Ready (aws/karpenter-provider-aws pkg/providers/amifamily)`,
    );
  }
  if (rule && DATED_ALIAS_FAMILIES.includes(family) && c.known(version)) {
    const impossible = rule.re.test(version) ? impossibleDate(version.slice(1)) : undefined;
    if (impossible)
      c.fail(
        "EC2NODECLASS_AMI_ALIAS_DATE",
        field,
        term.alias,
        `"${family}@latest" or "${family}@<version>" with an EKS AMI release "vYYYYMMDD" that is a calendar date, such as "v20260714": "${version}" has ${impossible}, so no EKS AMI release has that version and Karpenter finds no SSM parameter for the alias: the EC2NodeClass never becomes Ready (aws/karpenter-provider-aws pkg/providers/amifamily: the SSM parameter names the release "v<YYYYMMDD>" of awslabs/amazon-eks-ami)`,
      );
  }
  const last = LAST_KUBERNETES_MINOR_OF_AMI_FAMILY[family.toUpperCase()];
  const minor = minorOf(ctx.kubernetesVersion);
  // a pinned release that shipped no AMI for the cluster's minor (fresh tester round 34: ami-release-minors.ts)
  const releaseProblem =
    c.known(version) && !("value" in target) ? aliasReleaseMinorProblem(family, version, minor) : undefined;
  if (releaseProblem) c.fail("EC2NODECLASS_AMI_ALIAS_KUBERNETES", field, term.alias, releaseProblem);
  if (last !== undefined && minor !== undefined && minor > last) {
    const fromFamily = "value" in target;
    c.fail(
      "EC2NODECLASS_AMI_ALIAS_KUBERNETES",
      field,
      fromFamily ? target.value : term.alias,
      `an AMI family EKS publishes for Kubernetes ${ctx.kubernetesVersion}: there are no EKS-optimized ${family.toUpperCase()} AMIs for Kubernetes 1.${last + 1} and later (Amazon EKS User Guide, "Amazon Linux 2 AMI deprecation"), so Karpenter finds no AMI and launches no node${fromFamily ? ` (amiFamily without amiSelectorTerms selects "${term.alias}")` : ""}. Use ${fromFamily ? '"AL2023" (or "Bottlerocket")' : '"al2023@latest" (or bottlerocket@latest)'}`,
    );
  }
}

/**
 * The alias families whose versions are EKS AMI release dates `vYYYYMMDD` (awslabs/amazon-eks-ami release tags).
 * A release of the CHANGELOG that shipped no AMI of the family for the cluster's minor is refused by
 * ami-release-minors.ts; a date that is no release at all (`al2023@v19990101`) only warns (it may be newer than the
 * snapshot).
 */
const DATED_ALIAS_FAMILIES = ["al2", "al2023"];

/**
 * A warning for `amiFamily` of a family EKS no longer publishes AMIs for at the cluster's Kubernetes
 * version, with AMI terms of your own (not an alias): your own AMIs of that family may exist, but
 * EKS publishes none. Undefined when there is nothing to say.
 */
export function amiFamilyWarning(p: Ec2NodeClassOptions, ctx: NodeContext): string | undefined {
  const family = p.amiFamily;
  const last = typeof family === "string" ? LAST_KUBERNETES_MINOR_OF_AMI_FAMILY[family] : undefined;
  const minor = minorOf(ctx.kubernetesVersion);
  if (last === undefined || minor === undefined || minor <= last) return undefined;
  const terms = Array.isArray(p.amiSelectorTerms) ? p.amiSelectorTerms : [];
  if (terms.some((t) => isSet(t) && isSet(t.alias))) return undefined;
  return `amiFamily ${family} on Kubernetes ${ctx.kubernetesVersion}: EKS publishes no ${family} AMIs for Kubernetes 1.${last + 1} and later (Amazon EKS User Guide, "Amazon Linux 2 AMI deprecation"). The selector terms must find AMIs you build yourself for this version, or Karpenter launches no node; move to AL2023 or Bottlerocket.`;
}

/** The Kubernetes minor of `"1.33"` / `"1.33.2"`, else undefined. */
function minorOf(version: string | undefined): number | undefined {
  const m = typeof version === "string" ? /^v?1\.(\d+)(?:\.\d+)?$/.exec(version.trim()) : null;
  return m ? Number(m[1]) : undefined;
}

/** Binary suffixes (Ki … Ei) on CPU mean millions of cores. */
const BINARY_SUFFIX = /^[0-9.]+[KMGTPE]i$/;

function checkKubeletSemantics(c: Checker, k: KubeletConfiguration | undefined): void {
  if (!isSet(k) || c.token(k) || typeof k !== "object") return;
  if (Array.isArray(k.clusterDNS)) {
    k.clusterDNS.forEach((ip, i) =>
      c.guard(() => {
        if (c.known(ip) && typeof ip === "string" && !isKubeletIp(ip)) {
          c.fail(
            "EC2NODECLASS_KUBELET_CLUSTER_DNS",
            `kubelet.clusterDNS[${i}]`,
            ip,
            'an IPv4 or IPv6 address such as "10.100.0.10" (the cluster DNS Service IP, without port or CIDR): the kubelet writes the valid ones into every pod\'s resolv.conf and skips an invalid one with a log line ("Invalid clusterDNS IP", k8s.io/kubernetes v1.36.3 pkg/kubelet/kubelet.go:579-584), so pods get no cluster DNS server from it and cannot resolve Service names',
          );
        }
      }),
    );
  }
  for (const field of ["kubeReserved", "systemReserved", "evictionHard", "evictionSoft"] as const) {
    const m = k[field];
    if (!isSet(m) || c.token(m) || typeof m !== "object") continue;
    for (const [key, value] of Object.entries(m)) {
      c.guard(() => {
        if (!c.known(value) || typeof value !== "string") return;
        const at = entry(`kubelet.${field}`, key);
        if (BYTE_RESOURCES.includes(key) && /^[0-9.]+m$/.test(value)) {
          c.fail(
            "EC2NODECLASS_KUBELET_QUANTITY_SUFFIX",
            at,
            value,
            `a byte quantity such as "${value.slice(0, -1)}Mi" (mebibytes) or "${value.slice(0, -1)}M" (megabytes): the suffix "m" means thousandths, so "${value}" is a fraction of one byte (Kubernetes quantities)`,
          );
        }
        if (key === "cpu" && BINARY_SUFFIX.test(value)) {
          c.fail(
            "EC2NODECLASS_KUBELET_QUANTITY_SUFFIX",
            at,
            value,
            `a CPU quantity such as "100m" (millicores) or "1" (cores): "${value}" uses a byte suffix and means millions of cores, more than any instance has, so no pod fits (Kubernetes quantities)`,
          );
        }
      });
    }
  }
}

/** What a NodePool's reserved-capacity check reads of its EC2NodeClass: a construct of the app, with its props. */
export interface PoolNodeClass {
  /** The EC2NodeClass's name (`metadata.name`). */
  readonly name: string;
  /** Where it is defined (its construct path). */
  readonly path: string;
  /** Its spec as given (Ec2NodeClass.spec). */
  readonly spec: Ec2NodeClassOptions;
}

/** The labels only reserved offerings carry (aws/karpenter-provider-aws pkg/apis/v1/labels.go). */
export const RESERVATION_KEYS: readonly string[] = [
  RESERVATION_ID_KEY,
  CAPACITY_RESERVATION_TYPE_KEY,
  RESERVATION_INTERRUPTIBLE_KEY,
];
/** Operators that a node without the label cannot meet. */
const NEEDS_LABEL = ["In", "Exists", "Gt", "Lt", "Gte", "Lte"];

/** Whether requirements or template labels need a capacity-reservation label (only reserved offerings carry one). */
export function needsReservationLabel(
  reqs: readonly { readonly key: string; readonly operator: string }[],
  labels: { readonly [k: string]: unknown },
): string | undefined {
  return (
    reqs.find((r) => RESERVATION_KEYS.includes(r.key) && NEEDS_LABEL.includes(r.operator))?.key ??
    Object.keys(labels).find((k) => RESERVATION_KEYS.includes(k))
  );
}
const OFFERINGS_SOURCE =
  "aws/karpenter-provider-aws v1.15.0 pkg/providers/instancetype/offering/base_resolver.go: on-demand and spot offerings carry the capacity-reservation labels as DoesNotExist; reserved_capacity_resolver.go ResolveOfferings makes one reserved offering per reservation the class selects, nodeClass.CapacityReservations(), with its id and type";

/**
 * The capacity a NodePool's requirements and template labels leave, against the reservations its EC2NodeClass
 * selects. Only reserved offerings carry the capacity-reservation labels (id, type, interruptible), and reserved
 * offerings exist only for the reservations the class selects: aws/karpenter-provider-aws v1.15.0
 * pkg/providers/instancetype/offering/base_resolver.go (on-demand and spot: the labels DoesNotExist; `reserved`
 * skipped, "constructed separately"), reserved_capacity_resolver.go ResolveOfferings (one offering per
 * `nodeClass.CapacityReservations()`), pkg/controllers/nodeclass/capacityreservation.go Reconcile and
 * pkg/providers/capacityreservation/provider.go List (the list comes from `spec.capacityReservationSelectorTerms`:
 * no terms, no reservation). Refused, each when every value it reads is known:
 * - a requirement or label that needs a capacity-reservation label while the capacity types left exclude `reserved`
 *   — stated, or the library's default `In ["on-demand"]` when the pool names none (`defaulted`: the last
 *   requirement is that default): no offering has both;
 * - a pool left only reserved capacity (by its capacity types or by a reservation label) on a class (`nodeClass`,
 *   one of the app) without `capacityReservationSelectorTerms`;
 * - a `capacity-reservation-id` requirement or label none of whose ids the class selects, when the class selects by
 *   literal ids only;
 * - on a pool left only reserved capacity, a requirement no reserved offering meets: a reservation label
 *   DoesNotExist, NotIn every value, or bounded (Gt…: none of the labels is a number, nonNumericLabel).
 * A pool that allows another capacity type too, without a reservation label, is fine (Karpenter falls back).
 */
export function checkReservations(
  c: Checker,
  reqs: readonly NodeSelectorRequirement[],
  labels: { readonly [k: string]: string },
  defaulted: boolean,
  nodeClass: PoolNodeClass | undefined,
): void {
  if (!c.version.atLeast(CAPACITY_TYPES_SINCE.reserved)) return;
  if (c.token(reqs) || c.token(labels)) return;
  const types = Object.keys(CAPACITY_TYPES_SINCE).filter((t) => c.version.atLeast(CAPACITY_TYPES_SINCE[t]));
  let allowed = types;
  let stated = false;
  type Where = { field: string; value: unknown; shown: string; reservation?: boolean };
  let narrowed: Where | undefined;
  let needs: Where | undefined;
  const wantedIds: (Where & { ids: string[] })[] = [];
  // requirements no reserved offering meets: each carries its id, its type and interruptible (reserved_capacity_resolver.go)
  let excludes: Where | undefined;
  const notIds: (Where & { ids: string[] })[] = [];
  const narrow = (at: Where, keep: (t: string) => boolean) => {
    allowed = allowed.filter(keep);
    if (!narrowed && allowed.length === 1 && allowed[0] === "reserved") narrowed = at;
  };
  for (let i = 0; i < reqs.length; i++) {
    const r = reqs[i];
    if (!isSet(r) || c.token(r) || typeof r !== "object" || !c.known(r.key)) return;
    if (r.key !== CAPACITY_TYPE_KEY && !RESERVATION_KEYS.includes(r.key)) continue;
    const values = r.values ?? [];
    if (!c.known(r.operator) || !Array.isArray(values) || !c.known(values)) return;
    if (!values.every((v) => typeof v === "string" && c.known(v))) return;
    const at = {
      field: `requirements[${i}]`,
      value: r,
      shown: `${r.key} ${r.operator}${values.length ? ` ${JSON.stringify(values)}` : ""}`,
    };
    if (r.key !== CAPACITY_TYPE_KEY) {
      if (NEEDS_LABEL.includes(r.operator)) needs ??= { ...at, reservation: true };
      if (r.key === RESERVATION_ID_KEY && r.operator === "In") wantedIds.push({ ...at, ids: values });
      if (r.key === RESERVATION_ID_KEY && r.operator === "NotIn") notIds.push({ ...at, ids: values });
      const every =
        r.key === CAPACITY_RESERVATION_TYPE_KEY
          ? CAPACITY_RESERVATION_TYPES
          : r.key === RESERVATION_ID_KEY
            ? undefined
            : ["true", "false"];
      // a bound: every reservation label is no number (nonNumericLabel), and Karpenter refuses every value that is no
      // integer once a bound is set (kubernetes-sigs/karpenter v1.15.0 pkg/scheduling/requirement.go:404-411 withinBounds)
      const bound = NUMERIC_OPERATORS.includes(r.operator) && nonNumericLabel(r.key) !== undefined;
      if (bound || r.operator === "DoesNotExist" || (r.operator === "NotIn" && every?.every((v) => values.includes(v))))
        excludes ??= at;
      continue;
    }
    if (!(defaulted && i === reqs.length - 1)) stated = true;
    if (r.operator === "In") narrow(at, (t) => values.includes(t));
    else if (r.operator === "NotIn") narrow(at, (t) => !values.includes(t));
    else if (r.operator !== "Exists") return; // DoesNotExist, Gt…: no capacity at all, the unsatisfiable rule's
  }
  for (const [key, value] of Object.entries(labels)) {
    if (!c.known(key)) return;
    if (key !== CAPACITY_TYPE_KEY && !RESERVATION_KEYS.includes(key)) continue;
    if (!c.known(value) || typeof value !== "string") return;
    const at = { field: entry("labels", key), value, shown: `label ${key}=${JSON.stringify(value)}` };
    if (key !== CAPACITY_TYPE_KEY) {
      needs ??= { ...at, reservation: true };
      if (key === RESERVATION_ID_KEY) wantedIds.push({ ...at, ids: [value] });
      continue;
    }
    stated = true;
    narrow(at, (t) => t === value);
  }
  if (needs) {
    if (!allowed.includes("reserved")) {
      c.fail(
        "NODEPOOL_RESERVATION_CAPACITY_TYPE",
        needs.field,
        needs.value,
        stated
          ? `a capacity type that has it: ${needs.shown} needs a capacity reservation's label, which only reserved offerings carry, and the pool's capacity types (${allowed.join(", ") || "none"}) leave out reserved, so no offering meets both and the pool launches nothing (${OFFERINGS_SOURCE}). Add reserved to ${CAPACITY_TYPE_KEY}, or drop this requirement`
          : `a pool that states ${CAPACITY_TYPE_KEY}: ${needs.shown} needs a capacity reservation's label, which only reserved offerings carry, and the pool names no capacity type, so the library adds its default ${CAPACITY_TYPE_KEY} In ["on-demand"], which no offering with that label meets: the pool would launch nothing (${OFFERINGS_SOURCE}). Add { key: "${CAPACITY_TYPE_KEY}", operator: "In", values: ["reserved"] }`,
      );
      return;
    }
    allowed = ["reserved"];
    narrowed ??= needs;
  }
  const reservedOnly = allowed.length === 1 && allowed[0] === "reserved";
  if (reservedOnly && excludes) {
    c.fail(
      "NODEPOOL_RESERVATION_EXCLUDED",
      excludes.field,
      excludes.value,
      `a requirement a reserved offering can meet: ${excludes.shown} rules out every reserved offering (each carries its reservation's id, type and interruptible label${NUMERIC_OPERATORS.includes((excludes.value as NodeSelectorRequirement).operator) ? ", none of them a number, so no bound matches" : ""}), and ${narrowed?.shown ?? "the pool"} leaves only reserved capacity, so no offering is left and the pool launches nothing (${OFFERINGS_SOURCE}). Drop this requirement, or allow on-demand too`,
    );
    return;
  }
  if (!nodeClass || !narrowed || allowed.length !== 1 || allowed[0] !== "reserved") return;
  const spec = nodeClass.spec;
  if (!isSet(spec) || c.token(spec) || typeof spec !== "object") return;
  const terms: unknown = spec.capacityReservationSelectorTerms;
  const cls = `EC2NodeClass ${nodeClass.name} (${nodeClass.path})`;
  if (!isSet(terms)) {
    const isLabel = narrowed.field.startsWith("labels[");
    c.fail(
      "NODEPOOL_RESERVED_WITHOUT_RESERVATIONS",
      narrowed.field,
      narrowed.value,
      `${isLabel ? "a label" : "a requirement"} its EC2NodeClass can offer: ${narrowed.shown} leaves only reserved capacity, and ${cls} has no capacityReservationSelectorTerms, so it selects no capacity reservation and Karpenter has no reserved offering for the pool: it launches nothing (aws/karpenter-provider-aws pkg/providers/instancetype/offering/reserved_capacity_resolver.go ResolveOfferings makes reserved offerings only for the reservations the class selects, nodeClass.CapacityReservations(); base_resolver.go makes none). Select the reservations in the class's capacityReservationSelectorTerms (by id or tags)${narrowed.reservation ? "" : `, or allow on-demand too (${CAPACITY_TYPE_KEY} In ["reserved", "on-demand"]: the pool then launches on-demand while the class selects no reservation)`}`,
    );
    return;
  }
  // the reservations the class selects, when it names them by literal id alone
  if (c.token(terms) || !Array.isArray(terms)) return;
  const classIds: string[] = [];
  for (const t of terms) {
    if (!isSet(t) || c.token(t) || typeof t !== "object") return;
    const keys = Object.keys(t).filter((k) => isSet((t as Record<string, unknown>)[k]));
    const id = (t as { id?: unknown }).id;
    if (keys.length !== 1 || keys[0] !== "id" || typeof id !== "string" || !c.known(id)) return;
    classIds.push(id);
  }
  for (const w of notIds) {
    if (!classIds.every((id) => w.ids.includes(id))) continue;
    c.fail(
      "NODEPOOL_RESERVATION_NOT_SELECTED",
      w.field,
      w.value,
      `a capacity reservation its EC2NodeClass selects (${classIds.map((id) => JSON.stringify(id)).join(", ")}) left in: ${w.shown} excludes every one of them, and ${cls} selects its reservations by these ids alone, while ${narrowed.shown} leaves only reserved capacity, so no offering is left and the pool launches nothing (${OFFERINGS_SOURCE}). Leave a selected reservation in, or allow on-demand too`,
    );
  }
  for (const w of wantedIds) {
    if (w.ids.some((id) => classIds.includes(id))) continue;
    c.fail(
      "NODEPOOL_RESERVATION_NOT_SELECTED",
      w.field,
      w.value,
      `a capacity reservation its EC2NodeClass selects (${classIds.map((id) => JSON.stringify(id)).join(", ")}): ${w.shown} names none of them, and ${cls} selects its reservations by these ids alone, so Karpenter has no reserved offering with the id the pool asks for and it launches nothing (${OFFERINGS_SOURCE}). Name a selected reservation, or select this one in the class's capacityReservationSelectorTerms`,
    );
  }
}
