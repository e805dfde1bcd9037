/**
 * `evaluate ipv4_lookup(T, ip, network, …)` and `ipv6_lookup`: each source row joined to the lookup
 * rows whose range holds its address (`ipv4_is_in_range`/`ipv6_is_in_range` of the function table),
 * and whose extra key columns are equal; with return_unmatched the rows without a match stay, with
 * empty lookup columns (ADX). `evaluate narrow()` turns each cell into a row. The other plugins are
 * spelled as operators (parser/plugins.ts).
 */
import type { Expr, Operator } from "./ast";
import type { Env, Scope } from "./analyzer-api";
import { scopeOf, type Binding, type Block, type OperatorPlanner } from "./block";
import type { TExpr } from "./ir";

const KEY = "__lookup_key";

export function ipLookup(planner: OperatorPlanner, blockIn: Block, operator: Extract<Operator, { kind: "ip-lookup" }>, env: Env): Block {
  const analyzer = planner.analyzer;
  // A constant key on both sides: ClickHouse needs one equality in an outer join's ON besides the range test.
  const keyed = (block: Block) => {
    const inner = planner.wrap(block);
    return planner.wrap({ ...inner, columns: [...inner.columns, { name: KEY, expr: analyzer.param("BIGINT", 1, "long") }] });
  };
  const left = keyed(blockIn);
  const right = keyed(planner.tabular(operator.table, env));
  const [leftScope, rightScope] = [scopeOf(left), scopeOf(right)];
  const column = (scope: Scope, name: { text: string; span: Expr["span"] }, side: string) => {
    const expr = scope.get(name.text);
    if (!expr) analyzer.error(name.span, `Unknown column '${name.text}' in the ${side}`);
    return expr!;
  };
  const address = column(leftScope, operator.source, "source");
  const range = column(rightScope, operator.key, "lookup table");
  const at = operator.span;
  const call: Expr = { kind: "call", name: `${operator.family}_is_in_range`, nameSpan: at, args: [{ kind: "column", name: "address", span: at }, { kind: "column", name: "range", span: at }], star: false, span: at };
  const conditions = [analyzer.op("eq", [leftScope.get(KEY)!, rightScope.get(KEY)!], "bool", false), analyzer.predicate(call, new Map([["address", address], ["range", range]]))];
  for (const key of operator.extraKeys) conditions.push(analyzer.op("eq", [column(leftScope, key, "source"), column(rightScope, key, "lookup table")], "bool", false));
  const condition = analyzer.op("and", conditions, "bool", false);
  const from = planner.dialect.join(operator.unmatched ? "left" : "inner", left.from, right.from, condition);
  const columns: Binding[] = left.columns.filter((c) => c.name !== KEY);
  const extra = new Set([KEY, ...operator.extraKeys.map((k) => k.text)]);
  for (const c of right.columns) {
    if (extra.has(c.name)) continue;
    let name = c.name;
    for (let i = 1; columns.some((b) => b.name === name); i++) name = `${c.name}${i}`;
    const expr = !operator.unmatched ? c.expr : c.expr.type === "string" ? analyzer.op("coalesce_empty", [c.expr], "string", false) : { ...c.expr, nullable: true };
    columns.push({ name, expr });
  }
  return { ...planner.emptyBlock(from), columns };
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
