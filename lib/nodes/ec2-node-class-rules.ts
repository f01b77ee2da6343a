import { lookupTable } from "../core/lookup";
import { isPlainObject as isPlainObjectValue } from "../core/deep-merge";
import {
  AmiSelectorTerm,
  BlockDeviceMapping,
  Ec2NodeClassOptions,
  KubeletConfiguration,
  NetworkInterface,
} from "./ec2-node-class-spec";
import { KarpenterVersion } from "../versions/karpenter-version";
import { typeName } from "../core/errors";
import {
  Checker,
  entry,
  durationNanos,
  GO_DURATION,
  holdsToken,
  INT32_MAX,
  isPlainFields,
  isSet,
  isToken,
  QUANTITY,
  withSuggestion,
} from "../kubernetes/value-rules";
import {
  awsFeatureGateSince,
  celLists,
  crdEnumValues,
  crdEnumValueSince,
  crdFieldSince,
  crdFreeFormSince,
  crdKnown,
  kubeletConfigFields,
} from "../versions";
import { crdChildren } from "../kubernetes/crd-checks";
import { KUBELET_EXPRESSION_VARIABLES, kubeletExpressionProblem, quantityLookalike } from "./kubelet-expressions";
import { imageGcDefaultProblem, kubeletRuntimeMessage, kubeletRuntimeProblems } from "./kubelet-runtime-rules";
import {
  checkUpstreamKubelet,
  evictionThresholdProblem,
  kindProblem,
  kubeletEvictionRefusal,
  kubeletValidationSource,
} from "./kubelet-config-rules";
import { SECURITY_GROUP_ID, SUBNET_ID } from "../aws-api/aws-ids";
import { TAG_APIS, TAG_LIMITS, tagCharacterProblem, TagReceiver } from "../aws-api/tag-rules";
import { checkEbsKmsKey, checkEbsLimits } from "./ebs-rules";
import { EC2_USER_DATA_BYTES } from "./user-data-rules";

/*
 * Every rule of the karpenter.k8s.aws/v1 EC2NodeClass CRD (v1.0 … v1.15) that needs no cluster
 * state: OpenAPI types, enums, patterns, lengths, item counts, and each x-kubernetes-validations
 * CEL rule except the transition rules (oldSelf). Each rule is checked as its CEL says, even where
 * its message reads otherwise: "'id' is mutually exclusive, cannot be set with a combination of
 * other fields in a subnet selector term" is `!self.all(…)`, which refuses the list only when every
 * term combines them (checkExclusiveTerms; what Karpenter then ignores warns). ID patterns
 * are anchored (the CRD's `ami-[0-9a-z]+` would also accept `xami-1`). From 1.15 the CRD leaves
 * `spec.kubelet` to the controller, which rejects per AMI family what it cannot apply
 * (ValidationSucceeded=False): those rules are here too, as the v1.15 docs state them.
 */

/*
 * Enum values and the keys of each object: every known release's EC2NodeClass CRD together (generated, lib/versions/data
 * CRD_KNOWN), in the CRD's order; a value or field newer than the class's release is refused by its `since` check.
 */
const AMI_FAMILIES = crdEnumValues("ec2NodeClass", "spec.amiFamily");
const enumOf = (crdPath: string): readonly string[] => crdEnumValues("ec2NodeClass", `spec.${crdPath}`);
const fieldsOf = (crdPath: string): readonly string[] => crdChildren(crdKnown("ec2NodeClass"), `spec.${crdPath}`);

/**
 * Kubelet `maxPods`, `kubeReserved`, `systemReserved` as CEL expressions: the minor whose chart first has the AWS
 * feature gate that enables them, `settings.awsFeatureGates.nodeClassCEL` (generated: 1.15).
 */
export function kubeletExpressionsSince(): string {
  return awsFeatureGateSince("nodeClassCEL")!;
}
/** Alias family → the amiFamily it implies. */
const ALIAS_FAMILIES: { readonly [family: string]: string } = lookupTable({
  al2: "AL2",
  al2023: "AL2023",
  bottlerocket: "Bottlerocket",
  windows2019: "Windows2019",
  windows2022: "Windows2022",
  windows2025: "Windows2025",
});
/**
 * The alias family of an amiFamily's EKS-optimized AMIs (`"AL2023"` → `"al2023"`, for
 * `al2023@latest`), or undefined for Custom and unknown families, which have no alias.
 */
export function aliasFamilyOf(amiFamily: string): string | undefined {
  return Object.keys(ALIAS_FAMILIES).find((alias) => ALIAS_FAMILIES[alias] === amiFamily);
}
const VOLUME_TYPES = enumOf("blockDeviceMappings[].ebs.volumeType");
/**
 * `volumeSize`: the CRD pattern (the same in every release 1.0–1.15, karpenter.k8s.aws_ec2nodeclasses.yaml, ebs
 * volumeSize), with its empty alternatives (a bare `Ti` / `T`) dropped. Its Gi, G and T alternatives cover 1–59000Gi,
 * 1–64000G and 1–64T without a gap, but its Ti alternative `([1-9]||[1-5][0-7]|58)Ti` takes the second digit only up
 * to 7: 1–17, 20–27, 30–37, 40–47 and 50–58 Ti, so the API server refuses 18Ti, 19Ti, 28Ti … (which Gi takes).
 */
const VOLUME_SIZE =
  /^((?:[1-9][0-9]{0,3}|[1-4][0-9]{4}|[5][0-8][0-9]{3}|59000)Gi|(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|[6][0-3][0-9]{3}|64000)G|([1-9]|[1-5][0-7]|58)Ti|([1-9]|[1-5][0-9]|6[0-3]|64)T)$/;
const EVICTION_SIGNALS = [
  "memory.available",
  "nodefs.available",
  "nodefs.inodesFree",
  "imagefs.available",
  "imagefs.inodesFree",
  "pid.available",
] as const;
/** Eviction thresholds before 1.15: a percentage (≤ 100 with ≤ 2 decimals) or a quantity (the EC2NodeClass CRD's pattern). */
const EVICTION_VALUE =
  /^((\d{1,2}(\.\d{1,2})?|100(\.0{1,2})?)%|(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?)$/;
const RESERVED_RESOURCES = ["cpu", "memory", "ephemeral-storage", "pid"] as const;

/**
 * Tag keys `tags` may not use, each with why (said of the key: "the key X <why>"): keys Karpenter sets
 * itself on every instance (the EC2NodeClass CRD rules "tag contains a restricted tag matching …",
 * "empty tag keys aren't supported"), and the `aws:` prefix, which EC2 refuses in the launch's tag
 * specifications (AWS tagging rules: the prefix is reserved for AWS).
 */
const RESTRICTED_TAGS: readonly [(k: string) => boolean, string][] = [
  [(k) => k === "", 'is empty (EC2NodeClass CRD: "empty tag keys aren\'t supported")'],
  ...["eks:eks-cluster-name", "karpenter.sh/nodepool", "karpenter.sh/nodeclaim", "karpenter.k8s.aws/ec2nodeclass"].map(
    (key): [(k: string) => boolean, string] => [
      (k) => k === key,
      `is restricted: Karpenter sets that tag on every instance itself (EC2NodeClass CRD: "tag contains a restricted tag matching ${key}"); use another key`,
    ],
  ),
  [
    (k) => k.startsWith("kubernetes.io/cluster"),
    'is restricted: Karpenter sets kubernetes.io/cluster/<cluster name> on every instance itself (EC2NodeClass CRD: "tag contains a restricted tag matching kubernetes.io/cluster/"); use a key not starting with "kubernetes.io/cluster"',
  ],
  [
    (k) => /^aws:/i.test(k),
    'is reserved: tag keys starting with "aws:" are for tags AWS sets itself, and EC2 refuses them in the launch request, so every launch with this class fails; use another key',
  ],
];

/** The first minor whose EC2NodeClass CRD has the field (generated from the CRDs); the oldest known one for older fields. */
const since = (path: string): string => crdFieldSince("ec2NodeClass", path) ?? "1.0";

/**
 * Where Karpenter sends `spec.tags`: EC2 always (karpenter-provider-aws pkg/providers/launchtemplate:
 * the launch template and its network interfaces and spot requests; pkg/providers/instance: the
 * fleet, instances and volumes of CreateFleet), and IAM when the class names a `role`: Karpenter
 * then creates the instance profile itself, tagged with `spec.tags` (pkg/providers/instanceprofile
 * Create, tags from EC2NodeClass.InstanceProfileTags), and IAM allows fewer characters than EC2.
 */
function nodeClassTagReceivers(p: Ec2NodeClassOptions): TagReceiver[] {
  return [
    { api: TAG_APIS.EC2, resource: "the launch template, instances, volumes and network interfaces" },
    ...(isSet(p.role) && !isSet(p.instanceProfile)
      ? [{ api: TAG_APIS.IAM, resource: "the instance profile Karpenter creates for role" }]
      : []),
  ];
}

/**
 * Checks EC2NodeClass props after defaults (role, selector terms) for Karpenter version `v`.
 * A throwing checker stops at the first problem; a collecting one records one problem per
 * independent field, list item and map entry.
 */
export function checkEc2NodeClass(
  c: Checker,
  v: KarpenterVersion,
  p: Ec2NodeClassOptions,
  name: string,
  kubernetesVersion?: string,
): void {
  c.guard(() => c.dnsName("name", name));

  c.guard(() => {
    if (isSet(p.role) && isSet(p.instanceProfile)) {
      c.fail(
        "EC2NODECLASS_ROLE_AND_INSTANCE_PROFILE",
        "instanceProfile",
        p.instanceProfile,
        `unset when role is set: role ${JSON.stringify(p.role)} is set too, and a class takes one of them (with a role, Karpenter creates and manages the instance profile; EC2NodeClass CRD: "must specify exactly one of ['role', 'instanceProfile']")`,
      );
    }
    if (!isSet(p.role) && !isSet(p.instanceProfile))
      c.fail(
        "EC2NODECLASS_ROLE_REQUIRED",
        "role",
        undefined,
        "the IAM role of the nodes (the Karpenter node role), or instanceProfile instead: one of them is required, and without `karpenter` there is no node role to default to (EC2NodeClass CRD: \"must specify exactly one of ['role', 'instanceProfile']\")",
      );
    c.str("role", p.role, { nonEmpty: true });
    // Karpenter passes spec.role to IAM as RoleName (AddRoleToInstanceProfile, pkg/providers/instanceprofile), which takes a name only
    const arn = c.known(p.role) ? /^arn:[^:]+:iam::[^:]*:role\/(?:.*\/)?([^/]+)$/.exec(p.role) : null;
    if (arn)
      c.fail(
        "EC2NODECLASS_ROLE_ARN",
        "role",
        p.role,
        `the role's name, not its ARN: Karpenter gives spec.role to IAM as a role name (AddRoleToInstanceProfile), so an ARN never gets an instance profile; pass ${JSON.stringify(arn[1])}`,
      );
    c.str("instanceProfile", p.instanceProfile, { nonEmpty: true });
  });

  const familyValid = c.guard(() => {
    c.oneOf("amiFamily", p.amiFamily, AMI_FAMILIES);
    if (c.known(p.amiFamily)) {
      const s = crdEnumValueSince("ec2NodeClass", "spec.amiFamily", p.amiFamily);
      if (s) c.since("amiFamily", p.amiFamily, s, `amiFamily ${p.amiFamily}`);
    }
  });
  // no terms with an amiFamily that is no family: the family is the mistake (no default alias could be derived)
  if (familyValid || isSet(p.amiSelectorTerms)) checkAmiTerms(c, v, p.amiSelectorTerms, p.amiFamily);

  checkIdTagTerms(c, "subnetSelectorTerms", p.subnetSelectorTerms, {
    id: SUBNET_ID.pattern,
    idText: SUBNET_ID.text,
  });
  checkIdTagTerms(c, "securityGroupSelectorTerms", p.securityGroupSelectorTerms, {
    id: SECURITY_GROUP_ID.pattern,
    idText: SECURITY_GROUP_ID.text,
  });
  checkCapacityReservationTerms(c, p);

  c.guard(() => c.bool("associatePublicIPAddress", p.associatePublicIPAddress));
  c.guard(() => c.bool("detailedMonitoring", p.detailedMonitoring));
  c.guard(() => c.str("context", p.context));
  c.guard(() => {
    c.str("userData", p.userData);
    // EC2 takes at most 16 KB of user data before base64 (EC2 User Guide, "Run commands when you launch an
    // EC2 instance with user data input"); Karpenter adds its own bootstrap part to yours, so longer never launches
    if (
      typeof p.userData === "string" &&
      c.known(p.userData) &&
      Buffer.byteLength(p.userData, "utf8") > EC2_USER_DATA_BYTES
    ) {
      c.fail(
        "EC2NODECLASS_USER_DATA_SIZE",
        "userData",
        `(${Buffer.byteLength(p.userData, "utf8")} bytes)`,
        `user data of at most ${EC2_USER_DATA_BYTES} bytes (16 KB, EC2's limit before base64; Karpenter's bootstrap is added to it): EC2 refuses every launch with more`,
      );
    }
  });
  c.guard(() => c.oneOf("instanceStorePolicy", p.instanceStorePolicy, enumOf("instanceStorePolicy")));
  c.guard(() => {
    c.since("ipPrefixCount", p.ipPrefixCount, since("spec.ipPrefixCount"), "ipPrefixCount");
    c.int("ipPrefixCount", p.ipPrefixCount, 0, INT32_MAX);
  });

  checkBlockDevices(c, p.blockDeviceMappings);
  checkKubelet(c, p.kubelet, nodeFamily(p), kubernetesVersion);
  checkEnclaveOptions(c, p);
  checkMetadataOptions(c, p);
  checkNetworkInterfaces(c, p.networkInterfaces);
  c.guard(() => checkPlacementGroup(c, p));
  checkConnectionTracking(c, p);
  c.guard(() => {
    c.since("cpuOptions", p.cpuOptions, since("spec.cpuOptions"), "cpuOptions");
    if (!isSet(p.cpuOptions) || c.token(p.cpuOptions)) return;
    c.fields("cpuOptions", p.cpuOptions, fieldsOf("cpuOptions"), "cpuOptions");
    c.oneOf(
      "cpuOptions.nestedVirtualization",
      p.cpuOptions.nestedVirtualization,
      enumOf("cpuOptions.nestedVirtualization"),
    );
  });

  let tags: [string, string][] = [];
  c.guard(() => {
    tags = c.map("tags", p.tags);
  });
  const receivers = nodeClassTagReceivers(p);
  // an IAM refusal leaves the class without an instance profile: it never becomes Ready
  const notReady = "; the EC2NodeClass would never become Ready";
  for (const [k, val] of tags) {
    c.guard(() => {
      if (c.known(k)) {
        for (const [test, why] of RESTRICTED_TAGS) if (test(k)) c.failKey("EC2NODECLASS_TAG_KEY", "tags", k, val, why);
        const length = [...k].length;
        if (length > TAG_LIMITS.keyLength)
          c.failKey(
            "EC2NODECLASS_TAG_KEY",
            "tags",
            k,
            val,
            `is ${length} characters long: EC2 and IAM take tag keys of at most ${TAG_LIMITS.keyLength} characters`,
          );
      }
      c.str(entry("tags", k), val);
      if (c.known(val) && [...val].length > TAG_LIMITS.valueLength)
        c.fail(
          "EC2NODECLASS_TAG_VALUE",
          entry("tags", k),
          val,
          `a tag value of at most ${TAG_LIMITS.valueLength} characters, the EC2 and IAM limit (got ${[...val].length})`,
        );
      const chars = tagCharacterProblem(c.known(k) ? k : undefined, c.known(val) ? val : undefined, receivers);
      if (chars) c.fail("EC2NODECLASS_TAG_VALUE", entry("tags", k), val, chars + notReady);
    });
  }
  c.guard(() => checkTagCount(c, p.tags, tags));
}

/** EC2's limit of tags on one resource (Amazon EC2 User Guide, "Tag restrictions": "Maximum number of tags per resource – 50"). */
const EC2_TAGS_PER_RESOURCE = 50;

/**
 * The tags Karpenter puts on every instance besides `spec.tags` (aws/karpenter-provider-aws): at launch
 * `kubernetes.io/cluster/<cluster>`, `karpenter.sh/nodepool`, `eks:eks-cluster-name` and
 * `karpenter.k8s.aws/ec2nodeclass` (pkg/utils GetTags, the static tags merged over spec.tags for
 * CreateFleet's instances and volumes), and once the node registers `Name`, `karpenter.sh/nodeclaim` and
 * `eks:eks-cluster-name` (pkg/controllers/nodeclaim/tagging, CreateTags of the tags the instance lacks).
 * The CRD refuses all but `Name` in spec.tags; a `Name` of the class's own is kept.
 */
const KARPENTER_INSTANCE_TAGS = [
  "kubernetes.io/cluster/<cluster>",
  "karpenter.sh/nodepool",
  "eks:eks-cluster-name",
  "karpenter.k8s.aws/ec2nodeclass",
  "karpenter.sh/nodeclaim",
  "Name",
];

/**
 * `tags` and Karpenter's own tags must fit EC2's 50 per resource: beyond, every launch fails (or the
 * tagging after it does, leaving the instance without Name and karpenter.sh/nodeclaim). A map that is a
 * reference is not counted.
 */
function checkTagCount(c: Checker, given: unknown, tags: readonly [string, string][]): void {
  if (!isSet(given) || c.token(given)) return;
  const theirs = KARPENTER_INSTANCE_TAGS.filter((k) => !tags.some(([key]) => key === k));
  const budget = EC2_TAGS_PER_RESOURCE - theirs.length;
  if (tags.length <= budget) return;
  c.fail(
    "EC2NODECLASS_TAGS_COUNT",
    "tags",
    given,
    `at most ${budget} tags (got ${tags.length}): EC2 allows ${EC2_TAGS_PER_RESOURCE} tags per resource (Amazon EC2 User Guide, "Tag restrictions"), and Karpenter adds its own ${theirs.length} to every instance (${theirs.join(", ")}; aws/karpenter-provider-aws pkg/utils GetTags and the nodeclaim tagging controller), so ${tags.length} + ${theirs.length} = ${tags.length + theirs.length} tags exceed the limit and every launch (or the tagging after it) fails; remove ${tags.length - budget} tags`,
  );
}

/** Capacity reservation terms (Karpenter 1.3+): optional, but when given at least one term (the CRD's rules fail on an empty list). */
function checkCapacityReservationTerms(c: Checker, p: Ec2NodeClassOptions): void {
  const terms = p.capacityReservationSelectorTerms;
  if (!isSet(terms)) return;
  c.guard(() =>
    c.since(
      "capacityReservationSelectorTerms",
      terms,
      since("spec.capacityReservationSelectorTerms"),
      "capacityReservationSelectorTerms",
    ),
  );
  if (!c.version.atLeast(since("spec.capacityReservationSelectorTerms"))) return;
  checkIdTagTerms(c, "capacityReservationSelectorTerms", terms, {
    id: /^cr-[0-9a-z]+$/,
    idText: "a capacity reservation ID such as cr-0123abcd",
    empty: "leave capacityReservationSelectorTerms unset to use no capacity reservation",
  });
  if (c.token(terms) || !Array.isArray(terms)) return;
  terms.forEach((t, i) => {
    if (!isSet(t) || c.token(t) || typeof t !== "object") return;
    c.guard(() =>
      c.pattern(
        `capacityReservationSelectorTerms[${i}].ownerID`,
        t.ownerID,
        /^[0-9]{12}$/,
        "a 12-digit AWS account ID",
      ),
    );
    c.guard(() => {
      c.since(
        `capacityReservationSelectorTerms[${i}].instanceMatchCriteria`,
        t.instanceMatchCriteria,
        since("spec.capacityReservationSelectorTerms[].instanceMatchCriteria"),
        "instanceMatchCriteria",
      );
      c.oneOf(
        `capacityReservationSelectorTerms[${i}].instanceMatchCriteria`,
        t.instanceMatchCriteria,
        enumOf("capacityReservationSelectorTerms[].instanceMatchCriteria"),
      );
    });
  });
}

function checkAmiTerms(
  c: Checker,
  v: KarpenterVersion,
  terms: AmiSelectorTerm[] | undefined,
  amiFamily: string | undefined,
): void {
  let list: AmiSelectorTerm[] | undefined;
  c.guard(() => {
    if (!isSet(terms))
      c.fail("EC2NODECLASS_AMI_SELECTOR_TERMS", "amiSelectorTerms", terms, "1 to 30 AMI selector terms (required)");
    list = c.list("amiSelectorTerms", terms, 1, 30);
  });
  if (!list) return;
  // a null, undefined or hole item failed c.list (LIST_ITEM_MISSING, holes included: fresh15 CF-1, where `[, { alias }]`
  // reached the alias rule below as "2 terms"), so every term here is one the user wrote
  const known = list;
  const fields = v.atLeast(since("spec.amiSelectorTerms[].ssmParameter"))
    ? ["tags", "id", "name", "alias", "ssmParameter"]
    : ["tags", "id", "name", "alias"];
  let aliasFamily: string | undefined;
  known.forEach((t, i) =>
    c.guard(() => {
      const at = `amiSelectorTerms[${i}]`;
      if (c.token(t)) return;
      c.fields(at, t, fieldsOf("amiSelectorTerms[]"), "an AMI selector term");
      c.since(`${at}.ssmParameter`, t.ssmParameter, since("spec.amiSelectorTerms[].ssmParameter"), "ssmParameter");
      if (!fields.some((f) => isSet((t as Record<string, unknown>)[f]))) {
        const ownerOnly = isSet(t.owner)
          ? `; an owner alone selects no image: name: "*" beside the owner selects all of its images`
          : "";
        c.fail(
          "EC2NODECLASS_SELECTOR_TERM",
          at,
          t,
          `an AMI selector term with at least one of ${fields.join(", ")}${ownerOnly} (EC2NodeClass CRD: "expected at least one, got none")`,
        );
      }
      checkEmptySelectors(c, at, t, ["tags", "name", "ssmParameter"], isSet(t.owner));
      if (isSet(t.id) && (isSet(t.alias) || isSet(t.tags) || isSet(t.name) || isSet(t.owner)))
        c.fail(
          "EC2NODECLASS_SELECTOR_TERM",
          `${at}.id`,
          t.id,
          "an AMI ID alone in its term: a term with id may not also set alias, tags, name or owner (EC2NodeClass CRD: \"'id' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms\")",
        );
      if (isSet(t.alias) && (isSet(t.id) || isSet(t.tags) || isSet(t.name) || isSet(t.owner)))
        c.fail(
          "EC2NODECLASS_SELECTOR_TERM",
          `${at}.alias`,
          t.alias,
          "an alias alone in its term: a term with alias may not also set id, tags, name or owner (EC2NodeClass CRD: \"'alias' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms\")",
        );
      if (isSet(t.alias) && known.length !== 1)
        c.fail(
          "EC2NODECLASS_AMI_ALIAS_NOT_ALONE",
          `${at}.alias`,
          t.alias,
          `an alias in the only AMI selector term: amiSelectorTerms has ${known.length} terms, and an alias may not be combined with others (EC2NodeClass CRD: "'alias' is mutually exclusive, cannot be set with a combination of other amiSelectorTerms")`,
        );
      c.pattern(`${at}.id`, t.id, /^ami-[0-9a-z]+$/, "an AMI ID such as ami-0123456789abcdef0");
      c.str(`${at}.name`, t.name);
      c.str(`${at}.owner`, t.owner);
      c.str(`${at}.ssmParameter`, t.ssmParameter);
      checkSelectorTags(c, `${at}.tags`, t.tags);
      if (c.known(t.alias)) aliasFamily = checkAlias(c, v, `${at}.alias`, t.alias);
      // a token in the version only ("al2023@" + a token): the family is literal and the CRD's rule reads it at apply
      else if (typeof t.alias === "string") {
        const family = /^([a-zA-Z0-9]+)@\$\{(?:Tf)?Token\[/.exec(t.alias)?.[1];
        if (family !== undefined) checkAliasFamily(c, v, `${at}.alias`, t.alias, family);
      }
    }),
  );
  c.guard(() => {
    if (c.known(amiFamily)) {
      if (aliasFamily !== undefined) {
        const implied = ALIAS_FAMILIES[aliasFamily];
        if (amiFamily !== implied && amiFamily !== "Custom")
          c.fail(
            "EC2NODECLASS_AMI_FAMILY",
            "amiFamily",
            amiFamily,
            `"${implied}", "Custom" or unset: the alias in amiSelectorTerms selects ${implied} AMIs (EC2NodeClass CRD: "if set, amiFamily must be '${implied}' or 'Custom' when using ${/^[aeiou]/i.test(implied) ? "an" : "a"} ${implied} alias")`,
          );
      }
    } else if (!isSet(amiFamily) && !known.some((t) => isSet(t) && isSet(t.alias))) {
      c.fail(
        "EC2NODECLASS_AMI_FAMILY",
        "amiFamily",
        amiFamily,
        `one of ${AMI_FAMILIES.join(", ")} (required when amiSelectorTerms has no alias: the family decides how Karpenter writes the nodes' user data; EC2NodeClass CRD: "must specify amiFamily if amiSelectorTerms does not contain an alias")`,
      );
    }
  });
}

/** Checks an alias and returns its family (lowercase). */
function checkAlias(c: Checker, v: KarpenterVersion, field: string, alias: string): string {
  c.str(field, alias, { maxLength: 30 });
  if (!/^[a-zA-Z0-9]+@.+$/.test(alias))
    c.fail(
      "EC2NODECLASS_AMI_ALIAS",
      field,
      alias,
      "an alias of the form family@version, such as al2023@latest or al2023@v20260714 (EC2NodeClass CRD: \"'alias' is improperly formatted, must match the format 'family@version'\")",
    );
  const [family, version] = alias.split("@");
  checkAliasFamily(c, v, field, alias, family);
  const { latestOnlyAliasFamilies } = celLists();
  if (latestOnlyAliasFamilies[family] !== undefined && version !== "latest")
    c.fail(
      "EC2NODECLASS_AMI_ALIAS",
      field,
      alias,
      `${family}@latest: Windows aliases take no other version (EC2NodeClass CRD: "windows families may only specify version 'latest'")`,
    );
  return family;
}

/** The alias family (the part before "@"): one the CRD's CEL rule lists (`self.split('@')[0] in [...]`, generated per minor). */
function checkAliasFamily(c: Checker, v: KarpenterVersion, field: string, alias: string, family: string): void {
  const { aliasFamilies } = celLists();
  const families = Object.keys(aliasFamilies).filter((f) => v.atLeast(aliasFamilies[f]));
  if (aliasFamilies[family] !== undefined) c.since(field, alias, aliasFamilies[family], `the ${family} alias family`);
  if (!families.includes(family))
    c.fail(
      "EC2NODECLASS_AMI_ALIAS",
      field,
      alias,
      `an alias whose family is one of ${families.join(", ")} (EC2NodeClass CRD: "family is not supported, must be one of the following: …")`,
    );
}

/** Selector term tags: ≤ 20, no empty keys or values. */
function checkSelectorTags(c: Checker, field: string, tags: { [k: string]: string } | undefined): void {
  for (const [k, val] of c.map(field, tags, 20)) {
    if (c.known(k) && k === "")
      c.failKey(
        "EC2NODECLASS_SELECTOR_TAGS_EMPTY",
        field,
        k,
        val,
        'is empty (EC2NodeClass CRD: "empty tag keys or values aren\'t supported")',
      );
    if (c.known(val) && val === "")
      c.fail(
        "EC2NODECLASS_SELECTOR_TAGS_EMPTY",
        entry(field, k),
        val,
        "a non-empty tag value: '*' selects any value (EC2NodeClass CRD: \"empty tag keys or values aren't supported\")",
      );
  }
}

/**
 * Selector values that select nothing: an empty `tags` map, an empty `name` or `ssmParameter` (an empty `id`
 * fails its ID pattern already). Karpenter 1.9.4, 1.14.4 and 1.15.3 ignore such a term ("skip EC2NodeClass
 * selector terms without filters", aws/karpenter-provider-aws#9964; release notes of v1.15.3, v1.14.4 and
 * v1.9.4, "Action Required"): a class whose terms are all empty becomes NotReady, one with some empty terms
 * selects fewer subnets, security groups or AMIs. Earlier releases turned the term into an EC2 query without
 * that filter, which selects what the user did not name. The CRD accepts them (its rules ask only that a
 * field be present), so this is refused in every version. Source of the term fields: EC2NodeClass CRD.
 */
function checkEmptySelectors(c: Checker, at: string, t: object, fields: readonly string[], amiOwner: boolean): void {
  const value = (f: string) => (t as Record<string, unknown>)[f];
  const why =
    "selects nothing: Karpenter 1.9.4, 1.14.4, 1.15.3 and later ignore the term (a class whose terms are all empty becomes NotReady), and earlier releases query EC2 without that filter, selecting more than you named";
  for (const f of fields) {
    const v = value(f);
    if (f === "tags") {
      if (v !== null && typeof v === "object" && !Array.isArray(v) && !c.token(v) && Object.keys(v).length === 0) {
        c.fail(
          "EC2NODECLASS_SELECTOR_TAGS_EMPTY",
          `${at}.tags`,
          v,
          `a tags map with at least one tag: an empty one ${why}. '*' as a value matches any value of a key`,
        );
      }
    } else if (v === "") {
      const owner =
        f === "name" && amiOwner ? `; to select all of the owner's images, write name: "*" with the owner` : "";
      c.fail(
        "EC2NODECLASS_SELECTOR_TERM",
        `${at}.${f}`,
        v,
        `a non-empty ${f}, or leave ${f} unset: an empty ${f} ${why}${owner}`,
      );
    }
  }
}

/** The fields of subnet, security group and capacity reservation terms that {@link checkIdTagTerms} reads by name. */
interface IdTagTerm {
  readonly id?: string;
  readonly name?: string;
  readonly tags?: { [k: string]: string };
}

interface TermRules {
  readonly id: RegExp;
  readonly idText: string;
  /** For optional term lists: what to do instead of an empty list. @default unset: the list is required */
  readonly empty?: string;
}

/**
 * Subnet, security group and capacity reservation terms: each term's fields, and `id` (or `name`) with other fields
 * in some term but not in every one ({@link checkExclusiveTerms}). The list may never be empty: the CRD says so for subnets and security groups ("… cannot be
 * empty"), and for capacity reservations its `!self.all(…)` rule fails on an empty list with a
 * message about 'id'.
 */
function checkIdTagTerms(c: Checker, field: string, terms: IdTagTerm[] | undefined, rules: TermRules): void {
  let list: IdTagTerm[] | undefined;
  c.guard(() => {
    if (!isSet(terms) && rules.empty === undefined)
      c.fail("EC2NODECLASS_SELECTOR_TERMS", field, terms, `1 to 30 terms (required; ${field} cannot be empty)`);
    if (c.known(terms) && Array.isArray(terms) && terms.length === 0)
      c.fail(
        "EC2NODECLASS_SELECTOR_TERMS",
        field,
        terms,
        `1 to 30 terms: ${field} cannot be empty${rules.empty ? ` (${rules.empty})` : ""}`,
      );
    list = c.list(field, terms, 1, 30);
  });
  list?.forEach((t, i) =>
    c.guard(() => {
      const at = `${field}[${i}]`;
      if (c.token(t)) return;
      // the term's fields in the CRDs; those other than `id` are what `id` excludes
      const all = fieldsOf(`${field}[]`);
      const others = all.filter((f) => f !== "id");
      c.fields(at, t, all, `a ${field} term`);
      const fieldOf = (f: string) => (t as Record<string, unknown>)[f];
      const required = field === "capacityReservationSelectorTerms" ? ["tags", "id", "instanceMatchCriteria"] : all;
      if (!required.some((f) => isSet(fieldOf(f))))
        c.fail(
          "EC2NODECLASS_SELECTOR_TERM",
          at,
          t,
          `a term with at least one of ${required.join(", ")} (EC2NodeClass CRD: "expected at least one, got none")`,
        );
      c.pattern(`${at}.id`, t.id, rules.id, rules.idText);
      checkEmptySelectors(c, at, t, others.includes("name") ? ["tags", "name"] : ["tags"], false);
      if (others.includes("name")) c.str(`${at}.name`, t.name);
      checkSelectorTags(c, `${at}.tags`, t.tags);
    }),
  );
  if (list) checkExclusiveTerms(c, field, list);
}

/** The fields the CRD's mutual-exclusion rules name, in the order its rules name them. */
const EXCLUSIVE_ORDER = ["tags", "name", "id", "ownerID", "instanceMatchCriteria"];

/**
 * The CRD's mutual-exclusion rules for subnet, security group and capacity reservation terms, exactly as written:
 * `!self.all(x, has(x.id) && (has(x.tags) || …))` and, for security groups, `!self.all(x, has(x.name) && (has(x.tags)
 * || has(x.id)))`. `all`, not `exists` (unlike amiSelectorTerms' `!self.exists(…)`): the API server refuses the list
 * only when every term combines id (or name) with another field, so [{id, tags}, {tags}] is accepted. The same in
 * every release 1.0–1.15 (karpenter.k8s.aws_ec2nodeclasses.yaml; the capacity reservation rule names tags and ownerID
 * from 1.3, and instanceMatchCriteria too from 1.8, as the fields of a term do). What Karpenter then does with a
 * term the CRD lets through is {@link selectorTermWarnings}'. A list with a reference in it is not judged: `all`
 * cannot be told.
 */
function checkExclusiveTerms(c: Checker, field: string, list: readonly IdTagTerm[]): void {
  if (list.length === 0 || list.some((t) => c.token(t) || !isSet(t) || typeof t !== "object" || Array.isArray(t)))
    return;
  const all = fieldsOf(`${field}[]`);
  const exclusive = (f: "id" | "name") => {
    // the fields the rule names in this release, in the CRD's order (tags first)
    const others = EXCLUSIVE_ORDER.filter(
      (o) => o !== f && all.includes(o) && c.version.atLeast(since(`spec.${field}[].${o}`)),
    );
    const combines = (t: IdTagTerm) => isSet(t[f]) && others.some((o) => isSet((t as Record<string, unknown>)[o]));
    if (!list.every(combines)) return;
    const rule = `!self.all(x, has(x.${f}) && (${others.map((o) => `has(x.${o})`).join(" || ")}))`;
    const why = `the EC2NodeClass CRD refuses a list in which every term sets ${f} together with ${others.join(" or ")} (rule ${rule}: "'${f}' is mutually exclusive, …")`;
    if (list.length === 1)
      c.fail(
        "EC2NODECLASS_SELECTOR_TERM",
        `${field}[0].${f}`,
        list[0][f],
        `${f === "id" ? "an ID" : "a name"} alone in its term: ${why}`,
      );
    else
      c.fail(
        "EC2NODECLASS_SELECTOR_TERM",
        field,
        list,
        `at least one term that does not combine ${f} with ${others.join(" or ")}: all ${list.length} terms do, and ${why}. Put ${f} in a term of its own`,
      );
  };
  c.guard(() => exclusive("id"));
  if (all.includes("name")) c.guard(() => exclusive("name"));
}

/**
 * Fields of a selector term that Karpenter drops without a word, in a list the CRD accepts ({@link
 * checkExclusiveTerms}: not every term combines them). aws/karpenter-provider-aws v1.15.0 builds one EC2 filter set
 * per term with a switch: a security group term with id is selected by group-id alone, one with name (and no id) by
 * group-name alone, only the others by their tags (pkg/providers/securitygroup/securitygroup.go:101-135,
 * getFilterSets); a subnet term with id by subnet-id alone (pkg/providers/subnet/subnet.go:267-295, getFilterSets).
 * A capacity reservation term is queried by id and, when it has tags or instanceMatchCriteria, by those (with the
 * ownerID) too (pkg/providers/capacityreservation/types.go:39-53, QueriesFromSelectorTerms), so only an ownerID beside
 * an id and nothing else is dropped. A warning, not an error: the class works, it only selects more than it says.
 */
export function selectorTermWarnings(name: string, p: Ec2NodeClassOptions): string[] {
  const out: string[] = [];
  const terms = (field: string): Record<string, unknown>[] => {
    const list = (p as Record<string, unknown>)[field];
    return Array.isArray(list) && !isToken(list) ? list.filter(isPlainFields) : [];
  };
  const warn = (field: string, i: number, by: string, dropped: string[], source: string) =>
    out.push(
      `EC2NodeClass ${name}: ${field}[${i}] sets ${by} and ${dropped.join(" and ")}: Karpenter selects by ${by} alone and ignores ${dropped.join(" and ")} (aws/karpenter-provider-aws ${source}), so the term matches whatever has that ${by}, whatever its ${dropped.join(" or ")}. Remove ${dropped.join(" and ")}, or put ${dropped.length > 1 ? "them" : "it"} in a term of ${dropped.length > 1 ? "their" : "its"} own`,
    );
  const sg = "pkg/providers/securitygroup/securitygroup.go:101-135, getFilterSets";
  terms("securityGroupSelectorTerms").forEach((t, i) => {
    if (isSet(t.id)) {
      const dropped = ["tags", "name"].filter((f) => isSet(t[f]));
      if (dropped.length > 0) warn("securityGroupSelectorTerms", i, "id", dropped, sg);
    } else if (isSet(t.name) && isSet(t.tags)) warn("securityGroupSelectorTerms", i, "name", ["tags"], sg);
  });
  terms("subnetSelectorTerms").forEach((t, i) => {
    if (isSet(t.id) && isSet(t.tags))
      warn("subnetSelectorTerms", i, "id", ["tags"], "pkg/providers/subnet/subnet.go:267-295, getFilterSets");
  });
  terms("capacityReservationSelectorTerms").forEach((t, i) => {
    if (isSet(t.id) && isSet(t.ownerID) && !isSet(t.tags) && !isSet(t.instanceMatchCriteria))
      warn(
        "capacityReservationSelectorTerms",
        i,
        "id",
        ["ownerID"],
        "pkg/providers/capacityreservation/types.go:39-53, QueriesFromSelectorTerms: ownerID only narrows the query by tags or instanceMatchCriteria",
      );
  });
  return out;
}

/**
 * EBS volume types that take `iops` and `throughput` (EC2 API Reference, EbsBlockDevice and
 * CreateVolume: Iops "is supported for io1, io2, and gp3 volumes only" / "not supported for gp2,
 * st1, sc1, or standard volumes"; Throughput "is valid only for gp3 volumes"). Karpenter passes
 * them to the launch template unchanged, so EC2 rejects the launch. Their floors, the io1 / io2
 * ceilings, the per-GiB and per-IOPS ratios and the size floors are checked in ebs-rules.ts; gp3's
 * ceilings are not: AWS raised them (80,000 IOPS and 2,000 MiB/s since 2025), and EC2 judges them.
 */
const IOPS_VOLUME_TYPES = ["io1", "io2", "gp3"];
const THROUGHPUT_VOLUME_TYPES = ["gp3"];

function checkBlockDevices(c: Checker, bdms: BlockDeviceMapping[] | undefined): void {
  let list: BlockDeviceMapping[] | undefined;
  c.guard(() => {
    list = c.list("blockDeviceMappings", bdms, 0, 50);
  });
  if (!list) return;
  let roots = 0;
  list.forEach((m, i) => {
    const at = `blockDeviceMappings[${i}]`;
    if (c.token(m)) return;
    if (
      !c.guard(() => c.fields(at, m, fieldsOf("blockDeviceMappings[]"), "a block device mapping")) &&
      (typeof m !== "object" || Array.isArray(m))
    )
      return;
    c.guard(() => c.str(`${at}.deviceName`, m.deviceName));
    c.guard(() => {
      c.bool(`${at}.rootVolume`, m.rootVolume);
      if (m.rootVolume === true) roots++;
      if (m.rootVolume === true && roots > 1)
        c.fail(
          "EC2NODECLASS_ROOT_VOLUME_TWICE",
          `${at}.rootVolume`,
          m.rootVolume,
          'false or unset: only one block device mapping may be the root volume (rootVolume true), and an earlier one already is (EC2NodeClass CRD: "must have only one blockDeviceMappings with rootVolume")',
        );
    });
    const ebs = m.ebs;
    if (!isSet(ebs) || c.token(ebs)) return;
    if (
      !c.guard(() => c.fields(`${at}.ebs`, ebs, fieldsOf("blockDeviceMappings[].ebs"), "an EBS block device")) &&
      (typeof ebs !== "object" || Array.isArray(ebs))
    )
      return;
    checkEbs(c, `${at}.ebs`, ebs);
  });
}

/**
 * What {@link VOLUME_SIZE} takes, in words; for a whole number of Ti the pattern refuses (18Ti) also the same size in
 * Gi, which it takes when it is at most 59000Gi.
 */
function volumeSizeAllowed(value: unknown): string {
  const text =
    'a size with unit Gi, G, Ti or T such as "100Gi": 1–59000Gi, 1–64000G, 1–64T, and in Ti only 1–17, 20–27, 30–37, 40–47 or 50–58 (the EC2NodeClass CRD\'s pattern for Ti allows no second digit above 7)';
  const ti = typeof value === "string" ? /^([1-9][0-9]*)Ti$/.exec(value) : null;
  const gi = ti ? Number(ti[1]) * 1024 : NaN;
  return gi <= 59000 ? `${text}; write "${gi}Gi" for ${value}` : text;
}

/**
 * An EBS volume's iops or throughput: a whole number (the CRD types both as integers), 0 or more. The CRD
 * sets no minimum (the API server takes -5), so a negative number is EC2's refusal, named as such.
 */
function ebsCount(c: Checker, field: string, value: number | undefined, what: string): void {
  if (c.known(value) && typeof value === "number" && Number.isInteger(value) && value < 0)
    c.fail(
      "EC2NODECLASS_EBS_NEGATIVE",
      field,
      value,
      `a whole number, 0 or more: EC2 takes no negative ${what} (EC2 API Reference, EbsBlockDevice), so every launch with this class fails`,
    );
  c.int(field, value, 0, Infinity);
}

/** One EBS volume: each field apart; the iops / throughput rules once the volume type is valid. */
function checkEbs(c: Checker, at: string, ebs: NonNullable<BlockDeviceMapping["ebs"]>): void {
  c.guard(() => {
    if (!isSet(ebs.snapshotID) && !isSet(ebs.volumeSize))
      c.fail(
        "EC2NODECLASS_EBS_SIZE_OR_SNAPSHOT",
        at,
        ebs,
        'an EBS volume with volumeSize (such as "100Gi") or snapshotID (the snapshot to create it from): it needs one of them (EC2NodeClass CRD: "snapshotID or volumeSize must be defined")',
      );
  });
  c.guard(() => {
    c.since(
      `${at}.volumeInitializationRate`,
      ebs.volumeInitializationRate,
      since("spec.blockDeviceMappings[].ebs.volumeInitializationRate"),
      "volumeInitializationRate",
    );
    if (isSet(ebs.volumeInitializationRate) && (!isSet(ebs.snapshotID) || ebs.snapshotID === ""))
      c.fail(
        "EC2NODECLASS_EBS_INITIALIZATION_RATE",
        `${at}.volumeInitializationRate`,
        ebs.volumeInitializationRate,
        'unset, or set together with snapshotID: it is the rate (MiB/s) at which a volume created from a snapshot is initialized (EC2NodeClass CRD: "snapshotID must be set when volumeInitializationRate is set")',
      );
    c.int(`${at}.volumeInitializationRate`, ebs.volumeInitializationRate, 100, 300);
  });
  const sizeValid = c.guard(() =>
    c.pattern(`${at}.volumeSize`, ebs.volumeSize, VOLUME_SIZE, volumeSizeAllowed(ebs.volumeSize)),
  );
  const typeValid = c.guard(() => c.oneOf(`${at}.volumeType`, ebs.volumeType, VOLUME_TYPES));
  const type = typeValid && c.known(ebs.volumeType) ? ebs.volumeType : undefined;
  c.guard(() => {
    ebsCount(c, `${at}.iops`, ebs.iops, "IOPS");
    if (type !== undefined && isSet(ebs.iops) && !IOPS_VOLUME_TYPES.includes(type)) {
      c.fail(
        "EC2NODECLASS_EBS_IOPS",
        `${at}.iops`,
        ebs.iops,
        `unset for volumeType "${type}": EC2 takes iops for io1, io2 and gp3 volumes only (EC2 API Reference, EbsBlockDevice: Iops "is not supported for gp2, st1, sc1, or standard volumes"), so every launch with this class fails. Use volumeType "gp3" to provision IOPS, or leave iops unset`,
      );
    }
  });
  c.guard(() => {
    ebsCount(c, `${at}.throughput`, ebs.throughput, "throughput");
    if (type !== undefined && isSet(ebs.throughput) && !THROUGHPUT_VOLUME_TYPES.includes(type)) {
      c.fail(
        "EC2NODECLASS_EBS_THROUGHPUT",
        `${at}.throughput`,
        ebs.throughput,
        `unset for volumeType "${type}": EC2 takes throughput (MiB/s) for gp3 volumes only (EC2 API Reference, EbsBlockDevice: Throughput "is valid only for gp3 volumes"), so every launch with this class fails. Use volumeType "gp3", or leave throughput unset`,
      );
    }
  });
  // the limits judge a size only once its pattern passed (one problem per field)
  checkEbsLimits(c, at, { ...ebs, volumeSize: sizeValid ? ebs.volumeSize : undefined }, type);
  c.guard(() => c.bool(`${at}.deleteOnTermination`, ebs.deleteOnTermination));
  c.guard(() => c.bool(`${at}.encrypted`, ebs.encrypted));
  c.guard(() => c.str(`${at}.kmsKeyID`, ebs.kmsKeyID));
  c.guard(() => checkEbsKmsKey(c, at, ebs));
  c.guard(() => c.str(`${at}.snapshotID`, ebs.snapshotID));
}

/**
 * Why `value` cannot be written as JSON data (a function, a symbol, a bigint, a number JSON cannot hold, an
 * object that holds itself), naming where under `at`; undefined when it can. Tokens are data (resolved later).
 */
function notData(value: unknown, at: string, seen: readonly object[] = []): string | undefined {
  if (typeof value === "function") return `${at} is a function`;
  if (typeof value === "symbol") return `${at} is a symbol`;
  if (typeof value === "bigint") return `${at} is a bigint (write it as a number)`;
  if (typeof value === "number" && !Number.isFinite(value)) return `${at} is ${value}, which JSON cannot hold`;
  if (value === null || typeof value !== "object" || isToken(value)) return undefined;
  // a Map, Set, Date or other class instance: JSON writes `{}` (or a string) and its content is lost (fresh20 C-1)
  if (!Array.isArray(value) && !isPlainObjectValue(value))
    return `${at} must be a plain object { … }, got ${typeName(value)}, which JSON writes without its content`;
  if (seen.includes(value)) return `${at} holds an object that contains it (a cycle)`;
  // Array.from, not map: map keeps a hole, and the loop below stopped destructuring it (fresh15 C-1); a hole is read
  // as undefined here (data) and refused as a missing item by the list's own check (Checker.list)
  const entries = Array.isArray(value)
    ? Array.from(value as unknown[], (v, i) => [`${at}[${i}]`, v] as const)
    : Object.entries(value).map(([k, v]) => [`${at}.${k}`, v] as const);
  for (const [where, v] of entries) {
    const problem = notData(v, where, [...seen, value]);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * The typed kubelet fields whose kubelet rules this class states itself (the image GC range and order, from the CRDs;
 * clusterDNS IPs, node-semantic-rules.ts): the kubelet's same rules (kubelet-runtime-rules.ts) are not reported twice.
 */
const CLASS_JUDGED_KUBELET_FIELDS: readonly string[] = [
  "imageGCHighThresholdPercent",
  "imageGCLowThresholdPercent",
  "clusterDNS",
];

/**
 * The 12 kubelet fields Karpenter maps itself (typed before 1.15; from 1.15 the only ones the non-AL2023 families
 * take): the fields of `spec.kubelet` in the CRDs that typed it (generated).
 */
export const TYPED_KUBELET_FIELDS: readonly string[] = fieldsOf("kubelet");

/** The EC2NodeClass spec fields of every known release (a spec field written under kubelet is named as one). */
const SPEC_FIELDS: readonly string[] = crdChildren(crdKnown("ec2NodeClass"), "spec");

/**
 * The fields of {@link KubeletConfiguration} as props: the 12 typed fields and `maxPodsExpression`
 * (this library's spelling of an expression in `maxPods`, emitted as `maxPods`).
 */
export const KUBELET_PROPS: readonly string[] = [...TYPED_KUBELET_FIELDS, "maxPodsExpression"];

/** The families whose bootstrap takes a full KubeletConfiguration, or none (Custom: the user's userData). */
const FREE_KUBELET_FAMILIES = ["AL2023", "Custom"];

/**
 * The AMI family the class bootstraps with: `amiFamily`, else the family of its alias term
 * (`al2023@latest` → AL2023); undefined when a token or nothing decides.
 */
export function nodeFamily(p: Ec2NodeClassOptions): string | undefined {
  if (typeof p.amiFamily === "string" && !holdsToken(p.amiFamily)) return p.amiFamily;
  const terms = Array.isArray(p.amiSelectorTerms) && !holdsToken(p.amiSelectorTerms) ? p.amiSelectorTerms : [];
  for (const t of terms) {
    const alias = isPlainFields(t) && typeof t.alias === "string" && !holdsToken(t.alias) ? t.alias : undefined;
    if (alias) return ALIAS_FAMILIES[alias.split("@")[0]];
  }
  return undefined;
}

/**
 * The kubelet fields of `k` that hold a CEL expression (1.15: maxPodsExpression, kubeReserved and
 * systemReserved values): field path (the prop's: `kubelet.maxPodsExpression`) and expression.
 */
export function kubeletExpressionFields(k: KubeletConfiguration | undefined): { field: string; value: string }[] {
  if (!isPlainFields(k)) return [];
  const out: { field: string; value: string }[] = [];
  const m = k.maxPodsExpression;
  if (typeof m === "string" && !holdsToken(m) && !WHOLE_NUMBER_TEXT.test(m))
    out.push({ field: "kubelet.maxPodsExpression", value: m });
  for (const field of ["kubeReserved", "systemReserved"] as const) {
    const m = k[field];
    if (!isPlainFields(m)) continue;
    for (const [key, val] of Object.entries(m))
      if (typeof val === "string" && !holdsToken(val) && !QUANTITY.test(val) && !quantityLookalike(val))
        out.push({ field: entry(`kubelet.${field}`, key), value: val });
  }
  return out;
}

/** A whole number in quotes (`"110"`): a count written as a string, not an expression. */
const WHOLE_NUMBER_TEXT = /^\s*\d+\s*$/;

function checkKubelet(
  c: Checker,
  k: KubeletConfiguration | undefined,
  family: string | undefined,
  kubernetesVersion: string | undefined,
): void {
  if (!isSet(k) || c.token(k)) return;
  // 1.15 made spec.kubelet free-form: the controller, not the API server, judges the fields by AMI family
  const freeForm = c.version.atLeast(crdFreeFormSince("ec2NodeClass", "spec.kubelet")!);
  const expressions = c.version.atLeast(kubeletExpressionsSince());
  if (!freeForm) c.guard(() => c.fields("kubelet", k, KUBELET_PROPS, "kubelet"));
  else if (!isPlainFields(k))
    c.guard(() =>
      c.fail(
        "EC2NODECLASS_KUBELET",
        "kubelet",
        k,
        `kubelet: a plain object of KubeletConfiguration fields, got ${typeName(k)}`,
      ),
    );
  if (typeof k !== "object") return;
  if (freeForm && isPlainFields(k))
    for (const [f, x] of Object.entries(k)) {
      if ((KUBELET_PROPS as readonly string[]).includes(f)) continue;
      const problem = notData(x, `kubelet.${f}`);
      if (problem !== undefined)
        c.guard(() =>
          c.fail(
            "EC2NODECLASS_KUBELET",
            `kubelet.${f}`,
            x,
            `a KubeletConfiguration value written as data (strings, numbers, booleans, lists and maps): Karpenter writes it into the node's configuration as JSON, and ${problem}`,
          ),
        );
    }
  // 1.15+: the upstream KubeletConfiguration Karpenter strict-decodes spec.kubelet into (generated table)
  const upstream = freeForm ? kubeletConfigFields(`1.${c.version.minor}`) : undefined;
  const familyRule = freeForm && family !== undefined && !FREE_KUBELET_FAMILIES.includes(family);
  const notDataFields = new Set<string>();
  if (freeForm && isPlainFields(k))
    for (const [f, x] of Object.entries(k)) if (notData(x, `kubelet.${f}`) !== undefined) notDataFields.add(f);
  if (upstream && isPlainFields(k))
    checkUpstreamKubelet(
      c,
      k,
      upstream,
      KUBELET_PROPS,
      // the per-family rule reports every other field on AL2, Bottlerocket and Windows (registerWithTaints: below)
      (f) => notDataFields.has(f) || (familyRule && f !== "registerWithTaints"),
      SPEC_FIELDS,
    );
  // 1.15+ on AL2023: the kubelet's own validation of the fields passed through (kubelet-runtime-rules.ts), but for
  // the typed fields whose rules this class states with Karpenter's own words below (CLASS_JUDGED_KUBELET_FIELDS)
  if (upstream && family === "AL2023" && isPlainFields(k))
    for (const p of kubeletRuntimeProblems(k, kubernetesVersion).filter(
      (p) => !CLASS_JUDGED_KUBELET_FIELDS.includes(p.field.replace(/^kubelet\./, "").split(/[.[]/)[0]),
    ))
      c.guard(() => c.fail("EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET", p.field, p.value, kubeletRuntimeMessage(p)));
  if (familyRule && family !== undefined) {
    for (const [f, x] of Object.entries(k)) {
      if (!isSet(x) || (KUBELET_PROPS as readonly string[]).includes(f)) continue;
      if (upstream && f === "registerWithTaints") continue;
      c.guard(() =>
        c.fail(
          "EC2NODECLASS_KUBELET_UNKNOWN_FIELD",
          `kubelet.${f}`,
          x,
          withSuggestion(
            `one of the 12 kubelet fields Karpenter maps for the ${family} AMI family: Karpenter ${c.version.full} passes any other KubeletConfiguration field only on AL2023 (and Custom, whose userData you write), and on ${family} sets ValidationSucceeded=False (UnsupportedKubeletConfiguration), so no node launches (Karpenter v1.15 docs, "NodeClasses: AMI Family Support")`,
            f,
            KUBELET_PROPS,
            `12 fields are ${TYPED_KUBELET_FIELDS.join(", ")}`,
          ),
        ),
      );
    }
    c.guard(() => {
      if (family === "Bottlerocket" && isSet(k.podsPerCore))
        c.fail(
          "EC2NODECLASS_KUBELET_FAMILY",
          "kubelet.podsPerCore",
          k.podsPerCore,
          `unset with the Bottlerocket AMI family: Bottlerocket does not apply podsPerCore, and Karpenter ${c.version.full} rejects the class (ValidationSucceeded=False, UnsupportedKubeletConfiguration; Karpenter v1.15 docs, "NodeClasses: AMI Family Support"). Use maxPods instead`,
        );
    });
    c.guard(() => {
      if (Array.isArray(k.clusterDNS) && !holdsToken(k.clusterDNS) && k.clusterDNS.length > 1)
        c.fail(
          "EC2NODECLASS_KUBELET_FAMILY",
          "kubelet.clusterDNS",
          k.clusterDNS,
          `one IP address with the ${family} AMI family: only AL2023 takes a list, and Karpenter ${c.version.full} rejects the class otherwise (ValidationSucceeded=False, UnsupportedKubeletConfiguration; Karpenter v1.15 docs, "NodeClasses: AMI Family Support")`,
        );
    });
  }
  const expression = (at: string, val: string) => {
    const problem = kubeletExpressionProblem(val, /^kubelet\.(kubeReserved|systemReserved)\[/.test(at));
    if (problem)
      c.fail(
        "EC2NODECLASS_KUBELET_EXPRESSION",
        at,
        val,
        `a CEL expression of type int or double over ${KUBELET_EXPRESSION_VARIABLES.join(", ")} (instance_type a string, the others ints), with CEL's standard library and max(a, b), min(a, b) (Karpenter v1.15 docs, "Dynamic Kubelet Configuration via Expressions"): ${problem}`,
      );
  };
  /** A map keyed by eviction signals (a key that is no signal is reported on its entry, with a "did you mean"). */
  const signals = (
    field: string,
    m: { [s: string]: string } | undefined,
    value: (at: string, v: string) => void,
    source = "",
  ) => {
    let entries: [string, string][] = [];
    c.guard(() => {
      entries = c.map(`kubelet.${field}`, m);
    });
    for (const [key, val] of entries) {
      c.guard(() => {
        const at = entry(`kubelet.${field}`, key);
        if (c.known(key) && !(EVICTION_SIGNALS as readonly string[]).includes(key))
          c.failKey(
            "EC2NODECLASS_KUBELET_EVICTION",
            `kubelet.${field}`,
            key,
            val,
            withSuggestion(
              "is not an eviction signal",
              key,
              EVICTION_SIGNALS,
              `keys of ${field} are the signals ${EVICTION_SIGNALS.map((x) => JSON.stringify(x)).join(", ")}`,
            ) + source,
          );
        value(at, val);
      });
    }
  };
  const pct = 'a percentage such as "10%" (at most 100, two decimals) or a quantity such as "100Mi"';
  /** 1.15+: Karpenter's own rule on an eviction threshold (a percentage in [0, 100] or a non-negative quantity). */
  const threshold = (at: string, val: string) => {
    if (!upstream || typeof val !== "string" || !c.known(val)) return;
    const verdict = evictionThresholdProblem(val);
    // NaN passes Karpenter's range check and the kubelet's parse (k8s.io/kubernetes v1.36.3
    // pkg/kubelet/eviction/helpers.go:427-432, strconv.ParseFloat), but no comparison with NaN is true: the signal never
    // fires. Refused by this library, which says so (fresh tester 20 CF-2)
    if (verdict?.refusedBy === "library")
      c.fail(
        "EC2NODECLASS_KUBELET_EVICTION",
        at,
        val,
        `a percentage from 0 to 100 such as "10%" or a non-negative quantity such as "100Mi": ${JSON.stringify(val)} is NaN, which Karpenter ${c.version.full} and the kubelet take (Go's strconv.ParseFloat reads it; k8s.io/kubernetes v1.36.3 pkg/kubelet/eviction/helpers.go:427-432), but no comparison with NaN is true, so the threshold never fires and nothing is evicted for it; refused by this library`,
      );
    if (verdict)
      c.fail(
        "EC2NODECLASS_KUBELET_EVICTION",
        at,
        val,
        `a percentage from 0 to 100 such as "10%" or a non-negative quantity such as "100Mi", and this is ${verdict.problem}: Karpenter ${c.version.full} refuses it ("must be a percentage or a resource quantity", "can't be a negative resource quantity"; ValidationSucceeded=False, InvalidKubeletConfiguration; ${kubeletValidationSource(upstream, "validateEvictionThreshold")})`,
      );
  };
  /**
   * The kubelet's own parse of a threshold it then refuses at start (k8s.io/kubernetes v1.36.3
   * pkg/kubelet/eviction/helpers.go parseThresholdStatement :414-415, a zero quantity: "must be positive"; parseMinimumReclaims
   * :474-475, a percentage of 0 or less), from NewMainKubelet: the kubelet does not start (fresh tester 20 S-10).
   */
  const kubeletRefuses = (at: string, val: string, reclaim: boolean) => {
    if (typeof val !== "string" || !c.known(val)) return;
    // only what Karpenter's own rule (threshold) does not refuse first: a zero quantity, a minimum reclaim of 0% or less
    const kind = kubeletEvictionRefusal(at, val, reclaim)?.kind;
    const refused = reclaim ? kind === "reclaim-not-positive" : kind === "zero-quantity";
    if (refused)
      c.fail(
        "EC2NODECLASS_KUBELET_REFUSED_BY_KUBELET",
        at,
        val,
        reclaim
          ? `a minimum reclaim above 0 (a percentage such as "5%" or a quantity such as "500Mi"): the kubelet refuses a percentage of 0 or less ("eviction percentage minimum reclaim … must be positive", k8s.io/kubernetes v1.36.3 pkg/kubelet/eviction/helpers.go:474-475) when it starts, so the kubelet does not start, so the node never joins the cluster; leave the signal out for no minimum`
          : `a threshold above 0 (a quantity such as "100Mi" or a percentage such as "5%"): the kubelet refuses a zero quantity ("eviction threshold … must be positive", k8s.io/kubernetes v1.36.3 pkg/kubelet/eviction/helpers.go:414-415) when it starts, so the kubelet does not start, so the node never joins the cluster; leave the signal out (or write "0%", which the kubelet ignores) for no threshold`,
      );
  };
  signals("evictionHard", k.evictionHard, (at, val) => {
    // the CRDs before 1.15 hold the value to a pattern (at most two decimals); 1.15's free-form kubelet only to
    // Karpenter's own rule (a percentage is any number from 0 to 100)
    if (upstream) threshold(at, val);
    else c.pattern(at, val, EVICTION_VALUE, pct);
    kubeletRefuses(at, val, false);
  });
  signals("evictionSoft", k.evictionSoft, (at, val) => {
    // the CRDs before 1.15 hold the value to a pattern (at most two decimals); 1.15's free-form kubelet only to
    // Karpenter's own rule (a percentage is any number from 0 to 100)
    if (upstream) threshold(at, val);
    else c.pattern(at, val, EVICTION_VALUE, pct);
    kubeletRefuses(at, val, false);
  });
  // evictionMinimumReclaim is no typed field: Karpenter 1.15 checks it as it does evictionHard
  const reclaim: unknown = k.evictionMinimumReclaim;
  const reclaimField = upstream?.fields.evictionMinimumReclaim;
  if (
    reclaimField &&
    !familyRule &&
    isSet(reclaim) &&
    !c.token(reclaim) &&
    !notDataFields.has("evictionMinimumReclaim") &&
    kindProblem(reclaim, reclaimField.kind, reclaimField.goType) === undefined
  )
    signals(
      "evictionMinimumReclaim",
      reclaim as { [s: string]: string },
      (at, val) => {
        threshold(at, val);
        kubeletRefuses(at, val, true);
      },
      ` (Karpenter ${c.version.full} refuses another key: "isn't a valid eviction signal", ValidationSucceeded=False, InvalidKubeletConfiguration; ${kubeletValidationSource(upstream!, "validateKubeletSemantics")})`,
    );
  signals("evictionSoftGracePeriod", k.evictionSoftGracePeriod, (at, val) => {
    c.duration(
      at,
      val,
      GO_DURATION,
      'a duration such as "1m30s" (Go duration: a number with unit ns, us, ms, s, m or h)',
    );
    // kubernetes pkg/kubelet/eviction/helpers.go parseGracePeriods: `if gracePeriod < 0 { return nil,
    // fmt.Errorf("invalid eviction grace period specified: %v, must be a positive value", val) }`: the
    // kubelet refuses its configuration and the node never joins ("-0s" is zero, which it takes)
    const ns = typeof val === "string" && c.known(val) ? durationNanos(val) : undefined;
    if (ns !== undefined && ns > 0n && val.trim().startsWith("-"))
      c.fail(
        "EC2NODECLASS_KUBELET_EVICTION",
        at,
        val,
        `a non-negative duration such as "1m30s": the kubelet refuses a negative grace period ("invalid eviction grace period specified: ${val}, must be a positive value", kubelet eviction parseGracePeriods), so it does not start and the node never joins`,
      );
  });
  const keys = (m: { [s: string]: string } | undefined): string[] =>
    isSet(m) && !c.token(m) && typeof m === "object" ? Object.keys(m).filter((x) => isSet(m[x])) : [];
  for (const key of keys(k.evictionSoft)) {
    c.guard(() => {
      if (c.known(key) && !keys(k.evictionSoftGracePeriod).includes(key)) {
        c.failKey(
          "EC2NODECLASS_KUBELET_EVICTION",
          "kubelet.evictionSoft",
          key,
          k.evictionSoft![key],
          `has no grace period: a soft eviction threshold needs one, and kubelet.evictionSoftGracePeriod has no entry for "${key}" (add evictionSoftGracePeriod["${key}"], e.g. "1m30s"; EC2NodeClass CRD rule on evictionSoft)`,
        );
      }
    });
  }
  for (const key of keys(k.evictionSoftGracePeriod)) {
    c.guard(() => {
      if (c.known(key) && !keys(k.evictionSoft).includes(key)) {
        c.failKey(
          "EC2NODECLASS_KUBELET_EVICTION",
          "kubelet.evictionSoftGracePeriod",
          key,
          k.evictionSoftGracePeriod![key],
          `has no soft eviction threshold: a grace period belongs to one, and kubelet.evictionSoft has no entry for "${key}" (add evictionSoft["${key}"], e.g. "10%", or remove this entry; EC2NodeClass CRD rule on evictionSoftGracePeriod)`,
        );
      }
    });
  }
  c.guard(() => {
    c.int("kubelet.evictionMaxPodGracePeriod", k.evictionMaxPodGracePeriod);
    const n: unknown = k.evictionMaxPodGracePeriod;
    if (upstream && typeof n === "number" && n < 0)
      c.fail(
        "EC2NODECLASS_KUBELET_NEGATIVE",
        "kubelet.evictionMaxPodGracePeriod",
        n,
        `0 or more (seconds): Karpenter ${c.version.full} refuses a negative evictionMaxPodGracePeriod ("can't be negative"; ValidationSucceeded=False, InvalidKubeletConfiguration; ${kubeletValidationSource(upstream, "validateKubeletSemantics")})`,
      );
  });
  const highValid = c.guard(() => c.int("kubelet.imageGCHighThresholdPercent", k.imageGCHighThresholdPercent, 0, 100));
  const lowValid = c.guard(() => c.int("kubelet.imageGCLowThresholdPercent", k.imageGCLowThresholdPercent, 0, 100));
  c.guard(() => {
    if (
      highValid &&
      lowValid &&
      c.known(k.imageGCHighThresholdPercent) &&
      c.known(k.imageGCLowThresholdPercent) &&
      !(k.imageGCHighThresholdPercent > k.imageGCLowThresholdPercent)
    ) {
      c.fail(
        "EC2NODECLASS_KUBELET_IMAGE_GC",
        "kubelet.imageGCHighThresholdPercent",
        k.imageGCHighThresholdPercent,
        `a percentage greater than kubelet.imageGCLowThresholdPercent (${k.imageGCLowThresholdPercent}) (EC2NodeClass CRD: "imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent")`,
      );
    }
  });
  // one threshold alone against the kubelet's default for the other: on AL2023 (nodeadm sets neither) refused; on
  // the other families the AMI's own kubelet configuration may set it, so ec2-node-class.ts warns instead
  const gcDefault =
    highValid && lowValid && family === "AL2023" ? imageGcDefaultProblem(k as Record<string, unknown>) : undefined;
  if (gcDefault !== undefined)
    c.guard(() =>
      c.fail(
        "EC2NODECLASS_KUBELET_IMAGE_GC",
        gcDefault.field,
        gcDefault.value,
        `${gcDefault.allowed}: the kubelet refuses ${gcDefault.rule} when it starts (${gcDefault.source}), and Karpenter passes the typed thresholds to the AL2023 AMI's nodeadm, which sets neither: the kubelet does not start, so the node never joins the cluster. Set both thresholds`,
      ),
    );
  for (const field of ["kubeReserved", "systemReserved"] as const) {
    let entries: [string, string][] = [];
    c.guard(() => {
      entries = c.map(`kubelet.${field}`, k[field]);
    });
    for (const [key, val] of entries) {
      c.guard(() => {
        const at = entry(`kubelet.${field}`, key);
        if (c.known(key) && !(RESERVED_RESOURCES as readonly string[]).includes(key))
          c.failKey(
            "EC2NODECLASS_KUBELET_RESERVED",
            `kubelet.${field}`,
            key,
            val,
            withSuggestion(
              `is not a resource ${field} takes`,
              key,
              RESERVED_RESOURCES,
              `keys of ${field} are ${RESERVED_RESOURCES.map((x) => JSON.stringify(x)).join(", ")}`,
            ),
          );
        // 1.15: Karpenter refuses any value starting with "-" (strings.HasPrefix), a quantity ("-0") or an expression
        // ("-memory_mib") alike, before evaluating it
        if (upstream && typeof val === "string" && c.known(val) && val.startsWith("-"))
          return c.fail(
            "EC2NODECLASS_KUBELET_RESERVED",
            at,
            val,
            `a quantity or expression that does not start with "-": Karpenter ${c.version.full} refuses any ${field} value starting with "-" before it evaluates an expression ("can't be a negative resource quantity"; ValidationSucceeded=False, InvalidKubeletConfiguration; ${kubeletValidationSource(upstream, "validateKubeletSemantics")}). Write a non-negative quantity, or an expression that does not begin with a minus, e.g. "memory_mib * 0 + 100"`,
          );
        if (typeof val === "string" && c.known(val) && !QUANTITY.test(val)) {
          const meant = quantityLookalike(val);
          if (expressions && meant) return notAQuantity(c, at, key, val, meant);
          if (expressions) return expression(at, val);
          if (kubeletExpressionProblem(val) === undefined)
            c.fail(
              "EC2NODECLASS_KUBELET_RESERVED",
              at,
              val,
              tooOldForExpressions(c, 'a Kubernetes quantity such as "100m", "1Gi" or "1000"'),
            );
        }
        c.pattern(at, val, QUANTITY, 'a Kubernetes quantity such as "100m", "1Gi" or "1000"');
        // the CRD's rule is textual, `!self[x].startsWith('-')`: "-0" is refused too
        if (typeof val === "string" && c.known(val) && val.startsWith("-"))
          c.fail(
            "EC2NODECLASS_KUBELET_RESERVED",
            at,
            val,
            `a non-negative quantity not written with "-": ${field} reserves resources, a negative amount reserves nothing (EC2NodeClass CRD: "${field} value cannot be a negative resource quantity", rule !self[x].startsWith('-'))`,
          );
      });
    }
  }
  checkMaxPods(c, k, expressions, expression);
  c.guard(() => c.int("kubelet.podsPerCore", k.podsPerCore, 0, INT32_MAX));
  c.guard(() => c.bool("kubelet.cpuCFSQuota", k.cpuCFSQuota));
  c.guard(() =>
    c
      .list("kubelet.clusterDNS", k.clusterDNS, 0, Infinity)
      ?.forEach((ip, i) => c.str(`kubelet.clusterDNS[${i}]`, ip, { nonEmpty: true })),
  );
}

/**
 * `maxPods` (a whole number) and `maxPodsExpression` (a CEL expression, 1.15+), the two props of the
 * manifest's one `kubelet.maxPods`: at most one of them, and each of its own type.
 */
function checkMaxPods(
  c: Checker,
  k: KubeletConfiguration,
  expressions: boolean,
  expression: (at: string, val: string) => void,
): void {
  c.guard(() => {
    // a JavaScript caller (or code from before maxPodsExpression) may pass a string
    const n: unknown = k.maxPods;
    if (typeof n === "string" && c.known(n)) {
      const fix = WHOLE_NUMBER_TEXT.test(n)
        ? `write ${n.trim()}, not "${n.trim()}"`
        : `a CEL expression goes in kubelet.maxPodsExpression (Karpenter ${kubeletExpressionsSince()} or later, with settings.awsFeatureGates.nodeClassCEL), which is emitted as the manifest's kubelet.maxPods`;
      c.fail(
        "EC2NODECLASS_KUBELET_MAX_PODS",
        "kubelet.maxPods",
        n,
        `a whole number from 0 to ${INT32_MAX}, got a string: ${fix}`,
      );
    }
    c.int("kubelet.maxPods", k.maxPods, 0, INT32_MAX);
  });
  c.guard(() => {
    const x: unknown = k.maxPodsExpression;
    if (!isSet(x)) return;
    const at = "kubelet.maxPodsExpression";
    // these two hold whatever the value is, a reference too: the field is one, and older CRDs type it as an integer
    if (isSet(k.maxPods)) {
      c.fail(
        "EC2NODECLASS_KUBELET_MAX_PODS",
        at,
        x,
        `unset when kubelet.maxPods is set: both are the manifest's kubelet.maxPods; keep kubelet.maxPods (${JSON.stringify(k.maxPods)}) for a fixed count, or kubelet.maxPodsExpression for a count computed per instance type, not both`,
      );
    }
    if (c.known(x)) {
      if (typeof x !== "string")
        c.fail(
          "EC2NODECLASS_KUBELET_MAX_PODS",
          at,
          x,
          `a CEL expression as a string, got ${typeName(x)}${typeof x === "number" ? `: a fixed count goes in kubelet.maxPods (write maxPods: ${x})` : ""}`,
        );
      if (WHOLE_NUMBER_TEXT.test(x))
        c.fail(
          "EC2NODECLASS_KUBELET_MAX_PODS",
          at,
          x,
          Number(x) > INT32_MAX
            ? `a CEL expression, not a fixed count; ${x.trim()} is also outside maxPods' range 0 to ${INT32_MAX} (Karpenter fails a maxPods outside it, pkg/providers/instancetype/types.go): write kubelet.maxPods as a whole number from 0 to ${INT32_MAX}`
            : `a CEL expression, not a fixed count: write maxPods: ${x.trim()} (kubelet.maxPods needs no feature gate)`,
        );
    }
    if (!expressions)
      c.fail(
        "EC2NODECLASS_KUBELET_EXPRESSION",
        at,
        x,
        tooOldForExpressions(c, `unset (a fixed count goes in kubelet.maxPods, a whole number from 0 to ${INT32_MAX})`),
      );
    if (typeof x === "string" && c.known(x)) expression(at, x);
  });
}

/**
 * A reserved value written as a number and a unit or words (`"1GB"`, `"1 core"`): a quantity was meant, not a
 * CEL expression, so the message says what quantity to write before it mentions expressions.
 */
function notAQuantity(c: Checker, at: string, key: string, val: string, meant: readonly string[]): never {
  const write = meant.length
    ? `write ${meant.map((q) => JSON.stringify(q)).join(" or ")}${meant.length > 1 ? " (decimal or binary units)" : ""}`
    : `write a quantity such as ${key === "cpu" ? '"1" (one CPU) or "100m" (millicores)' : '"1Gi" or "512Mi"'}`;
  return c.fail(
    "EC2NODECLASS_KUBELET_NOT_A_QUANTITY",
    at,
    val,
    `a Kubernetes quantity: "${val}" is not one (quantities are a number with one of the suffixes k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei or m for thousandths, no space, no "B" for bytes, no words; Kubernetes resource.Quantity): ${write}. From Karpenter ${kubeletExpressionsSince()} the value may also be a CEL expression over ${KUBELET_EXPRESSION_VARIABLES.join(", ")} (with the NodeClassCEL gate), which "${val}" is not either`,
  );
}

/** The message for an expression where the targeted release takes only a static value. */
function tooOldForExpressions(c: Checker, allowed: string): string {
  return `${allowed}: kubelet CEL expressions need Karpenter ${kubeletExpressionsSince()} or later (with settings.awsFeatureGates.nodeClassCEL); this object targets Karpenter ${c.version.full}`;
}

/** `enclaveOptions` (1.15): `{ enabled }`, which the v1.15 docs make required when the object is given. */
function checkEnclaveOptions(c: Checker, p: Ec2NodeClassOptions): void {
  const o = p.enclaveOptions;
  c.guard(() => {
    c.since("enclaveOptions", o, since("spec.enclaveOptions"), "enclaveOptions");
    if (!isSet(o) || c.token(o)) return;
    c.fields("enclaveOptions", o, fieldsOf("enclaveOptions"), "enclaveOptions");
    if (!isSet(o.enabled))
      c.fail(
        "EC2NODECLASS_ENCLAVE_OPTIONS",
        "enclaveOptions.enabled",
        o.enabled,
        'true or false: enabled is required when enclaveOptions is given (Karpenter v1.15 docs, "NodeClasses: spec.enclaveOptions"); leave enclaveOptions out to launch without Nitro Enclaves',
      );
    c.bool("enclaveOptions.enabled", o.enabled);
  });
}

function checkMetadataOptions(c: Checker, p: Ec2NodeClassOptions): void {
  const m = p.metadataOptions;
  if (!isSet(m) || c.token(m)) return;
  if (
    !c.guard(() => c.fields("metadataOptions", m, fieldsOf("metadataOptions"), "metadataOptions")) &&
    (typeof m !== "object" || Array.isArray(m))
  )
    return;
  c.guard(() => c.oneOf("metadataOptions.httpEndpoint", m.httpEndpoint, enumOf("metadataOptions.httpEndpoint")));
  c.guard(() =>
    c.oneOf("metadataOptions.httpProtocolIPv6", m.httpProtocolIPv6, enumOf("metadataOptions.httpProtocolIPv6")),
  );
  c.guard(() => c.int("metadataOptions.httpPutResponseHopLimit", m.httpPutResponseHopLimit, 1, 64));
  c.guard(() => c.oneOf("metadataOptions.httpTokens", m.httpTokens, enumOf("metadataOptions.httpTokens")));
}

function checkNetworkInterfaces(c: Checker, nis: NetworkInterface[] | undefined): void {
  let list: NetworkInterface[] | undefined;
  c.guard(() => {
    c.since("networkInterfaces", nis, since("spec.networkInterfaces"), "networkInterfaces");
    list = c.list("networkInterfaces", nis, 0, 150);
  });
  if (!list) return;
  // the rules over the whole list read every interface: they run once each one is valid
  const valid = list.map((n, i) =>
    c.guard(() => {
      const at = `networkInterfaces[${i}]`;
      if (!isSet(n) || c.token(n)) return;
      c.fields(at, n, fieldsOf("networkInterfaces[]"), "a network interface");
      for (const f of ["deviceIndex", "interfaceType", "networkCardIndex"] as const)
        if (!isSet(n[f]))
          c.fail(
            "EC2NODECLASS_NETWORK_INTERFACES",
            `${at}.${f}`,
            undefined,
            `${f === "interfaceType" ? '"interface" or "efa-only"' : "a non-negative integer"} (required)`,
          );
      c.int(`${at}.deviceIndex`, n.deviceIndex, 0, INT32_MAX);
      c.int(`${at}.networkCardIndex`, n.networkCardIndex, 0, INT32_MAX);
      c.oneOf(`${at}.interfaceType`, n.interfaceType, enumOf("networkInterfaces[].interfaceType"));
    }),
  );
  const all = list;
  if (!c.known(all) || valid.includes(false)) return;
  c.guard(() => {
    if (
      all.length > 0 &&
      !all.some((n) => n.deviceIndex === 0 && n.networkCardIndex === 0 && n.interfaceType === "interface")
    ) {
      c.fail(
        "EC2NODECLASS_NETWORK_INTERFACES",
        "networkInterfaces",
        all,
        'a list that includes the primary interface { deviceIndex: 0, networkCardIndex: 0, interfaceType: "interface" } (EC2NodeClass CRD: "networkInterfaces must include a primary interface with interfaceType=\'interface\'")',
      );
    }
  });
  all.forEach((x, i) =>
    c.guard(() => {
      const dup =
        all.filter((y) => y.networkCardIndex === x.networkCardIndex && y.deviceIndex === x.deviceIndex).length !== 1;
      const efa =
        x.interfaceType === "efa-only" &&
        all.filter((y) => y.networkCardIndex === x.networkCardIndex && y.interfaceType === "efa-only").length !== 1;
      const rule =
        '(EC2NodeClass CRD: "networkInterfaces must not have duplicate networkCardIndex and deviceIndex pairs, and can have at most one efa device per network card")';
      if (dup)
        c.fail(
          "EC2NODECLASS_NETWORK_INTERFACES",
          `networkInterfaces[${i}]`,
          x,
          `an interface whose networkCardIndex and deviceIndex (${x.networkCardIndex}, ${x.deviceIndex}) no other interface has ${rule}`,
        );
      if (efa)
        c.fail(
          "EC2NODECLASS_NETWORK_INTERFACES",
          `networkInterfaces[${i}]`,
          x,
          `at most one efa-only interface per network card: network card ${x.networkCardIndex} has more ${rule}`,
        );
    }),
  );
}

function checkPlacementGroup(c: Checker, p: Ec2NodeClassOptions): void {
  const pg = p.placementGroupSelector;
  c.since("placementGroupSelector", pg, since("spec.placementGroupSelector"), "placementGroupSelector");
  if (!isSet(pg) || c.token(pg)) return;
  c.fields("placementGroupSelector", pg, fieldsOf("placementGroupSelector"), "placementGroupSelector");
  if (isSet(pg.name) === isSet(pg.id))
    c.fail(
      "EC2NODECLASS_PLACEMENT_GROUP",
      "placementGroupSelector",
      pg,
      `a placement group by name or by id, exactly one of them (${isSet(pg.name) ? "both are set" : "neither is set"}; EC2NodeClass CRD: ${isSet(pg.name) ? "\"'name' and 'id' are mutually exclusive\"" : '"expected at least one, got none"'})`,
    );
  c.pattern("placementGroupSelector.id", pg.id, /^pg-[0-9a-z]+$/, "a placement group ID such as pg-0123abcd");
  c.str("placementGroupSelector.name", pg.name, { nonEmpty: true });
}

function checkConnectionTracking(c: Checker, p: Ec2NodeClassOptions): void {
  const ct = p.connectionTracking;
  if (!c.guard(() => c.since("connectionTracking", ct, since("spec.connectionTracking"), "connectionTracking"))) return;
  if (!isSet(ct) || c.token(ct)) return;
  if (
    !c.guard(() => c.fields("connectionTracking", ct, fieldsOf("connectionTracking"), "connectionTracking")) &&
    (typeof ct !== "object" || Array.isArray(ct))
  )
    return;
  c.guard(() => {
    if (!isSet(ct.tcpEstablishedTimeout) && !isSet(ct.udpStreamTimeout) && !isSet(ct.udpTimeout))
      c.fail(
        "EC2NODECLASS_CONNECTION_TRACKING",
        "connectionTracking",
        ct,
        "at least one of tcpEstablishedTimeout, udpStreamTimeout or udpTimeout (seconds), or leave connectionTracking unset",
      );
  });
  c.guard(() => c.int("connectionTracking.tcpEstablishedTimeout", ct.tcpEstablishedTimeout, 60, 432000));
  c.guard(() => c.int("connectionTracking.udpStreamTimeout", ct.udpStreamTimeout, 60, 180));
  c.guard(() => c.int("connectionTracking.udpTimeout", ct.udpTimeout, 30, 60));
}
