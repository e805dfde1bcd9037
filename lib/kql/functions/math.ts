/** KQL's math functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, scalar, type FunctionEntry } from "./entry";

/** `f(x)` when `condition` holds, else null (DuckDB raises where ADX gives no number). */
export const guarded = (condition: string, value: string) => ({ duckdb: `CASE WHEN ${condition} THEN ${value} END`, clickhouse: `if(${condition}, ${value}, NULL)` });

/** A function of one real number, spelled alike on both engines. */
const unary = (name: string, sql: string, doc: string) => scalar(name, { args: "x: real", result: "real", sql, doc });

export const MATH: readonly FunctionEntry[] = [
  documented("scalar", "bin", "bin(x, Size) — round down to a multiple of Size"),
  documented("scalar", "floor", "floor(x, Size) — as bin()"),
  documented("scalar", "abs", "abs(x) — the absolute value"),
  documented("scalar", "round", "round(x [, Digits]) — rounded to Digits decimals (default 0)"),
  documented("scalar", "bin_at", "bin_at(x, Size, FixedPoint) — bins aligned to a fixed point"),
  documented("scalar", "sign", "sign(x): real — -1, 0 or 1"),
  documented("scalar", "ceiling", "ceiling(x) — the smallest integer not below x"),
  scalar("sqrt", { args: "x: real", result: "real", nulls: "may", sql: guarded("$0 >= 0", "sqrt($0)"), doc: "the square root (null below 0)" }),
  scalar("log", { args: "x: real", result: "real", nulls: "may", sql: guarded("$0 > 0", "ln($0)"), doc: "the natural logarithm (null at 0 and below)" }),
  scalar("log10", { args: "x: real", result: "real", nulls: "may", sql: guarded("$0 > 0", "log10($0)"), doc: "the base-10 logarithm" }),
  scalar("log2", { args: "x: real", result: "real", nulls: "may", sql: guarded("$0 > 0", "log2($0)"), doc: "the base-2 logarithm" }),
  scalar("pow", { args: "base: real, exponent: real", result: "real", sql: "pow($0, $1)", doc: "base raised to exponent" }),
  unary("exp", "exp($0)", "e raised to x"),
  // DuckDB has no erf: erf.ts computes it (udfs.ts); ClickHouse has its own.
  scalar("erf", { args: "x: real", result: "real", sql: { duckdb: "kql_erf($0)", clickhouse: "erf($0)" }, doc: "the error function" }),
  scalar("erfc", { args: "x: real", result: "real", sql: { duckdb: "kql_erfc($0)", clickhouse: "erfc($0)" }, doc: "the complementary error function, 1 - erf(x)" }),
  unary("exp2", "pow(2, $0)", "2 raised to x"),
  unary("exp10", "pow(10, $0)", "10 raised to x"),
  scalar("isnan", { args: "x: real", result: "bool", nulls: "never", sql: { duckdb: "coalesce(isnan($0), false)", clickhouse: "coalesce(isNaN($0), false)" }, doc: "whether x is not a number" }),
  scalar("isfinite", { args: "x: real", result: "bool", nulls: "never", sql: { duckdb: "coalesce(isfinite($0), false)", clickhouse: "coalesce(isFinite($0), false)" }, doc: "whether x is finite" }),
  scalar("pi", { args: "", result: "real", nulls: "never", sql: "pi()", doc: "the constant π" }),
  unary("sin", "sin($0)", "the sine (radians)"),
  unary("cos", "cos($0)", "the cosine (radians)"),
  unary("tan", "tan($0)", "the tangent (radians)"),
  unary("atan", "atan($0)", "the arc tangent, in radians"),
  scalar("asin", { args: "x: real", result: "real", nulls: "may", sql: guarded("$0 BETWEEN -1 AND 1", "asin($0)"), doc: "the arc sine, in radians (null outside [-1, 1])" }),
  scalar("acos", { args: "x: real", result: "real", nulls: "may", sql: guarded("$0 BETWEEN -1 AND 1", "acos($0)"), doc: "the arc cosine, in radians (null outside [-1, 1])" }),
  scalar("atan2", { args: "y: real, x: real", result: "real", sql: "atan2($0, $1)", doc: "the angle between the x axis and the point (x, y), in radians" }),
  unary("cot", "(1 / tan($0))", "the cotangent (radians)"),
  unary("degrees", "degrees($0)", "radians converted to degrees"),
  unary("radians", "radians($0)", "degrees converted to radians"),
  scalar("gamma", { args: "x: real", result: "real", sql: { duckdb: "gamma($0)", clickhouse: "tgamma($0)" }, doc: "the gamma function" }),
  scalar("loggamma", { args: "x: real", result: "real", sql: "lgamma($0)", doc: "the natural logarithm of the absolute gamma function" }),
  scalar("isinf", { args: "x: real", result: "bool", nulls: "never", sql: { duckdb: "coalesce(isinf($0), false)", clickhouse: "coalesce(isInfinite($0), false)" }, doc: "whether x is infinite" }),
  scalar("rand", {
    args: ["", "range: long"],
    result: (args) => (args.length ? "long" : "real"),
    nulls: "never",
    volatile: true,
    sql: {
      duckdb: ({ args }) => (args.length ? `CAST(floor(random() * ${args[0]}) AS BIGINT)` : "random()"),
      clickhouse: ({ args, salt }) => (args.length ? `toInt64(floor(randCanonical(${salt}) * ${args[0]}))` : `randCanonical(${salt})`),
    },
    doc: "a random real in [0, 1), or a random long in [0, range)",
  }),
];
