import { build, rejection } from "./node-props";

/*
 * A map read with JSON.parse can hold an own "__proto__" key, which the way to the Terraform JSON drops (fresh tester
 * 31 H01, H22, H24, H25): selector tags { "__proto__": "x" } came out as {}, a term that names nothing. Refused.
 */

const cls = (extra: Record<string, unknown>) => ({
  amiSelectorTerms: [{ alias: "al2023@latest" }],
  ...extra,
});

test("selector tags and spec tags with a __proto__ key are refused, every place at once", () => {
  const e = rejection(
    "EC2NodeClass",
    cls({
      subnetSelectorTerms: [{ tags: JSON.parse('{"__proto__": "x"}') }],
      tags: JSON.parse('{"__proto__": "x", "team": "a"}'),
    }),
    "1.15.0",
  );
  expect(e.code).toBe("NODE_VALUE_PROTO_KEY");
  expect(e.message).toContain("subnetSelectorTerms[0].tags.__proto__");
  expect(e.message).toContain("test/obj: tags.__proto__");
  expect(e.message).toContain("dropped from the Terraform JSON");
});

test("a NodePool label with a __proto__ key is refused", () => {
  const e = rejection("NodePool", { labels: JSON.parse('{"__proto__": "x"}') }, "1.15.0");
  expect(e.code).toBe("NODE_VALUE_PROTO_KEY");
});

test("look-alikes pass: JSON.parse'd tags without __proto__, a key that merely contains it", () => {
  expect(() =>
    build("EC2NodeClass", cls({ tags: JSON.parse('{"team": "a", "x__proto__": "y"}') }), "1.15.0"),
  ).not.toThrow();
});
