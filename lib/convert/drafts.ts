import { Ec2NodeClassOptions, KubeletConfiguration } from "../nodes/ec2-node-class-spec";
import { NodeClassReference, NodePoolOptions } from "../nodes/node-pool-spec";
import type { ObjectCrdData, ObjectCrdKind } from "../versions";
import { Fields, ObjectContext } from "./fields";
import { ConversionSource } from "./types";
import { KarpenterVersion } from "../versions/karpenter-version";

/*
 * Objects being converted: filled by the per-kind readers, then completed by the passes that
 * need the whole input (kubelet move, validation) before they become results.
 */

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A NodePool being converted. */
export interface PoolDraft {
  readonly ctx: ObjectContext;
  readonly source: ConversionSource;
  readonly props: Mutable<NodePoolOptions> & { name: string };
  nodeClassRef?: NodeClassReference;
  /** A v1alpha5 / v1beta1 kubelet configuration that belongs on the EC2NodeClass in v1. */
  kubelet?: { readonly value: KubeletConfiguration; readonly field: string };
}

/** An EC2NodeClass being converted. */
export interface ClassDraft {
  readonly ctx: ObjectContext;
  readonly source: ConversionSource;
  readonly props: Mutable<Ec2NodeClassOptions> & { name: string };
}

/** A NodeOverlay or CapacityBuffer being read (its spec as the CRD's fields, carried over as written). */
export interface ObjectDraft {
  readonly kind: ObjectCrdKind;
  readonly ctx: ObjectContext;
  readonly source: ConversionSource;
  /** `<group>/<version>` of the output: the one the target release's CRD serves. */
  readonly apiVersion: string;
  /** `name`, `namespace` (namespaced kinds, when the input gave one) and the spec fields. */
  readonly props: { name: string; namespace?: string; [field: string]: unknown };
  /** The target release's CRD of the kind, to check the object against; undefined when that release lacks it. */
  readonly crd?: ObjectCrdData & { cel: string[] };
}

/** What one input object converts to (an inline provider gives a node class too). */
export interface Converted {
  readonly pool?: PoolDraft;
  readonly nodeClass?: ClassDraft;
  readonly object?: ObjectDraft;
}

/** What every per-kind converter receives. */
export interface ConvertInput {
  readonly ctx: ObjectContext;
  readonly source: ConversionSource;
  /** The `spec` of the object (an empty mapping when the object has none). */
  readonly spec: Fields;
  readonly role?: string;
  readonly legacyDefaults: boolean;
  /** The Karpenter version the output targets, whose CRD fields a v1 object may carry. */
  readonly version: KarpenterVersion;
}
