/*
 * Writes lib/versions/data/eks-ami-facts.json: what the EKS-optimized AL2023 AMI's own nodeadm and build decide, read
 * from a git snapshot of awslabs/amazon-eks-ami at COMMIT:
 * - the JSON fields of nodeadm's NodeConfig v1alpha1 `spec` (nodeadm/api/v1alpha1/nodeconfig_types.go) and the values
 *   of its string enums (Feature, DisabledMount, LocalStorageStrategy), each field and value with the first AMI release
 *   that has it;
 * - the size of the AL2023 AMI's root volume snapshot (templates/al2023/variables-default.json,
 *   launch_block_device_mappings_volume_size);
 * - the containerd each AL2023 AMI release ships, per Kubernetes minor: the `containerd` row of the AL2023 package
 *   table under each `Kubernetes 1.x` heading of the release's CHANGELOG.md entry (releases before v20240213 have no
 *   AL2023 tables and are not listed), and the first release whose nodeadm stops on containerd 1.x at a configuration
 *   naming containerd 2's CRI plugins (the `git log -S` of its error in nodeadm/internal/containerd/config.go);
 * - the Kubernetes minors each release shipped AL2023 AMIs for: the `Kubernetes 1.x` headings of the release's entry
 *   whose package table names AL2023 AMI types (Karpenter's alias resolves the SSM parameter of the cluster's minor
 *   and the release, so a release without the minor names no parameter);
 * - the containerd runtime nodeadm's template defines, by instance (the `RuntimeName` constants of
 *   nodeadm/internal/containerd/runtime_config*.go).
 *
 * Why the AMI's nodeadm and not the one Karpenter's go.mod pins (scripts/nodeadm-config-fields.ts): Karpenter passes a
 * user's NodeConfig on unchanged, and the nodeadm *on the instance* decodes it. The pinned one is from 2024-02 and
 * knows neither featureGates nor instance.localStorage.mountPath; the AMIs have for years. Newer nodeadm versions
 * are not served by the Go module proxy here (403), so the repository's history is read instead.
 *
 * "First release that has it": the first `# AMI Release vYYYYMMDD` heading of CHANGELOG.md (at COMMIT) dated on or
 * after the committer date of the commit that added the field's `json:"<name>` tag (or the enum value's string) to
 * the file (`git log -S`). AMI releases are cut from main on their date, so a field merged on a release's day may be
 * one release later than recorded; never earlier.
 *
 *   npx tsx scripts/eks-ami-facts.ts           write the table
 *   npx tsx scripts/eks-ami-facts.ts --check   exit 1 when the committed table differs
 *
 * The snapshot: EKS_AMI_GIT (default /work/.mirror/awslabs+amazon-eks-ami/repo, where the search tool's `fetch
 * github:awslabs/amazon-eks-ami` puts it), a bare git directory or a clone that holds COMMIT.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import type { EksAmiFacts } from "../lib/versions/eks-ami";
import { writeOrCheck } from "./go-module-table";
import { type GoTypeContext, type Parsed, parseTypes, reachable } from "./k8s-api-fields";

export const TABLE_FILE = path.resolve(__dirname, "../lib/versions/data/eks-ami-facts.json");

export const REPOSITORY = "github.com/awslabs/amazon-eks-ami";
/** The snapshot read: main after release v20260714 (2026-07-23). */
export const COMMIT = "81fec2e895854f599974fe4d3d72f61c0a9aaffa";
const TYPES_FILE = "nodeadm/api/v1alpha1/nodeconfig_types.go";
const ROOT_VOLUME_FILE = "templates/al2023/variables-default.json";
const ROOT = "v1alpha1.NodeConfigSpec";
/** The string enums of the types file whose values are recorded. */
const ENUMS = ["Feature", "DisabledMount", "LocalStorageStrategy"];

const CONTEXT: GoTypeContext = {
  packages: {
    v1alpha1: { module: `${REPOSITORY}/nodeadm`, file: TYPES_FILE, imports: { metav1: "meta/v1", runtime: "runtime" } },
  },
  // runtime.RawExtension (kubelet.config's and containerd.baseRuntimeSpec's map values) takes any JSON
  qualified: { "runtime.RawExtension": "raw" },
};

/** The snapshot's git directory. */
export function gitDir(): string {
  return process.env.EKS_AMI_GIT ?? "/work/.mirror/awslabs+amazon-eks-ami/repo";
}

function git(args: string[]): string {
  return execFileSync("git", ["-C", gitDir(), ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
}

/** The file at COMMIT; throws (with the snapshot's path) when the snapshot is missing or lacks the commit. */
function show(file: string): string {
  if (!fs.existsSync(gitDir())) throw new Error(`no git snapshot of ${REPOSITORY} at ${gitDir()} (EKS_AMI_GIT)`);
  return git(["show", `${COMMIT}:${file}`]);
}

/** The enum values of `type` in the types file: `Name Type = "value"` lines of its const blocks. */
export function enumValues(typesGo: string, type: string): string[] {
  const re = new RegExp(`^\\s*\\w+\\s+${type}\\s*=\\s*"([^"]*)"`, "gm");
  return [...typesGo.matchAll(re)].map((m) => m[1]);
}

/** The AMI releases named in CHANGELOG.md, oldest first (`v20240227`). */
export function releases(changelog: string): string[] {
  return [...new Set([...changelog.matchAll(/^#+ AMI Release (v\d{8})\s*$/gm)].map((m) => m[1]))].sort();
}

/** The releases CHANGELOG.md marks abandoned (`# [ABANDONED] AMI Release v20260311`), oldest first: never published. */
export function abandonedReleases(changelog: string): string[] {
  return [...new Set([...changelog.matchAll(/^#+ \[ABANDONED\] AMI Release (v\d{8})\s*$/gm)].map((m) => m[1]))].sort();
}

/** The first release dated on or after `date` (YYYY-MM-DD), or undefined when none is (newer than every release). */
export function firstReleaseOnOrAfter(list: readonly string[], date: string): string | undefined {
  const day = date.slice(0, 10).replace(/-/g, "");
  return list.find((r) => r.slice(1) >= day);
}

/** The committer date of the oldest commit (up to COMMIT) that added `needle` to `file` (the types file). */
function addedOn(needle: string, file = TYPES_FILE): string {
  const log = git(["log", "--reverse", "--format=%cI", `-S${needle}`, COMMIT, "--", file]).trim();
  const first = log.split("\n")[0];
  if (!first) throw new Error(`git log -S${needle} found no commit in ${file}`);
  return first;
}

/**
 * The containerd version (upstream, `1.7.27` of `1.7.27-1.eks.amzn2023.0.4`) of each AL2023 AMI release and Kubernetes
 * minor: in each `# AMI Release` entry, under each `<summary><b>Kubernetes 1.x</b></summary>`, the package table whose
 * header names AL2023 AMI types, its `containerd` row. A minor whose AL2023 AMI types disagree is left out (unknown).
 */
export function al2023Containerd(changelog: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  const parts = changelog.split(/^#+ AMI Release (v\d{8})\s*$/m);
  for (let i = 1; i < parts.length; i += 2) {
    const release = parts[i];
    const minors: Record<string, string> = {};
    for (const m of parts[i + 1].matchAll(/<summary><b>Kubernetes (1\.\d+)<\/b><\/summary>([\s\S]*?)<\/details>/g))
      for (const table of m[2].matchAll(/<table>([\s\S]*?)<\/table>/g)) {
        if (!/<th>AL2023_/.test(table[1])) continue;
        const row = /<td>containerd<\/td>([\s\S]*?)<\/tr>/.exec(table[1]);
        if (!row) continue;
        const cells = [...row[1].matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((c) => c[1].trim().split("-")[0]);
        const versions = [...new Set(cells.filter((c) => /^\d+\.\d+\.\d+$/.test(c)))];
        if (versions.length === 1) minors[m[1]] = versions[0];
      }
    const byMinor = (a: string, b: string) => Number(a.split(".")[1]) - Number(b.split(".")[1]);
    if (Object.keys(minors).length > 0 && !out[release])
      out[release] = Object.fromEntries(Object.entries(minors).sort(([a], [b]) => byMinor(a, b)));
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * The Kubernetes minors (`1.32`) each AMI release shipped AL2023 AMIs for, oldest minor first: in each
 * `# AMI Release` entry, the `<summary><b>Kubernetes 1.x</b></summary>` sections whose package table header names
 * AL2023 AMI types. Releases with no AL2023 tables (before v20240213) are not listed.
 */
export function al2023Minors(changelog: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const parts = changelog.split(/^#+ AMI Release (v\d{8})\s*$/m);
  const byMinor = (a: string, b: string) => Number(a.split(".")[1]) - Number(b.split(".")[1]);
  for (let i = 1; i < parts.length; i += 2) {
    const minors = new Set<string>();
    for (const m of parts[i + 1].matchAll(/<summary><b>Kubernetes (1\.\d+)<\/b><\/summary>([\s\S]*?)<\/details>/g))
      if (/<th>AL2023_/.test(m[2])) minors.add(m[1]);
    if (minors.size > 0 && !out[parts[i]]) out[parts[i]] = [...minors].sort(byMinor);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * The Kubernetes minors (`1.29`) each AMI release shipped AL2 AMIs for, oldest minor first: in each AMI Release entry
 * (the `#` and the older `###` headings alike), the minors of the AL2 AMI names it lists (`amazon-eks-node-1.29-…`,
 * `amazon-eks-gpu-node-…`, `amazon-eks-arm64-node-…`; not `amazon-eks-node-al2023-…`). Releases naming no AL2 AMI are
 * not listed.
 */
export function al2Minors(changelog: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const parts = changelog.split(/^#+ AMI Release (v\d{8})\s*$/m);
  const byMinor = (a: string, b: string) => Number(a.split(".")[1]) - Number(b.split(".")[1]);
  for (let i = 1; i < parts.length; i += 2) {
    const minors = new Set<string>();
    for (const m of parts[i + 1].matchAll(/\bamazon-eks-(?:gpu-|arm64-)?node-(1\.\d+)-v\d{8}\b/g)) minors.add(m[1]);
    if (minors.size > 0 && !out[parts[i]]) out[parts[i]] = [...minors].sort(byMinor);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** The 1-based line of the first line of `text` that contains `needle`; throws when none does. */
function lineOf(text: string, needle: string, file: string): number {
  const i = text.split("\n").findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`${file}: no line with ${needle}`);
  return i + 1;
}

const CONTAINERD_CONFIG_FILE = "nodeadm/internal/containerd/config.go";
/** nodeadm's error on containerd 1.x at a configuration naming containerd 2's CRI plugins. */
const V3_KEYS_ERROR = "failed to get config template version";

/**
 * The runtime names nodeadm's containerd template gets (`runtimes.{{.RuntimeName}}`): the `…RuntimeName = "…"`
 * constants of nodeadm/internal/containerd/runtime_config*.go, the default's (`defaultRuntimeName`) and each mixin's,
 * with the runtime binary a mixin needs on the instance (its `Matches`: os.Stat of that path).
 */
function nodeadmRuntimes(): EksAmiFacts["containerd"]["runtimes"] {
  const dir = "nodeadm/internal/containerd";
  const files = git(["ls-tree", "--name-only", `${COMMIT}:${dir}`])
    .split("\n")
    .filter((f) => /^runtime_config\w*\.go$/.test(f) && !f.endsWith("_test.go"));
  const out: Record<string, { at: string; default: boolean; binary?: string }> = {};
  for (const f of files) {
    const go = show(`${dir}/${f}`);
    for (const m of go.matchAll(/^\s*(\w*)RuntimeName\s*=\s*"([^"]+)"/gm)) {
      const binary = new RegExp(`^\\s*${m[1]}RuntimeBinaryPath\\s*=\\s*"([^"]+)"`, "m").exec(go)?.[1];
      out[m[2]] = {
        at: `${dir}/${f}:${lineOf(go, m[0].trim(), f)}`,
        default: m[1] === "default",
        ...(m[1] === "default" || !binary ? {} : { binary }),
      };
    }
  }
  if (Object.values(out).filter((r) => r.default).length !== 1)
    throw new Error(`${dir}/runtime_config*.go: no single defaultRuntimeName`);
  return out;
}

/** The whole table, from the snapshot. */
export function generate(): EksAmiFacts {
  const typesGo = show(TYPES_FILE);
  const parsed: Parsed = { v1alpha1: parseTypes(typesGo) };
  const types = reachable(parsed, [ROOT], CONTEXT);
  const changelog = show("CHANGELOG.md");
  const list = releases(changelog);
  // the first release on or after the commit that added the needle, moved on to the first release tag whose types file
  // holds it: a release is tagged from an earlier commit than its date (baseRuntimeSpec was merged before v20240531's
  // date but ships from v20240615); a release without a tag in the snapshot is taken by its date
  const tags = new Set(git(["tag", "--list", "v*"]).split("\n"));
  const tagged = new Map<string, string>();
  const holds = (release: string, needle: string): boolean | undefined => {
    if (!tags.has(release)) return undefined;
    if (!tagged.has(release)) tagged.set(release, git(["show", `${release}:${TYPES_FILE}`]));
    return tagged.get(release)!.includes(needle);
  };
  const since = (needle: string): string => {
    const byDate = firstReleaseOnOrAfter(list, addedOn(needle));
    if (byDate === undefined) return "unreleased";
    let i = list.indexOf(byDate);
    while (i < list.length && holds(list[i], needle) === false) i++;
    return list[i] ?? "unreleased";
  };
  const fieldSince: Record<string, string> = {};
  for (const [type, { fields }] of Object.entries(types))
    for (const field of Object.keys(fields)) fieldSince[`${type}.${field}`] = since(`json:"${field}`);
  const enums: Record<string, Record<string, string>> = {};
  for (const type of ENUMS) {
    const values = enumValues(typesGo, type);
    if (values.length === 0) throw new Error(`no values of ${type} in ${TYPES_FILE}`);
    enums[`v1alpha1.${type}`] = Object.fromEntries(values.map((v) => [v, since(`"${v}"`)]));
  }
  const variables = JSON.parse(show(ROOT_VOLUME_FILE)) as Record<string, unknown>;
  const rootGiB = Number(variables.launch_block_device_mappings_volume_size);
  if (!Number.isInteger(rootGiB) || rootGiB <= 0)
    throw new Error(`${ROOT_VOLUME_FILE}: launch_block_device_mappings_volume_size is no size`);
  return {
    repository: REPOSITORY,
    commit: COMMIT,
    newestRelease: list[list.length - 1],
    releases: list,
    abandoned: abandonedReleases(changelog),
    nodeadm: {
      file: TYPES_FILE,
      root: ROOT,
      decodedBy:
        "nodeadm internal/api/bridge/decode.go:19-40 (serializer.NewCodecFactory(scheme).UniversalDecoder(): not strict) → k8s.io/apimachinery v0.36.2 (nodeadm's go.mod at that commit) pkg/runtime/serializer/codec_factory.go:178-179, json/json.go:268-270 (sigs.k8s.io/json UnmarshalCaseSensitivePreserveInts: a wrong JSON type fails; an unknown or wrongly cased field is dropped)",
      types,
      since: fieldSince,
      enums,
    },
    al2023Minors: {
      source:
        "CHANGELOG.md: the `Kubernetes 1.x` headings of each release whose package table names AL2023 AMI types; Karpenter reads /aws/service/eks/optimized-ami/<k8s>/amazon-linux-2023/<arch>/<variant>/amazon-eks-node-al2023-<arch>-<variant>-<k8s>-<release>/image_id (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/al2023.go:48-69)",
      byRelease: al2023Minors(changelog),
    },
    al2Minors: {
      source:
        "CHANGELOG.md: the AL2 AMI names (amazon-eks-node-1.x-…, amazon-eks-gpu-node-…, amazon-eks-arm64-node-…) each release's entry lists; Karpenter reads /aws/service/eks/optimized-ami/<k8s>/amazon-linux-2[-arm64|-gpu]/amazon-eks-[arm64-|gpu-]node-<k8s>-<release>/image_id (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/al2.go:43-73)",
      byRelease: al2Minors(changelog),
    },
    al2023RootVolumeGiB: { value: rootGiB, file: `${ROOT_VOLUME_FILE} (launch_block_device_mappings_volume_size)` },
    containerd: {
      source:
        "CHANGELOG.md: the containerd row of the AL2023 package table under each release's `Kubernetes 1.x` heading (upstream version)",
      al2023: al2023Containerd(changelog),
      v3KeysRefusedOn1: {
        since: firstReleaseOnOrAfter(list, addedOn(V3_KEYS_ERROR, CONTAINERD_CONFIG_FILE)) ?? "unreleased",
        at: `${CONTAINERD_CONFIG_FILE}:${lineOf(show(CONTAINERD_CONFIG_FILE), V3_KEYS_ERROR, CONTAINERD_CONFIG_FILE)}`,
      },
      runtimes: nodeadmRuntimes(),
    },
  };
}

/** The table as the committed file's text. */
export function render(table: EksAmiFacts): string {
  const note = `Generated by \`npm run eks-ami-facts\` (scripts/eks-ami-facts.ts) from a git snapshot of ${REPOSITORY}. Do not edit.`;
  return JSON.stringify({ _: note, ...table }, null, 2) + "\n";
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
