/*
 * Literal AWS resource IDs as EC2 issues them: the resource prefix, '-', and 8 (older resources) or 17
 * lower-case hex digits. The EC2NodeClass CRD's own pattern (`subnet-[0-9a-z]+`) is more lenient, but an
 * ID of another shape (`subnet-xyz`, upper-case hex) names no resource: a selector term with it selects
 * nothing and the EC2NodeClass never becomes ready, so it is refused here as it would be by EC2
 * (InvalidSubnetID.Malformed / InvalidGroupId.Malformed).
 */

/** A subnet ID such as `subnet-0123abcd`. */
export const SUBNET_ID = {
  pattern: /^subnet-(?:[0-9a-f]{8}|[0-9a-f]{17})$/,
  text: "a subnet ID: 'subnet-' and 8 or 17 lower-case hex digits, such as subnet-0123abcd",
} as const;
/** A security group ID such as `sg-0123abcd`. */
export const SECURITY_GROUP_ID = {
  pattern: /^sg-(?:[0-9a-f]{8}|[0-9a-f]{17})$/,
  text: "a security group ID: 'sg-' and 8 or 17 lower-case hex digits, such as sg-0123abcd",
} as const;
