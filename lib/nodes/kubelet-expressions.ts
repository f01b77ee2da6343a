/*
 * Kubelet expressions of EC2NodeClass (Karpenter 1.15, alpha, behind the AWS feature gate NodeClassCEL):
 * `maxPods` (written as the prop `maxPodsExpression`), `kubeReserved` and `systemReserved` may be CEL
 * expressions that the controller evaluates per instance type. Karpenter v1.15 docs, "NodeClasses: Dynamic Kubelet Configuration via Expressions":
 * variables instance_type (string), vcpus, memory_mib, default_enis, ips_per_eni, max_pods (int); functions
 * max(a, b), min(a, b), int(), double(); arithmetic, comparison, logical and conditional operators.
 *
 * The controller compiles and evaluates them and reports failures as ValidationSucceeded=False
 * (KubeletExpressionInvalid / KubeletExpressionEvalFailed) after the apply; at synth we refuse what can
 * never compile: an unknown name, unbalanced parentheses, a character CEL does not have here.
 */
import { lookupTable } from "../core/lookup";

/** The variables a kubelet expression may read. */
export const KUBELET_EXPRESSION_VARIABLES = [
  "instance_type",
  "vcpus",
  "memory_mib",
  "default_enis",
  "ips_per_eni",
  "max_pods",
] as const;
/** The functions a kubelet expression may call (max and min take exactly two arguments). */
export const KUBELET_EXPRESSION_FUNCTIONS = ["max", "min", "int", "double"] as const;

const TWO_ARGUMENTS = ["max", "min"];
const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(&&|\|\||==|!=|<=|>=|[-+*/%<>!?:(),]))/y;

/**
 * What is wrong with `text` as a kubelet expression, or undefined when it may compile.
 * Checks the names, the characters, parentheses and the argument count of max / min, then what the literal text
 * alone decides (see {@link constantProblem}); `reserved`: a kubeReserved / systemReserved value (not negative).
 */
export function kubeletExpressionProblem(text: string, reserved = false): string | undefined {
  if (text.trim() === "") return "an empty expression";
  const tokens: { kind: "number" | "name" | "string" | "op"; text: string }[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (!m)
      return `${JSON.stringify(text.slice(at).trim()[0])} at position ${at + 1} is not part of a CEL expression here`;
    tokens.push({ kind: m[1] ? "number" : m[2] ? "name" : m[3] ? "string" : "op", text: m[1] ?? m[2] ?? m[3] ?? m[4] });
    at = TOKEN.lastIndex;
  }
  // the arguments of each open call, to count those of max / min
  const calls: { name?: string; args: number; empty: boolean }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === "name") {
      const call = tokens[i + 1]?.text === "(";
      if (call && !(KUBELET_EXPRESSION_FUNCTIONS as readonly string[]).includes(t.text))
        return `${t.text}() is not one of the functions ${KUBELET_EXPRESSION_FUNCTIONS.map((f) => `${f}()`).join(", ")}`;
      if (
        !call &&
        !(KUBELET_EXPRESSION_VARIABLES as readonly string[]).includes(t.text) &&
        t.text !== "true" &&
        t.text !== "false"
      ) {
        return `${t.text} is not one of the variables ${KUBELET_EXPRESSION_VARIABLES.join(", ")}`;
      }
      if (calls.length) calls[calls.length - 1].empty = false;
      if (call) {
        calls.push({ name: t.text, args: 0, empty: true });
        i++;
      }
      continue;
    }
    if (t.text === "(") {
      if (calls.length) calls[calls.length - 1].empty = false;
      calls.push({ args: 0, empty: true });
    } else if (t.text === ")") {
      const call = calls.pop();
      if (!call) return "a ) without its (";
      const args = call.empty ? 0 : call.args + 1;
      if (call.name && TWO_ARGUMENTS.includes(call.name) && args !== 2)
        return `${call.name}() takes exactly two arguments, got ${args}`;
      if (call.name && !TWO_ARGUMENTS.includes(call.name) && args !== 1)
        return `${call.name}() takes one argument, got ${args}`;
    } else if (t.text === ",") {
      if (!calls.length || !calls[calls.length - 1].name) return "a , outside a function call";
      calls[calls.length - 1].args++;
    } else if (calls.length) {
      calls[calls.length - 1].empty = false;
    }
  }
  if (calls.length) return "a ( without its )";
  return constantProblem(tokens, reserved);
}

/*
 * What the literal text alone tells of an expression that parses: its type and, where it has no variable, its
 * value. Karpenter (karpenter-provider-aws v1.15.0) compiles it with `expression must return int or double`
 * (pkg/cel/environment.go, Compile), evaluates it per instance type (EvaluateExpression: CEL's integer division
 * or modulo by zero is an evaluation error, a double one gives a non-finite value, which it refuses), and fails a
 * negative kubeReserved / systemReserved value ("kubelet resource expression evaluated to a negative value",
 * pkg/providers/instancetype/types.go); each sets ValidationSucceeded=False. A part under a condition (`?:`, `&&`,
 * `||`) may never be evaluated, so only a division outside them is judged.
 */
type Typed = { type: "int" | "double" | "string" | "bool" | "dyn"; value?: number | string | boolean };
type Token = { kind: "number" | "name" | "string" | "op"; text: string };

const SOURCE = "karpenter-provider-aws@v1.15.0 pkg/cel/environment.go";

function constantProblem(tokens: readonly Token[], reserved: boolean): string | undefined {
  let i = 0;
  let problem: string | undefined;
  let conditional = 0;
  const peek = () => tokens[i]?.text;
  const next = () => tokens[i++];
  const num = (t: Typed): number | undefined => (typeof t.value === "number" ? t.value : undefined);
  const arith = (a: Typed, b: Typed): Typed["type"] =>
    a.type === "double" || b.type === "double" ? "double" : a.type === "int" && b.type === "int" ? "int" : "dyn";
  const primary = (): Typed => {
    const t = next();
    if (!t) return { type: "dyn" };
    if (t.kind === "number") {
      const double = /[.eE]/.test(t.text);
      return { type: double ? "double" : "int", value: Number(t.text) };
    }
    if (t.kind === "string") return { type: "string", value: t.text.slice(1, -1) };
    if (t.text === "(") {
      const v = ternary();
      next();
      return v;
    }
    if (t.text === "-" || t.text === "!") {
      const v = primary();
      if (t.text === "!") return { type: "bool" };
      return { type: v.type, value: num(v) === undefined ? undefined : -num(v)! };
    }
    if (t.kind === "name") {
      if (t.text === "true" || t.text === "false") return { type: "bool", value: t.text === "true" };
      if (peek() !== "(") return { type: t.text === "instance_type" ? "string" : "int" };
      next();
      const args: Typed[] = [];
      while (peek() !== ")" && i < tokens.length) {
        args.push(ternary());
        if (peek() === ",") next();
      }
      next();
      const [a, b] = args;
      if (t.text === "int") return { type: "int", value: num(a) === undefined ? undefined : Math.trunc(num(a)!) };
      if (t.text === "double") return { type: "double", value: num(a) };
      const both = a && b && num(a) !== undefined && num(b) !== undefined;
      const value = both ? (t.text === "max" ? Math.max(num(a)!, num(b)!) : Math.min(num(a)!, num(b)!)) : undefined;
      return { type: a && b ? arith(a, b) : "dyn", value };
    }
    return { type: "dyn" };
  };
  const product = (): Typed => {
    let a = primary();
    while (peek() === "*" || peek() === "/" || peek() === "%") {
      const op = next().text;
      const b = primary();
      const type = arith(a, b);
      if ((op === "/" || op === "%") && num(b) === 0 && conditional === 0 && problem === undefined)
        problem =
          type === "double"
            ? `it divides by zero, which gives a non-finite value Karpenter refuses ("expression returned a non-finite value", ${SOURCE}, EvaluateExpression)`
            : `it divides by zero, which fails every evaluation ("evaluating expression": CEL integer ${op === "/" ? "division" : "modulo"} by zero, ${SOURCE}, EvaluateExpression)`;
      const x = num(a);
      const y = num(b);
      let value: number | undefined;
      if (x !== undefined && y !== undefined && y !== 0)
        value = op === "*" ? x * y : op === "/" ? (type === "int" ? Math.trunc(x / y) : x / y) : x % y;
      a = { type, value };
    }
    return a;
  };
  const sum = (): Typed => {
    let a = product();
    while (peek() === "+" || peek() === "-") {
      const op = next().text;
      const b = product();
      if (a.type === "string" || b.type === "string") {
        a = { type: "string" };
        continue;
      }
      const x = num(a);
      const y = num(b);
      a = { type: arith(a, b), value: x !== undefined && y !== undefined ? (op === "+" ? x + y : x - y) : undefined };
    }
    return a;
  };
  const comparison = (): Typed => {
    let a = sum();
    while (["<", ">", "<=", ">=", "==", "!="].includes(peek() ?? "")) {
      next();
      sum();
      a = { type: "bool" };
    }
    return a;
  };
  const logical = (): Typed => {
    let a = comparison();
    while (peek() === "&&" || peek() === "||") {
      next();
      conditional++;
      comparison();
      conditional--;
      a = { type: "bool" };
    }
    return a;
  };
  const ternary = (): Typed => {
    const c = logical();
    if (peek() !== "?") return c;
    next();
    conditional++;
    const a = ternary();
    next();
    const b = ternary();
    conditional--;
    return { type: a.type === b.type ? a.type : "dyn" };
  };
  const result = ternary();
  if (result.type === "string" || result.type === "bool")
    return `it returns a ${result.type === "string" ? "string" : "boolean"}, and Karpenter compiles only an expression that returns an int or a double ("expression must return int or double", ${SOURCE}, Compile); write a number${result.type === "string" && typeof result.value === "string" && /^\d+$/.test(result.value) ? ` (${result.value}, without quotes)` : ""}`;
  if (problem) return problem;
  if (reserved && typeof result.value === "number" && result.value < 0)
    return `it is always ${result.value}, and Karpenter fails a negative reserved value ("kubelet resource expression evaluated to a negative value", karpenter-provider-aws@v1.15.0 pkg/providers/instancetype/types.go); a reservation is 0 or more`;
  return undefined;
}

/** A number and a unit or words (`1GB`, `512MB`, `1 core`), the shape of a quantity written the way people write sizes. */
const NUMBER_AND_UNIT = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([A-Za-z]+(?:\s+[A-Za-z]+)*)\s*$/;

/** Units people write for bytes, and the quantity suffixes they mean (decimal, binary). */
const BYTE_UNITS: { readonly [unit: string]: readonly string[] } = lookupTable({
  ki: ["Ki"],
  mi: ["Mi"],
  gi: ["Gi"],
  ti: ["Ti"],
  pi: ["Pi"],
  ei: ["Ei"],
  k: ["k", "Ki"],
  kb: ["k", "Ki"],
  kib: ["k", "Ki"],
  mb: ["M", "Mi"],
  mib: ["M", "Mi"],
  g: ["G", "Gi"],
  gb: ["G", "Gi"],
  gib: ["G", "Gi"],
  t: ["T", "Ti"],
  tb: ["T", "Ti"],
  tib: ["T", "Ti"],
  p: ["P", "Pi"],
  pb: ["P", "Pi"],
  pib: ["P", "Pi"],
  e: ["E", "Ei"],
  eb: ["E", "Ei"],
  eib: ["E", "Ei"],
});
/** Words for whole CPUs and for thousandths of one. */
const CPU_WORDS = /^(v?cpus?|v?cores?|cores? of cpu)$/i;
const MILLI_CPU_WORDS = /^(milli\s*cores?|millicpus?|milli\s*cpus?|mcpus?|millis?)$/i;
const BYTE_WORDS = /^(b|bytes?)$/i;

/**
 * What a kubelet reserved value that is a number followed by a unit or words (`"1GB"`, `"512MB"`, `"1 core"`)
 * should be written as: the Kubernetes quantities meant (`["1G", "1Gi"]`, `["1"]`), or an empty list when the
 * unit says nothing known. Undefined for anything else, which is read as a CEL expression. Kubernetes
 * quantities (k8s.io/apimachinery resource.Quantity) take the suffixes k, M, G, T, P, E, Ki … Ei and m, with
 * no space, no "B" for bytes and no words; a CEL expression never puts a name right after a number.
 */
export function quantityLookalike(text: string): string[] | undefined {
  const m = NUMBER_AND_UNIT.exec(text);
  if (!m) return undefined;
  const [, n, unit] = m;
  const bytes = BYTE_UNITS[unit.toLowerCase()];
  if (bytes) return bytes.map((s) => `${n}${s}`);
  if (BYTE_WORDS.test(unit) || CPU_WORDS.test(unit)) return [n];
  if (MILLI_CPU_WORDS.test(unit)) return [`${n}m`];
  return [];
}
