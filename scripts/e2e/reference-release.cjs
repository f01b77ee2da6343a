"use strict";
// Which reference folder's charts stand for a release. A patch that changed no artefact has no folder of
// its own (lib/versions/patch-history.ts, PATCHES_WITHOUT_ARTEFACT_CHANGES: 1.15.1 and 1.15.2 on 1.15.0's
// facts), so the default 1.15.2 renders and installs the charts of v1.15.0, and every check says so.
const fs = require("fs");
const path = require("path");

const parts = (v) => v.split(".").map(Number);

/**
 * The folder `<reference>/v<x>` whose `charts/` stands for `version`: its own when it has one, else the
 * newest earlier patch of the same minor that has one. `{ version, dir, exact, note }`, or undefined.
 */
function referenceRelease(reference, version) {
  const own = path.join(reference, `v${version}`);
  if (fs.existsSync(path.join(own, "charts"))) return { version, dir: own, exact: true, note: "" };
  const [maj, min, patch] = parts(version);
  const earlier = (fs.existsSync(reference) ? fs.readdirSync(reference) : [])
    .filter((d) => /^v\d+\.\d+\.\d+$/.test(d) && fs.existsSync(path.join(reference, d, "charts")))
    .map((d) => d.slice(1))
    .filter((v) => {
      const [a, b, c] = parts(v);
      return a === maj && b === min && c < patch;
    })
    .sort((a, b) => parts(b)[2] - parts(a)[2]);
  if (!earlier.length) return undefined;
  const v = earlier[0];
  return {
    version: v,
    dir: path.join(reference, `v${v}`),
    exact: false,
    note: `v${v}'s charts stand for ${version}, a patch without artefact changes (lib/versions/patch-history.ts)`,
  };
}

module.exports = { referenceRelease };
