/*
 * Writes lib/versions/data/instance-type-facts.json: the EC2 instance types Karpenter's website lists, with the labels
 * the catalogue decides (lib/versions/instance-type-facts.ts CATALOGUE_LABELS: architecture, CPU, memory, GPU,
 * accelerator, local NVMe, bandwidths …), read from a git snapshot of
 * aws/karpenter-provider-aws at COMMIT: website/content/en/v1.14/reference/instance-types.md, generated upstream by
 * hack/docs/instancetypes_gen/main.go from EC2's DescribeInstanceTypes (one `### \`type\`` heading per type, each with
 * a `| Label | Value |` table of the labels Karpenter gives its nodes).
 *
 * Kept small: per family its sizes, and each label either one value (the same on every size) or one per size (null
 * where a size has none). The labels Karpenter derives from the name (family, size, category, generation:
 * lib/nodes/instance-name-rules.ts) are not stored; the script checks the page agrees with that derivation.
 *
 *   npx tsx scripts/instance-type-facts.ts           write the table
 *   npx tsx scripts/instance-type-facts.ts --check   exit 1 when the committed table differs
 *
 * The snapshot: KARPENTER_PROVIDER_AWS_GIT (default /work/.mirror/aws+karpenter-provider-aws/repo, where the search
 * tool's `fetch github:aws/karpenter-provider-aws` puts it), a git directory that holds COMMIT.
 */
import * as path from "path";
import { labelsOfName } from "../lib/versions/instance-type-names";
import { CATALOGUE_LABELS, type InstanceTypeFacts } from "../lib/versions/instance-type-facts";
import { snapshotFile, writeOrCheck } from "./go-module-table";

export const TABLE_FILE = path.resolve(__dirname, "../lib/versions/data/instance-type-facts.json");
export const REPOSITORY = "github.com/aws/karpenter-provider-aws";
/** The snapshot read: main at "docs: update for patch release v1.14.1 (#9533)", 2026-08-21. */
export const COMMIT = "1d927085dd81a9df9301e613f371dac5b4d16bfe";
export const DATE = "2026-08-21";
export const PAGE_FILE = "website/content/en/v1.14/reference/instance-types.md";

/** The snapshot's git directory. */
export function gitDir(): string {
  return process.env.KARPENTER_PROVIDER_AWS_GIT ?? "/work/.mirror/aws+karpenter-provider-aws/repo";
}

/** The page at COMMIT (see snapshotFile). */
function showPage(): string {
  return snapshotFile({
    dir: gitDir(),
    env: "KARPENTER_PROVIDER_AWS_GIT",
    repository: REPOSITORY,
    commit: COMMIT,
    file: PAGE_FILE,
  });
}

/** Each instance type of the page with its label table (label key → value), in page order. */
export function pageTypes(page: string): { type: string; labels: Record<string, string> }[] {
  const out: { type: string; labels: Record<string, string> }[] = [];
  for (const section of page.split(/^### /m).slice(1)) {
    const type = /^`([^`]+)`/.exec(section)?.[1];
    if (!type) continue;
    const table = /#### Labels\n([\s\S]*?)(?=\n####|\n##|$)/.exec(section)?.[1] ?? "";
    const labels: Record<string, string> = {};
    for (const m of table.matchAll(/^\s*\|([^|]+)\|([^|]*)\|\s*$/gm))
      if (m[1].includes("/") || m[1].includes(".")) labels[m[1].trim()] = m[2].trim();
    if (labels["node.kubernetes.io/instance-type"] !== type)
      throw new Error(`${PAGE_FILE}: ${type} has no label table`);
    out.push({ type, labels });
  }
  if (out.length === 0) throw new Error(`${PAGE_FILE}: no instance types`);
  return out;
}

/** The page's types as the table keeps them, checking the name-derived labels against lib/nodes/instance-name-rules. */
export function families(types: ReturnType<typeof pageTypes>): InstanceTypeFacts["families"] {
  const byFamily: Record<string, { size: string; labels: Record<string, string> }[]> = {};
  for (const { type, labels } of types) {
    const derived = labelsOfName(type);
    for (const [key, value] of Object.entries(derived))
      if (labels[key] !== value)
        throw new Error(`${PAGE_FILE}: ${type} has ${key}=${labels[key]}, its name gives ${value}`);
    const family = derived["karpenter.k8s.aws/instance-family"];
    const size = derived["karpenter.k8s.aws/instance-size"];
    if (!family || !size) throw new Error(`${PAGE_FILE}: ${type} is no <family>.<size>`);
    (byFamily[family] ??= []).push({ size, labels });
  }
  const out: Record<string, InstanceTypeFacts["families"][string]> = {};
  for (const family of Object.keys(byFamily).sort()) {
    const rows = byFamily[family];
    const entry: Record<string, unknown> = { sizes: rows.map((r) => r.size) };
    for (const [short, key] of Object.entries(CATALOGUE_LABELS)) {
      const values = rows.map((r) => r.labels[key] ?? null);
      if (values.every((v) => v === null)) continue;
      entry[short] = values.every((v) => v === values[0]) ? values[0] : values;
    }
    out[family] = entry as InstanceTypeFacts["families"][string];
  }
  return out;
}

export function generate(): InstanceTypeFacts {
  return {
    repository: REPOSITORY,
    commit: COMMIT,
    date: DATE,
    file: PAGE_FILE,
    families: families(pageTypes(showPage())),
  };
}

/** One family a line, so the table stays readable and its diffs small. */
export function render(table: InstanceTypeFacts): string {
  const note = `Generated by \`npm run instance-type-facts\` (scripts/instance-type-facts.ts) from a git snapshot of ${REPOSITORY}. Do not edit.`;
  const { families: fams, ...head } = table;
  const lines = Object.entries(fams).map(([f, e]) => `    ${JSON.stringify(f)}: ${JSON.stringify(e)}`);
  const top = JSON.stringify({ _: note, ...head }, null, 2).replace(/\n}$/, "");
  return `${top},\n  "families": {\n${lines.join(",\n")}\n  }\n}\n`;
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
