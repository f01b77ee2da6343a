import { isPlainMap } from "../core/deep-merge";
import { nearestKey } from "../core/problems";
import { describe, jsonKind, scalarFits } from "../kubernetes/json-kinds";

/*
 * The containerd base runtime spec an AL2023 NodeConfig's `spec.containerd.baseRuntimeSpec` writes, against the OCI
 * runtime spec's Go types. nodeadm merges the map over its default (dario.cat/mergo, override) and writes the result as
 * /etc/containerd/base-runtime-spec.json (amazon-eks-ami nodeadm internal/containerd/base_runtime_spec.go:19-38 and
 * internal/util/merge.go, at 81fec2e8); containerd's CRI plugin decodes that file into the OCI spec when it loads, and
 * does not load on an error ("failed to parse base OCI spec file": github.com/containerd/containerd v1.7.30
 * pkg/cri/server/service.go:197-200, :392-402; containerd 2 at 301026e5 plugins/cri/runtime/plugin.go:105-108,
 * :160-172), so the kubelet has no container runtime and the node never becomes Ready. Decoding is Go's encoding/json:
 * field names match exactly, else case-insensitively, and unknown fields are ignored.
 *
 * The merge reads both maps with json.Unmarshal into interface{} values, so every number passes through a float64:
 * 18446744073709551615 (RLIM_INFINITY) is written back as 18446744073709551616, which no uint64 holds. A 64-bit
 * field therefore takes only what a float64 rounds below 2^64 (2^63 for a signed one), as a JavaScript number is.
 */

/**
 * The parts of the OCI runtime spec modelled here (github.com/opencontainers/runtime-spec v1.2.1 specs-go/config.go):
 * Spec :6-34, Process :65-99, LinuxCapabilities :103-114, LinuxIOPriority :117-120, Box :139-144, User :147-158,
 * Root :161-166, Mount :169-183, POSIXRlimit :308-315, Linux :221-256 (its scalar and string fields; resources,
 * devices, seccomp and the rest are not judged), LinuxNamespace :259-265. Kinds as kubernetes/json-kinds.ts reads them;
 * Go's `int` and `uint` are 64-bit on the AMIs (x86_64, arm64).
 */
const OCI_TYPES: { readonly [type: string]: { readonly [field: string]: string } } = {
  Spec: {
    ociVersion: "string",
    process: "object:Process",
    root: "object:Root",
    hostname: "string",
    domainname: "string",
    mounts: "list:object:Mount",
    annotations: "map:string",
    linux: "object:Linux",
  },
  Process: {
    terminal: "boolean",
    consoleSize: "object:Box",
    user: "object:User",
    args: "list:string",
    commandLine: "string",
    env: "list:string",
    cwd: "string",
    capabilities: "object:LinuxCapabilities",
    rlimits: "list:object:POSIXRlimit",
    noNewPrivileges: "boolean",
    apparmorProfile: "string",
    oomScoreAdj: "int64",
    selinuxLabel: "string",
    ioPriority: "object:LinuxIOPriority",
  },
  LinuxCapabilities: {
    bounding: "list:string",
    effective: "list:string",
    inheritable: "list:string",
    permitted: "list:string",
    ambient: "list:string",
  },
  LinuxIOPriority: { class: "string", priority: "int64" },
  Box: { height: "uint64", width: "uint64" },
  User: { uid: "uint32", gid: "uint32", umask: "uint32", additionalGids: "list:uint32", username: "string" },
  Root: { path: "string", readonly: "boolean" },
  Mount: { destination: "string", type: "string", source: "string", options: "list:string" },
  POSIXRlimit: { type: "string", hard: "uint64", soft: "uint64" },
  Linux: {
    sysctl: "map:string",
    cgroupsPath: "string",
    namespaces: "list:object:LinuxNamespace",
    rootfsPropagation: "string",
    maskedPaths: "list:string",
    readonlyPaths: "list:string",
    mountLabel: "string",
  },
  LinuxNamespace: { type: "string", path: "string" },
};

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
 * What containerd cannot decode in a NodeConfig's `spec.containerd.baseRuntimeSpec` (`wrong`), and the rlimits runc
 * refuses when it starts a container (`rlimits`: a type it does not know, "wrong rlimit value", runc v1.3.3
 * rlimit_linux.go:28-33 from utils_linux.go:82-88; a null item is the zero rlimit, type ""). The value as
 * sigs.k8s.io/yaml hands it to the JSON decoder (core/go-yaml.ts).
 */
export function baseRuntimeSpecProblems(spec: unknown): {
  readonly wrong: BaseRuntimeSpecProblem[];
  readonly rlimits: BaseRuntimeSpecProblem[];
} {
  const wrong: BaseRuntimeSpecProblem[] = [];
  const rlimits: BaseRuntimeSpecProblem[] = [];
  const api = "OCI runtime-spec";
  const walk = (value: unknown, kind: string, path: (string | number)[], owner: string): void => {
    // null decodes as the zero value; mergo keeps the default under it
    if (value === null || value === undefined) return;
    const bad = (extra = ""): void => {
      wrong.push({
        path,
        problem: `is ${jsonKind(value)} (${JSON.stringify(value)?.slice(0, 60)}), where ${owner} takes ${describe(kind, api)}${extra}`,
      });
    };
    if (kind.startsWith("list:")) {
      if (!Array.isArray(value)) return bad();
      value.forEach((item, i) => walk(item, kind.slice(5), [...path, i], `${owner} (each item)`));
      return;
    }
    if (kind.startsWith("map:")) {
      if (!isPlainMap(value)) return bad();
      for (const [k, v] of Object.entries(value)) walk(v, kind.slice(4), [...path, k], `${owner} (each value)`);
      return;
    }
    if (kind.startsWith("object:")) {
      if (!isPlainMap(value)) return bad();
      const type = kind.slice(7);
      for (const [field, fieldKind] of Object.entries(OCI_TYPES[type])) {
        const found = goField(value, field);
        if (found) walk(found[1], fieldKind, [...path, found[0]], `${type}.${field}`);
      }
      return;
    }
    if (kind === "uint64" || kind === "int64") {
      if (!fits64(kind, value))
        bad(
          typeof value === "number" && Number.isInteger(value) && Math.abs(value) >= 2 ** 53
            ? ` (nodeadm's merge passes every number through a float64 and writes this one back as ${String(value)}, past ${kind})`
            : "",
        );
      return;
    }
    if (!scalarFits(kind, value)) bad();
  };
  walk(spec, "object:Spec", [], "Spec");
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
  return { wrong, rlimits };
}
