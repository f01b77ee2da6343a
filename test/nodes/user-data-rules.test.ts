import { build, rejection } from "./node-props";

/*
 * Literal userData against what the AMI family's bootstrap reads (lib/nodes/user-data-rules.ts):
 * Bottlerocket TOML (Karpenter bottlerocket.go / bottlerocketsettings.go), AL2023 NodeConfig YAML, shell
 * script or MIME multipart (nodeadm.go, mime.go; nodeadm's configprovider). Each invalid document has a
 * valid look-alike that passes.
 */

const br = (userData: string) => ({ amiSelectorTerms: [{ alias: "bottlerocket@latest" }], userData });
const al = (userData: string) => ({ amiSelectorTerms: [{ alias: "al2023@latest" }], userData });

describe("Bottlerocket reads TOML", () => {
  test.each([
    [
      "a shell script",
      "#!/bin/bash\necho hello > /tmp/x\n",
      2,
      "echo hello > /tmp/x",
      "A shell script does not run on Bottlerocket: use settings.bootstrap-commands",
    ],
    ["a TOML syntax error", "[settings.kubernetes]\nmax-pods = [110\n", 3, "", "Bottlerocket settings in TOML ("],
    [
      "a table outside settings (dropped silently)",
      "[kubernetes]\nmax-pods = 110\n",
      1,
      "[kubernetes]",
      'only the settings table (and its subtables, [settings.kubernetes] …): user data for the Bottlerocket AMI family keeps nothing else, Karpenter writes back only "settings" (Karpenter\'s Bottlerocket bootstrap, bottlerocketsettings.go, MarshalTOML), so "kubernetes" would be dropped silently. Did you mean [settings.kubernetes]?',
    ],
    [
      "max-pods as a string",
      '[settings.kubernetes]\nmax-pods = "110"\n',
      2,
      'max-pods = "110"',
      'settings.kubernetes.max-pods as an integer, got a string: user data for the Bottlerocket AMI family is decoded into typed settings, and Karpenter fails every launch with "invalid UserData"',
    ],
    [
      "node-labels not a table of strings",
      "[settings.kubernetes.node-labels]\nteam = 5\n",
      2,
      "team = 5",
      "settings.kubernetes.node-labels.team as a string, got an integer",
    ],
    [
      "image-gc-high-threshold-percent as a number (Karpenter types it as a string)",
      "[settings.kubernetes]\nimage-gc-high-threshold-percent = 85\n",
      2,
      "image-gc-high-threshold-percent = 85",
      "settings.kubernetes.image-gc-high-threshold-percent as a string, got an integer",
    ],
    [
      "bootstrap-commands with commands as one string",
      '[settings.bootstrap-commands.setup]\ncommands = "echo hi"\nmode = "once"\n',
      2,
      'commands = "echo hi"',
      "settings.bootstrap-commands.setup.commands as an array of arrays of strings, got a string",
    ],
  ])("%s is refused, naming the line", (_what, userData, line, text, message) => {
    const e = rejection("EC2NodeClass", br(userData));
    expect(e.problems).toHaveLength(1);
    expect(e.field).toBe("userData");
    expect(e.value).toBe(text === "" ? `line ${line}` : `line ${line}: ${text}`);
    expect(e.message).toContain(message);
  });
  test("look-alikes: settings TOML with typed values, bootstrap commands, unknown settings Bottlerocket reads itself", () => {
    for (const u of [
      '[settings.kubernetes]\nmax-pods = 110\nimage-gc-high-threshold-percent = "85"\n[settings.kubernetes.node-labels]\nteam = "ml"\n[settings.kubernetes.node-taints]\ndedicated = ["gpu:NoSchedule"]\n',
      '[settings.bootstrap-commands.setup]\ncommands = [["apiclient", "set", "motd=hi"]]\nmode = "once"\nessential = true\n',
      '[settings.host-containers.admin]\nenabled = true\n[settings.kernel.sysctl]\n"net.core.somaxconn" = "1024"\n',
      "# only a comment\n",
      '[settings.kubernetes]\ncluster-dns-ip = "10.100.0.10"\n',
    ])
      expect(() => build("EC2NodeClass", br(u))).not.toThrow();
  });
  test("the family comes from amiFamily too; a shell script on AL2023 is fine", () => {
    expect(
      rejection("EC2NodeClass", {
        amiFamily: "Bottlerocket",
        amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }],
        userData: "#!/bin/bash\necho hi\n",
      }).field,
    ).toBe("userData");
    expect(() => build("EC2NodeClass", al("#!/bin/bash\necho hi\n"))).not.toThrow();
  });
});

describe("Bottlerocket: every typed setting of Karpenter's structs, per minor (fresh-tester-9 U1, U4)", () => {
  // lib/versions/data/bottlerocket-settings-fields.json (bottlerocketsettings.go); go-toml v2.4.3's behaviour on
  // each input below was checked by running it on the structs
  test.each(["1.14.1", "1.15.0"])("cluster-dns-ip as an array is refused on %s (ClusterDNSIP *string)", (version) => {
    const e = rejection(
      "EC2NodeClass",
      br('[settings.kubernetes]\ncluster-dns-ip = ["10.100.0.10", "10.100.0.11"]\n'),
      version,
    );
    expect(e.problems).toHaveLength(1);
    expect(e.value).toBe('line 2: cluster-dns-ip = ["10.100.0.10", "10.100.0.11"]');
    expect(e.message).toContain(
      `settings.kubernetes.cluster-dns-ip as a string, got an array: user data for the Bottlerocket AMI family is decoded into typed settings, and Karpenter fails every launch with "invalid UserData" when a value has another type (Karpenter's Bottlerocket bootstrap, bottlerocketsettings.go, Karpenter ${version.slice(0, 4)}'s BottlerocketSettings struct)`,
    );
  });
  test("every wrong type in the settings comes in one error: floats, ranges, nested structs, an array of tables, folded keys", () => {
    const u = [
      "[settings.kubernetes]",
      "max-pods = 5.0",
      "log-level = -1",
      'cluster-dns-ip = ["10.100.0.10"]',
      'EVENT-QPS = "5"',
      "[[settings.kubernetes.node-labels]]",
      'team = "ml"',
      "[settings.kubernetes.static-pods.web]",
      'enabled = "yes"',
      "[settings.kubernetes.credential-providers.ecr-credential-provider]",
      "enabled = true",
      'image-patterns = "*.dkr.ecr.*.amazonaws.com"',
      "[settings.kubernetes.topology-manager-policy-options]",
      'max-allowable-numa-nodes = "2"',
      "[settings.bootstrap-commands.setup]",
      'commands = [["echo", 1]]',
      'essential = "true"',
    ].join("\n");
    const e = rejection("EC2NodeClass", br(u), "1.15.0");
    expect(e.problems).toHaveLength(1);
    expect(e.value).toBe("line 2: max-pods = 5.0");
    for (const part of [
      "settings.kubernetes.max-pods as an integer, got a float",
      "settings.kubernetes.log-level as an integer from 0 to 4294967295, got -1, which is out of range",
      "settings.kubernetes.cluster-dns-ip as a string, got an array",
      "settings.kubernetes.EVENT-QPS as an integer, got a string",
      "settings.kubernetes.node-labels as a table of strings, got an array",
      "settings.kubernetes.static-pods.web.enabled as true or false, got a string",
      "settings.kubernetes.credential-providers.ecr-credential-provider.image-patterns as an array of strings, got a string",
      "settings.kubernetes.topology-manager-policy-options.max-allowable-numa-nodes as an integer, got a string",
      "settings.bootstrap-commands.setup.commands[0][1] as a string, got an integer",
      "settings.bootstrap-commands.setup.essential as true or false, got a string",
    ])
      expect(e.message).toContain(part);
  });
  // Bottlerocket's own settings model (bottlerocket-settings-sdk@2363566c, settings-extensions/kubernetes/src/lib.rs)
  // types these keys narrower than Karpenter's Go structs: max_pods u32, log_level u8, registry_qps i32,
  // eviction_max_pod_grace_period NonNegativeInteger; Karpenter passes the values, Bottlerocket refuses them at boot
  test.each([
    ["max-pods = -1", "settings.kubernetes.max-pods as an integer from 0 to 4294967295 (Bottlerocket's u32), got -1"],
    [
      "max-pods = 4294967296",
      "settings.kubernetes.max-pods as an integer from 0 to 4294967295 (Bottlerocket's u32), got 4294967296",
    ],
    ["log-level = 300", "settings.kubernetes.log-level as an integer from 0 to 255 (Bottlerocket's u8), got 300"],
    [
      "registry-qps = 2147483648",
      "settings.kubernetes.registry-qps as an integer from -2147483648 to 2147483647 (Bottlerocket's i32), got 2147483648",
    ],
    [
      "eviction-max-pod-grace-period = -5",
      "settings.kubernetes.eviction-max-pod-grace-period as an integer from 0 up (Bottlerocket's NonNegativeInteger), got -5",
    ],
  ])("Bottlerocket's settings model refuses %s, which Karpenter's type takes", (line, part) => {
    const e = rejection("EC2NodeClass", br(`[settings.kubernetes]\n${line}\n`), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.value).toBe(`line 2: ${line}`);
    expect(e.message).toContain(part);
    expect(e.message).toContain("Bottlerocket itself refuses the settings at boot");
    expect(e.message).not.toContain("Karpenter fails every launch");
  });
  test("values inside Bottlerocket's ranges pass; a value Karpenter already refuses is reported once, as Karpenter's", () => {
    const u =
      "[settings.kubernetes]\nmax-pods = 110\nlog-level = 4\nregistry-qps = 50\neviction-max-pod-grace-period = 0\n";
    expect(() => build("EC2NodeClass", br(u), "1.15.0")).not.toThrow();
    const e = rejection("EC2NodeClass", br("[settings.kubernetes]\nlog-level = -1\n"), "1.15.0");
    expect(e.message).toContain("log-level as an integer from 0 to 4294967295, got -1");
    expect(e.message).not.toContain("Bottlerocket's u8");
  });
  test("memory-manager-reserved-memory is typed from 1.15 (1.14.1 has no such field: its decode skips the key)", () => {
    const u = '[settings.kubernetes.memory-manager-reserved-memory.0]\nenabled = "true"\nmemory = "1Gi"\n';
    expect(rejection("EC2NodeClass", br(u), "1.15.0").message).toContain(
      "settings.kubernetes.memory-manager-reserved-memory.0.enabled as true or false, got a string",
    );
    expect(() => build("EC2NodeClass", br(u), "1.14.1")).not.toThrow();
    expect(() => build("EC2NodeClass", br(u.replace('"true"', "true")), "1.15.0")).not.toThrow();
  });
  test("a UTF-8 byte-order mark is refused, naming it, and the settings' own problems come with it", () => {
    const e = rejection("EC2NodeClass", br("\uFEFF[settings.kubernetes]\nmax-pods = 110\n"));
    expect(e.problems).toHaveLength(1);
    expect(e.value).toBe("line 1: [settings.kubernetes]");
    expect(e.message).toContain("TOML without a byte-order mark");
    expect(e.message).toContain('"invalid character at start of key: U+00EF"');
    const both = rejection("EC2NodeClass", br('\uFEFF[settings.kubernetes]\ncluster-dns-ip = ["10.0.0.10"]\n'));
    expect(both.message).toContain("TOML without a byte-order mark");
    expect(both.message).toContain(". Also line 2: settings.kubernetes.cluster-dns-ip as a string, got an array");
  });
  test("look-alikes: values go-toml decodes, keys it skips or folds, settings other than Karpenter's", () => {
    for (const u of [
      '[settings.kubernetes]\ncluster-dns-ip = "10.100.0.10"\n',
      // the edges of Bottlerocket's own ranges (u8, u32, NonNegativeInteger), narrower than Karpenter's uint32 / int
      "[settings.kubernetes]\nlog-level = 255\nmax-pods = 0x10\neviction-max-pod-grace-period = 0\n",
      "[settings.kubernetes]\nmax-pods = 4294967295\nregistry-qps = 2147483647\n",
      // a key Karpenter's struct lacks is skipped by the decode (only logged by its strict pass)
      '[settings.kubernetes]\nno-such-setting = ["x"]\n[settings.kubernetes.static-pods.web]\nmanifest = "bQ=="\nbogus = 1\n',
      // keys match fields case-insensitively, the settings table too (a case-folded table name, [settings.Kubernetes],
      // is written back as written too, and Bottlerocket refuses it: bottlerocket-settings-names.test.ts)
      "[Settings.kubernetes]\nMax-Pods = 7\n",
      '[settings.kubernetes]\nnode-labels = { "a.b/c" = "d" }\nallowed-unsafe-sysctls = []\n',
      '[settings.kubernetes.credential-providers.ecr-credential-provider]\nenabled = true\nimage-patterns = ["*.dkr.ecr.*.amazonaws.com"]\nenvironment = { AWS_REGION = "eu-west-1" }\n',
      '[settings.bootstrap-commands.setup]\ncommands = [["apiclient", "set", "motd=1"]]\nmode = "once"\n',
      // a table Karpenter passes on as written (Bottlerocket's model judges it: bottlerocket-settings-tables.test.ts)
      '[settings.kernel]\nlockdown = "integrity"\n',
      '[settings.kubernetes]\nmax-pods = 110 # a comment\r\nimage-gc-high-threshold-percent = "85"\r\n',
    ])
      expect(() => build("EC2NodeClass", br(u), "1.15.0")).not.toThrow();
  });
  test("a wrong type beside EBS and kubelet problems of the same class: all at once (fresh-tester-9 A2)", () => {
    const e = rejection(
      "EC2NodeClass",
      {
        ...br('[settings.kubernetes]\ncluster-dns-ip = ["10.100.0.10", "10.100.0.11"]\n'),
        blockDeviceMappings: [{ deviceName: "/dev/xvdb", ebs: { volumeSize: "20Gi", volumeType: "io2", iops: 20001 } }],
      },
      "1.15.0",
    );
    expect(e.problems.map((p) => p.code)).toEqual(["EC2NODECLASS_EBS_IOPS", "EC2NODECLASS_USER_DATA"]);
  });
});

describe("AL2023 reads a NodeConfig, a shell script or a MIME multipart document", () => {
  const NODECONFIG =
    "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 110\n";
  const mime = (parts: string, close = true) =>
    `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="BOUNDARY"\n\n${parts}${close ? "--BOUNDARY--\n" : ""}`;
  test.each([
    [
      "a #cloud-config document (a YAML map, so taken as a NodeConfig)",
      "#cloud-config\npackages:\n  - jq\n",
      1,
      "#cloud-config",
      "this one has kind null, so nodeadm stops and the node never joins. A #cloud-config document goes in a MIME multipart part with Content-Type: text/cloud-config",
    ],
    [
      "a NodeConfig with a wrong kind",
      "apiVersion: node.eks.aws/v1alpha1\nkind: KubeletConfig\nspec: {}\n",
      2,
      "kind: KubeletConfig",
      'user data for the AL2023 AMI family that is a YAML map is passed to nodeadm as a NodeConfig (Karpenter\'s AL2023 bootstrap, nodeadm.go, parseUserData), and this one has kind "KubeletConfig"',
    ],
    [
      "a NodeConfig with another API group",
      "apiVersion: eks.amazonaws.com/v1\nkind: NodeConfig\n",
      1,
      "apiVersion: eks.amazonaws.com/v1",
      'this one has apiVersion "eks.amazonaws.com/v1"',
    ],
    [
      "MIME without a multipart Content-Type",
      "MIME-Version: 1.0\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n",
      2,
      "Content-Type: text/x-shellscript",
      'a MIME multipart document (Content-Type "text/x-shellscript" is not multipart/…)',
    ],
    [
      "MIME without a boundary",
      "MIME-Version: 1.0\nContent-Type: multipart/mixed\n\n--x\n\necho\n--x--\n",
      2,
      "Content-Type: multipart/mixed",
      "the multipart Content-Type has no boundary parameter",
    ],
    [
      "MIME whose boundary never appears (Karpenter reads no part: all dropped)",
      'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--OTHER\n\necho hi\n',
      3,
      "",
      'the boundary line "--B" never appears, so Karpenter reads no part and drops the whole user data silently',
    ],
    [
      "MIME without the closing boundary",
      mime("--BOUNDARY\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n", false),
      8,
      "echo hi",
      'the closing boundary line "--BOUNDARY--" is missing after the last part',
    ],
    [
      "a MIME header line without a colon",
      "MIME-Version: 1.0\nthis is not a header\n\n",
      2,
      "this is not a header",
      'a header line is "Name: value", and this one is not',
    ],
    [
      "a NodeConfig part that is no NodeConfig",
      mime("--BOUNDARY\nContent-Type: application/node.eks.aws\n\napiVersion: v1\nkind: ConfigMap\n"),
      8,
      "kind: ConfigMap",
      "an application/node.eks.aws part of AL2023 user data is passed to nodeadm as a NodeConfig",
    ],
    [
      "a NodeConfig that is no YAML (a tab indent): it would be passed on as a shell script",
      "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n\tkubelet: {}\n",
      4,
      "kubelet: {}",
      "a NodeConfig that parses as YAML (Tabs are not allowed as indentation): this user data for the AL2023 AMI family has the apiVersion or kind of a NodeConfig but is no YAML, so Karpenter passes it on as a shell script part",
    ],
    [
      "a NodeConfig starting with kind whose bracket is never closed",
      "kind: NodeConfig\napiVersion: node.eks.aws/v1alpha1\nspec:\n  kubelet:\n    config: {maxPods: 110\n",
      6,
      "",
      "a NodeConfig that parses as YAML (",
    ],
    [
      "a NodeConfig part that is no YAML",
      mime("--BOUNDARY\nContent-Type: application/node.eks.aws\n\nkind: NodeConfig\nspec:\n\tkubelet: {}\n"),
      9,
      "kubelet: {}",
      "a NodeConfig in YAML (Tabs are not allowed as indentation): an application/node.eks.aws part of AL2023 user data is decoded by nodeadm as a NodeConfig",
    ],
  ])("%s is refused, naming the line", (_what, userData, line, text, message) => {
    const e = rejection("EC2NodeClass", al(userData));
    expect(e.problems).toHaveLength(1);
    expect(e.field).toBe("userData");
    expect(e.value).toBe(text === "" ? `line ${line}` : `line ${line}: ${text}`);
    expect(e.message).toContain(message);
  });
  test("look-alikes: a NodeConfig, a shell script, a MIME document with a NodeConfig, a shell and a cloud-config part", () => {
    for (const u of [
      NODECONFIG,
      "#!/bin/bash\nset -e\necho hello\n",
      mime(
        `--BOUNDARY\nContent-Type: application/node.eks.aws\n\n${NODECONFIG}\n--BOUNDARY\nContent-Type: text/x-shellscript; charset="us-ascii"\n\n#!/bin/bash\necho hi\n\n--BOUNDARY\nContent-Type: text/cloud-config\n\n#cloud-config\npackages: [jq]\n\n`,
      ),
      'Content-Type: multipart/mixed; boundary="//"\n\n--//\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n--//--\n',
      // look-alikes of a broken NodeConfig: a script (#!) writing one with a tab, and no-YAML text without its apiVersion / kind
      "#!/bin/bash\ncat <<EOF > /etc/eks/extra.yaml\nkind: NodeConfig\nspec:\n\tkubelet: {}\nEOF\n",
      "#!/bin/sh\necho 'kind: x' : [\n",
    ])
      expect(() => build("EC2NodeClass", al(u))).not.toThrow();
  });
  test("other families and tokens are not judged here", () => {
    // (Bottlerocket's TOML on AL2 is: test/nodes/fresh-tester-22.test.ts)
    expect(() =>
      build("EC2NodeClass", { amiSelectorTerms: [{ alias: "al2@latest" }], userData: "#!/bin/bash\n[ -f x ]\n" }),
    ).not.toThrow();
    expect(() =>
      build("EC2NodeClass", {
        amiFamily: "Custom",
        amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }],
        userData: "#cloud-config\na: 1\n",
      }),
    ).not.toThrow();
  });
});

describe("AL2023 MIME with something before its first header (fresh-tester-9 U25)", () => {
  const MIME =
    'Content-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n--B--\n';
  test.each([
    ["leading empty lines", `\n\n${MIME}`, "an empty line ends the header block"],
    ["a leading CRLF", `\r\n${MIME.replace(/\n/g, "\r\n")}`, "an empty line ends the header block"],
    ["a line of spaces", `   \n${MIME}`, '"malformed initial line"'],
    ["a leading no-break space", `\u00a0${MIME}`, "the first header's name then starts with that character"],
    ["a leading space", ` MIME-Version: 1.0\n${MIME}`, '"malformed initial line"'],
  ])("%s is refused (Go's net/mail reads the text as written)", (_what, userData, why) => {
    const e = rejection("EC2NodeClass", al(userData));
    expect(e.problems).toHaveLength(1);
    expect(e.value).toMatch(/^line 1\b/);
    expect(e.message).toContain("a MIME multipart document (headers from the first character");
    expect(e.message).toContain(why);
    expect(e.message).toContain("nodeadm.go:127-131");
  });
  test("look-alikes: CRLF MIME from the first character, a NodeConfig with a BOM, a NodeConfig in JSON", () => {
    for (const u of [
      MIME.replace(/\n/g, "\r\n"),
      `MIME-Version: 1.0\r\n${MIME.replace(/\n/g, "\r\n")}`,
      "\uFEFFapiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec: {}\n",
      '{"apiVersion": "node.eks.aws/v1alpha1", "kind": "NodeConfig", "spec": {}}',
    ])
      expect(() => build("EC2NodeClass", al(u))).not.toThrow();
  });
  test("beside EBS and kubelet problems of the same class: all at once (fresh-tester-9 A6)", () => {
    const e = rejection("EC2NodeClass", {
      ...al(`\n\n${MIME}`),
      blockDeviceMappings: [
        { deviceName: "/dev/xvda", ebs: { volumeSize: "20Gi", volumeType: "gp3", iops: 3000, throughput: 751 } },
      ],
      kubelet: { maxPods: -1 },
    });
    expect(e.problems.map((p) => p.field)).toContain("userData");
    expect(e.problems).toHaveLength(3);
  });
});

/** The synth warnings of an EC2NodeClass built from `props` that contain `text`. */
function classWarnings(props: Record<string, unknown>, text: string, version?: string): string[] {
  return build("EC2NodeClass", props, version)
    .node.findAll()
    .flatMap((c) => c.node.metadata)
    .filter((m) => m.type === "@cdktf/warn")
    .map((m) => String(m.data))
    .filter((w) => w.includes(text));
}

describe("Windows user data with EC2Launch tags: a warning (Karpenter wraps it in its own <powershell> block)", () => {
  const win = (userData: string) => ({ amiSelectorTerms: [{ alias: "windows2022@latest" }], userData });
  const warningsOf = (props: Record<string, unknown>) => classWarnings(props, "windows.go");
  test.each([
    ["<powershell> without its closing tag", "<powershell>\nWrite-Host hi\n", "<powershell>"],
    ["a <script> batch", "<script>\necho hi\n</script>\n", "<script>"],
    ["<powershell> … </powershell>", "<powershell>\nWrite-Host hi\n</powershell>\n", "<powershell>"],
  ])("%s", (_what, userData, tag) => {
    const w = warningsOf(win(userData));
    expect(w).toHaveLength(1);
    expect(w[0]).toContain(
      `EC2NodeClass obj: userData holds the tag ${tag}, and Karpenter writes Windows2022 user data inside its own <powershell> … </powershell> block`,
    );
  });
  test("look-alikes: PowerShell commands alone; tags on another family", () => {
    expect(warningsOf(win("New-Item -Path 'C:\\temp\\' -ItemType Directory\n"))).toEqual([]);
    expect(warningsOf(win("$html = '<b><script></b>'\n"))).toEqual([]);
    expect(warningsOf(al("#!/bin/bash\n# <powershell>\necho hi\n"))).toEqual([]);
  });
});

describe("every refusal here is one the agreement stage excuses (the API server accepts any userData)", () => {
  const ag = require("../../scripts/e2e/agreement.cjs");
  const mime = (body: string) => `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n${body}`;
  test.each([
    br("#!/bin/bash\necho hi\n"),
    br("[kubernetes]\nmax-pods = 110\n"),
    br('[settings.kubernetes]\nmax-pods = "110"\n'),
    br('settings = "x"\n'),
    br('[settings.bootstrap-commands.setup]\ncommands = "echo hi"\n'),
    al("#cloud-config\npackages: [jq]\n"),
    al("MIME-Version: 1.0\nContent-Type: text/plain\n\nx\n"),
    al("MIME-Version: 1.0\nContent-Type: multipart/mixed\n\nx\n"),
    al(mime("--OTHER\n\nx\n")),
    al(mime("--B\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n")),
    al("MIME-Version: 1.0\nnot a header\n\n"),
    al(mime("--B\nContent-Type: application/node.eks.aws\n\nkind: ConfigMap\n--B--\n")),
    al("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n\tkubelet: {}\n"),
    al(mime("--B\nContent-Type: application/node.eks.aws\n\nkind: NodeConfig\nspec: [\n--B--\n")),
    al(`\n\n${mime("--B\n\necho hi\n--B--\n")}`),
    br('[settings.kubernetes]\ncluster-dns-ip = ["10.100.0.10"]\n'),
    br("\uFEFF[settings.kubernetes]\nmax-pods = 110\n"),
    br("[settings.kubernetes.static-pods.web]\nenabled = 1\n"),
    al("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    flags: --v=2\n"),
    al(
      "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    flags: [--node-labels=kubernetes.io/role=x]\n",
    ),
    al(
      mime(
        "--B\nContent-Type: application/node.eks.aws\n\nkind: NodeConfig\napiVersion: node.eks.aws/v1alpha1\nspec: hello\n--B--\n",
      ),
    ),
    {
      amiSelectorTerms: [{ alias: "al2@latest" }],
      userData: mime("--B\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n"),
    },
    {
      amiSelectorTerms: [{ alias: "al2@latest" }],
      userData: "MIME-Version: 1.0\nContent-Type: multipart/mixed\n\nx\n",
    },
  ])("%j", (props) => {
    const e = rejection("EC2NodeClass", props);
    for (const p of e.problems) expect(ag.semanticRuleOf(p, "1.14.1")?.id).toBe("user-data-format");
  });
});

test("a NodeConfig kubelet config value of the wrong type (1.15) is a refusal the agreement stage excuses", () => {
  const ag = require("../../scripts/e2e/agreement.cjs");
  const u =
    "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      featureGates: {Foo: x}\n";
  for (const p of rejection("EC2NodeClass", al(u), "1.15.0").problems)
    expect(ag.semanticRuleOf(p, "1.15.0")?.id).toBe("user-data-format");
});

test("16 KB of user data on AL2023 is a refusal the agreement stage excuses as user-data-size", () => {
  const ag = require("../../scripts/e2e/agreement.cjs");
  for (const p of rejection("EC2NodeClass", al(`#!/bin/sh\n${"x".repeat(16 * 1024 - 10)}`)).problems)
    expect(ag.semanticRuleOf(p, "1.14.1")?.id).toBe("user-data-size");
});

describe("a userData problem comes beside the EBS problems of the same class (all at once)", () => {
  const KMS = "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab";
  const SHELL = "#!/bin/bash\necho hi\n";
  const withEbs = (userData: string, ebs: Record<string, unknown>) => ({
    ...br(userData),
    blockDeviceMappings: [{ deviceName: "/dev/xvdb", ebs }],
  });
  test.each<[string, Record<string, unknown>, string[]]>([
    ["st1 too small", { volumeSize: "10Gi", volumeType: "st1" }, ["EC2NODECLASS_EBS_VOLUME_SIZE"]],
    ["kmsKeyID without encrypted", { volumeSize: "200Gi", kmsKeyID: KMS }, ["EC2NODECLASS_EBS_KMS_KEY_UNENCRYPTED"]],
    [
      "both",
      { volumeSize: "10Gi", volumeType: "st1", kmsKeyID: KMS },
      ["EC2NODECLASS_EBS_VOLUME_SIZE", "EC2NODECLASS_EBS_KMS_KEY_UNENCRYPTED"],
    ],
  ])("a shell script on Bottlerocket and %s", (_d, ebs, codes) => {
    const e = rejection("EC2NodeClass", withEbs(SHELL, ebs));
    expect(e.problems.map((p) => p.code)).toEqual([...codes, "EC2NODECLASS_USER_DATA"]);
    const ud = e.problems.find((p) => p.field === "userData");
    expect(ud?.message).toContain("A shell script does not run on Bottlerocket");
  });
  test('look-alike: a lone "#!/bin/bash" line is a TOML comment, which Bottlerocket reads as no settings', () => {
    // the fresh tester's 6.6 / 6.8 / 6.9 used this user data: it is valid alone too, so only the EBS problems remain
    expect(() => build("EC2NodeClass", withEbs("#!/bin/bash\n", { volumeSize: "200Gi" }))).not.toThrow();
    const e = rejection("EC2NodeClass", withEbs("#!/bin/bash\n", { volumeSize: "10Gi", volumeType: "st1" }));
    expect(e.problems.map((p) => p.code)).toEqual(["EC2NODECLASS_EBS_VOLUME_SIZE"]);
  });
});

describe("AL2023 NodeConfig spec against nodeadm's v1alpha1 types (fresh-tester-13 S-1..S-4)", () => {
  const NC = "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\n";
  const mime = (part: string) =>
    `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: application/node.eks.aws\n\n${part}\n--B\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n--B--\n`;
  test.each([
    [
      "flags a string (S-1)",
      `${NC}spec:\n  kubelet:\n    flags: --v=2\n`,
      5,
      "flags: --v=2",
      "spec.kubelet.flags is a string",
      "a list of string",
    ],
    [
      "a flag a number (S-1)",
      `${NC}spec:\n  kubelet:\n    flags: [1]\n`,
      5,
      "flags: [1]",
      "spec.kubelet.flags[0] is a number",
      "a string",
    ],
    // go-yaml v2 reads `yes` as true (YAML 1.1), as nodeadm's sigs.k8s.io/yaml does
    [
      "flags yes: a bool to Go (S-1)",
      `${NC}spec:\n  kubelet:\n    flags: yes\n`,
      5,
      "flags: yes",
      "spec.kubelet.flags is a boolean",
      "a list",
    ],
    [
      "flags a string, in JSON (S-1)",
      '{"apiVersion":"node.eks.aws/v1alpha1","kind":"NodeConfig","spec":{"kubelet":{"flags":"--v=2"}}}',
      1,
      '{"apiVersion":"node.eks.aws/v1alpha1","kind":"NodeConfig","spec":{"kubelet":{"flags":"--v=2"}}}',
      "spec.kubelet.flags is a string",
      "a list of string",
    ],
    [
      "cluster.cidr a number (S-2)",
      `${NC}spec:\n  cluster:\n    cidr: 10\n`,
      5,
      "cidr: 10",
      "spec.cluster.cidr is a number",
      "nodeadm v1alpha1.ClusterDetails.cidr takes a string",
    ],
    [
      "apiServerEndpoint a number (S-2)",
      `${NC}spec:\n  cluster:\n    apiServerEndpoint: 123\n`,
      5,
      "apiServerEndpoint: 123",
      "spec.cluster.apiServerEndpoint is a number",
      "a string",
    ],
    [
      "kubelet.config a list (S-3)",
      `${NC}spec:\n  kubelet:\n    config: [1]\n`,
      5,
      "config: [1]",
      "spec.kubelet.config is a list",
      "a map of any JSON value",
    ],
    [
      "containerd.config a map (S-3)",
      `${NC}spec:\n  containerd:\n    config: {a: 1}\n`,
      5,
      "config: {a: 1}",
      "spec.containerd.config is a map",
      "a string",
    ],
    [
      "spec a string (S-4)",
      `${NC}spec: hello\n`,
      3,
      "spec: hello",
      "spec is a string",
      "a map (nodeadm v1alpha1 NodeConfigSpec)",
    ],
    [
      "certificateAuthority not base64",
      `${NC}spec:\n  cluster:\n    certificateAuthority: not base64!\n`,
      5,
      "certificateAuthority: not base64!",
      "spec.cluster.certificateAuthority is a string",
      "a base64 string",
    ],
  ])("%s is refused with the field path", (_what, userData, line, text, path, takes) => {
    const e = rejection("EC2NodeClass", al(userData));
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.field).toBe("userData");
    expect(e.value).toBe(`line ${line}: ${text}`);
    expect(e.message).toContain("a NodeConfig spec nodeadm can decode: this user data for the AL2023 AMI family");
    expect(e.message).toContain(path);
    expect(e.message).toContain(takes);
    expect(e.message).toContain("internal/api/bridge/decode.go:21");
  });
  test("all wrong values in one message, the first one's line", () => {
    const e = rejection("EC2NodeClass", al(`${NC}spec:\n  cluster:\n    cidr: 10\n  kubelet:\n    flags: [1, true]\n`));
    expect(e.value).toBe("line 5: cidr: 10");
    expect(e.message).toMatch(
      /spec\.cluster\.cidr is a number.*spec\.kubelet\.flags\[0\] is a number.*spec\.kubelet\.flags\[1\] is a boolean/,
    );
  });
  test("a value nodeadm cannot decode does not hide what the kubelet and setup-local-disks refuse elsewhere (fresh tester 35: 6e)", () => {
    const e = rejection(
      "EC2NodeClass",
      al(
        `${NC}spec:\n  cluster:\n    cidr: 10\n  kubelet:\n    config:\n      cpuManagerPolicy: Static\n    flags:\n      - --max-pod=110\n  instance:\n    localStorage:\n      strategy: RAID5\n`,
      ),
    );
    expect(e.problems).toHaveLength(1);
    expect(e.value).toBe("line 5: cidr: 10");
    expect(e.message).toMatch(
      /^.*a NodeConfig spec nodeadm can decode: .*spec\.cluster\.cidr is a number.*\. Also line 10: kubelet flags the kubelet can parse: .*--max-pod is no flag.*\. Also line 8: kubelet config values the kubelet accepts: .*cpuManagerPolicy = "Static".*\. Also line 13: a local storage strategy the AMI takes.*"RAID5"/,
    );
    // the part that holds the undecodable value is that problem alone: no second finding for the same flags
    const flags = rejection("EC2NodeClass", al(`${NC}spec:\n  kubelet:\n    flags: [1, --max-pod=110]\n`));
    expect(flags.message).toContain("spec.kubelet.flags[0] is a number");
    expect(flags.message).not.toContain("Also line");
    // flags and config are judged apart: a string of flags does not hide the config's problems (fresh tester 37: 6.12)
    const config = rejection(
      "EC2NodeClass",
      al(`${NC}spec:\n  kubelet:\n    config:\n      cpuManagerPolicy: Static\n    flags: "--max-pods=10"\n`),
    );
    expect(config.message).toMatch(
      /spec\.kubelet\.flags is a string.*\. Also line 6: kubelet config values the kubelet accepts: .*"Static"/,
    );
  });
  test("baseRuntimeSpec rlimits with soft above hard are refused: no container starts (fresh tester 41: 4.40)", () => {
    const spec = (soft: number, hard: number) =>
      al(
        `${NC}spec:\n  containerd:\n    baseRuntimeSpec:\n      process:\n        rlimits:\n          - type: RLIMIT_NOFILE\n            soft: ${soft}\n            hard: ${hard}\n`,
      );
    const e = rejection("EC2NodeClass", spec(8192, 1024));
    expect(e.value).toBe("line 8: - type: RLIMIT_NOFILE");
    expect(e.message).toContain(
      "spec.containerd.baseRuntimeSpec.process.rlimits[0] (RLIMIT_NOFILE) soft 8192 above hard 1024",
    );
    expect(e.message).toContain("base_runtime_spec.go:19-38");
    expect(() => build("EC2NodeClass", spec(1024, 8192))).not.toThrow();
  });
  // fresh tester 43: 4.34 (a type runc does not know), 4.42 (a limit written as a string)
  test("baseRuntimeSpec rlimits runc or containerd refuse: an unknown type, a limit that is no uint64, all at once", () => {
    const rlimits = (...items: string[]) =>
      al(
        `${NC}spec:\n  containerd:\n    baseRuntimeSpec:\n      process:\n        rlimits:\n${items.map((i) => `          - ${i}\n`).join("")}`,
      );
    const typo = rejection("EC2NodeClass", rlimits("{type: RLIMIT_NOFILES, soft: 1024, hard: 4096}"));
    expect(typo.value).toBe("line 8: - {type: RLIMIT_NOFILES, soft: 1024, hard: 4096}");
    expect(typo.message).toContain(
      'spec.containerd.baseRuntimeSpec.process.rlimits[0].type is "RLIMIT_NOFILES" (did you mean RLIMIT_NOFILE?)',
    );
    expect(typo.message).toContain('runc refuses every container of that spec with "wrong rlimit value"');
    const text = rejection("EC2NodeClass", rlimits('{type: RLIMIT_NOFILE, soft: "1024", hard: 4096}'));
    expect(text.message).toContain(
      'spec.containerd.baseRuntimeSpec.process.rlimits[0].soft is a string ("1024"), where POSIXRlimit.soft takes a whole number, not negative (uint64)',
    );
    expect(text.message).toContain('"failed to parse base OCI spec file"');
    // RLIM_INFINITY as written: nodeadm's merge turns it into a float64, written back past uint64
    const infinity = rejection("EC2NodeClass", rlimits("{type: RLIMIT_MEMLOCK, soft: 0, hard: 18446744073709551615}"));
    expect(infinity.message).toContain("writes this one back as 18446744073709552000, past uint64");
    // every rlimit problem of the list in one error, each kind with its own outcome
    const all = rejection(
      "EC2NodeClass",
      rlimits(
        "{type: RLIMIT_NOFILE, soft: -1, hard: 4096}",
        "{type: nofile, soft: 1, hard: 2}",
        "{type: RLIMIT_NPROC, soft: 9, hard: 3}",
        "null",
      ),
    );
    expect(all.problems).toHaveLength(1);
    expect(all.message).toContain("rlimits[0].soft is a number (-1)");
    expect(all.message).toContain('rlimits[1].type is "nofile"');
    expect(all.message).toContain('rlimits[3] is null, the zero rlimit (type "")');
    expect(all.message).toContain("rlimits[2] (RLIMIT_NPROC) soft 9 above hard 3");
    expect(all.message.match(/Also line \d+/g)).toHaveLength(2);
    // look-alikes: field names in another case (Go's json matches them), a large limit a float64 keeps below 2^64
    for (const ok of [
      "{type: RLIMIT_MEMLOCK, soft: 0, hard: 9223372036854775807}",
      "{Type: RLIMIT_NOFILE, Soft: 1024, Hard: 4096}",
      "{type: RLIMIT_RTTIME, soft: 10, hard: 10}",
    ])
      expect(() => build("EC2NodeClass", rlimits(ok))).not.toThrow();
  });
  test("the rest of a base runtime spec containerd decodes: user ids, capabilities, mounts, sysctl, by Go's types", () => {
    const spec = (body: string) =>
      al(`${NC}spec:\n  containerd:\n    baseRuntimeSpec:\n${body.replace(/^/gm, "      ")}\n`);
    const e = rejection(
      "EC2NodeClass",
      spec(
        'process:\n  user: {uid: root, gid: 0}\n  noNewPrivileges: "true"\n  capabilities: {bounding: CAP_CHOWN}\nmounts:\n  - {destination: /x, options: rw}\nlinux:\n  sysctl: {net.core.somaxconn: 1024}',
      ),
    );
    expect(e.problems).toHaveLength(1);
    for (const part of [
      'spec.containerd.baseRuntimeSpec.process.user.uid is a string ("root"), where User.uid takes a whole number, not negative (uint32)',
      'process.noNewPrivileges is a string ("true"), where Process.noNewPrivileges takes true or false',
      "process.capabilities.bounding is a string",
      "mounts[0].options is a string",
      'linux.sysctl["net.core.somaxconn"] is a number (1024)',
    ])
      expect(e.message).toContain(part);
    expect(e.message).toContain("a base runtime spec containerd can decode");
    // look-alikes: the same with Go's types, unknown fields (ignored), null (the default kept), parts not modelled
    for (const ok of [
      'process:\n  user: {uid: 0, gid: 0, additionalGids: [10]}\n  noNewPrivileges: true\n  capabilities: {bounding: [CAP_CHOWN]}\nmounts:\n  - {destination: /x, options: [rw]}\nlinux:\n  sysctl: {net.core.somaxconn: "1024"}',
      "process:\n  oomScoreAdj: -998\n  somethingNew: 1\nlinux:\n  resources: {devices: [{allow: false, access: rwm}]}",
      "process: null\nhostname: node",
    ])
      expect(() => build("EC2NodeClass", spec(ok))).not.toThrow();
  });
  // fresh tester 44: B24, B28, B29, B37 (linux.resources), B34 and B5 (a field containerd ignores or the default overrides)
  test("linux.resources by the OCI spec's Go types; an unknown or differently cased field warns", () => {
    const spec = (body: string) =>
      al(`${NC}spec:\n  containerd:\n    baseRuntimeSpec:\n${body.replace(/^/gm, "      ")}\n`);
    const e = rejection(
      "EC2NodeClass",
      spec(
        'linux:\n  resources:\n    devices: [{allow: "false", access: rwm}]\n    pids: {limit: "4096"}\n    memory: {limit: 1g}\n    cpu: {shares: "1024"}',
      ),
    );
    for (const part of [
      'linux.resources.devices[0].allow is a string ("false"), where LinuxDeviceCgroup.allow takes true or false',
      'linux.resources.pids.limit is a string ("4096"), where LinuxPids.limit takes a whole number (int64)',
      'linux.resources.memory.limit is a string ("1g")',
      'linux.resources.cpu.shares is a string ("1024"), where LinuxCPU.shares takes a whole number, not negative (uint64)',
      "github.com/opencontainers/runtime-spec@v1.3.0 specs-go/config.go",
    ])
      expect(e.message).toContain(part);
    const warned = (body: string) => classWarnings(spec(body), "baseRuntimeSpec");
    expect(warned("process:\n  rlimit: [{type: RLIMIT_NOFILE, soft: 1024, hard: 4096}]")).toEqual([
      expect.stringContaining(
        "spec.containerd.baseRuntimeSpec.process.rlimit is no field of the OCI runtime spec's Process (did you mean rlimits?), and containerd ignores it",
      ),
    ]);
    expect(warned("Process:\n  rlimits: [{type: RLIMIT_NOFILE, soft: 1024, hard: 4096}]")).toEqual([
      expect.stringContaining("spec.containerd.baseRuntimeSpec.Process is process written in another case"),
    ]);
    // look-alikes: Go's types, field names as the spec writes them, another case inside a list item (nothing merged)
    expect(
      warned(
        "process:\n  rlimits: [{Type: RLIMIT_NOFILE, soft: 1024, hard: 4096}]\nlinux:\n  resources:\n    devices: [{allow: false, access: rwm}]\n    pids: {limit: 4096}\n    memory: {limit: 1073741824}\n    cpu: {shares: 1024}",
      ),
    ).toEqual([]);
  });
  test("in an application/node.eks.aws MIME part: refused, naming the part's line", () => {
    const e = rejection("EC2NodeClass", al(mime(`${NC}spec:\n  kubelet:\n    flags: --v=2\n`)));
    expect(e.value).toBe("line 11: flags: --v=2");
    expect(e.message).toContain(
      "this application/node.eks.aws part of AL2023 user data is a NodeConfig, and spec.kubelet.flags is a string",
    );
    const s4 = rejection("EC2NodeClass", al(mime(`${NC}spec: hello`)));
    expect(s4.value).toBe("line 9: spec: hello");
  });
  test("look-alikes pass: flags a list of strings, kubelet.config a map, containerd.config TOML, a full NodeConfig, null", () => {
    for (const u of [
      `${NC}spec:\n  kubelet:\n    flags: ["--v=2", "--node-labels=team=a"]\n`,
      `${NC}spec:\n  kubelet:\n    flags:\n      - --v=2\n`,
      `${NC}spec:\n  kubelet:\n    config:\n      maxPods: 110\n      evictionHard: {memory.available: 5%}\n      featureGates: {RotateKubeletServerCertificate: true}\n`,
      `${NC}spec:\n  containerd:\n    config: |\n      [plugins."io.containerd.grpc.v1.cri"]\n      sandbox_image = "x"\n`,
      `${NC}spec:\n  cluster:\n    name: my-cluster\n    apiServerEndpoint: https://example.com\n    certificateAuthority: Y2VydGlmaWNhdGVBdXRob3JpdHk=\n    cidr: 10.100.0.0/16\n  instance:\n    localStorage:\n      strategy: RAID0\n`,
      `${NC}spec:\n  kubelet:\n    flags: null\n  cluster: ~\n`,
      '{"apiVersion":"node.eks.aws/v1alpha1","kind":"NodeConfig","spec":{"kubelet":{"flags":["--v=2"]}}}',
      mime(`${NC}spec:\n  kubelet:\n    flags: [--v=2]\n`),
    ])
      expect(() => build("EC2NodeClass", al(u))).not.toThrow();
  });

  const warningsOf = (props: Record<string, unknown>) => classWarnings(props, "nodeadm decodes a NodeConfig leniently");
  test("an unknown or wrongly cased field: nodeadm drops it, so a warning (its decode is not strict)", () => {
    const w = warningsOf(al(`${NC}spec:\n  kubelet:\n    Flags: [--v=2]\n  clutser: {}\n`));
    expect(w).toHaveLength(2);
    expect(w[0]).toContain(
      "EC2NodeClass obj: userData: this user data for the AL2023 AMI family is a NodeConfig whose spec.kubelet.Flags is no field of nodeadm's v1alpha1.KubeletOptions (did you mean flags? Field names are case-sensitive)",
    );
    expect(w[1]).toContain("spec.clutser is no field of nodeadm's v1alpha1.NodeConfigSpec (did you mean cluster?)");
    expect(w[1]).toContain("json.go:268-270");
    const part = warningsOf(al(mime(`${NC}spec:\n  kubelet:\n    flagz: []\n`)));
    expect(part).toHaveLength(1);
    expect(part[0]).toContain(
      "this application/node.eks.aws part of AL2023 user data is a NodeConfig whose spec.kubelet.flagz",
    );
  });
  test("look-alikes: known fields warn nothing; a refused class does not warn too", () => {
    expect(warningsOf(al(`${NC}spec:\n  kubelet:\n    flags: [--v=2]\n`))).toEqual([]);
    expect(() => build("EC2NodeClass", al(`${NC}spec:\n  kubelet:\n    flags: --v=2\n  bogus: 1\n`))).toThrow();
  });
  test.each([
    [
      "kubernetes.io/role (S-5)",
      `${NC}spec:\n  kubelet:\n    flags:\n      - --v=2\n      - --node-labels=kubernetes.io/role=x\n`,
      7,
      '"kubernetes.io/role" (spec.kubelet.flags[1])',
    ],
    [
      "a k8s.io subdomain among others",
      `${NC}spec:\n  kubelet:\n    flags: ["--node-labels=team=a,foo.k8s.io/x=y"]\n`,
      5,
      '"foo.k8s.io/x" (spec.kubelet.flags[0])',
    ],
  ])("--node-labels with %s: the kubelet refuses to start", (_what, userData, line, key) => {
    const e = rejection("EC2NodeClass", al(userData));
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.value).toMatch(new RegExp(`^line ${line}: `));
    expect(e.message).toContain(
      `this user data for the AL2023 AMI family is a NodeConfig whose kubelet flags label the node with ${key}`,
    );
    expect(e.message).toContain("cmd/kubelet/app/options/options.go:150-187");
  });
  test("--node-labels in a MIME part; look-alikes the kubelet may set, or of another domain, pass", () => {
    const e = rejection("EC2NodeClass", al(mime(`${NC}spec:\n  kubelet:\n    flags: [--node-labels=k8s.io/x=1]\n`)));
    expect(e.message).toContain(
      "this application/node.eks.aws part of AL2023 user data is a NodeConfig whose kubelet flags label",
    );
    for (const labels of [
      "node.kubernetes.io/role=x",
      "a.kubelet.kubernetes.io/x=y",
      "kubernetes.io/arch=amd64,topology.kubernetes.io/zone=z",
      "example.com/role=x,team=a",
      "mykubernetes.io/x=y",
    ])
      expect(() =>
        build("EC2NodeClass", al(`${NC}spec:\n  kubelet:\n    flags: ["--node-labels=${labels}"]\n`)),
      ).not.toThrow();
    // a NodePool label with the same key is Karpenter's to filter (RejectForbiddenLabels), not the kubelet's
    expect(() => build("NodePool", { labels: { "kubernetes.io/role": "x" } })).not.toThrow();
  });
  test("the table: both provider releases read pin the same nodeadm", () => {
    const { nodeadmConfigFields } = require("../../lib/versions");
    expect(nodeadmConfigFields("1.14").module).toBe(nodeadmConfigFields("1.15").module);
    expect(nodeadmConfigFields("1.15").types["v1alpha1.KubeletOptions"].fields).toEqual({
      config: "map:raw",
      flags: "list:string",
    });
  });
});

describe("AL2023 NodeConfig spec.kubelet.config against the kubelet's KubeletConfiguration (fresh-tester-15 S-B)", () => {
  const NC = "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n";
  const V = "1.15.0";
  test.each([
    ["evictionHard a string", '      evictionHard: "memory.available<5%"\n', "evictionHard", "a map of strings"],
    ["kubeReserved with a number", "      kubeReserved: {cpu: 100}\n", "kubeReserved", 'the value of "cpu" is'],
    ["featureGates with a string", '      featureGates: {Foo: "true"}\n', "featureGates", "a map of booleans"],
    ["shutdownGracePeriod a number", "      shutdownGracePeriod: 30\n", "shutdownGracePeriod", "a Go duration string"],
    [
      "shutdownGracePeriod no Go duration",
      "      shutdownGracePeriod: 30 seconds\n",
      "shutdownGracePeriod",
      "time.ParseDuration",
    ],
    ["podPidsLimit a string", "      podPidsLimit: abc\n", "podPidsLimit", "a whole number"],
  ])("%s is refused with the field and line", (_what, line, field, takes) => {
    const e = rejection("EC2NodeClass", al(NC + line), V);
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.field).toBe("userData");
    expect(e.value).toBe(`line 6: ${line.trim()}`);
    expect(e.message).toContain(`spec.kubelet.config.${field} is `);
    expect(e.message).toContain(`KubeletConfiguration (k8s.io/kubelet@v0.37.0`);
    expect(e.message).toContain(takes);
    expect(e.message).toContain("codec.go:75-100");
  });
  test("in an application/node.eks.aws MIME part: refused, naming the part's line", () => {
    const u = `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: application/node.eks.aws\n\n${NC}      featureGates: {Foo: "true"}\n--B--\n`;
    const e = rejection("EC2NodeClass", al(u), V);
    expect(e.value).toBe('line 12: featureGates: {Foo: "true"}');
    expect(e.message).toContain("this application/node.eks.aws part of AL2023 user data is a NodeConfig");
  });
  test("a field Karpenter's own NodeConfig sets is overridden by nodeadm's merge: maxPods (always), the class's kubelet fields", () => {
    // resolver.go:385-394 always writes the resolved maxPods into Karpenter's part, which comes last and wins
    for (const u of ['      maxPods: "50"\n', "      maxPods: abc\n", "      registerWithTaints: x\n"])
      expect(() => build("EC2NodeClass", al(NC + u), V)).not.toThrow();
    const classSets = {
      ...al(`${NC}      evictionHard: "memory.available<5%"\n`),
      kubelet: { evictionHard: { "memory.available": "5%" } },
    };
    expect(() => build("EC2NodeClass", classSets, V)).not.toThrow();
    // a map beside the class's map merges key by key: the user's other keys reach the kubelet
    const merged = {
      ...al(`${NC}      kubeReserved: {cpu: 100m, memory: 5}\n`),
      kubelet: { kubeReserved: { cpu: "200m" } },
    };
    expect(rejection("EC2NodeClass", merged, V).message).toContain('the value of "memory" is');
    const overridden = { ...al(`${NC}      kubeReserved: {cpu: 100}\n`), kubelet: { kubeReserved: { cpu: "200m" } } };
    expect(() => build("EC2NodeClass", overridden, V)).not.toThrow();
  });
  test("look-alikes pass: the right types; before 1.15 (no KubeletConfiguration table) nothing is judged", () => {
    for (const u of [
      '      evictionHard: {memory.available: "5%"}\n      kubeReserved: {cpu: 100m}\n      featureGates: {NodeSwap: true}\n      shutdownGracePeriod: 30s\n      podPidsLimit: 1024\n',
      "      shutdownGracePeriod: null\n",
    ])
      expect(() => build("EC2NodeClass", al(NC + u), V)).not.toThrow();
    expect(() => build("EC2NodeClass", al(`${NC}      featureGates: {Foo: "true"}\n`))).not.toThrow();
  });
  test("an unknown field (maxPod: 5): the kubelet decodes leniently and drops it, so a warning, not a refusal", () => {
    const props = al(`${NC}      maxPod: 5\n`);
    expect(() => build("EC2NodeClass", props, V)).not.toThrow();
    const w = classWarnings(props, "spec.kubelet.config.maxPod", V);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("is no field of the kubelet's KubeletConfiguration (k8s.io/kubelet@v0.37.0");
    expect(w[0]).toContain("did you mean maxPods?");
    expect(classWarnings(al(`${NC}      podPidsLimit: 1024\n`), "spec.kubelet.config", V)).toEqual([]);
    // maxPods is a field, but Karpenter's own part replaces it (fresh tester 23 S-1)
    expect(classWarnings(al(`${NC}      maxPods: 5\n`), "spec.kubelet.config", V).join("\n")).toContain(
      "is replaced by Karpenter's own NodeConfig part",
    );
  });
});

describe("AL2 MIME user data is read as AL2023's is (fresh-tester-15 S-C; eksbootstrap.go)", () => {
  const al2 = (userData: string) => ({ amiSelectorTerms: [{ alias: "al2@v20250103" }], userData });
  test.each([
    [
      "no closing boundary",
      'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="BB"\n\n--BB\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n',
      8,
      "echo hi",
      'the closing boundary line "--BB--" is missing after the last part',
    ],
    [
      "multipart/mixed without a boundary",
      "MIME-Version: 1.0\nContent-Type: multipart/mixed\n\n--BB\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n--BB--\n",
      2,
      "Content-Type: multipart/mixed",
      "the multipart Content-Type has no boundary parameter",
    ],
    [
      "a boundary line that does not match (the part is dropped silently)",
      'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="BB"\n\n--CC\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n--CC--\n',
      3,
      "",
      'the boundary line "--BB" never appears, so Karpenter reads no part and drops the whole user data silently',
    ],
  ])("%s is refused, naming the line and AL2's source", (_what, userData, line, text, message) => {
    const e = rejection("EC2NodeClass", al2(userData));
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.field).toBe("userData");
    expect(e.value).toBe(text === "" ? `line ${line}` : `line ${line}: ${text}`);
    expect(e.message).toContain(message);
    expect(e.message).toContain("user data for the AL2 AMI family");
    expect(e.message).toContain("eksbootstrap.go");
    expect(e.message).not.toContain("nodeadm");
  });
  test("look-alikes pass: a plain script (Karpenter wraps it), a complete MIME document, any part type", () => {
    for (const u of [
      "#!/bin/bash\necho hi\n",
      "#!/bin/sh\necho --BB\n",
      "#!/bin/sh\n: Content-Type is written here, not at the start\n",
      'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="BB"\n\n--BB\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n--BB--\n',
      'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="BB"\n\n--BB\nContent-Type: application/node.eks.aws\n\nnot a NodeConfig\n--BB--\n',
    ])
      expect(() => build("EC2NodeClass", al2(u))).not.toThrow();
  });
});

describe("amiFamily Custom without userData (fresh tester 42 UNSURE: Custom with empty userData)", () => {
  const custom = { amiFamily: "Custom", amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }] };
  test.each([
    ["unset", undefined],
    ["empty", ""],
    ["blank", "  \n"],
  ])("%s userData warns: Karpenter writes no bootstrap for Custom", (_d, userData) => {
    const w = classWarnings({ ...custom, userData }, "amiFamily Custom without userData");
    expect(w).toHaveLength(1);
    expect(w[0]).toContain("bootstrap/custom.go:28-30");
    expect(w[0]).toContain("karpenter.sh/unregistered:NoExecute");
  });
  test("Custom with a bootstrap script, and AL2023 without userData, do not warn", () => {
    expect(
      classWarnings({ ...custom, userData: "#!/bin/bash\n/etc/eks/bootstrap.sh demo" }, "amiFamily Custom without"),
    ).toEqual([]);
    expect(classWarnings({ amiSelectorTerms: [{ alias: "al2023@latest" }] }, "amiFamily Custom without")).toEqual([]);
  });
});
