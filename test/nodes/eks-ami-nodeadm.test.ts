import { synthWarnings } from "../helpers";
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
  test("a gate value newer than the pinned release (FastImagePull, v20250819) is warned about", () => {
    const w = warnings(nodeConfig("featureGates:\n  FastImagePull: true", "al2023@v20250103"));
    expect(w).toContain("spec.featureGates.FastImagePull is read by the nodeadm of AL2023 AMIs released v20250819");
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
  test("a release, latest, and a date after the newest known release pass without a word", () => {
    for (const alias of ["al2023@v20250704", "al2023@latest", "al2@v20250103", "al2023@v20991231"])
      expect(pinned(alias)).not.toContain("names no EKS AMI release");
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
