import { callArgs, generate, parseRegistrations, render, TABLE_FILE } from "../../scripts/kubelet-flags";
import { kubeletFlags } from "../../lib/versions";
import { generatedTableTest } from "./go-module-table";

/*
 * The committed table of the kubelet's command-line flags (lib/versions/data/kubelet-flags.json) is what the script
 * generates from the Go module cache. Without Go or the modules (no proxy), the test says SKIP and names them.
 */

describe("kubelet-flags.json", () => {
  generatedTableTest({
    file: TABLE_FILE,
    script: "scripts/kubelet-flags.ts (npm run kubelet-flags)",
    modules:
      "the Go modules k8s.io/kubernetes@v1.36.3, k8s.io/component-base@v0.36.3 and github.com/google/cadvisor@v0.56.2",
    generate,
    render,
  });

  test("the kubelet v1.36.3 flags: options.go, logsapi, cadvisor's, --version and --help", () => {
    const t = kubeletFlags();
    expect(t.kubelet).toBe("k8s.io/kubernetes@v1.36.3");
    expect(Object.keys(t.flags)).toHaveLength(149);
    expect(t.flags["max-pods"]).toEqual({
      kind: "int32",
      field: "maxPods",
      deprecated: true,
      at: "k8s.io/kubernetes@v1.36.3 cmd/kubelet/app/options/options.go:461",
    });
    expect(t.flags["node-labels"]).toMatchObject({ kind: "configurationMap" });
    expect(t.flags["node-labels"].deprecated).toBeUndefined();
    // notDeprecated in AddKubeletConfigFlags
    for (const f of ["v", "vmodule", "log-flush-frequency", "provider-id", "fail-cgroupv1"])
      expect(t.flags[f].deprecated).toBeUndefined();
    expect(t.flags.v).toMatchObject({ kind: "verbosity", shorthand: "v" });
    expect(t.flags.v.at).toMatch(/^k8s\.io\/component-base@v0\.36\.3 logs\/api\/v1\/options\.go:\d+$/);
    expect(t.flags.help).toMatchObject({ kind: "bool", shorthand: "h", noOptDefVal: "true" });
    expect(t.flags["fail-swap-on"].noOptDefVal).toBe("true");
    // cadvisor's Go flags, normalized (_ to -), the type from cadvisor's flag.X call
    expect(t.flags["housekeeping-interval"].kind).toBe("duration");
    expect(t.flags["housekeeping-interval"].deprecated).toBeUndefined();
    expect(t.flags["storage-driver-secure"]).toMatchObject({ kind: "bool", deprecated: true });
    expect(t.flags["housekeeping-interval"].at).toMatch(
      /^github\.com\/google\/cadvisor@v0\.56\.2 manager\/container\.go:\d+ \(re-registered at k8s\.io\/kubernetes@v1\.36\.3 cmd\/kubelet\/app\/options\/globalflags_linux\.go:\d+\)$/,
    );
    expect(t.flags.version.kind).toBe("version");
    expect(t.flags.constructor).toBeUndefined();
    // the configuration field a flag sets, by its JSON name; none for a nested field or a KubeletFlags flag
    expect(t.flags["image-gc-high-threshold"].field).toBe("imageGCHighThresholdPercent");
    expect(t.flags["registry-qps"].field).toBe("registryPullQPS");
    expect(t.flags["minimum-image-ttl-duration"].field).toBe("imageMinimumGCAge");
    expect(t.flags["eviction-hard"].field).toBe("evictionHard");
    expect(t.flags["anonymous-auth"].field).toBeUndefined();
    expect(t.flags["node-labels"].field).toBeUndefined();
  });

  test("the parser reads multi-line calls and stops at a form it does not know", () => {
    const text =
      'func f() {\n\tfs.BoolVar(&x, "a-b", false, "usage, with (parens)")\n\tfs.Var(cliflag.NewMapStringBool(&m),\n\t\t"gates", "u")\n\tfs.MarkDeprecated("a-b", "gone")\n}\n';
    const body = { body: text.slice(text.indexOf("{")), start: text.indexOf("{") };
    expect(parseRegistrations(text, body, "x.go")).toEqual({
      flags: {
        "a-b": { kind: "bool", noOptDefVal: "true", at: "x.go:2" },
        gates: { kind: "mapStringBool", at: "x.go:3" },
      },
      deprecated: ["a-b"],
      targets: {},
    });
    const cfg =
      'func f() {\n\tfs.Int32Var(&c.RegistryBurst, "registry-burst", 0, "u")\n\tfs.BoolVar(&c.Authentication.Anonymous.Enabled, "anonymous-auth", false, "u")\n\tfs.DurationVar(&c.SyncFrequency.Duration, "sync-frequency", 0, "u")\n}\n';
    expect(parseRegistrations(cfg, { body: cfg.slice(10), start: 10 }, "x.go").targets).toEqual({
      "registry-burst": "RegistryBurst",
      "anonymous-auth": "",
      "sync-frequency": "SyncFrequency",
    });
    expect(callArgs('(a, "b,c", f(d, e))', 0).args).toEqual(["a", '"b,c"', "f(d, e)"]);
    const odd = 'func f() {\n\tfs.Float32Var(&x, "y", 0, "u")\n}\n';
    expect(() => parseRegistrations(odd, { body: odd.slice(10), start: 10 }, "x.go")).toThrow(
      /fs\.Float32Var: a registration form the parser does not know/,
    );
    const value = 'func f() {\n\tfs.Var(newThing(&x), "y", "u")\n}\n';
    expect(() => parseRegistrations(value, { body: value.slice(10), start: 10 }, "x.go")).toThrow(
      /add what its Set parses to VALUES/,
    );
    const name = 'func f() {\n\tfs.StringVar(&x, someName, "", "u")\n}\n';
    expect(() => parseRegistrations(name, { body: name.slice(10), start: 10 }, "x.go")).toThrow(/known constant/);
  });
});
