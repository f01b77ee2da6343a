"use strict";
// What legitimately differs between this library's Terraform on cdktf and on CDK Terrain (issue 32), in
// one place: `npm run test:cdktn` maps these, and only these, before comparing with cdktf's output.
//  1. Provider requirements: the @cdktn providers are newer builds (hashicorp/aws 6.66 against 6.25,
//     helm 3.3 against 3.1, kubernetes 3.4 against 2.38) and cdktn may spell a source with its
//     namespace ("hashicorp/aws" where cdktf wrote "aws"). terraform.required_providers.<name> on cdktn is
//     mapped to cdktf's entry when its version is the @cdktn package's and its source names the same provider.
//     The versions are read from the installed packages (package.json `cdktf.provider`), not written here.
//  2. Framework metadata: the "//" block of each stack (metadata.version is the framework's version).
// Nothing of the library's own output is mapped: resources, data sources, outputs and their arguments
// must be equal as they are.
const fs = require("fs");
const path = require("path");

const PROVIDERS = ["aws", "helm", "kubernetes"];

/** The Terraform provider each prebuilt provider package was generated from: { aws: { name, version } }. */
function providerPins(modulesDir, scope) {
  return Object.fromEntries(
    PROVIDERS.map((p) => {
      const pkg = JSON.parse(fs.readFileSync(path.join(modulesDir, scope, `provider-${p}`, "package.json"), "utf8"));
      return [p, pkg.cdktf.provider];
    }),
  );
}

let pins;
function load() {
  if (!pins) {
    const { nodeModules } = require("../../scripts/cdktn/install.cjs");
    pins = {
      cdktf: providerPins(path.join(__dirname, "..", "..", "node_modules"), "@cdktf"),
      cdktn: providerPins(nodeModules, "@cdktn"),
    };
  }
  return pins;
}

/** A stack's Terraform JSON object with cdktn's provider requirements replaced by cdktf's (in place; returned). */
function requiredProvidersToCdktf(stack) {
  const { cdktf, cdktn } = load();
  const required = stack && stack.terraform && stack.terraform.required_providers;
  for (const [name, req] of Object.entries(required || {})) {
    const n = cdktn[name];
    if (!n || !req || req.version !== n.version) continue;
    // registry.terraform.io/hashicorp/aws: the source may be written "aws" or "hashicorp/aws"
    const namespaced = n.name.split("/").slice(-2).join("/");
    if (req.source !== name && req.source !== namespaced) continue;
    required[name] = { ...req, source: name, version: cdktf[name].version };
  }
  return stack;
}

/** The JSON text (2-space indent, as test/examples/synth.ts writes it) of a cdktn stack, in cdktf's terms. */
function textToCdktf(text) {
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(requiredProvidersToCdktf(json), null, 2);
}

module.exports = { load, requiredProvidersToCdktf, textToCdktf };
