#!/usr/bin/env node
// Checks the links of Markdown pages as GitHub resolves them: every `#anchor` must be a heading of the
// page (GitHub's slugs, github-slugger: lower case, punctuation dropped, spaces to `-`, `-1`, `-2` … for
// repeats) or an HTML `id`/`name`; every relative link must name a file or folder of the repository,
// and its `#anchor` a heading of that file. External (`https:` …) links are not followed.
//   node scripts/doc-links.cjs [page.md …]   default: README.md and docs/*.md; exits 1 listing each broken link
// Used by scripts/api-docs.cjs (docs/API.md is generated with no broken anchor) and test/docs-links.test.ts.
"use strict";
const fs = require("fs");
const path = require("path");
const MarkdownIt = require("markdown-it");

const root = path.join(__dirname, "..");
// html: an `<a id>` in a heading is markup, not heading text, on GitHub too
const md = new MarkdownIt({ html: true });

/** github-slugger is ES-module only. */
async function loadSlugger() {
  return (await import("github-slugger")).default;
}

/** The text GitHub slugs a heading from: its inline content without markup. */
function inlineText(token) {
  return (token.children || [])
    .filter((t) => t.type === "text" || t.type === "code_inline")
    .map((t) => t.content)
    .join("");
}

/**
 * A page's anchors (heading slugs in page order, plus HTML ids and names) and its links, each with its
 * line and link text.
 */
function parsePage(markdown, Slugger) {
  const slugger = new Slugger();
  const anchors = new Set();
  const links = [];
  const tokens = md.parse(markdown, {});
  tokens.forEach((token, i) => {
    if (token.type === "heading_open") anchors.add(slugger.slug(inlineText(tokens[i + 1])));
    if (token.type === "html_block" || token.type === "inline") {
      const html =
        token.type === "inline"
          ? (token.children || [])
              .filter((t) => t.type === "html_inline")
              .map((t) => t.content)
              .join("")
          : token.content;
      for (const m of html.matchAll(/\s(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
    }
    if (token.type !== "inline") return;
    const children = token.children || [];
    children.forEach((child, j) => {
      if (child.type !== "link_open") return;
      const close = children.findIndex((t, k) => k > j && t.type === "link_close");
      const text = children
        .slice(j + 1, close)
        .filter((t) => t.type === "text" || t.type === "code_inline")
        .map((t) => t.content)
        .join("");
      // a paragraph's links: its first line plus the line breaks before the link
      const breaks = children.slice(0, j).filter((t) => t.type === "softbreak" || t.type === "hardbreak").length;
      links.push({ href: child.attrGet("href"), text, line: token.map ? token.map[0] + 1 + breaks : undefined });
    });
  });
  return { anchors, links };
}

/**
 * Broken links of the given pages (paths relative to the repository, or absolute), as
 * "page:line: [text](href): why" strings. `texts` overrides a page's content (a page not yet written).
 */
async function checkPages(pages, texts = {}) {
  const Slugger = await loadSlugger();
  const cache = new Map();
  const parsed = (file) => {
    if (!cache.has(file))
      cache.set(file, parsePage(texts[file] ?? fs.readFileSync(path.resolve(root, file), "utf8"), Slugger));
    return cache.get(file);
  };
  const problems = [];
  for (const page of pages) {
    for (const link of parsed(page).links) {
      const { href } = link;
      if (!href || /^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // https:, mailto: …
      const hash = href.indexOf("#");
      const target = decodeURI(hash < 0 ? href : href.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(href.slice(hash + 1));
      const where = `${path.relative(root, path.resolve(root, page))}:${link.line}: [${link.text}](${href})`;
      let file = page;
      if (target) {
        file = path.join(path.dirname(page), target);
        const abs = path.resolve(root, file);
        if (path.relative(root, abs).startsWith("..")) {
          problems.push(`${where}: points outside the repository (GitHub cannot show it)`);
          continue;
        }
        if (!fs.existsSync(abs)) {
          problems.push(`${where}: no file ${path.relative(root, abs)}`);
          continue;
        }
      }
      if (anchor === undefined) continue;
      if (!file.endsWith(".md")) {
        problems.push(`${where}: an anchor into a file that is not Markdown`);
        continue;
      }
      if (!parsed(file).anchors.has(anchor))
        problems.push(
          `${where}: no heading with anchor #${anchor} in ${path.relative(root, path.resolve(root, file))}`,
        );
    }
  }
  return problems;
}

/** README.md and docs/*.md. */
function defaultPages() {
  return [
    "README.md",
    ...fs
      .readdirSync(path.join(root, "docs"))
      .filter((f) => f.endsWith(".md"))
      .sort()
      .map((f) => `docs/${f}`),
  ];
}

module.exports = { checkPages, defaultPages, loadSlugger, parsePage };

if (require.main === module) {
  const pages = process.argv.slice(2);
  checkPages(pages.length ? pages : defaultPages()).then(
    (problems) => {
      if (problems.length) {
        console.error(`${problems.length} broken link(s):\n${problems.join("\n")}`);
        process.exit(1);
      }
      console.log(`links resolve in ${(pages.length ? pages : defaultPages()).join(", ")}`);
    },
    (e) => {
      console.error(e);
      process.exit(2);
    },
  );
}
