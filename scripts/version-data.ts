import * as fs from "fs";
import * as path from "path";
import YAML from "yaml";
import { SETTING_SINCE_PATCH } from "../lib/versions/patch-history";
import {
  CelLists,
  CrdFieldSchema,
  CrdKnown,
  CrdFieldType,
  CrdSince,
  OBJECT_CRD_KINDS,
  ObjectCrdData,
  RawStatement,
  SettingData,
  VersionData,
} from "../lib/versions/types";

/*
 * Reads one Karpenter release's upstream artefacts, laid out like shared/reference/karpenter/v<version>/
 * (cloudformation.yaml, charts/karpenter{,-crd}/ with values.yaml and templates), and produces the
 * data of lib/versions/data/. Used by `npm run add-version` and by the test that regenerates every
 * reference version. Only facts that can be read mechanically are produced; what needs a person is
 * returned as a checklist.
 */

/** CloudFormation interpolations → the symbols of the data. */
const CFN_SYMBOLS: Record<string, string> = {
  "AWS::Partition": "{partition}",
  "AWS::Region": "{region}",
  "AWS::AccountId": "{account}",
  "AWS::URLSuffix": "{dns_suffix}",
  ClusterName: "{cluster}",
  "KarpenterNodeRole.Arn": "{node_role_arn}",
  "KarpenterInterruptionQueue.Arn": "{queue_arn}",
  KarpenterInterruptionQueue: "{queue_url}",
};

function symbol(name: string): string {
  const s = CFN_SYMBOLS[name];
  if (!s)
    throw new Error(
      `cloudformation.yaml references ${name}, which add-version has no symbol for: add it to CFN_SYMBOLS`,
    );
  return s;
}

const CFN_TAGS = [
  { tag: "!Sub", resolve: (s: string) => s.replace(/\$\{([^}]+)\}/g, (_: string, k: string) => symbol(k)) },
  { tag: "!GetAtt", resolve: (s: string) => symbol(s) },
  { tag: "!Ref", resolve: (s: string) => symbol(s) },
];

/** A statement of ERRATA.json (Sub syntax) in the data's symbols. */
function cfnSub(v: unknown): any {
  if (Array.isArray(v)) return v.map(cfnSub);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cfnSub(x)]));
  return typeof v === "string" ? v.replace(/\$\{([^}]+)\}/g, (_: string, k: string) => symbol(k)) : v;
}

const cmp = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true });

/** What `generateVersionData` returns: the data, and what a person must review before committing it. */
export interface GeneratedVersion {
  readonly data: VersionData;
  readonly checklist: string[];
}

export interface GenerateOptions {
  /** The Kubernetes range, `"1.26-1.36"`. */
  readonly kubernetes: string;
  /** The data of the previous known minor: `since` of settings and new CEL rules are judged against it. */
  readonly previous?: VersionData;
  /**
   * The committed data of the same minor when the folder is a newer patch of it (e.g. 1.14.1's for
   * 1.14.2): what is new since that patch gets the patch as its `since`, and only that is on the checklist.
   */
  readonly earlierPatch?: VersionData;
  /** ERRATA.json to apply (defaults to the one beside the release folder, if any). */
  readonly errataFile?: string;
}

/**
 * The data of the release in `folder` (named `v<version>`).
 * @throws Error when the folder lacks an artefact or holds something the generator cannot read
 */
export function generateVersionData(folder: string, options: GenerateOptions): GeneratedVersion {
  const version = path.basename(path.resolve(folder)).replace(/^v/, "");
  if (!/^\d+\.\d+\.\d+$/.test(version))
    throw new Error(`${folder}: the release folder must be named v<MAJOR.MINOR.PATCH>, e.g. v1.15.0`);
  const minor = version.split(".").slice(0, 2).join(".");
  const range = /^(1\.\d+)-(1\.\d+)$/.exec(options.kubernetes ?? "");
  if (!range || cmp(range[1], range[2]) > 0)
    throw new Error(
      `--kubernetes must be "<oldest>-<newest>" Kubernetes minors, e.g. 1.29-1.36 (got ${options.kubernetes})`,
    );
  const checklist: string[] = [];

  for (const chart of ["karpenter", "karpenter-crd"]) {
    // a folder copied from another release and renamed would otherwise pass for the new one
    const chartVersion = String(YAML.parse(read(folder, `charts/${chart}/Chart.yaml`))?.version ?? "");
    if (chartVersion !== version)
      throw new Error(
        `${folder}: charts/${chart}/Chart.yaml has version ${chartVersion || "(none)"}, but the folder is named v${version}: the folder must hold that release's charts`,
      );
  }
  const template = readTemplate(folder);
  const errataFile = options.errataFile ?? path.join(path.dirname(path.resolve(folder)), "ERRATA.json");
  const { policies, errata } = controllerPolicies(template, version, errataFile);
  const valuesText = read(folder, "charts/karpenter/values.yaml");
  const values = YAML.parse(valuesText) ?? {};
  const chart = chartFacts(
    values,
    declaredTypes(valuesText),
    version,
    options.previous,
    options.earlierPatch,
    checklist,
  );
  const crdDocs = readCrds(path.join(folder, "charts/karpenter-crd/templates"));
  const nodePool = crdFacts(crdDocs, "NodePool");
  const ec2NodeClass = crdFacts(crdDocs, "EC2NodeClass");
  // the other objects users write (NodeOverlay from 1.7, CapacityBuffer from 1.14): only in the releases that ship them
  const objects: { [key: string]: ObjectCrdData } = {};
  const objectCel: string[] = [];
  for (const [key, kind] of Object.entries(OBJECT_CRD_KINDS)) {
    if (!crdDocs.some((c) => c.spec.names.kind === kind)) continue;
    const facts = crdFacts(crdDocs, kind);
    objects[key] = objectCrdData(crdDocs, kind, facts);
    objectCel.push(...facts.cel.map((r) => `${kind} ${r}`));
  }
  const celRules = [
    ...nodePool.cel.map((r) => `NodePool ${r}`),
    ...ec2NodeClass.cel.map((r) => `EC2NodeClass ${r}`),
    ...objectCel,
  ].sort();

  const data: VersionData = {
    version,
    minor,
    kubernetes: { min: range[1], max: range[2] },
    errata,
    controllerPolicies: policies,
    nodeRolePolicies: nodeRolePolicies(template),
    interruptionRules: interruptionRules(template, checklist),
    chart,
    crds: { nodePool: crdData(nodePool), ec2NodeClass: crdData(ec2NodeClass), ...objects },
    celRules,
  };
  const earlier = options.earlierPatch;
  if (earlier && (earlier.kubernetes.min !== data.kubernetes.min || earlier.kubernetes.max !== data.kubernetes.max)) {
    checklist.push(
      `Kubernetes range ${earlier.kubernetes.min}–${earlier.kubernetes.max} of ${earlier.version} becomes ${data.kubernetes.min}–${data.kubernetes.max} in patch ${version}: add { minor: "${minor}", until: "${version}", min: "${earlier.kubernetes.min}", max: "${earlier.kubernetes.max}" } to KUBERNETES_EARLY_PATCHES (lib/versions/patch-history.ts) so earlier ${minor} patches keep theirs`,
    );
  }
  reviewAgainstPrevious(data, earlier ?? options.previous, checklist);
  return { data, checklist };
}

function read(folder: string, file: string): string {
  const f = path.join(folder, file);
  if (!fs.existsSync(f))
    throw new Error(
      `${folder}: ${file} is missing (the release folder holds cloudformation.yaml and charts/karpenter{,-crd}/)`,
    );
  return fs.readFileSync(f, "utf8");
}

function readTemplate(folder: string): Record<string, any> {
  return YAML.parse(read(folder, "cloudformation.yaml"), { customTags: CFN_TAGS }).Resources;
}

const GROUP_NAME = /^KarpenterController(\w*)Policy-\{cluster\}$/;

function controllerPolicies(
  resources: Record<string, any>,
  version: string,
  errataFile: string,
): Pick<VersionData, "errata"> & { policies: VersionData["controllerPolicies"] } {
  const errata = fs.existsSync(errataFile) ? (JSON.parse(fs.readFileSync(errataFile, "utf8")).errata as any[]) : [];
  const applying = errata.filter(
    (e) => e.kind === "controller-statement" && cmp(version, e.versions.from) >= 0 && cmp(version, e.versions.to) <= 0,
  );
  const applied: string[] = [];
  const policies = Object.values(resources)
    .filter((r) => r.Type === "AWS::IAM::ManagedPolicy")
    .map((r) => {
      const m = GROUP_NAME.exec(r.Properties.ManagedPolicyName);
      if (!m) throw new Error(`unexpected controller policy name ${r.Properties.ManagedPolicyName}`);
      const doc =
        typeof r.Properties.PolicyDocument === "string"
          ? JSON.parse(r.Properties.PolicyDocument)
          : r.Properties.PolicyDocument;
      const statements = (doc.Statement as RawStatement[]).map((s) => {
        const e = applying.find((x) => x.sid === s.Sid);
        if (!e) return s;
        applied.push(e.id);
        return cfnSub(e.corrected) as RawStatement;
      });
      return m[1] ? { name: m[1], statements } : { statements };
    });
  return { policies, errata: applied.sort() };
}

function nodeRolePolicies(resources: Record<string, any>): string[] {
  return (resources.KarpenterNodeRole.Properties.ManagedPolicyArns as string[]).map((arn) => {
    const m = /^arn:\{partition\}:iam::aws:policy\/(.+)$/.exec(arn);
    if (!m) throw new Error(`node role policy ${arn} is not an AWS-managed policy`);
    return m[1];
  });
}

function interruptionRules(resources: Record<string, any>, checklist: string[]): VersionData["interruptionRules"] {
  return Object.entries(resources)
    .filter(([, r]) => r.Type === "AWS::Events::Rule")
    .map(([logicalId, r]) => {
      let key = logicalId.replace(/Rule$/, "");
      // rule names leave room for 19 characters: CapacityReservationInterruption → CapacityReservation
      if (key.length > 19) key = key.replace(/Interruption$/, "");
      if (key.length > 19)
        checklist.push(
          `event rule ${logicalId}: key ${key} is longer than 19 characters; shorten it in scripts/version-data.ts`,
        );
      const p = r.Properties.EventPattern;
      const extra = Object.keys(p).filter((k) => k !== "source" && k !== "detail-type");
      if (extra.length)
        checklist.push(
          `event rule ${logicalId} filters on ${extra.join(", ")}, which the library does not emit: extend lib/aws/interruption-queue.ts`,
        );
      return { key, logicalId, source: p.source, detailType: p["detail-type"] };
    });
}

const GO_DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;

function kindOf(v: unknown, declared?: string): string {
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "number") return "number";
  if (typeof v === "string" && GO_DURATION.test(v)) return "duration";
  // a null default leaves the choice to the controller; helm-docs' `# -- (bool)` names the type
  if (v === null && declared) return declared;
  return "string";
}

const HELM_DOCS_TYPES: Readonly<Record<string, string>> = {
  bool: "boolean",
  int: "number",
  float: "number",
  string: "string",
};

/**
 * The helm-docs type annotations of values.yaml (`# -- (bool) …` above a key), by dotted path:
 * the only statement of a key's type when its default is null (1.15's ignoreDRARequests, draEFA).
 */
function declaredTypes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (node: unknown, at: string) => {
    if (!YAML.isMap(node)) return;
    for (const pair of node.items) {
      const key = YAML.isScalar(pair.key) ? String(pair.key.value) : "";
      const dotted = at ? `${at}.${key}` : key;
      const comment = (YAML.isNode(pair.key) ? pair.key.commentBefore : undefined) ?? "";
      const m = /^\s*--\s*\((\w+)\)/.exec(comment);
      if (m && HELM_DOCS_TYPES[m[1]]) out.set(dotted, HELM_DOCS_TYPES[m[1]]);
      walk(pair.value, dotted);
    }
  };
  walk(YAML.parseDocument(text).contents, "");
  return out;
}

function chartFacts(
  values: Record<string, any>,
  declared: Map<string, string>,
  version: string,
  previous: VersionData | undefined,
  earlierPatch: VersionData | undefined,
  checklist: string[],
): VersionData["chart"] {
  const minor = version.split(".").slice(0, 2).join(".");
  // awsFeatureGates (1.15) is a block of gates like featureGates, rendered by the chart as AWS_FEATURE_GATES
  const { featureGates = {}, awsFeatureGates, ...settings } = values.settings ?? {};
  const compared = earlierPatch ?? previous;
  const facts = (
    entries: Record<string, unknown>,
    prefix: string,
    before: readonly SettingData[] | undefined,
  ): SettingData[] =>
    Object.entries(entries).map(([key, def]) => {
      const known = before?.find((s) => s.key === key);
      // new in a patch of a known minor: earlier patches lack it (1.6.2's disableDryRun)
      const since = SETTING_SINCE_PATCH[`${prefix}${key}`] ?? known?.since ?? (earlierPatch ? version : `${minor}.0`);
      const kind = kindOf(def, declared.get(`${prefix}${key}`));
      if (!known && compared) {
        const patchNote =
          earlierPatch && !SETTING_SINCE_PATCH[`${prefix}${key}`]
            ? `; it is new in patch ${version} (${earlierPatch.version} lacks it): add "${prefix}${key}": "${version}" to SETTING_SINCE_PATCH in lib/versions/patch-history.ts (the regeneration test sees only the newest patch and needs it)`
            : "";
        checklist.push(
          `new ${prefix}${key} (default ${JSON.stringify(def)}, inferred kind ${kind}): add a validation rule and description to lib/helm/chart-settings.ts if the kind is not enough${patchNote}`,
        );
      } else if (known && def === null && known.default !== undefined && known.default !== null) {
        checklist.push(
          `${prefix}${key}: values.yaml no longer sets a default (was ${JSON.stringify(known.default)}): the controller's own default applies; check what it is and whether an explicit value still renders`,
        );
      }
      const fact: SettingData = { key, kind, since };
      if (def === undefined) return fact;
      // null is kept: it is values.yaml's "unset", which the chart renders as no environment variable
      return { ...fact, default: def as string | number | boolean | null };
    });
  const out: {
    settings: SettingData[];
    featureGates: SettingData[];
    awsFeatureGates?: SettingData[];
    valuePaths: string[];
  } = {
    settings: facts(settings, "settings.", compared?.chart.settings),
    featureGates: facts(featureGates, "settings.featureGates.", compared?.chart.featureGates),
    valuePaths: valuePaths(values),
  };
  if (awsFeatureGates !== undefined)
    out.awsFeatureGates = facts(awsFeatureGates ?? {}, "settings.awsFeatureGates.", compared?.chart.awsFeatureGates);
  const order =
    awsFeatureGates !== undefined
      ? {
          settings: out.settings,
          featureGates: out.featureGates,
          awsFeatureGates: out.awsFeatureGates,
          valuePaths: out.valuePaths,
        }
      : out;
  for (const [was, now, label] of [
    [compared?.chart.settings, out.settings, "settings."],
    [compared?.chart.featureGates, out.featureGates, "settings.featureGates."],
    [compared?.chart.awsFeatureGates, out.awsFeatureGates ?? [], "settings.awsFeatureGates."],
  ] as const) {
    for (const s of was ?? [])
      if (!now.some((x) => x.key === s.key))
        checklist.push(
          `${label}${s.key} was removed: make the library refuse it from ${earlierPatch ? version : minor} on`,
        );
  }
  if (earlierPatch) {
    const added = out.valuePaths.filter((p) => !earlierPatch.chart.valuePaths.includes(p));
    const removed = earlierPatch.chart.valuePaths.filter((p) => !out.valuePaths.includes(p));
    if (added.length || removed.length)
      checklist.push(
        `chart value paths changed in patch ${version} (${[...added.map((p) => `+${p}`), ...removed.map((p) => `-${p}`)].join(", ")}): record them in VALUE_PATHS_PATCH_CHANGES (lib/versions/patch-history.ts) so earlier ${minor} patches keep theirs`,
      );
  }
  return order;
}

/** values.yaml without settings as value paths: `{}` empty map (and nodeSelector, which takes any key), `[]` list, `~` null. */
export function valuePaths(values: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (v: unknown, p: string) => {
    if (p === "nodeSelector") return void out.push("nodeSelector{}");
    if (v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 0) {
      for (const [k, x] of Object.entries(v)) walk(x, p ? `${p}.${k}` : k);
    } else out.push(`${p}${Array.isArray(v) ? "[]" : v === null ? "~" : typeof v === "object" ? "{}" : ""}`);
  };
  for (const [k, v] of Object.entries(values)) if (k !== "settings") walk(v, k);
  return out.sort();
}

/** The CRDs of the karpenter-crd chart's templates, Helm directives dropped (they only touch metadata and the 1.0 conversion webhook). */
function readCrds(dir: string): any[] {
  if (!fs.existsSync(dir)) throw new Error(`${dir} is missing (the karpenter-crd chart's templates hold the CRDs)`);
  const docs: any[] = [];
  for (const f of fs.readdirSync(dir).sort()) {
    if (!f.endsWith(".yaml")) continue;
    const text = fs
      .readFileSync(path.join(dir, f), "utf8")
      .split("\n")
      .filter((l) => !/^\s*\{\{/.test(l))
      .map((l) => l.replace(/\{\{[^}]*\}\}/g, "helm"))
      .join("\n");
    for (const d of YAML.parseAllDocuments(text)) {
      const crd = d.toJSON();
      if (crd?.kind === "CustomResourceDefinition") docs.push(crd);
    }
  }
  return docs;
}

/** A CRD's facts as the data holds them; `freeForm` only where the CRD has such objects (1.15's kubelet), so older data is unchanged. */
function crdData(f: ReturnType<typeof crdFacts>): VersionData["crds"]["nodePool"] {
  return f.freeForm.length
    ? { fields: f.fields, types: f.types, enums: f.enums, freeForm: f.freeForm }
    : { fields: f.fields, types: f.types, enums: f.enums };
}

/** The schema keywords the generic CRD checker reads (lib/nodes/crd-object-rules.ts), per field. */
const SCHEMA_KEYWORDS = [
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "pattern",
  "format",
  "default",
] as const;

/**
 * A CRD the library checks with its generic checker (NodeOverlay, CapacityBuffer): the fields, types and enums of
 * {@link crdData}, plus its API group, version and scope and each field's schema keywords and required children.
 * A map's values are the path `<field>{}`.
 */
function objectCrdData(crds: any[], kind: string, f: ReturnType<typeof crdFacts>): ObjectCrdData {
  const crd = crds.find((c) => c.spec.names.kind === kind);
  const served = crd.spec.versions.find((v: any) => v.storage) ?? crd.spec.versions[0];
  const schema: Record<string, CrdFieldSchema> = {};
  const walk = (s: any, p: string) => {
    if (!s) return;
    const entry: Record<string, unknown> = {};
    for (const k of SCHEMA_KEYWORDS) if (s[k] !== undefined) entry[k] = s[k];
    if (Array.isArray(s.required) && s.required.length) entry.required = [...s.required].sort();
    if (s["x-kubernetes-int-or-string"] === true) entry.type = "int-or-string";
    else if ((p.endsWith("{}") || p.endsWith("[]")) && s.type) entry.type = s.type;
    if (Object.keys(entry).length) schema[p] = entry as CrdFieldSchema;
    if (s.type === "array") return walk(s.items, `${p}[]`);
    if (s.additionalProperties && typeof s.additionalProperties === "object") walk(s.additionalProperties, `${p}{}`);
    for (const [k, x] of Object.entries<any>(s.properties ?? {})) walk(x, `${p}.${k}`);
  };
  walk(served.schema.openAPIV3Schema.properties.spec, "spec");
  const sorted = Object.fromEntries(
    Object.keys(schema)
      .sort()
      .map((k) => [k, schema[k]]),
  );
  return {
    ...crdData(f),
    api: { group: crd.spec.group, version: served.name, kind, scope: crd.spec.scope },
    schema: sorted,
  };
}

function crdFacts(
  crds: any[],
  kind: string,
): {
  fields: string[];
  types: Record<string, CrdFieldType>;
  enums: Record<string, string[]>;
  cel: string[];
  freeForm: string[];
} {
  const crd = crds.find((c) => c.spec.names.kind === kind);
  if (!crd) throw new Error(`the karpenter-crd chart has no ${kind} CRD`);
  const served = crd.spec.versions.find((v: any) => v.name === "v1") ?? crd.spec.versions[0];
  const fields: string[] = [];
  const types: Record<string, CrdFieldType> = {};
  const enums: Record<string, string[]> = {};
  const cel: string[] = [];
  const freeForm: string[] = [];
  const walk = (schema: any, p: string) => {
    if (!schema) return;
    for (const r of schema["x-kubernetes-validations"] ?? []) cel.push(`${p || "."}: ${r.rule}`);
    // the API server keeps any field below such an object: the controller, not the schema, judges them
    if (schema["x-kubernetes-preserve-unknown-fields"] === true && p !== "spec") freeForm.push(p);
    // in the CRD's order, which the library's messages keep ("one of "In", "NotIn", "Exists", …")
    if (schema.enum) enums[p] = schema.enum.map(String);
    if (schema.type === "array") return walk(schema.items, `${p}[]`);
    for (const [k, s] of Object.entries<any>(schema.properties ?? {})) {
      const q = p ? `${p}.${k}` : k;
      fields.push(q);
      types[q] = s["x-kubernetes-int-or-string"] === true ? "int-or-string" : (s.type ?? "any");
      walk(s, q);
    }
  };
  walk(served.schema.openAPIV3Schema.properties.spec, "spec");
  const sortedEnums = Object.fromEntries(
    Object.keys(enums)
      .sort()
      .map((k) => [k, enums[k]]),
  );
  const sortedTypes = Object.fromEntries(
    Object.keys(types)
      .sort()
      .map((k) => [k, types[k]]),
  );
  return {
    fields: fields.sort(),
    types: sortedTypes,
    enums: sortedEnums,
    cel: [...new Set(cel)].sort(),
    freeForm: freeForm.sort(),
  };
}

/** Adds to the checklist what changed since the previous minor and needs a person: CEL rules, Sids, fields. */
function reviewAgainstPrevious(data: VersionData, previous: VersionData | undefined, checklist: string[]): void {
  if (!previous) return;
  for (const [key, kind] of Object.entries(OBJECT_CRD_KINDS)) {
    const crds = (d: VersionData) => d.crds as Record<string, unknown>;
    if (crds(data)[key] && !crds(previous)[key])
      checklist.push(
        `the karpenter-crd chart ships ${kind} from ${data.minor} on: CRD_SINCE dates it (kinds); review its construct's CEL and semantic rules`,
      );
  }
  for (const r of data.celRules)
    if (!previous.celRules.includes(r))
      checklist.push(
        `new CEL rule, ${r}: write its check in lib/nodes/node-pool-rules.ts or ec2-node-class-rules.ts (quote the rule)`,
      );
  const statements = (d: VersionData) =>
    new Map(d.controllerPolicies.flatMap((p) => p.statements.map((s) => [s.Sid, s] as const)));
  const [now, was] = [statements(data), statements(previous)];
  for (const [sid, s] of now) {
    const before = was.get(sid);
    if (!before) checklist.push(`new controller statement ${sid}: review it (emitted as written)`);
    // an action, resource or condition more or less is a permission change too: the diff alone hides it among the data
    else if (JSON.stringify(normalStatement(s)) !== JSON.stringify(normalStatement(before)))
      checklist.push(
        `controller statement ${sid} changed since ${previous.version}: review it (emitted as written; \`npx cdktf-eks-karpenter upgrade-plan --from ${previous.minor} --to ${data.minor}\` after a build shows how)`,
      );
  }
  for (const sid of was.keys())
    if (!now.has(sid))
      checklist.push(
        `controller statement ${sid} was removed since ${previous.version}: review that nothing else grants what it did`,
      );
  const added = data.nodeRolePolicies.filter((p) => !previous.nodeRolePolicies.includes(p));
  const dropped = previous.nodeRolePolicies.filter((p) => !data.nodeRolePolicies.includes(p));
  if (added.length || dropped.length)
    checklist.push(
      `node role managed policies changed: ${[...added.map((p) => `+${p}`), ...dropped.map((p) => `-${p}`)].join(", ")}: review docs/aws.md and the README version table`,
    );
  for (const [kind, now, was] of [
    ["NodePool", data.crds.nodePool, previous.crds.nodePool],
    ["EC2NodeClass", data.crds.ec2NodeClass, previous.crds.ec2NodeClass],
  ] as const) {
    const spec = `lib/nodes/${kind === "NodePool" ? "node-pool-spec" : "ec2-node-class-spec"}.ts`;
    const rules = `lib/nodes/${kind === "NodePool" ? "node-pool-rules" : "ec2-node-class-rules"}.ts`;
    const added = now.fields.filter((f) => !was.fields.includes(f));
    if (added.length)
      checklist.push(
        `new ${kind} fields: ${added.join(", ")}: add them to the typed spec (${spec}; test/nodes/spec-fields.test.ts fails until they are) and their rules (${rules}); CRD_SINCE dates them`,
      );
    const under = (f: string, o: string) => f.startsWith(`${o}.`) || f.startsWith(`${o}[]`);
    const freed = (now.freeForm ?? []).filter((o) => !(was.freeForm ?? []).includes(o));
    for (const o of freed) {
      const typed = was.fields.filter((f) => under(f, o) && !now.fields.includes(f));
      checklist.push(
        `${kind} ${o} became free-form (x-kubernetes-preserve-unknown-fields): the API server no longer judges its fields${typed.length ? ` (${typed.join(", ")} were typed in ${previous.version})` : ""}; keep the typed fields typed in ${spec} and decide in ${rules} which other fields pass`,
      );
    }
    const removed = was.fields.filter((f) => !now.fields.includes(f) && !(now.freeForm ?? []).some((o) => under(f, o)));
    if (removed.length)
      checklist.push(
        `${kind} fields removed: ${removed.join(", ")}: make the library refuse them from ${data.minor} on (${rules})`,
      );
    for (const [f, vs] of Object.entries(now.enums)) {
      const more = vs.filter((v) => !(was.enums[f] ?? []).includes(v));
      if (more.length && was.enums[f])
        checklist.push(
          `new ${kind} ${f} values: ${more.join(", ")}: until they are added to the typed spec and rules (${spec}, ${rules}), they are refused (CRD_SINCE dates them)`,
        );
    }
    for (const [f, vs] of Object.entries(was.enums)) {
      const gone = vs.filter((v) => now.enums[f] && !now.enums[f].includes(v));
      if (gone.length)
        checklist.push(
          `${kind} ${f} values removed: ${gone.join(", ")}: make the library refuse them from ${data.minor} on`,
        );
    }
  }
}

/** A statement as the data compares it: actions and resources as sorted lists. */
function normalStatement(s: RawStatement): RawStatement {
  const list = (x: string | string[]) => (Array.isArray(x) ? [...x].sort() : [x]);
  return { ...s, Action: list(s.Action), Resource: list(s.Resource) };
}

/** The JSON file that holds `data` (lib/versions/data/v1-14.json): plain data, the fastest to load. */
export function renderDataFile(data: VersionData): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

/**
 * The first minor of `data` (oldest first) whose CRD has each field and enum value the oldest one lacks; for the
 * kinds not every release ships (NodeOverlay, CapacityBuffer), the first minor that ships each (`kinds`), and their
 * fields and values dated against the minors that ship the kind.
 */
export function crdSince(data: readonly VersionData[]): CrdSince {
  const kinds = ["nodePool", "ec2NodeClass", ...Object.keys(OBJECT_CRD_KINDS)] as const;
  const out = Object.fromEntries(kinds.map((k) => [k, { fields: {}, enumValues: {}, freeForm: {} }])) as Record<
    string,
    {
      fields: Record<string, string>;
      enumValues: Record<string, string>;
      freeForm: Record<string, string>;
    }
  >;
  const first: Record<string, string> = {};
  for (const kind of kinds) {
    const shipping = data.filter((d) => (d.crds as Record<string, unknown>)[kind] !== undefined);
    if (shipping.length === 0) continue;
    if (shipping[0] !== data[0]) first[kind] = shipping[0].minor;
    const crd = (d: VersionData) => (d.crds as unknown as Record<string, VersionData["crds"]["nodePool"]>)[kind];
    for (const [i, d] of shipping.entries()) {
      if (i === 0) continue;
      const seen = (f: (x: VersionData) => boolean) => shipping.slice(0, i).some(f);
      for (const f of crd(d).fields) if (!seen((x) => crd(x).fields.includes(f))) out[kind].fields[f] ??= d.minor;
      for (const [p, values] of Object.entries(crd(d).enums))
        for (const v of values)
          if (!seen((x) => (crd(x).enums[p] ?? []).includes(v))) out[kind].enumValues[`${p}=${v}`] ??= d.minor;
      for (const f of crd(d).freeForm ?? [])
        if (!seen((x) => (crd(x).freeForm ?? []).includes(f))) out[kind].freeForm[f] ??= d.minor;
    }
  }
  return { ...out, kinds: first } as unknown as CrdSince;
}

/**
 * The fields and enum values of every minor's NodePool and EC2NodeClass CRDs together (`data` oldest first): fields
 * sorted, each enum's values in the newest minor's order, then values only older minors had (newest first).
 */
export function crdKnown(data: readonly VersionData[]): CrdKnown {
  const known = (kind: "nodePool" | "ec2NodeClass") => {
    const fields = [...new Set(data.flatMap((d) => d.crds[kind].fields))].sort();
    const enums: Record<string, string[]> = {};
    for (const d of [...data].reverse())
      for (const [p, values] of Object.entries(d.crds[kind].enums))
        for (const v of values) if (!(enums[p] ??= []).includes(v)) enums[p].push(v);
    const sortedEnums = Object.fromEntries(
      Object.keys(enums)
        .sort()
        .map((k) => [k, enums[k]]),
    );
    return { fields, enums: sortedEnums };
  };
  return { nodePool: known("nodePool"), ec2NodeClass: known("ec2NodeClass") };
}

/** The CEL rule of `kind` at `at` that `match` picks, in minor `d` (undefined when none). */
function celRule(d: VersionData, kind: string, at: string, match: (rule: string) => boolean): string | undefined {
  const prefix = `${kind} ${at}: `;
  return d.celRules
    .filter((r) => r.startsWith(prefix) && match(r.slice(prefix.length)))
    .map((r) => r.slice(prefix.length))[0];
}

/** The quoted strings of the first `in [...]` list of a CEL rule. */
function celList(rule: string): string[] {
  const list = /\bin \[([^\]]*)\]/.exec(rule);
  return list ? [...list[1].matchAll(/["']([^"']*)["']/g)].map((m) => m[1]) : [];
}

/** `self.find("^([^/]+)").endsWith("<domain>")` negated: the term of a key rule that restricts `domain`. */
const restricts = (domain: string) => (rule: string) => rule.includes(`!self.find("^([^/]+)").endsWith("${domain}")`);

/**
 * {@link CelLists} from every minor's CEL rules (`data` oldest first). Throws when a minor lacks a rule the library
 * reads (its shape changed: the generator must learn it) or drops a value an earlier minor listed.
 */
export function celLists(data: readonly VersionData[]): CelLists {
  const firstMinor = (lists: { minor: string; values: string[] }[], what: string): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [i, { minor, values }] of lists.entries()) {
      for (const v of values) out[v] ??= minor;
      const dropped = i > 0 ? lists[i - 1].values.filter((v) => !values.includes(v)) : [];
      if (dropped.length)
        throw new Error(
          `${what}: ${minor} no longer lists ${dropped.join(", ")}; the library has no way to say "until" yet`,
        );
    }
    return out;
  };
  const required = (d: VersionData, kind: string, at: string, match: (r: string) => boolean, what: string) => {
    const rule = celRule(d, kind, at, match);
    if (rule === undefined)
      throw new Error(
        `the ${d.version} ${kind} CRD has no CEL rule on ${at} listing ${what}: teach scripts/version-data.ts its shape`,
      );
    return rule;
  };
  const aliasRule = (r: string) => /^self\.split\('@'\)\[0\] in \[[^\]]*\]$/.test(r);
  const latestRule = (r: string) =>
    /^self\.split\('@'\)\[0\] in \[[^\]]*\] \? self\.split\('@'\)\[1\] == 'latest' : true$/.test(r);
  const keys = "spec.template.spec.requirements[].key";
  const aws = restricts("karpenter.k8s.aws");
  const k8s = restricts("kubernetes.io");
  const withK8s = data.filter((d) => celRule(d, "NodePool", keys, k8s) !== undefined);
  const allowed = [...new Set(withK8s.map((d) => JSON.stringify(celList(celRule(d, "NodePool", keys, k8s)!))))];
  if (allowed.length > 1)
    throw new Error(
      `the kubernetes.io keys NodePool requirements may use differ between minors: ${allowed.join(" / ")}`,
    );
  const until = data.find((d) => d !== data[0] && withK8s.includes(data[data.indexOf(d) - 1]) && !withK8s.includes(d));
  return {
    aliasFamilies: firstMinor(
      data.map((d) => ({
        minor: d.minor,
        values: celList(required(d, "EC2NodeClass", "spec.amiSelectorTerms[].alias", aliasRule, "the alias families")),
      })),
      "amiSelectorTerms[].alias families",
    ),
    latestOnlyAliasFamilies: firstMinor(
      data.map((d) => ({
        minor: d.minor,
        values: celList(
          required(
            d,
            "EC2NodeClass",
            "spec.amiSelectorTerms[].alias",
            latestRule,
            "the families that take only @latest",
          ),
        ),
      })),
      "amiSelectorTerms[].alias families that take only @latest",
    ),
    awsLabelKeys: firstMinor(
      data.map((d) => ({
        minor: d.minor,
        values: celList(required(d, "NodePool", keys, aws, "the karpenter.k8s.aws keys")),
      })),
      "the karpenter.k8s.aws keys of NodePool requirements",
    ),
    k8sDomain: { allowedKeys: allowed.length ? JSON.parse(allowed[0]) : [], restrictedUntil: until?.minor ?? "" },
  };
}

/** The file name of a minor's data: `v1-14.json`. */
export const dataFileName = (minor: string) => `v${minor.replace(".", "-")}.json`;

/** lib/versions/data/index.ts: the known releases (newest patch per minor), their Kubernetes ranges, and a lazy loader per minor. */
export function renderDataIndex(releases: readonly VersionData[]): string {
  const sorted = [...releases].sort((a, b) => cmp(a.version, b.version));
  const since = crdSince(sorted);
  const minor = (v: string) => v.split(".").slice(0, 2).join(".");
  return [
    "// Generated by `npm run add-version` (each minor's facts are in its v1-<minor>.json). Do not edit: regenerate.",
    'import { CelLists, CrdKnown, CrdSince, VersionData } from "../types";',
    "",
    "/** The newest known patch of every known minor, oldest first. */",
    `export const RELEASES: readonly string[] = ${JSON.stringify(sorted.map((r) => r.version))};`,
    "",
    "/** The Kubernetes minors each known minor's newest patch runs on (`--kubernetes` of add-version), without loading its data. */",
    "export const KUBERNETES: Readonly<Record<string, { readonly min: string; readonly max: string }>> = {",
    ...sorted.map((r) => `  "${minor(r.version)}": { min: "${r.kubernetes.min}", max: "${r.kubernetes.max}" },`),
    "};",
    "",
    "/**",
    " * When CRD kinds, spec fields and enum values first appeared: the first known minor whose CRDs have them, for those",
    " * the oldest known minor (for a kind: the first that ships it) lacks (a field as a CRD path, an enum value as",
    " * `<CRD path>=<value>`; `kinds`: the CRDs not every known minor ships).",
    " */",
    `export const CRD_SINCE: CrdSince = ${JSON.stringify(since, null, 2)};`,
    "",
    "/**",
    " * Every spec field (sorted) and enum value (in the CRD's order: the newest minor's, then values only older minors",
    " * had) that any known minor's NodePool and EC2NodeClass CRDs have: the fields and values the library knows, of",
    " * which CRD_SINCE dates those the oldest minor lacks.",
    " */",
    `export const CRD_KNOWN: CrdKnown = ${JSON.stringify(crdKnown(sorted), null, 2)};`,
    "",
    "/**",
    " * Values the CRDs list in CEL rules rather than enums, each with the first known minor that lists it: the",
    " * amiSelectorTerms alias families (and those that take only `@latest`), the `karpenter.k8s.aws` label keys NodePool",
    " * requirements and labels may use, and the `kubernetes.io` keys allowed while that domain was restricted",
    " * (`k8sDomain.restrictedUntil`: the first minor whose rules no longer restrict it).",
    " */",
    `export const CEL_LISTS: CelLists = ${JSON.stringify(celLists(sorted), null, 2)};`,
    "",
    "/** Loads one minor's data on first use, so an app pays only for the version it installs. */",
    "export const LOADERS: Readonly<Record<string, () => VersionData>> = {",
    ...sorted.map(
      (r) => `  "${minor(r.version)}": () => require("./${dataFileName(minor(r.version))}") as VersionData,`,
    ),
    "};",
    "",
  ].join("\n");
}
