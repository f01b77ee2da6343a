import { createHash } from "crypto";
import { KubeletConfiguration } from "../nodes/ec2-node-class-spec";
import { specObject } from "../nodes/manifests";
import { ClassDraft, PoolDraft } from "./drafts";
import { ObjectContext } from "./fields";
import { NODE_CLASS_GROUP, NODE_CLASS_KIND } from "./node-pool-parts";

/*
 * In v1 the kubelet configuration is a field of the EC2NodeClass, not of the NodePool (v1
 * upgrade guide, "Kubelet Configuration Migration": NodePools that share an EC2NodeClass with
 * different kubelets need one EC2NodeClass each). A pool's kubelet moves to its node class when
 * that class is in the input. Pools of one class that ask for different kubelets are grouped by
 * kubelet: the group whose kubelet the class already has (none, or the class's own) keeps the
 * class — or, when the class has none and every pool asks for one, the group of the first pool in
 * input order, as when all agree — and every other group gets a copy of the class with its kubelet
 * (a class's own kubelet is never replaced: pools outside the input may use it), so no pool runs
 * with a kubelet it did not ask for. A class outside the input cannot be copied: a note carries
 * the kubelet (with its value) and says what to do.
 */

/** A kubelet configuration as JSON with sorted keys, as the manifests carry it: equal settings give equal text. */
function stableJson(kubelet: KubeletConfiguration | null | undefined): string {
  return JSON.stringify(kubelet ? specObject(kubelet) : null);
}

/** EC2NodeClass names stay label values (≤ 63): Karpenter labels each node `karpenter.k8s.aws/ec2nodeclass: <name>`. */
const MAX_NAME = 63;

/**
 * Moves every pool's kubelet to its node class, splitting the class where its pools differ, and
 * notes what cannot be moved.
 * @returns the copies made, by the class they copy (each to be placed right after its original)
 */
export function moveKubelet(
  pools: readonly PoolDraft[],
  classes: readonly ClassDraft[],
): Map<ClassDraft, ClassDraft[]> {
  const copies = new Map<ClassDraft, ClassDraft[]>();
  const users = new Map<ClassDraft, PoolDraft[]>();
  // maps and push, not a scan or a copied list per pool: linear in the size of the input
  const byName = new Map<string, ClassDraft>();
  for (const c of classes) if (!byName.has(c.props.name)) byName.set(c.props.name, c);
  for (const pool of pools) {
    const ref = pool.nodeClassRef;
    const target =
      ref && ref.group === NODE_CLASS_GROUP && ref.kind === NODE_CLASS_KIND ? byName.get(ref.name) : undefined;
    if (target) {
      const list = users.get(target);
      if (list) list.push(pool);
      else users.set(target, [pool]);
      continue;
    }
    if (!pool.kubelet) continue;
    const { field } = pool.kubelet;
    const json = stableJson(pool.kubelet.value);
    if (!ref)
      pool.ctx.note(
        "action",
        field,
        `kubelet is an EC2NodeClass field in v1 and this NodePool names no node class: add kubelet ${json} to the EC2NodeClass it will use; not converted`,
      );
    else
      pool.ctx.note(
        "action",
        field,
        `kubelet is an EC2NodeClass field in v1 and EC2NodeClass ${ref.name} is not in this input: add kubelet ${json} to it (every NodePool using it gets that kubelet); not converted`,
      );
  }

  const taken = new Set(classes.map((c) => c.props.name));
  for (const [target, sharing] of users) {
    if (!sharing.some((p) => p.kubelet)) continue;
    const before = [...target.ctx.notes];
    const own = target.props.kubelet;
    // a pool without kubelet runs with the class's own (or none): it belongs to the class as it is
    const groups = new Map<string, PoolDraft[]>();
    for (const p of sharing) {
      const key = p.kubelet ? stableJson(p.kubelet.value) : stableJson(own);
      const group = groups.get(key);
      if (group) group.push(p);
      else groups.set(key, [p]);
    }
    let classKey = stableJson(own);
    if (!groups.has(classKey) && own !== undefined) {
      // a class's own kubelet stays: NodePools outside the input may use the class as it is
      target.ctx.note(
        "info",
        "spec.kubelet",
        `kept: every NodePool of this input that uses ${target.props.name} asks for another kubelet and got a copy of the class; NodePools outside this input keep using ${target.props.name} with this kubelet`,
      );
    } else if (!groups.has(classKey)) {
      // no pool runs with the class as it is: the first pool's kubelet goes on the class itself
      const first = sharing.find((p) => p.kubelet)!;
      classKey = stableJson(first.kubelet!.value);
      target.props.kubelet = first.kubelet!.value;
      const movedFrom = groups.get(classKey)!.map((p) => `NodePool ${p.props.name} (document ${p.source.document})`);
      target.ctx.note(
        "info",
        "spec.kubelet",
        `kubelet ${classKey} moved here from ${movedFrom.join(", ")}: a node class field in v1`,
      );
    }
    const split = groups.size > 1;
    for (const p of groups.get(classKey) ?? []) {
      if (!p.kubelet) continue;
      const others = split ? "; the NodePools of this class with other kubelet settings got copies of it" : "";
      p.ctx.note(
        "info",
        p.kubelet.field,
        `kubelet moved to EC2NodeClass ${target.props.name} (a node class field in v1)${others}; NodePools outside this input that use ${target.props.name} get it too`,
      );
    }
    for (const [key, group] of groups) {
      if (key === classKey) continue;
      const name = copyName(target.props.name, group[0].props.name, taken);
      taken.add(name);
      const ctx = new ObjectContext(target.ctx.doc);
      ctx.notes.push(...before);
      const value = group[0].kubelet!.value;
      const copy: ClassDraft = {
        ctx,
        source: target.source,
        props: { ...structuredClone(target.props), name, kubelet: value },
      };
      const poolNames = group.map((p) => `NodePool ${p.props.name} (document ${p.source.document})`).join(", ");
      ctx.note(
        "info",
        "spec.kubelet",
        `a copy of EC2NodeClass ${target.props.name} with kubelet ${key} for ${poolNames}: in v1 kubelet is an EC2NodeClass field, and ${target.props.name} is used with other kubelet settings (${describe(groups, key, own)}), so each kubelet configuration gets its own class`,
      );
      copies.set(target, [...(copies.get(target) ?? []), copy]);
      for (const p of group) {
        p.nodeClassRef = { ...p.nodeClassRef!, name };
        p.ctx.note(
          "info",
          p.kubelet!.field,
          `kubelet moved to EC2NodeClass ${name}, a copy of ${target.props.name} with this kubelet (a node class field in v1; the other NodePools of ${target.props.name} ask for other kubelet settings): nodeClassRef names ${name}. Applied over an existing v1 NodePool, the new nodeClassRef drifts its nodes (they are replaced)`,
        );
      }
    }
  }
  return copies;
}

/** The other kubelet settings a class is used with, for the copy's note. */
function describe(groups: Map<string, PoolDraft[]>, except: string, own: KubeletConfiguration | undefined): string {
  const others = [...groups]
    .filter(([key]) => key !== except)
    .map(
      ([key, ps]) =>
        `${ps.map((p) => `NodePool ${p.props.name}`).join(", ")}: ${ps.some((p) => p.kubelet) ? `kubelet ${key}` : own ? `the class's own kubelet ${key}` : "no kubelet"}`,
    );
  // a class whose own kubelet no pool of the input shares keeps it too
  if (own !== undefined && !groups.has(stableJson(own))) others.push(`the class itself: kubelet ${stableJson(own)}`);
  return others.join("; ");
}

/**
 * `<class>-<first pool of the group>`, deterministic for the same input. A name longer than a
 * label value is cut and ends in a hash of the full name; a name already in use gets `-2`, `-3`….
 */
function copyName(className: string, poolName: string, taken: ReadonlySet<string>): string {
  let base = `${className}-${poolName}`;
  if (base.length > MAX_NAME) {
    const hash = createHash("sha256").update(base).digest("hex").slice(0, 8);
    base = `${base.slice(0, MAX_NAME - 9).replace(/[-.]+$/, "")}-${hash}`;
  }
  let name = base;
  for (let n = 2; taken.has(name); n++) {
    const suffix = `-${n}`;
    name = `${base.slice(0, MAX_NAME - suffix.length).replace(/[-.]+$/, "")}${suffix}`;
  }
  return name;
}
