#!/usr/bin/env node
"use strict";
// Run by `npm run build` after jsii: fails when a property, parameter or return type of the assembly is a
// union. jsii accepts unions, but Java, C# and Go receive them as an untyped Object (issue 22): a choice
// between shapes is a class with static factories (InterruptionQueueConfig.create/existing/disabled).
// Free-form maps of `any` (Helm values) are not unions and stay allowed.
const fs = require("fs");
const path = require("path");

// the main assembly, or the one named (scripts/cdktn/build.cjs passes dist/cdktn/.jsii, the cdktn flavour's)
const file = process.argv[2] ? path.resolve(process.argv[2]) : path.join(__dirname, "..", ".jsii");
const assembly = JSON.parse(fs.readFileSync(file, "utf8"));
const hasUnion = (t) => JSON.stringify(t).includes('"union"');
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
if (found.length) {
  console.error(
    `jsii-types: ${found.length} union type${found.length > 1 ? "s" : ""} in the public API, which Java, C# and Go get as Object:\n  ${found.join("\n  ")}\nGive each one type (a class with static factories for a choice of shapes; see InterruptionQueueConfig).`,
  );
  process.exit(1);
}
console.log(
  `jsii-types: no union in the ${Object.keys(assembly.types).length} types of ${path.relative(process.cwd(), file)}`,
);
