/**
 * KQL functions beyond the core of analyze.ts: date/time, strings, regexes, dynamic values, math,
 * series (arrays from make-series) and the further aggregations. Each entry checks arguments and
 * result types as ADX documents them and yields typed IR; the dialect spells the SQL.
 */
import type { Expr } from "../ast";
import type { Analyzer, Mode, Scope } from "../analyzer-api";
import { nameOf } from "../names";
import { VALUE_LIMITS, valueTooLarge } from "../budget";
import { KqlError } from "../errors";
import { isNumeric, type TExpr } from "../ir";
import type { KqlType } from "../types";
import { inSerialOrder, rowOrderCall } from "../rows";
import { seriesScalar } from "../series";

type Call = Extract<Expr, { kind: "call" }>;

const EXTENSION_SCALARS = [
  "startofday", "startofweek", "startofmonth", "startofyear", "endofday", "endofweek", "endofmonth", "endofyear",
  "datetime_part", "hourofday", "dayofweek", "dayofmonth", "dayofyear", "monthofyear", "getyear", "getmonth", "weekofyear",
  "format_datetime", "format_timespan", "bin_at", "totimespan", "totime", "tobool", "toboolean",
  "strcat", "strcat_delim", "split", "extract", "extract_all", "substring", "replace_string", "replace_regex", "trim", "trim_start",
  "trim_end", "parse_json", "todynamic", "toobject", "bag_keys", "array_length", "coalesce", "max_of", "min_of", "repeat", "toscalar", "series_stats", "series_stats_dynamic", "series_fir",
  "series_fill_forward", "series_fill_backward", "series_fill_linear", "series_fill_const", "reverse", "countof", "sign",
  "ceiling", "array_sum", "strrep", "pack_array", "bag_pack", "pack", "string_size", "gettype",
  "series_decompose", "series_decompose_anomalies", "series_decompose_forecast", "series_outliers", "series_fit_line", "series_fit_2lines", "series_fit_2lines_dynamic", "series_periods_detect",
  "prev", "next", "row_number", "row_cumsum", "row_window_session",
] as const;

/** Named in the error so the user knows what is missing (rather than "Unknown function"). */
const REFUSED: Record<string, string> = {
  hll: "hll() sketches are not supported; use dcount()",
  hll_merge: "hll_merge() is not supported; use dcount()",
  tdigest: "tdigest() sketches are not supported; use percentile() or percentiles()",
  tdigest_merge: "tdigest_merge() is not supported; use percentile() or percentiles()",
};

const DATE_PARTS = new Set(["year", "quarter", "month", "week_of_year", "week", "day", "dayofyear", "hour", "minute", "second", "millisecond", "microsecond", "nanosecond"]);

/** `series_stats(x)` → `series_stats_x_min`, … in this order (ADX). */
const SERIES_STATS = ["min", "min_idx", "max", "max_idx", "avg", "stdev", "variance"] as const;

export function multiResult(analyzer: Analyzer, ast: Expr, scope: Scope): { name: string; expr: TExpr }[] | undefined {
  if (ast.kind === "call" && (ast.name === "array_sort_asc" || ast.name === "array_sort_desc")) return sortedArrays(analyzer, ast, scope);
  if (ast.kind !== "call" || ast.name !== "series_stats") return undefined;
  if (ast.args.length !== 1) analyzer.error(ast.span, "series_stats() expects 1 argument");
  const series = seriesArg(analyzer, ast, 0, scope);
  const prefix = `series_stats_${nameOf(ast.args[0]!) ?? ""}`;
  return SERIES_STATS.map((stat) => ({
    name: `${prefix}_${stat}`,
    expr: analyzer.op(`series_${stat}`, [series], stat.endsWith("idx") ? "long" : "real", true),
  }));
}

/**
 * `array_sort_asc(a, b, …)` with several arrays gives a column per array, `a_sorted`, `b_sorted`, …
 * (Kusto.Language's names): element k of the declared function's array of rearranged arrays.
 */
function sortedArrays(analyzer: Analyzer, ast: Call, scope: Scope): { name: string; expr: TExpr }[] | undefined {
  if (ast.args.length < 2 || analyzer.analyze(ast.args[1]!, scope, "scalar").type === "bool") return undefined;
  return ast.args.map((arg, k) => ({
    name: `${nameOf(arg) ?? `array${k + 1}`}_sorted`,
    expr: analyzer.scalar({ kind: "member", target: ast, key: k, keySpan: ast.span, bracket: true, span: ast.span }, scope),
  }));
}

export function multiAggregate(analyzer: Analyzer, ast: Expr, scope: Scope): { name: string; expr: TExpr }[] | undefined {
  if (ast.kind === "call" && ast.name === "percentilesw") {
    // One weighted percentile per percentage: percentilew(x, Weight, P) each (sketches.ts).
    if (ast.args.length < 3) analyzer.error(ast.span, "percentilesw() expects a value, a weight and at least one percentage");
    return ast.args.slice(2).map((p) => {
      const expr = analyzer.analyze({ ...ast, name: "percentilew", args: [ast.args[0]!, ast.args[1]!, p] }, scope, "aggregate");
      return { name: expr.hint!, expr };
    });
  }
  if (ast.kind !== "call" || ast.name !== "percentiles") return undefined;
  if (ast.args.length < 2) analyzer.error(ast.span, "percentiles() expects a value and at least one percentage");
  const value = numeric(analyzer, ast, analyzer.analyze(ast.args[0]!, scope, "inAggregate"));
  const argName = nameOf(ast.args[0]!) ?? "";
  return ast.args.slice(1).map((p) => {
    const percent = percentage(analyzer, p);
    const fraction = analyzer.param("DOUBLE", percent / 100, "real");
    return { name: `percentile_${argName}_${String(percent).replace(/[.-]/g, "_")}`, expr: { ...analyzer.op("percentile", [value, fraction], value.type, true), aggregate: true } };
  });
}

function percentage(analyzer: Analyzer, p: Expr): number {
  // A literal, or a constant a name stands for (a let, or a function's parameter: invoke's docs example).
  const value = p.kind === "literal" ? p.value : p.kind === "column" ? boundConstant(analyzer, p) : undefined;
  if (typeof value !== "number" || value < 0 || value > 100) analyzer.error(p.span, "Percentiles must be constant percentages between 0 and 100");
  return value as number;
}

/** The constant a name is bound to; undefined for a row's column. */
function boundConstant(analyzer: Analyzer, p: Expr): number | string | boolean | undefined {
  try {
    return analyzer.constant(analyzer.scalar(p, new Map()));
  } catch (error) {
    if (error instanceof KqlError) return undefined;
    throw error;
  }
}

function numeric(analyzer: Analyzer, ast: Call, value: TExpr): TExpr {
  const v = value.type === "dynamic" ? analyzer.asNumber(value) : value;
  if (!isNumeric(v.type) && v.type !== "timespan" && v.type !== "datetime") analyzer.error(ast.span, `${ast.name}() needs numbers, not ${value.type}`);
  return v;
}

/** A dynamic array argument of the series functions. */
function seriesArg(analyzer: Analyzer, ast: Call, index: number, scope: Scope): TExpr {
  const value = analyzer.analyze(ast.args[index]!, scope, "scalar");
  if (value.type !== "dynamic") analyzer.error(ast.args[index]!.span, `${ast.name}() needs a dynamic array, not ${value.type}`);
  return analyzer.asJson(value);
}

/** A string literal argument (date parts, formats). */
function literalText(analyzer: Analyzer, ast: Call, index: number, what: string): string {
  const arg = ast.args[index];
  if (!arg || arg.kind !== "literal" || typeof arg.value !== "string") return analyzer.error(arg?.span ?? ast.span, `${ast.name}() needs ${what} as a string literal`);
  return arg.value;
}

/** A constant list of numbers: `dynamic([1, 2])` or `repeat(1, 5)` (series_fir's filter). */
function constantNumbers(analyzer: Analyzer, ast: Call, index: number): number[] {
  const arg = ast.args[index];
  if (arg?.kind === "literal" && arg.type === "dynamic") {
    const values = JSON.parse(arg.value as string) as unknown;
    if (Array.isArray(values) && values.length > 0 && values.length <= 1000 && values.every((v) => typeof v === "number")) return values as number[];
  }
  if (arg?.kind === "call" && arg.name === "repeat" && arg.args.length === 2) {
    const [v, n] = arg.args;
    if (v?.kind === "literal" && typeof v.value === "number" && n?.kind === "literal" && typeof n.value === "number" && n.value >= 1 && n.value <= 1000) return Array.from({ length: n.value }, () => v.value as number);
  }
  return analyzer.error(arg?.span ?? ast.span, `${ast.name}() needs a constant array of 1 to 1,000 numbers (dynamic([…]) or repeat(v, n))`);
}

export function callExtension(analyzer: Analyzer, ast: Call, scope: Scope, mode: Mode, aggregateOperands?: TExpr[], argName = ""): TExpr | undefined {
  const name = ast.name;
  if (REFUSED[name]) analyzer.error(ast.nameSpan, REFUSED[name]!);
  if (aggregateOperands) return aggregate(analyzer, ast, aggregateOperands, argName);
  const rowOrder = rowOrderCall(analyzer, ast, scope);
  if (rowOrder) return rowOrder;
  const series = seriesScalar(analyzer, ast, scope);
  if (series) return series;
  if (!(EXTENSION_SCALARS as readonly string[]).includes(name)) return undefined;
  if (name === "series_stats") analyzer.error(ast.span, "series_stats() yields several columns: use it alone in extend (extend series_stats(x)) or use series_stats_dynamic()");
  if (name === "toscalar") {
    const arg = ast.args[0];
    if (ast.args.length !== 1 || arg?.kind !== "subquery") return analyzer.error(ast.span, "toscalar() takes one tabular expression");
    return analyzer.analyze(arg, scope, mode);
  }
  const operands = ast.args.map((a, i) => (argIsLiteralOnly(name, i) ? undefined : analyzer.analyze(a, scope, mode)));
  const arity = (min: number, max = min) => {
    if (ast.star) analyzer.error(ast.span, `'*' is not an argument of ${name}()`);
    if (ast.args.length < min || ast.args.length > max) analyzer.error(ast.span, `${name}() expects ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? "" : "s"}, got ${ast.args.length}`);
  };
  const text = (i: number) => analyzer.asText(operands[i]!);
  const dt = (i: number) => {
    const v = operands[i]!;
    const value = v.type === "dynamic" || v.type === "string" ? analyzer.op("to_datetime", [v], "datetime", true) : v;
    if (value.type !== "datetime") analyzer.error(ast.args[i]!.span, `${name}() needs a datetime, not ${v.type}`);
    return value;
  };
  const num = (i: number) => analyzer.numericArg(ast, operands[i]!);
  const long = (i: number) => {
    const v = num(i);
    return v.type === "real" ? analyzer.op("to_long", [v], "long", true) : v;
  };
  const op = (o: string, args: TExpr[], type: KqlType, nullable = true) => analyzer.op(o, args, type, nullable);
  const json = (e: TExpr) => ({ ...e, dynamic: "json" as const });
  /** The arguments given, the i-th read as `kinds[i]` says (optional trailing ones left out). */
  const given = (...kinds: ((i: number) => TExpr)[]) => kinds.flatMap((kind, i) => (operands[i] ? [kind(i)] : []));
  switch (name) {
    case "startofday":
    case "startofweek":
    case "startofmonth":
    case "startofyear":
    case "endofday":
    case "endofweek":
    case "endofmonth":
    case "endofyear": {
      arity(1, 2);
      const offset = operands[1] ? long(1) : analyzer.param("BIGINT", 0, "long");
      return op(name, [dt(0), offset], "datetime");
    }
    case "datetime_part": {
      arity(2);
      const part = literalText(analyzer, ast, 0, "a part name").toLowerCase();
      if (!DATE_PARTS.has(part)) analyzer.error(ast.args[0]!.span, `Unknown datetime part '${part}'`);
      return op(`dt_part:${part === "week" ? "week_of_year" : part}`, [dt(1)], "int");
    }
    case "hourofday":
    case "dayofmonth":
    case "dayofyear":
    case "monthofyear":
    case "getmonth":
    case "weekofyear":
      arity(1);
      return op(name === "getmonth" ? "monthofyear" : name, [dt(0)], "int");
    case "getyear":
      arity(1);
      return op("getyear", [dt(0)], "int");
    case "dayofweek":
      arity(1);
      return op("dayofweek", [dt(0)], "timespan");
    case "format_datetime": {
      arity(2);
      const format = strftimeFormat(analyzer, ast, literalText(analyzer, ast, 1, "a format"));
      return op("format_datetime", [dt(0), analyzer.param("VARCHAR", format, "string")], "string", false);
    }
    case "format_timespan": {
      arity(2);
      const value = operands[0]!;
      if (value.type !== "timespan") analyzer.error(ast.args[0]!.span, `format_timespan() needs a timespan, not ${value.type}`);
      const parts = timespanFormat(analyzer, ast, literalText(analyzer, ast, 1, "a format"));
      const pieces = parts.map((p) => (p.startsWith("'") ? analyzer.param("VARCHAR", p.slice(1), "string") : op(`ts_part:${p}`, [value], "string", false)));
      return op("coalesce_empty", [op("strcat", pieces, "string", true)], "string", false);
    }
    case "bin_at": {
      arity(3);
      const [value, size, at] = operands as TExpr[];
      const v = value!.type === "dynamic" ? analyzer.asNumber(value!) : value!;
      if (v.type === "datetime" && size!.type === "timespan" && at!.type === "datetime") return { ...op("bin_at_dt", [v, size!, at!], "datetime"), hint: nameOf(ast.args[0]!) };
      if (isNumeric(v.type) && isNumeric(size!.type) && isNumeric(at!.type)) return { ...op("bin_at_num", [v, size!, at!], v.type === "real" || size!.type === "real" || at!.type === "real" ? "real" : "long"), hint: nameOf(ast.args[0]!) };
      if (v.type === "timespan" && size!.type === "timespan" && at!.type === "timespan") return { ...op("bin_at_num", [v, size!, at!], "timespan"), hint: nameOf(ast.args[0]!) };
      return analyzer.error(ast.span, `bin_at() cannot bin a ${v.type} by a ${size!.type} at a ${at!.type}`);
    }
    case "totimespan":
    case "totime":
      arity(1);
      return { ...analyzer.convert(operands[0]!, "timespan", ast.span), hint: nameOf(ast.args[0]!) };
    case "tobool":
    case "toboolean":
      arity(1);
      return { ...analyzer.convert(operands[0]!, "bool", ast.span), hint: nameOf(ast.args[0]!) };
    case "strcat":
      if (ast.args.length < 1 || ast.args.length > 64) analyzer.error(ast.span, "strcat() expects 1 to 64 arguments");
      return bounded(analyzer, ast, op("strcat", operands.map((_, i) => text(i)), "string", false));
    case "strcat_delim":
      if (ast.args.length < 3 || ast.args.length > 65) analyzer.error(ast.span, "strcat_delim() expects a delimiter and 2 to 64 values");
      return bounded(analyzer, ast, op("strcat_delim", operands.map((_, i) => text(i)), "string", false));
    case "split":
      arity(2, 3);
      return json(op(operands[2] ? "split_at" : "split", given(text, text, long), "dynamic"));
    case "extract": {
      arity(3, 4);
      const regex = regexArg(analyzer, ast, 0, operands[0]!);
      const group = long(1);
      const value = op("regex_extract", [text(2), regex, group], "string", false);
      if (ast.args[3]) {
        const target = typeofArg(analyzer, ast.args[3]);
        return analyzer.convert(op("empty_to_null", [value], "string"), target, ast.span);
      }
      return value;
    }
    case "extract_all": {
      arity(2, 3);
      if (ast.args.length === 3) analyzer.error(ast.span, "extract_all() with capture group numbers is not supported");
      const regex = regexArg(analyzer, ast, 0, operands[0]!);
      const pattern = ast.args[0]!;
      const groups = pattern.kind === "literal" && typeof pattern.value === "string" ? (pattern.value.match(/(^|[^\\])\((?!\?)/g) ?? []).length : 0;
      if (groups > 1) analyzer.error(pattern.span, "extract_all() with several capture groups is not supported");
      return json(op("regex_extract_all", [text(1), regex, analyzer.param("BIGINT", groups, "long")], "dynamic"));
    }
    case "substring":
      arity(2, 3);
      return op("substring", given(text, long, long), "string", false);
    case "replace_string":
      arity(3);
      return op("replace_string", [text(0), text(1), text(2)], "string", false);
    case "replace_regex":
      arity(3);
      return op("replace_regex", [text(0), regexArg(analyzer, ast, 1, operands[1]!), text(2)], "string", false);
    case "trim":
    case "trim_start":
    case "trim_end":
      arity(2);
      return op(name, [regexArg(analyzer, ast, 0, operands[0]!), text(1)], "string", false);
    case "countof":
      arity(2);
      return op("countof", [text(0), text(1)], "long", false);
    case "reverse":
      arity(1);
      return op("reverse", [text(0)], "string", false);
    case "strrep":
      arity(2, 3);
      return bounded(analyzer, ast, op("strrep", given(text, long, text), "string", false));
    case "string_size":
      arity(1);
      return op("string_size", [text(0)], "long", false);
    case "parse_json":
    case "todynamic":
    case "toobject": {
      arity(1);
      const v = operands[0]!;
      if (v.type === "dynamic") return v;
      return json(op(v.type === "string" ? "parse_json" : "dyn_json", [v], "dynamic"));
    }
    case "bag_keys":
      arity(1);
      return json(op("bag_keys", [analyzer.asJson(operands[0]!)], "dynamic"));
    case "array_length":
      arity(1);
      return op("array_length", [analyzer.asJson(operands[0]!)], "long");
    case "array_sum":
      arity(1);
      return op("series_sum", [analyzer.asJson(operands[0]!)], "real");
    case "pack_array":
      if (!operands.length || operands.length > 64) analyzer.error(ast.span, "pack_array() expects 1 to 64 arguments");
      return json(op("pack_array", operands.map((o) => analyzer.asJson(o!)), "dynamic", false));
    case "bag_pack":
    case "pack": {
      if (!operands.length || operands.length % 2 !== 0 || operands.length > 128) analyzer.error(ast.span, `${name}() expects key/value pairs`);
      return json(op("bag_pack", operands.map((o, i) => (i % 2 === 0 ? analyzer.asText(o!) : analyzer.asJson(o!))), "dynamic", false));
    }
    case "gettype":
      arity(1);
      return op("gettype", [operands[0]!], "string", false);
    case "coalesce": {
      if (operands.length < 2 || operands.length > 64) analyzer.error(ast.span, "coalesce() expects 2 to 64 arguments");
      const type = analyzer.commonType(ast, operands as TExpr[]);
      const values = (operands as TExpr[]).map((v) => analyzer.convertTo(v, type));
      const result = op(type === "string" ? "coalesce_str" : "coalesce", values, type, type !== "string" && values.every((v) => v.nullable));
      return type === "dynamic" ? json(result) : result;
    }
    case "max_of":
    case "min_of": {
      if (operands.length < 2 || operands.length > 64) analyzer.error(ast.span, `${name}() expects 2 to 64 arguments`);
      const values = (operands as TExpr[]).map((v) => (v.type === "dynamic" ? analyzer.asNumber(v) : v));
      const type = analyzer.commonType(ast, values);
      if (type === "bool" || type === "dynamic") analyzer.error(ast.span, `${name}() cannot compare ${type} values`);
      return op(name === "max_of" ? "greatest" : "least", values.map((v) => analyzer.convertTo(v, type)), type, values.every((v) => v.nullable));
    }
    case "sign":
      arity(1);
      return op("sign", [analyzer.convertTo(num(0), "real")], "real");
    case "ceiling": {
      arity(1);
      const v = num(0);
      return op("ceiling", [v], v.type);
    }
    case "repeat": {
      arity(2);
      const count = ast.args[1]!;
      if (count.kind !== "literal" || typeof count.value !== "number" || count.value < 0 || count.value > 100_000) analyzer.error(count.span, "repeat() needs a constant count between 0 and 100,000");
      return json(op("repeat", [analyzer.asJson(operands[0]!), operands[1]!], "dynamic", false));
    }
    case "series_stats_dynamic":
      arity(1);
      return json(op("series_stats_dynamic", [seriesArg(analyzer, ast, 0, scope)], "dynamic"));
    case "series_fir": {
      arity(2, 4);
      const filter = constantNumbers(analyzer, ast, 1);
      const flag = (i: number, fallback: boolean) => {
        const arg = ast.args[i];
        if (!arg) return fallback;
        if (arg.kind !== "literal" || typeof arg.value !== "boolean") analyzer.error(arg.span, `${name}() needs true or false here`);
        return arg.value as boolean;
      };
      const normalize = flag(2, true);
      const center = flag(3, false);
      const total = filter.reduce((a, b) => a + b, 0);
      const weights = filter.map((w) => analyzer.param("DOUBLE", normalize && total !== 0 ? w / total : w, "real"));
      const shift = analyzer.param("BIGINT", center ? Math.floor(filter.length / 2) : 0, "long");
      return json(op("series_fir", [seriesArg(analyzer, ast, 0, scope), shift, ...weights], "dynamic"));
    }
    case "series_fill_forward":
    case "series_fill_backward":
    case "series_fill_linear": {
      arity(1, 2);
      if (ast.args[1] && !(ast.args[1].kind === "literal" && ast.args[1].value === null)) analyzer.error(ast.args[1].span, `${name}() only fills nulls (its missing-value placeholder must be null)`);
      return json(op(name, [seriesArg(analyzer, ast, 0, scope)], "dynamic"));
    }
    case "series_fill_const": {
      arity(2, 3);
      const value = num(1);
      return json(op("series_fill_const", [seriesArg(analyzer, ast, 0, scope), analyzer.convertTo(value, "real")], "dynamic"));
    }
    default:
      return undefined;
  }
}

/**
 * A string builder's result, refused at `ast` when the string it would build is known to pass
 * VALUE_LIMITS.stringBytes (the dialects check the same at run time when the sizes depend on data).
 */
function bounded(analyzer: Analyzer, ast: Call, built: TExpr): TExpr {
  const bytes = maxBytes(analyzer, built);
  if (bytes !== undefined && bytes > VALUE_LIMITS.stringBytes) analyzer.error(ast.span, valueTooLarge(ast.name, bytes));
  return built;
}

const utf8 = new TextEncoder();

/** maxBytes by node: a shared sub-tree (a `let` name used twice) is measured once. */
const measured = new WeakMap<object, number | undefined>();

/** The byte length a string expression has at most, when the compiler can tell (literals and builders of them). */
function maxBytes(analyzer: Analyzer, e: TExpr): number | undefined {
  if (measured.has(e.node)) return measured.get(e.node);
  const bytes = measure(analyzer, e);
  measured.set(e.node, bytes);
  return bytes;
}

function measure(analyzer: Analyzer, e: TExpr): number | undefined {
  const node = e.node;
  if (node.op === "param") {
    const value = analyzer.constant(e);
    return typeof value === "string" ? utf8.encode(value).length : undefined;
  }
  if (!("args" in node)) return undefined;
  const sizes = node.args.map((x) => (x.type === "string" ? maxBytes(analyzer, x) : undefined));
  const known = (xs: (number | undefined)[]) => (xs.every((x) => x !== undefined) ? (xs as number[]) : undefined);
  switch (node.op) {
    case "strcat":
      return known(sizes)?.reduce((a, b) => a + b, 0);
    case "strcat_delim": {
      const all = known(sizes);
      return all && all.slice(1).reduce((a, b) => a + b, 0) + all[0]! * (all.length - 2);
    }
    case "strrep": {
      const times = analyzer.constant(node.args[1]!);
      const [text, , delimiter = 0] = sizes;
      if (typeof times !== "number" || text === undefined || delimiter === undefined) return undefined;
      const count = Math.min(Math.max(times, 0), 1024);
      return text * count + delimiter * Math.max(count - 1, 0);
    }
    default:
      return undefined;
  }
}

/** Arguments read as literals only (their text, not a value): datetime_part's part, formats. */
function argIsLiteralOnly(name: string, index: number): boolean {
  return (index === 0 && name === "datetime_part") || (index === 1 && (name === "format_datetime" || name === "format_timespan")) || (index === 3 && name === "extract") || ((name === "series_fir" && index === 1) || (name.startsWith("series_fill") && index === 1 && name !== "series_fill_const"));
}

function typeofArg(analyzer: Analyzer, arg: Expr): KqlType {
  if (arg.kind !== "call" || arg.name !== "typeof" || arg.args.length !== 1 || arg.args[0]!.kind !== "column") return analyzer.error(arg.span, "Expected typeof(type)");
  const name = arg.args[0] as { name: string; span: Expr["span"] };
  return analyzer.typeName({ text: name.name, span: name.span });
}

function regexArg(analyzer: Analyzer, ast: Call, index: number, value: TExpr): TExpr {
  const arg = ast.args[index]!;
  if (arg.kind === "literal" && typeof arg.value === "string") analyzer.checkRegex(arg.value, arg.span);
  return analyzer.asText(value);
}

/** .NET datetime format → strftime (the subset ADX documents for format_datetime). */
function strftimeFormat(analyzer: Analyzer, ast: Call, format: string): string {
  const tokens: [string, string][] = [
    ["yyyy", "%Y"], ["yy", "%y"], ["MM", "%m"], ["M", "%-m"], ["dd", "%d"], ["d", "%-d"], ["HH", "%H"], ["H", "%-H"],
    ["hh", "%I"], ["h", "%-I"], ["mm", "%M"], ["m", "%-M"], ["ss", "%S"], ["s", "%-S"], ["fffffff", "%f0"], ["ffffff", "%f"],
    ["fff", "%g"], ["tt", "%p"],
  ];
  let out = "";
  for (let i = 0; i < format.length; ) {
    const match = tokens.find(([t]) => format.startsWith(t, i));
    if (match) {
      out += match[1];
      i += match[0].length;
      continue;
    }
    const c = format[i]!;
    if (/[a-zA-Z]/.test(c)) analyzer.error(ast.args[1]!.span, `format_datetime() does not support the format specifier '${c}'`);
    out += c === "%" ? "%%" : c;
    i++;
  }
  return out;
}

/** format_timespan's format as pieces: `d`, `hh`, `mm`, `ss`, `f…` (fraction digits) and literal text (`'…'` prefixed). */
function timespanFormat(analyzer: Analyzer, ast: Call, format: string): string[] {
  const parts: string[] = [];
  const specifiers = ["dddddddd", "ddddddd", "dddddd", "ddddd", "dddd", "ddd", "dd", "d", "hh", "h", "HH", "H", "mm", "m", "ss", "s", "fffffff", "ffffff", "fffff", "ffff", "fff", "ff", "f"];
  for (let i = 0; i < format.length; ) {
    const match = specifiers.find((t) => format.startsWith(t, i));
    if (match) {
      parts.push(match);
      i += match.length;
      continue;
    }
    const c = format[i]!;
    if (/[a-zA-Z]/.test(c)) analyzer.error(ast.args[1]!.span, `format_timespan() does not support the format specifier '${c}'`);
    parts.push(`'${c}`);
    i++;
  }
  return parts;
}

function aggregate(analyzer: Analyzer, ast: Call, operands: TExpr[], argName: string): TExpr | undefined {
  const name = ast.name;
  const arity = (min: number, max = min) => {
    if (operands.length < min || operands.length > max || ast.star) analyzer.error(ast.span, `${name}() expects ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? "" : "s"}`);
  };
  const predicate = (i: number) => {
    const p = operands[i]!;
    if (p.type !== "bool") analyzer.error(ast.args[i]!.span, `${name}() needs a boolean condition, not ${p.type}`);
    return p;
  };
  const agg = (op: string, args: TExpr[], type: KqlType, nullable: boolean, hint: string, dynamic = false): TExpr => ({
    ...analyzer.op(op, args, type, nullable, hint),
    aggregate: true,
    dynamic: type === "dynamic" ? (dynamic ? "json" : (args[0]?.dynamic ?? "json")) : undefined,
  });
  const a = operands[0];
  switch (name) {
    case "percentiles":
    case "percentilesw":
      return analyzer.error(ast.span, `${name}() yields several columns: use it as a whole summarize item`);
    case "percentiles_array": {
      if (operands.length < 2) analyzer.error(ast.span, "percentiles_array() expects a value and at least one percentage");
      const value = numeric(analyzer, ast, a!);
      const fractions = ast.args.slice(1).map((p) => analyzer.param("DOUBLE", percentage(analyzer, p) / 100, "real"));
      return agg("percentiles_array", [value, ...fractions], "dynamic", false, `percentiles_${argName}`, true);
    }
    case "stdev":
    case "stdevp":
    case "variance":
    case "variancep":
      arity(1);
      return agg(name, [numeric(analyzer, ast, a!)], "real", true, `${name}_${argName}`);
    case "stdevif":
    case "varianceif":
      arity(2);
      return agg(name.slice(0, -2), [numeric(analyzer, ast, a!), predicate(1)], "real", true, `${name}_${argName}`);
    case "sumif": {
      arity(2);
      const v = numeric(analyzer, ast, a!);
      return agg("sumif", [v, predicate(1)], v.type === "int" ? "long" : v.type, false, `sumif_${argName}`);
    }
    case "avgif":
      arity(2);
      return agg("avgif", [numeric(analyzer, ast, a!), predicate(1)], "real", true, `avgif_${argName}`);
    case "minif":
    case "maxif": {
      arity(2);
      const v = a!.type === "dynamic" ? analyzer.asNumber(a!) : a!;
      return agg(name, [v, predicate(1)], v.type, v.type !== "string", `${name}_${argName}`);
    }
    case "dcountif": {
      arity(2, 3);
      const v = a!.type === "dynamic" ? analyzer.op("dyn_str", [a!], "string", true) : a!;
      return agg("dcountif", [v, predicate(1)], "long", false, `dcountif_${argName}`);
    }
    case "count_distinct":
      arity(1);
      return agg("dcount", [a!.type === "dynamic" ? analyzer.op("dyn_str", [a!], "string", true) : a!], "long", false, `count_distinct_${argName}`);
    case "count_distinctif":
      arity(2);
      return agg("dcountif", [a!.type === "dynamic" ? analyzer.op("dyn_str", [a!], "string", true) : a!, predicate(1)], "long", false, `count_distinctif_${argName}`);
    case "take_any":
    case "take_anyif":
    case "anyif": {
      const conditional = name !== "take_any";
      arity(conditional ? 2 : 1);
      // take_any keeps its argument's name (as Kusto.Language names it); take_anyif/anyif are prefixed.
      return { ...agg(conditional ? "anyif" : "any", conditional ? [a!, predicate(1)] : [a!], a!.type, a!.type !== "string", name === "take_any" ? argName : `anyif_${argName}`), dynamic: a!.dynamic };
    }
    case "make_set":
    case "make_set_if":
    case "make_list_if": {
      const conditional = name.endsWith("_if");
      arity(conditional ? 2 : 1, conditional ? 3 : 2);
      const value = a!.type === "dynamic" ? analyzer.asJson(a!) : a!;
      const sizeIndex = conditional ? 2 : 1;
      const size = operands[sizeIndex] ? [analyzer.sizeArg(ast, sizeIndex)] : [];
      const op = name.startsWith("make_set") ? "make_set" : "make_list";
      const hint = name === "make_set" ? `set_${argName}` : name === "make_set_if" ? `set_${argName}` : `list_${argName}`;
      const list = agg(conditional ? `${op}_if` : op, conditional ? [value, predicate(1), ...size] : [value, ...size], "dynamic", false, hint, true);
      // A set's order is not defined (ADX); a list's follows a sorted input.
      return op === "make_list" ? inSerialOrder(analyzer, list) : list;
    }
    case "make_bag":
    case "make_bag_if": {
      const conditional = name === "make_bag_if";
      arity(conditional ? 2 : 1, conditional ? 3 : 2);
      if (a!.type !== "dynamic") analyzer.error(ast.span, `${name}() needs a dynamic property bag, not ${a!.type}`);
      // Named after its argument only when that is a column (Kusto.Language: make_bag(bag_pack(…)) is bag_).
      return agg("make_bag", [analyzer.asJson(a!), ...(conditional ? [predicate(1)] : [])], "dynamic", false, `bag_${nameOf(ast.args[0]!) ?? ""}`, true);
    }
    case "make_list_with_nulls": {
      arity(1);
      // Every row's value, a null one as null (make_list leaves nulls out).
      const value = a!.type === "dynamic" ? analyzer.asJson(a!) : a!;
      return inSerialOrder(analyzer, agg("make_list_with_nulls", [value], "dynamic", false, `list_${argName}`, true));
    }
    default:
      return undefined;
  }
}
