/**
 * Functions whose ADX meaning rests on ADX's storage (docs/api.md, "ADX's storage and context"):
 * Plantdesk's tables keep no ingestion time, extents or extent tags, so each gives what ADX gives
 * for a table without them. current_database() and cursor_current() are analysed by hand
 * (analyze.ts): they read the query's database and now().
 */
import { documented, scalar, type FunctionEntry } from "./entry";

/** A value's size in bytes as ADX estimates it: a string's UTF-8 bytes, a number's or an instant's width. */
const size = {
  duckdb: (arg: string, type: string) => (type === "string" || type === "dynamic" ? `coalesce(strlen(CAST(${arg} AS VARCHAR)), 0)` : `CASE WHEN ${arg} IS NULL THEN 0 ELSE ${WIDTH[type] ?? 8} END`),
  clickhouse: (arg: string, type: string) => (type === "string" || type === "dynamic" ? `toInt64(coalesce(length(${arg}), 0))` : `toInt64(if(isNull(${arg}), 0, ${WIDTH[type] ?? 8}))`),
};
const WIDTH: Readonly<Record<string, number>> = { bool: 1, int: 4, long: 8, real: 8, datetime: 8, timespan: 8 };

export const ADX_CONTEXT: readonly FunctionEntry[] = [
  documented("scalar", "current_database", "current_database(): string — the database the query runs in (the customer's)"),
  documented("scalar", "cursor_current", "cursor_current(): string — the database cursor now (the query's now() in 100-ns ticks)"),
  scalar("ingestion_time", {
    args: "",
    result: "datetime",
    nulls: "may",
    sql: { duckdb: "CAST(NULL AS TIMESTAMP)", clickhouse: "CAST(NULL AS Nullable(DateTime64(6, 'UTC')))" },
    doc: "when the row was ingested: null, as ADX gives for a table without an ingestion-time policy",
  }),
  scalar("cursor_after", {
    args: "cursor: string",
    result: "bool",
    nulls: "may",
    sql: { duckdb: "CAST(NULL AS BOOLEAN)", clickhouse: "CAST(NULL AS Nullable(Bool))" },
    doc: "whether the row was ingested after the cursor: null, the rows have no ingestion time",
  }),
  scalar("cursor_before_or_at", {
    args: "cursor: string",
    result: "bool",
    nulls: "may",
    sql: { duckdb: "CAST(NULL AS BOOLEAN)", clickhouse: "CAST(NULL AS Nullable(Bool))" },
    doc: "whether the row was ingested at or before the cursor: null, the rows have no ingestion time",
  }),
  scalar("extent_id", {
    args: "",
    result: "string",
    sql: "''",
    doc: "the row's data shard: empty, Plantdesk's tables have no extents (ADX's guid type is not modelled)",
  }),
  scalar("extent_tags", {
    args: "",
    result: "dynamic",
    nulls: "never",
    sql: { duckdb: "CAST('[]' AS JSON)", clickhouse: "'[]'" },
    doc: "the tags of the row's data shard: an empty array, Plantdesk's tables have no extent tags",
  }),
  scalar("estimate_data_size", {
    args: "columns...: any",
    result: "long",
    nulls: "never",
    sql: {
      duckdb: ({ args, types }) => `CAST(${args.map((a, i) => size.duckdb(a, types[i]!)).join(" + ")} AS BIGINT)`,
      clickhouse: ({ args, types }) => `(${args.map((a, i) => size.clickhouse(a, types[i]!)).join(" + ")})`,
    },
    doc: "the estimated size in bytes of the values: a string's UTF-8 bytes, 8 for a long, real, datetime or timespan, 4 for an int, 1 for a bool, 0 for a null",
  }),
];
