#!/usr/bin/env node
// docs/API.md: the API reference, generated from the JSDoc of lib/index.ts's exports by TypeDoc with
// typedoc-plugin-markdown (settings in typedoc.json).
//   npm run docs          regenerates docs/API.md
//   npm run docs:check    regenerates into a temporary folder and fails when docs/API.md differs
//                         (CI runs it) or when an export of lib/index.ts has no entry in it
// Both fail when an in-page link of the result names no heading; --check also checks the links of
// README.md and docs/*.md (scripts/doc-links.cjs).
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const ts = require("typescript");
const { checkPages, defaultPages, loadSlugger, parsePage } = require("./doc-links.cjs");

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

/**
 * typedoc-plugin-markdown's module router (4.14.1) anchors every member twice, first as
 * "Parent.member" and then by its bare name, and the first pass's slug stays counted: Karpenter's
 * member `nodeRole` is first slugged "karpenternoderole", so the class KarpenterNodeRole gets the
 * anchor "karpenternoderole-1" while its heading `### KarpenterNodeRole` is "#karpenternoderole" on
 * GitHub (upstream: typedoc2md/typedoc-plugin-markdown#856, the same for a type alias property). No
 * plugin option changes that; useHTMLAnchors would only add an `<a id>` with the odd anchor to every member.
 * A link is pointed back at its heading only in that case: its anchor "<slug>-<n>" names no heading,
 * "<slug>" names exactly one, and the link's text is that heading's name. Any other broken anchor is
 * left for the link check below to report.
 */
function repairAnchors(markdown, Slugger) {
  const { anchors } = parsePage(markdown, Slugger);
  return markdown.replace(/\[([^\]\n]+)\]\(#([^)\s]+)-(\d+)\)/g, (link, label, base, n) => {
    if (anchors.has(`${base}-${n}`) || !anchors.has(base) || anchors.has(`${base}-1`)) return link;
    return new Slugger().slug(label.replace(/[`\\]/g, "")) === base ? `[${label}](#${base})` : link;
  });
}

async function main() {
  const text = repairAnchors(generate(), await loadSlugger());
  const brokenLinks = await checkPages(["docs/API.md"], { "docs/API.md": text });
  if (brokenLinks.length) {
    console.error(`docs/API.md as generated has ${brokenLinks.length} broken link(s):\n${brokenLinks.join("\n")}`);
    process.exit(1);
  }
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
    const pages = defaultPages();
    const broken = await checkPages(pages);
    if (broken.length) {
      console.error(`${broken.length} broken link(s):\n${broken.join("\n")}`);
      process.exit(1);
    }
    console.log(`links resolve in ${pages.join(", ")}`);
  } else {
    fs.writeFileSync(target, text);
    console.log(`wrote docs/API.md (${headings.size} entries)`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
