import { Construct } from "constructs";
import { KarpenterValidationError } from "../../lib/core/errors";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodeOverlay, NodeOverlayProps } from "../../lib/nodes/node-overlay";
import { NodePool, NodePoolProps } from "../../lib/nodes/node-pool";
import { FakeInstallation, testStack } from "../helpers";
import { build, Props, rejection, req } from "./node-props";

/*
 * The fifth fresh tester's findings (fresh5-report.md): a negative soft eviction grace period, a template label
 * kubernetes.io/os against the class's AMIs, base64 AL2023 user data, numeric requirements below any instance's
 * value, instance-local-nvme "0", a karpenter.sh/nodepool value no NodePool can have, a kubernetes.io/ limit, and
 * props whose own getters throw. Each invalid input has a valid look-alike. (test/nodes/node-props builds in us-east-1.)
 */

const ag = require("../../scripts/e2e/agreement.cjs");

const warningsOf = (c: Construct): string[] =>
  c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));

class OverlayInstallation extends FakeInstallation {
  public readonly nodeOverlayGate = true;
}

function overlay(props: Partial<NodeOverlayProps>): KarpenterValidationError | undefined {
  const { stack } = testStack();
  const karpenter = new OverlayInstallation(stack, "karpenter", "1.15.0");
  try {
    new NodeOverlay(stack, "ov", { karpenter, ...props } as NodeOverlayProps);
  } catch (e) {
    if (e instanceof KarpenterValidationError) return e;
    throw e;
  }
  return undefined;
}

describe("K9: kubelet evictionSoftGracePeriod must not be negative", () => {
  const kubelet = (grace: string) =>
    ({
      kubelet: { evictionSoft: { "memory.available": "10%" }, evictionSoftGracePeriod: { "memory.available": grace } },
    }) as Props;
  test.each(["1.14.1", "1.15.0"])('"-1m" is refused on %s', (version) => {
    const e = rejection("EC2NodeClass", kubelet("-1m"), version);
    expect(e.code).toBe("EC2NODECLASS_KUBELET_EVICTION");
    expect(e.field).toBe('kubelet.evictionSoftGracePeriod["memory.available"]');
    expect(e.message).toContain("must be a positive value");
    expect(ag.semanticRuleOf(e, version)?.id).toBe("kubelet-grace-period-sign");
  });
  test('look-alikes: "1m", "0s" and "-0s" (zero)', () => {
    for (const grace of ["1m", "0s", "-0s"]) expect(() => build("EC2NodeClass", kubelet(grace))).not.toThrow();
  });
});

describe("L2: a template label kubernetes.io/os against the class's AMIs", () => {
  const poolWarnings = (labels: { [k: string]: string }, alias = "al2023@latest") => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const nodeClass = new Ec2NodeClass(stack, "nc", { karpenter, name: "cls", amiSelectorTerms: [{ alias }] });
    const pool = new NodePool(stack, "pool", { karpenter, nodeClass, labels });
    return warningsOf(pool).filter((w) => w.includes("AMIs"));
  };
  test("kubernetes.io/os: windows on an AL2023 class warns as the requirement does", () => {
    expect(poolWarnings({ "kubernetes.io/os": "windows" })).toEqual([
      expect.stringMatching(
        /^NodePool pool has the template label kubernetes\.io\/os: "windows" .* uses al2023 AMIs, which are linux: no node can satisfy both/,
      ),
    ]);
  });
  test("look-alikes: linux on AL2023, windows on a Windows class", () => {
    expect(poolWarnings({ "kubernetes.io/os": "linux" })).toEqual([]);
    expect(poolWarnings({ "kubernetes.io/os": "windows" }, "windows2022@latest")).toEqual([]);
  });
});

describe("U5: AL2023 user data written base64-encoded", () => {
  const nodeConfig = "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec: {}\n";
  test("a base64 NodeConfig is refused", () => {
    const e = rejection("EC2NodeClass", { userData: Buffer.from(nodeConfig).toString("base64") });
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain("a NodeConfig in base64");
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("user-data-format");
  });
  test("look-alikes: the NodeConfig as written, a script, a base64 word that decodes to nothing readable", () => {
    expect(() => build("EC2NodeClass", { userData: nodeConfig })).not.toThrow();
    expect(() => build("EC2NodeClass", { userData: "#!/bin/bash\necho hi\n" })).not.toThrow();
    // a word alone is no script cloud-init can execute (no "#!"): refused for that, not taken for base64
    expect(rejection("EC2NodeClass", { userData: "SGVsbG9Xb3JsZFRoaXNJc0ZpbmU=" }).message).not.toContain("in base64");
    expect(() => build("EC2NodeClass", { userData: "#!/bin/sh\necho SGVsbG9Xb3JsZFRoaXNJc0ZpbmU=\n" })).not.toThrow();
  });
});

describe("L29 / L27 / L30: numeric requirements below every instance's value", () => {
  test.each([
    ["karpenter.k8s.aws/instance-cpu", "Lte", "0"],
    ["karpenter.k8s.aws/instance-cpu", "Lt", "1"],
    ["karpenter.k8s.aws/instance-memory", "Lt", "1"],
    ["karpenter.k8s.aws/instance-generation", "Lt", "0"],
    ["karpenter.k8s.aws/instance-gpu-count", "Lt", "0"],
    ["karpenter.k8s.aws/instance-local-nvme", "In", "0"],
  ])("%s %s %s is refused", (key, op, value) => {
    const e = rejection("NodePool", { requirements: [req(key, op, [value])] });
    expect(e.code).toBe("NODE_REQUIREMENT_UNSATISFIABLE");
    expect(e.message).toContain("or more:");
    expect(ag.semanticRuleOf(e, "1.14.1")?.id).toBe("unsatisfiable-requirements");
  });
  test('a template label instance-local-nvme "0" is refused', () => {
    const e = rejection("NodePool", { labels: { "karpenter.k8s.aws/instance-local-nvme": "0" } });
    expect(e.code).toBe("NODE_REQUIREMENT_UNSATISFIABLE");
    expect(e.field).toBe('labels["karpenter.k8s.aws/instance-local-nvme"]');
  });
  test("a NodeOverlay instance-generation Lt 0 is refused", () => {
    const e = overlay({ requirements: [req("karpenter.k8s.aws/instance-generation", "Lt", ["0"])] });
    expect(e?.code).toBe("NODE_REQUIREMENT_UNSATISFIABLE");
    expect(e?.message).toContain("changes nothing");
  });
  test("look-alikes: cpu Lte 1, gpu-count Lt 1, generation Gt 5, local-nvme Gt 0 and In 100", () => {
    expect(() =>
      build("NodePool", {
        requirements: [
          req("karpenter.k8s.aws/instance-cpu", "Lte", ["1"]),
          req("karpenter.k8s.aws/instance-gpu-count", "Lt", ["1"]),
          req("karpenter.k8s.aws/instance-generation", "Gt", ["5"]),
          req("karpenter.k8s.aws/instance-local-nvme", "Gt", ["0"]),
        ],
      }),
    ).not.toThrow();
    expect(() => build("NodePool", { labels: { "karpenter.k8s.aws/instance-local-nvme": "100" } })).not.toThrow();
    expect(overlay({ requirements: [req("karpenter.k8s.aws/instance-generation", "Lt", ["6"])] })).toBeUndefined();
  });
});

describe("L19: karpenter.sh/nodepool values no NodePool can have", () => {
  test('a NodeOverlay requirement In ["Default"] is refused, suggesting "default"', () => {
    const e = overlay({ requirements: [req("karpenter.sh/nodepool", "In", ["Default"])] });
    expect(e?.code).toBe("NODE_REQUIREMENT_VALUE_UNKNOWN");
    expect(e?.field).toBe("requirements[0].values[0]");
    expect(e?.message).toContain('write "default"');
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("well-known-label-value");
  });
  test("look-alikes: In [default], NotIn [Default]", () => {
    expect(overlay({ requirements: [req("karpenter.sh/nodepool", "In", ["default"])] })).toBeUndefined();
    expect(overlay({ requirements: [req("karpenter.sh/nodepool", "NotIn", ["Default"])] })).toBeUndefined();
  });
});

describe("Q3: a limit in the kubernetes.io/ namespace", () => {
  const limitWarnings = (limits: { [k: string]: string }) => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const pool = new NodePool(stack, "pool", { karpenter, nodeClass: { name: "default" }, limits });
    return warningsOf(pool).filter((w) => w.includes("limits["));
  };
  test("kubernetes.io/batteries warns like a resource no node has", () => {
    expect(limitWarnings({ "kubernetes.io/batteries": "1" })).toEqual([
      expect.stringContaining(
        'limits["kubernetes.io/batteries"] names no resource a node has (a name in the kubernetes.io/',
      ),
    ]);
    expect(limitWarnings({ "kubernetes.io/cpu": "1" })).toEqual([expect.stringContaining("did you mean cpu?")]);
  });
  test("look-alikes: cpu, nvidia.com/gpu, example.com/batteries", () => {
    expect(limitWarnings({ cpu: "100", "nvidia.com/gpu": "4", "example.com/batteries": "1" })).toEqual([]);
  });
});

describe("C23: props whose own getters throw", () => {
  const nodePool = (props: object) => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const nodeClass = new Ec2NodeClass(stack, "nc", { karpenter });
    const made = typeof props === "function" ? (props as (nc: Ec2NodeClass) => object)(nodeClass) : props;
    try {
      new NodePool(stack, "pool", made as NodePoolProps);
    } catch (e) {
      return e;
    }
    return undefined;
  };
  test("Object.create of a Proxy that throws on every prop but nodeClass", () => {
    const e = nodePool(((nc: Ec2NodeClass) =>
      Object.create(
        new Proxy(
          {},
          {
            get(_t, p) {
              if (p === "nodeClass") return nc;
              throw new Error(`boom-${String(p)}`);
            },
          },
        ),
      )) as unknown as object) as KarpenterValidationError;
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect(e.code).toBe("NODE_VALUE_UNREADABLE");
    expect(e.message).toContain("boom-");
  });
  test("a props object with a throwing getter", () => {
    const e = nodePool(((nc: Ec2NodeClass) => ({
      nodeClass: nc,
      get weight(): number {
        throw new Error("boom-weight");
      },
    })) as unknown as object) as KarpenterValidationError;
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect(e.code).toBe("NODE_VALUE_UNREADABLE");
    expect(e.field).toBe("weight");
  });
  test("look-alike: a getter that returns a value", () => {
    expect(
      nodePool(((nc: Ec2NodeClass) => ({
        nodeClass: nc,
        get weight(): number {
          return 5;
        },
      })) as unknown as object),
    ).toBeUndefined();
  });
});
