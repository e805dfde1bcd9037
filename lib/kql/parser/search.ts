/**
 * ADX's `search`: `[T |] search [kind=case_sensitive] [in (T1, T2)] Predicate`. The predicate is
 * an expression in which a bare string is a term looked for in every column (`"err"` → `* has "err"`,
 * `"err*"` → hasprefix, `"*err"` → hassuffix, `"*err*"` → contains, `"a*b"` → a regex) and
 * `Column:"x"` is `Column has "x"`; `search *` keeps every row. Without `in (…)` a leading search
 * reads every table (States and Events). The planner adds `$table` (operators.ts).
 */
import type { Expr, Name, Operator, Span, TabularExpr, TabularSource } from "../ast";
import { Cursor, fail, isName, isPunct, isWord } from "./cursor";
import { parseComparison } from "./expressions";

const SEARCH_TABLES = ["States", "Events"];

/** `search …` after `|` (the word is read). */
export function parseSearchOperator(c: Cursor, from: number): Extract<Operator, { kind: "search" }> {
  const caseSensitive = searchKind(c);
  if (isWord(c.peek(), "in")) fail(c.peek(), "search in (…) reads tables of its own: use it at the start of a query, not after '|'");
  return { kind: "search", caseSensitive, predicate: parsePredicate(c, caseSensitive), span: c.spanFrom(from) };
}

/** A query that starts with `search …` (the word not read): the union of its tables, then the search. */
export function parseSearchSource(c: Cursor): TabularSource {
  const from = c.next().from;
  const caseSensitive = searchKind(c);
  let tables: TabularExpr[];
  if (isWord(c.peek(), "in")) {
    c.next();
    c.expectPunct("(");
    tables = c.commaList((): TabularExpr => {
      const name = c.expectName("a table name");
      if (name.text.includes("*")) fail(c.tokenAt(name.span), "Wildcard table names are not supported");
      return { source: { kind: "name", name, span: name.span }, operators: [], span: name.span };
    });
    c.expectPunct(")");
  } else {
    const span = { from, to: from };
    tables = SEARCH_TABLES.map((text) => ({ source: { kind: "name", name: { text, span }, span }, operators: [], span }));
  }
  const source: TabularSource = { kind: "union", options: { kind: "outer", withsource: { text: "$table", span: { from, to: from } } }, tables, span: c.spanFrom(from) };
  const search: Operator = { kind: "search", caseSensitive, predicate: parsePredicate(c, caseSensitive), span: c.spanFrom(from) };
  return { kind: "paren", query: { source, operators: [search], span: c.spanFrom(from) }, span: c.spanFrom(from) };
}

function searchKind(c: Cursor): boolean {
  const kind = c.readOptions(new Set(["kind"])).get("kind");
  if (!kind) return false;
  const value = kind.value.text;
  if (value !== "default" && value !== "case_insensitive" && value !== "case_sensitive") fail(c.tokenAt(kind.value.span), `search kind must be default, case_insensitive or case_sensitive, not '${value}'`);
  return value === "case_sensitive";
}

function parsePredicate(c: Cursor, cs: boolean): Expr {
  const chain = (op: "or" | "and", operand: () => Expr): Expr => {
    const operands = [operand()];
    while (isWord(c.peek(), op)) {
      c.next();
      operands.push(operand());
    }
    return operands.length === 1 ? operands[0]! : { kind: "logical", op, operands, span: { from: operands[0]!.span.from, to: operands[operands.length - 1]!.span.to } };
  };
  const term = (): Expr => {
    const token = c.peek();
    if (isPunct(token, "(")) {
      c.next();
      const inner = chain("or", () => chain("and", term));
      const close = c.expectPunct(")");
      return { ...inner, span: { from: token.from, to: close.to } };
    }
    if (isPunct(token, "*")) {
      c.next();
      return { kind: "literal", type: "bool", value: true, span: { from: token.from, to: token.to } };
    }
    if (token.kind === "string") {
      c.next();
      return termSearch({ text: "*", span: { from: token.from, to: token.to } }, token.value ?? "", { from: token.from, to: token.to }, cs);
    }
    if (isName(token) && isPunct(c.peek(1), ":") && c.peek(2).kind === "string") {
      c.next();
      c.next();
      const value = c.next();
      return termSearch({ text: token.text, span: { from: token.from, to: token.to } }, value.value ?? "", { from: token.from, to: value.to }, cs);
    }
    return parseComparison(c);
  };
  return chain("or", () => chain("and", term));
}

/** A term looked for in one column or (`*`) in every column, by the wildcards it carries. */
function termSearch(column: Name, text: string, span: Span, cs: boolean): Expr {
  const suffix = cs ? "_cs" : "";
  const left: Expr = { kind: "column", name: column.text, span: column.span };
  const literal = (value: string): Expr => ({ kind: "literal", type: "string", value, span });
  const binary = (op: string, value: string): Expr => ({ kind: "binary", op, opSpan: span, left, right: literal(value), span });
  const inner = text.replace(/^\*/, "").replace(/\*$/, "");
  if (inner.includes("*")) {
    const pattern = `${cs ? "" : "(?i)"}\\b${inner.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}\\b`;
    return binary("matches regex", pattern);
  }
  const [starts, ends] = [text.startsWith("*") && text.length > 1, text.endsWith("*") && text.length > 1];
  if (starts && ends) return binary(`contains${suffix}`, inner);
  if (ends) return binary(`hasprefix${suffix}`, inner);
  if (starts) return binary(`hassuffix${suffix}`, inner);
  return binary(`has${suffix}`, inner);
}
