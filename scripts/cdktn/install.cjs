#!/usr/bin/env node
"use strict";
// Installs the CDK Terrain (cdktn) packages of scripts/cdktn/flavour.json into a cache outside the
// repository, for `npm run test:cdktn` and the cdktn build (issue 32). Prints the cache's node_modules.
//
//   node scripts/cdktn/install.cjs           install when missing or when flavour.json's pins changed
//   node scripts/cdktn/install.cjs --print   print the node_modules folder only (nothing installed)
//
// cdktn, constructs and @cdktn/provider-aws come from the npm registry. @cdktn/provider-helm and
// @cdktn/provider-kubernetes are published to npm upstream but this machine's registry answers 404 for
// them; their PyPI wheels (cdktn-provider-helm, cdktn-provider-kubernetes) carry that same npm package
// as the jsii tarball `_jsii/provider-<name>@<version>.jsii.tgz`. The wheels are downloaded with
// `pip download --require-hashes` against the sha256 pinned in flavour.json (PyPI's own digest, from
// https://pypi.org/simple/<name>/), checked again here, and the tarball inside is installed with npm.
// A finished install is stamped with the pins it holds: the next run with the same pins returns at once.
// The install goes to a temporary folder renamed into place, so a killed run leaves no half cache.
const { execFileSync } = require("child_process");
const { createHash } = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");

const flavour = require("./flavour.json");
const cacheRoot = path.join(
  process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"),
  "cdktf-eks-karpenter",
  "cdktn",
);
const prefix = path.join(cacheRoot, "packages");
const nodeModules = path.join(prefix, "node_modules");
const stampFile = path.join(prefix, ".pins.json");
const pins = JSON.stringify({ install: flavour.install, fromPyPI: flavour.fromPyPI }, null, 2);

function log(msg) {
  process.stderr.write(`cdktn-install: ${msg}\n`);
}

function sha256(file) {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** Whether the cache holds every pinned package at its pinned version under the stamp of these pins. */
function cached() {
  if (!fs.existsSync(stampFile) || fs.readFileSync(stampFile, "utf8") !== pins) return false;
  const wanted = {
    ...flavour.install,
    ...Object.fromEntries(Object.keys(flavour.fromPyPI).map((n) => [n, versionOf(flavour.fromPyPI[n])])),
  };
  return Object.entries(wanted).every(([name, version]) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(nodeModules, name, "package.json"), "utf8")).version === version;
    } catch {
      return false;
    }
  });
}

/** The npm version inside a wheel entry: the `@<version>.jsii.tgz` of its tarball's name. */
function versionOf(entry) {
  const m = /@([^@/]+)\.jsii\.tgz$/.exec(entry.tarball);
  if (!m) throw new Error(`flavour.json: ${entry.tarball} does not end in @<version>.jsii.tgz`);
  return m[1];
}

/** The wheel of `entry` in `wheels/`, downloaded when absent; fails unless its sha256 is the pinned one. */
function wheel(entry, wheels) {
  const file = path.join(wheels, entry.wheel);
  if (!fs.existsSync(file) || sha256(file) !== entry.sha256) {
    fs.rmSync(file, { force: true });
    const req = path.join(wheels, `${entry.wheel}.requirements.txt`);
    fs.writeFileSync(req, `${entry.pypi} --hash=sha256:${entry.sha256}\n`);
    log(`pip download ${entry.pypi} (sha256 ${entry.sha256.slice(0, 12)}…)`);
    const python = process.env.PYTHON || "python3";
    execFileSync(
      python,
      [
        "-m",
        "pip",
        "download",
        "--quiet",
        "--disable-pip-version-check",
        "--no-deps",
        "--require-hashes",
        "--only-binary",
        ":all:",
        "-r",
        req,
        "-d",
        wheels,
      ],
      { stdio: ["ignore", process.stderr, "inherit"] },
    );
  }
  const got = sha256(file);
  if (got !== entry.sha256) throw new Error(`${entry.wheel}: sha256 ${got}, pinned ${entry.sha256} (flavour.json)`);
  return file;
}

/** The jsii tarball inside a wheel (a zip), written to `dest`; Python's zipfile reads it (pip needs Python anyway). */
function extract(wheelFile, member, dest) {
  const python = process.env.PYTHON || "python3";
  const code =
    "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[3], 'wb') as out: out.write(z.read(sys.argv[2]))";
  execFileSync(python, ["-c", code, wheelFile, member, dest]);
}

function install() {
  fs.mkdirSync(cacheRoot, { recursive: true });
  const wheels = path.join(cacheRoot, "wheels");
  fs.mkdirSync(wheels, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(cacheRoot, ".install-"));
  try {
    const deps = { ...flavour.install };
    fs.mkdirSync(path.join(tmp, "tarballs"));
    for (const [name, entry] of Object.entries(flavour.fromPyPI)) {
      const tgz = path.join("tarballs", path.basename(entry.tarball).replace("@", "-"));
      extract(wheel(entry, wheels), entry.tarball, path.join(tmp, tgz));
      const inside = JSON.parse(
        execFileSync("tar", ["-xzOf", path.join(tmp, tgz), "package/package.json"], { encoding: "utf8" }),
      );
      if (inside.name !== name || inside.version !== versionOf(entry))
        throw new Error(
          `${entry.wheel}: ${entry.tarball} holds ${inside.name}@${inside.version}, not ${name}@${versionOf(entry)}`,
        );
      deps[name] = `file:${tgz}`;
    }
    fs.writeFileSync(
      path.join(tmp, "package.json"),
      JSON.stringify({ name: "cdktn-cache", private: true, dependencies: deps }, null, 2),
    );
    log(`npm install ${Object.keys(deps).join(" ")} into ${prefix}`);
    // --ignore-scripts: none of these packages needs an install script; engine warnings (the @cdktn
    // packages ask for Node >= 22.11) are the registry's metadata, not a failure here
    // npm's own stdout ("added 255 packages …") goes to stderr: this script's stdout is the one line callers read
    // (scripts/cdktn/build.cjs takes it as the path of the installed node_modules)
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel", "error"], {
      cwd: tmp,
      stdio: ["ignore", process.stderr, "inherit"],
    });
    fs.writeFileSync(path.join(tmp, ".pins.json"), pins);
    fs.rmSync(prefix, { recursive: true, force: true });
    fs.renameSync(tmp, prefix);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) {
  if (!process.argv.includes("--print")) {
    const t0 = Date.now();
    if (cached()) log(`cached in ${prefix}`);
    else {
      install();
      if (!cached()) throw new Error(`the install in ${prefix} does not hold the pinned versions`);
      log(`installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  }
  process.stdout.write(`${nodeModules}\n`);
}

module.exports = { cacheRoot, nodeModules, cached };
