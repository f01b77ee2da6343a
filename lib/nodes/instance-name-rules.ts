/*
 * What an instance type's name alone decides about its labels. Karpenter derives four labels from the name (aws/
 * karpenter-provider-aws v1.15.0 pkg/providers/instancetype/types.go computeRequirements):
 * - :52 `instanceTypeScheme = regexp.MustCompile(`(^[a-z]+)(\-[0-9]+tb)?([0-9]+).*\.`)`, and :407-411: when the
 *   type matches, instance-category is the leading letters and instance-generation the digits after them (m5.large →
 *   "m", "5"; u-6tb1.metal → "u", "1"); otherwise both labels stay DoesNotExist (:363, :366);
 * - :412-416 `strings.Split(type, ".")`: when there are two parts, instance-family is the first and instance-size the
 *   second (m5.large → "m5", "large"); otherwise both stay DoesNotExist (:365, :368).
 * So `In` sets of types against families, categories, generations or sizes, and of families against categories or
 * generations, can leave no name at all, whatever EC2 offers.
 */

/** One requirement or template label on a key, as the NodePool's satisfiability rule reads it. */
export interface NameConstraint {
  /** The stable label key. */
  readonly key: string;
  /** The field it is set in: `requirements[1]` or `labels["k"]`. */
  readonly field: string;
  readonly value: unknown;
  /** How messages show it: `kubernetes.io/arch In ["amd64"]`. */
  readonly shown: string;
  readonly operator: string;
  readonly values: readonly string[];
}

import {
  CATEGORY_KEY,
  FAMILY_KEY,
  GENERATION_KEY,
  INSTANCE_TYPE_KEY,
  labelsOfName,
  NAME_KEYS,
  SIZE_KEY,
} from "../versions/instance-type-names";

/** A whole number as Karpenter's Gt / Lt read it (requirement.go: strconv.Atoi), or undefined. */
function integer(v: string): number | undefined {
  return /^-?[0-9]+$/.test(v) ? Number(v) : undefined;
}

const VALUE_SETS = new WeakMap<readonly string[], ReadonlySet<string>>();
/** A constraint's values as a Set, made once per list: admits() runs for every candidate against every constraint. */
function valueSet(values: readonly string[]): ReadonlySet<string> {
  let set = VALUE_SETS.get(values);
  if (!set) VALUE_SETS.set(values, (set = new Set(values)));
  return set;
}

/**
 * Whether a label value (undefined: the label is absent) satisfies one constraint, or undefined when the constraint is
 * not readable (left to the CRD rules). Karpenter's semantics (kubernetes-sigs/karpenter pkg/scheduling/
 * requirement.go, requirements.go Intersects): NotIn is met by an absent label, Exists / In / Gt / Lt are not.
 */
export function admits(k: Pick<NameConstraint, "operator" | "values">, v: string | undefined): boolean | undefined {
  switch (k.operator) {
    case "In":
      return k.values.length === 0 ? undefined : v !== undefined && valueSet(k.values).has(v);
    case "NotIn":
      return v === undefined || !valueSet(k.values).has(v);
    case "Exists":
      return v !== undefined;
    case "DoesNotExist":
      return v === undefined;
    case "Gt":
    case "Gte":
    case "Lt":
    case "Lte": {
      const bound = k.values.length === 1 ? integer(k.values[0]) : undefined;
      if (bound === undefined) return undefined;
      const n = v === undefined ? undefined : integer(v);
      if (n === undefined) return false;
      if (k.operator === "Gt") return n > bound;
      if (k.operator === "Gte") return n >= bound;
      if (k.operator === "Lt") return n < bound;
      return n <= bound;
    }
    default:
      return undefined;
  }
}

/** The values some `In` constraint on `key` allows (the intersection of them all), or undefined when none is In. */
function inSet(constraints: readonly NameConstraint[], key: string): string[] | undefined {
  let out: string[] | undefined;
  for (const k of constraints)
    if (k.key === key && k.operator === "In") {
      // a Set: an In list may hold thousands of values, and includes() on each would be quadratic
      const allowed = new Set(k.values);
      out = [...new Set(out ?? k.values)].filter((v) => allowed.has(v));
    }
  return out;
}

/** The names (or `family.*`) that could meet the constraints, each with the labels its name gives it. */
interface Candidate {
  readonly shown: string;
  /** Known labels; a key in `free` has some value not known here. */
  readonly labels: { readonly [key: string]: string };
  readonly free: readonly string[];
}

/**
 * The candidates the constraints' `In` sets name: each instance type, or else each family (its types: any size), or
 * undefined when neither is constrained by `In` (nothing certain to judge).
 */
function candidates(constraints: readonly NameConstraint[]): Candidate[] | undefined {
  const types = inSet(constraints, INSTANCE_TYPE_KEY);
  if (types) return types.map((t) => ({ shown: t, labels: labelsOfName(t), free: [] }));
  const families = inSet(constraints, FAMILY_KEY);
  if (!families) return undefined;
  return families.map((f) => {
    // a family is the part before the one "." of its types' names: f.<size> (types.go:412-416)
    const { [INSTANCE_TYPE_KEY]: _t, [SIZE_KEY]: _s, ...labels } = labelsOfName(`${f}.x`);
    return { shown: `${f}.*`, labels, free: [INSTANCE_TYPE_KEY, SIZE_KEY] };
  });
}

/** Whether a candidate meets every constraint (an unreadable one counts as met). */
function meets(c: Candidate, constraints: readonly NameConstraint[]): boolean {
  return constraints.every((k) => {
    // a free label has some value, which only DoesNotExist refuses for certain
    if (c.free.includes(k.key)) return k.operator !== "DoesNotExist";
    return admits(k, c.labels[k.key]) !== false;
  });
}

/** How a candidate's labels are shown: `m5.large: family "m5", category "m", generation "5", size "large"`. */
function describe(c: Candidate): string {
  const parts = [FAMILY_KEY, CATEGORY_KEY, GENERATION_KEY, SIZE_KEY]
    .filter((k) => !c.free.includes(k) && k !== c.shown)
    .map((k) => `${k.split("/")[1]} ${c.labels[k] === undefined ? "none" : JSON.stringify(c.labels[k])}`);
  return `${c.shown}: ${parts.join(", ")}`;
}

/**
 * The constraint (on the name-derived labels, in the order given) that leaves no instance type name meeting it and
 * those before it, with what the candidate names are; undefined when some name meets them all or no `In` set of
 * types or families is given. The caller judges each key alone first and passes only keys free of tokens.
 */
export function unsatisfiableName(
  constraints: readonly NameConstraint[],
): { at: number; before: NameConstraint[]; names: string } | undefined {
  const own = constraints.filter((k) => NAME_KEYS.includes(k.key));
  if (own.some((k) => admits(k, undefined) === undefined && admits(k, "0") === undefined)) return undefined;
  for (let i = 1; i <= own.length; i++) {
    const prefix = own.slice(0, i);
    const list = candidates(prefix);
    if (!list || list.length === 0 || list.some((c) => meets(c, prefix))) continue;
    const names = list.slice(0, 4).map(describe).join("; ") + (list.length > 4 ? "; …" : "");
    return { at: constraints.indexOf(own[i - 1]), before: prefix.slice(0, -1), names };
  }
  return undefined;
}
