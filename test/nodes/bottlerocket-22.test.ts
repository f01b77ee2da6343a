import { synthWarnings } from "../helpers";
import { build, rejection } from "./node-props";

/*
 * Bottlerocket TOML user data (fresh tester 22 S-4, S-5; lib/nodes/user-data-rules.ts). S-4: Karpenter keeps the user
 * data's [settings.kubernetes.node-labels] (bottlerocket.go:47 merges its own, RejectForbiddenLabels-filtered, over
 * them), Bottlerocket's settings model (KubernetesLabelKey / KubernetesLabelValue) checks their syntax at boot, and the
 * kubelet refuses a kubernetes.io / k8s.io key it may not set (the same kubeletRefusesNodeLabel a NodeConfig's
 * --node-labels flag is held to). S-5: Karpenter replaces [settings.kubernetes.node-taints] with the NodeClaim's
 * taints (bottlerocket.go:94-97): the user data's never reach the node, a warning naming a bad effect.
 */

const br = (userData: string) => ({ amiSelectorTerms: [{ alias: "bottlerocket@latest" }], userData });

function warnings(props: Record<string, unknown>, version?: string): string[] {
  return synthWarnings(build("EC2NodeClass", props, version)).filter((w) => w.includes("userData"));
}

describe("S-4: node labels in Bottlerocket user data", () => {
  test.each([
    ['"kubernetes.io/role" = "gpu"', "kubernetes.io/role"],
    ['"node-role.kubernetes.io/gpu" = ""', "node-role.kubernetes.io/gpu"],
    ['"k8s.io/team" = "a"', "k8s.io/team"],
  ])("the kubelet refuses %s, which Karpenter and Bottlerocket's model take", (line, key) => {
    const userData = `[settings.kubernetes]\nmax-pods = 110\n[settings.kubernetes.node-labels]\n${line}\n`;
    const e = rejection("EC2NodeClass", br(userData), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.field).toBe("userData");
    expect(e.value).toBe(`line 4: ${line}`);
    expect(e.message).toContain(
      `settings.kubernetes.node-labels.${JSON.stringify(key)} as a label key the kubelet may set on its own node`,
    );
    expect(e.message).toContain(
      "Bottlerocket passes node-labels on to the kubelet's --node-labels, but the kubelet refuses to start with \"unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels\"",
    );
    expect(e.message).toContain("cmd/kubelet/app/options/options.go:150-187");
    expect(e.message).toContain("RejectForbiddenLabels");
  });

  test("an upper-case prefix: Bottlerocket's model takes it, the kubelet's IsQualifiedName does not", () => {
    const e = rejection("EC2NodeClass", br('[settings.kubernetes.node-labels]\n"Example.com/team" = "a"\n'), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.value).toBe('line 2: "Example.com/team" = "a"');
    expect(e.message).toContain("invalid node labels: 'Example.com/team' - prefix part a lowercase RFC 1123 subdomain");
    expect(e.message).toContain('"example.com/team"');
  });

  test.each([
    ['"team" = "a b"', "a label value (empty, or up to 63", "KubernetesLabelValue"],
    ['"team" = "gpu-"', "a label value", '"gpu-"'],
    ['"-team" = "a"', "a label key (an optional DNS prefix", "KubernetesLabelKey"],
  ])("Bottlerocket's settings model refuses %s", (line, want, part) => {
    const e = rejection("EC2NodeClass", br(`[settings.kubernetes.node-labels]\n${line}\n`), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.field).toBe("userData");
    expect(e.value).toBe(`line 2: ${line}`);
    expect(e.message).toContain(want);
    expect(e.message).toContain(part);
    expect(e.message).toContain("Bottlerocket itself refuses the settings at boot");
    expect(e.message).toContain(
      "bottlerocket-settings-sdk@25e4241f bottlerocket-settings-models/modeled-types/src/kubernetes.rs",
    );
  });

  test("look-alikes pass: node.kubernetes.io/role, a key of your own, the kubelet's own labels, an empty value", () => {
    const u =
      '[settings.kubernetes.node-labels]\n"node.kubernetes.io/role" = "gpu"\n"team" = "a"\n"example.com/team" = ""\n"kubernetes.io/arch" = "amd64"\n"kubelet.kubernetes.io/x" = "y"\n';
    expect(() => build("EC2NodeClass", br(u), "1.15.0")).not.toThrow();
    expect(warnings(br(u), "1.15.0")).toEqual([]);
  });

  test("a value of the wrong type is Karpenter's decode error, reported once", () => {
    const e = rejection("EC2NodeClass", br('[settings.kubernetes.node-labels]\n"kubernetes.io/role" = 1\n'), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.message).toContain('"invalid UserData"');
  });
});

describe("S-5: node taints in Bottlerocket user data are replaced by Karpenter: a warning", () => {
  test("a bad effect: warned as dropped, naming the effect the kubelet would refuse", () => {
    const u = '[settings.kubernetes.node-taints]\n"gpu" = ["true:NoScheduled"]\n';
    expect(() => build("EC2NodeClass", br(u), "1.15.0")).not.toThrow();
    const w = warnings(br(u), "1.15.0");
    expect(w).toHaveLength(1);
    expect(w[0]).toContain(
      "userData: line 1: settings.kubernetes.node-taints is replaced by Karpenter with the NodeClaim's taints",
    );
    expect(w[0]).toContain("bottlerocket.go:94-97");
    expect(w[0]).toContain('the kubelet would refuse "gpu" = "true:NoScheduled"');
    expect(w[0]).toContain("NoSchedule, PreferNoSchedule, NoExecute");
    expect(w[0]).toContain("spec.template.spec.taints");
  });

  test("a valid taint is dropped too: warned, without an effect note", () => {
    const w = warnings(
      br(
        '[settings.kubernetes]\nimage-gc-high-threshold-percent = "85"\n[settings.kubernetes.node-taints]\n"gpu" = ["true:NoSchedule"]\n',
      ),
      "1.15.0",
    );
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("line 3: settings.kubernetes.node-taints is replaced by Karpenter");
    expect(w[0]).not.toContain("would refuse");
  });

  test("no node-taints, no warning", () => {
    expect(warnings(br('[settings.kubernetes.node-labels]\n"team" = "a"\n'), "1.15.0")).toEqual([]);
  });
});
