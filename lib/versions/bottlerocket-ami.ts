/*
 * The OS volume (/dev/xvda) snapshot sizes of the EKS Bottlerocket AMIs. Bottlerocket's build (buildsys) makes the OS
 * image `os-image-size-gib` GiB, 2 unless a variant's Cargo.toml sets it; the NVIDIA variants set 4. EC2 refuses a
 * volume smaller than its snapshot. Newer releases may grow the image: Karpenter raised its own default for
 * /dev/xvda to 6Gi, "the root volume must be at least as large as the AMI's root snapshot".
 * Hand-kept: the snapshot of bottlerocket-os/bottlerocket read here ends at 91632ff5 (after v1.25.0), and the image
 * sizes of later releases are in no source available here.
 */

/** What is known of the Bottlerocket OS snapshot sizes, each with its source. */
export const BOTTLEROCKET_OS_SNAPSHOT = {
  /** Every variant's OS image is at least this many GiB (buildsys' default). */
  minimumGiB: 2,
  minimumSource: "bottlerocket-os/bottlerocket@v1.14.0 tools/buildsys/src/manifest.rs:420 (DEFAULT_OS_IMAGE_SIZE_GIB)",
  /** The -nvidia variants', which the alias selects for NVIDIA GPU instance types. */
  nvidiaGiB: 4,
  nvidiaSource: "bottlerocket-os/bottlerocket@91632ff5 variants/aws-k8s-1.31-nvidia/Cargo.toml:13 (os-image-size-gib)",
  /** Karpenter's own /dev/xvda size for Bottlerocket, and why. */
  karpenterDefault: "6Gi",
  karpenterDefaultGiB: 6,
  karpenterSource:
    "karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bottlerocket.go:185-188 (DefaultBlockDeviceMappings, citing bottlerocket-os/bottlerocket a02834b6ac)",
} as const;

/**
 * The Kubernetes minors the Bottlerocket releases ship an `aws-k8s-<minor>` variant for: minor → the first release
 * that has `variants/aws-k8s-<minor>` and the last one (absent: still in the snapshot's newest release). Karpenter's
 * `bottlerocket@<version>` alias reads `/aws/service/bottlerocket/aws-k8s-<k8s>[-nvidia]/<arch>/<X.Y.Z>/image_id`
 * (karpenter-provider-aws v1.15.0 pkg/providers/amifamily/bottlerocket.go:44-66), so a release without the cluster's
 * minor names no parameter. Hand-kept from `git ls-tree --name-only vX.Y.Z:variants` at each release tag v1.0.0 …
 * v1.26.0 of the bottlerocket-os/bottlerocket snapshot (v1.26.0 = 85f0d68c, its newest tag); a minor not listed came
 * after v1.26.0. Releases after `newestRelease` are not judged.
 */
export const BOTTLEROCKET_K8S_VARIANTS = {
  source:
    "bottlerocket-os/bottlerocket: variants/aws-k8s-1.<minor> at each release tag v1.0.0 … v1.26.0 (85f0d68c), git ls-tree",
  oldestRelease: "1.0.0",
  newestRelease: "1.26.0",
  byMinor: {
    "1.15": { first: "1.0.0", last: "1.0.8" },
    "1.16": { first: "1.0.0", last: "1.1.4" },
    "1.17": { first: "1.0.0", last: "1.3.0" },
    "1.18": { first: "1.0.2", last: "1.7.2" },
    "1.19": { first: "1.0.5", last: "1.9.2" },
    "1.20": { first: "1.1.0", last: "1.10.1" },
    "1.21": { first: "1.1.2", last: "1.12.0" },
    "1.22": { first: "1.6.2", last: "1.14.3" },
    "1.23": { first: "1.8.0", last: "1.24.1" },
    "1.24": { first: "1.10.0" },
    "1.25": { first: "1.12.0" },
    "1.26": { first: "1.13.0" },
    "1.27": { first: "1.14.0" },
    "1.28": { first: "1.15.0" },
    "1.29": { first: "1.18.0" },
    "1.30": { first: "1.20.0" },
    "1.31": { first: "1.22.0" },
  } as { readonly [minor: string]: { readonly first: string; readonly last?: string } },
} as const;
