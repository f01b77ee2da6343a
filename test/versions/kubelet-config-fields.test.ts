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
    modules:
      "the Go modules github.com/aws/karpenter-provider-aws@v1.15.0, k8s.io/kubelet@v0.37.0 and k8s.io/component-base@v0.37.0",
    generate,
    render,
  });

  test("1.15 reads k8s.io/kubelet v0.37.0 (provider v1.15.0's go.mod) and records the patch assumption", () => {
    const t = kubeletConfigFields("1.15")!;
    expect(t.module).toBe("k8s.io/kubelet@v0.37.0");
    expect(t.provider).toBe("github.com/aws/karpenter-provider-aws@v1.15.0");
    expect(t.assumption).toMatch(/every other 1\.15 patch is assumed/);
    expect(t.fields.maxPods).toEqual({ kind: "integer", goType: "int32", int: "int32" });
    expect(t.fields.shutdownGracePeriod.kind).toBe("duration");
    expect(t.fields.featureGates.kind).toBe("bool map");
    expect(t.fields.registerWithTaints.kind).toBe("object list");
    // v1.Taint's fields are not read (registerWithTaints is Karpenter's own field)
    expect(t.fields.registerWithTaints.fields).toBeUndefined();
    // nested structs carry their own fields, component-base's included
    expect(t.nested).toEqual([
      "logsapi: k8s.io/component-base@v0.37.0 logs/api/v1/types.go",
      "tracingapi: k8s.io/component-base@v0.37.0 tracing/api/v1/types.go",
    ]);
    expect(t.fields.logging.fields!.verbosity).toEqual({ kind: "integer", goType: "VerbosityLevel", int: "uint32" });
    expect(t.fields.logging.fields!.flushFrequency.kind).toBe("duration or integer");
    expect(t.fields.logging.fields!.vmodule.fields!.filePattern.kind).toBe("string");
    // OutputRoutingOptions is embedded with json:"": its fields are inlined
    expect(Object.keys(t.fields.logging.fields!.options.fields!.json.fields!)).toEqual([
      "infoBufferSize",
      "splitStream",
    ]);
    expect(t.fields.tracing.fields!.samplingRatePerMillion.int).toBe("int32");
    expect(t.fields.authentication.fields!.webhook.fields!.cacheTTL.kind).toBe("duration");
    expect(t.fields.reservedMemory.fields!.limits.kind).toBe("quantity map");
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
      a: { kind: "integer", goType: "*int32", int: "int32" },
      apiVersion: { kind: "string", goType: "string" },
      b: { kind: "string", goType: "Mode" },
      c: { kind: "object list", goType: "[]Sub", fields: {} },
      d: { kind: "duration", goType: "*metav1.Duration" },
      kind: { kind: "string", goType: "string" },
    });
    expect(() => parseKubeletConfiguration(go('\tX resource.Quantity `json:"x"`'))).toThrow(
      /unknown type resource.Quantity/,
    );
    // a type with its own UnmarshalJSON that is not listed stops it too: what it reads must be looked at
    expect(() =>
      parseKubeletConfiguration(go('\tX Sub `json:"x"`') + "func (s *Sub) UnmarshalJSON(b []byte) error {}\n"),
    ).toThrow(/Sub has its own UnmarshalJSON/);
    // a struct of another package given by its alias is read, an embedded struct with json:"" inlined
    expect(
      parseKubeletConfiguration(go('\tL logsapi.Cfg `json:"logging"`'), {
        logsapi: 'type Cfg struct {\n\tInner `json:""`\n}\ntype Inner struct {\n\tV uint32 `json:"v"`\n}\n',
      }).logging,
    ).toEqual({
      kind: "object",
      goType: "logsapi.Cfg",
      fields: { v: { kind: "integer", goType: "uint32", int: "uint32" } },
    });
  });
});
