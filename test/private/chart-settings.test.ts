import * as fs from "fs";
import * as path from "path";
import * as YAML from "yaml";
import { CHART_FEATURE_GATES, CHART_SETTINGS, chartDefault, checkChartValue, durationMs, hasKey, modelledSettingsBlock, valuesYamlKey } from "../../lib/private/chart-settings";
import { KNOWN_RELEASES } from "../../lib/private/version";

const REFERENCE = "/work/shared/reference/karpenter";
const referenceVersions = fs.existsSync(REFERENCE)
  ? fs.readdirSync(REFERENCE).filter((d) => /^v\d+\.\d+\.\d+$/.test(d) && fs.existsSync(path.join(REFERENCE, d, "charts/karpenter/values.yaml")))
  : [];
const fact = (key: string) => [...CHART_SETTINGS, ...CHART_FEATURE_GATES].find((f) => f.key === key)!;

describe("chart settings table", () => {
  // the reference copies are the published chart values.yaml of the newest patch of each minor
  (referenceVersions.length ? test.each(referenceVersions) : test.skip.each(["(no reference folder)"]))("matches settings: of %s values.yaml key for key and default for default", (dir) => {
    const values = YAML.parse(fs.readFileSync(path.join(REFERENCE, dir, "charts/karpenter/values.yaml"), "utf8"));
    expect(modelledSettingsBlock(dir.slice(1))).toEqual(values.settings);
  });

  test("the reference covers every known release", () => {
    if (!referenceVersions.length) return;
    expect(referenceVersions.map((d) => d.slice(1)).sort()).toEqual([...KNOWN_RELEASES].sort());
  });

  test("disableDryRun landed in the 1.6.2 patch, not 1.6.0", () => {
    expect(hasKey(fact("disableDryRun"), "1.6.1")).toBe(false);
    expect(hasKey(fact("disableDryRun"), "1.6.2")).toBe(true);
    expect(modelledSettingsBlock("1.6.0")).not.toHaveProperty("disableDryRun");
    expect(modelledSettingsBlock("1.6.2")).toHaveProperty("disableDryRun", false);
  });

  test("1.8.0 values.yaml spells the staticCapacity gate StaticCapacity; 1.8.1 fixed it (upstream PR #8590)", () => {
    expect((modelledSettingsBlock("1.8.0").featureGates as Record<string, unknown>).StaticCapacity).toBe(false);
    expect(modelledSettingsBlock("1.8.0").featureGates).not.toHaveProperty("staticCapacity");
    expect(valuesYamlKey(fact("staticCapacity"), "1.8.1")).toBe("staticCapacity");
    expect(hasKey(fact("staticCapacity"), "1.7.6")).toBe(false);
  });

  test("reservedCapacity defaults to false before 1.6 and to true from 1.6.0", () => {
    expect(chartDefault(fact("reservedCapacity"), "1.2.8")).toBeUndefined();
    expect(chartDefault(fact("reservedCapacity"), "1.5.8")).toBe(false);
    expect(chartDefault(fact("reservedCapacity"), "1.6.0")).toBe(true);
  });

  test("no key or gate carries a since later than the newest known release of its minor", () => {
    for (const f of [...CHART_SETTINGS, ...CHART_FEATURE_GATES]) {
      const minor = f.since.split(".").slice(0, 2).join(".");
      expect(KNOWN_RELEASES.some((r) => r.startsWith(`${minor}.`))).toBe(true);
    }
  });
});

describe("setting values", () => {
  test("durations are Go durations; refresh intervals at least 1m", () => {
    expect(durationMs("1h30m")).toBe(5_400_000);
    expect(durationMs("1.5s")).toBe(1500);
    expect(durationMs("10")).toBeUndefined();
    expect(checkChartValue(fact("batchMaxDuration"), "15s")).toBeUndefined();
    expect(checkChartValue(fact("batchMaxDuration"), "0s")).toMatch(/greater than zero/);
    expect(checkChartValue(fact("batchMaxDuration"), "15 seconds")).toMatch(/Go duration/);
    expect(checkChartValue(fact("amiRefreshInterval"), "30s")).toMatch(/at least 1m/);
    expect(checkChartValue(fact("amiRefreshInterval"), "60s")).toBeUndefined();
    expect(checkChartValue(fact("subnetRefreshInterval"), "2h")).toBeUndefined();
  });

  test("enums, fractions, ENI counts, URLs", () => {
    expect(checkChartValue(fact("preferencePolicy"), "Ignore")).toBeUndefined();
    expect(checkChartValue(fact("preferencePolicy"), "ignore")).toBe('one of "Respect", "Ignore"');
    expect(checkChartValue(fact("minValuesPolicy"), "BestEffort")).toBeUndefined();
    expect(checkChartValue(fact("vmMemoryOverheadPercent"), 0.1)).toBeUndefined();
    expect(checkChartValue(fact("vmMemoryOverheadPercent"), 7.5)).toMatch(/fraction/);
    expect(checkChartValue(fact("reservedENIs"), 1)).toBeUndefined();
    expect(checkChartValue(fact("reservedENIs"), -1)).toMatch(/whole number/);
    expect(checkChartValue(fact("clusterEndpoint"), "https://ABC.gr7.us-east-1.eks.amazonaws.com")).toBeUndefined();
    expect(checkChartValue(fact("clusterEndpoint"), "abc.eks.amazonaws.com")).toMatch(/https/);
    expect(checkChartValue(fact("isolatedVPC"), "true")).toBe("true or false");
  });
});
