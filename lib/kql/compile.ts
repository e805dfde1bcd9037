/**
 * `compileKql`: KQL text → one DuckDB statement over the scoped source relation. See index.ts for
 * the contract.
 *
 * The planner folds the pipeline into as few SELECT blocks as possible: `where` after `extend`
 * becomes a WHERE on the source with the extended expression inlined, `take` after `sort` a
 * LIMIT on the same block, `summarize` a GROUP BY on the filtered source. A new block (subquery)
 * starts only when SQL's clause order requires it (filtering after LIMIT, grouping twice, …).
 */
import type { Assignment, Expr, Operator, SortKey } from "./ast";
import { Analyzer, nameOf, type Scope } from "./analyze";
import type { SelectBlock, SqlDialect } from "./dialect/dialect";
import { duckdbDialect } from "./dialect/duckdb";
import { KqlError } from "./errors";
import { readsColumns, type TExpr } from "./ir";
import { parse } from "./parser";
import { isTableName, TABLES, type TableName } from "./tables";
import type { ResultColumn, SqlParams } from "./types";

/** An already scoped relation of one table: SQL text and the params it uses (`$scope_*`). */
export interface KqlSource {
  sql: string;
  params: SqlParams;
}

export interface CompileOptions {
  sources: Partial<Record<TableName, KqlSource>>;
  /** The query's `now()`; defaults to the current time. One instant for the whole query, as in ADX. */
  now?: Date;
  dialect?: SqlDialect;
}

/** The `render` operator's hint: chart kind plus its `with (…)` properties. */
export interface RenderHint {
  kind: string;
  properties: Record<string, string | number | boolean | null>;
}

export interface CompiledQuery {
  table: TableName;
  sql: string;
  params: SqlParams;
  columns: ResultColumn[];
  render?: RenderHint;
}

interface Binding {
  name: string;
  expr: TExpr;
}

interface Block {
  from: string;
  columns: Binding[];
  where: TExpr[];
  groupBy: TExpr[];
  aggregated: boolean;
  distinct: boolean;
  orderBy: SelectBlock["orderBy"];
  limit?: TExpr;
}

export function compileKql(text: string, options: CompileOptions): CompiledQuery {
  const { ast, diagnostics } = parse(text);
  const first = diagnostics[0];
  if (first || !ast) {
    throw new KqlError(first?.message ?? "Query is empty", first?.line ?? 1, first?.column ?? 1, first?.from ?? 0, first?.to ?? 0);
  }
  const analyzer = new Analyzer(text, (options.now ?? new Date()).getTime());
  const tableName = ast.table.name;
  if (!isTableName(tableName)) analyzer.error(ast.table.span, `Unknown table '${tableName}': expected States or Events`);
  const table = tableName as TableName;
  const source = options.sources[table];
  if (!source) analyzer.error(ast.table.span, `Table '${table}' is not available`);
  const planner = new Planner(analyzer, options.dialect ?? duckdbDialect);
  let block = planner.sourceBlock(table, source!.sql);
  let render: RenderHint | undefined;
  for (const operator of ast.operators) {
    if (operator.kind === "render") {
      render = { kind: operator.chart.text, properties: renderProperties(analyzer, operator) };
      continue;
    }
    block = planner.apply(block, operator);
  }
  const sql = planner.render(block);
  return {
    table,
    sql,
    params: referencedParams(sql, { ...source!.params, ...analyzer.params }),
    columns: block.columns.map((c) => ({ name: c.name, kqlType: c.expr.type })),
    render,
  };
}

/** DuckDB rejects binding a parameter the statement does not use (a literal the analyzer folded away). */
function referencedParams(sql: string, params: SqlParams): SqlParams {
  const used = new Set(Array.from(sql.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g), (m) => m[1]!));
  return Object.fromEntries(Object.entries(params).filter(([name]) => used.has(name)));
}

function renderProperties(analyzer: Analyzer, operator: Extract<Operator, { kind: "render" }>): RenderHint["properties"] {
  const properties: RenderHint["properties"] = {};
  for (const { name, value } of operator.properties) {
    if (value.kind !== "literal") analyzer.error(value.span, `render property '${name}' needs a literal value`);
    properties[name] = value.kind === "literal" && typeof value.value !== "object" ? value.value : null;
  }
  return properties;
}

class Planner {
  private aliasCounter = 0;

  constructor(
    private readonly analyzer: Analyzer,
    private readonly dialect: SqlDialect,
  ) {}

  sourceBlock(table: TableName, sql: string): Block {
    const relation = this.nextAlias();
    return {
      from: this.dialect.subquery(sql, relation),
      columns: TABLES[table].columns.map((c) => ({
        name: c.name,
        expr: {
          type: c.kqlType,
          nullable: c.nullable,
          dynamic: c.kqlType === "dynamic" ? (c.storage === "DOUBLE" ? "double" : "json") : undefined,
          node: { op: "ref", relation, name: c.name },
        },
      })),
      where: [],
      groupBy: [],
      aggregated: false,
      distinct: false,
      orderBy: [],
    };
  }

  apply(blockIn: Block, operator: Operator): Block {
    const analyzer = this.analyzer;
    // A block whose rows are final for SQL (grouped, distinct or limited) is wrapped before
    // anything that reads its columns again.
    const settled = (b: Block) => b.aggregated || b.distinct || b.limit !== undefined;
    let block = blockIn;
    switch (operator.kind) {
      case "where": {
        if (settled(block)) block = this.wrap(block);
        const predicate = analyzer.predicate(operator.predicate, scopeOf(block));
        return { ...block, where: [...block.where, ...conjuncts(predicate)] };
      }
      case "extend": {
        if (settled(block)) block = this.wrap(block);
        const columns = [...block.columns];
        const scope = new Map(scopeOf(block));
        let unnamed = 0;
        for (const item of operator.items) {
          const expr = analyzer.scalar(item.expr, scope);
          const name = item.name?.text ?? nameOf(item.expr) ?? this.columnName(columns, () => ++unnamed);
          // ADX: a column that already exists is removed and appended with its new value.
          const existing = columns.findIndex((c) => c.name === name);
          if (existing >= 0) columns.splice(existing, 1);
          const binding = { name, expr };
          columns.push(binding);
          scope.set(name, binding.expr);
        }
        return { ...block, columns };
      }
      case "project": {
        if (settled(block)) block = this.wrap(block);
        const scope = scopeOf(block);
        return { ...block, columns: this.assignments(operator.items, (e) => analyzer.scalar(e, scope)) };
      }
      case "project-away": {
        if (settled(block)) block = this.wrap(block);
        const removed = new Set<string>();
        for (const column of operator.columns) {
          if (!block.columns.some((c) => c.name === column.text)) analyzer.error(column.span, `Unknown column '${column.text}'`);
          removed.add(column.text);
        }
        return { ...block, columns: block.columns.filter((c) => !removed.has(c.name)) };
      }
      case "project-rename": {
        if (settled(block)) block = this.wrap(block);
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
        if (settled(block)) block = this.wrap(block);
        return this.summarize(block, operator.aggregates, operator.by);
      case "count": {
        if (settled(block)) block = this.wrap(block);
        const count: TExpr = { type: "long", nullable: false, node: { op: "count", args: [] }, aggregate: true };
        return { ...block, columns: [{ name: "Count", expr: count }], groupBy: [], aggregated: true, orderBy: [] };
      }
      case "sort": {
        if (settled(block)) block = this.wrap(block);
        return { ...block, orderBy: this.sortKeys(operator.keys, scopeOf(block)) };
      }
      case "top": {
        if (settled(block)) block = this.wrap(block);
        const limit = analyzer.count(operator.count);
        return { ...block, orderBy: this.sortKeys(operator.keys, scopeOf(block)), limit };
      }
      case "take": {
        if (block.limit !== undefined) block = this.wrap(block);
        return { ...block, limit: analyzer.count(operator.count) };
      }
      case "distinct": {
        if (settled(block)) block = this.wrap(block);
        const scope = scopeOf(block);
        const columns = operator.columns === "*" ? block.columns : this.assignments(operator.columns, (e) => analyzer.scalar(e, scope));
        return { ...block, columns, distinct: true, orderBy: [] };
      }
      case "render":
        return block;
    }
  }

  private summarize(block: Block, aggregates: Assignment[], by: Assignment[]): Block {
    const analyzer = this.analyzer;
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
      const name = item.name?.text ?? nameOf(item.expr) ?? this.columnName(columns, () => ++unnamed);
      if (taken(name)) analyzer.error(item.span, `Column '${name}' is already in the by clause`);
      columns.push({ name, expr });
      groupBy.push(expr);
    }
    const byCount = columns.length;
    for (const item of aggregates) {
      if (item.expr.kind === "call" && (item.expr.name === "arg_max" || item.expr.name === "arg_min")) {
        for (const binding of this.argExtreme(item.expr, scope, columns.slice(0, byCount), item)) {
          columns.push({ name: unique(binding.name), expr: binding.expr });
        }
        continue;
      }
      const expr = analyzer.aggregate(item.expr, scope);
      const name = item.name?.text ?? (isBareAggregate(item.expr) ? expr.hint : undefined) ?? this.columnName(columns, () => ++unnamed);
      if (item.name && taken(name)) analyzer.error(item.name.span, `Column '${name}' is defined twice`);
      columns.push({ name: unique(name), expr });
    }
    return { ...block, columns, groupBy, aggregated: true, orderBy: [] };
  }

  /** `arg_max(key, cols… | *)`: the row with the largest key, as columns named after the key and the picked columns. */
  private argExtreme(call: Extract<Expr, { kind: "call" }>, scope: Scope, byColumns: Binding[], item: Assignment): Binding[] {
    const analyzer = this.analyzer;
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
    const keyName = item.name?.text ?? (call.args[0]!.kind === "column" ? (call.args[0] as { name: string }).name : `${op === "arg_max" ? "max" : "min"}_${nameOf(call.args[0]!) ?? ""}`);
    const result: Binding[] = [{ name: keyName, expr: pick(key) }];
    const skip = new Set([keyName, ...byColumns.map((c) => c.name)]);
    if (call.star) {
      for (const [name, expr] of scope) if (!skip.has(name)) result.push({ name, expr: pick(expr) });
    }
    for (const arg of call.args.slice(1)) {
      const expr = analyzer.scalar(arg, scope);
      const name = nameOf(arg) ?? `${op}_${result.length}`;
      if (!skip.has(name)) result.push({ name, expr: pick(expr) });
    }
    return result;
  }

  private assignments(items: Assignment[], analyze: (e: Expr) => TExpr): Binding[] {
    const columns: Binding[] = [];
    let unnamed = 0;
    for (const item of items) {
      const expr = analyze(item.expr);
      const name = item.name?.text ?? nameOf(item.expr) ?? this.columnName(columns, () => ++unnamed);
      if (columns.some((c) => c.name === name)) this.analyzer.error(item.span, `Column '${name}' is projected twice`);
      columns.push({ name, expr });
    }
    return columns;
  }

  private sortKeys(keys: SortKey[], scope: Scope): SelectBlock["orderBy"] {
    const orderBy: SelectBlock["orderBy"] = [];
    for (const key of keys) {
      const expr = this.analyzer.scalar(key.expr, scope);
      // A key without a column is the same for every row: it orders nothing (and SQL refuses a bare parameter there).
      if (!readsColumns(expr)) continue;
      const desc = key.direction !== "asc";
      orderBy.push({ expr, desc, nullsFirst: key.nulls ? key.nulls === "first" : !desc });
    }
    return orderBy;
  }

  /** `Column1`, `Column2`, … skipping names already present. */
  private columnName(columns: Binding[], next: () => number): string {
    for (;;) {
      const name = `Column${next()}`;
      if (!columns.some((c) => c.name === name)) return name;
    }
  }

  private nextAlias(): string {
    return `t${this.aliasCounter++}`;
  }

  /** Turns a block into the input relation of a new one. */
  wrap(block: Block): Block {
    const relation = this.nextAlias();
    const aliases = outputAliases(block.columns);
    const sql = this.dialect.select(this.toSelect(block, aliases));
    return {
      from: this.dialect.subquery(sql, relation),
      columns: block.columns.map((c, i) => ({
        name: c.name,
        expr: { type: c.expr.type, nullable: c.expr.nullable, dynamic: c.expr.dynamic, node: { op: "ref", relation, name: aliases[i]! } },
      })),
      where: [],
      groupBy: [],
      aggregated: false,
      distinct: false,
      orderBy: [],
    };
  }

  render(block: Block): string {
    return this.dialect.select(this.toSelect(block, outputAliases(block.columns)));
  }

  private toSelect(block: Block, aliases: string[]): SelectBlock {
    return {
      distinct: block.distinct,
      columns: block.columns.map((c, i) => ({ expr: c.expr, alias: aliases[i]! })),
      from: block.from,
      where: block.where,
      groupBy: block.groupBy,
      orderBy: block.orderBy,
      limit: block.limit,
    };
  }
}

/** SQL identifiers are case-insensitive; KQL names are not. Aliases stay unique regardless of case. */
function outputAliases(columns: Binding[]): string[] {
  const used = new Set<string>();
  return columns.map((c) => {
    let alias = c.name;
    for (let i = 2; used.has(alias.toLowerCase()); i++) alias = `${c.name}_${i}`;
    used.add(alias.toLowerCase());
    return alias;
  });
}

function scopeOf(block: Block): Scope {
  return new Map(block.columns.map((c) => [c.name, c.expr]));
}

/** Top-level `and` terms become separate WHERE conjuncts (each one can be pushed down alone). */
function conjuncts(predicate: TExpr): TExpr[] {
  if (predicate.node.op === "and" && "args" in predicate.node) return predicate.node.args.flatMap(conjuncts);
  return [predicate];
}

/** `count()`, `avg(x)`: named after the aggregate (`count_`, `avg_x`); `count() * 2` gets a ColumnN. */
function isBareAggregate(expr: Expr): boolean {
  return expr.kind === "call";
}

