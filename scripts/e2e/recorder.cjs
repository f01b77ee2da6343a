// What the two jest recorders (record-node-cases.cjs, record-values-cases.cjs) share: starting only when their
// variable names a file, never failing the suite they ride on, and finding the lib/ module that defines a class or
// function by its content (so that moving files does not break them).
"use strict";
const fs = require("fs");
const path = require("path");

/**
 * Runs `install(file)` when the environment variable `envVar` names a file. A recorder that cannot install (lib/
 * reorganized past what it finds) must not fail the suite: it says so in the recording, and the stage that reads
 * the recording fails on it instead.
 */
function startRecorder(envVar, install) {
  const file = process.env[envVar];
  if (!file) return;
  try {
    install(file);
  } catch (e) {
    fs.appendFileSync(file, `${JSON.stringify({ recordError: `install: ${e && e.message}` })}\n`);
  }
}

/** A finder of the lib/ source file whose text matches a pattern; `name` labels its error. */
function libFinder(name) {
  const lib = path.resolve(__dirname, "../../lib");
  const files = tsFiles(lib);
  return (re) => {
    const hit = files.find((f) => re.test(fs.readFileSync(f, "utf8")));
    if (!hit) throw new Error(`${name}: no file under lib/ matches ${re}`);
    return hit;
  };
}

function tsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? tsFiles(p) : /\.ts$/.test(d.name) && !d.name.endsWith(".d.ts") ? [p] : [];
  });
}

module.exports = { startRecorder, libFinder };
