import { synthWarnings } from "../helpers";
import { build } from "./node-props";
import { br } from "./bottlerocket-user-data";

/*
 * Bottlerocket TOML nested deeper than this library's TOML reader follows (smol-toml: 1,000 levels) but within
 * go-toml's 10,000 is not refused (Karpenter decodes it), only left unchecked with a warning (fresh tester 34 5.20b).
 * Deeper than go-toml's limit does not fit in EC2's 16 KB of user data (two characters a level).
 */

const nested = (depth: number) => `[settings.kubernetes]\nx = ${"[".repeat(depth)}1${"]".repeat(depth)}\n`;

test("1,500 levels: not refused, a warning that it was not checked", () => {
  const stack = build("EC2NodeClass", br(nested(1500)), "1.15.0");
  expect(synthWarnings(stack)).toContainEqual(
    expect.stringContaining(
      "deeper than this library's TOML reader follows (1,000 levels), so its settings were not checked",
    ),
  );
});

test("look-alike: 900 levels are read and judged as usual (no warning about depth)", () => {
  const stack = build("EC2NodeClass", br(nested(900)), "1.15.0");
  expect(synthWarnings(stack).filter((w) => w.includes("TOML reader"))).toEqual([]);
});
