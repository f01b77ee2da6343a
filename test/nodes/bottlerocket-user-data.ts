import { synthWarnings } from "../helpers";
import { build, rejection } from "./node-props";

/* Shared by the tests of Bottlerocket user data held to Bottlerocket's settings model (lib/nodes/user-data-rules.ts). */

/** EC2NodeClass props of a Bottlerocket alias with the given user data. */
export const br = (userData: string, kubelet?: Record<string, unknown>) => ({
  amiSelectorTerms: [{ alias: "bottlerocket@latest" }],
  userData,
  ...(kubelet ? { kubelet } : {}),
});

/** What every refusal of a value Bottlerocket's settings model refuses at boot says. */
export const AT_BOOT = "Bottlerocket itself refuses the settings at boot";

/**
 * Expects the Bottlerocket user data refused at synth as one EC2NODECLASS_USER_DATA problem, at the line shown as
 * `value`, its message holding each of `parts`, the boot-time outcome and early-boot-config's source.
 */
export function expectRefusedAtBoot(userData: string, value: string, ...parts: string[]): void {
  const e = rejection("EC2NodeClass", br(userData), "1.15.0");
  expect(e.problems).toHaveLength(1);
  expect(e.code).toBe("EC2NODECLASS_USER_DATA");
  expect(e.field).toBe("userData");
  expect(e.value).toBe(value);
  for (const part of parts) expect(e.message).toContain(part);
  expect(e.message).toContain(AT_BOOT);
  expect(e.message).toContain("early-boot-config/src/main.rs:159-175");
}

/** Expects the class (Bottlerocket, the given user data) built with no error and no user-data warning. */
export function expectPassesQuietly(userData: string, kubelet?: Record<string, unknown>): void {
  const props = br(userData, kubelet);
  expect(() => build("EC2NodeClass", props, "1.15.0")).not.toThrow();
  expect(synthWarnings(build("EC2NodeClass", props, "1.15.0")).filter((w) => w.includes("userData"))).toEqual([]);
}
