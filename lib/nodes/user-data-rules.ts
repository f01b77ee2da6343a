import { parse as parseToml, TomlError } from "smol-toml";
import { isIPv6 } from "net";
import { gunzipSync } from "zlib";
import { isScalar, parseAllDocuments, type Document } from "yaml";
import { goTrimSpace } from "../core/go-strings";
import { decodeGoYaml, goYamlDocumentValue, goYamlToJs, MAX_ALIAS_EXPANSION, yamlNesting } from "../core/go-yaml";
import { holdsToken, isToken, suggestion } from "../kubernetes/value-rules";
import type { Checker } from "../kubernetes/value-rules";
import { nearestKey } from "../core/problems";
import { baseRuntimeSpecProblems, OCI_SPEC_SOURCE, RUNC_RLIMITS } from "./oci-spec-rules";
import { bottlerocketSettingsFields } from "../versions/bottlerocket-settings";
import {
  BOTTLEROCKET_DENY_UNKNOWN_SOURCE,
  BOTTLEROCKET_SETTINGS_NAMES_SOURCE,
  BOTTLEROCKET_SETTINGS_READ_UNTIL,
  BOTTLEROCKET_SETTINGS_SINCE_SOURCE,
  bottlerocketK8sSetting,
  bottlerocketSettingInRelease,
  EVERY_K8S_SETTINGS,
  K8S_SETTINGS_NAMES,
} from "../versions/bottlerocket-settings-names";
import { kubeletFlags } from "../versions/kubelet-flags";
import { kubeletConfigFields } from "../versions";
import { KUBELET_EVICTION_SOURCE, kubeletEvictionRefusal, kubeletValueProblem } from "./kubelet-config-rules";
import { kubeletValueProblems, milliByteQuantities } from "./kubelet-runtime-rules";
import {
  karpenterKubeletConfig,
  kubeletConfigProblems,
  nodeConfigRuntimeProblems,
  NodeConfigRuntimeProblem,
  nodeConfigRuntimeWarnings,
  nodeadmSource,
  type Al2023AmiRelease,
  al2023AmiRelease,
  bottlerocketAmiRelease,
  nodeConfigPath,
  nodeConfigSpecProblems,
  environmentProblems,
  kubeletRefusesNodeLabel,
  refusedNodeLabels,
} from "./node-config-rules";
import { KubeletFlagParse, kubeletFlagProblems } from "./kubelet-flag-rules";
import {
  al2023ContainerdMajors,
  al2023ContainerdSummary,
  CONTAINERD_PLUGIN_DECODE,
  containerdConfigVerdict,
  containerdMajorProblems,
  DEFAULT_RUNTIME_SOURCE,
  defaultRuntimeProblems,
  nodeadmRuntimeNames,
  dependsText,
  NODEADM_CONTAINERD_MERGE,
} from "./containerd-config-rules";

/*
 * Literal `userData` against what the AMI family's bootstrap reads. The API server takes any string;
 * Karpenter merges it with its own bootstrap when it builds the launch template, and a document the
 * family cannot read fails every launch with the class (or is dropped without a word). Only literal
 * user data is judged (a token, or a family decided by a token, is not).
 *
 * Bottlerocket (aws/karpenter-provider-aws pkg/providers/amifamily/bootstrap/bottlerocket.go:38-40 and
 * bottlerocketsettings.go:146-183, v1.14.1 and v1.15.0): the user data is TOML, decoded with pelletier/go-toml v2
 * (v2.4.3) into `settings` (an untyped table) and then into the typed BottlerocketSettings (`settings.kubernetes`,
 * `settings.bootstrap-commands` and the structs they hold: lib/versions/data/bottlerocket-settings-fields.json, per
 * minor); a decoding error is "invalid UserData" and no launch template is made. Only `settings` is written back
 * (MarshalTOML), so anything outside it is dropped.
 *
 * AL2023 (bootstrap/nodeadm.go parseUserData, bootstrap/mime/mime.go): user data starting with
 * `MIME-Version:` or `Content-Type:` is a MIME multipart document (Go's net/mail header, a multipart/*
 * Content-Type with a boundary, parts up to the closing boundary), and an error there fails the launch;
 * other user data whose first YAML document is a map, or empty (only comments and whitespace: see blankYaml), is taken
 * as one NodeConfig part (yaml.Unmarshal reads the first document only: a second one is never read, see laterDocument),
 * anything else as a shell script part; only "" is no user data at all. nodeadm then decodes each
 * `application/node.eks.aws` part as a NodeConfig (amazon-eks-ami nodeadm internal/configprovider/userdata.go:96-103,
 * apibridge.DecodeNodeConfig): a map that is not one (a `#cloud-config` document, say), or a part that is no map
 * (empty, only comments), stops the node's bootstrap, and it never joins.
 */

const BR_SOURCE = "Karpenter's Bottlerocket bootstrap, bottlerocketsettings.go";
const AL2023_SOURCE = "Karpenter's AL2023 bootstrap, nodeadm.go";
/**
 * AL2 (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/eksbootstrap.go, the same in v1.0.0 and
 * v1.14.1; AL2 is the one family built on bootstrap.EKS there, al2.go:92): Script merges the class's user data with
 * its bootstrap script (:47-53, mergeCustomUserData :89-107). User data whose trimmed text starts with `MIME-Version:`
 * or `Content-Type:` is taken as MIME as written (mimeify :119-123), any other is wrapped as a shell script part (so a
 * plain script is fine); the MIME document is read with net/mail, mime.ParseMediaType and a multipart reader on its
 * boundary (getMultiPartReader :177-190, copyCustomUserDataParts :144-175), the reading AL2023's mime.go does: an
 * error there ("parsing custom user data input unexpected EOF", "multipart: boundary is empty") fails every launch,
 * and a boundary line that never appears leaves no part, so the user's parts are dropped without a word.
 */
const AL2_SOURCE = "Karpenter's AL2 bootstrap, eksbootstrap.go";

/** Where a family's bootstrap reads MIME user data, for the messages of {@link mimeFinding}. */
interface MimeReader {
  readonly family: string;
  /** The code that reads the document. */
  readonly reads: string;
  /** Where it is taken for MIME (on the trimmed text), and where it is read as written (net/mail). */
  readonly decides: string;
  readonly mail: string;
}
const AL2023_MIME: MimeReader = {
  family: "AL2023",
  reads: `${AL2023_SOURCE}, mime.go NewArchive`,
  decides: "nodeadm.go:127-131",
  mail: "mime.go:109-115",
};
const AL2_MIME: MimeReader = {
  family: "AL2",
  reads: `${AL2_SOURCE}:144-190, copyCustomUserDataParts`,
  decides: "eksbootstrap.go:119-123",
  mail: "eksbootstrap.go:177-178",
};
/**
 * Where nodeadm decodes a NodeConfig part: amazon-eks-ami nodeadm at the version Karpenter v1.15.0's go.mod pins
 * (v0.0.0-20240229193347-cfab22a10647), internal/configprovider/userdata.go:96-103, every application/node.eks.aws part
 * through apibridge.DecodeNodeConfig, which fails on a document without a kind.
 */
const NODEADM_PART_SOURCE = "amazon-eks-ami nodeadm, internal/configprovider/userdata.go:96-103";

/**
 * What the AL2023 checks need beyond the text: the Karpenter minor (`1.15`: which nodeadm's NodeConfig types), and
 * where to put what nodeadm drops without failing (the warnings), when the caller wants it.
 */
interface Al2023Context {
  readonly minor: string;
  readonly dropped?: string[];
  /** The kubelet config fields Karpenter's own NodeConfig sets (karpenterKubeletConfig); undefined: not judged. */
  readonly kubelet?: { readonly [field: string]: unknown };
  /** The cluster's Kubernetes version (its minor decides the kubelet's feature gates); undefined: every minor. */
  readonly kubernetesVersion?: string;
  /** The AL2023 AMI release whose nodeadm decodes the NodeConfig (node-config-rules.ts Al2023AmiRelease). */
  readonly ami: Al2023AmiRelease;
  /**
   * How a message names the NodeConfig when it is an application/node.eks.aws part that was decoded first (base64,
   * gzip): its lines are no lines of the user data, so `offset` is 0 and the part is named here instead.
   */
  readonly part?: string;
}

/** How a message names top-level AL2023 user data. */
const AL2023_TOP = "this user data for the AL2023 AMI family";

/** How a message names the NodeConfig at `offset` (0: the whole user data), or undefined when it is no MIME part. */
function partName(offset: number, ctx: Al2023Context): string | undefined {
  return ctx.part ?? (offset > 0 ? "this application/node.eks.aws part of AL2023 user data" : undefined);
}

/** A problem of the user data: the 1-based line it is on, and what is wrong. */
interface Finding {
  readonly line: number;
  readonly problem: string;
}

/**
 * Refuses literal `userData` the family's bootstrap cannot read, naming the line (all its problems in one error:
 * the first one's line, the others after it).
 * @param family the class's AMI family (amiFamily, or its alias's), undefined when unknown
 */
export function checkUserDataFormat(
  c: Checker,
  family: string | undefined,
  userData: unknown,
  classKubelet?: unknown,
  kubernetesVersion?: string,
  ami?: Al2023AmiRelease,
  bottlerocketRelease?: string,
): void {
  // only "" is no user data (nodeadm.go:123-126 returns no part for it; Bottlerocket's go-toml reads it as no settings):
  // user data of whitespace alone is read like any other, so it is judged (blankYaml)
  if (typeof userData !== "string" || !c.known(userData) || userData === "") return;
  // user data over EC2's limit is refused for its size (the CRD-side check): reading megabytes of it format by format
  // would only slow synth down (a 12 MB document took 95 s) to say more about what never launches
  if (overEc2Limit(userData)) return;
  const found =
    family === "Bottlerocket"
      ? bottlerocketFindings(userData, `1.${c.version.minor}`, classKubelet, kubernetesVersion, bottlerocketRelease)
      : family === "AL2023"
        ? [
            al2023Finding(userData, {
              minor: `1.${c.version.minor}`,
              kubelet: karpenterKubeletConfig(classKubelet),
              kubernetesVersion,
              ami,
            }),
          ].filter((f): f is Finding => f !== undefined)
        : family === "AL2"
          ? [al2Finding(userData)].filter((f): f is Finding => f !== undefined)
          : family?.startsWith("Windows")
            ? [windowsFinding(userData, family)].filter((f): f is Finding => f !== undefined)
            : [];
  const f = chained(found);
  if (f === undefined) return;
  const shown = (userData.split(/\r?\n/)[f.line - 1] ?? "").trim();
  c.fail("EC2NODECLASS_USER_DATA", "userData", shown ? `line ${f.line}: ${shown}` : `line ${f.line}`, f.problem);
}

/** Several findings as one: the first one's line and problem, each other one after it as ". Also line N: …". */
function chained(found: readonly Finding[]): Finding | undefined {
  if (found.length === 0) return undefined;
  const [first, ...more] = found;
  return { line: first.line, problem: first.problem + more.map((m) => `. Also line ${m.line}: ${m.problem}`).join("") };
}

/** Every TOML integer (a bigint, as smol-toml reads it with integersAsBigInt) below `value` outside int64, with its path. */
function tomlIntegersBeyondInt64(value: unknown, path: string): { path: string; key: string; value: bigint }[] {
  const out: { path: string; key: string; value: bigint }[] = [];
  const walk = (v: unknown, p: string, key: string): void => {
    if (typeof v === "bigint") {
      if (v < -(2n ** 63n) || v > 2n ** 63n - 1n) out.push({ path: p, key, value: v });
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${p}[${i}]`, key));
    else if (isTable(v)) for (const [k, x] of Object.entries(v)) walk(x, `${p}.${k}`, k);
  };
  walk(value, path, path);
  return out;
}

/** The 1-based line of character offset `at`. */
const lineOf = (text: string, at: number) => text.slice(0, at).split("\n").length;

/** The line of `key = …` (or `"key" = …`, a dotted `….key = …`) in TOML text, else 1. */
function tomlKeyLine(text: string, key: string): number {
  const esc = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(
    `^\\s*(?:(?:[\\w."-]+\\.)?"?${esc}"?\\s*=|\\[{1,2}\\s*(?:[\\w."-]+\\.)?"?${esc}"?\\s*[.\\]])`,
    "m",
  );
  const m = re.exec(text);
  return m ? lineOf(text, m.index) : 1;
}

/** The TOML type of a value smol-toml parsed with `integersAsBigInt: true` (integers are bigints, floats numbers). */
const tomlType = (v: unknown) =>
  Array.isArray(v)
    ? "an array"
    : v instanceof Date
      ? "a date-time"
      : typeof v === "bigint"
        ? "an integer"
        : typeof v === "number"
          ? "a float"
          : typeof v === "boolean"
            ? "a boolean"
            : typeof v === "string"
              ? "a string"
              : "a table";

/** U+FEFF, which an editor may save at the start of a file. */
const BOM = "\uFEFF";

/**
 * What Karpenter or Bottlerocket refuses in literal Bottlerocket user data. `release`: the Bottlerocket release the
 * class's alias pins (`vX.Y.Z`, node-config-rules.ts bottlerocketAmiRelease), undefined when not pinned.
 */
function bottlerocketFindings(
  userData: string,
  minor: string,
  classKubelet?: unknown,
  kubernetesVersion?: string,
  release?: string,
): Finding[] {
  const found: Finding[] = [];
  // go-toml v2.4.3 has no byte-order-mark handling: toml.Unmarshal (bottlerocketsettings.go:153) fails with
  // "invalid character at start of key: U+00EF" (the BOM's first UTF-8 byte); smol-toml skips it, so it is judged here
  const text = userData.startsWith(BOM) ? userData.slice(1) : userData;
  if (text !== userData)
    found.push({
      line: 1,
      problem: `TOML without a byte-order mark: this user data for the Bottlerocket AMI family starts with a UTF-8 byte-order mark (U+FEFF, which some editors save), and go-toml fails on it ("invalid character at start of key: U+00EF"), so Karpenter fails every launch with "invalid UserData" (${BR_SOURCE}:153, toml.Unmarshal). Save the file without a BOM`,
    });
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text, { integersAsBigInt: true }) as Record<string, unknown>;
  } catch (e) {
    const line = e instanceof TomlError ? e.line : 1;
    // deeper than smol-toml's 1,000 levels: within EC2's 16 KB of user data that is within go-toml's 10,000 (each level
    // takes two characters), so Karpenter decodes it: not refused, only left unchecked (bottlerocketWarnings says so)
    if (tooDeepForReader(e)) return found;
    const what = (e as Error).message.split("\n")[0].replace(/^Invalid TOML document: /, "");
    const shell = /^#!/.test(text.trimStart()) || /^\s*(?:echo|set|export|curl|yum|dnf|apt)\b/m.test(text);
    return [
      ...found,
      {
        line,
        problem: `Bottlerocket settings in TOML (${what}): user data for the Bottlerocket AMI family is TOML, and Karpenter fails every launch with "invalid UserData" when it does not parse (${BR_SOURCE})${shell ? '. A shell script does not run on Bottlerocket: use settings.bootstrap-commands or a bootstrap container, e.g. [settings.bootstrap-commands.setup] commands = [["apiclient", "set", "motd=hello"]]' : ""}`,
      },
    ];
  }
  // go-toml matches keys to struct fields case-insensitively (unmarshaler.go structPlan.lookup: exact, else folded)
  const settingsKeys = Object.keys(doc).filter((k) => k.toLowerCase() === "settings");
  for (const key of Object.keys(doc)) {
    if (settingsKeys.includes(key)) continue;
    found.push({
      line: tomlKeyLine(text, key) || 1,
      problem: `only the settings table (and its subtables, [settings.kubernetes] …): user data for the Bottlerocket AMI family keeps nothing else, Karpenter writes back only "settings" (${BR_SOURCE}, MarshalTOML), so "${key}" would be dropped silently. Did you mean ${settingsSuggestion(key, doc[key])}?`,
    });
  }
  const fields = bottlerocketSettingsFields(minor);
  for (const key of settingsKeys) {
    const settings = doc[key];
    if (!isTable(settings)) {
      found.push({
        line: tomlKeyLine(text, key),
        problem: `a [settings] table, got ${tomlType(settings)}: user data for the Bottlerocket AMI family decodes settings as a table, and Karpenter fails every launch with "invalid UserData" otherwise (${BR_SOURCE})`,
      });
      continue;
    }
    found.push(...bottlerocketSettingsNameFindings(text, settings, release));
    const wrong: TypeProblem[] = [];
    decodeProblems(settings, fields.root, "settings", "settings", fields.structs, wrong);
    if (wrong.length > 0)
      found.push({
        line: tomlKeyLine(text, wrong[0].key),
        problem: `${wrong.map((w) => `${w.path} as ${w.want}, got ${w.got}`).join("; ")}: user data for the Bottlerocket AMI family is decoded into typed settings, and Karpenter fails every launch with "invalid UserData" when a value has another type (${BR_SOURCE}, Karpenter ${minor}'s ${fields.root} struct)`,
      });
    // go-toml parses every integer as an int64 first (v2.4.3 decode.go:91-109 parseInteger, from unmarshaler.go:1748 for
    // a typed field and :2011 for the SettingsRaw map[string]any the other tables decode into), so one past int64 fails
    // Karpenter's decode of the whole user data, whatever the field; Karpenter's own typed fields are reported above
    const typed = new Set(wrong.map((w) => w.path));
    const huge = tomlIntegersBeyondInt64(settings, "settings").filter(
      (h) => ![...typed].some((p) => h.path === p || h.path.startsWith(`${p}.`) || h.path.startsWith(`${p}[`)),
    );
    if (huge.length > 0)
      found.push({
        line: tomlKeyLine(text, huge[0].key),
        problem: `TOML integers from -9223372036854775808 to 9223372036854775807: this user data for the Bottlerocket AMI family has ${huge.map((h) => `${h.path} = ${h.value}`).join(", ")}, and go-toml parses every integer as a 64-bit signed one ("decimal number is too large to fit in a 64-bit signed integer"; github.com/pelletier/go-toml/v2 v2.4.3 decode.go:91-109), so Karpenter fails every launch with "invalid UserData" (${BR_SOURCE}:153, toml.Unmarshal). For an unlimited resource limit write "unlimited" or -1`,
      });
    // on top of Karpenter's types: a value Karpenter already refuses is reported once, above
    const refused = bottlerocketModelProblems(settings, fields.structs[fields.root], new Set(wrong.map((w) => w.path)));
    if (refused.length > 0)
      found.push({
        line: tomlKeyLine(text, refused[0].key),
        problem: `${refused.map((w) => `${w.path} as ${w.want}, got ${w.got}`).join("; ")}: Karpenter takes ${refused.length === 1 ? "this value" : "these values"} (its Go type holds ${refused.length === 1 ? "it" : "them"}) and writes ${refused.length === 1 ? "it" : "them"} into the node's user data, but Bottlerocket itself refuses the settings at boot, when its settings model does not deserialize them, so the node never joins (${BR_MODEL_SOURCE})`,
      });
    const shapes = bottlerocketKubernetesShapeProblems(text, settings, classKubelet, new Set(wrong.map((w) => w.path)));
    if (shapes.problems.length > 0)
      found.push({
        line: shapes.problems[0].line,
        problem: `${shapes.problems.map((w) => `${w.path} as ${w.want}, got ${w.got}`).join("; ")}: Karpenter takes ${shapes.problems.length === 1 ? "this value" : "these values"} (its Go type holds ${shapes.problems.length === 1 ? "it" : "them"}) and writes ${shapes.problems.length === 1 ? "it" : "them"} into the node's user data, but Bottlerocket itself refuses the settings at boot, when its settings model does not deserialize them (${BR_EARLY_BOOT_SOURCE}), so the node never joins (${BR_KUBERNETES_SHAPES_SOURCE})`,
      });
    const eviction = bottlerocketEvictionProblems(text, settings, classKubelet, new Set(wrong.map((w) => w.path)));
    if (eviction.model.length > 0)
      found.push({
        line: eviction.model[0].line,
        problem: `${eviction.model.map((w) => `${w.path} as ${w.want}, got ${w.got}`).join("; ")}: Karpenter takes ${eviction.model.length === 1 ? "this value" : "these values"} (its Go type is map[string]string) and writes ${eviction.model.length === 1 ? "it" : "them"} into the node's user data, but Bottlerocket itself refuses the settings at boot, when its settings model does not deserialize them, so the node never joins (${BR_TYPES_SOURCE}: KubernetesEvictionKey, KubernetesThresholdValue, KubernetesDurationValue)`,
      });
    for (const k of eviction.kubelet)
      found.push({
        line: k.line,
        problem: `${k.path} as a threshold above 0 (a quantity such as "100Mi" or a percentage such as "5%"), got ${JSON.stringify(k.value)}: Karpenter and Bottlerocket's settings model take this value, and Bottlerocket passes it on as the kubelet's ${k.kubeletField}, but the kubelet refuses it when it starts ("${k.error}", ${KUBELET_EVICTION_SOURCE}:${k.lines}), so the kubelet does not start and the node never joins; leave the signal out for no threshold`,
      });
    // a setting the model refuses at boot never reaches the kubelet
    for (const k of bottlerocketKubeletProblems(
      text,
      settings,
      classKubelet,
      new Set([...wrong.map((w) => w.path), ...[...shapes.settings].map((s) => `settings.kubernetes.${s}`)]),
      minor,
      kubernetesVersion,
    ))
      found.push(k);
    const labels = bottlerocketNodeLabelProblems(text, settings, new Set(wrong.map((w) => w.path)));
    if (labels.model.length > 0)
      found.push({
        line: labels.model[0].line,
        problem: `${labels.model.map((w) => `${w.path} as ${w.want}, got ${w.got}`).join("; ")}: Karpenter keeps the user data's node labels (its Go type is map[string]string; it merges its own labels over them, ${BR_LABELS_SOURCE}) and writes ${labels.model.length === 1 ? "it" : "them"} into the node's user data, but Bottlerocket itself refuses the settings at boot, when its settings model does not deserialize them, so the node never joins (${BR_TYPES_SOURCE}: KubernetesLabelKey, KubernetesLabelValue)`,
      });
    const bootstrap = bottlerocketBootstrapProblems(text, settings, new Set(wrong.map((w) => w.path)));
    if (bootstrap.commands.length > 0)
      found.push({
        line: bootstrap.commands[0].line,
        problem: `${bootstrap.commands.map((w) => `${w.path} as ${w.want}, got ${w.got}`).join("; ")}: Karpenter takes ${bootstrap.commands.length === 1 ? "this value" : "these values"} (its BootstrapCommand struct holds any string) and writes ${bootstrap.commands.length === 1 ? "it" : "them"} into the node's user data, but Bottlerocket itself refuses the settings at boot, when its settings model does not deserialize them (${BR_EARLY_BOOT_SOURCE}), so the node never joins (${BR_BOOTSTRAP_COMMANDS_SOURCE}; the types: ${BR_SHARED_TYPES_SOURCE})`,
      });
    if (bootstrap.containers.length > 0)
      found.push({
        line: bootstrap.containers[0].line,
        problem: `${bootstrap.containers.map((w) => `${w.path} as ${w.want}, got ${w.got}`).join("; ")}: Karpenter passes settings.bootstrap-containers on as written (its struct has no such field, and it writes the other settings tables of this user data for the Bottlerocket AMI family back unchanged), but Bottlerocket itself refuses the settings at boot, when its settings model does not deserialize them (${BR_EARLY_BOOT_SOURCE}), so the node never joins (${BR_BOOTSTRAP_CONTAINERS_SOURCE}; the types: ${BR_SHARED_TYPES_SOURCE})`,
      });
    found.push(...bottlerocketRlimitFindings(text, settings));
    for (const t of bottlerocketPassthroughProblems(text, settings))
      found.push({
        line: t.problems[0].line,
        problem: `${t.problems.map((w) => `${w.path} as ${w.want}, got ${w.got}`).join("; ")}: Karpenter passes settings.${t.table} on as written (its struct has no such field, and it writes the other settings tables of this user data for the Bottlerocket AMI family back unchanged), but Bottlerocket itself refuses the settings at boot, when its settings model does not deserialize them (${BR_EARLY_BOOT_SOURCE}), so the node never joins (${t.source})`,
      });
    for (const k of labels.kubelet)
      found.push({
        line: k.line,
        problem: `${k.path} as ${k.want}, got ${JSON.stringify(k.key)}: Karpenter keeps the user data's node labels (it merges its own over them and leaves kubernetes.io / k8s.io keys out of its own, ${BR_LABELS_SOURCE}) and ${BR_TYPES_SOURCE} takes the key (KubernetesLabelKey); the kubelet takes node labels only through a flag (its KubeletConfiguration has no labels field), and Bottlerocket passes node-labels on to the kubelet's --node-labels, but the kubelet refuses to start with "${k.error}" (${KUBELET_LABEL_SOURCE}), so the node never joins. ${k.hint}`,
      });
  }
  return found;
}

/** What a process rlimit with the soft limit above the hard one does, for both paths that write one for runc. */
const RLIMIT_EINVAL =
  'runc sets every rlimit of the spec with prlimit when it starts a container, and the kernel refuses a soft limit above the hard one with EINVAL (setrlimit(2); runc libcontainer setupRlimits: "error setting rlimit type"), so no container starts on the node (the pause containers of every pod included) and it never becomes Ready';

/** The largest rlimit, which "unlimited" and -1 stand for (schnauzer's get_limit: u64::MAX). */
const RLIMIT_INFINITY = 2n ** 64n - 1n;

/**
 * `[settings.oci-defaults.resource-limits.<type>]` without hard-limit or soft-limit, or with soft-limit above
 * hard-limit. The model needs both: OciDefaultsResourceLimitV1 is `#[model(add_option = false)]`, its two fields plain
 * i64 (BR_FORK oci-defaults/src/lib.rs:20-27), so serde refuses the settings ("missing field") and the node never
 * joins. It takes each limit alone, though, and schnauzer writes both into containerd's base runtime spec
 * (bottlerocket-core-kit@a10182f9 sources/api/schnauzer/src/helpers/mod.rs:1197-1214, -1 as u64::MAX).
 */
function bottlerocketRlimitFindings(text: string, settings: Record<string, unknown>): Finding[] {
  const defaults = settings["oci-defaults"];
  const limits = isTable(defaults) ? defaults["resource-limits"] : undefined;
  if (!isTable(limits)) return [];
  // -1 ("unlimited") is the largest, as schnauzer writes it
  const limit = (v: unknown): bigint | undefined => {
    const n = rlimitNumber(v);
    return n === -1n ? RLIMIT_INFINITY : n;
  };
  const out: Finding[] = [];
  for (const [name, l] of Object.entries(limits)) {
    if (!isTable(l)) continue;
    const header = `settings.oci-defaults.resource-limits.${name}`;
    const absent = ["hard-limit", "soft-limit"].filter((k) => !(k in l));
    if (absent.length > 0) {
      const present = Object.keys(l).find((k) => k === "hard-limit" || k === "soft-limit");
      out.push({
        line: present ? tomlKeyLineIn(text, header, present) : settingsNameLine(text, name),
        problem: `${header} with both hard-limit and soft-limit (a whole number, -1 or "unlimited"), got ${absent.length === 2 ? "neither" : `no ${absent[0]}`}: Bottlerocket's settings model has no default for either (OciDefaultsResourceLimitV1 is #[model(add_option = false)], ${BR_FORK}oci-defaults/src/lib.rs:20-27), so it refuses the settings from this user data for the Bottlerocket AMI family at boot ("missing field ${absent[0]}", ${BR_EARLY_BOOT_SOURCE}) and the node never joins. Write both (the same number for one limit), or leave the table out`,
      });
      continue;
    }
    const soft = limit(l["soft-limit"]);
    const hard = limit(l["hard-limit"]);
    if (soft === undefined || hard === undefined || soft <= hard) continue;
    out.push({
      line: tomlKeyLineIn(text, header, "soft-limit"),
      problem: `${header} with soft-limit at most hard-limit ("unlimited" and -1 are the largest), got soft-limit ${tomlJson(l["soft-limit"])} above hard-limit ${tomlJson(l["hard-limit"])}: Bottlerocket's settings model takes each limit alone and writes both into containerd's base runtime spec (bottlerocket-core-kit@a10182f9 sources/api/schnauzer/src/helpers/mod.rs:1197-1214), from this user data for the Bottlerocket AMI family, and ${RLIMIT_EINVAL}`,
    });
  }
  return out;
}

/**
 * The table a top-level key outside `settings` was surely meant as: `[settings.<rest>]` when the key is a typo of
 * `settings` itself (`[setting.kubernetes]` → `[settings.kubernetes]`), else `[settings.<key>]`.
 */
function settingsSuggestion(key: string, value: unknown): string {
  if (nearestKey(key, ["settings"]) === undefined) return `[settings.${key}]`;
  const tables = isTable(value) ? Object.keys(value).filter((k) => isTable(value[k])) : [];
  return tables.length === 1 ? `[settings.${tables[0]}]` : "[settings]";
}

/** The line of settings table `name`: its header or key (tomlKeyLine), else the first dotted key it starts. */
function settingsNameLine(text: string, name: string): number {
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const header = new RegExp(`^\\s*(?:\\[{1,2}\\s*(?:[\\w"-]+\\.)?|(?:[\\w"-]+\\.)?)"?${esc}"?\\s*[.=\\]]`, "m").exec(
    text,
  );
  return header ? lineOf(text, header.index) : tomlKeyLine(text, name);
}

/**
 * `[settings.<name>]` tables no aws-k8s variant has (Karpenter's Bottlerocket AMI family launches only those):
 * Karpenter passes every settings table but kubernetes and bootstrap-commands on as written (karpenter-provider-aws
 * v1.15.0 pkg/providers/amifamily/bootstrap/bottlerocketsettings.go:39, `SettingsRaw map[string]any toml:"settings"`,
 * and MarshalTOML :185-194, which writes them back beside its own kubernetes and bootstrap-commands, so a case-folded
 * `Kubernetes` is written back too), and Bottlerocket's settings model denies unknown fields, case-sensitively
 * (BOTTLEROCKET_DENY_UNKNOWN_SOURCE): the apiserver deserializes the PATCH into it (bottlerocket-core-kit@a10182f9
 * sources/api/apiserver/src/server/mod.rs:301-310, web::Json<Settings>) and early-boot-config stops on the refusal
 * (BR_EARLY_BOOT_SOURCE). The names: lib/versions/bottlerocket-settings-names.ts. A name only some aws-k8s variants
 * have is a warning ({@link bottlerocketSettingsNameWarnings}).
 */
function bottlerocketSettingsNameFindings(
  text: string,
  settings: Record<string, unknown>,
  release: string | undefined,
): Finding[] {
  const out: Finding[] = [];
  for (const name of Object.keys(settings)) {
    const known = bottlerocketK8sSetting(name);
    if (known.has !== "none") {
      const older = release === undefined ? undefined : bottlerocketSettingOlderFinding(text, name, release);
      if (older) out.push(older);
      continue;
    }
    const near = nearestKey(name, K8S_SETTINGS_NAMES);
    const why = known.which
      ? `settings.${name} is a setting of ${known.which} only, no aws-k8s variant has it`
      : `no aws-k8s variant has a "${name}" setting`;
    out.push({
      line: settingsNameLine(text, name),
      problem: `a settings table an aws-k8s variant has (${EVERY_K8S_SETTINGS.join(", ")}; some variants also ${K8S_SETTINGS_NAMES.filter((n) => !EVERY_K8S_SETTINGS.includes(n)).join(", ")}), got [settings.${name}]: Karpenter passes settings.${name} on as written (it types only kubernetes and bootstrap-commands, and writes the other settings tables of this user data for the Bottlerocket AMI family back unchanged, ${BR_SOURCE}:39, SettingsRaw), but Bottlerocket itself refuses the settings at boot: ${why}, and its settings model denies unknown fields (${BOTTLEROCKET_DENY_UNKNOWN_SOURCE}; the names: ${BOTTLEROCKET_SETTINGS_NAMES_SOURCE}), so early-boot-config refuses the whole user data (${BR_EARLY_BOOT_SOURCE}) and the node never joins${near ? `. Did you mean [settings.${near}]?` : ". Fix the name, or remove the table"}`,
    });
  }
  return out;
}

/**
 * `[settings.<name>]`, a table some aws-k8s variant has, refused when the class pins a Bottlerocket release before the
 * setting's first (lib/versions/bottlerocket-settings-names.ts BOTTLEROCKET_SETTINGS_SINCE): that release's settings
 * model has no such field and denies unknown fields, as {@link bottlerocketSettingsNameFindings} says.
 */
function bottlerocketSettingOlderFinding(text: string, name: string, release: string): Finding | undefined {
  const inRelease = bottlerocketSettingInRelease(name, release);
  if (inRelease.has !== "older") return undefined;
  const came = inRelease.since
    ? `settings.${name} came in Bottlerocket ${inRelease.since} (no aws-k8s variant of an earlier release has it; ${BOTTLEROCKET_SETTINGS_SINCE_SOURCE})`
    : `settings.${name} is in no aws-k8s variant up to Bottlerocket ${BOTTLEROCKET_SETTINGS_READ_UNTIL} (${BOTTLEROCKET_SETTINGS_SINCE_SOURCE}; it came later)`;
  return {
    line: settingsNameLine(text, name),
    problem: `a settings table Bottlerocket ${release} has, got [settings.${name}]: Karpenter writes settings.${name} of this user data for the Bottlerocket AMI family into the node's user data (${BR_SOURCE}, MarshalTOML), but Bottlerocket itself refuses the settings at boot: ${came}, and the class pins bottlerocket@${release}, whose settings model has no such field and denies unknown fields (${BOTTLEROCKET_DENY_UNKNOWN_SOURCE}), so early-boot-config refuses the whole user data (${BR_EARLY_BOOT_SOURCE}) and the node never joins. Pin ${inRelease.since ? `bottlerocket@${inRelease.since} or later` : "a later release"} (or bottlerocket@latest), or remove the table`,
  };
}

/**
 * The warnings for `[settings.<name>]` tables only some aws-k8s variants have (an NVIDIA-only table, say): on an AMI
 * of another variant Bottlerocket refuses the settings at boot, as {@link bottlerocketSettingsNameFindings} says.
 */
function bottlerocketSettingsNameWarnings(
  text: string,
  settings: Record<string, unknown>,
  release: string | undefined,
): string[] {
  const out: string[] = [];
  for (const name of Object.keys(settings)) {
    const known = bottlerocketK8sSetting(name);
    if (known.has !== "some") continue;
    // a pinned release later than the releases read: the setting's first release is not established here
    const uncertain =
      release !== undefined && bottlerocketSettingInRelease(name, release).has === "uncertain"
        ? ` Its first release is also not established here (no aws-k8s variant up to Bottlerocket ${BOTTLEROCKET_SETTINGS_READ_UNTIL} has it, ${BOTTLEROCKET_SETTINGS_SINCE_SOURCE}): if bottlerocket@${release} predates it, Bottlerocket refuses it on every variant.`
        : "";
    out.push(
      `line ${settingsNameLine(text, name)}: settings.${name} is a setting of ${known.which} only (${BOTTLEROCKET_SETTINGS_NAMES_SOURCE}): Karpenter passes it on as written, and on an AMI of another variant Bottlerocket itself refuses the settings at boot (its settings model denies unknown fields, ${BOTTLEROCKET_DENY_UNKNOWN_SOURCE}; ${BR_EARLY_BOOT_SOURCE}), so the node never joins. Karpenter's Bottlerocket alias picks the variant by instance type (the -nvidia AMI for NVIDIA GPU instances): keep this class to instance types and AMIs of such a variant, or remove the table.${uncertain}`,
    );
  }
  return out;
}

/** A value of the wrong TOML type: its dotted path, the key whose line is shown, what the Go type takes, what it is. */
interface TypeProblem {
  readonly path: string;
  readonly key: string;
  readonly want: string;
  readonly got: string;
}

/** The range of each Go integer type (go-toml refuses a value outside it: "integer value … cannot be stored in …"). */
const GO_INTEGERS: Record<string, readonly [bigint, bigint]> = {
  int: [-(2n ** 63n), 2n ** 63n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int16: [-(2n ** 15n), 2n ** 15n - 1n],
  int8: [-(2n ** 7n), 2n ** 7n - 1n],
  uint: [0n, 2n ** 64n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint16: [0n, 2n ** 16n - 1n],
  uint8: [0n, 2n ** 8n - 1n],
};

/**
 * Where Bottlerocket's own settings model types `[settings.kubernetes]`: bottlerocket-os/bottlerocket-settings-sdk at
 * commit 2363566c96136664fd8c143a57c7f245af7f6714, bottlerocket-settings-models/settings-extensions/kubernetes/src/lib.rs
 * (KubernetesSettingsV1; the same types in bottlerocket-os/bottlerocket sources/models/src/lib.rs).
 */
const BR_MODEL_SOURCE =
  "Bottlerocket's settings model, bottlerocket-settings-sdk@2363566c bottlerocket-settings-models/settings-extensions/kubernetes/src/lib.rs, KubernetesSettingsV1";

/**
 * The integer ranges Bottlerocket's settings model (BR_MODEL_SOURCE) puts on `[settings.kubernetes]` keys that Karpenter
 * types more widely (`*int`, `*uint32`: lib/versions/data/bottlerocket-settings-fields.json), so Karpenter's decode
 * passes a value Bottlerocket's API then refuses at boot. Kept by hand, unlike the Karpenter table: the model is a Rust
 * crate, not in the Go module cache that scripts/bottlerocket-settings-fields.ts reads, so it cannot be generated here.
 * Read, not executed (Rust serde: a value outside the field's integer type fails to deserialize). Only the types whose
 * range is known here: u8, u32, i32, i64, and NonNegativeInteger's lower bound 0 (bottlerocket-modeled-types; its upper
 * bound is not stated, so Karpenter's is kept). IntegerPercent (image-gc-*-threshold-percent, which Karpenter types as
 * strings) is BR_KUBERNETES_SHAPES'.
 */
const BR_MODEL_INTEGERS: {
  readonly [key: string]: { readonly type: string; readonly min: bigint; readonly max?: bigint };
} = {
  "max-pods": { type: "u32", min: 0n, max: 2n ** 32n - 1n },
  "log-level": { type: "u8", min: 0n, max: 2n ** 8n - 1n },
  "registry-qps": { type: "i32", min: -(2n ** 31n), max: 2n ** 31n - 1n },
  "registry-burst": { type: "i32", min: -(2n ** 31n), max: 2n ** 31n - 1n },
  "event-qps": { type: "i32", min: -(2n ** 31n), max: 2n ** 31n - 1n },
  "event-burst": { type: "i32", min: -(2n ** 31n), max: 2n ** 31n - 1n },
  "kube-api-qps": { type: "i32", min: -(2n ** 31n), max: 2n ** 31n - 1n },
  "kube-api-burst": { type: "i32", min: -(2n ** 31n), max: 2n ** 31n - 1n },
  "container-log-max-files": { type: "i32", min: -(2n ** 31n), max: 2n ** 31n - 1n },
  "container-log-max-workers": { type: "i32", min: -(2n ** 31n), max: 2n ** 31n - 1n },
  "pod-pids-limit": { type: "i64", min: -(2n ** 63n), max: 2n ** 63n - 1n },
  "eviction-max-pod-grace-period": { type: "NonNegativeInteger", min: 0n },
};

/**
 * The `[settings.kubernetes]` integers Karpenter's type takes (decodeProblems passed them) but Bottlerocket's settings
 * model refuses (BR_MODEL_INTEGERS). Keys are matched as go-toml matches them (exact, else case-folded), since Karpenter
 * writes them back under its own key names.
 */
function bottlerocketModelProblems(
  settings: Record<string, unknown>,
  rootFields: { readonly [key: string]: string } | undefined,
  karpenterRefused: ReadonlySet<string>,
): TypeProblem[] {
  const out: TypeProblem[] = [];
  const kubernetesKey =
    Object.keys(settings).find((k) => k === "kubernetes") ??
    Object.keys(settings).find((k) => k.toLowerCase() === "kubernetes");
  const kubernetes = kubernetesKey === undefined ? undefined : settings[kubernetesKey];
  if (!rootFields?.kubernetes || !isTable(kubernetes)) return out;
  for (const [k, v] of Object.entries(kubernetes)) {
    const field = k in BR_MODEL_INTEGERS ? k : Object.keys(BR_MODEL_INTEGERS).find((f) => f === k.toLowerCase());
    const path = `settings.${kubernetesKey}.${k}`;
    if (field === undefined || typeof v !== "bigint" || karpenterRefused.has(path)) continue;
    const { type, min, max } = BR_MODEL_INTEGERS[field];
    if (v >= min && (max === undefined || v <= max)) continue;
    const want =
      max === undefined
        ? `an integer from ${min} up (Bottlerocket's ${type})`
        : `an integer from ${min} to ${max} (Bottlerocket's ${type})`;
    out.push({ path, key: k, want, got: `${v}, which is out of range` });
  }
  return out;
}

/**
 * Where Bottlerocket's settings model types the eviction maps of `[settings.kubernetes]` (KubernetesSettingsV1:
 * eviction-hard and eviction-soft HashMap<KubernetesEvictionKey, KubernetesThresholdValue>, eviction-soft-grace-period
 * HashMap<KubernetesEvictionKey, KubernetesDurationValue>): bottlerocket-os/bottlerocket-settings-sdk at commit
 * 25e4241f2d9546b275735826cff57c8905fa265e, bottlerocket-settings-models/modeled-types/src/kubernetes.rs. Read, not
 * executed.
 */
const BR_TYPES_SOURCE =
  "Bottlerocket's settings model, bottlerocket-settings-sdk@25e4241f bottlerocket-settings-models/modeled-types/src/kubernetes.rs";
/** KubernetesEvictionKey: the six signals Bottlerocket takes (the kubelet knows more, e.g. allocatableMemory.available). */
const BR_EVICTION_SIGNALS = [
  "memory.available",
  "nodefs.available",
  "nodefs.inodesFree",
  "imagefs.available",
  "imagefs.inodesFree",
  "pid.available",
];
/** KubernetesThresholdValue's quantity (its KUBERNETES_QUANTITY regex, looser than the kubelet's ParseQuantity). */
const BR_QUANTITY = /^([+-]?[0-9.]+)((e)?[0-9]*)$|^([+-]?[0-9.]+)((E|P|T|G|M|K)i?)?$|^([+-]?[0-9.]+)(n|u|m|k)?$/;
/** KubernetesDurationValue (not empty, no sign, no ns / us). */
const BR_DURATION = /^(([0-9]+\.)?[0-9]+h)?(([0-9]+\.)?[0-9]+m)?(([0-9]+\.)?[0-9]+s)?(([0-9]+\.)?[0-9]+ms)?$/;
/** What Rust's `str::parse::<f32>` reads (KubernetesThresholdValue's percentage): no hex, no `_`, inf and nan. */
const RUST_FLOAT = /^[+-]?(?:inf|infinity|nan|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)$/i;

/** The eviction maps of Karpenter's BottlerocketKubernetes, the class's kubelet field that replaces each, the kubelet's. */
const BR_EVICTION_TABLES: readonly {
  readonly key: string;
  readonly classField: string;
  readonly durations: boolean;
}[] = [
  { key: "eviction-hard", classField: "evictionHard", durations: false },
  { key: "eviction-soft", classField: "evictionSoft", durations: false },
  { key: "eviction-soft-grace-period", classField: "evictionSoftGracePeriod", durations: true },
];

/** The value of a table's `key` as go-toml matches it (exact, else case-folded), and the key as written. */
function foldedEntry(table: Record<string, unknown>, key: string): [string, unknown] | undefined {
  // own keys only: a TOML table parsed by smol-toml is a plain object, and `key in` would find "constructor" on it
  const k = Object.prototype.hasOwnProperty.call(table, key)
    ? key
    : Object.keys(table).find((x) => x.toLowerCase() === key);
  return k === undefined ? undefined : [k, table[k]];
}

/**
 * The line of `key` inside the TOML table `[header]` or array of tables `[[header]]` (its first; a list index in the
 * header, `mirrors[0]`, is dropped), else anywhere: {@link tomlKeyLine}.
 */
function tomlKeyLineIn(text: string, header: string, key: string): number {
  const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const parts = header
    .replace(/\[\d+\]/g, "")
    .split(".")
    .map(esc);
  const m = new RegExp(`^\\s*\\[\\[?\\s*${parts.join("\\s*\\.\\s*")}\\s*\\]`, "m").exec(text);
  if (!m) return tomlKeyLine(text, key);
  const rest = text.slice(m.index);
  return lineOf(text, m.index) + tomlKeyLine(rest, key) - 1;
}

/**
 * The eviction settings of `[settings.kubernetes]` that Karpenter passes on (its Go type is map[string]string) but
 * Bottlerocket's settings model refuses at boot (`model`: a key that is no KubernetesEvictionKey, a threshold that is no
 * KubernetesThresholdValue — a percentage outside [0, 100) after f32 rounding, or no quantity —, a grace period that is no
 * KubernetesDurationValue), or that the model takes and the kubelet refuses when it starts (`kubelet`:
 * {@link kubeletEvictionRefusal}: a quantity that is zero, negative or not one to ParseQuantity). A table the class's
 * kubelet also sets is skipped: Karpenter then writes the class's map over it (bottlerocket.go:68-79), so the user
 * data's never reaches the node.
 */
function bottlerocketEvictionProblems(
  text: string,
  settings: Record<string, unknown>,
  classKubelet: unknown,
  karpenterRefused: ReadonlySet<string>,
): {
  model: (TypeProblem & { line: number })[];
  kubelet: { path: string; line: number; value: string; kubeletField: string; error: string; lines: string }[];
} {
  const out = {
    model: [] as (TypeProblem & { line: number })[],
    kubelet: [] as ReturnType<typeof bottlerocketEvictionProblems>["kubelet"],
  };
  const kubernetes = foldedEntry(settings, "kubernetes");
  if (!kubernetes || !isTable(kubernetes[1])) return out;
  const kubelet = isTable(classKubelet) ? classKubelet : {};
  for (const { key, classField, durations } of BR_EVICTION_TABLES) {
    const table = foldedEntry(kubernetes[1], key);
    if (!table || !isTable(table[1]) || (kubelet[classField] !== undefined && kubelet[classField] !== null)) continue;
    const header = `settings.${kubernetes[0]}.${table[0]}`;
    for (const [signal, v] of Object.entries(table[1])) {
      const path = `${header}.${JSON.stringify(signal)}`;
      if (typeof v !== "string" || karpenterRefused.has(`${header}.${signal}`)) continue;
      const line = tomlKeyLineIn(text, header, signal);
      if (!BR_EVICTION_SIGNALS.includes(signal)) {
        const near = suggestion(signal, BR_EVICTION_SIGNALS);
        out.model.push({
          path,
          key: signal,
          line,
          want: `a key that is one of Bottlerocket's eviction signals (${BR_EVICTION_SIGNALS.join(", ")}${near ? `; ${near}` : ""})`,
          got: JSON.stringify(signal),
        });
        continue;
      }
      if (durations) {
        if (v === "" || !BR_DURATION.test(v))
          out.model.push({
            path,
            key: signal,
            line,
            want: 'a duration such as "1m30s" (h, m, s, ms; Bottlerocket\'s KubernetesDurationValue)',
            got: JSON.stringify(v),
          });
        continue;
      }
      if (v.endsWith("%")) {
        const n = v.slice(0, -1);
        const x = RUST_FLOAT.test(n)
          ? Math.fround(Number(/^[+-]?inf/i.test(n) ? n.replace(/inf(inity)?/i, "Infinity") : n))
          : NaN;
        if (!(x >= 0 && x < 100))
          out.model.push({
            path,
            key: signal,
            line,
            want: 'a percentage from 0 up to, not including, 100 such as "10%" (Bottlerocket\'s KubernetesThresholdValue)',
            got: JSON.stringify(v),
          });
        continue;
      }
      if (!BR_QUANTITY.test(v)) {
        out.model.push({
          path,
          key: signal,
          line,
          want: 'a percentage such as "10%" or a Kubernetes quantity such as "100Mi" (Bottlerocket\'s KubernetesThresholdValue)',
          got: JSON.stringify(v),
        });
        continue;
      }
      const refused = kubeletEvictionRefusal(signal, v, false);
      if (refused)
        out.kubelet.push({
          path,
          line,
          value: v,
          kubeletField: classField,
          error: refused.error,
          lines: refused.lines,
        });
    }
  }
  return out;
}

/**
 * What Karpenter does with `settings.kubernetes.node-labels` of Bottlerocket user data (karpenter-provider-aws v1.15.0):
 * bottlerocket.go:47 merges the NodeClaim's labels over the user data's (mergo.MergeWithOverwrite: the user's keys stay
 * unless Karpenter writes the same key), and those labels are RejectForbiddenLabels' (resolver.go:445, 482-507), so
 * Karpenter never writes a kubernetes.io / k8s.io key itself and never overwrites the user's.
 */
const BR_LABELS_SOURCE =
  "karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/bottlerocket.go:47, resolver.go:482-507 RejectForbiddenLabels";
/** The kubelet's check of its `--node-labels` (restricted namespaces, then key and value syntax). */
const KUBELET_LABEL_SOURCE =
  "k8s.io/kubernetes v1.36.3 cmd/kubelet/app/options/options.go:150-187, ValidateKubeletFlags; allowed keys k8s.io/kubelet v0.37.0 pkg/apis/well_known_labels.go:35-80";
/** KubernetesLabelKey (BR_TYPES_SOURCE): an optional prefix of 1-253 [[:alnum:].-] and "/", a name of 1-63. */
const BR_LABEL_KEY = /^([A-Za-z0-9.-]{1,253}\/)?[A-Za-z0-9](([A-Za-z0-9._-]{0,61})?[A-Za-z0-9])?$/;
/** KubernetesLabelValue (BR_TYPES_SOURCE): empty, or 1-63 characters starting and ending alphanumeric. */
const BR_LABEL_VALUE = /^$|^[A-Za-z0-9](([A-Za-z0-9._-]{0,61})?[A-Za-z0-9])?$/;
/** The prefix the kubelet's IsQualifiedName takes (a DNS-1123 subdomain, k8s.io/apimachinery validation.go). */
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * The `settings.kubernetes.node-labels` of Bottlerocket user data that never reach a joined node: a key or value
 * Bottlerocket's settings model refuses at boot (`model`: KubernetesLabelKey, KubernetesLabelValue), or a key the model
 * takes and the kubelet refuses when it starts (`kubelet`: a kubernetes.io / k8s.io key it may not set, the same
 * {@link kubeletRefusesNodeLabel} a NodeConfig's --node-labels flag is held to, or a prefix that is no DNS-1123
 * subdomain, e.g. upper case). A value Karpenter's decode already refuses is reported there.
 */
function bottlerocketNodeLabelProblems(
  text: string,
  settings: Record<string, unknown>,
  karpenterRefused: ReadonlySet<string>,
): {
  model: (TypeProblem & { line: number })[];
  kubelet: { path: string; line: number; key: string; want: string; error: string; hint: string }[];
} {
  const out = {
    model: [] as (TypeProblem & { line: number })[],
    kubelet: [] as ReturnType<typeof bottlerocketNodeLabelProblems>["kubelet"],
  };
  const kubernetes = foldedEntry(settings, "kubernetes");
  if (!kubernetes || !isTable(kubernetes[1])) return out;
  const table = foldedEntry(kubernetes[1], "node-labels");
  if (!table || !isTable(table[1])) return out;
  const header = `settings.${kubernetes[0]}.${table[0]}`;
  for (const [key, v] of Object.entries(table[1])) {
    if (typeof v !== "string" || karpenterRefused.has(`${header}.${key}`)) continue;
    const path = `${header}.${JSON.stringify(key)}`;
    const line = tomlKeyLineIn(text, header, key);
    if (!BR_LABEL_KEY.test(key)) {
      out.model.push({
        path,
        key,
        line,
        want: "a label key (an optional DNS prefix and /, then 1-63 letters, digits, -, _ or . starting and ending with a letter or digit; Bottlerocket's KubernetesLabelKey)",
        got: JSON.stringify(key),
      });
      continue;
    }
    if (!BR_LABEL_VALUE.test(v)) {
      out.model.push({
        path,
        key,
        line,
        want: "a label value (empty, or up to 63 letters, digits, -, _ or . starting and ending with a letter or digit; Bottlerocket's KubernetesLabelValue)",
        got: JSON.stringify(v),
      });
      continue;
    }
    if (kubeletRefusesNodeLabel(key)) {
      out.kubelet.push({
        path,
        line,
        key,
        want: "a label key the kubelet may set on its own node",
        error: "unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels",
        hint: "Allowed there: node.kubernetes.io/… and kubelet.kubernetes.io/… keys, kubernetes.io/hostname, os, arch and the topology and instance-type labels; use a key of your own domain, or set the label as a NodePool label (spec.template.metadata.labels)",
      });
      continue;
    }
    const slash = key.indexOf("/");
    const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
    if (prefix !== undefined && (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)))
      out.kubelet.push({
        path,
        line,
        key,
        want: "a label key whose prefix is a DNS subdomain (lower case letters, digits, - and .)",
        error: `invalid node labels: '${key}' - prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`,
        hint: `Write the prefix in lower case (${JSON.stringify(`${prefix.toLowerCase()}/${key.slice(slash + 1)}`)})`,
      });
  }
  return out;
}

/**
 * Where Bottlerocket's settings model types the values of `settings.bootstrap-commands` and
 * `settings.bootstrap-containers` (bottlerocket-os/bottlerocket-settings-sdk at commit
 * f2ca5366f54b3c18d2e2af0605d94876cbb2c3a2, bottlerocket-settings-models/modeled-types/src/shared.rs): Identifier (a
 * command's or container's name: ASCII letters, digits and `-`, at most 76 characters, CONTAINERD_ID_LENGTH),
 * BootstrapMode (`off`, `once` or `always`, compared as written: `matches!(input, "off" | "once" | "always")`),
 * ApiclientCommand (a command whose first word is `apiclient`, as written: `/usr/bin/apiclient` or `echo` is refused),
 * Url (url::Url's parse, or the same with `http://` in front) and ValidBase64 (base64's STANDARD engine). Read, not
 * executed.
 */
const BR_SHARED_TYPES_SOURCE =
  "bottlerocket-settings-sdk@f2ca5366 bottlerocket-settings-models/modeled-types/src/shared.rs: Identifier, BootstrapMode, ApiclientCommand, Url, ValidBase64";
/**
 * The bootstrap command's model (bottlerocket-os/bottlerocket-core-kit at commit
 * a10182f974abd19de803bb7a324b5a0bdeab4ced, sources/bootstrap-commands/src/main.rs:57-77: BTreeMap<Identifier,
 * BootstrapCommand> of commands Vec<ApiclientCommand>, mode BootstrapMode, essential bool; the settings extension
 * BootstrapCommandsSettingsV1 of bottlerocket-settings-sdk holds the same types).
 */
const BR_BOOTSTRAP_COMMANDS_SOURCE =
  "bottlerocket-core-kit@a10182f9 sources/bootstrap-commands/src/main.rs:57-77, BootstrapCommand";
/**
 * The bootstrap container's model (bottlerocket-os/bottlerocket-settings-sdk at commit
 * 96d45d328538d183ea6b1692657b6afd906adf7a, bottlerocket-settings-models/settings-extensions/bootstrap-containers/src/lib.rs:
 * HashMap<Identifier, BootstrapContainer> of source Url, mode BootstrapMode, user-data ValidBase64, essential bool,
 * command Vec<String>; bottlerocket-core-kit@a10182f9 sources/api/bootstrap-containers/src/main.rs:99-107 reads the
 * same types).
 */
const BR_BOOTSTRAP_CONTAINERS_SOURCE =
  "bottlerocket-settings-sdk@96d45d32 bottlerocket-settings-models/settings-extensions/bootstrap-containers/src/lib.rs, BootstrapContainer";
/**
 * What a refused setting does at boot: early-boot-config PATCHes the user data's settings to Bottlerocket's API, which
 * deserializes them into the model, and fails on a non-success answer (bottlerocket-core-kit@a10182f9
 * sources/early-boot-config/early-boot-config/src/main.rs:159-175); its unit is RequiredBy=preconfigured.target
 * (packages/early-boot-config/early-boot-config.service:24), so the boot stops before the kubelet starts.
 */
const BR_EARLY_BOOT_SOURCE =
  "early-boot-config's PATCH of the settings fails, bottlerocket-core-kit@a10182f9 sources/early-boot-config/early-boot-config/src/main.rs:159-175, and its unit is RequiredBy=preconfigured.target, packages/early-boot-config/early-boot-config.service:24";

/** Identifier: ASCII letters, digits and `-`, at most 76 (CONTAINERD_ID_LENGTH). */
const BR_IDENTIFIER = /^[A-Za-z0-9-]{0,76}$/;
const BR_IDENTIFIER_RULE =
  'a name of ASCII letters, digits and "-", at most 76 characters (Bottlerocket\'s Identifier)';
const BR_MODES = ["off", "once", "always"];
/**
 * The base64 ValidBase64 refuses: a character outside the standard alphabet, `=` inside, or no canonical padding (a
 * length that is no multiple of 4): it decodes with base64's STANDARD engine, which in base64 0.22 (bottlerocket-core-kit
 * sources/Cargo.toml) requires the padding ("require that they be present when decoding").
 */
const badBase64 = (s: string) => !/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0;
/**
 * Url: url::Url's parse, else the same with `http://` in front (WHATWG URL parsing, as JavaScript's URL); a string
 * neither reads is refused (`how are you`), an image reference (`public.ecr.aws/a/b:1`) reads with the prefix.
 */
function badUrl(s: string): boolean {
  for (const u of [s, `http://${s}`])
    try {
      new URL(u);
      return false;
    } catch {
      // the next form
    }
  return true;
}

/**
 * `settings.bootstrap-commands` and `settings.bootstrap-containers` values Bottlerocket's settings model refuses at boot
 * (BR_SHARED_TYPES_SOURCE). `commands`: what Karpenter's BootstrapCommand struct takes (its types are decodeProblems';
 * a value it refuses, `karpenterRefused`, is not judged again) but Bottlerocket does not: a name that is no Identifier,
 * a mode other than off / once / always (as written: "Once" is refused), a command whose first word is not
 * `apiclient`. Karpenter matches the command's fields case-insensitively and writes them back under its own names, so
 * they are read folded here. `containers`: Karpenter has no field for them and passes the table on as written, so
 * Bottlerocket's model is all that decides: a name that is no Identifier, a field of another type, a mode, a source
 * that is no URL, user-data that is no base64.
 */
function bottlerocketBootstrapProblems(
  text: string,
  settings: Record<string, unknown>,
  karpenterRefused: ReadonlySet<string>,
): { commands: (TypeProblem & { line: number })[]; containers: (TypeProblem & { line: number })[] } {
  const out = {
    commands: [] as (TypeProblem & { line: number })[],
    containers: [] as (TypeProblem & { line: number })[],
  };
  const commands = foldedEntry(settings, "bootstrap-commands");
  if (commands && isTable(commands[1]))
    for (const [name, command] of Object.entries(commands[1])) {
      const base = `settings.${commands[0]}.${name}`;
      if (!BR_IDENTIFIER.test(name))
        out.commands.push({
          path: base,
          key: name,
          want: BR_IDENTIFIER_RULE,
          got: JSON.stringify(name),
          line: tomlKeyLine(text, name),
        });
      if (!isTable(command)) continue;
      const header = `settings.${commands[0]}.${name}`;
      const mode = foldedEntry(command, "mode");
      if (
        mode &&
        typeof mode[1] === "string" &&
        !BR_MODES.includes(mode[1]) &&
        !karpenterRefused.has(`${base}.${mode[0]}`)
      )
        out.commands.push({
          path: `${base}.${mode[0]}`,
          key: mode[0],
          want: `one of ${BR_MODES.map((m) => JSON.stringify(m)).join(", ")}, as written (Bottlerocket's BootstrapMode)`,
          got: JSON.stringify(mode[1]),
          line: tomlKeyLineIn(text, header, mode[0]),
        });
      const list = foldedEntry(command, "commands");
      if (list && Array.isArray(list[1]))
        list[1].forEach((c: unknown, i) => {
          const path = `${base}.${list[0]}[${i}]`;
          if (!Array.isArray(c) || !c.every((w) => typeof w === "string") || c[0] === "apiclient") return;
          if ([...karpenterRefused].some((p) => p === path || p.startsWith(`${path}[`))) return;
          out.commands.push({
            path,
            key: list[0],
            want: 'a command whose first word is "apiclient", as written (Bottlerocket\'s ApiclientCommand runs only the API client: use settings.bootstrap-containers to run anything else)',
            got: tomlJson(c) ?? "",
            line: tomlKeyLineIn(text, header, list[0]),
          });
        });
    }
  // no folding: Karpenter keeps this table as written, and Bottlerocket's serde names are case-sensitive
  const containers = Object.prototype.hasOwnProperty.call(settings, "bootstrap-containers")
    ? settings["bootstrap-containers"]
    : undefined;
  if (containers === undefined) return out;
  const base = "settings.bootstrap-containers";
  if (!isTable(containers)) {
    out.containers.push({
      path: base,
      key: "bootstrap-containers",
      want: "a table of bootstrap containers",
      got: tomlType(containers),
      line: tomlKeyLine(text, "bootstrap-containers"),
    });
    return out;
  }
  const fields: { readonly [field: string]: string } = {
    source: "a string",
    mode: "a string",
    "user-data": "a string",
    essential: "true or false",
    command: "an array of strings",
  };
  for (const [name, container] of Object.entries(containers)) {
    const path = `${base}.${name}`;
    const header = path;
    if (!BR_IDENTIFIER.test(name))
      out.containers.push({
        path,
        key: name,
        want: BR_IDENTIFIER_RULE,
        got: JSON.stringify(name),
        line: tomlKeyLine(text, name),
      });
    if (!isTable(container)) {
      out.containers.push({
        path,
        key: name,
        want: `a table (${Object.keys(fields).join(", ")})`,
        got: tomlType(container),
        line: tomlKeyLine(text, name),
      });
      continue;
    }
    for (const [field, want] of Object.entries(fields)) {
      if (!Object.prototype.hasOwnProperty.call(container, field)) continue;
      const v = container[field];
      const at = { path: `${path}.${field}`, key: field, line: tomlKeyLineIn(text, header, field) };
      const typed =
        want === "a string"
          ? typeof v === "string"
          : want === "true or false"
            ? typeof v === "boolean"
            : Array.isArray(v) && v.every((x) => typeof x === "string");
      if (!typed) out.containers.push({ ...at, want, got: tomlType(v) });
      else if (field === "mode" && !BR_MODES.includes(v as string))
        out.containers.push({
          ...at,
          want: `one of ${BR_MODES.map((m) => JSON.stringify(m)).join(", ")}, as written (Bottlerocket's BootstrapMode)`,
          got: JSON.stringify(v),
        });
      else if (field === "source" && badUrl(v as string))
        out.containers.push({
          ...at,
          want: 'an image reference Bottlerocket reads as a URL (Bottlerocket\'s Url), such as "public.ecr.aws/my-org/setup:1.0"',
          got: JSON.stringify(v),
        });
      else if (field === "user-data" && badBase64(v as string))
        out.containers.push({
          ...at,
          want: 'base64 text on one line with its "=" padding (Bottlerocket\'s ValidBase64: the standard alphabet, "=" only at the end, a length that is a multiple of 4)',
          got: JSON.stringify(v),
        });
    }
    // BootstrapContainer's fields in every version read: source, mode, user-data, essential (bottlerocket@v1.0.8
    // sources/models/src/lib.rs:248-253, BootstrapContainer), then command (BR_BOOTSTRAP_CONTAINERS_SOURCE)
    out.containers.push(...unknownBrFields(text, container, Object.keys(fields), path));
  }
  return out;
}

/**
 * The shape of a value in Bottlerocket's settings model, as far as it is judged here. Scalars: `bool`, `string`,
 * `strings` (Vec<String>), `table` (a table whose insides are not judged), `u32`, `i32`, and the modeled types of
 * BR_SHARED_TYPES_SOURCE and BR_TYPES_SOURCE: `url` and `image` (Url, the second worded for an image reference),
 * `base64` (ValidBase64), `single-line` (SingleLineString), `hostname` (ValidLinuxHostname), `ip` (std::net::IpAddr),
 * `integer-percent` (IntegerPercent) and `time-servers` (NtpTimeServers, whose accepted forms differ between model
 * versions). Compounds: strings compared as written (`oneOf`, named by its type), a list (Vec), a tuple (serde reads a
 * Rust tuple from an array of exactly its length; `as` words it), a value that is either an array or a table (a
 * deserialize_any visitor taking both), a map whose keys are of a key type (BR_MAP_KEYS), a struct of fields. `any`: a
 * field whose value is not judged. A struct is `closed` when its field list is every field the model has had in every
 * version read (#[model] denies unknown fields, BOTTLEROCKET_DENY_UNKNOWN_SOURCE): then a field outside it is refused
 * too ({@link unknownBrFields}); a struct not marked closed is not judged for unknown fields.
 */
type BrShape =
  | "any"
  | "bool"
  | "string"
  | "strings"
  | "table"
  | "u32"
  | "i32"
  | "chunk-size"
  | "boot-config-value"
  | "pem-bundle"
  | "rlimit"
  | "url"
  | "image"
  | "base64"
  | "single-line"
  | "hostname"
  | "ip"
  | "integer-percent"
  | "time-servers"
  | { readonly oneOf: readonly string[]; readonly type: string }
  | { readonly list: BrShape }
  | { readonly tuple: readonly BrShape[]; readonly as: string }
  | { readonly either: { readonly array: BrShape; readonly table: BrShape } }
  | { readonly map: keyof typeof BR_MAP_KEYS; readonly of: BrShape }
  | { readonly struct: { readonly [field: string]: BrShape }; readonly closed?: true };

/** SysctlKey and its SYSCTL_KEY pattern: bottlerocket-settings-sdk@f2ca5366 modeled-types/src/shared.rs. */
const BR_SYSCTL_KEY_SOURCE =
  "bottlerocket-settings-sdk@f2ca5366 bottlerocket-settings-models/modeled-types/src/shared.rs: SysctlKey";
/** SysctlKey: 1 to 128 of ASCII letters, digits, `.`, `/`, `_`, `-`; no `..`, and not starting with `.` or `/`. */
const badSysctlKey = (k: string) => !/^[a-zA-Z0-9./_-]{1,128}$/.test(k) || k.includes("..") || /^[./]/.test(k);
/** SingleLineString (BR_SHARED_TYPES_SOURCE): no line terminator (\n, \r, VT, FF, NEL, U+2028, U+2029). */
const badSingleLine = (s: string) => /[\n\r\v\f\u0085\u2028\u2029]/.test(s);
/**
 * ValidLinuxHostname (BR_SHARED_TYPES_SOURCE; the same three checks in every copy read, back to
 * bottlerocket-os/bottlerocket sources/models/modeled-types/src/shared.rs): `^[0-9a-z.-]{1,253}$`, not starting with
 * `-` or `.`, each dot-separated part 1 to 63 long and not starting with `-`.
 */
const badHostname = (s: string) =>
  !/^[0-9a-z.-]{1,253}$/.test(s) ||
  /^[-.]/.test(s) ||
  s.split(".").some((p) => p.length < 1 || p.length > 63 || p.startsWith("-"));
/**
 * std::net::IpAddr's FromStr, as far as every Rust release refuses: no dotted quad (decimal parts up to 255, leading
 * zeros let pass: older releases read them) and no IPv6 address to Node's isIPv6 (which also takes a zone, `%eth0`,
 * that Rust refuses: let pass).
 */
const badIp = (s: string) =>
  !(/^\d{1,3}(\.\d{1,3}){3}$/.test(s) && s.split(".").every((o) => Number(o) <= 255)) && !isIPv6(s);
/**
 * IntegerPercent's Deserialize (BR_TYPES_SOURCE): a number or a string, read by Rust's `parse::<i32>` (an optional
 * sign and digits, no space), then held to 0 to 100 inclusive; the older string type took the same (its tests: "0" to
 * "100" taken, "-1", "101" and "" refused).
 */
const badIntegerPercent = (v: unknown) =>
  typeof v === "bigint"
    ? v < 0n || v > 100n
    : typeof v !== "string" || !/^[+-]?\d+$/.test(v) || !(Number(v) >= 0 && Number(v) <= 100);

/**
 * deserialize_chunk_size (bottlerocket-settings-sdk@f2ca5366 bottlerocket-settings-models/modeled-types/src/shared.rs):
 * an integer or a string; a negative integer, or a string (trimmed) that reads as one, is refused ("Size cannot be
 * negative"), a string with whitespace inside too, and a string byte_unit cannot read as a size ("Invalid size string
 * format"): refused here when it does not start with a number (".5gb" is read as "0.5gb") or its unit is no byte or bit
 * unit; byte_unit's finer rules are left to it.
 */
const badChunkSize = (v: string | bigint) => {
  if (typeof v === "bigint") return v < 0n;
  const s = v.trim();
  if (/^[+-]?\d+$/.test(s)) return s.startsWith("-") && BigInt(s) < 0n;
  if (/\s/.test(s)) return true;
  const m = /^(\d+(?:\.\d*)?|\.\d+)([a-z]*)$/i.exec(s);
  return !m || !/^(?:[kmgtpezy]i?)?(?:b|bit|bits|byte|bytes)?$/i.test(m[2]);
};

/** Where the OCI defaults' capability and resource limit names are: the newest list, which holds every older one. */
const BR_OCI_TYPES_SOURCE = "bottlerocket-settings-sdk bottlerocket-settings-models/modeled-types/src/oci_defaults.rs";
/** OciDefaultsCapability, kebab-case (BR_OCI_TYPES_SOURCE). */
const OCI_CAPABILITIES = [
  "audit-control",
  "audit-read",
  "audit-write",
  "block-suspend",
  "bpf",
  "checkpoint-restore",
  "chown",
  "dac-override",
  "dac-read-search",
  "fowner",
  "fsetid",
  "ipc-lock",
  "ipc-owner",
  "kill",
  "lease",
  "linux-immutable",
  "mac-admin",
  "mac-override",
  "mknod",
  "net-admin",
  "net-bind-service",
  "net-broadcast",
  "net-raw",
  "perfmon",
  "setgid",
  "setfcap",
  "setpcap",
  "setuid",
  "sys-admin",
  "sys-boot",
  "sys-chroot",
  "sys-module",
  "sys-nice",
  "sys-pacct",
  "sys-ptrace",
  "sys-rawio",
  "sys-resource",
  "sys-time",
  "sys-tty-config",
  "syslog",
  "wake-alarm",
];
/** OciDefaultsResourceLimitType, kebab-case (BR_OCI_TYPES_SOURCE). */
const OCI_RLIMITS = [
  "max-address-space",
  "max-core-file-size",
  "max-cpu-time",
  "max-data-size",
  "max-file-locks",
  "max-file-size",
  "max-locked-memory",
  "max-msgqueue-size",
  "max-nice-priority",
  "max-open-files",
  "max-pending-signals",
  "max-processes",
  "max-realtime-priority",
  "max-realtime-timeout",
  "max-resident-set",
  "max-stack-size",
];

/**
 * PemCertificateString (BR_SHARED_TYPES_SOURCE): empty or blank (to delete a bundle), else base64 whose text holds at
 * least one PEM block, each an X.509 certificate (x509_parser); what is no base64 or holds no PEM block at all is
 * refused here, the certificates' own parse left to Bottlerocket.
 */
const badPemBundle = (s: string) => {
  if (s.trim() === "") return false;
  if (badBase64(s)) return true;
  // every block is parsed as an X.509 certificate whatever its label (x509-parser pem.rs parse_x509): a private key
  // beside the certificate fails the bundle
  const labels = [
    ...Buffer.from(s, "base64")
      .toString("latin1")
      .matchAll(/-----BEGIN ([^-\n]+)-----/g),
  ].map((m) => m[1]);
  return labels.length === 0 || labels.some((l) => !l.includes("CERTIFICATE"));
};

/** BootConfigValue (BR_SHARED_TYPES_SOURCE): printable ASCII or spaces, not both a single and a double quote. */
const badBootConfigValue = (s: string) => !/^[\x20-\x7e]*$/.test(s) || (s.includes('"') && s.includes("'"));

/**
 * An OCI defaults resource limit as deserialize_limit (oci-defaults/src/de.rs) reads it: "unlimited" is -1, a whole
 * number (TOML integer or string of digits) itself; undefined for anything else.
 */
const rlimitNumber = (v: unknown): bigint | undefined =>
  v === "unlimited"
    ? -1n
    : typeof v === "bigint" || (typeof v === "string" && /^-?\d+$/.test(v))
      ? BigInt(v)
      : undefined;

/** What deserialize_limit refuses: no limit it reads, or one below -1. */
const badRlimit = (v: unknown) => {
  const n = rlimitNumber(v);
  return n === undefined || n < -1n;
};

/** The key types of the maps in Bottlerocket's settings model: what each refuses, and its rule in a message's words. */
const BR_MAP_KEYS = {
  identifier: { bad: (k: string) => !BR_IDENTIFIER.test(k), rule: BR_IDENTIFIER_RULE },
  sysctl: {
    bad: badSysctlKey,
    rule: `a sysctl key of 1 to 128 ASCII letters, digits, ".", "/", "_" or "-", without ".." and not starting with "." or "/" (Bottlerocket's SysctlKey, ${BR_SYSCTL_KEY_SOURCE})`,
  },
  // KmodKey (BR_SHARED_TYPES_SOURCE): ASCII letters, digits, "-" and "_", at most KMOD_KEY_LENGTH 56
  kmod: {
    bad: (k: string) => !/^[A-Za-z0-9_-]{0,56}$/.test(k),
    rule: 'a kernel module name of ASCII letters, digits, "-" and "_", at most 56 characters (Bottlerocket\'s KmodKey)',
  },
  "single-line": { bad: badSingleLine, rule: "a name on one line (Bottlerocket's SingleLineString)" },
  // BootConfigKey (BR_SHARED_TYPES_SOURCE): dot-separated keywords, each of ASCII letters, digits, "-" and "_"
  "boot-config": {
    bad: (k: string) => k.split(".").some((w) => !/^[A-Za-z0-9_-]+$/.test(w)),
    rule: 'a boot config key of dot-separated words of ASCII letters, digits, "-" and "_", such as "console" or "systemd.log_level" (Bottlerocket\'s BootConfigKey)',
  },
  "oci-capability": {
    bad: (k: string) => !OCI_CAPABILITIES.includes(k),
    rule: `a capability Bottlerocket's OciDefaultsCapability names (${BR_OCI_TYPES_SOURCE}): ${OCI_CAPABILITIES.join(", ")}`,
  },
  "oci-rlimit": {
    bad: (k: string) => !OCI_RLIMITS.includes(k),
    rule: `a resource limit Bottlerocket's OciDefaultsResourceLimitType names (${BR_OCI_TYPES_SOURCE}): ${OCI_RLIMITS.join(", ")}`,
  },
} as const;

/** RegistryCredentialV1 (container-registry/src/lib.rs:30-38 at BR_PASSTHROUGH_MODELS' commit). */
const BR_REGISTRY_CREDENTIAL: { readonly [field: string]: BrShape } = {
  registry: "single-line",
  username: "single-line",
  password: "single-line",
  auth: "base64",
  identitytoken: "single-line",
};

/**
 * BootSettingsV1's kernel and init parameters: boot config keys to lists of values (HashMap / IndexMap<BootConfigKey,
 * Vec<BootConfigValue>>); the newest model's OrderedBootConfig also reads an array, whose form is not judged here.
 */
const BR_BOOT_CONFIG: BrShape = {
  either: { array: "any", table: { map: "boot-config", of: { list: "boot-config-value" } } },
};

/** The fork of the settings SDK that holds every settings extension of the aws-k8s variants, read at one commit. */
const BR_FORK =
  "cbgbt/bottlerocket-settings-sdk@2f23c452 (a fork of bottlerocket-os/bottlerocket-settings-sdk; fab852b9 and 57275a48 alike) bottlerocket-settings-models/settings-extensions/";

/**
 * Settings tables Karpenter passes on as written (its struct has only kubernetes and bootstrap-commands; it writes the
 * other tables back unchanged) and Bottlerocket's settings model types, so a value of another type is refused only at
 * boot. One table per settings extension of bottlerocket-os/bottlerocket-settings-sdk, read, not executed (the modeled
 * types: BR_SHARED_TYPES_SOURCE, BR_SYSCTL_KEY_SOURCE):
 * - host-containers: commit 5f7a725106d2d4c275828c098bdfb04114982d7d,
 *   bottlerocket-settings-models/settings-extensions/host-containers/src/lib.rs:10-12 (HashMap<Identifier,
 *   HostContainer>) and :35-42 (HostContainer: source Url, enabled bool, superpowered bool, user-data ValidBase64,
 *   command Vec<String>).
 * - kernel: commit 193cc81f31f1ed9c3a8249df15748df248a5c42a,
 *   bottlerocket-settings-models/settings-extensions/kernel/src/lib.rs:11-19 (KernelSettingsV1: lockdown Lockdown, one
 *   of none / integrity / confidentiality as written; modules HashMap<KmodKey, KmodSetting>; :16 sysctl
 *   HashMap<SysctlKey, String>: a sysctl value is a string even when it is a number) and :21-25 (KmodSetting: allowed
 *   and autoload bool). hugepages and drivers have types of their own, not judged past being tables (a model before
 *   them refuses the fields outright).
 * - ntp: commit 691ed58b912f0f84542c16bd7596837d87ae83bd,
 *   bottlerocket-settings-models/settings-extensions/ntp/src/lib.rs:11-22 (NtpSettingsV1) and :129-178
 *   (NtpTimeServers and its TryFrom). The newest model takes a list of URLs, a list of server tables or a table of
 *   named servers; commit 77cf65b020e51e72626bf368615a8b0a46b41033 takes a list of URLs or named servers only, and
 *   bottlerocket-core-kit@a10182f9 sources/Cargo.toml:214-230 pins bottlerocket-settings-models-v0.6.0, older still.
 *   Which one an AMI ships is not known here, so only what every version refuses is refused: a value that is neither
 *   a list nor a table (WrongType), a list mixing strings and tables (MixedList; an older model reads any list as URLs
 *   and refuses a table in it too), a string in the list that is no URL (InvalidUrlList). options and logging are
 *   lists of strings in every version.
 * - network: commit 923a01de2b635d4a1a0eb998161290df1d0649d4,
 *   bottlerocket-settings-models/settings-extensions/network/src/lib.rs:7-14 (NetworkSettingsV1: hostname
 *   ValidLinuxHostname, hosts EtcHostsEntries = Vec<(IpAddr, Vec<ValidLinuxHostname>)>, https-proxy Url, no-proxy and
 *   disable-ipv6 Vec<SingleLineString>; a model before disable-ipv6 refuses the field outright).
 * - container-registry: commit 10f6a1fb2fd1efda89df4d31e609ca6387bb6da3,
 *   bottlerocket-settings-models/settings-extensions/container-registry/src/lib.rs:23-50 (RegistrySettingsV1: mirrors
 *   Vec<RegistryMirrorV1 { registry SingleLineString, endpoint Vec<Url>, capabilities pull / resolve / push }>,
 *   credentials, alias creds, Vec<RegistryCredentialV1 { registry, username, password, identitytoken
 *   SingleLineString, auth ValidBase64 }>) and src/de.rs:8-48 (deserialize_mirrors: an array of mirrors, or for
 *   backward compatibility a table of registry to endpoints; anything else is refused, "TOML array or TOML table").
 *   capabilities is newer: an older model refuses the field outright, so a bad one is refused by every version.
 * - dns and updates: not in bottlerocket-os's copy read here; its fork cbgbt/bottlerocket-settings-sdk at commit
 *   2f23c4522b5da9e78df63268dd7a9c13b39e5fe7, settings-extensions/dns/src/lib.rs:8-12 (DnsSettingsV1: name-servers
 *   Vec<IpAddr>, search-list Vec<ValidLinuxHostname>) and updates/src/lib.rs:10-18 (UpdatesSettingsV1:
 *   metadata-base-url and targets-base-url Url, seed u32, ignore-waves bool; version-lock FriendlyVersion, a semver,
 *   is not judged).
 * The model's structs are #[model], which also refuses unknown fields (deny_unknown_fields,
 * BOTTLEROCKET_DENY_UNKNOWN_SOURCE). A struct is marked `closed` (and a field outside it refused) when its fields are
 * the union of every version read, so that only a name no version has is refused: the in-tree models of
 * bottlerocket-os/bottlerocket sources/models/src/lib.rs at tags v1.0.0 to v1.19.0 (ContainerImage / HostContainer:
 * source, enabled, superpowered, then user-data; KernelSettings: lockdown, modules, sysctl; KmodSetting; NtpSettings:
 * time-servers; NetworkSettings: hostname, hosts, https-proxy, no-proxy; RegistrySettings: mirrors, credentials alias
 * creds; RegistryMirror: registry, endpoint; RegistryCredential; DnsSettings; UpdatesSettings: metadata-base-url,
 * targets-base-url, seed, version-lock, ignore-waves), the settings extensions above (command, hugepages, drivers,
 * disable-ipv6, capabilities, options, logging), and every copy of NtpSettingsV1 in the search index (one also has
 * refclocks, allow, cmdallow and bindcmdaddress; their values are not judged). hugepages' and drivers' own structs are
 * not closed here (not read).
 */
const BR_PASSTHROUGH_MODELS: {
  readonly [table: string]: { readonly shape: BrShape; readonly source: string };
} = {
  "host-containers": {
    shape: {
      map: "identifier",
      of: {
        struct: { source: "image", enabled: "bool", superpowered: "bool", "user-data": "base64", command: "strings" },
        closed: true,
      },
    },
    source:
      "bottlerocket-settings-sdk@5f7a7251 bottlerocket-settings-models/settings-extensions/host-containers/src/lib.rs:10-12, 35-42, HostContainer",
  },
  kernel: {
    shape: {
      struct: {
        lockdown: { oneOf: ["none", "integrity", "confidentiality"], type: "Lockdown" },
        modules: { map: "kmod", of: { struct: { allowed: "bool", autoload: "bool" }, closed: true } },
        sysctl: { map: "sysctl", of: "string" },
        hugepages: "table",
        drivers: "table",
      },
      closed: true,
    },
    source:
      "bottlerocket-settings-sdk@193cc81f bottlerocket-settings-models/settings-extensions/kernel/src/lib.rs:11-25, KernelSettingsV1 (lockdown: Lockdown, modules: HashMap<KmodKey, KmodSetting>, sysctl: HashMap<SysctlKey, String>) and KmodSetting",
  },
  ntp: {
    shape: {
      struct: {
        "time-servers": "time-servers",
        options: "strings",
        logging: "strings",
        refclocks: "any",
        allow: "any",
        cmdallow: "any",
        bindcmdaddress: "any",
      },
      closed: true,
    },
    source:
      "bottlerocket-settings-sdk@691ed58b bottlerocket-settings-models/settings-extensions/ntp/src/lib.rs:11-22, 129-178, NtpSettingsV1, NtpTimeServers",
  },
  network: {
    shape: {
      struct: {
        hostname: "hostname",
        hosts: {
          list: {
            tuple: ["ip", { list: "hostname" }],
            as: '[address, [hostnames]], such as ["10.0.0.2", ["db.internal"]]',
          },
        },
        "https-proxy": "url",
        "no-proxy": { list: "single-line" },
        "disable-ipv6": { list: "single-line" },
      },
      closed: true,
    },
    source:
      "bottlerocket-settings-sdk@923a01de bottlerocket-settings-models/settings-extensions/network/src/lib.rs:7-14, NetworkSettingsV1 (hostname: ValidLinuxHostname, hosts: EtcHostsEntries, https-proxy: Url, no-proxy: Vec<SingleLineString>)",
  },
  "container-registry": {
    shape: {
      struct: {
        mirrors: {
          either: {
            array: {
              list: {
                struct: {
                  registry: "single-line",
                  endpoint: { list: "url" },
                  capabilities: { list: { oneOf: ["pull", "resolve", "push"], type: "RegistryMirrorCapabilityV1" } },
                },
                closed: true,
              },
            },
            table: { map: "single-line", of: { list: "url" } },
          },
        },
        credentials: { list: { struct: BR_REGISTRY_CREDENTIAL, closed: true } },
        creds: { list: { struct: BR_REGISTRY_CREDENTIAL, closed: true } },
      },
      closed: true,
    },
    source:
      "bottlerocket-settings-sdk@10f6a1fb bottlerocket-settings-models/settings-extensions/container-registry/src/lib.rs:23-50, RegistrySettingsV1, RegistryMirrorV1, RegistryCredentialV1, and src/de.rs:8-48, deserialize_mirrors",
  },
  dns: {
    shape: { struct: { "name-servers": { list: "ip" }, "search-list": { list: "hostname" } }, closed: true },
    source:
      "cbgbt/bottlerocket-settings-sdk@2f23c452 (a fork of bottlerocket-os/bottlerocket-settings-sdk) bottlerocket-settings-models/settings-extensions/dns/src/lib.rs:8-12, DnsSettingsV1 (name-servers: Vec<IpAddr>, search-list: Vec<ValidLinuxHostname>)",
  },
  // a string at the top of [settings], not a table (MotdV1(Option<String>); the older MotdV1 { inner: String } is read
  // from a string too)
  motd: { shape: "string", source: `${BR_FORK} motd/src/lib.rs, MotdV1` },
  "container-runtime": {
    shape: {
      struct: {
        "max-container-log-line-size": "i32",
        "max-concurrent-downloads": "i32",
        "max-concurrent-unpacks": "i32",
        // a size such as "64mb" or a number (deserialize_optional_chunk_size), and its alias
        "concurrent-download-chunk-size": "chunk-size",
        "concurrent-layer-fetch-buffer": "chunk-size",
        "enable-unprivileged-ports": "bool",
        "enable-unprivileged-icmp": "bool",
        "cgroup-writable": "bool",
        snapshotter: { oneOf: ["overlayfs", "soci"], type: "Snapshotter" },
        // ContainerdLogLevel of the newest model (bottlerocket-settings-sdk@985f108a), before any release wires it:
        // named here so that the field is not refused as unknown once one does; its values not judged
        "log-level": "any",
      },
      closed: true,
    },
    source:
      "bottlerocket-settings-sdk@cb410c0b bottlerocket-settings-models/settings-extensions/container-runtime/src/lib.rs:8-29, ContainerRuntimeSettingsV1 and Snapshotter",
  },
  metrics: {
    shape: { struct: { "metrics-url": "url", "send-metrics": "bool", "service-checks": "strings" }, closed: true },
    source: `${BR_FORK} metrics/src/lib.rs, MetricsSettingsV1 (metrics-url: Url, send-metrics: bool, service-checks: Vec<String>)`,
  },
  boot: {
    // kernel and init are serde aliases of kernel-parameters and init-parameters
    shape: {
      struct: {
        "reboot-to-reconcile": "bool",
        "kernel-parameters": BR_BOOT_CONFIG,
        kernel: BR_BOOT_CONFIG,
        "init-parameters": BR_BOOT_CONFIG,
        init: BR_BOOT_CONFIG,
      },
      closed: true,
    },
    source: `${BR_FORK} boot/src/lib.rs, BootSettingsV1 (reboot-to-reconcile: bool, kernel-parameters alias kernel, init-parameters alias init)`,
  },
  autoscaling: {
    shape: { struct: { "should-wait": "bool" }, closed: true },
    source: `${BR_FORK} autoscaling/src/lib.rs, AutoScalingSettingsV1 (should-wait: bool)`,
  },
  aws: {
    shape: {
      struct: { region: "single-line", config: "base64", credentials: "base64", profile: "single-line" },
      closed: true,
    },
    source: `${BR_FORK} aws/src/lib.rs, AwsSettingsV1 (region, profile: SingleLineString; config, credentials: ValidBase64)`,
  },
  cloudformation: {
    shape: {
      struct: { "should-signal": "bool", "stack-name": "single-line", "logical-resource-id": "single-line" },
      closed: true,
    },
    source: `${BR_FORK} cloudformation/src/lib.rs, CloudFormationSettingsV1`,
  },
  "oci-hooks": {
    shape: { struct: { "log4j-hotpatch-enabled": "bool" }, closed: true },
    source: `${BR_FORK} oci-hooks/src/lib.rs, OciHooksSettingsV1 (log4j-hotpatch-enabled: bool)`,
  },
  "oci-defaults": {
    shape: {
      struct: {
        capabilities: { map: "oci-capability", of: "bool" },
        "resource-limits": {
          map: "oci-rlimit",
          of: { struct: { "hard-limit": "rlimit", "soft-limit": "rlimit" }, closed: true },
        },
      },
      closed: true,
    },
    source: `${BR_FORK} oci-defaults/src/lib.rs, OciDefaultsV1 (capabilities: HashMap<OciDefaultsCapability, bool>, resource-limits)`,
  },
  pki: {
    shape: { map: "identifier", of: { struct: { data: "pem-bundle", trusted: "bool" }, closed: true } },
    source: `${BR_FORK} pki/src/lib.rs, PkiSettingsV1 (HashMap<Identifier, PemCertificate { data, trusted: bool }>)`,
  },
  "nvidia-container-runtime": {
    shape: {
      struct: { "visible-devices-as-volume-mounts": "bool", "visible-devices-envvar-when-unprivileged": "bool" },
    },
    source: `${BR_FORK} nvidia-container-runtime/src/lib.rs, NvidiaContainerRuntimeSettingsV1`,
  },
  "kubelet-device-plugins": {
    // NvidiaDevicePluginSettings has gained fields release by release (sharing, time slicing, MPS, MIG): its fields are
    // not judged for names, only pass-device-specs' type
    shape: { struct: { nvidia: { struct: { "pass-device-specs": "bool" } } }, closed: true },
    source: `${BR_FORK} kubelet-device-plugins/src/lib.rs, KubeletDevicePluginsV1 (nvidia: NvidiaDevicePluginSettings)`,
  },
  updates: {
    shape: {
      struct: {
        "metadata-base-url": "url",
        "targets-base-url": "url",
        seed: "u32",
        "version-lock": "any",
        "ignore-waves": "bool",
      },
      closed: true,
    },
    source:
      "cbgbt/bottlerocket-settings-sdk@2f23c452 (a fork of bottlerocket-os/bottlerocket-settings-sdk) bottlerocket-settings-models/settings-extensions/updates/src/lib.rs:10-18, UpdatesSettingsV1",
  },
};

/** go-toml's nesting limit for arrays and inline tables (Karpenter's TOML decoder). */
const GO_TOML_MAX_NESTING = 10_000;
const GO_TOML_NESTING_SOURCE = "github.com/pelletier/go-toml/v2 v2.4.3 unstable/parser.go:66-71, 534-535";

/** Whether a smol-toml error is its nesting limit (1,000 levels), not an error of the TOML. */
const tooDeepForReader = (e: unknown) => e instanceof TomlError && /excessively nested/.test(e.message);

/**
 * Values of the settings tables in BR_PASSTHROUGH_MODELS that Bottlerocket's settings model refuses at boot, per
 * table. No folding: Karpenter keeps these tables as written, and Bottlerocket's serde names are case-sensitive.
 */
function bottlerocketPassthroughProblems(
  text: string,
  settings: Record<string, unknown>,
): { table: string; source: string; problems: (TypeProblem & { line: number })[] }[] {
  const out: { table: string; source: string; problems: (TypeProblem & { line: number })[] }[] = [];
  for (const [table, model] of Object.entries(BR_PASSTHROUGH_MODELS)) {
    if (!Object.prototype.hasOwnProperty.call(settings, table)) continue;
    const problems: (TypeProblem & { line: number })[] = [];
    judgeBrShape(text, settings[table], model.shape, `settings.${table}`, "settings", table, problems);
    if (problems.length > 0) out.push({ table, source: model.source, problems });
  }
  return out;
}

/**
 * Where Bottlerocket's settings model types the `[settings.kubernetes]` values of BR_KUBERNETES_SHAPES:
 * KubernetesSettingsV1 and StaticPod (BR_MODEL_SOURCE's file at its commit) and IntegerPercent (BR_TYPES_SOURCE).
 */
const BR_KUBERNETES_SHAPES_SOURCE =
  "bottlerocket-settings-sdk@2363566c bottlerocket-settings-models/settings-extensions/kubernetes/src/lib.rs:24-27 (StaticPod: enabled bool, manifest ValidBase64), 44 (static-pods: HashMap<Identifier, StaticPod>), 74-75 (image-gc-*-threshold-percent: IntegerPercent); bottlerocket-settings-sdk@25e4241f bottlerocket-settings-models/modeled-types/src/kubernetes.rs, IntegerPercent's Deserialize";

/**
 * `[settings.kubernetes]` settings Karpenter's struct types more widely than Bottlerocket's model (Karpenter: `*string`
 * for the image GC percentages, a map of { enabled bool, manifest string } for static pods; Bottlerocket:
 * BR_KUBERNETES_SHAPES_SOURCE), so Karpenter keeps a value the model refuses at boot.
 */
const BR_KUBERNETES_SHAPES: { readonly [setting: string]: BrShape } = {
  "image-gc-high-threshold-percent": "integer-percent",
  "image-gc-low-threshold-percent": "integer-percent",
  "static-pods": { map: "identifier", of: { struct: { enabled: "bool", manifest: "base64" } } },
};

/**
 * The `[settings.kubernetes]` values of BR_KUBERNETES_SHAPES that Bottlerocket's settings model refuses at boot, and
 * the settings they are in. Keys are matched as go-toml matches them (exact, else case-folded), since Karpenter writes
 * them back under its own names; a value Karpenter's decode already refuses is reported there, and a setting the
 * class's kubelet also sets is skipped: Karpenter writes the class's value over it (bottlerocket.go:57-91,
 * BR_KUBELET_FIELDS' classField), so the user data's never reaches the node.
 */
function bottlerocketKubernetesShapeProblems(
  text: string,
  settings: Record<string, unknown>,
  classKubelet: unknown,
  karpenterRefused: ReadonlySet<string>,
): { problems: (TypeProblem & { line: number })[]; settings: Set<string> } {
  const out = { problems: [] as (TypeProblem & { line: number })[], settings: new Set<string>() };
  const kubernetes = foldedEntry(settings, "kubernetes");
  if (!kubernetes || !isTable(kubernetes[1])) return out;
  const own = isTable(classKubelet) ? classKubelet : {};
  const header = `settings.${kubernetes[0]}`;
  const refusedByKarpenter = (path: string) =>
    [...karpenterRefused].some((r) => path === r || path.startsWith(`${r}.`) || path.startsWith(`${r}[`));
  for (const [setting, shape] of Object.entries(BR_KUBERNETES_SHAPES)) {
    const entry = foldedEntry(kubernetes[1], setting);
    if (!entry) continue;
    const classField = BR_KUBELET_FIELDS[setting]?.classField;
    if (classField !== undefined && own[classField] !== undefined && own[classField] !== null) continue;
    const found: (TypeProblem & { line: number })[] = [];
    judgeBrShape(text, entry[1], shape, `${header}.${entry[0]}`, header, entry[0], found, true);
    const kept = found.filter((p) => !refusedByKarpenter(p.path));
    if (kept.length === 0) continue;
    out.problems.push(...kept);
    out.settings.add(setting);
  }
  return out;
}

/** What a value of `shape` must be, in the words of a finding. */
function brShapeWant(shape: BrShape): string {
  if (typeof shape !== "string") {
    if ("oneOf" in shape)
      return `one of ${shape.oneOf.map((m) => JSON.stringify(m)).join(", ")}, as written (Bottlerocket's ${shape.type})`;
    if ("list" in shape) return `an array, each ${brShapeWant(shape.list)}`;
    if ("tuple" in shape) return `an array ${shape.as}`;
    if ("either" in shape) return "an array or a table";
    return "map" in shape ? "a table" : `a table (${Object.keys(shape.struct).join(", ")})`;
  }
  return {
    any: "any value",
    bool: "true or false",
    string: "a string",
    strings: "an array of strings",
    table: "a table",
    u32: "an integer from 0 to 4294967295 (u32)",
    i32: "an integer from -2147483648 to 2147483647 (i32; a number, not a string)",
    "boot-config-value":
      "a string of printable ASCII, not holding both a single and a double quote (Bottlerocket's BootConfigValue)",
    "pem-bundle":
      'base64 (with its padding) of one or more PEM X.509 certificates and nothing else, no private key, or "" (Bottlerocket\'s PemCertificateString)',
    rlimit: 'a whole number from -1 up, or "unlimited" (Bottlerocket\'s OCI defaults resource limit)',
    "chunk-size":
      'a size such as "64mb" or "8MiB" without spaces, or a whole number of bytes of 0 or more (Bottlerocket\'s deserialize_chunk_size)',
    url: 'a URL (Bottlerocket\'s Url: url::Url\'s parse, or the same with "http://" in front), such as "https://mirror.example.com"',
    image:
      'an image reference Bottlerocket reads as a URL (Bottlerocket\'s Url), such as "public.ecr.aws/my-org/admin:1.0"',
    base64:
      'base64 text on one line with its "=" padding (Bottlerocket\'s ValidBase64: the standard alphabet, "=" only at the end, a length that is a multiple of 4)',
    "single-line": "a string on one line (Bottlerocket's SingleLineString)",
    hostname:
      'a Linux hostname of 1 to 253 lower-case letters, digits, "." and "-", each dot-separated part 1 to 63 long and not starting with "-", such as "node-1.example.com" (Bottlerocket\'s ValidLinuxHostname)',
    ip: 'an IPv4 or IPv6 address, such as "10.0.0.2" (Rust\'s IpAddr)',
    "integer-percent":
      'a whole number from 0 to 100, such as "85" (Bottlerocket\'s IntegerPercent: a number or a string of one)',
    "time-servers": 'a list of time servers, such as ["169.254.169.123"] (Bottlerocket\'s NtpTimeServers)',
  }[shape];
}

/** A scalar shape's refusal of a value of the right TOML type: true when the model refuses it. */
const BR_SCALAR_REFUSES: { readonly [shape: string]: (v: string) => boolean } = {
  "boot-config-value": badBootConfigValue,
  "pem-bundle": badPemBundle,
  url: badUrl,
  image: badUrl,
  base64: badBase64,
  "single-line": badSingleLine,
  hostname: badHostname,
  ip: badIp,
};

/**
 * Judge `value` at `path` (written under the TOML table `header` as `key`) against `shape`, pushing what Bottlerocket's
 * model refuses onto `out`. `fold`: a struct's fields are matched as go-toml matches them (for the tables Karpenter
 * decodes into its struct and writes back under its own names).
 */
function judgeBrShape(
  text: string,
  value: unknown,
  shape: BrShape,
  path: string,
  header: string,
  key: string,
  out: (TypeProblem & { line: number })[],
  fold = false,
): void {
  const at = () => ({ path, key, line: tomlKeyLineIn(text, header, key) });
  if (typeof shape !== "string") {
    judgeBrCompound(text, value, shape, path, header, key, out, fold);
    return;
  }
  const want = brShapeWant(shape);
  switch (shape) {
    case "any":
      return;
    case "bool":
      if (typeof value !== "boolean") out.push({ ...at(), want, got: tomlType(value) });
      return;
    case "string":
      if (typeof value !== "string")
        out.push({ ...at(), want: `${want} (write it in quotes, even a number)`, got: tomlType(value) });
      return;
    case "strings":
      if (!Array.isArray(value) || !value.every((x) => typeof x === "string"))
        out.push({ ...at(), want, got: tomlType(value) });
      return;
    case "table":
      if (!isTable(value)) out.push({ ...at(), want, got: tomlType(value) });
      return;
    case "u32":
      if (typeof value !== "bigint") out.push({ ...at(), want, got: tomlType(value) });
      else if (value < 0n || value >= 2n ** 32n) out.push({ ...at(), want, got: `${value}, which is out of range` });
      return;
    case "i32":
      if (typeof value !== "bigint") out.push({ ...at(), want, got: tomlType(value) });
      else if (value < -(2n ** 31n) || value >= 2n ** 31n)
        out.push({ ...at(), want, got: `${value}, which is out of range` });
      return;
    case "rlimit":
      if (badRlimit(value))
        out.push({
          ...at(),
          want,
          got:
            typeof value === "string"
              ? JSON.stringify(value)
              : typeof value === "bigint"
                ? `${value}`
                : tomlType(value),
        });
      return;
    case "chunk-size":
      if (typeof value !== "string" && typeof value !== "bigint") out.push({ ...at(), want, got: tomlType(value) });
      else if (badChunkSize(value))
        out.push({ ...at(), want, got: typeof value === "string" ? JSON.stringify(value) : `${value}` });
      return;
    case "integer-percent":
      if (typeof value !== "string" && typeof value !== "bigint") out.push({ ...at(), want, got: tomlType(value) });
      else if (badIntegerPercent(value))
        out.push({ ...at(), want, got: typeof value === "string" ? JSON.stringify(value) : `${value}` });
      return;
    case "time-servers":
      judgeTimeServers(value, want, at, out);
      return;
    default:
      if (typeof value !== "string") out.push({ ...at(), want: "a string", got: tomlType(value) });
      else if (BR_SCALAR_REFUSES[shape](value)) out.push({ ...at(), want, got: JSON.stringify(value) });
  }
}

/** {@link judgeBrShape} for the compound shapes: an enum, a list, a tuple, an array or a table, a map, a struct. */
function judgeBrCompound(
  text: string,
  value: unknown,
  shape: Exclude<BrShape, string>,
  path: string,
  header: string,
  key: string,
  out: (TypeProblem & { line: number })[],
  fold: boolean,
): void {
  const at = () => ({ path, key, line: tomlKeyLineIn(text, header, key) });
  const want = brShapeWant(shape);
  if ("oneOf" in shape) {
    if (typeof value !== "string") out.push({ ...at(), want, got: tomlType(value) });
    else if (!shape.oneOf.includes(value)) out.push({ ...at(), want, got: JSON.stringify(value) });
    return;
  }
  if ("either" in shape) {
    if (Array.isArray(value)) judgeBrShape(text, value, shape.either.array, path, header, key, out, fold);
    else if (isTable(value)) judgeBrShape(text, value, shape.either.table, path, header, key, out, fold);
    else out.push({ ...at(), want, got: tomlType(value) });
    return;
  }
  if ("list" in shape || "tuple" in shape) {
    if (!Array.isArray(value) || ("tuple" in shape && value.length !== shape.tuple.length)) {
      out.push({ ...at(), want, got: Array.isArray(value) ? `an array of ${value.length}` : tomlType(value) });
      return;
    }
    value.forEach((x: unknown, i) =>
      judgeBrShape(text, x, "list" in shape ? shape.list : shape.tuple[i], `${path}[${i}]`, header, key, out, fold),
    );
    return;
  }
  if (!isTable(value)) {
    out.push({ ...at(), want, got: tomlType(value) });
    return;
  }
  if ("map" in shape) {
    const keys = BR_MAP_KEYS[shape.map];
    for (const [name, v] of Object.entries(value)) {
      if (keys.bad(name))
        out.push({
          path: `${path}.${name}`,
          key: name,
          line: tomlKeyLineIn(text, path, name),
          want: keys.rule,
          got: JSON.stringify(name),
        });
      judgeBrShape(text, v, shape.of, `${path}.${name}`, path, name, out, fold);
    }
    return;
  }
  for (const [field, fieldShape] of Object.entries(shape.struct)) {
    const entry = fold
      ? foldedEntry(value, field)
      : Object.prototype.hasOwnProperty.call(value, field)
        ? ([field, value[field]] as const)
        : undefined;
    if (entry) judgeBrShape(text, entry[1], fieldShape, `${path}.${entry[0]}`, path, entry[0], out, fold);
  }
  // only the tables Karpenter passes on as written: the ones it decodes (fold) it writes back from its own struct
  if (shape.closed && !fold) out.push(...unknownBrFields(text, value, Object.keys(shape.struct), path));
}

/**
 * The fields of `table` (at `path`) that a closed struct of Bottlerocket's settings model does not have: serde refuses
 * an unknown field, case-sensitively (#[model]'s deny_unknown_fields, BOTTLEROCKET_DENY_UNKNOWN_SOURCE), so the whole
 * PATCH fails at boot. Each with the nearest field, when one is close enough to be a typo.
 */
function unknownBrFields(
  text: string,
  table: Record<string, unknown>,
  fields: readonly string[],
  path: string,
): (TypeProblem & { line: number })[] {
  return Object.keys(table)
    .filter((k) => !fields.includes(k))
    .map((k) => {
      const near = nearestKey(k, fields);
      return {
        path: `${path}.${k}`,
        key: k,
        line: tomlKeyLineIn(text, path, k),
        want: `a field this table has (${fields.join(", ")}; Bottlerocket's settings model denies unknown fields, case-sensitively, ${BOTTLEROCKET_DENY_UNKNOWN_SOURCE})`,
        got: `an unknown field ${JSON.stringify(k)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}`,
      };
    });
}

/**
 * NtpTimeServers: a table (named servers) is taken by the newer models, its servers' fields not judged here; a list is
 * refused by every version when an entry is neither a URL string nor a server table, when it holds both, or when a
 * string in it is no URL.
 */
function judgeTimeServers(
  value: unknown,
  want: string,
  at: () => { path: string; key: string; line: number },
  out: (TypeProblem & { line: number })[],
): void {
  if (isTable(value)) return;
  if (!Array.isArray(value)) {
    out.push({ ...at(), want, got: tomlType(value) });
    return;
  }
  const strings = value.filter((x) => typeof x === "string");
  const other = value.find((x) => typeof x !== "string" && !isTable(x));
  if (other !== undefined)
    out.push({ ...at(), want: `${want}: each a URL string`, got: `a list holding ${tomlType(other)}` });
  else if (strings.length > 0 && strings.length < value.length)
    out.push({ ...at(), want: `${want}: all URL strings or all server tables`, got: "a list of both" });
  else {
    const bad = strings.find((s) => badUrl(s));
    if (bad !== undefined) out.push({ ...at(), want: `${want}: each a URL`, got: JSON.stringify(bad) });
  }
}

/**
 * Where Karpenter drops the unknown keys of Bottlerocket user data, per provider module read
 * (lib/versions/data/bottlerocket-settings-fields.json): UnmarshalTOML strict-decodes `settings.kubernetes` only to log
 * "Unknown parameter in userData K8s settings", then decodes leniently into the typed struct; MarshalTOML writes
 * `kubernetes` (and `bootstrap-commands`, when set) back from the struct, so a key the struct lacks is gone. Other
 * tables of `settings` are written back as they were (SettingsRaw), so Bottlerocket reads them itself.
 */
const BR_DROP_LINES: { readonly [provider: string]: { readonly strict: string; readonly marshal: string } } = {
  "github.com/aws/karpenter-provider-aws@v1.14.1": { strict: "151-167", marshal: "177-186" },
  "github.com/aws/karpenter-provider-aws@v1.15.0": { strict: "159-175", marshal: "185-194" },
};

/** A key of Bottlerocket user data that Karpenter's struct lacks: its dotted path, the key, the struct, its keys. */
interface DroppedKey {
  readonly path: string;
  readonly key: string;
  readonly struct: string;
  readonly known: readonly string[];
}

/** The keys of `v` (decoded into Go type `type`) that no struct field matches (go-toml: exact, else case-folded). */
function droppedKeys(v: unknown, type: string, path: string, structs: BottlerocketStructs, out: DroppedKey[]): void {
  if (type.startsWith("[]")) {
    if (Array.isArray(v)) v.forEach((x, i) => droppedKeys(x, type.slice(2), `${path}[${i}]`, structs, out));
  } else if (type.startsWith("map[string]")) {
    if (isTable(v))
      for (const [k, x] of Object.entries(v)) droppedKeys(x, type.slice(11), `${path}.${k}`, structs, out);
  } else if (structs[type] && isTable(v)) {
    const fields = structs[type];
    const folded = new Map(Object.keys(fields).map((f) => [f.toLowerCase(), f]));
    for (const [k, x] of Object.entries(v)) {
      const field = k in fields ? k : folded.get(k.toLowerCase());
      if (field === undefined) out.push({ path: `${path}.${k}`, key: k, struct: type, known: Object.keys(fields) });
      else droppedKeys(x, fields[field], `${path}.${k}`, structs, out);
    }
  }
}

/**
 * A TOML value as JSON for a message: smol-toml's bigint integers (at any depth) written with all their digits, as the
 * user wrote them (a JavaScript number would round 9223372036854775807 to 9223372036854776000).
 */
function tomlJson(value: unknown): string | undefined {
  const mark = "\u0000bigint:";
  return JSON.stringify(value, (_, x: unknown) => (typeof x === "bigint" ? `${mark}${x}` : x))?.replace(
    /"\\u0000bigint:(-?\d+)"/g,
    "$1",
  );
}

/** A Bottlerocket setting the kubelet reads as a KubeletConfiguration field. */
interface BrKubeletField {
  /** The KubeletConfiguration field Bottlerocket renders the setting into. */
  readonly field: string;
  /** The class's kubelet field whose value Karpenter writes over the setting when it is set (bottlerocket.go:57-91). */
  readonly classField?: string;
  /** The field's value from the setting's (the setting's own when absent); undefined: not judged. */
  readonly convert?: (v: unknown) => unknown;
}

/** A Bottlerocket string setting Karpenter types `*string` that holds a whole number (image GC percentages). */
const wholeNumber = (v: unknown) => (typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : undefined);

/**
 * Bottlerocket settings it renders into the kubelet's configuration field of the same meaning (Bottlerocket's settings
 * documentation, "settings.kubernetes"; Karpenter keeps each, karpenter-provider-aws v1.15.0
 * pkg/providers/amifamily/bootstrap/bottlerocketsettings.go:51-99), which the kubelet validates when it starts: the
 * adapter that holds them to the kubelet's own rules (kubelet-runtime-rules.ts kubeletValueProblems). Each with the
 * class kubelet field whose value Karpenter writes over it (bottlerocket.go:57-91): then the user's value never
 * reaches the node and is not judged.
 */
const BR_KUBELET_FIELDS: { readonly [setting: string]: BrKubeletField } = {
  "allowed-unsafe-sysctls": { field: "allowedUnsafeSysctls" },
  "cluster-dns-ip": {
    field: "clusterDNS",
    classField: "clusterDNS",
    convert: (v) => (typeof v === "string" ? [v] : undefined),
  },
  "container-log-max-files": { field: "containerLogMaxFiles" },
  "container-log-max-size": { field: "containerLogMaxSize" },
  "container-log-max-workers": { field: "containerLogMaxWorkers" },
  "container-log-monitor-interval": { field: "containerLogMonitorInterval" },
  "cpu-manager-policy": { field: "cpuManagerPolicy" },
  // a list of option names Bottlerocket renders as the kubelet's map of options set to "true"
  "cpu-manager-policy-options": {
    field: "cpuManagerPolicyOptions",
    convert: (v) =>
      Array.isArray(v) && v.every((o) => typeof o === "string")
        ? Object.fromEntries(v.map((o: string) => [o, "true"]))
        : undefined,
  },
  "cpu-manager-reconcile-period": { field: "cpuManagerReconcilePeriod" },
  // eviction-soft / -grace-period: for the kubelet's rule across the two (a soft threshold needs a grace period); the
  // thresholds themselves are bottlerocketEvictionProblems' (Bottlerocket's model, then the kubelet's parse)
  "eviction-soft": { field: "evictionSoft", classField: "evictionSoft" },
  "eviction-soft-grace-period": { field: "evictionSoftGracePeriod", classField: "evictionSoftGracePeriod" },
  "event-burst": { field: "eventBurst" },
  "event-qps": { field: "eventRecordQPS" },
  "image-gc-high-threshold-percent": {
    field: "imageGCHighThresholdPercent",
    classField: "imageGCHighThresholdPercent",
    convert: wholeNumber,
  },
  "image-gc-low-threshold-percent": {
    field: "imageGCLowThresholdPercent",
    classField: "imageGCLowThresholdPercent",
    convert: wholeNumber,
  },
  "kube-api-burst": { field: "kubeAPIBurst" },
  "kube-api-qps": { field: "kubeAPIQPS" },
  "kube-reserved": { field: "kubeReserved", classField: "kubeReserved" },
  "memory-manager-policy": { field: "memoryManagerPolicy" },
  "ids-per-pod": {
    field: "userNamespaces",
    convert: (v) => (typeof v === "number" ? { idsPerPod: v } : undefined),
  },
  "registry-burst": { field: "registryBurst" },
  "registry-qps": { field: "registryPullQPS" },
  "shutdown-grace-period": { field: "shutdownGracePeriod" },
  "shutdown-grace-period-for-critical-pods": { field: "shutdownGracePeriodCriticalPods" },
  "system-reserved": { field: "systemReserved", classField: "systemReserved" },
  "topology-manager-policy": { field: "topologyManagerPolicy" },
  "topology-manager-scope": { field: "topologyManagerScope" },
  // a table Bottlerocket renders as the kubelet's map of option strings
  "topology-manager-policy-options": {
    field: "topologyManagerPolicyOptions",
    convert: (v) =>
      v !== null && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).map(([o, x]) => [o, String(typeof x === "bigint" ? Number(x) : x)]))
        : undefined,
  },
};

/**
 * The kubelet's refusals at start (kubelet-runtime-rules.ts kubeletValueProblems) of the Bottlerocket settings it
 * renders into the kubelet's configuration ({@link BR_KUBELET_FIELDS}) — unless Karpenter writes the class's value
 * over the setting — and what the kubelet drops (a `cluster-dns-ip` that is no IP address).
 */
function bottlerocketKubeletProblems(
  text: string,
  settings: Record<string, unknown>,
  classKubelet: unknown,
  skip: Set<string>,
  minor: string,
  kubernetesVersion?: string,
): Finding[] {
  // go-toml matches keys case-insensitively (see foldedEntry)
  const kubernetes = foldedEntry(settings, "kubernetes")?.[1];
  if (!isTable(kubernetes)) return [];
  const own = isTable(classKubelet) ? classKubelet : {};
  const config: Record<string, unknown> = {};
  const settingOf: Record<string, string> = {};
  for (const [setting, { field, classField, convert }] of Object.entries(BR_KUBELET_FIELDS)) {
    // the class's value, which Karpenter writes over the setting, takes part in the kubelet's rules across fields
    // (a soft threshold's grace period, the image GC order) but is the class's to report
    const mine = classField === undefined ? undefined : own[classField];
    if (mine !== undefined && mine !== null && !(Array.isArray(mine) && mine.length === 0)) {
      if (!isToken(mine) && !holdsToken(mine)) config[field] = mine;
      continue;
    }
    const entry = foldedEntry(kubernetes, setting);
    if (!entry || skip.has(`settings.kubernetes.${setting}`)) continue;
    const raw = typeof entry[1] === "bigint" ? Number(entry[1]) : entry[1];
    const v = convert ? convert(raw) : raw;
    if (v === undefined) continue;
    config[field] = v;
    settingOf[field] = setting;
  }
  const out: Finding[] = [];
  // the kubelet's decode first: a value of another JSON type or a duration time.ParseDuration does not read fails it
  // (k8s.io/kubernetes v1.36.3 pkg/kubelet/kubeletconfig/util/codec/codec.go:75-100), whatever the value rules say
  const table = kubeletConfigFields(minor);
  for (const [field, v] of Object.entries(config)) {
    const kind = table && Object.prototype.hasOwnProperty.call(table.fields, field) ? table.fields[field] : undefined;
    const setting = settingOf[field];
    if (setting === undefined) continue;
    const why = kind ? kubeletValueProblem(v, kind) : undefined;
    if (why === undefined) continue;
    delete config[field];
    const value = foldedEntry(kubernetes, setting)?.[1];
    out.push({
      line: tomlKeyLine(text, setting) || 1,
      problem: `settings.kubernetes.${setting} as ${why.replace(/, got .*$/, "")}, got ${tomlJson(value)}: Karpenter keeps the setting and Bottlerocket passes it on as the kubelet's ${field} (Bottlerocket's settings documentation, settings.kubernetes), and the kubelet's decode of its configuration fails on it ("failed to decode"; ${table!.module} ${table!.file}; k8s.io/kubernetes v1.36.3 pkg/kubelet/kubeletconfig/util/codec/codec.go:75-100), so the kubelet does not start and the node never joins (unless Bottlerocket's own settings model refuses it first, at boot)`,
    });
  }
  for (const p of kubeletValueProblems(config, kubernetesVersion)) {
    const field = p.field.replace(/^kubelet\./, "").split(/[.[]/)[0];
    const setting = settingOf[field];
    if (setting === undefined) continue;
    // of the eviction maps only the rule across them: their signals and thresholds are judged with Bottlerocket's model
    if (field.startsWith("evictionSoft") && !p.rule.startsWith("a soft eviction threshold without a grace period"))
      continue;
    // a problem of one key of a map setting (kube-reserved.cpu) names that key, its value and its line
    const table = foldedEntry(kubernetes, setting)?.[1];
    const sub = /^kubelet\.[^.[]+(?:\["((?:[^"\\]|\\.)*)"\]|\.([^.[\]]+))/.exec(p.field);
    const subKey = sub ? (sub[1] !== undefined ? (JSON.parse(`"${sub[1]}"`) as string) : sub[2]) : undefined;
    const subEntry = subKey !== undefined && isTable(table) ? foldedEntry(table, subKey) : undefined;
    const name = subEntry
      ? `${setting}.${/^[\w-]+$/.test(subEntry[0]) ? subEntry[0] : JSON.stringify(subEntry[0])}`
      : setting;
    const got = tomlJson(subEntry ? subEntry[1] : table);
    const subLine = subEntry ? tomlKeyLineIn(text, `settings.kubernetes.${setting}`, subEntry[0]) : 1;
    out.push({
      line: subLine > 1 ? subLine : tomlKeyLine(text, setting) || 1,
      problem:
        p.effect !== undefined
          ? `settings.kubernetes.${name} as ${p.allowed}, got ${got}: Karpenter keeps the setting and Bottlerocket passes it on as the kubelet's ${field}, and ${p.effect} (${p.source})`
          : `settings.kubernetes.${name} as ${p.allowed}, got ${got}: Karpenter keeps the setting and Bottlerocket passes it on as the kubelet's ${field} (Bottlerocket's settings documentation, settings.kubernetes), and the kubelet refuses ${p.rule} when it starts (${p.source}), so the node never joins (unless Bottlerocket's own settings model refuses it first, at boot)`,
    });
  }
  return out;
}

/**
 * The warnings for keys of literal Bottlerocket user data that Karpenter drops without failing (BR_DROP_LINES): a key
 * under `[settings.kubernetes]` or a bootstrap command that Karpenter's struct for the minor does not have (`maxpods`
 * for `max-pods`), with a "did you mean" against the struct's keys. Only user data {@link checkUserDataFormat} takes.
 */
function bottlerocketWarnings(
  name: string,
  family: string | undefined,
  userData: unknown,
  minor: string,
  classKubelet?: unknown,
  release?: string,
): string[] {
  if (family !== "Bottlerocket" || typeof userData !== "string" || userData === "" || holdsToken(userData)) return [];
  if (overEc2Limit(userData)) return [];
  if (bottlerocketFindings(userData, minor, classKubelet, undefined, release).length > 0) return [];
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(userData, { integersAsBigInt: true }) as Record<string, unknown>;
  } catch (e) {
    // only a nesting deeper than this library's TOML reader follows gets here (bottlerocketFindings refuses the rest)
    return tooDeepForReader(e)
      ? [
          `EC2NodeClass ${name}: userData nests arrays or inline tables deeper than this library's TOML reader follows (1,000 levels), so its settings were not checked. go-toml reads up to ${GO_TOML_MAX_NESTING} levels (${GO_TOML_NESTING_SOURCE}), so Karpenter takes it: it is not refused, but nothing in it was checked either`,
        ]
      : [];
  }
  const fields = bottlerocketSettingsFields(minor);
  const root = fields.structs[fields.root] ?? {};
  const lines = BR_DROP_LINES[fields.provider];
  const at = (l: string | undefined) => (l ? `:${l}` : "");
  const out: string[] = [];
  for (const [key, settings] of Object.entries(doc)) {
    if (key.toLowerCase() !== "settings" || !isTable(settings)) continue;
    // only the tables MarshalTOML writes back from the struct, under the name it writes (SettingsRaw["kubernetes"])
    for (const table of Object.keys(root).filter((t) => isTable(settings[t]))) {
      const dropped: DroppedKey[] = [];
      droppedKeys(settings[table], root[table], `${key}.${table}`, fields.structs, dropped);
      for (const d of dropped) {
        const near = suggestion(d.key, d.known);
        const logged =
          table === "kubernetes"
            ? `Karpenter logs "Unknown parameter in userData K8s settings" (UnmarshalTOML${at(lines?.strict)}) and`
            : "Karpenter";
        out.push(
          `EC2NodeClass ${name}: userData: line ${tomlKeyLine(userData, d.key)}: ${d.path} is not a key of Karpenter ${minor}'s ${d.struct} struct (${fields.provider} ${fields.file}), so it is dropped: ${logged} writes settings.${table} back from that struct (MarshalTOML${at(lines?.marshal)}), so the setting never reaches the node. ${near ? `${near.charAt(0).toUpperCase()}${near.slice(1)} ` : ""}Fix the name, or remove it.`,
        );
      }
    }
    // the kubelet's reservation and eviction maps, as Bottlerocket names them (settings.kubernetes.<setting>)
    const k8s = foldedEntry(settings, "kubernetes")?.[1];
    if (isTable(k8s)) {
      const maps: Record<string, string> = {
        "kube-reserved": "kubeReserved",
        "system-reserved": "systemReserved",
        "eviction-hard": "evictionHard",
        "eviction-soft": "evictionSoft",
      };
      const asKubelet: Record<string, unknown> = {};
      for (const [setting, field] of Object.entries(maps)) asKubelet[field] = foldedEntry(k8s, setting)?.[1];
      for (const p of milliByteQuantities(asKubelet)) {
        const setting = Object.keys(maps).find((s) => maps[s] === p.field)!;
        out.push(
          `EC2NodeClass ${name}: userData: line ${tomlKeyLine(userData, p.key)}: settings.kubernetes.${setting}.${p.key} = ${JSON.stringify(p.value)}: the suffix "m" means thousandths, so this is a fraction of one byte; the kubelet takes it (Kubernetes quantities), but it is surely a typo for "${p.value.slice(0, -1)}Mi" (mebibytes) or "${p.value.slice(0, -1)}M" (megabytes).`,
        );
      }
    }
    for (const w of bottlerocketSettingsNameWarnings(userData, settings, release))
      out.push(`EC2NodeClass ${name}: userData: ${w}`);
    const taints = bottlerocketTaintsWarning(userData, key, settings);
    if (taints) out.push(`EC2NodeClass ${name}: userData: ${taints}`);
    // Karpenter writes these itself over the user data's (bottlerocket.go:43-46: cluster-name, api-server,
    // cluster-certificate), so the user's never reach the node (fresh tester 24 S-14)
    const kubernetes = settings.kubernetes;
    if (isTable(kubernetes))
      for (const setting of ["cluster-name", "api-server", "cluster-certificate"])
        if (Object.prototype.hasOwnProperty.call(kubernetes, setting))
          out.push(
            `EC2NodeClass ${name}: userData: line ${tomlKeyLine(userData, setting)}: settings.kubernetes.${setting} is replaced: Karpenter writes the cluster's own ${setting} over the user data's (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/bottlerocket.go:43-46), so this value never reaches the node. Remove it.`,
          );
    // max-pods too: Karpenter resolves a count for every instance type (the class's kubelet.maxPods, else its own from
    // the type's ENI limits) and always writes it (v1.15.0 resolver.go:375-395 and bootstrap/bottlerocket.go:54-56;
    // v1.14.1 resolver.go:282-286 and bottlerocket.go:51-53), so the user data's is never read (fresh tester 33 4.18)
    if (isTable(kubernetes) && Object.prototype.hasOwnProperty.call(kubernetes, "max-pods"))
      out.push(
        `EC2NodeClass ${name}: userData: line ${tomlKeyLine(userData, "max-pods")}: settings.kubernetes.max-pods is replaced: Karpenter writes a max-pods of its own for every instance type over the user data's (the EC2NodeClass's kubelet.maxPods, else a count from the instance type's network interfaces; karpenter-provider-aws v1.15.0 pkg/providers/amifamily/resolver.go:375-395, bootstrap/bottlerocket.go:54-56), so this value never reaches the node. Set kubelet.maxPods on the EC2NodeClass instead.`,
      );
  }
  return out;
}

/** The taint effects the kubelet registers a node with (k8s.io/api core/v1 TaintEffect; validation.go:160-163). */
const TAINT_EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/**
 * `settings.kubernetes.node-taints` of Bottlerocket user data never reaches the node: Karpenter replaces the whole table
 * with the NodeClaim's taints (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/bottlerocket.go:94-97,
 * `NodeTaints = map[string][]string{}` then one "value:Effect" per NodePool taint and startup taint), before it writes
 * the user data. So neither Bottlerocket's model (KubernetesTaintValue takes any alphanumeric effect) nor the kubelet
 * (--register-with-taints: "invalid taint" for an effect other than the three, k8s.io/kubernetes v1.36.3
 * pkg/kubelet/apis/config/validation/validation.go:160-163) ever sees it: a warning, not an error, naming a bad effect.
 */
function bottlerocketTaintsWarning(userData: string, settingsKey: string, settings: Record<string, unknown>): string {
  const kubernetes = foldedEntry(settings, "kubernetes");
  if (!kubernetes || !isTable(kubernetes[1])) return "";
  const table = foldedEntry(kubernetes[1], "node-taints");
  if (!table || !isTable(table[1]) || Object.keys(table[1]).length === 0) return "";
  const header = `${settingsKey}.${kubernetes[0]}.${table[0]}`;
  const bad = Object.entries(table[1]).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v])
      .filter((x): x is string => typeof x === "string" && !TAINT_EFFECTS.includes(x.slice(x.lastIndexOf(":") + 1)))
      .map((x) => `${JSON.stringify(k)} = ${JSON.stringify(x)}`),
  );
  const effects = bad.length
    ? ` (and the kubelet would refuse ${bad.join(", ")}: a taint's effect is one of ${TAINT_EFFECTS.join(", ")}, k8s.io/kubernetes v1.36.3 pkg/kubelet/apis/config/validation/validation.go:160-163)`
    : "";
  const line = tomlKeyLineIn(userData, `${settingsKey}.${kubernetes[0]}`, table[0]);
  return `line ${line}: ${header} is replaced by Karpenter with the NodeClaim's taints (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/bottlerocket.go:94-97), so the user data's taints never reach the node${effects}. Set them as NodePool taints (spec.template.spec.taints, or startupTaints), and remove the table.`;
}

/** What TOML a Go type of the table takes, in words. */
function described(type: string, structs: BottlerocketStructs): string {
  if (type === "string") return "a string";
  if (type === "bool") return "true or false";
  const range = GO_INTEGERS[type];
  if (range) return type === "int" || type === "int64" ? "an integer" : `an integer from ${range[0]} to ${range[1]}`;
  if (type.startsWith("[]")) return `an array of ${plural(described(type.slice(2), structs))}`;
  if (type.startsWith("map[string]")) return `a table of ${plural(described(type.slice(11), structs))}`;
  if (structs[type]) return `a table (${Object.keys(structs[type]).join(", ")})`;
  return type;
}
const plural = (d: string) =>
  d === "true or false" ? "booleans" : d.replace(/^an? (array|table|string|integer)/, "$1s");

type BottlerocketStructs = { readonly [struct: string]: { readonly [key: string]: string } };

/**
 * The values of a TOML value that go-toml v2.4.3 refuses to decode into a Go type of the table (checked against it by
 * running go-toml on the settings structs): a string only into a string, an integer only into an integer type in its
 * range (a float, even 5.0, never), a boolean only into a bool, an array into a slice, a table (inline or not) into a
 * map or struct; an array of tables into a map is refused ("cannot store an array table in a map"). A struct's keys
 * match its fields' TOML keys case-insensitively; a key it lacks is skipped (the decode is not strict), so it is not
 * judged here.
 */
function decodeProblems(
  v: unknown,
  type: string,
  path: string,
  key: string,
  structs: BottlerocketStructs,
  out: TypeProblem[],
): void {
  const wrong = () => out.push({ path, key, want: described(type, structs), got: tomlType(v) });
  if (type === "string") {
    if (typeof v !== "string") wrong();
  } else if (type === "bool") {
    if (typeof v !== "boolean") wrong();
  } else if (GO_INTEGERS[type]) {
    const [min, max] = GO_INTEGERS[type];
    if (typeof v !== "bigint") wrong();
    // an integer of the wrong size: name the range and the value, not only the type ("an integer, got an integer").
    // go-toml refuses it: "decimal number is too large to fit in a 64-bit signed integer" for int / int64 (at parse),
    // "integer value … cannot be stored in …" for the narrower types
    else if (v < min || v > max)
      out.push({ path, key, want: `an integer from ${min} to ${max}`, got: `${v}, which is out of range` });
  } else if (type.startsWith("[]")) {
    if (!Array.isArray(v)) wrong();
    else v.forEach((x, i) => decodeProblems(x, type.slice(2), `${path}[${i}]`, key, structs, out));
  } else if (type.startsWith("map[string]")) {
    if (!isTable(v)) wrong();
    else for (const [k, x] of Object.entries(v)) decodeProblems(x, type.slice(11), `${path}.${k}`, k, structs, out);
  } else if (structs[type]) {
    if (!isTable(v)) return void wrong();
    const fields = structs[type];
    const folded = new Map(Object.keys(fields).map((f) => [f.toLowerCase(), f]));
    for (const [k, x] of Object.entries(v)) {
      const field = k in fields ? k : folded.get(k.toLowerCase());
      if (field !== undefined) decodeProblems(x, fields[field], `${path}.${k}`, k, structs, out);
    }
  }
}

const isTable = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date);

const isMimeStart = (text: string) => text.startsWith("MIME-Version:") || text.startsWith("Content-Type:");

/** AL2 user data: only a MIME document is read (AL2_SOURCE); anything else is wrapped as a shell script part. */
function al2Finding(text: string): Finding | undefined {
  if (isMimeStart(goTrimSpace(text))) return mimeFinding(text, undefined, AL2_MIME);
  // a NodeConfig (AL2023's nodeadm format): Karpenter wraps AL2 user data that is no MIME document as one shell script
  // part (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/eksbootstrap.go:119-139, mimeify), AL2 has no
  // nodeadm, and the YAML run as a script sets nothing (fresh tester 23 S-3)
  const toml = bottlerocketTomlFinding(text, "AL2", EKS_BOOTSTRAP_SHELL);
  if (toml) return toml;
  if (isNodeConfigText(text))
    return {
      line: 1,
      problem: `a shell script or a MIME multipart document: this user data for the AL2 AMI family is a NodeConfig, which only AL2023's nodeadm reads. Karpenter wraps AL2 user data as one shell script part (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/eksbootstrap.go:119-139, mimeify), the AL2 AMI has no nodeadm, and the YAML run as a script sets nothing: none of its settings reach the node. Use the AL2023 family (amiSelectorTerms alias al2023@…), or write the settings as an AL2 bootstrap script`,
    };
  return unrunnableScriptFinding(
    text,
    "AL2",
    "Karpenter wraps AL2 user data that is no MIME document as one text/x-shellscript part, as written (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/eksbootstrap.go:119-139, mimeify)",
  );
}

function al2023Finding(text: string, ctx: Al2023Context): Finding | undefined {
  // nodeadm.go:127-128 decides MIME on strings.TrimSpace of the text (unlike JavaScript's trim, Go's keeps a byte-order
  // mark and removes U+0085)
  if (isMimeStart(goTrimSpace(text))) return mimeFinding(text, ctx);
  if (blankYaml(text))
    return {
      line: 1,
      problem: `a NodeConfig, a shell script with a command, or a MIME multipart document: this user data for the AL2023 AMI family holds only YAML comments and whitespace (a #! or #cloud-config line is a comment to YAML), so Karpenter's yaml.Unmarshal reads an empty document without error and passes it on as a NodeConfig part (${AL2023_SOURCE}:137-141, parseUserData; only "" is no user data, :124), and nodeadm finds no kind in it ("Object 'Kind' is missing", ${NODEADM_PART_SOURCE}): it stops, and the node never joins. Remove userData, or give the script a command`,
    };
  return (
    bottlerocketTomlFinding(
      text,
      "AL2023",
      "Karpenter's yaml.Unmarshal of it fails, so it passes it on as a shell script part (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/nodeadm.go:137-159, parseUserData)",
    ) ??
    base64Finding(text) ??
    nodeConfigFinding(text, 0, ctx) ??
    (karpenterTakesForScript(text) ? unrunnableScriptFinding(text, "AL2023", AL2023_SCRIPT_PART) : undefined)
  );
}

/** Where Karpenter makes AL2023 user data that is neither MIME nor a YAML map one shell script part. */
const AL2023_SCRIPT_PART = `Karpenter passes AL2023 user data that is neither MIME nor a YAML map on as one text/x-shellscript part (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/nodeadm.go:137-159, parseUserData; mime/mime.go:38), as written`;

/**
 * Whether Karpenter's yaml.Unmarshal into a map fails on `text`, so that it passes the text on as a shell script part
 * (nodeadm.go parseUserData). A document deeper than this reader follows, or past its alias cap, is not decided.
 */
function karpenterTakesForScript(text: string): boolean {
  const go = decodeGoYaml(text, { strict: false });
  if ("error" in go) return !go.tooDeep && !go.aliasCap;
  return !isTable(goYamlToJs(go.value));
}

/**
 * cloud-init runs a text/x-shellscript part as a program (cloudinit/handlers/shell_script.py writes it to
 * /var/lib/cloud/instance/scripts, and the scripts_user module executes each file there), so the kernel needs a `#!`
 * line as its first bytes; without one, execve fails with ENOEXEC and cloud-init logs "Exec format error. Missing #! in
 * script?" (canonical/cloud-init cloudinit/subp.py, ProcessExecutionError): nothing in the part runs. The node still
 * joins, which is why the loss goes unnoticed. A part of only comments and whitespace has nothing to lose and is not
 * judged.
 */
const CLOUD_INIT_SCRIPT =
  'cloud-init runs a text/x-shellscript part as a program, and without a "#!" line as its first bytes the kernel cannot execute it: cloud-init logs "Exec format error. Missing #! in script?" (canonical/cloud-init cloudinit/subp.py, ProcessExecutionError for ENOEXEC; the scripts_user module) and nothing in it runs, while the node joins as if it had';

/** Whether a script holds nothing to run (whitespace and `#` comment lines): its failing to execute loses nothing. */
const onlyShellComments = (text: string) => text.split("\n").every((l) => l.trim() === "" || l.trim().startsWith("#"));

/** `text`, made a shell script part by `how`, that cloud-init cannot execute (see {@link CLOUD_INIT_SCRIPT}). */
function unrunnableScriptFinding(text: string, family: string, how: string): Finding | undefined {
  if (text.startsWith("#!") || onlyShellComments(text)) return undefined;
  const lead = text.trimStart();
  const first = text.length - lead.length;
  const line = lineOf(text, first);
  const cloudConfig = lead.startsWith("#cloud-config");
  const yaml = cloudConfig ? decodeGoYaml(text, { strict: false }) : undefined;
  const yamlError = yaml && "error" in yaml ? ` (its YAML does not parse: ${yaml.error.split("\n")[0]})` : "";
  const fix = cloudConfig
    ? `Put the cloud-config in a MIME multipart document, in a part with Content-Type: text/cloud-config${yamlError ? ", and fix its YAML" : ""}`
    : lead.startsWith("#!")
      ? 'Remove what comes before "#!"'
      : 'Start the script with a "#!" line, such as #!/bin/bash';
  const what = cloudConfig
    ? `a #cloud-config document${yamlError}, which cloud-init reads only from user data or a part typed text/cloud-config`
    : lead.startsWith("#!")
      ? `a script whose "#!" line is not first (${first} characters of whitespace come before it)`
      : 'a script without a "#!" line';
  return {
    line,
    problem: `a shell script that starts with "#!", a ${family === "AL2023" ? "NodeConfig" : "bootstrap script"} or a MIME multipart document: this user data for the ${family} AMI family is ${what}. ${how}, and ${CLOUD_INIT_SCRIPT}. ${fix}`,
  };
}

const EKS_BOOTSTRAP_SHELL =
  "Karpenter wraps AL2 user data as one shell script part (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/eksbootstrap.go:119-139, mimeify)";

/**
 * Bottlerocket's TOML settings given to another family (fresh tester 24 S-8, S-9): a `[settings…]` table header line and
 * text that smol-toml reads with a `settings` table. `how` says what Karpenter does with the text on that family; none
 * of the settings reach the node.
 */
function bottlerocketTomlFinding(text: string, family: string, how: string): Finding | undefined {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => /^\s*\[\s*settings(?:\.[\w."-]+)*\s*\]\s*(?:#.*)?$/.test(l));
  if (at < 0) return undefined;
  let parsed: unknown;
  try {
    parsed = parseToml(text);
  } catch {
    return undefined;
  }
  if (!isTable(parsed) || !isTable(parsed.settings)) return undefined;
  return {
    line: at + 1,
    problem: `user data the ${family} AMI family reads: this user data for the ${family} AMI family is Bottlerocket's TOML settings, which only Bottlerocket reads. ${how}, and none of the settings reach the node. Use the Bottlerocket family (amiSelectorTerms alias bottlerocket@…), or write the ${family === "AL2023" ? "settings as a NodeConfig" : family.startsWith("Windows") ? "settings as PowerShell" : "settings as an AL2 bootstrap script"}`,
  };
}

/**
 * Windows user data: Karpenter writes it into its own <powershell> block before the EKS bootstrap
 * (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/windows.go:34-40), so a NodeConfig or Bottlerocket
 * TOML is run as PowerShell and sets nothing (fresh tester 24 S-9).
 */
function windowsFinding(text: string, family: string): Finding | undefined {
  const how = `Karpenter writes Windows user data into its own <powershell> block (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/windows.go:34-40), so it is run as PowerShell`;
  const toml = bottlerocketTomlFinding(text, family, how);
  if (toml) return toml;
  if (isNodeConfigText(text))
    return {
      line: 1,
      problem: `user data the ${family} AMI family reads: this user data for the ${family} AMI family is a NodeConfig, which only AL2023's nodeadm reads. ${how}, and none of its settings reach the node. Write the settings as PowerShell (or use the AL2023 family)`,
    };
  return undefined;
}

/** The characters go.yaml.in/yaml/v2 v2.4.4 reads (readerc.go:340-357); any other fails yaml.Unmarshal. */
const YAML_PRINTABLE = /^[\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;
/** One line of YAML that is blank to go.yaml.in/yaml/v2: spaces, then a comment or nothing (no tab: see blankYaml). */
const BLANK_LINE = /^ *(?:#.*)?$/;
/** A document start at column 0 with nothing after it but blanks and a comment (scannerc.go:692-695). */
const EMPTY_DOCUMENT_START = /^---(?:[ \t]+(?:#.*)?)?$/;

/**
 * Text Karpenter's yaml.Unmarshal (sigs.k8s.io/yaml v1.6.0 over go.yaml.in/yaml/v2 v2.4.4) reads as an empty document,
 * without error: only comments, spaces and line breaks, and `---` document starts, after an optional byte-order mark
 * (which the reader drops). Line breaks are go-yaml's (yamlprivateh.go:102-108 is_break: CR, LF, NEL U+0085, LS U+2028,
 * PS U+2029; JavaScript's YAML 1.2 parser keeps NEL, LS and PS as text). A tab outside a comment is not blank: go-yaml
 * skips a tab only in a flow or where no simple key may start (scannerc.go:1455-1469), so one at a line's start is
 * "found character that cannot start any token", and Karpenter then passes the text on as a shell script part (all
 * checked with Go against Karpenter's parseUserData and nodeadm's decoder). Nor is text with a character go-yaml's
 * reader refuses anywhere, in a comment too ("control characters are not allowed": {@link YAML_PRINTABLE}). A narrower
 * test than "the YAML value is null" on purpose: `null`, `~`, a `%YAML` directive or a lone `...` are left to the other
 * rules.
 */
function blankYaml(text: string): boolean {
  if (!YAML_PRINTABLE.test(text)) return false;
  const lines = (text.startsWith(BOM) ? text.slice(1) : text).split(/\r\n|[\r\n\u0085\u2028\u2029]/);
  return lines.every((l) => BLANK_LINE.test(l) || EMPTY_DOCUMENT_START.test(l));
}

/**
 * User data written base64-encoded. Karpenter does not decode it (nodeadm.go parseUserData: no MIME header, and
 * `yaml.Unmarshal` of one base64 word into a map fails, so it becomes a `text/x-shellscript` part as written),
 * and it base64-encodes the whole merged document for EC2 itself: cloud-init gets a "script" of base64 with no
 * shebang, which it cannot run, and a NodeConfig inside never reaches nodeadm. Judged only when the text decodes
 * to a NodeConfig, a MIME document, a script or a cloud-config, so a word that happens to be base64 passes.
 */
function base64Finding(text: string): Finding | undefined {
  const blob = text.trim();
  if (blob.length < 16 || !/^[A-Za-z0-9+/]+(?:\r?\n[A-Za-z0-9+/]+)*={0,2}$/.test(blob)) return undefined;
  const bytes = Buffer.from(blob.replace(/\s+/g, ""), "base64");
  const decoded = bytes.toString("utf8");
  if (decoded.includes("\uFFFD")) return undefined;
  const head = decoded.trimStart();
  const what = NODE_CONFIG_LINE.test(decoded)
    ? "a NodeConfig"
    : head.startsWith("MIME-Version:") || head.startsWith("Content-Type:")
      ? "a MIME multipart document"
      : head.startsWith("#!")
        ? "a shell script"
        : head.startsWith("#cloud-config")
          ? "a cloud-config"
          : undefined;
  if (!what) return undefined;
  return {
    line: 1,
    problem: `user data as written, not base64-encoded: this user data for the AL2023 AMI family is ${what} in base64, and Karpenter does not decode it: it passes it on as a shell script part (${AL2023_SOURCE}, parseUserData: not MIME, no YAML map) and base64-encodes the whole user data for EC2 itself, so cloud-init gets base64 text it cannot run and nodeadm never sees the settings, and the node never joins. Write the decoded text`,
  };
}

/**
 * A YAML map taken as a NodeConfig (`offset`: the line the text starts on, for a MIME part). Nesting deeper than the
 * JavaScript stack lets the checks follow (the `yaml` package composes recursively, and so do the checks) is no error
 * of the user data: go-yaml v2 reads up to 10,000 levels, so such a NodeConfig is not refused but left unchecked, with
 * a warning ({@link tooDeepNodeConfig}).
 */
function nodeConfigFinding(text: string, offset: number, ctx: Al2023Context): Finding | undefined {
  try {
    return nodeConfigChecks(text, offset, ctx);
  } catch (e) {
    if (e instanceof RangeError) return tooDeepNodeConfig(text, offset, ctx, undefined);
    throw e;
  }
}

/** go-yaml v2's depth limit (go.yaml.in/yaml/v2 v2.4.4 scannerc.go:894-912 max_flow_level, :928-948 max_indents). */
const GO_YAML_MAX_DEPTH = 10_000;

/**
 * A NodeConfig deeper than this library's YAML reader follows: refused only past go-yaml v2's own limit ("exceeded max
 * depth of 10000", which fails Karpenter's yaml.Unmarshal and nodeadm's decode alike; within EC2's 16 KB of user data
 * only unclosed flow brackets get there), else a warning that it was not checked (a 5,000-deep flow list is valid to
 * Go, fits in 16 KB, and is refused by nothing).
 */
function tooDeepNodeConfig(
  text: string,
  offset: number,
  ctx: Al2023Context,
  at: number | undefined,
): Finding | undefined {
  const depth = yamlNesting(text);
  const part = partName(offset, ctx);
  const where = part ?? AL2023_TOP;
  // go-yaml v2 counts the flow level and the block indents apart, each up to the limit
  if (depth.maxFlow > GO_YAML_MAX_DEPTH || depth.maxBlock > GO_YAML_MAX_DEPTH)
    return goYamlRefusalFinding(text, offset, part, `yaml: exceeded max depth of ${GO_YAML_MAX_DEPTH}`, depth.line, [
      `go.yaml.in/yaml/v2 v2.4.4 scannerc.go:894-912 and 928-948 refuse nesting deeper than ${GO_YAML_MAX_DEPTH} levels`,
      `Flatten the document`,
    ]);
  // a bracket never closed is no YAML to Go at any depth ("did not find expected ',' or ']'", "… node content")
  if (depth.open > 0)
    return goYamlRefusalFinding(text, offset, part, "yaml: did not find expected ',' or ']'", depth.line, [
      `${depth.open} flow collections ("[" or "{") are never closed, and go-yaml v2's parser fails at the end of the text`,
      "Close every bracket",
    ]);
  const line = at === undefined ? depth.line : lineOf(text, at);
  ctx.dropped?.push(
    `${where} nests about ${depth.max} levels deep (line ${offset + line}), deeper than this library's YAML reader follows (the JavaScript call stack ends first), so the NodeConfig was not checked. Go's YAML decoder reads up to ${GO_YAML_MAX_DEPTH} levels (go.yaml.in/yaml/v2 v2.4.4 scannerc.go:894-948), so Karpenter and nodeadm read it: it is not refused, but nothing in it was checked either`,
  );
  return undefined;
}

/**
 * A NodeConfig that go-yaml v2 refuses to decode though the `yaml` package parses it (Go's `reason`, e.g. "yaml:
 * document contains excessive aliasing", an alias bomb): at the top, Karpenter's yaml.Unmarshal fails and it passes the
 * text on as a shell script part (nodeadm.go:137-159, parseUserData), which cloud-init cannot run, so nodeadm never
 * sees the settings; in an application/node.eks.aws part, nodeadm's decode (sigs.k8s.io/yaml YAMLToJSON over the same
 * go-yaml v2) fails and it stops. Either way the node never joins. `why`: Go's rule, and what to do.
 */
function goYamlRefusalFinding(
  text: string,
  offset: number,
  part: string | undefined,
  reason: string,
  line: number,
  why: readonly [string, string],
): Finding | undefined {
  if (part === undefined && !NODE_CONFIG_LINE.test(text)) return undefined;
  return {
    line: offset + line,
    problem:
      part !== undefined
        ? `a NodeConfig Go's YAML decoder reads ("${reason}"): an application/node.eks.aws part of AL2023 user data is decoded by nodeadm as a NodeConfig through sigs.k8s.io/yaml YAMLToJSON over go-yaml v2 (${NODEADM_PART_SOURCE}), which refuses this one (${why[0]}), so nodeadm stops and the node never joins. ${why[1]}`
        : `a NodeConfig Go's YAML decoder reads ("${reason}"): this user data for the AL2023 AMI family has the apiVersion or kind of a NodeConfig, but Karpenter's yaml.Unmarshal (sigs.k8s.io/yaml v1.6.0 over go.yaml.in/yaml/v2 v2.4.4) refuses it (${why[0]}), so Karpenter passes it on as a shell script part (${AL2023_SOURCE}:137-159, parseUserData), which cloud-init cannot run, and nodeadm never sees its settings. ${why[1]}`,
  };
}

/** {@link nodeConfigFinding}'s checks, which a RangeError (nesting deeper than the stack) may leave. */
function nodeConfigChecks(text: string, offset: number, ctx: Al2023Context): Finding | undefined {
  const part = partName(offset, ctx);
  const inPart = part !== undefined;
  const where = inPart
    ? "an application/node.eks.aws part of AL2023 user data is"
    : "user data for the AL2023 AMI family that is a YAML map is";
  let value: unknown;
  let later: { readonly line: number } | undefined;
  let parsed: Document | undefined;
  try {
    // Karpenter's yaml.Unmarshal and nodeadm's decoder read the first YAML document only (see laterDocument)
    const docs = parseAllDocuments(text, { uniqueKeys: false });
    const all = Array.isArray(docs) ? docs : [];
    const doc = all[0];
    // no document: only comments and whitespace (a part's; at the top, al2023Finding judged blank text already)
    if (!doc) return inPart ? partNoMapFinding(text, offset, null) : undefined;
    // the `yaml` package reports its stack overflow as RESOURCE_EXHAUSTION: no YAML error (see tooDeepNodeConfig)
    if (doc.errors[0]?.code === "RESOURCE_EXHAUSTION")
      return tooDeepNodeConfig(text, offset, ctx, doc.errors[0].pos[0]);
    if (doc.errors.length > 0) return brokenNodeConfigFinding(text, offset, inPart, doc.errors[0]);
    // go-yaml v2 first: it refuses an alias bomb (decode.go:350-358, "document contains excessive aliasing") that the
    // `yaml` package's toJS would refuse with its own error (or, let through, expand without bound)
    const go = goYamlDocumentValue(doc, text, { strict: false });
    if ("error" in go) {
      if (go.tooDeep) return tooDeepNodeConfig(text, offset, ctx, undefined);
      if (go.aliasCap) {
        ctx.dropped?.push(
          `${part ?? AL2023_TOP} is a NodeConfig whose aliases expand to more than ${MAX_ALIAS_EXPANSION} nodes, more than this library expands (against alias bombs), so it was not checked; Go's YAML decoder takes it (go.yaml.in/yaml/v2 v2.4.4 decode.go:350-358 refuses only a document almost all aliases), so it is not refused. Write the values out to have them checked`,
        );
        return undefined;
      }
      const alias = /(?:^|[\s[{,:])\*[^\s,[\]{}]/m.exec(text);
      return goYamlRefusalFinding(
        text,
        offset,
        part,
        go.error.split("\n")[0],
        alias ? lineOf(text, alias.index + 1) : 1,
        /excessive aliasing/.test(go.error)
          ? [
              "go.yaml.in/yaml/v2 v2.4.4 decode.go:318-358: past 1,000 decoded nodes it refuses a document whose aliases make up more than 99% of them, an alias bomb",
              "Write the values out instead of nesting aliases",
            ]
          : ["go.yaml.in/yaml/v2 v2.4.4 decode.go", "Fix the YAML"],
      );
    }
    // bounded: the aliases expand to at most MAX_ALIAS_EXPANSION nodes (go-yaml.ts)
    value = doc.toJS({ maxAliasCount: -1 });
    parsed = doc;
    later = laterDocument(text, all);
  } catch {
    return undefined;
  }
  if (later && (value === null || isTable(value))) {
    return {
      line: offset + later.line,
      problem: `one YAML document: ${part ?? AL2023_TOP} holds another document after "---", and only the first is read. ${inPart ? "" : `Karpenter takes the text for one NodeConfig part because its yaml.Unmarshal succeeds (${AL2023_SOURCE}, parseUserData: sigs.k8s.io/yaml v1.6.0 Unmarshal over go.yaml.in/yaml/v2 v2.4.4, whose unmarshal decodes the first document and never reads on), and `}nodeadm decodes the part as one NodeConfig (amazon-eks-ami nodeadm apibridge.DecodeNodeConfig: Kubernetes' YAML serializer converts with sigs.k8s.io/yaml YAMLToJSON, the first document only), so ${value === null ? "the first, empty document is all nodeadm sees: it finds no NodeConfig and the node never joins" : "the settings after the first document are silently ignored: they never reach the node"}. Merge the NodeConfigs into one, or put each in its own application/node.eks.aws part of a MIME multipart document (nodeadm merges the parts)`,
    };
  }
  if (!isTable(value)) return inPart ? partNoMapFinding(text, offset, value) : undefined;
  const apiVersion = value.apiVersion;
  const kind = value.kind;
  if (kind === "NodeConfig" && apiVersion === "node.eks.aws/v1alpha1")
    return nodeConfigSpecFinding(text, offset, parsed, ctx);
  // nodeadm's decoder registers v1alpha1 only (awslabs/amazon-eks-ami nodeadm/internal/api/bridge/scheme.go,
  // localSchemeBuilder = v1alpha1.AddToScheme; nodeadm/api holds no other version): another version of the group fails
  // its decode ("no kind \"NodeConfig\" is registered for version")
  const otherVersion =
    kind === "NodeConfig" && typeof apiVersion === "string" && apiVersion.startsWith("node.eks.aws/")
      ? ` (nodeadm knows only node.eks.aws/v1alpha1: its decoder registers no other version, awslabs/amazon-eks-ami nodeadm/internal/api/bridge/scheme.go)`
      : "";
  const cloudConfig = /^#cloud-config/.test(text.trimStart());
  const bad = kind !== "NodeConfig" ? "kind" : "apiVersion";
  const at = text.search(new RegExp(`^${bad}\\s*:`, "m"));
  return {
    line: offset + (at >= 0 ? lineOf(text, at) : 1),
    problem: `a NodeConfig (apiVersion: node.eks.aws/v1alpha1, kind: NodeConfig), a shell script, or a MIME multipart document: ${where} passed to nodeadm as a NodeConfig (${AL2023_SOURCE}, parseUserData), and this one has ${bad} ${JSON.stringify((bad === "kind" ? kind : apiVersion) ?? null)}${otherVersion}, so nodeadm stops and the node never joins${cloudConfig ? ". A #cloud-config document goes in a MIME multipart part with Content-Type: text/cloud-config" : ""}`,
  };
}

/** A NodeConfig as the finders of what nodeadm hands on (the kubelet, containerd, the local disks) read it. */
interface NodeConfigDoc {
  /** The NodeConfig's text, and where it starts in the user data (0, or its MIME part's offset). */
  readonly text: string;
  readonly offset: number;
  /** The YAML document, for the lines of paths. */
  readonly parsed: Document | undefined;
  /** The NodeConfig as sigs.k8s.io/yaml hands it to the JSON decoder. */
  readonly value: Record<string, unknown>;
  /** How a message names it: the user data, or its MIME part. */
  readonly where: string;
  /** The kubelet's parse of its `spec.kubelet.flags` (kubelet-flag-rules.ts), read once for every rule. */
  readonly kubeletFlags: KubeletFlagParse;
}

/**
 * A NodeConfig v1alpha1's `spec` against nodeadm's types (node-config-rules.ts): a value nodeadm cannot decode is the
 * finding (all of them, the first one's line); a field nodeadm drops goes to `ctx.dropped`. The document is read as
 * sigs.k8s.io/yaml reads it before the JSON decoder (core/go-yaml.ts: YAML 1.1, so `yes` is true), not as the YAML 1.2
 * `parsed` (kept for the lines).
 */
function nodeConfigSpecFinding(
  text: string,
  offset: number,
  parsed: Document | undefined,
  ctx: Al2023Context,
): Finding | undefined {
  const decoded = decodeGoYaml(text, { strict: false });
  if (!("value" in decoded)) return undefined;
  const value = goYamlToJs(decoded.value);
  if (!isTable(value)) return undefined;
  const { wrong, dropped } = nodeConfigSpecProblems(value.spec, ctx.minor, ctx.ami);
  const where = partName(offset, ctx) ?? AL2023_TOP;
  const source = nodeadmSource();
  for (const d of dropped)
    ctx.dropped?.push(
      d.whole
        ? `${where} is a NodeConfig whose ${nodeConfigPath(d.path)} ${d.problem}`
        : `${where} is a NodeConfig whose ${nodeConfigPath(d.path)} ${d.problem}. nodeadm decodes a NodeConfig leniently (amazon-eks-ami nodeadm internal/api/bridge/decode.go:19-40: a codec factory without the strict option, k8s.io/apimachinery v0.36.2 pkg/runtime/serializer/codec_factory.go:178-179 and json/json.go:268-270, case-sensitive) and drops the field without a word, so the setting never reaches the node (${source}). Fix the name, or remove it`,
    );
  // what nodeadm decodes goes to independent consumers (the kubelet's flags and config, containerd, the local disks),
  // each of which fails on its own: every one is reported, the first one's line leading. A value nodeadm cannot decode
  // stops nodeadm before any of them, but is reported with theirs, so that one round of fixes is enough; a consumer
  // whose part of the spec holds such a value is not judged (its value is the decode's problem).
  const kubeletFlags = kubeletFlagProblems(specValue(value, "kubelet", "flags"));
  const doc: NodeConfigDoc = { text, offset, parsed, value, where, kubeletFlags };
  const consumers: [readonly string[], () => Finding | undefined][] = [
    [["spec", "kubelet", "flags"], () => kubeletFlagFinding(doc, ctx)],
    // the flags that set config fields take part, when they are a list of strings (kubeletFlagProblems reads no other)
    [["spec", "kubelet", "config"], () => kubeletConfigFinding(doc, ctx)],
    [["spec", "kubelet", "flags"], () => nodeLabelFinding(doc)],
    [["spec", "kubelet", "flags"], () => cloudProviderFinding(doc)],
    [["spec", "containerd", "config"], () => containerdConfigFinding(doc, ctx)],
    [["spec", "instance", "localStorage"], () => localStorageFinding(doc)],
    [["spec", "containerd", "baseRuntimeSpec"], () => baseRuntimeSpecFinding(doc, ctx)],
    [["spec", "instance", "environment"], () => environmentFinding(doc, ctx)],
  ];
  const overlaps = (part: readonly string[]) =>
    wrong.some((w) => part.every((k, i) => i >= w.path.length || w.path[i] === k));
  const found = consumers
    .filter(([part]) => !overlaps(part))
    .map(([, finding]) => finding())
    .filter((f): f is Finding => f !== undefined);
  if (wrong.length > 0) {
    const problems = wrong.map((w) => `${nodeConfigPath(w.path)} ${w.problem}`).join("; ");
    found.unshift({
      line: offset + pathLine(text, parsed, wrong[0].path),
      problem: `a NodeConfig spec nodeadm can decode: ${where} is a NodeConfig, and ${problems}. Karpenter passes it on unchanged (${AL2023_SOURCE}, parseUserData), and nodeadm's decode fails on a value of the wrong JSON type ("json: cannot unmarshal … into Go struct field …"; amazon-eks-ami nodeadm internal/configprovider/userdata.go:101-103 returns the error of internal/api/bridge/decode.go:21, UniversalDecoder().Decode; the types: ${source}), so nodeadm init stops and the node never joins`,
    });
  }
  return chained(found);
}

/**
 * A NodeConfig (decoded by nodeadm without error) whose `spec.kubelet.config` holds a value the kubelet cannot decode
 * (node-config-rules.ts kubeletConfigProblems): the finding; a field the kubelet drops goes to `ctx.dropped`. Not
 * judged when what Karpenter's own NodeConfig sets is unknown (`ctx.kubelet`).
 */
function kubeletConfigFinding(doc: NodeConfigDoc, ctx: Al2023Context): Finding | undefined {
  const { text, offset, parsed, value, where } = doc;
  if (!ctx.kubelet) return undefined;
  const { wrong, dropped, replaced } = kubeletConfigProblems(value.spec, ctx.minor, ctx.kubelet);
  for (const r of replaced)
    ctx.dropped?.push(
      `${where} is a NodeConfig whose ${nodeConfigPath(r.path)} ${r.problem}: nodeadm merges the NodeConfig parts in order, and Karpenter's comes after the user's (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/nodeadm.go:40-58; nodeadm internal/api/merge.go, a later value replaces an earlier one), so this value never reaches the kubelet. Set it on the EC2NodeClass instead`,
    );
  const decode =
    "k8s.io/kubernetes v1.36.3 pkg/kubelet/kubeletconfig/util/codec/codec.go:75-100, DecodeKubeletConfiguration";
  for (const d of dropped)
    ctx.dropped?.push(
      `${where} is a NodeConfig whose ${nodeConfigPath(d.path)} ${d.problem}. nodeadm passes the kubelet config on as written, and the kubelet, whose strict decode fails on an unknown field, decodes it again leniently and drops the field with a logged warning (${decode}), so the setting never reaches the node. Fix the name, or remove it; a kubelet newer than that one may know the field`,
    );
  if (wrong.length === 0) {
    // what fails where the AMI or the Kubernetes minor decides: warnings, as for the class's own kubelet
    for (const w of nodeConfigRuntimeWarnings(value.spec, ctx.kubelet, ctx.kubernetesVersion))
      ctx.dropped?.push(
        `${where} is a NodeConfig whose kubelet configuration (spec.kubelet.config with Karpenter's part and the kubelet flags) has ${w}`,
      );
    return kubeletRuntimeFinding(doc, ctx.kubelet, ctx.kubernetesVersion);
  }
  const problems = wrong.map((w) => `${nodeConfigPath(w.path)} ${w.problem}`).join("; ");
  return {
    line: offset + pathLine(text, parsed, wrong[0].path),
    problem: `kubelet config values of the KubeletConfiguration's JSON types: ${where} is a NodeConfig, and ${problems}. nodeadm keeps spec.kubelet.config untyped and merges it with Karpenter's own NodeConfig, which sets only the class's kubelet fields, maxPods and registerWithTaints (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/nodeadm.go:40-58, 106-117; nodeadm internal/api/merge.go, util.DocumentMerge), so the value reaches the kubelet, whose decode fails on a value of the wrong JSON type, strict and lenient alike ("failed to decode: json: cannot unmarshal …"; ${decode}): the kubelet does not start and the node never joins. Write the value in the field's type, or set it on the EC2NodeClass's kubelet, which the construct checks`,
  };
}

/**
 * A NodeConfig (its kubelet config decoded without error) whose `spec.kubelet.config`, merged with Karpenter's own
 * part, holds values the kubelet's own validation refuses when it starts (node-config-rules.ts
 * nodeConfigRuntimeProblems): all of them, the first one's line.
 */
function kubeletRuntimeFinding(
  doc: NodeConfigDoc,
  karpenter: { readonly [field: string]: unknown },
  kubernetesVersion: string | undefined,
): Finding | undefined {
  const { text, offset, parsed, value, where } = doc;
  const found = nodeConfigRuntimeProblems(value.spec, karpenter, kubernetesVersion);
  if (found.length === 0) return undefined;
  // kubelet.logging.vmodule[0].filePattern -> spec.kubelet.config.logging.vmodule[0].filePattern
  const configPath = (field: string) => [
    "spec",
    "kubelet",
    "config",
    // fields, [n] indices and ["key"] map keys (a key may hold "." or "-": evictionSoft["memory.available"])
    ...[...field.replace(/^kubelet\./, "").matchAll(/\["((?:[^"\\]|\\.)*)"\]|\[(\d+)\]|([^.[\]]+)/g)].map((m) =>
      m[1] !== undefined ? (JSON.parse(`"${m[1]}"`) as string) : m[2] !== undefined ? Number(m[2]) : m[3],
    ),
  ];
  const pathOf = (p: NodeConfigRuntimeProblem) =>
    p.flagIndex === undefined ? configPath(p.field) : ["spec", "kubelet", "flags", p.flagIndex];
  const problems = found
    .map(
      (p) =>
        `${nodeConfigPath(pathOf(p))}${p.flag === undefined ? "" : ` (${p.flag}, which sets ${p.field.replace(/^kubelet\./, "")} over the kubelet config)`} = ${JSON.stringify(p.value)?.slice(0, 60)}: ${p.allowed} (${p.effect ?? `the kubelet refuses ${p.rule}`}; ${p.source})`,
    )
    .join("; ");
  const refused = found.some((p) => p.effect === undefined);
  return {
    line: offset + pathLine(text, parsed, pathOf(found[0])),
    problem: `kubelet config values the kubelet accepts: ${where} is a NodeConfig, and ${problems}. nodeadm merges spec.kubelet.config with Karpenter's own NodeConfig (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/nodeadm.go:40-58; nodeadm internal/api/merge.go) and writes the result as the kubelet's configuration${refused ? ", which the kubelet validates when it starts and exits on an error: the kubelet does not start, so the node never joins the cluster" : ""}`,
  };
}

/**
 * A NodeConfig (decoded without error) whose kubelet flags the kubelet's flag parse refuses (kubelet-flag-rules.ts):
 * the first one, as the kubelet stops at it; a deprecated flag goes to `ctx.dropped` (the kubelet accepts it with a
 * warning). The parse comes first: the kubelet parses its flags before it validates them or reads its config.
 */
function kubeletFlagFinding(doc: NodeConfigDoc, ctx: Al2023Context): Finding | undefined {
  const { text, offset, parsed, where } = doc;
  const { refused, deprecated, values, ignored } = doc.kubeletFlags;
  if (refused) {
    const table = kubeletFlags();
    return {
      line: offset + pathLine(text, parsed, ["spec", "kubelet", "flags", refused.index]),
      problem: `kubelet flags the kubelet can parse: ${where} is a NodeConfig whose spec.kubelet.flags[${refused.index}]: ${refused.problem}. nodeadm appends the flags to the kubelet's command line as written (amazon-eks-ami nodeadm internal/kubelet/environment.go:22-29: the items joined with spaces into NODEADM_KUBELET_ARGS, which the AL2023 kubelet unit expands unquoted, split at whitespace: templates/al2023/runtime/rootfs/etc/systemd/system/kubelet.service, ExecStart=/usr/bin/kubelet $NODEADM_KUBELET_ARGS), and the kubelet parses them before anything else and exits on an error (${table.kubelet} cmd/kubelet/app/server.go:184-186, NewKubeletCommand: cleanFlagSet.Parse, github.com/spf13/pflag), so the node never joins. Fix the flag, or set the value in spec.kubelet.config or on the EC2NodeClass's kubelet`,
    };
  }
  // flags take precedence over the kubelet's configuration files (k8s.io/kubernetes v1.36.3 cmd/kubelet/app/server.go:424-428,
  // kubeletConfigFlagPrecedence): a flag replaces what Karpenter's own NodeConfig part sets (nodeadm.go:40-58, 103-116)
  const over = new Set<number>();
  for (const d of deprecated)
    if (d.name === "register-with-taints") {
      over.add(d.index);
      ctx.dropped?.push(
        `${where} is a NodeConfig whose spec.kubelet.flags[${d.index}] sets --register-with-taints: flags take precedence over the kubelet's configuration (k8s.io/kubernetes v1.36.3 cmd/kubelet/app/server.go:424-428, kubeletConfigFlagPrecedence), so it replaces the registerWithTaints Karpenter writes (the NodePool's taints and startupTaints and karpenter.sh/unregistered:NoExecute; karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/nodeadm.go:111-115): the node registers without karpenter.sh/unregistered (Karpenter logs "missing taint prevents registration-related race conditions", sigs.k8s.io/karpenter v1.15.0 pkg/controllers/nodeclaim/lifecycle/registration.go:78-89) and with taints its NodePool does not state, which Karpenter's scheduling does not know. Put taints on the NodePool (taints, startupTaints) instead`,
      );
    }
  if (ctx.kubelet)
    for (const v of values)
      if (Object.prototype.hasOwnProperty.call(ctx.kubelet, v.field) && !over.has(v.index)) {
        over.add(v.index);
        ctx.dropped?.push(
          `${where} is a NodeConfig whose spec.kubelet.flags[${v.index}] sets ${v.flag}, the kubelet's ${v.field}: flags take precedence over the kubelet's configuration (k8s.io/kubernetes v1.36.3 cmd/kubelet/app/server.go:424-428, kubeletConfigFlagPrecedence), so it replaces the ${v.field} Karpenter's own NodeConfig part sets (${v.field === "maxPods" ? "the pod count Karpenter computed for the instance type and scheduled against" : "from the EC2NodeClass's kubelet"}; karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/nodeadm.go:40-58, 103-116). Set it on the EC2NodeClass's kubelet instead`,
        );
      }
  for (const g of ignored)
    ctx.dropped?.push(`${where} is a NodeConfig whose spec.kubelet.flags[${g.index}] sets ${g.problem}`);
  for (const d of deprecated.filter((x) => x.name !== "register-with-taints"))
    ctx.dropped?.push(
      `${where} is a NodeConfig whose spec.kubelet.flags[${d.index}] sets --${d.name}, a deprecated kubelet flag: the kubelet accepts it with a warning ("Flag --${d.name} has been deprecated"; ${d.at}) and may drop it in a later release. Set it in spec.kubelet.config (or on the EC2NodeClass's kubelet) instead where it is a KubeletConfiguration field`,
    );
  return undefined;
}

/**
 * A NodeConfig whose kubelet flags set `--cloud-provider` to an in-tree provider (`aws`): nodeadm passes
 * `--cloud-provider=external` and appends the user's flags after it (a later flag wins), and the kubelet refuses every
 * provider but "external" and "" since the in-tree providers were removed (k8s.io/kubernetes v1.36.3
 * pkg/kubelet/kubelet.go:464-466, NewMainKubelet: cloudprovider.ErrorForDisabledProvider), so it does not start.
 * Read from the kubelet's own parse of the flags (the last `--cloud-provider` wins; kubelet-flag-rules.ts).
 */
function cloudProviderFinding(doc: NodeConfigDoc): Finding | undefined {
  const { text, offset, parsed, where } = doc;
  const set = doc.kubeletFlags.flags.get("cloud-provider");
  if (set === undefined || set.value === "" || set.value === "external") return undefined;
  const i = set.index;
  return {
    line: offset + pathLine(text, parsed, ["spec", "kubelet", "flags", i]),
    problem: `--cloud-provider=external (nodeadm's own; or leave the flag out): ${where} is a NodeConfig whose spec.kubelet.flags[${i}] sets --cloud-provider to ${JSON.stringify(set.value)}, which replaces nodeadm's --cloud-provider=external (nodeadm sets it, internal/kubelet/config.go:258, and the user's flags come after its own: internal/kubelet/environment.go:22-29), and the kubelet refuses every in-tree cloud provider ("cloud provider … was specified, but built-in cloud providers are disabled"; k8s.io/kubernetes v1.36.3 pkg/kubelet/kubelet.go:464-466, k8s.io/cloud-provider v0.36.3 plugins.go:94-96), so it does not start and the node never joins. EKS nodes use the external AWS cloud controller`,
  };
}

/** A NodeConfig (decoded without error) whose kubelet flags hold a `--node-labels` key the kubelet refuses (node-config-rules.ts). */
function nodeLabelFinding(doc: NodeConfigDoc): Finding | undefined {
  const { text, offset, parsed, value, where } = doc;
  const refused = refusedNodeLabels(specValue(value, "kubelet", "flags"));
  if (refused.length === 0) return undefined;
  const keys = refused.map((r) => `${JSON.stringify(r.key)} (spec.kubelet.flags[${r.index}])`).join(", ");
  return {
    line: offset + pathLine(text, parsed, ["spec", "kubelet", "flags", refused[0].index]),
    problem: `--node-labels keys the kubelet may set on its own node: ${where} is a NodeConfig whose kubelet flags label the node with ${keys}, in the kubernetes.io or k8s.io namespace, and the kubelet refuses to start with "unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels" (k8s.io/kubernetes v1.36.3 cmd/kubelet/app/options/options.go:150-187, ValidateKubeletFlags; nodeadm appends the flags as written, internal/kubelet/environment.go:26-29), so the node never joins. Allowed there: node.kubernetes.io/… and kubelet.kubernetes.io/… keys, kubernetes.io/hostname, os, arch and the topology and instance-type labels (k8s.io/kubelet v0.37.0 pkg/apis/well_known_labels.go:35-80); use a key of your own domain, or set the label as a NodePool label (Karpenter leaves kubernetes.io and k8s.io keys out of the kubelet flags it writes: karpenter-provider-aws v1.15.0 pkg/providers/amifamily/resolver.go:482-507, RejectForbiddenLabels)`,
  };
}

/**
 * A NodeConfig (decoded without error) whose `spec.containerd.config` is no TOML: nodeadm parses it to merge it over
 * the configuration it generates ({@link NODEADM_CONTAINERD_MERGE}) and stops on the error, as containerd would on its
 * file (github.com/containerd/containerd v1.7.30 services/server/config/config.go:197-260, loadConfigFile: "failed to
 * load TOML"; cmd/containerd/command/main.go:125), so the node has no container runtime and never becomes ready. Its
 * values reach containerd as written, judged by containerd-config-rules.ts: the findings, and the warnings for values
 * only one containerd major refuses.
 */
function containerdConfigFinding(doc: NodeConfigDoc, ctx: Al2023Context): Finding | undefined {
  const { text, offset, parsed, value, where } = doc;
  const config = specValue(value, "containerd", "config");
  if (typeof config !== "string" || config.trim() === "") return undefined;
  let toml: Record<string, unknown>;
  try {
    toml = parseToml(config, { integersAsBigInt: true }) as Record<string, unknown>;
  } catch (e) {
    const what = (e as Error).message.split("\n")[0].replace(/^Invalid TOML document: /, "");
    const at = e instanceof TomlError ? ` (its line ${e.line})` : "";
    return {
      line: offset + pathLine(text, parsed, ["spec", "containerd", "config"]),
      problem: `containerd configuration in TOML: ${where} is a NodeConfig whose spec.containerd.config is no TOML${at}: ${what}. nodeadm parses it to merge it over its own configuration and stops on the error (${NODEADM_CONTAINERD_MERGE}), as containerd would when it starts ("failed to load TOML"; github.com/containerd/containerd v1.7.30 services/server/config/config.go:197-260, cmd/containerd/command/main.go:125; containerd 2: cmd/containerd/server/config/config.go loadConfigFile), so the node has no container runtime and never becomes ready`,
    };
  }
  // the containerd the class's AMIs carry (eks-ami-facts, per release and Kubernetes minor): a configuration for
  // containerd 2 on containerd 1.x, and the values judged by the releases the AMI may carry
  const amis = al2023ContainerdMajors(ctx.ami, ctx.kubernetesVersion);
  const majors = containerdMajorProblems(toml, config, amis);
  // one warning for the configuration, naming each thing only containerd 2 reads
  const majorWarned = majors.filter((x) => !x.refused);
  if (majorWarned.length > 0)
    ctx.dropped?.push(
      `${where} is a NodeConfig whose spec.containerd.config has ${majorWarned.map((m) => m.what).join(" and ")}, which only containerd 2 reads, and this class selects ${amis.text}: ${amis.certain ? "" : "on an AMI with containerd 1.x, "}${majorWarned.map((m) => m.outcome).join("; and ")}. ${al2023ContainerdSummary()}. Pin an al2023@ release that ships containerd 2 for the cluster's Kubernetes version, or write the configuration for containerd 1.7 (version = 2, plugins."io.containerd.grpc.v1.cri")`,
    );
  const majorRefused = majors.filter((x) => x.refused);
  const majorText =
    majorRefused.length === 0
      ? ""
      : `a containerd configuration the AMI's containerd 1.7 reads: ${where} is a NodeConfig whose spec.containerd.config has ${majorRefused.map((m) => m.what).join(" and ")}, which only containerd 2 reads, and this class pins ${amis.text}: ${majorRefused.map((m) => m.outcome).join("; and ")}. Use an al2023@ release that ships containerd 2 for the cluster's Kubernetes version (${al2023ContainerdSummary()}), or write the configuration for containerd 1.7: version = 2 and plugins."io.containerd.grpc.v1.cri"`;
  const {
    refused: wrong,
    depends,
    runcOptions,
    misplaced,
  } = containerdConfigVerdict(toml, config, amis.certain ? amis.majors : undefined);
  for (const m of misplaced)
    ctx.dropped?.push(
      `${where} is a NodeConfig whose spec.containerd.config has ${m.path}, a key its table does not have: ${m.key} belongs to ${m.tables.map((t) => `[${t.table}] (${t.readers.join(", ")}: ${t.source})`).join(" or ")}. containerd ignores a key its table does not have (containerd 1.7's go-toml v1.9.5 drops it; containerd 2 logs "Ignoring unknown key in TOML for plugin" and drops it: github.com/containerd/containerd/v2@v2.2.3 cmd/containerd/server/config/config.go:256-280), so the setting never takes effect. Move it to that table`,
    );
  // a runc runtime's options: decoded per pod sandbox, so a refused value leaves the node up with no pod of that
  // runtime starting; warned when only one containerd major refuses it or nodeadm's runtime has it only on some instances
  for (const o of runcOptions.filter((x) => !x.refused))
    ctx.dropped?.push(
      `${where} is a NodeConfig whose spec.containerd.config has ${o.path} = ${o.got}, an options key of a runtime whose runtime_type is ${o.runtimeType}${o.onlyOn ? `, which nodeadm's template gives it on ${o.onlyOn}` : ""}: ${o.readings.map((r) => (r.refuses ? `${r.containerd} refuses it (the runc shim's Options take ${r.want}: ${r.source})` : r.want ? `${r.containerd} accepts it` : `${r.containerd} does not decode it into the runc shim's Options`)).join("; ")}. Where it is refused, every pod sandbox of that runtime fails to start ("failed to generate sandbox runtime options"), and on the node's default runtime no pod ever runs on the node. Write the value in the field's type`,
    );
  const runcRefused = runcOptions.filter((x) => x.refused);
  const runcText =
    runcRefused.length === 0
      ? ""
      : `runc runtime options of the runc shim's types: ${where} is a NodeConfig whose spec.containerd.config has ${runcRefused.map((o) => `${o.path} = ${o.got}, where the runc shim's options take ${o.want} (runtime_type ${o.runtimeType})`).join("; ")}. nodeadm keeps the values as written (${NODEADM_CONTAINERD_MERGE}), and every containerd an AL2023 AMI carries decodes a runc runtime's options table into the runc shim's Options struct each time it starts a pod sandbox of that runtime and fails the sandbox on a value of another TOML type (${runcRefused[0].source}), so no pod of that runtime ever starts, and on the node's default runtime no pod ever runs on the node`;
  // what fails only on AMIs with one containerd major: a warning, naming who refuses it and who does not
  for (const d of depends)
    ctx.dropped?.push(
      `${where} is a NodeConfig whose spec.containerd.config has ${dependsText(d)}. Whether the node fails depends on the AMI's containerd, which an AL2023 AMI's release and Kubernetes version decide, and this class selects ${amis.text} (${al2023ContainerdSummary()}); where it refuses the value, containerd exits when it decodes it${d.plugin ? ` (a CRI plugin's table: ${CONTAINERD_PLUGIN_DECODE})` : ""} and the node never becomes ready. Write the value in the type both take, or use the keys of the containerd your AMIs carry`,
    );
  const runtimes = defaultRuntimeProblems(toml);
  for (const r of runtimes.filter((x) => x.onlyOn !== undefined))
    ctx.dropped?.push(
      `${where} is a NodeConfig whose spec.containerd.config sets ${r.path} = ${JSON.stringify(r.name)} without a runtimes.${r.name} table: nodeadm merges it over its own configuration, which defines that runtime only on ${r.onlyOn}, and elsewhere the CRI plugin refuses to load (${DEFAULT_RUNTIME_SOURCE}), so the kubelet finds no container runtime and the node never becomes ready. Define the runtime's table too, or leave default_runtime_name to nodeadm`,
    );
  const missing = runtimes.filter((x) => x.onlyOn === undefined);
  if (wrong.length === 0 && missing.length === 0 && runcText === "" && majorText === "") return undefined;
  const missingText =
    missing.length === 0
      ? ""
      : `a default runtime the node has: ${where} is a NodeConfig whose spec.containerd.config sets ${missing.map((m) => `${m.path} = ${JSON.stringify(m.name)}`).join(" and ")}, and no runtimes table of that name exists, neither in it nor in the configuration nodeadm merges it over (only ${nodeadmRuntimeNames()}). The CRI plugin refuses to load (${DEFAULT_RUNTIME_SOURCE}), so the kubelet finds no container runtime and the node never becomes ready. Add a [${missing[0].path.replace(/\.default_runtime_name$/, "")}.runtimes.${missing[0].name}] table with its runtime_type, or name a runtime that exists`;
  const line = offset + pathLine(text, parsed, ["spec", "containerd", "config"]);
  if (wrong.length === 0)
    return { line, problem: [majorText, missingText, runcText].filter((t) => t !== "").join(". Also: ") };
  const plugin = wrong.find((w) => w.plugin);
  return {
    line,
    problem: `containerd configuration values of containerd's types: ${where} is a NodeConfig whose spec.containerd.config has ${wrong.map((w) => `${w.path} = ${w.got}, where containerd takes ${w.want}`).join("; ")}. nodeadm keeps the values as written (${NODEADM_CONTAINERD_MERGE}), and containerd decodes the file into its Config struct when it starts and exits when a value has another TOML type than its field ("failed to unmarshal TOML"; ${wrong[0].source})${plugin ? `; a CRI plugin's table is decoded into the plugin's Config when containerd loads it, by ${amis.certain ? `the containerd of ${amis.text}` : "every containerd an AL2023 AMI carries"}${plugin === wrong[0] ? "" : ` (${plugin.path}: ${plugin.source})`}, and ${CONTAINERD_PLUGIN_DECODE}` : ""}, so the node has no container runtime and never becomes ready${majorText ? `. Also: ${majorText}` : ""}${missingText ? `. Also: ${missingText}` : ""}${runcText ? `. Also: ${runcText}` : ""}`,
  };
}

/**
 * A NodeConfig (decoded without error) whose `spec.instance.environment` holds a variable name with "=" or a NUL
 * (node-config-rules.ts environmentProblems): the finding; service keys and names systemd ignores go to `ctx.dropped`.
 */
function environmentFinding(doc: NodeConfigDoc, ctx: Al2023Context): Finding | undefined {
  const { text, offset, parsed, value, where } = doc;
  const { refused, dropped } = environmentProblems(value.spec, ctx.ami);
  for (const d of dropped) ctx.dropped?.push(`${where} is a NodeConfig whose ${nodeConfigPath(d.path)} ${d.problem}`);
  if (refused.length === 0) return undefined;
  return {
    line: offset + pathLine(text, parsed, refused[0].path),
    problem: `environment variable names without "=" or NUL: ${where} is a NodeConfig whose ${refused.map((r) => `${nodeConfigPath(r.path)} ${r.problem}`).join("; ")}, so the variable never reaches the node as written. Use a name of letters, digits and _`,
  };
}

const BASE_RUNTIME_SPEC_WRITE =
  "nodeadm merges it over its default and writes it as containerd's base runtime spec (amazon-eks-ami nodeadm internal/containerd/base_runtime_spec.go:19-38, at 81fec2e8)";

/**
 * A NodeConfig whose `spec.containerd.baseRuntimeSpec` containerd or runc refuses ({@link BASE_RUNTIME_SPEC_WRITE};
 * oci-spec-rules.ts): a value containerd cannot decode into the OCI runtime spec (its CRI plugin does not load, so the
 * node never becomes Ready), an rlimit type runc does not know, or an rlimit with the soft limit above the hard one
 * ({@link RLIMIT_EINVAL}; these two: no container starts). Each kind is a finding.
 */
function baseRuntimeSpecFinding(doc: NodeConfigDoc, ctx: Al2023Context): Finding | undefined {
  const { text, offset, parsed, value, where } = doc;
  const spec = specValue(value, "containerd", "baseRuntimeSpec");
  if (!isTable(spec)) return undefined;
  const { wrong, rlimits, ignored } = baseRuntimeSpecProblems(spec);
  const full = (path: readonly (string | number)[]) => ["spec", "containerd", "baseRuntimeSpec", ...path];
  const named = (p: { path: readonly (string | number)[]; problem: string }) =>
    `${nodeConfigPath(full(p.path))} ${p.problem}`;
  for (const i of ignored)
    ctx.dropped?.push(`${where} is a NodeConfig whose ${named(i)} (${BASE_RUNTIME_SPEC_WRITE}; ${OCI_SPEC_SOURCE})`);
  const lineAt = (path: readonly (string | number)[]) => offset + pathLine(text, parsed, full(path));
  const found: Finding[] = [];
  if (wrong.length > 0)
    found.push({
      line: lineAt(wrong[0].path),
      problem: `a base runtime spec containerd can decode: ${where} is a NodeConfig whose ${wrong.map(named).join("; ")}. ${BASE_RUNTIME_SPEC_WRITE}, and containerd's CRI plugin decodes the file into the OCI runtime spec when it loads (${OCI_SPEC_SOURCE}) and does not load on the error ("failed to parse base OCI spec file"; github.com/containerd/containerd v1.7.30 pkg/cri/server/service.go:197-200, :392-402; containerd 2 at 301026e5: plugins/cri/runtime/plugin.go:105-108, :160-172), so the node has no container runtime and never becomes Ready`,
    });
  if (rlimits.length > 0)
    found.push({
      line: lineAt(rlimits[0].path),
      problem: `rlimit types runc knows (${RUNC_RLIMITS.join(", ")}): ${where} is a NodeConfig whose ${rlimits.map(named).join("; ")}. ${BASE_RUNTIME_SPEC_WRITE}, and runc refuses every container of that spec with "wrong rlimit value" (github.com/opencontainers/runc v1.3.3 rlimit_linux.go:28-33, from utils_linux.go:82-88), so no container starts on the node (the pause containers of every pod included)`,
    });
  const process = isTable(spec.process) ? spec.process : undefined;
  const inverted = (Array.isArray(process?.rlimits) ? (process.rlimits as unknown[]) : []).flatMap((r, i) =>
    isTable(r) && typeof r.soft === "number" && typeof r.hard === "number" && r.soft > r.hard ? [{ r, i }] : [],
  );
  if (inverted.length > 0)
    found.push({
      line: lineAt(["process", "rlimits", inverted[0].i]),
      problem: `rlimits whose soft limit is at most the hard one: ${where} is a NodeConfig with ${inverted.map(({ r, i }) => `spec.containerd.baseRuntimeSpec.process.rlimits[${i}] (${String(r.type)}) soft ${r.soft} above hard ${r.hard}`).join(", ")}, which ${BASE_RUNTIME_SPEC_WRITE}, and ${RLIMIT_EINVAL}`,
    });
  return chained(found);
}

/** The strategies the AL2023 AMI's setup-local-disks takes (after nodeadm lower-cases the NodeConfig's). */
const LOCAL_DISK_SETUPS = ["raid0", "raid10", "mount", "none"];
const LOCAL_DISK_SOURCE =
  "amazon-eks-ami templates/al2023/runtime/bin/setup-local-disks:273-275 (at 81fec2e8, 2026-07-23), run by nodeadm internal/system/local_disk.go (the run aspect's error stops nodeadm init before the kubelet starts, cmd/nodeadm/init/init.go:140-147)";

/**
 * A NodeConfig (decoded without error) whose `spec.instance.localStorage.strategy` the AMI's setup-local-disks does not
 * take: nodeadm lower-cases it and runs the script with it (so `Raid0` is `raid0`), which exits 1 on another value
 * ("Valid disk setup options are: raid0, raid10, mount or none"), and nodeadm init stops: the node never joins.
 */
function localStorageFinding(doc: NodeConfigDoc): Finding | undefined {
  const { text, offset, parsed, value, where } = doc;
  const strategy = specValue(value, "instance", "localStorage", "strategy");
  if (typeof strategy !== "string" || strategy === "" || LOCAL_DISK_SETUPS.includes(strategy.toLowerCase()))
    return undefined;
  return {
    line: offset + pathLine(text, parsed, ["spec", "instance", "localStorage", "strategy"]),
    problem: `a local storage strategy the AMI takes, RAID0, RAID10 or Mount (any case; or none): ${where} is a NodeConfig whose spec.instance.localStorage.strategy is ${JSON.stringify(strategy)}, which nodeadm lower-cases and passes to setup-local-disks, and the script exits 1 on it ("Valid disk setup options are: raid0, raid10, mount or none"; ${LOCAL_DISK_SOURCE}), so nodeadm init stops and the node never joins`,
  };
}

const NODE_CONFIG_PART_DECODE =
  "amazon-eks-ami nodeadm internal/configprovider/mime.go:50-58 decodeIfBase64, decompressIfGZIP; encoding.go, at 81fec2e8";

/**
 * An application/node.eks.aws part's body as nodeadm reads it ({@link NODE_CONFIG_PART_DECODE}): base64 when Go's
 * base64.StdEncoding decodes it (line breaks skipped; otherwise the text as written), then gunzipped when it starts with
 * gzip's magic number. The body itself when neither applies; the decoded text and how; or the error that stops nodeadm
 * (a gzip stream it cannot read).
 */
function decodedNodeConfigPart(body: string): string | { text: string; how: string } | { error: string } {
  const compact = body.replace(/[\r\n]/g, "");
  const base64 =
    compact !== "" && /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(compact)
      ? Buffer.from(compact, "base64")
      : undefined;
  const bytes = base64 ?? Buffer.from(body, "utf8");
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      return { text: gunzipSync(bytes).toString("utf8"), how: base64 ? "base64-encoded, gzipped" : "gzipped" };
    } catch (e) {
      return {
        error: `a gzip stream nodeadm can read: this application/node.eks.aws part of AL2023 user data is gzip data that does not decompress (${(e as Error).message}), and nodeadm stops on it ("failed to read from GZIP reader"; ${NODE_CONFIG_PART_DECODE}), so the node never joins`,
      };
    }
  }
  return base64 ? { text: base64.toString("utf8"), how: "base64-encoded" } : body;
}

/** The value at `spec.<keys…>` of a decoded NodeConfig, or undefined where a table on the way is missing. */
function specValue(value: Record<string, unknown>, ...keys: string[]): unknown {
  let at: unknown = value.spec;
  for (const k of keys) at = isTable(at) ? at[k] : undefined;
  return at;
}

/** The 1-based line of the value at `path` in the document, or of the nearest parent found there, else 1. */
function pathLine(text: string, parsed: Document | undefined, path: readonly (string | number)[]): number {
  for (let n = path.length; parsed && n > 0; n--) {
    const node = parsed.getIn(path.slice(0, n), true) as { range?: readonly number[] } | undefined;
    if (node?.range) return lineOf(text, node.range[0]);
  }
  return 1;
}

/**
 * The warnings for fields of literal AL2023 NodeConfig user data that nodeadm drops (node-config-rules.ts): unknown
 * or wrongly cased fields of `spec`. None when the user data has an error (the class is refused for that).
 */
function nodeConfigWarnings(
  name: string,
  family: string | undefined,
  userData: unknown,
  minor: string,
  classKubelet?: unknown,
  kubernetesVersion?: string,
  ami?: Al2023AmiRelease,
): string[] {
  if (family !== "AL2023" || typeof userData !== "string" || userData === "" || holdsToken(userData)) return [];
  if (overEc2Limit(userData)) return [];
  const dropped: string[] = [];
  const kubelet = karpenterKubeletConfig(classKubelet);
  if (al2023Finding(userData, { minor, dropped, kubelet, kubernetesVersion, ami })) return [];
  return dropped.map((d) => `EC2NodeClass ${name}: userData: ${d}.`);
}

/**
 * amiFamily Custom without user data (unset, empty or blank): Karpenter writes none of its own for Custom, only the
 * class's userData as written (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/custom.go:28-30), so
 * the instance boots with nothing telling it the cluster's endpoint, CA or the karpenter.sh/unregistered taint Karpenter
 * needs to register it (v1.15 docs, NodeClasses "Custom": "Karpenter will fail to register nodes that do not have this
 * taint"). An AMI that bootstraps itself can still join, hence a warning.
 */
function customWithoutUserDataWarning(name: string, family: string | undefined, userData: unknown): string[] {
  if (
    family !== "Custom" ||
    (userData !== undefined && userData !== null && (typeof userData !== "string" || userData.trim() !== ""))
  )
    return [];
  return [
    `EC2NodeClass ${name}: amiFamily Custom without userData: Karpenter writes no bootstrap of its own for Custom (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/custom.go:28-30), so each instance boots with no user data, and joins only if its AMI bootstraps itself to this cluster with the kubelet registering the karpenter.sh/unregistered:NoExecute taint (Karpenter docs, NodeClasses "Custom": nodes without it fail to register). Give the bootstrap in userData, or choose the AMI's family (AL2023, Bottlerocket, …) so that Karpenter writes it.`,
  ];
}

/**
 * The warnings for literal user data of the class's AMI family that the family's bootstrap drops or may refuse
 * (nodeConfigWarnings for AL2023, bottlerocketWarnings for Bottlerocket), and Custom without user data
 * (customWithoutUserDataWarning): none when the user data has an error.
 * `minor`: Karpenter's minor ("1.15"); the AMI release comes from the class's one alias, when it pins one.
 */
export function userDataWarnings(
  name: string,
  family: string | undefined,
  spec: { readonly userData?: unknown; readonly kubelet?: unknown; readonly amiSelectorTerms?: unknown },
  minor: string,
  kubernetesVersion: string | undefined,
): string[] {
  return [
    ...nodeConfigWarnings(
      name,
      family,
      spec.userData,
      minor,
      spec.kubelet,
      kubernetesVersion,
      al2023AmiRelease(spec.amiSelectorTerms),
    ),
    ...bottlerocketWarnings(
      name,
      family,
      spec.userData,
      minor,
      spec.kubelet,
      bottlerocketAmiRelease(spec.amiSelectorTerms),
    ),
    ...customWithoutUserDataWarning(name, family, spec.userData),
  ];
}

/**
 * The first document after the first that holds something (its 1-based line), when the text has one. Karpenter v1.15.0
 * (nodeadm.go parseUserData) calls sigs.k8s.io/yaml v1.6.0 `Unmarshal`, which decodes with go.yaml.in/yaml/v2 v2.4.4
 * `unmarshal`: `parser.parse` reads one document (DOCUMENT_START, its node, DOCUMENT_END) and returns, so a second
 * document is never read and no error is raised (a broken second document neither). nodeadm's `DecodeNodeConfig`
 * decodes with Kubernetes' serializer, which converts the YAML with sigs.k8s.io/yaml `YAMLToJSON`, the same first
 * document.
 */
function laterDocument(
  text: string,
  docs: readonly {
    readonly contents: unknown;
    readonly range: readonly number[];
    readonly errors: readonly unknown[];
  }[],
): { readonly line: number } | undefined {
  // an empty document (a trailing "---") loses nothing; one that does not parse loses what it holds
  const empty = (c: unknown) => c === null || c === undefined || (isScalar(c) && c.value === null);
  const next = docs.slice(1).find((d) => d.errors.length > 0 || !empty(d.contents));
  if (!next) return undefined;
  // the "---" that starts it: the last marker line up to where the document starts
  const before = text.slice(0, next.range[0] + 3);
  let marker = -1;
  for (const m of before.matchAll(/^---/gm)) marker = m.index ?? marker;
  return { line: lineOf(text, marker >= 0 ? marker : next.range[0]) };
}

/**
 * An application/node.eks.aws part whose first document is no YAML map: nodeadm decodes every such part as a NodeConfig
 * ({@link NODEADM_PART_SOURCE}), and neither an empty document (only comments and whitespace, whatever go-yaml makes of
 * them: nothing, or an error at a tab) nor a scalar or a list has the kind it needs, so it stops and the node never
 * joins. `value` is the document's value, null when it is empty.
 */
function partNoMapFinding(text: string, offset: number, value: unknown): Finding {
  // an empty document, or one of only `---` markers, is "only comments and whitespace"; `null` or `~` is a value
  const empty = blankYaml(text) || (value === null && !/[^\s#-]/.test(text.replace(/#.*/g, "")));
  const shown = JSON.stringify(value) ?? String(value);
  const what = empty
    ? "holds only YAML comments and whitespace"
    : `is ${Array.isArray(value) ? "a YAML list" : `the YAML ${typeof value === "string" ? "string" : "value"} ${shown.length > 40 ? `${shown.slice(0, 40)}…` : shown}`}, not a map`;
  const first = text.split("\n").findIndex((l) => l.trim() !== "");
  return {
    line: offset + 1 + Math.max(0, first),
    problem: `a NodeConfig (apiVersion: node.eks.aws/v1alpha1, kind: NodeConfig) in every application/node.eks.aws part: this part of AL2023 user data ${what}, and nodeadm decodes each such part as a NodeConfig and finds no kind in it (${empty ? `"Object 'Kind' is missing", ` : ""}${NODEADM_PART_SOURCE}), so it stops and the node never joins. Put a NodeConfig in the part, or remove the part`,
  };
}

/**
 * Whether `text`'s first YAML document is a NodeConfig (an `apiVersion` of node.eks.aws/… and `kind: NodeConfig`):
 * what another family, or an AL2023 MIME part of another type, would hold by mistake.
 */
function isNodeConfigText(text: string): boolean {
  const first = parseAllDocuments(text)[0];
  const doc = first && first.errors.length === 0 ? (first.toJS() as unknown) : undefined;
  return (
    isTable(doc) &&
    typeof doc.apiVersion === "string" &&
    doc.apiVersion.startsWith("node.eks.aws/") &&
    doc.kind === "NodeConfig"
  );
}

/** A line that only a NodeConfig has: `apiVersion: node.eks.aws/…` or `kind: NodeConfig`, at the start of a line. */
const NODE_CONFIG_LINE = /^(?:apiVersion:[ \t]*["']?node\.eks\.aws\/|kind:[ \t]*["']?NodeConfig\b)/m;

/**
 * Text that does not parse as YAML. Top-level AL2023 user data that is no YAML map is passed on as a shell script
 * part (nodeadm.go parseUserData), which is right for a script, but a NodeConfig with a YAML error (a tab indent, an
 * unclosed bracket) then becomes a "script" cloud-init cannot run: its settings never reach nodeadm, silently. An
 * `application/node.eks.aws` MIME part is decoded as a NodeConfig whatever it looks like (amazon-eks-ami nodeadm
 * internal/configprovider/userdata.go), and a YAML error there stops the node's bootstrap. A script (`#!`) is never judged.
 */
function brokenNodeConfigFinding(
  text: string,
  offset: number,
  part: boolean,
  error: { readonly message: string; readonly linePos?: readonly { readonly line: number }[] },
): Finding | undefined {
  if (!part && (/^#!/.test(text.trimStart()) || !NODE_CONFIG_LINE.test(text))) return undefined;
  const what = error.message.split(" at line ")[0].split("\n")[0];
  return {
    line: offset + (error.linePos?.[0]?.line ?? 1),
    problem: part
      ? `a NodeConfig in YAML (${what}): an application/node.eks.aws part of AL2023 user data is decoded by nodeadm as a NodeConfig (amazon-eks-ami nodeadm, internal/configprovider/userdata.go), and one that does not parse stops the node's bootstrap, so the node never joins`
      : `a NodeConfig that parses as YAML (${what}): this user data for the AL2023 AMI family has the apiVersion or kind of a NodeConfig but is no YAML, so Karpenter passes it on as a shell script part (${AL2023_SOURCE}, parseUserData), which cloud-init cannot run, and nodeadm never sees its settings. Fix the YAML (indent with spaces, close every bracket and quote)`,
  };
}

/**
 * Go's net/mail header and mime/multipart reading, as far as Karpenter's mime.go (AL2023) or eksbootstrap.go (AL2) and
 * nodeadm depend on it. `ctx`: the AL2023 checks of application/node.eks.aws parts (none for AL2, which has no nodeadm).
 */
function mimeFinding(text: string, ctx: Al2023Context | undefined, r: MimeReader = AL2023_MIME): Finding | undefined {
  const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
  const fail = (line: number, what: string): Finding => ({
    line,
    problem: `a MIME multipart document (${what}): user data for the ${r.family} AMI family that starts with MIME-Version: or Content-Type: is read as one (${r.reads}), and Karpenter fails every launch when it cannot`,
  });
  // nodeadm.go:127-131 decides MIME on the trimmed text but hands mime.NewArchive the text as written, and
  // mime.go:109-115 reads it with net/mail ReadMessage: a leading empty line (LF or CRLF) ends the header block before
  // it starts, so the Content-Type is empty ("archive doesn't have Content-Type header, mime: no media type"), and a
  // leading space or tab is "malformed initial line", and other whitespace (\v, \f, U+00A0, U+0085) joins the first
  // header's name, so again no Content-Type (all checked with Go's net/mail). Whatever trimmed whitespace comes first,
  // the archive fails.
  if (!isMimeStart(text)) {
    const lead = /^[ \t]/.test(text) ? "a space or tab" : /^[\r\n]/.test(text) ? "an empty line" : "whitespace";
    const why =
      lead === "a space or tab"
        ? 'a first line starting with a space or tab is "malformed initial line"'
        : lead === "an empty line"
          ? 'an empty line ends the header block, so no Content-Type is read ("archive doesn\'t have Content-Type header")'
          : "the first header's name then starts with that character, so no Content-Type is read (\"archive doesn't have Content-Type header\")";
    return fail(
      1,
      `headers from the first character: the document starts with ${lead} before its first header. Karpenter takes it for MIME because the trimmed text starts with a header (${r.decides}, strings.TrimSpace), but reads the text as written with Go's net/mail (${r.mail}, mail.ReadMessage), where ${why}. Remove what comes before the first header`,
    );
  }
  let i = 0;
  const headers: Record<string, string> = {};
  let last: string | undefined;
  for (; i < lines.length && lines[i] !== ""; i++) {
    const l = lines[i];
    if (/^[ \t]/.test(l) && last) headers[last] += ` ${l.trim()}`;
    else {
      const m = /^([!-9;-~]+):[ \t]*(.*)$/.exec(l);
      if (!m) return fail(i + 1, 'a header line is "Name: value", and this one is not');
      last = m[1].toLowerCase();
      headers[last] = m[2];
    }
  }
  const ct = headers["content-type"];
  if (ct === undefined) return fail(1, "no Content-Type header before the first empty line");
  const media = /^\s*([^;\s]+)\s*(;.*)?$/.exec(ct);
  if (!media || !media[1].toLowerCase().startsWith("multipart/"))
    return fail(lineWith(lines, /^content-type:/i), `Content-Type ${JSON.stringify(ct)} is not multipart/…`);
  const b = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(media[2] ?? "");
  const boundary = b ? (b[1] ?? b[2]) : "";
  if (!boundary)
    return fail(lineWith(lines, /^content-type:/i), "the multipart Content-Type has no boundary parameter");
  const delimiter = `--${boundary}`;
  const starts = lines.map((l, n) => (l.trimEnd() === delimiter ? n : -1)).filter((n) => n >= 0);
  const close = lines.findIndex((l) => l.trimEnd() === `${delimiter}--`);
  if (starts.length === 0)
    return {
      line: i + 1,
      problem: `a MIME multipart document with parts: the boundary line ${JSON.stringify(delimiter)} never appears, so Karpenter reads no part and drops the whole user data silently: user data for the ${r.family} AMI family that starts with MIME-Version: or Content-Type: is read as a multipart document (${r.reads}; Go's multipart reader ends at the first boundary it never finds)`,
    };
  if (close < 0 || close < starts[starts.length - 1])
    return fail(
      lastLine(lines),
      `the closing boundary line ${JSON.stringify(`${delimiter}--`)} is missing after the last part`,
    );
  // each part: its headers, then its content; a NodeConfig part must be one
  for (const [k, s] of starts.entries()) {
    const end = k + 1 < starts.length ? starts[k + 1] : close;
    let j = s + 1;
    let partType = "";
    let partEncoding = "";
    for (; j < end && lines[j] !== ""; j++) {
      const m = /^([!-9;-~]+):[ \t]*(.*)$/.exec(lines[j]);
      if (!m && !/^[ \t]/.test(lines[j]))
        return fail(j + 1, 'a part\'s header line is "Name: value", and this one is not');
      if (m && m[1].toLowerCase() === "content-type") partType = m[2].trim();
      if (m && m[1].toLowerCase() === "content-transfer-encoding") partEncoding = m[2].trim().toLowerCase();
    }
    // Karpenter writes each part back with its Content-Type alone (karpenter-provider-aws v1.15.0
    // pkg/providers/amifamily/bootstrap/mime/mime.go:67-73, Serialize :88-91), and Go's multipart reader decodes only
    // quoted-printable: a base64 body of another part reaches cloud-init as base64 text, undecoded
    if (partEncoding === "base64" && partType.split(";")[0].trim().toLowerCase() !== "application/node.eks.aws")
      return fail(
        j,
        `a part without Content-Transfer-Encoding: base64 (write the part's content as it is): Karpenter writes every part back with its Content-Type alone (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/mime/mime.go:67-73, 88-91) and Go's mime/multipart decodes only quoted-printable, so cloud-init receives this ${partType || "part"} as base64 text and never runs what it holds`,
      );
    if (ctx && partType.split(";")[0].trim().toLowerCase() === "application/node.eks.aws") {
      const body = lines.slice(j + 1, end).join("\n");
      const decoded = decodedNodeConfigPart(body);
      if (typeof decoded === "string") {
        const f = nodeConfigFinding(body, j + 1, ctx);
        if (f) return f;
      } else if ("error" in decoded) return { line: j + 2, problem: decoded.error };
      else {
        // the lines of the decoded text are no lines of the user data: the part's first line is named
        const part = `the ${decoded.how} application/node.eks.aws part of AL2023 user data from line ${j + 2}, decoded,`;
        const f = nodeConfigFinding(decoded.text, 0, { ...ctx, part });
        if (f)
          return {
            line: j + 2,
            problem: `${f.problem} (line ${f.line} of the decoded text: nodeadm decodes the part first, ${NODE_CONFIG_PART_DECODE})`,
          };
      }
    }
    // a script part cloud-init cannot execute: Karpenter writes each part's content back as read (mime.go:67-73, 88-91;
    // eksbootstrap.go copyCustomUserDataParts)
    if (partType.split(";")[0].trim().toLowerCase() === "text/x-shellscript") {
      const body = lines.slice(j + 1, end).join("\n");
      if (!body.startsWith("#!") && !onlyShellComments(body) && !isNodeConfigText(body))
        return {
          line: j + 2,
          problem: `a script that starts with "#!": this text/x-shellscript part of ${r.family === "AL2023" ? "AL2023 user data" : `user data for the ${r.family} AMI family`} ${body.trimStart().startsWith("#!") ? 'has whitespace before its "#!" line' : 'has no "#!" line'}, and ${CLOUD_INIT_SCRIPT}. ${body.trimStart().startsWith("#cloud-config") ? "A cloud-config goes in a part with Content-Type: text/cloud-config" : 'Start the part with a "#!" line, such as #!/bin/bash'}`,
        };
    }
    // a NodeConfig in a part of another type (a shell script part): nodeadm reads only application/node.eks.aws parts
    // (amazon-eks-ami nodeadm internal/configprovider/userdata.go:96-103), cloud-init runs the YAML as a script, and
    // none of its settings reach the node (fresh tester 24 S-7)
    const partMedia = partType.split(";")[0].trim().toLowerCase();
    if (ctx && partMedia !== "application/node.eks.aws") {
      if (isNodeConfigText(lines.slice(j + 1, end).join("\n")))
        return {
          line: j + 2,
          problem: `a NodeConfig in a part with Content-Type: application/node.eks.aws: this part of AL2023 user data holds a NodeConfig under Content-Type ${JSON.stringify(partType || "(none)")}, and nodeadm reads NodeConfigs only from application/node.eks.aws parts (${NODEADM_PART_SOURCE}), so cloud-init runs it as ${partMedia === "text/x-shellscript" ? "a shell script" : "that type"} and none of its settings reach the node`,
        };
    }
  }
  return undefined;
}

/** The 1-based number of the last line with text. */
const lastLine = (lines: string[]) => {
  for (let n = lines.length - 1; n >= 0; n--) if (lines[n].trim() !== "") return n + 1;
  return 1;
};
const lineWith = (lines: string[], re: RegExp) => Math.max(1, lines.findIndex((l) => re.test(l)) + 1);

/** EC2's limit on an instance's user data, in bytes before base64 (EC2 User Guide, "Run commands when you launch an EC2 instance with user data input": "limited to 16 KB, in raw form, before it is base64-encoded"). */
export const EC2_USER_DATA_BYTES = 16 * 1024;
/**
 * The families whose bootstrap Karpenter adds to the class's user data as it is written (AL2: a MIME part
 * running bootstrap.sh; AL2023: a NodeConfig part with the cluster's name, endpoint, CA certificate and CIDR;
 * Windows: a PowerShell block), in aws/karpenter-provider-aws pkg/providers/amifamily/bootstrap (eksbootstrap.go,
 * nodeadm.go, windows.go). Bottlerocket re-encodes the TOML (comments dropped), so its size is not the one sent;
 * Custom sends the class's user data alone.
 */
const APPENDED_BOOTSTRAP_FAMILIES = ["AL2", "AL2023", "Windows2019", "Windows2022", "Windows2025"];
/** About what Karpenter's part adds: the cluster's CA certificate alone is some 1.5 KB in base64. */
const BOOTSTRAP_ROOM_BYTES = 2 * 1024;

/** Whether user data is over EC2's limit (refused for its size, so not read further). */
function overEc2Limit(userData: string): boolean {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: a short text needs no count
  return userData.length * 3 > EC2_USER_DATA_BYTES && Buffer.byteLength(userData, "utf8") > EC2_USER_DATA_BYTES;
}

/**
 * User data that fills EC2's 16 KB itself on a family Karpenter appends its bootstrap to: the launch template
 * then holds more than EC2 takes, and every launch fails. (Above 16 KB is refused for every family by the CRD-side
 * rule in ec2-node-class-rules.ts.)
 */
export function checkUserDataRoom(c: Checker, family: string | undefined, userData: unknown): void {
  if (typeof userData !== "string" || !c.known(userData) || family === undefined) return;
  if (!APPENDED_BOOTSTRAP_FAMILIES.includes(family)) return;
  const bytes = Buffer.byteLength(userData, "utf8");
  if (bytes === EC2_USER_DATA_BYTES)
    c.fail(
      "EC2NODECLASS_USER_DATA_ROOM",
      "userData",
      `(${bytes} bytes)`,
      `user data of at most ${EC2_USER_DATA_BYTES - 1} bytes for the ${family} AMI family, and in practice some ${BOOTSTRAP_ROOM_BYTES} less: Karpenter adds its own bootstrap (the cluster's endpoint and CA certificate) to this user data (aws/karpenter-provider-aws pkg/providers/amifamily/bootstrap), and EC2 refuses every launch whose user data is over ${EC2_USER_DATA_BYTES} bytes before base64 (EC2 User Guide, user data "limited to 16 KB, in raw form")`,
    );
}

/**
 * The warning for literal user data within {@link BOOTSTRAP_ROOM_BYTES} of EC2's limit on a family Karpenter adds
 * its bootstrap to (or a family not known at synth): whether the total fits depends on the cluster's endpoint and
 * CA certificate, which the app does not hold.
 */
export function userDataSizeWarning(name: string, family: string | undefined, userData: unknown): string | undefined {
  if (typeof userData !== "string" || holdsToken(userData) || family === "Custom") return undefined;
  const bytes = Buffer.byteLength(userData, "utf8");
  const appended = family === undefined || APPENDED_BOOTSTRAP_FAMILIES.includes(family) || family === "Bottlerocket";
  if (!appended || bytes <= EC2_USER_DATA_BYTES - BOOTSTRAP_ROOM_BYTES || bytes >= EC2_USER_DATA_BYTES)
    return undefined;
  return `EC2NodeClass ${name}: userData is ${bytes} bytes, and Karpenter adds its bootstrap for the ${family ?? "class's"} AMI family to it (the cluster's endpoint and CA certificate: about ${BOOTSTRAP_ROOM_BYTES} bytes more): EC2 refuses every launch whose user data is over ${EC2_USER_DATA_BYTES} bytes before base64. Keep userData under ${EC2_USER_DATA_BYTES - BOOTSTRAP_ROOM_BYTES} bytes (fetch larger scripts from S3 at boot).`;
}

/** An EC2Launch tag on a line of its own: `<powershell>`, `<script>`, `<persist>` (or the closing one). */
const EC2LAUNCH_TAG = /^[ \t]*(<\/?(?:powershell|script|persist)>)/im;

/**
 * The warning for Windows user data holding EC2Launch tags. Karpenter writes the class's user data inside its own
 * `<powershell>` … `</powershell>` block, before its bootstrap command (aws/karpenter-provider-aws
 * pkg/providers/amifamily/bootstrap/windows.go:34-38; examples/v1/windows-custom-userdata.yaml: "should be PowerShell
 * commands … prepended to a Karpenter managed section"), so the tags become lines of that PowerShell script. What
 * EC2Launch then makes of nested tags is not in a release source, hence a warning.
 */
export function windowsUserDataWarning(
  name: string,
  family: string | undefined,
  userData: unknown,
): string | undefined {
  if (typeof userData !== "string" || holdsToken(userData) || !family?.startsWith("Windows")) return undefined;
  const tag = EC2LAUNCH_TAG.exec(userData);
  if (!tag) return undefined;
  return `EC2NodeClass ${name}: userData holds the tag ${tag[1]}, and Karpenter writes ${family} user data inside its own <powershell> … </powershell> block, before its bootstrap command (aws/karpenter-provider-aws pkg/providers/amifamily/bootstrap/windows.go:34-38): so the tag ends up as a line inside that PowerShell block, not around your commands. Write the PowerShell commands alone, without tags (a batch <script> has no place there: run it from PowerShell).`;
}
