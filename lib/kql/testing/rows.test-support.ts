/**
 * TEST-ONLY: a compiled query's rows as the tests read them, for both engines. Each engine renders
 * its rows to the response's JSON exactly as its telemetry store does (the dialect's rowJson inside
 * duckdb/json-rows.ts or clickhouse/sql.ts); this parses that JSON, so the suites compare what a
 * client would receive.
 */
import type { JsonValue, ResultColumn } from "../types";

export interface QueryOutput {
  columns: ResultColumn[];
  rows: JsonValue[][];
  sql: string;
}

/** Limits far above any test's result: the tests check rows, the limits have tests of their own. */
export const TEST_LIMITS = { maxRows: 10_000_000, maxBytes: 1024 * 1024 * 1024 };

/** The response's JSON array, in parts as the store writes them, as rows. */
export function queryOutput(compiled: { sql: string; columns: ResultColumn[] }, json: Uint8Array[]): QueryOutput {
  const rows = JSON.parse(Buffer.concat(json).toString("utf8")) as JsonValue[][];
  return { columns: compiled.columns, rows, sql: compiled.sql };
}
