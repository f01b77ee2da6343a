import { Construct } from "constructs";
import { Annotations, ITerraformDependable } from "cdktf";
import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";
import type { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { IKarpenterInstallation } from "../cluster/karpenter-installation";
import { checkCrdThenSemantics, isSet } from "../kubernetes/value-rules";
import { checkObjectGate, crdObjectManifest, openCrdObject } from "./crd-object";
import { CONSTRUCT_VALUED_PROPS, registerUniqueName } from "./manifests";
import { checkNodeOverlay, checkNodeOverlaySemantics } from "./node-overlay-rules";
import type { NodeOverlayOptions } from "./node-overlay-spec";
import { nodeContextOf } from "./node-context";
import { requirementValueWarnings } from "./node-semantic-rules";

/**
 * Props of {@link Karpenter.addNodeOverlay}: the NodeOverlay spec ({@link NodeOverlayOptions}) plus where its version
 * and ordering come from — every prop of {@link NodeOverlayProps} but `karpenter` (the install it is added to).
 */
export interface AddNodeOverlayProps extends NodeOverlayOptions {
  /**
   * The Karpenter version the spec is checked against, e.g. `"1.14.1"` (1.7 or later: the first release whose
   * karpenter-crd chart ships the NodeOverlay CRD); must equal `karpenter.version`.
   * @default `karpenter.version`, else DEFAULT_KARPENTER_VERSION ("1.15.3")
   */
  readonly version?: string;
  /**
   * The Kubernetes provider connected to the cluster the object is for.
   * @default the stack's default Kubernetes provider, when it is the stack's only Kubernetes provider and the
   * stack's node objects relying on it are all for one install (or cluster); synth fails naming this prop otherwise
   */
  readonly kubernetesProvider?: KubernetesProvider;
  /**
   * Extra resources of the same stack the manifest waits for.
   * @default none
   */
  readonly dependsOn?: ITerraformDependable[];
}

/** Props of {@link NodeOverlay}: the spec, its version and ordering ({@link AddNodeOverlayProps}), and the install it belongs to. */
export interface NodeOverlayProps extends AddNodeOverlayProps {
  /**
   * The Karpenter installation: its version checks the spec, its `settings.featureGates.nodeOverlay` must be on
   * (an error when it is known to be off, a warning when it is not known), and the manifest is ordered after its
   * controller release (destroy removes the overlay first).
   * @default none: the version is `version` (or the default), the gate is not known (a synth warning), and ordering is yours
   */
  readonly karpenter?: IKarpenterInstallation;
}

/**
 * A Karpenter `karpenter.sh/v1alpha1` NodeOverlay, emitted as a `kubernetes_manifest`: a change of the price or the
 * extended-resource capacity Karpenter assumes for the instance types (and NodePools) that match its requirements,
 * in its scheduling simulations (e.g. a negotiated discount, or a device plugin's resource). Alpha: Karpenter reads
 * NodeOverlays only with the install's feature gate `settings.featureGates.nodeOverlay: true`, from Karpenter 1.7.
 *
 * Validated against the NodeOverlay CRD of the install's release — every field, type, enum, pattern and bound from
 * the generated field table (lib/versions/data), the requirement-key restrictions from the release's own CEL rules,
 * and the other CEL rules (`price` or `priceAdjustment`, not both; no `cpu` / `memory` / `ephemeral-storage` /
 * `pods` capacity; In / NotIn with values; Gt / Lt / Gte / Lte with one non-negative integer) — and beyond it
 * (requirement values are label values; Exists / DoesNotExist take none; capacities are not negative). Every
 * problem of the overlay comes in one {@link KarpenterValidationError} (each in its `problems`), naming the
 * construct path, the field, the value and what is allowed. Token values are left to the API server.
 *
 * Two NodeOverlays of one app with the same name on the same cluster fail synth.
 *
 * Upstream: NodeOverlay CRD (`karpenter.sh_nodeoverlays.yaml` of the karpenter-crd chart, v1.7.0–v1.15.0),
 * kubernetes-sigs/karpenter pkg/apis/v1alpha1.
 */
export class NodeOverlay extends Construct {
  /** `apiVersion` of the emitted object. */
  public static readonly API_VERSION = "karpenter.sh/v1alpha1";
  /** `kind` of the emitted object. */
  public static readonly KIND = "NodeOverlay";
  /** The first Karpenter minor whose karpenter-crd chart ships the NodeOverlay CRD. */
  public static readonly SINCE = "1.7";

  /** `metadata.name` of the NodeOverlay. */
  public readonly name: string;
  /** The Karpenter version the spec was checked against, e.g. `"1.14.1"`. */
  public readonly version: string;
  /** The installation given in the props, if any. */
  public readonly karpenter?: IKarpenterInstallation;
  /** The `kubernetes_manifest` resource. */
  public readonly manifest: Manifest;
  /** The Kubernetes provider of the manifest; undefined: the stack's default. */
  public readonly kubernetesProvider?: KubernetesProvider;

  /**
   * @throws KarpenterValidationError for props that are not an object, a `version` that is not a supported release,
   * differs from `karpenter.version` or is older than 1.7 (the release that added the CRD), a `karpenter` whose
   * release is in a stack that depends on this one, an install known to leave `settings.featureGates.nodeOverlay`
   * off, or a spec the release's NodeOverlay CRD (or a rule beyond it) rejects; at synth, for a duplicate name. The
   * spec's problems come together in one error (`problems`); props that are no object, props holding a value inside itself or nested more than 16 maps and lists deep (NODE_VALUE_CYCLE / NODE_VALUE_TOO_DEEP), and a bad `version` are
   * thrown alone, before the spec is checked.
   */
  constructor(scope: Construct, id: string, props: NodeOverlayProps) {
    const opened = openCrdObject(scope, id, props, {
      crd: "nodeOverlay",
      prefix: "NODEOVERLAY",
      notAnObject: { code: "NODEOVERLAY_NOT_AN_OBJECT", allowed: "NodeOverlay props: an object { requirements, … }" },
      ownFields: ["name"],
      propsType: "NodeOverlayProps",
    });
    const { c, crd, options, name, karpenter, version } = opened;
    let gateWarning: string | undefined;
    checkCrdThenSemantics(
      c,
      () => {
        checkNodeOverlay(c, crd, options, name);
        gateWarning = checkObjectGate(c, NodeOverlay.KIND, name, NODE_OVERLAY_GATE, karpenter);
      },
      (s) => checkNodeOverlaySemantics(s, options, nodeContextOf(karpenter?.cluster)),
      props,
      CONSTRUCT_VALUED_PROPS,
    );

    super(scope, id);
    this.name = name;
    this.version = version.full;
    this.karpenter = karpenter;
    if (gateWarning) Annotations.of(this).addWarning(gateWarning);
    for (const warning of requirementValueWarnings(
      c,
      `NodeOverlay ${name}`,
      options.requirements,
      nodeContextOf(karpenter?.cluster),
    ))
      Annotations.of(this).addWarning(warning);
    if (!isSet(options.price) && !isSet(options.priceAdjustment) && !isSet(options.capacity))
      Annotations.of(this).addWarning(
        `NodeOverlay ${name} sets none of price, priceAdjustment and capacity, so it changes nothing for the instance types it matches.`,
      );
    registerUniqueName(this, NodeOverlay.KIND, name, { karpenter });
    ({ kubernetesProvider: this.kubernetesProvider, manifest: this.manifest } = crdObjectManifest(
      this,
      scope,
      props,
      opened,
      { apiVersion: NodeOverlay.API_VERSION, kind: NodeOverlay.KIND, metadata: { name } },
    ));
  }
}

/** The controller's NodeOverlay gate, as the install reports it. */
const NODE_OVERLAY_GATE = {
  key: "nodeOverlay",
  name: "NodeOverlay",
  on: (k: IKarpenterInstallation) => k.nodeOverlayGate,
};
