import { generate, kubeletMinors, MODULES, render, specAt, TABLE_FILE } from "../../scripts/kubelet-feature-gates";
import { kubeletFeatureGates, kubeletGate, kubeletGateMinors } from "../../lib/versions";
import { generatedTableTest } from "./go-module-table";

/*
 * The committed table of the kubelet's feature gates per Kubernetes minor (lib/versions/data/kubelet-feature-gates.json)
 * is what the script generates from the Go module cache. Without Go or the modules (no proxy), the test says SKIP and
 * names them.
 */

describe("kubelet-feature-gates.json", () => {
  generatedTableTest({
    file: TABLE_FILE,
    script: "scripts/kubelet-feature-gates.ts (npm run kubelet-gates)",
    modules: `the Go modules k8s.io/kubernetes@${Object.values(MODULES).join(", @")} and their staging modules (k8s.io/apiserver, k8s.io/component-base, … at v0.<minor>.<patch>)`,
    generate,
    render,
  });

  test("covers every Kubernetes minor of a Karpenter minor with a free-form kubelet (1.15: 1.31-1.37), one module each", () => {
    expect(kubeletMinors()).toEqual(["1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37"]);
    expect(kubeletGateMinors()).toEqual(kubeletMinors());
    const t = kubeletFeatureGates("1.36")!;
    expect(t.module).toBe("k8s.io/kubernetes@v1.36.3");
    expect(t.assumption).toMatch(/every other 1\.36 patch is assumed/);
    expect(t.sources.map((s) => s.set)).toEqual([
      "Kubernetes",
      "generic apiserver",
      "apiextensions-apiserver",
      "client-go",
      "component-base zpages",
      "component-base logs",
      "component-base metrics",
      "featuregate AllAlpha/AllBeta",
    ]);
    expect(t.sources.find((s) => s.set === "component-base logs")!.registeredBy).toMatch(
      /^k8s\.io\/kubernetes@v1\.36\.3 cmd\/kubelet\/app\/server\.go:\d+$/,
    );
    expect(kubeletFeatureGates("1.30")).toBeUndefined();
  });

  test("gates at their minor: stage, default, lock", () => {
    expect(kubeletGate("1.31", "CustomCPUCFSQuotaPeriod")).toEqual({ stage: "Alpha", default: false, locked: false });
    expect(kubeletGate("1.36", "CustomCPUCFSQuotaPeriod")).toEqual({ stage: "GA", default: true, locked: false });
    expect(kubeletGate("1.31", "KubeletCrashLoopBackOffMax")).toBeUndefined();
    expect(kubeletGate("1.35", "KubeletCrashLoopBackOffMax")).toEqual({ stage: "Beta", default: true, locked: false });
    expect(kubeletGate("1.34", "NodeSwap")).toEqual({ stage: "GA", default: true, locked: true });
    expect(kubeletGate("1.36", "AllAlpha")).toEqual({ stage: "Alpha", default: false, locked: false });
    expect(kubeletGate("1.36", "ContextualLogging")).toBeDefined(); // component-base logs
    expect(kubeletGate("1.36", "WatchListClient")).toBeDefined(); // client-go
    expect(kubeletFeatureGates("1.36")!.dependencies.AuthorizeNodeWithSelectors).toEqual(["AuthorizeWithSelectors"]);
  });

  test("a spec is the newest at or below the minor, skipping one whose minimum compatibility is above minor-1", () => {
    const list = [
      { version: "1.30", default: false, stage: "Alpha", locked: false },
      { version: "1.33", default: true, stage: "Beta", locked: false },
      { version: "1.33", minCompat: "1.33", default: true, stage: "GA", locked: true },
    ];
    expect(specAt(list, "1.29").stage).toBe("PreAlpha");
    expect(specAt(list, "1.32").stage).toBe("Alpha");
    expect(specAt(list, "1.33").stage).toBe("Beta");
    expect(specAt(list, "1.34").stage).toBe("GA");
  });
});
