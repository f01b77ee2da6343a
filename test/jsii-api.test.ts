import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { App, TerraformStack } from "cdktf";
import * as lib from "../lib";
import {
  AdoptionPresets,
  AppValidation,
  NodeClassRef,
  DEFAULT_AMI_ALIAS,
  DEFAULT_CAPACITY_TYPE_REQUIREMENT,
  DEFAULT_CONTROLLER_RESOURCES,
  DEFAULT_KARPENTER_NAMESPACE,
  DEFAULT_KARPENTER_VERSION,
  DEFAULT_NODE_CLASS_DELETE_TIMEOUT,
  DEFAULT_SERVICE_ACCOUNT_NAME,
  DiscoveryTags,
  DISCOVERY_TAG_KEY,
  Ec2NodeClass,
  formatValidationReport,
  gettingStartedAdoption,
  KARPENTER_CHART_REPOSITORY,
  KarpenterRelease,
  KarpenterVersions,
  KNOWN_RELEASES,
  NodePool,
  SUPPORTED_MINORS,
  supportedKubernetesVersions,
  SYSTEM_NODE_LABEL,
  SystemNodeGroup,
  terraformAwsEksModuleAdoption,
  validateApp,
} from "../lib";

/*
 * jsii bindings (Python, Java, .NET, Go) carry no module-level function or constant: each one lib/index.ts
 * exports has a static twin on a class, which must give the same value.
 */

/** Each exported function or constant of lib/index.ts and its static twin (`typeName` is a message helper with none). */
const TWINS: Record<string, unknown> = {
  DEFAULT_KARPENTER_VERSION: KarpenterVersions.DEFAULT,
  KNOWN_RELEASES: KarpenterVersions.KNOWN_RELEASES,
  SUPPORTED_MINORS: KarpenterVersions.SUPPORTED_MINORS,
  supportedKubernetesVersions: KarpenterVersions.supportedKubernetesVersions,
  validateApp: AppValidation.validate,
  formatValidationReport: AppValidation.formatReport,
  gettingStartedAdoption: AdoptionPresets.gettingStarted,
  terraformAwsEksModuleAdoption: AdoptionPresets.terraformAwsEksModule,
  DEFAULT_AMI_ALIAS: Ec2NodeClass.DEFAULT_AMI_ALIAS,
  DEFAULT_NODE_CLASS_DELETE_TIMEOUT: Ec2NodeClass.DEFAULT_DELETE_TIMEOUT,
  DEFAULT_CAPACITY_TYPE_REQUIREMENT: NodePool.DEFAULT_CAPACITY_TYPE_REQUIREMENT,
  KARPENTER_CHART_REPOSITORY: KarpenterRelease.CHART_REPOSITORY,
  DEFAULT_KARPENTER_NAMESPACE: KarpenterRelease.DEFAULT_NAMESPACE,
  DEFAULT_SERVICE_ACCOUNT_NAME: KarpenterRelease.DEFAULT_SERVICE_ACCOUNT_NAME,
  DEFAULT_CONTROLLER_RESOURCES: KarpenterRelease.DEFAULT_CONTROLLER_RESOURCES,
  DISCOVERY_TAG_KEY: DiscoveryTags.DEFAULT_TAG_KEY,
  SYSTEM_NODE_LABEL: SystemNodeGroup.NODE_LABEL_KEY,
  typeName: undefined,
};

/** The value exports (functions, constants) of lib/index.ts, from the compiler. */
function valueExports(): string[] {
  const index = path.join(__dirname, "..", "lib", "index.ts");
  const program = ts.createProgram([index], {
    module: ts.ModuleKind.CommonJS,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    resolveJsonModule: true,
    esModuleInterop: true,
    types: ["node"],
  });
  const checker = program.getTypeChecker();
  return checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(index)!)!).flatMap((s) => {
    const f = (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s).flags;
    return f & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable) ? [s.getName()] : [];
  });
}

test("every exported function and constant of lib/index.ts has a static twin on a class", () => {
  expect(valueExports().sort()).toEqual(Object.keys(TWINS).sort());
  expect(Object.keys(lib)).toEqual(expect.arrayContaining(Object.keys(TWINS)));
});

test("the static twins give the TypeScript constants' values", () => {
  expect([KarpenterVersions.DEFAULT, KarpenterVersions.KNOWN_RELEASES, KarpenterVersions.SUPPORTED_MINORS]).toEqual([
    DEFAULT_KARPENTER_VERSION,
    [...KNOWN_RELEASES],
    [...SUPPORTED_MINORS],
  ]);
  expect(KarpenterVersions.KNOWN_RELEASES).toContain("1.14.1");
  expect([Ec2NodeClass.DEFAULT_AMI_ALIAS, Ec2NodeClass.DEFAULT_DELETE_TIMEOUT]).toEqual([
    DEFAULT_AMI_ALIAS,
    DEFAULT_NODE_CLASS_DELETE_TIMEOUT,
  ]);
  expect(NodePool.DEFAULT_CAPACITY_TYPE_REQUIREMENT).toEqual(DEFAULT_CAPACITY_TYPE_REQUIREMENT);
  expect([
    KarpenterRelease.CHART_REPOSITORY,
    KarpenterRelease.DEFAULT_NAMESPACE,
    KarpenterRelease.DEFAULT_SERVICE_ACCOUNT_NAME,
  ]).toEqual([KARPENTER_CHART_REPOSITORY, DEFAULT_KARPENTER_NAMESPACE, DEFAULT_SERVICE_ACCOUNT_NAME]);
  expect(KarpenterRelease.DEFAULT_CONTROLLER_RESOURCES).toEqual(DEFAULT_CONTROLLER_RESOURCES);
  expect(DiscoveryTags.DEFAULT_TAG_KEY).toBe(DISCOVERY_TAG_KEY);
  expect([SystemNodeGroup.NODE_LABEL_KEY, SystemNodeGroup.NODE_LABEL_VALUE]).toEqual([
    SYSTEM_NODE_LABEL.key,
    SYSTEM_NODE_LABEL.value,
  ]);
});

test("the static methods give what the functions give, and throw what they throw", () => {
  expect(KarpenterVersions.supportedKubernetesVersions("1.6.8")).toEqual(supportedKubernetesVersions("1.6.8"));
  expect(() => KarpenterVersions.supportedKubernetesVersions("0.37.0")).toThrow(
    /^supportedKubernetesVersions: karpenterVersion = "0\.37\.0" is invalid: a Karpenter release/,
  );
  const props = { clusterName: "demo", version: "1.14.1", podIdentityAssociationId: "a-0123456789abcdef0" };
  expect(JSON.stringify(AdoptionPresets.gettingStarted(props))).toBe(JSON.stringify(gettingStartedAdoption(props)));
  const module = {
    major: 21 as const,
    clusterName: "demo",
    nodeRoleName: "node-20240101",
    controllerRoleName: "ctrl-20240101",
    createdPodIdentityAssociation: false,
  };
  expect(JSON.stringify(AdoptionPresets.terraformAwsEksModule(module))).toBe(
    JSON.stringify(terraformAwsEksModuleAdoption(module)),
  );
  expect(() => AdoptionPresets.terraformAwsEksModule({ ...module, major: 18 as any })).toThrow(
    /^terraformAwsEksModuleAdoption: major = 18 is invalid: 19, 20 or 21/,
  );
});

test("AppValidation reports a synth-time problem as validateApp does, with path, field and value", () => {
  const app = new App();
  const stack = new TerraformStack(app, "nodes");
  for (const id of ["a", "b"]) new NodePool(stack, id, { name: "same", nodeClass: { name: "default" } });
  const report = AppValidation.validate(app);
  expect(report.errors.map((e) => e.message)).toEqual(validateApp(app).errors.map((e) => e.message));
  const name = report.errors.find((e) => e.field === "name");
  expect([name?.path.startsWith("nodes/"), name?.value]).toEqual([true, "same"]);
  expect(AppValidation.formatReport(report)).toBe(formatValidationReport(report));
  expect(AppValidation.formatReport(report)).toContain(`error: ${name?.message}`);
});

describe("NodeClassRef: a NodePool's node class in every language", () => {
  const manifestOf = (nodeClass: import("../lib").INodeClassRef) => {
    const app = new App();
    const stack = new TerraformStack(app, "nodes");
    return new NodePool(stack, "pool", { name: "pool", nodeClass }).nodeClassRef;
  };

  test("named() emits what the plain reference emits", () => {
    expect(manifestOf(NodeClassRef.named("default"))).toEqual(manifestOf({ name: "default" }));
    expect(manifestOf(NodeClassRef.named("default"))).toEqual({
      group: "karpenter.k8s.aws",
      kind: "EC2NodeClass",
      name: "default",
    });
  });

  test("of() is the Ec2NodeClass itself", () => {
    const app = new App();
    const stack = new TerraformStack(app, "nodes");
    const nodeClass = new Ec2NodeClass(stack, "c", {
      name: "mine",
      role: "node-role",
      cluster: undefined,
      subnetSelectorTerms: [{ id: "subnet-0123abcd" }],
      securityGroupSelectorTerms: [{ id: "sg-0123abcd" }],
    });
    expect(NodeClassRef.of(nodeClass)).toBe(nodeClass);
    expect(new NodePool(stack, "pool", { nodeClass: NodeClassRef.of(nodeClass) }).nodeClassRef).toEqual({
      group: "karpenter.k8s.aws",
      kind: "EC2NodeClass",
      name: "mine",
    });
  });

  test("a wrong group from named() is refused with the plain reference's message", () => {
    const message = (nodeClass: import("../lib").INodeClassRef) => {
      try {
        manifestOf(nodeClass);
      } catch (e) {
        return (e as Error).message;
      }
      return "no error";
    };
    const named = message(NodeClassRef.named("default", { group: "example.com" }));
    expect(named).toBe(message({ name: "default", group: "example.com" }));
    expect(named).toMatch(/^nodes\/pool: nodeClass\.group = "example\.com" is invalid: /);
  });
});

test("every subpath export's types are reachable under moduleResolution node too (typesVersions), as the README's tsconfig uses", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8"));
  const subpaths = Object.entries(pkg.exports as Record<string, string | { types?: string }>).filter(
    ([k, v]) => k !== "." && typeof v === "object" && v.types,
  );
  expect(subpaths.map(([k]) => k)).toEqual(["./cli"]);
  for (const [k, v] of subpaths)
    expect(`./${pkg.typesVersions["*"][k.slice(2)][0]}`).toBe((v as { types: string }).types);
  // the README's tsconfig: the one the readme-app check type-checks with
  expect(fs.readFileSync(path.join(__dirname, "..", "README.md"), "utf8")).toMatch(/"moduleResolution": "node"/);
});
