import { generate, render, specTypes, TABLE_FILE } from "../../scripts/nodeadm-config-fields";
import { nodeadmConfigFields } from "../../lib/versions";
import { generatedTableTest } from "./go-module-table";

/*
 * The committed table of nodeadm's NodeConfig v1alpha1 spec fields (lib/versions/data/nodeadm-config-fields.json) is
 * what the script generates from the Go module cache. Without Go or the modules (no proxy), the test says SKIP.
 */

describe("nodeadm-config-fields.json", () => {
  generatedTableTest({
    file: TABLE_FILE,
    script: "scripts/nodeadm-config-fields.ts (npm run nodeadm-config-fields)",
    modules:
      "the Go modules github.com/aws/karpenter-provider-aws@v1.14.1 and @v1.15.0 and github.com/awslabs/amazon-eks-ami/nodeadm@v0.0.0-20240229193347-cfab22a10647",
    generate,
    render,
  });

  test("reads the nodeadm both provider releases pin, with how it decodes, and the JSON kinds", () => {
    for (const minor of ["1.14", "1.15"]) {
      const t = nodeadmConfigFields(minor);
      expect(t.module).toBe("github.com/awslabs/amazon-eks-ami/nodeadm@v0.0.0-20240229193347-cfab22a10647");
      expect(t.root).toBe("v1alpha1.NodeConfigSpec");
      expect(t.decodedBy).toMatch(/not strict/);
      expect(t.types["v1alpha1.ClusterDetails"].fields).toMatchObject({
        cidr: "string",
        certificateAuthority: "bytes",
        enableOutpost: "boolean",
      });
      expect(t.types["v1alpha1.ContainerdOptions"].fields).toEqual({ config: "string" });
    }
    // a minor not read takes the newest
    expect(nodeadmConfigFields("1.9").provider).toBe("github.com/aws/karpenter-provider-aws@v1.15.0");
  });

  test("the parser is k8s-api-fields.ts's: RawExtension is any JSON, a type it does not know stops it", () => {
    const types = specTypes(
      [
        "type NodeConfigSpec struct {",
        '\tKubelet KubeletOptions `json:"kubelet,omitempty"`',
        "}",
        "type KubeletOptions struct {",
        '\tConfig map[string]runtime.RawExtension `json:"config,omitempty"`',
        '\tFlags []string `json:"flags,omitempty"`',
        "}",
      ].join("\n") + "\n",
    );
    expect(types["v1alpha1.KubeletOptions"].fields).toEqual({ config: "map:raw", flags: "list:string" });
    expect(() => specTypes('type NodeConfigSpec struct {\n\tM metav1.ObjectMeta `json:"m"`\n}\n')).toThrow(
      /unknown type/,
    );
  });
});
