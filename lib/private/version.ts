import * as semver from "./semver";
import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../errors";

/**
 * The newest patch of every Karpenter minor this library knows: release tags v1.0.14 to v1.14.1 of
 * aws/karpenter-provider-aws (GitHub releases), whose charts, CRDs and getting-started
 * CloudFormation the tables of this library were written from.
 */
export const KNOWN_RELEASES: readonly string[] = [
  "1.0.14",
  "1.1.10",
  "1.2.8",
  "1.3.8",
  "1.4.4",
  "1.5.8",
  "1.6.8",
  "1.7.6",
  "1.8.8",
  "1.9.2",
  "1.10.2",
  "1.11.3",
  "1.12.2",
  "1.13.1",
  "1.14.1",
];

/** The Karpenter version installed when none is given. */
export const DEFAULT_KARPENTER_VERSION = "1.14.1";

/** The supported minors, as `"1.0"` … `"1.14"`. */
export const SUPPORTED_MINORS: readonly string[] = KNOWN_RELEASES.map((v) => v.split(".").slice(0, 2).join("."));

/** A validated Karpenter version. */
export interface KarpenterVersion {
  /** The chart / image version, e.g. `"1.14.1"` (no leading `v`). */
  readonly full: string;
  /** The minor, e.g. `14` for 1.14.x (every supported version has major 1). */
  readonly minor: number;
  /** The patch, e.g. `1` for 1.14.1. */
  readonly patch: number;
  /** True when this version is at or after `major.minor[.patch]` (e.g. `atLeast("1.10")`). */
  atLeast(version: string): boolean;
}

/**
 * Parses and validates a Karpenter version: `"1.14.1"` (a leading `v` is accepted and dropped).
 * Any patch of a supported minor (1.0 to 1.14) is accepted: every patch of a minor shares its IAM
 * policy and chart settings keys, except two chart keys added in a patch (`disableDryRun` in
 * 1.6.2, the fixed `staticCapacity` spelling in 1.8.1), which this model places at that patch.
 * @throws KarpenterValidationError for a malformed version, a pre-release, a token or an unknown minor
 */
export function resolveKarpenterVersion(scope: IConstruct | string, version: string = DEFAULT_KARPENTER_VERSION, field = "version"): KarpenterVersion {
  const allowed = `a Karpenter release "MAJOR.MINOR.PATCH" of a supported minor: ${SUPPORTED_MINORS.join(", ")} (default ${DEFAULT_KARPENTER_VERSION})`;
  if (typeof version !== "string" || /\$\{|TfToken/.test(version)) {
    throw new KarpenterValidationError(scope, field, version, `${allowed}; it must be known at synth, not a token, because it selects the IAM policy and chart settings`);
  }
  const clean = version.trim().replace(/^v/, "");
  const parsed = semver.valid(clean) ? semver.parse(clean) : null;
  if (!parsed || parsed.prerelease.length > 0 || parsed.build.length > 0) {
    // "1.14" names a minor, not a chart: Helm needs the exact version, so offer the newest known patch
    const newest = /^\d+\.\d+$/.test(clean) ? KNOWN_RELEASES.find((r) => r.startsWith(`${clean}.`)) : undefined;
    throw new KarpenterValidationError(scope, field, version, newest ? `${allowed}; did you mean "${newest}" (the newest ${clean} patch this library knows)?` : allowed);
  }
  const minorKey = `${parsed.major}.${parsed.minor}`;
  if (!SUPPORTED_MINORS.includes(minorKey)) throw new KarpenterValidationError(scope, field, version, allowed);
  return {
    full: parsed.version,
    minor: parsed.minor,
    patch: parsed.patch,
    atLeast: (v: string) => semver.gte(parsed.version, semver.coerce(v)!.version),
  };
}

/** The newest known patch of the minor of `v` (e.g. `"1.14.1"` for 1.14.0). */
export function newestKnownPatch(v: KarpenterVersion): string {
  return KNOWN_RELEASES.find((r) => semver.minor(r) === v.minor)!;
}

/**
 * True when the version's patch is newer than the newest patch of its minor this library knows
 * (e.g. 1.14.9 while KNOWN_RELEASES has 1.14.1): the chart may not exist, and its IAM policy and
 * settings are assumed to equal the newest known patch's.
 */
export function isNewerThanKnownPatch(v: KarpenterVersion): boolean {
  return semver.gt(v.full, newestKnownPatch(v));
}
