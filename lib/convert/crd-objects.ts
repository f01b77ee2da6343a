import {
  compareVersions,
  crdFieldSince,
  crdKindSince,
  knownMinors,
  newestPatchOf,
  objectCrd,
  OBJECT_CRD_KINDS,
  ObjectCrdKind,
  versionData,
} from "../versions";
import { ConvertInput, ObjectDraft } from "./drafts";
import { noteValue } from "./fields";

/*
 * NodeOverlay (karpenter.sh/v1alpha1, from 1.7) and CapacityBuffer (autoscaling.x-k8s.io/v1beta1, from 1.14): no
 * older API version to convert from, so they are read as they are, like v1 NodePools. Their constructs take the
 * CRD's spec fields as props under the same names, so every spec field of the target release's CRD (the generated
 * field table) is carried over as written; a field of a later release is dropped with a note naming it; anything
 * else is noted as no field. The checks of the constructs run on the result (validate.ts).
 */

/** The kind of OBJECT_CRD_KINDS whose Kubernetes kind is `kind` (`"NodeOverlay"` → `nodeOverlay`), if any. */
export function objectKindNamed(kind: string): ObjectCrdKind | undefined {
  return (Object.keys(OBJECT_CRD_KINDS) as ObjectCrdKind[]).find((k) => OBJECT_CRD_KINDS[k] === kind);
}

/** The API versions (`<group>/<version>`) the known releases serve `kind` as, oldest release first, each once. */
export function servedApiVersions(kind: ObjectCrdKind): string[] {
  const since = crdKindSince(kind);
  const out = new Set<string>();
  for (const minor of knownMinors()) {
    if (since !== undefined && compareVersions(minor, since) < 0) continue;
    const crd = objectCrd(minor, kind);
    if (crd) out.add(`${crd.api.group}/${crd.api.version}`);
  }
  return [...out];
}

/**
 * Reads a NodeOverlay or CapacityBuffer as the target release's CRD has it. A target release without the CRD
 * (before its first release) gets an `invalid` note, and the object is read as the first release that ships the
 * CRD has it (not checked further); the install's feature gate, when its chart default is off, gets an `action` note.
 * @param namespace `metadata.namespace` of a namespaced kind, when the input gave one
 */
export function readObjectCrd(kind: ObjectCrdKind, input: ConvertInput, namespace: string | undefined): ObjectDraft {
  const { ctx, spec, source, version } = input;
  const name = OBJECT_CRD_KINDS[kind];
  const since = crdKindSince(kind);
  const target = objectCrd(version.factsMinor, kind);
  const targetHas = target !== undefined && (since === undefined || version.atLeast(since));
  const first = since !== undefined ? (newestPatchOf(since) ?? `${since}.0`) : version.full;
  const crd = targetHas ? target : objectCrd(since ?? version.factsMinor, kind)!;
  const readAs = targetHas ? version.full : first;
  const apiVersion = `${crd.api.group}/${crd.api.version}`;

  if (!targetHas)
    ctx.invalid(
      "apiVersion",
      `Karpenter ${version.full} has no ${name} CRD: the karpenter-crd chart ships it from ${since}.0 on, so the API server of a cluster running ${version.full} refuses the object (and the ${name} construct refuses that version). Convert with --karpenter-version ${first} (or another ${since}+ release) and install that release, or leave the ${name} out; its fields were read as the ${name} CRD of Karpenter ${first} has them`,
    );
  else if (source.apiVersion !== apiVersion)
    ctx.note(
      "action",
      "apiVersion",
      `written as ${apiVersion}, the API version Karpenter ${version.full} serves ${name} as (the input's ${source.apiVersion} is no longer served): its fields were read as that release's CRD has them`,
    );
  else
    ctx.note(
      "info",
      "apiVersion",
      `already ${apiVersion}: carried over field for field (the spec fields of the ${name} CRD of Karpenter ${readAs})`,
    );

  const props: ObjectDraft["props"] = { name: source.name, ...(namespace !== undefined ? { namespace } : {}) };
  for (const key of spec.keys()) {
    const path = `spec.${key}`;
    if (!crd.fields.includes(path)) {
      laterField(input, kind, key);
      continue;
    }
    // a map of quantities (capacity, limits): a YAML number becomes its text, the same quantity, as the props take it
    props[key] = crd.schema[`${path}{}`]?.type === "int-or-string" ? spec.quantityMap(key) : spec.raw(key);
  }

  if (crd.api.scope === "Namespaced" && namespace === undefined)
    ctx.note(
      "info",
      "metadata.namespace",
      `no namespace: the ${name} goes to namespace "default" (the ${name} construct's default, written out in the YAML), where its references must be; set namespace on the props for another`,
    );
  featureGateNote(kind, input, targetHas ? version.factsMinor : since!);
  return { kind, ctx, source, apiVersion, props, ...(targetHas ? { crd: target } : {}) };
}

/** A spec key the read CRD lacks: when a later release's CRD has it, dropped with a note naming that release. */
function laterField(input: ConvertInput, kind: ObjectCrdKind, key: string): void {
  const { spec, version, ctx } = input;
  const since = crdFieldSince(kind, `spec.${key}`);
  if (since === undefined || version.atLeast(since)) return; // left unread: noted as no field of the kind
  spec.consume(key);
  ctx.note(
    "action",
    spec.at(key),
    `not converted: a field of the ${OBJECT_CRD_KINDS[kind]} CRD from Karpenter ${since}; this conversion targets Karpenter ${version.full}, which lacks it. Convert with --karpenter-version ${newestPatchOf(since) ?? `${since}.0`} (or another ${since}+ release) to keep it; value was ${noteValue(spec.peek(key))}`,
  );
}

/**
 * The install's feature gate the controller reads the kind behind (`settings.featureGates.<kind>`, e.g.
 * `nodeOverlay`), when the release's chart has one that is off by default: the object does nothing without it.
 */
function featureGateNote(kind: ObjectCrdKind, input: ConvertInput, minor: string): void {
  const gate = versionData(minor).chart.featureGates.find((g) => g.key === kind);
  if (!gate || gate.default !== false) return;
  const name = OBJECT_CRD_KINDS[kind];
  input.ctx.note(
    "action",
    "kind",
    `the install must enable the ${name} feature gate: Karpenter reads ${name}s only with settings.featureGates.${kind}: true (alpha, off by default), otherwise the object is applied and then ignored. Set settings: { featureGates: { ${kind}: true } } on the Karpenter construct (the chart value settings.featureGates.${kind}), and pass it as the ${name}'s karpenter`,
  );
}
