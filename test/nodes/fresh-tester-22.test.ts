import { synthWarnings } from "../helpers";
import { Fn } from "cdktf";
import { build, rejection, req } from "./node-props";

/*
 * Issue 31, fresh tester 22: a requirement that repeats values below its minValues (S-1: Karpenter keeps a set, a
 * warning since minValuesPolicy decides), an alias whose family is literal beside a token version (S-2), and the
 * message of a domain that merely ends in karpenter.sh (CF-2).
 */

const warningsOf = (props: Record<string, unknown>, version = "1.15.0") =>
  synthWarnings(build("NodePool", props as never, version));

describe("minValues above the distinct values of a requirement (S-1)", () => {
  test("repeated values leave fewer distinct values than minValues: a warning naming both policies", () => {
    const w = warningsOf({ requirements: [req("karpenter.k8s.aws/instance-family", "In", ["m5", "m5"], 2)] });
    const one = w.find((x) => x.includes("requirements[0].minValues = 2 with 1 distinct value"));
    expect(one).toContain("pkg/scheduling/requirement.go:69-73");
    expect(one).toContain("under BestEffort Karpenter relaxes it");
  });
  test("look-alikes: two distinct values, or minValues 1, give no such warning", () => {
    for (const r of [
      req("karpenter.k8s.aws/instance-family", "In", ["m5", "c5"], 2),
      req("karpenter.k8s.aws/instance-family", "In", ["m5", "m5"], 1),
    ])
      expect(warningsOf({ requirements: [r] }).join("\n")).not.toContain("distinct value");
  });
});

describe("an alias with a literal family and a token version (S-2)", () => {
  test("an unknown family is refused, the version left to apply", () => {
    const e = rejection(
      "EC2NodeClass",
      { amiSelectorTerms: [{ alias: "al2024@" + Fn.join("", ["latest"]) }] } as never,
      "1.15.0",
    );
    const p = (e.problems ?? [e]).find((x) => x.field === "amiSelectorTerms[0].alias");
    expect(p?.code).toBe("EC2NODECLASS_AMI_ALIAS");
    expect(p?.message).toContain("an alias whose family is one of");
  });
  test("look-alike: a known family with a token version passes", () => {
    expect(() =>
      build("EC2NodeClass", { amiSelectorTerms: [{ alias: "al2023@" + Fn.join("", ["latest"]) }] } as never, "1.15.0"),
    ).not.toThrow();
  });
});

describe("a label domain that only ends in karpenter.sh (CF-2)", () => {
  test.each([
    ["fookarpenter.sh/x", 'label domain "fookarpenter.sh", which ends in "karpenter.sh"'],
    ["fookarpenter.k8s.aws/x", 'label domain "fookarpenter.k8s.aws", which ends in "karpenter.k8s.aws"'],
    ["karpenter.sh/foo", 'label domain "karpenter.sh" is restricted'],
  ])("%s names the domain as written", (key, text) => {
    const e = rejection("NodePool", { requirements: [req(key, "Exists")] } as never, "1.15.0");
    expect((e.problems ?? [e]).map((p) => p.message).join("\n")).toContain(text);
  });
});

/*
 * fresh tester 23: Karpenter's own taints in a NodePool (S-2), a NodeConfig as AL2 user data (S-3), a NodeConfig value
 * Karpenter's own part replaces (S-1: a warning, the value never reaches the kubelet), a boxed string (CF-1).
 */
describe("Karpenter's own taints in a NodePool (fresh tester 23, S-2)", () => {
  test.each([
    ["taints", "karpenter.sh/disrupted"],
    ["startupTaints", "karpenter.sh/disrupted"],
    ["taints", "karpenter.sh/unregistered"],
    ["startupTaints", "karpenter.sh/rebooting"],
  ])("%s with %s is refused", (field, key) => {
    const e = rejection("NodePool", { [field]: [{ key, effect: "NoSchedule" }] } as never, "1.15.0");
    const p = (e.problems ?? [e]).find((x) => x.field === `${field}[0].key`);
    expect(p?.code).toBe("NODEPOOL_TAINT");
    expect(p?.message).toContain("is Karpenter's own taint");
    expect(p?.message).toContain("pkg/apis/v1/taints.go");
  });
  test("look-alikes: a taint of your own in karpenter.sh's neighbourhood passes", () => {
    expect(() =>
      build("NodePool", { taints: [{ key: "example.com/disrupted", effect: "NoSchedule" }] } as never, "1.15.0"),
    ).not.toThrow();
  });
});

describe("a NodeConfig as AL2 user data (fresh tester 23, S-3)", () => {
  const nodeConfig =
    "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 110\n";
  test("is refused: AL2 has no nodeadm", () => {
    const e = rejection(
      "EC2NodeClass",
      { amiSelectorTerms: [{ alias: "al2@latest" }], userData: nodeConfig } as never,
      "1.14.1",
    );
    const p = (e.problems ?? [e]).find((x) => x.field === "userData");
    expect(p?.code).toBe("EC2NODECLASS_USER_DATA");
    expect(p?.message).toContain("user data for the AL2 AMI family is a NodeConfig");
  });
  test("look-alikes: a shell script on AL2, the NodeConfig on AL2023", () => {
    expect(() =>
      build(
        "EC2NodeClass",
        { amiSelectorTerms: [{ alias: "al2@latest" }], userData: "#!/bin/bash\necho hi\n" } as never,
        "1.14.1",
      ),
    ).not.toThrow();
    expect(() =>
      build(
        "EC2NodeClass",
        { amiSelectorTerms: [{ alias: "al2023@latest" }], userData: nodeConfig } as never,
        "1.15.0",
      ),
    ).not.toThrow();
  });
});

describe("a NodeConfig kubelet value Karpenter's part replaces (fresh tester 23, S-1)", () => {
  test("maxPods in the NodeConfig warns that it never reaches the kubelet", () => {
    const stack = build(
      "EC2NodeClass",
      {
        amiSelectorTerms: [{ alias: "al2023@latest" }],
        userData:
          'apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: "110"\n',
      } as never,
      "1.15.0",
    );
    const warnings = synthWarnings(stack);
    expect(warnings.join("\n")).toContain("spec.kubelet.config.maxPods is replaced by Karpenter's own NodeConfig part");
  });
});

describe("a boxed string names what to pass (fresh tester 23, CF-1)", () => {
  test('new String("WhenEmpty") says to pass the plain string', () => {
    const e = rejection(
      "NodePool",
      { disruption: { consolidationPolicy: new String("WhenEmpty") } } as never,
      "1.15.0",
    );
    expect((e.problems ?? [e]).map((p) => p.message).join("\n")).toContain(
      'a String object holding "WhenEmpty" (pass the plain string "WhenEmpty"',
    );
  });
});

/* fresh tester 24 S-8, S-9: another family's user data format: none of its settings reach the node. */
describe("user data of another AMI family's format (fresh tester 24)", () => {
  const toml = "[settings.kubernetes]\nmax-pods = 110\n";
  const nodeConfig =
    "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 110\n";
  test.each<[string, string, string, string]>([
    ["Bottlerocket TOML on AL2023", "al2023@latest", toml, "is Bottlerocket's TOML settings"],
    ["Bottlerocket TOML on AL2", "al2@latest", toml, "is Bottlerocket's TOML settings"],
    ["Bottlerocket TOML on Windows", "windows2022@latest", toml, "<powershell> block"],
    ["a NodeConfig on Windows", "windows2022@latest", nodeConfig, "is a NodeConfig, which only AL2023's nodeadm reads"],
  ])("%s is refused", (_what, alias, userData, text) => {
    const e = rejection("EC2NodeClass", { amiSelectorTerms: [{ alias }], userData } as never, "1.14.1");
    const p = (e.problems ?? [e]).find((x) => x.field === "userData");
    expect(p?.code).toBe("EC2NODECLASS_USER_DATA");
    expect(p?.message).toContain(text);
  });
  test("look-alikes: TOML on Bottlerocket, PowerShell on Windows", () => {
    expect(() =>
      build(
        "EC2NodeClass",
        { amiSelectorTerms: [{ alias: "bottlerocket@latest" }], userData: toml } as never,
        "1.14.1",
      ),
    ).not.toThrow();
    expect(() =>
      build(
        "EC2NodeClass",
        { amiSelectorTerms: [{ alias: "windows2022@latest" }], userData: 'Write-Host "hello"\n' } as never,
        "1.14.1",
      ),
    ).not.toThrow();
  });
});

/* fresh tester 24 S-1, S-3, S-4: a NodeConfig's eviction thresholds and reservations the kubelet cannot parse at start. */
describe("a NodeConfig's eviction and reservations the kubelet refuses (fresh tester 24)", () => {
  const nc = (config: string) =>
    `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n${config}`;
  test.each<[string, string, string]>([
    [
      "a misspelt eviction signal",
      '      evictionHard:\n        memory.availble: "100Mi"\n',
      "unsupported eviction signal",
    ],
    [
      "a soft threshold without a grace period",
      '      evictionSoft:\n        memory.available: "10%"\n',
      "grace period must be specified",
    ],
    ["a reservation that is no quantity", "      kubeReserved:\n        memory: lots\n", "failed to parse quantity"],
    ["a resource the kubelet cannot reserve", '      systemReserved:\n        nvidia.com/gpu: "1"\n', "cannot reserve"],
    ["a zero hard threshold", '      evictionHard:\n        nodefs.available: "0"\n', "must be positive"],
  ])("%s is refused on userData", (_what, config, text) => {
    for (const version of ["1.14.1", "1.15.0"]) {
      const e = rejection(
        "EC2NodeClass",
        { amiSelectorTerms: [{ alias: "al2023@latest" }], userData: nc(config) } as never,
        version,
      );
      const p = (e.problems ?? [e]).find((x) => x.field === "userData");
      expect(p?.code).toBe("EC2NODECLASS_USER_DATA");
      expect(p?.message).toContain(text);
    }
  });
  test("look-alikes: known signals with grace periods, quantities", () => {
    expect(() =>
      build(
        "EC2NodeClass",
        {
          amiSelectorTerms: [{ alias: "al2023@latest" }],
          userData: nc(
            '      evictionHard:\n        memory.available: "100Mi"\n        allocatableMemory.available: "5%"\n      evictionSoft:\n        memory.available: "10%"\n      evictionSoftGracePeriod:\n        memory.available: "1m30s"\n      kubeReserved:\n        memory: 1Gi\n        pid: "100"\n',
          ),
        } as never,
        "1.15.0",
      ),
    ).not.toThrow();
  });
});

/* fresh tester 24 S-2, S-5, S-6: the meaning of the kubelet's map flags in a NodeConfig. */
describe("a NodeConfig's kubelet flags the kubelet refuses by meaning (fresh tester 24)", () => {
  const flags = (f: string) =>
    `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    flags:\n      - "${f}"\n`;
  test.each<[string, string]>([
    ["--eviction-hard=memory.availble<100Mi", "unsupported eviction signal"],
    ["--kube-reserved=memory=lots", "failed to parse quantity"],
    ["--system-reserved=gpu=1", "cannot reserve"],
    ["--feature-gates=NotAGate=true", "unrecognized feature gate: NotAGate"],
  ])("%s is refused", (flag, text) => {
    const e = rejection(
      "EC2NodeClass",
      { amiSelectorTerms: [{ alias: "al2023@latest" }], userData: flags(flag) } as never,
      "1.15.0",
    );
    const p = (e.problems ?? [e]).find((x) => x.field === "userData");
    expect(p?.code).toBe("EC2NODECLASS_USER_DATA");
    expect(p?.message).toContain(text);
  });
  test.each([
    "--eviction-hard=memory.available<100Mi",
    "--kube-reserved=memory=1Gi,cpu=100m",
    "--feature-gates=NodeSwap=true",
    // a soft threshold with its grace period (alone, the kubelet refuses it: fresh tester 27 F06)
    "--eviction-soft=memory.available<10% --eviction-soft-grace-period=memory.available=1m30s",
  ])("look-alike %s passes", (flag) => {
    expect(() =>
      build(
        "EC2NodeClass",
        { amiSelectorTerms: [{ alias: "al2023@latest" }], userData: flags(flag) } as never,
        "1.15.0",
      ),
    ).not.toThrow();
  });
});

/* fresh tester 24 S-7: a NodeConfig in a MIME part of another type. */
describe("a NodeConfig in a shell script part of AL2023 MIME user data (fresh tester 24, S-7)", () => {
  const mime = (type: string) =>
    `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: ${type}\n\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 110\n\n--B--\n`;
  test("is refused", () => {
    const e = rejection(
      "EC2NodeClass",
      {
        amiSelectorTerms: [{ alias: "al2023@latest" }],
        userData: mime('text/x-shellscript; charset="us-ascii"'),
      } as never,
      "1.15.0",
    );
    const p = (e.problems ?? [e]).find((x) => x.field === "userData");
    expect(p?.code).toBe("EC2NODECLASS_USER_DATA");
    expect(p?.message).toContain("nodeadm reads NodeConfigs only from application/node.eks.aws parts");
  });
  test("look-alike: the same NodeConfig in an application/node.eks.aws part passes", () => {
    expect(() =>
      build(
        "EC2NodeClass",
        { amiSelectorTerms: [{ alias: "al2023@latest" }], userData: mime("application/node.eks.aws") } as never,
        "1.15.0",
      ),
    ).not.toThrow();
  });
});

/* fresh tester 24 S-10..S-13: Bottlerocket settings the kubelet refuses or drops. */
describe("Bottlerocket settings rendered into the kubelet's configuration (fresh tester 24)", () => {
  const br = (toml: string, kubelet?: Record<string, unknown>) =>
    ({
      amiSelectorTerms: [{ alias: "bottlerocket@latest" }],
      userData: toml,
      ...(kubelet ? { kubelet } : {}),
    }) as never;
  test.each<[string, string, string]>([
    ["cpu-manager-policy Static", '[settings.kubernetes]\ncpu-manager-policy = "Static"\n', "cpuManagerPolicy"],
    [
      "topology-manager-policy best_effort",
      '[settings.kubernetes]\ntopology-manager-policy = "best_effort"\n',
      "topologyManagerPolicy",
    ],
    ["kube-reserved memory lots", '[settings.kubernetes.kube-reserved]\nmemory = "lots"\n', "kubeReserved"],
    ["cluster-dns-ip with a port", '[settings.kubernetes]\ncluster-dns-ip = "10.100.0.10:53"\n', "clusterDNS"],
  ])("%s is refused", (_what, toml, field) => {
    const e = rejection("EC2NodeClass", br(toml), "1.15.0");
    const p = (e.problems ?? [e]).find((x) => x.field === "userData");
    expect(p?.code).toBe("EC2NODECLASS_USER_DATA");
    expect(p?.message).toContain(`Bottlerocket passes it on as the kubelet's ${field}`);
  });
  test("look-alikes: valid values, and a kube-reserved the class's kubelet replaces", () => {
    for (const toml of [
      '[settings.kubernetes]\ncpu-manager-policy = "static"\ntopology-manager-policy = "best-effort"\ncluster-dns-ip = "10.100.0.10"\n',
      '[settings.kubernetes.kube-reserved]\nmemory = "1Gi"\n',
    ])
      expect(() => build("EC2NodeClass", br(toml), "1.15.0")).not.toThrow();
    expect(() =>
      build(
        "EC2NodeClass",
        br('[settings.kubernetes.kube-reserved]\nmemory = "lots"\n', { kubeReserved: { memory: "1Gi" } }),
        "1.15.0",
      ),
    ).not.toThrow();
  });
});

describe("Bottlerocket settings Karpenter writes itself (fresh tester 24, S-14)", () => {
  test("cluster-name in the user data warns that it is replaced", () => {
    const stack = build(
      "EC2NodeClass",
      {
        amiSelectorTerms: [{ alias: "bottlerocket@latest" }],
        userData: '[settings.kubernetes]\ncluster-name = "other"\n',
      } as never,
      "1.15.0",
    );
    const warnings = synthWarnings(stack);
    expect(warnings.join("\n")).toContain("settings.kubernetes.cluster-name is replaced");
  });
});
