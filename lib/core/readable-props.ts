import { IConstruct } from "constructs";
import { isPlainObject } from "./deep-merge";
import { KarpenterValidationError } from "./errors";

/**
 * How many plain maps and lists the walk enters (the props object itself the first): as deep as the chart values'
 * own limit (MAX_VALUES_DEPTH in helm/release-values.ts) plus the props level, so that a value nested deeper is
 * refused by that check (HELM_VALUES_TOO_DEEP) rather than walked here to its end.
 */
const MAX_WALK_DEPTH = 66;

/**
 * The most values (list items and map entries, all levels together) the props of one construct may hold: no Kubernetes
 * object can carry more. The API server takes at most 3 MiB of JSON in one request (MaxRequestBodyBytes, k8s.io/apiserver
 * v0.36.3 pkg/server/config.go:474), and in JSON every value takes at least two bytes (`0,`), so 1,572,864 values already
 * fill it. Beyond it the props are refused before any check walks them: a list of ten million items (or a Proxy claiming
 * a billion) would otherwise exhaust memory or time in the walks.
 */
export const MAX_PROP_VALUES = 1_572_864;

/** Where the props hold more values than {@link MAX_PROP_VALUES}: the list that alone is longer, or the place the count passed it. */
export interface OversizedPlace {
  /** The list (`requirements`) or, when many lists and maps add up, the place where the count passed the bound. */
  readonly path: string;
  /** The list's length, or the values counted up to that place. */
  readonly size: number;
  /** Whether one list alone is longer than the bound. */
  readonly oneList: boolean;
}

/** The `allowed` text of an oversized place, shared by the node objects' error and the other constructs'. */
export function oversizedText(place: OversizedPlace): string {
  const what = place.oneList
    ? `a list of ${place.size.toLocaleString("en-US")} items`
    : `${place.size.toLocaleString("en-US")} values (list items and map entries) counted by ${place.path}`;
  return `at most ${MAX_PROP_VALUES.toLocaleString("en-US")} values in the props of one construct, got ${what}: no Kubernetes object can carry that many (the API server takes at most 3 MiB of JSON in one request, and each value takes at least 2 bytes), and the props are not checked further`;
}

/** One place of the props that throws when read. */
interface UnreadablePlace {
  readonly path: string;
  readonly reason: string;
}

/** The path of a map entry: `settings.featureGates` for a name, `tags["team/a"]` for any other key. */
const entryPath = (path: string, key: string) =>
  path === "" ? key : /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Whether the walk enters `value`: a list, or an object written as `{ … }` (its prototype null or a realm's
 * Object.prototype, as isPlainObject in deep-merge.ts). A construct, a token (IResolvable) or any other class
 * instance is not entered, its properties not read. Throws for a revoked Proxy (every look at one throws).
 */
function entered(value: unknown): boolean {
  return Array.isArray(value) || isPlainObject(value);
}

/**
 * Every place of `props` that throws when read ({@link walkProps}).
 * @param known keys read besides the own keys of `props` (a prop inherited from its prototype)
 */
export function findUnreadable(props: unknown, known: readonly string[] = []): UnreadablePlace[] {
  return walkProps(props, known).unreadable;
}

/**
 * One iterative walk over the plain maps and lists of `props` only (constructs, tokens and class instances are left
 * alone), each object once (a shared or cyclic one is not walked again: the cycle checks of the props that must not
 * hold one report it), at most {@link MAX_WALK_DEPTH} levels deep, finding:
 * - `unreadable`: every place that throws when read: a revoked Proxy (Array.isArray and Object.getPrototypeOf throw
 *   on one), a Proxy whose ownKeys (or get) trap throws, a getter that throws;
 * - `protoKeys`: the path of every own key named `__proto__` of a map (JSON.parse makes one), sorted. Such an entry is
 *   lost on the way to the Terraform JSON and the Helm values: token resolution and the merges copy maps by
 *   assignment, where "__proto__" sets the copy's prototype instead of adding a key (fresh tester 31 H01, H22:
 *   selector tags { "__proto__": "x" } were written as {}; Karpenter's `tags` likewise lost the entry);
 * - `oversized`: where the props hold more than {@link MAX_PROP_VALUES} values; the walk stops there, so the other two
 *   are incomplete and the caller reports this alone.
 * @param known keys read besides the own keys of `props` (a prop inherited from its prototype)
 */
export function walkProps(
  props: unknown,
  known: readonly string[] = [],
): { readonly unreadable: UnreadablePlace[]; readonly protoKeys: string[]; readonly oversized?: OversizedPlace } {
  const found: UnreadablePlace[] = [];
  const protoKeys: string[] = [];
  const seen = new Set<object>();
  let counted = 0;
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: props, path: "", depth: 1 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    const field = path === "" ? "props" : path;
    let walk: boolean;
    try {
      walk = entered(value);
    } catch (e) {
      found.push({ path: field, reason: message(e) });
      continue;
    }
    if (!walk || seen.has(value as object) || depth > MAX_WALK_DEPTH) continue;
    seen.add(value as object);
    const children: { value: unknown; path: string; depth: number }[] = [];
    try {
      // the length first: listing the keys of a list of ten million (or of a Proxy claiming a billion) is the crash
      const length = Array.isArray(value) ? value.length : undefined;
      if (length !== undefined && length > MAX_PROP_VALUES)
        return {
          unreadable: found,
          protoKeys: protoKeys.sort(),
          oversized: { path: field, size: length, oneList: true },
        };
      const keys = length !== undefined ? Array.from({ length }, (_, i) => String(i)) : Object.keys(value as object);
      counted += keys.length;
      if (counted > MAX_PROP_VALUES)
        return {
          unreadable: found,
          protoKeys: protoKeys.sort(),
          oversized: { path: field, size: counted, oneList: false },
        };
      if (path === "") for (const k of known) if (!keys.includes(k)) keys.push(k);
      for (const k of keys) {
        const childPath = Array.isArray(value) ? `${field}[${k}]` : entryPath(path, k);
        if (k === "__proto__" && !Array.isArray(value)) protoKeys.push(childPath);
        try {
          children.push({ value: (value as Record<string, unknown>)[k], path: childPath, depth: depth + 1 });
        } catch (e) {
          // a getter (or a Proxy's get trap) that throws: named at its own key
          found.push({ path: childPath, reason: message(e) });
        }
      }
    } catch (e) {
      // a Proxy whose ownKeys trap throws: its keys cannot be listed
      found.push({ path: field, reason: message(e) });
      continue;
    }
    // reversed, so that the places are found (and reported) in the order of the props
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return { unreadable: found, protoKeys: protoKeys.sort() };
}

/**
 * Refuses props of which some place throws when read, all such places at once, before any other check reads
 * them: each check would otherwise escape as the TypeError or Error of whichever check read the place first
 * (fresh11 X-1..X-9). The props of Karpenter and of the building blocks a user creates directly
 * (KarpenterRelease, KarpenterCrdRelease, KarpenterNodeRole, KarpenterControllerRole, InterruptionQueue).
 * Node objects refuse the same as NODE_VALUE_UNREADABLE (nodes/manifests.ts checkPropsWalkable).
 * @param known the props' keys (read even when only inherited)
 * @throws KarpenterValidationError PROPS_VALUE_TOO_LARGE (alone) for more values than {@link MAX_PROP_VALUES};
 *   PROPS_VALUE_UNREADABLE naming each place (`values.controller.env[0]`); else
 *   PROPS_VALUE_PROTO_KEY naming each own `__proto__` key of a map (`tags["__proto__"]`), found by the same walk
 */
export function checkPropsReadable(where: IConstruct, props: unknown, known: readonly string[] = []): void {
  const { unreadable: places, protoKeys, oversized } = walkProps(props, known);
  if (oversized)
    throw new KarpenterValidationError(
      "PROPS_VALUE_TOO_LARGE",
      where,
      oversized.path,
      `(${oversized.oneList ? `a list of ${oversized.size} items` : `${oversized.size} values`})`,
      oversizedText(oversized),
    );
  if (places.length === 0) {
    checkNoProtoKeys(where, protoKeys);
    return;
  }
  const errors = places.map(
    (p) =>
      new KarpenterValidationError(
        "PROPS_VALUE_UNREADABLE",
        where,
        p.path,
        "(a value that cannot be read)",
        `a value the library can read: reading ${p.path} threw "${p.reason}" (a revoked Proxy, or an object whose properties or keys throw), so it can be neither checked nor written to Terraform`,
      ),
  );
  throw KarpenterValidationError.combine(
    errors,
    errors.length > 1 ? `${errors.length} unreadable values in the props of ${where.node.path || "<root>"}` : undefined,
  );
}

/**
 * Refuses the own `__proto__` keys {@link walkProps} found in the props of Karpenter or a building block, all at once:
 * the entry would be dropped from the Terraform JSON or the Helm values without a word.
 */
function checkNoProtoKeys(where: IConstruct, paths: readonly string[]): void {
  if (paths.length === 0) return;
  const errors = paths.map(
    (path) =>
      new KarpenterValidationError(
        "PROPS_VALUE_PROTO_KEY",
        where,
        path,
        "(a key named __proto__)",
        `a key other than "__proto__": the Terraform JSON and the Helm values are written through JavaScript objects, where "__proto__" sets an object's prototype instead of adding a key, so this entry would be dropped without a word (tags { "__proto__": "x" } would tag nothing). Rename the key (a map read with JSON.parse keeps "__proto__" as a key of its own)`,
      ),
  );
  throw KarpenterValidationError.combine(
    errors,
    errors.length > 1 ? `${errors.length} __proto__ keys in the props of ${where.node.path || "<root>"}` : undefined,
  );
}

/**
 * A copy of `props` read once: every plain map and list (as the walk of {@link findUnreadable} enters them) copied,
 * each property read once into a data property, so that a getter (or a Proxy's get trap) that answers differently on
 * each read cannot pass the checks with one value and be written to Terraform with another (fresh18 S-3). Constructs,
 * tokens and other class instances are kept, not copied; an object met twice is copied once (shared stays shared); a
 * sparse list keeps its holes (the list checks name them); below {@link MAX_WALK_DEPTH} levels the value is kept as
 * it is (the depth checks refuse it). Call it after the props were found readable.
 * @param known keys read besides the own keys of `props` (a prop inherited from its prototype)
 */
export function settledProps<T>(props: T, known: readonly string[] = []): T {
  const copies = new Map<object, unknown>();
  const copy = (value: unknown, depth: number): unknown => {
    if (depth > MAX_WALK_DEPTH || !entered(value)) return value;
    const done = copies.get(value as object);
    if (done !== undefined) return done;
    if (Array.isArray(value)) {
      const out: unknown[] = new Array(value.length);
      copies.set(value, out);
      for (const k of Object.keys(value))
        if (/^(0|[1-9]\d*)$/.test(k)) out[Number(k)] = copy(value[Number(k)], depth + 1);
      return out;
    }
    const source = value as Record<string, unknown>;
    const out = Object.create(Object.getPrototypeOf(source)) as Record<string, unknown>;
    copies.set(source, out);
    const keys = Object.keys(source);
    if (depth === 1) for (const k of known) if (!keys.includes(k) && k in source) keys.push(k);
    for (const k of keys)
      Object.defineProperty(out, k, {
        value: copy(source[k], depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  return copy(props, 1) as T;
}
