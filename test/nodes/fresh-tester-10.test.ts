import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import type { Ec2NodeClassProps } from "../../lib/nodes/ec2-node-class";
import { NodePool } from "../../lib/nodes/node-pool";
import type { NodePoolProps } from "../../lib/nodes/node-pool";
import { FakeInstallation, testStack } from "../helpers";
import { build, rejection, req } from "./node-props";

const ag = require("../../scripts/e2e/agreement.cjs");

/*
 * The tenth fresh tester's node findings: AL2023 user data (or an application/node.eks.aws MIME part) of only YAML
 * comments and whitespace, which Karpenter passes to nodeadm as a NodeConfig that has no kind (Karpenter v1.15.0
 * nodeadm.go parseUserData; nodeadm internal/configprovider/userdata.go:96-103), and Windows on a Custom AMI family,
 * which Karpenter labels linux whatever the AMI (resolver.go:306-307, instancetype/types.go getOS). The verdicts on
 * user data were checked with Go against Karpenter's parseUserData and nodeadm's decoder. Each invalid input has a
 * valid look-alike.
 */

const al = (userData: string) => ({ amiSelectorTerms: [{ alias: "al2023@latest" }], userData });
const NODECONFIG =
  "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 110\n";
const mime = (body: string) =>
  `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: application/node.eks.aws\n\n${body}\n--B\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n--B--\n`;

describe("AL2023 user data of only YAML comments and whitespace is a NodeConfig without a kind", () => {
  test.each([
    ["a comment", "# nodes of team a\n"],
    ["comments in CRLF lines", "# one\r\n  # two\r\n"],
    ["spaces and empty lines", "  \n\n   \n"],
    ["one space", " "],
    ["one line break", "\n"],
    ["a document start", "--- # the config\n"],
    ["a byte-order mark (JavaScript's trim removes it, Go's keeps it)", "\uFEFF"],
    ["a NEL (a line break to go-yaml, space to Go's TrimSpace)", "\u0085"],
    ["a shell script of a shebang and comments (both comments to YAML)", "#!/bin/bash\n# TODO: install tools\n"],
    ["a #cloud-config header alone", "#cloud-config\n"],
  ])("%s is refused", (_what, userData) => {
    const e = rejection("EC2NodeClass", al(userData));
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.field).toBe("userData");
    expect(e.value).toMatch(/^line 1\b/);
    expect(e.message).toContain("holds only YAML comments and whitespace");
    expect(e.message).toContain("nodeadm.go:137-141");
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("user-data-format");
    expect(e.message).toContain(
      "\"Object 'Kind' is missing\", amazon-eks-ami nodeadm, internal/configprovider/userdata.go:96-103",
    );
  });
  test("look-alikes pass: a commented NodeConfig, a script with a command, text go-yaml refuses (a shell part), no user data", () => {
    for (const u of [
      `# nodes of team a\n${NODECONFIG}`,
      `---\n# nodes of team a\n${NODECONFIG}`,
      "#!/bin/bash\n# install tools\ntrue\n",
      // go-yaml refuses a tab at a line's start and a control character (even in a comment): Karpenter then sends the
      // text as a shell script part, and nodeadm still reads Karpenter's own NodeConfig
      "\t\n",
      "# a comment\n\t\n",
      "# a comment\u000b\n",
      // a no-break space is a scalar to go-yaml: a shell script part too
      "\u00a0",
      "",
    ])
      expect(() => build("EC2NodeClass", al(u))).not.toThrow();
  });
  test("whitespace on Bottlerocket is still no settings (go-toml reads it as an empty table)", () => {
    for (const u of [" ", "\n\n", "# settings later\n"])
      expect(() =>
        build("EC2NodeClass", { amiSelectorTerms: [{ alias: "bottlerocket@latest" }], userData: u }),
      ).not.toThrow();
  });
});

describe("an application/node.eks.aws MIME part that is no YAML map", () => {
  test.each([
    ["only a comment", "# settings come later", 7, "holds only YAML comments and whitespace"],
    ["only whitespace", "   ", 7, "holds only YAML comments and whitespace"],
    ["empty", "", 7, "holds only YAML comments and whitespace"],
    ["a tab (a go-yaml error, refused by nodeadm all the same)", "\t", 7, "holds only YAML comments and whitespace"],
    ["a comment after empty lines", "\n\n# later", 9, "holds only YAML comments and whitespace"],
    ["a string", "max pods 110", 7, 'is the YAML string "max pods 110", not a map'],
    ["a list", "- apiVersion: node.eks.aws/v1alpha1", 7, "is a YAML list, not a map"],
  ])("%s is refused, naming the part's line", (_what, body, line, what) => {
    const e = rejection("EC2NodeClass", al(mime(body)));
    expect(e.problems).toHaveLength(1);
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.value).toMatch(new RegExp(`^line ${line}\\b`));
    expect(e.message).toContain(`this part of AL2023 user data ${what}`);
    expect(e.message).toContain("amazon-eks-ami nodeadm, internal/configprovider/userdata.go:96-103");
    expect(ag.semanticRuleOf(e, "1.15.0")?.id).toBe("user-data-format");
  });
  test("look-alikes pass: a NodeConfig part with comments, a shell part of only comments", () => {
    expect(() => build("EC2NodeClass", al(mime(`# team a\n${NODECONFIG}`)))).not.toThrow();
    const commentScript =
      'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: text/x-shellscript\n\n#!/bin/bash\n# nothing yet\n--B--\n';
    expect(() => build("EC2NodeClass", al(commentScript))).not.toThrow();
  });
});

describe("the MIME decision trims as Go's strings.TrimSpace does (nodeadm.go:127-128)", () => {
  const MIME =
    'Content-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: text/x-shellscript\n\n#!/bin/bash\necho hi\n--B--\n';
  test("a NEL before the first header is trimmed by Go, so the text is read as MIME and its header block fails", () => {
    const e = rejection("EC2NodeClass", al(`\u0085${MIME}`));
    expect(e.message).toContain("a MIME multipart document (headers from the first character");
  });
  test("MIME from the first character passes; after a byte-order mark (Go does not trim it) it is a script cloud-init cannot run", () => {
    expect(() => build("EC2NodeClass", al(MIME))).not.toThrow();
    // no MIME to Karpenter, and its yaml.Unmarshal fails on the text: it goes out as a shell script part, which neither
    // Karpenter nor nodeadm refuses (checked with Go), but cloud-init cannot execute (no "#!" first)
    const e = rejection("EC2NodeClass", al(`\uFEFF${MIME}`));
    expect(e.message).not.toContain("a MIME multipart document (headers");
    expect(e.message).toContain('is a script without a "#!" line');
  });
});

describe("Windows on a Custom AMI family: Karpenter labels its nodes linux", () => {
  const BUILD = "node.kubernetes.io/windows-build";
  const custom = { amiFamily: "Custom" as const, amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }] };
  const warningsOf = (props: Partial<NodePoolProps>, cls: Partial<Ec2NodeClassProps> = custom) => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.15.0");
    const nodeClass = new Ec2NodeClass(stack, "nc", { karpenter, name: "cls", ...cls });
    const pool = new NodePool(stack, "np", { karpenter, nodeClass, ...props } as NodePoolProps);
    return pool.node.metadata
      .filter((m) => m.type === "@cdktf/warn")
      .map((m) => String(m.data))
      .filter((w) => w.includes("AMIs"));
  };
  test("kubernetes.io/os In [windows] warns, the note about Custom after the family", () => {
    expect(warningsOf({ requirements: [req("kubernetes.io/os", "In", ["windows"])] })).toEqual([
      'NodePool np requires kubernetes.io/os In ["windows"], but its EC2NodeClass cls (test/nc) uses custom AMIs (amiFamily Custom: Karpenter takes every Custom AMI for linux, whatever it holds: aws/karpenter-provider-aws v1.15.0 pkg/providers/amifamily/resolver.go:306-307, pkg/providers/instancetype/types.go:350-353 and getOS), which are linux: no node can satisfy both, so Karpenter finds no AMI for the pool and launches nothing. Use an EC2NodeClass of a matching AMI family, or change the requirement (Karpenter docs, "NodeClasses: amiFamily").',
    ]);
  });
  test("a windows-build requirement or label, and a kubernetes.io/os: windows label, warn", () => {
    expect(warningsOf({ requirements: [req(BUILD, "In", ["10.0.20348"])] })).toEqual([
      expect.stringMatching(
        /^NodePool np requires node\.kubernetes\.io\/windows-build In \["10\.0\.20348"\], but its EC2NodeClass cls \(test\/nc\) uses custom AMIs \(amiFamily Custom: .*\), which are linux, whose nodes carry no node\.kubernetes\.io\/windows-build label/,
      ),
    ]);
    expect(warningsOf({ labels: { [BUILD]: "10.0.17763" } })).toEqual([
      expect.stringContaining("has the template label node.kubernetes.io/windows-build"),
    ]);
    expect(warningsOf({ labels: { "kubernetes.io/os": "windows" } })).toEqual([
      expect.stringContaining("has the template label kubernetes.io/os"),
    ]);
  });
  test("look-alikes do not warn: linux, any arch, windows-build DoesNotExist or NotIn, os In [linux, windows]", () => {
    expect(
      warningsOf({
        requirements: [
          req("kubernetes.io/os", "In", ["linux"]),
          req("kubernetes.io/arch", "In", ["arm64"]),
          { key: BUILD, operator: "DoesNotExist" },
        ],
      }),
    ).toEqual([]);
    expect(warningsOf({ requirements: [req(BUILD, "NotIn", ["10.0.20348"])] })).toEqual([]);
    expect(warningsOf({ requirements: [req("kubernetes.io/os", "In", ["linux", "windows"])] })).toEqual([]);
    // Windows on a Windows family is no matter of Custom
    expect(
      warningsOf(
        { requirements: [req("kubernetes.io/os", "In", ["windows"])] },
        { amiSelectorTerms: [{ alias: "windows2022@latest" }] },
      ),
    ).toEqual([]);
  });
});
