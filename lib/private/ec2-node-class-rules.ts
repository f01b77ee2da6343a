import { AmiSelectorTerm, BlockDeviceMapping, Ec2NodeClassOptions, KubeletConfiguration, NetworkInterface } from "../ec2-node-class-spec";
import { KarpenterVersion } from "./version";
import { Checker, GO_DURATION, QUANTITY } from "./k8s-rules";
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

const has = (x: unknown): boolean => x !== undefined && x !== null;
const since = (path: string): string => EC2NODECLASS_FIELDS_SINCE[path];

/**
 * Checks EC2NodeClass props after defaults (role, selector terms) for Karpenter version `v`.
 * Throws a KarpenterValidationError on the first problem.
 */
export function checkEc2NodeClass(c: Checker, v: KarpenterVersion, p: Ec2NodeClassOptions, name: string): void {
  c.dnsName("name", name);

  // exactly one of role and instanceProfile, neither empty
  if (has(p.role) === has(p.instanceProfile)) {
    c.fail(has(p.role) ? "instanceProfile" : "role", has(p.role) ? p.instanceProfile : undefined, "must specify exactly one of ['role', 'instanceProfile'] (without `karpenter`, give `role` — the Karpenter node role — or `instanceProfile`)");
  }
  c.str("role", p.role, { nonEmpty: true });
  c.str("instanceProfile", p.instanceProfile, { nonEmpty: true });

  c.oneOf("amiFamily", p.amiFamily, AMI_FAMILIES);
  if (c.known(p.amiFamily)) {
    const s = ENUM_VALUES_SINCE[`spec.amiFamily=${p.amiFamily}`];
    if (s) c.since("amiFamily", p.amiFamily, s, `amiFamily ${p.amiFamily}`);
  }
  checkAmiTerms(c, v, p.amiSelectorTerms, p.amiFamily);

  checkIdTagTerms(c, "subnetSelectorTerms", p.subnetSelectorTerms, { id: /^subnet-[0-9a-z]+$/, idText: "a subnet ID such as subnet-0123abcd", others: ["tags"] });
  checkIdTagTerms(c, "securityGroupSelectorTerms", p.securityGroupSelectorTerms, { id: /^sg-[0-9a-z]+$/, idText: "a security group ID such as sg-0123abcd", others: ["tags", "name"] });
  c.since("capacityReservationSelectorTerms", p.capacityReservationSelectorTerms, since("spec.capacityReservationSelectorTerms"), "capacityReservationSelectorTerms");
  if (has(p.capacityReservationSelectorTerms)) {
    checkIdTagTerms(c, "capacityReservationSelectorTerms", p.capacityReservationSelectorTerms, { id: /^cr-[0-9a-z]+$/, idText: "a capacity reservation ID such as cr-0123abcd", others: ["tags", "ownerID", "instanceMatchCriteria"], min: 0 });
    const terms = c.list("capacityReservationSelectorTerms", p.capacityReservationSelectorTerms, 0, 30);
    terms?.forEach((t, i) => {
      if (!has(t) || c.token(t)) return;
      c.pattern(`capacityReservationSelectorTerms[${i}].ownerID`, t.ownerID, /^[0-9]{12}$/, "a 12-digit AWS account ID");
      c.since(`capacityReservationSelectorTerms[${i}].instanceMatchCriteria`, t.instanceMatchCriteria, since("spec.capacityReservationSelectorTerms[].instanceMatchCriteria"), "instanceMatchCriteria");
      c.oneOf(`capacityReservationSelectorTerms[${i}].instanceMatchCriteria`, t.instanceMatchCriteria, ["open", "targeted"]);
    });
  }

  c.bool("associatePublicIPAddress", p.associatePublicIPAddress);
  c.bool("detailedMonitoring", p.detailedMonitoring);
  c.str("context", p.context);
  c.str("userData", p.userData);
  c.oneOf("instanceStorePolicy", p.instanceStorePolicy, ["RAID0"]);
  c.since("ipPrefixCount", p.ipPrefixCount, since("spec.ipPrefixCount"), "ipPrefixCount");
  c.int("ipPrefixCount", p.ipPrefixCount, 0, INT32_MAX);

  checkBlockDevices(c, p.blockDeviceMappings);
  checkKubelet(c, p.kubelet);
  checkMetadataOptions(c, p);
  checkNetworkInterfaces(c, p.networkInterfaces);
  checkPlacementGroup(c, p);
  checkConnectionTracking(c, p);
  c.since("cpuOptions", p.cpuOptions, since("spec.cpuOptions"), "cpuOptions");
  if (has(p.cpuOptions) && !c.token(p.cpuOptions)) c.fields("cpuOptions", p.cpuOptions!, ["nestedVirtualization"], "cpuOptions");
  if (has(p.cpuOptions) && !c.token(p.cpuOptions)) c.oneOf("cpuOptions.nestedVirtualization", p.cpuOptions!.nestedVirtualization, ["enabled", "disabled"]);

  for (const [k, val] of c.map("tags", p.tags)) {
    if (!c.known(k)) continue;
    for (const [test, message] of RESTRICTED_TAGS) if (test(k)) c.fail(`tags[${JSON.stringify(k)}]`, k, `${message} (Karpenter sets these tags itself)`);
    c.str(`tags[${JSON.stringify(k)}]`, val);
  }
}

function checkAmiTerms(c: Checker, v: KarpenterVersion, terms: AmiSelectorTerm[] | undefined, amiFamily: string | undefined): void {
  if (terms === undefined) c.fail("amiSelectorTerms", terms, "1 to 30 AMI selector terms (required)");
  const list = c.list("amiSelectorTerms", terms, 1, 30);
  if (!list) return;
  const fields = v.atLeast(since("spec.amiSelectorTerms[].ssmParameter")) ? ["tags", "id", "name", "alias", "ssmParameter"] : ["tags", "id", "name", "alias"];
  let aliasFamily: string | undefined;
  list.forEach((t, i) => {
    const at = `amiSelectorTerms[${i}]`;
    if (!has(t) || c.token(t)) return;
    c.fields(at, t, ["alias", "id", "name", "owner", "ssmParameter", "tags"], "an AMI selector term");
    c.since(`${at}.ssmParameter`, t.ssmParameter, since("spec.amiSelectorTerms[].ssmParameter"), "ssmParameter");
    if (!fields.some((f) => has((t as any)[f]))) c.fail(at, t, `expected at least one, got none, [${fields.map((f) => `'${f}'`).join(", ")}]`);
    if (has(t.id) && (has(t.alias) || has(t.tags) || has(t.name) || has(t.owner))) c.fail(`${at}.id`, t.id, "'id' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms");
    if (has(t.alias) && (has(t.id) || has(t.tags) || has(t.name) || has(t.owner))) c.fail(`${at}.alias`, t.alias, "'alias' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms");
    if (has(t.alias) && list.length !== 1) c.fail(`${at}.alias`, t.alias, "'alias' is mutually exclusive, cannot be set with a combination of other amiSelectorTerms (use one term with only the alias)");
    c.pattern(`${at}.id`, t.id, /^ami-[0-9a-z]+$/, "an AMI ID such as ami-0123456789abcdef0");
    c.str(`${at}.name`, t.name);
    c.str(`${at}.owner`, t.owner);
    c.str(`${at}.ssmParameter`, t.ssmParameter);
    checkSelectorTags(c, `${at}.tags`, t.tags);
    if (c.known(t.alias)) aliasFamily = checkAlias(c, v, `${at}.alias`, t.alias);
  });
  if (c.known(amiFamily)) {
    if (aliasFamily !== undefined) {
      const implied = ALIAS_FAMILIES[aliasFamily];
      if (amiFamily !== implied && amiFamily !== "Custom") c.fail("amiFamily", amiFamily, `if set, amiFamily must be '${implied}' or 'Custom' when using ${/^[aeiou]/i.test(implied) ? "an" : "a"} ${implied} alias`);
    }
  } else if (amiFamily === undefined && !list.some((t) => has(t) && has(t.alias))) {
    c.fail("amiFamily", amiFamily, `must specify amiFamily if amiSelectorTerms does not contain an alias (one of ${AMI_FAMILIES.join(", ")})`);
  }
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
    if (c.known(k) && k === "") c.fail(field, tags, "empty tag keys or values aren't supported");
    if (c.known(val) && val === "") c.fail(`${field}[${JSON.stringify(k)}]`, val, "empty tag keys or values aren't supported ('*' selects any value)");
  }
}

interface TermRules {
  readonly id: RegExp;
  readonly idText: string;
  /** Fields a term may use instead of `id`; `id` excludes all of them. */
  readonly others: readonly string[];
  /** Minimum number of terms. @default 1 */
  readonly min?: number;
}

/** Subnet, security group and capacity reservation terms: `id` alone, or the other fields. */
function checkIdTagTerms(c: Checker, field: string, terms: object[] | undefined, rules: TermRules): void {
  const min = rules.min ?? 1;
  if (terms === undefined && min > 0) c.fail(field, terms, `1 to 30 terms (required; ${field} cannot be empty)`);
  if (c.known(terms) && Array.isArray(terms) && terms.length === 0 && min > 0) c.fail(field, terms, `${field} cannot be empty`);
  const list = c.list(field, terms, min, 30);
  list?.forEach((term, i) => {
    const at = `${field}[${i}]`;
    if (!has(term) || c.token(term)) return;
    const t = term as { [k: string]: any };
    const all = ["id", ...rules.others];
    const required = field === "capacityReservationSelectorTerms" ? ["tags", "id", "instanceMatchCriteria"] : all;
    if (!required.some((f) => has(t[f]))) c.fail(at, term, `expected at least one, got none, [${required.map((f) => `'${f}'`).join(", ")}]`);
    if (has(t.id) && rules.others.some((f) => has(t[f]))) c.fail(`${at}.id`, t.id, `'id' is mutually exclusive, cannot be set with a combination of other fields (${rules.others.join(", ")}) in a term of ${field}`);
    if (has(t.name) && rules.others.includes("name") && (has(t.tags) || has(t.id))) c.fail(`${at}.name`, t.name, `'name' is mutually exclusive, cannot be set with a combination of other fields in a term of ${field}`);
    c.pattern(`${at}.id`, t.id, rules.id, rules.idText);
    if (rules.others.includes("name")) c.str(`${at}.name`, t.name);
    checkSelectorTags(c, `${at}.tags`, t.tags);
    c.fields(at, t, all, `a ${field} term`);
  });
}

function checkBlockDevices(c: Checker, bdms: BlockDeviceMapping[] | undefined): void {
  const list = c.list("blockDeviceMappings", bdms, 0, 50);
  if (!list) return;
  let roots = 0;
  list.forEach((m, i) => {
    const at = `blockDeviceMappings[${i}]`;
    if (!has(m) || c.token(m)) return;
    c.fields(at, m, ["deviceName", "ebs", "rootVolume"], "a block device mapping");
    c.str(`${at}.deviceName`, m.deviceName);
    c.bool(`${at}.rootVolume`, m.rootVolume);
    if (m.rootVolume === true) roots++;
    if (roots > 1) c.fail(`${at}.rootVolume`, m.rootVolume, "must have only one blockDeviceMappings with rootVolume");
    const e = m.ebs;
    if (!has(e) || c.token(e)) return;
    const ebs = e!;
    c.fields(`${at}.ebs`, ebs, ["deleteOnTermination", "encrypted", "iops", "kmsKeyID", "snapshotID", "throughput", "volumeInitializationRate", "volumeSize", "volumeType"], "an EBS block device");
    if (!has(ebs.snapshotID) && !has(ebs.volumeSize)) c.fail(`${at}.ebs`, ebs, "snapshotID or volumeSize must be defined");
    c.since(`${at}.ebs.volumeInitializationRate`, ebs.volumeInitializationRate, since("spec.blockDeviceMappings[].ebs.volumeInitializationRate"), "volumeInitializationRate");
    if (has(ebs.volumeInitializationRate) && (!has(ebs.snapshotID) || ebs.snapshotID === "")) c.fail(`${at}.ebs.volumeInitializationRate`, ebs.volumeInitializationRate, "snapshotID must be set when volumeInitializationRate is set");
    c.int(`${at}.ebs.volumeInitializationRate`, ebs.volumeInitializationRate, 100, 300);
    c.pattern(`${at}.ebs.volumeSize`, ebs.volumeSize, VOLUME_SIZE, 'a size with unit Gi, G, Ti or T such as "100Gi" (1–59000Gi, 1–64000G, 1–58Ti, 1–64T)');
    c.oneOf(`${at}.ebs.volumeType`, ebs.volumeType, VOLUME_TYPES);
    c.int(`${at}.ebs.iops`, ebs.iops, 0, Number.MAX_SAFE_INTEGER);
    c.int(`${at}.ebs.throughput`, ebs.throughput, 0, Number.MAX_SAFE_INTEGER);
    c.bool(`${at}.ebs.deleteOnTermination`, ebs.deleteOnTermination);
    c.bool(`${at}.ebs.encrypted`, ebs.encrypted);
    c.str(`${at}.ebs.kmsKeyID`, ebs.kmsKeyID);
    c.str(`${at}.ebs.snapshotID`, ebs.snapshotID);
  });
}

function checkKubelet(c: Checker, k: KubeletConfiguration | undefined): void {
  if (!has(k) || c.token(k)) return;
  const kc = k!;
  c.fields("kubelet", kc, ["clusterDNS", "cpuCFSQuota", "evictionHard", "evictionMaxPodGracePeriod", "evictionSoft", "evictionSoftGracePeriod", "imageGCHighThresholdPercent", "imageGCLowThresholdPercent", "kubeReserved", "maxPods", "podsPerCore", "systemReserved"], "kubelet");
  const signals = (field: string, m: { [s: string]: string } | undefined, value?: RegExp, valueText?: string) => {
    for (const [key, val] of c.map(`kubelet.${field}`, m)) {
      c.oneOf(`kubelet.${field}[${JSON.stringify(key)}]`, key as any, EVICTION_SIGNALS, ` (valid keys for ${field})`);
      if (value) c.pattern(`kubelet.${field}[${JSON.stringify(key)}]`, val, value, valueText!);
    }
  };
  const pct = 'a percentage such as "10%" (at most 100, two decimals) or a quantity such as "100Mi"';
  signals("evictionHard", kc.evictionHard, EVICTION_VALUE, pct);
  signals("evictionSoft", kc.evictionSoft, EVICTION_VALUE, pct);
  signals("evictionSoftGracePeriod", kc.evictionSoftGracePeriod, GO_DURATION, 'a duration such as "1m30s" (Go duration: a number with unit ns, us, ms, s, m or h)');
  if (has(kc.evictionSoft) && !c.token(kc.evictionSoft)) {
    for (const key of Object.keys(kc.evictionSoft!)) {
      if (c.known(key) && !(has(kc.evictionSoftGracePeriod) && key in kc.evictionSoftGracePeriod!)) c.fail(`kubelet.evictionSoft[${JSON.stringify(key)}]`, key, "evictionSoft OwnerKey does not have a matching evictionSoftGracePeriod");
    }
  }
  if (has(kc.evictionSoftGracePeriod) && !c.token(kc.evictionSoftGracePeriod)) {
    for (const key of Object.keys(kc.evictionSoftGracePeriod!)) {
      if (c.known(key) && !(has(kc.evictionSoft) && key in kc.evictionSoft!)) c.fail(`kubelet.evictionSoftGracePeriod[${JSON.stringify(key)}]`, key, "evictionSoftGracePeriod OwnerKey does not have a matching evictionSoft");
    }
  }
  c.int("kubelet.evictionMaxPodGracePeriod", kc.evictionMaxPodGracePeriod);
  c.int("kubelet.imageGCHighThresholdPercent", kc.imageGCHighThresholdPercent, 0, 100);
  c.int("kubelet.imageGCLowThresholdPercent", kc.imageGCLowThresholdPercent, 0, 100);
  if (c.known(kc.imageGCHighThresholdPercent) && c.known(kc.imageGCLowThresholdPercent) && !(kc.imageGCHighThresholdPercent > kc.imageGCLowThresholdPercent)) {
    c.fail("kubelet.imageGCHighThresholdPercent", kc.imageGCHighThresholdPercent, `imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent (${kc.imageGCLowThresholdPercent})`);
  }
  for (const field of ["kubeReserved", "systemReserved"] as const) {
    for (const [key, val] of c.map(`kubelet.${field}`, kc[field])) {
      const at = `kubelet.${field}[${JSON.stringify(key)}]`;
      c.oneOf(at, key as any, RESERVED_RESOURCES, ` (valid keys for ${field})`);
      c.pattern(at, val, QUANTITY, 'a Kubernetes quantity such as "100m", "1Gi" or "1000"');
      if (c.known(val) && val.startsWith("-")) c.fail(at, val, `${field} value cannot be a negative resource quantity`);
    }
  }
  c.int("kubelet.maxPods", kc.maxPods, 0, INT32_MAX);
  c.int("kubelet.podsPerCore", kc.podsPerCore, 0, INT32_MAX);
  c.bool("kubelet.cpuCFSQuota", kc.cpuCFSQuota);
  c.list("kubelet.clusterDNS", kc.clusterDNS, 0, Number.MAX_SAFE_INTEGER)?.forEach((ip, i) => c.str(`kubelet.clusterDNS[${i}]`, ip, { nonEmpty: true }));
}

function checkMetadataOptions(c: Checker, p: Ec2NodeClassOptions): void {
  const m = p.metadataOptions;
  if (!has(m) || c.token(m)) return;
  c.fields("metadataOptions", m!, ["httpEndpoint", "httpProtocolIPv6", "httpPutResponseHopLimit", "httpTokens"], "metadataOptions");
  c.oneOf("metadataOptions.httpEndpoint", m!.httpEndpoint, ["enabled", "disabled"]);
  c.oneOf("metadataOptions.httpProtocolIPv6", m!.httpProtocolIPv6, ["enabled", "disabled"]);
  c.int("metadataOptions.httpPutResponseHopLimit", m!.httpPutResponseHopLimit, 1, 64);
  c.oneOf("metadataOptions.httpTokens", m!.httpTokens, ["required", "optional"]);
}

function checkNetworkInterfaces(c: Checker, nis: NetworkInterface[] | undefined): void {
  c.since("networkInterfaces", nis, since("spec.networkInterfaces"), "networkInterfaces");
  const list = c.list("networkInterfaces", nis, 0, 150);
  if (!list) return;
  list.forEach((n, i) => {
    const at = `networkInterfaces[${i}]`;
    if (!has(n) || c.token(n)) return;
    c.fields(at, n, ["deviceIndex", "interfaceType", "networkCardIndex"], "a network interface");
    for (const f of ["deviceIndex", "interfaceType", "networkCardIndex"] as const) if (!has(n[f])) c.fail(`${at}.${f}`, undefined, `${f} is required`);
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
  if (!has(pg) || c.token(pg)) return;
  c.fields("placementGroupSelector", pg!, ["id", "name"], "placementGroupSelector");
  if (has(pg!.name) === has(pg!.id)) c.fail("placementGroupSelector", pg, has(pg!.name) ? "'name' and 'id' are mutually exclusive" : "expected at least one, got none, ['name', 'id']");
  c.pattern("placementGroupSelector.id", pg!.id, /^pg-[0-9a-z]+$/, "a placement group ID such as pg-0123abcd");
  c.str("placementGroupSelector.name", pg!.name, { nonEmpty: true });
}

function checkConnectionTracking(c: Checker, p: Ec2NodeClassOptions): void {
  const ct = p.connectionTracking;
  c.since("connectionTracking", ct, since("spec.connectionTracking"), "connectionTracking");
  if (!has(ct) || c.token(ct)) return;
  c.fields("connectionTracking", ct!, ["tcpEstablishedTimeout", "udpStreamTimeout", "udpTimeout"], "connectionTracking");
  if (!has(ct!.tcpEstablishedTimeout) && !has(ct!.udpStreamTimeout) && !has(ct!.udpTimeout)) c.fail("connectionTracking", ct, "at least one of tcpEstablishedTimeout, udpStreamTimeout, or udpTimeout must be set");
  c.int("connectionTracking.tcpEstablishedTimeout", ct!.tcpEstablishedTimeout, 60, 432000);
  c.int("connectionTracking.udpStreamTimeout", ct!.udpStreamTimeout, 60, 180);
  c.int("connectionTracking.udpTimeout", ct!.udpTimeout, 30, 60);
}
