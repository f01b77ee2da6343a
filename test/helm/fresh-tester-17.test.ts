import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterRelease, KarpenterReleaseProps } from "../../lib/helm/karpenter-release";
import { rejected, synthJson, testCluster, testStack } from "../helpers";

/*
 * The seventeenth fresh tester's silent acceptances (fresh17-report.md S-1 to S-4): each value the chart renders into
 * something the controller, the kubelet or the API server refuses (or the controller silently replaces) is now
 * refused naming its field, and each has a valid look-alike that still passes.
 */

const release = (props: Partial<KarpenterReleaseProps>) => {
  const { stack } = testStack();
  const cluster = testCluster(stack, "demo");
  new KarpenterRelease(stack, "karpenter", { cluster, ...props } as KarpenterReleaseProps);
  return synthJson(stack);
};

const refusedAt = (props: Partial<KarpenterReleaseProps>, code: string, field: string) =>
  expect(rejected(() => release(props)).problems).toContainEqual(expect.objectContaining({ code, field }));

describe("S-1 null for a feature gate renders `Gate=` into the gate string, which the controller refuses", () => {
  test.each([
    ["featureGates", "nodeRepair"],
    ["featureGates", "spotToSpotConsolidation"],
    ["featureGates", "reservedCapacity"],
    ["featureGates", "nodeOverlay"],
    ["awsFeatureGates", "nodeClassCEL"],
    ["awsFeatureGates", "rebootForRepair"],
  ])('values.settings.%s.%s: null is refused as "" is', (section, gate) => {
    const values = { settings: { [section]: { [gate]: null } } };
    refusedAt({ values }, "HELM_VALUES_SETTING", `values.settings.${section}.${gate}`);
    refusedAt(
      { values: { settings: { [section]: { [gate]: "" } } } },
      "HELM_VALUES_SETTING",
      `values.settings.${section}.${gate}`,
    );
  });
  test("the message says what the chart renders", () => {
    const found = rejected(() => release({ values: { settings: { featureGates: { nodeRepair: null } } } })).problems;
    expect(found[0].message).toContain("NodeRepair= (empty) into FEATURE_GATES");
  });
  test("typed settings: null for a gate is refused too", () => {
    refusedAt(
      { settings: { featureGates: { nodeRepair: null as never } } },
      "HELM_VALUES_SETTING",
      "settings.featureGates.nodeRepair",
    );
  });
  test("look-alikes: false, true, and a DRA gate's null (the chart defaults it) pass", () => {
    expect(() => release({ values: { settings: { featureGates: { nodeRepair: false } } } })).not.toThrow();
    expect(() => release({ values: { settings: { awsFeatureGates: { draNVIDIAGPU: null } } } })).not.toThrow();
    expect(() => release({ values: { settings: { awsFeatureGates: { rebootForRepair: true } } } })).not.toThrow();
  });
  test("look-alike: null under a FEATURE_GATES entry that replaces the chart's gate string passes", () => {
    expect(() =>
      release({
        values: {
          settings: { featureGates: { nodeRepair: null } },
          controller: { env: [{ name: "FEATURE_GATES", value: "NodeRepair=true" }] },
        },
      }),
    ).not.toThrow();
  });
});

describe('S-2 controller.image.repository null or "" renders no image reference', () => {
  test.each([[null], [""], ["  "]])("repository %j is refused", (repository) => {
    refusedAt(
      { values: { controller: { image: { repository } } } },
      "HELM_VALUES_POD_SPEC",
      "values.controller.image.repository",
    );
  });
  test("look-alikes: a mirror repository, and null tag / digest (the helper defaults them) pass", () => {
    expect(() =>
      release({
        values: {
          controller: { image: { repository: "123456789012.dkr.ecr.eu-west-1.amazonaws.com/karpenter/controller" } },
        },
      }),
    ).not.toThrow();
    expect(() => release({ values: { controller: { image: { digest: null } } } })).not.toThrow();
  });
});

describe('S-3 podDisruptionBudget.name null or "" renders a PodDisruptionBudget without a name', () => {
  test.each([[null], [""]])("name %j is refused", (name) => {
    refusedAt(
      { values: { podDisruptionBudget: { name } } },
      "HELM_VALUES_K8S_VALUE",
      "values.podDisruptionBudget.name",
    );
  });
  test("look-alike: another name passes", () => {
    expect(() => release({ values: { podDisruptionBudget: { name: "karpenter-pdb" } } })).not.toThrow();
  });
});

describe("S-4 CPU_REQUESTS of 0 or less, which the controller silently replaces with 1000", () => {
  test.each([["0"], ["-5"]])("CPU_REQUESTS=%s is refused", (value) => {
    const found = rejected(() =>
      release({ values: { controller: { env: [{ name: "CPU_REQUESTS", value }] } } }),
    ).problems;
    expect(found).toContainEqual(
      expect.objectContaining({
        code: "HELM_VALUES_CONTROLLER_OPTION",
        field: "values.controller.env[0].value",
        message: expect.stringContaining("silently use its default 1000"),
      }),
    );
  });
  test("look-alike: CPU_REQUESTS=1 passes", () => {
    expect(() => release({ values: { controller: { env: [{ name: "CPU_REQUESTS", value: "1" }] } } })).not.toThrow();
  });
});

describe("a class instance in chart values (fresh tester 26 V16)", () => {
  test("is named as no plain object, with the fix", () => {
    class Weird {
      x = 1;
    }
    const { stack } = testStack();
    const e = rejected(
      () =>
        new Karpenter(stack, "karpenter", { cluster: testCluster(stack), values: { affinity: new Weird() } } as never),
    );
    expect(e.code).toBe("HELM_VALUES_K8S_TYPE");
    expect(e.message).toContain("this is a Weird (no plain object)");
    expect(e.message).toContain("write its fields as an object literal");
    expect(e.message).not.toContain("cannot decode a object");
  });
});

describe("a controller CPU request with a byte suffix (fresh tester 27 V20, Q47)", () => {
  test.each([
    [
      { values: { controller: { resources: { requests: { cpu: "1Gi" } } } } },
      "values.controller.resources.requests.cpu",
    ],
    [
      { controllerResources: { requests: { cpu: "1Gi", memory: "512Mi" }, limits: { memory: "512Mi" } } },
      "controllerResources.requests.cpu",
    ],
  ])("is refused: the pod never fits a node", (props, field) => {
    const { stack } = testStack();
    const e = rejected(() => new Karpenter(stack, "karpenter", { cluster: testCluster(stack), ...props } as never));
    const p = (e.problems ?? [e]).find((x) => x.field === field);
    expect(p?.message).toContain("means over a million cores");
    expect(p?.message).toContain("fit.go:699-700");
  });
  test("look-alikes pass: one core, 500 millicores", () => {
    for (const cpu of ["1", "500m"]) {
      const { stack } = testStack();
      expect(
        () =>
          new Karpenter(stack, "karpenter", {
            cluster: testCluster(stack),
            values: { controller: { resources: { requests: { cpu } } } },
          }),
      ).not.toThrow();
    }
  });
});

describe("a Secret or ConfigMap volume no such object can be named (fresh tester 28 S23)", () => {
  test("an upper-case configMap name is refused; optional or lower-case passes", () => {
    const { stack } = testStack();
    const e = rejected(
      () =>
        new Karpenter(stack, "karpenter", {
          cluster: testCluster(stack),
          values: { extraVolumes: [{ name: "cfg", configMap: { name: "My-Config" } }] },
        }),
    );
    const p = (e.problems ?? [e]).find((x) => x.field.endsWith("configMap.name"));
    expect(p?.message).toContain("the volume never mounts");
    for (const configMap of [{ name: "my-config" }, { name: "My-Config", optional: true }]) {
      const t = testStack();
      expect(
        () =>
          new Karpenter(t.stack, "karpenter", {
            cluster: testCluster(t.stack),
            values: { extraVolumes: [{ name: "cfg", configMap }] },
          }),
      ).not.toThrow();
    }
  });
});
