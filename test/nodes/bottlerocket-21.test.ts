import { build, rejection } from "./node-props";

/*
 * Bottlerocket TOML user data (fresh tester 21 S-7, S-8; lib/nodes/user-data-rules.ts). S-7: the eviction maps of
 * [settings.kubernetes], which Karpenter types as map[string]string and passes on, are held to Bottlerocket's settings
 * model (bottlerocket-settings-sdk modeled-types KubernetesEvictionKey / KubernetesThresholdValue) and then to the
 * kubelet's own parse (k8s.io/kubernetes v1.36.3 pkg/kubelet/eviction/helpers.go), the same kubeletEvictionRefusal the
 * class's kubelet.evictionHard uses. S-8: a key Karpenter's struct lacks is dropped (bottlerocketsettings.go
 * UnmarshalTOML / MarshalTOML): a synth warning with a "did you mean".
 */

const br = (userData: string, extra: Record<string, unknown> = {}) => ({
  amiSelectorTerms: [{ alias: "bottlerocket@latest" }],
  userData,
  ...extra,
});

function warnings(props: Record<string, unknown>, version?: string): string[] {
  return build("EC2NodeClass", props, version)
    .node.findAll()
    .flatMap((c) => c.node.metadata)
    .filter((m) => m.type === "@cdktf/warn")
    .map((m) => String(m.data))
    .filter((w) => w.includes("userData"));
}

describe("S-7: eviction settings in Bottlerocket user data", () => {
  test.each([
    [
      "a percentage above 100",
      '[settings.kubernetes.eviction-hard]\n"memory.available" = "150%"\n',
      'settings.kubernetes.eviction-hard."memory.available" as a percentage from 0 up to, not including, 100 such as "10%" (Bottlerocket\'s KubernetesThresholdValue), got "150%"',
    ],
    [
      "a negative percentage",
      '[settings.kubernetes.eviction-soft]\n"nodefs.available" = "-5%"\n',
      'settings.kubernetes.eviction-soft."nodefs.available" as a percentage from 0 up to, not including, 100',
    ],
    [
      "an unknown signal",
      '[settings.kubernetes.eviction-hard]\n"memory.availble" = "10%"\n',
      "did you mean memory.available?",
    ],
    [
      "a signal the kubelet knows but Bottlerocket does not",
      '[settings.kubernetes.eviction-hard]\n"allocatableMemory.available" = "10%"\n',
      "a key that is one of Bottlerocket's eviction signals",
    ],
    [
      "a threshold that is no quantity",
      '[settings.kubernetes.eviction-hard]\n"memory.available" = "lots"\n',
      'a percentage such as "10%" or a Kubernetes quantity such as "100Mi" (Bottlerocket\'s KubernetesThresholdValue), got "lots"',
    ],
    [
      "a grace period that is no duration",
      '[settings.kubernetes.eviction-soft-grace-period]\n"memory.available" = "-1m"\n',
      "Bottlerocket's KubernetesDurationValue",
    ],
  ])("Bottlerocket's settings model refuses %s", (_what, userData, part) => {
    const e = rejection("EC2NodeClass", br(userData), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.field).toBe("userData");
    expect(e.value).toBe(`line 2: ${userData.split("\n")[1]}`);
    expect(e.message).toContain(part);
    expect(e.message).toContain("Bottlerocket itself refuses the settings at boot");
    expect(e.message).toContain(
      "bottlerocket-settings-sdk@25e4241f bottlerocket-settings-models/modeled-types/src/kubernetes.rs",
    );
  });

  test.each([
    ['"0"', "eviction threshold memory.available must be positive: 0", "helpers.go:414-415"],
    ['"-100Mi"', "eviction threshold memory.available must be positive: -100Mi", "helpers.go:414-415"],
    ['"1.2.3"', "quantities must match the regular expression", "helpers.go:410-413"],
  ])("the kubelet refuses %s, which Bottlerocket's model takes", (value, error, where) => {
    const userData = `[settings.kubernetes]\nmax-pods = 110\n[settings.kubernetes.eviction-hard]\n"memory.available" = ${value}\n`;
    const e = rejection("EC2NodeClass", br(userData), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.field).toBe("userData");
    expect(e.value).toBe(`line 4: "memory.available" = ${value}`);
    expect(e.message).toContain(`settings.kubernetes.eviction-hard."memory.available" as a threshold above 0`);
    expect(e.message).toContain(`the kubelet refuses it when it starts ("${error}`);
    expect(e.message).toContain(`k8s.io/kubernetes v1.36.3 pkg/kubelet/eviction/${where}`);
  });

  test("the same value in the class's kubelet.evictionHard is refused too (one shared kubelet rule)", () => {
    const e = rejection(
      "EC2NodeClass",
      { amiSelectorTerms: [{ alias: "bottlerocket@latest" }], kubelet: { evictionHard: { "memory.available": "0" } } },
      "1.15.0",
    );
    expect(e.code).toBe("EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET");
  });

  test("look-alikes pass: 10%, 0%, 100Mi, a grace period, and a table the class's kubelet replaces", () => {
    for (const u of [
      '[settings.kubernetes.eviction-hard]\n"memory.available" = "10%"\n"nodefs.available" = "0%"\n"imagefs.available" = "100Mi"\n',
      '[settings.kubernetes.eviction-soft]\n"memory.available" = "500Mi"\n[settings.kubernetes.eviction-soft-grace-period]\n"memory.available" = "1m30s"\n',
    ])
      expect(() => build("EC2NodeClass", br(u), "1.15.0")).not.toThrow();
    // Karpenter writes the class's evictionHard over the user data's (bottlerocket.go:68-70): it never reaches the node
    expect(() =>
      build(
        "EC2NodeClass",
        br('[settings.kubernetes.eviction-hard]\n"memory.available" = "0"\n', {
          kubelet: { evictionHard: { "memory.available": "100Mi" } },
        }),
        "1.15.0",
      ),
    ).not.toThrow();
  });
});

describe("S-8: keys Karpenter's struct lacks are dropped: a warning", () => {
  test.each(["1.14.1", "1.15.0"])("maxpods under [settings.kubernetes] warns with a did-you-mean on %s", (version) => {
    const w = warnings(br("[settings.kubernetes]\nmaxpods = 110\n"), version);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain(
      `userData: line 2: settings.kubernetes.maxpods is not a key of Karpenter ${version.slice(0, 4)}'s BottlerocketKubernetes struct`,
    );
    expect(w[0]).toContain('Karpenter logs "Unknown parameter in userData K8s settings" (UnmarshalTOML:');
    expect(w[0]).toContain("bottlerocketsettings.go");
    expect(w[0]).toContain("Did you mean max-pods?");
    expect(w[0]).toContain(version === "1.15.0" ? "UnmarshalTOML:159-175" : "UnmarshalTOML:151-167");
  });

  test("nested struct keys and bootstrap commands too; eviction-minimum-reclaim is no Karpenter setting", () => {
    const w = warnings(
      br(
        '[settings.kubernetes.eviction-minimum-reclaim]\n"memory.available" = "5%"\n[settings.bootstrap-commands.setup]\ncommands = [["apiclient", "set", "motd=hi"]]\nmode = "once"\nessental = true\n',
      ),
      "1.15.0",
    );
    expect(w).toHaveLength(2);
    const reclaim = w.find((x) => x.includes("settings.kubernetes.eviction-minimum-reclaim is not a key"));
    expect(reclaim).toContain("line 1:");
    const command = w.find((x) => x.includes("settings.bootstrap-commands.setup.essental is not a key"));
    expect(command).toContain("Karpenter 1.15's BootstrapCommand struct");
    expect(command).toContain("Did you mean essential?");
  });

  test("look-alikes: a key of the struct, a folded key, settings Bottlerocket reads itself", () => {
    expect(
      warnings(
        br(
          '[settings.kubernetes]\nimage-gc-high-threshold-percent = "85"\nImage-GC-Low-Threshold-Percent = "80"\n[settings.host-containers.admin]\nenabled = true\n[settings.kernel.sysctl]\n"net.core.somaxconn" = "1024"\n',
        ),
        "1.15.0",
      ),
    ).toEqual([]);
  });
});
