/**
 * Recursive-descent parser for the KQL subset of decisions.md §6. Error-tolerant for the editor:
 * a malformed operator is reported and the parser skips to the next `|`, so later operators still
 * get diagnostics. `compileKql` refuses any query with a diagnostic.
 */
import type { Assignment, Expr, Operator, QueryAst, SortKey, Span } from "./ast";
import { timespanMicros, tokenize, type Token } from "./lexer";

export interface Diagnostic {
  line: number;
  column: number;
  from: number;
  to: number;
  message: string;
}

export interface ParseResult {
  ast: QueryAst | null;
  diagnostics: Diagnostic[];
}

class ParseFailure extends Error {
  constructor(readonly token: Token, message: string) {
    super(message);
  }
}

/** Binary operators by precedence level, lowest first. `in`/`between` sit with the comparisons. */
const COMPARISON_OPS = new Set([
  "==", "!=", "<>", "<", "<=", ">", ">=", "=~", "!~",
  "has", "!has", "has_cs", "!has_cs", "contains", "!contains", "contains_cs", "!contains_cs",
  "startswith", "!startswith", "startswith_cs", "!startswith_cs",
  "endswith", "!endswith", "endswith_cs", "!endswith_cs",
]);

const TYPED_NULL_LITERALS = new Set(["real", "double", "long", "int", "bool", "boolean", "dynamic", "string", "timespan", "time"]);

/** Converts an offset to 1-based line/column. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

export function parse(text: string): ParseResult {
  const tokens = tokenize(text).filter((t) => t.kind !== "comment");
  const diagnostics: Diagnostic[] = [];
  let index = 0;

  const report = (token: Token, message: string, to = token.to) => {
    diagnostics.push({ line: token.line, column: token.column, from: token.from, to: Math.max(to, token.from), message });
  };
  for (const token of tokens) {
    if (token.kind === "error") report(token, token.problem ?? `Unexpected '${token.text}'`);
    if (token.kind === "string" && token.problem) report(token, token.problem);
  }

  const peek = (ahead = 0): Token => tokens[Math.min(index + ahead, tokens.length - 1)]!;
  const next = (): Token => {
    const token = peek();
    if (index < tokens.length - 1) index++;
    return token;
  };
  const isWord = (token: Token, word: string) =>
    (token.kind === "identifier" || token.kind === "keyword" || token.kind === "operator") && token.text === word;
  const isPunct = (token: Token, text: string) => (token.kind === "punctuation" || token.kind === "operator") && token.text === text;
  const fail = (token: Token, message: string): never => {
    throw new ParseFailure(token, message);
  };
  const describe = (token: Token) => (token.kind === "eof" ? "end of query" : `'${token.text}'`);
  const expectPunct = (text: string): Token => {
    const token = peek();
    if (!isPunct(token, text)) fail(token, `Expected '${text}' but found ${describe(token)}`);
    return next();
  };
  const expectWord = (word: string): Token => {
    const token = peek();
    if (!isWord(token, word)) fail(token, `Expected '${word}' but found ${describe(token)}`);
    return next();
  };
  const expectName = (what: string): { text: string; span: Span } => {
    const token = peek();
    if (token.kind !== "identifier" && token.kind !== "keyword") fail(token, `Expected ${what} but found ${describe(token)}`);
    next();
    return { text: token.text, span: { from: token.from, to: token.to } };
  };
  const spanFrom = (from: number): Span => ({ from, to: tokens[Math.max(index - 1, 0)]!.to });

  // ---- query ----
  const first = peek();
  if (first.kind === "eof") {
    report(first, "Query is empty: expected a table name (States or Events)");
    return { ast: null, diagnostics };
  }
  if (first.kind !== "identifier") {
    report(first, `Expected a table name (States or Events) but found ${describe(first)}`);
    return { ast: null, diagnostics };
  }
  next();
  const ast: QueryAst = {
    table: { name: first.text, span: { from: first.from, to: first.to } },
    operators: [],
    span: { from: first.from, to: text.length },
  };

  while (peek().kind !== "eof") {
    const token = peek();
    if (!isPunct(token, "|")) {
      report(token, `Expected '|' but found ${describe(token)}`);
      skipToPipe();
      continue;
    }
    next();
    try {
      ast.operators.push(parseOperator());
      const after = peek();
      if (after.kind !== "eof" && !isPunct(after, "|")) fail(after, `Unexpected ${describe(after)}`);
    } catch (error) {
      if (!(error instanceof ParseFailure)) throw error;
      report(error.token, error.message);
      skipToPipe();
    }
  }
  return { ast, diagnostics };

  function skipToPipe() {
    while (peek().kind !== "eof" && !isPunct(peek(), "|")) next();
  }

  // ---- tabular operators ----
  function parseOperator(): Operator {
    const token = next();
    const from = token.from;
    const word = token.kind === "identifier" || token.kind === "keyword" ? token.text : "";
    switch (word) {
      case "where":
      case "filter":
        return { kind: "where", predicate: parseExpr(), span: spanFrom(from) };
      case "project":
        return { kind: "project", items: parseAssignments(), span: spanFrom(from) };
      case "extend":
        return { kind: "extend", items: parseAssignments(), span: spanFrom(from) };
      case "project-away": {
        const columns = [expectName("a column name")];
        while (isPunct(peek(), ",")) {
          next();
          columns.push(expectName("a column name"));
        }
        return { kind: "project-away", columns, span: spanFrom(from) };
      }
      case "project-rename": {
        const renames = [];
        do {
          if (renames.length) next();
          const to = expectName("a new column name");
          expectPunct("=");
          renames.push({ to, from: expectName("a column name") });
        } while (isPunct(peek(), ","));
        return { kind: "project-rename", renames, span: spanFrom(from) };
      }
      case "summarize": {
        const aggregates = isWord(peek(), "by") ? [] : parseAssignments();
        let by: Assignment[] = [];
        if (isWord(peek(), "by")) {
          next();
          by = parseAssignments();
        }
        if (!aggregates.length && !by.length) fail(peek(), "summarize needs an aggregation or a 'by' clause");
        return { kind: "summarize", aggregates, by, span: spanFrom(from) };
      }
      case "order":
      case "sort": {
        expectWord("by");
        return { kind: "sort", keys: parseSortKeys(), span: spanFrom(from) };
      }
      case "top": {
        const count = parseExpr();
        expectWord("by");
        return { kind: "top", count, keys: parseSortKeys(), span: spanFrom(from) };
      }
      case "take":
      case "limit":
        return { kind: "take", count: parseExpr(), span: spanFrom(from) };
      case "distinct": {
        if (isPunct(peek(), "*")) {
          next();
          return { kind: "distinct", columns: "*", span: spanFrom(from) };
        }
        return { kind: "distinct", columns: parseAssignments(), span: spanFrom(from) };
      }
      case "count":
        return { kind: "count", span: spanFrom(from) };
      case "render": {
        const chart = expectName("a chart kind (timechart, barchart, …)");
        const properties: { name: string; value: Expr }[] = [];
        if (isWord(peek(), "with")) {
          next();
          expectPunct("(");
          while (!isPunct(peek(), ")")) {
            if (properties.length) expectPunct(",");
            const name = expectName("a property name");
            expectPunct("=");
            properties.push({ name: name.text, value: parseRenderValue() });
          }
          expectPunct(")");
        }
        if (peek().kind !== "eof") fail(peek(), "render must be the last operator");
        return { kind: "render", chart, properties, span: spanFrom(from) };
      }
      default:
        return fail(token, token.kind === "eof" ? "Expected an operator after '|'" : `Unknown operator '${token.text}'`);
    }
  }

  /** Render properties: literals, or a parenthesised list of names (`ycolumns=(a, b)`) as text. */
  function parseRenderValue(): Expr {
    const token = peek();
    if (isPunct(token, "(")) {
      next();
      const names: string[] = [];
      while (!isPunct(peek(), ")")) {
        if (names.length) expectPunct(",");
        names.push(expectName("a column name").text);
      }
      expectPunct(")");
      return { kind: "literal", type: "string", value: names.join(","), span: spanFrom(token.from) };
    }
    if (token.kind === "identifier") {
      next();
      return { kind: "literal", type: "string", value: token.text, span: { from: token.from, to: token.to } };
    }
    return parsePrimary();
  }

  function parseAssignments(): Assignment[] {
    const items: Assignment[] = [parseAssignment()];
    while (isPunct(peek(), ",")) {
      next();
      items.push(parseAssignment());
    }
    return items;
  }

  function parseAssignment(): Assignment {
    const token = peek();
    const from = token.from;
    if ((token.kind === "identifier" || token.kind === "keyword") && isPunct(peek(1), "=") ) {
      next();
      next();
      const expr = parseExpr();
      return { name: { text: token.text, span: { from: token.from, to: token.to } }, expr, span: spanFrom(from) };
    }
    return { expr: parseExpr(), span: spanFrom(from) };
  }

  function parseSortKeys(): SortKey[] {
    const keys: SortKey[] = [];
    do {
      if (keys.length) next();
      const from = peek().from;
      const key: SortKey = { expr: parseExpr(), span: { from, to: from } };
      if (isWord(peek(), "asc") || isWord(peek(), "desc")) key.direction = next().text as "asc" | "desc";
      if (isWord(peek(), "nulls")) {
        next();
        const which = peek();
        if (!isWord(which, "first") && !isWord(which, "last")) fail(which, `Expected 'first' or 'last' but found ${describe(which)}`);
        key.nulls = next().text as "first" | "last";
      }
      key.span = spanFrom(from);
      keys.push(key);
    } while (isPunct(peek(), ","));
    return keys;
  }

  // ---- expressions ----
  function parseExpr(): Expr {
    return parseOr();
  }

  function parseOr(): Expr {
    let left = parseAnd();
    while (isWord(peek(), "or")) {
      const op = next();
      const right = parseAnd();
      left = binary("or", op, left, right);
    }
    return left;
  }

  function parseAnd(): Expr {
    let left = parseNot();
    while (isWord(peek(), "and")) {
      const op = next();
      const right = parseNot();
      left = binary("and", op, left, right);
    }
    return left;
  }

  /** KQL's `not(x)` is a function; `not x` (without parentheses) is read the same way. */
  function parseNot(): Expr {
    const token = peek();
    if (token.kind === "identifier" && token.text === "not" && !isPunct(peek(1), "(") && (peek(1).kind === "identifier" || peek(1).kind === "keyword" || peek(1).kind === "string" || peek(1).kind === "number")) {
      next();
      const operand = parseNot();
      return { kind: "call", name: "not", nameSpan: { from: token.from, to: token.to }, args: [operand], star: false, span: { from: token.from, to: operand.span.to } };
    }
    return parseComparison();
  }

  function parseComparison(): Expr {
    const left = parseAdditive();
    const token = peek();
    const op = token.text;
    if ((token.kind === "operator" || token.kind === "keyword" || token.kind === "identifier") && COMPARISON_OPS.has(op)) {
      next();
      return binary(op === "<>" ? "!=" : op, token, left, parseAdditive());
    }
    if (op === "in" || op === "!in" || op === "in~" || op === "!in~") {
      next();
      let caseInsensitive = false;
      if (isPunct(peek(), "~") && peek().from === token.to) {
        next();
        caseInsensitive = true;
      }
      expectPunct("(");
      const list: Expr[] = [];
      while (!isPunct(peek(), ")")) {
        if (list.length) expectPunct(",");
        list.push(parseExpr());
      }
      const close = expectPunct(")");
      if (!list.length) fail(close, "Expected at least one value in the list");
      return { kind: "in", negated: op.startsWith("!"), caseInsensitive, target: left, list, span: { from: left.span.from, to: close.to } };
    }
    if (op === "between" || op === "!between") {
      next();
      expectPunct("(");
      const low = parseAdditive();
      expectPunct("..");
      const high = parseAdditive();
      const close = expectPunct(")");
      return { kind: "between", negated: op === "!between", target: left, low, high, span: { from: left.span.from, to: close.to } };
    }
    return left;
  }

  function parseAdditive(): Expr {
    let left = parseMultiplicative();
    while (isPunct(peek(), "+") || isPunct(peek(), "-")) {
      const op = next();
      left = binary(op.text, op, left, parseMultiplicative());
    }
    return left;
  }

  function parseMultiplicative(): Expr {
    let left = parseUnary();
    while (isPunct(peek(), "*") || isPunct(peek(), "/") || isPunct(peek(), "%")) {
      const op = next();
      left = binary(op.text, op, left, parseUnary());
    }
    return left;
  }

  function parseUnary(): Expr {
    if (isPunct(peek(), "-") || isPunct(peek(), "+")) {
      const op = next();
      const operand = parseUnary();
      return { kind: "unary", op: op.text as "-" | "+", operand, span: { from: op.from, to: operand.span.to } };
    }
    return parsePostfix();
  }

  function parsePostfix(): Expr {
    let expr = parsePrimary();
    for (;;) {
      if (isPunct(peek(), ".") && (peek(1).kind === "identifier" || peek(1).kind === "keyword") && peek(1).from === peek().to) {
        next();
        const key = next();
        expr = { kind: "member", target: expr, key: key.text, keySpan: { from: key.from, to: key.to }, bracket: false, span: { from: expr.span.from, to: key.to } };
        continue;
      }
      if (isPunct(peek(), "[")) {
        next();
        const key = peek();
        const index = key.kind === "number" && /^\d+$/.test(key.text);
        if (key.kind !== "string" && !index) fail(key, `Expected a quoted key or an array index after '[' but found ${describe(key)}`);
        next();
        const close = expectPunct("]");
        const member = index ? Number(key.text) : (key.value ?? "");
        expr = { kind: "member", target: expr, key: member, keySpan: { from: key.from, to: key.to }, bracket: true, span: { from: expr.span.from, to: close.to } };
        continue;
      }
      return expr;
    }
  }

  function parsePrimary(): Expr {
    const token = peek();
    const span = { from: token.from, to: token.to };
    switch (token.kind) {
      case "string":
        next();
        return { kind: "literal", type: "string", value: token.value ?? "", span };
      case "number": {
        next();
        const isReal = /[.eE]/.test(token.text);
        if (!isReal && !Number.isSafeInteger(Number(token.text))) fail(token, `Number ${token.text} is out of range`);
        return { kind: "literal", type: isReal ? "real" : "long", value: Number(token.text), span };
      }
      case "timespan":
        next();
        return { kind: "literal", type: "timespan", value: timespanMicros(token.text)!, span };
      case "datetime": {
        next();
        const inner = (token.value ?? "").replace(/^["'](.*)["']$/, "$1");
        if (inner === "null") return { kind: "literal", type: "datetime", value: null, span };
        const millis = parseDatetime(inner);
        if (millis === undefined) fail(token, `Invalid datetime literal '${inner}'`);
        return { kind: "literal", type: "datetime", value: millis!, span };
      }
      case "punctuation":
        if (token.text === "(") {
          next();
          const inner = parseExpr();
          const close = expectPunct(")");
          return { ...inner, span: { from: token.from, to: close.to } };
        }
        break;
      case "keyword":
      case "identifier": {
        if (token.text === "true" || token.text === "false") {
          next();
          return { kind: "literal", type: "bool", value: token.text === "true", span };
        }
        if (isPunct(peek(1), "(")) return parseCall();
        next();
        return { kind: "column", name: token.text, span };
      }
      default:
        break;
    }
    return fail(token, token.kind === "eof" ? "Unexpected end of query: expected an expression" : `Expected an expression but found ${describe(token)}`);
  }

  function parseCall(): Expr {
    const name = next();
    next(); // (
    if (TYPED_NULL_LITERALS.has(name.text)) {
      const literal = parseTypedLiteral(name);
      if (literal) return literal;
    }
    const args: Expr[] = [];
    let star = false;
    while (!isPunct(peek(), ")")) {
      if (args.length || star) expectPunct(",");
      if (isPunct(peek(), "*")) {
        next();
        star = true;
        continue;
      }
      args.push(parseExpr());
    }
    const close = expectPunct(")");
    return { kind: "call", name: name.text, nameSpan: { from: name.from, to: name.to }, args, star, span: { from: name.from, to: close.to } };
  }

  /** `real(null)`, `long(1)`, `dynamic(null)`, `timespan(1h)`, … — undefined when it is a call. */
  function parseTypedLiteral(name: Token): Expr | undefined {
    const inner = peek();
    if (!isPunct(peek(1), ")")) return undefined;
    const type = ({ double: "real", boolean: "bool", time: "timespan" } as Record<string, string>)[name.text] ?? name.text;
    let literal: Expr | undefined;
    const span = { from: name.from, to: peek(1).to };
    if (isWord(inner, "null")) literal = { kind: "literal", type: type as "real", value: null, span };
    else if (inner.kind === "number" && (type === "real" || type === "long" || type === "int")) {
      const value = Number(inner.text);
      if (type !== "real" && !Number.isInteger(value)) fail(inner, `Invalid ${type} literal '${inner.text}'`);
      literal = { kind: "literal", type: type as "real", value, span };
    } else if ((inner.kind === "keyword") && type === "bool" && (inner.text === "true" || inner.text === "false")) {
      literal = { kind: "literal", type: "bool", value: inner.text === "true", span };
    } else if (inner.kind === "timespan" && type === "timespan") {
      literal = { kind: "literal", type: "timespan", value: timespanMicros(inner.text)!, span };
    } else if (inner.kind === "string" && type === "string") {
      literal = { kind: "literal", type: "string", value: inner.value ?? "", span };
    }
    if (!literal) return undefined;
    next();
    next();
    return literal;
  }

  function binary(op: string, opToken: Token, left: Expr, right: Expr): Expr {
    return { kind: "binary", op, opSpan: { from: opToken.from, to: opToken.to }, left, right, span: { from: left.span.from, to: right.span.to } };
  }
}

/**
 * Epoch milliseconds of a datetime literal: `2024-01-01`, `2024-01-01 10:00`, `2024-01-01T10:00:00.123Z`;
 * without a zone the time is UTC (as in ADX).
 */
export function parseDatetime(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = match;
  const millis = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Math.floor(Number((frac + "000").slice(0, 3))));
  const check = new Date(millis);
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let offset = 0;
  if (zone && zone !== "Z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  const result = millis - offset;
  // Date.UTC maps years 0..99 to 1900..1999; ADX's range starts at year 1.
  return Number(y) < 100 ? undefined : result;
}
