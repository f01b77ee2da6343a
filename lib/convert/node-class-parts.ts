import { lookupTable } from "../core/lookup";
import {
  AmiFamily,
  AmiSelectorTerm,
  BlockDeviceMapping,
  KubeletConfiguration,
  MetadataOptions,
  VolumeType,
} from "../nodes/ec2-node-class-spec";
import { aliasFamilyOf } from "../nodes/ec2-node-class-rules";
import { LAST_KUBERNETES_MINOR_OF_AMI_FAMILY, pinnedAliasExample } from "../nodes/node-semantic-rules";
import { Fields, noteValue, ObjectContext, Path } from "./fields";
import { crdFreeFormSince, newestPatchOf } from "../versions";
import { KarpenterVersion } from "../versions/karpenter-version";

/*
 * Pieces shared by the AWSNodeTemplate, v1beta1 and v1 EC2NodeClass readers: kubelet, block
 * devices, metadata options, AMI family → alias, and the v1alpha1 selector maps.
 */

/**
 * Reads a kubelet configuration (v1alpha5 `kubeletConfiguration`, v1beta1 NodePool `kubelet`,
 * v1 EC2NodeClass `kubelet`). `containerRuntime` (v1alpha5 only) was dropped in v1beta1.
 * Reserved-resource quantities written as numbers become strings (the v1 field is a string map). A
 * `maxPods` that is a CEL expression (a v1 EC2NodeClass of Karpenter 1.15+) becomes `maxPodsExpression`,
 * the prop the constructs emit as `kubelet.maxPods`; a number in quotes (`"110"`) is refused as before.
 * Any other key is a KubeletConfiguration field the EC2NodeClass CRD takes as written from the release
 * that made `kubelet` free-form (generated data: 1.15, AL2023 and Custom only): carried over when `target` is
 * that release or later (the construct then judges the AMI family); before it, noted as needing that release.
 */
export function readKubelet(
  ctx: ObjectContext,
  f: Fields,
  key: string,
  target?: KarpenterVersion,
): KubeletConfiguration | undefined {
  const k = f.obj(key, "a kubelet configuration");
  if (!k) return undefined;
  if (k.has("containerRuntime")) {
    ctx.note(
      "action",
      k.at("containerRuntime"),
      `containerRuntime "${k.raw("containerRuntime")}" was dropped in v1beta1: EKS 1.24+ runs containerd only; not converted`,
    );
  }
  const reserved = (name: string) => k.quantityMap(name);
  const maxPods = k.peek("maxPods");
  const expression = typeof maxPods === "string" && !/^\s*\d+\s*$/.test(maxPods) ? k.str("maxPods") : undefined;
  if (expression !== undefined)
    ctx.note(
      "info",
      k.at("maxPods"),
      `the CEL expression ${JSON.stringify(expression)} is the prop kubelet.maxPodsExpression (emitted as kubelet.maxPods; Karpenter 1.15+ with settings.awsFeatureGates.nodeClassCEL)`,
    );
  const out: KubeletConfiguration = {
    clusterDNS: k.strList("clusterDNS"),
    cpuCFSQuota: k.bool("cpuCFSQuota"),
    evictionHard: k.strMap("evictionHard"),
    evictionMaxPodGracePeriod: k.int("evictionMaxPodGracePeriod"),
    evictionSoft: k.strMap("evictionSoft"),
    evictionSoftGracePeriod: k.strMap("evictionSoftGracePeriod"),
    imageGCHighThresholdPercent: k.int("imageGCHighThresholdPercent"),
    imageGCLowThresholdPercent: k.int("imageGCLowThresholdPercent"),
    kubeReserved: reserved("kubeReserved"),
    maxPods: expression === undefined ? k.int("maxPods") : undefined,
    maxPodsExpression: expression,
    podsPerCore: k.int("podsPerCore"),
    systemReserved: reserved("systemReserved"),
  };
  return defined({ ...out, ...freeFormKubelet(ctx, k, target) });
}

/** The kubelet keys no typed reader took (see {@link readKubelet}), carried over as written or noted. */
function freeFormKubelet(ctx: ObjectContext, k: Fields, target?: KarpenterVersion): Record<string, unknown> {
  const since = crdFreeFormSince("ec2NodeClass", "spec.kubelet");
  const rest = k.unused().filter((key) => key !== "containerRuntime");
  if (target === undefined || since === undefined || rest.length === 0) return {};
  if (!target.atLeast(since)) {
    for (const key of rest)
      ctx.note(
        "action",
        k.at(key),
        `not converted: Karpenter ${target.full} types kubelet to 12 fields; any other KubeletConfiguration field needs Karpenter ${since} or later (EC2NodeClass CRD: kubelet takes every field from ${since}, AL2023 and Custom only); value was ${noteValue(k.peek(key))}. Convert with --karpenter-version ${newestPatchOf(since) ?? `${since}.0`} (or another ${since}+ release) to keep it, on an AL2023 or Custom class`,
      );
    k.consume(...rest);
    return {};
  }
  const carried: Record<string, unknown> = {};
  for (const key of rest) {
    carried[key] = k.raw(key);
    ctx.note(
      "info",
      k.at(key),
      `carried over as written: a free-form KubeletConfiguration field, which the EC2NodeClass CRD takes from Karpenter ${since} (AL2023 and Custom only; the construct checks its name, JSON type and AMI family as Karpenter does)`,
    );
  }
  return carried;
}

/** Reads `blockDeviceMappings[]`; `rootVolume` exists from v1beta1, `volumeInitializationRate` in v1. */
export function readBlockDevices(
  ctx: ObjectContext,
  f: Fields,
  key: string,
  since: "v1alpha1" | "v1beta1" | "v1",
): BlockDeviceMapping[] | undefined {
  return f.objects(key, "a block device mapping { deviceName, ebs }")?.map((m) => {
    const e = m.obj("ebs", "an EBS volume");
    const ebs = e && {
      deleteOnTermination: e.bool("deleteOnTermination"),
      encrypted: e.bool("encrypted"),
      iops: e.int("iops"),
      kmsKeyID: e.str("kmsKeyID"),
      snapshotID: e.str("snapshotID"),
      throughput: e.int("throughput"),
      volumeInitializationRate: since === "v1" ? e.int("volumeInitializationRate") : undefined,
      volumeSize: volumeSize(ctx, e),
      volumeType: e.str("volumeType") as VolumeType | undefined,
    };
    return defined({
      deviceName: m.str("deviceName"),
      ebs: ebs && defined(ebs),
      rootVolume: since === "v1alpha1" ? undefined : m.bool("rootVolume"),
    });
  });
}

const BINARY: { readonly [suffix: string]: number } = lookupTable({
  "": 1,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
});
const DECIMAL: { readonly [suffix: string]: number } = lookupTable({ k: 1e3, M: 1e6, G: 1e9, T: 1e12 });

/**
 * A legacy volume size (any Kubernetes quantity) in the units v1 accepts (`Gi`, `G`, `Ti`, `T`):
 * bytes or Ki/Mi/k/M sizes that are a whole number of GiB / GB are rewritten (with a note); others
 * are kept for validation to report.
 */
function volumeSize(ctx: ObjectContext, e: Fields): string | undefined {
  const raw = e.raw("volumeSize");
  if (raw === undefined) return undefined;
  if (typeof raw !== "string" && !(typeof raw === "number" && Number.isSafeInteger(raw)))
    e.fail("CONVERT_QUANTITY", "volumeSize", raw, 'a size such as "100Gi"');
  const text = String(raw);
  const m = /^([0-9]+)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(text);
  if (!m || ["Gi", "G", "Ti", "T"].includes(m[2] ?? "-")) return text;
  const suffix = m[2] ?? "";
  const bytes = Number(m[1]) * (BINARY[suffix] ?? DECIMAL[suffix]);
  const converted = bytes % 2 ** 30 === 0 ? `${bytes / 2 ** 30}Gi` : bytes % 1e9 === 0 ? `${bytes / 1e9}G` : undefined;
  if (converted === undefined || !Number.isSafeInteger(bytes)) return text;
  ctx.note(
    "info",
    e.at("volumeSize"),
    `volumeSize ${JSON.stringify(raw)} written as "${converted}" (v1 accepts only Gi, G, Ti and T sizes)`,
  );
  return converted;
}

/** Reads `metadataOptions`. */
export function readMetadataOptions(f: Fields, key: string): MetadataOptions | undefined {
  const m = f.obj(key, "metadata options");
  return (
    m &&
    defined({
      httpEndpoint: m.str("httpEndpoint") as MetadataOptions["httpEndpoint"],
      httpProtocolIPv6: m.str("httpProtocolIPv6") as MetadataOptions["httpProtocolIPv6"],
      httpPutResponseHopLimit: m.int("httpPutResponseHopLimit"),
      httpTokens: m.str("httpTokens") as MetadataOptions["httpTokens"],
    })
  );
}

/**
 * Notes the IMDS hop-limit default change when a pre-v1 object did not set it: 2 before v1,
 * 1 in v1 (v1 migration guide, "New MetadataOptions Defaults").
 */
export function noteHopLimitDefault(ctx: ObjectContext, options: MetadataOptions | undefined, at: Path): void {
  if (options?.httpPutResponseHopLimit !== undefined) return;
  ctx.note(
    "info",
    at,
    "metadataOptions.httpPutResponseHopLimit was not set: its default was 2 before v1 and is 1 in v1, which keeps pods without hostNetwork from reaching the instance metadata service (IMDS); set httpPutResponseHopLimit: 2 if such pods need IMDS",
  );
}

/** The parts of a v1alpha1 selector map: `aws::ids`, `aws::name`, `aws::owners` and tag sets. */
interface LegacySelector {
  readonly ids: string[];
  readonly names: string[];
  readonly owners: string[];
  /** Every combination of the comma-separated tag values (one tag map per combination). */
  readonly tagSets: { [k: string]: string }[];
}

/** Special keys of v1alpha1 selectors (karpenter.sh v0.31 node templates docs). */
const ID_KEYS = ["aws::ids", "aws-ids"];

/**
 * Splits a v1alpha1 selector map the way upstream `karpenter-convert` did: keys in sorted order,
 * values split at commas and trimmed; `aws::ids` / `aws-ids` → ids, `aws::name` / `aws::owners`
 * (AMI selectors only) → names / owners, other keys → tags, one tag map per combination of values.
 */
function splitLegacySelector(
  ctx: ObjectContext,
  selector: { [k: string]: string },
  at: Path,
  ami: boolean,
): LegacySelector {
  const out: LegacySelector = { ids: [], names: [], owners: [], tagSets: [] };
  let tagSets: { [k: string]: string }[] = [{}];
  for (const key of Object.keys(selector).sort()) {
    const raw = selector[key].split(",").map((s) => s.trim());
    const values = raw.filter((s) => s !== "");
    if (values.length !== raw.length)
      ctx.note(
        "info",
        [...at, key],
        `empty entries of the comma-separated value ${noteValue(selector[key])} were left out`,
      );
    if (values.length === 0) {
      ctx.note("action", [...at, key], `selector key ${key} has no value: not converted`);
      continue;
    }
    if (ID_KEYS.includes(key)) out.ids.push(...values);
    else if (ami && key === "aws::name") out.names.push(...values);
    else if (ami && key === "aws::owners") out.owners.push(...values);
    else {
      if (/^aws[:-]/.test(key))
        ctx.note(
          "action",
          [...at, key],
          `${key} is not a special key of this selector and was converted as a tag key, which never matches (AWS reserves tag keys starting with "aws:"): replace it`,
        );
      // value-major, as upstream karpenter-convert orders the terms
      tagSets = values.flatMap((v) => tagSets.map((set) => ({ ...set, [key]: v })));
    }
  }
  if (tagSets.some((s) => Object.keys(s).length > 0)) out.tagSets.push(...tagSets);
  return out;
}

/**
 * A v1alpha1 `subnetSelector` / `securityGroupSelector` map → v1 terms: one `id` term per ID, else
 * one `tags` term per combination of comma-separated values. IDs combined with tags (both had
 * to match in v1alpha1) cannot be one v1 term: the IDs are kept and the tags noted.
 */
export function legacyIdTagTerms(
  ctx: ObjectContext,
  selector: { [k: string]: string },
  at: Path,
): { id?: string; tags?: { [k: string]: string } }[] | undefined {
  const s = splitLegacySelector(ctx, selector, at, false);
  if (s.ids.length > 0) {
    if (s.tagSets.length > 0) {
      ctx.note(
        "action",
        at,
        `combines IDs with tags (v1alpha1: both had to match); a v1 term with an id takes no tags, so only the IDs were converted: this may select more than before (dropped tags: ${noteValue(s.tagSets)})`,
      );
    }
    return s.ids.map((id) => ({ id }));
  }
  return s.tagSets.length > 0 ? s.tagSets.map((tags) => ({ tags })) : undefined;
}

/**
 * A v1alpha1 `amiSelector` map → v1 terms: one `id` term per ID; else one term per combination
 * of owner × name × tag values (v1beta1 migration guide, "AMISelector").
 */
export function legacyAmiTerms(
  ctx: ObjectContext,
  selector: { [k: string]: string },
  at: Path,
): AmiSelectorTerm[] | undefined {
  const s = splitLegacySelector(ctx, selector, at, true);
  if (s.ids.length > 0) {
    if (s.names.length + s.owners.length + s.tagSets.length > 0) {
      ctx.note(
        "action",
        at,
        "combines aws::ids with other keys (v1alpha1: all had to match); a v1 term with an id takes no other field, so only the IDs were converted",
      );
    }
    return s.ids.map((id) => ({ id }));
  }
  if (s.tagSets.length > 0) {
    ctx.note(
      "info",
      at,
      "AMI tags now only select AMIs: v0.31's tag-based AMI requirements (AMI tags acting as scheduling requirements) are gone in v1beta1 and later; use one EC2NodeClass per AMI constraint",
    );
  }
  const owners = s.owners.length > 0 ? s.owners : [undefined];
  const names = s.names.length > 0 ? s.names : [undefined];
  const tagSets = s.tagSets.length > 0 ? s.tagSets : [undefined];
  const terms: AmiSelectorTerm[] = [];
  for (const owner of owners)
    for (const name of names) for (const tags of tagSets) terms.push(defined({ name, owner, tags }));
  if (s.names.length === 0 && s.tagSets.length === 0 && s.owners.length > 0) {
    ctx.invalid(
      at,
      "selects AMIs by aws::owners alone; a v1 AMI selector term needs a name, tags, an id, an alias or an ssmParameter besides the owner: add one",
    );
  }
  return terms.length > 0 && Object.keys(terms[0]).length > 0 ? terms : undefined;
}

/**
 * Notes what v1 does with `amiFamily` (v1 migration guide: "AMISelectorTerms are required"; Ubuntu
 * dropped) and returns the v1 amiFamily and amiSelectorTerms:
 * - a family with an alias and no terms → `[{ alias: "<family>@latest" }]`, amiFamily dropped;
 * - terms given → kept with the family (Ubuntu → AL2, the same user-data format);
 * - Custom without terms → no terms (v1 and the Ec2NodeClass construct reject it: a note says so);
 * - Ubuntu without terms → an empty terms list, a placeholder that v1 rejects until filled in.
 */
export function amiChoice(
  ctx: ObjectContext,
  family: string,
  terms: AmiSelectorTerm[] | undefined,
  at: Path,
): { amiFamily?: AmiFamily; amiSelectorTerms?: AmiSelectorTerm[] } {
  const alias = aliasFamilyOf(family);
  if (family === "Ubuntu") {
    if (terms) {
      ctx.note(
        "action",
        at,
        "amiFamily Ubuntu was dropped in v1: converted to AL2 (same user-data format) with the given AMI selector terms, as the upstream v1 conversion does; Ubuntu compatibility is not guaranteed long-term, consider amiFamily Custom with your own user data",
      );
    } else {
      ctx.invalid(
        at,
        "amiFamily Ubuntu was dropped in v1 and has no alias: amiFamily is AL2 (same user-data format) and amiSelectorTerms is an empty placeholder that v1 rejects: add terms selecting your Ubuntu AMIs (id, name/owner or tags)",
      );
    }
    return { amiFamily: "AL2", amiSelectorTerms: terms ?? [] };
  }
  if (terms) return { amiFamily: family as AmiFamily, amiSelectorTerms: terms };
  if (alias) {
    ctx.note(
      "info",
      at,
      `amiFamily ${family} without AMI selector terms is the alias "${alias}@latest" in v1 (the family's newest EKS-optimized AMI, as before); ${pinAdvice(alias, family)}: latest replaces every node when AWS publishes an AMI`,
    );
    const last = LAST_KUBERNETES_MINOR_OF_AMI_FAMILY[family];
    if (last !== undefined)
      ctx.note(
        "info",
        at,
        `${family} EKS-optimized AMIs are not published for Kubernetes 1.${last + 1} and later: plan a move to al2023 or bottlerocket`,
      );
    return { amiSelectorTerms: [{ alias: `${alias}@latest` }] };
  }
  ctx.invalid(
    at,
    family === "Custom"
      ? "amiFamily Custom needs amiSelectorTerms in v1 (none given): add terms selecting your AMIs; the EC2NodeClass is rejected until then"
      : `amiFamily ${family} is not a v1 AMI family and has no alias: set amiFamily and amiSelectorTerms`,
  );
  return { amiFamily: family as AmiFamily };
}

/** Notes user data changes of v1 (v1 migration guide, "Behavior Changes" and "New Registration Taint"). */
export function noteUserData(
  ctx: ObjectContext,
  userData: string | undefined,
  amiFamily: string | undefined,
  at: Path,
): void {
  if (userData === undefined) return;
  if (amiFamily === "Custom") {
    ctx.note(
      "action",
      at,
      "amiFamily Custom: from v1 on, the user data must register the kubelet with the taint karpenter.sh/unregistered:NoExecute (Karpenter removes it); nodes that do not are never initialized",
    );
  } else if (amiFamily === "AL2023") {
    ctx.note(
      "info",
      at,
      "with AL2023, the NodeConfig Karpenter generates takes precedence over the user data's in v1: set kubelet values through the EC2NodeClass kubelet field",
    );
  }
}

/** A copy of `obj` without its undefined fields. */
export function defined<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Reads v1beta1 / v1 selector terms: each term's string fields among `fields` and its `tags`
 * map. Other keys of a term are noted as not converted.
 */
export function readTerms<T>(f: Fields, key: string, fields: readonly string[]): T[] | undefined {
  return f.objects(key, "a selector term")?.map((t) => {
    const term: { [k: string]: unknown } = {};
    for (const name of fields) term[name] = t.str(name);
    term.tags = t.strMap("tags");
    return defined(term) as T;
  });
}

/**
 * Notes the fields a v1 EC2NodeClass requires that a v1beta1 / v1 input lacks, and what the
 * Ec2NodeClass construct puts there instead (`checkAmi`: false when {@link amiChoice} already
 * decided the AMI terms).
 */
export function noteMissingClassFields(
  ctx: ObjectContext,
  p: {
    role?: string;
    instanceProfile?: string;
    amiSelectorTerms?: unknown[];
    subnetSelectorTerms?: unknown[];
    securityGroupSelectorTerms?: unknown[];
  },
  checkAmi: boolean,
): void {
  if (p.role === undefined && p.instanceProfile === undefined) {
    ctx.invalid(
      "spec.role",
      "neither role nor instanceProfile: v1 requires one (the Ec2NodeClass construct defaults role to the installation's node role)",
    );
  }
  if (checkAmi && p.amiSelectorTerms === undefined) {
    ctx.invalid(
      "spec.amiSelectorTerms",
      'no amiSelectorTerms: v1 requires them (the Ec2NodeClass construct defaults them to the alias of amiFamily, or "al2023@latest")',
    );
  }
  for (const key of ["subnetSelectorTerms", "securityGroupSelectorTerms"] as const) {
    if (p[key] === undefined)
      ctx.invalid(
        `spec.${key}`,
        `no ${key}: v1 requires them (the Ec2NodeClass construct defaults them to the cluster's karpenter.sh/discovery tag)`,
      );
  }
}

/**
 * How to pin the AMI of an alias family: a version the EC2NodeClass rules accept (`pinnedAliasExample`:
 * a Bottlerocket release is vX.Y.Z, not an EKS AMI date), or for Windows, whose aliases take `latest`
 * only (EC2NodeClass CRD), an AMI selected by id.
 */
function pinAdvice(alias: string, family: string): string {
  const pinned = pinnedAliasExample(alias);
  return pinned
    ? `pin a version (e.g. "${pinned}") in production`
    : `${alias} aliases take no version but latest, so in production pin the AMI by id instead (amiSelectorTerms: [{ id: "ami-…" }] with amiFamily ${family})`;
}
