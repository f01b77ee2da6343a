/*
 * What makes the CEL checker at hand (@marcbachmann/cel-js) judge an expression as cel-go v0.31 does, the CEL of
 * Karpenter's kubelet expressions (kubelet-expressions.ts): each function names the gap it closes. The text rewrites
 * before parsing (a leading-dot float, long runs of unary operators, has() of a literal's field), the rewrites while
 * evaluating (x.matches(p) to RE2's matches(x, p), string(<double>) to Go's %g), the overloads cel-go's standard
 * library has and the checker lacks (addCelGoOverloads), and cel-go's parser limits. The e2e stage cel-agreement
 * (scripts/e2e/cel-corpus.json, judged by cel-go itself) is the test of this module.
 */
import type { ASTNode, Environment } from "@marcbachmann/cel-js";

/**
 * The overloads of cel-go's standard library the checker lacks: int(uint), the global matches(string, string) run by
 * RE2, int(timestamp), and goDoubleString(double) for evaluateAsCelGo's string(<double>).
 */
export function addCelGoOverloads(env: Environment): void {
  // cel-go's standard library converts a uint to an int (common/stdlib/standard.go, overloads.UintToInt: "range error"
  // above the int64 maximum); the checker library has no such overload
  env.registerFunction("int(uint): int", (u: { value: bigint }) => {
    if (u.value > INT64_MAX) throw new Error("range error converting uint to int");
    return u.value;
  });
  // cel-go's standard library has the global form of matches too (common/stdlib/standard.go, overloads.Matches), and
  // both forms run Go's RE2 (regexp.MatchString): the checker's method form uses JavaScript's RegExp, so evaluation
  // here rewrites x.matches(p) to matches(x, p) (see evaluateAsCelGo), which runs re2js, a port of RE2
  env.registerFunction("matches(string, string): bool", (s: string, pattern: string) => re2(pattern).matcher(s).find());
  // common/stdlib/standard.go, overloads.TimestampToInt: the seconds since the epoch
  env.registerFunction("int(google.protobuf.Timestamp): int", (t: Date) => BigInt(Math.floor(t.getTime() / 1000)));
  // evaluateAsCelGo calls it for string(<double>), whose checker overload formats as JavaScript does
  env.registerFunction("goDoubleString(double): string", goDoubleString);
}

const compiled = new Map<string, import("re2js").RE2JS>();
/** A pattern compiled as Go's regexp (RE2) does: lookahead, backreferences, \\Z or {1001} fail as in cel-go. */
function re2(pattern: string): import("re2js").RE2JS {
  let re = compiled.get(pattern);
  if (!re) {
    const { RE2JS }: typeof import("re2js") = require("re2js");
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      throw new Error(`error parsing regexp: ${(e as Error).message}`, { cause: e });
    }
    compiled.set(pattern, re);
  }
  return re;
}

/**
 * Evaluates an expression with each method call x.matches(p) written as matches(x, p), whose overload runs RE2
 * (the checker's own method overload cannot be replaced). Rewritten one call at a time, reparsing between.
 */
export function evaluateAsCelGo(env: Environment, text: string, vars?: Record<string, unknown>): unknown {
  let current = text;
  for (;;) {
    const ast = env.parse(current).ast;
    let call: ASTNode | undefined;
    let conversion: ASTNode | undefined;
    for (const { node } of nodes(ast)) {
      if (node.op === "rcall" && node.args[0] === "matches") call = node;
      const arg = node.op === "call" && node.args[0] === "string" ? (node.args[1] as ASTNode[])?.[0] : undefined;
      if (arg && typeOf(env, current, arg) === "double") conversion = arg;
    }
    if (conversion && !call) {
      const whole = [...nodes(ast)].find(
        ({ node }) => node.op === "call" && (node.args[1] as ASTNode[])?.[0] === conversion,
      )!.node;
      current = `${current.slice(0, whole.start)}goDoubleString(${textOf(current, conversion)})${current.slice(whole.end)}`;
      continue;
    }
    if (!call) return env.evaluate(current, vars);
    const [, receiver, args] = call.args as [string, ASTNode, ASTNode[]];
    const rewritten = `matches(${textOf(current, receiver)}, ${args.map((a) => textOf(current, a)).join(", ")})`;
    current = `${current.slice(0, call.start)}${rewritten}${current.slice(call.end)}`;
  }
}

/** The checked type of one part of an expression, or undefined when it does not check on its own. */
export function typeOf(env: Environment, text: string, node: ASTNode): string | undefined {
  try {
    const checked = env.check(textOf(text, node));
    return checked.valid ? checked.type : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A double as cel-go writes it: fmt.Sprintf("%g") (common/types/double.go ConvertToType StringType), shortest digits and
 * an exponent from 1e+06 or below 1e-04, where JavaScript writes 100000000 up to 1e21.
 */
export function goDoubleString(f: number): string {
  if (Number.isNaN(f)) return "NaN";
  if (!Number.isFinite(f)) return f > 0 ? "+Inf" : "-Inf";
  if (f === 0) return Object.is(f, -0) ? "-0" : "0";
  const [mantissa, e] = f.toExponential().split("e");
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  return String(f);
}

/** CEL's float literal may start with a dot (parser/gen/CEL.g4 NUM_FLOAT `.5`); the checker's parser needs the 0. */
export function withLeadingZeros(text: string, tokens: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "." && /\d/.test(tokens[i + 1] ?? "") && !/[\w.)\]]/.test(tokens.slice(0, i).trimEnd().slice(-1)))
      out += "0";
    out += text[i];
  }
  return shortUnaryRuns(out, blankStrings(out));
}

/**
 * The text with each run of more than three `!` or `-` cut to one or two of them (the same parity): cel-go's grammar
 * reads a run of unary operators in one rule (parser/gen/CEL.g4 `unary: ('!')+ member | ('-')+ member`), so 5000
 * of them are valid there, while the checker here recurses once per operator. Cutting pairs keeps the value and the
 * type (a binary minus before unary ones included).
 */
function shortUnaryRuns(text: string, tokens: string): string {
  let out = "";
  let last = 0;
  for (const m of tokens.matchAll(/(?:!\s*){4,}|(?:-\s*){4,}/g)) {
    const run = m[0].replace(/\s+/g, "");
    out +=
      text.slice(last, m.index) +
      Array(run.length % 2 ? 1 : 2)
        .fill(run[0])
        .join(" ") +
      " ";
    last = m.index + m[0].length;
  }
  return out + text.slice(last);
}

export const INT64_MAX = 2n ** 63n - 1n;

/** The first line of a checker error, with the character it points at. */
export function celMessage(e: unknown, text: string): string {
  const err = e as { message?: string; node?: { start?: number }; range?: { start?: number } };
  const first = String(err?.message ?? e).split("\n")[0];
  const at = err?.range?.start ?? err?.node?.start;
  return typeof at === "number" && at < text.length ? `${first} (at character ${at + 1})` : first;
}

/**
 * Every node of a parsed expression, with whether it sits under a condition: a branch of `?:`, an operand of `&&` /
 * `||` (CEL absorbs an error there when the other side decides), or a method or macro call (a macro's body may
 * never run). Only what runs on every evaluation decides that every evaluation fails.
 */
export function* nodes(root: ASTNode, rootConditional = false): Generator<{ node: ASTNode; conditional: boolean }> {
  // iterative, in the same pre-order: a chain of 5000 unary minuses or `+` terms would overflow a recursive walk
  const stack: { node: ASTNode; conditional: boolean }[] = [{ node: root, conditional: rootConditional }];
  while (stack.length > 0) {
    const { node, conditional } = stack.pop()!;
    yield { node, conditional };
    // a unary operator (-_, !_) holds its operand itself rather than in a list
    const args: unknown[] = Array.isArray(node.args) ? (node.args as unknown[]).flat(2) : [node.args];
    const children = args.filter((c): c is ASTNode => typeof c === "object" && c !== null && "op" in c);
    for (let i = children.length - 1; i >= 0; i--) {
      const under = ["&&", "||", "rcall"].includes(node.op) || (node.op === "?:" && i > 0);
      stack.push({ node: children[i], conditional: conditional || under });
    }
  }
}

/** cel-go's binary operators parsed by its left-recursive `calc` / `relation` rules (parser/gen/CEL.g4); && and || are balanced. */
const CHAINED_BINARY = new Set(["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "in"]);

/** The deepest nesting of binary operators (each one a level of cel-go's parse-tree recursion). */
export function binaryDepth(root: ASTNode): number {
  const depth = new Map<ASTNode, number>();
  let deepest = 0;
  const order = [...nodes(root)].map((n) => n.node);
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i];
    const args: unknown[] = Array.isArray(node.args) ? (node.args as unknown[]).flat(2) : [node.args];
    let below = 0;
    for (const c of args) if (depth.has(c as ASTNode)) below = Math.max(below, depth.get(c as ASTNode)!);
    const d = below + (CHAINED_BINARY.has(node.op) ? 1 : 0);
    depth.set(node, d);
    deepest = Math.max(deepest, d);
  }
  return deepest;
}

/** cel-go v0.31.0 parser/options.go defaults: maxRecursionDepth 250, expressionSizeCodePointLimit 100000. */
export const CEL_GO_MAX_RECURSION_DEPTH = 250;
export const CEL_GO_EXPRESSION_SIZE_LIMIT = 100000;

/** The text with the inside of every string literal blanked (same length), for checks on CEL's tokens. */
export function blankStrings(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch !== "'" && ch !== '"') {
      out += ch;
      i++;
      continue;
    }
    const raw = i > 0 && /[rR]/.test(text[i - 1]) && (i < 2 || !/[\w]/.test(text[i - 2]));
    const quote = text.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
    let j = i + quote.length;
    while (j < text.length && !text.startsWith(quote, j)) j += !raw && text[j] === "\\" ? 2 : 1;
    const end = Math.min(text.length, j + quote.length);
    out += quote + " ".repeat(Math.max(0, Math.min(j, text.length) - i - quote.length)) + text.slice(j, end);
    i = end;
  }
  return out;
}

/**
 * The first int literal of the expression outside the int64 range, as written, or undefined. cel-go refuses it at parse
 * time ("invalid int literal"), but takes -9223372036854775808: its grammar reads a minus right before a number as
 * the literal's sign (parser/gen/CEL.g4 `sign=MINUS? tok=NUM_INT`), so the minimum is written, not negated.
 */
export function intLiteralOutOfRange(text: string, ast: ASTNode): string | undefined {
  const signed = new Set<ASTNode>();
  for (const { node } of nodes(ast)) {
    const operand = node.args as unknown as ASTNode;
    if (node.op === "-_" && operand?.op === "value" && /^-\s*$/.test(text.slice(node.start, operand.start)))
      signed.add(operand);
  }
  for (const { node } of nodes(ast)) {
    if (node.op !== "value" || typeof node.args !== "bigint") continue;
    const v = node.args as bigint;
    if (v > INT64_MAX && !(v === INT64_MAX + 1n && signed.has(node))) return textOf(text, node);
  }
  return undefined;
}

/** The expression with each has() of a field of something other than a variable written as `true` (see the caller). */
export function withoutHasOfLiterals(text: string, ast: ASTNode): string {
  const spans: ASTNode[] = [];
  for (const { node } of nodes(ast)) {
    if (node.op !== "call" || node.args[0] !== "has") continue;
    let arg = (node.args[1] as ASTNode[] | undefined)?.[0];
    if (!arg || arg.op !== ".") continue;
    while (arg.op === "." || arg.op === ".?") arg = (arg.args as ASTNode[])[0];
    if (arg.op !== "id") spans.push(node);
  }
  let out = text;
  for (const n of spans.sort((a, b) => b.start - a.start)) out = `${out.slice(0, n.start)}true${out.slice(n.end)}`;
  return out;
}

/** The source text of one node of a parsed expression. */
export function textOf(text: string, node: ASTNode): string {
  return text.slice(node.start, node.end);
}
