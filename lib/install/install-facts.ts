import { IConstruct } from "constructs";
import { TerraformStack, Token } from "cdktf";
import type { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import type { IKarpenterCluster } from "../cluster/karpenter-cluster";
import { IndexedInstall, installs } from "../cluster/install-index";
import type { Ec2NodeClass } from "../nodes/ec2-node-class";
import type { NodePool } from "../nodes/node-pool";
import type { NodeOverlay } from "../nodes/node-overlay";
import type { CapacityBuffer } from "../nodes/capacity-buffer";
import { registeredNodeObjects } from "../nodes/manifests";
import { appIndex, attached, stackIndex, stacksOf } from "../core/app-index";
import { resolvedReference } from "../core/tokens";

/*
 * The app-wide facts a Karpenter's checks need beyond the install index (its node objects, the Pod
 * Identity agent add-on of its cluster), indexed once per app state like it.
 */

/** `.name` and `.id` of aws_eks_cluster are both the cluster name: the resource they belong to. */
function clusterTarget(s: string): string {
  const m = /^\$\{((?:data\.)?aws_eks_cluster\.[^.}]+)\.(?:name|id)\}$/.exec(s);
  return m ? m[1] : s;
}

/**
 * Whether some `aws_eks_addon` of the app installs eks-pod-identity-agent on `cluster`: the same
 * literal name, or (in the cluster's stack) a reference to the same cluster.
 */
export function hasPodIdentityAgent(scope: IConstruct, cluster: IKarpenterCluster): boolean {
  const index = appIndex(scope, "pod-identity-agents", () => {
    const literals = new Set<string>();
    const references = new Map<TerraformStack, Set<string>>();
    for (const stack of stacksOf(scope)) {
      for (const c of stackIndex(stack).byType.get("aws_eks_addon") ?? []) {
        const addon = c as EksAddon;
        if (addon.addonNameInput !== "eks-pod-identity-agent") continue;
        const name = addon.clusterNameInput;
        if (name === undefined) continue;
        if (!Token.isUnresolved(name)) literals.add(name);
        else
          references.set(
            stack,
            (references.get(stack) ?? new Set()).add(clusterTarget(resolvedReference(stack, name))),
          );
      }
    }
    return { literals, references };
  });
  const literal =
    cluster.clusterNameLiteral ?? (Token.isUnresolved(cluster.clusterName) ? undefined : cluster.clusterName);
  if (literal !== undefined && index.literals.has(literal)) return true;
  const stack = TerraformStack.of(cluster.resource);
  const refs = index.references.get(stack);
  return (
    !!refs &&
    Token.isUnresolved(cluster.clusterName) &&
    refs.has(clusterTarget(resolvedReference(stack, cluster.clusterName)))
  );
}

type NodeObject = Ec2NodeClass | NodePool | NodeOverlay | CapacityBuffer;

/**
 * The EC2NodeClasses, NodePools, NodeOverlays and CapacityBuffers of `install`, anywhere in the app, in creation
 * order: a class, overlay or buffer whose `karpenter` is the install or that waits for its release (depends_on within one stack); a
 * pool whose `karpenter` is the install, that waits for its release or for one of those classes, or
 * that names one of those classes from a stack depending on the class's stack.
 */
export function nodeObjectsOf(install: IndexedInstall): NodeObject[] {
  const index = appIndex(install, "node-objects-by-install", () => {
    const all = installs(install);
    const objects = registeredNodeObjects(install).filter(attached) as NodeObject[];
    const isPool = (o: NodeObject): o is NodePool => "nodeClassRef" in o;
    const isClass = (o: NodeObject): o is Ec2NodeClass => (o.constructor as { KIND?: string }).KIND === "EC2NodeClass";
    // depends_on holds bare addresses, and every read of `fqn` is a fresh token: compare resolved addresses per stack
    const address = (stack: TerraformStack, fqn: string) =>
      `${stack.node.path}\u0000${resolvedReference(stack, fqn).replace(/^\$\{(.*)\}$/, "$1")}`;
    const releases = new Map<string, IndexedInstall>();
    for (const i of all) releases.set(address(TerraformStack.of(i.release), i.release.fqn), i);
    const owners = new Map<NodeObject, Set<IndexedInstall>>();
    const own = (o: NodeObject, i: IndexedInstall | undefined) => {
      if (!i) return;
      owners.set(o, (owners.get(o) ?? new Set()).add(i));
    };
    const waits = new Map<NodeObject, string[]>();
    for (const o of objects) {
      const stack = TerraformStack.of(o);
      waits.set(
        o,
        (o.manifest.dependsOn ?? []).map((d) => address(stack, d)),
      );
    }
    const classByManifest = new Map<string, Ec2NodeClass>();
    // classes (and the objects that name no node class: NodeOverlays, CapacityBuffers) belong to the install they name or wait for
    for (const o of objects) {
      if (isPool(o)) continue;
      if (all.includes(o.karpenter as IndexedInstall)) own(o, o.karpenter as IndexedInstall);
      for (const w of waits.get(o)!) own(o, releases.get(w));
      if (isClass(o)) classByManifest.set(address(TerraformStack.of(o), o.manifest.fqn), o);
    }
    const classesByName = new Map<string, Ec2NodeClass[]>();
    for (const [, k] of classByManifest) classesByName.set(k.name, [...(classesByName.get(k.name) ?? []), k]);
    for (const o of objects) {
      if (!isPool(o)) continue;
      if (all.includes(o.karpenter as IndexedInstall)) own(o, o.karpenter as IndexedInstall);
      for (const w of waits.get(o)!) {
        own(o, releases.get(w));
        const k = classByManifest.get(w);
        for (const i of (k && owners.get(k)) ?? []) own(o, i);
      }
      const deps = TerraformStack.of(o).dependencies;
      for (const k of classesByName.get(o.nodeClassRef.name) ?? [])
        if (deps.includes(TerraformStack.of(k))) for (const i of owners.get(k) ?? []) own(o, i);
    }
    // reported in tree order, as a walk of the app would find them
    const order = new Map<IConstruct, number>();
    if (owners.size > 0) install.node.root.node.findAll().forEach((c, i) => order.set(c, i));
    const byInstall = new Map<IndexedInstall, NodeObject[]>();
    for (const o of [...objects].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)))
      for (const i of owners.get(o) ?? []) byInstall.set(i, [...(byInstall.get(i) ?? []), o]);
    return byInstall;
  });
  return index.get(install) ?? [];
}
