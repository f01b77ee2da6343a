"use strict";
// Runs a TypeScript app of this repository (an example, lib/ beneath it) on CDK Terrain outside Jest
// (issue 32), as a require hook:
//   NODE_OPTIONS="--require <repo>/scripts/cdktn/register.cjs" node_modules/.bin/tsx examples/eks-karpenter/main.ts
// Module names map as scripts/cdktn/module-map.cjs says (the mapping of jest.cdktn.config.cjs), into the
// cache that scripts/cdktn/install.cjs fills. `npm run e2e` (validate) and `npm run test:python:cdktn`
// synthesize the TypeScript example on cdktn with it.
const Module = require("module");
const { nodeModules, cached } = require("./install.cjs");
const { mapped } = require("./module-map.cjs");

if (!cached())
  throw new Error(
    `scripts/cdktn/register.cjs: the cdktn packages are not installed in ${nodeModules}: run node scripts/cdktn/install.cjs`,
  );

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const to = typeof request === "string" ? mapped(request, nodeModules) : undefined;
  return resolve.call(this, to || request, ...rest);
};
