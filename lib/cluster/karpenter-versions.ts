import { KarpenterValidationError } from "../core/errors";
import { DEFAULT_KARPENTER_VERSION, KNOWN_RELEASES, SUPPORTED_MINORS } from "../versions/karpenter-version";
import { KubernetesVersionRange, supportedKubernetesVersions } from "./kubernetes-compatibility";
import { LTS_LINES, supportOf } from "../versions/support";

/**
 * How upstream supports a Karpenter minor (Karpenter documentation, "Compatibility" → "Support Policy"):
 * a regular minor until the next minor is released, an LTS line until a published month.
 */
export interface KarpenterSupport {
  /** The minor, e.g. `"1.14"`. */
  readonly minor: string;
  /** True for a Long-Term Support line (1.9, 1.14). */
  readonly lts: boolean;
  /** For an LTS line, the last month it is supported, `"YYYY-MM"` (1.9: `"2027-02"`, 1.14: `"2027-07"`). @default undefined: a regular minor */
  readonly supportedUntil?: string;
  /** For a regular minor, the minor whose release ended its support (`"1.14"` for 1.13). @default undefined: an LTS line, or the newest known minor (supported until the next one ships) */
  readonly supersededBy?: string;
  /** Where upstream says so (a URL and its words). */
  readonly source: string;
}

/**
 * The Karpenter releases this library knows, for every language: the constants and the function
 * `DEFAULT_KARPENTER_VERSION`, `KNOWN_RELEASES`, `SUPPORTED_MINORS` and `supportedKubernetesVersions()`
 * of the TypeScript API as static members (jsii bindings carry no module-level constant or function).
 *
 * Source: the release data in `lib/versions/data/` (one file per minor, `npm run add-version`).
 */
export class KarpenterVersions {
  /** The Karpenter release installed when no `version` is given: `"1.15.3"` (docs/versions.md, "The default release"). */
  public static readonly DEFAULT: string = DEFAULT_KARPENTER_VERSION;
  /**
   * The release each supported minor's facts (policy, chart, CRDs) were read from, oldest first:
   * `["1.0.14", …, "1.14.1", "1.15.0"]`. Later patches that changed no artefact are known too and install
   * on these facts (1.9.3, 1.9.4, 1.14.2 to 1.14.4, 1.15.1 to 1.15.3, the default), so `DEFAULT` need not be listed here.
   */
  public static readonly KNOWN_RELEASES: string[] = [...KNOWN_RELEASES];
  /**
   * The Long-Term Support lines, oldest first: `["1.9", "1.14"]` (1.9 supported until Feb 2027, 1.14 until
   * Jul 2027: the LTS notice of their GitHub releases, https://karpenter.sh/v1.9/upgrading/compatibility/).
   */
  public static readonly LTS_MINORS: string[] = LTS_LINES.map((l) => l.minor);
  /** The supported minors, oldest first, e.g. `["1.0", …, "1.15"]`. */
  public static readonly SUPPORTED_MINORS: string[] = [...SUPPORTED_MINORS];

  /**
   * The Kubernetes versions a Karpenter release runs on, e.g. `{ oldest: "1.26", newest: "1.34" }`
   * for 1.6.8 (Karpenter's compatibility matrix and the controller's own version check).
   * @param karpenterVersion a Karpenter release such as `"1.6.8"`
   * @throws an error naming `karpenterVersion` for a version this library does not support
   */
  public static supportedKubernetesVersions(karpenterVersion: string): KubernetesVersionRange {
    return supportedKubernetesVersions(karpenterVersion);
  }

  /**
   * How upstream supports the minor of a Karpenter release: an LTS line with its last month, or a regular
   * minor with the minor that superseded it. `Karpenter` warns at synth when the machine's date is past it.
   * @param karpenterVersion a Karpenter release such as `"1.14.4"`, or a minor `"1.14"`
   * @throws an error naming `karpenterVersion` for a minor this library does not know
   */
  public static support(karpenterVersion: string): KarpenterSupport {
    const minor = String(karpenterVersion).trim().replace(/^v/, "").split(".").slice(0, 2).join(".");
    if (!SUPPORTED_MINORS.includes(minor)) {
      throw new KarpenterValidationError(
        "KARPENTER_VERSION_UNSUPPORTED",
        "KarpenterVersions.support",
        "karpenterVersion",
        karpenterVersion,
        `a release or minor of ${SUPPORTED_MINORS.join(", ")}`,
      );
    }
    const s = supportOf(minor);
    return {
      minor,
      lts: s.lts,
      ...(s.until !== undefined ? { supportedUntil: s.until } : {}),
      ...(s.supersededBy !== undefined ? { supersededBy: s.supersededBy } : {}),
      source: s.source,
    };
  }

  private constructor() {}
}
