import { IConstruct } from "constructs";
import type { IKarpenterCluster } from "./karpenter-cluster";
import type { IKarpenterInstallation } from "./karpenter-installation";
import { appIndex, attached, register, registered } from "../core/app-index";
import { sameInstallTarget } from "./cluster-identity";
import { KarpenterValidationError } from "../core/errors";

/*
 * The installs of the app and which cluster each is on (one install per cluster), indexed once per
 * app state so that validating a fleet of N installs costs O(N), not O(N²). The facts only a
 * Karpenter's checks need (its node objects, the Pod Identity agent) are in install/install-facts.ts.
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
export function installs(scope: IConstruct): IndexedInstall[] {
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
    new KarpenterValidationError(
      "CLUSTER_SECOND_INSTALL",
      install,
      "cluster",
      cluster,
      `one Karpenter per cluster: ${others.map((o) => o.node.path).join(", ")} also installs Karpenter on cluster ${cluster}. The CRDs are cluster-scoped (a different namespace does not help), and ${clash}; keep one install`,
    ),
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
  const candidates = new Set([
    ...(index.byResource.get(install.cluster.resource) ?? []),
    ...(literal !== undefined ? (index.byLiteral.get(literal) ?? []) : []),
  ]);
  return [...candidates].filter((o) => o !== install && sameInstallTarget(o.cluster, install.cluster));
}
