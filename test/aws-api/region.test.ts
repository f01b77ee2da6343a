import { App, TerraformStack, TerraformVariable, Testing } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { KarpenterNodeRole } from "../../lib/aws/karpenter-node-role";
import { KarpenterValidationError } from "../../lib/core/errors";
import { REGION_NAME } from "../../lib/aws-api/aws-context";
import { testCluster } from "../helpers";

/* The AWS provider's region, where the Karpenter constructs build their ARNs: AWS's shape, not a closed list. */

function nodeRoleIn(region: unknown, providerProps: Record<string, unknown> = {}): { app: App; stack: TerraformStack } {
  const app = Testing.app();
  const stack = new TerraformStack(app, "eks");
  const value = region === "variable" ? new TerraformVariable(stack, "region", { type: "string" }).stringValue : region;
  new AwsProvider(stack, "aws", { region: value as string, ...providerProps });
  new KarpenterNodeRole(stack, "node-role", { cluster: testCluster(stack, "demo") });
  return { app, stack };
}

const synthError = (region: unknown, providerProps?: Record<string, unknown>): KarpenterValidationError | undefined => {
  try {
    Testing.synth(nodeRoleIn(region, providerProps).stack, true);
  } catch (e) {
    if (e instanceof KarpenterValidationError) return e;
    throw e;
  }
  return undefined;
};

describe("the AWS provider's region", () => {
  test.each([
    "us-east-1",
    "ap-southeast-5",
    "us-gov-west-1",
    "cn-north-1",
    "eu-isoe-west-1",
    "us-isob-east-1",
    "il-central-1",
    "mx-central-1",
    "eusc-de-east-1",
  ])("%s has AWS's shape", (region) => {
    expect(REGION_NAME.pattern.test(region)).toBe(true);
    expect(synthError(region)).toBeUndefined();
  });

  test.each(["mars-1", "us-east", "US-EAST-1", "useast1", "us-middle-1", "us-east-1 ", "eu-west-0"])(
    "%j is refused at synth, naming the provider, the field and what is allowed",
    (region) => {
      const e = synthError(region);
      expect(e).toBeInstanceOf(KarpenterValidationError);
      expect(e!.message).toBe(
        `eks/aws: region = ${JSON.stringify(region)} is invalid: an AWS region name such as us-east-1, ap-southeast-5, us-gov-west-1, cn-north-1 or eu-isoe-west-1: the Karpenter constructs build their ARNs and data sources in it, and the AWS provider refuses a region it does not know at plan (set skipRegionValidation: true on the provider to vouch for a new one) [AWS_REGION]`,
      );
    },
  );

  test("a reference, no region (the environment's) and skipRegionValidation are left to Terraform", () => {
    expect(synthError("variable")).toBeUndefined();
    expect(synthError(undefined)).toBeUndefined();
    expect(synthError("mars-1", { skipRegionValidation: true })).toBeUndefined();
  });
});
