/**
 * Recursive-descent parser for KQL as ADX users write it: `let` statements, then one tabular
 * query statement, separated by `;`. Error-tolerant for the editor: a malformed operator is
 * reported and the parser skips to the next `|`, so later operators still get diagnostics.
 * `compileKql` refuses any query with a diagnostic.
 *
 * Depth is bounded (MAX_NESTING): parentheses, nested calls, sub-queries and chains of
 * arithmetic all count, so no input can exhaust the stack; `and`/`or` chains are read in a loop
 * into one node, so thousands of terms cost no depth at all.
 */
import type {
  Assignment, Expr, FunctionParam, JoinKey, LetStatement, LetValue, MakeSeriesAggregate, Name, Operator, ParsePart,
  QueryAst, SortKey, Span, TabularExpr, TabularSource, TopNestedLevel, UnionOptions,
} from "./ast";
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

/** Deepest nesting of expressions and sub-queries a query may have. */
export const MAX_NESTING = 100;

class ParseFailure extends Error {
  constructor(
    readonly token: Token,
    message: string,
    /** Not recoverable by skipping to the next `|` (nesting too deep). */
    readonly fatal = false,
  ) {
    super(message);
  }
}

const COMPARISON_OPS = new Set([
  "==", "!=", "<>", "<", "<=", ">", ">=", "=~", "!~",
  "has", "!has", "has_cs", "!has_cs", "contains", "!contains", "contains_cs", "!contains_cs",
  "startswith", "!startswith", "startswith_cs", "!startswith_cs",
  "endswith", "!endswith", "endswith_cs", "!endswith_cs",
  "hasprefix", "!hasprefix", "hasprefix_cs", "!hasprefix_cs", "hassuffix", "!hassuffix", "hassuffix_cs", "!hassuffix_cs",
]);

const TYPED_NULL_LITERALS = new Set(["real", "double", "long", "int", "bool", "boolean", "dynamic", "string", "timespan", "time", "decimal", "guid"]);

/** KQL operators and statements this engine refuses: named in the error instead of "Unknown operator". */
const UNSUPPORTED_OPERATORS = new Set([
  "evaluate", "mv-apply", "make-graph", "scan", "partition", "fork", "facet", "find", "search", "invoke",
  "reduce", "sample-distinct", "top-hitters", "parse-kv", "parse-where", "project-smart", "project-by-names",
  "externaldata", "graph-match", "graph-to-table", "graph-merge", "graph-shortest-paths", "consume", "execute",
  "assert-schema", "macro-expand", "partition-by",
]);
const UNSUPPORTED_STATEMENTS = new Set(["set", "declare", "alias", "pattern", "restrict", "query_parameters"]);

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
  let depth = 0;
  /** Names that denote tables: the tables themselves are resolved later; `let`/`as` names are known here. */
  const tabularNames = new Set<string>();
  const tabularFunctions = new Set<string>();
  const scalarNames = new Set<string>();

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
  /** One or more items separated by commas. */
  const commaList = <T>(item: () => T): T[] => {
    const items = [item()];
    while (isPunct(peek(), ",")) {
      next();
      items.push(item());
    }
    return items;
  };
  /** An optional clause: what `parse` reads after the word, when the next token is that word. */
  const after = <T>(word: string, parse: () => T): T | undefined => {
    if (!isWord(peek(), word)) return undefined;
    next();
    return parse();
  };
  const isName = (token: Token) => token.kind === "identifier" || token.kind === "keyword";
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
  const expectName = (what: string): Name => {
    const token = peek();
    if (!isName(token)) fail(token, `Expected ${what} but found ${describe(token)}`);
    next();
    return { text: token.text, span: { from: token.from, to: token.to } };
  };
  const spanFrom = (from: number): Span => ({ from, to: tokens[Math.max(index - 1, 0)]!.to });
  const enter = (token: Token) => {
    if (++depth > MAX_NESTING) throw new ParseFailure(token, `The query is nested deeper than ${MAX_NESTING} levels; simplify it`, true);
  };
  const leave = () => {
    depth--;
  };
  /** `kind=inner`, `withsource=Name`, `hint.strategy=shuffle`: `name=value` options before an operator's arguments. */
  const readOptions = (allowed: Set<string>): Map<string, { value: Name; span: Span }> => {
    const options = new Map<string, { value: Name; span: Span }>();
    for (;;) {
      const token = peek();
      if (!isName(token) || !isPunct(peek(1), "=")) return options;
      let key = token.text;
      let end = 2;
      // hint.strategy, hint.shufflekey, …: dotted option names.
      while (isPunct(peek(end - 1), ".") && isName(peek(end))) {
        key += `.${peek(end).text}`;
        end += 2;
      }
      if (!isPunct(peek(end - 1), "=")) return options;
      if (!allowed.has(key) && !key.startsWith("hint.")) return options;
      for (let i = 0; i < end; i++) next();
      const valueToken = next();
      if (valueToken.kind === "eof" || isPunct(valueToken, "(") || isPunct(valueToken, "|")) fail(valueToken, `Expected a value for '${key}'`);
      options.set(key, { value: { text: valueToken.value ?? valueToken.text, span: { from: valueToken.from, to: valueToken.to } }, span: spanFrom(token.from) });
    }
  };

  // ---- statements ----
  const first = peek();
  if (first.kind === "eof") {
    report(first, "Query is empty: expected a table name (States or Events)");
    return { ast: null, diagnostics };
  }
  const ast: QueryAst = { lets: [], query: null, span: { from: first.from, to: text.length } };
  try {
    while (peek().kind !== "eof") {
      const token = peek();
      if (isPunct(token, ";")) {
        next();
        continue;
      }
      if (isWord(token, "let")) {
        const statement = parseLet();
        if (statement) ast.lets.push(statement);
        continue;
      }
      if (isName(token) && UNSUPPORTED_STATEMENTS.has(token.text) && isName(peek(1))) {
        report(token, `'${token.text}' statements are not supported`);
        skipTo([";"]);
        continue;
      }
      if (ast.query) {
        report(token, `Only one query statement is supported; separate 'let' statements with ';'`);
        skipTo([]);
        break;
      }
      const query = parseQueryStatement();
      if (!query) break;
      ast.query = query;
    }
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    report(error.token, error.message);
  }
  if (!ast.query && !diagnostics.length) {
    const end = peek();
    report(end, ast.lets.length ? "Expected a query after the 'let' statements" : "Expected a table name (States or Events)");
  }
  return { ast: ast.query || ast.lets.length ? ast : null, diagnostics };

  function skipTo(stops: string[]) {
    while (peek().kind !== "eof" && !stops.some((s) => isPunct(peek(), s))) next();
  }

  function parseLet(): LetStatement | null {
    const letToken = next();
    try {
      const name = expectName("a name after 'let'");
      expectPunct("=");
      const value = parseLetValue(name);
      if (peek().kind !== "eof") expectPunct(";");
      return { name, value, span: spanFrom(letToken.from) };
    } catch (error) {
      if (!(error instanceof ParseFailure) || error.fatal) throw error;
      report(error.token, error.message);
      skipTo([";"]);
      return null;
    }
  }

  function parseLetValue(name: Name): LetValue {
    // `let f = (a: long, b: string = "x") { body }`: a function.
    if (isPunct(peek(), "(") && looksLikeParams()) {
      const params = parseParams();
      expectPunct("{");
      for (const p of params) scalarNames.add(p.name.text);
      const body = startsTabular() ? { kind: "tabular" as const, query: parseTabular() } : { kind: "scalar" as const, expr: parseExpr() };
      expectPunct("}");
      if (body.kind === "tabular") tabularFunctions.add(name.text);
      else scalarNames.add(name.text);
      return { kind: "function", params, body };
    }
    if (startsTabular()) {
      const query = parseTabular();
      tabularNames.add(name.text);
      scalarNames.delete(name.text);
      return { kind: "tabular", query };
    }
    const expr = parseExpr();
    scalarNames.add(name.text);
    tabularNames.delete(name.text);
    return { kind: "scalar", expr };
  }

  /** `(` starts a parameter list when followed by `)` then `{`, or by `name :`. */
  function looksLikeParams(): boolean {
    if (isPunct(peek(1), ")")) return isPunct(peek(2), "{");
    return isName(peek(1)) && isPunct(peek(2), ":");
  }

  function parseParams(): FunctionParam[] {
    expectPunct("(");
    const params: FunctionParam[] = [];
    while (!isPunct(peek(), ")")) {
      if (params.length) expectPunct(",");
      const name = expectName("a parameter name");
      expectPunct(":");
      if (isPunct(peek(), "(")) fail(peek(), "Tabular parameters of functions are not supported");
      const type = expectName("a parameter type");
      let defaultValue: Expr | undefined;
      if (isPunct(peek(), "=")) {
        next();
        defaultValue = parseExpr();
      }
      params.push({ name, type, default: defaultValue });
    }
    expectPunct(")");
    return params;
  }

  /** Whether a tabular expression starts here (as opposed to a scalar one). */
  function startsTabular(): boolean {
    const token = peek();
    if (isPunct(token, "(")) {
      // `(States | …)` or `(T)` where T is tabular.
      const inner = peek(1);
      return isName(inner) && (tabularNames.has(inner.text) || isTableLike(inner.text) || tabularFunctions.has(inner.text) || ["union", "datatable", "print", "range"].includes(inner.text)) && !scalarNames.has(inner.text);
    }
    if (!isName(token)) return false;
    if (scalarNames.has(token.text)) return false;
    if (["union", "datatable", "print"].includes(token.text)) return true;
    if (token.text === "range" && isName(peek(1)) && isWord(peek(2), "from")) return true;
    if (tabularFunctions.has(token.text) || token.text === "materialize" || token.text === "view") return true;
    if (tabularNames.has(token.text) || isTableLike(token.text)) return !isPunct(peek(1), "(");
    return isPunct(peek(1), "|");
  }

  function isTableLike(name: string): boolean {
    return name === "States" || name === "Events";
  }

  function parseQueryStatement(): TabularExpr | null {
    const token = peek();
    if (isPunct(token, "|")) {
      report(token, `Expected a table name (States or Events) but found ${describe(token)}`);
      skipTo([";"]);
      return null;
    }
    if (!isName(token) && !isPunct(token, "(")) {
      report(token, `Expected a table name (States or Events) but found ${describe(token)}`);
      skipTo([";"]);
      return null;
    }
    return parseTabular(true);
  }

  // ---- tabular expressions ----
  /** A source then `| operator`s. At the top level a broken operator is reported and skipped. */
  function parseTabular(topLevel = false): TabularExpr {
    const start = peek();
    enter(start);
    try {
      const source = parseSource();
      const query: TabularExpr = { source, operators: [], span: { from: start.from, to: source.span.to } };
      while (isPunct(peek(), "|") || (topLevel && peek().kind !== "eof" && !isPunct(peek(), ";"))) {
        const token = peek();
        if (!isPunct(token, "|")) {
          report(token, `Expected '|' but found ${describe(token)}`);
          skipTo(["|", ";"]);
          continue;
        }
        next();
        if (!topLevel) {
          query.operators.push(parseOperator());
          continue;
        }
        try {
          query.operators.push(parseOperator());
          const after = peek();
          if (after.kind !== "eof" && !isPunct(after, "|") && !isPunct(after, ";")) fail(after, `Unexpected ${describe(after)}`);
        } catch (error) {
          if (!(error instanceof ParseFailure) || error.fatal) throw error;
          report(error.token, error.message);
          skipTo(["|", ";"]);
        }
      }
      query.span = spanFrom(start.from);
      return query;
    } finally {
      leave();
    }
  }

  function parseSource(): TabularSource {
    const token = peek();
    const from = token.from;
    if (isPunct(token, "(")) {
      next();
      const query = parseTabular();
      expectPunct(")");
      return { kind: "paren", query, span: spanFrom(from) };
    }
    if (!isName(token)) fail(token, `Expected a table name (States or Events) but found ${describe(token)}`);
    if (UNSUPPORTED_OPERATORS.has(token.text)) fail(token, `'${token.text}' is not supported`);
    switch (token.text) {
      case "union": {
        next();
        const { options, tables } = parseUnionArgs();
        return { kind: "union", options, tables, span: spanFrom(from) };
      }
      case "datatable":
        if (isPunct(peek(1), "(")) return parseDatatable();
        break;
      case "print": {
        next();
        return { kind: "print", items: parseAssignments(), span: spanFrom(from) };
      }
      case "range":
        if (isName(peek(1)) && isWord(peek(2), "from")) {
          next();
          const column = expectName("a column name");
          expectWord("from");
          const start = parseExpr();
          expectWord("to");
          const end = parseExpr();
          expectWord("step");
          const step = parseExpr();
          return { kind: "range", column, from: start, to: end, step, span: spanFrom(from) };
        }
        break;
      default:
        break;
    }
    next();
    const name = { text: token.text, span: { from: token.from, to: token.to } };
    if (isPunct(peek(), "(")) {
      next();
      const args: Expr[] = [];
      const tabularArgs: TabularExpr[] = [];
      while (!isPunct(peek(), ")")) {
        if (args.length || tabularArgs.length) expectPunct(",");
        if (startsTabular()) tabularArgs.push(parseTabular());
        else args.push(parseExpr());
      }
      expectPunct(")");
      return { kind: "call", name, args, tabularArgs, span: spanFrom(from) };
    }
    return { kind: "name", name, span: name.span };
  }

  function parseUnionArgs(): { options: UnionOptions; tables: TabularExpr[] } {
    const raw = readOptions(new Set(["kind", "withsource", "isfuzzy"]));
    const kind = raw.get("kind");
    if (kind && kind.value.text !== "inner" && kind.value.text !== "outer") fail(tokenAt(kind.value.span), `union kind must be inner or outer, not '${kind.value.text}'`);
    const options: UnionOptions = { kind: (kind?.value.text as "inner" | "outer") ?? "outer", withsource: raw.get("withsource")?.value };
    const tables = commaList((): TabularExpr => {
      const token = peek();
      if (isPunct(token, "(")) {
        next();
        const tabular = parseTabular();
        expectPunct(")");
        return tabular;
      }
      const name = expectName("a table name");
      if (name.text.includes("*")) fail(token, "Wildcard table names are not supported");
      return { source: { kind: "name", name, span: name.span }, operators: [], span: name.span };
    });
    return { options, tables };
  }

  function tokenAt(span: Span): Token {
    return tokens.find((t) => t.from === span.from) ?? peek();
  }

  function parseDatatable(): TabularSource {
    const start = next();
    expectPunct("(");
    const columns: { name: Name; type: Name }[] = [];
    while (!isPunct(peek(), ")")) {
      if (columns.length) expectPunct(",");
      const name = expectName("a column name");
      expectPunct(":");
      columns.push({ name, type: expectName("a column type") });
    }
    expectPunct(")");
    expectPunct("[");
    const values: Expr[] = [];
    while (!isPunct(peek(), "]")) {
      if (values.length) expectPunct(",");
      if (isPunct(peek(), "]")) break; // a trailing comma is allowed
      values.push(parseExpr());
    }
    expectPunct("]");
    return { kind: "datatable", columns, values, span: spanFrom(start.from) };
  }

  // ---- tabular operators ----
  function parseOperator(): Operator {
    const token = next();
    const from = token.from;
    const word = isName(token) ? token.text : "";
    if (UNSUPPORTED_OPERATORS.has(word)) return fail(token, `'${word}' is not supported`);
    switch (word) {
      case "where":
      case "filter":
        return { kind: "where", predicate: parseExpr(), span: spanFrom(from) };
      case "project":
        return { kind: "project", items: parseAssignments(), span: spanFrom(from) };
      case "extend":
        return { kind: "extend", items: parseAssignments(), span: spanFrom(from) };
      case "serialize": {
        const end = peek().kind === "eof" || isPunct(peek(), "|") || isPunct(peek(), ")") || isPunct(peek(), ";");
        return { kind: "serialize", items: end ? [] : parseAssignments(), span: spanFrom(from) };
      }
      case "project-away":
      case "project-keep":
        return { kind: word, columns: parseNamePatterns(), span: spanFrom(from) };
      case "project-rename": {
        const renames = commaList(() => {
          const to = expectName("a new column name");
          expectPunct("=");
          return { to, from: expectName("a column name") };
        });
        return { kind: "project-rename", renames, span: spanFrom(from) };
      }
      case "project-reorder": {
        const columns: Extract<Operator, { kind: "project-reorder" }>["columns"] = commaList(() => {
          const name = parseNamePattern();
          const order = ["asc", "desc", "granny-asc", "granny-desc"].find((o) => isWord(peek(), o)) as "asc" | undefined;
          if (order) next();
          return { name, order };
        });
        return { kind: "project-reorder", columns, span: spanFrom(from) };
      }
      case "summarize": {
        readOptions(new Set());
        const aggregates = isWord(peek(), "by") ? [] : parseAssignments();
        const by = after("by", parseAssignments) ?? [];
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
      case "sample":
        return { kind: "sample", count: parseExpr(), span: spanFrom(from) };
      case "distinct": {
        if (isPunct(peek(), "*")) {
          next();
          return { kind: "distinct", columns: "*", span: spanFrom(from) };
        }
        return { kind: "distinct", columns: parseAssignments(), span: spanFrom(from) };
      }
      case "count":
        return { kind: "count", span: spanFrom(from) };
      case "getschema":
        return { kind: "getschema", span: spanFrom(from) };
      case "as": {
        readOptions(new Set(["hint.materialized"]));
        const name = expectName("a name after 'as'");
        tabularNames.add(name.text);
        scalarNames.delete(name.text);
        return { kind: "as", name, span: spanFrom(from) };
      }
      case "union": {
        const { options, tables } = parseUnionArgs();
        return { kind: "union", options, tables, span: spanFrom(from) };
      }
      case "join":
      case "lookup":
        return parseJoin(word, from);
      case "make-series":
        return parseMakeSeries(from);
      case "mv-expand":
        return parseMvExpand(from);
      case "top-nested":
        return parseTopNested(from);
      case "parse":
        return parseParse(from);
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
        if (peek().kind !== "eof" && !isPunct(peek(), ";")) fail(peek(), "render must be the last operator");
        return { kind: "render", chart, properties, span: spanFrom(from) };
      }
      default:
        return fail(token, token.kind === "eof" ? "Expected an operator after '|'" : `Unknown operator '${token.text}'`);
    }
  }

  /** A column name, possibly with `*` wildcards (`Data*`). */
  function parseNamePattern(): Name {
    const start = peek();
    let text = "";
    let end = start.to;
    while ((isName(peek()) || isPunct(peek(), "*")) && (text === "" || peek().from === end)) {
      const token = next();
      text += token.text;
      end = token.to;
    }
    if (!text) fail(start, `Expected a column name but found ${describe(start)}`);
    return { text, span: { from: start.from, to: end } };
  }

  function parseNamePatterns(): Name[] {
    return commaList(parseNamePattern);
  }

  function parseJoin(word: "join" | "lookup", from: number): Operator {
    const options = readOptions(new Set(["kind"]));
    const kind = options.get("kind");
    const joinKind = kind?.value.text ?? (word === "join" ? "innerunique" : "leftouter");
    let right: TabularExpr;
    if (isPunct(peek(), "(")) {
      next();
      right = parseTabular();
      expectPunct(")");
    } else {
      const name = expectName("the right table of the join");
      right = { source: { kind: "name", name, span: name.span }, operators: [], span: name.span };
    }
    if (isWord(peek(), "where")) fail(peek(), `'${word} … where' is not supported; use 'on'`);
    expectWord("on");
    const on: JoinKey[] = [];
    do {
      if (on.length) next();
      on.push(parseJoinKey());
    } while (isPunct(peek(), ",") || isWord(peek(), "and"));
    return { kind: word, joinKind, kindSpan: kind?.value.span, right, on, span: spanFrom(from) };
  }

  function parseJoinKey(): JoinKey {
    const start = peek();
    const side = (): { side: string; name: Name } | null => {
      const token = peek();
      if ((token.text === "$left" || token.text === "$right") && isPunct(peek(1), ".")) {
        next();
        next();
        return { side: token.text, name: expectName("a column name") };
      }
      return null;
    };
    const a = side();
    if (a && a.side !== "$left") fail(start, "A join condition is written $left.column == $right.column");
    if (!a) {
      const name = expectName("a column name or $left.column == $right.column");
      return { left: name, right: name, span: name.span };
    }
    expectPunct("==");
    const b = side();
    if (!b || b.side === a.side) fail(peek(), "Expected the other side of the condition ($left.column == $right.column)");
    return { left: a.name, right: b!.name, span: spanFrom(start.from) };
  }

  function parseMakeSeries(from: number): Operator {
    readOptions(new Set(["kind"]));
    const aggregates = commaList((): MakeSeriesAggregate => {
      const start = peek().from;
      const item = parseAssignment();
      const defaultValue = after("default", () => {
        expectPunct("=");
        return parseExpr();
      });
      return { name: item.name, expr: item.expr, default: defaultValue, span: spanFrom(start) };
    });
    expectWord("on");
    // The axis is a column or arithmetic (not a comparison), so `on Timestamp in range(…)` stops before `in`.
    const axis = parseAdditive();
    if (isWord(peek(), "in")) fail(peek(), "make-series '… in range(…)' is not supported; use 'from … to … step …'");
    const start = after("from", parseExpr);
    const end = after("to", parseExpr);
    expectWord("step");
    const step = parseExpr();
    const by = after("by", parseAssignments) ?? [];
    return { kind: "make-series", aggregates, axis, from: start, to: end, step, by, span: spanFrom(from) };
  }

  function parseMvExpand(from: number): Operator {
    const options = readOptions(new Set(["bagexpansion", "with_itemindex", "kind"]));
    const items: Extract<Operator, { kind: "mv-expand" }>["items"] = commaList(() => {
      const start = peek().from;
      const item = parseAssignment();
      const toType = after("to", () => {
        expectWord("typeof");
        expectPunct("(");
        const name = expectName("a type");
        expectPunct(")");
        return name;
      });
      return { name: item.name, expr: item.expr, toType, span: spanFrom(start) };
    });
    const limit = after("limit", parseExpr);
    const bag = (options.get("bagexpansion") ?? options.get("kind"))?.value.text;
    if (bag && bag !== "bag" && bag !== "array") fail(peek(), `bagexpansion must be bag or array, not '${bag}'`);
    return { kind: "mv-expand", items, bagExpansion: (bag as "bag" | "array") ?? "bag", itemIndex: options.get("with_itemindex")?.value, limit, span: spanFrom(from) };
  }

  function parseTopNested(from: number): Operator {
    const levels: TopNestedLevel[] = [];
    let token = peek();
    for (;;) {
      const start = token.from;
      let count: Expr | undefined;
      if (!isWord(peek(), "of")) count = parseExpr();
      expectWord("of");
      const of = parseAssignment();
      if (isWord(peek(), "with")) fail(peek(), "top-nested '… with others = …' is not supported");
      expectWord("by");
      const by = parseAssignment();
      if (isWord(peek(), "asc") || isWord(peek(), "desc")) {
        if (next().text === "asc") fail(peek(), "top-nested '… asc' is not supported");
      }
      levels.push({ count, of, by, span: spanFrom(start) });
      if (!isPunct(peek(), ",")) break;
      next();
      token = expectWord("top-nested");
    }
    return { kind: "top-nested", levels, span: spanFrom(from) };
  }

  function parseParse(from: number): Operator {
    const options = readOptions(new Set(["kind", "flags"]));
    const kindOption = options.get("kind");
    const kind = kindOption?.value.text ?? "simple";
    if (kind !== "simple" && kind !== "regex" && kind !== "relaxed") fail(tokenAt(kindOption!.value.span), `parse kind must be simple, regex or relaxed, not '${kind}'`);
    if (options.has("flags")) fail(peek(), "parse flags= are not supported");
    const source = parseExpr();
    expectWord("with");
    const parts: ParsePart[] = [];
    for (;;) {
      const token = peek();
      if (token.kind === "string") {
        next();
        parts.push({ kind: "text", value: token.value ?? "", span: { from: token.from, to: token.to } });
      } else if (isPunct(token, "*")) {
        next();
        parts.push({ kind: "star", span: { from: token.from, to: token.to } });
      } else if (isName(token)) {
        next();
        const name = { text: token.text, span: { from: token.from, to: token.to } };
        let type: Name | undefined;
        if (isPunct(peek(), ":")) {
          next();
          type = expectName("a type");
        }
        parts.push({ kind: "column", name, type, span: spanFrom(token.from) });
      } else break;
    }
    if (!parts.length) fail(peek(), "Expected a parse pattern (\"text\", column:type, *)");
    return { kind: "parse", mode: kind as "simple", source, parts, span: spanFrom(from) };
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
    return commaList(parseAssignment);
  }

  function parseAssignment(): Assignment {
    const token = peek();
    const from = token.from;
    if (isName(token) && isPunct(peek(1), "=") && !isPunct(peek(2), "=")) {
      next();
      next();
      const expr = parseExpr();
      return { name: { text: token.text, span: { from: token.from, to: token.to } }, expr, span: spanFrom(from) };
    }
    // `['a name'] = expr`
    if (isPunct(token, "[") && peek(1).kind === "string" && isPunct(peek(2), "]") && isPunct(peek(3), "=") && !isPunct(peek(4), "=")) {
      next();
      const name = next();
      const close = next();
      next();
      const expr = parseExpr();
      return { name: { text: name.value ?? "", span: { from: token.from, to: close.to } }, expr, span: spanFrom(from) };
    }
    // `(a, b) = f(x)`: names for a function with several results (series_stats, …).
    if (isPunct(token, "(") && isName(peek(1)) && (isPunct(peek(2), ",") || isPunct(peek(2), ")"))) {
      const save = index;
      next();
      const names: Name[] = [];
      while (isName(peek())) {
        const n = next();
        names.push({ text: n.text, span: { from: n.from, to: n.to } });
        if (!isPunct(peek(), ",")) break;
        next();
      }
      if (isPunct(peek(), ")") && isPunct(peek(1), "=")) {
        next();
        next();
        const expr = parseExpr();
        return { names, expr, span: spanFrom(from) };
      }
      index = save;
    }
    return { expr: parseExpr(), span: spanFrom(from) };
  }

  function parseSortKeys(): SortKey[] {
    return commaList(() => {
      const from = peek().from;
      const key: SortKey = { expr: parseExpr(), span: { from, to: from } };
      if (isWord(peek(), "asc") || isWord(peek(), "desc")) key.direction = next().text as "asc" | "desc";
      const nulls = after("nulls", () => {
        const which = peek();
        if (!isWord(which, "first") && !isWord(which, "last")) fail(which, `Expected 'first' or 'last' but found ${describe(which)}`);
        return next().text as "first" | "last";
      });
      if (nulls) key.nulls = nulls;
      key.span = spanFrom(from);
      return key;
    });
  }

  // ---- expressions ----
  function parseExpr(): Expr {
    enter(peek());
    try {
      return parseLogical("or");
    } finally {
      leave();
    }
  }

  /** `a or b or …` / `a and b and …` as one n-ary node (a loop, not recursion per term). */
  function parseLogical(op: "and" | "or"): Expr {
    const operand = () => (op === "or" ? parseLogical("and") : parseNot());
    const first = operand();
    if (!isWord(peek(), op)) return first;
    const operands = [first];
    while (isWord(peek(), op)) {
      next();
      operands.push(operand());
    }
    return { kind: "logical", op, operands, span: { from: first.span.from, to: operands[operands.length - 1]!.span.to } };
  }

  /** KQL's `not(x)` is a function; `not x` (without parentheses) is read the same way. */
  function parseNot(): Expr {
    const token = peek();
    if (token.kind === "identifier" && token.text === "not" && !isPunct(peek(1), "(") && (isName(peek(1)) || peek(1).kind === "string" || peek(1).kind === "number")) {
      next();
      enter(token);
      try {
        const operand = parseNot();
        return { kind: "call", name: "not", nameSpan: { from: token.from, to: token.to }, args: [operand], star: false, span: { from: token.from, to: operand.span.to } };
      } finally {
        leave();
      }
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
    if (op === "matches" && isWord(peek(1), "regex")) {
      next();
      next();
      return binary("matches regex", token, left, parseAdditive());
    }
    if (op === "in" || op === "!in" || op === "has_any" || op === "has_all") {
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
        if (startsTabular()) {
          const start = peek().from;
          const query = parseTabular();
          list.push({ kind: "subquery", query, span: spanFrom(start) });
        } else list.push(parseExpr());
      }
      const close = expectPunct(")");
      if (!list.length) fail(close, "Expected at least one value in the list");
      const span = { from: left.span.from, to: close.to };
      if (op === "has_any" || op === "has_all") return { kind: "hasSet", op, target: left, list, span };
      return { kind: "in", negated: op.startsWith("!"), caseInsensitive, target: left, list, span };
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

  /** Left-deep chains: each further term is one level deeper for later stages, so it counts. */
  function parseChain(ops: string[], operand: () => Expr): Expr {
    let left = operand();
    let terms = 0;
    while (ops.some((o) => isPunct(peek(), o))) {
      const op = next();
      if (depth + ++terms > MAX_NESTING) throw new ParseFailure(op, `The query is nested deeper than ${MAX_NESTING} levels (a chain of '${op.text}' counts one level per term); simplify it`, true);
      left = binary(op.text, op, left, operand());
    }
    return left;
  }

  function parseAdditive(): Expr {
    return parseChain(["+", "-"], parseMultiplicative);
  }

  function parseMultiplicative(): Expr {
    return parseChain(["*", "/", "%"], parseUnary);
  }

  function parseUnary(): Expr {
    if (isPunct(peek(), "-") || isPunct(peek(), "+")) {
      const op = next();
      enter(op);
      try {
        const operand = parseUnary();
        return { kind: "unary", op: op.text as "-" | "+", operand, span: { from: op.from, to: operand.span.to } };
      } finally {
        leave();
      }
    }
    return parsePostfix();
  }

  function parsePostfix(): Expr {
    let expr = parsePrimary();
    let levels = 0;
    for (;;) {
      if (isPunct(peek(), ".") && isName(peek(1)) && peek(1).from === peek().to) {
        next();
        const key = next();
        expr = { kind: "member", target: expr, key: key.text, keySpan: { from: key.from, to: key.to }, bracket: false, span: { from: expr.span.from, to: key.to } };
      } else if (isPunct(peek(), "[")) {
        next();
        const key = peek();
        const isIndex = key.kind === "number" && /^\d+$/.test(key.text);
        const negativeIndex = isPunct(key, "-") && peek(1).kind === "number" && /^\d+$/.test(peek(1).text);
        if (key.kind !== "string" && !isIndex && !negativeIndex) fail(key, `Expected a quoted key or an array index after '[' but found ${describe(key)}`);
        next();
        let member: string | number = isIndex ? Number(key.text) : (key.value ?? "");
        if (negativeIndex) member = -Number(next().text);
        const close = expectPunct("]");
        expr = { kind: "member", target: expr, key: member, keySpan: { from: key.from, to: key.to }, bracket: true, span: { from: expr.span.from, to: close.to } };
      } else {
        return expr;
      }
      if (depth + ++levels > MAX_NESTING) fail(peek(), `The query is nested deeper than ${MAX_NESTING} levels; simplify it`);
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
        // A bracket-quoted name: ['Name'], ["Value"] (any characters, keywords too).
        if (token.text === "[" && peek(1).kind === "string" && isPunct(peek(2), "]")) {
          next();
          const name = next();
          const close = next();
          return { kind: "column", name: name.value ?? "", span: { from: token.from, to: close.to } };
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
    {
      const args: Expr[] = [];
      let star = false;
      while (!isPunct(peek(), ")")) {
        if (args.length || star) expectPunct(",");
        if (isPunct(peek(), "*")) {
          next();
          star = true;
          continue;
        }
        if ((name.text === "toscalar" || name.text === "materialize") && startsTabular()) {
          const start = peek().from;
          const query = parseTabular();
          args.push({ kind: "subquery", query, span: spanFrom(start) });
          continue;
        }
        args.push(parseExpr());
      }
      const close = expectPunct(")");
      return { kind: "call", name: name.text, nameSpan: { from: name.from, to: name.to }, args, star, span: { from: name.from, to: close.to } };
    }
  }

  /** `real(null)`, `long(1)`, `dynamic([1, 2])`, `timespan(1h)`, … — undefined when it is a call. */
  function parseTypedLiteral(name: Token): Expr | undefined {
    const inner = peek();
    const type = ({ double: "real", boolean: "bool", time: "timespan" } as Record<string, string>)[name.text] ?? name.text;
    if (type === "dynamic" && (isPunct(inner, "[") || isPunct(inner, "{") || inner.kind === "string" || inner.kind === "number" || isWord(inner, "true") || isWord(inner, "false") || isPunct(inner, "-"))) {
      const value = parseJsonValue();
      const close = expectPunct(")");
      return { kind: "literal", type: "dynamic", value: JSON.stringify(value), span: { from: name.from, to: close.to } };
    }
    if (!isPunct(peek(1), ")")) {
      // `long(-1)`, `real(-0.5)`
      if (isPunct(inner, "-") && peek(1).kind === "number" && isPunct(peek(2), ")") && (type === "real" || type === "long" || type === "int")) {
        next();
        const number = next();
        const close = next();
        const value = -Number(number.text);
        if (type !== "real" && !Number.isInteger(value)) fail(number, `Invalid ${type} literal '-${number.text}'`);
        return { kind: "literal", type: type as "real", value, span: { from: name.from, to: close.to } };
      }
      return undefined;
    }
    let literal: Expr | undefined;
    const span = { from: name.from, to: peek(1).to };
    if (isWord(inner, "null")) {
      if (type === "decimal" || type === "guid") fail(name, `The ${type} type is not supported`);
      literal = { kind: "literal", type: type as "real", value: null, span };
    } else if (inner.kind === "number" && (type === "real" || type === "long" || type === "int")) {
      const value = Number(inner.text);
      if (type !== "real" && !Number.isInteger(value)) fail(inner, `Invalid ${type} literal '${inner.text}'`);
      literal = { kind: "literal", type: type as "real", value, span };
    } else if (inner.kind === "keyword" && type === "bool" && (inner.text === "true" || inner.text === "false")) {
      literal = { kind: "literal", type: "bool", value: inner.text === "true", span };
    } else if (inner.kind === "timespan" && type === "timespan") {
      literal = { kind: "literal", type: "timespan", value: timespanMicros(inner.text)!, span };
    } else if (inner.kind === "string" && type === "string") {
      literal = { kind: "literal", type: "string", value: inner.value ?? "", span };
    } else if (type === "real" && inner.kind === "identifier" && ["nan", "inf", "-inf"].includes(inner.text)) {
      fail(inner, `real(${inner.text}) is not supported`);
    }
    if (!literal) return undefined;
    next();
    next();
    return literal;
  }

  /** The JSON-like content of `dynamic(…)`: arrays, property bags, strings, numbers, bools, null. */
  function parseJsonValue(): unknown {
    const token = peek();
    enter(token);
    try {
      if (isPunct(token, "[")) {
        next();
        const items: unknown[] = [];
        while (!isPunct(peek(), "]")) {
          if (items.length) expectPunct(",");
          items.push(parseJsonValue());
        }
        expectPunct("]");
        return items;
      }
      if (isPunct(token, "{")) {
        next();
        const bag: Record<string, unknown> = {};
        let first = true;
        while (!isPunct(peek(), "}")) {
          if (!first) expectPunct(",");
          first = false;
          const key = next();
          if (key.kind !== "string" && !isName(key)) fail(key, `Expected a property name but found ${describe(key)}`);
          expectPunct(":");
          bag[key.kind === "string" ? (key.value ?? "") : key.text] = parseJsonValue();
        }
        expectPunct("}");
        return bag;
      }
      if (token.kind === "string") return next().value ?? "";
      if (isPunct(token, "-") && peek(1).kind === "number") {
        next();
        return -Number(next().text);
      }
      if (token.kind === "number") return Number(next().text);
      if (isWord(token, "true") || isWord(token, "false")) return next().text === "true";
      if (isWord(token, "null")) {
        next();
        return null;
      }
      if (token.kind === "datetime") {
        next();
        const millis = parseDatetime((token.value ?? "").replace(/^["'](.*)["']$/, "$1"));
        if (millis === undefined) fail(token, `Invalid datetime literal '${token.value}'`);
        return new Date(millis!).toISOString();
      }
      return fail(token, `Expected a value in dynamic(…) but found ${describe(token)}`);
    } finally {
      leave();
    }
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
