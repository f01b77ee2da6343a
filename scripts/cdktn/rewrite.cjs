"use strict";
// The one rule that turns this library's source (written against cdktf) into its CDK Terrain flavour
// (issue 32): module specifiers `cdktf`, `cdktf/…` and `@cdktf/provider-{aws,helm,kubernetes}[/…]` become
// their cdktn names (flavour.json's `rename`), in import/export declarations, require() and import().
// The provider package names are rewritten in comments and messages too, so the cdktn flavour's docs and
// errors name the package its users have. Nothing else changes: cdktn keeps cdktf's annotation types
// ("@cdktf/warn"), its CDKTF_OUTDIR variable and its cdktf.out folder, so those strings stay as written.
// scripts/cdktn/build.cjs applies it to every .ts file of lib/; jest.cdktn.config.cjs maps the same names.
const { rename } = require("./flavour.json");

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

module.exports = { rewrite, leftovers };
