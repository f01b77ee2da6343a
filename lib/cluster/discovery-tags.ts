import { Construct } from "constructs";
import { Annotations, TerraformProvider, TerraformStack, Tokenization } from "cdktf";
import type { Subnet } from "@cdktf/provider-aws/lib/subnet";
import { Ec2Tag } from "@cdktf/provider-aws/lib/ec2-tag";
import type { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { IKarpenterCluster } from "./karpenter-cluster";
import { KarpenterValidationError } from "../core/errors";
import { appIndex, attached, register, registered } from "../core/app-index";
import { addSynthCheck, oncePerPass } from "../core/synth-checks";
import { sameInstallTarget } from "./cluster-identity";
import { checkEksClusterName, checkOptionKeys, checkTagKey, isListToken } from "../aws-api/input-checks";
import { TAG_LIMITS } from "../aws-api/tag-rules";
import { NodeClassSelectors, nodeClassSelectors } from "./discovery-selectors";
import { allProblems, Problems } from "../core/problems";
import { DISCOVERY_TAGS_PROPS } from "../core/prop-keys";
import { SECURITY_GROUP_ID, SUBNET_ID } from "../aws-api/aws-ids";
import { useProvider } from "../core/provider-choice";
import { isUnresolved } from "../core/tokens";
import { awsProviderFor } from "./aws-provider";
import { requireCluster } from "./require-cluster";
import { eksClusterOf } from "./cluster-resource";

/** The tag key EC2NodeClass selector terms look for (Karpenter getting-started guide, v1.x). */
export const DISCOVERY_TAG_KEY = "karpenter.sh/discovery";

/** Props of {@link DiscoveryTags}. */
export interface DiscoveryTagsProps {
  /** The cluster; the tag value defaults to its name. */
  readonly cluster: IKarpenterCluster;
  /**
   * The PRIVATE subnets Karpenter may launch nodes into, one `aws_ec2_tag` each (construct ids
   * `subnet-0`, `subnet-1`, … in this order): each element a subnet ID (`"subnet-0123abcd"`) or a
   * reference to one, such as `subnet.id` of a `Subnet` resource of this app (in any stack).
   * Never pass public subnets: nodes would get public IPs.
   *
   * A reference that is exactly a `Subnet`'s `id` is checked against that `Subnet` (named by its
   * construct path in errors): one with `mapPublicIpOnLaunch: true` or the `kubernetes.io/role/elb`
   * tag is refused, and so is one whose tags this app manages — its own `tags`, or its provider's
   * `defaultTags`: the `aws_subnet` would remove the `aws_ec2_tag`'s tag again at its next apply —
   * unless its provider's `ignoreTags` or its `lifecycle.ignoreChanges` covers the key. Tag subnets you
   * create with {@link DiscoveryTags.subnetTags} in their own `tags` instead. Other references are
   * known only at apply and not checked.
   *
   * The list itself must be a literal array so that each subnet gets its own `aws_ec2_tag`: a list
   * token such as `eks.vpcConfig.subnetIds` (or one spread into the array) is refused — pass the
   * subnets one by one, or tag them with {@link DiscoveryTags.subnetTags}. A literal ID must be a
   * subnet ID (`subnet-` and 8 or 17 lower-case hex digits, the rule of the EC2NodeClass's
   * `subnetSelectorTerms` ids); an empty list is refused (leave the prop unset to tag only the
   * security group), and so is a subnet listed twice (two `aws_ec2_tag` for one subnet and key).
   * @default none (only the security group is tagged)
   * @throws KarpenterValidationError for a list token, an empty list, a literal that is not a subnet ID, a `Subnet` object rather than its `id` (`subnets[i]`: pass `subnet.id`), or, by `Subnet` reference, a public subnet, a subnet listed twice, or a `Subnet` whose tags Terraform manages
   */
  readonly subnets?: string[];
  /**
   * The ONE security group Karpenter nodes get: by default the EKS-created cluster security group.
   * Exactly one group carries the tag because every group the selector finds is attached to the
   * nodes, and the EKS-created group already carries `kubernetes.io/cluster/<cluster name>`: a second
   * group with that cluster tag (node security groups made by other tools often have it) makes the
   * AWS Load Balancer Controller fail with "expect exactly one securityGroup tagged with
   * kubernetes.io/cluster/<name>" (kubernetes-sigs/aws-load-balancer-controller, issues #1897, #2948).
   * A literal must be a security group ID (`sg-0123abcd`).
   * @default cluster.clusterSecurityGroupId
   * @throws KarpenterValidationError for a literal that is not a security group ID
   */
  readonly securityGroupId?: string;
  /**
   * The tag value (1 to 256 characters). EC2NodeClasses with the default selector terms select
   * `<tagKey>=<cluster name>`: another value is found only by EC2NodeClasses whose
   * `subnetSelectorTerms` and `securityGroupSelectorTerms` name it. A literal value other than the
   * cluster's literal name is a synth error when an EC2NodeClass of this app uses the default
   * terms on this cluster with this key (the cluster security group holds one value per key), and a
   * synth warning when no EC2NodeClass of the app selects the value.
   * @default cluster.clusterName
   * @throws KarpenterValidationError for an empty value (an EC2NodeClass cannot select an empty tag value) or one longer than 256 characters
   */
  readonly tagValue?: string;
  /**
   * The tag key (1–128 characters, not starting with `aws:`). A subnet carries one value per key,
   * so subnets that several clusters share (a shared VPC) need one key per cluster, e.g.
   * `karpenter.sh/discovery/<cluster name>` (see {@link DiscoveryTags.clusterTagKey}); give the same
   * key to the install (`Karpenter` `discoveryTagKey`) so that its EC2NodeClasses select by it.
   * Synth warns when the cluster's EC2NodeClasses select by tag keys that neither this key nor anything
   * else in the app carries (resources outside the app may carry them).
   * @default "karpenter.sh/discovery"
   */
  readonly tagKey?: string;
  /**
   * The AWS provider of the cluster's region and account, for the tags.
   * @default the cluster's, when the cluster is in this stack; else the stack's only AWS provider
   */
  readonly provider?: AwsProvider;
}

/**
 * Tags existing subnets and exactly one security group with `karpenter.sh/discovery=<cluster>`
 * (one `aws_ec2_tag` each), so the default EC2NodeClass selector terms find them.
 *
 * For subnets this app creates, put {@link DiscoveryTags.subnetTags} into the subnet's own `tags`
 * instead: Terraform's `tags` argument owns every tag of the resource and would remove an
 * `aws_ec2_tag` added beside it.
 *
 * @throws KarpenterValidationError (every problem of the props in one error) for a prop outside the props interface (with a "did you mean" when one is close), a missing `cluster`, subnets that are not a literal array
 * (a list token), a literal that is no subnet ID, a `Subnet` object rather than its `id`, a subnet listed twice, a reference to a public `Subnet` of the app,
 * or to one whose `tags` the app manages (its own `tags` hold the key: two owners of one tag; other own tags or its provider's default tags: the perpetual difference),
 * or an empty tag value or one longer than 256 characters;
 * at synth, for a tag value that EC2NodeClasses of the app with the default selector terms on this cluster do not select, a
 * subnet or security group another cluster's DiscoveryTags tags with the same key, or one (the cluster security group included)
 * that another DiscoveryTags of the same cluster already tags, in any stack of the app
 */
export class DiscoveryTags extends Construct {
  /** The tag key EC2NodeClass selector terms look for: `"karpenter.sh/discovery"`; {@link DISCOVERY_TAG_KEY} in TypeScript. */
  public static readonly DEFAULT_TAG_KEY: string = DISCOVERY_TAG_KEY;
  /**
   * The tag map to merge into the `tags` of private subnets you create yourself:
   * `{ [tagKey]: clusterName }`, e.g. `{ "karpenter.sh/discovery": "demo" }`.
   * @param clusterName the cluster name, the tag value: a literal, or a reference such as
   * `cluster.clusterName` of an {@link IKarpenterCluster} (a literal must be an EKS cluster name:
   * 1–100 letters, digits, `-` and `_`, starting with a letter or digit)
   * @param tagKey the tag key (1–128 characters, not starting with `aws:`); default
   * `"karpenter.sh/discovery"` ({@link DiscoveryTags.DEFAULT_TAG_KEY})
   * @returns a map of one entry, `tagKey` to `clusterName`
   * @throws KarpenterValidationError for a literal cluster name that is no EKS cluster name (e.g. ""),
   * a cluster object rather than its name (pass `cluster.clusterName`), or a tag key AWS refuses
   */
  public static subnetTags(clusterName: string, tagKey: string = DISCOVERY_TAG_KEY): Record<string, string> {
    const where = "DiscoveryTags.subnetTags";
    allProblems(where, (problems) => {
      problems.check(() => checkClusterNameArgument(where, clusterName));
      problems.check(() => checkTagKey(where, "tagKey", tagKey));
    });
    return { [tagKey]: clusterName };
  }

  /**
   * A discovery tag key of one cluster, `karpenter.sh/discovery/<cluster name>`, for subnets that
   * several clusters share (a shared VPC): give it to `DiscoveryTags` (`tagKey`) and to the install
   * (`Karpenter` `discoveryTagKey`) of that cluster.
   * @param clusterName the cluster name (a literal or a reference; a literal must be an EKS cluster
   * name: 1–100 letters, digits, `-` and `_`, starting with a letter or digit)
   * @throws KarpenterValidationError for a literal that is no EKS cluster name (e.g. "Bad Name!")
   */
  public static clusterTagKey(clusterName: string): string {
    checkEksClusterName("DiscoveryTags.clusterTagKey", "clusterName", clusterName);
    return `${DISCOVERY_TAG_KEY}/${clusterName}`;
  }

  /** The tag key written, `karpenter.sh/discovery` unless `tagKey` says otherwise. */
  public readonly tagKey: string;

  /** The tag value written. */
  public readonly tagValue: string;
  /** One `aws_ec2_tag` per subnet, in the order given (the static {@link DiscoveryTags.subnetTags} gives the tag map for a subnet's own `tags`). */
  public readonly subnetTagResources: Ec2Tag[];
  /** The `aws_ec2_tag` on the security group. */
  public readonly securityGroupTag: Ec2Tag;

  constructor(scope: Construct, id: string, props: DiscoveryTagsProps) {
    super(scope, id);
    // every problem of the props at once, before the first tag
    const problems = new Problems();
    problems.check(() => checkOptionKeys(this, "", props, DISCOVERY_TAGS_PROPS));
    const cluster = problems.check(() => requireCluster(this, props));
    const subnets = props?.subnets ?? [];
    this.tagKey = props?.tagKey ?? DISCOVERY_TAG_KEY;
    const key = this.tagKey;
    const references = problems.check(() => checkSubnets(this, props?.subnets, key)) ?? [];
    problems.check(() => checkTagKey(this, "tagKey", key));
    this.tagValue = props?.tagValue ?? cluster?.clusterName ?? "";
    if (
      !isUnresolved(this.tagValue) &&
      (typeof this.tagValue !== "string" || [...this.tagValue].length > TAG_LIMITS.valueLength)
    ) {
      problems.add(
        new KarpenterValidationError(
          "DISCOVERY_TAGS_VALUE",
          this,
          "tagValue",
          this.tagValue,
          `a tag value of at most ${TAG_LIMITS.valueLength} characters`,
        ),
      );
    } else if (props?.tagValue === "") {
      problems.add(
        new KarpenterValidationError(
          "DISCOVERY_TAGS_VALUE_EMPTY",
          this,
          "tagValue",
          this.tagValue,
          `a non-empty tag value: an EC2NodeClass cannot select an empty one (EC2NodeClass CRD: "empty tag keys or values aren't supported"), so Karpenter would never find what these tags mark; leave tagValue unset for the cluster name`,
        ),
      );
    }
    const sg = props?.securityGroupId;
    if (sg !== undefined && !isUnresolved(sg) && (typeof sg !== "string" || !SECURITY_GROUP_ID.pattern.test(sg))) {
      problems.add(
        new KarpenterValidationError(
          "DISCOVERY_TAGS_SECURITY_GROUP_ID",
          this,
          "securityGroupId",
          sg,
          SECURITY_GROUP_ID.text,
        ),
      );
    }
    problems.throwIfAny(this, { remove: true });
    if (!cluster) throw new Error("unreachable: a failed check is thrown above");
    const provider = awsProviderFor(scope, this, cluster, props.provider);
    this.subnetTagResources = subnets.map(
      (s, i) => new Ec2Tag(this, `subnet-${i}`, { resourceId: s, key, value: this.tagValue }),
    );
    const securityGroupId = props.securityGroupId ?? cluster.clusterSecurityGroupId;
    this.securityGroupTag = new Ec2Tag(this, "security-group", {
      resourceId: securityGroupId,
      key,
      value: this.tagValue,
    });
    useProvider(this, "aws", provider);

    // literal IDs (and references to Subnet resources of the app): what another cluster's DiscoveryTags may claim too
    const claims: Claim["targets"] = subnets.map((s, i) => ({
      field: `subnets[${i}]`,
      id: references[i]?.id ?? s,
      shown: references[i]?.shown ?? s,
      kind: "subnet" as const,
    }));
    // the cluster security group is a token until apply: it is the same group wherever the cluster is the same
    claims.push(
      props.securityGroupId === undefined
        ? {
            field: "securityGroupId",
            id: CLUSTER_SECURITY_GROUP,
            shown: "the cluster security group",
            kind: "security group" as const,
            ofCluster: true,
          }
        : { field: "securityGroupId", id: securityGroupId, shown: securityGroupId, kind: "security group" as const },
    );
    const claim: Claim = { tags: this, cluster, targets: claims.filter((t) => !isUnresolved(t.id)) };
    register(this, CLAIMS, claim);
    addSynthCheck(this, () => claimProblems(claim));
    let warned = false;
    addSynthCheck(this, () => {
      const { problems, warning } = valueProblems(this, cluster);
      if (warning && !warned) Annotations.of(this).addWarning(warning);
      warned = warned || warning !== undefined;
      return problems;
    });
    let keyWarned = false;
    addSynthCheck(this, () => {
      const warning = keyWarned ? undefined : keyWarning(this, cluster);
      if (warning) Annotations.of(this).addWarning(warning);
      keyWarned = keyWarned || warning !== undefined;
      return [];
    });
  }
}

/**
 * A warning when EC2NodeClasses of this cluster select subnets and security groups by tag keys that
 * neither these tags (`tagKey`) nor anything else in the app carries: Karpenter then finds nothing
 * for them unless resources outside the app carry those keys, so a warning, not an error. Classes
 * with the default terms on a cluster the app creates are left to their own warning (discovery-evidence).
 */
function keyWarning(tags: DiscoveryTags, cluster: IKarpenterCluster): string | undefined {
  const key = tags.tagKey;
  if (!attached(tags) || isUnresolved(key)) return undefined;
  const classes = nodeClassSelectors(tags)
    .filter((s) => s.cluster !== undefined && sameInstallTarget(s.cluster, cluster))
    .map((s) => ({ s, keys: selectedKeys(s) }));
  // a class selecting this key, or one whose terms are tokens, may well find these tags
  if (classes.length === 0 || classes.some((c) => c.keys === "any" || c.keys.has(key))) return undefined;
  const carried = oncePerPass(CARRIED, () => carriedTagKeys(tags));
  if (carried === "any") return undefined;
  const unmatched = classes.filter(
    (c): c is { s: NodeClassSelectors; keys: Set<string> } =>
      c.keys !== "any" &&
      c.keys.size > 0 &&
      [...c.keys].every((k) => !carried.has(k)) &&
      !(c.s.defaultTerms && eksClusterOf(cluster) !== undefined),
  );
  if (unmatched.length === 0) return undefined;
  // the default value is the cluster's name reference: shown as its literal when known
  const value = !isUnresolved(tags.tagValue)
    ? tags.tagValue
    : tags.tagValue === cluster.clusterName
      ? (cluster.clusterNameLiteral ?? "<cluster name>")
      : "<tagValue>";
  const named = unmatched
    .map((c) => `EC2NodeClass ${c.s.name} (${c.s.nodeClass.node.path}) selects by ${[...c.keys].sort().join(", ")}`)
    .join("; ");
  const keys = [...new Set(unmatched.flatMap((c) => [...c.keys]))].sort();
  return (
    `DiscoveryTags ${tags.node.path} tags subnets and the security group of ${clusterLabelOf(cluster)} with ${key}, but ${named}: nothing in this app carries ${keys.length > 1 ? "those keys" : "that key"}, so unless subnets and a security group outside the app do, Karpenter finds none for ${unmatched.length > 1 ? "them" : "it"} and launches no node. ` +
    `To match, give these DiscoveryTags tagKey: ${JSON.stringify(keys[0])}, or the EC2NodeClass subnetSelectorTerms and securityGroupSelectorTerms { tags: { ${JSON.stringify(key)}: ${JSON.stringify(value)} } } (or its discoveryTagKey: ${JSON.stringify(key)} with the default terms).`
  );
}

/** The tag keys an EC2NodeClass's subnet and security group terms select by; `"any"` when a term or key is a token. */
function selectedKeys(s: NodeClassSelectors): Set<string> | "any" {
  const keys = new Set<string>();
  for (const term of s.terms) {
    if (isUnresolved(term)) return "any";
    const tagsOf = term !== null && typeof term === "object" ? (term as { tags?: unknown }).tags : undefined;
    if (tagsOf === undefined || tagsOf === null || typeof tagsOf !== "object") continue;
    for (const k of Object.keys(tagsOf)) {
      if (isUnresolved(k)) return "any";
      keys.add(k);
    }
  }
  return keys;
}

/** The key of the carried tag keys of one validation pass (the app does not change while checks run). */
const CARRIED = Symbol("carried-tag-keys");

/** Every tag key a construct of the app puts on something (DiscoveryTags, aws_ec2_tag, `tags` maps); `"any"` when one is unknown at synth. */
function carriedTagKeys(scope: Construct): Set<string> | "any" {
  const keys = new Set<string>();
  for (const c of scope.node.root.node.findAll()) {
    const key = c instanceof DiscoveryTags ? c.tagKey : c instanceof Ec2Tag ? c.keyInput : undefined;
    if (key !== undefined) {
      if (isUnresolved(key)) return "any";
      keys.add(key);
      continue;
    }
    const own = (c as { tagsInput?: unknown }).tagsInput;
    if (own === undefined || own === null || typeof own !== "object") continue;
    if (isUnresolved(own)) return "any";
    for (const k of Object.keys(own)) keys.add(k);
  }
  return keys;
}

/**
 * A literal tag value other than the cluster's literal name: EC2NodeClasses with the default
 * selector terms select `<key>=<cluster name>`. An error when such a class of this app is on this
 * cluster with this key (the cluster security group holds one value per key, so it cannot carry
 * both); else a warning when no EC2NodeClass of the app selects the value (classes outside the app may).
 */
function valueProblems(
  tags: DiscoveryTags,
  cluster: IKarpenterCluster,
): { problems: KarpenterValidationError[]; warning?: string } {
  const [key, value, name] = [tags.tagKey, tags.tagValue, cluster.clusterNameLiteral];
  if (!attached(tags) || isUnresolved(key) || isUnresolved(value) || name === undefined || value === name)
    return { problems: [] };
  const selectors = nodeClassSelectors(tags);
  const defaults = selectors.filter(
    (s) => s.defaultTerms && s.tagKey === key && s.cluster !== undefined && sameInstallTarget(s.cluster, cluster),
  );
  if (defaults.length > 0) {
    const classes = defaults.map((s) => `${s.nodeClass.node.path} (EC2NodeClass ${s.name})`).join(", ");
    return {
      problems: [
        new KarpenterValidationError(
          "DISCOVERY_TAGS_VALUE_NOT_CLUSTER",
          tags,
          "tagValue",
          value,
          `the cluster's name ${JSON.stringify(name)}, or unset: ${classes} ${defaults.length > 1 ? "select" : "selects"} subnets and security groups by the default term { ${JSON.stringify(key)}: ${JSON.stringify(name)} }, and these tags write ${JSON.stringify(value)}, so Karpenter finds none of them and launches no node (a subnet or security group holds one value per key). Leave tagValue unset, or give the EC2NodeClass subnetSelectorTerms and securityGroupSelectorTerms naming ${JSON.stringify(value)}`,
        ),
      ],
    };
  }
  const selected = selectors.some((s) => s.terms.some((t) => isUnresolved(t) || selectsValue(t, key, value)));
  if (selected) return { problems: [] };
  return {
    problems: [],
    warning: `DiscoveryTags ${tags.node.path} tags with ${key}=${value}, not the cluster's name ${name}: EC2NodeClasses with the default selector terms select ${key}=${name}, so only an EC2NodeClass whose subnetSelectorTerms and securityGroupSelectorTerms name ${JSON.stringify(value)} finds these subnets and the security group, and none in this app does. Leave tagValue unset unless EC2NodeClasses outside this app select ${JSON.stringify(value)}.`,
  };
}

/** Whether a selector term's tags select `key=value` (the value itself, `*`, or a token). */
function selectsValue(term: unknown, key: string, value: string): boolean {
  const tagsOf = term !== null && typeof term === "object" ? (term as { tags?: unknown }).tags : undefined;
  if (tagsOf === undefined || tagsOf === null || typeof tagsOf !== "object") return false;
  if (isUnresolved(tagsOf)) return true;
  const v = (tagsOf as Record<string, unknown>)[key];
  return v === value || v === "*" || (v !== undefined && isUnresolved(v));
}

interface Claim {
  readonly tags: DiscoveryTags;
  readonly cluster: IKarpenterCluster;
  /** `ofCluster`: the cluster's own security group, the same one for every claim on the same cluster. */
  readonly targets: {
    field: string;
    id: string;
    shown: string;
    kind: "subnet" | "security group";
    ofCluster?: boolean;
  }[];
}

/** The target id of the cluster security group (securityGroupId unset), compared by cluster rather than by ID. */
const CLUSTER_SECURITY_GROUP = "\u0000cluster-security-group";

const CLAIMS = "discovery-claims";

/** The cluster of a claim as errors name it. */
const clusterLabel = (c: Claim) => clusterLabelOf(c.cluster);

/** A cluster as messages name it: `cluster demo`, or its resource's path when the name is a reference. */
const clusterLabelOf = (cluster: IKarpenterCluster) =>
  cluster.clusterNameLiteral !== undefined
    ? `cluster ${cluster.clusterNameLiteral}`
    : `the cluster ${cluster.resource.node.path}`;

/**
 * The same subnet or security group tagged with the same key for two clusters: the resource holds
 * one value per key, so the two `aws_ec2_tag`s overwrite each other at every apply, and the cluster
 * whose value lost finds no subnet (its default EC2NodeClass launches no node). Reported on the
 * later of the two constructs, naming both clusters and the ID.
 */
function claimProblems(mine: Claim): KarpenterValidationError[] {
  if (mine.targets.length === 0 || !attached(mine.tags)) return [];
  const index = appIndex(mine.tags, CLAIMS, () => {
    const byTarget = new Map<string, { claim: Claim; order: number }[]>();
    registered<Claim>(mine.tags, CLAIMS).forEach((c, order) => {
      if (!attached(c.tags)) return;
      for (const t of c.targets) {
        const k = `${isUnresolved(c.tags.tagKey) ? c.tags.node.path : c.tags.tagKey}\u0000${t.id}`;
        byTarget.set(k, [...(byTarget.get(k) ?? []), { claim: c, order }]);
      }
    });
    return { byTarget, order: new Map(registered<Claim>(mine.tags, CLAIMS).map((c, i) => [c, i])) };
  });
  const myOrder = index.order.get(mine) ?? 0;
  const problems: KarpenterValidationError[] = [];
  for (const t of mine.targets) {
    const k = `${isUnresolved(mine.tags.tagKey) ? mine.tags.node.path : mine.tags.tagKey}\u0000${t.id}`;
    const earlier = (index.byTarget.get(k) ?? []).filter((o) => o.order < myOrder);
    // the cluster security group of two claims is one group only when their cluster is one
    const same = earlier.find((o) =>
      t.ofCluster ? sameInstallTarget(o.claim.cluster, mine.cluster) : !otherCluster(o.claim, mine),
    );
    if (same) {
      problems.push(
        new KarpenterValidationError(
          "DISCOVERY_TAGS_CLAIMED",
          mine.tags,
          t.field,
          t.shown,
          `a ${t.kind} no other DiscoveryTags tags with ${mine.tags.tagKey}: ${same.claim.tags.node.path} already tags ${t.shown} for ${clusterLabel(mine)}, so two aws_ec2_tag resources would own one tag, and destroying either (or its stack) removes it while the other still counts on it` +
            (t.kind === "subnet"
              ? "; list the subnet in one DiscoveryTags only"
              : ", and the default EC2NodeClass then finds no security group; give the cluster one DiscoveryTags (pass its subnets to that one), or set securityGroupId here to another group"),
        ),
      );
      continue;
    }
    if (t.ofCluster) continue;
    const other = earlier.find((o) => otherCluster(o.claim, mine));
    if (!other) continue;
    problems.push(
      new KarpenterValidationError(
        "DISCOVERY_TAGS_CLAIMED",
        mine.tags,
        t.field,
        t.shown,
        `a ${t.kind} no other cluster's discovery tag claims: ${other.claim.tags.node.path} tags ${t.kind} ${t.shown} with ${mine.tags.tagKey} for ${clusterLabel(other.claim)}, and this construct tags it for ${clusterLabel(mine)}. ` +
          `A ${t.kind} holds one value per tag key, so the two tags overwrite each other at every apply and the losing cluster's EC2NodeClasses find no ${t.kind}. ` +
          (t.kind === "subnet"
            ? "For subnets the clusters share (a shared VPC), give each cluster its own key: tagKey: DiscoveryTags.clusterTagKey(<cluster name>) here and the same discoveryTagKey on that cluster's Karpenter (or its EC2NodeClasses); else tag the subnet for one cluster only"
            : "Each cluster needs its own security group: leave securityGroupId unset for the cluster's own security group"),
      ),
    );
  }
  return problems;
}

/** Whether two claims are for different clusters (different tag values, or clusters known to differ). */
function otherCluster(a: Claim, b: Claim): boolean {
  const [va, vb] = [a.tags.tagValue, b.tags.tagValue];
  if (!isUnresolved(va) && !isUnresolved(vb)) return va !== vb;
  return !sameInstallTarget(a.cluster, b.cluster);
}

const SUBNETS_TEXT =
  "an array of subnet IDs known at synth (each may be a reference): a list token cannot be split into one aws_ec2_tag per subnet; " +
  "pass the subnets one by one or tag them in their own `tags` with DiscoveryTags.subnetTags()";

/** A subnet reference of `subnets` as checks and claims compare it. */
interface SubnetReference {
  /** The stack and Terraform address of the subnet: the same for every reference to it. */
  readonly id: string;
  /** How messages name it: the `Subnet`'s construct path, else its address and stack. */
  readonly shown: string;
  /** The `Subnet` construct the reference points to, when it is in the app's construct tree. */
  readonly subnet?: Subnet;
}

/** The `aws_subnet` resources of a stack by Terraform name (one walk of the stack, per `subnets` check). */
type SubnetsByName = Map<TerraformStack, Map<string, Subnet>>;

/**
 * The subnet an ID token refers to when it is exactly a `Subnet`'s `id` attribute (`subnet.id`), and
 * the `Subnet` construct itself, found in the reference's origin stack by its Terraform name (its
 * `friendlyUniqueId`); undefined for a literal and for other tokens (known only at apply, not compared).
 */
function subnetReference(id: string, byName: SubnetsByName): SubnetReference | undefined {
  if (typeof id !== "string" || !isUnresolved(id)) return undefined;
  const fragments = Tokenization.reverseString(id);
  if (fragments.tokens.length !== 1 || fragments.literals.length !== 0) return undefined;
  const ref = fragments.firstToken as { identifier?: unknown; originStack?: TerraformStack } | undefined;
  const address = typeof ref?.identifier === "string" ? /^aws_subnet\.([^.]+)\.id$/.exec(ref.identifier) : null;
  if (!address || !ref?.originStack) return undefined;
  const stack = ref.originStack;
  const subnet = subnetsOf(stack, byName).get(address[1]);
  return {
    id: `${stack.node.path}\u0000aws_subnet.${address[1]}`,
    shown: subnet?.node.path ?? `aws_subnet.${address[1]} of stack ${stack.node.path}`,
    subnet,
  };
}

/** The `Subnet`s of `stack` by Terraform name, from one walk of the stack per `byName`. */
function subnetsOf(stack: TerraformStack, byName: SubnetsByName): Map<string, Subnet> {
  let subnets = byName.get(stack);
  if (subnets === undefined) {
    subnets = new Map();
    for (const c of stack.node.findAll()) {
      // by resource type rather than instanceof: a second copy of the provider package makes its own classes
      if (isSubnet(c)) subnets.set(c.friendlyUniqueId, c);
    }
    byName.set(stack, subnets);
  }
  return subnets;
}

/** Whether a value is an `aws_subnet` resource (a `Subnet` construct). */
function isSubnet(x: unknown): x is Subnet {
  return (
    x !== null &&
    typeof x === "object" &&
    (x as { terraformResourceType?: unknown }).terraformResourceType === "aws_subnet" &&
    Construct.isConstruct(x)
  );
}

/** Whether a `Subnet`'s own `tags` hold `key` (a token map is not judged). */
function ownsTag(subnet: Subnet, key: string): boolean {
  const tags = subnet.tagsInput;
  return tags !== undefined && !isUnresolved(tags) && !isUnresolved(key) && key in tags;
}

/**
 * Why a `Subnet`'s aws_subnet manages its tags (its own `tags`, or its provider's `defaultTags`), so
 * that it would remove `key` added by an aws_ec2_tag; undefined when it manages none or ignores `key`
 * (its provider's `ignoreTags`, or `lifecycle.ignoreChanges` on its tags). Tokens are not judged.
 */
function managedTags(subnet: Subnet, key: string): string | undefined {
  if (isUnresolved(key)) return undefined;
  const ignored = subnet.lifecycle?.ignoreChanges;
  if (
    ignored === "all" ||
    (Array.isArray(ignored) &&
      ignored.some((a) => a === "tags" || a === "tags_all" || a === `tags["${key}"]` || a === `tags_all["${key}"]`))
  )
    return undefined;
  const stack = TerraformStack.of(subnet);
  const provider = (subnet.provider ??
    stack.node
      .findAll()
      .find(
        (c) => TerraformProvider.isTerraformProvider(c) && c.terraformResourceType === "aws" && c.alias === undefined,
      )) as AwsProvider | undefined;
  const ignore = provider?.ignoreTags;
  if (
    ignore !== undefined &&
    (isUnresolved(ignore) ||
      (Array.isArray(ignore) &&
        ignore.some((i) => (i.keys ?? []).includes(key) || (i.keyPrefixes ?? []).some((p) => key.startsWith(p)))))
  )
    return undefined;
  const own = subnet.tagsInput;
  if (own !== undefined && !isUnresolved(own) && Object.keys(own).length > 0)
    return `tags of its own (${Object.keys(own).join(", ")})`;
  const defaults = provider?.defaultTags;
  if (
    defaults !== undefined &&
    (isUnresolved(defaults) ||
      (Array.isArray(defaults) && defaults.some((d) => d.tags !== undefined && Object.keys(d.tags).length > 0)))
  )
    return `its provider's default tags (${provider!.node.path})`;
  return undefined;
}

function isPublic(subnet: Subnet): boolean {
  const tags = subnet.tagsInput ?? {};
  return subnet.mapPublicIpOnLaunchInput === true || (!isUnresolved(tags) && "kubernetes.io/role/elb" in tags);
}

/**
 * `subnets`: a literal array (not a list token, which cannot be split into one tag per subnet) of at
 * least one subnet, each a literal subnet ID (the EC2NodeClass's rule) or a reference; a reference to
 * a `Subnet` of this app (`subnet.id`) must be a private subnet whose tags the app does not manage, and
 * no subnet may be listed twice. Every problem at once.
 * @returns the `Subnet` reference of each element (undefined for a literal or another token)
 * @throws KarpenterValidationError naming `subnets` or `subnets[<i>]`
 */
function checkSubnets(
  scope: Construct,
  subnets: readonly string[] | undefined,
  key: string,
): (SubnetReference | undefined)[] {
  if (subnets === undefined) return [];
  // checked before cdktf sees it: a list token as a tag's resource_id is a raw "encoded list token in a scalar string context" error
  if (isListToken(subnets))
    throw new KarpenterValidationError(
      "DISCOVERY_TAGS_SUBNETS",
      scope,
      "subnets",
      "(a list token, known only at apply)",
      SUBNETS_TEXT,
    );
  if (typeof subnets === "string") {
    throw new KarpenterValidationError(
      "DISCOVERY_TAGS_SUBNETS",
      scope,
      "subnets",
      subnets,
      `an array of subnet IDs, got a string: pass each subnet as an item (["subnet-0123abcd", "subnet-4567cdef"], not "subnet-0123abcd,subnet-4567cdef"); a list known only at apply (Fn.split) cannot be split into one aws_ec2_tag per subnet`,
    );
  }
  if (!Array.isArray(subnets))
    throw new KarpenterValidationError("DISCOVERY_TAGS_SUBNETS", scope, "subnets", subnets, SUBNETS_TEXT);
  if (subnets.length === 0) {
    throw new KarpenterValidationError(
      "DISCOVERY_TAGS_SUBNETS_EMPTY",
      scope,
      "subnets",
      subnets,
      "at least one subnet: an empty list tags no subnet, so nodes of the default EC2NodeClass selector find none here; leave subnets unset when the subnets are tagged elsewhere (e.g. DiscoveryTags.subnetTags in their own tags)",
    );
  }
  const problems = new Problems();
  const seen = new Map<string, number>();
  const byName: SubnetsByName = new Map();
  const references = subnets.map((s: unknown, i) => {
    if (isSubnet(s)) {
      // a Subnet object (earlier versions took one; JavaScript callers): its id is the reference every check reads
      problems.add(
        new KarpenterValidationError(
          "DISCOVERY_TAGS_SUBNET_ID",
          scope,
          `subnets[${i}]`,
          s.node.path,
          `${SUBNET_ID.text}, or a reference to one: this is the Subnet object itself; pass subnet.id (a reference to a Subnet of this app is checked against the Subnet: private, its tags not managed by the app)`,
        ),
      );
      return undefined;
    }
    if (typeof s !== "string" || (!isUnresolved(s) && !SUBNET_ID.pattern.test(s))) {
      problems.add(
        new KarpenterValidationError(
          "DISCOVERY_TAGS_SUBNET_ID",
          scope,
          `subnets[${i}]`,
          s,
          `${SUBNET_ID.text}, or a reference to one (subnet.id of a Subnet of this app)`,
        ),
      );
      return undefined;
    }
    const ref = subnetReference(s, byName);
    // the same subnet twice: two aws_ec2_tag for one subnet and key, each removing the tag when destroyed or replaced
    const identity = ref?.id ?? s;
    const first = seen.get(identity);
    if (first !== undefined) {
      problems.add(
        new KarpenterValidationError(
          "DISCOVERY_TAGS_SUBNET_TWICE",
          scope,
          `subnets[${i}]`,
          ref?.shown ?? s,
          `a subnet not listed before: subnets[${first}] is the same subnet, and two aws_ec2_tag resources for one subnet and key would both own the tag (destroying either removes it); list each subnet once`,
        ),
      );
      return ref;
    }
    seen.set(identity, i);
    const subnet = ref?.subnet;
    if (subnet === undefined) return ref;
    if (isPublic(subnet))
      problems.add(
        new KarpenterValidationError(
          "DISCOVERY_TAGS_SUBNET_PUBLIC",
          scope,
          `subnets[${i}]`,
          subnet.node.path,
          "a private subnet: this one maps public IPs on launch or carries kubernetes.io/role/elb; Karpenter nodes must not launch into public subnets",
        ),
      );
    else if (ownsTag(subnet, key)) {
      problems.add(
        new KarpenterValidationError(
          "DISCOVERY_TAGS_SUBNET_TAG_CONFLICT",
          scope,
          `subnets[${i}]`,
          subnet.node.path,
          `a subnet whose own tags do not hold ${key}: this one has it in its tags (DiscoveryTags.subnetTags), so the subnet's tags and this construct's aws_ec2_tag would both own the tag, each apply of one undoing the other; leave the subnet out of subnets, it is tagged already`,
        ),
      );
    } else {
      const managed = managedTags(subnet, key);
      if (managed !== undefined) {
        problems.add(
          new KarpenterValidationError(
            "DISCOVERY_TAGS_SUBNET_TAGS_MANAGED",
            scope,
            `subnets[${i}]`,
            subnet.node.path,
            `a subnet whose tags this app does not manage: this one has ${managed}, so its aws_subnet removes the ${key} tag this construct's aws_ec2_tag adds at every apply, and the tag comes back at the next (the AWS provider's documented perpetual difference of aws_ec2_tag on a resource of the same configuration): in between Karpenter finds no subnet. Put DiscoveryTags.subnetTags() into the subnet's own tags and leave it out of subnets, or make its provider ignore the key (ignoreTags) or its lifecycle ignore tags (ignoreChanges)`,
          ),
        );
      }
    }
    return ref;
  });
  problems.throwIfAny(scope);
  return references;
}

/**
 * The `clusterName` argument of {@link DiscoveryTags.subnetTags}: a string (a literal EKS cluster name,
 * or a reference). An object (an `IKarpenterCluster`, which earlier versions took here, or an
 * `EksCluster`) is refused with what to pass instead.
 * @throws KarpenterValidationError on `clusterName`
 */
function checkClusterNameArgument(where: string, clusterName: unknown): void {
  if (clusterName !== null && typeof clusterName === "object") {
    const isCluster = typeof (clusterName as { clusterName?: unknown }).clusterName === "string";
    const isEks =
      Construct.isConstruct(clusterName) &&
      (clusterName as { terraformResourceType?: unknown }).terraformResourceType === "aws_eks_cluster";
    const shown = Construct.isConstruct(clusterName)
      ? clusterName.node.path
      : isCluster
        ? "(an IKarpenterCluster)"
        : "(an object)";
    const what = isCluster
      ? "the cluster object: pass cluster.clusterName"
      : isEks
        ? "the EksCluster: pass its name (eks.name), or cluster.clusterName of KarpenterCluster.fromEksCluster(eks)"
        : "an object: pass cluster.clusterName";
    throw new KarpenterValidationError(
      "DISCOVERY_TAGS_CLUSTER_NAME",
      where,
      "clusterName",
      shown,
      `a cluster name (a literal or a reference), not ${what}`,
    );
  }
  if (typeof clusterName !== "string")
    throw new KarpenterValidationError(
      "DISCOVERY_TAGS_CLUSTER_NAME",
      where,
      "clusterName",
      clusterName,
      "a cluster name (a literal or a reference such as cluster.clusterName)",
    );
  checkEksClusterName(where, "clusterName", clusterName);
}
