/**
 * KQL's element-wise series functions and the reductions of series to one number (entry.ts says
 * what an entry holds; docs/kql-functions.md how to add one). A series is a dynamic array of
 * numbers; an element that is not a number is null in the result. A binary function takes two
 * series, or a series and a number (the number stands for every element); the result is as long
 * as the longer series, a missing element null, as ADX does.
 */
import { scalar, type FunctionEntry, type SpellInput, type Spelling } from "./entry";

/** A dynamic value's numbers (null elements where not a number); null if it is not an array. */
const duckList = (json: string) =>
  `CASE WHEN json_type(${json}) = 'ARRAY' THEN list_transform(CAST(${json} AS JSON[]), lambda kql_e: TRY_CAST(json_extract_string(kql_e, '$') AS DOUBLE)) END`;
const clickList = (json: string) =>
  `arrayMap(kql_e -> toFloat64OrNull(multiIf(JSONType(kql_e) = 'String', JSONExtractString(kql_e), JSONType(kql_e) = 'Null', NULL, kql_e)), JSONExtractArrayRaw(ifNull(${json}, 'null')))`;
/** ClickHouse's arrays as JSON text: non-finite numbers as null (as ADX's JSON has no NaN). */
const clickNumbersJson = (list: string) => `concat('[', arrayStringConcat(arrayMap(kql_v -> if(isFinite(kql_v), toString(kql_v), 'null'), ${list}), ','), ']')`;
const clickBoolsJson = (list: string) => `concat('[', arrayStringConcat(arrayMap(kql_v -> multiIf(isNull(kql_v), 'null', kql_v, 'true', 'false'), ${list}), ','), ']')`;

/**
 * Element `kql_i` (0-based on DuckDB, 1-based on ClickHouse) of argument i; a number (a dynamic
 * value that is not an array) stands for every element. Decided on the value, since a number
 * argument reaches the entry as dynamic too (the signatures take dynamic).
 */
function element(engine: "duckdb" | "clickhouse", input: SpellInput, i: number): string {
  const x = input.args[i]!;
  return engine === "duckdb"
    ? `CASE WHEN json_type(${x}) = 'ARRAY' THEN (${duckList(x)})[kql_i + 1] ELSE TRY_CAST(json_extract_string(${x}, '$') AS DOUBLE) END`
    : `if(JSONType(ifNull(${x}, 'null')) = 'Array', (${clickList(x)})[kql_i], toFloat64OrNull(multiIf(JSONType(ifNull(${x}, 'null')) = 'String', JSONExtractString(${x}), JSONType(ifNull(${x}, 'null')) = 'Null', NULL, ${x})))`;
}

/** The length of the result: the longer series' (a number has none). */
function length(engine: "duckdb" | "clickhouse", input: SpellInput): string {
  const lengths = input.args.map((arg) => (engine === "duckdb" ? `coalesce(len(${duckList(arg)}), 0)` : `length(${clickList(arg)})`));
  return lengths.length === 1 ? lengths[0]! : `greatest(${lengths.join(", ")})`;
}

/** The spelling of `op(a, b)` element by element; `op` gets the two elements' SQL. */
function pairwise(op: (a: string, b: string) => string, bools = false): Record<"duckdb" | "clickhouse", Spelling> {
  return {
    duckdb: (input) => `to_json(list_transform(range(0, ${length("duckdb", input)}), lambda kql_i: ${op(element("duckdb", input, 0), element("duckdb", input, 1))}))`,
    clickhouse: (input) => {
      const list = `arrayMap(kql_i -> ${op(element("clickhouse", input, 0), element("clickhouse", input, 1))}, range(1, ${length("clickhouse", input)} + 1))`;
      return bools ? clickBoolsJson(list) : clickNumbersJson(list);
    },
  };
}

/** The spelling of `f(x)` on every element; `f` gets the element's SQL and gives null outside its domain. */
function each(f: (x: string) => string): Record<"duckdb" | "clickhouse", Spelling> {
  return {
    duckdb: (input) => `to_json(list_transform(${duckList(input.args[0]!)}, lambda kql_v: ${f("kql_v")}))`,
    clickhouse: (input) => clickNumbersJson(`arrayMap(kql_v -> ${f("kql_v")}, ${clickList(input.args[0]!)})`),
  };
}

const BINARY = "s1: dynamic, s2: dynamic";
const binary = (name: string, op: (a: string, b: string) => string, doc: string, bools = false) =>
  scalar(name, { args: BINARY, result: "dynamic", sql: pairwise(op, bools), doc });
const unary = (name: string, f: (x: string) => string, doc: string) => scalar(name, { args: "series: dynamic", result: "dynamic", sql: each(f), doc });
/** f(x) where the condition holds, else null (both engines spell CASE alike). */
const within = (condition: (x: string) => string, f: (x: string) => string) => (x: string) => `CASE WHEN ${condition(x)} THEN ${f(x)} END`;

/** Σ over the elements of `term` (elements kql_i of both series), on each engine. */
function sumOf(engine: "duckdb" | "clickhouse", input: SpellInput, term: (a: string, b: string) => string): string {
  const a = element(engine, input, 0);
  const b = input.args.length > 1 ? element(engine, input, 1) : a;
  return engine === "duckdb"
    ? `coalesce(list_sum(list_transform(range(0, ${length("duckdb", input)}), lambda kql_i: ${term(a, b)})), 0)`
    : `arraySum(arrayMap(kql_i -> coalesce(${term(a, b)}, 0), range(1, ${length("clickhouse", input)} + 1)))`;
}
const reduction = (term: (input: SpellInput, engine: "duckdb" | "clickhouse") => string): Record<"duckdb" | "clickhouse", Spelling> => ({
  duckdb: (input) => term(input, "duckdb"),
  clickhouse: (input) => term(input, "clickhouse"),
});

/** Pearson's r from the sums over the elements both series have. */
function pearson(input: SpellInput, engine: "duckdb" | "clickhouse"): string {
  const both = (f: (a: string, b: string) => string) => sumOf(engine, input, (a, b) => `CASE WHEN ${a} IS NOT NULL AND ${b} IS NOT NULL THEN ${f(a, b)} END`);
  const n = both(() => "1.0");
  const [sx, sy, sxx, syy, sxy] = [both((a) => a), both((_, b) => b), both((a) => `${a} * ${a}`), both((_, b) => `${b} * ${b}`), both((a, b) => `${a} * ${b}`)];
  const den = `sqrt((${n} * ${sxx} - ${sx} * ${sx}) * (${n} * ${syy} - ${sy} * ${sy}))`;
  return `CASE WHEN ${den} > 0 THEN (${n} * ${sxy} - ${sx} * ${sy}) / ${den} END`;
}

export const SERIES_ELEMENTWISE: readonly FunctionEntry[] = [
  binary("series_add", (a, b) => `${a} + ${b}`, "the element-wise sum of two series (or a series and a number)"),
  binary("series_subtract", (a, b) => `${a} - ${b}`, "the element-wise difference"),
  binary("series_multiply", (a, b) => `${a} * ${b}`, "the element-wise product"),
  binary("series_divide", (a, b) => `CASE WHEN ${b} <> 0 THEN ${a} / ${b} END`, "the element-wise quotient (null where dividing by 0)"),
  binary("series_pow", (a, b) => `pow(${a}, ${b})`, "each element of the first raised to the second's"),
  binary("series_greater", (a, b) => `${a} > ${b}`, "element-wise a > b (bools)", true),
  binary("series_greater_equals", (a, b) => `${a} >= ${b}`, "element-wise a >= b (bools)", true),
  binary("series_less", (a, b) => `${a} < ${b}`, "element-wise a < b (bools)", true),
  binary("series_less_equals", (a, b) => `${a} <= ${b}`, "element-wise a <= b (bools)", true),
  binary("series_equals", (a, b) => `${a} = ${b}`, "element-wise a == b (bools)", true),
  binary("series_not_equals", (a, b) => `${a} <> ${b}`, "element-wise a != b (bools)", true),
  unary("series_abs", (x) => `abs(${x})`, "the absolute value of every element"),
  unary("series_sign", (x) => `sign(${x})`, "-1, 0 or 1 for every element"),
  unary("series_ceiling", (x) => `ceil(${x})`, "every element rounded up"),
  unary("series_floor", (x) => `floor(${x})`, "every element rounded down"),
  unary("series_exp", (x) => `exp(${x})`, "e raised to every element"),
  unary("series_log", within((x) => `${x} > 0`, (x) => `ln(${x})`), "the natural logarithm of every element (null at 0 and below)"),
  unary("series_sin", (x) => `sin(${x})`, "the sine of every element"),
  unary("series_cos", (x) => `cos(${x})`, "the cosine of every element"),
  unary("series_tan", (x) => `tan(${x})`, "the tangent of every element"),
  unary("series_asin", within((x) => `abs(${x}) <= 1`, (x) => `asin(${x})`), "the arcsine of every element (null outside -1..1)"),
  unary("series_acos", within((x) => `abs(${x}) <= 1`, (x) => `acos(${x})`), "the arccosine of every element (null outside -1..1)"),
  unary("series_atan", (x) => `atan(${x})`, "the arctangent of every element"),
  scalar("series_sum", { args: "series: dynamic", result: "real", sql: reduction((input, engine) => sumOf(engine, input, (a) => a)), doc: "the sum of the elements" }),
  scalar("series_magnitude", { args: "series: dynamic", result: "real", sql: reduction((input, engine) => `sqrt(${sumOf(engine, input, (a) => `${a} * ${a}`)})`), doc: "the Euclidean norm: the square root of the sum of squares" }),
  scalar("series_product", {
    args: "series: dynamic",
    result: "real",
    sql: {
      duckdb: (input) => `coalesce(list_aggregate(list_filter(${duckList(input.args[0]!)}, lambda kql_v: kql_v IS NOT NULL), 'product'), 1)`,
      clickhouse: (input) => `arrayProduct(arrayMap(kql_v -> assumeNotNull(kql_v), arrayFilter(kql_v -> isNotNull(kql_v), ${clickList(input.args[0]!)})))`,
    },
    doc: "the product of the elements",
  }),
  scalar("series_dot_product", { args: BINARY, result: "real", sql: reduction((input, engine) => sumOf(engine, input, (a, b) => `${a} * ${b}`)), doc: "the dot product of two series (or a series and a number)" }),
  scalar("series_cosine_similarity", {
    args: ["s1: dynamic, s2: dynamic", "s1: dynamic, s2: dynamic, magnitude1: real, magnitude2: real"],
    result: "real",
    nulls: "may",
    sql: reduction((input, engine) => {
      const one = { ...input, args: [input.args[0]!], types: [input.types[0]!] };
      const two = { ...input, args: [input.args[1]!], types: [input.types[1]!] };
      const m1 = input.args[2] ?? `sqrt(${sumOf(engine, one, (a) => `${a} * ${a}`)})`;
      const m2 = input.args[3] ?? `sqrt(${sumOf(engine, two, (a) => `${a} * ${a}`)})`;
      return `CASE WHEN ${m1} * ${m2} <> 0 THEN ${sumOf(engine, { ...input, args: input.args.slice(0, 2), types: input.types.slice(0, 2) }, (a, b) => `${a} * ${b}`)} / (${m1} * ${m2}) END`;
    }),
    doc: "the cosine of the angle between two series",
  }),
  scalar("series_pearson_correlation", { args: "s1: dynamic, s2: dynamic", result: "real", nulls: "may", sql: reduction(pearson), doc: "Pearson's correlation coefficient of two series" }),
];
