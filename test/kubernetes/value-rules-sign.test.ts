import { isNegativeQuantity, quantitySign } from "../../lib/kubernetes/value-rules";

describe("quantitySign: the sign of a quantity by its number part", () => {
  test.each([
    ["0", 0],
    ["0Gi", 0],
    ["-0", 0],
    ["0.0", 0],
    ["0e3", 0],
    [".0", 0],
    ["1", 1],
    ["+1Mi", 1],
    ["0.5", 1],
    ["-1Mi", -1],
    ["-.5", -1],
    ["Gi", undefined],
    ["-", undefined],
    ["", undefined],
  ])("%s is %s", (q, sign) => {
    expect(quantitySign(q)).toBe(sign);
    expect(isNegativeQuantity(q)).toBe(sign === -1);
  });
});
