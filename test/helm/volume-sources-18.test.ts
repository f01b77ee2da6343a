import { found, synthKarpenter } from "./release-harness";

/*
 * fresh tester 18, S-1: the rules of a volume's source that the API server applies to `values.extraVolumes`
 * (k8s.io/kubernetes@v1.36.3 pkg/apis/core/validation/validation.go; lib/kubernetes/object-rules.ts sourceProblems).
 * Each input is refused on its field, all problems of one volume list at once; each valid look-alike passes.
 */

const V = "values.extraVolumes[0]";
const vol = (source: Record<string, unknown>) => ({ extraVolumes: [{ name: "v", ...source }] });
const fields = (values: Record<string, unknown>) => found(() => synthKarpenter(values)).map((p) => p.field);

describe("volume sources the API server refuses (fresh tester 18)", () => {
  test.each<[string, Record<string, unknown>, string[]]>([
    [
      "a configMap item path ../x",
      vol({ configMap: { name: "c", items: [{ key: "k", path: "../x" }] } }),
      [`${V}.configMap.items[0].path`],
    ],
    [
      "a configMap item path /abs",
      vol({ configMap: { name: "c", items: [{ key: "k", path: "/abs" }] } }),
      [`${V}.configMap.items[0].path`],
    ],
    [
      "a configMap item path ..x",
      vol({ configMap: { name: "c", items: [{ key: "k", path: "..x" }] } }),
      [`${V}.configMap.items[0].path`],
    ],
    [
      "a configMap item without a key",
      vol({ configMap: { name: "c", items: [{ path: "x" }] } }),
      [`${V}.configMap.items[0].key`],
    ],
    [
      "a configMap item without a path",
      vol({ configMap: { name: "c", items: [{ key: "k", path: "" }] } }),
      [`${V}.configMap.items[0].path`],
    ],
    ["a configMap without a name", vol({ configMap: {} }), [`${V}.configMap.name`]],
    [
      "a secret without secretName",
      vol({ secret: { items: [{ key: "k", path: "a/../b" }] } }),
      [`${V}.secret.secretName`, `${V}.secret.items[0].path`],
    ],
    ["a hostPath with ..", vol({ hostPath: { path: "/var/../etc" } }), [`${V}.hostPath.path`]],
    ["a hostPath without a path", vol({ hostPath: { path: "" } }), [`${V}.hostPath.path`]],
    [
      "a persistentVolumeClaim without claimName",
      vol({ persistentVolumeClaim: {} }),
      [`${V}.persistentVolumeClaim.claimName`],
    ],
    ["an nfs relative path", vol({ nfs: { server: "10.0.0.1", path: "exports" } }), [`${V}.nfs.path`]],
    ["an nfs without a server", vol({ nfs: { path: "/exports" } }), [`${V}.nfs.server`]],
    ["a csi driver with _", vol({ csi: { driver: "efs_csi" } }), [`${V}.csi.driver`]],
    ["a csi driver of 64 characters", vol({ csi: { driver: "a".repeat(64) } }), [`${V}.csi.driver`]],
    ["a csi without a driver", vol({ csi: {} }), [`${V}.csi.driver`]],
    [
      "a downwardAPI file with no source",
      vol({ downwardAPI: { items: [{ path: "labels" }] } }),
      [`${V}.downwardAPI.items[0].fieldRef`],
    ],
    [
      "a downwardAPI file of spec.nodeName (env only)",
      vol({ downwardAPI: { items: [{ path: "node", fieldRef: { fieldPath: "spec.nodeName" } }] } }),
      [`${V}.downwardAPI.items[0].fieldRef.fieldPath`],
    ],
    [
      "a downwardAPI resourceFieldRef without containerName",
      vol({ downwardAPI: { items: [{ path: "cpu", resourceFieldRef: { resource: "limits.cpu" } }] } }),
      [`${V}.downwardAPI.items[0].resourceFieldRef.containerName`],
    ],
    [
      "projected: one path from two sources",
      vol({
        projected: {
          sources: [
            { configMap: { name: "a", items: [{ key: "k", path: "same" }] } },
            { secret: { name: "b", items: [{ key: "k", path: "same" }] } },
          ],
        },
      }),
      [`${V}.projected.sources[1].secret.items[0].path`],
    ],
    [
      "projected: a token path with ..",
      vol({ projected: { sources: [{ serviceAccountToken: { path: "../token" } }] } }),
      [`${V}.projected.sources[0].serviceAccountToken.path`],
    ],
    [
      "projected: a token without a path",
      vol({ projected: { sources: [{ serviceAccountToken: { audience: "sts.amazonaws.com" } }] } }),
      [`${V}.projected.sources[0].serviceAccountToken.path`],
    ],
    [
      "projected: a configMap source without a name",
      vol({ projected: { sources: [{ configMap: { items: [{ key: "k", path: "p" }] } }] } }),
      [`${V}.projected.sources[0].configMap.name`],
    ],
    [
      "projected: two kinds in one source",
      vol({ projected: { sources: [{ configMap: { name: "a" }, secret: { name: "b" } }] } }),
      [`${V}.projected.sources[0].configMap`],
    ],
    ["an image volume without a reference", vol({ image: {} }), [`${V}.image.reference`]],
    ["an ephemeral volume without a template", vol({ ephemeral: {} }), [`${V}.ephemeral.volumeClaimTemplate`]],
  ])("%s", (_what, values, expected) => {
    const problems = found(() => synthKarpenter(values));
    expect(problems.map((p) => p.field).sort()).toEqual([...expected].sort());
    for (const p of problems) expect(p.code).toBe("HELM_VALUES_K8S_VALUE");
  });

  test.each<[string, Record<string, unknown>]>([
    ["configMap items with nested paths", vol({ configMap: { name: "c", items: [{ key: "k", path: "a/b.yaml" }] } })],
    ["a path holding .. inside a name", vol({ configMap: { name: "c", items: [{ key: "k", path: "a..b" }] } })],
    ["a hostPath", vol({ hostPath: { path: "/var/log/karpenter" } })],
    ["an nfs", vol({ nfs: { server: "fs-1.efs.us-east-1.amazonaws.com", path: "/" } })],
    ["a csi driver in capitals (case is ignored)", vol({ csi: { driver: "EFS.csi.aws.com" } })],
    [
      "a downwardAPI of labels and a container's cpu",
      vol({
        downwardAPI: {
          items: [
            { path: "labels", fieldRef: { fieldPath: "metadata.labels" } },
            { path: "cpu", resourceFieldRef: { containerName: "controller", resource: "limits.cpu" } },
          ],
        },
      }),
    ],
    [
      "projected token and configMap with distinct paths",
      vol({
        projected: {
          sources: [
            { serviceAccountToken: { path: "token", audience: "sts.amazonaws.com" } },
            { configMap: { name: "a", items: [{ key: "k", path: "ca.crt" }] } },
          ],
        },
      }),
    ],
  ])("passes: %s", (_what, values) => {
    expect(() => synthKarpenter(values)).not.toThrow();
  });

  test("every volume's problems at once, only the first source of a volume judged (nfs before persistentVolumeClaim in the API's order)", () => {
    const got = fields({
      extraVolumes: [
        { name: "a", persistentVolumeClaim: {}, nfs: { path: "x" } },
        { name: "b", hostPath: { path: "/a/.." } },
      ],
    });
    expect(got.sort()).toEqual(
      [
        "values.extraVolumes[0].nfs.path",
        "values.extraVolumes[0].nfs.server",
        "values.extraVolumes[0].persistentVolumeClaim",
        "values.extraVolumes[1].hostPath.path",
      ].sort(),
    );
  });
});
