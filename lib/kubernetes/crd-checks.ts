import { Checker, entry, INT32_MAX, INT32_MIN, isSet } from "./value-rules";
import { isPlainObject } from "../core/deep-merge";
import { typeName } from "../core/errors";
import { crdEnumValueSince, crdFieldSince, ObjectCrdData, ObjectCrdKind } from "../versions";

/*
 * A CRD's OpenAPI rules checked from the generated field table alone (lib/versions/data: fields, types, enums,
 * schema keywords, and when each field and enum value appeared), for the objects whose constructs need no
 * hand-written field list: NodeOverlay and CapacityBuffer. What a CEL rule says is the construct's own rule file
 * (one check per rule, quoting it); requirement-key restrictions written as CEL are read here from the rules
 * themselves ({@link restrictedKeyProblem}).
 */

const INT32 = { min: INT32_MIN, max: INT32_MAX };

/** The field name of a spec path's value in the props: `spec.requirements[]` → `requirements[0]` (given the indexes). */
function childField(field: string, key: string): string {
  return field ? `${field}.${key}` : key;
}

/**
 * The names of the fields directly under `crdPath` (an object's properties), in the table's order (sorted): of one
 * release's table, or of every release's (`crdKnown` of lib/versions, for the keys a hand-typed spec accepts).
 */
export function crdChildren(crd: { readonly fields: readonly string[] }, crdPath: string): string[] {
  const prefix = `${crdPath}.`;
  return crd.fields
    .filter((f) => f.startsWith(prefix) && !f.slice(prefix.length).includes("."))
    .map((f) => f.slice(prefix.length))
    .filter((k) => !k.includes("["));
}

/**
 * Checks `value` (the prop `field`, the CRD path `crdPath`) and everything under it against the table of `kind`:
 * unknown and missing required fields, types, enums (and the release each enum value and field appeared),
 * lengths, item counts, bounds and patterns. Each field is a guarded check of its own on a collecting checker.
 * Tokens are not judged.
 * @param what how the object at `crdPath` is named in errors (`"NodeOverlayProps"`, `"scalableRef"`)
 */
export function checkCrdValue(
  c: Checker,
  kind: ObjectCrdKind,
  crd: ObjectCrdData,
  crdPath: string,
  field: string,
  value: unknown,
  what = field,
): void {
  if (!isSet(value) || c.token(value)) return;
  const schema = crd.schema[crdPath] ?? {};
  const type = crd.types[crdPath] ?? schema.type ?? (crdPath === "spec" ? "object" : "any");
  if (type === "object") {
    const children = crdChildren(crd, crdPath);
    const map = crd.schema[`${crdPath}{}`];
    if (map) {
      checkCrdMap(c, kind, crd, crdPath, field, value);
      return;
    }
    if (crdPath !== "spec") c.guard(() => c.fields(field, value, children, what));
    if (typeof value !== "object" || Array.isArray(value)) return;
    const obj = value as Record<string, unknown>;
    for (const name of schema.required ?? [])
      c.guard(() => {
        if (!isSet(obj[name]))
          c.fail(
            c.code("REQUIRED"),
            childField(field, name),
            obj[name],
            `a value (required: ${requiredText(crdPath, name)})`,
          );
      });
    for (const name of children) {
      const at = `${crdPath}.${name}`;
      if (!isSet(obj[name])) continue;
      const since = crdFieldSince(kind, at);
      if (since && !c.guard(() => c.since(childField(field, name), obj[name], since, name))) continue;
      checkCrdValue(c, kind, crd, at, childField(field, name), obj[name], name);
    }
    return;
  }
  c.guard(() => checkScalarOrList(c, kind, crd, crdPath, field, value, type));
}

function requiredText(crdPath: string, name: string): string {
  return `the CRD requires ${name} in ${crdPath === "spec" ? "the spec" : crdPath.replace(/^spec\./, "")}`;
}

/** A map (`additionalProperties`): string keys, each value by the schema of `<path>{}`. */
function checkCrdMap(
  c: Checker,
  kind: ObjectCrdKind,
  crd: ObjectCrdData,
  crdPath: string,
  field: string,
  value: unknown,
): void {
  // a Map (or another class instance) has no own entries: its JSON is `{}`, so what it holds would be dropped
  if (typeof value !== "object" || Array.isArray(value) || !isPlainObject(value)) {
    const plain =
      typeof value === "object" && !Array.isArray(value)
        ? "a plain object of names to values"
        : "a map of names to values";
    c.guard(() => c.fail(c.code("NOT_A_MAP"), field, value, `${plain}, got ${typeName(value)}`));
    return;
  }
  const valueType = crd.schema[`${crdPath}{}`].type ?? "any";
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (!isSet(v)) continue;
    c.guard(() => {
      if (k === "") c.failKey(c.code("EMPTY_MAP_KEY"), field, k, v, "is empty: the keys are resource names");
      checkScalarOrList(c, kind, crd, `${crdPath}{}`, entry(field, k), v, valueType);
    });
  }
}

/** A string, number, boolean, int-or-string, or a list (whose items are checked one by one, each guarded). */
function checkScalarOrList(
  c: Checker,
  kind: ObjectCrdKind,
  crd: ObjectCrdData,
  crdPath: string,
  field: string,
  value: unknown,
  type: string,
): void {
  const s = crd.schema[crdPath] ?? {};
  if (!c.known(value)) return;
  switch (type) {
    case "array": {
      const list = c.list(field, value as unknown[], s.minItems ?? 0, s.maxItems ?? Infinity);
      const item = `${crdPath}[]`;
      const itemType = crd.types[item] ?? crd.schema[item]?.type ?? (crdChildren(crd, item).length ? "object" : "any");
      list?.forEach((x, i) =>
        itemType === "object"
          ? checkCrdValue(c, kind, crd, item, `${field}[${i}]`, x, `an item of ${crdPath.split(".").pop()}`)
          : c.guard(() => checkScalarOrList(c, kind, crd, item, `${field}[${i}]`, x, itemType)),
      );
      return;
    }
    case "integer": {
      const wide = s.format === "int64";
      c.int(
        field,
        value as number,
        s.minimum ?? (wide ? -Infinity : INT32.min),
        s.maximum ?? (wide ? Infinity : INT32.max),
      );
      return;
    }
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value))
        c.fail(c.code("NOT_A_NUMBER"), field, value, `a number, got ${typeName(value)}`);
      return;
    case "boolean":
      c.bool(field, value as boolean);
      return;
    case "int-or-string":
      if (typeof value === "number") {
        if (!Number.isInteger(value))
          c.fail(c.code("NOT_INT_OR_STRING"), field, value, `a whole number or a string, got ${value}`);
        return;
      }
      if (typeof value !== "string")
        c.fail(c.code("NOT_INT_OR_STRING"), field, value, `a string (or a whole number), got ${typeName(value)}`);
      checkString(c, kind, crdPath, field, value, s);
      return;
    case "string":
      if (typeof value !== "string") c.fail(c.code("NOT_A_STRING"), field, value, `a string, got ${typeName(value)}`);
      checkString(c, kind, crdPath, field, value, s, crd.enums[crdPath]);
      return;
    default:
      return;
  }
}

function checkString(
  c: Checker,
  kind: ObjectCrdKind,
  crdPath: string,
  field: string,
  value: string,
  s: ObjectCrdData["schema"][string],
  enumValues?: readonly string[],
): void {
  if (enumValues) {
    // a value a later release added: say which release, rather than that it is no value at all
    const since = crdEnumValueSince(kind, crdPath, value);
    if (since) c.since(field, value, since, `${field.replace(/\[\d+\]/g, "[]")} ${value}`);
    c.oneOf(field, value, enumValues);
  }
  if (s.minLength !== undefined && value.length < s.minLength)
    c.fail(
      c.code("STRING_LENGTH"),
      field,
      value,
      s.minLength === 1 ? "a non-empty string" : `at least ${s.minLength} characters`,
    );
  if (s.maxLength !== undefined && value.length > s.maxLength)
    c.fail(c.code("STRING_LENGTH"), field, value, `at most ${s.maxLength} characters (got ${value.length})`);
  if (s.pattern !== undefined && !new RegExp(s.pattern).test(value))
    c.fail(c.code("FORMAT"), field, value, `a string matching the CRD's pattern ${s.pattern}`);
}

/** The label-domain part of a key, as the CRDs' `self.find("^([^/]+)")`. */
function domainOf(key: string): string {
  const m = /^([^/]+)/.exec(key);
  return m ? m[1] : "";
}

/**
 * Why a requirement key breaks one of the key rules (CEL, at `<keyPath>`) of the CRD, or undefined when none does.
 * The rules are read from the release's CRD (generated `celRules`), not restated: each is a disjunction of
 * `self in [..]`, `self != ".."` and `[!]self.find("^([^/]+)").endsWith("..")`; a rule of another shape is not
 * judged here (the API server judges it; test/nodes/crd-checks.test.ts holds every release's rules to this shape).
 */
export function restrictedKeyProblem(
  rules: readonly string[],
  keyPath: string,
  key: string,
  kindName: string,
): string | undefined {
  for (const line of rules) {
    if (!line.startsWith(`${keyPath}: `)) continue;
    const rule = line.slice(keyPath.length + 2);
    const verdict = evaluateKeyRule(rule, key);
    if (verdict === false) return keyRuleText(rule, kindName);
  }
  return undefined;
}

/** One term of a key rule, parsed. */
type KeyTerm =
  | { kind: "in"; values: string[] }
  | { kind: "not"; value: string }
  | { kind: "domain"; negated: boolean; suffix: string };

/** The terms of a key rule (its `||` disjunction), or undefined when one is of a shape not read here. */
export function keyRuleTerms(rule: string): KeyTerm[] | undefined {
  const terms: KeyTerm[] = [];
  for (const raw of rule.split(" || ")) {
    const t = raw.trim();
    let m = /^self in (\[.*\])$/.exec(t);
    if (m) {
      try {
        terms.push({ kind: "in", values: JSON.parse(m[1]) as string[] });
        continue;
      } catch {
        return undefined;
      }
    }
    m = /^self != "([^"]*)"$/.exec(t);
    if (m) {
      terms.push({ kind: "not", value: m[1] });
      continue;
    }
    m = /^(!?)self\.find\("\^\(\[\^\/\]\+\)"\)\.endsWith\("([^"]*)"\)$/.exec(t);
    if (m) {
      terms.push({ kind: "domain", negated: m[1] === "!", suffix: m[2] });
      continue;
    }
    return undefined;
  }
  return terms;
}

/** True or false by the rule; undefined for a rule of another shape. */
export function evaluateKeyRule(rule: string, key: string): boolean | undefined {
  const terms = keyRuleTerms(rule);
  if (!terms) return undefined;
  return terms.some((t) =>
    t.kind === "in"
      ? t.values.includes(key)
      : t.kind === "not"
        ? key !== t.value
        : domainOf(key).endsWith(t.suffix) !== t.negated,
  );
}

/** What a broken key rule says, in words: the restricted domain or key and what it still allows. */
function keyRuleText(rule: string, kindName: string): string {
  const terms = keyRuleTerms(rule) ?? [];
  const not = terms.find((t): t is Extract<KeyTerm, { kind: "not" }> => t.kind === "not");
  if (not) return `label "${not.value}" is restricted (${kindName} CRD: ${rule})`;
  const domain = terms.find((t): t is Extract<KeyTerm, { kind: "domain" }> => t.kind === "domain" && t.negated);
  const allowed = terms.flatMap((t) => (t.kind === "in" ? t.values : []));
  const open = terms.filter((t): t is Extract<KeyTerm, { kind: "domain" }> => t.kind === "domain" && !t.negated);
  const also = [...(allowed.length ? [allowed.join(", ")] : []), ...open.map((t) => `keys of *${t.suffix}`)];
  return `label domain "${domain?.suffix ?? "?"}" is restricted${also.length ? `: of its keys only ${also.join("; ")} may be used` : ""} (${kindName} CRD rule on requirements[].key)`;
}
