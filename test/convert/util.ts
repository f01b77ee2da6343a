import {
  convertLegacyManifests,
  ConvertedEc2NodeClass,
  ConvertedNodePool,
  ConvertLegacyManifestsOptions,
  ConversionNote,
} from "../../lib/convert";

/** Converts and returns the only NodePool of the result (fails when there is not exactly one). */
export function onlyPool(yaml: string, options?: ConvertLegacyManifestsOptions): ConvertedNodePool {
  const r = convertLegacyManifests(yaml, options);
  if (r.nodePools.length !== 1) throw new Error(`expected one NodePool, got ${r.nodePools.length}`);
  return r.nodePools[0];
}

/** Converts and returns the only EC2NodeClass of the result (fails when there is not exactly one). */
export function onlyClass(yaml: string, options?: ConvertLegacyManifestsOptions): ConvertedEc2NodeClass {
  const r = convertLegacyManifests(yaml, options);
  if (r.ec2NodeClasses.length !== 1) throw new Error(`expected one EC2NodeClass, got ${r.ec2NodeClasses.length}`);
  return r.ec2NodeClasses[0];
}

/** The notes about one field. */
export function notesAbout(notes: readonly ConversionNote[], field: string): ConversionNote[] {
  return notes.filter((n) => n.field === field);
}

/** The one note about `field` (fails when there is not exactly one). */
export function noteAbout(notes: readonly ConversionNote[], field: string): ConversionNote {
  const found = notesAbout(notes, field);
  if (found.length !== 1)
    throw new Error(`expected one note about ${field}, got ${found.length}: ${JSON.stringify(notes, null, 1)}`);
  return found[0];
}

/** An AWSNodeTemplate document whose spec is the given chunks of lines (each dedented on its own). */
export function awsNodeTemplate(name: string, ...specChunks: string[]): string {
  return `apiVersion: karpenter.k8s.aws/v1alpha1
kind: AWSNodeTemplate
metadata:
  name: ${name}
spec:
${specChunks.map(indent).join("")}`;
}

/** A Provisioner document whose spec is the given chunks of lines (each dedented on its own). */
export function provisioner(name: string, ...specChunks: string[]): string {
  return `apiVersion: karpenter.sh/v1alpha5
kind: Provisioner
metadata:
  name: ${name}
spec:
${specChunks.map(indent).join("")}`;
}

/** Removes the common indentation of `lines` and indents them by two spaces (under `spec:`). */
function indent(lines: string): string {
  const list = lines.split("\n").filter((l) => l.trim() !== "");
  const common = Math.min(...list.map((l) => l.length - l.trimStart().length));
  return list
    .map((l) => `  ${l.slice(common)}`)
    .join("\n")
    .concat("\n");
}
