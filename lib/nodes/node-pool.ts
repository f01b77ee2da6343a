import { Construct } from "constructs";
import { instanceTypeCatalogueWarnings } from "./instance-type-rules";
import { settledProps } from "../core/readable-props";
import { Annotations, ITerraformDependable, TerraformStack } from "cdktf";
import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";
import type { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { checkProvider, chooseProvider, providerName } from "../core/provider-choice";
import { Ec2NodeClass } from "./ec2-node-class";
import { IKarpenterInstallation } from "../cluster/karpenter-installation";
import { INodeClassRef, NodeClassReference, NodePoolOptions, NodeSelectorRequirement } from "./node-pool-spec";
import { constructName } from "../core/construct-name";
import { KarpenterValidationError } from "../core/errors";
import {
  CAPACITY_TYPE,
  checkNodePool,
  limitsWarnings,
  NODE_CLASS_REF_FIELDS,
  NODE_POOL_PROP_PATHS,
  NodeClassRefValue,
} from "./node-pool-rules";
import { nodeFamily } from "./ec2-node-class-rules";
import { stableLabelKey } from "./runtime-label-rules";
import { Checker, checkCrdThenSemantics, isSet } from "../kubernetes/value-rules";
import {
  checkNodePoolSemantics,
  checkReservations,
  requirementValueWarnings,
  WINDOWS_BUILD_KEY,
  WINDOWS_BUILDS,
} from "./node-semantic-rules";
import { nodeContextOf } from "./node-context";
import {
  checkedInstallation,
  checkSameApp,
  agreedVersion,
  checkDependsOn,
  checkOrderable,
  constructPath,
  objectName,
  orderAfter,
  registerUniqueName,
  checkPropsWalkable,
  nodePoolSpecObject,
  warnManifestSize,
  CONSTRUCT_VALUED_PROPS,
} from "./manifests";
import { addSynthCheck } from "../core/synth-checks";
import { createsSpotServiceLinkedRoleFor } from "../aws-api/account-names";
import { clusterElement } from "../cluster/cluster-resource";

/** The requirement added when neither the requirements nor the labels name `karpenter.sh/capacity-type`. */
export const DEFAULT_CAPACITY_TYPE_REQUIREMENT: NodeSelectorRequirement = {
  key: CAPACITY_TYPE,
  operator: "In",
  values: ["on-demand"],
};

/**
 * Props of {@link Karpenter.addNodePool}: the NodePool spec ({@link NodePoolOptions}, with
 * `spec.template` flattened) plus its node class and where its version and ordering come from —
 * every prop of {@link NodePoolProps} but `karpenter` (the install it is added to).
 */
export interface AddNodePoolProps extends NodePoolOptions {
  /**
   * The node class the pool launches with (`spec.template.spec.nodeClassRef`): an
   * {@link Ec2NodeClass} of this app — the pool is then ordered after it (same stack:
   * `depends_on`; another stack: a stack dependency), so destroy deletes the pool before the
   * class — or a plain reference `{ name }` to an EC2NodeClass managed elsewhere, in which case
   * ordering is yours (`dependsOn`, stack dependencies). An Ec2NodeClass of another
   * installation (or of a cluster known to differ) is an error: its EC2NodeClass exists on the
   * other cluster only. In Python, Java, .NET and Go: the Ec2NodeClass itself (or
   * `NodeClassRef.of(nodeClass)`), or `NodeClassRef.named("default")`; in TypeScript also a plain
   * `{ name, group?, kind? }`.
   */
  readonly nodeClass: INodeClassRef;
  /**
   * The Karpenter version the spec is checked against, e.g. `"1.14.1"`; must agree with
   * `karpenter` and with an Ec2NodeClass `nodeClass`.
   * @default `karpenter.version`, else the node class's version, else DEFAULT_KARPENTER_VERSION ("1.15.3")
   */
  readonly version?: string;
  /**
   * The Kubernetes provider connected to the cluster the object is for.
   * @default the Kubernetes provider of `nodeClass` when that is an Ec2NodeClass of the same stack, else the stack's default Kubernetes provider, when it is the stack's only Kubernetes
   * provider and the stack's node objects relying on it are all for one install (or cluster); synth
   * fails naming this prop otherwise. With an Ec2NodeClass of the same stack it must be the class's
   * provider (an error at construction otherwise: the pool would be on another cluster than its class).
   */
  readonly kubernetesProvider?: KubernetesProvider;
  /**
   * Extra resources of the same stack the manifest waits for (e.g. an EC2NodeClass applied by
   * other means).
   * @default none
   */
  readonly dependsOn?: ITerraformDependable[];
}

/** Options of {@link NodeClassRef.named}: the group and kind, which only `karpenter.k8s.aws` `EC2NodeClass` may be. */
export interface NodeClassRefOptions {
  /**
   * The API group of the node class; any other than `karpenter.k8s.aws` is an error at the NodePool.
   * @default "karpenter.k8s.aws"
   */
  readonly group?: string;
  /**
   * The kind of the node class; any other than `EC2NodeClass` is an error at the NodePool.
   * @default "EC2NodeClass"
   */
  readonly kind?: string;
}

/**
 * The node class of a NodePool ({@link NodePoolProps.nodeClass}), for every language: an
 * {@link Ec2NodeClass} of this app (`NodeClassRef.of(nodeClass)`, the class itself), or an
 * EC2NodeClass managed elsewhere by its name (`NodeClassRef.named("default")`; ordering against it is
 * then the user's job). TypeScript may also pass the Ec2NodeClass or a plain `{ name }` directly.
 */
export class NodeClassRef implements INodeClassRef {
  /**
   * An Ec2NodeClass of this app: the pool is ordered after it and takes its version, installation and Kubernetes provider.
   * @param nodeClass the Ec2NodeClass
   */
  public static of(nodeClass: Ec2NodeClass): INodeClassRef {
    return nodeClass;
  }

  /**
   * An EC2NodeClass this app does not create (applied with kubectl, another stack's tooling), by its
   * `metadata.name`. The name, group and kind are checked by the NodePool, with its other props.
   * @param name the node class's `metadata.name` (a DNS-1123 subdomain)
   * @param options the group and kind (only `karpenter.k8s.aws` `EC2NodeClass`)
   */
  public static named(name: string, options: NodeClassRefOptions = {}): INodeClassRef {
    return new NodeClassRef(name, options);
  }

  /** The node class's `metadata.name`. */
  public readonly name: string;
  /** The API group, when given. */
  public readonly group?: string;
  /** The kind, when given. */
  public readonly kind?: string;

  private constructor(name: string, options: NodeClassRefOptions) {
    this.name = name;
    this.group = options.group;
    this.kind = options.kind;
  }
}

/**
 * Props of {@link NodePool}: the NodePool spec ({@link NodePoolOptions}, with `spec.template`
 * flattened), its node class and where its version and ordering come from ({@link AddNodePoolProps}),
 * and the install it belongs to.
 */
export interface NodePoolProps extends AddNodePoolProps {
  /**
   * The Karpenter installation: its version checks the spec, its spot service-linked role
   * setting decides the spot warning, and the manifest is ordered after its controller release.
   * @default the node class's `karpenter` (when `nodeClass` is an Ec2NodeClass), else none
   */
  readonly karpenter?: IKarpenterInstallation;
}

/**
 * A Karpenter `karpenter.sh/v1` NodePool, emitted as a `kubernetes_manifest`: which nodes
 * Karpenter may launch for pending pods (requirements, labels, taints, limits) and how it
 * disrupts them (expiry, consolidation, budgets).
 *
 * The pool always states `karpenter.sh/capacity-type`: without it Karpenter may pick spot, and
 * accounts without the EC2 Spot service-linked role then fail to launch with
 * `ServiceLinkedRoleCreationNotPermitted` (karpenter.sh troubleshooting guide, "Missing Service
 * Linked Role", as in its v0.37 and v1.1 pages). Unless a requirement or a template label names the
 * key, `In ["on-demand"]` is added. When a token hides whether one names it (a token
 * `requirements` list or `labels` map, a token requirement or key), nothing is added — it could
 * contradict the hidden requirement — and synth warns. A pool that allows spot while the
 * installation does not create that role gets a synth warning.
 *
 * Two NodePools of one app with the same `metadata.name` on the same cluster fail synth
 * (a synth-time check, see `validateApp`), naming both construct paths.
 *
 * Every CRD rule that needs no cluster state is checked in the constructor, and every problem of
 * the pool comes in one {@link KarpenterValidationError} (each in its `problems`), naming the
 * construct path, the field (e.g. `disruption.budgets[1].schedule`; a map entry as
 * `labels["team"]`), the value and what is allowed. Each field is reported once; a check that reads
 * a field another check rejected is skipped. Token values are left to the API server.
 *
 * Beyond the CRD (lib/nodes/node-semantic-rules.ts): the name has at most 63 characters (it is the
 * `karpenter.sh/nodepool` label value of every node), values of well-known labels in requirements
 * and labels are ones instances carry (`kubernetes.io/arch` amd64/arm64, lower-case instance families,
 * numeric instance-* labels, zones of the cluster's literal region), requirements and labels on one
 * key leave some value (Karpenter ANDs them), and a `nodeClass` reference names `karpenter.k8s.aws`
 * `EC2NodeClass` (Karpenter ignores a NodePool whose nodeClassRef names a group and kind its cloud
 * provider does not offer: kubernetes-sigs/karpenter `IsManaged`), and template label and requirement
 * keys pass Karpenter's runtime validation of the release (lib/nodes/runtime-label-rules.ts,
 * kubernetes-sigs/karpenter `IsRestrictedLabel`: before 1.9 no deprecated `beta.kubernetes.io` key as a
 * template label; never `karpenter.k8s.aws/ec2nodeclass`). A `limits` key that names no resource a node
 * has (`cpus`), or looks like an extended resource of Karpenter's AWS instance types without being one
 * (`nvidia.com/gpus`, `nvidia/gpu`), gets a synth warning, with a "did you mean".
 * So do a requirement value no instance carries beside values that are (`karpenter.sh/capacity-type In
 * ["on-demand", "ondemand"]`: Karpenter drops it and goes on, kubernetes-sigs/karpenter `validateWellKnownValues`), and
 * `kubernetes.io/os`, `kubernetes.io/arch` or `node.kubernetes.io/windows-build` requirements or labels the class's AMI
 * family gives no node (a Windows build on AL2023, Windows on a Custom family: Karpenter labels its nodes linux).
 *
 * Upstream: NodePool CRD (aws/karpenter-provider-aws pkg/apis/crds, v1.0–v1.14).
 */
export class NodePool extends Construct {
  /** The requirement added when neither the requirements nor the labels name `karpenter.sh/capacity-type` (`In ["on-demand"]`); {@link DEFAULT_CAPACITY_TYPE_REQUIREMENT} in TypeScript. */
  public static readonly DEFAULT_CAPACITY_TYPE_REQUIREMENT: NodeSelectorRequirement = DEFAULT_CAPACITY_TYPE_REQUIREMENT;
  /** `apiVersion` of the emitted object. */
  public static readonly API_VERSION = "karpenter.sh/v1";
  /** `kind` of the emitted object. */
  public static readonly KIND = "NodePool";

  /** `metadata.name` of the NodePool. */
  public readonly name: string;
  /** The Karpenter version the spec was checked against, e.g. `"1.14.1"`. */
  public readonly version: string;
  /** The emitted `nodeClassRef`: its name, with `group` and `kind` always filled in. */
  public readonly nodeClassRef: NodeClassReference;
  /** The requirements as emitted (the user's, plus the capacity-type default when added). */
  public readonly requirements: NodeSelectorRequirement[];
  /** True when the pool may launch spot capacity (false when unknown because of tokens). */
  public readonly allowsSpot: boolean;
  /** The `kubernetes_manifest` resource. */
  public readonly manifest: Manifest;
  /** The Kubernetes provider of the manifest; undefined: the stack's default. */
  public readonly kubernetesProvider?: KubernetesProvider;
  /**
   * The Karpenter installation the pool belongs to: `karpenter` from the props, else the
   * installation of its `nodeClass` (when that is an Ec2NodeClass with one). Undefined in
   * building-block mode (no installation given either way). Its `version` is the pool's version.
   */
  public readonly karpenter?: IKarpenterInstallation;

  /**
   * @throws KarpenterValidationError for missing props or `nodeClass`, a value any NodePool CRD
   * rule (or Karpenter's runtime validation: duplicate taints) rejects, a taint value no Node can carry (over 63
   * characters or with a '/': NODEPOOL_TAINT_VALUE), a `topology.k8s.aws/zone-id` of another region than the
   * cluster's literal one (NODE_ZONE_ID), a well-known label value no instance carries (instance-tenancy
   * other than default / dedicated among them: NODE_REQUIREMENT_VALUE_UNKNOWN), a duration longer than
   * Go's time.Duration, a number in `limits` (they are strings: `"100"`), a field or value newer than the targeted Karpenter version, a `version`
   * that is not a supported release, versions that disagree, an Ec2NodeClass of another installation, a `nodeClass` (or `karpenter`) in a stack that depends on this one (ordering the pool after it would make the stack dependency circular), or a `kubernetesProvider` other than its Ec2NodeClass's in the same stack; at synth, for a duplicate name.
   * The spec's problems come together in one error (`problems`), a missing `nodeClass`, one that is no
   * object or another construct than an Ec2NodeClass (NODEPOOL_NODE_CLASS_NOT_A_CLASS) among them; props holding a value inside itself or nested more than 16 maps and lists deep (NODE_VALUE_CYCLE / NODE_VALUE_TOO_DEEP), and a `version` or provider that is not usable are thrown alone, before the spec is checked.
   */
  constructor(scope: Construct, id: string, props: NodePoolProps) {
    // everything is checked before the construct joins the tree: nothing half-built
    const where = constructPath(scope, id);
    const REQUIRED = "an Ec2NodeClass of this app or a reference { name } to one managed elsewhere (required)";
    if (props === undefined || props === null)
      throw new KarpenterValidationError(
        "NODEPOOL_NODE_CLASS_REQUIRED",
        where,
        "nodeClass",
        undefined,
        `${REQUIRED}: NodePool props are { nodeClass, … }`,
      );
    if (typeof props !== "object" || Array.isArray(props))
      throw new KarpenterValidationError(
        "NODEPOOL_NOT_AN_OBJECT",
        where,
        "props",
        props,
        "NodePool props: an object { nodeClass, requirements, … }",
      );
    // a value inside itself (or nested thousands deep) would overflow every recursive check below
    checkPropsWalkable(where, props, [...SPEC_PROPS, ...CONSTRUCT_PROPS]);
    // read once: what is checked is what is written
    props = settledProps(props, [...SPEC_PROPS, ...CONSTRUCT_PROPS]);
    const nodeClass = props.nodeClass;
    const ownClass = nodeClass instanceof Ec2NodeClass ? nodeClass : undefined;
    if (ownClass) checkSameApp(where, scope, ownClass, "nodeClass");
    const given = checkedInstallation(where, scope, props.karpenter);
    const karpenter = given ?? ownClass?.karpenter;
    checkSameInstallation(where, given, ownClass);
    // the ordering orderAfter adds below must not close a circle of stack dependencies
    if (ownClass) checkOrderable(where, scope, ownClass.manifest, "nodeClass");
    if (karpenter && !ownClass?.karpenter) checkOrderable(where, scope, karpenter.release, "karpenter");
    const version = agreedVersion(
      where,
      [
        ["version", props.version],
        ["karpenter.version", karpenter?.version],
        ["nodeClass.version", ownClass?.version],
      ],
      "the NodePool, its EC2NodeClass and the installation must target one version",
      scope,
    );
    // every independent check runs: all problems of the pool come in one error
    const c = new Checker("NODEPOOL", where, version, { collect: true });
    const { nodeClass: _nc, karpenter: _k, version: _v, dependsOn: _d, kubernetesProvider: _kp, ...options } = props;
    if (props.kubernetesProvider)
      checkProvider(scope, where, "kubernetes", "kubernetesProvider", props.kubernetesProvider);
    c.guard(() => c.fields("", options, [...SPEC_PROPS, ...CONSTRUCT_PROPS], "NodePoolProps"));
    c.guard(() => checkDependsOn(c, props.dependsOn));
    if (props.kubernetesProvider && ownClass && TerraformStack.of(ownClass) === TerraformStack.of(scope)) {
      // one stack: another provider than the class's (or an aliased one beside a class on the default) reaches another cluster
      const theirs = ownClass.kubernetesProvider;
      if (theirs ? theirs !== props.kubernetesProvider : props.kubernetesProvider.alias !== undefined) {
        const on = theirs ? `${theirs.node.path} (${providerName(theirs)})` : "the stack's default kubernetes provider";
        throw new KarpenterValidationError(
          "NODEPOOL_PROVIDER_MISMATCH",
          where,
          "kubernetesProvider",
          props.kubernetesProvider.node.path,
          `the Kubernetes provider of its EC2NodeClass's cluster: ${ownClass.node.path} is on ${on}, and a NodePool on another provider would refer to an EC2NodeClass its cluster does not have; leave kubernetesProvider unset to take the class's`,
        );
      }
    }
    const classUnusable = checkNodeClassGiven(c, nodeClass, ownClass, REQUIRED);
    if (!ownClass && !classUnusable)
      c.guard(() => c.fields("nodeClass", nodeClass, NODE_CLASS_REF_FIELDS, "a node class reference"));
    const ref: NodeClassRefValue = ownClass
      ? { group: Ec2NodeClass.GROUP, kind: Ec2NodeClass.KIND, name: ownClass.name }
      : classUnusable
        ? // its problem is recorded, so the pool is never built: the spec is still checked against a valid reference
          { group: Ec2NodeClass.GROUP, kind: Ec2NodeClass.KIND, name: "unset" }
        : {
            group: (nodeClass as NodeClassReference).group ?? Ec2NodeClass.GROUP,
            kind: (nodeClass as NodeClassReference).kind ?? Ec2NodeClass.KIND,
            name: (nodeClass as NodeClassReference).name,
          };
    const name = objectName(where, id, options.name);
    // requirements that are no list are reported once, by withCapacityType, and not checked further
    let capacity: { requirements: NodeSelectorRequirement[]; unknown?: string } | undefined;
    c.guard(() => {
      capacity = withCapacityType(c, options);
    });
    const requirements = capacity?.requirements ?? [];
    const disruption =
      options.disruption && !c.token(options.disruption) && !isSet(options.disruption.consolidateAfter)
        ? { ...options.disruption, consolidateAfter: "0s" }
        : options.disruption;
    const checked = { ...options, requirements: capacity ? requirements : undefined };
    checkCrdThenSemantics(
      c,
      () => checkNodePool(c, version, checked, name, ref),
      (s) => {
        checkNodePoolSemantics(s, name, checked, nodeContextOf(karpenter?.cluster ?? ownClass?.cluster));
        if (capacity)
          s.guard(() =>
            checkReservations(
              s,
              requirements,
              literalLabels(s, options.labels),
              requirements[requirements.length - 1] === DEFAULT_CAPACITY_TYPE_REQUIREMENT,
              ownClass && { name: ownClass.name, path: ownClass.node.path, spec: ownClass.spec },
            ),
          );
      },
      props,
      CONSTRUCT_VALUED_PROPS,
    );

    super(scope, id);
    this.name = name;
    this.version = version.full;
    this.nodeClassRef = ref;
    this.karpenter = karpenter;
    this.requirements = c.token(requirements) ? [] : requirements;
    const unknownCapacity = capacity?.unknown;
    const spot = unknownCapacity ? undefined : spotAllowed(c, requirements, options.labels);
    this.allowsSpot = spot === true;
    if (unknownCapacity) Annotations.of(this).addWarning(unknownCapacityTypeWarning(name, unknownCapacity));
    for (const warning of limitsWarnings(c, name, options.limits)) Annotations.of(this).addWarning(warning);
    const ctx = nodeContextOf(karpenter?.cluster ?? ownClass?.cluster);
    for (const warning of requirementValueWarnings(c, `NodePool ${name}`, requirements, ctx))
      Annotations.of(this).addWarning(warning);
    for (const warning of instanceTypeCatalogueWarnings(c, `NodePool ${name}`, requirements, options.labels))
      Annotations.of(this).addWarning(warning);
    if (ownClass)
      for (const warning of amiPlatformWarnings(c, name, requirements, options.labels, ownClass))
        Annotations.of(this).addWarning(warning);
    // a taint with timeAdded: Karpenter writes the pool's taints as the kubelet's registerWithTaints on AL2023
    // (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/resolver.go:413-416, bootstrap/nodeadm.go:113-114), and
    // the kubelet refuses a taint with timeAdded there (validation.go:164-165); Bottlerocket writes strings instead
    const family = ownClass ? nodeFamily(ownClass.spec) : undefined;
    if (family === undefined || family === "AL2023")
      for (const f of ["taints", "startupTaints"] as const) {
        const list = (options as { [k: string]: unknown })[f];
        if (!Array.isArray(list) || c.token(list)) continue;
        list.forEach((t, i) => {
          if (t && typeof t === "object" && (t as { timeAdded?: unknown }).timeAdded !== undefined)
            Annotations.of(this).addWarning(
              `NodePool ${name}: ${f}[${i}].timeAdded is set: Karpenter writes the pool's taints and startup taints into the kubelet's registerWithTaints on AL2023 (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/resolver.go:413-416, bootstrap/nodeadm.go:113-114), and the kubelet refuses a taint with timeAdded there ("taint.TimeAdded is not nil", k8s.io/kubernetes v1.36.3 pkg/kubelet/apis/config/validation/validation.go:164-165): ${family === "AL2023" ? "the" : "on an AL2023 class, the"} kubelet does not start and no node joins. Leave timeAdded out (the API server sets it on the Node)`,
            );
        });
      }
    if (spot && !karpenter?.createsSpotServiceLinkedRole) {
      // judged at synth, per account: another install (or a SpotServiceLinkedRole) of the account may create the role
      let judged = false;
      addSynthCheck(this, () => {
        if (!judged && !createsSpotServiceLinkedRoleFor(karpenter ? clusterElement(karpenter.cluster) : this))
          Annotations.of(this).addWarning(spotWarning(name, karpenter));
        judged = true;
        return [];
      });
    }
    if (!ownClass) {
      const same = this.node.root.node
        .findAll()
        .find((x): x is Ec2NodeClass => x instanceof Ec2NodeClass && x.name === ref.name);
      if (same)
        Annotations.of(this).addWarning(
          `NodePool ${name} refers to EC2NodeClass ${ref.name} by name, but ${same.node.path} defines it in this app: pass that Ec2NodeClass as \`nodeClass\` so the NodePool is ordered after it (destroy must delete the NodePool first).`,
        );
    }
    registerUniqueName(this, NodePool.KIND, name, { karpenter, cluster: ownClass?.cluster });

    // a pool is on its class's cluster: in the class's stack it takes the class's provider
    const classProvider =
      ownClass?.kubernetesProvider && TerraformStack.of(ownClass) === TerraformStack.of(this)
        ? ownClass.kubernetesProvider
        : undefined;
    this.kubernetesProvider = chooseProvider(
      scope,
      this,
      "kubernetes",
      "kubernetesProvider",
      props.kubernetesProvider ?? classProvider,
      karpenter ?? ownClass?.karpenter ?? ownClass?.cluster?.resource,
    );
    const dependsOn = [
      ...(props.dependsOn ?? []),
      ...(ownClass ? orderAfter(this, ownClass.manifest) : []),
      ...(karpenter && !ownClass?.karpenter ? orderAfter(this, karpenter.release) : []),
    ];
    const body = {
      apiVersion: NodePool.API_VERSION,
      kind: NodePool.KIND,
      metadata: { name },
      spec: nodePoolSpecObject(options, ref, requirements, disruption),
    };
    warnManifestSize(this, NodePool.KIND, name, body);
    this.manifest = new Manifest(this, "manifest", {
      provider: this.kubernetesProvider,
      manifest: body,
      dependsOn: dependsOn.length > 0 ? dependsOn : undefined,
    });
  }

  /**
   * Takes over the NodePool of this name that already exists in the cluster (applied with kubectl, through
   * the API or by another tool, e.g. the getting-started guide's `default`): an import block for the manifest
   * (Terraform ≥ 1.5), and its field manager forces conflicts. Without that, every later change of a field
   * the other client wrote (an AMI alias, a budget) fails at apply with "There was a field manager conflict"
   * (server-side apply: the field belongs to that client's manager, e.g. `kubectl-client-side-apply`);
   * with it, the fields become this app's on the first apply that changes them, as a takeover means.
   */
  public adoptExisting(): void {
    this.manifest.importFrom(
      `apiVersion=${NodePool.API_VERSION},kind=${NodePool.KIND},name=${this.name}`,
      this.kubernetesProvider,
    );
    this.manifest.putFieldManager({ forceConflicts: true });
  }
}

/** The props of {@link NodePoolProps} beyond the spec (known fields a misspelt prop may be meant as). */
const CONSTRUCT_PROPS = ["nodeClass", "karpenter", "version", "kubernetesProvider", "dependsOn"];

/** Every prop of {@link NodePoolOptions}: the keys of its wiring to the NodePool's fields. */
const SPEC_PROPS = Object.keys(NODE_POOL_PROP_PATHS);

/**
 * The requirements with `karpenter.sh/capacity-type: In [on-demand]` appended when nothing names
 * the key. When a token hides whether something names it (a requirements or labels token, a
 * requirement or key token, a label key token), nothing is appended — a default could contradict
 * the hidden requirement and leave the pool without capacity — and `unknown` says what hid it.
 */
function withCapacityType(
  c: Checker,
  options: NodePoolOptions,
): { requirements: NodeSelectorRequirement[]; unknown?: string } {
  const reqs = options.requirements;
  if (isSet(reqs) && c.token(reqs)) return { requirements: reqs, unknown: "requirements is a token" };
  const list = reqs ?? [];
  if (!Array.isArray(list))
    return c.fail(
      "NODEPOOL_REQUIREMENTS",
      "requirements",
      reqs,
      "a list of requirements { key, operator, values?, minValues? }",
    );
  if (list.length > 100)
    c.fail(
      "NODEPOOL_REQUIREMENTS",
      "requirements",
      reqs,
      `at most 100 requirements (NodePool CRD maxItems), got ${list.length}`,
    );
  const labels = options.labels;
  const unknown = list.some((r) => isSet(r) && c.token(r))
    ? "a requirement is a token"
    : list.some((r) => isSet(r) && typeof r === "object" && isSet(r.key) && !c.known(r.key))
      ? "a requirement's key is a token"
      : isSet(labels) && c.token(labels)
        ? "labels is a token"
        : isSet(labels) && typeof labels === "object" && Object.keys(labels).some((k) => !c.known(k))
          ? "a label key is a token"
          : undefined;
  if (unknown) return { requirements: list, unknown };
  const named =
    list.some((r) => isSet(r) && r.key === CAPACITY_TYPE) ||
    (isSet(labels) && typeof labels === "object" && isSet(labels[CAPACITY_TYPE]));
  if (named) return { requirements: list };
  if (list.length >= 100)
    c.fail(
      "NODEPOOL_REQUIREMENTS",
      "requirements",
      reqs,
      `at most 99 requirements when none names ${CAPACITY_TYPE}: the NodePool CRD allows 100 and the library adds the capacity-type one (or state it yourself)`,
    );
  return { requirements: [...list, DEFAULT_CAPACITY_TYPE_REQUIREMENT] };
}

function unknownCapacityTypeWarning(name: string, why: string): string {
  return (
    `NodePool ${name}: ${why}, so whether the pool states ${CAPACITY_TYPE} cannot be checked at synth, and the default ${CAPACITY_TYPE} In [on-demand] was not added (it could contradict a requirement hidden in the token and leave the pool with no capacity to launch). ` +
    "Without a capacity-type requirement Karpenter may choose spot, and spot launches fail with ServiceLinkedRoleCreationNotPermitted in accounts without the EC2 Spot service-linked role: state the capacity type with known values (e.g. a literal requirement)."
  );
}

/**
 * Rejects an Ec2NodeClass of another installation: its EC2NodeClass is applied to that
 * installation's cluster, so the nodeClassRef would name a class this pool's cluster lacks.
 */
function checkSameInstallation(
  where: string,
  karpenter: IKarpenterInstallation | undefined,
  ownClass: Ec2NodeClass | undefined,
): void {
  if (!karpenter || !ownClass) return;
  const owner = otherOwner(karpenter, ownClass);
  if (owner === undefined) return;
  throw new KarpenterValidationError(
    "NODEPOOL_NODE_CLASS_OTHER_INSTALL",
    where,
    "nodeClass",
    ownClass.node.path,
    `an Ec2NodeClass of the same Karpenter installation as the pool (${karpenter.node.path}): ${ownClass.node.path} belongs to ${owner}, so its EC2NodeClass exists on that cluster only and this pool's nodeClassRef would name a class its own cluster does not have. Create an Ec2NodeClass for ${karpenter.node.path}`,
  );
}

/**
 * Who the class belongs to when that is not `karpenter`: another installation, or (building-block
 * mode) a cluster whose literal name differs. Undefined when it is the same or cannot be told.
 */
function otherOwner(karpenter: IKarpenterInstallation, ownClass: Ec2NodeClass): string | undefined {
  if (ownClass.karpenter)
    return ownClass.karpenter !== karpenter ? `the Karpenter installation ${ownClass.karpenter.node.path}` : undefined;
  const theirs = ownClass.cluster;
  const theirName = theirs?.clusterNameLiteral;
  const ourName = karpenter.cluster.clusterNameLiteral;
  if (
    !theirs ||
    theirs.resource === karpenter.cluster.resource ||
    theirName === undefined ||
    ourName === undefined ||
    theirName === ourName
  )
    return undefined;
  return `cluster ${theirName}`;
}

/**
 * Whether the requirements (ANDed) and a template label allow `spot`: true, false, or undefined
 * when a token hides the answer.
 */
function spotAllowed(
  c: Checker,
  reqs: NodeSelectorRequirement[],
  labels: { [k: string]: string } | undefined,
): boolean | undefined {
  if (c.token(reqs)) return undefined;
  let allowed = true;
  for (const r of reqs) {
    if (!r || c.token(r) || !c.known(r.key)) continue;
    if (r.key !== CAPACITY_TYPE) continue;
    if (!c.known(r.operator) || (r.values !== undefined && !c.known(r.values))) return undefined;
    const values = r.values ?? [];
    if (r.operator === "In") allowed = allowed && values.includes("spot");
    else if (r.operator === "NotIn") allowed = allowed && !values.includes("spot");
    else if (r.operator !== "Exists") allowed = false;
  }
  if (labels && !c.token(labels) && CAPACITY_TYPE in labels) {
    const v = labels[CAPACITY_TYPE];
    if (!c.known(v)) return undefined;
    allowed = allowed && v === "spot";
  }
  return allowed;
}

function spotWarning(name: string, karpenter: IKarpenterInstallation | undefined): string {
  const why = karpenter
    ? "the Karpenter installation does not create"
    : "no Karpenter installation is given that creates";
  return (
    `NodePool ${name} allows spot capacity, but ${why} the EC2 Spot service-linked role (AWSServiceRoleForEC2Spot, spot.amazonaws.com). ` +
    "In an account where it does not exist yet, every spot launch fails with ServiceLinkedRoleCreationNotPermitted, because the Karpenter controller may not create service-linked roles. " +
    "Create it once per account (`spotServiceLinkedRole: true` on one Karpenter of the account, a SpotServiceLinkedRole, or `aws iam create-service-linked-role --aws-service-name spot.amazonaws.com`), or restrict karpenter.sh/capacity-type to on-demand."
  );
}

/**
 * The platform of an EC2NodeClass's AMIs, from the family it bootstraps with ({@link nodeFamily}):
 * Windows AMIs are `windows` on `amd64` only; the others are `linux` (EKS-optimized AMIs, Karpenter docs
 * "NodeClasses: amiFamily"). Custom (the user's AMIs, of any architecture) is `linux` too, whatever the AMI holds:
 * Karpenter decides the OS from the family, not the image (aws/karpenter-provider-aws v1.15.0
 * pkg/providers/amifamily/resolver.go:306-307 GetAMIFamily gives Custom its own family, and
 * pkg/providers/instancetype/types.go:473-481 getOS is `linux` for every family but Windows), so `note` says why.
 * Undefined for a family not known at synth.
 */
function amiPlatform(
  nodeClass: Ec2NodeClass,
): { family: string; os: string; arches?: string[]; build?: string; note?: string } | undefined {
  const family = nodeFamily(nodeClass.spec)?.toLowerCase();
  if (family === undefined) return undefined;
  if (family === "custom")
    return {
      family,
      os: "linux",
      note: ` (amiFamily Custom: Karpenter takes every Custom AMI for linux, whatever it holds: aws/karpenter-provider-aws v1.15.0 pkg/providers/amifamily/resolver.go:306-307, pkg/providers/instancetype/types.go:350-353 and getOS)`,
    };
  return family.startsWith("windows")
    ? { family, os: "windows", arches: ["amd64"], build: WINDOWS_BUILDS[family] }
    : { family, os: "linux" };
}

/**
 * Warnings for a pool whose `kubernetes.io/os` or `kubernetes.io/arch` requirements or template labels leave
 * no value the class's AMIs have (e.g. Windows pods on an AL2023 class, arm64 on a Windows class): each object
 * is valid alone, but Karpenter finds no AMI for the pool's nodes, so it launches nothing. A template label is
 * a requirement In its value to Karpenter (kubernetes-sigs/karpenter nodeclaimtemplate.go: the template labels
 * join the requirements), and the provider gives every instance type `kubernetes.io/os In [linux]` unless the
 * AMI family is Windows (aws/karpenter-provider-aws pkg/providers/instancetype/types.go computeRequirements,
 * getOS). A deprecated key is read as its stable one (NormalizedLabels).
 */
function amiPlatformWarnings(
  c: Checker,
  name: string,
  requirements: readonly NodeSelectorRequirement[],
  labels: { [key: string]: string } | undefined,
  nodeClass: Ec2NodeClass,
): string[] {
  const platform = amiPlatform(nodeClass);
  if (!platform || c.token(requirements)) return [];
  const out: string[] = [];
  const asWritten: { key: string; operator: string; values: string[]; label?: string }[] = [];
  for (const r of requirements) {
    // Exists and DoesNotExist take no values
    const values = r && r.values === undefined ? [] : r?.values;
    if (
      !r ||
      typeof r.key !== "string" ||
      !Array.isArray(values) ||
      !values.every((v) => typeof v === "string" && c.known(v))
    )
      continue;
    asWritten.push({ key: stableLabelKey(r.key), operator: r.operator, values });
  }
  if (labels && typeof labels === "object" && !c.token(labels))
    for (const [key, value] of Object.entries(labels))
      if (typeof value === "string" && c.known(value))
        asWritten.push({ key: stableLabelKey(key), operator: "In", values: [value], label: key });
  // `has`: the values the class's nodes carry on `key`, none when they lack the label (NotIn and DoesNotExist then hold)
  const judge = (key: string, has: string[], what: string) => {
    for (const r of asWritten) {
      if (r.key !== key) continue;
      const absent = has.length === 0;
      const left =
        r.operator === "In"
          ? has.filter((v) => r.values.includes(v))
          : r.operator === "NotIn"
            ? absent
              ? [""]
              : has.filter((v) => !r.values.includes(v))
            : r.operator === "Exists"
              ? has
              : r.operator === "DoesNotExist"
                ? absent
                  ? [""]
                  : []
                : has;
      if (left.length === 0) {
        const what0 =
          r.label === undefined
            ? `requires ${key} ${r.operator} ${JSON.stringify(r.values)}`
            : `has the template label ${r.label}: ${JSON.stringify(r.values[0])} (Karpenter requires it of every node, ${key} In ${JSON.stringify(r.values)})`;
        out.push(
          `NodePool ${name} ${what0}, but its EC2NodeClass ${nodeClass.name} (${nodeClass.node.path}) uses ${platform.family} AMIs${platform.note ?? ""}, which are ${what}: no node can satisfy both, so Karpenter finds no AMI for the pool and launches nothing. Use an EC2NodeClass of a matching AMI family, or change the ${r.label === undefined ? "requirement" : "label"} (Karpenter docs, "NodeClasses: amiFamily").`,
        );
      }
    }
  };
  judge("kubernetes.io/os", [platform.os], platform.os);
  if (platform.arches) judge("kubernetes.io/arch", platform.arches, `${platform.arches.join(", ")} only`);
  // the Windows build: only a Windows family's nodes carry it, its own build (aws/karpenter-provider-aws v1.15.0
  // pkg/providers/instancetype/types.go:353 DoesNotExist for every instance type, :453-455 the family's build inserted)
  if (platform.os === "windows" && platform.build === undefined) return out;
  judge(
    WINDOWS_BUILD_KEY,
    platform.build ? [platform.build] : [],
    platform.build
      ? `of Windows build ${JSON.stringify(platform.build)} only (the ${WINDOWS_BUILD_KEY} label Karpenter gives their nodes)`
      : `linux, whose nodes carry no ${WINDOWS_BUILD_KEY} label (Karpenter sets it only for a Windows AMI family: aws/karpenter-provider-aws pkg/providers/instancetype/types.go)`,
  );
  return out;
}

/** The template labels as a map to read, or `{}` when unset, no object or a token (nothing to judge). */
function literalLabels(c: Checker, labels: unknown): { [key: string]: string } {
  return isSet(labels) && !c.token(labels) && typeof labels === "object" && !Array.isArray(labels)
    ? (labels as { [key: string]: string })
    : {};
}

/**
 * A missing `nodeClass`, another construct than an Ec2NodeClass, or one that is no object, as one recorded problem of the
 * pool (issue 31, item 6: the spec's other problems are still found); true when there is no reference to read.
 */
function checkNodeClassGiven(
  c: Checker,
  nodeClass: unknown,
  ownClass: Ec2NodeClass | undefined,
  required: string,
): boolean {
  if (nodeClass === undefined || nodeClass === null) {
    c.guard(() => c.fail("NODEPOOL_NODE_CLASS_REQUIRED", "nodeClass", nodeClass, required));
    return true;
  }
  // another construct (a NodeOverlay, a NodePool, the Karpenter install) is named as what it is, once, rather than
  // each of its properties as an unknown field of a reference
  const construct = ownClass ? undefined : constructName(nodeClass);
  if (construct !== undefined) {
    c.guard(() =>
      c.fail(
        "NODEPOOL_NODE_CLASS_NOT_A_CLASS",
        "nodeClass",
        nodeClass,
        'an Ec2NodeClass of this app (NodeClassRef.of(…)) or a reference { name } to one managed elsewhere (NodeClassRef.named("…")), not another construct',
      ),
    );
    return true;
  }
  // a reference that is no object has no fields to check
  if (!ownClass && !c.token(nodeClass) && (typeof nodeClass !== "object" || Array.isArray(nodeClass))) {
    c.guard(() =>
      c.fail(
        "NODEPOOL_NODE_CLASS_REF",
        "nodeClass",
        nodeClass,
        "a node class reference: an object { name, group, kind }",
      ),
    );
    return true;
  }
  return false;
}
