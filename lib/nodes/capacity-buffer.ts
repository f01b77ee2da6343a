import { Construct } from "constructs";
import { Annotations, ITerraformDependable } from "cdktf";
import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";
import type { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { IKarpenterInstallation } from "../cluster/karpenter-installation";
import { checkCrdThenSemantics } from "../kubernetes/value-rules";
import { checkObjectGate, crdObjectManifest, openCrdObject } from "./crd-object";
import { CONSTRUCT_VALUED_PROPS, registerUniqueName } from "./manifests";
import { capacityBufferWarnings, checkCapacityBuffer, checkCapacityBufferSemantics } from "./capacity-buffer-rules";
import type { CapacityBufferOptions } from "./capacity-buffer-spec";

/**
 * Props of {@link Karpenter.addCapacityBuffer}: the CapacityBuffer spec ({@link CapacityBufferOptions}) plus where
 * its version and ordering come from — every prop of {@link CapacityBufferProps} but `karpenter` (the install it
 * is added to).
 */
export interface AddCapacityBufferProps extends CapacityBufferOptions {
  /**
   * The Karpenter version the spec is checked against, e.g. `"1.14.1"` (1.14 or later: the first release whose
   * karpenter-crd chart ships the CapacityBuffer CRD); must equal `karpenter.version`.
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
   * Extra resources of the same stack the manifest waits for (e.g. the PodTemplate or workload it refers to).
   * @default none
   */
  readonly dependsOn?: ITerraformDependable[];
}

/** Props of {@link CapacityBuffer}: the spec, its version and ordering ({@link AddCapacityBufferProps}), and the install it belongs to. */
export interface CapacityBufferProps extends AddCapacityBufferProps {
  /**
   * The Karpenter installation: its version checks the spec, its `settings.featureGates.capacityBuffer` must be
   * on (an error when it is known to be off, a warning when it is not known), and the manifest is ordered after
   * its controller release (destroy removes the buffer first).
   * @default none: the version is `version` (or the default), the gate is not known (a synth warning), and ordering is yours
   */
  readonly karpenter?: IKarpenterInstallation;
}

/**
 * A `autoscaling.x-k8s.io/v1beta1` CapacityBuffer, emitted as a `kubernetes_manifest`: spare capacity Karpenter
 * keeps provisioned ahead of demand, as a number of chunks shaped like a PodTemplate (`podTemplateRef`) or like the
 * pods of a scalable workload (`scalableRef`), counted by `replicas`, `percentage` or `limits`. Alpha: Karpenter
 * reads CapacityBuffers only with the install's feature gate `settings.featureGates.capacityBuffer: true`, from
 * Karpenter 1.14. Namespaced: `namespace` (default `default`) is where its reference must be.
 *
 * Validated against the CapacityBuffer CRD of the install's release — every field, type, bound and required field
 * from the generated field table (lib/versions/data), and its CEL rules (`podTemplateRef` or `scalableRef`, not
 * both; `podTemplateRef` with `replicas` or `limits`) — and beyond it (one of the two references; limits not
 * negative). Every problem of the buffer comes in one {@link KarpenterValidationError} (each in its `problems`),
 * naming the construct path, the field, the value and what is allowed. Warns at synth for `percentage` without
 * `scalableRef` (ignored) and a `provisioningStrategy` other than `buffer.x-k8s.io/active-capacity`. Token values
 * are left to the API server.
 *
 * Two CapacityBuffers of one app with the same namespace and name on the same cluster fail synth.
 *
 * Upstream: CapacityBuffer CRD (`autoscaling.x-k8s.io_capacitybuffers.yaml` of the karpenter-crd chart,
 * v1.14.1–v1.15.0; the buffers API of kubernetes/autoscaler).
 */
export class CapacityBuffer extends Construct {
  /** `apiVersion` of the emitted object. */
  public static readonly API_VERSION = "autoscaling.x-k8s.io/v1beta1";
  /** `kind` of the emitted object. */
  public static readonly KIND = "CapacityBuffer";
  /** The first Karpenter minor whose karpenter-crd chart ships the CapacityBuffer CRD. */
  public static readonly SINCE = "1.14";
  /** The namespace of a CapacityBuffer that names none. */
  public static readonly DEFAULT_NAMESPACE = "default";

  /** `metadata.name` of the CapacityBuffer. */
  public readonly name: string;
  /** `metadata.namespace` of the CapacityBuffer. */
  public readonly namespace: string;
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
   * differs from `karpenter.version` or is older than 1.14 (the release that added the CRD), a `karpenter` whose
   * release is in a stack that depends on this one, an install known to leave `settings.featureGates.capacityBuffer`
   * off, or a spec the release's CapacityBuffer CRD (or a rule beyond it) rejects; at synth, for a duplicate name.
   * The spec's problems come together in one error (`problems`); props that are no object, props holding a value inside itself or nested more than 16 maps and lists deep (NODE_VALUE_CYCLE / NODE_VALUE_TOO_DEEP), and a bad `version` are
   * thrown alone, before the spec is checked.
   */
  constructor(scope: Construct, id: string, props: CapacityBufferProps) {
    const opened = openCrdObject(scope, id, props, {
      crd: "capacityBuffer",
      prefix: "CAPACITYBUFFER",
      notAnObject: {
        code: "CAPACITYBUFFER_NOT_AN_OBJECT",
        allowed: "CapacityBuffer props: an object { podTemplateRef or scalableRef, replicas, … }",
      },
      ownFields: ["name", "namespace"],
      propsType: "CapacityBufferProps",
    });
    const { c, crd, options, name, karpenter, version } = opened;
    const namespace = options.namespace ?? CapacityBuffer.DEFAULT_NAMESPACE;
    let gateWarning: string | undefined;
    checkCrdThenSemantics(
      c,
      () => {
        checkCapacityBuffer(c, crd, options, name, namespace);
        gateWarning = checkObjectGate(c, CapacityBuffer.KIND, name, CAPACITY_BUFFER_GATE, karpenter);
      },
      (s) => checkCapacityBufferSemantics(s, options),
      props,
      CONSTRUCT_VALUED_PROPS,
    );

    super(scope, id);
    this.name = name;
    this.namespace = namespace;
    this.version = version.full;
    this.karpenter = karpenter;
    if (gateWarning) Annotations.of(this).addWarning(gateWarning);
    for (const w of capacityBufferWarnings(c, name, options)) Annotations.of(this).addWarning(w);
    // namespaced: one object per namespace and name
    registerUniqueName(this, CapacityBuffer.KIND, `${namespace}/${name}`, { karpenter });
    ({ kubernetesProvider: this.kubernetesProvider, manifest: this.manifest } = crdObjectManifest(
      this,
      scope,
      props,
      opened,
      { apiVersion: CapacityBuffer.API_VERSION, kind: CapacityBuffer.KIND, metadata: { name, namespace } },
    ));
  }
}

/** The controller's CapacityBuffer gate, as the install reports it. */
const CAPACITY_BUFFER_GATE = {
  key: "capacityBuffer",
  name: "CapacityBuffer",
  on: (k: IKarpenterInstallation) => k.capacityBufferGate,
};
