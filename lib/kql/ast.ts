/**
 * Syntax tree of a KQL query. Every node carries its source span (0-based offsets) so errors found
 * later (unknown column, wrong type) point at the right text.
 */
export interface Span {
  from: number;
  to: number;
}

export type Expr =
  | { kind: "literal"; type: "string" | "long" | "real" | "bool" | "datetime" | "timespan" | "dynamic" | "int" | "null"; value: string | number | boolean | null; span: Span }
  | { kind: "column"; name: string; span: Span }
  /** `a.b`, `a["b"]` (key: string) or `a[0]` (key: array index). */
  | { kind: "member"; target: Expr; key: string | number; keySpan: Span; bracket: boolean; span: Span }
  | { kind: "call"; name: string; nameSpan: Span; args: Expr[]; star: boolean; span: Span }
  | { kind: "unary"; op: "-" | "+"; operand: Expr; span: Span }
  | { kind: "binary"; op: string; opSpan: Span; left: Expr; right: Expr; span: Span }
  | { kind: "in"; negated: boolean; caseInsensitive: boolean; target: Expr; list: Expr[]; span: Span }
  | { kind: "between"; negated: boolean; target: Expr; low: Expr; high: Expr; span: Span };

/** `name = expr` or a bare `expr` in project/extend/summarize lists. */
export interface Assignment {
  name?: { text: string; span: Span };
  expr: Expr;
  span: Span;
}

export interface SortKey {
  expr: Expr;
  direction?: "asc" | "desc";
  nulls?: "first" | "last";
  span: Span;
}

export type Operator =
  | { kind: "where"; predicate: Expr; span: Span }
  | { kind: "project"; items: Assignment[]; span: Span }
  | { kind: "project-away"; columns: { text: string; span: Span }[]; span: Span }
  | { kind: "project-rename"; renames: { to: { text: string; span: Span }; from: { text: string; span: Span } }[]; span: Span }
  | { kind: "extend"; items: Assignment[]; span: Span }
  | { kind: "summarize"; aggregates: Assignment[]; by: Assignment[]; span: Span }
  | { kind: "sort"; keys: SortKey[]; span: Span }
  | { kind: "top"; count: Expr; keys: SortKey[]; span: Span }
  | { kind: "take"; count: Expr; span: Span }
  | { kind: "distinct"; columns: Assignment[] | "*"; span: Span }
  | { kind: "count"; span: Span }
  | { kind: "render"; chart: { text: string; span: Span }; properties: { name: string; value: Expr }[]; span: Span };

export interface QueryAst {
  table: { name: string; span: Span };
  operators: Operator[];
  span: Span;
}
