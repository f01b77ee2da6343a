import * as fs from "fs";
import * as path from "path";
import { TerraformStack, TerraformVariable, Testing } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { KarpenterRelease, KarpenterReleaseProps } from "../../lib/helm/karpenter-release";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterProps } from "../../lib/install/karpenter-props";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodePool } from "../../lib/nodes/node-pool";
import {
  breaksChartRendering,
  controllerGateName,
  effectiveGate,
  effectiveSetting,
  parseGateString,
  readControllerEnv,
} from "../../lib/helm/controller-env";
import { resolveKarpenterVersion } from "../../lib/versions/karpenter-version";
import { rejected, testCluster, testStack } from "../helpers";
import { refused, release, warningsOf, withEnv } from "./release-harness";
import { describeWithReference, referenceRoot, referenceVersionsWith } from "../reference";

/*
 * values.controller.env entries replace the env vars the chart builds (deployment.yaml of 1.15.0: the chart's
 * entries :93-213, controller.env appended :214; the container gets the last entry of a name): what the
 * controller sees is read in lib/helm/controller-env.ts, and the checks and gate rules follow it.
 */

/** A Karpenter with the Helm and Kubernetes providers, for the gate rules of its node objects. */
function install(props: Partial<KarpenterProps>) {
  const { stack } = testStack();
  new HelmProvider(stack, "helm", {});
  new KubernetesProvider(stack, "k8s", {});
  const karpenter = new Karpenter(stack, "karpenter", { cluster: testCluster(stack, "demo"), ...props });
  return { stack, karpenter };
}

const v = (version: string) => resolveKarpenterVersion(testStack().stack, version);

describe("a chart value an env entry replaces is not judged: it warns, naming the entry", () => {
  test.each([
    [
      "settings.batchMaxDuration",
      { settings: { batchMaxDuration: "soon" }, values: withEnv([{ name: "BATCH_MAX_DURATION", value: "10s" }]) },
      { settings: { batchMaxDuration: "soon" } },
    ],
    [
      "values.settings.preferencePolicy",
      {
        values: withEnv([{ name: "PREFERENCE_POLICY", value: "Respect" }], {
          settings: { preferencePolicy: "respect" },
        }),
      },
      { values: { settings: { preferencePolicy: "respect" } } },
    ],
    [
      "values.logLevel",
      { values: withEnv([{ name: "LOG_LEVEL", value: "debug" }], { logLevel: "DEBUG" }) },
      { values: { logLevel: "DEBUG" } },
    ],
    [
      "settings.featureGates.nodeRepair",
      {
        settings: { featureGates: { nodeRepair: "yes" as never } },
        values: withEnv([{ name: "FEATURE_GATES", value: "NodeRepair=true" }]),
      },
      { settings: { featureGates: { nodeRepair: "yes" as never } } },
    ],
    [
      "values.settings.awsFeatureGates.nodeClassCEL",
      {
        values: withEnv([{ name: "AWS_FEATURE_GATES", value: "NodeClassCEL=true" }], {
          settings: { awsFeatureGates: { nodeClassCEL: "on" } },
        }),
      },
      { values: { settings: { awsFeatureGates: { nodeClassCEL: "on" } } } },
    ],
  ] as const)("%s: replaced, a warning; without the entry, refused", (field, replaced, alone) => {
    const warnings = release(replaced as Partial<KarpenterReleaseProps>);
    expect(warnings).toEqual([expect.stringContaining(`${field} = `)]);
    expect(warnings[0]).toMatch(/has no effect: values\.controller\.env\[0\] \((\w+)\) replaces/);
    const e = refused(alone as Partial<KarpenterReleaseProps>);
    expect(e.problems.map((p) => p.field)).toEqual([field]);
  });

  test("an entry from valueFrom replaces the chart value too; a token-named entry is not known to, so the value is judged", () => {
    const bad = { settings: { batchMaxDuration: "soon" } };
    const fromSource = { name: "BATCH_MAX_DURATION", valueFrom: { configMapKeyRef: { name: "c", key: "k" } } };
    expect(release({ ...bad, values: withEnv([fromSource]) })).toEqual([
      expect.stringContaining('settings.batchMaxDuration = "soon" has no effect: values.controller.env[0]'),
    ]);
    const { stack } = testStack();
    const name = new TerraformVariable(stack, "n", { type: "string" }).stringValue;
    const e = rejected(
      () =>
        new KarpenterRelease(stack, "rel", {
          cluster: testCluster(stack, "demo"),
          ...bad,
          values: withEnv([{ name, value: "10s" }]),
        }),
    );
    expect(e.problems.map((p) => [p.field, p.code])).toEqual([["settings.batchMaxDuration", "HELM_VALUES_SETTING"]]);
  });

  test("the winning entry's own value is judged as before", () => {
    const e = refused({
      settings: { batchMaxDuration: "soon" },
      values: withEnv([
        { name: "BATCH_MAX_DURATION", value: "10s" },
        { name: "BATCH_MAX_DURATION", value: "later" },
      ]),
    });
    expect(e.problems.map((p) => [p.field, p.code])).toEqual([
      ["values.controller.env[1].value", "HELM_VALUES_SETTING"],
    ]);
  });

  test("a valid replaced value warns too (it has no effect); through Karpenter the warning is given once", () => {
    const { stack } = install({
      settings: { batchMaxDuration: "10s" },
      values: withEnv([{ name: "BATCH_MAX_DURATION", value: "20s" }]),
    });
    expect(warningsOf(stack).filter((w) => w.includes("BATCH_MAX_DURATION"))).toEqual([
      expect.stringContaining(
        'settings.batchMaxDuration = "10s" has no effect: values.controller.env[0] (BATCH_MAX_DURATION)',
      ),
    ]);
  });

  test("effectiveSetting: the last entry wins over values.settings and the typed setting", () => {
    const values = withEnv(
      [
        { name: "BATCH_MAX_DURATION", value: "1s" },
        { name: "BATCH_MAX_DURATION", value: "2s" },
      ],
      { settings: { batchMaxDuration: "3s" } },
    );
    expect(effectiveSetting("batchMaxDuration", { batchMaxDuration: "4s" }, values)).toMatchObject({
      value: "2s",
      field: "values.controller.env[1].value",
      replaced: { field: "values.settings.batchMaxDuration", value: "3s" },
    });
    expect(effectiveSetting("batchMaxDuration", { batchMaxDuration: "4s" }, {})).toEqual({
      value: "4s",
      field: "settings.batchMaxDuration",
    });
    expect(effectiveSetting("logLevel", undefined, withEnv([{ name: "LOG_LEVEL" }]))).toMatchObject({ value: "" });
  });
});

describe("a replaced value the chart cannot render is still refused", () => {
  test.each([
    ["settings.batchMaxDuration", "a quote", { settings: { batchMaxDuration: '10s"' } }, "BATCH_MAX_DURATION", "10s"],
    [
      "settings.batchIdleDuration",
      "a template action",
      { settings: { batchIdleDuration: "{{ .Release.Name }}" } },
      "BATCH_IDLE_DURATION",
      "1s",
    ],
    ["values.logLevel", "a backslash", { values: { logLevel: "de\\bug" } }, "LOG_LEVEL", "info"],
  ] as const)("%s holding %s is refused although an env entry replaces it", (field, _what, props, name, value) => {
    const p = props as { settings?: object; values?: Record<string, unknown> };
    const e = refused({
      ...p,
      values: { ...(p.values ?? {}), ...withEnv([{ name, value }]) },
    } as Partial<KarpenterReleaseProps>);
    expect(e.problems.map((x) => x.field)).toEqual([field]);
  });

  test("breaksChartRendering: the three sequences, a look-alike without them is safe", () => {
    for (const bad of ['a"b', "a\\nb", "{{ x }}", { nested: "map" }]) expect(breaksChartRendering(bad)).toBe(true);
    for (const ok of ["soon", "a'b", "{ x }", "a/b", 5, true]) expect(breaksChartRendering(ok)).toBe(false);
  });
});

describe("the gate rules read the effective gates", () => {
  test("NodeOverlay on in settings, off through a FEATURE_GATES string that does not name it: addNodeOverlay is refused", () => {
    const { karpenter } = install({
      settings: { featureGates: { nodeOverlay: true } },
      values: withEnv([{ name: "FEATURE_GATES", value: "NodeRepair=true" }]),
    });
    expect(karpenter.nodeOverlayGate).toBe(false);
    const e = rejected(() => karpenter.addNodeOverlay("x", { requirements: [], price: "1" }));
    expect(e.problems.map((p) => [p.field, p.code])).toEqual([["karpenter", "INSTALL_FEATURE_GATE_OFF"]]);
    expect(e.message).toContain("NodeOverlay=true in the FEATURE_GATES entry of its values.controller.env");
    // the look-alike: the string names the gate, settings leave it off
    const on = install({ values: withEnv([{ name: "FEATURE_GATES", value: "NodeOverlay=true" }]) }).karpenter;
    expect(on.nodeOverlayGate).toBe(true);
    expect(() => on.addNodeOverlay("x", { requirements: [], price: "1" })).not.toThrow();
  });

  test("a static NodePool warns when FEATURE_GATES leaves StaticCapacity out, not when it names it", () => {
    /** An install with the gate on in settings and `gates` as FEATURE_GATES, a static pool in a nodes stack. */
    const staticPool = (gates: string) => {
      const app = Testing.app();
      const base = new TerraformStack(app, "base");
      new AwsProvider(base, "aws", { region: "us-east-1" });
      new HelmProvider(base, "helm", {});
      const karpenter = new Karpenter(base, "karpenter", {
        cluster: testCluster(base, "demo"),
        settings: { featureGates: { staticCapacity: true } },
        values: withEnv([{ name: "FEATURE_GATES", value: gates }]),
      });
      const nodes = new TerraformStack(app, "nodes");
      new KubernetesProvider(nodes, "k8s", {});
      new NodePool(nodes, "fixed", { nodeClass: new Ec2NodeClass(nodes, "default", { karpenter }), replicas: 2 });
      Testing.synth(base, true);
      return warningsOf(base).filter((w) => /a static NodePool/.test(w));
    };
    expect(staticPool("NodeRepair=true")).toEqual([
      expect.stringContaining("nodes/fixed (NodePool fixed) sets replicas"),
    ]);
    expect(staticPool("StaticCapacity=True")).toEqual([]);
  });

  test("NodeClassCEL: AWS_FEATURE_GATES=NodeClassCEL=false refuses kubelet expressions, NodeClassCEL=t allows them", () => {
    const nodeClass = (gates: string) => {
      const { stack, karpenter } = install({
        version: "1.15.2",
        settings: { awsFeatureGates: { nodeClassCEL: true } },
        values: withEnv([{ name: "AWS_FEATURE_GATES", value: gates }]),
      });
      const nodes = new TerraformStack(stack.node.scope!, "nodes");
      return () => new Ec2NodeClass(nodes, "c", { karpenter, kubelet: { maxPodsExpression: "min(110, max_pods)" } });
    };
    expect(nodeClass("NodeClassCEL=false")).toThrow(/KubeletExpressionsDisabled/);
    expect(nodeClass("NodeClassCEL=t")).not.toThrow();
  });

  test("U+0085 around a name and a bool is Go space (parsed, gate on); a BOM before the bool is not (refused)", () => {
    const nel = "\u0085NodeOverlay\u0085=\u0085true\u0085";
    const { karpenter } = install({ values: withEnv([{ name: "FEATURE_GATES", value: nel }]) });
    expect(karpenter.nodeOverlayGate).toBe(true);
    const bom = "NodeOverlay=\uFEFFtrue";
    const e = refused({ values: withEnv([{ name: "FEATURE_GATES", value: bom }]) });
    expect(e.problems.map((p) => [p.field, p.code])).toEqual([
      ["values.controller.env[0].value", "HELM_VALUES_SETTING"],
    ]);
    expect(parseGateString(bom)).toEqual({ bad: bom });
  });

  test("effectiveGate: the chart value without an entry; the string, or the controller default, with one", () => {
    const v15 = v("1.15.3");
    const gates = (value: unknown) => withEnv([{ name: "FEATURE_GATES", value }]);
    expect(effectiveGate(v15, "featureGates", "nodeOverlay", { featureGates: { nodeOverlay: true } }, {})).toBe(true);
    expect(effectiveGate(v15, "featureGates", "nodeOverlay", undefined, gates("NodeOverlay=1,NodeOverlay=0"))).toBe(
      false,
    );
    // not named: the controller's default, which is true for ReservedCapacity (beta) and false for the alpha gates
    expect(effectiveGate(v15, "featureGates", "reservedCapacity", undefined, gates("NodeRepair=true"))).toBe(true);
    expect(
      effectiveGate(v15, "featureGates", "reservedCapacity", { featureGates: { reservedCapacity: false } }, {}),
    ).toBe(false);
    // not known at synth: valueFrom, a string the controller cannot parse
    const fromSource = withEnv([{ name: "FEATURE_GATES", valueFrom: { configMapKeyRef: { name: "c", key: "k" } } }]);
    expect(effectiveGate(v15, "featureGates", "nodeOverlay", undefined, fromSource)).toBeUndefined();
    expect(effectiveGate(v15, "featureGates", "nodeOverlay", undefined, gates("NodeOverlay=yes"))).toBeUndefined();
    // AWS_FEATURE_GATES is read from 1.15: on 1.14 the entry changes nothing
    const aws = withEnv([{ name: "AWS_FEATURE_GATES", value: "NodeClassCEL=true" }]);
    expect(effectiveGate(v("1.14.1"), "awsFeatureGates", "nodeClassCEL", undefined, aws)).toBe(false);
    expect(effectiveGate(v15, "awsFeatureGates", "nodeClassCEL", undefined, aws)).toBe(true);
    expect(
      effectiveGate(
        v15,
        "awsFeatureGates",
        "draNVIDIAGPU",
        undefined,
        withEnv([{ name: "AWS_FEATURE_GATES", value: "DRANVIDIAGPU=true" }]),
      ),
    ).toBe(true);
  });

  test("the setting combinations stay on the chart settings: the chart fails at render on them whatever the env", () => {
    const e = refused({
      settings: { legacyNodeRepair: true, featureGates: { nodeRepair: true, terminateFirstRepair: true } },
      values: withEnv([{ name: "FEATURE_GATES", value: "NodeRepair=true,TerminateFirstRepair=false" }]),
    });
    expect(e.problems.map((p) => [p.field, p.code])).toEqual([
      ["settings.legacyNodeRepair", "HELM_VALUES_FEATURE_GATE_CONFLICT"],
    ]);
  });
});

const templateVersions = referenceVersionsWith("charts/karpenter/templates/deployment.yaml");
describeWithReference(templateVersions)("gate names = the published deployment template", () => {
  test.each(templateVersions)("every Name={{ …<key> }} pair of %s is controllerGateName(key)", (version) => {
    const template = fs.readFileSync(
      path.join(referenceRoot(), `v${version}`, "charts/karpenter/templates/deployment.yaml"),
      "utf8",
    );
    const pairs = [
      ...template.matchAll(/(\w+)=\{\{ (?:\.Values\.settings\.(?:featureGates|awsFeatureGates)|\$dra)\.(\w+) \}\}/g),
    ];
    expect(pairs.length).toBeGreaterThan(0);
    for (const [, name, key] of pairs) expect([key, controllerGateName(key)]).toEqual([key, name]);
  });
});

describe("an entry read as the container gets it", () => {
  test('valueFrom: null is no source: CLUSTER_NAME with it is "" and refused; a real valueFrom is left alone', () => {
    expect(readControllerEnv(withEnv([{ name: "CLUSTER_NAME", valueFrom: null }])).winners.get("CLUSTER_NAME")).toEqual(
      { index: 0, name: "CLUSTER_NAME", value: "" },
    );
    const e = refused({ values: withEnv([{ name: "CLUSTER_NAME", valueFrom: null }]) });
    expect(e.problems.map((p) => [p.field, p.code])).toEqual([
      ["values.controller.env[0].value", "HELM_VALUES_SETTING"],
    ]);
    expect(e.message).toContain("missing field, cluster-name");
    expect(release({ values: withEnv([{ name: "CLUSTER_NAME", value: "demo", valueFrom: null }]) })).toEqual([]);
    expect(
      release({ values: withEnv([{ name: "CLUSTER_NAME", valueFrom: { configMapKeyRef: { name: "c", key: "k" } } }]) }),
    ).toEqual([]);
  });

  test("FEATURE_GATES on 1.13 is not checked, and the warning says why; on 1.14 the same string is refused", () => {
    const env = withEnv([{ name: "FEATURE_GATES", value: "NodeOverlay=yes" }]);
    expect(release({ version: "1.13.1", values: env })).toEqual([
      expect.stringContaining(
        'values.controller.env[0].value = "NodeOverlay=yes" (FEATURE_GATES) is not checked for Karpenter 1.13.1: the library has read how the controller parses feature gates (ParseFeatureGates, k8s.io/component-base MapStringBool) only in the source of 1.14.0 and later',
      ),
    ]);
    expect(refused({ version: "1.14.1", values: env }).problems.map((p) => p.code)).toEqual(["HELM_VALUES_SETTING"]);
  });
});
