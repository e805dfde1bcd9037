/**
 * `evaluate ipv4_lookup(T, ip, network, …)` and `ipv6_lookup`: each source row joined to the lookup
 * rows whose range holds its address (`ipv4_is_in_range`/`ipv6_is_in_range` of the function table),
 * and whose extra key columns are equal; with return_unmatched the rows without a match stay, with
 * empty lookup columns (ADX). `geo_polygon_lookup` and `geo_line_lookup` join the same way on
 * "point in the polygon" / "point within the radius". `evaluate narrow()` turns each cell into a row. The other plugins are
 * spelled as operators (parser/plugins.ts).
 */
import type { Expr, Operator, TabularExpr } from "./ast";
import type { Env, Scope } from "./analyzer-api";
import { scopeOf, type Binding, type Block, type OperatorPlanner } from "./block";
import type { TExpr } from "./ir";

const KEY = "__lookup_key";

type Column = (scope: Scope, name: { text: string; span: Expr["span"] }, side: string) => TExpr;

/**
 * Each source row joined to the lookup table's rows that `on` accepts (given both sides' scopes and
 * a column reader that names the side of an unknown column); with `unmatched` the source rows
 * without a match stay, with empty lookup columns (ADX). The lookup columns named in `omit` are left out.
 */
function lookupJoin(
  planner: OperatorPlanner,
  blockIn: Block,
  table: TabularExpr,
  env: Env,
  unmatched: boolean,
  omit: ReadonlySet<string>,
  on: (left: Scope, right: Scope, column: Column) => TExpr[],
): Block {
  const analyzer = planner.analyzer;
  // A constant key on both sides: ClickHouse needs one equality in an outer join's ON besides the range test.
  const keyed = (block: Block) => {
    const inner = planner.wrap(block);
    return planner.wrap({ ...inner, columns: [...inner.columns, { name: KEY, expr: analyzer.param("BIGINT", 1, "long") }] });
  };
  const left = keyed(blockIn);
  const right = keyed(planner.tabular(table, env));
  const [leftScope, rightScope] = [scopeOf(left), scopeOf(right)];
  const column: Column = (scope, name, side) => {
    const expr = scope.get(name.text);
    if (!expr) analyzer.error(name.span, `Unknown column '${name.text}' in the ${side}`);
    return expr!;
  };
  const conditions = [analyzer.op("eq", [leftScope.get(KEY)!, rightScope.get(KEY)!], "bool", false), ...on(leftScope, rightScope, column)];
  const condition = analyzer.op("and", conditions, "bool", false);
  const from = planner.dialect.join(unmatched ? "left" : "inner", left.from, right.from, condition);
  const columns: Binding[] = left.columns.filter((c) => c.name !== KEY);
  for (const c of right.columns) {
    if (c.name === KEY || omit.has(c.name)) continue;
    let name = c.name;
    for (let i = 1; columns.some((b) => b.name === name); i++) name = `${c.name}${i}`;
    const expr = !unmatched ? c.expr : c.expr.type === "string" ? analyzer.op("coalesce_empty", [c.expr], "string", false) : { ...c.expr, nullable: true };
    columns.push({ name, expr });
  }
  return { ...planner.emptyBlock(from), columns };
}

export function ipLookup(planner: OperatorPlanner, blockIn: Block, operator: Extract<Operator, { kind: "ip-lookup" }>, env: Env): Block {
  const analyzer = planner.analyzer;
  return lookupJoin(planner, blockIn, operator.table, env, operator.unmatched, new Set(operator.extraKeys.map((k) => k.text)), (left, right, column) => {
    const at = operator.span;
    const call: Expr = { kind: "call", name: `${operator.family}_is_in_range`, nameSpan: at, args: [{ kind: "column", name: "address", span: at }, { kind: "column", name: "range", span: at }], star: false, span: at };
    const bound = new Map([["address", column(left, operator.source, "source")], ["range", column(right, operator.key, "lookup table")]]);
    return [analyzer.predicate(call, bound), ...operator.extraKeys.map((key) => analyzer.op("eq", [column(left, key, "source"), column(right, key, "lookup table")], "bool", false))];
  });
}

/**
 * `evaluate geo_polygon_lookup(…)` / `geo_line_lookup(…)` (ADX): each source point joined to the
 * polygons that hold it (`geo_point_in_polygon`), or that lie within the radius when one is given
 * (`geo_distance_point_to_polygon`), or to the lines within the radius (`geo_distance_point_to_line`);
 * the shape column stays only with return_lookup_key.
 */
export function geoLookup(planner: OperatorPlanner, blockIn: Block, operator: Extract<Operator, { kind: "geo-lookup" }>, env: Env): Block {
  const analyzer = planner.analyzer;
  const omit = new Set(operator.lookupKey ? [] : [operator.key.text]);
  return lookupJoin(planner, blockIn, operator.table, env, operator.unmatched, omit, (left, right, column) => {
    const at = operator.span;
    const ref = (name: string): Expr => ({ kind: "column", name, span: at });
    const point = [ref("__lon"), ref("__lat"), ref("__shape")];
    const test: Expr = !operator.radius
      ? { kind: "call", name: "geo_point_in_polygon", nameSpan: at, args: point, star: false, span: at }
      : {
          kind: "binary",
          op: "<=",
          opSpan: at,
          left: { kind: "call", name: operator.shape === "line" ? "geo_distance_point_to_line" : "geo_distance_point_to_polygon", nameSpan: at, args: point, star: false, span: at },
          right: operator.radius,
          span: at,
        };
    const bound = new Map([
      ["__lon", column(left, operator.longitude, "source")],
      ["__lat", column(left, operator.latitude, "source")],
      ["__shape", column(right, operator.key, "lookup table")],
    ]);
    return [analyzer.predicate(test, bound)];
  });
}

/**
 * `evaluate narrow()` (ADX): one row per cell, `Row` (the input row's 0-based number, in the input's
 * serialized order when it has one), `Column` (its name) and `Value` (tostring() of the cell), in
 * row order and then column order.
 */
export function narrow(planner: OperatorPlanner, blockIn: Block, operator: Extract<Operator, { kind: "narrow" }>): Block {
  const analyzer = planner.analyzer;
  const input = planner.wrap(blockIn);
  const order = input.serial?.length ? input.serial.map((k) => ({ expr: k.expr, desc: k.desc })) : input.columns.map((c) => ({ expr: c.expr, desc: false }));
  const rowNumber: TExpr = { type: "long", nullable: false, node: { op: "window", fn: "row_number", partition: [], order } };
  const row = analyzer.op("sub", [rowNumber, analyzer.param("BIGINT", 1, "long")], "long", false);
  const numbered = planner.wrap({ ...input, columns: [{ name: "Row", expr: row }, ...input.columns.map((c, i) => ({ name: `__narrow_${i}`, expr: c.expr }))] });
  const scope = scopeOf(numbered);
  const at = operator.span;
  const aliases = ["Row", "Column", "Value", "__narrow_column"];
  const selects = input.columns.map((c, i) => {
    const value = analyzer.scalar({ kind: "call", name: "tostring", nameSpan: at, args: [{ kind: "column", name: `__narrow_${i}`, span: at }], star: false, span: at }, scope);
    const columns = [scope.get("Row")!, analyzer.param("VARCHAR", c.name, "string"), value, analyzer.param("BIGINT", i, "long")];
    return planner.dialect.select({ ...planner.emptyBlock(numbered.from), columns: columns.map((expr, j) => ({ expr, alias: aliases[j]! })), distinct: false });
  });
  const block = planner.fromRelation(planner.dialect.unionAll(selects), planner.nextAlias(), [
    { name: "Row", alias: "Row", type: "long", nullable: false },
    { name: "Column", alias: "Column", type: "string", nullable: false },
    { name: "Value", alias: "Value", type: "string", nullable: false },
    { name: "__narrow_column", alias: "__narrow_column", type: "long", nullable: false },
  ]);
  const [rowOut, , , columnOut] = block.columns.map((c) => c.expr);
  const orderBy = [{ expr: rowOut!, desc: false, nullsFirst: false }, { expr: columnOut!, desc: false, nullsFirst: false }];
  return { ...block, columns: block.columns.slice(0, 3), orderBy, serial: orderBy };
}
