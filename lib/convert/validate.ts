import { instanceTypeCatalogueWarnings } from "../nodes/instance-type-rules";
import { lookupTable } from "../core/lookup";
import type { KarpenterValidationError } from "../core/errors";
import { checkEc2NodeClass } from "../nodes/ec2-node-class-rules";
import type { CheckerSubject } from "../core/error-codes";
import { Checker } from "../kubernetes/value-rules";
import { checkNodePool, limitsWarnings } from "../nodes/node-pool-rules";
import {
  checkEc2NodeClassSemantics,
  checkNodePoolSemantics,
  requirementValueWarnings,
} from "../nodes/node-semantic-rules";
import { checkNodeOverlay, checkNodeOverlaySemantics } from "../nodes/node-overlay-rules";
import {
  capacityBufferWarnings,
  checkCapacityBuffer,
  checkCapacityBufferSemantics,
} from "../nodes/capacity-buffer-rules";
import type { NodeOverlayOptions } from "../nodes/node-overlay-spec";
import type { CapacityBufferOptions } from "../nodes/capacity-buffer-spec";
import { KarpenterVersion } from "../versions/karpenter-version";
import { ClassDraft, ObjectDraft, PoolDraft } from "./drafts";
import { noteValue } from "./fields";

/*
 * Runs the converted objects through the rules the NodePool / Ec2NodeClass / NodeOverlay / CapacityBuffer
 * constructs enforce,
 * so a result those constructs (or the API server) refuse carries a note — the CLI prints
 * YAML without going through the constructs. Fields that are missing already have a note of
 * their own (node class, role, selector terms); they get placeholders here so that the check
 * goes on to the other fields. Every problem is noted, not only the first: the checker collects
 * one per field, list item and map entry.
 */

const PLACEHOLDER = "converter-placeholder";

/** NodePool prop → its path in the v1 object. */
const POOL_PATHS: { readonly [prop: string]: string } = lookupTable({
  name: "metadata.name",
  labels: "spec.template.metadata.labels",
  annotations: "spec.template.metadata.annotations",
  requirements: "spec.template.spec.requirements",
  taints: "spec.template.spec.taints",
  startupTaints: "spec.template.spec.startupTaints",
  expireAfter: "spec.template.spec.expireAfter",
  terminationGracePeriod: "spec.template.spec.terminationGracePeriod",
  nodeClassRef: "spec.template.spec.nodeClassRef",
});

/** Adds a note to every pool and class the targeted Karpenter version's rules reject. */
export function validateDrafts(
  pools: readonly PoolDraft[],
  classes: readonly ClassDraft[],
  version: KarpenterVersion,
): void {
  for (const pool of pools) {
    const ref = pool.nodeClassRef ?? { name: PLACEHOLDER, group: "karpenter.k8s.aws", kind: "EC2NodeClass" };
    const group = ref.group ?? "karpenter.k8s.aws";
    const kind = ref.kind ?? "EC2NodeClass";
    check(
      pool,
      version,
      "NodePool",
      (path) => v1Path(path, POOL_PATHS),
      (c) => checkNodePool(c, version, pool.props, pool.props.name, { name: ref.name, group, kind }, "nodeClassRef"),
      // the cluster's region and Kubernetes version are not known here: those rules wait for the constructs
      (c) => checkNodePoolSemantics(c, pool.props.name, pool.props, {}),
    );
    // what the construct would warn about at synth (a limit on a resource no node has, such as
    // nvidia.com/gpus): the YAML is printed without going through the construct, so it is said here
    const w = new Checker("NODEPOOL", `NodePool ${pool.props.name}`, version, { collect: true });
    for (const warning of limitsWarnings(w, pool.props.name, pool.props.limits))
      pool.ctx.note("action", "spec.limits", `the NodePool construct warns at synth: ${warning}`);
    for (const warning of requirementValueWarnings(w, `NodePool ${pool.props.name}`, pool.props.requirements, {}))
      pool.ctx.note("action", "spec.template.spec.requirements", `the NodePool construct warns at synth: ${warning}`);
    const owner = `NodePool ${pool.props.name}`;
    for (const warning of instanceTypeCatalogueWarnings(w, owner, pool.props.requirements, pool.props.labels))
      pool.ctx.note("action", "spec.template.spec.requirements", `the NodePool construct warns at synth: ${warning}`);
  }
  // a kubelet that stays in a note (its EC2NodeClass is outside the input): judged as that class would judge it, so the
  // note does not tell the user to add a kubelet the Ec2NodeClass construct refuses (fresh tester 19, C-2)
  const inInput = new Set(classes.map((c) => c.props.name));
  for (const pool of pools) {
    const ref = pool.nodeClassRef;
    const moved =
      ref &&
      (ref.group ?? "karpenter.k8s.aws") === "karpenter.k8s.aws" &&
      (ref.kind ?? "EC2NodeClass") === "EC2NodeClass" &&
      inInput.has(ref.name);
    if (!pool.kubelet || moved) continue;
    const { value, field } = pool.kubelet;
    const probe = {
      name: PLACEHOLDER,
      role: PLACEHOLDER,
      amiFamily: "Custom" as const,
      amiSelectorTerms: [{ id: "ami-placeholder" }],
      subnetSelectorTerms: [{ tags: { placeholder: PLACEHOLDER } }],
      securityGroupSelectorTerms: [{ tags: { placeholder: PLACEHOLDER } }],
      kubelet: value,
    };
    const c = new Checker("EC2NODECLASS", `EC2NodeClass ${ref?.name ?? PLACEHOLDER}`, version, { collect: true });
    c.guard(() => checkEc2NodeClass(c, version, probe, PLACEHOLDER));
    c.guard(() => checkEc2NodeClassSemantics(c, PLACEHOLDER, probe, {}));
    const seen = new Set<string>();
    for (const e of c.collected) {
      if (!/^kubelet\b/.test(e.field) || seen.has(e.field)) continue;
      seen.add(e.field);
      const at = `${field}${e.field.slice("kubelet".length)}`;
      pool.ctx.invalid(
        at,
        `the kubelet this note carries is invalid in Karpenter ${version.full} (the Ec2NodeClass construct refuses it on the class it goes to): ${at} = ${noteValue(e.value)}: ${e.allowed}; fix it before adding it`,
      );
    }
  }
  for (const cls of classes) {
    const p = cls.props;
    const spec = {
      ...p,
      role: p.role ?? (p.instanceProfile === undefined ? PLACEHOLDER : undefined),
      amiSelectorTerms:
        p.amiSelectorTerms === undefined || p.amiSelectorTerms.length === 0
          ? [{ id: "ami-placeholder" }]
          : p.amiSelectorTerms,
      amiFamily: p.amiFamily ?? (p.amiSelectorTerms === undefined ? "Custom" : undefined),
      subnetSelectorTerms: p.subnetSelectorTerms ?? [{ tags: { placeholder: PLACEHOLDER } }],
      securityGroupSelectorTerms: p.securityGroupSelectorTerms ?? [{ tags: { placeholder: PLACEHOLDER } }],
    };
    check(
      cls,
      version,
      "EC2NodeClass",
      (path) => v1Path(path, { name: "metadata.name" }),
      (c) => checkEc2NodeClass(c, version, spec, p.name),
      (c) => checkEc2NodeClassSemantics(c, p.name, spec, {}),
    );
  }
}

/** Object prop → its path in the manifest, for NodeOverlay and CapacityBuffer (spec fields go under `spec.`). */
const OBJECT_PATHS: { readonly [prop: string]: string } = lookupTable({
  name: "metadata.name",
  namespace: "metadata.namespace",
});

/**
 * Adds a note to every NodeOverlay and CapacityBuffer the targeted Karpenter version's rules reject (those the
 * constructs enforce: the CRD's fields, types, bounds, patterns and CEL rules, then the rules beyond it), and an
 * `action` note for each warning the construct gives at synth. An object whose target release lacks the CRD has
 * its `invalid` note already and is not checked further.
 */
export function validateObjectDrafts(objects: readonly ObjectDraft[], version: KarpenterVersion): void {
  for (const o of objects) {
    const crd = o.crd;
    if (!crd) continue;
    const path = (field: string) => v1Path(field, OBJECT_PATHS);
    const name = o.props.name;
    if (o.kind === "nodeOverlay") {
      const p = o.props as unknown as NodeOverlayOptions;
      check(
        o,
        version,
        "NodeOverlay",
        path,
        (c) => checkNodeOverlay(c, crd, p, name),
        // the cluster's region is not known here: those rules wait for the construct
        (c) => checkNodeOverlaySemantics(c, p, {}),
      );
      const w = new Checker("NODEOVERLAY", `NodeOverlay ${name}`, version, { collect: true });
      for (const warning of requirementValueWarnings(w, `NodeOverlay ${name}`, p.requirements, {}))
        o.ctx.note("action", "spec.requirements", `the NodeOverlay construct warns at synth: ${warning}`);
      if (p.price === undefined && p.priceAdjustment === undefined && p.capacity === undefined)
        o.ctx.note(
          "action",
          "spec",
          `the NodeOverlay construct warns at synth: NodeOverlay ${name} sets none of price, priceAdjustment and capacity, so it changes nothing for the instance types it matches`,
        );
      continue;
    }
    const p = o.props as unknown as CapacityBufferOptions;
    const namespace = o.props.namespace ?? "default";
    check(
      o,
      version,
      "CapacityBuffer",
      path,
      (c) => checkCapacityBuffer(c, crd, p, name, namespace),
      (c) => checkCapacityBufferSemantics(c, p),
    );
    const w = new Checker("CAPACITYBUFFER", `CapacityBuffer ${name}`, version, { collect: true });
    for (const warning of capacityBufferWarnings(w, name, p)) {
      // each warning starts with the field it is about: `CapacityBuffer <name>: percentage …`, `… limits["cpus"] …`
      const about = /^[a-zA-Z]+/.exec(warning.slice(`CapacityBuffer ${name}: `.length))?.[0];
      const field = about !== undefined && about in p ? `spec.${about}` : "spec";
      o.ctx.note("action", field, `the CapacityBuffer construct warns at synth: ${warning}`);
    }
  }
}

/** The construct and the error-code subject of each kind the converter checks. */
const CHECKED: { readonly [kind: string]: readonly [construct: string, subject: CheckerSubject] } = lookupTable({
  NodePool: ["NodePool", "NODEPOOL"],
  EC2NodeClass: ["Ec2NodeClass", "EC2NODECLASS"],
  NodeOverlay: ["NodeOverlay", "NODEOVERLAY"],
  CapacityBuffer: ["CapacityBuffer", "CAPACITYBUFFER"],
});

/**
 * Runs the rules with a collecting checker and adds one note per problem found: the CRD's rules (the API
 * server refuses the object) first, then, on fields they passed, the rules beyond the CRD (the server takes
 * the object, and Karpenter, EC2 or the kubelet fails on it), each note saying which.
 */
function check(
  draft: PoolDraft | ClassDraft | ObjectDraft,
  version: KarpenterVersion,
  kind: string,
  path: (field: string) => string,
  crd: (c: Checker) => void,
  semantic: (c: Checker) => void,
): void {
  const [construct, subject] = CHECKED[kind];
  const c = new Checker(subject, `${kind} ${draft.props.name}`, version, { collect: true });
  c.guard(() => crd(c));
  const s = new Checker(subject, `${kind} ${draft.props.name}`, version, { collect: true });
  s.guard(() => semantic(s));
  const crdFields = new Set(c.collected.map((e) => e.field));
  const notes = [
    // the first pass holds the CRD's rules and some of EC2's (EBS limits): it cannot say which refuses
    ...c.collected.map((e) => ({
      e,
      who: `the ${construct} construct rejects it: the API server refuses it, or Karpenter or EC2 fails on it`,
    })),
    ...s.collected
      .filter((e) => !crdFields.has(e.field))
      .map((e) => ({
        e,
        who: `the ${construct} construct rejects it; the API server accepts it, and Karpenter, EC2 or the kubelet then fails on it`,
      })),
  ];
  const requirements = (draft.props as { readonly requirements?: unknown }).requirements;
  for (const { e, who } of notes) {
    if (refusedByLibrary(e, requirements))
      draft.ctx.invalid(
        path(e.field),
        `the converted ${kind} is refused by this library (Karpenter ${version.full} accepts it, and the requirement excludes nothing there; the ${construct} construct refuses it deliberately): ${path(e.field)} = ${noteValue(e.value)}: ${e.allowed}`,
        true,
      );
    else
      draft.ctx.invalid(
        path(e.field),
        `the converted ${kind} is invalid in Karpenter ${version.full} (${who}): ${path(e.field)} = ${noteValue(e.value)}: ${e.allowed}`,
      );
  }
}

/**
 * Whether a refusal is this library's policy rather than Karpenter's: a value of a `NotIn` requirement that no
 * instance carries, when none of its values is one (`karpenter.sh/capacity-type NotIn [ondemand]`). Karpenter takes
 * the NodePool (kubernetes-sigs/karpenter v1.15.0 pkg/apis/v1/nodeclaim_validation.go:167-171 validates the values
 * of `In` only) and the requirement excludes nothing; the constructs refuse it because the value meant is not
 * excluded (NODEPOOL_CAPACITY_TYPE in node-pool-rules.ts, NODE_REQUIREMENT_VALUE_UNKNOWN in node-semantic-rules.ts).
 */
function refusedByLibrary(e: KarpenterValidationError, requirements: unknown): boolean {
  if (e.code !== "NODEPOOL_CAPACITY_TYPE" && e.code !== "NODE_REQUIREMENT_VALUE_UNKNOWN") return false;
  const m = /^requirements\[(\d+)\]\.values\[\d+\]$/.exec(e.field);
  const r = m && Array.isArray(requirements) ? (requirements[Number(m[1])] as { operator?: unknown }) : undefined;
  return r?.operator === "NotIn";
}

/** `requirements[2].key` → `spec.template.spec.requirements[2].key`; unmapped props go under `spec.`. */
function v1Path(field: string, map: { readonly [prop: string]: string }): string {
  const m = /^([A-Za-z]+)(.*)$/.exec(field);
  if (!m) return field;
  return `${map[m[1]] ?? `spec.${m[1]}`}${m[2]}`;
}
