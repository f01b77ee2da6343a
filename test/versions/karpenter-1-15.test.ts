import * as YAML from "yaml";
import { TerraformVariable, Testing } from "cdktf";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterProps } from "../../lib/install/karpenter-props";
import { KarpenterSettings } from "../../lib/helm/karpenter-settings";
import { Ec2NodeClass, Ec2NodeClassProps } from "../../lib/nodes/ec2-node-class";
import { KarpenterValidationError } from "../../lib/core/errors";
import { FakeInstallation, providedStack, rejected, resources, testCluster, testStack } from "../helpers";

/*
 * What Karpenter 1.15 adds, as users meet it: the new settings and both gate blocks, the combinations
 * the chart documents as invalid, the free-form kubelet per AMI family, kubelet CEL expressions behind
 * NodeClassCEL, enclaveOptions; each refused for releases before 1.15, naming the release.
 */

/** A Karpenter install on a Kubernetes 1.36 cluster, synthesized; its controller values and warnings. */
function install(props: Partial<KarpenterProps> = {}) {
  const app = Testing.app();
  const stack = providedStack(app, "test");
  const cluster = testCluster(stack);
  cluster.eksCluster!.version = "1.36";
  const karpenter = new Karpenter(stack, "karpenter", { cluster, version: "1.15.2", ...props });
  const json = JSON.parse(Testing.synth(stack, true));
  const release = Object.values(resources(json, "helm_release")).find((r: any) => r.chart === "karpenter") as any;
  const warnings = stack.node
    .findAll()
    .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)));
  return { app, stack, karpenter, values: YAML.parse(release.values[0]), warnings };
}

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(KarpenterValidationError);
    return (e as Error).message;
  }
  throw new Error("accepted");
}

describe("Karpenter 1.15 settings and gates", () => {
  test("1.15.2 installs without an opt-in, both charts at 1.15.2, RebootInstances in AllowScopedDeletion", () => {
    const app = Testing.app();
    const stack = providedStack(app, "test");
    const cluster = testCluster(stack);
    new Karpenter(stack, "karpenter", { cluster, version: "1.15.2" });
    const json = JSON.parse(Testing.synth(stack, true));
    expect(
      Object.values(resources(json, "helm_release"))
        .map((r: any) => [r.chart, r.version])
        .sort(),
    ).toEqual([
      ["karpenter", "1.15.2"],
      ["karpenter-crd", "1.15.2"],
    ]);
    const statements = Object.values(resources(json, "aws_iam_policy")).flatMap(
      (p: any) => JSON.parse(p.policy).Statement,
    );
    const deletion = statements.find((s: any) => s.Sid === "AllowScopedDeletion");
    expect(deletion.Action).toEqual(
      expect.arrayContaining(["ec2:TerminateInstances", "ec2:RebootInstances", "ec2:DeleteLaunchTemplate"]),
    );
  });

  test("the new settings and gates reach the chart values as typed", () => {
    const settings: KarpenterSettings = {
      securityGroupRefreshInterval: "5m",
      legacyNodeRepair: false,
      featureGates: {
        nodeRepair: true,
        terminateFirstDrift: true,
        terminateFirstRepair: true,
        podDeletionCostManagement: true,
      },
      awsFeatureGates: { nodeClassCEL: true, draNVIDIAGPU: true, draEFA: false, rebootForRepair: true },
    };
    const { values, warnings } = install({ settings });
    expect(values.settings).toMatchObject({
      securityGroupRefreshInterval: "5m",
      legacyNodeRepair: false,
      featureGates: {
        nodeRepair: true,
        terminateFirstDrift: true,
        terminateFirstRepair: true,
        podDeletionCostManagement: true,
      },
      awsFeatureGates: { nodeClassCEL: true, draNVIDIAGPU: true, draEFA: false, rebootForRepair: true },
    });
    expect(warnings.filter((w) => /legacyNodeRepair|rebootForRepair|ignoreDRARequests/.test(w))).toEqual([]);
    expect(install({ settings: { enableDRA: true } }).values.settings.enableDRA).toBe(true);
  });

  test("each new setting and gate is refused before 1.15, naming 1.15.0", () => {
    const text = message(() =>
      install({
        version: "1.14.3",
        settings: {
          enableDRA: true,
          securityGroupRefreshInterval: "5m",
          featureGates: { terminateFirstDrift: true },
          awsFeatureGates: { nodeClassCEL: true },
        },
      }),
    );
    expect(text).toContain(
      "settings.enableDRA = true is invalid: Karpenter 1.14.3 has no setting enableDRA: it was introduced in 1.15.0",
    );
    expect(text).toContain(
      'settings.securityGroupRefreshInterval = "5m" is invalid: Karpenter 1.14.3 has no setting securityGroupRefreshInterval: it was introduced in 1.15.0',
    );
    expect(text).toContain(
      "settings.featureGates.terminateFirstDrift = true is invalid: Karpenter 1.14.3 has no feature gate terminateFirstDrift: it was introduced in 1.15.0",
    );
    expect(text).toContain(
      "settings.awsFeatureGates.nodeClassCEL = true is invalid: Karpenter 1.14.3 has no AWS feature gate nodeClassCEL: it was introduced in 1.15.0",
    );
    expect(
      message(() => install({ version: "1.14.3", values: { settings: { awsFeatureGates: { nodeClassCEL: true } } } })),
    ).toContain(
      "values.settings.awsFeatureGates.nodeClassCEL = true is invalid: Karpenter 1.14.3 has no AWS feature gate nodeClassCEL: it was introduced in 1.15.0",
    );
  });

  test("values are checked: a bad duration, a minimum of 1m, a misspelt AWS gate with a did-you-mean", () => {
    expect(message(() => install({ settings: { securityGroupRefreshInterval: "30s" } }))).toContain(
      'settings.securityGroupRefreshInterval = "30s" is invalid: a Go duration such as "10s", "1m" or "1h30m", at least 1m',
    );
    expect(message(() => install({ settings: { awsFeatureGates: { nodeClassCel: true } as never } }))).toMatch(
      /settings\.awsFeatureGates\.nodeClassCel = true is invalid: a AWS feature gate of the Karpenter 1\.15\.2 chart; did you mean settings\.awsFeatureGates\.nodeClassCEL/,
    );
    expect(message(() => install({ settings: { awsFeatureGates: { draEFA: "yes" as never } } }))).toContain(
      'settings.awsFeatureGates.draEFA = "yes" is invalid: true or false',
    );
  });

  test("the combinations the chart documents as invalid are synth errors, all at once, naming where each value came from", () => {
    const text = message(() =>
      install({
        settings: {
          enableDRA: true,
          ignoreDRARequests: false,
          legacyNodeRepair: true,
          featureGates: { terminateFirstRepair: true },
          awsFeatureGates: { draEFA: true },
        },
      }),
    );
    expect(text).toContain(
      'settings.enableDRA = true is invalid: false or unset while settings.ignoreDRARequests = false and settings.awsFeatureGates.draEFA = true are set: the Karpenter chart says enableDRA "can\'t be combined with"',
    );
    expect(text).toContain(
      "settings.legacyNodeRepair = true is invalid: false or unset while settings.featureGates.terminateFirstRepair = true is set",
    );
    // a value from the escape hatch is named there
    expect(
      message(() =>
        install({ settings: { enableDRA: true }, values: { settings: { awsFeatureGates: { draNVIDIAGPU: false } } } }),
      ),
    ).toContain(
      "settings.enableDRA = true is invalid: false or unset while values.settings.awsFeatureGates.draNVIDIAGPU = false is set",
    );
    // values override: enableDRA switched off in values clears the clash
    expect(() =>
      install({ settings: { enableDRA: true, ignoreDRARequests: true }, values: { settings: { enableDRA: false } } }),
    ).not.toThrow();
  });

  test("settings without effect warn: legacyNodeRepair and rebootForRepair without nodeRepair, ignoreDRARequests under a DRA gate", () => {
    const { warnings } = install({
      settings: {
        legacyNodeRepair: true,
        ignoreDRARequests: true,
        awsFeatureGates: { rebootForRepair: true, draNVIDIAGPU: true },
      },
    });
    expect(warnings.filter((w) => /has no effect|overridden/.test(w))).toEqual([
      "settings.legacyNodeRepair = true has no effect without settings.featureGates.nodeRepair: true (Karpenter chart, settings.legacyNodeRepair)",
      "settings.awsFeatureGates.rebootForRepair = true has no effect without settings.featureGates.nodeRepair: true (Karpenter chart, awsFeatureGates.rebootForRepair)",
      "settings.ignoreDRARequests = true is overridden to false by settings.awsFeatureGates.draNVIDIAGPU = true: either AWS DRA gate makes the controller honour DRA requests (Karpenter chart, settings.ignoreDRARequests)",
    ]);
  });
});

/** An EC2NodeClass of a fake install at `version` whose NodeClassCEL gate is `gate`. */
function nodeClass(props: Ec2NodeClassProps, version = "1.15.2", gate?: boolean) {
  const { stack } = testStack();
  const karpenter = new FakeInstallation(stack, "karpenter", version);
  if (gate !== undefined) Object.assign(karpenter, { nodeClassCel: gate });
  const nc = new Ec2NodeClass(stack, "default", { karpenter, ...props });
  const json = JSON.parse(Testing.synth(stack));
  const manifest = (Object.values(resources(json, "kubernetes_manifest"))[0] as any).manifest;
  const warnings = nc.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));
  return { spec: manifest.spec, warnings };
}

describe("EC2NodeClass at 1.15: the free-form kubelet", () => {
  test("on AL2023 a KubeletConfiguration field beyond the 12 passes through as written; a near-typo of a typed field is no field, an error", () => {
    const { spec, warnings } = nodeClass({ kubelet: { maxPods: 42, registryPullQPS: 10, serializeImagePulls: false } });
    expect(spec.kubelet).toEqual({ maxPods: 42, registryPullQPS: 10, serializeImagePulls: false });
    expect(warnings).toEqual([]);
    expect(message(() => nodeClass({ kubelet: { maxPod: 42 } }))).toContain(
      'kubelet.maxPod = 42 is invalid: a field of KubeletConfiguration: "maxPod" is none',
    );
    expect(message(() => nodeClass({ kubelet: { maxPod: 42 } }))).toContain("Did you mean maxPods?");
  });

  test("references inside kubelet are left to Terraform, on 1.15 as on 1.14 (fresh-tester finding)", () => {
    for (const version of ["1.15.2", "1.14.1"]) {
      const { stack } = testStack();
      const karpenter = new FakeInstallation(stack, "karpenter", version);
      const n = new TerraformVariable(stack, "pods", { type: "number" }).numberValue;
      const text = new TerraformVariable(stack, "memory", { type: "string" }).stringValue;
      const kubelet = {
        maxPods: n,
        podsPerCore: n,
        imageGCHighThresholdPercent: n,
        evictionHard: { "memory.available": text },
        kubeReserved: { memory: text },
      };
      expect(() => new Ec2NodeClass(stack, "default", { karpenter, kubelet })).not.toThrow();
      const manifest = (Object.values(resources(JSON.parse(Testing.synth(stack)), "kubernetes_manifest"))[0] as any)
        .manifest;
      expect(manifest.spec.kubelet).toMatchObject({
        maxPods: "${var.pods}",
        evictionHard: { "memory.available": "${var.memory}" },
      });
    }
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.15.2");
    Object.assign(karpenter, { nodeClassCel: true });
    const expression = new TerraformVariable(stack, "expr", { type: "string" }).stringValue;
    expect(
      () => new Ec2NodeClass(stack, "cel", { karpenter, kubelet: { maxPodsExpression: expression } }),
    ).not.toThrow();
  });

  test("maxPodsExpression before 1.15 is refused whatever its value, a reference too: the 1.14 CRD's maxPods is an integer", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.14.1");
    const expression = new TerraformVariable(stack, "expr", { type: "string" }).stringValue;
    expect(
      rejected(() => new Ec2NodeClass(stack, "default", { karpenter, kubelet: { maxPodsExpression: expression } }))
        .message,
    ).toMatch(
      /^test\/default: kubelet\.maxPodsExpression = "\$\{TfToken\[TOKEN\.\d+\]\}" is invalid: unset \(a fixed count goes in kubelet\.maxPods, a whole number from 0 to 2147483647\): kubelet CEL expressions need Karpenter 1\.15 or later/,
    );
    expect(
      rejected(
        () => new Ec2NodeClass(stack, "both", { karpenter, kubelet: { maxPods: 110, maxPodsExpression: expression } }),
      ).problems.map((p) => p.field),
    ).toEqual(["kubelet.maxPodsExpression"]);
  });

  test("Custom passes any field too (its userData is the user's)", () => {
    expect(
      nodeClass({ amiFamily: "Custom", amiSelectorTerms: [{ id: "ami-0123" }], kubelet: { registryPullQPS: 10 } }).spec
        .kubelet,
    ).toEqual({ registryPullQPS: 10 });
  });

  test("on the other families such a field is a synth error naming the family and the 12 fields; every one at once", () => {
    const text = message(() =>
      nodeClass({
        amiSelectorTerms: [{ alias: "bottlerocket@latest" }],
        kubelet: { registryPullQPS: 10, containerLogMaxSize: "10Mi", podsPerCore: 2 },
      }),
    );
    expect(text).toMatch(/^test\/default: 3 problems:/);
    expect(text).toContain(
      "kubelet.registryPullQPS = 10 is invalid: one of the 12 kubelet fields Karpenter maps for the Bottlerocket AMI family: Karpenter 1.15.2 passes any other KubeletConfiguration field only on AL2023 (and Custom, whose userData you write), and on Bottlerocket sets ValidationSucceeded=False (UnsupportedKubeletConfiguration), so no node launches",
    );
    expect(text).toContain(
      "12 fields are clusterDNS, cpuCFSQuota, evictionHard, evictionMaxPodGracePeriod, evictionSoft, evictionSoftGracePeriod, imageGCHighThresholdPercent, imageGCLowThresholdPercent, kubeReserved, maxPods, podsPerCore, systemReserved",
    );
    expect(text).toContain("kubelet.containerLogMaxSize");
    expect(text).toContain("kubelet.podsPerCore = 2 is invalid: unset with the Bottlerocket AMI family");
    expect(
      message(() =>
        nodeClass({
          amiFamily: "AL2",
          amiSelectorTerms: [{ id: "ami-0123" }],
          kubelet: { clusterDNS: ["10.0.0.10", "10.0.0.11"] },
        }),
      ),
    ).toContain('kubelet.clusterDNS = ["10.0.0.10","10.0.0.11"] is invalid: one IP address with the AL2 AMI family');
    // AL2023 takes the list
    expect(nodeClass({ kubelet: { clusterDNS: ["10.0.0.10", "10.0.0.11"] } }).spec.kubelet.clusterDNS).toHaveLength(2);
  });

  test("before 1.15 only the 12 fields exist: another one is refused with a did-you-mean", () => {
    expect(message(() => nodeClass({ kubelet: { registryPullQPS: 10 } }, "1.14.3"))).toContain(
      "kubelet.registryPullQPS = 10 is invalid: not a field of kubelet",
    );
  });

  test("typed fields stay typed at 1.15", () => {
    expect(message(() => nodeClass({ kubelet: { imageGCHighThresholdPercent: 150 } }))).toContain(
      "kubelet.imageGCHighThresholdPercent = 150 is invalid",
    );
  });
});

describe("EC2NodeClass at 1.15: kubelet CEL expressions behind NodeClassCEL", () => {
  const kubelet = {
    maxPodsExpression: "((default_enis - 1) * (ips_per_eni - 1)) + 2",
    kubeReserved: { cpu: "max(60, vcpus * 30)", memory: "11 * max_pods + 255" },
    systemReserved: { memory: "100Mi" },
  };

  test("with the gate on, maxPodsExpression is emitted as kubelet.maxPods; expressions and static quantities as written", () => {
    const { spec, warnings } = nodeClass({ kubelet }, "1.15.2", true);
    expect(spec.kubelet).toEqual({
      maxPods: "((default_enis - 1) * (ips_per_eni - 1)) + 2",
      kubeReserved: kubelet.kubeReserved,
      systemReserved: { memory: "100Mi" },
    });
    expect(Object.keys(spec.kubelet)).toEqual(["kubeReserved", "maxPods", "systemReserved"]);
    expect(warnings).toEqual([]);
  });

  test("the construct's spec keeps the props' shape (maxPodsExpression); a plain maxPods is emitted as the number", () => {
    const { stack } = testStack();
    const karpenter = Object.assign(new FakeInstallation(stack, "karpenter", "1.15.2"), { nodeClassCel: true });
    expect(
      new Ec2NodeClass(stack, "cel", { karpenter, kubelet: { maxPodsExpression: "min(110, max_pods)" } }).spec.kubelet,
    ).toEqual({ maxPodsExpression: "min(110, max_pods)" });
    expect(nodeClass({ kubelet: { maxPods: 110 } }).spec.kubelet).toEqual({ maxPods: 110 });
  });

  test("with the gate off it is an error naming the gate and every expression field", () => {
    expect(message(() => nodeClass({ kubelet }, "1.15.2", false))).toBe(
      'test/default: kubelet.maxPodsExpression = "((default_enis - 1) * (ips_per_eni - 1)) + 2" is invalid: a static value: kubelet.maxPodsExpression, kubelet.kubeReserved["cpu"], kubelet.kubeReserved["memory"] are CEL expressions, which Karpenter evaluates only with the AWS feature gate NodeClassCEL, and test/karpenter does not turn it on (without it the class gets ValidationSucceeded=False, KubeletExpressionsDisabled, and launches no node). Set settings: { awsFeatureGates: { nodeClassCEL: true } } on that Karpenter (or NodeClassCEL=true in the AWS_FEATURE_GATES entry of its values.controller.env, which replaces the gate string the chart builds), or use static values [EC2NODECLASS_EXPRESSION_NOT_ALLOWED]',
    );
  });

  test("the gate of a real Karpenter decides, settings or values", () => {
    const build = (props: Partial<KarpenterProps>) => {
      const app = Testing.app();
      const stack = providedStack(app, "test");
      const karpenter = new Karpenter(stack, "karpenter", { cluster: testCluster(stack), version: "1.15.2", ...props });
      return () =>
        new Ec2NodeClass(providedStack(app, "nodes"), "default", {
          karpenter,
          kubelet: { maxPodsExpression: "min(110, max_pods)" },
        });
    };
    expect(build({})).toThrow(/KubeletExpressionsDisabled/);
    expect(build({ settings: { awsFeatureGates: { nodeClassCEL: true } } })).not.toThrow();
    expect(build({ values: { settings: { awsFeatureGates: { nodeClassCEL: true } } } })).not.toThrow();
    expect(
      build({
        settings: { awsFeatureGates: { nodeClassCEL: true } },
        values: { settings: { awsFeatureGates: { nodeClassCEL: false } } },
      }),
    ).toThrow(/KubeletExpressionsDisabled/);
  });

  test("a gate not known at synth warns instead", () => {
    expect(nodeClass({ kubelet: { maxPodsExpression: "min(110, max_pods)" } }).warnings).toEqual([
      "EC2NodeClass default: kubelet.maxPodsExpression is a CEL expression, which Karpenter evaluates only with the AWS feature gate NodeClassCEL (settings.awsFeatureGates.nodeClassCEL: true); whether test/karpenter turns it on is not known at synth: without it the class gets ValidationSucceeded=False (KubeletExpressionsDisabled) and launches no node",
    ]);
  });

  test("maxPods and maxPodsExpression together are refused, naming both", () => {
    for (const version of ["1.15.2", "1.14.3"]) {
      const e = rejected(() =>
        nodeClass({ kubelet: { maxPods: 110, maxPodsExpression: "min(110, max_pods)" } }, version, true),
      );
      expect([e.field, e.value]).toEqual(["kubelet.maxPodsExpression", "min(110, max_pods)"]);
      expect(e.message).toBe(
        'test/default: kubelet.maxPodsExpression = "min(110, max_pods)" is invalid: unset when kubelet.maxPods is set: both are the manifest\'s kubelet.maxPods; keep kubelet.maxPods (110) for a fixed count, or kubelet.maxPodsExpression for a count computed per instance type, not both [EC2NODECLASS_KUBELET_MAX_PODS]',
      );
    }
  });

  test("a string in maxPods (a JavaScript caller, code from before maxPodsExpression) is refused, pointing to maxPodsExpression", () => {
    for (const [version, gate] of [
      ["1.15.2", true],
      ["1.15.2", undefined],
      ["1.14.3", undefined],
    ] as const) {
      const e = rejected(() => nodeClass({ kubelet: { maxPods: "min(110, max_pods)" as any } }, version, gate));
      expect([e.field, e.value]).toEqual(["kubelet.maxPods", "min(110, max_pods)"]);
      expect(e.message).toBe(
        'test/default: kubelet.maxPods = "min(110, max_pods)" is invalid: a whole number from 0 to 2147483647, got a string: a CEL expression goes in kubelet.maxPodsExpression (Karpenter 1.15 or later, with settings.awsFeatureGates.nodeClassCEL), which is emitted as the manifest\'s kubelet.maxPods [EC2NODECLASS_KUBELET_MAX_PODS]',
      );
    }
  });

  test("a quoted number is a typo, not an expression: write it unquoted, in maxPods", () => {
    for (const [version, gate] of [
      ["1.15.2", true],
      ["1.15.2", undefined],
      ["1.14.3", undefined],
    ] as const) {
      expect(message(() => nodeClass({ kubelet: { maxPods: "110" as any } }, version, gate))).toBe(
        'test/default: kubelet.maxPods = "110" is invalid: a whole number from 0 to 2147483647, got a string: write 110, not "110" [EC2NODECLASS_KUBELET_MAX_PODS]',
      );
      expect(message(() => nodeClass({ kubelet: { maxPodsExpression: " 110" } }, version, gate))).toBe(
        'test/default: kubelet.maxPodsExpression = " 110" is invalid: a CEL expression, not a fixed count: write maxPods: 110 (kubelet.maxPods needs no feature gate) [EC2NODECLASS_KUBELET_MAX_PODS]',
      );
    }
    expect(message(() => nodeClass({ kubelet: { maxPodsExpression: 110 as any } }, "1.15.2", true))).toBe(
      "test/default: kubelet.maxPodsExpression = 110 is invalid: a CEL expression as a string, got a number: a fixed count goes in kubelet.maxPods (write maxPods: 110) [EC2NODECLASS_KUBELET_MAX_PODS]",
    );
  });

  test("an expression that cannot compile is refused with what is wrong", () => {
    const text = message(() =>
      nodeClass(
        {
          kubelet: {
            maxPodsExpression: "max(1, 2, 3)",
            kubeReserved: { memory: "1Gb" },
            systemReserved: { cpu: "vcpu * 10" },
          },
        },
        "1.15.2",
        true,
      ),
    );
    expect(text).toContain(
      'kubelet.maxPodsExpression = "max(1, 2, 3)" is invalid: a CEL expression of type int or double over instance_type, vcpus, memory_mib, default_enis, ips_per_eni, max_pods (instance_type a string, the others ints), with CEL\'s standard library and max(a, b), min(a, b)',
    );
    expect(text).toContain("found no matching overload for 'max(int, int, int)'");
    expect(text).toContain(
      "Unknown variable: vcpu (at character 1); the variables are instance_type, vcpus, memory_mib, default_enis, ips_per_eni, max_pods (did you mean vcpus?)",
    );
    // a number with a unit is a quantity written wrong, not an expression (fresh tester 2, K27)
    expect(text).toContain(
      'kubelet.kubeReserved["memory"] = "1Gb" is invalid: a Kubernetes quantity: "1Gb" is not one',
    );
    expect(text).toContain('write "1G" or "1Gi"');
    expect(text).not.toContain("Gb is not one of the variables");
    expect(text).toContain('kubelet.systemReserved["cpu"] = "vcpu * 10" is invalid');
  });

  test("before 1.15 an expression is refused, naming 1.15 and the gate, and maxPods as what to use", () => {
    const text = message(() =>
      nodeClass(
        { kubelet: { maxPodsExpression: "min(110, max_pods)", kubeReserved: { cpu: "vcpus * 30" } } },
        "1.14.3",
      ),
    );
    expect(text).toContain(
      'kubelet.maxPodsExpression = "min(110, max_pods)" is invalid: unset (a fixed count goes in kubelet.maxPods, a whole number from 0 to 2147483647): kubelet CEL expressions need Karpenter 1.15 or later (with settings.awsFeatureGates.nodeClassCEL); this object targets Karpenter 1.14.3',
    );
    expect(text).toContain('kubelet.kubeReserved["cpu"] = "vcpus * 30" is invalid: a Kubernetes quantity');
    // the prop is known before 1.15 too: not "not a field of kubelet"
    expect(text).not.toContain("not a field of kubelet");
  });

  test("maxPodsExpression is a prop on every AMI family (not one of the fields only AL2023 passes through); a near-typo of it is an error naming it", () => {
    const { spec } = nodeClass(
      { amiSelectorTerms: [{ alias: "bottlerocket@latest" }], kubelet: { maxPodsExpression: "min(110, max_pods)" } },
      "1.15.2",
      true,
    );
    expect(spec.kubelet).toEqual({ maxPods: "min(110, max_pods)" });
    expect(message(() => nodeClass({ kubelet: { maxPodExpression: "min(110, max_pods)" } }, "1.15.2", true))).toContain(
      "Did you mean maxPodsExpression?",
    );
  });
});

describe("EC2NodeClass at 1.15: enclaveOptions", () => {
  test("emitted as given; refused before 1.15; enabled is required and a boolean", () => {
    expect(nodeClass({ enclaveOptions: { enabled: true } }).spec.enclaveOptions).toEqual({ enabled: true });
    expect(message(() => nodeClass({ enclaveOptions: { enabled: true } }, "1.14.3"))).toContain(
      'enclaveOptions = {"enabled":true} is invalid: enclaveOptions needs Karpenter 1.15 or later',
    );
    expect(message(() => nodeClass({ enclaveOptions: {} as never }))).toContain(
      "enclaveOptions.enabled = undefined is invalid: true or false: enabled is required",
    );
    expect(message(() => nodeClass({ enclaveOptions: { enabled: "yes" as never } }))).toContain(
      'enclaveOptions.enabled = "yes" is invalid',
    );
    expect(message(() => nodeClass({ enclaveOptions: { enabled: true, enable: true } as never }))).toContain(
      "enclaveOptions.enable = true is invalid: not a field of enclaveOptions",
    );
  });
});

describe("upgrade-plan 1.14 → 1.15", () => {
  const { upgradePlan, upgradePlanMarkdown } = require("../../lib/upgrade") as typeof import("../../lib/upgrade");

  test("the IAM action, the settings and gates, the kubelet change, the Kubernetes range; 1.15.2 is a known patch", () => {
    const plan = upgradePlan("1.14.3", "1.15.2");
    expect(plan.net.controllerPolicy).toEqual([
      expect.objectContaining({
        sid: "AllowScopedDeletion",
        change: "changed",
        actions: { added: ["ec2:RebootInstances"], removed: [] },
      }),
    ]);
    expect(plan.net.chart.awsFeatureGates.map((g) => `${g.key} ${g.change}`)).toEqual([
      "nodeClassCEL added",
      "draNVIDIAGPU added",
      "draEFA added",
      "rebootForRepair added",
    ]);
    expect(plan.net.chart.settings).toContainEqual({
      key: "ignoreDRARequests",
      change: "default changed",
      from: true,
      to: null,
    });
    expect(plan.net.crds.ec2NodeClass.freeForm).toEqual({ added: ["spec.kubelet"], removed: [] });
    expect(plan.net.crds.ec2NodeClass.fields.removed).toEqual([]);
    expect(plan.kubernetes).toMatchObject({
      from: { min: "1.26", max: "1.36" },
      to: { min: "1.31", max: "1.37" },
      both: { min: "1.31", max: "1.36" },
    });
    expect(plan.hazards.map((h) => `${h.id} ${h.kind} ${h.where}`)).toEqual(["kubelet-free-form change to"]);
    const md = upgradePlanMarkdown(plan);
    expect(md).toContain("One `cdktf deploy` goes from 1.14.3 to 1.15.2.");
    expect(md).toContain("- `spec.kubelet` becomes free-form: the API server accepts any field below it");
    expect(md).toContain("- `settings.ignoreDRARequests` default true → unset: the controller's default");
  });

  test("from 1.13 the capacitybuffers CRD and RBAC of 1.14 are named too, and the plan says it is one deploy", () => {
    const plan = upgradePlan("1.13.1", "1.15.2");
    expect(plan.hazards.map((h) => h.id)).toEqual(["capacitybuffer-crd", "kubelet-free-form"]);
    expect(plan.hazards[0].problem).toMatch(
      /capacitybuffers\.autoscaling\.x-k8s\.io.*ClusterRole also gains get\/list\/watch on capacitybuffers/,
    );
    expect(upgradePlanMarkdown(plan)).toContain(
      "One `cdktf deploy` goes from 1.13.1 straight to 1.15.2; the releases in between are not installed",
    );
    // the change is met when crossing back down too
    expect(upgradePlan("1.15.2", "1.14.3").hazards.map((h) => `${h.id} ${h.where}`)).toContain(
      "kubelet-free-form from",
    );
  });
});

describe("NodePool at 1.15: the released CRDs", () => {
  const { NodePool } = require("../../lib/nodes/node-pool") as typeof import("../../lib/nodes/node-pool");
  const pool = (version: string, props: Record<string, unknown>) => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", version);
    return new NodePool(stack, "pool", { karpenter, nodeClass: { name: "default" }, ...props });
  };

  test("a budget may name Unhealthy from 1.15 (released NodePool CRD), refused before, naming 1.15", () => {
    expect(() =>
      pool("1.15.0", { disruption: { budgets: [{ nodes: "10%", reasons: ["Unhealthy", "Drifted"] }] } }),
    ).not.toThrow();
    expect(
      message(() => pool("1.14.3", { disruption: { budgets: [{ nodes: "10%", reasons: ["Unhealthy"] }] } })),
    ).toContain(
      'disruption.budgets[0].reasons[0] = "Unhealthy" is invalid: disruption reason Unhealthy needs Karpenter 1.15 or later',
    );
  });

  test("karpenter.k8s.aws/nitro-sandbox stays a restricted label (the released CRDs do not allow it)", () => {
    expect(
      message(() =>
        pool("1.15.2", {
          requirements: [{ key: "karpenter.k8s.aws/nitro-sandbox", operator: "In", values: ["true"] }],
        }),
      ),
    ).toMatch(/requirements\[0\]\.key = "karpenter\.k8s\.aws\/nitro-sandbox" is invalid: .*restricted/);
  });

  test("the released CRDs' facts are in the data, read from the reference folder alone", () => {
    const { versionData } = require("../../lib/versions") as typeof import("../../lib/versions");
    expect(versionData("1.15").crds.nodePool.enums["spec.disruption.budgets[].reasons[]"]).toContain("Unhealthy");
    expect(versionData("1.14").crds.nodePool.enums["spec.disruption.budgets[].reasons[]"]).not.toContain("Unhealthy");
    expect(JSON.stringify(versionData("1.15").celRules)).not.toContain("nitro-sandbox");
  });
});
