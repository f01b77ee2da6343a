import { Construct } from "constructs";
import { settledProps } from "../core/readable-props";
import { Annotations, ITerraformDependable, TerraformStack, Token } from "cdktf";
import type { INodeClassRef } from "./node-pool-spec";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";
import type { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { DISCOVERY_TAG_KEY } from "../cluster/discovery-tags";
import { IKarpenterCluster } from "../cluster/karpenter-cluster";
import { IKarpenterInstallation } from "../cluster/karpenter-installation";
import { AmiFamily, AmiSelectorTerm, Ec2NodeClassOptions } from "./ec2-node-class-spec";
import { attached, register, registered } from "../core/app-index";
import { addSynthWarning } from "../core/synth-checks";
import { KarpenterValidationError } from "../core/errors";
import {
  aliasFamilyOf,
  checkEc2NodeClass,
  KUBELET_PROPS,
  kubeletExpressionFields,
  kubeletExpressionsSince,
  nodeFamily,
  selectorTermWarnings,
} from "./ec2-node-class-rules";
import { imageGcDefaultProblem, kubeletRuntimeWarnings } from "./kubelet-runtime-rules";
import { isPlainMap } from "../core/deep-merge";
import { userDataWarnings, userDataSizeWarning, windowsUserDataWarning } from "./user-data-rules";
import { crdFreeFormSince, crdKnown, kubeletConfigFields } from "../versions";
import { crdChildren } from "../kubernetes/crd-checks";
import { nearestKey } from "../core/problems";
import { KarpenterVersion } from "../versions/karpenter-version";
import { Checker, checkCrdThenSemantics, GO_DURATION, isSet } from "../kubernetes/value-rules";
import {
  aliasReleaseWarning,
  amiFamilyWarning,
  checkEc2NodeClassSemantics,
  pinnedAliasExample,
} from "./node-semantic-rules";
import { nodeContextOf } from "./node-context";
import { bottlerocketAlias } from "./node-config-rules";
import { warnWithoutDiscoveryTags } from "./discovery-evidence";
import { bottlerocketOsVolumeWarnings, ebsTypeWarnings, rootVolumeWarnings } from "./ebs-rules";
import { kubeletExpressionSampleWarning } from "./kubelet-expressions";
import { registerSelectors } from "../cluster/discovery-selectors";
import {
  checkedCluster,
  checkedInstallation,
  agreedVersion,
  checkDependsOn,
  checkOrderable,
  constructPath,
  nodeClassSpecObject,
  objectName,
  orderAfter,
  registerUniqueName,
  warnManifestSize,
  checkPropsWalkable,
  CONSTRUCT_VALUED_PROPS,
} from "./manifests";
import { checkProvider, chooseProvider } from "../core/provider-choice";
import { resolvedReference } from "../core/tokens";

/** The AMI alias used when none is given (and `amiFamily` is unset or `AL2023`). */
export const DEFAULT_AMI_ALIAS = "al2023@latest";

/** The delete timeout of the EC2NodeClass `kubernetes_manifest` when none is given. */
export const DEFAULT_NODE_CLASS_DELETE_TIMEOUT = "20m";

/**
 * Props of {@link Karpenter.addEc2NodeClass}: the EC2NodeClass spec ({@link Ec2NodeClassOptions})
 * plus where its defaults and ordering come from — every prop of {@link Ec2NodeClassProps} but
 * `karpenter` (the install it is added to).
 */
export interface AddEc2NodeClassProps extends Ec2NodeClassOptions {
  /**
   * The cluster whose name is the value of the `karpenter.sh/discovery` tag in the default subnet
   * and security group selector terms.
   * @default `karpenter.cluster`
   */
  readonly cluster?: IKarpenterCluster;
  /**
   * The tag key of the default subnet and security group selector terms (value: the cluster name).
   * Set it when the cluster's subnets are tagged with a key of their own (a shared VPC: see
   * `DiscoveryTags.tagKey`).
   * @default `karpenter.discoveryTagKey`, else "karpenter.sh/discovery"
   */
  readonly discoveryTagKey?: string;
  /**
   * The Kubernetes provider connected to the cluster the object is for.
   * @default  the stack's default Kubernetes provider, when it is the stack's only Kubernetes
   * provider and the stack's node objects relying on it are all for one install (or cluster); synth
   * fails naming this prop otherwise
   */
  readonly kubernetesProvider?: KubernetesProvider;
  /**
   * The Karpenter version the spec is checked against (fields newer than it are errors), e.g.
   * `"1.14.1"`. With `karpenter`, it must equal `karpenter.version`.
   * @default `karpenter.version`, else DEFAULT_KARPENTER_VERSION ("1.15.3")
   */
  readonly version?: string;
  /**
   * How long `terraform destroy` waits for the EC2NodeClass to disappear (a Go duration such as
   * `"20m"` or `"1h"`). Karpenter's finalizer on the EC2NodeClass keeps it until every NodeClaim
   * launched from it is gone — its pods evicted and its EC2 instance terminated — and then
   * deletes the class's instance profiles and launch templates. The kubernetes provider's
   * `kubernetes_manifest` waits 10m by default (`defaultDeleteTimeout` in
   * hashicorp/terraform-provider-kubernetes manifest/provider/apply.go), which is often too short
   * for nodes to drain; then destroy fails, and running it again waits anew for the same object.
   * @default "20m"
   */
  readonly deleteTimeout?: string;
  /**
   * Extra resources the manifest waits for (building-block mode: the controller release; the
   * cluster's CRD release). Only resources of the same stack.
   * @default none
   */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * Props of {@link Ec2NodeClass}: the EC2NodeClass spec ({@link Ec2NodeClassOptions}) plus where
 * its defaults and ordering come from ({@link AddEc2NodeClassProps}) and the install it belongs to.
 */
export interface Ec2NodeClassProps extends AddEc2NodeClassProps {
  /**
   * The Karpenter installation the class belongs to. Supplies the defaults (`role` = its node
   * role, discovery tag value = its cluster name, `version` = its version) and orders the
   * manifest after its controller release (same stack: `depends_on`; another stack: a stack
   * dependency), so destroy removes the class — and, through its finalizer, the nodes — before
   * the controller.
   * @default none: building-block mode, give `role` (or `instanceProfile`), `cluster` (or the
   * selector terms) and order with `dependsOn`
   */
  readonly karpenter?: IKarpenterInstallation;
}

/**
 * A Karpenter `karpenter.k8s.aws/v1` EC2NodeClass, emitted as a `kubernetes_manifest`: how
 * nodes launch on EC2 (AMI, subnets, security groups, IAM role, block devices, kubelet, IMDS…).
 *
 * The one-line form `new Ec2NodeClass(this, "default", { karpenter })` gives: `role` = the
 * Karpenter node role, subnets and security groups found by the `karpenter.sh/discovery` tag
 * with the cluster's name, and AMI alias `al2023@latest` (pin a version in production: `latest`
 * replaces every node when AWS publishes a new AMI; synth warns once per app, on the first class
 * relying on this default).
 *
 * Every CRD rule that needs no cluster state is checked in the constructor, and every problem of
 * the class comes in one {@link KarpenterValidationError} (each in its `problems`), naming the
 * construct path, the field (a dot path such as `amiSelectorTerms[0].alias`; a map entry as
 * `tags["team"]`), the value and what is allowed. Each field is reported once; a check that reads a
 * field another check rejected is skipped. EBS `iops` is taken for io1, io2 and gp3 volumes only,
 * `throughput` for gp3 only (EC2 API Reference, EbsBlockDevice). Token values are left to the API server.
 *
 * Two EC2NodeClasses of one app with the same `metadata.name` on the same cluster fail synth
 * (a synth-time check, see `validateApp`), naming both construct paths. With `karpenter`, a `role` other than the
 * installation's node role, or any `instanceProfile`, gets a synth warning.
 *
 * Beyond the CRD (lib/nodes/node-semantic-rules.ts): alias versions per family (`al2023@v20260714`,
 * `bottlerocket@v1.46.0`), no alias of a family EKS no longer publishes for the cluster's literal
 * Kubernetes version (AL2 on 1.33+; `amiFamily` AL2 with your own terms only warns), kubelet
 * `clusterDNS` IPs and reserved quantities (memory `100m` is a fraction of a byte). Default selector
 * terms on a cluster this app creates warn at synth when nothing in the app carries the discovery tag.
 *
 * Upstream: EC2NodeClass CRD (aws/karpenter-provider-aws pkg/apis/crds, v1.0–v1.14).
 */
export class Ec2NodeClass extends Construct implements INodeClassRef {
  /** The AMI alias used when none is given (and `amiFamily` is unset or `AL2023`): `"al2023@latest"`; {@link DEFAULT_AMI_ALIAS} in TypeScript. */
  public static readonly DEFAULT_AMI_ALIAS: string = DEFAULT_AMI_ALIAS;
  /** The delete timeout of the manifest when `deleteTimeout` is not given: `"20m"`; {@link DEFAULT_NODE_CLASS_DELETE_TIMEOUT} in TypeScript. */
  public static readonly DEFAULT_DELETE_TIMEOUT: string = DEFAULT_NODE_CLASS_DELETE_TIMEOUT;
  /** `apiVersion` of the emitted object. */
  public static readonly API_VERSION = "karpenter.k8s.aws/v1";
  /** `kind` of the emitted object. */
  public static readonly KIND = "EC2NodeClass";
  /** The API group NodePools use in `nodeClassRef.group`. */
  public static readonly GROUP = "karpenter.k8s.aws";

  /** `metadata.name` of the EC2NodeClass (what NodePools refer to). */
  public readonly name: string;
  /** The Karpenter version the spec was checked against, e.g. `"1.14.1"`. */
  public readonly version: string;
  /** The installation given in the props, if any. */
  public readonly karpenter?: IKarpenterInstallation;
  /** The cluster the class is for: `cluster` from the props, else the installation's; undefined when neither is given. */
  public readonly cluster?: IKarpenterCluster;
  /**
   * The emitted `spec` (after defaults): the manifest's `spec` before unset fields are dropped and
   * keys sorted, in the props' shape: a `kubelet.maxPodsExpression` here is the manifest's
   * `kubelet.maxPods`. The name is not part of it: see {@link name} (`metadata.name`).
   */
  public readonly spec: Ec2NodeClassOptions;
  /** The `kubernetes_manifest` resource. */
  public readonly manifest: Manifest;
  /** The Kubernetes provider of the manifest; undefined: the stack's default. */
  public readonly kubernetesProvider?: KubernetesProvider;

  /**
   * @throws KarpenterValidationError for props that are not an object, a `karpenter` whose release is in a stack
   * that depends on this one (ordering the class after it would make the stack dependency circular), a `version` that is not a
   * supported release or differs from `karpenter.version`, a value any EC2NodeClass CRD rule
   * rejects, a field newer than the targeted Karpenter version, a missing role / selector terms
   * without `karpenter`, a literal `role` that is no IAM role name, a duration longer than Go's time.Duration, or a malformed
   * `deleteTimeout`, `iops` / `throughput` on a volume type EC2 does not take them for or outside EC2's numbers (io1 / io2 without `iops`, gp3 below 3,000 IOPS or 125 MiB/s, io1 / io2 outside 100–64,000 / 100–256,000 IOPS, more IOPS per GiB than io1's 50, io2's 1,000 or gp3's 500, gp3 throughput above 0.25 MiB/s per IOPS, io1 / io2 under 4 GiB, st1 / sc1 under 125 GiB, one device name in two mappings, a malformed `snapshotID`, st1 / sc1 on the AMI family's boot device: lib/nodes/ebs-rules.ts; `iops` / `throughput` without `volumeType` warns), literal `userData` the AMI family's bootstrap cannot read (Bottlerocket TOML, AL2023 NodeConfig / MIME multipart: lib/nodes/user-data-rules.ts, naming the line), both
   * `kubelet.maxPods` and `kubelet.maxPodsExpression`, a string in `kubelet.maxPods`, a reserved value written as a
   * number and a unit or words (`"1GB"`, `"1 core"`: EC2NODECLASS_KUBELET_NOT_A_QUANTITY), an al2 / al2023 alias
   * version that is no calendar date (EC2NODECLASS_AMI_ALIAS_DATE), more `tags` than fit EC2's 50 per resource beside
   * the 6 Karpenter adds (EC2NODECLASS_TAGS_COUNT), an expression
   * before Karpenter 1.15 or without the install's NodeClassCEL gate; at synth, for a
   * duplicate name. The spec's problems come together in one error (`problems`); props that are no
   * object, props holding a value inside itself or nested more than 16 maps and lists deep (NODE_VALUE_CYCLE / NODE_VALUE_TOO_DEEP), and a bad `version` are thrown alone, before the spec is checked.
   */
  constructor(scope: Construct, id: string, props: Ec2NodeClassProps = {}) {
    // everything is checked before the construct joins the tree: nothing half-built
    const where = constructPath(scope, id);
    if (props === null || typeof props !== "object" || Array.isArray(props))
      throw new KarpenterValidationError(
        "EC2NODECLASS_NOT_AN_OBJECT",
        where,
        "props",
        props,
        "Ec2NodeClass props: an object { karpenter, … } (or nothing)",
      );
    // a value inside itself (or nested thousands deep) would overflow every recursive check below
    checkPropsWalkable(where, props, [...SPEC_PROPS, ...CONSTRUCT_PROPS]);
    // read once: what is checked is what is written
    props = settledProps(props, [...SPEC_PROPS, ...CONSTRUCT_PROPS]);
    const karpenter = checkedInstallation(where, scope, props.karpenter);
    const givenCluster = checkedCluster(where, props.cluster);
    // the ordering orderAfter adds below must not close a circle of stack dependencies
    if (karpenter?.release) checkOrderable(where, scope, karpenter.release, "karpenter");
    const version = agreedVersion(
      where,
      [
        ["version", props.version],
        ["karpenter.version", karpenter?.version],
      ],
      "the class is checked against the installed Karpenter (leave `version` unset to use it)",
      scope,
    );
    // every independent check runs: all problems of the class come in one error
    const c = new Checker("EC2NODECLASS", where, version, { collect: true });
    const {
      karpenter: _k,
      cluster: _c,
      version: _v,
      deleteTimeout: _t,
      dependsOn: _d,
      discoveryTagKey: _dk,
      kubernetesProvider: _kp,
      ...options
    } = props;
    if (props.kubernetesProvider)
      checkProvider(scope, where, "kubernetes", "kubernetesProvider", props.kubernetesProvider);
    c.guard(() => c.fields("", options, [...SPEC_PROPS, ...CONSTRUCT_PROPS], "Ec2NodeClassProps"));
    c.guard(() => checkDependsOn(c, props.dependsOn));
    // the tag key of the selector terms derived for a cluster: a number or an empty key selects nothing
    c.guard(() => c.str("discoveryTagKey", props.discoveryTagKey, { nonEmpty: true }));
    const name = objectName(where, id, options.name);
    const cluster = givenCluster ?? karpenter?.cluster;
    const tagKey = props.discoveryTagKey ?? karpenter?.discoveryTagKey ?? DISCOVERY_TAG_KEY;
    const discovery = cluster ? [{ tags: { [tagKey]: cluster.clusterName } }] : undefined;
    let amiSelectorTerms = options.amiSelectorTerms;
    if (amiSelectorTerms === undefined) {
      c.guard(() => {
        amiSelectorTerms = defaultAmiTerms(c, options.amiFamily);
      });
    }
    const spec: Ec2NodeClassOptions = {
      ...options,
      role: options.role ?? (options.instanceProfile === undefined ? karpenter?.nodeRoleName : undefined),
      amiSelectorTerms,
      subnetSelectorTerms: options.subnetSelectorTerms ?? discovery,
      securityGroupSelectorTerms: options.securityGroupSelectorTerms ?? discovery,
    };
    const context = nodeContextOf(cluster);
    const deleteTimeout = props.deleteTimeout ?? DEFAULT_NODE_CLASS_DELETE_TIMEOUT;
    checkCrdThenSemantics(
      c,
      () => {
        // first, so that these messages (not the CRD rule's) name the missing terms
        c.guard(() => {
          if (spec.subnetSelectorTerms === undefined)
            c.fail(
              "EC2NODECLASS_SELECTOR_TERMS",
              "subnetSelectorTerms",
              undefined,
              "subnet selector terms, or `karpenter` / `cluster` for the default karpenter.sh/discovery tag term",
            );
        });
        c.guard(() => {
          if (spec.securityGroupSelectorTerms === undefined)
            c.fail(
              "EC2NODECLASS_SELECTOR_TERMS",
              "securityGroupSelectorTerms",
              undefined,
              "security group selector terms, or `karpenter` / `cluster` for the default karpenter.sh/discovery tag term",
            );
        });
        checkEc2NodeClass(c, version, spec, name, context.kubernetesVersion);
        c.guard(() => checkExpressionGate(c, spec, karpenter));
        c.guard(() => c.duration("deleteTimeout", deleteTimeout, GO_DURATION, 'a Go duration such as "20m" or "1h"'));
      },
      (s) =>
        checkEc2NodeClassSemantics(
          s,
          name,
          spec,
          context,
          options.amiSelectorTerms === undefined && options.amiFamily !== undefined,
        ),
      props,
      CONSTRUCT_VALUED_PROPS,
    );

    super(scope, id);
    this.name = name;
    this.version = version.full;
    this.karpenter = karpenter;
    this.cluster = cluster;
    const { name: _n, ...specFields } = spec;
    this.spec = specFields;
    if (karpenter && isSet(options.role)) {
      const warning = roleWarning(name, options.role, karpenter);
      if (warning) Annotations.of(this).addWarning(warning);
    }
    if (karpenter && isSet(options.instanceProfile))
      Annotations.of(this).addWarning(instanceProfileWarning(name, options.instanceProfile, karpenter));
    for (const w of kubeletWarnings(name, spec, version, karpenter, context.kubernetesVersion))
      Annotations.of(this).addWarning(w);
    for (const w of ebsTypeWarnings(name, spec.blockDeviceMappings)) Annotations.of(this).addWarning(w);
    for (const w of rootVolumeWarnings(name, nodeFamily(spec), spec.blockDeviceMappings))
      Annotations.of(this).addWarning(w);
    for (const w of bottlerocketOsVolumeWarnings(
      name,
      bottlerocketAlias(spec.amiSelectorTerms),
      spec.blockDeviceMappings,
    ))
      Annotations.of(this).addWarning(w);
    for (const w of selectorTermWarnings(name, spec)) Annotations.of(this).addWarning(w);
    const sizeWarning = userDataSizeWarning(name, nodeFamily(spec), spec.userData);
    if (sizeWarning) Annotations.of(this).addWarning(sizeWarning);
    const windowsWarning = windowsUserDataWarning(name, nodeFamily(spec), spec.userData);
    if (windowsWarning) Annotations.of(this).addWarning(windowsWarning);
    for (const w of userDataWarnings(name, nodeFamily(spec), spec, `1.${version.minor}`, context.kubernetesVersion))
      Annotations.of(this).addWarning(w);
    const releaseWarning = aliasReleaseWarning(spec);
    if (releaseWarning) Annotations.of(this).addWarning(`EC2NodeClass ${name}: ${releaseWarning}`);
    const familyWarning = amiFamilyWarning(spec, context);
    if (familyWarning) Annotations.of(this).addWarning(`EC2NodeClass ${name}: ${familyWarning}`);
    if (options.amiSelectorTerms === undefined && Array.isArray(amiSelectorTerms))
      warnLatestAliasOnce(this, name, amiSelectorTerms);
    const defaultTerms =
      cluster !== undefined &&
      (options.subnetSelectorTerms === undefined || options.securityGroupSelectorTerms === undefined);
    if (cluster && defaultTerms) warnWithoutDiscoveryTags(this, name, cluster, tagKey);
    const selectorTerms = [spec.subnetSelectorTerms, spec.securityGroupSelectorTerms].flatMap((t): unknown[] =>
      Array.isArray(t) && !Token.isUnresolved(t) ? t : isSet(t) ? [t] : [],
    );
    registerSelectors({ nodeClass: this, name, cluster, tagKey, defaultTerms, terms: selectorTerms });
    registerUniqueName(this, Ec2NodeClass.KIND, name, { karpenter, cluster: props.cluster });
    this.kubernetesProvider = chooseProvider(
      scope,
      this,
      "kubernetes",
      "kubernetesProvider",
      props.kubernetesProvider,
      karpenter ?? props.cluster?.resource,
    );
    const dependsOn = [...(props.dependsOn ?? []), ...(karpenter ? orderAfter(this, karpenter.release) : [])];
    const body = {
      apiVersion: Ec2NodeClass.API_VERSION,
      kind: Ec2NodeClass.KIND,
      metadata: { name },
      spec: nodeClassSpecObject(specFields),
    };
    warnManifestSize(this, Ec2NodeClass.KIND, name, body);
    this.manifest = new Manifest(this, "manifest", {
      provider: this.kubernetesProvider,
      manifest: body,
      timeouts: { delete: deleteTimeout },
      dependsOn: dependsOn.length > 0 ? dependsOn : undefined,
    });
  }

  /**
   * Takes over the EC2NodeClass of this name that already exists in the cluster (applied with kubectl, through
   * the API or by another tool, e.g. the getting-started guide's `default`): an import block for the manifest
   * (Terraform ≥ 1.5), and its field manager forces conflicts. Without that, every later change of a field
   * the other client wrote (an AMI alias, a budget) fails at apply with "There was a field manager conflict"
   * (server-side apply: the field belongs to that client's manager, e.g. `kubectl-client-side-apply`);
   * with it, the fields become this app's on the first apply that changes them, as a takeover means.
   */
  public adoptExisting(): void {
    this.manifest.importFrom(
      `apiVersion=${Ec2NodeClass.API_VERSION},kind=${Ec2NodeClass.KIND},name=${this.name}`,
      this.kubernetesProvider,
    );
    this.manifest.putFieldManager({ forceConflicts: true });
  }
}

/**
 * Kubelet expressions need the install's NodeClassCEL gate: without it the 1.15 controller sets
 * ValidationSucceeded=False (KubeletExpressionsDisabled) and launches nothing from the class.
 */
function checkExpressionGate(
  c: Checker,
  spec: Ec2NodeClassOptions,
  karpenter: IKarpenterInstallation | undefined,
): void {
  if (!c.version.atLeast(kubeletExpressionsSince()) || karpenter?.nodeClassCel !== false) return;
  const found = kubeletExpressionFields(spec.kubelet);
  if (found.length === 0) return;
  const [first, ...more] = found;
  c.fail(
    "EC2NODECLASS_EXPRESSION_NOT_ALLOWED",
    first.field,
    first.value,
    `a static value: ${found.map((f) => f.field).join(", ")} ${more.length ? "are CEL expressions" : "is a CEL expression"}, which Karpenter evaluates only with the AWS feature gate NodeClassCEL, and ${karpenter!.node.path} does not turn it on (without it the class gets ValidationSucceeded=False, KubeletExpressionsDisabled, and launches no node). Set settings: { awsFeatureGates: { nodeClassCEL: true } } on that Karpenter (or NodeClassCEL=true in the AWS_FEATURE_GATES entry of its values.controller.env, which replaces the gate string the chart builds), or use static values`,
  );
}

/**
 * What depends on something outside this construct: kubelet expressions of a class whose install's gate
 * is unknown here, and (1.15, AL2023) a KubeletConfiguration field beyond the typed 12 that looks like a typo of one of
 * them (a key that is no KubeletConfiguration field at all is an error of the rules).
 */
function kubeletWarnings(
  name: string,
  spec: Ec2NodeClassOptions,
  version: KarpenterVersion,
  karpenter: IKarpenterInstallation | undefined,
  kubernetesVersion: string | undefined,
): string[] {
  const out: string[] = [];
  if (version.atLeast(kubeletExpressionsSince()) && karpenter?.nodeClassCel === undefined) {
    const fields = kubeletExpressionFields(spec.kubelet).map((f) => f.field);
    if (fields.length) {
      out.push(
        `EC2NodeClass ${name}: ${fields.join(", ")} ${fields.length === 1 ? "is a CEL expression" : "are CEL expressions"}, which Karpenter evaluates only with the AWS feature gate NodeClassCEL (settings.awsFeatureGates.nodeClassCEL: true); ${karpenter ? `whether ${karpenter.node.path} turns it on is not known at synth` : "this class has no `karpenter`, so the gate of the install is not known here"}: without it the class gets ValidationSucceeded=False (KubeletExpressionsDisabled) and launches no node`,
      );
    }
  }
  if (version.atLeast(kubeletExpressionsSince()))
    for (const { field, value } of kubeletExpressionFields(spec.kubelet)) {
      const why = kubeletExpressionSampleWarning(value, field !== "kubelet.maxPodsExpression");
      if (why) out.push(`EC2NodeClass ${name}: ${field} = ${JSON.stringify(value)}: ${why}`);
    }
  const k = spec.kubelet;
  const family = nodeFamily(spec);
  // maxPods 0: Karpenter gives every instance type 0 pod slots (karpenter-provider-aws v1.15.0
  // pkg/providers/instancetype/types.go:739-740) and every pod takes one, so no pool with the class launches a node
  if (isPlainMap(k) && k.maxPods === 0)
    out.push(
      `EC2NodeClass ${name}: kubelet.maxPods = 0: Karpenter gives every instance type of this class 0 pod slots (karpenter-provider-aws v1.15.0 pkg/providers/instancetype/types.go:739-740) and every pod needs one (sigs.k8s.io/karpenter v1.15.0 pkg/utils/resources/resources.go:36), so no pool using the class ever launches a node. Leave maxPods unset for the instance type's own count`,
    );
  // instanceStorePolicy RAID0 on Windows: the bootstrap ignores it (windows.go:73) while Karpenter's capacity counts
  // the instance store as ephemeral storage (instancetype/types.go:531-533)
  if (spec.instanceStorePolicy === "RAID0" && family?.startsWith("Windows"))
    out.push(
      `EC2NodeClass ${name}: instanceStorePolicy RAID0 on ${family}: the Windows bootstrap does not set up the instance store (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/windows.go:73 ignores the policy), but Karpenter still counts the instance store as the node's ephemeral storage (pkg/providers/instancetype/types.go:531-533), so it schedules pods onto storage the node does not have. Leave instanceStorePolicy unset on Windows`,
    );
  // literal user data (not known at synth: not judged)
  const script = typeof spec.userData === "string" && !Token.isUnresolved(spec.userData) ? spec.userData : "";
  const runsBootstrap = /\/etc\/eks\/bootstrap\.sh\b/.test(script);
  if (family === "AL2023" && runsBootstrap)
    out.push(
      `EC2NodeClass ${name}: userData runs /etc/eks/bootstrap.sh, which the AL2023 AMIs keep only as a stub that prints "bootstrap.sh has been removed from AL2023-based EKS AMIs" and exits 1 (amazon-eks-ami templates/al2023/runtime/rootfs/etc/eks/bootstrap.sh, at 81fec2e8): its arguments never reach the node, and a script with set -e stops there. Write the settings as a NodeConfig (kubelet flags in spec.kubelet.flags), or use the EC2NodeClass's kubelet`,
    );
  if (family === "AL2" && runsBootstrap)
    out.push(
      `EC2NodeClass ${name}: userData runs /etc/eks/bootstrap.sh, which Karpenter's own part runs again after the user data's parts (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/eksbootstrap.go:47-86) with the node's labels, taints and max pods in --kubelet-extra-args. Each run writes its own --kubelet-extra-args to kubelet.service.d/30-kubelet-extra-args.conf and ends with "systemctl start kubelet" (amazon-eks-ami templates/al2/runtime/bootstrap.sh, before b2289030), which does not restart a kubelet already running: the first kubelet to start keeps its arguments, so the node may run without Karpenter's labels and taints, or without yours. Leave bootstrap.sh to Karpenter: kubelet settings on the EC2NodeClass's kubelet, labels and taints on the NodePool`,
    );
  else if (family === "AL2" && /^\s*(?:export\s+)?KUBELET_EXTRA_ARGS=/m.test(script))
    out.push(
      `EC2NodeClass ${name}: userData sets KUBELET_EXTRA_ARGS, which lives only as long as the user data's own script: Karpenter's part, which runs /etc/eks/bootstrap.sh, is another script of the MIME document (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/eksbootstrap.go:47-86) and passes its own --kubelet-extra-args, so the variable never reaches the kubelet. Set kubelet settings on the EC2NodeClass's kubelet, labels and taints on the NodePool`,
    );
  const gc = isPlainMap(k) && family !== undefined && family !== "AL2023" ? imageGcDefaultProblem(k) : undefined;
  if (gc !== undefined)
    out.push(
      `EC2NodeClass ${name}: ${gc.field} = ${gc.value} without the other threshold: the kubelet refuses ${gc.rule} when it starts (${gc.source}); unless the ${family} AMI's own kubelet configuration sets the other one, the kubelet does not start and the node never joins the cluster. Set both`,
    );
  if (
    version.atLeast(crdFreeFormSince("ec2NodeClass", "spec.kubelet")!) &&
    family === "AL2023" &&
    k !== null &&
    typeof k === "object" &&
    !Array.isArray(k) &&
    !Token.isUnresolved(k)
  )
    for (const w of kubeletRuntimeWarnings(k as Record<string, unknown>, kubernetesVersion))
      out.push(`EC2NodeClass ${name}: ${w}`);
  if (
    version.atLeast(crdFreeFormSince("ec2NodeClass", "spec.kubelet")!) &&
    k !== null &&
    typeof k === "object" &&
    !Token.isUnresolved(k)
  ) {
    for (const f of Object.keys(k)) {
      if ((KUBELET_PROPS as readonly string[]).includes(f) || k[f] === undefined) continue;
      // a key that is no upstream KubeletConfiguration field is an error (EC2NODECLASS_KUBELET_NOT_A_FIELD)
      const upstream = kubeletConfigFields(`1.${version.minor}`);
      if (upstream && upstream.fields[f] === undefined) continue;
      const near = nearestKey(f, KUBELET_PROPS);
      if (near)
        out.push(
          `EC2NodeClass ${name}: kubelet.${f} is not one of the typed kubelet fields; it is passed to the kubelet as written (Karpenter ${version.full} takes any KubeletConfiguration field on AL2023). Did you mean kubelet.${near}?`,
        );
    }
  }
  return out;
}

/** The props of {@link Ec2NodeClassProps} beyond the spec (known fields a misspelt prop may be meant as). */
const CONSTRUCT_PROPS = [
  "karpenter",
  "cluster",
  "version",
  "discoveryTagKey",
  "deleteTimeout",
  "kubernetesProvider",
  "dependsOn",
];

/**
 * Every prop of {@link Ec2NodeClassOptions}: `name` (the object's metadata.name) and the spec fields of every known
 * release's EC2NodeClass CRD (generated; a field newer than the class's release is refused by its `since` check).
 */
const SPEC_PROPS = ["name", ...crdChildren(crdKnown("ec2NodeClass"), "spec")];

/**
 * `<family>@latest` for the given amiFamily (al2023 when unset); Custom has no alias. An unknown
 * family gives no terms: the amiFamily rule then names the real mistake.
 */
function defaultAmiTerms(c: Checker, amiFamily: AmiFamily | undefined): AmiSelectorTerm[] | undefined {
  if (amiFamily === undefined) return [{ alias: DEFAULT_AMI_ALIAS }];
  if (!c.known(amiFamily))
    return c.fail(
      "EC2NODECLASS_AMI_SELECTOR_TERMS",
      "amiSelectorTerms",
      undefined,
      "AMI selector terms: the default alias cannot be derived from an amiFamily token",
    );
  if (amiFamily === "Custom")
    return c.fail(
      "EC2NODECLASS_AMI_SELECTOR_TERMS",
      "amiSelectorTerms",
      undefined,
      "AMI selector terms (id, name, tags or ssmParameter): amiFamily Custom has no EKS-optimized alias to default to",
    );
  const family = aliasFamilyOf(amiFamily);
  return family === undefined ? undefined : [{ alias: `${family}@latest` }];
}

const LATEST_ALIAS_CLASSES = "latest-alias-node-classes";

/**
 * Records a class whose AMI terms are the default `<family>@latest` alias (amiSelectorTerms not
 * given), and warns ONCE per app, on the first such class, naming them all: with `latest` Karpenter
 * replaces every node (drift) whenever AWS publishes an AMI, an outcome decided outside the app, so
 * it is said; once, so that a quickstart with one class gets one line, not one per class. A class
 * that writes `@latest` itself has chosen it and is not warned.
 */
function warnLatestAliasOnce(nodeClass: Ec2NodeClass, name: string, terms: readonly AmiSelectorTerm[]): void {
  const alias = terms.length === 1 ? terms[0].alias : undefined;
  if (typeof alias !== "string" || !alias.endsWith("@latest")) return;
  register(nodeClass, LATEST_ALIAS_CLASSES, { nodeClass, name, alias });
  addSynthWarning(nodeClass, () => {
    const all = registered<{ nodeClass: Ec2NodeClass; name: string; alias: string }>(
      nodeClass,
      LATEST_ALIAS_CLASSES,
    ).filter((x) => attached(x.nodeClass));
    // the summary of the app, on its first such class
    if (all[0]?.nodeClass !== nodeClass) return undefined;
    const classes = all.map((x) => `${x.name} (${x.alias})`).join(", ");
    return {
      on: nodeClass,
      message:
        `EC2NodeClass ${classes}: the default AMI alias follows the newest EKS-optimized AMI, so Karpenter replaces every node of ${all.length === 1 ? "the class" : "these classes"} (drift) whenever AWS publishes one. ` +
        `Fine to start with; in production pin a version, e.g. amiSelectorTerms: [{ alias: "${pinnedAliasExample("al2023")}" }] (Karpenter docs, "Managing AMIs"). Said once per app; a class that writes "@latest" itself is not warned.`,
    };
  });
}

/**
 * The warning for a `role` that is not the installation's node role: the controller may pass only
 * that role to EC2 (iam:PassRole) and only it has an access entry, so nodes with another role
 * fail to launch or never join. Undefined when the role is that role or cannot be told apart.
 */
function roleWarning(name: string, role: string, karpenter: IKarpenterInstallation): string | undefined {
  if (Token.isUnresolved(role)) return undefined;
  const installRole = literalRoleName(karpenter);
  if (installRole === role) return undefined;
  const theirs =
    installRole !== undefined
      ? `"${installRole}"`
      : "(its name is known only at apply; if it is the same role, ignore this)";
  return (
    `EC2NodeClass ${name}: role "${role}" is not the Karpenter node role of ${karpenter.node.path} ${theirs}. ` +
    "The installation lets the controller pass only its node role to EC2 (iam:PassRole in the controller policy) and gives only that role an EKS access entry: nodes with another role fail to launch or never join the cluster. " +
    "Leave `role` unset to use the node role, or extend the controller policy's iam:PassRole and add an access entry (type EC2_LINUX) for this role yourself."
  );
}

/**
 * The warning for an `instanceProfile` on a class of an installation: which role the profile holds
 * is not known here, and the installation lets the controller pass only its node role and gives
 * only that role an access entry, so a profile with another role fails to launch or join.
 */
function instanceProfileWarning(name: string, profile: string, karpenter: IKarpenterInstallation): string {
  const shown = Token.isUnresolved(profile) ? "(known only at apply)" : `"${profile}"`;
  const installRole = literalRoleName(karpenter);
  const theirs = installRole !== undefined ? ` "${installRole}"` : "";
  return (
    `EC2NodeClass ${name}: instanceProfile ${shown} is used instead of a role, on a class of the Karpenter installation ${karpenter.node.path}. ` +
    `The installation lets the controller pass only its node role${theirs} to EC2 (iam:PassRole in the controller policy) and gives only that role an EKS access entry: the instance profile must contain a role that has an access entry (type EC2_LINUX) and that the controller can pass, or nodes fail to launch or never join the cluster. ` +
    "Use `role` instead (leave both unset for the node role, the default), or make sure of both yourself."
  );
}

/**
 * The installation's node role name when known at synth: a literal, or the name of the IamRole its
 * token refers to, with the cluster name filled in when that is a literal (the default role is
 * named `KarpenterNodeRole-<cluster name>` from the cluster's name attribute).
 */
function literalRoleName(karpenter: IKarpenterInstallation): string | undefined {
  const name = karpenter.nodeRoleName;
  if (!Token.isUnresolved(name)) return name;
  // a resource attribute resolves to its reference text, "${aws_iam_role.<id>.name}": compare those
  const stack = TerraformStack.of(karpenter);
  const resolve = (x: unknown): unknown => resolvedReference(stack, x);
  const ref = resolve(name);
  const role = karpenter.node
    .findAll()
    .find((x): x is IamRole => x instanceof IamRole && TerraformStack.of(x) === stack && resolve(x.name) === ref);
  const given = role?.nameInput;
  if (given === undefined) return undefined;
  let text = resolve(given);
  const cluster = karpenter.cluster;
  if (
    typeof text === "string" &&
    cluster.clusterNameLiteral !== undefined &&
    TerraformStack.of(cluster.resource) === stack
  ) {
    const clusterRef = resolve(cluster.clusterName);
    if (typeof clusterRef === "string" && clusterRef !== "")
      text = text.split(clusterRef).join(cluster.clusterNameLiteral);
  }
  return typeof text === "string" && !text.includes("${") ? text : undefined;
}
