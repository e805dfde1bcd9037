/**
 * ClickHouse spelling of the KQL engine's expression tree and query blocks, and of result rows as
 * the response's JSON (rowJson): the one module in lib/kql that knows ClickHouse SQL (what both
 * engines render alike is in base.ts; the store's tables and statements are in
 * lib/service/telemetry/clickhouse/sql.ts), giving the same answers as the DuckDB dialect
 * (duckdb.ts) with ADX's semantics (docs/api.md §6). Representation, the same as DuckDB's where
 * possible:
 * - datetimes are DateTime64 in UTC (stored to the millisecond; computed values carry
 *   microseconds, like DuckDB's TIMESTAMP), timespans Int64 microseconds;
 * - `dynamic` is JSON text in a String (`json`) or a Nullable(Float64) (`double`, the `Value` column);
 * - parameters are ClickHouse query parameters `{name:Type}`, bound by the caller
 *   (clickhouseParams below);
 * - the statement needs `join_use_nulls = 1` (outer joins give NULL, as in KQL):
 *   CLICKHOUSE_QUERY_SETTINGS, which the telemetry store appends.
 * Where ClickHouse's function differs from KQL's meaning (banker's rounding, intDiv by zero raising,
 * arrays that cannot be NULL, aggregates that give 0 on empty input), the spelling here says so.
 */
import { GRAPH_RELATION_MARK, type MakeSeriesSpec, type RowWindowSessionSpec, type SqlDialect } from "./dialect";
import { dialectOf, SqlRenderer, type Spelling } from "./base";
import { functionNames } from "./function-names";
import { orderedParts, rowOrderSql } from "./row-order";
import { inlineSeriesSql, stageValueSql, type ListSql } from "./series-sql";
import { boundedList, runtimeTooLarge, SESSION_JUMP_ROWS, SESSION_ROWS_EXCEEDED, SESSION_RUN_EXCEEDED, VALUE_LIMITS } from "../budget";
import { args, type TExpr } from "../ir";
import type { KqlType, SqlParams, SqlParamType } from "../types";

const SQL_TYPES: Record<KqlType, string> = {
  string: "String",
  datetime: "DateTime64(6, 'UTC')",
  dynamic: "String",
  real: "Float64",
  long: "Int64",
  int: "Int32",
  bool: "Bool",
  timespan: "Int64",
};

const NUMERIC: ReadonlySet<KqlType> = new Set(["real", "long", "int"]);

const PARAM_TYPES: Record<SqlParamType, string> = {
  VARCHAR: "String",
  BIGINT: "Int64",
  DOUBLE: "Float64",
  BOOLEAN: "Bool",
  TIMESTAMP: "DateTime64(3, 'UTC')",
};

/** A bound parameter's placeholder: ClickHouse names its type in the query text. */
export function clickhouseParam(name: string, type: SqlParamType): string {
  return `{${name}:${PARAM_TYPES[type]}}`;
}

/** Settings every compiled statement relies on (appended as a SETTINGS clause by the caller). */
export const CLICKHOUSE_QUERY_SETTINGS: Record<string, string | number> = {
  join_use_nulls: 1,
  // Parameters bound as query parameters are substituted as constants; keep NULL out of IN lists.
  transform_null_in: 0,
};

/**
 * Settings one statement needs beyond CLICKHOUSE_QUERY_SETTINGS (appended by the caller too). Series
 * analysis plans one SELECT per step (lib/kql/series.ts); merging those steps' expressions re-expands
 * every reference to an earlier step and takes minutes for a 72-point series, so it is switched off
 * for those statements only (elsewhere it changes which rows an arbitrary pick like make_list(x, 1) sees).
 */
export function statementSettings(sql: string): Record<string, string | number> {
  const settings: Record<string, string | number> = sql.includes(SERIES_STAGE_MARK) ? { query_plan_merge_expressions: 0 } : {};
  // A graph pattern is a union of join chains over the same relations: the plan's optimizer steps pass the default 10,000.
  if (sql.includes(GRAPH_RELATION_MARK)) settings.query_plan_max_optimizations_to_apply = 1_000_000;
  return settings;
}

/**
 * Unix milliseconds as a DateTime64 parameter's text: seconds with a fraction, except in the last
 * second before 1970, where ClickHouse reads "-0.001" as +0.001 s (the integer part's sign is lost
 * with its zero): there the date and time, which it reads right.
 */
function timestampText(ms: number): string {
  if (ms < 0 && ms > -1000) return new Date(ms).toISOString().slice(0, 23).replace("T", " ");
  return (ms / 1000).toFixed(3);
}

/** Compiled params → ClickHouse query parameter values (text in ClickHouse's input format). */
export function clickhouseParams(params: SqlParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, { type, value }] of Object.entries(params)) {
    if (value === null) out[name] = "\\N";
    else if (type === "TIMESTAMP") out[name] = timestampText(value as number);
    else if (type === "BOOLEAN") out[name] = value ? "true" : "false";
    else out[name] = String(value);
  }
  return out;
}

/** The size in microseconds of a one-unit datetime bin (analyze.ts CALENDAR_BINS). */
const CALENDAR_MICROS: Record<string, number> = { bin_dt_minute: 60_000_000, bin_dt_hour: 3_600_000_000, bin_dt_day: 86_400_000_000 };

/** ADX aligns datetime bins from 0001-01-01T00:00:00Z: that instant in Unix microseconds. */
const ADX_ORIGIN_US = "-62135596800000000";

const us = (x: string) => `toUnixTimestamp64Micro(${x})`;
/** Unix microseconds → datetime; null outside DateTime64's range (1900-01-01 … 2299-12-31), where ClickHouse would saturate. */
const fromUs = (n: string) => `if(${n} BETWEEN -2208988800000000 AND 10413791999999999, fromUnixTimestamp64Micro(${n}, 'UTC'), NULL)`;
const dt6 = (x: string) => `toDateTime64(${x}, 6, 'UTC')`;
const long = (x: string) => `accurateCastOrNull(${x}, 'Int64')`;
const nullOf = (sqlType: string) => `CAST(NULL AS Nullable(${sqlType}))`;

/** The mv-expand row index of the SELECT being rendered (shared by its expanded columns). */
let mvRow: string | undefined;

const DATE_PARTS: Record<string, (x: string) => string> = {
  year: (x) => `toInt32(toYear(${x}))`,
  quarter: (x) => `toInt32(toQuarter(${x}))`,
  month: (x) => `toInt32(toMonth(${x}))`,
  week_of_year: (x) => `toInt32(toISOWeek(${x}))`,
  day: (x) => `toInt32(toDayOfMonth(${x}))`,
  dayofyear: (x) => `toInt32(toDayOfYear(${x}))`,
  hour: (x) => `toInt32(toHour(${x}))`,
  minute: (x) => `toInt32(toMinute(${x}))`,
  second: (x) => `toInt32(toSecond(${x}))`,
  millisecond: (x) => `toInt32(intDiv(positiveModulo(${us(x)}, 1000000), 1000))`,
  microsecond: (x) => `toInt32(positiveModulo(${us(x)}, 1000000))`,
  nanosecond: (x) => `toInt32(positiveModulo(${us(x)}, 1000000) * 1000)`,
};

class ClickHouseRenderer extends SqlRenderer {
  protected readonly engine = "ClickHouse";
  protected readonly key = "clickhouse";
  protected readonly sqlTypes = SQL_TYPES;
  protected readonly semiJoins = { semi: "LEFT SEMI JOIN", anti: "LEFT ANTI JOIN" };
  protected readonly names = functionNames("clickhouse");
  protected readonly dateParts = DATE_PARTS;
  protected readonly allColumns = "COLUMNS('.*')";

  protected readonly spell: Spelling = {
    // ClickHouse reads escapes in string literals: the pattern's backslashes are doubled.
    regexLiteral: (pattern) => `'${pattern.replace(/\\/g, "\\\\")}'`,
    // numbers() takes no Nullable count; a computed bound (`range x from 0 to 24 * 10 - 1`) is one (overflow-checked arithmetic).
    counter: (count) => ({ from: `numbers(toUInt64(ifNull(${count}, 0)))`, i: "toInt64(number)" }),
    runtimeCounter: (count) => ({ from: `(SELECT arrayJoin(range(toUInt64(ifNull(${count}, 0)))) AS number) AS r`, i: "toInt64(r.number)" }),
    param: clickhouseParam,
    nullOf,
    contains: (text, part) => `(position(${text}, ${part}) > 0)`,
    matches: (text, parts, ci) => `match(${text}, concat(${ci ? "'(?i)', " : ""}${parts.join(", ")}))`,
    orNull: (condition, value) => `if(${condition}, ${value}, NULL)`,
    tryInteger: (x, sqlType) => `accurateCastOrNull(${x}, '${sqlType}')`,
    wide: (x) => `toInt128(${x})`,
    toReal: (x) => `toFloat64(${x})`,
    parseReal: (text) => `toFloat64OrNull(${text})`,
    parseLong: (text) => `toInt64OrNull(${text})`,
    toText: (x) => `toString(${x})`,
    concat: (parts) => `concat(${parts.join(", ")})`,
    intDiv: (x, y) => `intDiv(${x}, ${y})`,
    epochUs: us,
    plusUs: (datetime, n) => fromUs(`(${us(datetime)} + ${n})`),
    regexGroup: (text, pattern, i) => `extractGroups(${text}, ${pattern})[${i}]`,
    asLong: (x) => `toInt64(${x})`,
    isoText,
    parseDatetime,
    access,
    same: (x, y) => `${x} <=> ${y}`,
    toLong: (x) => `toInt64(${x})`,
    asJson: (x) => x,
    jsonTypeName: (json) => `transform(toString(coalesce(JSONType(${json}), 'Null')), ['Array', 'Object', 'String', 'Int64', 'UInt64', 'Double', 'Bool'], ['array', 'dictionary', 'string', 'long', 'long', 'real', 'bool'], 'null')`,
  };
  protected override nullable(sqlType: string): string {
    return `Nullable(${sqlType})`;
  }
  protected jsonIsNull(value: TExpr): string {
    return `coalesce(JSONType(${expression(value, false)}) = 'Null', true)`;
  }
  dynamicText(value: TExpr): string {
    if (value.dynamic === "double") return this.realText(expression(value, false));
    return textOfJson(expression(value, false));
  }
  protected dynamicNumber(value: TExpr): string {
    if (value.dynamic === "double") return expression(value, false);
    return `toFloat64OrNull(${this.dynamicText(value)})`;
  }
  protected dynamicJson(value: TExpr): string {
    return jsonText(value);
  }
  /**
   * A branch in the representation of the whole (a `dynamic` result mixes numbers and JSON text, which
   * DuckDB casts to JSON and ClickHouse would turn into a Variant).
   */
  protected override branch(whole: TExpr, part: TExpr): string {
    // Numbers of another type (a long in a real case): cast, or ClickHouse makes a Variant that no aggregate takes.
    if (whole.type !== part.type && NUMERIC.has(whole.type) && NUMERIC.has(part.type)) return `CAST(${expression(part, false)} AS Nullable(${this.sqlTypes[whole.type]}))`;
    if (whole.type !== "dynamic" || part.dynamic === whole.dynamic) return expression(part, false);
    if (whole.dynamic === "double") return part.type === "dynamic" ? this.dynamicNumber(part) : `toFloat64(${expression(part, false)})`;
    return jsonText(part);
  }
  protected override withColumns(columns: TExpr[], render: () => string): string {
    const saved = mvRow;
    mvRow = mvRowOf(columns);
    try {
      return render();
    } finally {
      mvRow = saved;
    }
  }

  protected aggregate(op: string, a: TExpr[]): string {
    const conditional = op.endsWith("if");
    return `${op.slice(0, 3)}${conditional ? "If" : ""}OrNull(${expression(a[0]!, false)}${conditional ? `, ${expression(a[1]!, true)}` : ""})`;
  }

  protected readonly series = {
    binOf: (value: string, step: string, datetime: boolean) =>
      datetime ? fromUs(`(${us(value)} - positiveModulo(${us(value)} - (${ADX_ORIGIN_US}), ${step}))`) : `(floor(${value} / ${step}) * ${step})`,
    checkedPoints: (points: string, max: number, message: string) => `if(throwIf(${points} > ${max}, '${message}') = 0, ${points}, 0)`,
    gridRows: (groups: string) => `SELECT g.*, b.lo AS lo, toInt64(arrayJoin(range(toUInt64(greatest(b.n, 0))))) AS k FROM (${groups}) AS g, bounds AS b`,
    jsonList: (value: string, numbers: boolean) => {
      const ordered = `arrayMap(kql_t -> tupleElement(kql_t, 2), arraySort(kql_t -> tupleElement(kql_t, 1), groupArray(tuple(grid.k, ${value}))))`;
      return numbers ? numberArrayJson(ordered) : `concat('[', arrayStringConcat(${ordered}, ','), ']')`;
    },
    axisText: (value: string, axisType: MakeSeriesSpec["axisType"]) => {
      if (axisType === "datetime") return `concat('"', ${isoText(value)}, '"')`;
      if (axisType === "timespan") return `concat('"', ${this.timespanText(value)}, '"')`;
      return `coalesce(${jsonNumber(`toFloat64(${value})`)}, 'null')`;
    },
  };

  /**
   * The plan of RowWindowSessionSpec (dialect.ts): runs by window functions, one arrayFold per run
   * whose accumulator is (start, work, row numbers of the starts found) in microseconds, the run's
   * rows arrayJoined with their flag, each row's start by a window.
   */
  rowWindowSession(spec: RowWindowSessionSpec): string {
    const q = (name: string) => this.quoteIdentifier(name);
    const cols = spec.columns.map(q).join(", ");
    const rn = q(spec.rowNumber);
    const running = `OVER (ORDER BY ${rn} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`;
    const x = us(q(spec.expr));
    const certain = `coalesce(${q(spec.restart)}, false) OR isNull(${q(spec.expr)}) OR isNull(${q(spec.previous)}) OR coalesce(${x} >= ${us(q(spec.previous))} + ${q(spec.neighbors)}, false)`;
    const marked = `SELECT ${cols}, ${x} AS kql_x, ${certain} AS kql_h, count() OVER () AS kql_n FROM (${spec.sql}) AS kql_in`;
    const runs = `SELECT *, sum(toInt64(kql_h)) ${running} AS kql_run FROM (${marked})`;
    const accumulator = "Tuple(Nullable(Int64), UInt64, Array(Int64))";
    const [start, done, found] = [1, 2, 3].map((i) => `tupleElement(kql_a, ${i})`);
    const [row, expr, first] = [1, 2, 3].map((i) => `tupleElement(kql_e, ${i})`);
    const work = `${done} + length(${found})`;
    const step =
      `if(isNull(${start}), (${expr}, toUInt64(0), ${found}), if(throwIf(${work} > ${spec.maxRunWork}, '${SESSION_RUN_EXCEEDED}') = 0 AND ${expr} >= ${start} + ${first}, ` +
      `(${expr}, ${work}, arrayPushBack(${found}, ${row})), (${start}, ${work}, ${found})))`;
    const operands = `arraySort(kql_e -> tupleElement(kql_e, 1), groupArray(tuple(toInt64(${rn}), kql_x, ${q(spec.first)})))`;
    const fold = `tupleElement(arrayFold((kql_a, kql_e) -> ${step}, kql_o, CAST((NULL, 0, []) AS ${accumulator})), 3)`;
    // arrayFold costs about 10 µs a step whatever it does, so when MaxDistanceFromFirst is the same
    // on all the run's rows, the fold steps from start to start instead: the next start is the first
    // later row with Expr >= start + MaxDistanceFromFirst (arrayFirstIndex), one step per session. Its
    // steps are bounded by the run's span ÷ the distance, and its work (steps × rows) by maxRunWork; it
    // is taken when a session spans SESSION_JUMP_ROWS rows or more (else the row fold is as cheap).
    const f = q(spec.first);
    const distance = `min(${f})`;
    const same = `coalesce(min(${f}) = max(${f}), false) AND count(${f}) = count()`;
    const steps = `toUInt64(assumeNotNull(if(${distance} > 0, least(toInt64(count()), intDiv(max(kql_x) - min(kql_x), ${distance}) + 1), toInt64(count()))))`;
    const next = `arrayFirstIndex((kql_v, kql_i) -> kql_i > kql_a[-1] AND kql_v >= kql_xs[kql_a[-1]] + ${distance}, kql_xs, arrayEnumerate(kql_xs))`;
    const jumps = `arrayFold((kql_a, kql_s) -> arrayPushBack(kql_a, if(kql_a[-1] = 0, 0, ${next})), range(${steps}), [toUInt64(1)])`;
    const jumped = `arrayMap(kql_k -> tupleElement(kql_o[kql_k], 1), arrayFilter(kql_k -> kql_k > 0, ${jumps}))`;
    const starts = `if(${same} AND ${steps} * ${SESSION_JUMP_ROWS} <= count() AND ${steps} * count() <= ${spec.maxRunWork}, ${jumped}, ${fold})`;
    const rows = `arraySort(kql_t -> tupleElement(kql_t, ${spec.columns.indexOf(spec.rowNumber) + 1}), groupArray(tuple(${cols}, kql_x, kql_h)))`;
    const grouped =
      `SELECT ${rows} AS kql_rows, ${operands} AS kql_o, arrayMap(kql_e -> tupleElement(kql_e, 2), kql_o) AS kql_xs, ` +
      `if(throwIf(max(kql_n) > ${spec.maxRows}, '${SESSION_ROWS_EXCEEDED}') = 0 AND count() > 1, ${starts}, []) AS kql_p FROM (${runs}) GROUP BY kql_run`;
    const at = (i: number) => `tupleElement(kql_r, ${i + 1})`;
    const n = spec.columns.length;
    const flagged =
      `SELECT ${spec.columns.map((c, i) => `${at(i)} AS ${q(c)}`).join(", ")}, ${at(n)} AS kql_x, ${at(n + 1)} OR has(kql_p, toInt64(${at(spec.columns.indexOf(spec.rowNumber))})) AS kql_f ` +
      `FROM (${grouped}) ARRAY JOIN kql_rows AS kql_r`;
    const sessions = `SELECT *, sum(toInt64(kql_f)) ${running} AS kql_k FROM (${flagged})`;
    return `SELECT ${cols}, ${fromUs(`max(if(kql_f, kql_x, NULL)) OVER (PARTITION BY kql_k)`)} AS ${q(spec.output)} FROM (${sessions})`;
  }

  unionAll(selects: string[]): string {
    return `SELECT * FROM (${selects.map((s) => `(${s})`).join(" UNION ALL ")})`;
  }

  values(rows: TExpr[][], aliases: string[]): string {
    const selects = rows.map((row) => `SELECT ${row.map((v, i) => `${typed(v)} AS ${this.quoteIdentifier(aliases[i]!)}`).join(", ")}`);
    return selects.length === 1 ? selects[0]! : `SELECT * FROM (${selects.join(" UNION ALL ")})`;
  }
  rowJson(types: readonly KqlType[], column: (index: number) => string): string {
    const values = types.map((type, i) => this.valueJson(column(i), type));
    return values.length ? `concat('[', ${values.join(", ',', ")}, ']')` : `'[]'`;
  }

  /** One value's JSON text, `null` for null. */
  private valueJson(c: string, type: KqlType): string {
    switch (type) {
      case "string":
        return `toJSONString(${c})`;
      case "long":
      case "int":
        return `coalesce(toString(${c}), 'null')`;
      case "real":
        return `if(isFinite(${c}), if(${c} = 0, '0', toString(${c})), 'null')`;
      case "bool":
        return `multiIf(isNull(${c}), 'null', ${c}, 'true', 'false')`;
      case "datetime":
        return `coalesce(concat('"', formatDateTime(${c}, '%Y-%m-%dT%H:%i:%S', 'UTC'), '.', leftPad(toString(toMillisecond(${c})), 3, '0'), 'Z"'), 'null')`;
      case "timespan":
        return `coalesce(concat('"', ${this.timespanText(c)}, '"'), 'null')`;
      case "dynamic":
        // JSON text (newlines outside strings are whitespace: one row stays one line), or a number.
        return `coalesce(if(toTypeName(${c}) LIKE '%Float64%', if(isFinite(toFloat64OrNull(toString(${c}))), toString(${c}), 'null'), replaceRegexpAll(toString(${c}), '[\\\\r\\\\n]', ' ')), 'null')`;
    }
  }
}

const renderer = new ClickHouseRenderer(special);
const expression = (e: TExpr, predicate: boolean) => renderer.expression(e, predicate);

export const clickhouseDialect: SqlDialect = dialectOf(renderer);

/** What ClickHouse spells its own way (the rest is base.ts). */
function special(e: TExpr, a: TExpr[]): string | undefined {
  const node = e.node;
  const op = node.op;
  const sub = (operands: TExpr[], i: number, predicate = false) => expression(operands[i]!, predicate);
  const s = (i: number, predicate = false) => expression(a[i]!, predicate);
  if (op.startsWith("row:")) return rowOrderSql("clickhouse", op, a.map((x) => expression(x, false)), (sql) => `CAST(${sql} AS ${SQL_TYPES[e.type]})`);
  if (op.startsWith("series_stage:")) return stageValueSql(LISTS, op, a.map((x) => expression(x, false)));
  if (op.startsWith("series_inline:")) return inlineSeriesSql(LISTS, op, a.map((x) => expression(x, false)));
  if (op.startsWith("startof")) return PERIODS[op.slice(7)]!.start(s(0), s(1));
  if (op.startsWith("endof")) return fromUs(`(${us(PERIODS[op.slice(5)]!.start(s(0), `(${s(1)} + 1)`))} - 1)`);
  if (op.includes("@")) {
    const ordered = orderedParts(op, a);
    return makeList(ordered.op, ordered.own, ordered.keys);
  }
  switch (op) {
    case "div":
      // KQL integer division truncates (intDiv); a zero divisor gives null, as in DuckDB.
      if (e.type === "long" || e.type === "int") return `if(${sub(a, 1)} = 0, NULL, intDivOrZero(${sub(a, 0)}, ${sub(a, 1)}))`;
      return `if(${sub(a, 1)} = 0, NULL, ${sub(a, 0)} / ${sub(a, 1)})`;
    case "mod": {
      // KQL's modulo is never negative: 0 <= N % D < abs(D) (docs: numerical operators), where modulo takes N's sign.
      const [n, d] = [sub(a, 0), sub(a, 1)];
      return `if(${d} = 0, NULL, if(moduloOrZero(${n}, ${d}) < 0, moduloOrZero(${n}, ${d}) + if(${d} < 0, -(${d}), ${d}), moduloOrZero(${n}, ${d})))`;
    }
    case "ts_mul":
      return long(`round(toFloat64(${sub(a, 0)}) * ${sub(a, 1)})`);
    case "ts_div":
      return `if(${sub(a, 1)} = 0, NULL, ${long(`trunc(${sub(a, 0)} / ${sub(a, 1)})`)})`;
    case "ts_ratio":
      return `if(${sub(a, 1)} = 0, NULL, ${sub(a, 0)} / ${sub(a, 1)})`;
    case "bin_dt":
    case "bin_dt_adx": {
      // floor to a multiple of the size counted from the origin; a zero or negative size gives null.
      const x = us(sub(a, 0));
      const size = sub(a, 1);
      // DuckDB's time_bucket (bin_dt) counts from 2000-01-03, a Monday; ADX's bins from 0001-01-01.
      const origin = op === "bin_dt_adx" ? ADX_ORIGIN_US : "946857600000000";
      return `if(${size} > 0, ${fromUs(`(${x} - positiveModulo(${x} - (${origin}), ${size}))`)}, NULL)`;
    }
    case "bin_dt_minute":
    case "bin_dt_hour":
    case "bin_dt_day": {
      // toStartOfInterval in microseconds, on the DateTime64 itself: exact over DateTime64's whole
      // range (before 1970 too) and as fast as a plain toStartOfHour. toStartOfMinute/Hour/Day return a
      // 32-bit DateTime (1970 … 2106), and choosing per row between them and ADX's arithmetic took an
      // if() over every row: 90 ms against 17 ms for the 30-day hourly average of one data point
      // (issue 38). Every origin here is a whole day from the Unix epoch, so the bins are ADX's.
      return `toStartOfInterval(${dt6(sub(a, 0))}, toIntervalMicrosecond(${CALENDAR_MICROS[op]!}))`;
    }
    case "bin_num": {
      const value = `(floor(${sub(a, 0)} / ${sub(a, 1)}) * ${sub(a, 1)})`;
      return `if(${sub(a, 1)} = 0, NULL, ${e.type === "real" ? value : `accurateCastOrNull(${value}, '${SQL_TYPES[e.type]}')`})`;
    }
    case "strlen":
      return `toInt64(lengthUTF8(${sub(a, 0)}))`;
    case "round": {
      if (e.type !== "real") return a.length > 1 ? `toInt64(${roundHalfAway(sub(a, 0), sub(a, 1))})` : sub(a, 0);
      return roundHalfAway(sub(a, 0), a.length > 1 ? sub(a, 1) : undefined);
    }
    case "count":
      return "toInt64(count())";
    case "countif":
      return `toInt64(countIf(${sub(a, 0, true)}))`;
    case "sum":
      return sumOf(e, sub(a, 0));
    case "avg":
      return `avgOrNull(${sub(a, 0)})`;
    case "dcount":
      return `toInt64(uniqExact(${sub(a, 0)}))`;
    case "percentile":
      return percentileOf(sub(a, 0), sub(a, 1));
    case "make_list":
    case "make_list_if":
    case "make_list_with_nulls":
    case "make_set":
    case "make_set_if":
      return makeList(op, a, []);
    case "arg_max":
    case "arg_min": {
      // The picked value may be NULL (a tuple is never NULL, so the row is not skipped); a NULL key is.
      const fn = op === "arg_max" ? "argMax" : "argMin";
      const value = `if(count(${sub(a, 1)}) = 0, NULL, tupleElement(${fn}(tuple(${sub(a, 0)}), ${sub(a, 1)}), 1))`;
      return e.type === "string" ? `coalesce(${value}, '')` : value;
    }
    case "dayofweek":
      return `(toInt64(toDayOfWeek(${s(0)}, 2)) * 86400000000)`;
    case "format_datetime":
      return `coalesce(formatDateTimeInJodaSyntax(${s(0)}, ${jodaFormat(s(1))}), '')`;
    case "bin_at_dt": {
      const d = `(${us(s(0))} - ${us(s(2))})`;
      return `if(${s(1)} > 0, ${fromUs(`(${us(s(2))} + ${d} - positiveModulo(${d}, ${s(1)}))`)}, NULL)`;
    }
    case "bin_at_num": {
      const value = `(floor((${s(0)} - ${s(2)}) / ${s(1)}) * ${s(1)} + ${s(2)})`;
      return `if(${s(1)} = 0, NULL, ${e.type === "real" ? value : long(value)})`;
    }
    case "strcat":
      return limited("strcat", a, (v) => [byteSum(v), `concat(${v.join(", ")}${v.length === 1 ? ", ''" : ""})`]);
    case "strcat_delim":
      return limited("strcat_delim", a, (v) => [`${byteSum(v.slice(1))} + toInt64(length(${v[0]})) * ${v.length - 2}`, `arrayStringConcat([${v.slice(1).join(", ")}], ${v[0]})`], "string", [0]);
    case "split":
      return `toJSONString(if(${s(1)} = '', splitByRegexp('', ${s(0)}), splitByString(${s(1)}, ${s(0)})))`;
    case "split_at": {
      const parts = `if(${s(1)} = '', splitByRegexp('', ${s(0)}), splitByString(${s(1)}, ${s(0)}))`;
      return `if(${s(2)} >= 0 AND ${s(2)} < length(${parts}), toJSONString([arrayElement(${parts}, ${s(2)} + 1)]), '[]')`;
    }
    case "regex_extract":
    case "regex_group":
      // The whole pattern becomes group 1, so group 0 (the whole match) is at 1 and group g at g + 1.
      return `coalesce(arrayElement(extractGroups(${s(0)}, concat('(', ${s(1)}, ')')), toInt64(${s(2)}) + 1), '')`;
    case "regex_extract_all": {
      const matches = `arrayMap(kql_m -> arrayElement(kql_m, toInt64(${s(2)}) + 1), extractAllGroupsVertical(${s(0)}, concat('(', ${s(1)}, ')')))`;
      return `if(length(${matches}) > 0, toJSONString(${matches}), NULL)`;
    }
    case "replace_string": {
      // Occurrences × growth, counted from the text without the lookup (which can only shrink it).
      return limited("replace_string", a, ([text, lookup, replacement]) => {
        const count = `intDiv(toInt64(length(${text})) - toInt64(length(if(${lookup} = '', ${text}, replaceAll(${text}, ${lookup}, '')))), greatest(toInt64(length(${lookup})), 1))`;
        return [`toInt64(length(${text})) + ${count} * (toInt64(length(${replacement})) - toInt64(length(${lookup})))`, `if(${lookup} = '', ${text}, replaceAll(${text}, ${lookup}, ${replacement}))`];
      });
    }
    case "replace_regex": {
      // Each match adds the replacement; each \N in it adds at most the text once over all matches.
      return limited("replace_regex", a, ([text, pattern, replacement]) => {
        const refs = `(toInt64(length(${replacement})) - toInt64(length(replaceAll(${replacement}, '\\\\', ''))))`;
        return [`toInt64(length(${text})) * (1 + ${refs}) + toInt64(countMatches(${text}, ${pattern})) * toInt64(length(${replacement}))`, `replaceRegexpAll(${text}, ${pattern}, ${replacement})`];
      }, "string", [1]);
    }
    case "countof":
      return `if(${s(1)} = '', 0, intDiv(toInt64(lengthUTF8(${s(0)})) - toInt64(lengthUTF8(replaceAll(${s(0)}, ${s(1)}, ''))), toInt64(lengthUTF8(${s(1)}))))`;
    case "strrep": {
      return limited("strrep", a, ([text, n, delimiter]) => {
        const times = `toUInt64(least(greatest(${n}, 0), 1024))`;
        const count = `toInt64(least(greatest(${n}, 0), 1024))`;
        if (!delimiter) return [`toInt64(length(${text})) * ${count}`, `repeat(${text}, ${times})`];
        const bytes = `toInt64(length(${text})) * ${count} + toInt64(length(${delimiter})) * greatest(${count} - 1, 0)`;
        return [bytes, `if(${times} = 0, '', left(repeat(concat(${text}, ${delimiter}), ${times}), toInt64(lengthUTF8(concat(${text}, ${delimiter})) * ${times}) - lengthUTF8(${delimiter})))`];
      });
    }
    case "string_size":
      return `toInt64(length(${s(0)}))`;
    case "parse_json":
      return `multiIf(${s(0)} = '', NULL, isValidJSON(${s(0)}), ${s(0)}, toJSONString(${s(0)}))`;
    case "bag_keys":
      return `if(JSONType(${s(0)}) = 'Object', toJSONString(JSONExtractKeys(ifNull(${s(0)}, 'null'))), NULL)`;
    case "array_length":
      return `if(JSONType(${s(0)}) = 'Array', toInt64(JSONLength(${s(0)})), NULL)`;
    case "series_sum":
      return listAggregate(s(0), "arraySum");
    case "pack_array": {
      return limited("pack_array", a, (v) => {
        const items = a.map((x, i) => `coalesce(${jsonText(x, v[i])}, 'null')`);
        return [items.map((x) => `toInt64(length(${x}))`).join(" + "), `concat('[', arrayStringConcat([${items.join(", ")}], ','), ']')`];
      }, "dynamic");
    }
    case "bag_pack": {
      const items: string[] = [];
      for (let i = 0; i + 1 < a.length; i += 2) items.push(`concat(toJSONString(${s(i)}), ':', coalesce(${jsonText(a[i + 1]!)}, 'null'))`);
      return `concat('{', arrayStringConcat([${items.join(", ")}], ','), '}')`;
    }
    case "coalesce_str": {
      const last = a.length - 1;
      return `multiIf(${a.slice(0, last).map((x) => `${expression(x, false)} != '', ${expression(x, false)}`).join(", ")}, ${s(last)})`;
    }
    case "greatest":
    case "least":
      // ClickHouse refuses to compare Int64 with Float64 here: every argument in the result's type.
      return `${op}(${a.map((x) => (x.type === e.type ? expression(x, false) : `CAST(${expression(x, false)} AS Nullable(${SQL_TYPES[e.type]}))`)).join(", ")})`;
    case "sign":
      return e.type === "real" ? `toFloat64(sign(${s(0)}))` : `toInt64(sign(${s(0)}))`;
    case "repeat": {
      return limited("repeat", a, ([value, count]) => {
        const item = `coalesce(${jsonText(a[0]!, value)}, 'null')`;
        return [`(toInt64(length(${item})) + 1) * greatest(${count}, 0)`, `concat('[', arrayStringConcat(arrayMap(kql_i -> ${item}, range(toUInt64(greatest(${count}, 0)))), ','), ']')`];
      }, "dynamic");
    }
    case "series_min":
      return listAggregate(s(0), "arrayMin");
    case "series_max":
      return listAggregate(s(0), "arrayMax");
    case "series_min_idx":
    case "series_max_idx": {
      const fn = op === "series_min_idx" ? "arrayMin" : "arrayMax";
      return overList(s(0), (l) => `if(length(${present(l)}) = 0, NULL, toInt64(indexOf(${l}, ${fn}(${present(l)}))) - 1)`);
    }
    case "series_avg":
      return listAggregate(s(0), "arrayAvg");
    case "series_stdev":
      return overList(s(0), (l) => `if(length(${present(l)}) < 2, NULL, arrayReduce('stddevSamp', ${present(l)}))`);
    case "series_variance":
      return overList(s(0), (l) => `if(length(${present(l)}) < 2, NULL, arrayReduce('varSamp', ${present(l)}))`);
    case "series_stats_dynamic":
      return overList(s(0), (l) => {
        const p = present(l);
        const stat = (fn: string, minimum = 1) => `if(length(${p}) < ${minimum}, NULL, ${jsonNumber(`toFloat64(${fn})`)})`;
        return jsonObject([
          ["min", stat(`arrayMin(${p})`)],
          ["min_idx", `if(length(${p}) = 0, NULL, toString(toInt64(indexOf(${l}, arrayMin(${p}))) - 1))`],
          ["max", stat(`arrayMax(${p})`)],
          ["max_idx", `if(length(${p}) = 0, NULL, toString(toInt64(indexOf(${l}, arrayMax(${p}))) - 1))`],
          ["avg", stat(`arrayAvg(${p})`)],
          ["stdev", stat(`arrayReduce('stddevSamp', ${p})`, 2)],
          ["variance", stat(`arrayReduce('varSamp', ${p})`, 2)],
        ]);
      });
    case "series_fir": {
      const shift = s(1);
      const weights = a.slice(2).map((w) => expression(w, false));
      // Term j reads element i - j + shift: the list padded with NULLs on both sides and sliced once
      // per term, so the lambda takes each term's element as an argument. (A lambda that captures
      // the list gets a copy of it per element: quadratic.)
      const pad = `arrayResize(CAST([], 'Array(Nullable(Float64))'), ${weights.length})`;
      return overList(s(0), (l) => {
        const slices = weights.map((_, j) => `arraySlice(kql_pad, ${weights.length + 1 - j} + ${shift}, length(${l}))`);
        const params = weights.map((_, j) => `kql_x${j}`);
        const terms = weights.map((w, j) => `${w} * coalesce(kql_x${j}, 0)`);
        return numberArrayJson(`arrayMap(kql_pad -> arrayMap((${params.join(", ")}) -> ${terms.join(" + ")}, ${slices.join(", ")}), [arrayConcat(${pad}, ${l}, ${pad})])[1]`);
      });
    }
    case "series_fill_forward":
      return overList(s(0), (l) => numberArrayJson(`arrayFill(kql_x -> isNotNull(kql_x), ${l})`));
    case "series_fill_backward":
      return overList(s(0), (l) => numberArrayJson(`arrayReverseFill(kql_x -> isNotNull(kql_x), ${l})`));
    case "series_fill_linear":
      return overList(s(0), (l) => {
        // 1-based positions of the nearest present value before (0: none) and after (0: none) each
        // element, and those values: all arrays the lambda takes element-wise, since an array a
        // lambda captures is copied for every element (quadratic: 100,000 elements needed 74 GiB).
        const marks = `arrayMap((kql_v, kql_i) -> if(isNotNull(kql_v), kql_i, 0), ${l}, arrayEnumerate(${l}))`;
        const prev = `arrayFill(kql_x -> kql_x != 0, ${marks})`;
        const next = `arrayReverseFill(kql_x -> kql_x != 0, ${marks})`;
        const before = `arrayFill(kql_x -> isNotNull(kql_x), ${l})`;
        const after = `arrayReverseFill(kql_x -> isNotNull(kql_x), ${l})`;
        return numberArrayJson(
          `arrayMap((kql_v, kql_i, kql_p, kql_n, kql_pv, kql_nv) -> multiIf(isNotNull(kql_v), kql_v, kql_p = 0, kql_nv, kql_n = 0, kql_pv, ` +
            `kql_pv + (kql_nv - kql_pv) * (kql_i - kql_p) / (kql_n - kql_p)), ${l}, arrayEnumerate(${l}), ${prev}, ${next}, ${before}, ${after})`,
        );
      });
    case "series_fill_const":
      return overList(s(0), (l) => numberArrayJson(`arrayMap(kql_v -> coalesce(kql_v, ${s(1)}), ${l})`));
    case "mv_unnest_bag":
    case "mv_unnest_array":
      return `arrayElement(${mvList(s(0), op.endsWith("bag"))}, ${mvRow})`;
    case "mv_index":
      return `(toInt64(${mvRow}) - 1)`;
    case "percentiles_array": {
      const fractions = a.slice(1).map((f) => expression(f, false));
      // No value to rank: null, as DuckDB's quantile list gives (not an array of nulls).
      return `if(count(${s(0)}) = 0, NULL, concat('[', arrayStringConcat([${fractions.map((f) => `coalesce(${jsonText(a[0]!, percentileOf(s(0), f))}, 'null')`).join(", ")}], ','), ']'))`;
    }
    case "stdev":
    case "stdevp":
    case "variance":
    case "variancep": {
      const fn = { stdev: "stddevSamp", stdevp: "stddevPop", variance: "varSamp", variancep: "varPop" }[op];
      const minimum = op.endsWith("p") ? 1 : 2;
      if (a.length > 1) return `if(countIf(${s(0)} IS NOT NULL AND ${s(1, true)}) < ${minimum}, NULL, ${fn}If(${s(0)}, ${s(1, true)}))`;
      return `if(count(${s(0)}) < ${minimum}, NULL, ${fn}(${s(0)}))`;
    }
    case "sumif":
      return sumOf(e, s(0), s(1, true));
    case "avgif":
      return `avgIfOrNull(${s(0)}, ${s(1, true)})`;
    case "dcountif":
      return `toInt64(uniqExactIf(${s(0)}, ${s(1, true)}))`;
    case "make_bag": {
      // Properties of every bag, a later bag's value winning (json_merge_patch at the top level).
      // make_bag_if: the predicate is the second operand.
      const pairs = `arrayFlatten(groupArrayIf(JSONExtractKeysAndValuesRaw(ifNull(${s(0)}, 'null')), JSONType(${s(0)}) = 'Object'${a.length > 1 ? ` AND ${s(1, true)}` : ""}))`;
      const latest = `arrayFilter((kql_kv, kql_i) -> indexOf(arrayMap(kql_p -> tupleElement(kql_p, 1), arrayReverse(${pairs})), tupleElement(kql_kv, 1)) = kql_i, arrayReverse(${pairs}), arrayEnumerate(${pairs}))`;
      const kept = `arrayFilter(kql_kv -> tupleElement(kql_kv, 2) != 'null', arrayReverse(${latest}))`;
      return `concat('{', arrayStringConcat(arrayMap(kql_kv -> concat(toJSONString(tupleElement(kql_kv, 1)), ':', tupleElement(kql_kv, 2)), ${kept}), ','), '}')`;
    }
    default:
      return undefined;
  }
}

/** Half away from zero, as KQL and DuckDB round (ClickHouse's round() of a Float64 rounds half to even). */
function roundHalfAway(x: string, digits?: string): string {
  if (!digits) return `(sign(${x}) * floor(abs(${x}) + 0.5))`;
  const scale = `pow(10, ${digits})`;
  return `(sign(${x}) * floor(abs(${x}) * ${scale} + 0.5) / ${scale})`;
}

function sumOf(e: TExpr, value: string, condition?: string): string {
  const total = condition ? `sumIf(${e.type === "real" ? value : `toInt128(${value})`}, ${condition})` : `sum(${e.type === "real" ? value : `toInt128(${value})`})`;
  return e.type === "real" ? `coalesce(${total}, 0)` : long(`coalesce(${total}, 0)`);
}

/** DuckDB's quantile_disc: the value at 1-based rank max(1, ceil(n × q)) of the sorted values. */
function percentileOf(value: string, fraction: string, condition?: string): string {
  const values = condition ? `groupArrayIf(${value}, ${condition})` : `groupArray(${value})`;
  return `if(length(${values}) = 0, NULL, arrayElement(arraySort(${values}), toUInt64(greatest(1, ceil(length(${values}) * ${fraction})))))`;
}

/** `base.path`: the raw JSON text there, NULL when absent (JSONPath `$."a"[0]`, as the analyzer builds it). */
function access(base: string, path: string): string {
  // JSON_QUERY wraps what it finds in [ ]; '' when nothing is there.
  const found = `JSON_QUERY(${base}, ${path})`;
  return `if(empty(${found}), NULL, substring(${found}, 2, length(${found}) - 2))`;
}

/** The text of a JSON value: a string's contents, any other value's JSON; NULL for JSON null. */
function textOfJson(j: string): string {
  return `multiIf(JSONType(${j}) = 'String', JSONExtractString(${j}), JSONType(${j}) = 'Null', NULL, ${j})`;
}

/** A JSON number from a Float64: whole values without a fraction, non-finite ones as null. */
function jsonNumber(x: string): string {
  return `multiIf(isNull(${x}), NULL, isFinite(${x}), toString(${x}), 'null')`;
}

/**
 * A builder's value, unless its size (computed from its inputs) passes the limit: then the engine
 * raises and the value is never built. The inputs are bound once (lambda parameters over
 * one-element arrays), so the size and the value read them without spelling them twice: nested
 * builders would otherwise double the SQL per level.
 */
function limited(fn: string, inputs: TExpr[], build: (values: string[]) => [bytes: string, value: string], what: "string" | "dynamic" = "string", constant: number[] = []): string {
  const limit = what === "string" ? VALUE_LIMITS.stringBytes : VALUE_LIMITS.dynamicBytes;
  // A separator or pattern must stay a constant for ClickHouse: those are spelled in place (they are literals).
  const bound = inputs.map((_, i) => !constant.includes(i));
  const [bytes, value] = build(inputs.map((x, i) => (bound[i] ? `kql_g${i}` : expression(x, false))));
  const names = inputs.flatMap((_, i) => (bound[i] ? [`kql_g${i}`] : []));
  const arrays = inputs.flatMap((x, i) => (bound[i] ? [`[${expression(x, false)}]`] : []));
  return `arrayMap((${names.join(", ")}) -> if(throwIf(${bytes} > ${limit}, '${runtimeTooLarge(fn, what)}') = 0, ${value}, ''), ${arrays.join(", ")})[1]`;
}

/** The summed byte lengths of strings. */
function byteSum(values: string[]): string {
  return values.map((x) => `toInt64(length(ifNull(${x}, '')))`).join(" + ");
}

/** JSON text of any value (NULL stays NULL), the way DuckDB's to_json renders it. */
function jsonText(value: TExpr, sql = expression(value, false)): string {
  switch (value.type) {
    case "string":
      return `toJSONString(${sql})`;
    case "long":
    case "int":
    case "timespan":
      return `toString(${sql})`;
    case "real":
      return jsonNumber(sql);
    case "bool":
      return `multiIf(isNull(${sql}), NULL, ${sql}, 'true', 'false')`;
    case "datetime":
      return `concat('"', ${isoText(sql)}, '"')`;
    case "dynamic":
      return value.dynamic === "double" ? jsonNumber(sql) : sql;
  }
}

/** ISO 8601 UTC with milliseconds and `Z` (milliseconds truncated, as the DuckDB dialect's strftime `%g`). */
function isoText(sql: string): string {
  return `concat(formatDateTime(${sql}, '%Y-%m-%dT%H:%i:%S', 'UTC'), '.', leftPad(toString(toMillisecond(${sql})), 3, '0'), 'Z')`;
}

/** Text → datetime, NULL when it is not one (DuckDB's TRY_CAST AS TIMESTAMP reads ISO dates and times). */
function parseDatetime(text: string): string {
  const iso = `'^\\\\s*\\\\d{4}-\\\\d{2}-\\\\d{2}([ T]\\\\d{2}:\\\\d{2}(:\\\\d{2}(\\\\.\\\\d+)?)?)?\\\\s*(Z|[+-]\\\\d{2}(:?\\\\d{2})?)?\\\\s*$'`;
  // ISO forms, and .NET's invariant month/day/year that ADX also reads (docs' parse examples: 02/17/2016 08:40:01).
  const us = `'^\\\\s*\\\\d{1,2}/\\\\d{1,2}/\\\\d{4}( \\\\d{1,2}:\\\\d{2}(:\\\\d{2})?)?\\\\s*$'`;
  return `if(match(${text}, ${iso}), parseDateTime64BestEffortOrNull(${text}, 6, 'UTC'), if(match(${text}, ${us}), parseDateTime64BestEffortUSOrNull(replaceRegexpAll(${text}, '^\\\\s+|\\\\s+$', ''), 6, 'UTC'), NULL))`;
}

/**
 * mv-expand zips its columns (the longest list decides, the others are padded with null). Every
 * expanded column reads its list at one row index; ClickHouse evaluates identical `arrayJoin`
 * expressions once, so the row index below is one expansion, not a cross product.
 */
function mvRowOf(columns: TExpr[]): string | undefined {
  const lists = columns.filter((c) => c.node.op.startsWith("mv_")).map((c) => mvList(expression(args(c)[0]!, false), c.node.op !== "mv_unnest_array"));
  if (!lists.length) return undefined;
  return `arrayJoin(range(1, toUInt64(greatest(${lists.map((l) => `length(${l})`).join(", ")})) + 1))`;
}

/** A value cast to its column's type, so the rows of a datatable agree (ClickHouse types each literal on its own). */
function typed(value: TExpr): string {
  const sqlType = value.type === "dynamic" && value.dynamic === "double" ? "Float64" : SQL_TYPES[value.type];
  return value.type === "string" ? `toString(${expression(value, false)})` : `CAST(${expression(value, false)} AS Nullable(${sqlType}))`;
}

/** A JSON array of numbers from an array of Nullable numbers. */
function numberArrayJson(list: string): string {
  return `concat('[', arrayStringConcat(arrayMap(kql_v -> coalesce(${jsonNumber("toFloat64(kql_v)")}, 'null'), ${list}), ','), ']')`;
}

/** Lambda parameters of series analysis start with this (statementSettings looks for it). */
const SERIES_STAGE_MARK = "kql_series";

/** List primitives of the series analysis (series-sql.ts). Lambda parameters are numbered to stay unique when nested. */
let lambdaCounter = 0;
const fresh = () => `${SERIES_STAGE_MARK}${(lambdaCounter = (lambdaCounter + 1) % 1_000_000)}`;
const LISTS: ListSql = {
  bind: (value, body) => {
    const v = fresh();
    return `arrayElement(arrayMap(${v} -> ${body(v)}, [${value}]), 1)`;
  },
  gen: (n, body) => {
    const i = fresh();
    return `arrayMap(${i} -> ${body(i)}, range(1, toInt64(greatest(${n}, 0)) + 1))`;
  },
  map: (list, body) => {
    const v = fresh();
    return `arrayMap(${v} -> ${body(v)}, ${list})`;
  },
  mapIdx: (list, body) => {
    const [v, i] = [fresh(), fresh()];
    return `arrayMap((${v}, ${i}) -> ${body(v, i)}, ${list}, arrayEnumerate(${list}))`;
  },
  zip: (lists, body) => {
    const names = lists.map(() => fresh());
    const i = fresh();
    return `arrayMap((${names.join(", ")}, ${i}) -> ${body(names, i)}, ${lists.join(", ")}, arrayEnumerate(${lists[0]}))`;
  },
  filter: (list, keep) => {
    const v = fresh();
    return `arrayFilter(${v} -> ${keep(v)}, ${list})`;
  },
  filterIdx: (list, keep) => {
    const [v, i] = [fresh(), fresh()];
    return `arrayFilter((${v}, ${i}) -> ${keep(v, i)}, ${list}, arrayEnumerate(${list}))`;
  },
  present: (list) => present(list),
  // A negative length would mean "up to that many from the end".
  slice: (list, a, b) => `arraySlice(${list}, ${a}, greatest((${b}) - (${a}) + 1, 0))`,
  cycle: (list, n) => {
    const [l, r] = [fresh(), fresh()];
    return `arrayElement(arrayMap(${l} -> arraySlice(arrayFlatten(arrayMap(${r} -> ${l}, range(toUInt64(intDiv(${n}, length(${l})) + 1)))), 1, ${n}), [${list}]), 1)`;
  },
  sortBy: (list, keys) => {
    const [v, k] = [fresh(), fresh()];
    return `arraySort((${v}, ${k}) -> (${k}, ${v}), ${list}, ${keys})`;
  },
  at: (list, i) => `arrayElement(${list}, ${i})`,
  len: (list) => `toInt64(length(${list}))`,
  sum: (list) => `arraySum(${list})`,
  cumsum: (list) => `arrayCumSum(${list})`,
  dot: (a, b) => `arrayDotProduct(${a}, ${b})`,
  sort: (list) => `arraySort(${list})`,
  max: (list) => `arrayMax(${list})`,
  indexOf: (list, value) => `toInt64(indexOf(${list}, ${value}))`,
  floor: (x) => `toInt64(floor(${x}))`,
  idiv: (a, b) => `intDiv(${a}, ${b})`,
  json: (list) => numberArrayJson(list),
  numberJson: (x) => `coalesce(${jsonNumber(`toFloat64(${x})`)}, 'null')`,
  object: (entries) => `concat('{', ${entries.map(([key, json]) => `'"${key}":', ${json}`).join(", ',', ")}, '}')`,
  numbers: (json) => numberList(json),
  isArray: (json) => isArray(json),
  checked: (n, max, message) => `if(throwIf(${n} > ${max}, '${message}') = 0, ${n}, 0)`,
};

/** The numbers of a JSON array (other elements become NULL); use only where `isArray(j)` holds. */
function numberList(j: string): string {
  return `arrayMap(kql_e -> toFloat64OrNull(${textOfJson("kql_e")}), JSONExtractArrayRaw(ifNull(${j}, 'null')))`;
}

const isArray = (j: string) => `(JSONType(${j}) = 'Array')`;

/** The non-null numbers of a list. */
const present = (l: string) => `arrayMap(kql_x -> assumeNotNull(kql_x), arrayFilter(kql_x -> isNotNull(kql_x), ${l}))`;

/** `f(list)` of a JSON array, NULL when the value is not an array (ClickHouse arrays cannot be NULL). */
function overList(j: string, body: (l: string) => string): string {
  return `if(${isArray(j)}, ${body(numberList(j))}, NULL)`;
}

/** An aggregate of the non-null numbers of a list; NULL when there are none (as DuckDB's list_*). */
function listAggregate(j: string, fn: string, minimum = 1): string {
  return overList(j, (l) => `if(length(${present(l)}) < ${minimum}, NULL, ${fn}(${present(l)}))`);
}

const PERIODS: Record<string, { start: (x: string, n: string) => string }> = {
  day: { start: (x, n) => `addDays(${dt6(`toStartOfDay(${x})`)}, ${n})` },
  week: { start: (x, n) => `addDays(${dt6(`toStartOfWeek(${x}, 0)`)}, 7 * ${n})` },
  month: { start: (x, n) => `addMonths(${dt6(`toStartOfMonth(${x})`)}, ${n})` },
  year: { start: (x, n) => `addYears(${dt6(`toStartOfYear(${x})`)}, ${n})` },
};

/** strftime (the analyzer's form of a .NET format) → Joda, which has .NET's unpadded fields. */
function jodaFormat(format: string): string {
  const pairs: [string, string][] = [
    ["%%", "\u0001"], ["%-m", "M"], ["%-d", "d"], ["%-H", "H"], ["%-I", "h"], ["%-M", "m"], ["%-S", "s"],
    ["%Y", "yyyy"], ["%y", "yy"], ["%m", "MM"], ["%d", "dd"], ["%H", "HH"], ["%I", "hh"], ["%M", "mm"], ["%S", "ss"],
    ["%f0", "SSSSSS0"], ["%f", "SSSSSS"], ["%g", "SSS"], ["%p", "a"], ["\u0001", "%"],
  ];
  return pairs.reduce((sql, [from, to]) => `replaceAll(${sql}, '${from}', '${to}')`, format);
}

function mvList(sql: string, bag: boolean): string {
  const entry = bag ? `concat('{', toJSONString(kql_kv.1), ':', kql_kv.2, '}')` : `concat('[', toJSONString(kql_kv.1), ',', kql_kv.2, ']')`;
  const t = `JSONType(${sql})`;
  return (
    `multiIf(${sql} IS NULL OR ${t} = 'Null', [CAST(NULL AS Nullable(String))], ` +
    `${t} = 'Array', CAST(JSONExtractArrayRaw(ifNull(${sql}, 'null')) AS Array(Nullable(String))), ` +
    `${t} = 'Object', CAST(arrayMap(kql_kv -> ${entry}, JSONExtractKeysAndValuesRaw(ifNull(${sql}, 'null'))) AS Array(Nullable(String))), ` +
    `[CAST(${sql} AS Nullable(String))])`
  );
}

function jsonObject(pairs: [string, string][]): string {
  return `concat('{', ${pairs.map(([k, v], i) => `'${i ? "," : ""}${JSON.stringify(k)}:', coalesce(${v}, 'null')`).join(", ")}, '}')`;
}

/** make_list/make_set (and their _if forms) as JSON text; `order`: a serialized input's order (make_list only). */
function makeList(op: string, a: TExpr[], order: { key: TExpr; desc: boolean; nullsFirst: boolean }[]): string {
  const conditional = op.endsWith("_if");
  // make_list_with_nulls keeps a null as JSON null (groupArray leaves NULLs out).
  const item = op === "make_list_with_nulls" ? `ifNull(${jsonText(a[0]!)}, 'null')` : jsonText(a[0]!);
  const gather = (value: string) => (conditional ? `groupArrayIf(${value}, ${expression(a[1]!, true)})` : `groupArray(${value})`);
  let list = order.length ? sortedList(gather(`tuple(${item}, ${sortKey(order)})`)) : gather(item);
  // A set's order is not defined by KQL; DuckDB's list_distinct gives the first appearances last to first, and so does this.
  if (op.startsWith("make_set")) list = `arrayReverse(arrayDistinct(${list}))`;
  const size = a[conditional ? 2 : 1];
  if (size) list = `arraySlice(${list}, 1, greatest(${expression(size, false)}, 0))`;
  else list = boundedList.clickhouse(op.replace(/_if$/, ""), list);
  return `concat('[', arrayStringConcat(${list}, ','), ']')`;
}

/** The items of a groupArray of (item, key) tuples in ascending key order. */
const sortedList = (pairs: string) => `arrayMap(kql_t -> tupleElement(kql_t, 1), arraySort(kql_t -> tupleElement(kql_t, 2), ${pairs}))`;

/**
 * One ascending sort key (a tuple) for a sort order of several keys: per key whether it is NULL (placed
 * first or last) and its value, negated for a descending key. A descending string cannot be negated:
 * it sorts by its bytes negated, with a sentinel above every byte so that a longer string with the
 * same start comes first (ClickHouse compares arrays element by element, a prefix first).
 */
function sortKey(order: { key: TExpr; desc: boolean; nullsFirst: boolean }[]): string {
  const parts = order.flatMap(({ key, desc, nullsFirst }) => {
    const sql = expression(key, false);
    const value = `assumeNotNull(${sql})`;
    let ranked: string;
    if (!desc) ranked = value;
    else if (key.type === "datetime") ranked = `-toUnixTimestamp64Micro(toDateTime64(${value}, 6))`;
    else if (key.type === "bool") ranked = `-toInt8(${value})`;
    else if (NUMERIC.has(key.type) || key.type === "timespan" || key.dynamic === "double") ranked = `-${value}`;
    else ranked = `arrayConcat(arrayMap(kql_c -> -toInt16(reinterpretAsUInt8(kql_c)), splitByString('', ${value})), [1])`;
    return [nullsFirst ? `isNotNull(${sql})` : `isNull(${sql})`, ranked];
  });
  return `tuple(${parts.join(", ")})`;
}
