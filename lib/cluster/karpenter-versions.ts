import { DEFAULT_KARPENTER_VERSION, KNOWN_RELEASES, SUPPORTED_MINORS } from "../versions/karpenter-version";
import { KubernetesVersionRange, supportedKubernetesVersions } from "./kubernetes-compatibility";

/**
 * The Karpenter releases this library knows, for every language: the constants and the function
 * `DEFAULT_KARPENTER_VERSION`, `KNOWN_RELEASES`, `SUPPORTED_MINORS` and `supportedKubernetesVersions()`
 * of the TypeScript API as static members (jsii bindings carry no module-level constant or function).
 *
 * Source: the release data in `lib/versions/data/` (one file per minor, `npm run add-version`).
 */
export class KarpenterVersions {
  /** The Karpenter release installed when no `version` is given: `"1.15.2"` (docs/versions.md, "The default release"). */
  public static readonly DEFAULT: string = DEFAULT_KARPENTER_VERSION;
  /**
   * The release each supported minor's facts (policy, chart, CRDs) were read from, oldest first:
   * `["1.0.14", …, "1.14.1", "1.15.0"]`. Later patches that changed no artefact are known too and install
   * on these facts (1.14.2, 1.14.3, 1.15.1 and 1.15.2, the default), so `DEFAULT` need not be listed here.
   */
  public static readonly KNOWN_RELEASES: string[] = [...KNOWN_RELEASES];
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

  private constructor() {}
}
