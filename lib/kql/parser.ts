/**
 * Recursive-descent parser for KQL as ADX users write it: `let` statements, then one tabular
 * query statement, separated by `;`. Error-tolerant for the editor: a malformed operator is
 * reported and the parser skips to the next `|`, so later operators still get diagnostics.
 * `compileKql` refuses any query with a diagnostic.
 *
 * Depth is bounded (MAX_NESTING): parentheses, nested calls, sub-queries and chains of
 * arithmetic all count, so no input can exhaust the stack; `and`/`or` chains are read in a loop
 * into one node, so thousands of terms cost no depth at all.
 *
 * This module reads the statements; the grammar below them is in parser/: tabular.ts (sources and
 * pipelines), operators.ts (what follows each `|`), expressions.ts, literals.ts, and cursor.ts
 * (the tokens, the position and the names in scope).
 */
import type { Expr, FunctionParam, LetStatement, LetValue, Name, QueryAst, SetStatement, TabularExpr } from "./ast";
import { tokenize } from "./lexer";
import { Cursor, describe, isName, isPunct, isWord, ParseFailure, type Diagnostic, type PatternDefinition } from "./parser/cursor";
import { parseExpr } from "./parser/expressions";
import { parseTabular } from "./parser/tabular";
import { patternPath, patternValues } from "./parser/patterns";

export { MAX_NESTING, type Diagnostic } from "./parser/cursor";

export interface ParseResult {
  ast: QueryAst | null;
  diagnostics: Diagnostic[];
}

const UNSUPPORTED_STATEMENTS = new Set(["declare", "alias", "pattern", "restrict", "query_parameters"]);

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
  const c = new Cursor(tokenize(text).filter((t) => t.kind !== "comment"), (cursor) => parseTabular(cursor));
  const diagnostics = c.diagnostics;
  for (const token of c.tokens) {
    if (token.kind === "error") c.report(token, token.problem ?? `Unexpected '${token.text}'`);
    if (token.kind === "string" && token.problem) c.report(token, token.problem);
  }

  const first = c.peek();
  if (first.kind === "eof") {
    c.report(first, "Query is empty: expected a table name (States or Events)");
    return { ast: null, diagnostics };
  }
  const ast: QueryAst = { lets: [], parameters: [], sets: [], query: null, span: { from: first.from, to: text.length } };
  try {
    while (c.peek().kind !== "eof") {
      const token = c.peek();
      if (isPunct(token, ";")) {
        c.next();
        continue;
      }
      if (isWord(token, "let")) {
        const statement = parseLet(c);
        if (statement) ast.lets.push(statement);
        continue;
      }
      if (isWord(token, "declare") && isWord(c.peek(1), "query_parameters")) {
        statement(c, () => ast.parameters.push(...parseQueryParameters(c)));
        continue;
      }
      if (isWord(token, "declare") && isWord(c.peek(1), "pattern")) {
        statement(c, () => parsePatternDeclaration(c));
        continue;
      }
      if (isWord(token, "set") && isName(c.peek(1)) && !ast.query) {
        statement(c, () => ast.sets.push(parseSet(c)));
        continue;
      }
      if (isName(token) && UNSUPPORTED_STATEMENTS.has(token.text) && isName(c.peek(1))) {
        c.report(token, `'${token.text}' statements are not supported`);
        c.skipTo([";"]);
        continue;
      }
      if (ast.query) {
        c.report(token, `Only one query statement is supported; separate 'let' statements with ';'`);
        c.skipTo([]);
        break;
      }
      const query = parseQueryStatement(c);
      if (!query) break;
      ast.query = query;
    }
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    c.report(error.token, error.message);
  }
  if (!ast.query && !diagnostics.length) {
    const end = c.peek();
    c.report(end, ast.lets.length ? "Expected a query after the 'let' statements" : "Expected a table name (States or Events)");
  }
  return { ast: ast.query || ast.lets.length ? ast : null, diagnostics };
}

function parseLet(c: Cursor): LetStatement | null {
  const letToken = c.next();
  try {
    const name = bracketName(c) ?? c.expectName("a name after 'let'");
    c.expectPunct("=");
    const value = parseLetValue(c, name);
    if (c.peek().kind !== "eof") c.expectPunct(";");
    return { name, value, span: c.spanFrom(letToken.from) };
  } catch (error) {
    if (!(error instanceof ParseFailure) || error.fatal) throw error;
    c.report(error.token, error.message);
    c.skipTo([";"]);
    return null;
  }
}

/** `let ['some number'] = 20;`: a bracket-quoted name (any characters), read back as a column would be. */
function bracketName(c: Cursor): Name | undefined {
  const [open, text, close] = [c.peek(), c.peek(1), c.peek(2)];
  if (!isPunct(open, "[") || text.kind !== "string" || !isPunct(close, "]")) return undefined;
  c.next();
  c.next();
  c.next();
  return { text: text.value ?? "", span: { from: open.from, to: close.to } };
}

/** Runs one statement's parser; a recoverable failure is reported and the statement skipped. */
function statement(c: Cursor, read: () => void) {
  try {
    read();
    if (c.peek().kind !== "eof") c.expectPunct(";");
  } catch (error) {
    if (!(error instanceof ParseFailure) || error.fatal) throw error;
    c.report(error.token, error.message);
    c.skipTo([";"]);
  }
}

/** `declare query_parameters(name: type [= default], …)`: the names become scalars of the query. */
function parseQueryParameters(c: Cursor): FunctionParam[] {
  c.next();
  c.next();
  const params = parseParams(c);
  for (const p of params) c.scalarNames.add(p.name.text);
  return params;
}

/**
 * `declare pattern name [= (arg:string, …)[[path:string]] { (values)[.[path]] = { query }; … }]`:
 * an invocation `name(values)[.path]` stands for the query of the entry it matches (tabular.ts).
 */
function parsePatternDeclaration(c: Cursor) {
  c.next();
  c.next();
  const name = c.expectName("a pattern name");
  const definition: PatternDefinition = { name, arity: 0, hasPath: false, entries: [] };
  c.patterns.set(name.text, definition);
  if (!isPunct(c.peek(), "=")) return;
  c.next();
  definition.arity = parseParams(c).length;
  if (isPunct(c.peek(), "[")) {
    c.next();
    c.expectName("the path's name");
    c.expectPunct(":");
    c.expectName("the path's type");
    c.expectPunct("]");
    definition.hasPath = true;
  }
  c.expectPunct("{");
  while (!isPunct(c.peek(), "}")) {
    const args = patternValues(c);
    if (args.length !== definition.arity) describeArity(c, definition, args.length);
    let path: string | undefined;
    if (isPunct(c.peek(), ".")) {
      c.next();
      path = patternPath(c);
    }
    if (definition.hasPath !== (path !== undefined)) throw new ParseFailure(c.peek(), definition.hasPath ? "Each of this pattern's entries needs a path: (values).[path] = { … }" : "This pattern declares no path");
    c.expectPunct("=");
    c.expectPunct("{");
    const body = parseTabular(c);
    c.expectPunct("}");
    definition.entries.push({ args, path, body });
    if (isPunct(c.peek(), ";")) c.next();
  }
  c.expectPunct("}");
}

function describeArity(c: Cursor, definition: PatternDefinition, got: number): never {
  throw new ParseFailure(c.peek(), `Pattern '${definition.name.text}' takes ${definition.arity} argument${definition.arity === 1 ? "" : "s"}, not ${got}`);
}

/** `set name [= value]`. */
function parseSet(c: Cursor): SetStatement {
  const from = c.next().from;
  const name = c.expectName("an option name after 'set'");
  let value: Expr | undefined;
  if (isPunct(c.peek(), "=")) {
    c.next();
    value = parseExpr(c);
  }
  return { name, value, span: c.spanFrom(from) };
}

function parseLetValue(c: Cursor, name: Name): LetValue {
  // `let f = (a: long, b: string = "x") { body }`: a function.
  // `let V = view () { T }`: a view is a function without parameters, used by its name.
  const isView = isWord(c.peek(), "view") && isPunct(c.peek(1), "(");
  if (isView) c.next();
  if (isView || (isPunct(c.peek(), "(") && looksLikeParams(c))) {
    const params = parseParams(c);
    c.expectPunct("{");
    for (const p of params) {
      if (p.tabular) {
        c.tabularNames.add(p.name.text);
        c.scalarNames.delete(p.name.text);
      } else c.scalarNames.add(p.name.text);
    }
    const lets: LetStatement[] = [];
    while (isWord(c.peek(), "let")) {
      const statement = parseLet(c);
      if (statement) lets.push(statement);
    }
    const value = c.startsTabular() ? { kind: "tabular" as const, query: parseTabular(c) } : { kind: "scalar" as const, expr: parseExpr(c) };
    const body = lets.length ? { ...value, lets } : value;
    c.expectPunct("}");
    if (isView && !params.length && body.kind === "tabular") {
      c.tabularNames.add(name.text);
      return lets.length ? { kind: "function", params, body } : { kind: "tabular", query: body.query };
    }
    if (body.kind === "tabular") c.tabularFunctions.add(name.text);
    else c.scalarNames.add(name.text);
    return { kind: "function", params, body };
  }
  if (c.startsTabular()) {
    const query = parseTabular(c);
    c.tabularNames.add(name.text);
    c.scalarNames.delete(name.text);
    return { kind: "tabular", query };
  }
  const expr = parseExpr(c);
  c.scalarNames.add(name.text);
  c.tabularNames.delete(name.text);
  return { kind: "scalar", expr };
}

/** `(` starts a parameter list when followed by `)` then `{`, or by `name :`. */
function looksLikeParams(c: Cursor): boolean {
  if (isPunct(c.peek(1), ")")) return isPunct(c.peek(2), "{");
  return isName(c.peek(1)) && isPunct(c.peek(2), ":");
}

function parseParams(c: Cursor): FunctionParam[] {
  c.expectPunct("(");
  const params: FunctionParam[] = [];
  while (!isPunct(c.peek(), ")")) {
    if (params.length) c.expectPunct(",");
    const name = c.expectName("a parameter name");
    c.expectPunct(":");
    if (isPunct(c.peek(), "(")) {
      params.push({ name, type: { text: "table", span: name.span }, tabular: parseTabularSchema(c) });
      continue;
    }
    const type = c.expectName("a parameter type");
    let defaultValue: Expr | undefined;
    if (isPunct(c.peek(), "=")) {
      c.next();
      defaultValue = parseExpr(c);
    }
    params.push({ name, type, default: defaultValue });
  }
  c.expectPunct(")");
  return params;
}

/** A tabular parameter's schema: `(*)`, `(x:long, y:string)` or `(x:long, *)`. */
function parseTabularSchema(c: Cursor): NonNullable<FunctionParam["tabular"]> {
  c.expectPunct("(");
  const columns: { name: Name; type: Name }[] = [];
  let open = false;
  while (!isPunct(c.peek(), ")")) {
    if (columns.length || open) c.expectPunct(",");
    if (isPunct(c.peek(), "*")) {
      c.next();
      open = true;
      continue;
    }
    const name = c.expectName("a column name");
    c.expectPunct(":");
    columns.push({ name, type: c.expectName("a column type") });
  }
  c.expectPunct(")");
  return { columns, open };
}

function parseQueryStatement(c: Cursor): TabularExpr | null {
  const token = c.peek();
  if (isPunct(token, "|")) {
    c.report(token, `Expected a table name (States or Events) but found ${describe(token)}`);
    c.skipTo([";"]);
    return null;
  }
  if (!isName(token) && !isPunct(token, "(")) {
    c.report(token, `Expected a table name (States or Events) but found ${describe(token)}`);
    c.skipTo([";"]);
    return null;
  }
  return parseTabular(c, true);
}
