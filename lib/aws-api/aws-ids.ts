/*
 * Literal AWS resource IDs, the same rules the EC2NodeClass selector terms apply to `id` (EC2 IDs:
 * the resource prefix, '-', lower-case hex; the pattern is as lenient as the EC2NodeClass's).
 */

/** A subnet ID such as `subnet-0123abcd`. */
export const SUBNET_ID = { pattern: /^subnet-[0-9a-z]+$/, text: "a subnet ID such as subnet-0123abcd" } as const;
/** A security group ID such as `sg-0123abcd`. */
export const SECURITY_GROUP_ID = { pattern: /^sg-[0-9a-z]+$/, text: "a security group ID such as sg-0123abcd" } as const;
