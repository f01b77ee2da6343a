import { found, synthKarpenter } from "./release-harness";

/*
 * fresh tester 16, S-V: the value rules of sidecar / init containers and of the pod's volumes that the API server
 * applies (k8s.io/kubernetes@v1.36.3 pkg/apis/core/validation/validation.go; rules in lib/kubernetes/object-rules.ts
 * containerFieldProblems / volumeProblems). Each input is refused with HELM_VALUES_K8S_VALUE on its field; each
 * valid look-alike passes.
 */

const karpenter = synthKarpenter;
const side = (extra: Record<string, unknown>) => ({
  controller: { sidecarContainer: [{ name: "s", image: "busybox", ...extra }] },
});
const S = "values.controller.sidecarContainer[0]";
const http = { httpGet: { port: 8080, path: "/" } };

describe("container and volume values the API server refuses (fresh tester 16)", () => {
  test.each<[string, Record<string, unknown>, string[]]>([
    ["containerPort 0", side({ ports: [{ containerPort: 0 }] }), [`${S}.ports[0].containerPort`]],
    ["containerPort 70000", side({ ports: [{ containerPort: 70000 }] }), [`${S}.ports[0].containerPort`]],
    [
      "a port name of 16 characters",
      side({ ports: [{ name: "a".repeat(16), containerPort: 80 }] }),
      [`${S}.ports[0].name`],
    ],
    ["imagePullPolicy Sometimes", side({ imagePullPolicy: "Sometimes" }), [`${S}.imagePullPolicy`]],
    ["terminationMessagePolicy Bogus", side({ terminationMessagePolicy: "Bogus" }), [`${S}.terminationMessagePolicy`]],
    [
      "privileged without privilege escalation",
      side({ securityContext: { privileged: true, allowPrivilegeEscalation: false } }),
      [`${S}.securityContext.allowPrivilegeEscalation`],
    ],
    [
      "a probe with two handlers",
      side({ readinessProbe: { ...http, exec: { command: ["true"] } } }),
      [`${S}.readinessProbe.httpGet`],
    ],
    [
      "liveness successThreshold 2",
      side({ livenessProbe: { ...http, successThreshold: 2 } }),
      [`${S}.livenessProbe.successThreshold`],
    ],
    [
      "subPath /abs",
      {
        extraVolumes: [{ name: "c", emptyDir: {} }],
        ...side({ volumeMounts: [{ name: "c", mountPath: "/c", subPath: "/abs" }] }),
      },
      [`${S}.volumeMounts[0].subPath`],
    ],
    [
      "subPath a/../b",
      {
        extraVolumes: [{ name: "c", emptyDir: {} }],
        ...side({ volumeMounts: [{ name: "c", mountPath: "/c", subPath: "a/../b" }] }),
      },
      [`${S}.volumeMounts[0].subPath`],
    ],
    ["env name A=B", side({ env: [{ name: "A=B", value: "1" }] }), [`${S}.env[0].name`]],
    [
      "preStop sleep -1",
      side({ lifecycle: { preStop: { sleep: { seconds: -1 } } } }),
      [`${S}.lifecycle.preStop.sleep.seconds`],
    ],
    [
      "resizePolicy restartPolicy Bogus",
      side({ resizePolicy: [{ resourceName: "cpu", restartPolicy: "Bogus" }] }),
      [`${S}.resizePolicy[0].restartPolicy`],
    ],
    [
      "readinessProbe httpGet.port 0",
      side({ readinessProbe: { httpGet: { port: 0 } } }),
      [`${S}.readinessProbe.httpGet.port`],
    ],
    [
      "an init container with lifecycle",
      { initContainers: [{ name: "i", image: "busybox", lifecycle: { preStop: { exec: { command: ["true"] } } } }] },
      ["values.initContainers[0].lifecycle"],
    ],
    [
      "an init container with a readinessProbe",
      { initContainers: [{ name: "i", image: "busybox", readinessProbe: http }] },
      ["values.initContainers[0].readinessProbe"],
    ],
    [
      "a service-account token of 500 seconds",
      {
        extraVolumes: [
          { name: "t", projected: { sources: [{ serviceAccountToken: { path: "t", expirationSeconds: 500 } }] } },
        ],
      },
      ["values.extraVolumes[0].projected.sources[0].serviceAccountToken.expirationSeconds"],
    ],
    [
      "emptyDir sizeLimit -1Gi",
      { extraVolumes: [{ name: "e", emptyDir: { sizeLimit: "-1Gi" } }] },
      ["values.extraVolumes[0].emptyDir.sizeLimit"],
    ],
    ["a sidecar restartPolicy Bogus", side({ restartPolicy: "Bogus" }), [`${S}.restartPolicy`]],
  ])("%s is refused", (_what, values, fields) => {
    expect(found(() => karpenter(values))).toEqual(fields.map((field) => ({ code: "HELM_VALUES_K8S_VALUE", field })));
  });

  test.each<[string, Record<string, unknown>]>([
    ["containerPort 8080 named metrics-port", side({ ports: [{ name: "metrics-port", containerPort: 8080 }] })],
    // a 1.36 API server takes it: ContainerRestartRules is on (kvalbin's default options had it off)
    ["a sidecar restartPolicy Always", side({ restartPolicy: "Always" })],
    ["imagePullPolicy IfNotPresent", side({ imagePullPolicy: "IfNotPresent" })],
    ["terminationMessagePolicy FallbackToLogsOnError", side({ terminationMessagePolicy: "FallbackToLogsOnError" })],
    ["privileged with privilege escalation unset", side({ securityContext: { privileged: true } })],
    ["a probe with one handler", side({ readinessProbe: { ...http, successThreshold: 2 } })],
    ["liveness successThreshold 1", side({ livenessProbe: { ...http, successThreshold: 1 } })],
    [
      "subPath a/b..c",
      {
        extraVolumes: [{ name: "c", emptyDir: {} }],
        ...side({ volumeMounts: [{ name: "c", mountPath: "/c", subPath: "a/b..c" }] }),
      },
    ],
    ["env name a.b-c", side({ env: [{ name: "a.b-c", value: "1" }] })],
    ["preStop sleep 0", side({ lifecycle: { preStop: { sleep: { seconds: 0 } } } })],
    ["resizePolicy NotRequired", side({ resizePolicy: [{ resourceName: "cpu", restartPolicy: "NotRequired" }] })],
    ["httpGet port by name", side({ readinessProbe: { httpGet: { port: "http" } } })],
    [
      "a native sidecar init container with probes and lifecycle",
      {
        initContainers: [
          {
            name: "i",
            image: "busybox",
            restartPolicy: "Always",
            readinessProbe: http,
            lifecycle: { preStop: { sleep: { seconds: 5 } } },
          },
        ],
      },
    ],
    [
      "a service-account token of 600 seconds",
      {
        extraVolumes: [
          { name: "t", projected: { sources: [{ serviceAccountToken: { path: "t", expirationSeconds: 600 } }] } },
        ],
      },
    ],
    ["emptyDir sizeLimit 1Gi", { extraVolumes: [{ name: "e", emptyDir: { sizeLimit: "1Gi" } }] }],
  ])("look-alike passes: %s", (_what, values) => {
    expect(() => karpenter(values)).not.toThrow();
  });

  test("every problem at once", () => {
    expect(
      found(() =>
        karpenter({
          ...side({ imagePullPolicy: "Sometimes", ports: [{ containerPort: 0 }] }),
          initContainers: [{ name: "i", image: "busybox", readinessProbe: http }],
          extraVolumes: [{ name: "e", emptyDir: { sizeLimit: "-1Gi" } }],
        }),
      ).map((p) => p.field),
    ).toEqual(
      expect.arrayContaining([
        `${S}.imagePullPolicy`,
        `${S}.ports[0].containerPort`,
        "values.initContainers[0].readinessProbe",
        "values.extraVolumes[0].emptyDir.sizeLimit",
      ]),
    );
  });
});

describe("pod-level and container resource rules (fresh tester 16)", () => {
  test("pod hostProcess without hostNetwork is refused; with hostNetwork it passes", () => {
    expect(found(() => karpenter({ podSecurityContext: { windowsOptions: { hostProcess: true } } }))).toEqual([
      { code: "HELM_VALUES_K8S_VALUE", field: "values.podSecurityContext.windowsOptions.hostProcess" },
    ]);
    expect(() =>
      karpenter({ hostNetwork: true, podSecurityContext: { windowsOptions: { hostProcess: true } } }),
    ).not.toThrow();
    expect(() => karpenter({ podSecurityContext: { windowsOptions: { hostProcess: false } } })).not.toThrow();
  });
  test("a sidecar's hugepages without cpu or memory is refused; with memory it passes", () => {
    expect(found(() => karpenter(side({ resources: { limits: { "hugepages-2Mi": "100Mi" } } })))).toEqual([
      { code: "HELM_VALUES_K8S_VALUE", field: `${S}.resources` },
    ]);
    expect(() =>
      karpenter(side({ resources: { limits: { "hugepages-2Mi": "100Mi", memory: "100Mi" } } })),
    ).not.toThrow();
  });
});
