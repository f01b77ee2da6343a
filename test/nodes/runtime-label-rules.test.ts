import { FakeInstallation, rejected, testStack } from "../helpers";
import { NodePool, NodePoolProps } from "../../lib/nodes/node-pool";
import { resolveKarpenterVersion } from "../../lib/versions/karpenter-version";
import { runtimeRestrictedLabelProblem } from "../../lib/nodes/runtime-label-rules";

/*
 * Karpenter's runtime validation of NodePool label keys (lib/nodes/runtime-label-rules.ts,
 * kubernetes-sigs/karpenter IsRestrictedLabel per release): what the CRD accepts and the controller
 * refuses. Each invalid key has a valid look-alike that passes.
 */

function pool(version: string, props: Partial<NodePoolProps>): NodePool {
  const { stack } = testStack();
  return new NodePool(stack, "pool", {
    karpenter: new FakeInstallation(stack, "karpenter", version),
    nodeClass: { name: "default" },
    ...props,
  });
}

const RUNTIME =
  /Karpenter [\d.]+'s runtime validation of the NodePool \(IsRestrictedLabel, kubernetes-sigs\/karpenter pkg\/apis\/v1\/labels\.go\) refuses it/;

describe("before 1.9: deprecated beta keys", () => {
  test.each([
    ["beta.kubernetes.io/arch", "kubernetes.io/arch", "amd64"],
    ["beta.kubernetes.io/os", "kubernetes.io/os", "linux"],
    ["beta.kubernetes.io/instance-type", "node.kubernetes.io/instance-type", "m5.large"],
    ["failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone", "us-east-1a"],
    ["failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region", "us-east-1"],
  ])("a template label %s is refused (the CRD allows it), with the stable key to use", (key, stable, value) => {
    const e = rejected(() => pool("1.8.8", { labels: { [key]: value } }));
    expect(e.problems).toHaveLength(1);
    expect(e.field).toBe(`labels["${key}"]`);
    expect(e.message).toMatch(RUNTIME);
    expect(e.message).toContain(`use the stable key ${stable}`);
    // look-alikes: the stable key as a label, and the deprecated key as a requirement (normalized)
    expect(() => pool("1.8.8", { labels: { [stable]: value } })).not.toThrow();
    expect(() => pool("1.8.8", { requirements: [{ key, operator: "Exists" }] })).not.toThrow();
  });
  test("from 1.9 the kubernetes.io domain is open: the same label passes", () => {
    expect(() => pool("1.9.2", { labels: { "beta.kubernetes.io/arch": "amd64" } })).not.toThrow();
  });
});

describe("karpenter.k8s.aws/ec2nodeclass", () => {
  test.each(["1.1.10", "1.8.8", "1.14.1", "1.15.0"])(
    "is refused in labels and requirements on %s (the CRD allows it; no well-known label of the AWS provider)",
    (version) => {
      const e = rejected(() =>
        pool(version, {
          labels: { "karpenter.k8s.aws/ec2nodeclass": "default" },
          requirements: [{ key: "karpenter.k8s.aws/ec2nodeclass", operator: "In", values: ["default"] }],
        }),
      );
      expect(e.problems.map((p) => p.field).sort()).toEqual([
        'labels["karpenter.k8s.aws/ec2nodeclass"]',
        "requirements[0].key",
      ]);
      for (const p of e.problems) {
        expect(p.message).toMatch(RUNTIME);
        expect(p.message).toContain("Karpenter sets karpenter.k8s.aws/ec2nodeclass on every node");
      }
    },
  );
  test("look-alikes pass: a well-known key of the domain, and the same name in a domain of one's own", () => {
    expect(() =>
      pool("1.14.1", {
        labels: { "example.com/ec2nodeclass": "default" },
        requirements: [{ key: "karpenter.k8s.aws/instance-family", operator: "In", values: ["m5"] }],
      }),
    ).not.toThrow();
  });
});

describe("the rule per release, as upstream's IsRestrictedLabel", () => {
  const v = (s: string) => resolveKarpenterVersion("test", s);
  test.each([
    // before 1.9: kubernetes.io and k8s.io restricted, with the exception domains (string suffixes)
    ["1.8.8", "node-role.kubernetes.io/worker", "label", true],
    ["1.8.8", "kubernetes.io/role", "label", true],
    ["1.8.8", "example.k8s.io/x", "requirement", true],
    ["1.8.8", "mykubernetes.io/x", "label", true],
    ["1.8.8", "node.kubernetes.io/role", "label", false],
    ["1.8.8", "team.node-restriction.kubernetes.io/x", "label", false],
    ["1.8.8", "kops.k8s.io/instancegroup", "label", false],
    ["1.8.8", "topology.k8s.aws/zone-id", "requirement", false],
    ["1.8.8", "beta.kubernetes.io/arch", "requirement", false],
    ["1.8.8", "team", "label", false],
    ["1.8.8", "kubernetes.io/hostname", "requirement", true],
    // from 1.9: only karpenter.sh and karpenter.k8s.aws (exact or a "." suffix), and the hostname
    ["1.9.2", "node-role.kubernetes.io/worker", "label", false],
    ["1.9.2", "example.k8s.io/x", "requirement", false],
    ["1.9.2", "kubernetes.io/hostname", "label", true],
    ["1.9.2", "team.karpenter.sh/x", "label", true],
    ["1.9.2", "notkarpenter.sh/x", "label", false],
    ["1.9.2", "karpenter.sh/capacity-type", "requirement", false],
    ["1.0.14", "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz", "requirement", true],
    ["1.1.10", "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz", "requirement", false],
  ] as const)("Karpenter %s: %s as a %s is refused: %s", (minor, key, use, refused) => {
    expect(runtimeRestrictedLabelProblem(key, v(minor), use) !== undefined).toBe(refused);
  });
});

describe("kubernetes.io and k8s.io keys by release", () => {
  test("before 1.9 the CRD refuses node-role.kubernetes.io/worker (one problem, the CRD's); from 1.9 Karpenter accepts it and so does the library", () => {
    const e = rejected(() => pool("1.8.8", { labels: { "node-role.kubernetes.io/worker": "" } }));
    expect(e.problems).toHaveLength(1);
    expect(e.message).toContain('label domain "kubernetes.io" is restricted before Karpenter 1.9');
    for (const version of ["1.9.2", "1.14.1", "1.15.0"]) {
      expect(() =>
        pool(version, {
          labels: { "node-role.kubernetes.io/worker": "", "kubernetes.io/role": "worker" },
          requirements: [{ key: "example.k8s.io/tier", operator: "Exists" }],
        }),
      ).not.toThrow();
    }
  });
  test("the message names the key, the release, the upstream rule and what to write", () => {
    const e = rejected(() => pool("1.8.8", { labels: { "beta.kubernetes.io/os": "linux" } }));
    expect(e.message).toBe(
      'test/pool: labels["beta.kubernetes.io/os"] = "linux" is invalid: the key "beta.kubernetes.io/os" is refused by Karpenter at runtime: "beta.kubernetes.io/os" is in the restricted label domain kubernetes.io and no well-known label: Karpenter 1.8.8\'s runtime validation of the NodePool (IsRestrictedLabel, kubernetes-sigs/karpenter pkg/apis/v1/labels.go) refuses it, so the NodePool\'s ValidationSucceeded condition is False and it launches no node; the API server accepts it. Instead, use the stable key kubernetes.io/os (Karpenter normalizes the deprecated key only in requirements, not in template labels) [NODE_LABEL_KEY_RUNTIME]',
    );
  });
});
