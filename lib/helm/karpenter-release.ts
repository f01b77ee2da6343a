import { Construct } from "constructs";
import { Annotations, ITerraformDependable } from "cdktf";
import { Release } from "@cdktf/provider-helm/lib/release";
import type { HelmProvider } from "@cdktf/provider-helm/lib/provider";
import { KarpenterValidationError } from "../core/errors";
import { chooseProvider } from "../core/provider-choice";
import { IKarpenterCluster } from "../cluster/karpenter-cluster";
import { DEFAULT_KARPENTER_NAMESPACE, KARPENTER_CHART_REPOSITORY } from "./karpenter-crd-release";
import {
  ControllerResources,
  DEFAULT_CONTROLLER_RESOURCES,
  KarpenterDnsPolicy,
  KarpenterSettings,
  KubernetesToleration,
} from "./karpenter-settings";
import { checkValuePaths, withoutDanglingNulls } from "./chart-values";
import { affinityProblems } from "../kubernetes/object-rules";
import { isPlainMap, mergeHelmValues } from "../core/deep-merge";
import { chartFullName, checkReleaseName, checkRepository, renderValues, ValuesRenderError } from "./helm";
import { checkNamespace, checkServiceAccountName } from "../kubernetes/names";
import { checkOptionKeys, checkRoleArn } from "../aws-api/input-checks";
import { Problems } from "../core/problems";
import { checkedByOwner } from "../core/owner-context";
import { isUnresolved } from "../core/tokens";
import { RELEASE_PROPS } from "../core/prop-keys";
import {
  typedValues,
  warnImageOverridesVersion,
  warnServiceAccountNotCreated,
  warnValuesOverlaps,
} from "./values-overlap";
import { undoOnError } from "../core/undo-on-error";
import { asPartProblems } from "../core/owner-context";
import { isOwnInstall, onePerClusterProblems, registerInstall } from "../cluster/install-index";
import { crdVersionProblems } from "./release-pairs";
import { addSynthCheck } from "../core/synth-checks";
import { checkKubernetesCompatibility, literalKubernetesVersion } from "../cluster/kubernetes-compatibility";
import { checkNotAutoMode } from "../cluster/auto-mode";
import {
  booleanTokensPlain,
  checkDnsConfig,
  checkDnsPolicy,
  checkEscapeHatch,
  checkSettingCombinations,
  checkMap,
  checkMergedResources,
  checkNodeSelector,
  checkReplicas,
  checkTolerations,
  controllerResources,
  podLabelContext,
  throwObjectProblems,
  hasPath,
  IRSA_ROLE_ANNOTATION,
  nonFiniteNumbers,
  settingsValues,
} from "./release-values";
import {
  isNewerThanKnownPatch,
  KarpenterVersion,
  newestKnownPatch,
  resolveKarpenterVersion,
} from "../versions/karpenter-version";
import { requireCluster } from "../cluster/require-cluster";
import { effectiveGate, readControllerEnv } from "./controller-env";
import { checkPropsReadable, settledProps } from "../core/readable-props";

/**
 * The controller's ServiceAccount when none is given: `karpenter`, what the chart names it for a
 * release called `karpenter` (its `serviceAccount.name` default is the chart's full name), as in the
 * Karpenter getting-started guide.
 */
export const DEFAULT_SERVICE_ACCOUNT_NAME = "karpenter";

/** The Helm release name of the controller chart when none is given (Karpenter getting-started guide). */
const DEFAULT_RELEASE_NAME = "karpenter";

/** The interruption queue the controller reads, for {@link KarpenterReleaseProps.interruptionQueue}. */
export interface ReleaseInterruptionQueue {
  /**
   * The SQS queue name (not its URL or ARN), written to `settings.interruptionQueue`: usually
   * `InterruptionQueue.queueName`, a reference, so that the release also waits for the queue.
   */
  readonly queueName: string;
}

/** Props of {@link KarpenterRelease}. */
export interface KarpenterReleaseProps {
  /**
   * The cluster (required): its name becomes `settings.clusterName`; its Kubernetes version, when
   * known at synth, is checked against what the Karpenter version supports.
   * @throws KarpenterValidationError for an `aws_eks_cluster` of the app with EKS Auto Mode
   * (`computeConfig.enabled` literally true: Auto Mode runs its own Karpenter); a token there warns
   */
  readonly cluster: IKarpenterCluster;
  /**
   * The Karpenter version (chart and controller image), e.g. `"1.14.1"`. It decides which `settings`
   * keys and feature gates exist.
   * @default DEFAULT_KARPENTER_VERSION ("1.15.3")
   */
  readonly version?: string;
  /** The release namespace; the CRD release must use the same. @default "kube-system" */
  readonly namespace?: string;
  /** The Helm release name (≤ 53 characters, lower-case). @default "karpenter" */
  readonly releaseName?: string;
  /**
   * The chart repository; override it for a mirror. Pulled anonymously (no credentials). A stale
   * public ECR login of the machine running Terraform makes the pull fail with 403 Forbidden: log out
   * with `helm registry logout public.ecr.aws` (what the Karpenter getting-started guide runs before
   * installing) or `docker logout public.ecr.aws` (Karpenter troubleshooting, "Helm Error When
   * Pulling the Chart").
   * @default "oci://public.ecr.aws/karpenter"
   */
  readonly repository?: string;
  /**
   * The controller's ServiceAccount (`serviceAccount.name`): must be the one the pod identity
   * association or the IRSA trust names.
   * @default "karpenter"
   */
  readonly serviceAccountName?: string;
  /**
   * IRSA only: the controller role ARN, `arn:<partition>:iam::<12-digit account>:role/<optional path/><name>`
   * (a literal is checked; a reference passes), written as the ServiceAccount annotation
   * `eks.amazonaws.com/role-arn`. Leave unset with EKS Pod Identity (the association binds the role).
   * @default no annotation
   */
  readonly irsaRoleArn?: string;
  /**
   * The interruption queue: its name becomes `settings.interruptionQueue` (a reference, so the release
   * also waits for the queue). Unset: no interruption handling.
   * @default none
   */
  readonly interruptionQueue?: ReleaseInterruptionQueue;
  /**
   * Controller replicas. The chart's pod anti-affinity puts each on its own node, so the nodes it may
   * run on must number at least this.
   * @default 2
   */
  readonly replicas?: number;
  /** Controller container resources. @default requests 500m CPU / 512Mi memory, limits 512Mi memory */
  readonly controllerResources?: ControllerResources;
  /**
   * The controller pod's DNS policy. `"Default"` resolves through the node (the VPC resolver), so the
   * controller does not depend on CoreDNS pods, which may themselves wait for capacity only Karpenter
   * can launch (Karpenter troubleshooting, "Failed Resolving STS Credentials with I/O Timeout";
   * upstream issues #2186, #4947). Use `"ClusterFirst"` (the chart's default) on IPv6 clusters or when the controller
   * must resolve in-cluster Services (e.g. a service mesh or an in-cluster proxy) — the reasons upstream
   * went back to ClusterFirst in v0.33. `"None"` needs `values.dnsConfig` with 1 to 3 `nameservers` (IP addresses); under any policy `values.dnsConfig` is held to Kubernetes PodSpec validation (at most 3 nameservers, 32 search domains, options with a name).
   * @default "Default"
   */
  readonly dnsPolicy?: KarpenterDnsPolicy;
  /**
   * Extra node labels the controller pods require (`nodeSelector`), e.g. the system node group's
   * `{ "node-role": "system" }`. Helm merges maps, so the chart's `kubernetes.io/os: linux` stays.
   * Keys are Kubernetes label keys (`[<DNS subdomain prefix>/]<name>`), values label values (empty, or
   * up to 63 letters, digits, `-`, `_`, `.`, starting and ending with a letter or digit).
   * @default none (chart: kubernetes.io/os=linux)
   */
  readonly nodeSelector?: Record<string, string>;
  /**
   * Tolerations of the controller pods. They REPLACE the chart's list (Helm replaces lists), whose
   * only entry is `CriticalAddonsOnly` `Exists`: repeat it if you need it.
   * @default the chart's (CriticalAddonsOnly Exists)
   */
  readonly tolerations?: KubernetesToleration[];
  /**
   * Affinity of the controller pods, merged by Helm into the chart's (node affinity
   * `karpenter.sh/nodepool DoesNotExist`, pod anti-affinity on `kubernetes.io/hostname`); a list
   * given here replaces the chart's list at the same path.
   * @default the chart's
   */
  readonly affinity?: Record<string, unknown>;
  /**
   * Typed chart settings and feature gates, checked against the version. A boolean given as a token
   * (e.g. `boolVariable.value` of a `bool` TerraformVariable) is written as `${tobool(…)}` without quotes, so the
   * chart gets a YAML boolean at apply and a non-boolean fails the plan.
   * @default the chart's
   */
  readonly settings?: KarpenterSettings;
  /**
   * Escape hatch: raw chart values deep-merged LAST, over everything above (maps merge, lists and
   * scalars replace, `null` removes a chart default — Helm's rules). The merged document is checked
   * like the typed props: every path must exist in the version's chart values.yaml (maps that are
   * empty there — annotations, labels, `controller.resources`, `dnsConfig` — and `nodeSelector` take
   * any key; lists are replaced whole; maps values.yaml fills, such as `affinity`, take only its
   * keys), `controller.resources` requests must not exceed their limits, and keys under `settings`
   * are checked against the version, `nodeSelector` keys and values by the Kubernetes label rules, and
   * `logLevel` (and a `LOG_LEVEL` entry of `controller.env`) against the levels the controller accepts: from
   * 1.14 exactly `debug`, `info` or `error`, lower case (kubernetes-sigs/karpenter
   * `pkg/operator/options/options.go` `validLogLevels`; the controller panics at start on any other); before
   * 1.14, whose source the library has not read, also zap's `warn`, `dpanic`, `panic`, `fatal` as before; a number anywhere in it must be finite (JSON has no NaN or Infinity; each is named by
   * its path, e.g. `values.tolerations[0].tolerationSeconds`). `settings.clusterName`, `settings.interruptionQueue`,
   * `serviceAccount.name` and the `eks.amazonaws.com/role-arn` ServiceAccount annotation cannot be
   * overridden here: they are wired (use `cluster`, `interruptionQueue`, `serviceAccountName`,
   * `irsaRoleArn`); nor can `serviceAccount` be removed with `null`, nor (with `irsaRoleArn`)
   * `serviceAccount.annotations`. Under EKS Pod Identity the role annotation would make the AWS SDK
   * prefer web identity over the Pod Identity credentials.
   *
   * A `controller.env` entry replaces the env var the chart writes from a setting, `logLevel` or a feature gate
   * block (`FEATURE_GATES`: the whole gate string): the value it replaces then only warns that it has no effect (it is checked
   * only when the chart cannot render it: a `"`, `\` or `{{`), and the gate rules read the entry's string.
   *
   * Where `values` sets a chart value a typed prop above also sets, `values` wins and synth warns
   * naming both (`values.replicas = 3 overrides replicas = 2…`); the checks of the merged value name
   * `values.<path>`. `controller.image.tag` and `.digest` overlap `version` (the chart pins the image of
   * its version): another tag or a digest warns, since the IAM policy, CRDs and settings follow `version`.
   * `serviceAccount.create: false` warns that the ServiceAccount must then exist outside the app.
   * @default none
   */
  readonly values?: Record<string, unknown>;
  /** Resources the release waits for (CRD release, controller identity, access entry, queue…). @default none */
  readonly dependsOn?: ITerraformDependable[];
  /**
   * Seconds Helm waits for the release's pods to become ready: a whole number, at least 1.
   * @default 300 (provider default)
   */
  readonly timeout?: number;
  /**
   * The Helm provider connected to the cluster this release is for (its Kubernetes API).
   * @default the stack's default Helm provider, when it is the stack's only Helm provider and no
   * other install of the stack relies on it; synth fails naming this prop otherwise (inside
   * `Karpenter`, its own `helmProvider`)
   */
  readonly helmProvider?: HelmProvider;
}

/**
 * The `karpenter` Helm chart (the controller) from `oci://public.ecr.aws/karpenter`, with
 * `skip_crds = true` (the CRDs come from {@link KarpenterCrdRelease}, which must be installed first:
 * pass it in `dependsOn`). Its values are one document built from the typed props — JSON (Helm reads
 * values as YAML, and JSON is YAML), keys sorted, strings quoted, Terraform references kept as `${…}`;
 * block YAML 1.1 only when a number or boolean setting is a token, written unquoted — and every path written
 * exists in the chosen version's chart values.yaml.
 *
 * Source: Karpenter getting-started guide (Helm install: `settings.clusterName`,
 * `settings.interruptionQueue`, controller resources) and `charts/karpenter/values.yaml` per release.
 *
 * Warns (once per app and version) when the version's patch is newer than the newest one this library
 * knows: the chart may not exist, and the newest known patch's facts are assumed.
 *
 * Every problem of the props comes in one error (its `problems` lists them), the checks of the merged
 * values included; a constructor that throws removes the construct from the tree (nothing half-built).
 *
 * Used on its own (not inside a `Karpenter`) it is an install of its cluster: another `Karpenter` or
 * `KarpenterRelease` on the same cluster fails synth, naming both. A `KarpenterCrdRelease` of the app on
 * the same Helm provider (same cluster) at another version fails synth too, naming both releases.
 *
 * @throws KarpenterValidationError for a missing `cluster`; a prop outside {@link KarpenterReleaseProps}; an unsupported version, or one that does not
 * support the cluster's literal Kubernetes version (Karpenter compatibility matrix); a setting or
 * feature gate the version lacks (naming the version that introduced it); a value path the version's
 * values.yaml lacks (naming the version that has it, if any); a bad setting value, quantity, replica
 * count, toleration, name or namespace; a request above its limit (after `values` is merged);
 * `values` that override wired keys (cluster name, queue, ServiceAccount name, IRSA role annotation); a
 * literal `irsaRoleArn` that is not an IAM role ARN; a node selector key or value outside the Kubernetes
 * label rules; a `values.logLevel` the controller refuses; a NaN or ±Infinity in `values` or a map prop; or a token that cannot be written into
 * the values YAML (a list or map token; boolean settings may be tokens)
 */
export class KarpenterRelease extends Construct {
  /** The chart repository: `"oci://public.ecr.aws/karpenter"`; {@link KARPENTER_CHART_REPOSITORY} in TypeScript. */
  public static readonly CHART_REPOSITORY: string = KARPENTER_CHART_REPOSITORY;
  /** The namespace installed into when none is given: `"kube-system"`; {@link DEFAULT_KARPENTER_NAMESPACE} in TypeScript. */
  public static readonly DEFAULT_NAMESPACE: string = DEFAULT_KARPENTER_NAMESPACE;
  /** The controller's service account when none is given: `"karpenter"`; {@link DEFAULT_SERVICE_ACCOUNT_NAME} in TypeScript. */
  public static readonly DEFAULT_SERVICE_ACCOUNT_NAME: string = DEFAULT_SERVICE_ACCOUNT_NAME;
  /** The controller resources used when none are given (requests 500m CPU / 512Mi, limit 512Mi memory); {@link DEFAULT_CONTROLLER_RESOURCES} in TypeScript. */
  public static readonly DEFAULT_CONTROLLER_RESOURCES: ControllerResources = DEFAULT_CONTROLLER_RESOURCES;
  /** The `helm_release` resource. */
  public readonly release: Release;
  /** The cluster the controller runs on (the `cluster` prop). */
  public readonly cluster: IKarpenterCluster;
  /** The chart version, e.g. `"1.14.1"`. */
  public readonly version: string;
  /** The namespace of the release and of every namespaced object of the chart (Deployment, ServiceAccount…). */
  public readonly namespace: string;
  /** The controller's ServiceAccount name (`serviceAccount.name`), e.g. `"karpenter"`. */
  public readonly serviceAccountName: string;
  /** The Helm release name, e.g. `"karpenter"`. */
  public readonly releaseName: string;
  /** The chart's full name for this release (its Deployment and Service name), e.g. `"karpenter"`. */
  public readonly fullName: string;
  /** Controller replicas written to the values, after `values` (a token when given as one). */
  public readonly replicas: number;
  /** The values document written to the release: one string, JSON with sorted keys (block YAML when a number or boolean setting is a token). */
  public readonly valuesYaml: string;

  constructor(scope: Construct, id: string, props: KarpenterReleaseProps) {
    super(scope, id);
    const undo = undoOnError(this);
    try {
      // every problem of the props and of the merged values at once, before the release exists
      const problems = new Problems();
      // built by a Karpenter, which checked the props it passes on (checkKarpenterProps): those checks run there only
      const own = !checkedByOwner(this);
      // a place that throws when read is refused first, alone: every check below would crash on it (a Karpenter
      // refused unreadable props before passing them on)
      if (own) {
        checkPropsReadable(this, props, RELEASE_PROPS);
        // read once: what is checked is what is written (a Karpenter passes its settled props down)
        props = settledProps(props, RELEASE_PROPS);
      }
      problems.check(() => checkOptionKeys(this, "", props, RELEASE_PROPS));
      const cluster = problems.check(() => requireCluster(this, props));
      const version = problems.check(() => resolveKarpenterVersion(this, props?.version));
      if (own && version && cluster)
        problems.check(() => checkKubernetesCompatibility(this, "version", version, cluster));
      if (own && cluster) problems.check(() => checkNotAutoMode(this, "cluster", cluster));
      this.namespace = props?.namespace ?? DEFAULT_KARPENTER_NAMESPACE;
      if (own) problems.check(() => checkNamespace(this, "namespace", this.namespace));
      this.releaseName = props?.releaseName ?? DEFAULT_RELEASE_NAME;
      problems.check(() => checkReleaseName(this, "releaseName", this.releaseName));
      const repository = props?.repository ?? KARPENTER_CHART_REPOSITORY;
      if (own) problems.check(() => checkRepository(this, "repository", repository));
      this.serviceAccountName = props?.serviceAccountName ?? DEFAULT_SERVICE_ACCOUNT_NAME;
      if (own) problems.check(() => checkServiceAccountName(this, "serviceAccountName", this.serviceAccountName));
      if (props?.irsaRoleArn !== undefined) problems.check(() => checkRoleArn(this, "irsaRoleArn", props.irsaRoleArn));
      const replicas = props?.replicas ?? 2;
      if (own) problems.check(() => checkReplicas(this, "replicas", replicas));
      const dnsPolicy = props?.dnsPolicy ?? "Default";
      if (own) problems.check(() => checkDnsPolicy(this, "dnsPolicy", dnsPolicy));
      const resources = problems.check(() => controllerResources(this, props?.controllerResources));
      // the settings that passed their checks, for the combination check when the document below cannot be built
      let readable: Record<string, unknown> | undefined;
      // the entries of values.controller.env, read once for every check below (controller-env.ts)
      const env = readControllerEnv(props?.values);
      const settings =
        version &&
        problems.check(() => settingsValues(this, version, props.settings, (r) => (readable = r), props?.values, env));
      const nodeSelector = problems.check(() => checkNodeSelector(this, props?.nodeSelector));
      const tolerations = problems.check(() => checkTolerations(this, props?.tolerations));
      const affinity = problems.check(() => checkMap(this, "affinity", props?.affinity));
      // the typed prop is rendered like values.affinity: the API server's rules on it (kubernetes/object-rules.ts)
      if (affinity)
        problems.check(() => {
          const labels = podLabelContext(
            isPlainMap(props?.values) ? props.values.podLabels : undefined,
            cluster ? literalKubernetesVersion(cluster) : undefined,
          );
          throwObjectProblems(this, affinityProblems(affinity, "affinity", labels));
          for (const w of labels.warnings ?? []) Annotations.of(this).addWarning(w);
        });
      const timeout = props?.timeout;
      if (
        timeout !== undefined &&
        !isUnresolved(timeout) &&
        !(typeof timeout === "number" && Number.isInteger(timeout) && timeout >= 1)
      ) {
        problems.add(
          new KarpenterValidationError(
            "HELM_TIMEOUT",
            this,
            "timeout",
            timeout,
            "a whole number of seconds, at least 1",
          ),
        );
      }
      const escape = problems.check(() => checkMap(this, "values", props?.values));
      if (own && escape && version)
        problems.check(() =>
          checkEscapeHatch(
            this,
            version,
            escape,
            props.irsaRoleArn !== undefined,
            cluster && !isUnresolved(cluster.clusterName) ? cluster.clusterName : cluster?.clusterNameLiteral,
            props.settings,
            env,
            this.releaseName,
            cluster ? literalKubernetesVersion(cluster) : undefined,
          ),
        );
      // a missing dnsConfig is reported whatever else failed; before the merged document's check, whose typed-subtree
      // check does not repeat what this one reports
      if (own && (escape || props?.values === undefined)) problems.check(() => checkDnsConfig(this, dnsPolicy, escape));

      // what Helm gets is the merged document: check it as a whole too (when its parts could be built), naming the prop each part came from
      let values: Record<string, unknown> | undefined;
      if (version && cluster && resources && settings && (escape || props?.values === undefined)) {
        const generated: Record<string, unknown> = {
          replicas,
          dnsPolicy,
          serviceAccount: {
            name: this.serviceAccountName,
            annotations: props.irsaRoleArn !== undefined ? { [IRSA_ROLE_ANNOTATION]: props.irsaRoleArn } : undefined,
          },
          controller: { resources },
          settings: {
            ...settings,
            clusterName: cluster.clusterName,
            interruptionQueue: props.interruptionQueue?.queueName,
          },
          nodeSelector,
          tolerations,
          affinity,
        };
        values = escape ? withoutDanglingNulls(mergeHelmValues(generated, escape), version.full) : generated;
        const merged = values;
        // the resources rule first: the typed-subtree check of checkValuePaths does not repeat what it reports
        problems.check(() => checkMergedResources(this, merged, escape));
        problems.check(() =>
          checkValuePaths(
            this,
            version.full,
            merged,
            (parts) => (escape && hasPath(escape, parts) ? "values." : "") + parts.join("."),
            problems.all,
          ),
        );
        problems.check(() =>
          checkSettingCombinations(
            this,
            merged.settings,
            (parts) =>
              (escape && hasPath(escape, ["settings", ...parts]) ? "values." : "") + ["settings", ...parts].join("."),
            true,
            // what the controller runs with: a FEATURE_GATES entry of values.controller.env can turn NodeRepair on
            () => effectiveGate(version, "featureGates", "nodeRepair", props.settings, props.values, env),
          ),
        );
      }
      // without the document (a part failed), the combinations are still judged on the settings that passed and
      // values.settings, so that a bad setting does not hide a conflict (fresh8 X1/X6); the failed part is reported already
      const partSettings = settings || readable;
      if (version && values === undefined && partSettings) {
        const escapeSettings = escape && isPlainMap(escape.settings) ? escape.settings : undefined;
        const merged = escapeSettings
          ? mergeHelmValues({ settings: partSettings }, { settings: escapeSettings }).settings
          : partSettings;
        problems.check(() =>
          checkSettingCombinations(
            this,
            merged,
            (parts) =>
              (escapeSettings && hasPath({ settings: escapeSettings }, ["settings", ...parts]) ? "values." : "") +
              ["settings", ...parts].join("."),
            false,
          ),
        );
      }
      // outside the block above, which needs every part of the document: these read values alone (issue 31, item 6:
      // a bad setting no longer hides a bad values.replicas)
      if (own && escape?.replicas !== undefined)
        problems.check(() => checkReplicas(this, "values.replicas", escape.replicas));
      if (own && escape?.dnsPolicy !== undefined && escape.dnsPolicy !== null)
        problems.check(() => checkDnsPolicy(this, "values.dnsPolicy", escape.dnsPolicy));
      // last, so that a value another check already refused (values.replicas = NaN) is named once
      const fromValues = (keys: readonly string[]) => escape !== undefined && hasPath(escape, keys);
      for (const p of nonFiniteNumbers(
        this,
        values ?? escape,
        (keys, path) => (values === undefined || fromValues(keys) ? `values.${path}` : path),
        problems.all,
      ))
        problems.add(p);
      problems.throwIfAny(this); // the catch below undoes the construct
      if (!version || !cluster || !values) throw new Error("unreachable: a failed check is thrown above");
      this.cluster = cluster;
      this.version = version.full;

      // values wins over the typed props it overlaps: say so, here or (inside a Karpenter) on the props set there
      if (own) {
        warnValuesOverlaps(
          this,
          [
            ...typedValues(["replicas"], "replicas", props.replicas),
            ...typedValues(["dnsPolicy"], "dnsPolicy", props.dnsPolicy),
            ...typedValues(["controller", "resources"], "controllerResources", props.controllerResources),
            ...typedValues(["settings"], "settings", props.settings),
            ...typedValues(["nodeSelector"], "nodeSelector", props.nodeSelector),
            ...typedValues(["tolerations"], "tolerations", props.tolerations),
            ...typedValues(["affinity"], "affinity", props.affinity),
          ],
          escape,
        );
      }
      const reporter = own ? this : this.node.scope!;
      warnImageOverridesVersion(reporter, this.version, escape);
      warnServiceAccountNotCreated(reporter, escape, `${this.namespace}/${this.serviceAccountName}`, props.irsaRoleArn);

      this.replicas = values.replicas as number;
      this.fullName = chartFullName(this.releaseName, values);
      try {
        this.valuesYaml = renderValues(booleanTokensPlain(values, version));
      } catch (e) {
        if (!(e instanceof ValuesRenderError)) throw e;
        // name the prop the value came from: the escape hatch, or the typed prop of the same path
        const parts = e.path.split(".");
        const field = escape && hasPath(escape, parts) ? `values.${e.path}` : e.path;
        throw new KarpenterValidationError("HELM_VALUES_RENDER", this, field, e.value, e.message);
      }

      const provider = chooseProvider(scope, this, "helm", "helmProvider", props.helmProvider, cluster.resource);
      this.release = new Release(this, "release", {
        provider,
        name: this.releaseName,
        chart: "karpenter",
        repository,
        version: this.version,
        namespace: this.namespace,
        // the CRDs belong to the karpenter-crd release, which Helm upgrades; the chart's crds/ folder it would not
        skipCrds: true,
        values: [this.valuesYaml],
        timeout: props.timeout,
        dependsOn: props.dependsOn,
      });
      // last, once nothing can fail: said once per app and version
      warnUnknownPatch(this, version);
      // a KarpenterRelease used on its own is an install of its cluster (inside a Karpenter, part of that one)
      registerInstall(this);
      addSynthCheck(this, () => [
        ...(isOwnInstall(this) ? onePerClusterProblems(this) : []),
        ...crdVersionProblems(this),
      ]);
    } catch (e) {
      // a caller that catches the error must not find (and synthesize) a half-built release
      undo();
      // built by a composite (Karpenter): told on it, under its prop
      throw asPartProblems(this, e);
    }
  }
}

const patchWarnings = new WeakMap<object, Set<string>>();

/** A patch newer than the newest one known may not exist yet: say so once per app and version. */
function warnUnknownPatch(scope: Construct, version: KarpenterVersion): void {
  if (!isNewerThanKnownPatch(version)) return;
  const seen = patchWarnings.get(scope.node.root) ?? new Set<string>();
  patchWarnings.set(scope.node.root, seen);
  if (seen.has(version.full)) return;
  seen.add(version.full);
  const known = newestKnownPatch(version);
  Annotations.of(scope).addWarning(
    `Karpenter ${version.full} is newer than the newest 1.${version.minor} patch this library knows (${known}): make sure the chart exists; its IAM policy and settings are assumed to equal ${known}'s`,
  );
}
