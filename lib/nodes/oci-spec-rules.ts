import { isPlainMap } from "../core/deep-merge";
import { nearestKey } from "../core/problems";
import { describe, jsonKind, KindVisitor, scalarFits, walkKinds } from "../kubernetes/json-kinds";
import { ociRuntimeSpecFields } from "../versions/oci-runtime-spec";

/*
 * The containerd base runtime spec an AL2023 NodeConfig's `spec.containerd.baseRuntimeSpec` writes, against the OCI
 * runtime spec's Go types. nodeadm merges the map over its default (dario.cat/mergo, override) and writes the result as
 * /etc/containerd/base-runtime-spec.json (amazon-eks-ami nodeadm internal/containerd/base_runtime_spec.go:19-38 and
 * internal/util/merge.go, at 81fec2e8); containerd's CRI plugin decodes that file into the OCI spec when it loads, and
 * does not load on an error ("failed to parse base OCI spec file": github.com/containerd/containerd v1.7.30
 * pkg/cri/server/service.go:197-200, :392-402; containerd 2 at 301026e5 plugins/cri/runtime/plugin.go:105-108,
 * :160-172), so the kubelet has no container runtime and the node never becomes Ready. Decoding is Go's encoding/json:
 * field names match exactly, else case-insensitively, and unknown fields are ignored. The types: the OCI runtime spec's
 * Go structs as lib/versions/data/oci-runtime-spec-fields.json holds them (generated from the runtime-spec containerd 2
 * requires; Go's `int` and `uint` are 64-bit on the AMIs).
 *
 * The merge reads both maps with json.Unmarshal into interface{} values, so every number passes through a float64:
 * 18446744073709551615 (RLIM_INFINITY) becomes 2^64 and is written back as 18446744073709552000, which no uint64 holds. A 64-bit
 * field therefore takes only what a float64 rounds below 2^64 (2^63 for a signed one), as a JavaScript number is.
 */

/** Where the types are from, for a message: the runtime-spec module and file the table was generated from. */
export const OCI_SPEC_SOURCE = (() => {
  const t = ociRuntimeSpecFields();
  return `${t.module} ${t.file}, as ${t.containerd.replace(/^github\.com\/containerd\//, "containerd ")} requires`;
})();

/** The rlimit names runc knows (github.com/opencontainers/runc v1.3.3 rlimit_linux.go:9-26, rlimitMap). */
export const RUNC_RLIMITS = [
  "RLIMIT_CPU",
  "RLIMIT_FSIZE",
  "RLIMIT_DATA",
  "RLIMIT_STACK",
  "RLIMIT_CORE",
  "RLIMIT_RSS",
  "RLIMIT_NPROC",
  "RLIMIT_NOFILE",
  "RLIMIT_MEMLOCK",
  "RLIMIT_AS",
  "RLIMIT_LOCKS",
  "RLIMIT_SIGPENDING",
  "RLIMIT_MSGQUEUE",
  "RLIMIT_NICE",
  "RLIMIT_RTPRIO",
  "RLIMIT_RTTIME",
];

/** One problem of a base runtime spec, at its path below `spec.containerd.baseRuntimeSpec`. */
export interface BaseRuntimeSpecProblem {
  readonly path: readonly (string | number)[];
  readonly problem: string;
}

/** A field of `table` as Go's encoding/json finds it: the exact name, else the first case-insensitive match. */
function goField(table: Record<string, unknown>, field: string): [string, unknown] | undefined {
  if (Object.prototype.hasOwnProperty.call(table, field)) return [field, table[field]];
  const k = Object.keys(table).find((x) => x.toLowerCase() === field.toLowerCase());
  return k === undefined ? undefined : [k, table[k]];
}

/** Whether a number survives the float64 of nodeadm's merge into a 64-bit integer field (see the file's comment). */
function fits64(kind: string, value: unknown): boolean {
  if (typeof value !== "number" || !Number.isInteger(value)) return false;
  return kind === "uint64" ? value >= 0 && value < 2 ** 64 : value >= -(2 ** 63) && value < 2 ** 63;
}

/**
 * What containerd cannot decode in a NodeConfig's `spec.containerd.baseRuntimeSpec` (`wrong`), the fields it ignores or
 * a default may override (`ignored`: unknown, or written in another case, warnings), and the rlimits runc
 * refuses when it starts a container (`rlimits`: a type it does not know, "wrong rlimit value", runc v1.3.3
 * rlimit_linux.go:28-33 from utils_linux.go:82-88; a null item is the zero rlimit, type ""). The value as
 * sigs.k8s.io/yaml hands it to the JSON decoder (core/go-yaml.ts).
 */
export function baseRuntimeSpecProblems(spec: unknown): {
  readonly wrong: BaseRuntimeSpecProblem[];
  readonly rlimits: BaseRuntimeSpecProblem[];
  readonly ignored: BaseRuntimeSpecProblem[];
} {
  const { types, root } = ociRuntimeSpecFields();
  const wrong: BaseRuntimeSpecProblem[] = [];
  const rlimits: BaseRuntimeSpecProblem[] = [];
  const ignored: BaseRuntimeSpecProblem[] = [];
  const api = "OCI runtime-spec";
  const visit: KindVisitor<string | number> = {
    bad: (value, kind, path, owner) => {
      // a number past 2^53 in a 64-bit field: the float64 of nodeadm's merge is why it fails (see the file's comment)
      const rounded =
        (kind === "uint64" || kind === "int64") &&
        typeof value === "number" &&
        Number.isInteger(value) &&
        Math.abs(value) >= 2 ** 53;
      wrong.push({
        path,
        problem: `is ${jsonKind(value)} (${JSON.stringify(value)?.slice(0, 60)}), where ${owner} takes ${describe(kind, api)}${rounded ? ` (nodeadm's merge passes every number through a float64 and writes this one back as ${String(value)}, past ${kind})` : ""}`,
      });
    },
    object: (value, type, path, walk) => {
      const fields = types[type]?.fields;
      if (!fields) throw new Error(`no type ${type} in oci-runtime-spec-fields.json`);
      const names = Object.keys(fields);
      for (const [k, v] of Object.entries(value)) {
        const field = names.includes(k) ? k : names.find((n) => n.toLowerCase() === k.toLowerCase());
        if (field === undefined) {
          const near = nearestKey(k, names);
          ignored.push({
            path: [...path, k],
            problem: `is no field of the OCI runtime spec's ${type.slice(6)}${near ? ` (did you mean ${near}?)` : ""}, and containerd ignores it: the setting never reaches a container`,
          });
          continue;
        }
        // in a list item nothing is merged (nodeadm's merge replaces a list whole): another case is just taken there
        if (field !== k && !path.some((p) => typeof p === "number"))
          ignored.push({
            path: [...path, k],
            problem: `is ${field} written in another case: Go's decoder takes it, but where nodeadm's default spec holds ${field} too, the merged file has both keys and the default's, sorted after it, wins; write ${field}`,
          });
        walk(v, fields[field], [...path, k], `${type.slice(6)}.${field}`);
      }
    },
    scalar: (value, kind) => (kind === "uint64" || kind === "int64" ? fits64(kind, value) : scalarFits(kind, value)),
  };
  walkKinds(spec, `object:${root}`, [], "Spec", visit);
  // the rlimits runc refuses: only those containerd could decode (a decode error stops the node first)
  const process = isPlainMap(spec) ? goField(spec, "process") : undefined;
  const list = process && isPlainMap(process[1]) ? goField(process[1], "rlimits") : undefined;
  if (list && Array.isArray(list[1]))
    list[1].forEach((item, i) => {
      const path = [process![0], list[0], i];
      if (wrong.some((w) => path.every((p, j) => w.path[j] === p))) return;
      if (item === null) return void rlimits.push({ path, problem: 'is null, the zero rlimit (type "")' });
      if (!isPlainMap(item)) return;
      const type = goField(item, "type")?.[1];
      if (typeof type === "string" && RUNC_RLIMITS.includes(type)) return;
      const near = typeof type === "string" ? nearestKey(type.toUpperCase(), RUNC_RLIMITS) : undefined;
      rlimits.push({
        path: [...path, "type"],
        problem: `is ${type === undefined ? 'missing (type "")' : JSON.stringify(type)}${near ? ` (did you mean ${near}?)` : ""}`,
      });
    });
  return { wrong, rlimits, ignored };
}
