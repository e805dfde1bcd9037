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
  serialize: "serialize [Name = Expr, …] — mark the rows serialized (for prev, next, row_number, row_cumsum, row_window_session)",
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
  count: "count(): long — the number of rows", countif: "countif(Predicate): long — rows where the predicate is true", sum: "sum(x) — the sum of the values", sumif: "sumif(x, Predicate) — the sum where the predicate is true", avg: "avg(x): real — the mean of the values", avgif: "avgif(x, Predicate): real — the mean where the predicate is true",
  min: "min(x) — the smallest value", max: "max(x) — the largest value", minif: "minif(x, Predicate) — the smallest value where the predicate is true", maxif: "maxif(x, Predicate) — the largest value where the predicate is true", dcount: "dcount(x): long — distinct values", dcountif: "dcountif(x, Predicate): long — distinct values where the predicate is true",
  count_distinct: "count_distinct(x): long — exact distinct count", count_distinctif: "count_distinctif(x, Predicate): long — exact distinct count where the predicate is true",
  percentile: "percentile(x, P): the P-th percentile (nearest rank) — the value below which P percent of the values lie", percentiles: "percentiles(x, P1, P2, …): one column per percentile — several percentiles at once",
  percentiles_array: "percentiles_array(x, P1, P2, …): dynamic array — several percentiles as one array", stdev: "stdev(x): real — sample standard deviation", stdevp: "stdevp(x): real — population standard deviation",
  stdevif: "stdevif(x, Predicate): real — sample standard deviation where the predicate is true", variance: "variance(x): real — sample variance", variancep: "variancep(x): real — population variance", varianceif: "varianceif(x, Predicate): real — sample variance where the predicate is true",
  arg_max: "arg_max(Key, Col… | *): the row with the largest key — columns of the row where Key is largest", arg_min: "arg_min(Key, Col… | *): the row with the smallest key — columns of the row where Key is smallest",
  any: "any(x): any value — any one value of the group", take_any: "take_any(x): any value — any one value of the group", take_anyif: "take_anyif(x, Predicate) — any value where the predicate is true", anyif: "anyif(x, Predicate) — any value where the predicate is true",
  make_list: "make_list(x [, MaxSize]): dynamic array — the values as an array, in the order of a sorted input", make_list_if: "make_list_if(x, Predicate [, MaxSize]): dynamic array — values where the predicate is true, as an array",
  make_set: "make_set(x [, MaxSize]): dynamic array of distinct values — the distinct values as an array", make_set_if: "make_set_if(x, Predicate [, MaxSize]) — distinct values where the predicate is true, as an array", make_bag: "make_bag(Bag): dynamic — properties merged",
  // scalars
  ago: "ago(Timespan): datetime — now minus the span", now: "now([Offset]): datetime — the query's current time (plus an offset)", bin: "bin(x, Size) — round down to a multiple of Size", floor: "floor(x, Size) — as bin()",
  bin_at: "bin_at(x, Size, FixedPoint) — bins aligned to a fixed point", todouble: "todouble(x): real — converts to a real number (null if it cannot)", toreal: "toreal(x): real — converts to a real number (null if it cannot)", tolong: "tolong(x): long — converts to a 64-bit integer", toint: "toint(x): int — converts to a 32-bit integer",
  tostring: "tostring(x): string — converts to text", todatetime: "todatetime(x): datetime — converts to a datetime", totimespan: "totimespan(x): timespan — converts to a timespan", totime: "totime(x): timespan — converts to a timespan", tobool: "tobool(x): bool — converts to a bool", toboolean: "toboolean(x): bool — converts to a bool",
  isnull: "isnull(x): bool — whether the value is null", isnotnull: "isnotnull(x): bool — whether the value is not null", isempty: "isempty(x): bool — null or empty string", isnotempty: "isnotempty(x): bool — neither null nor an empty string",
  iff: "iff(Predicate, Then, Else) — Then when the predicate is true, else Else", iif: "iif(Predicate, Then, Else) — Then when the predicate is true, else Else", case: "case(P1, V1, P2, V2, …, Else) — the value of the first true predicate, else Else", not: "not(Predicate): bool — the negation of a predicate",
  strlen: "strlen(s): long — characters", string_size: "string_size(s): long — bytes", tolower: "tolower(s): string — the text in lower case", toupper: "toupper(s): string — the text in upper case",
  abs: "abs(x) — the absolute value", round: "round(x [, Digits]) — rounded to Digits decimals (default 0)", sqrt: "sqrt(x): real — the square root", log: "log(x): real — natural", log10: "log10(x): real — base-10 logarithm", log2: "log2(x): real — base-2 logarithm", exp: "exp(x): real — e raised to x", exp2: "exp2(x): real — 2 raised to x", exp10: "exp10(x): real — 10 raised to x",
  pow: "pow(Base, Exponent): real — Base raised to Exponent", sign: "sign(x): real — -1, 0 or 1", ceiling: "ceiling(x) — the smallest integer not below x", isnan: "isnan(x): bool — whether x is not a number", isfinite: "isfinite(x): bool — whether x is finite",
  max_of: "max_of(a, b, …) — the largest (nulls ignored)", min_of: "min_of(a, b, …) — the smallest (nulls ignored)", coalesce: "coalesce(a, b, …) — the first non-null (non-empty string)",
  hash: "hash(x [, Mod]): long — a hash (values differ from ADX's xxhash64)",
  startofday: "startofday(t [, Offset]): datetime — midnight at the start of the day", startofweek: "startofweek(t [, Offset]): datetime — weeks start on Sunday", startofmonth: "startofmonth(t [, Offset]): datetime — the first instant of the month", startofyear: "startofyear(t [, Offset]): datetime — the first instant of the year",
  endofday: "endofday(t [, Offset]): datetime — the last instant of the day", endofweek: "endofweek(t [, Offset]): datetime — the last instant of the week", endofmonth: "endofmonth(t [, Offset]): datetime — the last instant of the month", endofyear: "endofyear(t [, Offset]): datetime — the last instant of the year",
  datetime_part: "datetime_part(\"Part\", t): int — year, quarter, month, week_of_year, day, dayofyear, hour, minute, second, millisecond, …",
  datetime_add: "datetime_add(\"Part\", Amount, t): datetime — a datetime moved by Amount periods", datetime_diff: "datetime_diff(\"Part\", t1, t2): long — periods from t2 to t1",
  hourofday: "hourofday(t): int — the hour, 0–23", dayofweek: "dayofweek(t): timespan — days since Sunday", dayofmonth: "dayofmonth(t): int — the day of the month, 1–31", dayofyear: "dayofyear(t): int — the day of the year, 1–366", monthofyear: "monthofyear(t): int — the month, 1–12",
  getmonth: "getmonth(t): int — the month, 1–12", getyear: "getyear(t): int — the year", weekofyear: "weekofyear(t): int — ISO 8601 week",
  format_datetime: "format_datetime(t, \"yyyy-MM-dd HH:mm:ss.fff\"): string — a datetime as text in the given format", format_timespan: "format_timespan(ts, \"d.hh:mm:ss\"): string — a timespan as text in the given format",
  strcat: "strcat(a, b, …): string — the texts joined", strcat_delim: "strcat_delim(Delimiter, a, b, …): string — the texts joined with a delimiter", split: "split(s, Delimiter [, Index]): dynamic array — the text split at each delimiter",
  extract: "extract(Regex, Group, s [, typeof(T)]) — the regex group's match in the text", extract_all: "extract_all(Regex, s): dynamic array — every match of the regex's groups", substring: "substring(s, Start [, Length]): string — part of the text from Start (0-based)",
  replace_string: "replace_string(s, Lookup, Rewrite): string — every occurrence of Lookup replaced", replace_regex: "replace_regex(s, Regex, Rewrite): string — every regex match replaced", trim: "trim(Regex, s): string — the regex removed from both ends",
  trim_start: "trim_start(Regex, s): string — the regex removed from the start", trim_end: "trim_end(Regex, s): string — the regex removed from the end", indexof: "indexof(s, Lookup [, Start]): long (-1 if absent) — where Lookup first occurs in the text", countof: "countof(s, Lookup): long — how often Lookup occurs in the text",
  reverse: "reverse(s): string — the text reversed", strrep: "strrep(s, N [, Delimiter]): string — the text repeated N times", parse_json: "parse_json(s): dynamic — text parsed as JSON", todynamic: "todynamic(s): dynamic — text parsed as JSON", toobject: "toobject(s): dynamic — text parsed as a JSON object",
  bag_keys: "bag_keys(Bag): dynamic array — the keys of a property bag", bag_pack: "bag_pack(Key, Value, …): dynamic — a property bag of keys and values", pack: "pack(Key, Value, …): dynamic — a property bag of keys and values", pack_array: "pack_array(a, b, …): dynamic — the values as an array",
  array_length: "array_length(Array): long — the number of elements (null if not an array)", array_sum: "array_sum(Array): real — the sum of an array's numbers", gettype: "gettype(x): string — the type of the value, as text", repeat: "repeat(Value, Count): dynamic array — an array of Count copies of Value",
  toscalar: "toscalar(T | …): the first value of a query — a query's single value, used as a scalar",
  series_stats: "series_stats(Series): columns _min, _min_idx, _max, _max_idx, _avg, _stdev, _variance — statistics of a series", series_stats_dynamic: "series_stats_dynamic(Series): dynamic bag of statistics — statistics of a series as one bag",
  series_fir: "series_fir(Series, Filter [, Normalize, Center]): dynamic — e.g. moving average series_fir(x, repeat(1, 5), true, true)",
  series_fill_forward: "series_fill_forward(Series): dynamic — nulls take the previous value", series_fill_backward: "series_fill_backward(Series): dynamic — nulls take the next value",
  series_fill_linear: "series_fill_linear(Series): dynamic — nulls interpolated", series_fill_const: "series_fill_const(Series, Value): dynamic — nulls replaced by a constant",
  series_decompose: "series_decompose(Series [, Seasonality=-1, Trend='avg', Test_points=0, Seasonality_threshold=0.6]): columns baseline, seasonal, trend, residual — a series split into seasonal, trend and residual parts",
  series_decompose_anomalies:
    "series_decompose_anomalies(Series [, Threshold=1.5, Seasonality=-1, Trend='avg', Test_points=0, AD_method='ctukey', Seasonality_threshold=0.6]): columns ad_flag (+1/-1/0), ad_score, baseline — e.g. extend (flag, score, baseline) = series_decompose_anomalies(y)",
  series_decompose_forecast: "series_decompose_forecast(Series, Points [, Seasonality=-1, Trend='linefit', Seasonality_threshold=0.6]): the baseline with the last Points forecast (then seasonal, trend, residual) — a series' forecast of the last Points points from its seasonality and trend",
  series_outliers: "series_outliers(Series [, Kind='ctukey', Ignore_val, Min_percentile=10, Max_percentile=90]): dynamic — Tukey fence scores (> 1.5 a rise, < -1.5 a drop)",
  series_fit_line: "series_fit_line(Series): columns rsquare, slope, variance, rvariance, interception, line_fit — the least-squares line through a series",
  series_fit_2lines:
    "series_fit_2lines(Series): columns rsquare, split_idx, variance, rvariance, line_fit, then right_ and left_ rsquare, slope, interception, variance, rvariance — the best split of a series into two lines, e.g. extend (rs, si) = series_fit_2lines(y)",
  series_fit_2lines_dynamic: "series_fit_2lines_dynamic(Series): dynamic — series_fit_2lines' results as one bag (rsquare, split_idx, variance, rvariance, line_fit, right {…}, left {…})",
  series_periods_detect: "series_periods_detect(Series, Min_period, Max_period, Num_periods): columns periods, scores — by autocorrelation",
  prev: "prev(Column [, Offset=1, Default]): the value Offset rows earlier in a serialized row set (after sort, top or serialize) — a value from an earlier row",
  next: "next(Column [, Offset=1, Default]): the value Offset rows later in a serialized row set — a value from a later row",
  row_number: "row_number([Start=1]): the row's position in a serialized row set — the row's number",
  row_cumsum: "row_cumsum(Term): running sum over a serialized row set — the running sum",
  row_window_session:
    "row_window_session(Expr, MaxDistanceFromFirst, MaxDistanceBetweenNeighbors [, Restart]): datetime — the value of Expr where the row's session starts, in a serialized row set",
};

/**
 * A function's documentation in its two parts: the signature (`avg(x): real`) and the one-line
 * description after the dash. Every function the engine knows has both (catalog.test.ts).
 */
export function functionDoc(name: string): { signature: string; description: string } | null {
  const text = FUNCTION_DOCS[name];
  if (text === undefined) return null;
  const dash = text.indexOf(" — ");
  return dash < 0 ? { signature: text, description: "" } : { signature: text.slice(0, dash), description: text.slice(dash + 3) };
}

/** Words that start a query or a statement, for completion at the start. */
export const STATEMENT_WORDS = Object.keys(STATEMENT_DOCS);

/** The documentation of the word at `offset` (an operator after `|`, or a function before `(`). */
export function hoverAt(text: string, offset: number): { from: number; to: number; text: string; signature?: string; description?: string } | null {
  let from = offset;
  let to = offset;
  const word = /[A-Za-z0-9_-]/;
  while (from > 0 && word.test(text[from - 1]!)) from--;
  while (to < text.length && word.test(text[to]!)) to++;
  const name = text.slice(from, to);
  if (!name) return null;
  const after = text.slice(to).trimStart();
  const before = text.slice(0, from).trimEnd();
  const doc = after.startsWith("(") ? functionDoc(name) : null;
  if (doc) return { from, to, text: FUNCTION_DOCS[name]!, ...doc };
  if (before.endsWith("|")) {
    const key = name === "order" || name === "sort" ? `${name} by` : name;
    if (OPERATOR_DOCS[key]) return { from, to, text: OPERATOR_DOCS[key]! };
  }
  if ((before === "" || before.endsWith(";")) && STATEMENT_DOCS[name]) return { from, to, text: STATEMENT_DOCS[name]! };
  return null;
}
