import { Construct, IConstruct } from "constructs";
import { ITerraformDependable, TerraformDataSource, TerraformStack, Token } from "cdktf";
import { Release } from "@cdktf/provider-helm/lib/release";
import type { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KarpenterValidationError } from "../core/errors";
import { IKarpenterCluster } from "../cluster/karpenter-cluster";
import { IKarpenterInstallation } from "../cluster/karpenter-installation";
import { KarpenterNodeRole } from "../aws/karpenter-node-role";
import { KarpenterControllerRole } from "../aws/karpenter-controller-role";
import { InterruptionQueue } from "../aws/interruption-queue";
import { SpotServiceLinkedRole } from "../aws/spot-service-linked-role";
import {
  DEFAULT_KARPENTER_NAMESPACE,
  KarpenterCrdRelease,
  KarpenterCrdReleaseProps,
} from "../helm/karpenter-crd-release";
import { DEFAULT_SERVICE_ACCOUNT_NAME, KarpenterRelease } from "../helm/karpenter-release";
import { KubernetesToleration } from "../helm/karpenter-settings";
import { SystemNodeGroup } from "../cluster/system-node-group";
import { AddEc2NodeClassProps, Ec2NodeClass } from "../nodes/ec2-node-class";
import { AddNodePoolProps, NodePool } from "../nodes/node-pool";
import { AddNodeOverlayProps, NodeOverlay } from "../nodes/node-overlay";
import { AddCapacityBufferProps, CapacityBuffer } from "../nodes/capacity-buffer";
import { chartFullName } from "../helm/helm";
import { effectiveGate, GateSection } from "../helm/controller-env";
import { sameInstallTarget } from "../cluster/cluster-identity";
import { onePerClusterProblems, registerInstall } from "../cluster/install-index";
import { chooseProvider, ownsProviderChoice } from "../core/provider-choice";
import { attributeAccountNames } from "../aws-api/account-names";
import { queueOptionsOf } from "./existing-queue";
import { nameFromId } from "../kubernetes/value-rules";
import { checkKarpenterProps, systemNodeGroupValues } from "./karpenter-props";
import { buildAsPart } from "../core/owner-context";
import { Problems } from "../core/problems";
import { undoOnError } from "../core/undo-on-error";
import { typedValues, warnValuesOverlaps } from "../helm/values-overlap";
import { isPlainMap } from "../core/deep-merge";
import { isUnresolved } from "../core/tokens";
import { warnPastSupport, warnUnverifiedVersion } from "./unverified-version";
import { addSynthCheck, addSynthWarning } from "../core/synth-checks";
import { checkInstallNames } from "./install-names";
import { attributeQuota } from "../aws-api/iam-quotas";
import { adoptedOptions, adoptExisting } from "../adopt/adopt-existing";
import { awsProviderFor } from "../cluster/aws-provider";
import { awsLocation } from "../aws-api/aws-context";
import { hasPodIdentityAgent, nodeObjectsOf } from "./install-facts";
import type { KarpenterProps } from "./karpenter-props";
import { CONTROLLER_ROLE_OPTIONS, CREATED_QUEUE_OPTIONS, KARPENTER_PROPS, NODE_ROLE_OPTIONS } from "../core/prop-keys";
import { clusterElement } from "../cluster/cluster-resource";
import { checkPropsReadable, settledProps } from "../core/readable-props";

/*
 * The prop of Karpenter behind each field of a building block it builds (by the field's first
 * segment; an unlisted field keeps its name), for the problems a block reports (buildAsPart).
 */
/** `{ key: "<option>.key" }` for each key of an option object: the block's prop is the option's key. */
const underOption = (option: string, keys: readonly string[]): Readonly<Record<string, string>> =>
  Object.fromEntries(keys.map((key) => [key, `${option}.${key}`]));
const NODE_ROLE_FIELDS = underOption("nodeRole", NODE_ROLE_OPTIONS);
const CONTROLLER_ROLE_FIELDS = underOption("controllerRole", CONTROLLER_ROLE_OPTIONS);
const QUEUE_FIELDS = underOption("interruptionQueue", CREATED_QUEUE_OPTIONS);
const CRD_RELEASE_FIELDS = {
  webhookServiceName: "values.fullnameOverride",
  webhookEnabled: "values.webhook.enabled",
  webhookPort: "values.webhook.port",
};
const CONTROLLER_RELEASE_FIELDS = { nodeSelector: "systemNodeGroup", tolerations: "systemNodeGroup" };

/** Where the two-stack layout is shown: kubernetes_manifest needs the CRDs at plan time. */
const TWO_STACKS =
  "the example app in this library's repository (a cluster stack with Karpenter, and a nodes stack for NodePools and EC2NodeClasses)";

/**
 * Karpenter on an EKS cluster in one line: `new Karpenter(stack, "karpenter", { cluster })`.
 *
 * Builds the node role with its access entry ({@link KarpenterNodeRole}), the controller role with
 * the version's official policy and its Pod Identity association or IRSA trust
 * ({@link KarpenterControllerRole}), the interruption queue and its rules ({@link InterruptionQueue}),
 * the CRD release ({@link KarpenterCrdRelease}), the controller release ({@link KarpenterRelease}) and
 * optionally the spot service-linked role — with every name taken from the graph: the queue's name
 * is `settings.interruptionQueue`, the association's service account and namespace are the chart's.
 *
 * The controller release waits for the CRD release, the controller identity (association or IRSA
 * role attachments), the node access entry, the queue policy and event targets, and the system node
 * group, so the controller never starts without credentials, without a queue, or with nowhere to run.
 * Node objects added with {@link addEc2NodeClass} / {@link addNodePool} are ordered after the
 * controller release, so `terraform destroy` removes NodePools, then EC2NodeClasses (whose finalizer
 * waits for their nodes), then the controller: no orphaned instances.
 *
 * One install per cluster: the CRDs are cluster-scoped, and the IAM, queue and Helm release names
 * derive from the cluster name, so a second `Karpenter` (or a `KarpenterRelease` used on its own) for
 * the same cluster (same cluster resource, or the same literal cluster name on the same AWS region and
 * account, in any stack) fails at synth.
 * The same cluster name in another region is another cluster, but IAM names are account-wide: the
 * second install then needs its own `nodeRole.roleName`, `controllerRole.roleName` and
 * `controllerRole.policyNameSuffix` (and its system node group its own `roleName`), unless the AWS
 * providers are known to use different accounts; a clash fails at synth, naming both installs.
 *
 * Providers: every AWS resource and data source uses the cluster's AWS provider (the `provider` of
 * its `EksCluster` or of `fromClusterName`), both Helm releases `helmProvider`. Without
 * `helmProvider`, the stack's default Helm provider is used only when it is the stack's only one and
 * no other install of the stack relies on it; otherwise synth fails naming `helmProvider` (see
 * docs/fleets.md).
 *
 * The Karpenter version must support the cluster's Kubernetes version when both are known at synth
 * (a literal `version` on the `EksCluster`): otherwise Karpenter runs unsupported, nothing stopping its
 * controller (Karpenter compatibility matrix). An `EksCluster` without `version` gets the EKS default version at create
 * time: synth warns when this Karpenter version does not support the newest Kubernetes it knows.
 *
 * Every problem of the props is reported at once, before any building block exists: one
 * KarpenterValidationError (its `problems` lists them), each on this construct's path and the prop
 * set here (`namespace`, `nodeRole.roleName`, `values.replicas`), also for checks a building block
 * makes.
 *
 * @throws KarpenterValidationError for a missing `cluster`, bad props (see each building block), a
 * prop or option key outside the interfaces (with a "did you mean" when one is close, or the option
 * object the key belongs in, e.g. `roleName` → `nodeRole.roleName or controllerRole.roleName`;
 * TypeScript does not catch it in props passed as a variable), `values` holding a cycle (an object inside itself, named by its path), `values` that leave the controller unschedulable
 * on the system node group, a
 * Karpenter version that does not support the cluster's literal Kubernetes version, or AWS names of
 * the install that break the AWS rules — all name problems in one error, each on the prop to set
 * (`nodeRole.roleName`, `controllerRole.roleName`, `controllerRole.policyNameSuffix`,
 * `interruptionQueue.queueName`, `interruptionQueue.ruleNamePrefix`); at synth, for more
 * replicas than the system node group has nodes, an ambiguous Helm provider (no `helmProvider` while the
 * stack holds several Helm providers, only an aliased one, or another install relying on the default),
 * a cluster of another stack while this stack's AWS provider is ambiguous, a second install for the same cluster, or an IAM
 * name (role, policy, spot service-linked role) another construct of the app creates in the same (or
 * an unknown) account. Warns at synth when Pod Identity is used and the app has no
 * `eks-pod-identity-agent` add-on for the cluster, when node objects of this install are in its own
 * stack (the first deploy fails at plan), when a NodePool of this install sets `replicas` without
 * `settings.featureGates.staticCapacity: true`, when an existing interruption queue is in another
 * region or account than the cluster, when the cluster's Kubernetes version is newer than the
 * compatibility matrix this library knows, and when an `EksCluster` without `version` may get a
 * Kubernetes version this Karpenter does not support. A `Karpenter` whose constructor throws removes
 * itself from the tree, with the shared data sources (partition, region, caller identity) its building
 * blocks made, so a caller that catches the error synthesizes nothing half-built and may retry with the same id.
 */
export class Karpenter extends Construct implements IKarpenterInstallation {
  /** The cluster Karpenter is installed on (the `cluster` prop): names, ARN and the resource every piece depends on. */
  public readonly cluster: IKarpenterCluster;
  /** The Karpenter version, e.g. `"1.14.1"`. */
  public readonly version: string;
  /** The namespace of both releases. */
  public readonly namespace: string;
  /** The controller's ServiceAccount name. */
  public readonly serviceAccountName: string;
  /** The node role and its access entry. */
  public readonly nodeRole: KarpenterNodeRole;
  /** The node role name (EC2NodeClass `spec.role`). */
  public readonly nodeRoleName: string;
  /** The controller role, its policies and identity binding. */
  public readonly controllerRole: KarpenterControllerRole;
  /** The interruption queue created by this install; undefined with `InterruptionQueueConfig.disabled()` or `.existing()`. */
  public readonly interruptionQueue?: InterruptionQueue;
  /** The name written to `settings.interruptionQueue` (created or existing queue); undefined when interruption handling is off. */
  public readonly interruptionQueueName?: string;
  /** The spot service-linked role, when `spotServiceLinkedRole: true`. */
  public readonly spotServiceLinkedRole?: SpotServiceLinkedRole;
  /** True when this install creates the spot service-linked role. */
  public readonly createsSpotServiceLinkedRole: boolean;
  /**
   * Whether the AWS feature gate NodeClassCEL ends up on in the controller (`settings.awsFeatureGates.nodeClassCEL`,
   * `values` merged last; an `AWS_FEATURE_GATES` entry of `values.controller.env` replaces the chart's gate string):
   * EC2NodeClass kubelet expressions need it; undefined when a token or a `valueFrom` decides.
   */
  public readonly nodeClassCel?: boolean;
  /**
   * Whether the feature gate NodeOverlay ends up on in the controller (`settings.featureGates.nodeOverlay`, `values`
   * merged last; a `FEATURE_GATES` entry of `values.controller.env` replaces the chart's gate string): NodeOverlays
   * need it; undefined when a token or a `valueFrom` decides.
   */
  public readonly nodeOverlayGate?: boolean;
  /**
   * Whether the feature gate CapacityBuffer ends up on in the controller (`settings.featureGates.capacityBuffer`,
   * `values` merged last; a `FEATURE_GATES` entry of `values.controller.env` replaces the chart's gate string):
   * CapacityBuffers need it; undefined when a token or a `valueFrom` decides.
   */
  public readonly capacityBufferGate?: boolean;
  /** The construct that wraps the `karpenter-crd` chart (version, namespace; its `release` is {@link crdRelease}). */
  public readonly crdChart: KarpenterCrdRelease;
  /** The construct that wraps the `karpenter` chart (values, replicas, full name; its `release` is {@link release}). */
  public readonly controllerChart: KarpenterRelease;
  /** The raw `helm_release` of the CRD chart (`crdChart.release`), for `depends_on` or escape hatches. */
  public readonly crdRelease: Release;
  /** The raw `helm_release` of the controller chart (`controllerChart.release`): node objects are ordered after it. */
  public readonly release: Release;
  /** The Helm provider of both releases; undefined: the stack's default. */
  public readonly helmProvider?: HelmProvider;
  /** The discovery tag key of the default EC2NodeClass selector terms (`discoveryTagKey`). */
  public readonly discoveryTagKey?: string;
  private readonly systemNodeGroup?: SystemNodeGroup;
  /** The ARN of an existing interruption queue (`interruptionQueue.existingQueueArn`). */
  private readonly existingQueueArn?: string;
  /** Whether the StaticCapacity feature gate ends up on in the controller (as {@link nodeOverlayGate}): undefined when a token decides. */
  private readonly staticCapacity?: boolean;
  /** The prop the deployed replica count comes from: `values.replicas` (merged last) when set, else `replicas`. */
  private readonly replicasField: string = "replicas";

  constructor(scope: Construct, id: string, props: KarpenterProps) {
    super(scope, id);
    const undo = undoOnError(this);
    try {
      // a place that throws when read is refused first, alone: every check below would crash on it
      checkPropsReadable(this, props, KARPENTER_PROPS);
      // read once: what is checked is what is written, here and in every building block it passes them to
      props = settledProps(props, KARPENTER_PROPS);
      // every problem of the props at once, each on this construct and the prop set, before any building block exists
      const problems = new Problems();
      const { version: checked, cluster: checkedCluster } = checkKarpenterProps(this, props, problems);
      const cluster = props?.cluster;
      const queueOptions = queueOptionsOf(this, props?.interruptionQueue, problems);
      // the options and the names derived from them are checked whenever the cluster and version are known
      const options =
        checked && checkedCluster
          ? problems.check(() =>
              adoptedOptions(
                this,
                props.adopt,
                {
                  nodeRole: props.nodeRole,
                  controllerRole: props.controllerRole,
                  interruptionQueue: queueOptions,
                  identity: props.identity,
                  clusterNameLiteral: cluster.clusterNameLiteral,
                  namespace: props.namespace ?? DEFAULT_KARPENTER_NAMESPACE,
                  version: checked.full,
                },
                checked.minor,
              ),
            )
          : undefined;
      if (checked && options) {
        const { nodeRole, controllerRole, interruptionQueue } = options;
        problems.check(() =>
          checkInstallNames(this, {
            cluster,
            version: checked,
            nodeRole: nodeRole ?? {},
            controllerRole: controllerRole ?? {},
            queue: interruptionQueue && !("existingQueueArn" in interruptionQueue) ? interruptionQueue : undefined,
          }),
        );
      }
      // checked once: the CRD release gets what it returned
      const webhook = checked ? problems.check(() => crdWebhook(this, checked.minor, props.values)) : undefined;
      problems.throwIfAny(this);
      if (!checked || !options) throw new Error("unreachable: a failed check is thrown above");
      const version = checked;
      warnUnverifiedVersion(this, version);
      warnPastSupport(this, version);
      this.cluster = props.cluster;
      this.version = version.full;
      this.namespace = props.namespace ?? DEFAULT_KARPENTER_NAMESPACE;
      this.serviceAccountName = props.serviceAccountName ?? DEFAULT_SERVICE_ACCOUNT_NAME;
      this.systemNodeGroup = props.systemNodeGroup;
      if (isPlainMap(props.values) && props.values.replicas !== undefined) this.replicasField = "values.replicas";
      const tags = props.tags;
      this.discoveryTagKey = props.discoveryTagKey;
      // the install chooses the providers of its building blocks: AWS from the cluster, Helm from helmProvider
      ownsProviderChoice(this, ["aws", "helm"]);
      const provider = awsProviderFor(scope, this, cluster, undefined, "cluster");
      this.helmProvider = chooseProvider(scope, this, "helm", "helmProvider", props.helmProvider, cluster.resource);
      const {
        nodeRole: nodeRoleOptions,
        controllerRole: controllerRoleOptions,
        interruptionQueue: queueOption,
      } = options;
      // values wins over the typed props it overlaps: say so, on the props set here
      warnValuesOverlaps(
        this,
        [
          ...typedValues(["replicas"], "replicas", props.replicas),
          ...typedValues(["dnsPolicy"], "dnsPolicy", props.dnsPolicy),
          ...typedValues(["controller", "resources"], "controllerResources", props.controllerResources),
          ...typedValues(["settings"], "settings", props.settings),
          ...(props.systemNodeGroup
            ? systemNodeGroupValues(props.systemNodeGroup, systemTolerations(props.systemNodeGroup), props.values)
            : []),
        ],
        props.values,
      );

      // each building block reports a check only it makes (a Sid the version's policy already uses) on
      // this construct, under the prop set here: the second argument maps its fields to those props
      // the options spread first, the wired values after them: a stray key cannot override what is wired
      this.nodeRole = buildAsPart(
        this,
        "node-role",
        NODE_ROLE_FIELDS,
        () =>
          new KarpenterNodeRole(this, "node-role", {
            ...nodeRoleOptions,
            cluster,
            version: this.version,
            tags,
            provider,
          }),
      );
      this.nodeRoleName = this.nodeRole.roleName;

      const existingQueue = queueOption && "existingQueueArn" in queueOption ? queueOption : undefined;
      this.existingQueueArn = existingQueue?.existingQueueArn;
      // what the controller sees: a FEATURE_GATES / AWS_FEATURE_GATES entry of values.controller.env replaces the
      // gate string the chart builds from the settings (helm/controller-env.ts)
      const gate = (section: GateSection, key: string) =>
        effectiveGate(version, section, key, props.settings, props.values);
      this.staticCapacity = gate("featureGates", "staticCapacity");
      this.nodeClassCel = gate("awsFeatureGates", "nodeClassCEL");
      this.nodeOverlayGate = gate("featureGates", "nodeOverlay");
      this.capacityBufferGate = gate("featureGates", "capacityBuffer");
      if (queueOption && !existingQueue)
        this.interruptionQueue = buildAsPart(
          this,
          "interruption-queue",
          QUEUE_FIELDS,
          () =>
            new InterruptionQueue(this, "interruption-queue", {
              ...queueOption,
              cluster,
              version: this.version,
              tags,
              provider,
            }),
        );
      const queue = existingQueue
        ? {
            queueName: existingQueue.existingQueueName,
            queueArn: existingQueue.existingQueueArn,
            kmsKeyArn: existingQueue.kmsKeyArn,
          }
        : this.interruptionQueue;
      this.interruptionQueueName = queue?.queueName;

      this.controllerRole = buildAsPart(
        this,
        "controller-role",
        CONTROLLER_ROLE_FIELDS,
        () =>
          new KarpenterControllerRole(this, "controller-role", {
            ...controllerRoleOptions,
            cluster,
            version: this.version,
            nodeRole: this.nodeRole,
            interruptionQueue: queue,
            identity: props.identity,
            namespace: this.namespace,
            serviceAccountName: this.serviceAccountName,
            tags,
            provider,
          }),
      );

      this.createsSpotServiceLinkedRole = props.spotServiceLinkedRole ?? false;
      if (this.createsSpotServiceLinkedRole)
        this.spotServiceLinkedRole = buildAsPart(
          this,
          "spot-service-linked-role",
          {},
          () => new SpotServiceLinkedRole(this, "spot-service-linked-role", { tags, provider }),
        );
      this.attributeIamNames();

      this.crdChart = buildAsPart(
        this,
        "crds",
        CRD_RELEASE_FIELDS,
        () =>
          new KarpenterCrdRelease(this, "crds", {
            version: this.version,
            namespace: this.namespace,
            createNamespace: this.namespace !== DEFAULT_KARPENTER_NAMESPACE || undefined,
            repository: props.repository,
            helmProvider: this.helmProvider,
            ...webhook,
          }),
      );
      this.crdRelease = this.crdChart.release;

      const system = props.systemNodeGroup;
      const waitFor = this.byStack([
        this.crdRelease,
        ...this.controllerRole.dependables,
        this.nodeRole.accessEntry,
        ...(this.interruptionQueue?.dependables ?? []),
        ...(this.spotServiceLinkedRole ? [this.spotServiceLinkedRole.role] : []),
        ...(system ? [system.nodeGroup] : []),
      ]);
      this.controllerChart = buildAsPart(
        this,
        "controller",
        CONTROLLER_RELEASE_FIELDS,
        () =>
          new KarpenterRelease(this, "controller", {
            cluster,
            version: this.version,
            namespace: this.namespace,
            repository: props.repository,
            serviceAccountName: this.serviceAccountName,
            irsaRoleArn: this.controllerRole.identityType === "irsa" ? this.controllerRole.roleArn : undefined,
            interruptionQueue: queue,
            replicas: props.replicas,
            controllerResources: props.controllerResources,
            dnsPolicy: props.dnsPolicy,
            settings: props.settings,
            nodeSelector: system ? { ...system.labels } : undefined,
            tolerations: system ? systemTolerations(system) : undefined,
            values: props.values,
            helmProvider: this.helmProvider,
            dependsOn: waitFor.here,
          }),
      );
      this.release = this.controllerChart.release;
      if (props.adopt) {
        const { nodeRole, controllerRole, interruptionQueue, crdRelease, release } = this;
        adoptExisting(this, props.adopt, {
          cluster,
          nodeRole,
          controllerRole,
          interruptionQueue,
          crdRelease,
          release,
          policyNameSuffix: controllerRoleOptions?.policyNameSuffix,
        });
      }
      // last: a stack dependency outlives a construct removed on error
      for (const other of waitFor.otherStacks) TerraformStack.of(this).addDependency(other);

      registerInstall(this);
      addSynthCheck(this, () => this.crossChecks());
      for (const warning of [
        () => this.podIdentityAgentWarning(),
        () => this.nodeObjectsInThisStackWarning(),
        () => this.staticNodePoolsWarning(),
        () => this.queueLocationWarning(),
      ])
        addSynthWarning(this, () => {
          const message = warning();
          return message === undefined ? undefined : { on: this, message };
        });
    } catch (e) {
      // a caller that catches the error must not find (and synthesize) a half-built install, nor the shared data sources made for it
      undo();
      throw e;
    }
  }

  /**
   * IAM names clash across the account (every region): report a clash of the roles and policies this
   * install creates on the prop that renames them. A clash with another install on the same cluster
   * is left to the one-install-per-cluster error.
   */
  private attributeIamNames(): void {
    const reportedElsewhere = (other: IConstruct) =>
      other instanceof Karpenter && sameInstallTarget(other.cluster, this.cluster);
    attributeAccountNames(this.nodeRole, { owner: this, fieldOf: (f) => `nodeRole.${f}`, reportedElsewhere });
    attributeAccountNames(this.controllerRole, {
      owner: this,
      fieldOf: (f) => `controllerRole.${f}`,
      reportedElsewhere,
    });
    attributeQuota(this.nodeRole, this, "nodeRole");
    attributeQuota(this.controllerRole, this, "controllerRole");
    if (this.spotServiceLinkedRole) {
      attributeAccountNames(this.spotServiceLinkedRole, {
        owner: this,
        fieldOf: () => "spotServiceLinkedRole",
        value: true,
        advice:
          "set spotServiceLinkedRole: false on all but one install in the account (the role exists once per account, its name fixed by AWS)",
        reportedElsewhere,
      });
    }
  }

  /**
   * Splits what the controller release waits for: the dependables of this stack go into `depends_on`;
   * for one in another stack the stacks are ordered instead (Terraform cannot depend on a resource of
   * another state) — by the caller, once the release exists, so that an error leaves no stack dependency.
   */
  private byStack(dependables: ITerraformDependable[]): {
    here: ITerraformDependable[];
    otherStacks: TerraformStack[];
  } {
    const stack = TerraformStack.of(this);
    const here = dependables.filter((d) => TerraformStack.of(d as unknown as IConstruct) === stack);
    const otherStacks = dependables
      .map((d) => TerraformStack.of(d as unknown as IConstruct))
      .filter((s) => s !== stack);
    return { here, otherStacks };
  }

  private crossChecks(): KarpenterValidationError[] {
    const errors: KarpenterValidationError[] = [...onePerClusterProblems(this)];
    const replicas = this.controllerChart.replicas;
    const system = this.systemNodeGroup;
    if (system && !Token.isUnresolved(replicas) && replicas > system.size) {
      errors.push(
        new KarpenterValidationError(
          "INSTALL_REPLICAS_ABOVE_SYSTEM_NODES",
          this,
          this.replicasField,
          replicas,
          `at most ${system.size}, the nodes the system node group ${system.node.path} guarantees: the chart's pod anti-affinity puts each replica on its own node; raise the group's size or lower ${this.replicasField}`,
        ),
      );
    }
    return errors;
  }

  /** Pod Identity needs the eks-pod-identity-agent add-on: said when the app has none for the cluster. */
  private podIdentityAgentWarning(): string | undefined {
    if (this.controllerRole.identityType !== "podIdentity" || this.hasPodIdentityAgent()) return undefined;
    return this.cluster.resource instanceof TerraformDataSource
      ? `the controller uses EKS Pod Identity, and ${this.cluster.clusterNameLiteral !== undefined ? `cluster ${this.cluster.clusterNameLiteral}` : "the cluster"} is not created by this app (read with a data source): make sure the eks-pod-identity-agent add-on is installed on it, or add an EksAddon "eks-pod-identity-agent" for it, or use identity: { type: "irsa" }`
      : `the controller uses EKS Pod Identity but the app has no EksAddon "eks-pod-identity-agent" for this cluster: without the agent the controller gets no AWS credentials; add the add-on or use identity: { type: "irsa" }`;
  }

  /**
   * The EC2NodeClasses and NodePools of this install, anywhere in the app, in tree order: a class
   * whose `karpenter` is this install; a pool ordered after this release or one of those classes
   * (depends_on within one stack), or naming one of those classes from a stack that depends on the
   * class's stack (the stack dependency the NodePool adds across stacks).
   */
  private nodeObjects(): (Ec2NodeClass | NodePool | NodeOverlay | CapacityBuffer)[] {
    return nodeObjectsOf(this);
  }

  /**
   * kubernetes_manifest reads the CRDs (and the cluster) at plan time, so node objects in the stack
   * that installs the CRDs fail the first plan. A warning: `-target` the releases first also works.
   */
  private nodeObjectsInThisStackWarning(): string | undefined {
    const stack = TerraformStack.of(this);
    const mine = this.nodeObjects().filter((c) => TerraformStack.of(c) === stack);
    if (mine.length === 0) return undefined;
    return `${mine.map((c) => c.node.path).join(", ")} ${mine.length === 1 ? "is" : "are"} in stack ${stack.node.id} together with the Karpenter CRD release: kubernetes_manifest needs the CRDs (and the cluster) at plan time, so the first deploy fails at plan. Put node classes and pools in a stack that depends on this one, as in ${TWO_STACKS}: \`new Ec2NodeClass(nodesStack, "default", { karpenter })\` (the stack dependency is added for you); or apply this stack with -target on the Helm releases first, then apply again`;
  }

  /**
   * A NodePool with `replicas` is a static NodePool, which Karpenter provisions only with the
   * StaticCapacity feature gate on (alpha, off by default; Karpenter docs, "NodePools: spec.replicas"
   * and "Settings: Feature Gates"). Without it the pool keeps no nodes.
   */
  private staticNodePoolsWarning(): string | undefined {
    if (this.staticCapacity !== false) return undefined;
    const pools = this.nodeObjects().filter((c): c is NodePool => c instanceof NodePool && hasReplicas(c));
    if (pools.length === 0) return undefined;
    const list = pools.map((p) => `${p.node.path} (NodePool ${p.name})`).join(", ");
    return `${list} ${pools.length === 1 ? "sets" : "set"} replicas (a static NodePool), but the StaticCapacity feature gate of this install is off (settings.featureGates.staticCapacity is not true, or a FEATURE_GATES entry of values.controller.env, which replaces the chart's gate string, does not set StaticCapacity=true): Karpenter ${this.version} provisions static NodePools only with the StaticCapacity feature gate (alpha, off by default), so the pool keeps no nodes. Set settings: { featureGates: { staticCapacity: true } }, or drop replicas`;
  }

  /**
   * The controller finds the interruption queue by name (`settings.interruptionQueue`) in its own
   * region and account: an existing queue elsewhere is never read, and interruption events are lost.
   * Compared with the literal region and account of the AWS provider the cluster uses.
   */
  private queueLocationWarning(): string | undefined {
    const arn = this.existingQueueArn;
    if (arn === undefined || isUnresolved(arn)) return undefined;
    const m = /^arn:[^:]+:sqs:([^:]+):(\d{12}):/.exec(arn);
    if (!m) return undefined;
    const here = awsLocation(clusterElement(this.cluster));
    const problems = [
      ...(here.region !== undefined && here.region !== m[1]
        ? [`region ${m[1]}, not the cluster's ${here.region}`]
        : []),
      ...(here.account !== undefined && here.account !== m[2]
        ? [`account ${m[2]}, not the cluster's ${here.account}`]
        : []),
    ];
    if (problems.length === 0) return undefined;
    return `interruptionQueue.existingQueueArn ${arn} is in ${problems.join(" and ")} (the AWS provider of the cluster): the controller looks the queue up by name in its own region and account, so it never reads this queue and interruption events are lost. Use a queue in the cluster's region and account (the interruption events come from EventBridge in that region), or let this install create one`;
  }

  /**
   * Adds an EC2NodeClass of this install (a child of this construct, id `node-class-<id>`): `role`
   * defaults to the node role, the subnet and security group selectors to the cluster's
   * `karpenter.sh/discovery` tag, and the manifest is ordered after the controller release.
   * See {@link Ec2NodeClassProps}.
   *
   * The class lands in THIS stack, next to the CRD release: `kubernetes_manifest` needs the CRDs (and
   * the cluster) at plan time, so a first deploy of that stack fails at plan (synth warns). For a
   * fresh install put node objects in a stack that depends on this one instead —
   * `new Ec2NodeClass(nodesStack, "default", { karpenter })`, as in the example app in this library's repository — or apply
   * twice (first with `-target` on the Helm releases).
   * @param id the object's name unless `props.name` is given (lower-cased and made DNS-safe)
   * @param props the EC2NodeClass spec and options (everything but `karpenter`)
   * @throws KarpenterValidationError for a spec the version's CRD rejects, or an `id` an earlier call of the same method used
   */
  public addEc2NodeClass(id: string, props: AddEc2NodeClassProps = {}): Ec2NodeClass {
    return new Ec2NodeClass(this, this.childId("node-class", id, "addEc2NodeClass"), {
      ...props,
      name: props.name ?? this.objectName(id),
      karpenter: this,
    });
  }

  /**
   * Adds a NodePool of this install (a child of this construct, id `node-pool-<id>`), ordered after
   * its node class and the controller release. See {@link NodePoolProps}. Like
   * {@link addEc2NodeClass} it lands in this stack, which fails a first deploy at plan (synth warns):
   * prefer `new NodePool(nodesStack, "default", { nodeClass, karpenter })` in a stack that depends on this one.
   * @param id the object's name unless `props.name` is given (lower-cased and made DNS-safe); a pool
   * and a class may share it, as in Kubernetes
   * @param props the NodePool spec and its `nodeClass` (everything but `karpenter`)
   * @throws KarpenterValidationError for a spec the version's CRD rejects, or an `id` an earlier call of the same method used
   */
  public addNodePool(id: string, props: AddNodePoolProps): NodePool {
    return new NodePool(this, this.childId("node-pool", id, "addNodePool"), {
      ...props,
      name: props.name ?? this.objectName(id),
      karpenter: this,
    });
  }

  /**
   * Adds a NodeOverlay of this install (a child of this construct, id `node-overlay-<id>`), checked against this
   * install's version (1.7 or later) and ordered after the controller release. The install must turn on
   * `settings.featureGates.nodeOverlay` (an error otherwise). See {@link NodeOverlayProps}. Like
   * {@link addEc2NodeClass} it lands in this stack, which fails a first deploy at plan (synth warns): prefer
   * `new NodeOverlay(nodesStack, "discount", { karpenter, … })` in a stack that depends on this one.
   * @param id the object's name unless `props.name` is given (lower-cased and made DNS-safe)
   * @param props the NodeOverlay spec (everything but `karpenter`)
   * @throws KarpenterValidationError for a spec the version's CRD rejects, a version before 1.7, or the gate off, or an `id` an earlier call of the same method used
   */
  public addNodeOverlay(id: string, props: AddNodeOverlayProps): NodeOverlay {
    return new NodeOverlay(this, this.childId("node-overlay", id, "addNodeOverlay"), {
      ...props,
      name: props.name ?? this.objectName(id),
      karpenter: this,
    });
  }

  /**
   * Adds a CapacityBuffer of this install (a child of this construct, id `capacity-buffer-<id>`), checked against
   * this install's version (1.14 or later) and ordered after the controller release. The install must turn on
   * `settings.featureGates.capacityBuffer` (an error otherwise). See {@link CapacityBufferProps}. Like
   * {@link addEc2NodeClass} it lands in this stack, which fails a first deploy at plan (synth warns): prefer
   * `new CapacityBuffer(nodesStack, "spare", { karpenter, … })` in a stack that depends on this one.
   * @param id the object's name unless `props.name` is given (lower-cased and made DNS-safe)
   * @param props the CapacityBuffer spec (everything but `karpenter`)
   * @throws KarpenterValidationError for a spec the version's CRD rejects, a version before 1.14, or the gate off, or an `id` an earlier call of the same method used
   */
  public addCapacityBuffer(id: string, props: AddCapacityBufferProps): CapacityBuffer {
    return new CapacityBuffer(this, this.childId("capacity-buffer", id, "addCapacityBuffer"), {
      ...props,
      name: props.name ?? this.objectName(id),
      karpenter: this,
    });
  }

  /**
   * The construct id of an object added by `method` (`<prefix>-<id>`), refused when an earlier call took it:
   * the constructs library's own error names an id the caller never wrote.
   */
  private childId(prefix: string, id: string, method: string): string {
    const child = `${prefix}-${id}`;
    if (this.node.tryFindChild(child) !== undefined)
      throw new KarpenterValidationError(
        "INSTALL_ID_TAKEN",
        this,
        "id",
        id,
        `an id no earlier ${method} call of this Karpenter used: each call adds a construct ${child} here; give another id`,
      );
    return child;
  }

  /** The Kubernetes name derived from an id given to addEc2NodeClass / addNodePool / addNodeOverlay / addCapacityBuffer. */
  private objectName(id: string): string {
    const name = nameFromId(id);
    if (name === "")
      throw new KarpenterValidationError(
        "INSTALL_ID_NAME",
        this,
        "id",
        id,
        "an id that gives a Kubernetes name (letters or digits), or props.name",
      );
    return name;
  }

  /** True when some `aws_eks_addon` of the app installs eks-pod-identity-agent on this cluster. */
  private hasPodIdentityAgent(): boolean {
    return hasPodIdentityAgent(this, this.cluster);
  }
}

/**
 * Karpenter 1.0's CRDs call the controller's conversion webhook: the karpenter-crd chart must name its
 * Service (named after the controller release) and port, and leave the stanza out when the
 * controller's webhook is off. Mirrored from the controller chart's values (`fullnameOverride`,
 * `webhook.enabled`, `webhook.port`; `null` removes the chart's `enabled: true`, so the webhook is off).
 * @throws KarpenterValidationError for a literal `values.webhook.enabled` that is not a boolean, or a port outside 1–65535
 */
function crdWebhook(
  scope: IConstruct,
  minor: number,
  values: Record<string, unknown> | undefined,
): Pick<KarpenterCrdReleaseProps, "webhookServiceName" | "webhookEnabled" | "webhookPort"> {
  if (minor !== 0) return {};
  const name = chartFullName("karpenter", values);
  const webhook = values?.webhook === null ? { enabled: null } : isPlainMap(values?.webhook) ? values.webhook : {};
  const enabled = webhook.enabled === null ? false : webhook.enabled;
  if (enabled !== undefined && typeof enabled !== "boolean" && !isUnresolved(enabled)) {
    throw new KarpenterValidationError(
      "INSTALL_NOT_A_BOOLEAN",
      scope,
      "values.webhook.enabled",
      enabled,
      "true or false (mirrored into the karpenter-crd chart's webhook.enabled)",
    );
  }
  const port = webhook.port === null ? undefined : webhook.port;
  if (
    port !== undefined &&
    !Token.isUnresolved(port) &&
    !(typeof port === "number" && Number.isInteger(port) && port >= 1 && port <= 65535)
  ) {
    throw new KarpenterValidationError(
      "HELM_WEBHOOK_PORT",
      scope,
      "values.webhook.port",
      port,
      "a TCP port, a whole number from 1 to 65535 (mirrored into the karpenter-crd chart's webhook.port)",
    );
  }
  return {
    webhookServiceName: name === "karpenter" ? undefined : name,
    webhookEnabled: enabled as boolean | undefined,
    webhookPort: port as number | undefined,
  };
}

/** Whether a NodePool's manifest sets `spec.replicas` (a token counts). */
function hasReplicas(pool: NodePool): boolean {
  const spec = (pool.manifest.manifestInput as { spec?: unknown } | undefined)?.spec;
  return isPlainMap(spec) && spec.replicas !== undefined && spec.replicas !== null;
}

/** The chart's own toleration (CriticalAddonsOnly) plus one per taint of the system nodes, in Kubernetes spelling. */
function systemTolerations(system: SystemNodeGroup): KubernetesToleration[] | undefined {
  if (system.taints.length === 0) return undefined;
  const effect = {
    NO_SCHEDULE: "NoSchedule",
    NO_EXECUTE: "NoExecute",
    PREFER_NO_SCHEDULE: "PreferNoSchedule",
  } as const;
  return [
    { key: "CriticalAddonsOnly", operator: "Exists" },
    ...system.taints.map((t): KubernetesToleration =>
      t.value
        ? { key: t.key, operator: "Equal", value: t.value, effect: effect[t.effect] }
        : { key: t.key, operator: "Exists", effect: effect[t.effect] },
    ),
  ];
}
