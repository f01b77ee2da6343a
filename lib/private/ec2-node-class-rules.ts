import { AmiSelectorTerm, BlockDeviceMapping, Ec2NodeClassOptions, KubeletConfiguration, NetworkInterface } from "../ec2-node-class-spec";
import { KarpenterVersion } from "./version";
import { Checker, GO_DURATION, isSet, QUANTITY } from "./k8s-rules";
import { EC2NODECLASS_FIELDS_SINCE, ENUM_VALUES_SINCE } from "./crd-history";

/*
 * Every rule of the karpenter.k8s.aws/v1 EC2NodeClass CRD (v1.0 … v1.14) that needs no cluster
 * state: OpenAPI types, enums, patterns, lengths, item counts, and each x-kubernetes-validations
 * CEL rule except the transition rules (oldSelf). Where a CEL rule is written for the whole list
 * but its message describes each term ("'id' is mutually exclusive, cannot be set with a
 * combination of other fields in a subnet selector term"), each term is checked. ID patterns
 * are anchored (the CRD's `ami-[0-9a-z]+` would also accept `xami-1`).
 */

const AMI_FAMILIES = ["AL2", "AL2023", "Bottlerocket", "Custom", "Windows2019", "Windows2022", "Windows2025"] as const;
/** Alias family → the amiFamily it implies. */
const ALIAS_FAMILIES: { readonly [family: string]: string } = {
  al2: "AL2",
  al2023: "AL2023",
  bottlerocket: "Bottlerocket",
  windows2019: "Windows2019",
  windows2022: "Windows2022",
  windows2025: "Windows2025",
};
/**
 * The alias family of an amiFamily's EKS-optimized AMIs (`"AL2023"` → `"al2023"`, for
 * `al2023@latest`), or undefined for Custom and unknown families, which have no alias.
 */
export function aliasFamilyOf(amiFamily: string): string | undefined {
  return Object.keys(ALIAS_FAMILIES).find((alias) => ALIAS_FAMILIES[alias] === amiFamily);
}
const WINDOWS_ALIASES = ["windows2019", "windows2022", "windows2025"];
const VOLUME_TYPES = ["standard", "io1", "io2", "gp2", "sc1", "st1", "gp3"] as const;
/** `volumeSize`: 1–59000Gi, 1–64000G, 1–58Ti or 1–64T (the CRD pattern, with its empty alternatives dropped). */
const VOLUME_SIZE = /^((?:[1-9][0-9]{0,3}|[1-4][0-9]{4}|[5][0-8][0-9]{3}|59000)Gi|(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|[6][0-3][0-9]{3}|64000)G|([1-9]|[1-5][0-7]|58)Ti|([1-9]|[1-5][0-9]|6[0-3]|64)T)$/;
const EVICTION_SIGNALS = ["memory.available", "nodefs.available", "nodefs.inodesFree", "imagefs.available", "imagefs.inodesFree", "pid.available"] as const;
/** Eviction thresholds: a percentage (≤ 100 with ≤ 2 decimals) or a quantity. */
const EVICTION_VALUE = /^((\d{1,2}(\.\d{1,2})?|100(\.0{1,2})?)%|(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?)$/;
const RESERVED_RESOURCES = ["cpu", "memory", "ephemeral-storage", "pid"] as const;
const INT32_MAX = 2147483647;

/** Tag keys Karpenter sets itself, as (test, message) pairs of the CRD. */
const RESTRICTED_TAGS: readonly [(k: string) => boolean, string][] = [
  [(k) => k === "", "empty tag keys aren't supported"],
  [(k) => k === "eks:eks-cluster-name", "tag contains a restricted tag matching eks:eks-cluster-name"],
  [(k) => k.startsWith("kubernetes.io/cluster"), "tag contains a restricted tag matching kubernetes.io/cluster/"],
  [(k) => k === "karpenter.sh/nodepool", "tag contains a restricted tag matching karpenter.sh/nodepool"],
  [(k) => k === "karpenter.sh/nodeclaim", "tag contains a restricted tag matching karpenter.sh/nodeclaim"],
  [(k) => k === "karpenter.k8s.aws/ec2nodeclass", "tag contains a restricted tag matching karpenter.k8s.aws/ec2nodeclass"],
];

const since = (path: string): string => EC2NODECLASS_FIELDS_SINCE[path];

/**
 * Checks EC2NodeClass props after defaults (role, selector terms) for Karpenter version `v`.
 * A throwing checker stops at the first problem; a collecting one records one problem per
 * independent field, list item and map entry.
 */
export function checkEc2NodeClass(c: Checker, v: KarpenterVersion, p: Ec2NodeClassOptions, name: string): void {
  c.guard(() => c.dnsName("name", name));

  c.guard(() => {
    if (isSet(p.role) && isSet(p.instanceProfile)) {
      c.fail("instanceProfile", p.instanceProfile, `must specify exactly one of ['role', 'instanceProfile']: role ${JSON.stringify(p.role)} is set too; give only one (with a role, Karpenter creates and manages the instance profile)`);
    }
    if (!isSet(p.role) && !isSet(p.instanceProfile)) c.fail("role", undefined, "must specify exactly one of ['role', 'instanceProfile'] (without `karpenter`, give `role` — the Karpenter node role — or `instanceProfile`)");
    c.str("role", p.role, { nonEmpty: true });
    c.str("instanceProfile", p.instanceProfile, { nonEmpty: true });
  });

  c.guard(() => {
    c.oneOf("amiFamily", p.amiFamily, AMI_FAMILIES);
    if (c.known(p.amiFamily)) {
      const s = ENUM_VALUES_SINCE[`spec.amiFamily=${p.amiFamily}`];
      if (s) c.since("amiFamily", p.amiFamily, s, `amiFamily ${p.amiFamily}`);
    }
  });
  checkAmiTerms(c, v, p.amiSelectorTerms, p.amiFamily);

  checkIdTagTerms(c, "subnetSelectorTerms", p.subnetSelectorTerms, { id: /^subnet-[0-9a-z]+$/, idText: "a subnet ID such as subnet-0123abcd", others: ["tags"] });
  checkIdTagTerms(c, "securityGroupSelectorTerms", p.securityGroupSelectorTerms, { id: /^sg-[0-9a-z]+$/, idText: "a security group ID such as sg-0123abcd", others: ["tags", "name"] });
  checkCapacityReservationTerms(c, p);

  c.guard(() => c.bool("associatePublicIPAddress", p.associatePublicIPAddress));
  c.guard(() => c.bool("detailedMonitoring", p.detailedMonitoring));
  c.guard(() => c.str("context", p.context));
  c.guard(() => c.str("userData", p.userData));
  c.guard(() => c.oneOf("instanceStorePolicy", p.instanceStorePolicy, ["RAID0"]));
  c.guard(() => {
    c.since("ipPrefixCount", p.ipPrefixCount, since("spec.ipPrefixCount"), "ipPrefixCount");
    c.int("ipPrefixCount", p.ipPrefixCount, 0, INT32_MAX);
  });

  checkBlockDevices(c, p.blockDeviceMappings);
  checkKubelet(c, p.kubelet);
  c.guard(() => checkMetadataOptions(c, p));
  c.guard(() => checkNetworkInterfaces(c, p.networkInterfaces));
  c.guard(() => checkPlacementGroup(c, p));
  c.guard(() => checkConnectionTracking(c, p));
  c.guard(() => {
    c.since("cpuOptions", p.cpuOptions, since("spec.cpuOptions"), "cpuOptions");
    if (!isSet(p.cpuOptions) || c.token(p.cpuOptions)) return;
    c.fields("cpuOptions", p.cpuOptions, ["nestedVirtualization"], "cpuOptions");
    c.oneOf("cpuOptions.nestedVirtualization", p.cpuOptions.nestedVirtualization, ["enabled", "disabled"]);
  });

  let tags: [string, string][] = [];
  c.guard(() => {
    tags = c.map("tags", p.tags);
  });
  for (const [k, val] of tags) {
    c.guard(() => {
      if (c.known(k)) for (const [test, message] of RESTRICTED_TAGS) if (test(k)) c.fail("tags", k, `a tag key Karpenter does not set itself: ${message}`);
      c.str(`tags[${JSON.stringify(k)}]`, val);
    });
  }
}

/** Capacity reservation terms (Karpenter 1.3+): optional, but when given at least one term (the CRD's rules fail on an empty list). */
function checkCapacityReservationTerms(c: Checker, p: Ec2NodeClassOptions): void {
  const terms = p.capacityReservationSelectorTerms;
  if (!isSet(terms)) return;
  c.guard(() => c.since("capacityReservationSelectorTerms", terms, since("spec.capacityReservationSelectorTerms"), "capacityReservationSelectorTerms"));
  if (!c.version.atLeast(since("spec.capacityReservationSelectorTerms"))) return;
  checkIdTagTerms(c, "capacityReservationSelectorTerms", terms, { id: /^cr-[0-9a-z]+$/, idText: "a capacity reservation ID such as cr-0123abcd", others: ["tags", "ownerID", "instanceMatchCriteria"], empty: "leave capacityReservationSelectorTerms unset to use no capacity reservation" });
  if (c.token(terms) || !Array.isArray(terms)) return;
  terms.forEach((t, i) => {
    if (!isSet(t) || c.token(t) || typeof t !== "object") return;
    c.guard(() => c.pattern(`capacityReservationSelectorTerms[${i}].ownerID`, t.ownerID, /^[0-9]{12}$/, "a 12-digit AWS account ID"));
    c.guard(() => {
      c.since(`capacityReservationSelectorTerms[${i}].instanceMatchCriteria`, t.instanceMatchCriteria, since("spec.capacityReservationSelectorTerms[].instanceMatchCriteria"), "instanceMatchCriteria");
      c.oneOf(`capacityReservationSelectorTerms[${i}].instanceMatchCriteria`, t.instanceMatchCriteria, ["open", "targeted"]);
    });
  });
}

function checkAmiTerms(c: Checker, v: KarpenterVersion, terms: AmiSelectorTerm[] | undefined, amiFamily: string | undefined): void {
  let list: AmiSelectorTerm[] | undefined;
  c.guard(() => {
    if (!isSet(terms)) c.fail("amiSelectorTerms", terms, "1 to 30 AMI selector terms (required)");
    list = c.list("amiSelectorTerms", terms, 1, 30);
  });
  if (!list) return;
  const known = list;
  const fields = v.atLeast(since("spec.amiSelectorTerms[].ssmParameter")) ? ["tags", "id", "name", "alias", "ssmParameter"] : ["tags", "id", "name", "alias"];
  let aliasFamily: string | undefined;
  known.forEach((t, i) =>
    c.guard(() => {
      const at = `amiSelectorTerms[${i}]`;
      if (c.token(t)) return;
      c.fields(at, t, ["alias", "id", "name", "owner", "ssmParameter", "tags"], "an AMI selector term");
      c.since(`${at}.ssmParameter`, t.ssmParameter, since("spec.amiSelectorTerms[].ssmParameter"), "ssmParameter");
      if (!fields.some((f) => isSet((t as Record<string, unknown>)[f]))) c.fail(at, t, `expected at least one, got none, [${fields.map((f) => `'${f}'`).join(", ")}]`);
      if (isSet(t.id) && (isSet(t.alias) || isSet(t.tags) || isSet(t.name) || isSet(t.owner))) c.fail(`${at}.id`, t.id, "'id' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms");
      if (isSet(t.alias) && (isSet(t.id) || isSet(t.tags) || isSet(t.name) || isSet(t.owner))) c.fail(`${at}.alias`, t.alias, "'alias' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms");
      if (isSet(t.alias) && known.length !== 1) c.fail(`${at}.alias`, t.alias, "'alias' is mutually exclusive, cannot be set with a combination of other amiSelectorTerms (use one term with only the alias)");
      c.pattern(`${at}.id`, t.id, /^ami-[0-9a-z]+$/, "an AMI ID such as ami-0123456789abcdef0");
      c.str(`${at}.name`, t.name);
      c.str(`${at}.owner`, t.owner);
      c.str(`${at}.ssmParameter`, t.ssmParameter);
      checkSelectorTags(c, `${at}.tags`, t.tags);
      if (c.known(t.alias)) aliasFamily = checkAlias(c, v, `${at}.alias`, t.alias);
    }),
  );
  c.guard(() => {
    if (c.known(amiFamily)) {
      if (aliasFamily !== undefined) {
        const implied = ALIAS_FAMILIES[aliasFamily];
        if (amiFamily !== implied && amiFamily !== "Custom") c.fail("amiFamily", amiFamily, `if set, amiFamily must be '${implied}' or 'Custom' when using ${/^[aeiou]/i.test(implied) ? "an" : "a"} ${implied} alias`);
      }
    } else if (!isSet(amiFamily) && !known.some((t) => isSet(t) && isSet(t.alias))) {
      c.fail("amiFamily", amiFamily, `must specify amiFamily if amiSelectorTerms does not contain an alias (one of ${AMI_FAMILIES.join(", ")})`);
    }
  });
}

/** Checks an alias and returns its family (lowercase). */
function checkAlias(c: Checker, v: KarpenterVersion, field: string, alias: string): string {
  c.str(field, alias, { maxLength: 30 });
  if (!/^[a-zA-Z0-9]+@.+$/.test(alias)) c.fail(field, alias, "'alias' is improperly formatted, must match the format 'family@version' (e.g. al2023@latest or al2023@v20250101)");
  const [family, version] = alias.split("@");
  const families = Object.keys(ALIAS_FAMILIES).filter((f) => f !== "windows2025" || v.atLeast(ENUM_VALUES_SINCE["spec.amiSelectorTerms[].alias=windows2025"]));
  if (family === "windows2025") c.since(field, alias, ENUM_VALUES_SINCE["spec.amiSelectorTerms[].alias=windows2025"], "the windows2025 alias family");
  if (!families.includes(family)) c.fail(field, alias, `family is not supported, must be one of the following: ${families.map((f) => `'${f}'`).join(", ")}`);
  if (WINDOWS_ALIASES.includes(family) && version !== "latest") c.fail(field, alias, "windows families may only specify version 'latest'");
  return family;
}

/** Selector term tags: ≤ 20, no empty keys or values. */
function checkSelectorTags(c: Checker, field: string, tags: { [k: string]: string } | undefined): void {
  for (const [k, val] of c.map(field, tags, 20)) {
    if (c.known(k) && k === "") c.fail(field, k, "a tag key: empty tag keys or values aren't supported");
    if (c.known(val) && val === "") c.fail(`${field}[${JSON.stringify(k)}]`, val, "empty tag keys or values aren't supported ('*' selects any value)");
  }
}

/** The fields of subnet, security group and capacity reservation terms that {@link checkIdTagTerms} reads by name. */
interface IdTagTerm {
  readonly id?: string;
  readonly name?: string;
  readonly tags?: { [k: string]: string };
}

interface TermRules {
  readonly id: RegExp;
  readonly idText: string;
  /** Fields a term may use instead of `id`; `id` excludes all of them. */
  readonly others: readonly string[];
  /** For optional term lists: what to do instead of an empty list. @default unset: the list is required */
  readonly empty?: string;
}

/**
 * Subnet, security group and capacity reservation terms: `id` alone, or the other fields. The
 * list may never be empty: the CRD says so for subnets and security groups ("… cannot be
 * empty"), and for capacity reservations its `!self.all(…)` rule fails on an empty list with a
 * message about 'id'.
 */
function checkIdTagTerms(c: Checker, field: string, terms: IdTagTerm[] | undefined, rules: TermRules): void {
  let list: IdTagTerm[] | undefined;
  c.guard(() => {
    if (!isSet(terms) && rules.empty === undefined) c.fail(field, terms, `1 to 30 terms (required; ${field} cannot be empty)`);
    if (c.known(terms) && Array.isArray(terms) && terms.length === 0) c.fail(field, terms, `1 to 30 terms: ${field} cannot be empty${rules.empty ? ` (${rules.empty})` : ""}`);
    list = c.list(field, terms, 1, 30);
  });
  list?.forEach((t, i) =>
    c.guard(() => {
      const at = `${field}[${i}]`;
      if (c.token(t)) return;
      const all = ["id", ...rules.others];
      c.fields(at, t, all, `a ${field} term`);
      const fieldOf = (f: string) => (t as Record<string, unknown>)[f];
      const required = field === "capacityReservationSelectorTerms" ? ["tags", "id", "instanceMatchCriteria"] : all;
      if (!required.some((f) => isSet(fieldOf(f)))) c.fail(at, t, `expected at least one, got none, [${required.map((f) => `'${f}'`).join(", ")}]`);
      if (isSet(t.id) && rules.others.some((f) => isSet(fieldOf(f)))) c.fail(`${at}.id`, t.id, `'id' is mutually exclusive, cannot be set with a combination of other fields (${rules.others.join(", ")}) in a term of ${field}`);
      if (isSet(t.name) && rules.others.includes("name") && (isSet(t.tags) || isSet(t.id))) c.fail(`${at}.name`, t.name, `'name' is mutually exclusive, cannot be set with a combination of other fields in a term of ${field}`);
      c.pattern(`${at}.id`, t.id, rules.id, rules.idText);
      if (rules.others.includes("name")) c.str(`${at}.name`, t.name);
      checkSelectorTags(c, `${at}.tags`, t.tags);
    }),
  );
}

function checkBlockDevices(c: Checker, bdms: BlockDeviceMapping[] | undefined): void {
  let list: BlockDeviceMapping[] | undefined;
  c.guard(() => {
    list = c.list("blockDeviceMappings", bdms, 0, 50);
  });
  if (!list) return;
  let roots = 0;
  list.forEach((m, i) =>
    c.guard(() => {
      const at = `blockDeviceMappings[${i}]`;
      if (c.token(m)) return;
      c.fields(at, m, ["deviceName", "ebs", "rootVolume"], "a block device mapping");
      c.str(`${at}.deviceName`, m.deviceName);
      c.bool(`${at}.rootVolume`, m.rootVolume);
      if (m.rootVolume === true) roots++;
      if (m.rootVolume === true && roots > 1) c.fail(`${at}.rootVolume`, m.rootVolume, "must have only one blockDeviceMappings with rootVolume");
      const ebs = m.ebs;
      if (!isSet(ebs) || c.token(ebs)) return;
      c.fields(`${at}.ebs`, ebs, ["deleteOnTermination", "encrypted", "iops", "kmsKeyID", "snapshotID", "throughput", "volumeInitializationRate", "volumeSize", "volumeType"], "an EBS block device");
      if (!isSet(ebs.snapshotID) && !isSet(ebs.volumeSize)) c.fail(`${at}.ebs`, ebs, "snapshotID or volumeSize must be defined");
      c.since(`${at}.ebs.volumeInitializationRate`, ebs.volumeInitializationRate, since("spec.blockDeviceMappings[].ebs.volumeInitializationRate"), "volumeInitializationRate");
      if (isSet(ebs.volumeInitializationRate) && (!isSet(ebs.snapshotID) || ebs.snapshotID === "")) c.fail(`${at}.ebs.volumeInitializationRate`, ebs.volumeInitializationRate, "snapshotID must be set when volumeInitializationRate is set");
      c.int(`${at}.ebs.volumeInitializationRate`, ebs.volumeInitializationRate, 100, 300);
      c.pattern(`${at}.ebs.volumeSize`, ebs.volumeSize, VOLUME_SIZE, 'a size with unit Gi, G, Ti or T such as "100Gi" (1–59000Gi, 1–64000G, 1–58Ti, 1–64T)');
      c.oneOf(`${at}.ebs.volumeType`, ebs.volumeType, VOLUME_TYPES);
      c.int(`${at}.ebs.iops`, ebs.iops, 0, Number.MAX_SAFE_INTEGER);
      c.int(`${at}.ebs.throughput`, ebs.throughput, 0, Number.MAX_SAFE_INTEGER);
      c.bool(`${at}.ebs.deleteOnTermination`, ebs.deleteOnTermination);
      c.bool(`${at}.ebs.encrypted`, ebs.encrypted);
      c.str(`${at}.ebs.kmsKeyID`, ebs.kmsKeyID);
      c.str(`${at}.ebs.snapshotID`, ebs.snapshotID);
    }),
  );
}

function checkKubelet(c: Checker, k: KubeletConfiguration | undefined): void {
  if (!isSet(k) || c.token(k)) return;
  c.guard(() => c.fields("kubelet", k, ["clusterDNS", "cpuCFSQuota", "evictionHard", "evictionMaxPodGracePeriod", "evictionSoft", "evictionSoftGracePeriod", "imageGCHighThresholdPercent", "imageGCLowThresholdPercent", "kubeReserved", "maxPods", "podsPerCore", "systemReserved"], "kubelet"));
  if (typeof k !== "object") return;
  /** A map keyed by eviction signals (key problems are reported on the map, with the key as the value). */
  const signals = (field: string, m: { [s: string]: string } | undefined, value: (at: string, v: string) => void) => {
    let entries: [string, string][] = [];
    c.guard(() => {
      entries = c.map(`kubelet.${field}`, m);
    });
    for (const [key, val] of entries) {
      c.guard(() => {
        if (c.known(key) && !(EVICTION_SIGNALS as readonly string[]).includes(key)) c.fail(`kubelet.${field}`, key, `a signal key valid for ${field}: one of ${EVICTION_SIGNALS.map((x) => JSON.stringify(x)).join(", ")}`);
        value(`kubelet.${field}[${JSON.stringify(key)}]`, val);
      });
    }
  };
  const pct = 'a percentage such as "10%" (at most 100, two decimals) or a quantity such as "100Mi"';
  signals("evictionHard", k.evictionHard, (at, val) => c.pattern(at, val, EVICTION_VALUE, pct));
  signals("evictionSoft", k.evictionSoft, (at, val) => c.pattern(at, val, EVICTION_VALUE, pct));
  signals("evictionSoftGracePeriod", k.evictionSoftGracePeriod, (at, val) => c.duration(at, val, GO_DURATION, 'a duration such as "1m30s" (Go duration: a number with unit ns, us, ms, s, m or h)'));
  const keys = (m: { [s: string]: string } | undefined): string[] => (isSet(m) && !c.token(m) && typeof m === "object" ? Object.keys(m).filter((x) => isSet(m[x])) : []);
  for (const key of keys(k.evictionSoft)) {
    c.guard(() => {
      if (c.known(key) && !keys(k.evictionSoftGracePeriod).includes(key)) c.fail("kubelet.evictionSoft", key, `a signal with a matching evictionSoftGracePeriod: evictionSoft OwnerKey does not have a matching evictionSoftGracePeriod`);
    });
  }
  for (const key of keys(k.evictionSoftGracePeriod)) {
    c.guard(() => {
      if (c.known(key) && !keys(k.evictionSoft).includes(key)) c.fail("kubelet.evictionSoftGracePeriod", key, "a signal with a matching evictionSoft: evictionSoftGracePeriod OwnerKey does not have a matching evictionSoft");
    });
  }
  c.guard(() => c.int("kubelet.evictionMaxPodGracePeriod", k.evictionMaxPodGracePeriod));
  c.guard(() => {
    c.int("kubelet.imageGCHighThresholdPercent", k.imageGCHighThresholdPercent, 0, 100);
    c.int("kubelet.imageGCLowThresholdPercent", k.imageGCLowThresholdPercent, 0, 100);
    if (c.known(k.imageGCHighThresholdPercent) && c.known(k.imageGCLowThresholdPercent) && !(k.imageGCHighThresholdPercent > k.imageGCLowThresholdPercent)) {
      c.fail("kubelet.imageGCHighThresholdPercent", k.imageGCHighThresholdPercent, `imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent (${k.imageGCLowThresholdPercent})`);
    }
  });
  for (const field of ["kubeReserved", "systemReserved"] as const) {
    let entries: [string, string][] = [];
    c.guard(() => {
      entries = c.map(`kubelet.${field}`, k[field]);
    });
    for (const [key, val] of entries) {
      c.guard(() => {
        if (c.known(key) && !(RESERVED_RESOURCES as readonly string[]).includes(key)) c.fail(`kubelet.${field}`, key, `a resource key valid for ${field}: one of ${RESERVED_RESOURCES.map((x) => JSON.stringify(x)).join(", ")}`);
        const at = `kubelet.${field}[${JSON.stringify(key)}]`;
        c.pattern(at, val, QUANTITY, 'a Kubernetes quantity such as "100m", "1Gi" or "1000"');
        if (c.known(val) && val.startsWith("-")) c.fail(at, val, `${field} value cannot be a negative resource quantity`);
      });
    }
  }
  c.guard(() => c.int("kubelet.maxPods", k.maxPods, 0, INT32_MAX));
  c.guard(() => c.int("kubelet.podsPerCore", k.podsPerCore, 0, INT32_MAX));
  c.guard(() => c.bool("kubelet.cpuCFSQuota", k.cpuCFSQuota));
  c.guard(() => c.list("kubelet.clusterDNS", k.clusterDNS, 0, Number.MAX_SAFE_INTEGER)?.forEach((ip, i) => c.str(`kubelet.clusterDNS[${i}]`, ip, { nonEmpty: true })));
}

function checkMetadataOptions(c: Checker, p: Ec2NodeClassOptions): void {
  const m = p.metadataOptions;
  if (!isSet(m) || c.token(m)) return;
  c.fields("metadataOptions", m, ["httpEndpoint", "httpProtocolIPv6", "httpPutResponseHopLimit", "httpTokens"], "metadataOptions");
  c.oneOf("metadataOptions.httpEndpoint", m.httpEndpoint, ["enabled", "disabled"]);
  c.oneOf("metadataOptions.httpProtocolIPv6", m.httpProtocolIPv6, ["enabled", "disabled"]);
  c.int("metadataOptions.httpPutResponseHopLimit", m.httpPutResponseHopLimit, 1, 64);
  c.oneOf("metadataOptions.httpTokens", m.httpTokens, ["required", "optional"]);
}

function checkNetworkInterfaces(c: Checker, nis: NetworkInterface[] | undefined): void {
  c.since("networkInterfaces", nis, since("spec.networkInterfaces"), "networkInterfaces");
  const list = c.list("networkInterfaces", nis, 0, 150);
  if (!list) return;
  list.forEach((n, i) => {
    const at = `networkInterfaces[${i}]`;
    if (!isSet(n) || c.token(n)) return;
    c.fields(at, n, ["deviceIndex", "interfaceType", "networkCardIndex"], "a network interface");
    for (const f of ["deviceIndex", "interfaceType", "networkCardIndex"] as const) if (!isSet(n[f])) c.fail(`${at}.${f}`, undefined, `${f} is required`);
    c.int(`${at}.deviceIndex`, n.deviceIndex, 0, INT32_MAX);
    c.int(`${at}.networkCardIndex`, n.networkCardIndex, 0, INT32_MAX);
    c.oneOf(`${at}.interfaceType`, n.interfaceType, ["interface", "efa-only"]);
  });
  if (!c.known(list)) return;
  if (list.length > 0 && !list.some((n) => n.deviceIndex === 0 && n.networkCardIndex === 0 && n.interfaceType === "interface")) {
    c.fail("networkInterfaces", list, "networkInterfaces must include a primary interface with interfaceType='interface' (deviceIndex 0, networkCardIndex 0)");
  }
  list.forEach((x, i) => {
    const dup = list.filter((y) => y.networkCardIndex === x.networkCardIndex && y.deviceIndex === x.deviceIndex).length !== 1;
    const efa = x.interfaceType === "efa-only" && list.filter((y) => y.networkCardIndex === x.networkCardIndex && y.interfaceType === "efa-only").length !== 1;
    if (dup || efa) c.fail(`networkInterfaces[${i}]`, x, "networkInterfaces must not have duplicate networkCardIndex and deviceIndex pairs, and can have at most one efa device per network card");
  });
}

function checkPlacementGroup(c: Checker, p: Ec2NodeClassOptions): void {
  const pg = p.placementGroupSelector;
  c.since("placementGroupSelector", pg, since("spec.placementGroupSelector"), "placementGroupSelector");
  if (!isSet(pg) || c.token(pg)) return;
  c.fields("placementGroupSelector", pg, ["id", "name"], "placementGroupSelector");
  if (isSet(pg.name) === isSet(pg.id)) c.fail("placementGroupSelector", pg, isSet(pg.name) ? "'name' and 'id' are mutually exclusive" : "expected at least one, got none, ['name', 'id']");
  c.pattern("placementGroupSelector.id", pg.id, /^pg-[0-9a-z]+$/, "a placement group ID such as pg-0123abcd");
  c.str("placementGroupSelector.name", pg.name, { nonEmpty: true });
}

function checkConnectionTracking(c: Checker, p: Ec2NodeClassOptions): void {
  const ct = p.connectionTracking;
  c.since("connectionTracking", ct, since("spec.connectionTracking"), "connectionTracking");
  if (!isSet(ct) || c.token(ct)) return;
  c.fields("connectionTracking", ct, ["tcpEstablishedTimeout", "udpStreamTimeout", "udpTimeout"], "connectionTracking");
  if (!isSet(ct.tcpEstablishedTimeout) && !isSet(ct.udpStreamTimeout) && !isSet(ct.udpTimeout)) c.fail("connectionTracking", ct, "at least one of tcpEstablishedTimeout, udpStreamTimeout, or udpTimeout must be set");
  c.int("connectionTracking.tcpEstablishedTimeout", ct.tcpEstablishedTimeout, 60, 432000);
  c.int("connectionTracking.udpStreamTimeout", ct.udpStreamTimeout, 60, 180);
  c.int("connectionTracking.udpTimeout", ct.udpTimeout, 30, 60);
}
