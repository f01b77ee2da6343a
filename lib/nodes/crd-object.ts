import type { IConstruct } from "constructs";
import { KarpenterValidationError } from "../core/errors";
import type { IKarpenterInstallation } from "../cluster/karpenter-installation";
import type { Checker } from "../kubernetes/value-rules";
import { crdKindSince, objectCrd, OBJECT_CRD_KINDS, ObjectCrdData, ObjectCrdKind } from "../versions";
import type { KarpenterVersion } from "../versions/karpenter-version";
import { agreedVersion } from "./manifests";

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
        `an install with the ${gate.name} feature gate on: Karpenter reads ${kindName}s only with settings.featureGates.${gate.key}: true (alpha, off by default), and ${karpenter!.node.path} leaves it off, so this ${kindName} would be applied and then ignored. Set settings: { featureGates: { ${gate.key}: true } } on that Karpenter`,
      );
  });
  if (on !== undefined) return undefined;
  const whose = karpenter
    ? `whether ${karpenter.node.path} turns it on is not known at synth`
    : `this ${kindName} has no \`karpenter\`, so the install's gate is not known here`;
  return `${kindName} ${name}: Karpenter reads ${kindName}s only with the ${gate.name} feature gate (settings.featureGates.${gate.key}: true, alpha, off by default); ${whose}: without it the object is applied and then ignored.`;
}
