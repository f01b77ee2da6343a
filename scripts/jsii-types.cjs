#!/usr/bin/env node
"use strict";
// Run by `npm run build` after jsii: fails when a property, parameter or return type of the assembly is a
// union. jsii accepts unions, but Java, C# and Go receive them as an untyped Object (issue 22): a choice
// between shapes is a class with static factories (InterruptionQueueConfig.create/existing/disabled).
// Free-form maps of `any` (Helm values) are not unions and stay allowed.
//
//   node scripts/jsii-types.cjs [<assembly> ...]
// Checks each assembly named; with none, the main one (.jsii) and, when built, the CDK Terrain flavour's
// (dist/cdktn/.jsii, issue 32; scripts/cdktn/build.cjs runs this on it right after compiling it). When
// both are checked, the cdktn flavour must also offer the main assembly's API: the same types, each with the
// same properties and methods (README "CDK Terrain": nothing in the API differs).
const fs = require("fs");
const path = require("path");

const root = path.join(__dirname, "..");
const main = path.join(root, ".jsii");
const cdktn = path.join(root, "dist", "cdktn", ".jsii");

/** `<fqn>.<member>` of every union type in the assembly's public API. */
function unions(assembly) {
  const hasUnion = (t) => JSON.stringify(t ?? null).includes('"union"');
  const found = [];
  for (const [fqn, type] of Object.entries(assembly.types)) {
    for (const p of type.properties || []) if (hasUnion(p.type)) found.push(`${fqn}.${p.name}`);
    const callables = [
      ...(type.methods || []),
      ...(type.initializer ? [{ ...type.initializer, name: "<constructor>" }] : []),
    ];
    for (const m of callables) {
      for (const x of m.parameters || []) if (hasUnion(x.type)) found.push(`${fqn}.${m.name}(${x.name})`);
      if (m.returns && hasUnion(m.returns.type)) found.push(`${fqn}.${m.name}() returns`);
    }
  }
  return found;
}

/** Each type of the assembly (its fqn without the assembly's name) with its members: "Karpenter": "cluster,addNodePool()". */
function api(assembly) {
  return Object.fromEntries(
    Object.entries(assembly.types).map(([fqn, t]) => [
      fqn.slice(assembly.name.length + 1),
      [
        ...(t.initializer ? [`<constructor>(${(t.initializer.parameters || []).map((p) => p.name).join(",")})`] : []),
        ...(t.properties || []).map((p) => `${p.static ? "static " : ""}${p.name}`),
        ...(t.methods || []).map(
          (m) => `${m.static ? "static " : ""}${m.name}(${(m.parameters || []).map((p) => p.name).join(",")})`,
        ),
      ]
        .sort()
        .join(", "),
    ]),
  );
}

/** What the second assembly's API lacks or adds against the first's (empty when they match). */
function apiDifferences(a, b) {
  const x = api(a);
  const y = api(b);
  const out = [];
  for (const t of Object.keys(x)) {
    if (!(t in y)) out.push(`${t}: in ${a.name}, not in ${b.name}`);
    else if (x[t] !== y[t]) out.push(`${t}: ${a.name} has [${x[t]}], ${b.name} [${y[t]}]`);
  }
  for (const t of Object.keys(y)) if (!(t in x)) out.push(`${t}: in ${b.name}, not in ${a.name}`);
  return out;
}

function main_(argv) {
  const files = argv.length ? argv.map((f) => path.resolve(f)) : [main, ...(fs.existsSync(cdktn) ? [cdktn] : [])];
  const read = (f) => JSON.parse(fs.readFileSync(f, "utf8"));
  let failed = false;
  for (const file of files) {
    const assembly = read(file);
    const found = unions(assembly);
    if (found.length) {
      console.error(
        `jsii-types: ${found.length} union type${found.length > 1 ? "s" : ""} in the public API of ${path.relative(process.cwd(), file)}, which Java, C# and Go get as Object:\n  ${found.join("\n  ")}\nGive each one type (a class with static factories for a choice of shapes; see InterruptionQueueConfig).`,
      );
      failed = true;
    } else
      console.log(
        `jsii-types: no union in the ${Object.keys(assembly.types).length} types of ${path.relative(process.cwd(), file)}`,
      );
  }
  // the cdktn flavour against the main assembly, whenever both are there
  const checked = files.map((f) => path.resolve(f));
  if (checked.includes(cdktn) && fs.existsSync(main)) {
    const diff = apiDifferences(read(main), read(cdktn));
    if (diff.length) {
      console.error(
        `jsii-types: the cdktn flavour's API differs from the main one's (${diff.length}):\n  ${diff.join("\n  ")}`,
      );
      failed = true;
    } else
      console.log(
        `jsii-types: ${path.relative(process.cwd(), cdktn)} offers the API of ${path.relative(process.cwd(), main)} (the same types and members)`,
      );
  }
  return failed ? 1 : 0;
}

if (require.main === module) process.exitCode = main_(process.argv.slice(2));

module.exports = { unions, apiDifferences };
