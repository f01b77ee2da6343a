import { IConstruct } from "constructs";
import { Release } from "@cdktf/provider-helm/lib/release";
import { IKarpenterCluster } from "./karpenter-cluster";

/**
 * What node objects (EC2NodeClass, NodePool, NodeOverlay, CapacityBuffer) need to know about a Karpenter install: the cluster,
 * the version (it decides which CRD fields exist), the node role, and the controller release they
 * are ordered after (so `terraform destroy` removes NodePools, then EC2NodeClasses — whose
 * finalizer waits for every NodeClaim's instance — and only then the controller).
 *
 * `Karpenter` implements it; a hand-composed install can implement it too.
 */
export interface IKarpenterInstallation extends IConstruct {
  /** The cluster Karpenter runs on. */
  readonly cluster: IKarpenterCluster;
  /** The Karpenter version, e.g. `"1.14.1"`. */
  readonly version: string;
  /** The namespace of the controller release, e.g. `"kube-system"`. */
  readonly namespace: string;
  /** The name of the IAM role Karpenter nodes get (EC2NodeClass `spec.role`). */
  readonly nodeRoleName: string;
  /** The controller Helm release: node objects are ordered after it. */
  readonly release: Release;
  /** True when this install creates the `spot.amazonaws.com` service-linked role (NodePools that allow spot warn otherwise). */
  readonly createsSpotServiceLinkedRole: boolean;
  /**
   * The tag key the cluster's subnets and security group carry for Karpenter (value: the cluster
   * name): the key of the default selector terms of its EC2NodeClasses.
   * @default "karpenter.sh/discovery"
   */
  readonly discoveryTagKey?: string;
  /**
   * Whether the install turns on the AWS feature gate NodeClassCEL (`settings.awsFeatureGates.nodeClassCEL`,
   * Karpenter 1.15+), which EC2NodeClass kubelet expressions need: true, false, or undefined when not known
   * at synth (a token, or a hand-composed install that does not say; its classes then get a warning).
   * @default undefined
   */
  readonly nodeClassCel?: boolean;
  /**
   * Whether the install turns on the feature gate NodeOverlay (`settings.featureGates.nodeOverlay`, Karpenter
   * 1.7+), which NodeOverlays need: true, false, or undefined when not known at synth (a token, or a hand-composed
   * install that does not say; its NodeOverlays then get a warning, and with false an error).
   * @default undefined
   */
  readonly nodeOverlayGate?: boolean;
  /**
   * Whether the install turns on the feature gate CapacityBuffer (`settings.featureGates.capacityBuffer`,
   * Karpenter 1.14+), which CapacityBuffers need: true, false, or undefined when not known at synth (its
   * CapacityBuffers then get a warning, and with false an error).
   * @default undefined
   */
  readonly capacityBufferGate?: boolean;
}
