import { generate, render, specTypes, TABLE_FILE } from "../../scripts/oci-runtime-spec-fields";
import { ociRuntimeSpecFields } from "../../lib/versions/oci-runtime-spec";
import { generatedTableTest } from "./go-module-table";

/*
 * The committed table of the OCI runtime spec's Go types (lib/versions/data/oci-runtime-spec-fields.json) is what the
 * script generates from the Go module cache. Without Go or the modules (no proxy), the test says SKIP.
 */

describe("oci-runtime-spec-fields.json", () => {
  generatedTableTest({
    file: TABLE_FILE,
    script: "scripts/oci-runtime-spec-fields.ts (npm run oci-runtime-spec-fields)",
    modules:
      "the Go modules github.com/containerd/containerd/v2@v2.2.3 and github.com/opencontainers/runtime-spec@v1.3.0",
    generate,
    render,
  });

  test("reads the runtime spec containerd 2 requires, with Go's int and uint as 64-bit, and the JSON kinds", () => {
    const t = ociRuntimeSpecFields();
    expect(t.module).toBe("github.com/opencontainers/runtime-spec@v1.3.0");
    expect(t.root).toBe("specs.Spec");
    expect(t.types["specs.POSIXRlimit"].fields).toEqual({ hard: "uint64", soft: "uint64", type: "string" });
    expect(t.types["specs.Process"].fields).toMatchObject({
      oomScoreAdj: "int64",
      rlimits: "list:object:specs.POSIXRlimit",
    });
    expect(t.types["specs.LinuxDevice"].fields.fileMode).toBe("uint32");
    // an embedded struct is flattened, as encoding/json promotes its fields
    expect(t.types["specs.LinuxWeightDevice"].inlined).toEqual(["specs.LinuxBlockIODevice"]);
  });

  test("the parser is k8s-api-fields.ts's: a type it does not know stops it", () => {
    const types = specTypes(
      [
        "type Spec struct {",
        '\tBox Box `json:"box"`',
        "}",
        "type Box struct {",
        '\tHeight uint `json:"height"`',
        "}",
      ].join("\n") + "\n",
    );
    expect(types["specs.Box"].fields).toEqual({ height: "uint64" });
    expect(() => specTypes('type Spec struct {\n\tX net.IP `json:"x"`\n}\n')).toThrow(/unknown package|unknown type/);
  });
});
