/**
 * The SELECT block a pipeline folds into (compile.ts plans it, operators.ts and series.ts extend it)
 * and the planner's side that operators see. Kept apart from both so neither imports the other's
 * module for these shapes.
 */
import type { Assignment, Expr, SortKey, Span, TabularExpr, TabularSource } from "./ast";
import type { Analyzer, Env, Scope } from "./analyzer-api";
import type { SelectBlock, SqlDialect } from "./dialect/dialect";
import type { TExpr } from "./ir";
import type { KqlType } from "./types";

export interface Binding {
  name: string;
  expr: TExpr;
}

export interface Block {
  from: string;
  columns: Binding[];
  where: TExpr[];
  groupBy: TExpr[];
  qualify: TExpr[];
  aggregated: boolean;
  distinct: boolean;
  orderBy: SelectBlock["orderBy"];
  /**
   * Set when the rows are serialized (after sort, top, serialize): their order, which row-order
   * functions (prev, next, row_number, row_cumsum) follow. Empty: serialized in arrival order.
   */
  serial?: SelectBlock["orderBy"];
  limit?: TExpr;
  /** Name `union withsource=` reports for this relation (a table or `let` name). */
  sourceName?: string;
}

/** What an operator may ask of the planner (compile.ts's Planner). */
export interface OperatorPlanner {
  readonly analyzer: Analyzer;
  readonly dialect: SqlDialect;
  tabular(query: TabularExpr, env: Env): Block;
  wrap(block: Block): Block;
  renderAs(block: Block): { sql: string; aliases: string[] };
  emptyBlock(from: string): Block;
  fromRelation(sql: string, relation: string, columns: { name: string; alias: string; type: KqlType; nullable: boolean; dynamic?: "json" | "double" }[]): Block;
  assignments(items: Assignment[], analyze: (e: Expr) => TExpr): Binding[];
  sortKeys(keys: SortKey[], scope: Scope): SelectBlock["orderBy"];
  columnName(columns: { name: string }[], next: () => number): string;
  nextAlias(): string;
  countGrouping(span: Span): void;
  /** `T | invoke f(args)`: the function called with the block as its first tabular argument. */
  invoke(block: Block, call: Extract<TabularSource, { kind: "call" }>, env: Env): Block;
}

/** SQL identifiers are case-insensitive; KQL names are not. Aliases stay unique regardless of case. */
export function outputAliases(columns: { name: string }[]): string[] {
  const used = new Set<string>();
  return columns.map((c) => {
    let alias = c.name;
    for (let i = 2; used.has(alias.toLowerCase()); i++) alias = `${c.name}_${i}`;
    used.add(alias.toLowerCase());
    return alias;
  });
}

export function scopeOf(block: Block): Scope {
  return new Map(block.columns.map((c) => [c.name, c.expr]));
}
