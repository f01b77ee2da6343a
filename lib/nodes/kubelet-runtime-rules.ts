import { parseIpSloppy } from "./kubelet-node-ip";
import { kubernetesMinor, minorRanges } from "../versions/kubernetes-minor";
import {
  durationNanos,
  GO_DURATION,
  holdsToken,
  INT32_MAX,
  isNegativeQuantity,
  isToken,
  quantitySign,
  MAX_DURATION_NS,
  QUANTITY,
} from "../kubernetes/value-rules";
import { kubeletFeatureGates, kubeletGate, kubeletGateMinors } from "../versions/kubelet-feature-gates";
import { kubeletTlsNames } from "../versions/kubelet-tls-names";
import { nearestKey } from "../core/problems";
import { isPlainMap } from "../core/deep-merge";
import { KUBELET_EVICTION_SOURCE, kubeletEvictionRefusal } from "./kubelet-config-rules";

/*
 * The kubelet's own validation of its configuration (k8s.io/kubernetes@v1.36.3
 * pkg/kubelet/apis/config/validation/validation.go, ValidateKubeletConfiguration), for the fields a user writes in a
 * Karpenter 1.15 free-form `spec.kubelet`. Karpenter passes those fields to nodeadm as written (karpenter-provider-aws
 * v1.15.0 pkg/providers/amifamily/bootstrap/nodeadm.go:103-116, generateInlineKubeletConfiguration); the kubelet
 * validates its configuration when it starts and exits on an error, so the node never joins the cluster.
 *
 * Only what is certain from the user's own values is refused: a rule on one field, or on two fields the user both set.
 * Where a rule reads a field the user did not set, the upstream v1beta1 default is used (pkg/kubelet/apis/config/
 * v1beta1/defaults.go) only where nodeadm does not set that field (amazon-eks-ami nodeadm internal/kubelet/config.go
 * sets cgroupRoot "/", systemReservedCgroup "/system", kubeReservedCgroup "/runtime", hairpinMode, serializeImagePulls
 * false, readOnlyPort 0, serverTLSBootstrap true, featureGates RotateKubeletServerCertificate and (1.33 on)
 * DynamicResourceAllocation, logging.verbosity): so `systemCgroups` without `cgroupRoot` and
 * `enforceNodeAllocatable: ["system-reserved"]` without `systemReservedCgroup` are not refused. featureGates and the
 * rules behind a feature gate are judged at the gate states of the cluster's Kubernetes minor (see "Feature gates"
 * below: the generated kubelet-feature-gates.json). A zero value the v1beta1 defaults replace
 * (port 0, imageMinimumGCAge "0s", empty strings) is judged as its default: the kubelet defaults its configuration
 * again after merging the drop-ins (cmd/kubelet/app/server.go:386-392), so where a value came from does not matter.
 * Values holding a token, and values of the wrong JSON type (reported by the decode rule), are not judged.
 */

/** A refusal: the field (`kubelet.<field>`), the value, what is allowed, and the kubelet's rule with its source. */
export interface KubeletRuntimeProblem {
  readonly field: string;
  readonly value: unknown;
  readonly allowed: string;
  readonly rule: string;
  readonly source: string;
  /**
   * What follows instead of the kubelet refusing to start, for a value it takes but drops (a clusterDNS entry that is
   * no IP address); unset for a refusal at start.
   */
  readonly effect?: string;
}

const VALIDATION = "k8s.io/kubernetes@v1.36.3 pkg/kubelet/apis/config/validation/validation.go";

/** The message of a problem, for `c.fail(code, field, value, message)`. */
export function kubeletRuntimeMessage(p: KubeletRuntimeProblem): string {
  if (p.effect !== undefined) return `${p.allowed}: ${p.effect} (${p.source})`;
  return `${p.allowed}: the kubelet refuses ${p.rule} (${p.source}); it validates its configuration when it starts and exits on an error: the kubelet does not start, so the node never joins the cluster (Karpenter 1.15 passes spec.kubelet to nodeadm as written, karpenter-provider-aws@v1.15.0 pkg/providers/amifamily/bootstrap/nodeadm.go:103-116)`;
}

const known = (x: unknown): boolean => x !== undefined && x !== null && !isToken(x) && !holdsToken(x);
const int = (x: unknown): x is number => known(x) && typeof x === "number" && Number.isInteger(x);
const num = (x: unknown): x is number => known(x) && typeof x === "number" && Number.isFinite(x);
const str = (x: unknown): x is string => known(x) && typeof x === "string";
const obj = (x: unknown): x is Record<string, unknown> =>
  known(x) && typeof x === "object" && !Array.isArray(x) && x !== null;

/** The signed nanoseconds of a Go duration string, or undefined when it is none (the decode rule reports it). */
export function signedNanos(x: unknown): bigint | undefined {
  if (!str(x) || !GO_DURATION.test(x)) return undefined;
  const ns = durationNanos(x);
  if (ns === undefined || ns > MAX_DURATION_NS) return undefined;
  return x.startsWith("-") ? -ns : ns;
}

const MS = 1_000_000n;
const SECOND = 1000n * MS;
const MINUTE = 60n * SECOND;

/**
 * Go's path.Clean for an absolute path (utilfs.IsPathClean compares filepath.Clean with the path): repeated and
 * trailing slashes, `.` and `..` elements are removed.
 */
export function goCleanPath(p: string): string {
  const rooted = p.startsWith("/");
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!rooted) out.push("..");
    } else out.push(seg);
  }
  const s = (rooted ? "/" : "") + out.join("/");
  return s === "" ? "." : s;
}

/** Why k8s.io/utils cpuset.Parse (cpuset.go:203-247) fails on `s`, or undefined when it reads it. */
export function cpusetProblem(s: string): string | undefined {
  if (s === "") return undefined;
  const atoi = (t: string) => (/^[+-]?\d{1,18}$/.test(t) ? Number(t) : undefined);
  for (const r of s.split(",")) {
    const dash = r.indexOf("-");
    if (dash < 0) {
      if (atoi(r) === undefined) return `${JSON.stringify(r)} is no CPU number`;
      continue;
    }
    const start = atoi(r.slice(0, dash));
    const end = atoi(r.slice(dash + 1));
    if (start === undefined || end === undefined) return `${JSON.stringify(r)} is no range of CPU numbers`;
    if (start > end) return `the range ${JSON.stringify(r)} runs backwards`;
  }
  return undefined;
}

/**
 * Why component-base's validateEndpoint (tracing/api/v1/config.go:64-88) refuses a tracing endpoint, or undefined: an
 * endpoint without "//" is read as "dns://" + it; Go's url.Parse then gives the scheme (a letter, then letters,
 * digits, "+", "-", "."; lower-cased), which must be dns, unix or unix-abstract. Only what is certain is said: a
 * control character or a leading ":" (url.Parse fails), or another scheme.
 */
export function tracingEndpointProblem(endpoint: string): string | undefined {
  const url = endpoint.includes("//") ? endpoint : `dns://${endpoint}`;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(url)) return "holds a control character (url.Parse fails)";
  if (url.startsWith(":")) return 'starts with ":" (url.Parse: "missing protocol scheme")';
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  const scheme = m ? m[1].toLowerCase() : "";
  return ["dns", "unix", "unix-abstract"].includes(scheme)
    ? undefined
    : `has the scheme ${JSON.stringify(scheme)} ("unsupported scheme: … Options are none, dns, unix, or unix-abstract")`;
}

const TOPOLOGY_POLICIES = ["none", "best-effort", "restricted", "single-numa-node"];
const TOPOLOGY_SCOPES = ["container", "pod"];
const HAIRPIN_MODES = ["promiscuous-bridge", "hairpin-veth", "none"];
const SWAP_BEHAVIORS = ["NoSwap", "LimitedSwap"];
const LOG_FORMATS = ["text", "json"];
const ENFORCEMENTS = [
  "pods",
  "system-reserved",
  "system-reserved-compressible",
  "kube-reserved",
  "kube-reserved-compressible",
  "none",
];

const q = (xs: readonly string[]) => xs.map((x) => JSON.stringify(x)).join(", ");

/**
 * The kubelet's refusals of the user's `spec.kubelet` fields `k` (Karpenter 1.15 free-form, AL2023): at most one per
 * field, in the order of ValidateKubeletConfiguration. Pure: `k` is read, nothing is thrown.
 */
export function kubeletRuntimeProblems(
  k: Record<string, unknown>,
  kubernetesVersion?: string,
): KubeletRuntimeProblem[] {
  const out: KubeletRuntimeProblem[] = [];
  const seen = new Set<string>();
  // :59 the featureGates (SetFromMap), then the rules behind a gate: judged at the cluster's minor (every minor when unknown)
  for (const p of gatedOutcomes(k, kubernetesVersion).problems) {
    seen.add(p.field);
    out.push(p);
  }
  const add = (f: string, value: unknown, allowed: string, rule: string, line: number | string) => {
    const field = `kubelet.${f}`;
    if (seen.has(field)) return;
    seen.add(field);
    const source = typeof line === "number" ? `${VALIDATION}:${line}` : line;
    out.push({ field, value, allowed, rule, source });
  };
  const has = (f: string) => known(k[f]);

  // the type of the drop-in nodeadm writes this configuration into (40-nodeadm.conf; amazon-eks-ami nodeadm
  // internal/kubelet/config.go:352-373 merges its own TypeMeta under the user's, so the user's wins): the kubelet loads
  // only kubelet.config.k8s.io/v1beta1 KubeletConfiguration drop-ins and exits on any other (fresh tester 31 A40, D11)
  const DROPIN = "k8s.io/kubernetes v1.36.3 cmd/kubelet/app/server.go:365-374, mergeKubeletConfigurations";
  for (const [f, want] of [
    ["kind", "KubeletConfiguration"],
    ["apiVersion", "kubelet.config.k8s.io/v1beta1"],
  ] as const)
    if (has(f) && k[f] !== want)
      add(
        f,
        k[f],
        `"${want}" (or leave ${f} out: nodeadm writes it)`,
        `a configuration drop-in of another ${f} ("failed to load kubelet dropin file … unknown apiVersion/kind"; nodeadm writes this configuration as the drop-in 40-nodeadm.conf with the ${f} given here, amazon-eks-ami nodeadm internal/kubelet/config.go:352-373)`,
        DROPIN,
      );

  // :66 nodeLeaseDurationSeconds <= 0 (0 is defaulted to 40 first, v1beta1/defaults.go:151-152: only a negative fails)
  if (int(k.nodeLeaseDurationSeconds) && k.nodeLeaseDurationSeconds < 0)
    add(
      "nodeLeaseDurationSeconds",
      k.nodeLeaseDurationSeconds,
      "a positive number of seconds",
      "a negative nodeLeaseDurationSeconds",
      66,
    );

  // :72, :75, :114, :117, :123, :141, :144 counts and rates that must not be negative
  for (const [f, line] of [
    ["eventBurst", 72],
    ["eventRecordQPS", 75],
    ["kubeAPIBurst", 114],
    ["kubeAPIQPS", 117],
    ["maxOpenFiles", 123],
    ["registryBurst", 141],
    ["registryPullQPS", 144],
  ] as const) {
    const x = k[f];
    if (int(x) && x < 0) add(f, x, "a number of 0 or more", `a negative ${f} ("must not be a negative number")`, line);
  }

  // :78 healthzPort (0 disables it), :135 port (0 is defaulted to 10250), :138 readOnlyPort (0 disables it)
  for (const [f, line] of [
    ["healthzPort", 78],
    ["port", 135],
    ["readOnlyPort", 138],
  ] as const) {
    const x = k[f];
    if (int(x) && x !== 0 && (x < 1 || x > 65535))
      add(f, x, `a port from 1 to 65535${f === "port" ? "" : ", or 0 to disable it"}`, `a ${f} outside 1-65535`, line);
  }

  // :87, :90 image GC thresholds from 0 to 100; :93 the low one below the high one (both set here; one alone against
  // the other's default is imageGcDefaultProblem, since the AMI may set the other)
  for (const [f, line] of [
    ["imageGCHighThresholdPercent", 87],
    ["imageGCLowThresholdPercent", 90],
  ] as const) {
    const x = k[f];
    if (int(x) && (x < 0 || x > 100))
      add(f, x, "a percentage from 0 to 100", `an ${f} outside 0-100 ("must be between 0 and 100, inclusive")`, line);
  }
  const gcHigh = k.imageGCHighThresholdPercent;
  const gcLow = k.imageGCLowThresholdPercent;
  if (int(gcHigh) && int(gcLow) && gcLow >= gcHigh)
    add(
      "imageGCLowThresholdPercent",
      gcLow,
      `a percentage below imageGCHighThresholdPercent (${gcHigh})`,
      'an imageGCLowThresholdPercent not below imageGCHighThresholdPercent ("must be less than imageGCHighThresholdPercent")',
      93,
    );

  // pkg/kubelet/server/server.go:190-210: the kubelet serves on `address` (defaulted to 0.0.0.0 only when empty,
  // v1beta1/defaults.go:87-88); one ParseIPSloppy does not read gives nil, the server listens on "<nil>:<port>", fails
  // and the kubelet exits
  if (str(k.address) && k.address !== "" && !isKubeletIp(k.address))
    add(
      "address",
      k.address,
      'an IP address such as "0.0.0.0" (every interface, the default) or "::"',
      'an address that is no IP address (it listens on "<nil>:<port>", which fails: "Failed to listen and serve", os.Exit(1))',
      "k8s.io/kubernetes@v1.36.3 pkg/kubelet/server/server.go:190-210",
    );

  // nodeadm sets providerID to the instance's own (amazon-eks-ami nodeadm internal/kubelet/config.go:246-251,
  // withCloudProvider); a user's value reaches the kubelet after it (a drop-in, a flag) and is the same on every node
  if (str(k.providerID) && k.providerID !== "" && !seen.has("kubelet.providerID")) {
    seen.add("kubelet.providerID");
    out.push({
      field: "kubelet.providerID",
      value: k.providerID,
      allowed: "unset: nodeadm sets each node's own provider ID, aws:///<zone>/<instance-id>",
      rule: "a providerID of its own",
      source:
        "amazon-eks-ami nodeadm internal/kubelet/config.go:246-251; sigs.k8s.io/karpenter v1.15.0 pkg/utils/nodeclaim/nodeclaim.go:291-301, pkg/controllers/nodeclaim/lifecycle/liveness.go:54",
      effect:
        "nodeadm writes each node's own provider ID (withCloudProvider), and this value replaces it on every node (the kubelet applies the drop-in and its flags over nodeadm's configuration), so the Node's spec.providerID names no instance of its NodeClaim: Karpenter finds a NodeClaim's Node only by it (NodeForNodeClaim), never finds it, and the NodeClaim never registers and is deleted after 15 minutes (liveness.go:54, registrationTimeout)",
    });
  }

  // registerNode false: the kubelet never creates its Node (pkg/kubelet/kubelet_node_status.go:460), so Karpenter,
  // which waits for the NodeClaim's Node, deletes the NodeClaim after its registration timeout
  if (k.registerNode === false && !seen.has("kubelet.registerNode")) {
    seen.add("kubelet.registerNode");
    out.push({
      field: "kubelet.registerNode",
      value: k.registerNode,
      allowed: "true (the default) or unset",
      rule: "registerNode false",
      source:
        "k8s.io/kubernetes@v1.36.3 pkg/kubelet/kubelet_node_status.go:460; sigs.k8s.io/karpenter v1.15.0 pkg/controllers/nodeclaim/lifecycle/liveness.go:54",
      effect:
        "the kubelet never registers its Node, so Karpenter finds no Node for the NodeClaim, and the NodeClaim never registers and is deleted after 15 minutes (registrationTimeout): every launch is wasted",
    });
  }

  // :99, :102, :105 image GC ages; imageMinimumGCAge unset or "0s" is defaulted to 2m (defaults.go:154-155)
  const minAge = signedNanos(k.imageMinimumGCAge);
  const maxAge = signedNanos(k.imageMaximumGCAge);
  if (minAge !== undefined && minAge < 0n)
    add("imageMinimumGCAge", k.imageMinimumGCAge, "a duration of 0 or more", "a negative imageMinimumGCAge", 99);
  if (maxAge !== undefined && maxAge < 0n)
    add(
      "imageMaximumGCAge",
      k.imageMaximumGCAge,
      'a duration of 0 or more ("0s" disables it)',
      "a negative imageMaximumGCAge",
      102,
    );
  // a zero imageMinimumGCAge is defaulted too, also when it comes from a drop-in: the kubelet defaults the merged
  // configuration again (k8s.io/kubernetes v1.36.3 cmd/kubelet/app/server.go:386-392, mergeKubeletConfigurations)
  const effectiveMin = minAge === undefined || minAge === 0n ? 2n * MINUTE : minAge;
  if (
    maxAge !== undefined &&
    maxAge > 0n &&
    effectiveMin !== undefined &&
    (minAge === undefined || minAge >= 0n) &&
    maxAge <= effectiveMin
  )
    add(
      "imageMaximumGCAge",
      k.imageMaximumGCAge,
      `a duration greater than imageMinimumGCAge (${has("imageMinimumGCAge") && minAge !== 0n ? JSON.stringify(k.imageMinimumGCAge) : has("imageMinimumGCAge") ? '"0s", which the kubelet defaults to "2m"' : 'unset: the default "2m"'}), or "0s" to disable it`,
      "an imageMaximumGCAge not greater than imageMinimumGCAge",
      105,
    );

  // :108, :111 iptables bits
  for (const [f, line] of [
    ["iptablesDropBit", 108],
    ["iptablesMasqueradeBit", 111],
  ] as const) {
    const x = k[f];
    if (int(x) && (x < 0 || x > 31)) add(f, x, "a bit from 0 to 31", `a ${f} outside 0-31`, line);
  }

  // :120 nodeStatusMaxImages
  if (int(k.nodeStatusMaxImages) && k.nodeStatusMaxImages < -1)
    add(
      "nodeStatusMaxImages",
      k.nodeStatusMaxImages,
      "-1 (no limit) or a number of 0 or more",
      "a nodeStatusMaxImages below -1",
      120,
    );

  // :129 oomScoreAdj
  if (int(k.oomScoreAdj) && (k.oomScoreAdj < -1000 || k.oomScoreAdj > 1000))
    add("oomScoreAdj", k.oomScoreAdj, "a number from -1000 to 1000", "an oomScoreAdj outside -1000 to 1000", 129);

  // :147 maxParallelImagePulls; :150 with serializeImagePulls true (both set: nodeadm sets serializeImagePulls false)
  const pulls = k.maxParallelImagePulls;
  if (int(pulls) && pulls < 1)
    add("maxParallelImagePulls", pulls, "a number of 1 or more", "a maxParallelImagePulls below 1", 147);
  else if (int(pulls) && pulls > 1 && k.serializeImagePulls === true)
    add(
      "maxParallelImagePulls",
      pulls,
      "1, or serializeImagePulls false",
      "a maxParallelImagePulls above 1 with serializeImagePulls true",
      150,
    );

  // :156 runOnce
  if (k.runOnce === true)
    add("runOnce", k.runOnce, "false or unset", 'runOnce ("deprecated and should not be set")', 156);

  // :169, :178 topology manager ("" is defaulted to none / container)
  if (
    str(k.topologyManagerPolicy) &&
    k.topologyManagerPolicy !== "" &&
    !TOPOLOGY_POLICIES.includes(k.topologyManagerPolicy)
  )
    add(
      "topologyManagerPolicy",
      k.topologyManagerPolicy,
      `one of ${q(TOPOLOGY_POLICIES)}`,
      "any other topologyManagerPolicy",
      174,
    );
  if (str(k.topologyManagerScope) && k.topologyManagerScope !== "" && !TOPOLOGY_SCOPES.includes(k.topologyManagerScope))
    add(
      "topologyManagerScope",
      k.topologyManagerScope,
      `one of ${q(TOPOLOGY_SCOPES)}`,
      "any other topologyManagerScope",
      181,
    );

  // :240-:286 enforceNodeAllocatable; the cgroups it names are set by nodeadm (not judged); cgroupsPerQOS false
  // (set by the user) fails with any enforcement but none, and the default enforcement is ["pods"] (defaults.go)
  const enforce = k.enforceNodeAllocatable;
  const cgroupsPerQOSOff = k.cgroupsPerQOS === false;
  if (known(enforce) && Array.isArray(enforce) && enforce.every((v) => str(v))) {
    const vals = enforce as string[];
    const why: string[] = [];
    const lines: number[] = [];
    const flag = (text: string, line: number) => {
      why.push(text);
      lines.push(line);
    };
    const dup = vals.find((v, i) => vals.indexOf(v) !== i);
    if (vals.includes("system-reserved") && vals.includes("system-reserved-compressible"))
      flag('"system-reserved" with "system-reserved-compressible"', 245);
    if (vals.includes("kube-reserved") && vals.includes("kube-reserved-compressible"))
      flag('"kube-reserved" with "kube-reserved-compressible"', 249);
    if (dup !== undefined) flag(`${JSON.stringify(dup)} twice`, 255);
    const unknown = vals.filter((v) => !ENFORCEMENTS.includes(v));
    if (unknown.length > 0) flag(`the option ${q(unknown)}`, 278);
    if (vals.includes("none") && vals.length > 1) flag('"none" with other enforcements', 272);
    const enforced = vals.filter((v) => v !== "none" && ENFORCEMENTS.includes(v));
    if (cgroupsPerQOSOff && enforced.length > 0) flag(`${q(enforced)} with cgroupsPerQOS false`, 284);
    if (why.length > 0)
      add(
        "enforceNodeAllocatable",
        enforce,
        `distinct options of ${q(ENFORCEMENTS)}: "none" alone, a reserved option or its -compressible form but not both${cgroupsPerQOSOff ? ', and with cgroupsPerQOS false only ["none"]' : ""}`,
        why.join("; "),
        `${VALIDATION}:${lines.join(", :")}`,
      );
  } else if (!known(enforce) && cgroupsPerQOSOff)
    add(
      "cgroupsPerQOS",
      k.cgroupsPerQOS,
      'true, or cgroupsPerQOS false with enforceNodeAllocatable ["none"]',
      'cgroupsPerQOS false with the default enforceNodeAllocatable ["pods"] (defaults.go)',
      284,
    );

  // :288 hairpinMode ("" is defaulted; nodeadm sets hairpin-veth)
  if (str(k.hairpinMode) && k.hairpinMode !== "" && !HAIRPIN_MODES.includes(k.hairpinMode))
    add("hairpinMode", k.hairpinMode, `one of ${q(HAIRPIN_MODES)}`, "any other hairpinMode", 292);

  // :327 reservedSystemCPUs, read by k8s.io/utils cpuset.Parse
  if (str(k.reservedSystemCPUs)) {
    const problem = cpusetProblem(k.reservedSystemCPUs);
    if (problem !== undefined)
      add(
        "reservedSystemCPUs",
        k.reservedSystemCPUs,
        'a CPU list such as "0-1" or "0,2,4-7" (numbers and increasing ranges, comma-separated, no spaces)',
        `a reservedSystemCPUs cpuset.Parse does not read: ${problem}`,
        327,
      );
  }

  // :323 reservedSystemCPUs beside a systemReservedCgroup or kubeReservedCgroup the user sets
  if (str(k.reservedSystemCPUs) && k.reservedSystemCPUs !== "") {
    const cgroup = ["systemReservedCgroup", "kubeReservedCgroup"].find((f) => str(k[f]) && k[f] !== "");
    if (cgroup !== undefined)
      add(
        "reservedSystemCPUs",
        k.reservedSystemCPUs,
        `unset when ${cgroup} is set (reserve CPUs by list or by cgroup, not both)`,
        `reservedSystemCPUs with ${cgroup} ("can't use reservedSystemCPUs (--reserved-cpus) with systemReservedCgroup (--system-reserved-cgroup) or kubeReservedCgroup (--kube-reserved-cgroup)")`,
        323,
      );
  }

  // :339 logging, component-base logs/api/v1 Validate: the kubelet registers "text" and "json"; "" is defaulted
  const logging = k.logging;
  if (obj(logging) && str(logging.format) && logging.format !== "" && !LOG_FORMATS.includes(logging.format))
    add(
      "logging.format",
      logging.format,
      `one of ${q(LOG_FORMATS)}`,
      'any other log format ("Unsupported log format")',
      `${VALIDATION}:339 -> k8s.io/component-base@v0.36.3 logs/api/v1/options.go:156`,
    );

  // :339 logging, the rest of component-base logs/api/v1 Validate (options.go:139-220): a zero flushFrequency is
  // defaulted to 5s first (options.go:394, SetRecommendedLoggingConfiguration), a negative one is refused
  const LOGS = "k8s.io/component-base@v0.36.3 logs/api/v1/options.go";
  if (obj(logging)) {
    const flush = logging.flushFrequency;
    const flushNs = typeof flush === "number" && int(flush) ? BigInt(flush) : signedNanos(flush);
    if (flushNs !== undefined && flushNs < 0n)
      add(
        "logging.flushFrequency",
        flush,
        'a positive duration (the default is "5s")',
        'a negative logging.flushFrequency ("Must be greater than zero")',
        `${VALIDATION}:339 -> ${LOGS}:141`,
      );
    if (int(logging.verbosity) && logging.verbosity > INT32_MAX)
      add(
        "logging.verbosity",
        logging.verbosity,
        `a verbosity of at most ${INT32_MAX} (klog takes a positive int32)`,
        "a logging.verbosity above the int32 maximum",
        `${VALIDATION}:339 -> ${LOGS}:170`,
      );
    const vmodule = logging.vmodule;
    if (Array.isArray(vmodule) && vmodule.length > 0) {
      if (str(logging.format) && logging.format !== "" && logging.format !== "text")
        add(
          "logging.vmodule",
          vmodule,
          'no vmodule, or the "text" log format',
          `a vmodule with the ${JSON.stringify(logging.format)} log format ("Only supported for text log format")`,
          `${VALIDATION}:339 -> ${LOGS}:174`,
        );
      vmodule.forEach((item, i) => {
        if (!obj(item)) return;
        const at = `logging.vmodule[${i}]`;
        const pattern = item.filePattern;
        if (pattern === undefined || pattern === null || pattern === "")
          add(
            `${at}.filePattern`,
            pattern,
            'a file pattern such as "controller*"',
            'a vmodule item without a file pattern ("File pattern must not be empty")',
            `${VALIDATION}:339 -> ${LOGS}:178`,
          );
        else if (str(pattern) && /[=,]/.test(pattern))
          add(
            `${at}.filePattern`,
            pattern,
            "a file pattern without = or ,",
            'a vmodule file pattern with = or , ("File pattern must not contain equal sign or comma")',
            `${VALIDATION}:339 -> ${LOGS}:181`,
          );
        if (int(item.verbosity) && item.verbosity > INT32_MAX)
          add(
            `${at}.verbosity`,
            item.verbosity,
            `a verbosity of at most ${INT32_MAX}`,
            "a vmodule verbosity above the int32 maximum",
            `${VALIDATION}:339 -> ${LOGS}:184`,
          );
      });
    }
  }

  // :343 tracing, component-base tracing/api/v1 ValidateTracingConfiguration (config.go:33-88)
  const TRACING = "k8s.io/component-base@v0.36.3 tracing/api/v1/config.go";
  const tracing = k.tracing;
  if (obj(tracing)) {
    const rate = tracing.samplingRatePerMillion;
    if (int(rate) && (rate < 0 || rate > 1_000_000))
      add(
        "tracing.samplingRatePerMillion",
        rate,
        "a number from 0 to 1000000 (samples per million spans)",
        "a samplingRatePerMillion outside 0 to 1000000",
        `${VALIDATION}:343 -> ${TRACING}:47-61`,
      );
    const endpoint = tracing.endpoint;
    const why = str(endpoint) ? tracingEndpointProblem(endpoint) : undefined;
    if (why !== undefined)
      add(
        "tracing.endpoint",
        endpoint,
        'a gRPC target: "host:port" (dns), "dns://…", "unix:///path" or "unix-abstract:name"',
        `a tracing endpoint that ${why}`,
        `${VALIDATION}:343 -> ${TRACING}:64-88`,
      );
  }

  // :334 validation_linux.go:44-56 userNamespaces.idsPerPod: a multiple of 65536 from 65536 to 2^32 - 1
  const users = k.userNamespaces;
  if (obj(users) && int(users.idsPerPod)) {
    const ids = users.idsPerPod;
    const rule =
      ids < 65536
        ? "an idsPerPod below 65536"
        : ids % 65536 !== 0
          ? "an idsPerPod that is no multiple of 65536"
          : ids > 2 ** 32 - 1
            ? "an idsPerPod above 4294967295"
            : undefined;
    if (rule !== undefined)
      add(
        "userNamespaces.idsPerPod",
        ids,
        "a multiple of 65536 from 65536 to 4294901760 (the default is 65536)",
        rule,
        "k8s.io/kubernetes@v1.36.3 pkg/kubelet/apis/config/validation/validation_linux.go:44-56 (validation.go:334)",
      );
  }

  // :337 showHiddenMetricsForVersion: "" or the kubelet's previous minor, "1.N" (component-base metrics/api/v1
  // config.go:103-115 compares with fmt "%d.%d"): anything not of that form is refused whatever the kubelet's version
  const hidden = k.showHiddenMetricsForVersion;
  if (str(hidden) && hidden !== "" && !/^1\.(0|[1-9]\d*)$/.test(hidden))
    add(
      "showHiddenMetricsForVersion",
      hidden,
      'the minor before the kubelet\'s own, written "1.N" (for a 1.34 node "1.33"), or unset',
      "any showHiddenMetricsForVersion other than the previous minor (\"must be omitted or have the value '1.N'\")",
      `${VALIDATION}:337 -> k8s.io/component-base@v0.36.3 metrics/api/v1/config.go:103-115`,
    );

  // :350 memoryThrottlingFactor
  if (num(k.memoryThrottlingFactor) && (k.memoryThrottlingFactor <= 0 || k.memoryThrottlingFactor > 1))
    add(
      "memoryThrottlingFactor",
      k.memoryThrottlingFactor,
      "a number above 0 and at most 1 (the default is 0.9)",
      "a memoryThrottlingFactor outside (0, 1]",
      350,
    );

  // :372 enableSystemLogQuery needs enableSystemLogHandler (both set: the handler defaults to true)
  if (k.enableSystemLogQuery === true && k.enableSystemLogHandler === false)
    add(
      "enableSystemLogQuery",
      k.enableSystemLogQuery,
      "false, or enableSystemLogHandler true",
      "enableSystemLogQuery with enableSystemLogHandler false",
      372,
    );

  // :377, :381, :385 container logs
  if (int(k.containerLogMaxWorkers) && k.containerLogMaxWorkers < 1)
    add(
      "containerLogMaxWorkers",
      k.containerLogMaxWorkers,
      "a number of 1 or more",
      "a containerLogMaxWorkers below 1",
      377,
    );
  const monitor = signedNanos(k.containerLogMonitorInterval);
  if (monitor !== undefined && monitor < 3n * SECOND)
    add(
      "containerLogMonitorInterval",
      k.containerLogMonitorInterval,
      'a duration of 3s or more (the default is "10s")',
      "a containerLogMonitorInterval under 3s",
      381,
    );
  if (int(k.containerLogMaxFiles) && k.containerLogMaxFiles <= 1)
    add(
      "containerLogMaxFiles",
      k.containerLogMaxFiles,
      "a number of 2 or more (the default is 5)",
      "a containerLogMaxFiles of 1 or less",
      385,
    );

  // pkg/kubelet/kubelet.go:721-731 -> logs/container_log_manager.go:118 containerLogMaxSize (resource.ParseQuantity)
  if (str(k.containerLogMaxSize) && k.containerLogMaxSize !== "" && !QUANTITY.test(k.containerLogMaxSize))
    add(
      "containerLogMaxSize",
      k.containerLogMaxSize,
      'a quantity of bytes such as "10Mi" or "50M"',
      'a containerLogMaxSize that is no quantity ("failed to initialize container log manager")',
      "k8s.io/kubernetes@v1.36.3 pkg/kubelet/kubelet.go:721-731 -> pkg/kubelet/logs/container_log_manager.go:118",
    );

  // :393, :397, :403 podLogsDir ("" is defaulted to /var/log/pods)
  if (str(k.podLogsDir) && k.podLogsDir !== "") {
    const d = k.podLogsDir;
    const [rule, line] = !d.startsWith("/")
      ? ["a podLogsDir that is no absolute path", 393]
      : goCleanPath(d) !== d
        ? [`a podLogsDir that is not normalized (${JSON.stringify(goCleanPath(d))} is)`, 397]
        : [...d].some((ch) => ch.charCodeAt(0) > 127)
          ? ["a podLogsDir with characters beyond ASCII", 403]
          : [undefined, 0];
    if (rule !== undefined)
      add("podLogsDir", d, 'an absolute, normalized ASCII path such as "/var/log/pods"', rule, line as number);
  }

  // :332 validation_reserved_memory.go:37-58 reservedMemory: only memory and hugepages-<size>, no zero, no repeat
  const RESERVED_MEMORY = "k8s.io/kubernetes@v1.36.3 pkg/kubelet/apis/config/validation/validation_reserved_memory.go";
  const reserved = k.reservedMemory;
  if (Array.isArray(reserved)) {
    const seenPairs = new Set<string>();
    reserved.forEach((item, i) => {
      if (!obj(item) || !obj(item.limits)) return;
      const numa = int(item.numaNode) ? item.numaNode : 0;
      for (const [resource, q] of Object.entries(item.limits)) {
        const at = `reservedMemory[${i}].limits[${JSON.stringify(resource)}]`;
        if (resource !== "memory" && !resource.startsWith("hugepages-"))
          add(
            at,
            q,
            'a limit of "memory" or "hugepages-<size>" (such as "hugepages-2Mi")',
            `a reserved memory limit of another resource ("the limit type ${resource} for NUMA node ${numa} is not supported")`,
            `${RESERVED_MEMORY}:42-44`,
          );
        else if (quantityIsZero(q))
          add(
            at,
            q,
            "a quantity above zero",
            'a zero reserved memory limit ("reserved memory may not be zero")',
            `${RESERVED_MEMORY}:46-49`,
          );
        const pair = `${numa}/${resource}`;
        if (seenPairs.has(pair))
          add(
            at,
            q,
            `one entry per NUMA node and resource (NUMA node ${numa} and ${resource} are set before)`,
            `a repeated NUMA node and resource ("the reserved memory has a duplicate value for NUMA node ${numa}")`,
            `${RESERVED_MEMORY}:51-54`,
          );
        seenPairs.add(pair);
      }
    });
  }

  // the Static memory manager needs reservedMemory summing to the node's allocatable reservation of memory
  // (pkg/kubelet/cm/memorymanager/memory_manager.go:419-471 validateReservedMemory, via getSystemReservedMemory and
  // NewManager, container_manager_linux.go:345-356): that reservation is never zero on a Karpenter node (nodeadm's
  // kubeReserved memory, 11 * maxPods + 255 Mi, and the kubelet's hard eviction threshold for memory.available, "100Mi"
  // by default, while a zero threshold is refused), so an empty or unset reservedMemory fails on every machine
  if (
    k.memoryManagerPolicy === "Static" &&
    (k.reservedMemory === undefined ||
      k.reservedMemory === null ||
      (Array.isArray(k.reservedMemory) && k.reservedMemory.length === 0))
  )
    add(
      "memoryManagerPolicy",
      k.memoryManagerPolicy,
      '"None", or "Static" with reservedMemory per NUMA node summing to kubeReserved + systemReserved + the hard eviction threshold for memory',
      'the Static memory manager without reservedMemory ("the total amount \\"0\\" of type \\"memory\\" is not equal to the value … determined by Node Allocatable feature")',
      `${CM}/memorymanager/memory_manager.go:419-471 (container_manager_linux.go:345-356)`,
    );

  // :337 showHiddenMetricsForVersion on a known Kubernetes minor: exactly the previous minor (metrics/api/v1/config.go:109-111)
  const hiddenVersion = k.showHiddenMetricsForVersion;
  const judged = judgedKubeletMinors(kubernetesVersion);
  if (str(hiddenVersion) && /^1\.(0|[1-9]\d*)$/.test(hiddenVersion) && judged.known) {
    const minor = Number(judged.minors[0].split(".")[1]);
    if (hiddenVersion !== `1.${minor - 1}`)
      add(
        "showHiddenMetricsForVersion",
        hiddenVersion,
        `"1.${minor - 1}" (the minor before the cluster's Kubernetes 1.${minor}), or unset`,
        `a showHiddenMetricsForVersion other than the previous minor ("must be omitted or have the value '1.${minor - 1}'")`,
        `${VALIDATION}:337 -> k8s.io/component-base@v0.36.3 metrics/api/v1/config.go:103-115`,
      );
  }

  // cmd/kubelet/app/auth.go:122-143 BuildAuthz: authorization.mode AlwaysAllow or Webhook ("" is defaulted to Webhook)
  const authorization = k.authorization;
  if (obj(authorization) && str(authorization.mode) && !["", "AlwaysAllow", "Webhook"].includes(authorization.mode))
    add(
      "authorization.mode",
      authorization.mode,
      '"Webhook" (the default) or "AlwaysAllow" (case-sensitive)',
      `the authorization mode ${JSON.stringify(authorization.mode)} ("unknown authorization mode")`,
      "k8s.io/kubernetes@v1.36.3 cmd/kubelet/app/auth.go:122-143 (BuildAuthz, from BuildAuth :61)",
    );

  // cmd/kubelet/app/server.go:1168-1187 InitializeTLS: cipher suite and TLS version names (generated table)
  const tls = kubeletTlsNames();
  const suites = k.tlsCipherSuites;
  if (Array.isArray(suites)) {
    const all = [...tls.cipherSuites, ...tls.insecureCipherSuites];
    suites.forEach((s, i) => {
      if (str(s) && !all.includes(s)) {
        const near = nearestKey(s, all);
        add(
          `tlsCipherSuites[${i}]`,
          s,
          `a cipher suite name Go knows, such as "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"${near ? ` (did you mean ${near}?)` : ""}`,
          `a cipher suite it does not know ("Cipher suite ${s} not supported or doesn't exist")`,
          `k8s.io/kubernetes@v1.36.3 cmd/kubelet/app/server.go:1168-1171 -> ${tls.source.split(" (")[0]}; names: ${tls.go}`,
        );
      }
    });
  }
  const minVersion = k.tlsMinVersion;
  if (str(minVersion) && minVersion !== "" && !tls.tlsVersions.includes(minVersion))
    add(
      "tlsMinVersion",
      minVersion,
      `one of ${q(tls.tlsVersions)}`,
      `a TLS version name it does not know ("unknown tls version")`,
      `k8s.io/kubernetes@v1.36.3 cmd/kubelet/app/server.go:1184-1187 -> ${tls.source.split(" (")[0]}`,
    );

  // pkg/kubelet/cm/cpumanager/cpu_manager.go:190-205: the static CPU manager needs kube- plus system-reserved CPU above
  // zero. nodeadm reserves CPU in kubeReserved (internal/kubelet/config.go withDefaultReservedResources) and none in
  // systemReserved, and a drop-in's map replaces its keys one by one: only an explicit zero kubeReserved.cpu (and a
  // zero or unset systemReserved.cpu, no reservedSystemCPUs) leaves none
  const reservedCpu = (f: string): unknown => {
    const m = k[f];
    return obj(m) && Object.prototype.hasOwnProperty.call(m, "cpu") ? m.cpu : undefined;
  };
  const kubeCpu = reservedCpu("kubeReserved");
  const systemCpu = reservedCpu("systemReserved");
  if (
    k.cpuManagerPolicy === "static" &&
    kubeCpu !== undefined &&
    quantityIsZero(kubeCpu) &&
    (systemCpu === undefined || quantityIsZero(systemCpu)) &&
    !(str(k.reservedSystemCPUs) && k.reservedSystemCPUs !== "")
  )
    add(
      "cpuManagerPolicy",
      k.cpuManagerPolicy,
      'a kubeReserved or systemReserved cpu above zero with the static policy (leave kubeReserved.cpu unset for the AMI\'s own reservation), or the "none" policy',
      `the static CPU manager policy with no CPU reserved (kubeReserved.cpu ${JSON.stringify(kubeCpu)}${systemCpu === undefined ? "" : `, systemReserved.cpu ${JSON.stringify(systemCpu)}`}: "the static policy requires systemreserved.cpu + kubereserved.cpu to be greater than zero")`,
      "k8s.io/kubernetes@v1.36.3 pkg/kubelet/cm/cpumanager/cpu_manager.go:190-205 (from container_manager_linux.go:339-341)",
    );

  // pkg/kubelet/kubelet.go:579-584: a clusterDNS entry that is no IP address is skipped with a log line
  const dns = k.clusterDNS;
  if (Array.isArray(dns))
    dns.forEach((ip, i) => {
      if (str(ip) && !isKubeletIp(ip)) {
        const field = `kubelet.clusterDNS[${i}]`;
        if (seen.has(field)) return;
        seen.add(field);
        out.push({
          field,
          value: ip,
          allowed: 'an IPv4 or IPv6 address such as "10.100.0.10" (the cluster DNS Service IP, without port or CIDR)',
          rule: "a clusterDNS entry that is no IP address",
          source: "k8s.io/kubernetes@v1.36.3 pkg/kubelet/kubelet.go:579-584",
          effect:
            'the kubelet writes the valid entries into every pod\'s resolv.conf and skips one that is no IP address with a log line ("Invalid clusterDNS IP"), so pods get no cluster DNS server from it and cannot resolve Service names',
        });
      }
    });

  // pkg/kubelet/kubelet.go:1097-1103 NewMainKubelet: allowedUnsafeSysctls become a sysctl allowlist
  const sysctls = k.allowedUnsafeSysctls;
  if (Array.isArray(sysctls))
    sysctls.forEach((s, i) => {
      const problem = str(s) ? unsafeSysctlProblem(s) : undefined;
      if (problem !== undefined)
        add(
          `allowedUnsafeSysctls[${i}]`,
          s,
          'a namespaced sysctl or pattern: "kernel.shm*", "kernel.msg*", "kernel.sem", "fs.mqueue.*" or "net.*" and names under them, such as "net.core.somaxconn"',
          problem,
          "k8s.io/kubernetes@v1.36.3 pkg/kubelet/kubelet.go:1097-1103 -> pkg/kubelet/sysctl/allowlist.go:44-68",
        );
    });

  // the container manager, created when the kubelet starts (k8s.io/kubernetes v1.36.3 pkg/kubelet/cm/
  // container_manager_linux.go:298-358): an error in the topology, CPU or memory manager's configuration stops it
  managerProblems(k, add);

  return out;
}

/**
 * Whether the kubelet reads `ip` as an IP address (k8s.io/utils netutils.ParseIPSloppy, which also takes IPv4 octets
 * with leading zeros, as Go's net.ParseIP did before Go 1.17).
 */
export function isKubeletIp(ip: string): boolean {
  return parseIpSloppy(ip) !== undefined;
}

/** A sysctl segment and a pattern's last segment (k8s.io/kubernetes v1.36.3 pkg/apis/core/validation/validation.go:5450, pkg/apis/policy/validation/validation.go:95-100). */
const SYSCTL_PATTERN = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*([a-z0-9][-_a-z0-9]*)?[a-z0-9*]$/;
/** The sysctls the kubelet knows to be namespaced, by name and by prefix (k8s.io/component-helpers v0.36.3 node/util/sysctl/namespace.go:39-62, namespaceOf :68-78, GetNamespace :95-104). */
const SYSCTL_NAMESPACED = [
  "kernel.sem",
  "kernel.shmall",
  "kernel.shmmax",
  "kernel.shmmni",
  "kernel.shm_rmid_forced",
  "kernel.shm",
  "kernel.msgmax",
  "kernel.msgmnb",
  "kernel.msgmni",
  "kernel.msg",
];
const SYSCTL_NAMESPACED_PREFIXES = ["net", "fs.mqueue"];

/**
 * Why the kubelet refuses an allowedUnsafeSysctls entry when it builds its sysctl allowlist (NewAllowlist,
 * pkg/kubelet/sysctl/allowlist.go:44-68): not a sysctl pattern, or a sysctl no namespace is known for (the kubelet
 * allows only namespaced sysctls in pods). Undefined when it takes it.
 */
export function unsafeSysctlProblem(s: string): string | undefined {
  if (s.length > 253 || !SYSCTL_PATTERN.test(s))
    return `the sysctl pattern ${JSON.stringify(s)} ("must have at most 253 characters and match regex …"; lower-case segments separated by "." or "/", a "*" only at the end)`;
  // component-helpers node/util/sysctl/sysctl.go:109-131 NormalizeName: a "/"-separated name is read with "." separators
  const first = s.search(/[./]/);
  const name = first !== -1 && s[first] === "/" ? s.replace(/[./]/g, (c) => (c === "." ? "/" : ".")) : s;
  const star = name.indexOf("*");
  const base = star === -1 ? name : name.slice(0, star);
  const known = SYSCTL_NAMESPACED.includes(base) || SYSCTL_NAMESPACED_PREFIXES.some((p) => base.startsWith(`${p}.`));
  return known
    ? undefined
    : `a sysctl not known to be namespaced ("the sysctls ${JSON.stringify(base)} are not known to be namespaced")`;
}

/**
 * Every rule of the kubelet on the values of its configuration `k` (a KubeletConfiguration's fields, as the kubelet
 * reads them after its drop-ins are merged): its validation at start ({@link kubeletRuntimeProblems}, with the gates
 * of `kubernetesVersion`'s minor) and its parse of the eviction thresholds and reservations
 * ({@link startupParseProblems}). The one set every path into the kubelet is held to: a NodeConfig's kubelet config,
 * its kubelet flags, Bottlerocket settings (each adapted to KubeletConfiguration fields by its caller); the class's
 * own kubelet states the eviction and reservation rules in Karpenter's words instead.
 */
export function kubeletValueProblems(k: Record<string, unknown>, kubernetesVersion?: string): KubeletRuntimeProblem[] {
  const out = kubeletRuntimeProblems(k, kubernetesVersion);
  const seen = new Set(out.map((p) => p.field));
  return [...out, ...startupParseProblems(k).filter((p) => !seen.has(p.field))];
}

/** The signals the kubelet's eviction manager knows (k8s.io/kubernetes v1.36.3 pkg/kubelet/eviction/helpers.go:98-107). */
const KUBELET_EVICTION_SIGNALS = [
  "memory.available",
  "allocatableMemory.available",
  "imagefs.available",
  "imagefs.inodesFree",
  "containerfs.available",
  "containerfs.inodesFree",
  "nodefs.available",
  "nodefs.inodesFree",
  "pid.available",
];
const RESERVABLE = ["cpu", "memory", "ephemeral-storage", "pid"];

/**
 * What the kubelet refuses when it parses its eviction thresholds and reservations at start (fresh tester 24 S-1, S-3,
 * S-4), for a NodeConfig's kubelet config, its kubelet flags and Bottlerocket settings (the class's own kubelet has these rules in ec2-node-class-rules.ts, in Karpenter's words):
 * an eviction signal it does not know, a threshold it cannot parse or that is zero, a soft threshold without a grace
 * period (pkg/kubelet/eviction/helpers.go:128-160 ParseThresholdConfig, :378-420), and a kubeReserved / systemReserved
 * resource it cannot reserve or a quantity it cannot parse (cmd/kubelet/app/server.go:831-840 -> :1356-1378
 * parseResourceList). Each stops the kubelet (server.go:845), so the node never joins.
 */
export function startupParseProblems(k: Record<string, unknown>): KubeletRuntimeProblem[] {
  const out: KubeletRuntimeProblem[] = [];
  const map = (x: unknown): Record<string, unknown> | undefined =>
    isPlainMap(x) && !isToken(x) ? (x as Record<string, unknown>) : undefined;
  const eviction = `${KUBELET_EVICTION_SOURCE}:128-160, 378-420 (ParseThresholdConfig, from cmd/kubelet/app/server.go:845)`;
  for (const field of ["evictionHard", "evictionSoft", "evictionMinimumReclaim"]) {
    const m = map(k[field]);
    if (!m) continue;
    for (const [signal, value] of Object.entries(m)) {
      if (isToken(signal) || isToken(value)) continue;
      const at = `kubelet.${field}["${signal}"]`;
      if (!KUBELET_EVICTION_SIGNALS.includes(signal)) {
        out.push({
          field: at,
          value,
          allowed: `an eviction signal the kubelet knows: ${KUBELET_EVICTION_SIGNALS.join(", ")}`,
          rule: `an eviction signal it does not know ("unsupported eviction signal ${signal}")`,
          source: eviction,
        });
        continue;
      }
      if (typeof value !== "string") continue;
      const refusal = kubeletEvictionRefusal(signal, value, field === "evictionMinimumReclaim");
      if (refusal)
        out.push({
          field: at,
          value,
          allowed: 'a percentage such as "10%" or a positive quantity such as "100Mi"',
          rule: `the threshold ${JSON.stringify(value)} ("${refusal.error}")`,
          source: `${KUBELET_EVICTION_SOURCE}:${refusal.lines}`,
        });
    }
  }
  // grace periods: Go durations of 0 or more (helpers.go:435-455 parseGracePeriods, time.ParseDuration)
  for (const [signal, value] of Object.entries(map(k.evictionSoftGracePeriod) ?? {})) {
    if (isToken(signal) || isToken(value) || typeof value !== "string") continue;
    const ns = signedNanos(value);
    if (ns === undefined || ns < 0n)
      out.push({
        field: `kubelet.evictionSoftGracePeriod["${signal}"]`,
        value,
        allowed: 'a Go duration of 0 or more, such as "1m30s"',
        rule:
          ns === undefined
            ? `a grace period time.ParseDuration does not read (${JSON.stringify(value)})`
            : `a negative grace period ("invalid eviction grace period specified: ${value}, must be a positive value")`,
        source: `${KUBELET_EVICTION_SOURCE}:435-455 (parseGracePeriods, from ParseThresholdConfig :139)`,
      });
  }
  const soft = map(k.evictionSoft);
  const grace = map(k.evictionSoftGracePeriod) ?? {};
  if (soft)
    for (const signal of Object.keys(soft))
      if (KUBELET_EVICTION_SIGNALS.includes(signal) && !Object.prototype.hasOwnProperty.call(grace, signal))
        out.push({
          field: `kubelet.evictionSoft["${signal}"]`,
          value: soft[signal],
          allowed: `an evictionSoftGracePeriod["${signal}"] beside it, such as "1m30s"`,
          rule: `a soft eviction threshold without a grace period ("grace period must be specified for the soft eviction threshold ${signal}")`,
          source: `${KUBELET_EVICTION_SOURCE}:147-152`,
        });
  for (const field of ["kubeReserved", "systemReserved"]) {
    const m = map(k[field]);
    if (!m) continue;
    for (const [resource, value] of Object.entries(m)) {
      if (isToken(resource) || isToken(value)) continue;
      const at = `kubelet.${field}["${resource}"]`;
      const source = `k8s.io/kubernetes v1.36.3 cmd/kubelet/app/server.go:831-840 -> :1356-1378 (parseResourceList)`;
      if (!RESERVABLE.includes(resource))
        out.push({
          field: at,
          value,
          allowed: `one of ${RESERVABLE.join(", ")}`,
          rule: `reserving ${JSON.stringify(resource)} ("cannot reserve")`,
          source,
        });
      else if (typeof value === "string" && !QUANTITY.test(value))
        out.push({
          field: at,
          value,
          allowed: 'a quantity such as "100m", "1Gi" or "1000"',
          rule: `a reservation that is no quantity ("failed to parse quantity")`,
          source,
        });
      else if (typeof value === "string" && isNegativeQuantity(value))
        out.push({
          field: at,
          value,
          allowed: "a quantity of 0 or more",
          rule: `a negative reservation ("cannot be negative")`,
          source,
        });
      // CPU with a binary suffix of Mi or more: over a million cores, more than any node has; the kubelet refuses a
      // reservation above the node's capacity when its container manager starts and exits
      else if (resource === "cpu" && typeof value === "string" && /^[0-9.]+[MGTPE]i$/.test(value.trim()))
        out.push({
          field: at,
          value,
          allowed: 'a CPU quantity such as "100m" (millicores) or "1" (cores)',
          rule: `a CPU reservation of ${value}, a byte suffix that means over a million cores, above any node's capacity ("Resource "cpu" has a reservation of … but capacity of …")`,
          source:
            "k8s.io/kubernetes v1.36.3 pkg/kubelet/cm/node_container_manager_linux.go:304-321 (validateNodeAllocatable, from container_manager_linux.go:688-690; kubelet.go:1819-1822 exits)",
        });
    }
  }
  return out;
}

/** A quantity (string or number) whose value is zero ("0", "0Gi", "0.0", 0); false for what is no quantity. */
function quantityIsZero(q: unknown): boolean {
  if (typeof q === "number") return q === 0;
  return str(q) && QUANTITY.test(q.trim()) && quantitySign(q.trim()) === 0;
}

const CM = "k8s.io/kubernetes@v1.36.3 pkg/kubelet/cm";
/** Go's strconv.ParseBool (strconv/atob.go): what the manager options' boolean values take. */
const GO_BOOLS = ["1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false", "False"];
const GO_TRUE = ["1", "t", "T", "TRUE", "true", "True"];
/** The static CPU manager's options by maturity (cpumanager/policy_options.go:31-52). */
const CPU_OPTIONS = {
  alpha: ["align-by-socket", "distribute-cpus-across-cores"],
  beta: ["distribute-cpus-across-numa"],
  stable: ["full-pcpus-only", "strict-cpu-reservation", "prefer-align-cpus-by-uncorecache"],
} as const;
/** Pairs of static CPU manager options that cannot both be true (policy_options.go:154-170). */
const CPU_OPTION_CONFLICTS = [
  ["full-pcpus-only", "distribute-cpus-across-cores"],
  ["distribute-cpus-across-numa", "distribute-cpus-across-cores"],
  ["prefer-align-cpus-by-uncorecache", "distribute-cpus-across-cores"],
  ["prefer-align-cpus-by-uncorecache", "distribute-cpus-across-numa"],
] as const;
const TOPOLOGY_OPTIONS = ["prefer-closest-numa-nodes", "max-allowable-numa-nodes"];

/**
 * The topology, CPU and memory managers' refusals at start (pkg/kubelet/cm): policies other than the managers know
 * (case-sensitive), options a policy does not take, options of a maturity whose gate is off (the user's featureGates
 * over the defaults: the alpha options' gates are off, the beta ones' on), option values Go cannot parse, and option
 * pairs that exclude each other. What depends on the machine (NUMA nodes, reserved CPUs and memory) is not judged.
 */
function managerProblems(
  k: Record<string, unknown>,
  add: (f: string, value: unknown, allowed: string, rule: string, line: number | string) => void,
): void {
  // memory manager: "None" (the default) or "Static"; BestEffort is Windows only (memorymanager/memory_manager.go:141-177)
  const memory = k.memoryManagerPolicy;
  if (str(memory) && memory !== "" && memory !== "None" && memory !== "Static")
    add(
      "memoryManagerPolicy",
      memory,
      '"None" (the default) or "Static" (case-sensitive)',
      `the memory manager policy ${JSON.stringify(memory)} ("unknown policy"${memory === "BestEffort" ? '; BestEffort "is not available for platform linux"' : ""})`,
      `${CM}/memorymanager/memory_manager.go:141-177 (container_manager_linux.go:345-356)`,
    );

  // CPU manager: "none" (the default) or "static" (cpumanager/cpu_manager.go:182-218)
  const cpu = k.cpuManagerPolicy;
  const cpuPolicy = str(cpu) && cpu !== "" ? cpu : "none";
  if (cpuPolicy !== "none" && cpuPolicy !== "static")
    add(
      "cpuManagerPolicy",
      cpu,
      '"none" (the default) or "static" (case-sensitive)',
      `the CPU manager policy ${JSON.stringify(cpu)} ("unknown policy")`,
      `${CM}/cpumanager/cpu_manager.go:182-218 (container_manager_linux.go:328-342)`,
    );
  const cpuOptions = k.cpuManagerPolicyOptions;
  if (obj(cpuOptions) && Object.keys(cpuOptions).length > 0 && cpuPolicy === "none")
    add(
      "cpuManagerPolicyOptions",
      cpuOptions,
      'no options with the "none" CPU manager policy (the default): set cpuManagerPolicy "static" to use them',
      'CPU manager options with the "none" policy ("None policy: received unsupported options")',
      `${CM}/cpumanager/policy_none.go:38-43`,
    );
  if (obj(cpuOptions) && cpuPolicy === "static") {
    const all: readonly string[] = [...CPU_OPTIONS.alpha, ...CPU_OPTIONS.beta, ...CPU_OPTIONS.stable];
    const source = `${CM}/cpumanager/policy_options.go`;
    for (const [name, value] of Object.entries(cpuOptions)) {
      const at = `cpuManagerPolicyOptions[${JSON.stringify(name)}]`;
      if (!all.includes(name))
        add(
          at,
          value,
          `one of ${q(all)}`,
          'an unknown CPU manager option ("unknown CPU Manager Policy option")',
          `${source}:57-60`,
        );
      else if (str(value) && !GO_BOOLS.includes(value))
        add(
          at,
          value,
          `a boolean Go reads: ${q(GO_BOOLS)}`,
          'a CPU manager option value that is no boolean ("bad value for option")',
          `${source}:110-146`,
        );
    }
    const on = (name: string) => str(cpuOptions[name]) && GO_TRUE.includes(cpuOptions[name] as string);
    for (const [a, b] of CPU_OPTION_CONFLICTS)
      if (on(a) && on(b))
        add(
          `cpuManagerPolicyOptions[${JSON.stringify(b)}]`,
          cpuOptions[b],
          `not true beside ${a}`,
          `the static policy options ${a} and ${b} together ("can not be used at the same time")`,
          `${source}:154-170`,
        );
  }

  // topology manager options: read only when the policy is not "none" (the default; topology_manager.go:171-179)
  const topology = k.topologyManagerPolicy;
  const topologyOptions = k.topologyManagerPolicyOptions;
  if (str(topology) && topology !== "none" && TOPOLOGY_POLICIES.includes(topology) && obj(topologyOptions))
    for (const [name, value] of Object.entries(topologyOptions)) {
      const at = `topologyManagerPolicyOptions[${JSON.stringify(name)}]`;
      const source = `${CM}/topologymanager/policy_options.go`;
      if (!TOPOLOGY_OPTIONS.includes(name))
        add(
          at,
          value,
          `one of ${q(TOPOLOGY_OPTIONS)}`,
          'an unknown topology manager option ("unknown Topology Manager Policy option")',
          `${source}:44-47`,
        );
      else if (!str(value)) continue;
      else if (name === "prefer-closest-numa-nodes" && !GO_BOOLS.includes(value))
        add(
          at,
          value,
          `a boolean Go reads: ${q(GO_BOOLS)}`,
          'a topology manager option value that is no boolean ("bad value for option")',
          `${source}:76-81`,
        );
      else if (name === "max-allowable-numa-nodes" && !(/^[+-]?\d{1,18}$/.test(value) && Number(value) >= 8))
        add(
          at,
          value,
          'a whole number of 8 or more (the default is 8), written as a string: "8"',
          /^[+-]?\d{1,18}$/.test(value)
            ? 'a max-allowable-numa-nodes below 8 ("should not be less than 8")'
            : 'a max-allowable-numa-nodes that is no whole number ("unable to convert policy option to integer")',
          `${source}:82-92`,
        );
    }
}

/** The kubelet's image GC thresholds when unset (k8s.io/kubernetes v1.36.3 pkg/kubelet/apis/config/v1beta1/defaults.go:157-162). */
const IMAGE_GC_DEFAULTS = { imageGCHighThresholdPercent: 85, imageGCLowThresholdPercent: 80 } as const;

/**
 * One image GC threshold set without the other, against the other's kubelet default (high 85, low 80): the kubelet
 * refuses a low threshold not below the high one when it starts (validation.go:93, "imageGCLowThresholdPercent …
 * must be less than imageGCHighThresholdPercent"), after defaulting the unset one. Undefined when both or neither
 * are set, or the pair is fine. Karpenter passes the typed thresholds on every AMI family and version.
 */
export function imageGcDefaultProblem(k: Record<string, unknown>): KubeletRuntimeProblem | undefined {
  const high = k.imageGCHighThresholdPercent;
  const low = k.imageGCLowThresholdPercent;
  if (known(high) === known(low)) return undefined;
  const [field, value, other] = int(high)
    ? (["imageGCHighThresholdPercent", high, "imageGCLowThresholdPercent"] as const)
    : int(low)
      ? (["imageGCLowThresholdPercent", low, "imageGCHighThresholdPercent"] as const)
      : [undefined, undefined, undefined];
  if (field === undefined || value < 0 || value > 100) return undefined;
  const d = IMAGE_GC_DEFAULTS[other];
  const refused = field === "imageGCHighThresholdPercent" ? value <= d : value >= d;
  if (!refused) return undefined;
  return {
    field: `kubelet.${field}`,
    value,
    allowed: `${field === "imageGCHighThresholdPercent" ? `above ${d}` : `below ${d}`}, or with ${other} set too (unset, the kubelet defaults it to ${d}, pkg/kubelet/apis/config/v1beta1/defaults.go:157-162)`,
    rule: `an imageGCLowThresholdPercent not below imageGCHighThresholdPercent ("must be less than imageGCHighThresholdPercent"), here ${field === "imageGCHighThresholdPercent" ? `low ${d} (default) against high ${value}` : `low ${value} against high ${d} (default)`}`,
    source: `${VALIDATION}:93`,
  };
}

/** Resources counted in bytes: a lower-case `m` suffix is milli-bytes (a thousandth of a byte), never what is meant. */
export const BYTE_RESOURCES: readonly string[] = [
  "memory",
  "ephemeral-storage",
  "memory.available",
  "nodefs.available",
  "imagefs.available",
];

/**
 * The byte quantities of the kubelet's reservation and eviction maps written with the milli suffix (`memory: "100m"`,
 * a tenth of a byte): valid quantities, so no path refuses them at runtime, but never what is meant. The class's
 * kubelet refuses them (node-semantic-rules.ts); the other paths warn (kubeletRuntimeWarnings, bottlerocketWarnings).
 */
export function milliByteQuantities(
  k: Record<string, unknown>,
): { readonly field: string; readonly key: string; readonly value: string }[] {
  const out: { field: string; key: string; value: string }[] = [];
  for (const field of ["kubeReserved", "systemReserved", "evictionHard", "evictionSoft"]) {
    const m = k[field];
    if (m === null || typeof m !== "object" || Array.isArray(m)) continue;
    for (const [key, value] of Object.entries(m as Record<string, unknown>))
      if (BYTE_RESOURCES.includes(key) && typeof value === "string" && /^[0-9.]+m$/.test(value))
        out.push({ field, key, value });
  }
  return out;
}

/**
 * Warnings for values the kubelet refuses beside what the AMI's nodeadm sets or a kubelet default, not the user: they
 * depend on the AMI (amazon-eks-ami nodeadm internal/kubelet/config.go), so they are not refused. Pure.
 */
export function kubeletRuntimeWarnings(k: Record<string, unknown>, kubernetesVersion?: string): string[] {
  const out: string[] = [...gatedOutcomes(k, kubernetesVersion).warnings];
  for (const p of milliByteQuantities(k))
    out.push(
      `kubelet.${p.field}["${p.key}"] = ${JSON.stringify(p.value)}: the suffix "m" means thousandths, so this is a fraction of one byte; the kubelet takes it (Kubernetes quantities), but it is surely a typo for "${p.value.slice(0, -1)}Mi" (mebibytes) or "${p.value.slice(0, -1)}M" (megabytes)`,
    );
  const cpus = k.reservedSystemCPUs;
  // :321-:325 reservedSystemCPUs with systemReservedCgroup or kubeReservedCgroup: nodeadm sets "/system" and "/runtime"
  if (
    str(cpus) &&
    cpus !== "" &&
    cpusetProblem(cpus) === undefined &&
    !known(k.systemReservedCgroup) &&
    !known(k.kubeReservedCgroup)
  )
    out.push(
      `kubelet.reservedSystemCPUs = ${JSON.stringify(cpus)}: the kubelet refuses reservedSystemCPUs beside systemReservedCgroup or kubeReservedCgroup (${VALIDATION}:321-325), and the AL2023 AMI's nodeadm sets both ("/system", "/runtime"; amazon-eks-ami nodeadm internal/kubelet/config.go withDefaultReservedResources): where it does, the kubelet does not start and the node never joins the cluster`,
    );
  // :186 shutdownGracePeriodCriticalPods above shutdownGracePeriod, which defaults to 0 when unset
  const critical = signedNanos(k.shutdownGracePeriodCriticalPods);
  if (critical !== undefined && critical > 0n && !known(k.shutdownGracePeriod))
    out.push(
      `kubelet.shutdownGracePeriodCriticalPods = ${JSON.stringify(k.shutdownGracePeriodCriticalPods)} without shutdownGracePeriod: the kubelet refuses shutdownGracePeriodCriticalPods above shutdownGracePeriod (${VALIDATION}:186), whose kubelet default is 0: unless your AMI sets it, the kubelet does not start and the node never joins the cluster. Set shutdownGracePeriod too`,
    );
  return out;
}

/*
 * Feature gates (kubelet-feature-gates.json, generated from k8s.io/kubernetes of each minor). The kubelet applies its
 * configuration's featureGates with SetFromMap (k8s.io/kubernetes@v1.36.3 cmd/kubelet/app/server.go:207, :240, and on a
 * copy in validation.go:59): an unknown gate, a locked gate set to the other value, a gate that is PreAlpha at the
 * kubelet's minor, or an enabled gate whose dependency is disabled fails (k8s.io/component-base@v0.36.3
 * featuregate/feature_gate.go:421, :426, :436, :466) and the kubelet exits. The kubelet then validates with the gates as
 * set: a gate's state is the user's value, else nodeadm's (amazon-eks-ami nodeadm internal/kubelet/config.go sets
 * RotateKubeletServerCertificate true, and DynamicResourceAllocation true from 1.33, withVersionToggles; its featureGates
 * and the user's drop-in are assumed merged key by key), else AllAlpha / AllBeta for a gate of that stage when the user
 * sets them (featuregate setUnsetAlphaGates / setUnsetBetaGates), else the default at the minor. The node runs the
 * kubelet of the cluster's Kubernetes minor: with a literal cluster version that minor is judged; otherwise every
 * minor of the table (the Kubernetes versions Karpenter 1.15 supports): what fails at every one is refused, what fails
 * at some is a warning. The rules are those of validation.go v1.36.3 at every minor; a rule whose gate a minor does not
 * know is not judged at that minor.
 */

const FEATURE_GATE = "k8s.io/component-base@v0.36.3 featuregate/feature_gate.go";

/** The gates nodeadm writes into the kubelet's featureGates at a minor (amazon-eks-ami nodeadm internal/kubelet/config.go). */
function nodeadmGates(minor: string): Record<string, boolean> {
  return {
    RotateKubeletServerCertificate: true,
    ...(Number(minor.split(".")[1]) >= 33 ? { DynamicResourceAllocation: true } : {}),
  };
}

/** The Kubernetes minors judged: the cluster's (`known`), or every minor of the table. */
export function judgedKubeletMinors(kubernetesVersion: string | undefined): { minors: string[]; known: boolean } {
  const m = kubernetesMinor(kubernetesVersion);
  if (m && kubeletFeatureGates(m) !== undefined) return { minors: [m], known: true };
  return { minors: kubeletGateMinors(), known: false };
}

/** The user's featureGates as booleans (a token or non-boolean value: undefined), or undefined when not judged. */
function userGates(k: Record<string, unknown>): Record<string, boolean | undefined> | undefined {
  const fg = k.featureGates;
  if (fg === undefined || fg === null) return {};
  if (!obj(fg)) return undefined;
  const out: Record<string, boolean | undefined> = {};
  for (const [g, v] of Object.entries(fg)) out[g] = typeof v === "boolean" && !isToken(g) ? v : undefined;
  return out;
}

/** A gate's state at a minor as the kubelet validates with it; undefined when unknown there or not judged. */
type GateOf = (gate: string) => boolean | undefined;

function gateOf(user: Record<string, boolean | undefined> | undefined, minor: string): GateOf {
  const nodeadm = nodeadmGates(minor);
  return (g) => {
    const spec = kubeletGate(minor, g);
    if (spec === undefined || user === undefined) return undefined;
    if (g in user) return user[g] === undefined ? undefined : spec.locked ? spec.default : user[g];
    if (g in nodeadm) return nodeadm[g];
    for (const [all, stage] of [
      ["AllAlpha", "Alpha"],
      ["AllBeta", "Beta"],
    ] as const)
      if (spec.stage === stage && all in user) return user[all];
    return spec.default;
  };
}

type Finding = Omit<KubeletRuntimeProblem, "source"> & { readonly source: string };

/** SetFromMap's refusals of the user's featureGates at a minor. */
function gateFindings(user: Record<string, boolean | undefined>, minor: string, gate: GateOf): Finding[] {
  const out: Finding[] = [];
  for (const [g, v] of Object.entries(user)) {
    if (v === undefined || isToken(g)) continue;
    const field = `kubelet.featureGates.${g}`;
    const spec = kubeletGate(minor, g);
    const alike = Object.keys(kubeletFeatureGates(minor)?.gates ?? {}).find(
      (n) => n !== g && n.toLowerCase() === g.toLowerCase(),
    );
    if (spec === undefined)
      out.push({
        field,
        value: v,
        allowed: `a feature gate the kubelet knows (kubelet-feature-gates.json; gate names are case-sensitive${alike !== undefined ? `: did you mean ${JSON.stringify(alike)}?` : ""})`,
        rule: `a feature gate it does not know ("unrecognized feature gate: ${g}")`,
        source: `${FEATURE_GATE}:421`,
      });
    else if (spec.locked && spec.default !== v)
      out.push({
        field,
        value: v,
        allowed: `${spec.default} or unset (${spec.stage}, locked to ${spec.default})`,
        rule: `a locked gate set to the other value ("cannot set feature gate ${g} to ${v}, feature is locked to ${spec.default}")`,
        source: `${FEATURE_GATE}:426`,
      });
    else if (spec.stage === "PreAlpha")
      out.push({
        field,
        value: v,
        allowed: "unset (the gate is not available at this version)",
        rule: `a gate that is PreAlpha at its version ("feature is PreAlpha at emulated version")`,
        source: `${FEATURE_GATE}:436`,
      });
  }
  if (out.length > 0) return out; // the dependencies are checked only when every gate was set
  const deps = kubeletFeatureGates(minor)?.dependencies ?? {};
  for (const [f, list] of Object.entries(deps)) {
    if (gate(f) !== true) continue;
    const off = list.filter((d) => gate(d) === false);
    const mine = [f, ...off].filter((g) => g in user);
    if (off.length === 0 || mine.length === 0) continue;
    const at = mine[0];
    out.push({
      field: `kubelet.featureGates.${at}`,
      value: user[at],
      allowed: `${f} enabled only with ${off.join(", ")} enabled too`,
      rule: `an enabled gate whose dependency is disabled ("${f} is enabled, but depends on features that are disabled: [${off.join(" ")}]")`,
      source: `${FEATURE_GATE}:466`,
    });
  }
  return out;
}

const IMAGE_PULL_POLICIES = [
  "NeverVerify",
  "NeverVerifyPreloadedImages",
  "NeverVerifyAllowlistedImages",
  "AlwaysVerify",
];
const RESERVATION_POLICIES = ["None", "TieredReservation"];

/** The rules of ValidateKubeletConfiguration behind a gate, at one minor's gate states. */
function gatedFindings(k: Record<string, unknown>, gate: GateOf): Finding[] {
  const out: Finding[] = [];
  const f = (field: string, value: unknown, allowed: string, rule: string, line: number) =>
    out.push({
      field: `kubelet.${field}`,
      value,
      allowed,
      rule,
      source: `${VALIDATION}:${line}`,
    });
  const g = (field: string, value: unknown, allowed: string, rule: string, source: string) =>
    out.push({ field: `kubelet.${field}`, value, allowed, rule, source });
  const on = (name: string) => gate(name) === true;
  const off = (name: string) => gate(name) === false;

  // :81 / :84 cpuCFSQuotaPeriod (gate CustomCPUCFSQuotaPeriod; unset is defaulted to 100ms)
  const cfs = signedNanos(k.cpuCFSQuotaPeriod);
  if (cfs !== undefined) {
    if (off("CustomCPUCFSQuotaPeriod") && cfs !== 100n * MS)
      f(
        "cpuCFSQuotaPeriod",
        k.cpuCFSQuotaPeriod,
        '"100ms", or featureGates.CustomCPUCFSQuotaPeriod: true for 1ms to 1s',
        'a cpuCFSQuotaPeriod other than 100ms with the CustomCPUCFSQuotaPeriod gate off ("requires feature gate CustomCPUCFSQuotaPeriod")',
        81,
      );
    else if (on("CustomCPUCFSQuotaPeriod") && (cfs < MS || cfs > SECOND))
      f(
        "cpuCFSQuotaPeriod",
        k.cpuCFSQuotaPeriod,
        'a duration from 1ms to 1s (the default is "100ms")',
        'a cpuCFSQuotaPeriod outside 1ms-1s ("must be between 1ms and 1sec, inclusive")',
        84,
      );
  }

  // :96 imageMaximumGCAge needs the ImageMaximumGCAge gate
  const maxAge = signedNanos(k.imageMaximumGCAge);
  if (maxAge !== undefined && maxAge !== 0n && off("ImageMaximumGCAge"))
    f(
      "imageMaximumGCAge",
      k.imageMaximumGCAge,
      '"0s" or unset, or featureGates.ImageMaximumGCAge: true',
      'an imageMaximumGCAge with the ImageMaximumGCAge gate off ("ImageMaximumGCAge feature gate is required")',
      96,
    );

  // :153 serverTLSBootstrap (nodeadm sets true) needs RotateKubeletServerCertificate
  const tls = k.serverTLSBootstrap === undefined ? true : k.serverTLSBootstrap;
  if (tls === true && off("RotateKubeletServerCertificate"))
    f(
      "featureGates.RotateKubeletServerCertificate",
      false,
      `true or unset${k.serverTLSBootstrap === undefined ? " (the AL2023 AMI's nodeadm sets serverTLSBootstrap true, internal/kubelet/config.go), or serverTLSBootstrap false" : ", or serverTLSBootstrap false"}`,
      'serverTLSBootstrap true with the RotateKubeletServerCertificate gate off ("requires feature gate RotateKubeletServerCertificate")',
      153,
    );

  // :185-:197 graceful shutdown (gate GracefulNodeShutdown)
  const grace = signedNanos(k.shutdownGracePeriod);
  const critical = signedNanos(k.shutdownGracePeriodCriticalPods);
  if (on("GracefulNodeShutdown")) {
    for (const [field, ns, line] of [
      ["shutdownGracePeriod", grace, 189],
      ["shutdownGracePeriodCriticalPods", critical, 192],
    ] as const)
      if (ns !== undefined && (ns < 0n || (ns > 0n && ns < SECOND)))
        f(field, k[field], '"0s" or a duration of 1s or more', `a ${field} that is negative or under 1s`, line);
    if (grace !== undefined && critical !== undefined && critical > grace)
      f(
        "shutdownGracePeriodCriticalPods",
        k.shutdownGracePeriodCriticalPods,
        `a duration not above shutdownGracePeriod (${JSON.stringify(k.shutdownGracePeriod)})`,
        "a shutdownGracePeriodCriticalPods above shutdownGracePeriod",
        186,
      );
  } else if (off("GracefulNodeShutdown") && ((grace ?? 0n) > 0n || (critical ?? 0n) > 0n)) {
    const field = (grace ?? 0n) > 0n ? "shutdownGracePeriod" : "shutdownGracePeriodCriticalPods";
    f(
      field,
      k[field],
      '"0s" or unset, or featureGates.GracefulNodeShutdown: true',
      'a shutdown grace period with the GracefulNodeShutdown gate off ("requires feature gate GracefulNodeShutdown")',
      196,
    );
  }

  // :199-:206 shutdownGracePeriodByPodPriority (gate GracefulNodeShutdownBasedOnPodPriority)
  const byPriority = k.shutdownGracePeriodByPodPriority;
  if (known(byPriority) && Array.isArray(byPriority) && byPriority.length > 0) {
    if (on("GracefulNodeShutdownBasedOnPodPriority") && ((grace ?? 0n) > 0n || (critical ?? 0n) > 0n))
      f(
        "shutdownGracePeriodByPodPriority",
        byPriority,
        'unset when shutdownGracePeriod or shutdownGracePeriodCriticalPods is set (use one or the other; "0s" disables them)',
        'shutdownGracePeriodByPodPriority with shutdownGracePeriod at the same time ("Cannot specify both")',
        200,
      );
    else if (off("GracefulNodeShutdownBasedOnPodPriority"))
      f(
        "shutdownGracePeriodByPodPriority",
        byPriority,
        "unset, or featureGates.GracefulNodeShutdownBasedOnPodPriority: true",
        'shutdownGracePeriodByPodPriority with the GracefulNodeShutdownBasedOnPodPriority gate off ("requires feature gate GracefulNodeShutdownBasedOnPodPriority")',
        204,
      );
  }

  // :209-:219 memorySwap (gate NodeSwap)
  const swap = k.memorySwap;
  if (obj(swap)) {
    if (
      on("NodeSwap") &&
      str(swap.swapBehavior) &&
      swap.swapBehavior !== "" &&
      !SWAP_BEHAVIORS.includes(swap.swapBehavior)
    )
      f(
        "memorySwap.swapBehavior",
        swap.swapBehavior,
        `one of ${q(SWAP_BEHAVIORS)} (or "")`,
        "any other memorySwap.swapBehavior",
        214,
      );
    else if (off("NodeSwap") && Object.values(swap).some((v) => v !== undefined && v !== "" && known(v)))
      f(
        "memorySwap",
        swap,
        "unset, or featureGates.NodeSwap: true",
        'memorySwap with the NodeSwap gate off ("memorySwap.swapBehavior cannot be set when NodeSwap feature flag is disabled")',
        218,
      );
  }

  // :222-:231 crashLoopBackOff.maxContainerRestartPeriod (gate KubeletCrashLoopBackOffMax; unset is defaulted when on)
  const clb = k.crashLoopBackOff;
  if (obj(clb) && known(clb.maxContainerRestartPeriod)) {
    const ns = signedNanos(clb.maxContainerRestartPeriod);
    if (on("KubeletCrashLoopBackOffMax") && ns !== undefined && (ns / MS < 1000n || ns / MS > 300_000n))
      f(
        "crashLoopBackOff.maxContainerRestartPeriod",
        clb.maxContainerRestartPeriod,
        "a duration from 1s to 300s",
        'a maxContainerRestartPeriod outside 1s-300s ("must be set between 1s and 300s")',
        227,
      );
    else if (off("KubeletCrashLoopBackOffMax"))
      f(
        "crashLoopBackOff.maxContainerRestartPeriod",
        clb.maxContainerRestartPeriod,
        "unset, or featureGates.KubeletCrashLoopBackOffMax: true",
        'crashLoopBackOff.maxContainerRestartPeriod with the KubeletCrashLoopBackOffMax gate off ("must not be set")',
        230,
      );
  }

  // :297-:319 image pull credential verification (gate KubeletEnsureSecretPulledImages; "" is defaulted when on)
  const policy = k.imagePullCredentialsVerificationPolicy;
  const allow = k.preloadedImagesVerificationAllowlist;
  const allowSet = known(allow) && Array.isArray(allow) && allow.length > 0;
  if (on("KubeletEnsureSecretPulledImages")) {
    if (str(policy) && policy !== "" && !IMAGE_PULL_POLICIES.includes(policy))
      f(
        "imagePullCredentialsVerificationPolicy",
        policy,
        `one of ${q(IMAGE_PULL_POLICIES)}`,
        "any other imagePullCredentialsVerificationPolicy",
        304,
      );
    else if (allowSet && (str(policy) || policy === undefined) && policy !== "NeverVerifyAllowlistedImages")
      f(
        "preloadedImagesVerificationAllowlist",
        allow,
        'unset unless imagePullCredentialsVerificationPolicy is "NeverVerifyAllowlistedImages"',
        `preloadedImagesVerificationAllowlist with the policy ${policy === undefined || policy === "" ? '"NeverVerifyPreloadedImages" (the default)' : JSON.stringify(policy)}`,
        309,
      );
  } else if (off("KubeletEnsureSecretPulledImages")) {
    if (str(policy) && policy !== "")
      f(
        "imagePullCredentialsVerificationPolicy",
        policy,
        "unset, or featureGates.KubeletEnsureSecretPulledImages: true",
        'imagePullCredentialsVerificationPolicy with the KubeletEnsureSecretPulledImages gate off ("must not be set")',
        315,
      );
    if (allowSet)
      f(
        "preloadedImagesVerificationAllowlist",
        allow,
        "unset, or featureGates.KubeletEnsureSecretPulledImages: true",
        'preloadedImagesVerificationAllowlist with the KubeletEnsureSecretPulledImages gate off ("must not be set")',
        318,
      );
  }

  // :354-:363 memoryReservationPolicy ("" is defaulted to None); TieredReservation needs MemoryQoS
  const reservation = k.memoryReservationPolicy;
  if (str(reservation) && reservation !== "" && !RESERVATION_POLICIES.includes(reservation))
    f(
      "memoryReservationPolicy",
      reservation,
      `one of ${q(RESERVATION_POLICIES)}`,
      "any other memoryReservationPolicy",
      362,
    );
  else if (reservation === "TieredReservation" && off("MemoryQoS"))
    f(
      "memoryReservationPolicy",
      reservation,
      '"None" or unset, or featureGates.MemoryQoS: true',
      'memoryReservationPolicy "TieredReservation" with the MemoryQoS gate off ("requires MemoryQoS feature gate to be enabled")',
      356,
    );

  // :369 enableSystemLogQuery needs NodeLogQuery
  if (k.enableSystemLogQuery === true && off("NodeLogQuery"))
    f(
      "enableSystemLogQuery",
      true,
      "false or unset, or featureGates.NodeLogQuery: true",
      'enableSystemLogQuery with the NodeLogQuery gate off ("NodeLogQuery feature gate is required")',
      370,
    );

  // :339 logging (component-base logs/api/v1 options.go): the json format needs LoggingBetaOptions (beta, on by
  // default), splitStream and a non-zero infoBufferSize need LoggingAlphaOptions (alpha, off by default)
  const LOGS = "k8s.io/component-base@v0.36.3 logs/api/v1/options.go";
  const logging = k.logging;
  if (obj(logging)) {
    if (logging.format === "json" && off("LoggingBetaOptions"))
      g(
        "logging.format",
        logging.format,
        '"text", or featureGates.LoggingBetaOptions left on',
        'the json log format with the LoggingBetaOptions gate off ("Log format json is disabled")',
        `${VALIDATION}:339 -> ${LOGS}:158-165`,
      );
    const options = logging.options;
    if (obj(options) && off("LoggingAlphaOptions"))
      for (const format of ["text", "json"]) {
        const o = options[format];
        if (!obj(o)) continue;
        if (o.splitStream === true)
          g(
            `logging.options.${format}.splitStream`,
            o.splitStream,
            "false, or featureGates.LoggingAlphaOptions: true",
            'splitStream with the LoggingAlphaOptions gate off ("Feature LoggingAlphaOptions is disabled")',
            `${VALIDATION}:339 -> ${LOGS}:202-217`,
          );
        const size = o.infoBufferSize;
        if (((str(size) && QUANTITY.test(size.trim())) || num(size)) && !quantityIsZero(size))
          g(
            `logging.options.${format}.infoBufferSize`,
            size,
            "0 (unset), or featureGates.LoggingAlphaOptions: true",
            'an infoBufferSize with the LoggingAlphaOptions gate off ("Feature LoggingAlphaOptions is disabled")',
            `${VALIDATION}:339 -> ${LOGS}:205-218`,
          );
      }
  }

  // the static CPU manager's alpha and beta options need their gates (pkg/kubelet/cm/cpumanager/policy_options.go:56-71)
  const cpuOptions = k.cpuManagerPolicyOptions;
  if (k.cpuManagerPolicy === "static" && obj(cpuOptions))
    for (const [name, value] of Object.entries(cpuOptions)) {
      const at = `cpuManagerPolicyOptions[${JSON.stringify(name)}]`;
      const source = `${CM}/cpumanager/policy_options.go`;
      if ((CPU_OPTIONS.alpha as readonly string[]).includes(name) && off("CPUManagerPolicyAlphaOptions"))
        g(
          at,
          value,
          "featureGates.CPUManagerPolicyAlphaOptions: true (alpha) to use this option",
          'an alpha CPU manager option with CPUManagerPolicyAlphaOptions off ("CPU Manager Policy Alpha-level Options not enabled")',
          `${source}:62-64`,
        );
      else if ((CPU_OPTIONS.beta as readonly string[]).includes(name) && off("CPUManagerPolicyBetaOptions"))
        g(
          at,
          value,
          "featureGates.CPUManagerPolicyBetaOptions left on to use this option",
          'a beta CPU manager option with CPUManagerPolicyBetaOptions off ("CPU Manager Policy Beta-level Options not enabled")',
          `${source}:66-68`,
        );
    }
  return out;
}

/** Sources `file:81` and `file:84` as `file:81, :84` (lines of one file together, in order). */
function joinSources(sources: readonly string[]): string {
  const byFile = new Map<string, string[]>();
  for (const src of sources) {
    const m = /^(.*):(\d+)$/.exec(src);
    const [file, line] = m ? [m[1], m[2]] : [src, ""];
    if (!byFile.has(file)) byFile.set(file, []);
    if (line !== "" && !byFile.get(file)!.includes(line)) byFile.get(file)!.push(line);
  }
  return [...byFile]
    .map(([file, lines]) =>
      lines.length === 0 ? file : `${file}:${lines.sort((a, b) => Number(a) - Number(b)).join(", :")}`,
    )
    .join("; ");
}

/**
 * The gate-dependent outcomes: refusals (what fails at the cluster's minor, or at every minor when it is unknown) and
 * warnings (what fails at some minors only, the cluster's version being unknown).
 */
function gatedOutcomes(
  k: Record<string, unknown>,
  kubernetesVersion: string | undefined,
): { problems: KubeletRuntimeProblem[]; warnings: string[] } {
  const { minors, known: versionKnown } = judgedKubeletMinors(kubernetesVersion);
  const user = userGates(k);
  const byField = new Map<string, Map<string, Finding[]>>();
  for (const minor of minors) {
    const gate = gateOf(user, minor);
    const found = [...(user === undefined ? [] : gateFindings(user, minor, gate)), ...gatedFindings(k, gate)];
    const once = new Set<string>();
    for (const p of found) {
      if (once.has(p.field)) continue;
      once.add(p.field);
      if (!byField.has(p.field)) byField.set(p.field, new Map());
      const m = byField.get(p.field)!;
      m.set(minor, [...(m.get(minor) ?? []), p]);
    }
  }
  const problems: KubeletRuntimeProblem[] = [];
  const warnings: string[] = [];
  for (const [field, perMinor] of byField) {
    const failing = minors.filter((m) => perMinor.has(m));
    // the minors of each distinct reason
    const reasons = new Map<string, { p: Finding; minors: string[] }>();
    for (const m of failing)
      for (const p of perMinor.get(m)!) {
        const key = `${p.allowed}|${p.rule}|${p.source}`;
        if (!reasons.has(key)) reasons.set(key, { p, minors: [] });
        reasons.get(key)!.minors.push(m);
      }
    const list = [...reasons.values()];
    const at = (ms: string[]) => (versionKnown ? `the cluster's Kubernetes ${ms[0]}` : `Kubernetes ${minorRanges(ms)}`);
    const allowed =
      list.length === 1
        ? `${list[0].p.allowed} (kubelet of ${at(list[0].minors)})`
        : list.map((r) => `on ${at(r.minors)}: ${r.p.allowed}`).join("; ");
    const rule = list.length === 1 ? list[0].p.rule : list.map((r) => `${r.p.rule} on ${at(r.minors)}`).join("; ");
    const source = joinSources(list.map((r) => r.p.source));
    const value = list[0].p.value;
    if (failing.length === minors.length) problems.push({ field, value, allowed, rule, source });
    else
      warnings.push(
        `${field} = ${JSON.stringify(value)}: on ${at(failing)} the kubelet refuses ${rule} (${source}; allowed: ${allowed}), and exits: the node never joins the cluster. It passes on Kubernetes ${minorRanges(minors.filter((m) => !failing.includes(m)))}; the cluster's Kubernetes version is not known at synth (a literal version on the cluster has it judged)`,
      );
  }
  return { problems, warnings };
}
