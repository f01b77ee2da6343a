import { Testing } from "cdktf";
import { KarpenterVersions } from "../../lib/cluster/karpenter-versions";
import { Karpenter } from "../../lib/install/karpenter";
import { LTS_LINES, pastSupport, supportedLines } from "../../lib/versions/support";
import { providedStack, testCluster } from "../helpers";

/*
 * Upstream's support policy: LTS lines 1.9 (until Feb 2027) and 1.14 (until Jul 2027), regular minors until
 * the next minor ships. Installing a line past it warns; the date is the machine's, injectable here.
 */

const at = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe("support lines", () => {
  test("KarpenterVersions names the LTS lines and their months, with the upstream source", () => {
    expect(KarpenterVersions.LTS_MINORS).toEqual(["1.9", "1.14"]);
    expect(KarpenterVersions.support("1.9.4")).toMatchObject({ minor: "1.9", lts: true, supportedUntil: "2027-02" });
    expect(KarpenterVersions.support("1.14")).toMatchObject({ minor: "1.14", lts: true, supportedUntil: "2027-07" });
    expect(KarpenterVersions.support("1.14").source).toContain(
      "https://github.com/aws/karpenter-provider-aws/releases/tag/v1.14.4",
    );
    expect(KarpenterVersions.support("1.9").source).toContain("https://karpenter.sh/v1.9/upgrading/compatibility/");
    expect(KarpenterVersions.support("1.13.1")).toEqual(
      expect.objectContaining({ minor: "1.13", lts: false, supersededBy: "1.14" }),
    );
    const newest = KarpenterVersions.support("1.15.3");
    expect(newest).toMatchObject({ minor: "1.15", lts: false });
    expect(newest.supersededBy).toBeUndefined();
    expect(() => KarpenterVersions.support("1.16.0")).toThrow(
      /karpenterVersion = "1\.16\.0" is invalid: a release or minor of 1\.0, .*1\.15/,
    );
    expect(LTS_LINES.map((l) => l.until)).toEqual(["2027-02", "2027-07"]);
  });

  test("an LTS line is supported to the end of its month (UTC), then past it", () => {
    expect(pastSupport("1.9", at("2027-02-28"))).toBeUndefined();
    expect(pastSupport("1.9", at("2027-03-01"))).toBe(
      "the LTS line 1.9 was supported until Feb 2027 (upstream's LTS notice)",
    );
    expect(pastSupport("1.14", at("2027-07-31"))).toBeUndefined();
    expect(pastSupport("1.14", at("2027-08-01"))).toMatch(/until Jul 2027/);
  });

  test("a regular minor is past support once a newer minor is known; the newest is not", () => {
    expect(pastSupport("1.13", at("2026-12-02"))).toBe(
      "1.13 is a regular minor, supported only until the next minor was released (1.14; upstream's support policy)",
    );
    expect(pastSupport("1.15", at("2030-01-01"))).toBeUndefined();
    expect(supportedLines(at("2026-12-02"))).toBe(
      "1.15 (until the next minor), 1.14 LTS (until Jul 2027), 1.9 LTS (until Feb 2027)",
    );
    expect(supportedLines(at("2027-03-01"))).toBe("1.15 (until the next minor), 1.14 LTS (until Jul 2027)");
  });
});

describe("installing a line past its support warns", () => {
  function warningsOf(version: string) {
    const app = Testing.app();
    const stack = providedStack(app, "test");
    const cluster = testCluster(stack);
    new Karpenter(stack, "karpenter", { cluster, version });
    return stack.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)))
      .filter((w) => /gets no more fixes/.test(w));
  }

  afterEach(() => jest.useRealTimers());

  test("on the machine's date: 1.9 in March 2027 warns, in December 2026 not", () => {
    jest.useFakeTimers({
      now: at("2027-03-01"),
      doNotFake: ["nextTick", "setImmediate", "setTimeout", "setInterval", "queueMicrotask"],
    });
    expect(warningsOf("1.9.4")).toEqual([
      'Karpenter 1.9.4: the LTS line 1.9 was supported until Feb 2027 (upstream\'s LTS notice), so it gets no more fixes, security patches included. Supported on 2027-03-01: 1.15 (until the next minor), 1.14 LTS (until Jul 2027) (docs/versions.md, "Picking a version")',
    ]);
    jest.useFakeTimers({
      now: at("2026-12-02"),
      doNotFake: ["nextTick", "setImmediate", "setTimeout", "setInterval", "queueMicrotask"],
    });
    expect(warningsOf("1.9.4")).toEqual([]);
    expect(warningsOf("1.14.4")).toEqual([]);
    expect(warningsOf("1.15.3")).toEqual([]);
  });

  test("a superseded regular minor warns whatever the date", () => {
    expect(warningsOf("1.13.1")).toEqual([
      expect.stringMatching(
        /^Karpenter 1\.13\.1: 1\.13 is a regular minor, supported only until the next minor was released \(1\.14; upstream's support policy\), so it gets no more fixes/,
      ),
    ]);
  });
});
