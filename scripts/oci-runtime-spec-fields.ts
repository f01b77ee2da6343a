/*
 * Writes lib/versions/data/oci-runtime-spec-fields.json: the JSON fields of the OCI runtime spec's Go types
 * (github.com/opencontainers/runtime-spec specs-go/config.go: Spec and every struct it holds), each with its JSON kind,
 * at the version containerd 2.2.3's go.mod requires.
 *
 * Why: an AL2023 NodeConfig's `spec.containerd.baseRuntimeSpec` is merged by nodeadm over its default and written as
 * containerd's base runtime spec, which containerd's CRI plugin decodes into these types with Go's encoding/json when it
 * loads (lib/nodes/oci-spec-rules.ts): a value of the wrong JSON type fails the decode and the plugin does not load;
 * field names match exactly, else case-insensitively, and an unknown field is ignored. The parser is
 * scripts/k8s-api-fields.ts's, with Go's `int` / `uint` as 64-bit (the AMIs are x86_64 and arm64).
 *
 *   npx tsx scripts/oci-runtime-spec-fields.ts           write the table
 *   npx tsx scripts/oci-runtime-spec-fields.ts --check   exit 1 when the committed table differs
 */
import * as fs from "fs";
import * as path from "path";
import type { OciRuntimeSpecFields } from "../lib/versions/oci-runtime-spec";
import { moduleDir, renderTable, required, writeOrCheck } from "./go-module-table";
import { type GoTypeContext, type Parsed, parseTypes, reachable } from "./k8s-api-fields";

export const TABLE_FILE = path.resolve(__dirname, "../lib/versions/data/oci-runtime-spec-fields.json");

const CONTAINERD_MODULE = "github.com/containerd/containerd/v2";
const CONTAINERD_VERSION = "v2.2.3";
const SPEC_MODULE = "github.com/opencontainers/runtime-spec";
const TYPES_FILE = "specs-go/config.go";
export const ROOT = "specs.Spec";

/**
 * The package read, and the one type of another package it holds: os.FileMode (LinuxDevice.fileMode), a uint32
 * (Go's io/fs `type FileMode uint32`).
 */
const CONTEXT: GoTypeContext = {
  packages: { specs: { module: SPEC_MODULE, file: TYPES_FILE, imports: { os: "os" } } },
  qualified: { "os.FileMode": "uint32" },
  int64Words: true,
};

/** The fields of Spec and what it reaches, from the config.go text. */
export function specTypes(configGo: string): OciRuntimeSpecFields["types"] {
  const parsed: Parsed = { specs: parseTypes(configGo) };
  return reachable(parsed, [ROOT], CONTEXT);
}

/** The whole table, from the module cache. */
export function generate(): Record<string, OciRuntimeSpecFields> {
  const goMod = fs.readFileSync(path.join(moduleDir(CONTAINERD_MODULE, CONTAINERD_VERSION), "go.mod"), "utf8");
  const version = required(goMod, SPEC_MODULE);
  const text = fs.readFileSync(path.join(moduleDir(SPEC_MODULE, version), TYPES_FILE), "utf8");
  return {
    "2": {
      containerd: `${CONTAINERD_MODULE}@${CONTAINERD_VERSION}`,
      module: `${SPEC_MODULE}@${version}`,
      file: TYPES_FILE,
      root: ROOT,
      decodedBy:
        "containerd plugins/cri/runtime/plugin.go loadOCISpec (encoding/json Decoder: a wrong JSON type fails; field names match exactly, else case-insensitively; an unknown field is ignored)",
      assumption: `the runtime spec ${CONTAINERD_MODULE}@${CONTAINERD_VERSION}'s go.mod requires stands for the AMI's containerd: containerd 1.7 reads an older spec, whose fields are a subset of the same types`,
      types: specTypes(text),
    },
  };
}

/** The table as the committed file's text. */
export function render(table: Record<string, OciRuntimeSpecFields>): string {
  return renderTable("oci-runtime-spec-fields", "scripts/oci-runtime-spec-fields.ts", table);
}

if (require.main === module) writeOrCheck(TABLE_FILE, render(generate()));
