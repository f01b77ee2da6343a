import { KarpenterValidationError } from "../../lib/core/errors";

describe("KarpenterValidationError.isError (a brand, not instanceof)", () => {
  test("true for this copy's errors and combined ones, false for other errors and look-alikes", () => {
    const e = new KarpenterValidationError("app/k", "replicas", -1, "0 or more");
    expect(KarpenterValidationError.isError(e)).toBe(true);
    expect(KarpenterValidationError.isError(KarpenterValidationError.combine([e, e]))).toBe(true);
    expect(KarpenterValidationError.isError(new Error("app/k: replicas = -1 is invalid"))).toBe(false);
    expect(KarpenterValidationError.isError({ name: "KarpenterValidationError", path: "app/k" })).toBe(false);
    expect(KarpenterValidationError.isError(undefined)).toBe(false);
    expect(KarpenterValidationError.isError("KarpenterValidationError")).toBe(false);
  });

  test("true for an error of another copy of the library, which instanceof misses", () => {
    let Other: typeof KarpenterValidationError | undefined;
    jest.isolateModules(() => {
      Other = (require("../../lib/core/errors") as typeof import("../../lib/core/errors")).KarpenterValidationError;
    });
    const foreign = new Other!("app/k", "weight", 0, "1 to 100");
    expect(Other).not.toBe(KarpenterValidationError);
    expect(foreign instanceof KarpenterValidationError).toBe(false);
    expect(KarpenterValidationError.isError(foreign)).toBe(true);
  });
});
