import { needsReservationLabel } from "../nodes/node-semantic-rules";
import { lookupTable } from "../core/lookup";
import {
  NodeClassReference,
  NodeSelectorOperator,
  NodeSelectorRequirement,
  Taint,
  TaintEffect,
} from "../nodes/node-pool-spec";
import { Fields, ObjectContext } from "./fields";
import { MAX_DURATION_NS, MAX_WHOLE_SECONDS_TEXT } from "../kubernetes/value-rules";
import { CAPACITY_TYPE } from "../nodes/node-pool-rules";
import { ConvertInput, PoolDraft } from "./drafts";

/*
 * Pieces shared by the Provisioner, v1beta1 NodePool and v1 NodePool readers: requirements,
 * taints, node annotations, node class references.
 */

/** The v1 node class a NodePool refers to on AWS. */
export const NODE_CLASS_GROUP = "karpenter.k8s.aws";
export const NODE_CLASS_KIND = "EC2NodeClass";

/** Legacy label keys with a v1 meaning of their own (v1beta1 migration guide, "Karpenter Labels"). */
const LEGACY_LABELS: { readonly [key: string]: string } = lookupTable({
  "karpenter.sh/provisioner-name":
    "is karpenter.sh/nodepool in v1beta1 and later, which Karpenter sets on every node and a NodePool may not use in its requirements or labels: remove it (pods select a pool with a karpenter.sh/nodepool node selector)",
  "karpenter.k8s.aws/instance-pods":
    "was dropped in v1beta1 (no v1 label): remove it, or limit pods per node with the EC2NodeClass kubelet.maxPods",
});

/** Node annotations replaced in v1 (v1 migration guide, "Breaking API"). */
const DISRUPTION_ANNOTATIONS = ["karpenter.sh/do-not-evict", "karpenter.sh/do-not-consolidate"];
const DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt";

/**
 * Reads `requirements[]` (key, operator, values; `minValues` only when the API version has it).
 * Requirements are carried over as written; legacy label keys get a note.
 */
export function readRequirements(
  ctx: ObjectContext,
  f: Fields,
  key: string,
  withMinValues: boolean,
): NodeSelectorRequirement[] | undefined {
  const items = f.objects(key, "a requirement { key, operator, values }");
  return items?.map((r) => {
    const k =
      r.str("key", { nonEmpty: true }) ??
      r.fail("CONVERT_REQUIRED", "key", undefined, "a label key (every requirement needs key and operator)");
    const operator =
      r.str("operator", { nonEmpty: true }) ??
      r.fail(
        "CONVERT_REQUIRED",
        "operator",
        undefined,
        "one of In, NotIn, Exists, DoesNotExist, Gt, Lt (every requirement needs key and operator)",
      );
    const values = r.strList("values");
    const minValues = withMinValues ? r.int("minValues") : undefined;
    if (LEGACY_LABELS[k]) ctx.note("action", r.at("key"), `requirement on ${k}: this label ${LEGACY_LABELS[k]}`);
    return {
      key: k,
      operator: operator as NodeSelectorOperator,
      ...(values !== undefined ? { values } : {}),
      ...(minValues !== undefined ? { minValues } : {}),
    };
  });
}

/** Reads a labels map, noting legacy label keys. */
export function readLabels(ctx: ObjectContext, f: Fields, key: string): { [k: string]: string } | undefined {
  const labels = f.strMap(key);
  for (const k of Object.keys(labels ?? {})) {
    if (LEGACY_LABELS[k]) ctx.note("action", f.at(key).concat(k), `label ${k}: this label ${LEGACY_LABELS[k]}`);
  }
  return labels;
}

/** Reads `taints[]` / `startupTaints[]` (core/v1 Taint). */
export function readTaints(f: Fields, key: string): Taint[] | undefined {
  return f.objects(key, "a taint { key, value, effect }")?.map((t) => {
    const k =
      t.str("key", { nonEmpty: true }) ??
      t.fail("CONVERT_REQUIRED", "key", undefined, "a taint key (every taint needs key and effect)");
    const effect =
      t.str("effect", { nonEmpty: true }) ??
      t.fail(
        "CONVERT_REQUIRED",
        "effect",
        undefined,
        "NoSchedule, PreferNoSchedule or NoExecute (every taint needs key and effect)",
      );
    const value = t.str("value");
    const timeAdded = t.str("timeAdded");
    return {
      key: k,
      effect: effect as TaintEffect,
      ...(value !== undefined ? { value } : {}),
      ...(timeAdded !== undefined ? { timeAdded } : {}),
    };
  });
}

/**
 * Reads node annotations and renames `karpenter.sh/do-not-evict` / `do-not-consolidate` to
 * `karpenter.sh/do-not-disrupt` (removed in v1; v1 migration guide).
 */
export function readNodeAnnotations(ctx: ObjectContext, f: Fields, key: string): { [k: string]: string } | undefined {
  const annotations = f.strMap(key);
  if (annotations === undefined) return undefined;
  const out: { [k: string]: string } = {};
  for (const [k, v] of Object.entries(annotations)) {
    if (!DISRUPTION_ANNOTATIONS.includes(k)) {
      out[k] = v;
      continue;
    }
    const given = annotations[DO_NOT_DISRUPT] ?? out[DO_NOT_DISRUPT];
    if (given !== undefined && given !== v) {
      ctx.note(
        "action",
        f.at(key).concat(k),
        `annotation ${k}: "${v}" was removed in v1 and ${DO_NOT_DISRUPT} is already "${given}"; kept ${DO_NOT_DISRUPT}: "${given}"`,
      );
      continue;
    }
    out[DO_NOT_DISRUPT] = v;
    ctx.note(
      "info",
      f.at(key).concat(k),
      `annotation ${k} was removed in v1: written as ${DO_NOT_DISRUPT}: "${v}" (no voluntary disruption of the node)`,
    );
  }
  return out;
}

/**
 * Reads a v1beta1 (`apiVersion`, `kind`, `name`) or v1 (`group`, `kind`, `name`) nodeClassRef
 * and returns the v1 reference with group and kind filled in.
 */
export function readNodeClassRef(
  ctx: ObjectContext,
  f: Fields,
  key: string,
  v1: boolean,
): NodeClassReference | undefined {
  const ref = f.obj(key, "a node class reference { name, kind, group }");
  if (!ref) return undefined;
  const name =
    ref.str("name", { nonEmpty: true }) ??
    ref.fail("CONVERT_REQUIRED", "name", undefined, "the name of the EC2NodeClass (required)");
  const kind = ref.str("kind") || undefined;
  let group: string | undefined;
  if (v1) {
    group = ref.str("group") || undefined;
  } else {
    const apiVersion = ref.str("apiVersion") || undefined;
    group = apiVersion?.split("/")[0];
    ctx.note(
      "info",
      ref.at("apiVersion"),
      `nodeClassRef.apiVersion${apiVersion ? ` (${apiVersion})` : ""} is nodeClassRef.group in v1, and group and kind are required: written as group ${group ?? NODE_CLASS_GROUP}, kind ${kind ?? NODE_CLASS_KIND}`,
    );
  }
  if ((group ?? NODE_CLASS_GROUP) !== NODE_CLASS_GROUP || (kind ?? NODE_CLASS_KIND) !== NODE_CLASS_KIND) {
    ctx.note(
      "action",
      ref.path,
      `nodeClassRef names ${kind ?? NODE_CLASS_KIND} of group ${group ?? NODE_CLASS_GROUP}: on AWS the node class is always ${NODE_CLASS_KIND} of ${NODE_CLASS_GROUP} (v1 migration guide, "NodeClassRef Requirements")`,
    );
  }
  return { name, group: group ?? NODE_CLASS_GROUP, kind: kind ?? NODE_CLASS_KIND };
}

/** The most whole seconds a Go `time.Duration` holds (int64 nanoseconds, about 292 years). */
const MAX_SECONDS = Number(MAX_DURATION_NS / 1_000_000_000n);

/**
 * Whole seconds as people write a duration: hours, minutes and seconds, each only when not zero
 * (`2592000` → `"720h"`, `5400` → `"1h30m"`, `90` → `"1m30s"`, `0` → `"0s"`). Go's
 * `time.Duration.String()` would write `720h0m0s`; both parse alike, and the CRD pattern of
 * `expireAfter` / `consolidateAfter` / `terminationGracePeriod` (`^([0-9]+(s|m|h))+$`, karpenter.sh
 * NodePool CRD) takes any sequence of those units. Hours are the largest unit: Go durations have no days.
 */
export function humanDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const text = `${h ? `${h}h` : ""}${m ? `${m}m` : ""}${s ? `${s}s` : ""}`;
  return text || "0s";
}

/**
 * A v1alpha5 TTL in seconds as a v1 duration written as people write it ({@link humanDuration}),
 * or `"Never"` with an action note when it is longer than Karpenter can parse (Go's
 * `time.Duration`; the constructs reject such a duration): a TTL of centuries means "never" in practice.
 * @param field the input field, for the note
 * @param target the v1 field written, for the note
 */
export function ttlDuration(ctx: ObjectContext, n: number, field: string, target: string): string {
  if (n <= MAX_SECONDS) return humanDuration(n);
  ctx.note(
    "action",
    field,
    `${n} seconds is longer than the longest duration Karpenter v1 can parse (${MAX_WHOLE_SECONDS_TEXT}, about 292 years: Go's time.ParseDuration fails above it): written as ${target} "Never"; set a duration of at most ${MAX_WHOLE_SECONDS_TEXT} if that is not what you meant`,
  );
  return "Never";
}

/**
 * A v1beta1 or v1 NodePool's `spec.template` (the same shape in both): a pool draft with labels,
 * annotations, requirements and taints read, and the template spec for the version's own fields.
 */
export function readPoolTemplate(input: ConvertInput): { pool: PoolDraft; t: Fields } {
  const { ctx, spec, source } = input;
  const pool: PoolDraft = { ctx, source, props: { name: source.name } };
  const p = pool.props;
  const template =
    spec.obj("template", "the NodeClaim template { metadata, spec }") ??
    spec.fail(
      "CONVERT_REQUIRED",
      "template",
      undefined,
      "a NodeClaim template { spec: { nodeClassRef, requirements } } (required)",
    );
  const meta = template.obj("metadata", "template metadata { labels, annotations }");
  p.labels = meta && readLabels(ctx, meta, "labels");
  p.annotations = meta && readNodeAnnotations(ctx, meta, "annotations");
  const t =
    template.obj("spec", "the NodeClaim spec") ??
    template.fail("CONVERT_REQUIRED", "spec", undefined, "a NodeClaim spec { nodeClassRef, requirements } (required)");
  p.requirements = readRequirements(ctx, t, "requirements", true);
  p.taints = readTaints(t, "taints");
  p.startupTaints = readTaints(t, "startupTaints");
  return { pool, t };
}

/**
 * Makes the converted pool state `karpenter.sh/capacity-type`, as the NodePool construct does:
 * a v1 NodePool requires `requirements`, and without a capacity-type requirement Karpenter may
 * launch spot. Adds `In [on-demand]` (`In [reserved]` when a requirement or label needs a capacity-reservation label)
 * unless a requirement or a template label names the key; a pool
 * whose label decides it gets an empty list when it had none.
 * @param field where the note goes (the input's requirements field)
 * @param mayHaveLaunchedSpot true for v1beta1 / v1 input, whose pools without a capacity type could
 * launch spot: the note is then an `action` (the pool changes behaviour); a v1alpha5 Provisioner's
 * webhook defaulted on-demand, so there it is `info`
 */
export function stateCapacityType(
  ctx: ObjectContext,
  pool: PoolDraft,
  field: string,
  mayHaveLaunchedSpot: boolean,
): void {
  const p = pool.props;
  const named =
    (p.requirements ?? []).some((r) => r.key === CAPACITY_TYPE) ||
    (p.labels !== undefined && CAPACITY_TYPE in p.labels);
  if (named) {
    p.requirements = p.requirements ?? [];
    return;
  }
  // a requirement or label that needs a capacity reservation's label: only reserved offerings carry one (karpenter-
  // provider-aws offering/base_resolver.go), so reserved is the only capacity type the pool could have launched
  const reservation = needsReservationLabel(p.requirements ?? [], p.labels ?? {});
  if (reservation !== undefined) {
    p.requirements = [...(p.requirements ?? []), { key: CAPACITY_TYPE, operator: "In", values: ["reserved"] }];
    ctx.note(
      "action",
      field,
      `added ${CAPACITY_TYPE} In [reserved]: the pool names ${reservation}, a label only reserved offerings carry (aws/karpenter-provider-aws offering/base_resolver.go: on-demand and spot have it DoesNotExist), so reserved is the only capacity the pool could launch; the NodePool construct refuses a reservation label without a capacity type (its default, on-demand, would leave no offering)`,
    );
    return;
  }
  p.requirements = [...(p.requirements ?? []), { key: CAPACITY_TYPE, operator: "In", values: ["on-demand"] }];
  ctx.note(
    mayHaveLaunchedSpot ? "action" : "info",
    field,
    `added ${CAPACITY_TYPE} In [on-demand], as the NodePool construct does: a v1 NodePool requires requirements, and without a capacity-type requirement Karpenter may launch spot, which fails with ServiceLinkedRoleCreationNotPermitted in accounts without the EC2 Spot service-linked role; ${
      mayHaveLaunchedSpot
        ? "the input did not state a capacity type, so this pool may have launched spot until now: "
        : ""
    }state ["spot", "on-demand"] if the pool should launch spot`,
  );
}
