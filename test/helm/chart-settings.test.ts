import {
  CHART_FEATURE_GATES,
  CHART_SETTINGS,
  checkChartValue,
  hasKey,
  modelledSettingsBlock,
  SETTING_ENV,
  SETTING_RULES,
} from "../../lib/helm/chart-settings";
import * as fs from "fs";
import * as path from "path";
import { KNOWN_RELEASES } from "../../lib/versions/karpenter-version";
import { describeWithReference, referenceChartValues, referenceRoot, referenceVersionsWith } from "../reference";

const referenceVersions = referenceVersionsWith("charts/karpenter/values.yaml");
const fact = (key: string) => [...CHART_SETTINGS, ...CHART_FEATURE_GATES].find((f) => f.key === key)!;
const gatesAt = (version: string) => modelledSettingsBlock(version).featureGates as Record<string, unknown>;

describeWithReference(referenceVersions)("chart settings table = published values.yaml", () => {
  // the reference copies are the published chart values.yaml of the newest patch of each minor
  test.each(referenceVersions)(
    "matches settings: of the %s values.yaml key for key and default for default",
    (version) => {
      expect(modelledSettingsBlock(version)).toEqual(referenceChartValues(version).settings);
    },
  );

  test("the reference covers every known release", () => {
    expect(referenceVersions).toEqual([...KNOWN_RELEASES]);
  });
});

describe("chart settings table", () => {
  test("disableDryRun landed in the 1.6.2 patch, not 1.6.0", () => {
    expect(hasKey(fact("disableDryRun"), "1.6.1")).toBe(false);
    expect(hasKey(fact("disableDryRun"), "1.6.2")).toBe(true);
    expect(modelledSettingsBlock("1.6.0")).not.toHaveProperty("disableDryRun");
    expect(modelledSettingsBlock("1.6.2")).toHaveProperty("disableDryRun", false);
  });

  test("1.8.0 values.yaml spells the staticCapacity gate StaticCapacity; 1.8.1 fixed it (upstream PR #8590)", () => {
    expect(gatesAt("1.8.0").StaticCapacity).toBe(false);
    expect(gatesAt("1.8.0")).not.toHaveProperty("staticCapacity");
    expect(gatesAt("1.8.1")).toHaveProperty("staticCapacity", false);
    expect(gatesAt("1.8.1")).not.toHaveProperty("StaticCapacity");
    expect(hasKey(fact("staticCapacity"), "1.7.6")).toBe(false);
  });

  test("reservedCapacity is absent before 1.3, defaults to false in 1.3–1.5 and to true from 1.6.0", () => {
    expect(gatesAt("1.2.8")).not.toHaveProperty("reservedCapacity");
    expect(gatesAt("1.5.8").reservedCapacity).toBe(false);
    expect(gatesAt("1.6.0").reservedCapacity).toBe(true);
  });

  test("no key or gate carries a since later than the newest known release of its minor", () => {
    for (const f of [...CHART_SETTINGS, ...CHART_FEATURE_GATES]) {
      const minor = f.since.split(".").slice(0, 2).join(".");
      expect(KNOWN_RELEASES.some((r) => r.startsWith(`${minor}.`))).toBe(true);
    }
  });
});

describe("setting values", () => {
  test("durations are Go durations (time.ParseDuration): every unit, fractions; refresh intervals at least 1m", () => {
    const batch = fact("batchMaxDuration");
    for (const ok of ["15s", "1h30m", "1.5s", ".5s", "500ms", "750us", "750µs", "750μs", "100ns"])
      expect(checkChartValue(batch, ok)).toBeUndefined();
    expect(checkChartValue(batch, "0s")).toMatch(/greater than zero/);
    expect(checkChartValue(batch, "0")).toMatch(/greater than zero/);
    expect(checkChartValue(batch, "-10s")).toMatch(/Go duration/);
    expect(checkChartValue(batch, "10")).toMatch(/Go duration/);
    expect(checkChartValue(batch, "15 seconds")).toMatch(/Go duration/);
    // beyond Go's time.Duration (2^63-1 ns, about 292 years) ParseDuration fails
    expect(checkChartValue(batch, "2562048h")).toMatch(/Go duration/);
    expect(checkChartValue(fact("amiRefreshInterval"), "30s")).toMatch(/at least 1m/);
    expect(checkChartValue(fact("amiRefreshInterval"), "59.999s")).toMatch(/at least 1m/);
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

const templateVersions = referenceVersionsWith("charts/karpenter/templates/deployment.yaml");
describeWithReference(templateVersions)("setting env vars = the published deployment template", () => {
  test.each(templateVersions)("every `with .Values.settings.<key>` env of %s is in SETTING_ENV", (version) => {
    const template = fs.readFileSync(
      path.join(referenceRoot(), `v${version}`, "charts/karpenter/templates/deployment.yaml"),
      "utf8",
    );
    const pairs = [...template.matchAll(/with \.Values\.settings\.(\w+) \}\}\s*- name: ([A-Z_]+)/g)];
    expect(pairs.length).toBeGreaterThan(5);
    for (const [, key, env] of pairs) expect([key, SETTING_ENV[key]]).toEqual([key, env]);
  });
});

test("every setting but enableDRA has its env var in SETTING_ENV", () => {
  expect(Object.keys(SETTING_RULES).filter((k) => SETTING_ENV[k] === undefined)).toEqual(["enableDRA"]);
  expect(Object.keys(SETTING_ENV).filter((k) => SETTING_RULES[k] === undefined)).toEqual([]);
});
