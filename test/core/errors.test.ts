import { App, TerraformStack } from "cdktf";
import { KarpenterValidationError } from "../../lib/core/errors";

describe("KarpenterValidationError.isError (a brand, not instanceof)", () => {
  test("true for this copy's errors and combined ones, false for other errors and look-alikes", () => {
    const e = new KarpenterValidationError("HELM_VALUES_REPLICAS", "app/k", "replicas", -1, "0 or more");
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
    const foreign = new Other!("NODEPOOL_INTEGER_RANGE", "app/k", "weight", 0, "1 to 100");
    expect(Other).not.toBe(KarpenterValidationError);
    expect(foreign instanceof KarpenterValidationError).toBe(false);
    expect(KarpenterValidationError.isError(foreign)).toBe(true);
  });
});

describe("the value in a message is shown readably, whatever it is", () => {
  const shown = (v: unknown) => new KarpenterValidationError("AWS_NAME", "p", "f", v, "ok").message;
  test("a construct by its class and path, an object that holds itself, a function, a symbol, a bigint", () => {
    const app = new App();
    const cyc: { me?: unknown } = {};
    cyc.me = cyc;
    const stack = new TerraformStack(app, "s");
    expect(shown(stack)).toBe("p: f = the TerraformStack s is invalid: ok [AWS_NAME]");
    // in a list too (fresh9 C5: a list holding a construct read as "a list that contains itself")
    expect(shown([stack])).toBe('p: f = ["the TerraformStack s"] is invalid: ok [AWS_NAME]');
    expect(shown(app)).toBe("p: f = the App <root> is invalid: ok [AWS_NAME]");
    expect(shown(cyc)).toBe("p: f = (an object that contains itself) is invalid: ok [AWS_NAME]");
    expect(shown(() => 1)).toBe("p: f = (a function) is invalid: ok [AWS_NAME]");
    expect(shown(Symbol("x"))).toBe("p: f = (a symbol) is invalid: ok [AWS_NAME]");
    expect(shown(BigInt(3))).toBe("p: f = 3n is invalid: ok [AWS_NAME]");
    expect(shown({ iops: BigInt(3000) })).toBe('p: f = {"iops":3000} is invalid: ok [AWS_NAME]');
  });
});
