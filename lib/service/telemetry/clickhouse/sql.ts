/**
 * The SQL the ClickHouse telemetry store sends, whatever carries it (the HTTP client for servers
 * and clusters, chdb in process for tests and benchmarks): the tables of one customer's database,
 * the scoped sources a query reads, and the statement that renders a compiled query's rows as the
 * response's JSON (docs/architecture.md, "Telemetry on ClickHouse").
 *
 * Layout: one database per customer (customers are separated physically, docs/api.md §2), each with
 * `States` as one MergeTree table ordered by (PlantId, DeviceId, Name, Timestamp) — a query for a
 * plant, device or data point over a time range reads a few granules — and partitioned by month,
 * so old months can be dropped or moved whole; `Events` likewise ordered by plant, device, start.
 */
import { CLICKHOUSE_QUERY_SETTINGS, clickhouseDialect, clickhouseParam, statementSettings } from "@/lib/kql/dialect/clickhouse";
import { TABLES, type KqlSource, type ResultColumn, type TableName } from "@/lib/kql";
import type { TelemetryLimits, TelemetryScope } from "../store";
import { scopedSourcesOf } from "../scoped-sources";

/** Storage per column: low-cardinality names as LowCardinality, JSON metadata as text. */
const STORAGE: Record<string, string> = {
  DeviceId: "LowCardinality(String)",
  Name: "LowCardinality(String)",
  PlantId: "LowCardinality(String)",
  MessageType: "LowCardinality(String)",
  Severity: "LowCardinality(String)",
  EventId: "String",
  Message: "String",
};

const ENGINES: Record<TableName, string> = {
  // One row per reading (plant, device, data point, time): ingestion skips readings already stored,
  // a retried insert is dropped by its deduplication token, and a merge removes any duplicate left.
  States: `ENGINE = ReplacingMergeTree PARTITION BY toYYYYMM("Timestamp") ORDER BY ("PlantId", "DeviceId", "Name", "Timestamp") SETTINGS non_replicated_deduplication_window = 1000`,
  Events: `ENGINE = MergeTree PARTITION BY toYYYYMM("StartTime") ORDER BY ("PlantId", "DeviceId", "StartTime")`,
};

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The customer's database: `plantdesk_<customerId>` with anything but [A-Za-z0-9_] as `_`. */
export function customerDatabase(prefix: string, customerId: string): string {
  return `${prefix}${customerId.replace(/[^A-Za-z0-9_]/g, "_")}`;
}

function columnType(column: (typeof TABLES)[TableName]["columns"][number]): string {
  const base = STORAGE[column.name] ?? (column.form === "instant" ? "DateTime64(3, 'UTC')" : column.form === "number" ? "Float64" : "String");
  return column.nullable ? `Nullable(${base})` : base;
}

/** Statements creating a customer's database (idempotent). */
export function createCustomerSchema(database: string): string[] {
  const tables = (Object.keys(TABLES) as TableName[]).map(
    (table) => `CREATE TABLE IF NOT EXISTS ${q(database)}.${q(table)} (${TABLES[table].columns.map((c) => `${q(c.name)} ${columnType(c)}`).join(", ")}) ${ENGINES[table]}`,
  );
  return [
    `CREATE DATABASE IF NOT EXISTS ${q(database)}`,
    ...tables,
    `CREATE TABLE IF NOT EXISTS ${q(database)}.telemetry_meta (key String, value String) ENGINE = ReplacingMergeTree ORDER BY key`,
  ];
}

/** The scoped relations of a query (docs/api.md §6) in the customer's database. */
export function clickhouseSources(database: string, scope: TelemetryScope): Record<TableName, KqlSource> {
  return scopedSourcesOf(scope, { param: clickhouseParam, table: (name) => `${q(database)}.${q(name)}`, never: "0" });
}

/** Query settings of the store: the dialect's, plus the limits and read-only mode. */
export function querySettings(limits: Pick<TelemetryLimits, "timeoutMs">, extra: Record<string, string | number> = {}): string {
  const settings: Record<string, string | number> = {
    ...CLICKHOUSE_QUERY_SETTINGS,
    max_execution_time: Math.max(1, Math.ceil(limits.timeoutMs / 1000)),
    timeout_overflow_mode: "'throw'",
    ...extra,
  };
  return Object.entries(settings)
    .map(([key, value]) => `${key} = ${value}`)
    .join(", ");
}

/**
 * The statement that returns a compiled query's rows as JSON, one row per line (TabSeparatedRaw),
 * at most maxRows + 1 of them: one too many tells the caller the limit was reached, so it answers
 * QUERY_LIMIT_EXCEEDED instead of a shortened result.
 */
export function rowsStatement(compiled: { sql: string; columns: ResultColumn[] }, maxRows: number, settings: string): string {
  // Columns by position (a tuple of the row): the compiled query's aliases are its own business.
  const row = clickhouseDialect.rowJson(
    compiled.columns.map((c) => c.kqlType),
    (i) => `tupleElement(r.kql_row, ${i + 1})`,
  );
  const extra = Object.entries(statementSettings(compiled.sql)).map(([key, value]) => `, ${key} = ${value}`).join("");
  return `SELECT ${row} FROM (SELECT tuple(*) AS kql_row FROM (${compiled.sql})) AS r LIMIT ${maxRows + 1} SETTINGS ${settings}${extra} FORMAT TabSeparatedRaw`;
}

/** TabSeparatedRaw output of rowsStatement → the response's JSON array as bytes (newlines become commas). */
export function rowsToJsonArray(text: Uint8Array): { json: Uint8Array; rowCount: number } {
  let end = text.length;
  while (end > 0 && text[end - 1] === 0x0a) end--;
  const json = new Uint8Array(end + 2);
  json[0] = 0x5b;
  let rowCount = end > 0 ? 1 : 0;
  for (let i = 0; i < end; i++) {
    const byte = text[i]!;
    if (byte === 0x0a) {
      json[i + 1] = 0x2c;
      rowCount++;
    } else json[i + 1] = byte;
  }
  json[end + 1] = 0x5d;
  return { json, rowCount };
}
