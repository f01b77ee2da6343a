import { found, synthKarpenter, synthRelease } from "./release-harness";

/*
 * fresh tester 13, S-6..S-21: values the chart renders into the pod's volumes, volume mounts, init and sidecar
 * containers and env references, a fractional revisionHistoryLimit and name overrides, which the API server refuses
 * (k8s.io/kubernetes@v1.36.3 pkg/apis/core/validation/validation.go; rules in lib/kubernetes/object-rules.ts). Each
 * row's input is refused with HELM_VALUES_K8S_VALUE on its field; each valid look-alike passes.
 */

const karpenter = synthKarpenter;
const release = synthRelease;
const cache = { name: "cache", emptyDir: {} };

describe("values the API server refuses in the pod (fresh tester 13)", () => {
  test.each<[string, Record<string, unknown>, string[]]>([
    [
      "S-6 volume name Bad_Name",
      { extraVolumes: [{ name: "Bad_Name", emptyDir: {} }] },
      ["values.extraVolumes[0].name"],
    ],
    [
      "S-6 volume name of 64",
      { extraVolumes: [{ name: "a".repeat(64), emptyDir: {} }] },
      ["values.extraVolumes[0].name"],
    ],
    [
      "S-7 two volumes named a",
      {
        extraVolumes: [
          { name: "a", emptyDir: {} },
          { name: "a", emptyDir: {} },
        ],
      },
      ["values.extraVolumes[1].name"],
    ],
    [
      "S-8 two volume sources",
      { extraVolumes: [{ name: "a", emptyDir: {}, hostPath: { path: "/tmp" } }] },
      ["values.extraVolumes[0].hostPath"],
    ],
    [
      "S-9 hostPath type Bogus",
      { extraVolumes: [{ name: "a", hostPath: { path: "/tmp", type: "Bogus" } }] },
      ["values.extraVolumes[0].hostPath.type"],
    ],
    [
      "S-10 configMap defaultMode 1000",
      { extraVolumes: [{ name: "a", configMap: { name: "c", defaultMode: 1000 } }] },
      ["values.extraVolumes[0].configMap.defaultMode"],
    ],
    [
      "S-10 secret item mode 512",
      { extraVolumes: [{ name: "a", secret: { secretName: "s", items: [{ key: "k", path: "p", mode: 512 }] } }] },
      ["values.extraVolumes[0].secret.items[0].mode"],
    ],
    [
      "S-11 extraVolumeMounts naming no volume",
      { controller: { extraVolumeMounts: [{ name: "nope", mountPath: "/x" }] } },
      ["values.controller.extraVolumeMounts[0].name"],
    ],
    [
      "S-11 sidecarVolumeMounts naming no volume",
      {
        extraVolumes: [cache],
        controller: {
          sidecarContainer: [{ name: "side", image: "busybox" }],
          sidecarVolumeMounts: [{ name: "nope", mountPath: "/x" }],
        },
      },
      ["values.controller.sidecarVolumeMounts[0].name"],
    ],
    [
      "S-12 empty mountPath",
      {
        extraVolumes: [{ name: "a", emptyDir: {} }],
        controller: { extraVolumeMounts: [{ name: "a", mountPath: "" }] },
      },
      ["values.controller.extraVolumeMounts[0].mountPath"],
    ],
    [
      "S-13 two mounts at /a",
      {
        extraVolumes: [{ name: "a", emptyDir: {} }],
        controller: {
          extraVolumeMounts: [
            { name: "a", mountPath: "/a" },
            { name: "a", mountPath: "/a" },
          ],
        },
      },
      ["values.controller.extraVolumeMounts[1].mountPath"],
    ],
    [
      "S-14 init container Bad_Name",
      { initContainers: [{ name: "Bad_Name", image: "busybox" }] },
      ["values.initContainers[0].name"],
    ],
    [
      "S-14 init container named controller",
      { initContainers: [{ name: "controller", image: "busybox" }] },
      ["values.initContainers[0].name"],
    ],
    ["S-15 init container without image", { initContainers: [{ name: "init" }] }, ["values.initContainers[0].image"]],
    [
      "S-15 sidecar without image",
      { controller: { sidecarContainer: [{ name: "side" }] } },
      ["values.controller.sidecarContainer[0].image"],
    ],
    [
      "S-16 sidecar named controller",
      { controller: { sidecarContainer: [{ name: "controller", image: "busybox" }] } },
      ["values.controller.sidecarContainer[0].name"],
    ],
    [
      "S-17 fieldRef spec.bogus",
      { controller: { env: [{ name: "X", valueFrom: { fieldRef: { fieldPath: "spec.bogus" } } }] } },
      ["values.controller.env[0].valueFrom.fieldRef.fieldPath"],
    ],
    [
      "S-17 resourceFieldRef bogus",
      { controller: { env: [{ name: "X", valueFrom: { resourceFieldRef: { resource: "bogus" } } }] } },
      ["values.controller.env[0].valueFrom.resourceFieldRef.resource"],
    ],
    [
      "S-18 secretKeyRef without key",
      { controller: { env: [{ name: "X", valueFrom: { secretKeyRef: { name: "s" } } }] } },
      ["values.controller.env[0].valueFrom.secretKeyRef.key"],
    ],
    [
      "S-18 secretKeyRef key bad/key",
      { controller: { env: [{ name: "X", valueFrom: { secretKeyRef: { name: "s", key: "bad/key" } } }] } },
      ["values.controller.env[0].valueFrom.secretKeyRef.key"],
    ],
    [
      "S-19 envFrom configMapRef Bad_Name",
      { controller: { envFrom: [{ configMapRef: { name: "Bad_Name" } }] } },
      ["values.controller.envFrom[0].configMapRef.name"],
    ],
    ["S-20 revisionHistoryLimit 1.5", { revisionHistoryLimit: 1.5 }, ["values.revisionHistoryLimit"]],
    ["S-21 nameOverride Bad_Name", { nameOverride: "Bad_Name" }, ["values.nameOverride"]],
    ["fullnameOverride with a dot", { fullnameOverride: "kp.prod" }, ["values.fullnameOverride"]],
  ])("%s is refused", (_what, values, fields) => {
    expect(found(() => karpenter(values))).toEqual(fields.map((field) => ({ code: "HELM_VALUES_K8S_VALUE", field })));
  });

  test.each<[string, Record<string, unknown>]>([
    [
      "a volume cache with emptyDir mounted at /cache",
      { extraVolumes: [cache], controller: { extraVolumeMounts: [{ name: "cache", mountPath: "/cache" }] } },
    ],
    ["a volume with no source (defaulted to emptyDir)", { extraVolumes: [{ name: "scratch" }] }],
    [
      "hostPath type DirectoryOrCreate",
      { extraVolumes: [{ name: "a", hostPath: { path: "/tmp", type: "DirectoryOrCreate" } }] },
    ],
    ["configMap defaultMode 0644 (420)", { extraVolumes: [{ name: "a", configMap: { name: "c", defaultMode: 420 } }] }],
    ["an init container init with an image", { initContainers: [{ name: "init", image: "busybox" }] }],
    [
      "a sidecar with the controller's and its own mounts",
      {
        extraVolumes: [cache, { name: "side", emptyDir: {} }],
        controller: {
          extraVolumeMounts: [{ name: "cache", mountPath: "/cache" }],
          sidecarContainer: [{ name: "side", image: "busybox" }],
          sidecarVolumeMounts: [{ name: "side", mountPath: "/side" }],
        },
      },
    ],
    [
      "sidecarVolumeMounts without a sidecar are not rendered",
      { controller: { sidecarVolumeMounts: [{ name: "nope", mountPath: "/x" }] } },
    ],
    [
      "fieldRef metadata.name",
      { controller: { env: [{ name: "X", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } }] } },
    ],
    [
      "fieldRef metadata.labels['app']",
      { controller: { env: [{ name: "X", valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } }] } },
    ],
    [
      "resourceFieldRef limits.memory",
      { controller: { env: [{ name: "X", valueFrom: { resourceFieldRef: { resource: "limits.memory" } } }] } },
    ],
    [
      "secretKeyRef with a key",
      { controller: { env: [{ name: "X", valueFrom: { secretKeyRef: { name: "s", key: "token.txt" } } }] } },
    ],
    [
      "envFrom configMapRef my-config",
      { controller: { envFrom: [{ configMapRef: { name: "my-config" }, prefix: "CFG_" }] } },
    ],
    ["revisionHistoryLimit 3", { revisionHistoryLimit: 3 }],
    ["nameOverride kp", { nameOverride: "kp" }],
    ["fullnameOverride kp", { fullnameOverride: "kp" }],
  ])("look-alike passes: %s", (_what, values) => {
    expect(() => karpenter(values)).not.toThrow();
  });

  test("every problem at once", () => {
    expect(
      found(() =>
        karpenter({
          extraVolumes: [{ name: "Bad_Name", emptyDir: {} }],
          initContainers: [{ name: "init" }],
          revisionHistoryLimit: 1.5,
        }),
      ).map((p) => p.field),
    ).toEqual(
      expect.arrayContaining([
        "values.extraVolumes[0].name",
        "values.initContainers[0].image",
        "values.revisionHistoryLimit",
      ]),
    );
  });

  test("KarpenterRelease: nameOverride judged with its release name", () => {
    // release "kp" does not contain the name: fullname is "kp-x_y", which the Service cannot take
    expect(() => release({ releaseName: "kp", values: { nameOverride: "x_y" } })).toThrow(/values\.nameOverride/);
    expect(() => release({ releaseName: "kp", values: { nameOverride: "xy" } })).not.toThrow();
  });

  test("a custom controller container name frees controller for a sidecar", () => {
    expect(() =>
      karpenter({
        controller: { containerName: "main", sidecarContainer: [{ name: "controller", image: "busybox" }] },
      }),
    ).not.toThrow();
    expect(
      found(() =>
        karpenter({ controller: { containerName: "main", sidecarContainer: [{ name: "main", image: "busybox" }] } }),
      ),
    ).toEqual([{ code: "HELM_VALUES_K8S_VALUE", field: "values.controller.sidecarContainer[0].name" }]);
  });
});

describe("how the chart renders the sidecars' mounts", () => {
  const sidecars = [
    { name: "one", image: "busybox" },
    { name: "two", image: "busybox" },
  ];
  const values = {
    controller: { sidecarContainer: sidecars, sidecarVolumeMounts: [{ name: "nope", mountPath: "/x" }] },
  };
  test("from 1.3 each sidecar gets them (range): one problem, not one per sidecar", () => {
    expect(found(() => release({ values }))).toEqual([
      { code: "HELM_VALUES_K8S_VALUE", field: "values.controller.sidecarVolumeMounts[0].name" },
    ]);
  });
  test("up to 1.2 the last sidecar gets them", () => {
    expect(found(() => release({ version: "1.2.8", values }))).toEqual([
      { code: "HELM_VALUES_K8S_VALUE", field: "values.controller.sidecarVolumeMounts[0].name" },
    ]);
  });
  test("the controller's mount path repeated in a sidecar's mounts is refused there", () => {
    expect(
      found(() =>
        release({
          values: {
            extraVolumes: [cache],
            controller: {
              extraVolumeMounts: [{ name: "cache", mountPath: "/cache" }],
              sidecarContainer: [sidecars[0]],
              sidecarVolumeMounts: [{ name: "cache", mountPath: "/cache" }],
            },
          },
        }),
      ),
    ).toEqual([{ code: "HELM_VALUES_K8S_VALUE", field: "values.controller.sidecarVolumeMounts[0].mountPath" }]);
  });
});
