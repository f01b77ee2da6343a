import { nearestKey } from "../core/problems";
import type { Checker } from "../kubernetes/value-rules";
import { entry, isSet } from "../kubernetes/value-rules";
import { catalogueInstanceTypes, CATALOGUE_LABELS, instanceTypeFacts } from "../versions/instance-type-facts";
import { admits, type NameConstraint } from "./instance-name-rules";
import { INSTANCE_TYPE_KEY, NAME_KEYS } from "../versions/instance-type-names";
import type { NodeSelectorRequirement } from "./node-pool-spec";
import { stableLabelKey } from "./runtime-label-rules";

/*
 * Synth warnings for NodePool requirements the EC2 catalogue decides: the instance types Karpenter's website lists
 * (lib/versions/data/instance-type-facts.json, `npm run instance-type-facts`) with the labels it decides
 * (CATALOGUE_LABELS: architecture, CPU, memory, GPU, accelerator, local NVMe, bandwidths …). Warnings, not errors: AWS adds instance types, and a type missing from the snapshot may exist.
 */

/** The keys judged against the catalogue: the name-derived ones and the catalogue's. */
const KEYS: readonly string[] = [...NAME_KEYS, ...Object.values(CATALOGUE_LABELS)];

/** An EC2 instance type name, `<family>.<size>` (the well-known value rule's shape). */
const TYPE_NAME = /^[a-z][a-z0-9-]*\.[a-z0-9-]+$/;

/** The catalogue named in a warning: the page, its repository, commit and date. */
function catalogue(): string {
  const f = instanceTypeFacts();
  return `Karpenter's list of instance types (${f.file}, aws/karpenter-provider-aws@${f.commit.slice(0, 12)}, ${f.date})`;
}

/**
 * The requirements and template labels on {@link KEYS}, in order; undefined when one of them is not known at synth
 * (a token anywhere), so nothing is judged.
 */
function constraints(c: Checker, requirements: unknown, labels: unknown): NameConstraint[] | undefined {
  if (!isSet(requirements) || c.token(requirements) || !Array.isArray(requirements)) return undefined;
  const out: NameConstraint[] = [];
  for (const [i, r] of (requirements as NodeSelectorRequirement[]).entries()) {
    if (!isSet(r) || typeof r !== "object") continue;
    if (!c.known<unknown>(r)) {
      const written = (r as { key?: unknown }).key;
      if (typeof written !== "string" || !c.known(written) || KEYS.includes(stableLabelKey(written))) return undefined;
      continue;
    }
    const key = typeof r.key === "string" ? stableLabelKey(r.key) : "";
    if (!KEYS.includes(key)) continue;
    const values = r.values ?? [];
    if (typeof r.operator !== "string" || !Array.isArray(values) || !values.every((v) => typeof v === "string"))
      return undefined;
    const shown = `${r.key} ${r.operator}${values.length ? ` ${JSON.stringify(values)}` : ""}`;
    out.push({ key, field: `requirements[${i}]`, value: r, shown, operator: r.operator, values });
  }
  if (isSet(labels) && !c.token(labels) && typeof labels === "object")
    for (const [written, value] of Object.entries(labels as object)) {
      const key = stableLabelKey(written);
      if (!KEYS.includes(key)) continue;
      if (!c.known(value) || typeof value !== "string") return undefined;
      const shown = `label ${written}=${JSON.stringify(value)}`;
      out.push({ key, field: entry("labels", written), value, shown, operator: "In", values: [value] });
    }
  return out;
}

/**
 * Whether a constraint has a value the well-known label value rules refuse or warn about (`arch In [x86_64]`, an
 * upper-case family): those rules name it, and what the catalogue makes of it is not said again.
 */
function valueRulesSpeak(k: NameConstraint): boolean {
  if (k.operator !== "In" && k.operator !== "NotIn") return false;
  if (k.key === CATALOGUE_LABELS.arch) return k.values.some((v) => v !== "amd64" && v !== "arm64");
  return k.values.some((v) => !/^[a-z0-9][a-z0-9.-]*$/.test(v));
}

/** Whether an instance type's labels meet every constraint (one not readable counts as met). */
function meets(type: { readonly [key: string]: string }, list: readonly NameConstraint[]): boolean {
  return list.every((k) => admits(k, type[k.key]) !== false);
}

/**
 * The NodePool's synth warnings from the instance type catalogue: an instance-type value (shaped `<family>.<size>`)
 * the catalogue does not list, with the nearest listed one; else, requirements and labels that together leave no
 * listed instance type (`instance-type In [m7g.large]` with `kubernetes.io/arch In [amd64]`: m7g is arm64;
 * `instance-family In [g5]` with arch arm64), naming the one that empties the list and the ones before it. Karpenter
 * matches a NodePool's requirements against each instance type's labels (kubernetes-sigs/karpenter
 * pkg/scheduling/requirements.go Compatible; aws/karpenter-provider-aws instancetype/types.go computeRequirements
 * sets them from EC2's DescribeInstanceTypes). Nothing is judged when one of these requirements holds a token.
 * `owner` starts each warning (`NodePool default`).
 */
/** How many unlisted instance type names one warning names (each with its nearest listed name). */
const NAMED_AT_MOST = 10;

export function instanceTypeCatalogueWarnings(
  c: Checker,
  owner: string,
  requirements: unknown,
  labels: unknown,
): string[] {
  const list = constraints(c, requirements, labels);
  if (!list || list.length === 0 || list.some(valueRulesSpeak)) return [];
  const types = catalogueInstanceTypes();
  const names = types.map((t) => t[INSTANCE_TYPE_KEY]);
  const listed = new Set(names);
  const out: string[] = [];
  for (const k of list) {
    if (k.key !== INSTANCE_TYPE_KEY || k.operator !== "In") continue;
    const unlisted = [...new Set(k.values.filter((v) => TYPE_NAME.test(v) && !listed.has(v)))];
    if (unlisted.length === 0) continue;
    // one warning per requirement, with a did-you-mean for the first few only: the search is linear in the list, and a
    // requirement may hold thousands of names
    const named = unlisted.slice(0, NAMED_AT_MOST).map((v) => ({ v, near: nearestKey(v, names) }));
    const why =
      "Karpenter launches only instance types EC2 offers, so a name that is not one adds no instance type to the requirement (unless AWS added it after that list).";
    if (unlisted.length === 1) {
      const { v, near } = named[0];
      out.push(
        `${owner}: ${k.field} names the instance type ${JSON.stringify(v)}, which ${catalogue()} does not list${near ? `; did you mean ${JSON.stringify(near)}?` : ""} ${why}`,
      );
      continue;
    }
    const shown = named.map(
      ({ v, near }) => `${JSON.stringify(v)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}`,
    );
    const more = unlisted.length > NAMED_AT_MOST ? `, and ${unlisted.length - NAMED_AT_MOST} more` : "";
    out.push(
      `${owner}: ${k.field} names ${unlisted.length} instance types ${catalogue()} does not list: ${shown.join(", ")}${more}. ${why}`,
    );
  }
  // an unlisted type is warned about above: what it leaves is not judged
  if (out.length > 0) return out;
  for (let i = 0; i < list.length; i++) {
    const before = list.slice(0, i);
    const left = types.filter((t) => meets(t, before));
    if (left.some((t) => meets(t, [list[i]]))) continue;
    const k = list[i];
    if (i === 0) {
      out.push(
        `${owner}: ${k.field} (${k.shown}) matches no instance type of ${catalogue()}, so the NodePool launches no node unless AWS added one after that list.`,
      );
      break;
    }
    const values = [...new Set(left.map((t) => t[k.key] ?? "none"))];
    const shownValues = values.slice(0, 6).map((v) => (v === "none" ? v : JSON.stringify(v)));
    out.push(
      `${owner}: ${k.field} (${k.shown}) together with ${before.map((b) => `${b.field} (${b.shown})`).join(" and ")} leaves no instance type of ${catalogue()}: the ${left.length === 1 ? "instance type" : `${left.length} instance types`} the others allow${left.length <= 3 ? ` (${left.map((t) => t[INSTANCE_TYPE_KEY]).join(", ")})` : ""} ${left.length === 1 ? "has" : "have"} ${k.key} ${shownValues.join(", ")}${values.length > 6 ? ", …" : ""}. Karpenter ANDs the requirements (kubernetes-sigs/karpenter pkg/scheduling/requirements.go), so the NodePool launches no node unless AWS added an instance type that meets them all.`,
    );
    break;
  }
  return out;
}
