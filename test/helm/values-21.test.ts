import { Token } from "cdktf";
import { goText } from "../../lib/helm/log-output-paths";
import { rejected } from "../helpers";
import { synthKarpenter } from "./release-harness";

/*
 * issue 31, fresh tester 20: chart values that synthesize but the API server (or the kubelet, or the controller)
 * refuses. k8s.io/kubernetes@v1.36.3 pkg/apis/core/validation/validation.go (lib/kubernetes/object-rules.ts):
 * an image volume's pullPolicy (validateImageVolumeSource → validatePullPolicy), an ephemeral volume's claim template
 * (ValidatePersistentVolumeClaimTemplate), an emptyDir's medium (the kubelet's emptydir plugin), the probes and
 * resources of sidecar and init containers (the rules of every container); and log output paths that are not a list
 * of strings, which the chart's `join` writes as Go's text of them (lib/helm/log-output-paths.ts).
 */

const V = "values.extraVolumes[0]";
const vol = (source: Record<string, unknown>) => ({ extraVolumes: [{ name: "v", ...source }] });
const S = "values.controller.sidecarContainer[0]";
const sidecar = (c: Record<string, unknown>) => ({
  controller: { sidecarContainer: [{ name: "side", image: "busybox:1.36", ...c }] },
});
const I = "values.initContainers[0]";
const init = (c: Record<string, unknown>) => ({ initContainers: [{ name: "init", image: "busybox:1.36", ...c }] });
const claim = (t: Record<string, unknown>) => vol({ ephemeral: { volumeClaimTemplate: t } });
const goodSpec = { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } };
const exec = { exec: { command: ["true"] } };

/** Every problem's code, field and value. */
const problemsOf = (values: Record<string, unknown>) =>
  rejected(() => synthKarpenter(values)).problems.map((p) => ({ code: p.code, field: p.field, value: p.value }));

describe("values the API server refuses (issue 31, fresh tester 20)", () => {
  test.each<[string, Record<string, unknown>, [string, unknown][]]>([
    // 1. image volume pullPolicy
    [
      "an image volume's pullPolicy not one of the three",
      vol({ image: { reference: "busybox:1.36", pullPolicy: "Sometimes" } }),
      [[`${V}.image.pullPolicy`, "Sometimes"]],
    ],
    [
      "an image volume's pullPolicy in lower case",
      vol({ image: { reference: "busybox:1.36", pullPolicy: "always" } }),
      [[`${V}.image.pullPolicy`, "always"]],
    ],
    // 2. ephemeral claim template
    [
      "a claim template without a spec",
      claim({}),
      [
        [`${V}.ephemeral.volumeClaimTemplate.spec.accessModes`, undefined],
        [`${V}.ephemeral.volumeClaimTemplate.spec.resources.requests.storage`, undefined],
      ],
    ],
    [
      "a claim template without a storage request",
      claim({ spec: { accessModes: ["ReadWriteOnce"] } }),
      [[`${V}.ephemeral.volumeClaimTemplate.spec.resources.requests.storage`, undefined]],
    ],
    [
      "a claim template with an empty accessModes list",
      claim({ spec: { ...goodSpec, accessModes: [] } }),
      [[`${V}.ephemeral.volumeClaimTemplate.spec.accessModes`, []]],
    ],
    [
      "a claim template's access mode RWO",
      claim({ spec: { ...goodSpec, accessModes: ["RWO"] } }),
      [[`${V}.ephemeral.volumeClaimTemplate.spec.accessModes[0]`, "RWO"]],
    ],
    [
      "a claim template's ReadWriteOncePod with another mode",
      claim({ spec: { ...goodSpec, accessModes: ["ReadWriteOncePod", "ReadWriteOnce"] } }),
      [[`${V}.ephemeral.volumeClaimTemplate.spec.accessModes`, ["ReadWriteOncePod", "ReadWriteOnce"]]],
    ],
    [
      "a claim template's storage request of 0",
      claim({ spec: { ...goodSpec, resources: { requests: { storage: "0" } } } }),
      [[`${V}.ephemeral.volumeClaimTemplate.spec.resources.requests.storage`, "0"]],
    ],
    [
      "a claim template's storage class in capitals",
      claim({ spec: { ...goodSpec, storageClassName: "GP3" } }),
      [[`${V}.ephemeral.volumeClaimTemplate.spec.storageClassName`, "GP3"]],
    ],
    [
      "a claim template's volumeMode not Block or Filesystem",
      claim({ spec: { ...goodSpec, volumeMode: "filesystem" } }),
      [[`${V}.ephemeral.volumeClaimTemplate.spec.volumeMode`, "filesystem"]],
    ],
    [
      "a claim template's metadata with a name and a namespace",
      claim({ metadata: { name: "scratch", namespace: "kube-system" }, spec: goodSpec }),
      [
        [`${V}.ephemeral.volumeClaimTemplate.metadata.name`, "scratch"],
        [`${V}.ephemeral.volumeClaimTemplate.metadata.namespace`, "kube-system"],
      ],
    ],
    [
      "a claim template's metadata with finalizers, even an empty list (decoded non-nil)",
      claim({ metadata: { finalizers: [] }, spec: goodSpec }),
      [[`${V}.ephemeral.volumeClaimTemplate.metadata.finalizers`, []]],
    ],
    [
      "a claim template's dataSourceRef namespace not a DNS label",
      claim({
        spec: {
          ...goodSpec,
          dataSourceRef: {
            apiGroup: "snapshot.storage.k8s.io",
            kind: "VolumeSnapshot",
            name: "s",
            namespace: "Bad_NS",
          },
        },
      }),
      [[`${V}.ephemeral.volumeClaimTemplate.spec.dataSourceRef.namespace`, "Bad_NS"]],
    ],
    [
      "a claim template's dataSource and dataSourceRef naming different claims",
      claim({
        spec: {
          ...goodSpec,
          dataSource: { kind: "PersistentVolumeClaim", name: "a" },
          dataSourceRef: { kind: "PersistentVolumeClaim", name: "b" },
        },
      }),
      [[`${V}.ephemeral.volumeClaimTemplate.spec.dataSource`, { kind: "PersistentVolumeClaim", name: "a" }]],
    ],
    [
      "a claim template's volumeAttributesClassName with '_'",
      claim({ spec: { ...goodSpec, volumeAttributesClassName: "fast_io" } }),
      [[`${V}.ephemeral.volumeClaimTemplate.spec.volumeAttributesClassName`, "fast_io"]],
    ],
    [
      "a claim template's label value with a space",
      claim({ metadata: { labels: { team: "a b" } }, spec: goodSpec }),
      [[`${V}.ephemeral.volumeClaimTemplate.metadata.labels["team"]`, "a b"]],
    ],
    [
      "a claim template's data source of another kind without an apiGroup",
      claim({ spec: { ...goodSpec, dataSource: { kind: "VolumeSnapshot", name: "snap" } } }),
      [[`${V}.ephemeral.volumeClaimTemplate.spec.dataSource.kind`, "VolumeSnapshot"]],
    ],
    [
      "a claim template's selector with a bad operator",
      claim({ spec: { ...goodSpec, selector: { matchExpressions: [{ key: "a", operator: "in", values: ["b"] }] } } }),
      [[`${V}.ephemeral.volumeClaimTemplate.spec.selector.matchExpressions[0].operator`, "in"]],
    ],
    // 3. emptyDir medium and sizeLimit
    ["an emptyDir medium Disk", vol({ emptyDir: { medium: "Disk" } }), [[`${V}.emptyDir.medium`, "Disk"]]],
    ["an emptyDir medium memory (case)", vol({ emptyDir: { medium: "memory" } }), [[`${V}.emptyDir.medium`, "memory"]]],
    [
      "an emptyDir HugePages medium whose size is no quantity",
      vol({ emptyDir: { medium: "HugePages-2MB" } }),
      [[`${V}.emptyDir.medium`, "HugePages-2MB"]],
    ],
    [
      "an emptyDir HugePages medium no container requests",
      vol({ emptyDir: { medium: "HugePages" } }),
      [[`${V}.emptyDir.medium`, "HugePages"]],
    ],
    [
      "an emptyDir HugePages-1Gi medium while the sidecar requests 2Mi pages",
      {
        ...vol({ emptyDir: { medium: "HugePages-1Gi" } }),
        ...sidecar({ resources: { limits: { "hugepages-2Mi": "4Mi", memory: "64Mi" } } }),
      },
      [[`${V}.emptyDir.medium`, "HugePages-1Gi"]],
    ],
    ["an emptyDir sizeLimit below 0", vol({ emptyDir: { sizeLimit: "-1Gi" } }), [[`${V}.emptyDir.sizeLimit`, "-1Gi"]]],
    // 4. sidecar and init containers: probes and resources
    [
      "a sidecar liveness probe without a handler",
      sidecar({ livenessProbe: { periodSeconds: 10 } }),
      [[`${S}.livenessProbe`, { periodSeconds: 10 }]],
    ],
    [
      "a sidecar probe with two handlers",
      sidecar({ readinessProbe: { ...exec, tcpSocket: { port: 80 } } }),
      [[`${S}.readinessProbe.tcpSocket`, "exec, tcpSocket"]],
    ],
    [
      "a sidecar probe's negative periodSeconds and failureThreshold",
      sidecar({ readinessProbe: { ...exec, periodSeconds: -1, failureThreshold: -3 } }),
      [
        [`${S}.readinessProbe.periodSeconds`, -1],
        [`${S}.readinessProbe.failureThreshold`, -3],
      ],
    ],
    [
      "a sidecar startup probe's successThreshold 2",
      sidecar({ startupProbe: { ...exec, successThreshold: 2 } }),
      [[`${S}.startupProbe.successThreshold`, 2]],
    ],
    [
      "a sidecar readiness probe with its own grace period",
      sidecar({ readinessProbe: { ...exec, terminationGracePeriodSeconds: 5 } }),
      [[`${S}.readinessProbe.terminationGracePeriodSeconds`, 5]],
    ],
    [
      "a sidecar liveness probe's grace period of 0",
      sidecar({ livenessProbe: { ...exec, terminationGracePeriodSeconds: 0 } }),
      [[`${S}.livenessProbe.terminationGracePeriodSeconds`, 0]],
    ],
    [
      "a sidecar probe's exec without a command",
      sidecar({ livenessProbe: { exec: { command: [] } } }),
      [[`${S}.livenessProbe.exec.command`, []]],
    ],
    [
      "a sidecar preStop exec without a command",
      sidecar({ lifecycle: { preStop: { exec: {} } } }),
      [[`${S}.lifecycle.preStop.exec.command`, undefined]],
    ],
    [
      "a sidecar probe's scheme in lower case and a header name with a space",
      sidecar({
        readinessProbe: { httpGet: { port: 8080, scheme: "https", httpHeaders: [{ name: "X Probe", value: "1" }] } },
      }),
      [
        [`${S}.readinessProbe.httpGet.scheme`, "https"],
        [`${S}.readinessProbe.httpGet.httpHeaders[0].name`, "X Probe"],
      ],
    ],
    [
      "a sidecar probe with two handlers: only the second is named, the first's port not judged further",
      sidecar({ livenessProbe: { ...exec, tcpSocket: { port: 0 } } }),
      [[`${S}.livenessProbe.tcpSocket`, "exec, tcpSocket"]],
    ],
    [
      "a sidecar's cpu request above its limit",
      sidecar({ resources: { requests: { cpu: "2" }, limits: { cpu: "1" } } }),
      [[`${S}.resources.requests.cpu`, "2"]],
    ],
    [
      "a sidecar's negative memory limit",
      sidecar({ resources: { limits: { memory: "-128Mi" } } }),
      [[`${S}.resources.limits.memory`, "-128Mi"]],
    ],
    [
      "a sidecar's resource name without a domain",
      sidecar({ resources: { limits: { gpu: 1 } } }),
      [[`${S}.resources.limits.gpu`, 1]],
    ],
    [
      "a sidecar's extended resource request without a limit",
      sidecar({ resources: { requests: { "nvidia.com/gpu": 1 } } }),
      [[`${S}.resources.limits["nvidia.com/gpu"]`, undefined]],
    ],
    [
      "a sidecar's half GPU",
      sidecar({ resources: { limits: { "nvidia.com/gpu": "0.5" } } }),
      [[`${S}.resources.limits["nvidia.com/gpu"]`, "0.5"]],
    ],
    [
      "a sidecar's hugepages request below its limit",
      sidecar({
        resources: {
          requests: { "hugepages-2Mi": "2Mi", memory: "64Mi" },
          limits: { "hugepages-2Mi": "4Mi", memory: "64Mi" },
        },
      }),
      [[`${S}.resources.requests.hugepages-2Mi`, "2Mi"]],
    ],
    [
      "an init container's request above its limit",
      init({ resources: { requests: { memory: "1Gi" }, limits: { memory: "512Mi" } } }),
      [[`${I}.resources.requests.memory`, "1Gi"]],
    ],
    [
      "an init container (not a sidecar) with a readiness probe",
      init({ readinessProbe: exec }),
      [[`${I}.readinessProbe`, exec]],
    ],
    [
      "a restartable init container's probe without a handler",
      init({ restartPolicy: "Always", startupProbe: { initialDelaySeconds: -5 } }),
      [
        [`${I}.startupProbe`, { initialDelaySeconds: -5 }],
        [`${I}.startupProbe.initialDelaySeconds`, -5],
      ],
    ],
    [
      "the controller's own resource name without a domain",
      { controller: { resources: { limits: { gpu: 1 } } } },
      [["values.controller.resources.limits.gpu", 1]],
    ],
  ])("%s", (_what, values, expected) => {
    const problems = problemsOf(values);
    expect(problems.map((p) => [p.field, p.value]).sort()).toEqual([...expected].sort());
    for (const p of problems) expect(p.code).toBe("HELM_VALUES_K8S_VALUE");
  });

  test("every problem of the pod at once", () => {
    const got = problemsOf({
      extraVolumes: [
        { name: "a", image: { reference: "busybox:1.36", pullPolicy: "Sometimes" } },
        { name: "b", emptyDir: { medium: "Disk" } },
        { name: "c", ephemeral: { volumeClaimTemplate: {} } },
      ],
      controller: {
        sidecarContainer: [{ name: "side", image: "busybox:1.36", livenessProbe: { ...exec, successThreshold: 3 } }],
      },
      initContainers: [
        { name: "init", image: "busybox:1.36", resources: { requests: { cpu: "2" }, limits: { cpu: "1" } } },
      ],
    }).map((p) => p.field);
    expect(got.sort()).toEqual(
      [
        "values.extraVolumes[0].image.pullPolicy",
        "values.extraVolumes[1].emptyDir.medium",
        "values.extraVolumes[2].ephemeral.volumeClaimTemplate.spec.accessModes",
        "values.extraVolumes[2].ephemeral.volumeClaimTemplate.spec.resources.requests.storage",
        `${S}.livenessProbe.successThreshold`,
        `${I}.resources.requests.cpu`,
      ].sort(),
    );
  });

  test("the message names what is allowed and, for the kubelet's rule, who refuses", () => {
    const pull = rejected(() =>
      synthKarpenter(vol({ image: { reference: "busybox:1.36", pullPolicy: "Sometimes" } })),
    ).message;
    expect(pull).toMatch(/"Always", "IfNotPresent", "Never"/);
    const medium = rejected(() => synthKarpenter(vol({ emptyDir: { medium: "Disk" } }))).message;
    expect(medium).toMatch(/the API server accepts "Disk", but the kubelet refuses to mount the volume/);
    expect(medium).not.toMatch(/the Kubernetes API server refuses the rendered object otherwise/);
  });

  test.each<[string, Record<string, unknown>]>([
    ["an image volume pulled IfNotPresent", vol({ image: { reference: "busybox:1.36", pullPolicy: "IfNotPresent" } })],
    ["an image volume pulled Never", vol({ image: { reference: "busybox:1.36", pullPolicy: "Never" } })],
    ["an image volume with pullPolicy unset", vol({ image: { reference: "busybox:latest" } })],
    ["a claim template with labels and a spec", claim({ metadata: { labels: { app: "k" } }, spec: goodSpec })],
    [
      "a claim template of ReadWriteOncePod alone, a class, Filesystem, a snapshot source",
      claim({
        metadata: { annotations: { "example.com/note": "x" }, name: "" },
        spec: {
          ...goodSpec,
          accessModes: ["ReadWriteOncePod"],
          storageClassName: "gp3",
          volumeMode: "Filesystem",
          dataSource: { apiGroup: "snapshot.storage.k8s.io", kind: "VolumeSnapshot", name: "snap" },
        },
      }),
    ],
    [
      "a claim template's metadata with null, 0 and an upper-case annotation key",
      claim({
        metadata: { creationTimestamp: null, generation: 0, annotations: { "Example.com/Note": "x" } },
        spec: { ...goodSpec, resources: { requests: { storage: 1073741824 } } },
      }),
    ],
    [
      "a claim template's dataSource and dataSourceRef naming one claim",
      claim({
        spec: {
          ...goodSpec,
          dataSource: { kind: "PersistentVolumeClaim", name: "a" },
          dataSourceRef: { kind: "PersistentVolumeClaim", name: "a" },
        },
      }),
    ],
    [
      "an image volume with an empty pullPolicy (defaulted)",
      vol({ image: { reference: "busybox:1.36", pullPolicy: "" } }),
    ],
    ["an emptyDir in Memory of 1Gi", vol({ emptyDir: { medium: "Memory", sizeLimit: "1Gi" } })],
    ["an emptyDir with an empty medium", vol({ emptyDir: { medium: "" } })],
    [
      "an emptyDir HugePages-2Mi medium a sidecar requests",
      {
        ...vol({ emptyDir: { medium: "HugePages-2Mi" } }),
        ...sidecar({ resources: { limits: { "hugepages-2Mi": "4Mi", memory: "64Mi" } } }),
      },
    ],
    ["an emptyDir sizeLimit of 0", vol({ emptyDir: { sizeLimit: "0" } })],
    [
      "a sidecar with valid probes (0 takes the defaults)",
      sidecar({
        livenessProbe: { httpGet: { path: "/healthz", port: 8080 }, periodSeconds: 0, successThreshold: 0 },
        readinessProbe: { tcpSocket: { port: "http" }, successThreshold: 3, failureThreshold: 1 },
        lifecycle: {
          preStop: { httpGet: { port: 8080, scheme: "HTTPS", httpHeaders: [{ name: "X-Probe", value: "1" }] } },
        },
        startupProbe: { ...exec, successThreshold: 1, terminationGracePeriodSeconds: 30 },
      }),
    ],
    [
      "a sidecar with requests at their limits and a GPU",
      sidecar({
        resources: {
          requests: { cpu: "500m", memory: "128Mi", "nvidia.com/gpu": 1 },
          limits: { cpu: "0.5", memory: "128Mi", "nvidia.com/gpu": 1 },
        },
      }),
    ],
    ["a sidecar with a limit only", sidecar({ resources: { limits: { memory: "256Mi", "nvidia.com/gpu": 2 } } })],
    [
      "a readiness probe's null grace period",
      sidecar({ readinessProbe: { ...exec, terminationGracePeriodSeconds: null } }),
    ],
    [
      "an init container's extended resource request equal to its limit",
      init({ resources: { requests: { "example.com/dev": "2" }, limits: { "example.com/dev": "2" } } }),
    ],
    [
      "a kubernetes.io/ resource (native, not extended)",
      sidecar({ resources: { limits: { "kubernetes.io/foo": "1" } } }),
    ],
    [
      "the controller's hugepages (the typed prop's cpu and memory requests stay)",
      { controller: { resources: { requests: { "hugepages-2Mi": "2Mi" }, limits: { "hugepages-2Mi": "2Mi" } } } },
    ],
    ["a restartable init container with a startup probe", init({ restartPolicy: "Always", startupProbe: exec })],
    [
      "an init container with requests below limits",
      init({ resources: { requests: { cpu: "100m" }, limits: { cpu: "1" } } }),
    ],
  ])("passes: %s", (_what, values) => {
    expect(() => synthKarpenter(values)).not.toThrow();
  });
});

describe("tokens are left for apply (issue 31)", () => {
  const t = () => Token.asString({ Ref: "x" });
  const n = () => Token.asNumber({ Ref: "n" });
  test.each<[string, Record<string, unknown>]>([
    ["an image volume's pullPolicy", vol({ image: { reference: "busybox:1.36", pullPolicy: t() } })],
    ["an emptyDir medium", vol({ emptyDir: { medium: t() } })],
    ["a claim template's storage request", claim({ spec: { ...goodSpec, resources: { requests: { storage: t() } } } })],
    ["a sidecar probe's periodSeconds", sidecar({ livenessProbe: { ...exec, periodSeconds: n() } })],
    ["a sidecar's cpu request", sidecar({ resources: { requests: { cpu: t() }, limits: { cpu: "1" } } })],
    ["a log output path", { logOutputPaths: [t()] }],
    ["the log output paths as one string", { logOutputPaths: t() }],
  ])("%s", (_what, values) => {
    expect(() => synthKarpenter(values)).not.toThrow();
  });
});

describe("log output paths that are not a list of strings (issue 31, fresh tester 20)", () => {
  test.each<[string, Record<string, unknown>, [string, unknown][]]>([
    ["a map", { logOutputPaths: { out: "stdout" } }, [["values.logOutputPaths", { out: "stdout" }]]],
    ["a list holding true", { logOutputPaths: [true] }, [["values.logOutputPaths[0]", true]]],
    ["a list holding false", { logErrorOutputPaths: ["stderr", false] }, [["values.logErrorOutputPaths[1]", false]]],
    ["a list holding a list", { logErrorOutputPaths: [["stderr"]] }, [["values.logErrorOutputPaths[0]", ["stderr"]]]],
    [
      "a list holding a map",
      { logOutputPaths: [{ path: "stdout" }] },
      [["values.logOutputPaths[0]", { path: "stdout" }]],
    ],
    ["a number Go prints as 1e+06", { logOutputPaths: ["stdout", 1000000] }, [["values.logOutputPaths[1]", 1000000]]],
    [
      "a string naming a file on the read-only root filesystem",
      { logOutputPaths: "/var/log/karpenter.log" },
      [["values.logOutputPaths", "/var/log/karpenter.log"]],
    ],
    // the value named is the element (the string's second, empty one), as for a list item holding a ","
    ["a string with an empty element", { logErrorOutputPaths: "stderr," }, [["values.logErrorOutputPaths", ""]]],
    ["a string with a quote", { logOutputPaths: 'std"out' }, [["values.logOutputPaths", 'std"out']]],
  ])("%s", (_what, values, expected) => {
    const problems = problemsOf(values);
    expect(problems.map((p) => [p.field, p.value]).sort()).toEqual([...expected].sort());
    for (const p of problems) expect(p.code).toBe("HELM_VALUES_LOG_OUTPUT_PATHS");
  });

  test("the message says what the chart writes instead, citing the template", () => {
    const msg = rejected(() => synthKarpenter({ logOutputPaths: [true] })).message;
    expect(msg).toMatch(/join "," in deployment\.yaml:101-108 of 1\.15\.0/);
    expect(msg).toMatch(/the chart writes "true" for this item, a relative file .* the controller panics at start/);
    const map = rejected(() => synthKarpenter({ logOutputPaths: { b: 1, a: "x" } })).message;
    expect(map).toMatch(/"map\[a:x b:1\]"/);
  });

  test.each<[string, Record<string, unknown>]>([
    ["a string stdout (join of a string is the string)", { logOutputPaths: "stdout" }],
    ["a string of two streams", { logErrorOutputPaths: "stderr,stdout" }],
    ["an empty string (not rendered)", { logOutputPaths: "" }],
    ["an empty map (not rendered)", { logOutputPaths: {} }],
    ["a list of strings", { logOutputPaths: ["stdout", "/dev/stdout"], logErrorOutputPaths: ["stderr"] }],
    [
      "a map replaced by a controller.env entry",
      { logOutputPaths: { a: "b" }, controller: { env: [{ name: "LOG_OUTPUT_PATHS", value: "stdout" }] } },
    ],
  ])("passes: %s", (_what, values) => {
    expect(() => synthKarpenter(values)).not.toThrow();
  });

  test.each<[unknown, string]>([
    [true, "true"],
    [1, "1"],
    [1.5, "1.5"],
    [100000, "100000"],
    [1000000, "1e+06"],
    [1234567, "1.234567e+06"],
    [0.0001, "0.0001"],
    [0.00001, "1e-05"],
    [["a", 2], "[a 2]"],
    [{ b: null, a: [] }, "map[a:[] b:<nil>]"],
  ])("goText(%j) is %s (Go's fmt %%v after Helm's float64 decoding)", (v, text) => {
    expect(goText(v)).toBe(text);
  });
});

/*
 * fresh tester 21 CF-2: a controller image tag or digest the kubelet's reference parse refuses (github.com/distribution/
 * reference v0.6.0, github.com/opencontainers/go-digest v1.0.0): the image cannot be pulled (InvalidImageName).
 */
describe("controller image tag and digest (fresh tester 21, CF-2)", () => {
  const sha = "sha256:" + "a".repeat(64);
  test.each<[string, Record<string, unknown>, string]>([
    ["a digest that is no hex", { digest: "sha256:xyz" }, "values.controller.image.digest"],
    ["a digest with upper-case hex", { digest: "sha256:" + "A".repeat(64) }, "values.controller.image.digest"],
    ["a digest without its algorithm", { digest: "a".repeat(64) }, "values.controller.image.digest"],
    ["a tag with a slash", { tag: "v1/2" }, "values.controller.image.tag"],
    ["a tag starting with a dot", { tag: ".1" }, "values.controller.image.tag"],
  ])("%s is refused", (_what, image, field) => {
    const e = rejected(() => synthKarpenter({ controller: { image } }));
    const p = e.problems.find((x) => x.field === field);
    expect(p?.code).toBe("HELM_VALUES_POD_SPEC");
    expect(p?.message).toContain("InvalidImageName");
  });
  test("look-alikes: a sha256 digest, a plain tag, an empty digest pass", () => {
    for (const image of [{ digest: sha }, { tag: "1.15.0" }, { digest: "" }, { tag: "v1.15.0-rc_1" }])
      expect(() => synthKarpenter({ controller: { image } })).not.toThrow();
  });
});

/*
 * fresh tester 22 S-3: a repository path with upper-case letters (or another form the reference grammar refuses) is
 * no image name the kubelet can parse; the registry host may hold upper-case letters.
 */
describe("controller image repository (fresh tester 22, S-3)", () => {
  test.each([
    ["public.ecr.aws/Karpenter/controller", "must be lower-case"],
    ["public.ecr.aws/karpenter/controller:1.0", "is not lower-case letters and digits"],
    ["Karpenter", "must be lower-case"],
    ["public.ecr.aws/karpenter//controller", "is not lower-case letters and digits"],
    ["-bad.example.com/karpenter", "is no registry host"],
  ])("%s is refused (%s)", (repository, why) => {
    const e = rejected(() => synthKarpenter({ controller: { image: { repository } } }));
    const p = e.problems.find((x) => x.field === "values.controller.image.repository");
    expect(p?.code).toBe("HELM_VALUES_POD_SPEC");
    expect(p?.message).toContain(why);
    expect(p?.message).toContain("InvalidImageName");
  });
  test("look-alikes: a registry with a port, an upper-case registry host, localhost pass", () => {
    for (const repository of [
      "public.ecr.aws/karpenter/controller",
      "registry.example.com:5000/mirror/karpenter-controller",
      "MyRegistry.Example.com/karpenter/controller",
      "localhost/karpenter",
    ])
      expect(() => synthKarpenter({ controller: { image: { repository } } })).not.toThrow();
  });
});

describe("the metrics and health-probe ports (fresh tester 22, CF-1)", () => {
  test("a metrics port equal to the health-probe port names the health-probe port", () => {
    const e = rejected(() => synthKarpenter({ controller: { metrics: { port: 8081 } } }));
    const p = e.problems.find((x) => x.field === "values.controller.metrics.port");
    expect(p?.message).toContain("a port other than the health-probe port 8081");
  });
});

/* fresh tester 24: a podLabels key that is a selector label (S-15), an imagePullPolicy of another case (S-16). */
describe("pod labels and pull policy (fresh tester 24)", () => {
  test.each<[string, Record<string, unknown>, string]>([
    [
      "a podLabels app.kubernetes.io/name",
      { podLabels: { "app.kubernetes.io/name": "ctl" } },
      'values.podLabels["app.kubernetes.io/name"]',
    ],
    [
      "a podLabels app.kubernetes.io/instance",
      { podLabels: { "app.kubernetes.io/instance": "x" } },
      'values.podLabels["app.kubernetes.io/instance"]',
    ],
    ["imagePullPolicy in lower case", { imagePullPolicy: "always" }, "values.imagePullPolicy"],
    [
      "a podLabels app.kubernetes.io/name of the same value",
      { podLabels: { "app.kubernetes.io/name": "karpenter" } },
      'values.podLabels["app.kubernetes.io/name"]',
    ],
  ])("%s is refused", (_what, values, field) => {
    const e = rejected(() => synthKarpenter(values));
    expect(e.problems.find((x) => x.field === field)?.code).toBe("HELM_VALUES_POD_SPEC");
  });
  test("look-alikes: another pod label, the three pull policies", () => {
    for (const values of [
      { podLabels: { "app.kubernetes.io/part-of": "platform" } },
      { imagePullPolicy: "Always" },
      { imagePullPolicy: "IfNotPresent" },
      { imagePullPolicy: "Never" },
    ])
      expect(() => synthKarpenter(values)).not.toThrow();
  });
});

describe("the controller's nodeSelector kubernetes.io/os (fresh tester 24, S-17)", () => {
  test.each(["Linux", "windows"])("%j is refused", (os) => {
    const e = rejected(() => synthKarpenter({ nodeSelector: { "kubernetes.io/os": os } }));
    expect(e.problems.find((x) => x.field === 'values.nodeSelector["kubernetes.io/os"]')?.code).toBe(
      "HELM_VALUES_POD_SPEC",
    );
  });
  test('look-alike: "linux" passes', () => {
    expect(() => synthKarpenter({ nodeSelector: { "kubernetes.io/os": "linux" } })).not.toThrow();
  });
});
