/**
 * Scalar expressions, from `or` down to literals, names and calls, plus the `name = expr`
 * assignments operators take. Precedence is one function per level; a sub-query inside an
 * expression (`x in (T | …)`, `toscalar(…)`) is read through `Cursor.tabular`.
 */
import type { Assignment, Expr, Name } from "../ast";
import { timespanMicros, type Token } from "../lexer";
import { Cursor, describe, fail, isName, isPunct, isWord, MAX_NESTING, ParseFailure } from "./cursor";
import { parseDatetime, parseTypedLiteral } from "./literals";

const COMPARISON_OPS = new Set([
  "==", "!=", "<>", "<", "<=", ">", ">=", "=~", "!~",
  "has", "!has", "has_cs", "!has_cs", "contains", "!contains", "contains_cs", "!contains_cs",
  "startswith", "!startswith", "startswith_cs", "!startswith_cs",
  "endswith", "!endswith", "endswith_cs", "!endswith_cs",
  "hasprefix", "!hasprefix", "hasprefix_cs", "!hasprefix_cs", "hassuffix", "!hassuffix", "hassuffix_cs", "!hassuffix_cs",
]);

/** The string operators `*` (every column) may stand before. */
const STAR_OPS = new Set([...COMPARISON_OPS].filter((op) => /^!?[a-z]/.test(op)));

export function parseExpr(c: Cursor): Expr {
  c.enter(c.peek());
  try {
    return parseLogical(c, "or");
  } finally {
    c.leave();
  }
}

export function parseAssignments(c: Cursor): Assignment[] {
  return c.commaList(() => parseAssignment(c));
}

export function parseAssignment(c: Cursor): Assignment {
  const token = c.peek();
  const from = token.from;
  if (isName(token) && isPunct(c.peek(1), "=") && !isPunct(c.peek(2), "=")) {
    c.next();
    c.next();
    const expr = parseExpr(c);
    return { name: { text: token.text, span: { from: token.from, to: token.to } }, expr, span: c.spanFrom(from) };
  }
  // `['a name'] = expr`
  if (isPunct(token, "[") && c.peek(1).kind === "string" && isPunct(c.peek(2), "]") && isPunct(c.peek(3), "=") && !isPunct(c.peek(4), "=")) {
    c.next();
    const name = c.next();
    const close = c.next();
    c.next();
    const expr = parseExpr(c);
    return { name: { text: name.value ?? "", span: { from: token.from, to: close.to } }, expr, span: c.spanFrom(from) };
  }
  // `(a, b) = f(x)`: names for a function with several results (series_stats, …).
  if (isPunct(token, "(") && isName(c.peek(1)) && (isPunct(c.peek(2), ",") || isPunct(c.peek(2), ")"))) {
    const save = c.index;
    c.next();
    const names: Name[] = [];
    while (isName(c.peek())) {
      const n = c.next();
      names.push({ text: n.text, span: { from: n.from, to: n.to } });
      if (!isPunct(c.peek(), ",")) break;
      c.next();
    }
    if (isPunct(c.peek(), ")") && isPunct(c.peek(1), "=")) {
      c.next();
      c.next();
      const expr = parseExpr(c);
      return { names, expr, span: c.spanFrom(from) };
    }
    c.index = save;
  }
  return { expr: parseExpr(c), span: c.spanFrom(from) };
}

/** `a or b or …` / `a and b and …` as one n-ary node (a loop, not recursion per term). */
function parseLogical(c: Cursor, op: "and" | "or"): Expr {
  const operand = () => (op === "or" ? parseLogical(c, "and") : parseNot(c));
  const first = operand();
  if (!isWord(c.peek(), op)) return first;
  const operands = [first];
  while (isWord(c.peek(), op)) {
    c.next();
    operands.push(operand());
  }
  return { kind: "logical", op, operands, span: { from: first.span.from, to: operands[operands.length - 1]!.span.to } };
}

/** KQL's `not(x)` is a function; `not x` (without parentheses) is read the same way. */
function parseNot(c: Cursor): Expr {
  const token = c.peek();
  if (token.kind === "identifier" && token.text === "not" && !isPunct(c.peek(1), "(") && (isName(c.peek(1)) || c.peek(1).kind === "string" || c.peek(1).kind === "number")) {
    c.next();
    c.enter(token);
    try {
      const operand = parseNot(c);
      return { kind: "call", name: "not", nameSpan: { from: token.from, to: token.to }, args: [operand], star: false, span: { from: token.from, to: operand.span.to } };
    } finally {
      c.leave();
    }
  }
  return parseComparison(c);
}

export function parseComparison(c: Cursor): Expr {
  const left = parseAdditive(c);
  const token = c.peek();
  const op = token.text;
  if ((token.kind === "operator" || token.kind === "keyword" || token.kind === "identifier") && COMPARISON_OPS.has(op)) {
    c.next();
    return binary(op === "<>" ? "!=" : op, token, left, parseAdditive(c));
  }
  if (op === "matches" && isWord(c.peek(1), "regex")) {
    c.next();
    c.next();
    return binary("matches regex", token, left, parseAdditive(c));
  }
  if (op === "in" || op === "!in" || op === "has_any" || op === "has_all") {
    c.next();
    let caseInsensitive = false;
    if (isPunct(c.peek(), "~") && c.peek().from === token.to) {
      c.next();
      caseInsensitive = true;
    }
    c.expectPunct("(");
    const list: Expr[] = [];
    while (!isPunct(c.peek(), ")")) {
      if (list.length) c.expectPunct(",");
      if (c.startsTabular()) {
        const start = c.peek().from;
        const query = c.tabular();
        list.push({ kind: "subquery", query, span: c.spanFrom(start) });
      } else list.push(parseExpr(c));
    }
    const close = c.expectPunct(")");
    if (!list.length) fail(close, "Expected at least one value in the list");
    const span = { from: left.span.from, to: close.to };
    if (op === "has_any" || op === "has_all") return { kind: "hasSet", op, target: left, list, span };
    return { kind: "in", negated: op.startsWith("!"), caseInsensitive, target: left, list, span };
  }
  if (op === "between" || op === "!between") {
    c.next();
    c.expectPunct("(");
    const low = parseAdditive(c);
    c.expectPunct("..");
    const high = parseAdditive(c);
    const close = c.expectPunct(")");
    return { kind: "between", negated: op === "!between", target: left, low, high, span: { from: left.span.from, to: close.to } };
  }
  return left;
}

/** Left-deep chains: each further term is one level deeper for later stages, so it counts. */
function parseChain(c: Cursor, ops: string[], operand: () => Expr): Expr {
  let left = operand();
  let terms = 0;
  while (ops.some((o) => isPunct(c.peek(), o))) {
    const op = c.next();
    if (c.depth + ++terms > MAX_NESTING) throw new ParseFailure(op, `The query is nested deeper than ${MAX_NESTING} levels (a chain of '${op.text}' counts one level per term); simplify it`, true);
    left = binary(op.text, op, left, operand());
  }
  return left;
}

export function parseAdditive(c: Cursor): Expr {
  return parseChain(c, ["+", "-"], () => parseMultiplicative(c));
}

function parseMultiplicative(c: Cursor): Expr {
  return parseChain(c, ["*", "/", "%"], () => parseUnary(c));
}

function parseUnary(c: Cursor): Expr {
  if (isPunct(c.peek(), "-") || isPunct(c.peek(), "+")) {
    const op = c.next();
    c.enter(op);
    try {
      const operand = parseUnary(c);
      return { kind: "unary", op: op.text as "-" | "+", operand, span: { from: op.from, to: operand.span.to } };
    } finally {
      c.leave();
    }
  }
  return parsePostfix(c);
}

function parsePostfix(c: Cursor): Expr {
  let expr = parsePrimary(c);
  let levels = 0;
  for (;;) {
    if (isPunct(c.peek(), ".") && isName(c.peek(1)) && c.peek(1).from === c.peek().to) {
      c.next();
      const key = c.next();
      expr = { kind: "member", target: expr, key: key.text, keySpan: { from: key.from, to: key.to }, bracket: false, span: { from: expr.span.from, to: key.to } };
    } else if (isPunct(c.peek(), "[")) {
      c.next();
      const key = c.peek();
      const isIndex = key.kind === "number" && /^\d+$/.test(key.text);
      const negativeIndex = isPunct(key, "-") && c.peek(1).kind === "number" && /^\d+$/.test(c.peek(1).text);
      if (key.kind !== "string" && !isIndex && !negativeIndex) fail(key, `Expected a quoted key or an array index after '[' but found ${describe(key)}`);
      c.next();
      let member: string | number = isIndex ? Number(key.text) : (key.value ?? "");
      if (negativeIndex) member = -Number(c.next().text);
      const close = c.expectPunct("]");
      expr = { kind: "member", target: expr, key: member, keySpan: { from: key.from, to: key.to }, bracket: true, span: { from: expr.span.from, to: close.to } };
    } else {
      return expr;
    }
    if (c.depth + ++levels > MAX_NESTING) fail(c.peek(), `The query is nested deeper than ${MAX_NESTING} levels; simplify it`);
  }
}

export function parsePrimary(c: Cursor): Expr {
  const token = c.peek();
  const span = { from: token.from, to: token.to };
  // `* has "x"` (any column, ADX): a column named `*` that the analyzer expands over the row's columns.
  if (token.text === "*" && (STAR_OPS.has(c.peek(1).text) || (isWord(c.peek(1), "matches") && isWord(c.peek(2), "regex")))) {
    c.next();
    return { kind: "column", name: "*", span };
  }
  switch (token.kind) {
    case "string":
      c.next();
      return { kind: "literal", type: "string", value: token.value ?? "", span };
    case "number": {
      c.next();
      const isReal = !/^0[xX]/.test(token.text) && /[.eE]/.test(token.text);
      if (!isReal && !exactLong(token.text)) fail(token, `Number ${token.text} is out of range`);
      return { kind: "literal", type: isReal ? "real" : "long", value: Number(token.text), span };
    }
    case "timespan":
      c.next();
      return { kind: "literal", type: "timespan", value: timespanMicros(token.text)!, span };
    case "datetime": {
      c.next();
      const inner = (token.value ?? "").replace(/^["'](.*)["']$/, "$1");
      if (inner === "null") return { kind: "literal", type: "datetime", value: null, span };
      const millis = parseDatetime(inner);
      if (millis === undefined) fail(token, `Invalid datetime literal '${inner}'`);
      return { kind: "literal", type: "datetime", value: millis!, span };
    }
    case "punctuation":
      if (token.text === "(") {
        c.next();
        const inner = parseExpr(c);
        const close = c.expectPunct(")");
        return { ...inner, span: { from: token.from, to: close.to } };
      }
      // A bracket-quoted name: ['Name'], ["Value"] (any characters, keywords too).
      if (token.text === "[" && c.peek(1).kind === "string" && isPunct(c.peek(2), "]")) {
        c.next();
        const name = c.next();
        const close = c.next();
        return { kind: "column", name: name.value ?? "", span: { from: token.from, to: close.to } };
      }
      break;
    case "keyword":
    case "identifier": {
      if (token.text === "true" || token.text === "false") {
        c.next();
        return { kind: "literal", type: "bool", value: token.text === "true", span };
      }
      if (isPunct(c.peek(1), "(")) return parseCall(c);
      c.next();
      return { kind: "column", name: token.text, span };
    }
    default:
      break;
  }
  return fail(token, token.kind === "eof" ? "Unexpected end of query: expected an expression" : `Expected an expression but found ${describe(token)}`);
}

function parseCall(c: Cursor): Expr {
  const name = c.next();
  c.next(); // (
  const literal = parseTypedLiteral(c, name);
  if (literal) return literal;
  const args: Expr[] = [];
  let star = false;
  while (!isPunct(c.peek(), ")")) {
    if (args.length || star) c.expectPunct(",");
    if (isPunct(c.peek(), "*")) {
      c.next();
      star = true;
      continue;
    }
    if ((name.text === "toscalar" || name.text === "materialize" || name.text === "column_names_of") && c.startsTabular()) {
      const start = c.peek().from;
      const query = c.tabular();
      args.push({ kind: "subquery", query, span: c.spanFrom(start) });
      continue;
    }
    args.push(parseExpr(c));
  }
  const close = c.expectPunct(")");
  return { kind: "call", name: name.text, nameSpan: { from: name.from, to: name.to }, args, star, span: { from: name.from, to: close.to } };
}

function binary(op: string, opToken: Token, left: Expr, right: Expr): Expr {
  return { kind: "binary", op, opSpan: { from: opToken.from, to: opToken.to }, left, right, span: { from: left.span.from, to: right.span.to } };
}

/**
 * A whole-number literal the engine carries exactly: a long (64 bits) whose value a JavaScript
 * number holds without rounding (every safe integer, and larger ones such as
 * 1546300800000000000 nanoseconds, which ADX's documentation passes to unixtime_nanoseconds_todatetime).
 */
function exactLong(text: string): boolean {
  if (!/^\d+$/.test(text)) return Number.isSafeInteger(Number(text));
  const value = BigInt(text);
  return value <= 9223372036854775807n && BigInt(Number(text)) === value;
}
