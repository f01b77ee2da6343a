import { synthWarnings } from "../helpers";
import { build, rejection } from "./node-props";

/*
 * Fresh tester 26: the kubelet's address and providerID on every path, the NodeConfig path's warnings, Bottlerocket
 * settings the kubelet cannot decode, and flags that replace what Karpenter's own NodeConfig part sets.
 */

const al2023 = (kubelet: Record<string, unknown>) => ({ amiSelectorTerms: [{ alias: "al2023@latest" }], kubelet });
const nodeConfig = (kubelet: string, extra: Record<string, unknown> = {}) => ({
  amiSelectorTerms: [{ alias: "al2023@latest" }],
  userData: `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n${kubelet
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n")}\n`,
  ...extra,
});
const br = (settings: string) => ({
  amiSelectorTerms: [{ alias: "bottlerocket@latest" }],
  userData: `[settings.kubernetes]\n${settings}\n`,
});

describe("the kubelet's address is an IP (K13, X01, Y05, Y08)", () => {
  test("the class's kubelet: refused, naming the server's listen", () => {
    const e = rejection("EC2NodeClass", al2023({ address: "not-ip" }), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET");
    expect(e.field).toBe("kubelet.address");
    expect(e.message).toContain("pkg/kubelet/server/server.go:190-210");
  });
  test("a NodeConfig's kubelet config, with the class's kubelet beside it", () => {
    const e = rejection(
      "EC2NodeClass",
      nodeConfig("config:\n  address: not-ip", { kubelet: { maxPods: 50 } }),
      "1.15.0",
    );
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain('spec.kubelet.config.address = "not-ip"');
  });
  test("look-alikes pass: 0.0.0.0, ::, a node IP", () => {
    for (const address of ["0.0.0.0", "::", "10.0.1.5"])
      expect(() => build("EC2NodeClass", al2023({ address }), "1.15.0")).not.toThrow();
  });
});

describe("a providerID of the user's replaces each node's own (X22, Y01, Y02)", () => {
  const id = "aws:///us-east-1a/i-0123456789abcdef0";
  test("the class's kubelet", () => {
    const e = rejection("EC2NodeClass", al2023({ providerID: id }), "1.15.0");
    expect(e.field).toBe("kubelet.providerID");
    expect(e.message).toContain("Karpenter finds a NodeClaim's Node only by it");
    expect(e.message).toContain("nodeclaim.go:291-301");
    expect(e.message).not.toContain("the kubelet does not start");
  });
  test("a NodeConfig's kubelet config and the --provider-id flag", () => {
    expect(rejection("EC2NodeClass", nodeConfig(`config:\n  providerID: ${id}`), "1.15.0").message).toContain(
      "spec.kubelet.config.providerID",
    );
    const f = rejection("EC2NodeClass", nodeConfig(`flags:\n  - --provider-id=${id}`), "1.15.0");
    expect(f.message).toContain("spec.kubelet.flags[0] (--provider-id, which sets providerID");
  });
  test("look-alike: an empty providerID is left to nodeadm's", () => {
    expect(() => build("EC2NodeClass", al2023({ providerID: "" }), "1.15.0")).not.toThrow();
  });
});

describe("a NodeConfig gets the class's kubelet warnings (N27)", () => {
  test("reservedSystemCPUs beside the cgroups nodeadm sets", () => {
    const w = synthWarnings(
      build(
        "EC2NodeClass",
        nodeConfig('config:\n  reservedSystemCPUs: "0-1"\n  systemReserved:\n    cpu: 500m'),
        "1.15.0",
      ),
    ).join("\n");
    expect(w).toContain("is a NodeConfig whose kubelet configuration");
    expect(w).toContain("kubelet.reservedSystemCPUs");
    expect(w).toContain("validation.go:321-325");
  });
  test("the class's own value warns once, not again for the NodeConfig", () => {
    const w = synthWarnings(
      build("EC2NodeClass", nodeConfig("config:\n  maxPods: 50", { kubelet: { reservedSystemCPUs: "0-1" } }), "1.15.0"),
    ).filter((x) => x.includes("reservedSystemCPUs"));
    expect(w).toHaveLength(1);
  });
});

describe("Bottlerocket settings the kubelet cannot decode (B03, Y07, X07)", () => {
  test.each([
    ['shutdown-grace-period = "30x"', "shutdown-grace-period"],
    [
      'shutdown-grace-period = "30s"\nshutdown-grace-period-for-critical-pods = "1x"',
      "shutdown-grace-period-for-critical-pods",
    ],
    ['cpu-manager-reconcile-period = "abc"', "cpu-manager-reconcile-period"],
  ])("%s is refused by the kubelet's decode", (settings, setting) => {
    const e = rejection("EC2NodeClass", br(settings), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain(`settings.kubernetes.${setting} as a Go duration string`);
    expect(e.message).toContain("the kubelet's decode of its configuration fails on it");
    expect(e.message).toContain("codec.go:75-100");
  });
  test("look-alike: Go durations pass", () => {
    expect(() =>
      build("EC2NodeClass", br('shutdown-grace-period = "1m"\ncpu-manager-reconcile-period = "10s"'), "1.15.0"),
    ).not.toThrow();
  });
});

describe("kubelet flags that replace what Karpenter's own NodeConfig part sets (N19)", () => {
  test("--register-with-taints: Karpenter's taints are replaced, the NodePool is the place", () => {
    const w = synthWarnings(
      build("EC2NodeClass", nodeConfig("flags:\n  - --register-with-taints=a=b:NoSchedule"), "1.15.0"),
    ).join("\n");
    expect(w).toContain("it replaces the registerWithTaints Karpenter writes");
    expect(w).toContain("karpenter.sh/unregistered");
    expect(w).toContain("Put taints on the NodePool (taints, startupTaints) instead");
    expect(w).not.toContain("a deprecated kubelet flag");
  });
  test("--max-pods replaces the pod count Karpenter computed", () => {
    const w = synthWarnings(build("EC2NodeClass", nodeConfig("flags:\n  - --max-pods=300"), "1.15.0")).join("\n");
    expect(w).toContain("sets --max-pods, the kubelet's maxPods");
    expect(w).toContain("the pod count Karpenter computed for the instance type");
  });
  test("look-alike: a flag Karpenter's part does not set warns only as deprecated", () => {
    const w = synthWarnings(build("EC2NodeClass", nodeConfig("flags:\n  - --registry-burst=20"), "1.15.0")).join("\n");
    expect(w).not.toContain("flags take precedence");
  });
});

describe("a NodeConfig's local storage strategy is one setup-local-disks takes (U09)", () => {
  const storage = (strategy: string) => ({
    amiSelectorTerms: [{ alias: "al2023@latest" }],
    userData: `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  instance:\n    localStorage:\n      strategy: ${strategy}\n`,
  });
  test("RAID5 is refused at its line", () => {
    const e = rejection("EC2NodeClass", storage("RAID5"), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.value).toBe("line 6: strategy: RAID5");
    expect(e.message).toContain("setup-local-disks:273-275");
  });
  test.each(["RAID0", "Raid0", "RAID10", "Mount", "none"])("look-alike %s passes", (s) => {
    expect(() => build("EC2NodeClass", storage(s), "1.15.0")).not.toThrow();
  });
});

describe("fresh tester 27: base64 and gzip NodeConfig parts, as nodeadm decodes them (R05, R06, Q14, Q15)", () => {
  const good =
    "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      shutdownGracePeriod: 30s\n";
  const bad =
    "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      memorySwap:\n        swapBehavior: Foo\n";
  const mime = (body: string, cte = "") =>
    `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="BOUNDARY"\n\n--BOUNDARY\nContent-Type: application/node.eks.aws\n${cte}\n${body}\n--BOUNDARY--\n`;
  const cls = (userData: string) => ({ amiSelectorTerms: [{ alias: "al2023@latest" }], userData });
  const b64 = (t: string | Buffer) => Buffer.from(t).toString("base64");
  test.each([
    ["base64", b64(good), ""],
    [
      "base64 wrapped at 76 columns, with its header",
      b64(good).replace(/(.{76})/g, "$1\n"),
      "Content-Transfer-Encoding: base64\n",
    ],
    ["gzip in base64", b64(require("zlib").gzipSync(good)), ""],
  ])("a valid NodeConfig as %s passes", (_, body, cte) => {
    expect(() => build("EC2NodeClass", cls(mime(body, cte)), "1.15.0")).not.toThrow();
  });
  test("a decoded NodeConfig is judged as the plain one is: swapBehavior Foo", () => {
    const e = rejection("EC2NodeClass", cls(mime(b64(bad))), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain("memorySwap.swapBehavior");
    // named as the decoded part, not as the whole user data (fresh tester 30 B08)
    expect(e.message).toMatch(
      /the base64-encoded application\/node\.eks\.aws part of AL2023 user data from line \d+, decoded,/,
    );
    expect(e.message).toMatch(/line \d+ of the decoded text/);
    expect(e.message).not.toContain("this user data for the AL2023 AMI family");
    expect(e.message).not.toContain("not a map");
  });
  // the decoded part was judged as whole user data (offset 0), where a list or broken YAML without NodeConfig lines is
  // taken for a shell script and passes; nodeadm decodes every application/node.eks.aws part as a NodeConfig
  test.each([
    ["a YAML list", "- a\n- b\n", /is a YAML list, not a map/],
    ["YAML with a tab indent", "spec:\n\tkubelet: {}\n", /a NodeConfig in YAML/],
    ["only comments", "# nothing\n", /holds only YAML comments and whitespace/],
  ])("a base64 part that decodes to %s is refused as the part it is", (_, text, message) => {
    const e = rejection("EC2NodeClass", cls(mime(b64(text))), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toMatch(message);
    expect(e.message).toMatch(/line \d+ of the decoded text/);
  });
  test("a base64 part whose NodeConfig holds a second document is named as the decoded part", () => {
    const e = rejection("EC2NodeClass", cls(mime(b64(`${good}---\n${good}`))), "1.15.0");
    expect(e.message).toMatch(
      /one YAML document: the base64-encoded application\/node\.eks\.aws part of AL2023 user data from line \d+, decoded, holds another document/,
    );
  });
  test("gzip data that does not decompress stops nodeadm", () => {
    const broken = Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from("nonsense")]);
    const e = rejection("EC2NodeClass", cls(mime(b64(broken))), "1.15.0");
    expect(e.message).toContain("a gzip stream nodeadm can read");
  });
});

describe("fresh tester 27: the rest", () => {
  test("gp3 iops and throughput above EC2's documented ceilings warn (E07, E08)", () => {
    const w = synthWarnings(
      build(
        "EC2NodeClass",
        {
          amiSelectorTerms: [{ alias: "al2023@latest" }],
          blockDeviceMappings: [
            {
              deviceName: "/dev/xvda",
              rootVolume: true,
              ebs: { volumeType: "gp3", volumeSize: "1000Gi", iops: 80001, throughput: 2001 },
            },
          ],
        },
        "1.15.0",
      ),
    ).join("\n");
    expect(w).toContain("ebs.iops = 80001 is above gp3's 80,000 IOPS");
    expect(w).toContain("ebs.throughput = 2001 is above gp3's 2,000 MiB/s");
  });
  test("metadataOptions.httpEndpoint disabled on AL2023 is refused; enabled passes (E15, R09)", () => {
    const e = rejection(
      "EC2NodeClass",
      { amiSelectorTerms: [{ alias: "al2023@latest" }], metadataOptions: { httpEndpoint: "disabled" } },
      "1.15.0",
    );
    expect(e.code).toBe("EC2NODECLASS_METADATA_ENDPOINT");
    expect(e.field).toBe("metadataOptions.httpEndpoint");
    expect(() =>
      build(
        "EC2NodeClass",
        { amiSelectorTerms: [{ alias: "al2023@latest" }], metadataOptions: { httpEndpoint: "enabled" } },
        "1.15.0",
      ),
    ).not.toThrow();
  });
  test.each([
    ["arn:aws:iam::123456789012:instance-profile/x", '("x")'],
    ["path/profile", '("profile")'],
  ])("instanceProfile %s is no profile name (E31, Q07)", (profile, fix) => {
    const e = rejection(
      "EC2NodeClass",
      { amiSelectorTerms: [{ alias: "al2023@latest" }], instanceProfile: profile },
      "1.15.0",
    );
    expect(e.code).toBe("EC2NODECLASS_INSTANCE_PROFILE_NAME");
    expect(e.message).toContain(fix);
    expect(e.message).toContain("IamInstanceProfile.Name");
  });
  test("the static CPU manager with no CPU reserved, on the class, a NodeConfig and flags (K08, Q08, R08)", () => {
    const e = rejection(
      "EC2NodeClass",
      al2023({ cpuManagerPolicy: "static", kubeReserved: { cpu: "0" }, systemReserved: { cpu: "0" } }),
      "1.15.0",
    );
    expect(e.field).toBe("kubelet.cpuManagerPolicy");
    expect(e.message).toContain(
      "the static policy requires systemreserved.cpu + kubereserved.cpu to be greater than zero",
    );
    expect(
      rejection(
        "EC2NodeClass",
        nodeConfig('config:\n  cpuManagerPolicy: static\n  kubeReserved:\n    cpu: "0"'),
        "1.15.0",
      ).message,
    ).toContain("cpu_manager.go:190-205");
    expect(
      rejection(
        "EC2NodeClass",
        nodeConfig("flags:\n  - --cpu-manager-policy=static\n  - --kube-reserved=cpu=0\n  - --system-reserved=cpu=0"),
        "1.15.0",
      ).message,
    ).toContain("cpu_manager.go:190-205");
    // look-alikes: CPU reserved, or kubeReserved.cpu left to nodeadm
    expect(() =>
      build("EC2NodeClass", al2023({ cpuManagerPolicy: "static", kubeReserved: { cpu: "100m" } }), "1.15.0"),
    ).not.toThrow();
    expect(() => build("EC2NodeClass", al2023({ cpuManagerPolicy: "static" }), "1.15.0")).not.toThrow();
  });
  test("a soft eviction threshold without a grace period in Bottlerocket settings and in flags (B02, F06, R07)", () => {
    const b = rejection(
      "EC2NodeClass",
      br('[settings.kubernetes.eviction-soft]\n"memory.available" = "500Mi"'),
      "1.15.0",
    );
    expect(b.message).toContain("grace period must be specified for the soft eviction threshold");
    expect(
      rejection(
        "EC2NodeClass",
        nodeConfig(
          "config:\n  evictionSoftGracePeriod:\n    nodefs.available: 1m\nflags:\n  - --eviction-soft=memory.available<500Mi",
        ),
        "1.15.0",
      ).message,
    ).toContain("grace period");
    expect(() =>
      build(
        "EC2NodeClass",
        br(
          '[settings.kubernetes.eviction-soft]\n"memory.available" = "500Mi"\n[settings.kubernetes.eviction-soft-grace-period]\n"memory.available" = "1m"',
        ),
        "1.15.0",
      ),
    ).not.toThrow();
  });
});

describe("a CPU reservation with a byte suffix on the NodeConfig, flag and Bottlerocket paths (fresh tester 27 R01, R02, Q35)", () => {
  test.each([
    ["NodeConfig", nodeConfig("config:\n  kubeReserved:\n    cpu: 1Gi")],
    ["flag", nodeConfig("flags:\n  - --kube-reserved=cpu=1Gi")],
    ["Bottlerocket", br('[settings.kubernetes.kube-reserved]\ncpu = "1Gi"')],
  ])("%s: refused, above any node's capacity", (_, props) => {
    const e = rejection("EC2NodeClass", props, "1.15.0");
    expect(e.message).toContain("node_container_manager_linux.go:304-321");
  });
  test.each([
    [
      '[settings.kubernetes.kube-reserved]\nmemory = "1Gi"\ncpu = "abc"',
      'line 4: cpu = "abc"',
      'kube-reserved.cpu as a quantity such as "100m", "1Gi" or "1000", got "abc"',
    ],
    [
      'system-reserved = { memory = "1Gi", ephemeral-storage = "-1Gi" }',
      'line 2: system-reserved = { memory = "1Gi", ephemeral-storage = "-1Gi" }',
      'system-reserved.ephemeral-storage as a quantity of 0 or more, got "-1Gi"',
    ],
    [
      '[settings.kubernetes.eviction-soft]\n"memory.available" = "10%"',
      'line 3: "memory.available" = "10%"',
      'eviction-soft."memory.available" as an evictionSoftGracePeriod',
    ],
  ])(
    "Bottlerocket: a problem of one key of a map setting names the key, its value and its line (fresh tester 35): %s",
    (toml, value, named) => {
      const e = rejection("EC2NodeClass", br(toml), "1.15.0");
      expect(e.value).toBe(value);
      expect(e.message).toContain(`settings.kubernetes.${named}`);
    },
  );
  test("look-alike: cpu 100m passes on every path", () => {
    for (const p of [
      nodeConfig("config:\n  kubeReserved:\n    cpu: 100m"),
      nodeConfig("flags:\n  - --kube-reserved=cpu=100m"),
      br('[settings.kubernetes.kube-reserved]\ncpu = "100m"'),
    ])
      expect(() => build("EC2NodeClass", p, "1.15.0")).not.toThrow();
  });
});

describe("fresh tester 28", () => {
  test("registerNode false on the class, a NodeConfig and the flag (C22, C24, C25)", () => {
    const e = rejection("EC2NodeClass", al2023({ registerNode: false }), "1.15.0");
    expect(e.field).toBe("kubelet.registerNode");
    expect(e.message).toContain("the kubelet never registers its Node");
    expect(rejection("EC2NodeClass", nodeConfig("config:\n  registerNode: false"), "1.15.0").message).toContain(
      "kubelet_node_status.go:460",
    );
    expect(rejection("EC2NodeClass", nodeConfig("flags:\n  - --register-node=false"), "1.15.0").message).toContain(
      "spec.kubelet.flags[0] (--register-node, which sets registerNode",
    );
    expect(() => build("EC2NodeClass", al2023({ registerNode: true }), "1.15.0")).not.toThrow();
  });
  test("CPU manager options with the none policy in Bottlerocket settings and flags (C28, F14, F17)", () => {
    expect(
      rejection("EC2NodeClass", br('cpu-manager-policy-options = ["full-pcpus-only"]'), "1.15.0").message,
    ).toContain("settings.kubernetes.cpu-manager-policy-options");
    expect(
      rejection(
        "EC2NodeClass",
        br('cpu-manager-policy = "none"\ncpu-manager-policy-options = ["full-pcpus-only"]'),
        "1.15.0",
      ).code,
    ).toBe("EC2NODECLASS_USER_DATA");
    expect(
      rejection("EC2NodeClass", nodeConfig("flags:\n  - --cpu-manager-policy-options=full-pcpus-only=true"), "1.15.0")
        .message,
    ).toContain("--cpu-manager-policy-options, which sets cpuManagerPolicyOptions");
    expect(() =>
      build(
        "EC2NodeClass",
        br('cpu-manager-policy = "static"\ncpu-manager-policy-options = ["full-pcpus-only"]'),
        "1.15.0",
      ),
    ).not.toThrow();
  });
  test("warnings: maxPods 0, RAID0 on Windows, bootstrap.sh on AL2023 (F21, B31, D05)", () => {
    expect(synthWarnings(build("EC2NodeClass", al2023({ maxPods: 0 }), "1.15.0")).join("\n")).toContain(
      "kubelet.maxPods = 0",
    );
    expect(
      synthWarnings(
        build(
          "EC2NodeClass",
          { amiSelectorTerms: [{ alias: "windows2022@latest" }], instanceStorePolicy: "RAID0" },
          "1.15.0",
        ),
      ).join("\n"),
    ).toContain("instanceStorePolicy RAID0 on Windows2022");
    expect(
      synthWarnings(
        build(
          "EC2NodeClass",
          { amiSelectorTerms: [{ alias: "al2023@latest" }], userData: "#!/bin/bash\n/etc/eks/bootstrap.sh prod\n" },
          "1.15.0",
        ),
      ).join("\n"),
    ).toContain("bootstrap.sh has been removed from AL2023-based EKS AMIs");
    expect(synthWarnings(build("EC2NodeClass", al2023({ maxPods: 1 }), "1.15.0")).join("\n")).not.toContain(
      "maxPods = ",
    );
  });
  test("AL2 user data that runs bootstrap.sh itself warns: Karpenter's part runs it again, and the first kubelet keeps its args (fresh tester 35: 9b)", () => {
    const al2 = (userData: string) =>
      synthWarnings(build("EC2NodeClass", { amiSelectorTerms: [{ alias: "al2@latest" }], userData }, "1.15.0")).join(
        "\n",
      );
    const w = al2(
      "#!/bin/bash\n/etc/eks/bootstrap.sh prod --kubelet-extra-args '--node-labels=node-role.kubernetes.io/worker=true'\n",
    );
    expect(w).toContain("userData runs /etc/eks/bootstrap.sh, which Karpenter's own part runs again");
    expect(w).toContain("eksbootstrap.go:47-86");
    expect(w).toContain('"systemctl start kubelet"');
    // look-alike: a script that leaves bootstrap.sh to Karpenter
    expect(al2("#!/bin/bash\necho hello > /etc/motd\n")).not.toContain("bootstrap.sh");
    // a variable for Karpenter's bootstrap.sh dies with the user's script (fresh tester 36: C4-61)
    expect(al2('#!/bin/bash\nexport KUBELET_EXTRA_ARGS="--max-pods=50"\n')).toContain(
      "userData sets KUBELET_EXTRA_ARGS, which lives only as long as the user data's own script",
    );
    expect(al2("#!/bin/bash\necho KUBELET_EXTRA_ARGS is not set here\n")).not.toContain("sets KUBELET_EXTRA_ARGS");
  });
  test("a NodePool taint with timeAdded warns (A27, F12)", () => {
    const w = synthWarnings(
      build(
        "NodePool",
        { taints: [{ key: "a", effect: "NoSchedule", timeAdded: "2024-01-01T00:00:00Z" }] } as never,
        "1.15.0",
      ),
    ).join("\n");
    expect(w).toContain("taints[0].timeAdded is set");
    expect(w).toContain("validation.go:164-165");
  });
});

describe("fresh tester 29", () => {
  test("a negative or unparsable soft eviction grace period on the NodeConfig paths (L15, L37)", () => {
    const c = rejection(
      "EC2NodeClass",
      nodeConfig(
        'config:\n  evictionSoft:\n    memory.available: 500Mi\n  evictionSoftGracePeriod:\n    memory.available: "-1m"',
      ),
      "1.15.0",
    );
    expect(c.message).toContain("must be a positive value");
    expect(c.message).toContain("helpers.go:435-455");
    const f = rejection(
      "EC2NodeClass",
      nodeConfig(
        "flags:\n  - --eviction-soft=memory.available<500Mi\n  - --eviction-soft-grace-period=memory.available=-1m",
      ),
      "1.15.0",
    );
    expect(f.message).toContain("must be a positive value");
  });
  test("Bottlerocket max-allowable-numa-nodes below 8 (L40)", () => {
    const e = rejection(
      "EC2NodeClass",
      br(
        'topology-manager-policy = "best-effort"\n[settings.kubernetes.topology-manager-policy-options]\nmax-allowable-numa-nodes = 4',
      ),
      "1.15.0",
    );
    expect(e.message).toContain("settings.kubernetes.topology-manager-policy-options");
  });
  test("a shell part with Content-Transfer-Encoding: base64 (U21)", () => {
    const body = Buffer.from("#!/bin/bash\necho hi\n").toString("base64");
    const userData = `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: text/x-shellscript\nContent-Transfer-Encoding: base64\n\n${body}\n--B--\n`;
    const e = rejection("EC2NodeClass", { amiSelectorTerms: [{ alias: "al2023@latest" }], userData }, "1.15.0");
    expect(e.message).toContain("a part without Content-Transfer-Encoding: base64");
    const plain = `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n--B--\n`;
    expect(() =>
      build("EC2NodeClass", { amiSelectorTerms: [{ alias: "al2023@latest" }], userData: plain }, "1.15.0"),
    ).not.toThrow();
  });
});
