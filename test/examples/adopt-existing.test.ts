import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { App, Testing } from "cdktf";
import { buildApp, compactValidationMessage } from "../../examples/adopt-existing/main";
import { synthApp } from "./synth";
import { validateApp } from "../../lib/install/validate-app";
import { fakeTerraform } from "../adopt/fake-terraform";

/** Both stacks of the example for a getting-started install of cluster `prod` running `version`. */
function synth(version: string, terraform = "1.6.0"): Record<string, any> {
  const restore = fakeTerraform(terraform);
  try {
    const stacks = synthApp(
      buildApp(Testing.app(), { CLUSTER_NAME: "prod", AWS_REGION: "eu-west-1", KARPENTER_VERSION: version }),
    );
    return Object.fromEntries(Object.entries(stacks).map(([k, v]) => [k, JSON.parse(v)]));
  } finally {
    restore();
  }
}

/** `type.name` of every resource of the stack, with the ID it is imported from (undefined: created). */
function plan(stack: any): Map<string, string | undefined> {
  const imports = new Map<string, string>((stack.import ?? []).map((i: any) => [i.to, i.id]));
  const out = new Map<string, string | undefined>();
  for (const [type, byName] of Object.entries<any>(stack.resource))
    for (const name of Object.keys(byName)) out.set(`${type}.${name}`, imports.get(`${type}.${name}`));
  return out;
}

const created = (p: Map<string, string | undefined>, type: string) =>
  [...p].filter(([a, id]) => a.startsWith(`${type}.`) && id === undefined).map(([a]) => a);
const imported = (p: Map<string, string | undefined>, type: string) =>
  [...p]
    .filter(([a, id]) => a.startsWith(`${type}.`) && id !== undefined)
    .map(([, id]) => id!.replace(/\$\{[^}]+\}/g, "…"));

describe.each<[string, number, string[]]>([
  ["1.8.8", 4, ["KarpenterControllerPolicy-prod"]],
  [
    "1.12.2",
    5,
    ["NodeLifecycle", "IAMIntegration", "EKSIntegration", "Interruption", "ZonalShift", "ResourceDiscovery"].map(
      (g) => `KarpenterController${g}Policy-prod`,
    ),
  ],
])("example: adopting the getting-started install of Karpenter %s", (version, rules, upstreamPolicies) => {
  const { karpenter, nodes } = synth(version);
  const p = plan(karpenter);

  test("every resource whose name the install has is imported under that name; nothing that exists is created again", () => {
    expect(created(p, "aws_iam_role")).toEqual([]);
    expect(imported(p, "aws_iam_role").sort()).toEqual(["KarpenterNodeRole-prod", "prod-karpenter"]);
    expect(created(p, "aws_sqs_queue")).toEqual([]);
    expect(created(p, "aws_sqs_queue_policy")).toEqual([]);
    expect(imported(p, "aws_sqs_queue")).toEqual(["https://sqs.….…/…/prod"]);
    expect(imported(p, "aws_eks_pod_identity_association")).toEqual(["prod,…"]);
    const nodePolicies = [
      "AmazonEKS_CNI_Policy",
      "AmazonEKSWorkerNodePolicy",
      "AmazonEC2ContainerRegistryPullOnly",
      "AmazonSSMManagedInstanceCore",
    ];
    expect(
      imported(p, "aws_iam_role_policy_attachment")
        .filter((id) => id.startsWith("KarpenterNodeRole-prod/"))
        .sort(),
    ).toEqual(nodePolicies.map((n) => `KarpenterNodeRole-prod/arn:…:iam::aws:policy/${n}`).sort());
    // each policy upstream attached to eksctl's role: imported as a policy (same name) or as the attachment that replaces it
    expect(
      imported(p, "aws_iam_role_policy_attachment")
        .filter((id) => id.startsWith("prod-karpenter/"))
        .sort(),
    ).toEqual(upstreamPolicies.map((n) => `prod-karpenter/arn:…:iam::…:policy/${n}`).sort());
    const policies = imported(p, "aws_iam_policy");
    expect(policies.sort()).toEqual(
      upstreamPolicies[0] === "KarpenterControllerPolicy-prod"
        ? []
        : upstreamPolicies.map((n) => `arn:…:iam::…:policy/${n}`).sort(),
    );
    // what the install has no name for: eksctl mapped the node role in aws-auth (no entry), CloudFormation generated the rule names
    expect(created(p, "aws_eks_access_entry")).toHaveLength(1);
    expect(created(p, "aws_cloudwatch_event_rule")).toHaveLength(rules);
  });

  test("the releases adopt in place and the guide's default NodePool and EC2NodeClass are imported", () => {
    const releases = Object.values<any>(karpenter.resource.helm_release);
    expect(releases.find((r) => r.chart === "karpenter")).toMatchObject({
      name: "karpenter",
      namespace: "kube-system",
      upgrade_install: true,
      version,
    });
    expect(releases.find((r) => r.chart === "karpenter-crd")).toMatchObject({
      upgrade_install: true,
      take_ownership: true,
      version,
    });
    expect(nodes.import.map((i: any) => i.id).sort()).toEqual([
      "apiVersion=karpenter.k8s.aws/v1,kind=EC2NodeClass,name=default",
      "apiVersion=karpenter.sh/v1,kind=NodePool,name=default",
    ]);
    // the fields the guide's kubectl apply wrote become the app's: a later alias change must not fail with a
    // field manager conflict (the e2e day-2 stage's drift step met it live)
    for (const m of Object.values<any>(nodes.resource.kubernetes_manifest))
      expect(m.field_manager).toEqual({ force_conflicts: true });
  });

  test("the association ID is a Terraform variable, so synth needs no AWS access", () => {
    expect(karpenter.variable.karpenter_pod_identity_association_id).toMatchObject({ type: "string" });
  });
});

test("example: synth refuses a Terraform without expression IDs in import blocks (before 1.6)", () => {
  expect(() => synth("1.14.1", "1.5.7")).toThrow(
    /terraform version 1\.5\.7 is lower than the required version >=1\.6 for this construct\. adopt: the import IDs are expressions/,
  );
});

describe("example: the guide's pinned AMI alias", () => {
  const nodeClassOf = (env: Record<string, string>) => {
    const restore = fakeTerraform("1.6.0");
    try {
      const app = buildApp(Testing.app(), {
        CLUSTER_NAME: "prod",
        AWS_REGION: "eu-west-1",
        KARPENTER_VERSION: "1.8.8",
        ...env,
      });
      const warnings = validateApp(app).warnings.filter((w) => w.message.startsWith("ALIAS_VERSION"));
      const nodes = JSON.parse(synthApp(app).nodes);
      const manifest = Object.values<any>(nodes.resource.kubernetes_manifest).find(
        (m) => m.manifest.kind === "EC2NodeClass",
      );
      return { alias: manifest.manifest.spec.amiSelectorTerms, warnings };
    } finally {
      restore();
    }
  };

  test("ALIAS_VERSION keeps the imported EC2NodeClass on the guide's AMI, without a warning", () => {
    expect(nodeClassOf({ ALIAS_VERSION: "v20240817" })).toEqual({
      alias: [{ alias: "al2023@v20240817" }],
      warnings: [],
    });
  });

  test("unset: al2023@latest, and synth warns that nodes on another AMI are replaced", () => {
    const { alias, warnings } = nodeClassOf({});
    expect(alias).toEqual([{ alias: "al2023@latest" }]);
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringContaining("Karpenter replaces every node whose AMI differs (drift)"),
    ]);
  });

  test("a malformed ALIAS_VERSION is refused at synth (no SSM parameter has it)", () => {
    expect(() => nodeClassOf({ ALIAS_VERSION: "20240807" })).toThrow(
      /amiSelectorTerms\[0\]\.alias = "al2023@20240807" is invalid/,
    );
  });
});

test("without a Terraform binary the example says so once, with how many constructs asked, not once per imported resource", () => {
  const util = require("cdktf/lib/util") as { terraformBinaryName: string };
  const before = util.terraformBinaryName;
  util.terraformBinaryName = "/nonexistent/terraform";
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "adopt-no-terraform-"));
  let message = "";
  try {
    buildApp(new App({ outdir, stackTraces: false }), {
      CLUSTER_NAME: "prod",
      AWS_REGION: "eu-west-1",
      KARPENTER_VERSION: "1.14.1",
    }).synth();
  } catch (e) {
    message = (e as Error).message;
  } finally {
    util.terraformBinaryName = before;
    fs.rmSync(outdir, { recursive: true, force: true });
  }
  const count = (text: string) => text.split("Could not determine version of /nonexistent/terraform").length - 1;
  expect(count(message)).toBeGreaterThan(10); // cdktf's own message: once per imported resource
  const compact = compactValidationMessage(message);
  expect(count(compact)).toBe(1);
  expect(compact).toMatch(
    new RegExp(
      `^Validation failed with the following errors:\\n  Could not determine version of /nonexistent/terraform[^\\n]*\\n[^\\n]*not found\\n    \\(from ${count(message)} constructs: karpenter/karpenter, karpenter/karpenter/node-role/role, [^)]+, …\\)\\n\\nIf you wish to ignore these validations`,
    ),
  );
});

test("distinct validation problems each stay, with their construct; other messages pass unchanged", () => {
  const message =
    "Validation failed with the following errors:\n  [a/b] first problem\n  [a/c] second problem\n  [a/d] first problem\n\nIf you wish to ignore these validations, pass 'skipValidation: true' to your App configuration.";
  expect(compactValidationMessage(message)).toBe(
    "Validation failed with the following errors:\n  first problem\n    (from 2 constructs: a/b, a/d)\n  [a/c] second problem\n\nIf you wish to ignore these validations, pass 'skipValidation: true' to your App configuration.",
  );
  expect(compactValidationMessage('prod/karpenter: version = "2.0" is invalid: a known release')).toBe(
    'prod/karpenter: version = "2.0" is invalid: a known release',
  );
});
