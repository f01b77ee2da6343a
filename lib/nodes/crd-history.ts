/*
 * When NodePool / EC2NodeClass fields, enum values and label keys first appeared, per Karpenter
 * minor. Read from pkg/apis/crds/{karpenter.sh_nodepools,karpenter.k8s.aws_ec2nodeclasses}.yaml of
 * aws/karpenter-provider-aws at every release tag v1.0.0 … v1.14.1 (patches of a minor never
 * changed these CRDs), and for 1.15 from the v1.15.0 reference folder (its SOURCES.md: main of
 * 2026-08-21 plus the documented enclaveOptions). Local copies of v1.0.14, v1.13.1, v1.14.1 and
 * v1.15.0 are in shared/reference/karpenter/<version>/crds.
 */

/** NodePool spec fields (CRD path) → first minor. Fields absent here exist since 1.0. */
export const NODEPOOL_FIELDS_SINCE: { readonly [crdPath: string]: string } = {
  "spec.replicas": "1.8",
};

/** EC2NodeClass spec fields (CRD path) → first minor. Fields absent here exist since 1.0. */
export const EC2NODECLASS_FIELDS_SINCE: { readonly [crdPath: string]: string } = {
  "spec.capacityReservationSelectorTerms": "1.3",
  "spec.amiSelectorTerms[].ssmParameter": "1.4",
  "spec.blockDeviceMappings[].ebs.volumeInitializationRate": "1.5",
  "spec.capacityReservationSelectorTerms[].instanceMatchCriteria": "1.8",
  "spec.ipPrefixCount": "1.8",
  "spec.networkInterfaces": "1.11",
  "spec.placementGroupSelector": "1.11",
  "spec.connectionTracking": "1.13",
  "spec.cpuOptions": "1.13",
  "spec.enclaveOptions": "1.15",
};

/**
 * Objects the CRD stops judging (`x-kubernetes-preserve-unknown-fields`) → first minor: from 1.15 any
 * KubeletConfiguration field passes the API server, and the controller decides per AMI family.
 */
export const FREE_FORM_SINCE: { readonly [crdPath: string]: string } = {
  "spec.kubelet": "1.15",
};

/** Kubelet `maxPods`, `kubeReserved`, `systemReserved` as CEL expressions (AWS feature gate NodeClassCEL, alpha). */
export const KUBELET_EXPRESSIONS_SINCE = "1.15";

/** Enum values added after 1.0: `<CRD path>=<value>` → first minor. */
export const ENUM_VALUES_SINCE: { readonly [pathAndValue: string]: string } = {
  "spec.template.spec.requirements[].operator=Gte": "1.9",
  "spec.template.spec.requirements[].operator=Lte": "1.9",
  "spec.disruption.consolidationPolicy=Balanced": "1.14",
  // node repair as a disruption method
  "spec.disruption.budgets[].reasons[]=Unhealthy": "1.15",
  "spec.amiFamily=Windows2025": "1.9",
  "spec.amiSelectorTerms[].alias=windows2025": "1.9",
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
