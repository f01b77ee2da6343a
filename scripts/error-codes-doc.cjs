#!/usr/bin/env node
// docs/error-codes.md: every stable code of KarpenterValidationError with its meaning, grouped by
// subject, generated from the tables of lib/core/error-codes.ts. scripts/api-docs.cjs writes it
// (`npm run docs`) and `npm run docs:check` fails when the page differs from what the tables generate.
//   node scripts/error-codes-doc.cjs           prints the page
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const root = path.join(__dirname, "..");
const SOURCE = path.join(root, "lib", "core", "error-codes.ts");
const TARGET = path.join(root, "docs", "error-codes.md");

/** lib/core/error-codes.ts, compiled and run (it imports nothing). */
function loadTables() {
  const { outputText } = ts.transpileModule(fs.readFileSync(SOURCE, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const mod = { exports: {} };
  new Function("exports", "module", "require", outputText)(mod.exports, mod, require);
  return mod.exports;
}

/** The Markdown of docs/error-codes.md. */
function render() {
  const { ERROR_SUBJECTS, GENERIC_RULES, allErrorCodes } = loadTables();
  const cell = (s) => s.replace(/\|/g, "\\|");
  const entries = allErrorCodes();
  const lines = [
    "# Error codes",
    "",
    "<!-- Generated from lib/core/error-codes.ts by `npm run docs`; do not edit by hand. -->",
    "",
    "Every problem a `KarpenterValidationError` reports has a stable `code`, one per rule (the `field`",
    "says where): match `e.code`, or `e.problems[i].code` of an error that gathers several, rather than",
    "the wording of the message. The message names the code too, at the end of each problem's line:",
    "",
    "```text",
    "eks/karpenter/default-pool: weight = 0 is invalid: a whole number from 1 to 100 [NODEPOOL_INTEGER_RANGE]",
    "```",
    "",
    "In Python, Java, .NET and Go the error arrives as the runtime's exception with the same message, and",
    "`validateApp` / `AppValidation.validate` return each synth-time problem with its `code`.",
    "",
    `The generic checks of NodePool, EC2NodeClass, NodeOverlay and CapacityBuffer objects (${Object.keys(GENERIC_RULES).length} rules) have one`,
    "code per object kind: `<KIND>_<RULE>`, e.g. `NODEPOOL_NOT_IN_ENUM` and `EC2NODECLASS_NOT_IN_ENUM`.",
    "",
    `${entries.length} codes in all.`,
    "",
  ];
  for (const [subject, title] of Object.entries(ERROR_SUBJECTS)) {
    const mine = entries.filter((e) => e.subject === subject);
    if (mine.length === 0) continue;
    lines.push(`## ${subject}`, "", `${title}.`, "", "| Code | Meaning |", "| --- | --- |");
    for (const e of mine) lines.push(`| \`${e.code}\` | ${cell(e.meaning)} |`);
    lines.push("");
  }
  return lines.join("\n");
}

module.exports = { render, TARGET, loadTables };

if (require.main === module) process.stdout.write(render());
