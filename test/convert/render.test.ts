import { parseAllDocuments } from "yaml";
import { convertLegacyManifests, formatNotes, toV1Manifest, toV1Yaml } from "../../lib/convert";
import { awsNodeTemplate, provisioner } from "./util";

const INPUT =
  provisioner(
    "default",
    `
    providerRef: { name: default }
    labels: { enabled: "yes" }
    requirements:
    - { key: karpenter.k8s.aws/instance-generation, operator: Gt, values: ["5"] }
    ttlSecondsAfterEmpty: 30
    ttlSecondsUntilExpired: 2592000
  `,
  ) +
  "---\n" +
  awsNodeTemplate(
    "default",
    `
    subnetSelector: { karpenter.sh/discovery: demo }
    securityGroupSelector: { karpenter.sh/discovery: demo }
    instanceProfile: KarpenterNodeInstanceProfile-demo
    userData: |
      #!/bin/bash
      echo "hello"
  `,
  );

describe("toV1Manifest / toV1Yaml", () => {
  const result = convertLegacyManifests(INPUT, { legacyDefaults: false });

  test("a NodePool manifest has the v1 layout (template flattened back, nodeClassRef in the template spec)", () => {
    expect(toV1Manifest(result.nodePools[0])).toEqual({
      apiVersion: "karpenter.sh/v1",
      kind: "NodePool",
      metadata: { name: "default" },
      spec: {
        disruption: { consolidateAfter: "30s", consolidationPolicy: "WhenEmpty" },
        template: {
          metadata: { labels: { enabled: "yes" } },
          spec: {
            expireAfter: "720h",
            nodeClassRef: { group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "default" },
            // the capacity type is stated even without the legacy defaults, as the NodePool construct does
            requirements: [
              { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["5"] },
              { key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] },
            ],
          },
        },
      },
    });
  });

  test("an EC2NodeClass manifest: spec keys sorted, no construct defaults added", () => {
    const m = toV1Manifest(result.ec2NodeClasses[0]);
    expect(m).toEqual({
      apiVersion: "karpenter.k8s.aws/v1",
      kind: "EC2NodeClass",
      metadata: { name: "default" },
      spec: {
        amiSelectorTerms: [{ alias: "al2@latest" }],
        instanceProfile: "KarpenterNodeInstanceProfile-demo",
        securityGroupSelectorTerms: [{ tags: { "karpenter.sh/discovery": "demo" } }],
        subnetSelectorTerms: [{ tags: { "karpenter.sh/discovery": "demo" } }],
        userData: '#!/bin/bash\necho "hello"\n',
      },
    });
    expect(Object.keys(m.spec as object)).toEqual([
      "amiSelectorTerms",
      "instanceProfile",
      "securityGroupSelectorTerms",
      "subnetSelectorTerms",
      "userData",
    ]);
  });

  test("the YAML is one document per object and reads back (as YAML 1.1, like kubectl) to the manifests", () => {
    const text = toV1Yaml(result);
    const docs = parseAllDocuments(text, { version: "1.1" }) as unknown as { toJS(): unknown }[];
    expect(docs.map((d) => d.toJS())).toEqual(result.objects.map(toV1Manifest));
    // strings a YAML 1.1 reader would take for booleans or numbers are quoted
    expect(text).toContain('enabled: "yes"');
    expect(text).toContain('- "5"');
    // multi-line user data stays a block scalar
    expect(text).toContain("userData: |\n    #!/bin/bash\n");
    expect(text.split("\n")[0]).toBe("apiVersion: karpenter.sh/v1");
    expect(text).toContain("---\napiVersion: karpenter.k8s.aws/v1\n");
  });

  test("strings go-yaml v2 (kubectl's reader) would take for numbers are quoted, keys too; other text stays plain", () => {
    // sigs.k8s.io/yaml YAMLToJSON of the printed YAML gives back every label as written (checked in Go); printed
    // plain, 0o7 and 0b-1 would be read as 7 and -1 (strconv.ParseInt base 0), "0o7" as a key as "7"
    const labels = { "0o7": "0o7", b: "0b-1", c: "+0o7", d: "1_", e: "a0o7", f: "0o8" };
    const pool = provisioner(
      "p",
      `providerRef: { name: default }\nlabels: { ${Object.entries(labels)
        .map(([k, v]) => `"${k}": "${v}"`)
        .join(", ")} }`,
    );
    const text = toV1Yaml(convertLegacyManifests(pool));
    for (const line of ['"0o7": "0o7"', 'b: "0b-1"', 'c: "+0o7"', 'd: "1_"', "e: a0o7", "f: 0o8"])
      expect(text).toContain(`\n        ${line}\n`);
  });

  test("the same result prints byte-identical YAML", () => {
    expect(toV1Yaml(convertLegacyManifests(INPUT))).toBe(toV1Yaml(convertLegacyManifests(INPUT)));
  });

  test("formatNotes: result-level notes first, then each object's, naming document, source and target", () => {
    const r = convertLegacyManifests("apiVersion: v1\nkind: Secret\nmetadata: { name: s }\n---\n" + INPUT, {
      legacyDefaults: false,
    });
    const lines = formatNotes(r);
    expect(lines[0]).toBe("[info] document 1: skipped v1 Secret s: not a Karpenter NodePool or node class");
    expect(lines).toContain(
      'document 2 Provisioner/default → NodePool/default: [info] spec.ttlSecondsAfterEmpty: written as disruption consolidationPolicy WhenEmpty, consolidateAfter "30s"',
    );
    expect(
      lines.filter((l) => l.startsWith("document 3 AWSNodeTemplate/default → EC2NodeClass/default: ")),
    ).toHaveLength(r.ec2NodeClasses[0].notes.length);
  });
});
