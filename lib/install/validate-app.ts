import { IConstruct } from "constructs";
import { TerraformStack } from "cdktf";
import { ValidationProblem } from "../core/errors";
import { inOnePass, runStackChecks, withChecksCollected } from "../core/synth-checks";

/** A message attached to a construct: a warning, or a failure of a validation that is not this library's. */
export interface ValidationMessage {
  /** The construct path, e.g. `eks/karpenter`. */
  readonly path: string;
  /** The message text. */
  readonly message: string;
}

/** What {@link validateApp} found. */
export interface AppValidationReport {
  /**
   * The problems this library's synth-time checks found (the ones `app.synth()` would throw), each
   * with `path`, `field` and `value`. In TypeScript each is a `KarpenterValidationError`.
   */
  readonly errors: ValidationProblem[];
  /** Failures of other validations: cdktf's own (e.g. a stack without a provider) and any your constructs add. */
  readonly otherErrors: ValidationMessage[];
  /**
   * Every warning annotation (`Annotations.of(x).addWarning`) in the app or stack, this library's
   * and others', in tree order. The cdktf CLI prints these at `cdktf synth`; a plain
   * `node main.js` or a test sees them only here.
   */
  readonly warnings: ValidationMessage[];
}

/** The metadata type cdktf gives warning annotations (`AnnotationMetadataEntryType.WARN`). */
const WARNING = "@cdktf/warn";

/**
 * Runs every validation of an app (or of one stack) without synthesizing, and returns what it
 * found instead of throwing: this library's synth-time checks (duplicate names, IAM name clashes,
 * replicas vs system nodes, discovery tags…), other validations, and the warnings, which the cdktf
 * CLI shows at `cdktf synth` but a test or a plain `node main.js` would not see. Constructor-time
 * problems are not here: those throw a {@link KarpenterValidationError} when the construct is created.
 * Aspects are not invoked (cdktf invokes them at synth).
 *
 * ```ts
 * const report = validateApp(app);
 * expect(report.errors).toEqual([]);
 * expect(report.warnings.map((w) => w.message)).toEqual([]);
 * ```
 * @param scope an App, or a stack (then only that stack)
 */
export function validateApp(scope: IConstruct): AppValidationReport {
  const all = scope.node.findAll();
  const stacks = all.filter((c): c is TerraformStack => TerraformStack.isStack(c));
  return withChecksCollected(() => {
    const errors = inOnePass(() => stacks.flatMap((s) => runStackChecks(s)));
    // the other validations may add warnings (some of this library's do), so they run before the warnings are read
    const otherErrors = all.flatMap((c) => c.node.validate().map((message) => ({ path: c.node.path, message })));
    const warnings = all.flatMap((c) =>
      c.node.metadata.filter((m) => m.type === WARNING).map((m) => ({ path: c.node.path, message: String(m.data) })),
    );
    return { errors, otherErrors, warnings };
  });
}

/**
 * App-wide validation for every language: {@link validateApp} and {@link formatValidationReport} of
 * the TypeScript API as static methods (jsii bindings carry no module-level function).
 *
 * ```ts
 * const report = AppValidation.validate(app);
 * if (report.errors.length > 0) throw new Error(AppValidation.formatReport(report));
 * ```
 */
export class AppValidation {
  /**
   * Runs every validation of an app (or of one stack) without synthesizing and returns what it
   * found instead of throwing: this library's synth-time checks, other validations and the
   * warnings. See {@link validateApp}.
   * @param scope an App, or a stack (then only that stack)
   */
  public static validate(scope: IConstruct): AppValidationReport {
    return validateApp(scope);
  }

  /**
   * The report as text, one line per finding (`error: …`, `warning: …`), or an empty string when
   * there is nothing. See {@link formatValidationReport}.
   * @param report what {@link AppValidation.validate} returned
   */
  public static formatReport(report: AppValidationReport): string {
    return formatValidationReport(report);
  }

  private constructor() {}
}

/**
 * The report as text, one line per finding (`error`, `warning`), or an empty string when there is
 * nothing. For plain `node main.js` runs: `console.error(formatValidationReport(validateApp(app)))`.
 */
export function formatValidationReport(report: AppValidationReport): string {
  return [
    ...report.errors.map((e) => `error: ${e.message}`),
    ...report.otherErrors.map((e) => `error: [${e.path}] ${e.message}`),
    ...report.warnings.map((w) => `warning: [${w.path}] ${w.message}`),
  ].join("\n");
}
