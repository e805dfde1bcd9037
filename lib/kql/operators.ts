/**
 * Planning of each tabular operator onto the planner's blocks (compile.ts). Operators that fit one
 * SELECT (where, extend, summarize, sort, take, …) extend the current block; those that build a
 * relation of their own (union, join, lookup, make-series, mv-expand, top-nested, parse) wrap the
 * input and start a new block over the SQL the dialect spells for them.
 */
import type { Assignment, Expr, JoinKey, Name, Operator, TabularExpr } from "./ast";
import type { Analyzer, Env, Scope } from "./analyzer-api";
import { nameOf } from "./names";
import type { JoinType, SelectBlock } from "./dialect/dialect";
import { hasRowOrder, isNumeric, type TExpr } from "./ir";
import type { KqlType } from "./types";
import { LIMITS } from "./budget";
import { outputAliases, scopeOf, type Binding, type Block, type OperatorPlanner } from "./block";
import { materializeSeries, seriesCall, SERIES_MULTI } from "./series";
import { SESSION_PREFIX, stageSessions } from "./sessions";
import { mvApply, partition } from "./partitioned";
import { parseKv } from "./parse-kv";
import { geoLookup, ipLookup, narrow } from "./plugins";
import { planGraph } from "./graph";
import { scan } from "./scan";
import { isTableName } from "./tables";

/**
 * A block whose rows are final for SQL (grouped, distinct, limited, ranked, or with row-order
 * columns that filtering or grouping would change) is wrapped before anything reads it again.
 */
const settled = (b: Block) => b.aggregated || b.distinct || b.limit !== undefined || b.qualify.length > 0 || b.columns.some((c) => hasRowOrder(c.expr));

/** Operators whose output keeps a serialized input serialized (ADX); the others end it (sort, top and serialize start it). */
const KEEPS_SERIAL = new Set(["where", "search", "extend", "project", "project-away", "project-keep", "project-rename", "project-reorder", "project-by-names", "take", "parse", "parse-kv", "as", "render"]);

export function planOperator(planner: OperatorPlanner, blockIn: Block | undefined, operator: Operator, env: Env): Block {
  const analyzer = planner.analyzer;
  analyzer.serialOrder = blockIn?.serial;
  try {
    const result = planSerialized(planner, blockIn, operator, env);
    if (operator.kind === "sort" || operator.kind === "top") return { ...result, serial: result.orderBy };
    if (operator.kind === "serialize") return result;
    if (!KEEPS_SERIAL.has(operator.kind)) return { ...result, serial: undefined };
    const serial = result.serial ?? (blockIn?.serial && []);
    // Rows leave in their serialized order (a sub-query the block was wrapped in does not keep it).
    const reorder = serial?.length && !result.orderBy.length && !result.aggregated && !result.distinct;
    return { ...result, serial, orderBy: reorder ? serial : result.orderBy };
  } finally {
    analyzer.serialOrder = undefined;
  }
}

function planSerialized(planner: OperatorPlanner, blockIn: Block | undefined, operator: Operator, env: Env): Block {
  const analyzer = planner.analyzer;
  let block = blockIn!;
  if (["summarize", "count", "distinct", "make-series", "top-nested"].includes(operator.kind)) {
    const levels = operator.kind === "top-nested" ? operator.levels.length : 1;
    for (let i = 0; i < levels; i++) planner.countGrouping(operator.span);
  }
  const open = () => {
    if (settled(block)) block = planner.wrap(block);
    analyzer.serialOrder = block.serial;
    return block;
  };
  switch (operator.kind) {
    case "where": {
      open();
      const predicate = analyzer.predicate(operator.predicate, scopeOf(block));
      // A row-order function sees the rows before this filter: it is a filter after the window (QUALIFY).
      if (hasRowOrder(predicate)) return { ...block, qualify: [...block.qualify, predicate] };
      return { ...block, where: [...block.where, ...conjuncts(predicate)] };
    }
    case "search": {
      open();
      // ADX's search output starts with `$table`: the table a row came from (a union's withsource gives it).
      const table = block.columns.find((c) => c.name === "$table");
      const named = table ? block : { ...block, columns: [{ name: "$table", expr: analyzer.param("VARCHAR", block.sourceName ?? "T", "string") }, ...block.columns] };
      const predicate = analyzer.predicate(operator.predicate, scopeOf(named));
      return { ...named, columns: table ? [table, ...block.columns.filter((c) => c !== table)] : named.columns, where: [...named.where, ...conjuncts(predicate)] };
    }
    case "serialize": {
      open();
      // Serialized in the current order (a sort's), or as the rows arrive.
      const serialized = { ...block, serial: block.serial ?? block.orderBy };
      analyzer.serialOrder = serialized.serial;
      return operator.items.length ? extend(planner, serialized, operator.items) : serialized;
    }
    case "extend":
      open();
      return extend(planner, block, operator.items);
    case "invoke":
      return planner.invoke(block, operator.call, env);
    case "project":
      open();
      return project(planner, block, operator.items);
    case "project-away": {
      open();
      const removed = new Set(matchPatterns(analyzer, block, operator.columns));
      return { ...block, columns: block.columns.filter((c) => !removed.has(c.name)) };
    }
    case "project-keep": {
      open();
      const kept = new Set(matchPatterns(analyzer, block, operator.columns));
      return { ...block, columns: block.columns.filter((c) => kept.has(c.name)) };
    }
    case "project-reorder": {
      open();
      const ordered: Binding[] = [];
      for (const item of operator.columns) {
        let names = matchPatterns(analyzer, block, [item.name]).filter((n) => !ordered.some((c) => c.name === n));
        if (item.order) {
          const granny = item.order.startsWith("granny");
          const compare = (a: string, b: string) => (granny ? grannyCompare(a, b) : a < b ? -1 : a > b ? 1 : 0);
          names = [...names].sort((a, b) => (item.order!.endsWith("desc") ? -compare(a, b) : compare(a, b)));
        }
        for (const name of names) ordered.push(block.columns.find((c) => c.name === name)!);
      }
      return { ...block, columns: [...ordered, ...block.columns.filter((c) => !ordered.includes(c))] };
    }
    case "project-by-names": {
      open();
      const kept = new Set(namesByValue(analyzer, block, operator.names));
      if (!kept.size) analyzer.error(operator.span, "project-by-names names no column of its input");
      return { ...block, columns: [...kept].map((name) => block.columns.find((c) => c.name === name)!) };
    }
    case "project-rename": {
      open();
      const columns = [...block.columns];
      for (const { to, from } of operator.renames) {
        const index = columns.findIndex((c) => c.name === from.text);
        if (index < 0) analyzer.error(from.span, `Unknown column '${from.text}'`);
        if (to.text !== from.text && columns.some((c) => c.name === to.text)) analyzer.error(to.span, `Column '${to.text}' already exists`);
        columns[index] = { ...columns[index]!, name: to.text };
      }
      return { ...block, columns };
    }
    case "summarize":
      open();
      return summarize(planner, block, operator.aggregates, operator.by);
    case "count": {
      open();
      const count: TExpr = { type: "long", nullable: false, node: { op: "count", args: [] }, aggregate: true };
      return { ...block, columns: [{ name: "Count", expr: count }], groupBy: [], aggregated: true, orderBy: [] };
    }
    case "sort":
      open();
      return { ...block, orderBy: planner.sortKeys(operator.keys, scopeOf(block)) };
    case "top": {
      open();
      const limit = analyzer.count(operator.count);
      return { ...block, orderBy: planner.sortKeys(operator.keys, scopeOf(block)), limit };
    }
    case "take":
      if (block.limit !== undefined) block = planner.wrap(block);
      return { ...block, limit: analyzer.count(operator.count) };
    case "sample": {
      open();
      const random: TExpr = { type: "real", nullable: false, node: { op: "random", args: [] } };
      return { ...block, orderBy: [{ expr: random, desc: false, nullsFirst: false }], limit: analyzer.count(operator.count) };
    }
    case "distinct": {
      open();
      const scope = scopeOf(block);
      const columns = operator.columns === "*" ? block.columns : planner.assignments(operator.columns, (e) => analyzer.scalar(e, scope));
      return { ...block, columns, distinct: true, orderBy: [] };
    }
    case "getschema":
      return getschema(planner, block);
    case "union":
      return union(planner, blockIn, operator, env);
    case "join":
    case "lookup":
      return join(planner, block, operator, env);
    case "make-series":
      return makeSeries(planner, block, operator);
    case "mv-expand":
      return mvExpand(planner, block, operator);
    case "mv-apply":
      return mvApply(planner, block, operator, env, planOperator, settled);
    case "partition":
      return partition(planner, block, operator, env, planOperator, settled);
    case "top-nested":
      return topNested(planner, block, operator);
    case "parse":
      open();
      return parseOperator(planner, block, operator);
    case "parse-kv":
      open();
      return parseKv(planner, block, operator);
    case "pipeline":
      return operator.operators.reduce((b, op) => planOperator(planner, b, op, env), block);
    case "ip-lookup":
      return ipLookup(planner, block, operator, env);
    case "geo-lookup":
      return geoLookup(planner, block, operator, env);
    case "scan":
      return scan(planner, block, operator);
    case "narrow":
      return narrow(planner, block, operator);
    case "graph":
      return planGraph(planner, block, operator, env);
    case "as":
    case "render":
      return block;
  }
}

/** Top-level `and` terms become separate WHERE conjuncts (each one can be pushed down alone). */
function conjuncts(predicate: TExpr): TExpr[] {
  if (predicate.node.op === "and" && "args" in predicate.node) return predicate.node.args.flatMap(conjuncts);
  return [predicate];
}

function extend(planner: OperatorPlanner, blockIn: Block, items: Assignment[]): Block {
  const analyzer = planner.analyzer;
  let block = blockIn;
  let columns = [...block.columns];
  let scope = new Map(scopeOf(block));
  let unnamed = 0;
  const add = (name: string, expr: TExpr) => {
    // ADX: a column that already exists is removed and appended with its new value.
    const existing = columns.findIndex((c) => c.name === name);
    if (existing >= 0) columns.splice(existing, 1);
    columns.push({ name, expr });
    scope.set(name, expr);
  };
  for (const original of items) {
    // row_window_session() calls are planned in stages first (sessions.ts), under hidden names.
    const staged = stageSessions(planner, { ...block, columns }, original.expr);
    if (staged) {
      block = staged.block;
      columns = [...block.columns];
      scope = new Map(scopeOf(block));
    }
    const item = staged ? { ...original, expr: staged.expr } : original;
    const series = seriesCall(analyzer, item.expr, scope);
    if (series) {
      // Planned in stages over the rows so far (series.ts); its results join the columns.
      if (item.names && item.names.length > series.outputs.length) analyzer.error(item.span, `${(item.expr as { name: string }).name}() gives ${series.outputs.length} column${series.outputs.length > 1 ? "s" : ""}`);
      const names = series.outputs.map((o, i) => item.names?.[i]?.text ?? (i === 0 ? item.name?.text : undefined) ?? o.name);
      block = materializeSeries(planner, { ...block, columns }, series, names);
      columns = [...block.columns];
      scope = new Map(scopeOf(block));
      continue;
    }
    const multi = analyzer.multiResult(item.expr, scope);
    if (multi) {
      if (item.names && item.names.length > multi.length) analyzer.error(item.span, `${(item.expr as { name: string }).name}() gives ${multi.length} columns`);
      multi.forEach((m, i) => add(item.names?.[i]?.text ?? m.name, m.expr));
      continue;
    }
    if (item.names) analyzer.error(item.span, "Naming several columns with (a, b) = … needs a function with several results, such as series_fit_line()");
    const expr = analyzer.scalar(item.expr, scope);
    add(item.name?.text ?? nameOf(original.expr) ?? planner.columnName(columns, () => ++unnamed), expr);
  }
  return { ...block, columns: columns.filter((c) => !c.name.startsWith(SESSION_PREFIX)) };
}

/**
 * project: one column per item, or several for a function with several results, named by
 * `(a, b, …) = f(…)` first and by their default names after (as Kusto.Language names them). Series
 * analysis is planned in stages first, as extend plans it (series.ts), under hidden names that the
 * projection then picks.
 */
function project(planner: OperatorPlanner, blockIn: Block, items: Assignment[]): Block {
  const analyzer = planner.analyzer;
  let block = blockIn;
  const staged = new Map<Assignment, { hidden: string[]; defaults: string[] }>();
  // row_window_session() calls are planned in stages first (sessions.ts); their hidden columns are not projected.
  const rewritten = new Map<Assignment, Expr>();
  for (const item of items) {
    const sessions = stageSessions(planner, block, item.expr);
    if (!sessions) continue;
    block = sessions.block;
    rewritten.set(item, sessions.expr);
  }
  for (const item of items) {
    if (item.expr.kind !== "call" || !(SERIES_MULTI.has(item.expr.name) || item.names || item.expr.name === "series_fit_2lines_dynamic")) continue;
    const call = seriesCall(analyzer, item.expr, scopeOf(block));
    if (!call) continue;
    const prefix = `__${planner.nextAlias()}_`;
    const hidden = call.outputs.map((o) => `${prefix}${o.part}`);
    block = materializeSeries(planner, block, call, hidden);
    staged.set(item, { hidden, defaults: call.outputs.map((o) => o.name) });
  }
  const scope = scopeOf(block);
  const columns: Binding[] = [];
  let unnamed = 0;
  const add = (item: Assignment, name: string, expr: TExpr) => {
    if (columns.some((c) => c.name === name)) analyzer.error(item.span, `Column '${name}' is projected twice`);
    columns.push({ name, expr });
  };
  const named = (item: Assignment, defaults: string[]) => {
    if (item.names && item.names.length > defaults.length) analyzer.error(item.span, `${(item.expr as { name: string }).name}() gives ${defaults.length} column${defaults.length > 1 ? "s" : ""}`);
    return defaults.map((name, i) => item.names?.[i]?.text ?? (i === 0 ? item.name?.text : undefined) ?? name);
  };
  for (const original of items) {
    const series = staged.get(original);
    const item = { ...original, expr: rewritten.get(original) ?? original.expr };
    if (series) {
      named(item, series.defaults).forEach((name, i) => add(item, name, scope.get(series.hidden[i]!)!));
      continue;
    }
    const multi = analyzer.multiResult(item.expr, scope);
    if (multi) {
      const names = named(item, multi.map((m) => m.name));
      multi.forEach((m, i) => add(item, names[i]!, m.expr));
      continue;
    }
    if (item.names) analyzer.error(item.span, "Naming several columns with (a, b) = … needs a function with several results, such as series_fit_line()");
    const expr = analyzer.scalar(item.expr, scope);
    add(item, item.name?.text ?? nameOf(original.expr) ?? planner.columnName(columns, () => ++unnamed), expr);
  }
  return { ...block, columns };
}

function summarize(planner: OperatorPlanner, block: Block, aggregates: Assignment[], by: Assignment[]): Block {
  const analyzer = planner.analyzer;
  const scope = scopeOf(block);
  const columns: Binding[] = [];
  const taken = (name: string) => columns.some((c) => c.name === name);
  const unique = (name: string) => {
    let candidate = name;
    for (let i = 1; taken(candidate); i++) candidate = `${name}${i}`;
    return candidate;
  };
  let unnamed = 0;
  const groupBy: TExpr[] = [];
  for (const item of by) {
    const expr = analyzer.scalar(item.expr, scope);
    const name = item.name?.text ?? nameOf(item.expr) ?? planner.columnName(columns, () => ++unnamed);
    if (taken(name)) analyzer.error(item.span, `Column '${name}' is already in the by clause`);
    // ADX refuses grouping by a dynamic value (its words and hint).
    if (expr.type === "dynamic") {
      analyzer.error(item.expr.span, `Summarize group key '${name}' is of a 'dynamic' type. Please use an explicit cast (for example, 'summarize ... by tostring(${name})') as grouping by a 'dynamic' type is not supported.`);
    }
    columns.push({ name, expr });
    groupBy.push(expr);
  }
  const byCount = columns.length;
  for (const item of aggregates) {
    if (item.expr.kind === "call" && (item.expr.name === "arg_max" || item.expr.name === "arg_min")) {
      for (const binding of argExtreme(planner, item.expr, scope, columns.slice(0, byCount), item)) {
        columns.push({ name: unique(binding.name), expr: binding.expr });
      }
      continue;
    }
    const multi = analyzer.multiAggregate(item.expr, scope);
    if (multi) {
      multi.forEach((m, i) => columns.push({ name: unique(item.names?.[i]?.text ?? m.name), expr: m.expr }));
      continue;
    }
    const expr = analyzer.aggregate(item.expr, scope);
    const name = item.name?.text ?? (item.expr.kind === "call" ? expr.hint : undefined) ?? planner.columnName(columns, () => ++unnamed);
    if (item.name && taken(name)) analyzer.error(item.name.span, `Column '${name}' is defined twice`);
    columns.push({ name: unique(name), expr });
  }
  return { ...block, columns, groupBy, aggregated: true, orderBy: [] };
}

/** `arg_max(key, cols… | *)`: the row with the largest key, as columns named after the key and the picked columns. */
function argExtreme(planner: OperatorPlanner, call: Extract<Expr, { kind: "call" }>, scope: Scope, byColumns: Binding[], item: Assignment): Binding[] {
  const analyzer = planner.analyzer;
  const op = call.name;
  if (call.args.length < 1 || (call.args.length < 2 && !call.star)) analyzer.error(call.span, `${op}() expects the expression to ${op === "arg_max" ? "maximize" : "minimize"} and the columns to return (or *)`);
  const key = analyzer.scalar(call.args[0]!, scope);
  if (key.type === "dynamic" && key.dynamic === "json") analyzer.error(call.args[0]!.span, `${op}() needs a number, datetime or string to compare`);
  const keyValue = key.type === "dynamic" ? analyzer.asNumber(key) : key;
  const pick = (expr: TExpr): TExpr => ({
    ...analyzer.op(op, [expr, keyValue], expr.type, expr.type !== "string"),
    dynamic: expr.dynamic,
    aggregate: true,
  });
  // `(a, b, …) = arg_max(key, x, …)` names the key's column and then the picked ones, in order (ADX).
  const given = item.names?.map((n) => n.text) ?? [];
  if (given.length > Math.max(call.args.length, call.star ? Infinity : 0)) analyzer.error(item.span, `${op}() gives ${call.args.length} columns here`);
  const keyName = given[0] ?? item.name?.text ?? (call.args[0]!.kind === "column" ? (call.args[0] as { name: string }).name : `${op === "arg_max" ? "max" : "min"}_${nameOf(call.args[0]!) ?? ""}`);
  const result: Binding[] = [{ name: keyName, expr: pick(key) }];
  const skip = new Set([keyName, ...byColumns.map((c) => c.name)]);
  if (call.star) {
    for (const [name, expr] of scope) if (!skip.has(name)) result.push({ name: given[result.length] ?? name, expr: pick(expr) });
  }
  for (const arg of call.args.slice(1)) {
    const expr = analyzer.scalar(arg, scope);
    const renamed = given[result.length];
    const name = renamed ?? nameOf(arg) ?? `${op}_${result.length}`;
    if (renamed || !skip.has(name)) result.push({ name, expr: pick(expr) });
  }
  return result;
}

/** Column names matching names or `*` wildcards (`Data*`); a plain name must exist. */
function matchPatterns(analyzer: Analyzer, block: Block, patterns: Name[]): string[] {
  const names: string[] = [];
  for (const pattern of patterns) {
    if (!pattern.text.includes("*")) {
      if (!block.columns.some((c) => c.name === pattern.text)) analyzer.error(pattern.span, `Unknown column '${pattern.text}'`);
      names.push(pattern.text);
      continue;
    }
    const regex = new RegExp(`^${pattern.text.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
    for (const column of block.columns) if (regex.test(column.name) && !names.includes(column.name)) names.push(column.name);
  }
  return names;
}

/**
 * project-by-names' columns: each argument a constant string (a name or `*` pattern) or a dynamic
 * array of them, in the arguments' order; names no column has are ignored (ADX).
 */
function namesByValue(analyzer: Analyzer, block: Block, names: Expr[]): string[] {
  const found: string[] = [];
  for (const ast of names) {
    const value = analyzer.scalar(ast, new Map());
    // A dynamic literal is its JSON text, cast (a `json` node over the text's parameter).
    const text = value.type === "dynamic" && "args" in value.node && value.node.args.length === 1 ? value.node.args[0]! : value;
    const constant = analyzer.constant(text);
    let patterns: unknown = constant;
    if (value.type === "dynamic" && typeof constant === "string") patterns = JSON.parse(constant);
    if (typeof patterns === "string") patterns = [patterns];
    if (!Array.isArray(patterns) || (value.type !== "string" && value.type !== "dynamic")) return analyzer.error(ast.span, "project-by-names takes constant column names: strings or a dynamic array of strings");
    for (const pattern of patterns) {
      if (typeof pattern !== "string") continue;
      const regex = new RegExp(`^${pattern.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
      for (const column of block.columns) if (regex.test(column.name) && !found.includes(column.name)) found.push(column.name);
    }
  }
  return found;
}

/** ADX's granny order: digits compare as numbers (`a2` before `a10`). */
function grannyCompare(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true, sensitivity: "variant" });
}

const CLR_TYPES: Record<KqlType, string> = {
  string: "System.String", datetime: "System.DateTime", dynamic: "System.Object", real: "System.Double",
  long: "System.Int64", int: "System.Int32", bool: "System.SByte", timespan: "System.TimeSpan",
};

function getschema(planner: OperatorPlanner, block: Block): Block {
  const analyzer = planner.analyzer;
  const rows = block.columns.map((c, i) => [
    analyzer.param("VARCHAR", c.name, "string"),
    analyzer.param("BIGINT", i, "long"),
    analyzer.param("VARCHAR", CLR_TYPES[c.expr.type], "string"),
    analyzer.param("VARCHAR", c.expr.type, "string"),
  ]);
  const names = ["ColumnName", "ColumnOrdinal", "DataType", "ColumnType"];
  // ColumnOrdinal is long, as Kusto.Language derives it.
  const types: KqlType[] = ["string", "long", "string", "string"];
  const sql = rows.length ? planner.dialect.values(rows, names) : planner.dialect.values([types.map((t) => analyzer.nullOf(t))], names) + " LIMIT 0";
  return planner.fromRelation(sql, planner.nextAlias(), names.map((name, i) => ({ name, alias: name, type: types[i]!, nullable: false })));
}

function union(planner: OperatorPlanner, input: Block | undefined, operator: Extract<Operator, { kind: "union" }>, env: Env): Block {
  const analyzer = planner.analyzer;
  const parts: Block[] = [];
  if (input) parts.push(input);
  const missing = (t: TabularExpr) => t.source.kind === "name" && !t.source.database && !env.has(t.source.name.text) && !isTableName(t.source.name.text);
  const tables = operator.options.isfuzzy ? operator.tables.filter((t) => !missing(t)) : operator.tables;
  if (!parts.length && !tables.length) analyzer.error(operator.span, "None of the union's tables exists");
  for (const table of tables) parts.push(planner.tabular(table, env));
  const wrapped = parts.map((p) => planner.wrap(p));
  // Output columns: one per (name, type); a name with several types gets `_type` suffixes (ADX).
  const seen: { name: string; type: KqlType; json: boolean }[] = [];
  for (const part of wrapped) {
    for (const c of part.columns) {
      const found = seen.find((s) => s.name === c.name && s.type === c.expr.type);
      if (found) found.json ||= c.expr.dynamic === "json";
      else seen.push({ name: c.name, type: c.expr.type, json: c.expr.dynamic === "json" });
    }
  }
  let outputs = seen;
  if (operator.options.kind === "inner") outputs = seen.filter((s) => wrapped.every((p) => p.columns.some((c) => c.name === s.name && c.expr.type === s.type)));
  const typesOf = (name: string) => outputs.filter((o) => o.name === name).length;
  const names = outputs.map((o) => (typesOf(o.name) > 1 ? `${o.name}_${o.type}` : o.name));
  const withsource = operator.options.withsource?.text;
  const allNames = withsource ? [withsource, ...names] : names;
  const aliases = outputAliases(allNames.map((name) => ({ name })));
  const selects = wrapped.map((part, i) => {
    const columns: SelectBlock["columns"] = [];
    if (withsource) {
      const label = parts[i]!.sourceName ?? `union_arg${i}`;
      columns.push({ expr: analyzer.param("VARCHAR", label, "string"), alias: aliases[0]! });
    }
    outputs.forEach((o, j) => {
      const column = part.columns.find((c) => c.name === o.name && c.expr.type === o.type);
      let expr: TExpr = column ? column.expr : o.type === "string" ? analyzer.op("empty_string", [], "string", false) : { ...analyzer.nullOf(o.type), dynamic: o.type === "dynamic" ? (o.json ? "json" : "double") : undefined };
      if (o.type === "dynamic" && o.json) expr = analyzer.asJson(expr);
      columns.push({ expr, alias: aliases[j + (withsource ? 1 : 0)]! });
    });
    return planner.dialect.select({ ...planner.emptyBlock(part.from), columns, distinct: false });
  });
  const nullable = (o: (typeof outputs)[number]) => o.type !== "string" && (wrapped.some((p) => !p.columns.some((c) => c.name === o.name && c.expr.type === o.type)) || wrapped.some((p) => p.columns.find((c) => c.name === o.name)?.expr.nullable));
  return planner.fromRelation(planner.dialect.unionAll(selects), planner.nextAlias(), [
    ...(withsource ? [{ name: withsource, alias: aliases[0]!, type: "string" as const, nullable: false }] : []),
    ...outputs.map((o, j) => ({ name: names[j]!, alias: aliases[j + (withsource ? 1 : 0)]!, type: o.type, nullable: nullable(o), dynamic: o.type === "dynamic" ? (o.json ? ("json" as const) : ("double" as const)) : undefined })),
  ]);
}

/** Join kinds that keep both inputs' columns, and the SQL join each one is. */
const BOTH_SIDES_JOINS = new Map<string, JoinType>([
  ["innerunique", "inner"], ["inner", "inner"], ["leftouter", "left"], ["rightouter", "right"], ["fullouter", "full"],
]);

/**
 * ADX's join kind by name: the SQL join, whether the inputs swap, and whose columns it keeps. The
 * semi and anti kinds keep one side: `left…` the left input, `right…` the same join with the
 * inputs swapped.
 */
function joinKind(name: string): { type: JoinType; swap: boolean; output: "both" | "left" | "right" } | null {
  const both = BOTH_SIDES_JOINS.get(name);
  if (both) return { type: both, swap: false, output: "both" };
  const oneSide = /^(left|right)(semi|anti|antisemi)$/.exec(name);
  if (!oneSide) return null;
  const side = oneSide[1] as "left" | "right";
  return { type: oneSide[2] === "semi" ? "semi" : "anti", swap: side === "right", output: side };
}

function join(planner: OperatorPlanner, leftIn: Block, operator: Extract<Operator, { kind: "join" | "lookup" }>, env: Env): Block {
  const analyzer = planner.analyzer;
  const spec = joinKind(operator.joinKind);
  const span = operator.kindSpan ?? operator.span;
  if (!spec) analyzer.error(span, `Unknown join kind '${operator.joinKind}'`);
  if (operator.kind === "lookup" && operator.joinKind !== "leftouter" && operator.joinKind !== "inner") analyzer.error(span, `lookup supports kind=leftouter or kind=inner, not '${operator.joinKind}'`);
  let left = planner.wrap(leftIn);
  const right = planner.wrap(planner.tabular(operator.right, env));
  const keys = operator.on.map((key) => joinKey(analyzer, left, right, key));
  if (operator.joinKind === "innerunique") {
    // ADX keeps one (arbitrary) left row per key value before joining. Here the choice is fixed, so
    // an answer never changes between runs or engines: the first row of a serialized row set, else
    // the least row by its scalar columns (the documentation's example keeps 'b', 2 of 'b', 2 and 'b', 3).
    const leftScope = scopeOf(left);
    const partition = operator.on.map((k) => leftScope.get(k.left.text)!);
    const order = left.serial
      ? left.serial.map((k) => ({ expr: k.expr, desc: k.desc }))
      : left.columns.filter((c) => c.expr.type !== "dynamic").map((c) => ({ expr: leftScope.get(c.name)!, desc: false }));
    const rank: TExpr = { type: "long", nullable: false, node: { op: "window", fn: "row_number", partition, order } };
    left = planner.wrap({ ...left, qualify: [analyzer.op("le", [rank, analyzer.param("BIGINT", 1, "long")], "bool", false)] });
    keys.splice(0, keys.length, ...operator.on.map((key) => joinKey(analyzer, left, right, key)));
  }
  const condition = keys.length === 1 ? keys[0]! : analyzer.op("and", keys, "bool", false);
  const [first, second] = spec!.swap ? [right, left] : [left, right];
  const from = planner.dialect.join(spec!.type, first.from, second.from, condition);
  const columns: Binding[] = [];
  const outerLeft = spec!.type === "right" || spec!.type === "full";
  const outerRight = spec!.type === "left" || spec!.type === "full";
  const nullable = (expr: TExpr, outer: boolean): TExpr =>
    outer ? (expr.type === "string" ? analyzer.op("coalesce_empty", [expr], "string", false) : { ...expr, nullable: true }) : expr;
  const add = (name: string, expr: TExpr) => {
    let candidate = name;
    for (let i = 1; columns.some((c) => c.name === candidate); i++) candidate = `${name}${i}`;
    columns.push({ name: candidate, expr });
  };
  if (spec!.output !== "right") for (const c of left.columns) add(c.name, nullable(c.expr, outerLeft));
  if (spec!.output !== "left") {
    const rightKeys = new Set(operator.kind === "lookup" ? operator.on.map((k) => k.right.text) : []);
    for (const c of right.columns) if (!rightKeys.has(c.name)) add(c.name, nullable(c.expr, outerRight));
  }
  return { ...planner.emptyBlock(from), columns };
}

function joinKey(analyzer: Analyzer, left: Block, right: Block, key: JoinKey): TExpr {
  const l = left.columns.find((c) => c.name === key.left.text);
  const r = right.columns.find((c) => c.name === key.right.text);
  if (!l) analyzer.error(key.left.span, `Unknown column '${key.left.text}' on the left side of the join`);
  if (!r) analyzer.error(key.right.span, `Unknown column '${key.right.text}' on the right side of the join`);
  const [lt, rt] = [l!.expr.type, r!.expr.type];
  if (lt === "dynamic" || rt === "dynamic") analyzer.error(key.span, "Join keys of type dynamic are not supported; convert them first (tostring(), todouble())");
  if (lt !== rt && !(isNumeric(lt) && isNumeric(rt))) analyzer.error(key.span, `Join keys have different types: ${lt} and ${rt}`);
  return analyzer.op("eq", [l!.expr, r!.expr], "bool", false);
}

function makeSeries(planner: OperatorPlanner, blockIn: Block, operator: Extract<Operator, { kind: "make-series" }>): Block {
  const analyzer = planner.analyzer;
  const input = planner.wrap(blockIn);
  const scope = scopeOf(input);
  const axis = analyzer.scalar(operator.axis, scope);
  const axisType = axis.type === "int" ? "long" : axis.type;
  if (axisType !== "datetime" && axisType !== "timespan" && axisType !== "long" && axisType !== "real") analyzer.error(operator.axis.span, `make-series needs a datetime, timespan or numeric axis, not ${axis.type}`);
  const step = analyzer.scalar(operator.step, new Map());
  const stepType = axisType === "datetime" ? "timespan" : axisType;
  if (step.type !== stepType && !(isNumeric(step.type) && isNumeric(stepType))) analyzer.error(operator.step.span, `make-series step must be a ${stepType}, not ${step.type}`);
  const stepValue = analyzer.constant(step);
  if (typeof stepValue !== "number" || stepValue <= 0) analyzer.error(operator.step.span, "make-series needs a constant, positive step");
  const bound = (e: Expr | undefined) => {
    if (!e) return undefined;
    const value = analyzer.scalar(e, new Map());
    if (value.type !== axisType && !(isNumeric(value.type) && isNumeric(axisType))) analyzer.error(e.span, `make-series bounds must be ${axisType}, not ${value.type}`);
    return value;
  };
  const start = bound(operator.from);
  const end = bound(operator.to);
  const [s, e] = [start && analyzer.constant(start), end && analyzer.constant(end)];
  if (typeof s === "number" && typeof e === "number" && typeof stepValue === "number") {
    const points = Math.ceil(((e - s) * (axisType === "datetime" ? 1000 : 1)) / stepValue);
    if (points > LIMITS.makeSeriesPoints) analyzer.error(operator.span, `make-series would build ${points.toLocaleString("en-US")} points per series; at most ${LIMITS.makeSeriesPoints.toLocaleString("en-US")} are allowed`);
  }
  const by = planner.assignments(operator.by, (x) => {
    const v = analyzer.scalar(x, scope);
    if (v.type === "dynamic" && v.dynamic === "json") analyzer.error(x.span, "Cannot group by a dynamic value; convert it first (tostring(), todouble())");
    return v;
  });
  const taken = new Set(by.map((b) => b.name));
  let unnamed = 0;
  const aggregates = operator.aggregates.map((item) => {
    // A constant in place of an aggregation is that value in every bin with rows (ADX: `other = -1 default = -2`).
    const constant = item.expr.kind === "literal" || (item.expr.kind === "unary" && item.expr.operand.kind === "literal");
    const expr = analyzer.aggregate(constant ? { kind: "call", name: "take_any", nameSpan: item.expr.span, args: [item.expr], star: false, span: item.expr.span } : item.expr, scope);
    const elementType = expr.type === "int" ? "long" : expr.type;
    if (!isNumeric(elementType)) analyzer.error(item.expr.span, `make-series needs aggregations with numeric results, not ${expr.type}`);
    let name = item.name?.text ?? (item.expr.kind === "call" ? expr.hint : undefined) ?? planner.columnName([...taken].map((n) => ({ name: n })), () => ++unnamed);
    for (let i = 1; taken.has(name!); i++) name = `${name}${i}`;
    taken.add(name!);
    const fallback = item.default ? analyzer.scalar(item.default, new Map()) : analyzer.param("BIGINT", 0, "long");
    if (fallback.node.op !== "null" && !isNumeric(fallback.type) && fallback.type !== elementType) analyzer.error(item.default!.span, `default must be a number, not ${fallback.type}`);
    return { name: name!, expr, default: fallback, elementType: elementType as KqlType };
  });
  const axisName = nameOf(operator.axis) ?? "Column1";
  const names = [...by.map((b) => b.name), ...aggregates.map((a) => a.name), axisName];
  const aliases = outputAliases(names.map((name) => ({ name })));
  const sql = planner.dialect.makeSeries({
    from: input.from,
    by: by.map((b, i) => ({ expr: b.expr, alias: aliases[i]! })),
    aggregates: aggregates.map((a, i) => ({ expr: a.expr, alias: aliases[by.length + i]!, default: a.default, elementType: a.elementType })),
    axis,
    axisAlias: aliases[aliases.length - 1]!,
    axisType: axisType as "datetime",
    start,
    end,
    step,
    maxPoints: LIMITS.makeSeriesPoints,
    nonEmpty: operator.nonEmpty,
  });
  return planner.fromRelation(sql, planner.nextAlias(), [
    ...by.map((b, i) => ({ name: b.name, alias: aliases[i]!, type: b.expr.type, nullable: b.expr.nullable })),
    ...names.slice(by.length).map((name, i) => ({ name, alias: aliases[by.length + i]!, type: "dynamic" as const, nullable: false, dynamic: "json" as const })),
  ]);
}

function mvExpand(planner: OperatorPlanner, blockIn: Block, operator: Extract<Operator, { kind: "mv-expand" }>): Block {
  const analyzer = planner.analyzer;
  const input = planner.wrap(blockIn);
  const scope = scopeOf(input);
  const columns: Binding[] = [...input.columns];
  const expanded: { name: string; type?: KqlType; span: Expr["span"] }[] = [];
  let first: TExpr | undefined;
  for (const item of operator.items) {
    const value = analyzer.scalar(item.expr, scope);
    if (value.type !== "dynamic") analyzer.error(item.expr.span, `mv-expand needs a dynamic array or property bag, not ${value.type}`);
    const name = item.name?.text ?? nameOf(item.expr);
    if (!name) analyzer.error(item.expr.span, "mv-expand of an expression needs a name (Name = expression)");
    const unnest: TExpr = { ...analyzer.op(`mv_unnest_${operator.bagExpansion}`, [analyzer.asJson(value)], "dynamic", true), dynamic: "json" };
    first ??= unnest;
    const existing = columns.findIndex((c) => c.name === name);
    if (existing >= 0) columns[existing] = { name: name!, expr: unnest };
    else columns.push({ name: name!, expr: unnest });
    expanded.push({ name: name!, type: item.toType ? analyzer.typeName(item.toType) : undefined, span: item.span });
  }
  const indexName = operator.itemIndex?.text ?? (operator.limit ? "__mv_index" : undefined);
  if (indexName) columns.push({ name: indexName, expr: analyzer.op("mv_index", [(first!.node as { args: TExpr[] }).args[0]!], "long", false) });
  const { sql, aliases } = planner.renderAs({ ...planner.emptyBlock(input.from), columns });
  let block = planner.fromRelation(sql, planner.nextAlias(), columns.map((c, i) => ({ name: c.name, alias: aliases[i]!, type: c.expr.type, nullable: c.expr.nullable, dynamic: c.expr.dynamic })));
  // `to typeof(t)`: a cast of each element; elements of another kind become null (ADX).
  block = {
    ...block,
    columns: block.columns.map((c) => {
      const target = expanded.find((e) => e.name === c.name)?.type;
      return target && target !== "dynamic" ? { name: c.name, expr: analyzer.convert(c.expr, target, expanded.find((e) => e.name === c.name)!.span) } : c;
    }),
  };
  if (operator.limit) {
    const limit = analyzer.count(operator.limit);
    const index = block.columns.find((c) => c.name === indexName)!.expr;
    block = { ...block, where: [analyzer.op("lt", [index, limit], "bool", false)] };
    if (!operator.itemIndex) block = { ...block, columns: block.columns.filter((c) => c.name !== indexName) };
  }
  return block;
}

function topNested(planner: OperatorPlanner, blockIn: Block, operator: Extract<Operator, { kind: "top-nested" }>): Block {
  const analyzer = planner.analyzer;
  const input = planner.wrap(blockIn);
  const scope = scopeOf(input);
  const keys = operator.levels.map((level) => {
    const expr = analyzer.scalar(level.of.expr, scope);
    if (expr.type === "dynamic" && expr.dynamic === "json") analyzer.error(level.of.expr.span, "top-nested cannot group by a dynamic value; convert it first");
    const name = level.of.name?.text ?? nameOf(level.of.expr);
    if (!name) analyzer.error(level.of.expr.span, "top-nested of an expression needs a name (Name = expression)");
    return { name: name!, expr };
  });
  // Level by level over the rows: group by keys 0..i, rank within keys 0..i-1; a row outside its group's top N is
  // dropped, or with `others` relabelled to that value (so deeper levels and this level's aggregate see it there).
  let rows = planner.wrap({ ...input, columns: [...input.columns, ...keys.map((k, j) => ({ name: `__tn_k${j}`, expr: k.expr }))] });
  const levels = operator.levels.map((level, i) => {
    const group = (b: Block) => {
      const bs = scopeOf(b);
      const columns: Binding[] = [...keys.slice(0, i + 1).map((_, j) => ({ name: `k${j}`, expr: bs.get(`__tn_k${j}`)! })), { name: "agg", expr: analyzer.aggregate(level.by.expr, bs) }];
      return planner.wrap({ ...b, columns, groupBy: columns.slice(0, -1).map((c) => c.expr), aggregated: true });
    };
    if (level.count) {
      const grouped = group(rows);
      const gs = scopeOf(grouped);
      const count = analyzer.count(level.count);
      const rank: TExpr = { type: "long", nullable: false, node: { op: "window", fn: "row_number", partition: keys.slice(0, i).map((_, j) => gs.get(`k${j}`)!), order: [{ expr: gs.get("agg")!, desc: true }] } };
      const top = planner.wrap({ ...grouped, columns: [...grouped.columns, { name: "hit", expr: analyzer.param("BIGINT", 1, "long") }], qualify: [analyzer.op("le", [rank, count], "bool", false)] });
      const ts = scopeOf(top);
      const rs = scopeOf(rows);
      const on = keys.slice(0, i + 1).map((_, j) => analyzer.op("same", [rs.get(`__tn_k${j}`)!, ts.get(`k${j}`)!], "bool", false));
      const from = planner.dialect.join(level.others ? "left" : "inner", rows.from, top.from, on.length === 1 ? on[0]! : analyzer.op("and", on, "bool", false));
      if (level.others) {
        const value = analyzer.scalar(level.others, new Map());
        const key = keys[i]!.expr.type;
        if (value.type !== key && !(isNumeric(value.type) && isNumeric(key))) analyzer.error(level.others.span, `top-nested's others value must be a ${key} like its key, not ${value.type}`);
      }
      const relabel = (c: Binding): Binding => {
        if (!level.others || c.name !== `__tn_k${i}`) return c;
        const names = new Map([["__tn_hit", { ...ts.get("hit")!, nullable: true }], ["__tn_key", c.expr]]);
        const at = level.others.span;
        const column = (name: string): Expr => ({ kind: "column", name, span: at });
        const isnull: Expr = { kind: "call", name: "isnull", nameSpan: at, args: [column("__tn_hit")], star: false, span: at };
        return { name: c.name, expr: analyzer.scalar({ kind: "call", name: "iff", nameSpan: at, args: [isnull, level.others, column("__tn_key")], star: false, span: at }, names) };
      };
      rows = planner.wrap({ ...planner.emptyBlock(from), columns: rows.columns.map(relabel) });
    }
    // This level's aggregate over its rows after its own cut: deeper levels' cuts do not change it (ADX).
    return { block: group(rows), name: level.by.name?.text ?? `aggregated_${keys[i]!.name}` };
  });
  // Joined from the deepest level up: a row survives only if every ancestor is in its parent's top N.
  let from = levels[levels.length - 1]!.block.from;
  for (let i = levels.length - 2; i >= 0; i--) {
    const parent = levels[i]!.block;
    const deepest = scopeOf(levels[levels.length - 1]!.block);
    const ps = scopeOf(parent);
    const condition = keys.slice(0, i + 1).map((_, j) => analyzer.op("same", [deepest.get(`k${j}`)!, ps.get(`k${j}`)!], "bool", false));
    from = planner.dialect.join("inner", from, parent.from, condition.length === 1 ? condition[0]! : analyzer.op("and", condition, "bool", false));
  }
  const deepest = scopeOf(levels[levels.length - 1]!.block);
  const columns: Binding[] = [];
  levels.forEach((level, i) => {
    const ls = scopeOf(level.block);
    columns.push({ name: keys[i]!.name, expr: deepest.get(`k${i}`)! }, { name: level.name, expr: ls.get("agg")! });
  });
  return { ...planner.emptyBlock(from), columns };
}

/** Regex of each column type in a `parse` pattern (simple mode): a value of another shape makes the row not match. */
const PARSE_PATTERNS: Partial<Record<KqlType, string>> = {
  long: "(-?\\d+)",
  int: "(-?\\d+)",
  real: "(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)",
  bool: "(true|false|True|False|TRUE|FALSE)",
};

/**
 * parse / parse-where. Simple and regex modes are strict: a row matches when the pattern does and
 * every typed column converts; otherwise all its columns are null ('' for strings), or parse-where
 * drops it. Relaxed mode only needs the pattern: a column that does not convert is null alone.
 * Regex mode: string columns are greedy `(.*)` (ADX's documented output; flags=U makes them lazy),
 * the pattern's own groups are counted so each column reads its group.
 */
function parseOperator(planner: OperatorPlanner, blockIn: Block, operator: Extract<Operator, { kind: "parse" }>): Block {
  const analyzer = planner.analyzer;
  const regexMode = operator.mode === "regex";
  const source = analyzer.asText(analyzer.scalar(operator.source, scopeOf(blockIn)));
  let regex = "^";
  let groups = 0;
  const extracted: { name: Name; type: KqlType; group: number }[] = [];
  const parts = operator.parts;
  parts.forEach((part, i) => {
    if (part.kind === "text") {
      regex += regexMode ? part.value : escapeRegex(part.value);
      if (regexMode) groups += capturingGroups(part.value);
    } else if (part.kind === "star") {
      regex += ".*?";
    } else {
      const type = part.type ? analyzer.typeName(part.type) : "string";
      const last = i === parts.length - 1;
      const loose = regexMode || last ? "(.*)" : "(.*?)";
      const typed = PARSE_PATTERNS[type];
      // Relaxed: the type's shape first, else any text (which then converts to null).
      regex += typed && operator.mode === "relaxed" ? `((?:${typed.slice(1, -1)})|${loose.slice(1, -1)})` : (typed ?? loose);
      extracted.push({ name: part.name, type, group: ++groups });
    }
  });
  // The end is not anchored after a trailing literal or `*` in regex mode (ADX matches a prefix).
  if (!regexMode || parts[parts.length - 1]?.kind === "column") regex += "$";
  if (regex.length > LIMITS.regexLength) analyzer.error(operator.span, `The parse pattern is longer than ${LIMITS.regexLength} characters`);
  analyzer.checkRegex(regex, operator.span);
  const flags = regexMode ? (operator.flags ?? "") : "s";
  const pattern = analyzer.param("VARCHAR", `${flags ? `(?${flags})` : ""}${regex}`, "string");
  const values = extracted.map((x) => {
    const text = analyzer.op("regex_group", [source, pattern, analyzer.param("BIGINT", x.group, "long")], "string", false);
    return x.type === "string" ? text : analyzer.convert(analyzer.op("empty_to_null", [text], "string", true), x.type, x.name.span);
  });
  const strict = operator.mode !== "relaxed" && extracted.some((x) => x.type !== "string");
  if (!strict && !operator.filter) return withParsed(blockIn, extracted, values);
  // The match test and the converted values once, under hidden names; the columns read them.
  const hidden = `__parse_${planner.nextAlias()}`;
  const matched = analyzer.op("and", [analyzer.op("regex_match", [source, pattern], "bool", false), ...(strict ? values.filter((v) => v.type !== "string").map((v) => analyzer.op("isnotnull", [v], "bool", false)) : [])], "bool", false);
  const staged = planner.wrap({ ...blockIn, columns: [...blockIn.columns, ...values.map((v, i) => ({ name: `${hidden}_${i}`, expr: v })), { name: hidden, expr: matched }] });
  const scope = scopeOf(staged);
  const ok = scope.get(hidden)!;
  const visible = { ...staged, columns: staged.columns.filter((c) => !c.name.startsWith(hidden)) };
  if (operator.filter) return withParsed({ ...visible, where: [ok] }, extracted, values.map((_, i) => scope.get(`${hidden}_${i}`)!));
  const guarded = extracted.map((x, i) => {
    const value = scope.get(`${hidden}_${i}`)!;
    const otherwise = x.type === "string" ? analyzer.op("empty_string", [], "string", false) : analyzer.nullOf(x.type);
    return analyzer.op("case", [ok, value, otherwise], x.type, x.type !== "string");
  });
  return withParsed(visible, extracted, guarded);
}

/** The block with each parsed column (an existing column of the same name moves to the end). */
function withParsed(block: Block, extracted: { name: Name }[], values: TExpr[]): Block {
  const columns = [...block.columns];
  extracted.forEach((x, i) => {
    const existing = columns.findIndex((c) => c.name === x.name.text);
    if (existing >= 0) columns.splice(existing, 1);
    columns.push({ name: x.name.text, expr: values[i]! });
  });
  return { ...block, columns };
}

/** Capturing groups in a piece of a regex-mode pattern: `(` not escaped, not in a class, not `(?:`-like (`(?P<n>` captures). */
function capturingGroups(regex: string): number {
  let count = 0;
  let inClass = false;
  for (let i = 0; i < regex.length; i++) {
    const ch = regex[i];
    if (ch === "\\") i++;
    else if (inClass) inClass = ch !== "]";
    else if (ch === "[") inClass = true;
    else if (ch === "(" && (regex[i + 1] !== "?" || regex.startsWith("?P<", i + 1))) count++;
  }
  return count;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
