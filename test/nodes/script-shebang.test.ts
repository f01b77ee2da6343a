import { build, rejection } from "./node-props";
import { synthWarnings } from "../helpers";

/*
 * User data Karpenter hands to cloud-init as a text/x-shellscript part (AL2023 text that is neither MIME nor a YAML map,
 * nodeadm.go parseUserData; all AL2 text that is no MIME document, eksbootstrap.go mimeify; a user's own
 * text/x-shellscript MIME part) is executed as a program, so it needs "#!" as its first bytes: without it cloud-init
 * logs "Exec format error. Missing #! in script?" and nothing runs, while the node joins (fresh tester 32 F16, J2).
 */

const cls = (alias: string, userData: string) => ({ amiSelectorTerms: [{ alias }], userData });
const mime = (type: string, body: string) =>
  `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: ${type}\n\n${body}\n--B--\n`;

describe("AL2023 user data Karpenter makes a shell script part", () => {
  test.each([
    ["a command without #!", "echo hi\n", 1, /is a script without a "#!" line/],
    ["a script after an empty line", "\n#!/bin/bash\necho hi\n", 2, /whitespace come before it/],
    ["a script after a space", " #!/bin/bash\necho hi\n", 1, /whitespace come before it/],
    [
      "#cloud-boothook (cloud-init reads it only from an untyped part)",
      "#cloud-boothook\necho hi\n",
      1,
      /without a "#!"/,
    ],
    [
      "a #cloud-config with an unclosed bracket (F16)",
      "#cloud-config\nruncmd:\n  - [echo, hi\n",
      1,
      /#cloud-config document \(its YAML does not parse: yaml: .*text\/cloud-config, and fix its YAML/,
    ],
    [
      "a #cloud-config indented with a tab (J2)",
      "#cloud-config\npackages:\n\t- htop\n",
      1,
      /#cloud-config document \(its YAML does not parse: .*Tabs/,
    ],
    ["a #cloud-config list", "#cloud-config\n- a\n", 1, /#cloud-config document, which cloud-init reads only/],
  ])("%s is refused at its line", (_, userData, line, message) => {
    const e = rejection("EC2NodeClass", cls("al2023@v20250103", userData), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.value).toMatch(new RegExp(`^line ${line}: `));
    expect(e.message).toMatch(message);
    expect(e.message).toMatch(/user data for the AL2023 AMI family/);
    expect(e.message).toMatch(/Exec format error\. Missing #! in script\?.*cloudinit\/subp\.py/);
  });
  test.each([
    ["a script", "#!/bin/bash\necho hi\n"],
    ["a script with CRLF line ends (Karpenter removes every CR)", "#!/bin/bash\r\necho hi\r\n"],
    ["a NodeConfig", "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec: {}\n"],
    ["a cloud-config in its own MIME part", mime("text/cloud-config", "#cloud-config\nruncmd:\n  - [echo, hi]")],
  ])("look-alike: %s passes without a word", (_, userData) => {
    const w = synthWarnings(build("EC2NodeClass", cls("al2023@v20250103", userData), "1.15.0"));
    expect(w.filter((x) => /#!|Exec format/.test(x))).toEqual([]);
  });
});

describe("AL2 user data, wrapped whole as one shell script part", () => {
  test.each([
    [
      "a command without #!",
      "echo hi\n",
      /AL2 AMI family is a script without a "#!" line.*eksbootstrap\.go:119-139, mimeify/,
    ],
    [
      "a #cloud-config",
      "#cloud-config\nruncmd:\n  - [echo, hi]\n",
      /#cloud-config document, which cloud-init reads only/,
    ],
  ])("%s is refused", (_, userData, message) => {
    const e = rejection("EC2NodeClass", cls("al2@v20250103", userData), "1.15.0");
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toMatch(message);
  });
  test("look-alike: a bootstrap script passes", () => {
    expect(() => build("EC2NodeClass", cls("al2@v20250103", "#!/bin/bash\necho hi\n"), "1.15.0")).not.toThrow();
  });
});

describe("a user's text/x-shellscript MIME part", () => {
  test.each([
    ["AL2023", "al2023@v20250103", /this text\/x-shellscript part of AL2023 user data has no "#!" line/],
    ["AL2", "al2@v20250103", /this text\/x-shellscript part of user data for the AL2 AMI family has no "#!" line/],
  ])("without #! is refused on %s, naming the part's first line", (_, alias, message) => {
    const e = rejection(
      "EC2NodeClass",
      cls(alias, mime('text/x-shellscript; charset="us-ascii"', "echo hi")),
      "1.15.0",
    );
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.value).toBe("line 7: echo hi");
    expect(e.message).toMatch(message);
  });
  test("a cloud-config under text/x-shellscript points to text/cloud-config", () => {
    const e = rejection(
      "EC2NodeClass",
      cls("al2023@v20250103", mime("text/x-shellscript", "#cloud-config\nruncmd: []")),
      "1.15.0",
    );
    expect(e.message).toMatch(/A cloud-config goes in a part with Content-Type: text\/cloud-config/);
  });
  test.each([
    ["a script part", mime("text/x-shellscript", "#!/bin/bash\necho hi")],
    ["an empty script part", mime("text/x-shellscript", "")],
    ["a cloud-config part", mime("text/cloud-config", "#cloud-config\nruncmd: []")],
  ])("look-alike: %s passes", (_, userData) => {
    expect(() => build("EC2NodeClass", cls("al2023@v20250103", userData), "1.15.0")).not.toThrow();
  });
});
