/**
 * What a SQL dialect must provide: rendering of the typed expression tree and of one SELECT block,
 * plus the relation shapes some operators need (union, join, make-series, range, …). The planner
 * (compile.ts) decides the blocks; only the dialects know SQL spelling (duckdb.ts, clickhouse.ts;
 * base.ts holds what they spell alike).
 */
import type { TExpr } from "../ir";
import type { KqlType } from "../types";

export interface SelectBlock {
  distinct: boolean;
  columns: { expr: TExpr; alias: string }[];
  /** SQL of the input relation, already aliased; empty for a single row without input (`print`). */
  from: string;
  where: TExpr[];
  groupBy: TExpr[];
  /** Filters on window functions (evaluated after them). */
  qualify?: TExpr[];
  orderBy: { expr: TExpr; desc: boolean; nullsFirst: boolean }[];
  limit?: TExpr;
}

export type JoinType = "inner" | "left" | "right" | "full" | "semi" | "anti";

/** make-series: everything but SQL spelling is decided by the planner. */
export interface MakeSeriesSpec {
  /** The input relation, aliased; the expressions below read it. */
  from: string;
  by: { expr: TExpr; alias: string }[];
  aggregates: { expr: TExpr; alias: string; default: TExpr; elementType: KqlType }[];
  axis: TExpr;
  axisAlias: string;
  axisType: "datetime" | "timespan" | "real" | "long";
  /** Bounds: given (`from`/`to`) or undefined (then taken from the data). */
  start?: TExpr;
  end?: TExpr;
  step: TExpr;
  maxPoints: number;
  /** kind=nonempty: without groups and with both bounds given, an empty input still gives one series of defaults (ADX). */
  nonEmpty?: boolean;
}

/**
 * row_window_session (sessions.ts): the rows of `sql` passed through in the order of its column
 * `rowNumber`, plus `output`, each row's session start: one fold over the rows in that order, since a
 * session's start depends on the previous session's start. The other names are `sql`'s columns the
 * fold reads (rows.ts SessionInputs). More than `maxRows` input rows is the engine's error.
 * Both dialects plan it alike: a row where a session certainly starts (Restart, a null Expr or
 * previous Expr, Expr >= previous Expr + MaxDistanceBetweenNeighbors) begins a run; only inside a
 * run does a start depend on the one before (Expr >= start + MaxDistanceFromFirst), so one fold per
 * run (GROUP BY run) keeps just the current start and the row numbers of the starts it finds (or,
 * with one MaxDistanceFromFirst over the run, steps from start to start); each row then reads the
 * Expr of the last start at or before it (window functions).
 */
export interface RowWindowSessionSpec {
  sql: string;
  columns: string[];
  rowNumber: string;
  expr: string;
  first: string;
  neighbors: string;
  restart: string;
  previous: string;
  output: string;
  maxRows: number;
  /** Per run of rows between certain starts: the fold's work (Σ over its rows of the starts found so far) it may do. */
  maxRunWork: number;
}

/** The prefix of the graph operators' relations in a statement (graph.ts): ClickHouse plans those statements with more optimizer steps. */
export const GRAPH_RELATION_MARK = "kql_graph_";

/** graph-mark-components: node ids (`nodes`, column `k`) and edges (`edges`, columns `f`, `t`), both as SQL of one key type. */
export interface ComponentsSpec {
  nodes: string;
  edges: string;
  /** Rounds of label propagation: a component with nodes farther apart than this raises `message`. */
  rounds: number;
  message: string;
  /** A name for the statement's own CTE (unique in the statement). */
  name: string;
}

export interface SqlDialect {
  quoteIdentifier(name: string): string;
  /** A relation given as SQL text, aliased for use in FROM. */
  subquery(sql: string, alias: string): string;
  select(block: SelectBlock): string;
  expression(expr: TExpr, predicate: boolean): string;
  /** The rows of several SELECTs with the same columns. */
  unionAll(selects: string[]): string;
  /** `left JOIN right ON condition` for a FROM clause (both sides already aliased). */
  join(type: JoinType, left: string, right: string, condition: TExpr): string;
  /** One row per value `start, start + step, …, stop` (inclusive), in a column named `alias`; more than `maxRows` (bounds known only when run) is the engine's error. */
  range(start: TExpr, stop: TExpr, step: TExpr, type: KqlType, alias: string, maxRows?: number): string;
  /** Literal rows (datatable). */
  values(rows: TExpr[][], aliases: string[]): string;
  makeSeries(spec: MakeSeriesSpec): string;
  rowWindowSession(spec: RowWindowSessionSpec): string;
  /** Each node (`k`) with its weakly connected component (`id`: 0, 1, … by smallest node id). */
  connectedComponents(spec: ComponentsSpec): string;
  /** The count `value` (SQL text) when it is at most `max`; more is the engine's error `message` when the query runs. */
  checkedCount(value: string, max: number, message: string): string;
  /**
   * One result row as the response's JSON array text (docs/api.md §6), never SQL NULL: each value
   * per its KQL type, read from `column(i)`. The one place an engine's values become the response's
   * JSON; the stores wrap it with their limits (duckdb/json-rows.ts, clickhouse/sql.ts).
   */
  rowJson(types: readonly KqlType[], column: (index: number) => string): string;
}
