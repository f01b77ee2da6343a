import { SpotServiceLinkedRole } from "../lib/spot-service-linked-role";
import { KarpenterValidationError } from "../lib/errors";
import { onlyResource, synthJson, testStack, thrown } from "./helpers";

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
    expect(error.message).toMatch(/^test\/spot: tags\["team"\] = .* is invalid: a tag value of at most 256 characters \(got 257\)/);
  });
});
