/**
 * `compileKql`: KQL text → one SQL statement (in the given dialect, DuckDB by default) over the
 * scoped source relations. See index.ts for the contract.
 *
 * The planner folds each pipeline into as few SELECT blocks as possible: `where` after `extend`
 * becomes a WHERE on the source with the extended expression inlined, `take` after `sort` a
 * LIMIT on the same block, `summarize` a GROUP BY on the filtered source. A new block (subquery)
 * starts only when SQL's clause order requires it (filtering after LIMIT, grouping twice, …) or
 * when an operator builds a relation of its own (join, union, make-series, mv-expand, …).
 *
 * `let` statements are bound in an environment: scalars are analysed once (their literals become
 * parameters), tabular values and functions are compiled where they are used. Every table
 * reference reads the scoped relation the caller passed in, so no statement can escape the scope.
 */
import type { Assignment, Expr, FunctionParam, LetStatement, Name, Operator, SetStatement, SortKey, Span, TabularExpr, TabularSource } from "./ast";
import { bindQueryParameters, type QueryParameterValues } from "./query-parameters";
import { Analyzer } from "./analyze";
import type { Env, Scope } from "./analyzer-api";
import { nameOf } from "./names";
import type { SelectBlock, SqlDialect } from "./dialect/dialect";
import { duckdbDialect } from "./dialect/duckdb";
import { COMPILE_LIMITS, CompileLimitError, LIMITS, metered, tooLarge } from "./budget";
import { KqlError, KqlForbiddenError } from "./errors";
import { isNumeric, readsColumns, type TExpr } from "./ir";
import { parse, positionOf } from "./parser";
import { isTableName, TABLES, type TableName } from "./tables";
import type { KqlType, ResultColumn, SqlParams } from "./types";
import { planOperator } from "./operators";
import { outputAliases, type Binding, type Block, type OperatorPlanner } from "./block";
import { readsOnlySeries, renameRelation, seriesGroupsFirst, type SeriesRelation } from "./narrowing";

/** An already scoped relation of one table: SQL text and the params it uses (`$scope_*`). */
export interface KqlSource {
  sql: string;
  params: SqlParams;
  /**
   * Cheaper relations of the same rows, each with only some of the table's columns (the others are
   * absent): where a read of the table uses only `columns`, the first that has them all replaces
   * `sql` there. The storage decides what is cheaper (e.g. DuckDB's `States` without the join on its
   * series table when no series column is read: docs/architecture.md, "Plans that read only what
   * they need"). Same params as `sql`.
   */
  narrower?: readonly { columns: readonly string[]; sql: string }[];
  /**
   * The series relation the rows join (narrowing.ts): a filter reading only its columns is answered
   * on it as `key IN (…)` before the rows are read. `sql` and every narrower form then carry `key`.
   */
  series?: SeriesRelation;
}

export interface CompileOptions {
  sources: Partial<Record<TableName, KqlSource>>;
  /** The query's `now()`; defaults to the current time. One instant for the whole query, as in ADX. */
  now?: Date;
  dialect?: SqlDialect;
  /** Values of the query's `declare query_parameters(…)`, as the request sent them (text; query-parameters.ts). */
  parameters?: QueryParameterValues;
  /** The caller's own database (its customer id): the only one `database("…")` may name. Any, when not given (the editor's schema-only compile). */
  database?: string;
}

/** The `render` operator's hint: chart kind plus its `with (…)` properties. */
export interface RenderHint {
  kind: string;
  properties: Record<string, string | number | boolean | null>;
}

export interface CompiledQuery {
  /** The tables the query reads (each through its scoped source). */
  tables: TableName[];
  sql: string;
  params: SqlParams;
  columns: ResultColumn[];
  render?: RenderHint;
  /**
   * What compiling cost, in work units (budget.ts: analysis steps plus rendered expression nodes;
   * at most COMPILE_LIMITS.work). The service charges it to the client's cost budget.
   */
  work: number;
  /** Whether a value of the SQL came from the query's `now()`: the same text compiles to other values at another instant. */
  readsNow: boolean;
}

export function compileKql(text: string, options: CompileOptions): CompiledQuery {
  const { ast, diagnostics } = parse(text);
  const first = diagnostics[0];
  if (first || !ast || !ast.query) {
    throw new KqlError(first?.message ?? "Query is empty", first?.line ?? 1, first?.column ?? 1, first?.from ?? 0, first?.to ?? 0);
  }
  const planned = compileParsed(text, ast, options, new Set());
  // A series filter pays off only where the read then leaves the series join out (narrowing.ts);
  // where the read keeps it, the join's own filter is cheaper: plan those reads again without.
  return planned.keepJoin.size ? compileParsed(text, ast, options, planned.keepJoin).compiled : planned.compiled;
}

function compileParsed(text: string, ast: NonNullable<ReturnType<typeof parse>["ast"]>, options: CompileOptions, noSeriesFilter: ReadonlySet<string>): { compiled: CompiledQuery; keepJoin: Set<string> } {
  const query = ast.query!;
  const analyzer = new Analyzer(text, queryNow(text, ast.sets, options.now ?? new Date()));
  analyzer.database = options.database ?? "";
  if (ast.lets.length > COMPILE_LIMITS.lets) analyzer.error(ast.lets[COMPILE_LIMITS.lets]!.span, `A query may have at most ${COMPILE_LIMITS.lets} let statements`);
  try {
    return metered(analyzer.meter, () => {
      const planner = new Planner(analyzer, options.dialect ?? duckdbDialect, options.sources, options.database);
      planner.noSeriesFilter = noSeriesFilter;
      let env: Env = bindQueryParameters(analyzer, ast.parameters, options.parameters, new Map());
      for (const statement of ast.lets) env = planner.bindLet(statement, env);
      let render: RenderHint | undefined;
      const operators = query.operators;
      const last = operators[operators.length - 1];
      if (last?.kind === "render") render = { kind: last.chart.text, properties: renderProperties(analyzer, last) };
      const block = planner.tabular({ ...query, operators: last?.kind === "render" ? operators.slice(0, -1) : operators }, env);
      const keepJoin = new Set<string>();
      const sql = planner.narrow(planner.render(block), text, keepJoin);
      const compiled = {
        tables: [...planner.tables],
        sql,
        params: referencedParams(sql, planner.params()),
        columns: block.columns.map((c) => ({ name: c.name, kqlType: c.expr.type })),
        render,
        work: analyzer.meter.work,
        readsNow: analyzer.readsNow,
      };
      return { compiled, keepJoin };
    });
  } catch (error) {
    // The renderer's bounds know no position: the query as a whole is too large.
    const refusal = error instanceof CompileLimitError ? atSpan(text, query.span, error.detail) : error;
    if (refusal instanceof KqlError) refusal.work = analyzer.meter.work;
    throw refusal;
  }
}

/**
 * `set` options that only tune how ADX runs a query (caches, fan-out, memory, consistency, request
 * tags, truncation, which the service's own limits replace): accepted and ignored. `query_now` sets
 * the query's `now()`; any other option changes an answer in ways not built here and is refused.
 */
const TUNING_OPTIONS = new Set([
  "best_effort", "deferpartialqueryfailures", "materialized_view_shuffle", "max_memory_consumption_per_query_per_node",
  "maxmemoryconsumptionperiterator", "maxoutputcolumns", "norequesttimeout", "notruncation", "push_selection_through_aggregation",
  "query_datascope", "query_distribution_nodes_span", "query_fanout_nodes_percent", "query_fanout_threads_percent",
  "query_force_row_level_security", "query_log_query_parameters", "query_max_entities_in_union", "query_results_cache_max_age",
  "query_results_cache_per_shard", "query_results_progressive_row_count", "query_results_progressive_update_period",
  "query_consistency", "queryconsistency", "query_weakconsistency_session_id", "request_app_name", "request_block_row_level_security",
  "request_callout_disabled", "request_description", "request_external_table_disabled", "request_impersonation_disabled",
  "request_readonly", "request_remote_entities_disabled", "request_sandboxed_execution_disabled", "request_user",
  "results_error_reporting_placement", "results_progressive_enabled", "servertimeout", "truncationmaxrecords", "truncationmaxsize",
  "truncation_max_records", "validatepermissions", "query_take_max_records", "hint.concurrency", "hint.distribution", "hint.strategy",
]);

/** The query's `now()` in epoch milliseconds: `set query_now = datetime(…)` or the caller's instant. */
function queryNow(text: string, sets: SetStatement[], now: Date): number {
  let millis = now.getTime();
  for (const statement of sets) {
    const name = statement.name.text;
    if (name === "query_now") {
      const value = statement.value?.kind === "literal" && statement.value.type === "datetime" ? statement.value.value : undefined;
      if (typeof value !== "number") throw atSpan(text, statement.span, "set query_now needs a datetime literal");
      millis = value;
    } else if (!TUNING_OPTIONS.has(name.toLowerCase())) throw atSpan(text, statement.name.span, `The request option '${name}' is not supported in a set statement`);
  }
  return millis;
}

function atSpan(text: string, span: Span, message: string): KqlError {
  const { line, column } = positionOf(text, span.from);
  return new KqlError(message, line, column, span.from, span.to);
}

/**
 * DuckDB rejects binding a parameter the statement does not use (a literal the analyzer folded away).
 * Parameters are spelled `$name` (DuckDB) or `{name:Type}` (ClickHouse).
 */
function referencedParams(sql: string, params: SqlParams): SqlParams {
  const used = new Set(Array.from(sql.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*):/g), (m) => (m[1] ?? m[2])!));
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

class Planner implements OperatorPlanner {
  private aliasCounter = 0;
  private relationCount = 0;
  readonly tables = new Set<TableName>();

  constructor(
    readonly analyzer: Analyzer,
    readonly dialect: SqlDialect,
    private readonly sources: Partial<Record<TableName, KqlSource>>,
    private readonly database?: string,
  ) {
    analyzer.subquery = (query, env, span) => {
      const block = this.tabular(query, env);
      if (!block.columns.length) analyzer.error(span, "The sub-query has no columns");
      return { sql: this.render(block), columns: block.columns.map((c) => c.expr), names: block.columns.map((c) => c.name) };
    };
    analyzer.bindLets = (lets, env) => lets.reduce((bound, statement) => this.bindLet(statement, bound), env);
  }

  params(): SqlParams {
    const params: SqlParams = { ...this.analyzer.params };
    for (const table of this.tables) Object.assign(params, this.sources[table]!.params);
    return params;
  }

  bindLet(statement: LetStatement, env: Env): Env {
    if (env.has(statement.name.text)) this.analyzer.error(statement.name.span, `A variable with the name '${statement.name.text}' has already been declared`);
    const bound = new Map(env);
    const value = statement.value;
    switch (value.kind) {
      case "scalar": {
        const expr = this.analyzer.withEnv(env, () => this.analyzer.scalar(value.expr, new Map()));
        bound.set(statement.name.text, { kind: "scalar", expr });
        break;
      }
      case "tabular":
        // Compiled where it is used (each use reads the scoped sources again).
        this.analyzer.withEnv(env, () => this.tabular(value.query, env));
        bound.set(statement.name.text, { kind: "tabular", query: value.query, env });
        break;
      case "function":
        for (const param of value.params) if (!param.tabular) this.analyzer.typeName(param.type);
        bound.set(statement.name.text, { kind: "function", params: value.params, body: value.body, env, span: statement.name.span });
        break;
    }
    return bound;
  }

  /** A tabular expression → a block. */
  tabular(query: TabularExpr, envIn: Env): Block {
    if (query.operators.length > LIMITS.operators) this.analyzer.error(query.span, `A query may have at most ${LIMITS.operators} operators`);
    this.analyzer.charge(query.span, envIn.size);
    const env = new Map(envIn);
    let block = this.source(query.source, env);
    for (const operator of query.operators) {
      if (operator.kind === "render") this.analyzer.error(operator.span, "render must be the last operator of the query");
      if (operator.kind === "as") {
        const settled = this.wrap(block);
        const sql = this.render(block);
        env.set(operator.name.text, { kind: "relation", sql, columns: settled.columns.map((c) => ({ name: c.name, expr: c.expr })) });
        block = { ...settled, sourceName: operator.name.text };
        continue;
      }
      block = this.analyzer.withEnv(env, () => planOperator(this, block, operator, env));
      if (!block.columns.length) this.emptiedBy = operator;
    }
    return block;
  }

  private groupingCount = 0;
  /** The last operator that left a block without columns (project-away of them all): the error names it if that block is rendered. */
  private emptiedBy: Operator | undefined;

  countGrouping(span: Span) {
    if (++this.groupingCount > LIMITS.groupings) this.analyzer.error(span, `A query may group rows at most ${LIMITS.groupings} times (summarize, count, distinct, make-series, top-nested)`);
  }

  private countRelation(span: Span) {
    if (++this.relationCount > LIMITS.relations) this.analyzer.error(span, `The query reads more than ${LIMITS.relations} tables or sub-queries; simplify it`);
  }

  private source(source: TabularSource, env: Map<string, LetBindingValue>): Block {
    const analyzer = this.analyzer;
    this.countRelation(source.span);
    switch (source.kind) {
      case "paren":
        return this.tabular(source.query, env);
      case "name": {
        const name = source.name.text;
        if (source.database) return this.databaseTable(source.database, source.name);
        const bound = env.get(name);
        if (bound?.kind === "tabular") return { ...this.tabular(bound.query, bound.env), sourceName: name };
        if (bound?.kind === "relation") return { ...this.relationBlock(bound.sql, bound.columns), sourceName: name };
        // A view (`let V = view () { … }`) is read by its name.
        if (bound?.kind === "function" && bound.body.kind === "tabular" && !bound.params.length) return { ...this.callTabular(bound, { scalars: [], tables: [] }, source.span), sourceName: name };
        if (bound) analyzer.error(source.name.span, `'${name}' is not a table`);
        if (!isTableName(name)) analyzer.error(source.name.span, `Unknown table '${name}': expected States or Events`);
        const table = name as TableName;
        const scoped = this.sources[table];
        if (!scoped) analyzer.error(source.name.span, `Table '${table}' is not available`);
        this.tables.add(table);
        return { ...this.sourceBlock(table, scoped!), sourceName: table };
      }
      case "call":
        return this.tabularCall(source, env);
      case "union":
        return planOperator(this, undefined, { kind: "union", options: source.options, tables: source.tables, span: source.span }, env);
      case "print": {
        const columns = analyzer.withEnv(env, () => this.assignments(source.items.map((item) => (item.name ? item : { ...item, unnamed: true })), (e) => analyzer.scalar(e, new Map()), "print_"));
        return { ...this.emptyBlock(""), columns };
      }
      case "datatable":
        return analyzer.withEnv(env, () => this.datatable(source));
      case "range":
        return analyzer.withEnv(env, () => this.range(source));
    }
  }

  /** `database("d").T`: a table of the caller's own database; naming any other is refused as ADX refuses it (403). */
  private databaseTable(database: Name, table: Name): Block {
    if (this.database !== undefined && database.text.toLowerCase() !== this.database.toLowerCase()) {
      const { line, column } = positionOf(this.analyzer.text, database.span.from);
      throw new KqlForbiddenError(database.text, line, column, database.span.from, database.span.to);
    }
    if (!isTableName(table.text)) this.analyzer.error(table.span, `Unknown table '${table.text}': expected States or Events`);
    const scoped = this.sources[table.text as TableName];
    if (!scoped) this.analyzer.error(table.span, `Table '${table.text}' is not available`);
    this.tables.add(table.text as TableName);
    return { ...this.sourceBlock(table.text as TableName, scoped!), sourceName: table.text };
  }

  private tabularCall(source: Extract<TabularSource, { kind: "call" }>, env: Env): Block {
    const name = source.name.text;
    if (name === "materialize" || name === "view") {
      if (source.tabularArgs.length !== 1 || source.args.length) this.analyzer.error(source.span, `${name}() takes one tabular expression`);
      return this.tabular(source.tabularArgs[0]!, env);
    }
    const bound = env.get(name);
    if (!bound || bound.kind !== "function" || bound.body.kind !== "tabular") {
      return this.analyzer.error(source.name.span, bound ? `'${name}' is not a tabular function` : `Unknown table or function '${name}'`);
    }
    return this.callTabular(bound, this.callArgs(source, env, []), source.span);
  }

  invoke(block: Block, call: Extract<TabularSource, { kind: "call" }>, env: Env): Block {
    const bound = env.get(call.name.text);
    if (!bound || bound.kind !== "function" || bound.body.kind !== "tabular" || !bound.params.some((p) => p.tabular)) {
      return this.analyzer.error(call.name.span, bound || isTableName(call.name.text) ? `invoke needs a tabular function whose first parameter is a table, like (T:(*), …)` : `Unknown function '${call.name.text}'`);
    }
    return this.callTabular(bound, this.callArgs(call, env, [block]), call.span);
  }

  /** A call's arguments: the tables (after any given first, invoke's input) and the scalars, each in order. */
  private callArgs(call: Extract<TabularSource, { kind: "call" }>, env: Env, first: Block[]): { scalars: TExpr[]; tables: Block[] } {
    const tables = [...first, ...call.tabularArgs.map((t) => this.tabular(t, env))];
    return { scalars: this.analyzer.withEnv(env, () => call.args.map((a) => this.analyzer.scalar(a, new Map()))), tables };
  }

  private callTabular(bound: Extract<LetBindingValue, { kind: "function" }>, args: { scalars: TExpr[]; tables: Block[] }, span: Span): Block {
    if (bound.body.kind !== "tabular") return this.analyzer.error(span, "Not a tabular function");
    this.analyzer.charge(span, bound.env.size);
    const inner = new Map(bound.env);
    const tabularParams = bound.params.filter((p) => p.tabular);
    if (args.tables.length !== tabularParams.length) this.analyzer.error(span, `The function takes ${tabularParams.length} table${tabularParams.length === 1 ? "" : "s"}, got ${args.tables.length}`);
    tabularParams.forEach((param, i) => inner.set(param.name.text, this.tableArgument(param, args.tables[i]!, span)));
    this.analyzer.bindParams(bound.params.filter((p) => !p.tabular), args.scalars, span, inner, bound.env);
    const env = bound.body.lets ? this.analyzer.withEnv(inner, () => this.analyzer.bindLets(bound.body.lets!, inner)) : inner;
    return this.tabular(bound.body.query, env);
  }

  /** A table passed for `T:(x:long, *)`: it must have the columns the schema names, of those types (ADX); bound as `as` binds a name. */
  private tableArgument(param: FunctionParam, block: Block, span: Span): LetBindingValue {
    for (const column of param.tabular!.columns) {
      const type = this.analyzer.typeName(column.type);
      const found = block.columns.find((c) => c.name === column.name.text);
      if (!found || (found.expr.type !== type && !(isNumeric(found.expr.type) && isNumeric(type)))) {
        this.analyzer.error(span, `The table passed as '${param.name.text}' needs a column '${column.name.text}' of type ${type}${found ? `, not ${found.expr.type}` : ""}`);
      }
    }
    const settled = this.wrap(block);
    return { kind: "relation", sql: this.render(block), columns: settled.columns.map((c) => ({ name: c.name, expr: c.expr })) };
  }

  private datatable(source: Extract<TabularSource, { kind: "datatable" }>): Block {
    const analyzer = this.analyzer;
    const width = source.columns.length;
    if (!width) analyzer.error(source.span, "datatable needs at least one column");
    if (source.values.length % width !== 0) analyzer.error(source.span, `datatable has ${source.values.length} values, not a multiple of its ${width} columns`);
    if (source.values.length > LIMITS.datatableCells) analyzer.error(source.span, `datatable may hold at most ${LIMITS.datatableCells} values`);
    const types = source.columns.map((c) => analyzer.typeName(c.type));
    const rows: TExpr[][] = [];
    for (let i = 0; i < source.values.length; i += width) {
      rows.push(
        source.columns.map((_, j) => {
          const ast = source.values[i + j]!;
          if (!isConstantAst(ast)) analyzer.error(ast.span, "datatable values must be literals");
          return analyzer.convert(analyzer.scalar(ast, new Map()), types[j]!, ast.span);
        }),
      );
    }
    const relation = this.nextAlias();
    const aliases = outputAliases(source.columns.map((c) => ({ name: c.name.text })));
    const sql = rows.length ? this.dialect.values(rows, aliases) : this.dialect.values([types.map((t) => analyzer.nullOf(t))], aliases) + " LIMIT 0";
    return this.fromRelation(sql, relation, source.columns.map((c, i) => ({ name: c.name.text, alias: aliases[i]!, type: types[i]!, nullable: types[i] !== "string", dynamic: types[i] === "dynamic" ? "json" : undefined })));
  }

  private range(source: Extract<TabularSource, { kind: "range" }>): Block {
    const analyzer = this.analyzer;
    const start = analyzer.scalar(source.from, new Map());
    const stop = analyzer.scalar(source.to, new Map());
    const step = analyzer.scalar(source.step, new Map());
    const [a, b, s] = [analyzer.constant(start), analyzer.constant(stop), analyzer.constant(step)];
    if (s === undefined) analyzer.error(source.step.span, "range needs a constant step");
    if (typeof s !== "number" || s === 0) return analyzer.error(source.step.span, "range needs a non-zero step");
    // Bounds computed when the query runs (toscalar(…), strlen(…)): the row count is checked there instead (ADX allows them).
    const known = typeof a === "number" && typeof b === "number";
    const rows = known ? Math.floor((b - a) / (start.type === "datetime" ? s / 1000 : s)) + 1 : 0;
    if (rows > LIMITS.rangeRows) analyzer.error(source.span, `range would produce ${rows.toLocaleString("en-US")} rows; at most ${LIMITS.rangeRows.toLocaleString("en-US")} are allowed`);
    let type: KqlType;
    if (start.type === "datetime" && stop.type === "datetime" && step.type === "timespan") type = "datetime";
    else if (start.type === "timespan" && stop.type === "timespan" && step.type === "timespan") type = "timespan";
    else if ([start, stop, step].every((e) => e.type === "long" || e.type === "int")) type = "long";
    else if ([start, stop, step].every((e) => e.type === "long" || e.type === "int" || e.type === "real")) type = "real";
    else return analyzer.error(source.span, `range cannot step from ${start.type} to ${stop.type} by ${step.type}`);
    const relation = this.nextAlias();
    const alias = source.column.text;
    return this.fromRelation(this.dialect.range(start, stop, step, type, "value", known ? undefined : LIMITS.rangeRows), relation, [{ name: alias, alias: "value", type, nullable: false }]);
  }

  /** Each read of a source with narrower forms, by its placeholder in the rendered SQL (`narrow`). */
  /** Reads whose series columns' filters stay on the join (compileKql's second plan). */
  noSeriesFilter: ReadonlySet<string> = new Set();
  /** Reads with a series filter resolved to keys (seriesFilter). */
  private readonly seriesFiltered = new Set<string>();
  private readonly reads = new Map<string, { table: TableName; source: KqlSource; relation: string; placeholder: string }>();

  /**
   * The SQL of one read of a table: the source's own, or, when it has narrower forms, a placeholder
   * that `narrow` replaces once the whole statement is rendered and the columns it reads are known.
   */
  private readOf(table: TableName, source: KqlSource, relation: string): string {
    if (!source.narrower?.length && !source.series) return source.sql;
    const placeholder = `\u0000read${this.reads.size}\u0000`;
    this.reads.set(placeholder, { table, source, relation, placeholder });
    return placeholder;
  }

  /**
   * Every read placeholder → the narrowest form of its source that has every column the statement
   * reads of it. The planner spells every column of a source as `"tN"."Column"` (sourceBlock's refs),
   * so the columns read are exactly those spelled so. A query text holding the placeholder's
   * character (it cannot, the lexer refuses it) keeps every full source.
   */
  narrow(sql: string, text: string, keepJoin: Set<string>): string {
    if (!this.reads.size) return sql;
    const q = (name: string) => this.dialect.quoteIdentifier(name);
    let narrowed = sql;
    for (const [placeholder, { table, source, relation }] of this.reads) {
      const columns = [...TABLES[table].columns.map((c) => c.name), ...(source.series ? [source.series.key] : [])];
      const read = columns.filter((name) => sql.includes(`${q(relation)}.${q(name)}`));
      const fits = text.includes("\u0000") ? undefined : source.narrower?.find((form) => read.every((name) => form.columns.includes(name)));
      if (!fits && this.seriesFiltered.has(placeholder)) keepJoin.add(placeholder);
      narrowed = narrowed.split(placeholder).join(fits?.sql ?? source.sql);
    }
    return narrowed;
  }

  sourceBlock(table: TableName, source: KqlSource): Block {
    const relation = this.nextAlias();
    return {
      ...this.emptyBlock(this.dialect.subquery(this.readOf(table, source, relation), relation)),
      columns: TABLES[table].columns.map((c) => ({
        name: c.name,
        expr: {
          type: c.kqlType,
          nullable: c.nullable,
          dynamic: c.kqlType === "dynamic" ? (c.form === "number" ? "double" : "json") : undefined,
          node: { op: "ref", relation, name: c.name },
        },
      })),
    };
  }

  emptyBlock(from: string): Block {
    return { from, columns: [], where: [], groupBy: [], qualify: [], aggregated: false, distinct: false, orderBy: [] };
  }

  /** A block reading `sql` (aliased `relation`) whose columns are given. */
  fromRelation(sql: string, relation: string, columns: { name: string; alias: string; type: KqlType; nullable: boolean; dynamic?: "json" | "double" }[]): Block {
    return {
      ...this.emptyBlock(this.dialect.subquery(sql, relation)),
      columns: columns.map((c) => ({
        name: c.name,
        expr: { type: c.type, nullable: c.nullable, dynamic: c.type === "dynamic" ? (c.dynamic ?? "json") : undefined, node: { op: "ref", relation, name: c.alias } },
      })),
    };
  }

  private relationBlock(sql: string, columns: Binding[]): Block {
    const relation = this.nextAlias();
    const aliases = outputAliases(columns);
    return this.fromRelation(sql, relation, columns.map((c, i) => ({ name: c.name, alias: aliases[i]!, type: c.expr.type, nullable: c.expr.nullable, dynamic: c.expr.dynamic })));
  }

  assignments(items: Assignment[], analyze: (e: Expr) => TExpr, unnamedPrefix = "Column"): Binding[] {
    const columns: Binding[] = [];
    let unnamed = unnamedPrefix === "Column" ? 0 : -1;
    for (const item of items) {
      // print spreads a function with several results into its columns, as extend does.
      const multi = unnamedPrefix === "print_" && !item.name ? this.analyzer.multiResult(item.expr, new Map()) : undefined;
      if (multi) {
        if (item.names && item.names.length > multi.length) this.analyzer.error(item.span, `${(item.expr as { name: string }).name}() gives ${multi.length} columns`);
        multi.forEach((m, i) => columns.push({ name: item.names?.[i]?.text ?? m.name, expr: m.expr }));
        continue;
      }
      if (item.names) this.analyzer.error(item.span, "Naming several columns with (a, b) = … is supported in extend, project and summarize");
      const expr = analyze(item.expr);
      // print names a bare expression print_N even when it is a column or a `let` name (ADX).
      const name = item.name?.text ?? ((item as { unnamed?: boolean }).unnamed ? undefined : nameOf(item.expr)) ?? this.columnName(columns, () => ++unnamed, unnamedPrefix);
      if (columns.some((c) => c.name === name)) this.analyzer.error(item.span, `Column '${name}' is projected twice`);
      columns.push({ name, expr });
    }
    return columns;
  }

  sortKeys(keys: SortKey[], scope: Scope): SelectBlock["orderBy"] {
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

  /** `Column1`, `Column2`, … (or `print_0`, …) skipping names already present. */
  columnName(columns: { name: string }[], next: () => number, prefix = "Column"): string {
    for (;;) {
      const name = `${prefix}${next()}`;
      if (!columns.some((c) => c.name === name)) return name;
    }
  }

  nextAlias(): string {
    return `t${this.aliasCounter++}`;
  }

  /** Turns a block into the input relation of a new one. */
  wrap(block: Block): Block {
    const relation = this.nextAlias();
    const aliases = outputAliases(block.columns);
    const columns: Binding[] = block.columns.map((c, i) => ({
      name: c.name,
      expr: { type: c.expr.type, nullable: c.expr.nullable, dynamic: c.expr.dynamic, node: { op: "ref", relation, name: aliases[i]! } },
    }));
    // A serialized row set stays serialized, in the same order: its keys read from the new relation
    // (a key that is no longer a column is dropped); planOperator orders the output by them again.
    let serial: Block["serial"];
    if (block.serial) {
      const keys = block.columns.map((c) => JSON.stringify(c.expr.node));
      serial = block.serial.flatMap((k) => {
        const at = keys.indexOf(JSON.stringify(k.expr.node));
        return at < 0 ? [] : [{ ...k, expr: columns[at]!.expr }];
      });
    }
    // The outer query orders by the same keys: sorting inside too (without a LIMIT) would sort twice.
    const reordered = serial !== undefined && serial.length === block.serial!.length && block.limit === undefined;
    const sql = this.select(this.toSelect(reordered ? { ...block, orderBy: [] } : block, aliases));
    return { ...this.emptyBlock(this.dialect.subquery(sql, relation)), columns, sourceName: block.sourceName, serial };
  }

  render(block: Block): string {
    return this.select(this.toSelect(block, outputAliases(block.columns)));
  }

  /** SQL of a block with its columns under known aliases. */
  renderAs(block: Block): { sql: string; aliases: string[] } {
    const aliases = outputAliases(block.columns);
    return { sql: this.select(this.toSelect(block, aliases)), aliases };
  }

  /** A SELECT's SQL, refused once longer than a whole statement may be (its parts are bounded as they form). */
  private select(block: SelectBlock): string {
    // SQL has no row without columns (a 5xx from either engine): name the operator that removed the last one.
    if (!block.columns.length) this.analyzer.error(this.emptiedBy?.span ?? { from: 0, to: 0 }, `${this.emptiedBy ? `'${this.emptiedBy.kind}' leaves` : "The query has"} no columns; a result needs at least one`);
    const sql = this.dialect.select(block);
    if (sql.length > LIMITS.sqlLength) throw tooLarge();
    return sql;
  }

  /** A read of a source with a series relation whose relation is `from` (the block reads it straight). */
  private seriesRead(from: string) {
    return [...this.reads.values()].find((r) => r.source.series && this.dialect.subquery(r.placeholder, r.relation) === from);
  }

  /**
   * An aggregated block straight over a series read, grouped by series key first and joined to the
   * series relation after (narrowing.ts seriesGroupsFirst), when that is exact; else undefined.
   */
  private groupedBySeries(block: Block, aliases: string[]): SelectBlock | undefined {
    if (!block.aggregated || block.distinct || block.qualify.length || !block.groupBy.length) return undefined;
    const read = this.seriesRead(block.from);
    if (!read?.source.series) return undefined;
    const inner = this.nextAlias();
    const seriesAlias = this.nextAlias();
    const split = seriesGroupsFirst(
      { columns: block.columns.map((c) => c.expr), groupBy: block.groupBy, where: block.where, orderBy: block.orderBy },
      { relation: read.relation, series: read.source.series, keepsSeriesFilters: this.noSeriesFilter.has(read.placeholder) },
      { inner, series: seriesAlias, zero: () => this.analyzer.param("BIGINT", 0, "long") },
    );
    if (!split) return undefined;
    const innerSql = this.select({
      distinct: false,
      columns: split.inner.columns,
      from: block.from,
      where: this.seriesFilter(block.from, block.where),
      groupBy: split.inner.groupBy,
      qualify: [],
      orderBy: [],
    });
    return {
      distinct: false,
      columns: split.outer.columns.map((expr, i) => ({ expr, alias: aliases[i]! })),
      from: this.dialect.join("inner", this.dialect.subquery(innerSql, inner), this.dialect.subquery(read.source.series.sql, seriesAlias), split.outer.join),
      where: [],
      groupBy: split.outer.groupBy,
      qualify: [],
      orderBy: split.outer.orderBy,
      limit: block.limit,
    };
  }

  /**
   * The `where` conjuncts straight over a source read that read only its series columns, as one
   * `key IN (SELECT key FROM <series> WHERE <those conjuncts>)` (narrowing.ts); the others as they
   * are. Only over the read itself: over a join, a null-extended row would pass a filter like isempty(Name).
   */
  private seriesFilter(from: string, where: TExpr[]): TExpr[] {
    const read = this.seriesRead(from);
    const series = read?.source.series;
    if (!read || !series || this.noSeriesFilter.has(read.placeholder)) return where;
    const onSeries = where.filter((c) => readsOnlySeries(c, read.relation, series));
    if (!onSeries.length) return where;
    this.seriesFiltered.add(read.placeholder);
    const inner = this.nextAlias();
    const key: TExpr = { type: "long", nullable: false, node: { op: "ref", relation: inner, name: series.key } };
    const ids = this.select({
      distinct: false,
      columns: [{ expr: key, alias: series.key }],
      from: this.dialect.subquery(series.sql, inner),
      where: onSeries.map((c) => renameRelation(c, read.relation, inner)),
      groupBy: [],
      qualify: [],
      orderBy: [],
    });
    const outer: TExpr = { type: "long", nullable: false, node: { op: "ref", relation: read.relation, name: series.key } };
    const filter: TExpr = { type: "bool", nullable: false, node: { op: "in", args: [outer, { type: "long", nullable: true, node: { op: "subquery", sql: ids, mode: "list" } }] } };
    return [filter, ...where.filter((c) => !onSeries.includes(c))];
  }

  private toSelect(block: Block, aliases: string[]): SelectBlock {
    return this.groupedBySeries(block, aliases) ?? {
      distinct: block.distinct,
      columns: block.columns.map((c, i) => ({ expr: c.expr, alias: aliases[i]! })),
      from: block.from,
      where: this.seriesFilter(block.from, block.where),
      groupBy: block.groupBy,
      qualify: block.qualify,
      orderBy: block.orderBy,
      limit: block.limit,
    };
  }
}

type LetBindingValue = Env extends ReadonlyMap<string, infer V> ? V : never;

/** Literals, possibly negated or typed (`datetime(…)`, `dynamic([…])`). */
function isConstantAst(ast: Expr): boolean {
  if (ast.kind === "literal") return true;
  if (ast.kind === "unary") return isConstantAst(ast.operand);
  return false;
}
