/*
 * What the CRDs' fields and enums cannot say, per Karpenter minor: values listed in CEL rules (alias families, the
 * `karpenter.k8s.aws` label keys), requirement values the controller accepts, and the pre-1.9 label-domain
 * restriction. When spec fields, enum values and free-form objects appeared is generated from every minor's CRDs
 * into lib/versions/data (`crdFieldSince`, `crdEnumValueSince`, `crdFreeFormSince` of lib/versions).
 */

/** Kubelet `maxPods`, `kubeReserved`, `systemReserved` as CEL expressions (AWS feature gate NodeClassCEL, alpha). */
export const KUBELET_EXPRESSIONS_SINCE = "1.15";

/**
 * `amiSelectorTerms[].alias` families added after 1.0 → first minor. The CRD lists the families in a CEL rule
 * (`self.alias.find(...) in [...]`), not an enum, so the generated enum history does not date them.
 */
export const ALIAS_FAMILY_SINCE: { readonly [family: string]: string } = {
  windows2025: "1.9",
};

/**
 * Keys of the `karpenter.k8s.aws` label domain that NodePool labels and requirements may use,
 * with the minor that allowed them (every other key of that domain is restricted).
 */
export const AWS_LABEL_KEYS_SINCE: { readonly [key: string]: string } = {
  "karpenter.k8s.aws/instance-encryption-in-transit-supported": "1.0",
  "karpenter.k8s.aws/instance-category": "1.0",
  "karpenter.k8s.aws/instance-hypervisor": "1.0",
  "karpenter.k8s.aws/instance-family": "1.0",
  "karpenter.k8s.aws/instance-generation": "1.0",
  "karpenter.k8s.aws/instance-local-nvme": "1.0",
  "karpenter.k8s.aws/instance-size": "1.0",
  "karpenter.k8s.aws/instance-cpu": "1.0",
  "karpenter.k8s.aws/instance-cpu-manufacturer": "1.0",
  "karpenter.k8s.aws/instance-memory": "1.0",
  "karpenter.k8s.aws/instance-ebs-bandwidth": "1.0",
  "karpenter.k8s.aws/instance-network-bandwidth": "1.0",
  "karpenter.k8s.aws/instance-gpu-name": "1.0",
  "karpenter.k8s.aws/instance-gpu-manufacturer": "1.0",
  "karpenter.k8s.aws/instance-gpu-count": "1.0",
  "karpenter.k8s.aws/instance-gpu-memory": "1.0",
  "karpenter.k8s.aws/instance-accelerator-name": "1.0",
  "karpenter.k8s.aws/instance-accelerator-manufacturer": "1.0",
  "karpenter.k8s.aws/instance-accelerator-count": "1.0",
  "karpenter.k8s.aws/ec2nodeclass": "1.1",
  "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz": "1.1",
  "karpenter.k8s.aws/capacity-reservation-id": "1.3",
  "karpenter.k8s.aws/capacity-reservation-type": "1.6",
  "karpenter.k8s.aws/instance-capability-flex": "1.7",
  "karpenter.k8s.aws/instance-tenancy": "1.9",
  "karpenter.k8s.aws/capacity-reservation-interruptible": "1.10",
  "karpenter.k8s.aws/placement-group-id": "1.11",
  "karpenter.k8s.aws/placement-group-partition": "1.11",
  // not karpenter.k8s.aws/nitro-sandbox: the released v1.15.0 CRDs keep it restricted
};

/**
 * Before 1.9 the NodePool CRD also restricted the `kubernetes.io` and `k8s.io` label domains,
 * except these keys, subdomains of `node.kubernetes.io` / `node-restriction.kubernetes.io`, and
 * `kops.k8s.io`. From 1.9 on, those domains are open (only `kubernetes.io/hostname` stays restricted).
 */
export const K8S_DOMAIN_RESTRICTED_UNTIL = "1.9";
export const K8S_DOMAIN_ALLOWED_KEYS: readonly string[] = [
  "beta.kubernetes.io/instance-type",
  "failure-domain.beta.kubernetes.io/region",
  "beta.kubernetes.io/os",
  "beta.kubernetes.io/arch",
  "failure-domain.beta.kubernetes.io/zone",
  "topology.kubernetes.io/zone",
  "topology.kubernetes.io/region",
  "node.kubernetes.io/instance-type",
  "kubernetes.io/arch",
  "kubernetes.io/os",
  "node.kubernetes.io/windows-build",
];

/** The `karpenter.sh/capacity-type` values and the minor that introduced each (`reserved`: capacity reservations, 1.3). */
export const CAPACITY_TYPES_SINCE: { readonly [value: string]: string } = {
  "on-demand": "1.0",
  spot: "1.0",
  reserved: "1.3",
};
