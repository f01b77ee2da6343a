import { DEFAULT_KARPENTER_VERSION } from "../../lib";
import { publicAccessCidrsOf } from "../eks-karpenter/config";

/** Settings of the fleet example, from environment variables with defaults. */
export interface FleetConfig {
  /** One cluster per region of `FLEET_REGIONS`, named `FLEET_NAME_PREFIX-<region>`. */
  readonly clusters: { name: string; region: string }[];
  /** `KUBERNETES_VERSION`: the control plane version of every cluster. */
  readonly kubernetesVersion: string;
  /** `KARPENTER_VERSION`: the Karpenter version of every install. */
  readonly karpenterVersion: string;
  /** `PUBLIC_ACCESS_CIDRS`: comma-separated CIDRs allowed to reach the API endpoints. */
  readonly publicAccessCidrs: string[];
}

/**
 * Reads the settings: `FLEET_REGIONS` (default `us-east-1,eu-west-1`), `FLEET_NAME_PREFIX`
 * (default `karpenter-fleet`), `KUBERNETES_VERSION` (1.34), `KARPENTER_VERSION`, `PUBLIC_ACCESS_CIDRS`.
 * @throws Error for an empty or repeated region, or a set but empty `PUBLIC_ACCESS_CIDRS` (unset, it is 0.0.0.0/0)
 */
export function readFleetConfig(env: NodeJS.ProcessEnv = process.env): FleetConfig {
  const regions = (env.FLEET_REGIONS || "us-east-1,eu-west-1").split(",").map((r) => r.trim());
  if (regions.some((r) => !/^[a-z]{2}(-[a-z]+)+-\d$/.test(r)))
    throw new Error(
      `FLEET_REGIONS: ${env.FLEET_REGIONS} is not a comma-separated list of AWS regions such as us-east-1,eu-west-1`,
    );
  if (new Set(regions).size !== regions.length)
    throw new Error(`FLEET_REGIONS: ${env.FLEET_REGIONS} names a region twice (one cluster per region)`);
  const prefix = env.FLEET_NAME_PREFIX || "karpenter-fleet";
  return {
    clusters: regions.map((region) => ({ name: `${prefix}-${region}`, region })),
    kubernetesVersion: env.KUBERNETES_VERSION || "1.34",
    karpenterVersion: env.KARPENTER_VERSION || DEFAULT_KARPENTER_VERSION,
    publicAccessCidrs: publicAccessCidrsOf(env),
  };
}
