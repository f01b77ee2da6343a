/*
 * The top-level Bottlerocket settings (`[settings.<name>]`) of the aws-k8s variants, the ones Karpenter's
 * Bottlerocket AMI family launches. Written by hand, read, not executed, from these sources (a generator is not
 * possible here: the local snapshot of bottlerocket-os/bottlerocket, /work/.mirror/bottlerocket-os+bottlerocket, ends
 * at 91632ff5 = v1.26.1 of 2024-10, and the newer plugins and the settings SDK's model list were read from the search
 * index, not from a local snapshot). Extend it when a Bottlerocket release adds a top-level setting.
 *
 * - Every aws-k8s variant: bottlerocket-os/bottlerocket@91632ff50cafaae1d5b3710a8f799141b5966595
 *   sources/settings-plugins/aws-k8s/src/lib.rs (AwsK8sSettings, `#[model(rename = "settings", impl_default = true)]`)
 *   and sources/settings-plugins/aws-k8s-nvidia/src/lib.rs; the in-tree models before settings plugins
 *   (sources/models/src/aws-k8s-1.*\/mod.rs, struct Settings, tags v1.0.0 to v1.20.x) have a subset of these names
 *   (the first release of each: BOTTLEROCKET_SETTINGS_SINCE, below; an older pinned AMI refuses a newer one).
 * - Some aws-k8s variants only (SOME_K8S): nvidia-container-runtime and kubelet-device-plugins, the
 *   aws-k8s-nvidia plugin at 91632ff5; container-runtime-plugins and kubelet-dra-drivers, the aws-k8s-nvidia plugin at
 *   bottlerocket-os/bottlerocket@25c1f02c52d6323cc4d0806e3e077af7f7fc78b7 (aws-k8s's own plugin there not read);
 *   image-verifier-plugins, "only available on aws-ecs-3, aws-ecs-4, and Kubernetes variants with Kubernetes 1.33 and
 *   later" (bottlerocket.dev/en/os/1.66.x/api/settings/image-verifier-plugins/); measurement, a model of the settings
 *   SDK (below) in no aws-k8s plugin read.
 * - Every settings model Bottlerocket has: bottlerocket-os/bottlerocket-settings-sdk@09fb002ef21fefd40f3c8d4ad5091663fc45b620
 *   bottlerocket-settings-models/settings-models/src/lib.rs and Cargo.toml (bottlerocket-settings-models 0.28.0): the
 *   names above and `ecs`, which only the aws-ecs variants have (sources/settings-plugins/aws-ecs-2/src/lib.rs at
 *   91632ff5, aws-ecs-4/src/lib.rs at a079bf35), never a Kubernetes one.
 *
 * Why a name outside these fails: the #[model] macro gives every model struct, the variant's top-level settings
 * included, `#[serde(deny_unknown_fields, rename_all = "kebab-case", rename = …)]`
 * (bottlerocket-os/bottlerocket@f36b20a9cd5ded47eee1dbacaa3cdb2e725fb404 sources/models/model-derive/src/lib.rs:108-118,
 * moved unchanged into the settings SDK at 468f205b), so the names are case-sensitive, kebab-case.
 */

/** Where the names were read, for messages. */
export const BOTTLEROCKET_SETTINGS_NAMES_SOURCE =
  "bottlerocket@91632ff5 sources/settings-plugins/aws-k8s/src/lib.rs and aws-k8s-nvidia/src/lib.rs (AwsK8sSettings), bottlerocket@25c1f02c aws-k8s-nvidia/src/lib.rs, bottlerocket-settings-sdk@09fb002e bottlerocket-settings-models/settings-models/src/lib.rs";

/** Where #[model] denies unknown fields, for messages. */
export const BOTTLEROCKET_DENY_UNKNOWN_SOURCE =
  'bottlerocket@f36b20a9 sources/models/model-derive/src/lib.rs:108-118, #[serde(deny_unknown_fields, rename_all = "kebab-case")]';

/** The top-level settings every aws-k8s variant has (AwsK8sSettings at 91632ff5), in its order. */
export const EVERY_K8S_SETTINGS: readonly string[] = [
  "motd",
  "kubernetes",
  "updates",
  "host-containers",
  "bootstrap-commands",
  "bootstrap-containers",
  "ntp",
  "network",
  "kernel",
  "boot",
  "aws",
  "metrics",
  "pki",
  "container-registry",
  "oci-defaults",
  "oci-hooks",
  "cloudformation",
  "dns",
  "container-runtime",
  "autoscaling",
];

/** Top-level settings only some aws-k8s variants (or Bottlerocket versions) have: name → which ones. */
export const SOME_K8S_SETTINGS: { readonly [name: string]: string } = {
  "nvidia-container-runtime": "the aws-k8s-*-nvidia variants (not aws-k8s-*)",
  "kubelet-device-plugins": "the aws-k8s-*-nvidia variants (not aws-k8s-*)",
  "kubelet-dra-drivers": "the aws-k8s-*-nvidia variants of newer Bottlerocket releases",
  "container-runtime-plugins": "the aws-k8s-*-nvidia variants of newer Bottlerocket releases (others not read)",
  "image-verifier-plugins": "the Kubernetes variants for Kubernetes 1.33 and later",
  measurement: "some variants (Bottlerocket's settings SDK models it; no aws-k8s variant read here has it)",
};

/** Top-level settings of other variants only, never a Kubernetes one: name → which ones. */
export const NON_K8S_SETTINGS: { readonly [name: string]: string } = {
  ecs: "the aws-ecs variants (the ECS agent's settings)",
};

/**
 * How an aws-k8s variant takes a top-level settings name (case-sensitive, as serde matches it): `every` variant has
 * it, `some` have it (`which`), or `none` (`which`: the variants that do, for a name other variants have).
 */
export function bottlerocketK8sSetting(name: string): { has: "every" | "some" | "none"; which?: string } {
  if (EVERY_K8S_SETTINGS.includes(name)) return { has: "every" };
  if (Object.prototype.hasOwnProperty.call(SOME_K8S_SETTINGS, name))
    return { has: "some", which: SOME_K8S_SETTINGS[name] };
  if (Object.prototype.hasOwnProperty.call(NON_K8S_SETTINGS, name))
    return { has: "none", which: NON_K8S_SETTINGS[name] };
  return { has: "none" };
}

/** Every top-level name some aws-k8s variant has, for a did-you-mean. */
export const K8S_SETTINGS_NAMES: readonly string[] = [...EVERY_K8S_SETTINGS, ...Object.keys(SOME_K8S_SETTINGS)];

/**
 * The first Bottlerocket release in which some aws-k8s variant has each top-level setting, read from the variants'
 * Settings structs at every release tag of bottlerocket-os/bottlerocket (the snapshot /work/.mirror ends at 91632ff5,
 * v1.26.1): sources/models/src/aws-k8s-1.*\/mod.rs (struct Settings, symlinks followed) up to v1.22.0 and
 * sources/settings-plugins/aws-k8s*\/src/lib.rs (AwsK8sSettings) from v1.23.0; the releases agree with CHANGELOG.md at
 * 91632ff5 (kernel sysctl v1.0.3, bootstrap containers v1.0.8, container image registry mirrors v1.2.0, OCI hooks
 * v1.5.0, CloudFormation signaling v1.6.2, Boot Configuration v1.8.0, DNS settings v1.10.0, "Add support for bootstrap
 * commands" v1.22.0, NVIDIA device plugin and container toolkit settings v1.23.0). `v1.0.0`: in every v1 release. A
 * release of another variant (an aws-k8s-*-nvidia one, a later Kubernetes minor) may have a setting later than this: an
 * older pinned release is refused only when no aws-k8s variant of it has the setting.
 */
export const BOTTLEROCKET_SETTINGS_SINCE_SOURCE =
  "bottlerocket@<tag> sources/models/src/aws-k8s-1.*/mod.rs (struct Settings, v1.0.0 to v1.22.0) and sources/settings-plugins/aws-k8s*/src/lib.rs (AwsK8sSettings, v1.23.0 to v1.26.1), and CHANGELOG.md at 91632ff5";

/** Setting → the first release some aws-k8s variant has it in (see BOTTLEROCKET_SETTINGS_SINCE_SOURCE). */
export const BOTTLEROCKET_SETTINGS_SINCE: { readonly [name: string]: string } = {
  motd: "v1.0.0",
  kubernetes: "v1.0.0",
  updates: "v1.0.0",
  "host-containers": "v1.0.0",
  ntp: "v1.0.0",
  aws: "v1.0.0",
  kernel: "v1.0.3",
  network: "v1.0.5",
  metrics: "v1.0.6",
  "bootstrap-containers": "v1.0.8",
  "container-registry": "v1.2.0",
  pki: "v1.2.0",
  "oci-hooks": "v1.5.0",
  cloudformation: "v1.6.2",
  boot: "v1.8.0",
  dns: "v1.10.0",
  "container-runtime": "v1.10.1",
  autoscaling: "v1.12.0",
  "oci-defaults": "v1.12.0",
  "bootstrap-commands": "v1.22.0",
  "nvidia-container-runtime": "v1.23.0",
  "kubelet-device-plugins": "v1.23.0",
};

/**
 * The last release read (the snapshot's newest, 91632ff5 = v1.26.1): a setting of K8S_SETTINGS_NAMES without an entry
 * in BOTTLEROCKET_SETTINGS_SINCE is in no aws-k8s variant up to it, and came in a later release not established here.
 */
export const BOTTLEROCKET_SETTINGS_READ_UNTIL = "v1.26.1";

/** The numbers of a release `vX.Y.Z`. */
const releaseParts = (r: string) => r.replace(/^v/, "").split(".").map(Number);

/** Whether Bottlerocket release `a` comes before `b` (both `vX.Y.Z`). */
export function bottlerocketReleaseBefore(a: string, b: string): boolean {
  const [x, y] = [releaseParts(a), releaseParts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  return false;
}

/**
 * How pinned Bottlerocket release `release` (`vX.Y.Z`) takes top-level setting `name` (one an aws-k8s variant has):
 * `older` when it predates the setting's first release (`since`; for a setting newer than every release read, `since`
 * is undefined and `release` is at most BOTTLEROCKET_SETTINGS_READ_UNTIL), `uncertain` when the first release is not
 * established and `release` is later than the releases read, else `has`.
 */
export function bottlerocketSettingInRelease(
  name: string,
  release: string,
): { readonly has: "has" | "older" | "uncertain"; readonly since?: string } {
  const since = Object.prototype.hasOwnProperty.call(BOTTLEROCKET_SETTINGS_SINCE, name)
    ? BOTTLEROCKET_SETTINGS_SINCE[name]
    : undefined;
  if (since !== undefined) return { has: bottlerocketReleaseBefore(release, since) ? "older" : "has", since };
  return { has: bottlerocketReleaseBefore(BOTTLEROCKET_SETTINGS_READ_UNTIL, release) ? "uncertain" : "older" };
}
