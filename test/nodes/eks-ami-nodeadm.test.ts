import type { TerraformStack } from "cdktf";
import { KarpenterCluster } from "../../lib/cluster/karpenter-cluster";
import { KarpenterValidationError } from "../../lib/core/errors";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { FakeInstallation, synthWarnings, testStack } from "../helpers";
import { al2023AmiRelease } from "../../lib/nodes/node-config-rules";
import { eksAmiFacts } from "../../lib/versions";
import { build, rejection } from "./node-props";

/*
 * A NodeConfig in AL2023 user data is judged against the nodeadm on the EKS AMIs (lib/versions/data/eks-ami-facts.json,
 * from awslabs/amazon-eks-ami), not the 2024-02 nodeadm Karpenter's go.mod pins: fields of newer AMIs are read and
 * typed, a field newer than a pinned alias's AMI is warned about, and names nodeadm ignores are named.
 */

const nodeConfig = (spec: string, alias = "al2023@latest", extra: Record<string, unknown> = {}) => ({
  amiSelectorTerms: [{ alias }],
  userData: `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n${spec
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n")}\n`,
  ...extra,
});
const warnings = (props: Record<string, unknown>) => synthWarnings(build("EC2NodeClass", props, "1.15.0")).join("\n");

describe("fields of the AMI's nodeadm (R28 F01-F04, D02, D09; R29 U13)", () => {
  test("featureGates, containerd.baseRuntimeSpec, localStorage.mountPath / disabledMounts, network, environment pass without a word on al2023@latest", () => {
    const w = warnings(
      nodeConfig(
        [
          "featureGates:",
          "  InstanceIdNodeName: true",
          "  FastImagePull: true",
          "containerd:",
          "  baseRuntimeSpec:",
          "    process:",
          "      rlimits: []",
          "instance:",
          "  localStorage:",
          "    strategy: RAID0",
          "    mountPath: /mnt/disks",
          "    disabledMounts: [PodLogs, Containerd]",
          "  network:",
          "    nameservers: [10.0.0.2]",
          "    domains: [example.internal]",
          "  environment:",
          "    default:",
          "      HTTP_PROXY: http://proxy:3128",
        ].join("\n"),
      ),
    );
    expect(w).not.toContain("userData");
  });

  test("wrong JSON types of the newer fields are refused, all at once, naming the path", () => {
    const e = rejection(
      "EC2NodeClass",
      nodeConfig(
        [
          "featureGates:",
          '  FastImagePull: "yes"',
          "instance:",
          "  localStorage:",
          "    mountPath: [a]",
          "    disabledMounts: PodLogs",
          "  network:",
          "    nameservers: 10.0.0.2",
          "  environment:",
          "    default: x",
        ].join("\n"),
      ),
      "1.15.0",
    );
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    for (const p of [
      "spec.featureGates.FastImagePull is a string",
      "spec.instance.localStorage.mountPath is a list",
      "spec.instance.localStorage.disabledMounts is a string",
      "spec.instance.network.nameservers is a string",
      "spec.instance.environment.default is a string",
    ])
      expect(e.message).toContain(p);
    expect(e.message).toContain("nodeconfig_types.go");
  });

  test("a field nodeadm has never had is still warned about, with a did-you-mean", () => {
    const w = warnings(nodeConfig("instance:\n  localStorage:\n    mountpath: /mnt/disks"));
    expect(w).toContain("spec.instance.localStorage.mountpath is no field of nodeadm's v1alpha1.LocalStorageOptions");
    expect(w).toContain("did you mean mountPath?");
  });
});

describe("a field newer than the AMI release the class pins", () => {
  test("al2023@v20240315 drops featureGates (first read in v20240424) and mountPath: warned, naming the release", () => {
    const w = warnings(
      nodeConfig(
        "featureGates:\n  InstanceIdNodeName: true\ninstance:\n  localStorage:\n    mountPath: /d",
        "al2023@v20240315",
      ),
    );
    expect(w).toContain("spec.featureGates is read by the nodeadm of AL2023 AMIs released v20240424 or later");
    expect(w).toContain("this class pins the AMI release v20240315");
    expect(w).toContain(
      "spec.instance.localStorage.mountPath is read by the nodeadm of AL2023 AMIs released v20250620",
    );
  });
  test("a release after the field's: no warning", () => {
    expect(warnings(nodeConfig("featureGates:\n  InstanceIdNodeName: true", "al2023@v20250103"))).not.toContain(
      "userData",
    );
  });
  // fresh tester 47: 4.15 (baseRuntimeSpec came with v20240615: the tag v20240531's types file lacks it, though the
  // commit that added it is older than that release's date)
  test("a field is dated by the first release tag that holds it: baseRuntimeSpec on v20240531 warns, on v20240615 not", () => {
    const spec = (alias: string) =>
      nodeConfig("containerd:\n  baseRuntimeSpec:\n    process:\n      noNewPrivileges: true", alias);
    expect(warnings(spec("al2023@v20240531"))).toContain(
      "spec.containerd.baseRuntimeSpec is read by the nodeadm of AL2023 AMIs released v20240615 or later",
    );
    expect(warnings(spec("al2023@v20240615"))).not.toContain("spec.containerd.baseRuntimeSpec is read by");
  });
  test("a gate value newer than the pinned release (FastImagePull, v20250821) is warned about", () => {
    const w = warnings(nodeConfig("featureGates:\n  FastImagePull: true", "al2023@v20250103"));
    expect(w).toContain("spec.featureGates.FastImagePull is read by the nodeadm of AL2023 AMIs released v20250821");
  });
  test("AMIs selected by ID: fields Karpenter's own nodeadm lacks depend on the AMI", () => {
    const w = warnings({
      amiFamily: "AL2023",
      amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }],
      userData:
        "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  featureGates:\n    InstanceIdNodeName: true\n",
    });
    expect(w).toContain("needs an AL2023 AMI released v20240424 or later");
    expect(w).toContain("selects its AMIs by ID, name, tags or SSM parameter");
  });
});

describe("names nodeadm ignores", () => {
  test("an unknown feature gate and a wrongly cased one", () => {
    const w = warnings(nodeConfig("featureGates:\n  fastImagePull: true\n  NoSuchGate: false"));
    expect(w).toContain(
      "spec.featureGates.fastImagePull is no feature gate nodeadm knows (did you mean FastImagePull?",
    );
    expect(w).toContain("spec.featureGates.NoSuchGate is no feature gate nodeadm knows");
    expect(w).toContain("treats a gate it does not know as off");
  });
  test("an unknown disabled mount", () => {
    const w = warnings(nodeConfig("instance:\n  localStorage:\n    strategy: RAID0\n    disabledMounts: [podlogs]"));
    expect(w).toContain(
      "spec.instance.localStorage.disabledMounts[0] is no mount nodeadm knows (did you mean PodLogs?",
    );
  });
  test("maxPodsExpression is replaced by Karpenter's maxPods", () => {
    const w = warnings(nodeConfig('kubelet:\n  maxPodsExpression: "default_enis * 10"'));
    expect(w).toContain("spec.kubelet.maxPodsExpression is replaced on every node");
    expect(w).toContain("Set kubelet.maxPods or kubelet.podsPerCore on the EC2NodeClass instead");
  });
});

describe("which AMI release a class selects", () => {
  test.each([
    [[{ alias: "al2023@latest" }], "latest"],
    [[{ alias: "al2023@v20250103" }], "v20250103"],
    [[{ alias: "bottlerocket@latest" }], undefined],
    [[{ id: "ami-0123456789abcdef0" }], undefined],
    [[{ alias: "al2023@latest" }, { id: "ami-0123456789abcdef0" }], undefined],
    [undefined, undefined],
  ])("%j -> %s", (terms, release) => {
    expect(al2023AmiRelease(terms)).toBe(release);
  });
});

test("the facts name their snapshot, the newest release and the AL2023 root volume", () => {
  const f = eksAmiFacts();
  expect(f.commit).toMatch(/^[0-9a-f]{40}$/);
  expect(f.newestRelease).toMatch(/^v\d{8}$/);
  expect(f.nodeadm.types["v1alpha1.NodeConfigSpec"].fields.featureGates).toBe("map:boolean");
  expect(f.nodeadm.enums["v1alpha1.DisabledMount"]).toHaveProperty("PodLogs");
  expect(f.al2023RootVolumeGiB.value).toBe(20);
});

describe("the AL2023 AMI's root snapshot (R29 B12, B35, B37) and rootVolume on another device (B41)", () => {
  const bdm = (volumeSize: string, extra: Record<string, unknown> = {}, deviceName = "/dev/xvda") => ({
    deviceName,
    ebs: { volumeSize, volumeType: "gp3", ...extra },
  });
  const cls = (alias: string, ...mappings: Record<string, unknown>[]) => ({
    amiSelectorTerms: [{ alias }],
    blockDeviceMappings: mappings,
  });
  test("a root volume below 20 GiB on an al2023@ alias is refused, naming the snapshot's source", () => {
    for (const [alias, size] of [
      ["al2023@latest", "10Gi"],
      ["al2023@v20250103", "19Gi"],
      ["al2023@latest", "20G"],
    ]) {
      const e = rejection("EC2NodeClass", cls(alias, bdm(size)), "1.15.0");
      expect(e.code).toBe("EC2NODECLASS_EBS_VOLUME_SIZE");
      expect(e.field).toBe("blockDeviceMappings[0].ebs.volumeSize");
      expect(e.message).toContain('at least 20 GiB ("20Gi") for /dev/xvda');
      expect(e.message).toContain("templates/al2023/variables-default.json");
    }
  });
  test("look-alikes pass: 20Gi, a data volume of 8Gi, a snapshot of your own, AMIs by ID, Bottlerocket", () => {
    for (const props of [
      cls("al2023@latest", bdm("20Gi")),
      cls("al2023@latest", bdm("8Gi", {}, "/dev/xvdb")),
      cls("al2023@latest", bdm("8Gi", { snapshotID: "snap-0123456789abcdef0" })),
      { amiFamily: "AL2023", amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }], blockDeviceMappings: [bdm("8Gi")] },
      cls("bottlerocket@latest", bdm("4Gi")),
    ])
      expect(() => build("EC2NodeClass", props as never, "1.15.0")).not.toThrow();
  });
  test("rootVolume on a device the family does not keep the kubelet on is warned about; on the right one it is not", () => {
    const w = warnings(cls("al2023@latest", { ...bdm("100Gi", {}, "/dev/xvdb"), rootVolume: true }));
    expect(w).toContain(
      "blockDeviceMappings[0] marks /dev/xvdb as rootVolume, but AL2023 AMIs keep the kubelet's root directory on /dev/xvda",
    );
    expect(warnings(cls("al2023@latest", { ...bdm("100Gi"), rootVolume: true }))).not.toContain("rootVolume");
    expect(warnings(cls("bottlerocket@latest", { ...bdm("100Gi", {}, "/dev/xvdb"), rootVolume: true }))).not.toContain(
      "rootVolume",
    );
  });
  test("a family's device written without /dev/ is warned about with the name meant (fresh tester 37: 3.24)", () => {
    const w = warnings(cls("al2023@latest", bdm("50Gi", {}, "xvda")));
    expect(w).toContain('blockDeviceMappings[0].deviceName is "xvda"; did you mean "/dev/xvda"?');
    expect(w).toContain("so this mapping's size is not counted");
    expect(warnings(cls("bottlerocket@latest", bdm("50Gi", {}, "xvdb")))).toContain("AMIs' data device is /dev/xvdb");
    // look-alikes: the full name, and another device without /dev/ (EC2 takes "xvdh" for a volume of its own)
    expect(warnings(cls("al2023@latest", bdm("50Gi")))).not.toContain("did you mean");
    expect(warnings(cls("al2023@latest", bdm("50Gi", {}, "xvdh")))).not.toContain("did you mean");
  });
});

describe("every consumer of a decoded NodeConfig is judged, all at once (#31 category 6)", () => {
  test("a kubelet flag, a node label, containerd's TOML and a local storage strategy: one error naming all four", () => {
    const e = rejection(
      "EC2NodeClass",
      nodeConfig(
        [
          "kubelet:",
          "  flags:",
          "    - --max-pod=110",
          "    - --node-labels=kubernetes.io/role=x",
          "containerd:",
          '  config: "version = [2"',
          "instance:",
          "  localStorage:",
          "    strategy: RAID5",
        ].join("\n"),
      ),
      "1.15.0",
    );
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain("--max-pod");
    expect(e.message).toContain("--node-labels keys the kubelet may set");
    expect(e.message).toContain("containerd configuration in TOML");
    expect(e.message).toContain("a local storage strategy the AMI takes");
    expect(e.message.match(/Also line \d+/g)).toHaveLength(3);
  });
  test("a baseRuntimeSpec nodeadm cannot decode does not hide containerd's TOML beside it (each consumer its own part)", () => {
    const e = rejection(
      "EC2NodeClass",
      nodeConfig(["containerd:", '  config: "version = [2"', '  baseRuntimeSpec: "not a map"'].join("\n")),
      "1.15.0",
    );
    expect(e.message).toContain("spec.containerd.baseRuntimeSpec");
    expect(e.message).toContain("containerd configuration in TOML");
    expect(e.message.match(/Also line \d+/g)).toHaveLength(1);
  });
  test("one problem alone is reported without an 'Also'", () => {
    const e = rejection("EC2NodeClass", nodeConfig("instance:\n  localStorage:\n    strategy: RAID5"), "1.15.0");
    expect(e.message).not.toContain("Also line");
  });
});

describe("spec.cluster, which Karpenter's own NodeConfig part replaces (fresh tester 30 B32)", () => {
  test("each field set is warned about as replaced", () => {
    const w = warnings(nodeConfig("cluster:\n  name: other\n  cidr: 10.0.0.0/16"));
    expect(w).toContain("spec.cluster.name is replaced on every node");
    expect(w).toContain("spec.cluster.cidr is replaced on every node");
    expect(w).toContain("nodeadm.go:61-85");
  });
  test("no cluster section: no warning", () => {
    expect(warnings(nodeConfig("kubelet:\n  flags: [--v=2]"))).not.toContain("replaced on every node");
  });
});

describe("--cloud-provider in a NodeConfig's kubelet flags (fresh tester 30 B28)", () => {
  test.each([["--cloud-provider=aws"], ["--cloud_provider=aws"], ["--cloud-provider", "aws"]])(
    "%s %s is refused: the kubelet refuses in-tree providers",
    (...flags) => {
      const e = rejection(
        "EC2NodeClass",
        nodeConfig(`kubelet:\n  flags:\n${flags.map((f) => `    - ${f}`).join("\n")}`),
        "1.15.0",
      );
      expect(e.message).toContain("--cloud-provider=external (nodeadm's own; or leave the flag out)");
      expect(e.message).toContain("pkg/kubelet/kubelet.go:464-466");
    },
  );
  test("external and no flag pass", () => {
    expect(() =>
      build("EC2NodeClass", nodeConfig("kubelet:\n  flags:\n    - --cloud-provider=external"), "1.15.0"),
    ).not.toThrow();
  });
});

describe("an al2023@ / al2@ alias pinned to a date that is no EKS AMI release (fresh tester 31 B38)", () => {
  const pinned = (alias: string) => warnings({ amiSelectorTerms: [{ alias }] });
  test("a date between releases is warned about, naming the nearest releases", () => {
    const w = pinned("al2023@v20250701");
    expect(w).toContain('alias "al2023@v20250701" names no EKS AMI release');
    expect(w).toContain("v20250627 and v20250704");
    expect(w).toContain('e.g. "al2023@v20250704"');
  });
  test("a release, latest, and a date after the newest known release but not after today pass without a word", () => {
    const newest = eksAmiFacts().newestRelease;
    for (const alias of ["al2023@v20250704", "al2023@latest", "al2@v20250103", `al2023@${newest}`])
      expect(pinned(alias)).not.toMatch(/names no EKS AMI release|names an EKS AMI release dated after today/);
  });
  test("a date after today is warned about: no release has it yet (fresh tester 37: 7.15)", () => {
    const w = pinned("al2023@v20991231");
    expect(w).toContain('alias "al2023@v20991231" names an EKS AMI release dated after today (');
    expect(w).toContain(`the newest this library knows with AL2023 AMIs: "al2023@${eksAmiFacts().newestRelease}"`);
  });
});

describe("kind / apiVersion of the kubelet configuration (fresh tester 31 A40, A46, D11)", () => {
  test("the class's kubelet with kind Foo is refused", () => {
    const e = rejection(
      "EC2NodeClass",
      { amiSelectorTerms: [{ alias: "al2023@latest" }], kubelet: { kind: "Foo" } } as never,
      "1.15.0",
    );
    expect(e.field).toBe("kubelet.kind");
    expect(e.message).toContain("unknown apiVersion/kind");
  });
  test("a NodeConfig's kubelet config with another apiVersion is refused", () => {
    const e = rejection(
      "EC2NodeClass",
      nodeConfig("kubelet:\n  config:\n    apiVersion: kubelet.config.k8s.io/v1"),
      "1.15.0",
    );
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain("spec.kubelet.config.apiVersion");
  });
  test("the right kind and apiVersion pass", () => {
    expect(() =>
      build(
        "EC2NodeClass",
        nodeConfig(
          "kubelet:\n  config:\n    kind: KubeletConfiguration\n    apiVersion: kubelet.config.k8s.io/v1beta1",
        ),
        "1.15.0",
      ),
    ).not.toThrow();
  });
});

/** An EC2NodeClass with `props` whose cluster runs Kubernetes `k8s` (undefined: not known to the construct). */
function withCluster(props: Record<string, unknown>, k8s?: string): TerraformStack {
  const { stack } = testStack();
  const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
  const cluster = k8s
    ? { ...KarpenterCluster.fromClusterName(stack, "existing", "demo"), kubernetesVersion: k8s }
    : undefined;
  new Ec2NodeClass(stack, "obj", { karpenter, ...(props as object), ...(cluster ? { cluster } : {}) } as any);
  return stack;
}

const refusal = (props: Record<string, unknown>, k8s?: string): KarpenterValidationError => {
  try {
    withCluster(props, k8s);
  } catch (e) {
    if (e instanceof KarpenterValidationError) return e;
    throw e;
  }
  throw new Error("accepted");
};

const containerdWarnings = (props: Record<string, unknown>, k8s?: string) =>
  synthWarnings(withCluster(props, k8s)).filter((w) => w.includes("containerd.config"));

/** A NodeConfig whose spec.containerd.config is `toml`, on `alias` (or `amiSelectorTerms`). */
const withContainerd = (toml: string, alias: string, extra: Record<string, unknown> = {}) =>
  nodeConfig(["containerd:", "  config: |", ...toml.split("\n").map((l) => `    ${l}`)].join("\n"), alias, extra);

describe("a containerd configuration for containerd 2 on an AMI release that ships containerd 1.7 (fresh tester SILENT-3)", () => {
  const V3 = "version = 3";
  const IMAGES = '[plugins."io.containerd.cri.v1.images"]\ndiscard_unpacked_layers = false';

  test("the facts: containerd per release and Kubernetes minor, generated from the CHANGELOG", () => {
    const c = eksAmiFacts().containerd;
    expect(c.al2023.v20250704["1.33"]).toBe("1.7.27");
    expect(c.al2023.v20251023).toMatchObject({ "1.31": "1.7.27", "1.32": "2.1.4" });
    expect(c.al2023[eksAmiFacts().newestRelease]["1.36"]).toMatch(/^2\./);
    expect(c.v3KeysRefusedOn1.since).toBe("v20250807");
    expect(c.v3KeysRefusedOn1.at).toMatch(/^nodeadm\/internal\/containerd\/config\.go:\d+$/);
  });

  test("version = 3 on al2023@v20250704 (containerd 1.7.27) is refused: containerd 1.7 exits at a version-3 file", () => {
    const e = refusal(withContainerd(V3, "al2023@v20250704"));
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain("user data for the AL2023 AMI family");
    expect(e.message).toContain("version = 3");
    expect(e.message).toContain("the AMI release v20250704 (containerd 1.7.27 for Kubernetes 1.27-1.33)");
    expect(e.message).toContain("unsupported config version `3`");
    expect(e.message).toContain("services/server/config/config.go:98-110");
  });

  test("io.containerd.cri.v1.images on al2023@v20250807 is refused: that release's nodeadm stops on containerd 1.x", () => {
    const e = refusal(withContainerd(IMAGES, "al2023@v20250807"));
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain("io.containerd.cri.v1.images (containerd 2's CRI plugins)");
    expect(e.message).toContain("failed to get config template version");
    expect(e.message).toContain("v20250807");
  });

  test("look-alikes: the same configurations pass on a release shipping containerd 2, and version-2 ones on 1.7", () => {
    for (const toml of [V3, IMAGES, `${V3}\n${IMAGES}`]) {
      expect(() => withCluster(withContainerd(toml, "al2023@v20260403"))).not.toThrow();
      expect(containerdWarnings(withContainerd(toml, "al2023@v20260403"))).toEqual([]);
      // al2023@latest: every Kubernetes minor still released ships containerd 2
      expect(containerdWarnings(withContainerd(toml, "al2023@latest"))).toEqual([]);
    }
    const v2 = 'version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd]\ndiscard_unpacked_layers = false';
    expect(() => withCluster(withContainerd(v2, "al2023@v20250807"))).not.toThrow();
    expect(containerdWarnings(withContainerd(v2, "al2023@v20250807"))).toEqual([]);
  });

  test("a release whose Kubernetes minors disagree: judged with the cluster's minor, a warning when it is unknown", () => {
    // v20251023: containerd 1.7.27 for 1.28-1.31, 2.1.4 for 1.32-1.34
    const props = withContainerd(V3, "al2023@v20251023");
    expect(refusal(props, "1.31").message).toContain(
      "the AMI release v20251023 (containerd 1.7.27 for Kubernetes 1.31)",
    );
    expect(() => withCluster(props, "1.32")).not.toThrow();
    expect(containerdWarnings(props, "1.32")).toEqual([]);
    const w = containerdWarnings(props);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("containerd 1.7.27 for Kubernetes 1.28-1.31, 2.1.4 for Kubernetes 1.32-1.34");
    expect(w[0]).toContain("on an AMI with containerd 1.x");
  });

  test("AMIs by ID, or al2023@latest on a minor whose newest AMI has containerd 1.7: one warning naming both keys", () => {
    const byId = withContainerd(`${V3}\n${IMAGES}`, "", {
      amiFamily: "AL2023",
      amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }],
    });
    expect(() => withCluster(byId)).not.toThrow();
    const w = containerdWarnings(byId);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("version = 3 and io.containerd.cri.v1.images (containerd 2's CRI plugins)");
    expect(w[0]).toContain("its AMIs by ID, name, tags or SSM parameter");
    expect(w[0]).toContain("unsupported config version `3`");
    expect(w[0]).toContain("failed to get config template version");
    const latest129 = containerdWarnings(withContainerd(V3, "al2023@latest"), "1.29");
    expect(latest129).toHaveLength(1);
    expect(latest129[0]).toContain("al2023@latest for Kubernetes 1.29 (today v20260318: containerd 1.7.29");
    expect(containerdWarnings(withContainerd(V3, "al2023@latest"), "1.30")).toEqual([]);
  });

  test("containerd 2's plugins on a release before nodeadm refuses them are ignored by containerd 1.7: a warning", () => {
    const props = withContainerd(IMAGES, "al2023@v20250704");
    expect(() => withCluster(props)).not.toThrow();
    const w = containerdWarnings(props);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("nodeadm of this release (before v20250807) lets them through");
    expect(w[0]).toContain("ignores the tables");
  });

  test("a value only one containerd major refuses is judged by the pinned release's containerd alone", () => {
    // systemd_cgroup: containerd 1.7 refuses a string, containerd 2 does not read it
    const cfg = '[plugins."io.containerd.grpc.v1.cri"]\nsystemd_cgroup = "x"';
    expect(refusal(withContainerd(cfg, "al2023@v20250704")).message).toContain(
      'plugins."io.containerd.grpc.v1.cri".systemd_cgroup = a string',
    );
    expect(() => withCluster(withContainerd(cfg, "al2023@v20260403"))).not.toThrow();
    expect(containerdWarnings(withContainerd(cfg, "al2023@v20260403"))).toEqual([]);
    // unknown AMIs: the warning names the containerd per release from the facts
    const w = containerdWarnings(
      withContainerd(cfg, "", { amiFamily: "AL2023", amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }] }),
    );
    expect(w.join("\n")).toContain("depends on the AMI's containerd");
    expect(w.join("\n")).toContain("AL2023 AMIs ship containerd 2 from");
  });
});

describe("spec.instance.environment: the service keys and variable names nodeadm writes for systemd (fresh tester SILENT-5)", () => {
  const env = (lines: string[], alias = "al2023@latest") =>
    nodeConfig(["instance:", "  environment:", ...lines.map((l) => `    ${l}`)].join("\n"), alias);
  const envWarnings = (props: Record<string, unknown>) =>
    synthWarnings(build("EC2NodeClass", props, "1.15.0")).filter((w) => w.includes("spec.instance.environment"));

  test("a key kubelet.service is warned about with a did-you-mean kubelet: the drop-in is kubelet.service.service's", () => {
    const w = envWarnings(env(["kubelet.service:", "  HTTP_PROXY: http://proxy:3128"]));
    expect(w).toHaveLength(1);
    expect(w[0]).toContain('spec.instance.environment["kubelet.service"]');
    expect(w[0]).toContain("/etc/systemd/system/kubelet.service.service.d/environment.conf");
    expect(w[0]).toContain("Did you mean kubelet?");
    expect(w[0]).toContain("environment.go");
  });

  test("keys that make no unit, another unit type, or Default: warned about", () => {
    const w = envWarnings(env(["containerd.socket:", "  A: b", '"foo/bar":', "  A: b", "Default:", "  A: b"])).join(
      "\n",
    );
    expect(w).toContain("names a unit with its .socket suffix");
    expect(w).toContain('"foo/bar.service" is no valid unit name');
    expect(w).toContain("did you mean default?");
  });

  test('a variable name with "=" is refused: systemd defines another variable', () => {
    const e = rejection("EC2NodeClass", env(["kubelet:", '  "A=B": x']), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain("user data for the AL2023 AMI family");
    expect(e.message).toContain('spec.instance.environment.kubelet["A=B"]');
    expect(e.message).toContain('the variable defined is A, set to "B=…"');
    const d = rejection("EC2NodeClass", env(["default:", '  "A=B": x']), "1.15.0");
    expect(d.message).toContain("os.Setenv refuses the name");
  });

  test("a NUL in a name is refused", () => {
    const e = rejection("EC2NodeClass", env(["default:", '  "A\\0B": x']), "1.15.0");
    expect(e.message).toContain("holds a NUL");
  });

  test("another non-POSIX name is warned about: systemd ignores the assignment", () => {
    const w = envWarnings(env(["kubelet:", "  my-var: x", "  1ABC: z"]));
    expect(w).toHaveLength(2);
    expect(w[0]).toContain("Invalid environment assignment, ignoring");
  });

  test("look-alikes pass without a word: kubelet, containerd, default, an instance unit, POSIX names", () => {
    const props = env([
      "kubelet:",
      "  HTTP_PROXY: http://proxy:3128",
      "  _no_proxy2: localhost",
      "containerd:",
      '  "A": "B=C"',
      "default:",
      "  NO_PROXY: 169.254.169.254",
      '"getty@tty1":',
      "  TERM: linux",
    ]);
    expect(() => build("EC2NodeClass", props, "1.15.0")).not.toThrow();
    expect(envWarnings(props)).toEqual([]);
  });

  test("on a release whose nodeadm does not read environment, only the field's own warning is given", () => {
    const w = envWarnings(env(["kubelet.service:", "  A: b"], "al2023@v20250704")).join("\n");
    expect(w).toContain("v20251007");
    expect(w).not.toContain("Did you mean kubelet?");
  });
});
