import { convertAwsNodeTemplate } from "./aws-node-template";
import { Converted, ConvertInput } from "./drafts";
import { convertProvisioner } from "./provisioner";
import { readV1Ec2NodeClass, readV1NodePool } from "./v1";
import { convertV1beta1Ec2NodeClass, convertV1beta1NodePool } from "./v1beta1";

/*
 * The converter's working parts, in one module that convert-legacy-manifests.ts loads on the first
 * conversion: the package entry exports convertLegacyManifests beside the constructs, and an app that
 * converts nothing should not load the readers of every legacy kind.
 */

export { escapeControls, noteValue, ObjectContext } from "./fields";
export { moveKubelet } from "./kubelet";
export { KUBELET_COMPATIBILITY, readMetadata } from "./metadata";
export { defined, readKubelet } from "./node-class-parts";
export { validateDrafts, validateObjectDrafts } from "./validate";
export { objectKindNamed, readObjectCrd, servedApiVersions } from "./crd-objects";

/** The readers, by `<apiVersion> <kind>`. */
export const CONVERTERS: { readonly [apiVersionKind: string]: (input: ConvertInput) => Converted } = {
  "karpenter.sh/v1alpha5 Provisioner": convertProvisioner,
  "karpenter.k8s.aws/v1alpha1 AWSNodeTemplate": convertAwsNodeTemplate,
  "karpenter.sh/v1beta1 NodePool": convertV1beta1NodePool,
  "karpenter.k8s.aws/v1beta1 EC2NodeClass": convertV1beta1Ec2NodeClass,
  "karpenter.sh/v1 NodePool": readV1NodePool,
  "karpenter.k8s.aws/v1 EC2NodeClass": readV1Ec2NodeClass,
};
