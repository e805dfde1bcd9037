/**
 * DuckDB spelling of the KQL engine's expression tree and query blocks, and of result rows as the
 * response's JSON (rowJson): the one module in lib/kql that knows DuckDB SQL; what both engines
 * render alike is in base.ts, the store's tables and limits in lib/service/telemetry/duckdb/. Rules
 * kept here:
 * - predicates keep the column bare on one side (`"Name" = $k1`, `"Timestamp" >= $k2`) so DuckDB
 *   pushes them into the scan; NULL-safety wrappers are added only for nullable operands, and only
 *   where a NULL could be observed (a value, or under NOT) — in a filter NULL already acts as false;
 * - no casts on typed columns; parameters are bound with their SQL types by the caller;
 * - timespans are BIGINT microseconds, datetimes TIMESTAMP.
 */
import type { MakeSeriesSpec, RowWindowSessionSpec, SqlDialect } from "./dialect";
import { dialectOf, SqlRenderer, type Spelling } from "./base";
import { functionNames } from "./function-names";
import { orderedParts, rowOrderSql } from "./row-order";
import { inlineSeriesSql, stageValueSql, type ListSql } from "./series-sql";
import type { TExpr } from "../ir";
import { boundedList, runtimeTooLarge, SESSION_JUMP_ROWS, SESSION_ROWS_EXCEEDED, SESSION_RUN_EXCEEDED, VALUE_LIMITS } from "../budget";
import type { ColumnForm } from "../tables";
import type { KqlType } from "../types";

const SQL_TYPES: Record<KqlType, string> = {
  string: "VARCHAR",
  datetime: "TIMESTAMP",
  dynamic: "JSON",
  real: "DOUBLE",
  long: "BIGINT",
  int: "INTEGER",
  bool: "BOOLEAN",
  timespan: "BIGINT",
};

/**
 * How the telemetry store holds each form of tables.ts's columns in DuckDB (its tables:
 * lib/service/telemetry/duckdb/schema.ts): text VARCHAR, instants TIMESTAMP (milliseconds), the
 * number `Value` DOUBLE, the metadata objects JSON.
 */
export const DUCKDB_STORAGE: Record<ColumnForm, string> = {
  text: "VARCHAR",
  instant: "TIMESTAMP",
  number: "DOUBLE",
  object: "JSON",
};

const ISO_FORMAT = `'%Y-%m-%dT%H:%M:%S.%gZ'`;
/** ADX aligns datetime bins from 0001-01-01; DuckDB's default origin (2000-01-03) agrees for spans dividing a week. */
const ADX_ORIGIN = `TIMESTAMP '0001-01-01 00:00:00'`;

class DuckDbRenderer extends SqlRenderer {
  protected readonly engine = "DuckDB";
  protected readonly key = "duckdb";
  protected readonly sqlTypes = SQL_TYPES;
  protected readonly semiJoins = { semi: "SEMI JOIN", anti: "ANTI JOIN" };
  protected readonly names = functionNames("duckdb");
  protected readonly dateParts: Record<string, (x: string) => string> = {
    year: (x) => `year(${x})`,
    quarter: (x) => `quarter(${x})`,
    month: (x) => `month(${x})`,
    week_of_year: (x) => `weekofyear(${x})`,
    day: (x) => `day(${x})`,
    dayofyear: (x) => `dayofyear(${x})`,
    hour: (x) => `hour(${x})`,
    minute: (x) => `minute(${x})`,
    second: (x) => `second(${x})`,
    millisecond: (x) => `(millisecond(${x}) % 1000)`,
    microsecond: (x) => `(microsecond(${x}) % 1000000)`,
    nanosecond: (x) => `((microsecond(${x}) % 1000000) * 1000)`,
  };
  protected override readonly positionalGroupBy = true;
  protected readonly allColumns = "COLUMNS(*)";

  protected readonly spell: Spelling = {
    regexLiteral: (pattern) => `'${pattern}'`,
    counter: (count) => ({ from: `range(0, ${count}) AS r(i)`, i: "i" }),
    runtimeCounter: (count) => ({ from: `range(0, ${count}) AS r(i)`, i: "i" }),
    // Typed where it stands: DuckDB plans a prepared statement once only when every parameter's type
    // is known from the text; a bare `$k` it cannot infer (`SELECT $k`, an argument of coalesce …) makes
    // it bind and plan the statement again on every execution (issue 38: ~1.6 ms of CPU per answer).
    param: (name, type) => `CAST($${name} AS ${type})`,
    nullOf: (sqlType) => `CAST(NULL AS ${sqlType})`,
    contains: (text, part) => `contains(${text}, ${part})`,
    matches: (text, parts, ci) => `regexp_matches(${text}, ${parts.join(" || ")}${ci ? ", 'i'" : ""})`,
    orNull: (condition, value) => `CASE WHEN ${condition} THEN ${value} END`,
    tryInteger: (x, sqlType) => `TRY_CAST(${x} AS ${sqlType})`,
    wide: (x) => `CAST(${x} AS HUGEINT)`,
    toReal: (x) => `CAST(${x} AS DOUBLE)`,
    parseReal: (text) => `TRY_CAST(${text} AS DOUBLE)`,
    parseLong: (text) => `TRY_CAST(nullif(${text}, '') AS BIGINT)`,
    toText: (x) => `CAST(${x} AS VARCHAR)`,
    concat: (parts) => `(${parts.join(" || ")})`,
    intDiv: (x, y) => `(${x} // ${y})`,
    epochUs: (datetime) => `epoch_us(${datetime})`,
    plusUs: (datetime, us) => `(${datetime} + to_microseconds(${us}))`,
    regexGroup: (text, pattern, i) => `regexp_extract(${text}, ${pattern}, ${i})`,
    asLong: (x) => x,
    isoText: (datetime) => `strftime(${datetime}, ${ISO_FORMAT})`,
    // ISO forms, and .NET's invariant month/day/year that ADX also reads (docs' parse examples: 02/17/2016 08:40:01).
    parseDatetime: (text) => `coalesce(TRY_CAST(${text} AS TIMESTAMP), try_strptime(${text}, ['%m/%d/%Y %H:%M:%S', '%m/%d/%Y %H:%M', '%m/%d/%Y']))`,
    access: (base, path) => `json_extract(${base}, ${path})`,
    same: (x, y) => `${x} IS NOT DISTINCT FROM ${y}`,
    toLong: (x) => `CAST(${x} AS BIGINT)`,
    asJson: (x) => `CAST(${x} AS JSON)`,
    jsonTypeName: (json) => `CASE coalesce(json_type(${json}), 'NULL') WHEN 'ARRAY' THEN 'array' WHEN 'OBJECT' THEN 'dictionary' WHEN 'VARCHAR' THEN 'string' WHEN 'BIGINT' THEN 'long' WHEN 'UBIGINT' THEN 'long' WHEN 'DOUBLE' THEN 'real' WHEN 'BOOLEAN' THEN 'bool' ELSE 'null' END`,
  };
  protected jsonIsNull(value: TExpr): string {
    if (value.node.op === "access") {
      const { base, path } = value.node as { base: TExpr; path: TExpr };
      return `coalesce(json_type(${expression(base, false)}, ${expression(path, false)}) = 'NULL', true)`;
    }
    return `coalesce(json_type(${expression(value, false)}) = 'NULL', true)`;
  }

  /** JSON path access on a json base: `json_extract_string(base, path)`; NULL when absent. */
  dynamicText(value: TExpr): string {
    if (value.node.op === "access") {
      const { base, path } = value.node as { base: TExpr; path: TExpr };
      return `json_extract_string(${expression(base, false)}, ${expression(path, false)})`;
    }
    if (value.dynamic === "double") return this.realText(expression(value, false));
    return `json_extract_string(${expression(value, false)}, '$')`;
  }
  protected dynamicNumber(value: TExpr): string {
    if (value.dynamic === "double") return expression(value, false);
    return `TRY_CAST(${this.dynamicText(value)} AS DOUBLE)`;
  }
  protected dynamicJson(value: TExpr): string {
    if (value.type === "datetime") return `to_json(${this.spell.isoText(expression(value, false))})`;
    if (value.type !== "dynamic" || value.dynamic === "double") return `to_json(${expression(value, false)})`;
    return expression(value, false);
  }

  protected aggregate(op: string, a: TExpr[]): string {
    const fn = op.startsWith("any") ? "any_value" : op.slice(0, 3);
    return `${fn}(${expression(a[0]!, false)})${op.endsWith("if") ? ` FILTER (WHERE ${expression(a[1]!, true)})` : ""}`;
  }

  protected readonly series = {
    binOf: (value: string, step: string, datetime: boolean) => (datetime ? `time_bucket(to_microseconds(${step}), ${value}, ${ADX_ORIGIN})` : `(floor(${value} / ${step}) * ${step})`),
    checkedPoints: (points: string, max: number, message: string) => `CASE WHEN ${points} > ${max} THEN error('${message}') ELSE ${points} END`,
    gridRows: (groups: string) => `SELECT g.*, b.lo AS lo, unnest(range(0, b.n)) AS k FROM (${groups}) AS g, bounds AS b`,
    jsonList: (value: string) => `to_json(list(${value} ORDER BY grid.k))`,
    axisText: (value: string, axisType: MakeSeriesSpec["axisType"]) => {
      if (axisType === "datetime") return this.spell.isoText(value);
      if (axisType === "timespan") return this.timespanText(value);
      return value;
    },
  };

  /**
   * The plan of RowWindowSessionSpec (dialect.ts): runs by window functions, one list_reduce per run
   * whose accumulator is [start, work, row numbers of the starts found…] (list_reduce keeps one
   * accumulator type), the run's rows unnested with their flag, each row's start by a window.
   */
  rowWindowSession(spec: RowWindowSessionSpec): string {
    const q = (name: string) => this.quoteIdentifier(name);
    const cols = spec.columns.map(q).join(", ");
    const rn = q(spec.rowNumber);
    const running = `OVER (ORDER BY ${rn} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`;
    const x = `epoch_us(${q(spec.expr)})`;
    const certain = `${q(spec.restart)} IS TRUE OR ${q(spec.expr)} IS NULL OR ${q(spec.previous)} IS NULL OR coalesce(${x} >= epoch_us(${q(spec.previous)}) + ${q(spec.neighbors)}, false)`;
    const marked = `SELECT ${cols}, ${x} AS kql_x, CASE WHEN count(*) OVER () > ${spec.maxRows} THEN error('${SESSION_ROWS_EXCEEDED}') ELSE ${certain} END AS kql_h FROM (${spec.sql}) AS kql_in`;
    const runs = `SELECT *, sum(CAST(kql_h AS BIGINT)) ${running} AS kql_run FROM (${marked})`;
    // a: [current start, work so far, row numbers of the starts MaxDistanceFromFirst found]; e: [row number, Expr, MaxDistanceFromFirst].
    const work = "kql_a[2] + len(kql_a) - 2";
    const step =
      `CASE WHEN kql_a[1] IS NULL THEN [kql_e[2], 0] WHEN ${work} > ${spec.maxRunWork} THEN error('${SESSION_RUN_EXCEEDED}') ` +
      `WHEN kql_e[2] >= kql_a[1] + kql_e[3] THEN list_concat([kql_e[2], ${work}], kql_a[3:], [kql_e[1]]) ELSE list_concat([kql_a[1], ${work}], kql_a[3:]) END`;
    const fold = `list_reduce(kql_o, lambda kql_a, kql_e: ${step}, [NULL, 0]::BIGINT[])[3:]`;
    // When MaxDistanceFromFirst is the same on all the run's rows, the fold steps from start to start
    // instead (one step per session, bounded by the run's span ÷ the distance): the next start is the
    // first later row with Expr >= start + MaxDistanceFromFirst; its work (steps × rows) is bounded too,
    // and it is taken only when a session spans SESSION_JUMP_ROWS rows or more (else the row fold is cheaper).
    // Its accumulator carries what it reads, [rows n, distance, Expr of rows 1…n, start positions…]:
    // list_reduce's lambdas read no outer columns (over runs of different lengths those were misread).
    const steps = "CASE WHEN kql_fmin > 0 THEN least(kql_c, kql_span // kql_fmin + 1) ELSE kql_c END";
    const next = "coalesce(list_position(list_transform(kql_a[kql_a[-1] + 3:kql_a[1] + 2], lambda kql_v: kql_v >= kql_a[kql_a[-1] + 2] + kql_a[2]), true) + kql_a[-1], 0)";
    const jumps =
      `list_reduce(list_transform(range(${steps}), lambda kql_s: [kql_s]), lambda kql_a, kql_s: list_append(kql_a, CASE WHEN kql_a[-1] = 0 THEN 0 ELSE ${next} END), ` +
      `list_concat([kql_c, kql_fmin], kql_xs, [1]))[kql_c + 3:]`;
    const jumped = `list_transform(list_select(kql_o, list_filter(${jumps}, lambda kql_j: kql_j > 0)), lambda kql_e: kql_e[1])`;
    const same = `kql_fmin = kql_fmax AND kql_fc = kql_c AND (${steps}) * ${SESSION_JUMP_ROWS} <= kql_c AND (${steps}) * kql_c <= ${spec.maxRunWork}`;
    const rows = `list({${spec.columns.map((c, i) => `'c${i}': ${q(c)}`).join(", ")}, 'x': kql_x, 'h': kql_h} ORDER BY ${rn})`;
    const f = q(spec.first);
    const aggregated =
      `SELECT ${rows} AS kql_rows, list([${rn}, kql_x, ${f}] ORDER BY ${rn}) AS kql_o, list(kql_x ORDER BY ${rn}) AS kql_xs, ` +
      `min(${f}) AS kql_fmin, max(${f}) AS kql_fmax, count(${f}) AS kql_fc, count(*) AS kql_c, max(kql_x) - min(kql_x) AS kql_span FROM (${runs}) GROUP BY kql_run`;
    const grouped = `SELECT kql_rows, CASE WHEN kql_c = 1 THEN []::BIGINT[] WHEN ${same} THEN ${jumped} ELSE ${fold} END AS kql_p FROM (${aggregated})`;
    const flagged =
      `SELECT ${spec.columns.map((c, i) => `kql_r.c${i} AS ${q(c)}`).join(", ")}, kql_r.x AS kql_x, kql_r.h OR list_contains(kql_p, kql_r.c${spec.columns.indexOf(spec.rowNumber)}) AS kql_f ` +
      `FROM (SELECT UNNEST(kql_rows) AS kql_r, kql_p FROM (${grouped}))`;
    const sessions = `SELECT *, sum(CAST(kql_f AS BIGINT)) ${running} AS kql_k FROM (${flagged})`;
    return `SELECT ${cols}, make_timestamp(max(CASE WHEN kql_f THEN kql_x END) OVER (PARTITION BY kql_k)) AS ${q(spec.output)} FROM (${sessions})`;
  }

  unionAll(selects: string[]): string {
    return selects.map((s) => `(${s})`).join(" UNION ALL ");
  }

  values(rows: TExpr[][], aliases: string[]): string {
    const body = rows.map((row) => `(${row.map((v) => expression(v, false)).join(", ")})`).join(", ");
    return `SELECT * FROM (VALUES ${body}) AS v(${aliases.map((alias) => this.quoteIdentifier(alias)).join(", ")})`;
  }

  rowJson(types: readonly KqlType[], column: (index: number) => string): string {
    if (types.length === 0) return `'[]'`;
    const values = types.map((type, i) => `coalesce(${this.valueJson(column(i), type)}, 'null')`);
    return `'[' || ${values.join(` || ',' || `)} || ']'`;
  }

  /**
   * The JSON text of one value (NULL when the value is null): strings never null, numbers null when
   * not finite and 0 for -0 (as JSON.stringify writes them), datetimes ISO 8601 with milliseconds
   * inside KQL's range, timespans in ADX's text, dynamic values as their JSON (text that is not JSON
   * becomes a JSON string).
   */
  private valueJson(sql: string, type: KqlType): string {
    switch (type) {
      case "string":
        return `CAST(to_json(coalesce(CAST(${sql} AS VARCHAR), '')) AS VARCHAR)`;
      case "bool":
        return `CASE WHEN ${sql} THEN 'true' WHEN NOT ${sql} THEN 'false' END`;
      case "long":
      case "int":
      case "real":
        return numberJson(sql);
      case "datetime":
        return `CASE WHEN ${sql} >= ${DATETIME_MIN} AND ${sql} < ${DATETIME_END} THEN CAST(to_json(strftime(${sql}, ${ISO_FORMAT})) AS VARCHAR) END`;
      case "timespan":
        return `CAST(to_json(${this.timespanText(sql)}) AS VARCHAR)`;
      case "dynamic": {
        // A dynamic column is JSON or DOUBLE in SQL; to_json keeps JSON as it is.
        const text = `CAST(to_json(${sql}) AS VARCHAR)`;
        return `CASE WHEN ${text} IN ${NON_FINITE} THEN NULL WHEN ${text} = '-0.0' THEN '0' WHEN json_valid(${text}) THEN ${text} ELSE CAST(to_json(${text}) AS VARCHAR) END`;
      }
    }
  }
}

/** KQL's datetime spans 0001-01-01 to 9999-12-31; beyond it a value is null, as in ADX. */
const DATETIME_MIN = `TIMESTAMP '0001-01-01 00:00:00'`;
const DATETIME_END = `TIMESTAMP '10000-01-01 00:00:00'`;
/** What DuckDB's to_json writes for non-finite doubles: not JSON, so they become null. */
const NON_FINITE = `('NaN', 'Infinity', '-Infinity')`;

/** A number's JSON: null when it is not finite, and 0 for -0 (as JSON.stringify writes it). */
function numberJson(sql: string): string {
  const text = `CAST(to_json(${sql}) AS VARCHAR)`;
  return `CASE WHEN ${text} IN ${NON_FINITE} THEN NULL WHEN ${text} = '-0.0' THEN '0' ELSE ${text} END`;
}

const renderer = new DuckDbRenderer(special);
const expression = (e: TExpr, predicate: boolean) => renderer.expression(e, predicate);

export const duckdbDialect: SqlDialect = dialectOf(renderer);

/** What DuckDB spells its own way (the rest is base.ts). */
function special(e: TExpr, a: TExpr[]): string | undefined {
  const node = e.node;
  const op = node.op;
  const sub = (operands: TExpr[], i: number, predicate = false) => expression(operands[i]!, predicate);
  const s = (i: number, predicate = false) => expression(a[i]!, predicate);
  if (op.startsWith("row:")) return rowOrderSql("duckdb", op, a.map((x) => expression(x, false)), (sql) => `CAST(${sql} AS ${SQL_TYPES[e.type]})`);
  if (op.startsWith("series_stage:")) return stageValueSql(LISTS, op, a.map((x) => expression(x, false)));
  if (op.startsWith("series_inline:")) return inlineSeriesSql(LISTS, op, a.map((x) => expression(x, false)));
  if (op.startsWith("startof")) return PERIODS[op.slice(7)]!.start(s(0), s(1));
  if (op.startsWith("endof")) return `(${PERIODS[op.slice(5)]!.start(s(0), `(${s(1)} + 1)`)} - INTERVAL 1 MICROSECOND)`;
  if (op.includes("@")) {
    const ordered = orderedParts(op, a);
    return makeList(ordered.op, ordered.own, ordered.keys);
  }
  switch (op) {
    case "div":
      // KQL integer division truncates like DuckDB's `//`; `/` would give a DOUBLE.
      return e.type === "long" || e.type === "int" ? `(${sub(a, 0)} // ${sub(a, 1)})` : `(${sub(a, 0)} / ${sub(a, 1)})`;
    case "mod": {
      // KQL's modulo is never negative: 0 <= N % D < abs(D) (docs: numerical operators), where SQL's takes N's sign.
      const [n, d] = [sub(a, 0), sub(a, 1)];
      return `CASE WHEN (${n} % ${d}) < 0 THEN (${n} % ${d}) + CASE WHEN ${d} < 0 THEN -(${d}) ELSE ${d} END ELSE (${n} % ${d}) END`;
    }
    case "ts_mul":
      return `TRY_CAST(${sub(a, 0)} * ${sub(a, 1)} AS BIGINT)`;
    case "ts_div":
      return `TRY_CAST(trunc(${sub(a, 0)} / ${sub(a, 1)}) AS BIGINT)`;
    case "ts_ratio":
      return `(${sub(a, 0)} / ${sub(a, 1)})`;
    case "bin_dt":
    case "bin_dt_minute":
    case "bin_dt_hour":
    case "bin_dt_day":
      return `time_bucket(to_microseconds(${sub(a, 1)}), ${sub(a, 0)})`;
    case "bin_dt_adx":
      // The size may be computed: a zero or negative one gives null instead of DuckDB's error.
      return `CASE WHEN ${sub(a, 1)} > 0 THEN time_bucket(to_microseconds(${sub(a, 1)}), ${sub(a, 0)}, ${ADX_ORIGIN}) END`;
    case "bin_num":
      return e.type === "real" ? `(floor(${sub(a, 0)} / ${sub(a, 1)}) * ${sub(a, 1)})` : `CAST(floor(${sub(a, 0)} / ${sub(a, 1)}) * ${sub(a, 1)} AS ${SQL_TYPES[e.type]})`;
    case "strlen":
      return `length(${sub(a, 0)})`;
    case "round":
      return a.length > 1 ? `round(${sub(a, 0)}, CAST(${sub(a, 1)} AS INTEGER))` : `round(${sub(a, 0)})`;
    case "count":
      return "count(*)";
    case "countif":
      return `count(*) FILTER (WHERE ${sub(a, 0, true)})`;
    case "sum":
      return e.type === "real" ? `coalesce(sum(${sub(a, 0)}), 0)` : `TRY_CAST(coalesce(sum(${sub(a, 0)}), 0) AS BIGINT)`;
    case "avg":
      return `avg(${sub(a, 0)})`;
    case "dcount":
      return `count(DISTINCT ${sub(a, 0)})`;
    case "percentile":
      return `quantile_disc(${sub(a, 0)}, ${sub(a, 1)})`;
    case "make_list":
    case "make_list_if":
    case "make_list_with_nulls":
    case "make_set":
    case "make_set_if":
      return makeList(op, a, []);
    case "arg_max":
    case "arg_min": {
      // The _null forms keep a row whose picked value is NULL (only a NULL key is skipped), as KQL does.
      const value = `${op}_null(${sub(a, 0)}, ${sub(a, 1)})`;
      return e.type === "string" ? `coalesce(${value}, '')` : value;
    }
    case "dayofweek":
      return `(CAST(dayofweek(${s(0)}) AS BIGINT) * 86400000000)`;
    case "format_datetime":
      return `coalesce(strftime(${s(0)}, ${s(1)}), '')`;
    case "bin_at_dt":
      return `(${s(2)} + to_microseconds(CAST(floor((epoch_us(${s(0)}) - epoch_us(${s(2)})) / ${s(1)}) * ${s(1)} AS BIGINT)))`;
    case "bin_at_num": {
      const value = `(floor((${s(0)} - ${s(2)}) / ${s(1)}) * ${s(1)} + ${s(2)})`;
      return e.type === "real" ? value : `CAST(${value} AS BIGINT)`;
    }
    case "strcat":
      return limited("strcat", a, (v) => [byteSum(v), `concat(${v.join(", ")})`]);
    case "strcat_delim":
      return limited("strcat_delim", a, (v) => [`${byteSum(v.slice(1))} + strlen(${v[0]}) * ${v.length - 2}`, `concat_ws(${v.join(", ")})`]);
    case "split":
      return `to_json(string_split(${s(0)}, ${s(1)}))`;
    case "split_at":
      return withList(`string_split(${s(0)}, ${s(1)})`, (l) => `to_json(CASE WHEN ${s(2)} >= 0 AND ${s(2)} < len(${l}) THEN [${l}[${s(2)} + 1]] ELSE [] END)`);
    case "regex_extract":
    case "regex_group":
      return `regexp_extract(${s(0)}, ${s(1)}, CAST(${s(2)} AS INTEGER))`;
    case "regex_extract_all":
      return withList(`regexp_extract_all(${s(0)}, ${s(1)}, CAST(${s(2)} AS INTEGER))`, (l) => `CASE WHEN len(${l}) > 0 THEN to_json(${l}) END`);
    case "replace_string": {
      // Occurrences × growth, counted from the text without the lookup (which can only shrink it).
      return limited("replace_string", a, ([text, lookup, replacement]) => {
        const count = `((strlen(${text}) - strlen(replace(${text}, ${lookup}, ''))) // greatest(strlen(${lookup}), 1))`;
        return [`strlen(${text}) + ${count} * (strlen(${replacement}) - strlen(${lookup}))`, `CASE WHEN ${lookup} = '' THEN ${text} ELSE replace(${text}, ${lookup}, ${replacement}) END`];
      });
    }
    case "replace_regex": {
      // Each match adds the replacement; each \N in it adds at most the text once over all matches.
      return limited("replace_regex", a, ([text, pattern, replacement]) => {
        const refs = `(strlen(${replacement}) - strlen(replace(${replacement}, '\\', '')))`;
        return [`strlen(${text}) * (1 + ${refs}) + len(regexp_extract_all(${text}, ${pattern})) * strlen(${replacement})`, `regexp_replace(${text}, ${pattern}, ${replacement}, 'g')`];
      });
    }
    case "countof":
      return `CASE WHEN ${s(1)} = '' THEN 0 ELSE (length(${s(0)}) - length(replace(${s(0)}, ${s(1)}, ''))) // length(${s(1)}) END`;
    case "strrep": {
      return limited("strrep", a, ([text, count, delimiter]) => {
        const times = `least(greatest(${count}, 0), 1024)`;
        if (!delimiter) return [`strlen(${text}) * ${times}`, `repeat(${text}, CAST(${times} AS BIGINT))`];
        const bytes = `strlen(${text}) * ${times} + strlen(${delimiter}) * greatest(${times} - 1, 0)`;
        return [bytes, `CASE WHEN ${times} = 0 THEN '' ELSE left(repeat(${text} || ${delimiter}, CAST(${times} AS BIGINT)), CAST(length(${text} || ${delimiter}) * ${times} - length(${delimiter}) AS BIGINT)) END`];
      });
    }
    case "string_size":
      return `strlen(${s(0)})`;
    case "parse_json":
      return `CASE WHEN ${s(0)} = '' THEN CAST(NULL AS JSON) WHEN json_valid(${s(0)}) THEN CAST(${s(0)} AS JSON) ELSE to_json(${s(0)}) END`;
    case "bag_keys":
      return `CASE WHEN json_type(${s(0)}) = 'OBJECT' THEN to_json(json_keys(${s(0)})) END`;
    case "array_length":
      return `CASE WHEN json_type(${s(0)}) = 'ARRAY' THEN CAST(json_array_length(${s(0)}) AS BIGINT) END`;
    case "series_sum":
      return `list_sum(${numberList(s(0))})`;
    case "pack_array":
      return limited("pack_array", a, (v) => [v.map((x) => `coalesce(strlen(CAST(${x} AS VARCHAR)), 4)`).join(" + "), `json_array(${v.join(", ")})`], "dynamic");
    case "bag_pack":
      return `json_object(${a.map((x) => expression(x, false)).join(", ")})`;
    case "coalesce_str": {
      const last = a.length - 1;
      return `CASE ${a.slice(0, last).map((x) => `WHEN ${expression(x, false)} <> '' THEN ${expression(x, false)}`).join(" ")} ELSE ${s(last)} END`;
    }
    case "greatest":
    case "least":
      return `${op}(${a.map((x) => expression(x, false)).join(", ")})`;
    case "sign":
      return `sign(${s(0)})`;
    case "repeat":
      return limited("repeat", a, ([item, count]) => [`(coalesce(strlen(CAST(${item} AS VARCHAR)), 4) + 1) * greatest(${count}, 0)`, `to_json(list_transform(range(0, CAST(${count} AS BIGINT)), lambda kql_i: ${item}))`], "dynamic");
    case "series_min":
      return `list_min(${numberList(s(0))})`;
    case "series_max":
      return `list_max(${numberList(s(0))})`;
    case "series_min_idx":
    case "series_max_idx":
      return withList(numberList(s(0)), (l) => `CAST(list_position(${l}, list_${op === "series_min_idx" ? "min" : "max"}(${l})) - 1 AS BIGINT)`);
    case "series_avg":
      return `list_avg(${numberList(s(0))})`;
    case "series_stdev":
      return `list_aggregate(${numberList(s(0))}, 'stddev_samp')`;
    case "series_variance":
      return `list_aggregate(${numberList(s(0))}, 'var_samp')`;
    case "series_stats_dynamic":
      return withList(
        numberList(s(0)),
        (l) =>
          `json_object('min', list_min(${l}), 'min_idx', list_position(${l}, list_min(${l})) - 1, 'max', list_max(${l}), 'max_idx', list_position(${l}, list_max(${l})) - 1, 'avg', list_avg(${l}), 'stdev', list_aggregate(${l}, 'stddev_samp'), 'variance', list_aggregate(${l}, 'var_samp'))`,
      );
    case "series_fir": {
      const shift = s(1);
      const weights = a.slice(2).map((w) => expression(w, false));
      return withList(numberList(s(0)), (l) => {
        const terms = weights.map((w, j) => `${w} * coalesce(CASE WHEN kql_i - ${j} + ${shift} >= 0 AND kql_i - ${j} + ${shift} < len(${l}) THEN ${l}[kql_i - ${j} + ${shift} + 1] END, 0)`);
        return `to_json(list_transform(range(0, len(${l})), lambda kql_i: ${terms.join(" + ")}))`;
      });
    }
    case "series_fill_forward":
    case "series_fill_backward":
    case "series_fill_linear":
      return withList(numberList(s(0)), (l) => `to_json(${filled(op, l)})`);
    case "series_fill_const":
      return `to_json(list_transform(${numberList(s(0))}, lambda kql_v: coalesce(kql_v, ${s(1)})))`;
    case "mv_unnest_bag":
    case "mv_unnest_array":
      return `unnest(${mvList(s(0), op.endsWith("bag"))})`;
    case "mv_index":
      return `unnest(range(0, len(${mvList(s(0), true)})))`;
    case "percentiles_array": {
      const fractions = a.slice(1).map((f) => expression(f, false));
      return `to_json(quantile_disc(${s(0)}, [${fractions.join(", ")}]))`;
    }
    case "stdev":
    case "stdevp":
    case "variance":
    case "variancep": {
      const fn = { stdev: "stddev_samp", stdevp: "stddev_pop", variance: "var_samp", variancep: "var_pop" }[op];
      return `${fn}(${s(0)})${a.length > 1 ? ` FILTER (WHERE ${s(1, true)})` : ""}`;
    }
    case "sumif":
      return e.type === "real" ? `coalesce(sum(${s(0)}) FILTER (WHERE ${s(1, true)}), 0)` : `TRY_CAST(coalesce(sum(${s(0)}) FILTER (WHERE ${s(1, true)}), 0) AS BIGINT)`;
    case "avgif":
      return `avg(${s(0)}) FILTER (WHERE ${s(1, true)})`;
    case "dcountif":
      return `count(DISTINCT ${s(0)}) FILTER (WHERE ${s(1, true)})`;
    case "make_bag": {
      // make_bag_if: the predicate is the second operand.
      const bags = `list(${s(0)}) FILTER (WHERE json_type(${s(0)}) = 'OBJECT'${a.length > 1 ? ` AND ${s(1, true)}` : ""})`;
      return `CASE WHEN coalesce(len(${bags}), 0) = 0 THEN CAST('{}' AS JSON) ELSE list_reduce(${bags}, lambda kql_a, kql_b: json_merge_patch(kql_a, kql_b)) END`;
    }
    default:
      return undefined;
  }
}

/** Lambdas bind a computed list once: `f(l)` over `list`. */
/** List primitives of the series analysis (series-sql.ts). Lambda parameters are numbered to stay unique when nested. */
let lambdaCounter = 0;
const fresh = () => `kql_s${(lambdaCounter = (lambdaCounter + 1) % 1_000_000)}`;
const LISTS: ListSql = {
  bind: (value, body) => {
    const v = fresh();
    return `list_transform([${value}], lambda ${v}: ${body(v)})[1]`;
  },
  gen: (n, body) => {
    const i = fresh();
    return `list_transform(range(1, (${n}) + 1), lambda ${i}: ${body(i)})`;
  },
  map: (list, body) => {
    const v = fresh();
    return `list_transform(${list}, lambda ${v}: ${body(v)})`;
  },
  mapIdx: (list, body) => {
    const [v, i] = [fresh(), fresh()];
    return `list_transform(${list}, lambda ${v}, ${i}: ${body(v, i)})`;
  },
  zip: (lists, body) => {
    // list_zip, not indexing: a list captured by a nested lambda is copied for every element.
    const [t, i] = [fresh(), fresh()];
    return `list_transform(list_zip(${lists.join(", ")}), lambda ${t}, ${i}: ${body(
      lists.map((_, j) => `${t}[${j + 1}]`),
      i,
    )})`;
  },
  filter: (list, keep) => {
    const v = fresh();
    return `list_filter(${list}, lambda ${v}: ${keep(v)})`;
  },
  filterIdx: (list, keep) => {
    const [v, i] = [fresh(), fresh()];
    return `list_filter(${list}, lambda ${v}, ${i}: ${keep(v, i)})`;
  },
  present: (list) => {
    const v = fresh();
    return `list_filter(${list}, lambda ${v}: ${v} IS NOT NULL)`;
  },
  slice: (list, a, b) => `list_slice(${list}, ${a}, ${b})`,
  cycle: (list, n) => {
    const [l, r] = [fresh(), fresh()];
    return `list_transform([${list}], lambda ${l}: list_slice(flatten(list_transform(range(0, (${n}) // len(${l}) + 1), lambda ${r}: ${l})), 1, ${n}))[1]`;
  },
  sortBy: (list, keys) => {
    const t = fresh();
    return `list_transform(list_sort(list_zip(${keys}, ${list})), lambda ${t}: ${t}[2])`;
  },
  at: (list, i) => `(${list})[${i}]`,
  len: (list) => `len(${list})`,
  sum: (list) => `coalesce(list_sum(${list}), 0)`,
  // DuckDB has no running sum of a list. The list is cut into blocks of √n elements, each block's
  // running sums computed, then each block's offset (the totals of the blocks before it) added. A
  // lambda copies what it captures for every element, so only the cut captures the whole list
  // (once per block): O(n·√n) additions and copies, not O(n²).
  cumsum: (list) => {
    const [l, b, blocks, block, k, within, j, w, offsets, t, v, cut] = [fresh(), fresh(), fresh(), fresh(), fresh(), fresh(), fresh(), fresh(), fresh(), fresh(), fresh(), fresh()];
    return bindList(list, l, () =>
      bindList(`CAST(greatest(ceil(sqrt(len(${l}))), 1) AS BIGINT)`, b, () =>
        bindList(`list_transform(range(0, (len(${l}) + ${b} - 1) // ${b}), lambda ${cut}: list_slice(${l}, ${cut} * ${b} + 1, (${cut} + 1) * ${b}))`, blocks, () =>
          bindList(`list_transform(${blocks}, lambda ${block}: list_transform(range(1, len(${block}) + 1), lambda ${k}: list_sum(list_slice(${block}, 1, ${k}))))`, within, () =>
            bindList(`list_transform(range(1, len(${within}) + 1), lambda ${j}: coalesce(list_sum(list_transform(list_slice(${within}, 1, ${j} - 1), lambda ${w}: ${w}[-1])), 0))`, offsets, () =>
              `flatten(list_transform(list_zip(${within}, ${offsets}), lambda ${t}: list_transform(${t}[1], lambda ${v}: ${v} + ${t}[2])))`,
            ),
          ),
        ),
      ),
    );
  },
  dot: (a, b) => `coalesce(list_inner_product(${a}, ${b}), 0)`,
  sort: (list) => `list_sort(${list})`,
  max: (list) => `list_max(${list})`,
  indexOf: (list, value) => `coalesce(list_position(${list}, ${value}), 0)`,
  floor: (x) => `CAST(floor(${x}) AS BIGINT)`,
  idiv: (a, b) => `((${a}) // (${b}))`,
  json: (list) => `to_json(${list})`,
  numberJson: (x) => `to_json(${x})`,
  object: (entries) => `json_object(${entries.map(([key, json]) => `'${key}', ${json}`).join(", ")})`,
  numbers: (json) => `TRY_CAST(${json} AS DOUBLE[])`,
  isArray: (json) => `json_type(${json}) = 'ARRAY'`,
  checked: (n, max, message) => `(CASE WHEN ${n} > ${max} THEN error('${message}') ELSE ${n} END)`,
};

function withList(list: string, body: (l: string) => string): string {
  return `list_transform([${list}], lambda kql_l: ${body("kql_l")})[1]`;
}

/**
 * A builder's value, unless its size (computed from its inputs) passes the limit: then the engine
 * raises and the value is never built. The inputs are bound once (a lambda over a one-element list
 * of a struct), so the size and the value read them without spelling them twice: nested builders
 * would otherwise double the SQL per level.
 */
function limited(fn: string, inputs: TExpr[], build: (values: string[]) => [bytes: string, value: string], what: "string" | "dynamic" = "string"): string {
  const limit = what === "string" ? VALUE_LIMITS.stringBytes : VALUE_LIMITS.dynamicBytes;
  const [bytes, value] = build(inputs.map((_, i) => `kql_g.v${i}`));
  const struct = inputs.map((x, i) => `'v${i}': ${expression(x, false)}`).join(", ");
  return `list_transform([{${struct}}], lambda kql_g: CASE WHEN ${bytes} > ${limit} THEN error('${runtimeTooLarge(fn, what)}') ELSE ${value} END)[1]`;
}

/** The summed byte lengths of strings. */
function byteSum(values: string[]): string {
  return values.map((x) => `coalesce(strlen(${x}), 0)`).join(" + ");
}

/** `list` bound to the lambda parameter `name` within `body` (nested bindings need their own names). */
function bindList(list: string, name: string, body: (l: string) => string): string {
  return `list_transform([${list}], lambda ${name}: ${body(name)})[1]`;
}

/**
 * series_fill_forward/backward/linear of list `l` in linear time (a filter per element was
 * quadratic: 10,000 elements took 9.5 s). The 1-based positions P of the present values are
 * listed once; each gap between P[k] and P[k+1] is then spelled out as a run of P[k] (the nearest
 * present value at or before each element; 0 before the first) or of P[k+1] (at or after; 0
 * after the last). The runs together are exactly len(l) long, so every step is linear.
 */
function filled(op: string, l: string): string {
  const n = `len(${l})`;
  const present = `list_filter(range(1, ${n} + 1), lambda kql_j: ${l}[kql_j] IS NOT NULL)`;
  return bindList(present, "kql_p", (p) => {
    const m = `len(${p})`;
    const runs = (from: string, to: string) => `flatten(list_transform(range(1, ${m} + 1), lambda kql_k: list_transform(range(${from}, ${to}), lambda kql_z: ${p}[kql_k])))`;
    const zeros = (from: string, to: string) => `list_transform(range(${from}, ${to}), lambda kql_z: 0)`;
    const before = `list_concat(${zeros("1", `coalesce(${p}[1], ${n} + 1)`)}, ${runs(`${p}[kql_k]`, `CASE WHEN kql_k < ${m} THEN ${p}[kql_k + 1] ELSE ${n} + 1 END`)})`;
    const after = `list_concat(${runs(`CASE WHEN kql_k > 1 THEN ${p}[kql_k - 1] + 1 ELSE 1 END`, `${p}[kql_k] + 1`)}, ${zeros(`coalesce(${p}[${m}], 0) + 1`, `${n} + 1`)})`;
    const at = (positions: string) => `CASE WHEN ${positions}[kql_i] > 0 THEN ${l}[${positions}[kql_i]] END`;
    if (op === "series_fill_forward") return bindList(before, "kql_b", (b) => `list_transform(${l}, lambda kql_v, kql_i: coalesce(kql_v, ${at(b)}))`);
    if (op === "series_fill_backward") return bindList(after, "kql_a", (a) => `list_transform(${l}, lambda kql_v, kql_i: coalesce(kql_v, ${at(a)}))`);
    return bindList(before, "kql_b", (b) =>
      bindList(after, "kql_a", (a) => {
        const [pv, nv] = [`${l}[${b}[kql_i]]`, `${l}[${a}[kql_i]]`];
        return `list_transform(${l}, lambda kql_v, kql_i: CASE WHEN kql_v IS NOT NULL THEN kql_v WHEN ${b}[kql_i] = 0 THEN ${at(a)} WHEN ${a}[kql_i] = 0 THEN ${pv} ELSE ${pv} + (${nv} - ${pv}) * (kql_i - ${b}[kql_i]) / (${a}[kql_i] - ${b}[kql_i]) END)`;
      }),
    );
  });
}

/** The numbers of a JSON array (other elements become NULL); NULL when the value is not an array. */
function numberList(sql: string): string {
  return `CASE WHEN json_type(${sql}) = 'ARRAY' THEN list_transform(CAST(${sql} AS JSON[]), lambda kql_e: TRY_CAST(json_extract_string(kql_e, '$') AS DOUBLE)) END`;
}

/** What mv-expand expands: an array's elements, a bag's properties (as `{k: v}` or `[k, v]`), a scalar as itself, null as one null. */
function mvList(sql: string, bag: boolean): string {
  const entry = bag ? "json_object(kql_kv.key, kql_kv.value)" : "json_array(kql_kv.key, kql_kv.value)";
  return `CASE WHEN ${sql} IS NULL OR json_type(${sql}) = 'NULL' THEN [CAST(NULL AS JSON)] WHEN json_type(${sql}) = 'ARRAY' THEN CAST(${sql} AS JSON[]) WHEN json_type(${sql}) = 'OBJECT' THEN list_transform(map_entries(CAST(${sql} AS MAP(VARCHAR, JSON))), lambda kql_kv: ${entry}) ELSE [${sql}] END`;
}

const PERIODS: Record<string, { start: (x: string, n: string) => string }> = {
  day: { start: (x, n) => `(date_trunc('day', ${x}) + to_days(CAST(${n} AS INTEGER)))` },
  week: { start: (x, n) => `(date_trunc('day', ${x}) - to_days(CAST(dayofweek(${x}) AS INTEGER)) + to_days(CAST(7 * ${n} AS INTEGER)))` },
  month: { start: (x, n) => `(date_trunc('month', ${x}) + to_months(CAST(${n} AS INTEGER)))` },
  year: { start: (x, n) => `(date_trunc('year', ${x}) + to_years(CAST(${n} AS INTEGER)))` },
};

/** make_list/make_set (and their _if forms) as a JSON list; `order`: a serialized input's order (make_list only). */
function makeList(op: string, a: TExpr[], order: { key: TExpr; desc: boolean; nullsFirst: boolean }[]): string {
  const sub = (i: number, predicate = false) => expression(a[i]!, predicate);
  const conditional = op.endsWith("_if");
  const item = a[0]!.type === "datetime" ? `strftime(${sub(0)}, ${ISO_FORMAT})` : sub(0);
  const orderBy = order.length ? ` ORDER BY ${order.map((k) => `${expression(k.key, false)} ${k.desc ? "DESC" : "ASC"} NULLS ${k.nullsFirst ? "FIRST" : "LAST"}`).join(", ")}` : "";
  let list = op === "make_list_with_nulls" ? `list(${item}${orderBy})` : `list(${item}${orderBy}) FILTER (WHERE ${sub(0)} IS NOT NULL${conditional ? ` AND ${sub(1, true)}` : ""})`;
  if (op.startsWith("make_set")) list = `list_distinct(${list})`;
  const size = a[conditional ? 2 : 1];
  if (size) list = `list_slice(${list}, 1, ${expression(size, false)})`;
  else list = boundedList.duckdb(op.replace(/_if$/, ""), list);
  return `coalesce(to_json(${list}), CAST('[]' AS JSON))`;
}
