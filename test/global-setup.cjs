// cdktf's Testing.app() makes a `cdktf.outdir.*` folder in the temp directory for every app and never
// removes it (about 1,000 per run). The workers get a temp directory of their own, removed after the run.
const fs = require("fs");
const os = require("os");
const path = require("path");

module.exports = async function globalSetup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdktf-eks-karpenter-jest-"));
  process.env.CDKTF_EKS_KARPENTER_JEST_TMP = dir;
  process.env.TMPDIR = dir; // workers start after this, with this environment
};
