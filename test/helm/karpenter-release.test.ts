import * as YAML from "yaml";
import { TerraformStack, TerraformVariable, Testing, Token } from "cdktf";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KarpenterCrdRelease } from "../../lib/helm/karpenter-crd-release";
import { Karpenter } from "../../lib/install/karpenter";
import { SqsQueue } from "@cdktf/provider-aws/lib/sqs-queue";
import { EksCluster } from "@cdktf/provider-aws/lib/eks-cluster";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { KarpenterRelease, KarpenterReleaseProps } from "../../lib/helm/karpenter-release";
import { KarpenterSettings, KubernetesToleration } from "../../lib/helm/karpenter-settings";
import { KarpenterValidationError } from "../../lib/core/errors";
import { onlyResource, rejected, synthJson, testCluster, testStack } from "../helpers";
import { describeWithReference, referenceChartValues, referenceVersionsWith } from "../reference";

const referenceVersions = referenceVersionsWith("charts/karpenter/values.yaml");

/** Builds a release in a fresh stack and returns the synthesized helm_release and its parsed values. */
function release(props: Partial<KarpenterReleaseProps> = {}) {
  const { stack } = testStack();
  const cluster = testCluster(stack, "demo");
  const construct = new KarpenterRelease(stack, "karpenter", { cluster, ...props });
  const body = onlyResource(synthJson(stack), "helm_release");
  return { construct, body, values: YAML.parse(body.values[0]), yaml: body.values[0] as string };
}

/** Every leaf path of a values document (lists are leaves, as Helm replaces them whole). */
function leafPaths(v: unknown, prefix = ""): string[] {
  if (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length) {
    return Object.entries(v).flatMap(([k, x]) => leafPaths(x, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

/** Whether a path exists in a chart's values.yaml; empty maps (annotations, resources) and nodeSelector take any key. */
function pathInChart(chart: any, p: string): boolean {
  let cur = chart;
  const parts = p.split(".");
  for (let i = 0; i < parts.length; i++) {
    if (cur === null || typeof cur !== "object" || Array.isArray(cur)) return i > 0;
    const open = Object.keys(cur).length === 0 || parts.slice(0, i).join(".") === "nodeSelector";
    if (!(parts[i] in cur)) return open;
    cur = cur[parts[i]];
    if (Array.isArray(cur)) return true;
  }
  return true;
}

describe("KarpenterRelease", () => {
  test("installs chart karpenter from public ECR without its crds/ folder, values from the typed defaults", () => {
    const { body, values } = release();
    expect(body).toMatchObject({
      chart: "karpenter",
      repository: "oci://public.ecr.aws/karpenter",
      version: "1.15.3",
      namespace: "kube-system",
      name: "karpenter",
      skip_crds: true,
    });
    expect(body.repository_username).toBeUndefined();
    expect(body.repository_password).toBeUndefined();
    expect(values).toEqual({
      controller: { resources: { requests: { cpu: "500m", memory: "512Mi" }, limits: { memory: "512Mi" } } },
      dnsPolicy: "Default",
      replicas: 2,
      serviceAccount: { name: "karpenter" },
      settings: { clusterName: "${aws_eks_cluster.cluster.name}" },
    });
  });

  test("settings.interruptionQueue is the queue's name as a Terraform reference", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    const queue = new SqsQueue(stack, "queue", { name: "demo" });
    new KarpenterRelease(stack, "karpenter", { cluster, interruptionQueue: { queueName: queue.name } });
    const body = onlyResource(synthJson(stack), "helm_release");
    expect(YAML.parse(body.values[0]).settings.interruptionQueue).toBe("${aws_sqs_queue.queue.name}");
  });

  test("no interruption queue: no settings.interruptionQueue at all", () => {
    expect(release().values.settings).not.toHaveProperty("interruptionQueue");
  });

  test("IRSA writes the role ARN annotation on the ServiceAccount", () => {
    const { values } = release({
      irsaRoleArn: "arn:aws:iam::123456789012:role/KarpenterControllerRole-demo",
      serviceAccountName: "kp",
    });
    expect(values.serviceAccount).toEqual({
      name: "kp",
      annotations: { "eks.amazonaws.com/role-arn": "arn:aws:iam::123456789012:role/KarpenterControllerRole-demo" },
    });
  });

  describe("the ServiceAccount is wired: values cannot replace or remove the IRSA role annotation", () => {
    const irsaRoleArn = "arn:aws:iam::123456789012:role/KarpenterControllerRole-demo";
    const annotation = (arn: string) => ({ serviceAccount: { annotations: { "eks.amazonaws.com/role-arn": arn } } });

    test("the role-arn annotation is refused with IRSA (it would replace the wired role)", () => {
      expect(() => release({ irsaRoleArn, values: annotation("arn:aws:iam::123456789012:role/other") })).toThrow(
        'test/karpenter: values.serviceAccount.annotations["eks.amazonaws.com/role-arn"] = "arn:aws:iam::123456789012:role/other" is invalid: not settable here: with IRSA it is wired to the controller role',
      );
    });

    test("the role-arn annotation is refused without IRSA (the SDK would prefer web identity over Pod Identity)", () => {
      expect(() => release({ values: annotation("arn:x") })).toThrow(
        /values\.serviceAccount\.annotations\["eks\.amazonaws\.com\/role-arn"\] = "arn:x" is invalid: .*prefer web identity over the EKS Pod Identity credentials/,
      );
    });

    test("annotations: null would remove the wired annotation with IRSA; without IRSA it only drops the chart's empty map", () => {
      expect(() => release({ irsaRoleArn, values: { serviceAccount: { annotations: null } } })).toThrow(
        /values\.serviceAccount\.annotations = null is invalid: not removable with IRSA/,
      );
      expect(release({ values: { serviceAccount: { annotations: null } } }).values.serviceAccount).toEqual({
        name: "karpenter",
        annotations: null,
      });
    });

    test("serviceAccount: null would remove the wired name", () => {
      expect(() => release({ values: { serviceAccount: null } })).toThrow(
        /values\.serviceAccount = null is invalid: not removable/,
      );
    });

    test("other annotations merge with the wired one", () => {
      const { values } = release({ irsaRoleArn, values: { serviceAccount: { annotations: { team: "platform" } } } });
      expect(values.serviceAccount.annotations).toEqual({
        "eks.amazonaws.com/role-arn": irsaRoleArn,
        team: "platform",
      });
    });
  });

  describe("boolean settings given as tokens", () => {
    function withVariable(build: (iso: unknown) => Partial<KarpenterReleaseProps>) {
      const { stack } = testStack();
      const iso = Token.asAny(new TerraformVariable(stack, "iso", { type: "bool" }).value);
      new KarpenterRelease(stack, "karpenter", { cluster: testCluster(stack), ...build(iso) });
      return onlyResource(synthJson(stack), "helm_release").values[0] as string;
    }

    test("a typed boolean setting or feature gate is written unquoted through tobool, so the chart reads a YAML boolean", () => {
      const yaml = withVariable((iso) => ({
        settings: { isolatedVPC: iso as boolean, featureGates: { nodeRepair: iso as boolean } },
      }));
      expect(yaml).toContain("\n  isolatedVPC: ${tobool(var.iso)}\n");
      expect(yaml).toContain("\n    nodeRepair: ${tobool(var.iso)}\n");
      // what Terraform puts there parses as a boolean
      expect(YAML.parse(yaml.replace(/\$\{tobool\(var\.iso\)\}/g, "false")).settings).toMatchObject({
        isolatedVPC: false,
        featureGates: { nodeRepair: false },
      });
    });

    test("the same through values.settings", () => {
      expect(withVariable((iso) => ({ values: { settings: { isolatedVPC: iso } } }))).toContain(
        "\n  isolatedVPC: ${tobool(var.iso)}\n",
      );
    });

    test("a map token in a setting that is not a boolean is refused on the setting's own field", () => {
      expect(() => withVariable((iso) => ({ settings: { batchMaxDuration: iso as string } }))).toThrow(
        /^test\/karpenter: settings\.batchMaxDuration = "\(a token\)" is invalid: settings\.batchMaxDuration is a token that is not a string or number/,
      );
    });
  });

  describe("settings per version", () => {
    test.each([
      [
        "1.13.1",
        { featureGates: { capacityBuffer: true } },
        "settings.featureGates.capacityBuffer = true",
        "feature gate capacityBuffer",
        "1.14.0",
      ],
      [
        "1.0.14",
        { featureGates: { nodeRepair: true } },
        "settings.featureGates.nodeRepair = true",
        "feature gate nodeRepair",
        "1.1.0",
      ],
      [
        "1.7.6",
        { featureGates: { staticCapacity: true } },
        "settings.featureGates.staticCapacity = true",
        "feature gate staticCapacity",
        "1.8.0",
      ],
      ["1.6.1", { disableDryRun: true }, "settings.disableDryRun = true", "setting disableDryRun", "1.6.2"],
      ["1.11.3", { enableZonalShift: true }, "settings.enableZonalShift = true", "setting enableZonalShift", "1.12.0"],
      [
        "1.3.8",
        { preferencePolicy: "Ignore" },
        'settings.preferencePolicy = "Ignore"',
        "setting preferencePolicy",
        "1.4.0",
      ],
      ["1.0.14", { eksControlPlane: true }, "settings.eksControlPlane = true", "setting eksControlPlane", "1.1.0"],
    ] as [string, KarpenterSettings, string, string, string][])(
      "%s rejects %j naming the version that introduced it",
      (version, settings, field, what, since) => {
        expect(() => release({ version, settings })).toThrow(KarpenterValidationError);
        expect(() => release({ version, settings })).toThrow(
          `test/karpenter: ${field} is invalid: Karpenter ${version} has no ${what}: it was introduced in ${since}`,
        );
      },
    );

    test("the introducing version itself accepts the key", () => {
      expect(release({ version: "1.6.2", settings: { disableDryRun: true } }).values.settings.disableDryRun).toBe(true);
      expect(
        release({ version: "1.14.0", settings: { featureGates: { capacityBuffer: true } } }).values.settings
          .featureGates,
      ).toEqual({ capacityBuffer: true });
    });
  });

  describeWithReference(referenceVersions)("settings against the published values.yaml of each release", () => {
    // a gate the chart has is written at a path it has; one it lacks is refused
    const gates = [
      "spotToSpotConsolidation",
      "nodeRepair",
      "reservedCapacity",
      "nodeOverlay",
      "staticCapacity",
      "capacityBuffer",
    ];
    test.each(referenceVersions)("every feature gate against the %s chart", (version) => {
      const chartGates = referenceChartValues(version).settings.featureGates;
      for (const gate of gates) {
        const build = () => release({ version, settings: { featureGates: { [gate]: true } } });
        if (gate in chartGates) expect(build().values.settings.featureGates[gate]).toBe(true);
        else expect(build).toThrow(/introduced in 1\.\d+\.\d+/);
      }
    });

    // every typed setting a version has, set at once: each path written exists in that chart's values.yaml
    const everything: KarpenterSettings = {
      batchMaxDuration: "15s",
      batchIdleDuration: "2s",
      preferencePolicy: "Ignore",
      minValuesPolicy: "BestEffort",
      clusterCABundle: "LS0tLS1CRUdJTg==",
      clusterEndpoint: "https://example.gr7.us-east-1.eks.amazonaws.com",
      isolatedVPC: true,
      eksControlPlane: true,
      vmMemoryOverheadPercent: 0.1,
      enableZonalShift: true,
      reservedENIs: 1,
      ignoreDRARequests: false,
      disableClusterStateObservability: true,
      disableDryRun: true,
      amiRefreshInterval: "5m",
      subnetRefreshInterval: "5m",
      featureGates: {
        spotToSpotConsolidation: true,
        nodeRepair: true,
        reservedCapacity: false,
        nodeOverlay: true,
        staticCapacity: true,
        capacityBuffer: true,
      },
    };
    test.each(referenceVersions)("all settings %s has: every emitted path exists in its values.yaml", (version) => {
      const chart = referenceChartValues(version);
      const settings: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(everything)) if (k !== "featureGates" && k in chart.settings) settings[k] = v;
      settings.featureGates = Object.fromEntries(
        Object.entries(everything.featureGates!).filter(([g]) => g in chart.settings.featureGates),
      );
      const { values } = release({
        version,
        settings,
        nodeSelector: { "node-role": "system" },
        tolerations: [{ key: "CriticalAddonsOnly", operator: "Exists" }],
        irsaRoleArn: "arn:aws:iam::123456789012:role/x",
      });
      const unknown = leafPaths(values).filter((p) => !pathInChart(chart, p));
      expect(unknown).toEqual([]);
      expect(values.settings.reservedENIs).toBe("1"); // the chart's type: a string
    });
  });

  describe("settings per version, without the reference", () => {
    test("1.8.0 always writes featureGates.staticCapacity (its values.yaml spells it StaticCapacity, the template reads staticCapacity)", () => {
      expect(release({ version: "1.8.0" }).values.settings.featureGates).toEqual({ staticCapacity: false });
      expect(
        release({ version: "1.8.0", settings: { featureGates: { staticCapacity: true } } }).values.settings
          .featureGates,
      ).toEqual({ staticCapacity: true });
      expect(release({ version: "1.8.1" }).values.settings).not.toHaveProperty("featureGates");
    });

    test("unknown and wired keys are refused", () => {
      expect(() => release({ settings: { batchMaxDuraton: "5s" } as KarpenterSettings })).toThrow(
        /settings\.batchMaxDuraton = "5s" is invalid: a setting of the Karpenter 1\.15\.3 chart; did you mean settings\.batchMaxDuration\? Its settings are batchMaxDuration, /,
      );
      expect(() => release({ settings: { clusterName: "other" } as KarpenterSettings })).toThrow(
        /settings\.clusterName = "other" is invalid: clusterName is wired from the graph: set the cluster prop/,
      );
      expect(() => release({ settings: { featureGates: { Drift: true } } as KarpenterSettings })).toThrow(
        /settings\.featureGates\.Drift = true is invalid: a feature gate of the Karpenter 1\.15\.3 chart: nodeRepair, nodeOverlay, reservedCapacity, spotToSpotConsolidation/,
      );
    });

    test("values are checked", () => {
      expect(() => release({ settings: { amiRefreshInterval: "30s" } })).toThrow(
        /settings\.amiRefreshInterval = "30s" is invalid: a Go duration .* at least 1m/,
      );
      expect(() => release({ settings: { preferencePolicy: "respect" as "Respect" } })).toThrow(
        /one of "Respect", "Ignore"/,
      );
      expect(() => release({ settings: { vmMemoryOverheadPercent: 7.5 } })).toThrow(
        /vmMemoryOverheadPercent = 7\.5 is invalid/,
      );
      expect(() => release({ settings: { featureGates: { nodeRepair: "yes" as unknown as boolean } } })).toThrow(
        /nodeRepair = "yes" is invalid: true or false/,
      );
    });

    test("a token is not validated but kept", () => {
      const { stack } = testStack();
      const queue = new SqsQueue(stack, "q", { name: "x" });
      new KarpenterRelease(stack, "karpenter", {
        cluster: testCluster(stack),
        settings: { clusterEndpoint: queue.url },
      });
      const values = YAML.parse(onlyResource(synthJson(stack), "helm_release").values[0]);
      expect(values.settings.clusterEndpoint).toBe("${aws_sqs_queue.q.url}");
    });
  });

  describe("controller pod", () => {
    test("resources default per field and are validated as quantities", () => {
      expect(
        release({ controllerResources: { limits: { memory: "1Gi", cpu: "1" } } }).values.controller.resources,
      ).toEqual({ requests: { cpu: "500m", memory: "512Mi" }, limits: { memory: "1Gi", cpu: "1" } });
      expect(() => release({ controllerResources: { requests: { cpu: "half" } } })).toThrow(
        /controllerResources\.requests\.cpu = "half" is invalid: a Kubernetes CPU quantity/,
      );
      expect(() => release({ controllerResources: { requests: { memory: "1Gi" } } })).toThrow(
        'test/karpenter: controllerResources.requests.memory = "1Gi" is invalid: at most the limit (512Mi, controllerResources.limits.memory): Kubernetes rejects a request above its limit; raise controllerResources.limits.memory too [HELM_VALUES_REQUEST_ABOVE_LIMIT]',
      );
      expect(() => release({ controllerResources: { limits: { memory: "512M" } } })).toThrow(
        /requests\.memory = "512Mi" is invalid: at most the limit \(512M, controllerResources\.limits\.memory\)/,
      );
      expect(
        release({ controllerResources: { requests: { cpu: "1.5" } } }).values.controller.resources.requests.cpu,
      ).toBe("1.5");
    });

    test("replicas: a whole number from 1; a number token is written unquoted", () => {
      expect(() => release({ replicas: 0 })).toThrow(/replicas = 0 is invalid/);
      expect(() => release({ replicas: 1.5 })).toThrow(/replicas = 1.5 is invalid/);
      const { yaml } = release({ replicas: Token.asNumber("${var.replicas}") });
      expect(yaml).toContain("replicas: ${var.replicas}\n");
      expect(release({ replicas: 2, values: { replicas: 4 } }).construct.replicas).toBe(4);
      expect(() => release({ values: { replicas: "3" } })).toThrow(/values\.replicas = "3" is invalid: a whole number/);
    });

    test("dnsPolicy defaults to Default; None needs a dnsConfig", () => {
      expect(release({ dnsPolicy: "ClusterFirst" }).values.dnsPolicy).toBe("ClusterFirst");
      expect(() => release({ dnsPolicy: "None" })).toThrow(/dnsPolicy = "None" is invalid: a dnsConfig in values/);
      expect(
        release({ dnsPolicy: "None", values: { dnsConfig: { nameservers: ["10.0.0.2"] } } }).values.dnsConfig,
      ).toEqual({ nameservers: ["10.0.0.2"] });
    });

    test("node selector and tolerations for the system nodes; Kubernetes spelling is enforced", () => {
      const { values } = release({
        nodeSelector: { "node-role": "system" },
        tolerations: [
          { key: "CriticalAddonsOnly", operator: "Exists" },
          { key: "dedicated", value: "system", effect: "NoSchedule" },
        ],
      });
      expect(values.nodeSelector).toEqual({ "node-role": "system" });
      expect(values.tolerations).toEqual([
        { key: "CriticalAddonsOnly", operator: "Exists" },
        { key: "dedicated", value: "system", effect: "NoSchedule" },
      ]);
      expect(() => release({ tolerations: [{ key: "a", effect: "NO_SCHEDULE" as "NoSchedule" }] })).toThrow(
        /tolerations\[0\]\.effect = "NO_SCHEDULE" is invalid/,
      );
      expect(() => release({ tolerations: [{ key: "a", operator: "Exists", value: "b" }] })).toThrow(
        /tolerations\[0\]\.value = "b" is invalid: no value with operator "Exists"/,
      );
    });

    test("a toleration with an unknown key is refused: a misspelt effect would tolerate every effect", () => {
      const misspelt = [
        { key: "dedicated", operator: "Exists" },
        { key: "a", operator: "Exists", efect: "NoSchedule" },
      ] as unknown as KubernetesToleration[];
      expect(() => release({ tolerations: misspelt })).toThrow(
        'test/karpenter: tolerations[1].efect = "NoSchedule" is invalid: not a known key of tolerations[1] (it would be ignored); did you mean effect? The allowed keys are { key?, operator?, value?, effect?, tolerationSeconds? } [OPTIONS_UNKNOWN_KEY]',
      );
      expect(() => release({ tolerations: [null] as unknown as KubernetesToleration[] })).toThrow(
        /^test\/karpenter: tolerations\[0\] = null is invalid: an object \{ key\?, operator\?/,
      );
    });

    test("names are checked", () => {
      expect(() => release({ namespace: "Kube_System" })).toThrow(
        /namespace = "Kube_System" is invalid: a Kubernetes namespace name/,
      );
      expect(() => release({ releaseName: "x".repeat(54) })).toThrow(
        /releaseName = .* is invalid: a Helm release name: at most 53/,
      );
      expect(() => release({ serviceAccountName: "Karpenter" })).toThrow(/serviceAccountName = "Karpenter" is invalid/);
      expect(() => release({ repository: "public.ecr.aws/karpenter" })).toThrow(
        /repository = "public.ecr.aws\/karpenter" is invalid: a chart repository URL/,
      );
      expect(() => release({ version: "0.37.0" })).toThrow(/version = "0.37.0" is invalid/);
    });

    test("a mirror repository is used as given", () => {
      expect(
        release({ repository: "oci://123456789012.dkr.ecr.us-east-1.amazonaws.com/ecr-public/karpenter" }).body
          .repository,
      ).toBe("oci://123456789012.dkr.ecr.us-east-1.amazonaws.com/ecr-public/karpenter");
    });
  });

  describe("values escape hatch", () => {
    test("is deep-merged last: maps merge, lists and scalars replace, null is kept for Helm", () => {
      const { values } = release({
        replicas: 2,
        tolerations: [{ key: "a", operator: "Exists" }],
        values: {
          replicas: 3,
          controller: { resources: { limits: { cpu: "1" } } },
          tolerations: [{ key: "b", operator: "Exists" }],
          podAnnotations: { a: "b" },
          topologySpreadConstraints: null,
          settings: { featureGates: { nodeRepair: true } },
        },
        settings: { featureGates: { spotToSpotConsolidation: true } },
      });
      expect(values.replicas).toBe(3);
      expect(values.controller.resources).toEqual({
        requests: { cpu: "500m", memory: "512Mi" },
        limits: { memory: "512Mi", cpu: "1" },
      });
      expect(values.tolerations).toEqual([{ key: "b", operator: "Exists" }]);
      expect(values.podAnnotations).toEqual({ a: "b" });
      expect(values).toHaveProperty("topologySpreadConstraints", null);
      expect(values.settings.featureGates).toEqual({ spotToSpotConsolidation: true, nodeRepair: true });
      expect(values.settings.clusterName).toBe("${aws_eks_cluster.cluster.name}");
    });

    test("settings in values are checked against the version; wired keys cannot be overridden", () => {
      expect(() =>
        release({ version: "1.13.1", values: { settings: { featureGates: { capacityBuffer: true } } } }),
      ).toThrow(
        /values\.settings\.featureGates\.capacityBuffer = true is invalid: Karpenter 1\.13\.1 has no feature gate capacityBuffer: it was introduced in 1\.14\.0/,
      );
      expect(() => release({ values: { settings: { clusterName: "other" } } })).toThrow(
        /values\.settings\.clusterName = "other" is invalid: not settable here/,
      );
      expect(() => release({ values: { settings: { interruptionQueue: "q" } } })).toThrow(
        /values\.settings\.interruptionQueue = "q" is invalid: not settable here: .*`interruptionQueue: InterruptionQueueConfig\.existing\(\{ existingQueueName, existingQueueArn \}\)` for a queue of your own/,
      );
      expect(() => release({ values: { serviceAccount: { name: "other" } } })).toThrow(
        /values\.serviceAccount\.name = "other" is invalid: not settable here/,
      );
      expect(() => release({ values: { settings: { batchMaxDuration: "forever" } } })).toThrow(
        /values\.settings\.batchMaxDuration = "forever" is invalid: a Go duration/,
      );
    });

    test("controller resources are compared only after the merge: a limit raised in values admits a larger typed request", () => {
      const { values } = release({
        controllerResources: { requests: { memory: "1Gi" } },
        values: { controller: { resources: { limits: { memory: "2Gi" } } } },
      });
      expect(values.controller.resources).toEqual({
        requests: { cpu: "500m", memory: "1Gi" },
        limits: { memory: "2Gi" },
      });
      const cpu = release({
        controllerResources: { requests: { cpu: "2" }, limits: { cpu: "1" } },
        values: { controller: { resources: { limits: { cpu: "4" } } } },
      });
      expect(cpu.values.controller.resources.limits.cpu).toBe("4");
    });

    test("controller resources are checked after the merge: a request above the (default) limit is refused", () => {
      expect(() => release({ values: { controller: { resources: { requests: { memory: "4Gi" } } } } })).toThrow(
        'test/karpenter: values.controller.resources.requests.memory = "4Gi" is invalid: at most the limit (512Mi, controllerResources.limits.memory): Kubernetes rejects a request above its limit; raise controllerResources.limits.memory too [HELM_VALUES_REQUEST_ABOVE_LIMIT]',
      );
      expect(() =>
        release({
          controllerResources: { requests: { memory: "1Gi" }, limits: { memory: "1Gi" } },
          values: { controller: { resources: { limits: { memory: "768Mi" } } } },
        }),
      ).toThrow(
        /values\.controller\.resources\.limits\.memory = "768Mi" is invalid: at least the request \(1Gi, controllerResources\.requests\.memory\)/,
      );
      expect(() => release({ values: { controller: { resources: { requests: { cpu: "lots" } } } } })).toThrow(
        /values\.controller\.resources\.requests\.cpu = "lots" is invalid: a Kubernetes CPU quantity/,
      );
      // raising both, or removing the limit with null (Helm's rule), is fine
      expect(
        release({ values: { controller: { resources: { requests: { memory: "4Gi" }, limits: { memory: "4Gi" } } } } })
          .values.controller.resources.requests.memory,
      ).toBe("4Gi");
      // the null removes the library's default limit from the document: Helm would hand a null to the template
      // (values.yaml has no controller.resources.limits default to delete), a zero limit to the API server
      expect(
        release({ values: { controller: { resources: { requests: { memory: "4Gi" }, limits: { memory: null } } } } })
          .values.controller.resources.limits,
      ).toEqual({});
    });

    test("every path of the merged values must exist in the version's values.yaml", () => {
      expect(() => release({ values: { replicaz: 3 } })).toThrow(
        /^test\/karpenter: values\.replicaz = 3 is invalid: a value path of the Karpenter 1\.15\.3 chart's values\.yaml, which has no replicaz; did you mean replicas\?/,
      );
      expect(() => release({ version: "1.0.14", values: { initContainers: { a: 1 } } })).toThrow(
        /values\.initContainers\.a = 1 is invalid: Karpenter 1\.0\.14's chart values\.yaml has no initContainers\.a: it was introduced in 1\.4\.0/,
      );
      expect(() => release({ values: { webhook: { enabled: false } } })).toThrow(
        /values\.webhook\.enabled = false is invalid: .*the chart had it up to 1\.0\.14 and dropped it/,
      );
      // affinity is rendered whole into a core/v1 Affinity (deployment.yaml:270-274): podAffinity is one of its
      // fields, whatever values.yaml's example shows (fresh12 F-3); a misspelt field is refused with the type
      expect(
        release({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [] } } }).values.affinity
          .podAffinity,
      ).toEqual({ requiredDuringSchedulingIgnoredDuringExecution: [] });
      expect(() => release({ affinity: { podAfinity: {} } as never })).toThrow(
        /test\/karpenter: affinity\.podAfinity = \{\} is invalid: a field of Kubernetes core\/v1 Affinity .*did you mean podAffinity\?/,
      );
      expect(() => release({ values: { replicaz: Token.asNumber("${var.n}") } })).toThrow(
        'test/karpenter: values.replicaz = "(known at apply)" is invalid',
      );
      expect(release({ version: "1.0.14", values: { webhook: { enabled: false } } }).values.webhook).toEqual({
        enabled: false,
      });
      expect(
        release({
          values: {
            podLabels: { team: "a" },
            controller: { env: [{ name: "A", value: "1" }] },
            service: { annotations: { a: "b" } },
          },
        }).values.podLabels,
      ).toEqual({ team: "a" });
    });

    test("a list or map token in values is refused (Terraform cannot put it into a string)", () => {
      expect(() => release({ values: { tolerations: Token.asAny("${var.t}") } })).toThrow(
        /^test\/karpenter: values\.tolerations = "\(a token\)" is invalid: tolerations is a token that is not a string or number/,
      );
    });
  });

  test("a missing cluster is a validation error, not a TypeError", () => {
    const { stack } = testStack();
    expect(() => new KarpenterRelease(stack, "karpenter", {} as KarpenterReleaseProps)).toThrow(
      "test/karpenter: cluster = undefined is invalid: cluster is required: an IKarpenterCluster from KarpenterCluster.fromEksCluster(...) or .fromClusterName(...) [CLUSTER_REQUIRED]",
    );
  });

  test("the version must support the cluster's literal Kubernetes version", () => {
    const { stack } = testStack();
    const eks = new EksCluster(stack, "cluster", {
      name: "demo",
      version: "1.34",
      roleArn: "arn:aws:iam::123456789012:role/c",
      vpcConfig: { subnetIds: ["subnet-00000001"] },
    });
    const cluster = KarpenterCluster.fromEksCluster(eks);
    expect(() => new KarpenterRelease(stack, "old", { cluster, version: "1.0.14" })).toThrow(
      /^test\/old: version = "1\.0\.14" is invalid: Karpenter 1\.0\.14 supports Kubernetes 1\.25 to 1\.31, and cluster demo runs Kubernetes 1\.34/,
    );
    expect(new KarpenterRelease(stack, "new", { cluster, version: "1.8.8" }).version).toBe("1.8.8");
  });

  test("a patch newer than the newest known one warns once per app; a known patch does not", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    new KarpenterRelease(stack, "a", { cluster, version: "1.14.9" });
    new KarpenterRelease(stack, "b", { cluster, version: "1.14.9", releaseName: "other" });
    new KarpenterRelease(stack, "c", { cluster, version: "1.14.1", releaseName: "third" });
    const warnings = stack.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)));
    // the test cluster sets no Kubernetes version, which 1.14.x (up to 1.36) also warns about: not this test's subject
    expect(warnings.filter((w) => !/sets no Kubernetes version/.test(w))).toEqual([
      "Karpenter 1.14.9 is newer than the newest 1.14 patch this library knows (1.14.4): make sure the chart exists; its IAM policy and settings are assumed to equal 1.14.4's",
    ]);
  });

  test("YAML is deterministic: same input in another order gives the same bytes, keys sorted, strings quoted", () => {
    const a = release({
      settings: { batchMaxDuration: "5s", featureGates: { nodeRepair: true, spotToSpotConsolidation: true } },
      values: { podLabels: { b: "1", a: "2" } },
    }).yaml;
    const b = release({
      values: { podLabels: { a: "2", b: "1" } },
      settings: { featureGates: { spotToSpotConsolidation: true, nodeRepair: true }, batchMaxDuration: "5s" },
    }).yaml;
    expect(a).toBe(b);
    const topLevel = Object.keys(JSON.parse(a));
    expect(topLevel).toEqual([...topLevel].sort());
    expect(a).toContain('"podLabels": {\n    "a": "2",\n    "b": "1"\n  }');
    expect(YAML.parseAllDocuments(a)).toHaveLength(1);
    expect(JSON.parse(a).podLabels).toEqual({ a: "2", b: "1" });
  });

  test("a numeric-looking string stays a string", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack, "123");
    new KarpenterRelease(stack, "karpenter", { cluster, values: { podLabels: { team: "007" } } });
    const values = YAML.parse(onlyResource(synthJson(stack), "helm_release").values[0]);
    expect(values.podLabels.team).toBe("007");
  });

  test("fullName follows the chart's fullname helper", () => {
    expect(release().construct.fullName).toBe("karpenter");
    expect(release({ releaseName: "autoscaler" }).construct.fullName).toBe("autoscaler-karpenter");
    expect(release({ values: { fullnameOverride: "kp" } }).construct.fullName).toBe("kp");
  });
});

describe("KarpenterRelease: bad props", () => {
  /** Builds a release in a fresh stack and returns what it threw, and the stack. */
  function failing(props: Partial<KarpenterReleaseProps>) {
    const { stack } = testStack();
    const cluster = testCluster(stack, "demo");
    const error = rejected(() => new KarpenterRelease(stack, "rel", { cluster, ...props }));
    return { stack, error };
  }

  test("a prop and a merged values path are reported together, and nothing is left in the tree", () => {
    const { stack, error } = failing({ replicas: 0, values: { replicaz: 1 } });
    expect(error.problems.map((p) => p.message)).toEqual([
      "test/rel: replicas = 0 is invalid: a whole number of controller pods, at least 1 (2 for high availability) [HELM_VALUES_REPLICAS]",
      expect.stringMatching(
        /^test\/rel: values\.replicaz = 1 is invalid: a value path of the Karpenter 1\.15\.3 chart's values\.yaml, which has no replicaz; did you mean replicas\?/,
      ),
    ]);
    expect(error.message).toMatch(/^2 problems in the props of test\/rel:\n/);
    expect(stack.node.tryFindChild("rel")).toBeUndefined();
    expect(synthJson(stack).resource?.helm_release).toBeUndefined();
  });

  test("a value that cannot be rendered (a list token) leaves nothing in the tree either", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack, "demo");
    expect(
      () => new KarpenterRelease(stack, "rel", { cluster, values: { tolerations: Token.asAny("${var.t}") } }),
    ).toThrow(/values\.tolerations = "\(a token\)" is invalid/);
    expect(stack.node.tryFindChild("rel")).toBeUndefined();
  });

  test("irsaRoleArn must be an IAM role ARN; a reference passes", () => {
    expect(failing({ irsaRoleArn: "nope" }).error.message).toBe(
      'test/rel: irsaRoleArn = "nope" is invalid: an IAM role ARN, arn:<partition>:iam::<12-digit account>:role/<optional path/><name> (not an instance profile or user ARN) [AWS_ROLE_ARN]',
    );
    expect(failing({ irsaRoleArn: "arn:aws:iam::123456789012:instance-profile/x" }).error.field).toBe("irsaRoleArn");
    expect(
      release({ irsaRoleArn: "arn:aws-us-gov:iam::123456789012:role/team/KarpenterController" }).values.serviceAccount
        .annotations,
    ).toEqual({
      "eks.amazonaws.com/role-arn": "arn:aws-us-gov:iam::123456789012:role/team/KarpenterController",
    });
    const { stack } = testStack();
    const arn = new TerraformVariable(stack, "role", { type: "string" }).stringValue;
    expect(
      () => new KarpenterRelease(stack, "rel", { cluster: testCluster(stack, "demo"), irsaRoleArn: arn }),
    ).not.toThrow();
  });

  test("node selector keys and values follow the Kubernetes label rules, in the prop and in values", () => {
    const { error } = failing({
      nodeSelector: { "": "x", "node-role": "system_", "example.com/team": "a".repeat(64) },
      values: { nodeSelector: { "Bad Key": "x" } },
    });
    expect(error.problems.map((p) => p.message)).toEqual([
      'test/rel: nodeSelector[""] = "" is invalid: a Kubernetes label key, [<DNS subdomain prefix>/]<name>: it must not be empty [HELM_VALUES_LABEL_KEY]',
      "test/rel: nodeSelector[\"node-role\"] = \"system_\" is invalid: a Kubernetes label value (a string): empty, or at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit [HELM_VALUES_LABEL_VALUE]",
      `test/rel: nodeSelector["example.com/team"] = "${"a".repeat(64)}" is invalid: a Kubernetes label value (a string): empty, or at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit [HELM_VALUES_LABEL_VALUE]`,
      "test/rel: values.nodeSelector[\"Bad Key\"] = \"Bad Key\" is invalid: a Kubernetes label key, [<DNS subdomain prefix>/]<name>: the name must be 1 to 63 characters, letters, digits, '-', '_' and '.', starting and ending with a letter or digit [HELM_VALUES_LABEL_KEY]",
    ]);
    // an empty value selects nodes whose label is empty; null removes the chart's default label
    expect(
      release({ nodeSelector: { "node-role": "" }, values: { nodeSelector: { "kubernetes.io/os": null } } }).values
        .nodeSelector,
    ).toEqual({ "node-role": "", "kubernetes.io/os": null });
  });

  test("values.logLevel is one of the levels the 1.14+ controller accepts: debug, info, error, lower case", () => {
    const accepts = (v: string) =>
      `a log level the Karpenter ${v} controller accepts in LOG_LEVEL: "debug", "info" (the chart's default) or "error", lower case (kubernetes-sigs/karpenter pkg/operator/options/options.go validLogLevels); on anything else it panics at start with invalid LOG_LEVEL`;
    expect(failing({ values: { logLevel: "verbose" } }).error.message).toBe(
      `test/rel: values.logLevel = "verbose" is invalid: ${accepts("1.15.3")} [HELM_VALUES_LOG_LEVEL]`,
    );
    // upper case: did you mean the lower-case level (options.go compares with lo.Contains)
    const upper = failing({ values: { logLevel: "DEBUG" } }).error;
    expect(upper.code).toBe("HELM_VALUES_LOG_LEVEL");
    expect(upper.field).toBe("values.logLevel");
    expect(upper.value).toBe("DEBUG");
    expect(upper.message).toBe(
      `test/rel: values.logLevel = "DEBUG" is invalid: did you mean "debug"? The controller compares the level case-sensitively. ${accepts("1.15.3")} [HELM_VALUES_LOG_LEVEL]`,
    );
    // zap's levels are not in validLogLevels (v1.14.1 and v1.15.0)
    for (const level of ["warn", "Info", "dpanic", "fatal"])
      expect(failing({ values: { logLevel: level } }).error.code).toBe("HELM_VALUES_LOG_LEVEL");
    expect(failing({ version: "1.14.1", values: { logLevel: "warn" } }).error.message).toBe(
      `test/rel: values.logLevel = "warn" is invalid: ${accepts("1.14.1")} [HELM_VALUES_LOG_LEVEL]`,
    );
    expect(failing({ values: { logLevel: 3 } }).error.field).toBe("values.logLevel");
    for (const level of ["debug", "info", "error", ""])
      expect(release({ values: { logLevel: level } }).values.logLevel).toBe(level);
    expect(release({ values: { logLevel: null } }).values.logLevel).toBeNull();
    expect(release().values.logLevel).toBeUndefined(); // unset: the chart's own "info"
    // a token is never an error
    const { stack } = testStack();
    const level = new TerraformVariable(stack, "level", { type: "string" }).stringValue;
    expect(
      () => new KarpenterRelease(stack, "rel", { cluster: testCluster(stack, "demo"), values: { logLevel: level } }),
    ).not.toThrow();
  });

  test("before 1.14 (controller source not read) values.logLevel keeps the earlier check, zap's levels included", () => {
    for (const level of ["warn", "DEBUG", "fatal", "debug"])
      expect(release({ version: "1.13.1", values: { logLevel: level } }).values.logLevel).toBe(level);
    expect(failing({ version: "1.13.1", values: { logLevel: "verbose" } }).error.message).toBe(
      'test/rel: values.logLevel = "verbose" is invalid: a log level: "debug", "info" (the chart\'s default) or "error" (Karpenter docs, Settings: LOG_LEVEL); for Karpenter 1.13.1 the library has not read the controller\'s source and also takes zap\'s "warn", "dpanic", "panic" and "fatal" [HELM_VALUES_LOG_LEVEL]',
    );
  });

  test("a LOG_LEVEL entry of values.controller.env (the chart puts it after its own, so it wins) is checked the same way", () => {
    const { error } = failing({
      values: {
        controller: {
          env: [
            { name: "OTHER", value: "DEBUG" },
            { name: "LOG_LEVEL", value: "DEBUG" },
          ],
        },
      },
    });
    expect(error.problems.map((p) => [p.field, p.value, p.code])).toEqual([
      ["values.controller.env[1].value", "DEBUG", "HELM_VALUES_LOG_LEVEL"],
    ]);
    expect(error.message).toContain('did you mean "debug"?');
    const env = [
      { name: "LOG_LEVEL", value: "error" },
      { name: "LOG_LEVEL", valueFrom: { configMapKeyRef: { name: "c", key: "k" } } },
    ];
    expect(release({ values: { controller: { env } } }).values.controller.env).toEqual(env);
    expect(
      release({ version: "1.13.1", values: { controller: { env: [{ name: "LOG_LEVEL", value: "warn" }] } } }).values
        .controller.env,
    ).toEqual([{ name: "LOG_LEVEL", value: "warn" }]);
  });

  describe("a values.controller.env entry for a setting's env var gets the check of the typed setting (fresh8 C)", () => {
    const env = (entries: Record<string, unknown>[], version?: string) => ({
      ...(version ? { version } : {}),
      values: { controller: { env: entries } },
    });
    test.each([
      ["PREFERENCE_POLICY", "respect", "Respect", 'one of "Respect", "Ignore"'],
      ["MIN_VALUES_POLICY", "strict", "Strict", 'one of "Strict", "BestEffort"'],
      ["AMI_REFRESH_INTERVAL", "30s", "1m", 'a Go duration such as "10s", "1m" or "1h30m", at least 1m'],
      ["SECURITY_GROUP_REFRESH_INTERVAL", "59s", "1h", "at least 1m"],
      ["BATCH_IDLE_DURATION", "soon", "1s", "a Go duration"],
      ["CLUSTER_ENDPOINT", "https://", "https://ABC.gr7.us-west-2.eks.amazonaws.com", "an https:// URL"],
      ["FEATURE_GATES", "NodeOverlay=yes", "NodeOverlay=TRUE,NodeRepair=0", "Gate=bool pairs"],
      ["FEATURE_GATES", "NodeOverlay", "NodeOverlay=true,", "Gate=bool pairs"],
      ["AWS_FEATURE_GATES", "NodeClassCEL=on", "NodeClassCEL=t", "Gate=bool pairs"],
    ])("%s=%s is refused, the look-alike %s is accepted", (name, bad, good, allowed) => {
      const { error } = failing(
        env([
          { name: "OTHER", value: bad },
          { name, value: bad },
        ]),
      );
      expect(error.problems.map((p) => [p.field, p.value, p.code])).toEqual([
        ["values.controller.env[1].value", bad, "HELM_VALUES_SETTING"],
      ]);
      expect(error.message).toContain(allowed);
      expect(release(env([{ name, value: good }])).values.controller.env).toEqual([{ name, value: good }]);
    });
    test("the message names the setting the env var belongs to", () => {
      expect(failing(env([{ name: "PREFERENCE_POLICY", value: "respect" }])).error.message).toBe(
        'test/rel: values.controller.env[0].value = "respect" is invalid: one of "Respect", "Ignore": PREFERENCE_POLICY is the env var of settings.preferencePolicy (the chart writes it from there; this entry, after the chart\'s own, wins), and takes what that setting takes [HELM_VALUES_SETTING]',
      );
    });
    test("every problem at once, beside a bad typed setting and a bad LOG_LEVEL entry", () => {
      const { error } = failing({
        settings: { preferencePolicy: "ignore" as never },
        ...env([
          { name: "LOG_LEVEL", value: "DEBUG" },
          { name: "MIN_VALUES_POLICY", value: "besteffort" },
          { name: "FEATURE_GATES", value: "NodeOverlay=yes" },
        ]),
      });
      expect(error.problems.map((p) => [p.field, p.code])).toEqual([
        ["settings.preferencePolicy", "HELM_VALUES_SETTING"],
        ["values.controller.env[0].value", "HELM_VALUES_LOG_LEVEL"],
        ["values.controller.env[1].value", "HELM_VALUES_SETTING"],
        ["values.controller.env[2].value", "HELM_VALUES_SETTING"],
      ]);
    });
    test("valueFrom, tokens, unknown names and env vars the library does not judge are left alone", () => {
      const { stack } = testStack();
      const token = new TerraformVariable(stack, "policy", { type: "string" }).stringValue;
      const entries = [
        { name: "PREFERENCE_POLICY", valueFrom: { configMapKeyRef: { name: "c", key: "k" } } },
        { name: "PREFERENCE_POLICY", value: token },
        { name: token, value: "respect" },
        { name: "preference_policy", value: "respect" },
        { name: "SOMETHING_ELSE", value: "30s" },
        { name: "ISOLATED_VPC", value: "true" }, // a boolean the chart quotes: not judged
        { name: "FEATURE_GATES", value: "NodeRepair=true, SpotToSpotConsolidation=0" }, // known names, Go-trimmed
      ];
      expect(
        () =>
          new KarpenterRelease(stack, "rel", {
            cluster: testCluster(stack, "demo"),
            values: { controller: { env: entries } },
          }),
      ).not.toThrow();
    });
    // ParseFeatureGates reads only its own names out of the parsed map (sigs.k8s.io/karpenter@v1.15.0
    // pkg/operator/options/options.go:293-330; karpenter-provider-aws@v1.15.0 options.go:117-128): another name
    // starts the controller with the gate at its default, silently (fresh14 C-1, C-2)
    test.each([
      [
        "FEATURE_GATES",
        "spotToSpotConsolidation=true",
        "SpotToSpotConsolidation=true",
        '"spotToSpotConsolidation" is not one (did you mean "SpotToSpotConsolidation"?',
      ],
      [
        "FEATURE_GATES",
        "NodeRepair=true,FooBar=true",
        "NodeRepair=true,NodeOverlay=true",
        '"FooBar" is not one, and the controller ignores',
      ],
      ["FEATURE_GATES", "NodeRepiar=true", "NodeRepair=true", 'did you mean "NodeRepair"?'],
      ["AWS_FEATURE_GATES", "Bogus=true", "NodeClassCEL=true", '"Bogus" is not one'],
      ["AWS_FEATURE_GATES", "DRANvidiaGPU=true", "DRANVIDIAGPU=true", 'did you mean "DRANVIDIAGPU"?'],
    ])("%s=%s names a gate the controller does not know: refused; %s is accepted", (name, bad, good, why) => {
      const { error } = failing(env([{ name, value: bad }], "1.15.0"));
      expect(error.problems.map((p) => [p.field, p.value, p.code])).toEqual([
        ["values.controller.env[0].value", bad, "HELM_VALUES_SETTING"],
      ]);
      expect(error.message).toContain(why);
      expect(release(env([{ name, value: good }], "1.15.0")).values.controller.env).toEqual([{ name, value: good }]);
    });
    test("a gate of a later release is named as such; before 1.14 the string is not judged (warning only)", () => {
      // TerminateFirstDrift is a gate from 1.15 (chart deployment.yaml:130 of 1.15.0, not :129 of 1.14.1)
      const { error } = failing(env([{ name: "FEATURE_GATES", value: "TerminateFirstDrift=true" }], "1.14.1"));
      expect(error.code).toBe("HELM_VALUES_SETTING");
      expect(error.message).toContain('"TerminateFirstDrift" is not one (it is a gate from Karpenter 1.15');
      expect(release(env([{ name: "FEATURE_GATES", value: "TerminateFirstDrift=true" }], "1.15.0"))).toBeDefined();
      const old = [{ name: "FEATURE_GATES", value: "FooBar=true" }];
      expect(release(env(old, "1.13.1")).values.controller.env).toEqual(old);
    });
    test("a setting the version lacks, and AWS_FEATURE_GATES before 1.15, are not judged", () => {
      // securityGroupRefreshInterval is new in 1.15; AWS_FEATURE_GATES is read from 1.15
      for (const entry of [
        { name: "SECURITY_GROUP_REFRESH_INTERVAL", value: "30s" },
        { name: "AWS_FEATURE_GATES", value: "NodeClassCEL=on" },
      ])
        expect(release(env([entry], "1.14.1")).values.controller.env).toEqual([entry]);
      expect(failing(env([{ name: "AMI_REFRESH_INTERVAL", value: "30s" }], "1.14.1")).error.code).toBe(
        "HELM_VALUES_SETTING",
      );
    });
    test("through Karpenter as well", () => {
      const { stack } = testStack();
      const error = rejected(
        () =>
          new Karpenter(stack, "k", {
            cluster: testCluster(stack, "demo"),
            values: { controller: { env: [{ name: "PREFERENCE_POLICY", value: "respect" }] } },
          }),
      );
      expect(error.problems.map((p) => [p.field, p.code])).toEqual([
        ["values.controller.env[0].value", "HELM_VALUES_SETTING"],
      ]);
    });
  });

  describe("values.controller.env: the last entry of a name decides, and the options it can set (fresh9 A, H1)", () => {
    const env = (entries: Record<string, unknown>[], version?: string) => ({
      ...(version ? { version } : {}),
      values: { controller: { env: entries } },
    });
    const warningsOf = (stack: TerraformStack) =>
      stack.node
        .findAll()
        .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)))
        .filter((w) => !/sets no Kubernetes version/.test(w));
    const built = (props: Partial<KarpenterReleaseProps>, clusterName?: string) => {
      const { stack } = testStack();
      const cluster = clusterName === undefined ? testCluster(stack, "demo") : testCluster(stack, clusterName);
      new KarpenterRelease(stack, "rel", { cluster, ...props });
      return warningsOf(stack);
    };
    const SCHED_BAD =
      "podTopologySpread:\n  defaultConstraints:\n  - maxSkew: 0\n    topologyKey: topology.kubernetes.io/zone\n    whenUnsatisfiable: ScheduleAnyway\n";
    const SCHED_GOOD = SCHED_BAD.replace("maxSkew: 0", "maxSkew: 1");

    test("an earlier bad entry shadowed by a good one passes, with a warning; a bad last one is refused", () => {
      const warnings = built(
        env([
          { name: "LOG_LEVEL", value: "Bogus" },
          { name: "LOG_LEVEL", value: "info" },
        ]),
      );
      expect(warnings).toEqual([
        expect.stringContaining("values.controller.env[0] (LOG_LEVEL) is shadowed by values.controller.env[1]"),
      ]);
      const { error } = failing(
        env([
          { name: "LOG_LEVEL", value: "info" },
          { name: "LOG_LEVEL", value: "Bogus" },
        ]),
      );
      expect(error.problems.map((p) => [p.field, p.code])).toEqual([
        ["values.controller.env[1].value", "HELM_VALUES_LOG_LEVEL"],
      ]);
    });
    test('LOG_LEVEL="" is accepted: the controller lists "" as valid and logs at info (options.go:53, logging.go:44)', () => {
      expect(built(env([{ name: "LOG_LEVEL", value: "" }]))).toEqual([]);
    });
    test.each([
      ["VM_MEMORY_OVERHEAD_PERCENT", "-0.01", "0.1", "cannot be negative"],
      ["VM_MEMORY_OVERHEAD_PERCENT", "-inf", "0x1p-4", "cannot be negative"],
      ["VM_MEMORY_OVERHEAD_PERCENT", "seven", "7.5e-2", "strconv.ParseFloat"],
      ["RESERVED_ENIS", "-1", "+2", "cannot be negative"],
      ["RESERVED_ENIS", "1.5", "0", "strconv.Atoi"],
    ])("%s=%s is refused as the typed setting is, the look-alike %s passes", (name, bad, good, why) => {
      const { error } = failing(env([{ name, value: bad }]));
      expect(error.problems.map((p) => [p.field, p.value, p.code])).toEqual([
        ["values.controller.env[0].value", bad, "HELM_VALUES_SETTING"],
      ]);
      expect(error.message).toContain(why);
      expect(built(env([{ name, value: good }]))).toEqual([]);
    });
    test('CLUSTER_ENDPOINT="" passes: the controller then discovers the endpoint (options_validation.go:59-61)', () => {
      expect(built(env([{ name: "CLUSTER_ENDPOINT", value: "" }]))).toEqual([]);
    });
    test("CLUSTER_NAME: empty fails the controller, another name than the wired cluster's is wired; the same name passes", () => {
      const empty = failing(env([{ name: "CLUSTER_NAME", value: "" }])).error;
      expect([empty.problems[0].field, empty.problems[0].code]).toEqual([
        "values.controller.env[0].value",
        "HELM_VALUES_SETTING",
      ]);
      expect(empty.message).toContain("missing field, cluster-name");
      const other = failing(env([{ name: "CLUSTER_NAME", value: "other" }])).error;
      expect([other.problems[0].field, other.problems[0].code]).toEqual([
        "values.controller.env[0].value",
        "HELM_VALUES_WIRED",
      ]);
      expect(other.message).toContain('"demo" (the cluster the install is wired to) or no CLUSTER_NAME entry');
      expect(built(env([{ name: "CLUSTER_NAME", value: "demo" }]))).toEqual([]);
    });
    test('an entry with no value sets the variable to "": CLUSTER_NAME fails the controller, LOG_LEVEL passes', () => {
      const empty = failing(env([{ name: "CLUSTER_NAME" }])).error;
      expect(empty.problems.map((p) => [p.field, p.code])).toEqual([
        ["values.controller.env[0].value", "HELM_VALUES_SETTING"],
      ]);
      expect(empty.message).toContain("missing field, cluster-name");
      // "" is one of the 1.15.0 validLogLevels (sigs.k8s.io/karpenter options.go:53)
      expect(built(env([{ name: "LOG_LEVEL", value: "info" }, { name: "LOG_LEVEL" }]))).toEqual([
        expect.stringContaining("values.controller.env[0] (LOG_LEVEL) is shadowed by values.controller.env[1]"),
      ]);
      // valueFrom: the value is not known at synth
      expect(built(env([{ name: "CLUSTER_NAME", valueFrom: { configMapKeyRef: { name: "c", key: "k" } } }]))).toEqual(
        [],
      );
    });
    test("CLUSTER_NAME with a cluster name known only at apply: a warning", () => {
      const { stack } = testStack();
      const name = new TerraformVariable(stack, "name", { type: "string" }).stringValue;
      new KarpenterRelease(stack, "rel", {
        cluster: testCluster(stack, name),
        ...env([{ name: "CLUSTER_NAME", value: "other" }]),
      });
      expect(warningsOf(stack)).toEqual([expect.stringContaining("replaces the cluster name wired from the cluster")]);
    });
    test("SCHEDULER_CONFIG on 1.15: the report's maxSkew 0 is refused, a valid document passes", () => {
      const { error } = failing(env([{ name: "SCHEDULER_CONFIG", value: SCHED_BAD }]));
      expect(error.problems.map((p) => [p.field, p.code])).toEqual([
        ["values.controller.env[0].value", "HELM_VALUES_SCHEDULER_CONFIG"],
      ]);
      expect(error.message).toContain("podTopologySpread.defaultConstraints[0].maxSkew must be greater than 0");
      expect(built(env([{ name: "SCHEDULER_CONFIG", value: SCHED_GOOD }]))).toEqual([]);
      expect(built(env([{ name: "SCHEDULER_CONFIG", value: "" }]))).toEqual([]);
    });
    test("through Karpenter: the report's repro, and CLUSTER_NAME against the wired cluster", () => {
      const { stack } = testStack();
      const error = rejected(
        () =>
          new Karpenter(stack, "k", {
            cluster: testCluster(stack, "demo"),
            values: {
              controller: {
                env: [
                  { name: "SCHEDULER_CONFIG", value: SCHED_BAD },
                  { name: "CLUSTER_NAME", value: "other" },
                ],
              },
            },
          }),
      );
      expect(error.problems.map((p) => [p.field, p.code])).toEqual([
        ["values.controller.env[0].value", "HELM_VALUES_SCHEDULER_CONFIG"],
        ["values.controller.env[1].value", "HELM_VALUES_WIRED"],
      ]);
    });
    test("SCHEDULER_CONFIG before 1.15 has no effect: not refused, a warning says so", () => {
      expect(built(env([{ name: "SCHEDULER_CONFIG", value: SCHED_BAD }], "1.14.1"))).toEqual([
        expect.stringContaining("SCHEDULER_CONFIG has no effect on Karpenter 1.14.1"),
      ]);
    });
    test("all at once: a bad SCHEDULER_CONFIG beside a bad LOG_LEVEL, a bad setting and values.replicas (fresh9 A3)", () => {
      const { error } = failing({
        settings: { amiRefreshInterval: "30s" },
        values: {
          replicas: "2",
          controller: {
            env: [
              { name: "SCHEDULER_CONFIG", value: "podTopologySpreed: {}" },
              { name: "LOG_LEVEL", value: "Warn" },
            ],
          },
        },
      });
      expect(error.problems.map((p) => [p.field, p.code])).toEqual([
        ["settings.amiRefreshInterval", "HELM_VALUES_SETTING"],
        ["values.controller.env[0].value", "HELM_VALUES_SCHEDULER_CONFIG"],
        ["values.controller.env[1].value", "HELM_VALUES_LOG_LEVEL"],
        ["values.replicas", "HELM_VALUES_REPLICAS"],
      ]);
    });
  });

  test("an unknown setting gets a did-you-mean when one is close, in settings and values.settings", () => {
    const { error } = failing({
      settings: { bogus: 1, batchIdleDuratin: "1s" } as KarpenterSettings,
      values: { settings: { featureGates: { nodeRepiar: true } } },
    });
    const gates =
      "nodeRepair, nodeOverlay, reservedCapacity, spotToSpotConsolidation, staticCapacity, capacityBuffer, terminateFirstDrift, terminateFirstRepair, podDeletionCostManagement";
    expect(error.problems.map((p) => [p.field, p.allowed])).toEqual([
      [
        "settings.bogus",
        expect.stringMatching(/^a setting of the Karpenter 1\.15\.3 chart: batchMaxDuration, batchIdleDuration, /),
      ],
      [
        "settings.batchIdleDuratin",
        expect.stringMatching(
          /^a setting of the Karpenter 1\.15\.3 chart; did you mean settings\.batchIdleDuration\? Its settings are batchMaxDuration, batchIdleDuration, /,
        ),
      ],
      [
        "values.settings.featureGates.nodeRepiar",
        `a feature gate of the Karpenter 1.15.3 chart; did you mean values.settings.featureGates.nodeRepair? Its feature gates are ${gates}`,
      ],
    ]);
  });
});

describe("KarpenterRelease: what depends on the rest of the app", () => {
  const warningsOf = (stack: TerraformStack) => {
    Testing.synth(stack, true);
    return stack.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)));
  };

  test("a KarpenterCrdRelease at another version on the same Helm provider fails synth, naming both", () => {
    const { stack } = testStack();
    new HelmProvider(stack, "helm", {});
    const cluster = testCluster(stack, "demo", "cluster");
    new KarpenterCrdRelease(stack, "crd", { version: "1.3.8" });
    new KarpenterRelease(stack, "rel", { cluster, version: "1.4.4" });
    const error = rejected(() => Testing.synth(stack, true));
    expect(error.problems.map((p) => p.message)).toEqual([
      'test/rel: version = "1.4.4" is invalid: the version of the CRDs on its cluster: test/crd installs the karpenter-crd chart 1.3.8 through the same Helm provider (the default helm provider of stack test), and CRDs older than the controller lack fields and enum values the 1.4.4 controller reads and writes (Karpenter upgrade guide, "CRD upgrades": upgrade the karpenter-crd chart with the controller, to the same version); set test/rel and test/crd to one version [HELM_CRD_VERSION_MISMATCH]',
    ]);
  });

  test("the same version, or releases on two clusters' Helm providers, pass", () => {
    const { stack } = testStack();
    const blue = new HelmProvider(stack, "helm-blue", { alias: "blue" });
    const green = new HelmProvider(stack, "helm-green", { alias: "green" });
    new KarpenterCrdRelease(stack, "crd-blue", { version: "1.4.4", helmProvider: blue });
    new KarpenterRelease(stack, "rel-blue", {
      cluster: testCluster(stack, "blue", "blue"),
      version: "1.4.4",
      helmProvider: blue,
    });
    new KarpenterCrdRelease(stack, "crd-green", { version: "1.3.8", helmProvider: green });
    new KarpenterRelease(stack, "rel-green", {
      cluster: testCluster(stack, "green", "green"),
      version: "1.3.8",
      helmProvider: green,
    });
    expect(() => Testing.synth(stack, true)).not.toThrow();
    // a second CRD release on blue, newer: two owners of the CRDs, and CRDs newer than the controller
    new KarpenterCrdRelease(stack, "crd-blue-2", {
      version: "1.5.8",
      helmProvider: blue,
      releaseName: "karpenter-crd-2",
    });
    const owners = (other: string) =>
      `a Helm provider (a cluster) no other karpenter-crd release of the app uses: ${other} also installs the Karpenter CRDs through it. The CRDs are cluster-scoped and Helm does not install objects another release owns, so the second release fails at apply; keep one karpenter-crd release per cluster (a Karpenter brings its own)`;
    expect(
      rejected(() => Testing.synth(stack, true)).problems.map((p) => [p.path, p.field, p.value, p.allowed]),
    ).toEqual([
      ["test/crd-blue", "helmProvider", "helm.blue", owners("test/crd-blue-2")],
      [
        "test/rel-blue",
        "version",
        "1.4.4",
        'the version of the CRDs on its cluster: test/crd-blue-2 installs the karpenter-crd chart 1.5.8 through the same Helm provider (helm.blue), and CRDs newer than the controller hold fields the 1.4.4 controller does not know (Karpenter upgrade guide, "CRD upgrades": upgrade the karpenter-crd chart with the controller, to the same version); set test/rel-blue and test/crd-blue-2 to one version',
      ],
      ["test/crd-blue-2", "helmProvider", "helm.blue", owners("test/crd-blue")],
    ]);
  });

  test("a KarpenterCrdRelease beside a Karpenter on its cluster is a second owner of the CRDs, and its version is compared with the controller's", () => {
    const { stack } = testStack();
    new HelmProvider(stack, "helm", {});
    new Karpenter(stack, "karpenter", { cluster: testCluster(stack, "demo") });
    new KarpenterCrdRelease(stack, "crd", { version: "1.13.1", releaseName: "extra-crds" });
    expect(rejected(() => Testing.synth(stack, true)).problems.map((p) => [p.path, p.field])).toEqual([
      ["test/karpenter", "helmProvider"],
      ["test/karpenter", "version"],
      ["test/crd", "helmProvider"],
    ]);
    expect(rejected(() => Testing.synth(stack, true)).problems[1].allowed).toMatch(
      /^the version of the CRDs on its cluster: test\/crd installs the karpenter-crd chart 1\.13\.1 .*; set test\/karpenter and test\/crd to one version$/,
    );
  });

  test("two KarpenterReleases on one cluster are two installs", () => {
    const { stack } = testStack();
    new HelmProvider(stack, "helm", {});
    const cluster = testCluster(stack, "demo");
    new KarpenterRelease(stack, "a", { cluster });
    new KarpenterRelease(stack, "b", { cluster, releaseName: "other" });
    expect(rejected(() => Testing.synth(stack, true)).problems.map((p) => [p.path, p.field, p.value])).toEqual([
      ["test/a", "cluster", "demo"],
      ["test/b", "cluster", "demo"],
    ]);
  });

  test("values.controller.image.tag and serviceAccount.create warn on the release used alone", () => {
    const { stack } = testStack();
    new HelmProvider(stack, "helm", {});
    new KarpenterRelease(stack, "rel", {
      cluster: testCluster(stack, "demo"),
      irsaRoleArn: "arn:aws:iam::123456789012:role/KarpenterController",
      values: { controller: { image: { tag: "1.13.1", digest: null } }, serviceAccount: { create: false } },
    });
    expect(warningsOf(stack)).toEqual([
      'values.controller.image.tag = "1.13.1" overrides the controller image of version = "1.15.3", while the IAM policy, CRDs and settings follow version (1.15.3); with values.controller.image.digest = null the image has no digest, so the controller runs 1.13.1. Set version instead (the chart pins the image of its own version) and leave values.controller.image.tag and digest unset',
      "values.serviceAccount.create = false: the chart creates no ServiceAccount, so kube-system/karpenter must exist before the controller pods start (created outside this app), or the API server rejects them and the release times out; with IRSA it must also carry the annotation eks.amazonaws.com/role-arn of the controller role (arn:aws:iam::123456789012:role/KarpenterController), which the chart now does not write",
    ]);
  });
});
