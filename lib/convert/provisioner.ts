import { Disruption, NodeSelectorRequirement } from "../nodes/node-pool-spec";
import { convertAwsProvider } from "./aws-node-template";
import { ClassDraft, Converted, ConvertInput, PoolDraft } from "./drafts";
import { Fields, ObjectContext } from "./fields";
import {
  NODE_CLASS_GROUP,
  NODE_CLASS_KIND,
  readLabels,
  readNodeAnnotations,
  readRequirements,
  readTaints,
  stateCapacityType,
  ttlDuration,
} from "./node-pool-parts";
import { readKubelet } from "./node-class-parts";

/*
 * karpenter.sh/v1alpha5 Provisioner → karpenter.sh/v1 NodePool, after the v1beta1 migration
 * guide ("Provisioner -> NodePool") and the v1 upgrade guide; field mapping as upstream
 * karpenter-convert (tools/karpenter-convert, release-v0.32.x) plus the v1 changes.
 */

/**
 * The requirements the v1alpha5 defaulting webhook added (aws/karpenter v0.31 `Provisioner.SetDefaults`).
 * `always`: added with `legacyDefaults: false` too (by {@link stateCapacityType}), so its note
 * must not say that option leaves it out.
 */
const LEGACY_DEFAULTS: readonly {
  readonly unless: readonly string[];
  readonly add: readonly NodeSelectorRequirement[];
  readonly always?: boolean;
}[] = [
  { unless: ["kubernetes.io/os"], add: [{ key: "kubernetes.io/os", operator: "In", values: ["linux"] }] },
  { unless: ["kubernetes.io/arch"], add: [{ key: "kubernetes.io/arch", operator: "In", values: ["amd64"] }] },
  {
    unless: ["karpenter.sh/capacity-type"],
    add: [{ key: "karpenter.sh/capacity-type", operator: "In", values: ["on-demand"] }],
    always: true,
  },
  {
    unless: [
      "node.kubernetes.io/instance-type",
      "karpenter.k8s.aws/instance-family",
      "karpenter.k8s.aws/instance-category",
      "karpenter.k8s.aws/instance-generation",
    ],
    add: [
      { key: "karpenter.k8s.aws/instance-category", operator: "In", values: ["c", "m", "r"] },
      { key: "karpenter.k8s.aws/instance-generation", operator: "Gt", values: ["2"] },
    ],
  },
];

/** Converts a Provisioner; an inline `spec.provider` becomes an EC2NodeClass named after it. */
export function convertProvisioner(input: ConvertInput): Converted {
  const { ctx, spec, source } = input;
  const pool: PoolDraft = { ctx, source, props: { name: source.name } };
  const p = pool.props;

  p.labels = readLabels(ctx, spec, "labels");
  p.annotations = readNodeAnnotations(ctx, spec, "annotations");
  p.taints = readTaints(spec, "taints");
  p.startupTaints = readTaints(spec, "startupTaints");
  p.requirements = readRequirements(ctx, spec, "requirements", false);
  if (input.legacyDefaults) p.requirements = withLegacyDefaults(ctx, p.requirements, p.labels);
  stateCapacityType(ctx, pool, "spec.requirements", false);

  const kubelet = readKubelet(ctx, spec, "kubeletConfiguration", input.version);
  if (kubelet) pool.kubelet = { value: kubelet, field: "spec.kubeletConfiguration" };

  let nodeClass: ClassDraft | undefined;
  const ref = spec.obj("providerRef", "a provider reference { name }");
  if (ref && spec.has("provider"))
    spec.fail(
      "CONVERT_PROVIDER_AND_REF",
      "provider",
      spec.peek("provider"),
      "unset when providerRef is set (v1alpha5 allows only one of provider and providerRef)",
    );
  if (ref) {
    const name =
      ref.str("name", { nonEmpty: true }) ??
      ref.fail("CONVERT_REQUIRED", "name", undefined, "the name of the AWSNodeTemplate (required)");
    const kind = ref.str("kind") || "AWSNodeTemplate";
    const apiVersion = ref.str("apiVersion") || "karpenter.k8s.aws/v1alpha1";
    if (kind !== "AWSNodeTemplate" || apiVersion !== "karpenter.k8s.aws/v1alpha1") {
      ctx.note(
        "action",
        ref.path,
        `providerRef names ${apiVersion} ${kind}, not an AWSNodeTemplate: converted as a reference to EC2NodeClass ${name}; make sure one exists`,
      );
    }
    pool.nodeClassRef = { group: NODE_CLASS_GROUP, kind: NODE_CLASS_KIND, name };
  } else if (spec.has("provider")) {
    const classCtx = new ObjectContext(ctx.doc);
    const provider = classCtx.fields(["spec", "provider"], spec.raw("provider"), "an inline AWS provider");
    nodeClass = {
      ctx: classCtx,
      source,
      props: { name: source.name, ...convertAwsProvider(classCtx, provider, input.role, true) },
    };
    pool.nodeClassRef = { group: NODE_CLASS_GROUP, kind: NODE_CLASS_KIND, name: source.name };
    ctx.note(
      "info",
      "spec.provider",
      `the inline provider (deprecated since v0.7, removed in v1beta1) was converted to EC2NodeClass ${source.name}, which this NodePool refers to`,
    );
  } else {
    ctx.invalid(
      "spec.providerRef",
      "no providerRef: a v1 NodePool needs a nodeClassRef; give the NodePool an EC2NodeClass (the NodePool construct's nodeClass)",
    );
  }

  p.disruption = disruption(input);
  const ttlExpired = ttlSeconds(spec, "ttlSecondsUntilExpired");
  if (ttlExpired !== undefined) {
    p.expireAfter = ttlDuration(ctx, ttlExpired, "spec.ttlSecondsUntilExpired", "spec.template.spec.expireAfter");
    if (p.expireAfter !== "Never")
      ctx.note(
        "info",
        "spec.ttlSecondsUntilExpired",
        `written as spec.template.spec.expireAfter "${p.expireAfter}" (in v1, expiry drains the node without waiting for replacement capacity)`,
      );
  } else {
    ctx.note(
      "action",
      "spec.ttlSecondsUntilExpired",
      'not set, so the Provisioner\'s nodes never expired; a v1 NodePool without expireAfter replaces its nodes after 720h (the CRD default): set expireAfter "Never" to keep them',
    );
  }

  const limits = spec.obj("limits", "limits { resources }");
  p.limits = limits?.quantityMap("resources");
  p.weight = spec.int("weight");
  return { pool, nodeClass };
}

/** `ttlSecondsAfterEmpty` / `consolidation.enabled` → `disruption` (v1beta1 migration guide). */
function disruption(input: ConvertInput): Disruption | undefined {
  const { ctx, spec } = input;
  const ttlEmpty = ttlSeconds(spec, "ttlSecondsAfterEmpty");
  const consolidation = spec.obj("consolidation", "consolidation { enabled }");
  const enabled = consolidation?.bool("enabled");
  if (enabled === true) {
    ctx.note(
      "info",
      "spec.consolidation.enabled",
      'consolidation.enabled: true is consolidationPolicy WhenEmptyOrUnderutilized with consolidateAfter "0s" in v1',
    );
    if (ttlEmpty !== undefined)
      ctx.note(
        "action",
        "spec.ttlSecondsAfterEmpty",
        "ignored: v1alpha5 does not allow it together with consolidation.enabled, and consolidation already removes empty nodes",
      );
    return { consolidationPolicy: "WhenEmptyOrUnderutilized", consolidateAfter: "0s" };
  }
  if (ttlEmpty !== undefined) {
    const after = ttlDuration(ctx, ttlEmpty, "spec.ttlSecondsAfterEmpty", "disruption consolidateAfter");
    if (after !== "Never")
      ctx.note(
        "info",
        "spec.ttlSecondsAfterEmpty",
        `written as disruption consolidationPolicy WhenEmpty, consolidateAfter "${after}"`,
      );
    return { consolidationPolicy: "WhenEmpty", consolidateAfter: after };
  }
  ctx.note(
    "action",
    "spec.ttlSecondsAfterEmpty",
    'neither ttlSecondsAfterEmpty nor consolidation.enabled: the Provisioner never removed empty or underutilized nodes; a v1 NodePool without disruption consolidates them (WhenEmptyOrUnderutilized after "0s"): set disruption { consolidationPolicy: WhenEmpty, consolidateAfter: "Never" } to keep them',
  );
  return undefined;
}

/**
 * A v1alpha5 TTL in whole seconds (≥ 0). Whole numbers beyond 2^53 (`1e23` in YAML) are kept too:
 * any of them is far over the longest duration v1 can hold, which {@link ttlDuration} handles.
 */
function ttlSeconds(spec: Fields, key: string): number | undefined {
  const v = spec.peek(key);
  if (typeof v === "number" && Number.isInteger(v) && v > Number.MAX_SAFE_INTEGER) {
    spec.consume(key);
    return v;
  }
  return spec.int(key, 0, "a whole number of seconds");
}

/**
 * Appends the v1alpha5 webhook defaults for the keys the requirements do not name. A key fixed by
 * a label is left alone too: the label already decides it (and a default could contradict it).
 */
function withLegacyDefaults(
  ctx: ObjectContext,
  reqs: NodeSelectorRequirement[] | undefined,
  labels: { [k: string]: string } | undefined,
): NodeSelectorRequirement[] {
  const out = [...(reqs ?? [])];
  const named = (k: string) => (reqs ?? []).some((r) => r.key === k) || (labels !== undefined && k in labels);
  for (const d of LEGACY_DEFAULTS) {
    if (d.unless.some(named)) continue;
    for (const r of d.add) {
      out.push(r);
      const optOut = d.always ? "" : " (legacyDefaults: false / --no-legacy-defaults leaves it out)";
      ctx.note(
        "info",
        "spec.requirements",
        `added ${r.key} ${r.operator} [${(r.values ?? []).join(", ")}]: the v1alpha5 webhook defaulted it and v1 does not${optOut}`,
      );
    }
  }
  return out;
}
