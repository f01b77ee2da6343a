import * as fs from "fs";
import * as path from "path";
import {
  allErrorCodes,
  CHECKER_SUBJECTS,
  ERROR_CODES,
  ERROR_SUBJECTS,
  GENERIC_RULES,
  subjectOf,
} from "../../lib/core/error-codes";
import { KarpenterValidationError } from "../../lib/core/errors";
import { LegacyManifestError } from "../../lib/convert/legacy-manifest-error";

/*
 * The stable codes of KarpenterValidationError (lib/core/error-codes.ts): each listed one is
 * produced by some check of lib/, nothing unlisted is produced, and docs/error-codes.md lists them.
 */

const ROOT = path.resolve(__dirname, "../..");

function libSources(dir = path.join(ROOT, "lib")): { file: string; text: string }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return libSources(p);
    return e.name.endsWith(".ts") && p !== path.join(ROOT, "lib/core/error-codes.ts")
      ? [{ file: path.relative(ROOT, p), text: fs.readFileSync(p, "utf8") }]
      : [];
  });
}

const sources = libSources();
const all = sources.map((s) => s.text).join("\n");
/**
 * Codes written out where an error is made: `new KarpenterValidationError("X", …`, `c.fail("X", …`, `failKey("X", …`,
 * or a verdict `{ code: "X", message }` a rule returns for its caller to fail with.
 */
const written = new Set(
  [
    ...all.matchAll(
      /(?:new (?:KarpenterValidationError|LegacyManifestError)|\.fail|\.failKey|ctx\.fail)\(\s*"([A-Z][A-Z0-9_]*)"/g,
    ),
    ...all.matchAll(/\bcode: "([A-Z][A-Z0-9_]*)"/g),
  ].map((m) => m[1]),
);
/** The generic rules a Checker derives a code from: `this.code("RULE")` / `c.code("RULE")`. */
const derivedRules = new Set([...all.matchAll(/\.code\(\s*"([A-Z][A-Z0-9_]*)"\s*\)/g)].map((m) => m[1]));
/**
 * The subjects Checkers are created with: `new Checker("SUBJECT", …`, a subject chosen by kind, or the `prefix` a
 * constructor hands openCrdObject (lib/nodes/crd-object.ts), which creates the Checker.
 */
const checkerSubjects = new Set(
  [
    ...all.matchAll(/new Checker\(\s*"([A-Z0-9_]+)"/g),
    ...all.matchAll(/\bprefix: "([A-Z0-9_]+)"/g),
    ...all.matchAll(/\? "(NODEPOOL|EC2NODECLASS)" : "(NODEPOOL|EC2NODECLASS)"/g),
  ].flatMap((m) => m.slice(1)),
);

describe("the error codes", () => {
  const codes = allErrorCodes().map((e) => e.code);

  test("are UPPER_SNAKE, unique, each under a subject, each with a one-line meaning", () => {
    expect(new Set(codes).size).toBe(codes.length);
    for (const e of allErrorCodes()) {
      expect(e.code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/);
      expect(e.subject).toBeDefined();
      expect(e.meaning.trim().length).toBeGreaterThan(10);
      expect(e.meaning).not.toContain("\n");
    }
    for (const code of Object.keys(ERROR_CODES)) expect(subjectOf(code)).toBeDefined();
  });

  test("every listed code is produced by some check of lib/ (written out, or a Checker subject's generic rule)", () => {
    const generic = new Set(CHECKER_SUBJECTS.flatMap((s) => Object.keys(GENERIC_RULES).map((r) => `${s}_${r}`)));
    const unproduced = Object.keys(ERROR_CODES).filter((c) => !written.has(c));
    expect(unproduced).toEqual([]);
    expect([...checkerSubjects].sort()).toEqual([...CHECKER_SUBJECTS].sort());
    const underived = Object.keys(GENERIC_RULES).filter((r) => !derivedRules.has(r));
    expect(underived).toEqual([]);
    // nothing unlisted is produced (the compiler checks it too: the code parameter is an ErrorCode)
    const unlisted = [...written].filter((c) => !(c in ERROR_CODES) && !generic.has(c));
    expect(unlisted).toEqual([]);
    expect([...derivedRules].filter((r) => !(r in GENERIC_RULES))).toEqual([]);
  });

  test("every subject has codes", () => {
    const used = new Set(allErrorCodes().map((e) => e.subject));
    expect(Object.keys(ERROR_SUBJECTS).filter((s) => !used.has(s as keyof typeof ERROR_SUBJECTS))).toEqual([]);
  });

  test("docs/error-codes.md lists every code, as `npm run docs` generates it", () => {
    const { render } = require("../../scripts/error-codes-doc.cjs") as { render(): string };
    const page = fs.readFileSync(path.join(ROOT, "docs/error-codes.md"), "utf8");
    expect(page).toBe(render());
    for (const code of codes) expect(page).toContain(`| \`${code}\` |`);
  });

  test("README.md links the page where it tells of errors", () => {
    expect(fs.readFileSync(path.join(ROOT, "README.md"), "utf8")).toContain("(docs/error-codes.md)");
  });
});

describe("KarpenterValidationError carries its code", () => {
  test("as a property and at the end of its message", () => {
    const e = new KarpenterValidationError(
      "NODEPOOL_INTEGER_RANGE",
      "eks/k/pool",
      "weight",
      0,
      "a whole number from 1 to 100",
    );
    expect(e.code).toBe("NODEPOOL_INTEGER_RANGE");
    expect(e.message).toBe("eks/k/pool: weight = 0 is invalid: a whole number from 1 to 100 [NODEPOOL_INTEGER_RANGE]");
    expect(e.problems[0].code).toBe("NODEPOOL_INTEGER_RANGE");
  });

  test("combined, each problem keeps its code, each line names it, and the error has the first one's", () => {
    const a = new KarpenterValidationError("NODEPOOL_INTEGER_RANGE", "p", "weight", 0, "1 to 100");
    const b = new KarpenterValidationError("NODEPOOL_FORMAT", "p", "expireAfter", "720", "a duration");
    const both = KarpenterValidationError.combine([a, b], "p: 2 problems");
    expect(both.code).toBe("NODEPOOL_INTEGER_RANGE");
    expect(both.problems.map((p) => p.code)).toEqual(["NODEPOOL_INTEGER_RANGE", "NODEPOOL_FORMAT"]);
    expect(both.message).toBe(
      [
        "p: 2 problems:",
        "  - p: weight = 0 is invalid: 1 to 100 [NODEPOOL_INTEGER_RANGE]",
        '  - p: expireAfter = "720" is invalid: a duration [NODEPOOL_FORMAT]',
      ].join("\n"),
    );
  });

  test("a YAML syntax error of the converter too", () => {
    const e = LegacyManifestError.syntax(2, 11, 3, "a: b", "Map keys must be unique");
    expect(e.code).toBe("CONVERT_YAML");
    expect(e.message).toBe("document 2 (line 11, column 3): YAML syntax error: Map keys must be unique [CONVERT_YAML]");
  });

  test("isError recognises another copy's error, and its code", () => {
    let Other: typeof KarpenterValidationError | undefined;
    jest.isolateModules(() => {
      Other = (require("../../lib/core/errors") as typeof import("../../lib/core/errors")).KarpenterValidationError;
    });
    const foreign: unknown = new Other!("NODEPOOL_INTEGER_RANGE", "app/k", "weight", 0, "1 to 100");
    expect(foreign instanceof KarpenterValidationError).toBe(false);
    expect(KarpenterValidationError.isError(foreign) && foreign.code).toBe("NODEPOOL_INTEGER_RANGE");
  });
});
