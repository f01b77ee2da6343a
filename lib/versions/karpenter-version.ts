import * as semver from "./semver";
import { IConstruct } from "constructs";
import { KarpenterValidationError, typeName } from "../core/errors";
import { DEFAULT_RELEASE, knownReleases, newestPatchOf } from "./index";

/**
 * The release of every Karpenter minor this library has data for: release tags v1.0.14 to v1.14.1 of
 * aws/karpenter-provider-aws (GitHub releases) and v1.15.0 (the Go module's charts and CRDs; see the reference's
 * v1.15.0/SOURCES.md), whose charts, CRDs and getting-started CloudFormation `npm run add-version`
 * turned into lib/versions/data/. Later patches without artefact changes (1.9.4, 1.14.4, 1.15.3) are known
 * too, on these facts.
 */
export const KNOWN_RELEASES: readonly string[] = knownReleases();

/**
 * The Karpenter version installed when none is given: the newest known release whose facts are verified
 * (docs/versions.md, "The default release"): `"1.15.3"`, on the facts of 1.15.0 (1.15.1 to 1.15.3
 * changed no artefact; 1.15.3 ignores empty selector terms, which the library refuses in every version). A real API server with 1.15.0's released CRDs agrees with the library, and the real 1.15.0 controller runs against the 1.15 policy in e2e.
 */
export const DEFAULT_KARPENTER_VERSION: string = DEFAULT_RELEASE;

/** The supported minors, as `"1.0"` … `"1.15"`. */
export const SUPPORTED_MINORS: readonly string[] = KNOWN_RELEASES.map((v) => v.split(".").slice(0, 2).join("."));

/**
 * The newest release this library knows, e.g. `"1.15.3"`: the newest minor's newest known patch, a
 * patch without artefact changes included (its facts are those of the data release, e.g. 1.15.0), so
 * that "newer than" messages name the release a user can compare with.
 */
export const NEWEST_KNOWN_RELEASE: string = newestPatchOf(SUPPORTED_MINORS[SUPPORTED_MINORS.length - 1])!;

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
  /** The known minor whose facts (IAM policy, event rules, chart settings, CRD fields) apply: its own, or the newest known one for an unverified version. */
  readonly factsMinor: string;
  /** True for a release newer than every minor this library knows, used with the `allowUnverifiedVersion` opt-in. */
  readonly unverified: boolean;
}

/** The apps (construct roots) whose Karpenter opted in to a release newer than the newest known one. */
const unverifiedOptIns = new WeakSet<object>();

/** Lets every construct of `scope`'s app use a Karpenter release newer than the newest known one (`Karpenter.allowUnverifiedVersion`). */
export function allowUnverifiedVersions(scope: IConstruct): void {
  unverifiedOptIns.add(scope.node.root);
}

/**
 * Parses and validates a Karpenter version: `"1.14.1"` (a leading `v` is accepted and dropped).
 * Any patch of a supported minor (1.0 to 1.14) is accepted: every patch of a minor shares its IAM
 * policy and chart settings keys, except two chart keys added in a patch (`disableDryRun` in
 * 1.6.2, the fixed `staticCapacity` spelling in 1.8.1), which this model places at that patch.
 * A release newer than every known one (same major) is accepted only when a Karpenter of the app
 * opted in with `allowUnverifiedVersion` (`app`, else `scope`, tells which app); without a construct
 * (the CLI, a function such as `convertLegacyManifests`) the error offers no construct prop.
 * @throws KarpenterValidationError for a malformed version, a pre-release, a token or an unknown minor
 */
export function resolveKarpenterVersion(
  scope: IConstruct | string,
  version: string = DEFAULT_KARPENTER_VERSION,
  field = "version",
  app?: IConstruct,
): KarpenterVersion {
  const allowed = `a Karpenter release "MAJOR.MINOR.PATCH" of a supported minor: ${SUPPORTED_MINORS.join(", ")} (default ${DEFAULT_KARPENTER_VERSION})`;
  if (typeof version !== "string") {
    // a number (1.15, as a YAML or JSON config gives it) is a type mistake, not a token
    // (1.10 arrives as 1.1: both minors are offered)
    const asText = typeof version === "number" ? String(version) : "";
    const meant = (/^\d+\.\d+$/.test(asText) ? [asText, `${asText}0`] : [])
      .map((minor) => newestPatchOf(minor))
      .filter((v): v is string => v !== undefined)
      .map((v) => `"${v}"`);
    throw new KarpenterValidationError(
      "KARPENTER_VERSION_NOT_A_STRING",
      scope,
      field,
      version,
      `${allowed}, as a string; got ${typeName(version)}${meant.length ? `: did you mean ${meant.join(" or ")}?` : ""}`,
    );
  }
  if (/\$\{|TfToken/.test(version)) {
    throw new KarpenterValidationError(
      "KARPENTER_VERSION_TOKEN",
      scope,
      field,
      version,
      `${allowed}; it must be known at synth, not a token, because it selects the IAM policy and chart settings`,
    );
  }
  const clean = version.trim().replace(/^v/, "");
  const parsed = semver.valid(clean) ? semver.parse(clean) : null;
  if (!parsed || parsed.prerelease.length > 0 || parsed.build.length > 0) {
    // "1.14" names a minor, not a chart: Helm needs the exact version, so offer the newest known patch
    const newest = /^\d+\.\d+$/.test(clean) ? newestPatchOf(clean) : undefined;
    throw new KarpenterValidationError(
      "KARPENTER_VERSION_UNKNOWN",
      scope,
      field,
      version,
      newest ? `${allowed}; did you mean "${newest}" (the newest ${clean} patch this library knows)?` : allowed,
    );
  }
  const minorKey = `${parsed.major}.${parsed.minor}`;
  let factsMinor = minorKey;
  const unverified =
    !SUPPORTED_MINORS.includes(minorKey) &&
    semver.gt(parsed.version, NEWEST_KNOWN_RELEASE) &&
    parsed.major === semver.major(NEWEST_KNOWN_RELEASE);
  if (unverified) {
    const inApp = app ?? (typeof scope !== "string" ? scope : undefined);
    const optedIn = inApp !== undefined && unverifiedOptIns.has(inApp.node.root);
    if (!optedIn) {
      // the opt-in is a prop of Karpenter: without a construct (the CLI, a function) it cannot be set, so it is not offered
      const remedy =
        inApp !== undefined
          ? `to install it anyway, set allowUnverifiedVersion: true on Karpenter (its IAM policy, event rules, chart settings and CRD rules are then taken from ${NEWEST_KNOWN_RELEASE}, unverified), or use a known release, or a newer release of cdktf-eks-karpenter that knows it`
          : `its IAM policy, chart settings and CRD rules are unknown here; use a known release, or a newer release of cdktf-eks-karpenter that knows it`;
      throw new KarpenterValidationError(
        "KARPENTER_VERSION_TOO_NEW",
        scope,
        field,
        version,
        `${allowed}. ${parsed.version} is newer than ${NEWEST_KNOWN_RELEASE}, the newest release this library knows: ${remedy}`,
      );
    }
    factsMinor = SUPPORTED_MINORS[SUPPORTED_MINORS.length - 1];
  } else if (!SUPPORTED_MINORS.includes(minorKey)) {
    const newMajor = parsed.major > semver.major(NEWEST_KNOWN_RELEASE);
    throw new KarpenterValidationError(
      "KARPENTER_VERSION_NEW_MAJOR",
      scope,
      field,
      version,
      newMajor
        ? `${allowed}. ${parsed.version} is a new major release: a major may change the APIs, IAM and chart this library builds` +
            (app !== undefined || typeof scope !== "string"
              ? `, so allowUnverifiedVersion does not cover it (it covers newer ${semver.major(NEWEST_KNOWN_RELEASE)}.x releases only)`
              : "")
        : allowed,
    );
  }
  return {
    full: parsed.version,
    minor: parsed.minor,
    patch: parsed.patch,
    atLeast: (v: string) => semver.gte(parsed.version, semver.coerce(v)!.version),
    factsMinor,
    unverified,
  };
}

/** The newest known patch of the minor of `v` (e.g. `"1.14.4"` for 1.14.0: patches without artefact changes count). */
export function newestKnownPatch(v: KarpenterVersion): string {
  return newestPatchOf(v.factsMinor)!;
}

/**
 * True when the version's patch is newer than the newest patch of its minor this library knows
 * (e.g. 1.14.9 while the newest known 1.14 patch is 1.14.4): the chart may not exist, and its IAM policy and
 * settings are assumed to equal the newest known patch's.
 */
export function isNewerThanKnownPatch(v: KarpenterVersion): boolean {
  return !v.unverified && semver.gt(v.full, newestKnownPatch(v));
}
