import { Checker, INT64_MAX, isNegativeQuantity, isSet } from "../kubernetes/value-rules";
import { checkCrdValue, restrictedKeyProblem } from "../kubernetes/crd-checks";
import type { ObjectCrdData } from "../versions";
import type { NodeOverlayOptions } from "./node-overlay-spec";
import { checkNodeOverlayRequirements, NodeContext } from "./node-semantic-rules";

/*
 * The karpenter.sh/v1alpha1 NodeOverlay spec (kubernetes-sigs/karpenter pkg/apis/v1alpha1, CRD
 * karpenter.sh_nodeoverlays.yaml of the karpenter-crd chart, from v1.7.0) and its rules. The OpenAPI rules
 * (fields, types, enums, patterns, bounds, required fields, when a field or enum value appeared) are read from the
 * generated field table (lib/kubernetes/crd-checks.ts); the requirement-key restrictions from the release's own
 * CEL rules; the other CEL rules are written here, one check per rule, quoting it.
 */

/** Operators the CRD's rules read `values` of (`x.values.size()`): In and NotIn need some, the numeric ones exactly one. */
const NUMERIC_OPERATORS = ["Gt", "Lt", "Gte", "Lte"];
const NEEDS_VALUES = ["In", "NotIn", ...NUMERIC_OPERATORS];
/** The resources the CRD's `capacity` rule refuses (`self.all(x, !(x in [...]))`). */
const RESTRICTED_CAPACITY = ["cpu", "memory", "ephemeral-storage", "pods"];

/**
 * The NodeOverlay CRD rules of the release (`crd`: its generated table and CEL rules) on the props, each field a
 * guarded check of the collecting checker `c`.
 */
export function checkNodeOverlay(
  c: Checker,
  crd: ObjectCrdData & { cel: string[] },
  p: NodeOverlayOptions,
  name: string,
): void {
  c.guard(() => c.dnsName("name", name));
  const { name: _n, ...spec } = p;
  checkCrdValue(c, "nodeOverlay", crd, "spec", "", spec, "NodeOverlayProps");
  // CEL: !has(self.price) || !has(self.priceAdjustment)
  c.guard(() => {
    if (isSet(p.price) && isSet(p.priceAdjustment))
      c.fail(
        "NODEOVERLAY_PRICE_CONFLICT",
        "priceAdjustment",
        p.priceAdjustment,
        `unset when price is set: price replaces the instance types' price, priceAdjustment changes it (NodeOverlay CRD: "cannot set both 'price' and 'priceAdjustment'")`,
      );
  });
  // CEL on spec.capacity: self.all(x, !(x in ['cpu', 'memory', 'ephemeral-storage', 'pods']))
  if (isSet(p.capacity) && !c.token(p.capacity) && typeof p.capacity === "object")
    for (const key of Object.keys(p.capacity))
      c.guard(() => {
        if (c.known(key) && RESTRICTED_CAPACITY.includes(key))
          c.failKey(
            "NODEOVERLAY_CAPACITY_RESTRICTED",
            "capacity",
            key,
            p.capacity![key],
            `is restricted: capacity adds extended resources only, and ${RESTRICTED_CAPACITY.join(", ")} cannot be overridden (NodeOverlay CRD: "invalid resource restricted")`,
          );
      });
  if (!Array.isArray(p.requirements) || c.token(p.requirements)) return;
  p.requirements.forEach((r, i) => {
    if (!isSet(r) || c.token(r) || typeof r !== "object") return;
    const at = `requirements[${i}]`;
    // the key rules are the release's CEL rules, read from the data
    c.guard(() => {
      if (!c.known(r.key) || typeof r.key !== "string") return;
      const problem = restrictedKeyProblem(crd.cel, "spec.requirements[].key", r.key, "NodeOverlay");
      if (problem) c.fail("NODEOVERLAY_REQUIREMENT", `${at}.key`, r.key, problem);
    });
    c.guard(() => {
      const op = r.operator;
      if (!c.known(op) || !NEEDS_VALUES.includes(op) || (isSet(r.values) && !Array.isArray(r.values))) return;
      const values = r.values;
      if (values !== undefined && values !== null && c.token(values)) return;
      if (NUMERIC_OPERATORS.includes(op)) {
        // self.all(x, (x.operator == 'Gt' || …) ? (x.values.size() == 1 && int(x.values[0]) >= 0) : true)
        const rule = `exactly one value, a non-negative integer as a string (e.g. ["4"]), for operator '${op}' (NodeOverlay CRD: "requirements operator 'Gt', 'Lt', 'Gte' or 'Lte' must have a single positive integer value")`;
        if (!values || values.length !== 1)
          c.fail("NODEOVERLAY_REQUIREMENT", `${at}.values`, values, `${rule}; ${values?.length ?? 0} given`);
        if (c.known(values[0]) && !isNonNegativeInt64(values[0]))
          c.fail(
            "NODEOVERLAY_REQUIREMENT",
            `${at}.values[0]`,
            values[0],
            `${rule}, no larger than ${INT64_MAX} (the CRD's int())`,
          );
        return;
      }
      // self.all(x, x.operator == 'In' ? x.values.size() != 0 : true), and the same for NotIn
      if (!values || values.length === 0)
        c.fail(
          "NODEOVERLAY_REQUIREMENT",
          `${at}.values`,
          values,
          `at least one value for operator '${op}' (NodeOverlay CRD: "requirements with operator '${op}' must have a value defined")`,
        );
    });
  });
}

/** What the CRD's `int(x.values[0]) >= 0` accepts: a decimal int64 (CEL's int() of a string), not negative. */
function isNonNegativeInt64(x: unknown): boolean {
  if (typeof x !== "string" || !/^[+-]?[0-9]+$/.test(x)) return false;
  const n = BigInt(x);
  return n >= 0n && n <= INT64_MAX;
}

/**
 * The rules beyond the CRD (the API server accepts these, Karpenter then cannot use them): requirement values are
 * label values (instance labels are matched against them), `Exists` / `DoesNotExist` take no values, a
 * capacity is not negative, and the requirements can match some instance type (the NodePool's rules on
 * well-known label values, the cluster's region and requirements on one key: node-semantic-rules.ts).
 */
export function checkNodeOverlaySemantics(s: Checker, p: NodeOverlayOptions, ctx: NodeContext = {}): void {
  checkNodeOverlayRequirements(s, p.requirements, ctx);
  if (Array.isArray(p.requirements) && !s.token(p.requirements))
    p.requirements.forEach((r, i) => {
      if (!isSet(r) || s.token(r) || typeof r !== "object" || !Array.isArray(r.values) || s.token(r.values)) return;
      const at = `requirements[${i}]`;
      r.values.forEach((v, j) => s.guard(() => s.labelValue(`${at}.values[${j}]`, v)));
      s.guard(() => {
        if ((r.operator === "Exists" || r.operator === "DoesNotExist") && r.values!.length > 0)
          s.fail(
            "NODEOVERLAY_REQUIREMENT",
            `${at}.values`,
            r.values,
            `no values: operator '${r.operator}' takes none (NodeOverlay CRD: "If the operator is Exists or DoesNotExist, the values array must be empty")`,
          );
      });
    });
  if (isSet(p.capacity) && !s.token(p.capacity) && typeof p.capacity === "object")
    for (const [key, q] of Object.entries(p.capacity))
      s.guard(() => {
        if (typeof q === "string" && s.known(q) && isNegativeQuantity(q))
          s.fail(
            "NODEOVERLAY_NEGATIVE_CAPACITY",
            s.entry("capacity", key),
            q,
            "a non-negative quantity: a node cannot have less than none of a resource",
          );
      });
}
