/**
 * DuckDB spelling of the KQL engine's expression tree and query blocks: the ONE module that knows
 * DuckDB SQL. Rules kept here:
 * - predicates keep the column bare on one side (`"Name" = $k1`, `"Timestamp" >= $k2`) so DuckDB
 *   pushes them into the scan; NULL-safety wrappers are added only for nullable operands, and only
 *   where a NULL could be observed (a value, or under NOT) — in a filter NULL already acts as false;
 * - no casts on typed columns; parameters are bound with their SQL types by the caller;
 * - timespans are BIGINT microseconds, datetimes TIMESTAMP.
 */
import type { SelectBlock, SqlDialect } from "./dialect";
import { args, type TExpr } from "../ir";
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

/** A term of `has` is a maximal run of ASCII letters and digits (decisions.md §6). */
const TERM_EDGE_BEFORE = `'(^|[^0-9A-Za-z])'`;
const TERM_EDGE_AFTER = `'($|[^0-9A-Za-z])'`;
const ISO_FORMAT = `'%Y-%m-%dT%H:%M:%S.%gZ'`;
/** ADX aligns datetime bins from 0001-01-01; DuckDB's default origin (2000-01-03) agrees for spans dividing a week. */
const ADX_ORIGIN = `TIMESTAMP '0001-01-01 00:00:00'`;

const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The SQL of operand `i`. */
function sub(operands: TExpr[], i: number, predicate = false): string {
  return expression(operands[i]!, predicate);
}

/**
 * A comparison that must not yield NULL: `whenNull` replaces it, except in a filter, where NULL
 * already means false (so `== … ` stays a plain, pushdown-friendly comparison there).
 */
function nullSafe(operands: TExpr[], predicate: boolean, sql: string, whenNull: "false" | "true"): string {
  const nullable = operands.some((operand) => operand.nullable);
  return nullable && (!predicate || whenNull === "true") ? `coalesce(${sql}, ${whenNull})` : sql;
}

function expression(e: TExpr, predicate: boolean): string {
  const node = e.node;
  const a = args(e);

  switch (node.op) {
    case "ref": {
      const ref = node as { relation: string; name: string };
      return `${quoteIdentifier(ref.relation)}.${quoteIdentifier(ref.name)}`;
    }
    case "param":
      return `$${(node as { name: string }).name}`;
    case "null":
      return `CAST(NULL AS ${SQL_TYPES[e.type]})`;
    case "access": {
      const { base, path } = node as { base: TExpr; path: TExpr };
      return `json_extract(${expression(base, false)}, ${expression(path, false)})`;
    }
    // ---- dynamic conversions ----
    case "dyn_str":
      return dynamicText(a[0]!);
    case "dyn_num":
      return dynamicNumber(a[0]!);
    case "dyn_json":
      return dynamicJson(a[0]!);
    // ---- comparisons ----
    case "eq":
    case "lt":
    case "le":
    case "gt":
    case "ge": {
      const op = { eq: "=", lt: "<", le: "<=", gt: ">", ge: ">=" }[node.op];
      return nullSafe(a, predicate, `(${sub(a, 0)} ${op} ${sub(a, 1)})`, "false");
    }
    case "ne":
      return nullSafe(a, predicate, `(${sub(a, 0)} <> ${sub(a, 1)})`, "true");
    case "eq_ci":
      return `(lower(${sub(a, 0)}) = lower(${sub(a, 1)}))`;
    case "ne_ci":
      return `(lower(${sub(a, 0)}) <> lower(${sub(a, 1)}))`;
    case "has":
      return `(contains(lower(${sub(a, 0)}), lower(${sub(a, 1)})) AND regexp_matches(${sub(a, 0)}, ${TERM_EDGE_BEFORE} || regexp_escape(${sub(a, 1)}) || ${TERM_EDGE_AFTER}, 'i'))`;
    case "has_cs":
      return `(contains(${sub(a, 0)}, ${sub(a, 1)}) AND regexp_matches(${sub(a, 0)}, ${TERM_EDGE_BEFORE} || regexp_escape(${sub(a, 1)}) || ${TERM_EDGE_AFTER}))`;
    case "contains":
      return `contains(lower(${sub(a, 0)}), lower(${sub(a, 1)}))`;
    case "contains_cs":
      return `contains(${sub(a, 0)}, ${sub(a, 1)})`;
    case "startswith":
      return `starts_with(lower(${sub(a, 0)}), lower(${sub(a, 1)}))`;
    case "startswith_cs":
      return `starts_with(${sub(a, 0)}, ${sub(a, 1)})`;
    case "endswith":
      return `ends_with(lower(${sub(a, 0)}), lower(${sub(a, 1)}))`;
    case "endswith_cs":
      return `ends_with(${sub(a, 0)}, ${sub(a, 1)})`;
    case "in":
    case "in_ci":
    case "notin":
    case "notin_ci": {
      const ci = node.op.endsWith("_ci");
      const wrap = (s: string) => (ci ? `lower(${s})` : s);
      const list = a.slice(1).map((item) => wrap(expression(item, false)));
      const test = `${wrap(sub(a, 0))} IN (${list.join(", ")})`;
      if (node.op.startsWith("not")) return a[0]!.nullable ? `coalesce(NOT (${test}), true)` : `(NOT (${test}))`;
      return a[0]!.nullable && !predicate ? `coalesce(${test}, false)` : `(${test})`;
    }
    case "between":
      return nullSafe(a, predicate, `(${sub(a, 0)} BETWEEN ${sub(a, 1)} AND ${sub(a, 2)})`, "false");
    case "notbetween":
      return nullSafe(a, predicate, `(NOT (${sub(a, 0)} BETWEEN ${sub(a, 1)} AND ${sub(a, 2)}))`, "true");
    case "and":
      return `(${sub(a, 0, predicate)} AND ${sub(a, 1, predicate)})`;
    case "or":
      return `(${sub(a, 0, predicate)} OR ${sub(a, 1, predicate)})`;
    case "not":
      return `(NOT ${sub(a, 0)})`;
    // ---- arithmetic ----
    case "add":
    case "sub":
    case "mul": {
      const op = { add: "+", sub: "-", mul: "*" }[node.op];
      // Whole numbers are computed wide and an overflow gives null, where DuckDB would raise an error.
      if (e.type === "long" || e.type === "int") return `TRY_CAST(CAST(${sub(a, 0)} AS HUGEINT) ${op} ${sub(a, 1)} AS ${SQL_TYPES[e.type]})`;
      return `(${sub(a, 0)} ${op} ${sub(a, 1)})`;
    }
    case "div":
      // KQL integer division truncates like DuckDB's `//`; `/` would give a DOUBLE.
      return e.type === "long" || e.type === "int" ? `(${sub(a, 0)} // ${sub(a, 1)})` : `(${sub(a, 0)} / ${sub(a, 1)})`;
    case "mod":
      return `(${sub(a, 0)} % ${sub(a, 1)})`;
    case "neg":
      return `(- ${sub(a, 0)})`;
    case "dt_add":
      return `(${sub(a, 0)} + to_microseconds(${sub(a, 1)}))`;
    case "dt_sub":
      return `(${sub(a, 0)} - to_microseconds(${sub(a, 1)}))`;
    case "dt_diff":
      return `(epoch_us(${sub(a, 0)}) - epoch_us(${sub(a, 1)}))`;
    case "ts_mul":
      return `TRY_CAST(${sub(a, 0)} * ${sub(a, 1)} AS BIGINT)`;
    case "ts_div":
      return `TRY_CAST(trunc(${sub(a, 0)} / ${sub(a, 1)}) AS BIGINT)`;
    case "ts_ratio":
      return `(${sub(a, 0)} / ${sub(a, 1)})`;
    // ---- bin / floor ----
    case "bin_dt":
      return `time_bucket(to_microseconds(${sub(a, 1)}), ${sub(a, 0)})`;
    case "bin_dt_adx":
      // The size may be computed: a zero or negative one gives null instead of DuckDB's error.
      return `CASE WHEN ${sub(a, 1)} > 0 THEN time_bucket(to_microseconds(${sub(a, 1)}), ${sub(a, 0)}, ${ADX_ORIGIN}) END`;
    case "bin_num":
      return e.type === "real" ? `(floor(${sub(a, 0)} / ${sub(a, 1)}) * ${sub(a, 1)})` : `CAST(floor(${sub(a, 0)} / ${sub(a, 1)}) * ${sub(a, 1)} AS ${SQL_TYPES[e.type]})`;
    // ---- conversions ----
    case "to_double":
      return toDouble(a[0]!);
    case "to_long":
    case "to_int":
      return toInteger(a[0]!, node.op === "to_long" ? "BIGINT" : "INTEGER");
    case "to_string":
      return toText(a[0]!);
    case "to_datetime":
      return toDatetime(a[0]!);
    case "isnull":
      return isNull(a[0]!);
    case "isnotnull":
      return `(NOT ${isNull(a[0]!)})`;
    case "isempty":
      return isEmpty(a[0]!);
    case "isnotempty":
      return `(NOT ${isEmpty(a[0]!)})`;
    case "case": {
      const parts: string[] = [];
      for (let i = 0; i + 1 < a.length; i += 2) parts.push(`WHEN ${sub(a, i, true)} THEN ${sub(a, i + 1)}`);
      return `CASE ${parts.join(" ")} ELSE ${sub(a, a.length - 1)} END`;
    }
    case "strlen":
      return `length(${sub(a, 0)})`;
    case "tolower":
      return `lower(${sub(a, 0)})`;
    case "toupper":
      return `upper(${sub(a, 0)})`;
    case "abs":
      return `abs(${sub(a, 0)})`;
    case "round":
      return a.length > 1 ? `round(${sub(a, 0)}, CAST(${sub(a, 1)} AS INTEGER))` : `round(${sub(a, 0)})`;
    case "sqrt":
      return `CASE WHEN ${sub(a, 0)} >= 0 THEN sqrt(${sub(a, 0)}) END`;
    case "log":
      return `CASE WHEN ${sub(a, 0)} > 0 THEN ln(${sub(a, 0)}) END`;
    // ---- aggregates ----
    case "count":
      return "count(*)";
    case "countif":
      return `count(*) FILTER (WHERE ${sub(a, 0, true)})`;
    case "sum":
      return e.type === "real" ? `coalesce(sum(${sub(a, 0)}), 0)` : `TRY_CAST(coalesce(sum(${sub(a, 0)}), 0) AS BIGINT)`;
    case "avg":
      return `avg(${sub(a, 0)})`;
    case "min":
    case "max":
      return e.type === "string" ? `coalesce(${node.op}(${sub(a, 0)}), '')` : `${node.op}(${sub(a, 0)})`;
    case "dcount":
      return `count(DISTINCT ${sub(a, 0)})`;
    case "percentile":
      return `quantile_disc(${sub(a, 0)}, ${sub(a, 1)})`;
    case "any":
      return e.type === "string" ? `coalesce(any_value(${sub(a, 0)}), '')` : `any_value(${sub(a, 0)})`;
    case "make_list": {
      const item = a[0]!.type === "datetime" ? `strftime(${sub(a, 0)}, ${ISO_FORMAT})` : sub(a, 0);
      return `coalesce(to_json(list(${item}) FILTER (WHERE ${sub(a, 0)} IS NOT NULL)), CAST('[]' AS JSON))`;
    }
    case "arg_max":
    case "arg_min": {
      // The _null forms keep a row whose picked value is NULL (only a NULL key is skipped), as KQL does.
      const value = `${node.op}_null(${sub(a, 0)}, ${sub(a, 1)})`;
      return e.type === "string" ? `coalesce(${value}, '')` : value;
    }
    default:
      throw new Error(`DuckDB dialect: no rendering for '${node.op}'`);
  }
}

/** JSON path access on a json base: `json_extract_string(base, path)`; NULL when absent. */
function dynamicText(value: TExpr): string {
  if (value.node.op === "access") {
    const { base, path } = value.node as { base: TExpr; path: TExpr };
    return `json_extract_string(${expression(base, false)}, ${expression(path, false)})`;
  }
  if (value.dynamic === "double") return realText(expression(value, false));
  return `json_extract_string(${expression(value, false)}, '$')`;
}

function dynamicNumber(value: TExpr): string {
  if (value.dynamic === "double") return expression(value, false);
  return `TRY_CAST(${dynamicText(value)} AS DOUBLE)`;
}

function dynamicJson(value: TExpr): string {
  if (value.type !== "dynamic") {
    if (value.type === "datetime") return `to_json(strftime(${expression(value, false)}, ${ISO_FORMAT}))`;
    return `to_json(${expression(value, false)})`;
  }
  if (value.dynamic === "double") return `to_json(${expression(value, false)})`;
  return expression(value, false);
}

/** KQL prints whole reals without a fraction (`tostring(2.0)` is "2"). */
function realText(sql: string): string {
  return `CASE WHEN ${sql} = trunc(${sql}) AND abs(${sql}) < 1e15 THEN CAST(CAST(${sql} AS BIGINT) AS VARCHAR) ELSE CAST(${sql} AS VARCHAR) END`;
}

function toDouble(value: TExpr): string {
  const sql = expression(value, false);
  switch (value.type) {
    case "real":
      return sql;
    case "long":
    case "int":
      return `CAST(${sql} AS DOUBLE)`;
    case "bool":
      return `CAST(${sql} AS DOUBLE)`;
    case "string":
      return `TRY_CAST(${sql} AS DOUBLE)`;
    case "dynamic":
      return dynamicNumber(value);
    case "timespan":
      return `CAST(${sql} * 10 AS DOUBLE)`;
    case "datetime":
      return `CAST(NULL AS DOUBLE)`;
  }
}

/** KQL truncates toward zero (`tolong(2.7)` is 2); DuckDB's cast would round. */
function toInteger(value: TExpr, sqlType: "BIGINT" | "INTEGER"): string {
  const sql = expression(value, false);
  switch (value.type) {
    case "long":
    case "int":
      return value.type === (sqlType === "BIGINT" ? "long" : "int") ? sql : `TRY_CAST(${sql} AS ${sqlType})`;
    case "real":
      return `TRY_CAST(trunc(${sql}) AS ${sqlType})`;
    case "bool":
      return `CAST(${sql} AS ${sqlType})`;
    case "string":
      return `TRY_CAST(trunc(TRY_CAST(${sql} AS DOUBLE)) AS ${sqlType})`;
    case "dynamic":
      return `TRY_CAST(trunc(${dynamicNumber(value)}) AS ${sqlType})`;
    case "timespan":
      return `TRY_CAST(${sql} * 10 AS ${sqlType})`;
    case "datetime":
      // .NET ticks since 0001-01-01, as ADX's tolong(datetime).
      return `TRY_CAST(epoch_us(${sql}) * 10 + 621355968000000000 AS ${sqlType})`;
  }
}

function toText(value: TExpr): string {
  const sql = expression(value, false);
  switch (value.type) {
    case "string":
      return sql;
    case "long":
    case "int":
      return `coalesce(CAST(${sql} AS VARCHAR), '')`;
    case "real":
      return `coalesce(${realText(sql)}, '')`;
    case "bool":
      return `coalesce(CASE WHEN ${sql} THEN 'true' WHEN NOT ${sql} THEN 'false' END, '')`;
    case "datetime":
      return `coalesce(strftime(${sql}, ${ISO_FORMAT}), '')`;
    case "timespan":
      return `coalesce(${timespanText(sql)}, '')`;
    case "dynamic":
      return `coalesce(${dynamicText(value)}, '')`;
  }
}

/** ADX's timespan text `[-][d.]hh:mm:ss[.fffffff]` from BIGINT microseconds. */
function timespanText(sql: string): string {
  const abs = `abs(${sql})`;
  const two = (part: string) => `lpad(CAST(${part} AS VARCHAR), 2, '0')`;
  return (
    `(CASE WHEN ${sql} < 0 THEN '-' ELSE '' END` +
    ` || CASE WHEN ${abs} >= 86400000000 THEN CAST(${abs} // 86400000000 AS VARCHAR) || '.' ELSE '' END` +
    ` || ${two(`${abs} // 3600000000 % 24`)} || ':' || ${two(`${abs} // 60000000 % 60`)} || ':' || ${two(`${abs} // 1000000 % 60`)}` +
    ` || CASE WHEN ${abs} % 1000000 <> 0 THEN '.' || lpad(CAST(${abs} % 1000000 * 10 AS VARCHAR), 7, '0') ELSE '' END)`
  );
}

function toDatetime(value: TExpr): string {
  const sql = expression(value, false);
  switch (value.type) {
    case "datetime":
      return sql;
    case "string":
      return `TRY_CAST(${sql} AS TIMESTAMP)`;
    case "dynamic":
      return `TRY_CAST(${dynamicText(value)} AS TIMESTAMP)`;
    default:
      return `CAST(NULL AS TIMESTAMP)`;
  }
}

function isNull(value: TExpr): string {
  if (value.type === "string") return "false";
  if (value.type === "dynamic" && value.dynamic === "json") {
    if (value.node.op === "access") {
      const { base, path } = value.node as { base: TExpr; path: TExpr };
      return `coalesce(json_type(${expression(base, false)}, ${expression(path, false)}) = 'NULL', true)`;
    }
    return `coalesce(json_type(${expression(value, false)}) = 'NULL', true)`;
  }
  return `(${expression(value, false)} IS NULL)`;
}

function isEmpty(value: TExpr): string {
  if (value.type === "string") return `(${expression(value, false)} = '')`;
  if (value.type === "dynamic" && value.dynamic === "json") return `(coalesce(${dynamicText(value)}, '') = '')`;
  return `(${expression(value, false)} IS NULL)`;
}

function select(block: SelectBlock): string {
  const columns = block.columns.map((c) => `${expression(c.expr, false)} AS ${quoteIdentifier(c.alias)}`);
  let sql = `SELECT ${block.distinct ? "DISTINCT " : ""}${columns.join(", ")} FROM ${block.from}`;
  if (block.where.length) sql += ` WHERE ${block.where.map((w) => expression(w, true)).join(" AND ")}`;
  if (block.groupBy.length) {
    // Keys by position in the select list: DuckDB refuses a bare parameter as a GROUP BY expression (`by c = 5`).
    const keys = block.groupBy.map((g) => {
      const position = block.columns.findIndex((c) => c.expr === g);
      return position >= 0 ? String(position + 1) : expression(g, false);
    });
    sql += ` GROUP BY ${keys.join(", ")}`;
  }
  if (block.orderBy.length) {
    const keys = block.orderBy.map((k) => `${expression(k.expr, false)} ${k.desc ? "DESC" : "ASC"} NULLS ${k.nullsFirst ? "FIRST" : "LAST"}`);
    sql += ` ORDER BY ${keys.join(", ")}`;
  }
  if (block.limit) sql += ` LIMIT ${expression(block.limit, false)}`;
  return sql;
}

export const duckdbDialect: SqlDialect = {
  quoteIdentifier,
  subquery: (sql, alias) => `(${sql}) AS ${quoteIdentifier(alias)}`,
  select,
  expression,
};
