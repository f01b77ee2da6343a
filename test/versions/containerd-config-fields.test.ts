import {
  fieldOf,
  generate,
  parseNamedTypes,
  parseStructs,
  render,
  TABLE_FILE,
} from "../../scripts/containerd-config-fields";
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

  test("holds the runc shim's Options fields a runc runtime's options decode into, per release", () => {
    const [v1, v2] = containerdConfigFields().releases;
    expect(v1.runcOptions).toMatchObject({
      runtimeTypes: ["io.containerd.runc.v1", "io.containerd.runc.v2"],
      plugin: "io.containerd.grpc.v1.cri",
      module: "github.com/containerd/containerd/api@v1.8.0",
      match: "name, lower, upper, first lower",
    });
    expect(v2.runcOptions).toMatchObject({
      runtimeTypes: ["io.containerd.runc.v2"],
      plugin: "io.containerd.cri.v1.runtime",
      module: "github.com/containerd/containerd/api@v1.10.0",
      match: "any case",
    });
    for (const r of [v1, v2]) {
      expect(r.runcOptions.path).toEqual(["containerd", "runtimes", "*", "options"]);
      expect(r.runcOptions.fields.SystemdCgroup).toMatchObject({ kind: "boolean" });
      expect(r.runcOptions.fields.BinaryName).toMatchObject({ kind: "string" });
      expect(r.runcOptions.fields.IoUid).toMatchObject({ kind: "uint32" });
      expect(r.runcOptions.decodedAt).toMatch(/^[\w/]+\.go:\d+-\d+$/);
      expect(r.runcOptions.sandboxAt).toMatch(/sandbox_run\.go:\d+$/);
    }
  });

  test("holds the CRI plugins' tables: 1.7's one plugin, containerd 2's three, with their Config structs", () => {
    const [v1, v2] = containerdConfigFields().releases;
    const cri17 = v1.plugins["io.containerd.grpc.v1.cri"];
    expect(cri17).toMatchObject({ file: "pkg/cri/config/config.go", struct: "PluginConfig" });
    expect(cri17.registered).toMatch(/^pkg\/cri\/cri\.go:\d+-\d+$/);
    // embedded structs with a toml tag are tables of that name
    expect(cri17.fields.containerd).toMatchObject({ kind: "table" });
    expect(cri17.fields.containerd.fields?.snapshotter).toMatchObject({ kind: "string" });
    expect(cri17.fields.containerd.fields?.runtimes).toMatchObject({ kind: "table map" });
    expect(cri17.fields.containerd.fields?.runtimes.fields?.options).toMatchObject({ kind: "any" });
    expect(cri17.fields.cni.fields?.bin_dir).toMatchObject({ kind: "string" });
    expect(cri17.fields.sandbox_image).toMatchObject({ kind: "string" });
    expect(cri17.fields.enable_cdi).toMatchObject({ kind: "boolean" });
    expect(cri17.fields.max_concurrent_downloads).toMatchObject({ kind: "integer" });
    expect(cri17.fields.registry.fields?.config_path).toMatchObject({ kind: "string" });
    expect(cri17.fields.registry.fields?.headers).toMatchObject({ kind: "string list map" });
    // a pointer decodes as its struct
    expect(cri17.fields.registry.fields?.configs.fields?.tls).toMatchObject({ kind: "table" });
    expect(v1.migrations).toBeUndefined();

    expect(Object.keys(v2.plugins).sort()).toEqual([
      "io.containerd.cri.v1.images",
      "io.containerd.cri.v1.runtime",
      "io.containerd.grpc.v1.cri",
    ]);
    expect(v2.plugins["io.containerd.cri.v1.images"]).toMatchObject({ struct: "ImageConfig" });
    expect(v2.plugins["io.containerd.cri.v1.images"].fields.pinned_images).toMatchObject({ kind: "string map" });
    expect(v2.plugins["io.containerd.cri.v1.runtime"]).toMatchObject({ struct: "RuntimeConfig" });
    expect(v2.plugins["io.containerd.cri.v1.runtime"].fields.enable_cdi).toMatchObject({ kind: "boolean" });
    expect(v2.plugins["io.containerd.grpc.v1.cri"]).toMatchObject({ struct: "ServerConfig" });
    expect(v2.plugins["io.containerd.grpc.v1.cri"].fields.sandbox_image).toBeUndefined();
    expect(v2.plugins["io.containerd.grpc.v1.cri"].registered).toMatch(/^plugins\/cri\/cri\.go:\d+-\d+$/);
  });

  test("holds containerd 2's migration of 1.7's CRI table, read from the plugins' ConfigMigration", () => {
    const v2 = containerdConfigFields().releases[1];
    const m = v2.migrations?.["io.containerd.grpc.v1.cri"];
    expect(m?.below).toBe(3);
    expect(m?.table).toMatch(/^plugins\/cri\/images\/plugin\.go:\d+-\d+$/);
    const to = (from: string) => m?.moves.find((x) => x.from.join(".") === from);
    expect(to("sandbox_image")).toMatchObject({
      plugin: "io.containerd.cri.v1.images",
      to: ["pinned_images", "sandbox"],
    });
    expect(to("registry")).toMatchObject({ plugin: "io.containerd.cri.v1.images", to: ["registry"] });
    expect(to("containerd.snapshotter")).toMatchObject({ plugin: "io.containerd.cri.v1.images", to: ["snapshotter"] });
    expect(to("stream_server_port")).toMatchObject({ plugin: "io.containerd.grpc.v1.cri" });
    expect(to("containerd.runtimes.*.sandbox_mode")).toMatchObject({
      to: ["containerd", "runtimes", "*", "sandboxer"],
    });
    expect(to("")).toMatchObject({ plugin: "io.containerd.cri.v1.runtime", to: [] });
    expect(to("")?.at).toMatch(/^plugins\/cri\/runtime\/plugin\.go:\d+-\d+$/);
  });

  test("the parser reads struct fields and stops at a Go type it does not know", () => {
    const text =
      'type Config struct {\n\tVersion int `toml:"version"`\n\tX Other `toml:"x"`\n}\n\ntype Other struct {\n\tA []string `toml:"a,omitempty"`\n}\n';
    const structs = parseStructs(text);
    expect(structs.Config).toEqual([
      { name: "Version", type: "int", key: "version", line: 2 },
      { name: "X", type: "Other", key: "x", line: 3 },
    ]);
    expect(fieldOf("Other", structs, "x.go")).toEqual({
      kind: "table",
      fields: { a: { kind: "string list", line: 7 } },
    });
    expect(() => fieldOf("float32", structs, "x.go")).toThrow(/float32 is not one the script knows/);
  });

  test("the parser reads embedded structs with a tag, pointers and named types, and stops at a field without a tag", () => {
    const text =
      'type Config struct {\n\tInner `toml:"inner" json:"inner"`\n\tP *Inner `toml:"p"`\n\tM Mode `toml:"m"`\n}\n\ntype Inner struct {\n\tA int `toml:"a"`\n\tB string `json:"b"`\n}\n\ntype Mode string\n';
    const structs = parseStructs(text);
    expect(structs.Config.map((f) => [f.type, f.key])).toEqual([
      ["Inner", "inner"],
      ["*Inner", "p"],
      ["Mode", "m"],
    ]);
    expect(structs.Inner[1]).toMatchObject({ type: "string", key: "" });
    expect(fieldOf("Mode", structs, "x.go", parseNamedTypes(text))).toEqual({ kind: "string" });
    expect(() => fieldOf("*Inner", structs, "x.go")).toThrow(/x\.go:9: Inner has a field without a toml tag/);
  });
});
