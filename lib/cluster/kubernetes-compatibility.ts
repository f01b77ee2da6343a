import * as semver from "../versions/semver";
import { Annotations } from "cdktf";
import { IConstruct } from "constructs";
import { KarpenterValidationError } from "../core/errors";
import { IKarpenterCluster } from "./karpenter-cluster";
import { kubernetesRange, newestPatchOf } from "../versions";
import { KUBERNETES_EARLY_PATCHES, OUTSIDE_KUBERNETES_RANGE } from "../versions/patch-history";
import { isUnresolved } from "../core/tokens";
import {
  DEFAULT_KARPENTER_VERSION,
  isNewerThanKnownPatch,
  KarpenterVersion,
  KNOWN_RELEASES,
  newestKnownPatch,
  resolveKarpenterVersion,
} from "../versions/karpenter-version";
import { eksClusterOf } from "./cluster-resource";

/** The Kubernetes minors one range of Karpenter releases runs on. */
interface KubernetesSupport {
  /** The first Karpenter release of the range, e.g. `"1.6.6"`; the range ends where the next entry starts. */
  readonly since: string;
  /** The oldest Kubernetes minor the controller accepts, e.g. `26` for 1.26. */
  readonly minMinor: number;
  /** The newest Kubernetes minor the controller accepts, e.g. `34` for 1.34. */
  readonly maxMinor: number;
}

/**
 * Which Kubernetes versions each Karpenter release runs on: outside the range Karpenter is unsupported
 * (OUTSIDE_KUBERNETES_RANGE: nothing stops the controller, which at most logs an error).
 *
 * Source: the Karpenter "Compatibility" page (karpenter.sh docs, upgrading/compatibility.md, its
 * generated matrix `hack/docs/compatibilitymatrix_gen/compatibility.yaml`), given to
 * `npm run add-version --kubernetes` per minor (lib/versions/data/index.ts), and for the exact patch
 * where a range moved the constants `MinK8sVersion` / `MaxK8sVersion` of
 * `pkg/providers/version/version.go` at the release tags (lib/versions/patch-history.ts: 1.34
 * support arrived in 1.6.6 and, on the 1.7 line, only in 1.7.4; 1.31 support in 1.0.5). Built on
 * first use, consecutive equal ranges merged.
 */
let supportTable: readonly KubernetesSupport[] | undefined;
function kubernetesSupportTable(): readonly KubernetesSupport[] {
  if (supportTable) return supportTable;
  const minorOf = (k: string) => Number(k.split(".")[1]);
  const entries: KubernetesSupport[] = [];
  const push = (since: string, r: { min: string; max: string }) => {
    const last = entries[entries.length - 1];
    if (last && last.minMinor === minorOf(r.min) && last.maxMinor === minorOf(r.max)) return;
    entries.push({ since, minMinor: minorOf(r.min), maxMinor: minorOf(r.max) });
  };
  for (const release of KNOWN_RELEASES) {
    const minor = release.split(".").slice(0, 2).join(".");
    const early = KUBERNETES_EARLY_PATCHES.find((e) => e.minor === minor);
    if (early) push(`${minor}.0`, early);
    push(early ? early.until : `${minor}.0`, kubernetesRange(release));
  }
  supportTable = entries;
  return entries;
}

/** The newest Kubernetes minor the table knows anything about. */
const newestKnownKubernetesMinor = () => Math.max(...kubernetesSupportTable().map((s) => s.maxMinor));

/** The Kubernetes range of a Karpenter version (a patch newer than the table's keeps its minor's range). */
function kubernetesSupport(version: string): KubernetesSupport {
  const table = kubernetesSupportTable();
  let found = table[0];
  for (const s of table) if (semver.gte(version, s.since)) found = s;
  return found;
}

/** The Kubernetes minors a Karpenter release runs on (both ends included). */
export interface KubernetesVersionRange {
  /** The oldest Kubernetes minor, e.g. `"1.26"`. */
  readonly oldest: string;
  /** The newest Kubernetes minor, e.g. `"1.34"`. */
  readonly newest: string;
}

/**
 * The Kubernetes versions a Karpenter release runs on, e.g. `{ oldest: "1.26", newest: "1.34" }` for
 * 1.6.8 (Karpenter compatibility matrix and the controller's own version check, see kubernetesSupportTable()).
 * @param karpenterVersion a Karpenter release such as `"1.6.8"`
 * @throws KarpenterValidationError for a version this library does not support
 */
export function supportedKubernetesVersions(karpenterVersion: string): KubernetesVersionRange {
  const s = kubernetesSupport(
    resolveKarpenterVersion("supportedKubernetesVersions", karpenterVersion, "karpenterVersion").full,
  );
  return { oldest: `1.${s.minMinor}`, newest: `1.${s.maxMinor}` };
}

/** The Kubernetes minor of a literal `"1.34"` (or `"1.34.2"`), else undefined. */
export function kubernetesMinor(version: string | undefined): number | undefined {
  if (version === undefined || isUnresolved(version)) return undefined;
  const m = /^v?1\.(\d+)(?:\.\d+)?$/.exec(String(version).trim());
  return m ? Number(m[1]) : undefined;
}

/**
 * The `version` of an `aws_eks_cluster` of the app, when literal, has the shape EKS takes: a Kubernetes
 * minor, `"1.34"`. EKS CreateCluster / UpdateClusterVersion refuse a `v` prefix or a patch (EKS picks the
 * patch), and the AWS provider passes the string on unchecked, so the mistake would surface only at apply.
 * @throws KarpenterValidationError on `cluster`, naming the EksCluster and the minor to write
 */
function checkEksVersionShape(scope: IConstruct, cluster: IKarpenterCluster): void {
  const eks = eksClusterOf(cluster);
  const given = eks?.versionInput;
  if (eks === undefined || given === undefined || isUnresolved(given) || /^1\.\d+$/.test(given)) return;
  const minor = kubernetesMinor(given);
  throw new KarpenterValidationError(
    "CLUSTER_KUBERNETES_VERSION",
    scope,
    "cluster",
    given,
    `the version of ${eks.node.path} (aws_eks_cluster.version) as EKS takes it, a Kubernetes minor such as "1.34"${minor !== undefined ? `: write "1.${minor}" (no "v" and no patch; EKS picks the patch)` : ""}; EKS refuses any other shape at apply (InvalidParameterException)`,
  );
}

/**
 * The cluster's Kubernetes version when it is known at synth: `kubernetesVersion` when it is a
 * literal, else the `version` argument of an `aws_eks_cluster` of the app. Undefined for a token, a
 * data source, or a cluster without `version` (EKS then picks its default).
 */
export function literalKubernetesVersion(cluster: IKarpenterCluster): string | undefined {
  if (typeof cluster.kubernetesVersion === "string" && !isUnresolved(cluster.kubernetesVersion))
    return cluster.kubernetesVersion;
  const input = eksClusterOf(cluster)?.versionInput;
  return input !== undefined && !isUnresolved(input) ? input : undefined;
}

/** Which Karpenter releases support Kubernetes 1.<minor>, e.g. "1.6.6–1.6.8 or 1.7.4 and later"; undefined when none. */
function releasesSupporting(minor: number): string | undefined {
  const ok = (x: KubernetesSupport | undefined) => x !== undefined && x.minMinor <= minor && minor <= x.maxMinor;
  const runs: string[] = [];
  const table = kubernetesSupportTable();
  for (let i = 0; i < table.length; i++) {
    if (!ok(table[i]) || ok(table[i - 1])) continue;
    const since = table[i].since;
    let end = i;
    while (ok(table[end + 1])) end++;
    const next = table[end + 1];
    if (!next) {
      runs.push(`${since} and later`);
      continue;
    }
    // a closed run ends at the newest release known before `next` ("1.6.6–1.6.8"): naming `next`
    // itself would offer a release that does not support this minor
    const last = [...KNOWN_RELEASES]
      .map((r) => newestPatchOf(r.split(".").slice(0, 2).join(".")) ?? r)
      .reverse()
      .find((r) => semver.lt(r, next.since));
    runs.push(last && semver.gt(last, since) ? `${since}–${last}` : since);
  }
  return runs.length ? runs.join(" or ") : undefined;
}

/**
 * An `aws_eks_cluster` without `version` gets the default Kubernetes version of EKS at create time
 * (EKS CreateCluster API: "If you don't specify a value here, the default version available in Amazon
 * EKS is used"), which moves with EKS releases. A Karpenter release that stops short of the newest
 * Kubernetes minor the default release supports may then refuse the cluster: warn, naming what it supports.
 */
function warnDefaultVersion(
  scope: IConstruct,
  version: KarpenterVersion,
  support: KubernetesSupport,
  cluster: IKarpenterCluster,
): void {
  const eks = eksClusterOf(cluster);
  if (!eks || eks.versionInput !== undefined) return;
  // EKS's default version is not the newest Kubernetes any Karpenter supports: the default release's
  // newest stands for it, so the default install on a versionless cluster does not warn
  const reference = kubernetesSupport(DEFAULT_KARPENTER_VERSION).maxMinor;
  if (support.maxMinor >= reference) return;
  const where = cluster.clusterNameLiteral
    ? `cluster ${cluster.clusterNameLiteral}`
    : `the cluster (${cluster.resource.node.path})`;
  Annotations.of(scope).addWarning(
    `${where} sets no Kubernetes version, so EKS creates it with its current default version, which may be newer than 1.${support.maxMinor}, the newest Karpenter ${version.full} supports (Kubernetes 1.${support.minMinor} to 1.${support.maxMinor}; the default Karpenter ${DEFAULT_KARPENTER_VERSION} supports up to 1.${reference}): that would be ${OUTSIDE_KUBERNETES_RANGE}. Set the EksCluster's version (e.g. "1.${support.maxMinor}"), or use a newer Karpenter version`,
  );
}

/**
 * Holds the Karpenter version against the cluster's Kubernetes version when both are known.
 * Where the table cannot know the answer it warns instead of failing: Kubernetes newer than every
 * entry, with a version that supports the newest minor the table knows; or a newer Kubernetes with a
 * patch newer than the newest known of its minor (upstream has added support in a patch: 1.0.5,
 * 1.6.6, 1.7.4).
 * @throws KarpenterValidationError on `field` when the controller would refuse the cluster's version
 */
export function checkKubernetesCompatibility(
  scope: IConstruct,
  field: string,
  version: KarpenterVersion,
  cluster: IKarpenterCluster,
): void {
  checkEksVersionShape(scope, cluster);
  const support = kubernetesSupport(version.full);
  warnDefaultVersion(scope, version, support, cluster);
  const k8s = literalKubernetesVersion(cluster);
  const minor = kubernetesMinor(k8s);
  if (minor === undefined) return;
  if (minor >= support.minMinor && minor <= support.maxMinor) return;
  const range = `Kubernetes 1.${support.minMinor} to 1.${support.maxMinor}`;
  const where = cluster.clusterNameLiteral
    ? `cluster ${cluster.clusterNameLiteral}`
    : `the cluster (${cluster.resource.node.path})`;
  const beyondTable = minor > newestKnownKubernetesMinor() && support.maxMinor === newestKnownKubernetesMinor();
  const unknownPatch = minor > support.maxMinor && isNewerThanKnownPatch(version);
  if (beyondTable || unknownPatch) {
    const known = beyondTable
      ? `runs Kubernetes 1.${minor}, newer than the Karpenter compatibility matrix this library knows (up to 1.${newestKnownKubernetesMinor()}); Karpenter ${version.full} supports ${range} as far as known`
      : `runs Kubernetes 1.${minor}; Karpenter ${newestKnownPatch(version)}, the newest 1.${version.minor} patch this library knows, supports ${range}, and ${version.full} is newer`;
    Annotations.of(scope).addWarning(
      `${where} ${known}: check https://karpenter.sh/docs/upgrading/compatibility/ before deploying: on a Kubernetes version it does not support, Karpenter runs unsupported (${OUTSIDE_KUBERNETES_RANGE})`,
    );
    return;
  }
  const supporting = releasesSupporting(minor);
  const needs =
    minor > newestKnownKubernetesMinor()
      ? `no Karpenter release this library knows supports Kubernetes 1.${minor} yet (the newest known releases support up to 1.${newestKnownKubernetesMinor()})`
      : supporting === undefined
        ? `no Karpenter 1.x release supports Kubernetes 1.${minor}: upgrade the cluster to 1.${support.minMinor} or later`
        : `Kubernetes 1.${minor} needs Karpenter ${supporting}`;
  const outcome = `${minor > support.maxMinor ? "newer than the newest" : "older than the oldest"} it supports, ${OUTSIDE_KUBERNETES_RANGE}`;
  throw new KarpenterValidationError(
    "CLUSTER_KUBERNETES_INCOMPATIBLE",
    scope,
    field,
    version.full,
    `Karpenter ${version.full}${version.unverified ? ` (unverified: assumed to run where ${newestKnownPatch(version)} runs)` : ""} supports ${range}, and ${where} runs Kubernetes ${k8s}: ${outcome}; ${needs} (Karpenter compatibility matrix)`,
  );
}
