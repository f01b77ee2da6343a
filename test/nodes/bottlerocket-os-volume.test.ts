import { synthWarnings } from "../helpers";
import { build, Props, rejection } from "./node-props";
import { br } from "./bottlerocket-user-data";

/*
 * Fresh tester 33: Bottlerocket's OS volume below its AMI's snapshot (8.03), and max-pods in Bottlerocket user data,
 * which Karpenter always replaces (4.18).
 */

const osVolume = (volumeSize: string, alias = "bottlerocket@latest", extra: Record<string, unknown> = {}): Props => ({
  amiSelectorTerms: [{ alias }],
  blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize, volumeType: "gp3" as const, ...extra } }],
});
const volumeWarnings = (props: Props) =>
  synthWarnings(build("EC2NodeClass", props, "1.15.0")).filter((w) => w.includes("OS volume"));

describe("Bottlerocket's OS volume (/dev/xvda) against the AMI's OS snapshot", () => {
  test.each(["1Gi", "1G"])("%s, below every variant's 2 GiB OS image, is refused", (size) => {
    const e = rejection("EC2NodeClass", osVolume(size), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_EBS_VOLUME_SIZE");
    expect(e.field).toBe("blockDeviceMappings[0].ebs.volumeSize");
    expect(e.message).toContain("at least 2 GiB");
    expect(e.message).toContain("tools/buildsys/src/manifest.rs:420");
    expect(e.message).toContain("smaller than snapshot");
  });
  test("2Gi under a bottlerocket@ alias is warned about: the NVIDIA variants' OS image is 4 GiB (8.03)", () => {
    const w = volumeWarnings(osVolume("2Gi"));
    expect(w).toHaveLength(1);
    expect(w[0]).toContain('blockDeviceMappings[0].ebs.volumeSize = "2Gi"');
    expect(w[0]).toContain("NVIDIA variants");
    expect(w[0]).toContain("aws-k8s-1.31-nvidia/Cargo.toml:13");
    expect(w[0]).toContain("bottlerocket.go:185-188");
  });
  test("4Gi is warned about as below Karpenter's own 6Gi, without the NVIDIA sentence", () => {
    const w = volumeWarnings(osVolume("4Gi", "bottlerocket@v1.40.0"));
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("below Karpenter's own 6Gi");
    expect(w[0]).not.toContain("NVIDIA variants");
  });
  test.each([
    ["6Gi under an alias", osVolume("6Gi")],
    ["20Gi under an alias", osVolume("20Gi")],
    [
      "1Gi from a snapshot of the user's own",
      osVolume("1Gi", "bottlerocket@latest", { snapshotID: "snap-0123456789abcdef0" }),
    ],
    [
      "2Gi for AMIs by ID (their snapshot is not known)",
      {
        amiFamily: "Bottlerocket",
        amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }],
        blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: "2Gi" } }],
      },
    ],
    [
      "/dev/xvdb, the data volume, at 2Gi",
      {
        amiSelectorTerms: [{ alias: "bottlerocket@latest" }],
        blockDeviceMappings: [{ deviceName: "/dev/xvdb", ebs: { volumeSize: "2Gi" } }],
      },
    ],
  ])("look-alike: %s passes without a word", (_, props) => {
    expect(volumeWarnings(props as Props)).toEqual([]);
  });
});

describe("max-pods in Bottlerocket user data: Karpenter always writes its own", () => {
  test("is warned about, naming the line and the class's kubelet.maxPods (4.18)", () => {
    const w = synthWarnings(build("EC2NodeClass", br("[settings.kubernetes]\nmax-pods = 110\n"), "1.15.0"));
    expect(w).toContainEqual(
      expect.stringMatching(
        /userData: line 2: settings\.kubernetes\.max-pods is replaced: .*resolver\.go:375-395.*Set kubelet\.maxPods on the EC2NodeClass instead/,
      ),
    );
  });
  test("look-alike: kubelet.maxPods on the class and another setting in user data pass quietly", () => {
    const w = synthWarnings(
      build(
        "EC2NodeClass",
        br('[settings.kubernetes]\nimage-gc-high-threshold-percent = "85"\n', { maxPods: 110 }),
        "1.15.0",
      ),
    );
    expect(w.filter((x) => x.includes("max-pods"))).toEqual([]);
  });
});
