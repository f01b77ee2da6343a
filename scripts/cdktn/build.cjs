#!/usr/bin/env node
"use strict";
// `npm run build`'s second half (issue 32): the CDK Terrain flavour of the library in dist/cdktn/, a
// package of its own named by scripts/cdktn/flavour.json (cdktn-eks-karpenter), laid out as the main one:
//   lib/          lib/'s TypeScript with its cdktf module names rewritten (scripts/cdktn/rewrite.cjs)
//   dist/         that source compiled by jsii: index.js, .d.ts, versions/data/*.json
//   .jsii         the assembly, checked by scripts/jsii-types.cjs: no union, like the main one, and the
//                 main assembly's API (the same types and members)
//   package.json  the main package.json's fields, with the cdktn peerDependencies and its own name
//   node_modules/ cdktn, constructs and the @cdktn providers linked from the cache that
//                 scripts/cdktn/install.cjs fills; semver and yaml copied (they are bundled)
// `npm run package` then packs its npm tarball and Python wheel (scripts/cdktn/package.cjs).
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const flavour = require("./flavour.json");
const { rewrite, leftovers } = require("./rewrite.cjs");
const root = path.resolve(__dirname, "..", "..");
const out = path.join(root, "dist", "cdktn");

function main() {
  const t0 = Date.now();
  // the cache: installed when missing (a minute the first time), at once when present
  const cacheModules = execFileSync(process.execPath, [path.join(__dirname, "install.cjs")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();

  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });

  // 1. the source, rewritten; anything still naming a cdktf module stops the build
  const problems = [];
  fs.cpSync(path.join(root, "lib"), path.join(out, "lib"), {
    recursive: true,
    filter: (f) => !f.endsWith("README.md"),
  });
  for (const file of walk(path.join(out, "lib")).filter((f) => f.endsWith(".ts"))) {
    const text = rewrite(fs.readFileSync(file, "utf8"));
    for (const l of leftovers(text)) problems.push(`${path.relative(out, file)}: ${l}`);
    fs.writeFileSync(file, text);
  }
  if (problems.length)
    throw new Error(
      `cdktn build: module specifiers the rewrite did not turn into cdktn names:\n  ${problems.join("\n  ")}`,
    );

  // 2. package.json: the main one's, renamed, with the cdktn peers (flavour.json)
  const main = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const pkg = {
    name: flavour.name,
    version: main.version,
    description: main.description.replace("CDK for Terraform", "CDK Terrain (cdktn)"),
    license: main.license,
    stability: main.stability,
    main: main.main,
    types: main.types,
    files: main.files.filter((f) => !f.startsWith("docs/")),
    engines: main.engines,
    keywords: main.keywords.map((k) => (k === "cdktf" ? "cdktn" : k)),
    peerDependencies: flavour.peerDependencies,
    // what this build compiled against (the cache's pins), as jsii asks of every peer
    devDependencies: Object.fromEntries(
      Object.keys(flavour.peerDependencies).map((n) => [n, installedVersion(cacheModules, n)]),
    ),
    dependencies: main.dependencies,
    bundleDependencies: main.bundleDependencies,
    author: main.author,
    repository: main.repository,
    homepage: main.homepage,
    jsii: {
      outdir: "packages",
      tsconfig: "tsconfig.build.json",
      validateTsconfig: "minimal",
      targets: { python: flavour.python },
    },
    exports: main.exports,
    typesVersions: main.typesVersions,
  };
  fs.writeFileSync(path.join(out, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  // the compiler options of the main build (tsconfig.json + tsconfig.build.json), written out in full
  // because jsii reads one file and the main one's `extends` points outside this folder
  const base = JSON.parse(fs.readFileSync(path.join(root, "tsconfig.json"), "utf8")).compilerOptions;
  const build = JSON.parse(fs.readFileSync(path.join(root, "tsconfig.build.json"), "utf8")).compilerOptions;
  const compilerOptions = { ...base, ...build };
  delete compilerOptions.paths;
  fs.writeFileSync(
    path.join(out, "tsconfig.build.json"),
    `${JSON.stringify({ compilerOptions, include: ["lib/**/*.ts"] }, null, 2)}\n`,
  );
  fs.copyFileSync(path.join(root, "README.md"), path.join(out, "README.md"));

  // 3. node_modules: the peers from the cache; the bundled dependencies and the type packages from ours
  const nm = path.join(out, "node_modules");
  for (const name of Object.keys(flavour.peerDependencies)) link(path.join(cacheModules, name), path.join(nm, name));
  for (const name of ["@types/node", "@types/semver"]) link(path.join(root, "node_modules", name), path.join(nm, name));
  for (const name of main.bundleDependencies)
    fs.cpSync(path.join(root, "node_modules", name), path.join(nm, name), { recursive: true, dereference: true });

  // 4. jsii, then the same union check as the main assembly, then the version data beside the code
  execFileSync(path.join(root, "node_modules", ".bin", "jsii"), ["--silence-warnings=reserved-word"], {
    cwd: out,
    stdio: "inherit",
  });
  execFileSync(process.execPath, [path.join(root, "scripts", "jsii-types.cjs"), path.join(out, ".jsii")], {
    stdio: "inherit",
  });
  fs.cpSync(path.join(out, "lib", "versions", "data"), path.join(out, "dist", "versions", "data"), {
    recursive: true,
    filter: (f) => !f.endsWith(".ts"),
  });
  console.log(
    `cdktn build: ${path.relative(root, out)}/ (${pkg.name}, peers ${Object.entries(pkg.peerDependencies)
      .map(([n, v]) => `${n}@${v}`)
      .join(", ")}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
}

function installedVersion(modules, name) {
  return JSON.parse(fs.readFileSync(path.join(modules, name, "package.json"), "utf8")).version;
}

function walk(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

function link(target, at) {
  if (!fs.existsSync(target)) throw new Error(`cdktn build: ${target} is missing (run node scripts/cdktn/install.cjs)`);
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at, "dir");
}

main();
