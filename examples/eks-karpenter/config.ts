import { DEFAULT_KARPENTER_VERSION, KNOWN_RELEASES, supportedKubernetesVersions } from "../../lib";

/**
 * Settings of the example app, from environment variables with defaults. Read once in main.ts so
 * the stacks stay plain functions of their props (and tests can pass their own).
 */
export interface ExampleConfig {
  /** `CLUSTER_NAME`: the EKS cluster name. */
  readonly clusterName: string;
  /** `AWS_REGION`: where everything is created. */
  readonly region: string;
  /** `KUBERNETES_VERSION`: the EKS control plane version; by default 1.36, or the newest the chosen Karpenter version runs on when that is older. */
  readonly kubernetesVersion: string;
  /** `KARPENTER_VERSION`: the Karpenter chart and controller version. */
  readonly karpenterVersion: string;
  /**
   * `KARPENTER_UNVERIFIED_VERSION=true`: allow a `KARPENTER_VERSION` newer than every release the
   * library knows (Karpenter's `allowUnverifiedVersion`; synth then warns what is unverified).
   */
  readonly allowUnverifiedVersion: boolean;
  /** `PUBLIC_ACCESS_CIDRS`: comma-separated CIDRs allowed to reach the public API endpoint. */
  readonly publicAccessCidrs: string[];
  /** `INFLATE_REPLICAS`: replicas of the `inflate` test Deployment (0 = no pods, no nodes). */
  readonly inflateReplicas: number;
  /**
   * `SPOT_SERVICE_LINKED_ROLE=true`: create the account's EC2 Spot service-linked role. Leave it off
   * when the role exists already (it exists once per account; creating it again fails).
   */
  readonly spotServiceLinkedRole: boolean;
  /** `STATE_BUCKET`: when set, state goes to this S3 bucket (one key per stack) instead of local files. */
  readonly stateBucket?: string;
  /** `STATE_REGION`: the state bucket's region. Defaults to `AWS_REGION`. */
  readonly stateRegion: string;
  /** `STATE_KEY_PREFIX`: prefix of the state keys. Defaults to `karpenter/<CLUSTER_NAME>`. */
  readonly stateKeyPrefix: string;
}

/** Defaults used when a variable is unset or empty. */
export const DEFAULTS = {
  clusterName: "karpenter-demo",
  region: "us-east-1",
  // EKS standard support: 1.36 since 2026-06; 1.34 leaves standard support on 2026-12-02
  kubernetesVersion: "1.36",
  karpenterVersion: DEFAULT_KARPENTER_VERSION,
  publicAccessCidrs: "0.0.0.0/0",
  inflateReplicas: "0",
} as const;

/**
 * Reads the example's settings.
 * @throws Error naming the variable for a value that cannot be right (bad CIDR, negative replicas)
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ExampleConfig {
  const get = (k: string, d: string) => (env[k] && env[k]!.trim() !== "" ? env[k]!.trim() : d);
  const clusterName = get("CLUSTER_NAME", DEFAULTS.clusterName);
  const region = get("AWS_REGION", DEFAULTS.region);
  const stateRegion = get("STATE_REGION", region);
  // AWS's shape, not a list (new regions appear): the library refuses the provider's region at synth alike, naming the provider
  for (const [name, value] of [
    ["AWS_REGION", region],
    ["STATE_REGION", stateRegion],
  ]) {
    if (
      !/^[a-z]{2,4}(?:-(?:gov|iso[a-z]?|[a-z]{2}))?-(?:north|south|east|west|central|northeast|northwest|southeast|southwest)-[1-9]\d?$/.test(
        value,
      )
    ) {
      throw new Error(
        `${name}: ${JSON.stringify(value)} is not an AWS region name such as us-east-1, ap-southeast-5, us-gov-west-1 or cn-north-1`,
      );
    }
  }
  const publicAccessCidrs = publicAccessCidrsOf(env);
  const inflate = get("INFLATE_REPLICAS", DEFAULTS.inflateReplicas);
  // a Deployment's replicas is an int32 (k8s.io/api apps/v1 types.go DeploymentSpec.Replicas)
  if (!/^\d+$/.test(inflate) || Number(inflate) > 2147483647)
    throw new Error(
      `INFLATE_REPLICAS: ${JSON.stringify(inflate)} is not a whole number of replicas from 0 to 2147483647 (a Deployment's replicas is an int32)`,
    );
  const karpenterVersion = get("KARPENTER_VERSION", DEFAULTS.karpenterVersion);
  const kubernetesVersion = get("KUBERNETES_VERSION", defaultKubernetesVersion(karpenterVersion));
  if (!/^1\.\d+$/.test(kubernetesVersion))
    throw new Error(`KUBERNETES_VERSION: ${JSON.stringify(kubernetesVersion)} is not an EKS version such as 1.34`);
  // EKS allows 100 characters; the IAM role names derived from it (KarpenterControllerRole-<name>) allow 40
  if (!/^[0-9A-Za-z][A-Za-z0-9\-_]{0,39}$/.test(clusterName)) {
    throw new Error(
      `CLUSTER_NAME: ${JSON.stringify(clusterName)} is not an EKS cluster name of at most 40 characters (letters, digits, '-' or '_', starting with a letter or digit; longer names overflow the 64-character IAM role names derived from it)`,
    );
  }
  const stateBucket = env.STATE_BUCKET && env.STATE_BUCKET.trim() !== "" ? env.STATE_BUCKET.trim() : undefined;
  // Amazon S3 User Guide, "General purpose bucket naming rules": the reserved prefixes and suffixes too
  if (
    stateBucket !== undefined &&
    !(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(stateBucket) &&
      !/\.\.|^\d+\.\d+\.\d+\.\d+$/.test(stateBucket) &&
      !/^(xn--|sthree-|amzn-s3-demo-)/.test(stateBucket) &&
      !/(-s3alias|--ol-s3|\.mrap|--x-s3|--table-s3)$/.test(stateBucket)
    )
  ) {
    throw new Error(
      `STATE_BUCKET: ${JSON.stringify(stateBucket)} is not an S3 bucket name (3 to 63 lower-case letters, digits, '.' and '-', starting and ending with a letter or digit; not starting with xn--, sthree- or amzn-s3-demo-, not ending with -s3alias, --ol-s3, .mrap, --x-s3 or --table-s3)`,
    );
  }
  const allowUnverifiedVersion = readBool(env, "KARPENTER_UNVERIFIED_VERSION");
  // the library's message names its prop (allowUnverifiedVersion); a user of this app sets a variable
  const newest = KNOWN_RELEASES[KNOWN_RELEASES.length - 1];
  if (!allowUnverifiedVersion && newerMinor(karpenterVersion, newest)) {
    // named by its minor: KNOWN_RELEASES holds the data releases (1.15.0), not the newest known patch (1.15.3)
    const minor = newest.split(".").slice(0, 2).join(".");
    throw new Error(
      `KARPENTER_VERSION: ${JSON.stringify(karpenterVersion)} is newer than every Karpenter ${minor} release, ${minor} being the newest minor this library knows: set KARPENTER_UNVERIFIED_VERSION=true to install it anyway (its IAM policy, event rules, chart settings and CRD rules are then taken from ${minor}, unverified, and synth warns), or set a known release (docs/versions.md)`,
    );
  }
  return {
    clusterName,
    region,
    kubernetesVersion,
    karpenterVersion,
    allowUnverifiedVersion,
    publicAccessCidrs,
    inflateReplicas: Number(inflate),
    spotServiceLinkedRole: readBool(env, "SPOT_SERVICE_LINKED_ROLE"),
    stateBucket,
    stateRegion,
    stateKeyPrefix: get("STATE_KEY_PREFIX", `karpenter/${clusterName}`),
  };
}

/**
 * `PUBLIC_ACCESS_CIDRS` as a list. Unset, it is the documented default 0.0.0.0/0; set but naming no
 * CIDR ("", " ", ","), it is refused: EKS takes an empty list as 0.0.0.0/0 (vpc_config
 * public_access_cidrs), which would open the endpoint without the user having asked for it.
 * @throws Error for an empty list, a value that is no IPv4 CIDR, or one with host bits set (203.0.113.7/24), which
 * the aws provider refuses at plan (terraform-provider-aws internal/service/eks/cluster.go public_access_cidrs:
 * verify.ValidCIDRNetworkAddress)
 */
export function publicAccessCidrsOf(env: NodeJS.ProcessEnv): string[] {
  const raw = env.PUBLIC_ACCESS_CIDRS;
  const cidrs = (raw ?? DEFAULTS.publicAccessCidrs)
    .split(",")
    .map((c) => c.trim())
    .filter((c) => c !== "");
  if (cidrs.length === 0) throw new Error(emptyCidrsMessage(raw!));
  for (const cidr of cidrs) {
    const m = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d|[12]\d|3[0-2])$/.exec(cidr);
    const octets = m ? m[1].split(".").map(Number) : [];
    // Go's net.ParseCIDR, which the aws provider uses, refuses octets with leading zeros (Go 1.17)
    if (!m || octets.some((o) => o > 255) || m[1].split(".").some((o) => o.length > 1 && o.startsWith("0")))
      throw new Error(`PUBLIC_ACCESS_CIDRS: ${JSON.stringify(cidr)} is not an IPv4 CIDR such as 203.0.113.0/24`);
    const bits = Number(m[2]);
    const address = octets.reduce((a, o) => a * 256 + o, 0);
    const network = bits === 0 ? 0 : address - (address % 2 ** (32 - bits));
    if (network !== address) {
      const meant = [24, 16, 8, 0].map((s) => Math.floor(network / 2 ** s) % 256).join(".");
      throw new Error(
        `PUBLIC_ACCESS_CIDRS: ${JSON.stringify(cidr)} has host bits set; did you mean ${meant}/${bits}? The aws provider refuses it at plan ("is not a valid CIDR block"; terraform-provider-aws internal/service/eks/cluster.go, public_access_cidrs: verify.ValidCIDRNetworkAddress)`,
      );
    }
  }
  return cidrs;
}

/** The refusal of a set but empty `PUBLIC_ACCESS_CIDRS` (the Python example's is the same text). */
export function emptyCidrsMessage(raw: string): string {
  return `PUBLIC_ACCESS_CIDRS: ${JSON.stringify(raw)} names no CIDR, and an empty list opens the API endpoint to 0.0.0.0/0 (EKS's default): set the CIDRs allowed to reach it, such as 203.0.113.0/24 or your own address with /32, or unset PUBLIC_ACCESS_CIDRS for the documented default 0.0.0.0/0`;
}

/** 1.36, or the newest Kubernetes the Karpenter version runs on when that is older (older Karpenter refuses newer clusters). */
function defaultKubernetesVersion(karpenterVersion: string): string {
  let newest: string;
  try {
    newest = supportedKubernetesVersions(karpenterVersion).newest;
  } catch {
    return DEFAULTS.kubernetesVersion; // a bad KARPENTER_VERSION is reported by the Karpenter construct, with its field
  }
  return Number(newest.split(".")[1]) < Number(DEFAULTS.kubernetesVersion.split(".")[1])
    ? newest
    : DEFAULTS.kubernetesVersion;
}

/** True for a release of the same major as `newest` and a newer minor (`1.16.0` against `1.15.0`); a new major is the construct's to refuse. */
function newerMinor(version: string, newest: string): boolean {
  const [a, b] = [version, newest].map((v) => /^v?(\d+)\.(\d+)\.\d+$/.exec(v.trim()));
  return a !== null && b !== null && a[1] === b[1] && Number(a[2]) > Number(b[2]);
}

function readBool(env: NodeJS.ProcessEnv, name: string): boolean {
  const v = (env[name] ?? "").trim().toLowerCase();
  if (v === "" || v === "false" || v === "0") return false;
  if (v === "true" || v === "1") return true;
  throw new Error(`${name}: ${JSON.stringify(env[name])} is not true or false`);
}
