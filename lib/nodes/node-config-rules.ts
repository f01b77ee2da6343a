import { isPlainMap } from "../core/deep-merge";
import { nearestKey } from "../core/problems";
import { describe, jsonKind, KindVisitor, walkKinds } from "../kubernetes/json-kinds";
import { isToken } from "../kubernetes/value-rules";
import { eksAmiFacts, kubeletConfigFields, nodeadmConfigFields } from "../versions";
import { kubeletValueProblem } from "./kubelet-config-rules";
import { kubeletFlagProblems, KubeletFlagValue } from "./kubelet-flag-rules";
import {
  imageGcDefaultProblem,
  KubeletRuntimeProblem,
  kubeletRuntimeWarnings,
  kubeletValueProblems,
} from "./kubelet-runtime-rules";

/*
 * The `spec` of a NodeConfig in AL2023 user data (the document itself, or an application/node.eks.aws MIME part),
 * walked against the types of the nodeadm on the EKS AL2023 AMIs (lib/versions/data/eks-ami-facts.json, generated
 * from awslabs/amazon-eks-ami nodeadm api/v1alpha1/nodeconfig_types.go): Karpenter passes the NodeConfig on
 * unchanged, and the instance's nodeadm decodes it. nodeadm decodes each part with
 * `serializer.NewCodecFactory(scheme).UniversalDecoder().Decode` (nodeadm internal/api/bridge/decode.go:19-40, called
 * from internal/configprovider/userdata.go:96-103), a codec factory without the strict option (k8s.io/apimachinery
 * pkg/runtime/serializer/codec_factory.go), so the YAML is converted by sigs.k8s.io/yaml YAMLToJSON and decoded by
 * sigs.k8s.io/json UnmarshalCaseSensitivePreserveInts (pkg/runtime/serializer/json/json.go):
 * - a value of the wrong JSON type fails the decode ("json: cannot unmarshal string into Go struct field
 *   KubeletOptions.spec.kubelet.flags of type []string"): nodeadm init stops and the node never joins;
 * - a field the type does not have, or a wrongly cased one (matching is case-sensitive), is dropped without a word,
 *   and so is a field newer than the AMI's nodeadm (each field's first AMI release is in the table).
 * The walk is the nodes-side twin of helm/k8s-field-check.ts's (same kinds, from kubernetes/json-kinds.ts): that one
 * raises the chart's error codes with the chart's template lines, this one returns paths for the user-data message.
 * `null` decodes to the zero value and passes.
 */

/** One problem of a NodeConfig's spec: its path as keys and indices (`["spec", "kubelet", "flags"]`). */
export interface NodeConfigSpecProblem {
  readonly path: readonly (string | number)[];
  /** What is wrong, after the path. */
  readonly problem: string;
  /** Whether `problem` says why it matters itself (a field or name newer than the AMI, a name nodeadm ignores). */
  readonly whole?: boolean;
}

/** How a path reads in a message: `spec.kubelet.flags[0]`, `spec.kubelet.config["a.b"]`. */
export function nodeConfigPath(path: readonly (string | number)[]): string {
  return path
    .map((p, i) =>
      typeof p === "number" ? `[${p}]` : /^[A-Za-z_][\w-]*$/.test(p) ? `${i ? "." : ""}${p}` : `[${JSON.stringify(p)}]`,
    )
    .join("");
}

/**
 * Which AL2023 AMI release decodes the NodeConfig: `"latest"` (the newest, an `al2023@latest` alias or amiFamily
 * alone), a release `"vYYYYMMDD"` (a pinned alias), or undefined (AMIs selected by ID, name, tags or SSM parameter,
 * or a reference: the AMI's nodeadm is not known).
 */
export type Al2023AmiRelease = "latest" | `v${string}` | undefined;

/** The one alias term of a class's `amiSelectorTerms`, known at synth: undefined for any other selection. */
function soleAlias(amiSelectorTerms: unknown): string | undefined {
  if (!Array.isArray(amiSelectorTerms) || isToken(amiSelectorTerms) || amiSelectorTerms.length !== 1) return undefined;
  const alias = isPlainMap(amiSelectorTerms[0]) ? amiSelectorTerms[0].alias : undefined;
  return typeof alias === "string" && !isToken(alias) ? alias : undefined;
}

/**
 * The AL2023 AMI release a class's `amiSelectorTerms` select: one alias `al2023@latest` (what amiFamily "AL2023" alone
 * derives) or `al2023@vYYYYMMDD`; undefined for any other selection, or one not known at synth.
 */
export function al2023AmiRelease(amiSelectorTerms: unknown): Al2023AmiRelease {
  return /^al2023@(latest|v\d{8})$/.exec(soleAlias(amiSelectorTerms) ?? "")?.[1] as Al2023AmiRelease;
}

/**
 * The Bottlerocket release a class's `amiSelectorTerms` pin: one alias `bottlerocket@vX.Y.Z`; undefined for
 * `bottlerocket@latest` (or amiFamily alone), AMIs by ID, name, tags or SSM parameter, or a term not known at synth.
 */
export function bottlerocketAmiRelease(amiSelectorTerms: unknown): string | undefined {
  return /^bottlerocket@(v\d+\.\d+\.\d+)$/.exec(soleAlias(amiSelectorTerms) ?? "")?.[1];
}

/** Whether a class's `amiSelectorTerms` are one `bottlerocket@…` alias (any release, latest included). */
export function bottlerocketAlias(amiSelectorTerms: unknown): boolean {
  return /^bottlerocket@(latest|v\d+\.\d+\.\d+)$/.test(soleAlias(amiSelectorTerms) ?? "");
}

/** The first AMI release whose nodeadm knows `type.field` (or an enum value), as the table records it. */
const sinceOf = (type: string, field: string): string | undefined => eksAmiFacts().nodeadm.since[`${type}.${field}`];

/**
 * Whether the AMI `ami` may lack what arrived in AMI release `since`: with a pinned release, when it is older; with an
 * unknown AMI, when Karpenter's own nodeadm (`minor`'s go.mod pin, lib/versions nodeadm-config) lacks it too.
 */
function mayLack(ami: Al2023AmiRelease, since: string | undefined, knownToKarpenter: boolean): boolean {
  if (since === undefined || ami === "latest") return false;
  return ami === undefined ? !knownToKarpenter : since > ami;
}

/** What an AMI that may lack a field or value is told: `the AMI release v… (this class's alias)` or an unknown AMI. */
function lackText(ami: Al2023AmiRelease, since: string): string {
  return ami === undefined
    ? `needs an AL2023 AMI released ${since} or later (its nodeadm first reads it then; ${eksAmiFacts().repository} CHANGELOG.md), and this class selects its AMIs by ID, name, tags or SSM parameter, so whether the node's nodeadm reads it depends on that AMI. Use an al2023@ alias, or an AMI from ${since} on`
    : `is read by the nodeadm of AL2023 AMIs released ${since} or later (${eksAmiFacts().repository} CHANGELOG.md), and this class pins the AMI release ${ami}, whose nodeadm drops it without a word: the setting never reaches the node. Use al2023@${since} or later`;
}

/**
 * The decoding problems (`wrong`: a value nodeadm cannot decode) and the fields nodeadm drops (`dropped`: unknown,
 * wrongly cased, or newer than the AMI's nodeadm) of a NodeConfig's `spec` value (as sigs.k8s.io/yaml hands it to the
 * JSON decoder: lib/core/go-yaml.ts), for Karpenter `minor` and the AMI release `ami`.
 */
export function nodeConfigSpecProblems(
  spec: unknown,
  minor: string,
  ami: Al2023AmiRelease,
): { readonly wrong: NodeConfigSpecProblem[]; readonly dropped: NodeConfigSpecProblem[] } {
  const facts = eksAmiFacts().nodeadm;
  const pinned = nodeadmConfigFields(minor).types;
  const wrong: NodeConfigSpecProblem[] = [];
  const dropped: NodeConfigSpecProblem[] = [];
  const api = "nodeadm";
  const visit: KindVisitor<string | number> = {
    bad: (value, kind, path, owner) =>
      void wrong.push({
        path,
        problem: `is ${jsonKind(value)} (${JSON.stringify(value)?.slice(0, 60)}), where ${owner} takes ${describe(kind, api)}`,
      }),
    object: (value, type, path, walk) => {
      const fields = facts.types[type]?.fields;
      if (!fields) throw new Error(`no type ${type} in eks-ami-facts.json`);
      const names = Object.keys(fields);
      for (const [k, v] of Object.entries(value)) {
        if (!Object.prototype.hasOwnProperty.call(fields, k)) {
          const cased = names.find((n) => n.toLowerCase() === k.toLowerCase());
          const near = cased ?? nearestKey(k, names);
          dropped.push({
            path: [...path, k],
            problem: `is no field of nodeadm's ${type}${near ? ` (did you mean ${near}?${cased ? " Field names are case-sensitive" : ""})` : ""}; its fields: ${names.join(", ")}`,
          });
          continue;
        }
        const since = sinceOf(type, k);
        const knownToKarpenter = Object.prototype.hasOwnProperty.call(pinned[type]?.fields ?? {}, k);
        if (v !== null && v !== undefined && mayLack(ami, since, knownToKarpenter))
          dropped.push({ path: [...path, k], problem: lackText(ami, since!), whole: true });
        walk(v, fields[k], [...path, k], `nodeadm ${type}.${k}`);
      }
    },
  };
  walkKinds(spec, `object:${facts.root}`, ["spec"], "nodeadm NodeConfig.spec", visit);
  if (wrong.length === 0)
    dropped.push(...enumProblems(spec, ami), ...maxPodsExpressionProblems(spec), ...clusterProblems(spec));
  return { wrong, dropped };
}

/**
 * `spec.cluster`: Karpenter's own NodeConfig part sets the cluster's name, endpoint, CA and CIDR for every node
 * (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/nodeadm.go:61-85), and nodeadm merges the parts in
 * order with override (amazon-eks-ami nodeadm internal/api/merge.go), Karpenter's after the user's: the user's values
 * never reach the node. Harmless where they agree, misleading where they do not.
 */
function clusterProblems(spec: unknown): NodeConfigSpecProblem[] {
  const cluster = isPlainMap(spec) && isPlainMap(spec.cluster) ? spec.cluster : {};
  return ["name", "apiServerEndpoint", "certificateAuthority", "cidr"]
    .filter((f) => cluster[f] !== undefined && cluster[f] !== null && cluster[f] !== "")
    .map((f) => ({
      path: ["spec", "cluster", f],
      whole: true,
      problem: `is replaced on every node: Karpenter's own NodeConfig part sets the cluster's name, apiServerEndpoint, certificateAuthority and cidr from the cluster it runs in (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/nodeadm.go:61-85), and nodeadm merges it after yours, a later value replacing an earlier one (amazon-eks-ami nodeadm internal/api/merge.go), so this value never reaches the node. Remove it`,
    }));
}

/**
 * `spec.kubelet.maxPodsExpression`: nodeadm computes the kubelet's base maxPods with it (internal/kubelet/config.go:274-288
 * withDefaultReservedResources, eni_max_pods.go CalcMaxPods), but Karpenter's own NodeConfig part always sets
 * `kubelet.config.maxPods` (the class's kubelet.maxPods, else the value resolved per instance type:
 * karpenter-provider-aws v1.15.0 pkg/providers/amifamily/resolver.go:385-394, bootstrap/nodeadm.go), which nodeadm
 * writes into the kubelet's drop-in file (config.go:352-373, 40-nodeadm.conf), and the drop-in wins over the base file.
 */
function maxPodsExpressionProblems(spec: unknown): NodeConfigSpecProblem[] {
  const kubelet = isPlainMap(spec) && isPlainMap(spec.kubelet) ? spec.kubelet : {};
  const e = kubelet.maxPodsExpression;
  if (typeof e !== "string" || e === "") return [];
  return [
    {
      path: ["spec", "kubelet", "maxPodsExpression"],
      whole: true,
      problem: `is replaced on every node: Karpenter's own NodeConfig part always sets the kubelet's maxPods (the EC2NodeClass's kubelet.maxPods, else the value it resolves per instance type; karpenter-provider-aws v1.15.0 pkg/providers/amifamily/resolver.go:385-394), and nodeadm writes that into the kubelet's drop-in configuration, which wins over the maxPods nodeadm computes from the expression (amazon-eks-ami nodeadm internal/kubelet/config.go:274-288, 352-373). The expression only changes the memory nodeadm reserves for kube-reserved. Set kubelet.maxPods or kubelet.podsPerCore on the EC2NodeClass instead`,
    },
  ];
}

/**
 * Names nodeadm ignores without a word: a featureGates key that is no gate (api/featuregates.go IsFeatureEnabled:
 * an unknown gate is off) and a disabledMounts item that is no mount (internal/system/local_disk.go: a switch with no
 * default), or one newer than the AMI. The values are the types file's enums (eks-ami-facts.json), matched
 * case-sensitively.
 */
function enumProblems(spec: unknown, ami: Al2023AmiRelease): NodeConfigSpecProblem[] {
  const enums = eksAmiFacts().nodeadm.enums;
  const out: NodeConfigSpecProblem[] = [];
  const judge = (path: (string | number)[], name: string, type: string, what: string, effect: string) => {
    const values = enums[type];
    if (!Object.prototype.hasOwnProperty.call(values, name)) {
      const known = Object.keys(values);
      const near = known.find((v) => v.toLowerCase() === name.toLowerCase()) ?? nearestKey(name, known);
      out.push({
        path,
        whole: true,
        problem: `is no ${what} nodeadm knows${near ? ` (did you mean ${near}? Names are case-sensitive)` : ""}: it knows ${known.join(", ")} (${eksAmiFacts().nodeadm.file}), and ${effect}`,
      });
      return;
    }
    if (mayLack(ami, values[name], true)) out.push({ path, problem: lackText(ami, values[name]), whole: true });
  };
  const s = isPlainMap(spec) ? spec : {};
  const gates = s.featureGates;
  if (isPlainMap(gates))
    for (const [g, on] of Object.entries(gates))
      if (on !== null)
        judge(
          ["spec", "featureGates", g],
          g,
          "v1alpha1.Feature",
          "feature gate",
          "nodeadm treats a gate it does not know as off (nodeadm internal/api/featuregates.go, IsFeatureEnabled), so the setting has no effect",
        );
  const local = isPlainMap(s.instance) && isPlainMap(s.instance.localStorage) ? s.instance.localStorage : {};
  if (Array.isArray(local.disabledMounts))
    local.disabledMounts.forEach((m, i) => {
      if (typeof m === "string")
        judge(
          ["spec", "instance", "localStorage", "disabledMounts", i],
          m,
          "v1alpha1.DisabledMount",
          "mount",
          "nodeadm passes only the mounts it knows to setup-local-disks (nodeadm internal/system/local_disk.go, a switch without a default), so this one stays bound to the local disks",
        );
    });
  return out;
}

/*
 * `spec.kubelet.config` of a NodeConfig: nodeadm keeps it as an InlineDocument (a map of raw JSON, no typing), merges
 * the NodeConfig parts in order (nodeadm internal/configprovider/userdata.go:109-115, api/merge.go:59-73:
 * util.DocumentMerge with mergo.WithOverride, a later part's value replaces an earlier one's, maps merge key by key)
 * and writes the result into the kubelet's configuration. Karpenter appends its own NodeConfig part after the user's
 * (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/nodeadm.go:40-58), whose kubelet config holds the
 * class's `kubelet` fields, the resolved maxPods (resolver.go:385-394, always) and registerWithTaints
 * (nodeadm.go:106-117). The kubelet decodes its configuration strictly, and after a strict failure leniently
 * (k8s.io/kubernetes v1.36.3 pkg/kubelet/kubeletconfig/util/codec/codec.go:75-100): a field it does not know is
 * dropped with a logged warning, but a value of the wrong JSON type fails both ("failed to decode: json: cannot
 * unmarshal string into Go struct field KubeletConfiguration.maxPods of type int32"), the kubelet does not start and
 * the node never joins. The fields' types: the KubeletConfiguration table the EC2NodeClass `kubelet` check uses for
 * the same Karpenter minor (lib/versions kubeletConfigFields; none before 1.15, so nothing is judged there).
 */

/**
 * The kubelet config fields Karpenter's own NodeConfig part sets, from the class's `kubelet` (as props:
 * `maxPodsExpression` is `maxPods`), each with the class's value; undefined when the class's kubelet is a token (what
 * Karpenter's part overrides is then unknown).
 */
export function karpenterKubeletConfig(classKubelet: unknown): { readonly [field: string]: unknown } | undefined {
  if (isToken(classKubelet)) return undefined;
  // maxPods: resolved per instance type when the class sets none; registerWithTaints: always (see above)
  const out: Record<string, unknown> = { maxPods: 0, registerWithTaints: [] };
  if (!isPlainMap(classKubelet)) return out;
  for (const [k, v] of Object.entries(classKubelet))
    if (v !== undefined && v !== null) out[k === "maxPodsExpression" ? "maxPods" : k] = v;
  return out;
}

/**
 * The values of a NodeConfig's `spec.kubelet.config` the kubelet cannot decode (`wrong`) and the fields it drops
 * (`dropped`: no KubeletConfiguration field), for Karpenter `minor`. A field Karpenter's own part also sets is judged
 * only where the user's value survives nodeadm's merge: the entries of a map beside the class's map, other than the
 * class's keys (`karpenter`: {@link karpenterKubeletConfig}).
 */
export function kubeletConfigProblems(
  spec: unknown,
  minor: string,
  karpenter: { readonly [field: string]: unknown },
): {
  readonly wrong: NodeConfigSpecProblem[];
  readonly dropped: NodeConfigSpecProblem[];
  readonly replaced: NodeConfigSpecProblem[];
} {
  const wrong: NodeConfigSpecProblem[] = [];
  const dropped: NodeConfigSpecProblem[] = [];
  const replaced: NodeConfigSpecProblem[] = [];
  const table = kubeletConfigFields(minor);
  const kubelet = isPlainMap(spec) ? spec.kubelet : undefined;
  const config = isPlainMap(kubelet) ? kubelet.config : undefined;
  if (!table || !isPlainMap(config)) return { wrong, dropped, replaced };
  const names = Object.keys(table.fields);
  const of = `the kubelet's KubeletConfiguration (${table.module} ${table.file})`;
  for (const [k, raw] of Object.entries(config)) {
    const path = ["spec", "kubelet", "config", k];
    const field = table.fields[k];
    if (field === undefined) {
      const cased = names.find((n) => n.toLowerCase() === k.toLowerCase());
      const near = cased ?? nearestKey(k, names);
      dropped.push({
        path,
        problem: `is no field of ${of}${near ? ` (did you mean ${near}?${cased ? " Field names are case-sensitive" : ""})` : ""}`,
      });
      continue;
    }
    let x = raw;
    if (Object.prototype.hasOwnProperty.call(karpenter, k)) {
      // Karpenter's later part replaces the value, except a map beside a map: mergo merges those key by key
      const own = karpenter[k];
      if (!isPlainMap(raw) || !isPlainMap(own)) {
        // the user's value never reaches the kubelet (fresh tester 23 S-1: maxPods "110" is replaced, not decoded)
        replaced.push({
          path,
          problem:
            k === "maxPods"
              ? "is replaced by Karpenter's own NodeConfig part, which always sets maxPods (the class's kubelet.maxPods, or the value it resolves per instance type: karpenter-provider-aws v1.15.0 pkg/providers/amifamily/resolver.go:385-394)"
              : k === "registerWithTaints"
                ? "is replaced by Karpenter's own NodeConfig part, which always sets registerWithTaints from the NodeClaim's taints (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bootstrap/nodeadm.go:106-117)"
                : `is replaced by Karpenter's own NodeConfig part, which sets ${k} from the EC2NodeClass's kubelet.${k}`,
        });
        continue;
      }
      x = Object.fromEntries(Object.entries(raw).filter(([e]) => !Object.prototype.hasOwnProperty.call(own, e)));
    }
    const problem = kubeletValueProblem(x, field);
    if (problem !== undefined)
      wrong.push({
        path,
        problem: `is ${jsonKind(raw)} (${JSON.stringify(raw)?.slice(0, 60)}), where ${of}.${k} takes ${problem}`,
      });
  }
  return { wrong, dropped, replaced };
}

/** A refusal of the kubelet in a NodeConfig: from `spec.kubelet.config`, or from the flag at `flagIndex`. */
export interface NodeConfigRuntimeProblem extends KubeletRuntimeProblem {
  /** The item of `spec.kubelet.flags` whose value the kubelet refuses; undefined: the kubelet config's value. */
  readonly flagIndex?: number;
  /** That flag as written (`--registry-burst`). */
  readonly flag?: string;
}

/**
 * The kubelet's own refusals at start (kubelet-runtime-rules.ts kubeletValueProblems) of the configuration nodeadm
 * writes from a NodeConfig's `spec.kubelet.config` merged with Karpenter's own part, whose values replace the user's
 * (maps merged key by key: nodeadm internal/api/merge.go, util.DocumentMerge with mergo.WithOverride), with the
 * configuration flags of `spec.kubelet.flags` over both (the kubelet's flags take precedence over its configuration
 * files, k8s.io/kubernetes v1.36.3 cmd/kubelet/app/server.go kubeletConfigFlagPrecedence); only those the class's own
 * kubelet does not have already (the class is refused for those). Karpenter's placeholders (maxPods,
 * registerWithTaints: {@link karpenterKubeletConfig}) are not judged. The rules apply on every Karpenter version:
 * nodeadm passes the kubelet config on whatever Karpenter validated. `kubernetesVersion` decides the feature gates.
 */
export function nodeConfigRuntimeProblems(
  spec: unknown,
  karpenter: { readonly [field: string]: unknown },
  kubernetesVersion?: string,
): NodeConfigRuntimeProblem[] {
  const kubelet = nodeConfigKubelet(spec, karpenter);
  if (!kubelet) return [];
  const { own, merged, byFlag } = kubelet;
  const classOnly = new Set(
    kubeletValueProblems(own)
      .map((p) => p.field)
      .filter((f) => !byFlag.has(topField(f))),
  );
  // nodeadm sets neither image GC threshold: one alone is judged against the other's default
  const gc = imageGcDefaultProblem(merged);
  return [...kubeletValueProblems(merged, kubernetesVersion), ...(gc ? [gc] : [])]
    .filter((p) => !classOnly.has(p.field))
    .map((p) => {
      const f = byFlag.get(topField(p.field));
      return f ? { ...p, flagIndex: f.index, flag: f.flag } : p;
    });
}

/**
 * The kubelet configuration a NodeConfig's spec gives the kubelet: `spec.kubelet.config` merged with Karpenter's own
 * part (`own`, without its placeholders), the configuration flags of `spec.kubelet.flags` over both (`byFlag`: the flag
 * that set a field). Undefined when the spec has no kubelet or its config is no map (the decode rule reports that).
 */
function nodeConfigKubelet(
  spec: unknown,
  karpenter: { readonly [field: string]: unknown },
):
  | {
      own: Record<string, unknown>;
      merged: Record<string, unknown>;
      byFlag: Map<string, KubeletFlagValue>;
    }
  | undefined {
  const kubelet = isPlainMap(spec) ? spec.kubelet : undefined;
  if (!isPlainMap(kubelet)) return undefined;
  const written = kubelet.config;
  if (written !== undefined && written !== null && !isPlainMap(written)) return undefined;
  const config: Record<string, unknown> = isPlainMap(written) ? written : {};
  const own = Object.fromEntries(
    Object.entries(karpenter).filter(([k]) => k !== "maxPods" && k !== "registerWithTaints"),
  );
  const merged: Record<string, unknown> = { ...config };
  for (const [k, v] of Object.entries(own)) {
    const mine = config[k];
    merged[k] = isPlainMap(mine) && isPlainMap(v) ? { ...mine, ...v } : v;
  }
  const flags = kubeletFlagProblems(kubelet.flags).values;
  for (const f of flags) merged[f.field] = f.value;
  return { own, merged, byFlag: new Map(flags.map((f) => [f.field, f])) };
}

/**
 * The kubelet's warnings (kubelet-runtime-rules.ts kubeletRuntimeWarnings: what fails where the AMI or the Kubernetes
 * minor decides) for the configuration a NodeConfig gives the kubelet ({@link nodeConfigKubelet}), but for those the
 * class's own kubelet gets already.
 */
export function nodeConfigRuntimeWarnings(
  spec: unknown,
  karpenter: { readonly [field: string]: unknown },
  kubernetesVersion?: string,
): string[] {
  const kubelet = nodeConfigKubelet(spec, karpenter);
  if (!kubelet) return [];
  const classOwn = new Set(kubeletRuntimeWarnings(kubelet.own, kubernetesVersion));
  return kubeletRuntimeWarnings(kubelet.merged, kubernetesVersion).filter((w) => !classOwn.has(w));
}

/** The top-level field of a problem's field: `kubelet.logging.vmodule[0]` -> `logging`. */
function topField(field: string): string {
  return field.replace(/^kubelet\./, "").split(/[.[]/)[0];
}

/** The nodeadm the types were read from, for a message: `awslabs/amazon-eks-ami@81fec2e8 (AMI release v… and earlier) …`. */
export function nodeadmSource(): string {
  const f = eksAmiFacts();
  return `${f.repository.replace("github.com/", "")}@${f.commit.slice(0, 8)} (the nodeadm of AMI release ${f.newestRelease}), ${f.nodeadm.file}`;
}

/*
 * The kubelet's own refusal of `--node-labels` in the kubernetes.io / k8s.io namespaces. nodeadm appends the
 * NodeConfig's `spec.kubelet.flags` to the kubelet's command line as written (nodeadm internal/kubelet/
 * environment.go:26-29, NODEADM_KUBELET_ARGS), and the kubelet refuses to start with "unknown 'kubernetes.io' or
 * 'k8s.io' labels specified with --node-labels" (k8s.io/kubernetes v1.36.3 cmd/kubelet/app/options/options.go:150-166
 * ValidateKubeletFlags, called at cmd/kubelet/app/server.go:212) for a key whose prefix is kubernetes.io or k8s.io or
 * ends in .kubernetes.io / .k8s.io (options.go:178-187, isKubernetesLabel) unless the kubelet may set it
 * (k8s.io/kubelet v0.37.0 pkg/apis/well_known_labels.go:35-80, IsKubeletLabel: the list below, from k8s.io/api
 * v0.37.0 core/v1/well_known_labels.go:20-55, or a prefix that is or ends in .kubelet.kubernetes.io /
 * .node.kubernetes.io). The flag's value is split at "," and each pair at its first "=", key trimmed
 * (k8s.io/component-base cli/flag/configuration_map.go:36-49). Karpenter filters such keys out of the labels it
 * writes itself (so a NodePool label is fine); a flag the user writes reaches the kubelet. Only the
 * `--node-labels=<value>` form is read (one list item per flag, as nodeadm's docs write them).
 */
const KUBELET_LABELS = [
  "kubernetes.io/hostname",
  "topology.kubernetes.io/zone",
  "topology.kubernetes.io/region",
  "failure-domain.beta.kubernetes.io/zone",
  "failure-domain.beta.kubernetes.io/region",
  "beta.kubernetes.io/instance-type",
  "node.kubernetes.io/instance-type",
  "kubernetes.io/os",
  "kubernetes.io/arch",
  "beta.kubernetes.io/os",
  "beta.kubernetes.io/arch",
];
const KUBELET_LABEL_NAMESPACES = ["kubelet.kubernetes.io", "node.kubernetes.io"];

const within = (namespace: string, domain: string) => namespace === domain || namespace.endsWith(`.${domain}`);

/**
 * Whether the kubelet refuses to start with `key` in its `--node-labels` (a kubernetes.io / k8s.io key it may not set:
 * options.go:150-156, 178-187 isKubernetesLabel, IsKubeletLabel). Shared by every path that ends in that flag: a
 * NodeConfig's `spec.kubelet.flags` (below) and Bottlerocket's `settings.kubernetes.node-labels` (user-data-rules.ts).
 */
export function kubeletRefusesNodeLabel(key: string): boolean {
  const slash = key.indexOf("/");
  const namespace = slash >= 0 ? key.slice(0, slash) : "";
  const restricted = within(namespace, "kubernetes.io") || within(namespace, "k8s.io");
  const allowed = KUBELET_LABELS.includes(key) || KUBELET_LABEL_NAMESPACES.some((n) => within(namespace, n));
  return restricted && !allowed;
}

/** The keys of `--node-labels=` flags the kubelet refuses to start with, with the index of their flag. */
export function refusedNodeLabels(flags: unknown): { readonly index: number; readonly key: string }[] {
  if (!Array.isArray(flags)) return [];
  const out: { index: number; key: string }[] = [];
  flags.forEach((flag, index) => {
    if (typeof flag !== "string" || !flag.startsWith("--node-labels=")) return;
    for (const pair of flag.slice("--node-labels=".length).split(",")) {
      if (pair === "") continue;
      const key = pair.split("=")[0].trim();
      if (kubeletRefusesNodeLabel(key)) out.push({ index, key });
    }
  });
  return out;
}

/*
 * `spec.instance.environment` (nodeadm EnvironmentOptions, map[service]map[name]value): nodeadm writes the `default`
 * group as DefaultEnvironment="<name>=<value>" lines into /etc/systemd/system.conf.d/environment.conf and sets them in
 * its own process with os.Setenv, logging and skipping a name Setenv refuses; every other key as
 * Environment="<name>=<value>" lines into /etc/systemd/system/<key>.service.d/environment.conf, then runs
 * `systemctl daemon-reload` (amazon-eks-ami nodeadm internal/system/environment.go:24-30, 52-64, 83-119 at 81fec2e8;
 * only the value is escaped, :176-185). So:
 * - a key is a service name without `.service`: `kubelet.service` writes a drop-in for kubelet.service.service, which
 *   no unit is, and a key that with `.service` is no valid unit name (systemd src/basic/unit-name.c
 *   unit_name_is_valid: characters [A-Za-z0-9:_.\\-] and one `@`, not first, under 256 bytes) is never loaded;
 * - systemd splits each assignment at its first `=` and ignores one whose name is not [A-Za-z_][A-Za-z0-9_]*
 *   ("Invalid environment assignment, ignoring"; src/core/load-fragment.c config_parse_environ,
 *   src/basic/env-util.c env_name_is_valid_n): a name with `=` defines another variable with another value, a NUL cuts
 *   the line (and os.Setenv refuses both: EINVAL), both certainly wrong; another non-POSIX name is ignored (a warning).
 */
const ENV_SOURCE = "amazon-eks-ami nodeadm internal/system/environment.go:24-30, 52-64, 83-119 at 81fec2e8";
const SYSTEMD_ENV_SOURCE =
  'systemd src/core/load-fragment.c config_parse_environ, src/basic/env-util.c env_name_is_valid_n: "Invalid environment assignment, ignoring"';
const UNIT_TYPES = [
  "service",
  "socket",
  "target",
  "timer",
  "mount",
  "automount",
  "swap",
  "path",
  "slice",
  "scope",
  "device",
];

/** The environment's variable names that are certainly wrong (`refused`), and keys or names systemd ignores (`dropped`). */
export function environmentProblems(
  spec: unknown,
  ami: Al2023AmiRelease,
): { readonly refused: NodeConfigSpecProblem[]; readonly dropped: NodeConfigSpecProblem[] } {
  const refused: NodeConfigSpecProblem[] = [];
  const dropped: NodeConfigSpecProblem[] = [];
  const s = isPlainMap(spec) ? spec : {};
  const env = isPlainMap(s.instance) ? s.instance.environment : undefined;
  // an AMI whose nodeadm does not read the field: the field's own warning says so (nodeConfigSpecProblems)
  const since = sinceOf("v1alpha1.InstanceOptions", "environment");
  if (!isPlainMap(env) || (since !== undefined && ami !== undefined && ami !== "latest" && since > ami))
    return { refused, dropped };
  for (const [key, vars] of Object.entries(env)) {
    if (!isPlainMap(vars) || Object.keys(vars).length === 0) continue;
    const path = ["spec", "instance", "environment", key];
    const file =
      key === "default"
        ? "DefaultEnvironment= lines of /etc/systemd/system.conf.d/environment.conf"
        : `Environment= lines of /etc/systemd/system/${key}.service.d/environment.conf`;
    if (key !== "default") {
      const unit = `${key}.service`;
      const suffix = UNIT_TYPES.find((t) => key.endsWith(`.${t}`) && key.length > t.length + 1);
      const at = unit.indexOf("@");
      const valid =
        key !== "" &&
        Buffer.byteLength(unit) < 256 &&
        /^[A-Za-z0-9:_.\\@-]+$/.test(key) &&
        at !== 0 &&
        at === unit.lastIndexOf("@");
      if (key.toLowerCase() === "default")
        dropped.push({
          path,
          whole: true,
          problem: `is no group nodeadm reads as the system-wide one (did you mean default? Keys are case-sensitive): nodeadm writes the variables as a drop-in of a service named ${unit} (${ENV_SOURCE}), not for every service. Write default`,
        });
      else if (suffix)
        dropped.push({
          path,
          whole: true,
          problem: `names a unit with its .${suffix} suffix, and nodeadm appends .service itself: it writes the variables to /etc/systemd/system/${unit}.d/environment.conf (${ENV_SOURCE}), a drop-in of ${unit}, which no unit is, so ${suffix === "service" ? `${key} never sees them. Did you mean ${key.slice(0, -".service".length)}?` : `they never reach ${key} (nodeadm configures services only)`}`,
        });
      else if (!valid)
        dropped.push({
          path,
          whole: true,
          problem: `is no service name: nodeadm writes the variables to /etc/systemd/system/${key}.service.d/environment.conf (${ENV_SOURCE}), and ${JSON.stringify(unit)} is no valid unit name (systemd src/basic/unit-name.c unit_name_is_valid: letters, digits and :_.\\- with one @ not first, under 256 bytes), so no service ever reads them`,
        });
    }
    for (const name of Object.keys(vars)) {
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
      const at = [...path, name];
      if (name.includes("=") || name.includes("\0")) {
        const eq = name.indexOf("=");
        refused.push({
          path: at,
          problem: name.includes("\0")
            ? `holds a NUL, which no environment variable name can: os.Setenv refuses it (EINVAL) and the line nodeadm writes into the ${file} is cut at it`
            : `holds "=": nodeadm writes ${JSON.stringify(`${name}=…`)} into the ${file} (${ENV_SOURCE}), and systemd splits an assignment at its first "=", so the variable ${name.slice(0, eq) === "" ? "is ignored" : `defined is ${name.slice(0, eq)}, set to ${JSON.stringify(`${name.slice(eq + 1)}=…`)}`} (${SYSTEMD_ENV_SOURCE})${key === "default" ? `; nodeadm's own os.Setenv refuses the name (EINVAL), which it only logs` : ""}`,
        });
        continue;
      }
      dropped.push({
        path: at,
        whole: true,
        problem: `is no environment variable name systemd takes ([A-Za-z_][A-Za-z0-9_]*): nodeadm writes it into the ${file} (${ENV_SOURCE}), and systemd ignores the assignment (${SYSTEMD_ENV_SOURCE}), so the variable never reaches ${key === "default" ? "the services" : `${key}.service`}. Rename it`,
      });
    }
  }
  return { refused, dropped };
}
