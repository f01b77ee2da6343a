import { IConstruct } from "constructs";
import type { IKarpenterCluster } from "./karpenter-cluster";
import { attached, register, registered } from "../core/app-index";

/*
 * What the app's EC2NodeClasses select subnets and security groups by, so that DiscoveryTags can
 * tell at synth whether the tags it writes are found (a tag value no EC2NodeClass selects marks
 * nothing Karpenter uses).
 */

/** The subnet and security group selector terms of one EC2NodeClass of the app. */
export interface NodeClassSelectors {
  readonly nodeClass: IConstruct;
  /** Its `metadata.name`. */
  readonly name: string;
  /** Its cluster (`cluster` or the installation's), when known. */
  readonly cluster?: IKarpenterCluster;
  /** The tag key of its default discovery term. */
  readonly tagKey: string;
  /** True when its subnet or security group terms are the default term `{ <tagKey>: <cluster name> }`. */
  readonly defaultTerms: boolean;
  /** Its subnet and security group terms, as emitted. */
  readonly terms: readonly unknown[];
}

const REGISTRY = "node-class-selectors";

/** Records the selector terms of an EC2NodeClass. */
export function registerSelectors(selectors: NodeClassSelectors): void {
  register(selectors.nodeClass, REGISTRY, selectors);
}

/** The selector terms of the EC2NodeClasses of the app that are in the tree. */
export function nodeClassSelectors(scope: IConstruct): NodeClassSelectors[] {
  return registered<NodeClassSelectors>(scope, REGISTRY).filter((s) => attached(s.nodeClass));
}
