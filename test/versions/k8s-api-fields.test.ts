import { generate, kindOf, parseTypes, reachable, render, TABLE_FILE } from "../../scripts/k8s-api-fields";
import { k8sApiFields } from "../../lib/versions";
import { generatedTableTest } from "./go-module-table";

/*
 * The committed table of Kubernetes API fields (lib/versions/data/k8s-api-fields.json) is what the script generates
 * from the Go module cache. Without Go or the modules (no proxy), the test says SKIP and names them.
 */

describe("k8s-api-fields.json", () => {
  generatedTableTest({
    file: TABLE_FILE,
    script: "scripts/k8s-api-fields.ts (npm run k8s-api-fields)",
    modules:
      "the Go modules github.com/aws/karpenter-provider-aws@v1.15.0, k8s.io/api@v0.37.0 and k8s.io/apimachinery@v0.37.0",
    generate,
    render,
  });

  test("reads k8s.io/api v0.37.0 (provider v1.15.0's go.mod), records the assumption and the JSON kinds", () => {
    const t = k8sApiFields();
    expect(t.provider).toBe("github.com/aws/karpenter-provider-aws@v1.15.0");
    expect(t.modules).toEqual(["k8s.io/api@v0.37.0", "k8s.io/apimachinery@v0.37.0"]);
    expect(t.assumption).toMatch(/a field newer than the cluster's Kubernetes passes here/);
    expect(t.types["apps/v1.RollingUpdateDeployment"].fields).toEqual({
      maxSurge: "intOrString",
      maxUnavailable: "intOrString",
    });
    const psc = t.types["core/v1.PodSecurityContext"].fields;
    expect([psc.fsGroup, psc.runAsNonRoot, psc.supplementalGroups]).toEqual(["int64", "boolean", "list:int64"]);
    expect(t.types["core/v1.ResourceRequirements"].fields.limits).toBe("map:quantity");
    expect(t.types["core/v1.Affinity"].fields.podAffinity).toBe("object:core/v1.PodAffinity");
    // inline embedded structs are flattened: Volume takes VolumeSource's fields
    expect(t.types["core/v1.Volume"].inlined).toEqual(["core/v1.VolumeSource"]);
    expect(t.types["core/v1.Volume"].fields.emptyDir).toBe("object:core/v1.EmptyDirVolumeSource");
    expect(t.types["core/v1.PodAffinityTerm"].fields.labelSelector).toBe("object:meta/v1.LabelSelector");
    // only what the roots reach
    expect(t.types["core/v1.PodSpec"]).toBeUndefined();
  });

  test("the parser: pointers, lists, maps, inline, block comments, and a type it does not know stops it", () => {
    const core = parseTypes(
      [
        "type Mode string",
        "type Inner struct {",
        '\tN *int32 `json:"n,omitempty" protobuf:"varint,1,opt,name=n"`',
        "}",
        "type Root struct {",
        "\t/* a block",
        "\tcomment */",
        '\tInner `json:",inline"`',
        '\tM Mode `json:"m"`',
        '\tL []Inner `json:"l"`',
        '\tQ map[string]resource.Quantity `json:"q"`',
        '\tS metav1.Time `json:"s"`',
        '\tX string `json:"-"`',
        "}",
      ].join("\n") + "\n",
    );
    const meta = { structs: {}, named: {} };
    const parsed = { "core/v1": core, "apps/v1": { structs: {}, named: {} }, "meta/v1": meta };
    expect(reachable(parsed, ["core/v1.Root"])).toEqual({
      "core/v1.Inner": { fields: { n: "int32" } },
      "core/v1.Root": {
        inlined: ["core/v1.Inner"],
        fields: { l: "list:object:core/v1.Inner", m: "string", n: "int32", q: "map:quantity", s: "time" },
      },
    });
    expect(() => kindOf("runtime.RawExtension", "core/v1", parsed, () => undefined)).toThrow(/unknown package runtime/);
    expect(() => kindOf("metav1.Status", "core/v1", parsed, () => undefined)).toThrow(/unknown type meta\/v1.Status/);
    expect(() => kindOf("int", "core/v1", parsed, () => undefined)).toThrow(/platform-sized/);
  });
});
