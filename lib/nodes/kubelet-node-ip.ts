/*
 * What the kubelet makes of its `--node-ip` flag. nodeadm always sets it to the instance's address from IMDS
 * (amazon-eks-ami nodeadm internal/kubelet/config.go:226-234 withNodeIp, :386-408 getNodeIp) and appends the user's
 * flags after its own (internal/kubelet/environment.go:22-29), so a `--node-ip` in a NodeConfig's kubelet flags
 * replaces it (pflag: a later string flag replaces the earlier value). The kubelet reads it when it starts with
 * ParseNodeIPArgument in its sloppy mode (k8s.io/kubernetes v1.36.3 cmd/kubelet/app/server.go:1244-1250, RunKubelet;
 * k8s.io/component-helpers v0.36.3 node/util/ips.go:33-75): the items split at ",", each trimmed and read with
 * netutils.ParseIPSloppy; an item it cannot read is dropped with a log line ("Could not parse some node IP(s), ignoring
 * them"); more than two addresses, two of one family, a dual-stack pair where the cloud provider is neither "" nor
 * "external", or a pair holding 0.0.0.0 / :: fail ("bad --node-ip …") and the kubelet exits. Later, at every node status
 * update, the kubelet validates a node IP that is not 0.0.0.0 / :: (pkg/kubelet/nodestatus/setters.go:76-96, NodeAddress;
 * pkg/kubelet/kubelet_node_status.go:714-749, validateNodeIP) and on a loopback, multicast or link-local address logs
 * "Failed to set some node status fields" (kubelet_node_status.go:668-675) and sets neither the node's addresses nor the
 * alpha.kubernetes.io/provided-node-ip annotation the external cloud controller reads (setters.go:98-116).
 */

/** A `--node-ip` value's outcome: `refused` when the kubelet exits on it, `ignored` for what it drops or never uses. */
export interface NodeIpOutcome {
  readonly refused?: string;
  readonly ignored?: string;
}

const IPS_SOURCE =
  "k8s.io/kubernetes v1.36.3 cmd/kubelet/app/server.go:1244-1250, RunKubelet; k8s.io/component-helpers v0.36.3 node/util/ips.go:33-75, ParseNodeIPArgument";
const VALIDATE_SOURCE =
  "k8s.io/kubernetes v1.36.3 pkg/kubelet/nodestatus/setters.go:83-116, NodeAddress; pkg/kubelet/kubelet_node_status.go:668-675, 713-749, validateNodeIP";

/**
 * The kubelet's reading of a `--node-ip` value, given the `--cloud-provider` it runs with (nodeadm's "external" unless
 * the flags replace it).
 */
export function nodeIpOutcome(value: string, cloudProvider: string): NodeIpOutcome {
  if (value === "") return {};
  const items = value.split(",").map((s) => s.trim());
  const ips = items.map(parseIpSloppy);
  const invalid = items.filter((_, i) => ips[i] === undefined);
  const parsed = ips.filter((ip): ip is Uint8Array => ip !== undefined);
  const bad = (why: string) => ({
    refused: `--node-ip=${value}: ${why}, and the kubelet exits when it starts ("bad --node-ip ${JSON.stringify(value)}: ${why}"; ${IPS_SOURCE}). It takes one address, or an IPv4 and an IPv6 address (a dual-stack pair)`,
  });
  if (parsed.length > 2 || (parsed.length === 2 && isV4(parsed[0]) === isV4(parsed[1])))
    return bad("must contain either a single IP or a dual-stack pair of IPs");
  if (parsed.length === 2 && cloudProvider !== "" && cloudProvider !== "external")
    return bad("dual-stack not supported in this configuration");
  if (parsed.length === 2 && parsed.some(isUnspecified))
    return bad("dual-stack node IP cannot include '0.0.0.0' or '::'");
  if (invalid.length > 0) {
    const list = invalid.map((s) => JSON.stringify(s)).join(", ");
    const none = parsed.length === 0;
    return {
      ignored: `--node-ip=${value}: the kubelet reads no IP address in ${list} and ignores ${invalid.length > 1 ? "them" : "it"} with only a log line ("Could not parse some node IP(s), ignoring them"; ${IPS_SOURCE})${none ? `, so the kubelet runs with no node IP at all: the flag replaces the instance address nodeadm sets (amazon-eks-ami nodeadm internal/kubelet/config.go:226-234, and the user's flags come after its own: internal/kubelet/environment.go:22-29), and with the external cloud provider the node registers with only its hostname until the cloud controller sets its addresses (${VALIDATE_SOURCE})` : ""}. Write an IPv4 or IPv6 address (or an IPv4,IPv6 pair), or leave the flag out to keep nodeadm's`,
    };
  }
  const refusedAt = items
    .map((ip, i) => ({ ip, what: ips[i] && validateProblem(ips[i]!) }))
    .find((p): p is { ip: string; what: string } => p.what !== undefined);
  if (refusedAt)
    return {
      ignored: `--node-ip=${value}: ${refusedAt.ip} is ${refusedAt.what.replace(/^loopback/, "a loopback")}, which the kubelet refuses as the node's address at every node status update ("Failed to set some node status fields" err="failed to validate nodeIP: nodeIP can't be ${refusedAt.what}"; ${VALIDATE_SOURCE}), so it sets neither the node's addresses nor the provided-node-ip annotation, and the flag replaces the instance address nodeadm sets (amazon-eks-ami nodeadm internal/kubelet/config.go:226-234). Leave the flag out to keep nodeadm's`,
    };
  // a fixed address in a class's user data is the same on every instance it launches, and each instance has its own
  // (EC2 assigns it from the subnet): validateNodeIP looks the address up on the host's interfaces
  // (kubelet_node_status.go:732-749) and fails on every instance that does not hold it
  const fixed = items.filter((_, i) => ips[i] !== undefined && !isUnspecified(ips[i]!));
  if (fixed.length > 0)
    return {
      ignored: `--node-ip=${value}: every instance this EC2NodeClass launches gets the same address, but each has its own (EC2 assigns it from the subnet), and the flag replaces the instance's own address nodeadm reads from IMDS (amazon-eks-ami nodeadm internal/kubelet/config.go:226-234, 386-408): on every instance that does not hold ${fixed.join(" / ")}, the kubelet refuses it at every node status update ("failed to validate nodeIP: node IP: ... not found in the host's network interfaces"; ${VALIDATE_SOURCE}) and sets neither the node's addresses nor the provided-node-ip annotation. Leave the flag out to keep nodeadm's per-instance address (or write 0.0.0.0 / :: for the default route's address)`,
    };
  return {};
}

/**
 * What validateNodeIP says an address can't be (its words: "loopback address", "a multicast address", "a link-local
 * unicast address"), or undefined; 0.0.0.0 / :: are not validated.
 */
function validateProblem(ip: Uint8Array): string | undefined {
  if (isUnspecified(ip)) return undefined;
  const v4 = isV4(ip);
  if (v4 ? ip[12] === 127 : ip.every((b, i) => b === (i === 15 ? 1 : 0))) return "loopback address";
  if (v4 ? (ip[12] & 0xf0) === 0xe0 : ip[0] === 0xff) return "a multicast address";
  if (v4 ? ip[12] === 169 && ip[13] === 254 : ip[0] === 0xfe && (ip[1] & 0xc0) === 0x80)
    return "a link-local unicast address";
  return undefined;
}

/** Whether a 16-byte address is an IPv4 one (Go's To4: ::ffff:a.b.c.d, which ParseIP makes of a dotted quad). */
function isV4(ip: Uint8Array): boolean {
  return ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;
}

/** Go's IP.IsUnspecified: 0.0.0.0 or ::. */
function isUnspecified(ip: Uint8Array): boolean {
  return isV4(ip) ? ip.slice(12).every((b) => b === 0) : ip.every((b) => b === 0);
}

/**
 * netutils.ParseIPSloppy (k8s.io/utils v0.0.0-20260210185600-b8788abfbbc2 internal/third_party/forked/golang/net/ip.go:42-196,
 * Go 1.16's net.ParseIP, which takes IPv4 octets with leading zeros): the 16-byte form, or undefined.
 */
export function parseIpSloppy(s: string): Uint8Array | undefined {
  for (const c of s) {
    if (c === ".") return parseV4(s);
    if (c === ":") return parseV6(s);
  }
  return undefined;
}

const BIG = 0xffffff;

/** Go's dtoi / xtoi: the number at the start of `s`, the characters read, or undefined. */
function leadingNumber(s: string, hex: boolean): { n: number; c: number } | undefined {
  let n = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const d = hex ? parseInt(s[i], 16) : /[0-9]/.test(s[i]) ? Number(s[i]) : NaN;
    if (Number.isNaN(d)) break;
    n = n * (hex ? 16 : 10) + d;
    if (n >= BIG) return undefined;
  }
  return i === 0 ? undefined : { n, c: i };
}

function parseV4(s: string): Uint8Array | undefined {
  const out = new Uint8Array(16);
  out[10] = out[11] = 0xff;
  for (let i = 0; i < 4; i++) {
    if (s === "") return undefined;
    if (i > 0) {
      if (s[0] !== ".") return undefined;
      s = s.slice(1);
    }
    const d = leadingNumber(s, false);
    if (!d || d.n > 0xff) return undefined;
    s = s.slice(d.c);
    out[12 + i] = d.n;
  }
  return s === "" ? out : undefined;
}

function parseV6(s: string): Uint8Array | undefined {
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  if (s.startsWith("::")) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === "") return ip;
  }
  let i = 0;
  while (i < 16) {
    const x = leadingNumber(s, true);
    if (!x || x.n > 0xffff) return undefined;
    if (x.c < s.length && s[x.c] === ".") {
      if ((ellipsis < 0 && i !== 12) || i + 4 > 16) return undefined;
      const v4 = parseV4(s);
      if (!v4) return undefined;
      ip.set(v4.slice(12), i);
      s = "";
      i += 4;
      break;
    }
    ip[i] = x.n >> 8;
    ip[i + 1] = x.n & 0xff;
    i += 2;
    s = s.slice(x.c);
    if (s === "") break;
    if (s[0] !== ":" || s.length === 1) return undefined;
    s = s.slice(1);
    if (s[0] === ":") {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      s = s.slice(1);
      if (s === "") break;
    }
  }
  if (s !== "") return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j];
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) return undefined;
  return ip;
}
