/*
 * Writes lib/versions/data/cel-sample-instance-types.json: the variables Karpenter gives a kubelet CEL expression
 * (karpenter-provider-aws pkg/providers/instancetype/types.go buildCELVars: vcpus = VCpuInfo.DefaultVCpus,
 * memory_mib = MemoryInfo.SizeInMiB, default_enis = the default network card's MaximumNetworkInterfaces,
 * ips_per_eni = Ipv4AddressesPerInterface, max_pods = the ENI-limited default default_enis * (ips_per_eni - 1) + 2)
 * for six real instance types, smallest to largest. The library warns when an expression fails for every one
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
/** Smallest to largest; t3.nano first, from the VPC limits. */
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
  const instanceTypes = NAMES.map((name): CelSampleInstanceType => {
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
  });
  return { provider: `${PROVIDER}@${VERSION}`, instanceTypes };
}

/** The committed text of the table. */
export function render(table: ReturnType<typeof generate>): string {
  const note =
    "Generated by `npm run cel-samples` (scripts/cel-sample-instance-types.ts) from the Go module cache. Do not edit.";
  return JSON.stringify({ _: note, ...table }, null, 2) + "\n";
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
