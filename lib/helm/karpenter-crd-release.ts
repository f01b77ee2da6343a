import { Construct } from "constructs";
import { Fn, ITerraformDependable, Token } from "cdktf";
import { Release } from "@cdktf/provider-helm/lib/release";
import type { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KarpenterValidationError } from "../core/errors";
import { chooseProvider } from "../core/provider-choice";
import { checkReleaseName, checkRepository, plainScalar, renderValues } from "./helm";
import { checkNamespace, checkServiceName } from "../kubernetes/names";
import { checkOptionKeys } from "../aws-api/input-checks";
import { Problems } from "../core/problems";
import { checkedByOwner } from "../core/owner-context";
import { CRD_RELEASE_PROPS } from "../core/prop-keys";
import { isUnresolved } from "../core/tokens";
import { undoOnError } from "../core/undo-on-error";
import { asPartProblems } from "../core/owner-context";
import { duplicateCrdProblems, registerCrdRelease } from "./release-pairs";
import { addSynthCheck } from "../core/synth-checks";
import { KarpenterVersion, resolveKarpenterVersion } from "../versions/karpenter-version";
import { checkPropsReadable, settledProps } from "../core/readable-props";

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
   * @default DEFAULT_KARPENTER_VERSION ("1.15.3")
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
  /**
   * Karpenter 1.0.x only: whether the CRDs carry the conversion webhook stanza. Mirror the controller
   * chart's `webhook.enabled`: with the controller's webhook off, CRDs that still name it make every
   * v1beta1 read or write fail (the `Karpenter` construct mirrors its `values.webhook.enabled`).
   * Source: karpenter-crd chart 1.0.x values.yaml (`webhook.enabled`) and templates (`{{- if .Values.webhook.enabled }}`).
   * @default true (the chart default)
   */
  readonly webhookEnabled?: boolean;
  /**
   * Karpenter 1.0.x only: the port of the controller's conversion webhook Service (1–65535). Mirror
   * the controller chart's `webhook.port` (the `Karpenter` construct mirrors its `values.webhook.port`).
   * Source: karpenter-crd chart 1.0.x values.yaml (`webhook.port`).
   * @default 8443 (the chart default)
   */
  readonly webhookPort?: number;
  /** Resources the release waits for. @default none */
  readonly dependsOn?: ITerraformDependable[];
  /**
   * The Helm provider connected to the cluster this release is for (its Kubernetes API).
   * @default the stack's default Helm provider, when it is the stack's only Helm provider and no
   * other install of the stack relies on it; synth fails naming this prop otherwise (inside
   * `Karpenter`, its own `helmProvider`)
   */
  readonly helmProvider?: HelmProvider;
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
 * A constructor that throws removes the construct from the tree (nothing half-built). At synth, a
 * `KarpenterRelease` of the app on the same Helm provider (the same cluster) at another version is an
 * error naming both: the controller needs the CRDs of its own version; so is another karpenter-crd
 * release on the same Helm provider (a `Karpenter` brings its own): Helm lets one release own the CRDs.
 *
 * @throws KarpenterValidationError (every problem of the props in one error) for a prop outside the props interface (with a "did you mean" when one is close), an unsupported version, a bad namespace or release name, a
 * repository that is not an `oci://` or `https://` URL, `webhookServiceName`, `webhookEnabled` or
 * `webhookPort` on a version without the webhook, or a webhook port outside 1–65535
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
    const undo = undoOnError(this);
    try {
      // every problem of the props at once, before the release exists
      const problems = new Problems();
      // built by a Karpenter, which checked the namespace and repository (checkKarpenterProps): they run there only
      const own = !checkedByOwner(this);
      // a place that throws when read is refused first, alone: every check below would crash on it (a Karpenter
      // refused unreadable props before passing them on)
      if (own) {
        checkPropsReadable(this, props, CRD_RELEASE_PROPS);
        // read once: what is checked is what is written (a Karpenter passes its settled props down)
        props = settledProps(props, CRD_RELEASE_PROPS);
      }
      problems.check(() => checkOptionKeys(this, "", props, CRD_RELEASE_PROPS));
      const version = problems.check(() => resolveKarpenterVersion(this, props?.version));
      this.namespace = props?.namespace ?? DEFAULT_KARPENTER_NAMESPACE;
      if (own) problems.check(() => checkNamespace(this, "namespace", this.namespace));
      const releaseName = props?.releaseName ?? "karpenter-crd";
      problems.check(() => checkReleaseName(this, "releaseName", releaseName));
      const repository = props?.repository ?? KARPENTER_CHART_REPOSITORY;
      if (own) problems.check(() => checkRepository(this, "repository", repository));
      const values = version && problems.check(() => webhookValues(this, version, props ?? {}));
      problems.throwIfAny(this); // the catch below undoes the construct
      if (!version) throw new Error("unreachable: a failed check is thrown above");
      this.version = version.full;

      const provider = chooseProvider(scope, this, "helm", "helmProvider", props.helmProvider);
      this.release = new Release(this, "release", {
        provider,
        name: releaseName,
        chart: "karpenter-crd",
        repository,
        version: this.version,
        namespace: this.namespace,
        createNamespace: props.createNamespace || undefined,
        values,
        dependsOn: props.dependsOn,
      });
      registerCrdRelease(this);
      addSynthCheck(this, () => duplicateCrdProblems(this));
    } catch (e) {
      // a caller that catches the error must not find (and synthesize) a half-built release
      undo();
      // built by a composite (Karpenter): told on it, under its prop
      throw asPartProblems(this, e);
    }
  }
}

/**
 * The 1.0.x chart's `webhook:` values that are given; undefined when none are.
 * @throws KarpenterValidationError listing every webhook prop that is set on a version without the webhook, or that is bad
 */
function webhookValues(
  scope: Construct,
  version: KarpenterVersion,
  props: KarpenterCrdReleaseProps,
): string[] | undefined {
  const given = { serviceName: props.webhookServiceName, enabled: props.webhookEnabled, port: props.webhookPort };
  const set = (Object.keys(given) as (keyof typeof given)[]).filter((k) => given[k] !== undefined);
  if (set.length === 0) return undefined;
  const field = (k: keyof typeof given) => `webhook${k[0].toUpperCase()}${k.slice(1)}`;
  const problems = new Problems();
  if (version.minor !== 0) {
    for (const k of set)
      problems.add(
        new KarpenterValidationError(
          "HELM_CRD_WEBHOOK_VERSION",
          scope,
          field(k),
          given[k],
          `only with Karpenter 1.0.x: ${version.full} has no conversion webhook (removed in 1.1)`,
        ),
      );
    problems.throwIfAny(scope);
  }
  if (given.serviceName !== undefined)
    problems.check(() => checkServiceName(scope, "webhookServiceName", given.serviceName!));
  if (given.enabled !== undefined && typeof given.enabled !== "boolean" && !isUnresolved(given.enabled)) {
    problems.add(
      new KarpenterValidationError("HELM_CRD_WEBHOOK_ENABLED", scope, "webhookEnabled", given.enabled, "true or false"),
    );
  }
  const port = given.port;
  if (
    port !== undefined &&
    !Token.isUnresolved(port) &&
    !(typeof port === "number" && Number.isInteger(port) && port >= 1 && port <= 65535)
  ) {
    problems.add(
      new KarpenterValidationError(
        "HELM_WEBHOOK_PORT",
        scope,
        "webhookPort",
        port,
        "a TCP port, a whole number from 1 to 65535 (the controller chart's webhook.port)",
      ),
    );
  }
  problems.throwIfAny(scope);
  // a boolean token goes in unquoted as tobool(…), so that the chart's `if` reads a YAML boolean
  const enabled =
    given.enabled !== undefined && typeof given.enabled !== "boolean"
      ? plainScalar(Fn.tobool(given.enabled))
      : given.enabled;
  return [renderValues({ webhook: { ...given, enabled } })];
}
