/**
 * One-line documentation of every tabular operator and function the engine supports, for the
 * editor's completion details and hover. Pure data (the browser uses it).
 */
export const OPERATOR_DOCS: Record<string, string> = {
  where: "where Predicate — keep the rows where the predicate is true; where * has \"x\" looks in every column",
  search: "search [kind=case_sensitive] \"term\" | Col:\"term\" | \"pre*\" … — rows with the term in any column, with $table",
  project: "project Col, Name = Expr, (a, b) = f(…), … — choose and compute columns",
  "project-away": "project-away Col, Prefix*, … — drop columns",
  "project-keep": "project-keep Col, Prefix*, … — keep only these columns, in input order",
  "project-rename": "project-rename New = Old, … — rename columns",
  "project-reorder": "project-reorder Col [asc|desc|granny-asc|granny-desc], … — move columns to the front",
  extend: "extend Name = Expr, … — add computed columns",
  serialize: "serialize [Name = Expr, …] — mark the rows serialized (for prev, next, row_number, row_cumsum)",
  summarize: "summarize Agg(…), … by Col, bin(Timestamp, 1h) — aggregate groups of rows",
  "order by": "order by Col [asc|desc] [nulls first|last] — sort (default desc)",
  "sort by": "sort by Col [asc|desc] [nulls first|last] — sort (default desc)",
  top: "top N by Col [asc|desc] — the first N rows by a sort order",
  "top-nested": "top-nested N of Col by Agg(…), top-nested … — hierarchical top N",
  take: "take N — N rows (any N)",
  limit: "limit N — N rows (any N)",
  sample: "sample N — N random rows",
  distinct: "distinct Col, … | * — unique rows",
  count: "count — the number of rows (column Count)",
  join: "join kind=innerunique|inner|leftouter|rightouter|fullouter|leftsemi|leftanti|rightsemi|rightanti (T) on Col, $left.a == $right.b",
  lookup: "lookup kind=leftouter|inner (T) on Col — extend rows with a dimension table's columns",
  union: "union [kind=outer|inner] [withsource=Col] T1, (T2 | …) — rows of several tables",
  "make-series": "make-series Agg(…) default=0 on Timestamp from Start to End step 1h by Col — arrays per group",
  "mv-expand": "mv-expand [with_itemindex=i] Col [to typeof(T)] [limit N] — one row per array element",
  parse: "parse [kind=regex] Col with \"text\" Name:type \"text\" * — extract columns from text",
  as: "as Name — name the rows so far for later use in the query",
  getschema: "getschema — the columns (ColumnName, ColumnOrdinal, DataType, ColumnType)",
  render: "render timechart|barchart|… [with (title=…)] — chart hint, last operator",
};

/** Sources and statements that start a query. */
export const STATEMENT_DOCS: Record<string, string> = {
  let: "let Name = Expr | Table | (a: type) { … }; — bind a value, a query or a function",
  union: "union [withsource=Col] T1, T2 — rows of several tables",
  search: "search [kind=case_sensitive] [in (States, Events)] \"term\" — rows of every table with the term in any column, with $table",
  print: "print Name = Expr, … — one row of values",
  range: "range x from Start to Stop step Step — a column of values",
  datatable: "datatable (a: long, b: string) [1, \"x\", …] — literal rows",
};

export const FUNCTION_DOCS: Record<string, string> = {
  // aggregations
  count: "count(): long — rows", countif: "countif(Predicate): long", sum: "sum(x)", sumif: "sumif(x, Predicate)", avg: "avg(x): real", avgif: "avgif(x, Predicate): real",
  min: "min(x)", max: "max(x)", minif: "minif(x, Predicate)", maxif: "maxif(x, Predicate)", dcount: "dcount(x): long — distinct values", dcountif: "dcountif(x, Predicate): long",
  count_distinct: "count_distinct(x): long — exact distinct count", count_distinctif: "count_distinctif(x, Predicate): long",
  percentile: "percentile(x, P): the P-th percentile (nearest rank)", percentiles: "percentiles(x, P1, P2, …): one column per percentile",
  percentiles_array: "percentiles_array(x, P1, P2, …): dynamic array", stdev: "stdev(x): real — sample standard deviation", stdevp: "stdevp(x): real — population standard deviation",
  stdevif: "stdevif(x, Predicate): real", variance: "variance(x): real — sample variance", variancep: "variancep(x): real — population variance", varianceif: "varianceif(x, Predicate): real",
  arg_max: "arg_max(Key, Col… | *): the row with the largest key", arg_min: "arg_min(Key, Col… | *): the row with the smallest key",
  any: "any(x): any value", take_any: "take_any(x): any value", take_anyif: "take_anyif(x, Predicate)", anyif: "anyif(x, Predicate)",
  make_list: "make_list(x [, MaxSize]): dynamic array — in the order of a sorted input", make_list_if: "make_list_if(x, Predicate [, MaxSize]): dynamic array",
  make_set: "make_set(x [, MaxSize]): dynamic array of distinct values", make_set_if: "make_set_if(x, Predicate [, MaxSize])", make_bag: "make_bag(Bag): dynamic — properties merged",
  // scalars
  ago: "ago(Timespan): datetime — now minus the span", now: "now([Offset]): datetime", bin: "bin(x, Size) — round down to a multiple of Size", floor: "floor(x, Size) — as bin()",
  bin_at: "bin_at(x, Size, FixedPoint) — bins aligned to a fixed point", todouble: "todouble(x): real", toreal: "toreal(x): real", tolong: "tolong(x): long", toint: "toint(x): int",
  tostring: "tostring(x): string", todatetime: "todatetime(x): datetime", totimespan: "totimespan(x): timespan", totime: "totime(x): timespan", tobool: "tobool(x): bool", toboolean: "toboolean(x): bool",
  isnull: "isnull(x): bool", isnotnull: "isnotnull(x): bool", isempty: "isempty(x): bool — null or empty string", isnotempty: "isnotempty(x): bool",
  iff: "iff(Predicate, Then, Else)", iif: "iif(Predicate, Then, Else)", case: "case(P1, V1, P2, V2, …, Else)", not: "not(Predicate): bool",
  strlen: "strlen(s): long — characters", string_size: "string_size(s): long — bytes", tolower: "tolower(s): string", toupper: "toupper(s): string",
  abs: "abs(x)", round: "round(x [, Digits])", sqrt: "sqrt(x): real", log: "log(x): real — natural", log10: "log10(x): real", log2: "log2(x): real", exp: "exp(x): real", exp2: "exp2(x): real", exp10: "exp10(x): real",
  pow: "pow(Base, Exponent): real", sign: "sign(x): real — -1, 0 or 1", ceiling: "ceiling(x)", isnan: "isnan(x): bool", isfinite: "isfinite(x): bool",
  max_of: "max_of(a, b, …) — the largest (nulls ignored)", min_of: "min_of(a, b, …) — the smallest (nulls ignored)", coalesce: "coalesce(a, b, …) — the first non-null (non-empty string)",
  hash: "hash(x [, Mod]): long — a hash (values differ from ADX's xxhash64)",
  startofday: "startofday(t [, Offset]): datetime", startofweek: "startofweek(t [, Offset]): datetime — weeks start on Sunday", startofmonth: "startofmonth(t [, Offset]): datetime", startofyear: "startofyear(t [, Offset]): datetime",
  endofday: "endofday(t [, Offset]): datetime", endofweek: "endofweek(t [, Offset]): datetime", endofmonth: "endofmonth(t [, Offset]): datetime", endofyear: "endofyear(t [, Offset]): datetime",
  datetime_part: "datetime_part(\"Part\", t): int — year, quarter, month, week_of_year, day, dayofyear, hour, minute, second, millisecond, …",
  datetime_add: "datetime_add(\"Part\", Amount, t): datetime", datetime_diff: "datetime_diff(\"Part\", t1, t2): long — periods from t2 to t1",
  hourofday: "hourofday(t): int", dayofweek: "dayofweek(t): timespan — days since Sunday", dayofmonth: "dayofmonth(t): int", dayofyear: "dayofyear(t): int", monthofyear: "monthofyear(t): int",
  getmonth: "getmonth(t): int", getyear: "getyear(t): int", weekofyear: "weekofyear(t): int — ISO 8601 week",
  format_datetime: "format_datetime(t, \"yyyy-MM-dd HH:mm:ss.fff\"): string", format_timespan: "format_timespan(ts, \"d.hh:mm:ss\"): string",
  strcat: "strcat(a, b, …): string", strcat_delim: "strcat_delim(Delimiter, a, b, …): string", split: "split(s, Delimiter [, Index]): dynamic array",
  extract: "extract(Regex, Group, s [, typeof(T)])", extract_all: "extract_all(Regex, s): dynamic array", substring: "substring(s, Start [, Length]): string",
  replace_string: "replace_string(s, Lookup, Rewrite): string", replace_regex: "replace_regex(s, Regex, Rewrite): string", trim: "trim(Regex, s): string",
  trim_start: "trim_start(Regex, s): string", trim_end: "trim_end(Regex, s): string", indexof: "indexof(s, Lookup [, Start]): long (-1 if absent)", countof: "countof(s, Lookup): long",
  reverse: "reverse(s): string", strrep: "strrep(s, N [, Delimiter]): string", parse_json: "parse_json(s): dynamic", todynamic: "todynamic(s): dynamic", toobject: "toobject(s): dynamic",
  bag_keys: "bag_keys(Bag): dynamic array", bag_pack: "bag_pack(Key, Value, …): dynamic", pack: "pack(Key, Value, …): dynamic", pack_array: "pack_array(a, b, …): dynamic",
  array_length: "array_length(Array): long", array_sum: "array_sum(Array): real", gettype: "gettype(x): string", repeat: "repeat(Value, Count): dynamic array",
  toscalar: "toscalar(T | …): the first value of a query",
  series_stats: "series_stats(Series): columns _min, _min_idx, _max, _max_idx, _avg, _stdev, _variance", series_stats_dynamic: "series_stats_dynamic(Series): dynamic bag of statistics",
  series_fir: "series_fir(Series, Filter [, Normalize, Center]): dynamic — e.g. moving average series_fir(x, repeat(1, 5), true, true)",
  series_fill_forward: "series_fill_forward(Series): dynamic — nulls take the previous value", series_fill_backward: "series_fill_backward(Series): dynamic — nulls take the next value",
  series_fill_linear: "series_fill_linear(Series): dynamic — nulls interpolated", series_fill_const: "series_fill_const(Series, Value): dynamic",
  series_decompose: "series_decompose(Series [, Seasonality=-1, Trend='avg', Test_points=0, Seasonality_threshold=0.6]): columns baseline, seasonal, trend, residual",
  series_decompose_anomalies:
    "series_decompose_anomalies(Series [, Threshold=1.5, Seasonality=-1, Trend='avg', Test_points=0, AD_method='ctukey', Seasonality_threshold=0.6]): columns ad_flag (+1/-1/0), ad_score, baseline — e.g. extend (flag, score, baseline) = series_decompose_anomalies(y)",
  series_decompose_forecast: "series_decompose_forecast(Series, Points [, Seasonality=-1, Trend='linefit', Seasonality_threshold=0.6]): the baseline with the last Points forecast (then seasonal, trend, residual)",
  series_outliers: "series_outliers(Series [, Kind='ctukey', Ignore_val, Min_percentile=10, Max_percentile=90]): dynamic — Tukey fence scores (> 1.5 a rise, < -1.5 a drop)",
  series_fit_line: "series_fit_line(Series): columns rsquare, slope, variance, rvariance, interception, line_fit",
  series_fit_2lines:
    "series_fit_2lines(Series): columns rsquare, split_idx, variance, rvariance, line_fit, then right_ and left_ rsquare, slope, interception, variance, rvariance — the best split into two lines, e.g. extend (rs, si) = series_fit_2lines(y)",
  series_periods_detect: "series_periods_detect(Series, Min_period, Max_period, Num_periods): columns periods, scores — by autocorrelation",
  prev: "prev(Column [, Offset=1, Default]): the value Offset rows earlier in a serialized row set (after sort, top or serialize)",
  next: "next(Column [, Offset=1, Default]): the value Offset rows later in a serialized row set",
  row_number: "row_number([Start=1]): the row's position in a serialized row set",
  row_cumsum: "row_cumsum(Term): running sum over a serialized row set",
};

/** Words that start a query or a statement, for completion at the start. */
export const STATEMENT_WORDS = Object.keys(STATEMENT_DOCS);

/** The documentation of the word at `offset` (an operator after `|`, or a function before `(`). */
export function hoverAt(text: string, offset: number): { from: number; to: number; text: string } | null {
  let from = offset;
  let to = offset;
  const word = /[A-Za-z0-9_-]/;
  while (from > 0 && word.test(text[from - 1]!)) from--;
  while (to < text.length && word.test(text[to]!)) to++;
  const name = text.slice(from, to);
  if (!name) return null;
  const after = text.slice(to).trimStart();
  const before = text.slice(0, from).trimEnd();
  if (after.startsWith("(") && FUNCTION_DOCS[name]) return { from, to, text: FUNCTION_DOCS[name]! };
  if (before.endsWith("|")) {
    const key = name === "order" || name === "sort" ? `${name} by` : name;
    if (OPERATOR_DOCS[key]) return { from, to, text: OPERATOR_DOCS[key]! };
  }
  if ((before === "" || before.endsWith(";")) && STATEMENT_DOCS[name]) return { from, to, text: STATEMENT_DOCS[name]! };
  return null;
}
