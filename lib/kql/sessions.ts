/**
 * row_window_session() planned in stages (rows.ts checks its operands; ADX's semantics in
 * docs/api.md). A session's start depends on the previous session's start, which no window
 * function expresses, so each call in an extend, project or serialize item becomes:
 *   1. the current block plus the fold's operands per row (row number, Expr, the distances,
 *      Restart, the previous Expr: window functions over the serialized order);
 *   2. the dialect's plan (RowWindowSessionSpec): the rows cut into runs where a session certainly
 *      starts, one fold per run for the starts MaxDistanceFromFirst makes, the rows passed through
 *      with each one's session start under a hidden name;
 *   3. the item, analysed with the call replaced by that hidden column.
 * The rows stay serialized, in the order of the row number the fold used (so prev() after it sees
 * the same order, ties included).
 */
import { mapSubexpressions, type Expr } from "./ast";
import { LIMITS } from "./budget";
import { scopeOf, type Binding, type Block, type OperatorPlanner } from "./block";
import type { TExpr } from "./ir";
import { sessionInputs } from "./rows";

type Call = Extract<Expr, { kind: "call" }>;

/** Prefix of the hidden columns the stages add (the caller drops them from its output). */
export const SESSION_PREFIX = "__session_";

/**
 * Stages the row_window_session() calls of `expr` over `block`: the new block (its columns are the
 * block's plus one hidden column per call) and `expr` reading those columns, or undefined when
 * `expr` has no such call.
 */
export function stageSessions(planner: OperatorPlanner, block: Block, expr: Expr): { block: Block; expr: Expr } | undefined {
  const calls = sessionCalls(expr, []);
  if (!calls.length) return undefined;
  let staged = block;
  const replaced = new Map<Call, string>();
  for (const call of calls) {
    const name = `${SESSION_PREFIX}${planner.nextAlias()}`;
    staged = stage(planner, staged, call, name);
    replaced.set(call, name);
  }
  return { block: staged, expr: replace(expr, replaced) };
}

function stage(planner: OperatorPlanner, block: Block, call: Call, name: string): Block {
  const analyzer = planner.analyzer;
  analyzer.serialOrder = block.serial;
  planner.countGrouping(call.span);
  const inputs = sessionInputs(analyzer, call, scopeOf(block));
  const parts = ["rowNumber", "expr", "first", "neighbors", "restart", "previous"] as const;
  const hidden: Binding[] = parts.map((part) => ({ name: `${name}_${part}`, expr: inputs[part] }));
  const { sql, aliases } = planner.renderAs({ ...block, columns: [...block.columns, ...hidden], orderBy: [] });
  const alias = (part: (typeof parts)[number]) => aliases[block.columns.length + parts.indexOf(part)]!;
  const relation = planner.nextAlias();
  const output = `${name}_start`;
  const sessions = planner.dialect.rowWindowSession({
    sql,
    columns: aliases,
    rowNumber: alias("rowNumber"),
    expr: alias("expr"),
    first: alias("first"),
    neighbors: alias("neighbors"),
    restart: alias("restart"),
    previous: alias("previous"),
    output,
    maxRows: LIMITS.sessionRows,
    maxRunWork: LIMITS.sessionRunWork,
  });
  const next = planner.fromRelation(
    sessions,
    relation,
    block.columns.map((c, i) => ({ name: c.name, alias: aliases[i]!, type: c.expr.type, nullable: c.expr.nullable, dynamic: c.expr.dynamic })),
  );
  const ref = (column: string, type: TExpr["type"], nullable: boolean): TExpr => ({ type, nullable, node: { op: "ref", relation, name: column } });
  const serial = [{ expr: ref(alias("rowNumber"), "long", false), desc: false, nullsFirst: false }];
  analyzer.serialOrder = serial;
  return { ...next, columns: [...next.columns, { name, expr: ref(output, "datetime", true) }], serial, orderBy: serial, sourceName: block.sourceName };
}

/** The calls in `e`, outermost first; a call's own arguments and sub-queries are not searched (rows.ts refuses a call reached there). */
function sessionCalls(e: Expr, found: Call[]): Call[] {
  switch (e.kind) {
    case "call":
      if (e.name === "row_window_session") found.push(e);
      else for (const a of e.args) sessionCalls(a, found);
      break;
    case "member":
      sessionCalls(e.target, found);
      break;
    case "unary":
      sessionCalls(e.operand, found);
      break;
    case "binary":
      sessionCalls(e.left, found);
      sessionCalls(e.right, found);
      break;
    case "logical":
      for (const a of e.operands) sessionCalls(a, found);
      break;
    case "in":
    case "hasSet":
      for (const a of [e.target, ...e.list]) sessionCalls(a, found);
      break;
    case "between":
      for (const a of [e.target, e.low, e.high]) sessionCalls(a, found);
      break;
    case "literal":
    case "column":
    case "subquery":
      break;
  }
  return found;
}

/** `e` with each call of `names` read from its hidden column. */
function replace(e: Expr, names: ReadonlyMap<Call, string>): Expr {
  const name = e.kind === "call" ? names.get(e) : undefined;
  return name ? { kind: "column", name, span: e.span } : mapSubexpressions(e, (x) => replace(x, names));
}
