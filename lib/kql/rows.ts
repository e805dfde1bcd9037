/**
 * Row-order functions of a serialized row set (ADX: after sort, top or serialize): prev, next,
 * row_number, row_cumsum. Each is a window function over the serialized order, spelled by the
 * dialect from a `row:<fn>:<flags>` node whose operands are the function's then the order keys
 * (flags: per key `a`/`d` for the direction and `f`/`l` for where nulls go).
 * row_window_session is no window function (a session's start depends on the previous session's
 * start): `sessionInputs` checks its operands here and sessions.ts plans it in stages.
 */
import type { Expr } from "./ast";
import type { Analyzer, Scope } from "./analyzer-api";
import { isNumeric, type TExpr } from "./ir";

type Call = Extract<Expr, { kind: "call" }>;

const ROW_ORDER_FUNCTIONS = ["prev", "next", "row_number", "row_cumsum", "row_window_session"] as const;

export function rowOrderCall(analyzer: Analyzer, ast: Call, scope: Scope): TExpr | undefined {
  const name = ast.name;
  if (!(ROW_ORDER_FUNCTIONS as readonly string[]).includes(name)) return undefined;
  const order = serialOrderFor(analyzer, ast);
  // extend, project and serialize stage the calls of their items (sessions.ts): one reaching here is elsewhere.
  if (name === "row_window_session") analyzer.error(ast.nameSpan, "row_window_session() is supported in extend, project and serialize (not inside its own arguments); compute it there, then filter or summarize its column");
  const arity = (min: number, max: number) => {
    if (ast.star || ast.args.length < min || ast.args.length > max) analyzer.error(ast.span, `${name}() expects ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? "" : "s"}, got ${ast.args.length}`);
  };
  const value = (i: number) => analyzer.analyze(ast.args[i]!, scope, "scalar");
  const count = (i: number, fallback: number, what: string) => {
    const arg = ast.args[i];
    if (!arg) return analyzer.param("BIGINT", fallback, "long");
    const v = analyzer.constant(value(i));
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) analyzer.error(arg.span, `${name}() needs ${what} as a constant, non-negative integer`);
    return analyzer.param("BIGINT", v as number, "long");
  };
  // A restart condition would need a window over a window (segments, then numbering within them).
  if (ast.args[1] && (name === "row_number" || name === "row_cumsum") && !(ast.args[1].kind === "literal" && ast.args[1].value === false)) {
    analyzer.error(ast.args[1].span, `${name}() with a restart condition is not supported; summarize or partition by the key instead`);
  }
  const flags = order.map((k) => `${k.desc ? "d" : "a"}${k.nullsFirst ? "f" : "l"}`).join("");
  const keys = order.map((k) => k.expr);
  const node = (operands: TExpr[], type: TExpr["type"], nullable: boolean, template: TExpr | undefined, extra = ""): TExpr => ({
    type,
    nullable,
    dynamic: template?.dynamic,
    node: { op: `row:${name}:${flags}${extra}`, args: [...operands, ...keys] },
  });
  switch (name) {
    case "prev":
    case "next": {
      arity(1, 3);
      const column = value(0);
      const offset = count(1, 1, "an offset");
      // The offset is a constant: spelled as a literal in the op (engines take lag(x, 1) faster than a bound offset).
      const steps = analyzer.constant(offset) as number;
      let fallback = ast.args[2] ? analyzer.convert(value(2), column.type, ast.args[2].span) : analyzer.nullOf(column.type);
      // Strings are never null in this engine: a missing neighbour of a string is "".
      if (column.type === "string" && fallback.node.op === "null") fallback = analyzer.param("VARCHAR", "", "string");
      return node([column, offset, fallback], column.type, column.type !== "string", column, `:${steps}:${fallback.node.op === "null" ? "n" : "d"}`);
    }
    case "row_number": {
      arity(0, 2);
      const start = ast.args[0] ? value(0) : analyzer.param("BIGINT", 1, "long");
      if (start.type !== "long" && start.type !== "int") analyzer.error(ast.args[0]!.span, "row_number() needs a whole number to start from");
      const restart = ast.args[1] ? analyzer.predicate(ast.args[1], scope) : analyzer.param("BOOLEAN", false, "bool");
      return node([start, restart], "long", false, undefined);
    }
    default: {
      arity(1, 2);
      const term = value(0);
      const number = term.type === "dynamic" ? analyzer.asNumber(term) : term;
      if (!isNumeric(number.type) && number.type !== "timespan") analyzer.error(ast.args[0]!.span, "row_cumsum() needs a number");
      const restart = ast.args[1] ? analyzer.predicate(ast.args[1], scope) : analyzer.param("BOOLEAN", false, "bool");
      return node([number, restart], number.type === "int" ? "long" : number.type, false, undefined);
    }
  }
}

/** The serialized order a row-order function reads; ADX's words when the rows are not serialized. */
function serialOrderFor(analyzer: Analyzer, ast: Call): NonNullable<Analyzer["serialOrder"]> {
  const order = analyzer.serialOrder;
  if (!order) analyzer.error(ast.nameSpan, `Function '${ast.name}' cannot be invoked in current context. Details: the row set must be serialized (use sort, top or serialize before it)`);
  return order;
}

/** What the session fold of one row_window_session() call reads per row (dialect.ts RowWindowSessionSpec). */
interface SessionInputs {
  /** Expr (datetime), MaxDistanceFromFirst and MaxDistanceBetweenNeighbors (timespans), Restart (bool). */
  expr: TExpr;
  first: TExpr;
  neighbors: TExpr;
  restart: TExpr;
  /** The row's number in the serialized order: the fold's order, and the order of its output rows. */
  rowNumber: TExpr;
  /** Expr of the row before (null on the first row), for the distance between neighbours. */
  previous: TExpr;
}

/**
 * row_window_session(Expr, MaxDistanceFromFirst, MaxDistanceBetweenNeighbors [, Restart]) as
 * Kusto.Language types it: a datetime, two timespans, a bool; over a serialized row set.
 */
export function sessionInputs(analyzer: Analyzer, ast: Call, scope: Scope): SessionInputs {
  const order = serialOrderFor(analyzer, ast);
  if (ast.star || ast.args.length < 3 || ast.args.length > 4) analyzer.error(ast.span, `row_window_session() expects 3 to 4 arguments, got ${ast.args.length}`);
  const typed = (i: number, type: TExpr["type"], what: string) => {
    const value = analyzer.analyze(ast.args[i]!, scope, "scalar");
    if (value.type !== type) analyzer.error(ast.args[i]!.span, `row_window_session() needs a ${type} as argument ${i + 1} (${what}), not ${value.type}`);
    return value;
  };
  const expr = typed(0, "datetime", "Expr");
  const first = typed(1, "timespan", "MaxDistanceFromFirst");
  const neighbors = typed(2, "timespan", "MaxDistanceBetweenNeighbors");
  const restart = ast.args[3] ? typed(3, "bool", "Restart") : analyzer.param("BOOLEAN", false, "bool");
  const flags = order.map((k) => `${k.desc ? "d" : "a"}${k.nullsFirst ? "f" : "l"}`).join("");
  const keys = order.map((k) => k.expr);
  const one = analyzer.param("BIGINT", 1, "long");
  return {
    expr,
    first,
    neighbors,
    restart,
    rowNumber: { type: "long", nullable: false, node: { op: `row:row_number:${flags}`, args: [one, analyzer.param("BOOLEAN", false, "bool"), ...keys] } },
    previous: { type: "datetime", nullable: true, node: { op: `row:prev:${flags}:1:n`, args: [expr, one, analyzer.nullOf("datetime"), ...keys] } },
  };
}

/**
 * make_list and make_list_if over a serialized row set keep its order (ADX's docs: when the input of
 * summarize is sorted, the list's elements track the input's order). The order keys follow the
 * aggregate's own operands, flagged in the op as `<op>@<flags>` (flags as for the row-order functions).
 */
export function inSerialOrder(analyzer: Analyzer, e: TExpr): TExpr {
  const order = analyzer.serialOrder;
  if (!order?.length) return e;
  const node = e.node as { op: string; args: TExpr[] };
  const flags = order.map((k) => `${k.desc ? "d" : "a"}${k.nullsFirst ? "f" : "l"}`).join("");
  return { ...e, node: { op: `${node.op}@${flags}`, args: [...node.args, ...order.map((k) => k.expr)] } };
}
