import { deepLookup } from "../core/lookup";
import type { K8sApiFields } from "./k8s-api-fields";

/*
 * What the EKS-optimized AL2023 AMI's own nodeadm and build decide (lib/versions/data/eks-ami-facts.json): generated
 * by `npm run eks-ami-facts` (scripts/eks-ami-facts.ts) from a git snapshot of awslabs/amazon-eks-ami. Never written
 * by hand. Karpenter passes a user's NodeConfig on unchanged, so the nodeadm on the instance, not the one Karpenter's
 * go.mod pins (nodeadm-config.ts), decides which fields are read.
 */

/** The facts of one amazon-eks-ami snapshot. */
export interface EksAmiFacts {
  /** `github.com/awslabs/amazon-eks-ami`. */
  readonly repository: string;
  /** The commit read. */
  readonly commit: string;
  /** The newest AMI release the snapshot's CHANGELOG.md names (`v20260714`). */
  readonly newestRelease: string;
  /** Every AMI release the snapshot's CHANGELOG.md names, oldest first (all families share the release names). */
  readonly releases: readonly string[];
  /** The releases CHANGELOG.md marks `[ABANDONED]` (never published, so no AMI and no SSM parameter has them). */
  readonly abandoned: readonly string[];
  readonly nodeadm: {
    /** The types file read, and the struct `spec` decodes into. */
    readonly file: string;
    readonly root: string;
    /** How nodeadm decodes a NodeConfig. */
    readonly decodedBy: string;
    /** Struct → its JSON fields (case-sensitive) → kind, as in k8s-api-fields.ts. */
    readonly types: K8sApiFields["types"];
    /** `<struct>.<field>` → the first AMI release whose nodeadm has the field (`v20240424`). */
    readonly since: { readonly [typeField: string]: string };
    /** String enum (`v1alpha1.Feature`) → its values → the first AMI release that has the value. */
    readonly enums: { readonly [type: string]: { readonly [value: string]: string } };
  };
  /**
   * The Kubernetes minors each AMI release shipped AL2023 AMIs for: release (`v20250505`) → minors, oldest first
   * (`["1.26", …, "1.32"]`). Releases before v20240213 (no AL2023 tables in the CHANGELOG) are not listed.
   */
  readonly al2023Minors: {
    readonly source: string;
    readonly byRelease: { readonly [release: string]: readonly string[] };
  };
  /**
   * The Kubernetes minors each AMI release shipped AL2 AMIs for: release (`v20240117`) → minors, oldest first, from the
   * AL2 AMI names of its CHANGELOG entry. Releases naming no AL2 AMI are not listed.
   */
  readonly al2Minors: {
    readonly source: string;
    readonly byRelease: { readonly [release: string]: readonly string[] };
  };
  /** The AL2023 AMI's root volume snapshot size in GiB, and where it is set. */
  readonly al2023RootVolumeGiB: { readonly value: number; readonly file: string };
  /** What the AL2023 AMIs' containerd is, and what nodeadm makes of a NodeConfig's containerd config. */
  readonly containerd: {
    /** Where the versions are read. */
    readonly source: string;
    /** AMI release (`v20250704`) → Kubernetes minor (`1.33`) → the containerd it ships (`1.7.27`). */
    readonly al2023: { readonly [release: string]: { readonly [minor: string]: string } };
    /**
     * The first release whose nodeadm stops on containerd 1.x at a configuration naming io.containerd.cri.v1.images or
     * io.containerd.cri.v1.runtime ("failed to get config template version"), and the line of that error.
     */
    readonly v3KeysRefusedOn1: { readonly since: string; readonly at: string };
    /**
     * The runtime names nodeadm's template defines (`runc`, `nvidia`): where the name is set, whether it is the
     * default, and the binary whose presence on the instance selects it (the others').
     */
    readonly runtimes: {
      readonly [name: string]: { readonly at: string; readonly default: boolean; readonly binary?: string };
    };
  };
}

const FACTS: EksAmiFacts = deepLookup(require("./data/eks-ami-facts.json"));

/** The facts of the amazon-eks-ami snapshot read. */
export function eksAmiFacts(): EksAmiFacts {
  return FACTS;
}
