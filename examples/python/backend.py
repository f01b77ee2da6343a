"""Local state by default; with STATE_BUCKET an encrypted S3 backend per stack with S3-native locking (backend.ts)."""
from cdktf import LocalBackend, S3Backend, TerraformStack

from config import ExampleConfig


def configure_backend(stack: TerraformStack, stack_name: str, config: ExampleConfig) -> None:
    if not config.state_bucket:
        # a relative path: the synthesized JSON is the same in every checkout
        LocalBackend(stack, path=f"../../../terraform.{stack_name}.tfstate")
        return
    S3Backend(stack, bucket=config.state_bucket, key=f"{config.state_key_prefix}/{stack_name}.tfstate", region=config.state_region, encrypt=True)
    # cdktf 0.21's S3Backend predates use_lockfile
    stack.add_override("terraform.backend.s3.use_lockfile", True)
