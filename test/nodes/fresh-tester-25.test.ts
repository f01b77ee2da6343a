import { synthWarnings } from "../helpers";
import { build, rejection } from "./node-props";

/*
 * Fresh tester 25: one set of kubelet value rules (kubelet-runtime-rules.ts kubeletValueProblems) for every path into
 * the kubelet: the class's own kubelet (AL2023, Karpenter 1.15's free-form kubelet), an AL2023 NodeConfig's
 * spec.kubelet.config, and the Bottlerocket settings Bottlerocket renders into the kubelet's configuration.
 */

const al2023 = (kubelet: Record<string, unknown>) => ({ amiSelectorTerms: [{ alias: "al2023@latest" }], kubelet });
const nodeConfig = (config: string) => ({
  amiSelectorTerms: [{ alias: "al2023@latest" }],
  userData: `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n${config
    .split("\n")
    .map((l) => `      ${l}`)
    .join("\n")}\n`,
});
const br = (settings: string, kubelet?: Record<string, unknown>) => ({
  amiSelectorTerms: [{ alias: "bottlerocket@latest" }],
  userData: `[settings.kubernetes]\n${settings}\n`,
  ...(kubelet ? { kubelet } : {}),
});

/** A class whose user data is a NodeConfig with `spec.containerd.config` holding `toml`. */
const containerd = (toml: string) => ({
  amiSelectorTerms: [{ alias: "al2023@latest" }],
  userData: `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  containerd:\n    config: |\n${toml
    .split("\n")
    .map((l) => `      ${l}`)
    .join("\n")}\n`,
});

function warnings(props: Record<string, unknown>): string[] {
  return synthWarnings(build("EC2NodeClass", props, "1.15.0"));
}

describe("allowedUnsafeSysctls: the kubelet allows only sysctls known to be namespaced (S-k9, S-n3, S-b3)", () => {
  test.each([
    ["kernel.foo", 'the sysctls \\"kernel.foo\\" are not known to be namespaced'],
    ["net*", 'the sysctls \\"net\\" are not known to be namespaced'],
    ["vm.swappiness", "not known to be namespaced"],
    ["Kernel.sem", "the sysctl pattern"],
    ["net.*.foo", "the sysctl pattern"],
  ])("the class's kubelet: %s is refused", (sysctl, words) => {
    const e = rejection("EC2NodeClass", al2023({ allowedUnsafeSysctls: ["net.core.somaxconn", sysctl] }), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET");
    expect(e.field).toBe("kubelet.allowedUnsafeSysctls[1]");
    expect(e.value).toBe(sysctl);
    expect(JSON.stringify(e.message)).toContain(words);
    expect(e.message).toContain("pkg/kubelet/sysctl/allowlist.go:44-68");
  });

  test("look-alikes pass: namespaced names, patterns and a /-separated name", () => {
    const ok = [
      "net.core.somaxconn",
      "net.*",
      "kernel.shm*",
      "kernel.msg*",
      "kernel.sem",
      "fs.mqueue.*",
      "net/ipv4/ip_forward",
    ];
    expect(() => build("EC2NodeClass", al2023({ allowedUnsafeSysctls: ok }), "1.15.0")).not.toThrow();
    expect(() =>
      build("EC2NodeClass", nodeConfig(`allowedUnsafeSysctls: ["net.core.somaxconn"]`), "1.15.0"),
    ).not.toThrow();
    expect(() => build("EC2NodeClass", br(`allowed-unsafe-sysctls = ["kernel.shm*"]`), "1.15.0")).not.toThrow();
  });

  test("in a NodeConfig and in Bottlerocket settings", () => {
    const n = rejection("EC2NodeClass", nodeConfig(`allowedUnsafeSysctls: ["kernel.foo"]`), "1.15.0");
    expect(n.code).toBe("EC2NODECLASS_USER_DATA");
    expect(n.message).toContain("spec.kubelet.config.allowedUnsafeSysctls[0]");
    expect(n.message).toContain("not known to be namespaced");
    const b = rejection("EC2NodeClass", br(`allowed-unsafe-sysctls = ["kernel.foo"]`), "1.15.0");
    expect(b.code).toBe("EC2NODECLASS_USER_DATA");
    expect(b.value).toBe('line 2: allowed-unsafe-sysctls = ["kernel.foo"]');
    expect(b.message).toContain("settings.kubernetes.allowed-unsafe-sysctls as a namespaced sysctl");
    expect(b.message).toContain("allowlist.go:44-68");
  });
});

describe("nodeLeaseDurationSeconds: 0 is defaulted to 40, a negative one is refused (S-k3, S-n13 checked)", () => {
  test("0 passes in the class and a NodeConfig (v1beta1/defaults.go:151-152 defaults it before validation)", () => {
    expect(() => build("EC2NodeClass", al2023({ nodeLeaseDurationSeconds: 0 }), "1.15.0")).not.toThrow();
    expect(() => build("EC2NodeClass", nodeConfig("nodeLeaseDurationSeconds: 0"), "1.15.0")).not.toThrow();
  });
  test("-1 is refused in both", () => {
    expect(rejection("EC2NodeClass", al2023({ nodeLeaseDurationSeconds: -1 }), "1.15.0").field).toBe(
      "kubelet.nodeLeaseDurationSeconds",
    );
    expect(rejection("EC2NodeClass", nodeConfig("nodeLeaseDurationSeconds: -1"), "1.15.0").message).toContain(
      "spec.kubelet.config.nodeLeaseDurationSeconds",
    );
  });
});

describe("the class's typed rules reach a NodeConfig (S-n2, S-n4)", () => {
  test("a clusterDNS entry that is no IP: the kubelet drops it (not a refusal at start)", () => {
    const e = rejection("EC2NodeClass", nodeConfig("clusterDNS: [not-an-ip]"), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain('spec.kubelet.config.clusterDNS[0] = "not-an-ip"');
    expect(e.message).toContain('"Invalid clusterDNS IP"');
    expect(e.message).toContain("pkg/kubelet/kubelet.go:579-584");
    expect(e.message).not.toContain("the kubelet does not start");
  });
  test("an IPv4 address with leading zeros is an IP to the kubelet (ParseIPSloppy), in the class and a NodeConfig", () => {
    expect(() => build("EC2NodeClass", nodeConfig('clusterDNS: ["010.100.0.10"]'), "1.15.0")).not.toThrow();
    expect(() => build("EC2NodeClass", al2023({ clusterDNS: ["010.100.0.10"] }), "1.15.0")).not.toThrow();
  });
  test.each([
    ["imageGCHighThresholdPercent: 101", "imageGCHighThresholdPercent", "validation.go:87"],
    ["imageGCLowThresholdPercent: -1", "imageGCLowThresholdPercent", "validation.go:90"],
    [
      "imageGCHighThresholdPercent: 70\nimageGCLowThresholdPercent: 70",
      "imageGCLowThresholdPercent",
      "validation.go:93",
    ],
    ["imageGCLowThresholdPercent: 90", "imageGCLowThresholdPercent", "defaults.go:157-162"],
  ])("image GC thresholds: %s", (config, field, source) => {
    const e = rejection("EC2NodeClass", nodeConfig(config), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain(`spec.kubelet.config.${field}`);
    expect(e.message).toContain(source);
  });
  test("look-alike: both thresholds in range and ordered", () => {
    expect(() =>
      build("EC2NodeClass", nodeConfig("imageGCHighThresholdPercent: 90\nimageGCLowThresholdPercent: 70"), "1.15.0"),
    ).not.toThrow();
  });
  test("the class's own imageGCHighThresholdPercent 101 is one problem, in the class's words", () => {
    const e = rejection(
      "EC2NodeClass",
      al2023({ imageGCHighThresholdPercent: 101, imageGCLowThresholdPercent: 50 }),
      "1.15.0",
    );
    expect(e.problems).toHaveLength(1);
    expect(e.field).toBe("kubelet.imageGCHighThresholdPercent");
    expect(e.code).not.toBe("EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET");
  });
});

describe("Bottlerocket settings the kubelet reads (S-b4)", () => {
  test.each([
    ["registry-burst = -1", "registry-burst", "registryBurst"],
    ["registry-qps = -1", "registry-qps", "registryPullQPS"],
    ["event-burst = -5", "event-burst", "eventBurst"],
    ["kube-api-qps = -1", "kube-api-qps", "kubeAPIQPS"],
    // "101" is Bottlerocket's settings model's to refuse, at boot (IntegerPercent): bottlerocket-settings-tables.test.ts
    [
      'image-gc-high-threshold-percent = "60"\nimage-gc-low-threshold-percent = "70"',
      "image-gc-low-threshold-percent",
      "imageGCLowThresholdPercent",
    ],
  ])("%s is refused", (settings, setting, field) => {
    const e = rejection("EC2NodeClass", br(settings), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain(`settings.kubernetes.${setting} as`);
    expect(e.message).toContain(`the kubelet's ${field}`);
    expect(e.message).toContain("validation.go");
  });
  test("look-alikes: values in range; a threshold the class's kubelet writes over", () => {
    const ok =
      'registry-burst = 20\nregistry-qps = 10\nimage-gc-high-threshold-percent = "90"\nimage-gc-low-threshold-percent = "70"';
    expect(() => build("EC2NodeClass", br(ok), "1.15.0")).not.toThrow();
    expect(warnings(br(ok)).filter((w) => w.includes("userData"))).toEqual([]);
    expect(() =>
      build(
        "EC2NodeClass",
        br('image-gc-high-threshold-percent = "101"', { imageGCHighThresholdPercent: 90 }),
        "1.15.0",
      ),
    ).not.toThrow();
  });
  test("cluster-dns-ip: no IP is refused; the class's clusterDNS writes over it", () => {
    const e = rejection("EC2NodeClass", br('cluster-dns-ip = "not-an-ip"'), "1.15.0");
    expect(e.message).toContain("settings.kubernetes.cluster-dns-ip as an IPv4 or IPv6 address");
    expect(e.message).toContain('"Invalid clusterDNS IP"');
    expect(() =>
      build("EC2NodeClass", br('cluster-dns-ip = "not-an-ip"', { clusterDNS: ["10.100.0.10"] }), "1.15.0"),
    ).not.toThrow();
  });
});

describe("kubelet flags set configuration fields: the same rules, over the kubelet config", () => {
  const flags = (items: string[], config = "") => ({
    amiSelectorTerms: [{ alias: "al2023@latest" }],
    userData: `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n${
      config
        ? `    config:\n${config
            .split("\n")
            .map((l) => `      ${l}`)
            .join("\n")}\n`
        : ""
    }    flags:\n${items.map((f) => `      - "${f}"`).join("\n")}\n`,
  });
  test.each([
    ["--registry-burst=-1", "registryBurst", "validation.go:141"],
    ["--image-gc-high-threshold=101", "imageGCHighThresholdPercent", "validation.go:87"],
    ["--allowed-unsafe-sysctls=net.core.somaxconn,kernel.foo", "allowedUnsafeSysctls", "allowlist.go:44-68"],
    ["--cluster-dns=not-an-ip", "clusterDNS", "kubelet.go:579-584"],
    ["--event-burst=-1", "eventBurst", "validation.go:72"],
  ])("%s is refused at the flag", (flag, field, source) => {
    const e = rejection("EC2NodeClass", flags(["--v=2", flag]), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain(`spec.kubelet.flags[1] (--${flag.slice(2).split("=")[0]}, which sets ${field}`);
    expect(e.message).toContain(source);
    expect(e.value).toBe(`line 7: - "${flag}"`);
  });
  test("a flag's value meets the kubelet config's: the image GC thresholds", () => {
    const e = rejection(
      "EC2NodeClass",
      flags(["--image-gc-high-threshold=85"], "imageGCLowThresholdPercent: 90"),
      "1.15.0",
    );
    expect(e.message).toContain("spec.kubelet.config.imageGCLowThresholdPercent");
    expect(e.message).toContain("validation.go:93");
  });
  test("look-alikes pass: values in range, a flag that fixes the config's value", () => {
    expect(() =>
      build(
        "EC2NodeClass",
        flags(["--registry-burst=20", "--image-gc-high-threshold=90", "--cluster-dns=10.100.0.10"]),
        "1.15.0",
      ),
    ).not.toThrow();
    expect(() => build("EC2NodeClass", flags(["--registry-burst=10"], "registryBurst: -1"), "1.15.0")).not.toThrow();
  });
});

describe("a NodeConfig's containerd config is TOML (fresh tester 25 n11)", () => {
  test("an unterminated table header is refused, naming containerd's TOML load", () => {
    const e = rejection(
      "EC2NodeClass",
      containerd('[plugins."io.containerd.grpc.v1.cri"\nsandbox_image = "x"'),
      "1.15.0",
    );
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.value).toBe("line 5: config: |");
    expect(e.message).toContain("spec.containerd.config is no TOML (its line 1)");
    expect(e.message).toContain("services/server/config/config.go:197-260");
  });
  test("look-alike: a valid containerd drop-in passes", () => {
    const ok = '[plugins."io.containerd.grpc.v1.cri".containerd]\ndiscard_unpacked_layers = false';
    expect(() => build("EC2NodeClass", containerd(ok), "1.15.0")).not.toThrow();
  });
  test("nodeadm's localStorage strategy is read case-insensitively: Raid0 passes (internal/system/local_disk.go:29)", () => {
    const u =
      "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  instance:\n    localStorage:\n      strategy: Raid0\n";
    expect(() =>
      build("EC2NodeClass", { amiSelectorTerms: [{ alias: "al2023@latest" }], userData: u }, "1.15.0"),
    ).not.toThrow();
  });
});

describe("Bottlerocket's shutdown grace periods and user-namespace IDs reach the kubelet's rules too", () => {
  test.each([
    [
      'shutdown-grace-period = "30s"\nshutdown-grace-period-for-critical-pods = "1m"',
      "shutdown-grace-period-for-critical-pods",
    ],
    ["ids-per-pod = 1000", "ids-per-pod"],
  ])("%s is refused", (settings, setting) => {
    const e = rejection("EC2NodeClass", br(settings), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain(`settings.kubernetes.${setting} as`);
  });
  test("look-alikes: ordered grace periods, a multiple of 65536", () => {
    expect(() =>
      build(
        "EC2NodeClass",
        br('shutdown-grace-period = "1m"\nshutdown-grace-period-for-critical-pods = "30s"\nids-per-pod = 65536'),
        "1.15.0",
      ),
    ).not.toThrow();
  });
});

describe("a NodeConfig's containerd config holds containerd's types (fresh tester 26 U11, X10, Y06)", () => {
  test.each([
    ['version = "two"', "version = a string, where containerd takes an integer"],
    ['version = "2"', "version = a string, where containerd takes an integer"],
    ['oom_score = "high"', "oom_score = a string, where containerd takes an integer"],
    ["root = 1", "root = an integer, where containerd takes a string"],
    ['imports = "/etc/x.toml"', "imports = a string, where containerd takes an array of strings"],
    ["[grpc]\nuid = true", "grpc.uid = a boolean, where containerd takes an integer"],
    ['grpc = "x"', "grpc = a string, where containerd takes a table"],
    ["[proxy_plugins.snap]\ntype = 1", "proxy_plugins.snap.type = an integer, where containerd takes a string"],
    ["oom_score = 1.5", "oom_score = a float, where containerd takes an integer"],
  ])("%s is refused", (toml, words) => {
    const e = rejection("EC2NodeClass", containerd(toml), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain(words);
    expect(e.message).toContain("github.com/containerd/containerd@v1.7.30 services/server/config/config.go:");
    expect(e.message).toContain("github.com/containerd/containerd/v2@v2.2.3 cmd/containerd/server/config/config.go:");
  });
  test("look-alikes pass: the right types, unknown keys, another plugin's configuration", () => {
    const ok =
      'version = 2\noom_score = -999\nimports = ["/etc/x.toml"]\nfoo = "bar"\n[grpc]\naddress = "/run/containerd/containerd.sock"\n[plugins."io.containerd.snapshotter.v1.overlayfs"]\nsandbox_image = 1\n[timeouts]\n"io.containerd.timeout.shim.cleanup" = "5s"';
    expect(() => build("EC2NodeClass", containerd(ok), "1.15.0")).not.toThrow();
    expect(() => build("EC2NodeClass", containerd("oom_score = 15"), "1.15.0")).not.toThrow();
  });
});

describe("a NodeConfig's containerd config: the CRI plugins' tables hold their types on every containerd an AMI carries", () => {
  const cri = (table: string, body: string) => `[plugins."io.containerd.grpc.v1.cri"${table}]\n${body}`;
  test.each([
    [cri(".containerd", "snapshotter = 1"), "containerd.snapshotter = an integer, where containerd takes a string"],
    [cri("", "sandbox_image = true"), "sandbox_image = a boolean, where containerd takes a string"],
    [cri(".registry", 'config_path = ["x"]'), "registry.config_path = an array, where containerd takes a string"],
    [
      cri("", 'max_concurrent_downloads = "3"'),
      "max_concurrent_downloads = a string, where containerd takes an integer",
    ],
    [cri("", 'enable_cdi = "yes"'), "enable_cdi = a string, where containerd takes true or false"],
    [cri(".containerd.runtimes.runc", "sandbox_mode = 1"), "runtimes.runc.sandbox_mode = an integer, where"],
    [
      cri(".containerd", 'runtimes = "runc"'),
      "containerd.runtimes = a string, where containerd takes a table of tables",
    ],
    [cri(".cni", "bin_dir = 1"), "cni.bin_dir = an integer, where containerd takes a string"],
    [
      '[plugins]\n"io.containerd.grpc.v1.cri" = 1',
      '"io.containerd.grpc.v1.cri" = an integer, where containerd takes a table',
    ],
  ])("%s is refused, naming both releases' fields", (toml, words) => {
    const e = rejection("EC2NodeClass", containerd(toml), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain(words);
    expect(e.message).toContain('plugins."io.containerd.grpc.v1.cri"');
    // the 1.7 field, containerd 2's after its migration (or the migration itself), the load that fails
    expect(e.message).toMatch(/github\.com\/containerd\/containerd@v1\.7\.30 (pkg\/cri\/config\/config\.go:\d+|.*)/);
    expect(e.message).toContain("github.com/containerd/containerd/v2@v2.2.3 plugins/cri/");
    expect(e.message).toContain("services/server/server.go:254-260");
    expect(e.message).toContain("cmd/containerd/server/server.go:307-312");
  });

  test("a key containerd 2 moves names where it goes and the migration that moves it", () => {
    const e = rejection("EC2NodeClass", containerd(cri("", "sandbox_image = true")), "1.15.0");
    expect(e.message).toContain("pkg/cri/config/config.go:299, PluginConfig");
    expect(e.message).toContain('as plugins."io.containerd.cri.v1.images".pinned_images.sandbox');
    expect(e.message).toContain("plugins/cri/images/plugin.go:196-262");
    expect(e.message).toContain("internal/cri/config/config.go:307, ImageConfig");
    const r = rejection("EC2NodeClass", containerd(cri("", 'enable_cdi = "yes"')), "1.15.0");
    expect(r.message).toContain('as plugins."io.containerd.cri.v1.runtime".enable_cdi');
    expect(r.message).toContain("RuntimeConfig");
  });

  test("what only one containerd refuses warns, naming who reads it and who does not", () => {
    // systemd_cgroup: containerd 2 dropped it (its migration moves it to runtime, which ignores it)
    const w17 = warnings(containerd(cri("", 'systemd_cgroup = "x"'))).join("\n");
    expect(w17).toContain('plugins."io.containerd.grpc.v1.cri".systemd_cgroup = a string: containerd 1.7 refuses it');
    expect(w17).toContain("containerd 2.2 does not read it");
    expect(w17).toContain("depends on the AMI's containerd");
    // a containerd 2 key: nodeadm stops on containerd 1.7 at it, or an older AMI ignores it
    const w2 = warnings(containerd('[plugins."io.containerd.cri.v1.images"]\nmax_concurrent_downloads = "3"')).join(
      "\n",
    );
    expect(w2).toContain("containerd 2.2 refuses it (it takes an integer");
    expect(w2).toContain("internal/cri/config/config.go:323, ImageConfig");
    expect(w2).toContain("containerd 1.7 does not read it (nodeadm stops on an AMI with containerd 1.7");
    expect(w2).toContain("getConfigTemplateVersion");
  });

  test("look-alikes pass without a word: 1.7 keys of the right types, a runtimes.nvidia table with options, containerd 2 keys", () => {
    const v2 = [
      cri(
        "",
        'sandbox_image = "public.ecr.aws/eks-distro/kubernetes/pause:3.10"\nenable_cdi = true\nmax_concurrent_downloads = 5',
      ),
      cri(".registry", 'config_path = "/etc/containerd/certs.d:/etc/docker/certs.d"'),
      cri(".registry.headers", 'X-Meta = ["a", "b"]'),
      cri(".containerd", 'default_runtime_name = "nvidia"\ndiscard_unpacked_layers = true'),
      cri(".containerd.runtimes.nvidia", 'runtime_type = "io.containerd.runc.v2"\nsandbox_mode = "podsandbox"'),
      cri(
        ".containerd.runtimes.nvidia.options",
        'BinaryName = "/usr/bin/nvidia-container-runtime"\nSystemdCgroup = true',
      ),
      cri(".cni", 'bin_dir = "/opt/cni/bin"\nmax_conf_num = 1'),
    ].join("\n");
    const v3 = [
      'version = 3\n[plugins."io.containerd.cri.v1.images"]\nmax_concurrent_downloads = 3\nsnapshotter = "overlayfs"',
      '[plugins."io.containerd.cri.v1.images".pinned_images]\nsandbox = "localhost/kubernetes/pause"',
      '[plugins."io.containerd.cri.v1.runtime"]\nenable_cdi = true\ncdi_spec_dirs = ["/etc/cdi"]',
      '[plugins."io.containerd.cri.v1.runtime".containerd.runtimes.nvidia]\nruntime_type = "io.containerd.runc.v2"',
      '[plugins."io.containerd.cri.v1.runtime".containerd.runtimes.nvidia.options]\nBinaryName = "/usr/bin/nvidia-container-runtime"',
      // with containerd 2 keys the configuration is version 3 and this table is the server's: sandbox_image unknown there
      '[plugins."io.containerd.grpc.v1.cri"]\nstream_server_port = "10010"\nsandbox_image = 1',
    ].join("\n");
    for (const toml of [v2, v3]) {
      expect(() => build("EC2NodeClass", containerd(toml), "1.15.0")).not.toThrow();
      expect(warnings(containerd(toml)).filter((w) => w.includes("containerd.config"))).toEqual([]);
    }
  });
});

describe("a NodeConfig's containerd config: a runc runtime's options hold the runc shim's types", () => {
  const opts17 = (runtime: string, body: string) =>
    `[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.${runtime}]\nruntime_type = "io.containerd.runc.v2"\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.${runtime}.options]\n${body}`;
  const opts2 = (runtime: string, body: string) =>
    `version = 3\n[plugins."io.containerd.cri.v1.runtime".containerd.runtimes.${runtime}]\nruntime_type = "io.containerd.runc.v2"\n[plugins."io.containerd.cri.v1.runtime".containerd.runtimes.${runtime}.options]\n${body}`;
  test.each([
    [
      opts17("runc", 'SystemdCgroup = "true"'),
      "SystemdCgroup = a string, where the runc shim's options take true or false",
    ],
    [opts17("custom", "BinaryName = 1"), "BinaryName = an integer, where the runc shim's options take a string"],
    [opts17("custom", "IoUid = -1"), "IoUid = an integer, where the runc shim's options take an integer from 0"],
  ])("refused on every containerd: %s", (toml, words) => {
    const e = rejection("EC2NodeClass", containerd(toml), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain(words);
    expect(e.message).toContain('plugins."io.containerd.grpc.v1.cri".containerd.runtimes.');
    expect(e.message).toContain("github.com/containerd/containerd/api@v1.8.0 types/runc/options/oci.pb.go:");
    expect(e.message).toContain("pkg/cri/server/helpers.go:335-366");
    expect(e.message).toContain("pkg/cri/server/sandbox_run.go:158");
    expect(e.message).toContain("github.com/containerd/containerd/api@v1.10.0 types/runc/options/oci.pb.go:");
    expect(e.message).toContain("internal/cri/config/config.go:743-765");
    expect(e.message).toContain("internal/cri/server/sandbox_run.go:122");
    expect(e.message).toContain("no pod ever runs on the node");
  });
  test("containerd 2's runtime plugin: containerd 1.7 does not read it, so a warning", () => {
    const w = warnings(containerd(opts2("runc", 'SystemdCgroup = "true"'))).join("\n");
    expect(w).toContain(
      'plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc.options.SystemdCgroup = a string',
    );
    expect(w).toContain("containerd 2.2 refuses it (the runc shim's Options take true or false");
    expect(w).toContain("containerd 1.7 does not decode it");
  });
  test("nodeadm's runtime without a runtime_type of the user's: warned, naming the instances and the template", () => {
    const toml = '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\nSystemdCgroup = "true"';
    const w = warnings(containerd(toml)).join("\n");
    expect(w).toContain("runtimes.runc.options.SystemdCgroup = a string");
    expect(w).toContain("instances without an NVIDIA GPU");
    expect(w).toContain("config.template.toml:23-24");
  });
  test("look-alikes pass without a word: right types, any-case names, unknown keys, a non-runc runtime_type", () => {
    for (const toml of [
      opts17("runc", 'SystemdCgroup = true\nBinaryName = "/usr/bin/runc"\nIoUid = 0'),
      opts2("runc", "systemdcgroup = true\nbinary_name = 1"),
      opts17("custom", 'systemd_cgroup = "true"'),
      '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata]\nruntime_type = "io.containerd.kata.v2"\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata.options]\nSystemdCgroup = "true"\nBinaryName = 1\nConfigPath = "/opt/kata/config.toml"',
    ]) {
      expect(() => build("EC2NodeClass", containerd(toml), "1.15.0")).not.toThrow();
      expect(warnings(containerd(toml)).filter((w) => w.includes("containerd.config"))).toEqual([]);
    }
  });
});

describe("a containerd default runtime the node has (fresh tester 30 B34)", () => {
  const cri17 = (body: string) => `[plugins."io.containerd.grpc.v1.cri".containerd]\n${body}`;
  const cri2 = (body: string) => `version = 3\n[plugins."io.containerd.cri.v1.runtime".containerd]\n${body}`;
  test.each([cri17('default_runtime_name = "kata"'), cri2('default_runtime_name = "gvisor"')])(
    "a name no runtime table defines is refused: %s",
    (toml) => {
      const e = rejection("EC2NodeClass", containerd(toml), "1.15.0");
      expect(e.code).toBe("EC2NODECLASS_USER_DATA");
      expect(e.message).toContain("a default runtime the node has");
      expect(e.message).toContain("ValidatePluginConfig");
    },
  );
  test('"nvidia" without its table is warned about (nodeadm defines it on NVIDIA GPU instances only)', () => {
    const w = synthWarnings(build("EC2NodeClass", containerd(cri17('default_runtime_name = "nvidia"')), "1.15.0")).join(
      "\n",
    );
    expect(w).toContain('default_runtime_name = "nvidia" without a runtimes.nvidia table');
    expect(w).toContain("NVIDIA GPU instances");
  });
  test("look-alikes pass: a runtime of its own table, runc beside its table", () => {
    for (const toml of [
      cri17(
        'default_runtime_name = "kata"\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata]\nruntime_type = "io.containerd.kata.v2"',
      ),
      cri2(
        'default_runtime_name = "runc"\n[plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc]\nruntime_type = "io.containerd.runc.v2"',
      ),
    ]) {
      expect(() => build("EC2NodeClass", containerd(toml), "1.15.0")).not.toThrow();
      expect(synthWarnings(build("EC2NodeClass", containerd(toml), "1.15.0")).join("\n")).not.toContain(
        "default_runtime_name",
      );
    }
  });
});
