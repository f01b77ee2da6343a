import { lookupTable } from "../core/lookup";
import { BOTTLEROCKET_K8S_VARIANTS } from "../versions/bottlerocket-ami";
import { eksAmiFacts } from "../versions/eks-ami";

/*
 * A pinned AMI alias release that shipped no AMI for the cluster's Kubernetes minor. Karpenter resolves
 * `al2023@vYYYYMMDD` / `al2@vYYYYMMDD` / `bottlerocket@vX.Y.Z` through an SSM parameter naming both the minor and the
 * release (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/al2023.go:48-69,82-88, al2.go:43-73,
 * bottlerocket.go:44-66); when the
 * release has no AMI for the minor the parameter does not exist, the alias finds no AMI ("failed to discover any AMIs
 * for alias") and the EC2NodeClass never becomes Ready.
 */

/**
 * What the refusal says: the allowed value and why; undefined when the release has the minor or is not judged. With
 * `minor` unknown (the cluster's version is not known at synth), only a release that shipped no AMI of the family at
 * all is judged (an al2023@ release before the first AL2023 AMIs, an al2@ release after the last AL2 ones).
 */
export function aliasReleaseMinorProblem(family: string, version: string, minor?: number): string | undefined {
  if (family === "al2023") return al2023Problem(version, minor);
  if (family === "al2") return al2Problem(version, minor);
  if (family === "bottlerocket" && minor !== undefined) return bottlerocketProblem(version, minor);
  return undefined;
}

/**
 * The EKS AMI releases that shipped AMIs of `family` (`al2`, `al2023`), oldest first: the releases of eks-ami-facts'
 * `al2Minors` / `al2023Minors` (from the CHANGELOG). AL2 ended with the last release listed; AL2023 began with the first.
 */
export function familyReleases(family: "al2" | "al2023"): readonly string[] {
  const facts = eksAmiFacts();
  return Object.keys((family === "al2" ? facts.al2Minors : facts.al2023Minors).byRelease).sort();
}

/** The Karpenter source that resolves the family's alias. */
export const ALIAS_SOURCE = {
  al2: "karpenter-provider-aws v1.15.0 pkg/providers/amifamily/al2.go:43-73",
  al2023: "karpenter-provider-aws v1.15.0 pkg/providers/amifamily/al2023.go:48-69,82-88",
} as const;

/** `1.26–1.32` of a sorted list of minors. */
function span(minors: readonly string[]): string {
  return minors.length === 1 ? minors[0] : `${minors[0]}–${minors[minors.length - 1]}`;
}

/**
 * AL2023: a release of eks-ami-facts' `al2023Minors` (the CHANGELOG's AL2023 package tables per Kubernetes minor).
 * Not judged: a release not in the table (older than the AL2023 tables, or newer than the snapshot) and a minor no
 * release in the table has (newer than the snapshot, or before AL2023).
 */
function al2023Problem(release: string, minor: number | undefined): string | undefined {
  const facts = eksAmiFacts();
  const byRelease = facts.al2023Minors.byRelease;
  const shipped = byRelease[release];
  const k8s = minor === undefined ? "<k8s>" : `1.${minor}`;
  // a release of the CHANGELOG older than the first with AL2023 AMIs (the al2023 branch was merged for v20240213): it
  // shipped none, whatever the minor
  const first = Object.keys(byRelease).sort()[0];
  if (shipped === undefined && first !== undefined && release < first && facts.releases.includes(release))
    return `a release that shipped AL2023 AMIs, such as "al2023@${first}" (the first) or "al2023@latest": EKS AMI release ${release} shipped AL2 AMIs only (awslabs/amazon-eks-ami CHANGELOG.md: AL2023 AMIs came with ${first}), so the SSM parameter Karpenter reads, /aws/service/eks/optimized-ami/${k8s}/amazon-linux-2023/<arch>/<variant>/amazon-eks-node-al2023-<arch>-<variant>-${k8s}-${release}/image_id, does not exist: the alias finds no AMI and the EC2NodeClass never becomes Ready (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/al2023.go:48-69,82-88)`;
  if (minor === undefined || shipped === undefined || shipped.includes(k8s)) return undefined;
  const withMinor = Object.keys(byRelease)
    .filter((r) => byRelease[r].includes(k8s))
    .sort();
  // a minor newer than every release of the table: this release (in the table) shipped none for it, and the first that
  // does is newer than the snapshot; an older minor no release has is before AL2023 (Karpenter refuses it anyway)
  const newestMinor = Math.max(...Object.values(byRelease).flatMap((m) => m.map((x) => Number(x.split(".")[1]))));
  if (withMinor.length === 0 && minor <= newestMinor) return undefined;
  const later = withMinor.find((r) => r > release);
  const suggestion =
    withMinor.length === 0
      ? `a release after ${familyReleases("al2023").slice(-1)[0]} (the first with AL2023 AMIs for ${k8s} is newer than every release this library reads)`
      : later
        ? `"al2023@${later}" (the first release that did)`
        : `"al2023@${withMinor[withMinor.length - 1]}" (the last release that did)`;
  return `a release that shipped AL2023 AMIs for Kubernetes ${k8s}, such as ${suggestion}, or "al2023@latest": EKS AMI release ${release} shipped AL2023 AMIs for Kubernetes ${span(shipped)} only (awslabs/amazon-eks-ami CHANGELOG.md), so the SSM parameter Karpenter reads, /aws/service/eks/optimized-ami/${k8s}/amazon-linux-2023/<arch>/<variant>/amazon-eks-node-al2023-<arch>-<variant>-${k8s}-${release}/image_id, does not exist: the alias finds no AMI and the EC2NodeClass never becomes Ready (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/al2023.go:48-69,82-88)`;
}

/**
 * AL2: a release of eks-ami-facts' `al2Minors` (the AL2 AMI names of each CHANGELOG entry). Not judged: a release not in
 * the table, and a minor no release in it has (newer than the last AL2 AMIs, which the AMI family's own warning names).
 */
function al2Problem(release: string, minor: number | undefined): string | undefined {
  const facts = eksAmiFacts();
  const byRelease = facts.al2Minors.byRelease;
  const shipped = byRelease[release];
  const k8s = minor === undefined ? "<k8s>" : `1.${minor}`;
  // a release of the CHANGELOG after the last with AL2 AMIs: it shipped none, whatever the minor
  const all = familyReleases("al2");
  const last = all[all.length - 1];
  if (shipped === undefined && last !== undefined && release > last && facts.releases.includes(release))
    return `a release that shipped AL2 AMIs, such as "al2@${last}" (the last), or an AL2023 alias ("al2023@latest"): EKS AMI release ${release} shipped no AL2 AMIs (awslabs/amazon-eks-ami CHANGELOG.md: the last AL2 AMIs came with ${last}), so none of the SSM parameters Karpenter reads, /aws/service/eks/optimized-ami/${k8s}/amazon-linux-2[-arm64|-gpu]/amazon-eks-[arm64-|gpu-]node-${k8s}-${release}/image_id, exists: the alias finds no AMI ("failed to discover any AMIs for alias") and the EC2NodeClass never becomes Ready (${ALIAS_SOURCE.al2})`;
  if (minor === undefined || shipped === undefined || shipped.includes(k8s)) return undefined;
  const withMinor = Object.keys(byRelease)
    .filter((r) => byRelease[r].includes(k8s))
    .sort();
  if (withMinor.length === 0) return undefined;
  const later = withMinor.find((r) => r > release);
  const suggestion = later
    ? `"al2@${later}" (the first release that did)`
    : `"al2@${withMinor[withMinor.length - 1]}" (the last release that did)`;
  return `a release that shipped AL2 AMIs for Kubernetes ${k8s}, such as ${suggestion}, or "al2@latest": EKS AMI release ${release} shipped AL2 AMIs for Kubernetes ${span(shipped)} only (awslabs/amazon-eks-ami CHANGELOG.md), so none of the SSM parameters Karpenter reads, /aws/service/eks/optimized-ami/${k8s}/amazon-linux-2[-arm64|-gpu]/amazon-eks-[arm64-|gpu-]node-${k8s}-${release}/image_id, exists: the alias finds no AMI ("failed to discover any AMIs for alias") and the EC2NodeClass never becomes Ready (${ALIAS_SOURCE.al2})`;
}

/** Minor → first / last Bottlerocket release with its aws-k8s variant (no prototype: keys come from input). */
const byMinor = lookupTable(BOTTLEROCKET_K8S_VARIANTS.byMinor);

/** `1.20.3` → [1, 20, 3]. */
function parts(v: string): number[] {
  return v.split(".").map(Number);
}

/** a < b (-1), a = b (0), a > b (1) for X.Y.Z. */
function compare(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

/**
 * Bottlerocket: a release within the snapshot's tags (BOTTLEROCKET_K8S_VARIANTS, v1.0.0 … v1.26.0). A minor newer
 * than every minor of the table first shipped after the snapshot's newest release, so no release in range has it. Not
 * judged: a release outside that range, a minor older than the table's.
 */
function bottlerocketProblem(version: string, minor: number): string | undefined {
  const v = version.replace(/^v/, "");
  const t = BOTTLEROCKET_K8S_VARIANTS;
  if (!/^\d+\.\d+\.\d+$/.test(v) || compare(v, t.oldestRelease) < 0 || compare(v, t.newestRelease) > 0)
    return undefined;
  const has = (m: string) =>
    compare(byMinor[m].first, v) <= 0 && (!byMinor[m].last || compare(v, byMinor[m].last) <= 0);
  const minors = Object.keys(byMinor).sort((a, b) => Number(a.split(".")[1]) - Number(b.split(".")[1]));
  const k8s = `1.${minor}`;
  const newestMinor = Number(minors[minors.length - 1].split(".")[1]);
  if (minor < Number(minors[0].split(".")[1])) return undefined;
  const entry = byMinor[k8s];
  if (entry !== undefined && has(k8s)) return undefined;
  const suggestion =
    entry === undefined && minor > newestMinor
      ? `a release after v${t.newestRelease} (the first with aws-k8s-${k8s} is newer than every release this library reads)`
      : entry !== undefined && compare(v, entry.first) < 0
        ? `"bottlerocket@v${entry.first}" (the first release that did)`
        : entry?.last
          ? `"bottlerocket@v${entry.last}" (the last release that did)`
          : undefined;
  if (suggestion === undefined) return undefined;
  const shipped = minors.filter(has);
  return `a release that shipped Bottlerocket AMIs for Kubernetes ${k8s}, such as ${suggestion}, or "bottlerocket@latest": Bottlerocket ${version} has the variants aws-k8s-${span(shipped)} only (bottlerocket-os/bottlerocket variants/ at that tag), so the SSM parameters Karpenter reads, /aws/service/bottlerocket/aws-k8s-${k8s}[-nvidia]/<arch>/${v}/image_id, do not exist: the alias finds no AMI and the EC2NodeClass never becomes Ready (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bottlerocket.go:44-66)`;
}
