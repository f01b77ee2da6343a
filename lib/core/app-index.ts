import { IConstruct } from "constructs";
import { TerraformProvider, TerraformStack } from "cdktf";

/*
 * What the synth-time checks across constructs need, indexed once per app instead of walking the
 * construct tree once per construct (the walk per install made validation quadratic in a fleet):
 * - registries of this library's own constructs, kept per app root as they are created;
 * - per stack, the foreign constructs the checks look up (providers, add-ons, OIDC providers), from
 *   one walk of that stack, redone when the stack is validated again or the app grew.
 * Derived app-wide indexes (installs by cluster, node objects by install, ...) are cached with the
 * generation they were built at: every registration bumps it.
 */

let generation = 0;

/** Marks the app as changed: derived indexes are rebuilt on their next use. */
export function touch(): void {
  generation++;
}

/** True while the construct is in the tree (a failed constructor may have removed it or an ancestor). */
export function attached(c: IConstruct): boolean {
  for (let x: IConstruct = c; x.node.scope; x = x.node.scope) {
    if (x.node.scope.node.tryFindChild(x.node.id) !== x) return false;
  }
  return true;
}

const registries = new WeakMap<IConstruct, Map<string, unknown[]>>();

/** Adds an entry to the app's registry `name` (per app root). */
export function register<T>(scope: IConstruct, name: string, entry: T): void {
  const root = scope.node.root;
  let byName = registries.get(root);
  if (!byName) registries.set(root, (byName = new Map()));
  let list = byName.get(name);
  if (!list) byName.set(name, (list = []));
  list.push(entry);
  touch();
  // before the construct's own checks are added: its stack's index is then dropped before they run
  hookStack(TerraformStack.of(scope));
}

/** The entries of the app's registry `name`, in creation order (including entries of removed constructs: filter with {@link attached}). */
export function registered<T>(scope: IConstruct, name: string): readonly T[] {
  return (registries.get(scope.node.root)?.get(name) ?? []) as T[];
}

const derived = new WeakMap<IConstruct, Map<string, { generation: number; value: unknown }>>();

/** An app-wide index computed by `build` once per app state (rebuilt after any registration). */
export function appIndex<T>(scope: IConstruct, name: string, build: () => T): T {
  const root = scope.node.root;
  let byName = derived.get(root);
  if (!byName) derived.set(root, (byName = new Map()));
  const cached = byName.get(name);
  if (cached && cached.generation === generation) return cached.value as T;
  const value = build();
  byName.set(name, { generation, value });
  return value;
}

/** The foreign constructs of one stack that the checks look up. */
export interface StackIndex {
  /** Provider configurations by provider type (`aws`, `helm`, `kubernetes`), in tree order. */
  readonly providers: ReadonlyMap<string, readonly TerraformProvider[]>;
  /** Resources of the stack by Terraform type, for the types the checks look up (`aws_eks_addon`, `aws_iam_openid_connect_provider`). */
  readonly byType: ReadonlyMap<string, readonly IConstruct[]>;
}

/** Terraform resource types the checks look up in every stack. */
const INDEXED_TYPES = new Set(["aws_eks_addon", "aws_iam_openid_connect_provider"]);

const stackIndexes = new WeakMap<TerraformStack, { generation: number; index: StackIndex }>();
const hooked = new WeakSet<TerraformStack>();

/**
 * The index of a stack, from one walk of it. The stack's own validation (run first when the stack
 * is validated) drops it, so each synth sees the stack as it is then.
 */
export function stackIndex(stack: TerraformStack): StackIndex {
  const cached = stackIndexes.get(stack);
  if (cached && cached.generation === generation) return cached.index;
  hookStack(stack);
  const providers = new Map<string, TerraformProvider[]>();
  const byType = new Map<string, IConstruct[]>();
  for (const c of stack.node.findAll()) {
    // the symbol check, not instanceof: a second copy of cdktf (jest.isolateModules, two installs) makes its own classes
    if (TerraformProvider.isTerraformProvider(c)) {
      const type = c.terraformResourceType;
      providers.set(type, [...(providers.get(type) ?? []), c]);
      continue;
    }
    const type = (c as { terraformResourceType?: unknown }).terraformResourceType;
    if (typeof type === "string" && INDEXED_TYPES.has(type)) byType.set(type, [...(byType.get(type) ?? []), c]);
  }
  const index = { providers, byType };
  stackIndexes.set(stack, { generation, index });
  return index;
}

/** Adds (once) the validation that drops the stack's index when the stack is validated. */
function hookStack(stack: TerraformStack): void {
  if (hooked.has(stack)) return;
  hooked.add(stack);
  stack.node.addValidation({
    validate: () => {
      stackIndexes.delete(stack);
      return [];
    },
  });
}

/** Every stack of the app (tree order), found once per app state. */
export function stacksOf(scope: IConstruct): readonly TerraformStack[] {
  return appIndex(scope, "stacks", () =>
    scope.node.root.node.findAll().filter((c): c is TerraformStack => TerraformStack.isStack(c)),
  );
}
