import { readFileSync } from "fs";
import { join } from "path";
import { Fn, TerraformStack, Token } from "cdktf";
import { KarpenterValidationError } from "../../lib/core/errors";
import { Ec2NodeClass, Ec2NodeClassProps } from "../../lib/nodes/ec2-node-class";
import { NodePool, NodePoolProps } from "../../lib/nodes/node-pool";
import { FakeInstallation, synthJson, testStack, thrown } from "../helpers";

type Kind = "EC2NodeClass" | "NodePool";
type Props = Partial<Ec2NodeClassProps> | Partial<NodePoolProps>;

/** Builds one object for Karpenter `version` (default 1.14.1) and returns its stack. */
function build(kind: Kind, props: Props, version = "1.14.1"): TerraformStack {
  const { stack } = testStack();
  const karpenter = new FakeInstallation(stack, "karpenter", version);
  if (kind === "EC2NodeClass") new Ec2NodeClass(stack, "obj", { karpenter, ...(props as Ec2NodeClassProps) });
  else new NodePool(stack, "obj", { karpenter, ...(props as NodePoolProps), nodeClass: (props as NodePoolProps).nodeClass ?? { name: "default" } });
  return stack;
}

function rejection(kind: Kind, props: Props, version?: string): KarpenterValidationError {
  try {
    build(kind, props, version);
  } catch (e) {
    if (e instanceof KarpenterValidationError) return e;
    throw e;
  }
  throw new Error(`accepted: ${JSON.stringify(props)}`);
}

const req = (key: string, operator: string, values?: string[], minValues?: number) => ({ key, operator, values, minValues }) as any;
const long = (n: number) => "a".repeat(n);

// [description, kind, props, field named by the error, Karpenter version]
const INVALID: [string, Kind, Props, string, string?][] = [
  // ---- NodePool ----
  ["uppercase name", "NodePool", { name: "Default" }, "name"],
  ["underscore in name", "NodePool", { name: "gpu_pool" }, "name"],
  ["restricted key karpenter.sh/nodepool", "NodePool", { requirements: [req("karpenter.sh/nodepool", "In", ["a"])] }, "requirements[0].key"],
  ["other karpenter.sh key", "NodePool", { requirements: [req("karpenter.sh/team", "In", ["a"])] }, "requirements[0].key"],
  ["restricted key kubernetes.io/hostname", "NodePool", { requirements: [req("kubernetes.io/hostname", "In", ["a"])] }, "requirements[0].key"],
  ["unknown karpenter.k8s.aws key", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-colour", "In", ["a"])] }, "requirements[0].key"],
  ["malformed key", "NodePool", { requirements: [req("bad key!", "In", ["a"])] }, "requirements[0].key"],
  ["unknown operator", "NodePool", { requirements: [req("kubernetes.io/arch", "Equals", ["amd64"])] }, "requirements[0].operator"],
  ["In without values", "NodePool", { requirements: [req("kubernetes.io/arch", "In", [])] }, "requirements[0].values"],
  ["Gt with two values", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-generation", "Gt", ["5", "6"])] }, "requirements[0].values"],
  ["Gt with a word", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-generation", "Gt", ["five"])] }, "requirements[0].values[0]"],
  ["Lt with a negative number", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Lt", ["-1"])] }, "requirements[0].values[0]"],
  ["minValues above the number of values", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-family", "In", ["m5", "c5"], 3)] }, "requirements[0].minValues"],
  ["minValues 0", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-family", "Exists", undefined, 0)] }, "requirements[0].minValues"],
  ["minValues 51", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-family", "Exists", undefined, 51)] }, "requirements[0].minValues"],
  ["value of 64 characters", "NodePool", { requirements: [req("example.com/team", "In", [long(64)])] }, "requirements[0].values[0]"],
  ["Exists with values", "NodePool", { requirements: [req("example.com/team", "Exists", ["a"])] }, "requirements[0].values"],
  ["capacity type Spot (capitalized)", "NodePool", { requirements: [req("karpenter.sh/capacity-type", "In", ["Spot"])] }, "requirements[0].values[0]"],
  ["Gte before 1.9", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gte", ["4"])] }, "requirements[0].operator", "1.8.8"],
  ["instance-tenancy before 1.9", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-tenancy", "In", ["default"])] }, "requirements[0].key", "1.8.8"],
  ["reserved capacity before 1.3", "NodePool", { requirements: [req("karpenter.sh/capacity-type", "In", ["reserved"])] }, "requirements[0].values[0]", "1.2.8"],
  ["restricted label", "NodePool", { labels: { "karpenter.sh/nodepool": "x" } }, 'labels["karpenter.sh/nodepool"]'],
  ["bad label value", "NodePool", { labels: { team: "a b" } }, 'labels["team"]'],
  ["kubernetes.io label before 1.9", "NodePool", { labels: { "node-role.kubernetes.io/worker": "true" } }, 'labels["node-role.kubernetes.io/worker"]', "1.8.8"],
  ["k8s.io label before 1.9", "NodePool", { labels: { "example.k8s.io/x": "y" } }, 'labels["example.k8s.io/x"]', "1.8.8"],
  ["annotation key with two slashes", "NodePool", { annotations: { "a/b/c": "x" } }, 'annotations["a/b/c"]'],
  ["unknown taint effect", "NodePool", { taints: [{ key: "dedicated", effect: "NoEffect" as any }] }, "taints[0].effect"],
  ["empty taint key", "NodePool", { taints: [{ key: "", effect: "NoSchedule" }] }, "taints[0].key"],
  ["startup taint value with a space", "NodePool", { startupTaints: [{ key: "example.com/init", value: "not ready", effect: "NoSchedule" }] }, "startupTaints[0].value"],
  ["expireAfter in days", "NodePool", { expireAfter: "30d" }, "expireAfter"],
  ["expireAfter in words", "NodePool", { expireAfter: "1 hour" }, "expireAfter"],
  ["terminationGracePeriod Never", "NodePool", { terminationGracePeriod: "Never" }, "terminationGracePeriod"],
  ["limit that is no quantity", "NodePool", { limits: { cpu: "lots" } }, 'limits["cpu"]'],
  ["fractional limit number", "NodePool", { limits: { cpu: 1.5 } }, 'limits["cpu"]'],
  ["v1beta1 consolidation policy", "NodePool", { disruption: { consolidationPolicy: "WhenUnderutilized" as any } }, "disruption.consolidationPolicy"],
  ["Balanced before 1.14", "NodePool", { disruption: { consolidationPolicy: "Balanced" } }, "disruption.consolidationPolicy", "1.13.1"],
  ["consolidateAfter in words", "NodePool", { disruption: { consolidateAfter: "5 minutes" } }, "disruption.consolidateAfter"],
  ["schedule without duration", "NodePool", { disruption: { budgets: [{ nodes: "10%" }, { nodes: "0", schedule: "@daily" }] } }, "disruption.budgets[1].duration"],
  ["duration without schedule", "NodePool", { disruption: { budgets: [{ nodes: "0", duration: "8h" }] } }, "disruption.budgets[0].schedule"],
  ["budget of 150%", "NodePool", { disruption: { budgets: [{ nodes: "150%" }] } }, "disruption.budgets[0].nodes"],
  ["budget in words", "NodePool", { disruption: { budgets: [{ nodes: "ten" }] } }, "disruption.budgets[0].nodes"],
  ["hour 25 in a schedule", "NodePool", { disruption: { budgets: [{ nodes: "0", schedule: "0 25 * * *", duration: "1h" }] } }, "disruption.budgets[0].schedule"],
  ["time zone in a schedule", "NodePool", { disruption: { budgets: [{ nodes: "0", schedule: "CRON_TZ=Europe/Berlin 0 9 * * 1", duration: "1h" }] } }, "disruption.budgets[0].schedule"],
  ["schedule with 4 fields", "NodePool", { disruption: { budgets: [{ nodes: "0", schedule: "0 9 * *", duration: "1h" }] } }, "disruption.budgets[0].schedule"],
  ["budget duration in seconds", "NodePool", { disruption: { budgets: [{ nodes: "0", schedule: "@daily", duration: "30s" }] } }, "disruption.budgets[0].duration"],
  ["unknown disruption reason", "NodePool", { disruption: { budgets: [{ nodes: "0", reasons: ["Expired" as any] }] } }, "disruption.budgets[0].reasons[0]"],
  ["duplicate reason", "NodePool", { disruption: { budgets: [{ nodes: "0", reasons: ["Empty", "Empty"] }] } }, "disruption.budgets[0].reasons[1]"],
  ["51 budgets", "NodePool", { disruption: { budgets: Array.from({ length: 51 }, () => ({ nodes: "1" })) } }, "disruption.budgets"],
  ["weight 0", "NodePool", { weight: 0 }, "weight"],
  ["weight 101", "NodePool", { weight: 101 }, "weight"],
  ["static pool with weight", "NodePool", { replicas: 3, weight: 10 }, "weight"],
  ["static pool with a cpu limit", "NodePool", { replicas: 3, limits: { cpu: 10 } }, 'limits["cpu"]'],
  ["static pool before 1.8", "NodePool", { replicas: 3 }, "replicas", "1.7.6"],
  ["negative replicas", "NodePool", { replicas: -1 }, "replicas"],
  ["bad node class name", "NodePool", { nodeClass: { name: "Bad_Name" } }, "nodeClass.name"],
  ["node class reference without a name", "NodePool", { nodeClass: {} as any }, "nodeClass.name"],
  ["node class group with a slash", "NodePool", { nodeClass: { name: "x", group: "a/b" } }, "nodeClass.group"],
  ["misspelt requirement field", "NodePool", { requirements: [{ key: "example.com/team", operator: "In", value: ["a"] } as any] }, "requirements[0].value"],
  ["101 requirements", "NodePool", { requirements: Array.from({ length: 101 }, (_, i) => req(`example.com/k${i}`, "Exists")) }, "requirements"],
  ["100 requirements without capacity type", "NodePool", { requirements: Array.from({ length: 100 }, (_, i) => req(`example.com/k${i}`, "Exists")) }, "requirements"],
  ["unknown Karpenter version", "NodePool", { version: "1.15.0" }, "version", "1.15.0"],
  // values omitted where a CRD rule reads them (x.values.size() fails at apply), like values: []
  ["In with values omitted", "NodePool", { requirements: [req("kubernetes.io/arch", "In")] }, "requirements[0].values"],
  ["In with values null", "NodePool", { requirements: [{ key: "kubernetes.io/arch", operator: "In", values: null } as any] }, "requirements[0].values"],
  ["Gt with values omitted", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gt")] }, "requirements[0].values"],
  ["Lt with values omitted", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Lt")] }, "requirements[0].values"],
  ["Gte with values omitted", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gte")] }, "requirements[0].values"],
  ["Lte with values omitted", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Lte")] }, "requirements[0].values"],
  ["Gt above int64", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gt", ["9223372036854775808"])] }, "requirements[0].values[0]"],
  // durations longer than Go's time.Duration (time.ParseDuration fails)
  ["expireAfter beyond Go's time.Duration", "NodePool", { expireAfter: "2562048h" }, "expireAfter"],
  ["expireAfter of 315360000000s", "NodePool", { expireAfter: "315360000000s" }, "expireAfter"],
  ["consolidateAfter beyond Go's time.Duration", "NodePool", { disruption: { consolidateAfter: "99999999999h" } }, "disruption.consolidateAfter"],
  ["terminationGracePeriod beyond Go's time.Duration", "NodePool", { terminationGracePeriod: "2562047h47m17s" }, "terminationGracePeriod"],
  ["budget duration beyond Go's time.Duration", "NodePool", { disruption: { budgets: [{ nodes: "0", schedule: "@daily", duration: "9999999999h" }] } }, "disruption.budgets[0].duration"],
  // Karpenter's runtime validation: "duplicate taint Key/Effect pair"
  ["duplicate taint", "NodePool", { taints: [{ key: "dedicated", value: "a", effect: "NoSchedule" }, { key: "dedicated", value: "b", effect: "NoSchedule" }] }, "taints[1]"],
  ["duplicate startup taint", "NodePool", { startupTaints: [{ key: "example.com/init", effect: "NoExecute" }, { key: "example.com/init", effect: "NoExecute" }] }, "startupTaints[1]"],
  ["taint repeated as startup taint", "NodePool", { taints: [{ key: "a", effect: "NoSchedule" }], startupTaints: [{ key: "a", effect: "NoSchedule" }] }, "startupTaints[0]"],
  ["negative cpu limit", "NodePool", { limits: { cpu: -1 } }, 'limits["cpu"]'],
  ["negative memory limit", "NodePool", { limits: { memory: "-1Gi" } }, 'limits["memory"]'],
  ["empty limit resource name", "NodePool", { limits: { "": 1 } }, 'limits[""]'],
  // plain-JS shapes
  ["null requirement", "NodePool", { requirements: [null as any] }, "requirements[0]"],
  ["null taint", "NodePool", { taints: [null as any] }, "taints[0]"],
  ["taint as a string", "NodePool", { taints: ["a:NoSchedule" as any] }, "taints[0]"],
  ["disruption as a string", "NodePool", { disruption: "WhenEmpty" as any }, "disruption"],
  ["null budget", "NodePool", { disruption: { budgets: [null as any] } }, "disruption.budgets[0]"],
  ["null budget reason", "NodePool", { disruption: { budgets: [{ nodes: "1", reasons: [null as any] }] } }, "disruption.budgets[0].reasons[0]"],

  // ---- EC2NodeClass ----
  ["uppercase name", "EC2NodeClass", { name: "Default" }, "name"],
  ["empty role", "EC2NodeClass", { role: "" }, "role"],
  ["role and instance profile", "EC2NodeClass", { role: "r", instanceProfile: "p" }, "instanceProfile"],
  ["unknown amiFamily", "EC2NodeClass", { amiFamily: "Ubuntu" as any }, "amiFamily"],
  ["alias without version", "EC2NodeClass", { amiSelectorTerms: [{ alias: "al2023" }] }, "amiSelectorTerms[0].alias"],
  ["alias of an unknown family", "EC2NodeClass", { amiSelectorTerms: [{ alias: "ubuntu@latest" }] }, "amiSelectorTerms[0].alias"],
  ["pinned Windows alias", "EC2NodeClass", { amiSelectorTerms: [{ alias: "windows2022@v20240101" }] }, "amiSelectorTerms[0].alias"],
  ["alias over 30 characters", "EC2NodeClass", { amiSelectorTerms: [{ alias: `al2023@${long(30)}` }] }, "amiSelectorTerms[0].alias"],
  ["alias with tags", "EC2NodeClass", { amiSelectorTerms: [{ alias: "al2023@latest", tags: { a: "b" } }] }, "amiSelectorTerms[0].alias"],
  ["alias with another term", "EC2NodeClass", { amiFamily: "AL2023", amiSelectorTerms: [{ alias: "al2023@latest" }, { tags: { a: "b" } }] }, "amiSelectorTerms[0].alias"],
  ["AMI id with a name", "EC2NodeClass", { amiFamily: "AL2023", amiSelectorTerms: [{ id: "ami-0123", name: "x" }] }, "amiSelectorTerms[0].id"],
  ["empty AMI term", "EC2NodeClass", { amiFamily: "AL2023", amiSelectorTerms: [{}] }, "amiSelectorTerms[0]"],
  ["uppercase AMI id", "EC2NodeClass", { amiFamily: "AL2023", amiSelectorTerms: [{ id: "ami-0ABC" }] }, "amiSelectorTerms[0].id"],
  ["amiFamily against the alias", "EC2NodeClass", { amiFamily: "Bottlerocket", amiSelectorTerms: [{ alias: "al2023@latest" }] }, "amiFamily"],
  ["no alias and no amiFamily", "EC2NodeClass", { amiSelectorTerms: [{ id: "ami-0123" }] }, "amiFamily"],
  ["no AMI terms", "EC2NodeClass", { amiSelectorTerms: [] }, "amiSelectorTerms"],
  ["empty tag value in an AMI term", "EC2NodeClass", { amiFamily: "AL2023", amiSelectorTerms: [{ tags: { team: "" } }] }, 'amiSelectorTerms[0].tags["team"]'],
  ["21 selector tags", "EC2NodeClass", { subnetSelectorTerms: [{ tags: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])) }] }, "subnetSelectorTerms[0].tags"],
  ["subnet id with tags", "EC2NodeClass", { subnetSelectorTerms: [{ id: "subnet-0123", tags: { a: "b" } }] }, "subnetSelectorTerms[0].id"],
  ["malformed subnet id", "EC2NodeClass", { subnetSelectorTerms: [{ id: "sub-0123" }] }, "subnetSelectorTerms[0].id"],
  ["no subnet terms", "EC2NodeClass", { subnetSelectorTerms: [] }, "subnetSelectorTerms"],
  ["security group name with tags", "EC2NodeClass", { securityGroupSelectorTerms: [{ name: "nodes", tags: { a: "b" } }] }, "securityGroupSelectorTerms[0].name"],
  ["empty security group term", "EC2NodeClass", { securityGroupSelectorTerms: [{}] }, "securityGroupSelectorTerms[0]"],
  ["restricted tag kubernetes.io/cluster/*", "EC2NodeClass", { tags: { "kubernetes.io/cluster/demo": "owned" } }, 'tags["kubernetes.io/cluster/demo"]'],
  ["restricted tag karpenter.sh/nodeclaim", "EC2NodeClass", { tags: { "karpenter.sh/nodeclaim": "x" } }, 'tags["karpenter.sh/nodeclaim"]'],
  ["restricted tag eks:eks-cluster-name", "EC2NodeClass", { tags: { "eks:eks-cluster-name": "x" } }, 'tags["eks:eks-cluster-name"]'],
  ["two root volumes", "EC2NodeClass", { blockDeviceMappings: [{ rootVolume: true, ebs: { volumeSize: "20Gi" } }, { rootVolume: true, ebs: { volumeSize: "20Gi" } }] }, "blockDeviceMappings[1].rootVolume"],
  ["EBS without size or snapshot", "EC2NodeClass", { blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeType: "gp3" } }] }, "blockDeviceMappings[0].ebs"],
  ["volume size in GB", "EC2NodeClass", { blockDeviceMappings: [{ ebs: { volumeSize: "100GB" } }] }, "blockDeviceMappings[0].ebs.volumeSize"],
  ["unknown volume type", "EC2NodeClass", { blockDeviceMappings: [{ ebs: { volumeSize: "20Gi", volumeType: "gp4" as any } }] }, "blockDeviceMappings[0].ebs.volumeType"],
  ["initialization rate without snapshot", "EC2NodeClass", { blockDeviceMappings: [{ ebs: { volumeSize: "20Gi", volumeInitializationRate: 200 } }] }, "blockDeviceMappings[0].ebs.volumeInitializationRate"],
  ["initialization rate of 50", "EC2NodeClass", { blockDeviceMappings: [{ ebs: { snapshotID: "snap-1", volumeInitializationRate: 50 } }] }, "blockDeviceMappings[0].ebs.volumeInitializationRate"],
  ["unknown eviction signal", "EC2NodeClass", { kubelet: { evictionHard: { "memory.free": "100Mi" } } }, 'kubelet.evictionHard["memory.free"]'],
  ["soft eviction without grace period", "EC2NodeClass", { kubelet: { evictionSoft: { "memory.available": "5%" } } }, 'kubelet.evictionSoft["memory.available"]'],
  ["grace period without soft eviction", "EC2NodeClass", { kubelet: { evictionSoftGracePeriod: { "memory.available": "1m" } } }, 'kubelet.evictionSoftGracePeriod["memory.available"]'],
  ["image GC high not above low", "EC2NodeClass", { kubelet: { imageGCHighThresholdPercent: 50, imageGCLowThresholdPercent: 50 } }, "kubelet.imageGCHighThresholdPercent"],
  ["kubeReserved gpu", "EC2NodeClass", { kubelet: { kubeReserved: { gpu: "1" } } }, 'kubelet.kubeReserved["gpu"]'],
  ["negative systemReserved", "EC2NodeClass", { kubelet: { systemReserved: { memory: "-1Gi" } } }, 'kubelet.systemReserved["memory"]'],
  ["negative maxPods", "EC2NodeClass", { kubelet: { maxPods: -1 } }, "kubelet.maxPods"],
  ["hop limit 65", "EC2NodeClass", { metadataOptions: { httpPutResponseHopLimit: 65 } }, "metadataOptions.httpPutResponseHopLimit"],
  ["httpTokens always", "EC2NodeClass", { metadataOptions: { httpTokens: "always" as any } }, "metadataOptions.httpTokens"],
  ["network interfaces before 1.11", "EC2NodeClass", { networkInterfaces: [{ deviceIndex: 0, networkCardIndex: 0, interfaceType: "interface" }] }, "networkInterfaces", "1.10.2"],
  ["network interfaces without a primary", "EC2NodeClass", { networkInterfaces: [{ deviceIndex: 1, networkCardIndex: 0, interfaceType: "interface" }] }, "networkInterfaces"],
  ["duplicate network interface", "EC2NodeClass", { networkInterfaces: [{ deviceIndex: 0, networkCardIndex: 0, interfaceType: "interface" }, { deviceIndex: 0, networkCardIndex: 0, interfaceType: "efa-only" }] }, "networkInterfaces[0]"],
  ["placement group by name and id", "EC2NodeClass", { placementGroupSelector: { name: "pg", id: "pg-0123" } }, "placementGroupSelector"],
  ["empty connection tracking", "EC2NodeClass", { connectionTracking: {} }, "connectionTracking"],
  ["udpTimeout of 10 s", "EC2NodeClass", { connectionTracking: { udpTimeout: 10 } }, "connectionTracking.udpTimeout"],
  ["cpuOptions before 1.13", "EC2NodeClass", { cpuOptions: { nestedVirtualization: "enabled" } }, "cpuOptions", "1.12.2"],
  ["capacity reservations before 1.3", "EC2NodeClass", { capacityReservationSelectorTerms: [{ id: "cr-0123" }] }, "capacityReservationSelectorTerms", "1.2.8"],
  ["capacity reservation id with owner", "EC2NodeClass", { capacityReservationSelectorTerms: [{ id: "cr-0123", ownerID: "123456789012" }] }, "capacityReservationSelectorTerms[0].id"],
  ["short owner id", "EC2NodeClass", { capacityReservationSelectorTerms: [{ ownerID: "123", tags: { a: "b" } }] }, "capacityReservationSelectorTerms[0].ownerID"],
  ["instance store RAID1", "EC2NodeClass", { instanceStorePolicy: "RAID1" as any }, "instanceStorePolicy"],
  ["ssmParameter before 1.4", "EC2NodeClass", { amiFamily: "AL2023", amiSelectorTerms: [{ ssmParameter: "/aws/x" }] }, "amiSelectorTerms[0].ssmParameter", "1.3.8"],
  ["Windows2025 before 1.9", "EC2NodeClass", { amiFamily: "Windows2025", amiSelectorTerms: [{ tags: { a: "b" } }] }, "amiFamily", "1.8.8"],
  ["ipPrefixCount before 1.8", "EC2NodeClass", { ipPrefixCount: 1 }, "ipPrefixCount", "1.7.6"],
  ["delete timeout in words", "EC2NodeClass", { deleteTimeout: "20 minutes" }, "deleteTimeout"],
  ["misspelt top-level prop", "EC2NodeClass", { subnetSelector: [{ id: "subnet-1" }] } as any, "subnetSelector"],
  ["empty capacity reservation terms", "EC2NodeClass", { capacityReservationSelectorTerms: [] }, "capacityReservationSelectorTerms"],
  ["empty capacity reservation terms before 1.14", "EC2NodeClass", { capacityReservationSelectorTerms: [] }, "capacityReservationSelectorTerms", "1.8.8"],
  ["empty security group terms", "EC2NodeClass", { securityGroupSelectorTerms: [] }, "securityGroupSelectorTerms"],
  ["eviction grace period beyond Go's time.Duration", "EC2NodeClass", { kubelet: { evictionSoft: { "memory.available": "1Gi" }, evictionSoftGracePeriod: { "memory.available": "9999999999h" } } }, 'kubelet.evictionSoftGracePeriod["memory.available"]'],
  ["delete timeout beyond Go's time.Duration", "EC2NodeClass", { deleteTimeout: "3000000h" }, "deleteTimeout"],
  ["null block device mapping", "EC2NodeClass", { blockDeviceMappings: [null as any] }, "blockDeviceMappings[0]"],
  ["null AMI term", "EC2NodeClass", { amiFamily: "AL2023", amiSelectorTerms: [null as any] }, "amiSelectorTerms[0]"],
  ["null subnet term", "EC2NodeClass", { subnetSelectorTerms: [null as any] }, "subnetSelectorTerms[0]"],
  ["null cluster DNS entry", "EC2NodeClass", { kubelet: { clusterDNS: [null as any] } }, "kubelet.clusterDNS[0]"],
  ["kubelet as a string", "EC2NodeClass", { kubelet: "maxPods=110" as any }, "kubelet"],
  ["subnet term as a string", "EC2NodeClass", { subnetSelectorTerms: ["subnet-0123" as any] }, "subnetSelectorTerms[0]"],
];

describe("invalid NodePool / EC2NodeClass props are rejected at construction, naming the field", () => {
  test("the table is large enough", () => {
    expect(INVALID.length).toBeGreaterThanOrEqual(40);
    expect(INVALID.filter((c) => c[1] === "NodePool").length).toBeGreaterThanOrEqual(20);
    expect(INVALID.filter((c) => c[1] === "EC2NodeClass").length).toBeGreaterThanOrEqual(20);
  });

  // rows are padded: jest would pass its `done` callback in place of a missing last argument
  test.each(INVALID.map(([w, k, p, f, v]) => [w, k, p, f, v ?? "1.14.1"] as const))("%s (%s)", (_what, kind, props, field, version) => {
    // the row's mistake is the first problem (a row may bring a second one, e.g. a misspelt field leaves the right one unset)
    const e = rejection(kind, props, version).problems[0];
    expect(e.field).toBe(field);
    expect(e.path).toBe("test/obj");
    expect(e.message.startsWith(`test/obj: ${field} = `)).toBe(true);
    expect(e.allowed.length).toBeGreaterThan(10);
  });
});

/** The messages of every problem of one rejected object, in order. */
function messages(kind: Kind, props: Props): string[] {
  return rejection(kind, props).problems.map((p) => p.message);
}

const DURATION_RULE = 'a duration of hours, minutes and seconds such as "30s", "5m", "720h" or "1h30m", or "Never"';

describe("every problem of one object in one error", () => {
  test("NodePool: expireAfter, a limit and weight", () => {
    const e = rejection("NodePool", { expireAfter: "720", limits: { cpu: "lots" }, weight: 101 });
    expect(e.message).toBe(
      [
        "test/obj: 3 problems:",
        `  - test/obj: expireAfter = "720" is invalid: ${DURATION_RULE}`,
        '  - test/obj: limits["cpu"] = "lots" is invalid: a Kubernetes quantity such as "100", "500m" (millicores), "8Gi" or "1.5"',
        "  - test/obj: weight = 101 is invalid: a whole number from 1 to 100",
      ].join("\n"),
    );
    expect(e.problems.map((p) => [p.path, p.field, p.value])).toEqual([
      ["test/obj", "expireAfter", "720"],
      ["test/obj", 'limits["cpu"]', "lots"],
      ["test/obj", "weight", 101],
    ]);
    // the combined error's own fields are the first problem's
    expect([e.field, e.value]).toEqual(["expireAfter", "720"]);
  });

  test("the example of docs/node-objects.md", () => {
    const { stack } = testStack("nodes");
    const karpenter = new FakeInstallation(stack, "karpenter", "1.14.1");
    const e = thrown(() => new NodePool(stack, "gpu-pool", { karpenter, nodeClass: { name: "gpu" }, expireAfter: "720", limits: { cpu: "lots" }, disruption: { budgets: [{ nodes: "10%" }, { nodes: "0", schedule: "@daily" }] } }));
    const doc = readFileSync(join(__dirname, "..", "..", "docs", "node-objects.md"), "utf8");
    expect(doc).toContain(`\n\`\`\`\n${e.message}\n\`\`\`\n`);
  });

  test("NodePool: an unknown prop, a CRD rule and a rule beyond the CRD together", () => {
    expect(messages("NodePool", { expireAftr: "720h", weight: 0, requirements: [req("kubernetes.io/arch", "In", ["x86_64"])] } as any)).toEqual([
      'test/obj: expireAftr = "720h" is invalid: not a field of NodePoolProps (an unknown field would be silently dropped); did you mean expireAfter? The known fields are name, requirements, labels, annotations, taints, startupTaints, expireAfter, terminationGracePeriod, limits, disruption, weight, replicas, nodeClass, karpenter, version, kubernetesProvider, dependsOn',
      "test/obj: weight = 0 is invalid: a whole number from 1 to 100",
      'test/obj: requirements[0].values[0] = "x86_64" is invalid: the Go architecture names Kubernetes uses: "amd64" or "arm64" (the architectures of EC2 instances Karpenter launches) for kubernetes.io/arch: no instance carries "x86_64", so this value matches no instance type; write "amd64"',
    ]);
  });

  test("NodePool: consolidationPolicy, consolidateAfter and a budget", () => {
    expect(messages("NodePool", { disruption: { consolidationPolicy: "Sometimes" as any, consolidateAfter: "x", budgets: [{ nodes: "200%" }] } })).toEqual([
      'test/obj: disruption.consolidationPolicy = "Sometimes" is invalid: one of "WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced"',
      `test/obj: disruption.consolidateAfter = "x" is invalid: ${DURATION_RULE}`,
      'test/obj: disruption.budgets[0].nodes = "200%" is invalid: a node count ("5") or a percentage from "0%" to "100%", as a string',
    ]);
  });

  test("NodePool: two restricted labels, each on its entry", () => {
    expect(messages("NodePool", { labels: { "karpenter.sh/foo": "x", "karpenter.k8s.aws/bar": "y" } })).toEqual([
      'test/obj: labels["karpenter.sh/foo"] = "x" is invalid: the key "karpenter.sh/foo" may not be used in NodePool labels: label domain "karpenter.sh" is restricted: of its keys only karpenter.sh/capacity-type may be used',
      'test/obj: labels["karpenter.k8s.aws/bar"] = "y" is invalid: the key "karpenter.k8s.aws/bar" may not be used in NodePool labels: label domain "karpenter.k8s.aws" is restricted to the well-known keys Karpenter defines (e.g. karpenter.k8s.aws/instance-category, instance-family, instance-generation, instance-size, instance-cpu, instance-memory)',
    ]);
  });

  test("NodePool: a taint and expireAfter", () => {
    expect(messages("NodePool", { expireAfter: "720", taints: [{ key: "a", effect: "NoSchedul" as any }] })).toEqual([
      'test/obj: taints[0].effect = "NoSchedul" is invalid: one of "NoSchedule", "PreferNoSchedule", "NoExecute"',
      `test/obj: expireAfter = "720" is invalid: ${DURATION_RULE}`,
    ]);
  });

  test("NodePool: the fields of one requirement, taint and budget are checked apart", () => {
    expect(messages("NodePool", { requirements: [req("karpenter.sh/foo", "Gt", ["a", "b"])], taints: [{ key: "bad key", value: "a b", effect: "NoSchedule" }], disruption: { budgets: [{ nodes: "0", schedule: "0 25 * * *", duration: "30s" }] } })).toEqual([
      'test/obj: requirements[0].key = "karpenter.sh/foo" is invalid: label domain "karpenter.sh" is restricted: of its keys only karpenter.sh/capacity-type may be used',
      'test/obj: requirements[0].values = ["a","b"] is invalid: exactly one value, a non-negative integer, for operator \'Gt\' (NodePool CRD: "requirements operator \'Gt\', \'Lt\', \'Gte\', or \'Lte\' must have a single positive integer value"); 2 given',
      "test/obj: taints[0].key = \"bad key\" is invalid: a taint key: a qualified name [prefix/]name, letters, digits, '-', '_', '.', starting and ending with a letter or digit",
      "test/obj: taints[0].value = \"a b\" is invalid: a taint value matching the CRD pattern: letters, digits, '-', '_', '.', starting and ending with a letter or digit (leave it unset for no value)",
      'test/obj: disruption.budgets[0].schedule = "0 25 * * *" is invalid: a cron schedule in UTC ("0 9 * * mon-fri") or a macro (@daily, @weekly, …): hour field "25": "25" is outside 0-23',
      'test/obj: disruption.budgets[0].duration = "30s" is invalid: hours and/or minutes such as "8h", "30m" or "1h30m" (no seconds: cron has minute resolution)',
    ]);
  });

  test("NodePool: a static pool's weight and limits", () => {
    expect(messages("NodePool", { replicas: 2, weight: 10, limits: { cpu: "10" } })).toEqual([
      'test/obj: weight = 10 is invalid: unset on a static NodePool (replicas is set): weight ranks NodePools for provisioning, and a static one keeps a fixed number of nodes (NodePool CRD: "\'weight\' is not supported on static NodePools")',
      'test/obj: limits["cpu"] = "10" is invalid: unset on a static NodePool (replicas is set): its only limit is limits["nodes"] (NodePool CRD: "only \'limits.nodes\' is supported on static NodePools")',
    ]);
  });

  test("EC2NodeClass: alias, role with instance profile, IMDS tokens and a volume size", () => {
    const e = rejection("EC2NodeClass", { amiSelectorTerms: [{ alias: "al2023" }], role: "r", instanceProfile: "p", metadataOptions: { httpTokens: "maybe" as any }, blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: "10" } }] });
    expect(e.message).toBe(
      [
        "test/obj: 4 problems:",
        `  - test/obj: instanceProfile = "p" is invalid: unset when role is set: role "r" is set too, and a class takes one of them (with a role, Karpenter creates and manages the instance profile; EC2NodeClass CRD: "must specify exactly one of ['role', 'instanceProfile']")`,
        `  - test/obj: amiSelectorTerms[0].alias = "al2023" is invalid: an alias of the form family@version, such as al2023@latest or al2023@v20250101 (EC2NodeClass CRD: "'alias' is improperly formatted, must match the format 'family@version'")`,
        '  - test/obj: blockDeviceMappings[0].ebs.volumeSize = "10" is invalid: a size with unit Gi, G, Ti or T such as "100Gi" (1–59000Gi, 1–64000G, 1–58Ti, 1–64T)',
        '  - test/obj: metadataOptions.httpTokens = "maybe" is invalid: one of "required", "optional"',
      ].join("\n"),
    );
  });

  test("EC2NodeClass: two metadataOptions fields", () => {
    expect(messages("EC2NodeClass", { metadataOptions: { httpTokens: "maybe" as any, httpPutResponseHopLimit: 100 } })).toEqual([
      "test/obj: metadataOptions.httpPutResponseHopLimit = 100 is invalid: a whole number from 1 to 64",
      'test/obj: metadataOptions.httpTokens = "maybe" is invalid: one of "required", "optional"',
    ]);
  });

  test("EC2NodeClass: evictionSoft and evictionSoftGracePeriod without their partners, in plain words", () => {
    expect(messages("EC2NodeClass", { kubelet: { evictionSoft: { "memory.available": "10%" }, evictionSoftGracePeriod: { "nodefs.available": "1m" } } })).toEqual([
      'test/obj: kubelet.evictionSoft["memory.available"] = "10%" is invalid: the key "memory.available" has no grace period: a soft eviction threshold needs one, and kubelet.evictionSoftGracePeriod has no entry for "memory.available" (add evictionSoftGracePeriod["memory.available"], e.g. "1m30s"; EC2NodeClass CRD rule on evictionSoft)',
      'test/obj: kubelet.evictionSoftGracePeriod["nodefs.available"] = "1m" is invalid: the key "nodefs.available" has no soft eviction threshold: a grace period belongs to one, and kubelet.evictionSoft has no entry for "nodefs.available" (add evictionSoft["nodefs.available"], e.g. "10%", or remove this entry; EC2NodeClass CRD rule on evictionSoftGracePeriod)',
    ]);
  });

  test("one problem per field: missing selector terms are reported once each, with the library's message", () => {
    const { stack } = testStack();
    const e = thrown(() => new Ec2NodeClass(stack, "x", { role: "r" })) as KarpenterValidationError;
    expect(e.problems.map((p) => p.message)).toEqual([
      "test/x: subnetSelectorTerms = undefined is invalid: subnet selector terms, or `karpenter` / `cluster` for the default karpenter.sh/discovery tag term",
      "test/x: securityGroupSelectorTerms = undefined is invalid: security group selector terms, or `karpenter` / `cluster` for the default karpenter.sh/discovery tag term",
    ]);
  });

  test("a check that depends on a rejected field is skipped, the independent ones run", () => {
    // an operator that is none: the rules over values for that operator do not run (x86_64 is not judged as a value of In)
    expect(messages("NodePool", { requirements: [req("kubernetes.io/arch", "Equals", ["x86_64"])], weight: 0 })).toEqual([
      'test/obj: requirements[0].operator = "Equals" is invalid: one of "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte"',
      "test/obj: weight = 0 is invalid: a whole number from 1 to 100",
    ]);
    // requirements that are no list: one problem, not one per rule over them
    expect(messages("NodePool", { requirements: "x" as any, weight: 0 })).toEqual([
      'test/obj: requirements = "x" is invalid: a list of requirements { key, operator, values?, minValues? }',
      "test/obj: weight = 0 is invalid: a whole number from 1 to 100",
    ]);
    // an amiFamily that is none: no default alias, and no second problem about the missing terms
    expect(messages("EC2NodeClass", { amiFamily: "Ubuntu" as any, metadataOptions: { httpTokens: "maybe" as any } })).toEqual([
      'test/obj: amiFamily = "Ubuntu" is invalid: one of "AL2", "AL2023", "Bottlerocket", "Custom", "Windows2019", "Windows2022", "Windows2025"',
      'test/obj: metadataOptions.httpTokens = "maybe" is invalid: one of "required", "optional"',
    ]);
    // a volume type that is none: iops is not judged against it
    expect(messages("EC2NodeClass", { blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: "10Gi", volumeType: "gp9" as any, iops: 3000 } }] })).toEqual([
      'test/obj: blockDeviceMappings[0].ebs.volumeType = "gp9" is invalid: one of "standard", "io1", "io2", "gp2", "sc1", "st1", "gp3"',
    ]);
  });
});

describe("EBS iops and throughput only for the volume types EC2 takes them for", () => {
  const ebs = (deviceName: string, e: object) => ({ deviceName, ebs: { volumeSize: "20Gi", ...e } });
  test("iops on gp2 and throughput on gp2 / st1 are rejected, naming the EC2 API rule", () => {
    expect(messages("EC2NodeClass", { blockDeviceMappings: [ebs("/dev/xvda", { volumeType: "gp2", iops: 3000, throughput: 200 }), ebs("/dev/xvdb", { volumeType: "st1", throughput: 200 })] })).toEqual([
      'test/obj: blockDeviceMappings[0].ebs.iops = 3000 is invalid: unset for volumeType "gp2": EC2 takes iops for io1, io2 and gp3 volumes only (EC2 API Reference, EbsBlockDevice: Iops "is not supported for gp2, st1, sc1, or standard volumes"), so every launch with this class fails. Use volumeType "gp3" to provision IOPS, or leave iops unset',
      'test/obj: blockDeviceMappings[0].ebs.throughput = 200 is invalid: unset for volumeType "gp2": EC2 takes throughput (MiB/s) for gp3 volumes only (EC2 API Reference, EbsBlockDevice: Throughput "is valid only for gp3 volumes"), so every launch with this class fails. Use volumeType "gp3", or leave throughput unset',
      'test/obj: blockDeviceMappings[1].ebs.throughput = 200 is invalid: unset for volumeType "st1": EC2 takes throughput (MiB/s) for gp3 volumes only (EC2 API Reference, EbsBlockDevice: Throughput "is valid only for gp3 volumes"), so every launch with this class fails. Use volumeType "gp3", or leave throughput unset',
    ]);
    for (const volumeType of ["standard", "sc1", "st1"]) expect(rejection("EC2NodeClass", { blockDeviceMappings: [ebs("/dev/xvda", { volumeType, iops: 500 })] }).field).toBe("blockDeviceMappings[0].ebs.iops");
  });

  test("iops on gp3, io1 and io2, throughput on gp3, and either without a volume type are accepted", () => {
    const stack = build("EC2NodeClass", {
      blockDeviceMappings: [
        ebs("/dev/xvda", { volumeType: "gp3", iops: 3000, throughput: 250 }),
        ebs("/dev/xvdb", { volumeType: "io1", iops: 1000 }),
        ebs("/dev/xvdc", { volumeType: "io2", iops: 1000 }),
        ebs("/dev/xvdd", { iops: 3000 }),
      ],
    });
    const manifest = Object.values(synthJson(stack).resource.kubernetes_manifest)[0] as any;
    expect(manifest.manifest.spec.blockDeviceMappings.map((m: any) => [m.ebs.volumeType, m.ebs.iops, m.ebs.throughput])).toEqual([
      ["gp3", 3000, 250],
      ["io1", 1000, undefined],
      ["io2", 1000, undefined],
      [undefined, 3000, undefined],
    ]);
  });
});

describe("messages say what is allowed", () => {
  test("a bad map key is reported on its entry, field[\"key\"], with the entry's value, and the message says the key is the problem", () => {
    const label = rejection("NodePool", { labels: { "karpenter.sh/nodepool": "x" } });
    expect([label.field, label.value]).toEqual(['labels["karpenter.sh/nodepool"]', "x"]);
    expect(label.message).toBe(
      'test/obj: labels["karpenter.sh/nodepool"] = "x" is invalid: the key "karpenter.sh/nodepool" may not be used in NodePool labels: label "karpenter.sh/nodepool" is restricted: Karpenter sets it on every node to the NodePool\'s name (NodePool CRD). To select this pool\'s nodes, use a nodeSelector karpenter.sh/nodepool: <name> on the pods',
    );
    const annotation = rejection("NodePool", { annotations: { "a/b/c": "x" } });
    expect([annotation.field, annotation.value]).toEqual(['annotations["a/b/c"]', "x"]);
    expect(annotation.message).toMatch(/^test\/obj: annotations\["a\/b\/c"\] = "x" is invalid: the key "a\/b\/c" is not a Kubernetes qualified annotation key/);
    const tag = rejection("EC2NodeClass", { tags: { "karpenter.sh/nodeclaim": "x" } });
    expect(tag.message).toBe('test/obj: tags["karpenter.sh/nodeclaim"] = "x" is invalid: the key "karpenter.sh/nodeclaim" is restricted: Karpenter sets that tag on every instance itself (EC2NodeClass CRD: "tag contains a restricted tag matching karpenter.sh/nodeclaim"); use another key');
    const nodepoolTag = rejection("EC2NodeClass", { tags: { "karpenter.sh/nodepool": "x" } });
    expect(nodepoolTag.message).toMatch(/^test\/obj: tags\["karpenter.sh\/nodepool"\] = "x" is invalid: the key "karpenter.sh\/nodepool" is restricted: /);
    const cluster = rejection("EC2NodeClass", { tags: { "kubernetes.io/cluster/demo": "owned" } });
    expect(cluster.message).toBe('test/obj: tags["kubernetes.io/cluster/demo"] = "owned" is invalid: the key "kubernetes.io/cluster/demo" is restricted: Karpenter sets kubernetes.io/cluster/<cluster name> on every instance itself (EC2NodeClass CRD: "tag contains a restricted tag matching kubernetes.io/cluster/"); use a key not starting with "kubernetes.io/cluster"');
    const aws = rejection("EC2NodeClass", { tags: { "aws:foo": "x" } });
    expect(aws.message).toBe('test/obj: tags["aws:foo"] = "x" is invalid: the key "aws:foo" is reserved: tag keys starting with "aws:" are for tags AWS sets itself, and EC2 refuses them in the launch request, so every launch with this class fails; use another key');
    const signal = rejection("EC2NodeClass", { kubelet: { evictionHard: { "memory.free": "100Mi" } } });
    expect(signal.message).toBe('test/obj: kubelet.evictionHard["memory.free"] = "100Mi" is invalid: the key "memory.free" is not an eviction signal: the keys of evictionHard are the signals "memory.available", "nodefs.available", "nodefs.inodesFree", "imagefs.available", "imagefs.inodesFree", "pid.available"');
    const typo = rejection("EC2NodeClass", { kubelet: { evictionHard: { "nodefs.avilable": "10%" } } });
    expect(typo.message).toBe('test/obj: kubelet.evictionHard["nodefs.avilable"] = "10%" is invalid: the key "nodefs.avilable" is not an eviction signal; did you mean nodefs.available? The keys of evictionHard are the signals "memory.available", "nodefs.available", "nodefs.inodesFree", "imagefs.available", "imagefs.inodesFree", "pid.available"');
    const reserved = rejection("EC2NodeClass", { kubelet: { kubeReserved: { "nvidia.com/gpu": "1" } } });
    expect([reserved.field, reserved.value]).toEqual(['kubelet.kubeReserved["nvidia.com/gpu"]', "1"]);
    expect(reserved.message).toBe('test/obj: kubelet.kubeReserved["nvidia.com/gpu"] = "1" is invalid: the key "nvidia.com/gpu" is not a resource kubeReserved takes: the keys of kubeReserved are "cpu", "memory", "ephemeral-storage", "pid"');
    const selector = rejection("EC2NodeClass", { subnetSelectorTerms: [{ tags: { "": "x" } }] });
    expect(selector.message).toBe('test/obj: subnetSelectorTerms[0].tags[""] = "x" is invalid: the key "" is empty (EC2NodeClass CRD: "empty tag keys or values aren\'t supported")');
    const limit = rejection("NodePool", { limits: { "": 1 } });
    expect([limit.field, limit.value]).toEqual(['limits[""]', 1]);
    // a bad value stays on the entry
    const value = rejection("NodePool", { labels: { team: "a b" } });
    expect([value.field, value.value]).toEqual(['labels["team"]', "a b"]);
  });

  test("a duration beyond Go's time.Duration names the maximum; 2562047h47m16s itself is fine", () => {
    const e = rejection("NodePool", { expireAfter: "2562048h" });
    expect(e.allowed).toContain("at most 2562047h47m16s (about 292 years)");
    expect(e.allowed).toContain('use "Never" for no limit');
    expect(rejection("NodePool", { terminationGracePeriod: "2562048h" }).allowed).not.toContain('use "Never"');
    expect(() => build("NodePool", { expireAfter: "2562047h47m16s", terminationGracePeriod: "2562047h47m16s", disruption: { consolidateAfter: "2562047h47m16s" } })).not.toThrow();
  });

  // The CRD patterns of these fields take whole seconds (budget duration: whole minutes), so the
  // maximum named must be one the field accepts; only Go-duration fields get the fractional bound.
  test.each<[string, Kind, Props, string]>([
    ["expireAfter", "NodePool", { expireAfter: "2562047h47m17s" }, "at most 2562047h47m16s ("],
    ["terminationGracePeriod", "NodePool", { terminationGracePeriod: "2562047h47m17s" }, "at most 2562047h47m16s ("],
    ["consolidateAfter", "NodePool", { disruption: { consolidateAfter: "2562047h47m17s" } }, "at most 2562047h47m16s ("],
    ["budget duration", "NodePool", { disruption: { budgets: [{ nodes: "0", schedule: "@daily", duration: "2562047h48m" }] } }, "at most 2562047h47m ("],
    ["kubelet evictionSoftGracePeriod", "EC2NodeClass", { kubelet: { evictionSoft: { "memory.available": "1Gi" }, evictionSoftGracePeriod: { "memory.available": "2562047h47m17s" } } }, "at most 2562047h47m16.854775807s ("],
    ["deleteTimeout", "EC2NodeClass", { deleteTimeout: "2562047h47m17s" }, "at most 2562047h47m16.854775807s ("],
  ])("%s beyond Go's time.Duration names the longest value its pattern accepts", (_name, kind, props, bound) => {
    expect(rejection(kind, props).allowed).toContain(bound);
  });

  test("the named maxima themselves are accepted", () => {
    expect(() => build("NodePool", { disruption: { consolidateAfter: "1m", budgets: [{ nodes: "0", schedule: "@daily", duration: "2562047h47m" }] } })).not.toThrow();
    expect(() => build("EC2NodeClass", { deleteTimeout: "2562047h47m16.854775807s", kubelet: { evictionSoft: { "memory.available": "1Gi" }, evictionSoftGracePeriod: { "memory.available": "2562047h47m16.854775807s" } } })).not.toThrow();
  });

  test("Gt above int64 names the int64 maximum", () => {
    expect(rejection("NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gt", ["10000000000000000000"])] }).allowed).toContain("no larger than 9223372036854775807");
  });

  test("a duplicate taint names the first one and Karpenter's rule", () => {
    const e = rejection("NodePool", { taints: [{ key: "a", effect: "NoSchedule" }], startupTaints: [{ key: "a", effect: "NoSchedule" }] });
    expect(e.allowed).toContain("taints[0] is a:NoSchedule too");
    expect(e.allowed).toContain("duplicate taint Key/Effect pair");
  });

  test("values omitted for In / Gt say the operator needs values", () => {
    expect(rejection("NodePool", { requirements: [req("kubernetes.io/arch", "In")] }).message).toBe(
      "test/obj: requirements[0].values = undefined is invalid: at least one value: operator 'In' needs values (the NodePool CRD rules read them, and the API server fails on a requirement without)",
    );
    expect(rejection("NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gt")] }).allowed).toContain("exactly one value");
  });

  test("an empty capacity reservation term list says to leave the field unset", () => {
    expect(rejection("EC2NodeClass", { capacityReservationSelectorTerms: [] }).allowed).toBe(
      "1 to 30 terms: capacityReservationSelectorTerms cannot be empty (leave capacityReservationSelectorTerms unset to use no capacity reservation)",
    );
  });

  test("role and instance profile together with an installation: no advice about going without one", () => {
    const e = rejection("EC2NodeClass", { role: "r", instanceProfile: "p" });
    expect(e.field).toBe("instanceProfile");
    expect(e.message).toBe(`test/obj: instanceProfile = "p" is invalid: unset when role is set: role "r" is set too, and a class takes one of them (with a role, Karpenter creates and manages the instance profile; EC2NodeClass CRD: "must specify exactly one of ['role', 'instanceProfile']")`);
    expect(e.allowed).not.toContain("without `karpenter`");
    const { stack } = testStack();
    const none = (() => {
      try {
        new Ec2NodeClass(stack, "x", { subnetSelectorTerms: [{ id: "subnet-1" }], securityGroupSelectorTerms: [{ id: "sg-1" }] });
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
    expect(() => new NodePool(stack, "__", { karpenter, nodeClass: { name: "default" } })).toThrow(/^test\/__: name = "" is invalid: a non-empty DNS-1123 subdomain; .*the construct id here is "__": give `name`$/);
    expect(() => new Ec2NodeClass(stack, "--", { karpenter })).toThrow(/^test\/--: name = "" is invalid: .*the construct id here is "--": give `name`$/);
  });

  test("plain-JS callers: no props, or props that are not an object", () => {
    const { stack } = testStack();
    const NP = NodePool as any;
    const EC = Ec2NodeClass as any;
    expect(() => new NP(stack, "a")).toThrow(/^test\/a: nodeClass = undefined is invalid: an Ec2NodeClass of this app or a reference \{ name \} to one managed elsewhere \(required\)/);
    expect(() => new NP(stack, "b", "default")).toThrow(KarpenterValidationError);
    expect(() => new EC(stack, "c", null)).toThrow(/^test\/c: props = null is invalid: Ec2NodeClass props: an object/);
    expect(() => new NP(stack, "d", { nodeClass: { name: "default" }, disruption: "WhenEmpty" })).toThrow('test/d: disruption = "WhenEmpty" is invalid: disruption: an object { consolidationPolicy, consolidateAfter, budgets }');
  });

  test("a version-gated field names the version that introduced it", () => {
    const e = rejection("EC2NodeClass", { networkInterfaces: [{ deviceIndex: 0, networkCardIndex: 0, interfaceType: "interface" }] }, "1.10.2");
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
    const e = rejection("NodePool", { disruption: { budgets: [{ nodes: "0", schedule: "0 25 * * *", duration: "1h" }] } });
    expect(e.message).toContain('hour field "25"');
  });

  test("restricted label domains explain themselves", () => {
    expect(rejection("NodePool", { labels: { "karpenter.sh/team": "a" } }).message).toContain('label domain "karpenter.sh" is restricted');
    expect(rejection("NodePool", { requirements: [req("karpenter.k8s.aws/instance-colour", "In", ["a"])] }).message).toContain('label domain "karpenter.k8s.aws" is restricted');
  });

  test("nothing is added to the tree when a constructor throws", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.14.1");
    expect(() => new NodePool(stack, "bad", { karpenter, nodeClass: { name: "default" }, weight: 0 })).toThrow(KarpenterValidationError);
    expect(() => new Ec2NodeClass(stack, "bad2", { karpenter, name: "Bad" })).toThrow(KarpenterValidationError);
    expect(stack.node.tryFindChild("bad")).toBeUndefined();
    expect(stack.node.tryFindChild("bad2")).toBeUndefined();
  });
});

// [description, kind, props, Karpenter version]
const VALID: [string, Kind, Props, string?][] = [
  ["Windows alias @latest", "EC2NodeClass", { amiSelectorTerms: [{ alias: "windows2022@latest" }] }],
  ["Windows alias with its family", "EC2NodeClass", { amiFamily: "Windows2022", amiSelectorTerms: [{ alias: "windows2022@latest" }] }],
  ["pinned AL2023 alias with amiFamily Custom", "EC2NodeClass", { amiFamily: "Custom", amiSelectorTerms: [{ alias: "al2023@v20250101" }] }],
  ["bottlerocket alias with a version", "EC2NodeClass", { amiSelectorTerms: [{ alias: "bottlerocket@v1.10.0" }] }],
  ["AMI terms by tags and by name+owner", "EC2NodeClass", { amiFamily: "AL2023", amiSelectorTerms: [{ tags: { team: "*" } }, { name: "my-ami-*", owner: "self" }] }],
  ["ssmParameter from 1.4", "EC2NodeClass", { amiFamily: "AL2023", amiSelectorTerms: [{ ssmParameter: "/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/standard/recommended/image_id" }] }, "1.4.4"],
  ["64T volume, gp3 with iops and throughput", "EC2NodeClass", { blockDeviceMappings: [{ deviceName: "/dev/xvda", rootVolume: true, ebs: { volumeSize: "64T", volumeType: "gp3", iops: 3000, throughput: 125, encrypted: true } }] }],
  ["kubelet with paired soft eviction", "EC2NodeClass", { kubelet: { evictionSoft: { "memory.available": "5%" }, evictionSoftGracePeriod: { "memory.available": "1m30s" }, evictionHard: { "nodefs.available": "10.5%" }, kubeReserved: { cpu: "100m", memory: "1Gi" }, imageGCHighThresholdPercent: 85, imageGCLowThresholdPercent: 80, maxPods: 110 } }],
  ["network interfaces with EFA from 1.11", "EC2NodeClass", { networkInterfaces: [{ deviceIndex: 0, networkCardIndex: 0, interfaceType: "interface" }, { deviceIndex: 1, networkCardIndex: 0, interfaceType: "efa-only" }] }, "1.11.3"],
  ["capacity reservations by criteria from 1.8", "EC2NodeClass", { capacityReservationSelectorTerms: [{ instanceMatchCriteria: "open" }, { id: "cr-0123abcd" }] }, "1.8.8"],
  ["tokens everywhere they may be", "EC2NodeClass", { role: Fn.lower("Role"), amiSelectorTerms: [{ alias: Fn.lower("AL2023@LATEST") }], tags: { team: Fn.lower("A") }, metadataOptions: { httpPutResponseHopLimit: Token.asNumber(Fn.max([1, 2])) } }],
  ["Never durations", "NodePool", { expireAfter: "Never", disruption: { consolidateAfter: "Never" } }],
  ["100% and 0% budgets, 1h30m windows, macros", "NodePool", { disruption: { budgets: [{ nodes: "100%" }, { nodes: "0%", schedule: "@daily", duration: "1h30m" }, { nodes: "5", schedule: "*/15 9-17 * jan-jun mon,wed,fri", duration: "30m", reasons: ["Drifted", "Empty"] }] } }],
  ["Gt, Lt, Gte and Lte", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-generation", "Gt", ["5"]), req("karpenter.k8s.aws/instance-cpu", "Lt", ["65"]), req("karpenter.k8s.aws/instance-memory", "Gte", ["0"]), req("karpenter.k8s.aws/instance-gpu-count", "Lte", ["8"])] }],
  ["minValues equal to the values, and with Exists", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-family", "In", ["m5", "c5"], 2), req("node.kubernetes.io/instance-type", "Exists", undefined, 10)] }],
  ["capacity type as a template label", "NodePool", { labels: { "karpenter.sh/capacity-type": "on-demand", "example.com/team": "" } }],
  ["kubernetes.io labels from 1.9", "NodePool", { labels: { "node-role.kubernetes.io/worker": "true" } }, "1.9.2"],
  ["allowed kubernetes.io keys before 1.9", "NodePool", { requirements: [req("kubernetes.io/arch", "In", ["arm64"]), req("topology.kubernetes.io/zone", "NotIn", ["us-east-1a"])], labels: { "example.node.kubernetes.io/pool": "x" } }, "1.8.8"],
  ["static pool with a node limit", "NodePool", { replicas: 3, limits: { nodes: "3" } }],
  ["quantities as strings and integers", "NodePool", { limits: { cpu: "500m", memory: "8Gi", "nvidia.com/gpu": 4 }, terminationGracePeriod: "48h", weight: 100 }],
  ["Gt at the int64 maximum, Lt above 2^53", "NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gt", ["9223372036854775806"]), req("karpenter.k8s.aws/instance-memory", "Lt", ["9007199254740993"])] }],
  ["NotIn without values (no CRD rule reads them)", "NodePool", { requirements: [req("topology.kubernetes.io/zone", "NotIn")] }],
  ["one taint key with two effects, and as a startup taint with a third", "NodePool", { taints: [{ key: "a", effect: "NoSchedule" }, { key: "a", effect: "NoExecute" }], startupTaints: [{ key: "a", effect: "PreferNoSchedule" }] }],
  ["durations at Go's maximum", "NodePool", { expireAfter: "2562047h", terminationGracePeriod: "2562047h47m16s", disruption: { consolidateAfter: "2562047h47m", budgets: [{ nodes: "0", schedule: "@daily", duration: "2562047h" }] } }],
  ["zero limits", "NodePool", { limits: { cpu: 0, memory: "0" } }],
  ["null optional props are unset", "NodePool", { weight: null as any, expireAfter: null as any, labels: { team: null as any } }],
  ["capacity reservation terms from 1.3", "EC2NodeClass", { capacityReservationSelectorTerms: [{ id: "cr-0123abcd" }] }, "1.3.8"],
  ["tokens in requirements, labels, limits and schedules", "NodePool", { requirements: [{ key: "example.com/team", operator: "In", values: Token.asList(Fn.split(",", "a,b")) }, req("karpenter.k8s.aws/instance-cpu", "Gt", [Fn.lower("4")])], labels: { team: Fn.lower("X") }, limits: { cpu: Token.asNumber(Fn.max([1, 2])) }, disruption: { budgets: [{ nodes: Fn.lower("10%"), schedule: Fn.lower("@DAILY"), duration: "1h" }] } }],
];

describe("valid edge cases are accepted and emitted", () => {
  test.each(VALID.map(([w, k, p, v]) => [w, k, p, v ?? "1.14.1"] as const))("%s (%s)", (_what, kind, props, version) => {
    const json = synthJson(build(kind, props, version));
    const objs = Object.values(json.resource.kubernetes_manifest) as any[];
    expect(objs).toHaveLength(1);
    expect(objs[0].manifest.kind).toBe(kind);
  });

  test("null optional props are left out of the manifest", () => {
    const json = synthJson(build("NodePool", { weight: null as any, expireAfter: null as any, labels: { team: null as any, a: "b" } }));
    const spec = (Object.values(json.resource.kubernetes_manifest)[0] as any).manifest.spec;
    expect(spec.weight).toBeUndefined();
    expect(spec.template.spec.expireAfter).toBeUndefined();
    expect(spec.template.metadata.labels).toEqual({ a: "b" });
  });

  test("a budget schedule token reaches the manifest untouched", () => {
    const json = synthJson(build("NodePool", { disruption: { budgets: [{ nodes: "0", schedule: Fn.lower("@DAILY"), duration: "1h" }] } }));
    const budget = (Object.values(json.resource.kubernetes_manifest)[0] as any).manifest.spec.disruption.budgets[0];
    expect(budget.schedule).toBe('${lower("@DAILY")}');
  });
});

describe("numbers say what they take in plain words", () => {
  test("an unbounded whole number: 0 or more, never JavaScript's largest safe integer", () => {
    expect(rejection("NodePool", { replicas: -1 }).message).toBe("test/obj: replicas = -1 is invalid: a whole number, 0 or more");
    expect(messages("EC2NodeClass", { blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: "20Gi", volumeType: "gp3", iops: NaN, throughput: -5 } }] })).toEqual([
      "test/obj: blockDeviceMappings[0].ebs.iops = NaN is invalid: a whole number, 0 or more",
      "test/obj: blockDeviceMappings[0].ebs.throughput = -5 is invalid: a whole number, 0 or more",
    ]);
  });

  test("a bound that exists is named; a number beyond what JavaScript holds exactly is told so", () => {
    expect(rejection("EC2NodeClass", { kubelet: { maxPods: -1 } }).message).toBe("test/obj: kubelet.maxPods = -1 is invalid: a whole number from 0 to 2147483647");
    expect(rejection("NodePool", { replicas: 2 ** 60 }).message).toBe(`test/obj: replicas = ${2 ** 60} is invalid: a whole number, 0 or more, and at most 9007199254740991: a larger number is not exact in JavaScript`);
  });
});

describe("unknown fields get a did-you-mean", () => {
  test.each<[string, Kind, Props, string]>([
    ["EC2NodeClass prop", "EC2NodeClass", { amiSelectorTerm: [{ alias: "al2023@latest" }] } as any, 'test/obj: amiSelectorTerm = [{"alias":"al2023@latest"}] is invalid: not a field of Ec2NodeClassProps (an unknown field would be silently dropped); did you mean amiSelectorTerms? The known fields are '],
    ["AMI selector term", "EC2NodeClass", { amiSelectorTerms: [{ alais: "al2023@latest" }] } as any, 'test/obj: amiSelectorTerms[0].alais = "al2023@latest" is invalid: not a field of an AMI selector term (an unknown field would be silently dropped); did you mean alias? The known fields are alias, id, name, owner, ssmParameter, tags'],
    ["kubelet field in another case", "EC2NodeClass", { kubelet: { maxpods: 110 } } as any, "test/obj: kubelet.maxpods = 110 is invalid: not a field of kubelet (an unknown field would be silently dropped); did you mean maxPods (names are case-sensitive)? The known fields are "],
    ["NodePool prop", "NodePool", { limit: { cpu: 10 } } as any, 'test/obj: limit = {"cpu":10} is invalid: not a field of NodePoolProps (an unknown field would be silently dropped); did you mean limits? The known fields are '],
    ["requirement", "NodePool", { requirements: [{ key: "example.com/team", operator: "NotIn", valuse: ["a"] }] } as any, 'test/obj: requirements[0].valuse = ["a"] is invalid: not a field of a requirement (an unknown field would be silently dropped); did you mean values? The known fields are key, operator, values, minValues'],
    ["disruption field in another case", "NodePool", { disruption: { consolidationpolicy: "WhenEmpty" } } as any, 'test/obj: disruption.consolidationpolicy = "WhenEmpty" is invalid: not a field of disruption (an unknown field would be silently dropped); did you mean consolidationPolicy (names are case-sensitive)? The known fields are consolidationPolicy, consolidateAfter, budgets'],
    ["node class reference", "NodePool", { nodeClass: { name: "a", knid: "EC2NodeClass" } } as any, 'test/obj: nodeClass.knid = "EC2NodeClass" is invalid: not a field of a node class reference (an unknown field would be silently dropped); did you mean kind? The known fields are name, group, kind'],
  ])("%s", (_what, kind, props, message) => {
    expect(rejection(kind, props).problems[0].message.startsWith(message)).toBe(true);
  });

  test("a field nothing is close to lists the known ones without a guess", () => {
    expect(rejection("NodePool", { disruption: { schedule: "@daily" } } as any).message).toBe(
      'test/obj: disruption.schedule = "@daily" is invalid: not a field of disruption (an unknown field would be silently dropped): the known fields are consolidationPolicy, consolidateAfter, budgets',
    );
  });
});

describe("nodeClassRef names the one node class Karpenter on AWS provides", () => {
  const WHY =
    "Karpenter on AWS provides one node class, karpenter.k8s.aws EC2NodeClass, and ignores a NodePool whose nodeClassRef names another group or kind (kubernetes-sigs/karpenter pkg/utils/nodepool, IsManaged: the NodePool CRD accepts any non-empty value, but such a pool never launches a node)";
  test("a kind in another case, and another group, are refused", () => {
    expect(rejection("NodePool", { nodeClass: { name: "a", group: "karpenter.k8s.aws", kind: "EC2nodeclass" } }).message).toBe(
      `test/obj: nodeClass.kind = "EC2nodeclass" is invalid: "EC2NodeClass" (or unset) (group and kind are case-sensitive: write "EC2NodeClass"): ${WHY}`,
    );
    expect(rejection("NodePool", { nodeClass: { name: "a", group: "karpenter.sh" } }).message).toBe(`test/obj: nodeClass.group = "karpenter.sh" is invalid: "karpenter.k8s.aws" (or unset): ${WHY}`);
  });

  test("the right group and kind, spelt out or left unset, are accepted", () => {
    for (const nodeClass of [{ name: "a" }, { name: "a", group: "karpenter.k8s.aws", kind: "EC2NodeClass" }]) {
      const manifest = Object.values(synthJson(build("NodePool", { nodeClass })).resource.kubernetes_manifest)[0] as any;
      expect(manifest.manifest.spec.template.spec.nodeClassRef).toEqual({ group: "karpenter.k8s.aws", kind: "EC2NodeClass", name: "a" });
    }
  });
});

describe("requirements and labels that no node can satisfy", () => {
  const AND =
    "Karpenter ANDs every requirement and template label on one key: it intersects them (kubernetes-sigs/karpenter pkg/scheduling/requirements.go, Requirements.Add; a template label counts as In its value, NewLabelRequirements)";
  test("a template label against a requirement on the same key names both", () => {
    const e = rejection("NodePool", { labels: { "karpenter.sh/capacity-type": "spot" }, requirements: [req("karpenter.sh/capacity-type", "In", ["on-demand"])] });
    expect(e.message).toBe(
      `test/obj: labels["karpenter.sh/capacity-type"] = "spot" is invalid: a label value that some node can satisfy together with requirements[0] (karpenter.sh/capacity-type In ["on-demand"]): ${AND}, and no value of karpenter.sh/capacity-type satisfies both, so the NodePool matches no node and launches nothing. Remove one of them or make them agree`,
    );
  });

  test("two requirements on one key with no common value", () => {
    const e = rejection("NodePool", { requirements: [req("kubernetes.io/arch", "In", ["amd64"]), req("kubernetes.io/arch", "In", ["arm64"])] });
    expect([e.field, e.message]).toEqual([
      "requirements[1]",
      `test/obj: requirements[1] = {"key":"kubernetes.io/arch","operator":"In","values":["arm64"]} is invalid: a requirement that some node can satisfy together with requirements[0] (kubernetes.io/arch In ["amd64"]): ${AND}, and no value of kubernetes.io/arch satisfies both, so the NodePool matches no node and launches nothing. Remove one of them or make them agree`,
    ]);
    expect(rejection("NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gt", ["8"]), req("karpenter.k8s.aws/instance-cpu", "Lt", ["4"])] }).field).toBe("requirements[1]");
    expect(rejection("NodePool", { requirements: [req("example.com/team", "In", ["a"]), req("example.com/team", "DoesNotExist")] }).field).toBe("requirements[1]");
    expect(rejection("NodePool", { requirements: [req("example.com/team", "In", ["a", "b"]), req("example.com/team", "NotIn", ["a", "b"])] }).field).toBe("requirements[1]");
  });

  test("NotIn every value of a well-known label leaves none (capacity types per version)", () => {
    expect(rejection("NodePool", { requirements: [req("karpenter.sh/capacity-type", "NotIn", ["on-demand", "spot", "reserved"])] }).message).toBe(
      'test/obj: requirements[0] = {"key":"karpenter.sh/capacity-type","operator":"NotIn","values":["on-demand","spot","reserved"]} is invalid: a requirement some node can satisfy: karpenter.sh/capacity-type NotIn ["on-demand","spot","reserved"] leaves no value of karpenter.sh/capacity-type (its values are "on-demand", "spot", "reserved"), so the NodePool matches no node and launches nothing',
    );
    // before 1.3 there was no reserved capacity: NotIn on-demand and spot already leaves none
    expect(rejection("NodePool", { requirements: [req("karpenter.sh/capacity-type", "NotIn", ["on-demand", "spot"])] }, "1.2.8").field).toBe("requirements[0]");
    expect(rejection("NodePool", { requirements: [req("kubernetes.io/arch", "NotIn", ["amd64", "arm64"])] }).field).toBe("requirements[0]");
  });

  test("requirements that overlap, and keys with a token, are accepted", () => {
    for (const props of [
      { requirements: [req("kubernetes.io/arch", "In", ["amd64", "arm64"]), req("kubernetes.io/arch", "In", ["arm64"])] },
      { requirements: [req("karpenter.sh/capacity-type", "NotIn", ["spot", "reserved"])] },
      { labels: { "karpenter.sh/capacity-type": "spot" }, requirements: [req("karpenter.sh/capacity-type", "In", ["spot", "on-demand"])] },
      { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gt", ["3"]), req("karpenter.k8s.aws/instance-cpu", "Lt", ["5"])] },
      { requirements: [req("example.com/team", "NotIn", ["a"]), req("example.com/team", "DoesNotExist")] },
      { requirements: [req("kubernetes.io/arch", "In", ["amd64"]), req("kubernetes.io/arch", "In", [Token.asString({ Ref: "x" })])] },
    ]) {
      expect(() => build("NodePool", props as Props)).not.toThrow();
    }
  });
});

describe("a restricted requirement key says what to use instead", () => {
  test("kubernetes.io/hostname points to topology spread and anti-affinity on the workloads", () => {
    expect(rejection("NodePool", { requirements: [req("kubernetes.io/hostname", "In", ["ip-10-0-0-1"])] }).message).toBe(
      'test/obj: requirements[0].key = "kubernetes.io/hostname" is invalid: label "kubernetes.io/hostname" is restricted: each node gets its own name there, so a NodePool cannot choose it (NodePool CRD). To spread pods over nodes, give the workloads topologySpreadConstraints or pod anti-affinity with topologyKey kubernetes.io/hostname; to place a pod on one node, use a nodeSelector on the pod',
    );
  });
});

describe("limits on resources no node has", () => {
  const poolWarnings = (limits: { [k: string]: string | number }) => {
    const { stack } = testStack();
    const pool = new NodePool(stack, "pool", { karpenter: new FakeInstallation(stack, "karpenter"), nodeClass: { name: "default" }, limits });
    return pool.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data)).filter((w) => w.includes("limits["));
  };
  test("warn, with a did-you-mean", () => {
    expect(poolWarnings({ cpus: 10 })).toEqual([
      'NodePool pool: limits["cpus"] names no resource a node has (did you mean cpu?): Karpenter compares each limit with the sum of that resource over the pool\'s nodes, and a resource no node has sums to 0, so this limit is never reached and limits nothing. Limits count cpu, memory, ephemeral-storage, pods, nodes, hugepages-<size> and extended resources with a "/" such as nvidia.com/gpu (Karpenter docs, NodePools "spec.limits").',
    ]);
    expect(poolWarnings({ gpus: 1 })).toHaveLength(1);
  });
  test("node resources, huge pages and extended resources do not", () => {
    expect(poolWarnings({ cpu: 10, memory: "100Gi", "ephemeral-storage": "1Ti", pods: 500, "hugepages-2Mi": "1Gi", "nvidia.com/gpu": 4 })).toEqual([]);
  });
});

test("a misspelt construct prop is suggested too", () => {
  expect(rejection("EC2NodeClass", { discoveryTagkey: "k" } as any).message).toMatch(/^test\/obj: discoveryTagkey = "k" is invalid: not a field of Ec2NodeClassProps \(an unknown field would be silently dropped\); did you mean discoveryTagKey \(names are case-sensitive\)\? The known fields are /);
});
