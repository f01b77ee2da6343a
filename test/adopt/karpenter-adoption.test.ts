import { gettingStartedAdoption, terraformAwsEksModuleAdoption } from "../../lib/adopt/karpenter-adoption";
import { KarpenterValidationError } from "../../lib/core/errors";
import { thrown } from "../helpers";

const ASSOCIATION = "a-0123456789abcdefg";

describe("gettingStartedAdoption: the names of the guide's CloudFormation stack and eksctl config per version", () => {
  test.each([
    ["1.0.14", ["KarpenterControllerPolicy-c1"], "AmazonEC2ContainerRegistryReadOnly", 4],
    ["1.3.8", ["KarpenterControllerPolicy-c1"], "AmazonEC2ContainerRegistryReadOnly", 4],
    ["1.8.8", ["KarpenterControllerPolicy-c1"], "AmazonEC2ContainerRegistryPullOnly", 4],
    [
      "1.9.2",
      ["NodeLifecycle", "IAMIntegration", "EKSIntegration", "Interruption", "ResourceDiscovery"].map(
        (g) => `KarpenterController${g}Policy-c1`,
      ),
      "AmazonEC2ContainerRegistryPullOnly",
      4,
    ],
    [
      "1.12.2",
      ["NodeLifecycle", "IAMIntegration", "EKSIntegration", "Interruption", "ZonalShift", "ResourceDiscovery"].map(
        (g) => `KarpenterController${g}Policy-c1`,
      ),
      "AmazonEC2ContainerRegistryPullOnly",
      4,
    ],
  ])("%s", (version, policies, ecr, nodePolicies) => {
    const a = gettingStartedAdoption({ clusterName: "c1", version, podIdentityAssociationId: ASSOCIATION });
    expect(a.clusterName).toBe("c1");
    expect(a.namespace).toBe("kube-system");
    expect(a.controllerRole).toEqual({
      roleName: "c1-karpenter",
      attachedPolicies: policies,
      podIdentityAssociationId: ASSOCIATION,
    });
    expect(a.nodeRole?.roleName).toBe("KarpenterNodeRole-c1");
    expect(a.nodeRole?.attachedPolicies).toHaveLength(nodePolicies);
    expect(a.nodeRole?.attachedPolicies).toContain(ecr);
    expect(a.nodeRole?.accessEntry).toBe(false);
    expect(a.interruptionQueue).toEqual({ queueName: "c1", ruleNames: undefined });
    expect(a.helm).toBe(true);
  });

  test("an access entry made by hand is imported when declared", () => {
    expect(
      gettingStartedAdoption({
        clusterName: "c1",
        version: "1.14.1",
        podIdentityAssociationId: ASSOCIATION,
        nodeAccessEntry: true,
      }).nodeRole?.accessEntry,
    ).toBe(true);
  });

  test("a missing cluster name is refused", () => {
    expect(
      thrown(() =>
        gettingStartedAdoption({ clusterName: "", version: "1.14.1", podIdentityAssociationId: ASSOCIATION }),
      ).message,
    ).toMatch(/^gettingStartedAdoption: clusterName = "" is invalid/);
  });
});

describe("terraformAwsEksModuleAdoption: the module's defaults per major version", () => {
  const names = { clusterName: "c1", nodeRoleName: "n", controllerRoleName: "r", controllerPolicyName: "p" };
  test.each([
    [19, "AmazonEC2ContainerRegistryReadOnly", false],
    [20, "AmazonEC2ContainerRegistryReadOnly", true],
    [21, "AmazonEC2ContainerRegistryPullOnly", true],
  ] as const)("v%s", (major, ecr, accessEntry) => {
    const a = terraformAwsEksModuleAdoption({ major, ...names, createdPodIdentityAssociation: false });
    expect(a.nodeRole).toEqual({
      roleName: "n",
      attachedPolicies: ["AmazonEKSWorkerNodePolicy", ecr, "AmazonEKS_CNI_Policy"],
      accessEntry,
    });
    expect(a.controllerRole).toEqual({ roleName: "r", attachedPolicies: ["p"], podIdentityAssociationId: undefined });
    expect(a.interruptionQueue?.queueName).toBe("Karpenter-c1");
  });

  test("no CNI policy, an inline controller policy (v21 enable_inline_policy), another queue name", () => {
    const a = terraformAwsEksModuleAdoption({
      major: 21,
      clusterName: "c1",
      nodeRoleName: "n",
      controllerRoleName: "r",
      cniPolicy: false,
      queueName: "q",
      podIdentityAssociationId: "a-0123456789abcdefg",
    });
    expect(a.nodeRole?.attachedPolicies).toEqual(["AmazonEKSWorkerNodePolicy", "AmazonEC2ContainerRegistryPullOnly"]);
    expect(a.controllerRole?.attachedPolicies).toEqual([]);
    expect(a.interruptionQueue?.queueName).toBe("q");
  });

  test("v21 creates a Pod Identity association by default: its ID is required, unless the module ran without one", () => {
    const e = thrown(() =>
      terraformAwsEksModuleAdoption({ major: 21, clusterName: "c1", nodeRoleName: "n", controllerRoleName: "r" }),
    );
    expect(e.message).toMatch(
      /^terraformAwsEksModuleAdoption: podIdentityAssociationId = undefined is invalid: the ID of the module's Pod Identity association .*v21 creates one by default/,
    );
    expect(
      terraformAwsEksModuleAdoption({
        major: 21,
        clusterName: "c1",
        nodeRoleName: "n",
        controllerRoleName: "r",
        createdPodIdentityAssociation: false,
      }).controllerRole?.podIdentityAssociationId,
    ).toBeUndefined();
    expect(
      terraformAwsEksModuleAdoption({
        major: 21,
        clusterName: "c1",
        nodeRoleName: "n",
        controllerRoleName: "r",
        podIdentityAssociationId: "a-0123456789abcdefg",
      }).controllerRole?.podIdentityAssociationId,
    ).toBe("a-0123456789abcdefg");
    // v20 creates none by default; with create_pod_identity_association its ID is required too
    expect(
      terraformAwsEksModuleAdoption({ major: 20, clusterName: "c1", nodeRoleName: "n", controllerRoleName: "r" })
        .controllerRole?.podIdentityAssociationId,
    ).toBeUndefined();
    expect(() =>
      terraformAwsEksModuleAdoption({
        major: 20,
        clusterName: "c1",
        nodeRoleName: "n",
        controllerRoleName: "r",
        createdPodIdentityAssociation: true,
      }),
    ).toThrow(/createdPodIdentityAssociation is true/);
    const refused = thrown(() =>
      terraformAwsEksModuleAdoption({
        major: 20,
        clusterName: "c1",
        nodeRoleName: "n",
        controllerRoleName: "r",
        createdPodIdentityAssociation: true,
      }),
    ) as KarpenterValidationError;
    expect([refused.code, refused.problems[0].code]).toEqual([
      "ADOPTION_POD_IDENTITY_ASSOCIATION_ID",
      "ADOPTION_POD_IDENTITY_ASSOCIATION_ID",
    ]);
  });

  test("a missing name is refused", () => {
    expect(
      thrown(() =>
        terraformAwsEksModuleAdoption({ major: 20, clusterName: "c1", nodeRoleName: "", controllerRoleName: "r" }),
      ).message,
    ).toMatch(/nodeRoleName = "" is invalid: the name from the module's state/);
  });
});

describe("the presets' props", () => {
  test.each([
    ["gettingStartedAdoption", () => gettingStartedAdoption(undefined as never)],
    ["terraformAwsEksModuleAdoption", () => terraformAwsEksModuleAdoption(null as never)],
  ])("%s without props is a KarpenterValidationError naming props, not a TypeError", (where, call) => {
    const e = thrown(call);
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect((e as KarpenterValidationError).field).toBe("props");
    expect(e.message).toContain(
      `${where}: props = undefined is invalid: an object {`.replace(
        "undefined",
        where === "gettingStartedAdoption" ? "undefined" : "null",
      ),
    );
  });
  test("an unknown prop is refused with a did-you-mean; the props spelt right pass", () => {
    const e = thrown(() =>
      gettingStartedAdoption({
        clusterName: "c1",
        version: "1.9.2",
        podIdentityAssociationId: ASSOCIATION,
        namespcae: "karpenter",
      } as never),
    ) as KarpenterValidationError;
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect(e.field).toBe("namespcae");
    expect(e.message).toContain("not a prop of gettingStartedAdoption (it would be ignored): did you mean namespace?");
    expect(
      gettingStartedAdoption({
        clusterName: "c1",
        version: "1.9.2",
        podIdentityAssociationId: ASSOCIATION,
        namespace: "karpenter",
      }).namespace,
    ).toBe("karpenter");
    expect(
      (
        thrown(() =>
          terraformAwsEksModuleAdoption({
            major: 20,
            clusterName: "c",
            nodeRoleName: "n",
            controllerRoleName: "r",
            cniPolicies: false,
          } as never),
        ) as KarpenterValidationError
      ).field,
    ).toBe("cniPolicies");
  });
  test("v19 with a Pod Identity association the module created is refused: v19 had IRSA only", () => {
    const props = { major: 19 as const, clusterName: "c", nodeRoleName: "n", controllerRoleName: "r" };
    const e = thrown(() =>
      terraformAwsEksModuleAdoption({
        ...props,
        createdPodIdentityAssociation: true,
        podIdentityAssociationId: ASSOCIATION,
      }),
    ) as KarpenterValidationError;
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect(e.field).toBe("createdPodIdentityAssociation");
    expect(e.message).toContain(
      "v19 of terraform-aws-modules/eks//modules/karpenter creates an IRSA role and no Pod Identity association",
    );
    // look-alikes: v19 without one, v20 with one, and v19 adopting an association made outside the module
    expect(() => terraformAwsEksModuleAdoption(props)).not.toThrow();
    expect(() =>
      terraformAwsEksModuleAdoption({
        ...props,
        major: 20,
        createdPodIdentityAssociation: true,
        podIdentityAssociationId: ASSOCIATION,
      }),
    ).not.toThrow();
    expect(
      terraformAwsEksModuleAdoption({ ...props, podIdentityAssociationId: ASSOCIATION }).controllerRole
        ?.podIdentityAssociationId,
    ).toBe(ASSOCIATION);
  });
});

describe("the presets' optional props have their documented type; the namespace is a DNS-1123 label", () => {
  const module20 = { major: 20, clusterName: "c1", nodeRoleName: "n", controllerRoleName: "r" } as const;
  test('cniPolicy: "yes" is refused (a string would pass for true), with every other wrong type at once', () => {
    const e = thrown(() =>
      terraformAwsEksModuleAdoption({
        ...module20,
        cniPolicy: "yes" as never,
        createdPodIdentityAssociation: "false" as never,
        queueName: 5 as never,
      }),
    ) as KarpenterValidationError;
    expect(e).toBeInstanceOf(KarpenterValidationError);
    expect(e.problems.map((p) => [p.code, p.field])).toEqual([
      ["ADOPTION_NOT_A_STRING", "queueName"],
      ["ADOPTION_NOT_A_BOOLEAN", "createdPodIdentityAssociation"],
      ["ADOPTION_NOT_A_BOOLEAN", "cniPolicy"],
    ]);
    expect(e.problems[2].message).toContain('cniPolicy = "yes" is invalid: true or false, got a string');
    // the look-alike: the documented booleans and a string queue name pass
    const ok = terraformAwsEksModuleAdoption({
      ...module20,
      cniPolicy: false,
      createdPodIdentityAssociation: false,
      queueName: "q",
    });
    expect(ok.nodeRole?.attachedPolicies).not.toContain("AmazonEKS_CNI_Policy");
  });

  test('gettingStartedAdoption: nodeAccessEntry "true" and a namespace that is not a DNS-1123 label are refused, naming them', () => {
    const e = thrown(() =>
      gettingStartedAdoption({
        clusterName: "c1",
        version: "1.9.2",
        podIdentityAssociationId: ASSOCIATION,
        namespace: "Bad_NS",
        nodeAccessEntry: "true" as never,
      }),
    ) as KarpenterValidationError;
    expect(e.problems.map((p) => [p.code, p.field])).toEqual([
      ["ADOPTION_NOT_A_BOOLEAN", "nodeAccessEntry"],
      ["KUBERNETES_NAMESPACE", "namespace"],
    ]);
    expect(e.problems[1].message).toContain(
      'gettingStartedAdoption: namespace = "Bad_NS" is invalid: a Kubernetes namespace name, a DNS-1123 label',
    );
    const one = thrown(() =>
      gettingStartedAdoption({
        clusterName: "c1",
        version: "1.9.2",
        podIdentityAssociationId: ASSOCIATION,
        namespace: 7 as never,
      }),
    ) as KarpenterValidationError;
    expect([one.code, one.field]).toEqual(["ADOPTION_NOT_A_STRING", "namespace"]);
    expect(
      gettingStartedAdoption({
        clusterName: "c1",
        version: "1.9.2",
        podIdentityAssociationId: ASSOCIATION,
        namespace: "bad-ns",
        nodeAccessEntry: true,
      }),
    ).toMatchObject({ namespace: "bad-ns", nodeRole: { accessEntry: true } });
  });
});
