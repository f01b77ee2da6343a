import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

/*
 * docs/API.md documents every export of lib/index.ts: the names come from the compiler through
 * index.ts's exports (wherever the files behind them live), each must have its own entry under
 * the heading of its kind, with a sentence of its own. `npm run docs:check` holds the page to the
 * JSDoc; this holds it to the exports without running TypeDoc.
 */

const ROOT = path.resolve(__dirname, "..");
const INDEX = path.join(ROOT, "lib/index.ts");
/** The TypeScript-only entry point (`cdktf-eks-karpenter/cli`), documented in docs/API-cli.md. */
const CLI_API = path.join(ROOT, "lib/cli-api.ts");

/** Every export of an entry point (lib/index.ts) with the API.md section its kind goes under. */
function exportsOfIndex(entry = INDEX): { name: string; section: string }[] {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    resolveJsonModule: true,
    esModuleInterop: true,
    types: ["node"],
  });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker.getExportsOfModule(moduleSymbol).map((s) => {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    const f = target.flags;
    const section =
      f & ts.SymbolFlags.Class
        ? "Classes"
        : f & ts.SymbolFlags.Interface
          ? "Interfaces"
          : f & ts.SymbolFlags.TypeAlias
            ? "Type Aliases"
            : f & ts.SymbolFlags.Function
              ? "Functions"
              : f & ts.SymbolFlags.Variable
                ? "Variables"
                : f & ts.SymbolFlags.Enum
                  ? "Enumerations"
                  : `(kind ${f})`;
    return { name: s.getName(), section };
  });
}

/** API.md's `### name` entries: section, and whether the entry has a line of prose (not only its signature). */
function entries(markdown: string): Map<string, { section: string; prose: boolean }> {
  const out = new Map<string, { section: string; prose: boolean }>();
  let section = "";
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const h2 = /^## (.+)$/.exec(lines[i]);
    if (h2) section = h2[1];
    const h3 = /^### (\S+)$/.exec(lines[i]);
    if (!h3) continue;
    let prose = false;
    for (let j = i + 1; j < lines.length && !/^#{1,4} /.test(lines[j]); j++) {
      const l = lines[j].trim();
      if (l && !l.startsWith(">") && !l.startsWith("***") && !l.startsWith("```")) prose = true;
    }
    // "DEFAULT\_AMI\_ALIAS", "upgradePlan()": Markdown escapes and call parentheses are not part of the name
    out.set(h3[1].replace(/\\/g, "").replace(/\(\)$/, ""), { section, prose });
  }
  return out;
}

/** The problems of one page: exports without an entry, under the wrong kind, or without prose. */
function undocumented(exported: { name: string; section: string }[], page: string): string[] {
  const documented = entries(fs.readFileSync(path.join(ROOT, page), "utf8"));
  return exported.flatMap(({ name, section }) => {
    const e = documented.get(name);
    if (!e) return [`${name}: no entry in ${page} (run npm run docs)`];
    if (e.section !== section) return [`${name}: under "${e.section}", not "${section}"`];
    return e.prose ? [] : [`${name}: only a signature, no description (write its JSDoc)`];
  });
}

test("docs/API.md has an entry, under its kind and with a description, for every export of lib/index.ts", () => {
  const exported = exportsOfIndex();
  // the exports the issue found missing once are among what is checked
  expect(exported.map((e) => e.name)).toEqual(
    expect.arrayContaining([
      "SUPPORTED_MINORS",
      "DEFAULT_KARPENTER_VERSION",
      "DEFAULT_KARPENTER_NAMESPACE",
      "DEFAULT_SERVICE_ACCOUNT_NAME",
      "KNOWN_RELEASES",
      "supportedKubernetesVersions",
    ]),
  );
  expect(undocumented(exported, "docs/API.md")).toEqual([]);
});

test("docs/API-cli.md has an entry for every export of lib/cli-api.ts (the TypeScript-only converter and upgrade planner)", () => {
  const exported = exportsOfIndex(CLI_API);
  expect(exported.map((e) => e.name)).toEqual(
    expect.arrayContaining(["convertLegacyManifests", "upgradePlan", "UPGRADE_HAZARDS", "LegacyManifestError"]),
  );
  expect(undocumented(exported, "docs/API-cli.md")).toEqual([]);
});

test("the entry reader sees a missing export, a misplaced one and one without a description", () => {
  const page =
    "## Variables\n\n### DEFAULT\\_X\n\n> `const` **DEFAULT\\_X**: `1`\n\n***\n\n### Y\n\n> `const` **Y**: `2`\n\nY is two.\n\n## Functions\n\n### f()\n\n> **f**(): `void`\n\nDoes f.\n";
  expect([...entries(page)]).toEqual([
    ["DEFAULT_X", { section: "Variables", prose: false }],
    ["Y", { section: "Variables", prose: true }],
    ["f", { section: "Functions", prose: true }],
  ]);
});
