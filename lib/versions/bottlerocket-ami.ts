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
