// The pure parts of the local-cluster e2e (scripts/e2e/report.cjs, agreement.cjs, cluster-stage.cjs,
// server-validate.cjs): command line, report format, verdict comparison, the override each stack copy
// gets. None of them needs a built tool or a running server.
const { parseArgs, Report } = require("../scripts/e2e/report.cjs");
const ag = require("../scripts/e2e/agreement.cjs");
const cs = require("../scripts/e2e/cluster-stage.cjs");
const sv = require("../scripts/e2e/server-validate.cjs");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { referenceRequirement, testIf } = require("./reference");
export {};

describe("e2e command line", () => {
  test("no argument runs every stage", () => {
    expect(parseArgs([])).toMatchObject({ mode: "all", crds: "reference", keep: false });
    expect(parseArgs([]).stages).toContain("cluster");
  });

  test("--stage, --apply, --server-validate with its options, --report", () => {
    expect(parseArgs(["--stage", "cluster"])).toMatchObject({ mode: "stages", stages: ["cluster"] });
    expect(parseArgs(["--stage=cluster,agreement"]).stages).toEqual(["cluster", "agreement"]);
    expect(parseArgs(["--apply", "cdktf.out"])).toMatchObject({ mode: "apply", target: "cdktf.out" });
    expect(parseArgs(["--validate", "cdktf.out"])).toMatchObject({ mode: "validate", target: "cdktf.out" });
    // alone: the validate stage (every example, and the main one on CDK Terrain)
    expect(parseArgs(["--validate"])).toMatchObject({ mode: "stages", stages: ["validate"] });
    expect(parseArgs(["--validate", "--keep"])).toMatchObject({ mode: "stages", stages: ["validate"], keep: true });
    expect(
      parseArgs([
        "--server-validate",
        "x.yaml",
        "--karpenter-version",
        "1.0.14",
        "--crds",
        "module",
        "--report",
        "r.json",
      ]),
    ).toMatchObject({
      mode: "server-validate",
      target: "x.yaml",
      karpenterVersion: "1.0.14",
      crds: "module",
      report: "r.json",
    });
  });

  test("mistakes name what is wrong and print the usage", () => {
    expect(() => parseArgs(["--stage", "kluster"])).toThrow(/--stage kluster: unknown stage[\s\S]*usage:/);
    expect(() => parseArgs(["--apply"])).toThrow(/--apply needs a value/);
    expect(() => parseArgs(["--apply", "--keep"])).toThrow(/--apply needs a value/);
    expect(() => parseArgs(["--karpenter-version", "1.14"])).toThrow(/a release such as 1\.14\.1/);
    expect(() => parseArgs(["--crds", "chart"])).toThrow(/reference .* or module/);
    expect(() => parseArgs(["--apply", "a", "--validate", "b"])).toThrow(/choose one of/);
    expect(() => parseArgs(["--apply", "a", "--karpenter-version", "1.0.14"])).toThrow(
      /goes with --server-validate or --stage/,
    );
    expect(() => parseArgs(["--fast"])).toThrow(/unknown argument --fast/);
  });
});

describe("e2e report", () => {
  test("one entry per check with stage, name, ok, detail; the closing line counts them", () => {
    const lines: string[] = [];
    const r = new Report((l: string) => lines.push(l));
    r.setStage("cluster");
    r.check("a", true);
    r.check("b", false, "why");
    r.skip("c", "not built yet: kube-apiserver v1.36.3");
    expect(r.summaryLine()).toBe("1 passed, 1 failed, 1 skipped");
    expect(lines).toEqual(["  ok   a", "  FAIL b\n       why", "  SKIP c: not built yet: kube-apiserver v1.36.3"]);
    const j = r.toJSON();
    expect(j.checks[1]).toEqual({ stage: "cluster", name: "b", ok: false, detail: "why" });
    expect(j.checks[2]).toMatchObject({ stage: "cluster", name: "c", ok: null, skipped: true });
    expect(j.summary).toEqual({ passed: 1, failed: 1, skipped: 1, line: "1 passed, 1 failed, 1 skipped" });
  });

  test("without skips the line has no skipped part", () => {
    const r = new Report(() => undefined);
    r.check("a", true);
    expect(r.summaryLine()).toBe("1 passed, 0 failed");
  });
});

describe("library verdict vs server verdict", () => {
  const accepted = { verdict: "accepted", manifest: { kind: "NodePool", metadata: { name: "p" } } };
  const crdRejected = {
    verdict: "rejected",
    manifest: {},
    problems: [{ field: "weight", rule: "crd", message: "p: weight = 0 is invalid" }],
  };
  const semantic = {
    verdict: "rejected",
    manifest: {},
    problems: [
      {
        field: "name",
        rule: "semantic",
        message:
          'p: name = "x" is invalid: at most 63 characters (got 70): Karpenter labels every NodeClaim and node with karpenter.sh/nodepool=<NodePool name>',
      },
    ],
  };

  test("same verdict agrees; different verdicts disagree, saying which side said what", () => {
    expect(ag.compareCase(accepted, { accepted: true }).outcome).toBe("agree");
    expect(ag.compareCase(crdRejected, { accepted: false, message: "x" }).outcome).toBe("agree");
    expect(ag.compareCase(accepted, { accepted: false, message: "spec.weight: Invalid value" })).toEqual({
      outcome: "disagree",
      detail: "the library accepts, the server rejects: spec.weight: Invalid value",
    });
    expect(ag.compareCase(crdRejected, { accepted: true }).detail).toMatch(
      /the library rejects by a rule not listed in SEMANTIC_RULES, the server accepts: weight \[crd\]/,
    );
    // a rule beyond the CRD that the library runs with the CRD rules (Go duration range) is excused like a semantic one
    const goDuration = {
      verdict: "rejected",
      manifest: {},
      problems: [
        {
          field: "expireAfter",
          rule: "crd",
          message: 'x: expireAfter = "2562048h" is invalid: Karpenter parses durations with Go\'s time.ParseDuration',
        },
      ],
    };
    expect(ag.compareCase(goDuration, { accepted: true })).toMatchObject({
      outcome: "agree-semantic",
      rules: ["go-duration-range"],
    });
  });

  test("a rejection by listed semantic rules alone agrees with a server that accepts; an unlisted one does not", () => {
    expect(ag.compareCase(semantic, { accepted: true })).toMatchObject({
      outcome: "agree-semantic",
      rules: ["name-as-label"],
    });
    const unlisted = { ...semantic, problems: [{ field: "tags", rule: "semantic", message: "something new" }] };
    expect(ag.compareCase(unlisted, { accepted: true }).detail).toMatch(/not listed in SEMANTIC_RULES/);
    // the server rejecting what only a semantic rule caught: the CRD rules missed something
    expect(ag.compareCase(semantic, { accepted: false, message: "m" }).outcome).toBe("disagree");
  });

  test("every semantic rule says why the server accepts what Karpenter cannot run", () => {
    for (const r of ag.SEMANTIC_RULES) expect(r.reason.length).toBeGreaterThan(40);
    expect(new Set(ag.SEMANTIC_RULES.map((r: { id: string }) => r.id)).size).toBe(ag.SEMANTIC_RULES.length);
  });

  test("cases without an object, with the user's tokens or with a construct-level problem are not compared", () => {
    expect(ag.exclusion({ verdict: "rejected", problems: [{ field: "nodeClass", rule: "construct" }] })).toMatch(
      /no object to submit/,
    );
    expect(ag.exclusion({ ...accepted, optionTokens: true })).toMatch(/tokens/);
    expect(ag.exclusion({ ...crdRejected, problems: [{ field: "deleteTimeout", rule: "crd" }] })).toMatch(
      /prop outside the object/,
    );
    expect(ag.exclusion({ ...crdRejected, problems: [{ field: "kubernetesProvider", rule: "construct" }] })).toMatch(
      /construct-level/,
    );
    expect(ag.exclusion(accepted)).toBeUndefined();
  });

  test("a free-form kubelet value that is no data (1.15) is excused as kubelet-value-not-data", () => {
    const message =
      "test/obj: kubelet.y = [1,NaN] is invalid: a KubeletConfiguration value written as data (strings, numbers, booleans, lists and maps): Karpenter writes it into the node's configuration as JSON, and kubelet.y[1] is NaN, which JSON cannot hold";
    expect(ag.semanticRuleOf({ field: "kubelet.y", message }, "1.15.0").id).toBe("kubelet-value-not-data");
    expect(ag.semanticRuleOf({ field: "kubelet.y", message }, "1.14.1")).toBeUndefined();
  });

  test("a missing item of a free-form kubelet list (1.15) is excused as kubelet-list-item-missing, not before", () => {
    const message =
      "test/obj: kubelet.clusterDNS[0] = null is invalid: a list item (null and undefined items are not allowed: leave the item out)";
    expect(ag.semanticRuleOf({ field: "kubelet.clusterDNS[0]", message }, "1.15.0").id).toBe(
      "kubelet-list-item-missing",
    );
    expect(ag.semanticRuleOf({ field: "kubelet.clusterDNS[0]", message }, "1.14.1")).toBeUndefined();
    expect(ag.semanticRuleOf({ field: "kubelet.clusterDNS", message }, "1.15.0")?.id).not.toBe(
      "kubelet-list-item-missing",
    );
  });

  test("a negative iops the library refuses and the server accepts (the CRD sets no minimum) is excused as EC2's rule", () => {
    const message =
      "test/obj: blockDeviceMappings[0].ebs.iops = -5 is invalid: a whole number, 0 or more: EC2 takes no negative IOPS (EC2 API Reference, EbsBlockDevice), so every launch with this class fails";
    const rec = {
      verdict: "rejected",
      version: "1.14.1",
      problems: [{ field: "blockDeviceMappings[0].ebs.iops", rule: "crd", message }],
    };
    expect(ag.compareCase(rec, { accepted: true }).outcome).toBe("agree-semantic");
    // the message the CI run disagreed on, without EC2's reason, stays a disagreement
    const bare = { ...rec, problems: [{ ...rec.problems[0], message: message.replace(/: EC2 takes.*/, "") }] };
    expect(ag.compareCase(bare, { accepted: true }).outcome).toBe("disagree");
  });

  test("user data the AMI family cannot read, refused by the library and accepted by the server, is excused by user-data-format", () => {
    for (const message of [
      't/nc: userData = "line 2: echo hi" is invalid: Bottlerocket settings in TOML (illegal character in key): user data for the Bottlerocket AMI family is TOML, and Karpenter fails every launch with "invalid UserData" when it does not parse',
      // the message the agreement stage disagreed on before it named the family (the case of user-data-rules.test.ts)
      't/nc: userData = "line 3" is invalid: a MIME multipart document with parts: the boundary line "--B" never appears, so Karpenter reads no part and drops the whole user data silently: user data for the AL2023 AMI family that starts with MIME-Version: or Content-Type: is read as a multipart document',
      't/nc: userData = "line 8: kind: ConfigMap" is invalid: a NodeConfig (apiVersion: node.eks.aws/v1alpha1, kind: NodeConfig), a shell script, or a MIME multipart document: an application/node.eks.aws part of AL2023 user data is passed to nodeadm as a NodeConfig',
    ]) {
      expect(ag.semanticRuleOf({ field: "userData", message }, "1.14.1").id).toBe("user-data-format");
      const rec = {
        verdict: "rejected",
        version: "1.14.1",
        problems: [{ field: "userData", rule: "semantic", message }],
      };
      expect(ag.compareCase(rec, { accepted: true }).outcome).toBe("agree-semantic");
    }
  });

  test("EC2's EBS ratios and size floors the library refuses and the server accepts are excused by ebs-limits", () => {
    for (const [field, message] of [
      [
        "blockDeviceMappings[0].ebs.iops",
        'test/obj: blockDeviceMappings[0].ebs.iops = 5001 is invalid: at most 5,000 IOPS on a volume of 100 GiB: EC2\'s limits for volumeType "io1" allow 50 IOPS per GiB (Amazon EBS User Guide, Provisioned IOPS SSD volumes), so every launch with this class fails. Make volumeSize at least 101Gi, or lower iops',
      ],
      [
        "blockDeviceMappings[0].ebs.throughput",
        "test/obj: blockDeviceMappings[0].ebs.throughput = 1000 is invalid: at most 750 MiB/s with 3,000 IOPS (gp3's baseline: iops is unset): EC2's limits for volumeType \"gp3\" allow 0.25 MiB/s per provisioned IOPS (Amazon EBS User Guide, General Purpose SSD volumes), so every launch with this class fails. Set iops to at least 4,000, or lower throughput",
      ],
      [
        "blockDeviceMappings[1].ebs.volumeSize",
        'test/obj: blockDeviceMappings[1].ebs.volumeSize = "100Gi" is invalid: at least 125 GiB ("125Gi"): EC2\'s limits for volumeType "st1" (Amazon EC2 API Reference, EbsBlockDevice: VolumeSize "st1 and sc1: 125 - …"), and this is 100 GiB, so every launch with this class fails',
      ],
    ]) {
      expect(ag.semanticRuleOf({ field, message }, "1.14.1").id).toBe("ebs-limits");
      const rec = { verdict: "rejected", version: "1.14.1", problems: [{ field, rule: "crd", message }] };
      expect(ag.compareCase(rec, { accepted: true }).outcome).toBe("agree-semantic");
    }
    // a volumeSize the CRD pattern refuses is the CRD's, not this rule's
    expect(
      ag.semanticRuleOf(
        {
          field: "blockDeviceMappings[0].ebs.volumeSize",
          message: 'x: volumeSize = "0Gi" is invalid: a size with unit Gi',
        },
        "1.14.1",
      ),
    ).toBeUndefined();
  });

  test("an empty selector term the library refuses and the server accepts is excused by empty-selector-term, on the field it names", () => {
    const message =
      "t/nc: subnetSelectorTerms[0].tags = {} is invalid: a tags map with at least one tag: an empty one selects nothing: Karpenter 1.9.4, 1.14.4, 1.15.3 and later ignore the term (a class whose terms are all empty becomes NotReady), and earlier releases query EC2 without that filter, selecting more than you named";
    expect(ag.semanticRuleOf({ field: "subnetSelectorTerms[0].tags", message }, "1.14.1").id).toBe(
      "empty-selector-term",
    );
    expect(
      ag.semanticRuleOf(
        { field: "securityGroupSelectorTerms[2].name", message: message.replace("a tags map", "a non-empty name") },
        "1.15.3",
      ).id,
    ).toBe("empty-selector-term");
    // an empty id fails its ID pattern (a rule of its own): not this one
    const id =
      "t/nc: subnetSelectorTerms[0].id = \"\" is invalid: a subnet ID: 'subnet-' and 8 or 17 lower-case hex digits, such as subnet-0123abcd";
    expect(ag.semanticRuleOf({ field: "subnetSelectorTerms[0].id", message: id }, "1.15.3").id).toBe("ec2-id-format");
  });

  test("problems with the props' shape (a number in limits, an expression in maxPods, maxPods twice) are not compared: the object cannot show them", () => {
    const limit = {
      verdict: "rejected",
      manifest: {},
      problems: [
        {
          field: 'limits["cpu"]',
          rule: "crd",
          message:
            'p: limits["cpu"] = 100 is invalid: a Kubernetes quantity as a string, got a number: write "100", not 100',
        },
      ],
    };
    expect(ag.exclusion(limit)).toMatch(
      /^problem with the props' shape, which the object does not show: limits\["cpu"\]$/,
    );
    const cel = {
      verdict: "rejected",
      manifest: {},
      problems: [
        {
          field: "kubelet.maxPods",
          rule: "crd",
          message:
            'c: kubelet.maxPods = "min(110, max_pods)" is invalid: a whole number from 0 to 2147483647, got a string: a CEL expression goes in kubelet.maxPodsExpression (…)',
        },
      ],
    };
    expect(ag.exclusion(cel)).toMatch(/props' shape/);
    const both = {
      verdict: "rejected",
      manifest: {},
      problems: [
        {
          field: "kubelet.maxPodsExpression",
          rule: "crd",
          message:
            'c: kubelet.maxPodsExpression = "min(110, max_pods)" is invalid: unset when kubelet.maxPods is set: …',
        },
      ],
    };
    expect(ag.exclusion(both)).toMatch(/props' shape/);
    // a quoted count in maxPods is judged by the server too (the 1.14 CRD's int32): compared
    const quoted = {
      verdict: "rejected",
      manifest: {},
      problems: [
        {
          field: "kubelet.maxPods",
          rule: "crd",
          message:
            'c: kubelet.maxPods = "110" is invalid: a whole number from 0 to 2147483647, got a string: write 110, not "110"',
        },
      ],
    };
    expect(ag.exclusion(quoted)).toBeUndefined();
    // beside a problem the server can judge, the case is compared on that one alone
    const mixed = {
      ...limit,
      problems: [...limit.problems, { field: "weight", rule: "crd", message: "p: weight = 0 is invalid" }],
    };
    expect(ag.exclusion(mixed)).toBeUndefined();
    expect(ag.compareCase(mixed, { accepted: false, message: "spec.weight" }).outcome).toBe("agree");
    expect(ag.compareCase(mixed, { accepted: true }).detail).toMatch(
      /not listed in SEMANTIC_RULES, the server accepts: weight \[crd\]: p: weight = 0 is invalid$/,
    );
  });

  test("duplicates are counted once; a version maps to the reference release of its minor", () => {
    const u = ag.uniqueCases([accepted, accepted, crdRejected]);
    expect(u.map((x: { occurrences: number }) => x.occurrences)).toEqual([2, 1]);
    expect(ag.releaseFor("1.14.1", ["1.0.14", "1.14.1"])).toBe("1.14.1");
    expect(ag.releaseFor("1.14.0", ["1.0.14", "1.14.1"])).toBe("1.14.1");
    expect(ag.releaseFor("1.2.0", ["1.0.14", "1.14.1"])).toBeUndefined();
  });

  test("when both reject, whether they name the same field (prop paths mapped into the object)", () => {
    expect(ag.objectPath("NodePool", 'labels["team"]')).toBe("spec.template.metadata.labels.team");
    expect(ag.objectPath("NodePool", "nodeClass.name")).toBe("spec.template.spec.nodeClassRef.name");
    expect(ag.objectPath("NodePool", "disruption.budgets[0].schedule")).toBe("spec.disruption.budgets[0].schedule");
    expect(ag.objectPath("EC2NodeClass", "blockDeviceMappings[0].ebs.iops")).toBe(
      "spec.blockDeviceMappings[0].ebs.iops",
    );
    // the prop maxPodsExpression is the object's kubelet.maxPods
    expect(ag.objectPath("EC2NodeClass", "kubelet.maxPodsExpression")).toBe("spec.kubelet.maxPods");
    const rec = { kind: "NodePool", problems: [{ field: "replicas" }] };
    expect(ag.sameField(rec, { fields: [".spec.replicas"] })).toBe(true);
    expect(ag.sameField(rec, { fields: ["spec.weight"] })).toBe(false);
    // a rule over all of spec says nothing about which field
    expect(ag.sameField(rec, { fields: ["spec"] })).toBeUndefined();
  });

  test("NodeOverlay and CapacityBuffer cases: unknown props are outside the object, fields map into metadata and spec, their rules beyond the CRD are listed", () => {
    const unknown = {
      verdict: "rejected",
      manifest: { kind: "NodeOverlay" },
      problems: [
        {
          field: "prices",
          rule: "crd",
          message:
            't/o: prices = "1" is invalid: not a field of NodeOverlayProps (an unknown field would be silently dropped); did you mean price?',
        },
      ],
    };
    expect(ag.exclusion(unknown)).toMatch(/prop outside the object: prices/);
    expect(
      ag.exclusion({
        ...unknown,
        problems: [
          { ...unknown.problems[0], message: "t/b: replica = 2 is invalid: not a field of CapacityBufferProps" },
        ],
      }),
    ).toMatch(/prop outside the object/);
    expect(ag.objectPath("CapacityBuffer", "namespace")).toBe("metadata.namespace");
    expect(ag.objectPath("CapacityBuffer", "scalableRef.kind")).toBe("spec.scalableRef.kind");
    expect(ag.objectPath("NodeOverlay", 'capacity["example.com/fuse"]')).toBe("spec.capacity.example.com/fuse");
    expect(ag.objectPath("NodeOverlay", "requirements[0].key")).toBe("spec.requirements[0].key");
    // a gate the install leaves off is a problem of the install (karpenter), not of the object
    expect(ag.exclusion({ ...unknown, problems: [{ field: "karpenter", rule: "crd", message: "x" }] })).toMatch(
      /prop outside the object: karpenter/,
    );
    const neither = {
      field: "podTemplateRef",
      message:
        "t/b: podTemplateRef = undefined is invalid: a PodTemplate reference { name }, or a scalableRef { apiGroup, kind, name }: exactly one of the two says what a chunk of the buffer looks like, and a buffer with neither provisions nothing",
    };
    expect(ag.semanticRuleOf(neither, "1.14.1").id).toBe("capacity-buffer-reference");
    expect(
      ag.semanticRuleOf(
        {
          field: 'capacity["example.com/fuse"]',
          message: 'capacity["example.com/fuse"] = "-1" is invalid: a non-negative quantity: …',
        },
        "1.15.0",
      ).id,
    ).toBe("limits-quantities");
    // the NodeOverlay's Exists-with-values and label-value rules are the NodePool's
    expect(
      ag.semanticRuleOf(
        { field: "requirements[1].values", message: "no values: operator 'Exists' takes none" },
        "1.15.0",
      ).id,
    ).toBe("exists-without-values");
  });

  test("the summary line", () => {
    const s = ag.summarize([
      { outcome: "agree", verdict: "accepted" },
      { outcome: "agree-semantic", rules: ["name-as-label"] },
      { outcome: "disagree" },
      { excluded: "x" },
    ]);
    expect(s).toMatchObject({
      cases: 3,
      agree: 2,
      disagree: 1,
      semanticByDesign: 1,
      excluded: 1,
      line: "2/3 cases agree",
      semanticRules: { "name-as-label": 1 },
    });
  });
});

describe("server-validate output", () => {
  test("one line per object", () => {
    const o = { kind: "NodePool", metadata: { name: "default" } };
    expect(sv.verdictLine(o, { accepted: true })).toBe("accepted NodePool/default");
    expect(
      sv.verdictLine(o, { accepted: false, message: 'NodePool.karpenter.sh "default" is invalid:\n spec.weight' }),
    ).toBe('rejected NodePool/default: NodePool.karpenter.sh "default" is invalid: spec.weight');
  });

  test("a namespaced object's namespace is created once when the server lacks it (NamespaceLifecycle refuses even a dry run there); default and invalid names are left alone", async () => {
    const calls: string[] = [];
    const cluster = {
      request: async (method: string, p: string, body?: { metadata: { name: string } }) => {
        calls.push(`${method} ${p}${body ? ` ${body.metadata.name}` : ""}`);
        return { status: method === "GET" ? 404 : 201 };
      },
    };
    await sv.ensureNamespace(cluster, "ci");
    await sv.ensureNamespace(cluster, "ci");
    await sv.ensureNamespace(cluster, "default");
    await sv.ensureNamespace(cluster, "CI");
    expect(calls).toEqual(["GET /api/v1/namespaces/ci", "POST /api/v1/namespaces ci"]);
  });

  test("multi-document YAML and List objects are unfolded, empty documents skipped", () => {
    const objs = sv.objectsOfYaml(
      "kind: A\nmetadata: {name: a}\n---\n---\nkind: List\nitems:\n  - {kind: B, metadata: {name: b}}\n",
    );
    expect(objs.map((o: { kind: string }) => o.kind)).toEqual(["A", "B"]);
  });
});

describe("stack copies for the local cluster", () => {
  const eks = {
    provider: {
      aws: [{ region: "eu-west-1" }],
      helm: [{ kubernetes: { host: "${aws_eks_cluster.cluster.endpoint}", exec: { command: "aws" } } }],
    },
    resource: {
      helm_release: {
        crds: { chart: "karpenter-crd", version: "1.14.1", repository: "oci://public.ecr.aws/karpenter" },
      },
      aws_eks_addon: { cni: { cluster_name: "x" } },
      aws_eks_access_entry: { node: { cluster_name: "x" } },
      aws_eks_pod_identity_association: { pi: { cluster_name: "x" } },
      aws_iam_role: {
        r: { name: "r", depends_on: ["aws_eks_addon.cni"], tags: { a: "${aws_eks_access_entry.node.id}" } },
      },
    },
    output: { "cross-stack-output-endpoint": { value: "${aws_eks_cluster.cluster.endpoint}" } },
    terraform: { backend: { local: { path: "../../../terraform.eks.tfstate" } } },
  };
  const nodes = {
    provider: { kubernetes: [{ host: "${data.terraform_remote_state.eks.outputs.cross-stack-output-endpoint}" }] },
    data: { terraform_remote_state: { eks: { backend: "local", config: { path: "../../../terraform.eks.tfstate" } } } },
    resource: { kubernetes_deployment_v1: { inflate: {} } },
    terraform: { backend: { local: { path: "../../../terraform.nodes.tfstate" } } },
  };
  const stacks = [
    { name: "eks", dir: "/o/stacks/eks", config: eks, statePath: "/terraform.eks.tfstate", deps: [] },
    { name: "nodes", dir: "/o/stacks/nodes", config: nodes, statePath: "/terraform.nodes.tfstate", deps: [] },
  ];

  test("a provider reading the cluster through remote state talks to the same API as the stack that outputs it", () => {
    expect(cs.apiKey("${data.terraform_remote_state.eks.outputs.cross-stack-output-endpoint}", stacks[1], stacks)).toBe(
      "eks:${aws_eks_cluster.cluster.endpoint}",
    );
    expect(cs.apiKeys(stacks)).toEqual(["eks:${aws_eks_cluster.cluster.endpoint}"]);
  });

  test("only resources no attribute refers to are left out of the apply", () => {
    expect(cs.leaveOut(eks, cs.NOT_EMULATED)).toEqual({
      out: ["aws_eks_addon.cni", "aws_eks_pod_identity_association.pi"],
      blocked: ["aws_eks_access_entry.node"],
    });
  });

  test("the override points providers at moto and the local server, charts at the reference folder, and waits at nothing", () => {
    const local = { server: "https://127.0.0.1:1", caPem: "PEM", token: "t" };
    const ov = cs.stackOverride(eks, {
      statePath: "/s/eks.tfstate",
      remoteStates: {},
      motoUrl: "http://127.0.0.1:2",
      clusterFor: () => local,
      chartDir: (c: string, v: string) => `/ref/v${v}/charts/${c}`,
      leftOut: ["aws_eks_addon.cni"],
    });
    expect(ov.terraform.backend.local.path).toBe("/s/eks.tfstate");
    expect(ov.provider.aws[0]).toMatchObject({
      region: "eu-west-1",
      endpoints: [expect.objectContaining({ eks: "http://127.0.0.1:2" })],
    });
    expect(ov.provider.helm[0]).toEqual({
      kubernetes: { host: "https://127.0.0.1:1", cluster_ca_certificate: "PEM", token: "t" },
    });
    expect(ov.resource.helm_release.crds).toEqual({
      chart: "/ref/v1.14.1/charts/karpenter-crd",
      repository: null,
      wait: false,
    });
    expect(ov.resource.aws_eks_addon.cni).toEqual({ count: 0 });
    const ov2 = cs.stackOverride(nodes, {
      statePath: "/s/n",
      remoteStates: { eks: "/s/eks.tfstate" },
      clusterFor: () => local,
      chartDir: () => "",
      leftOut: [],
    });
    expect(ov2.data.terraform_remote_state.eks).toEqual({ config: { path: "/s/eks.tfstate" } });
    expect(ov2.resource.kubernetes_deployment_v1.inflate).toEqual({ wait_for_rollout: false });
    expect(ov2.provider.kubernetes[0].exec[0].args[1]).toContain('"token":"t"');
    expect(ov2.provider.aws).toBeUndefined();
  });

  test("a patch without a reference folder installs the charts standing for it, at their version", () => {
    const local = { server: "https://127.0.0.1:1", caPem: "PEM", token: "t" };
    const ov = cs.stackOverride(eks, {
      statePath: "/s/eks.tfstate",
      remoteStates: {},
      motoUrl: "http://127.0.0.1:2",
      clusterFor: () => local,
      chartDir: (c: string) => `/ref/v1.14.0/charts/${c}`,
      chartVersion: () => "1.14.0",
      leftOut: [],
    });
    expect(ov.resource.helm_release.crds).toEqual({
      chart: "/ref/v1.14.0/charts/karpenter-crd",
      repository: null,
      wait: false,
      version: "1.14.0",
    });
  });

  testIf(referenceRequirement(["1.14.1", "1.15.0"], "charts"))(
    "--server-validate's CRDs for a patch without a folder (the default, 1.15.3) are the earlier patch's that stands for it, said in the source",
    () => {
      const lib = require("../lib/versions");
      const def = sv.crdSource(lib.DEFAULT_RELEASE);
      expect(def.dir).toBe(
        path.resolve(
          __dirname,
          "..",
          "..",
          "shared",
          "reference",
          "karpenter",
          "v1.15.0",
          "charts",
          "karpenter",
          "crds",
        ),
      );
      expect(def.source).toBe(
        "reference v1.15.0/charts/karpenter/crds (v1.15.0's charts stand for 1.15.3, a patch without artefact changes (lib/versions/patch-history.ts))",
      );
      expect(sv.crdSource("1.15.0")).toMatchObject({ source: "reference v1.15.0/charts/karpenter/crds" });
      expect(sv.crdSource("1.14.4").dir).toContain(path.join("v1.14.1", "charts"));
      expect(() => sv.crdSource("1.16.0")).toThrow(
        /^no reference CRDs for Karpenter 1\.16\.0: .* is missing, and no earlier 1\.16 patch has a folder/,
      );
    },
  );

  test("the reference folder standing for a release: its own, else the newest earlier patch of its minor with charts", () => {
    const { referenceRelease } = require("../scripts/e2e/reference-release.cjs");
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "ref-"));
    for (const v of ["1.14.1", "1.15.0", "1.15.1-nocharts"])
      fs.mkdirSync(path.join(root, `v${v}`, v.includes("nocharts") ? "x" : "charts"), { recursive: true });
    fs.mkdirSync(path.join(root, "v1.15.1", "x"), { recursive: true }); // a folder without charts stands for nothing
    try {
      expect(referenceRelease(root, "1.15.0")).toMatchObject({ version: "1.15.0", exact: true });
      expect(referenceRelease(root, "1.15.2")).toMatchObject({
        version: "1.15.0",
        exact: false,
        dir: path.join(root, "v1.15.0"),
      });
      expect(referenceRelease(root, "1.15.2").note).toMatch(
        /^v1\.15\.0's charts stand for 1\.15\.2, a patch without artefact changes/,
      );
      expect(referenceRelease(root, "1.14.0")).toBeUndefined(); // never a later patch
      expect(referenceRelease(root, "1.16.1")).toBeUndefined();
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test("a manifest is held by the server's object when every field it sets is there", () => {
    expect(cs.contains({ a: 1, b: [{ c: "x", d: 2 }], e: 3 }, { a: 1, b: [{ c: "x" }] })).toBe(true);
    expect(cs.contains({ a: 1, b: [] }, { a: 1, b: [{ c: "x" }] })).toBe(false);
    expect(cs.contains({ w: 10 }, { w: "10" })).toBe(true);
  });
});

describe("docs/e2e.md", () => {
  test("lists every rule beyond the CRDs that the agreement excuses", () => {
    const doc = require("fs").readFileSync(require("path").join(__dirname, "..", "docs", "e2e.md"), "utf8");
    for (const r of ag.SEMANTIC_RULES) expect(doc).toContain(`| \`${r.id}\``);
  });
});
