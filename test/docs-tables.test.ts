import * as fs from "fs";
import * as path from "path";

/*
 * GitHub renders a table row with more cells than its header by dropping the extra cells, so a stray
 * `|` silently hides a column's text (docs/versions.md once lost "no longer supported" that way).
 */

const REPO = path.resolve(__dirname, "..");
const pages = [
  "README.md",
  ...fs
    .readdirSync(path.join(REPO, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The cells of a table row, split on unescaped pipes as GitHub does (code spans included). */
const cellCount = (row: string) =>
  row
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/).length;

test.each(pages)("%s: every table row has as many cells as its header", (page) => {
  const wrong: string[] = [];
  let inCode = false;
  let header: number | undefined;
  fs.readFileSync(path.join(REPO, page), "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (/^\s*```/.test(line)) inCode = !inCode;
      if (inCode || !/^\s*\|/.test(line)) {
        header = undefined;
        return;
      }
      if (header === undefined) header = cellCount(line);
      else if (cellCount(line) !== header)
        wrong.push(`line ${i + 1}: ${cellCount(line)} cells, header ${header}: ${line.slice(0, 60)}`);
    });
  expect(wrong).toEqual([]);
});

test("the check sees a row with a stray cell", () => {
  expect(cellCount("| 1.0 | 1.25 – 1.31 | | no longer supported |")).toBe(4);
  expect(cellCount("| `a \\| b` | c |")).toBe(2);
});
