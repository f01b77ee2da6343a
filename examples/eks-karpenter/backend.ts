import { LocalBackend, S3Backend, TerraformStack } from "cdktf";
import { ExampleConfig } from "./config";

/**
 * Local state by default (nothing to set up). With `STATE_BUCKET`, an S3 backend per stack with
 * S3-native state locking (`use_lockfile`, Terraform ≥ 1.10; no DynamoDB table), encrypted: what a
 * team that shares the cluster, or CI, uses.
 */
export function configureBackend(stack: TerraformStack, stackName: string, config: ExampleConfig): void {
  if (!config.stateBucket) {
    // Terraform runs in cdktf.out/stacks/<stack>: this is terraform.<stack>.tfstate in the project root,
    // written as a relative path so the synthesized JSON is the same in every checkout (cdktf's
    // default backend would embed this machine's absolute path)
    new LocalBackend(stack, { path: `../../../terraform.${stackName}.tfstate` });
    return;
  }
  new S3Backend(stack, {
    bucket: config.stateBucket,
    key: `${config.stateKeyPrefix}/${stackName}.tfstate`,
    region: config.stateRegion,
    encrypt: true,
  });
  // cdktf 0.21's S3Backend predates use_lockfile
  stack.addOverride("terraform.backend.s3.use_lockfile", true);
}
