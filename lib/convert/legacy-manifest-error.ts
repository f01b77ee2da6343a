import type { ErrorCode } from "../core/error-codes";
import { KarpenterValidationError } from "../core/errors";

/**
 * The error {@link convertLegacyManifests} throws for input it cannot convert: a YAML syntax
 * error, a document that is not a mapping, a Karpenter object without `metadata.name`, a field
 * of the wrong type, two objects of the same kind and name. Nothing is returned when it is
 * thrown: the whole call fails.
 *
 * The message names the document (1-based) and, when known, its line, e.g.
 * `document 2 (line 14): spec.ttlSecondsAfterEmpty = "30s" is invalid: a whole number of seconds (≥ 0) [CONVERT_WRONG_TYPE]`.
 */
export class LegacyManifestError extends KarpenterValidationError {
  /** 1-based index of the YAML document that holds the problem. */
  public readonly document: number;
  /** 1-based line of the problem in the input text. @default unset when unknown */
  public readonly line?: number;

  /**
   * @param code the stable code of the rule (see lib/core/error-codes.ts)
   * @param document 1-based index of the document
   * @param line 1-based line in the input, if known
   * @param field the dot path inside the document (e.g. `spec.requirements[0].values`)
   * @param value the rejected value
   * @param allowed what would have been accepted
   */
  constructor(
    code: ErrorCode,
    document: number,
    line: number | undefined,
    field: string,
    value: unknown,
    allowed: string,
  ) {
    super(
      code,
      line === undefined ? `document ${document}` : `document ${document} (line ${line})`,
      field,
      value,
      allowed,
    );
    this.name = "LegacyManifestError";
    this.document = document;
    this.line = line;
  }

  /**
   * The error for YAML the parser rejects, e.g.
   * `document 2 (line 11, column 3): YAML syntax error: Map keys must be unique`; `field` is `yaml`
   * and `value` the text of the offending line.
   * @param document 1-based index of the document
   * @param line 1-based line, if known
   * @param column 1-based column, if known
   * @param source the text of that line, if known
   * @param problem the parser's description
   */
  public static syntax(
    document: number,
    line: number | undefined,
    column: number | undefined,
    source: string | undefined,
    problem: string,
  ): LegacyManifestError {
    const e = new LegacyManifestError("CONVERT_YAML", document, line, "yaml", source, `YAML syntax: ${problem}`);
    const at = line === undefined ? "" : column === undefined ? ` (line ${line})` : ` (line ${line}, column ${column})`;
    e.message = `document ${document}${at}: YAML syntax error: ${problem} [${e.code}]`;
    return e;
  }
}
