// The pure parts of the Karpenter e2e stage (scripts/e2e/iam-judge.cjs, scripts/e2e/karpenter-stage.cjs),
// which need no built tool: recorded requests parsed as AWS signs them, expanded into the authorization
// requests AWS makes, and judged by a real IAM evaluator against the example's synthesized controller policy.
import { Testing } from "cdktf";
import { buildApp } from "../examples/eks-karpenter/main";
import { synthApp } from "./examples/synth";
const judgeLib = require("../scripts/e2e/iam-judge.cjs");
const stage = require("../scripts/e2e/karpenter-stage.cjs");

const ACCOUNT = "123456789012";
const REGION = "us-east-1";
const CLUSTER = "demo";
const NODE_ROLE = `KarpenterNodeRole-${CLUSTER}`;
const PRINCIPAL = `arn:aws:sts::${ACCOUNT}:assumed-role/KarpenterControllerRole-${CLUSTER}/e2e`;

/** The example's controller policies, with the tokens moto resolves at apply resolved the same way. */
function controllerPolicies(karpenterVersion?: string): { name: string; document: any }[] {
  const env: Record<string, string> = {
    CLUSTER_NAME: CLUSTER,
    AWS_REGION: REGION,
    ...(karpenterVersion ? { KARPENTER_VERSION: karpenterVersion } : {}),
  };
  const eks = JSON.parse(synthApp(buildApp(Testing.app({ stackTraces: false }), env)).eks);
  const queueName = eks.resource.aws_sqs_queue[Object.keys(eks.resource.aws_sqs_queue)[0]].name;
  const resolve = (s: string) =>
    s
      .replace(/\$\{aws_eks_cluster\.cluster\.name\}/g, CLUSTER)
      .replace(/\$\{aws_eks_cluster\.cluster\.arn\}/g, `arn:aws:eks:${REGION}:${ACCOUNT}:cluster/${CLUSTER}`)
      .replace(/\$\{data\.aws_partition\.[^}]+\.partition\}/g, "aws")
      .replace(/\$\{data\.aws_region\.[^}]+\.region\}/g, REGION)
      .replace(/\$\{data\.aws_caller_identity\.[^}]+\.account_id\}/g, ACCOUNT)
      .replace(/\$\{aws_iam_role\.karpenter_node-role[^}]*\.arn\}/g, `arn:aws:iam::${ACCOUNT}:role/${NODE_ROLE}`)
      .replace(/\$\{aws_sqs_queue\.[^}]+\.arn\}/g, `arn:aws:sqs:${REGION}:${ACCOUNT}:${resolve2(queueName)}`);
  const resolve2 = (s: string) => s.replace(/\$\{aws_eks_cluster\.cluster\.name\}/g, CLUSTER);
  const out = Object.values(eks.resource.aws_iam_policy).map((p: any) => ({
    name: resolve2(p.name),
    document: JSON.parse(resolve(p.policy)),
  }));
  for (const p of out) expect(JSON.stringify(p.document)).not.toContain("${");
  return out;
}

/** A request as moto's recorder writes it. */
function recorded(
  service: string,
  body: string | object,
  opts: { target?: string; method?: string; path?: string; key?: string } = {},
) {
  const headers: Record<string, string> = {
    Authorization: `AWS4-HMAC-SHA256 Credential=${opts.key || "ASIACONTROLLER"}/20261201/${REGION}/${service}/aws4_request, SignedHeaders=host, Signature=0`,
    "Content-Type": opts.target ? "application/x-amz-json-1.0" : "application/x-www-form-urlencoded; charset=utf-8",
  };
  if (opts.target) headers["X-Amz-Target"] = opts.target;
  return JSON.stringify({
    headers,
    method: opts.method || "POST",
    url: `http://127.0.0.1:5000${opts.path || "/"}`,
    body: typeof body === "string" ? body : JSON.stringify(body),
    body_encoded: false,
  });
}
const form = (o: Record<string, string>) => new URLSearchParams(o).toString();

const ownedTags = {
  [`kubernetes.io/cluster/${CLUSTER}`]: "owned",
  "karpenter.sh/nodepool": "default",
  "karpenter.k8s.aws/ec2nodeclass": "default",
  "eks:eks-cluster-name": CLUSTER,
};
function tagSpec(prefix: string, type: string, tags: Record<string, string>) {
  const o: Record<string, string> = { [`${prefix}.ResourceType`]: type };
  Object.entries(tags).forEach(([k, v], i) => {
    o[`${prefix}.Tag.${i + 1}.Key`] = k;
    o[`${prefix}.Tag.${i + 1}.Value`] = v;
  });
  return o;
}

/** What a launch and an interruption look like on the wire (the shapes aws-sdk-go-v2 sends). */
function karpenterRecording(clusterTag = CLUSTER): string {
  const tags = { ...ownedTags, [`kubernetes.io/cluster/${clusterTag}`]: "owned" };
  if (clusterTag !== CLUSTER) delete (tags as any)[`kubernetes.io/cluster/${CLUSTER}`];
  const profileTags = {
    [`kubernetes.io/cluster/${CLUSTER}`]: "owned",
    "eks:eks-cluster-name": CLUSTER,
    "topology.kubernetes.io/region": REGION,
    "karpenter.k8s.aws/ec2nodeclass": "default",
  };
  const iamTags = (t: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(t).flatMap(([k, v], i) => [
        [`Tags.member.${i + 1}.Key`, k],
        [`Tags.member.${i + 1}.Value`, v],
      ]),
    );
  return [
    recorded(
      "ec2",
      form({
        Action: "DescribeSubnets",
        Version: "2016-11-15",
        "Filter.1.Name": "tag:karpenter.sh/discovery",
        "Filter.1.Value.1": CLUSTER,
      }),
    ),
    recorded(
      "ssm",
      { Name: "/aws/service/eks/optimized-ami/1.36/amazon-linux-2023/x86_64/standard/recommended/image_id" },
      { target: "AmazonSSM.GetParameter" },
    ),
    recorded("iam", form({ Action: "GetInstanceProfile", Version: "2010-05-08", InstanceProfileName: "demo_123" })),
    recorded(
      "iam",
      form({
        Action: "CreateInstanceProfile",
        Version: "2010-05-08",
        InstanceProfileName: "demo_123",
        Path: "/",
        ...iamTags(profileTags),
      }),
    ),
    recorded(
      "iam",
      form({
        Action: "AddRoleToInstanceProfile",
        Version: "2010-05-08",
        InstanceProfileName: "demo_123",
        RoleName: NODE_ROLE,
      }),
    ),
    recorded(
      "ec2",
      form({
        Action: "CreateLaunchTemplate",
        Version: "2016-11-15",
        LaunchTemplateName: "karpenter.k8s.aws/abc",
        "LaunchTemplateData.ImageId": "ami-760aaa0f",
        "LaunchTemplateData.IamInstanceProfile.Name": "demo_123",
        "LaunchTemplateData.NetworkInterface.1.DeviceIndex": "0",
        "LaunchTemplateData.NetworkInterface.1.SecurityGroupId.1": "sg-1",
        ...tagSpec("LaunchTemplateData.TagSpecification.1", "network-interface", tags),
        ...tagSpec("TagSpecification.1", "launch-template", tags),
      }),
    ),
    recorded(
      "ec2",
      form({
        Action: "CreateFleet",
        Version: "2016-11-15",
        Type: "instant",
        "TargetCapacitySpecification.DefaultTargetCapacityType": "on-demand",
        "LaunchTemplateConfigs.1.LaunchTemplateSpecification.LaunchTemplateName": "karpenter.k8s.aws/abc",
        "LaunchTemplateConfigs.1.LaunchTemplateSpecification.Version": "$Latest",
        "LaunchTemplateConfigs.1.Overrides.1.SubnetId": "subnet-1",
        "LaunchTemplateConfigs.1.Overrides.1.InstanceType": "c6a.large",
        ...tagSpec("TagSpecification.1", "instance", tags),
        ...tagSpec("TagSpecification.2", "volume", tags),
        ...tagSpec("TagSpecification.3", "fleet", tags),
      }),
    ),
    recorded(
      "ec2",
      form({
        Action: "CreateTags",
        Version: "2016-11-15",
        "ResourceId.1": "i-1",
        "Tag.1.Key": "Name",
        "Tag.1.Value": "ip-10-0-0-1",
        "Tag.2.Key": "karpenter.sh/nodeclaim",
        "Tag.2.Value": "default-x",
      }),
    ),
    recorded(
      "sqs",
      { QueueUrl: `http://127.0.0.1:5000/${ACCOUNT}/${CLUSTER}`, MaxNumberOfMessages: 10 },
      { target: "AmazonSQS.ReceiveMessage" },
    ),
    recorded(
      "sqs",
      { QueueUrl: `http://127.0.0.1:5000/${ACCOUNT}/${CLUSTER}`, ReceiptHandle: "r" },
      { target: "AmazonSQS.DeleteMessage" },
    ),
    recorded("ec2", form({ Action: "TerminateInstances", Version: "2016-11-15", "InstanceId.1": "i-1" })),
    recorded(
      "ec2",
      form({ Action: "DeleteLaunchTemplate", Version: "2016-11-15", LaunchTemplateName: "karpenter.k8s.aws/abc" }),
    ),
    recorded("eks", "", { method: "GET", path: `/clusters/${CLUSTER}` }),
    // someone else's request (OpenTofu's fake key): not the controller's, left out
    recorded("ec2", form({ Action: "TerminateInstances", Version: "2016-11-15", "InstanceId.1": "i-9" }), {
      key: "e2e-fake-access-key",
    }),
  ].join("\n");
}

// the evaluator judges each call against every statement: well under a second on an idle machine, but CPU-bound,
// so the 5 s default fails only because the machine is busy (tool builds beside the suite), not because of us
jest.setTimeout(30_000);

describe("IAM judge: recorded requests", () => {
  test("query, JSON and REST requests are parsed with their service, region, principal and parameters", () => {
    const calls = judgeLib.parseRecording(karpenterRecording(), "ASIACONTROLLER");
    expect(calls.map((c: any) => `${c.service}:${c.action}`)).toEqual([
      "ec2:DescribeSubnets",
      "ssm:GetParameter",
      "iam:GetInstanceProfile",
      "iam:CreateInstanceProfile",
      "iam:AddRoleToInstanceProfile",
      "ec2:CreateLaunchTemplate",
      "ec2:CreateFleet",
      "ec2:CreateTags",
      "sqs:ReceiveMessage",
      "sqs:DeleteMessage",
      "ec2:TerminateInstances",
      "ec2:DeleteLaunchTemplate",
      "eks:DescribeCluster",
    ]);
    const fleet = calls.find((c: any) => c.action === "CreateFleet");
    expect(fleet.params.LaunchTemplateConfigs[0].Overrides[0].SubnetId).toBe("subnet-1");
    expect(judgeLib.tagSpecs(fleet.params.TagSpecification).instance["karpenter.sh/nodepool"]).toBe("default");
  });

  test("a CreateFleet is judged as AWS authorizes it: each created and used resource, tags, the instance profile's role", () => {
    const calls = judgeLib.parseRecording(karpenterRecording(), "ASIACONTROLLER");
    const state = new judgeLib.ResourceState({ instances: {} });
    const all = calls.map((c: any) => judgeLib.authorizationRequests(c, { account: ACCOUNT, region: REGION, state }));
    const fleet = all[calls.findIndex((c: any) => c.action === "CreateFleet")].map(
      (r: any) => `${r.action} ${r.resource.replace(/^arn:aws:ec2:us-east-1:(123456789012)?:/, "")}`,
    );
    expect(fleet).toEqual(
      expect.arrayContaining([
        "ec2:CreateFleet fleet/e2e-new-fleet",
        "ec2:RunInstances instance/e2e-new-instance",
        "ec2:CreateFleet volume/e2e-new-volume",
        "ec2:RunInstances network-interface/e2e-new-network-interface",
        "ec2:CreateTags instance/e2e-new-instance",
        "ec2:RunInstances subnet/subnet-1",
        "ec2:CreateFleet security-group/sg-1",
        "ec2:RunInstances image/ami-760aaa0f",
        `iam:PassRole arn:aws:iam::${ACCOUNT}:role/${NODE_ROLE}`,
      ]),
    );
    const lt = all[calls.findIndex((c: any) => c.action === "CreateFleet")].find((r: any) =>
      r.resource.includes(":launch-template/"),
    );
    expect(lt.context[`aws:ResourceTag/kubernetes.io/cluster/${CLUSTER}`]).toBe("owned");
    // the network interface's tags come from the launch template's tag specifications
    const eni = all[calls.findIndex((c: any) => c.action === "CreateFleet")].find((r: any) =>
      r.resource.includes("network-interface"),
    );
    expect(eni.context["aws:RequestTag/karpenter.sh/nodepool"]).toBe("default");
  });

  test("every call of a launch and an interruption is allowed by the synthesized policy; a negative control denies", async () => {
    const policies = controllerPolicies();
    const calls = judgeLib.parseRecording(karpenterRecording(), "ASIACONTROLLER");
    const inventory = { instances: { "i-1": ownedTags } };
    const opts = { account: ACCOUNT, region: REGION, principal: PRINCIPAL, inventory };
    const ok = await judgeLib.judge(calls, policies, opts);
    expect(ok.summary.denied).toEqual([]);
    expect(ok.summary.allowed).toBe(ok.summary.distinct);
    expect(ok.summary.distinct).toBeGreaterThan(20);
    // one statement removed: exactly the calls it covers are denied
    const control = await judgeLib.judge(calls, judgeLib.withoutStatement(policies, "AllowScopedDeletion"), opts);
    expect(control.summary.denied.map((d: any) => d.action).sort()).toEqual([
      "ec2:DeleteLaunchTemplate",
      "ec2:TerminateInstances",
    ]);
    // the negative control the stage runs picks its statement from what allowed the run's calls
    const nc = await stage.negativeControl(calls, policies, opts);
    expect(nc.denied).toBeGreaterThan(0);
    expect(nc.unexpected).toEqual([]);
  });

  test("1.15's node repair by reboot: RebootInstances of a Karpenter instance of this cluster is allowed by the 1.15 policy only", async () => {
    // the stage's runs never record it (the example leaves awsFeatureGates.rebootForRepair off): judged here
    const line = (id: string) =>
      recorded("ec2", form({ Action: "RebootInstances", Version: "2016-11-15", "InstanceId.1": id }));
    const calls = judgeLib.parseRecording([line("i-1"), line("i-2")].join("\n"), "ASIACONTROLLER");
    const inventory = {
      instances: {
        "i-1": ownedTags,
        "i-2": { "kubernetes.io/cluster/other": "owned", "karpenter.sh/nodepool": "default" },
      },
    };
    const opts = { account: ACCOUNT, region: REGION, principal: PRINCIPAL, inventory };
    const at115 = await judgeLib.judge(calls, controllerPolicies("1.15.0"), opts);
    expect(at115.distinct.map((d: any) => [d.resource.split("/").pop(), d.result])).toEqual([
      ["i-1", "Allowed"],
      ["i-2", "ImplicitlyDenied"],
    ]);
    expect(at115.distinct[0].allowedBy).toEqual(["AllowScopedDeletion"]);
    const at114 = await judgeLib.judge(calls, controllerPolicies("1.14.1"), opts);
    expect(at114.summary.allowed).toBe(0);
  });

  test("a launch tagged for another cluster is denied (conditions are evaluated, not just actions)", async () => {
    const calls = judgeLib.parseRecording(karpenterRecording("other"), "ASIACONTROLLER");
    const res = await judgeLib.judge(calls, controllerPolicies(), {
      account: ACCOUNT,
      region: REGION,
      principal: PRINCIPAL,
      inventory: { instances: { "i-1": { "kubernetes.io/cluster/other": "owned" } } },
    });
    const denied = new Set(res.summary.denied.map((d: any) => d.action));
    expect([...denied].sort()).toEqual(
      expect.arrayContaining([
        "ec2:CreateFleet",
        "ec2:CreateLaunchTemplate",
        "ec2:RunInstances",
        "ec2:TerminateInstances",
      ]),
    );
  });

  test("a request to another region is denied where the policy pins aws:RequestedRegion", async () => {
    const line = recorded("ec2", form({ Action: "DescribeInstances", Version: "2016-11-15" })).replace(
      `/${REGION}/`,
      "/eu-west-1/",
    );
    const res = await judgeLib.judge(judgeLib.parseRecording(line), controllerPolicies(), {
      account: ACCOUNT,
      region: REGION,
      principal: PRINCIPAL,
    });
    expect(res.summary.denied.map((d: any) => d.action)).toEqual(["ec2:DescribeInstances"]);
  });
});

describe("IAM judge: ARC Zonal Shift and the policies in force per call", () => {
  const arn = `arn:aws:eks:${REGION}:${ACCOUNT}:cluster/${CLUSTER}`;
  const zonal = (cluster: string) =>
    recorded("arc-zonal-shift", "", {
      method: "GET",
      path: `/managedresources/${encodeURIComponent(`arn:aws:eks:${REGION}:${ACCOUNT}:cluster/${cluster}`)}`,
    });
  // the getting-started template's statement (1.13+: Resource "*", the cluster as a condition)
  const zonalPolicy = {
    name: "ZonalShift",
    document: {
      Version: "2012-10-17",
      Statement: [
        {
          Sid: "AllowZonalShiftStatusReadOnly",
          Effect: "Allow",
          Resource: "*",
          Action: ["arc-zonal-shift:GetManagedResource"],
          Condition: { StringEquals: { "arc-zonal-shift:ResourceIdentifier": arn } },
        },
      ],
    },
  };

  test("GetManagedResource is judged with the cluster as arc-zonal-shift:ResourceIdentifier", async () => {
    const calls = judgeLib.parseRecording([zonal(CLUSTER), zonal("other")].join("\n"));
    expect(calls.map((c: any) => [c.action, c.params.resourceIdentifier])).toEqual([
      ["GetManagedResource", arn],
      ["GetManagedResource", arn.replace(/demo$/, "other")],
    ]);
    const res = await judgeLib.judge(calls, [zonalPolicy], { account: ACCOUNT, region: REGION, principal: PRINCIPAL });
    expect(res.calls.map((c: any) => c.allowed)).toEqual([true, false]);
  });

  test("policiesOf judges each call against the policies in force when it was made", async () => {
    const calls = judgeLib.parseRecording([zonal(CLUSTER), zonal(CLUSTER)].join("\n"));
    const res = await judgeLib.judge(calls, [], {
      account: ACCOUNT,
      region: REGION,
      principal: PRINCIPAL,
      policiesOf: (c: any) =>
        c === calls[0] ? { id: "before", policies: [zonalPolicy] } : { id: "after", policies: [] },
    });
    expect(res.calls.map((c: any) => c.allowed)).toEqual([true, false]);
    expect(res.summary.denied.map((d: any) => d.phase)).toEqual(["after"]);
  });
});

describe("IAM judge: resource policies the emulator does not evaluate", () => {
  const eks = () =>
    JSON.parse(
      synthApp(buildApp(Testing.app({ stackTraces: false }), { CLUSTER_NAME: CLUSTER, AWS_REGION: REGION })).eks,
    );
  const arn = `arn:aws:eks:${REGION}:${ACCOUNT}:cluster/${CLUSTER}`;

  test("the controller role's trust policy admits Pod Identity for kube-system/karpenter only", async () => {
    const role: any = Object.values(eks().resource.aws_iam_role).find((r: any) =>
      String(r.assume_role_policy).includes("pods.eks.amazonaws.com"),
    );
    const trust = JSON.parse(role.assume_role_policy.replace(/\$\{aws_eks_cluster\.cluster\.arn\}/g, arn));
    const res = await judgeLib.judgeTrustPolicy(
      trust,
      `arn:aws:iam::${ACCOUNT}:role/KarpenterControllerRole-${CLUSTER}`,
      { account: ACCOUNT, clusterArn: arn, namespace: "kube-system", serviceAccount: "karpenter" },
    );
    expect(res.map((c: any) => [c.case, c.result === c.want])).toEqual(res.map((c: any) => [c.case, true]));
  });

  test("the queue policy lets EventBridge deliver over TLS only", async () => {
    const stack = eks();
    const q = `arn:aws:sqs:${REGION}:${ACCOUNT}:${CLUSTER}`;
    const policy = JSON.parse(
      (Object.values(stack.resource.aws_sqs_queue_policy)[0] as any).policy.replace(
        /\$\{aws_sqs_queue\.[^}]+\.arn\}/g,
        q,
      ),
    );
    const res = await judgeLib.judgeQueuePolicy(policy, q, [`arn:aws:events:${REGION}:${ACCOUNT}:rule/spot`], ACCOUNT);
    expect(res.every((c: any) => c.result === c.want)).toBe(true);
  });

  test("a DeleteLaunchTemplate by id carries the tags the template was created with", () => {
    const calls = judgeLib.parseRecording(
      [
        recorded(
          "ec2",
          form({
            Action: "CreateLaunchTemplate",
            Version: "2016-11-15",
            LaunchTemplateName: "karpenter.k8s.aws/abc",
            ...tagSpec("TagSpecification.1", "launch-template", ownedTags),
          }),
        ),
        recorded("ec2", form({ Action: "DeleteLaunchTemplate", Version: "2016-11-15", LaunchTemplateId: "lt-0123" })),
      ].join("\n"),
    );
    const state = new judgeLib.ResourceState({ launchTemplates: { "karpenter.k8s.aws/abc": { ids: ["lt-0123"] } } });
    const reqs = calls.map((c: any) => judgeLib.authorizationRequests(c, { account: ACCOUNT, region: REGION, state }));
    expect(reqs[1][0].resource).toBe(`arn:aws:ec2:${REGION}:${ACCOUNT}:launch-template/lt-0123`);
    expect(reqs[1][0].context[`aws:ResourceTag/kubernetes.io/cluster/${CLUSTER}`]).toBe("owned");
  });
});

describe("Karpenter stage: pure parts", () => {
  test("the controller's environment is the Deployment's, with the e2e endpoints laid over it", () => {
    const deployment = {
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: "controller",
                env: [
                  { name: "CLUSTER_NAME", value: CLUSTER },
                  { name: "INTERRUPTION_QUEUE", value: CLUSTER },
                  { name: "SYSTEM_NAMESPACE", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
                  {
                    name: "MEMORY_LIMIT",
                    valueFrom: {
                      resourceFieldRef: { containerName: "controller", divisor: "0", resource: "limits.memory" },
                    },
                  },
                  {
                    name: "CPU_REQUESTS",
                    valueFrom: {
                      resourceFieldRef: { containerName: "controller", divisor: "1m", resource: "requests.cpu" },
                    },
                  },
                  { name: "KARPENTER_SERVICE", value: "karpenter" },
                ],
                resources: { limits: { memory: "512Mi" }, requests: { cpu: "500m", memory: "512Mi" } },
              },
            ],
          },
        },
      },
      metadata: { namespace: "kube-system" },
    };
    const { env, fromDeployment } = stage.controllerEnv(deployment, { AWS_ENDPOINT_URL: "http://127.0.0.1:1" });
    expect(env.CLUSTER_NAME).toBe(CLUSTER);
    expect(env.INTERRUPTION_QUEUE).toBe(CLUSTER);
    expect(env.SYSTEM_NAMESPACE).toBe("kube-system");
    expect(env.MEMORY_LIMIT).toBe("536870912");
    expect(env.CPU_REQUESTS).toBe("500");
    expect(env.AWS_ENDPOINT_URL).toBe("http://127.0.0.1:1");
    expect(fromDeployment).toEqual([
      "CLUSTER_NAME",
      "INTERRUPTION_QUEUE",
      "SYSTEM_NAMESPACE",
      "MEMORY_LIMIT",
      "CPU_REQUESTS",
      "KARPENTER_SERVICE",
    ]);
  });

  test("a NodeClaim's requirements are held against the NodePool's", () => {
    const pool = {
      spec: {
        template: {
          spec: {
            requirements: [
              { key: "kubernetes.io/arch", operator: "In", values: ["amd64"] },
              { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["5"] },
            ],
          },
        },
      },
    };
    const claim = (arch: string[], gen: string[]) => ({
      spec: {
        requirements: [
          { key: "kubernetes.io/arch", operator: "In", values: arch },
          { key: "karpenter.k8s.aws/instance-generation", operator: "In", values: gen },
        ],
      },
    });
    expect(stage.claimSatisfiesPool(claim(["amd64"], ["6", "7"]), pool)).toEqual([]);
    expect(stage.claimSatisfiesPool(claim(["amd64", "arm64"], ["6"]), pool)).toEqual([
      "kubernetes.io/arch: arm64 not In [amd64]",
    ]);
    expect(stage.claimSatisfiesPool(claim(["amd64"], ["5"]), pool)).toEqual([
      "karpenter.k8s.aws/instance-generation: 5 not Gt 5",
    ]);
  });

  describe("which release runs", () => {
    // versions.txt as the stage reads it: a row per minor, a note for the patches whose controller cannot be built
    const versionsText = [
      "# - 1.15.1 and 1.15.2 are blocked: they require sigs.k8s.io/karpenter v1.15.1 / v1.15.2, which the proxy",
      "#   refuses (403 Forbidden).",
      "# - 1.15.10 builds fine.",
      "karpenter-1.14 github.com/aws/karpenter-provider-aws v1.14.1 x controller 1.14.1",
    ].join("\n");
    const tools = { "karpenter-1.14": { version: "v1.14.1" }, "karpenter-1.15": { version: "v1.15.0" } };

    test("a release with its own controller runs as itself", () => {
      expect(stage.selectRelease("1.14.1", tools, versionsText)).toMatchObject({
        run: "1.14.1",
        substitute: false,
        tool: "karpenter-1.14",
      });
      expect(stage.selectRelease("1.15.0", tools, versionsText)).toMatchObject({
        run: "1.15.0",
        substitute: false,
        tool: "karpenter-1.15",
      });
    });

    test("a blocked release runs as the built patch of its minor, saying why", () => {
      const sel = stage.selectRelease("1.15.2", tools, versionsText);
      expect(sel).toMatchObject({ requested: "1.15.2", run: "1.15.0", substitute: true, tool: "karpenter-1.15" });
      expect(sel.why).toBe(
        "1.15.1 and 1.15.2 are blocked: they require sigs.k8s.io/karpenter v1.15.1 / v1.15.2, which the proxy refuses (403 Forbidden).",
      );
    });

    test("a release nobody recorded as blocked is not stood in for: it needs its own row", () => {
      const sel = stage.selectRelease("1.14.3", tools, versionsText);
      expect(sel.run).toBeUndefined();
      expect(sel.why).toMatch(/karpenter-1\.14 row builds v1\.14\.1, not v1\.14\.3/);
      // 1.15.10 is named by a note, but not as blocked (and 1.15.1's note does not name 1.15.10)
      expect(stage.selectRelease("1.15.10", tools, versionsText).run).toBeUndefined();
    });

    test("the real versions.txt: the default 1.15.3 runs as 1.15.0 and 1.14.4 as 1.14.1, each saying the proxy refuses its modules", () => {
      const real = require("fs").readFileSync(
        require("path").join(__dirname, "..", "scripts", "tools", "versions.txt"),
        "utf8",
      );
      const d = stage.selectRelease(require("../lib/versions").DEFAULT_RELEASE, tools, real);
      expect(d).toMatchObject({ requested: "1.15.3", run: "1.15.0", substitute: true });
      expect(d.why).toMatch(
        /^1\.15\.3 \(the library's default\) is blocked: the proxy serves neither github\.com\/aws\/karpenter-provider-aws@v1\.15\.3 nor sigs\.k8s\.io\/karpenter@v1\.15\.3 .*403 Forbidden/,
      );
      const lts = stage.selectRelease("1.14.4", tools, real);
      expect(lts).toMatchObject({ run: "1.14.1", substitute: true });
      expect(lts.why).toMatch(/^1\.14\.4 is blocked: /);
      expect(stage.selectRelease("1.15.2", tools, real)).toMatchObject({ run: "1.15.0", substitute: true });
    });

    test("a minor without a row runs nothing, blocked or not", () => {
      expect(stage.selectRelease("1.13.1", tools, versionsText)).toMatchObject({
        run: undefined,
        why: "scripts/tools/versions.txt has no karpenter-1.13 row",
      });
      expect(stage.selectRelease("1.15.2", { "karpenter-1.14": tools["karpenter-1.14"] }, versionsText)).toMatchObject({
        run: undefined,
        substitute: false,
      });
    });

    test("two syntheses of the app differ only in the release string, or the difference is named", () => {
      const at = (v: string, policy = "p") => ({
        eks: { helm_release: { k: { version: v, values: [`image: v${v}`] } }, aws_iam_policy: { c: { policy } } },
      });
      expect(stage.releaseDiff(at("1.15.2"), at("1.15.0"), "1.15.2", "1.15.0")).toEqual({ diffs: [], count: 2 });
      expect(stage.releaseDiff(at("1.15.2", "q"), at("1.15.0"), "1.15.2", "1.15.0").diffs).toEqual([
        'eks.aws_iam_policy.c.policy: "q" vs "p"',
      ]);
      // a stack only one of them has is a difference too
      expect(stage.releaseDiff({ ...at("1.15.2"), extra: {} }, at("1.15.0"), "1.15.2", "1.15.0").diffs).toEqual([
        "extra: {} vs null",
      ]);
    });
  });

  test("the broken inputs of the stage's self-test each name the check they must fail", () => {
    expect(Object.keys(stage.BREAKS).sort()).toEqual(["node-role", "queue-target"]);
    for (const b of Object.values(stage.BREAKS) as any[]) expect(typeof b.check).toBe("string");
  });
});

describe("moto launcher: CreateFleet's overrides in price order (EC2's lowest-price)", () => {
  // fleet_order.py imports no moto, so the machine's python3 runs it (moto's virtualenv is built in the background
  // by the tool build, which a fresh machine has not finished when the tests run)
  test("the cheapest override first, configs and overrides renumbered", () => {
    const script = `
import importlib.util, json, sys
from urllib.parse import urlencode, parse_qsl
spec = importlib.util.spec_from_file_location("fo", sys.argv[1]); ml = importlib.util.module_from_spec(spec); spec.loader.exec_module(ml)
ml._PRICES = {"c8a.xlarge": 0.2155, "c5a.xlarge": 0.154, "m5.xlarge": 0.192, "c6a.xlarge": 0.153}
body = urlencode([("Action", "CreateFleet"),
  ("LaunchTemplateConfigs.1.LaunchTemplateSpecification.LaunchTemplateName", "a"),
  ("LaunchTemplateConfigs.1.Overrides.1.InstanceType", "c8a.xlarge"), ("LaunchTemplateConfigs.1.Overrides.1.SubnetId", "s1"),
  ("LaunchTemplateConfigs.1.Overrides.2.InstanceType", "c5a.xlarge"),
  ("LaunchTemplateConfigs.2.LaunchTemplateSpecification.LaunchTemplateName", "b"),
  ("LaunchTemplateConfigs.2.Overrides.1.InstanceType", "m5.xlarge"),
  ("LaunchTemplateConfigs.2.Overrides.2.InstanceType", "c6a.xlarge"), ("LaunchTemplateConfigs.2.Overrides.2.SubnetId", "s4")]).encode()
print(json.dumps(dict(parse_qsl(ml.cheapest_first(body).decode()))))
`;
    const r = require("child_process").spawnSync(
      "python3",
      ["-c", script, require("path").join(__dirname, "..", "scripts/e2e/fleet_order.py")],
      {
        encoding: "utf8",
      },
    );
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout);
    // the cheapest (c6a.xlarge, config 2 override 2) is now config 1 override 1, with its own subnet
    expect(out["LaunchTemplateConfigs.1.LaunchTemplateSpecification.LaunchTemplateName"]).toBe("b");
    expect(out["LaunchTemplateConfigs.1.Overrides.1.InstanceType"]).toBe("c6a.xlarge");
    expect(out["LaunchTemplateConfigs.1.Overrides.1.SubnetId"]).toBe("s4");
    expect(out["LaunchTemplateConfigs.1.Overrides.2.InstanceType"]).toBe("m5.xlarge");
    expect(out["LaunchTemplateConfigs.2.LaunchTemplateSpecification.LaunchTemplateName"]).toBe("a");
    expect(out["LaunchTemplateConfigs.2.Overrides.1.InstanceType"]).toBe("c8a.xlarge");
  });
});

describe("the stand-in garbage collector (World) deletes a NodeClaim only when its NodePool is confirmed gone", () => {
  const claim = (name: string, uid: string) => ({
    metadata: { name, ownerReferences: [{ kind: "NodePool", name: "default", uid }] },
    status: {},
  });
  /** A fake API server: NodeClaims `claims`, the NodePool read answered by `pool`; records each DELETE. */
  function world(pool: { status: number; body?: any }) {
    const deleted: string[] = [];
    const k = async (method: string, url: string) => {
      if (method === "DELETE") {
        deleted.push(url.split("/").pop()!);
        return { status: 200, body: {} };
      }
      if (url === "/apis/karpenter.sh/v1/nodeclaims")
        return { status: 200, body: { items: [claim("c-old-uid", "u1"), claim("c-same", "u2")] } };
      if (url === "/apis/karpenter.sh/v1/nodepools/default") return pool;
      if (url.startsWith("/apis/apps/v1/namespaces/default/deployments/inflate")) return { status: 404, body: {} };
      return { status: 200, body: { items: [] } };
    };
    const w = new stage.World(k, { replicas: 0, clusterName: "demo" });
    return { w, deleted };
  }

  test("an error answer (the CRD being replaced: its storage reinitializing) deletes nothing and is counted", async () => {
    const { w, deleted } = world({
      status: 429,
      body: { kind: "Status", reason: "TooManyRequests", message: "storage is (re)initializing" },
    });
    await w.reconcile();
    expect(deleted).toEqual([]);
    expect(w.unanswered).toEqual({ 429: 2 });
  });

  test("a 404 that does not name the NodePool (the resource type not served) deletes nothing", async () => {
    const { w, deleted } = world({ status: 404, body: { kind: "Status", reason: "NotFound", details: {} } });
    await w.reconcile();
    expect(deleted).toEqual([]);
    expect(w.unanswered).toEqual({ 404: 2 });
  });

  test("a NotFound naming the NodePool deletes its NodeClaims, and records them", async () => {
    const { w, deleted } = world({
      status: 404,
      body: { kind: "Status", reason: "NotFound", details: { name: "default", kind: "nodepools" } },
    });
    await w.reconcile();
    expect(deleted).toEqual(["c-old-uid", "c-same"]);
    expect(w.collected.map((c: any) => [c.claim, c.pool, c.status])).toEqual([
      ["c-old-uid", "default", 404],
      ["c-same", "default", 404],
    ]);
  });

  test("a NodePool replaced under the same name (a new uid) takes the old one's NodeClaims only", async () => {
    const { w, deleted } = world({ status: 200, body: { metadata: { name: "default", uid: "u2" } } });
    await w.reconcile();
    expect(deleted).toEqual(["c-old-uid"]);
    expect(w.unanswered).toEqual({});
  });
});
