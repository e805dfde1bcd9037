/**
 * ADX's sketches (docs/api.md, "Sketches"): hll()/dcount_hll() and tdigest()/percentile_tdigest()
 * with their merges, and the weighted percentiles. The sketches here are exact: hll() keeps the
 * distinct values' texts (a sorted JSON array), tdigest() the [value, weight] pairs sorted by value,
 * so dcount_hll() is dcount() and percentile_tdigest() is percentile()'s nearest rank over the
 * weights (sketch.ts). A sketch grows with the distinct values (hll) or rows (tdigest) it holds.
 * buildschema() is here too: DuckDB folds the values' shapes in sketch.ts.
 */
import { boundedList } from "../budget";
import { KqlError } from "../errors";
import { aggregate, documented, scalar, type FunctionEntry } from "./entry";

const SQL_TYPE: Record<string, { duckdb: string; clickhouse: string }> = {
  long: { duckdb: "BIGINT", clickhouse: "Nullable(Int64)" },
  int: { duckdb: "INTEGER", clickhouse: "Nullable(Int32)" },
  real: { duckdb: "DOUBLE", clickhouse: "Nullable(Float64)" },
};

/** `body` with `value` computed once as `name` (ClickHouse). */
const bind = (name: string, value: string, body: string) => `arrayMap(${name} -> ${body}, [${value}])[1]`;

const duckPairs = (digest: string) => `coalesce(from_json(${digest}, '[["DOUBLE"]]'), CAST([] AS DOUBLE[][]))`;
const chPairs = (digest: string) => `JSONExtract(ifNull(${digest}, '[]'), 'Array(Array(Float64))')`;
const chSorted = (pairs: string) => `arraySort(kql_q -> kql_q[1], ${pairs})`;
const duckText = (digest: string) => `CAST(${digest} AS VARCHAR)`;

/**
 * A sketch aggregate's list as its JSON, refused (400, naming the function) past the limit on
 * lists, as make_list is (budget.ts boundedList): the sketches are exact, so they grow with the
 * values they hold, and one query over every reading must not build a value of millions of elements.
 */
const duckSketch = (fn: string, list: string) => `to_json(${boundedList.duckdb(fn, list)})`;
const chSketch = (fn: string, list: string) => `toJSONString(${boundedList.clickhouse(fn, list)})`;

/** The rows' [value, weight] pairs: DuckDB's as JSON text, ClickHouse's as an array. */
const duckRowPairs = (x: string, w: string) => `CAST(to_json(list([CAST(${x} AS DOUBLE), CAST(${w} AS DOUBLE)]) FILTER (WHERE ${x} IS NOT NULL AND ${w} IS NOT NULL)) AS VARCHAR)`;
const chRowPairs = (x: string, w: string) => chSorted(`groupArrayIf([toFloat64(ifNull(${x}, 0)), toFloat64(ifNull(${w}, 0))], isNotNull(${x}) AND isNotNull(${w}))`);

/** The percentile (a fraction) of sorted pairs: the first value whose cumulative weight reaches fraction × total (sketch.ts). */
const chPercentile = (pairs: string, fraction: string) =>
  bind(
    "kql_tp",
    pairs,
    `if(length(kql_tp) = 0, NULL, toNullable(arrayElement(kql_tp, ${bind("kql_cs", "arrayCumSum(arrayMap(kql_q -> kql_q[2], kql_tp))", bind("kql_tt", "arrayElement(kql_cs, -1)", `if(arrayFirstIndex(kql_c -> kql_c >= ${fraction} * kql_tt, kql_cs) = 0, length(kql_cs), arrayFirstIndex(kql_c -> kql_c >= ${fraction} * kql_tt, kql_cs))`))})[1]))`,
  );
const chPercentiles = (pairs: string, fractions: string) =>
  bind("kql_tps", pairs, `if(length(kql_tps) = 0, NULL, toJSONString(arrayMap(kql_f -> ${chPercentile("kql_tps", "kql_f")}, ${fractions})))`);

/** The percentages of percentiles_array_tdigest/percentilesw_array: one dynamic array, or the numbers. */
const percentsJson = (args: readonly string[], types: readonly string[]) =>
  types.length === 1 && types[0] === "dynamic" ? { duckdb: duckText(args[0]!), clickhouse: `JSONExtract(${args[0]}, 'Array(Float64)')` } : { duckdb: `CAST(to_json([${args.map((a) => `CAST(${a} AS DOUBLE)`).join(", ")}]) AS VARCHAR)`, clickhouse: `[${args.map((a) => `toFloat64(${a}) / 100`).join(", ")}]` };

const percentLabel = (p: unknown) => String(p).replace(/[.-]/g, "_");
const checkPercent = (i: number) => (consts: readonly unknown[]) => (typeof consts[i] === "number" && (consts[i] < 0 || consts[i] > 100) ? "Percentiles must be between 0 and 100" : undefined);

/** The constant percentages of percentilesw_array: numbers, or one dynamic array literal (its JSON text). */
function constPercents(consts: readonly unknown[]): number[] {
  const given = consts.slice(2);
  const list = given.length === 1 && typeof given[0] === "string" ? (JSON.parse(given[0]) as unknown[]) : given;
  return list.map((p) => Number(p));
}

const hllValue = { duckdb: (fn: string, x: string, condition = "") => duckSketch(fn, `coalesce(list_sort(list(DISTINCT CAST(${x} AS VARCHAR)) FILTER (WHERE ${x} IS NOT NULL${condition})), CAST([] AS VARCHAR[]))`) };
const duckHll = (h: string) => `coalesce(from_json(${h}, '["VARCHAR"]'), CAST([] AS VARCHAR[]))`;
const chHll = (h: string) => `JSONExtract(ifNull(${h}, '[]'), 'Array(String)')`;

const tdigestMerge = (name: string): FunctionEntry[] => [
  aggregate(name, {
    args: "digest: dynamic",
    result: "dynamic",
    nulls: "never",
    sql: {
      duckdb: ({ args }) => duckSketch(name, `list_sort(coalesce(flatten(list(${duckPairs(args[0]!)}) FILTER (WHERE ${args[0]} IS NOT NULL)), CAST([] AS DOUBLE[][])))`),
      clickhouse: ({ args }) => chSketch(name, chSorted(`groupArrayArray(${chPairs(args[0]!)})`)),
    },
    column: (arg) => `merge_tdigests_${arg}`,
    doc: `the tdigest() results of the rows merged into one; ${name}(d1, d2, …) merges its arguments`,
  }),
  scalar(name, {
    args: "digests...: dynamic",
    result: "dynamic",
    nulls: "never",
    sql: {
      duckdb: ({ args }) => `to_json(list_sort(flatten([${args.map(duckPairs).join(", ")}])))`,
      clickhouse: ({ args }) => `toJSONString(${chSorted(`arrayConcat(${args.map(chPairs).join(", ")})`)})`,
    },
    doc: "the tdigest() results given merged into one",
  }),
];

export const SKETCHES: readonly FunctionEntry[] = [
  aggregate("buildschema", {
    args: "value: dynamic",
    result: "dynamic",
    nulls: "may",
    sql: {
      duckdb: ({ args }) => `CAST(kql_buildschema(CAST(to_json(list(${args[0]}) FILTER (WHERE ${args[0]} IS NOT NULL)) AS VARCHAR)) AS JSON)`,
      clickhouse: () => {
        throw new KqlError("buildschema() is not supported on the ClickHouse engine yet: its SQL cannot walk JSON of any depth", 1, 1);
      },
    },
    column: (arg) => `schema_${arg}`,
    doc: "the schema of the dynamic values: keys, `indexer` for array elements, the types seen at each place",
  }),
  aggregate("tdigest", {
    args: ["x: number", "x: number, weight: long"],
    result: "dynamic",
    nulls: "never",
    sql: {
      duckdb: ({ args }) => duckSketch("tdigest", `coalesce(list_sort(list([CAST(${args[0]} AS DOUBLE), CAST(${args[1] ?? "1"} AS DOUBLE)]) FILTER (WHERE ${args[0]} IS NOT NULL AND ${args[1] ?? "1"} IS NOT NULL)), CAST([] AS DOUBLE[][]))`),
      clickhouse: ({ args }) => chSketch("tdigest", chRowPairs(args[0]!, args[1] ?? "1")),
    },
    doc: "the values (with their weights) as a digest for percentile_tdigest(), rank_tdigest() and merge_tdigest()",
  }),
  ...tdigestMerge("merge_tdigest"),
  ...tdigestMerge("tdigest_merge"),
  scalar("percentile_tdigest", {
    args: "digest: dynamic, percentile: real",
    result: "dynamic",
    sql: {
      duckdb: ({ args }) => `to_json(kql_digest_percentile(${duckText(args[0]!)}, ${args[1]}))`,
      clickhouse: ({ args }) => bind("kql_pv", chPercentile(chPairs(args[0]!), `(${args[1]} / 100)`), "if(isNull(kql_pv), NULL, toJSONString(kql_pv))"),
    },
    nulls: "may",
    doc: "the percentile (0–100) of a tdigest() digest",
  }),
  scalar("percentiles_array_tdigest", {
    args: "digest: dynamic, percentiles...: any",
    result: "dynamic",
    nulls: "may",
    sql: {
      duckdb: ({ args, types }) => `CAST(kql_digest_percentiles(${duckText(args[0]!)}, ${percentsJson(args.slice(1), types.slice(1)).duckdb}) AS JSON)`,
      clickhouse: ({ args, types }) => {
        const fractions = percentsJson(args.slice(1), types.slice(1)).clickhouse;
        return chPercentiles(chPairs(args[0]!), types.length === 2 && types[1] === "dynamic" ? `arrayMap(kql_p -> kql_p / 100, ${fractions})` : fractions);
      },
    },
    doc: "several percentiles (numbers, or one dynamic array of them) of a tdigest() digest, as an array",
  }),
  scalar("rank_tdigest", {
    args: "digest: dynamic, value: real",
    result: "real",
    nulls: "may",
    sql: {
      duckdb: ({ args }) => `kql_digest_rank(${duckText(args[0]!)}, ${args[1]})`,
      clickhouse: ({ args }) => bind("kql_tp", chPairs(args[0]!), `if(length(kql_tp) = 0, NULL, toNullable(arraySum(arrayMap(kql_q -> if(kql_q[1] <= ${args[1]}, kql_q[2], 0), kql_tp))))`),
    },
    doc: "the weight of the digest's values at most value (its rank)",
  }),
  scalar("percentrank_tdigest", {
    args: "digest: dynamic, value: real",
    result: "real",
    nulls: "may",
    sql: {
      duckdb: ({ args }) => `kql_digest_percentrank(${duckText(args[0]!)}, ${args[1]})`,
      clickhouse: ({ args }) =>
        bind("kql_tp", chPairs(args[0]!), `if(length(kql_tp) = 0, NULL, toNullable(100 * arraySum(arrayMap(kql_q -> if(kql_q[1] <= ${args[1]}, kql_q[2], 0), kql_tp)) / arraySum(arrayMap(kql_q -> kql_q[2], kql_tp))))`),
    },
    doc: "the share (0–100) of the digest's weight at values at most value",
  }),
  aggregate("percentilew", {
    args: "x: number, weight: long, percentile: const number",
    result: "$0",
    nulls: "may",
    checkConsts: checkPercent(2),
    sql: {
      duckdb: ({ args, result }) => `CAST(kql_digest_percentile(${duckRowPairs(args[0]!, args[1]!)}, ${args[2]}) AS ${SQL_TYPE[result]!.duckdb})`,
      clickhouse: ({ args, result }) => `CAST(${chPercentile(chRowPairs(args[0]!, args[1]!), `(${args[2]} / 100)`)} AS ${SQL_TYPE[result]!.clickhouse})`,
    },
    column: (arg, consts) => `percentile_${arg}_${percentLabel(consts[2])}`,
    doc: "the weighted percentile: the smallest value whose rows' cumulative weight reaches P % of the total",
  }),
  documented("aggregate", "percentilesw", "percentilesw(x, Weight, P1, P2, …): one column per percentile — several weighted percentiles at once (a whole summarize item)"),
  aggregate("percentilesw_array", {
    args: "x: number, weight: long, percentiles...: const any",
    result: "dynamic",
    nulls: "may",
    sql: {
      duckdb: ({ args, consts }) => `CAST(kql_digest_percentiles(${duckRowPairs(args[0]!, args[1]!)}, '${JSON.stringify(constPercents(consts))}') AS JSON)`,
      clickhouse: ({ args, consts }) => chPercentiles(chRowPairs(args[0]!, args[1]!), `[${constPercents(consts).map((p) => `${p / 100}`).join(", ")}]`),
    },
    // Kusto.Language's name (the page prints percentile_x).
    column: (arg) => `percentiles_${arg}`,
    doc: "several weighted percentiles (numbers, or one dynamic array of them) as one array",
  }),
  aggregate("hll", {
    args: ["x: any", "x: any, accuracy: const long"],
    result: "dynamic",
    nulls: "never",
    sql: { duckdb: ({ args }) => hllValue.duckdb("hll", args[0]!), clickhouse: ({ args }) => chSketch("hll", `arraySort(groupUniqArray(toString(${args[0]})))`) },
    doc: "the distinct values as a sketch for dcount_hll() and hll_merge() (exact: the accuracy is accepted and needs no trade-off)",
  }),
  aggregate("hll_if", {
    args: ["x: any, predicate: bool", "x: any, predicate: bool, accuracy: const long"],
    result: "dynamic",
    nulls: "never",
    sql: { duckdb: ({ args }) => hllValue.duckdb("hll_if", args[0]!, ` AND ${args[1]}`), clickhouse: ({ args }) => chSketch("hll_if", `arraySort(groupUniqArrayIf(toString(${args[0]}), ${args[1]}))`) },
    doc: "hll() of the rows where the predicate is true",
  }),
  aggregate("hll_merge", {
    args: "sketch: dynamic",
    result: "dynamic",
    nulls: "never",
    sql: {
      duckdb: ({ args }) => duckSketch("hll_merge", `list_sort(list_distinct(coalesce(flatten(list(${duckHll(args[0]!)}) FILTER (WHERE ${args[0]} IS NOT NULL)), CAST([] AS VARCHAR[]))))`),
      clickhouse: ({ args }) => chSketch("hll_merge", `arraySort(arrayDistinct(groupArrayArray(${chHll(args[0]!)})))`),
    },
    doc: "the hll() results of the rows merged into one; hll_merge(h1, h2, …) merges its arguments",
  }),
  scalar("hll_merge", {
    args: "sketches...: dynamic",
    result: "dynamic",
    nulls: "never",
    sql: {
      duckdb: ({ args }) => `to_json(list_sort(list_distinct(flatten([${args.map(duckHll).join(", ")}]))))`,
      clickhouse: ({ args }) => `toJSONString(arraySort(arrayDistinct(arrayConcat(${args.map(chHll).join(", ")}))))`,
    },
    doc: "the hll() results given merged into one",
  }),
  scalar("dcount_hll", {
    args: "sketch: dynamic",
    result: "long",
    sql: { duckdb: "CAST(json_array_length($0) AS BIGINT)", clickhouse: "toInt64(JSONLength($0))" },
    doc: "the number of distinct values an hll() sketch holds",
  }),
];
