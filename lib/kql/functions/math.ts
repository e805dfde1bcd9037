/** KQL's math functions (entry.ts says what an entry holds; docs/kql-functions.md how to add one). */
import { documented, scalar, type FunctionEntry } from "./entry";

/** `f(x)` when `condition` holds, else null (DuckDB raises where ADX gives no number). */
const guarded = (condition: string, value: string) => ({ duckdb: `CASE WHEN ${condition} THEN ${value} END`, clickhouse: `if(${condition}, ${value}, NULL)` });

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
  unary("exp2", "pow(2, $0)", "2 raised to x"),
  unary("exp10", "pow(10, $0)", "10 raised to x"),
  scalar("isnan", { args: "x: real", result: "bool", nulls: "never", sql: { duckdb: "coalesce(isnan($0), false)", clickhouse: "coalesce(isNaN($0), false)" }, doc: "whether x is not a number" }),
  scalar("isfinite", { args: "x: real", result: "bool", nulls: "never", sql: { duckdb: "coalesce(isfinite($0), false)", clickhouse: "coalesce(isFinite($0), false)" }, doc: "whether x is finite" }),
];
