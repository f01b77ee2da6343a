import { fieldOf, generate, parseStructs, render, TABLE_FILE } from "../../scripts/containerd-config-fields";
import { containerdConfigFields } from "../../lib/versions/containerd-config";
import { generatedTableTest } from "./go-module-table";

/*
 * The committed table of containerd's configuration keys (lib/versions/data/containerd-config-fields.json) is what the
 * script generates from containerd 1.7.30's and 2.2.3's Config structs. Without the modules, SKIP naming them.
 */
describe("containerd-config-fields.json", () => {
  generatedTableTest({
    file: TABLE_FILE,
    script: "scripts/containerd-config-fields.ts (npm run containerd-fields)",
    modules: "the Go modules github.com/containerd/containerd@v1.7.30 and github.com/containerd/containerd/v2@v2.2.3",
    generate,
    render,
  });

  test("holds both releases' keys with their kinds and lines", () => {
    const [v1, v2] = containerdConfigFields().releases;
    expect(v1.containerd).toBe("github.com/containerd/containerd@v1.7.30");
    expect(v1.decodedBy).toBe("github.com/pelletier/go-toml@v1.9.5");
    expect(v2.containerd).toBe("github.com/containerd/containerd/v2@v2.2.3");
    expect(v1.fields.version).toMatchObject({ kind: "integer" });
    expect(v2.fields.oom_score).toMatchObject({ kind: "integer" });
    expect(v1.fields.plugin_dir).toMatchObject({ kind: "string" });
    expect(v2.fields.plugin_dir).toBeUndefined();
    expect(v2.fields.grpc.fields?.uid).toMatchObject({ kind: "integer" });
    expect(v2.fields.proxy_plugins).toMatchObject({ kind: "table map" });
    expect(v2.fields.plugins).toMatchObject({ kind: "any" });
    expect(typeof v1.fields.version.line).toBe("number");
  });

  test("the parser reads struct fields and stops at a Go type it does not know", () => {
    const text =
      'type Config struct {\n\tVersion int `toml:"version"`\n\tX Other `toml:"x"`\n}\n\ntype Other struct {\n\tA []string `toml:"a,omitempty"`\n}\n';
    const structs = parseStructs(text);
    expect(structs.Config).toEqual([
      { type: "int", key: "version", line: 2 },
      { type: "Other", key: "x", line: 3 },
    ]);
    expect(fieldOf("Other", structs, "x.go")).toEqual({
      kind: "table",
      fields: { a: { kind: "string list", line: 7 } },
    });
    expect(() => fieldOf("float32", structs, "x.go")).toThrow(/float32 is not one the script knows/);
  });
});
