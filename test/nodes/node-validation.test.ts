import { readFileSync } from "fs";
import { join } from "path";
import { KarpenterValidationError } from "../../lib/core/errors";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { NodePool } from "../../lib/nodes/node-pool";
import { FakeInstallation, synthJson, testStack, thrown } from "../helpers";
import { build, DURATION_RULE, Kind, long, messages, Props, rejection, req } from "./node-props";

// [description, kind, props, field named by the error, Karpenter version]
const INVALID: [string, Kind, Props, string, string?][] = [
  // ---- NodePool ----
  ["uppercase name", "NodePool", { name: "Default" }, "name"],
  ["underscore in name", "NodePool", { name: "gpu_pool" }, "name"],
  [
    "restricted key karpenter.sh/nodepool",
    "NodePool",
    { requirements: [req("karpenter.sh/nodepool", "In", ["a"])] },
    "requirements[0].key",
  ],
  [
    "other karpenter.sh key",
    "NodePool",
    { requirements: [req("karpenter.sh/team", "In", ["a"])] },
    "requirements[0].key",
  ],
  [
    "restricted key kubernetes.io/hostname",
    "NodePool",
    { requirements: [req("kubernetes.io/hostname", "In", ["a"])] },
    "requirements[0].key",
  ],
  [
    "unknown karpenter.k8s.aws key",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-colour", "In", ["a"])] },
    "requirements[0].key",
  ],
  ["malformed key", "NodePool", { requirements: [req("bad key!", "In", ["a"])] }, "requirements[0].key"],
  [
    "unknown operator",
    "NodePool",
    { requirements: [req("kubernetes.io/arch", "Equals", ["amd64"])] },
    "requirements[0].operator",
  ],
  ["In without values", "NodePool", { requirements: [req("kubernetes.io/arch", "In", [])] }, "requirements[0].values"],
  [
    "Gt with two values",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-generation", "Gt", ["5", "6"])] },
    "requirements[0].values",
  ],
  [
    "Gt with a word",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-generation", "Gt", ["five"])] },
    "requirements[0].values[0]",
  ],
  [
    "Lt with a negative number",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-cpu", "Lt", ["-1"])] },
    "requirements[0].values[0]",
  ],
  [
    "minValues above the number of values",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-family", "In", ["m5", "c5"], 3)] },
    "requirements[0].minValues",
  ],
  [
    "minValues 0",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-family", "Exists", undefined, 0)] },
    "requirements[0].minValues",
  ],
  [
    "minValues 51",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-family", "Exists", undefined, 51)] },
    "requirements[0].minValues",
  ],
  [
    "value of 64 characters",
    "NodePool",
    { requirements: [req("example.com/team", "In", [long(64)])] },
    "requirements[0].values[0]",
  ],
  [
    "Exists with values",
    "NodePool",
    { requirements: [req("example.com/team", "Exists", ["a"])] },
    "requirements[0].values",
  ],
  [
    "capacity type Spot (capitalized)",
    "NodePool",
    { requirements: [req("karpenter.sh/capacity-type", "In", ["Spot"])] },
    "requirements[0].values[0]",
  ],
  [
    "Gte before 1.9",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gte", ["4"])] },
    "requirements[0].operator",
    "1.8.8",
  ],
  [
    "instance-tenancy before 1.9",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-tenancy", "In", ["default"])] },
    "requirements[0].key",
    "1.8.8",
  ],
  [
    "reserved capacity before 1.3",
    "NodePool",
    { requirements: [req("karpenter.sh/capacity-type", "In", ["reserved"])] },
    "requirements[0].values[0]",
    "1.2.8",
  ],
  ["restricted label", "NodePool", { labels: { "karpenter.sh/nodepool": "x" } }, 'labels["karpenter.sh/nodepool"]'],
  ["bad label value", "NodePool", { labels: { team: "a b" } }, 'labels["team"]'],
  [
    "kubernetes.io label before 1.9",
    "NodePool",
    { labels: { "node-role.kubernetes.io/worker": "true" } },
    'labels["node-role.kubernetes.io/worker"]',
    "1.8.8",
  ],
  [
    "k8s.io label before 1.9",
    "NodePool",
    { labels: { "example.k8s.io/x": "y" } },
    'labels["example.k8s.io/x"]',
    "1.8.8",
  ],
  ["annotation key with two slashes", "NodePool", { annotations: { "a/b/c": "x" } }, 'annotations["a/b/c"]'],
  [
    "unknown taint effect",
    "NodePool",
    { taints: [{ key: "dedicated", effect: "NoEffect" as any }] },
    "taints[0].effect",
  ],
  ["empty taint key", "NodePool", { taints: [{ key: "", effect: "NoSchedule" }] }, "taints[0].key"],
  [
    "startup taint value with a space",
    "NodePool",
    { startupTaints: [{ key: "example.com/init", value: "not ready", effect: "NoSchedule" }] },
    "startupTaints[0].value",
  ],
  ["expireAfter in days", "NodePool", { expireAfter: "30d" }, "expireAfter"],
  ["expireAfter in words", "NodePool", { expireAfter: "1 hour" }, "expireAfter"],
  ["terminationGracePeriod Never", "NodePool", { terminationGracePeriod: "Never" }, "terminationGracePeriod"],
  ["limit that is no quantity", "NodePool", { limits: { cpu: "lots" } }, 'limits["cpu"]'],
  ["limit as a number (a JavaScript caller)", "NodePool", { limits: { cpu: 100 as any } }, 'limits["cpu"]'],
  ["fractional limit number", "NodePool", { limits: { cpu: 1.5 as any } }, 'limits["cpu"]'],
  [
    "v1beta1 consolidation policy",
    "NodePool",
    { disruption: { consolidationPolicy: "WhenUnderutilized" as any } },
    "disruption.consolidationPolicy",
  ],
  [
    "Balanced before 1.14",
    "NodePool",
    { disruption: { consolidationPolicy: "Balanced" } },
    "disruption.consolidationPolicy",
    "1.13.1",
  ],
  [
    "consolidateAfter in words",
    "NodePool",
    { disruption: { consolidateAfter: "5 minutes" } },
    "disruption.consolidateAfter",
  ],
  [
    "schedule without duration",
    "NodePool",
    { disruption: { budgets: [{ nodes: "10%" }, { nodes: "0", schedule: "@daily" }] } },
    "disruption.budgets[1].duration",
  ],
  [
    "duration without schedule",
    "NodePool",
    { disruption: { budgets: [{ nodes: "0", duration: "8h" }] } },
    "disruption.budgets[0].schedule",
  ],
  ["budget of 150%", "NodePool", { disruption: { budgets: [{ nodes: "150%" }] } }, "disruption.budgets[0].nodes"],
  ["budget in words", "NodePool", { disruption: { budgets: [{ nodes: "ten" }] } }, "disruption.budgets[0].nodes"],
  [
    "hour 25 in a schedule",
    "NodePool",
    { disruption: { budgets: [{ nodes: "0", schedule: "0 25 * * *", duration: "1h" }] } },
    "disruption.budgets[0].schedule",
  ],
  [
    "time zone in a schedule",
    "NodePool",
    { disruption: { budgets: [{ nodes: "0", schedule: "CRON_TZ=Europe/Berlin 0 9 * * 1", duration: "1h" }] } },
    "disruption.budgets[0].schedule",
  ],
  [
    "schedule with 4 fields",
    "NodePool",
    { disruption: { budgets: [{ nodes: "0", schedule: "0 9 * *", duration: "1h" }] } },
    "disruption.budgets[0].schedule",
  ],
  [
    "budget duration in seconds",
    "NodePool",
    { disruption: { budgets: [{ nodes: "0", schedule: "@daily", duration: "30s" }] } },
    "disruption.budgets[0].duration",
  ],
  [
    "unknown disruption reason",
    "NodePool",
    { disruption: { budgets: [{ nodes: "0", reasons: ["Expired" as any] }] } },
    "disruption.budgets[0].reasons[0]",
  ],
  [
    "duplicate reason",
    "NodePool",
    { disruption: { budgets: [{ nodes: "0", reasons: ["Empty", "Empty"] }] } },
    "disruption.budgets[0].reasons[1]",
  ],
  [
    "51 budgets",
    "NodePool",
    { disruption: { budgets: Array.from({ length: 51 }, () => ({ nodes: "1" })) } },
    "disruption.budgets",
  ],
  ["weight 0", "NodePool", { weight: 0 }, "weight"],
  ["weight 101", "NodePool", { weight: 101 }, "weight"],
  ["static pool with weight", "NodePool", { replicas: 3, weight: 10 }, "weight"],
  ["static pool with a cpu limit", "NodePool", { replicas: 3, limits: { cpu: "10" } }, 'limits["cpu"]'],
  ["static pool before 1.8", "NodePool", { replicas: 3 }, "replicas", "1.7.6"],
  ["negative replicas", "NodePool", { replicas: -1 }, "replicas"],
  ["bad node class name", "NodePool", { nodeClass: { name: "Bad_Name" } }, "nodeClass.name"],
  ["node class reference without a name", "NodePool", { nodeClass: {} as any }, "nodeClass.name"],
  ["node class group with a slash", "NodePool", { nodeClass: { name: "x", group: "a/b" } }, "nodeClass.group"],
  [
    "misspelt requirement field",
    "NodePool",
    { requirements: [{ key: "example.com/team", operator: "In", value: ["a"] } as any] },
    "requirements[0].value",
  ],
  [
    "101 requirements",
    "NodePool",
    { requirements: Array.from({ length: 101 }, (_, i) => req(`example.com/k${i}`, "Exists")) },
    "requirements",
  ],
  [
    "100 requirements without capacity type",
    "NodePool",
    { requirements: Array.from({ length: 100 }, (_, i) => req(`example.com/k${i}`, "Exists")) },
    "requirements",
  ],
  ["unknown Karpenter version", "NodePool", { version: "1.16.0" }, "version", "1.16.0"],
  // values omitted where a CRD rule reads them (x.values.size() fails at apply), like values: []
  ["In with values omitted", "NodePool", { requirements: [req("kubernetes.io/arch", "In")] }, "requirements[0].values"],
  [
    "In with values null",
    "NodePool",
    { requirements: [{ key: "kubernetes.io/arch", operator: "In", values: null } as any] },
    "requirements[0].values",
  ],
  [
    "Gt with values omitted",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gt")] },
    "requirements[0].values",
  ],
  [
    "Lt with values omitted",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-cpu", "Lt")] },
    "requirements[0].values",
  ],
  [
    "Gte with values omitted",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gte")] },
    "requirements[0].values",
  ],
  [
    "Lte with values omitted",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-cpu", "Lte")] },
    "requirements[0].values",
  ],
  [
    "Gt above int64",
    "NodePool",
    { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gt", ["9223372036854775808"])] },
    "requirements[0].values[0]",
  ],
  // durations longer than Go's time.Duration (time.ParseDuration fails)
  ["expireAfter beyond Go's time.Duration", "NodePool", { expireAfter: "2562048h" }, "expireAfter"],
  ["expireAfter of 315360000000s", "NodePool", { expireAfter: "315360000000s" }, "expireAfter"],
  [
    "consolidateAfter beyond Go's time.Duration",
    "NodePool",
    { disruption: { consolidateAfter: "99999999999h" } },
    "disruption.consolidateAfter",
  ],
  [
    "terminationGracePeriod beyond Go's time.Duration",
    "NodePool",
    { terminationGracePeriod: "2562047h47m17s" },
    "terminationGracePeriod",
  ],
  [
    "budget duration beyond Go's time.Duration",
    "NodePool",
    { disruption: { budgets: [{ nodes: "0", schedule: "@daily", duration: "9999999999h" }] } },
    "disruption.budgets[0].duration",
  ],
  // Karpenter's runtime validation: "duplicate taint Key/Effect pair"
  [
    "duplicate taint",
    "NodePool",
    {
      taints: [
        { key: "dedicated", value: "a", effect: "NoSchedule" },
        { key: "dedicated", value: "b", effect: "NoSchedule" },
      ],
    },
    "taints[1]",
  ],
  [
    "duplicate startup taint",
    "NodePool",
    {
      startupTaints: [
        { key: "example.com/init", effect: "NoExecute" },
        { key: "example.com/init", effect: "NoExecute" },
      ],
    },
    "startupTaints[1]",
  ],
  [
    "taint repeated as startup taint",
    "NodePool",
    { taints: [{ key: "a", effect: "NoSchedule" }], startupTaints: [{ key: "a", effect: "NoSchedule" }] },
    "startupTaints[0]",
  ],
  ["negative cpu limit", "NodePool", { limits: { cpu: "-1" } }, 'limits["cpu"]'],
  ["negative cpu limit as a number", "NodePool", { limits: { cpu: -1 as any } }, 'limits["cpu"]'],
  ["negative memory limit", "NodePool", { limits: { memory: "-1Gi" } }, 'limits["memory"]'],
  ["empty limit resource name", "NodePool", { limits: { "": "1" } }, 'limits[""]'],
  // plain-JS shapes
  ["null requirement", "NodePool", { requirements: [null as any] }, "requirements[0]"],
  ["null taint", "NodePool", { taints: [null as any] }, "taints[0]"],
  ["taint as a string", "NodePool", { taints: ["a:NoSchedule" as any] }, "taints[0]"],
  ["disruption as a string", "NodePool", { disruption: "WhenEmpty" as any }, "disruption"],
  ["null budget", "NodePool", { disruption: { budgets: [null as any] } }, "disruption.budgets[0]"],
  [
    "null budget reason",
    "NodePool",
    { disruption: { budgets: [{ nodes: "1", reasons: [null as any] }] } },
    "disruption.budgets[0].reasons[0]",
  ],

  // ---- EC2NodeClass ----
  ["uppercase name", "EC2NodeClass", { name: "Default" }, "name"],
  ["empty role", "EC2NodeClass", { role: "" }, "role"],
  ["role and instance profile", "EC2NodeClass", { role: "r", instanceProfile: "p" }, "instanceProfile"],
  ["unknown amiFamily", "EC2NodeClass", { amiFamily: "Ubuntu" as any }, "amiFamily"],
  ["alias without version", "EC2NodeClass", { amiSelectorTerms: [{ alias: "al2023" }] }, "amiSelectorTerms[0].alias"],
  [
    "alias of an unknown family",
    "EC2NodeClass",
    { amiSelectorTerms: [{ alias: "ubuntu@latest" }] },
    "amiSelectorTerms[0].alias",
  ],
  [
    "pinned Windows alias",
    "EC2NodeClass",
    { amiSelectorTerms: [{ alias: "windows2022@v20240101" }] },
    "amiSelectorTerms[0].alias",
  ],
  [
    "alias over 30 characters",
    "EC2NodeClass",
    { amiSelectorTerms: [{ alias: `al2023@${long(30)}` }] },
    "amiSelectorTerms[0].alias",
  ],
  [
    "alias with tags",
    "EC2NodeClass",
    { amiSelectorTerms: [{ alias: "al2023@latest", tags: { a: "b" } }] },
    "amiSelectorTerms[0].alias",
  ],
  [
    "alias with another term",
    "EC2NodeClass",
    { amiFamily: "AL2023", amiSelectorTerms: [{ alias: "al2023@latest" }, { tags: { a: "b" } }] },
    "amiSelectorTerms[0].alias",
  ],
  [
    "AMI id with a name",
    "EC2NodeClass",
    { amiFamily: "AL2023", amiSelectorTerms: [{ id: "ami-0123", name: "x" }] },
    "amiSelectorTerms[0].id",
  ],
  ["empty AMI term", "EC2NodeClass", { amiFamily: "AL2023", amiSelectorTerms: [{}] }, "amiSelectorTerms[0]"],
  [
    "uppercase AMI id",
    "EC2NodeClass",
    { amiFamily: "AL2023", amiSelectorTerms: [{ id: "ami-0ABC" }] },
    "amiSelectorTerms[0].id",
  ],
  [
    "amiFamily against the alias",
    "EC2NodeClass",
    { amiFamily: "Bottlerocket", amiSelectorTerms: [{ alias: "al2023@latest" }] },
    "amiFamily",
  ],
  ["no alias and no amiFamily", "EC2NodeClass", { amiSelectorTerms: [{ id: "ami-0123" }] }, "amiFamily"],
  ["no AMI terms", "EC2NodeClass", { amiSelectorTerms: [] }, "amiSelectorTerms"],
  [
    "empty tag value in an AMI term",
    "EC2NodeClass",
    { amiFamily: "AL2023", amiSelectorTerms: [{ tags: { team: "" } }] },
    'amiSelectorTerms[0].tags["team"]',
  ],
  [
    "21 selector tags",
    "EC2NodeClass",
    { subnetSelectorTerms: [{ tags: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])) }] },
    "subnetSelectorTerms[0].tags",
  ],
  [
    "subnet id with tags",
    "EC2NodeClass",
    { subnetSelectorTerms: [{ id: "subnet-00000123", tags: { a: "b" } }] },
    "subnetSelectorTerms[0].id",
  ],
  ["malformed subnet id", "EC2NodeClass", { subnetSelectorTerms: [{ id: "sub-0123" }] }, "subnetSelectorTerms[0].id"],
  // EC2 IDs are 8 or 17 lower-case hex digits: the CRD's looser pattern would take these, and they would select nothing
  [
    "subnet id that is no hex",
    "EC2NodeClass",
    { subnetSelectorTerms: [{ id: "subnet-xyz" }] },
    "subnetSelectorTerms[0].id",
  ],
  [
    "upper-case subnet id",
    "EC2NodeClass",
    { subnetSelectorTerms: [{ id: "subnet-0123ABCD" }] },
    "subnetSelectorTerms[0].id",
  ],
  [
    "subnet id of 9 digits",
    "EC2NodeClass",
    { subnetSelectorTerms: [{ id: "subnet-0123abcd0" }] },
    "subnetSelectorTerms[0].id",
  ],
  [
    "security group id that is no hex",
    "EC2NodeClass",
    { securityGroupSelectorTerms: [{ id: "sg-xyz" }] },
    "securityGroupSelectorTerms[0].id",
  ],
  ["no subnet terms", "EC2NodeClass", { subnetSelectorTerms: [] }, "subnetSelectorTerms"],
  [
    "security group name with tags",
    "EC2NodeClass",
    { securityGroupSelectorTerms: [{ name: "nodes", tags: { a: "b" } }] },
    "securityGroupSelectorTerms[0].name",
  ],
  ["empty security group term", "EC2NodeClass", { securityGroupSelectorTerms: [{}] }, "securityGroupSelectorTerms[0]"],
  [
    "restricted tag kubernetes.io/cluster/*",
    "EC2NodeClass",
    { tags: { "kubernetes.io/cluster/demo": "owned" } },
    'tags["kubernetes.io/cluster/demo"]',
  ],
  [
    "restricted tag karpenter.sh/nodeclaim",
    "EC2NodeClass",
    { tags: { "karpenter.sh/nodeclaim": "x" } },
    'tags["karpenter.sh/nodeclaim"]',
  ],
  [
    "restricted tag eks:eks-cluster-name",
    "EC2NodeClass",
    { tags: { "eks:eks-cluster-name": "x" } },
    'tags["eks:eks-cluster-name"]',
  ],
  [
    "two root volumes",
    "EC2NodeClass",
    {
      blockDeviceMappings: [
        { rootVolume: true, ebs: { volumeSize: "20Gi" } },
        { rootVolume: true, ebs: { volumeSize: "20Gi" } },
      ],
    },
    "blockDeviceMappings[1].rootVolume",
  ],
  [
    "EBS without size or snapshot",
    "EC2NodeClass",
    { blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeType: "gp3" } }] },
    "blockDeviceMappings[0].ebs",
  ],
  [
    "volume size in GB",
    "EC2NodeClass",
    { blockDeviceMappings: [{ ebs: { volumeSize: "100GB" } }] },
    "blockDeviceMappings[0].ebs.volumeSize",
  ],
  [
    "unknown volume type",
    "EC2NodeClass",
    { blockDeviceMappings: [{ ebs: { volumeSize: "20Gi", volumeType: "gp4" as any } }] },
    "blockDeviceMappings[0].ebs.volumeType",
  ],
  [
    "initialization rate without snapshot",
    "EC2NodeClass",
    { blockDeviceMappings: [{ ebs: { volumeSize: "20Gi", volumeInitializationRate: 200 } }] },
    "blockDeviceMappings[0].ebs.volumeInitializationRate",
  ],
  [
    "initialization rate of 50",
    "EC2NodeClass",
    { blockDeviceMappings: [{ ebs: { snapshotID: "snap-1", volumeInitializationRate: 50 } }] },
    "blockDeviceMappings[0].ebs.volumeInitializationRate",
  ],
  [
    "unknown eviction signal",
    "EC2NodeClass",
    { kubelet: { evictionHard: { "memory.free": "100Mi" } } },
    'kubelet.evictionHard["memory.free"]',
  ],
  [
    "soft eviction without grace period",
    "EC2NodeClass",
    { kubelet: { evictionSoft: { "memory.available": "5%" } } },
    'kubelet.evictionSoft["memory.available"]',
  ],
  [
    "grace period without soft eviction",
    "EC2NodeClass",
    { kubelet: { evictionSoftGracePeriod: { "memory.available": "1m" } } },
    'kubelet.evictionSoftGracePeriod["memory.available"]',
  ],
  [
    "image GC high not above low",
    "EC2NodeClass",
    { kubelet: { imageGCHighThresholdPercent: 50, imageGCLowThresholdPercent: 50 } },
    "kubelet.imageGCHighThresholdPercent",
  ],
  ["kubeReserved gpu", "EC2NodeClass", { kubelet: { kubeReserved: { gpu: "1" } } }, 'kubelet.kubeReserved["gpu"]'],
  [
    "negative systemReserved",
    "EC2NodeClass",
    { kubelet: { systemReserved: { memory: "-1Gi" } } },
    'kubelet.systemReserved["memory"]',
  ],
  ["negative maxPods", "EC2NodeClass", { kubelet: { maxPods: -1 } }, "kubelet.maxPods"],
  [
    "hop limit 65",
    "EC2NodeClass",
    { metadataOptions: { httpPutResponseHopLimit: 65 } },
    "metadataOptions.httpPutResponseHopLimit",
  ],
  [
    "httpTokens always",
    "EC2NodeClass",
    { metadataOptions: { httpTokens: "always" as any } },
    "metadataOptions.httpTokens",
  ],
  [
    "network interfaces before 1.11",
    "EC2NodeClass",
    { networkInterfaces: [{ deviceIndex: 0, networkCardIndex: 0, interfaceType: "interface" }] },
    "networkInterfaces",
    "1.10.2",
  ],
  [
    "network interfaces without a primary",
    "EC2NodeClass",
    { networkInterfaces: [{ deviceIndex: 1, networkCardIndex: 0, interfaceType: "interface" }] },
    "networkInterfaces",
  ],
  [
    "duplicate network interface",
    "EC2NodeClass",
    {
      networkInterfaces: [
        { deviceIndex: 0, networkCardIndex: 0, interfaceType: "interface" },
        { deviceIndex: 0, networkCardIndex: 0, interfaceType: "efa-only" },
      ],
    },
    "networkInterfaces[0]",
  ],
  [
    "placement group by name and id",
    "EC2NodeClass",
    { placementGroupSelector: { name: "pg", id: "pg-0123" } },
    "placementGroupSelector",
  ],
  ["empty connection tracking", "EC2NodeClass", { connectionTracking: {} }, "connectionTracking"],
  ["udpTimeout of 10 s", "EC2NodeClass", { connectionTracking: { udpTimeout: 10 } }, "connectionTracking.udpTimeout"],
  [
    "cpuOptions before 1.13",
    "EC2NodeClass",
    { cpuOptions: { nestedVirtualization: "enabled" } },
    "cpuOptions",
    "1.12.2",
  ],
  [
    "capacity reservations before 1.3",
    "EC2NodeClass",
    { capacityReservationSelectorTerms: [{ id: "cr-0123" }] },
    "capacityReservationSelectorTerms",
    "1.2.8",
  ],
  [
    "capacity reservation id with owner",
    "EC2NodeClass",
    { capacityReservationSelectorTerms: [{ id: "cr-0123", ownerID: "123456789012" }] },
    "capacityReservationSelectorTerms[0].id",
  ],
  [
    "short owner id",
    "EC2NodeClass",
    { capacityReservationSelectorTerms: [{ ownerID: "123", tags: { a: "b" } }] },
    "capacityReservationSelectorTerms[0].ownerID",
  ],
  ["instance store RAID1", "EC2NodeClass", { instanceStorePolicy: "RAID1" as any }, "instanceStorePolicy"],
  [
    "ssmParameter before 1.4",
    "EC2NodeClass",
    { amiFamily: "AL2023", amiSelectorTerms: [{ ssmParameter: "/aws/x" }] },
    "amiSelectorTerms[0].ssmParameter",
    "1.3.8",
  ],
  [
    "Windows2025 before 1.9",
    "EC2NodeClass",
    { amiFamily: "Windows2025", amiSelectorTerms: [{ tags: { a: "b" } }] },
    "amiFamily",
    "1.8.8",
  ],
  ["ipPrefixCount before 1.8", "EC2NodeClass", { ipPrefixCount: 1 }, "ipPrefixCount", "1.7.6"],
  ["delete timeout in words", "EC2NodeClass", { deleteTimeout: "20 minutes" }, "deleteTimeout"],
  ["misspelt top-level prop", "EC2NodeClass", { subnetSelector: [{ id: "subnet-00000001" }] } as any, "subnetSelector"],
  [
    "empty capacity reservation terms",
    "EC2NodeClass",
    { capacityReservationSelectorTerms: [] },
    "capacityReservationSelectorTerms",
  ],
  [
    "empty capacity reservation terms before 1.14",
    "EC2NodeClass",
    { capacityReservationSelectorTerms: [] },
    "capacityReservationSelectorTerms",
    "1.8.8",
  ],
  ["empty security group terms", "EC2NodeClass", { securityGroupSelectorTerms: [] }, "securityGroupSelectorTerms"],
  [
    "eviction grace period beyond Go's time.Duration",
    "EC2NodeClass",
    {
      kubelet: {
        evictionSoft: { "memory.available": "1Gi" },
        evictionSoftGracePeriod: { "memory.available": "9999999999h" },
      },
    },
    'kubelet.evictionSoftGracePeriod["memory.available"]',
  ],
  ["delete timeout beyond Go's time.Duration", "EC2NodeClass", { deleteTimeout: "3000000h" }, "deleteTimeout"],
  ["null block device mapping", "EC2NodeClass", { blockDeviceMappings: [null as any] }, "blockDeviceMappings[0]"],
  ["null AMI term", "EC2NodeClass", { amiFamily: "AL2023", amiSelectorTerms: [null as any] }, "amiSelectorTerms[0]"],
  ["null subnet term", "EC2NodeClass", { subnetSelectorTerms: [null as any] }, "subnetSelectorTerms[0]"],
  ["null cluster DNS entry", "EC2NodeClass", { kubelet: { clusterDNS: [null as any] } }, "kubelet.clusterDNS[0]"],
  ["kubelet as a string", "EC2NodeClass", { kubelet: "maxPods=110" as any }, "kubelet"],
  [
    "subnet term as a string",
    "EC2NodeClass",
    { subnetSelectorTerms: ["subnet-00000123" as any] },
    "subnetSelectorTerms[0]",
  ],
];

describe("invalid NodePool / EC2NodeClass props are rejected at construction, naming the field", () => {
  test("the table is large enough", () => {
    expect(INVALID.length).toBeGreaterThanOrEqual(40);
    expect(INVALID.filter((c) => c[1] === "NodePool").length).toBeGreaterThanOrEqual(20);
    expect(INVALID.filter((c) => c[1] === "EC2NodeClass").length).toBeGreaterThanOrEqual(20);
  });

  // rows are padded: jest would pass its `done` callback in place of a missing last argument
  test.each(INVALID.map(([w, k, p, f, v]) => [w, k, p, f, v ?? "1.14.1"] as const))(
    "%s (%s)",
    (_what, kind, props, field, version) => {
      // the row's mistake is the first problem (a row may bring a second one, e.g. a misspelt field leaves the right one unset)
      const e = rejection(kind, props, version).problems[0];
      expect(e.field).toBe(field);
      expect(e.path).toBe("test/obj");
      expect(e.message.startsWith(`test/obj: ${field} = `)).toBe(true);
      expect(e.allowed.length).toBeGreaterThan(10);
    },
  );
});

describe("subnet and security group IDs in selector terms", () => {
  test("the message says EC2's shape; 8 and 17 digits are both accepted", () => {
    expect(rejection("EC2NodeClass", { subnetSelectorTerms: [{ id: "subnet-xyz" }] }).message).toBe(
      "test/obj: subnetSelectorTerms[0].id = \"subnet-xyz\" is invalid: a subnet ID: 'subnet-' and 8 or 17 lower-case hex digits, such as subnet-0123abcd [EC2NODECLASS_FORMAT]",
    );
    expect(() =>
      build("EC2NodeClass", {
        subnetSelectorTerms: [{ id: "subnet-0123abcd" }, { id: "subnet-0123456789abcdef0" }],
        securityGroupSelectorTerms: [{ id: "sg-0123456789abcdef0" }],
      }),
    ).not.toThrow();
  });
});

describe("every problem of one object in one error", () => {
  test("NodePool: expireAfter, a limit and weight", () => {
    const e = rejection("NodePool", { expireAfter: "720", limits: { cpu: "lots" }, weight: 101 });
    expect(e.message).toBe(
      [
        "test/obj: 3 problems:",
        `  - test/obj: expireAfter = "720" is invalid: ${DURATION_RULE} [NODEPOOL_FORMAT]`,
        '  - test/obj: limits["cpu"] = "lots" is invalid: a Kubernetes quantity such as "100", "500m" (millicores), "8Gi" or "1.5" [NODEPOOL_NOT_A_QUANTITY]',
        "  - test/obj: weight = 101 is invalid: a whole number from 1 to 100 [NODEPOOL_INTEGER_RANGE]",
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
    const e = thrown(
      () =>
        new NodePool(stack, "gpu-pool", {
          karpenter,
          nodeClass: { name: "gpu" },
          expireAfter: "720",
          limits: { cpu: "lots" },
          disruption: { budgets: [{ nodes: "10%" }, { nodes: "0", schedule: "@daily" }] },
        }),
    );
    const doc = readFileSync(join(__dirname, "..", "..", "docs", "node-objects.md"), "utf8");
    expect(doc).toContain(`\n\`\`\`\n${e.message}\n\`\`\`\n`);
  });

  test("NodePool: an unknown prop, a CRD rule and a rule beyond the CRD together", () => {
    expect(
      messages("NodePool", {
        expireAftr: "720h",
        weight: 0,
        requirements: [req("kubernetes.io/arch", "In", ["x86_64"])],
      } as any),
    ).toEqual([
      'test/obj: expireAftr = "720h" is invalid: not a field of NodePoolProps (an unknown field would be silently dropped); did you mean expireAfter? The known fields are name, requirements, labels, annotations, taints, startupTaints, expireAfter, terminationGracePeriod, limits, disruption, weight, replicas, nodeClass, karpenter, version, kubernetesProvider, dependsOn [NODEPOOL_UNKNOWN_FIELD]',
      "test/obj: weight = 0 is invalid: a whole number from 1 to 100 [NODEPOOL_INTEGER_RANGE]",
      'test/obj: requirements[0].values[0] = "x86_64" is invalid: the Go architecture names Kubernetes uses: "amd64" or "arm64" (the architectures of EC2 instances Karpenter launches) for kubernetes.io/arch: no instance carries "x86_64", so this value matches no instance type; write "amd64" [NODE_REQUIREMENT_VALUE_UNKNOWN]',
    ]);
  });

  test("NodePool: consolidationPolicy, consolidateAfter and a budget", () => {
    expect(
      messages("NodePool", {
        disruption: { consolidationPolicy: "Sometimes" as any, consolidateAfter: "x", budgets: [{ nodes: "200%" }] },
      }),
    ).toEqual([
      'test/obj: disruption.consolidationPolicy = "Sometimes" is invalid: one of "WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced" [NODEPOOL_NOT_IN_ENUM]',
      `test/obj: disruption.consolidateAfter = "x" is invalid: ${DURATION_RULE} [NODEPOOL_FORMAT]`,
      'test/obj: disruption.budgets[0].nodes = "200%" is invalid: a node count ("5") or a percentage from "0%" to "100%", as a string [NODEPOOL_FORMAT]',
    ]);
  });

  test("NodePool: two restricted labels, each on its entry", () => {
    expect(messages("NodePool", { labels: { "karpenter.sh/foo": "x", "karpenter.k8s.aws/bar": "y" } })).toEqual([
      'test/obj: labels["karpenter.sh/foo"] = "x" is invalid: the key "karpenter.sh/foo" may not be used in NodePool labels: label domain "karpenter.sh" is restricted: of its keys only karpenter.sh/capacity-type may be used [NODEPOOL_LABEL_KEY]',
      'test/obj: labels["karpenter.k8s.aws/bar"] = "y" is invalid: the key "karpenter.k8s.aws/bar" may not be used in NodePool labels: label domain "karpenter.k8s.aws" is restricted to the well-known keys Karpenter defines (e.g. karpenter.k8s.aws/instance-category, instance-family, instance-generation, instance-size, instance-cpu, instance-memory) [NODEPOOL_LABEL_KEY]',
    ]);
  });

  test("NodePool: a taint and expireAfter", () => {
    expect(messages("NodePool", { expireAfter: "720", taints: [{ key: "a", effect: "NoSchedul" as any }] })).toEqual([
      'test/obj: taints[0].effect = "NoSchedul" is invalid: one of "NoSchedule", "PreferNoSchedule", "NoExecute" [NODEPOOL_NOT_IN_ENUM]',
      `test/obj: expireAfter = "720" is invalid: ${DURATION_RULE} [NODEPOOL_FORMAT]`,
    ]);
  });

  test("NodePool: the fields of one requirement, taint and budget are checked apart", () => {
    expect(
      messages("NodePool", {
        requirements: [req("karpenter.sh/foo", "Gt", ["a", "b"])],
        taints: [{ key: "bad key", value: "a b", effect: "NoSchedule" }],
        disruption: { budgets: [{ nodes: "0", schedule: "0 25 * * *", duration: "30s" }] },
      }),
    ).toEqual([
      'test/obj: requirements[0].key = "karpenter.sh/foo" is invalid: label domain "karpenter.sh" is restricted: of its keys only karpenter.sh/capacity-type may be used [NODEPOOL_REQUIREMENT_KEY]',
      "test/obj: requirements[0].values = [\"a\",\"b\"] is invalid: exactly one value, a non-negative integer, for operator 'Gt' (NodePool CRD: \"requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value\"); 2 given [NODEPOOL_REQUIREMENT_VALUES]",
      "test/obj: taints[0].key = \"bad key\" is invalid: a taint key: a qualified name [prefix/]name, letters, digits, '-', '_', '.', starting and ending with a letter or digit [NODEPOOL_FORMAT]",
      "test/obj: taints[0].value = \"a b\" is invalid: a taint value matching the CRD pattern: letters, digits, '-', '_', '.', starting and ending with a letter or digit (leave it unset for no value) [NODEPOOL_FORMAT]",
      'test/obj: disruption.budgets[0].schedule = "0 25 * * *" is invalid: a cron schedule in UTC ("0 9 * * mon-fri") or a macro (@daily, @weekly, …): hour field "25": "25" is outside 0-23 [NODEPOOL_BUDGET_SCHEDULE]',
      'test/obj: disruption.budgets[0].duration = "30s" is invalid: hours and/or minutes such as "8h", "30m" or "1h30m" (no seconds: cron has minute resolution) [NODEPOOL_FORMAT]',
    ]);
  });

  test("NodePool: Gt with +3 (the CRD's int() reads it, Karpenter's label-value check does not) is told it is no label value", () => {
    expect(messages("NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gt", ["+3"])] })).toEqual([
      expect.stringContaining('requirements[0].values[0] = "+3" is invalid: a label value: at most 63 characters'),
    ]);
  });
  test.each([["-1"], ["1.5"], ["abc"]])(
    "NodePool: Gt with %s is told it is no non-negative integer (not that it is no label value)",
    (value) => {
      expect(messages("NodePool", { requirements: [req("karpenter.k8s.aws/instance-cpu", "Gt", [value])] })).toEqual([
        `test/obj: requirements[0].values[0] = "${value}" is invalid: exactly one value, a non-negative integer, for operator 'Gt' (NodePool CRD: "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value"), written as a string of digits (e.g. "5") no larger than 9223372036854775807 (the CRD's int()) [NODEPOOL_REQUIREMENT_VALUES]`,
      ]);
    },
  );

  test("NodePool: a static pool's weight and limits", () => {
    expect(messages("NodePool", { replicas: 2, weight: 10, limits: { cpu: "10" } })).toEqual([
      "test/obj: weight = 10 is invalid: unset on a static NodePool (replicas is set): weight ranks NodePools for provisioning, and a static one keeps a fixed number of nodes (NodePool CRD: \"'weight' is not supported on static NodePools\") [NODEPOOL_STATIC]",
      'test/obj: limits["cpu"] = "10" is invalid: unset on a static NodePool (replicas is set): its only limit is limits["nodes"] (NodePool CRD: "only \'limits.nodes\' is supported on static NodePools") [NODEPOOL_STATIC]',
    ]);
  });

  test("EC2NodeClass: alias, role with instance profile, IMDS tokens and a volume size", () => {
    const e = rejection("EC2NodeClass", {
      amiSelectorTerms: [{ alias: "al2023" }],
      role: "r",
      instanceProfile: "p",
      metadataOptions: { httpTokens: "maybe" as any },
      blockDeviceMappings: [{ deviceName: "/dev/xvda", ebs: { volumeSize: "10" } }],
    });
    expect(e.message).toBe(
      [
        "test/obj: 4 problems:",
        `  - test/obj: instanceProfile = "p" is invalid: unset when role is set: role "r" is set too, and a class takes one of them (with a role, Karpenter creates and manages the instance profile; EC2NodeClass CRD: "must specify exactly one of ['role', 'instanceProfile']") [EC2NODECLASS_ROLE_AND_INSTANCE_PROFILE]`,
        `  - test/obj: amiSelectorTerms[0].alias = "al2023" is invalid: an alias of the form family@version, such as al2023@latest or al2023@v20260714 (EC2NodeClass CRD: "'alias' is improperly formatted, must match the format 'family@version'") [EC2NODECLASS_AMI_ALIAS]`,
        '  - test/obj: blockDeviceMappings[0].ebs.volumeSize = "10" is invalid: a size with unit Gi, G, Ti or T such as "100Gi": 1–59000Gi, 1–64000G, 1–64T, and in Ti only 1–17, 20–27, 30–37, 40–47 or 50–58 (the EC2NodeClass CRD\'s pattern for Ti allows no second digit above 7) [EC2NODECLASS_FORMAT]',
        '  - test/obj: metadataOptions.httpTokens = "maybe" is invalid: one of "required", "optional" [EC2NODECLASS_NOT_IN_ENUM]',
      ].join("\n"),
    );
  });

  test("EC2NodeClass: two metadataOptions fields", () => {
    expect(
      messages("EC2NodeClass", { metadataOptions: { httpTokens: "maybe" as any, httpPutResponseHopLimit: 100 } }),
    ).toEqual([
      "test/obj: metadataOptions.httpPutResponseHopLimit = 100 is invalid: a whole number from 1 to 64 [EC2NODECLASS_INTEGER_RANGE]",
      'test/obj: metadataOptions.httpTokens = "maybe" is invalid: one of "required", "optional" [EC2NODECLASS_NOT_IN_ENUM]',
    ]);
  });

  test("EC2NodeClass: evictionSoft and evictionSoftGracePeriod without their partners, in plain words", () => {
    expect(
      messages("EC2NodeClass", {
        kubelet: { evictionSoft: { "memory.available": "10%" }, evictionSoftGracePeriod: { "nodefs.available": "1m" } },
      }),
    ).toEqual([
      'test/obj: kubelet.evictionSoft["memory.available"] = "10%" is invalid: the key "memory.available" has no grace period: a soft eviction threshold needs one, and kubelet.evictionSoftGracePeriod has no entry for "memory.available" (add evictionSoftGracePeriod["memory.available"], e.g. "1m30s"; EC2NodeClass CRD rule on evictionSoft) [EC2NODECLASS_KUBELET_EVICTION]',
      'test/obj: kubelet.evictionSoftGracePeriod["nodefs.available"] = "1m" is invalid: the key "nodefs.available" has no soft eviction threshold: a grace period belongs to one, and kubelet.evictionSoft has no entry for "nodefs.available" (add evictionSoft["nodefs.available"], e.g. "10%", or remove this entry; EC2NodeClass CRD rule on evictionSoftGracePeriod) [EC2NODECLASS_KUBELET_EVICTION]',
    ]);
  });

  test("one problem per field: missing selector terms are reported once each, with the library's message", () => {
    const { stack } = testStack();
    const e = thrown(() => new Ec2NodeClass(stack, "x", { role: "r" })) as KarpenterValidationError;
    expect(e.problems.map((p) => p.message)).toEqual([
      "test/x: subnetSelectorTerms = undefined is invalid: subnet selector terms, or `karpenter` / `cluster` for the default karpenter.sh/discovery tag term [EC2NODECLASS_SELECTOR_TERMS]",
      "test/x: securityGroupSelectorTerms = undefined is invalid: security group selector terms, or `karpenter` / `cluster` for the default karpenter.sh/discovery tag term [EC2NODECLASS_SELECTOR_TERMS]",
    ]);
  });

  test("a check that depends on a rejected field is skipped, the independent ones run", () => {
    // an operator that is none: the rules over values for that operator do not run (x86_64 is not judged as a value of In)
    expect(
      messages("NodePool", { requirements: [req("kubernetes.io/arch", "Equals", ["x86_64"])], weight: 0 }),
    ).toEqual([
      'test/obj: requirements[0].operator = "Equals" is invalid: one of "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte" [NODEPOOL_NOT_IN_ENUM]',
      "test/obj: weight = 0 is invalid: a whole number from 1 to 100 [NODEPOOL_INTEGER_RANGE]",
    ]);
    // requirements that are no list: one problem, not one per rule over them
    expect(messages("NodePool", { requirements: "x" as any, weight: 0 })).toEqual([
      'test/obj: requirements = "x" is invalid: a list of requirements { key, operator, values?, minValues? } [NODEPOOL_REQUIREMENTS]',
      "test/obj: weight = 0 is invalid: a whole number from 1 to 100 [NODEPOOL_INTEGER_RANGE]",
    ]);
    // an amiFamily that is none: no default alias, and no second problem about the missing terms
    expect(
      messages("EC2NodeClass", { amiFamily: "Ubuntu" as any, metadataOptions: { httpTokens: "maybe" as any } }),
    ).toEqual([
      'test/obj: amiFamily = "Ubuntu" is invalid: one of "AL2", "AL2023", "Bottlerocket", "Custom", "Windows2019", "Windows2022", "Windows2025" [EC2NODECLASS_NOT_IN_ENUM]',
      'test/obj: metadataOptions.httpTokens = "maybe" is invalid: one of "required", "optional" [EC2NODECLASS_NOT_IN_ENUM]',
    ]);
    // a volume type that is none: iops is not judged against it
    expect(
      messages("EC2NodeClass", {
        blockDeviceMappings: [
          { deviceName: "/dev/xvda", ebs: { volumeSize: "30Gi", volumeType: "gp9" as any, iops: 3000 } },
        ],
      }),
    ).toEqual([
      'test/obj: blockDeviceMappings[0].ebs.volumeType = "gp9" is invalid: one of "standard", "io1", "io2", "gp2", "sc1", "st1", "gp3" [EC2NODECLASS_NOT_IN_ENUM]',
    ]);
  });
});

describe("EBS iops and throughput only for the volume types EC2 takes them for", () => {
  const ebs = (deviceName: string, e: object) => ({ deviceName, ebs: { volumeSize: "20Gi", ...e } });
  test("iops on gp2 and throughput on gp2 / st1 are rejected, naming the EC2 API rule", () => {
    expect(
      messages("EC2NodeClass", {
        blockDeviceMappings: [
          ebs("/dev/xvda", { volumeType: "gp2", iops: 3000, throughput: 200 }),
          ebs("/dev/xvdb", { volumeType: "st1", volumeSize: "125Gi", throughput: 200 }),
        ],
      }),
    ).toEqual([
      'test/obj: blockDeviceMappings[0].ebs.iops = 3000 is invalid: unset for volumeType "gp2": EC2 takes iops for io1, io2 and gp3 volumes only (EC2 API Reference, EbsBlockDevice: Iops "is not supported for gp2, st1, sc1, or standard volumes"), so every launch with this class fails. Use volumeType "gp3" to provision IOPS, or leave iops unset [EC2NODECLASS_EBS_IOPS]',
      'test/obj: blockDeviceMappings[0].ebs.throughput = 200 is invalid: unset for volumeType "gp2": EC2 takes throughput (MiB/s) for gp3 volumes only (EC2 API Reference, EbsBlockDevice: Throughput "is valid only for gp3 volumes"), so every launch with this class fails. Use volumeType "gp3", or leave throughput unset [EC2NODECLASS_EBS_THROUGHPUT]',
      'test/obj: blockDeviceMappings[1].ebs.throughput = 200 is invalid: unset for volumeType "st1": EC2 takes throughput (MiB/s) for gp3 volumes only (EC2 API Reference, EbsBlockDevice: Throughput "is valid only for gp3 volumes"), so every launch with this class fails. Use volumeType "gp3", or leave throughput unset [EC2NODECLASS_EBS_THROUGHPUT]',
    ]);
    for (const volumeType of ["standard", "sc1", "st1"])
      expect(
        rejection("EC2NodeClass", { blockDeviceMappings: [ebs("/dev/xvda", { volumeType, iops: 500 })] }).field,
      ).toBe("blockDeviceMappings[0].ebs.iops");
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
    expect(
      manifest.manifest.spec.blockDeviceMappings.map((m: any) => [m.ebs.volumeType, m.ebs.iops, m.ebs.throughput]),
    ).toEqual([
      ["gp3", 3000, 250],
      ["io1", 1000, undefined],
      ["io2", 1000, undefined],
      [undefined, 3000, undefined],
    ]);
  });
});
