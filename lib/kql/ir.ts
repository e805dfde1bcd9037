/**
 * Typed expression tree the analyzer produces and a SQL dialect renders. Column references are
 * already resolved to expressions over the current query block's input (`ref`), so the planner can
 * inline `extend`ed columns into later `where`s and keep filters on plain columns.
 */
import type { KqlType, SqlParamType } from "./types";

/**
 * How a `dynamic` value is held in SQL: `double` for `Value` (a number column), `json` for the
 * metadata objects and anything derived from them.
 */
type DynamicRep = "double" | "json";

type Node =
  | { op: "ref"; relation: string; name: string }
  | { op: "param"; name: string; paramType: SqlParamType }
  | { op: "null" }
  /** `base.key` / `base["key"]`: `path` is a VARCHAR param holding a JSON path such as `$."Area"`. */
  | { op: "access"; base: TExpr; path: TExpr }
  /** A compiled tabular expression used as a value: `toscalar(…)` (scalar) or the list of `x in (T)`. */
  | { op: "subquery"; sql: string; mode: "scalar" | "list" }
  /** A window function over the block's rows (top-nested ranks, innerunique dedup). */
  | { op: "window"; fn: "row_number" | "rank"; partition: TExpr[]; order: { expr: TExpr; desc: boolean }[] }
  /** A declared function of the function table (functions/table.ts); `consts` holds its literal arguments' values. */
  | CallNode
  | { op: string; args: TExpr[] };

export interface CallNode {
  op: "call";
  fn: string;
  args: TExpr[];
  consts: readonly unknown[];
  /** A different value on every call (rand, new_guid): never folded into a constant. */
  volatile?: true;
  /** The scalar function of a name that is also an aggregate (functions/table.ts, functionEntry). */
  scalarTwin?: true;
}

export interface TExpr {
  type: KqlType;
  /** Whether SQL may yield NULL here; strings and comparisons never do. */
  nullable: boolean;
  dynamic?: DynamicRep;
  node: Node;
  /** Default column name this expression gets in project/extend/summarize (KQL's naming rules). */
  hint?: string;
  /** Contains an aggregate function. */
  aggregate?: boolean;
}

export function args(e: TExpr): TExpr[] {
  return "args" in e.node ? e.node.args : [];
}

export function isNumeric(type: KqlType): boolean {
  return type === "long" || type === "int" || type === "real";
}

/** Whether the expression reads any column (otherwise it is the same for every row). */
export function readsColumns(e: TExpr): boolean {
  if (e.node.op === "ref" || e.node.op === "window" || e.node.op === "random" || (e.node.op === "call" && (e.node as CallNode).volatile) || isRowOrder(e)) return true;
  if (e.node.op === "access") return readsColumns((e.node as { base: TExpr }).base);
  return args(e).some(readsColumns);
}

/** A row-order function (prev, next, row_number, row_cumsum): `row:<fn>:<key flags>` over the serialized order. */
export function isRowOrder(e: TExpr): boolean {
  return e.node.op.startsWith("row:");
}

/** Whether a row-order function is anywhere in the expression (it must be computed before filtering or grouping). */
export function hasRowOrder(e: TExpr): boolean {
  if (isRowOrder(e)) return true;
  if (e.node.op === "access") return hasRowOrder((e.node as { base: TExpr }).base);
  return args(e).some(hasRowOrder);
}
