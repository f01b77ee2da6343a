/*
 * The extended resources Karpenter's AWS instance types advertise, for `limits` keys that look like
 * one of them but are not (`nvidia.com/gpus`, `nvidia/gpu`, `gpu`): Karpenter sums a limit's resource
 * over the capacity of the pool's instance types, and a resource no instance type advertises sums to
 * 0, so such a limit never stops the pool.
 *
 * Upstream: aws/karpenter-provider-aws pkg/providers/instancetype/types.go `computeCapacity` (the
 * resources of every instance type: cpu, memory, ephemeral-storage, pods and the ones below) and
 * pkg/apis/v1/labels.go (their names: `ResourceNVIDIAGPU` … `ResourceEFA`), the same at every release
 * v1.0.0 … main of 2026-08-21 except `aws.amazon.com/neuroncore`, advertised from v1.1.0.
 */

import { nearestKey } from "../core/problems";

/** One extended resource an instance type may advertise. */
interface ExtendedResource {
  readonly name: string;
  /** Words of a misspelt key's domain that point at this resource's vendor. */
  readonly vendor: readonly string[];
  /** The resource part (after `/`) and its usual misspellings, lower-case without `-`, `_`, `.`. */
  readonly parts: readonly string[];
  /** What it counts, for messages. */
  readonly what: string;
}

/** Extended resources of Karpenter's AWS instance types (see the file comment). */
export const AWS_EXTENDED_RESOURCES: readonly ExtendedResource[] = [
  { name: "nvidia.com/gpu", vendor: ["nvidia"], parts: ["gpu"], what: "NVIDIA GPUs" },
  { name: "amd.com/gpu", vendor: ["amd"], parts: ["gpu"], what: "AMD GPUs" },
  {
    name: "aws.amazon.com/neuron",
    vendor: ["aws", "amazon", "neuron"],
    parts: ["neuron", "neurondevice", "inferentia", "trainium"],
    what: "AWS Neuron devices (Inferentia, Trainium)",
  },
  {
    name: "aws.amazon.com/neuroncore",
    vendor: ["aws", "amazon", "neuron"],
    parts: ["neuroncore"],
    what: "AWS NeuronCores",
  },
  {
    name: "habana.ai/gaudi",
    vendor: ["habana", "gaudi", "intel"],
    parts: ["gaudi"],
    what: "Habana Gaudi accelerators",
  },
  {
    name: "vpc.amazonaws.com/efa",
    vendor: ["vpc", "amazonaws", "aws", "efa"],
    parts: ["efa"],
    what: "Elastic Fabric Adapter interfaces",
  },
  {
    name: "vpc.amazonaws.com/pod-eni",
    vendor: ["vpc", "amazonaws", "aws"],
    parts: ["podeni", "eni"],
    what: "branch network interfaces for pods (security groups for pods)",
  },
];

/** `gpus` → `gpu`, `Neuron-Cores` → `neuroncore`: lower case, no separators, no plural `s`. */
function loose(part: string): string {
  const s = part.toLowerCase().replace(/[-_.\s]/g, "");
  return s.length > 3 && s.endsWith("s") ? s.slice(0, -1) : s;
}

/**
 * The extended resources a `limits` key that is none of them most likely means (`nvidia.com/gpus` →
 * nvidia.com/gpu; `gpu` → nvidia.com/gpu and amd.com/gpu), or [] for a key that is one, or that
 * names a vendor none of them has (`example.com/gpu`, `nvidia.com/mig-1g.5gb` pass: other device
 * plugins advertise resources of their own).
 */
export function meantExtendedResources(key: string): string[] {
  if (AWS_EXTENDED_RESOURCES.some((r) => r.name === key)) return [];
  const slash = key.lastIndexOf("/");
  const part = loose(key.slice(slash + 1));
  const domainWords =
    slash < 0
      ? []
      : key
          .slice(0, slash)
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .filter(Boolean);
  // a key without a domain names the resource alone (`gpu`, `efa`); one with a domain must name the vendor
  const candidates = AWS_EXTENDED_RESOURCES.filter(
    (r) => r.parts.includes(part) && (slash < 0 || r.vendor.some((v) => domainWords.includes(v))),
  );
  if (candidates.length > 0) return candidates.map((r) => r.name);
  // the right vendor and a resource part one typo off (a swap of two adjacent letters is one: `habana.ai/guadi`);
  // only parts of four letters or more, so `nvidia.com/cpu` is not taken for the GPU
  if (slash >= 0 && part.length >= 4) {
    const near = AWS_EXTENDED_RESOURCES.filter(
      (r) => r.vendor.some((v) => domainWords.includes(v)) && nearestKey(part, r.parts) !== undefined,
    );
    if (near.length > 0) return near.map((r) => r.name);
  }
  // the right vendor and resource in one word, or the domain alone: `nvidia.com/nvidia-gpu`, `nvidia.com`
  const whole = loose(key.replace(/\//g, ""));
  return AWS_EXTENDED_RESOURCES.filter((r) =>
    r.vendor.some((v) => whole.startsWith(v) && r.parts.some((p) => whole.endsWith(p))),
  )
    .map((r) => r.name)
    .slice(0, 2);
}

/** What each of `names` counts, for messages: `nvidia.com/gpu (NVIDIA GPUs)`. */
export function describeExtendedResources(names: readonly string[]): string {
  return names.map((n) => `${n} (${AWS_EXTENDED_RESOURCES.find((r) => r.name === n)?.what ?? n})`).join(" or ");
}
