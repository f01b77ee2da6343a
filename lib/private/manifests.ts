import { IConstruct } from "constructs";
import { ITerraformDependable, TerraformResource, TerraformStack } from "cdktf";

/** The path a construct `id` under `scope` will have (for errors thrown before it exists). */
export function constructPath(scope: IConstruct, id: string): string {
  return scope.node.path ? `${scope.node.path}/${id}` : id;
}

/**
 * Orders what `scope` will create after `target`: returns `[target]` when both are in the same
 * stack (for `depends_on`), otherwise makes the scope's stack depend on the target's stack
 * (`cdktf deploy` / `destroy` then run the stacks in order) and returns nothing.
 */
export function orderAfter(scope: IConstruct, target: TerraformResource): ITerraformDependable[] {
  const mine = TerraformStack.of(scope);
  const theirs = TerraformStack.of(target);
  if (mine === theirs) return [target];
  if (!mine.dependencies.includes(theirs)) mine.addDependency(theirs);
  return [];
}

/**
 * The `spec` object of a manifest: unset (undefined) fields dropped, and the keys of every plain
 * object sorted, so the same props always give byte-identical JSON whatever order they were
 * written in. Arrays keep their order (it is meaningful); tokens and other non-plain objects
 * are kept as they are.
 */
export function specObject<T extends object>(spec: T): { [key: string]: unknown } {
  return clean(spec) as { [key: string]: unknown };
}

function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: { [key: string]: unknown } = {};
    for (const key of Object.keys(value).sort()) {
      const x = (value as { [key: string]: unknown })[key];
      if (x !== undefined) out[key] = clean(x);
    }
    return out;
  }
  return value;
}
