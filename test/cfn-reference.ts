import * as fs from "fs";
import * as path from "path";
import YAML from "yaml";
import { ControllerPolicySymbols } from "../lib/aws/controller-policy";
import { referenceRoot, referenceVersionsWith } from "./reference";

/*
 * Reads the upstream getting-started CloudFormation templates kept in shared/reference/karpenter/
 * (outside the repo), for tests that hold our tables against them. Absent folder = no versions,
 * and those tests are skipped.
 */

/** The versions with a cloudformation.yaml, e.g. `["1.0.14", …]`. */
export function referenceVersions(): string[] {
  return referenceVersionsWith("cloudformation.yaml");
}

/** The symbols the template's interpolations become; our tables are called with the same ones. */
export const SYMBOLS: Required<Omit<ControllerPolicySymbols, "kmsKeyArn">> = {
  partition: "{partition}",
  region: "{region}",
  account: "{account}",
  clusterName: "{cluster}",
  clusterArn: "arn:{partition}:eks:{region}:{account}:cluster/{cluster}",
  nodeRoleArn: "{node_role_arn}",
  queueArn: "{queue_arn}",
};

const CFN_NAMES: Record<string, string> = {
  "AWS::Partition": SYMBOLS.partition,
  "AWS::Region": SYMBOLS.region,
  "AWS::AccountId": SYMBOLS.account,
  "AWS::URLSuffix": "{url_suffix}",
  ClusterName: SYMBOLS.clusterName,
  "KarpenterNodeRole.Arn": SYMBOLS.nodeRoleArn,
  "KarpenterInterruptionQueue.Arn": SYMBOLS.queueArn,
  KarpenterInterruptionQueue: "{queue_url}",
};

const name = (k: string) => {
  if (!(k in CFN_NAMES)) throw new Error(`unknown CloudFormation reference ${k}`);
  return CFN_NAMES[k];
};

// the templates only use the scalar forms of these tags
const CFN_TAGS = [
  { tag: "!Sub", resolve: (s: string) => s.replace(/\$\{([^}]+)\}/g, (_: string, k: string) => name(k)) },
  { tag: "!GetAtt", resolve: (s: string) => name(s) },
  { tag: "!Ref", resolve: (s: string) => name(s) },
];

/** What our tables model, read from one version's template (interpolations replaced by {@link SYMBOLS}). */
export interface Reference {
  nodeRoleTrustService: string;
  nodeRolePolicyArns: string[];
  policies: { logicalId: string; name: string; statements: any[] }[];
  queue: Record<string, unknown>;
  queuePolicy: { Id: string; Statement: any[] };
  rules: { logicalId: string; pattern: any; targets: { Id: string; Arn: string }[] }[];
}

/** Parses `<reference root>/v<version>/cloudformation.yaml`. */
export function loadReference(version: string): Reference {
  const text = fs.readFileSync(path.join(referenceRoot(), `v${version}`, "cloudformation.yaml"), "utf8");
  const resources: Record<string, any> = YAML.parse(text, { customTags: CFN_TAGS }).Resources;
  const ofType = (t: string) => Object.entries(resources).filter(([, r]) => r.Type === t);
  const node = resources.KarpenterNodeRole.Properties;
  return {
    nodeRoleTrustService: node.AssumeRolePolicyDocument.Statement[0].Principal.Service,
    nodeRolePolicyArns: node.ManagedPolicyArns,
    policies: ofType("AWS::IAM::ManagedPolicy").map(([logicalId, r]) => ({
      logicalId,
      name: r.Properties.ManagedPolicyName,
      statements: JSON.parse(r.Properties.PolicyDocument).Statement,
    })),
    queue: ofType("AWS::SQS::Queue")[0][1].Properties,
    queuePolicy: ofType("AWS::SQS::QueuePolicy")[0][1].Properties.PolicyDocument,
    rules: ofType("AWS::Events::Rule").map(([logicalId, r]) => ({
      logicalId,
      pattern: r.Properties.EventPattern,
      targets: r.Properties.Targets,
    })),
  };
}

/** The corrected statement of every controller-statement erratum (ERRATA.json of the reference root) that applies to `version`, by Sid. */
export function errataCorrections(version: string): Record<string, any> {
  const file = path.join(referenceRoot(), "ERRATA.json");
  if (!fs.existsSync(file)) return {};
  const cmp = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true });
  const sub = (v: any): any =>
    Array.isArray(v)
      ? v.map(sub)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sub(x)]))
        : typeof v === "string"
          ? v.replace(/\$\{([^}]+)\}/g, (_: string, k: string) => name(k))
          : v;
  const out: Record<string, any> = {};
  for (const e of JSON.parse(fs.readFileSync(file, "utf8")).errata) {
    if (e.kind === "controller-statement" && cmp(version, e.versions.from) >= 0 && cmp(version, e.versions.to) <= 0)
      out[e.sid] = sub(e.corrected);
  }
  return out;
}
