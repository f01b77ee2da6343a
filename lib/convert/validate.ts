import { checkEc2NodeClass } from "../nodes/ec2-node-class-rules";
import { Checker } from "../kubernetes/value-rules";
import { checkNodePool, limitsWarnings } from "../nodes/node-pool-rules";
import { checkEc2NodeClassSemantics, checkNodePoolSemantics } from "../nodes/node-semantic-rules";
import { KarpenterVersion } from "../versions/karpenter-version";
import { ClassDraft, PoolDraft } from "./drafts";
import { noteValue } from "./fields";

/*
 * Runs the converted objects through the rules the NodePool / Ec2NodeClass constructs enforce,
 * so a result those constructs (or the API server) would reject carries a note — the CLI prints
 * YAML without going through the constructs. Fields that are missing already have a note of
 * their own (node class, role, selector terms); they get placeholders here so that the check
 * goes on to the other fields. Every problem is noted, not only the first: the checker collects
 * one per field, list item and map entry.
 */

const PLACEHOLDER = "converter-placeholder";

/** NodePool prop → its path in the v1 object. */
const POOL_PATHS: { readonly [prop: string]: string } = {
  name: "metadata.name",
  labels: "spec.template.metadata.labels",
  annotations: "spec.template.metadata.annotations",
  requirements: "spec.template.spec.requirements",
  taints: "spec.template.spec.taints",
  startupTaints: "spec.template.spec.startupTaints",
  expireAfter: "spec.template.spec.expireAfter",
  terminationGracePeriod: "spec.template.spec.terminationGracePeriod",
  nodeClassRef: "spec.template.spec.nodeClassRef",
};

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

/**
 * Runs the rules with a collecting checker and adds one note per problem found: the CRD's rules (the API
 * server refuses the object) first, then, on fields they passed, the rules beyond the CRD (the server takes
 * the object, and Karpenter, EC2 or the kubelet fails on it), each note saying which.
 */
function check(
  draft: PoolDraft | ClassDraft,
  version: KarpenterVersion,
  kind: string,
  path: (field: string) => string,
  crd: (c: Checker) => void,
  semantic: (c: Checker) => void,
): void {
  const construct = kind === "NodePool" ? "NodePool" : "Ec2NodeClass";
  const subject = kind === "NodePool" ? "NODEPOOL" : "EC2NODECLASS";
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
  for (const { e, who } of notes) {
    draft.ctx.invalid(
      path(e.field),
      `the converted ${kind} is invalid in Karpenter ${version.full} (${who}): ${path(e.field)} = ${noteValue(e.value)}: ${e.allowed}`,
    );
  }
}

/** `requirements[2].key` → `spec.template.spec.requirements[2].key`; unmapped props go under `spec.`. */
function v1Path(field: string, map: { readonly [prop: string]: string }): string {
  const m = /^([A-Za-z]+)(.*)$/.exec(field);
  if (!m) return field;
  return `${map[m[1]] ?? `spec.${m[1]}`}${m[2]}`;
}
