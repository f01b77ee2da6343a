#!/usr/bin/env node
// docs/API.md: the API reference, generated from the JSDoc of lib/index.ts's exports (the construct
// API, the jsii assembly) by TypeDoc with typedoc-plugin-markdown (settings in typedoc.json), and
// docs/API-cli.md the same for lib/cli-api.ts (`cdktf-eks-karpenter/cli`, TypeScript only).
//   npm run docs          regenerates both pages
//   npm run docs:check    regenerates into a temporary folder and fails when a page differs
//                         (CI runs it) or when an export of its entry point has no entry in it
// Both fail when an in-page link of the result names no heading; --check also checks the links of
// README.md and docs/*.md (scripts/doc-links.cjs). Both also write (or check) docs/error-codes.md,
// the stable error codes of lib/core/error-codes.ts (scripts/error-codes-doc.cjs).
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const ts = require("typescript");
const { checkPages, defaultPages, loadSlugger, parsePage } = require("./doc-links.cjs");
const errorCodesDoc = require("./error-codes-doc.cjs");

const root = path.join(__dirname, "..");
/** Each page and the entry point it documents. */
const PAGES = [
  { target: path.join(root, "docs", "API.md"), entry: "lib/index.ts", name: "cdktf-eks-karpenter API reference" },
  {
    target: path.join(root, "docs", "API-cli.md"),
    entry: "lib/cli-api.ts",
    name: "cdktf-eks-karpenter/cli API reference (TypeScript only)",
  },
];
const check = process.argv.includes("--check");

function generate(page) {
  // a folder of its own: TypeDoc empties its output folder first
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "api-docs-"));
  try {
    const r = spawnSync(
      process.execPath,
      [
        path.join(root, "node_modules", "typedoc", "bin", "typedoc"),
        "--out",
        out,
        "--logLevel",
        "Warn",
        "--entryPoints",
        page.entry,
        "--name",
        page.name,
      ],
      { cwd: root, encoding: "utf8" },
    );
    process.stderr.write(r.stdout + r.stderr);
    if (r.status !== 0) throw new Error(`typedoc exited ${r.status}`);
    return fs.readFileSync(path.join(out, "API.md"), "utf8");
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** Every name an entry point (lib/index.ts) exports (values and types), from the compiler. */
function exportedNames(entry) {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, "tsconfig.build.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  const program = ts.createProgram([path.join(root, entry)], config.options);
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(path.join(root, entry)));
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
  const Slugger = await loadSlugger();
  const generated = [];
  for (const page of PAGES) {
    const file = path.relative(root, page.target);
    const text = repairAnchors(generate(page), Slugger);
    const brokenLinks = await checkPages([file], { [file]: text });
    if (brokenLinks.length) {
      console.error(`${file} as generated has ${brokenLinks.length} broken link(s):\n${brokenLinks.join("\n")}`);
      process.exit(1);
    }
    // "### DEFAULT\_AMI\_ALIAS", "### convertLegacyManifests()": the Markdown escapes and the call parentheses go
    const headings = new Set(
      [...text.matchAll(/^### (\S+)$/gm)].map((m) => m[1].replace(/\\/g, "").replace(/\(\)$/, "")),
    );
    const missing = exportedNames(page.entry).filter((n) => !headings.has(n));
    if (missing.length) {
      console.error(`${file}: no entry for these exports of ${page.entry}: ${missing.join(", ")}`);
      process.exit(1);
    }
    generated.push({ page, file, text, entries: headings.size });
  }
  const codesText = errorCodesDoc.render();
  generated.push({
    page: { target: errorCodesDoc.TARGET },
    file: path.relative(root, errorCodesDoc.TARGET),
    text: codesText,
    entries: (codesText.match(/^\| `/gm) ?? []).length,
  });
  if (check) {
    for (const { page, file, text, entries } of generated) {
      const current = fs.existsSync(page.target) ? fs.readFileSync(page.target, "utf8") : "";
      if (current !== text) {
        console.error(
          `${file} is stale: it differs from what lib/ (its JSDoc, lib/core/error-codes.ts) generates. Run \`npm run docs\` and commit ${file}.`,
        );
        process.exit(1);
      }
      console.log(`${file} is current (${entries} entries)`);
    }
    const pages = defaultPages();
    const broken = await checkPages(pages);
    if (broken.length) {
      console.error(`${broken.length} broken link(s):\n${broken.join("\n")}`);
      process.exit(1);
    }
    console.log(`links resolve in ${pages.join(", ")}`);
  } else {
    for (const { page, file, text, entries } of generated) {
      fs.writeFileSync(page.target, text);
      console.log(`wrote ${file} (${entries} entries)`);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
