"use strict";
// The one rule that turns this library's source (written against cdktf) into its CDK Terrain flavour
// (issue 32): module specifiers `cdktf`, `cdktf/…` and `@cdktf/provider-{aws,helm,kubernetes}[/…]` become
// their cdktn names (flavour.json's `rename`), in import/export declarations, require() and import().
// The provider package names are rewritten in comments and messages too, so the cdktn flavour's docs and
// errors name the package its users have. Nothing else changes: cdktn keeps cdktf's annotation types
// ("@cdktf/warn"), its CDKTF_OUTDIR variable and its cdktf.out folder, so those strings stay as written.
// scripts/cdktn/build.cjs applies it to every .ts file of lib/; jest.cdktn.config.cjs maps the same names.
const { rename, pythonRename } = require("./flavour.json");

const names = Object.keys(rename)
  .sort((a, b) => b.length - a.length)
  .map((n) => n.replace(/[/.]/g, "\\$&"));
// `from "x"`, `import "x"`, `require("x")`, `import("x")`; x is a renamed package or a path inside it
const SPECIFIER = new RegExp(
  `(\\bfrom\\s*|\\bimport\\s*|\\brequire\\(\\s*|\\bimport\\(\\s*)(["'])(${names.join("|")})((?:/[^"'\\n]*)?)\\2`,
  "g",
);
// the provider package names in any text (comments, messages): the renamed names under a scope
const PROVIDER_TEXT = new RegExp(`(${names.filter((n) => n.startsWith("@")).join("|")})(?![\\w-])`, "g");
// what must not survive the rewrite: a specifier still naming a cdktf package
const LEFTOVER = /(\bfrom\s*|\bimport\s*|\brequire\(\s*|\bimport\(\s*)(["'])(cdktf|@cdktf\/[^"'\n]*)(\/[^"'\n]*)?\2/g;

/** The cdktn flavour of one TypeScript source. */
function rewrite(source) {
  return source
    .replace(SPECIFIER, (_m, lead, quote, name, rest) => `${lead}${quote}${rename[name]}${rest}${quote}`)
    .replace(PROVIDER_TEXT, (name) => rename[name]);
}

/** The specifiers of `source` that still name a cdktf package (none after rewrite(), or the rule has a gap). */
function leftovers(source) {
  return [...source.matchAll(LEFTOVER)].map((m) => m[0]);
}

// Python (the example app and test/python on cdktn, scripts/cdktn/python-example.sh): the module names of
// `from X[.y] import …` and `import X[.y]` statements become flavour.json's `pythonRename` names (cdktf →
// cdktn, cdktf_cdktf_provider_aws → cdktn_provider_aws, cdktf_eks_karpenter → cdktn_eks_karpenter): the
// renaming a user's cdktf Python app goes through (README, "CDK Terrain"). Comments and strings stay.
const pyNames = Object.keys(pythonRename).sort((a, b) => b.length - a.length);
const PY_IMPORT = new RegExp(`^(\\s*(?:from|import)\\s+)(${pyNames.join("|")})(?=[.\\s,]|$)`, "gm");
const PY_LEFTOVER = /^\s*(?:from|import)\s+(cdktf\b[\w.]*|cdktf_[\w.]*)/gm;

/** The cdktn flavour of one Python source. */
function rewritePython(source) {
  return source.replace(PY_IMPORT, (_m, lead, name) => `${lead}${pythonRename[name]}`);
}

/** The import statements of a Python source that still name a cdktf module (none after rewritePython()). */
function pythonLeftovers(source) {
  return [...source.matchAll(PY_LEFTOVER)].map((m) => m[0].trim());
}

/** `node scripts/cdktn/rewrite.cjs --python <from> <to>`: every .py file of <from> rewritten into <to>. */
function rewritePythonFolder(from, to) {
  const fs = require("fs");
  const path = require("path");
  fs.mkdirSync(to, { recursive: true });
  const problems = [];
  let n = 0;
  for (const name of fs.readdirSync(from)) {
    const src = path.join(from, name);
    if (!fs.statSync(src).isFile()) continue;
    let text = fs.readFileSync(src, "utf8");
    if (name.endsWith(".py")) {
      text = rewritePython(text);
      for (const l of pythonLeftovers(text)) problems.push(`${src}: ${l}`);
      n++;
    }
    fs.writeFileSync(path.join(to, name), text);
  }
  if (problems.length) throw new Error(`cdktn rewrite: imports still naming cdktf:\n  ${problems.join("\n  ")}`);
  return n;
}

if (require.main === module) {
  const [flag, from, to] = process.argv.slice(2);
  if (flag !== "--python" || !from || !to) {
    console.error("usage: node scripts/cdktn/rewrite.cjs --python <from-folder> <to-folder>");
    process.exit(2);
  }
  console.log(`cdktn rewrite: ${rewritePythonFolder(from, to)} Python files of ${from} → ${to}`);
}

module.exports = { rewrite, leftovers, rewritePython, pythonLeftovers };
