import { goTrimSpace, isGoSpace } from "../../lib/core/go-strings";

describe("goTrimSpace: Go's strings.TrimSpace (unicode.IsSpace), not JavaScript's trim", () => {
  test.each([
    ["  true\t", "true"],
    ["\u0085true\u0085", "true"], // NEL is space to Go, not to JavaScript
    ["\u00a0\u3000true\u2028", "true"],
    ["\ufefftrue", "\ufefftrue"], // a byte-order mark is not space to Go; JavaScript's trim removes it
    ["\u200btrue", "\u200btrue"], // zero-width space is not White_Space
    ["", ""],
    [" \n ", ""],
  ])("%j -> %j", (input, out) => expect(goTrimSpace(input)).toBe(out));

  test("isGoSpace", () => {
    expect(isGoSpace("\u0085")).toBe(true);
    expect(isGoSpace("\ufeff")).toBe(false);
    expect(isGoSpace("a")).toBe(false);
    expect(isGoSpace("")).toBe(false);
  });
});
