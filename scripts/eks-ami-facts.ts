/*
 * Writes lib/versions/data/eks-ami-facts.json: what the EKS-optimized AL2023 AMI's own nodeadm and build decide, read
 * from a git snapshot of awslabs/amazon-eks-ami at COMMIT:
 * - the JSON fields of nodeadm's NodeConfig v1alpha1 `spec` (nodeadm/api/v1alpha1/nodeconfig_types.go) and the values
 *   of its string enums (Feature, DisabledMount, LocalStorageStrategy), each field and value with the first AMI release
 *   that has it;
 * - the size of the AL2023 AMI's root volume snapshot (templates/al2023/variables-default.json,
 *   launch_block_device_mappings_volume_size).
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

/** The first release dated on or after `date` (YYYY-MM-DD), or undefined when none is (newer than every release). */
export function firstReleaseOnOrAfter(list: readonly string[], date: string): string | undefined {
  const day = date.slice(0, 10).replace(/-/g, "");
  return list.find((r) => r.slice(1) >= day);
}

/** The committer date of the oldest commit (up to COMMIT) that added `needle` to the types file. */
function addedOn(needle: string): string {
  const log = git(["log", "--reverse", "--format=%cI", `-S${needle}`, COMMIT, "--", TYPES_FILE]).trim();
  const first = log.split("\n")[0];
  if (!first) throw new Error(`git log -S${needle} found no commit in ${TYPES_FILE}`);
  return first;
}

/** The whole table, from the snapshot. */
export function generate(): EksAmiFacts {
  const typesGo = show(TYPES_FILE);
  const parsed: Parsed = { v1alpha1: parseTypes(typesGo) };
  const types = reachable(parsed, [ROOT], CONTEXT);
  const list = releases(show("CHANGELOG.md"));
  const since = (needle: string): string => firstReleaseOnOrAfter(list, addedOn(needle)) ?? "unreleased";
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
    nodeadm: {
      file: TYPES_FILE,
      root: ROOT,
      decodedBy:
        "nodeadm internal/api/bridge/decode.go:19-40 (serializer.NewCodecFactory(scheme).UniversalDecoder(): not strict) → k8s.io/apimachinery v0.36.2 (nodeadm's go.mod at that commit) pkg/runtime/serializer/codec_factory.go:178-179, json/json.go:268-270 (sigs.k8s.io/json UnmarshalCaseSensitivePreserveInts: a wrong JSON type fails; an unknown or wrongly cased field is dropped)",
      types,
      since: fieldSince,
      enums,
    },
    al2023RootVolumeGiB: { value: rootGiB, file: `${ROOT_VOLUME_FILE} (launch_block_device_mappings_volume_size)` },
  };
}

/** The table as the committed file's text. */
export function render(table: EksAmiFacts): string {
  const note = `Generated by \`npm run eks-ami-facts\` (scripts/eks-ami-facts.ts) from a git snapshot of ${REPOSITORY}. Do not edit.`;
  return JSON.stringify({ _: note, ...table }, null, 2) + "\n";
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
