import { IConstruct } from "constructs";
import { TerraformStack, Token } from "cdktf";
import type { EksAddon } from "@cdktf/provider-aws/lib/eks-addon";
import type { IKarpenterCluster } from "./karpenter-cluster";
import type { IKarpenterInstallation } from "./karpenter-installation";
import type { Ec2NodeClass } from "../nodes/ec2-node-class";
import type { NodePool } from "../nodes/node-pool";
import { appIndex, attached, register, registered, stackIndex, stacksOf } from "../core/app-index";
import { sameInstallTarget } from "./cluster-identity";
import { registeredNodeObjects } from "../nodes/manifests";
import { resolvedReference } from "../core/tokens";
import { KarpenterValidationError } from "../core/errors";

/*
 * The app-wide facts the checks of each Karpenter install need (other installs on its cluster, the
 * Pod Identity agent add-on, its node objects), indexed once per app state so that validating a
 * fleet of N installs costs O(N), not O(N²).
 */

const INSTALLS = "karpenter-installs";

/**
 * An install, as the index sees it: a `Karpenter`, or a `KarpenterRelease` used on its own (the
 * controller is what makes an install: two controllers on one cluster act on the same objects).
 */
export interface IndexedInstall extends IConstruct {
  readonly cluster: IKarpenterCluster;
  /** The controller release: node objects ordered after it belong to the install. */
  readonly release: IKarpenterInstallation["release"];
}

/** Records an install of the app (one created inside another install, such as Karpenter's own KarpenterRelease, is part of that one). */
export function registerInstall(install: IndexedInstall): void {
  register(install, INSTALLS, install);
}

/** The installs of the app still in the tree, in creation order; one inside another install counts as part of it. */
function installs(scope: IConstruct): IndexedInstall[] {
  return appIndex(scope, INSTALLS, () => {
    const all = registered<IndexedInstall>(scope, INSTALLS).filter(attached);
    const set = new Set<IConstruct>(all);
    return all.filter((i) => !i.node.scopes.slice(0, -1).some((s) => set.has(s)));
  });
}

/**
 * The install a construct is or is part of: the outermost registered install among it and its
 * ancestors (a Karpenter for its own releases, a KarpenterRelease used alone for itself); undefined
 * for a construct outside every install (e.g. a KarpenterCrdRelease used alone).
 */
export function installOf(c: IConstruct): IConstruct | undefined {
  const set = new Set<IConstruct>(registered<IndexedInstall>(c, INSTALLS));
  return c.node.scopes.find((s) => set.has(s) && attached(s));
}

/** The construct a building block's synth problems are reported on: its install (a Karpenter, whose props set it), else the block itself. */
export function reportedOn(block: IConstruct): IConstruct {
  return installOf(block) ?? block;
}

/** Whether `install` is an install of its own (not a part of another registered install), for the checks it adds. */
export function isOwnInstall(install: IndexedInstall): boolean {
  return installs(install).includes(install);
}

/**
 * One install per cluster: the problem of `install` when another install of the app is on its
 * cluster (see {@link otherInstallsOnCluster}), naming the others.
 */
export function onePerClusterProblems(install: IndexedInstall): KarpenterValidationError[] {
  const others = otherInstallsOnCluster(install);
  if (others.length === 0) return [];
  const cluster = install.cluster.clusterNameLiteral ?? install.cluster.resource.node.path;
  // a Karpenter derives IAM, queue and rule names from the cluster; a KarpenterRelease alone only the Helm release
  const fullInstalls = [install, ...others].every((i) => "nodeRoleName" in i);
  const clash = fullInstalls
    ? "the IAM role, policy, queue, rule and Helm release names would collide at apply"
    : "two controllers would act on the same NodePools and NodeClaims";
  return [
    new KarpenterValidationError(install, "cluster", cluster, `one Karpenter per cluster: ${others.map((o) => o.node.path).join(", ")} also installs Karpenter on cluster ${cluster}. The CRDs are cluster-scoped (a different namespace does not help), and ${clash}; keep one install`),
  ];
}

/** Every other install of the app on the same cluster as `install` (see `sameInstallTarget`). */
export function otherInstallsOnCluster(install: IndexedInstall): IndexedInstall[] {
  const index = appIndex(install, "installs-by-cluster", () => {
    const byResource = new Map<IConstruct, IndexedInstall[]>();
    const byLiteral = new Map<string, IndexedInstall[]>();
    for (const i of installs(install)) {
      byResource.set(i.cluster.resource, [...(byResource.get(i.cluster.resource) ?? []), i]);
      const literal = i.cluster.clusterNameLiteral;
      if (literal !== undefined) byLiteral.set(literal, [...(byLiteral.get(literal) ?? []), i]);
    }
    return { byResource, byLiteral };
  });
  const literal = install.cluster.clusterNameLiteral;
  const candidates = new Set([...(index.byResource.get(install.cluster.resource) ?? []), ...(literal !== undefined ? index.byLiteral.get(literal) ?? [] : [])]);
  return [...candidates].filter((o) => o !== install && sameInstallTarget(o.cluster, install.cluster));
}

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
        else references.set(stack, (references.get(stack) ?? new Set()).add(clusterTarget(resolvedReference(stack, name))));
      }
    }
    return { literals, references };
  });
  const literal = cluster.clusterNameLiteral ?? (Token.isUnresolved(cluster.clusterName) ? undefined : cluster.clusterName);
  if (literal !== undefined && index.literals.has(literal)) return true;
  const stack = TerraformStack.of(cluster.resource);
  const refs = index.references.get(stack);
  return !!refs && Token.isUnresolved(cluster.clusterName) && refs.has(clusterTarget(resolvedReference(stack, cluster.clusterName)));
}

type NodeObject = Ec2NodeClass | NodePool;

/**
 * The EC2NodeClasses and NodePools of `install`, anywhere in the app, in creation order: a class
 * whose `karpenter` is the install or that waits for its release (depends_on within one stack); a
 * pool whose `karpenter` is the install, that waits for its release or for one of those classes, or
 * that names one of those classes from a stack depending on the class's stack.
 */
export function nodeObjectsOf(install: IndexedInstall): NodeObject[] {
  const index = appIndex(install, "node-objects-by-install", () => {
    const all = installs(install);
    const objects = registeredNodeObjects(install).filter(attached) as NodeObject[];
    const isClass = (o: NodeObject): o is Ec2NodeClass => !("nodeClassRef" in o);
    // depends_on holds bare addresses, and every read of `fqn` is a fresh token: compare resolved addresses per stack
    const address = (stack: TerraformStack, fqn: string) => `${stack.node.path}\u0000${resolvedReference(stack, fqn).replace(/^\$\{(.*)\}$/, "$1")}`;
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
      waits.set(o, (o.manifest.dependsOn ?? []).map((d) => address(stack, d)));
    }
    const classByManifest = new Map<string, Ec2NodeClass>();
    for (const o of objects) {
      if (!isClass(o)) continue;
      if (all.includes(o.karpenter as IndexedInstall)) own(o, o.karpenter as IndexedInstall);
      for (const w of waits.get(o)!) own(o, releases.get(w));
      classByManifest.set(address(TerraformStack.of(o), o.manifest.fqn), o);
    }
    const classesByName = new Map<string, Ec2NodeClass[]>();
    for (const [, k] of classByManifest) classesByName.set(k.name, [...(classesByName.get(k.name) ?? []), k]);
    for (const o of objects) {
      if (isClass(o)) continue;
      if (all.includes(o.karpenter as IndexedInstall)) own(o, o.karpenter as IndexedInstall);
      for (const w of waits.get(o)!) {
        own(o, releases.get(w));
        const k = classByManifest.get(w);
        for (const i of (k && owners.get(k)) ?? []) own(o, i);
      }
      const deps = TerraformStack.of(o).dependencies;
      for (const k of classesByName.get(o.nodeClassRef.name) ?? []) if (deps.includes(TerraformStack.of(k))) for (const i of owners.get(k) ?? []) own(o, i);
    }
    // reported in tree order, as a walk of the app would find them
    const order = new Map<IConstruct, number>();
    if (owners.size > 0) install.node.root.node.findAll().forEach((c, i) => order.set(c, i));
    const byInstall = new Map<IndexedInstall, NodeObject[]>();
    for (const o of [...objects].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))) for (const i of owners.get(o) ?? []) byInstall.set(i, [...(byInstall.get(i) ?? []), o]);
    return byInstall;
  });
  return index.get(install) ?? [];
}
