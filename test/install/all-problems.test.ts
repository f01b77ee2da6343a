import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { Karpenter } from "../../lib/install/karpenter";
import { KarpenterProps } from "../../lib/install/karpenter-props";
import { KarpenterRelease, KarpenterReleaseProps } from "../../lib/helm/karpenter-release";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodeOverlay } from "../../lib/nodes/node-overlay";
import { NodePool, NodePoolProps } from "../../lib/nodes/node-pool";
import { FakeInstallation, rejected, testCluster, testStack } from "../helpers";

/*
 * Every problem of one construct at once: checks that used to run only after others passed
 * (issue 31, item 6). Each case has a look-alike that passes.
 */

function setup() {
  const { stack } = testStack();
  new HelmProvider(stack, "helm", {});
  return { stack, cluster: testCluster(stack, "demo") };
}
const karpenter = (props: Partial<KarpenterProps>) => {
  const { stack, cluster } = setup();
  return new Karpenter(stack, "karpenter", { cluster, ...props });
};
const release = (props: Partial<KarpenterReleaseProps>) => {
  const { stack, cluster } = setup();
  return new KarpenterRelease(stack, "release", { cluster, ...props });
};
const fields = (fn: () => unknown) =>
  rejected(fn)
    .problems.map((p) => p.field)
    .sort();
const DNS_CONFIG = { nameservers: ["10.0.0.2"] };

describe('dnsPolicy "None" without dnsConfig is reported beside the other problems', () => {
  test("Karpenter: with replicas 0 both are named (before, only replicas)", () => {
    expect(fields(() => karpenter({ dnsPolicy: "None", replicas: 0 }))).toEqual(["dnsPolicy", "replicas"]);
    const e = rejected(() => karpenter({ dnsPolicy: "None", replicas: 0 }));
    expect(e.problems.find((p) => p.field === "dnsPolicy")!.message).toContain(
      'a dnsConfig in values (Kubernetes requires one with dnsPolicy "None")',
    );
  });
  test("Karpenter: values.dnsPolicy None beside a bad values.replicas and a bad namespace", () => {
    expect(fields(() => karpenter({ namespace: "Kube_System", values: { dnsPolicy: "None", replicas: -1 } }))).toEqual([
      "namespace",
      "values.dnsPolicy",
      "values.replicas",
    ]);
  });
  test("KarpenterRelease: beside bad controller resources (the merged document is not built then)", () => {
    expect(fields(() => release({ dnsPolicy: "None", controllerResources: { requests: { cpu: "lots" } } }))).toEqual([
      "controllerResources.requests.cpu",
      "dnsPolicy",
    ]);
  });
  test.each([
    [{ searches: ["svc.cluster.local"] }, undefined],
    [{ nameservers: [] }, []],
    [
      { nameservers: ["10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5"] },
      ["10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5"],
    ],
    [{ nameservers: ["10.0.0.2:53"] }, ["10.0.0.2:53"]],
  ])("None with dnsConfig %j: Kubernetes needs 1 to 3 nameserver IPs", (dnsConfig, value) => {
    const e = rejected(() => karpenter({ dnsPolicy: "None", values: { dnsConfig } }));
    expect(e.problems).toHaveLength(1);
    expect(e.problems[0]).toMatchObject({ field: "values.dnsConfig.nameservers", value });
    expect(e.problems[0].message).toContain('1 to 3 IP addresses such as ["10.100.0.10"]');
  });
  test("under any policy, dnsConfig is held to PodSpec validation: nameservers, searches, options, unknown keys, all at once", () => {
    const e = rejected(() =>
      karpenter({
        values: {
          dnsConfig: {
            nameservers: ["dns.internal", "10.0.0.2", "10.0.0.3", "10.0.0.4"],
            searches: ["Bad_Domain!"],
            options: [{ value: "2" }],
            nameserver: ["x"],
          },
        },
      }),
    );
    expect(e.problems.map((p) => p.field).sort()).toEqual([
      "values.dnsConfig.nameserver",
      "values.dnsConfig.nameservers",
      "values.dnsConfig.options[0]",
      "values.dnsConfig.searches",
    ]);
    expect(e.problems.find((p) => p.field === "values.dnsConfig.nameservers")!.message).toContain(
      'at most 3 IP addresses such as ["10.100.0.10"]: Kubernetes takes at most 3 nameservers, each an IP address (PodSpec validation); not an IP address: "dns.internal"',
    );
    expect(e.problems.find((p) => p.field === "values.dnsConfig.nameserver")!.message).toContain(
      "did you mean nameservers?",
    );
    const many = Array.from({ length: 33 }, (_, i) => `d${i}.local`);
    expect(
      rejected(() => karpenter({ dnsPolicy: "None", values: { dnsConfig: { ...DNS_CONFIG, searches: many } } })).field,
    ).toBe("values.dnsConfig.searches");
  });
  test("look-alikes: searches with underscores or a lone dot, options with names, no nameservers under ClusterFirst", () => {
    const dnsConfig = {
      ...DNS_CONFIG,
      // a label over 63 characters: the API server's pattern sets no length per label, only 253 in all
      searches: ["svc.cluster.local", "my_corp.local", ".", `${"a".repeat(64)}.com`],
      options: [{ name: "ndots", value: "2" }, { name: "edns0" }],
    };
    expect(() => karpenter({ dnsPolicy: "None", values: { dnsConfig } })).not.toThrow();
    expect(() =>
      karpenter({ dnsPolicy: "ClusterFirst", values: { dnsConfig: { options: [{ name: "ndots", value: "1" }] } } }),
    ).not.toThrow();
  });
  test.each([
    ["an upper-case search domain", { searches: ["Example.COM"] }, "values.dnsConfig.searches"],
    ["a search domain over 253 characters", { searches: [`${"a".repeat(250)}.com`] }, "values.dnsConfig.searches"],
    ["an option value that is no string", { options: [{ name: "ndots", value: 2 }] }, "values.dnsConfig.options[0]"],
    [
      "an option with an unknown key",
      { options: [{ name: "ndots", value: "2", extra: 1 }] },
      "values.dnsConfig.options[0]",
    ],
  ])("%s is refused as Kubernetes does", (_what, extra, field) => {
    const e = rejected(() => karpenter({ dnsPolicy: "None", values: { dnsConfig: { ...DNS_CONFIG, ...extra } } }));
    expect(e.problems.map((p) => p.field)).toEqual([field]);
  });
  test("a list token (Fn.split) of nameservers is left to the API server", () => {
    const { Fn } = require("cdktf");
    expect(() =>
      karpenter({ dnsPolicy: "None", values: { dnsConfig: { nameservers: Fn.split(",", "10.0.0.2,10.0.0.3") } } }),
    ).not.toThrow();
  });
  test("a nameserver that is a token is left to the API server", () => {
    const { Fn } = require("cdktf");
    expect(() =>
      karpenter({ dnsPolicy: "None", values: { dnsConfig: { nameservers: [Fn.cidrhost("10.0.0.0/16", 2)] } } }),
    ).not.toThrow();
  });
  test("look-alikes pass: None with a dnsConfig in values, and the other policies without one", () => {
    expect(() => karpenter({ dnsPolicy: "None", values: { dnsConfig: DNS_CONFIG } })).not.toThrow();
    expect(() => karpenter({ values: { dnsPolicy: "None", dnsConfig: DNS_CONFIG } })).not.toThrow();
    expect(() => release({ dnsPolicy: "None", values: { dnsConfig: DNS_CONFIG } })).not.toThrow();
    expect(() => karpenter({ dnsPolicy: "ClusterFirst", replicas: 1 })).not.toThrow();
    // values.dnsPolicy wins over the typed prop: None there is overridden
    expect(() => karpenter({ dnsPolicy: "None", values: { dnsPolicy: "Default" } })).not.toThrow();
  });
});

describe("NodePool, the node objects and KarpenterRelease: an unusable prop no longer hides the others (issue 31, item 6)", () => {
  const pool = (props: object) => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
    return new NodePool(stack, "pool", { karpenter, ...(props as NodePoolProps) });
  };
  test.each([
    ["a missing nodeClass", { weight: 1000 }],
    ["a nodeClass that is no object", { nodeClass: "default", weight: 1000 }],
  ])("%s is named beside a bad weight", (_what, props) => {
    expect(fields(() => pool(props))).toEqual(["nodeClass", "weight"]);
  });
  test("look-alike: a reference object with a valid weight passes", () => {
    expect(() => pool({ nodeClass: { name: "default" }, weight: 100 })).not.toThrow();
  });
  test.each([
    ["NodePool", (dependsOn: unknown) => pool({ nodeClass: { name: "default" }, weight: 1000, dependsOn })],
    [
      "NodeOverlay",
      (dependsOn: unknown) => {
        const { stack } = testStack();
        const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
        return new NodeOverlay(stack, "o", { karpenter, requirements: [], weight: 0, dependsOn } as never);
      },
    ],
  ])(
    "%s: a dependsOn that is no list of resources is an error beside the others (it crashed: {} is not iterable)",
    (_k, make) => {
      for (const bad of [{}, "x", [5]]) expect(fields(() => make(bad))).toEqual(["dependsOn", "weight"]);
    },
  );
  test("look-alike: dependsOn with a resource of the stack passes", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
    expect(
      () => new NodePool(stack, "pool", { karpenter, nodeClass: { name: "default" }, dependsOn: [karpenter.release] }),
    ).not.toThrow();
  });
  test("Ec2NodeClass: a discoveryTagKey that is no string is named beside the other problems", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
    const e = rejected(
      () =>
        new Ec2NodeClass(stack, "c", {
          karpenter,
          amiSelectorTerms: [{ alias: "al2023@latest" }],
          discoveryTagKey: 5 as never,
          tags: { "aws:x": "y" },
        }),
    );
    expect(e.problems.map((p) => p.field).sort()).toEqual(["discoveryTagKey", 'tags["aws:x"]']);
  });
  test("KarpenterRelease: a bad setting no longer hides a bad values.replicas", () => {
    expect(fields(() => release({ settings: { batchMaxDuration: "x" } as never, values: { replicas: -1 } }))).toEqual([
      "settings.batchMaxDuration",
      "values.replicas",
    ]);
    expect(() => release({ settings: { batchMaxDuration: "10s" }, values: { replicas: 2 } })).not.toThrow();
  });
});

describe("a setting conflict is reported beside a bad setting (fresh8 X1/X6)", () => {
  const conflict = { legacyNodeRepair: true, featureGates: { nodeRepair: true, terminateFirstRepair: true } };
  const codes = (fn: () => unknown) =>
    rejected(fn)
      .problems.map((p) => [p.field, p.code])
      .sort();
  const both = [
    ["settings.amiRefreshInterval", "HELM_VALUES_SETTING"],
    ["settings.legacyNodeRepair", "HELM_VALUES_FEATURE_GATE_CONFLICT"],
  ];
  test("Karpenter: legacyNodeRepair + terminateFirstRepair and amiRefreshInterval 30s, both in one error", () => {
    expect(codes(() => karpenter({ settings: { ...conflict, amiRefreshInterval: "30s" } }))).toEqual(both);
    // the look-alike: a valid interval leaves the conflict alone
    expect(codes(() => karpenter({ settings: { ...conflict, amiRefreshInterval: "1m" } }))).toEqual([both[1]]);
  });
  test("KarpenterRelease: the same two, and the conflict beside bad controller resources", () => {
    expect(codes(() => release({ settings: { ...conflict, amiRefreshInterval: "30s" } }))).toEqual(both);
    expect(codes(() => release({ settings: conflict, controllerResources: { requests: { cpu: "lots" } } }))).toEqual([
      ["controllerResources.requests.cpu", "HELM_VALUES_RESOURCES"],
      both[1],
    ]);
  });
  test("a bad value is not also read as a conflict: nothing is reported twice", () => {
    const settings = { legacyNodeRepair: "yes", featureGates: { nodeRepair: true, terminateFirstRepair: true } };
    for (const make of [karpenter, release])
      expect(codes(() => make({ settings: settings as never }))).toEqual([
        ["settings.legacyNodeRepair", "HELM_VALUES_SETTING"],
      ]);
  });
  test("a conflict between values.settings and a typed setting is still named beside a bad setting", () => {
    const props = {
      settings: { featureGates: { nodeRepair: true, terminateFirstRepair: true }, amiRefreshInterval: "30s" },
      values: { settings: { legacyNodeRepair: true } },
    };
    for (const make of [karpenter, release])
      expect(codes(() => make(props))).toEqual([
        ["settings.amiRefreshInterval", "HELM_VALUES_SETTING"],
        ["values.settings.legacyNodeRepair", "HELM_VALUES_FEATURE_GATE_CONFLICT"],
      ]);
  });
});
