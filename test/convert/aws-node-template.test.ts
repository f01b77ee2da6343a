import { familyReleases } from "../../lib/nodes/ami-release-minors";
import { eksAmiFacts } from "../../lib/versions";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { FakeInstallation, testStack } from "../helpers";
import { convertLegacyManifests, formatNotes } from "../../lib/convert";
import { awsNodeTemplate, noteAbout, notesAbout, onlyClass } from "./util";

// Rules: karpenter.sh v0.32 "v1beta1 Migration" (AWSNodeTemplate -> EC2NodeClass), v1.0 "v1
// Migration", the v0.31 node template docs (selector keys, defaults), upstream karpenter-convert.

const SELECTORS = `
  subnetSelector: { karpenter.sh/discovery: demo }
  securityGroupSelector: { karpenter.sh/discovery: demo }
  instanceProfile: KarpenterNodeInstanceProfile-demo
`;

describe("AWSNodeTemplate → EC2NodeClass: selectors", () => {
  test("tag selectors become one tags term", () => {
    const cls = onlyClass(awsNodeTemplate("default", SELECTORS));
    expect(cls.props.subnetSelectorTerms).toEqual([{ tags: { "karpenter.sh/discovery": "demo" } }]);
    expect(cls.props.securityGroupSelectorTerms).toEqual([{ tags: { "karpenter.sh/discovery": "demo" } }]);
  });

  test("aws::ids / aws-ids become one id term per ID (guide: subnet-00000123,subnet-00000456 and sg-00000123, sg-00000456)", () => {
    const cls = onlyClass(
      awsNodeTemplate(
        "default",
        `
      subnetSelector: { aws::ids: "subnet-00000123,subnet-00000456" }
      securityGroupSelector: { aws-ids: "sg-00000123, sg-00000456" }
      instanceProfile: p
    `,
      ),
    );
    expect(cls.props.subnetSelectorTerms).toEqual([{ id: "subnet-00000123" }, { id: "subnet-00000456" }]);
    expect(cls.props.securityGroupSelectorTerms).toEqual([{ id: "sg-00000123" }, { id: "sg-00000456" }]);
  });

  test("comma-separated tag values become one term per combination, keys in sorted order", () => {
    const cls = onlyClass(
      awsNodeTemplate(
        "default",
        `
      subnetSelector: { Name: "a,b", karpenter.sh/discovery: "x,y" }
      securityGroupSelector: { karpenter.sh/discovery: demo }
      instanceProfile: p
    `,
      ),
    );
    expect(cls.props.subnetSelectorTerms).toEqual([
      { tags: { Name: "a", "karpenter.sh/discovery": "x" } },
      { tags: { Name: "b", "karpenter.sh/discovery": "x" } },
      { tags: { Name: "a", "karpenter.sh/discovery": "y" } },
      { tags: { Name: "b", "karpenter.sh/discovery": "y" } },
    ]);
  });

  test("IDs combined with tags: only the IDs are kept (a v1 id term takes no tags), with a note", () => {
    const cls = onlyClass(
      awsNodeTemplate(
        "default",
        `
      subnetSelector: { aws-ids: subnet-00000001, Name: private }
      securityGroupSelector: { karpenter.sh/discovery: demo }
      instanceProfile: p
    `,
      ),
    );
    expect(cls.props.subnetSelectorTerms).toEqual([{ id: "subnet-00000001" }]);
    const note = noteAbout(cls.notes, "spec.subnetSelector");
    expect(note.level).toBe("action");
    expect(note.message).toContain('"Name":"private"');
  });

  test("a missing subnet selector is noted", () => {
    const cls = onlyClass(awsNodeTemplate("default", "securityGroupSelector: { a: b }\ninstanceProfile: p"));
    expect(cls.props.subnetSelectorTerms).toBeUndefined();
    expect(noteAbout(cls.notes, "spec.subnetSelector").level).toBe("action");
  });

  test("amiSelector aws::ids → id terms", () => {
    const cls = onlyClass(
      awsNodeTemplate("default", SELECTORS, `amiFamily: AL2\namiSelector: { aws::ids: "ami-123,ami-456" }`),
    );
    expect(cls.props.amiSelectorTerms).toEqual([{ id: "ami-123" }, { id: "ami-456" }]);
    expect(cls.props.amiFamily).toBe("AL2");
  });

  test("amiSelector aws::name × aws::owners → one term per owner and name (the guide's example, in its order)", () => {
    const cls = onlyClass(
      awsNodeTemplate(
        "default",
        SELECTORS,
        `amiFamily: AL2\namiSelector: { aws::name: "my-name1,my-name2", aws::owners: "123456789,amazon" }`,
      ),
    );
    expect(cls.props.amiSelectorTerms).toEqual([
      { name: "my-name1", owner: "123456789" },
      { name: "my-name2", owner: "123456789" },
      { name: "my-name1", owner: "amazon" },
      { name: "my-name2", owner: "amazon" },
    ]);
  });

  test("amiSelector tags → tags terms, noting that AMI tags no longer act as requirements", () => {
    const cls = onlyClass(
      awsNodeTemplate(
        "default",
        SELECTORS,
        `amiFamily: Bottlerocket\namiSelector: { karpenter.sh/discovery: karpenter-demo }`,
      ),
    );
    expect(cls.props.amiSelectorTerms).toEqual([{ tags: { "karpenter.sh/discovery": "karpenter-demo" } }]);
    expect(cls.props.amiFamily).toBe("Bottlerocket");
    expect(noteAbout(cls.notes, "spec.amiSelector").level).toBe("info");
  });
});

describe("AWSNodeTemplate → EC2NodeClass: AMI family", () => {
  test.each([
    ["AL2", "al2@latest"],
    ["AL2023", "al2023@latest"],
    ["Bottlerocket", "bottlerocket@latest"],
    ["Windows2019", "windows2019@latest"],
    ["Windows2022", "windows2022@latest"],
  ])(
    "amiFamily %s without amiSelector → alias %s (amiFamily dropped, as the v1 conversion webhook does)",
    (family, alias) => {
      const cls = onlyClass(awsNodeTemplate("default", SELECTORS, `amiFamily: ${family}`));
      expect(cls.props.amiSelectorTerms).toEqual([{ alias }]);
      expect(cls.props.amiFamily).toBeUndefined();
    },
  );

  test.each([
    // the newest EKS AMI release amazon-eks-ami's CHANGELOG names (a release that exists, lib/versions eks-ami-facts);
    // for AL2 the last release that shipped AL2 AMIs (a newer one has none: the construct refuses it)
    ["AL2", `al2@${familyReleases("al2").slice(-1)[0]}`],
    ["AL2023", `al2023@${eksAmiFacts().newestRelease}`],
    ["Bottlerocket", "bottlerocket@v1.46.0"],
  ])("amiFamily %s: the pinned alias the note suggests (%s) is one the construct accepts", (family, pinned) => {
    const cls = onlyClass(awsNodeTemplate("default", SELECTORS, `amiFamily: ${family}`));
    const note = notesAbout(cls.notes, "spec.amiFamily").find((n) => n.message.includes("pin a version"))!;
    expect(note.message).toContain(`pin a version (e.g. "${pinned}") in production`);
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    expect(() => new Ec2NodeClass(stack, "pinned", { karpenter, amiSelectorTerms: [{ alias: pinned }] })).not.toThrow();
  });

  test("Windows: no version to pin (the alias takes latest only), so the note says to pin by AMI id", () => {
    const cls = onlyClass(awsNodeTemplate("default", SELECTORS, "amiFamily: Windows2022"));
    const messages = notesAbout(cls.notes, "spec.amiFamily").map((n) => n.message);
    expect(messages.join("\n")).not.toContain("pin a version");
    expect(messages).toContainEqual(
      expect.stringContaining(
        'windows2022 aliases take no version but latest, so in production pin the AMI by id instead (amiSelectorTerms: [{ id: "ami-…" }] with amiFamily Windows2022)',
      ),
    );
  });

  test("no amiFamily: the v1alpha1 default AL2, noted", () => {
    const cls = onlyClass(awsNodeTemplate("default", SELECTORS));
    expect(cls.props.amiSelectorTerms).toEqual([{ alias: "al2@latest" }]);
    expect(notesAbout(cls.notes, "spec.amiFamily").map((n) => n.message)).toEqual([
      expect.stringContaining("defaulted it to AL2"),
      expect.stringContaining('alias "al2@latest"'),
      expect.stringContaining("Kubernetes 1.33"),
    ]);
  });

  test("Custom with amiSelector keeps both", () => {
    const cls = onlyClass(
      awsNodeTemplate("default", SELECTORS, `amiFamily: Custom\namiSelector: { aws::ids: ami-0abc }`),
    );
    expect(cls.props).toMatchObject({ amiFamily: "Custom", amiSelectorTerms: [{ id: "ami-0abc" }] });
  });

  test("Custom without amiSelector: no terms, an action note", () => {
    const cls = onlyClass(awsNodeTemplate("default", SELECTORS, `amiFamily: Custom`));
    expect(cls.props.amiFamily).toBe("Custom");
    expect(cls.props.amiSelectorTerms).toBeUndefined();
    expect(noteAbout(cls.notes, "spec.amiFamily").message).toContain("needs amiSelectorTerms");
  });

  test("Ubuntu with amiSelector → AL2 with the terms and Ubuntu's root volume", () => {
    const cls = onlyClass(
      awsNodeTemplate("default", SELECTORS, `amiFamily: Ubuntu\namiSelector: { aws::ids: ami-0abc }`),
    );
    expect(cls.props.amiFamily).toBe("AL2");
    expect(cls.props.amiSelectorTerms).toEqual([{ id: "ami-0abc" }]);
    expect(cls.props.blockDeviceMappings).toEqual([
      { deviceName: "/dev/sda1", rootVolume: true, ebs: { encrypted: true, volumeSize: "20Gi", volumeType: "gp3" } },
    ]);
  });

  test("Ubuntu without amiSelector → an empty terms placeholder that validation rejects", () => {
    const cls = onlyClass(awsNodeTemplate("default", SELECTORS, `amiFamily: Ubuntu`));
    expect(cls.props.amiSelectorTerms).toEqual([]);
    expect(noteAbout(cls.notes, "spec.amiFamily").level).toBe("action");
  });
});

describe("AWSNodeTemplate → EC2NodeClass: other fields", () => {
  test("instanceProfile is kept without the role option", () => {
    const cls = onlyClass(awsNodeTemplate("default", SELECTORS));
    expect(cls.props.instanceProfile).toBe("KarpenterNodeInstanceProfile-demo");
    expect(cls.props.role).toBeUndefined();
  });

  test("the role option replaces instanceProfile", () => {
    const cls = onlyClass(awsNodeTemplate("default", SELECTORS), { role: "KarpenterNodeRole-demo" });
    expect(cls.props.role).toBe("KarpenterNodeRole-demo");
    expect(cls.props.instanceProfile).toBeUndefined();
    expect(noteAbout(cls.notes, "spec.instanceProfile").message).toContain('replaced by role "KarpenterNodeRole-demo"');
  });

  test("no instanceProfile and no role option: an action note (defaultInstanceProfile is gone)", () => {
    const cls = onlyClass(awsNodeTemplate("default", "subnetSelector: { a: b }\nsecurityGroupSelector: { a: b }"));
    expect(cls.props.role).toBeUndefined();
    expect(cls.props.instanceProfile).toBeUndefined();
    expect(noteAbout(cls.notes, "spec.instanceProfile").message).toContain("defaultInstanceProfile");
  });

  test("tags, block devices, metadata options, user data, detailed monitoring and context are carried over", () => {
    const cls = onlyClass(
      awsNodeTemplate(
        "default",
        SELECTORS,
        `
      amiFamily: AL2023
      tags: { team: a, cost-center: "42" }
      blockDeviceMappings:
      - deviceName: /dev/xvda
        ebs: { volumeSize: 100Gi, volumeType: gp3, encrypted: true, deleteOnTermination: true, iops: 3000, throughput: 125 }
      - deviceName: /dev/xvdb
        ebs: { volumeSize: 20480Mi, volumeType: gp3 }
      metadataOptions: { httpEndpoint: enabled, httpProtocolIPv6: disabled, httpPutResponseHopLimit: 2, httpTokens: required }
      userData: |
        #!/bin/bash
        echo hello
      detailedMonitoring: true
      context: cr-context
    `,
      ),
    );
    expect(cls.props).toEqual({
      name: "default",
      instanceProfile: "KarpenterNodeInstanceProfile-demo",
      amiSelectorTerms: [{ alias: "al2023@latest" }],
      subnetSelectorTerms: [{ tags: { "karpenter.sh/discovery": "demo" } }],
      securityGroupSelectorTerms: [{ tags: { "karpenter.sh/discovery": "demo" } }],
      tags: { team: "a", "cost-center": "42" },
      blockDeviceMappings: [
        {
          deviceName: "/dev/xvda",
          ebs: {
            volumeSize: "100Gi",
            volumeType: "gp3",
            encrypted: true,
            deleteOnTermination: true,
            iops: 3000,
            throughput: 125,
          },
        },
        // v1 sizes need Gi/G/Ti/T: 20480Mi is exactly 20Gi
        { deviceName: "/dev/xvdb", ebs: { volumeSize: "20Gi", volumeType: "gp3" } },
      ],
      metadataOptions: {
        httpEndpoint: "enabled",
        httpProtocolIPv6: "disabled",
        httpPutResponseHopLimit: 2,
        httpTokens: "required",
      },
      userData: "#!/bin/bash\necho hello\n",
      detailedMonitoring: true,
      context: "cr-context",
    });
    expect(noteAbout(cls.notes, "spec.blockDeviceMappings[1].ebs.volumeSize").message).toContain('"20Gi"');
    // the hop limit is explicit, so no note about the changed default
    expect(notesAbout(cls.notes, "spec.metadataOptions")).toEqual([]);
    expect(noteAbout(cls.notes, "spec.userData").message).toContain("NodeConfig");
  });

  test("no metadataOptions: a note that the hop-limit default went from 2 to 1", () => {
    const cls = onlyClass(awsNodeTemplate("default", SELECTORS));
    expect(noteAbout(cls.notes, "spec.metadataOptions").message).toContain("httpPutResponseHopLimit: 2");
  });

  test("Custom user data: a note about the karpenter.sh/unregistered taint", () => {
    const cls = onlyClass(
      awsNodeTemplate(
        "default",
        SELECTORS,
        `amiFamily: Custom\namiSelector: { aws::ids: ami-1 }\nuserData: "#!/bin/bash"`,
      ),
    );
    expect(noteAbout(cls.notes, "spec.userData").message).toContain("karpenter.sh/unregistered:NoExecute");
  });

  test("launchTemplate (removed in v1beta1) is noted, not converted", () => {
    const cls = onlyClass(awsNodeTemplate("default", SELECTORS, `launchTemplate: my-template`));
    expect(Object.keys(cls.props)).not.toContain("launchTemplate");
    const note = noteAbout(cls.notes, "spec.launchTemplate");
    expect(note.level).toBe("action");
    expect(note.message).toContain("my-template");
  });
});

describe("notes show what the input holds, and say what happens and what to do", () => {
  test("a NUL or an escape character in an input value is shown escaped in the notes, never raw", () => {
    const yaml = awsNodeTemplate(
      "default",
      `
      subnetSelector: { karpenter.sh/discovery: demo }
      securityGroupSelector: { karpenter.sh/discovery: demo }
      instanceProfile: "Karpenter\\0Profile"
      launchTemplate: "my\\x1b[31mlt"
    `,
    );
    const r = convertLegacyManifests(yaml, { role: "KarpenterNodeRole-demo" });
    const cls = r.ec2NodeClasses[0];
    expect(noteAbout(cls.notes, "spec.launchTemplate").message).toContain('launchTemplate "my\\u001b[31mlt"');
    expect(noteAbout(cls.notes, "spec.instanceProfile").message).toContain(
      'instance profile "Karpenter\\u0000Profile"',
    );
    for (const line of formatNotes(r))
      expect([...line].some((ch) => ch.charCodeAt(0) < 0x20 || ch === "\u007f")).toBe(false);
    // look-alike: plain text is shown as written
    const plain = convertLegacyManifests(yaml.replace("Karpenter\\0Profile", "KarpenterProfile"), {
      role: "KarpenterNodeRole-demo",
    });
    expect(noteAbout(plain.ec2NodeClasses[0].notes, "spec.instanceProfile").message).toContain(
      'instance profile "KarpenterProfile"',
    );
  });

  test("a field the AWSNodeTemplate never had: never applied, left out; a later v1 field of that name says how to set it", () => {
    const enclave = onlyClass(awsNodeTemplate("default", SELECTORS, "enclaveOptions: { enabled: true }"), {
      version: "1.15.2",
    });
    expect(noteAbout(enclave.notes, "spec.enclaveOptions")).toMatchObject({
      level: "action",
      message: expect.stringContaining(
        'not a field of AWSNodeTemplate karpenter.k8s.aws/v1alpha1, so Karpenter never applied it: not converted, the v1 object leaves it out (value was {"enabled":true}). The v1 EC2NodeClass has a field enclaveOptions (from Karpenter 1.15): if the nodes should get it, set enclaveOptions on the converted EC2NodeClass yourself',
      ),
    });
    expect(enclave.props).not.toHaveProperty("enclaveOptions");
    expect(
      noteAbout(
        onlyClass(awsNodeTemplate("default", SELECTORS, "enclaveOptions: { enabled: true }"), { version: "1.14.1" })
          .notes,
        "spec.enclaveOptions",
      ).message,
    ).toContain("from Karpenter 1.15, later than the target 1.14.1: to use it, install Karpenter 1.15 or later");
    // a typo names no v1 field: check the spelling
    expect(
      noteAbout(onlyClass(awsNodeTemplate("default", SELECTORS, "userDta: x")).notes, "spec.userDta").message,
    ).toContain("Check its spelling against the fields of AWSNodeTemplate karpenter.k8s.aws/v1alpha1");
  });
});
