import * as fs from "fs";
import * as os from "os";
import * as path from "path";

/**
 * Makes cdktf run a fake `terraform` that only answers `terraform version` with `version`, for the
 * tests of import blocks: cdktf checks the Terraform version at synth by running the binary
 * (`importFrom`), and the tests must not depend on the machine's Terraform. cdktf reads the binary's
 * name (`TERRAFORM_BINARY_NAME`) once, when it loads, into `cdktf/lib/util`; the check reads it from
 * there when it is created, so the fake applies to constructs created until the returned function runs.
 */
export function fakeTerraform(version: string): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-terraform-"));
  const bin = path.join(dir, "terraform");
  fs.writeFileSync(bin, `#!/bin/sh\necho "Terraform v${version}"\n`, { mode: 0o755 });
  const util = require("cdktf/lib/util") as { terraformBinaryName: string };
  const before = util.terraformBinaryName;
  util.terraformBinaryName = bin;
  return () => {
    util.terraformBinaryName = before;
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
