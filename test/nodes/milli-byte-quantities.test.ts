import { synthWarnings } from "../helpers";
import { build, rejection } from "./node-props";

/*
 * A byte quantity with the milli suffix (memory "100m": a tenth of a byte) is a typo on every path (R26 X26): the
 * class's kubelet refuses it, a NodeConfig's kubelet config and flags and Bottlerocket's settings warn (the kubelet
 * takes the quantity, so nothing fails at runtime to refuse it for).
 */

const nodeConfig = (kubelet: string) => ({
  amiSelectorTerms: [{ alias: "al2023@latest" }],
  userData: `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n${kubelet
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n")}\n`,
});
const warnings = (props: Record<string, unknown>) => synthWarnings(build("EC2NodeClass", props, "1.15.0")).join("\n");

test("the class's kubelet: refused", () => {
  const e = rejection(
    "EC2NodeClass",
    { amiSelectorTerms: [{ alias: "al2023@latest" }], kubelet: { systemReserved: { memory: "100m" } } },
    "1.15.0",
  );
  expect(e.code).toBe("EC2NODECLASS_KUBELET_QUANTITY_SUFFIX");
});

test("a NodeConfig's kubelet config and its --system-reserved flag: warned, naming the map and key", () => {
  expect(warnings(nodeConfig("config:\n  systemReserved:\n    memory: 100m"))).toContain(
    'kubelet.systemReserved["memory"] = "100m": the suffix "m" means thousandths',
  );
  expect(warnings(nodeConfig("flags:\n  - --kube-reserved=memory=250m"))).toContain(
    'kubelet.kubeReserved["memory"] = "250m"',
  );
  expect(warnings(nodeConfig("config:\n  evictionHard:\n    memory.available: 500m"))).toContain(
    'kubelet.evictionHard["memory.available"] = "500m"',
  );
});

test("Bottlerocket settings: warned, naming the setting and line", () => {
  const w = warnings({
    amiSelectorTerms: [{ alias: "bottlerocket@latest" }],
    userData: '[settings.kubernetes.system-reserved]\nmemory = "100m"\ncpu = "100m"\n',
  });
  expect(w).toContain('line 2: settings.kubernetes.system-reserved.memory = "100m"');
  expect(w).not.toContain("system-reserved.cpu");
});

test("look-alikes pass without a word: 100Mi memory, 100m CPU", () => {
  expect(warnings(nodeConfig("config:\n  systemReserved:\n    memory: 100Mi\n    cpu: 100m"))).not.toContain(
    "thousandths",
  );
  expect(
    warnings({
      amiSelectorTerms: [{ alias: "bottlerocket@latest" }],
      userData: '[settings.kubernetes.system-reserved]\nmemory = "100Mi"\ncpu = "100m"\n',
    }),
  ).not.toContain("thousandths");
});
