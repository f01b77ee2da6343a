import * as YAML from "yaml";
import { KarpenterCrdRelease } from "../../lib/helm/karpenter-crd-release";
import { onlyResource, rejected, synthJson, testStack } from "../helpers";

function crd(props: ConstructorParameters<typeof KarpenterCrdRelease>[2] = {}) {
  const { stack } = testStack();
  new KarpenterCrdRelease(stack, "crds", props);
  return onlyResource(synthJson(stack), "helm_release");
}

describe("KarpenterCrdRelease", () => {
  test("chart karpenter-crd from public ECR, anonymous, default version and namespace, no values", () => {
    const body = crd();
    expect(body).toEqual({
      name: "karpenter-crd",
      chart: "karpenter-crd",
      repository: "oci://public.ecr.aws/karpenter",
      version: "1.15.3",
      namespace: "kube-system",
    });
  });

  test("version, namespace, namespace creation and a mirror", () => {
    const body = crd({
      version: "v1.9.2",
      namespace: "karpenter",
      createNamespace: true,
      repository: "oci://mirror.example.com/karpenter",
    });
    expect(body).toMatchObject({
      version: "1.9.2",
      namespace: "karpenter",
      create_namespace: true,
      repository: "oci://mirror.example.com/karpenter",
    });
  });

  test("1.0.x: the conversion webhook Service can be named; later versions have no webhook", () => {
    expect(YAML.parse(crd({ version: "1.0.14", webhookServiceName: "kp-karpenter" }).values[0])).toEqual({
      webhook: { serviceName: "kp-karpenter" },
    });
    expect(() => crd({ version: "1.1.10", webhookServiceName: "kp" })).toThrow(
      /test\/crds: webhookServiceName = "kp" is invalid: only with Karpenter 1\.0\.x: 1\.1\.10 has no conversion webhook/,
    );
  });

  test("1.0.x: the conversion webhook can be turned off and moved to another port, as on the controller chart", () => {
    expect(YAML.parse(crd({ version: "1.0.14", webhookEnabled: false, webhookPort: 9443 }).values[0])).toEqual({
      webhook: { enabled: false, port: 9443 },
    });
    expect(() => crd({ version: "1.1.10", webhookEnabled: false })).toThrow(
      /test\/crds: webhookEnabled = false is invalid: only with Karpenter 1\.0\.x/,
    );
    expect(() => crd({ version: "1.14.1", webhookPort: 9443 })).toThrow(
      /test\/crds: webhookPort = 9443 is invalid: only with Karpenter 1\.0\.x/,
    );
    expect(() => crd({ version: "1.0.14", webhookPort: 70000 })).toThrow(
      /test\/crds: webhookPort = 70000 is invalid: a TCP port/,
    );
    expect(() => crd({ version: "1.0.14", webhookEnabled: "no" as never })).toThrow(
      /test\/crds: webhookEnabled = "no" is invalid: true or false/,
    );
  });

  test("bad input is refused", () => {
    expect(() => crd({ version: "1.16.0" })).toThrow(
      /version = "1.16.0" is invalid: a Karpenter release .* 1\.0, 1\.1/,
    );
    expect(() => crd({ namespace: "-x" })).toThrow(/namespace = "-x" is invalid/);
    expect(() => crd({ releaseName: "Karpenter_CRD" })).toThrow(
      /releaseName = "Karpenter_CRD" is invalid: a Helm release name/,
    );
    expect(() => crd({ repository: "ftp://x" })).toThrow(/repository = "ftp:\/\/x" is invalid/);
  });
});

describe("KarpenterCrdRelease: bad props", () => {
  test("every problem at once, and nothing left in the tree", () => {
    const { stack } = testStack();
    const error = rejected(
      () => new KarpenterCrdRelease(stack, "crd", { version: "1.0.0", webhookServiceName: "Bad_", webhookPort: 70000 }),
    );
    expect(error.message).toBe(
      "2 problems in the props of test/crd:\n" +
        "  - test/crd: webhookServiceName = \"Bad_\" is invalid: a Kubernetes Service name, a DNS-1123 label: 1 to 63 lower-case letters, digits and '-', starting and ending with a letter or digit [KUBERNETES_SERVICE_NAME]\n" +
        "  - test/crd: webhookPort = 70000 is invalid: a TCP port, a whole number from 1 to 65535 (the controller chart's webhook.port) [HELM_WEBHOOK_PORT]",
    );
    expect(stack.node.tryFindChild("crd")).toBeUndefined();
    expect(synthJson(stack).resource?.helm_release).toBeUndefined();
  });

  test("webhook props on a version without the webhook: each one named, nothing left in the tree", () => {
    const { stack } = testStack();
    const error = rejected(
      () =>
        new KarpenterCrdRelease(stack, "crd", {
          version: "1.14.1",
          webhookEnabled: true,
          webhookPort: 9443,
          namespace: "-x",
        }),
    );
    expect(error.problems.map((p) => [p.field, p.allowed])).toEqual([
      [
        "namespace",
        "a Kubernetes namespace name, a DNS-1123 label: 1 to 63 lower-case letters, digits and '-', starting and ending with a letter or digit",
      ],
      ["webhookEnabled", "only with Karpenter 1.0.x: 1.14.1 has no conversion webhook (removed in 1.1)"],
      ["webhookPort", "only with Karpenter 1.0.x: 1.14.1 has no conversion webhook (removed in 1.1)"],
    ]);
    expect(stack.node.tryFindChild("crd")).toBeUndefined();
  });
});
