import { found, synthKarpenter } from "../helm/release-harness";
import { build, rejection } from "./node-props";

/*
 * fresh tester 19: an AL2023 NodeConfig of another node.eks.aws version (S-30: nodeadm's decoder registers v1alpha1
 * only, awslabs/amazon-eks-ami nodeadm/internal/api/bridge/scheme.go), and mounts the API server refuses in the
 * controller's pod (S-32: k8s.io/kubernetes v1.36.3 pkg/apis/core/validation/validation.go ValidateVolumeMounts).
 * Each invalid input has a valid look-alike.
 */

const al = (userData: string) => ({ amiSelectorTerms: [{ alias: "al2023@latest" }], userData });
const config = (apiVersion: string) =>
  `apiVersion: ${apiVersion}\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 50\n`;
const mime = (body: string) =>
  `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: application/node.eks.aws\n\n${body}\n--B--\n`;

describe("an AL2023 NodeConfig of a version nodeadm does not know (fresh tester 19, S-30)", () => {
  test.each([
    ["v1alpha2", config("node.eks.aws/v1alpha2")],
    ["v1", config("node.eks.aws/v1")],
    ["v1alpha2 in a MIME part", mime(config("node.eks.aws/v1alpha2"))],
  ])("%s is refused, naming the version nodeadm knows", (_what, userData) => {
    const e = rejection("EC2NodeClass", al(userData));
    expect(e.code).toBe("EC2NODECLASS_USER_DATA");
    expect(e.message).toContain("nodeadm knows only node.eks.aws/v1alpha1");
  });
  test("look-alike: node.eks.aws/v1alpha1, alone and in a MIME part, passes", () => {
    expect(() => build("EC2NodeClass", al(config("node.eks.aws/v1alpha1")))).not.toThrow();
    expect(() => build("EC2NodeClass", al(mime(config("node.eks.aws/v1alpha1"))))).not.toThrow();
  });
});

describe("mounts of the controller's pod the API server refuses (fresh tester 19, S-32)", () => {
  const M = "values.controller.extraVolumeMounts[0]";
  const mount = (extra: Record<string, unknown>) => ({
    extraVolumes: [{ name: "tmp", emptyDir: {} }],
    controller: { extraVolumeMounts: [{ name: "tmp", mountPath: "/tmp/x", ...extra }] },
  });
  test.each<[string, Record<string, unknown>, string]>([
    ["an absolute subPath", { subPath: "/abs" }, `${M}.subPath`],
    ["a subPathExpr with ..", { subPathExpr: "../$(POD_NAME)" }, `${M}.subPathExpr`],
    ["subPath and subPathExpr both", { subPath: "a", subPathExpr: "$(POD_NAME)" }, `${M}.subPathExpr`],
    [
      "Bidirectional propagation (the controller is not privileged)",
      { mountPropagation: "Bidirectional" },
      `${M}.mountPropagation`,
    ],
    ["an unknown propagation", { mountPropagation: "Shared" }, `${M}.mountPropagation`],
    ["recursiveReadOnly without readOnly", { recursiveReadOnly: "Enabled" }, `${M}.recursiveReadOnly`],
    [
      "recursiveReadOnly with HostToContainer",
      { readOnly: true, recursiveReadOnly: "IfPossible", mountPropagation: "HostToContainer" },
      `${M}.recursiveReadOnly`,
    ],
  ])("%s is refused", (_what, extra, field) => {
    expect(found(() => synthKarpenter(mount(extra)))).toEqual([{ code: "HELM_VALUES_K8S_VALUE", field }]);
  });
  test.each<[string, Record<string, unknown>]>([
    ["a relative subPath", { subPath: "logs" }],
    ["HostToContainer propagation", { mountPropagation: "HostToContainer" }],
    ["recursiveReadOnly with readOnly", { readOnly: true, recursiveReadOnly: "Enabled" }],
  ])("look-alike passes: %s", (_what, extra) => {
    expect(() => synthKarpenter(mount(extra))).not.toThrow();
  });
  test("a privileged sidecar may use Bidirectional propagation", () => {
    const values = {
      extraVolumes: [{ name: "tmp", emptyDir: {} }],
      controller: {
        sidecarContainer: [
          {
            name: "s",
            image: "busybox",
            securityContext: { privileged: true },
            volumeMounts: [{ name: "tmp", mountPath: "/x", mountPropagation: "Bidirectional" }],
          },
        ],
      },
    };
    expect(() => synthKarpenter(values)).not.toThrow();
    const unprivileged = JSON.parse(JSON.stringify(values));
    delete unprivileged.controller.sidecarContainer[0].securityContext;
    expect(found(() => synthKarpenter(unprivileged))).toEqual([
      {
        code: "HELM_VALUES_K8S_VALUE",
        field: "values.controller.sidecarContainer[0].volumeMounts[0].mountPropagation",
      },
    ]);
  });
});
