import { IConstruct } from "constructs";
import { TerraformStack } from "cdktf";
import { touch } from "./app-index";

/*
 * Nothing half-built: a constructor that throws after it began to build (or after a building block
 * made a shared construct) leaves the tree as it found it.
 */

/**
 * Undoes a constructor that throws after it began to build: removes `construct` from its parent and
 * every construct added directly under its stack since this call (the shared partition / region /
 * caller data sources of aws-context, which one construct creates for all), so that a caller that
 * catches the error finds nothing half-built, synthesizes none of it, and may retry with the same id.
 * @returns the undo, for the constructor's catch
 */
export function undoOnError(construct: IConstruct): () => void {
  const stack = construct.node.scopes.find((s): s is TerraformStack => TerraformStack.isStack(s));
  const before = new Set(stack?.node.children ?? []);
  return () => {
    construct.node.scope?.node.tryRemoveChild(construct.node.id);
    for (const c of stack?.node.children ?? []) if (!before.has(c)) stack!.node.tryRemoveChild(c.node.id);
    touch();
  };
}
