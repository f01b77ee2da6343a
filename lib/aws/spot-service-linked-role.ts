import { Construct } from "constructs";
import type { IamServiceLinkedRole } from "@cdktf/provider-aws/lib/iam-service-linked-role";
import type { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { recordAccountNames, recordSpotServiceLinkedRole } from "../aws-api/account-names";
import { chooseProvider } from "../core/provider-choice";
import { checkOptionKeys, checkTags } from "../aws-api/input-checks";
import { Problems } from "../core/problems";
import { checkedByOwner } from "../core/owner-context";
import { asPartProblems } from "../core/owner-context";
import { SPOT_ROLE_PROPS } from "../core/prop-keys";
import { SPOT_ROLE_TAG_RECEIVERS } from "./tag-receivers";

/** The name IAM gives the service-linked role of `spot.amazonaws.com` (EC2 User Guide, "Service-linked role for Spot Instance requests"). */
const SPOT_SERVICE_LINKED_ROLE_NAME = "AWSServiceRoleForEC2Spot";

/** Props of {@link SpotServiceLinkedRole}. */
export interface SpotServiceLinkedRoleProps {
  /**
   * Tags for the role: at most 50, keys of 1–128 characters not starting with `aws:`, values of at
   * most 256 characters (AWS tag rules).
   * @default none
   */
  readonly tags?: Record<string, string>;
  /**
   * The AWS provider of the account the role is created in.
   * @default the stack's default AWS provider, which must then be its only one (synth fails naming this prop otherwise)
   */
  readonly provider?: AwsProvider;
}

/**
 * The `AWSServiceRoleForEC2Spot` service-linked role (`aws_iam_service_linked_role` for
 * `spot.amazonaws.com`), which EC2 needs before it launches the first spot instance of an account.
 *
 * It exists once per account: if the account ever launched a spot instance (or another stack
 * created it), creating it again fails at apply with "has been taken in this account" — then
 * leave it out, or `terraform import` it into this resource. That is why `Karpenter` creates it
 * only when asked (off by default). Source: Karpenter getting-started guide (step "create the
 * EC2 Spot service-linked role").
 *
 * @throws KarpenterValidationError (every problem of the props in one error) for a prop outside the props interface (with a "did you mean" when one is close), tags that break the AWS tag rules; at synth, when another
 * construct of the app creates it too in the same (or an unknown) AWS account (`Karpenter` with
 * `spotServiceLinkedRole: true` does): keep one per account
 */
export class SpotServiceLinkedRole extends Construct {
  /** The `aws_iam_service_linked_role`. */
  public readonly role: IamServiceLinkedRole;
  /** The role's ARN, `arn:<partition>:iam::<account>:role/aws-service-role/spot.amazonaws.com/AWSServiceRoleForEC2Spot` (a reference). */
  public readonly roleArn: string;
  /** The role name (`AWSServiceRoleForEC2Spot`). */
  public readonly roleName: string;

  constructor(scope: Construct, id: string, props: SpotServiceLinkedRoleProps = {}) {
    super(scope, id);
    const problems = new Problems();
    problems.check(() => checkOptionKeys(this, "", props, SPOT_ROLE_PROPS));
    // built by a Karpenter, which checked its tags (checkKarpenterProps): they run there only
    if (!checkedByOwner(this)) problems.check(() => checkTags(this, props?.tags, SPOT_ROLE_TAG_RECEIVERS));
    // a provider of the wrong kind or stack is one more problem, before the role exists
    const provider = problems.check(() => chooseProvider(scope, this, "aws", "provider", props?.provider));
    try {
      problems.throwIfAny(this, { remove: true });
    } catch (e) {
      // built by a composite (Karpenter): told on it, under its prop
      throw asPartProblems(this, e);
    }
    // loaded only here: `Karpenter` imports this construct, and most installs do not create the role
    const { IamServiceLinkedRole } =
      require("@cdktf/provider-aws/lib/iam-service-linked-role") as typeof import("@cdktf/provider-aws/lib/iam-service-linked-role");
    this.role = new IamServiceLinkedRole(this, "role", {
      provider,
      awsServiceName: "spot.amazonaws.com",
      description: "Lets EC2 launch and manage spot instances (Karpenter)",
      tags: props?.tags,
    });
    recordSpotServiceLinkedRole(this.role);
    this.roleArn = this.role.arn;
    this.roleName = this.role.name;
    recordAccountNames(
      this,
      [{ kind: "IAM role", literal: SPOT_SERVICE_LINKED_ROLE_NAME, field: "roleName", resource: this.role }],
      "keep one SpotServiceLinkedRole per AWS account (its name is fixed by AWS)",
    );
  }
}
