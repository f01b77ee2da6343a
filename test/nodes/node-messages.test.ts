import { Fn, Token } from "cdktf";
import { KarpenterValidationError } from "../../lib/core/errors";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodePool } from "../../lib/nodes/node-pool";
import { FakeInstallation, synthJson, testStack } from "../helpers";
import { build, Kind, messages, Props, rejection, req } from "./node-props";

/*
 * What the NodePool and EC2NodeClass rules tell: what is allowed, the accepted edge cases, did-you-mean
 * suggestions, and the combinations no node can satisfy (split from node-validation.test.ts).
 */

describe("messages say what is allowed", () => {
  test('a bad map key is reported on its entry, field["key"], with the entry\'s value, and the message says the key is the problem', () => {
    const label = rejection("NodePool", { labels: { "karpenter.sh/nodepool": "x" } });
    expect([label.field, label.value]).toEqual(['labels["karpenter.sh/nodepool"]', "x"]);
    expect(label.message).toBe(
      'test/obj: labels["karpenter.sh/nodepool"] = "x" is invalid: the key "karpenter.sh/nodepool" may not be used in NodePool labels: label "karpenter.sh/nodepool" is restricted: Karpenter sets it on every node to the NodePool\'s name (NodePool CRD). To select this pool\'s nodes, use a nodeSelector karpenter.sh/nodepool: <name> on the pods [NODEPOOL_LABEL_KEY]',
    );
    const annotation = rejection("NodePool", { annotations: { "a/b/c": "x" } });
    expect([annotation.field, annotation.value]).toEqual(['annotations["a/b/c"]', "x"]);
    expect(annotation.message).toMatch(
      /^test\/obj: annotations\["a\/b\/c"\] = "x" is invalid: the key "a\/b\/c" is not a Kubernetes qualified annotation key/,
    );
    const tag = rejection("EC2NodeClass", { tags: { "karpenter.sh/nodeclaim": "x" } });
    expect(tag.message).toBe(
      'test/obj: tags["karpenter.sh/nodeclaim"] = "x" is invalid: the key "karpenter.sh/nodeclaim" is restricted: Karpenter sets that tag on every instance itself (EC2NodeClass CRD: "tag contains a restricted tag matching karpenter.sh/nodeclaim"); use another key [EC2NODECLASS_TAG_KEY]',
    );
    const nodepoolTag = rejection("EC2NodeClass", { tags: { "karpenter.sh/nodepool": "x" } });
    expect(nodepoolTag.message).toMatch(
      /^test\/obj: tags\["karpenter.sh\/nodepool"\] = "x" is invalid: the key "karpenter.sh\/nodepool" is restricted: /,
    );
    const cluster = rejection("EC2NodeClass", { tags: { "kubernetes.io/cluster/demo": "owned" } });
    expect(cluster.message).toBe(
      'test/obj: tags["kubernetes.io/cluster/demo"] = "owned" is invalid: the key "kubernetes.io/cluster/demo" is restricted: Karpenter sets kubernetes.io/cluster/<cluster name> on every instance itself (EC2NodeClass CRD: "tag contains a restricted tag matching kubernetes.io/cluster/"); use a key not starting with "kubernetes.io/cluster" [EC2NODECLASS_TAG_KEY]',
    );
    const aws = rejection("EC2NodeClass", { tags: { "aws:foo": "x" } });
    expect(aws.message).toBe(
      'test/obj: tags["aws:foo"] = "x" is invalid: the key "aws:foo" is reserved: tag keys starting with "aws:" are for tags AWS sets itself, and EC2 refuses them in the launch request, so every launch with this class fails; use another key [EC2NODECLASS_TAG_KEY]',
    );
    // with role, Karpenter tags the instance profile it creates (IAM); with instanceProfile only EC2 gets the tags
    const iamTag = rejection("EC2NodeClass", { tags: { "team#1": "a,b" } });
    expect(iamTag.message).toBe(
      'test/obj: tags["team#1"] = "a,b" is invalid: the key "team#1" holds "#" and the value holds ",", which IAM (the instance profile Karpenter creates for role) refuses in a tag: only letters, digits, spaces and _ . : / = + - @ are allowed there; the EC2NodeClass would never become Ready [EC2NODECLASS_TAG_VALUE]',
    );
    expect(() =>
      build("EC2NodeClass", { role: undefined, instanceProfile: "profile", tags: { "team#1": "a,b" } }),
    ).not.toThrow();
    const long = rejection("EC2NodeClass", { tags: { team: "x".repeat(257) } });
    expect(long.message).toBe(
      `test/obj: tags["team"] = "${"x".repeat(199)}… is invalid: a tag value of at most 256 characters, the EC2 and IAM limit (got 257) [EC2NODECLASS_TAG_VALUE]`,
    );
    const signal = rejection("EC2NodeClass", { kubelet: { evictionHard: { "memory.free": "100Mi" } } });
    expect(signal.message).toBe(
      'test/obj: kubelet.evictionHard["memory.free"] = "100Mi" is invalid: the key "memory.free" is not an eviction signal: the keys of evictionHard are the signals "memory.available", "nodefs.available", "nodefs.inodesFree", "imagefs.available", "imagefs.inodesFree", "pid.available" [EC2NODECLASS_KUBELET_EVICTION]',
    );
    const typo = rejection("EC2NodeClass", { kubelet: { evictionHard: { "nodefs.avilable": "10%" } } });
    expect(typo.message).toBe(
      'test/obj: kubelet.evictionHard["nodefs.avilable"] = "10%" is invalid: the key "nodefs.avilable" is not an eviction signal; did you mean nodefs.available? The keys of evictionHard are the signals "memory.available", "nodefs.available", "nodefs.inodesFree", "imagefs.available", "imagefs.inodesFree", "pid.available" [EC2NODECLASS_KUBELET_EVICTION]',
    );
    const reserved = rejection("EC2NodeClass", { kubelet: { kubeReserved: { "nvidia.com/gpu": "1" } } });
    expect([reserved.field, reserved.value]).toEqual(['kubelet.kubeReserved["nvidia.com/gpu"]', "1"]);
    expect(reserved.message).toBe(
      'test/obj: kubelet.kubeReserved["nvidia.com/gpu"] = "1" is invalid: the key "nvidia.com/gpu" is not a resource kubeReserved takes: the keys of kubeReserved are "cpu", "memory", "ephemeral-storage", "pid" [EC2NODECLASS_KUBELET_RESERVED]',
    );
    const selector = rejection("EC2NodeClass", { subnetSelectorTerms: [{ tags: { "": "x" } }] });
    expect(selector.message).toBe(
      'test/obj: subnetSelectorTerms[0].tags[""] = "x" is invalid: the key "" is empty (EC2NodeClass CRD: "empty tag keys or values aren\'t supported") [EC2NODECLASS_SELECTOR_TAGS_EMPTY]',
    );
    const limit = rejection("NodePool", { limits: { "": "1" } });
    expect([limit.field, limit.value]).toEqual(['limits[""]', "1"]);
    // a bad value stays on the entry
    const value = rejection("NodePool", { labels: { team: "a b" } });
    expect([value.field, value.value]).toEqual(['labels["team"]', "a b"]);
  });

  test("a duration beyond Go's time.Duration names the maximum; 2562047h47m16s itself is fine", () => {
    const e = rejection("NodePool", { expireAfter: "2562048h" });
    expect(e.allowed).toContain("at most 2562047h47m16s (about 292 years)");
    expect(e.allowed).toContain('use "Never" for no limit');
    expect(rejection("NodePool", { terminationGracePeriod: "2562048h" }).allowed).not.toContain('use "Never"');
    expect(() =>
      build("NodePool", {
        expireAfter: "2562047h47m16s",
        terminationGracePeriod: "2562047h47m16s",
        disruption: { consolidateAfter: "2562047h47m16s" },
      }),
    ).not.toThrow();
  });

  // The CRD patterns of these fields take whole seconds (budget duration: whole minutes), so the
  // maximum named must be one the field accepts; only Go-duration fields get the fractional bound.
  test.each<[string, Kind, Props, string]>([
    ["expireAfter", "NodePool", { expireAfter: "2562047h47m17s" }, "at most 2562047h47m16s ("],
    ["terminationGracePeriod", "NodePool", { terminationGracePeriod: "2562047h47m17s" }, "at most 2562047h47m16s ("],
    [
      "consolidateAfter",
      "NodePool",
      { disruption: { consolidateAfter: "2562047h47m17s" } },
      "at most 2562047h47m16s (",
    ],
    [
      "budget duration",
      "NodePool",
      { disruption: { budgets: [{ nodes: "0", schedule: "@daily", duration: "2562047h48m" }] } },
      "at most 2562047h47m (",
    ],
    [
      "kubelet evictionSoftGracePeriod",
      "EC2NodeClass",
      {
        kubelet: {
          evictionSoft: { "memory.available": "1Gi" },
          evictionSoftGracePeriod: { "memory.available": "2562047h47m17s" },
        },
      },
      "at most 2562047h47m16.854775807s (",
    ],
    ["deleteTimeout", "EC2NodeClass", { deleteTimeout: "2562047h47m17s" }, "at most 2562047h47m16.854775807s ("],
  ])("%s beyond Go's time.Duration names the longest value its pattern accepts", (_name, kind, props, bound) => {
    expect(rejection(kind, props).allowed).toContain(bound);
  });

  test("the named maxima themselves are accepted", () => {
    expect(() =>
      build("NodePool", {
        disruption: { consolidateAfter: "1m", budgets: [{ nodes: "0", schedule: "@daily", duration: "2562047h47m" }] },
      }),
    ).not.toThrow();
    expect(() =>
      build("EC2NodeClass", {
        deleteTimeout: "2562047h47m16.854775807s",
        kubelet: {
          evictionSoft: { "memory.available": "1Gi" },
          evictionSoftGracePeriod: { "memory.available": "2562047h47m16.854775807s" },
        },
      }),
    ).not.toThrow();
  });

  test("Gt above int64 names the int64 maximum", () => {
    expect(
      rejection("NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gt", ["10000000000000000000"])] })
        .allowed,
    ).toContain("no larger than 9223372036854775807");
  });

  test("a capacity type newer than the version names the release that added it, not a CRD (no CRD lists capacity types)", () => {
    expect(
      rejection("NodePool", { requirements: [req("karpenter.sh/capacity-type", "In", ["reserved"])] }, "1.2.8").message,
    ).toBe(
      'test/obj: requirements[0].values[0] = "reserved" is invalid: capacity type "reserved" needs Karpenter 1.3 or later (first in Karpenter 1.3.0, which added capacity reservations); this object targets Karpenter 1.2.8: upgrade Karpenter or remove it [NODEPOOL_NEEDS_NEWER_KARPENTER]',
    );
  });

  test("a duplicate taint names the first one and Karpenter's rule", () => {
    const e = rejection("NodePool", {
      taints: [{ key: "a", effect: "NoSchedule" }],
      startupTaints: [{ key: "a", effect: "NoSchedule" }],
    });
    expect(e.allowed).toContain("taints[0] is a:NoSchedule too");
    expect(e.allowed).toContain("duplicate taint Key/Effect pair");
  });

  test("values omitted for In / Gt say the operator needs values", () => {
    expect(rejection("NodePool", { requirements: [req("kubernetes.io/arch", "In")] }).message).toBe(
      "test/obj: requirements[0].values = undefined is invalid: at least one value: operator 'In' needs values (the NodePool CRD rules read them, and the API server fails on a requirement without) [NODEPOOL_REQUIREMENT_VALUES]",
    );
    expect(rejection("NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gt")] }).allowed).toContain(
      "exactly one value",
    );
  });

  test("an empty capacity reservation term list says to leave the field unset", () => {
    expect(rejection("EC2NodeClass", { capacityReservationSelectorTerms: [] }).allowed).toBe(
      "1 to 30 terms: capacityReservationSelectorTerms cannot be empty (leave capacityReservationSelectorTerms unset to use no capacity reservation)",
    );
  });

  test("role and instance profile together with an installation: no advice about going without one", () => {
    const e = rejection("EC2NodeClass", { role: "r", instanceProfile: "p" });
    expect(e.field).toBe("instanceProfile");
    expect(e.message).toBe(
      `test/obj: instanceProfile = "p" is invalid: unset when role is set: role "r" is set too, and a class takes one of them (with a role, Karpenter creates and manages the instance profile; EC2NodeClass CRD: "must specify exactly one of ['role', 'instanceProfile']") [EC2NODECLASS_ROLE_AND_INSTANCE_PROFILE]`,
    );
    expect(e.allowed).not.toContain("without `karpenter`");
    const { stack } = testStack();
    const none = (() => {
      try {
        new Ec2NodeClass(stack, "x", {
          subnetSelectorTerms: [{ id: "subnet-00000001" }],
          securityGroupSelectorTerms: [{ id: "sg-00000001" }],
        });
      } catch (x) {
        return x as KarpenterValidationError;
      }
      throw new Error("accepted");
    })();
    expect(none.field).toBe("role");
    expect(none.allowed).toContain("without `karpenter` there is no node role to default to");
  });

  test("a name derived from an id without letters or digits names the id", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.14.1");
    expect(() => new NodePool(stack, "__", { karpenter, nodeClass: { name: "default" } })).toThrow(
      /^test\/__: name = "" is invalid: a non-empty DNS-1123 subdomain; .*the construct id here is "__": give `name` \[KUBERNETES_OBJECT_NAME\]$/,
    );
    expect(() => new Ec2NodeClass(stack, "--", { karpenter })).toThrow(
      /^test\/--: name = "" is invalid: .*the construct id here is "--": give `name` \[KUBERNETES_OBJECT_NAME\]$/,
    );
  });

  test("plain-JS callers: no props, or props that are not an object", () => {
    const { stack } = testStack();
    const NP = NodePool as any;
    const EC = Ec2NodeClass as any;
    expect(() => new NP(stack, "a")).toThrow(
      /^test\/a: nodeClass = undefined is invalid: an Ec2NodeClass of this app or a reference \{ name \} to one managed elsewhere \(required\)/,
    );
    expect(() => new NP(stack, "b", "default")).toThrow(KarpenterValidationError);
    expect(() => new EC(stack, "c", null)).toThrow(/^test\/c: props = null is invalid: Ec2NodeClass props: an object/);
    expect(() => new NP(stack, "d", { nodeClass: { name: "default" }, disruption: "WhenEmpty" })).toThrow(
      'test/d: disruption = "WhenEmpty" is invalid: disruption: an object { budgets, consolidateAfter, consolidationPolicy } [NODEPOOL_NOT_AN_OBJECT]',
    );
  });

  test("a version-gated field names the version that introduced it", () => {
    const e = rejection(
      "EC2NodeClass",
      { networkInterfaces: [{ deviceIndex: 0, networkCardIndex: 0, interfaceType: "interface" }] },
      "1.10.2",
    );
    expect(e.message).toContain("needs Karpenter 1.11 or later");
    expect(e.message).toContain("1.10.2");
  });

  test("budget schedule / duration pairing quotes the CRD rule", () => {
    const e = rejection("NodePool", { disruption: { budgets: [{ nodes: "0", schedule: "@daily" }] } });
    expect(e.message).toContain("'schedule' must be set with 'duration'");
  });

  test("Gt / Lt value quotes the CRD rule", () => {
    const e = rejection("NodePool", { requirements: [req("karpenter.k8s.aws/instance-generation", "Gt", ["five"])] });
    expect(e.message).toContain("must have a single positive integer value");
    expect(e.value).toBe("five");
  });

  test("a cron schedule error names the bad field of the expression", () => {
    const e = rejection("NodePool", {
      disruption: { budgets: [{ nodes: "0", schedule: "0 25 * * *", duration: "1h" }] },
    });
    expect(e.message).toContain('hour field "25"');
  });

  test("restricted label domains explain themselves", () => {
    expect(rejection("NodePool", { labels: { "karpenter.sh/team": "a" } }).message).toContain(
      'label domain "karpenter.sh" is restricted',
    );
    expect(
      rejection("NodePool", { requirements: [req("karpenter.k8s.aws/instance-colour", "In", ["a"])] }).message,
    ).toContain('label domain "karpenter.k8s.aws" is restricted');
  });

  test("nothing is added to the tree when a constructor throws", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.14.1");
    expect(() => new NodePool(stack, "bad", { karpenter, nodeClass: { name: "default" }, weight: 0 })).toThrow(
      KarpenterValidationError,
    );
    expect(() => new Ec2NodeClass(stack, "bad2", { karpenter, name: "Bad" })).toThrow(KarpenterValidationError);
    expect(stack.node.tryFindChild("bad")).toBeUndefined();
    expect(stack.node.tryFindChild("bad2")).toBeUndefined();
  });
});

// [description, kind, props, Karpenter version]
const VALID: [string, Kind, Props, string?][] = [
  ["Windows alias @latest", "EC2NodeClass", { amiSelectorTerms: [{ alias: "windows2022@latest" }] }],
  [
    "Windows alias with its family",
    "EC2NodeClass",
    { amiFamily: "Windows2022", amiSelectorTerms: [{ alias: "windows2022@latest" }] },
  ],
  [
    "pinned AL2023 alias with amiFamily Custom",
    "EC2NodeClass",
    { amiFamily: "Custom", amiSelectorTerms: [{ alias: "al2023@v20250103" }] },
  ],
  ["bottlerocket alias with a version", "EC2NodeClass", { amiSelectorTerms: [{ alias: "bottlerocket@v1.10.0" }] }],
  [
    "AMI terms by tags and by name+owner",
    "EC2NodeClass",
    { amiFamily: "AL2023", amiSelectorTerms: [{ tags: { team: "*" } }, { name: "my-ami-*", owner: "self" }] },
  ],
  [
    "ssmParameter from 1.4",
    "EC2NodeClass",
    {
      amiFamily: "AL2023",
      amiSelectorTerms: [
        { ssmParameter: "/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/standard/recommended/image_id" },
      ],
    },
    "1.4.4",
  ],
  [
    "64T volume, gp3 with iops and throughput",
    "EC2NodeClass",
    {
      blockDeviceMappings: [
        {
          deviceName: "/dev/xvda",
          rootVolume: true,
          ebs: { volumeSize: "64T", volumeType: "gp3", iops: 3000, throughput: 125, encrypted: true },
        },
      ],
    },
  ],
  [
    "kubelet with paired soft eviction",
    "EC2NodeClass",
    {
      kubelet: {
        evictionSoft: { "memory.available": "5%" },
        evictionSoftGracePeriod: { "memory.available": "1m30s" },
        evictionHard: { "nodefs.available": "10.5%" },
        kubeReserved: { cpu: "100m", memory: "1Gi" },
        imageGCHighThresholdPercent: 85,
        imageGCLowThresholdPercent: 80,
        maxPods: 110,
      },
    },
  ],
  [
    "network interfaces with EFA from 1.11",
    "EC2NodeClass",
    {
      networkInterfaces: [
        { deviceIndex: 0, networkCardIndex: 0, interfaceType: "interface" },
        { deviceIndex: 1, networkCardIndex: 0, interfaceType: "efa-only" },
      ],
    },
    "1.11.3",
  ],
  [
    "capacity reservations by criteria from 1.8",
    "EC2NodeClass",
    { capacityReservationSelectorTerms: [{ instanceMatchCriteria: "open" }, { id: "cr-0123abcd" }] },
    "1.8.8",
  ],
  [
    "tokens everywhere they may be",
    "EC2NodeClass",
    {
      role: Fn.lower("Role"),
      amiSelectorTerms: [{ alias: Fn.lower("AL2023@LATEST") }],
      tags: { team: Fn.lower("A") },
      metadataOptions: { httpPutResponseHopLimit: Token.asNumber(Fn.max([1, 2])) },
    },
  ],
  ["Never durations", "NodePool", { expireAfter: "Never", disruption: { consolidateAfter: "Never" } }],
  [
    "100% and 0% budgets, 1h30m windows, macros",
    "NodePool",
    {
      disruption: {
        budgets: [
          { nodes: "100%" },
          { nodes: "0%", schedule: "@daily", duration: "1h30m" },
          { nodes: "5", schedule: "*/15 9-17 * jan-jun mon,wed,fri", duration: "30m", reasons: ["Drifted", "Empty"] },
        ],
      },
    },
  ],
  [
    "Gt, Lt, Gte and Lte",
    "NodePool",
    {
      requirements: [
        req("karpenter.k8s.aws/instance-generation", "Gt", ["5"]),
        req("karpenter.k8s.aws/instance-cpu", "Lt", ["65"]),
        req("karpenter.k8s.aws/instance-memory", "Gte", ["0"]),
        req("karpenter.k8s.aws/instance-gpu-count", "Lte", ["8"]),
      ],
    },
  ],
  [
    "minValues equal to the values, and with Exists",
    "NodePool",
    {
      requirements: [
        req("karpenter.k8s.aws/instance-family", "In", ["m5", "c5"], 2),
        req("node.kubernetes.io/instance-type", "Exists", undefined, 10),
      ],
    },
  ],
  [
    "capacity type as a template label",
    "NodePool",
    { labels: { "karpenter.sh/capacity-type": "on-demand", "example.com/team": "" } },
  ],
  ["kubernetes.io labels from 1.9", "NodePool", { labels: { "node-role.kubernetes.io/worker": "true" } }, "1.9.2"],
  [
    "allowed kubernetes.io keys before 1.9",
    "NodePool",
    {
      requirements: [
        req("kubernetes.io/arch", "In", ["arm64"]),
        req("topology.kubernetes.io/zone", "NotIn", ["us-east-1a"]),
      ],
      labels: { "example.node.kubernetes.io/pool": "x" },
    },
    "1.8.8",
  ],
  ["static pool with a node limit", "NodePool", { replicas: 3, limits: { nodes: "3" } }],
  [
    "quantities with and without suffixes",
    "NodePool",
    {
      limits: { cpu: "500m", memory: "8Gi", "nvidia.com/gpu": "4", pods: "1.5k" },
      terminationGracePeriod: "48h",
      weight: 100,
    },
  ],
  [
    "Gt at the int64 maximum, Lt above 2^53",
    "NodePool",
    {
      requirements: [
        req("karpenter.k8s.aws/instance-cpu", "Gt", ["9223372036854775806"]),
        req("karpenter.k8s.aws/instance-memory", "Lt", ["9007199254740993"]),
      ],
    },
  ],
  [
    "NotIn without values (no CRD rule reads them)",
    "NodePool",
    { requirements: [req("topology.kubernetes.io/zone", "NotIn")] },
  ],
  [
    "one taint key with two effects, and as a startup taint with a third",
    "NodePool",
    {
      taints: [
        { key: "a", effect: "NoSchedule" },
        { key: "a", effect: "NoExecute" },
      ],
      startupTaints: [{ key: "a", effect: "PreferNoSchedule" }],
    },
  ],
  [
    "durations at Go's maximum",
    "NodePool",
    {
      expireAfter: "2562047h",
      terminationGracePeriod: "2562047h47m16s",
      disruption: {
        consolidateAfter: "2562047h47m",
        budgets: [{ nodes: "0", schedule: "@daily", duration: "2562047h" }],
      },
    },
  ],
  ["zero limits", "NodePool", { limits: { cpu: "0", memory: "0" } }],
  [
    "null optional props are unset",
    "NodePool",
    { weight: null as any, expireAfter: null as any, labels: { team: null as any } },
  ],
  [
    "capacity reservation terms from 1.3",
    "EC2NodeClass",
    { capacityReservationSelectorTerms: [{ id: "cr-0123abcd" }] },
    "1.3.8",
  ],
  [
    "tokens in requirements, labels, limits and schedules",
    "NodePool",
    {
      requirements: [
        { key: "example.com/team", operator: "In", values: Token.asList(Fn.split(",", "a,b")) },
        req("karpenter.k8s.aws/instance-cpu", "Gt", [Fn.lower("4")]),
      ],
      labels: { team: Fn.lower("X") },
      limits: { cpu: Token.asString(Fn.max([1, 2])), memory: Token.asNumber(Fn.max([1, 2])) as any },
      disruption: { budgets: [{ nodes: Fn.lower("10%"), schedule: Fn.lower("@DAILY"), duration: "1h" }] },
    },
  ],
];

describe("valid edge cases are accepted and emitted", () => {
  test.each(VALID.map(([w, k, p, v]) => [w, k, p, v ?? "1.14.1"] as const))(
    "%s (%s)",
    (_what, kind, props, version) => {
      const json = synthJson(build(kind, props, version));
      const objs = Object.values(json.resource.kubernetes_manifest) as any[];
      expect(objs).toHaveLength(1);
      expect(objs[0].manifest.kind).toBe(kind);
    },
  );

  test("null optional props are left out of the manifest", () => {
    const json = synthJson(
      build("NodePool", { weight: null as any, expireAfter: null as any, labels: { team: null as any, a: "b" } }),
    );
    const spec = (Object.values(json.resource.kubernetes_manifest)[0] as any).manifest.spec;
    expect(spec.weight).toBeUndefined();
    expect(spec.template.spec.expireAfter).toBeUndefined();
    expect(spec.template.metadata.labels).toEqual({ a: "b" });
  });

  test("a budget schedule token reaches the manifest untouched", () => {
    const json = synthJson(
      build("NodePool", { disruption: { budgets: [{ nodes: "0", schedule: Fn.lower("@DAILY"), duration: "1h" }] } }),
    );
    const budget = (Object.values(json.resource.kubernetes_manifest)[0] as any).manifest.spec.disruption.budgets[0];
    expect(budget.schedule).toBe('${lower("@DAILY")}');
  });
});

describe("numbers say what they take in plain words", () => {
  test("an unbounded whole number: 0 or more, never JavaScript's largest safe integer", () => {
    expect(rejection("NodePool", { replicas: -1 }).message).toBe(
      "test/obj: replicas = -1 is invalid: a whole number, 0 or more [NODEPOOL_INTEGER_RANGE]",
    );
    expect(
      messages("EC2NodeClass", {
        blockDeviceMappings: [
          { deviceName: "/dev/xvda", ebs: { volumeSize: "20Gi", volumeType: "gp3", iops: NaN, throughput: -5 } },
        ],
      }),
    ).toEqual([
      "test/obj: blockDeviceMappings[0].ebs.iops = NaN is invalid: a whole number, 0 or more [EC2NODECLASS_INTEGER_RANGE]",
      "test/obj: blockDeviceMappings[0].ebs.throughput = -5 is invalid: a whole number, 0 or more: EC2 takes no negative throughput (EC2 API Reference, EbsBlockDevice), so every launch with this class fails [EC2NODECLASS_EBS_NEGATIVE]",
    ]);
  });

  test("a bound that exists is named; a number beyond what JavaScript holds exactly is told so", () => {
    expect(rejection("EC2NodeClass", { kubelet: { maxPods: -1 } }).message).toBe(
      "test/obj: kubelet.maxPods = -1 is invalid: a whole number from 0 to 2147483647 [EC2NODECLASS_INTEGER_RANGE]",
    );
    expect(rejection("NodePool", { replicas: 2 ** 60 }).message).toBe(
      `test/obj: replicas = ${2 ** 60} is invalid: a whole number, 0 or more, and at most 9007199254740991: a larger number is not exact in JavaScript [NODEPOOL_INTEGER_RANGE]`,
    );
  });
});

describe("unknown fields get a did-you-mean", () => {
  test.each<[string, Kind, Props, string]>([
    [
      "EC2NodeClass prop",
      "EC2NodeClass",
      { amiSelectorTerm: [{ alias: "al2023@latest" }] } as any,
      'test/obj: amiSelectorTerm = [{"alias":"al2023@latest"}] is invalid: not a field of Ec2NodeClassProps (an unknown field would be silently dropped); did you mean amiSelectorTerms? The known fields are ',
    ],
    [
      "AMI selector term",
      "EC2NodeClass",
      { amiSelectorTerms: [{ alais: "al2023@latest" }] } as any,
      'test/obj: amiSelectorTerms[0].alais = "al2023@latest" is invalid: not a field of an AMI selector term (an unknown field would be silently dropped); did you mean alias? The known fields are alias, id, name, owner, ssmParameter, tags [EC2NODECLASS_UNKNOWN_FIELD]',
    ],
    [
      "kubelet field in another case",
      "EC2NodeClass",
      { kubelet: { maxpods: 110 } } as any,
      "test/obj: kubelet.maxpods = 110 is invalid: not a field of kubelet (an unknown field would be silently dropped); did you mean maxPods (names are case-sensitive)? The known fields are ",
    ],
    [
      "NodePool prop",
      "NodePool",
      { limit: { cpu: 10 } } as any,
      'test/obj: limit = {"cpu":10} is invalid: not a field of NodePoolProps (an unknown field would be silently dropped); did you mean limits? The known fields are ',
    ],
    [
      "requirement",
      "NodePool",
      { requirements: [{ key: "example.com/team", operator: "NotIn", valuse: ["a"] }] } as any,
      'test/obj: requirements[0].valuse = ["a"] is invalid: not a field of a requirement (an unknown field would be silently dropped); did you mean values? The known fields are key, minValues, operator, values [NODEPOOL_UNKNOWN_FIELD]',
    ],
    [
      "disruption field in another case",
      "NodePool",
      { disruption: { consolidationpolicy: "WhenEmpty" } } as any,
      'test/obj: disruption.consolidationpolicy = "WhenEmpty" is invalid: not a field of disruption (an unknown field would be silently dropped); did you mean consolidationPolicy (names are case-sensitive)? The known fields are budgets, consolidateAfter, consolidationPolicy [NODEPOOL_UNKNOWN_FIELD]',
    ],
    [
      "node class reference",
      "NodePool",
      { nodeClass: { name: "a", knid: "EC2NodeClass" } } as any,
      'test/obj: nodeClass.knid = "EC2NodeClass" is invalid: not a field of a node class reference (an unknown field would be silently dropped); did you mean kind? The known fields are group, kind, name [NODEPOOL_UNKNOWN_FIELD]',
    ],
  ])("%s", (_what, kind, props, message) => {
    expect(rejection(kind, props).problems[0].message.startsWith(message)).toBe(true);
  });

  test("a field nothing is close to lists the known ones without a guess", () => {
    expect(rejection("NodePool", { disruption: { schedule: "@daily" } } as any).message).toBe(
      'test/obj: disruption.schedule = "@daily" is invalid: not a field of disruption (an unknown field would be silently dropped): the known fields are budgets, consolidateAfter, consolidationPolicy [NODEPOOL_UNKNOWN_FIELD]',
    );
  });
});

describe("nodeClassRef names the one node class Karpenter on AWS provides", () => {
  const WHY =
    "Karpenter on AWS provides one node class, karpenter.k8s.aws EC2NodeClass, and ignores a NodePool whose nodeClassRef names another group or kind (kubernetes-sigs/karpenter pkg/utils/nodepool, IsManaged: the NodePool CRD accepts any non-empty value, but such a pool never launches a node)";
  test("a kind in another case, and another group, are refused", () => {
    expect(
      rejection("NodePool", { nodeClass: { name: "a", group: "karpenter.k8s.aws", kind: "EC2nodeclass" } }).message,
    ).toBe(
      `test/obj: nodeClass.kind = "EC2nodeclass" is invalid: "EC2NodeClass" (or unset) (group and kind are case-sensitive: write "EC2NodeClass"): ${WHY} [NODEPOOL_NODE_CLASS_REF]`,
    );
    expect(rejection("NodePool", { nodeClass: { name: "a", group: "karpenter.sh" } }).message).toBe(
      `test/obj: nodeClass.group = "karpenter.sh" is invalid: "karpenter.k8s.aws" (or unset): ${WHY} [NODEPOOL_NODE_CLASS_REF]`,
    );
  });

  test("the right group and kind, spelt out or left unset, are accepted", () => {
    for (const nodeClass of [{ name: "a" }, { name: "a", group: "karpenter.k8s.aws", kind: "EC2NodeClass" }]) {
      const manifest = Object.values(
        synthJson(build("NodePool", { nodeClass })).resource.kubernetes_manifest,
      )[0] as any;
      expect(manifest.manifest.spec.template.spec.nodeClassRef).toEqual({
        group: "karpenter.k8s.aws",
        kind: "EC2NodeClass",
        name: "a",
      });
    }
  });
});

describe("requirements and labels that no node can satisfy", () => {
  const AND =
    "Karpenter ANDs every requirement and template label on one key: it intersects them (kubernetes-sigs/karpenter pkg/scheduling/requirements.go, Requirements.Add; a template label counts as In its value, NewLabelRequirements)";
  test("a template label against a requirement on the same key names both", () => {
    const e = rejection("NodePool", {
      labels: { "karpenter.sh/capacity-type": "spot" },
      requirements: [req("karpenter.sh/capacity-type", "In", ["on-demand"])],
    });
    expect(e.message).toBe(
      `test/obj: labels["karpenter.sh/capacity-type"] = "spot" is invalid: a label value that some node can satisfy together with requirements[0] (karpenter.sh/capacity-type In ["on-demand"]): ${AND}, and no value of karpenter.sh/capacity-type satisfies both, so the NodePool matches no node and launches nothing. Remove one of them or make them agree [NODE_REQUIREMENT_UNSATISFIABLE]`,
    );
  });

  test("two requirements on one key with no common value", () => {
    const e = rejection("NodePool", {
      requirements: [req("kubernetes.io/arch", "In", ["amd64"]), req("kubernetes.io/arch", "In", ["arm64"])],
    });
    expect([e.field, e.message]).toEqual([
      "requirements[1]",
      `test/obj: requirements[1] = {"key":"kubernetes.io/arch","operator":"In","values":["arm64"]} is invalid: a requirement that some node can satisfy together with requirements[0] (kubernetes.io/arch In ["amd64"]): ${AND}, and no value of kubernetes.io/arch satisfies both, so the NodePool matches no node and launches nothing. Remove one of them or make them agree [NODE_REQUIREMENT_UNSATISFIABLE]`,
    ]);
    expect(
      rejection("NodePool", {
        requirements: [
          req("karpenter.k8s.aws/instance-cpu", "Gt", ["8"]),
          req("karpenter.k8s.aws/instance-cpu", "Lt", ["4"]),
        ],
      }).field,
    ).toBe("requirements[1]");
    expect(
      rejection("NodePool", {
        requirements: [req("example.com/team", "In", ["a"]), req("example.com/team", "DoesNotExist")],
      }).field,
    ).toBe("requirements[1]");
    expect(
      rejection("NodePool", {
        requirements: [req("example.com/team", "In", ["a", "b"]), req("example.com/team", "NotIn", ["a", "b"])],
      }).field,
    ).toBe("requirements[1]");
  });

  test("NotIn every value of a well-known label leaves none (capacity types per version)", () => {
    expect(
      rejection("NodePool", {
        requirements: [req("karpenter.sh/capacity-type", "NotIn", ["on-demand", "spot", "reserved"])],
      }).message,
    ).toBe(
      'test/obj: requirements[0] = {"key":"karpenter.sh/capacity-type","operator":"NotIn","values":["on-demand","spot","reserved"]} is invalid: a requirement some node can satisfy: karpenter.sh/capacity-type NotIn ["on-demand","spot","reserved"] leaves no value of karpenter.sh/capacity-type (its values are "on-demand", "spot", "reserved"), so the NodePool matches no node and launches nothing [NODE_REQUIREMENT_UNSATISFIABLE]',
    );
    // before 1.3 there was no reserved capacity: NotIn on-demand and spot already leaves none
    expect(
      rejection(
        "NodePool",
        { requirements: [req("karpenter.sh/capacity-type", "NotIn", ["on-demand", "spot"])] },
        "1.2.8",
      ).field,
    ).toBe("requirements[0]");
    expect(
      rejection("NodePool", { requirements: [req("kubernetes.io/arch", "NotIn", ["amd64", "arm64"])] }).field,
    ).toBe("requirements[0]");
  });

  test("requirements that overlap, and keys with a token, are accepted", () => {
    for (const props of [
      {
        requirements: [req("kubernetes.io/arch", "In", ["amd64", "arm64"]), req("kubernetes.io/arch", "In", ["arm64"])],
      },
      { requirements: [req("karpenter.sh/capacity-type", "NotIn", ["spot", "reserved"])] },
      {
        labels: { "karpenter.sh/capacity-type": "spot" },
        requirements: [req("karpenter.sh/capacity-type", "In", ["spot", "on-demand"])],
      },
      {
        requirements: [
          req("karpenter.k8s.aws/instance-cpu", "Gt", ["3"]),
          req("karpenter.k8s.aws/instance-cpu", "Lt", ["5"]),
        ],
      },
      { requirements: [req("example.com/team", "NotIn", ["a"]), req("example.com/team", "DoesNotExist")] },
      {
        requirements: [
          req("kubernetes.io/arch", "In", ["amd64"]),
          req("kubernetes.io/arch", "In", [Token.asString({ Ref: "x" })]),
        ],
      },
    ]) {
      expect(() => build("NodePool", props as Props)).not.toThrow();
    }
  });
});

describe("a restricted requirement key says what to use instead", () => {
  test("kubernetes.io/hostname points to topology spread and anti-affinity on the workloads", () => {
    expect(
      rejection("NodePool", { requirements: [req("kubernetes.io/hostname", "In", ["ip-10-0-0-1"])] }).message,
    ).toBe(
      'test/obj: requirements[0].key = "kubernetes.io/hostname" is invalid: label "kubernetes.io/hostname" is restricted: each node gets its own name there, so a NodePool cannot choose it (NodePool CRD). To spread pods over nodes, give the workloads topologySpreadConstraints or pod anti-affinity with topologyKey kubernetes.io/hostname; to place a pod on one node, use a nodeSelector on the pod [NODEPOOL_REQUIREMENT_KEY]',
    );
  });
});

describe("user data against EC2's 16 KB", () => {
  const custom = { amiFamily: "Custom" as const, amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }] };
  const al2023 = { amiSelectorTerms: [{ alias: "al2023@latest" }] };
  const warningsOf = (props: Props) => {
    const stack = build("EC2NodeClass", props);
    return stack.node
      .findAll()
      .flatMap((c) => c.node.metadata)
      .filter((m) => m.type === "@cdktf/warn")
      .map((m) => String(m.data));
  };
  test("over 16 KB is refused with its size for every family; 16 KB itself is fine for Custom (sent alone)", () => {
    expect(rejection("EC2NodeClass", { ...custom, userData: "x".repeat(16 * 1024 + 1) }).message).toBe(
      "test/obj: userData = \"(16385 bytes)\" is invalid: user data of at most 16384 bytes (16 KB, EC2's limit before base64; Karpenter's bootstrap is added to it): EC2 refuses every launch with more [EC2NODECLASS_USER_DATA_SIZE]",
    );
    expect(() => build("EC2NodeClass", { ...custom, userData: "é".repeat(8 * 1024) })).not.toThrow(); // 16384 bytes of UTF-8
    expect(rejection("EC2NodeClass", { ...custom, userData: "é".repeat(8 * 1024 + 1) }).message).toContain(
      "(16386 bytes)",
    );
    expect(warningsOf({ ...custom, userData: "x".repeat(16 * 1024) }).join("\n")).not.toContain("userData is");
  });
  test("exactly 16 KB is refused on AL2023 (Karpenter adds its bootstrap); one byte less synthesizes with a warning", () => {
    const e = rejection("EC2NodeClass", { ...al2023, userData: `#!/bin/sh\n${"x".repeat(16 * 1024 - 10)}` });
    expect(e.field).toBe("userData");
    expect(e.value).toBe("(16384 bytes)");
    expect(e.message).toContain(
      "user data of at most 16383 bytes for the AL2023 AMI family, and in practice some 2048 less: Karpenter adds its own bootstrap",
    );
    expect(warningsOf({ ...al2023, userData: `#!/bin/sh\n${"x".repeat(16 * 1024 - 11)}` })).toContainEqual(
      expect.stringContaining(
        "EC2NodeClass obj: userData is 16383 bytes, and Karpenter adds its bootstrap for the AL2023 AMI family to it",
      ),
    );
    // well under the limit: no warning
    expect(warningsOf({ ...al2023, userData: `#!/bin/sh\n${"x".repeat(14 * 1024 - 20)}` }).join("\n")).not.toContain(
      "userData is",
    );
  });
});

describe("a pool's os and arch against its class's AMIs", () => {
  const platformWarnings = (
    classProps: object,
    requirements: { key: string; operator: string; values?: string[] }[],
  ) => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const nodeClass = new Ec2NodeClass(stack, "nc", { karpenter, name: "cls", ...classProps });
    const pool = new NodePool(stack, "pool", { karpenter, nodeClass, requirements: requirements as any });
    return pool.node.metadata
      .filter((m) => m.type === "@cdktf/warn")
      .map((m) => String(m.data))
      .filter((w) => w.includes("AMIs"));
  };
  test("Windows pods on an AL2023 class and arm64 on a Windows class warn, naming both objects", () => {
    expect(
      platformWarnings({ amiSelectorTerms: [{ alias: "al2023@v20250103" }] }, [
        req("kubernetes.io/os", "In", ["windows"]),
      ]),
    ).toEqual([
      'NodePool pool requires kubernetes.io/os In ["windows"], but its EC2NodeClass cls (test/nc) uses al2023 AMIs, which are linux: no node can satisfy both, so Karpenter finds no AMI for the pool and launches nothing. Use an EC2NodeClass of a matching AMI family, or change the requirement (Karpenter docs, "NodeClasses: amiFamily").',
    ]);
    expect(
      platformWarnings({ amiSelectorTerms: [{ alias: "windows2022@latest" }] }, [
        req("kubernetes.io/arch", "In", ["arm64"]),
      ]),
    ).toEqual([
      expect.stringMatching(
        /^NodePool pool requires kubernetes\.io\/arch In \["arm64"\], but its EC2NodeClass cls \(test\/nc\) uses windows2022 AMIs, which are amd64 only:/,
      ),
    ]);
    expect(platformWarnings({ amiFamily: "Bottlerocket" }, [req("kubernetes.io/os", "NotIn", ["linux"])])).toHaveLength(
      1,
    );
  });
  test("matching platforms, the user's own AMIs and requirements that leave a value do not", () => {
    expect(
      platformWarnings({ amiSelectorTerms: [{ alias: "al2023@v20250103" }] }, [
        req("kubernetes.io/os", "In", ["linux"]),
        req("kubernetes.io/arch", "In", ["arm64"]),
      ]),
    ).toEqual([]);
    expect(
      platformWarnings({ amiSelectorTerms: [{ alias: "windows2022@latest" }] }, [
        req("kubernetes.io/os", "In", ["windows"]),
        req("kubernetes.io/arch", "NotIn", ["arm64"]),
      ]),
    ).toEqual([]);
    // the user's own AMIs: any arch (Windows on Custom warns: Karpenter labels a Custom family's nodes linux,
    // test/nodes/fresh-tester-10.test.ts)
    expect(
      platformWarnings({ amiFamily: "Custom", amiSelectorTerms: [{ id: "ami-0123456789abcdef0" }] }, [
        req("kubernetes.io/os", "In", ["linux"]),
        req("kubernetes.io/arch", "In", ["arm64"]),
      ]),
    ).toEqual([]);
  });
});

describe("limits on resources no node has", () => {
  const poolWarnings = (limits: { [k: string]: string }) => {
    const { stack } = testStack();
    const pool = new NodePool(stack, "pool", {
      karpenter: new FakeInstallation(stack, "karpenter"),
      nodeClass: { name: "default" },
      limits,
    });
    return pool.node.metadata
      .filter((m) => m.type === "@cdktf/warn")
      .map((m) => String(m.data))
      .filter((w) => w.includes("limits["));
  };
  test("warn, with a did-you-mean", () => {
    expect(poolWarnings({ cpus: "10" })).toEqual([
      'NodePool pool: limits["cpus"] names no resource a node has (did you mean cpu?): Karpenter compares each limit with the sum of that resource over the pool\'s nodes, and a resource no node has sums to 0, so this limit is never reached and limits nothing. Limits count cpu, memory, ephemeral-storage, pods, nodes, hugepages-<size> and extended resources with a "/" such as nvidia.com/gpu (Karpenter docs, NodePools "spec.limits").',
    ]);
    expect(poolWarnings({ gpus: "1" })).toEqual([
      expect.stringContaining(
        'limits["gpus"] names no resource a node has (did you mean nvidia.com/gpu (NVIDIA GPUs) or amd.com/gpu (AMD GPUs)?)',
      ),
    ]);
  });
  test.each([
    ["nvidia.com/gpus", "nvidia.com/gpu"],
    ["nvidia/gpu", "nvidia.com/gpu"],
    ["nvidia.com/GPU", "nvidia.com/gpu"],
    ["NVIDIA.com/gpu", "nvidia.com/gpu"],
    ["nvidia.com/nvidia-gpu", "nvidia.com/gpu"],
    ["amd.com/gpus", "amd.com/gpu"],
    ["amd/gpu", "amd.com/gpu"],
    ["aws.amazon.com/neurons", "aws.amazon.com/neuron"],
    ["aws.amazon.com/neurondevice", "aws.amazon.com/neuron"],
    ["amazon.com/neuron", "aws.amazon.com/neuron"],
    ["aws.amazon.com/neuron-core", "aws.amazon.com/neuroncore"],
    ["aws.amazon.com/neuroncores", "aws.amazon.com/neuroncore"],
    ["habana.ai/gaudis", "habana.ai/gaudi"],
    ["habana.com/gaudi", "habana.ai/gaudi"],
    ["vpc.amazonaws.com/efas", "vpc.amazonaws.com/efa"],
    ["aws.amazon.com/efa", "vpc.amazonaws.com/efa"],
    ["vpc.amazonaws.com/pod-enis", "vpc.amazonaws.com/pod-eni"],
    // one typo in the resource part, a swap of two adjacent letters counting as one (fresh tester 12 C-7)
    ["habana.ai/guadi", "habana.ai/gaudi"],
    ["aws.amazon.com/nueron", "aws.amazon.com/neuron"],
  ])("an extended resource no AWS instance type advertises, %s, warns: did you mean %s", (key, meant) => {
    const warnings = poolWarnings({ [key]: "4" });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      `NodePool pool: limits[${JSON.stringify(key)}] names no resource Karpenter's AWS instance types advertise (did you mean ${meant} (`,
    );
    expect(warnings[0]).toContain("aws/karpenter-provider-aws pkg/providers/instancetype/types.go");
  });
  test.each([["hugepages-2mi"], ["hugepages-2M"], ["hugepage-2Mi"], ["hugepages"], ["hugepages_1Gi"]])(
    "a huge-page resource not named as the kubelet names it, %s, warns: did you mean hugepages-2Mi or hugepages-1Gi",
    (key) => {
      expect(poolWarnings({ [key]: "1Gi" })).toEqual([
        expect.stringContaining(
          `limits[${JSON.stringify(key)}] names no resource a node has (did you mean hugepages-2Mi or hugepages-1Gi? Huge-page resources are hugepages-<page size>`,
        ),
      ]);
    },
  );
  test("hugepages-2Mi, hugepages-1Gi and hugepages-64Ki do not warn", () => {
    expect(poolWarnings({ "hugepages-2Mi": "1Gi", "hugepages-1Gi": "2Gi", "hugepages-64Ki": "1Gi" })).toEqual([]);
  });
  test.each([["gpu"], ["efa"], ["neuroncore"]])(
    "a bare %s names the extended resource, not a node resource one edit away",
    (key) => {
      expect(poolWarnings({ [key]: "4" })).toEqual([
        expect.stringMatching(/names no resource a node has \(did you mean [a-z.]+\/[a-z]+ \(/),
      ]);
    },
  );
  test("the extended resources the instance types advertise, and other device plugins' resources, do not warn", () => {
    const valid = [
      "nvidia.com/gpu",
      "amd.com/gpu",
      "aws.amazon.com/neuron",
      "aws.amazon.com/neuroncore",
      "habana.ai/gaudi",
      "vpc.amazonaws.com/efa",
      "vpc.amazonaws.com/pod-eni",
    ];
    expect(poolWarnings(Object.fromEntries(valid.map((k) => [k, "8"])))).toEqual([]);
    expect(
      poolWarnings({
        "nvidia.com/mig-1g.5gb": "7",
        "nvidia.com/gpu.shared": "4",
        "example.com/gpu": "2",
        "smarter-devices/fuse": "1",
        "xilinx.com/fpga-xilinx_u250": "1",
        // one typo off a resource part, but another vendor's domain: its own device plugin's resource
        "example.com/guadi": "1",
        "nvidia.com/cpu": "1",
      }),
    ).toEqual([]);
  });
  test("node resources, huge pages and extended resources do not", () => {
    expect(
      poolWarnings({
        cpu: "10",
        memory: "100Gi",
        "ephemeral-storage": "1Ti",
        pods: "500",
        "hugepages-2Mi": "1Gi",
        "nvidia.com/gpu": "4",
      }),
    ).toEqual([]);
  });
  test("a cpu or memory limit above 0 that no instance type fits under warns, with what was likely meant", () => {
    expect(poolWarnings({ memory: "1024" })).toEqual([
      'NodePool pool: limits["memory"] = "1024" is 1024 bytes (a quantity without a suffix counts bytes), less than any instance type has (the smallest have 0.5 GiB): Karpenter launches only instance types that keep the pool within its limits, so this pool launches no node. Did you mean "1024Gi"? A limit of 0 stops a pool on purpose (Karpenter docs, NodePools "spec.limits").',
    ]);
    expect(poolWarnings({ cpu: "1m" })).toEqual([
      'NodePool pool: limits["cpu"] = "1m" is 0.001 of a CPU ("m" means thousandths), less than any instance type has (the smallest have 1 vCPU): Karpenter launches only instance types that keep the pool within its limits, so this pool launches no node. Did you mean "1"? A limit of 0 stops a pool on purpose (Karpenter docs, NodePools "spec.limits").',
    ]);
    expect(poolWarnings({ memory: "100Mi" })).toHaveLength(1);
    // 0 stops a pool on purpose; one instance's worth and more is a real limit
    expect(poolWarnings({ cpu: "0", memory: "0" })).toEqual([]);
    expect(poolWarnings({ cpu: "1", memory: "512Mi" })).toEqual([]);
  });
});

test("a misspelt construct prop is suggested too", () => {
  expect(rejection("EC2NodeClass", { discoveryTagkey: "k" } as any).message).toMatch(
    /^test\/obj: discoveryTagkey = "k" is invalid: not a field of Ec2NodeClassProps \(an unknown field would be silently dropped\); did you mean discoveryTagKey \(names are case-sensitive\)\? The known fields are /,
  );
});

describe("every unknown prop at once, with the other problems", () => {
  test("NodePool: two unknown props and a bad weight are three problems", () => {
    expect(messages("NodePool", { wieght: 5, foo: "x", weight: 0 } as any)).toEqual([
      expect.stringMatching(
        /^test\/obj: wieght = 5 is invalid: not a field of NodePoolProps \(an unknown field would be silently dropped\); did you mean weight\?/,
      ),
      expect.stringMatching(
        /^test\/obj: foo = "x" is invalid: not a field of NodePoolProps \(an unknown field would be silently dropped\): the known fields are name, requirements, /,
      ),
      "test/obj: weight = 0 is invalid: a whole number from 1 to 100 [NODEPOOL_INTEGER_RANGE]",
    ]);
  });

  test("EC2NodeClass: two unknown props, an unknown field of a nested object, and a bad tag", () => {
    const m = messages("EC2NodeClass", {
      amiFamly: "AL2023",
      userdata: "x",
      metadataOptions: { httpTokens: "required", hopLimit: 2 },
      tags: { "aws:x": "y" },
    } as any);
    expect(m.map((x) => x.split(" = ")[0])).toEqual([
      "test/obj: amiFamly",
      "test/obj: userdata",
      "test/obj: metadataOptions.hopLimit",
      'test/obj: tags["aws:x"]',
    ]);
    expect(m[0]).toMatch(/did you mean amiFamily\?/);
    expect(m[1]).toMatch(/did you mean userData \(names are case-sensitive\)\?/);
  });
});

describe("messages name a wrong JavaScript type, and point the right way", () => {
  test("a number in quotes, a number where a label value belongs, a string where a list belongs, a role ARN", () => {
    expect(rejection("NodePool", { weight: "50" as any }).message).toBe(
      'test/obj: weight = "50" is invalid: a number, got a string: a whole number from 1 to 100 (write 50, not "50") [NODEPOOL_NOT_A_NUMBER]',
    );
    expect(rejection("NodePool", { requirements: [{ key: "team", operator: "In", values: [5 as any] }] }).message).toBe(
      "test/obj: requirements[0].values[0] = 5 is invalid: a string, got a number (write \"5\"): a label value: at most 63 characters, letters, digits, '-', '_' and '.', starting and ending with a letter or digit (or empty) [NODEPOOL_NOT_A_LABEL_VALUE]",
    );
    expect(
      rejection("NodePool", { requirements: [{ key: "team", operator: "In", values: "a,b" as any }] }).message,
    ).toBe(
      'test/obj: requirements[0].values = "a,b" is invalid: a list, got a string: pass the items as an array (["a", "b"], not "a,b"), or Fn.split(",", <string>) for a string known only at apply [NODEPOOL_NOT_A_LIST]',
    );
    expect(
      rejection("EC2NodeClass", { role: "arn:aws:iam::123456789012:role/nodes/KarpenterNodeRole-demo" }).message,
    ).toBe(
      'test/obj: role = "arn:aws:iam::123456789012:role/nodes/KarpenterNodeRole-demo" is invalid: the role\'s name, not its ARN: Karpenter gives spec.role to IAM as a role name (AddRoleToInstanceProfile), so an ARN never gets an instance profile; pass "KarpenterNodeRole-demo" [EC2NODECLASS_ROLE_ARN]',
    );
  });
});

test("budgets: [] is refused: the CRD's 10% default applies only when budgets is absent, and no budget limits nothing", () => {
  expect(rejection("NodePool", { disruption: { budgets: [] } }).message).toBe(
    'test/obj: disruption.budgets = [] is invalid: at least one budget, or leave budgets unset for Karpenter\'s default of one budget of nodes: "10%" (the NodePool CRD applies it only when the field is absent): an empty list limits nothing, so Karpenter may disrupt every node of the pool at once. To allow that on purpose, say so: [{ nodes: "100%" }] [NODEPOOL_BUDGETS_EMPTY]',
  );
  expect(() => build("NodePool", { disruption: { budgets: [{ nodes: "100%" }] } })).not.toThrow();
  expect(() => build("NodePool", { disruption: { consolidationPolicy: "WhenEmpty" } })).not.toThrow();
});

describe("free-form kubelet values (1.15) must be data", () => {
  test("a cycle is refused before any check, naming where (NODE_VALUE_CYCLE, as in every prop)", () => {
    const cyc: any = { a: 1 };
    cyc.self = cyc;
    const e = rejection("EC2NodeClass", { kubelet: { foo: cyc } } as any, "1.15.0");
    expect(e.code).toBe("NODE_VALUE_CYCLE");
    expect(e.field).toBe("kubelet.foo.self");
    expect(e.message).toContain("kubelet.foo.self is the object kubelet.foo itself");
  });
  test.each([
    [
      "a function",
      () => ({ shutdownGracePeriod: () => 1 }),
      "kubelet.shutdownGracePeriod",
      "kubelet.shutdownGracePeriod is a function",
    ],
    ["a symbol", () => ({ x: Symbol("s") }), "kubelet.x", "kubelet.x is a symbol"],
    ["NaN in a list", () => ({ y: [1, NaN] }), "kubelet.y", "kubelet.y[1] is NaN, which JSON cannot hold"],
    ["a bigint", () => ({ z: BigInt(3) }), "kubelet.z", "kubelet.z is a bigint (write it as a number)"],
  ])("%s is refused, naming where", (_what, kubelet, field, why) => {
    const e = rejection("EC2NodeClass", { kubelet: kubelet() } as any, "1.15.0");
    expect(e.field).toBe(field);
    expect(e.message).toContain(`Karpenter writes it into the node's configuration as JSON, and ${why}`);
  });
  test("look-alike: nested data passes", () => {
    expect(() =>
      build(
        "EC2NodeClass",
        {
          kubelet: {
            featureGates: { LoggingAlphaOptions: true },
            logging: { flushFrequency: "5s", options: { text: { splitStream: true } } },
            reservedMemory: [{ numaNode: 0, limits: { memory: "1Gi" } }],
            staticPodURLHeader: { a: ["b", null] },
          },
        } as any,
        "1.15.0",
      ),
    ).not.toThrow();
  });
});
