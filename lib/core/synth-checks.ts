import { IConstruct } from "constructs";
import { Annotations, TerraformStack } from "cdktf";
import { KarpenterValidationError } from "./errors";

/** A check that needs the whole app (other constructs): the problems it finds, none when all is well. */
export type SynthCheck = () => KarpenterValidationError[];

interface Registered {
  readonly construct: IConstruct;
  readonly check: SynthCheck;
}

/** The checks of each stack, in the order they were added. */
const byStack = new WeakMap<TerraformStack, Registered[]>();
/** Above zero while {@link runAllSynthChecks} runs the checks itself: the stack validations then stay quiet. */
let collecting = 0;

/**
 * Registers a cross-construct check of `construct`, run when the stack synthesizes. All checks of a
 * stack run together, in one validation on the stack: a problem anywhere makes synth throw ONE
 * {@link KarpenterValidationError} that lists every problem of the stack (cdktf's own validations
 * return strings, which cdktf would wrap in a plain `Error`). Checks of a construct that left the
 * tree (an install that failed and removed itself) are skipped.
 */
export function addSynthCheck(construct: IConstruct, check: SynthCheck): void {
  const stack = TerraformStack.of(construct);
  let list = byStack.get(stack);
  if (!list) {
    const registered: Registered[] = [];
    list = registered;
    byStack.set(stack, registered);
    stack.node.addValidation({
      validate: () => {
        if (collecting > 0) return [];
        const problems = runStackChecks(stack);
        if (problems.length > 0)
          throw KarpenterValidationError.combine(
            problems,
            problems.length > 1 ? `${problems.length} problems found at synth in stack ${stack.node.id}` : undefined,
          );
        return [];
      },
    });
  }
  list.push({ construct, check });
}

/** A warning a synth check finds: the construct it is on and its text. */
export interface SynthWarning {
  readonly on: IConstruct;
  readonly message: string;
}

/**
 * Registers a cross-construct warning of `construct` ({@link addSynthCheck}): `find` runs in each
 * validation pass until it finds something, which is added as a warning annotation once. Annotations
 * stay on the construct, so a later pass (`validateApp`, then `app.synth()`) must not add it again:
 * the check itself keeps no flag.
 */
export function addSynthWarning(construct: IConstruct, find: () => SynthWarning | undefined): void {
  let added = false;
  addSynthCheck(construct, () => {
    if (added) return [];
    const warning = find();
    if (warning !== undefined) {
      added = true;
      Annotations.of(warning.on).addWarning(warning.message);
    }
    return [];
  });
}

/** The problems of every registered check of `stack`. */
export function runStackChecks(stack: TerraformStack): KarpenterValidationError[] {
  return inOnePass(() => (byStack.get(stack) ?? []).filter((r) => inTree(r.construct)).flatMap((r) => r.check()));
}

/** Values computed once per validation pass (the tree does not change while checks run). */
let pass: Map<unknown, unknown> | undefined;

/**
 * Runs `body` as one validation pass: {@link oncePerPass} values are shared inside it. Passes nest
 * (the outer one wins), so `validateApp` can make all stacks one pass.
 */
export function inOnePass<T>(body: () => T): T {
  if (pass) return body();
  pass = new Map();
  try {
    return body();
  } finally {
    pass = undefined;
  }
}

/**
 * `compute()` once per validation pass and `key` (e.g. an index of the app that every check of a
 * kind reads), so that checks scan the app once, not once each; outside a pass it just computes.
 */
export function oncePerPass<T>(key: unknown, compute: () => T): T {
  if (!pass) return compute();
  if (!pass.has(key)) pass.set(key, compute());
  return pass.get(key) as T;
}

/**
 * Runs `body` while the stack validations registered by {@link addSynthCheck} stay quiet (the caller
 * runs the checks itself with {@link runStackChecks}).
 */
export function withChecksCollected<T>(body: () => T): T {
  collecting++;
  try {
    return body();
  } finally {
    collecting--;
  }
}

/** True while every ancestor of `c` still holds it (a failed constructor may remove itself). */
function inTree(c: IConstruct): boolean {
  for (let x: IConstruct = c; x.node.scope; x = x.node.scope) {
    if (x.node.scope.node.tryFindChild(x.node.id) !== x) return false;
  }
  return true;
}
