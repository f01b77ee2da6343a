import { TerraformStack, Testing } from "cdktf";
import { SpotServiceLinkedRole } from "../../lib/aws/spot-service-linked-role";
import { KarpenterValidationError } from "../../lib/core/errors";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { onlyResource, synthJson, testStack, thrown } from "../helpers";

describe("SpotServiceLinkedRole", () => {
  test("creates the service-linked role for spot.amazonaws.com", () => {
    const { stack } = testStack();
    const slr = new SpotServiceLinkedRole(stack, "spot", { tags: { team: "platform" } });
    const role = onlyResource(synthJson(stack), "aws_iam_service_linked_role");
    expect(role.aws_service_name).toBe("spot.amazonaws.com");
    expect(role.tags).toEqual({ team: "platform" });
    expect(role.custom_suffix).toBeUndefined(); // the spot role takes no suffix: one per account
    expect(slr.roleArn).toMatch(/^\$\{TfToken/);
  });

  test("props are optional", () => {
    const { stack } = testStack();
    new SpotServiceLinkedRole(stack, "spot");
    expect(onlyResource(synthJson(stack), "aws_iam_service_linked_role").tags).toBeUndefined();
  });
  test("tags follow the AWS rules", () => {
    const { stack } = testStack();
    const error = thrown(() => new SpotServiceLinkedRole(stack, "spot", { tags: { team: "x".repeat(257) } }));
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toMatch(
      /^test\/spot: tags\["team"\] = .* is invalid: a tag value of at most 256 characters \(got 257\)/,
    );
  });

  test("it exists once per account: a second one in the app (any region) fails at synth, naming both", () => {
    const { app, stack } = testStack();
    new SpotServiceLinkedRole(stack, "spot");
    const other = new TerraformStack(app, "other");
    new AwsProvider(other, "aws", { region: "eu-west-1" });
    new SpotServiceLinkedRole(other, "spot");
    expect(() => Testing.synth(stack, true)).not.toThrow(); // the first one is fine
    expect(() => Testing.synth(other, true)).toThrow(
      'other/spot: roleName = "AWSServiceRoleForEC2Spot" is invalid: an IAM name no other construct of this app creates in the same AWS account: test/spot (roleName) also creates IAM role "AWSServiceRoleForEC2Spot". IAM names are account-wide (the same in every region), so the second create fails at apply with EntityAlreadyExists; keep one SpotServiceLinkedRole per AWS account (its name is fixed by AWS).',
    );
  });
});
