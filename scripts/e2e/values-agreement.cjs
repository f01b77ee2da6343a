// The library's verdict on each recorded Karpenter / KarpenterRelease values case (record-values-cases.cjs) against
// Helm's and the API server's: the reference chart of the case's version rendered with the values (`helm template`),
// every rendered object submitted with a server-side dry run (fieldValidation=Strict). Pure functions, unit-tested in
// test/e2e-values-agreement.test.ts; the stage itself is values-stage.cjs.
//
// Strict field validation: Helm itself does not ask for it, so in a real install an unknown field in a subtree the chart
// writes with toYaml is silently dropped by the server. The library refusing such a field is a rule beyond the server's
// default (the field would vanish), judged here against Strict so that both verdicts are comparable; the rule
// `unknown-field-dropped` below documents what a non-Strict install would do.
"use strict";

/**
 * The rules the library applies beyond what Helm and the API server check, on purpose: the chart renders the value into
 * the controller's environment (or another place the server stores without judging), and the controller refuses it or
 * misbehaves at runtime. A library refusal the server does not share is excused only when every problem of it matches one
 * of these (field and message).
 */
const SEMANTIC_RULES = [
  {
    id: "replicas",
    field: /^(values\.)?replicas$/,
    message: /a whole number of controller pods, at least 1/,
    reason:
      'a Deployment takes 0 replicas (no controller runs, so no node is ever provisioned); a string such as "3" the chart writes unquoted, so the server gets a number: the library asks for a number of at least 1',
  },
  {
    id: "wired",
    field: /^values\.(serviceAccount|settings\.(clusterName|interruptionQueue))\b/,
    message: /not settable here|not removable/,
    reason:
      "the ServiceAccount name, its IRSA role annotation, the cluster name and the queue are wired to IAM (the role's trust, the pod identity association) and to AWS resources this install creates: the server cannot know them",
  },
  {
    id: "unknown-values-key",
    field: /^(values\.)?[A-Za-z]/,
    message: /chart's values\.yaml, which has no|chart values\.yaml has no/,
    reason:
      "no template reads the key (the chart has no values.schema.json), so Helm renders without it and nothing reaches the server: the value meant is silently not applied",
  },
  {
    id: "if-only-boolean",
    field: /^values\.(hostNetwork|serviceAccount\.create|serviceMonitor\.enabled|webhook\.enabled)$/,
    message: /the chart tests it only with \{\{ if \}\}/,
    reason:
      'the chart reads these only in {{ if }}, where any non-empty string or non-zero number is true: "false" renders the opposite of what was written (hostNetwork on, a ServiceAccount created), which the server accepts as a valid object',
  },
  {
    id: "negative-grace",
    field: /^values\.terminationGracePeriodSeconds$/,
    message: /a negative number is treated as 1/,
    reason:
      "the API server takes a negative terminationGracePeriodSeconds in a pod template and the kubelet treats it as 1 s: the controller gets no time to finish on shutdown",
  },
  {
    id: "controller-setting",
    field: /^(values\.)?settings\./,
    message: /./,
    reason:
      "settings.* become environment variables of the controller container (strings the API server does not judge): the controller parses them at start (durations, quantities, booleans, feature gates, cluster name/endpoint, queue name) and exits on a bad one (karpenter-provider-aws pkg/operator/options)",
  },
  {
    id: "controller-env-value",
    field:
      /^values\.(logLevel|logOutputPaths|logErrorOutputPaths|controller\.(metrics|healthProbe)\.port|webhook\.(port|metrics\.port)|controller\.env(\[\d+\])?(\.value)?|postInstallHook|logConfig)\b/,
    // the problems that claim what the controller does with the value, not what the API server does (HELM_VALUES_ENV
    // names the server's own decoding and validation of an EnvVar: not excused)
    message: /controller|LOG_LEVEL|scheduler config|webhook\.port|TCP port|wired|(Go duration|fraction|ENIs|Gate=bool)/,
    reason:
      "the value reaches the controller as a flag or environment variable (log level, ports, burst, CA bundle…), a string or number the API server stores without judging; the controller refuses it at start",
  },
  {
    id: "match-label-keys-pods",
    field: /^(values\.)?(topologySpreadConstraints|affinity)\b.*\.matchLabelKeys\[\d+\]$/,
    message:
      /at pod creation and refuses every pod|on Kubernetes 1\.\d+: up to Kubernetes 1\.33 the API server refuses the Deployment/,
    reason:
      "a matchLabelKeys key the labelSelector also names: from Kubernetes 1.34 (topology spread) or 1.31 (pod affinity) the server accepts the Deployment, merges `key In (value)` into the selector when it creates each pod, and refuses the pod when it carries the label (k8s.io/kubernetes@v1.36.3 pkg/registry/core/pod/strategy.go:860-924, validation.go:8973-9006), so the ReplicaSet creates no controller pod; a dry run of the Deployment cannot show it. A cluster known to run 1.33 or older refuses the Deployment itself (validation.go:9022-9048), which this 1.36 server does not",
  },
  {
    id: "empty-node-selector-terms",
    field: /^(values\.)?affinity\.nodeAffinity\.requiredDuringSchedulingIgnoredDuringExecution\.nodeSelectorTerms$/,
    message: /every required term here is empty, so no node matches/,
    reason:
      "required node selector terms that are all empty ({} or only empty lists): the server accepts them (a term is required, not a requirement in it), but an empty term matches no node (k8s.io/api@v0.36.3 core/v1/types.go:3781; k8s.io/component-helpers@v0.36.3 scheduling/corev1/nodeaffinity/nodeaffinity.go:60-64), so the controller pods stay Pending; a dry run cannot show it",
  },
  {
    id: "volume-object-name",
    field: /\.(secret\.secretName|configMap\.name)$/,
    message: /so the volume never mounts and the pod stays ContainerCreating/,
    reason:
      "a Secret or ConfigMap volume naming an object no such object can be (upper case, _): the server takes the pod spec (it checks only that the name is set), but no Secret or ConfigMap can have that name, so the volume never mounts; a dry run cannot show it",
  },
  {
    id: "cpu-beyond-any-node",
    field: /\.resources\.(requests|limits)\.cpu$/,
    message: /means over a million cores, more than any node has/,
    reason:
      'a CPU request with a byte suffix ("1Gi"): the server takes any quantity, but no node has a million cores, so the scheduler\'s fit check never passes and the pods stay Pending; a dry run cannot show it',
  },
  {
    id: "controller-node-os",
    field: /^values\.nodeSelector\["kubernetes\.io\/os"\]$/,
    message: /the controller image runs on Linux only/,
    reason:
      "a nodeSelector kubernetes.io/os other than linux: the server takes any label value, and the kubelet labels nodes with Go's runtime.GOOS (linux or windows), while the controller image is Linux only, so the controller pods stay Pending or cannot run; a dry run cannot show it",
  },
  {
    id: "image-reference",
    field: /^values\.controller\.image\.(repository|tag|digest)$/,
    message: /no image reference the kubelet can parse \(InvalidImageName\)/,
    reason:
      "an empty controller.image.repository renders the image as `:<tag>@<digest>`, and a tag or digest of another form an image reference the kubelet cannot parse (distribution/reference, go-digest): the API server does not parse image references (it accepts the Deployment, as this stage shows), and the kubelet's parse of the reference refuses it at pull (InvalidImageName, k8s.io/kubernetes pkg/kubelet/images/image_manager.go), so the controller never starts; a dry run cannot show it",
  },
  {
    id: "pod-only-volume-rule",
    field: /^values\.extraVolumes\[\d+\]\.image\.reference$/,
    message: /refuses each Pod the Deployment's ReplicaSet creates/,
    reason:
      "an image volume without a reference: the API server checks it only for a Pod (k8s.io/kubernetes v1.36.3 pkg/apis/core/validation/validation.go:9655, `opts.ResourceIsPod`), so it accepts the Deployment, as this stage shows, and then refuses every Pod its ReplicaSet creates; no controller pod ever exists. A dry run of the Deployment cannot show it",
  },
  {
    id: "kubelet-emptydir-medium",
    field: /^values\.extraVolumes\[\d+\]\.emptyDir\.medium$/,
    message: /the kubelet refuses to mount the volume/,
    reason:
      'an emptyDir medium other than "", "Memory", "HugePages" or "HugePages-<page size>": the API server has no rule for it (k8s.io/kubernetes v1.36.3 pkg/apis/core/validation/validation.go:549-552 judges only sizeLimit), so it accepts the Deployment, as this stage shows; the kubelet refuses to mount the volume (pkg/volume/emptydir/empty_dir.go:267-276, "unknown storage medium"; a page size that is no quantity, :390-402) and the controller pod never starts. A dry run cannot show it',
  },
  {
    id: "unschedulable",
    field: /^(values\.)?(nodeSelector|tolerations|affinity|topologySpreadConstraints)\b/,
    message: /unschedulable|no node|cannot be scheduled|never schedule/i,
    reason:
      "the pod spec is valid but no node can run the controller (a nodeSelector or affinity nothing matches): the server accepts it and the pods stay Pending",
  },
];

/**
 * Library problems whose fields are not part of the values document (construct-level: cluster, version compatibility,
 * the Helm provider, the release's timeout, IAM, the queue): the rendered objects cannot show them.
 */
const DOC_FIELDS =
  /^(values|replicas|dnsPolicy|controllerResources|settings|nodeSelector|tolerations|affinity|serviceAccountName|namespace|releaseName)(\.|\[|$)/;

/**
 * Typed props the release leaves out of its document when their check fails (karpenter-release.ts: nodeSelector,
 * tolerations and affinity are the checks' results; controller resources and settings keep the document from being
 * built at all). A refusal of one of them cannot be compared: the rendered objects do not hold the refused value.
 */
const DROPPED_PARTS = /^(nodeSelector|tolerations|affinity|controllerResources|settings)(\.|\[|$)/;

/** The library's problems that concern the values document (see DOC_FIELDS). */
function docProblems(rec) {
  return (rec.problems || []).filter((p) => DOC_FIELDS.test(p.field || ""));
}

/** The semantic rule a library problem is, or undefined. */
function semanticRuleOf(problem) {
  return SEMANTIC_RULES.find(
    (r) => (!r.field || r.field.test(problem.field || "")) && r.message.test(problem.message || ""),
  );
}

/**
 * Whether a recorded case is compared, and why not.
 * @returns a reason, or undefined when the case is compared
 */
function exclusion(rec) {
  if (rec.recordError) return `recorder error: ${String(rec.recordError).split("\n")[0]}`;
  if (!rec.valuesData)
    return "values hold something JSON does not write as it is (a function, NaN, a cycle, a class instance)";
  if (rec.valuesTokens) return "values hold tokens (the library leaves token values to apply time)";
  if (rec.oddNames) return "namespace or release name is not a string";
  if (!rec.values) return "no values document (refused before the merge: a typed prop or the values' shape)";
  if (!rec.version) return "no Karpenter version";
  if (rec.verdict === "rejected" && docProblems(rec).length === 0)
    return `problems outside the values document only: ${(rec.problems || []).map((p) => p.field).join(", ")}`;
  if (rec.docData === false) return "the document holds something JSON does not write as it is (a NaN in a typed prop)";
  const dropped = (rec.problems || []).filter((p) => DROPPED_PARTS.test(p.field || ""));
  if (dropped.length)
    return `a typed prop the library refused is left out of its document, so the server cannot see it: ${dropped.map((p) => p.field).join(", ")}`;
  if (rec.rebuildApprox && rec.docSource === "rebuilt")
    return "the rebuilt document lacks the system node group's nodeSelector and tolerations";
  if (rec.docMatches === false) return "the observed document differs from the values written";
  return undefined;
}

/**
 * Library verdict vs Helm + server verdict for one case.
 * @param rec a recorded case ({verdict, problems})
 * @param server {accepted, message, objects?}: accepted when `helm template` rendered and the server accepted every object
 */
function compareCase(rec, server) {
  if (rec.verdict === "accepted")
    return server.accepted
      ? { outcome: "agree", detail: "both accept" }
      : { outcome: "disagree", detail: `the library accepts, ${server.message}` };
  if (!server.accepted) return { outcome: "agree", detail: "both reject" };
  const probs = docProblems(rec);
  const rules = probs.map(semanticRuleOf);
  if (probs.length && rules.every(Boolean))
    return {
      outcome: "agree-semantic",
      detail: `beyond the server: ${[...new Set(rules.map((r) => r.id))].join(", ")}`,
      rules: rules.map((r) => r.id),
    };
  const unlisted = probs.filter((p) => !semanticRuleOf(p));
  return {
    outcome: "disagree",
    detail: `the library refuses by a rule not listed in SEMANTIC_RULES, Helm and the server accept: ${unlisted
      .map((p) => `${p.field} [${p.code}]: ${p.message}`)
      .join(" | ")}`,
  };
}

/** One case per (version, namespace, release name, values, verdict, problems): the suite builds many alike. */
function uniqueCases(records) {
  const seen = new Map();
  for (const rec of records) {
    const key = JSON.stringify([
      rec.version,
      rec.namespace,
      rec.releaseName,
      rec.values,
      rec.verdict,
      (rec.problems || []).map((p) => [p.code, p.field]),
    ]);
    if (!seen.has(key)) seen.set(key, { ...rec, occurrences: 1 });
    else seen.get(key).occurrences++;
  }
  return [...seen.values()];
}

/**
 * The verdict of Helm and the server on one case from the verdicts on its parts: the render (`helm template`) and each
 * rendered object's dry run. Objects of a kind the server does not serve (a ServiceMonitor without the Prometheus
 * operator's CRDs) are not judged.
 * @param render {ok, error?}
 * @param objects [{kind, name, result: {accepted, status, message}}]
 */
function serverVerdict(render, objects) {
  if (!render.ok)
    return { accepted: false, message: `helm template refuses: ${firstLine(render.error)}`, stage: "helm" };
  const refused = objects.filter((o) => !o.result.accepted && !unserved(o.result));
  if (refused.length)
    return {
      accepted: false,
      stage: "server",
      message: `the server refuses ${refused.map((o) => `${o.kind}/${o.name}: ${firstLine(o.result.message)}`).join(" | ")}`,
      fields: refused.flatMap((o) => o.result.fields || []),
    };
  return { accepted: true, unjudged: objects.filter((o) => unserved(o.result)).map((o) => o.kind) };
}

/** A dry run the server could not make: no resource serves the kind (server-validate's dryRun says so); a 404 for a missing namespace is a refusal. */
function unserved(result) {
  return result.status === 404 && /^the server has no resource for /.test(String(result.message || ""));
}

function firstLine(s) {
  return String(s || "")
    .trim()
    .split("\n")
    .filter((l) => !/^\s*$/.test(l))
    .slice(0, 2)
    .join(" ")
    .slice(0, 400);
}

/** The figures for the report and the `N passed, N failed` line. */
function summarize(results) {
  const compared = results.filter((r) => r.outcome);
  const passed = compared.filter((r) => r.outcome !== "disagree").length;
  const bySemantic = {};
  for (const r of compared) for (const id of r.rules || []) bySemantic[id] = (bySemantic[id] || 0) + 1;
  return {
    cases: compared.length,
    passed,
    failed: compared.length - passed,
    bothAccept: compared.filter((r) => r.outcome === "agree" && r.verdict === "accepted").length,
    bothReject: compared.filter((r) => r.outcome === "agree" && r.verdict === "rejected").length,
    semanticByDesign: compared.filter((r) => r.outcome === "agree-semantic").length,
    semanticRules: bySemantic,
    excluded: results.filter((r) => !r.outcome).length,
    line: `${passed} passed, ${compared.length - passed} failed`,
  };
}

module.exports = {
  SEMANTIC_RULES,
  DROPPED_PARTS,
  unserved,
  DOC_FIELDS,
  docProblems,
  semanticRuleOf,
  exclusion,
  compareCase,
  uniqueCases,
  serverVerdict,
  summarize,
};
