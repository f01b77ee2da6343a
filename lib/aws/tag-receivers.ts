import { TAG_APIS, TagReceiver } from "../aws-api/tag-rules";

/*
 * Which resources get the `tags` of each AWS building block, and the API that tags each: what
 * checkTags holds a tag to (private: the constructs and the install's props checks read them).
 */

/** What gets a node role's tags: the role it creates (none with `existingRole`) and the access entry. */
export function nodeRoleTagReceivers(existingRole: boolean): TagReceiver[] {
  return [
    ...(existingRole ? [] : [{ api: TAG_APIS.IAM, resource: "the node role" }]),
    { api: TAG_APIS.EKS, resource: "the node access entry" },
  ];
}

/** What gets a controller role's tags: the role, its policies and the Pod Identity association. */
export const CONTROLLER_ROLE_TAG_RECEIVERS: readonly TagReceiver[] = [
  { api: TAG_APIS.IAM, resource: "the controller role" },
  { api: TAG_APIS.IAM, resource: "its policies" },
  { api: TAG_APIS.EKS, resource: "the Pod Identity association" },
];

/** What gets an interruption queue's tags: the queue, its EventBridge rules and (with `kmsKey: InterruptionQueueKmsKey.create()`) its key. */
export function queueTagReceivers(createsKey: boolean): TagReceiver[] {
  return [
    { api: TAG_APIS.SQS, resource: "the interruption queue" },
    { api: TAG_APIS.EventBridge, resource: "the interruption rules" },
    ...(createsKey ? [{ api: TAG_APIS.KMS, resource: "the queue's key" }] : []),
  ];
}

/** What gets the spot service-linked role's tags: the role. */
export const SPOT_ROLE_TAG_RECEIVERS: readonly TagReceiver[] = [
  { api: TAG_APIS.IAM, resource: "the spot service-linked role" },
];
