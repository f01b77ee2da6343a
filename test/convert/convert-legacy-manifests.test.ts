import { KarpenterValidationError } from "../../lib";
import { convertLegacyManifests, LegacyManifestError } from "../../lib/cli-api";
import { thrown } from "../helpers";
import { awsNodeTemplate, noteAbout, provisioner } from "./util";

const TEMPLATE = awsNodeTemplate(
  "default",
  "subnetSelector: { a: b }\nsecurityGroupSelector: { a: b }\ninstanceProfile: p",
);

describe("convertLegacyManifests: input", () => {
  test("several documents: objects in input order, each with its 1-based document index", () => {
    // a stream that starts with `---` has an empty first document: it counts, and converts to nothing
    const yaml =
      "---\n# nothing here\n---\n" +
      [
        provisioner("first", "providerRef: { name: default }"),
        "apiVersion: v1\nkind: Namespace\nmetadata: { name: karpenter }\n",
        TEMPLATE,
        provisioner("second", "providerRef: { name: default }"),
      ].join("---\n") +
      "---\n";
    const r = convertLegacyManifests(yaml);
    // documents: 1 empty, 2 Provisioner, 3 Namespace, 4 AWSNodeTemplate, 5 Provisioner, 6 empty
    expect(r.objects.map((o) => [o.kind, o.name, o.source.document, o.source.kind])).toEqual([
      ["NodePool", "first", 2, "Provisioner"],
      ["EC2NodeClass", "default", 4, "AWSNodeTemplate"],
      ["NodePool", "second", 5, "Provisioner"],
    ]);
    expect(r.nodePools.map((p) => p.name)).toEqual(["first", "second"]);
    expect(r.ec2NodeClasses.map((c) => c.name)).toEqual(["default"]);
    expect(r.notes).toEqual([
      {
        level: "info",
        field: "document 3",
        message: "skipped v1 Namespace karpenter: not a Karpenter NodePool or node class",
      },
    ]);
  });

  test("a kind: List document (kubectl get -o yaml) is read item by item", () => {
    const yaml = `apiVersion: v1
kind: List
metadata: { resourceVersion: "" }
items:
- apiVersion: karpenter.sh/v1alpha5
  kind: Provisioner
  metadata: { name: a }
  spec: { providerRef: { name: default } }
- apiVersion: karpenter.k8s.aws/v1alpha1
  kind: AWSNodeTemplate
  metadata: { name: default }
  spec: { subnetSelector: { a: b }, securityGroupSelector: { a: b }, instanceProfile: p }
`;
    const r = convertLegacyManifests(yaml);
    expect(r.objects.map((o) => [o.kind, o.name, o.source.document, o.source.item])).toEqual([
      ["NodePool", "a", 1, 0],
      ["EC2NodeClass", "default", 1, 1],
    ]);
  });

  test("cluster-set metadata and status are noted as ignored; the object's own labels and annotations as not carried", () => {
    const yaml = `apiVersion: karpenter.sh/v1alpha5
kind: Provisioner
metadata:
  name: default
  uid: 1234
  resourceVersion: "99"
  generation: 3
  creationTimestamp: "2023-01-01T00:00:00Z"
  labels: { app: karpenter }
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: "{}"
    owner: team-a
spec:
  providerRef: { name: default }
status:
  resources: { cpu: "4" }
`;
    const pool = convertLegacyManifests(yaml).nodePools[0];
    expect(noteAbout(pool.notes, "metadata")).toEqual({
      level: "info",
      field: "metadata",
      message:
        'ignored fields set by the cluster (not part of the desired state): metadata.uid, metadata.resourceVersion, metadata.generation, metadata.creationTimestamp, metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"], status',
    });
    expect(noteAbout(pool.notes, "metadata.labels").message).toContain('{"app":"karpenter"}');
    expect(noteAbout(pool.notes, "metadata.annotations").message).toContain('{"owner":"team-a"}');
  });

  test("JSON input is YAML too", () => {
    const r = convertLegacyManifests(
      JSON.stringify({
        apiVersion: "karpenter.sh/v1alpha5",
        kind: "Provisioner",
        metadata: { name: "j" },
        spec: { providerRef: { name: "default" }, ttlSecondsAfterEmpty: 30 },
      }),
    );
    expect(r.nodePools[0].props.disruption).toEqual({ consolidationPolicy: "WhenEmpty", consolidateAfter: "30s" });
  });

  test("empty input converts to nothing", () => {
    expect(convertLegacyManifests("")).toEqual({
      objects: [],
      nodePools: [],
      ec2NodeClasses: [],
      nodeOverlays: [],
      capacityBuffers: [],
      notes: [],
    });
  });

  test("the same input gives the same result", () => {
    const yaml =
      provisioner("a", "providerRef: { name: default }\nkubeletConfiguration: { maxPods: 3 }") + "---\n" + TEMPLATE;
    expect(JSON.stringify(convertLegacyManifests(yaml))).toBe(JSON.stringify(convertLegacyManifests(yaml)));
  });
});

describe("convertLegacyManifests: malformed input throws, naming the document", () => {
  const valid = provisioner("ok", "providerRef: { name: default }");

  // `valid` is 6 lines, so the second document starts with `---` on line 7
  test("a YAML syntax error: document index, line and column", () => {
    const e = thrown(() =>
      convertLegacyManifests(
        `${valid}---\napiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\nmetadata:\n  name: a\n  name: b\n`,
      ),
    );
    expect(e).toBeInstanceOf(LegacyManifestError);
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect(e.message).toBe("document 2 (line 12, column 3): YAML syntax error: Map keys must be unique [CONVERT_YAML]");
    expect((e as LegacyManifestError).document).toBe(2);
    expect((e as LegacyManifestError).line).toBe(12);
  });

  test("an alias of an anchor set in another document is refused naming the alias, both documents and why", () => {
    const pool = (name: string, ref: string) =>
      `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: { name: ${name} }\nspec:\n  template:\n    spec:\n      nodeClassRef: ${ref}\n      requirements: []\n`;
    const ref = "{ group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }";
    // document 2 starts with `---` on line 9; its alias is on line 16
    const e = thrown(() => convertLegacyManifests(`${pool("a", `&ref ${ref}`)}---\n${pool("b", "*ref")}`));
    expect(e).toBeInstanceOf(LegacyManifestError);
    expect([
      (e as LegacyManifestError).code,
      (e as LegacyManifestError).document,
      (e as LegacyManifestError).line,
    ]).toEqual(["CONVERT_YAML", 2, 16]);
    expect(e.message).toBe(
      `document 2 (line 16, column 21): YAML syntax error: the alias *ref has no anchor &ref before it in document 2: &ref is set in document 1 (line 7), and anchors are per document: a "---" starts a new document, which sees none of the anchors of the others. Kubernetes' YAML reader refuses it ("unknown anchor 'ref' referenced"); repeat the value in this document, or set the anchor again in it [CONVERT_YAML]`,
    );
    // an alias before its anchor in its own document: the anchor's line
    expect(() =>
      convertLegacyManifests(
        `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: { name: a, labels: *l }\nspec: { template: { metadata: { labels: &l { a: b } } } }\n`,
      ),
    ).toThrow(
      /\(line 3, column 30\): .*the alias \*l .*: &l comes after it \(line 4\): an anchor must come before its aliases/,
    );
    // the valid look-alikes: each document sets the anchor it uses (one name in two documents is fine), before it
    const r = convertLegacyManifests(`${pool("a", `&ref ${ref}`)}---\n${pool("b", `&ref ${ref}`)}`);
    expect(r.nodePools.map((p) => p.name)).toEqual(["a", "b"]);
    const same = convertLegacyManifests(
      `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: { name: a }\nspec:\n  template:\n    metadata: { labels: { team: &t a } }\n    spec:\n      nodeClassRef: ${ref}\n      requirements: [{ key: team, operator: In, values: [*t] }]\n`,
    );
    expect(same.nodePools[0].props.requirements).toContainEqual({ key: "team", operator: "In", values: ["a"] });
  });

  test("an unrendered Helm template: the error says so and points to helm template; the yaml library prints no warning", () => {
    const warn = jest.spyOn(process, "emitWarning");
    const consoleWarn = jest.spyOn(console, "warn");
    try {
      const e = thrown(() =>
        convertLegacyManifests(
          "apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\nmetadata:\n  name: {{ .Values.name }}\nspec:\n  providerRef: { name: default }\n",
        ),
      ) as LegacyManifestError;
      expect(e).toBeInstanceOf(LegacyManifestError);
      expect([e.code, e.document, e.line, e.field]).toEqual(["CONVERT_WRONG_TYPE", 1, 4, "metadata.name"]);
      expect(e.message).toBe(
        'document 1 (line 4): metadata.name = {"{ .Values.name }":null} is invalid: a string; the input looks like an unrendered Helm (Go) template ({{ .Values.name }} on line 4): run `helm template` first and convert its output [CONVERT_WRONG_TYPE]',
      );
      // "Keys with collection values will be stringified … Set mapAsMap: true": advice to the library's caller
      expect(warn).not.toHaveBeenCalled();
      expect(consoleWarn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      consoleWarn.mockRestore();
    }
    // a template action YAML cannot read: the syntax error gets the hint too
    expect(() =>
      convertLegacyManifests(
        "apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\nmetadata:\n  name: default\n{{- if .Values.x }}\nspec:\n  providerRef: { name: default }\n{{- end }}\n",
      ),
    ).toThrow(
      "document 1 (line 5, column 1): YAML syntax error: Implicit keys need to be on a single line; the input looks like an unrendered Helm (Go) template ({{- if .Values.x }} on line 5): run `helm template` first and convert its output [CONVERT_YAML]",
    );
    // no `{{ … }}` in the text: no hint
    expect(() =>
      convertLegacyManifests("apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\nmetadata:\n  name: { a: b }\n"),
    ).toThrow(/is invalid: a string \[CONVERT_WRONG_TYPE\]$/);
    // a template inside a quoted string is text: it converts (nothing is refused for holding one)
    expect(
      convertLegacyManifests(
        'apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\nmetadata:\n  name: default\n  labels: { a: "{{ x }}" }\nspec:\n  providerRef: { name: default }\n',
      ).nodePools.map((p) => p.name),
    ).toEqual(["default"]);
  });

  test("a document that is not a mapping", () => {
    expect(() => convertLegacyManifests(`${valid}---\n- a\n- b\n`)).toThrow(
      'document 2 (line 8): (document) = ["a","b"] is invalid: a Kubernetes object with apiVersion, kind and metadata (a mapping) [CONVERT_WRONG_TYPE]',
    );
    expect(() => convertLegacyManifests("just text\n")).toThrow(
      /^document 1 \(line 1\): \(document\) = "just text" is invalid/,
    );
  });

  test("a Karpenter object without metadata.name", () => {
    expect(() =>
      convertLegacyManifests(
        "apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\nmetadata:\n  labels: { a: b }\nspec: {}\n",
      ),
    ).toThrow(
      "document 1 (line 4): metadata.name = undefined is invalid: the object's name (required) [CONVERT_REQUIRED]",
    );
    expect(() =>
      convertLegacyManifests("apiVersion: karpenter.k8s.aws/v1alpha1\nkind: AWSNodeTemplate\nspec: {}\n"),
    ).toThrow(/^document 1 \(line 1\): metadata = undefined is invalid/);
  });

  test("an object without apiVersion or kind", () => {
    expect(() => convertLegacyManifests("kind: Provisioner\nmetadata: { name: a }\n")).toThrow(
      /^document 1 \(line 1\): apiVersion = undefined is invalid: the object's apiVersion \(required\)/,
    );
  });

  test.each([
    [
      "ttlSecondsAfterEmpty: 30s",
      'document 1 (line 6): spec.ttlSecondsAfterEmpty = "30s" is invalid: a whole number of seconds (≥ 0) [CONVERT_WRONG_TYPE]',
    ],
    [
      "ttlSecondsUntilExpired: -1",
      "document 1 (line 6): spec.ttlSecondsUntilExpired = -1 is invalid: a whole number of seconds (≥ 0) [CONVERT_WRONG_TYPE]",
    ],
    [
      "labels: [a, b]",
      'document 1 (line 6): spec.labels = ["a","b"] is invalid: a mapping of string keys to string values [CONVERT_WRONG_TYPE]',
    ],
    [
      "labels: { team: 1 }",
      'document 1 (line 6): spec.labels.team = 1 is invalid: a string (quote values such as "true" or "1" in YAML) [CONVERT_WRONG_TYPE]',
    ],
    [
      "requirements: [{ key: a, operator: In, values: [2] }]",
      'document 1 (line 6): spec.requirements[0].values[0] = 2 is invalid: a string (quote values such as "2" in YAML) [CONVERT_WRONG_TYPE]',
    ],
    [
      "requirements: [{ operator: In }]",
      "document 1 (line 6): spec.requirements[0].key = undefined is invalid: a label key (every requirement needs key and operator) [CONVERT_REQUIRED]",
    ],
    [
      "consolidation: { enabled: maybe }",
      'document 1 (line 6): spec.consolidation.enabled = "maybe" is invalid: true or false [CONVERT_WRONG_TYPE]',
    ],
    ["taints: { key: a }", 'document 1 (line 6): spec.taints = {"key":"a"} is invalid: a list [CONVERT_WRONG_TYPE]'],
    [
      "providerRef: default",
      'document 1 (line 6): spec.providerRef = "default" is invalid: a provider reference { name } (a mapping) [CONVERT_WRONG_TYPE]',
    ],
    [
      "limits: { resources: { cpu: [1] } }",
      'document 1 (line 6): spec.limits.resources.cpu = [1] is invalid: a quantity such as 100, "500m" or "8Gi" [CONVERT_QUANTITY]',
    ],
    ["weight: 1.5", "document 1 (line 6): spec.weight = 1.5 is invalid: a whole number [CONVERT_WRONG_TYPE]"],
  ])("wrong type: %s", (line, message) => {
    expect(() => convertLegacyManifests(provisioner("p", line))).toThrow(message);
  });

  test("two objects converting to the same kind and name", () => {
    const pool =
      "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata:\n  name: ok\nspec:\n  template:\n    spec:\n      nodeClassRef: { name: default }\n";
    expect(() => convertLegacyManifests(`${valid}---\n${pool}`)).toThrow(
      'document 2 (line 11): metadata.name = "ok" is invalid: a name no other NodePool of the input has: document 1 (Provisioner) also converts to NodePool ok [CONVERT_DUPLICATE_NAME]',
    );
  });

  test("an error in a later document fails the whole call (nothing returned half-way)", () => {
    expect(() => convertLegacyManifests(`${valid}---\n${TEMPLATE}---\n${provisioner("bad", "weight: ten")}`)).toThrow(
      /^document 3 /,
    );
  });

  test("bad options", () => {
    expect(() => convertLegacyManifests(valid, { version: "0.37.0" })).toThrow(
      /^convertLegacyManifests: options\.version = "0\.37\.0" is invalid/,
    );
    expect(() => convertLegacyManifests(valid, { role: " " })).toThrow(
      /^convertLegacyManifests: options\.role = " " is invalid/,
    );
    expect(() => convertLegacyManifests(valid, { role: "bad role!" })).toThrow(
      'convertLegacyManifests: options.role = "bad role!" is invalid: an IAM role name: letters, digits and + = , . @ _ - [CONVERT_OPTION_ROLE]',
    );
    expect(() =>
      convertLegacyManifests(valid, { role: "arn:aws:iam::123456789012:role/KarpenterNodeRole-demo" }),
    ).not.toThrow();
    expect(() => convertLegacyManifests(valid, { legacyDefaults: "no" as any })).toThrow(
      'convertLegacyManifests: options.legacyDefaults = "no" is invalid: true or false [CONVERT_OPTION_NOT_A_BOOLEAN]',
    );
  });

  test("a misspelt option is an error, not ignored", () => {
    expect(() => convertLegacyManifests(valid, { rol: "x" } as any)).toThrow(
      'convertLegacyManifests: options.rol = "x" is invalid: not an option of convertLegacyManifests (options: role, legacyDefaults, version) [OPTIONS_UNKNOWN_KEY]',
    );
    expect(() => convertLegacyManifests(valid, "1.14.1" as any)).toThrow(
      /^convertLegacyManifests: options = "1\.14\.1" is invalid: an object \{ role, legacyDefaults, version \}/,
    );
  });

  test("a List without an items list", () => {
    expect(() => convertLegacyManifests(`${valid}---\napiVersion: v1\nkind: List\nmetadata: {}\n`)).toThrow(
      "document 2 (line 8): items = undefined is invalid: the objects of the List as a list (items is required) [CONVERT_LIST_ITEMS]",
    );
    expect(() => convertLegacyManifests("apiVersion: v1\nkind: List\nitems: { a: b }\n")).toThrow(
      'document 1 (line 3): items = {"a":"b"} is invalid: the objects of the List as a list (items is required) [CONVERT_LIST_ITEMS]',
    );
  });

  test("a List among the items of a List", () => {
    const nested = `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n  - ${valid.split("\n").join("\n    ").trimEnd()}\n`;
    expect(() => convertLegacyManifests(nested)).toThrow(
      /^document 1 \(line 4\): items\[0\] = .* is invalid: a Kubernetes object: a List inside a List is not read; put its items in the outer list \[CONVERT_LIST_ITEMS\]$/,
    );
  });
});

describe("convertLegacyManifests: validation against the targeted version", () => {
  test("every problem of an object gets its own note, not only the first", () => {
    const yaml = [
      "apiVersion: karpenter.sh/v1",
      "kind: NodePool",
      "metadata: { name: p }",
      "spec:",
      "  template:",
      "    metadata:",
      "      labels: { karpenter.sh/nodepool: x, team: a b }",
      "    spec:",
      "      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }",
      "      requirements:",
      "        - { key: kubernetes.io/hostname, operator: In, values: [a] }",
      "        - { key: karpenter.k8s.aws/instance-cpu, operator: Gt }",
      "      expireAfter: 30d",
      "      taints: [{ key: a, effect: NoSchedule }, { key: a, effect: NoSchedule }]",
      "  disruption: { consolidateAfter: 99999999999h }",
      "  limits: { cpu: -1 }",
      "  weight: 0",
    ].join("\n");
    const actions = convertLegacyManifests(yaml).nodePools[0].notes.filter(
      (n) => n.level === "action" && !n.message.includes("capacity-type"),
    );
    expect(actions.map((n) => n.field)).toEqual([
      "spec.template.spec.requirements[0].key",
      "spec.template.spec.requirements[1].values",
      'spec.template.metadata.labels["karpenter.sh/nodepool"]',
      'spec.template.metadata.labels["team"]',
      "spec.template.spec.taints[1]",
      "spec.template.spec.expireAfter",
      'spec.limits["cpu"]',
      "spec.disruption.consolidateAfter",
      "spec.weight",
    ]);
    expect(actions.every((n) => n.message.startsWith("the converted NodePool is invalid in Karpenter 1.15.3"))).toBe(
      true,
    );
    expect(actions.every((n) => n.invalid === true)).toBe(true);
  });

  test("rules beyond the CRDs apply too: an architecture spelled as the kernel does, a malformed alias version", () => {
    const pool =
      "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: { name: p }\nspec:\n  template:\n    spec:\n      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: nc }\n      requirements: [{ key: kubernetes.io/arch, operator: In, values: [x86_64] }]\n";
    const notes = convertLegacyManifests(pool).nodePools[0].notes.filter(
      (n) => n.level === "action" && !n.message.includes("capacity-type"),
    );
    expect(notes).toEqual([
      expect.objectContaining({
        field: "spec.template.spec.requirements[0].values[0]",
        message: expect.stringContaining('write "amd64"'),
      }),
    ]);
    const cls =
      "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: { name: nc }\nspec:\n  role: r\n  amiSelectorTerms: [{ alias: bottlerocket@1.20 }]\n  subnetSelectorTerms: [{ id: subnet-00000001 }]\n  securityGroupSelectorTerms: [{ id: sg-00000001 }]\n";
    const classNotes = convertLegacyManifests(cls).ec2NodeClasses[0].notes.filter((n) => n.level === "action");
    expect(classNotes).toEqual([
      expect.objectContaining({
        field: "spec.amiSelectorTerms[0].alias",
        message: expect.stringContaining('a Bottlerocket release "vX.Y.Z"'),
      }),
    ]);
  });

  test("every problem of an EC2NodeClass too", () => {
    const yaml =
      "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: { name: nc }\nspec:\n  role: r\n  amiSelectorTerms: [{ alias: al2023 }]\n  subnetSelectorTerms: [{ id: sub-1 }]\n  securityGroupSelectorTerms: [{ id: sg-00000001 }]\n  capacityReservationSelectorTerms: []\n  tags: { karpenter.sh/nodepool: x }\n";
    const fields = convertLegacyManifests(yaml)
      .ec2NodeClasses[0].notes.filter((n) => n.level === "action")
      .map((n) => n.field);
    expect(fields).toEqual([
      "spec.amiSelectorTerms[0].alias",
      "spec.subnetSelectorTerms[0].id",
      "spec.capacityReservationSelectorTerms",
      'spec.tags["karpenter.sh/nodepool"]',
    ]);
  });

  test('empty selector terms of an EC2NodeClass it reads are noted, naming the field; name: "*" with an owner is not', () => {
    const yaml =
      'apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: { name: nc }\nspec:\n  role: r\n  amiFamily: AL2023\n  amiSelectorTerms: [{ owner: self, name: "" }, { owner: amazon, name: "*" }]\n  subnetSelectorTerms: [{ tags: {} }]\n  securityGroupSelectorTerms: [{ name: "" }]\n';
    const notes = convertLegacyManifests(yaml).ec2NodeClasses[0].notes.filter((n) => n.level === "action");
    expect(notes.map((n) => n.field)).toEqual([
      "spec.amiSelectorTerms[0].name",
      "spec.subnetSelectorTerms[0].tags",
      "spec.securityGroupSelectorTerms[0].name",
    ]);
    expect(notes[0].message).toContain('write name: "*" with the owner');
    expect(notes.every((n) => n.message.includes("selects nothing"))).toBe(true);
  });

  test("notes that make the printed object one Karpenter rejects are marked invalid; other action notes are not", () => {
    const invalid = (yaml: string) =>
      convertLegacyManifests(yaml)
        .objects.flatMap((o) => o.notes.map((n) => ({ ...n, object: `${o.kind}/${o.name}` })))
        .filter((n) => n.level === "action")
        .map((n) => `${n.object} ${n.field}${n.invalid ? " invalid" : ""}`);
    // a rule of the version, a missing required field, and edits that leave a valid object
    expect(
      invalid(
        `${provisioner("p", "weight: 500")}  ttlSecondsUntilExpired: 2592000\n---\n${awsNodeTemplate("t", "launchTemplate: lt")}`,
      ),
    ).toEqual([
      "NodePool/p spec.providerRef invalid",
      "NodePool/p spec.ttlSecondsAfterEmpty",
      "NodePool/p spec.weight invalid",
      "EC2NodeClass/t spec.subnetSelector invalid",
      "EC2NodeClass/t spec.securityGroupSelector invalid",
      "EC2NodeClass/t spec.instanceProfile invalid",
      "EC2NodeClass/t spec.launchTemplate",
    ]);
    const selectors = "instanceProfile: ip\nsubnetSelector: { a: b }\nsecurityGroupSelector: { a: b }";
    expect(invalid(awsNodeTemplate("u", "amiFamily: Ubuntu", selectors))).toEqual([
      "EC2NodeClass/u spec.amiFamily invalid",
    ]);
    expect(invalid(awsNodeTemplate("u", "amiFamily: Ubuntu", 'amiSelector: { aws::ids: "ami-1" }', selectors))).toEqual(
      ["EC2NodeClass/u spec.amiFamily"],
    );
    expect(
      invalid(awsNodeTemplate("o", "amiFamily: Custom", 'amiSelector: { aws::owners: "123456789012" }', selectors)),
    ).toEqual(["EC2NodeClass/o spec.amiSelector invalid", "EC2NodeClass/o spec.amiSelectorTerms[0] invalid"]);
    const beta =
      "apiVersion: karpenter.k8s.aws/v1beta1\nkind: EC2NodeClass\nmetadata: { name: b }\nspec: { amiFamily: Custom }\n---\napiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: { name: b }\nspec:\n  template:\n    spec: {}\n";
    expect(invalid(beta).filter((n) => !n.includes("requirements"))).toEqual([
      "EC2NodeClass/b spec.amiFamily invalid",
      "EC2NodeClass/b spec.role invalid",
      "EC2NodeClass/b spec.subnetSelectorTerms invalid",
      "EC2NodeClass/b spec.securityGroupSelectorTerms invalid",
      "NodePool/b spec.template.spec.nodeClassRef invalid",
    ]);
  });

  test("a field newer than the targeted Karpenter version gets a note", () => {
    const yaml =
      "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: { name: nc }\nspec:\n  role: r\n  amiSelectorTerms: [{ alias: al2023@latest }]\n  subnetSelectorTerms: [{ id: subnet-00000001 }]\n  securityGroupSelectorTerms: [{ id: sg-00000001 }]\n  ipPrefixCount: 1\n";
    expect(convertLegacyManifests(yaml).ec2NodeClasses[0].notes.filter((n) => n.level === "action")).toEqual([]);
    const note = noteAbout(
      convertLegacyManifests(yaml, { version: "1.7.6" }).ec2NodeClasses[0].notes,
      "spec.ipPrefixCount",
    );
    expect(note.message).toContain("invalid in Karpenter 1.7.6");
    expect(note.message).toContain("needs Karpenter 1.8 or later");
  });
});

describe("odd but valid input", () => {
  test("YAML nested thousands of levels deep is refused as too deep, not as a syntax error", () => {
    const deep = `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\nspec: {x: ${"[".repeat(5000)}${"]".repeat(5000)}}\n`;
    let message = "";
    try {
      convertLegacyManifests(deep);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("a document nested less deeply");
    expect(message).not.toContain("syntax error");
  });
  test("values are read as kubectl reads them (go-yaml v2): a `<<` merge where it is written, YAML 1.1 dates as text", () => {
    // sigs.k8s.io/yaml YAMLToJSON (go-yaml v2.4.4, non-strict) of this document gives the labels
    // {"since":"2001-12-14","team":"a","tier":"x"}: the merge after `team: b` overrides it (checked in Go)
    const yaml = (labels: string) =>
      `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: a\n  labels: &l { team: a, tier: x }\nspec:\n  template:\n    metadata:\n      labels: ${labels}\n    spec:\n      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }\n      requirements: [{ key: karpenter.sh/capacity-type, operator: In, values: [on-demand] }]\n`;
    expect(convertLegacyManifests(yaml("{ team: b, <<: *l, since: 2001-12-14 }")).nodePools[0].props.labels).toEqual({
      team: "a",
      tier: "x",
      since: "2001-12-14",
    });
    // the look-alike: a key after the merge overrides the merged one (what the YAML spec says for either order)
    expect(convertLegacyManifests(yaml("{ <<: *l, team: b }")).nodePools[0].props.labels).toEqual({
      team: "b",
      tier: "x",
    });
  });

  test("a huge value is cut in a note (200 characters and its length), not echoed whole", () => {
    const big = "x".repeat(100_000);
    const yaml = `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\nspec:\n  bogus: ${big}\n  template:\n    spec:\n      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }\n      requirements: [{ key: karpenter.sh/capacity-type, operator: In, values: [on-demand] }]\n`;
    const notes = convertLegacyManifests(yaml).nodePools[0].notes.filter((n) => n.field === "spec.bogus");
    expect(notes).toHaveLength(1);
    expect(notes[0].message).toContain(`value was "${"x".repeat(199)}… (100002 characters)`);
    expect(notes[0].message.length).toBeLessThan(500);
  });
});
