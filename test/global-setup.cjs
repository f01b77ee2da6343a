// cdktf's Testing.app() makes a `cdktf.outdir.*` folder in the temp directory for every app and never
// removes it (about 1,000 per run). The workers get a temp directory of their own, removed after the run.
const fs = require("fs");
const os = require("os");
const path = require("path");

module.exports = async function globalSetup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdktf-eks-karpenter-jest-"));
  process.env.CDKTF_EKS_KARPENTER_JEST_TMP = dir;
  process.env.TMPDIR = dir; // workers start after this, with this environment
  // The conformance harness installs its own dependencies into a cache on first use. Several test files
  // run it at once, and concurrent first installs into one folder leave it broken (a package.json with
  // no dist/), so it is installed here, once, before the workers start.
  const shared = process.env.CDKTF_EKS_KARPENTER_SHARED ?? path.resolve(__dirname, "../../shared");
  const deps = path.join(shared, "conformance/deps.cjs");
  if (fs.existsSync(deps)) require(deps).load();
};
