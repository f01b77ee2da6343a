// The pure parts of the values-agreement e2e stage (scripts/e2e/values-agreement.cjs): which recorded cases are
// compared, the library verdict against Helm's and the server's, the excused refusals. No tool or server needed.
const va = require("../scripts/e2e/values-agreement.cjs");
const { parseArgs } = require("../scripts/e2e/report.cjs");
export {};

const base = {
  kind: "KarpenterRelease",
  version: "1.15.0",
  namespace: "kube-system",
  releaseName: "karpenter",
  valuesData: true,
  valuesTokens: false,
  values: { replicas: 2, settings: { clusterName: "e2e-token" } },
};
const accepted = { ...base, verdict: "accepted" };
const refused = (field: string, message: string, code = "HELM_VALUES_POD_SPEC") => ({
  ...base,
  verdict: "rejected",
  problems: [{ code, field, message }],
});
const ok = { accepted: true };
const no = { accepted: false, message: "the server refuses Deployment/karpenter: spec.replicas: Invalid value" };

describe("values-agreement: comparison", () => {
  test("same verdicts agree; the library accepting what the server refuses is a disagreement", () => {
    expect(va.compareCase(accepted, ok).outcome).toBe("agree");
    expect(va.compareCase(refused("values.revisionHistoryLimit", "at least 0"), no).outcome).toBe("agree");
    expect(va.compareCase(accepted, no)).toMatchObject({
      outcome: "disagree",
      detail: expect.stringContaining("spec.replicas"),
    });
  });

  test("a refusal the server does not share is excused only by a listed semantic rule", () => {
    const setting = refused("values.settings.batchMaxDuration", "a Go duration", "HELM_VALUES_SETTING");
    expect(va.compareCase(setting, ok)).toMatchObject({ outcome: "agree-semantic", rules: ["controller-setting"] });
    const zero = refused(
      "replicas",
      "replicas = 0 is invalid: a whole number of controller pods, at least 1",
      "HELM_VALUES_REPLICAS",
    );
    expect(va.compareCase(zero, ok).rules).toEqual(["replicas"]);
    // matchLabelKeys the pods' selector merge refuses at pod creation (the Deployment's dry run passes); another
    // matchLabelKeys problem (a bad label key, which the server refuses in the Deployment) is not excused
    const merge = refused(
      "values.topologySpreadConstraints[0].matchLabelKeys[0]",
      "a key not also in the labelSelector: … from 1.34 it merges … into the selector at pod creation and refuses every pod",
      "HELM_VALUES_K8S_VALUE",
    );
    expect(va.compareCase(merge, ok).rules).toEqual(["match-label-keys-pods"]);
    // required node selector terms all empty (fresh tester 15 S-D): the server accepts them, no node matches; an
    // empty-list problem (which the server refuses: at least one term) is not excused
    const emptyTerms = refused(
      "values.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms",
      "at least one node selector term with a requirement: …, and every required term here is empty, so no node matches and the controller pods never schedule (the API server accepts it)",
      "HELM_VALUES_K8S_VALUE",
    );
    expect(va.compareCase(emptyTerms, ok).rules).toEqual(["empty-node-selector-terms"]);
    // an empty image repository (fresh tester 17 S-2): the server takes any non-empty image string, the kubelet refuses it
    const noRepository = refused(
      "values.controller.image.repository",
      'an image repository …: with null or "" that is no image reference the kubelet can parse (InvalidImageName), so …',
      "HELM_VALUES_POD_SPEC",
    );
    expect(va.compareCase(noRepository, ok).rules).toEqual(["image-reference"]);
    const noTerms = refused(
      "values.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms",
      "at least one node selector term",
      "HELM_VALUES_K8S_VALUE",
    );
    expect(va.compareCase(noTerms, ok).outcome).toBe("disagree");
    const badKey = refused("values.topologySpreadConstraints[0].matchLabelKeys[0]", "a label key, a qualified name");
    expect(va.compareCase(badKey, ok).outcome).toBe("disagree");
    // a look-alike on a pod-spec field no rule lists: a disagreement naming it
    const grace = refused("values.revisionHistoryLimit", "a whole number, 0 or more");
    expect(va.compareCase(grace, ok)).toMatchObject({
      outcome: "disagree",
      detail: expect.stringContaining("values.revisionHistoryLimit [HELM_VALUES_POD_SPEC]"),
    });
    // one unlisted problem beside a listed one is still a disagreement
    const both = { ...setting, problems: [...setting.problems, ...grace.problems] };
    expect(va.compareCase(both, ok).outcome).toBe("disagree");
  });

  test("unknown values keys are excused (no template reads them); a wired key only with its message", () => {
    const unknown = refused(
      "values.replicaz",
      "a value path of the Karpenter 1.15.0 chart's values.yaml, which has no replicaz",
      "HELM_VALUES_UNKNOWN_KEY",
    );
    expect(va.semanticRuleOf(unknown.problems[0]).id).toBe("unknown-values-key");
    expect(
      va.semanticRuleOf({ field: "values.serviceAccount.name", message: "not settable here: use serviceAccountName" })
        .id,
    ).toBe("wired");
    expect(va.semanticRuleOf({ field: "values.serviceAccount.name", message: "a DNS-1123 subdomain" })).toBeUndefined();
  });
});

describe("values-agreement: which cases are compared", () => {
  test("a plain case is compared; tokens, non-JSON values, no document are not", () => {
    expect(va.exclusion(accepted)).toBeUndefined();
    expect(va.exclusion({ ...accepted, valuesTokens: true })).toMatch(/tokens/);
    expect(va.exclusion({ ...accepted, valuesData: false })).toMatch(/JSON/);
    expect(va.exclusion({ ...accepted, docData: false })).toMatch(/NaN/);
    expect(va.exclusion({ ...refused("values.x", "y"), values: undefined })).toMatch(/no values document/);
    expect(va.exclusion({ recordError: "TypeError: x\n at y" })).toBe("recorder error: TypeError: x");
  });

  test("problems outside the document, or on a typed part the release leaves out of it, are not compared", () => {
    expect(va.exclusion(refused("timeout", "a whole number of seconds"))).toMatch(/outside the values document/);
    expect(va.exclusion(refused("tolerations[0].effect", '"NoSchedule"'))).toMatch(/left out of its document/);
    // the same field under values is in the document
    expect(va.exclusion(refused("values.tolerations[0].effect", '"NoSchedule"'))).toBeUndefined();
    expect(va.exclusion({ ...refused("values.x", "y"), rebuildApprox: true, docSource: "rebuilt" })).toMatch(
      /system node group/,
    );
  });

  test("identical cases count once", () => {
    const u = va.uniqueCases([accepted, { ...accepted, test: "other" }, { ...accepted, namespace: "karpenter" }]);
    expect(u.map((r: { occurrences: number }) => r.occurrences)).toEqual([2, 1]);
  });
});

describe("values-agreement: the verdict of Helm and the server", () => {
  const served = (accepted: boolean, message?: string, status = accepted ? 201 : 422) => ({
    accepted,
    message,
    status,
  });
  test("helm template failing is a refusal", () => {
    expect(va.serverVerdict({ ok: false, error: "Error: template: x: nil pointer\nmore" }, [])).toMatchObject({
      accepted: false,
      stage: "helm",
      message: expect.stringContaining("nil pointer"),
    });
  });

  test("one refused object refuses the case; a kind the server does not serve is not judged, a missing namespace is refused", () => {
    const sa = { kind: "ServiceAccount", name: "karpenter", result: served(true) };
    const dep = { kind: "Deployment", name: "karpenter", result: served(false, "spec.replicas: Invalid") };
    expect(va.serverVerdict({ ok: true }, [sa, dep])).toMatchObject({ accepted: false, stage: "server" });
    const sm = {
      kind: "ServiceMonitor",
      name: "k",
      result: served(false, "the server has no resource for monitoring.coreos.com/v1 ServiceMonitor", 404),
    };
    expect(va.serverVerdict({ ok: true }, [sa, sm])).toEqual({ accepted: true, unjudged: ["ServiceMonitor"] });
    const ns = { kind: "ServiceAccount", name: "k", result: served(false, 'namespaces "Bad_NS" not found', 404) };
    expect(va.serverVerdict({ ok: true }, [ns]).accepted).toBe(false);
  });

  test("summary line", () => {
    const s = va.summarize([
      { verdict: "accepted", outcome: "agree" },
      { verdict: "rejected", outcome: "agree-semantic", rules: ["replicas"] },
      { verdict: "accepted", outcome: "disagree" },
      { excluded: "tokens" },
    ]);
    expect(s).toMatchObject({
      cases: 3,
      passed: 2,
      failed: 1,
      excluded: 1,
      semanticRules: { replicas: 1 },
      line: "2 passed, 1 failed",
    });
  });

  test("the stage is opt-in: named by --stage, not in a run without it", () => {
    expect(parseArgs(["--stage", "values-agreement"]).stages).toEqual(["values-agreement"]);
    expect(parseArgs([]).stages).not.toContain("values-agreement");
  });
});
