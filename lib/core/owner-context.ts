import type { ErrorCode } from "./error-codes";
import { IConstruct } from "constructs";
import { KarpenterValidationError } from "./errors";
import { ownValue } from "./lookup";

/*
 * A building block that a composite builds (the Karpenter construct's node role, queue, charts…)
 * reports its problems where the user set the value: on the composite, under the composite's prop
 * (`nodeRole.roleName`), not on its own path under its own prop (`<path>/node-role: roleName`).
 * The composite says so when it builds the block ({@link buildAsPart}), with the map of the block's
 * fields to its own props: the wiring of the props it passes lives beside the props it passes. The
 * block applies it to the error it throws ({@link asPartProblems}). Not part of the public API.
 */

/** Whom a building block reports to, and the composite's prop of each of its fields. */
interface OwnerContext {
  readonly owner: IConstruct;
  /** Per field of the block (by first segment): the owner's prop; unlisted fields keep their name. */
  readonly fields: Readonly<Record<string, string>>;
}

/** Per composite, per id of a block it builds: the context that block reports under. */
const contexts = new WeakMap<IConstruct, Map<string, OwnerContext>>();

/**
 * Builds the block `id` of `owner` with `build`, the block reporting its problems on `owner` with
 * its fields renamed by `fields` (`{ roleName: "nodeRole.roleName" }`; a field the map renames to
 * a name without a dot, `systemNodeGroup`, is replaced whole, its index or key dropped).
 */
export function buildAsPart<T>(
  owner: IConstruct,
  id: string,
  fields: Readonly<Record<string, string>>,
  build: () => T,
): T {
  const byId = contexts.get(owner) ?? new Map<string, OwnerContext>();
  contexts.set(owner, byId);
  byId.set(id, { owner, fields });
  return build();
}

/**
 * Whether a composite built `block` ({@link buildAsPart}) after checking every prop it passes on to it, all at
 * once and under its own props (`Karpenter`: install/karpenter-props.ts). The block then skips those checks, so
 * each runs once (and warns once), and makes only the checks of what the composite did not check: the values it
 * wires itself.
 */
export function checkedByOwner(block: IConstruct): boolean {
  const scope = block.node.scope;
  return scope !== undefined && contexts.get(scope)?.get(block.node.id) !== undefined;
}

/**
 * `error` as the building block `block` reports it: when a composite built it ({@link buildAsPart}),
 * each problem raised inside the block (at its path or below) re-told on the composite under the
 * composite's prop, problems elsewhere kept; otherwise `error` itself.
 */
export function asPartProblems(block: IConstruct, error: unknown): unknown {
  const scope = block.node.scope;
  const context = scope ? contexts.get(scope)?.get(block.node.id) : undefined;
  if (context === undefined || !KarpenterValidationError.isError(error)) return error;
  const own = block.node.path;
  const inside = (path: string) => path === own || path.startsWith(`${own}/`);
  if (!error.problems.some((p) => inside(p.path))) return error;
  const { owner, fields } = context;
  const problems = error.problems.map((p) => {
    if (!inside(p.path)) return p;
    const head = /^[^.[]+/.exec(p.field)?.[0] ?? p.field;
    const renamed = ownValue(fields, head);
    const field =
      renamed === undefined
        ? p.field
        : renamed.includes(".") || renamed === head
          ? renamed + p.field.slice(head.length)
          : renamed;
    return new KarpenterValidationError(p.code as ErrorCode, owner, field, p.value, p.allowed);
  });
  return KarpenterValidationError.combine(
    problems,
    problems.length > 1 ? `${problems.length} problems in the props of ${owner.node.path}` : undefined,
  );
}
