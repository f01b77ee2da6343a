#!/usr/bin/env node
// docs/API.md: the API reference, generated from the JSDoc of lib/index.ts's exports by TypeDoc with
// typedoc-plugin-markdown (settings in typedoc.json).
//   npm run docs          regenerates docs/API.md
//   npm run docs:check    regenerates into a temporary folder and fails when docs/API.md differs
//                         (CI runs it) or when an export of lib/index.ts has no entry in it
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const ts = require("typescript");

const root = path.join(__dirname, "..");
const target = path.join(root, "docs", "API.md");
const check = process.argv.includes("--check");

function generate() {
  // a folder of its own: TypeDoc empties its output folder first
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "api-docs-"));
  try {
    const r = spawnSync(process.execPath, [path.join(root, "node_modules", "typedoc", "bin", "typedoc"), "--out", out, "--logLevel", "Warn"], { cwd: root, encoding: "utf8" });
    process.stderr.write(r.stdout + r.stderr);
    if (r.status !== 0) throw new Error(`typedoc exited ${r.status}`);
    return fs.readFileSync(path.join(out, "API.md"), "utf8");
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** Every name lib/index.ts exports (values and types), from the compiler. */
function exportedNames() {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.build.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram([path.join(root, "lib", "index.ts")], config.options);
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(path.join(root, "lib", "index.ts")));
  return checker.getExportsOfModule(symbol).map((s) => s.getName());
}

const text = generate();
// "### DEFAULT\_AMI\_ALIAS", "### convertLegacyManifests()": the Markdown escapes and the call parentheses go
const headings = new Set([...text.matchAll(/^### (\S+)$/gm)].map((m) => m[1].replace(/\\/g, "").replace(/\(\)$/, "")));
const missing = exportedNames().filter((n) => !headings.has(n));
if (missing.length) {
  console.error(`docs/API.md: no entry for these exports of lib/index.ts: ${missing.join(", ")}`);
  process.exit(1);
}
if (check) {
  const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "";
  if (current !== text) {
    console.error("docs/API.md is stale: it differs from what the JSDoc of lib/ generates. Run `npm run docs` and commit docs/API.md.");
    process.exit(1);
  }
  console.log(`docs/API.md is current (${headings.size} entries)`);
} else {
  fs.writeFileSync(target, text);
  console.log(`wrote docs/API.md (${headings.size} entries)`);
}
