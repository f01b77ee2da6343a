#!/usr/bin/env node
import type { ErrorCode } from "./core/error-codes";
import * as fs from "fs";
import * as path from "path";
import { convertLegacyManifests } from "./convert/convert-legacy-manifests";
import { formatNotes, toV1Yaml } from "./convert/render";
import { escapeControls } from "./convert/fields";
import type { ConvertedObject, ConvertLegacyManifestsOptions } from "./convert/types";
import { KarpenterValidationError } from "./core/errors";
import { nodeClassRoleProblem } from "./aws-api/name-rules";
import { nearestKey } from "./core/problems";
import { DEFAULT_KARPENTER_VERSION, resolveKarpenterVersion } from "./versions/karpenter-version";
import { upgradePlanMarkdown } from "./upgrade/render";
import { inRange, UpgradePlan, upgradePlan } from "./upgrade/upgrade-plan";

/** The code of an input the convert command cannot read (a missing file, bytes that are not UTF-8). */
const READ_ERROR: { readonly code: ErrorCode } = { code: "CONVERT_READ" };

/*
 * The command line needs only this package and its own dependencies (yaml, semver): the rules
 * it runs load cdktf lazily, so `npx cdktf-eks-karpenter convert` works without the cdktf and
 * constructs peer dependencies installed.
 */

/**
 * Where the command line reads and writes; {@link runCli} takes one so tests need no process.
 */
export interface CliIo {
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
  /** Reads a file as UTF-8 text (throws when it cannot, or when it is not UTF-8: see decodeUtf8). */
  readFile(path: string): string;
  /** Reads all of standard input as UTF-8 text (throws when it is not UTF-8). */
  readStdin(): Promise<string>;
}

const PROGRAM = "cdktf-eks-karpenter";
const COMMANDS = ["convert", "upgrade-plan", "help"];
const OPTIONS = {
  convert: ["--role", "--no-legacy-defaults", "--karpenter-version", "--allow-invalid", "--help"],
  "upgrade-plan": ["--from", "--to", "--json", "--kubernetes", "--help"],
} as const;
type Command = keyof typeof OPTIONS;

/** The `--help` text (also printed, on stderr, when no argument is given). */
export const USAGE = `Usage: cdktf-eks-karpenter convert [options] [--] <file.yaml | ->
       cdktf-eks-karpenter upgrade-plan --from <version> --to <version> [--json] [--kubernetes <1.x>]
       cdktf-eks-karpenter --version

Converts Karpenter manifests to v1: v1alpha5 Provisioner and v1alpha1 AWSNodeTemplate
(Karpenter <= 0.31), v1beta1 NodePool and EC2NodeClass (0.32-0.37); v1 objects pass through,
and so do karpenter.sh/v1alpha1 NodeOverlays and autoscaling.x-k8s.io/v1beta1 CapacityBuffers
(with the spec fields of the --karpenter-version's CRD; a note says which feature gate the install
must enable, and a version without the CRD makes them invalid).
Prints the objects (karpenter.sh/v1 NodePools, karpenter.k8s.aws/v1 EC2NodeClasses, NodeOverlays,
CapacityBuffers) as YAML on stdout and one "# note:" line per field that could not be carried over
exactly on stderr. "-" reads stdin.
Converted objects that Karpenter would still reject (a required field missing, a value the
targeted version's rules refuse: weight 500, kubernetes.io/arch In [x86_64]) are printed too,
with their notes and a closing "error:" line naming them, and the exit status is 1.

Options:
  --role <name>               IAM role of the nodes for node classes converted from v1alpha1:
                              replaces their instanceProfile (Karpenter then manages the profile)
  --no-legacy-defaults        do not add the requirements the v1alpha5 webhook defaulted
                              (kubernetes.io/os, kubernetes.io/arch, instance category/generation;
                              the capacity type is stated either way, on-demand unless given)
  --karpenter-version <x.y.z> Karpenter version the results are checked against (default 1.15.3)
  --allow-invalid             exit 0 even when converted objects would be rejected (the
                              closing line is then a "# note:")
  --                          end of options: the next argument is the input even if it starts with -
  -h, --help                  show this help
  --version                   print the version of cdktf-eks-karpenter

upgrade-plan: what changes when an install of this library moves from one Karpenter release
to another: per minor crossed, controller IAM policy statements by Sid, node role policies,
interruption rules, chart settings and feature gates, NodePool / EC2NodeClass fields and enum
values; the Kubernetes ranges; known hazards (upstream errata, patches to avoid); and the order
cdktf deploy applies it in. Markdown on stdout, or JSON with --json. The same release twice is
no upgrade: only "Same release: nothing to upgrade." and that release's known hazards, if any
(JSON: direction "none", empty steps and deployOrder).

Options of upgrade-plan:
  --from <version>            the running release, 1.x.y (or 1.x: its newest known patch)
  --to <version>              the target release, same forms
  --json                      print the plan as JSON (for CI) instead of Markdown
  --kubernetes <1.x>          the cluster's Kubernetes minor: a hazard when either release does
                              not run on it

Exit status:
  0  done; convert: every converted object is valid v1 (notes may still ask for edits, such as
     fields that were not carried over)
  1  convert: invalid input or an unreadable file (the message names the document and line;
     nothing on stdout), or converted objects invalid for Karpenter as printed, or refused by
     the library (YAML on stdout, the last line on stderr names them; --allow-invalid makes
     this 0)
  2  wrong usage: unknown command or option, missing value, unknown version
  3  upgrade-plan --kubernetes: the target release does not run on that Kubernetes minor (the
     plan is printed; a --from release that does not is a hazard in it, not this status)
`;

/**
 * The `cdktf-eks-karpenter` command line: `convert [options] <file | ->` (a thin wrapper over
 * {@link convertLegacyManifests}, {@link toV1Yaml} and {@link formatNotes}) and
 * `upgrade-plan --from X --to Y [--json] [--kubernetes 1.x]` (over {@link upgradePlan} and
 * {@link upgradePlanMarkdown}).
 * @param argv the arguments after the program name, e.g. `["convert", "karpenter.yaml"]`
 * @param io where to read and write (default: the process's files and streams)
 * @returns the exit status: 0 done, 1 invalid input, an unreadable file or (convert, without
 * `--allow-invalid`) converted objects invalid for Karpenter or refused by the library, 2 wrong usage (including an unknown
 * version): then stderr holds the problem and a pointer to `--help`, not the whole usage
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    io.stderr(USAGE);
    return 2;
  }
  if (command === "-h" || command === "--help" || command === "help") {
    io.stdout(USAGE);
    return 0;
  }
  if (command === "--version") {
    io.stdout(`${packageVersion()}\n`);
    return 0;
  }
  if (command === "upgrade-plan") return runUpgradePlan(rest, io);
  if (command !== "convert") return usageError(io, unknownCommand(command));

  const parsed = parseConvertArgs(rest);
  if ("help" in parsed) {
    io.stdout(USAGE);
    return 0;
  }
  if ("error" in parsed) return usageError(io, parsed.error);

  let text: string;
  try {
    text = parsed.input === "-" ? await io.readStdin() : io.readFile(parsed.input);
  } catch (e) {
    io.stderr(
      `error: cannot read ${parsed.input === "-" ? "standard input" : parsed.input}: ${(e as Error).message} [${READ_ERROR.code}]\n`,
    );
    return 1;
  }
  try {
    const result = convertLegacyManifests(text, parsed.options);
    // everything is converted before anything is printed: an error leaves stdout empty
    io.stdout(toV1Yaml(result));
    const notes = formatNotes(result);
    for (const line of notes) io.stderr(`# note: ${line}\n`);
    if (result.objects.length === 0)
      io.stderr(
        "# note: no Karpenter NodePool, node class, NodeOverlay or CapacityBuffer found in the input: nothing converted\n",
      );
    const problem = invalidObjectsProblem(result.objects, parsed.version);
    if (problem === undefined) return 0;
    if (parsed.allowInvalid) {
      io.stderr(`# note: ${problem} (--allow-invalid: exit status 0)\n`);
      return 0;
    }
    io.stderr(`error: ${problem} (the YAML is printed for editing; --allow-invalid exits 0)\n`);
    return 1;
  } catch (e) {
    if (e instanceof KarpenterValidationError) {
      io.stderr(`error: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

/**
 * The last line about converted objects that are invalid as printed, or undefined when none is: those Karpenter's
 * rules refuse (the API server with the release's CRDs, or the controller) and those only this library's
 * constructs refuse, by policy (`ConversionNote.refusedByLibrary`), each with its fields.
 */
function invalidObjectsProblem(objects: readonly ConvertedObject[], version: string): string | undefined {
  const count = (n: number) => `${n === 1 ? "1 converted object" : `${n} converted objects`} ${n === 1 ? "is" : "are"}`;
  const list = (byLibrary: boolean) => {
    const fields = (o: ConvertedObject) => [
      ...new Set(o.notes.filter((n) => n.invalid && !!n.refusedByLibrary === byLibrary).map((n) => n.field)),
    ];
    const which = objects.filter((o) => fields(o).length > 0);
    // a control character in a name is escaped as in the notes, not written raw to the terminal
    return {
      n: which.length,
      text: which.map((o) => `${o.kind}/${escapeControls(o.name)} (${fields(o).join(", ")})`).join(", "),
    };
  };
  const karpenter = list(false);
  const library = list(true);
  const parts = [
    ...(karpenter.n > 0
      ? [`${count(karpenter.n)} invalid for Karpenter ${version} as printed: ${karpenter.text}`]
      : []),
    ...(library.n > 0
      ? [
          `${count(library.n)} refused by the library (Karpenter ${version} accepts ${library.n === 1 ? "it" : "them"}; the constructs refuse ${library.n === 1 ? "it" : "them"} deliberately): ${library.text}`,
        ]
      : []),
  ];
  return parts.length === 0 ? undefined : `${parts.join("; ")}; see the [action] notes about those fields`;
}

type ParsedArgs =
  | { input: string; options: ConvertLegacyManifestsOptions; version: string; allowInvalid: boolean }
  | { help: true }
  | { error: string };

function parseConvertArgs(args: readonly string[]): ParsedArgs {
  const inputs: string[] = [];
  let role: string | undefined;
  let version: string | undefined;
  let legacyDefaults = true;
  let allowInvalid = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      inputs.push(...args.slice(i + 1));
      break;
    }
    const [flag, inline] =
      a.startsWith("--") && a.includes("=")
        ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
        : [a, undefined];
    const value = (): string | undefined => inline ?? args[++i];
    if (flag === "-h" || flag === "--help") return { help: true };
    // `--allow-invalid=false` would otherwise read as --allow-invalid
    if ((flag === "--no-legacy-defaults" || flag === "--allow-invalid") && inline !== undefined)
      return { error: `${flag} takes no value` };
    if (flag === "--no-legacy-defaults") legacyDefaults = false;
    else if (flag === "--allow-invalid") allowInvalid = true;
    else if (flag === "--role") role = value();
    else if (flag === "--karpenter-version") version = value();
    else if (flag === "--version")
      return {
        error:
          'unknown option "--version" for convert: the Karpenter version to check against is --karpenter-version; `cdktf-eks-karpenter --version` prints this tool\'s version',
      };
    else if (a === "-" || !a.startsWith("-")) inputs.push(a);
    else return { error: unknownOption(flag, "convert") };
    if ((flag === "--role" && !role) || (flag === "--karpenter-version" && !version))
      return { error: `${flag} needs a value` };
  }
  let full = DEFAULT_KARPENTER_VERSION;
  if (version !== undefined) {
    try {
      full = resolveKarpenterVersion("--karpenter-version", version, "--karpenter-version").full;
    } catch (e) {
      if (!(e instanceof KarpenterValidationError)) throw e;
      return { error: `--karpenter-version ${JSON.stringify(version)} is invalid: ${e.allowed}` };
    }
  }
  // the converter refuses it too; as a usage error it names the flag
  const roleProblem = role !== undefined ? nodeClassRoleProblem(role) : undefined;
  if (roleProblem !== undefined) return { error: `--role ${JSON.stringify(role)} is invalid: ${roleProblem}` };
  if (inputs.length !== 1)
    return {
      error:
        inputs.length === 0
          ? "no input file given (use - for standard input)"
          : `one input file expected, got ${inputs.length}: ${inputs.join(" ")}`,
    };
  return { input: inputs[0], options: { role, version, legacyDefaults }, version: full, allowInvalid };
}

/** `upgrade-plan --from X --to Y [--json] [--kubernetes 1.x]`. */
function runUpgradePlan(args: readonly string[], io: CliIo): number {
  const flags: { [flag: string]: string | undefined } = {};
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const [flag, inline] =
      a.startsWith("--") && a.includes("=")
        ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
        : [a, undefined];
    if (flag === "-h" || flag === "--help") {
      io.stdout(USAGE);
      return 0;
    }
    if (flag === "--json" && inline === undefined) json = true;
    else if (flag === "--from" || flag === "--to" || flag === "--kubernetes") {
      const value = inline ?? args[++i];
      // `--from --to 1.3`: the next option is no value (no version starts with "--")
      if (value === undefined || value === "" || (inline === undefined && value.startsWith("--")))
        return usageError(io, `${flag} needs a value`);
      if (flags[flag] !== undefined) return usageError(io, `${flag} given twice`);
      flags[flag] = value;
    } else if (flag === "--json") return usageError(io, "--json takes no value");
    else
      return usageError(
        io,
        a.startsWith("-") ? unknownOption(flag, "upgrade-plan") : `unexpected argument "${a}" for upgrade-plan`,
      );
  }
  const missing = ["--from", "--to"].filter((f) => flags[f] === undefined);
  if (missing.length > 0) return usageError(io, `upgrade-plan needs ${missing.join(" and ")}`);
  let plan: UpgradePlan;
  try {
    plan = upgradePlan(
      flags["--from"]!,
      flags["--to"]!,
      flags["--kubernetes"] !== undefined ? { kubernetesVersion: flags["--kubernetes"] } : {},
    );
  } catch (e) {
    if (!(e instanceof KarpenterValidationError)) throw e;
    const flag = { from: "--from", to: "--to", "options.kubernetesVersion": "--kubernetes" }[e.field] ?? e.field;
    return usageError(io, `${flag} ${JSON.stringify(e.value)} is invalid: ${e.allowed}`);
  }
  io.stdout(json ? `${JSON.stringify(plan, null, 2)}\n` : upgradePlanMarkdown(plan));
  // a target that does not run on the cluster is no plan to follow: CI must not go on from it
  const { cluster, to: range } = plan.kubernetes;
  if (cluster !== undefined && !inRange(cluster, range)) {
    io.stderr(
      `error: Karpenter ${plan.to} does not run on Kubernetes ${cluster} (it supports ${range.min} to ${range.max}): upgrade the cluster within the range of both releases first, or choose another target (the plan is printed above)\n`,
    );
    return 3;
  }
  return 0;
}

/** The `version` of this package's package.json (one level above lib/ and dist/). */
function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8")) as { version: string })
    .version;
}

/** A usage error: the problem and where the usage is, not the usage itself (it would bury the problem). */
function usageError(io: CliIo, problem: string): number {
  io.stderr(`error: ${problem}\nRun "${PROGRAM} --help" for the commands and their options.\n`);
  return 2;
}

/** `unknown command "conver" (did you mean "convert"?)`, or the list of commands. */
function unknownCommand(command: string): string {
  const near = suggestion(command, COMMANDS);
  return `unknown command "${command}"${near ? ` (did you mean "${near}"?)` : ` (commands: ${COMMANDS.slice(0, 2).join(", ")})`}`;
}

/**
 * `unknown option "--form" for upgrade-plan (did you mean "--from"?)`; an option of the other
 * command says so; otherwise the command's options are listed.
 */
function unknownOption(flag: string, command: Command): string {
  const own = OPTIONS[command].filter((o) => o !== "--help");
  const other = (Object.keys(OPTIONS) as Command[]).find((c) => c !== command)!;
  const near = suggestion(flag, own);
  if (near) return `unknown option "${flag}" for ${command} (did you mean "${near}"?)`;
  if ((OPTIONS[other] as readonly string[]).includes(flag))
    return `unknown option "${flag}" for ${command}: it is an option of ${other}`;
  return `unknown option "${flag}" for ${command} (options: ${own.join(", ")})`;
}

/** A near spelling (one edit per six characters, see nearestKey), else the only candidate that starts with `word`. */
function suggestion(word: string, candidates: readonly string[]): string | undefined {
  const near = nearestKey(word, candidates);
  if (near !== undefined) return near;
  const starts = word.replace(/^-+/, "").length >= 2 ? candidates.filter((c) => c.startsWith(word)) : [];
  return starts.length === 1 ? starts[0] : undefined;
}

function processIo(): CliIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readFile: (p) => decodeUtf8(fs.readFileSync(p)),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
      return decodeUtf8(Buffer.concat(chunks));
    },
  };
}

/**
 * The input's text, decoded as UTF-8 strictly: Node's lenient decoding turns every invalid byte into
 * U+FFFD, so a Latin-1 or UTF-16 file would be converted into YAML with other characters than the
 * user wrote (a label value, a tag) without a word. A leading UTF-8 byte order mark is dropped.
 * @throws Error naming the first invalid byte, its offset and line, and how to re-encode the file; for
 *   a UTF-16 byte order mark, that the input is UTF-16
 */
export function decodeUtf8(bytes: Uint8Array): string {
  const bom16 =
    bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  if (bom16)
    throw new Error(
      `the input is not UTF-8: it starts with the UTF-16 byte order mark ${bytes[0] === 0xff ? "FF FE (UTF-16LE, as Windows PowerShell writes with >)" : "FE FF (UTF-16BE)"}. Save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8 in.yaml > out.yaml) and convert that`,
    );
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const at = Math.min(firstInvalidUtf8(bytes), bytes.length - 1);
    const line = bytes.subarray(0, at).filter((b) => b === 0x0a).length + 1;
    throw new Error(
      `the input is not UTF-8: byte 0x${bytes[at].toString(16).toUpperCase().padStart(2, "0")} at offset ${at} (line ${line}) is not valid UTF-8, and decoding it would replace characters silently. Save the input as UTF-8 (e.g. iconv -f LATIN1 -t UTF-8 in.yaml > out.yaml, naming its actual encoding) and convert that`,
    );
  }
}

/** The offset of the first byte that does not belong to a valid UTF-8 sequence (RFC 3629). */
function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    const [n, lo, hi] =
      c < 0x80
        ? [0, 0, 0]
        : c >= 0xc2 && c <= 0xdf
          ? [1, 0x80, 0xbf]
          : c === 0xe0
            ? [2, 0xa0, 0xbf]
            : c === 0xed
              ? [2, 0x80, 0x9f]
              : c >= 0xe1 && c <= 0xef
                ? [2, 0x80, 0xbf]
                : c === 0xf0
                  ? [3, 0x90, 0xbf]
                  : c >= 0xf1 && c <= 0xf3
                    ? [3, 0x80, 0xbf]
                    : c === 0xf4
                      ? [3, 0x80, 0x8f]
                      : [-1, 0, 0];
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) {
      const x = b[i + k];
      const [min, max] = k === 1 ? [lo, hi] : [0x80, 0xbf];
      if (x === undefined || x < min || x > max) return i;
    }
    i += n + 1;
  }
  return b.length;
}

/**
 * Makes a write to a closed pipe end the process quietly with status 0, as Unix tools do: the
 * reader (`… | head -1`) has all it wanted. Any other stream error is rethrown.
 */
export function stopOnClosedPipe(
  stream: NodeJS.WritableStream,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    exit(0);
  });
}

if (require.main === module) {
  stopOnClosedPipe(process.stdout);
  stopOnClosedPipe(process.stderr);
  runCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`error: ${(e as Error).stack ?? e}\n`);
      process.exitCode = 1;
    },
  );
}
