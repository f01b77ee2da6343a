import {
  AmiFamily,
  AmiSelectorTerm,
  CapacityReservationSelectorTerm,
  ConnectionTracking,
  CpuOptions,
  NetworkInterface,
  PlacementGroupSelector,
  SecurityGroupSelectorTerm,
  SubnetSelectorTerm,
} from "../nodes/ec2-node-class-spec";
import { Budget, ConsolidationPolicy, DisruptionReason } from "../nodes/node-pool-spec";
import { Converted, ConvertInput } from "./drafts";
import {
  defined,
  noteMissingClassFields,
  readBlockDevices,
  readKubelet,
  readMetadataOptions,
  readTerms,
} from "./node-class-parts";
import { readNodeClassRef, readPoolTemplate, stateCapacityType } from "./node-pool-parts";
import { Fields, noteValue } from "./fields";
import { CrdKind, crdFieldSince, newestPatchOf, versionData } from "../versions";

/*
 * Objects that are already karpenter.sh/v1 NodePools or karpenter.k8s.aws/v1 EC2NodeClasses:
 * read field for field into props (the CRD v1.14.1 field set), so they can be fed to the
 * constructs like converted ones. Fields the CRD does not have are noted.
 */

const ALREADY_V1 = "already v1: carried over field for field";

/**
 * A v1 NodePool needs no conversion: it is read and type-checked so it can feed the NodePool
 * construct like a converted one; only the capacity-type requirement may be added.
 */
export function readV1NodePool(input: ConvertInput): Converted {
  const { ctx, spec } = input;
  ctx.note("info", "apiVersion", ALREADY_V1);
  const { pool, t } = readPoolTemplate(input);
  const p = pool.props;
  p.expireAfter = t.str("expireAfter");
  p.terminationGracePeriod = t.str("terminationGracePeriod");
  pool.nodeClassRef = readNodeClassRef(ctx, t, "nodeClassRef", true);
  if (!pool.nodeClassRef)
    ctx.invalid(
      "spec.template.spec.nodeClassRef",
      "no nodeClassRef: a v1 NodePool needs one; give the NodePool an EC2NodeClass (the NodePool construct's nodeClass)",
    );
  stateCapacityType(ctx, pool, "spec.template.spec.requirements", true);

  const d = spec.obj("disruption", "disruption { consolidationPolicy, consolidateAfter, budgets }");
  p.disruption =
    d &&
    defined({
      consolidationPolicy: d.str("consolidationPolicy") as ConsolidationPolicy | undefined,
      consolidateAfter: d.str("consolidateAfter"),
      budgets: d.objects("budgets", "a disruption budget { nodes, schedule, duration, reasons }")?.map((b) =>
        defined<Budget>({
          nodes: b.str("nodes"),
          schedule: b.str("schedule"),
          duration: b.str("duration"),
          reasons: b.strList("reasons") as DisruptionReason[] | undefined,
        }),
      ),
    });
  p.limits = spec.quantityMap("limits");
  p.weight = spec.int("weight");
  p.replicas = spec.int("replicas");
  carryOverCrdFields(input, "nodePool", "spec.template.spec", t, p);
  carryOverCrdFields(input, "nodePool", "spec", spec, p, ["template"]);
  return { pool };
}

/** Reads a v1 EC2NodeClass. */
export function readV1Ec2NodeClass(input: ConvertInput): Converted {
  const { ctx, spec: f, source } = input;
  ctx.note("info", "apiVersion", ALREADY_V1);
  const pg = f.obj("placementGroupSelector", "a placement group selector { id, name }");
  const ct = f.obj("connectionTracking", "connection tracking timeouts");
  const cpu = f.obj("cpuOptions", "CPU options");
  const props = defined({
    name: source.name,
    role: f.str("role"),
    instanceProfile: f.str("instanceProfile"),
    amiFamily: f.str("amiFamily") as AmiFamily | undefined,
    amiSelectorTerms: readTerms<AmiSelectorTerm>(f, "amiSelectorTerms", [
      "alias",
      "id",
      "name",
      "owner",
      "ssmParameter",
    ]),
    subnetSelectorTerms: readTerms<SubnetSelectorTerm>(f, "subnetSelectorTerms", ["id"]),
    securityGroupSelectorTerms: readTerms<SecurityGroupSelectorTerm>(f, "securityGroupSelectorTerms", ["id", "name"]),
    capacityReservationSelectorTerms: readTerms<CapacityReservationSelectorTerm>(
      f,
      "capacityReservationSelectorTerms",
      ["id", "ownerID", "instanceMatchCriteria"],
    ),
    associatePublicIPAddress: f.bool("associatePublicIPAddress"),
    blockDeviceMappings: readBlockDevices(ctx, f, "blockDeviceMappings", "v1"),
    context: f.str("context"),
    detailedMonitoring: f.bool("detailedMonitoring"),
    instanceStorePolicy: f.str("instanceStorePolicy") as "RAID0" | undefined,
    ipPrefixCount: f.int("ipPrefixCount"),
    kubelet: readKubelet(ctx, f, "kubelet", input.version),
    metadataOptions: readMetadataOptions(f, "metadataOptions"),
    networkInterfaces: f.objects("networkInterfaces", "a network interface")?.map(
      (n) =>
        defined({
          deviceIndex: n.int("deviceIndex"),
          interfaceType: n.str("interfaceType"),
          networkCardIndex: n.int("networkCardIndex"),
        }) as NetworkInterface,
    ),
    placementGroupSelector: pg && (defined({ id: pg.str("id"), name: pg.str("name") }) as PlacementGroupSelector),
    connectionTracking:
      ct &&
      (defined({
        tcpEstablishedTimeout: ct.int("tcpEstablishedTimeout"),
        udpStreamTimeout: ct.int("udpStreamTimeout"),
        udpTimeout: ct.int("udpTimeout"),
      }) as ConnectionTracking),
    cpuOptions: cpu && (defined({ nestedVirtualization: cpu.str("nestedVirtualization") }) as CpuOptions),
    tags: f.strMap("tags"),
    userData: f.str("userData"),
  });
  carryOverCrdFields(input, "ec2NodeClass", "spec", f, props);
  noteMissingClassFields(ctx, props, true);
  return { nodeClass: { ctx, source, props } };
}

/**
 * Carries over, as written, every key of `fields` (the object at `crdPath`) that no reader above took and that the
 * target version's CRD has (generated data): a field a newer release added is kept, and the construct validates it,
 * instead of being noted as "not a field". Keys the CRD lacks stay unread, so they are noted as before.
 */
function carryOverCrdFields(
  input: ConvertInput,
  kind: Extract<CrdKind, "nodePool" | "ec2NodeClass">,
  crdPath: string,
  fields: Fields,
  props: object,
  skip: readonly string[] = [],
): void {
  const known = versionData(input.version.factsMinor).crds[kind].fields;
  for (const key of fields.unused()) {
    if (skip.includes(key)) continue;
    if (!known.includes(`${crdPath}.${key}`)) {
      // a field of a newer release than the target: say which, rather than "not a field"
      const since = crdFieldSince(kind, `${crdPath}.${key}`);
      if (since !== undefined && !input.version.atLeast(since)) {
        fields.consume(key);
        input.ctx.note(
          "action",
          fields.at(key),
          `not converted: a field of the ${kind === "nodePool" ? "NodePool" : "EC2NodeClass"} CRD from Karpenter ${since}; this conversion targets Karpenter ${input.version.full}, which lacks it. Convert with --karpenter-version ${newestPatchOf(since) ?? `${since}.0`} (or another ${since}+ release) to keep it; value was ${noteValue(fields.peek(key))}`,
        );
      }
      continue;
    }
    const value = fields.raw(key);
    if (value === undefined) continue;
    (props as Record<string, unknown>)[key] = value;
    input.ctx.note(
      "info",
      fields.at(key),
      `carried over as written: a field of the ${kind === "nodePool" ? "NodePool" : "EC2NodeClass"} CRD of Karpenter ${input.version.full} (the construct validates it)`,
    );
  }
}
