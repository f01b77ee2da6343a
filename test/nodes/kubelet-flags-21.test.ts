import { Lazy } from "cdktf";
import { kubeletFlagProblems, valueProblem } from "../../lib/nodes/kubelet-flag-rules";
import { build, rejection } from "./node-props";

/*
 * Issue 31: an AL2023 NodeConfig's spec.kubelet.flags go onto the kubelet's command line as written (nodeadm
 * internal/kubelet/environment.go, NODEADM_KUBELET_ARGS, expanded unquoted by the kubelet unit), and the kubelet's
 * pflag parse (k8s.io/kubernetes v1.36.3 cmd/kubelet/app/server.go, cleanFlagSet.Parse) exits on an unknown flag or
 * a value its type cannot parse: the node never joins. The flags: lib/versions/data/kubelet-flags.json (generated).
 * Each refused flag has a valid look-alike that passes.
 */

const NC = "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    flags:\n";
const al = (flags: string[]) => ({
  amiSelectorTerms: [{ alias: "al2023@latest" }],
  userData: NC + flags.map((f) => `      - ${JSON.stringify(f)}\n`).join(""),
});
const OPTIONS = "k8s.io/kubernetes@v1.36.3 cmd/kubelet/app/options/options.go:";

/** The synth warnings of an EC2NodeClass built from `props` that contain `text`. */
function classWarnings(props: Record<string, unknown>, text: string): string[] {
  return build("EC2NodeClass", props)
    .node.findAll()
    .flatMap((c) => c.node.metadata)
    .filter((m) => m.type === "@cdktf/warn")
    .map((m) => String(m.data))
    .filter((w) => w.includes(text));
}

describe("kubelet flags in an AL2023 NodeConfig are parsed as the kubelet parses them", () => {
  test.each<[string, string[], number, string[]]>([
    [
      "an unknown flag, with a did-you-mean",
      ["--v=2", "--max-pod=110"],
      7,
      [
        "spec.kubelet.flags[1]: --max-pod is no flag of the kubelet (did you mean --max-pods?)",
        "unknown flag: --max-pod",
      ],
    ],
    [
      "an unknown flag",
      ["--foo=bar"],
      6,
      ['"failed to parse kubelet flag: unknown flag: --foo"', OPTIONS.slice(0, -1)],
    ],
    [
      "a bool flag given yes",
      ["--fail-swap-on=yes"],
      6,
      ['--fail-swap-on="yes": a bool flag takes true or false (Go strconv.ParseBool', `${OPTIONS}`],
    ],
    [
      "an int32 flag given abc",
      ["--max-pods=abc"],
      6,
      [
        '--max-pods="abc": an int32 flag takes a whole number',
        'invalid argument "abc" for "--max-pods" flag',
        `${OPTIONS}461`,
      ],
    ],
    [
      "an int32 flag out of range",
      ["--max-pods=3000000000"],
      6,
      ["out of range for an int32 flag (-2147483648 to 2147483647)"],
    ],
    [
      "a duration flag given 5x",
      ["--sync-frequency=5x"],
      6,
      ['--sync-frequency="5x": a duration flag takes a Go duration', "time.ParseDuration"],
    ],
    [
      "a value flag with no value",
      ["--max-pods"],
      6,
      [
        '--max-pods needs a value and none follows: the kubelet refuses to start with "flag needs an argument: --max-pods"',
      ],
    ],
    [
      "a bool flag's value as the next word",
      ["--fail-swap-on", "false"],
      7,
      [
        '"false" is no flag',
        "--fail-swap-on is a bool flag, which takes its value only as --fail-swap-on=false",
        "unknown command false",
      ],
    ],
    [
      "a long flag with one dash",
      ["-max-pods=110"],
      6,
      ["unknown shorthand flag: 'm' in -max-pods=110", "did you mean --max-pods=110?"],
    ],
    [
      "a flag without dashes",
      ["node-labels=team=a"],
      6,
      ["unknown command node-labels=team=a", "did you mean --node-labels=team=a?"],
    ],
    [
      "a space inside one value (the words split at whitespace)",
      ["--node-labels=team=a, tier=b"],
      6,
      ['"tier=b" is no flag', "split at whitespace"],
    ],
    ["a feature gate given yes", ["--feature-gates=Foo=yes"], 6, ["Foo=yes: the value is no bool"]],
    [
      "an eviction threshold written with =",
      ["--eviction-hard=memory.available=100Mi"],
      6,
      ['"memory.available=100Mi" is no string<string pair'],
    ],
    ["a taint of an unknown effect", ["--register-with-taints=a=b:NoRun"], 6, ["invalid taint effect: NoRun"]],
    [
      "a verbosity that is no number",
      ["-v=high"],
      6,
      ['-v (--v)="high": a log verbosity takes a whole number', "logs/api/v1/options.go:370"],
    ],
    [
      "--version",
      ["--version"],
      6,
      ["--version makes the kubelet print its version and exit", "version/verflag/verflag.go"],
    ],
    ["-h", ["-h"], 6, ["-h (--help) makes the kubelet print its usage and exit", "cmd/kubelet/app/server.go:316"]],
  ])("%s is refused, naming the line and the kubelet source", (_what, flags, line, parts) => {
    const e = rejection("EC2NodeClass", al(flags));
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.field).toBe("userData");
    expect(e.value).toMatch(new RegExp(`^line ${line}: `));
    expect(e.message).toContain(
      "kubelet flags the kubelet can parse: this user data for the AL2023 AMI family is a NodeConfig whose spec.kubelet.flags[",
    );
    expect(e.message).toContain("k8s.io/kubernetes@v1.36.3 cmd/kubelet/app/server.go:184-186");
    for (const p of parts) expect(e.message).toContain(p);
  });

  test.each<[string, string[]]>([
    ["--v=2", ["--v=2"]],
    ["-v=2, -v2 and -v 3", ["-v=2", "-v2", "-v", "3"]],
    ["--node-labels", ["--node-labels=team=a,tier=b"]],
    ["--max-pods=110 and a hex int32", ["--max-pods=110", "--kube-api-qps=0x10"]],
    ["--name value in one item, and over two items", ["--max-pods 110", "--sync-frequency", "1m30s"]],
    ["a bare bool flag and an explicit one", ["--fail-swap-on", "--serialize-image-pulls=false"]],
    ["an underscore for a dash (WordSepNormalizeFunc)", ["--max_pods=110", "--housekeeping_interval=10s"]],
    ["--register-with-taints", ["--register-with-taints=dedicated=gpu:NoSchedule,spot:PreferNoSchedule"]],
    [
      "maps and lists",
      [
        "--feature-gates=NodeSwap=true,ImageMaximumGCAge=true",
        "--eviction-hard=memory.available<100Mi",
        "--cluster-dns=10.0.0.10,10.0.0.11",
      ],
    ],
    ["--version=false, --help=false", ["--version=false", "--help=false"]],
    ["a deprecated flag", ["--minimum-container-ttl-duration=1m"]],
  ])("%s passes", (_what, flags) => {
    expect(() => build("EC2NodeClass", al(flags))).not.toThrow();
  });

  test("a deprecated flag passes with a warning naming the flag and its source", () => {
    const w = classWarnings(al(["--node-labels=team=a", "--max-pods=110"]), "deprecated kubelet flag");
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("spec.kubelet.flags[1] sets --max-pods, a deprecated kubelet flag");
    expect(w[0]).toContain(`${OPTIONS}461`);
    // a flag that is not deprecated warns nothing
    expect(classWarnings(al(["--node-labels=team=a", "--v=2"]), "deprecated kubelet flag")).toEqual([]);
  });

  test("a flag in a MIME part is judged alike; a token is never judged", () => {
    const mime = (part: string) =>
      `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: application/node.eks.aws\n\n${part}--B--\n`;
    const e = rejection("EC2NodeClass", {
      amiSelectorTerms: [{ alias: "al2023@latest" }],
      userData: mime(`${NC}      - --fail-swap-on=yes\n`),
    });
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain(
      "this application/node.eks.aws part of AL2023 user data is a NodeConfig whose spec.kubelet.flags[0]",
    );
    expect(() =>
      build("EC2NodeClass", {
        amiSelectorTerms: [{ alias: "al2023@latest" }],
        userData: `${NC}      - --max-pods=${Lazy.stringValue({ produce: () => "abc" })}\n`,
      }),
    ).not.toThrow();
  });

  test("the parse: the first error stops it, items with quotes are not judged", () => {
    expect(kubeletFlagProblems(["--foo", "--bar"]).refused?.index).toBe(0);
    expect(kubeletFlagProblems(['--node-labels="a=b c"'])).toEqual({
      deprecated: [],
      values: [],
      flags: new Map(),
      ignored: [],
    });
    expect(kubeletFlagProblems(["--max-pods=110", "--", "x"]).refused?.problem).toContain('"--" ends the flags');
    expect(kubeletFlagProblems("not a list")).toEqual({ deprecated: [], values: [], flags: new Map(), ignored: [] });
  });

  test("value kinds as their Set reads them", () => {
    expect(valueProblem("bool", "True")).toBeUndefined();
    expect(valueProblem("bool", "yes")).toBeDefined();
    expect(valueProblem("int32", "1_000")).toBeUndefined();
    expect(valueProblem("int32", "_1")).toBeDefined();
    expect(valueProblem("int32", "0b101")).toBeUndefined();
    expect(valueProblem("int32", "09")).toBeDefined();
    expect(valueProblem("int", "-9223372036854775808")).toBeUndefined();
    expect(valueProblem("duration", "")).toBeDefined();
    expect(valueProblem("duration", "-1.5h")).toBeUndefined();
    expect(valueProblem("duration", "3000000h")).toContain("longer than a Go duration holds");
    expect(valueProblem("stringSlice", 'a,"b,c",d')).toBeUndefined();
    expect(valueProblem("stringSlice", 'a,b"c')).toContain("bare");
    expect(valueProblem("stringSlice", '"a"b')).toContain("extraneous");
    expect(valueProblem("ip", "::1")).toBeUndefined();
    expect(valueProblem("ip", "010.0.0.1")).toBeUndefined();
    expect(valueProblem("ip", "10.0.0")).toBeDefined();
    expect(valueProblem("vmodule", "foo*=3,bar=1")).toBeUndefined();
    expect(valueProblem("vmodule", "foo")).toContain("pattern=N");
    expect(valueProblem("quantity", "2Ki")).toBeUndefined();
    expect(valueProblem("quantity", "2KB")).toBeDefined();
    expect(valueProblem("reservedMemory", "0:memory=1Gi,hugepages-1M=2Gi;1:memory=2Gi")).toBeUndefined();
    expect(valueProblem("reservedMemory", "0:cpu=1")).toContain("unknown memory type");
    expect(valueProblem("colonSeparatedMultimapStringString", "a:hello,b:again")).toBeUndefined();
    expect(valueProblem("colonSeparatedMultimapStringString", "a=hello")).toBeDefined();
    expect(valueProblem("configurationMap", "anything,goes")).toBeUndefined();
    expect(valueProblem("taints", "key:NoSchedule,key-")).toBeUndefined();
    expect(valueProblem("taints", "a=b:NoSchedule,a=c:NoSchedule")).toContain("duplicated");
  });
});
