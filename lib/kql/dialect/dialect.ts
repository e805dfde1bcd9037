/**
 * What a SQL dialect must provide: rendering of the typed expression tree and of one SELECT block.
 * The planner (compile.ts) decides the blocks; only the dialect knows SQL spelling, so a ClickHouse
 * dialect is one more module implementing this interface.
 */
import type { TExpr } from "../ir";

export interface SelectBlock {
  distinct: boolean;
  columns: { expr: TExpr; alias: string }[];
  /** SQL of the input relation, already aliased. */
  from: string;
  where: TExpr[];
  groupBy: TExpr[];
  orderBy: { expr: TExpr; desc: boolean; nullsFirst: boolean }[];
  limit?: TExpr;
}

export interface SqlDialect {
  quoteIdentifier(name: string): string;
  /** A relation given as SQL text, aliased for use in FROM. */
  subquery(sql: string, alias: string): string;
  select(block: SelectBlock): string;
  expression(expr: TExpr, predicate: boolean): string;
}
