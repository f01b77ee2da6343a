// The bench's compiled rows: what a package user runs is JavaScript, not TypeScript through tsx, whose
// start-up and transpiling cost the same for both apps and hide the library's own share. The library is
// `dist/` (npm run build); the example app and the hand-written baseline are transpiled here with the
// same compiler options, file by file (isolatedModules), into node_modules/.cache/ so that they resolve
// cdktf and the providers from the repo's node_modules. The example's `../../lib` becomes `dist/`.
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const root = path.join(__dirname, "..", "..");

/** Transpiles the two apps; returns the entry file of each. */
function compileApps() {
  const out = path.join(root, "node_modules", ".cache", "cdktf-eks-karpenter-bench");
  fs.rmSync(out, { recursive: true, force: true });
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  const options = { ...config.options, noEmit: false, declaration: false, sourceMap: false };
  const dist = path.join(root, "dist");
  if (!fs.existsSync(path.join(dist, "index.js"))) throw new Error("no dist/index.js: run `npm run build` first");
  const files = [
    ...fs
      .readdirSync(path.join(root, "examples/eks-karpenter"))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `examples/eks-karpenter/${f}`),
    "scripts/bench/baseline-app.ts",
  ];
  for (const rel of files) {
    const source = fs.readFileSync(path.join(root, rel), "utf8");
    let js = ts.transpileModule(source, { compilerOptions: options, fileName: rel }).outputText;
    js = js.replace(/require\("\.\.\/\.\.\/lib"\)/g, `require(${JSON.stringify(dist)})`);
    if (/require\("\.\.\/\.\.\/lib\//.test(js))
      throw new Error(`${rel} imports a lib/ file by path: only ../../lib maps to dist/`);
    const target = path.join(out, rel.replace(/\.ts$/, ".js"));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, js);
  }
  return {
    example: path.join(out, "examples/eks-karpenter/main.js"),
    baseline: path.join(out, "scripts/bench/baseline-app.js"),
  };
}

module.exports = { compileApps };
