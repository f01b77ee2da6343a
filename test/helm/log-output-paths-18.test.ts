import { logPathFinding } from "../../lib/helm/log-output-paths";
import { refused, release } from "./release-harness";

/*
 * fresh tester 18, S-2: where the controller writes its logs (lib/helm/log-output-paths.ts). Each element of
 * LOG_OUTPUT_PATHS / LOG_ERROR_OUTPUT_PATHS is opened by zap at start, and a failure panics the controller
 * (sigs.k8s.io/karpenter logging.go:80); the chart's container has a read-only root filesystem.
 */

const mount = { controller: { extraVolumeMounts: [{ name: "logs", mountPath: "/var/log/karpenter" }] } };
const logsVolume = { extraVolumes: [{ name: "logs", emptyDir: {} }] };

describe("log output paths the controller cannot open (fresh tester 18)", () => {
  test.each<[string, Record<string, unknown>, string[]]>([
    ["an empty item", { logOutputPaths: ["stdout", ""] }, ["values.logOutputPaths[1]"]],
    ["a list of one empty item", { logErrorOutputPaths: [""] }, ["values.logErrorOutputPaths[0]"]],
    ["a trailing comma inside an item", { logOutputPaths: ["stdout,"] }, ["values.logOutputPaths[0]"]],
    ["a space after the comma", { logOutputPaths: ["stdout, stderr"] }, ["values.logOutputPaths[0]"]],
    ["STDOUT in capitals", { logOutputPaths: ["STDOUT"] }, ["values.logOutputPaths[0]"]],
    ["an http URL", { logOutputPaths: ["http://collector:8080/logs"] }, ["values.logOutputPaths[0]"]],
    [
      "a file on the read-only root filesystem",
      { logOutputPaths: ["/var/log/karpenter.log"] },
      ["values.logOutputPaths[0]"],
    ],
    ["a file: URL off any mount", { logErrorOutputPaths: ["file:///tmp/err.log"] }, ["values.logErrorOutputPaths[0]"]],
    ["a file URL with a host", { logOutputPaths: ["file://server/var/log/k.log"] }, ["values.logOutputPaths[0]"]],
    ["a file path with a query", { logOutputPaths: ["k.log?rotate=1"] }, ["values.logOutputPaths[0]"]],
    ["a quote that breaks the chart's YAML", { logOutputPaths: ['std"out'] }, ["values.logOutputPaths[0]"]],
    [
      "a file in a readOnly mount",
      {
        ...logsVolume,
        logOutputPaths: ["/var/log/karpenter/out.log"],
        controller: { extraVolumeMounts: [{ name: "logs", mountPath: "/var/log/karpenter", readOnly: true }] },
      },
      ["values.logOutputPaths[0]"],
    ],
    [
      "a file in a configMap volume (always read-only)",
      {
        extraVolumes: [{ name: "logs", configMap: { name: "c" } }],
        ...mount,
        logOutputPaths: ["/var/log/karpenter/out.log"],
      },
      ["values.logOutputPaths[0]"],
    ],
    [
      "a file in an image volume (always read-only; fresh tester 20 CF-1)",
      {
        extraVolumes: [{ name: "logs", image: { reference: "busybox:1.36" } }],
        ...mount,
        logOutputPaths: ["/var/log/karpenter/out.log"],
      },
      ["values.logOutputPaths[0]"],
    ],
    [
      "an env entry replacing the list, with an empty element",
      { controller: { env: [{ name: "LOG_ERROR_OUTPUT_PATHS", value: "stderr,,/dev/stderr" }] } },
      ["values.controller.env[0].value"],
    ],
    [
      "every problem at once",
      { logOutputPaths: ["", "s3://bucket/logs"], logErrorOutputPaths: ["/err.log"] },
      ["values.logOutputPaths[0]", "values.logOutputPaths[1]", "values.logErrorOutputPaths[0]"],
    ],
  ])("refused: %s", (_what, values, fields) => {
    const e = refused({ values });
    expect(e.problems.map((p) => p.field).sort()).toEqual([...fields].sort());
    for (const p of e.problems) expect(p.code).toBe("HELM_VALUES_LOG_OUTPUT_PATHS");
  });

  test("the message says why and what to do", () => {
    const e = refused({ values: { logOutputPaths: ["/var/log/karpenter.log"] } });
    expect(e.message).toMatch(/read-only root filesystem/);
    expect(e.message).toMatch(/extraVolumeMounts/);
    expect(e.message).toMatch(/panics at start/);
    expect(refused({ values: { logOutputPaths: ["Stderr"] } }).message).toMatch(/did you mean "stderr"\?/);
  });

  test.each<[string, Record<string, unknown>]>([
    ["the chart's defaults", {}],
    ["stdout and stderr both", { logOutputPaths: ["stdout", "stderr"], logErrorOutputPaths: ["stderr,stdout"] }],
    ["an empty list (the chart writes nothing)", { logOutputPaths: [] }],
    ["null (the chart writes nothing)", { logOutputPaths: null }],
    [
      "the runtime's streams",
      { logOutputPaths: ["/dev/stdout", "/proc/self/fd/1"], logErrorOutputPaths: ["/dev/stderr"] },
    ],
    [
      "a file: URL with localhost to the stream",
      { logErrorOutputPaths: ["file://localhost/dev/stderr", "file:///dev/stderr"] },
    ],
    [
      "an env entry with a valid value replaces a list",
      { logOutputPaths: ["/nowhere.log"], controller: { env: [{ name: "LOG_OUTPUT_PATHS", value: "stdout" }] } },
    ],
  ])("passes without a word: %s", (_what, values) => {
    expect(release({ values }).filter((w) => /OUTPUT_PATHS|OutputPaths/.test(w))).toEqual([]);
  });

  test("a file in a writable volume passes with a warning (the directory must exist and be writable)", () => {
    const warnings = release({
      values: { ...logsVolume, ...mount, logOutputPaths: ["stdout", "/var/log/karpenter/out.log"] },
    });
    expect(warnings.filter((w) => /values\.logOutputPaths\[1\]/.test(w))).toHaveLength(1);
    expect(warnings.join("\n")).toMatch(/user 65532/);
  });

  test("a relative file path warns (it depends on the image's working directory)", () => {
    const warnings = release({ values: { logOutputPaths: ["karpenter.log"] } });
    expect(
      warnings.filter((w) => /values\.logOutputPaths\[0\] = "karpenter\.log".*working directory/.test(w)),
    ).toHaveLength(1);
  });

  test("before 1.14 (the controller's source not read) a problem is a warning", () => {
    const warnings = release({ version: "1.13.1", values: { logOutputPaths: [""] } });
    expect(warnings.filter((w) => /values\.logOutputPaths\[0\].*not refused for 1\.13\.1/.test(w))).toHaveLength(1);
  });

  test("a token mountPath: mounts unknown, so an absolute path only warns", () => {
    const { Token } = require("cdktf");
    const warnings = release({
      values: {
        ...logsVolume,
        controller: { extraVolumeMounts: [{ name: "logs", mountPath: Token.asString({ Ref: "x" }) }] },
        logOutputPaths: ["/var/log/karpenter/out.log"],
      },
    });
    expect(warnings.filter((w) => /values\.logOutputPaths\[0\].*not known at synth/.test(w))).toHaveLength(1);
  });

  // what zap v1.28.0 sink.go:93-159 does with each form (read from the source, and each non-absolute one checked
  // against zap.Open of v1.28.0 in a scratch module: the outcomes agree)
  test.each<[string, "ok" | "problem" | "warning"]>([
    ["stdout", "ok"],
    ["", "problem"], // :158 os.OpenFile("")
    ["/dev/null", "ok"],
    ["/var/log/../../dev/stdout", "ok"], // the kernel resolves ".."
    ["file:stdout", "problem"], // opaque: Path "" (:148)
    ["FILE:///dev/stderr", "ok"], // the scheme is case-insensitive
    ["file://localhost:8080/dev/stderr", "problem"], // :141-143 ports
    ["file://user@localhost/dev/stderr", "problem"], // :131-133 user
    ["/dev/stdout#x", "warning"], // absolute: a file named "stdout#x", not a URL (:98-100)
    ["k.log?", "warning"], // an empty query is none: the file k.log
    ["c:\\x", "problem"], // a Windows path is the scheme "c" on Linux
    ["k.log#x", "problem"], // :134-136 fragments
    ["1:x", "problem"], // url.Parse: colon in the first segment
    ["%zz.log", "problem"], // url.Parse: invalid escape
    ["logs/k.log", "warning"],
  ])("zap's reading of %j: %s", (element, outcome) => {
    const f = logPathFinding(element, []);
    expect(f.problem ? "problem" : f.warning ? "warning" : "ok").toBe(outcome);
  });
});
