import type { Construct, IConstruct } from "constructs";
import type { ITerraformDependable, TerraformResource, TerraformStack } from "cdktf";
import { findUnwalkable } from "../core/deep-merge";
import { constructName } from "../core/construct-name";
import { KarpenterValidationError } from "../core/errors";
import { oversizedText, walkProps } from "../core/readable-props";
import type { IKarpenterCluster } from "../cluster/karpenter-cluster";
import type { IKarpenterInstallation } from "../cluster/karpenter-installation";
import { Checker, isSet, nameFromId } from "../kubernetes/value-rules";
import { ETCD_MAX_REQUEST_BYTES, jsonBytesAtLeast, mib } from "../kubernetes/object-size";
import type * as SynthChecks from "../core/synth-checks";
import { DEFAULT_KARPENTER_VERSION, KarpenterVersion, resolveKarpenterVersion } from "../versions/karpenter-version";
import type { Ec2NodeClassOptions } from "./ec2-node-class-spec";
import type { NodePoolOptions } from "./node-pool-spec";

/*
 * cdktf is required where it is used, not imported at the top: the manifest converter uses
 * specObject and must load without the cdktf peer dependency.
 */
function stackOf(c: IConstruct): TerraformStack {
  return (require("cdktf") as typeof import("cdktf")).TerraformStack.of(c);
}

/** The Kubernetes provider a node object names (`kubernetesProvider`), if any. */
function providerOf(c: IConstruct): IConstruct | undefined {
  return (c as { kubernetesProvider?: IConstruct }).kubernetesProvider;
}

/**
 * The `karpenter` prop of a node object, checked: unset (undefined or null) or an installation of this app (a
 * `Karpenter`, or a construct implementing IKarpenterInstallation: a cluster and a release). Anything else, `{}`, a
 * path written as a string, or another construct (an Ec2NodeClass, a NodePool, the cluster's EksCluster), is named
 * itself, rather than read as no installation and blamed on the selector terms or role it would have given, or
 * read as one and failing on the release it lacks.
 * @throws KarpenterValidationError naming `karpenter`: NODE_KARPENTER_NOT_AN_INSTALL, or NODE_OTHER_APP for an
 * installation of another cdktf App
 */
export function checkedInstallation(
  where: string,
  scope: IConstruct,
  karpenter: unknown,
): IKarpenterInstallation | undefined {
  if (karpenter === undefined || karpenter === null) return undefined;
  const k = karpenter as { node?: { path?: unknown; root?: unknown }; cluster?: unknown; release?: unknown };
  const isInstall =
    typeof karpenter === "object" &&
    !Array.isArray(karpenter) &&
    typeof k.node === "object" &&
    k.node !== null &&
    typeof k.node.path === "string" &&
    typeof k.cluster === "object" &&
    k.cluster !== null &&
    constructName(k.release) !== undefined;
  if (!isInstall) {
    const construct = constructName(karpenter);
    throw new KarpenterValidationError(
      "NODE_KARPENTER_NOT_AN_INSTALL",
      where,
      "karpenter",
      karpenter,
      construct
        ? "a Karpenter construct of this app (or another construct implementing IKarpenterInstallation), not another construct: pass the Karpenter construct the object belongs to, or leave karpenter unset to give cluster, version and role yourself"
        : "a Karpenter construct of this app (or another construct implementing IKarpenterInstallation), not its path or a plain object: the object reads its cluster, version, node role and release from it. Leave karpenter unset to give cluster, version and role yourself",
    );
  }
  checkSameApp(where, scope, karpenter as IConstruct, "karpenter");
  return karpenter as IKarpenterInstallation;
}

/**
 * The optional `cluster` prop of an Ec2NodeClass, checked before its name is read: unset, or an IKarpenterCluster
 * (`KarpenterCluster.fromEksCluster(...)`, `.fromClusterName(...)`). Another construct there (the Karpenter
 * install, the EksCluster itself, a NodePool) was a TypeError deep in the selector terms.
 * @throws KarpenterValidationError CLUSTER_REQUIRED naming `cluster`
 */
export function checkedCluster(where: string, cluster: unknown): IKarpenterCluster | undefined {
  if (cluster === undefined || cluster === null) return undefined;
  const c = cluster as { clusterName?: unknown; cluster?: unknown; release?: unknown };
  if (typeof cluster === "object" && !Array.isArray(cluster) && typeof c.clusterName === "string")
    return cluster as IKarpenterCluster;
  const hint =
    typeof c.cluster === "object" && c.cluster !== null && constructName(c.release) !== undefined
      ? ": this is an installation: pass it as karpenter (the class then takes its cluster), or its .cluster"
      : constructName(cluster)?.startsWith("the EksCluster ")
        ? ": wrap the EksCluster, KarpenterCluster.fromEksCluster(cluster)"
        : constructName(cluster) !== undefined
          ? ", not another construct"
          : "";
  throw new KarpenterValidationError(
    "CLUSTER_REQUIRED",
    where,
    "cluster",
    cluster,
    `unset, or an IKarpenterCluster from KarpenterCluster.fromEksCluster(...) or .fromClusterName(...)${hint}`,
  );
}

/**
 * A construct a node object refers to (its `karpenter`, a NodePool's `nodeClass`) is of the same cdktf App: one of
 * another App is synthesized apart, so no reference, dependency or provider check reaches it (two Apps with a stack
 * of the same name were even taken for one stack by the provider check).
 * @throws KarpenterValidationError NODE_OTHER_APP naming `field`
 */
export function checkSameApp(where: string, scope: IConstruct, target: IConstruct, field: string): void {
  if (target.node.root === scope.node.root) return;
  throw new KarpenterValidationError(
    "NODE_OTHER_APP",
    where,
    field,
    target.node.path,
    `a construct of this object's cdktf App: ${target.node.path} was created in another App, which synthesizes apart, so nothing here can refer to it. Create it in this App (new App() once, every stack in it)`,
  );
}

/** The path a construct `id` under `scope` will have (for errors thrown before it exists). */
export function constructPath(scope: IConstruct, id: string): string {
  return scope.node.path ? `${scope.node.path}/${id}` : id;
}

/**
 * The `metadata.name` of a node object: `given` when set, else derived from the construct `id`
 * ({@link nameFromId}: `"GPU Nodes"` → `"gpu-nodes"`). A given name is returned as it is, for the
 * object's rules to check.
 * @throws KarpenterValidationError on `name` when `given` is unset and the id has no letter or
 * digit to derive a name from (`"--"`)
 */
export function objectName(where: IConstruct | string, id: string, given: string | undefined): string {
  if (isSet(given)) return given;
  const name = nameFromId(id);
  if (name === "") {
    throw new KarpenterValidationError(
      "KUBERNETES_OBJECT_NAME",
      where,
      "name",
      name,
      `a non-empty DNS-1123 subdomain; a name derived from a construct id keeps only its letters, digits, '-' and '.', and the construct id here is "${id}": give \`name\``,
    );
  }
  return name;
}

/**
 * The Karpenter version a node object is checked against: that of the first set candidate, once
 * every set candidate is known to be a supported release and all name the same one ("v1.14.1"
 * and "1.14.1" agree). DEFAULT_KARPENTER_VERSION when none is set.
 * @param candidates `[field, version]`, most specific first, e.g. `[["version", props.version],
 * ["karpenter.version", karpenter?.version]]`; null counts as unset
 * @param why why they must agree, the end of the error message
 * @param app a construct of the app (for the allowUnverifiedVersion opt-in of its Karpenter)
 * @throws KarpenterValidationError on a candidate that is not a supported release (including a
 * non-string from a JavaScript caller), or on the first candidate when another differs from it
 */
export function agreedVersion(
  where: IConstruct | string,
  candidates: readonly (readonly [string, string | undefined])[],
  why: string,
  app?: IConstruct,
): KarpenterVersion {
  const given = candidates
    .filter(([, v]) => isSet(v))
    .map(([field, v]) => ({ field, text: v, version: resolveKarpenterVersion(where, v, field, app) }));
  if (given.length === 0) return resolveKarpenterVersion(where, DEFAULT_KARPENTER_VERSION);
  const [first, ...others] = given;
  const other = others.find((o) => o.version.full !== first.version.full);
  if (other)
    throw new KarpenterValidationError(
      "KARPENTER_VERSION_MISMATCH",
      where,
      first.field,
      first.text,
      `the same Karpenter version as ${other.field} (${other.text}): ${why}`,
    );
  return first.version;
}

/**
 * Orders what `scope` will create after `target`: returns `[target]` when both are in the same
 * stack (for `depends_on`), otherwise makes the scope's stack depend on the target's stack
 * (`cdktf deploy` / `destroy` then run the stacks in order) and returns nothing. Call
 * {@link checkOrderable} first: cdktf throws on a circular stack dependency.
 */
export function orderAfter(scope: IConstruct, target: TerraformResource): ITerraformDependable[] {
  const mine = stackOf(scope);
  const theirs = stackOf(target);
  if (mine === theirs) return [target];
  if (!mine.dependencies.includes(theirs)) mine.addDependency(theirs);
  return [];
}

/**
 * Checks that a construct created in `scope` can be ordered after `target` ({@link orderAfter}).
 * @param where the construct's path, for the error
 * @param field the prop that brought `target` in (`nodeClass`, `karpenter`)
 * @throws KarpenterValidationError naming `field` when the target's stack already depends on the
 * scope's (directly or through others): the stack dependency would be circular, which cdktf refuses
 * with an error that names neither construct nor prop
 */
export function checkOrderable(where: string, scope: IConstruct, target: TerraformResource, field: string): void {
  const mine = stackOf(scope);
  const theirs = stackOf(target);
  if (mine === theirs) return;
  const chain = dependencyChain(theirs, mine);
  if (!chain) return;
  const owner = target.node.scope ?? target;
  throw new KarpenterValidationError(
    "STACK_DEPENDENCY_CYCLE",
    where,
    field,
    owner.node.path,
    `an object of this stack (${mine.node.id}) or of a stack that does not depend on it: ${owner.node.path} is in stack ${theirs.node.id}, which depends on this one (${chain.map((s) => s.node.id).join(" → ")}), and ordering this object after it would make ${mine.node.id} depend on ${theirs.node.id} too, a circular dependency cdktf cannot deploy. Create this object in stack ${theirs.node.id} instead (e.g. new NodePool(<that stack>, id, { nodeClass, karpenter }) rather than karpenter.addNodePool), or move the other into this stack`,
  );
}

/** The stacks from `from` to `to` along stack dependencies (`[from, …, to]`), or undefined when `from` does not depend on `to`. */
function dependencyChain(
  from: TerraformStack,
  to: TerraformStack,
  seen = new Set<TerraformStack>(),
): TerraformStack[] | undefined {
  if (from === to) return [to];
  if (seen.has(from)) return undefined;
  seen.add(from);
  for (const next of from.dependencies) {
    const rest = dependencyChain(next, to, seen);
    if (rest) return [from, ...rest];
  }
  return undefined;
}

/**
 * Warns about a manifest etcd may refuse: more than the 1.5 MiB of JSON etcd stores in one request at its default (EKS
 * does not publish its own setting, hence a warning). A manifest over the API server's 3 MiB was refused already, on
 * the props (kubernetes/value-rules.ts checkCrdThenSemantics: NODE_MANIFEST_TOO_LARGE).
 */
export function warnManifestSize(scope: IConstruct, kind: string, name: string, manifest: object): void {
  const bytes = jsonBytesAtLeast(manifest, ETCD_MAX_REQUEST_BYTES);
  if (bytes > ETCD_MAX_REQUEST_BYTES)
    (require("cdktf") as typeof import("cdktf")).Annotations.of(scope).addWarning(
      `${kind} ${name}: its manifest takes more than ${mib(ETCD_MAX_REQUEST_BYTES)} of JSON, the most etcd stores in one request by default ("etcdserver: request is too large"); EKS does not publish its own limit. Split it into several ${kind}s, or shorten its longest lists and strings`,
    );
}

/**
 * The `spec` object of a manifest: unset (undefined or null) fields dropped, and the keys of every
 * plain object sorted, so the same props always give byte-identical JSON whatever order they were
 * written in. Arrays keep their order (it is meaningful); tokens and other non-plain objects
 * are kept as they are.
 */
export function specObject<T extends object>(spec: T): { [key: string]: unknown } {
  return clean(spec) as { [key: string]: unknown };
}

/**
 * The `spec` object of a NodePool manifest ({@link specObject}): the props in the CRD's places (labels and annotations
 * in the template's metadata, the rest in the template's spec or the spec), with the requirements and disruption the
 * construct settled (the default capacity-type requirement, consolidateAfter "0s") and the node class reference.
 */
export function nodePoolSpecObject(
  options: Omit<NodePoolOptions, "requirements" | "disruption">,
  nodeClassRef: unknown,
  requirements: unknown,
  disruption: unknown,
): { [key: string]: unknown } {
  return specObject({
    disruption,
    limits: options.limits,
    replicas: options.replicas,
    template: {
      metadata:
        options.labels || options.annotations
          ? { annotations: options.annotations, labels: options.labels }
          : undefined,
      spec: {
        expireAfter: options.expireAfter,
        nodeClassRef,
        requirements,
        startupTaints: options.startupTaints,
        taints: options.taints,
        terminationGracePeriod: options.terminationGracePeriod,
      },
    },
    weight: options.weight,
  });
}

/**
 * The `spec` object of an EC2NodeClass manifest: {@link specObject} of the options, with the kubelet's
 * `maxPodsExpression` (a prop of this library, not a manifest field) written to the manifest's
 * `kubelet.maxPods`, where Karpenter reads an expression. A kubelet with both keeps `maxPods` (the
 * constructs refuse that case before emitting). A kubelet that is a token is kept as it is.
 */
export function nodeClassSpecObject(spec: Ec2NodeClassOptions): { [key: string]: unknown } {
  const k = spec.kubelet;
  if (
    k === null ||
    typeof k !== "object" ||
    Object.getPrototypeOf(k) !== Object.prototype ||
    !isSet(k.maxPodsExpression)
  )
    return specObject(spec);
  const { maxPodsExpression, ...kubelet } = k;
  return specObject({
    ...spec,
    kubelet: { ...kubelet, maxPods: isSet(kubelet.maxPods) ? kubelet.maxPods : maxPodsExpression },
  });
}

function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: { [key: string]: unknown } = {};
    for (const key of Object.keys(value).sort()) {
      const x = (value as { [key: string]: unknown })[key];
      if (x !== undefined && x !== null) out[key] = clean(x);
    }
    return out;
  }
  return value;
}

/** What tells which cluster a node object is applied to, as far as synth can know. */
export interface ClusterHint {
  /** The installation the object belongs to. */
  readonly karpenter?: IKarpenterInstallation;
  /** The cluster the object names without an installation (an Ec2NodeClass's `cluster`). */
  readonly cluster?: IKarpenterCluster;
}

interface NamedObject extends ClusterHint {
  readonly construct: Construct;
  readonly kind: string;
  readonly name: string;
}

/** Node objects of each app (by root construct), in the order they were created. */
const registry = new WeakMap<IConstruct, NamedObject[]>();

/**
 * Registers a cluster-scoped object's `metadata.name` and adds a synth-time check that no object
 * of the same kind created before it has that name on the same cluster: Kubernetes keeps one
 * object per kind and name, so the second `kubernetes_manifest` would fight the first at apply.
 * Names that are tokens are not compared.
 */
export function registerUniqueName(construct: Construct, kind: string, name: string, hint: ClusterHint): void {
  const root = construct.node.root;
  const all = registry.get(root) ?? [];
  registry.set(root, all);
  const self: NamedObject = { construct, kind, name, ...hint };
  all.push(self);
  // loaded on use: this module is also read where cdktf is not installed (see k8s-rules)
  const { addSynthCheck } = require("../core/synth-checks") as typeof SynthChecks;
  addSynthCheck(construct, () => {
    if (typeof name !== "string" || (require("cdktf") as typeof import("cdktf")).Token.isUnresolved(name)) return [];
    const group = byKindAndName(all).get(`${kind}\u0000${name}`) ?? [];
    const earlier = group.slice(0, group.indexOf(self));
    const clash = earlier.map((o) => [o, sameCluster(self, o)] as const).find(([, why]) => why !== undefined);
    if (!clash) return [];
    const [other, why] = clash;
    return [
      new KarpenterValidationError(
        "KUBERNETES_DUPLICATE_NAME",
        construct,
        "name",
        name,
        `a name no other ${kind} on the same cluster has: ${other.construct.node.path} is ${kind} "${name}" too (${why}); Kubernetes keeps one ${kind} per name, so the two manifests would overwrite each other at apply. Give one of them another \`name\``,
      ),
    ];
  });
}

const groups = new WeakMap<NamedObject[], { size: number; byKey: Map<string, NamedObject[]> }>();

/** The objects of one app grouped by kind and name (in creation order), rebuilt when objects were added. */
function byKindAndName(all: NamedObject[]): Map<string, NamedObject[]> {
  const cached = groups.get(all);
  if (cached && cached.size === all.length) return cached.byKey;
  const byKey = new Map<string, NamedObject[]>();
  for (const o of all) {
    const key = `${o.kind}\u0000${o.name}`;
    byKey.set(key, [...(byKey.get(key) ?? []), o]);
  }
  groups.set(all, { size: all.length, byKey });
  return byKey;
}

/** The node objects (EC2NodeClasses, NodePools) of the app of `scope`, in creation order. */
export function registeredNodeObjects(scope: IConstruct): readonly Construct[] {
  return (registry.get(scope.node.root) ?? []).map((o) => o.construct);
}

/** Why two objects land on the same cluster, or undefined when they (probably) do not. */
function sameCluster(a: NamedObject, b: NamedObject): string | undefined {
  if (a.karpenter && a.karpenter === b.karpenter)
    return `both belong to the Karpenter installation ${a.karpenter.node.path}`;
  // the Kubernetes provider says where a manifest goes: one provider is one cluster, two of one stack are two
  const [pa, pb] = [providerOf(a.construct), providerOf(b.construct)];
  if (pa && pa === pb) return `both use the Kubernetes provider ${pa.node.path}`;
  if ((pa || pb) && pa !== pb && stackOf(a.construct) === stackOf(b.construct)) return undefined;
  const ca = a.karpenter?.cluster ?? a.cluster;
  const cb = b.karpenter?.cluster ?? b.cluster;
  if (ca && cb) {
    if (ca === cb || ca.resource === cb.resource) return "both are for the same cluster";
    // two installations with equal literal names may well be two regions or accounts
    const literal = ca.clusterNameLiteral;
    if (!(a.karpenter && b.karpenter) && literal !== undefined && literal === cb.clusterNameLiteral)
      return `both are for a cluster named "${literal}"`;
    return undefined;
  }
  // an object that names no cluster goes wherever its stack's Kubernetes provider points
  return stackOf(a.construct) === stackOf(b.construct)
    ? "same stack, and at least one of them names no cluster or installation"
    : undefined;
}

/**
 * `dependsOn` is a list of Terraform elements (ITerraformDependable: a resource, data source or module, each
 * with an `fqn`): anything else crashed the constructor (`{}` is not iterable) or reached Terraform as a
 * `depends_on` entry it refuses. Recorded on the collecting checker `c`, beside the spec's problems.
 */
export function checkDependsOn(c: Checker, dependsOn: unknown): void {
  if (dependsOn === undefined || dependsOn === null) return;
  const dependable = (d: unknown) =>
    d !== null && typeof d === "object" && typeof (d as { fqn?: unknown }).fqn === "string";
  if (Array.isArray(dependsOn) && dependsOn.every(dependable)) return;
  c.fail(
    "NODE_DEPENDS_ON",
    "dependsOn",
    Array.isArray(dependsOn) ? dependsOn.map((d) => (dependable(d) ? "<dependable>" : d)) : dependsOn,
    "a list of Terraform resources, data sources or modules of the app (ITerraformDependable: e.g. [myResource]): Terraform's depends_on takes references to them only" +
      // a node object is a construct, not a resource: its manifest is
      (Array.isArray(dependsOn) &&
      dependsOn.some((d) => !dependable(d) && typeof (d as { manifest?: unknown })?.manifest === "object")
        ? "; for a node object (a NodePool, Ec2NodeClass, NodeOverlay, CapacityBuffer) give its .manifest"
        : ""),
  );
}

/** How many maps and lists one prop of a node object may nest: the deepest field of their CRDs nests 4. */
const MAX_PROP_DEPTH = 16;

/** The props that hold constructs (or references the construct reads), never walked as values. */
export const CONSTRUCT_VALUED_PROPS = ["karpenter", "cluster", "nodeClass", "dependsOn", "kubernetesProvider"];

/** The path of a map entry in a props value: `ebs.volumeSize` for a name, `labels["team/a"]` for any other key. */
const propPath = (path: string, key: string) =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/**
 * Refuses props of a node object (NodePool, EC2NodeClass, NodeOverlay, CapacityBuffer) that cannot be read (every
 * place that throws when read, all at once: core/readable-props.ts walkProps), or that hold a map or list
 * inside itself or nested deeper than any field of their CRDs: every check and the manifest's JSON walk the props
 * recursively, and would overflow the stack (a RangeError instead of this error). Run first, before any check;
 * the construct-valued props (`karpenter`, `nodeClass`, `dependsOn`, …) and tokens are not walked.
 * @throws KarpenterValidationError NODE_VALUE_TOO_LARGE (alone) for more values than any object can carry
 *   (core/readable-props.ts MAX_PROP_VALUES); NODE_VALUE_UNREADABLE naming each unreadable place, else (alone) the path that
 *   leads back, or the first too deep
 */
export function checkPropsWalkable(where: string, props: object, known: readonly string[] = []): void {
  const unreadable = (field: string, reason: string) =>
    new KarpenterValidationError(
      "NODE_VALUE_UNREADABLE",
      where,
      field,
      "(a value that cannot be read)",
      `a value the library can read: reading ${field} threw "${reason}" (a revoked Proxy, or an object whose properties or keys throw), so no manifest can be written from it`,
    );
  const thrown = (e: unknown) => (e instanceof Error ? e.message : String(e));
  const places: { readonly path: string; readonly reason: string }[] = [];
  // the props object's own getters (or a Proxy it inherits from: Object.create(proxy), which the core walk does not
  // enter, not being a plain object) run here first, so a throw is this error, not the caller's own Error escaping
  // from the constructor's first read of a prop
  let names: string[] = [];
  try {
    names = Object.keys(props);
  } catch (e) {
    places.push({ path: "props", reason: thrown(e) });
  }
  const entries: [string, unknown][] = [];
  for (const k of [...names, ...known.filter((n) => !names.includes(n))]) {
    try {
      entries.push([k, (props as Record<string, unknown>)[k]]);
    } catch (e) {
      places.push({ path: k, reason: thrown(e) });
    }
  }
  // every unreadable place inside the data props at once (the construct-valued ones are the constructs' own), as a
  // plain object of the values read so that the core walk names them from the prop down (`labels.team`)
  const data: Record<string, unknown> = {};
  for (const [k, v] of entries)
    if (!CONSTRUCT_VALUED_PROPS.includes(k))
      Object.defineProperty(data, k, { value: v, enumerable: true, writable: true, configurable: true });
  // one walk finds the unreadable places and the own "__proto__" keys (reported after the cycles and depth below)
  const walked = walkProps(data);
  if (walked.oversized)
    throw new KarpenterValidationError(
      "NODE_VALUE_TOO_LARGE",
      where,
      walked.oversized.path,
      `(${walked.oversized.oneList ? `a list of ${walked.oversized.size} items` : `${walked.oversized.size} values`})`,
      oversizedText(walked.oversized),
    );
  places.push(...walked.unreadable);
  if (places.length > 0) {
    const errors = places.map((p) => unreadable(p.path, p.reason));
    throw KarpenterValidationError.combine(
      errors,
      errors.length > 1 ? `${errors.length} unreadable values in the props of ${where}` : undefined,
    );
  }
  for (const [k, v] of entries) {
    if (CONSTRUCT_VALUED_PROPS.includes(k)) continue;
    // a construct where data belongs (a NodePool as scalableRef, a NodeOverlay as kubelet) is named once as what
    // it is, not each of its properties as an unknown field
    if (constructName(v) !== undefined)
      throw new KarpenterValidationError(
        "NODE_VALUE_CONSTRUCT",
        where,
        k,
        v,
        `data (a plain object, list, string, number or boolean) as the object's spec takes it, not a construct: the manifest is JSON written from this value`,
      );
    const found = findUnwalkable(v, k, MAX_PROP_DEPTH, propPath);
    if (found?.kind === "cycle")
      throw new KarpenterValidationError(
        "NODE_VALUE_CYCLE",
        where,
        found.path,
        "(a reference back)",
        `a value, not a reference to an object that contains it: ${found.path} is the object ${found.target} itself, so the value has no end (the manifest is JSON, written out in full). Copy the object instead of referring back to it`,
      );
    if (found?.kind === "unreadable") throw unreadable(found.path, found.reason);
    if (found?.kind === "deep")
      throw new KarpenterValidationError(
        "NODE_VALUE_TOO_DEEP",
        where,
        found.path,
        "(nested deeper)",
        `at most ${MAX_PROP_DEPTH} maps and lists inside one another in a prop: no field of a Karpenter object nests more than 4, and ${found.path} is deeper (a string, number or boolean belongs at the field)`,
      );
  }
  // an own "__proto__" key (JSON.parse makes one) is lost on the way to the Terraform JSON: token resolution copies maps
  // by assignment, where "__proto__" sets the copy's prototype instead of a key (fresh tester 31 H01, H22: selector
  // tags { __proto__: "x" } were written as {}, a term that names nothing)
  const protoKeys = walked.protoKeys;
  if (protoKeys.length > 0) {
    const errors = protoKeys.map(
      (path) =>
        new KarpenterValidationError(
          "NODE_VALUE_PROTO_KEY",
          where,
          path,
          "(a key named __proto__)",
          `a key other than "__proto__": the manifest is written through JavaScript objects, where "__proto__" sets an object's prototype instead of adding a key, so this entry would be dropped from the Terraform JSON without a word (selector tags { "__proto__": "x" } would be written as {}, a term that names nothing). Rename the key (a map read with JSON.parse keeps "__proto__" as a key of its own)`,
        ),
    );
    throw KarpenterValidationError.combine(
      errors,
      errors.length > 1 ? `${errors.length} __proto__ keys in the props of ${where}` : undefined,
    );
  }
}
