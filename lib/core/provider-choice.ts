import { IConstruct } from "constructs";
import { TerraformDataSource, TerraformProvider, TerraformResource, TerraformStack } from "cdktf";
import { constructName } from "./construct-name";
import { KarpenterValidationError } from "./errors";
import { appIndex, attached, register, registered, stackIndex } from "./app-index";
import { addSynthCheck } from "./synth-checks";

/*
 * Which provider configuration a construct's resources use, the cdktf way: the one given (a prop),
 * else the stack's default one of that type — but only when that default is unambiguous. A construct
 * that relies on the default records that here, and a synth-time check fails when its stack holds
 * several providers of the type, only an aliased one, or (Helm, Kubernetes) when several installs of
 * the stack rely on the same default: each would reach whichever cluster that one provider names.
 */

/** The provider types this library creates resources for. */
export type ProviderKind = "aws" | "helm" | "kubernetes";

const CLASS_NAME: Record<ProviderKind, string> = {
  aws: "AwsProvider",
  helm: "HelmProvider",
  kubernetes: "KubernetesProvider",
};
const A_CLASS: Record<ProviderKind, string> = {
  aws: "an AwsProvider",
  helm: "a HelmProvider",
  kubernetes: "a KubernetesProvider",
};

interface DefaultUse {
  readonly construct: IConstruct;
  readonly kind: ProviderKind;
  readonly prop: string;
  /** What the resources belong to (an install, a cluster): several owners on one default are ambiguous. */
  readonly owner: object;
  /** Whether several owners on one default provider are an error (not for AWS: one region holds many clusters). */
  readonly perCluster: boolean;
}

const REGISTRY = "default-provider-uses";

/** Constructs that choose the providers of some kinds for the building blocks created inside them (a `Karpenter`: AWS and Helm). */
const owners = new WeakMap<IConstruct, readonly ProviderKind[]>();

/** Marks `construct` as choosing the `kinds` of providers of the building blocks inside it: they record nothing themselves for those. */
export function ownsProviderChoice(construct: IConstruct, kinds: readonly ProviderKind[]): void {
  owners.set(construct, kinds);
}

/** The nearest ancestor (or `scope` itself) that chose the providers of `kind`, if any. */
export function chosenAbove(scope: IConstruct, kind: ProviderKind): IConstruct | undefined {
  for (let x: IConstruct | undefined = scope; x; x = x.node.scope) if (owners.get(x)?.includes(kind)) return x;
  return undefined;
}

/**
 * The provider `construct` (about to be created under `scope`) uses for `kind`: `given` when set
 * (it must be a provider of that type in the same stack), else undefined — the stack's default — and
 * the synth-time check of that default is recorded, unless an enclosing construct chose for it.
 * @param owner the cluster or install the resources are for, when known: constructs of two owners
 * relying on one default Helm / Kubernetes provider are an error (constructs of unknown owner join any)
 * @throws KarpenterValidationError when `given` is not a provider of the type or is in another stack
 */
export function chooseProvider<P extends TerraformProvider>(
  scope: IConstruct,
  construct: IConstruct,
  kind: ProviderKind,
  prop: string,
  given: P | undefined,
  owner?: object,
): P | undefined {
  if (given !== undefined && given !== null) {
    checkProvider(scope, construct, kind, prop, given);
    if (kind === "helm" && owner !== undefined && !chosenAbove(scope, kind)) {
      const use: GivenUse = { construct, prop, provider: given, owner };
      register(construct, GIVEN, use);
      addSynthCheck(construct, () => sharedGivenProblems(use));
    }
    return given;
  }
  if (chosenAbove(scope, kind)) return undefined;
  recordDefault(construct, kind, prop, owner ?? construct, kind !== "aws" && owner !== undefined);
  return undefined;
}

/** Records that `construct` relies on its stack's default `kind` provider (see {@link chooseProvider}). */
export function recordDefault(
  construct: IConstruct,
  kind: ProviderKind,
  prop: string,
  owner: object,
  perCluster: boolean,
): void {
  const use: DefaultUse = { construct, kind, prop, owner, perCluster };
  register(construct, REGISTRY, use);
  addSynthCheck(construct, () => defaultProblems(use));
}

/**
 * Checks a provider given in `prop` for resources created under `scope`.
 * @throws KarpenterValidationError when it is not a provider of the type, or is in another stack
 */
export function checkProvider(
  scope: IConstruct,
  where: IConstruct | string,
  kind: ProviderKind,
  prop: string,
  given: TerraformProvider,
): void {
  if (!TerraformProvider.isTerraformProvider(given) || given.terraformResourceType !== kind) {
    throw new KarpenterValidationError(
      "PROVIDER_WRONG_CLASS",
      where,
      prop,
      TerraformProvider.isTerraformProvider(given)
        ? given.node.path
        : // another construct (a NodePool, the install) is named as what it is
          constructName(given) !== undefined
          ? given
          : "(not a provider)",
      `${A_CLASS[kind]} (provider "${kind}")`,
    );
  }
  const mine = TerraformStack.of(scope);
  const theirs = TerraformStack.of(given);
  if (mine !== theirs) {
    throw new KarpenterValidationError(
      "PROVIDER_OTHER_STACK",
      where,
      prop,
      given.node.path,
      `${A_CLASS[kind]} of stack ${mine.node.id}, where the resources are: Terraform configures providers per stack, and ${given.node.path} is in stack ${theirs.node.id}`,
    );
  }
}

/** How a provider is written in Terraform: `helm` or `helm.eu`. */
export function providerName(p: TerraformProvider): string {
  return p.alias ? `${p.terraformResourceType}.${p.alias}` : p.terraformResourceType;
}

function defaultProblems(use: DefaultUse): KarpenterValidationError[] {
  if (!attached(use.construct)) return [];
  const stack = TerraformStack.of(use.construct);
  const all = stackIndex(stack).providers.get(use.kind) ?? [];
  const where = `stack ${stack.node.id}`;
  const fix =
    use.prop === "cluster"
      ? `the cluster is in another stack: read it in this stack with KarpenterCluster.fromClusterName(this stack, id, name, { provider }) naming the AwsProvider of its region and account`
      : `set ${use.prop} to the ${CLASS_NAME[use.kind]} of this cluster`;
  if (all.length > 1) {
    return [
      new KarpenterValidationError(
        "PROVIDER_AMBIGUOUS",
        use.construct,
        use.prop,
        undefined,
        `${A_CLASS[use.kind]}: ${where} holds ${all.length} ${use.kind} providers (${all.map(providerName).join(", ")}), and without ${use.prop} the resources would silently use the default one; ${fix}`,
      ),
    ];
  }
  // cdktf would only say "Found resources without a matching provider construct": name the prop
  if (all.length === 0 && use.kind === "kubernetes") {
    return [
      new KarpenterValidationError(
        "PROVIDER_MISSING",
        use.construct,
        use.prop,
        undefined,
        `${A_CLASS[use.kind]}: ${where} has no ${use.kind} provider, and its resources need one; add a ${CLASS_NAME[use.kind]} for the cluster to ${where} and pass it as ${use.prop} (or leave it the stack's only, unaliased ${use.kind} provider)`,
      ),
    ];
  }
  if (all.length === 1 && all[0].alias) {
    return [
      new KarpenterValidationError(
        "PROVIDER_ONLY_ALIASED",
        use.construct,
        use.prop,
        undefined,
        `${A_CLASS[use.kind]}: the only ${use.kind} provider of ${where} is aliased (${providerName(all[0])}), so resources without a provider would use an unconfigured default one; ${fix}`,
      ),
    ];
  }
  if (!use.perCluster) return [];
  const sharing = sharersOfDefault(use.construct, stack, use.kind).filter((u) => u.owner !== use.owner);
  if (sharing.length === 0) return [];
  const others = [...new Set(sharing.map((u) => u.construct.node.path))];
  return [
    new KarpenterValidationError(
      "PROVIDER_SHARED_DEFAULT",
      use.construct,
      use.prop,
      undefined,
      `${A_CLASS[use.kind]} of its own cluster: ${where} holds several installs relying on the default ${use.kind} provider (${others.join(", ")} too), which reaches one cluster only, so all of them would land there; ${fix} (one provider per cluster)`,
    ),
  ];
}

interface GivenUse {
  readonly construct: IConstruct;
  readonly prop: string;
  readonly provider: TerraformProvider;
  /** The cluster the releases are for. */
  readonly owner: object;
}

const GIVEN = "given-helm-provider-uses";

/**
 * One Helm provider given to the installs of two clusters: it reaches one cluster, so both installs'
 * releases land there (the second fails with "cannot re-use a name that is still in use") and the
 * other cluster gets no Karpenter.
 */
function sharedGivenProblems(use: GivenUse): KarpenterValidationError[] {
  if (!attached(use.construct)) return [];
  const byProvider = appIndex(use.construct, GIVEN, () => {
    const map = new Map<TerraformProvider, GivenUse[]>();
    for (const u of registered<GivenUse>(use.construct, GIVEN))
      if (attached(u.construct)) map.set(u.provider, [...(map.get(u.provider) ?? []), u]);
    return map;
  });
  const others = [
    ...new Set(
      (byProvider.get(use.provider) ?? []).filter((u) => u.owner !== use.owner).map((u) => u.construct.node.path),
    ),
  ];
  if (others.length === 0) return [];
  return [
    new KarpenterValidationError(
      "PROVIDER_HELM_OTHER_CLUSTER",
      use.construct,
      use.prop,
      use.provider.node.path,
      `a HelmProvider of its own cluster: ${others.join(", ")} ${others.length > 1 ? "are" : "is"} for another cluster and ${others.length > 1 ? "use" : "uses"} ${providerName(use.provider)} too, which reaches one cluster only, so both installs would land there; set ${use.prop} to the HelmProvider of this cluster (one provider per cluster)`,
    ),
  ];
}

/** The default-provider users of each stack and kind, indexed once per app state. */
function sharersOfDefault(scope: IConstruct, stack: TerraformStack, kind: ProviderKind): DefaultUse[] {
  const index = appIndex(scope, REGISTRY, () => {
    const byKey = new Map<string, DefaultUse[]>();
    const stackIds = new Map<TerraformStack, number>();
    for (const u of registered<DefaultUse>(scope, REGISTRY)) {
      if (!u.perCluster || !attached(u.construct)) continue;
      const s = TerraformStack.of(u.construct);
      if (!stackIds.has(s)) stackIds.set(s, stackIds.size);
      const key = `${stackIds.get(s)}|${u.kind}`;
      byKey.set(key, [...(byKey.get(key) ?? []), u]);
    }
    return { byKey, stackIds };
  });
  const id = index.stackIds.get(stack);
  return id === undefined ? [] : (index.byKey.get(`${id}|${kind}`) ?? []);
}

/**
 * Puts every resource and data source of `kind` under `construct` that names no provider on
 * `provider` (nothing when it is undefined: they stay on the stack's default).
 */
export function useProvider(construct: IConstruct, kind: ProviderKind, provider: TerraformProvider | undefined): void {
  if (!provider) return;
  const prefix = `${kind}_`;
  for (const c of construct.node.findAll()) {
    if (
      (c instanceof TerraformResource || c instanceof TerraformDataSource) &&
      c.terraformResourceType.startsWith(prefix) &&
      c.provider === undefined
    )
      c.provider = provider;
  }
}
