/**
 * Operators that run a pipeline of operators on parts of their input apart: `mv-apply` (each input
 * row's expanded arrays) and `partition by` (each value's rows). Both are planned as one pass over
 * all parts at once: the rows carry a hidden part key, and the operators whose answer depends on
 * which rows they see together (summarize, count, distinct, top, take) are planned per key (grouped
 * by it, or ranked within it). Operators that would mix parts (union, make-series, top-nested, …)
 * are refused inside. operators.ts dispatches here and passes its own `planOperator` in (`plan`),
 * so this module does not import it back.
 */
import type { Assignment, Expr, Operator, Span } from "./ast";
import type { Env } from "./analyzer-api";
import { nameOf } from "./names";
import type { TExpr } from "./ir";
import { scopeOf, type Binding, type Block, type OperatorPlanner } from "./block";

type PlanOperator = (planner: OperatorPlanner, block: Block, operator: Operator, env: Env) => Block;

/** Operators planned as they are: they keep every column (the key too) and treat each row alone. */
const ROW_BY_ROW = new Set(["where", "search", "extend", "parse", "parse-kv", "mv-expand", "project-rename", "sort", "as", "mv-apply", "lookup", "join"]);
/** Operators that may drop columns: planned as they are, the key put back after. */
const PROJECTIONS = new Set(["project", "project-away", "project-keep", "project-reorder", "project-by-names"]);

/**
 * The operators run on each part of `blockIn` apart; `key` names its hidden column holding the part
 * (it stays a column of the result). `settled` tells whether a block must be wrapped before a filter
 * on a window may be added (operators.ts's rule).
 */
function planPerPart(planner: OperatorPlanner, blockIn: Block, operators: Operator[], key: string, env: Env, plan: PlanOperator, what: string, settled: (b: Block) => boolean): Block {
  const analyzer = planner.analyzer;
  let block = blockIn;
  const keyColumn = (span: Span): Expr => ({ kind: "column", name: key, span });
  for (const operator of operators) {
    const kind = operator.kind;
    if (ROW_BY_ROW.has(kind)) {
      block = plan(planner, block, operator, env);
    } else if (PROJECTIONS.has(kind)) {
      if (settled(block)) block = planner.wrap(block);
      const binding = block.columns.find((c) => c.name === key)!;
      block = plan(planner, block, operator, env);
      if (!block.columns.some((c) => c.name === key)) block = { ...block, columns: [...block.columns, binding] };
    } else if (kind === "summarize") {
      const by: Assignment = { expr: keyColumn(operator.span), span: operator.span };
      block = plan(planner, block, { ...operator, by: [by, ...operator.by] }, env);
    } else if (kind === "count") {
      const count: Expr = { kind: "call", name: "count", nameSpan: operator.span, args: [], star: false, span: operator.span };
      block = plan(planner, block, { kind: "summarize", aggregates: [{ name: { text: "Count", span: operator.span }, expr: count, span: operator.span }], by: [{ expr: keyColumn(operator.span), span: operator.span }], span: operator.span }, env);
    } else if (kind === "distinct") {
      const columns = operator.columns === "*" ? "*" : [...operator.columns, { expr: keyColumn(operator.span), span: operator.span }];
      block = plan(planner, block, { ...operator, columns }, env);
    } else if (kind === "top" || kind === "take") {
      if (settled(block)) block = planner.wrap(block);
      const scope = scopeOf(block);
      const order = kind === "top" ? planner.sortKeys(operator.keys, scope) : block.orderBy.length ? block.orderBy : (block.serial ?? []);
      const rank: TExpr = { type: "long", nullable: false, node: { op: "window", fn: "row_number", partition: [scope.get(key)!], order: order.map((o) => ({ expr: o.expr, desc: o.desc })) } };
      block = { ...block, orderBy: order, qualify: [...block.qualify, analyzer.op("le", [rank, analyzer.count(operator.count)], "bool", false)] };
    } else {
      analyzer.error(operator.span, `'${kind}' is not supported inside ${what}`);
    }
  }
  return block;
}

/** `mv-apply`: each row's arrays expanded, the operators run on those rows apart, their result joined to the row (ADX). */
export function mvApply(planner: OperatorPlanner, blockIn: Block, operator: Extract<Operator, { kind: "mv-apply" }>, env: Env, plan: PlanOperator, settled: (b: Block) => boolean): Block {
  const analyzer = planner.analyzer;
  const input = planner.wrap(blockIn);
  const key = `__part_${planner.nextAlias()}`;
  // Rows are numbered in the order of all their values, so both reads of the input below number
  // them alike (rows equal in every column may swap numbers: they are the same row to the result).
  const order = input.columns.map((c) => ({ expr: c.expr, desc: false }));
  const number: TExpr = { type: "long", nullable: false, node: { op: "window", fn: "row_number", partition: [], order } };
  const numbered = planner.wrap({ ...input, columns: [...input.columns, { name: key, expr: number }] });
  const scope = scopeOf(numbered);
  // The arrays as columns of their own, then mv-expand over them: the operators see only those (and the item index).
  const items = operator.items.map((item) => {
    const name = item.name?.text ?? nameOf(item.expr);
    if (!name) analyzer.error(item.expr.span, "mv-apply of an expression needs a name (Name = expression)");
    return { name: name!, expr: analyzer.scalar(item.expr, scope), item };
  });
  const arrays: Block = { ...numbered, columns: [numbered.columns.find((c) => c.name === key)!, ...items.map((i) => ({ name: i.name, expr: i.expr }))] };
  const expand: Operator = {
    kind: "mv-expand",
    items: items.map((i) => ({ name: undefined, expr: { kind: "column", name: i.name, span: i.item.span }, toType: i.item.toType, span: i.item.span })),
    bagExpansion: operator.bagExpansion,
    itemIndex: operator.itemIndex,
    limit: operator.limit,
    span: operator.span,
  };
  const expanded = plan(planner, arrays, expand, env);
  const applied = planner.wrap(planPerPart(planner, expanded, operator.subquery, key, env, plan, "mv-apply", settled));
  const right = scopeOf(applied);
  const condition = analyzer.op("eq", [scope.get(key)!, right.get(key)!], "bool", false);
  const from = planner.dialect.join("inner", numbered.from, applied.from, condition);
  // The row's columns, a column of the same name the operators give replacing it, then the operators' other columns.
  const outputs = applied.columns.filter((c) => c.name !== key);
  const columns: Binding[] = numbered.columns.filter((c) => c.name !== key).map((c) => outputs.find((o) => o.name === c.name) ?? c);
  for (const o of outputs) if (!columns.includes(o)) columns.push(o);
  return { ...planner.emptyBlock(from), columns };
}

/** `partition by Column (operators)`: the operators run on each value's rows apart; the results together. */
export function partition(planner: OperatorPlanner, blockIn: Block, operator: Extract<Operator, { kind: "partition" }>, env: Env, plan: PlanOperator, settled: (b: Block) => boolean): Block {
  const analyzer = planner.analyzer;
  const input = settled(blockIn) ? planner.wrap(blockIn) : blockIn;
  const column = input.columns.find((c) => c.name === operator.by.text);
  if (!column) analyzer.error(operator.by.span, `Unknown column '${operator.by.text}'`);
  if (column!.expr.type === "dynamic") analyzer.error(operator.by.span, "partition by a dynamic column is not supported; convert it first (tostring(), tolong())");
  const key = `__part_${planner.nextAlias()}`;
  const keyed = planner.wrap({ ...input, columns: [...input.columns, { name: key, expr: column!.expr }] });
  const result = planPerPart(planner, keyed, operator.subquery, key, env, plan, "partition", settled);
  return { ...result, columns: result.columns.filter((c) => c.name !== key) };
}
