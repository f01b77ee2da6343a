import { goYaml, yaml } from "./yaml";
import { nodeClassSpecObject, specObject } from "../nodes/manifests";
import { ConversionNote, ConvertedObject, LegacyConversionResult } from "./types";
import { escapeControls } from "./fields";

/*
 * The converted objects as manifests, laid out as the NodePool / Ec2NodeClass / NodeOverlay / CapacityBuffer
 * constructs emit them (spec keys sorted), for `kubectl apply` or review. No construct defaults are added: what
 * the input did not say stays unsaid, and the notes say what v1 then does.
 */

/**
 * A converted object as a plain manifest (`apiVersion`, `kind`, `metadata.name`, `spec` with sorted keys): a
 * `karpenter.sh/v1` NodePool, a `karpenter.k8s.aws/v1` EC2NodeClass, or a NodeOverlay / CapacityBuffer of the API
 * version the target release serves (a CapacityBuffer with `metadata.namespace`, `default` when the input named
 * none, as the construct writes it). Unlike the NodePool and Ec2NodeClass constructs, no defaults are added (role,
 * selector terms); the capacity type is already stated by the conversion itself. NodeOverlays and CapacityBuffers
 * are the manifests their constructs emit.
 */
export function toV1Manifest(object: ConvertedObject): { [key: string]: unknown } {
  if (object.kind === "NodePool") {
    const {
      name: _n,
      labels,
      annotations,
      requirements,
      taints,
      startupTaints,
      expireAfter,
      terminationGracePeriod,
      ...rest
    } = object.props;
    return {
      apiVersion: "karpenter.sh/v1",
      kind: "NodePool",
      metadata: { name: object.name },
      spec: specObject({
        ...rest,
        template: {
          metadata: labels || annotations ? { annotations, labels } : undefined,
          spec: {
            expireAfter,
            nodeClassRef: object.nodeClassRef,
            requirements,
            startupTaints,
            taints,
            terminationGracePeriod,
          },
        },
      }),
    };
  }
  if (object.kind === "NodeOverlay") {
    const { name: _n, ...spec } = object.props;
    return {
      apiVersion: object.apiVersion,
      kind: object.kind,
      metadata: { name: object.name },
      spec: specObject(spec),
    };
  }
  if (object.kind === "CapacityBuffer") {
    const { name: _n, namespace: _ns, ...spec } = object.props;
    return {
      apiVersion: object.apiVersion,
      kind: object.kind,
      metadata: { name: object.name, namespace: object.namespace },
      spec: specObject(spec),
    };
  }
  const { name: _n, ...spec } = object.props;
  return {
    apiVersion: "karpenter.k8s.aws/v1",
    kind: "EC2NodeClass",
    metadata: { name: object.name },
    spec: nodeClassSpecObject(spec),
  };
}

/**
 * Every converted object as one multi-document YAML text (`---` between documents), in input
 * order. Strings that kubectl's YAML reader (go-yaml v2) would take for another type (`"yes"`, `"2"`,
 * `"0o7"`, `"0b-1"`) are quoted, keys too; long lines are not folded.
 */
export function toV1Yaml(result: LegacyConversionResult): string {
  return result.objects
    .map((o) => {
      const doc = new (yaml().Document)(toV1Manifest(o), { version: "1.1" });
      // the `yaml` package quotes what its YAML 1.1 schema would retype, which misses go-yaml v2's extra number
      // forms (strconv.ParseInt base 0: `0o7`, `0b-1`): a label value "0o7" printed plain would reach Karpenter as 7
      yaml().visit(doc, {
        Scalar(_key, node) {
          if (typeof node.value === "string" && !goYaml().goYamlReadsPlainAsText(node.value))
            node.type = "QUOTE_DOUBLE";
        },
      });
      return doc.toString({ lineWidth: 0 });
    })
    .join("---\n");
}

/**
 * Every note of a result as text lines, result-level notes first, then per object in order:
 * `document 1 Provisioner/default → NodePool/default: [action] spec.ttlSecondsUntilExpired: …`.
 */
export function formatNotes(result: LegacyConversionResult): string[] {
  // notes made here are escaped already; a note an app added to the result is escaped here
  const line = (prefix: string, n: ConversionNote) =>
    `${prefix}[${n.level}] ${escapeControls(n.field)}: ${escapeControls(n.message)}`;
  const top = result.notes.map((n) => line("", n));
  const perObject = result.objects.flatMap((o) => {
    const item = o.source.item !== undefined ? ` items[${o.source.item}]` : "";
    const prefix = escapeControls(
      `document ${o.source.document}${item} ${o.source.kind}/${o.source.name} → ${o.kind}/${o.name}: `,
    );
    return o.notes.map((n) => line(prefix, n));
  });
  return [...top, ...perObject];
}
