import { KubeletConfiguration } from "../ec2-node-class-spec";
import { specObject } from "../private/manifests";
import { ClassDraft, PoolDraft } from "./drafts";
import { NODE_CLASS_GROUP, NODE_CLASS_KIND } from "./node-pool-parts";

/*
 * In v1 the kubelet configuration is a field of the EC2NodeClass, not of the NodePool (v1
 * upgrade guide, "Kubelet Configuration Migration"). A pool's kubelet moves to its node class
 * when that class is in the same input and every pool of the input using the class asks for
 * the same kubelet; otherwise a note carries it (with its value) and says what to do.
 */

/** A kubelet configuration as JSON with sorted keys, as the manifests carry it: equal settings give equal text. */
function stableJson(kubelet: KubeletConfiguration | null): string {
  return JSON.stringify(kubelet && specObject(kubelet));
}

/** Moves every pool's kubelet to its node class where that is exact, and notes the rest. */
export function moveKubelet(pools: readonly PoolDraft[], classes: readonly ClassDraft[]): void {
  for (const pool of pools) {
    if (!pool.kubelet) continue;
    const { value, field } = pool.kubelet;
    const json = stableJson(value);
    const ref = pool.nodeClassRef;
    if (!ref) {
      pool.ctx.note("action", field, `kubelet is an EC2NodeClass field in v1 and this NodePool names no node class: add kubelet ${json} to the EC2NodeClass it will use; not converted`);
      continue;
    }
    const target = ref.group === NODE_CLASS_GROUP && ref.kind === NODE_CLASS_KIND ? classes.find((c) => c.props.name === ref.name) : undefined;
    if (!target) {
      pool.ctx.note("action", field, `kubelet is an EC2NodeClass field in v1 and EC2NodeClass ${ref.name} is not in this input: add kubelet ${json} to it (every NodePool using it gets that kubelet); not converted`);
      continue;
    }
    const sharing = pools.filter((p) => p.nodeClassRef?.name === ref.name && p.nodeClassRef.group === ref.group && p.nodeClassRef.kind === ref.kind);
    const differing = sharing.filter((p) => stableJson(p.kubelet?.value ?? null) !== json);
    const own = target.props.kubelet;
    if (differing.length > 0 || (own !== undefined && !sameKubelet(own, value))) {
      const others = differing.map((p) => `NodePool ${p.props.name} (${p.kubelet ? stableJson(p.kubelet.value) : "no kubelet"})`);
      if (own !== undefined && !sameKubelet(own, value)) others.push(`the EC2NodeClass itself (${stableJson(own)})`);
      pool.ctx.note(
        "action",
        field,
        `kubelet is an EC2NodeClass field in v1, and EC2NodeClass ${ref.name} is also used with other kubelet settings: ${others.join(", ")}. Give each kubelet configuration its own EC2NodeClass (a copy of ${ref.name} with kubelet ${json}) and point this NodePool at it; not converted`,
      );
      continue;
    }
    if (own === undefined) {
      target.props.kubelet = value;
      target.ctx.note("info", "spec.kubelet", `kubelet ${json} moved here from NodePool ${pool.props.name} (document ${pool.source.document}${sharing.length > 1 ? ` and the other NodePools using this class, which ask for the same` : ""}): a node class field in v1`);
    }
    pool.ctx.note("info", field, `kubelet moved to EC2NodeClass ${ref.name} (a node class field in v1); NodePools outside this input that use ${ref.name} get it too`);
  }
}

function sameKubelet(a: KubeletConfiguration, b: KubeletConfiguration): boolean {
  return stableJson(a) === stableJson(b);
}
