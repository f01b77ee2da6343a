import { TerraformStack } from "cdktf";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { isUnresolved, resolvedReference } from "../../lib/core/tokens";
import { testStack } from "../helpers";

describe("tokens", () => {
  test("isUnresolved looks inside lists and maps", () => {
    const { stack } = testStack();
    const role = new IamRole(stack, "role", { assumeRolePolicy: "{}" });
    expect(isUnresolved("literal")).toBe(false);
    expect(isUnresolved({ a: ["x", role.arn] })).toBe(true);
    expect(isUnresolved(undefined)).toBe(false);
  });

  test("resolvedReference: two reads of one attribute are different tokens but the same reference", () => {
    const { app, stack } = testStack();
    const role = new IamRole(stack, "role", { assumeRolePolicy: "{}" });
    const [a, b] = [role.arn, role.arn];
    expect(a).not.toBe(b);
    expect(resolvedReference(stack, a)).toBe("${aws_iam_role.role.arn}");
    expect(resolvedReference(stack, b)).toBe(resolvedReference(stack, a));
    expect(resolvedReference(stack, `arn-of-${a}`)).toBe("arn-of-${aws_iam_role.role.arn}");
    expect(resolvedReference(stack, "plain")).toBe("plain");
    expect(resolvedReference(stack, { arn: a })).toEqual({ arn: "${aws_iam_role.role.arn}" });
    // the text is only unique within a stack: a role of the same id in another stack reads the same,
    // which is why callers compare the stacks first
    const other = new TerraformStack(app, "other");
    new AwsProvider(other, "aws", { region: "us-east-1" });
    const twin = new IamRole(other, "role", { assumeRolePolicy: "{}" });
    expect(resolvedReference(other, twin.arn)).toBe(resolvedReference(stack, a));
  });
});
