import * as fs from "fs";
import * as path from "path";
import { App, Fn, TerraformStack, Testing } from "cdktf";
import { Construct } from "constructs";
import { Release } from "@cdktf/provider-helm/lib/release";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { IKarpenterInstallation } from "../../lib/cluster/karpenter-installation";
import { KarpenterValidationError } from "../../lib/core/errors";
import { Ec2NodeClass } from "../../lib/nodes/ec2-node-class";
import { FakeInstallation, providedStack, resources, synthJson, testCluster, testStack, thrown } from "../helpers";

/** The kubernetes_manifest resources of a stack, by their manifest's metadata.name. */
function manifests(stack: TerraformStack): Record<string, any> {
  const out: Record<string, any> = {};
  for (const r of Object.values(resources(synthJson(stack), "kubernetes_manifest"))) out[r.manifest.metadata.name] = r;
  return out;
}

const DISCOVERY = [{ tags: { "karpenter.sh/discovery": "${aws_eks_cluster.karpenter-cluster.name}" } }];

describe("Ec2NodeClass with a Karpenter installation (one line)", () => {
  const { stack } = testStack();
  const karpenter = new FakeInstallation(stack, "karpenter");
  const nc = new Ec2NodeClass(stack, "default", { karpenter });
  const r = manifests(stack).default;

  test("emits a cluster-scoped karpenter.k8s.aws/v1 EC2NodeClass named after the construct id", () => {
    expect(r.manifest.apiVersion).toBe("karpenter.k8s.aws/v1");
    expect(r.manifest.kind).toBe("EC2NodeClass");
    expect(r.manifest.metadata).toEqual({ name: "default" });
    expect(nc.name).toBe("default");
  });

  test("defaults: the node role, discovery-tag subnets and security groups, AL2023 alias; nothing else", () => {
    expect(r.manifest.spec).toEqual({
      amiSelectorTerms: [{ alias: "al2023@latest" }],
      role: "KarpenterNodeRole-demo",
      securityGroupSelectorTerms: DISCOVERY,
      subnetSelectorTerms: DISCOVERY,
    });
    expect(Object.keys(r.manifest.spec)).toEqual([
      "amiSelectorTerms",
      "role",
      "securityGroupSelectorTerms",
      "subnetSelectorTerms",
    ]);
  });

  test("waits 20m on delete (the finalizer holds the class until its nodes are terminated)", () => {
    expect(r.timeouts).toEqual({ delete: "20m" });
  });

  test("is ordered after the controller release in the same stack", () => {
    const releases = Object.keys(resources(synthJson(stack), "helm_release"));
    expect(releases).toHaveLength(1);
    expect(r.depends_on).toEqual([`helm_release.${releases[0]}`]);
  });

  test("keeps the default computed_fields (Karpenter annotates the object with its hash)", () => {
    expect(r.computed_fields).toBeUndefined();
    expect(r.manifest.metadata.namespace).toBeUndefined();
  });

  test("exposes the version it was checked against", () => {
    expect(nc.version).toBe("1.14.1");
  });
});

describe("Ec2NodeClass options", () => {
  function one(props: object, version?: string): any {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", version);
    new Ec2NodeClass(stack, "nc", { karpenter, ...props });
    return Object.values(manifests(stack))[0];
  }

  test("deleteTimeout is configurable", () => {
    expect(one({ deleteTimeout: "1h" }).timeouts).toEqual({ delete: "1h" });
  });

  test("instanceProfile replaces the default role", () => {
    const spec = one({ instanceProfile: "my-profile" }).manifest.spec;
    expect(spec.instanceProfile).toBe("my-profile");
    expect(spec.role).toBeUndefined();
  });

  test("the default alias follows amiFamily", () => {
    expect(one({ amiFamily: "Bottlerocket" }).manifest.spec.amiSelectorTerms).toEqual([
      { alias: "bottlerocket@latest" },
    ]);
    expect(one({ amiFamily: "Windows2022" }).manifest.spec.amiSelectorTerms).toEqual([{ alias: "windows2022@latest" }]);
  });

  test("amiFamily Custom has no default alias", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    expect(() => new Ec2NodeClass(stack, "nc", { karpenter, amiFamily: "Custom" })).toThrow(
      /amiSelectorTerms = undefined is invalid: .*Custom has no EKS-optimized alias/,
    );
  });

  test("every spec field is emitted under its CRD name", () => {
    const props = {
      amiFamily: "AL2023",
      amiSelectorTerms: [{ alias: "al2023@v20250103" }],
      subnetSelectorTerms: [{ id: "subnet-00000a1b" }],
      securityGroupSelectorTerms: [{ name: "nodes" }],
      capacityReservationSelectorTerms: [{ ownerID: "123456789012", instanceMatchCriteria: "targeted" }],
      associatePublicIPAddress: false,
      blockDeviceMappings: [
        {
          deviceName: "/dev/xvda",
          rootVolume: true,
          ebs: {
            volumeSize: "100Gi",
            volumeType: "gp3",
            encrypted: true,
            kmsKeyID: "alias/ebs",
            deleteOnTermination: true,
          },
        },
      ],
      context: "ctx",
      detailedMonitoring: true,
      instanceStorePolicy: "RAID0",
      ipPrefixCount: 2,
      kubelet: { maxPods: 110, systemReserved: { cpu: "100m" }, clusterDNS: ["10.100.0.10"] },
      metadataOptions: { httpTokens: "required", httpPutResponseHopLimit: 2 },
      networkInterfaces: [{ deviceIndex: 0, networkCardIndex: 0, interfaceType: "interface" }],
      placementGroupSelector: { name: "pg" },
      connectionTracking: { tcpEstablishedTimeout: 3600 },
      cpuOptions: { nestedVirtualization: "enabled" },
      tags: { team: "data", "cost-center": "42" },
      userData: "#!/bin/bash\necho hi\n",
    };
    const spec = one(props).manifest.spec;
    expect(spec).toEqual({ ...props, role: "KarpenterNodeRole-demo" });
    // keys sorted at every level, so the JSON is the same whatever order the props were written in
    expect(Object.keys(spec)).toEqual([...Object.keys(spec)].sort());
    expect(Object.keys(spec.tags)).toEqual(["cost-center", "team"]);
  });

  test("the same props in another order give byte-identical JSON", () => {
    const a = testStack();
    const b = testStack();
    new Ec2NodeClass(a.stack, "nc", {
      role: "r",
      subnetSelectorTerms: [{ tags: { b: "2", a: "1" } }],
      securityGroupSelectorTerms: [{ id: "sg-00000001" }],
      tags: { z: "1", a: "2" },
    });
    new Ec2NodeClass(b.stack, "nc", {
      tags: { a: "2", z: "1" },
      securityGroupSelectorTerms: [{ id: "sg-00000001" }],
      subnetSelectorTerms: [{ tags: { a: "1", b: "2" } }],
      role: "r",
    });
    expect(Testing.synth(a.stack)).toBe(Testing.synth(b.stack));
  });

  test("the name defaults to the construct id made DNS-safe", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    expect(new Ec2NodeClass(stack, "GPU Nodes_v2", { karpenter }).name).toBe("gpu-nodes-v2");
  });

  test("a version that differs from the installation's is an error", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter", "1.14.1");
    const e = thrown(() => new Ec2NodeClass(stack, "nc", { karpenter, version: "1.13.1" })) as KarpenterValidationError;
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect(e.field).toBe("version");
    expect(e.value).toBe("1.13.1");
    expect(e.message).toBe(
      'test/nc: version = "1.13.1" is invalid: the same Karpenter version as karpenter.version (1.14.1): the class is checked against the installed Karpenter (leave `version` unset to use it) [KARPENTER_VERSION_MISMATCH]',
    );
    expect(() => new Ec2NodeClass(stack, "same", { karpenter, version: "v1.14.1" })).not.toThrow();
  });

  test("plain-JS callers: a version that is not a string is a validation error, with or without an installation", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    for (const [id, props] of [
      ["with", { karpenter, version: 1.14 }],
      [
        "without",
        {
          role: "r",
          subnetSelectorTerms: [{ id: "subnet-00000001" }],
          securityGroupSelectorTerms: [{ id: "sg-00000001" }],
          version: 1.14,
        },
      ],
    ] as const) {
      const e = thrown(() => new Ec2NodeClass(stack, id, props as any)) as KarpenterValidationError;
      expect(e).toBeInstanceOf(KarpenterValidationError);
      expect(e.field).toBe("version");
      expect(e.value).toBe(1.14);
      expect(e.allowed).toContain('a Karpenter release "MAJOR.MINOR.PATCH"');
    }
  });

  test("spec is the manifest's spec: the defaults are in it, the name is not", () => {
    const { stack } = testStack();
    const nc = new Ec2NodeClass(stack, "nc", {
      name: "gpu",
      role: "r",
      subnetSelectorTerms: [{ id: "subnet-00000001" }],
      securityGroupSelectorTerms: [{ id: "sg-00000001" }],
    });
    expect(nc.spec).not.toHaveProperty("name");
    expect(nc.spec).toEqual(manifests(stack).gpu.manifest.spec);
    expect(nc.spec.amiSelectorTerms).toEqual([{ alias: "al2023@latest" }]);
  });
});

describe("Ec2NodeClass in building-block mode (no installation)", () => {
  test("needs a role or instance profile", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    expect(() => new Ec2NodeClass(stack, "nc", { cluster })).toThrow(
      `test/nc: role = undefined is invalid: the IAM role of the nodes (the Karpenter node role), or instanceProfile instead: one of them is required, and without \`karpenter\` there is no node role to default to (EC2NodeClass CRD: "must specify exactly one of ['role', 'instanceProfile']") [EC2NODECLASS_ROLE_REQUIRED]`,
    );
  });

  test("needs selector terms when no cluster is given", () => {
    const { stack } = testStack();
    expect(() => new Ec2NodeClass(stack, "nc", { role: "r" })).toThrow(
      /test\/nc: subnetSelectorTerms = undefined is invalid/,
    );
  });

  test("takes the discovery tag from `cluster`, checks against the default version and orders with dependsOn", () => {
    const { stack } = testStack();
    const cluster = testCluster(stack);
    const crds = new Release(stack, "crds", { name: "karpenter-crd", chart: "karpenter-crd" });
    const nc = new Ec2NodeClass(stack, "nc", { cluster, role: "my-node-role", dependsOn: [crds] });
    const r = Object.values(manifests(stack))[0];
    expect(r.manifest.spec.subnetSelectorTerms).toEqual([
      { tags: { "karpenter.sh/discovery": "${aws_eks_cluster.cluster.name}" } },
    ]);
    expect(r.manifest.spec.role).toBe("my-node-role");
    expect(r.depends_on).toEqual(["helm_release.crds"]);
    expect(nc.version).toBe("1.15.3");
  });

  test("fields newer than the chosen version are rejected", () => {
    const { stack } = testStack();
    expect(
      () =>
        new Ec2NodeClass(stack, "nc", {
          version: "1.12.2",
          role: "r",
          subnetSelectorTerms: [{ id: "subnet-00000001" }],
          securityGroupSelectorTerms: [{ id: "sg-00000001" }],
          cpuOptions: { nestedVirtualization: "enabled" },
        }),
    ).toThrow(/cpuOptions = .* needs Karpenter 1.13 or later/);
  });
});

describe("Ec2NodeClass in another stack than the controller", () => {
  test("makes its stack depend on the release's stack instead of depends_on", () => {
    const app: App = Testing.app();
    const eks = new TerraformStack(app, "eks");
    const nodes = new TerraformStack(app, "nodes");
    new AwsProvider(eks, "aws", { region: "us-east-1" });
    new HelmProvider(eks, "helm", {});
    new KubernetesProvider(nodes, "kubernetes", {});
    const karpenter = new FakeInstallation(eks, "karpenter");
    new Ec2NodeClass(nodes, "default", { karpenter });
    expect(nodes.dependencies).toEqual([eks]);
    app.synth();
    const out = app.outdir;
    const manifest = JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8"));
    expect(manifest.stacks.nodes.dependencies).toEqual(["eks"]);
    const json = JSON.parse(fs.readFileSync(path.join(out, manifest.stacks.nodes.synthesizedStackPath), "utf8"));
    const r = Object.values(resources(json, "kubernetes_manifest"))[0] as any;
    expect(r.depends_on).toBeUndefined();
    // the cluster name crosses the stacks as a remote-state output
    expect(r.manifest.spec.subnetSelectorTerms[0].tags["karpenter.sh/discovery"]).toMatch(
      /^\$\{data\.terraform_remote_state\.cross-stack-reference-input-eks\.outputs\.[^}]+\}$/,
    );
  });
});

describe("EC2NodeClass names are unique per cluster (checked at synth)", () => {
  test("two classes named default of one installation fail synth, naming both paths", () => {
    const app = Testing.app();
    const stack = providedStack(app, "test");
    const karpenter = new FakeInstallation(stack, "karpenter");
    // as karpenter.addEc2NodeClass("default") next to a class of its own named "default"
    new Ec2NodeClass(karpenter, "node-class-default", { karpenter, name: "default" });
    new Ec2NodeClass(stack, "x", { karpenter, name: "default" });
    expect(() => app.synth()).toThrow(
      'test/x: name = "default" is invalid: a name no other EC2NodeClass on the same cluster has: test/karpenter/node-class-default is EC2NodeClass "default" too (both belong to the Karpenter installation test/karpenter); Kubernetes keeps one EC2NodeClass per name, so the two manifests would overwrite each other at apply. Give one of them another `name` [KUBERNETES_DUPLICATE_NAME]',
    );
  });

  test("without an installation: the same cluster object, or the same literal cluster name, clashes", () => {
    const app = Testing.app();
    const one = providedStack(app, "one");
    const two = providedStack(app, "two");
    new Ec2NodeClass(one, "a", { cluster: testCluster(one, "prod"), role: "r", name: "shared" });
    new Ec2NodeClass(two, "b", { cluster: testCluster(two, "prod"), role: "r", name: "shared" });
    expect(() => app.synth()).toThrow(
      /two\/b: name = "shared" is invalid: .*one\/a is EC2NodeClass "shared" too \(both are for a cluster named "prod"\)/,
    );
  });

  test("an installation's class and a building-block class for its cluster clash", () => {
    const app = Testing.app();
    const stack = providedStack(app, "test");
    const karpenter = new FakeInstallation(stack, "karpenter");
    new Ec2NodeClass(stack, "a", { karpenter });
    new Ec2NodeClass(stack, "b", { cluster: karpenter.cluster, role: "r", name: "a" });
    expect(() => app.synth()).toThrow(
      /test\/b: name = "a" is invalid: .*test\/a is EC2NodeClass "a" too \(both are for the same cluster\)/,
    );
  });

  test("classes of two installations on different clusters, or with different names, are fine", () => {
    const app = Testing.app();
    const a = providedStack(app, "a");
    const b = providedStack(app, "b");
    new Ec2NodeClass(a, "default", { karpenter: new FakeInstallation(a, "karpenter") });
    const kb = new FakeInstallation(b, "karpenter");
    new Ec2NodeClass(b, "default", { karpenter: kb });
    new Ec2NodeClass(b, "other", { karpenter: kb });
    expect(() => app.synth()).not.toThrow();
  });
});

describe("a role other than the installation's node role warns", () => {
  const warnings = (c: Construct) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));

  test("a literal role against a literal node role name", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const other = new Ec2NodeClass(stack, "other", { karpenter, role: "SomeOtherRole" });
    const w = warnings(other);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain(
      'EC2NodeClass other: role "SomeOtherRole" is not the Karpenter node role of test/karpenter "KarpenterNodeRole-demo"',
    );
    expect(w[0]).toContain("iam:PassRole");
    expect(w[0]).toContain("access entry");
    expect(warnings(new Ec2NodeClass(stack, "same", { karpenter, role: "KarpenterNodeRole-demo" }))).toEqual([]);
    expect(warnings(new Ec2NodeClass(stack, "default", { karpenter }))).toEqual([]);
  });

  test("a literal role against the installation's role resource (named after the cluster)", () => {
    const { stack } = testStack();
    class RoleInstallation extends FakeInstallation {
      public readonly roleResource = new IamRole(this, "node-role", {
        name: `KarpenterNodeRole-${this.cluster.clusterName}`,
        assumeRolePolicy: "{}",
      });
    }
    const karpenter = new RoleInstallation(stack, "karpenter");
    const install: IKarpenterInstallation = { ...pick(karpenter), nodeRoleName: karpenter.roleResource.name };
    expect(warnings(new Ec2NodeClass(stack, "same", { karpenter: install, role: "KarpenterNodeRole-demo" }))).toEqual(
      [],
    );
    expect(
      warnings(new Ec2NodeClass(stack, "other", { karpenter: install, role: "KarpenterNodeRole-prod" }))[0],
    ).toContain('not the Karpenter node role of test/karpenter "KarpenterNodeRole-demo"');
  });

  test("a role whose installation's name cannot be known says so", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const install: IKarpenterInstallation = { ...pick(karpenter), nodeRoleName: Fn.lower("ROLE") };
    expect(warnings(new Ec2NodeClass(stack, "x", { karpenter: install, role: "r" }))[0]).toContain(
      "its name is known only at apply; if it is the same role, ignore this",
    );
  });
});

describe("an instanceProfile on a class of an installation warns", () => {
  const warnings = (c: Construct) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));

  test("names the profile, the installation and its node role, and what the profile's role needs", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const w = warnings(
      new Ec2NodeClass(stack, "profile", { karpenter, instanceProfile: "KarpenterNodeInstanceProfile-demo" }),
    );
    expect(w).toHaveLength(1);
    expect(w[0]).toContain(
      'EC2NodeClass profile: instanceProfile "KarpenterNodeInstanceProfile-demo" is used instead of a role, on a class of the Karpenter installation test/karpenter.',
    );
    expect(w[0]).toContain('pass only its node role "KarpenterNodeRole-demo" to EC2 (iam:PassRole');
    expect(w[0]).toContain(
      "must contain a role that has an access entry (type EC2_LINUX) and that the controller can pass",
    );
    expect(w[0]).toContain(
      "Use `role` instead (leave both unset for the node role, the default), or make sure of both yourself.",
    );
  });

  test("a token profile warns too; a class without an installation does not", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const cluster = karpenter.cluster;
    expect(warnings(new Ec2NodeClass(stack, "token", { karpenter, instanceProfile: Fn.lower("P") }))[0]).toContain(
      "instanceProfile (known only at apply) is used instead of a role",
    );
    expect(warnings(new Ec2NodeClass(stack, "alone", { cluster, instanceProfile: "p" }))).toEqual([]);
    expect(warnings(new Ec2NodeClass(stack, "default", { karpenter }))).toEqual([]);
  });
});

/** The installation members of a fake install, as a plain object (to vary one of them). */
function pick(k: FakeInstallation): IKarpenterInstallation {
  return {
    node: k.node,
    cluster: k.cluster,
    version: k.version,
    namespace: k.namespace,
    nodeRoleName: k.nodeRoleName,
    release: k.release,
    createsSpotServiceLinkedRole: k.createsSpotServiceLinkedRole,
  } as IKarpenterInstallation;
}

describe("a literal role must be an IAM role name, as KarpenterNodeRole's roleName", () => {
  test("a name IAM refuses is an error with the node role's message; a role ARN is refused with its name; a token and a good name pass", () => {
    const { stack } = testStack();
    const karpenter = new FakeInstallation(stack, "karpenter");
    const error = thrown(() => new Ec2NodeClass(stack, "bad", { karpenter, role: "bad role!" }));
    expect(error).toBeInstanceOf(KarpenterValidationError);
    expect(error.message).toMatch(
      /role = "bad role!" is invalid: an IAM role name: letters, digits and \+ = , \. @ _ - \[EC2NODECLASS_ROLE_NAME\]$/,
    );
    expect(
      thrown(() => new Ec2NodeClass(stack, "long", { cluster: karpenter.cluster, role: "r".repeat(65) })).message,
    ).toMatch(
      /role = "r{65}" is invalid: at most 64 characters \(got 65\): choose a shorter name \[EC2NODECLASS_ROLE_NAME\]$/,
    );
    expect(stack.node.tryFindChild("bad")).toBeUndefined();
    expect(() => new Ec2NodeClass(stack, "token", { karpenter, role: Fn.lower("ROLE") })).not.toThrow();
    expect(() => new Ec2NodeClass(stack, "good", { karpenter, role: "Team+Nodes=a,b.c@d_e-f" })).not.toThrow();
    expect(
      thrown(
        () =>
          new Ec2NodeClass(stack, "arn", { karpenter, role: "arn:aws:iam::123456789012:role/KarpenterNodeRole-demo" }),
      ).message,
    ).toMatch(
      /role = "arn:aws:iam::123456789012:role\/KarpenterNodeRole-demo" is invalid: the role's name, not its ARN: .*; pass "KarpenterNodeRole-demo" \[EC2NODECLASS_ROLE_ARN\]$/,
    );
  });
});

describe("empty selector terms (Karpenter 1.9.4, 1.14.4 and 1.15.3 ignore them; refused in every version)", () => {
  const base = {
    role: "r",
    subnetSelectorTerms: [{ id: "subnet-00000001" }],
    securityGroupSelectorTerms: [{ id: "sg-00000001" }],
  };
  const problems = (props: Record<string, unknown>, version = "1.15.3") => {
    const e = thrown(() => new Ec2NodeClass(testStack().stack, "nc", { ...base, version, ...props } as any));
    expect(e).toBeInstanceOf(KarpenterValidationError);
    return (e as KarpenterValidationError).message;
  };

  test.each([
    [
      "subnetSelectorTerms[0].tags",
      { subnetSelectorTerms: [{ tags: {} }] },
      /= \{\} is invalid: a tags map with at least one tag: an empty one selects nothing: Karpenter 1\.9\.4, 1\.14\.4, 1\.15\.3 and later ignore the term/,
    ],
    ["securityGroupSelectorTerms[0].tags", { securityGroupSelectorTerms: [{ tags: {} }] }, /selects nothing/],
    [
      "securityGroupSelectorTerms[0].name",
      { securityGroupSelectorTerms: [{ name: "" }] },
      /= "" is invalid: a non-empty name, or leave name unset: an empty name selects nothing/,
    ],
    ["subnetSelectorTerms[0].id", { subnetSelectorTerms: [{ id: "" }] }, /= "" is invalid: a subnet ID/],
    [
      "securityGroupSelectorTerms[0].id",
      { securityGroupSelectorTerms: [{ id: "" }] },
      /= "" is invalid: a security group ID/,
    ],
    ["amiSelectorTerms[0].tags", { amiFamily: "AL2023", amiSelectorTerms: [{ tags: {} }] }, /selects nothing/],
    [
      "amiSelectorTerms[0].name",
      { amiFamily: "AL2023", amiSelectorTerms: [{ owner: "self", name: "" }] },
      /an empty name selects nothing.*to select all of the owner's images, write name: "\*" with the owner/,
    ],
    [
      "amiSelectorTerms[0].ssmParameter",
      { amiFamily: "AL2023", amiSelectorTerms: [{ ssmParameter: "" }] },
      /an empty ssmParameter selects nothing/,
    ],
    ["amiSelectorTerms[0].id", { amiFamily: "AL2023", amiSelectorTerms: [{ id: "" }] }, /= "" is invalid: an AMI ID/],
    [
      "amiSelectorTerms[0]",
      { amiFamily: "AL2023", amiSelectorTerms: [{ owner: "amazon" }] },
      /an owner alone selects no image: name: "\*" beside the owner selects all of its images/,
    ],
    [
      "capacityReservationSelectorTerms[0].tags",
      { capacityReservationSelectorTerms: [{ tags: {} }] },
      /selects nothing/,
    ],
    [
      "capacityReservationSelectorTerms[0].id",
      { capacityReservationSelectorTerms: [{ id: "" }] },
      /= "" is invalid: a capacity reservation ID/,
    ],
  ])("%s", (field, props, message) => {
    for (const version of ["1.15.3", "1.15.2", "1.14.1", "1.9.2"]) {
      const text = problems(props, version);
      expect(text).toContain(`test/nc: ${field} = `);
      expect(text).toMatch(message);
    }
  });

  test("all problems at once, each naming its field", () => {
    const text = problems({ subnetSelectorTerms: [{ tags: {} }], securityGroupSelectorTerms: [{ name: "" }] });
    expect(text).toMatch(/2 problems/);
    expect(text).toContain("subnetSelectorTerms[0].tags = {}");
    expect(text).toContain('securityGroupSelectorTerms[0].name = ""');
  });

  test('look-alikes pass: name: "*" with an owner, name patterns, non-empty tags, an ID', () => {
    const nc = new Ec2NodeClass(testStack().stack, "nc", {
      role: "r",
      version: "1.15.3",
      amiFamily: "AL2023",
      amiSelectorTerms: [
        { owner: "amazon", name: "*" },
        { name: "amazon-eks-node-al2023-*" },
        { tags: { team: "*" } },
        { ssmParameter: "/aws/service/eks/x" },
      ],
      subnetSelectorTerms: [{ tags: { "karpenter.sh/discovery": "demo" } }],
      securityGroupSelectorTerms: [{ name: "eks-cluster-sg-*" }],
      capacityReservationSelectorTerms: [{ tags: { purpose: "ml" } }],
    });
    expect(nc.node.path).toBe("test/nc");
  });
});
