import {
  durationNanos,
  GO_DURATION,
  holdsToken,
  INT32_MAX,
  isToken,
  MAX_DURATION_NS,
  QUANTITY,
} from "../kubernetes/value-rules";

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
 * false, readOnlyPort 0, featureGates, logging.verbosity): so `systemCgroups` without `cgroupRoot` and
 * `enforceNodeAllocatable: ["system-reserved"]` without `systemReservedCgroup` are not refused. A rule behind a feature
 * gate is applied only where the value fails with the gate on and off alike. A zero value the v1beta1 defaults replace
 * (port 0, imageMinimumGCAge "0s", empty strings) is judged as its default: the kubelet defaults its configuration
 * again after merging the drop-ins (cmd/kubelet/app/server.go:386-392), so where a value came from does not matter. Values holding a token, and values of the
 * wrong JSON type (reported by the decode rule), are not judged. featureGates are not judged.
 */

/** A refusal: the field (`kubelet.<field>`), the value, what is allowed, and the kubelet's rule with its source. */
export interface KubeletRuntimeProblem {
  readonly field: string;
  readonly value: unknown;
  readonly allowed: string;
  readonly rule: string;
  readonly source: string;
}

const VALIDATION = "k8s.io/kubernetes@v1.36.3 pkg/kubelet/apis/config/validation/validation.go";

/** The message of a problem, for `c.fail(code, field, value, message)`. */
export function kubeletRuntimeMessage(p: KubeletRuntimeProblem): string {
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
export function kubeletRuntimeProblems(k: Record<string, unknown>): KubeletRuntimeProblem[] {
  const out: KubeletRuntimeProblem[] = [];
  const seen = new Set<string>();
  const add = (f: string, value: unknown, allowed: string, rule: string, line: number | string) => {
    const field = `kubelet.${f}`;
    if (seen.has(field)) return;
    seen.add(field);
    const source = typeof line === "number" ? `${VALIDATION}:${line}` : line;
    out.push({ field, value, allowed, rule, source });
  };
  const has = (f: string) => known(k[f]);

  // :66 nodeLeaseDurationSeconds <= 0 (0 is defaulted to 40, defaults.go)
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

  // :81/:84 cpuCFSQuotaPeriod: with the CustomCPUCFSQuotaPeriod gate off only 100ms passes, with it on 1ms to 1s:
  // outside 1ms-1s it fails either way
  const cfs = signedNanos(k.cpuCFSQuotaPeriod);
  if (cfs !== undefined && (cfs < MS || cfs > SECOND))
    add(
      "cpuCFSQuotaPeriod",
      k.cpuCFSQuotaPeriod,
      'a duration from 1ms to 1s (the default is "100ms"; other values need the CustomCPUCFSQuotaPeriod gate on kubelets before 1.36)',
      'a cpuCFSQuotaPeriod outside 1ms-1s ("must be between 1ms and 1sec, inclusive") or other than 100ms without the CustomCPUCFSQuotaPeriod gate',
      "k8s.io/kubernetes@v1.36.3 pkg/kubelet/apis/config/validation/validation.go:81, :84",
    );

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

  // :186-:206 graceful shutdown: with GracefulNodeShutdown off any positive value fails (:194), so a value the gated
  // rules refuse fails either way
  const grace = signedNanos(k.shutdownGracePeriod);
  const critical = signedNanos(k.shutdownGracePeriodCriticalPods);
  for (const [f, ns] of [
    ["shutdownGracePeriod", grace],
    ["shutdownGracePeriodCriticalPods", critical],
  ] as const)
    if (ns !== undefined && (ns < 0n || (ns > 0n && ns < SECOND)))
      add(
        f,
        k[f],
        '"0s" or a duration of 1s or more',
        `a ${f} that is negative or under 1s`,
        f === "shutdownGracePeriod" ? 189 : 192,
      );
  if (grace !== undefined && critical !== undefined && critical > grace)
    add(
      "shutdownGracePeriodCriticalPods",
      k.shutdownGracePeriodCriticalPods,
      `a duration not above shutdownGracePeriod (${JSON.stringify(k.shutdownGracePeriod)})`,
      "a shutdownGracePeriodCriticalPods above shutdownGracePeriod",
      186,
    );
  const byPriority = k.shutdownGracePeriodByPodPriority;
  if (
    known(byPriority) &&
    Array.isArray(byPriority) &&
    byPriority.length > 0 &&
    ((grace !== undefined && grace > 0n) || (critical !== undefined && critical > 0n))
  )
    add(
      "shutdownGracePeriodByPodPriority",
      byPriority,
      'unset when shutdownGracePeriod or shutdownGracePeriodCriticalPods is set (use one or the other; "0s" disables them)',
      "shutdownGracePeriodByPodPriority with shutdownGracePeriod at the same time (and it needs the GracefulNodeShutdownBasedOnPodPriority gate otherwise)",
      "k8s.io/kubernetes@v1.36.3 pkg/kubelet/apis/config/validation/validation.go:200, :206",
    );

  // :210/:219 memorySwap.swapBehavior: with NodeSwap on only "", NoSwap, LimitedSwap; with it off no memorySwap at all
  const swap = k.memorySwap;
  if (obj(swap) && str(swap.swapBehavior) && swap.swapBehavior !== "" && !SWAP_BEHAVIORS.includes(swap.swapBehavior))
    add(
      "memorySwap.swapBehavior",
      swap.swapBehavior,
      `one of ${q(SWAP_BEHAVIORS)} (or "")`,
      "any other memorySwap.swapBehavior",
      214,
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
  const gates = obj(k.featureGates) ? k.featureGates : {};
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
    // the format "json" is gated by LoggingBetaOptions (beta, on by default: logs/api/v1/kube_features.go:73)
    if (logging.format === "json" && gates.LoggingBetaOptions === false)
      add(
        "logging.format",
        logging.format,
        '"text", or featureGates.LoggingBetaOptions left on',
        'the json log format with the LoggingBetaOptions gate off ("Log format json is disabled")',
        `${VALIDATION}:339 -> ${LOGS}:158-165`,
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
    // options: splitStream and infoBufferSize are alpha (LoggingAlphaOptions, off by default: kube_features.go:70)
    const options = logging.options;
    if (obj(options) && gates.LoggingAlphaOptions !== true)
      for (const format of ["text", "json"]) {
        const o = options[format];
        if (!obj(o)) continue;
        if (o.splitStream === true)
          add(
            `logging.options.${format}.splitStream`,
            o.splitStream,
            "false, or featureGates.LoggingAlphaOptions: true",
            'splitStream with the LoggingAlphaOptions gate off ("Feature LoggingAlphaOptions is disabled")',
            `${VALIDATION}:339 -> ${LOGS}:202-217`,
          );
        const size = o.infoBufferSize;
        if (
          (str(size) && QUANTITY.test(size) && !/^[+-]?0*\.?0*([eE][+-]?\d+|[a-zA-Z]+)?$/.test(size)) ||
          (num(size) && size !== 0)
        )
          add(
            `logging.options.${format}.infoBufferSize`,
            size,
            "0 (unset), or featureGates.LoggingAlphaOptions: true",
            'an infoBufferSize with the LoggingAlphaOptions gate off ("Feature LoggingAlphaOptions is disabled")',
            `${VALIDATION}:339 -> ${LOGS}:205-218`,
          );
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

  // the container manager, created when the kubelet starts (k8s.io/kubernetes v1.36.3 pkg/kubelet/cm/
  // container_manager_linux.go:298-358): an error in the topology, CPU or memory manager's configuration stops it
  managerProblems(k, gates, add);

  return out;
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
  gates: Record<string, unknown>,
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
      else if ((CPU_OPTIONS.alpha as readonly string[]).includes(name) && gates.CPUManagerPolicyAlphaOptions !== true)
        add(
          at,
          value,
          "featureGates.CPUManagerPolicyAlphaOptions: true (alpha, off by default) to use this option",
          'an alpha CPU manager option with CPUManagerPolicyAlphaOptions off ("CPU Manager Policy Alpha-level Options not enabled")',
          `${source}:62-64`,
        );
      else if ((CPU_OPTIONS.beta as readonly string[]).includes(name) && gates.CPUManagerPolicyBetaOptions === false)
        add(
          at,
          value,
          "featureGates.CPUManagerPolicyBetaOptions left on to use this option",
          'a beta CPU manager option with CPUManagerPolicyBetaOptions off ("CPU Manager Policy Beta-level Options not enabled")',
          `${source}:66-68`,
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

/**
 * Warnings for values the kubelet refuses beside what the AMI's nodeadm sets or a kubelet default, not the user: they
 * depend on the AMI (amazon-eks-ami nodeadm internal/kubelet/config.go), so they are not refused. Pure.
 */
export function kubeletRuntimeWarnings(k: Record<string, unknown>): string[] {
  const out: string[] = [];
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
