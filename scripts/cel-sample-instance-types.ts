/*
 * Writes lib/versions/data/cel-sample-instance-types.json: the variables Karpenter gives a kubelet CEL expression
 * (karpenter-provider-aws pkg/providers/instancetype/types.go buildCELVars: vcpus = VCpuInfo.DefaultVCpus,
 * memory_mib = MemoryInfo.SizeInMiB, default_enis = the default network card's MaximumNetworkInterfaces,
 * ips_per_eni = Ipv4AddressesPerInterface, max_pods = the ENI-limited default default_enis * (ips_per_eni - 1) + 2)
 * for real instance types, smallest to largest: six of the common sizes, and (issue 31) for each variable the recorded
 * type with the least and the one with the most (see EXTREMES), deduplicated, each with why it is there. Karpenter
 * 1.15.0 refuses the whole class when an expression fails for any instance type of the region
 * (pkg/controllers/nodeclass/validation.go:264-279): the library warns when an expression fails for any sample
 * (lib/nodes/kubelet-expressions.ts), and the e2e judge (scripts/e2e/cel-judge) evaluates Karpenter's own code on
 * the same list: this file is their one home.
 *
 * EC2 DescribeInstanceTypes output as karpenter-provider-aws records it in pkg/fake/zz_generated.describe_instance_types.go;
 * t3.nano is not there: its interfaces from pkg/providers/instancetype/zz_generated.vpclimits.go, its 2 vCPUs and
 * 512 MiB from the EC2 instance type table (https://aws.amazon.com/ec2/instance-types/t3/).
 *
 *   npx tsx scripts/cel-sample-instance-types.ts           write the table
 *   npx tsx scripts/cel-sample-instance-types.ts --check   exit 1 when the committed table differs
 */
import * as fs from "fs";
import * as path from "path";
import type { CelSampleInstanceType } from "../lib/versions/cel-samples";
import { moduleDir, writeOrCheck } from "./go-module-table";

export const TABLE_FILE = path.resolve(__dirname, "../lib/versions/data/cel-sample-instance-types.json");

const PROVIDER = "github.com/aws/karpenter-provider-aws";
const VERSION = "v1.15.0";
const FAKE = "pkg/fake/zz_generated.describe_instance_types.go";
const VPC_LIMITS = "pkg/providers/instancetype/zz_generated.vpclimits.go";
/** The six first samples, smallest to largest; t3.nano first, from the VPC limits. */
const NAMES = ["t3.nano", "t4g.small", "c6g.large", "m5.large", "t3.large", "p5.48xlarge"];
const T3_NANO = { vcpus: 2, memoryMiB: 512, page: "https://aws.amazon.com/ec2/instance-types/t3/" };

/** The lines of a `{ … }` block of a Go literal that starts at line `start` (0-based), by brace depth. */
function block(lines: string[], start: number): { from: number; to: number } {
  let depth = 0;
  for (let i = start; i < lines.length; i++) {
    for (const ch of lines[i]) {
      if (ch === "{") depth++;
      else if (ch === "}") depth--;
    }
    if (depth === 0 && i > start) return { from: start, to: i };
  }
  throw new Error(`unterminated block at line ${start + 1}`);
}

/** The number of `field: aws.Int32(N)` / `field: N` in the text, or a thrown error naming it. */
function number(text: string, field: string, where: string): number {
  const m = new RegExp(`\\b${field}:\\s*(?:aws\\.Int(?:32|64)\\()?(\\d+)`).exec(text);
  if (!m) throw new Error(`${where}: no ${field}`);
  return Number(m[1]);
}

/** The MaximumNetworkInterfaces of the network card `index` among the NetworkCards of the text. */
function cardInterfaces(text: string, index: number, where: string): number {
  const cards = text.slice(text.indexOf("NetworkCards:"));
  for (const card of cards.split(/\n\t*\{\n/).slice(1)) {
    const i = /NetworkCardIndex:\s*(?:aws\.Int32\()?(\d+)/.exec(card);
    const n = /MaximumNetworkInterfaces:\s*(?:aws\.Int32\()?(\d+)/.exec(card);
    if (i && n && Number(i[1]) === index) return Number(n[1]);
  }
  throw new Error(`${where}: no network card ${index}`);
}

/** The variables an expression reads, per instance type (pkg/cel/environment.go celVars), and where they were read. */
type Variables = Omit<CelSampleInstanceType, "why">;

/**
 * The extremes the samples hold: per int variable of pkg/cel/environment.go celVars (vcpus, memory_mib, default_enis,
 * ips_per_eni, max_pods), the least and the most; for the string instance_type the shortest and the longest name (all
 * an expression can ask of it is its size, its contents and matches); and the least and most memory and pods per vCPU,
 * which an expression that divides one by the other reads.
 */
const EXTREMES: readonly { readonly name: string; readonly value: (t: Variables) => number }[] = [
  { name: "vcpus", value: (t) => t.vcpus },
  { name: "memory_mib", value: (t) => t.memoryMiB },
  { name: "default_enis", value: (t) => t.defaultENIs },
  { name: "ips_per_eni", value: (t) => t.ipsPerENI },
  { name: "max_pods", value: (t) => t.maxPods },
  { name: "size(instance_type)", value: (t) => t.instanceType.length },
  { name: "memory_mib / vcpus", value: (t) => t.memoryMiB / t.vcpus },
  { name: "max_pods / vcpus", value: (t) => t.maxPods / t.vcpus },
];

/** The table from the Go module cache. */
export function generate(): { provider: string; instanceTypes: CelSampleInstanceType[] } {
  const dir = moduleDir(PROVIDER, VERSION);
  const fake = fs.readFileSync(path.join(dir, FAKE), "utf8").split("\n");
  const limits = fs.readFileSync(path.join(dir, VPC_LIMITS), "utf8").split("\n");
  /** The literal block of `name` in a file's lines: its text and where it is. */
  const literal = (lines: string[], file: string, start: number) => {
    if (start < 0) throw new Error(`${file}: no instance type`);
    const { from, to } = block(lines, start);
    return { text: lines.slice(from, to + 1).join("\n"), where: `${file}:${from + 1}-${to + 1}` };
  };
  const read = (name: string): Variables => {
    const nano = name === "t3.nano";
    const { text, where } = nano
      ? literal(
          limits,
          VPC_LIMITS,
          limits.findIndex((l) => l.trim() === `"${name}": {`),
        )
      : literal(fake, FAKE, fake.findIndex((l) => l.trim().replace(/\s+/g, " ") === `InstanceType: "${name}",`) - 1);
    const defaultENIs = cardInterfaces(text, number(text, "DefaultNetworkCardIndex", where), where);
    const ipsPerENI = number(text, nano ? "IPv4PerInterface" : "Ipv4AddressesPerInterface", where);
    return {
      instanceType: name,
      vcpus: nano ? T3_NANO.vcpus : number(text, "DefaultVCpus", where),
      memoryMiB: nano ? T3_NANO.memoryMiB : number(text, "SizeInMiB", where),
      defaultENIs,
      ipsPerENI,
      maxPods: defaultENIs * (ipsPerENI - 1) + 2,
      source: nano ? `interfaces ${where}; vCPUs and memory ${T3_NANO.page}` : where,
    };
  };
  // every instance type of the recorded DescribeInstanceTypes output (its InstanceTypes list, before the offerings)
  const offerings = fake.findIndex((l) => l.startsWith("var defaultDescribeInstanceTypeOfferingsOutput"));
  if (offerings < 0) throw new Error(`${FAKE}: no defaultDescribeInstanceTypeOfferingsOutput`);
  const recorded = fake
    .slice(0, offerings)
    .map((l) => /^\s*InstanceType:\s*"([^"]+)",$/.exec(l)?.[1])
    .filter((n): n is string => n !== undefined);
  const candidates = [...new Set(["t3.nano", ...NAMES, ...recorded])].map(read);
  const why = new Map<string, string[]>(NAMES.map((n) => [n, ["one of the six first samples, smallest to largest"]]));
  for (const { name, value } of EXTREMES) {
    for (const most of [false, true]) {
      const best = Math.max(...candidates.map((t) => (most ? value(t) : -value(t))));
      const at = candidates.filter((t) => (most ? value(t) : -value(t)) === best);
      // one type per extreme: one already sampled when it ties, else the first by name
      const pick =
        at.find((t) => why.has(t.instanceType)) ??
        [...at].sort((a, b) => (a.instanceType < b.instanceType ? -1 : 1))[0];
      const shown = Number.isInteger(value(pick)) ? value(pick) : value(pick).toFixed(2);
      const note = `the ${most ? "most" : "least"} ${name} of the recorded types (${shown}${at.length > 1 ? `, with ${at.length - 1} more` : ""})`;
      why.set(pick.instanceType, [...(why.get(pick.instanceType) ?? []), note]);
    }
  }
  const instanceTypes = candidates
    .filter((t) => why.has(t.instanceType))
    .sort(
      (a, b) =>
        a.memoryMiB - b.memoryMiB ||
        a.vcpus - b.vcpus ||
        a.maxPods - b.maxPods ||
        (a.instanceType < b.instanceType ? -1 : 1),
    )
    .map((t) => ({ ...t, why: why.get(t.instanceType) as string[] }));
  return { provider: `${PROVIDER}@${VERSION}`, instanceTypes };
}

/** The committed text of the table. */
export function render(table: ReturnType<typeof generate>): string {
  const note =
    "Generated by `npm run cel-samples` (scripts/cel-sample-instance-types.ts) from the Go module cache. Do not edit.";
  return JSON.stringify({ _: note, ...table }, null, 2) + "\n";
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
