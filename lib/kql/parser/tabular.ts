/**
 * Tabular expressions: a source (a table or `let` name, a call of a tabular function, `union`,
 * `datatable`, `print`, `range`, a parenthesised query) followed by `| operator`s.
 */
import type { Expr, Name, TabularExpr, TabularSource } from "../ast";
import { Cursor, describe, fail, isName, isPunct, isWord, ParseFailure, type PatternDefinition } from "./cursor";
import { parseAssignments, parseExpr } from "./expressions";
import { parseOperator, parseUnionArgs, refuseSourcePlugin, UNSUPPORTED_OPERATORS } from "./operators";
import { parseSearchSource } from "./search";
import { patternPath, patternValues } from "./patterns";

/** A source then `| operator`s. At the top level a broken operator is reported and skipped. */
export function parseTabular(c: Cursor, topLevel = false): TabularExpr {
  const start = c.peek();
  c.enter(start);
  try {
    const source = parseSource(c);
    const query: TabularExpr = { source, operators: [], span: { from: start.from, to: source.span.to } };
    while (isPunct(c.peek(), "|") || (topLevel && c.peek().kind !== "eof" && !isPunct(c.peek(), ";"))) {
      const token = c.peek();
      if (!isPunct(token, "|")) {
        c.report(token, `Expected '|' but found ${describe(token)}`);
        c.skipTo(["|", ";"]);
        continue;
      }
      c.next();
      if (!topLevel) {
        query.operators.push(parseOperator(c));
        continue;
      }
      try {
        query.operators.push(parseOperator(c));
        const after = c.peek();
        if (after.kind !== "eof" && !isPunct(after, "|") && !isPunct(after, ";")) fail(after, `Unexpected ${describe(after)}`);
      } catch (error) {
        if (!(error instanceof ParseFailure) || error.fatal) throw error;
        c.report(error.token, error.message);
        c.skipTo(["|", ";"]);
      }
    }
    query.span = c.spanFrom(start.from);
    return query;
  } finally {
    c.leave();
  }
}

function parseSource(c: Cursor): TabularSource {
  const token = c.peek();
  const from = token.from;
  if (isPunct(token, "(")) {
    c.next();
    const query = parseTabular(c);
    c.expectPunct(")");
    return { kind: "paren", query, span: c.spanFrom(from) };
  }
  if (!isName(token)) fail(token, `Expected a table name (States or Events) but found ${describe(token)}`);
  if (token.text === "evaluate" && isName(c.peek(1))) refuseSourcePlugin(c);
  // ADX's externaldata (also spelled external_data) and inline_external_table read files from outside storage by URL: never from here.
  if (token.text === "externaldata" || token.text === "external_data" || token.text === "inline_external_table") fail(token, `'${token.text}' is refused: it reads storage outside the service (write the rows inline with datatable)`);
  if (UNSUPPORTED_OPERATORS.has(token.text)) fail(token, `'${token.text}' is not supported`);
  const pattern = c.patterns.get(token.text);
  if (pattern && isPunct(c.peek(1), "(")) return invokePattern(c, pattern);
  switch (token.text) {
    case "search":
      return parseSearchSource(c);
    case "union": {
      c.next();
      const { options, tables } = parseUnionArgs(c);
      return { kind: "union", options, tables, span: c.spanFrom(from) };
    }
    case "datatable":
      if (isPunct(c.peek(1), "(")) return parseDatatable(c);
      break;
    case "print": {
      c.next();
      return { kind: "print", items: parseAssignments(c), span: c.spanFrom(from) };
    }
    case "range":
      if (isName(c.peek(1)) && isWord(c.peek(2), "from")) {
        c.next();
        const column = c.expectName("a column name");
        c.expectWord("from");
        const start = parseExpr(c);
        c.expectWord("to");
        const end = parseExpr(c);
        c.expectWord("step");
        const step = parseExpr(c);
        return { kind: "range", column, from: start, to: end, step, span: c.spanFrom(from) };
      }
      break;
    case "cluster":
    case "database":
      if (isPunct(c.peek(1), "(")) return parseQualifiedTable(c);
      break;
    default:
      break;
  }
  c.next();
  const name = { text: token.text, span: { from: token.from, to: token.to } };
  if (isPunct(c.peek(), "(")) {
    c.next();
    const args: Expr[] = [];
    const tabularArgs: TabularExpr[] = [];
    while (!isPunct(c.peek(), ")")) {
      if (args.length || tabularArgs.length) c.expectPunct(",");
      if (c.startsTabular()) tabularArgs.push(parseTabular(c));
      else args.push(parseExpr(c));
    }
    c.expectPunct(")");
    return { kind: "call", name, args, tabularArgs, span: c.spanFrom(from) };
  }
  return { kind: "name", name, span: name.span };
}

/** `name(values)[.path]` of a `declare pattern`: the query of the first entry whose values (and path) match. */
function invokePattern(c: Cursor, pattern: PatternDefinition): TabularSource {
  const token = c.next();
  const args = patternValues(c);
  let path: string | undefined;
  if (isPunct(c.peek(), ".")) {
    c.next();
    path = patternPath(c);
  }
  if (!pattern.entries.length) fail(token, `Pattern '${pattern.name.text}' has no definitions here (ADX leaves them to the application)`);
  if (args.length !== pattern.arity) fail(token, `Pattern '${pattern.name.text}' takes ${pattern.arity} argument${pattern.arity === 1 ? "" : "s"}, not ${args.length}`);
  if (pattern.hasPath && path === undefined) fail(c.peek(), `Pattern '${pattern.name.text}' needs a path: ${pattern.name.text}(…).path`);
  const same = (a: unknown, b: unknown) => a === "*" || a === b;
  const entry = pattern.entries.find((e) => e.args.every((a, i) => same(a, args[i])) && (!pattern.hasPath || same(e.path, path)));
  if (!entry) fail(token, `No definition of pattern '${pattern.name.text}' matches (${args.map((a) => JSON.stringify(a)).join(", ")})${path !== undefined ? `.${path}` : ""}`);
  return { kind: "paren", query: entry!.body, span: c.spanFrom(token.from) };
}

/** `[cluster("c").]database("d").Table`: the table of a named database (compile.ts allows only the caller's own). */
function parseQualifiedTable(c: Cursor): TabularSource {
  const from = c.peek().from;
  const nameArg = (word: string): Name => {
    c.expectWord(word);
    c.expectPunct("(");
    const token = c.next();
    if (token.kind !== "string") fail(token, `${word}() takes the name as a string literal`);
    c.expectPunct(")");
    c.expectPunct(".");
    return { text: token.value ?? "", span: { from: token.from, to: token.to } };
  };
  if (isWord(c.peek(), "cluster")) nameArg("cluster");
  const database = nameArg("database");
  const name = c.expectName("a table name");
  return { kind: "name", name, database, span: c.spanFrom(from) };
}

function parseDatatable(c: Cursor): TabularSource {
  const start = c.next();
  c.expectPunct("(");
  const columns: { name: Name; type: Name }[] = [];
  while (!isPunct(c.peek(), ")")) {
    if (columns.length) c.expectPunct(",");
    const name = c.expectName("a column name");
    c.expectPunct(":");
    columns.push({ name, type: c.expectName("a column type") });
  }
  c.expectPunct(")");
  c.expectPunct("[");
  const values: Expr[] = [];
  while (!isPunct(c.peek(), "]")) {
    if (values.length) c.expectPunct(",");
    if (isPunct(c.peek(), "]")) break; // a trailing comma is allowed
    values.push(parseExpr(c));
  }
  c.expectPunct("]");
  return { kind: "datatable", columns, values, span: c.spanFrom(start.from) };
}
