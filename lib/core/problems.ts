import { IConstruct } from "constructs";
import { KarpenterValidationError } from "./errors";

/*
 * Gathering every problem of one construct's props, so that a user fixes them in one round:
 * each independent check runs under {@link Problems.check}, and the constructor throws once,
 * before it creates any child, with all of them (KarpenterValidationError.combine).
 */

/** The problems found in one construct's props. */
export class Problems {
  private readonly list: KarpenterValidationError[] = [];
  /** The errors as recorded: one error may carry several problems under its own heading. */
  private readonly errors: KarpenterValidationError[] = [];

  /**
   * Runs one check that does not depend on the others: a KarpenterValidationError it throws is
   * recorded (each of the problems it carries) and `undefined` returned; other errors pass through.
   */
  public check<T>(check: () => T): T | undefined {
    let result: T | undefined;
    this.passes(() => {
      result = check();
    });
    return result;
  }

  /**
   * Runs one check like {@link check}, for a caller that skips the checks depending on it when it fails.
   * @returns true when the check passed
   */
  public passes(check: () => void): boolean {
    try {
      check();
      return true;
    } catch (e) {
      if (!(e instanceof KarpenterValidationError)) throw e;
      this.add(e);
      return false;
    }
  }

  /** Records a problem found without a throwing check. */
  public add(problem: KarpenterValidationError): void {
    this.errors.push(problem);
    this.list.push(...problem.problems);
  }

  /** The problems recorded so far (an error that gathers several counts as each of them). */
  public get all(): readonly KarpenterValidationError[] {
    return this.list;
  }

  /** The errors as recorded, in order: an error that gathers several problems is one entry. */
  public get recorded(): readonly KarpenterValidationError[] {
    return this.errors;
  }

  /**
   * Throws the recorded problems as one error (a single error as itself, so that one that already
   * gathers several keeps its heading; several under the heading `<n> problems in the props of
   * <path>`); does nothing when there are none.
   * @param options `remove`: `where` is the construct whose constructor checks its props; it is
   * removed from its parent before the error is thrown
   */
  public throwIfAny(where: IConstruct | string, options: { remove?: boolean } = {}): void {
    if (this.list.length === 0) return;
    // a construct whose props fail leaves the tree: a caller that catches the error synthesizes nothing half-built
    if (options.remove && typeof where !== "string") where.node.scope?.node.tryRemoveChild(where.node.id);
    if (this.errors.length === 1) throw this.errors[0];
    const path = typeof where === "string" ? where : where.node.path || "<root>";
    throw KarpenterValidationError.combine(
      this.list,
      this.list.length > 1 ? `${this.list.length} problems in the props of ${path}` : undefined,
    );
  }
}

/**
 * Runs `body` with a fresh {@link Problems}, then throws what it recorded (see {@link Problems.throwIfAny}).
 * @returns what `body` returned, when no problem was found
 */
export function allProblems<T>(where: IConstruct | string, body: (problems: Problems) => T): T {
  const problems = new Problems();
  const result = problems.check(() => body(problems));
  problems.throwIfAny(where);
  return result as T;
}

/** Edit distance with adjacent transpositions (optimal string alignment), for "did you mean" on a misspelt key: `verison` is one edit from `version`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The candidate closest to a misspelt `key` (case ignored), when it is close enough to be a typo:
 * by default at most one edit (a transposition counts as one) per six characters of `key`, at least
 * one, e.g. `verison` → `version`, `replica` → `replicas`.
 * @param maxEdits the most edits a typo of `candidate` may have, when the default does not suit
 */
export function nearestKey(
  key: string,
  candidates: readonly string[],
  maxEdits?: (candidate: string) => number,
): string | undefined {
  const typo = key.toLowerCase();
  const limit = (c: string) => (maxEdits ? maxEdits(c) : Math.max(1, Math.floor(typo.length / 6)));
  let best: { key: string; d: number } | undefined;
  for (const c of candidates) {
    const d = editDistance(c.toLowerCase(), typo);
    if (d <= limit(c) && (!best || d < best.d)) best = { key: c, d };
  }
  return best?.key;
}
