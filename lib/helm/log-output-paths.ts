import { posix } from "path";
import { IConstruct } from "constructs";
import { Annotations } from "cdktf";
import { isPlainMap } from "../core/deep-merge";
import { KarpenterValidationError } from "../core/errors";
import { Problems } from "../core/problems";
import { isUnresolved } from "../core/tokens";
import { KarpenterVersion } from "../versions/karpenter-version";
import { ControllerEnv, literalEnvValue } from "./controller-env";

/*
 * Where the controller writes its logs: the chart joins `logOutputPaths` / `logErrorOutputPaths` with "," into
 * LOG_OUTPUT_PATHS / LOG_ERROR_OUTPUT_PATHS (charts/karpenter/templates/deployment.yaml of 1.15.0 :101-108, in every
 * release from 1.0), a `values.controller.env` entry of that name replaces it, and the controller splits the value
 * at "," and hands each element to zap (sigs.k8s.io/karpenter v1.15.0 and v1.14.1 pkg/operator/logging/logging.go:73-74),
 * which opens every one at start and on any failure panics (`lo.Must(...Build())`, :80): the controller crash-loops.
 * zap v1.28.0 sink.go:93-159 (newSink): "stdout" and "stderr" are the streams; an absolute path is a file; anything
 * else is parsed as a URL, of which only the "file" scheme has a sink (the controller registers none), with no
 * user, port, query or fragment, and a host that is empty or "localhost"; a relative path is a file in the working
 * directory. Files open with O_WRONLY|O_APPEND|O_CREATE, and the chart runs the container with
 * `readOnlyRootFilesystem: true` and `runAsUser: 65532` (deployment.yaml:66-71 of 1.15.0, not a value in any release),
 * so a file opens only in a writable volume the values mount.
 */

/** A mount of the controller container (values.controller.extraVolumeMounts), as far as synth knows it. */
export interface LogMount {
  /** The mount path, normalized. */
  readonly mountPath: string;
  /** Why nothing can be written there (a readOnly mount, a volume the kubelet mounts read-only), else undefined. */
  readonly readOnly?: string;
  /** The prop, e.g. `values.controller.extraVolumeMounts[0]`. */
  readonly field: string;
}

/** What is known of one path element. */
export interface LogPathFinding {
  /** What the controller does with it that makes it panic at start (refused). */
  readonly problem?: string;
  /** What depends on something outside the app (warned). */
  readonly warning?: string;
}

/** The paths the container runtime provides writable (the OCI default devices and the process's own descriptors). */
const RUNTIME_STREAMS = [
  "/dev/stdout",
  "/dev/stderr",
  "/dev/null",
  "/dev/fd/1",
  "/dev/fd/2",
  "/proc/self/fd/1",
  "/proc/self/fd/2",
];
// volumes the kubelet always mounts read-only (k8s.io/kubernetes v1.36.3 pkg/volume/configmap/configmap.go:160,
// secret/secret.go:166, downwardapi/downwardapi.go:156, projected/projected.go:175, image/image.go:77: `ReadOnly: true`)
const READ_ONLY_SOURCES: Readonly<Record<string, string>> = {
  configMap: "configmap/configmap.go:160",
  secret: "secret/secret.go:166",
  downwardAPI: "downwardapi/downwardapi.go:156",
  projected: "projected/projected.go:175",
  image: "image/image.go:77",
};
const PANIC =
  "the controller panics at start and crash-loops (sigs.k8s.io/karpenter pkg/operator/logging/logging.go:80, lo.Must)";

/**
 * The controller's mounts from `values`: undefined when one is not known at synth (a token), so that no absolute path
 * is refused for lying outside them.
 */
export function logMounts(values: Record<string, unknown>): LogMount[] | undefined {
  const controller = isPlainMap(values.controller) ? values.controller : {};
  const list = controller.extraVolumeMounts;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list) || isUnresolved(list)) return undefined;
  const sources = new Map<string, string>();
  if (Array.isArray(values.extraVolumes))
    for (const v of values.extraVolumes)
      if (isPlainMap(v) && typeof v.name === "string") {
        const source = Object.keys(READ_ONLY_SOURCES).find((s) => v[s] !== undefined && v[s] !== null);
        if (source) sources.set(v.name, source);
      }
  const mounts: LogMount[] = [];
  for (const [i, m] of list.entries()) {
    if (!isPlainMap(m)) continue;
    if (typeof m.mountPath !== "string" || isUnresolved(m.mountPath) || isUnresolved(m.readOnly)) return undefined;
    const field = `values.controller.extraVolumeMounts[${i}]`;
    const source = typeof m.name === "string" ? sources.get(m.name) : undefined;
    const readOnly =
      m.readOnly === true
        ? `${field} mounts it with readOnly: true`
        : source
          ? `${field} mounts a ${source} volume, which the kubelet always mounts read-only (k8s.io/kubernetes v1.36.3 pkg/volume/${READ_ONLY_SOURCES[source]}, ReadOnly: true)`
          : undefined;
    mounts.push({ mountPath: posix.normalize(m.mountPath), readOnly, field });
  }
  return mounts;
}

/** A file path as Go's net/url unescapes it (%XX), undefined when an escape is invalid (url.Parse fails). */
function unescape(p: string): string | undefined {
  if (/%(?![0-9A-Fa-f]{2})/.test(p)) return undefined;
  return p.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** What happens to one absolute file path (already unescaped). */
function fileFinding(file: string, mounts: readonly LogMount[] | undefined): LogPathFinding {
  const p = posix.normalize(file);
  if (RUNTIME_STREAMS.includes(p)) return {};
  const mount = (mounts ?? [])
    .filter((m) => p === m.mountPath || p.startsWith(m.mountPath === "/" ? "/" : `${m.mountPath}/`))
    .sort((a, b) => b.mountPath.length - a.mountPath.length)[0];
  if (mount?.readOnly)
    return {
      problem: `a file in a writable volume: ${mount.readOnly}, so zap cannot create ${JSON.stringify(p)} and ${PANIC}`,
    };
  if (mount)
    return {
      warning:
        p === mount.mountPath
          ? `${JSON.stringify(p)} is the mount point of ${mount.field} itself: unless its subPath is a file, zap opens a directory for writing, fails and ${PANIC}`
          : `${JSON.stringify(p)} lies in the volume of ${mount.field}: the controller starts only if its directory exists there and user 65532 (the chart's runAsUser) may create the file`,
    };
  if (mounts === undefined)
    return {
      warning: `${JSON.stringify(p)}: the controller's mounts are not known at synth (a token); it must lie in a writable volume, or ${PANIC}`,
    };
  if (/^\/(dev|proc|sys)(\/|$)/.test(p))
    return {
      warning: `${JSON.stringify(p)} lies on a filesystem the container runtime provides: only ${RUNTIME_STREAMS.join(", ")} are sure to be writable by user 65532; on another path ${PANIC}`,
    };
  return {
    problem: `"stdout", "stderr" or a file in a writable volume mounted by values.controller.extraVolumeMounts: ${JSON.stringify(p)} lies on the container's read-only root filesystem (the chart's readOnlyRootFilesystem: true, deployment.yaml:69 of 1.15.0, not a value), so zap cannot create it and ${PANIC}`,
  };
}

/**
 * What the controller does with one element of LOG_OUTPUT_PATHS / LOG_ERROR_OUTPUT_PATHS (after the split at ","),
 * by zap v1.28.0 sink.go:93-159 and Go's net/url.Parse.
 * @param mounts the controller's mounts, undefined when not known at synth
 */
export function logPathFinding(element: string, mounts: readonly LogMount[] | undefined): LogPathFinding {
  if (element === "stdout" || element === "stderr") return {};
  if (element === "")
    return {
      problem: `"stdout", "stderr" or a file path, not empty: zap opens a file named "" ("open : no such file or directory") and ${PANIC}; an empty element comes from an empty list item or a stray ","`,
    };
  if (element.startsWith("/")) return fileFinding(element, mounts); // filepath.IsAbs first (:98-100)
  const trimmed = element.trim();
  const near = ["stdout", "stderr"].find((s) => s === trimmed.toLowerCase());
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(element)?.[1];
  if (scheme && scheme.toLowerCase() !== "file")
    return {
      problem: `"stdout", "stderr", a file path or a file: URL: zap has no sink for the scheme ${JSON.stringify(scheme.toLowerCase())} (only "file" is registered; the controller registers none), so ${PANIC}`,
    };
  const [beforeFragment, fragment] = [
    element.split("#")[0],
    element.includes("#") ? element.slice(element.indexOf("#") + 1) : "",
  ];
  const rest = scheme ? beforeFragment.slice(scheme.length + 1) : beforeFragment;
  const [pathPart, query] = [rest.split("?")[0], rest.includes("?") ? rest.slice(rest.indexOf("?") + 1) : ""];
  if (!scheme && pathPart.split("/")[0].includes(":"))
    return {
      problem: `a file path or URL Go can parse: url.Parse refuses ${JSON.stringify(element)} ("first path segment in URL cannot contain colon"), so ${PANIC}`,
    };
  if (fragment !== "" || query !== "")
    return {
      problem: `a file path without ${fragment !== "" ? '"#"' : '"?"'}: zap reads ${JSON.stringify(element)} as a URL and refuses ${fragment !== "" ? "fragments" : "query parameters"} in file URLs (sink.go:134-139), so ${PANIC}`,
    };
  let file = pathPart;
  if (scheme) {
    if (pathPart.startsWith("//")) {
      const slash = pathPart.indexOf("/", 2);
      const authority = slash < 0 ? pathPart.slice(2) : pathPart.slice(2, slash);
      file = slash < 0 ? "" : pathPart.slice(slash);
      const host = authority.includes("@") ? undefined : authority.replace(/:\d*$/, "");
      if (
        host === undefined ||
        host !== authority.replace(/:$/, "") ||
        (host !== "" && host.toLowerCase() !== "localhost")
      )
        return {
          problem: `a file URL with an empty host or "localhost" and no user or port, e.g. "file:///var/log/karpenter/out.log": zap refuses ${JSON.stringify(element)} (sink.go:131-146), so ${PANIC}`,
        };
    } else if (!pathPart.startsWith("/")) file = ""; // an opaque URL ("file:x") has no path
  }
  const decoded = unescape(file);
  if (decoded === undefined)
    return {
      problem: `a file path without an invalid %-escape: url.Parse refuses ${JSON.stringify(element)}, so ${PANIC}`,
    };
  if (decoded === "")
    return {
      problem: `a file URL with a path, e.g. "file:///var/log/karpenter/out.log": ${JSON.stringify(element)} has none, zap opens a file named "" and ${PANIC}`,
    };
  if (decoded.startsWith("/")) return fileFinding(decoded, mounts);
  if (near)
    return {
      problem: `did you mean "${near}"? zap compares exactly, so ${JSON.stringify(element)} is not the stream but a file of that name in the image's working directory: the logs would not reach kubectl logs, and on the container's read-only root filesystem (readOnlyRootFilesystem: true, deployment.yaml:69 of 1.15.0) zap cannot create it and ${PANIC}`,
    };
  return {
    warning: `${JSON.stringify(element)} is a relative file path: zap opens it in the image's working directory, which lies on the container's read-only root filesystem unless a writable volume is mounted there; use an absolute path in a volume of values.controller.extraVolumeMounts, or the controller panics at start`,
  };
}

/** How the chart's join renders the values. */
const JOIN =
  'join "," in deployment.yaml:101-108 of 1.15.0 (every release from 1.0.4) writes each item as Go\'s %v text (github.com/Masterminds/sprig/v3@v3.3.0 strings.go:129-187, strslice and strval; Helm v3.22.0 decodes numbers as float64, pkg/chartutil/values.go:107-108)';
const PANIC_SHORT =
  "a relative file on the controller container's read-only root filesystem, which zap cannot create, so the controller panics at start and crash-loops (sigs.k8s.io/karpenter pkg/operator/logging/logging.go:80)";

/**
 * A value as Go's fmt %v writes it after Helm decoded it (numbers are float64: 1e+06 for 1000000; maps as
 * map[k:v] with sorted keys; lists as [a b]; null as <nil>).
 */
export function goText(v: unknown): string {
  if (v === null || v === undefined) return "<nil>";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return String(v);
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return Number.isNaN(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf";
    if (v === 0) return Object.is(v, -0) ? "-0" : "0";
    // strconv 'g' with the shortest digits: %e when the exponent is below -4 or at least 6 (ftoa.go, eprec = 6)
    const [mantissa, e] = v.toExponential().split("e");
    const exp = Number(e);
    if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
    return String(v);
  }
  if (Array.isArray(v)) return `[${v.map(goText).join(" ")}]`;
  if (isPlainMap(v))
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goText(v[k])}`)
      .join(" ")}]`;
  return String(v);
}

/** The env var the chart writes each list to. */
const LOG_LISTS = { logOutputPaths: "LOG_OUTPUT_PATHS", logErrorOutputPaths: "LOG_ERROR_OUTPUT_PATHS" } as const;

/** The first release whose controller's reading of the two variables has been read in the source (v1.14.1, v1.15.0). */
const LOG_PATHS_SOURCED_SINCE = "1.14.0";

/**
 * Checks where the controller writes its logs: each element of LOG_OUTPUT_PATHS / LOG_ERROR_OUTPUT_PATHS, from the
 * winning `values.controller.env` entry of that name, else from `values.logOutputPaths` / `values.logErrorOutputPaths`
 * (the chart writes nothing for null or an empty list: the controller's "stdout" / "stderr"). From 1.14 what makes
 * the controller panic at start is refused; before 1.14 (the controller's source not read) it is a warning. An item
 * holding `"` or `\` breaks the chart's double-quoted YAML scalar (`value: "{{ join "," . }}"`) in every release.
 * `join` takes what it is given (sprig strslice): a string is judged as a list of that one item; a map, and an item
 * that is a boolean, map, list or a number Go prints otherwise (1e+06), are refused in every release, since the chart
 * writes Go's %v text of them ({@link goText}), not what was written.
 * Tokens are left for apply.
 * @throws KarpenterValidationError HELM_VALUES_LOG_OUTPUT_PATHS, every problem at once
 */
export function checkLogOutputPaths(
  scope: IConstruct,
  version: KarpenterVersion,
  values: Record<string, unknown>,
  env: ControllerEnv,
): void {
  const problems = new Problems();
  const mounts = logMounts(values);
  const sourced = version.atLeast(LOG_PATHS_SOURCED_SINCE);
  const judge = (field: string, text: string, elementsOf: string) => {
    const elements = text.split(",");
    elements.forEach((element, i) => {
      const { problem, warning } = logPathFinding(element, mounts);
      const where = elements.length > 1 ? ` (element ${i + 1} of ${elementsOf})` : "";
      if (problem && sourced)
        problems.add(
          new KarpenterValidationError("HELM_VALUES_LOG_OUTPUT_PATHS", scope, field, element, `${problem}${where}`),
        );
      else if (problem || warning)
        Annotations.of(scope).addWarning(
          `${field} = ${JSON.stringify(element)}${where}: ${problem ?? warning}${problem ? ` (read in the Karpenter 1.14 and 1.15 source; not refused for ${version.full})` : ""}`,
        );
    });
  };
  const quoteProblem = (field: string, item: string) =>
    problems.add(
      new KarpenterValidationError(
        "HELM_VALUES_LOG_OUTPUT_PATHS",
        scope,
        field,
        item,
        `a path without '"' or '\\': the chart writes the list inside a YAML double-quoted scalar (value: "{{ join "," . }}", deployment.yaml:101-108 of 1.15.0), where '"' ends it early and '\\' starts an escape`,
      ),
    );
  const shapeProblem = (field: string, value: unknown, allowed: string) =>
    problems.add(new KarpenterValidationError("HELM_VALUES_LOG_OUTPUT_PATHS", scope, field, value, allowed));
  for (const [key, envName] of Object.entries(LOG_LISTS)) {
    const list = values[key];
    const replaced = env.winners.get(envName);
    if (Array.isArray(list) && !isUnresolved(list))
      list.forEach((item, i) => {
        const field = `values.${key}[${i}]`;
        if (isUnresolved(item)) return;
        if (typeof item === "string" && /["\\]/.test(item)) quoteProblem(field, item);
        else if (replaced || item === null || item === undefined)
          return; // a null item: checkListItems
        else if (typeof item === "string") judge(field, item, `the item`);
        else if (typeof item === "number" && goText(item) === String(item)) judge(field, String(item), `the item`);
        else
          shapeProblem(
            field,
            item,
            `a path as a string, e.g. "stdout": the chart writes ${JSON.stringify(goText(item))} for this item, ${PANIC_SHORT}; ${JOIN}`,
          );
      });
    else if (typeof list === "string" && !isUnresolved(list) && list !== "") {
      // join of a string is the string itself (strslice's default case): the same as a list of that one item
      if (/["\\]/.test(list)) quoteProblem(`values.${key}`, list);
      else if (!replaced) judge(`values.${key}`, list, `values.${key}`);
    } else if (isPlainMap(list) && !isUnresolved(list) && Object.keys(list).length > 0 && !replaced)
      shapeProblem(
        `values.${key}`,
        list,
        `a list of paths, e.g. ["stdout"]: the chart writes a map as one path, ${JSON.stringify(goText(list))}, ${PANIC_SHORT}; ${JOIN}`,
      );
    if (replaced) {
      const text = literalEnvValue(replaced);
      if (text !== undefined) judge(`values.controller.env[${replaced.index}].value`, text, envName);
    }
  }
  problems.throwIfAny(scope);
}
