import { Token } from "cdktf";
import { isPlainMap, mergeHelmValues } from "../../lib/core/deep-merge";

describe("mergeHelmValues", () => {
  test("maps merge recursively; lists, scalars and null replace; undefined is ignored", () => {
    const base = { a: { b: 1, c: [1, 2], d: { e: "x" } }, f: "keep", g: 1 };
    const merged = mergeHelmValues(base, { a: { b: 2, c: [3], d: { z: true } }, g: null, h: undefined });
    expect(merged).toEqual({ a: { b: 2, c: [3], d: { e: "x", z: true } }, f: "keep", g: null });
    expect(merged).not.toHaveProperty("h");
  });

  test("a map replaces a scalar and the other way round; inputs stay unchanged", () => {
    const base = { a: 1, b: { c: 1 } };
    expect(mergeHelmValues(base, { a: { x: 1 }, b: "s" })).toEqual({ a: { x: 1 }, b: "s" });
    expect(base).toEqual({ a: 1, b: { c: 1 } });
  });

  test("tokens are values, not maps", () => {
    expect(isPlainMap(Token.asAny("${var.x}"))).toBe(false);
    expect(isPlainMap({})).toBe(true);
    expect(isPlainMap([])).toBe(false);
  });
});
