import { Construct } from "constructs";
import { ITerraformDependable } from "cdktf";
import { Release } from "@cdktf/provider-helm/lib/release";
import { KarpenterValidationError } from "./errors";
import { checkReleaseName, checkRepository, renderValues } from "./private/helm";
import { checkNamespace, checkServiceName } from "./private/k8s-names";
import { KarpenterVersion, resolveKarpenterVersion } from "./private/version";

/**
 * The public ECR repository Karpenter publishes both charts to, `karpenter` and `karpenter-crd`
 * (pulled anonymously). Source: Karpenter getting-started guide, step "Install Karpenter"
 * (`helm upgrade --install karpenter oci://public.ecr.aws/karpenter/karpenter`), and upgrade guide,
 * "CRD upgrades" (`oci://public.ecr.aws/karpenter/karpenter-crd`).
 */
export const KARPENTER_CHART_REPOSITORY = "oci://public.ecr.aws/karpenter";

/** The namespace Karpenter is installed in when none is given (Karpenter getting-started guide, v1.x). */
export const DEFAULT_KARPENTER_NAMESPACE = "kube-system";

/** Props of {@link KarpenterCrdRelease}. */
export interface KarpenterCrdReleaseProps {
  /**
   * The chart version, e.g. `"1.14.1"`: use the controller's version (the `Karpenter` construct does).
   * @default DEFAULT_KARPENTER_VERSION ("1.14.1")
   */
  readonly version?: string;
  /**
   * The namespace of the release: use the controller's namespace.
   * @default "kube-system"
   */
  readonly namespace?: string;
  /**
   * Create the namespace when it does not exist (Helm `--create-namespace`). Leave off for
   * `kube-system`, which every cluster has.
   * @default false
   */
  readonly createNamespace?: boolean;
  /**
   * The Helm release name (Helm: ≤ 53 characters, lower-case letters, digits, `-` and `.`).
   * @default "karpenter-crd"
   */
  readonly releaseName?: string;
  /**
   * The chart repository. Override it for a mirror of the public ECR repository (e.g. a pull-through
   * cache). The pull is anonymous: no credentials are configured.
   * @default "oci://public.ecr.aws/karpenter"
   */
  readonly repository?: string;
  /**
   * Karpenter 1.0.x only: the Service of the controller's conversion webhook (the controller release's
   * full name, `karpenter` for a release named `karpenter`). The 1.0 CRDs convert v1beta1 objects
   * through it; from 1.1 the webhook is gone and this prop is rejected.
   * Source: karpenter-crd chart 1.0.x values.yaml (`webhook.serviceName`).
   * @default "karpenter" (the chart default)
   */
  readonly webhookServiceName?: string;
  /** Resources the release waits for. @default none */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * The `karpenter-crd` Helm chart: Karpenter's CustomResourceDefinitions (NodePool, NodeClaim,
 * EC2NodeClass, …) as a release of their own, from `oci://public.ecr.aws/karpenter`.
 *
 * Why a separate release: Helm installs a chart's `crds/` folder once and never upgrades it, so a
 * Karpenter upgrade through the `karpenter` chart alone leaves the old CRDs in place. The
 * `karpenter-crd` chart ships the CRDs as templates, which Helm upgrades with the release
 * (Karpenter upgrade guide, "CRD upgrades"). Install it with the same version and namespace as the
 * controller, and install the controller with `skip_crds = true` after it (see `KarpenterRelease`).
 *
 * @throws KarpenterValidationError for an unsupported version, a bad namespace or release name, a
 * repository that is not an `oci://` or `https://` URL, or `webhookServiceName` on a version without the webhook
 */
export class KarpenterCrdRelease extends Construct {
  /** The `helm_release` resource. */
  public readonly release: Release;
  /** The chart version, e.g. `"1.14.1"`. */
  public readonly version: string;
  /**
   * The namespace Helm keeps the release record in (the CRDs themselves are cluster-scoped); the
   * controller release must use the same one.
   */
  public readonly namespace: string;

  constructor(scope: Construct, id: string, props: KarpenterCrdReleaseProps = {}) {
    super(scope, id);
    const version = resolveKarpenterVersion(this, props.version);
    this.version = version.full;
    this.namespace = props.namespace ?? DEFAULT_KARPENTER_NAMESPACE;
    checkNamespace(this, "namespace", this.namespace);
    const releaseName = props.releaseName ?? "karpenter-crd";
    checkReleaseName(this, "releaseName", releaseName);
    const repository = props.repository ?? KARPENTER_CHART_REPOSITORY;
    checkRepository(this, "repository", repository);

    this.release = new Release(this, "release", {
      name: releaseName,
      chart: "karpenter-crd",
      repository,
      version: this.version,
      namespace: this.namespace,
      createNamespace: props.createNamespace || undefined,
      values: webhookValues(this, version, props.webhookServiceName),
      dependsOn: props.dependsOn,
    });
  }
}

function webhookValues(scope: Construct, version: KarpenterVersion, serviceName: string | undefined): string[] | undefined {
  if (serviceName === undefined) return undefined;
  if (version.minor !== 0) {
    throw new KarpenterValidationError(scope, "webhookServiceName", serviceName, `only with Karpenter 1.0.x: ${version.full} has no conversion webhook (removed in 1.1)`);
  }
  checkServiceName(scope, "webhookServiceName", serviceName);
  return [renderValues({ webhook: { serviceName } })];
}
