/*
 * Writes lib/versions/data/nodeadm-config-fields.json: the JSON fields of nodeadm's NodeConfig v1alpha1 `spec`
 * (api/v1alpha1/nodeconfig_types.go: NodeConfigSpec and the structs it holds), each with its JSON kind, for each
 * Karpenter minor whose provider go.mod is read here (1.14.1, 1.15.0: both pin the same nodeadm).
 *
 * Why: an AL2023 `userData` NodeConfig (the document itself, or an `application/node.eks.aws` MIME part) is passed
 * on by Karpenter unchanged, and nodeadm decodes it (internal/configprovider/userdata.go:96-103 →
 * internal/api/bridge/decode.go:14-24, `serializer.NewCodecFactory(scheme).UniversalDecoder().Decode`). The codec
 * factory is not strict (k8s.io/apimachinery v0.29.1, nodeadm's go.mod, pkg/runtime/serializer/codec_factory.go:
 * 176-177, `CodecFactoryOptions{Pretty: true}`; json/json.go:257-258 non-strict: sigs.k8s.io/json
 * UnmarshalCaseSensitivePreserveInts): a value of the wrong JSON type fails the decode, while an unknown or
 * wrongly cased field is dropped. The parser is scripts/k8s-api-fields.ts's.
 *
 *   npx tsx scripts/nodeadm-config-fields.ts           write the table
 *   npx tsx scripts/nodeadm-config-fields.ts --check   exit 1 when the committed table differs
 */
import * as fs from "fs";
import * as path from "path";
import type { NodeadmConfigFields } from "../lib/versions/nodeadm-config";
import { moduleDir, renderTable, required, writeOrCheck } from "./go-module-table";
import { type GoTypeContext, type Parsed, parseTypes, reachable } from "./k8s-api-fields";

export const TABLE_FILE = path.resolve(__dirname, "../lib/versions/data/nodeadm-config-fields.json");

const PROVIDER_MODULE = "github.com/aws/karpenter-provider-aws";
/** The provider releases read, by minor. */
const PROVIDERS: Record<string, string> = { "1.14": "v1.14.1", "1.15": "v1.15.0" };
const NODEADM_MODULE = "github.com/awslabs/amazon-eks-ami/nodeadm";
const TYPES_FILE = "api/v1alpha1/nodeconfig_types.go";
export const ROOT = "v1alpha1.NodeConfigSpec";

/**
 * The package read, and the one type of another package the spec holds: runtime.RawExtension (kubelet.config's map
 * values) takes any JSON (k8s.io/apimachinery pkg/runtime/extension.go, RawExtension.UnmarshalJSON keeps the bytes).
 */
const CONTEXT: GoTypeContext = {
  packages: {
    v1alpha1: {
      module: NODEADM_MODULE,
      file: TYPES_FILE,
      imports: { metav1: "meta/v1", runtime: "runtime" },
    },
  },
  qualified: { "runtime.RawExtension": "raw" },
};

/** The fields of NodeConfigSpec and what it reaches, from the types.go text. */
export function specTypes(typesGo: string): NodeadmConfigFields["types"] {
  const parsed: Parsed = { v1alpha1: parseTypes(typesGo) };
  return reachable(parsed, [ROOT], CONTEXT);
}

/** The whole table, from the module cache. */
export function generate(): Record<string, NodeadmConfigFields> {
  const out: Record<string, NodeadmConfigFields> = {};
  for (const [minor, version] of Object.entries(PROVIDERS)) {
    const goMod = fs.readFileSync(path.join(moduleDir(PROVIDER_MODULE, version), "go.mod"), "utf8");
    const nodeadm = required(goMod, NODEADM_MODULE);
    const text = fs.readFileSync(path.join(moduleDir(NODEADM_MODULE, nodeadm), TYPES_FILE), "utf8");
    out[minor] = {
      provider: `${PROVIDER_MODULE}@${version}`,
      module: `${NODEADM_MODULE}@${nodeadm}`,
      file: TYPES_FILE,
      root: ROOT,
      decodedBy:
        "nodeadm internal/api/bridge/decode.go:14-24 (UniversalDecoder of a default CodecFactory: not strict) → k8s.io/apimachinery v0.29.1 pkg/runtime/serializer/json/json.go:257-258 (sigs.k8s.io/json UnmarshalCaseSensitivePreserveInts: a wrong JSON type fails; an unknown or wrongly cased field is dropped)",
      assumption: `the nodeadm ${PROVIDER_MODULE}@${version}'s go.mod pins stands for the one on the AMI: a newer AMI's nodeadm may know fields this table does not`,
      types: specTypes(text),
    };
  }
  return out;
}

/** The table as the committed file's text. */
export function render(table: Record<string, NodeadmConfigFields>): string {
  return renderTable("nodeadm-config-fields", "scripts/nodeadm-config-fields.ts", table);
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
