/**
 * One-line documentation of every tabular operator and function the engine supports, for the
 * editor's completion details and hover. Pure data (the browser uses it); functions' documentation
 * is in the function table.
 */
import { FUNCTION_TABLE } from "./functions/table";

export const OPERATOR_DOCS: Record<string, string> = {
  where: "where Predicate — keep the rows where the predicate is true; where * has \"x\" looks in every column",
  search: "search [kind=case_sensitive] \"term\" | Col:\"term\" | \"pre*\" … — rows with the term in any column, with $table",
  project: "project Col, Name = Expr, (a, b) = f(…), … — choose and compute columns",
  "project-away": "project-away Col, Prefix*, … — drop columns",
  "project-keep": "project-keep Col, Prefix*, … — keep only these columns, in input order",
  "project-rename": "project-rename New = Old, … — rename columns",
  "project-reorder": "project-reorder Col [asc|desc|granny-asc|granny-desc], … — move columns to the front",
  extend: "extend Name = Expr, … — add computed columns",
  serialize: "serialize [Name = Expr, …] — mark the rows serialized (for prev, next, row_number, row_cumsum, row_window_session)",
  summarize: "summarize Agg(…), … by Col, bin(Timestamp, 1h) — aggregate groups of rows",
  "order by": "order by Col [asc|desc] [nulls first|last] — sort (default desc)",
  "sort by": "sort by Col [asc|desc] [nulls first|last] — sort (default desc)",
  top: "top N by Col [asc|desc] — the first N rows by a sort order",
  "top-nested": "top-nested N of Col by Agg(…), top-nested … — hierarchical top N",
  take: "take N — N rows (any N)",
  limit: "limit N — N rows (any N)",
  sample: "sample N — N random rows",
  distinct: "distinct Col, … | * — unique rows",
  count: "count — the number of rows (column Count)",
  join: "join kind=innerunique|inner|leftouter|rightouter|fullouter|leftsemi|leftanti|rightsemi|rightanti (T) on Col, $left.a == $right.b",
  lookup: "lookup kind=leftouter|inner (T) on Col — extend rows with a dimension table's columns",
  union: "union [kind=outer|inner] [withsource=Col] T1, (T2 | …) — rows of several tables",
  "make-series": "make-series Agg(…) default=0 on Timestamp from Start to End step 1h by Col — arrays per group",
  "mv-expand": "mv-expand [with_itemindex=i] Col [to typeof(T)] [limit N] — one row per array element",
  parse: "parse [kind=regex] Col with \"text\" Name:type \"text\" * — extract columns from text",
  as: "as Name — name the rows so far for later use in the query",
  getschema: "getschema — the columns (ColumnName, ColumnOrdinal, DataType, ColumnType)",
  invoke: "invoke f(args) — f(T, args): the rows so far as the function's first table parameter (let f = (T:(x: long), …) { … })",
  render: "render timechart|barchart|… [with (title=…)] — chart hint, last operator",
};

/** Sources and statements that start a query. */
export const STATEMENT_DOCS: Record<string, string> = {
  let: "let Name = Expr | Table | (a: type) { … }; — bind a value, a query or a function",
  union: "union [withsource=Col] T1, T2 — rows of several tables",
  search: "search [kind=case_sensitive] [in (States, Events)] \"term\" — rows of every table with the term in any column, with $table",
  print: "print Name = Expr, … — one row of values",
  range: "range x from Start to Stop step Step — a column of values",
  datatable: "datatable (a: long, b: string) [1, \"x\", …] — literal rows",
};

/** Every function's one-line documentation, read from the function table (functions/table.ts). */
export const FUNCTION_DOCS: Readonly<Record<string, string>> = Object.fromEntries([...FUNCTION_TABLE.values()].map((e) => [e.name, e.doc]));

/**
 * A function's documentation in its two parts: the signature (`avg(x): real`) and the one-line
 * description after the dash. Every function the engine knows has both (catalog.test.ts).
 */
export function functionDoc(name: string): { signature: string; description: string } | null {
  const text = FUNCTION_DOCS[name];
  if (text === undefined) return null;
  const dash = text.indexOf(" — ");
  return dash < 0 ? { signature: text, description: "" } : { signature: text.slice(0, dash), description: text.slice(dash + 3) };
}

/** The documentation of the word at `offset` (an operator after `|`, or a function before `(`). */
export function hoverAt(text: string, offset: number): { from: number; to: number; text: string; signature?: string; description?: string } | null {
  let from = offset;
  let to = offset;
  const word = /[A-Za-z0-9_-]/;
  while (from > 0 && word.test(text[from - 1]!)) from--;
  while (to < text.length && word.test(text[to]!)) to++;
  const name = text.slice(from, to);
  if (!name) return null;
  const after = text.slice(to).trimStart();
  const before = text.slice(0, from).trimEnd();
  const doc = after.startsWith("(") ? functionDoc(name) : null;
  if (doc) return { from, to, text: FUNCTION_DOCS[name]!, ...doc };
  if (before.endsWith("|")) {
    const key = name === "order" || name === "sort" ? `${name} by` : name;
    if (OPERATOR_DOCS[key]) return { from, to, text: OPERATOR_DOCS[key]! };
  }
  if ((before === "" || before.endsWith(";")) && STATEMENT_DOCS[name]) return { from, to, text: STATEMENT_DOCS[name]! };
  return null;
}
