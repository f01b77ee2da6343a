import { skipTitle } from "./reference";

/*
 * test/skip-reporter.cjs: what a run without ../shared prints at its end, and that CI=true fails it.
 * The names come from skipTitle(), as describeIf/testIf give them, so the marker and its reader stay in step.
 */

const SkipReporter = require("./skip-reporter.cjs");

const reference = { what: "../shared/reference/karpenter", at: "/nowhere/reference/karpenter", present: false };
const harness = {
  what: "the conformance harness ../shared/conformance/check.cjs",
  at: "/nowhere/conformance/check.cjs",
  present: false,
};

function report(
  tests: { file: string; status: string; title: string; ancestors?: string[] }[],
  env: { CI?: string } = {},
  globalConfig: object = {},
) {
  const files = [...new Set(tests.map((t) => t.file))].map((file) => ({
    testFilePath: `/repo/${file}`,
    testResults: tests
      .filter((t) => t.file === file)
      .map((t) => ({
        status: t.status,
        title: t.title,
        ancestorTitles: t.ancestors ?? [],
        fullName: [...(t.ancestors ?? []), t.title].join(" "),
      })),
  }));
  const written: string[] = [];
  const write = jest
    .spyOn(process.stderr, "write")
    .mockImplementation((s: string | Uint8Array) => (written.push(String(s)), true));
  const ci = process.env.CI;
  if (env.CI === undefined) delete process.env.CI;
  else process.env.CI = env.CI;
  try {
    const reporter = new SkipReporter({ rootDir: "/repo", ...globalConfig });
    reporter.onRunComplete(new Set(), { testResults: files });
    return { out: written.join(""), error: reporter.getLastError() as Error | undefined };
  } finally {
    write.mockRestore();
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
  }
}

describe("skip reporter", () => {
  const skipped = [
    {
      file: "test/a.test.ts",
      status: "pending",
      title: "matches 1.0",
      ancestors: [skipTitle("chart table", reference)],
    },
    {
      file: "test/a.test.ts",
      status: "pending",
      title: "matches 1.1",
      ancestors: [skipTitle("chart table", reference)],
    },
    {
      file: "test/b.test.ts",
      status: "pending",
      title: "passes",
      ancestors: [skipTitle("outer", reference), skipTitle("harness", harness)],
    },
    { file: "test/b.test.ts", status: "passed", title: "synthesizes" },
  ];

  test("names each missing folder once, with the count, where it was looked for and the files", () => {
    const { out, error } = report(skipped);
    expect(out).toContain(
      "SKIP: 2 tests need ../shared/reference/karpenter (not found at /nowhere/reference/karpenter): test/a.test.ts",
    );
    // the innermost reason counts: the harness test sits in a group skipped for the reference
    expect(out).toContain(
      "SKIP: 1 test needs the conformance harness ../shared/conformance/check.cjs (not found at /nowhere/conformance/check.cjs): test/b.test.ts",
    );
    expect(out).toContain("skipped, not passed: CI=true fails on these");
    expect(error).toBeUndefined();
  });

  test("under CI=true the same run is an error, which makes jest exit non-zero", () => {
    const { out, error } = report(skipped, { CI: "true" });
    expect(error?.message).toBe(
      "3 test(s) skipped under CI=true: CI checks out ../shared beside the repo, so nothing may skip there",
    );
    expect(out).toContain("FAIL: 3 test(s) skipped");
    expect(report(skipped, { CI: "false" }).error).toBeUndefined();
  });

  test("a skip without a reason is listed as such, and fails CI too", () => {
    const plain = [{ file: "test/c.test.ts", status: "pending", title: "later" }];
    expect(report(plain).out).toContain(
      "SKIP: 1 test skipped in the code without a reason (use describeIf/testIf of test/reference.ts, which names it):\n  test/c.test.ts: later",
    );
    expect(report(plain, { CI: "1" }).error).toBeDefined();
    // tests left out by -t are the user's choice, not a skip to report
    expect(report(plain, { CI: "1" }, { testNamePattern: "other" })).toEqual({ out: "", error: undefined });
  });

  test("a run with nothing skipped prints nothing", () => {
    expect(report([{ file: "test/a.test.ts", status: "passed", title: "ok" }], { CI: "true" })).toEqual({
      out: "",
      error: undefined,
    });
  });
});
