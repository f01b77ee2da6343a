import { synthWarnings } from "../helpers";
import { kubeletFlagProblems } from "../../lib/nodes/kubelet-flag-rules";
import { parseIpSloppy } from "../../lib/nodes/kubelet-node-ip";
import { build, rejection } from "./node-props";

/*
 * `--node-ip` in an AL2023 NodeConfig's kubelet flags (fresh tester SILENT-4): the kubelet reads it with
 * ParseNodeIPArgument (k8s.io/component-helpers v0.36.3 node/util/ips.go:33-75) and exits on more than one address of
 * a family; it drops what it cannot read with a log line, and refuses loopback / multicast / link-local addresses at
 * each node status update.
 */

const nodeConfig = (...flags: string[]) => ({
  amiSelectorTerms: [{ alias: "al2023@latest" }],
  userData: `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    flags:\n${flags.map((f) => `      - ${JSON.stringify(f)}`).join("\n")}\n`,
});
const warnings = (...flags: string[]) =>
  synthWarnings(build("EC2NodeClass", nodeConfig(...flags), "1.15.0")).join("\n");

describe("--node-ip the kubelet exits on", () => {
  test.each([
    ["--node-ip=10.0.0.1,10.0.0.2", "must contain either a single IP or a dual-stack pair of IPs"],
    ["--node-ip=fd00::1,fd00::2", "must contain either a single IP or a dual-stack pair of IPs"],
    ["--node-ip=10.0.0.1,fd00::1,10.0.0.2", "must contain either a single IP or a dual-stack pair of IPs"],
    ["--node-ip=0.0.0.0,fd00::1", "dual-stack node IP cannot include '0.0.0.0' or '::'"],
    ["--node-ip=10.0.0.1,::", "dual-stack node IP cannot include '0.0.0.0' or '::'"],
  ])("%s is refused (%s)", (flag, why) => {
    const e = rejection("EC2NodeClass", nodeConfig(flag), "1.15.0");
    expect(e.message).toContain(`bad --node-ip "${flag.slice("--node-ip=".length)}": ${why}`);
    expect(e.message).toContain("spec.kubelet.flags[0]");
    expect(e.message).toContain("node/util/ips.go:33-75");
    expect(e.message).toContain("user data for the AL2023 AMI family");
  });
  test("the split form --node-ip <value> and a repeated flag (the last wins) are read the same way", () => {
    expect(rejection("EC2NodeClass", nodeConfig("--node-ip", "10.0.0.1,10.0.0.2"), "1.15.0").message).toContain(
      "bad --node-ip",
    );
    expect(() =>
      build("EC2NodeClass", nodeConfig("--node-ip=1.1.1.1,2.2.2.2", "--node-ip=10.0.0.1"), "1.15.0"),
    ).not.toThrow();
  });
});

describe("--node-ip the kubelet accepts and ignores in part or in full", () => {
  test("an address it cannot read: dropped with a log line, and with none left the node has no node IP", () => {
    const w = warnings("--node-ip=abc");
    expect(w).toContain('spec.kubelet.flags[0] sets --node-ip=abc: the kubelet reads no IP address in "abc"');
    expect(w).toContain("runs with no node IP at all");
  });
  test("one readable address and one not: the unreadable one is named, the kubelet keeps the other", () => {
    const w = warnings("--node-ip=10.0.0.1,10.0.0.300");
    expect(w).toContain('reads no IP address in "10.0.0.300"');
    expect(w).not.toContain("runs with no node IP at all");
  });
  test.each([
    ["127.0.0.1", "loopback address"],
    ["::1", "loopback address"],
    ["224.0.0.1", "a multicast address"],
    ["169.254.1.1", "a link-local unicast address"],
    ["fe80::1", "a link-local unicast address"],
  ])("%s: the kubelet refuses it as the node's address at each status update (%s)", (ip, what) => {
    const w = warnings(`--node-ip=${ip}`);
    expect(w).toContain(`nodeIP can't be ${what}`);
    expect(w).toContain("validateNodeIP");
  });
  test.each([
    ["--node-ip=10.0.0.1", "10.0.0.1"],
    ["--node-ip=010.000.000.001", "010.000.000.001"],
    ["--node-ip=fd00::1", "fd00::1"],
    ["--node-ip=10.0.0.1,fd00::1", "10.0.0.1 / fd00::1"],
  ])(
    "a fixed address, %s, is the same on every instance of the class: warned about (fresh tester 32 review)",
    (flag, shown) => {
      const w = warnings(flag);
      expect(w).toContain("every instance this EC2NodeClass launches gets the same address");
      expect(w).toContain(`on every instance that does not hold ${shown}`);
      expect(w).toContain("not found in the host's network interfaces");
    },
  );
  test.each([["--node-ip=0.0.0.0"], ["--node-ip=::"], ["--node-ip="]])(
    "valid look-alike %s passes without a --node-ip word",
    (flag) => {
      expect(warnings(flag)).not.toContain("--node-ip");
    },
  );
});

describe("the flags' parse exposes each flag's last value", () => {
  test("--cloud-provider and --node-ip are read from the parse, the last one winning", () => {
    const { flags } = kubeletFlagProblems([
      "--cloud_provider aws",
      "--cloud-provider=external",
      "--node-ip",
      "10.0.0.1",
    ]);
    expect(flags.get("cloud-provider")).toEqual({ value: "external", index: 1 });
    expect(flags.get("node-ip")).toEqual({ value: "10.0.0.1", index: 3 });
  });
  test("a later --cloud-provider=external replaces an in-tree one: no refusal; the reverse is refused", () => {
    expect(() =>
      build("EC2NodeClass", nodeConfig("--cloud-provider=aws", "--cloud-provider=external"), "1.15.0"),
    ).not.toThrow();
    expect(
      rejection("EC2NodeClass", nodeConfig("--cloud-provider=external", "--cloud-provider=aws"), "1.15.0").message,
    ).toContain('spec.kubelet.flags[1] sets --cloud-provider to "aws"');
  });
});

describe("ParseIPSloppy", () => {
  test.each([
    ["10.0.0.1", true],
    ["010.0.0.1", true],
    ["256.0.0.1", false],
    ["1.2.3", false],
    ["::", true],
    ["1::2::3", false],
    ["fe80::1%eth0", false],
    ["::ffff:1.2.3.4", true],
    ["1:2:3:4:5:6:7:8", true],
    ["1:2:3:4:5:6:7:8:9", false],
    ["[::1]", false],
    ["abc", false],
  ])("%s reads as an IP: %s", (ip, ok) => {
    expect(parseIpSloppy(ip) !== undefined).toBe(ok);
  });
});
