import type { Alias, Document, LineCounter } from "yaml";
import type * as Yaml from "yaml";
import { goYaml, yaml } from "./yaml";
import { KarpenterValidationError } from "../core/errors";
import type { ErrorCode } from "../core/error-codes";
import { DEFAULT_KARPENTER_VERSION, KarpenterVersion, resolveKarpenterVersion } from "../versions/karpenter-version";
import { holdsToken } from "../kubernetes/value-rules";
import { crdFieldSince, crdKindSince, objectCrd, OBJECT_CRD_KINDS, ObjectCrdKind } from "../versions";
import { nodeClassRoleProblem } from "../aws-api/name-rules";
import type * as Parts from "./converters";
import { ClassDraft, ObjectDraft, PoolDraft } from "./drafts";
import type { DocumentInfo, ObjectContext, Path } from "./fields";
import { LegacyManifestError } from "./legacy-manifest-error";
import {
  ConversionNote,
  ConvertedCapacityBuffer,
  ConvertedEc2NodeClass,
  ConvertedNodeOverlay,
  ConvertedNodePool,
  ConvertedObject,
  ConvertLegacyManifestsOptions,
  LegacyConversionResult,
} from "./types";

let loaded: typeof Parts | undefined;

/** The readers and helpers of the conversion, loaded on first use (converters.ts says why). */
function parts(): typeof Parts {
  return (loaded ??= require("./converters") as typeof Parts);
}

const READABLE =
  "karpenter.sh/v1alpha5 Provisioner, karpenter.k8s.aws/v1alpha1 AWSNodeTemplate, karpenter.sh/v1beta1 or v1 NodePool, karpenter.k8s.aws/v1beta1 or v1 EC2NodeClass, karpenter.sh/v1alpha1 NodeOverlay, autoscaling.x-k8s.io/v1beta1 CapacityBuffer";

/**
 * Converts Karpenter manifests of any API version to typed `karpenter.sh/v1` NodePool and
 * `karpenter.k8s.aws/v1` EC2NodeClass props (and reads NodeOverlays and CapacityBuffers into the props of
 * their constructs):
 * - v1alpha5 `Provisioner` (Karpenter ≤ 0.31) → NodePool (+ an EC2NodeClass for an inline `provider`),
 * - v1alpha1 `AWSNodeTemplate` → EC2NodeClass,
 * - v1beta1 `NodePool` / `EC2NodeClass` (0.32–0.37) → v1,
 * - v1 objects are read as they are (note "already v1"),
 * - `karpenter.sh/v1alpha1` NodeOverlay and `autoscaling.x-k8s.io/v1beta1` CapacityBuffer are read as they are,
 *   into the props of the NodeOverlay / CapacityBuffer constructs: every spec field of the target version's CRD
 *   carried over as written (a field of a later release is dropped with a note naming it), an `action` note saying
 *   the install must enable the kind's feature gate (`nodeOverlay` / `capacityBuffer`), and an `invalid` note when
 *   the target version has no such CRD (NodeOverlay before 1.7, CapacityBuffer before 1.14).
 *
 * `yamlText` holds one or more YAML documents (`---` separated; `kind: List` documents such as
 * `kubectl get provisioners -o yaml` output are read item by item; a List inside a List is an error). Rules follow the upstream
 * guides (karpenter.sh v0.32 "v1beta1 Migration", v1.0 "v1 Migration") and the upstream
 * `karpenter-convert` tool; the README lists them. Every field that cannot be carried over
 * exactly gets a {@link ConversionNote} on its object; documents of other kinds are skipped
 * with a note in the result's `notes`. Each converted object is also checked against the
 * targeted Karpenter version's NodePool / EC2NodeClass rules (those of the constructs): every
 * problem gets its own `action` note (the constructs report them all in one error). A NodePool's kubelet
 * (a node class field in v1) moves to its EC2NodeClass; NodePools of one EC2NodeClass that ask
 * for different kubelet settings get copies of it named `<class>-<pool>` (one per kubelet
 * configuration, right after the original in `objects`), so no pool changes behaviour. Converted NodePools
 * always state `karpenter.sh/capacity-type`, as the NodePool construct does (`In [on-demand]`
 * with an info note when the input named none).
 *
 * Feed the results to the constructs (a pool without `nodeClassRef` — its input named no node
 * class — needs one from you; its notes say so):
 * ```ts
 * const { nodePools, ec2NodeClasses, nodeOverlays, capacityBuffers } = convertLegacyManifests(fs.readFileSync("karpenter.yaml", "utf8"));
 * const classes = new Map(ec2NodeClasses.map((c) => [c.name, new Ec2NodeClass(stack, c.name, { ...c.props, karpenter })]));
 * for (const p of nodePools) {
 *   if (!p.nodeClassRef) continue;
 *   new NodePool(stack, p.name, { ...p.props, nodeClass: classes.get(p.nodeClassRef.name) ?? p.nodeClassRef, karpenter });
 * }
 * // `karpenter` enables the nodeOverlay / capacityBuffer feature gates (the notes say which are needed)
 * for (const o of nodeOverlays) new NodeOverlay(stack, o.name, { ...o.props, karpenter });
 * for (const b of capacityBuffers) new CapacityBuffer(stack, `${b.namespace}-${b.name}`, { ...b.props, karpenter });
 * ```
 *
 * @param yamlText the manifests, as YAML (or JSON) text
 * @param options see {@link ConvertLegacyManifestsOptions}
 * @throws LegacyManifestError (a KarpenterValidationError) naming the document (1-based), the line
 * and the field, for a YAML syntax error, a document that is not a mapping, a List without an
 * `items` list or with a List among its items, a Karpenter object without `apiVersion`, `kind`
 * or `metadata.name`, a field of the wrong type, or two objects converting to the same kind and
 * name; nothing is returned then
 * @throws KarpenterValidationError for bad options (an unknown option key, an unknown Karpenter
 * version, an empty role or one that is no IAM role name, a `legacyDefaults` that is not a boolean)
 */
export function convertLegacyManifests(
  yamlText: string,
  options: ConvertLegacyManifestsOptions = {},
): LegacyConversionResult {
  try {
    return convertText(yamlText, options);
  } catch (e) {
    throw withTemplateHint(e, yamlText);
  }
}

/**
 * An error of a document, with a hint added when the text holds a Go template action (`{{ … }}`):
 * such input is most likely a Helm chart's template, not yet rendered (`name: {{ .Values.name }}` reads
 * as a mapping, and the error alone says only that a string was expected). A template in a quoted
 * string converts as written, so the text is not refused for holding one.
 */
function withTemplateHint(e: unknown, yamlText: string): unknown {
  if (!(e instanceof LegacyManifestError) || typeof yamlText !== "string") return e;
  const lines = yamlText.split(/\r?\n/);
  const at = lines.findIndex((l) => /\{\{.*\}\}/.test(l));
  if (at < 0) return e;
  const action = /\{\{.*?\}\}/.exec(lines[at])![0];
  const shown = action.length > 60 ? `${action.slice(0, 57)}...` : action;
  const hint = `the input looks like an unrendered Helm (Go) template (${shown} on line ${at + 1}): run \`helm template\` first and convert its output`;
  const hinted = new LegacyManifestError(
    e.code as ErrorCode,
    e.document,
    e.line,
    e.field,
    e.value,
    `${e.allowed}; ${hint}`,
  );
  hinted.message = / \[[A-Z0-9_]+\]$/.test(e.message)
    ? e.message.replace(/ (\[[A-Z0-9_]+\])$/, `; ${hint} $1`)
    : `${e.message}; ${hint}`;
  return hinted;
}

function convertText(yamlText: string, options: ConvertLegacyManifestsOptions): LegacyConversionResult {
  const where = "convertLegacyManifests";
  if (typeof yamlText !== "string")
    throw new KarpenterValidationError(
      "CONVERT_INPUT",
      where,
      "yamlText",
      yamlText,
      "YAML text with one or more documents",
    );
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw new KarpenterValidationError(
      "OPTIONS_NOT_AN_OBJECT",
      where,
      "options",
      options,
      `an object { ${OPTIONS.join(", ")} } (or nothing)`,
    );
  for (const [key, value] of Object.entries(options)) {
    if (!OPTIONS.includes(key))
      throw new KarpenterValidationError(
        "OPTIONS_UNKNOWN_KEY",
        where,
        `options.${key}`,
        value,
        `not an option of convertLegacyManifests (options: ${OPTIONS.join(", ")})`,
      );
  }
  if (options.legacyDefaults !== undefined && typeof options.legacyDefaults !== "boolean")
    throw new KarpenterValidationError(
      "CONVERT_OPTION_NOT_A_BOOLEAN",
      where,
      "options.legacyDefaults",
      options.legacyDefaults,
      "true or false",
    );
  const version = resolveKarpenterVersion(where, options.version ?? DEFAULT_KARPENTER_VERSION, "options.version");
  if (options.role !== undefined && (typeof options.role !== "string" || options.role.trim() === "")) {
    throw new KarpenterValidationError(
      "CONVERT_OPTION_ROLE",
      where,
      "options.role",
      options.role,
      "the name of the IAM role of the nodes, e.g. KarpenterNodeRole-demo (or leave it unset to keep instanceProfile)",
    );
  }
  // the rule the Ec2NodeClass construct applies to a literal role (one known only at apply is left to it)
  const roleProblem =
    options.role !== undefined && !holdsToken(options.role) ? nodeClassRoleProblem(options.role) : undefined;
  if (roleProblem !== undefined)
    throw new KarpenterValidationError("CONVERT_OPTION_ROLE", where, "options.role", options.role, roleProblem);
  const lineCounter = new (yaml().LineCounter)();
  // logLevel "error": the library's own warnings (e.g. "Keys with collection values will be stringified …
  // Set mapAsMap: true", for a `{{ … }}` key) would reach stderr as a Node process warning, advice to the
  // library's caller, not to the user; the document's problems are reported as errors or notes.
  const docs = yaml().parseAllDocuments(yamlText, {
    version: "1.1",
    lineCounter,
    prettyErrors: true,
    logLevel: "error",
  });
  const drafts: (
    | { kind: "NodePool"; draft: PoolDraft }
    | { kind: "EC2NodeClass"; draft: ClassDraft }
    | { kind: "object"; draft: ObjectDraft }
  )[] = [];
  const notes: ConversionNote[] = [];

  Array.from(docs).forEach((doc, i) => {
    const n = i + 1;
    const value = parse(doc, n, yamlText, lineCounter, docs);
    if (value === null || value === undefined) return; // an empty document (e.g. after a trailing `---`)
    const tags = unresolvedTags(doc);
    const info = (base: Path): DocumentInfo => ({
      document: n,
      base,
      lineOf: (path) => lineOf(doc, lineCounter, path),
    });
    if (!isList(value)) return convertOne(info([]), value, undefined, tags);
    const ctx = new (parts().ObjectContext)(info([]));
    const items: unknown[] = Array.isArray(value.items)
      ? value.items
      : ctx.fail(
          "CONVERT_LIST_ITEMS",
          ["items"],
          value.items,
          `the objects of the ${value.kind} as a list (items is required)`,
        );
    items.forEach((item, j) => {
      if (isList(item))
        ctx.fail(
          "CONVERT_LIST_ITEMS",
          ["items", j],
          item,
          `a Kubernetes object: a ${item.kind} inside a ${value.kind} is not read; put its items in the outer list`,
        );
      convertOne(info(["items", j]), item, j, tags);
    });
  });

  function convertOne(
    doc: DocumentInfo,
    value: unknown,
    item: number | undefined,
    tags: readonly UnresolvedTag[],
  ): void {
    const ctx = new (parts().ObjectContext)(doc);
    noteUnresolvedTags(ctx, doc.base, tags);
    const top = ctx.fields([], value, "a Kubernetes object with apiVersion, kind and metadata");
    const apiVersion =
      top.str("apiVersion", { nonEmpty: true }) ??
      top.fail(
        "CONVERT_REQUIRED",
        "apiVersion",
        undefined,
        "the object's apiVersion (required), e.g. karpenter.sh/v1alpha5",
      );
    const kind =
      top.str("kind", { nonEmpty: true }) ??
      top.fail("CONVERT_REQUIRED", "kind", undefined, "the object's kind (required), e.g. Provisioner");
    const key = `${apiVersion} ${kind}`;
    const objectKind = parts().objectKindNamed(kind);
    if (objectKind !== undefined) {
      if (!parts().servedApiVersions(objectKind).includes(apiVersion)) {
        notes.push(skipped(doc.document, item, apiVersion, kind, value));
        return;
      }
      const meta = parts().readMetadata(ctx, top, false, objectScope(objectKind, version.factsMinor) === "Namespaced");
      const source = {
        document: doc.document,
        ...(item !== undefined ? { item } : {}),
        apiVersion,
        kind,
        name: meta.name,
      };
      const spec = top.obj("spec", "the object's spec") ?? ctx.fields(["spec"], {}, "the object's spec");
      const draft = parts().readObjectCrd(
        objectKind,
        { ctx, source, spec, role: options.role, legacyDefaults: options.legacyDefaults ?? true, version },
        meta.namespace,
      );
      ctx.noteUnused(`${kind} ${draft.apiVersion}`);
      drafts.push({ kind: "object", draft });
      return;
    }
    const convert = parts().CONVERTERS[key];
    if (!convert) {
      notes.push(skipped(doc.document, item, apiVersion, kind, value));
      return;
    }
    const { name, annotations } = parts().readMetadata(ctx, top, key === "karpenter.sh/v1 NodePool");
    const source = { document: doc.document, ...(item !== undefined ? { item } : {}), apiVersion, kind, name };
    const spec = top.obj("spec", "the object's spec") ?? ctx.fields(["spec"], {}, "the object's spec");
    const result = convert({
      ctx,
      source,
      spec,
      role: options.role,
      legacyDefaults: options.legacyDefaults ?? true,
      version,
    });
    const { KUBELET_COMPATIBILITY } = parts();
    if (result.pool && annotations[KUBELET_COMPATIBILITY] !== undefined)
      result.pool.kubelet = compatibilityKubelet(ctx, annotations[KUBELET_COMPATIBILITY], version);
    ctx.noteUnused(`${kind} ${apiVersion}`, result.pool ? undefined : laterClassField(version));
    if (result.pool) drafts.push({ kind: "NodePool", draft: result.pool });
    if (result.nodeClass) {
      if (result.pool)
        result.nodeClass.ctx.noteUnused(`the inline provider of ${kind} ${apiVersion}`, laterClassField(version));
      drafts.push({ kind: "EC2NodeClass", draft: result.nodeClass });
    }
  }

  const pools = drafts.flatMap((d) => (d.kind === "NodePool" ? [d.draft] : []));
  const classes = drafts.flatMap((d) => (d.kind === "EC2NodeClass" ? [d.draft] : []));
  const others = drafts.flatMap((d) => (d.kind === "object" ? [d.draft] : []));
  rejectDuplicates(pools, "NodePool");
  rejectDuplicates(classes, "EC2NodeClass");
  for (const kind of new Set(others.map((o) => o.kind)))
    rejectDuplicates(
      others.filter((o) => o.kind === kind),
      OBJECT_CRD_KINDS[kind],
      // a CapacityBuffer is namespaced: one name per namespace
      (o) =>
        objectScope(o.kind, version.factsMinor) === "Namespaced"
          ? `${o.props.namespace ?? DEFAULT_NAMESPACE}/${o.props.name}`
          : o.props.name,
    );
  const copies = parts().moveKubelet(pools, classes);
  parts().validateDrafts(pools, [...classes, ...[...copies.values()].flat()], version);
  parts().validateObjectDrafts(others, version);

  const objects: ConvertedObject[] = drafts.flatMap((d): ConvertedObject[] =>
    d.kind === "NodePool"
      ? [poolResult(d.draft)]
      : d.kind === "object"
        ? [objectResult(d.draft)]
        : [d.draft, ...(copies.get(d.draft) ?? [])].map(classResult),
  );
  return {
    objects,
    nodePools: objects.filter((o): o is ConvertedNodePool => o.kind === "NodePool"),
    ec2NodeClasses: objects.filter((o): o is ConvertedEc2NodeClass => o.kind === "EC2NodeClass"),
    nodeOverlays: objects.filter((o): o is ConvertedNodeOverlay => o.kind === "NodeOverlay"),
    capacityBuffers: objects.filter((o): o is ConvertedCapacityBuffer => o.kind === "CapacityBuffer"),
    notes,
  };
}

/** The options {@link convertLegacyManifests} knows; any other key is a mistake (e.g. a misspelt `rol`). */
const OPTIONS = ["role", "legacyDefaults", "version"];

/** A `kind: List` document (or any `…List` kind), as `kubectl get -o yaml` prints several objects. */
function isList(value: unknown): value is { kind: string; items?: unknown } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const kind = (value as { kind?: unknown }).kind;
  return typeof kind === "string" && kind.endsWith("List");
}

/**
 * The JavaScript value of a document as Kubernetes reads it, or the error for its first YAML problem. kubectl and
 * the API server read YAML with sigs.k8s.io/yaml over go-yaml v2 (core/go-yaml.ts), not as the `yaml` package's
 * YAML 1.1 schema does: `0o7` is 7, `2001-12-14` and `1:20` stay text, and a `<<` merge applies where it is
 * written (a merge after a key overrides it, go-yaml v2 decode.go:623-683), so the converter reads what Karpenter
 * was given.
 */
function parse(
  doc: Document.Parsed,
  n: number,
  text: string,
  lc: LineCounter,
  docs: readonly Document.Parsed[],
): unknown {
  const err = doc.errors[0];
  if (err) {
    const pos = err.linePos?.[0];
    const problem = err.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    if (/Maximum call stack size exceeded/.test(problem)) throw tooDeep(n, pos?.line);
    throw LegacyManifestError.syntax(
      n,
      pos?.line,
      pos?.col,
      pos ? text.split(/\r?\n/)[pos.line - 1] : undefined,
      problem,
    );
  }
  const orphan = goYaml().aliasesWithoutAnchor(doc)[0];
  if (orphan !== undefined) throw aliasWithoutAnchor(orphan, doc, n, docs, lc, text);
  const read = goYaml().goYamlDocumentValue(doc, text, { strict: false });
  if ("error" in read) {
    if (read.tooDeep) throw tooDeep(n, lineOf(doc, lc, []));
    // a list or mapping as a key (`name: {{ .Values.name }}`, an unrendered template) or a null key: Kubernetes
    // refuses the document too, and the `yaml` package's reading (such keys as text) lets the field's check name
    // the field and the template
    if (/map key/.test(read.error)) {
      try {
        return doc.toJS({ maxAliasCount: goYaml().MAX_ALIAS_EXPANSION });
      } catch (e) {
        if (e instanceof RangeError) throw tooDeep(n, lineOf(doc, lc, []));
        throw LegacyManifestError.syntax(n, lineOf(doc, lc, []), undefined, undefined, (e as Error).message);
      }
    }
    throw LegacyManifestError.syntax(n, lineOf(doc, lc, []), undefined, undefined, read.error.replace(/^yaml: /, ""));
  }
  const value = goYaml().goYamlToJs(read.value);
  // only in an object the converter reads (a Karpenter group's): another kind is skipped with a note, unchanged
  const inexact = inexactIntegers(doc).find((x) => {
    const item = /^items\[(\d+)\]/.exec(x.field);
    const obj = item && isList(value) && Array.isArray(value.items) ? value.items[Number(item[1])] : value;
    const apiVersion = (obj as { apiVersion?: unknown } | null)?.apiVersion;
    return typeof apiVersion === "string" && /^karpenter\.(?:sh|k8s\.aws)\//.test(apiVersion);
  });
  if (inexact) {
    const line = inexact.node.range ? lc.linePos(inexact.node.range[0]).line : undefined;
    throw new LegacyManifestError(
      "CONVERT_WRONG_TYPE",
      n,
      line,
      inexact.field,
      inexact.text,
      `a whole number from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}, or text: the converter reads numbers as JavaScript numbers, which hold no larger whole number exactly (${inexact.text} would be read as ${Number(inexact.text.replace(/_/g, ""))}), and it does not change a value silently. Quote it ("${inexact.text}") where the field takes text, such as a resource quantity, or give a smaller number`,
    );
  }
  return value;
}

/**
 * Fields whose conversion does not depend on the exact digits of a huge whole number: a v1alpha5 TTL beyond 2^53
 * seconds is far over the longest duration v1 holds either way (provisioner.ts ttlSeconds, ttlDuration).
 */
const ANY_HUGE_NUMBER = new Set(["spec.ttlSecondsUntilExpired", "spec.ttlSecondsAfterEmpty"]);

/** A plain YAML integer: decimal (with go-yaml v2's `_` separators) or hex; the forms go-yaml v2 reads as an int. */
const PLAIN_INTEGER = /^[-+]?(?:[1-9][0-9_]*|0x[0-9a-fA-F_]+)$/;

/**
 * The plain integer values of the document beyond JavaScript's exact whole numbers (2^53 - 1), with its dotted
 * field path. go-yaml v2 reads it as an int64 (or a float64 beyond that), and sigs.k8s.io/yaml hands Kubernetes its
 * digits; here goYamlToJs would make it a JavaScript number, so `9007199254740993` would print as 9007199254740992
 * and `99999999999999999999999` as 1e+23: refused instead, naming the field (fresh tester 12 C-3, C-4).
 */
function inexactIntegers(doc: Document.Parsed): { node: Yaml.Scalar; field: string; text: string }[] {
  const Y = yaml();
  const found: { node: Yaml.Scalar; field: string; text: string }[] = [];
  Y.visit(doc, {
    Scalar(key, node, path) {
      if (key === "key" || node.type !== "PLAIN" || (node.tag !== undefined && node.tag !== "tag:yaml.org,2002:int"))
        return undefined;
      const text = String(node.source ?? node.value);
      if (!PLAIN_INTEGER.test(text)) return undefined;
      const digits = text.replace(/_/g, "");
      const magnitude = BigInt(digits.replace(/^[-+]/, ""));
      if (magnitude <= BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
      const parts: string[] = [];
      path.forEach((p, i) => {
        const child = path[i + 1] ?? node;
        if (Y.isPair(p)) parts.push(String(Y.isScalar(p.key) ? p.key.value : p.key));
        else if (Y.isSeq(p)) parts.push(`[${p.items.indexOf(child as never)}]`);
      });
      const field = parts.join(".").replace(/\.\[/g, "[");
      if (ANY_HUGE_NUMBER.has(field.replace(/^items\[\d+\]\./, ""))) return undefined;
      found.push({ node, field, text });
      return undefined;
    },
  });
  return found;
}

/**
 * The error for an alias (`*ref`) with no anchor (`&ref`) before it in its document. Anchors belong to one
 * document: one set in another document of the stream (before or after a `---`) is not seen, and go-yaml v2, which
 * kubectl reads manifests with, refuses the document ("unknown anchor 'ref' referenced", decode.go:180-189).
 */
function aliasWithoutAnchor(
  alias: Alias,
  doc: Document.Parsed,
  n: number,
  docs: readonly Document.Parsed[],
  lc: LineCounter,
  text: string,
): LegacyManifestError {
  const name = alias.source;
  const pos = alias.range ? lc.linePos(alias.range[0]) : undefined;
  const anchored = (d: Document.Parsed) => {
    let line: number | undefined;
    yaml().visit(d, (_key, node) => {
      if (yaml().isNode(node) && !yaml().isAlias(node) && node.anchor === name && node.range) {
        line = lc.linePos(node.range[0]).line;
        return yaml().visit.BREAK;
      }
      return undefined;
    });
    return line;
  };
  const later = anchored(doc);
  const elsewhere = docs.flatMap((d, i) => {
    const line = d === doc ? undefined : anchored(d);
    return line === undefined ? [] : [`document ${i + 1} (line ${line})`];
  });
  const where =
    later !== undefined
      ? `&${name} comes after it (line ${later}): an anchor must come before its aliases`
      : elsewhere.length > 0
        ? `&${name} is set in ${elsewhere.join(" and ")}, and anchors are per document: a "---" starts a new document, which sees none of the anchors of the others`
        : `no &${name} is set anywhere in the input, and anchors are per document`;
  return LegacyManifestError.syntax(
    n,
    pos?.line,
    pos?.col,
    pos ? text.split(/\r?\n/)[pos.line - 1] : undefined,
    `the alias *${name} has no anchor &${name} before it in document ${n}: ${where}. Kubernetes' YAML reader refuses it ("unknown anchor '${name}' referenced"); repeat the value in this document, or set the anchor again in it`,
  );
}

/** A node of the input whose YAML tag the reader does not know (`!Ref`): its path in the document, and the tag. */
interface UnresolvedTag {
  readonly path: Path;
  readonly tag: string;
  /** The tag is on a mapping key (the path names the key), not on a value. */
  readonly onKey: boolean;
  /** What the node was read as: a scalar's value in JSON, else "a mapping" / "a list". */
  readonly read: string;
}

/**
 * The nodes of a document with a tag the YAML reader could not resolve: a local tag such as CloudFormation's `!Ref`,
 * `!Sub` or `!GetAtt`, or a global one no schema of the reader has. The `yaml` package reports each as a warning
 * (`doc.warnings`, code `TAG_RESOLVE_FAILED`, "Unresolved tag: <tag>") and reads the node as its untagged value:
 * `!Ref TeamName` becomes the string `TeamName`, `!GetAtt [a, b]` the list. The node keeps its tag (`node.tag`), so
 * the nodes are found by walking the document and matching the tags the warnings name.
 */
function unresolvedTags(doc: Document.Parsed): UnresolvedTag[] {
  const names = new Set<string>();
  for (const w of doc.warnings) {
    const m = w.code === "TAG_RESOLVE_FAILED" ? /^Unresolved tag: (\S+)/.exec(w.message) : null;
    if (m) names.add(m[1]);
  }
  if (names.size === 0) return [];
  const Y = yaml();
  const found: UnresolvedTag[] = [];
  const tagOf = (node: unknown) =>
    Y.isNode(node) && !Y.isAlias(node) && node.tag !== undefined && names.has(node.tag) ? node.tag : undefined;
  const readAs = (node: unknown) =>
    Y.isScalar(node)
      ? parts().noteValue(node.value)
      : Y.isMap(node)
        ? "a mapping"
        : Y.isSeq(node)
          ? "a list"
          : "a value";
  const walk = (node: unknown, path: Path) => {
    const tag = tagOf(node);
    if (tag !== undefined) found.push({ path, tag, onKey: false, read: readAs(node) });
    if (Y.isMap(node)) {
      for (const pair of node.items) {
        // the key as the JavaScript object names it (toJS writes a scalar key as its string)
        const key = Y.isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const keyTag = tagOf(pair.key);
        if (keyTag !== undefined)
          found.push({ path: [...path, key], tag: keyTag, onKey: true, read: readAs(pair.key) });
        walk(pair.value, [...path, key]);
      }
    } else if (Y.isSeq(node)) node.items.forEach((item, i) => walk(item, [...path, i]));
  };
  walk(doc.contents, []);
  return found;
}

/**
 * An `action` note for each unresolved tag inside the object at `base` (its path relative to the object): the reader
 * dropped the tag and the converter carried the value over as written, which in a template is a placeholder.
 */
function noteUnresolvedTags(ctx: ObjectContext, base: Path, tags: readonly UnresolvedTag[]): void {
  for (const t of tags) {
    if (t.path.length < base.length || base.some((p, i) => t.path[i] !== p)) continue;
    const path = t.path.slice(base.length);
    const what = t.onKey ? "the key" : "the value";
    ctx.note(
      "action",
      path.length > 0 ? path : "(document)",
      `${what} has the YAML tag ${t.tag}, which is no YAML type the converter knows (a template's placeholder, such as CloudFormation's !Ref, !Sub or !GetAtt?): the YAML reader dropped the tag, so ${what} was converted as written (${t.read}), not as what the tag stands for. Replace it with the real ${t.onKey ? "key" : "value"} (or convert the rendered manifest) before applying`,
    );
  }
}

/** Valid YAML nested deeper than the reader's stack (thousands of levels): no Karpenter object is, so it is refused as such. */
function tooDeep(n: number, line: number | undefined): LegacyManifestError {
  return new LegacyManifestError(
    "CONVERT_YAML",
    n,
    line,
    "yaml",
    undefined,
    "a document nested less deeply: this one nests lists or mappings thousands of levels deep, beyond what the reader follows (no NodePool, EC2NodeClass or older Karpenter object nests more than a few levels)",
  );
}

/** The 1-based line of a path in a document (of its nearest existing parent when it is absent). */
function lineOf(doc: Document.Parsed, lc: LineCounter, path: Path): number | undefined {
  for (let len = path.length; len >= 0; len--) {
    const node = len === 0 ? doc.contents : doc.getIn(path.slice(0, len), true);
    if (yaml().isNode(node) && node.range) return lc.linePos(node.range[0]).line;
  }
  return undefined;
}

/** The top-level note for a document that is not converted. */
function skipped(
  document: number,
  item: number | undefined,
  apiVersion: string,
  kind: string,
  value: unknown,
): ConversionNote {
  const meta = (value as { metadata?: { name?: unknown } }).metadata;
  const name = meta && typeof meta === "object" && typeof meta.name === "string" ? ` ${meta.name}` : "";
  const objectKind = parts().objectKindNamed(kind);
  const served = objectKind !== undefined ? parts().servedApiVersions(objectKind) : [];
  const group = apiVersion.split("/")[0];
  if (served.some((v) => v.split("/")[0] === group))
    return {
      level: "action",
      field: item === undefined ? `document ${document}` : `document ${document} items[${item}]`,
      message: parts().escapeControls(
        `skipped ${apiVersion} ${kind}${name}: Karpenter's ${kind} CRD serves ${served.join(" or ")} only (no release this library knows serves ${apiVersion}): rewrite it to ${served[served.length - 1]} (its fields are named in the ${kind} reference) and convert it again`,
      ),
    };
  const karpenter = /^karpenter\.(sh|k8s\.aws)\//.test(apiVersion);
  const why = ["Machine", "NodeClaim"].includes(kind)
    ? `${kind}s are created and deleted by Karpenter from the NodePools; not converted`
    : karpenter
      ? `not a kind and version this converter reads (${READABLE})`
      : "not a Karpenter NodePool or node class";
  return {
    level: karpenter ? "action" : "info",
    field: item === undefined ? `document ${document}` : `document ${document} items[${item}]`,
    message: parts().escapeControls(`skipped ${apiVersion} ${kind}${name}: ${why}`),
  };
}

/**
 * For a key directly under a legacy node class's spec that a v1 EC2NodeClass has a field of that name for (a field
 * added in a later release, such as `enclaveOptions` from 1.15: versions/data CRD_SINCE), what to do: the legacy
 * object could not hold it, so Karpenter never applied it, and the converter does not guess that it meant the v1
 * field.
 */
function laterClassField(version: KarpenterVersion): (path: Path) => string | undefined {
  return (path) => {
    if (path.length !== 2 || path[0] !== "spec" || typeof path[1] !== "string") return undefined;
    const key = path[1];
    const since = crdFieldSince("ec2NodeClass", `spec.${key}`);
    if (since === undefined) return undefined;
    return version.atLeast(since)
      ? `The v1 EC2NodeClass has a field ${key} (from Karpenter ${since}): if the nodes should get it, set ${key} on the converted EC2NodeClass yourself (check its shape in the EC2NodeClass reference of Karpenter ${version.full})`
      : `The v1 EC2NodeClass has a field ${key} from Karpenter ${since}, later than the target ${version.full}: to use it, install Karpenter ${since} or later and set ${key} on the EC2NodeClass yourself`;
  };
}

/** The kubelet the v1.0 conversion webhook stored in a v1 NodePool's annotation. */
function compatibilityKubelet(ctx: ObjectContext, json: string, version: KarpenterVersion): PoolDraft["kubelet"] {
  const { KUBELET_COMPATIBILITY, readKubelet } = parts();
  const field = `metadata.annotations["${KUBELET_COMPATIBILITY}"]`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    ctx.note("action", field, `not valid JSON, so the kubelet configuration it holds was not converted: ${json}`);
    return undefined;
  }
  const holder = ctx.fields(["metadata", "annotations", KUBELET_COMPATIBILITY], { kubelet: parsed }, "the annotation");
  const value = readKubelet(ctx, holder, "kubelet", version);
  return value && { value, field };
}

function rejectDuplicates<D extends PoolDraft | ClassDraft | ObjectDraft>(
  drafts: readonly D[],
  kind: string,
  keyOf: (d: D) => string = (d) => d.props.name,
): void {
  // one pass with a map: a scan per draft made a large input (tens of thousands of objects) quadratic
  const firstByName = new Map<unknown, number>();
  drafts.forEach((d, i) => {
    const key = keyOf(d);
    if (!firstByName.has(key)) firstByName.set(key, i);
    const first = firstByName.get(key)!;
    if (first < i) {
      d.ctx.fail(
        "CONVERT_DUPLICATE_NAME",
        ["metadata", "name"],
        d.props.name,
        `a name no other ${kind} of the input has${key !== d.props.name ? " in its namespace" : ""}: document ${drafts[first].source.document} (${drafts[first].source.kind}) also converts to ${kind} ${key}`,
      );
    }
  });
}

/** The namespace of a namespaced object that names none: the CapacityBuffer construct's default. */
const DEFAULT_NAMESPACE = "default";

/** `Cluster` or `Namespaced`: the scope of the kind's CRD in the target release, else in the first that ships it. */
function objectScope(kind: ObjectCrdKind, minor: string): string {
  return (objectCrd(minor, kind) ?? objectCrd(crdKindSince(kind)!, kind))!.api.scope;
}

function objectResult(d: ObjectDraft): ConvertedNodeOverlay | ConvertedCapacityBuffer {
  const props = parts().defined(d.props);
  const common = { name: d.props.name, apiVersion: d.apiVersion, source: d.source, notes: d.ctx.notes };
  if (d.kind === "nodeOverlay")
    return { kind: "NodeOverlay", ...common, props: props as unknown as ConvertedNodeOverlay["props"] };
  return {
    kind: "CapacityBuffer",
    ...common,
    namespace: d.props.namespace ?? DEFAULT_NAMESPACE,
    props: props as unknown as ConvertedCapacityBuffer["props"],
  };
}

function poolResult(d: PoolDraft): ConvertedNodePool {
  return {
    kind: "NodePool",
    name: d.props.name,
    props: parts().defined(d.props),
    ...(d.nodeClassRef ? { nodeClassRef: d.nodeClassRef } : {}),
    source: d.source,
    notes: d.ctx.notes,
  };
}

function classResult(d: ClassDraft): ConvertedEc2NodeClass {
  return {
    kind: "EC2NodeClass",
    name: d.props.name,
    props: parts().defined(d.props),
    source: d.source,
    notes: d.ctx.notes,
  };
}
