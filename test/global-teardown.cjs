const fs = require("fs");

module.exports = async function globalTeardown() {
  const dir = process.env.CDKTF_EKS_KARPENTER_JEST_TMP;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
};
