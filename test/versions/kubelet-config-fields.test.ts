import { generate, parseKubeletConfiguration, render, TABLE_FILE } from "../../scripts/kubelet-config-fields";
import { kubeletConfigFields } from "../../lib/versions";
import { generatedTableTest } from "./go-module-table";

/*
 * The committed table of upstream KubeletConfiguration fields (lib/versions/data/kubelet-config-fields.json) is what
 * the script generates from the Go module cache. Without Go or the modules (no proxy), the test says SKIP and names them.
 */

describe("kubelet-config-fields.json", () => {
  generatedTableTest({
    file: TABLE_FILE,
    script: "scripts/kubelet-config-fields.ts (npm run kubelet-fields)",
    modules: "the Go modules github.com/aws/karpenter-provider-aws@v1.15.0 and k8s.io/kubelet@v0.37.0",
    generate,
    render,
  });

  test("1.15 reads k8s.io/kubelet v0.37.0 (provider v1.15.0's go.mod) and records the patch assumption", () => {
    const t = kubeletConfigFields("1.15")!;
    expect(t.module).toBe("k8s.io/kubelet@v0.37.0");
    expect(t.provider).toBe("github.com/aws/karpenter-provider-aws@v1.15.0");
    expect(t.assumption).toMatch(/every other 1\.15 patch is assumed/);
    expect(t.fields.maxPods).toEqual({ kind: "integer", goType: "int32" });
    expect(t.fields.shutdownGracePeriod.kind).toBe("duration");
    expect(t.fields.featureGates.kind).toBe("bool map");
    expect(t.fields.registerWithTaints.kind).toBe("object list");
    expect(t.fields.MaxPods).toBeUndefined();
    expect(kubeletConfigFields("1.14")).toBeUndefined();
    expect(kubeletConfigFields("1.16")).toBe(t);
  });

  test("the parser unwraps pointers, inlines TypeMeta and stops at a type it does not know", () => {
    const go = (body: string) =>
      `type Mode string\ntype Sub struct {\n}\ntype KubeletConfiguration struct {\n${body}\n}\n`;
    expect(
      parseKubeletConfiguration(
        go(
          '\tmetav1.TypeMeta `json:",inline"`\n\t// a comment\n\tA *int32 `json:"a,omitempty"`\n\tB Mode `json:"b"`\n\tC []Sub `json:"c"`\n\tD *metav1.Duration `json:"d"`',
        ),
      ),
    ).toEqual({
      a: { kind: "integer", goType: "*int32" },
      apiVersion: { kind: "string", goType: "string" },
      b: { kind: "string", goType: "Mode" },
      c: { kind: "object list", goType: "[]Sub" },
      d: { kind: "duration", goType: "*metav1.Duration" },
      kind: { kind: "string", goType: "string" },
    });
    expect(() => parseKubeletConfiguration(go('\tX resource.Quantity `json:"x"`'))).toThrow(
      /unknown type resource.Quantity/,
    );
  });
});
