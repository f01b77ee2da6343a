import * as fs from "fs";
import * as path from "path";
import { Lazy, Token } from "cdktf";
import { K8S_TYPED_VALUES, TYPED_VALUES_TEMPLATE, typedValueLines } from "../../lib/helm/k8s-typed-values";
import { k8sApiFields } from "../../lib/versions";
import { KarpenterRelease, KarpenterReleaseProps } from "../../lib/helm/karpenter-release";
import { ROOTS } from "../../scripts/k8s-api-fields";
import { rejected, synthJson, testCluster, testStack } from "../helpers";
import { describeWithReference, referenceRoot, referenceVersionsWith } from "../reference";

/*
 * The values subtrees the chart renders whole with toYaml (lib/helm/k8s-typed-values.ts) and their judging by the
 * Kubernetes type they land in (lib/helm/k8s-field-check.ts): fresh tester 12 F-1..F-3 (valid fields values.yaml
 * does not show were refused) and S-13 / S-14 (wrong JSON types were let through, the Deployment fails to decode).
 */

const versions = referenceVersionsWith(TYPED_VALUES_TEMPLATE);

describeWithReference(versions)("the typed values list = each release's deployment.yaml", () => {
  test.each(versions)("%s renders each listed path whole with toYaml at the listed lines", (version) => {
    const lines = fs.readFileSync(path.join(referenceRoot(), `v${version}`, TYPED_VALUES_TEMPLATE), "utf8").split("\n");
    for (const p of Object.keys(K8S_TYPED_VALUES)) {
      const at = typedValueLines(p, version);
      const last = p.split(".").pop()!;
      // the chart's `with` (or `range`) of the path: `.Values.<path>`, or `.<key>` inside `with .Values.controller.securityContext`
      const opener = p.startsWith("controller.securityContext.")
        ? new RegExp(`\\{\\{-? with \\.${last} \\}\\}`)
        : new RegExp(`\\{\\{-? (with|range) \\$?\\.Values\\.${p.replace(/\./g, "\\.")} \\}\\}`);
      const found = lines.findIndex((l) => opener.test(l));
      if (at === undefined) {
        expect({ path: p, line: found }).toEqual({ path: p, line: -1 });
        continue;
      }
      const [from, to] = at.split("-").map(Number);
      expect({ path: p, opener: lines[from - 1] }).toEqual({ path: p, opener: expect.stringMatching(opener) });
      expect({ path: p, toYaml: lines[to - 1] }).toEqual({ path: p, toYaml: expect.stringMatching(/toYaml \. /) });
      if (p.startsWith("controller.securityContext."))
        expect(lines.slice(0, from - 1).some((l) => /with \.Values\.controller\.securityContext \}\}/.test(l))).toBe(
          true,
        );
    }
  });
});

describe("k8s-api-fields.json covers the list", () => {
  test("every listed type is a root of the generator and in the table", () => {
    for (const entry of Object.values(K8S_TYPED_VALUES)) {
      expect(ROOTS).toContain(entry.type);
      expect(k8sApiFields().types[entry.type]).toBeDefined();
    }
  });
});

function release(values: Record<string, unknown>, version?: string) {
  const { stack } = testStack();
  const cluster = testCluster(stack, "demo");
  new KarpenterRelease(stack, "karpenter", { cluster, values, version } as KarpenterReleaseProps);
  return synthJson(stack);
}

function problems(values: Record<string, unknown>, version?: string) {
  return rejected(() => release(values, version)).problems.map((p) => ({
    code: p.code,
    field: p.field,
    message: p.message,
  }));
}

describe("typed values subtrees (fresh tester 12)", () => {
  test.each([
    ["F-1 maxSurge", { strategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } }],
    ["F-1 type", { strategy: { type: "RollingUpdate" } }],
    ["F-1 percent", { strategy: { rollingUpdate: { maxSurge: "25%" } } }],
    ["F-2 runAsNonRoot, runAsUser", { podSecurityContext: { runAsNonRoot: true, runAsUser: 65532 } }],
    ["F-2 supplementalGroups", { podSecurityContext: { supplementalGroups: [1000] } }],
    [
      "F-3 preferred pod anti-affinity",
      {
        affinity: {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 100, podAffinityTerm: { topologyKey: "kubernetes.io/hostname" } },
            ],
          },
        },
      },
    ],
    ["imagePullSecrets", { imagePullSecrets: [{ name: "regcred" }] }],
    ["fsGroup a number", { podSecurityContext: { fsGroup: 1000 } }],
    ["seccompProfile", { controller: { securityContext: { seccompProfile: { type: "RuntimeDefault" } } } }],
    [
      "a sidecar and its volumes",
      {
        controller: {
          sidecarContainer: [
            {
              name: "proxy",
              image: "envoy",
              ports: [{ containerPort: 9901 }],
              resources: { limits: { memory: "64Mi", cpu: 0.1 } },
            },
          ],
          extraVolumeMounts: [{ name: "tmp", mountPath: "/tmp", readOnly: true }],
        },
        extraVolumes: [{ name: "tmp", emptyDir: { sizeLimit: "1Gi" } }],
      },
    ],
    [
      "topology spread",
      { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: "zone", whenUnsatisfiable: "ScheduleAnyway" }] },
    ],
    [
      "empty and null subtrees (the chart's with skips them)",
      { strategy: {}, podSecurityContext: null, affinity: null },
    ],
  ])("%s passes", (_what, values) => {
    expect(() => release(values)).not.toThrow();
  });

  test("S-13 imagePullSecrets a string is a wrong JSON type", () => {
    expect(problems({ imagePullSecrets: "regcred" })).toEqual([
      expect.objectContaining({
        code: "HELM_VALUES_K8S_TYPE",
        field: "values.imagePullSecrets",
        message: expect.stringMatching(
          /a list of map \(Kubernetes core\/v1 LocalObjectReference\).*cannot decode a string/,
        ),
      }),
    ]);
  });

  test("S-14 fsGroup a string is a wrong JSON type", () => {
    expect(problems({ podSecurityContext: { fsGroup: "1000" } })).toEqual([
      expect.objectContaining({
        code: "HELM_VALUES_K8S_TYPE",
        field: "values.podSecurityContext.fsGroup",
        message: expect.stringMatching(/a whole number \(int64\) \(Kubernetes core\/v1 PodSecurityContext\.fsGroup/),
      }),
    ]);
  });

  test("an unknown field is refused with the type and a did-you-mean; names are case-sensitive", () => {
    expect(problems({ strategy: { rollingUpdate: { maxSurg: 1 } } })).toEqual([
      expect.objectContaining({
        code: "HELM_VALUES_K8S_FIELD",
        field: "values.strategy.rollingUpdate.maxSurg",
        message: expect.stringMatching(/apps\/v1 RollingUpdateDeployment .*no "maxSurg"; did you mean maxSurge\?/),
      }),
    ]);
    // sigs.k8s.io/json matches field names case-sensitively (encoding/json would take RunAsUser)
    expect(problems({ podSecurityContext: { RunAsUser: 1000 } })).toEqual([
      expect.objectContaining({
        code: "HELM_VALUES_K8S_FIELD",
        field: "values.podSecurityContext.RunAsUser",
        message: expect.stringMatching(/did you mean runAsUser\? \(field names are case-sensitive\)/),
      }),
    ]);
  });

  test("every problem at once, deep inside containers and volumes", () => {
    const found = problems({
      initContainers: [{ name: "init", image: "busybox", comand: ["true"], securityContext: { runAsUser: "0" } }],
      extraVolumes: [{ name: "x", secret: { secretName: "s", defaultMode: "0644" } }],
      strategy: { type: 1 },
    });
    expect(found.map((p) => [p.code, p.field])).toEqual([
      ["HELM_VALUES_K8S_TYPE", "values.strategy.type"],
      ["HELM_VALUES_K8S_FIELD", "values.initContainers[0].comand"],
      ["HELM_VALUES_K8S_TYPE", "values.initContainers[0].securityContext.runAsUser"],
      ["HELM_VALUES_K8S_TYPE", "values.extraVolumes[0].secret.defaultMode"],
    ]);
    expect(found[1].message).toMatch(/did you mean command\?/);
  });

  test("intOrString and quantity: look-alikes", () => {
    expect(problems({ strategy: { rollingUpdate: { maxSurge: 1.5 } } })).toEqual([
      expect.objectContaining({ code: "HELM_VALUES_K8S_TYPE", field: "values.strategy.rollingUpdate.maxSurge" }),
    ]);
    expect(problems({ extraVolumes: [{ name: "t", emptyDir: { sizeLimit: "lots" } }] })).toEqual([
      expect.objectContaining({ code: "HELM_VALUES_K8S_TYPE", field: "values.extraVolumes[0].emptyDir.sizeLimit" }),
    ]);
    expect(() => release({ extraVolumes: [{ name: "t", emptyDir: { sizeLimit: 1073741824 } }] })).not.toThrow();
  });

  test("a token deep inside passes; the fields around it are still judged", () => {
    expect(() =>
      release({
        podSecurityContext: { fsGroup: Token.asNumber("${var.gid}"), runAsUser: 1000 },
        imagePullSecrets: [{ name: "${var.secret}" }],
        affinity: {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: Token.asNumber("${var.w}"),
                podAffinityTerm: { topologyKey: Lazy.stringValue({ produce: () => "zone" }) },
              },
            ],
          },
        },
      }),
    ).not.toThrow();
    expect(problems({ podSecurityContext: { fsGroup: Token.asNumber("${var.gid}"), runAsUsr: 1 } })).toEqual([
      expect.objectContaining({ code: "HELM_VALUES_K8S_FIELD", field: "values.podSecurityContext.runAsUsr" }),
    ]);
  });

  test("a stricter rule's problem is not said twice (tolerations, env)", () => {
    expect(problems({ tolerations: [{ key: "a", operator: "Exists", efect: "NoSchedule" }] })).toEqual([
      expect.objectContaining({ code: "OPTIONS_UNKNOWN_KEY", field: "values.tolerations[0].efect" }),
    ]);
    expect(problems({ controller: { env: [{ name: "A", value: 5 }] } })).toEqual([
      expect.objectContaining({ code: "HELM_VALUES_ENV", field: "values.controller.env[0].value" }),
    ]);
    // what the env rule does not judge, the type does
    expect(
      problems({ controller: { env: [{ name: "A", valueFrom: { secretKeyRef: { nam: "s", key: "k" } } }] } }),
    ).toEqual([
      expect.objectContaining({
        code: "HELM_VALUES_K8S_FIELD",
        field: "values.controller.env[0].valueFrom.secretKeyRef.nam",
      }),
    ]);
  });

  test("outside the typed subtrees values.yaml's keys still rule; a path before the chart renders it is refused by them", () => {
    expect(problems({ controller: { securityContext: { runAsUser: 1 } } })).toEqual([
      expect.objectContaining({
        code: "HELM_VALUES_UNKNOWN_KEY",
        field: "values.controller.securityContext.runAsUser",
      }),
    ]);
    expect(problems({ initContainers: [{ name: "x" }] }, "1.0.14")).toEqual([
      expect.objectContaining({ code: "HELM_VALUES_UNKNOWN_KEY", field: "values.initContainers" }),
    ]);
  });
});
