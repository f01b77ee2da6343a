"use strict";
// The module mapping of the CDK Terrain flavour (issue 32), outside Jest: `cdktf`, `@cdktf/provider-X` (and
// paths inside them) to flavour.json's cdktn names, and `constructs` to the copy cdktn asks for, all under
// `nodeModules` (the cache scripts/cdktn/install.cjs fills). jest.cdktn.config.cjs maps the same names for
// `npm run test:cdktn`; scripts/cdktn/register.cjs installs this one as a require hook.
const path = require("path");
const { rename } = require("./flavour.json");

const names = Object.keys(rename).sort((a, b) => b.length - a.length);

/** The path under `nodeModules` that `request` maps to, or undefined for a module left alone. */
function mapped(request, nodeModules) {
  if (request === "constructs" || request.startsWith("constructs/")) return path.join(nodeModules, request);
  const from = names.find((n) => request === n || request.startsWith(`${n}/`));
  return from && path.join(nodeModules, rename[from] + request.slice(from.length));
}

module.exports = { mapped };
