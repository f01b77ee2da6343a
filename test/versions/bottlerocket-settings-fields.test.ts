import { generate, parseBottlerocketSettings, render, TABLE_FILE } from "../../scripts/bottlerocket-settings-fields";
import { bottlerocketSettingsFields } from "../../lib/versions";
import { generatedTableTest } from "./go-module-table";

/*
 * The committed table of Karpenter's typed Bottlerocket settings (lib/versions/data/bottlerocket-settings-fields.json)
 * is what the script generates from the Go module cache. Without Go or the modules (no proxy), the test says SKIP and
 * names them.
 */

describe("bottlerocket-settings-fields.json", () => {
  generatedTableTest({
    file: TABLE_FILE,
    script: "scripts/bottlerocket-settings-fields.ts (npm run bottlerocket-fields)",
    modules: "the Go modules github.com/aws/karpenter-provider-aws@v1.14.1 and @v1.15.0",
    generate,
    render,
  });

  test("1.15 adds memory-manager-reserved-memory; older minors get 1.14's structs, newer ones 1.15's", () => {
    const t15 = bottlerocketSettingsFields("1.15");
    const t14 = bottlerocketSettingsFields("1.14");
    expect(t15.provider).toBe("github.com/aws/karpenter-provider-aws@v1.15.0");
    expect(t15.decodedBy).toContain("github.com/pelletier/go-toml/v2@v2.4.3");
    expect(t15.structs.BottlerocketKubernetes["cluster-dns-ip"]).toBe("string");
    expect(t15.structs.BottlerocketKubernetes["log-level"]).toBe("uint32");
    expect(t15.structs.BottlerocketKubernetes["memory-manager-reserved-memory"]).toBe(
      "map[string]BottlerocketMemoryManagerReservedMemory",
    );
    expect(t14.structs.BottlerocketKubernetes["memory-manager-reserved-memory"]).toBeUndefined();
    expect(t15.structs.BootstrapCommand.mode).toBe("string");
    expect(bottlerocketSettingsFields("1.9")).toBe(t14);
    expect(bottlerocketSettingsFields("1.16")).toBe(t15);
  });

  test("the parser drops pointers, resolves named types, follows structs and stops at a type it does not know", () => {
    const go = (body: string) =>
      `type Mode string\ntype Sub struct {\n\tOn *bool \`toml:"on"\`\n}\ntype BottlerocketSettings struct {\n${body}\n}\n`;
    expect(
      parseBottlerocketSettings(
        go('\tA *int `toml:"a,omitempty"`\n\t// a comment\n\tB Mode `toml:"b"`\n\tC map[string][]Sub `toml:"c"`'),
      ),
    ).toEqual({
      BottlerocketSettings: { a: "int", b: "string", c: "map[string][]Sub" },
      Sub: { on: "bool" },
    });
    expect(() => parseBottlerocketSettings(go('\tX float64 `toml:"x"`'))).toThrow(/unknown type float64/);
  });
});
