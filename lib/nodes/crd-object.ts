import type { Construct, IConstruct } from "constructs";
import { settledProps } from "../core/readable-props";
import type { ITerraformDependable } from "cdktf";
import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";
import type { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { KarpenterValidationError } from "../core/errors";
import type { ErrorCode } from "../core/error-codes";
import { checkProvider, chooseProvider } from "../core/provider-choice";
import type { IKarpenterInstallation } from "../cluster/karpenter-installation";
import { Checker } from "../kubernetes/value-rules";
import { crdChildren } from "../kubernetes/crd-checks";
import { crdKindSince, objectCrd, OBJECT_CRD_KINDS, ObjectCrdData, ObjectCrdKind } from "../versions";
import type { KarpenterVersion } from "../versions/karpenter-version";
import {
  agreedVersion,
  checkDependsOn,
  checkedInstallation,
  checkOrderable,
  warnManifestSize,
  checkPropsWalkable,
  constructPath,
  objectName,
  orderAfter,
  specObject,
} from "./manifests";

/*
 * What the constructs of the CRDs checked from the generated table alone (NodeOverlay, CapacityBuffer) share: the
 * version they target and its CRD, and the install's feature gate the controller reads them behind.
 */

/** A feature gate of the `karpenter` chart (`settings.featureGates.<key>`) that a kind of object needs. */
export interface ObjectGate {
  /** The key under `settings.featureGates`, e.g. `nodeOverlay`. */
  readonly key: string;
  /** The controller's name of the gate, e.g. `NodeOverlay`. */
  readonly name: string;
  /** Whether the install turns it on: true, false, or undefined when not known at synth. */
  readonly on: (karpenter: IKarpenterInstallation) => boolean | undefined;
}

/**
 * The version an object of `kind` targets (its `version`, else its installation's; they must agree) and that
 * release's CRD of the kind (generated data).
 * @throws KarpenterValidationError for a version that is not a supported release, versions that disagree, or a
 * release older than the first that ships the CRD (named, with the release that added it)
 */
export function objectVersion(
  where: string,
  scope: IConstruct,
  kind: ObjectCrdKind,
  props: { readonly version?: string; readonly karpenter?: IKarpenterInstallation },
): { version: KarpenterVersion; crd: ObjectCrdData & { cel: string[] } } {
  const kindName = OBJECT_CRD_KINDS[kind];
  const karpenter = props.karpenter;
  const version = agreedVersion(
    where,
    [
      ["version", props.version],
      ["karpenter.version", karpenter?.version],
    ],
    `the ${kindName} is checked against the installed Karpenter (leave \`version\` unset to use it)`,
    scope,
  );
  const since = crdKindSince(kind);
  const crd = objectCrd(version.factsMinor, kind);
  if (!crd || (since !== undefined && !version.atLeast(since))) {
    const field = props.version !== undefined && props.version !== null ? "version" : "karpenter.version";
    throw new KarpenterValidationError(
      "KARPENTER_VERSION_CRD_MISSING",
      where,
      field,
      version.full,
      `Karpenter ${since} or later: the ${kindName} CRD ships with the karpenter-crd chart from v${since}.0 on, so a cluster running Karpenter ${version.full} has no ${kindName} resource and refuses the object; upgrade Karpenter or remove the ${kindName}`,
    );
  }
  return { version, crd };
}

/**
 * The install's feature gate, checked on `c` (a guarded check): an install known not to turn it on is an error on
 * `karpenter` — the CRD is installed either way, so the object applies cleanly and then does nothing, as the
 * controller reads no object of the kind without its gate. Returns the warning to give when the gate is not known
 * at synth (a token, a hand-composed install that does not say, or no `karpenter`), else undefined.
 */
export function checkObjectGate(
  c: Checker,
  kindName: string,
  name: string,
  gate: ObjectGate,
  karpenter: IKarpenterInstallation | undefined,
): string | undefined {
  const on = karpenter ? gate.on(karpenter) : undefined;
  c.guard(() => {
    if (on === false)
      c.fail(
        "INSTALL_FEATURE_GATE_OFF",
        "karpenter",
        karpenter!.node.path,
        `an install with the ${gate.name} feature gate on: Karpenter reads ${kindName}s only with settings.featureGates.${gate.key}: true (alpha, off by default), and ${karpenter!.node.path} leaves it off, so this ${kindName} would be applied and then ignored. Set settings: { featureGates: { ${gate.key}: true } } on that Karpenter (or ${gate.name}=true in the FEATURE_GATES entry of its values.controller.env, which replaces the gate string the chart builds)`,
      );
  });
  if (on !== undefined) return undefined;
  const whose = karpenter
    ? `whether ${karpenter.node.path} turns it on is not known at synth`
    : `this ${kindName} has no \`karpenter\`, so the install's gate is not known here`;
  return `${kindName} ${name}: Karpenter reads ${kindName}s only with the ${gate.name} feature gate (settings.featureGates.${gate.key}: true, alpha, off by default); ${whose}: without it the object is applied and then ignored.`;
}

/** The props every object of a CRD kind takes beside its spec (and `name`). */
export interface CrdObjectProps {
  readonly name?: string;
  readonly version?: string;
  readonly karpenter?: IKarpenterInstallation;
  readonly kubernetesProvider?: KubernetesProvider;
  readonly dependsOn?: ITerraformDependable[];
}

/** The props of an object of a CRD kind beyond its spec and `name` (`namespace` too, for a namespaced kind). */
const CONSTRUCT_PROPS = ["karpenter", "version", "kubernetesProvider", "dependsOn"];

/** What {@link openCrdObject} found, for the constructor to check the spec with and build from. */
export interface OpenedCrdObject<O> {
  readonly where: string;
  readonly karpenter: IKarpenterInstallation | undefined;
  readonly version: KarpenterVersion;
  readonly crd: ObjectCrdData & { cel: string[] };
  /** Collects the spec's problems, under the kind's code prefix. */
  readonly c: Checker;
  /** The props without the construct props: `name` (and `namespace`) and the spec fields. */
  readonly options: O;
  /** The spec fields of the release's CRD, in its order. */
  readonly specFields: string[];
  readonly name: string;
}

/**
 * The opening every constructor of an object of a CRD kind (NodeOverlay, CapacityBuffer) shares, before
 * `super()`: props that are an object and can be walked, the installation and its order, the version and its CRD,
 * the provider, the known props and `dependsOn` (on the collecting Checker), and the object's name.
 * @throws KarpenterValidationError (alone) for props that are no object, cannot be walked, or a bad version or
 * installation; the rest is collected on the returned Checker
 */
export function openCrdObject<P extends CrdObjectProps>(
  scope: Construct,
  id: string,
  props: P,
  kind: {
    readonly crd: ObjectCrdKind;
    /** The code prefix, e.g. `NODEOVERLAY`. */
    readonly prefix: ConstructorParameters<typeof Checker>[0];
    readonly notAnObject: { readonly code: ErrorCode; readonly allowed: string };
    /** Props beyond the spec fields and the construct props: `name`, and `namespace` for a namespaced kind. */
    readonly ownFields: readonly string[];
    /** The props interface, for the unknown-prop message. */
    readonly propsType: string;
  },
): OpenedCrdObject<Omit<P, "karpenter" | "version" | "dependsOn" | "kubernetesProvider">> {
  const where = constructPath(scope, id);
  if (props === null || props === undefined || typeof props !== "object" || Array.isArray(props))
    throw new KarpenterValidationError(kind.notAnObject.code, where, "props", props, kind.notAnObject.allowed);
  // a value inside itself (or nested thousands deep) would overflow every recursive check below
  checkPropsWalkable(where, props);
  // read once: what is checked is what is written
  props = settledProps(props);
  const karpenter = checkedInstallation(where, scope, props.karpenter);
  if (karpenter?.release) checkOrderable(where, scope, karpenter.release, "karpenter");
  const { version, crd } = objectVersion(where, scope, kind.crd, props);
  const c = new Checker(kind.prefix, where, version, { collect: true });
  const { karpenter: _k, version: _v, dependsOn: _d, kubernetesProvider: _kp, ...options } = props;
  if (props.kubernetesProvider)
    checkProvider(scope, where, "kubernetes", "kubernetesProvider", props.kubernetesProvider);
  const specFields = crdChildren(crd, "spec");
  c.guard(() => c.fields("", options, [...kind.ownFields, ...specFields, ...CONSTRUCT_PROPS], kind.propsType));
  c.guard(() => checkDependsOn(c, props.dependsOn));
  const name = objectName(where, id, options.name);
  return { where, karpenter, version, crd, c, options, specFields, name };
}

/**
 * The `kubernetes_manifest` of an object of a CRD kind (after `super()` and its checks): on the chosen Kubernetes
 * provider, ordered after the install's controller release (destroy removes the object first) and `dependsOn`.
 */
export function crdObjectManifest(
  construct: Construct,
  scope: Construct,
  props: CrdObjectProps,
  opened: OpenedCrdObject<object>,
  object: { readonly apiVersion: string; readonly kind: string; readonly metadata: Record<string, string> },
): { kubernetesProvider: KubernetesProvider | undefined; manifest: Manifest } {
  const { karpenter, specFields, options } = opened;
  const kubernetesProvider = chooseProvider(
    scope,
    construct,
    "kubernetes",
    "kubernetesProvider",
    props.kubernetesProvider,
    karpenter,
  );
  const dependsOn = [...(props.dependsOn ?? []), ...(karpenter ? orderAfter(construct, karpenter.release) : [])];
  const spec = Object.fromEntries(specFields.map((f) => [f, (options as Record<string, unknown>)[f]]));
  const body = { ...object, spec: specObject(spec) };
  warnManifestSize(construct, object.kind, object.metadata.name, body);
  const manifest = new Manifest(construct, "manifest", {
    provider: kubernetesProvider,
    manifest: body,
    dependsOn: dependsOn.length > 0 ? dependsOn : undefined,
  });
  return { kubernetesProvider, manifest };
}
