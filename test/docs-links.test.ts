import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

/*
 * Links of README.md and docs/*.md resolve as on GitHub: in-page anchors to headings (docs/API.md's
 * generated ones too), relative links to files and their headings. The checker is scripts/doc-links.cjs,
 * run in a child process (github-slugger, its slug rules, is an ES module).
 */

const REPO = path.resolve(__dirname, "..");
const checker = path.join(REPO, "scripts", "doc-links.cjs");

function check(...pages: string[]) {
  const r = spawnSync(process.execPath, [checker, ...pages], { cwd: REPO, encoding: "utf8" });
  return { status: r.status, out: r.stdout + r.stderr };
}

test("every link of README.md and docs/*.md resolves", () => {
  const { status, out } = check();
  expect(out).toMatch(/^links resolve in README\.md, docs\/API-cli\.md, docs\/API\.md, /);
  expect(status).toBe(0);
});

describe("the check", () => {
  let dir: string;
  beforeAll(() => {
    // inside the repository, so that the relative links stay in it
    dir = fs.mkdtempSync(path.join(REPO, "test", ".doc-links-"));
    fs.writeFileSync(
      path.join(dir, "other.md"),
      [
        "# Other",
        "",
        "## `KarpenterNodeRole`",
        "",
        "### nodeRole",
        "",
        "### nodeRole",
        "",
        '<a id="html-anchor"></a>',
      ].join("\n"),
    );
    fs.writeFileSync(
      path.join(dir, "page.md"),
      [
        "# Page: a title, with `code` & punctuation!",
        "",
        "## Karpenter.nodeRole",
        "",
        "[ok](#page-a-title-with-code--punctuation) [ok](#karpenternoderole) [ok](other.md#karpenternoderole)",
        "[ok](other.md#noderole-1) [ok](other.md#html-anchor) [ok](./other.md) [ok](https://example.com/#nope)",
        "[broken anchor](#karpenternoderole-1)",
        "[broken file](missing.md)",
        "[broken file anchor](other.md#noderole-2)",
        "[outside](../../../elsewhere.md)",
        "",
        "```md",
        "[in a code block](#not-checked)",
        "```",
      ].join("\n"),
    );
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("reports each broken anchor, file and cross-file anchor, with its line", () => {
    const page = path.relative(REPO, path.join(dir, "page.md"));
    const { status, out } = check(page);
    expect(status).toBe(1);
    const lines = out.trim().split("\n");
    expect(lines[0]).toBe("4 broken link(s):");
    expect(lines.slice(1)).toEqual([
      `${page}:7: [broken anchor](#karpenternoderole-1): no heading with anchor #karpenternoderole-1 in ${page}`,
      `${page}:8: [broken file](missing.md): no file ${path.relative(REPO, path.join(dir, "missing.md"))}`,
      `${page}:9: [broken file anchor](other.md#noderole-2): no heading with anchor #noderole-2 in ${path.relative(REPO, path.join(dir, "other.md"))}`,
      `${page}:10: [outside](../../../elsewhere.md): points outside the repository (GitHub cannot show it)`,
    ]);
  });
});
