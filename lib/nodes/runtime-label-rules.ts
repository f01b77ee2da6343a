import { lookupTable } from "../core/lookup";
import type { KarpenterVersion } from "../versions/karpenter-version";
import { labelDomain } from "../kubernetes/value-rules";
import { celLists } from "../versions";

/*
 * Karpenter's runtime validation of NodePool label keys (template labels and requirement keys),
 * which the controller runs after the API server accepted the object: a key it refuses sets the
 * NodePool's ValidationSucceeded condition to False, and the pool launches no node.
 *
 * Upstream: kubernetes-sigs/karpenter pkg/apis/v1/labels.go (`IsRestrictedLabel`,
 * `RestrictedLabelDomains`, `LabelDomainExceptions`, `WellKnownLabels`, `RestrictedLabels`,
 * `NormalizedLabels`) and pkg/apis/v1/nodepool_validation.go / nodeclaim_validation.go (template
 * labels are checked as written, requirement keys after `NormalizedLabels`), read at every minor tag
 * v1.0.0 … v1.14.0 and main of 2026-08-20; aws/karpenter-provider-aws pkg/apis/v1/labels.go adds
 * `karpenter.k8s.aws` to the restricted domains and its own well-known labels (init()).
 * The file changed in one way that matters here: v1.9.0 dropped `kubernetes.io` and `k8s.io` from
 * the restricted domains (with LabelDomainExceptions), and matches a domain exactly or as a
 * `.`-separated suffix instead of any string suffix. The AWS provider's labels are then applied to
 * the Node by Karpenter, not passed to the kubelet (aws/karpenter-provider-aws
 * pkg/providers/amifamily/resolver.go `RejectForbiddenLabels`, 1.9).
 *
 * Most of this is what the NodePool CRD's rules already say (node-pool-rules.ts reports those); what
 * only the runtime rule refuses:
 * - before 1.9, a template label in the deprecated `beta.kubernetes.io` / `failure-domain.beta.kubernetes.io`
 *   keys, which the CRD allows (requirement keys are normalized to the stable keys first, so they pass);
 * - `karpenter.k8s.aws/ec2nodeclass`, which the CRD allows from 1.1 but is no well-known label of the
 *   AWS provider at any release (Karpenter sets it on every node itself, `NodeClassLabelKey`).
 */

/**
 * The `karpenter.sh/capacity-type` values and the minor that introduced each (`reserved`: capacity reservations, 1.3).
 * No upstream artefact lists them (the CRDs take any value of the label; the chart and the CloudFormation template do not
 * name them), so this stays a rule written from Karpenter's source: kubernetes-sigs/karpenter pkg/apis/v1/labels.go
 * (`CapacityTypeSpot`, `CapacityTypeOnDemand`; `CapacityTypeReserved` from v1.3.0).
 */
export const CAPACITY_TYPES_SINCE: { readonly [value: string]: string } = lookupTable({
  "on-demand": "1.0",
  spot: "1.0",
  reserved: "1.3",
});

/**
 * Where Karpenter holds a requirement's `In` values against the values it knows for the label: kubernetes-sigs/karpenter
 * v1.15.0 pkg/apis/v1/nodeclaim_validation.go:162-196 `validateWellKnownValues` (the same in v1.14.1; run by
 * `ValidateRequirement` for NodePool requirements, :129, and NodeOverlay ones, pkg/apis/v1alpha1/nodeoverlay_validation.go:39).
 * No known value, or fewer known values than `minValues`: an error, and the object is not used. Some known values: it logs
 * the others ("proceeding with valid values") and goes on with the known ones. Before 1.14 the source is not at hand;
 * there a requirement whose values no offering has matches nothing, and one with fewer such values than `minValues` cannot
 * meet it, so the refusals hold whichever way Karpenter gets there.
 */
export const KNOWN_VALUES_SOURCE =
  "kubernetes-sigs/karpenter pkg/apis/v1/nodeclaim_validation.go validateWellKnownValues, v1.14.1 and v1.15.0";

/**
 * The labels with values Karpenter knows (`WellKnownValuesForRequirements`): `karpenter.sh/capacity-type` (kubernetes-sigs/karpenter
 * v1.15.0 pkg/apis/v1/labels.go:227-233) and, from the AWS provider, `karpenter.k8s.aws/instance-tenancy` (aws/karpenter-provider-aws
 * v1.15.0 pkg/apis/v1/labels.go:69, also at v1.9.3 and v1.14.1, the label's first releases).
 */
export const KNOWN_VALUE_LABELS: readonly string[] = [
  "karpenter.sh/capacity-type",
  "karpenter.k8s.aws/instance-tenancy",
];

/**
 * The message of a requirement on a label of {@link KNOWN_VALUE_LABELS} with fewer known values than its `minValues`: Karpenter
 * refuses the object ("not enough valid values found", {@link KNOWN_VALUES_SOURCE}).
 */
export function minValuesKnownProblem(
  key: string,
  minValues: number,
  known: readonly string[],
  unknown: readonly string[],
): string {
  const list = (xs: readonly string[]) => xs.map((x) => JSON.stringify(x)).join(", ");
  return `at most the number of values of ${key} Karpenter knows among the values (${known.length}: ${list(known)}): minValues ${minValues} asks for more, because Karpenter drops the values it does not know (${list(unknown)}) and then refuses the NodePool ("not enough valid values found … expected at least ${minValues} valid values", ${KNOWN_VALUES_SOURCE}). Lower minValues to ${known.length} or add known values`;
}

/** The minor from which `kubernetes.io` and `k8s.io` are no longer restricted domains (kubernetes-sigs/karpenter v1.9.0). */
export const RUNTIME_K8S_DOMAINS_OPEN_SINCE = "1.9";

/** `WellKnownLabels` of kubernetes-sigs/karpenter (the same at every release 1.0–main). */
const CORE_WELL_KNOWN = [
  "karpenter.sh/nodepool",
  "topology.kubernetes.io/zone",
  "topology.kubernetes.io/region",
  "node.kubernetes.io/instance-type",
  "kubernetes.io/arch",
  "kubernetes.io/os",
  "karpenter.sh/capacity-type",
  "node.kubernetes.io/windows-build",
];

/** Well-known labels the AWS provider adds that are not in the `karpenter.k8s.aws` domain (`LabelTopologyZoneID`, every release). */
const AWS_OTHER_WELL_KNOWN = ["topology.k8s.aws/zone-id"];

/**
 * Keys the NodePool CRD allows in the `karpenter.k8s.aws` domain (generated from its CEL rule: `celLists().awsLabelKeys` of lib/versions) that are no
 * well-known label of the AWS provider's runtime validation: Karpenter labels every node with its
 * EC2NodeClass itself (kubernetes-sigs/karpenter `NodeClassLabelKey`), and refuses the key in a NodePool.
 */
const CRD_ONLY_AWS_KEYS = ["karpenter.k8s.aws/ec2nodeclass"];

/** `NormalizedLabels`: deprecated keys a requirement may use, read as the stable key (not applied to template labels). */
const NORMALIZED_LABELS: { readonly [deprecated: string]: string } = lookupTable({
  "failure-domain.beta.kubernetes.io/zone": "topology.kubernetes.io/zone",
  "beta.kubernetes.io/arch": "kubernetes.io/arch",
  "beta.kubernetes.io/os": "kubernetes.io/os",
  "beta.kubernetes.io/instance-type": "node.kubernetes.io/instance-type",
  "failure-domain.beta.kubernetes.io/region": "topology.kubernetes.io/region",
});

/**
 * The key Karpenter reads `key` as: the stable key for a deprecated one (`beta.kubernetes.io/arch` →
 * `kubernetes.io/arch`; kubernetes-sigs/karpenter pkg/scheduling/requirement.go `NewRequirementWithFlexibility`,
 * `NormalizedLabels` in pkg/apis/v1/labels.go), else `key` itself. Requirements and the requirements Karpenter makes
 * of template labels go through it; the runtime label-domain check of a template label does not.
 */
export function stableLabelKey(key: string): string {
  return NORMALIZED_LABELS[key] ?? key;
}

/** `RestrictedLabelDomains` per release: core's and the AWS provider's (`karpenter.k8s.aws`). */
function restrictedDomains(v: KarpenterVersion): string[] {
  return v.atLeast(RUNTIME_K8S_DOMAINS_OPEN_SINCE)
    ? ["karpenter.sh", "karpenter.k8s.aws"]
    : ["kubernetes.io", "k8s.io", "karpenter.sh", "karpenter.k8s.aws"];
}

/** `LabelDomainExceptions` before 1.9 (`kops.k8s.io`, `node.kubernetes.io`, `node-restriction.kubernetes.io`); removed in 1.9. */
const DOMAIN_EXCEPTIONS_BEFORE_1_9 = ["kops.k8s.io", "node.kubernetes.io", "node-restriction.kubernetes.io"];

/** Whether `key` is one of the release's `WellKnownLabels` (core's and the AWS provider's). */
function wellKnown(key: string, v: KarpenterVersion): boolean {
  if (CORE_WELL_KNOWN.includes(key) || AWS_OTHER_WELL_KNOWN.includes(key)) return true;
  const since = celLists().awsLabelKeys[key];
  return since !== undefined && !CRD_ONLY_AWS_KEYS.includes(key) && v.atLeast(since);
}

/**
 * Why Karpenter `v`'s runtime validation refuses `key` as a NodePool template label (`use` "label")
 * or requirement key (`use` "requirement"), or undefined when it accepts it.
 */
export function runtimeRestrictedLabelProblem(
  key: string,
  v: KarpenterVersion,
  use: "label" | "requirement",
): string | undefined {
  const read = use === "requirement" ? stableLabelKey(key) : key;
  if (wellKnown(read, v)) return undefined;
  // GetLabelDomain: the part before the first "/", "" for a key without one
  const domain = read.includes("/") ? labelDomain(read) : "";
  const open = v.atLeast(RUNTIME_K8S_DOMAINS_OPEN_SINCE);
  const inDomain = (d: string) => (open ? domain === d || domain.endsWith(`.${d}`) : domain.endsWith(d));
  const exception = !open && DOMAIN_EXCEPTIONS_BEFORE_1_9.some((d) => domain.endsWith(d));
  const restricted =
    (!exception && restrictedDomains(v).find(inDomain)) ||
    (read === "kubernetes.io/hostname" ? "kubernetes.io/hostname" : undefined);
  if (!restricted) return undefined;
  const stable = use === "label" && stableLabelKey(key) !== key ? stableLabelKey(key) : undefined;
  const source = `Karpenter ${v.full}'s runtime validation of the NodePool (IsRestrictedLabel, kubernetes-sigs/karpenter pkg/apis/v1/labels.go) refuses it, so the NodePool's ValidationSucceeded condition is False and it launches no node; the API server accepts it`;
  const fix = stable
    ? `use the stable key ${stable} (Karpenter normalizes the deprecated key only in requirements, not in template labels)`
    : key === "karpenter.k8s.aws/ec2nodeclass"
      ? "leave it out: Karpenter sets karpenter.k8s.aws/ec2nodeclass on every node to the EC2NodeClass's name itself"
      : `use a well-known label or a key outside the restricted domains ${restrictedDomains(v).join(", ")}${open ? "" : ` (except ${DOMAIN_EXCEPTIONS_BEFORE_1_9.map((d) => `*${d}`).join(", ")}; kubernetes.io and k8s.io are open from Karpenter ${RUNTIME_K8S_DOMAINS_OPEN_SINCE})`}`;
  return `"${key}" is ${restricted.includes("/") ? "a restricted label" : `in the restricted label domain ${restricted}`} and no well-known label: ${source}. Instead, ${fix}`;
}
