import { S3Backend, TerraformStack } from "cdktf";
import { ExampleConfig } from "./config";

/**
 * Local state by default (nothing to set up). With `STATE_BUCKET`, an S3 backend per stack with
 * S3-native state locking (`use_lockfile`, Terraform ≥ 1.10; no DynamoDB table), encrypted: what a
 * team that shares the cluster, or CI, uses.
 */
export function configureBackend(stack: TerraformStack, stackName: string, config: ExampleConfig): void {
  if (!config.stateBucket) return; // cdktf's default: local state in terraform.<stack>.tfstate
  new S3Backend(stack, {
    bucket: config.stateBucket,
    key: `${config.stateKeyPrefix}/${stackName}.tfstate`,
    region: config.stateRegion,
    encrypt: true,
  });
  // cdktf 0.21's S3Backend predates use_lockfile
  stack.addOverride("terraform.backend.s3.use_lockfile", true);
}
