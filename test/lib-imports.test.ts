import * as fs from "fs";
import * as path from "path";
import { moduleSpecifiers } from "./module-specifiers";

/*
 * The shape of lib/ that lib/README.md draws: no import cycle between its files (type-only imports
 * included: a cycle of types still ties two files together), and every import between folders
 * allowed by the README's "Who may import whom" table. The table is read from the README, so the
 * rule a reader sees is the rule this test holds.
 */

const LIB = path.join(__dirname, "..", "lib");

/** The .ts files under lib/, as paths relative to it ("core/errors.ts", "index.ts"). */
function libFiles(dir = LIB): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return libFiles(full);
    return e.name.endsWith(".ts") ? [path.relative(LIB, full).split(path.sep).join("/")] : [];
  });
}

/** Every relative module a file names (test/module-specifiers.ts). */
function specifiers(file: string): string[] {
  return moduleSpecifiers(file, fs.readFileSync(path.join(LIB, file), "utf8")).filter((s) => s.startsWith("."));
}

/** The lib/ file a relative specifier of `from` names (a .ts file or a folder's index.ts); JSON data and the like are left out. */
function resolve(from: string, spec: string): string | undefined {
  // "./" and "." name the folder itself: no trailing slash, so that each file has one name in the graph
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\/$/, "");
  return [`${base}.ts`, `${base}/index.ts`].find((c) => fs.existsSync(path.join(LIB, c)));
}

/** The import graph of lib/: each file and the lib/ files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of libFiles())
    graph.set(f, [
      ...new Set(
        specifiers(f)
          .map((s) => resolve(f, s))
          .filter((t): t is string => t !== undefined),
      ),
    ]);
  return graph;
}

/** The cycles of a graph, one per strongly connected component of more than one file (or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

/** The folder a lib/ file is in ("core"), or "(root)" for lib/cli.ts, lib/cli-api.ts and lib/index.ts. */
function folderOf(file: string): string {
  return file.includes("/") ? file.split("/")[0] : "(root)";
}

/** lib/README.md's table: each folder (`core/`) and the folders it may import ("—" for none, "any" for all). */
function allowedImports(): Map<string, readonly string[] | "any"> {
  const readme = fs.readFileSync(path.join(LIB, "README.md"), "utf8");
  const section = readme.split(/^## /m).find((s) => s.startsWith("Who may import whom"));
  if (!section) throw new Error('lib/README.md has no section "## Who may import whom"');
  const rules = new Map<string, readonly string[] | "any">();
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    // | `core/` | what it holds | `versions/`, … |
    const folder =
      /^`([a-z-]+)\/`$/.exec(cells[1] ?? "")?.[1] ??
      (cells[1] === "`cli.ts`, `cli-api.ts`, `index.ts`" ? "(root)" : undefined);
    if (folder === undefined || cells.length < 4) continue;
    const may = cells[3];
    rules.set(folder, may === "any" ? "any" : may === "—" ? [] : [...may.matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1]));
  }
  return rules;
}

describe("lib/ import graph", () => {
  const graph = importGraph();

  test("the parser sees the imports (index.ts imports the public constructs, cli-api.ts the converter)", () => {
    expect(graph.get("index.ts")).toEqual(expect.arrayContaining(["install/karpenter.ts", "nodes/node-pool.ts"]));
    expect(graph.get("cli-api.ts")).toEqual(expect.arrayContaining(["convert/index.ts", "upgrade/index.ts"]));
    // the jsii assembly is built from index.ts: the TypeScript-only converter and planner stay out of it
    expect(graph.get("index.ts")).not.toEqual(expect.arrayContaining(["convert/index.ts"]));
    expect(graph.get("index.ts")).not.toEqual(expect.arrayContaining(["upgrade/index.ts"]));
  });

  test("no import cycle", () => {
    expect(cycles(graph)).toEqual([]);
  });

  test("a cycle is caught", () => {
    expect(
      cycles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", ["c.ts"]],
          ["c.ts", ["a.ts"]],
          ["d.ts", ["a.ts"]],
        ]),
      ),
    ).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  test("lib/README.md names every folder of lib/ in its table", () => {
    expect([...allowedImports().keys()].sort()).toEqual([...new Set([...graph.keys()].map(folderOf))].sort());
  });

  test("every import between folders is one lib/README.md allows", () => {
    const rules = allowedImports();
    const breaking: string[] = [];
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      const may = rules.get(from);
      for (const t of targets) {
        const to = folderOf(t);
        if (to === from || may === "any" || may?.includes(to)) continue;
        breaking.push(
          `${file} → ${t} (${from}/ may import ${may === undefined ? "nothing: not in the table" : may.map((m) => `${m}/`).join(", ") || "nothing"})`,
        );
      }
    }
    expect(breaking).toEqual([]);
  });

  test("the allowed imports have no cycle between folders either", () => {
    const rules = allowedImports();
    const folders = new Map([...rules].map(([f, may]) => [f, may === "any" ? [] : [...may]]));
    expect(cycles(folders)).toEqual([]);
  });
});
